"""The ``lookahead_score`` policy: the look-ahead with the expected score first.

* its values are those of the exact solver :func:`kaptai.kts.lookahead.lookahead` with
  ``objective="score"`` (two own looks);
* the compiled engine and the reference engine (``LookaheadScorePolicy``) write the same
  hand logs;
* it is not ``lookahead``: under the advanced preset the two make different moves.
"""

from __future__ import annotations

from fractions import Fraction

import numpy as np
import pytest

from kaptai.kts import _engine
from kaptai.kts.config import make_config
from kaptai.kts.engine_reference import run_hands as reference_run_hands
from kaptai.kts.lookahead import lookahead
from kaptai.kts.policies import (
    BUILTIN_POLICIES,
    POLICY_CODES,
    LookaheadScorePolicy,
    _look_value,
    policy_codes,
)
from kaptai.kts.rules import resolve_rules
from kaptai.kts.tiles import COPIES_PER_SET, format_hand


def test_registered_as_code_5():
    assert "lookahead_score" in BUILTIN_POLICIES
    assert POLICY_CODES["lookahead_score"] == 5
    assert policy_codes(["lookahead_score", "lookahead"]) == [5, 3]
    assert LookaheadScorePolicy.objective == 1


def _state(seed: int):
    rng = np.random.default_rng(seed)
    wall = np.repeat(np.arange(21), COPIES_PER_SET * 2)
    rng.shuffle(wall)
    n_seen = int(rng.integers(8, 24))
    return [int(t) for t in wall[:10]], [int(t) for t in wall[10:10 + n_seen]]


@pytest.mark.parametrize("seed", range(8))
def test_values_equal_the_exact_solver_score_objective(seed):
    hand, seen = _state(seed)
    rules = resolve_rules("advanced")
    df = lookahead(format_hand(hand), "advanced", seen=format_hand(seen), draws=2, objective="score")
    if df.action.iloc[0] == "win":
        return
    copies = [int(c) * 2 for c in COPIES_PER_SET]
    g = np.bincount(hand, minlength=21)
    t = np.bincount(seen, minlength=21)
    pool = tuple(int(c - a - b) for c, a, b in zip(copies, g, t))
    u = sum(pool)
    want = {r.discard: (Fraction(r.p_win_exact), Fraction(r.score_exact)) for r in df.itertuples()}
    for x in sorted(set(hand)):
        h = [int(v) for v in g]
        h[x] -= 1
        p, s = _look_value(tuple(h), pool, 2, rules, 1)
        key = format_hand([x])
        assert (Fraction(p, u * (u - 1)), Fraction(s, u * (u - 1))) == want[key], key


def _compare(players, rules, policies, seed, hands):
    cfg = make_config(players, rules)
    st_ref, rows = reference_run_hands(cfg, policies, np.random.PCG64(seed), hands, record=hands)
    st_c, log = _engine.run_hands(cfg, policy_codes(policies), np.random.PCG64(seed), hands, 0, hands)
    names = _engine.ACTIONS
    got = [(int(h), int(s), int(tu), int(se), names[a], int(ti), int(v)) for h, s, tu, se, a, ti, v in log]
    for i, (a, b) in enumerate(zip(rows, got)):
        assert a == b, f"first difference at row {i}: reference {a}, compiled {b}"
    assert len(got) == len(rows)
    for key in st_ref:
        np.testing.assert_array_equal(st_c[key], st_ref[key], err_msg=key)


LS4 = ["lookahead_score"] * 4
CASES = [
    (4, "advanced", LS4),
    (4, "traditional", LS4),
    (4, resolve_rules("advanced", turn="claim-or-draw"), LS4),
    (2, "advanced", ["lookahead_score"] * 2),
    (4, "advanced", ["lookahead_score", "lookahead", "score", "greedy"]),
    (4, resolve_rules("advanced", sets=4), LS4),   # 8 copies of an id: the engine's memos off
]


@pytest.mark.parametrize("case", range(len(CASES)))
def test_compiled_matches_reference(case):
    players, rules, policies = CASES[case]
    _compare(players, rules, policies, 31 + case, 1)


def test_differs_from_lookahead_under_advanced():
    cfg = make_config(4, "advanced")
    n = 300
    _, a = _engine.run_hands(cfg, policy_codes(["lookahead"] * 4), np.random.PCG64(3), n, 0, n)
    _, b = _engine.run_hands(cfg, policy_codes(LS4), np.random.PCG64(3), n, 0, n)
    assert a.shape != b.shape or not np.array_equal(a, b)
