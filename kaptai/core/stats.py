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

import math
from statistics import NormalDist

import numpy as np

__all__ = ["z_value", "wilson_interval", "clopper_pearson_interval", "mean_interval", "sd_interval", "spread_interval",
           "seat_spread_of", "rank_with_ties", "ahead_probability", "hands_until_ahead"]


def z_value(confidence: float = 0.95) -> float:
    """Two-sided standard normal quantile for a confidence level.

    Examples
    --------
    >>> from kaptai.core.stats import z_value
    >>> round(z_value(0.95), 4), round(z_value(0.99), 4)
    (1.96, 2.5758)
    """
    if isinstance(confidence, bool) or not isinstance(confidence, (int, float)) or not 0.0 < confidence < 1.0:
        from kaptai.errors import RulesError, quote_token  # a ValueError too

        raise RulesError(f"confidence={quote_token(confidence)}: expected a number strictly between 0 and 1")
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
    ``se(s) = se(s^2) / (2 s)``; the lower bound is clipped at 0.  Below
    :data:`SMALL_SD_N` values the delta method is unreliable (with 2 values ``m4 = sigma^4``
    and its interval has no width), so there the interval also covers the normal-theory one,
    ``s * sqrt((n - 1) / chi2)`` at the chi-square quantiles of ``n - 1`` degrees of freedom.

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
    >>> sd, lo, hi = sd_interval(1.0, 1.0, 1.0, 1.0, 2)     # the values 0 and 1
    >>> round(float(sd), 4), round(float(lo), 4), round(float(hi), 2)
    (0.7071, 0.3155, 22.56)
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
    lo, hi = np.maximum(sd - half, 0.0), sd + half
    small = (n >= 2) & (n < SMALL_SD_N)
    if np.any(small):
        from scipy.stats import chi2

        alpha = 1.0 - confidence
        df = np.where(small, n - 1.0, 1.0)
        with np.errstate(invalid="ignore", divide="ignore"):
            lo = np.where(small, np.minimum(lo, sd * np.sqrt(df / chi2.ppf(1 - alpha / 2, df))), lo)
            hi = np.where(small, np.maximum(hi, sd * np.sqrt(df / chi2.ppf(alpha / 2, df))), hi)
    bad = n < 2
    return np.where(bad, np.nan, sd), np.where(bad, np.nan, lo), np.where(bad, np.nan, hi)


#: Below this many values :func:`sd_interval` also covers the normal-theory (chi-square) interval.
SMALL_SD_N = 30


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


def clopper_pearson_interval(successes, n, confidence: float = 0.95):
    """Exact (Clopper--Pearson) interval of a binomial proportion.

    Never narrower than it should be: it covers the true proportion with probability at
    least ``confidence`` for every ``n``, which matters for rare events (a sampled zero
    gets the upper bound ``1 - (alpha/2)**(1/n)``, about ``3.7 / n`` at 95%).

    Examples
    --------
    >>> from kaptai.core.stats import clopper_pearson_interval
    >>> lo, hi = clopper_pearson_interval([0, 5], [20_000, 10])
    >>> float(lo[0]), round(float(hi[0]) * 20_000, 3), round(float(lo[1]), 4), round(float(hi[1]), 4)
    (0.0, 3.689, 0.1871, 0.8129)
    """
    from scipy.special import betaincinv

    k = np.asarray(successes, dtype=np.float64)
    n = np.asarray(n, dtype=np.float64)
    if isinstance(confidence, bool) or not isinstance(confidence, (int, float)) or not 0.0 < confidence < 1.0:
        from kaptai.errors import RulesError, quote_token  # a ValueError too

        raise RulesError(f"confidence={quote_token(confidence)}: expected a number strictly between 0 and 1")
    a = (1.0 - confidence) / 2.0
    with np.errstate(invalid="ignore", divide="ignore"):
        lo = np.where(k <= 0, 0.0, betaincinv(np.maximum(k, 1e-300), n - k + 1.0, a))
        hi = np.where(k >= n, 1.0, betaincinv(k + 1.0, np.maximum(n - k, 1e-300), 1.0 - a))
    bad = n <= 0
    return np.where(bad, np.nan, lo), np.where(bad, np.nan, hi)


def seat_spread_of(value, ci_low, ci_high, confidence: float = 0.95) -> tuple[float, float, float]:
    """The atlas's ``seat_spread`` from the seats' EVs and their normal intervals at ``confidence``.

    ``max - min`` of the ``P`` EVs; its interval is :func:`kaptai.core.stats.spread_interval` of
    the EVs' simultaneous intervals, each at ``1 - (1 - confidence) / P`` (their standard errors
    read back from the given intervals): the definition of :func:`kaptai.core.atlas.table_measures`
    (docs/atlas.md), so the same hands give the same figure.

    >>> from kaptai.core.stats import seat_spread_of
    >>> v, lo, hi = seat_spread_of([1.0, 0.0], [0.804, -0.196], [1.196, 0.196])
    >>> round(v, 6), round(lo, 4), round(hi, 4)
    (1.0, 0.5517, 1.4483)
    """
    v = np.asarray(value, dtype=np.float64)
    se = (np.asarray(ci_high, dtype=np.float64) - np.asarray(ci_low, dtype=np.float64)) / (2 * z_value(confidence))
    z = z_value(1.0 - (1.0 - confidence) / v.size)
    lo, hi = spread_interval(v - z * se, v + z * se)
    return float(v.max() - v.min()), lo, hi


def rank_with_ties(value, lo, hi, lower_is_better: bool = True) -> np.ndarray:
    """Ranks that tie whatever the intervals cannot tell apart.

    Item ``i`` is *clearly better* than ``j`` when their intervals do not overlap and ``i``
    is on the better side (``hi_i < lo_j`` when lower is better).  The rank of ``i`` is 1
    plus the number of items clearly better than it, so items whose intervals overlap the
    best one all share rank 1, and a rank says "this many are clearly ahead".  An item with
    an unknown (NaN) value or bound gets no rank (NaN) and counts for no one.

    Examples
    --------
    >>> from kaptai.core.stats import rank_with_ties
    >>> rank_with_ties([0.10, 0.12, 0.50, 0.90], [0.05, 0.08, 0.40, 0.80], [0.15, 0.16, 0.60, 1.0]).tolist()
    [1.0, 1.0, 3.0, 4.0]
    >>> rank_with_ties([1.0, 2.0], [0.0, 1.5], [1.6, 2.5], lower_is_better=False).tolist()
    [1.0, 1.0]
    """
    v = np.asarray(value, dtype=np.float64)
    a = np.asarray(lo, dtype=np.float64)
    b = np.asarray(hi, dtype=np.float64)
    if not lower_is_better:
        v, a, b = -v, -b, -a
    ok = ~(np.isnan(v) | np.isnan(a) | np.isnan(b))
    out = np.full(v.shape, np.nan)
    for i in np.flatnonzero(ok):
        out[i] = 1.0 + float(np.sum(ok & (b < a[i])))
    return out


def _lattice(values: np.ndarray, probs: np.ndarray, max_points: int) -> tuple[np.ndarray, float, int]:
    """``(pmf on 0..K, unit, offset)`` with value = (offset + index) * unit.

    Values that are whole multiples of a common unit (within 1e-9 relative) keep it
    exactly; otherwise (or when the lattice would be wider than ``max_points``) each value
    is split between its two neighbouring grid points so that the mean is kept exactly."""
    from fractions import Fraction
    from math import lcm

    scale = float(np.max(np.abs(values))) or 1.0
    den = 1
    exact = True
    for x in values.tolist():
        f = Fraction(x / scale).limit_denominator(100_000)
        if abs(float(f) - x / scale) > 1e-12:
            exact = False
            break
        den = lcm(den, f.denominator)
        if den > 10**7:
            exact = False
            break
    if exact:
        unit = scale / den
        k = np.rint(values / unit).astype(np.int64)
        if int(k.max() - k.min()) + 1 <= max_points:
            g = int(np.gcd.reduce(np.abs(k))) or 1      # values = (offset + index) * unit, offset whole
            unit *= g
            k = np.rint(values / unit).astype(np.int64)
            pmf = np.zeros(int(k.max() - k.min()) + 1)
            np.add.at(pmf, k - k.min(), probs)
            return pmf, unit, int(k.min())
    lo, hi = float(values.min()), float(values.max())
    unit = (hi - lo) / (max_points - 1) if hi > lo else 1.0
    off = int(np.floor(lo / unit))
    pos = values / unit - off
    i = np.floor(pos).astype(np.int64)
    frac = pos - i
    pmf = np.zeros(int(np.ceil(hi / unit)) - off + 2)
    np.add.at(pmf, i, probs * (1.0 - frac))
    np.add.at(pmf, i + 1, probs * frac)
    return pmf, unit, off


def _tail_after(pmf: np.ndarray, offset: int, n: int) -> float:
    """P(sum of ``n`` draws > 0) for a pmf on ``offset + 0..K`` (FFT of the n-th power)."""
    from scipy.fft import irfft, next_fast_len, rfft

    size = next_fast_len(n * (pmf.size - 1) + 1, real=True)
    dist = irfft(rfft(pmf, size) ** n, size)[: n * (pmf.size - 1) + 1]
    first = max(0, -n * offset + 1)          # index of the first strictly positive sum
    return float(np.clip(dist[first:].sum(), 0.0, 1.0)) if first < dist.size else 0.0


def ahead_probability(values, probs, hands: int, *, max_points: int = 4096) -> float:
    """P(the sum of ``hands`` independent per-hand results is > 0): "ahead after N hands".

    ``values``/``probs``: the distribution of one hand's result (e.g. the difference
    between two players' results at one table), as a finite list.  Exact on the lattice
    of the values (convolution by FFT); values that share no lattice of at most
    ``max_points`` points are spread over one (mean kept).

    Examples
    --------
    >>> from kaptai.core.stats import ahead_probability
    >>> round(ahead_probability([1, -1], [0.6, 0.4], 3), 6)          # 0.6**3 + 3 * 0.6**2 * 0.4
    0.648
    >>> round(ahead_probability([1, -1], [0.6, 0.4], 2), 6)          # a tie is not ahead
    0.36
    """
    v, p = _check_distribution(values, probs)
    n = int(hands)
    if n < 1:
        raise ValueError(f"hands={hands!r}: expected a whole number >= 1")
    pmf, _unit, off = _lattice(v, p, max_points)
    return _tail_after(pmf, off, n)


def _check_distribution(values, probs) -> tuple[np.ndarray, np.ndarray]:
    v = np.asarray(values, dtype=np.float64).reshape(-1)
    p = np.asarray(probs, dtype=np.float64).reshape(-1)
    if v.size == 0 or v.shape != p.shape or not np.isfinite(v).all() or (p < 0).any() or not p.sum() > 0:
        raise ValueError("values and probs must be finite, of one length, with non-negative probs summing to > 0")
    keep = p > 0
    return v[keep], p[keep] / p.sum()


def _fftconv(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """Full linear convolution of two non-negative arrays by FFT (clipped at 0)."""
    from scipy.fft import irfft, next_fast_len, rfft

    m = a.size + b.size - 1
    if min(a.size, b.size) <= 32:
        return np.convolve(a, b)
    size = next_fast_len(m, real=True)
    return np.clip(irfft(rfft(a, size) * rfft(b, size), size)[:m], 0.0, None)


class _Sums:
    """Distributions of sums of i.i.d. draws on an integer lattice, by repeated squaring.

    A distribution is ``(offset, step, pmf)``: mass ``pmf[i]`` at ``offset + i * step`` (base
    lattice units).  Squarings are cached, so P(S_N > 0) for many N costs a few
    convolutions each.  Arrays are kept to at most ``width`` points: tails below 1e-16 are
    dropped, then the step is doubled with each point split between its two neighbours so
    that the mean is kept (the variance grows by at most a quarter of the squared new step,
    negligible against the spread of a sum that needed it)."""

    def __init__(self, pmf: np.ndarray, offset: int, width: int = 1 << 16):
        self.width = width
        self.powers = [self._fit((offset, 1, pmf))]

    @staticmethod
    def _trim(d):
        off, step, pmf = d
        nz = np.flatnonzero(pmf > 1e-16 * pmf.max())
        lo, hi = int(nz[0]), int(nz[-1])
        return off + lo * step, step, pmf[lo:hi + 1]

    @staticmethod
    def _rebin(d, step: int):
        off, old, pmf = d
        if step == old:
            return d
        pos = off + old * np.arange(pmf.size, dtype=np.int64)
        q = np.floor_divide(pos, step)
        frac = (pos - q * step) / step
        base = int(q[0])
        out = np.zeros(int(q[-1]) - base + 2)
        np.add.at(out, q - base, pmf * (1.0 - frac))
        np.add.at(out, q - base + 1, pmf * frac)
        return base * step, step, out

    def _fit(self, d):
        d = self._trim(d)
        while d[2].size > self.width:
            d = self._trim(self._rebin(d, 2 * d[1]))
        return d

    def _conv(self, a, b):
        step = max(a[1], b[1])
        a, b = self._rebin(a, step), self._rebin(b, step)
        pmf = _fftconv(a[2], b[2])
        return self._fit((a[0] + b[0], step, pmf / pmf.sum()))

    def sum_of(self, n: int):
        out = None
        k = 0
        while n:
            while len(self.powers) <= k:
                p = self.powers[-1]
                self.powers.append(self._conv(p, p))
            if n & 1:
                out = self.powers[k] if out is None else self._conv(out, self.powers[k])
            n >>= 1
            k += 1
        return out

    def ahead(self, n: int) -> float:
        off, step, pmf = self.sum_of(n)
        pos = off + step * np.arange(pmf.size, dtype=np.int64)
        return float(np.clip(pmf[pos > 0].sum(), 0.0, 1.0))


def hands_until_ahead(values, probs, target: float = 0.95, *, max_hands: int = 10_000_000,
                      max_points: int = 4096, scan: int = 400) -> tuple[float, float]:
    """The smallest N with P(ahead after N hands) >= ``target``, and that probability.

    "Ahead" is a sum > 0 of N independent draws of one hand's result (a tie is not ahead),
    computed by exact convolution of the per-hand distribution, not the normal
    approximation.  N = 1..``scan`` are tried one by one (the probability need not rise
    steadily there, on a lattice; fewer when the lattice is wide); beyond, a bisection on N
    (for a positive mean the probability rises to 1 once the lattice no longer matters),
    to within 0.01% of N.  A
    distribution with mean <= 0 never gets there: ``(inf, nan)``; so does one that would need
    more than ``max_hands`` hands.  Above ``scan`` hands the sums are built by repeated
    squaring on a lattice of at most 2**16 points (:class:`_Sums`: mean kept, the variance
    grown by a negligible rounding).

    Examples
    --------
    >>> from kaptai.core.stats import hands_until_ahead
    >>> n, p = hands_until_ahead([1, -1], [0.75, 0.25], 0.9)
    >>> n, round(p, 4)                        # N=5: 0.8965 falls short, N=7: 0.9294
    (7, 0.9294)
    >>> hands_until_ahead([1, -1], [0.5, 0.5])
    (inf, nan)
    """
    v, p = _check_distribution(values, probs)
    if not 0.0 < target < 1.0:
        raise ValueError(f"target={target!r}: expected a probability strictly between 0 and 1")
    if float(v @ p) <= 0:
        return math.inf, math.nan
    pmf, _unit, off = _lattice(v, p, max_points)
    # 1..scan exactly, one convolution step at a time (as long as the sums' lattice stays small)
    scan = max(1, min(scan, (1 << 16) // pmf.size))
    dist = pmf.copy()
    lo_off = off
    for n in range(1, scan + 1):
        if n > 1:
            dist = _fftconv(dist, pmf)
            lo_off += off
        first = max(0, -lo_off + 1)
        prob = float(min(1.0, dist[first:].sum())) if first < dist.size else 0.0
        if prob >= target:
            return n, prob
        if n >= max_hands:
            return math.inf, math.nan

    sums = _Sums(pmf, off)

    def at(n: int) -> float:
        return sums.ahead(n)

    # bracket around the normal approximation (only as a starting point), then bisect to
    # 0.01% of N (beyond a few hundred hands the exact integer is finer than any interval)
    mean = float(v @ p)
    sd = math.sqrt(max(float(p @ (v - mean) ** 2), 0.0))
    guess = (NormalDist().inv_cdf(target) * sd / mean) ** 2
    lo = max(scan, int(0.7 * guess))
    if lo > scan and at(lo) >= target:
        lo = scan
    hi = max(lo + 1, int(1.4 * guess) + 1)
    while at(hi) < target:
        lo, hi = hi, 2 * hi
        if lo >= max_hands:
            return math.inf, math.nan
    while hi - lo > max(1, hi // 10_000):
        mid = (lo + hi) // 2
        if at(mid) >= target:
            hi = mid
        else:
            lo = mid
    return hi, at(hi)
