"""Nantong long cards (南通長牌) in the fairness atlas: the feed of :mod:`kaptai.core.atlas`.

The game is played in matches of 8 圈, but its hands are independent deals (the fairness
module plays a chunk of matches as that many engine hands), so an atlas row is **one
hand**, not one match: the engine's hand (:func:`kaptai.nantong.engine.run_hands`, the entry
:mod:`kaptai.nantong.simulate` uses for one chunk), settled by
:func:`kaptai.nantong.fairness.hand_nets` under the variant's ``settlement``.

* Seat 0 is the hand's **dealer** (23 cards, discards first), seats 1, 2 its 下家 in the
  order of play (the engine's seats); with 4 players and 3 active, seat 3 is the sitter
  (夢家, the dealer's 上家, as on every hand of a match after the first), who plays no cards
  and scores 0 (or the dealer's net under ``dreamer_shares='with_dealer'``, as in
  :mod:`kaptai.nantong.fairness`).  ``job.policies[s]`` plays seat ``s`` (the sitter's
  policy is not consulted).
* ``net`` = the hand's points under the settlement: ``rank_only`` 1 point to the hand winner
  (shared on a tie; no payments, so the row sums to 1), ``pairwise_difference`` and
  ``winner_collects`` the 胡數 transfers.  No settlement has a house cut: ``gross = net``,
  ``house = 0`` exactly.
* ``staked`` = what the losers pay (``sum max(-net, 0)``); under ``rank_only`` the one point
  awarded per hand.
* ``drawn`` = 荒牌 (nobody completed; the hand is still settled on the totals);
  ``natural`` = 天成 (the dealer's 23 dealt cards are complete); ``length`` = discards.

Examples
--------
>>> from kaptai.core.atlas import AtlasJob, Moments
>>> from kaptai.core.runner import plan_chunks
>>> from kaptai.nantong.atlas import FEED, play
>>> m = Moments(play(AtlasJob("nantong", FEED.variants[0], ("max_melds",) * 3), plan_chunks(300, 300, 1)[0]))
>>> m.n, m.mean("house"), round(sum(m.mean(f"net_{s}") for s in range(3)), 12)
(300, 0.0, 1.0)
"""

from __future__ import annotations

from fractions import Fraction
from typing import Any

import numpy as np

from kaptai.core.atlas import AtlasFeed, AtlasJob, AtlasRole, AtlasVariant, deal_fingerprint, hand_moments
from kaptai.core.sampling import bit_generator
from kaptai.errors import RulesError
from kaptai.nantong.config import WIN_TYPES, make_config
from kaptai.nantong.engine import run_hands
from kaptai.nantong.fairness import hand_nets
from kaptai.nantong.policies import check_policies
from kaptai.nantong.rules import RuleSet, resolve_rules

__all__ = ["FEED", "VARIANTS", "play", "rows", "deal_rows", "decisive", "variant_config", "hand_rows", "deal_key"]

_HUANG = WIN_TYPES.index("huang")
_TIANCHENG = WIN_TYPES.index("tiancheng")

#: The atlas variants: the default (``rank_only``, 3 players) first, then the two money
#: settlements of [D13] (they change what a seat's result is) and the 4-player table with a
#: sitter.
VARIANTS: tuple[AtlasVariant, ...] = (
    AtlasVariant("rank_only", "nantong", 3, "default rules: 1 point to the hand winner, 3 players", unit="point"),
    AtlasVariant("winner_collects", (("settlement", "winner_collects"),), 3,
                 "every other player pays the hand winner its total, 3 players", unit="胡數"),
    AtlasVariant("pairwise_difference", (("settlement", "pairwise_difference"),), 3,
                 "every pair settles the difference of their totals, 3 players", unit="胡數"),
    AtlasVariant("four_players", "nantong", 4,
                 "default rules, 4 players: 3 active, seat 3 the sitter (the dealer's 上家), who scores 0",
                 unit="point"),
)


def _rules(variant: AtlasVariant) -> RuleSet:
    r = variant.rules
    if r is None or isinstance(r, (str, RuleSet)):
        return resolve_rules(r)
    return resolve_rules(None, **dict(r))


def variant_config(variant: AtlasVariant):
    """The engine configuration of a variant.

    >>> c = variant_config(VARIANTS[3]); (c.players, c.active)
    (4, 3)
    """
    return make_config(variant.players, _rules(variant))


def hand_rows(out: dict[str, np.ndarray], cfg) -> dict[str, np.ndarray]:
    """Feature columns of engine outcomes: nets per seat (sitter last), staked, flags, length, and
    ``win``: each seat's share of the hand win (the engine's hand winner, a tie shared; the
    sitter 0).

    >>> from kaptai.nantong.config import make_config
    >>> cfg = make_config(4)
    >>> r = hand_rows(run_hands(cfg, 20, seed=2), cfg)
    >>> r["net"].shape, float(r["net"][:, 3].sum())
    ((20, 4), 0.0)
    """
    st = cfg.rules.settlement
    nets = hand_nets(out, st)
    n, A = nets.shape
    P = cfg.players
    net = np.zeros((n, P))
    net[:, :A] = nets
    if A < P and cfg.rules.dreamer_shares == "with_dealer":
        net[:, A] = nets[:, 0]
    if st == "rank_only":
        staked = nets.sum(axis=1)  # the one point awarded
    else:
        staked = np.maximum(-net, 0.0).sum(axis=1)
    wt = out["win_type"].astype(np.int64)
    w = np.asarray(out["winner"], dtype=np.float64)
    win = np.zeros((n, P))
    win[:, :A] = w / np.maximum(w.sum(axis=1, keepdims=True), 1.0)  # a tie shares the hand win
    return {"net": net, "staked": staked, "drawn": (wt == _HUANG).astype(np.float64),
            "natural": (wt == _TIANCHENG).astype(np.float64), "length": out["discards"].astype(np.float64),
            "win": win}


def rows(job: AtlasJob, chunk: Any) -> dict[str, np.ndarray]:
    """Per-hand arrays of ``chunk.size`` hands of ``job`` on the chunk's stream (what :func:`play` sums):
    :func:`hand_rows` with ``gross = net``, and ``deal``: a fingerprint of each seat's dealt 起手
    count (what the deal decides; the engine reports no deal)."""
    cfg = variant_config(job.variant)
    pols = list(job.policies)
    if len(pols) != cfg.players or not all(isinstance(p, str) for p in pols):
        raise RulesError(f"atlas job: expected {cfg.players} built-in policy names, got {job.policies!r}")
    pols = check_policies(pols[: cfg.active], cfg.active)
    out = run_hands(cfg, int(chunk.size), policies=pols, bit_generator=bit_generator(chunk.seed), compiled=True)
    r = hand_rows(out, cfg)
    return {**r, "gross": r["net"], "deal": deal_fingerprint(out["dealt_qishou"])}


def deal_key(variant: AtlasVariant) -> Any:
    """What the deal depends on (:attr:`kaptai.core.atlas.AtlasFeed.deal_key`): the players (the wall
    is shuffled first; the settlement does not move the stream).

    >>> [deal_key(v) for v in VARIANTS]
    [3, 3, 3, 4]
    """
    return int(variant.players)


def deal_rows(variant: AtlasVariant, arrangements: Any, chunk: Any) -> list[dict[str, np.ndarray]]:
    """The chunk's deals played once under each arrangement (the duplicate league).

    The engine shuffles the whole wall before any policy acts (``docs/nantong-engine.md``,
    "Randomness"), so deal ``i`` is one hand on ``PCG64`` of its own seed
    (:func:`kaptai.core.league.deal_seeds`): the same wall in every arrangement, whatever the
    ``random`` or ``search`` players draw.  Seats are physical: seat 0 deals; with 4 players
    seat 3 is the sitter (its policy is not asked).  An arrangement may hold policy objects
    (the reference engine plays them).

    Examples
    --------
    >>> from kaptai.core.runner import plan_chunks
    >>> a, b = deal_rows(VARIANTS[0], [("max_melds",) * 3, ("random",) * 3], plan_chunks(4, 4, 1)[0])
    >>> a["net"].shape, bool(np.array_equal(a["dealt_qishou"], b["dealt_qishou"]))
    ((4, 3), True)
    """
    from kaptai.core.league import deal_seeds

    cfg = variant_config(variant)
    seeds = deal_seeds(chunk)
    out = []
    for arr in arrangements:
        if len(arr) != cfg.players:
            raise RulesError(f"atlas job: expected {cfg.players} policies, got {arr!r}")
        pols = check_policies(list(arr)[: cfg.active], cfg.active)
        compiled = all(isinstance(p, str) for p in pols)
        hands = [run_hands(cfg, 1, policies=pols, bit_generator=np.random.PCG64(ss), compiled=compiled)
                 for ss in seeds]
        o = {k: np.concatenate([h[k] for h in hands]) for k in hands[0]}
        r = hand_rows(o, cfg)
        out.append({"net": r["net"], "win": r["win"], "dealt_qishou": o["dealt_qishou"]})
    return out


#: In the league's and the atlas's checkpoint fingerprints (:mod:`kaptai.core.league`): 2 since the
#: search ranks its discard as the advisor does (``choice='rank'``, commit a474c81), so a checkpoint
#: of the older search is refused, not merged.
deal_rows.version = 2  # type: ignore[attr-defined]


def play(job: AtlasJob, chunk: Any) -> dict[str, np.ndarray]:
    """Play ``chunk.size`` hands of ``job`` on the chunk's stream; their moments.

    >>> from kaptai.core.runner import plan_chunks
    >>> job = AtlasJob("nantong", VARIANTS[1], ("max_melds", "random", "chase_qing"))
    >>> int(play(job, plan_chunks(50, 50, 5)[0])["n"][0])
    50
    """
    r = rows(job, chunk)
    return hand_moments(r["net"], gross=r["gross"], staked=r["staked"], length=r["length"], drawn=r["drawn"],
                        natural=r["natural"])


def decisive(variant: AtlasVariant) -> tuple[str, Fraction]:
    """Exact P(天成: the dealer's 23 dealt cards are complete), :func:`kaptai.nantong.odds.natural_probability`.

    >>> label, p = decisive(VARIANTS[0]); label, round(float(p) * 1e6, 3)
    ('天成 (dealer dealt a complete hand)', 2.22)
    """
    from kaptai.nantong.config import DEALER_CARDS
    from kaptai.nantong.odds import natural_probability

    return "天成 (dealer dealt a complete hand)", natural_probability(_rules(variant), DEALER_CARDS)


def sitting_out(variant: AtlasVariant) -> tuple[int, ...]:
    """The seat that sits every hand out: seat 3 (the dealer's 上家) of a 4-player table.

    >>> from kaptai.nantong.atlas import VARIANTS, sitting_out
    >>> [sitting_out(v) for v in VARIANTS]
    [(), (), (), (3,)]
    """
    return (3,) if variant.players == 4 else ()


FEED = AtlasFeed(
    game="nantong",
    variants=VARIANTS,
    reference_seat="dealer",
    roles=(AtlasRole("dealer", "rotation",
                     "the first dealer is random [D21], then the 下家 deals after every hand (no 連莊); with 4 "
                     "players the outgoing dealer sits out the next hand (the sitter, the dealer's 上家)"),),
    unit="point (胡數 under a money settlement; 1 per hand win under rank_only)",
    default_policy="max_melds",
    # the strongest policy is the search player (kaptai league nantong, field 'max_melds': search's
    # share of the hand win +0.032 over max_melds (0.022-0.042) under rank_only, 9,000 hands; +8.3 胡數
    # under winner_collects, 6,000); max_melds beats chase_qing, chase_hun and random (5,000 hands a
    # seat).  The search plays about 15-20 hands a second at one seat, so its tables are capped
    strong_policy="search",
    strong_hands=4_000,
    strong_chunk_hands=100,
    chunk_hands=10_000,
    play=play,
    rows=rows,
    deal_key=deal_key,
    deal_rows=deal_rows,
    sitting_out=sitting_out,
    win="the hand winner (a tie shares the win; the sitter of a 4-player table never wins)",
    decisive=decisive,
    length_unit="discards",
    notes=("One row per hand (a match's hands are independent deals), settled by fairness.hand_nets: rank_only "
           "gives 1 point to the hand winner (staked = that point), the money settlements transfer 胡數 (staked = "
           "what the losers pay); no house cut, so house = 0. Drawn = 荒牌 (still settled on the totals), "
           "natural = 天成, length = discards; with 4 players seat 3 is the sitter."),
)
