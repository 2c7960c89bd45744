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

__all__ = ["build_atlas_report", "summary_table", "reading", "rank_table", "top_ranking", "write_game_page"]

_SUMMARY = [
    ("house_edge_staked", "house take / money staked"),
    ("house_edge", "house take / money exchanged"),
    ("house_edge_common", "5% rake / money exchanged"),
    ("role_luck_share", "seat luck (role that varies), SDs of a hand"),
    ("role_luck_after_rotation", "seat luck left after a rotation, share of its SD"),
    ("seat_spread", "seat spread from seat 0, unit per hand"),
    ("value_of_skill@default - random", "value of skill default − random, unit per hand"),
    ("value_of_skill@strong - default", "value of skill strongest − default, unit per hand"),
    ("hands_until_skill_shows@default - random", "hands until skill shows, default − random"),
    ("hands_until_skill_shows@strong - default", "hands until skill shows, strongest − default"),
    ("swing_normalised", "swing / mean |result|"),
    ("drawn_rate", "drawn hands"),
    ("natural_rate", "instant wins"),
    ("decisive_deal", "decisive deal (exact)"),
    ("mean_length", "mean length"),
]


def _num(v: float, measure: str) -> str:
    if _undefined(v):
        return ""
    if math.isinf(v):
        return "∞"
    if measure in ("house_edge", "house_edge_staked", "house_edge_common", "drawn_rate", "natural_rate",
                   "decisive_deal"):
        if v != 0 and abs(v) < 1e-4:
            return f"{100 * v:.2g}%"            # a rare event keeps two significant digits
        return f"{100 * v:.2f}%"
    if measure == "hands_until_skill_shows":
        return f"{v:,.0f}"
    if v != 0 and abs(v) < 0.01:
        return f"{v:.2g}"                       # a small share keeps two significant digits
    return f"{v:.3f}" if abs(v) < 100 else f"{v:,.1f}"


def _cell(r: pd.Series) -> str:
    m = r.measure
    if r.method == "exact" or abs(r.ci_high - r.ci_low) <= 1e-9 * max(1.0, abs(r.value)):
        return _num(r.value, m)                 # exact, or no noise (a constant take or rate)
    if _undefined(r.ci_low) and _undefined(r.ci_high):
        return f"{_num(r.value, m)} [no interval]" if not _undefined(r.value) else ""
    return f"{_num(r.value, m) or 'n/a'} [{_num(r.ci_low, m) or 'n/a'}, {_num(r.ci_high, m) or 'n/a'}]"


def _undefined(v: Any) -> bool:
    """True for a missing or NaN number (an interval too few values cannot give)."""
    return v is None or (isinstance(v, float) and math.isnan(v))


def _principal_rows(df: pd.DataFrame) -> pd.DataFrame:
    """``df`` without the role rows of roles other than each game's principal role (the role that varies)."""
    from kaptai.atlas import _principal

    principal = _principal(df)
    role = df.measure.str.startswith("role_")
    return df[~role | (df.relative_to == df.game.map(principal))]


#: The two halves of the games at a glance (each a readable width): money and luck, then skill and pace.
SUMMARY_PARTS: dict[str, tuple[str, ...]] = {
    "money and luck": ("house_edge_staked", "house_edge", "house_edge_common", "role_luck_share",
                       "role_luck_after_rotation", "seat_spread", "swing_normalised"),
    "skill and pace": ("value_of_skill@default - random", "value_of_skill@strong - default",
                       "hands_until_skill_shows@default - random", "hands_until_skill_shows@strong - default",
                       "drawn_rate", "natural_rate", "decisive_deal", "mean_length"),
}


def summary_table(df: pd.DataFrame, half: str | None = None) -> pd.DataFrame:
    """One row per game and variant, one column per headline measure (value [95% interval]); the
    seat luck is that of the game's role that varies (named in the ``role`` column; for a role a
    player bids for, measured with bidders that adapt to the scoring where the atlas has them).
    ``half`` (a key of :data:`SUMMARY_PARTS`) keeps that half of the measures (and ``role`` only
    with the luck)."""
    from kaptai.report.designer import _pick

    if half is not None and half not in SUMMARY_PARTS:
        raise ValueError(f"half {half!r}: expected one of {', '.join(SUMMARY_PARTS)}")
    keys = [k for k in _SUMMARY if half is None or k[0] in SUMMARY_PARTS[half]]

    rows = []
    df = _principal_rows(df)
    have = set(df.measure)
    for (g, v), part in df.groupby(["game", "variant"], sort=False):
        row: dict[str, Any] = {"game": g, "variant": v, "players": int(part.players.iloc[0])}
        flat = part[part.seat.isna()]
        by = {}
        for key, _label in keys:
            m, _, lev = key.partition("@")
            got = flat[flat.measure == m]
            got = got[got.level == lev] if lev else _pick(got, m)
            if len(got):
                by[key] = got.iloc[0]
        luck = _pick(part[part.measure == "role_luck_share"], "role_luck_share")
        bid = ""
        if "bidders" in luck.columns and len(luck) and luck.bidders.iloc[0] == "search":
            bid = ", search bidders"
        if any(k.startswith("role_") for k, _ in keys):
            row["role"] = (str(luck.relative_to.iloc[0]) + bid) if len(luck) else ""
        for key, label in keys:
            if key.partition("@")[0] in have:
                row[label] = _cell(by[key]) if key in by else ""
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
    from kaptai.report.designer import _pick

    sub = df[(df.game == game) & (df.variant == variant) & (df.measure == measure) & df.seat.isna()]
    if level is not None:
        sub = sub[sub.level == level]
    else:
        sub = _pick(sub, measure)
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
    # seats: from the roles (a rotation, the dice, the cards, an auction); what a rotation of the deal cancels
    from kaptai.report.designer import _pick

    seat_text = []
    roles = df.attrs.get("roles", {})
    for g, v in pairs:
        game_rows = df[(df.game == g) & (df.variant == v) & df.seat.isna()]
        parts = []
        for role in dict.fromkeys(game_rows[game_rows.measure == "role_luck_share"].relative_to):
            def pick(m: str) -> pd.DataFrame:
                return _pick(game_rows[(game_rows.measure == m) & (game_rows.relative_to == role)], m)

            share, after, spread = pick("role_luck_share"), pick("role_luck_after_rotation"), pick("role_spread")
            if share.empty or after.empty or spread.empty:
                continue
            how = next((x["assigned"] for x in roles.get(g, []) if x["name"] == role), "")
            if "bidders" in share.columns and share.bidders.iloc[0] == "search":
                how += ", measured with bidders that adapt to the scoring (search)"
            a = after.iloc[0]
            left = ("a rotation cancels it exactly" if a.method == "exact"
                    else f"after a full rotation {_cell(a)} is left")
            parts.append(f"from the {role.replace('_', ' ')} ({how}): spread {_cell(spread.iloc[0])} a hand, "
                         f"{_cell(share.iloc[0])} of a hand's SD; {left}")
        if parts:
            seat_text.append(f"{g}: " + "; ".join(parts) + ".")
    if seat_text:
        out.append("The luck of the seat, measured from the roles the rules give out (by rotation, dice or cards, "
                   "which no player chooses, or by an auction, which players bid for: there with bidders that "
                   "adapt to the scoring where the atlas has them); default rules, spreads in each game's unit: "
                   + " ".join(seat_text))
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


def top_ranking(ranked: pd.DataFrame, top: int = 3) -> pd.DataFrame:
    """The first ``top`` items of each ranked measure (and skill pair) of :func:`kaptai.atlas.ranking`,
    one row each: what is ranked (its label: which pair or role, which unit), rank, item,
    value [95% interval], how many share its rank."""
    rows = []
    has_label = "label" in ranked.columns
    # the role measures rank every game's role that varies in one group (the level is the role's name)
    group = ranked.level.astype(object).where(ranked.level.notna() & ~ranked.measure.map(measure_is_role), "")
    grp = ranked.assign(_group=group)
    for (m, _lev), part in grp.groupby(["measure", "_group"], sort=False):
        part = part[part["rank"].notna()].sort_values(["rank", "value"], kind="stable")
        for r in part.head(top).itertuples():
            what = (str(r.label) if has_label and isinstance(r.label, str) and r.label
                    else f"{m}" + (f" ({r.level})" if r.level else ""))
            unit = str(getattr(r, "unit", "") or "")
            rows.append({"ranked by": what, "unit": unit, "better": r.better, "rank": int(r.rank),
                         "game / variant": f"{r.game}/{r.variant}",
                         "value [95%]": _cell(pd.Series({"measure": m, "method": "", "value": r.value,
                                                          "ci_low": r.ci_low, "ci_high": r.ci_high})),
                         "items sharing its rank": int((part["rank"] == r.rank).sum()) - 1})
    out = pd.DataFrame(rows)
    if len(out) and not out["unit"].astype(bool).any():
        out = out.drop(columns=["unit"])
    return out


def measure_is_role(m: str) -> bool:
    return str(m).startswith("role_")


def _side_path(out: str | os.PathLike, tail: str) -> str:
    base, _ = os.path.splitext(os.fspath(out))
    return f"{base}-{tail}"


def _link(out: str | os.PathLike | None, path: str) -> str:
    if out is None:
        return path
    return os.path.relpath(path, os.path.dirname(os.path.abspath(os.fspath(out))) or ".")


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
    stake: float = 1.0,
    players_hands: int | None = None,
    game_pages: bool = True,
    top: int = 3,
    table: pd.DataFrame | None = None,
) -> tuple[str, pd.DataFrame]:
    """Run the atlas and write its report; returns (document text, atlas table).

    Beside ``out`` (``reports/atlas.html``) it writes the long tables as CSV
    (``atlas-table.csv`` every row of the atlas, ``atlas-ranking.csv``, ``atlas-differences.csv``
    the differences between variants, ``atlas-players.csv`` the measures by number of players)
    and, with ``game_pages``, one designer's page per game (``atlas-<game>.html`` or ``.md``:
    :mod:`kaptai.report.designer`).  A Markdown ``out`` gets its figures as PNG files beside it
    (``atlas-fig-<k>.png``), so that the Markdown stays small.  ``stake`` is the money per unit
    of each game in which the designer's effects are given over a session; ``players_hands``
    the hands of each default table of the sweep over the number of players (default
    ``min(hands, 20_000)``; 0 skips the sweep).  ``table``: an atlas table already computed
    (:func:`kaptai.atlas.atlas`), rendered instead of running the atlas.
    """
    from kaptai.atlas import MEASURES, atlas, ranking, verdict
    from kaptai.core.options import check_count
    from kaptai.report import designer as D

    fmt = report_format(out, fmt, checkpoint)
    stake = D.check_stake(stake)
    top = check_count("top", top, 1)
    sweep_hands = min(hands, 20_000) if players_hands is None else int(players_hands)
    report_step(progress, f"atlas: {hands:,} hands per default table, seed {seed}")
    t0 = time.perf_counter()
    if table is None:
        df = atlas(games=games, hands=hands, seed=seed, workers=workers, progress=progress, scheduler=scheduler,
                   checkpoint=checkpoint, strong_hands=strong_hands)
    else:
        df = table
    sweeps = []
    if sweep_hands > 0:
        for g in df.attrs["games"]:
            report_step(progress, f"players: {g}, {sweep_hands:,} hands per default table")
            ck = None if checkpoint is None else f"{os.fspath(checkpoint).rstrip(os.sep)}-players-{g}"
            sweeps.append(D.players_sweep(g, hands=sweep_hands, seed=seed, workers=workers, progress=progress,
                                          scheduler=scheduler, checkpoint=ck))
    sweep = pd.concat(sweeps, ignore_index=True) if sweeps else None
    if sweep is not None and sweeps:
        sweep.attrs.update(sweeps[0].attrs)
        sweep.attrs["roles"] = {k: v for s_ in sweeps for k, v in s_.attrs.get("roles", {}).items()}
        sweep.attrs["principal_roles"] = {k: v for s_ in sweeps for k, v in s_.attrs.get("principal_roles", {}).items()}
    elapsed = time.perf_counter() - t0
    report_step(progress, f"atlas done in {elapsed:.0f} s; rendering")
    ranked = ranking(df)
    diffs = D.variant_differences(df)
    full_table = df
    df = D._lite(df)               # the rest reads the table without its long attrs (pandas copies them)
    a = df.attrs
    rec = D.recommendations(df, diffs)
    ext = "md" if fmt == "md" else "html"
    side: dict[str, str] = {}
    if out is not None:
        full = D._lite(full_table).copy()
        full["seat"] = full["seat"].astype(object).where(full["seat"].notna(), None)
        for name, frame in (("table", full), ("ranking", ranked), ("differences", diffs),
                            ("players", sweep), ("recommendations", rec)):
            if frame is None:
                continue
            path = _side_path(out, f"{name}.csv")
            write_atomic(path, frame.to_csv(index=False))
            side[name] = path
        if game_pages:
            for g in a["games"]:
                page = _side_path(out, f"{g}.{ext}")
                write_game_page(df, g, page, fmt=fmt, stake=stake, sweep=sweep, differences=diffs, seed=seed,
                                hands=hands, atlas_page=os.path.basename(os.fspath(out)))
                side[f"page {g}"] = page
    house = D.house_measure(df)
    rec_short = rec[["game", "criterion", "pair / role", "unit", "recommended", "value", "how sure"]].copy()
    rec_short["how sure"] = (rec_short["how sure"].str.replace(": the 95% interval of its difference to every other "
                                                               "variant excludes 0", "", regex=False)
                             .str.replace(": its difference to ", ": vs ", regex=False))
    verdict_blocks: list[tuple[Any, ...]] = [
        ("verdict", "Headline: " + D.headline(df, rec)),
        ("p", "The verdict, from the ranking (kaptai.atlas.verdict): " + verdict(ranked)),
        ("table", rec_short, "Recommended variant per game and criterion (the role or skill pair, the unit; how "
                             "sure: from the 95% interval of the difference to each other variant)"),
    ]
    for g in a["games"]:
        if f"page {g}" in side:
            verdict_blocks.append(("link", _link(out, side[f"page {g}"]), f"{g}: the designer's page (recommendation, "
                                   f"effects in money, seat luck over a session, differences, players)"))
    sections = [Section("The verdict", verdict_blocks)]
    sections.append(Section("The games at a glance", [
        ("table", summary_table(df, "money and luck"),
         "Money and luck by game and variant (value [95% interval]; the seat luck is that of the role named in "
         "'role'; units in the last column)"),
        ("table", summary_table(df, "skill and pace"),
         "Skill and pace by game and variant (value [95% interval]; units in the last column)"),
    ]))
    money = []
    for g in a["games"]:
        first = next(iter(a["variant_descriptions"].get(g, {})), None)
        m = D.money_table(df, g, stake)
        if first is not None and len(m):
            money.append(m[m.variant == first].assign(game=g))
    if money:
        mt = pd.concat(money, ignore_index=True)
        mt = mt[["game"] + [c for c in mt.columns if c != "game"]]
        sessions = "; ".join(f"{g}: {D.session_hands(g, int(df[df.game == g].players.iloc[0]))[0]} hands"
                             for g in a["games"])
        sections.append(Section(f"In money: each default rules' effects at a stake of {stake:g} per unit", [
            ("p", f"Over a session of each game's usual length ({sessions}; why each, on its page). Per hand in the "
                  f"game's unit; over the session in money at {stake:g} per unit (kaptai report atlas --stake S "
                  "sets it): means scale with the hands, SDs (the swing, the seat's luck) with their square root."),
            ("table", mt, "Effects of each game's default rules (every row names its role or pair and its unit)"),
        ]))
    luck = D.luck_hands_table(df)
    if len(luck):
        sections.append(Section("How long until the seat's luck evens out", [
            ("p", f"Hands until the seat's luck — the SD, over where the role fell, of a player's expected total — "
                  f"is within {D.LUCK_SHARE:.0%} of the session's swing (√n SDs of one hand). A rotating role "
                  "cancels over whole rotations, so its share falls as 1/√n; a role that chance assigns afresh "
                  "keeps its share at every length (never, unless it starts within)."),
            ("table", luck, "The seat's luck over a session, by game, variant and role"),
        ]))
    blocks: list[tuple[Any, ...]] = [
        ("p", "Every game and variant is ranked by each unit-free measure (kaptai.atlas.ranking): rank 1 + the number "
              "of items clearly better (the interval of the difference wholly on the better side), so items whose "
              f"difference is not resolved share a rank. The first {top} of each measure below; the whole ranking, "
              "with intervals and ties, is the CSV beside this page."),
        ("table", top_ranking(ranked, top), f"The first {top} of each ranking (the label names the pair, the role "
                                            "and the unit)"),
    ]
    if "ranking" in side:
        blocks.append(("link", _link(out, side["ranking"]), f"The whole ranking ({len(ranked)} rows, CSV)"))
    sections.append(Section("The ranking", blocks))
    figs: list[tuple[Any, ...]] = []
    from kaptai.atlas import plot_map

    if (df.measure == "skill_effect_size").any():
        try:
            figs.append(("figure", plot_map(df).figure, "The map: skill effect size per hand (default over random) "
                                                        "against the house edge; both unit-free; 95% intervals"))
        except Exception:  # pragma: no cover - a table without the default - random pair
            pass
    dfig = D.plot_differences(diffs, None, ["role_luck_share", house, "value_of_skill_swing_share"])
    if dfig is not None:
        figs.append(("figure", dfig, "Differences between each variant and its game's default, one panel per "
                                     "measure (seat luck of the role that varies, house take, value of skill per "
                                     "skill pair, each in its own unit); 95% intervals"))
    for m in ("role_luck_share", "role_luck_after_rotation", house, "value_of_skill_swing_share",
              "skill_effect_size", "hands_until_skill_shows", "seat_spread_swing_share", "natural_rate",
              "drawn_rate"):
        if (df.measure == m).any():
            per_pair = df[(df.measure == m)].level.dropna().nunique() > 1 and not m.startswith("role_")
            figs.append(("figure", D.plot_unitfree(df, m), f"{m}: {MEASURES.get(m, '')} — by game and variant, "
                                                           "95% intervals" + ("; one colour per skill pair"
                                                                             if per_pair else "")))
    if (df.measure == "value_of_skill").any():
        figs.append(("figure", D.plot_by_unit(df, "value_of_skill"), "value_of_skill in each game's unit: one panel "
                                                                     "per unit, one colour per skill pair"))
    sections.append(Section("Figures", figs))
    sections.append(Section("Reading", [("p", t) for t in reading(df)]))
    sections.append(Section("What the atlas measures", [
        ("p", "Each game is played by its compiled engine under its own rules: a default table (every seat "
              "the game's default policy), and for skill the same two pairs in every game — the default "
              "policy against random, and the strongest policy against the default — the two players of a "
              "pair at one table with the field (the default policy) in the other seats, one table per "
              "ordered pair of seats. Every hand becomes one row of the same features (each seat's result, "
              "the house's take, the money that changes hands, drawn, instant win, length) and every measure "
              "is one definition for every game (kaptai.core.atlas). Intervals are 95%; seat advantages are "
              "simultaneous (Bonferroni); rates have exact Clopper–Pearson intervals. 'Hands until skill "
              "shows' is the smallest N with P(ahead after N hands) ≥ 95%, by exact convolution of the "
              "per-hand difference of the pair (its seats mixed), not the normal approximation."),
        ("table", pd.DataFrame([{"measure": k, "definition": v} for k, v in MEASURES.items()]), "Measures"),
        ("p", f"This run: kaptai report atlas --hands {hands} --seed {seed} --stake {stake:g}; "
              f"{len(a['games'])} games, {df.groupby(['game', 'variant']).ngroups} variants; the sweep over the "
              f"number of players {sweep_hands:,} hands a default table; {elapsed:.0f} s for this build with "
              f"{workers} worker(s)"
              + (" (with a checkpoint: chunks finished by an earlier run of the same atlas were read, "
                 "not played again)." if checkpoint is not None else ".")),
    ]))
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
    downloads = [("link", _link(out, p_), f"{name}: {os.path.basename(p_)}") for name, p_ in side.items()
                 if not name.startswith("page ")]
    if downloads:
        sections.append(Section("Downloads: the long tables", [
            ("p", "The long tables are CSV files beside this page (one row per observation, the atlas's columns)."),
            *downloads]))
    title = "The fairness atlas — five traditional games on one scale"
    meta = (f"kaptai {__version__} · generated {_dt.datetime.now(_dt.timezone.utc):%Y-%m-%d %H:%M} UTC · "
            f"seed {seed} · {hands:,} hands per default table · stake {stake:g} per unit")
    text = _render(title, sections, meta, fmt, out, "fig")
    if out is not None:
        write_atomic(out, text)
    return text, full_table


def _render(title: str, sections: list[Section], meta: str, fmt: str, out: str | os.PathLike | None,
            tag: str) -> str:
    if fmt == "html":
        return to_html(title, sections, meta)
    if out is None:
        return to_markdown(title, sections, meta)
    base = os.path.splitext(os.path.basename(os.fspath(out)))[0]
    return to_markdown(title, sections, meta, figure_dir=os.path.dirname(os.path.abspath(os.fspath(out))),
                       figure_prefix=f"{base}-{tag}")


def write_game_page(df: pd.DataFrame, game: str, out: str | os.PathLike, *, fmt: str = "html", stake: float = 1.0,
                    sweep: pd.DataFrame | None = None, differences: pd.DataFrame | None = None, seed: int = 1,
                    hands: int = 0, atlas_page: str | None = None) -> str:
    """One game's designer page (:func:`kaptai.report.designer.designer_sections`) written to ``out``."""
    from kaptai.report import designer as D

    title = f"{game}: which rules to adopt — the atlas for a game designer"
    meta = (f"kaptai {__version__} · generated {_dt.datetime.now(_dt.timezone.utc):%Y-%m-%d %H:%M} UTC · seed {seed}"
            f" · {hands:,} hands per default table · stake {stake:g} per unit")
    sections = D.designer_sections(df, game, stake=stake, sweep=sweep, differences=differences)
    if atlas_page:
        sections.append(Section("Every game", [("link", atlas_page, "The fairness atlas: every game on one scale")]))
    text = _render(title, sections, meta, fmt, out, "fig")
    write_atomic(out, text)
    return text
