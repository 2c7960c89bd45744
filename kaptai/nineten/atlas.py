"""Nine-ten (九支十仔) in the fairness atlas: the feed of :mod:`kaptai.core.atlas`.

Each hand is played by the compiled engine (:func:`kaptai.nineten.engine.run_hands`, the
entry :mod:`kaptai.nineten.simulate` uses for one chunk) and becomes one feature row:

* seat 0 is the **dealer** (10 cards, discards first), seats 1.. follow counter-clockwise,
  the direction of play; ``job.policies[s]`` plays dealer-relative seat ``s``;
* ``net`` = the engine's per-seat net 頭 (the rules' own settlement, §5; one unit = one 頭,
  money = 頭 x ``stake_per_tou``); the rules have no house cut, so ``gross = net`` and
  ``house = 0`` exactly;
* ``staked`` = what the losers pay (the winner's gain, ``sum max(-net, 0)``), 0 on a drawn
  hand;
* ``drawn`` = 流局 (win type 0); ``natural`` = a dealer natural (win type 4, five pairs
  dealt);
* ``length`` = turns = offers of a card: discards plus stock flips (the dealer's first
  discard, one discard after each claim that does not win, each flip); 0 for a natural.

The engine rotates the deal within a run (``next_dealer='rotate'``, hand ``i`` dealt by
physical seat ``i % N``).  A table with one policy for every seat is played in one run and
each hand's nets are turned to dealer-relative order.  A mixed table (policies differing by
seat) is played as ``N`` runs of the chunk's size on the chunk's one stream, run ``d`` with
the policies turned so that dealer ``d`` sees ``job.policies`` in dealer order, keeping the
hands dealt by ``d`` (``i % N == d``): exactly ``chunk.size`` hands, at ``N`` times the cost
(under another ``next_dealer`` reading, further runs top the kept hands up to that number).
A mixed table with ``search`` is played in one run with dealer-relative policies
(``run_hands(relative=True)``), at the cost of its hands.

Examples
--------
>>> import numpy as np
>>> from kaptai.core.atlas import AtlasJob, Moments
>>> from kaptai.core.runner import plan_chunks
>>> from kaptai.nineten.atlas import FEED, play
>>> job = AtlasJob("nine-ten", FEED.variants[0], ("colour_cut",) * 4)
>>> m = Moments(play(job, plan_chunks(2000, 2000, 1)[0]))
>>> m.n, m.mean("house"), abs(sum(m.mean(f"net_{s}") for s in range(4))) < 1e-12
(2000, 0.0, True)
"""

from __future__ import annotations

from fractions import Fraction
from typing import Any

import numpy as np

from kaptai.core.atlas import (AtlasFeed, AtlasJob, AtlasRole, AtlasVariant, deal_fingerprint, hand_moments,
                               hands_by_reference_seat)
from kaptai.core.sampling import bit_generator
from kaptai.nineten.config import WIN_CODES, check_policies, make_config
from kaptai.nineten.engine import run_hands
from kaptai.nineten.rules import RuleSet, resolve_rules

__all__ = ["FEED", "VARIANTS", "play", "rows", "decisive", "variant_config", "hand_rows", "deal_rows", "deal_key"]

_NATURAL = WIN_CODES["natural"]
_DRAWN = WIN_CODES["drawn"]

#: The atlas variants: the default first, then the settlement readings and table size that
#: move the seat spread most (measured with :func:`kaptai.nineten.fairness.compare_variants`,
#: 2x10^5 hands: dealer EV 1.64 money at 4 players, 2.15 with the discarder covering all,
#: 1.05 with the flipper paying alone, and the widest spread at 6 players).
VARIANTS: tuple[AtlasVariant, ...] = (
    AtlasVariant("taiwan", "taiwan", 4, "default rules (every other seat pays a self-draw or flip win), 4 players"),
    AtlasVariant("discarder_covers_all", (("discard_payer_covers_all", True),), 4,
                 "a discard win is paid by the discarder for the whole table (x (N-1)), 4 players"),
    AtlasVariant("flipper_pays", (("flip_win_payer", "flipper"),), 4,
                 "a win on another's flip is paid by the flipper alone, 4 players"),
    AtlasVariant("six_players", "taiwan", 6, "default rules, 6 players"),
)


def _rules(variant: AtlasVariant) -> RuleSet:
    r = variant.rules
    if r is None or isinstance(r, (str, RuleSet)):
        return resolve_rules(r)
    return resolve_rules(None, **dict(r))


def variant_config(variant: AtlasVariant):
    """The engine configuration of a variant.

    >>> variant_config(VARIANTS[3]).players
    6
    """
    return make_config(variant.players, _rules(variant))


def hand_rows(out: dict[str, np.ndarray], players: int) -> dict[str, np.ndarray]:
    """Feature columns of engine outcomes (nets in dealer-relative order, staked, flags, length),
    and ``win``: 1 for the (dealer-relative) seat that won the hand, 0 elsewhere and on 流局.

    >>> from kaptai.nineten.config import make_config
    >>> out, _ = run_hands(make_config(4), 50, np.random.PCG64(3), "colour_cut")
    >>> rows = hand_rows(out, 4)
    >>> bool((rows["net"][:, 0] == out["net"][np.arange(50), out["dealer"]]).all())
    True
    """
    N = players
    dealer = out["dealer"].astype(np.int64)
    idx = (dealer[:, None] + np.arange(N)[None, :]) % N
    net = np.take_along_axis(out["net"].astype(np.float64), idx, axis=1)
    wt = out["win_type"].astype(np.int64)
    natural = wt == _NATURAL
    drawn = wt == _DRAWN
    claims = out["claims"].astype(np.float64)
    flips = out["flips"].astype(np.float64)
    won = (~drawn).astype(np.float64)
    # offers: 1 opening discard + one discard per claim that did not win + the flips
    length = np.where(natural, 0.0, 1.0 + claims - won + flips)
    winner = out["winner"].astype(np.int64)
    win = (((winner - dealer) % N)[:, None] == np.arange(N)[None, :]) & (winner >= 0)[:, None]
    return {"net": net, "staked": np.maximum(-net, 0.0).sum(axis=1), "drawn": drawn.astype(np.float64),
            "natural": natural.astype(np.float64), "length": length, "win": win.astype(np.float64)}


def _play_out(cfg, pols: list[str], size: int, bg) -> dict[str, np.ndarray]:
    N = cfg.players
    if len(set(pols)) == 1:
        out, _ = run_hands(cfg, size, bg, pols[0], engine="compiled")
        return out
    if "search" in pols:
        # the search is slow: one run with the policies read from each hand's dealer, not N runs
        return run_hands(cfg, size, bg, pols, engine="compiled", relative=True)[0]

    def run(phys: list, m: int) -> dict[str, np.ndarray]:
        return run_hands(cfg, m, bg, phys, engine="compiled")[0]

    # physical seat p is dealer-relative seat (p - d) % N in the hands dealt by d; with
    # next_dealer='rotate' the first N runs keep exactly `size` hands
    return hands_by_reference_seat(run, pols, size, N, lambda d, s: (d + s) % N, "dealer")


def rows(job: AtlasJob, chunk: Any) -> dict[str, np.ndarray]:
    """Per-hand arrays of ``chunk.size`` hands of ``job`` on the chunk's stream (what :func:`play` sums):
    :func:`hand_rows` with ``gross = net``, and ``deal``: a fingerprint of the dealer, the pairs dealt
    and the redeals (what the deal decides; the engine reports no deal)."""
    cfg = variant_config(job.variant)
    pols = check_policies(list(job.policies), cfg.players)
    if len(pols) != cfg.players or not all(isinstance(p, str) for p in pols):
        from kaptai.errors import RulesError

        raise RulesError(f"atlas job: expected {cfg.players} built-in policy names, got {job.policies!r}")
    out = _play_out(cfg, list(pols), int(chunk.size), bit_generator(chunk.seed))
    r = hand_rows(out, cfg.players)
    return {**r, "gross": r["net"], "deal": deal_fingerprint(out["dealer"], out["pairs_dealt"], out["redeals"])}


def deal_key(variant: AtlasVariant) -> Any:
    """What the deal depends on (:attr:`kaptai.core.atlas.AtlasFeed.deal_key`): the players and how the
    next dealer is chosen; who pays a win does not move the stream.

    >>> [deal_key(v) for v in VARIANTS]
    [(4, 'rotate'), (4, 'rotate'), (4, 'rotate'), (6, 'rotate')]
    """
    return (int(variant.players), str(variant_config(variant).rules.next_dealer))


def _deal_hand(cfg, pols: list, pseed: np.random.SeedSequence, decks: np.ndarray, spares: Any, record: int,
               compiled: bool) -> tuple[dict[str, np.ndarray], np.ndarray]:
    """One hand on the deal's decks and a fresh ``PCG64`` of ``pseed``; on a dealer natural redealt
    past the decks given, again with ``spares()`` appended (the deal's own spare decks)."""
    from kaptai.nineten.config import POLICY_CODES

    for attempt in range(2):
        bg = np.random.PCG64(pseed)
        try:
            if compiled:
                from kaptai.nineten import _engine

                return _engine.run_hands(cfg, [POLICY_CODES[p] for p in pols], bg, 1, record, decks, False)
            return run_hands(cfg, 1, bg, pols, record=record, decks=decks, engine="auto")
        except ValueError as exc:
            if "deck" not in str(exc).lower() or attempt:
                raise
            decks = np.ascontiguousarray(np.vstack([decks, spares()]), dtype=np.int64)
    raise AssertionError("unreachable")  # pragma: no cover


def deal_rows(variant: AtlasVariant, arrangements: Any, chunk: Any, *, log: bool = False) -> list[dict[str, np.ndarray]]:
    """The chunk's deals played once under each arrangement (the duplicate league).

    Every deal is played on its own: one engine run of one hand per deal and arrangement, each
    on a fresh stream derived from that deal's seed alone (:func:`kaptai.core.league.deal_seeds`),
    so a hand where one arrangement's policies part from another's shifts no later deal, and a
    deal's rows do not depend on the deals before it, on the chunk's size, or on ``--workers``.
    Under ``next_dealer='rotate'`` (the default) deal ``i``'s deck is drawn from its seed
    (:func:`kaptai.core.league.chunk_decks`) and dealt by physical seat ``i mod N`` (the engine's
    seat 0 dealing, the policies and the results turned by ``i mod N``); the policies' own draws
    (colour_cut's ties, ``random``) read ``PCG64`` of the deal seed's child ``(1,)``, the same in
    every arrangement, and a dealer natural under ``natural='redeal'`` takes spare decks drawn from
    its child ``(2,)``.  Under ``'winner'`` or ``'redraw'`` the dealer would follow the play, so
    each deal is one hand on ``PCG64`` of its seed (the redraw, then the shuffle, come before any
    policy acts).  Under either reading the ``search`` policy's layout streams are salted
    (:attr:`kaptai.nineten.config.EngineConfig.search_salt`) by a 64-bit word drawn from the deal
    seed's child ``(3,)``: every deal is hand 0 of its own run, and without the salt every deal would
    sample the same layouts; the salt is the same in every arrangement.  Seats are physical.  With
    ``log``, each dict also has ``deal``: a CRC per hand of the engine's deal and redeal rows (seats
    physical).

    Examples
    --------
    >>> from kaptai.core.runner import plan_chunks
    >>> a, b = deal_rows(VARIANTS[0], [("colour_cut",) * 4, ("random",) * 4], plan_chunks(5, 5, 1)[0], log=True)
    >>> a["net"].shape, bool((a["deal"] == b["deal"]).all()), float(a["net"].sum())
    ((5, 4), True, 0.0)
    """
    import dataclasses
    import zlib

    from kaptai.core.league import child_seed, chunk_decks, deal_seeds
    from kaptai.nineten.config import ACTIONS, MAX_REDEALS

    cfg = variant_config(variant)
    N = cfg.players
    m = int(chunk.size)
    acts = [ACTIONS.index("deal"), ACTIONS.index("redeal")]
    rotate = cfg.rules.next_dealer == "rotate"
    seeds = deal_seeds(chunk)
    decks = chunk_decks(chunk, 112) if rotate else None

    def spares(ss: np.random.SeedSequence) -> Any:
        def draw() -> np.ndarray:
            rng = np.random.Generator(np.random.PCG64(child_seed(ss, 2)))
            return np.array([rng.permutation(112) for _ in range(MAX_REDEALS)], dtype=np.int64)
        return draw

    # the search's layout streams, per deal (the same in every arrangement)
    salted = [dataclasses.replace(cfg, search_salt=int(child_seed(ss, 3).generate_state(1, np.uint64)[0]))
              for ss in seeds]
    out = []
    for arr in arrangements:
        pols = list(check_policies(list(arr), N))
        compiled = all(isinstance(p, str) for p in pols)
        net = np.zeros((m, N))
        winner = np.full(m, -1, dtype=np.int64)
        dig = np.zeros(m, dtype=np.int64)
        for i, ss in enumerate(seeds):
            if rotate:
                assert decks is not None
                d = i % N  # physical seat p is the engine's seat (p - d) % N
                turned = [pols[(e + d) % N] for e in range(N)]
                pseed = child_seed(ss, 1)
                o, lg = _deal_hand(salted[i], turned, pseed, decks[i:i + 1], spares(ss), 1 if log else 0,
                                   compiled)
            else:
                d = 0
                o, lg = run_hands(salted[i], 1, np.random.PCG64(ss), pols, record=1 if log else 0,
                                  engine="compiled" if compiled else "auto")
            net[i] = np.roll(o["net"][0].astype(np.float64), d)
            w = int(o["winner"][0])
            winner[i] = (w + d) % N if w >= 0 else -1
            if log:
                lg = np.asarray(lg)
                sel = lg[np.isin(lg[:, 3], acts)][:, 2:].astype(np.int64)
                sel[:, 0] = np.where(sel[:, 0] >= 0, (sel[:, 0] + d) % N, sel[:, 0])
                dig[i] = zlib.crc32(np.ascontiguousarray(sel).tobytes())
        win = ((np.arange(N)[None, :] == winner[:, None]) & (winner >= 0)[:, None]).astype(np.float64)
        row = {"net": net, "win": win}
        if log:
            row["deal"] = dig
        out.append(row)
    return out


#: In the league's checkpoint fingerprint (:mod:`kaptai.core.league`): 2 since each deal has its own
#: stream (before, a chunk's deals were played on one); 3 since the search's layout streams are
#: salted per deal (before, every deal, hand 0 of its own run, sampled the same layouts), so an
#: older checkpoint is refused, not merged.
deal_rows.version = 3  # type: ignore[attr-defined]


def play(job: AtlasJob, chunk: Any) -> dict[str, np.ndarray]:
    """Play ``chunk.size`` hands of ``job`` on the chunk's stream; their moments.

    >>> from kaptai.core.runner import plan_chunks
    >>> job = AtlasJob("nine-ten", VARIANTS[0], ("colour_cut", "random", "random", "random"))
    >>> int(play(job, plan_chunks(300, 300, 5)[0])["n"][0])
    300
    """
    r = rows(job, chunk)
    return hand_moments(r["net"], gross=r["gross"], staked=r["staked"], length=r["length"], drawn=r["drawn"],
                        natural=r["natural"])


def decisive(variant: AtlasVariant) -> tuple[str, Fraction] | None:
    """Exact P(the dealer is dealt a natural, five pairs) from :func:`kaptai.nineten.odds.deal_odds`.

    None under ``natural='redeal'`` (a natural is redealt, never decides a hand).

    >>> decisive(VARIANTS[0])
    ('dealer natural (five pairs dealt)', Fraction(358047, 25913005019))
    """
    from kaptai.nineten.odds import deal_odds

    rules = _rules(variant)
    if rules.natural == "redeal":
        return None
    df = deal_odds(variant.players, rules)
    row = df[(df.metric == "natural") & (df.hand == "dealer")]
    return "dealer natural (five pairs dealt)", Fraction(row.exact.iloc[0])


FEED = AtlasFeed(
    game="nine-ten",
    variants=VARIANTS,
    reference_seat="dealer",
    roles=(AtlasRole("dealer", "rotation",
                     "the first dealer is drawn, then the deal passes counter-clockwise after each hand [D15] "
                     "(next_dealer='rotate')"),),
    unit="tou",
    default_policy="colour_cut",
    # the strongest policy is the search player where it shows (kaptai league nine-ten, 10,000 hands a
    # policy: search +0.016 頭 a hand over colour_cut, 95% -0.090 to +0.122: not shown); colour_cut beats
    # live_first by 0.64 頭 and random by 0.61 (50,000 hands a seat).  The search plays about 100
    # hands a second at one seat, so its tables are capped (the rows give the hands behind them)
    strong_policy="search",
    strong_hands=8_000,
    strong_chunk_hands=500,
    chunk_hands=100_000,
    play=play,
    rows=rows,
    deal_key=deal_key,
    deal_rows=deal_rows,
    win="the seat that completes its hand (nobody on 流局)",
    decisive=decisive,
    length_unit="offers (discards + stock flips)",
    notes=("Results in 頭 (money = 頭 x stake_per_tou) under the §5 settlement; the rules have no house cut, "
           "so house = 0 and net = gross. Staked = what the losers pay the winner (0 on a drawn hand); "
           "length = discards plus stock flips; natural = a dealer dealt five pairs."),
)
