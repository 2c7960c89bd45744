"""kaptai.core.advise: the paired sampling budget on synthetic options."""

import numpy as np
import pytest

from kaptai.core.advise import (
    MAX_SAMPLES,
    batch_stream,
    check_budget_ms,
    check_samples,
    competition_ranks,
    paired_budget,
    stop_text,
)
from kaptai.errors import KaptaiError


def _options(*shifts, noise=1.0, own=0.05):
    """evaluate(): options = a common layout effect + a shift + a little noise of their own."""
    def evaluate(bg, n):
        rng = np.random.Generator(bg)
        common = rng.normal(scale=noise, size=n)
        return np.array([common + s + rng.normal(scale=own, size=n) for s in shifts])
    return evaluate


class FakeClock:
    """Each call advances by ``step`` seconds: budgets in tests do not depend on the machine."""

    def __init__(self, step):
        self.t, self.step = 0.0, step

    def __call__(self):
        self.t += self.step
        return self.t


def test_a_clear_best_resolves_early():
    res = paired_budget(_options(0.5, 0.0, -1.0), 3, seed=1, batch=16, budget_ms=10_000, clock=FakeClock(0.001))
    assert res.stop == "resolved" and res.samples == 32 and res.best() == 0
    d, lo, hi = res.diff(0, 1)
    assert lo > 0 and lo < d < hi
    # paired: far sharper than the options' own intervals (which overlap)
    (lo0, lo1), (hi0, hi1) = res.interval(0)[0][:2], res.interval(0)[1][:2]
    assert lo0 < hi1


def test_two_equal_options_stop_at_the_budget():
    clock = FakeClock(0.005)  # every clock() call takes 5 ms
    res = paired_budget(_options(0.0, 0.0), 2, seed=2, batch=8, budget_ms=150, clock=clock)
    assert res.stop == "budget" and 16 <= res.samples < 200 and res.samples % 8 == 0
    assert not res.resolved()
    # identical options (the same values on every layout) are never resolved: they tie
    same = paired_budget(lambda bg, n: np.tile(np.random.Generator(bg).normal(size=n), (2, 1)), 2, seed=0,
                         batch=8, budget_ms=100, clock=FakeClock(0.005))
    assert same.stop == "budget" and same.ranks().tolist() == [1, 1]


def test_max_samples_and_fixed_counts_are_reproducible():
    res = paired_budget(_options(0.0, 0.0), 2, seed=3, batch=10, max_samples=40, budget_ms=1e9)
    assert res.stop == "max" and res.samples == 40
    a = paired_budget(_options(0.3, 0.0, 0.1), 3, seed=5, batch=16, samples=40)
    b = paired_budget(_options(0.3, 0.0, 0.1), 3, seed=5, batch=16, samples=40)
    assert a.stop == b.stop == "fixed" and a.samples == 40 and a.budget_ms is None
    assert np.array_equal(a.sums, b.sums) and np.array_equal(a.cross, b.cross)
    # a budgeted run is reproduced exactly by a fixed run of the samples it used
    budgeted = paired_budget(_options(0.3, 0.0, 0.1), 3, seed=5, batch=16, budget_ms=10_000)
    fixed = paired_budget(_options(0.3, 0.0, 0.1), 3, seed=5, batch=16, samples=budgeted.samples)
    assert np.array_equal(budgeted.sums, fixed.sums) and np.array_equal(budgeted.cross, fixed.cross)
    # and each batch reads its own stream: batch b of seed s
    assert batch_stream(5, 1).random_raw() == np.random.PCG64(np.random.SeedSequence(5, spawn_key=(1,))).random_raw()


def test_groups_each_resolved_and_several_quantities():
    def evaluate(bg, n):
        rng = np.random.Generator(bg)
        c = rng.normal(size=n)
        v = np.array([c + 1, c, c + 0.2, c + 0.2])  # group 1 (options 2, 3) is a tie: never resolved
        return np.stack([v, (v > 0).astype(float)])
    res = paired_budget(evaluate, 4, seed=0, batch=16, budget_ms=50, groups=[np.arange(2), np.arange(2, 4)],
                        clock=FakeClock(0.002))
    assert res.stop == "budget" and res.sums.shape == (2, 4)
    assert np.allclose(res.means(1), res.sums[1] / res.samples)
    d, lo, hi = res.vs_best()
    assert d[res.best()] == 0 and (d <= 0).all()


def test_ranks_bounds_and_text():
    assert competition_ranks([2.0, 5.0, 5.0, 1.0, 5.0]).tolist() == [4, 1, 1, 5, 1]
    assert check_samples(None) is None and check_samples(MAX_SAMPLES) == MAX_SAMPLES
    for bad in (0, MAX_SAMPLES + 1, 10**30, 1.5, True, "3"):
        with pytest.raises(KaptaiError):
            check_samples(bad)
    for bad in (0, -1, float("nan"), float("inf"), 60_001, "x", True):
        with pytest.raises(KaptaiError):
            check_budget_ms(bad)
    assert "reproduces it" in stop_text({"samples": 64, "stop": "resolved", "budget_ms": 150.0, "seed": 1})
    with pytest.raises(ValueError):
        paired_budget(_options(0.0), 0, seed=0)
