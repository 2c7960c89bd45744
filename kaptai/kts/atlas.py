"""Kap Tai Shap (夾大十) and Kap Shap (夾十) in the fairness atlas: the game's feed.

:data:`FEED` tells :mod:`kaptai.core.atlas` how to play a table of this game and turn each
hand into the atlas's feature row.  Seat 0 of a row is the dealer (莊家), seats numbered in
the direction of play (the engine's absolute seats; the first hand, 先手, is thrown by the
dice and varies from hand to hand: each row gives its seat as ``role_first_hand``, so the
atlas measures the luck of the seat from the first hand too, :data:`ROLES`).

How a chunk is played
---------------------
:func:`play` plays ``chunk.size`` independent hands with the compiled engine
(:func:`kaptai.kts.engine.run_hands` on ``PCG64(chunk.seed)``, exactly as one chunk of
:func:`kaptai.kts.simulate.run_tallies`, so the same seed gives the same hands) and asks
the engine for the hand log of every hand of the chunk.  The last log row of a hand
(``natural``, ``claim_win``, ``self_drawn_win``, ``drawn_hand`` or ``turn_limit``) gives the
hand's winner (an absolute seat), its score (self-draw point included), its length (the
turn it ended in) and whether it was a natural: one exact row per hand, so the moments
keep the joint distribution of money, length and naturals (the engine's tallies hold the
winner x score cells but not their joint with the length).  The rows are checked against
the tallies of the same call.  Each row is settled by
:func:`kaptai.core.settlement.settle_outcomes` -- the settlement the fairness and league
tables use -- under the variant's ``settlement`` and ``house_cut`` (``net``) and with the cut
set to 0 (``gross``).

Per-hand settlement
-------------------
Drawn hands (流局) are refunded (``drawn_hand='refund'``, the rules page's default in both
presets): a per-hand settlement.  ``drawn_hand='carry'`` rolls the pot over, so a hand's
result depends on the hands before it; the atlas's rows are single hands, so :func:`play`
refuses it (the long-run per-hand rate is in :func:`kaptai.kts.fairness.hand_ev`).  Hands
are independent: the dealer streak (連莊, ``dealer_keeps_on_win`` of the advanced preset)
spans hands and is not modelled (no streak bonus), as in :mod:`kaptai.kts.simulate`.

Examples
--------
>>> import numpy as np
>>> from kaptai.core.atlas import AtlasJob, Moments
>>> from kaptai.core.runner import plan_chunks
>>> from kaptai.kts.atlas import FEED, play
>>> v = FEED.variants[0]
>>> chunk = plan_chunks(500, 500, 7)[0]
>>> m = Moments(play(AtlasJob("kap-tai-shap", v, ("greedy",) * v.players), chunk))
>>> m.n, round(sum(m.mean(f"net_{s}") for s in range(4)) + m.mean("house"), 12)
(500, 0.0)
"""

from __future__ import annotations

from fractions import Fraction
import zlib
from functools import lru_cache
from typing import Any

import numpy as np

from kaptai.core.atlas import AtlasFeed, AtlasJob, AtlasRole, AtlasVariant, log_fingerprint, moments_of_rows
from kaptai.core.sampling import bit_generator
from kaptai.core.settlement import settle_outcomes
from kaptai.errors import RulesError
from kaptai.kts.config import (
    CLAIM_WIN,
    DEAL,
    DICE,
    DRAWN_HAND,
    NATURAL,
    SCORE_LEVELS,
    SELF_DRAWN_WIN,
    TURN_LIMIT,
    EngineConfig,
    make_config,
)
from kaptai.kts.engine import run_hands
from kaptai.kts.policies import BUILTIN_POLICIES, policy_codes, resolve_policies
from kaptai.kts.rules import RuleSet, resolve_rules

__all__ = ["FEED", "VARIANTS", "ROLES", "play", "rows", "deal_rows", "decisive", "variant_rules", "hand_rows"]

_GAME = "kap-tai-shap"
_END_ACTIONS = (NATURAL, CLAIM_WIN, SELF_DRAWN_WIN, DRAWN_HAND, TURN_LIMIT)

#: The atlas variants: the default ruleset first.
VARIANTS: tuple[AtlasVariant, ...] = (
    AtlasVariant(
        "traditional", "traditional", 4,
        "pot game: 1 ante each, the house takes 5% of the pot, basic form only, 4 players", unit="ante",
    ),
    AtlasVariant(
        "advanced", "advanced", 4,
        "advanced scoring preset: losers pay the winner's score, all forms, no house cut, 4 players", unit="point",
    ),
    AtlasVariant(
        "kap_shap", "traditional", 2,
        "Kap Shap (夾十): the two-player game, one set, traditional pot with the 5% cut", unit="ante",
    ),
)


def variant_rules(variant: AtlasVariant) -> RuleSet:
    """The RuleSet of a variant: a preset name, or (option, value) pairs on 'traditional'
    (a ``('preset', name)`` pair picks another base).

    >>> from kaptai.kts.atlas import VARIANTS, variant_rules
    >>> [variant_rules(v).settlement for v in VARIANTS]
    ['pot', 'advanced', 'pot']
    """
    rules = variant.rules
    if isinstance(rules, (str, RuleSet)) or rules is None:
        return resolve_rules(rules)
    opts = dict(rules)
    base = opts.pop("preset", "traditional")
    return resolve_rules(base, **opts)


def _config(variant: AtlasVariant) -> EngineConfig:
    cfg = make_config(variant.players, variant_rules(variant))
    if cfg.rules.settlement == "pot" and cfg.rules.drawn_hand == "carry":
        raise RulesError(
            "drawn_hand='carry' is not supported by the atlas feed: a carried pot makes a hand's "
            "result depend on earlier hands; use drawn_hand='refund' (per hand) or "
            "kaptai.kts.fairness for the long-run rate"
        )
    return cfg


def hand_rows(cfg: EngineConfig, stats: dict[str, np.ndarray], log: np.ndarray, hands: int) -> dict[str, np.ndarray]:
    """One record per hand from the engine log of every hand of a chunk.

    Returns ``winner`` (absolute seat, -1 drawn), ``score`` (0 if drawn), ``length`` (turn
    the hand ended in), ``natural`` and ``drawn`` (0/1) and ``first`` (the first hand's seat,
    thrown by the dice: the seat of the hand's ``dice`` event), each of length ``hands``;
    checked against the chunk's tallies ``stats``.
    """
    log = np.asarray(log)
    dice = log[log[:, 4] == DICE]
    if dice.shape[0] != hands or not np.array_equal(dice[:, 0], np.arange(hands)):
        raise AssertionError("the hand log does not throw the dice once in every hand")
    first = dice[:, 3].astype(np.int64)
    end = log[np.isin(log[:, 4], _END_ACTIONS)]
    if end.shape[0] != hands or not np.array_equal(end[:, 0], np.arange(hands)):
        raise AssertionError("the hand log does not end every hand exactly once")
    action = end[:, 4]
    won = np.isin(action, (NATURAL, CLAIM_WIN, SELF_DRAWN_WIN))
    winner = np.where(won, end[:, 3], -1).astype(np.int64)
    score = np.where(won, end[:, 6], 0).astype(np.int64)
    rows = {
        "winner": winner,
        "score": score,
        "length": end[:, 2].astype(np.int64),
        "natural": (action == NATURAL).astype(np.int64),
        "drawn": (~won).astype(np.int64),
        "first": first,
    }
    # the same hands as the engine's own tallies
    P = cfg.players
    hist = np.zeros((P, SCORE_LEVELS), np.int64)
    np.add.at(hist, (winner[won], np.minimum(score[won], SCORE_LEVELS - 1)), 1)
    length = np.bincount(rows["length"], minlength=stats["length"].size)
    if (
        not np.array_equal(hist, stats["score_dealer"])
        or int(rows["drawn"].sum()) != int(stats["ends"][0])
        or int(rows["natural"].sum()) != int(stats["wins_dealer"][0].sum())
        or not np.array_equal(length, stats["length"])
        or not np.array_equal(np.bincount(first, minlength=P), stats["first_hand"])
    ):
        raise AssertionError("hand log and tallies disagree")
    return rows


def rows(job: AtlasJob, chunk: Any) -> dict[str, np.ndarray]:
    """Play ``chunk.size`` hands of ``job`` from ``chunk.seed``; one row per hand.

    ``job.policies[s]`` is the policy of dealer-relative seat ``s`` (0 = the dealer), the
    engine's own seat numbering.  Rows: ``net``/``gross`` per seat in antes (pot) or points
    (advanced), ``staked`` (see :data:`FEED` notes), ``length`` in turns, ``natural``
    (the first hand's dealt tiles win), ``drawn`` (流局), ``win`` (1 for the hand's
    winner, 0 for everyone on a drawn hand) and ``role_first_hand``, the seat of the first hand
    (先手, thrown by the dice) in each hand, and ``deal``, a fingerprint of the dice and deal
    rows of the hand's log (:func:`kaptai.core.atlas.log_fingerprint`).
    """
    cfg = _config(job.variant)
    P = cfg.players
    if len(job.policies) != P:
        raise RulesError(f"policies={job.policies!r}: expected one policy per seat ({P})")
    pols = resolve_policies(list(job.policies), P)
    if policy_codes(pols) is None:  # pragma: no cover - resolve_policies only returns names here
        raise RulesError("the atlas plays only the built-in policies")
    size = int(chunk.size)
    stats, log = run_hands(cfg, pols, bit_generator(chunk.seed), size, hand_offset=0, record=size,
                           engine="compiled")
    h = hand_rows(cfg, stats, log, size)
    rules = cfg.rules
    net, _, receipts = settle_outcomes(rules.settlement, P, h["winner"], h["score"], cut=rules.house_cut)
    gross, _, _ = settle_outcomes(rules.settlement, P, h["winner"], h["score"], cut=0.0)
    if rules.settlement == "pot":
        staked = np.full(size, float(P))  # every seat antes 1 into the pot (refunded if drawn)
    else:
        staked = receipts.sum(axis=1)  # what the losers pay the winner, (P - 1) x score
    win = np.zeros((size, P))
    won = h["winner"] >= 0
    win[np.flatnonzero(won), h["winner"][won]] = 1.0
    return {"net": net, "gross": gross, "staked": staked, "length": h["length"], "drawn": h["drawn"],
            "natural": h["natural"], "win": win, "role_first_hand": h["first"],
            "deal": log_fingerprint(log, size, (DICE, DEAL))}


def deal_key(variant: AtlasVariant) -> Any:
    """What the deal depends on (:attr:`kaptai.core.atlas.AtlasFeed.deal_key`): the number of players
    (the wall and the dice are drawn first, the same tiles under every preset and scoring).

    >>> deal_key(VARIANTS[0]) == deal_key(VARIANTS[1]), deal_key(VARIANTS[0]) == deal_key(VARIANTS[2])
    (True, False)
    """
    return ("players", int(variant.players))


def deal_digest(log: np.ndarray, hands: int, actions: tuple[int, ...], first: int = 2) -> np.ndarray:
    """One int64 per hand: a CRC of the hand's log rows of the given actions (columns ``first:``),
    what the engine dealt -- for the tests that the deal is the same in every arrangement."""
    log = np.asarray(log)
    out = np.zeros(hands, np.int64)
    for h in range(hands):
        sel = log[(log[:, 0] == h) & np.isin(log[:, 4], actions)]
        out[h] = zlib.crc32(np.ascontiguousarray(sel[:, first:], dtype=np.int64).tobytes())
    return out


def deal_rows(variant: AtlasVariant, arrangements: Any, chunk: Any, *, log: bool = False,
              make_policy: Any = None) -> list[dict[str, np.ndarray]]:
    """The chunk's deals played once under each arrangement (the duplicate league).

    Every hand draws its whole wall and dice before any policy acts (``docs/kap-tai-shap-engine.md``,
    "Randomness"), so deal ``i`` is played on ``PCG64`` of its own seed
    (:func:`kaptai.core.league.deal_seeds`): the same wall and dice in every arrangement, whatever
    the policies draw.  Seats are physical (seat 0 the dealer, as the engine numbers them).
    ``make_policy(name)`` may turn a name that is not built in into a policy object (the
    advisor; those arrangements play the reference engine).  With ``log``, each dict also has
    ``deal``: a CRC per hand of the dice and deal rows of the engine's log.

    Examples
    --------
    >>> from kaptai.core.runner import plan_chunks
    >>> a, b = deal_rows(VARIANTS[0], [("greedy",) * 4, ("random",) * 4], plan_chunks(3, 3, 1)[0], log=True)
    >>> a["net"].shape, bool((a["deal"] == b["deal"]).all())
    ((3, 4), True)
    """
    from kaptai.core.league import deal_seeds

    cfg = _config(variant)
    P = cfg.players
    rules = cfg.rules
    seeds = deal_seeds(chunk)
    m = len(seeds)
    out = []
    for arr in arrangements:
        if len(arr) != P:
            raise RulesError(f"policies={arr!r}: expected one policy per seat ({P})")
        named = [p if (make_policy is None or p in BUILTIN_POLICIES) else make_policy(p) for p in arr]
        pols = resolve_policies(named, P)
        engine = "compiled" if policy_codes(pols) is not None else "reference"
        winner = np.full(m, -1, np.int64)
        score = np.zeros(m, np.int64)
        digest = np.zeros(m, np.int64)
        for i, ss in enumerate(seeds):
            stats, lg = run_hands(cfg, pols, np.random.PCG64(ss), 1, hand_offset=0, record=1, engine=engine)
            h = hand_rows(cfg, stats, lg, 1)
            winner[i], score[i] = h["winner"][0], h["score"][0]
            if log:
                digest[i] = deal_digest(lg, 1, (DICE, DEAL))[0]
        net, _, _ = settle_outcomes(rules.settlement, P, winner, score, cut=rules.house_cut)
        win = np.zeros((m, P))
        won = winner >= 0
        win[np.flatnonzero(won), winner[won]] = 1.0
        res: dict[str, np.ndarray] = {"net": np.asarray(net, dtype=np.float64), "win": win}
        if log:
            res["deal"] = digest
        out.append(res)
    return out


#: In the league's and the atlas's checkpoint fingerprints (:mod:`kaptai.core.league`): 2 since the
#: search deals 192 layouts a decision under advanced scoring (96 before), so an older checkpoint
#: is refused, not merged.
deal_rows.version = 2  # type: ignore[attr-defined]


def play(job: AtlasJob, chunk: Any) -> dict[str, np.ndarray]:
    """The atlas moments of :func:`rows` (the same hands)."""
    return moments_of_rows(rows(job, chunk))


@lru_cache(maxsize=32)
def _natural(players: int, rules: RuleSet) -> Fraction:
    from kaptai.kts.odds import deal_odds

    df = deal_odds(players, rules, distance=False, workers=1)
    return Fraction(df.loc[df.metric == "natural", "exact"].iloc[0])


def decisive(variant: AtlasVariant) -> tuple[str, Fraction]:
    """Exact P(the first hand's dealt 10 (Kap Shap: 8) tiles are already a win), a natural.

    From :func:`kaptai.kts.odds.deal_odds` (exact enumeration of the deal, the variant's
    forms); the atlas's MC ``natural_rate`` estimates the same probability.

    >>> from kaptai.kts.atlas import VARIANTS, decisive
    >>> label, p = decisive(VARIANTS[2])
    >>> label, p
    ('natural (dealt first hand complete)', Fraction(16349, 2103660))
    """
    rules = variant_rules(variant)
    make_config(variant.players, rules)
    return "natural (dealt first hand complete)", _natural(int(variant.players), rules)


#: The roles of the game: the dealer (seat 0 of the rows) and the first hand (先手).
ROLES: tuple[AtlasRole, ...] = (
    AtlasRole("dealer", "rotation",
              "the deal passes to seat 1 after each hand (the advanced preset's 連莊, the dealer keeping the "
              "deal on a win, spans hands and is not modelled: every hand is independent)"),
    AtlasRole("first_hand", "dice",
              "先手: the dealer's dice total, counted from seat 1 (seat total mod P): not uniform about the "
              "dealer"),
)

def pot_cut(variant: AtlasVariant) -> float | None:
    """The house's cut of a decided hand's pot (:attr:`kaptai.core.atlas.AtlasFeed.pot_cut`) in the pot
    game, whose drawn hands are refunded: the house's take per ante staked is the cut x P(decided),
    at most the cut; None under advanced scoring (the cut there is a share of what the losers pay,
    the same share of the staked money in every hand).

    >>> [pot_cut(v) for v in VARIANTS]
    [0.05, None, 0.05]
    """
    rules = _config(variant).rules
    return float(rules.house_cut) if rules.settlement == "pot" else None


FEED = AtlasFeed(
    game=_GAME,
    pot_cut=pot_cut,
    variants=VARIANTS,
    reference_seat="dealer",
    roles=ROLES,
    unit="ante (pot) / point (advanced)",
    strong_chunk_hands=500,
    strong_hands=6_000,
    default_policy="greedy",
    # measured (rotated over the seats, field 'greedy', 50,000 hands a seat): 'score' ties 'greedy'
    # in the traditional game (-0.0501 +- 0.0072 vs -0.0498 antes a hand), beats it under advanced
    # scoring (+0.051 +- 0.031 points) and trails it in Kap Shap (-0.055 +- 0.006 vs -0.049);
    # 'lookahead' (20,000 hands a seat) is stronger still in the traditional game (+0.138 +- 0.012)
    # and in Kap Shap (+0.087 +- 0.009), ties 'score' under advanced scoring (+0.056 +- 0.048): so
    # 'lookahead_score' beats both under advanced scoring (+0.100 points, 0.064-0.136, 300,000 hands).
    # The strong policy is the search player, which plays the look-ahead's choice unless its rollouts
    # find better (about 150 hands/s at one seat: its tables are capped; kaptai league kap-tai-shap)
    strong_policy="search",
    chunk_hands=8192,
    deal_rows=deal_rows,
    deal_key=deal_key,
    play=play,
    rows=rows,
    win="the hand's winner (none on a drawn hand)",
    decisive=decisive,
    length_unit="turns (turn 1 = the first hand's opening turn; the turn the hand ended in)",
    notes=(
        "Seat 0 is the dealer; the first hand (先手, by the dice) is the second role; every hand is independent and settled on its own (drawn hands refunded, "
        "no dealer streak: the advanced preset's 連莊, dealer_keeps_on_win, is not played, so under advanced a "
        "full rotation of the deal cancels the dealer's advantage here, which it does not where a winning "
        "dealer keeps the deal; kaptai play plays it). Staked = the antes paid into the pot, one per player every hand, drawn "
        "hands included (so the pot's 5% cut is a house edge of 5% x P(decided)); under advanced "
        "scoring staked = what the losers pay the winner, (players - 1) x score. Length = the turn "
        "in which the hand ended; natural = the first hand's dealt tiles already win."
    ),
)
