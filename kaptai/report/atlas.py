"""The fairness atlas report: every game on one scale, with a plain-language reading.

``kaptai report atlas --out reports/atlas.html`` runs :func:`kaptai.atlas.atlas` once and
writes a self-contained page (or Markdown): the definitions, one summary table, the map
and one figure per measure, and a reading whose every number is taken from that run's
table (nothing is typed in by hand).
"""

from __future__ import annotations

import datetime as _dt
import math
import os
import time
from typing import Any

import pandas as pd

from kaptai._version import __version__
from kaptai.report.render import Section, report_step, report_format, to_html, to_markdown, write_atomic

__all__ = ["build_atlas_report", "summary_table", "reading", "rank_table"]

_SUMMARY = [
    ("house_edge", "house edge"),
    ("house_edge_common", "5% rake edge"),
    ("role_luck_share", "seat luck / swing (role that varies)"),
    ("role_luck_after_rotation", "seat luck left after a rotation"),
    ("seat_spread", "seat spread"),
    ("value_of_skill", "value of skill"),
    ("hands_until_skill_shows", "hands until skill shows"),
    ("swing_normalised", "swing / mean |result|"),
    ("drawn_rate", "drawn hands"),
    ("natural_rate", "instant wins"),
    ("decisive_deal", "decisive deal (exact)"),
    ("mean_length", "mean length"),
]


def _num(v: float, measure: str) -> str:
    if v is None or (isinstance(v, float) and math.isnan(v)):
        return ""
    if math.isinf(v):
        return "∞"
    if measure in ("house_edge", "house_edge_common", "drawn_rate", "natural_rate", "decisive_deal"):
        if v != 0 and abs(v) < 1e-4:
            return f"{100 * v:.2g}%"            # a rare event keeps two significant digits
        return f"{100 * v:.2f}%"
    if measure == "hands_until_skill_shows":
        return f"{v:,.0f}"
    return f"{v:.3f}" if abs(v) < 100 else f"{v:,.1f}"


def _cell(r: pd.Series) -> str:
    m = r.measure
    if r.method == "exact" or abs(r.ci_high - r.ci_low) <= 1e-9 * max(1.0, abs(r.value)):
        return _num(r.value, m)                 # exact, or no noise (a constant take or rate)
    return f"{_num(r.value, m)} [{_num(r.ci_low, m)}, {_num(r.ci_high, m)}]"


def _principal_rows(df: pd.DataFrame) -> pd.DataFrame:
    """``df`` without the role rows of roles other than each game's principal role (the role that varies)."""
    from kaptai.atlas import _principal

    principal = _principal(df)
    role = df.measure.str.startswith("role_")
    return df[~role | (df.relative_to == df.game.map(principal))]


def summary_table(df: pd.DataFrame) -> pd.DataFrame:
    """One row per game and variant, one column per headline measure (value [95% interval]); the
    seat luck is that of the game's role that varies (named in the ``role`` column)."""
    rows = []
    df = _principal_rows(df)
    for (g, v), part in df.groupby(["game", "variant"], sort=False):
        row: dict[str, Any] = {"game": g, "variant": v, "players": int(part.players.iloc[0])}
        by = {r.measure: r for _, r in part[part.seat.isna()].iterrows()}
        luck = part[part.measure == "role_luck_share"]
        row["role"] = str(luck.relative_to.iloc[0]) if len(luck) else ""
        for m, label in _SUMMARY:
            row[label] = _cell(by[m]) if m in by else ""
        unit = df.attrs.get("units", {}).get(g, "")
        row["unit"] = unit
        rows.append(row)
    return pd.DataFrame(rows)


#: The measures of the compact ranking table (every ranked measure is in the long one).
_RANKED_SHOWN = ("role_luck_share", "role_luck_after_rotation", "role_spread_swing_share", "house_edge",
                 "value_of_skill_swing_share", "hands_until_skill_shows")


def rank_table(ranked: pd.DataFrame, measures: tuple[str, ...] = _RANKED_SHOWN) -> pd.DataFrame:
    """:func:`kaptai.atlas.ranking` as one row per game and variant, one column per measure (and
    skill pair) of ``measures``: ``rank · value`` (rank 1 = best; equal ranks where the
    intervals overlap)."""
    rows: dict[tuple[str, str], dict[str, Any]] = {}
    for r in ranked[ranked.measure.isin(measures)].itertuples():
        col = r.measure if r.level is None or r.measure.startswith("role_") else f"{r.measure} ({r.level})"
        row = rows.setdefault((r.game, r.variant), {"game": r.game, "variant": r.variant})
        row[col] = "" if math.isnan(r.rank) else f"{int(r.rank)} · {_num(r.value, r.measure)}"
    # in the atlas's order of games and variants (attrs), else as they come
    order = [(g, v) for g in ranked.attrs.get("games", []) for v in ranked.attrs.get("variant_descriptions", {})
             .get(g, {})]
    keys = [k for k in order if k in rows] + [k for k in rows if k not in order]
    return pd.DataFrame([rows[k] for k in keys]).fillna("")


def _row(df: pd.DataFrame, game: str, variant: str, measure: str, level: str | None = None) -> pd.Series | None:
    sub = df[(df.game == game) & (df.variant == variant) & (df.measure == measure) & df.seat.isna()]
    if level is not None:
        sub = sub[sub.level == level]
    return None if sub.empty else sub.iloc[0]


def reading(df: pd.DataFrame) -> list[str]:
    """Plain-language paragraphs; every number is read from ``df``."""
    out: list[str] = []
    main = df.groupby("game", sort=False).variant.first()           # each game's default variant
    pairs = [(g, v) for g, v in main.items()]

    def r(g, v, m):
        return _row(df, g, v, m)

    # house
    edges = [(g, v, r(g, v, "house_edge")) for g, v in pairs]
    edges = [e for e in edges if e[2] is not None]
    if edges:
        cut = [e for e in edges if e[2].value > 0]
        free = [e for e in edges if e[2].value == 0 and e[2].ci_high == 0]
        text = []
        if cut:
            top = max(cut, key=lambda e: e[2].value)
            text.append(f"Of the default rules, {top[0]} ({top[1]}) is the most a house game: the house keeps "
                        f"{_cell(top[2])} of the money that changes hands.")
        if free:
            text.append("No house takes anything in " + ", ".join(f"{g}" for g, _, _ in free)
                        + " under their own rules (house edge exactly 0).")
        text.append("The house edge is the house's take over the money that changes hands (what the losers "
                    "pay the winners), one definition for every game; a common 5% rake on winnings is therefore "
                    "exactly 5% everywhere (its rows are marked exact).")
        out.append(" ".join(text))
    # skill: the same pair in every game (default - random), then the strongest against the default
    pol = df.attrs.get("atlas_policies", {})
    for level, what in (("default - random", "the default policy is ahead of a random player"),
                        ("strong - default", "the strongest policy is ahead of a default player")):
        sk: list[tuple[str, str, Any, Any]] = []
        for g, v in pairs:
            h_row, v_row = _row(df, g, v, "hands_until_skill_shows", level), _row(df, g, v, "value_of_skill", level)
            if h_row is not None and v_row is not None:
                sk.append((g, v, h_row, v_row))
        if not sk:
            continue
        finite = [s for s in sk if math.isfinite(s[2].value) and s[3].ci_low > 0]
        text = []
        if finite:
            fast = min(finite, key=lambda s: s[2].value)
            slow = max(finite, key=lambda s: s[2].value)
            names = pol.get(fast[0], {})
            who = (f" ({names.get('strong', {}).get(fast[1], '')} against {names.get('default', '')})"
                   if level == "strong - default" and names else "")
            text.append(f"At one table, {what} with 95% probability soonest in {fast[0]}{who}: after "
                        f"{_num(fast[2].value, 'hands_until_skill_shows')} hands (interval "
                        f"{_num(fast[2].ci_low, 'hands_until_skill_shows')}–{_num(fast[2].ci_high, 'hands_until_skill_shows')}).")
            if slow is not fast:
                text.append(f"Slowest in {slow[0]}: {_num(slow[2].value, 'hands_until_skill_shows')} hands.")
        unclear = [s for s in sk if not s[3].ci_low > 0]
        if unclear:
            text.append("In " + ", ".join(s[0] for s in unclear) + f" the run could not show that {what.split(' is ')[0]} "
                        "is ahead at all (the interval of its edge reaches 0).")
        out.append(" ".join(text))
    # seats: from the roles, which nobody chooses; what a rotation of the deal cancels
    seat_text = []
    roles = df.attrs.get("roles", {})
    for g, v in pairs:
        game_rows = df[(df.game == g) & (df.variant == v) & df.seat.isna()]
        parts = []
        for role in dict.fromkeys(game_rows[game_rows.measure == "role_luck_share"].relative_to):
            share = game_rows[(game_rows.measure == "role_luck_share") & (game_rows.relative_to == role)]
            after = game_rows[(game_rows.measure == "role_luck_after_rotation") & (game_rows.relative_to == role)]
            spread = game_rows[(game_rows.measure == "role_spread") & (game_rows.relative_to == role)]
            if share.empty or after.empty or spread.empty:
                continue
            how = next((x["assigned"] for x in roles.get(g, []) if x["name"] == role), "")
            a = after.iloc[0]
            left = ("a rotation cancels it exactly" if a.method == "exact"
                    else f"after a full rotation {_cell(a)} is left")
            parts.append(f"from the {role.replace('_', ' ')} ({how}): spread {_cell(spread.iloc[0])} a hand, "
                         f"{_cell(share.iloc[0])} of a hand's SD; {left}")
        if parts:
            seat_text.append(f"{g}: " + "; ".join(parts) + ".")
    if seat_text:
        out.append("The luck of the seat, measured from the roles the rules assign (no player chooses them; "
                   "default rules, spreads in each game's unit): " + " ".join(seat_text))
    # swing and length
    sw = [(g, v, r(g, v, "swing_normalised")) for g, v in pairs]
    sw = [s for s in sw if s[2] is not None and not math.isnan(s[2].value)]
    if len(sw) > 1:
        hi = max(sw, key=lambda s: s[2].value)
        lo = min(sw, key=lambda s: s[2].value)
        out.append(f"Results swing most, relative to what a hand usually moves, in {hi[0]} "
                   f"({_cell(hi[2])} times the mean absolute result) and least in {lo[0]} ({_cell(lo[2])}).")
    dec = [(g, v, r(g, v, "decisive_deal"), r(g, v, "natural_rate")) for g, v in pairs]
    dec = [d for d in dec if d[2] is not None]
    if dec:
        out.append("The deal alone decides a hand (exact): " + "; ".join(
            f"{g} {d.level} {_num(d.value, 'decisive_deal')}"
            + (f" (simulated instant wins {_cell(n)})" if n is not None else "") for g, _, d, n in dec) + ".")
    return out


def build_atlas_report(
    *,
    games: Any = None,
    hands: int = 20_000,
    seed: int = 1,
    out: str | os.PathLike | None = None,
    fmt: str | None = None,
    workers: int = 1,
    progress: bool = True,
    scheduler: str | None = None,
    checkpoint: str | os.PathLike | None = None,
    strong_hands: int | None = None,
) -> tuple[str, pd.DataFrame]:
    """Run the atlas and write its report; returns (document text, atlas table)."""
    from kaptai.atlas import MEASURES, atlas, atlas_figures, ranking, verdict

    fmt = report_format(out, fmt, checkpoint)
    report_step(progress, f"atlas: {hands:,} hands per default table, seed {seed}")
    t0 = time.perf_counter()
    df = atlas(games=games, hands=hands, seed=seed, workers=workers, progress=progress, scheduler=scheduler,
               checkpoint=checkpoint, strong_hands=strong_hands)
    elapsed = time.perf_counter() - t0
    report_step(progress, f"atlas done in {elapsed:.0f} s; rendering")
    a = df.attrs
    sections = [
        Section("What the atlas measures", [
            ("p", "Each game is played by its compiled engine under its own rules: a default table (every seat "
                  "the game's default policy), and for skill the same two pairs in every game — the default "
                  "policy against random, and the strongest policy against the default — the two players of a "
                  "pair at one table with the field (the default policy) in the other seats, one table per "
                  "ordered pair of seats. Every hand becomes one row of the same features (each seat's result, "
                  "the house's take, the money that changes hands, drawn, instant win, length) and every measure "
                  "is one definition for every game (kaptai.core.atlas). Intervals are 95% delta-method normal "
                  "intervals; seat advantages are simultaneous (Bonferroni); rates have exact Clopper–Pearson "
                  "intervals. 'Hands until skill shows' is the smallest N with P(ahead after N hands) ≥ 95%, by "
                  "exact convolution of the per-hand difference of the pair (its seats mixed), not the normal "
                  "approximation."),
            ("table", pd.DataFrame([{"measure": k, "definition": v} for k, v in MEASURES.items()]), "Measures"),
            ("p", f"This run: kaptai atlas --hands {hands} --seed {seed} (report: kaptai report atlas --hands "
                  f"{hands} --seed {seed}); {len(a['games'])} games, {df.groupby(['game', 'variant']).ngroups} "
                  f"variants; {elapsed:.0f} s for this build with {workers} worker(s)"
                  + (" (with a checkpoint: chunks finished by an earlier run of the same atlas were read, "
                     "not played again)." if checkpoint is not None else ".")),
        ]),
        Section("The games at a glance", [
            ("table", summary_table(df), "Headline measures by game and variant (value [95% interval])"),
        ]),
        Section("Reading", [("p", t) for t in reading(df)]),
    ]
    ranked = ranking(df)
    sections.append(Section("The verdict, with its uncertainty", [
        ("p", verdict(ranked)),
        ("p", "Every game and variant is ranked by each unit-free measure (kaptai.atlas.ranking): the rank is 1 + "
              "the number of items whose 95% interval lies wholly on the better side of this one's, so items "
              "whose intervals overlap share a rank. The seat-luck measures are those of each game's role that "
              "varies (the role chance assigns, else the rotating dealer)."),
        ("table", rank_table(ranked), "Rank · value of every game and variant by the headline unit-free "
                                      "measures (1 = best)"),
        ("table", ranked, "The ranking with its intervals and ties (tied_with: the items whose intervals overlap)"),
    ]))
    figs = atlas_figures(df)
    fig_blocks = []
    for name, fig in figs.items():
        cap = ("The map: skill effect size per hand against house edge, 95% intervals" if name == "map"
               else f"{name}: {MEASURES.get(name, '')}, by game and variant, 95% intervals")
        fig_blocks.append(("figure", fig, cap))
    sections.append(Section("Figures", fig_blocks))
    notes = []
    for g in a["games"]:
        vs = a["variant_descriptions"].get(g, {})
        pol = a["atlas_policies"][g]
        roles = "; ".join(f"{x['name']} ({x['assigned']}): {x['description']}" for x in a.get("roles", {}).get(g, []))
        notes.append(("p", f"{g} (seat 0 = the {a['reference_seats'][g]}, unit: {a['units'][g]}; the field plays "
                           f"{pol['default']}): {a['notes'].get(g, '')} Roles: {roles}. Variants: "
                           + "; ".join(f"{k} — {d} (strong policy {pol['strong'].get(k, '')})"
                                       for k, d in vs.items())))
    sections.append(Section("How each game is put on the scale", notes))
    full = df.copy()
    full["seat"] = full["seat"].astype(object).where(full["seat"].notna(), None)
    sections.append(Section("The full table", [("table", full, "Every row of the atlas")]))
    title = "The fairness atlas — five traditional games on one scale"
    meta = (f"kaptai {__version__} · generated {_dt.datetime.now(_dt.timezone.utc):%Y-%m-%d %H:%M} UTC · "
            f"seed {seed} · {hands:,} hands per default table")
    text = to_html(title, sections, meta) if fmt == "html" else to_markdown(title, sections, meta)
    if out is not None:
        write_atomic(out, text)
    return text, df
