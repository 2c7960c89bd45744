"""The ``'lookahead'`` engine policy (docs/kap-tai-shap-engine.md, Policies, ``lookahead``):
its value function worked by hand, against the independent exact solver
:func:`kaptai.kts.lookahead.lookahead`, its discard and claim rules restated over
Fractions, and the compiled engine against the reference engine, whole logs."""

from __future__ import annotations

from fractions import Fraction

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from kaptai.errors import InvalidHandError, RulesError
from kaptai.kts import reference
from kaptai.kts.config import make_config
from kaptai.kts.engine_reference import run_hands as reference_run_hands
from kaptai.kts.lookahead import lookahead
from kaptai.kts.policies import (
    BUILTIN_POLICIES,
    LOOK_HORIZON,
    GreedyPolicy,
    LookaheadPolicy,
    PlayerView,
    lookahead_value,
    policy_codes,
    policy_objects,
    resolve_policies,
)
from kaptai.kts.rules import resolve_rules
from kaptai.kts.tiles import COPIES_PER_SET, format_hand

from ..conftest import SLOW_SCALE as SCALE  # KAPTAI_SLOW_SCALE, default in tests/conftest.py
TWO_SETS = [4] * 11 + [2] * 10


def vec(ids) -> list[int]:
    out = [0] * 21
    for t in ids:
        out[t] += 1
    return out


def view_of(hand, table, rules, *, copies=TWO_SETS, players=4, wall_remaining=40, n=4):
    return PlayerView(
        seat=1, players=players, n=n, rules=rules, copies=tuple(copies), hand=tuple(hand),
        table=tuple(table), wall_remaining=wall_remaining, turn=5, first_hand=0, rng=None,
    )


# --------------------------------------------------------------------------------------
# Registration
# --------------------------------------------------------------------------------------


def test_registered_as_code_3():
    assert BUILTIN_POLICIES == ("random", "greedy", "score", "lookahead", "lookahead_score", "search")
    assert LOOK_HORIZON == 2
    assert policy_codes(resolve_policies("lookahead", 4)) == [3, 3, 3, 3]
    (obj,) = policy_objects(["lookahead"])
    assert isinstance(obj, LookaheadPolicy) and isinstance(obj, GreedyPolicy)
    assert obj.name == "lookahead"


# --------------------------------------------------------------------------------------
# The value function, worked by hand (n = 1: an eye and one ten pair, basic form).
# Tile ids: 0 = 6-6 (ten-value class 2), 4 = 5-5 and 8 = 4-6 (class 0), 7 = 5-6 (class 1),
# 9 = 1-6 (class 7), 12 = 3-6 (class 9), 19 = 2-4 (class 3).
# --------------------------------------------------------------------------------------

H008 = vec([0, 0, 8])  # 6-6 6-6 4-6: waits 5-5 (6-6 6-6 · 4-6+5-5) and 4-6 (· 4-6+4-6)


def points(ids, rules="traditional"):
    """score + 1 (the self-draw point) of a winning hand."""
    s = reference.score(vec(ids), rules)
    assert s >= 0
    return s + 1


def test_value_no_look_is_zero():
    assert lookahead_value(H008, vec([4, 4, 8]), 0, "traditional") == (0, 0)


def test_value_one_look_counts_the_waits_in_the_pool():
    assert reference.waits(H008, "traditional") == [4, 8]
    pool = vec([4, 4, 8] + [9] * 5)  # 2 x 5-5, 1 x 4-6, 5 dead tiles
    p, s = lookahead_value(H008, pool, 1, "traditional")
    assert p == 3
    assert s == 2 * points([0, 0, 8, 4]) + 1 * points([0, 0, 8, 8])
    # no wait left in the pool: nothing
    assert lookahead_value(H008, vec([9] * 5 + [12]), 1, "traditional") == (0, 0)


def test_value_two_looks_keeping_the_hand():
    # pool {5-5, 1-6, 3-6}: 5-5 first wins (2 continuations); 1-6 or 3-6 first: throw it
    # back (the other throws break the hand) and win if 5-5 comes next (1 of 2).
    # P = (2 + 1 + 1) / (3 x 2) = 2/3 = 1 - (2/3)(1/2).
    pool = vec([4, 9, 12])
    assert lookahead_value(H008, pool, 2, "traditional") == (4, 4 * points([0, 0, 8, 4]))


def test_value_two_looks_changing_the_hand():
    # pool {5-6, 3-6, 2-4}: the hand waits on nothing in the pool, but after drawing 5-6
    # (keep 6-6 6-6 5-6, wait 3-6) or 3-6 (keep 6-6 6-6 3-6, wait 5-6) one more look wins
    # with 1 of the 2 tiles left; after 2-4 nothing helps.  P = 2 / 6.
    assert reference.waits(vec([0, 0, 7]), "traditional") == [11, 12]
    assert reference.waits(vec([0, 0, 12]), "traditional") == [7]
    pool = vec([7, 12, 19])
    assert lookahead_value(H008, pool, 1, "traditional") == (0, 0)
    assert lookahead_value(H008, pool, 2, "traditional") == (2, 2 * points([0, 0, 7, 12]))


def test_value_is_lexicographic_p_first():
    # Against Fractions: V_2 / (q (q - 1)) is the probability of a win within two looks
    # when the second look is played with the best hand (enumerated here by hand over
    # ordered draws).
    pool = vec([4, 4, 9, 12, 12])
    q = 5
    p, s = lookahead_value(H008, pool, 2, "traditional")
    # first 5-5 (2 ways): win.  first 1-6 or 3-6 (3 ways): keep the hand, 2 of 4 left win.
    assert Fraction(p, q * (q - 1)) == Fraction(2, 5) + Fraction(3, 5) * Fraction(2, 4)
    assert s == p * points([0, 0, 8, 4])


def test_value_rejects_bad_input():
    with pytest.raises(InvalidHandError, match="2n \\+ 1"):
        lookahead_value(vec([0, 0, 8, 8]), vec([4]), 1, "traditional")
    with pytest.raises(InvalidHandError, match="pool"):
        lookahead_value(H008, [1, -1] + [0] * 19, 1, "traditional")
    with pytest.raises(RulesError, match="j=3"):
        lookahead_value(H008, vec([4, 9]), 3, "traditional")


# --------------------------------------------------------------------------------------
# Against the independent exact solver kaptai.kts.lookahead (objective 'win')
# --------------------------------------------------------------------------------------


def random_state(seed: int, players: int, n_seen: int):
    """A random 2n + 2 hand and ``n_seen`` tiles face up, from the sets of ``players``."""
    sets = 1 if players == 2 else 2
    size = 8 if players == 2 else 10
    wall = np.repeat(np.arange(21), COPIES_PER_SET * sets)
    np.random.default_rng(seed).shuffle(wall)
    return wall[:size].tolist(), wall[size:size + n_seen].tolist(), [int(c) * sets for c in COPIES_PER_SET]


def near_win_state(seed: int, players: int, n_seen: int, changes: int):
    """As :func:`random_state`, but the hand is a basic win with ``changes`` tiles replaced
    by random other tiles (so it is often one or two tiles from ready)."""
    sets = 1 if players == 2 else 2
    n = 3 if players == 2 else 4
    copies = [int(c) * sets for c in COPIES_PER_SET]
    rng = np.random.default_rng(seed)
    wins = reference.winning_hands("traditional", copies, n)
    win = wins[rng.integers(len(wins))].astype(int)
    rest = np.repeat(np.arange(21), np.array(copies) - win)
    rng.shuffle(rest)
    hand = np.repeat(np.arange(21), win).tolist()
    rng.shuffle(hand)
    out = list(rest[:changes])
    hand[:changes], rest = out, np.concatenate([rest[changes:], hand[:changes]])
    rng.shuffle(rest)
    return [int(t) for t in hand], [int(t) for t in rest[:n_seen]], copies


def make_state(seed, players, n_seen, near):
    if near:
        return near_win_state(seed, players, n_seen, 1 + seed % 2)
    return random_state(seed, players, n_seen)


GAMES = [(4, "traditional"), (4, "advanced"), (2, "traditional"), (2, "advanced")]


@settings(max_examples=25, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 2**32 - 1), game=st.sampled_from(GAMES), n_seen=st.integers(12, 30),
       draws=st.sampled_from([1, 2, 2]), near=st.booleans())
def test_discard_values_equal_the_exact_solver(seed, game, n_seen, draws, near):
    players, preset = game
    if players == 2:
        n_seen = min(n_seen, 18)
    hand, seen, copies = make_state(seed, players, n_seen, near)
    rules = resolve_rules(preset)
    df = lookahead(format_hand(hand), preset, seen=format_hand(seen) if seen else (), draws=draws,
                   players=players, objective="win")
    if df.action.iloc[0] == "win":
        return
    g, table = vec(hand), vec(seen)
    pool = [c - a - b for c, a, b in zip(copies, g, table)]
    u = sum(pool)
    denominator = u * (u - 1) if draws == 2 else u
    want = {r.discard: (Fraction(r.p_win_exact), Fraction(r.score_exact)) for r in df.itertuples()}
    got = {}
    for x in sorted(set(hand)):
        h = list(g)
        h[x] -= 1
        p, s = lookahead_value(h, pool, draws, rules)
        got[format_hand([x])] = (Fraction(p, denominator), Fraction(s, denominator))
    assert got == want, (hand, seen, preset, draws)

    if draws == LOOK_HORIZON:
        # the policy's own values and its discard (wall deep enough for k = 2)
        view = view_of(g, table, rules, copies=copies, players=players, wall_remaining=2 * players + 1,
                       n=4 if players == 4 else 3)
        policy = LookaheadPolicy()
        legal = tuple(sorted(set(hand)))
        values = policy.discard_values(view, legal)
        assert {format_hand([x]): (Fraction(p, denominator), Fraction(s, denominator))
                for x, (p, s) in values.items()} == want
        best = max(want.values())
        tied = tuple(x for x in legal if want[format_hand([x])] == best)
        expect = tied[0] if len(tied) == 1 else GreedyPolicy().discard(view, tied)
        assert policy.discard(view, legal) == expect


# --------------------------------------------------------------------------------------
# The claim rule, restated over Fractions (values from the exact solver)
# --------------------------------------------------------------------------------------


def solver_value(hand_ids, seen_ids, preset, players, j):
    """(P(win), E[score]) of a 2n + 1 hand with j looks, as Fractions, by the solver."""
    if j == 0:
        return (Fraction(0), Fraction(0))
    df = lookahead(format_hand(hand_ids), preset, seen=format_hand(seen_ids) if seen_ids else (),
                   draws=j, players=players, objective="win")
    (row,) = df.itertuples()
    return (Fraction(row.p_win_exact), Fraction(row.score_exact))


def expected_claim(view, candidates, hand_ids, seen_ids, preset, players, k, turn):
    """The spec's claim rule over Fractions."""
    wins = []
    for c in candidates:
        s = reference.score(vec(hand_ids + [c]), preset)
        if s >= 0:
            wins.append((s, -c))
    if wins:
        return -max(wins)[1]
    if k == 0:
        return GreedyPolicy().claim(view, candidates)
    j = k if turn == "claim-then-draw" else k - 1
    decline = solver_value(hand_ids, seen_ids, preset, players, k)
    best, choice = decline, None
    for c in candidates:
        rest_seen = list(seen_ids)
        rest_seen.remove(c)
        value = (Fraction(0), Fraction(0))
        for y in sorted(set(hand_ids)):
            h = list(hand_ids) + [c]
            h.remove(y)
            value = max(value, solver_value(h, rest_seen + [y], preset, players, j))
        if value > best:
            best, choice = value, c
    if choice is None and decline == (0, 0):
        return GreedyPolicy().claim(view, candidates)
    return choice


@settings(max_examples=25, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 2**32 - 1), game=st.sampled_from(GAMES), n_seen=st.integers(14, 30),
       turn=st.sampled_from(["claim-then-draw", "claim-or-draw"]), wall=st.sampled_from([1, 5, 9]),
       n_cand=st.integers(1, 3), near=st.booleans())
def test_claim_rule_equals_the_spec_over_fractions(seed, game, n_seen, turn, wall, n_cand, near):
    players, preset = game
    if players == 2:
        n_seen = min(n_seen, 18)
        wall = wall // 2
    hand, seen, copies = make_state(seed, players, n_seen, near)
    hand = hand[:-1]                     # the 2n + 1 tiles before the claim
    rules = resolve_rules(preset, turn=turn)
    candidates = tuple(sorted(set(seen))[:n_cand])
    view = view_of(vec(hand), vec(seen), rules, copies=copies, players=players, wall_remaining=wall,
                   n=4 if players == 4 else 3)
    k = LookaheadPolicy.look_horizon(view)
    assert k == min(2, wall // players)
    want = expected_claim(view, candidates, hand, seen, preset, players, k, turn)
    assert LookaheadPolicy().claim(view, candidates) == want


def test_claim_worked_example_depends_on_the_turn_rule():
    # n = 1.  H = 6-6 6-6 2-4 waits on class 7 (1-6, 2-5, 3-4); only one 1-6 is unseen.
    # The table holds a 4-6: claiming it and throwing 2-4 leaves 6-6 6-6 4-6, which waits
    # on 5-5 (2 unseen) and 4-6 (1 unseen).
    hand = vec([0, 0, 19])
    pool = vec([9, 4, 4, 8, 13, 13, 14])  # 1-6, 5-5 x2, 4-6, and three dead tiles
    table = [c - h - p for c, h, p in zip(TWO_SETS, hand, pool)]
    assert table[8] >= 1
    for turn, wall, expect in [
        ("claim-then-draw", 4, 8),   # k = 1, j = 1: 3 live > 1 live -> claim
        ("claim-or-draw", 4, None),  # k = 1, j = 0: the claim is worth nothing now -> decline
        ("claim-then-draw", 8, 8),   # k = 2, j = 2
    ]:
        rules = resolve_rules("traditional", turn=turn)
        view = view_of(hand, table, rules, wall_remaining=wall, n=1)
        assert LookaheadPolicy().claim(view, (8,)) == expect, turn
    # greedy claims in the second case (live outs 1 -> 3)
    rules = resolve_rules("traditional", turn="claim-or-draw")
    view = view_of(hand, table, rules, wall_remaining=4, n=1)
    assert GreedyPolicy().claim(view, (8,)) == 8
    # with the 1-6 gone too, declining is worth (0, 0) under claim-or-draw with one look
    # (and so is the claim, j = 0): greedy's claim rule decides, and it claims.
    pool0 = vec([4, 4, 8, 13, 13, 14])
    table0 = [c - h - p for c, h, p in zip(TWO_SETS, hand, pool0)]
    view0 = view_of(hand, table0, rules, wall_remaining=4, n=1)
    assert lookahead_value(hand, pool0, 1, rules) == (0, 0)
    assert LookaheadPolicy().claim(view0, (8,)) == GreedyPolicy().claim(view0, (8,)) == 8
    # and a candidate that does not raise the live outs is declined by both
    assert LookaheadPolicy().claim(view0, (14,)) is None


def test_claim_or_draw_two_looks_cross_multiplies():
    # k = 2 under claim-or-draw: decline = V_2(H) / (u (u - 1)) against claim = V_1 / u.
    hand = vec([0, 0, 19])
    pool = vec([9, 4, 4, 8, 13, 13, 14])
    u = sum(pool)
    table = [c - h - p for c, h, p in zip(TWO_SETS, hand, pool)]
    rules = resolve_rules("traditional", turn="claim-or-draw")
    decline = lookahead_value(hand, pool, 2, rules)
    claim = lookahead_value(vec([0, 0, 8]), pool, 1, rules)
    assert Fraction(claim[0], u) > Fraction(decline[0], u * (u - 1))
    view = view_of(hand, table, rules, wall_remaining=8, n=1)
    assert LookaheadPolicy().claim(view, (8,)) == 8
    # a pool where declining is worth more over two looks than claiming now
    pool2 = vec([9, 9, 9, 4, 13])            # 3 x 1-6 live for H; only 1 x 5-5 after the claim
    table2 = [c - h - p for c, h, p in zip(TWO_SETS, hand, pool2)]
    view2 = view_of(hand, table2, rules, wall_remaining=8, n=1)
    assert LookaheadPolicy().claim(view2, (8,)) is None


def test_winning_candidate_is_taken_with_the_best_score():
    hand = vec([0, 0, 8])
    table = vec([4, 8, 9])
    rules = resolve_rules("traditional")
    view = view_of(hand, table, rules, wall_remaining=40, n=1)
    s4 = reference.score(vec([0, 0, 8, 4]), rules)
    s8 = reference.score(vec([0, 0, 8, 8]), rules)
    assert s8 > s4
    assert LookaheadPolicy().claim(view, (4, 8, 9)) == 8


def test_no_look_left_plays_greedy():
    rng = np.random.default_rng(5)
    rules = resolve_rules("advanced")
    for _ in range(5):
        hand, seen, copies = random_state(int(rng.integers(1 << 30)), 4, 20)
        view = view_of(vec(hand), vec(seen), rules, copies=copies, wall_remaining=3)
        assert LookaheadPolicy.look_horizon(view) == 0
        legal = tuple(sorted(set(hand)))
        assert LookaheadPolicy().discard(view, legal) == GreedyPolicy().discard(view, legal)
        small = view_of(vec(hand[:-1]), vec(seen), rules, copies=copies, wall_remaining=3)
        cands = tuple(sorted(set(seen))[:3])
        assert LookaheadPolicy().claim(small, cands) == GreedyPolicy().claim(small, cands)


# --------------------------------------------------------------------------------------
# Compiled engine == reference engine, whole logs
# --------------------------------------------------------------------------------------


def _compare(players, rules, policies, seed, hands):
    from kaptai.kts import _engine

    cfg = make_config(players, rules)
    codes = policy_codes(policies)
    st_ref, rows = reference_run_hands(cfg, policies, np.random.PCG64(seed), hands, record=hands)
    st_c, log = _engine.run_hands(cfg, codes, np.random.PCG64(seed), hands, 0, hands)
    names = _engine.ACTIONS
    compiled_rows = [
        (int(h), int(s), int(tu), int(se), names[a], int(ti), int(v)) for h, s, tu, se, a, ti, v in log
    ]
    for i, (a, b) in enumerate(zip(rows, compiled_rows)):
        assert a == b, f"first difference at row {i}: reference {a}, compiled {b}"
    assert len(compiled_rows) == len(rows)
    for key in st_ref:
        np.testing.assert_array_equal(st_c[key], st_ref[key], err_msg=key)


LA4 = ["lookahead"] * 4
ENGINE_CASES = [
    (4, "traditional", LA4),
    (4, "advanced", LA4),
    (4, {"claim": "any"}, LA4),
    (4, {"turn": "claim-or-draw"}, LA4),
    (4, resolve_rules("advanced", turn="claim-or-draw", claim="any"), LA4),
    (2, "advanced", ["lookahead"] * 2),
    (2, {"turn": "claim-or-draw"}, ["lookahead"] * 2),
    (4, "advanced", ["lookahead", "greedy", "score", "random"]),
    (4, {"turn": "claim-or-draw"}, ["random", "lookahead", "greedy", "lookahead"]),
    (4, resolve_rules("advanced", sets=4), LA4),   # 8 copies of an id: no memos
]


@pytest.mark.parametrize("case", range(len(ENGINE_CASES)))
def test_compiled_matches_reference(case):
    players, rules, policies = ENGINE_CASES[case]
    _compare(players, rules, policies, 7 + case, 1)


@pytest.mark.slow
@pytest.mark.parametrize("players,rules,policies", ENGINE_CASES + [
    (3, {"claim": "any"}, ["lookahead"] * 3),
    (4, {"keep_drawn": False}, LA4),
    (5, {"forms": "basic,general_eyes,run4"}, ["lookahead"] * 5),
])
def test_compiled_matches_reference_many_seeds(players, rules, policies):
    # 4 hands a case at KAPTAI_SLOW_SCALE=1 (seeds 100 and 101, two hands each; 52 hands,
    # about two minutes), proportionally fewer below, at least one hand (seed 100)
    hands = max(1, round(4 * SCALE))
    for seed in range((hands + 1) // 2):
        _compare(players, rules, policies, 100 + seed, min(2, hands - 2 * seed))


# --------------------------------------------------------------------------------------
# The packed-count memos kept across runs of a process (_engine._Memos)
# --------------------------------------------------------------------------------------


def _logged(cfg, codes, seed, hands=40):
    from kaptai.kts import _engine

    tallies, log = _engine.run_hands(cfg, codes, np.random.PCG64(seed), hands, record=hands)
    return {k: np.asarray(v).tolist() for k, v in tallies.items()}, log.tolist()


@pytest.mark.parametrize("preset,policy", [("advanced", "lookahead"), ("advanced", "lookahead_score"),
                                           ("traditional", "lookahead"), ("advanced", "greedy")])
def test_warm_memos_give_the_cold_numbers(preset, policy):
    """The memos depend on a hand's counts and the ruleset alone: a run after other runs
    (same ruleset, other rulesets, other seeds) logs exactly what it logs from cold memos."""
    from kaptai.kts import _engine

    cfg = make_config(4, preset)
    codes = policy_codes([policy] * 4)
    _engine._memos_clear()
    cold = _logged(cfg, codes, 11)
    _logged(cfg, codes, 12, 200)                                    # warms this ruleset's memos
    _logged(make_config(4, {"forms": ["basic", "run4"], "gee_joon_run_value": 3}), codes, 13, 60)
    _logged(make_config(6, preset), codes[:1] * 6, 14, 60)         # same ruleset, other table
    assert _logged(cfg, codes, 11) == cold


def test_memo_pool_is_bounded_and_lent_to_one_run_at_a_time():
    import threading

    from kaptai.kts import _engine

    _engine._memos_clear()
    for g in (3, 6):
        for forms in (["basic"], ["basic", "run4"], ["basic", "run6"], ["basic", "general_eyes"]):
            _logged(make_config(4, {"forms": forms, "gee_joon_run_value": g}), [3] * 4, 1, 5)
    assert len(_engine._MEMO_POOL) == _engine.MEMO_POOL_RULESETS
    # two threads on one ruleset at once (run_hands releases the GIL): each borrows its own
    # set, and both log what a run alone logs
    cfg = make_config(4, "advanced")
    _engine._memos_clear()
    alone = [_logged(cfg, [3] * 4, s, 60) for s in (21, 22)]
    _engine._memos_clear()
    out = [None, None]

    def work(i):
        out[i] = _logged(cfg, [3] * 4, 21 + i, 60)

    threads = [threading.Thread(target=work, args=(i,)) for i in range(2)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert out == alone
    assert 1 <= len(_engine._MEMO_POOL[_engine._memo_key(cfg)]) <= _engine.MEMO_POOL_IDLE
