"""Engine configuration of Heaven Eleven (天牌十一): constants, tables and integer option codes.

Everything an engine needs is validated here once and handed to the compiled engine as
integers and contiguous arrays (no string option is decoded inside a ``.pyx``).  The engine is
specified in ``docs/heaven-eleven-engine.md``.

Examples
--------
>>> from kaptai.heaven11.config import make_config
>>> cfg = make_config(rules={"short_follow": "free"}, samples=8)
>>> cfg.short_free, cfg.samples, cfg.play_step, cfg.bid_step
(1, 8, 1, -1)
>>> int(cfg.beat[0x1C00]), int(cfg.beat[1 << 12])   # Q-K-A beats the other 285 triples, A the 12 singles
(285, 12)
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

from kaptai.errors import KaptaiError, RulesError, as_items, quote_token
from kaptai.heaven11.evaluate import key_tables
from kaptai.heaven11.rules import RuleSet, resolve_rules

__all__ = [
    "ACTIONS", "LOG_COLUMNS", "PLAY_POLICIES", "PLAY_CODES", "BID_POLICIES", "BID_CODES", "BID_OFFSETS",
    "FIRST_LEADERS", "MAX_REDEALS", "SEARCH_SAMPLES", "SEARCH_KEEP", "BID_SAMPLES", "SEARCH_ATTEMPTS", "SEARCH_INFER", "SEARCH_EPS", "SEARCH_TRUNC", "OUTCOME_DTYPES", "LEAD_WEIGHT", "HCP", "HCP_BUCKETS",
    "IllegalPlayError", "EngineConfig", "make_config", "new_outcomes", "check_policies", "check_bidding",
    "default_bid_table",
]

#: Log actions by code.
ACTIONS: tuple[str, ...] = ("deal", "bid", "pass", "passout", "forced", "lead", "follow", "win", "score")
#: Columns of a log row (int64).
LOG_COLUMNS: tuple[str, ...] = ("hand", "step", "seat", "action", "cards", "value")
#: Built-in play policies by code.
PLAY_POLICIES: tuple[str, ...] = ("random", "greedy", "rollout", "search")
PLAY_CODES: Mapping[str, int] = {n: i for i, n in enumerate(PLAY_POLICIES)}
#: Built-in bidding policies by code, and the level offset each adds to the expected origin grade.
BID_POLICIES: tuple[str, ...] = ("expected", "underbid", "overbid", "never", "search")
BID_CODES: Mapping[str, int] = {n: i for i, n in enumerate(BID_POLICIES)}
BID_OFFSETS: tuple[int, ...] = (0, -1, 1, 0, 0)
#: Search play: the layouts drawn per decision by default, and how many candidates (the best of the
#: first stage) are judged on all of them (``docs/heaven-eleven-engine.md``, "search").
SEARCH_SAMPLES: int = 48
SEARCH_KEEP: int = 6
#: Search bidding: layouts per call by default.
BID_SAMPLES: int = 24
#: Attempts per layout to draw one consistent with the voids and the auction.
SEARCH_ATTEMPTS: int = 100
#: default of ``make_config(search_infer=)`` (1: weight the search's layouts by the plays so far); off:
#: measured not to pay (docs/heaven-eleven.md, "Inference from the plays")
SEARCH_INFER: int = 0
#: the greedy style's error rate in the search's inference (docs/heaven-eleven-engine.md)
SEARCH_EPS: float = 0.5
#: truncated importance weights: no layout weighs more than this times the mean weight (0 = no cap)
SEARCH_TRUNC: float = 2.0
#: Who leads the first play: the declarer (the rules) or the next seat in play order (an experiment).
FIRST_LEADERS: tuple[str, ...] = ("declarer", "next")
#: A deal passed out under ``passout='redeal'`` is redealt at most this many times; the dealer
#: then plays 0♣ as under ``dealer_0C``.
MAX_REDEALS: int = 100
#: Greedy lead weights: beat count x weight = beat fraction x 87780 (87780 = lcm(12, 77, 285)).
LEAD_WEIGHT: tuple[int, ...] = (0, 7315, 1140, 308)
#: High-card points of each rank index (A 4, K 3, Q 2, J 1), used by the bidding features.
HCP: tuple[int, ...] = (0, 0, 0, 0, 0, 0, 0, 0, 0, 1, 2, 3, 4)
#: Number of high-card-point buckets (bucket = min(hcp // 2, 19)).
HCP_BUCKETS: int = 20
#: Outcome arrays: name -> (dtype, per seat?).
OUTCOME_DTYPES: Mapping[str, tuple[str, bool]] = {
    "dealer": ("int8", False),
    "declarer": ("int8", False),
    "level": ("int8", False),
    "strain": ("int8", False),
    "forced": ("int8", False),
    "redeals": ("int16", False),
    "draw": ("int8", False),
    "plays": ("int8", False),
    "tricks": ("int8", True),
    "finals": ("int16", True),
    "hands": ("int64", True),
}


class IllegalPlayError(KaptaiError):
    """A policy chose a play or a bid the rules do not allow; the message names it."""


def default_bid_table() -> np.ndarray:
    """The expected-tricks table of the bidding policies: int16 ``(2, 14, 20)`` in tenths of a trick.

    ``[0, L, h]``: the declarer's mean tricks with a suit strain when holding ``L`` trumps and
    ``h = min(hcp // 2, 19)``; ``[1, L, h]``: in NT with longest suit ``L``.  Learned by
    :func:`kaptai.heaven11.learn.learn_bid_table` (greedy play, fixed contracts) and stored in
    :mod:`kaptai.heaven11._bid_table`.
    """
    from kaptai.heaven11._bid_table import TABLE

    t = np.array(TABLE, dtype=np.int16).reshape(2, 14, HCP_BUCKETS)
    t.setflags(write=False)
    return t


@dataclass(frozen=True, eq=False)
class EngineConfig:
    """A validated table for the engines (rules, tables, option codes).

    Attributes
    ----------
    rules : RuleSet
    key : numpy.ndarray
        int32 key of each 13-bit rank set (-1 if not 1-3 ranks).
    beat : numpy.ndarray
        int32: how many rank sets of the same size each set beats (greedy leads).
    bid_table : numpy.ndarray
        int16 ``(2, 14, 20)`` expected tricks in tenths (bidding policies).
    samples : int
        Rollout samples per decision.
    search_samples : int
        Layouts per decision of the ``search`` play policy.
    bid_samples : int
        Layouts per call of the ``search`` bidding policy.
    search_infer : int
        1: the ``search`` play policy weights its layouts by the plays so far; 0: uniform.
    play_step, bid_step : int
        +1 / -1.
    passout_0c, short_free, must_trump, symmetric : int
        0/1 option codes.
    scoring : tuple of 3 int
        ``(short_penalty, match_bonus, over_penalty)`` codes
        (:meth:`kaptai.heaven11.rules.RuleSet.scoring_codes`; ``(0, 0, 0)`` the page as written).
    first_leader : int
        Index in :data:`FIRST_LEADERS`.
    first_dealer : int
        -1 = drawn at random (the rules), else that seat.
    contract : tuple or None
        ``(level, strain)``: skip the auction, the dealer is the declarer (training, tests).
    """

    rules: RuleSet
    key: np.ndarray
    beat: np.ndarray
    bid_table: np.ndarray
    samples: int
    search_samples: int
    bid_samples: int
    search_infer: int
    play_step: int
    bid_step: int
    passout_0c: int
    short_free: int
    must_trump: int
    symmetric: int
    scoring: tuple
    first_leader: int
    first_dealer: int
    contract: tuple | None

    @property
    def players(self) -> int:
        return 4

    def fingerprint(self) -> dict[str, Any]:
        """JSON-friendly identity (checkpoints)."""
        return {"rules": self.rules.to_dict(), "samples": self.samples, "search_samples": self.search_samples,
                "bid_samples": self.bid_samples, "search_infer": self.search_infer, "first_leader": FIRST_LEADERS[self.first_leader],
                "first_dealer": self.first_dealer, "contract": list(self.contract) if self.contract else None,
                "bid_table": int(np.asarray(self.bid_table, dtype=np.int64).sum())}


def _beat_table(key: np.ndarray) -> np.ndarray:
    pop = np.array([bin(m).count("1") for m in range(8192)])
    beat = np.full(8192, -1, dtype=np.int32)
    for n in (1, 2, 3):
        sel = np.nonzero(pop == n)[0]
        ks = key[sel]
        srt = np.sort(ks)
        beat[sel] = np.searchsorted(srt, ks, side="left")
    return beat


def make_config(players: int | None = None, rules: RuleSet | str | Mapping | None = None, *, samples: int = 16,
                search_samples: int = SEARCH_SAMPLES, bid_samples: int = BID_SAMPLES, search_infer: int = SEARCH_INFER,
                first_leader: str = "declarer",
                first_dealer: int | None = None, contract: Any = None,
                bid_table: np.ndarray | None = None) -> EngineConfig:
    """Validate a table.

    Parameters
    ----------
    players : int, optional
        Must be 4 if given.
    rules : RuleSet, preset name, mapping or None
    samples : int
        Rollout samples per decision (>= 1).
    search_samples : int
        Layouts per decision of the ``search`` play policy (>= 1; the first ``max(1, S // 4)``
        judge every candidate, all ``S`` the best :data:`SEARCH_KEEP`).
    bid_samples : int
        Layouts per call of the ``search`` bidding policy (>= 1).
    search_infer : {0, 1}
        1: the ``search`` play policy weights each layout by the likelihood of the other seats'
        plays so far under a mixture of greedy and random play (``docs/heaven-eleven-engine.md``);
        0: every layout weighs the same.
    first_leader : {'declarer', 'next'}
        ``'next'``: the seat after the declarer leads the first play (to measure the value of
        leading first; not a rule of the page).
    first_dealer : int, optional
        Fix the first dealer (default: drawn at random, the first draw of a run).
    contract : str or (level, strain), optional
        Skip the auction: the dealer declares this contract.
    bid_table : array, optional
        Replace the learned expected-tricks table.

    Examples
    --------
    >>> make_config(samples=0)
    Traceback (most recent call last):
    ...
    kaptai.errors.RulesError: samples=0 is not allowed: expected an integer >= 1
    """
    from kaptai.core.options import check_count
    from kaptai.heaven11.cards import parse_bid
    from kaptai.heaven11.rules import validate_players

    if players is not None:
        validate_players(players)
    rules = resolve_rules(rules)
    samples = check_count("samples", samples, 1)
    search_samples = check_count("search_samples", search_samples, 1)
    bid_samples = check_count("bid_samples", bid_samples, 1)
    if isinstance(search_infer, bool) or not isinstance(search_infer, (int, np.integer)) or search_infer not in (0, 1):
        raise RulesError(f"search_infer={quote_token(search_infer)} is not allowed: expected 0 or 1")
    if first_leader not in FIRST_LEADERS:
        raise RulesError(f"first_leader={quote_token(first_leader)} is not allowed: expected one of 'declarer', 'next'")
    if first_dealer is None:
        fd = -1
    elif isinstance(first_dealer, (int, np.integer)) and not isinstance(first_dealer, bool) and 0 <= first_dealer < 4:
        fd = int(first_dealer)
    else:
        raise RulesError(f"first_dealer={quote_token(first_dealer)} is not allowed: expected a seat 0-3 or None")
    if contract is not None:
        if not isinstance(contract, (str, tuple, list)):
            raise RulesError(f"contract={quote_token(contract)}: expected a bid such as '4S' or (level, strain)")
        c = parse_bid(contract if isinstance(contract, (str, tuple)) else tuple(contract))
        if c is None:
            raise RulesError("contract=PASS is not allowed: give a bid such as '0C'")
        contract = c
    _, _, key = key_tables(rules)
    beat = _beat_table(key)
    beat.setflags(write=False)
    try:
        table = default_bid_table() if bid_table is None else np.ascontiguousarray(bid_table, dtype=np.int16)
    except (TypeError, ValueError, OverflowError):
        raise RulesError(f"bid_table={quote_token(bid_table)}: expected an integer array of shape "
                         f"(2, 14, {HCP_BUCKETS})") from None
    if table.shape != (2, 14, HCP_BUCKETS):
        raise RulesError(f"bid_table must have shape (2, 14, {HCP_BUCKETS}), got {table.shape}")
    return EngineConfig(
        rules=rules, key=key, beat=beat, bid_table=table, samples=samples,
        search_samples=search_samples, bid_samples=bid_samples, search_infer=int(search_infer),
        play_step=rules.step(rules.play_direction), bid_step=rules.step(rules.bid_direction),
        passout_0c=int(rules.passout == "dealer_0C"), short_free=int(rules.short_follow == "free"),
        must_trump=int(rules.must_trump), symmetric=int(rules.short_penalty == "symmetric"),
        scoring=rules.scoring_codes(),
        first_leader=FIRST_LEADERS.index(first_leader), first_dealer=fd, contract=contract,
    )


def new_outcomes(hands: int) -> dict[str, np.ndarray]:
    """Zeroed outcome arrays (:data:`OUTCOME_DTYPES`).

    >>> new_outcomes(2)["tricks"].shape
    (2, 4)
    """
    return {k: np.zeros((hands, 4) if per else hands, dtype=dt) for k, (dt, per) in OUTCOME_DTYPES.items()}


def check_policies(policies: Any) -> list:
    """One play policy per seat: built-in names (:data:`PLAY_POLICIES`) or objects with ``play(view)``.

    >>> check_policies("greedy")
    ['greedy', 'greedy', 'greedy', 'greedy']
    >>> check_policies(["greedy", "best", "greedy", "greedy"])
    Traceback (most recent call last):
    ...
    kaptai.errors.RulesError: unknown policy 'best' for seat 1: expected one of 'random', 'greedy', 'rollout', 'search' or a kaptai.heaven11.policies.Policy
    """
    if isinstance(policies, str) or not isinstance(policies, Sequence):
        policies = [policies] * 4
    policies = list(policies)
    if len(policies) != 4:
        raise RulesError(f"got {len(policies)} policies for 4 players: give one, or one per seat")
    for seat, p in enumerate(policies):
        if isinstance(p, str):
            if p not in PLAY_CODES:
                raise RulesError(f"unknown policy {quote_token(p)} for seat {seat}: expected one of "
                                 + ", ".join(repr(n) for n in PLAY_POLICIES) + " or a kaptai.heaven11.policies.Policy")
        elif not callable(getattr(p, "play", None)):
            raise RulesError(f"policy for seat {seat} ({p!r}) has no play(view) method")
    return policies


def check_bidding(bidding: Any) -> list[str]:
    """One bidding policy name per seat (:data:`BID_POLICIES`).

    >>> check_bidding(["expected", "underbid", "expected", "never"])
    ['expected', 'underbid', 'expected', 'never']
    """
    if isinstance(bidding, str):
        bidding = [bidding] * 4
    bidding = as_items(bidding, "bidding", RulesError)
    if len(bidding) != 4:
        raise RulesError(f"got {len(bidding)} bidding policies for 4 players: give one, or one per seat")
    for seat, b in enumerate(bidding):
        if b not in BID_CODES:
            raise RulesError(f"unknown bidding policy {quote_token(b)} for seat {seat}: expected one of "
                             + ", ".join(repr(n) for n in BID_POLICIES))
    return bidding
