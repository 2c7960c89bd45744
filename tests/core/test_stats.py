"""Intervals of kaptai.core.stats: coverage on repeated samples."""
import numpy as np

from kaptai.core.stats import mean_interval, sd_interval, spread_interval, wilson_interval


def test_sd_interval_covers_the_true_sd_about_95_percent():
    rng = np.random.default_rng(1)
    reps, n, hits = 400, 3000, 0
    for _ in range(reps):
        x = rng.exponential(2.0, n)  # skewed: the delta method must use the fourth moment
        _, lo, hi = sd_interval(x.sum(), (x**2).sum(), (x**3).sum(), (x**4).sum(), n)
        hits += lo <= 2.0 <= hi
    assert 0.91 <= hits / reps <= 0.985


def test_sd_interval_edge_cases():
    sd, lo, hi = sd_interval([5.0, 0.0], [25.0, 0.0], [125.0, 0.0], [625.0, 0.0], [1, 0])
    assert np.isnan(sd).all() and np.isnan(lo).all()
    sd, lo, hi = sd_interval(6.0, 12.0, 24.0, 48.0, 3)  # three 2s: no spread
    assert sd == 0 and lo == 0 and hi == 0


def test_spread_interval_is_simultaneous():
    rng = np.random.default_rng(2)
    true = np.array([0.0, 0.3, -0.2, 0.1])
    K, n, reps, hits = 4, 2000, 300, 0
    for _ in range(reps):
        x = rng.normal(true, 1.0, (n, K))
        joint = 1 - 0.05 / K
        _, lo, hi = mean_interval(x.sum(0), (x**2).sum(0), n, joint)
        a, b = spread_interval(lo, hi)
        hits += a <= true.max() - true.min() <= b
    assert hits / reps >= 0.95


def test_wilson_and_mean_agree_on_a_large_sample():
    lo, hi = wilson_interval(5000, 10000)
    m, mlo, mhi = mean_interval(5000.0, 5000.0, 10000)
    assert abs(lo - mlo) < 1e-3 and abs(hi - mhi) < 1e-3


def test_break_even_cut_interval_covers_the_true_cut():
    from kaptai.core.settlement import break_even_cut, break_even_cut_interval

    # 3 seats, pot of 3 antes: seat s wins with p_s and then nets 2 at cut 0, gross 3
    p = np.array([0.40, 0.33, 0.27])
    x_out = np.array([[2.0, -1, -1], [-1, 2.0, -1], [-1, -1, 2.0]])
    g_out = np.diag([3.0, 3.0, 3.0])
    true = break_even_cut(x_out.T @ p, g_out.T @ p)
    rng = np.random.default_rng(4)
    reps, hits = 300, 0
    for _ in range(reps):
        counts = rng.multinomial(5000, p)
        lo, hi = break_even_cut_interval(x_out, g_out, counts)
        hits += lo <= true <= hi
    assert hits / reps >= 0.93
