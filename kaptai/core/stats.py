"""Confidence intervals for Monte Carlo estimates.

Proportions get the Wilson score interval (well behaved at 0 and 1 and for small
samples); means get the normal interval ``mean +- z * sd / sqrt(n)``.  Both are
vectorised over numpy arrays and return NaN where there is no sample.

Examples
--------
>>> from kaptai.core.stats import wilson_interval, mean_interval
>>> lo, hi = wilson_interval(50, 100)
>>> round(float(lo), 4), round(float(hi), 4)
(0.4038, 0.5962)
>>> m, lo, hi = mean_interval(total=20.0, total_sq=50.0, n=10)
>>> float(m), round(float(lo), 3), round(float(hi), 3)
(2.0, 1.347, 2.653)
"""

from __future__ import annotations

from statistics import NormalDist

import numpy as np

__all__ = ["z_value", "wilson_interval", "mean_interval", "sd_interval", "spread_interval"]


def z_value(confidence: float = 0.95) -> float:
    """Two-sided standard normal quantile for a confidence level.

    Examples
    --------
    >>> from kaptai.core.stats import z_value
    >>> round(z_value(0.95), 4), round(z_value(0.99), 4)
    (1.96, 2.5758)
    """
    if not 0.0 < confidence < 1.0:
        raise ValueError(f"confidence={confidence!r}: expected a number strictly between 0 and 1")
    return NormalDist().inv_cdf(0.5 + confidence / 2.0)


def wilson_interval(successes, n, confidence: float = 0.95):
    """Wilson score interval of a binomial proportion.

    Parameters
    ----------
    successes, n : array_like
        Successes and trials (``0 <= successes <= n``); broadcast together.
    confidence : float
        Two-sided confidence level.

    Returns
    -------
    (numpy.ndarray, numpy.ndarray)
        Lower and upper bounds (NaN where ``n == 0``).

    Examples
    --------
    >>> from kaptai.core.stats import wilson_interval
    >>> lo, hi = wilson_interval([0, 10], [10, 10])
    >>> float(lo[0]), round(float(hi[0]), 4), round(float(lo[1]), 4), float(hi[1])
    (0.0, 0.2775, 0.7225, 1.0)
    """
    k = np.asarray(successes, dtype=np.float64)
    n = np.asarray(n, dtype=np.float64)
    z = z_value(confidence)
    with np.errstate(invalid="ignore", divide="ignore"):
        p = k / n
        denom = 1.0 + z * z / n
        centre = (p + z * z / (2.0 * n)) / denom
        half = z * np.sqrt(p * (1.0 - p) / n + z * z / (4.0 * n * n)) / denom
        lo = np.clip(centre - half, 0.0, 1.0)
        hi = np.clip(centre + half, 0.0, 1.0)
    # exact ends: the interval of 0 successes starts at 0, of n successes ends at 1
    lo = np.where(k == 0, 0.0, lo)
    hi = np.where(k == n, 1.0, hi)
    bad = n <= 0
    return np.where(bad, np.nan, lo), np.where(bad, np.nan, hi)


def mean_interval(total, total_sq, n, confidence: float = 0.95):
    """Mean and normal-approximation interval from a sum and a sum of squares.

    Parameters
    ----------
    total, total_sq, n : array_like
        Sum of the values, sum of their squares, and the count; broadcast together.
    confidence : float
        Two-sided confidence level.

    Returns
    -------
    (numpy.ndarray, numpy.ndarray, numpy.ndarray)
        Mean, lower and upper bound (NaN where ``n == 0``; the bounds equal the mean where
        ``n == 1``).

    Examples
    --------
    >>> from kaptai.core.stats import mean_interval
    >>> m, lo, hi = mean_interval([3.0, 0.0], [9.0, 0.0], [1, 0])
    >>> float(m[0]), float(lo[0]), bool(np.isnan(m[1]))
    (3.0, 3.0, True)
    """
    s = np.asarray(total, dtype=np.float64)
    s2 = np.asarray(total_sq, dtype=np.float64)
    n = np.asarray(n, dtype=np.float64)
    z = z_value(confidence)
    with np.errstate(invalid="ignore", divide="ignore"):
        mean = s / n
        var = np.where(n > 1, (s2 - n * mean * mean) / (n - 1.0), 0.0)
        half = z * np.sqrt(np.maximum(var, 0.0) / n)
    bad = n <= 0
    mean = np.where(bad, np.nan, mean)
    return mean, np.where(bad, np.nan, mean - half), np.where(bad, np.nan, mean + half)


def sd_interval(s1, s2, s3, s4, n, confidence: float = 0.95):
    """Standard deviation and its delta-method interval from the first four power sums.

    ``Var(s^2) ~ (m4 - sigma^4) / n`` with ``m4`` the fourth central moment, and
    ``se(s) = se(s^2) / (2 s)``; the lower bound is clipped at 0.

    Parameters
    ----------
    s1, s2, s3, s4 : array_like
        Sums of the values and of their squares, cubes and fourth powers.
    n : array_like
        Counts.
    confidence : float

    Returns
    -------
    (numpy.ndarray, numpy.ndarray, numpy.ndarray)
        SD (with the ``n - 1`` divisor), lower and upper bound (NaN where ``n < 2``).

    Examples
    --------
    >>> import numpy as np
    >>> from kaptai.core.stats import sd_interval
    >>> x = np.random.default_rng(0).normal(0, 2, 100_000)
    >>> sd, lo, hi = sd_interval(x.sum(), (x**2).sum(), (x**3).sum(), (x**4).sum(), x.size)
    >>> bool(lo < 2 < hi), round(float(sd), 2)
    (True, 2.0)
    """
    s1, s2, s3, s4, n = (np.asarray(a, dtype=np.float64) for a in (s1, s2, s3, s4, n))
    z = z_value(confidence)
    with np.errstate(invalid="ignore", divide="ignore"):
        mu = s1 / n
        e2, e3, e4 = s2 / n, s3 / n, s4 / n
        var_pop = np.maximum(e2 - mu * mu, 0.0)
        m4 = e4 - 4 * mu * e3 + 6 * mu * mu * e2 - 3 * mu**4
        var = var_pop * n / (n - 1.0)
        sd = np.sqrt(var)
        se_var = np.sqrt(np.maximum(m4 - var_pop * var_pop, 0.0) / n)
        half = np.where(sd > 0, z * se_var / (2 * sd), 0.0)
    bad = n < 2
    return (np.where(bad, np.nan, sd), np.where(bad, np.nan, np.maximum(sd - half, 0.0)),
            np.where(bad, np.nan, sd + half))


def spread_interval(lo, hi):
    """Simultaneous (Bonferroni) interval for ``max - min`` of several means.

    Given intervals ``[lo_k, hi_k]`` that *jointly* cover the means (each at level
    ``1 - alpha / K``), the spread lies in ``[max(0, max lo - min hi), max hi - min lo]``.

    Examples
    --------
    >>> from kaptai.core.stats import spread_interval
    >>> [round(v, 6) for v in spread_interval([0.9, -0.1, 0.0], [1.1, 0.1, 0.2])]
    [0.8, 1.2]
    """
    lo, hi = np.asarray(lo, dtype=np.float64), np.asarray(hi, dtype=np.float64)
    return float(max(0.0, lo.max() - hi.min())), float(hi.max() - lo.min())
