"""Rule options of Heaven Eleven (天牌十一), ``docs/rules/heaven-eleven.md``.

Every option of the rules page is a field of the frozen dataclass :class:`RuleSet` with the
page's name and default.  Two options are additions where the page is open or flagged:

* ``ace_points`` (1, the page's Decision in §6.2, or 11) — the ace's blackjack value;
* ``short_penalty`` (``'none'``, the page as written, or ``'symmetric'``) — §6.10 flags that a
  short declarer pays nothing beyond the origin grade while an over declarer pays
  ``m - b`` to each defender; ``'symmetric'`` makes a short declarer pay ``b - m`` to each
  defender too.

Three scoring options are proposals of the rule-design search (``kaptai design heaven-eleven``,
``docs/design.md``), not rules of the page; their defaults are the page as written:

* ``short_penalty='progressive'``: a short declarer pays each defender ``d (d + 1) / 2`` for a
  shortfall ``d = b - m`` (1, 3, 6, ...: the penalty grows with the shortfall);
  ``short_penalty='contract'``: a short declarer pays each defender ``b - m + b``: the
  shortfall plus the contract it failed (the mirror of a match, which earns ``b``);
* ``match_bonus`` (``'level'``, the page: on a match each defender pays ``m``; ``'half'``:
  ``m // 2``; ``'none'``: nothing; ``'half_capped'``: ``min(m // 2, 2)``, half the level but
  at most 2 — the finer step between ``'half'`` and ``'none'`` the search needed to bring the
  declarer's edge under adaptive bidders to 0);
* ``over_penalty`` (``'per_trick'``, the page: an over declarer pays ``m - b`` to each
  defender; ``'none'``: nothing).

Presets: ``'standard'`` (every default) and ``'symmetric'`` (``short_penalty='symmetric'``).

Examples
--------
>>> from kaptai.heaven11.rules import RuleSet, resolve_rules
>>> r = RuleSet()
>>> r.point_scheme, r.reduction, r.passout, r.short_follow, r.must_trump, r.rounds
('blackjack', 'repeat', 'redeal', 'all_led', False, 4)
>>> resolve_rules("symmetric").short_penalty
'symmetric'
>>> RuleSet().card_points()[:13].tolist()
[2, 3, 4, 5, 6, 7, 8, 9, 10, 10, 10, 10, 1]
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from types import MappingProxyType
from typing import Any

import numpy as np

from kaptai.core.options import (
    RuleSetMethods,
    allowed_text,
    check_bool,
    check_choice,
    check_players,
    check_rule_number,
    resolve_ruleset,
)
from kaptai.errors import RulesError, quote_token

__all__ = ["OPTION_VALUES", "PLAYERS", "RuleSet", "PRESETS", "resolve_rules", "validate_players"]

#: Allowed values of the options that take one of a few values.
OPTION_VALUES: Mapping[str, tuple] = MappingProxyType(
    {
        "point_scheme": ("blackjack", "rank"),
        "ace_points": (1, 11),
        "reduction": ("repeat", "once"),
        "bid_direction": ("counterclockwise", "clockwise"),
        "play_direction": ("clockwise", "counterclockwise"),
        "passout": ("redeal", "dealer_0C"),
        "short_follow": ("all_led", "free"),
        "short_penalty": ("none", "symmetric", "progressive", "contract"),
        "match_bonus": ("level", "half", "none", "half_capped"),
        "over_penalty": ("per_trick", "none"),
    }
)
#: The only player count (§6.1).
PLAYERS: int = 4
#: The most rounds of a session (``rounds``), as Nantong's match.
MAX_ROUNDS: int = 1000


def validate_players(players: object) -> int:
    """Heaven Eleven is played by exactly 4 (§6.1).

    >>> validate_players(4)
    4
    >>> validate_players(5)
    Traceback (most recent call last):
    ...
    kaptai.errors.RulesError: players=5 is not supported: expected an integer from 4 to 4
    """
    return check_players(players, PLAYERS, PLAYERS)


@dataclass(frozen=True)
class RuleSet(RuleSetMethods):
    """A validated set of Heaven Eleven options.

    Parameters
    ----------
    name : str
        Label used in tables.
    point_scheme : {'blackjack', 'rank'}
        Card points: 2-10 face value, J=Q=K=10, A=``ace_points`` (default); or ``'rank'``
        J=11, Q=12, K=13, A=14 (§1).
    ace_points : {1, 11}
        The ace under ``blackjack`` (§6.2 Decision: 1).  Ignored under ``rank``.
    reduction : {'repeat', 'once'}
        Subtract 10 while the sum exceeds 11, or only once (§3).
    bid_direction : {'counterclockwise', 'clockwise'}
    play_direction : {'clockwise', 'counterclockwise'}
        Seats are numbered clockwise; a direction says whether the next seat is ``s + 1``
        (clockwise) or ``s - 1`` (§2).
    passout : {'redeal', 'dealer_0C'}
        All four pass: redeal, or the dealer is forced to play 0♣.
    short_follow : {'all_led', 'free'}
        A follower with 1 to n-1 cards of the led suit plays all of them (default) or any n
        cards (never a trump combination).
    must_trump : bool
        A void follower holding n trumps must trump (default False: may).
    rounds : int
        Rounds of a session, 1 to 1,000 (default 4: each player deals once).
    short_penalty : {'none', 'symmetric', 'progressive', 'contract'}
        ``'none'``: the page as written; ``'symmetric'``: a short declarer (m < b) pays
        ``b - m`` to each defender, mirroring the over penalty (§6.10 alternative);
        ``'progressive'``: ``d (d + 1) / 2`` with ``d = b - m``; ``'contract'``: ``d + b``
        (proposals of the rule-design search).
    match_bonus : {'level', 'half', 'none', 'half_capped'}
        What each defender pays a declarer who makes exactly its contract (m = b): ``m`` (the
        page), ``m // 2``, nothing, or ``min(m // 2, 2)`` (proposals).
    over_penalty : {'per_trick', 'none'}
        What an over declarer (m > b) pays each defender: ``m - b`` (the page) or nothing
        (a proposal).

    Examples
    --------
    >>> RuleSet(reduction="twice")
    Traceback (most recent call last):
    ...
    kaptai.errors.RulesError: option 'reduction' has bad value 'twice': expected one of 'repeat', 'once'
    """

    name: str = "standard"
    point_scheme: str = "blackjack"
    ace_points: int = 1
    reduction: str = "repeat"
    bid_direction: str = "counterclockwise"
    play_direction: str = "clockwise"
    passout: str = "redeal"
    short_follow: str = "all_led"
    must_trump: bool = False
    rounds: int = 4
    short_penalty: str = "none"
    match_bonus: str = "level"
    over_penalty: str = "per_trick"

    def __post_init__(self) -> None:
        def put(name: str, value: object) -> None:
            object.__setattr__(self, name, value)

        if not isinstance(self.name, str) or not self.name.strip():
            raise RulesError(f"option 'name' has bad value {quote_token(self.name)}: expected a non-empty string")
        for opt, allowed in OPTION_VALUES.items():
            put(opt, check_choice(opt, getattr(self, opt), allowed))
        put("must_trump", check_bool("must_trump", self.must_trump))
        put("rounds", check_rule_number("rounds", self.rounds, 1, MAX_ROUNDS, integer=True))

    @property
    def players(self) -> int:
        """Always 4."""
        return PLAYERS

    def describe(self) -> str:
        """One option per line.

        >>> print(RuleSet().describe().splitlines()[1])
          point_scheme: blackjack
        """
        lines = [f"RuleSet {self.name!r}"]
        lines += [f"  {k}: {v}" for k, v in self.to_dict().items() if k != "name"]
        return "\n".join(lines)

    def scoring_codes(self) -> tuple[int, int, int]:
        """``(short, match, over)``: the indices of ``short_penalty``, ``match_bonus`` and
        ``over_penalty`` in :data:`OPTION_VALUES` (the engines' integer codes; 0 = the page).

        >>> RuleSet().scoring_codes(), RuleSet(short_penalty="progressive", match_bonus="none").scoring_codes()
        ((0, 0, 0), (2, 2, 0))
        >>> RuleSet(match_bonus="half_capped").scoring_codes()
        (0, 3, 0)
        """
        return (OPTION_VALUES["short_penalty"].index(self.short_penalty),
                OPTION_VALUES["match_bonus"].index(self.match_bonus),
                OPTION_VALUES["over_penalty"].index(self.over_penalty))

    def rank_points(self) -> np.ndarray:
        """Points of each rank index 0..12 (``2`` … ``A``).

        >>> RuleSet(point_scheme="rank").rank_points().tolist()
        [2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14]
        >>> RuleSet(ace_points=11).rank_points().tolist()[-1]
        11
        """
        if self.point_scheme == "rank":
            return np.arange(2, 15, dtype=np.int64)
        return np.array([2, 3, 4, 5, 6, 7, 8, 9, 10, 10, 10, 10, self.ace_points], dtype=np.int64)

    def card_points(self) -> np.ndarray:
        """Points of each card id 0..51."""
        return np.tile(self.rank_points(), 4)

    def step(self, direction: str) -> int:
        """+1 (clockwise) or -1 (counterclockwise).

        >>> RuleSet().step(RuleSet().bid_direction), RuleSet().step(RuleSet().play_direction)
        (-1, 1)
        """
        return 1 if direction == "clockwise" else -1


#: Named presets.
PRESETS: Mapping[str, RuleSet] = MappingProxyType(
    {"standard": RuleSet(), "symmetric": RuleSet(name="symmetric", short_penalty="symmetric")}
)
RuleSet._PRESETS = PRESETS


def resolve_rules(rules: RuleSet | str | Mapping[str, Any] | None = None, **overrides: Any) -> RuleSet:
    """A RuleSet from None (``'standard'``), a preset name, a mapping or a RuleSet, plus overrides.

    >>> resolve_rules({"short_follow": "free"}, must_trump=True).must_trump
    True
    >>> resolve_rules(colour="red")
    Traceback (most recent call last):
    ...
    kaptai.errors.RulesError: unknown rule option(s) 'colour': valid options are name, point_scheme, ace_points, reduction, bid_direction, play_direction, ... (13 in all: -o in --help lists them)
    """
    return resolve_ruleset(RuleSet, PRESETS, "standard", rules, overrides)
