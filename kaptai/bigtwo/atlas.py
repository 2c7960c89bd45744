"""Big Two (鋤大D) in the fairness atlas: the game's feed.

:data:`FEED` tells :mod:`kaptai.core.atlas` how to play a table of this game and turn each
game into the atlas's feature row.  A "hand" of the atlas is one game of Big Two (deal,
redeals, play until a player goes out).  Seat 0 of a row is the **leader** (the seat that
leads the game: the holder of ♦3 under the default ``first_lead='lowest_card'``), seats
numbered in the direction of play from it (``relative_to='leader'`` of
:mod:`kaptai.bigtwo.simulate`).

How a chunk is played
---------------------
:func:`play` plays games with the compiled engine (:func:`kaptai.bigtwo.engine.run_hands`
on ``PCG64(chunk.seed)``, as one chunk of :func:`kaptai.bigtwo.simulate.run_tallies`),
prices every game with the game's own scoring (:func:`kaptai.bigtwo.scoring.penalties`
and :func:`kaptai.bigtwo.scoring.settle_many`, 炒 multipliers, instant-win charges and 包牌
included, exactly as :func:`kaptai.bigtwo.simulate.tally_outcomes` does) and rotates each
game's seats so that seat 0 is its leader.  Everything is vectorised over the games.

*Policies by leader-relative seat.*  The leader is decided by the deal, after the engine's
seats got their policies, so a table whose seats play different policies cannot be seated
relative to a leader in advance.  The shuffle is exchangeable over the seats (the
leftovers, the instant-win scan and the redeal follow the cards, not the seat numbers), so
the games whose leader is engine seat 0 are, given that event, distributed exactly as the
games of a table seated from its leader: :func:`play` gives engine seat ``a`` the policy
``job.policies[a]`` and keeps the games led by seat 0 (about one in ``players``), drawing
more games from the same stream until ``chunk.size`` are kept.  When every seat plays the
same policy no game is dropped (the rotation alone is exact).  A table with a ``search`` seat
(costly games) is seated from the leader by the engine itself (``seat_by_leader``: after the
deal, the seat ``j`` places after the leader plays ``job.policies[j]``), the same
distribution without dropping games.  This needs games that are
independent, so a mixed table refuses ``first_lead='previous_winner'`` (a match).

There is no house and no drawn game in Big Two: ``gross`` = ``net``, house 0, drawn 0.

Examples
--------
>>> from kaptai.core.atlas import AtlasJob, Moments
>>> from kaptai.core.runner import plan_chunks
>>> from kaptai.bigtwo.atlas import FEED, play
>>> v = FEED.variants[0]
>>> m = Moments(play(AtlasJob("big-two", v, ("greedy",) * 4), plan_chunks(400, 400, 3)[0]))
>>> m.n, round(sum(m.mean(f"net_{s}") for s in range(4)), 9), m.mean("house"), m.mean("drawn")
(400, 0.0, 0.0, 0.0)
"""

from __future__ import annotations

import math
import zlib
from fractions import Fraction
from functools import lru_cache
from typing import Any

import numpy as np

from kaptai.bigtwo import scoring
from kaptai.bigtwo.config import POLICY_VERSION, EngineConfig, make_config
from kaptai.bigtwo.engine import run_hands
from kaptai.bigtwo.policies import check_policies
from kaptai.bigtwo.rules import RuleSet, resolve_rules
from kaptai.core.atlas import AtlasFeed, AtlasJob, AtlasRole, AtlasVariant, deal_fingerprint, hand_moments
from kaptai.core.sampling import bit_generator
from kaptai.errors import RulesError

__all__ = ["FEED", "VARIANTS", "play", "rows", "deal_rows", "decisive", "variant_rules", "leader_games", "deal_key"]

_GAME = "big-two"

#: The atlas variants: the default ruleset first.
VARIANTS: tuple[AtlasVariant, ...] = (
    AtlasVariant(
        "hong_kong", "hong_kong", 4,
        "Hong Kong defaults: count scoring with standard 炒, Place settlement (四人互算), 4 players",
    ),
    AtlasVariant(
        "winner_takes_all", (("settlement", "winner_takes_all"),), 4,
        "獨贏: each loser pays its penalty to the winner only, 4 players",
    ),
    AtlasVariant(
        "three_players", "hong_kong", 3,
        "3 players: 17 cards each, the leftover card to the ♦3 holder (the leader), Place settlement",
    ),
    AtlasVariant(
        "instant_wins", (("instant_dragon", True), ("instant_four_twos", True), ("redeal", "off")), 4,
        "instant wins on (一條龍 dragon, 四字D four 2s; others pay 3 x hand size), no redeal, 4 players",
    ),
)


def variant_rules(variant: AtlasVariant) -> RuleSet:
    """The RuleSet of a variant (a preset name, or (option, value) pairs on 'hong_kong'),
    at the variant's player count.

    >>> from kaptai.bigtwo.atlas import VARIANTS, variant_rules
    >>> [variant_rules(v).settlement for v in VARIANTS[:2]], variant_rules(VARIANTS[2]).players
    (['place', 'winner_takes_all'], 3)
    """
    rules = variant.rules
    if isinstance(rules, (str, RuleSet)) or rules is None:
        r = resolve_rules(rules)
    else:
        opts = dict(rules)
        base = opts.pop("preset", "hong_kong")
        r = resolve_rules(base, **opts)
    return make_config(variant.players, r).rules


def leader_games(cfg: EngineConfig, policies: list, bg: np.random.BitGenerator, size: int) -> dict[str, np.ndarray]:
    """``size`` games' outcome arrays from ``bg``: all games if every seat plays one policy,
    else only the games led by engine seat 0 (see the module docstring); a table with a
    ``search`` seat is seated from each game's leader by the engine instead (no game dropped)."""
    if len(set(policies)) == 1:
        out, _ = run_hands(cfg, policies, bg, size, engine="compiled")
        return out
    if cfg.rules.first_lead != "lowest_card":
        raise RulesError(
            f"first_lead={cfg.rules.first_lead!r}: a table of different policies is seated from the leader by "
            "keeping the games seat 0 leads, which needs independent games (first_lead='lowest_card')"
        )
    if "search" in policies:
        out, _ = run_hands(cfg, policies, bg, size, engine="compiled", seat_by_leader=True)
        return out
    parts: list[dict[str, np.ndarray]] = []
    kept = 0
    N = cfg.players
    while kept < size:
        batch = int((size - kept) * N * 1.1) + 32
        out, _ = run_hands(cfg, policies, bg, batch, engine="compiled")
        keep = out["leader"] == 0
        parts.append({k: v[keep] for k, v in out.items()})
        kept += int(keep.sum())
    return {k: np.concatenate([p[k] for p in parts])[:size] for k in parts[0]}


def rows(job: AtlasJob, chunk: Any) -> dict[str, np.ndarray]:
    """Per-game arrays of ``chunk.size`` games of ``job`` from ``chunk.seed`` (what :func:`play` sums).

    ``job.policies[s]`` is the policy of the seat ``s`` places after the leader.  ``net`` =
    ``gross`` per seat in points x ``stake`` (house 0), ``staked`` = the total the losers pay
    (the sum of the negative nets), ``length`` = turns (passes counted), ``natural`` = an
    instant win (dragon or four 2s), ``drawn`` = 0; ``win`` = 1 for the seat that went out
    (the game's winner), else 0; ``deal`` = a fingerprint of what the deal decides (the ♦3
    holder, the redeals, the swaps): the engine reports no deal.
    """
    rules = variant_rules(job.variant)
    cfg = make_config(job.variant.players, rules)
    N = cfg.players
    if isinstance(job.policies, str) or len(job.policies) != N:
        raise RulesError(f"policies={job.policies!r}: expected one policy per seat ({N})")
    pols = check_policies(list(job.policies), N)
    if not all(isinstance(p, str) for p in pols):  # pragma: no cover - names only
        raise RulesError("the atlas plays only the built-in policies")
    size = int(chunk.size)
    out = leader_games(cfg, pols, bit_generator(chunk.seed), size)
    r = cfg.rules.replace(bankroll="off")  # one game settles without bankrolls, as in simulate
    p = scoring.penalties(out["cards_left"], r, points_left=out["points_left"], winner=out["winner"],
                          instant=out["instant"])
    net = scoring.settle_many(p, r, winner=out["winner"], liable=out["liable"]).astype(np.float64)
    leader = out["leader"].astype(np.int64)
    perm = (leader[:, None] + np.arange(N)[None, :]) % N  # engine seat at leader offset s
    net = net[np.arange(size)[:, None], perm]
    staked = np.maximum(-net, 0.0).sum(axis=1)
    zero = np.zeros(size)
    win = (perm == out["winner"].astype(np.int64)[:, None]).astype(np.float64)
    return {"net": net, "gross": net, "staked": staked, "length": out["turns"], "drawn": zero,
            "natural": (out["instant"] > 0).astype(np.float64), "win": win,
            "deal": deal_fingerprint(out["leader"], out["redeals"], out["swapped"])}


def deal_key(variant: AtlasVariant) -> Any:
    """What the deal depends on (:attr:`kaptai.core.atlas.AtlasFeed.deal_key`): the players and the
    redeal rule (a redeal draws a new deck from the stream, so ``redeal='off'`` deals differently
    after the first redeal); the settlement and the instant wins do not move the stream.

    >>> [deal_key(v) for v in VARIANTS]
    [(4, 'points_lt_3'), (4, 'points_lt_3'), (3, 'points_lt_3'), (4, 'off')]
    """
    return (int(variant.players), str(variant_rules(variant).redeal))


def _price(out: dict[str, np.ndarray], cfg: EngineConfig) -> np.ndarray:
    """Each game's net per engine seat under the game's own scoring (as :func:`rows`)."""
    r = cfg.rules.replace(bankroll="off")
    p = scoring.penalties(out["cards_left"], r, points_left=out["points_left"], winner=out["winner"],
                          instant=out["instant"])
    return scoring.settle_many(p, r, winner=out["winner"], liable=out["liable"]).astype(np.float64)


def deal_rows(variant: AtlasVariant, arrangements: Any, chunk: Any, *, log: bool = False) -> list[dict[str, np.ndarray]]:
    """The chunk's deals played once under each arrangement (the duplicate league).

    The decks are drawn once per chunk (:func:`kaptai.core.league.chunk_decks`: deck ``i`` from
    deal ``i``'s own seed, spare decks for redeals) and dealt in order with ``decks=`` in every
    arrangement; a redeal takes the next deck whatever the policies do (it is decided by the
    cards), so every arrangement plays the same games on the same cards.  The policies' own
    draws read one stream (:func:`kaptai.core.league.policy_stream`).  Seats are physical (the
    leader is whoever holds ♦3).  With ``log``, each dict also has ``deal``: a CRC per game of
    the engine's deal, leftover and redeal log rows.

    Examples
    --------
    >>> from kaptai.core.runner import plan_chunks
    >>> a, b = deal_rows(VARIANTS[0], [("greedy",) * 4, ("random",) * 4], plan_chunks(3, 3, 1)[0], log=True)
    >>> a["net"].shape, bool((a["deal"] == b["deal"]).all()), float(a["net"].sum())
    ((3, 4), True, 0.0)
    """
    from kaptai.core.league import chunk_decks, policy_stream

    rules = variant_rules(variant)
    cfg = make_config(variant.players, rules)
    N = cfg.players
    if cfg.rules.first_lead != "lowest_card":
        raise RulesError(f"first_lead={cfg.rules.first_lead!r}: a league replays independent games "
                         "(first_lead='lowest_card')")
    m = int(chunk.size)
    extra = m // 4 + 8
    out = []
    for arr in arrangements:
        pols = check_policies(list(arr), N)
        while True:
            decks = chunk_decks(chunk, 52, extra)
            try:
                res, lg = run_hands(cfg, pols, policy_stream(chunk), m, decks=decks, record=m if log else 0,
                                    engine="compiled" if all(isinstance(p, str) for p in pols) else "auto")
                break
            except (RulesError, ValueError, IndexError) as exc:
                if "deck" not in str(exc).lower() or extra > 64 * m + 1024:
                    raise
                extra *= 4  # more redeals than spare decks: the same decks first, more spares
        net = _price(res, cfg)
        win = (np.arange(N)[None, :] == res["winner"].astype(np.int64)[:, None]).astype(np.float64)
        d = {"net": net, "win": win}
        if log:
            from kaptai.bigtwo.config import ACTIONS

            acts = tuple(ACTIONS.index(a) for a in ("deal", "leftover", "redeal"))
            lg = np.asarray(lg)
            d["deal"] = np.array([zlib.crc32(np.ascontiguousarray(lg[(lg[:, 0] == g) & np.isin(lg[:, 3], acts)][:, 2:]
                                                                   [:, [0, 2, 3]]).tobytes()) for g in range(m)])
        out.append(d)
    return out


#: In the league's checkpoint fingerprint: the built-in players' version (config.POLICY_VERSION).
deal_rows.version = POLICY_VERSION  # type: ignore[attr-defined]


def play(job: AtlasJob, chunk: Any) -> dict[str, np.ndarray]:
    """Play ``chunk.size`` games of ``job`` from ``chunk.seed``; return their atlas moments
    (:func:`hand_moments` of :func:`rows`)."""
    r = rows(job, chunk)
    return hand_moments(r["net"], gross=r["gross"], staked=r["staked"], length=r["length"], drawn=r["drawn"],
                        natural=r["natural"])


@lru_cache(maxsize=8)
def _hand_probability(metric: str) -> Fraction:
    from kaptai.bigtwo.odds import deal_odds

    df = deal_odds(4)
    return Fraction(df.loc[df.metric == metric, "exact"].iloc[0])


def decisive(variant: AtlasVariant) -> tuple[str, Fraction] | None:
    """Exact P(the deal is an instant win) at the table, or None without instant wins.

    Per hand, :func:`kaptai.bigtwo.odds.deal_odds` gives ``P(dragon) = 4**13 / C(52, 13)``
    (all 13 ranks, 一條龍) and ``P(four 2s) = C(48, 9) / C(52, 13)`` (四字D) of one
    13-card hand.  At four seats: at most one seat holds the four 2s, and then no seat
    holds all 13 ranks, so the events are disjoint and ``P = P(some dragon) + 4 P(four 2s)``;
    ``P(some dragon)`` by inclusion-exclusion over the seats, ``k`` given seats all holding
    dragons with probability ``prod_{i<k} (4 - i)**13 / C(52 - 13 i, 13)`` (the first factor
    is odds.py's).  Only for four players (13 cards each, no leftover) and ``redeal='off'``
    (with a redeal rule a redealt deal is dealt again, so the per-game rate is not the
    probability of one deal).

    >>> from kaptai.bigtwo.atlas import VARIANTS, decisive
    >>> decisive(VARIANTS[0]) is None
    True
    >>> label, p = decisive(VARIANTS[3])
    >>> label, round(float(p), 6)
    ('instant win (dragon or four 2s)', 0.010987)
    """
    rules = variant_rules(variant)
    if not (rules.instant_dragon or rules.instant_four_twos):
        return None
    if variant.players != 4 or rules.redeal != "off":
        raise RulesError(
            f"the exact instant-win probability is computed for 4 players with redeal='off' "
            f"(got players={variant.players}, redeal={rules.redeal!r})"
        )
    total = Fraction(0)
    labels = []
    if rules.instant_dragon:
        one = _hand_probability("dragon")
        if one != Fraction(4**13, math.comb(52, 13)):  # pragma: no cover - odds.py's own value
            raise AssertionError("odds.py's dragon probability is not 4**13 / C(52, 13)")
        all_k = Fraction(1)
        for k in range(1, 5):
            i = k - 1
            all_k *= one if i == 0 else Fraction((4 - i) ** 13, math.comb(52 - 13 * i, 13))
            total += (-1) ** (k + 1) * math.comb(4, k) * all_k
        labels.append("dragon")
    if rules.instant_four_twos:
        total += 4 * _hand_probability("four_twos")
        labels.append("four 2s")
    return f"instant win ({' or '.join(labels)})", total


FEED = AtlasFeed(
    game=_GAME,
    variants=VARIANTS,
    reference_seat="leader",
    roles=(AtlasRole("leader", "cards",
                     "the holder of ♦3 leads (first_lead='lowest_card'): a uniformly random seat, independent "
                     "from game to game (the deal is uniform)"),),
    unit="point x stake",
    default_policy="greedy",
    # the strongest policy is the search player (kaptai league big-two, field 'greedy', 20,000 games a
    # policy: search beats the best other built-in by +5.2 points a game under Place and +1.9 under
    # 獨贏, 95% intervals clear of 0); it plays about 100 games a second at one seat, so its tables
    # are capped (the rows give the hands behind them)
    strong_policy="search",
    strong_hands=8_000,
    strong_chunk_hands=200,
    chunk_hands=8192,
    play=play,
    rows=rows,
    deal_key=deal_key,
    deal_rows=deal_rows,
    win="the seat that goes out first (the game's winner)",
    decisive=decisive,
    length_unit="turns (passes counted)",
    notes=(
        "A hand is one game; seat 0 is its leader (the ♦3 holder). Big Two has no house and no drawn "
        "game; staked = the total the losers pay (the sum of the negative nets under the variant's "
        "settlement, 包牌 included). Length = turns, passes counted; natural = an instant win "
        "(dragon or four 2s), only where the rules allow it (off by default)."
    ),
)
