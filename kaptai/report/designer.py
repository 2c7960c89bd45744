"""The atlas read by a game designer: which variant to adopt, what it is worth in money, how
long the seat's luck takes to even out, and how the measures move with the number of players.

Everything here is read from a table of :func:`kaptai.atlas.atlas` (and, for the figure by
number of players, from :func:`players_sweep`, which plays each game's default rules at every
player count the rules allow, sampled); nothing is typed in by hand but the session lengths
(:data:`SESSIONS`: each with its reason) and the stake, which the reader sets.

* :func:`recommendations` -- per game and criterion (least seat luck, least house take, skill
  that shows soonest), the variant with the best value and how sure that is, from the 95%
  interval of its difference to every other variant (:func:`variant_differences`: the paired
  differences of :mod:`kaptai.atlas` where the atlas gives them, else the difference of two
  independent runs, said so in its ``paired`` column).
* :func:`money_table` -- each effect (seat luck, swing, house take, value of skill) per hand
  in the game's unit and over a session of the game's usual length in money at ``stake``.
* :func:`seat_luck_hands` -- the hands until the seat's luck is within a stated share of a
  session's swing.
* :func:`players_sweep` / :func:`plot_players` -- the headline measures from the fewest to the
  most players.
* :func:`plot_differences`, :func:`plot_unitfree`, :func:`plot_by_unit` -- figures with one
  unit per axis, a colour and a legend entry per skill pair, infinite interval ends drawn as
  arrows.

Examples
--------
>>> from kaptai.report.designer import session_hands
>>> session_hands("nantong", 4)[0], session_hands("heaven-eleven", 4)[0]
(32, 4)
"""

from __future__ import annotations

import math
import os
from collections.abc import Sequence
from dataclasses import replace
from typing import Any

import numpy as np
import pandas as pd

from kaptai.core.output import sig3
from kaptai.errors import RulesError, quote_token

__all__ = ["SESSIONS", "CRITERIA", "LUCK_SHARE", "session_hands", "variant_unit", "variant_differences",
           "recommendations", "money_table", "seat_luck_hands", "luck_hands_table", "players_counts", "MOST_SEATS",
           "players_sweep", "plot_players", "plot_differences", "plot_unitfree", "plot_by_unit", "designer_sections",
           "check_stake", "house_measure", "headline"]

#: The share of a session's swing the seat's luck must fall within (:func:`seat_luck_hands`).
LUCK_SHARE = 0.10

#: The usual session of each game: ``(base hands, rounded to whole rotations of the deal, why)``;
#: ``None`` hands means "read the rules' own match length" (see :func:`session_hands`).
SESSIONS: dict[str, tuple[int | None, bool, str]] = {
    "kap-tai-shap": (100, True, "the rules set no match length; 100 hands is the length kaptai.kts.sessions plays "
                                "by default, rounded to whole rotations of the deal"),
    "big-two": (100, False, "the rules set no match length; 100 games is the length kaptai.bigtwo.sessions plays "
                            "by default (the leader is the ♦3 holder, so there is no rotation to round to)"),
    "nine-ten": (100, True, "the rules set no match length; 100 hands as the other games' session tools, rounded "
                            "to whole rotations of the deal"),
    "nantong": (None, True, "the rules' match: 8 圈, each player deals 8 times (rounds = 8: 24 hands with 3 "
                            "players, 32 with 4)"),
    "heaven-eleven": (None, True, "the rules' game: `rounds` = 4, each player deals once (4 hands); totals are "
                                  "compared at its end"),
}

#: The criteria of :func:`recommendations`: (key, label, measure, level or None = the principal
#: role, lower is better).
CRITERIA: tuple[tuple[str, str, str, str | None, bool], ...] = (
    ("seat_luck", "least seat luck", "role_luck_share", None, True),
    ("house", "least house take", "", None, True),          # measure: house_measure(df)
    ("skill_novice", "skill shows soonest (default policy over random)", "hands_until_skill_shows",
     "default - random", True),
    ("skill_strong", "skill shows soonest (strongest policy over the default)", "hands_until_skill_shows",
     "strong - default", True),
)

#: Measures of the house's take per money staked, if the atlas has one (preferred, in order).
_HOUSE_STAKED = ("house_edge_staked", "house_take_staked", "house_take_per_staked", "house_per_staked")


def check_stake(stake: Any) -> float:
    """``stake`` as a positive finite float (money per unit of the game), else a RulesError.

    >>> check_stake(2)
    2.0
    >>> check_stake(-1)
    Traceback (most recent call last):
    ...
    kaptai.errors.RulesError: stake=-1 is not allowed: expected a positive number (money per unit of the game)
    """
    if isinstance(stake, bool) or not isinstance(stake, (int, float)) or not math.isfinite(stake) or stake <= 0:
        raise RulesError(f"stake={quote_token(stake)} is not allowed: expected a positive number (money per unit "
                         "of the game)")
    return float(stake)


def house_measure(df: pd.DataFrame) -> str:
    """The atlas measure of the house's take a designer reads: per money staked where the table
    has it, else ``house_edge`` (per money that changes hands)."""
    have = set(df.measure)
    return next((m for m in _HOUSE_STAKED if m in have), "house_edge")


def _rules_rounds(game: str) -> int | None:
    from kaptai.games import game as game_spec

    pkg = game_spec(game).package
    try:
        import importlib

        rules = importlib.import_module(f"{pkg}.rules")
        return int(getattr(rules.resolve_rules(), "rounds"))
    except Exception:  # pragma: no cover - a game without a rounds option
        return None


def session_hands(game: str, players: int) -> tuple[int, str]:
    """The hands of a session of ``game`` at ``players`` (:data:`SESSIONS`) and why that length.

    Nantong's match is ``rounds`` (8) deals per player; Heaven Eleven's game is ``rounds`` (4)
    hands; the others have no match length in their rules and take 100 hands, rounded to whole
    rotations of the deal where the deal rotates."""
    base, rotate, why = SESSIONS.get(game, (100, False, "no session length known: 100 hands"))
    if base is None:
        r = _rules_rounds(game) or 1
        n = r * players if game == "nantong" else r
        return n, why
    n = players * max(1, round(base / players)) if rotate else base
    return int(n), why


def variant_unit(df: pd.DataFrame, game: str, variant: str) -> str:
    """The money unit of one variant's results: the unit the feed names for it (a feed that names
    one unit per scoring, ``'ante (pot) / point (advanced)'``, gives the one of this variant)."""
    unit = str(df.attrs.get("units", {}).get(game, "unit"))
    desc = str(df.attrs.get("variant_descriptions", {}).get(game, {}).get(variant, "")).lower()
    if " / " in unit:
        parts = [p.strip() for p in unit.split(" / ")]
        for p in parts:
            if "(" in p:
                word, tag = p.split("(", 1)
                if tag.rstrip(")").strip().lower() in (variant.lower(), *desc.split()):
                    return word.strip()
        for p in parts:
            if "(" in p and p.split("(", 1)[1].rstrip(")").strip().lower() in desc:
                return p.split("(", 1)[0].strip()
        return parts[0].split("(", 1)[0].strip()
    if "(" in unit and "rank_only" in unit and _settlement(game, variant) == "rank_only":
        return "hand win (1 point)"
    if "(" in unit:
        return unit.split("(", 1)[0].strip() + (" of 胡數" if "胡數" in unit else "")
    return unit


def _lite(df: pd.DataFrame) -> pd.DataFrame:
    """``df`` without the long records in its ``attrs`` (the pairwise differences): pandas deep-copies
    ``attrs`` on every operation, which made each filter of a full atlas table cost ~15 ms."""
    if "pairwise" not in df.attrs:
        return df
    attrs = {k: v for k, v in df.attrs.items() if k != "pairwise"}
    out = pd.DataFrame(dict(df.items()), index=df.index)
    out.attrs = attrs
    return out


def _pick(sub: pd.DataFrame, measure: str) -> pd.DataFrame:
    """The rows a designer reads among those of one measure: for a role measure, those measured
    with adaptive bidders where the atlas has them (a role a player bids for: ``bidders`` =
    'search'), else the default table's (``level`` None)."""
    if sub.empty:
        return sub
    if measure.startswith("role_") and "bidders" in sub.columns:
        adaptive = sub[sub.bidders.astype(object) == "search"]
        if len(adaptive):
            return adaptive
    if measure.startswith(("role_", "seat_", "swing", "exchanged", "house", "drawn", "natural", "mean_")):
        plain = sub[sub.level.isna()] if measure not in ("decisive_deal",) else sub
        if "bidders" in plain.columns:
            plain = plain[plain.bidders.astype(object) != "search"]
        if len(plain):
            return plain
    return sub


def _settlement(game: str, variant: str) -> str | None:
    """The ``settlement`` option of a variant of the atlas feed (None where it has none)."""
    import importlib

    from kaptai.atlas import feed_of
    from kaptai.games import game as game_spec

    try:
        v = next(x for x in feed_of(game).variants if x.name == variant)
        mod = importlib.import_module(str(game_spec(game).atlas).split(":")[0])
        cfg = mod.variant_config(v)
        return str(cfg.rules.settlement)
    except Exception:
        return variant if variant == "rank_only" else None


def _row(df: pd.DataFrame, game: str, variant: str, measure: str, level: str | None = None,
         role: str | None = None) -> pd.Series | None:
    sub = df[(df.game == game) & (df.variant == variant) & (df.measure == measure) & df.seat.isna()]
    if level is not None:
        sub = sub[sub.level == level]
    if role is not None:
        sub = sub[sub.relative_to == role]
    sub = _pick(sub, measure) if level is None else sub
    return None if sub.empty else sub.iloc[0]


def _same_table(df: pd.DataFrame, row: pd.Series | None, measure: str) -> pd.Series | None:
    """The row of ``measure`` (no seat) from the same table as ``row``: the same game, variant, level
    and bidders (a role's luck measured on the adaptive seat table is read with that table's swing,
    not the default table's); None where that table has no such row."""
    if row is None:
        return None
    sub = df[(df.game == row.game) & (df.variant == row.variant) & (df.measure == measure) & df.seat.isna()]
    lev = row.get("level")
    sub = sub[sub.level.isna()] if pd.isna(lev) else sub[sub.level == lev]
    if "bidders" in sub.columns:
        bid = row.get("bidders")
        sub = sub[sub.bidders.isna()] if pd.isna(bid) else sub[sub.bidders.astype(object) == bid]
    return None if sub.empty else sub.iloc[0]


def _pair_policies(df: pd.DataFrame, game: str, variant: str | None, level: str) -> str:
    """`` (search − greedy)``: the policies of a skill pair (the variant's, or every variant's when
    they differ and ``variant`` is None); '' when the table does not name them."""
    pol = df.attrs.get("atlas_policies", {}).get(game)
    if not pol or " - " not in level:
        return ""
    strong = pol.get("strong", {})
    names = []
    for v in ([variant] if variant is not None else list(strong) or [None]):
        who = {"default": pol.get("default", ""), "random": pol.get("random", ""),
               "strong": strong.get(v, "") if v is not None else ""}
        x, y = level.split(" - ", 1)
        names.append(f"{who.get(x, x)} − {who.get(y, y)}")
    names = list(dict.fromkeys(names))
    return f" ({' / '.join(names)})" if all(names) else ""


def _bidders_note(df: pd.DataFrame, game: str) -> str:
    """'' or a note that the seat luck of ``game`` is measured with adaptive bidders."""
    if "bidders" in df.columns and ((df.game == game) & (df.bidders.astype(object) == "search")).any():
        return " (measured with bidders that adapt to the scoring: the search bidders)"
    return ""


def _principal(df: pd.DataFrame, game: str) -> str | None:
    got = df.attrs.get("principal_roles", {}).get(game)
    if got:
        return str(got)
    roles = df.attrs.get("roles", {}).get(game, [])
    chance = [r["name"] for r in roles if r.get("assigned") != "rotation"]
    return chance[0] if chance else (roles[0]["name"] if roles else None)


# --------------------------------------------------------------------------------------
# Differences between variants
# --------------------------------------------------------------------------------------

_DIFF_COLUMNS = ["game", "measure", "level", "variant", "baseline", "diff", "ci_low", "ci_high", "paired", "method"]


def _paired_frame(df: pd.DataFrame) -> pd.DataFrame | None:
    """The atlas's own pairwise differences (``kaptai.atlas.pairwise``, kept in
    ``df.attrs['pairwise']``: ``diff`` = value(A) − value(B), A the earlier variant) as
    :data:`_DIFF_COLUMNS` (``variant`` = B, ``baseline`` = A, ``diff`` = B − A; role measures
    with ``level`` = the role); None where the atlas gives none."""
    got = df.attrs.get("pairwise")
    if isinstance(got, (list, tuple)) and len(got):
        got = pd.DataFrame(list(got))
    if not isinstance(got, pd.DataFrame):
        import kaptai.atlas as A

        fn = getattr(A, "pairwise", None)
        if callable(fn):
            try:
                got = fn(df)
            except Exception:
                got = None
    if not isinstance(got, pd.DataFrame) or got.empty:
        return None
    need = {"game", "variant_a", "variant_b", "measure", "diff", "ci_low", "ci_high"}
    if not need <= set(got.columns):
        return None
    g = got.copy()
    for c in ("level", "relative_to", "bidders", "shared_deals", "method", "note"):
        if c not in g.columns:
            g[c] = None
    keep = []
    for game in dict.fromkeys(g.game):
        part = g[g.game == game]
        principal = _principal(df, game)
        role = part.measure.str.startswith("role_")
        roles = part[role & (part.relative_to == principal)]
        if len(roles):
            roles = _pick(roles, "role_luck_share")
        keep.append(pd.concat([part[~role], roles]))
    g = pd.concat(keep) if keep else g
    out = pd.DataFrame({
        "game": g.game, "measure": g.measure,
        "level": [rt if str(m).startswith("role_") else lv for m, lv, rt in zip(g.measure, g.level, g.relative_to)],
        "variant": g.variant_b, "baseline": g.variant_a, "diff": -g["diff"].astype(float),
        "ci_low": -g.ci_high.astype(float), "ci_high": -g.ci_low.astype(float),
        "paired": g.shared_deals.fillna(False).astype(bool),
        "method": [f"{m}" + (f" ({n})" if isinstance(n, str) and n else "") for m, n in zip(g.method, g.note)]})
    return out[_DIFF_COLUMNS].reset_index(drop=True)


def variant_differences(df: pd.DataFrame, measures: Sequence[str] | None = None,
                        confidence: float = 0.95) -> pd.DataFrame:
    """Every pair of variants of a game, for each headline measure: ``variant - baseline`` with
    its 95% interval.

    The atlas's paired differences (the same deals under both variants) where it gives them
    (``paired`` True); otherwise the difference of two independent runs, its interval the
    normal one with the two variances added (each read from the half-width of the row's
    interval; ``paired`` False, ``method`` ``'independent runs'``).  Role measures are those of
    each game's principal role (the role that varies); skill measures one row per pair.

    Examples
    --------
    >>> import pandas as pd
    >>> df = pd.DataFrame({"game": ["g", "g"], "variant": ["a", "b"], "measure": ["house_edge"] * 2,
    ...                    "seat": [None, None], "relative_to": ["dealer"] * 2, "level": [None, None],
    ...                    "value": [0.05, 0.02], "ci_low": [0.04, 0.01], "ci_high": [0.06, 0.03]})
    >>> d = variant_differences(df, ["house_edge"])
    >>> d[["variant", "baseline"]].values.tolist(), round(float(d["diff"].iloc[0]), 3)
    ([['b', 'a']], -0.03)
    """
    from kaptai.core.stats import z_value

    ms = list(measures) if measures is not None else ["role_luck_share", "role_luck_after_rotation", house_measure(df),
                                                       "value_of_skill_swing_share", "hands_until_skill_shows"]
    paired = _paired_frame(df)
    df = _lite(df)
    if paired is not None:
        out = paired[paired.measure.isin(ms)]
        if len(out):
            return out.reset_index(drop=True)
    z = z_value(confidence)
    rows: list[dict[str, Any]] = []
    for game in dict.fromkeys(df.game):
        gdf = df[(df.game == game) & df.seat.isna()]
        variants = list(dict.fromkeys(gdf.variant))
        principal = _principal(df, game)
        for m in ms:
            sub = gdf[gdf.measure == m]
            if m.startswith("role_"):
                sub = _pick(sub[sub.relative_to == principal], m)
            levels = list(dict.fromkeys(sub.level.where(sub.level.notna(), None)))
            if m.startswith("role_") or not m.startswith(("value_of", "hands_until", "skill_")):
                levels, sub = [None], _pick(sub, m)
            for lev in levels:
                part = sub[sub.level.isna()] if lev is None else sub[sub.level == lev]
                by = {r.variant: r for r in part.itertuples()}
                for i, a in enumerate(variants):
                    for b in variants[i + 1:]:
                        if a not in by or b not in by:
                            continue
                        ra, rb = by[a], by[b]
                        d = float(rb.value - ra.value)
                        if not (np.isfinite(rb.value) and np.isfinite(ra.value)):
                            lo = hi = math.nan
                        else:
                            sa = max(ra.value - ra.ci_low, ra.ci_high - ra.value) / z
                            sb = max(rb.value - rb.ci_low, rb.ci_high - rb.value) / z
                            half = z * math.hypot(sa, sb) if np.isfinite(sa) and np.isfinite(sb) else math.inf
                            lo, hi = d - half, d + half
                        rows.append({"game": game, "measure": m, "level": lev if not m.startswith("role_") else
                                     principal, "variant": b, "baseline": a, "diff": d, "ci_low": lo, "ci_high": hi,
                                     "paired": False, "method": "independent runs"})
    return pd.DataFrame(rows, columns=_DIFF_COLUMNS)


def _sure(diff_rows: pd.DataFrame, best: str, lower: bool) -> tuple[str, list[str]]:
    """How sure the pick ``best`` is: every difference to it clearly on its side, or not."""
    tied = []
    for r in diff_rows.itertuples():
        if best not in (r.variant, r.baseline):
            continue
        other = r.baseline if r.variant == best else r.variant
        # d = other - best (flip when best is the 'variant')
        lo, hi = (r.ci_low, r.ci_high) if r.baseline == best else (-r.ci_high, -r.ci_low)
        clear = (lo > 0) if lower else (hi < 0)
        if not clear:
            tied.append(other)
    return ("sure: the 95% interval of its difference to every other variant excludes 0" if not tied
            else "not sure: its difference to " + ", ".join(tied) + " could be 0 (95% interval)"), tied


def recommendations(df: pd.DataFrame, differences: pd.DataFrame | None = None) -> pd.DataFrame:
    """Per game and criterion (:data:`CRITERIA`) the recommended variant and how sure it is.

    The variant with the best value of the criterion's measure (lower seat luck, lower house
    take, fewer hands until skill shows; ties in value go to the first variant, the game's
    default); *sure* when the 95% interval of its difference to every other variant
    (:func:`variant_differences`) lies on its side of 0.  Columns ``game, criterion, measure,
    pair / role, unit, recommended, value, next best, difference, how sure, comparison``.
    """
    diffs = variant_differences(df) if differences is None else differences
    df = _lite(df)
    house = house_measure(df)
    rows = []
    for game in dict.fromkeys(df.game):
        principal = _principal(df, game)
        for key, label, measure, level, lower in CRITERIA:
            m = house if key == "house" else measure
            sub = df[(df.game == game) & (df.measure == m) & df.seat.isna()]
            if m.startswith("role_"):
                sub = _pick(sub[sub.relative_to == principal], m)
                who = (f"role: the {principal}" if principal else "") + _bidders_note(df, game)
            elif level is not None:
                sub = sub[sub.level == level]
                who = f"pair: {level}" + _pair_policies(df, game, None, level)
            else:
                sub = _pick(sub, m)
                who = "the whole table"
            candidates = len(sub)
            # a variant whose skill never shows (an infinite estimate) is not recommended, but it stays among the
            # others: its difference to the pick decides how sure the pick is (:func:`_sure`)
            sub = sub[np.isfinite(sub.value.to_numpy(float))] if m == "hands_until_skill_shows" else sub
            if sub.empty:
                continue
            order = sub.sort_values("value", ascending=lower, kind="stable")
            best = order.iloc[0]
            unit = str(best.unit)
            d = diffs[(diffs.game == game) & (diffs.measure == m)]
            if level is not None:
                d = d[d.level == level]
            if candidates == 1:
                sure, nxt, dtext = "only one variant has this measure", "", ""
            elif len(order) == 1:
                sure, _ = _sure(d, best.variant, lower)
                nxt, dtext = "", ""
            elif (order.value.nunique() == 1 and (order.ci_low == order.value).all()
                  and (order.ci_high == order.value).all()):
                sure, nxt, dtext = "every variant has the same value (exactly): no choice to make", "", ""
                best = best.copy()
                best["variant"] = "any (all equal)"
            else:
                sure, _ = _sure(d, best.variant, lower)
                second = order.iloc[1]
                nxt = f"{second.variant} ({_fmt_value(second.value, m)})"
                dd = d[((d.variant == second.variant) & (d.baseline == best.variant))
                       | ((d.variant == best.variant) & (d.baseline == second.variant))]
                if len(dd):
                    r = dd.iloc[0]
                    lo, hi, v = ((r.ci_low, r.ci_high, r["diff"]) if r.baseline == best.variant
                                 else (-r.ci_high, -r.ci_low, -r["diff"]))
                    dtext = (f"{second.variant} − {best.variant}: {_fmt_value(v, m, signed=True)} "
                             f"[{_fmt_value(lo, m, signed=True)}, {_fmt_value(hi, m, signed=True)}]")
                else:
                    dtext = ""
            comp = ("paired (same deals)" if len(d) and bool(d.paired.all())
                    else "independent runs" if len(d) else "")
            rows.append({"game": game, "criterion": label, "measure": m, "pair / role": who, "unit": unit,
                         "recommended": best.variant, "value": _est(best), "next best": nxt, "difference": dtext,
                         "how sure": sure, "comparison": comp})
    return pd.DataFrame(rows)


def _fmt_value(v: float, measure: str, signed: bool = False) -> str:
    """``v`` as text in the measure's form; a negative number with the minus sign (−), as −∞."""
    return _value_text(v, measure, signed).replace("-", "−", 1)


def _value_text(v: float, measure: str, signed: bool = False) -> str:
    if v is None or (isinstance(v, float) and math.isnan(v)):
        return "n/a"
    if math.isinf(v):
        return ("+∞" if signed else "∞") if v > 0 else "−∞"
    v = float(v) + 0.0                       # no "-0"
    if measure == "hands_until_skill_shows":
        v = round(v) + 0.0
    sign = "+" if signed and v > 0 else ""
    if measure.startswith("house") or measure in ("drawn_rate", "natural_rate"):
        return f"{sign}{100 * v:.2f}%"
    if measure == "hands_until_skill_shows":
        return f"{sign}{v:,.0f}"
    return sign + sig3(v)


def _est(r: Any) -> str:
    m = r.measure
    if not (np.isfinite(r.ci_low) or np.isfinite(r.ci_high)) and np.isnan(r.ci_low):
        return _fmt_value(r.value, m)
    if r.ci_low == r.value == r.ci_high:
        return _fmt_value(r.value, m)
    return f"{_fmt_value(r.value, m)} [{_fmt_value(r.ci_low, m)}, {_fmt_value(r.ci_high, m)}]"


# --------------------------------------------------------------------------------------
# The seat's luck over a session
# --------------------------------------------------------------------------------------


def _role_evs(df: pd.DataFrame, game: str, variant: str, role: str, players: int) -> tuple[np.ndarray, ...]:
    sub = df[(df.game == game) & (df.variant == variant) & (df.measure == "role_ev") & (df.relative_to == role)]
    sub = _pick(sub, "role_ev")
    e = np.zeros(players)
    lo = np.zeros(players)
    hi = np.zeros(players)
    for r in sub.itertuples():          # an offset that sits out has no row: its result is 0
        k = int(r.seat)
        e[k], lo[k], hi[k] = r.value, r.ci_low, r.ci_high
    return e, lo, hi


def _rotation_luck(e: np.ndarray, n: np.ndarray) -> np.ndarray:
    """SD over the starting offset of a player's expected total after ``n`` hands of a rotating
    role (offsets taken in turn), about the mean: 0 at every whole rotation."""
    P = e.size
    c = e - e.mean()
    cum = np.concatenate([[0.0], np.cumsum(np.concatenate([c, c]))])
    r = np.asarray(n) % P
    # partial sum of r consecutive offsets from start j: cum[j + r] - cum[j]
    j = np.arange(P)
    part = cum[j[None, :] + r[:, None]] - cum[j[None, :]]
    return np.sqrt((part ** 2).mean(axis=1))


def seat_luck_hands(e: Sequence[float] | np.ndarray, swing: float, assigned: str, share: float = LUCK_SHARE,
                    after_rotation: float | None = None) -> float:
    """Hands until the seat's luck stays within ``share`` of a session's swing.

    The seat's luck after ``n`` hands is the SD, over where the role fell, of a player's
    expected total; the session's swing is ``sqrt(n) * swing`` (the SD of one player's total).

    * A role that rotates (``assigned='rotation'``): the player takes the offsets in turn, so
      the luck is that of a partial rotation (0 at every whole one) and its share falls like
      ``1 / sqrt(n)``; the answer is the smallest ``n`` from which the share stays within.
    * A role chance assigns: the luck grows as ``sqrt(n)`` like the swing, so its share is the
      same at every length (``after_rotation``: the atlas's ``role_luck_after_rotation``):
      1 hand if it is within ``share``, else never (``inf``).

    Examples
    --------
    >>> from kaptai.report.designer import seat_luck_hands
    >>> e = [0.3, -0.1, -0.1, -0.1]          # the dealer's place 0.3 a hand, the others -0.1
    >>> seat_luck_hands(e, 1.0, "rotation", share=0.05)  # last over 5%: 14 hands, 0.2 / sqrt(14) = 0.053
    15.0
    >>> seat_luck_hands([0.3, -0.1, -0.1, -0.1], 1.0, "dice", after_rotation=0.17)
    inf
    """
    ev: np.ndarray = np.asarray(e, dtype=np.float64)
    if not (swing > 0) or not np.all(np.isfinite(ev)):
        return math.nan
    if assigned != "rotation":
        a = after_rotation if after_rotation is not None else float(np.sqrt(((ev - ev.mean()) ** 2).mean())) / swing
        return 1.0 if a <= share else math.inf
    top = float(_rotation_luck(ev, np.arange(ev.size)).max())
    if top <= share * swing:
        return 1.0
    bound = int(math.ceil((top / (share * swing)) ** 2)) + 1
    n = np.arange(1, bound + 1)
    ratio = _rotation_luck(ev, n) / (np.sqrt(n) * swing)
    over = np.nonzero(ratio > share)[0]
    return float(n[over[-1]] + 1) if len(over) else 1.0


def luck_hands_table(df: pd.DataFrame, share: float = LUCK_SHARE) -> pd.DataFrame:
    """Per game, variant and role: the seat's luck per hand (share of a hand's SD), what is left
    after whole rotations, and the hands until it stays within ``share`` of a session's swing
    (:func:`seat_luck_hands`) -- at the point estimates, and at the worst corner of the offsets'
    95% intervals with the swing's low end (``worst case``)."""
    df = _lite(df)
    rows = []
    roles_of = df.attrs.get("roles", {})
    for (game, variant), part in df[df.seat.isna()].groupby(["game", "variant"], sort=False):
        P = int(part.players.iloc[0])
        sw = _row(df, game, variant, "swing")
        if sw is None:
            continue
        n_sess, _ = session_hands(game, P)
        for role in roles_of.get(game, []):
            name, assigned = role["name"], role["assigned"]
            luck = _row(df, game, variant, "role_luck_share", role=name)
            after = _row(df, game, variant, "role_luck_after_rotation", role=name)
            if luck is None or after is None:
                continue
            # the swing of the table the role's rows come from (the adaptive seat table's, where they do)
            sw = _same_table(df, after, "swing")
            if sw is None:
                continue
            e, lo, hi = _role_evs(df, game, variant, name, P)
            n = seat_luck_hands(e, float(sw.value), assigned, share, float(after.value))
            if assigned == "rotation":
                worst = 1.0
                k = e.size
                if k <= 12 and np.all(np.isfinite(lo)) and np.all(np.isfinite(hi)) and sw.ci_low > 0:
                    corners = (np.arange(2 ** k)[:, None] >> np.arange(k)[None, :]) & 1
                    for c in corners:
                        worst = max(worst, seat_luck_hands(np.where(c == 1, hi, lo), float(sw.ci_low), assigned,
                                                           share))
                else:
                    worst = math.nan
            else:
                worst = 1.0 if after.ci_high <= share else math.inf
            rows.append({"game": game, "variant": variant, "role": f"{name} ({assigned})",
                         "luck per hand (share of a hand's SD)": _est(luck),
                         "left after whole rotations (share of the session's SD)": _est(after),
                         f"hands until within {share:.0%} of a session's swing": _hands(n),
                         "worst case (95% box)": _hands(worst),
                         "session (hands)": n_sess})
    return pd.DataFrame(rows)


def _hands(n: float) -> str:
    if math.isnan(n):
        return "n/a"
    if math.isinf(n):
        return "never (chance assigns it afresh)"
    return f"{n:,.0f}"


# --------------------------------------------------------------------------------------
# Money
# --------------------------------------------------------------------------------------


def money_table(df: pd.DataFrame, game: str, stake: float = 1.0) -> pd.DataFrame:
    """Each effect of each variant of ``game`` per hand in the game's unit and over a session
    (:func:`session_hands`) in money at ``stake`` per unit.

    Rows (every one names its pair or role and its unit): the session's swing (SD of one
    player's total: ``swing * sqrt(n)``); the seat's luck over the session (SD of a player's
    expected total from where the role fell: ``role_luck_after_rotation * swing * sqrt(n)``,
    0 for a role that rotates over whole rotations); the best place relative to the role
    over the worst (``role_spread``) as if kept every hand; the house's take from the whole
    table (``house_edge * exchanged * n``); the value of skill of each pair
    (``value_of_skill * n``: what the first of the pair is ahead of the second after the
    session, on average).  The intervals are those of the per-hand measures, scaled."""
    stake = check_stake(stake)
    df = _lite(df)
    rows: list[dict[str, Any]] = []
    principal = _principal(df, game)
    for variant in dict.fromkeys(df[df.game == game].variant):
        P = int(df[(df.game == game) & (df.variant == variant)].players.iloc[0])
        n, _ = session_hands(game, P)
        unit = variant_unit(df, game, variant)
        sw = _row(df, game, variant, "swing")

        def add(effect: str, who: str, v: float, lo: float, hi: float, scale: float, per_hand: bool = True,
                _variant: str = variant, _unit: str = unit, _n: int = n) -> None:
            rows.append({"variant": _variant, "effect": effect, "pair / role": who, "unit": _unit,
                         "per hand (unit)": _money(v, lo, hi, 1.0) if per_hand else "",
                         f"over a session (money at {stake:g} per unit)": _money(v, lo, hi, scale * stake),
                         "session (hands)": _n})

        if sw is not None:
            add("swing: SD of one player's result", "each player", sw.value, sw.ci_low, sw.ci_high, math.sqrt(n))
        for role in df.attrs.get("roles", {}).get(game, []):
            name = role["name"]
            after = _row(df, game, variant, "role_luck_after_rotation", role=name)
            spread = _row(df, game, variant, "role_spread", role=name)
            # the swing of the table the role's rows come from: the adaptive seat table's where the role's
            # luck is measured there, not the default table's
            sw_role = _same_table(df, after, "swing")
            if after is not None and sw_role is not None:
                k = float(sw_role.value) * math.sqrt(n)
                add("seat luck over the session: SD of a player's expected total from where the role fell",
                    f"role: the {name} ({role['assigned']})" + (" — the role that varies" if name == principal else "")
                    + (f"; the {_level_text(after.level)} table's luck and swing" if _level_text(after.level) else ""),
                    after.value * k, after.ci_low * k, after.ci_high * k, 1.0, per_hand=False)
            if spread is not None:
                add("best place relative to the role over the worst, if kept every hand",
                    f"role: the {name} ({role['assigned']})", spread.value, spread.ci_low, spread.ci_high, n)
        edge, ex = _row(df, game, variant, "house_edge"), _row(df, game, variant, "exchanged")
        if edge is not None and ex is not None and edge.value > 0:
            v = edge.value * ex.value
            add("the house's take from the whole table", "the house", v, edge.ci_low * ex.ci_low,
                edge.ci_high * ex.ci_high, n)
        for lev in ("default - random", "strong - default"):
            vs = _row(df, game, variant, "value_of_skill", level=lev)
            if vs is not None:
                add("value of skill: the first of the pair ahead of the second",
                    f"pair: {lev}" + _pair_policies(df, game, variant, lev), vs.value,
                    vs.ci_low, vs.ci_high, n)
    return pd.DataFrame(rows)


def _money(v: float, lo: float, hi: float, scale: float) -> str:
    def f(x: float) -> str:
        x *= scale
        if not math.isfinite(x):
            return "n/a"
        return f"{x:,.2f}" if abs(x) < 1000 else f"{x:,.0f}"

    if not math.isfinite(v):
        return "n/a"
    if lo == v == hi or not (math.isfinite(lo) and math.isfinite(hi)):
        return f(v)
    return f"{f(v)} [{f(lo)}, {f(hi)}]"


# --------------------------------------------------------------------------------------
# By number of players
# --------------------------------------------------------------------------------------


#: The most seats the atlas measures (its seat-luck interval tries every corner of a box of one
#: coordinate per seat: :func:`kaptai.core.atlas.variance_range`).
MOST_SEATS = 16


def players_counts(game: str, most: int = 10) -> list[int]:
    """The player counts of the sweep: every count the default rules allow from the fewest up to
    ``most``, then a few more (doubling) up to the most the rules allow or :data:`MOST_SEATS`
    (the atlas measures at most 16 seats), and that count.

    >>> players_counts("big-two")
    [2, 3, 4, 5, 6, 7, 8, 9, 10, 16]
    >>> players_counts("heaven-eleven")
    [4]
    """
    from kaptai.games import game as game_spec

    lo, hi = game_spec(game).players
    lo, hi = _playable(game, lo, hi)
    hi = min(hi, MOST_SEATS)
    out = list(range(lo, min(hi, most) + 1))
    k = out[-1]
    while k * 2 < hi:
        k *= 2
        out.append(k)
    if out[-1] != hi:
        out.append(hi)
    return out


def _playable(game: str, lo: int, hi: int) -> tuple[int, int]:
    """The counts the default rules play (nine-ten's play needs 4-7 under its defaults)."""
    from kaptai.atlas import feed_of

    feed = feed_of(game)
    v = feed.variants[0]
    ok = []
    for p in sorted({lo, hi} | set(range(lo, min(hi, 16) + 1))):
        try:
            _check_variant(game, replace(v, players=p))
            ok.append(p)
        except Exception:
            continue
    if not ok:
        return v.players, v.players
    return min(ok), max(ok) if hi <= 16 or hi in ok else hi


def _check_variant(game: str, v: Any) -> None:
    import importlib

    from kaptai.games import game as game_spec

    mod = importlib.import_module(str(game_spec(game).atlas).split(":")[0])
    for name in ("variant_config", "variant_rules"):
        fn = getattr(mod, name, None)
        if fn is None:
            continue
        if name == "variant_rules":
            from kaptai.games import game as gs

            rules = fn(v)
            cfg_mod = importlib.import_module(f"{gs(game).package}.config")
            cfg_mod.make_config(v.players, rules)
        else:
            fn(v)
        return


def players_sweep(game: str, counts: Sequence[int] | None = None, hands: int = 20_000, seed: int = 1,
                  workers: int = 1, *, skill: bool = True, skill_most: int = 8, progress: bool = False,
                  scheduler: str | None = None, checkpoint: str | os.PathLike | None = None) -> pd.DataFrame:
    """The atlas of ``game``'s default rules at each player count of ``counts`` (default
    :func:`players_counts`): a default table of ``hands`` hands, and the ``default - random``
    pair (``hands`` in all over its seat arrangements) up to ``skill_most`` players (above that
    the P(P-1) arrangements would leave few hands each).  A table of :func:`kaptai.atlas.atlas`'s
    columns, the variant named ``'<P> players'``.
    """
    from kaptai.atlas import _Job, _Tasks, _chunk_hands, _job_entropy, _merge, _play, _table, feed_of
    from kaptai.core.atlas import PAIRS
    from kaptai.core.options import check_count, check_seed
    from kaptai.core.runner import TaskSizes, run_chunks
    from kaptai.games import game as game_spec

    spec = game_spec(game)
    feed = feed_of(game)
    hands = check_count("hands", hands, 1)
    entropy = check_seed(seed)
    counts = list(counts) if counts is not None else players_counts(spec.name)
    base = feed.variants[0]
    jobs: list[Any] = []
    for P in counts:
        v = replace(base, name=f"{P} players", players=int(P), description=f"{base.name} rules, {P} players")
        default = tuple([feed.default_policy] * P)
        jobs.append(_Job(len(jobs), spec.atlas or "", _job_of(spec.name, v, default), "default", None, hands,
                         _job_entropy(entropy, spec.name, v.name, "default", None)))
        if not skill or P > skill_most:
            continue
        sitting = set(feed.sitting_out(v)) if feed.sitting_out is not None else set()
        active = [s for s in range(P) if s not in sitting]
        arrangements = [(a, b) for a in active for b in active if a != b]
        label, rx, ry = PAIRS[0]
        roles = {"default": feed.default_policy, "random": feed.random_policy}
        per = -(-hands // len(arrangements))
        for a, b in arrangements:
            pol = list(default)
            pol[a], pol[b] = roles[rx], roles[ry]
            jobs.append(_Job(len(jobs), spec.atlas or "", _job_of(spec.name, v, tuple(pol)), "pair", None, per,
                             _job_entropy(entropy, spec.name, v.name, f"pair {label}", f"{a},{b}"),
                             pair=label, seats=(a, b), heavy=False))
    feeds = {spec.name: feed}
    tasks = _Tasks(jobs, [_chunk_hands(feed, j.heavy) for j in jobs])
    fingerprint = {"kind": "kaptai.report.designer.players_sweep", "seed": entropy, "hands": hands,
                   "jobs": [[j.job.game, j.job.variant.name, j.role, j.pair, list(j.seats or ()), j.hands]
                            for j in jobs]}
    counts_ = run_chunks(_play, tasks, merge=_merge, workers=workers, scheduler=scheduler, checkpoint=checkpoint,
                         fingerprint=fingerprint, progress=progress, desc=f"players {spec.name}",
                         sizes=TaskSizes(*tasks.plans))
    return _table(jobs, feeds, counts_, 0.95, entropy, hands)


def _job_of(game: str, v: Any, policies: tuple[str, ...]) -> Any:
    from kaptai.core.atlas import AtlasJob

    return AtlasJob(game, v, policies)


# --------------------------------------------------------------------------------------
# Figures (one unit per axis)
# --------------------------------------------------------------------------------------

_LEVEL_COLOURS = {None: "#1f77b4", "default - random": "#1f77b4", "strong - default": "#d62728"}
_PANEL_UNITS = {"role_luck_share": "share of one hand's SD", "house_edge": "share of the money exchanged",
                "value_of_skill_swing_share": "share of one hand's SD", "hands_until_skill_shows": "hands (log scale)",
                "role_luck_after_rotation": "share of the session's SD", "skill_effect_size": "ratio",
                "seat_spread_swing_share": "share of one hand's SD", "natural_rate": "probability",
                "drawn_rate": "probability"}
_TITLES = {"role_luck_share": "seat luck per hand", "role_luck_after_rotation": "seat luck left after whole rotations",
           "value_of_skill_swing_share": "value of skill", "hands_until_skill_shows": "hands until skill shows",
           "house_edge": "house take per money exchanged", "skill_effect_size": "skill effect size",
           "seat_spread_swing_share": "seat spread (reference seat numbering)", "natural_rate": "instant wins",
           "drawn_rate": "drawn hands"}


def _title(measure: str) -> str:
    if measure in _TITLES:
        return _TITLES[measure]
    if measure in _HOUSE_STAKED:
        return "house take per money staked"
    return measure.replace("_", " ")


def _unit_label(measure: str) -> str:
    if measure in _HOUSE_STAKED:
        return "share of the money staked"
    return _PANEL_UNITS.get(measure, measure)


def _errorbars(ax, x: np.ndarray, y: np.ndarray, lo: np.ndarray, hi: np.ndarray, colour: str, label: str | None,
               horizontal: bool, log: bool) -> None:
    """Points with interval bars; an infinite (or off-axis) end is drawn as an arrow to the axis edge."""
    fin_lo = np.isfinite(lo)
    fin_hi = np.isfinite(hi)
    v = x if horizontal else y
    with np.errstate(invalid="ignore"):
        el = np.where(fin_lo & np.isfinite(v), v - lo, 0.0)
        eh = np.where(fin_hi & np.isfinite(v), hi - v, 0.0)
    ok = np.isfinite(v)
    if horizontal:
        ax.errorbar(v[ok], y[ok], xerr=[np.maximum(el[ok], 0), np.maximum(eh[ok], 0)], fmt="o", ms=4, capsize=3,
                    color=colour, label=label)
    else:
        ax.errorbar(x[ok], v[ok], yerr=[np.maximum(el[ok], 0), np.maximum(eh[ok], 0)], fmt="o", ms=4, capsize=3,
                    color=colour, label=label)
    return None


def _arrows(ax, pos: np.ndarray, v: np.ndarray, lo: np.ndarray, hi: np.ndarray, colour: str, horizontal: bool) -> None:
    """After the limits are set: an arrow from each point to the axis edge where its interval end
    is infinite (a point whose value is infinite is an arrow from the last finite end)."""
    lim = ax.get_xlim() if horizontal else ax.get_ylim()
    edge = max(lim)
    for p, val, a, b in zip(pos, v, lo, hi):
        if np.isfinite(b) and np.isfinite(val):
            continue
        start = val if np.isfinite(val) else (a if np.isfinite(a) else None)
        if start is None:
            continue
        if horizontal:
            ax.annotate("", xy=(edge, p), xytext=(start, p),
                        arrowprops={"arrowstyle": "->", "color": colour, "lw": 1.2})
            if not np.isfinite(val):
                ax.text(edge, p, " ∞", va="center", ha="left", color=colour, fontsize=7, clip_on=False)
        else:
            ax.annotate("", xy=(p, edge), xytext=(p, start), arrowprops={"arrowstyle": "->", "color": colour, "lw": 1.2})


def plot_unitfree(df: pd.DataFrame, measure: str, *, role_principal: bool = True, ax=None):
    """One unit-free measure for every game and variant, a colour and a legend entry per skill
    pair, infinite interval ends as arrows to the axis edge ("∞" where the value itself is).
    Returns the Figure."""
    import matplotlib.pyplot as plt

    from kaptai.core.plotting import with_cjk_font

    sub = df[(df.measure == measure) & df.seat.isna()]
    if measure.startswith("role_") and role_principal:
        sub = sub[[r.relative_to == _principal(df, r.game) for r in sub.itertuples()]]
    if sub.empty:
        raise RulesError(f"measure {quote_token(measure)} is not in the table")

    def lab(r) -> str:
        role = f" (role: the {r.relative_to})" if measure.startswith("role_") else ""
        return f"{r.game} · {r.variant}{role}"

    labels = list(dict.fromkeys(lab(r) for r in sub.itertuples()))
    # one group per skill pair (or, for a role's luck, per kind of players, e.g. Heaven Eleven's search
    # bidders); rows without a level form their own group
    levels = list(dict.fromkeys(None if (lv is None or lv != lv) else lv for lv in sub.level))

    def group_name(lev: Any, part: pd.DataFrame) -> str | None:
        if lev is not None:
            return str(lev) if measure.startswith("role_") else f"pair: {lev}"
        if len(levels) == 1:
            return None
        if "bidders" in part.columns and part.bidders.notna().any():
            return f"{part.bidders.dropna().iloc[0]} bidders"
        return "the table's own players"

    @with_cjk_font
    def draw():
        fig, a = plt.subplots(figsize=(8.0, 0.36 * len(labels) + 1.6)) if ax is None else (ax.figure, ax)
        ypos = {x: i for i, x in enumerate(labels)}
        log = measure == "hands_until_skill_shows"
        drawn = []
        for k, lev in enumerate(levels):
            part = sub[sub.level.isna()] if lev is None else sub[sub.level == lev]
            off = 0.0 if len(levels) == 1 else (k - (len(levels) - 1) / 2) * 0.3
            y = np.array([ypos[lab(r)] + off for r in part.itertuples()])
            v, lo, hi = (part[c].to_numpy(float) for c in ("value", "ci_low", "ci_high"))
            colour = _LEVEL_COLOURS.get(lev, f"C{k}")
            name = group_name(lev, part)
            _errorbars(a, v, y, lo, hi, colour, name, True, log)
            drawn.append((y, v, lo, hi, colour))
        a.set_yticks(range(len(labels)))
        a.set_yticklabels(labels, fontsize=7.5)
        a.invert_yaxis()
        if log:
            a.set_xscale("log")
        if measure != "hands_until_skill_shows" and (sub.ci_low < 0).any():
            a.axvline(0.0, color="grey", lw=0.8)
        finite = np.concatenate([np.concatenate([d[1], d[2], d[3]]) for d in drawn])
        finite = finite[np.isfinite(finite)]
        if len(finite):
            top = float(finite.max())
            a.set_xlim(right=top * (1.6 if log else 1.08) if top > 0 else top + 1)
        for y, v, lo, hi, colour in drawn:
            _arrows(a, y, v, lo, hi, colour, True)
        unit = _unit_label(measure)
        a.set_xlabel(f"{_title(measure)} ({unit.replace(' (log scale)', '')}, log scale)" if "(log scale)" in unit
                     else f"{_title(measure)} ({unit})")
        if levels != [None]:
            a.legend(fontsize=7, loc="best", title="arrow: interval end at ∞", title_fontsize=6.5)
        a.grid(axis="x", alpha=0.3)
        a.set_title(f"{_title(measure)}, 95% intervals", fontsize=9)
        return fig

    return draw()


def plot_by_unit(df: pd.DataFrame, measure: str = "value_of_skill"):
    """A measure in the games' own units: one panel per unit (antes, points, 胡數 never share an
    axis), a colour and legend entry per skill pair.  Returns the Figure."""
    import matplotlib.pyplot as plt

    from kaptai.core.plotting import with_cjk_font

    sub = df[(df.measure == measure) & df.seat.isna()].copy()
    if sub.empty:
        raise RulesError(f"measure {quote_token(measure)} is not in the table")
    sub["_unit"] = [variant_unit(df, r.game, r.variant) for r in sub.itertuples()]
    units = list(dict.fromkeys(sub["_unit"]))

    @with_cjk_font
    def draw():
        heights = [len(set(zip(sub[sub._unit == u].game, sub[sub._unit == u].variant))) for u in units]
        fig, axes = plt.subplots(len(units), 1, figsize=(8.0, 0.42 * sum(heights) + 1.1 * len(units)),
                                 gridspec_kw={"height_ratios": [max(h, 1) for h in heights]}, squeeze=False)
        for a, u in zip(axes[:, 0], units):
            part = sub[sub._unit == u]
            labels = list(dict.fromkeys(f"{r.game} · {r.variant}" for r in part.itertuples()))
            ypos = {x: i for i, x in enumerate(labels)}
            levels = list(dict.fromkeys(part.level))
            for k, lev in enumerate(levels):
                q = part[part.level == lev]
                off = 0.0 if len(levels) == 1 else (k - (len(levels) - 1) / 2) * 0.3
                y = np.array([ypos[f"{r.game} · {r.variant}"] + off for r in q.itertuples()])
                _errorbars(a, q.value.to_numpy(float), y, q.ci_low.to_numpy(float), q.ci_high.to_numpy(float),
                           _LEVEL_COLOURS.get(lev, f"C{k}"), f"pair: {lev}", True, False)
            a.set_yticks(range(len(labels)))
            a.set_yticklabels(labels, fontsize=7.5)
            a.invert_yaxis()
            a.axvline(0.0, color="grey", lw=0.8)
            a.set_xlabel(f"{measure.replace('_', ' ')} per hand ({u})", fontsize=8)
            a.legend(fontsize=6.5, loc="best")
            a.grid(axis="x", alpha=0.3)
        fig.suptitle(f"{measure.replace('_', ' ')}: one panel per unit, 95% intervals", fontsize=9)
        fig.tight_layout(rect=(0, 0, 1, 1 - 0.35 / fig.get_figheight()))
        return fig

    return draw()


def plot_differences(diffs: pd.DataFrame, game: str | None = None, measures: Sequence[str] | None = None):
    """The differences between each variant and its game's default (the first variant), one
    panel per measure (each its own unit), 95% intervals; each label names the pair of variants,
    the role or skill pair (and the game, for every game at once: ``game=None``).  Returns the
    Figure, or None without differences."""
    import matplotlib.pyplot as plt

    from kaptai.core.plotting import with_cjk_font

    d = diffs if game is None else diffs[diffs.game == game]
    if measures is not None:
        d = d[d.measure.isin(list(measures))]
    if d.empty:
        return None
    first = d.groupby("game", sort=False).baseline.first()
    d = d[d.baseline == d.game.map(first)]
    order = ["role_luck_share", "role_luck_after_rotation", *_HOUSE_STAKED, "house_edge", "value_of_skill_swing_share",
             "hands_until_skill_shows"]
    measures = sorted(dict.fromkeys(d.measure), key=lambda m: order.index(m) if m in order else len(order))
    base = first.iloc[0] if game is not None else "the game's default"

    @with_cjk_font
    def draw():
        sizes = [len(d[d.measure == m]) for m in measures]
        fig, axes = plt.subplots(len(measures), 1, figsize=(8.0, 0.45 * sum(sizes) + 1.2 * len(measures)),
                                 gridspec_kw={"height_ratios": [max(s, 1) for s in sizes]}, squeeze=False)
        for a, m in zip(axes[:, 0], measures):
            part = d[d.measure == m]
            labels = []
            for r in part.itertuples():
                who = (f"role: the {r.level}" if m.startswith("role_") else
                       f"pair: {r.level}" if r.level is not None and r.level == r.level else "whole table")
                labels.append((f"{r.game}: " if game is None else "") + f"{r.variant} − {r.baseline} · {who}")
            y = np.arange(len(labels), dtype=float)
            colours = [_LEVEL_COLOURS.get(r.level if not m.startswith("role_") else None, "C0")
                       for r in part.itertuples()]
            v, lo, hi = (part[c].to_numpy(float) for c in ("diff", "ci_low", "ci_high"))
            for i in range(len(labels)):
                _errorbars(a, v[i:i + 1], y[i:i + 1], lo[i:i + 1], hi[i:i + 1], colours[i], None, True, False)
            a.set_yticks(y)
            a.set_yticklabels(labels, fontsize=7.5)
            a.invert_yaxis()
            a.axvline(0.0, color="grey", lw=0.8)
            fin = np.concatenate([v, lo, hi])
            fin = fin[np.isfinite(fin)]
            if len(fin):
                span = float(fin.max() - fin.min()) or 1.0
                a.set_xlim(float(fin.min()) - 0.08 * span, float(fin.max()) + 0.08 * span)
            for i in range(len(labels)):
                _arrows(a, y[i:i + 1], v[i:i + 1], lo[i:i + 1], hi[i:i + 1], colours[i], True)
            if m == "hands_until_skill_shows":
                a.set_xscale("symlog", linthresh=10)
            k = int(part.paired.astype(bool).sum())
            how = ("paired, same deals" if k == len(part) else "separate runs" if k == 0
                   else f"{k} of {len(part)} paired on the same deals, the others separate runs")
            a.set_xlabel(f"difference in {_title(m)} ({_unit_label(m).replace(' (log scale)', '')}; {how})",
                         fontsize=8)
            a.grid(axis="x", alpha=0.3)
        fig.suptitle(f"{game or 'every game'}: each variant − {base}, 95% intervals (below 0: less than {base})",
                     fontsize=9)
        fig.tight_layout(rect=(0, 0, 1, 1 - 0.35 / fig.get_figheight()))
        return fig

    return draw()


_SWEEP_PANELS = ("role_luck_share", "house_edge", "value_of_skill_swing_share", "hands_until_skill_shows")


def plot_players(sweep: pd.DataFrame, game: str):
    """The headline measures against the number of players (one panel per measure, each its own
    unit; the seat luck that of the game's role that varies; skill for the pair ``default -
    random``).  Returns the Figure."""
    import matplotlib.pyplot as plt

    from kaptai.core.plotting import with_cjk_font

    s = sweep[(sweep.game == game) & sweep.seat.isna()]
    principal = _principal(sweep, game)
    house = house_measure(s)
    panels = [house if m == "house_edge" else m for m in _SWEEP_PANELS]
    panels = [m for m in panels if (s.measure == m).any()]

    @with_cjk_font
    def draw():
        fig, axes = plt.subplots(1, len(panels), figsize=(3.0 * len(panels) + 0.6, 3.2), squeeze=False)
        for a, m in zip(axes[0], panels):
            part = s[s.measure == m]
            if m.startswith("role_"):
                part = part[part.relative_to == principal]
            part = part.sort_values("players")
            x = part.players.to_numpy(float)
            v, lo, hi = (part[c].to_numpy(float) for c in ("value", "ci_low", "ci_high"))
            _errorbars(a, x, v, lo, hi, "#1f77b4", None, False, m == "hands_until_skill_shows")
            a.plot(x[np.isfinite(v)], v[np.isfinite(v)], color="#1f77b4", lw=0.8, alpha=0.6)
            if m == "hands_until_skill_shows":
                from matplotlib.ticker import ScalarFormatter

                a.set_yscale("log")
                a.yaxis.set_major_formatter(ScalarFormatter())
                a.yaxis.set_minor_formatter(ScalarFormatter())
                a.tick_params(axis="y", which="minor", labelsize=6)
            if (x.max() / max(x.min(), 1)) > 8:
                a.set_xscale("log")
                a.set_xticks(x)
                a.set_xticklabels([f"{int(p)}" for p in x], fontsize=6.5)
                a.minorticks_off()
            from matplotlib.ticker import MaxNLocator

            if a.get_xscale() == "linear":
                a.xaxis.set_major_locator(MaxNLocator(integer=True))
            a.set_xlabel("players", fontsize=8)
            who = (f"role: the {principal}" if m.startswith("role_") else "pair: default - random"
                   if m.startswith("value_of") or m.startswith("hands") else "the house")
            a.set_title(f"{_title(m)}\n({who})", fontsize=8)
            a.set_ylabel(_unit_label(m), fontsize=7.5)
            a.grid(alpha=0.3)
            a.tick_params(labelsize=7)
            fin = np.concatenate([v, lo, hi])
            fin = fin[np.isfinite(fin)]
            if len(fin) and m != "hands_until_skill_shows":
                a.set_ylim(min(0.0, float(fin.min())), float(fin.max()) * 1.1 if fin.max() > 0 else 1.0)
            _arrows(a, x, v, lo, hi, "#1f77b4", False)
        fig.suptitle(f"{game}: the headline measures by number of players (default rules), 95% intervals",
                     fontsize=9)
        fig.tight_layout()
        return fig

    return draw()


# --------------------------------------------------------------------------------------
# The page
# --------------------------------------------------------------------------------------


def designer_sections(df: pd.DataFrame, game: str, *, stake: float = 1.0, sweep: pd.DataFrame | None = None,
                      differences: pd.DataFrame | None = None, share: float = LUCK_SHARE) -> list[Any]:
    """The sections of one game's designer page (:class:`kaptai.report.render.Section` list)."""
    from kaptai.report.render import Section

    stake = check_stake(stake)
    diffs = variant_differences(df) if differences is None else differences
    df = _lite(df)
    g = df[df.game == game]
    if g.empty:
        raise RulesError(f"game {quote_token(game)} is not in the atlas table: it has {', '.join(dict.fromkeys(df.game))}")
    rec = recommendations(df, diffs)
    rec = rec[rec.game == game].drop(columns=["game"])
    P = sorted({int(p) for p in g.players})
    sess = [f"{p} players: {session_hands(game, p)[0]} hands" for p in P]
    why = session_hands(game, P[0])[1]
    gd = diffs[diffs.game == game]
    n_paired = int(gd.paired.sum()) if len(gd) else 0
    reasons = sorted({str(m) for m in gd[~gd.paired.astype(bool)].method} - {"", "None"}) if len(gd) else []
    lead = []
    for _, r in rec.iterrows():
        lead.append(f"{r.criterion[:1].upper() + r.criterion[1:]}: {r.recommended} — {r['pair / role']}, "
                    f"{r.measure} {r.value} ({r.unit}); {r['how sure']}.")
    how = (f"How sure: from the 95% interval of the difference between the recommended variant and each other one. "
           f"{n_paired} of the {len(gd)} differences of this game are paired (the same deals played under both "
           "variants, the interval of the difference itself)")
    if len(gd) > n_paired:
        how += ("; the others come from separate runs, their interval adding both runs' variances — "
                + "; ".join(reasons))
    secs = [Section("Recommendation", [("verdict", " ".join(lead)),
                                       ("table", rec, "Recommended variant by criterion (every row names its measure, "
                                                      "role or pair, and unit)"),
                                       ("p", how + ".")])]
    money = money_table(df, game, stake)
    secs.append(Section(f"In money: a stake of {stake:g} per unit, over a session", [
        ("p", f"Session length assumed: {'; '.join(sess)} — {why}. Every effect per hand is the atlas's measure in "
              "the game's unit; over a session it is scaled by the session's hands (a mean), or by their square "
              "root (an SD: the swing and the seat's luck from where the role fell). The house's take is that of "
              "the whole table."),
        ("table", money, f"Effects per hand and over a session at {stake:g} per unit (every row names its role or "
                         "pair and its unit)"),
    ]))
    luck = luck_hands_table(df, share)
    luck = luck[luck.game == game].drop(columns=["game"]) if len(luck) else luck
    secs.append(Section("How long until the seat's luck evens out", [
        ("p", f"The seat's luck after n hands is the SD, over where the role fell, of a player's expected total; "
              f"a session's swing is the SD of a player's total, √n times a hand's. A role that rotates leaves "
              f"only a part-rotation's luck, whose share of the swing falls as 1/√n: the table gives the hands "
              f"from which it stays within {share:.0%}. A role chance assigns afresh each hand keeps the same share "
              "at every length (its luck grows as √n, like the swing): within from the first hand, or never."),
        ("table", luck, f"Hands until the seat's luck is within {share:.0%} of a session's swing, by variant and role"),
    ]))
    fig = plot_differences(diffs, game)
    dsub = diffs[diffs.game == game].copy()
    if fig is not None:
        dtab = dsub.assign(**{"difference [95%]": [f"{_fmt_value(r['diff'], r.measure, True)} "
                                                   f"[{_fmt_value(r.ci_low, r.measure, True)}, "
                                                   f"{_fmt_value(r.ci_high, r.measure, True)}]"
                                                   for _, r in dsub.iterrows()],
                                 "pair / role": [("role: the " if m.startswith("role_") else "pair: " if lv else "")
                                                 + (str(lv) if lv else "the whole table")
                                                 for m, lv in zip(dsub.measure, (_level_text(x) for x in dsub.level))],
                                 "unit": [_unit_label(m).replace(" (log scale)", "") for m in dsub.measure]})
        dtab = dtab[["variant", "baseline", "measure", "pair / role", "unit", "difference [95%]", "method"]]
        secs.append(Section("Differences between variants", [
            ("figure", fig, f"{game}: each variant minus {dsub.baseline.iloc[0]}, one panel per measure, 95% "
                            "intervals (the label names the two variants, the role or skill pair; the axis the unit)"),
            ("table", dtab, "Every pair of variants (variant − baseline), with the role or skill pair and unit"),
        ]))
    if sweep is not None and (sweep.game == game).any():
        s = sweep[(sweep.game == game) & sweep.seat.isna()]
        counts = sorted({int(p) for p in s.players})
        blocks: list[Any] = [("p", f"The default rules ({df.attrs.get('variant_descriptions', {}).get(game, {}) and list(df.attrs['variant_descriptions'][game])[0]}) "
                                   f"at {', '.join(map(str, counts))} players ({_sweep_hands(s)}); the skill pair "
                                   "default − random where the table has one"
                                   + (f" (up to 8 players: above, its P(P−1) seat arrangements would leave few hands "
                                      "each)" if counts[-1] > 8 else "") + "."
                                   + _most_note(game, counts))]
        if len(counts) > 1:
            blocks.append(("figure", plot_players(sweep, game), f"{game}: the headline measures from {counts[0]} to "
                           f"{counts[-1]} players, one panel per measure and unit, 95% intervals"))
        blocks.append(("table", _sweep_table(sweep, game), "The headline measures by number of players"))
        secs.append(Section("With fewer or more players", blocks))
    descr = df.attrs.get("variant_descriptions", {}).get(game, {})
    pol = df.attrs.get("atlas_policies", {}).get(game, {})
    secs.append(Section("The variants", [("table", pd.DataFrame([
        {"variant": k, "players": int(g[g.variant == k].players.iloc[0]), "unit": variant_unit(df, game, k),
         "strong policy": pol.get("strong", {}).get(k, ""), "rules": d} for k, d in descr.items()]),
        f"{game}'s variants in the atlas (the field plays {pol.get('default', '')})")]))
    return secs


def _most_note(game: str, counts: Sequence[int]) -> str:
    from kaptai.games import game as game_spec

    hi = game_spec(game).players[1]
    if counts and hi > MOST_SEATS and counts[-1] == MOST_SEATS:
        return (f" The rules allow up to {hi} players; the atlas measures at most {MOST_SEATS} seats (its seat-luck "
                "interval tries every corner of a box with one side per seat), so the sweep stops there.")
    if counts and hi > counts[-1]:
        return (f" The registry allows up to {hi} players; the default rules play {counts[0]} to {counts[-1]} (larger "
                "tables need other rule options), so the sweep stops there.")
    return ""


def _sweep_hands(s: pd.DataFrame) -> str:
    d = s[s.measure == "swing"]
    n = int(d.hands.max()) if len(d) else 0
    return f"{n:,} hands a default table"


def _sweep_table(sweep: pd.DataFrame, game: str) -> pd.DataFrame:
    s = sweep[(sweep.game == game) & sweep.seat.isna()]
    principal = _principal(sweep, game)
    rows = []
    for p, part in s.groupby("players"):
        row: dict[str, Any] = {"players": int(p)}
        for m in [house_measure(s) if x == "house_edge" else x for x in _SWEEP_PANELS]:
            q = part[part.measure == m]
            if m.startswith("role_"):
                q = q[q.relative_to == principal]
            who = (f"role: the {principal}" if m.startswith("role_") else "pair: default - random"
                   if m.startswith(("value_of", "hands")) else "the house")
            # a sampled figure carries its interval; one the rules fix (method 'exact') says so
            cell = _est(q.iloc[0]) if len(q) else ""
            if len(q) and str(q.iloc[0].get("method", "")) == "exact":
                cell += " (exact)"
            row[f"{_title(m)} ({who}; {_unit_label(m).replace(' (log scale)', '')})"] = cell
        rows.append(row)
    return pd.DataFrame(rows)


def headline(df: pd.DataFrame, rec: pd.DataFrame | None = None) -> str:
    """Three sentences read from the atlas table: where the seat's luck is least and most (each
    game's role that varies), where the house takes most, where skill shows soonest, and how many
    of the recommendations (:func:`recommendations`) are sure."""
    df = _lite(df)
    out: list[str] = []
    games = list(dict.fromkeys(df.game))
    n_var = df.groupby(["game", "variant"]).ngroups
    luck = []
    for g in games:
        p = _principal(df, g)
        sub = _pick(df[(df.game == g) & (df.measure == "role_luck_share") & (df.relative_to == p) & df.seat.isna()],
                    "role_luck_share")
        luck += [(r.game, r.variant, p, r) for r in sub.itertuples()]
    if luck:
        lo = min(luck, key=lambda x: x[3].value)
        hi = max(luck, key=lambda x: x[3].value)
        out.append(f"{len(games)} game{'s' if len(games) != 1 else ''}, {n_var} variants. The seat's luck per hand (the role that varies, in SDs of "
                   f"one hand) is least in {lo[0]}/{lo[1]} (the {lo[2]}: {_est(lo[3])}) and most in {hi[0]}/{hi[1]} "
                   f"(the {hi[2]}: {_est(hi[3])}).")
    house = house_measure(df)
    hs = _pick(df[(df.measure == house) & df.seat.isna()], house)
    if len(hs) and hs.value.max() > 0:
        top = hs.loc[hs.value.idxmax()]
        what = "per money staked" if house != "house_edge" else "of the money that changes hands"
        free = sorted({str(g) for g in games} - set(hs[hs.value > 0].game))
        out.append(f"The house takes most {what} in {top.game}/{top.variant} ({_est(top)})"
                   + (f"; nothing in {', '.join(free)}." if free else "."))
    for lev, who in (("default - random", "the default policy over a random player"),
                     ("strong - default", "the strongest policy over the default")):
        h = df[(df.measure == "hands_until_skill_shows") & (df.level == lev) & df.seat.isna()]
        h = h[np.isfinite(h.value.to_numpy(float))]
        if len(h):
            best = h.loc[h.value.idxmin()]
            out.append(f"Skill ({who}) shows soonest in {best.game}/{best.variant}: {_est(best)} hands.")
    if rec is not None and len(rec):
        sure = int(rec["how sure"].str.startswith("sure").sum())
        same = int(rec["how sure"].str.startswith("every variant").sum())
        out.append(f"Of the {len(rec)} recommendations below (game × criterion), {sure} "
                   f"{'is' if sure == 1 else 'are'} sure (every difference's 95% interval excludes 0), {same} "
                   f"{'is' if same == 1 else 'are'} no choice (all variants equal), the rest could go either way at "
                   "this run's size.")
    return " ".join(out)


def _level_text(level: Any) -> str:
    """A row's level (role or skill pair) as text; '' where it has none (None, NaN or '')."""
    if level is None or (isinstance(level, float) and math.isnan(level)):
        return ""
    return str(level)
