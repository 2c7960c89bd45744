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


def deal_rows(variant: AtlasVariant, arrangements: Any, chunk: Any, *, log: bool = False) -> list[dict[str, np.ndarray]]:
    """The chunk's deals played once under each arrangement (the duplicate league).

    Under ``next_dealer='rotate'`` (the default) the decks are drawn once per chunk
    (:func:`kaptai.core.league.chunk_decks`, deck ``i`` from deal ``i``'s own seed, spares for
    natural redeals) and dealt in order with ``decks=``; hand ``i`` is dealt by seat ``i mod N``
    in every arrangement, and a redeal takes the next deck whatever the policies do.  Under
    ``'winner'`` or ``'redraw'`` the dealer would follow the play, so each deal is one hand on
    ``PCG64`` of its own seed (the redraw, then the shuffle, come before any policy acts).  The
    policies' own draws read :func:`kaptai.core.league.policy_stream`.  Seats are physical.  With
    ``log``, each dict also has ``deal``: a CRC per hand of the engine's deal and redeal rows.

    Examples
    --------
    >>> from kaptai.core.runner import plan_chunks
    >>> a, b = deal_rows(VARIANTS[0], [("colour_cut",) * 4, ("random",) * 4], plan_chunks(5, 5, 1)[0], log=True)
    >>> a["net"].shape, bool((a["deal"] == b["deal"]).all()), float(a["net"].sum())
    ((5, 4), True, 0.0)
    """
    import zlib

    from kaptai.core.league import chunk_decks, deal_seeds, policy_stream
    from kaptai.errors import RulesError
    from kaptai.nineten.config import ACTIONS

    cfg = variant_config(variant)
    N = cfg.players
    m = int(chunk.size)
    acts = [ACTIONS.index("deal"), ACTIONS.index("redeal")]
    out = []
    for arr in arrangements:
        pols = check_policies(list(arr), N)
        eng = "compiled" if all(isinstance(p, str) for p in pols) else "auto"
        if cfg.rules.next_dealer == "rotate":
            extra = m // 8 + 8
            while True:
                try:
                    o, lg = run_hands(cfg, m, policy_stream(chunk), pols, decks=chunk_decks(chunk, 112, extra),
                                      record=m if log else 0, engine=eng)
                    break
                except (RulesError, ValueError, IndexError) as exc:
                    if "deck" not in str(exc).lower() or extra > 64 * m + 1024:
                        raise
                    extra *= 4
            logs = [np.asarray(lg)]
        else:
            parts = [run_hands(cfg, 1, np.random.PCG64(ss), pols, record=1 if log else 0, engine=eng)
                     for ss in deal_seeds(chunk)]
            o = {k: np.concatenate([p[0][k] for p in parts]) for k in parts[0][0]}
            logs = [np.asarray(p[1]) for p in parts]
        winner = o["winner"].astype(np.int64)
        win = ((np.arange(N)[None, :] == winner[:, None]) & (winner >= 0)[:, None]).astype(np.float64)
        d = {"net": o["net"].astype(np.float64), "win": win}
        if log:
            dig = []
            for h in range(m):
                lg_h = logs[0][logs[0][:, 0] == h] if len(logs) == 1 else logs[h]
                sel = lg_h[np.isin(lg_h[:, 3], acts)][:, 2:]
                dig.append(zlib.crc32(np.ascontiguousarray(sel, dtype=np.int64).tobytes()))
            d["deal"] = np.array(dig, dtype=np.int64)
        out.append(d)
    return out


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
