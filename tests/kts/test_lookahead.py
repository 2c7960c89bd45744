"""The exact look-ahead advisor (``kaptai.kts.lookahead``, compiled ``kaptai.kts._lookahead``).

Checks, each independent of the code under test:

* **brute-force expectimax** -- ``tests/kts/lookahead_oracle.py``, written separately from
  the model text on the pure-Python reference evaluator: every discard's exact value must
  be equal (Fractions), on random Kap Shap and Kap Tai Shap hands, both presets, k = 1..3,
  both objectives, with and without claims (a fast subset always, >= 1,000 hands behind
  ``slow``, scaled by ``KAPTAI_SLOW_SCALE``);
* **Monte Carlo of the model** played with the optimal policy (each discard chosen by the
  exact values of the hands it leaves), within 4 standard errors;
* worked examples (a pool small enough to enumerate by hand), the issue's hand, and
  properties that follow from the model: claims = twice the looks for P(win), values grow
  with the horizon, the look-ahead never does worse than standing on the waits, one look
  equals the one-tile model, the balance-key filter never rejects a win.
"""

from __future__ import annotations

import importlib.util
import math
import pathlib
import sys
from fractions import Fraction

import numpy as np
import pytest

from kaptai.errors import InvalidHandError, InvalidTileError, KaptaiError, RulesError
from kaptai.kts import _lookahead
from kaptai.kts import reference as ref
from kaptai.kts.advisor import advise, draw_odds
from kaptai.kts.evaluate import c_rules, score_hands, waits_hands
from kaptai.kts.lookahead import LOOKAHEAD_COLUMNS, MAX_CLAIM_TURNS, MAX_DRAWS, lookahead
from kaptai.kts.tiles import COPIES_PER_SET, format_tile, parse_hand

from ..conftest import SLOW_SCALE as SCALE  # KAPTAI_SLOW_SCALE, default in tests/conftest.py


def scaled(n: int, minimum: int = 1) -> int:
    return max(minimum, int(n * SCALE))


_p = pathlib.Path(__file__).with_name("lookahead_oracle.py")
_spec = importlib.util.spec_from_file_location("kts_lookahead_oracle", _p)
oracle = importlib.util.module_from_spec(_spec)
sys.modules[_spec.name] = oracle
_spec.loader.exec_module(oracle)

ISSUE_HAND = "16 16 12 33 13 15 22 66 45 55"


# ---------------------------------------------------------------------------------------
# helpers
# ---------------------------------------------------------------------------------------
def counts(ids) -> np.ndarray:
    return np.bincount(np.asarray(list(ids), dtype=np.int64), minlength=21)


def random_case(rng, players: int, pool_size: int):
    """A random 2n+2 hand and seen tiles leaving ``pool_size`` unseen tiles."""
    sets = 1 if players == 2 else 2
    size = 8 if players == 2 else 10
    wall = np.repeat(np.arange(21), COPIES_PER_SET * sets)
    rng.shuffle(wall)
    return wall[:size].tolist(), wall[size + pool_size:].tolist(), sets


def values(df) -> dict[str, Fraction]:
    return {r.discard: Fraction(r.exact) for r in df.itertuples()}


def compare(seed: int, players: int, rules: str, k: int, pool_size: int, claims=False, objective="win"):
    rng = np.random.default_rng(seed)
    while True:
        hand, seen, sets = random_case(rng, players, pool_size)
        df = lookahead(hand, rules, seen=seen, draws=k, players=players, claims=claims, objective=objective)
        if df.action.iloc[0] != "win":
            break
    want = oracle.oracle_discard_values(hand, rules, seen=seen, draws=k, claims=claims, objective=objective,
                                        players=players, sets=sets)
    got = values(df)
    assert got == want, (hand, seen, rules, k, claims, objective)
    best = max(want.values())
    assert set(df.discard[df.optimal]) == {d for d, v in want.items() if v == best}
    return df


# (seed, players, rules, k, pool size, claims, objective): a few seconds in all
FAST = [
    (1, 2, "traditional", 1, 24, False, "win"),
    (2, 4, "advanced", 1, 54, False, "score"),
    (3, 2, "advanced", 2, 12, False, "win"),
    (4, 4, "traditional", 2, 12, False, "score"),
    (5, 4, "advanced", 2, 10, False, "win"),
    (6, 2, "traditional", 3, 6, False, "win"),
    (7, 2, "advanced", 3, 6, False, "score"),
    (8, 2, "advanced", 1, 12, True, "score"),
    (9, 4, "traditional", 1, 12, True, "win"),
    (10, 4, "traditional", 2, 4, True, "score"),
    (11, 2, "advanced", 2, 4, True, "win"),
]


@pytest.mark.parametrize("seed,players,rules,k,pool,claims,objective", FAST)
def test_equals_oracle_fast(seed, players, rules, k, pool, claims, objective):
    df = compare(seed, players, rules, k, pool, claims, objective)
    assert list(df.columns) == LOOKAHEAD_COLUMNS


def _slow_cases():
    """>= 1,000 hands at scale 1: k = 1 (400), 2 (450), 3 (150); both games and presets;
    objective 'score' for one in three, claims for one in eight (k <= 2)."""
    out = []
    plan = [(1, 400, (12, 40)), (2, 450, (6, 12)), (3, 150, (5, 7))]
    i = 0
    for k, n_hands, (lo, hi) in plan:
        for j in range(scaled(n_hands, 4)):
            i += 1
            players = 2 if j % 2 else 4
            rules = ("traditional", "advanced")[(j // 2) % 2]
            pool = lo + (7 * j) % (hi - lo + 1)
            claims = k <= 2 and j % 8 == 3
            if claims and k == 2:
                pool = min(pool, 6)
            objective = "score" if j % 3 == 1 else "win"
            out.append((10_000 + i, players, rules, k, pool, claims, objective))
    return out


@pytest.mark.slow
def test_equals_oracle_many_hands():
    cases = _slow_cases()
    assert len(cases) >= (1000 if scaled(1000) >= 1000 else 12)
    for case in cases:
        compare(*case)


@pytest.mark.parametrize("seed,rules,claims", [(1, "traditional", False), (2, "advanced", False),
                                                (3, "advanced", True)])
def test_advise_offered_equals_oracle(seed, rules, claims):
    """advise(offered=o): not claiming is V_k(H, U) and claiming then throwing x is
    V_k(H + o - x, U), U the unseen pool less o (Kap Shap, k = 2).  With claims the first
    turn has only its own draw left, then one (claim, draw) turn: three looks, and for
    P(win) a claim look is an ordinary look, so the oracle's claims-free V_3 is the value."""
    rng = np.random.default_rng(300 + seed)
    wall = np.repeat(np.arange(21), COPIES_PER_SET)
    while True:
        rng.shuffle(wall)
        hand, offered, seen = wall[:7].tolist(), int(wall[7]), wall[8 + 7:].tolist()
        a = advise(hand, rules, seen=seen, offered=offered, draws=2, players=2, claims=claims)
        if a.action.iloc[0] != "claim_win":
            break
    pool = COPIES_PER_SET - counts(hand) - counts(seen) - counts([offered])
    looks = 3 if claims else 2  # with claims: draw, then (claim, draw); for P(win) = 3 looks
    for r in a.itertuples():
        kept = counts(hand)
        if r.action == "claim":
            kept[offered] += 1
            kept[parse_hand(r.discard)[0]] -= 1
        ids = [t for t in range(21) for _ in range(int(kept[t]))]
        assert Fraction(r.exact) == oracle.oracle_value(ids, pool.tolist(), looks, rules), r


# ---------------------------------------------------------------------------------------
# Monte Carlo of the model, optimal policy
# ---------------------------------------------------------------------------------------
def play_optimal(hand: list[int], pool: np.ndarray, k: int, rules: str, n: int, rng, objective: str,
                 bonus: list[int], cache: dict) -> int:
    """One play of the model: returns the points (win objective: 1/0)."""
    _, mask, base_sum, gj = c_rules(rules)

    class Ctx:  # what solve_values needs
        pass

    ctx = Ctx()
    ctx.mask, ctx.base_sum, ctx.gj, ctx.n = mask, base_sum, gj, n
    from kaptai.kts.lookahead import solve_values

    h = counts(hand)
    pool = pool.copy()
    avail = h + pool
    for j in range(k):
        tiles = np.repeat(np.arange(21), pool)
        t = int(tiles[rng.integers(len(tiles))])
        pool[t] -= 1
        g = h.copy()
        g[t] += 1
        s = ref.score(g.tolist(), rules)
        if s >= 0:
            return 1 if objective == "win" else s + bonus[j]
        if j == k - 1:
            return 0
        key = (tuple(g), tuple(pool))
        if key not in cache:
            xs = [x for x in range(21) if g[x]]
            kept = [g - np.eye(21, dtype=np.int64)[x] for x in xs]
            ps, ss, _ = solve_values(ctx, kept, pool, avail, bonus[j + 1:], objective)
            vals = [(p, s_) if objective == "win" else (s_, p) for p, s_ in zip(ps, ss)]
            cache[key] = xs[max(range(len(xs)), key=lambda i: vals[i])]
        h = g
        h[cache[key]] -= 1
    return 0


@pytest.mark.parametrize("hand,seen,rules,k,objective,claims", [
    (ISSUE_HAND, "", "traditional", 3, "win", False),
    ("16 16 33 13 15 22 66 56 24 44", "45 36", "advanced", 3, "score", False),
    ("66 11 13 56 45 36 24 12 25 34", "", "advanced", 2, "win", True),
])
def test_monte_carlo_of_the_optimal_policy(hand, seen, rules, k, objective, claims):
    """Play the model many times with the policy that throws by the exact values: the
    mean outcome of the best discard is within 4 standard errors of its exact value."""
    df = lookahead(hand, rules, seen=seen, draws=k, objective=objective, claims=claims)
    top = df.iloc[0]
    x = parse_hand(top.discard)[0]
    g = counts(parse_hand(hand))
    pool = COPIES_PER_SET * 2 - g - counts(parse_hand(seen))
    h = g.copy()
    h[x] -= 1
    rng = np.random.default_rng(20261201)
    trials = 2000
    looks = 2 * k if claims else k
    bonus = [0, 1] * k if claims else [1] * k
    cache: dict = {}
    kept = [t for t in range(21) for _ in range(int(h[t]))]
    out = np.array([play_optimal(kept, pool, looks, rules, 4, rng, objective, bonus, cache)
                    for _ in range(trials)], dtype=float)
    exact = float(Fraction(top.exact))
    se = out.std(ddof=1) / math.sqrt(trials)
    assert se > 0
    assert abs(out.mean() - exact) <= 4 * se, (out.mean(), exact, se)


# ---------------------------------------------------------------------------------------
# worked examples
# ---------------------------------------------------------------------------------------
def test_ready_hand_one_look_is_live_over_unseen():
    """16 16 16 · 12+33 · 13+15 · 22+66 waits on the eights 4-4, 2-6, 3-5 (8 live of the 54
    unseen once 5-6 is thrown): one look wins with 8/54 = 4/27."""
    df = lookahead("16 16 16 12 33 13 15 22 66 56", draws=1)
    assert df.iloc[0].discard == "5-6" and df.iloc[0].exact == "4/27" and df.iloc[0].optimal
    assert df.attrs["unseen"] == 54 and df.attrs["looks"] == 1


def test_tiny_pool_by_hand():
    """Kap Shap, one set.  The hand 16 16 · 33+13 · 14+23 · 46 + the thrown tile; the only
    unseen tiles are 5-5 (a wait: 46 + 55) and two tiles that do not help, 6-6 and 5-6.
    Standing: P(win within 2) = 1 - (2/3)(1/2) = 2/3; within 3 looks the 5-5 must come:
    1.  Throwing 1-6 instead breaks the eye: one look cannot win (0)."""
    hand = "16 16 33 13 14 23 46 11"
    ids = parse_hand(hand)
    pool = counts(parse_hand("55 66 56"))
    seen_counts = COPIES_PER_SET - counts(ids) - pool
    seen = [t for t in range(21) for _ in range(int(seen_counts[t]))]
    # waits 5-5 and 4-6; the other 4-6 is seen
    assert ref.waits(counts(parse_hand("16 16 33 13 14 23 46")).tolist(), "traditional") == list(parse_hand("55 46"))
    for k, want in ((1, "1/3"), (2, "2/3"), (3, "1/1")):
        df = lookahead(hand, seen=seen, draws=k, players=2)
        v = values(df)
        assert v["1-1"] == Fraction(want)
        assert df.set_index("discard").optimal["1-1"]
    assert values(lookahead(hand, seen=seen, draws=1, players=2))["1-6"] == 0


def test_issue_hand_is_no_longer_tied():
    """Issue 17: the one-tile model ranks the discards of this hand equal at 0.  With the
    look-ahead (k = 5 is beyond the exact limit and is refused; k = 2..4 are exact) the
    discards get different positive values and one is optimal."""
    one = advise(ISSUE_HAND, draws=5, model="one_tile")
    assert (one.p_win_within == 0).all() and (one["rank"] == 1).sum() >= 2
    with pytest.raises(RulesError, match=r"draws=5 is beyond the exact look-ahead limit of 4 draws"):
        lookahead(ISSUE_HAND, draws=5)
    assert (lookahead(ISSUE_HAND, draws=1).value == 0).all()  # not ready: one look cannot win
    for k in (2, 3, 4):
        df = lookahead(ISSUE_HAND, draws=k)
        assert df.value.iloc[0] > 0 and df.optimal.sum() == 1
        assert df.value.nunique() >= 5
        assert df.iloc[0].discard == "4-5"
    a = advise(ISSUE_HAND, draws=4)
    assert a.iloc[0].discard == "4-5" and a.iloc[0].p_win_within > 0 and a["rank"].nunique() >= 5
    assert a.attrs["model"].startswith("look-ahead: 4 looks")


# ---------------------------------------------------------------------------------------
# properties
# ---------------------------------------------------------------------------------------
@pytest.mark.parametrize("seed", range(4))
def test_claims_are_twice_the_looks_for_p_win(seed):
    """A claim look is a uniform look at which the player may exchange (or let the tile
    go): for P(win) k turns with claims are 2k looks without."""
    rng = np.random.default_rng(seed)
    hand, seen, _ = random_case(rng, 4, 30)
    rules = ("traditional", "advanced")[seed % 2]
    for k in (1, 2):
        a = values(lookahead(hand, rules, seen=seen, draws=k, claims=True))
        b = values(lookahead(hand, rules, seen=seen, draws=2 * k))
        assert a == b


@pytest.mark.parametrize("seed", range(6))
def test_monotone_and_at_least_the_one_tile_model(seed):
    rng = np.random.default_rng(100 + seed)
    players = 2 if seed % 2 else 4
    hand, seen, _ = random_case(rng, players, 20 if players == 2 else 40)
    rules = ("traditional", "advanced")[(seed // 2) % 2]
    prev = None
    for k in (1, 2, 3):
        la = values(lookahead(hand, rules, seen=seen, draws=k, players=players))
        one = draw_odds(hand, rules, seen=seen, draws=k, players=players)
        if (one.metric == "complete").any():
            return
        for d, v in la.items():
            stand = Fraction(one[(one.metric == "p_win_within") & (one.draws == k) & (one.discard == d)].exact.iloc[0])
            assert v >= stand
            if k == 1:
                assert v == stand  # one look: nothing to change
            if prev is not None:
                assert v >= prev[d]
        prev = la


@pytest.mark.parametrize("seed", range(3))
def test_objectives_are_optimal_for_themselves(seed):
    rng = np.random.default_rng(200 + seed)
    hand, seen, _ = random_case(rng, 4, 40)
    w = lookahead(hand, "advanced", seen=seen, draws=3).set_index("discard")
    s = lookahead(hand, "advanced", seen=seen, draws=3, objective="score").set_index("discard")
    for d in w.index:
        assert Fraction(w.p_win_exact[d]) >= Fraction(s.p_win_exact[d])
        assert Fraction(s.score_exact[d]) >= Fraction(w.score_exact[d])
        assert w.exact[d] == w.p_win_exact[d] and s.exact[d] == s.score_exact[d]


@pytest.mark.parametrize("rules,players", [("traditional", 4), ("advanced", 4), ("advanced", 2)])
def test_balance_key_filter_keeps_every_win(rules, players):
    """The compiled search skips a hand whose masked balance key is not in its win (ready)
    set: every winning hand must be in it, every ready hand in the ready set.  Judged by
    the compiled evaluator on random hands, and on winning hands made by adding a wait."""
    _, mask, base_sum, gj = c_rules(rules)
    n = 3 if players == 2 else 4
    win_keys, ready_keys = (set(x) for x in _lookahead._balance_keys(mask, n, gj))
    sets = 1 if players == 2 else 2
    rng = np.random.default_rng(7)
    wall = np.repeat(np.arange(21), COPIES_PER_SET * sets)
    small = np.array([rng.permutation(wall)[: 2 * n + 1] for _ in range(20_000)], dtype=np.int8)
    ready = waits_hands(small, rules)
    assert ready.any(axis=1).sum() > 100
    n_wins = 0
    for hand, w in zip(small, ready):
        c = counts(hand)
        if w.any():
            assert _lookahead._masked_key(c) in ready_keys
            for t in np.flatnonzero(w):
                c[t] += 1
                assert _lookahead._masked_key(c) in win_keys
                c[t] -= 1
                n_wins += 1
    big = np.array([rng.permutation(wall)[: 2 * n + 2] for _ in range(20_000)], dtype=np.int8)
    for hand in big[score_hands(big, rules) >= 0]:
        assert _lookahead._masked_key(counts(hand)) in win_keys
        n_wins += 1
    assert n_wins > 100


def test_advise_models_and_columns():
    la = advise("16 16 16 12 33 13 15 22 66 56", draws=2)
    one = advise("16 16 16 12 33 13 15 22 66 56", draws=2, model="one_tile")
    assert list(la.columns) == list(one.columns)
    assert la.attrs["model_name"] == "lookahead" and one.attrs["model_name"] == "one_tile"
    assert la.attrs["model"].startswith("look-ahead") and one.attrs["model"].startswith("stand on the waits")
    v = values(lookahead("16 16 16 12 33 13 15 22 66 56", draws=2))
    assert {r.discard: Fraction(r.exact) for r in la.itertuples()} == v
    # offered: not claiming and claiming share the pool; a claim cannot throw the offered
    # tile straight back (the exchange comes from the hand held before), so standing is best
    o = advise("16 16 16 12 33 13 15 22 66", offered="56", draws=2)
    stay = o[o.action == "no_claim"].iloc[0]
    assert o[(o.action == "claim") & (o.discard == "5-6")].empty
    assert stay["rank"] == o["rank"].min() and (o[o.action == "claim"]["rank"] > stay["rank"]).all()
    assert advise("16 16 16 12 33 13 15 22 66", offered="44").action.iloc[0] == "claim_win"
    sc = advise("66 66 14 14 23 23 55 55 46 36", "advanced", draws=2, objective="score", claims=True)
    assert sc.attrs["objective"] == "score" and sc.attrs["looks"] == 4


# ---------------------------------------------------------------------------------------
# bad input
# ---------------------------------------------------------------------------------------
READY = "16 16 16 12 33 13 15 22 66"
BAD = [
    (dict(hand="16 17 16 12 33 13 15 22 66"), InvalidTileError, r"'17' is not a domino"),
    (dict(hand="16 16 16 12 33 13 15 22"), InvalidHandError, r"the hand has 8 tiles"),
    (dict(hand="66 66 66 66 66 16 16 16 12 33"), InvalidHandError, r"5 copies of 6-6"),
    (dict(hand=READY, seen="44 xx"), InvalidTileError, r"unknown tile 'xx'"),
    (dict(hand=READY, draws=0), RulesError, r"draws=0 is not allowed"),
    (dict(hand=READY, draws=MAX_DRAWS + 1), RulesError, r"beyond the exact look-ahead limit of 4 draws"),
    (dict(hand=READY, draws=MAX_CLAIM_TURNS + 1, claims=True), RulesError,
     r"draws=3 is beyond the exact look-ahead limit of 2 turns with claims"),
    (dict(hand=READY, objective="points"), RulesError, r"objective='points' is not allowed"),
    (dict(hand=READY, claims="yes"), RulesError, r"claims='yes' is not allowed"),
    (dict(hand=READY, rules="fast"), RulesError, r"unknown preset 'fast'"),
    (dict(hand=READY, sets=1), RulesError, r"4 players need 37 tiles"),
]


@pytest.mark.parametrize("kwargs,error,match", BAD)
@pytest.mark.parametrize("func", [lookahead, advise])
def test_bad_input(func, kwargs, error, match):
    kwargs = dict(kwargs)
    hand = kwargs.pop("hand")
    with pytest.raises(error, match=match):
        func(hand, **kwargs)


def test_more_looks_than_unseen_tiles():
    hand = parse_hand("16 16 33 14 13 23 46 66")
    left = COPIES_PER_SET - counts(hand)
    seen = [t for t in range(21) for _ in range(int(left[t]))][2:]  # 2 tiles stay unseen
    for func in (lookahead, advise):
        with pytest.raises(RulesError, match=r"draws=3 needs 3 draws but only 2 tiles are unseen"):
            func(hand, seen=seen, players=2, draws=3)
        with pytest.raises(RulesError, match=r"draws=2 with claims needs 4 looks but only 2 tiles are unseen"):
            func(hand, seen=seen, players=2, draws=2, claims=True)
    assert len(lookahead(hand, seen=seen, players=2, draws=2)) > 0


def test_bad_model():
    with pytest.raises(RulesError, match=r"model='deep' is not allowed"):
        advise(READY, model="deep")
    with pytest.raises(RulesError, match=r"one-tile model has no claims"):
        advise(READY, model="one_tile", claims=True)
    with pytest.raises(KaptaiError):
        lookahead("nonsense")


def test_complete_hand():
    df = lookahead(READY + " 44")
    assert df[["action", "exact", "optimal"]].values.tolist() == [["win", "1/1", True]]
    assert lookahead(READY + " 44", objective="score").exact.iloc[0] == "3/1"
    assert score_hands(np.array([parse_hand(READY + " 44")]), "traditional")[0] == 2
