"""Exact deal odds: checked against an independent computation from the
reference evaluator's list of every feasible winning hand, and by simulation."""

from __future__ import annotations

import math
from fractions import Fraction

import numpy as np
import pytest

from kaptai.errors import RulesError
from kaptai.kts import deal_odds, reference, score_hands
from kaptai.kts.rules import RuleSet
from kaptai.kts.tiles import COPIES_PER_SET
from ..conftest import SLOW_SCALE  # KAPTAI_SLOW_SCALE, default in tests/conftest.py


def _exact(df, metric, hand=None, level=None):
    q = df[df.metric == metric]
    if hand is not None:
        q = q[q.hand == hand]
    if level is not None:
        q = q[q.level == str(level)]
    assert len(q) == 1, (metric, hand, level, len(q))
    return Fraction(q.exact.iloc[0])


def _weights(vectors: np.ndarray, copies: np.ndarray) -> np.ndarray:
    """Exact hypergeometric weight prod(comb(K_i, c_i)) of each count vector
    (int64 is exact here: every weight is below comb(64, 10) < 2**63)."""
    table = np.array([[math.comb(int(k), c) for c in range(17)] for k in copies], dtype=np.int64)
    return np.prod(table[np.arange(21), vectors], axis=1)


def _independent_natural_and_ready(rules, sets: int, n: int):
    """P(natural), P(ready), mean live waits from reference.winning_hands alone.

    A count vector is packed into one int64 (mixed radix: digit i runs over 0..copies[i]),
    so the ready hands -- every winning hand minus one tile -- are a flat array of keys,
    8 bytes per (winning hand, tile) rather than a 21-column row: at two sets under the
    advanced rules (about a million winning hands) this stays below a few hundred MB
    instead of several GB.  Their weights are computed from the unpacked rows in chunks."""
    copies = COPIES_PER_SET * sets
    wins = np.asarray(reference.winning_hands(rules, copies.tolist(), n), dtype=np.int64)
    assert ((wins >= 0) & (wins <= copies)).all()
    total_t = int(copies.sum())
    natural = Fraction(int(_weights(wins, copies).sum()), math.comb(total_t, 2 * n + 2))
    base = (copies + 1).astype(np.int64)
    assert math.prod(base.tolist()) < 2**63  # every key fits in an int64
    radix = np.concatenate(([1], np.cumprod(base[:-1]))).astype(np.int64)
    keys = wins @ radix
    assert len(np.unique(keys)) == len(wins)  # distinct hands, distinct keys
    # every ready hand is a winning hand minus one tile (its wait is then live), and
    # a ready hand appears once for each of its live waits
    subs = np.concatenate([keys[wins[:, t] > 0] - radix[t] for t in range(21)])
    del wins, keys
    ready_keys, n_waits = np.unique(subs, return_counts=True)
    del subs
    weight_sum = weighted_waits = 0
    for s in range(0, len(ready_keys), 1 << 20):
        rows = (ready_keys[s : s + (1 << 20), None] // radix) % base
        assert (rows.sum(axis=1) == 2 * n + 1).all()
        w = _weights(rows, copies)
        weight_sum += int(w.sum())
        weighted_waits += int((w * n_waits[s : s + (1 << 20)]).sum())
    ready_p = Fraction(weight_sum, math.comb(total_t, 2 * n + 1))
    mean_waits = Fraction(weighted_waits, weight_sum)
    return natural, ready_p, mean_waits


@pytest.mark.parametrize(
    "players,preset",
    [
        (2, "traditional"),
        (2, "advanced"),
        (4, "traditional"),
        # ~1M winning hands: full size only (KAPTAI_SLOW_SCALE >= 1); CI's reduced run
        # keeps the Kap Shap and traditional cases
        pytest.param(4, "advanced", marks=[pytest.mark.slow, pytest.mark.skipif(
            SLOW_SCALE < 1, reason="full-size check: set KAPTAI_SLOW_SCALE=1")]),
    ],
)
def test_natural_and_ready_match_independent_enumeration(players, preset):
    sets = 1 if players == 2 else 2
    n = 3 if players == 2 else 4
    df = deal_odds(players, preset, distance=False)
    natural, ready, mean_waits = _independent_natural_and_ready(preset, sets, n)
    assert _exact(df, "natural", "first") == natural
    assert _exact(df, "ready", "other") == ready
    assert _exact(df, "mean_waits", "other") == mean_waits


@pytest.mark.parametrize("preset", ["traditional", "advanced"])
def test_kap_shap_score_and_special_distributions_match_reference(preset):
    df = deal_odds(2, preset, distance=False)
    copies = COPIES_PER_SET * 1
    wins = np.asarray(reference.winning_hands(preset, copies.tolist(), 3), dtype=np.int64)
    w = [int(x) for x in _weights(wins, copies)]
    total = math.comb(int(copies.sum()), 8)
    by_score: dict[int, int] = {}
    by_special: dict[str, int] = {}
    for wi, row in zip(w, wins):
        s = reference.score(row.tolist(), preset)
        by_score[s] = by_score.get(s, 0) + wi
        for name in reference.specials(row.tolist(), preset):
            by_special[name] = by_special.get(name, 0) + wi
    win = sum(w)
    for s, ws in by_score.items():
        assert _exact(df, "score_distribution", "first", s) == Fraction(ws, win)
    from kaptai.kts.rules import FORMS, RuleSet

    forms = RuleSet.preset(preset).forms
    for name in ("all_even", "all_odd", "all_pairs", "general_eyes", "run4", "run6"):
        if name in FORMS and name not in forms:  # a form these rules do not have: no row, it cannot occur
            assert by_special.get(name, 0) == 0
            assert df[(df.metric == "special") & (df.level == name)].empty
            continue
        assert _exact(df, "special", "first", name) == Fraction(by_special.get(name, 0), total)


@pytest.mark.parametrize("players", [2, 3, 4, 5, 9, 12, 22])
@pytest.mark.parametrize("preset", ["traditional", "advanced"])
def test_distributions_are_probability_distributions(players, preset):
    df = deal_odds(players, preset, distance=players in (2, 4))
    for metric, hand in [
        ("waits_distribution", "other"),
        ("live_outs_distribution", "other"),
        ("score_distribution", "first"),
        ("form_distribution", "first"),
        ("first_hand_seat", None),
    ]:
        q = df[df.metric == metric]
        if hand:
            q = q[q.hand == hand]
        assert sum(Fraction(x) for x in q.exact) == 1, metric
    if players in (2, 4):
        for hand in ("first", "other"):
            q = df[(df.metric == "distance_from_ready") & (df.hand == hand)]
            assert sum(Fraction(x) for x in q.exact) == 1
        # distance -1 is exactly "complete", distance 0 of a dealt 9-tile hand exactly "ready"
        assert _exact(df, "distance_from_ready", "first", -1) == _exact(df, "natural", "first")
        assert _exact(df, "distance_from_ready", "other", 0) == _exact(df, "ready", "other")
    assert (df.method == "exact").all()
    assert df.attrs["rules"]["name"] == preset


def test_forms_raise_natural_rate_several_times():
    trad = _exact(deal_odds(4, "traditional", distance=False), "natural", "first")
    adv = _exact(deal_odds(4, "advanced", distance=False), "natural", "first")
    assert adv > 3 * trad


@pytest.mark.parametrize("preset", ["traditional", "advanced"])
def test_monte_carlo_natural_rate_agrees_with_exact(preset):
    rng = np.random.default_rng(20261129)
    wall = np.repeat(np.arange(21), COPIES_PER_SET * 2)
    n_hands = 200_000
    keys = rng.random((n_hands, wall.size))
    hands = wall[np.argpartition(keys, 10, axis=1)[:, :10]]
    p_hat = float((score_hands(hands, preset) >= 0).mean())
    p = float(_exact(deal_odds(4, preset, distance=False), "natural", "first"))
    se = math.sqrt(p * (1 - p) / n_hands)
    assert abs(p_hat - p) < 4 * se


def test_variant_options_change_the_answer():
    base = _exact(deal_odds(4, "advanced", distance=False), "natural", "first")
    gj3 = _exact(deal_odds(4, RuleSet.preset("advanced", gee_joon_run_value=3), distance=False), "natural", "first")
    assert gj3 != base
    more_sets = _exact(deal_odds(4, RuleSet.preset("traditional", sets=3), distance=False), "natural", "first")
    assert more_sets != _exact(deal_odds(4, "traditional", distance=False), "natural", "first")


def test_dice_rows_in_table():
    df = deal_odds(9, "traditional", distance=False)
    seats = df[df.metric == "first_hand_seat"]
    assert list(seats.level) == [str(s) for s in range(9)]
    assert df.attrs["dice"] == 4


@pytest.mark.parametrize("players", [1, 0, 23, 4.5, "4", True])
def test_bad_player_counts(players):
    with pytest.raises(RulesError, match="player"):
        deal_odds(players)


def test_bad_rules():
    with pytest.raises(RulesError, match="unknown preset 'fancy'"):
        deal_odds(4, "fancy")
    with pytest.raises(RulesError, match="199 tiles .* 1 set holds only 32"):
        deal_odds(22, RuleSet.preset("traditional", sets=1))
