"""One definition per measure for every game: the moments behind the fairness atlas.

Every game's atlas feed (``kaptai/<game>/atlas.py``, reached through the registry) plays
hands and turns each hand into one *feature row*; this module sums the rows into
mergeable moments and computes every measure of the atlas from them, the same way for
every game.  Nothing here knows a game.

Feature row of one hand (``P`` seats, seat 0 the game's reference seat: the dealer, the
leader or the declarer)
--------------------------------------------------------------------------------------------
``net_0 .. net_{P-1}``
    each seat's result of the hand in the game's stake unit, under the game's own
    settlement, its own house cut included;
``sq``, ``abs``
    ``mean_s net_s**2`` and ``mean_s |net_s|`` (for the swing);
``house``
    the house's take: ``sum_s gross_s - sum_s net_s`` (``gross`` = the results before any
    cut; 0 where the rules have no cut);
``staked``
    the money staked in the hand (the antes of a pot game; what the losers pay in a
    settlement game), as the feed defines it for its game;
``rake5``
    a common 5% rake on winnings, ``0.05 * sum_s max(gross_s, 0)``;
``drawn``, ``natural``
    1 if the hand is drawn (no winner) / won on the deal (a natural, a dragon, any instant
    win), else 0;
``length``
    the hand's length in turns (as the game counts them);
``exchanged``
    the money that changes hands: ``sum_s max(gross_s, 0)``, what the losers pay the
    winners before any cut (one definition for every game: a pot game's winner does not
    pay itself its own ante).

The moments of a job are ``n`` (hands), ``z1 = sum z`` and ``z2 = sum z z'``: they add
across chunks, so the shared runner merges them, checkpoints them and runs them on Dask.
Every measure is a smooth function ``f`` of the mean feature vector ``m``; its interval is
the delta-method normal interval ``f(m) +- z sqrt(g' C g / n)`` with ``C`` the sample
covariance of the rows and ``g`` the gradient of ``f`` (exact for the means themselves).

Measures (:func:`table_measures`, :func:`pair_measures`)
--------------------------------------------------------
* ``exchanged`` = E[exchanged]; ``house_edge`` = E[house] / E[exchanged];
  ``house_edge_common`` = E[rake5] / E[exchanged] (0.05 by construction in every game: its
  row is marked exact, as is any ratio that is the same in every hand);
  ``house_edge_staked`` = E[house] / E[staked]: the house's take per unit staked (per ante
  staked in a pot game).
* ``seat_ev`` = E[net_s]; ``seat_advantage`` = E[net_s - net_0] for s = 1..P-1 with
  *simultaneous* (Bonferroni, ``1 - alpha/(P-1)`` each) intervals; ``seat_spread`` =
  ``max_s EV_s - min_s EV_s`` with the simultaneous interval of
  :func:`kaptai.core.stats.spread_interval` (each seat at ``1 - alpha/P``).
* ``swing`` = SD of one seat's result per hand, pooled over seats,
  ``sqrt(E[sq] - mean_s E[net_s]**2)``; ``swing_normalised`` = swing / E[abs] (the mean
  absolute result of a seat per hand), so games with different units compare.
* ``seat_spread_swing_share`` = seat_spread / swing and ``seat_spread_exchange_share`` =
  seat_spread / exchanged: unit-free (:func:`share_of`, a conservative interval).
* ``drawn_rate``, ``natural_rate`` (Clopper--Pearson intervals: a sampled zero keeps a
  positive upper bound), ``mean_length``.
* Skill, like for like (:func:`pair_measures`, :data:`PAIRS`): for each pair X - Y
  (``default - random``, ``strong - default``) both sit at one table with the field (the
  default policy) in the other seats, one table per ordered pair of active seats.
  ``value_of_skill`` = E[net_X - net_Y] per hand, averaged over the arrangements, with
  its shares of the swing and of the money exchanged; ``skill_effect_size`` = that over
  the SD of the per-hand difference (the mixture of arrangements: the variance between
  seats is in it); ``hands_until_skill_shows`` = the smallest N with P(X ahead of Y after
  N hands) >= 95%, by exact convolution of that per-hand distribution
  (:func:`kaptai.core.stats.hands_until_ahead`), not the normal approximation; its interval
  keeps ties as ties (:func:`hands_until_interval`).
* Seats that sit out (:attr:`AtlasFeed.sitting_out`) are in no seat measure, swing or pair.

Luck of the seat, from the roles (:func:`role_measures`)
--------------------------------------------------------
A feed declares the roles its game assigns (:class:`AtlasRole`, :attr:`AtlasFeed.roles`): the
first is the reference role (seat 0 of every row); each other role's holder is given per hand
as ``role_<name>``, the holder's seat in the row's numbering, and becomes a *role block* of the
moments: ``h_d = 1[holder at seat d]`` and ``y_{c,d} = net_c h_d`` (``P + P**2`` columns, their
own ``z1``/``z2``).  Offset ``k`` of a role is the seat ``k`` places after its holder; ``e_k``
its EV (for the reference role ``E[net_k]``, else ``sum_d E[y_{(d+k) % P, d}]``); ``K`` the
offsets that play (a seat that sits out is in none); ``A = |K|``; ``swing`` the table's swing.

* ``role_ev`` = ``e_k``; ``role_spread`` = ``max_k e_k - min_k e_k`` (simultaneous interval, as
  ``seat_spread``); ``role_spread_swing_share`` = role_spread / swing.
* ``role_luck_share`` = ``sigma / swing``, ``sigma = sqrt(mean_k (e_k - mean_k e_k)**2)``: the SD
  of a player's expected result over the role's offsets, in SDs of one hand.  Interval: the
  least and greatest SD over the box of the simultaneous (``1 - alpha/A``) intervals of the
  ``e_k`` (:func:`variance_range`), divided by the swing's interval (:func:`share_of`).
* ``role_luck_variance_share`` = ``role_luck_share**2``: the share of one hand's variance.
* ``role_luck_after_rotation`` = ``SD(T) / (sqrt(P) swing)``, ``T`` a player's expected total
  over one rotation of ``P`` hands given where the roles fell, the SD over the role's chance:
    - a role that rotates (``assigned='rotation'``): every player holds every offset once,
      ``T = sum_k e_k`` for all: exactly 0 (``method='exact'``);
    - a role assigned by chance in a game with a rotating role ``B``: in the rotation the
      player sits at each offset ``c`` of ``B`` once, and the chance role's holder is at
      seat ``d ~ q`` (``q_d = E[h_d]``, independent hands), so
      ``SD(T)**2 = sum_c Var_{d~q} g(c, d)``, ``g(c, d)`` = E[result of the seat ``c`` places
      after ``B``'s holder | the other role's holder at row seat ``d``] (``E[y_{a,d}] / q_d``,
      ``a = c`` when ``B`` is the reference, ``a = (c + d) % P`` when it is the block's role);
    - a role assigned by chance in a game without a rotating role: the player's offset is
      uniform and independent from hand to hand (multinomial counts), ``SD(T)**2 = P sigma**2``:
      the same as ``role_luck_share``.
  Interval: the least and greatest ``SD(T)`` over the box of simultaneous intervals of the
  ``g`` (or ``e``) values, ``q`` taken as known.  The ratio is the same for any whole number of
  rotations (both SDs grow as the square root of the hands): a session of the game's usual
  length cancels the luck of a rotating role and none of a chance role's.

Examples
--------
>>> import numpy as np
>>> from kaptai.core.atlas import hand_moments, Moments
>>> net = np.array([[3.0, -1, -1, -1], [-1, 3, -1, -1]])
>>> m = Moments(hand_moments(net, gross=net, staked=np.full(2, 4.0), length=np.array([5, 7]),
...             drawn=np.zeros(2), natural=np.array([1, 0])))
>>> m.n, m.mean("net_0"), m.mean("natural"), m.mean("length")
(2, 1.0, 0.5, 6.0)
"""

from __future__ import annotations

import math
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

from kaptai.core.stats import clopper_pearson_interval, spread_interval, z_value
from kaptai.errors import RulesError

__all__ = [
    "COMMON_RAKE",
    "ROLE_ASSIGNMENTS",
    "AtlasRole",
    "RoleMoments",
    "principal_role",
    "role_measures",
    "variance_range",
    "feature_names",
    "hand_moments",
    "Moments",
    "Estimate",
    "table_measures",
    "rotated_ev",
    "moments_of_rows",
    "share_of",
    "pair_measures",
    "PAIRS",
    "hands_until_interval",
    "feature_matrix",
    "block_sizes",
    "joint_row",
    "split_joint",
    "paired_differences",
    "independent_difference",
    "deal_fingerprint",
    "log_fingerprint",
]

#: The skill pairs of every game, like for like: (label, policy role of X, role of Y);
#: X and Y sit at one table with the field (the default policy) in the other seats.
PAIRS: tuple[tuple[str, str, str], ...] = (("default - random", "default", "random"),
                                         ("strong - default", "strong", "default"))

#: The common rake for comparison: 5% of winnings.
COMMON_RAKE = 0.05
#: How a game assigns a role: passed on to the next seat each hand, or by chance.
ROLE_ASSIGNMENTS: tuple[str, ...] = ("rotation", "dice", "cards", "auction")
#: Prefix of a role holder's per-hand seats in a feed's rows and of its moments.
ROLE_KEY = "role_"
_TAIL = ("sq", "abs", "house", "staked", "rake5", "drawn", "natural", "length", "exchanged")


def feature_names(players: int) -> list[str]:
    """Names of the feature row for ``players`` seats (see the module docstring).

    >>> feature_names(2)
    ['net_0', 'net_1', 'sq', 'abs', 'house', 'staked', 'rake5', 'drawn', 'natural', 'length', 'exchanged']
    """
    return [f"net_{s}" for s in range(players)] + list(_TAIL)


def hand_moments(
    net: np.ndarray,
    *,
    gross: np.ndarray,
    staked: np.ndarray,
    length: np.ndarray,
    drawn: np.ndarray,
    natural: np.ndarray,
    weight: np.ndarray | None = None,
    **roles: np.ndarray,
) -> dict[str, np.ndarray]:
    """Moments (``n``, ``z1``, ``z2``) of hands given as rows, optionally weighted.

    Parameters
    ----------
    net, gross : array (N, P)
        Each seat's result per hand after and before the game's own house cut.
    staked, length, drawn, natural : array (N,)
        As in the module docstring.
    weight : array (N,) of int, optional
        How many hands each row stands for (a feed that tallies outcome cells passes one
        row per cell and its count).
    role_<name> : array (N,) of int, optional
        The seat (in the row's numbering, 0..P-1) of the holder of the role ``name`` in each
        hand, for every role but the reference one (:class:`AtlasRole`): its role block.

    Returns
    -------
    dict
        ``{"n": (1,) int64, "z1": (d,), "z2": (d, d)}`` and ``role_<name>_z1`` /
        ``role_<name>_z2`` of each role block (``h_d``, then ``y_{c,d}`` at ``P + c P + d``)
        -- they add across chunks.

    Examples
    --------
    >>> import numpy as np
    >>> from kaptai.core.atlas import RoleMoments, hand_moments
    >>> net = np.array([[2.0, -2.0], [-2.0, 2.0], [2.0, -2.0]])
    >>> one = np.ones(3)
    >>> m = hand_moments(net, gross=net, staked=2 * one, length=one, drawn=0 * one, natural=0 * one,
    ...                  role_first=np.array([0, 1, 1]))
    >>> sorted(m), RoleMoments(m, "first").holder().tolist()
    (['n', 'role_first_z1', 'role_first_z2', 'z1', 'z2'], [0.3333333333333333, 0.6666666666666666])
    """
    z, blocks = feature_matrix(net, gross=gross, staked=staked, length=length, drawn=drawn, natural=natural,
                               **roles)
    N = z.shape[0]
    if weight is None:
        w = np.ones(N)
        n = N
    else:
        w = np.asarray(weight, dtype=np.float64).reshape(N)
        n = int(np.asarray(weight, dtype=np.int64).sum())
    zw = z * w[:, None]
    out = {"n": np.array([n], dtype=np.int64), "z1": zw.sum(axis=0), "z2": zw.T @ z}
    for key, block in blocks.items():
        bw = block * w[:, None]
        out[f"{key}_z1"] = bw.sum(axis=0)
        out[f"{key}_z2"] = bw.T @ block
    return out


def feature_matrix(
    net: np.ndarray,
    *,
    gross: np.ndarray,
    staked: np.ndarray,
    length: np.ndarray,
    drawn: np.ndarray,
    natural: np.ndarray,
    **roles: np.ndarray,
) -> tuple[np.ndarray, dict[str, np.ndarray]]:
    """The feature rows of hands (``(N, P + 9)``, :func:`feature_names`) and each role block
    (``role_<name>``: ``(N, P + P**2)``), before they are summed (:func:`hand_moments`).

    >>> import numpy as np
    >>> one = np.ones(2)
    >>> z, b = feature_matrix(np.array([[1.0, -1.0], [-1.0, 1.0]]), gross=np.array([[1.0, -1.0], [-1.0, 1.0]]),
    ...                       staked=one, length=one, drawn=0 * one, natural=0 * one, role_x=np.array([0, 1]))
    >>> z.shape, b["role_x"].shape
    ((2, 11), (2, 6))
    """
    net = np.asarray(net, dtype=np.float64)
    gross = np.asarray(gross, dtype=np.float64)
    if net.ndim != 2 or gross.shape != net.shape:
        raise ValueError(f"net and gross must be (hands, players) arrays of one shape, got {net.shape} and {gross.shape}")
    N = net.shape[0]
    cols = [net[:, s] for s in range(net.shape[1])]
    win = np.maximum(gross, 0.0).sum(axis=1)
    cols += [
        (net * net).mean(axis=1),
        np.abs(net).mean(axis=1),
        gross.sum(axis=1) - net.sum(axis=1),
        np.asarray(staked, dtype=np.float64).reshape(N),
        COMMON_RAKE * win,
        np.asarray(drawn, dtype=np.float64).reshape(N),
        np.asarray(natural, dtype=np.float64).reshape(N),
        np.asarray(length, dtype=np.float64).reshape(N),
        win,
    ]
    z = np.stack(cols, axis=1)
    P = net.shape[1]
    blocks: dict[str, np.ndarray] = {}
    for key, seats in roles.items():
        if not key.startswith(ROLE_KEY) or len(key) == len(ROLE_KEY):
            raise RulesError(f"hand_moments: unknown argument {key!r} (a role holder is given as role_<name>)")
        h = np.asarray(seats).reshape(-1)
        if h.size != N or not np.issubdtype(h.dtype, np.integer) or (N and (h.min() < 0 or h.max() >= P)):
            raise RulesError(f"{key}: expected {N} seats of 0..{P - 1} (the role holder's seat in each hand)")
        onehot = (h[:, None] == np.arange(P)[None, :]).astype(np.float64)
        blocks[key] = np.concatenate([onehot, (net[:, :, None] * onehot[:, None, :]).reshape(N, P * P)], axis=1)
    return z, blocks


class Estimate(tuple):
    """``(value, ci_low, ci_high)`` of one measure."""

    __slots__ = ()

    def __new__(cls, value: float, lo: float, hi: float):
        return super().__new__(cls, (float(value), float(lo), float(hi)))

    @property
    def value(self) -> float:
        return self[0]


def _delta(n: int, m: np.ndarray, cov: np.ndarray, f: Callable[[np.ndarray], float], grad: np.ndarray,
           confidence: float) -> Estimate:
    v = float(f(m))
    if n < 2 or not math.isfinite(v):
        return Estimate(v, math.nan, math.nan)
    var = float(grad @ cov @ grad) / n
    half = z_value(confidence) * math.sqrt(max(var, 0.0))
    return Estimate(v, v - half, v + half)


def _mean_cov(n: int, z1: np.ndarray, z2: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    m = z1 / n if n else np.full(z1.size, np.nan)
    if n > 1:
        return m, (z2 - n * np.outer(m, m)) / (n - 1)
    return m, np.full_like(z2, np.nan)


class Moments:
    """Means and covariances of a job's feature rows, and delta-method intervals.

    Parameters
    ----------
    moments : mapping
        ``n``, ``z1``, ``z2`` as :func:`hand_moments` returns (summed over chunks).
    """

    def __init__(self, moments: Mapping[str, np.ndarray]):
        self.n = int(np.asarray(moments["n"]).reshape(-1)[0])
        z1 = np.asarray(moments["z1"], dtype=np.float64)
        z2 = np.asarray(moments["z2"], dtype=np.float64)
        self.players = z1.size - len(_TAIL)
        if self.players < 1 or z2.shape != (z1.size, z1.size):
            raise ValueError("moments: z1 and z2 do not describe one feature row")
        self.names = feature_names(self.players)
        self._idx = {k: i for i, k in enumerate(self.names)}
        self.m, self.cov = _mean_cov(self.n, z1, z2)   # no spread can be measured from one hand: NaN

    def index(self, name: str) -> int:
        return self._idx[name]

    def mean(self, name: str) -> float:
        return float(self.m[self._idx[name]])

    def delta(self, f: Callable[[np.ndarray], float], grad: np.ndarray, confidence: float = 0.95) -> Estimate:
        """``f(m)`` with the delta-method interval for gradient ``grad`` (a vector over features)."""
        return _delta(self.n, self.m, self.cov, f, grad, confidence)

    def linear(self, coef: Mapping[str, float], confidence: float = 0.95) -> Estimate:
        """A linear combination of means, with its (exact normal) interval."""
        g = np.zeros(self.m.size)
        for k, c in coef.items():
            g[self._idx[k]] += c
        return self.delta(lambda m: float(g @ m), g, confidence)

    def ratio(self, num: str, den: str, confidence: float = 0.95) -> Estimate:
        """E[num] / E[den] (ratio of means)."""
        i, j = self._idx[num], self._idx[den]
        a, b = self.m[i], self.m[j]
        if b == 0:
            return Estimate(math.nan, math.nan, math.nan)
        g = np.zeros(self.m.size)
        g[i] = 1.0 / b
        g[j] = -a / (b * b)
        return self.delta(lambda m: float(m[i] / m[j]), g, confidence)

    def swing(self, confidence: float = 0.95, active: Sequence[int] | None = None) -> tuple[Estimate, Estimate]:
        """(SD of one seat's result, pooled over the ``active`` seats (default all); that SD
        over the mean absolute result).  A seat left out must sit out: its result is 0 in
        every hand (then the per-hand means over all seats are those over the active seats
        times ``P / len(active)``)."""
        P = self.players
        seats = list(range(P)) if active is None else sorted(set(active))
        if not seats or seats[0] < 0 or seats[-1] >= P:
            raise ValueError(f"active seats {active!r}: expected seats of 0..{P - 1}")
        for s in set(range(P)) - set(seats):
            i = self._idx[f"net_{s}"]
            if self.n and (abs(self.m[i]) > 0 or (self.n > 1 and self.cov[i, i] > 0)):
                raise ValueError(f"seat {s} is left out of the swing but its result is not always 0")
        k = P / len(seats)
        isq, iabs = self._idx["sq"], self._idx["abs"]
        sel = np.array(seats)

        def var(m):
            return float(k * m[isq] - np.mean(m[sel] ** 2))

        if self.n < 2:
            nan = Estimate(math.nan, math.nan, math.nan)
            return nan, nan
        v = var(self.m)
        sd = math.sqrt(max(v, 0.0))
        g = np.zeros(self.m.size)
        g[isq] = k
        g[sel] = -2.0 * self.m[sel] / len(seats)
        if sd > 0:
            g_sd = g / (2 * sd)
        else:
            g_sd = np.zeros_like(g)
        est_sd = self.delta(lambda m: math.sqrt(max(var(m), 0.0)), g_sd, confidence)
        a = k * self.m[iabs]
        if a <= 0:
            return est_sd, Estimate(math.nan, math.nan, math.nan)
        g_n = g_sd / a
        g_n[iabs] -= k * sd / (a * a)
        est_n = self.delta(lambda m: math.sqrt(max(var(m), 0.0)) / (k * m[iabs]), g_n, confidence)
        return est_sd, est_n


def _clip(e: Estimate, lo: float | None = None, hi: float | None = None) -> Estimate:
    v, a, b = e
    if lo is not None:
        a = max(a, lo)
    if hi is not None:
        b = min(b, hi)
    return Estimate(v, a, b)


def table_measures(moments: Mapping[str, np.ndarray], confidence: float = 0.95,
                   sitting_out: Sequence[int] = (), roles: Sequence[AtlasRole] = (),
                   pot_cut: float | None = None) -> list[dict[str, Any]]:
    """Every measure of one all-default table (rows ``measure, seat, value, ci_low, ci_high``).

    Seats in ``sitting_out`` (a seat that sits the hand out, e.g. Nantong's fourth player)
    get no rows and count in no seat measure nor in the swing.  With ``roles`` (the game's,
    the reference role first) the rows of :func:`role_measures` follow, each with its
    ``relative_to``.

    ``pot_cut`` (:attr:`AtlasFeed.pot_cut`): the house's cut of the stakes of a decided hand in a
    pot game whose drawn hands are refunded, so ``house_edge_staked`` = the cut x the share of the
    stakes in decided hands: a sampled figure (``method='monte_carlo'``, never ``'exact'``, even
    when no drawn hand was sampled), its interval within ``[0, pot_cut]``: where every hand stakes
    the same, ``pot_cut x (1 - P(drawn))`` with the Clopper--Pearson interval of the drawn rate;
    else the delta interval, clipped to ``[0, pot_cut]``.

    Examples
    --------
    >>> import numpy as np
    >>> from kaptai.core.atlas import hand_moments, table_measures
    >>> rng = np.random.default_rng(0)
    >>> win = rng.integers(0, 3, 20_000)                 # a fair three-seat pot, 10% cut
    >>> gross = np.where(np.eye(3)[win] == 1, 2.0, -1.0)
    >>> net = np.where(np.eye(3)[win] == 1, 3 * 0.9 - 1, -1.0)
    >>> rows = table_measures(hand_moments(net, gross=gross, staked=np.full(win.size, 3.0),
    ...     length=np.ones(win.size), drawn=np.zeros(win.size), natural=np.zeros(win.size)))
    >>> edge = [r for r in rows if r["measure"] == "house_edge"][0]      # 0.3 of the 2 antes won
    >>> round(edge["value"], 12), edge["method"]
    (0.15, 'exact')
    """
    m = Moments(moments)
    P = m.players
    alpha = 1.0 - confidence
    rows: list[dict[str, Any]] = []

    def add(measure: str, est: Estimate, seat: int | None = None, method: str = "monte_carlo") -> None:
        rows.append({"measure": measure, "seat": seat, "value": est[0], "ci_low": est[1], "ci_high": est[2],
                     "method": method})

    def add_ratio(measure: str, est: Estimate) -> None:
        v, lo, hi = est
        # the same ratio in every hand: a delta interval of rounding width only (a real Monte Carlo
        # ratio 1e-7 wide would take ~1e14 hands)
        same = math.isfinite(v) and math.isfinite(lo) and hi - lo <= 1e-7 * abs(v)
        add(measure, Estimate(v, v, v) if same else est, method="exact" if same else "monte_carlo")

    exchanged = m.linear({"exchanged": 1.0}, confidence)
    add("exchanged", exchanged)
    add_ratio("house_edge", m.ratio("house", "exchanged", confidence))
    add_ratio("house_edge_common", m.ratio("rake5", "exchanged", confidence))
    if pot_cut is not None and pot_cut > 0:
        add("house_edge_staked", _pot_edge(m, float(pot_cut), confidence))
    else:
        add_ratio("house_edge_staked", m.ratio("house", "staked", confidence))
    spread: Estimate | None = None
    active = [s for s in range(P) if s not in set(sitting_out)]
    A = len(active)
    for s in active:
        add("seat_ev", m.linear({f"net_{s}": 1.0}, confidence), s)
    if A > 1:
        ref = active[0]
        conf_adv = 1.0 - alpha / (A - 1)
        for s in active[1:]:
            add("seat_advantage", m.linear({f"net_{s}": 1.0, f"net_{ref}": -1.0}, conf_adv), s)
        conf_seat = 1.0 - alpha / A
        evs = [m.linear({f"net_{s}": 1.0}, conf_seat) for s in active]
        vals = [e[0] for e in evs]
        if any(math.isnan(e[1]) or math.isnan(e[2]) for e in evs):
            lo = hi = math.nan
        else:
            lo, hi = spread_interval([e[1] for e in evs], [e[2] for e in evs])
        spread = Estimate(max(vals) - min(vals), lo, hi)
        add("seat_spread", spread)
    sd, norm = m.swing(confidence, active)
    add("swing", _clip(sd, lo=0.0))
    add("swing_normalised", _clip(norm, lo=0.0))
    if spread is not None:
        add("seat_spread_swing_share", share_of(spread, _clip(sd, lo=0.0)))
        add("seat_spread_exchange_share", share_of(spread, _clip(exchanged, lo=0.0)))
    for name in ("drawn", "natural"):
        k = m.mean(name) * m.n
        if m.n > 0 and abs(k - round(k)) < 1e-6:         # counts of hands: an exact binomial interval
            lo_p, hi_p = clopper_pearson_interval(round(k), m.n, confidence)
            add(f"{name}_rate", Estimate(k / m.n, float(lo_p), float(hi_p)))
        else:
            add(f"{name}_rate", _clip(m.linear({name: 1.0}, confidence), 0.0, 1.0))
    add("mean_length", m.linear({"length": 1.0}, confidence))
    if roles:
        rows += role_measures(moments, roles, swing=_clip(sd, lo=0.0), confidence=confidence,
                              sitting_out=sitting_out)
    return rows


def _pot_edge(m: Moments, cut: float, confidence: float) -> Estimate:
    """``house_edge_staked`` of a pot game with a cut ``cut`` of a decided hand's stakes (drawn hands
    refunded): E[house] / E[staked], a sampled figure whose interval stays within ``[0, cut]``
    (see :func:`table_measures`)."""
    est = m.ratio("house", "staked", confidence)
    v = est[0]
    if m.n < 1 or not math.isfinite(v):
        return est
    if cut < v <= cut * (1.0 + 1e-9):            # the cut itself, up to rounding
        v = cut
    i = m.index("staked")
    k = m.mean("drawn") * m.n
    same_stake = m.n > 1 and m.cov[i, i] <= 1e-12 * max(m.m[i] ** 2, 1.0)
    counted = abs(k - round(k)) < 1e-6
    if counted and (same_stake or m.n == 1) and abs(v - cut * (1.0 - round(k) / m.n)) <= 1e-9 * max(cut, 1e-300):
        # every hand stakes the same: the share of the stakes in decided hands is 1 - P(drawn)
        lo_p, hi_p = clopper_pearson_interval(round(k), m.n, confidence)
        lo, hi = cut * (1.0 - float(hi_p)), cut * (1.0 - float(lo_p))
        return Estimate(v, min(lo, v), max(hi, v))
    lo, hi = est[1], est[2]
    if math.isnan(lo) or math.isnan(hi):
        return est
    if hi - lo <= 1e-7 * abs(v) and counted and round(k) == 0:
        # no drawn hand sampled and no other spread: the stakes of a drawn hand could still dilute the cut
        hi_p = float(clopper_pearson_interval(0, m.n, confidence)[1])
        lo = cut * (1.0 - hi_p)
    return Estimate(v, max(min(lo, v), 0.0), min(max(hi, v), cut))


def share_of(num: Estimate | tuple, den: Estimate | tuple) -> Estimate:
    """``num / den`` of two estimates, with the widest interval their intervals allow.

    Conservative (it covers whenever both intervals do); the denominator must be positive.

    Examples
    --------
    >>> from kaptai.core.atlas import share_of
    >>> tuple(round(x, 4) for x in share_of((0.3, 0.2, 0.4), (2.0, 1.9, 2.1)))
    (0.15, 0.0952, 0.2105)
    >>> tuple(round(x, 4) for x in share_of((-0.3, -0.4, 0.1), (2.0, 1.9, 2.1)))
    (-0.15, -0.2105, 0.0526)
    """
    v, lo, hi = (float(x) for x in num)
    d, dlo, dhi = (float(x) for x in den)
    if not (d > 0) or not math.isfinite(d):
        return Estimate(math.nan, math.nan, math.nan)
    if not (dlo > 0 and math.isfinite(dhi)):
        return Estimate(v / d, math.nan, math.nan)
    return Estimate(v / d, min(lo / dlo, lo / dhi), max(hi / dlo, hi / dhi))


def variance_range(lo: Sequence[float] | np.ndarray, hi: Sequence[float] | np.ndarray,
                   weights: Sequence[float] | np.ndarray | None = None) -> tuple[float, float]:
    """Least and greatest weighted variance ``sum_i w_i (x_i - sum_j w_j x_j)**2`` over the box
    ``lo_i <= x_i <= hi_i`` (weights normalised to sum 1; default equal).

    The greatest is at a corner of the box (the variance is convex), so every corner is tried
    (at most 16 coordinates); the least is ``min_c sum_i w_i dist(c, [lo_i, hi_i])**2`` (the
    variance is the least mean square about any centre), a convex piecewise quadratic in ``c``
    minimised exactly segment by segment.  NaN bounds give ``(nan, nan)``.

    Examples
    --------
    >>> from kaptai.core.atlas import variance_range
    >>> variance_range([0.0, 1.0], [0.5, 2.0])          # x = (0.5, 1) at least, (0, 2) at most
    (0.0625, 1.0)
    >>> variance_range([0.0, 0.2], [0.5, 1.0])          # the boxes overlap: equal values fit
    (0.0, 0.25)
    """
    a = np.asarray(lo, dtype=np.float64).reshape(-1)
    b = np.asarray(hi, dtype=np.float64).reshape(-1)
    w = np.ones(a.size) if weights is None else np.asarray(weights, dtype=np.float64).reshape(-1)
    if a.size != b.size or w.size != a.size or a.size == 0:
        raise RulesError(f"variance_range: {a.size} lower, {b.size} upper bounds and {w.size} weights")
    if np.isnan(a).any() or np.isnan(b).any():
        return math.nan, math.nan
    if (w < 0).any() or not w.sum() > 0 or (a > b).any():
        raise RulesError("variance_range: expected weights >= 0 with a positive sum and lo <= hi")
    keep = w > 0
    a, b, w = a[keep], b[keep], w[keep] / w[keep].sum()
    k = a.size
    if k > 16:
        raise RulesError(f"variance_range: {k} coordinates (at most 16: every corner of the box is tried)")
    corners = (np.arange(2**k)[:, None] >> np.arange(k)[None, :]) & 1
    x = np.where(corners == 1, b[None, :], a[None, :])
    mu = x @ w
    top = float(np.max(((x - mu[:, None]) ** 2) @ w))

    def phi(c: float) -> float:
        return float(w @ (np.maximum(a - c, 0.0) ** 2 + np.maximum(c - b, 0.0) ** 2))

    pts = np.unique(np.concatenate([a, b]))
    cand = list(pts)
    for left, right in zip(pts[:-1], pts[1:]):
        below, above = a >= right, b <= left          # c < lo_i, c > hi_i on the whole segment
        den = float(w[below].sum() + w[above].sum())
        if den > 0:
            c = float((w[below] @ a[below] + w[above] @ b[above]) / den)
            cand.append(min(max(c, float(left)), float(right)))
    return max(min(phi(c) for c in cand), 0.0), top


@dataclass(frozen=True)
class AtlasRole:
    """A role a game assigns to a seat: its name and what assigns it.

    Attributes
    ----------
    name : str
        ``'dealer'``, ``'first_hand'``, ``'leader'``, ``'declarer'``: the ``relative_to`` of its
        rows, and (for every role but the feed's first, the reference role of seat 0) the key
        ``role_<name>`` of its holder's seat in the feed's rows.
    assigned : {'rotation', 'dice', 'cards', 'auction'}
        ``'rotation'``: passed to the next seat after every hand (each player holds every
        offset once in ``P`` hands); otherwise by chance: the dice, the deal, the auction.
    description : str
        One line: how the rules assign it.

    Examples
    --------
    >>> from kaptai.core.atlas import AtlasRole
    >>> AtlasRole("dealer", "rotation").chance
    False
    >>> AtlasRole("dealer", "coin")
    Traceback (most recent call last):
    ...
    kaptai.errors.RulesError: role 'dealer': assigned='coin', expected one of rotation, dice, cards, auction
    """

    name: str
    assigned: str
    description: str = ""

    def __post_init__(self) -> None:
        if not (isinstance(self.name, str) and self.name.isidentifier() and self.name == self.name.lower()):
            raise RulesError(f"role name {self.name!r}: expected a lower-case identifier ('first_hand')")
        if self.assigned not in ROLE_ASSIGNMENTS:
            raise RulesError(f"role {self.name!r}: assigned={self.assigned!r}, expected one of "
                             + ", ".join(ROLE_ASSIGNMENTS))

    @property
    def chance(self) -> bool:
        """Whether chance assigns the role (every assignment but ``'rotation'``)."""
        return self.assigned != "rotation"


def principal_role(roles: Sequence[AtlasRole]) -> AtlasRole:
    """The role that varies: the first role assigned by chance, else the first role.

    The atlas ranks the games by this role's luck (a chance role carries the luck a rotation
    leaves).

    >>> from kaptai.core.atlas import AtlasRole, principal_role
    >>> principal_role([AtlasRole("dealer", "rotation"), AtlasRole("first_hand", "dice")]).name
    'first_hand'
    """
    if not roles:
        raise RulesError("principal_role: no roles")
    return next((r for r in roles if r.chance), roles[0])


class RoleMoments:
    """The role block of one role (:func:`hand_moments`'s ``role_<name>``): where its holder sat.

    Parameters
    ----------
    moments : mapping
        With ``n`` and ``role_<name>_z1``/``_z2``.
    name : str
        The role.
    """

    def __init__(self, moments: Mapping[str, np.ndarray], name: str):
        key = f"{ROLE_KEY}{name}"
        if f"{key}_z1" not in moments:
            raise RulesError(f"role {name!r}: the moments have no {key}_z1 (the feed's rows give no {key})")
        self.n = int(np.asarray(moments["n"]).reshape(-1)[0])
        z1 = np.asarray(moments[f"{key}_z1"], dtype=np.float64)
        z2 = np.asarray(moments[f"{key}_z2"], dtype=np.float64)
        P = int(round((math.sqrt(1 + 4 * z1.size) - 1) / 2))
        if P < 1 or P * (P + 1) != z1.size or z2.shape != (z1.size, z1.size):
            raise RulesError(f"role {name!r}: {z1.size} block columns are not P + P**2")
        self.players = P
        self.m, self.cov = _mean_cov(self.n, z1, z2)

    def _y(self, a: int, d: int) -> int:
        return self.players + a * self.players + d

    def holder(self) -> np.ndarray:
        """``q_d``: the share of hands whose holder sat at row seat ``d``."""
        return self.m[: self.players].copy()

    def ev(self, k: int, confidence: float = 0.95) -> Estimate:
        """E[result of the seat ``k`` places after the holder] = ``sum_d E[y_{(d+k) % P, d}]``."""
        P = self.players
        g = np.zeros(self.m.size)
        for d in range(P):
            g[self._y((d + k) % P, d)] = 1.0
        return _delta(self.n, self.m, self.cov, lambda m: float(g @ m), g, confidence)

    def given(self, a: int, d: int, confidence: float = 0.95) -> Estimate:
        """E[result of row seat ``a`` | the holder at row seat ``d``] = ``E[y_{a,d}] / q_d``."""
        i, j = self._y(a, d), d
        b = self.m[j]
        if not b > 0:
            return Estimate(math.nan, math.nan, math.nan)
        g = np.zeros(self.m.size)
        g[i] = 1.0 / b
        g[j] = -self.m[i] / (b * b)
        return _delta(self.n, self.m, self.cov, lambda m: float(m[i] / m[j]), g, confidence)


def role_measures(
    moments: Mapping[str, np.ndarray],
    roles: Sequence[AtlasRole],
    *,
    swing: Estimate | tuple,
    confidence: float = 0.95,
    sitting_out: Sequence[int] = (),
) -> list[dict[str, Any]]:
    """The luck of the seat from each role (definitions in the module docstring).

    Parameters
    ----------
    moments : mapping
        A table's moments with the role block of every role but ``roles[0]``.
    roles : sequence of AtlasRole
        The game's roles, the reference role (seat 0 of the rows) first.
    swing : (value, ci_low, ci_high)
        The table's swing (the unit of the shares).
    sitting_out : sequence of int
        Seats (of the reference numbering) that sit every hand out: in no role measure.

    Returns
    -------
    list of dict
        Rows ``measure, seat, relative_to, value, ci_low, ci_high, method``: ``role_ev`` per
        offset (``seat`` = the offset), ``role_spread``, ``role_spread_swing_share``,
        ``role_luck_share`` and ``role_luck_after_rotation`` per role.

    Examples
    --------
    >>> import numpy as np
    >>> from kaptai.core.atlas import AtlasRole, hand_moments, role_measures
    >>> rng = np.random.default_rng(1)
    >>> win = rng.integers(0, 2, 4000)                   # two seats, a fair coin, the role by a coin too
    >>> net = np.stack([2.0 * win - 1, 1 - 2.0 * win], axis=1)
    >>> one = np.ones(win.size)
    >>> mom = hand_moments(net, gross=net, staked=one, length=one, drawn=0 * one, natural=0 * one,
    ...                    role_caller=rng.integers(0, 2, win.size))
    >>> rows = role_measures(mom, [AtlasRole("dealer", "rotation"), AtlasRole("caller", "dice")],
    ...                      swing=(1.0, 1.0, 1.0))
    >>> [(r["measure"], r["relative_to"], r["method"]) for r in rows if r["measure"] == "role_luck_after_rotation"]
    [('role_luck_after_rotation', 'dealer', 'exact'), ('role_luck_after_rotation', 'caller', 'monte_carlo')]
    """
    if not roles:
        return []
    m = Moments(moments)
    P = m.players
    alpha = 1.0 - confidence
    sitting = sorted(set(int(s) for s in sitting_out))
    if sitting and len(roles) > 1:
        raise RulesError(f"role measures: seats that sit out ({sitting}) are seats of the reference role; "
                         "a game with them can declare no other role")
    ref = roles[0]
    blocks: dict[str, RoleMoments] = {}
    for r in roles[1:]:
        blocks[r.name] = RoleMoments(moments, r.name)
        if blocks[r.name].players != P:
            raise RulesError(f"role {r.name!r}: a block of {blocks[r.name].players} seats at a {P}-seat table")
    rows: list[dict[str, Any]] = []
    sw = _clip(Estimate(*swing), lo=0.0)

    def add(measure: str, role: AtlasRole, est: Estimate, seat: int | None = None,
            method: str = "monte_carlo") -> None:
        rows.append({"measure": measure, "seat": seat, "relative_to": role.name, "value": est[0],
                     "ci_low": est[1], "ci_high": est[2], "method": method})

    def ev(role: AtlasRole, k: int, conf: float) -> Estimate:
        if role is ref:
            return m.linear({f"net_{k}": 1.0}, conf)
        return blocks[role.name].ev(k, conf)

    def sd_box(values: Sequence[float], lo: Sequence[float], hi: Sequence[float],
               weights: Sequence[float] | np.ndarray | None = None) -> Estimate:
        w = np.ones(len(values)) if weights is None else np.asarray(weights, dtype=np.float64)
        w = w / w.sum()
        x = np.asarray(values, dtype=np.float64)
        v = float(w @ (x - w @ x) ** 2)
        vlo, vhi = variance_range(lo, hi, w)
        return Estimate(math.sqrt(max(v, 0.0)), math.sqrt(vlo), math.sqrt(vhi))

    base = next((r for r in roles if not r.chance), None)
    for role in roles:
        offsets = [k for k in range(P) if not (role is ref and k in sitting)]
        A = len(offsets)
        for k in offsets:
            add("role_ev", role, ev(role, k, confidence), seat=k)
        if A < 2:
            continue
        box = [ev(role, k, 1.0 - alpha / A) for k in offsets]
        vals = [e[0] for e in box]
        if any(math.isnan(e[1]) or math.isnan(e[2]) for e in box):
            lo = hi = math.nan
        else:
            lo, hi = spread_interval([e[1] for e in box], [e[2] for e in box])
        spread = Estimate(max(vals) - min(vals), lo, hi)
        add("role_spread", role, spread)
        add("role_spread_swing_share", role, share_of(spread, sw))
        sigma = sd_box(vals, [e[1] for e in box], [e[2] for e in box])
        luck = share_of(sigma, sw)
        add("role_luck_share", role, luck)
        add("role_luck_variance_share", role, Estimate(luck[0] ** 2, max(luck[1], 0.0) ** 2, luck[2] ** 2))
        if not role.chance:
            add("role_luck_after_rotation", role, Estimate(0.0, 0.0, 0.0), method="exact")
            continue
        if base is None:                     # offsets uniform and independent: SD(T) = sqrt(P) sigma
            add("role_luck_after_rotation", role, share_of(sigma, sw))
            continue
        if role is ref:                      # the rotating role's block: a = (c + d) % P
            blk, at = blocks[base.name], (lambda c, d: (c + d) % P)
        elif base is ref:                    # the chance role's block: a = c
            blk, at = blocks[role.name], (lambda c, d: c)
        else:
            raise RulesError(f"role {role.name!r}: its luck after a rotation of {base.name!r} needs one of the "
                             "two to be the reference role")
        q = blk.holder()
        ds = [d for d in range(P) if q[d] > 0]
        conf_cell = 1.0 - alpha / (P * len(ds))
        v_sum = lo_sum = hi_sum = 0.0
        for c in range(P):
            cells = [blk.given(at(c, d), d, conf_cell) for d in ds]
            est = sd_box([e[0] for e in cells], [e[1] for e in cells], [e[2] for e in cells], q[ds])
            v_sum += est[0] ** 2
            lo_sum += est[1] ** 2
            hi_sum += est[2] ** 2
        luck = Estimate(math.sqrt(v_sum / P), math.sqrt(lo_sum / P), math.sqrt(hi_sum / P))
        add("role_luck_after_rotation", role, share_of(luck, sw))
    return rows


def pair_measures(
    diffs: Sequence[np.ndarray],
    *,
    swing: Sequence[float],
    exchanged: Sequence[float],
    confidence: float = 0.95,
    target: float = 0.95,
) -> list[dict[str, Any]]:
    """Skill of X over Y from tables where both sit with the field, one table per arrangement.

    Parameters
    ----------
    diffs : sequence of arrays
        Per arrangement of the pair's seats (X at seat a, Y at seat b; every ordered pair of
        active seats), each hand's ``net_a - net_b``.
    swing, exchanged : (value, ci_low, ci_high)
        The variant's default-table swing and money exchanged (for the unit-free shares).

    Returns
    -------
    list of dict
        ``value_of_skill`` = E[net_X - net_Y] per hand, the mean over the arrangements (a
        player who takes every arrangement equally often), normal interval with the
        tables' variances added; ``value_of_skill_swing_share`` / ``_exchange_share`` (see
        :func:`share_of`); ``skill_effect_size`` = value / SD, SD of the per-hand
        difference under the mixture of arrangements (so the variance between seats is
        in it); ``hands_until_skill_shows`` = the smallest N with P(X ahead of Y after N
        hands) >= ``target`` (:func:`kaptai.core.stats.hands_until_ahead`: exact
        convolution of the mixture's per-hand distribution), its interval from
        :func:`hands_until_interval` (ties kept as ties).

    Examples
    --------
    >>> import numpy as np
    >>> from kaptai.core.atlas import pair_measures
    >>> d = [np.array([1.0, -1.0, 1.0, 1.0]), np.array([1.0, 1.0, -1.0, 1.0])]    # X ahead 3 hands in 4
    >>> rows = {r["measure"]: r for r in pair_measures(d, swing=(1.0, 0.9, 1.1), exchanged=(2.0, 2.0, 2.0))}
    >>> rows["value_of_skill"]["value"], rows["skill_effect_size"]["value"]
    (0.5, 0.5773502691896258)
    >>> rows["hands_until_skill_shows"]["value"]        # P(ahead) = 0.9294 after 7, 0.9511 after 9 hands
    9.0
    """
    from kaptai.core.stats import hands_until_ahead

    z = z_value(confidence)
    parts = [np.asarray(d, dtype=np.float64).reshape(-1) for d in diffs]
    parts = [d for d in parts if d.size]
    if not parts:
        raise ValueError("pair_measures: no hands")
    k = len(parts)
    means = np.array([d.mean() for d in parts])
    var = np.array([d.var(ddof=1) / d.size if d.size > 1 else math.nan for d in parts])
    edge = float(means.mean())
    half = z * math.sqrt(float(var.sum())) / k
    lo, hi = edge - half, edge + half
    vals = np.concatenate(parts)
    w = np.concatenate([np.full(d.size, 1.0 / (k * d.size)) for d in parts])
    uniq, inv = np.unique(vals, return_inverse=True)
    pw = np.bincount(inv.reshape(-1), weights=w, minlength=uniq.size)
    sd = math.sqrt(max(float(pw @ (uniq - edge) ** 2), 0.0))

    rows = [{"measure": "value_of_skill", "seat": None, "value": edge, "ci_low": lo, "ci_high": hi}]
    for den, name in ((swing, "value_of_skill_swing_share"), (exchanged, "value_of_skill_exchange_share")):
        e = share_of((edge, lo, hi), tuple(den))
        rows.append({"measure": name, "seat": None, "value": e[0], "ci_low": e[1], "ci_high": e[2]})
    if sd > 0:
        rows.append({"measure": "skill_effect_size", "seat": None, "value": edge / sd, "ci_low": lo / sd,
                     "ci_high": hi / sd})
        h, h_lo, h_hi = hands_until_interval(uniq, pw, int(vals.size), target=target, confidence=confidence)
    else:
        rows.append({"measure": "skill_effect_size", "seat": None, "value": math.nan, "ci_low": math.nan,
                     "ci_high": math.nan})
        h = h_lo = h_hi = 1.0 if edge > 0 else math.inf
    rows.append({"measure": "hands_until_skill_shows", "seat": None, "value": h, "ci_low": h_lo, "ci_high": h_hi})
    return rows


def _side(values: np.ndarray, probs: np.ndarray, n: int, z: float) -> tuple[float, float, float]:
    """``(P(side), mean size, half-width of the mean size's interval)`` of one side (values of one
    sign) of a per-hand distribution given as probabilities over ``n`` hands."""
    p = float(probs.sum())
    if not p > 0:
        return 0.0, math.nan, math.nan
    size = np.abs(values)
    mu = float(probs @ size) / p
    var = float(probs @ (size - mu) ** 2) / p
    k = p * n                                            # the hands on this side
    half = z * math.sqrt(var * k / (k - 1) / k) if k > 1 else (0.0 if var == 0 else math.inf)
    return p, mu, half


def hands_until_interval(values: Sequence[float] | np.ndarray, probs: Sequence[float] | np.ndarray, hands: int, *,
                         target: float = 0.95, confidence: float = 0.95) -> tuple[float, float, float]:
    """Hands until X is ``target`` sure to be ahead of Y, with an interval that keeps ties as ties.

    ``values``/``probs``: the observed per-hand distribution of ``net_X - net_Y`` (the mixture of
    the seat arrangements), from ``hands`` hands.  The value is
    :func:`kaptai.core.stats.hands_until_ahead` of it.  The interval splits the distribution
    into a win (> 0), a loss (< 0) and a tie (= 0) and the sizes of the wins and of the losses:
    P(win) and P(loss) get Wilson intervals, the mean win and loss sizes normal ones, each at
    ``1 - alpha/4``.  The low end is the exact N of the most favourable distribution of that box
    (P(win) at its top, P(loss) at its bottom, ties the rest; the wins scaled up, the losses
    scaled down to the ends of their mean sizes' intervals), the high end that of the least
    favourable (P(win) at its bottom, P(loss) at its top): P(ahead after N hands) rises with
    every one of these moves, so the two ends bound N over the box.  A tie stays a tie at
    both ends (shifting the whole distribution, as the atlas did before, makes every tied hand
    "ahead").  A side never observed stays absent at both ends.

    Returns
    -------
    (value, ci_low, ci_high) : floats, ``inf`` where X is never ``target`` sure to be ahead.

    Examples
    --------
    >>> from kaptai.core.atlas import hands_until_interval
    >>> hands_until_interval([-1.0, 0.0, 1.0], [0.02, 0.90, 0.08], 100_000)    # mostly ties
    (84.0, 76.0, 93.0)
    """
    from kaptai.core.stats import hands_until_ahead, wilson_interval

    v = np.asarray(values, dtype=np.float64).reshape(-1)
    p = np.asarray(probs, dtype=np.float64).reshape(-1)
    if v.size != p.size or v.size == 0:
        raise ValueError(f"hands_until_interval: {v.size} values and {p.size} probabilities")
    p = p / p.sum()
    alpha = 1.0 - confidence
    conf = 1.0 - alpha / 4
    z = z_value(conf)
    n = int(hands)
    pos, neg = v > 0, v < 0
    p_w, mu_w, h_w = _side(v[pos], p[pos], n, z)
    p_l, mu_l, h_l = _side(v[neg], p[neg], n, z)

    def until(vals: np.ndarray, prs: np.ndarray) -> float:
        keep = prs > 0
        if not keep.any():
            return math.inf
        got, _ = hands_until_ahead(vals[keep], prs[keep], target)
        return float(got)

    value = until(v, p)
    if n < 2:
        return value, math.nan, math.nan
    (w_lo, l_lo), (w_hi, l_hi) = (np.asarray(x, dtype=np.float64) for x in
                                  wilson_interval([p_w * n, p_l * n], [n, n], conf))
    if not p_w > 0:
        w_lo = w_hi = 0.0
    if not p_l > 0:
        l_lo = l_hi = 0.0

    def at(pw_: float, pl_: float, scale_w: float, scale_l: float) -> float:
        pw_ = min(max(pw_, 0.0), 1.0)
        pl_ = min(max(pl_, 0.0), 1.0 - pw_)
        parts_v = [np.array([0.0])]
        parts_p = [np.array([max(1.0 - pw_ - pl_, 0.0)])]
        if p_w > 0:
            parts_v.append(v[pos] * scale_w)
            parts_p.append(p[pos] / p_w * pw_)
        if p_l > 0:
            parts_v.append(v[neg] * scale_l)
            parts_p.append(p[neg] / p_l * pl_)
        vals, prs = np.concatenate(parts_v), np.concatenate(parts_p)
        if not np.isfinite(vals).all():
            return math.nan
        return until(vals, prs)

    def scale(mu: float, half: float, up: bool) -> float:
        if not mu > 0:
            return 1.0
        return (mu + half) / mu if up else max(mu - half, 0.0) / mu

    low = at(float(w_hi), float(l_lo), scale(mu_w, h_w, True), scale(mu_l, h_l, False))
    high = at(float(w_lo), float(l_hi), scale(mu_w, h_w, False), scale(mu_l, h_l, True))
    if math.isfinite(value):
        low = min(low, value) if not math.isnan(low) else low
        high = max(high, value) if not math.isnan(high) else high
    return value, low, high


def rotated_ev(jobs: Sequence[tuple[int, Mapping[str, np.ndarray]]]) -> tuple[float, float, float, int]:
    """EV of a focal seat rotated over seats: ``(mean, variance of the mean, SD per hand, hands)``.

    ``jobs``: ``(seat, moments)`` for each table with the focal policy at ``seat``; the EV
    is the average over the tables of the focal seat's mean result, its variance the sum
    of the independent tables' variances over the square of their number, and the SD per
    hand the pooled SD of the focal seat's result."""
    means, variances, sq = [], [], []
    hands = 0
    for seat, mom in jobs:
        m = Moments(mom)
        i = m.index(f"net_{seat}")
        means.append(m.m[i])
        variances.append(m.cov[i, i] / m.n if m.n > 1 else math.nan)
        sq.append(m.cov[i, i])
        hands += m.n
    k = len(means)
    return float(np.mean(means)), float(np.sum(variances) / (k * k)), float(math.sqrt(np.mean(sq))), hands


# --------------------------------------------------------------------------------------
# The contract between the atlas and a game (one ``FEED`` per game, in kaptai/<game>/atlas.py)
# --------------------------------------------------------------------------------------


@dataclass(frozen=True)
class AtlasVariant:
    """One rule variant of a game in the atlas.

    Attributes
    ----------
    name : str
        Short label, unique within the game (``'traditional'``, ``'house_cut_0'``).
    rules : str or tuple of (option, value) pairs
        A preset name, or the options that differ from the default preset, as pairs (the
        job must be hashable and picklable).
    players : int
    description : str
        One line for tables and the report.
    strong_policy : str, optional
        The strongest built-in policy under this variant, where it is not the feed's
        (:attr:`AtlasFeed.strong_policy`).
    unit : str, optional
        The stake unit of this variant's results, where the feed's :attr:`AtlasFeed.unit` names
        several (Kap Tai Shap: ``'ante'`` in the pot game, ``'point'`` under advanced scoring).
    """

    name: str
    rules: Any
    players: int
    description: str = ""
    strong_policy: str | None = None
    unit: str | None = None


@dataclass(frozen=True)
class AtlasJob:
    """One table of the atlas: a variant and one policy per seat (seat 0 the reference seat)."""

    game: str
    variant: AtlasVariant
    policies: tuple[str, ...]
    #: the bidding policy of every seat where the game has an auction (None: the feed's default,
    #: the fixed bidding table); the adaptive seat table sets :attr:`AtlasFeed.adaptive_bidding`
    bidding: str | None = None


@dataclass(frozen=True)
class AtlasFeed:
    """What a game gives the atlas.

    Attributes
    ----------
    game : str
        Registry id.
    variants : tuple of AtlasVariant
        The main variants, the default first.
    reference_seat : str
        What seat 0 is (``'dealer'``, ``'leader'``, ``'declarer'``).
    unit : str
        The stake unit of ``net`` (``'ante'``, ``'point'``, ...).
    default_policy, strong_policy : str
        The field's policy, and the strongest built-in policy (for the value of skill; a
        variant may name its own, :attr:`AtlasVariant.strong_policy`).
    chunk_hands : int
        Hands per chunk.
    play : callable
        ``play(job, chunk) -> moments``: plays ``chunk.size`` hands of ``job`` from the
        chunk's stream (``chunk.seed``) and returns :func:`hand_moments` of them.  A
        module-level function (it is pickled to worker processes).
    decisive : callable, optional
        ``decisive(variant) -> (label, fractions.Fraction)`` or None: the exact
        probability that the deal is already decisive (a natural, a dragon).
    length_unit : str
        What ``length`` counts.
    notes : str
        How the game's figures are defined (staked money, cut, length), for the report.
    strong_hands : int, optional
        A cap on the hands of the strong policy's rotated tables (all seats together), for a
        strong policy far slower than the engine's others; the rows say how many were played.
    strong_chunk_hands : int, optional
        Hands per chunk of the strong policy's tables (default ``chunk_hands``).
    rows : callable, optional
        ``rows(job, chunk) -> dict`` of the per-hand arrays behind :attr:`play` (``net``,
        ``gross``, ``staked``, ``length``, ``drawn``, ``natural``: what :func:`hand_moments`
        takes) plus ``win``, an ``(N, P)`` array of each seat's share of the hand's win
        as the game defines a win (1 for the winner, ties shared, 0 on a drawn hand).
        ``play`` is :func:`hand_moments` of these rows (without ``win``), so the atlas's
        figures do not depend on it; the policy league (:mod:`kaptai.core.league`) reads
        the rows.  A module-level function (pickled to worker processes).
    win : str
        What a win is in this game (one line, for the league's tables and docs).
    sitting_out : callable, optional
        ``sitting_out(variant) -> seats`` that sit every hand out (result always 0): left
        out of the seat measures, the swing and the skill pairs' seats.
    roles : tuple of AtlasRole
        The roles the game assigns, the reference role (``reference_seat``, seat 0 of the
        rows) first; the feed's rows and moments carry ``role_<name>`` (the holder's seat) of
        every other role.  The luck of the seat is measured from each (:func:`role_measures`).
    deal_rows : callable, optional
        ``deal_rows(variant, arrangements, chunk) -> list`` of one dict per arrangement (a
        tuple of policies by *physical* seat), each with ``net`` and ``win`` ``(N, P)`` in
        physical seats: the chunk's ``chunk.size`` deals played once under every arrangement,
        the same cards dealt in each (the duplicate league, :mod:`kaptai.core.league`).  A
        module-level function (pickled to worker processes).
    max_winners : int
        The most seats that can win one hand (1, or the defenders of a set contract).
    deal_key : callable, optional
        ``deal_key(variant) -> hashable``: variants of equal key deal the same way (the same
        players and deck, no rule that changes how the deal is drawn), so they are played on
        the same deals (a *deal group*: the same ``SeedSequence`` child for chunk ``i`` of every
        variant).  The feed's rows then carry ``deal``, an int64 fingerprint per hand of what was
        dealt (:func:`deal_fingerprint`), which the atlas checks hand by hand.  None: every
        variant on its own deals.
    adaptive_bidding : str, optional
        For a game whose reference role is given by an auction: the bidding policy that adapts
        to the scoring in force (``'search'``); the atlas measures the luck of the seat with it
        (an extra seat table per variant, :attr:`AtlasJob.bidding`).
    adaptive_hands : int, optional
        A cap on the hands of that seat table (the adaptive bidders are slow).
    adaptive_chunk_hands : int, optional
        Hands per chunk of the seat table (default ``chunk_hands``).
    pot_cut : callable, optional
        ``pot_cut(variant) -> float or None``: in a pot game whose drawn hands are refunded (their
        antes staked, nothing taken), the house's cut of the stakes of a decided hand; then
        ``house_edge_staked`` = cut x the share of the stakes in decided hands, a sampled figure
        whose interval stays within ``[0, cut]`` (:func:`table_measures`).  None: the house's take
        per stake is the plain ratio of means.
    """

    game: str
    variants: tuple[AtlasVariant, ...]
    reference_seat: str
    unit: str
    default_policy: str
    strong_policy: str
    chunk_hands: int
    play: Callable[[AtlasJob, Any], dict[str, np.ndarray]]
    decisive: Callable[[AtlasVariant], Any] | None = None
    length_unit: str = "turns"
    notes: str = ""
    random_policy: str = "random"
    strong_hands: int | None = None
    strong_chunk_hands: int | None = None
    rows: Callable[[AtlasJob, Any], dict[str, np.ndarray]] | None = None
    win: str = ""
    sitting_out: Callable[[AtlasVariant], Sequence[int]] | None = None
    roles: tuple[AtlasRole, ...] = ()
    deal_rows: Callable[..., list[dict[str, np.ndarray]]] | None = None
    max_winners: int = 1
    deal_key: Callable[[AtlasVariant], Any] | None = None
    adaptive_bidding: str | None = None
    adaptive_hands: int | None = None
    adaptive_chunk_hands: int | None = None
    pot_cut: Callable[[AtlasVariant], float | None] | None = None

    def __post_init__(self) -> None:
        if self.roles and self.roles[0].name != self.reference_seat:
            raise RulesError(f"{self.game}: the first role {self.roles[0].name!r} is not the reference seat "
                             f"{self.reference_seat!r}")
        if len({r.name for r in self.roles}) != len(self.roles):
            raise RulesError(f"{self.game}: two roles of one name")

    @property
    def players_version(self) -> int | None:
        """The version of the built-in players :attr:`deal_rows` plays (its ``version`` attribute, set by
        a game whose players changed what they play, e.g. Big Two's ``POLICY_VERSION``), or None.
        League and atlas checkpoints record it, so chunks of other players are refused."""
        return getattr(self.deal_rows, "version", None)


def moments_of_rows(rows: Mapping[str, np.ndarray]) -> dict[str, np.ndarray]:
    """:func:`hand_moments` of a feed's per-hand rows (:attr:`AtlasFeed.rows`; ``win`` is not a
    feature; ``role_<name>`` are the role holders' seats)."""
    roles = {k: v for k, v in rows.items() if k.startswith(ROLE_KEY)}
    return hand_moments(rows["net"], gross=rows["gross"], staked=rows["staked"], length=rows["length"],
                        drawn=rows["drawn"], natural=rows["natural"], **roles)


def hands_by_reference_seat(
    run: Callable[[list[Any], int], Mapping[str, np.ndarray]],
    policies: Sequence[Any],
    size: int,
    seats: int,
    physical: Callable[[int, int], int],
    reference: str,
) -> dict[str, np.ndarray]:
    """Exactly ``size`` hands in which ``policies[s]`` sits ``s`` places after the reference seat.

    For games whose engine decides the reference seat (dealer, declarer) hand by hand: run
    ``r = 0, 1, ...`` of the engine (``run(physical_policies, hands) -> outcome arrays``, all
    on one stream) turns the policies so that a hand whose reference is physical seat ``d = r
    % seats`` has ``policies[s]`` at ``physical(d, s)``, and keeps those hands (the key
    ``reference`` of the outcome arrays is the physical reference seat), until ``size`` are
    kept -- the first ``size`` in run order.  Exact: the deal treats every seat alike, so the
    kept hands are hands of that table; it costs about ``seats`` engine hands a kept hand.
    After the first ``seats`` runs (``size`` hands each) every run plays ``seats`` engine hands
    per hand still missing and ``2 * seats`` more, so a small chunk of an expensive policy (a
    search player) costs about ``seats * size`` engine hands, not a block of hundreds.

    Examples
    --------
    >>> import numpy as np
    >>> rng = np.random.default_rng(0)
    >>> def run(phys, m):                    # a toy engine: the dealer is random, seat 0 scores 1
    ...     d = rng.integers(0, 3, m)
    ...     return {"dealer": d, "who": np.array([phys[x] for x in d])}
    >>> out = hands_by_reference_seat(run, ["A", "B", "C"], 50, 3, lambda d, s: (d + s) % 3, "dealer")
    >>> len(out["who"]), sorted(set(out["who"].tolist()))
    (50, ['A'])
    """
    parts: list[dict[str, np.ndarray]] = []
    kept, r = 0, 0
    while kept < size:
        d = r % seats
        m = size if r < seats else seats * (size - kept) + 2 * seats
        phys: list[Any] = [None] * seats
        for s in range(seats):
            phys[physical(d, s)] = policies[s]
        out = run(phys, m)
        keep = np.asarray(out[reference]).astype(np.int64) == d
        parts.append({k: np.asarray(v)[keep] for k, v in out.items()})
        kept += int(keep.sum())
        r += 1
    return {k: np.concatenate([p[k] for p in parts])[:size] for k in parts[0]}


# --------------------------------------------------------------------------------------
# Variants on the same deals: joint moments and paired differences
# --------------------------------------------------------------------------------------


def block_sizes(players: int, roles: Sequence[AtlasRole] = ()) -> list[tuple[str, int]]:
    """The parts of one variant's joint feature row: ``('main', P + 9)`` then ``(role_<name>, P + P**2)``
    for every role but the reference one, in the feed's order.

    >>> block_sizes(4, [AtlasRole("dealer", "rotation"), AtlasRole("first_hand", "dice")])
    [('main', 13), ('role_first_hand', 20)]
    """
    out = [("main", players + len(_TAIL))]
    out += [(f"{ROLE_KEY}{r.name}", players + players * players) for r in list(roles)[1:]]
    return out


def joint_row(rows: Mapping[str, np.ndarray], roles: Sequence[AtlasRole] = ()) -> np.ndarray:
    """One variant's joint feature rows ``(N, sum of block_sizes)`` from a feed's per-hand rows
    (:attr:`AtlasFeed.rows`): the feature matrix, then each role block in :func:`block_sizes` order."""
    keys = [f"{ROLE_KEY}{r.name}" for r in list(roles)[1:]]
    z, blocks = feature_matrix(rows["net"], gross=rows["gross"], staked=rows["staked"], length=rows["length"],
                               drawn=rows["drawn"], natural=rows["natural"], **{k: rows[k] for k in keys})
    return np.concatenate([z] + [blocks[k] for k in keys], axis=1)


def split_joint(joint: Mapping[str, np.ndarray], sizes: Sequence[Sequence[tuple[str, int]]],
                k: int) -> dict[str, np.ndarray]:
    """Variant ``k``'s own moments (as :func:`hand_moments` gives them) from the joint moments of a
    deal group (``n``, ``z1``, ``z2`` over the variants' joint rows side by side; ``sizes`` = each
    variant's :func:`block_sizes`)."""
    start = sum(s for part in sizes[:k] for _, s in part)
    out: dict[str, np.ndarray] = {"n": np.asarray(joint["n"])}
    z1 = np.asarray(joint["z1"], dtype=np.float64)
    z2 = np.asarray(joint["z2"], dtype=np.float64)
    at = start
    for name, size in sizes[k]:
        sl = slice(at, at + size)
        pre = "" if name == "main" else f"{name}_"
        out[f"{pre}z1"] = z1[sl].copy()
        out[f"{pre}z2"] = z2[sl, sl].copy()
        at += size
    return out


#: Measures whose interval is not the delta method's (:func:`table_measures` with a pot cut): their paired
#: difference is taken from the two intervals (:func:`independent_difference`), not the joint moments.
_NOT_DELTA = ("house_edge_staked",)


def _values(moments: Mapping[str, np.ndarray], sitting_out: Sequence[int], roles: Sequence[AtlasRole],
            pot_cut: float | None = None, confidence: float = 0.95,
            ) -> dict[tuple[str, str | None], tuple[float, str, float, float]]:
    out: dict[tuple[str, str | None], tuple[float, str, float, float]] = {}
    for r in table_measures(moments, confidence, sitting_out=sitting_out, roles=roles, pot_cut=pot_cut):
        if r["seat"] is None:
            out[(r["measure"], r.get("relative_to"))] = (float(r["value"]), r.get("method", "monte_carlo"),
                                                         float(r["ci_low"]), float(r["ci_high"]))
    return out


def paired_differences(
    joint: Mapping[str, np.ndarray],
    sizes: Sequence[Sequence[tuple[str, int]]],
    roles: Sequence[AtlasRole] = (),
    sitting_out: Sequence[Sequence[int]] | None = None,
    confidence: float = 0.95,
    pot_cuts: Sequence[float | None] | None = None,
) -> list[dict[str, Any]]:
    """Every measure without a seat of :func:`table_measures`, differenced between each pair of the
    variants of one deal group, with its paired interval.

    ``joint``: the moments of the variants' :func:`joint_row` side by side, one row per deal (every
    variant played the same deal), so the covariance between variants is in ``z2``.  For variants
    ``a < b`` and each measure, ``diff = f_a - f_b`` and its delta-method interval
    ``diff +- z sqrt(g' C g / n)``, ``C`` the joint covariance of the rows (the deal is the unit),
    ``g`` the gradient of ``f_a - f_b`` over the joint means, taken numerically (central
    differences, a step of 1e-5 of each feature's SD).  A measure exact in both variants and
    equal (a rotating role's luck after a rotation) gives ``(0, 0, 0)``, ``method='exact'``.
    ``pot_cuts``: each variant's :attr:`AtlasFeed.pot_cut`; the house's take per stake of a
    variant with a cut has an interval that is not the delta method's (:func:`table_measures`),
    so its difference is that of the two intervals (:func:`independent_difference`,
    ``method='independent'``).

    Returns
    -------
    list of dict
        ``a, b`` (variant indices), ``measure, relative_to, diff, ci_low, ci_high, method``
        (``'paired_delta'`` or ``'exact'``).

    Examples
    --------
    >>> import numpy as np
    >>> rng = np.random.default_rng(3)
    >>> w = rng.integers(0, 2, 5000)                    # one coin per deal, two settlements of it
    >>> one = np.ones(w.size)
    >>> def rows(stake):
    ...     net = np.stack([stake * (2.0 * w - 1), stake * (1 - 2.0 * w)], axis=1)
    ...     return {"net": net, "gross": net, "staked": stake * one, "length": one, "drawn": 0 * one,
    ...             "natural": 0 * one}
    >>> from kaptai.core.atlas import hand_moments, joint_row
    >>> z = np.concatenate([joint_row(rows(1.0)), joint_row(rows(2.0))], axis=1)
    >>> mom = {"n": np.array([w.size]), "z1": z.sum(axis=0), "z2": z.T @ z}
    >>> out = {r["measure"]: r for r in paired_differences(mom, [block_sizes(2), block_sizes(2)])}
    >>> d = out["exchanged"]                             # 1 against 2 on every deal: exactly -1
    >>> d["diff"], d["ci_low"], d["ci_high"]
    (-1.0, -1.0, -1.0)
    >>> s = out["seat_spread_swing_share"]               # the same luck in SDs of a hand, on the same deals
    >>> s["diff"], s["ci_low"], s["ci_high"]
    (0.0, 0.0, 0.0)
    """
    n = int(np.asarray(joint["n"]).reshape(-1)[0])
    z1 = np.asarray(joint["z1"], dtype=np.float64)
    z2 = np.asarray(joint["z2"], dtype=np.float64)
    K = len(sizes)
    sitting = [tuple(x) for x in (sitting_out or [()] * K)]
    cuts = list(pot_cuts) if pot_cuts is not None else [None] * K
    m, cov = _mean_cov(n, z1, z2)
    starts = np.cumsum([0] + [sum(s for _, s in part) for part in sizes])
    if starts[-1] != z1.size:
        raise RulesError(f"paired_differences: the blocks cover {starts[-1]} columns of {z1.size}")
    z = z_value(confidence)
    base: list[dict[tuple[str, str | None], tuple[float, str, float, float]]] = []
    grads: list[dict[tuple[str, str | None], np.ndarray]] = []
    for k in range(K):
        mom = split_joint(joint, sizes, k)
        vals = _values(mom, sitting[k], roles, cuts[k], confidence)
        base.append(vals)
        g = {key: np.zeros(z1.size) for key in vals}
        if n > 1:
            for i in range(int(starts[k]), int(starts[k + 1])):
                sd = math.sqrt(max(cov[i, i], 0.0))
                if not sd > 0:
                    continue
                h = 1e-5 * sd
                got = []
                for sign in (1.0, -1.0):
                    zz = z1.copy()
                    zz[i] += sign * h * n
                    got.append(_values(split_joint({"n": joint["n"], "z1": zz, "z2": z2}, sizes, k), sitting[k],
                                       roles, cuts[k], confidence))
                for key in vals:
                    if key in got[0] and key in got[1]:
                        g[key][i] = (got[0][key][0] - got[1][key][0]) / (2 * h)
        grads.append(g)
    rows: list[dict[str, Any]] = []
    for a in range(K):
        for b in range(a + 1, K):
            for key in base[a]:
                if key not in base[b]:
                    continue
                (va, ma, la, ha), (vb, mb, lb, hb) = base[a][key], base[b][key]
                diff = va - vb
                if ma == mb == "exact":
                    lo = hi = diff
                    method = "exact"
                elif key[0] in _NOT_DELTA and (cuts[a] or cuts[b]):
                    diff, lo, hi = independent_difference((va, la, ha), (vb, lb, hb))
                    method = "independent"
                elif n > 1 and math.isfinite(diff):
                    g = grads[a][key] - grads[b][key]
                    if not np.isfinite(g).all():
                        lo = hi = math.nan
                    else:
                        half = z * math.sqrt(max(float(g @ cov @ g) / n, 0.0))
                        lo, hi = diff - half, diff + half
                    method = "paired_delta"
                else:
                    lo = hi = math.nan
                    method = "paired_delta"
                rows.append({"a": a, "b": b, "measure": key[0], "relative_to": key[1], "diff": diff, "ci_low": lo,
                             "ci_high": hi, "method": method})
    return rows


def independent_difference(a: Sequence[float], b: Sequence[float]) -> Estimate:
    """``a - b`` of two independent estimates ``(value, ci_low, ci_high)``, with the interval of the
    difference from their own intervals (MOVER, the method of variance estimates recovery:
    ``d - sqrt((v_a - lo_a)**2 + (hi_b - v_b)**2)``, ``d + sqrt((hi_a - v_a)**2 + (v_b - lo_b)**2)``;
    for symmetric normal intervals it is the usual ``z sqrt(se_a**2 + se_b**2)``).

    Where a value or an interval end is infinite (skill that never shows, or may never show) the
    difference has no normal interval: its interval is that of the two intervals themselves,
    ``[lo_a - hi_b, hi_a - lo_b]`` (an end of ``inf - inf`` open: ``-inf`` below, ``+inf`` above), so
    it excludes 0 only where the two intervals do not overlap (the rule of :func:`kaptai.atlas.ranking`
    for infinite values); the value is ``a - b``, NaN for ``inf - inf``.

    >>> from kaptai.core.atlas import independent_difference
    >>> tuple(round(x, 4) for x in independent_difference((1.0, 0.7, 1.3), (0.5, 0.1, 0.9)))
    (0.5, 0.0, 1.0)
    >>> tuple(independent_difference((math.inf, 165.0, math.inf), (10874.0, 111.0, math.inf)))   # overlapping
    (inf, -inf, inf)
    >>> tuple(independent_difference((1699.0, 78.0, math.inf), (math.inf, 165.0, math.inf)))
    (-inf, -inf, inf)
    >>> tuple(independent_difference((math.inf, 900.0, math.inf), (50.0, 40.0, 60.0)))      # apart
    (inf, 840.0, inf)
    """
    va, la, ha = (float(x) for x in a)
    vb, lb, hb = (float(x) for x in b)

    def minus(x: float, y: float, same: float) -> float:  # x - y, with `same` for an infinity less itself
        return same if math.isinf(x) and x == y else x - y

    d = minus(va, vb, math.nan)
    if any(math.isinf(x) for x in (va, la, ha, vb, lb, hb)):
        if any(math.isnan(x) for x in (la, ha, lb, hb)):
            return Estimate(d, math.nan, math.nan)
        return Estimate(d, minus(la, hb, -math.inf), minus(ha, lb, math.inf))
    if not (math.isfinite(va) and math.isfinite(vb)):
        return Estimate(d, math.nan, math.nan)
    with np.errstate(invalid="ignore"):
        lo = d - math.sqrt((va - la) ** 2 + (hb - vb) ** 2) if not (math.isnan(la) or math.isnan(hb)) else math.nan
        hi = d + math.sqrt((ha - va) ** 2 + (vb - lb) ** 2) if not (math.isnan(ha) or math.isnan(lb)) else math.nan
    return Estimate(d, lo, hi)


_MIX = np.array([0x9E3779B97F4A7C15, 0xC2B2AE3D27D4EB4F, 0x165667B19E3779F9, 0xD6E8FEB86659FD93,
                 0xFF51AFD7ED558CCD, 0xC4CEB9FE1A85EC53, 0x94D049BB133111EB, 0xBF58476D1CE4E5B9], dtype=np.uint64)


def deal_fingerprint(*columns: np.ndarray) -> np.ndarray:
    """One int64 per hand mixing integer columns (each ``(N,)`` or ``(N, k)``): what a hand was dealt,
    for the check that the variants of a deal group play the same deals (:attr:`AtlasFeed.deal_key`).

    >>> import numpy as np
    >>> a = deal_fingerprint(np.array([1, 2]), np.array([[3, 4], [5, 6]]))
    >>> b = deal_fingerprint(np.array([1, 2]), np.array([[3, 4], [6, 5]]))
    >>> bool(a[0] == b[0]), bool(a[1] == b[1])
    (True, False)
    """
    cols = [np.asarray(c).reshape(np.asarray(c).shape[0], -1).astype(np.int64).view(np.uint64) for c in columns]
    z = np.concatenate(cols, axis=1) if cols else np.zeros((0, 0), np.uint64)
    h = np.zeros(z.shape[0], dtype=np.uint64)
    with np.errstate(over="ignore"):
        for j in range(z.shape[1]):
            h = (h ^ (z[:, j] + np.uint64(j + 1))) * _MIX[j % _MIX.size]
            h ^= h >> np.uint64(29)
    return h.view(np.int64)


def log_fingerprint(log: np.ndarray, hands: int, actions: Sequence[int], *, hand_col: int = 0, action_col: int = 4,
                    first: int = 2) -> np.ndarray:
    """One int64 per hand from the rows of an engine log whose action is in ``actions`` (columns
    ``first:``, in log order): :func:`deal_fingerprint` of what the engine dealt, vectorised.

    >>> import numpy as np
    >>> log = np.array([[0, 0, 7, 1, 0], [0, 1, 8, 1, 1], [1, 0, 7, 1, 0], [1, 1, 9, 1, 1]])
    >>> f = log_fingerprint(log, 2, (0, 1))
    >>> bool(f[0] != f[1]), bool((log_fingerprint(log, 2, (0,)) == log_fingerprint(log, 2, (0,))[0]).all())
    (True, True)
    """
    log = np.asarray(log)
    out = np.zeros(int(hands), dtype=np.uint64)
    if log.size == 0:
        return out.view(np.int64)
    sel = log[np.isin(log[:, action_col], np.asarray(actions))]
    hand = sel[:, hand_col].astype(np.int64)
    rowh = deal_fingerprint(sel[:, first:]).view(np.uint64)
    pos = np.arange(hand.size) - np.searchsorted(hand, hand, side="left") if hand.size and np.all(np.diff(hand) >= 0) \
        else np.zeros(hand.size, np.int64)
    with np.errstate(over="ignore"):
        mixed = rowh * (pos.astype(np.uint64) * np.uint64(2) + np.uint64(1)) + pos.astype(np.uint64)
        np.add.at(out, hand, mixed)
    return out.view(np.int64)
