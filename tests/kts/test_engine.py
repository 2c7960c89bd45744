"""Game engine: constructed walls for each turn rule, variant conformance, compiled vs
reference whole-log equality, and the compiled helpers against the oracle."""

from __future__ import annotations

import random
from collections import Counter

import numpy as np
import pytest

from kaptai.kts import _engine, reference
from kaptai.kts.engine_reference import RandomStream, run_hands as reference_run_hands
from kaptai.kts.config import make_config
from kaptai.kts.policies import distance_proxy, policy_codes
from kaptai.kts.simulate import play_wall, simulate_log

from ..conftest import SLOW_SCALE as SCALE  # KAPTAI_SLOW_SCALE, default in tests/conftest.py

# 16 16 · 16+12 · 33+13 · 15+22 · 66+44: a basic win scoring 2 (rules page §4)
WIN10 = [9, 9, 9, 20, 5, 3, 10, 6, 0, 2]
# the same without 1-2: ready, waiting on 2-4 (19) or 1-2 (20)
READY9 = [9, 9, 9, 5, 3, 10, 6, 0, 2]
ENGINES = ["compiled", "reference"]


def build_wall(cfg, first: int, hands: dict[int, list[int]], draws=()) -> list[int]:
    """A full wall: the given hands (by seat), fillers for the other seats, ``draws`` next,
    then the remaining tiles in sorted order."""
    pool = Counter({t: cfg.copies[t] for t in range(21)})
    for tiles in list(hands.values()) + [list(draws)]:
        pool.subtract(tiles)
    assert min(pool.values()) >= 0, "constructed wall uses more copies than the sets hold"
    rest = sorted(pool.elements())
    wall = []
    for i in range(cfg.players):
        seat = (first + i) % cfg.players
        size = cfg.n_first if i == 0 else cfg.n_other
        if seat in hands:
            assert len(hands[seat]) == size
            wall += hands[seat]
        else:
            wall += rest[:size]
            rest = rest[size:]
    return wall + list(draws) + rest


def events(log) -> list[tuple]:
    """(turn, seat, action, tile, value) after the deal."""
    body = log[~log.action.isin(["dice", "deal"])]
    return list(zip(body.turn, body.seat, body.action, body.tile, body.value))


# --------------------------------------------------------------------------------------
# Compiled helpers against the oracle
# --------------------------------------------------------------------------------------


def test_random_stream_matches_numpy_next_uint32():
    bg = np.random.PCG64(123)
    mine = RandomStream(np.random.PCG64(123))
    fn, state = bg.ctypes.next_uint32, bg.ctypes.state_address
    for _ in range(50):
        assert mine.next_uint32() == fn(state)


def test_bounded_is_uniform_and_in_range():
    s = RandomStream(np.random.PCG64(5))
    draws = [s.bounded(6) for _ in range(6000)]
    assert set(draws) == set(range(6))
    counts = np.bincount(draws)
    assert counts.min() > 850 and counts.max() < 1150


def _random_hand(rng, size, copies):
    pool = [t for t in range(21) for _ in range(copies[t])]
    hand = [0] * 21
    for t in rng.sample(pool, size):
        hand[t] += 1
    return hand


@pytest.mark.parametrize("copies,size", [([4] * 11 + [2] * 10, 9), ([2] * 11 + [1] * 10, 7)])
def test_fast_basic_waits_match_reference(copies, size):
    rng = random.Random(1)
    hands = [_random_hand(rng, size, copies) for _ in range(400)]
    # add near-ready hands: a winning hand minus one tile
    for _ in range(200):
        hand = list(WIN10 if size == 9 else [9, 9, 5, 3, 10, 6, 0, 2])
        del hand[rng.randrange(len(hand))]
        c = [0] * 21
        for t in hand:
            c[t] += 1
        hands.append(c)
    for hand in hands:
        mask = _engine._basic_waits(hand)
        got = [t for t in range(21) if mask >> t & 1]
        assert got == reference.waits(hand, "traditional"), hand


def test_distance_proxy_compiled_matches_python():
    rng = random.Random(2)
    for copies, n in (([4] * 11 + [2] * 10, 4), ([2] * 11 + [1] * 10, 3)):
        for size in (2 * n + 1, 2 * n + 2):
            for _ in range(300):
                hand = _random_hand(rng, size, copies)
                assert _engine._distance_proxy(hand, copies, n) == distance_proxy(hand, copies, n)


def test_distance_proxy_is_zero_for_ready_and_bounds_exact_distance():
    copies = [4] * 11 + [2] * 10
    hand = [0] * 21
    for t in READY9:
        hand[t] += 1
    assert distance_proxy(hand, copies, 4) == 0
    rng = random.Random(3)
    for _ in range(40):
        hand = _random_hand(rng, 9, copies)
        exact = 9 - reference.max_overlap(hand, "traditional", copies)
        # the proxy assumes every missing ten-pair partner is available: never above
        assert distance_proxy(hand, copies, 4) <= exact


# --------------------------------------------------------------------------------------
# Constructed walls, one per turn rule (both engines)
# --------------------------------------------------------------------------------------


@pytest.mark.parametrize("engine", ENGINES)
def test_natural_win(engine):
    cfg = make_config(4, "traditional")
    wall = build_wall(cfg, 2, {2: WIN10})
    log = play_wall(4, "traditional", wall, 2, engine=engine)
    assert events(log) == [(1, 2, "natural", -1, 3)]  # score 2 + the self-draw point
    assert log.action.iloc[0] == "dice" and log.value.iloc[0] == -1
    dealt = log[log.action == "deal"]
    assert dealt.seat.tolist()[:10] == [2] * 10
    assert Counter(dealt.seat) == {2: 10, 3: 9, 0: 9, 1: 9}


@pytest.mark.parametrize("engine", ENGINES)
def test_claim_first_discard_then_draw(engine):
    cfg = make_config(4, "traditional")
    first = [1, 1, 1, 1, 4, 4, 7, 7, 11, 12]
    seat1 = [13, 13, 14, 14, 15, 15, 16, 16, 17]
    wall = build_wall(cfg, 0, {0: first, 1: seat1}, draws=[18])
    log = play_wall(
        4, "traditional", wall, 0, engine=engine,
        scripts={0: [11], 1: [11, 17, 18], 2: [-1, -1]},
    )
    ev = events(log)
    assert ev[:7] == [
        (1, 0, "discard", 11, -1),
        (2, 1, "claim", 11, -1),       # the next player takes the first hand's discard
        (2, 1, "discard", 17, -1),     # and exchanges a hand tile for it
        (2, 2, "decline", 17, -1),     # seat 2 decides on it before seat 1 draws
        (2, 1, "draw", 18, -1),
        (2, 1, "discard", 18, -1),
        (3, 2, "decline", 18, -1),     # declining the first leaves the second claimable
    ]


@pytest.mark.parametrize("engine", ENGINES)
def test_win_on_first_discard_ends_hand_before_the_draw(engine):
    cfg = make_config(4, "traditional")
    first = [1, 1, 1, 1, 4, 4, 7, 7, 11, 12]
    seat1 = [13, 13, 14, 14, 15, 15, 16, 16, 20]
    wall = build_wall(cfg, 0, {0: first, 1: seat1, 2: READY9})
    log = play_wall(4, "traditional", wall, 0, engine=engine, scripts={0: [11], 1: [11, 20]})
    # seat 2 (greedy) takes the 1-2 that completes its hand: claimed win, no self-draw point
    assert events(log) == [
        (1, 0, "discard", 11, -1),
        (2, 1, "claim", 11, -1),
        (2, 1, "discard", 20, -1),
        (2, 2, "claim", 20, -1),
        (2, 2, "claim_win", 20, 2),
    ]
    assert "draw" not in set(log.action)


@pytest.mark.parametrize("engine", ENGINES)
def test_one_claim_limit(engine):
    cfg = make_config(4, "traditional")
    first = [1, 1, 1, 1, 4, 4, 7, 7, 11, 12]
    seat1 = [13, 13, 14, 14, 15, 15, 16, 16, 17]
    seat2 = [0, 0, 2, 2, 3, 3, 5, 5, 6]
    wall = build_wall(cfg, 0, {0: first, 1: seat1, 2: seat2}, draws=[18, 19])
    log = play_wall(
        4, "traditional", wall, 0, engine=engine,
        scripts={0: [11], 1: [11, 17, 18], 2: [17, 6, 19], 3: [-1]},
    )
    ev = events(log)
    assert ev[:9] == [
        (1, 0, "discard", 11, -1),
        (2, 1, "claim", 11, -1),
        (2, 1, "discard", 17, -1),
        (2, 2, "claim", 17, -1),        # committed: seat 2 takes the first discard
        (2, 1, "draw", 18, -1),
        (2, 1, "discard", 18, -1),      # ... so it may not claim this second one:
        (3, 2, "discard", 6, -1),       # its turn starts with the exchange discard
        (3, 3, "decline", 6, -1),
        (3, 2, "draw", 19, -1),
    ]


@pytest.mark.parametrize("engine", ENGINES)
def test_self_drawn_win(engine):
    cfg = make_config(4, "traditional")
    first = [1, 1, 1, 1, 4, 4, 7, 7, 11, 12]
    wall = build_wall(cfg, 0, {0: first, 1: READY9}, draws=[19])
    log = play_wall(4, "traditional", wall, 0, engine=engine, scripts={0: [11], 1: [-1]})
    assert events(log) == [
        (1, 0, "discard", 11, -1),
        (2, 1, "decline", 11, -1),
        (2, 1, "draw", 19, -1),
        (2, 1, "self_drawn_win", 19, 3),
    ]


@pytest.mark.parametrize("engine", ENGINES)
@pytest.mark.parametrize("turn", ["claim-then-draw", "claim-or-draw"])
def test_wall_exhaustion(engine, turn):
    # Kap Shap with run8 as the only form: nobody can ever win, the wall runs out
    rules = {"forms": "run8", "turn": turn}
    cfg = make_config(2, rules)
    wall = sorted(t for t in range(21) for _ in range(cfg.copies[t]))
    log = play_wall(2, rules, wall, 1, engine=engine, policies="greedy")
    assert log.action.iloc[-1] == "drawn_hand"
    assert (log.action == "draw").sum() == 32 - 15
    last_draw = log[log.action == "draw"].iloc[-1]
    # the seat after the last drawer is the one that cannot draw
    assert log.seat.iloc[-1] == (last_draw.seat + 1) % 2


def test_keep_drawn_false_discards_the_drawn_tile():
    cfg = make_config(4, {"keep_drawn": False})
    first = [1, 1, 1, 1, 4, 4, 7, 7, 11, 12]
    seat1 = [13, 13, 14, 14, 15, 15, 16, 16, 17]
    wall = build_wall(cfg, 0, {0: first, 1: seat1}, draws=[0])
    for engine in ENGINES:
        log = play_wall(4, {"keep_drawn": False}, wall, 0, engine=engine, scripts={0: [11], 1: [-1]})
        assert events(log)[:4] == [
            (1, 0, "discard", 11, -1),
            (2, 1, "decline", 11, -1),
            (2, 1, "draw", 0, -1),
            (2, 1, "discard", 0, -1),
        ]


def test_scripted_illegal_choice_is_an_error():
    cfg = make_config(4)
    wall = build_wall(cfg, 0, {0: [1, 1, 1, 1, 4, 4, 7, 7, 11, 12]})
    for engine in ENGINES:
        with pytest.raises(ValueError, match="discard"):
            play_wall(4, None, wall, 0, engine=engine, scripts={0: [20]})


# --------------------------------------------------------------------------------------
# Conformance: replay every log and check the rules, for every variant
# --------------------------------------------------------------------------------------


def replay(log, cfg) -> None:
    """Check a multi-hand log against the rules page (raises AssertionError)."""
    P, n, rules = cfg.players, cfg.n, cfg.rules
    for _, hand in log.groupby("hand", sort=True):
        held = [Counter() for _ in range(P)]
        table: Counter = Counter()
        pending = [-1] * P            # claimed tile not yet in hand
        first = int(hand.seat.iloc[0])
        draws = 0
        last_discard = None           # (seat, tile)
        claims_since_draw = [0] * P
        turn_log: dict[int, list[str]] = {}
        drawn_tile = None
        ended = False
        for row in hand.itertuples(index=False):
            a, s, t = row.action, row.seat, row.tile
            assert not ended, "event after the end of the hand"
            if a == "dice":
                continue
            if a == "deal":
                held[s][t] += 1
                continue
            if a == "natural":
                assert row.turn == 1 and s == first and sum(held[s].values()) == 2 * n + 2
                assert reference.is_win(_vec(held[s]), rules)
                ended = True
            elif a in ("claim", "decline"):
                assert cfg.claim != "none"
                if cfg.claim == "previous":
                    assert last_discard is not None and t == last_discard[1]
                    assert s == (last_discard[0] + 1) % P, "only the next player may claim"
                if a == "claim":
                    assert table[t] > 0
                    table[t] -= 1
                    claims_since_draw[s] += 1
                    assert claims_since_draw[s] <= 1, "at most one claim per turn"
                    pending[s] = t
                turn_log.setdefault(row.turn, []).append(f"{a}:{s}")
            elif a == "claim_win":
                assert pending[s] == t
                grown = held[s].copy()
                grown[t] += 1
                assert reference.is_win(_vec(grown), rules)
                assert row.value == reference.score(_vec(grown), rules)
                ended = True
            elif a == "draw":
                held[s][t] += 1
                draws += 1
                drawn_tile = (s, t)
                if cfg.turn == "claim-then-draw":
                    claims_since_draw[s] = 0
                turn_log.setdefault(row.turn, []).append(f"draw:{s}")
            elif a == "self_drawn_win":
                assert drawn_tile == (s, t)
                assert reference.is_win(_vec(held[s]), rules)
                assert row.value == reference.score(_vec(held[s]), rules) + 1
                ended = True
            elif a == "discard":
                if pending[s] >= 0:
                    assert held[s][t] > 0, "the claimed tile is exchanged for a hand tile"
                    held[s][pending[s]] += 1
                    pending[s] = -1
                elif not cfg.keep_drawn and drawn_tile and drawn_tile[0] == s:
                    assert t == drawn_tile[1], "keep_drawn=False: the drawn tile goes"
                assert held[s][t] > 0
                held[s][t] -= 1
                table[t] += 1
                assert sum(held[s].values()) == 2 * n + 1
                last_discard = (s, t)
                drawn_tile = None
                if cfg.turn == "claim-or-draw":
                    claims_since_draw[s] = 0
                turn_log.setdefault(row.turn, []).append(f"discard:{s}")
            elif a == "drawn_hand":
                assert draws == cfg.n_tiles - cfg.n_first - (P - 1) * cfg.n_other
                ended = True
            elif a == "turn_limit":
                ended = True
            for seat in range(P):
                assert all(held[seat][x] + table[x] <= cfg.copies[x] for x in held[seat])
        assert ended, "the hand has no end event"
        for turn, acts in turn_log.items():
            if turn < 2:
                continue
            holder = [x for x in acts if x.startswith("draw:") or x.startswith("discard:")]
            seats = {int(x.split(":")[1]) for x in holder}
            if cfg.turn == "claim-or-draw":
                # one discard per turn, after a claim or a draw, never both
                assert sum(x.startswith("discard:") for x in acts) <= 1
                holder_seat = next(iter(seats)) if seats else None
                if holder_seat is not None:
                    took = f"claim:{holder_seat}" in acts
                    drew = f"draw:{holder_seat}" in acts
                    assert not (took and drew)
            else:
                assert sum(x.startswith("draw:") for x in acts) <= 1
                assert sum(x.startswith("discard:") for x in acts) <= 2


def _vec(counter: Counter) -> list[int]:
    return [counter[t] for t in range(21)]


VARIANTS = [
    ("traditional", {}),
    ("advanced", {}),
    ("traditional", {"claim": "any"}),
    ("traditional", {"claim": "none"}),
    ("traditional", {"turn": "claim-or-draw"}),
    ("advanced", {"turn": "claim-or-draw", "claim": "any"}),
    ("traditional", {"keep_drawn": False}),
    ("advanced", {"keep_drawn": False, "claim": "any"}),
    ("traditional", {"dice": 4}),
    ("advanced", {"gee_joon_run_value": 3, "base_combination": "sum"}),
    ("traditional", {"sets": 4}),
]


@pytest.mark.parametrize("preset,options", VARIANTS)
@pytest.mark.parametrize("players", [2, 4, 7])
def test_logs_follow_the_rules_for_every_variant(preset, options, players):
    from kaptai.kts.rules import resolve_rules

    rules = resolve_rules(preset, **options)
    cfg = make_config(players, rules)
    for policies in ("random", ["greedy", "random"] * 4):
        pol = policies if isinstance(policies, str) else policies[:players]
        log = simulate_log(players, rules, 12, seed=players, policies=pol)
        replay(log, cfg)
        if rules.claim == "none":
            assert not log.action.isin(["claim", "decline", "claim_win"]).any()


# --------------------------------------------------------------------------------------
# Compiled engine == reference engine, whole logs
# --------------------------------------------------------------------------------------


def _compare(players, rules, policies, seed, hands):
    cfg = make_config(players, rules)
    codes = policy_codes(policies)
    st_ref, rows = reference_run_hands(cfg, policies, np.random.PCG64(seed), hands, record=hands)
    st_c, log = _engine.run_hands(cfg, codes, np.random.PCG64(seed), hands, 0, hands)
    names = _engine.ACTIONS
    compiled_rows = [
        (int(h), int(st), int(tu), int(se), names[a], int(ti), int(v))
        for h, st, tu, se, a, ti, v in log
    ]
    assert compiled_rows == rows
    for key in st_ref:
        np.testing.assert_array_equal(st_c[key], st_ref[key], err_msg=key)


COMPARE_CASES = [
    (4, "traditional"),
    (4, "advanced"),
    (2, "advanced"),
    (3, {"claim": "any"}),
    (4, {"turn": "claim-or-draw"}),
    (5, {"keep_drawn": False, "forms": "basic,general_eyes,run4"}),
    (4, {"claim": "none", "dice": 4}),
    (4, {"sets": 3, "gee_joon_run_value": 3, "forms": "basic,run4,run6,run8"}),
    # 8 copies of an id: the packed counts are not exact, so the engine runs without its memos
    (4, {"sets": 4, "forms": "basic,general_eyes,run4,run6,run8"}),
]


@pytest.mark.parametrize("players,rules", COMPARE_CASES)
@pytest.mark.parametrize("policy", ["random", "greedy", "score"])
def test_compiled_matches_reference(players, rules, policy):
    for seed in range(3):
        _compare(players, rules, [policy] * players, seed, 2)


def test_compiled_matches_reference_mixed_policies():
    for seed in range(4):
        _compare(4, "advanced", ["score", "greedy", "random", "greedy"], 10 + seed, 2)


@pytest.mark.slow
@pytest.mark.parametrize("players,rules", COMPARE_CASES)
@pytest.mark.parametrize("policy", ["random", "greedy", "score"])
def test_compiled_matches_reference_many_seeds(players, rules, policy):
    for seed in range(int(10 * SCALE)):
        _compare(players, rules, [policy] * players, 100 + seed, 3)
