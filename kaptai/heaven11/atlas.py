"""Heaven Eleven (天牌十一) in the fairness atlas: the feed of :mod:`kaptai.core.atlas`.

Each hand (a deal that was bid out, passed-out redeals inside it, as in
:mod:`kaptai.heaven11.simulate`) becomes one feature row:

* seat 0 is the **declarer** (the last bidder, who also leads the first play under the rules'
  ``first_leader='declarer'``), seats 1-3 the defenders in play order; this is the order of
  :mod:`kaptai.heaven11.simulate` (``relative_to='declarer'``);
* ``net`` = the engine's finals (§5 scoring, ``short_penalty`` included), zero-sum; the game
  has no house cut, so ``gross = net`` and ``house = 0`` exactly;
* ``staked`` = what the losers pay (``sum max(-final, 0)``), 0 on a draw;
* ``drawn`` = a draw (和局: level 0 and 4/3/3/3 tricks; the rules replay it, the atlas counts
  it as one hand with every net 0); ``natural`` = 0 (the game has no instant win);
* ``length`` = plays (leads, 5-13);
* ``role_dealer`` = the dealer's seat in that order: the deal rotates, the auction (which the
  dealer opens) makes the declarer a role assigned by chance over the dealer's rotation.

Which seat declares is decided by the auction, so ``job.policies[s]`` (play policies; every
seat bids with the default ``'expected'`` policy, which ignores the play policy) cannot be
seated before the deal.  A table with one play policy for every seat is played in one engine
run on the chunk's stream (the very stream :func:`kaptai.heaven11.simulate.simulate` reads for
a chunk of that size).  A mixed table is played as runs ``r = 0, 1, 2, ...`` on the chunk's one
stream, run ``r`` with the policies turned so that the hands declared by physical seat
``r % 4`` have ``job.policies[s]`` at declarer-relative seat ``s``; those hands are kept (by the
table's rotational symmetry every run's kept hands have one distribution) until exactly
``chunk.size`` are: about four engine hands per atlas hand.

Examples
--------
>>> from kaptai.core.atlas import AtlasJob, Moments
>>> from kaptai.core.runner import plan_chunks
>>> from kaptai.heaven11.atlas import FEED, play
>>> m = Moments(play(AtlasJob("heaven-eleven", FEED.variants[0], ("greedy",) * 4), plan_chunks(500, 500, 1)[0]))
>>> m.n, m.mean("house"), abs(sum(m.mean(f"net_{s}") for s in range(4))) < 1e-12
(500, 0.0, True)
"""

from __future__ import annotations

from typing import Any

import numpy as np

from kaptai.core.atlas import (AtlasFeed, AtlasJob, AtlasRole, AtlasVariant, deal_fingerprint,
                               hands_by_reference_seat, moments_of_rows)
from kaptai.core.sampling import bit_generator
from kaptai.errors import RulesError
from kaptai.heaven11.config import check_policies, make_config
from kaptai.heaven11.engine import run_hands
from kaptai.heaven11.rules import RuleSet, resolve_rules

__all__ = ["FEED", "VARIANTS", "play", "rows", "variant_config", "hand_rows", "play_out", "deal_rows", "deal_key"]

#: The atlas variants: the default first, then the two options that move the seats most
#: (measured with :func:`kaptai.heaven11.simulate.simulate`, greedy, 4x10^4 hands: the
#: declarer's mean final is +0.02 as written, -2.29 under the symmetric short penalty and
#: -0.23 under ``point_scheme='rank'``; ``passout``, ``must_trump``, ``reduction`` move it
#: by less than 0.04).
VARIANTS: tuple[AtlasVariant, ...] = (
    AtlasVariant("standard", "standard", 4, "the rules as written (no short penalty beyond the page), 4 players"),
    AtlasVariant("symmetric", "symmetric", 4, "short_penalty='symmetric': a short declarer pays like an over one"),
    AtlasVariant("point_scheme_rank", (("point_scheme", "rank"),), 4, "point_scheme='rank', 4 players"),
)


def _rules(variant: AtlasVariant) -> RuleSet:
    r = variant.rules
    if r is None or isinstance(r, (str, RuleSet)):
        return resolve_rules(r)
    return resolve_rules(None, **dict(r))


def variant_config(variant: AtlasVariant):
    """The engine configuration of a variant (4 players).

    >>> variant_config(VARIANTS[1]).rules.short_penalty
    'symmetric'
    """
    if variant.players != 4:
        raise RulesError(f"players={variant.players} is not allowed: Heaven Eleven is played by 4")
    return make_config(4, _rules(variant))


def _order(out: dict[str, np.ndarray], cfg) -> np.ndarray:
    d = out["declarer"].astype(np.int64)
    return (d[:, None] + np.arange(4)[None, :] * cfg.play_step) % 4


def hand_rows(out: dict[str, np.ndarray], cfg) -> dict[str, np.ndarray]:
    """Feature columns of engine outcomes: finals in declarer-relative play order, staked, flags, length,
    ``deal`` (a fingerprint of the four hands dealt, the dealer and the redeals),
    ``win``: 1 where a seat's final is positive (the declarer made its contract, or the
    defenders set it: simulate's ``final_positive``), and ``role_dealer``: the dealer's seat in
    the declarer-relative play order (the seat ``s`` with ``(declarer + s * play_step) % 4 ==
    dealer``).

    >>> cfg = variant_config(VARIANTS[0])
    >>> out, _ = run_hands(cfg, "greedy", np.random.PCG64(2), 30)
    >>> r = hand_rows(out, cfg)
    >>> bool((r["net"][:, 0] == out["finals"][np.arange(30), out["declarer"]]).all())
    True
    """
    n = len(out["declarer"])
    net = out["finals"].astype(np.float64)[np.arange(n)[:, None], _order(out, cfg)]
    dealer = ((out["dealer"].astype(np.int64) - out["declarer"].astype(np.int64)) * cfg.play_step) % 4
    return {"net": net, "staked": np.maximum(-net, 0.0).sum(axis=1), "drawn": out["draw"].astype(np.float64),
            "natural": np.zeros(n), "length": out["plays"].astype(np.float64), "win": (net > 0).astype(np.float64),
            "role_dealer": dealer, "deal": deal_fingerprint(out["hands"], out["dealer"], out["redeals"])}


def play_out(cfg, pols: list[str], size: int, bg, *, split: bool = False) -> dict[str, np.ndarray]:
    """Outcome arrays of exactly ``size`` hands with ``pols[s]`` at declarer-relative seat ``s``.

    One policy for every seat: one engine run.  Otherwise (or with ``split=True``) runs
    ``r = 0, 1, ...`` of the engine on the one stream ``bg``, run ``r`` with the policies turned
    so that a hand declared by physical seat ``d = r % 4`` has ``pols[s]`` at declarer-relative
    seat ``s``, keeping those hands, until ``size`` are kept (the first ``size``, in run order).
    """
    if len(set(pols)) == 1 and not split:
        out, _ = run_hands(cfg, pols[0], bg, size, engine="compiled")
        return out
    def run(phys: list, m: int) -> dict[str, np.ndarray]:
        return run_hands(cfg, phys, bg, m, engine="compiled")[0]

    return hands_by_reference_seat(run, pols, size, 4, lambda d, s: (d + s * cfg.play_step) % 4, "declarer")


def rows(job: AtlasJob, chunk: Any) -> dict[str, np.ndarray]:
    """Per-hand arrays of ``chunk.size`` hands of ``job`` on the chunk's stream (what :func:`play` sums):
    :func:`hand_rows` with ``gross = net``.

    Every seat bids ``job.bidding`` (None: the fixed table ``'expected'``).  With another bidder
    (the adaptive seat table, ``'search'``: it bids for the scoring in force) the table is played
    one deal at a time, deal ``i`` on ``PCG64`` of its own seed (:func:`kaptai.core.league.deal_seeds`:
    the search bidder would otherwise move the stream, by its pass-outs, differently under each
    scoring), so every variant's seat table starts from the same deals.

    >>> from kaptai.core.runner import plan_chunks
    >>> job = AtlasJob("heaven-eleven", VARIANTS[0], ("greedy",) * 4, bidding="search")
    >>> r = rows(job, plan_chunks(2, 2, 3)[0])
    >>> r["net"].shape, float(r["net"].sum())
    ((2, 4), 0.0)
    """
    cfg = variant_config(job.variant)
    pols = list(job.policies)
    if len(pols) != 4 or not all(isinstance(p, str) for p in pols):
        raise RulesError(f"atlas job: expected 4 built-in play policy names, got {job.policies!r}")
    check_policies(pols)
    bidding = job.bidding or "expected"
    if bidding == "expected":
        out = play_out(cfg, pols, int(chunk.size), bit_generator(chunk.seed))
    else:
        from kaptai.core.league import deal_seeds

        if len(set(pols)) != 1:
            raise RulesError(f"atlas job: bidding={bidding!r} is played with one play policy at every seat")
        parts = [run_hands(cfg, pols[0], np.random.PCG64(ss), 1, bidding=bidding, engine="compiled")[0]
                 for ss in deal_seeds(chunk)]
        out = {k: np.concatenate([p[k] for p in parts]) for k in parts[0]}
    r = hand_rows(out, cfg)
    return {**r, "gross": r["net"]}


def deal_key(variant: AtlasVariant) -> Any:
    """What the deal depends on (:attr:`kaptai.core.atlas.AtlasFeed.deal_key`): nothing the variants
    change (four players, one deck; the fixed bidders bid the same under every scoring, so the
    pass-outs and their redeals are the same too).

    >>> len({deal_key(v) for v in VARIANTS})
    1
    """
    return ("players", int(variant.players))


def deal_rows(variant: AtlasVariant, arrangements: Any, chunk: Any, *, log: bool = False) -> list[dict[str, np.ndarray]]:
    """The chunk's deals played once under each arrangement (the duplicate league).

    Each deal is one hand on ``PCG64`` of its own seed (:func:`kaptai.core.league.deal_seeds`):
    the first dealer, the shuffle and the auction (the ``expected`` bidders draw nothing; a
    pass-out deals again from the same stream) all come before any play policy acts
    (``docs/heaven-eleven-engine.md``, "Randomness"), so every arrangement plays the same cards,
    dealer, contract and declarer.  Seats are physical.  With ``log``, each dict also has
    ``deal``: a CRC per hand of the engine's deal, bid, pass and pass-out rows.

    Examples
    --------
    >>> from kaptai.core.runner import plan_chunks
    >>> a, b = deal_rows(VARIANTS[0], [("greedy",) * 4, ("random",) * 4], plan_chunks(3, 3, 1)[0], log=True)
    >>> a["net"].shape, bool((a["deal"] == b["deal"]).all())
    ((3, 4), True)
    """
    import zlib

    from kaptai.core.league import deal_seeds
    from kaptai.heaven11.config import ACTIONS

    cfg = variant_config(variant)
    acts = [ACTIONS.index(a) for a in ("deal", "bid", "pass", "passout", "forced")]
    out = []
    for arr in arrangements:
        pols = list(arr)
        if len(pols) != 4:
            raise RulesError(f"atlas job: expected 4 play policies, got {arr!r}")
        check_policies(pols)
        eng = "compiled" if all(isinstance(p, str) for p in pols) else "auto"
        parts = [run_hands(cfg, pols, np.random.PCG64(ss), 1, record=1 if log else 0, engine=eng)
                 for ss in deal_seeds(chunk)]
        o = {k: np.concatenate([p[0][k] for p in parts]) for k in parts[0][0]}
        net = o["finals"].astype(np.float64)
        d = {"net": net, "win": (net > 0).astype(np.float64)}
        if log:
            d["deal"] = np.array([zlib.crc32(np.ascontiguousarray(
                np.asarray(p[1])[np.isin(np.asarray(p[1])[:, 3], acts)][:, 2:], dtype=np.int64).tobytes())
                for p in parts], dtype=np.int64)
        out.append(d)
    return out


def play(job: AtlasJob, chunk: Any) -> dict[str, np.ndarray]:
    """Play ``chunk.size`` hands of ``job`` on the chunk's stream; their moments.

    >>> from kaptai.core.runner import plan_chunks
    >>> job = AtlasJob("heaven-eleven", VARIANTS[0], ("random", "greedy", "greedy", "greedy"))
    >>> int(play(job, plan_chunks(40, 40, 5)[0])["n"][0])
    40
    """
    return moments_of_rows(rows(job, chunk))


FEED = AtlasFeed(
    game="heaven-eleven",
    variants=VARIANTS,
    reference_seat="declarer",
    roles=(AtlasRole("declarer", "auction",
                     "the highest bidder of the auction, which the dealer opens: chance (the deal) decides it"),
           AtlasRole("dealer", "rotation",
                     "the first dealer is random, then the deal passes to the next seat in the bidding "
                     "direction after each hand")),
    unit="point",
    default_policy="greedy",
    # the strongest play policy is the search player (kaptai league heaven-eleven, field 'greedy',
    # 10,000 hands a policy: search +0.34 points a hand over the best other, rollout, 0.20-0.48);
    # rollout beats greedy by about +1.9 (400 hands a seat, this feed).  The search plays about 10-15
    # atlas hands a second, so its tables are capped (the rows give the hands behind them)
    strong_policy="search",
    chunk_hands=16_384,
    strong_hands=4_000,
    strong_chunk_hands=100,
    play=play,
    rows=rows,
    deal_rows=deal_rows,
    deal_key=deal_key,
    # the declarer is won in an auction: the luck of the seat is measured with bidders that adapt
    # to the scoring in force (the search bidder, about 7-8 ms a hand on a loaded machine), on a
    # seat table of its own (docs/heaven-eleven.md, "Bidding by search")
    adaptive_bidding="search",
    adaptive_hands=4_000,
    adaptive_chunk_hands=100,
    max_winners=3,
    win="a positive final: the declarer made its contract, or a defender set it",
    decisive=None,
    length_unit="plays (leads)",
    notes=("Seat 0 is the declarer (who leads first); results are the §5 finals (zero-sum, no house cut, so "
           "house = 0). Staked = what the losers pay; a draw (和局) is one hand with every result 0; the game has no "
           "natural; length = plays. A mixed table costs about four engine hands per atlas hand (search, "
           "the strong play policy, about 10-15 atlas hands/s)."),
)
