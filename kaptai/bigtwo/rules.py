"""Rule options of Big Two (鋤大D), with the Hong Kong defaults.

Every option of ``docs/rules/big-two.md`` is a field of the frozen dataclass :class:`RuleSet`,
with the page's name and default.  The page defines no named variants beyond "defaults follow
the Hong Kong game", so there is one preset, ``'hong_kong'`` (all defaults); any option can be
set on top of it.

The orders that options change are exposed as arrays indexed by card id (see
:mod:`kaptai.bigtwo.cards`): :meth:`RuleSet.rank_strength`, :meth:`RuleSet.suit_strength`
and :meth:`RuleSet.card_strength` (single-card order, rank then suit).

Examples
--------
>>> from kaptai.bigtwo.rules import RuleSet, resolve_rules
>>> r = resolve_rules(suit_order="bridge", straight_order="poker")
>>> r.suit_order, r.straight_order, r.top_rank
('taiwan', 'poker', '2')
>>> RuleSet(players=3, malaysian_3p=True).deal_sizes()
(17, 1)
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from numbers import Integral
from types import MappingProxyType
from typing import Any, Literal, get_args

import numpy as np

from kaptai.bigtwo.cards import RANKS
from kaptai.core.options import (
    MAX_STAKE,
    RuleSetMethods,
    allowed_text,
    check_bool,
    check_choice,
    check_players,
    check_rule_number,
    resolve_ruleset,
)
from kaptai.errors import RulesError, quote_token

__all__ = [
    "OPTION_VALUES",
    "STRAIGHT_ORDERS",
    "FIRST_LEADS",
    "TOP_RULES",
    "REDEALS",
    "SETTLEMENTS",
    "MIN_PLAYERS",
    "MAX_PLAYERS",
    "RuleSet",
    "PRESETS",
    "resolve_rules",
    "validate_players",
]

# The options that take one of a few values (§1-§5): each declares its values once, as a
# Literal whose arguments, in this order, are also the integer codes compiled code reads.
SuitOrder = Literal["hk", "taiwan", "bridge"]
FirstLead = Literal["lowest_card", "previous_winner"]
StraightOrder = Literal["hk", "sequential", "poker", "wheel_top", "broadway_top"]
StraightSuitCard = Literal["highest_single", "sequence_top"]
FlushCompare = Literal["rank_first", "suit_first"]
QuadKicker = Literal["required", "optional"]
FourCardPlay = Literal["none", "quad", "quad_or_two_pair"]
TopRule = Literal["liability", "mandatory", "off"]
Redeal = Literal["points_lt_3", "hk_max10", "literal_min10", "off"]
Scoring = Literal["count", "points"]
WinnerBonus = Literal[0, 5, 10]
Settlement = Literal["place", "winner_takes_all"]
Bankroll = Literal["off", "capped"]
FIRST_LEADS: tuple[FirstLead, ...] = get_args(FirstLead)
TOP_RULES: tuple[TopRule, ...] = get_args(TopRule)
REDEALS: tuple[Redeal, ...] = get_args(Redeal)
SETTLEMENTS: tuple[Settlement, ...] = get_args(Settlement)

#: Allowed values of the options that take one of a few values (§1-§5).  ``suit_order``
#: ``'bridge'`` is accepted as an alias of ``'taiwan'`` (§6.2) and stored as ``'taiwan'``.
OPTION_VALUES: Mapping[str, tuple] = MappingProxyType(
    {
        "suit_order": get_args(SuitOrder),
        "first_lead": FIRST_LEADS,
        "straight_order": get_args(StraightOrder),
        "straight_suit_card": get_args(StraightSuitCard),
        "flush_compare": get_args(FlushCompare),
        "quad_kicker": get_args(QuadKicker),
        "four_card_play": get_args(FourCardPlay),
        "top_rule": TOP_RULES,
        "redeal": REDEALS,
        "scoring": get_args(Scoring),
        "winner_bonus": get_args(WinnerBonus),
        "settlement": SETTLEMENTS,
        "bankroll": get_args(Bankroll),
    }
)

#: The ``straight_order`` values, in the page's order.
STRAIGHT_ORDERS: tuple[StraightOrder, ...] = get_args(StraightOrder)

_BOOLS = (
    "malaysian_3p",
    "opening_must_include_lowest",
    "two_pair_five",
    "pass_only_if_unable",
    "pass_locks_out",
    "instant_dragon",
    "instant_four_twos",
    "points_chao",
)

#: Player counts (§2).
MIN_PLAYERS: int = 2
MAX_PLAYERS: int = 52

#: Named 炒 tables (§5): card counts from which the multiplier becomes x2, x3, x4.
_CHAO_TABLES = {"standard": (10, 13), "eight": (8, 10, 13)}


_allowed = allowed_text


def validate_players(players: int) -> int:
    """Check a player count (2-52) and return it as an int.

    Examples
    --------
    >>> from kaptai.bigtwo.rules import validate_players
    >>> validate_players(4)
    4
    >>> validate_players(53)
    Traceback (most recent call last):
    ...
    kaptai.errors.RulesError: players=53 is not supported: expected an integer from 2 to 52
    """
    return check_players(players, MIN_PLAYERS, MAX_PLAYERS)


def _parse_chao(value: object) -> tuple[int, ...]:
    if isinstance(value, str) and value in _CHAO_TABLES:
        return _CHAO_TABLES[value]
    msg = (
        f"option 'chao' has bad value {quote_token(value)}: expected 'standard', 'eight' or thresholds "
        f"such as '8/11/13' (card counts from which x2, x3, x4 apply; increasing, 1-13)"
    )
    if not isinstance(value, str):
        raise RulesError(msg)
    parts = value.split("/")
    try:
        nums = tuple(int(p) for p in parts)
    except ValueError:
        raise RulesError(msg) from None
    if not 1 <= len(nums) <= 3 or any(not 1 <= n <= 13 for n in nums) or any(
        a >= b for a, b in zip(nums, nums[1:])
    ):
        raise RulesError(msg)
    return nums


@dataclass(frozen=True)
class RuleSet(RuleSetMethods):
    """A complete, validated set of Big Two rule options (``docs/rules/big-two.md``).

    Parameters
    ----------
    name : str
        Label used in tables and reports.
    players : int
        Player count N, 2-52 (§2).
    top_rank : str
        Highest rank; the cycle ``3 … A 2`` is rotated so this rank is on top (``'3'``:
        4 < … < A < 2 < 3).  Any rank, written as in card notation (``'T'``/``'10'``).
    suit_order : {'hk', 'taiwan', 'bridge'}
        ♠♥♣♦ (Hong Kong) or ♠♥♦♣ (Taiwan; ``'bridge'`` is an alias, stored as ``'taiwan'``).
    malaysian_3p : bool
        Three players: the leftover card lies face down; the ♦3 holder may swap (§2).
        Needs ``players=3``.
    first_lead : {'lowest_card', 'previous_winner'}
    opening_must_include_lowest : bool
    straight_order : {'hk', 'sequential', 'poker', 'wheel_top', 'broadway_top'}
        Which five-rank runs are straights and their order (§3).
    straight_suit_card : {'highest_single', 'sequence_top'}
        Card whose suit breaks a tie between equal straights.
    flush_compare : {'rank_first', 'suit_first'}
    quad_kicker : {'required', 'optional'}
        ``'optional'``: a bare quad counts as the five-card four-of-a-kind.
    four_card_play : {'none', 'quad', 'quad_or_two_pair'}
        A separate four-card trick type.  Not combinable with ``quad_kicker='optional'``.
    two_pair_five : bool
        Two pairs + 1 is a five-card category below the straight.
    pass_only_if_unable, pass_locks_out : bool
        Passing rules (§4).
    top_rule : {'liability', 'mandatory', 'off'}
        頂大 (blocking) when the next seat holds one card.
    instant_dragon, instant_four_twos : bool
        Instant wins 一條龍 and 四字D.
    redeal : {'points_lt_3', 'hk_max10', 'literal_min10', 'off'}
        Which dealt hands may ask for a redeal.
    scoring : {'count', 'points'}
    chao : str
        炒 table: ``'standard'``, ``'eight'`` or custom thresholds like ``'8/11/13'``.
    points_chao : bool
        Apply 炒 under ``scoring='points'``.
    winner_bonus : {0, 5, 10}
    settlement : {'place', 'winner_takes_all'}
        Place (四人互算) or 獨贏.
    stake : float
        Money per point, > 0 and at most 10^9 (``MAX_STAKE``).
    bankroll : {'off', 'capped'}
        Graduation (畢業).

    Raises
    ------
    RulesError
        Naming the option, the bad value and the allowed values.

    Examples
    --------
    >>> from kaptai.bigtwo.rules import RuleSet
    >>> RuleSet().straight_order, RuleSet().flush_compare, RuleSet().quad_kicker
    ('hk', 'rank_first', 'required')
    >>> RuleSet(top_rank="10").top_rank
    'T'
    >>> RuleSet(four_card_play="quad", quad_kicker="optional")
    Traceback (most recent call last):
    ...
    kaptai.errors.RulesError: four_card_play='quad' cannot be combined with quad_kicker='optional' (a bare quad would be both a four-card and a five-card play)
    """

    name: str = "hong_kong"
    players: int = 4
    top_rank: str = "2"
    suit_order: SuitOrder = "hk"
    malaysian_3p: bool = False
    first_lead: FirstLead = "lowest_card"
    opening_must_include_lowest: bool = True
    straight_order: StraightOrder = "hk"
    straight_suit_card: StraightSuitCard = "highest_single"
    flush_compare: FlushCompare = "rank_first"
    quad_kicker: QuadKicker = "required"
    four_card_play: FourCardPlay = "none"
    two_pair_five: bool = False
    pass_only_if_unable: bool = False
    pass_locks_out: bool = False
    top_rule: TopRule = "liability"
    instant_dragon: bool = False
    instant_four_twos: bool = False
    redeal: Redeal = "points_lt_3"
    scoring: Scoring = "count"
    chao: str = "standard"
    points_chao: bool = False
    winner_bonus: WinnerBonus = 0
    settlement: Settlement = "place"
    stake: float = 1.0
    bankroll: Bankroll = "off"

    def __post_init__(self) -> None:
        def put(name: str, value: object) -> None:
            object.__setattr__(self, name, value)

        if not isinstance(self.name, str) or not self.name.strip():
            raise RulesError(f"option 'name' has bad value {quote_token(self.name)}: expected a non-empty string")
        put("players", validate_players(self.players))
        tr = self.top_rank
        if isinstance(tr, Integral) and not isinstance(tr, (bool, np.bool_)):
            tr = str(int(tr))
        key = tr.strip().upper() if isinstance(tr, str) else None
        if key == "10":
            key = "T"
        if key is None or len(key) != 1 or key not in RANKS:
            raise RulesError(
                f"option 'top_rank' has bad value {quote_token(self.top_rank)}: expected a rank "
                f"({' '.join(RANKS)}; 10 = T)"
            )
        put("top_rank", key)
        for opt, allowed in OPTION_VALUES.items():
            put(opt, check_choice(opt, getattr(self, opt), allowed))
        if self.suit_order == "bridge":
            put("suit_order", "taiwan")
        for opt in _BOOLS:
            put(opt, check_bool(opt, getattr(self, opt)))
        if isinstance(self.chao, Integral) and not isinstance(self.chao, (bool, np.bool_)):
            put("chao", str(int(self.chao)))  # '-o chao=13' arrives as the number 13: one threshold
        _parse_chao(self.chao)
        put("stake", check_rule_number("stake", self.stake, 0, MAX_STAKE, lo_open=True))
        if self.four_card_play != "none" and self.quad_kicker == "optional":
            raise RulesError(
                f"four_card_play={self.four_card_play!r} cannot be combined with quad_kicker='optional' "
                f"(a bare quad would be both a four-card and a five-card play)"
            )
        if self.malaysian_3p and self.players != 3:
            raise RulesError(f"malaysian_3p=True needs players=3, got players={self.players}")

    # ---------------------------------------------------------------- construction

    # ---------------------------------------------------------------- views

    def describe(self) -> str:
        """Human-readable summary, one option per line.

        >>> print(RuleSet().describe().splitlines()[2])
          top_rank: 2
        """
        lines = [f"RuleSet {self.name!r}"]
        lines += [f"  {k}: {v}" for k, v in self.to_dict().items() if k != "name"]
        return "\n".join(lines)

    @property
    def chao_thresholds(self) -> tuple[int, ...]:
        """Card counts from which the 炒 multiplier becomes x2, x3 (, x4).

        >>> RuleSet().chao_thresholds, RuleSet(chao="eight").chao_thresholds
        ((10, 13), (8, 10, 13))
        """
        return _parse_chao(self.chao)

    def chao_multiplier(self, cards_left: int) -> int:
        """炒 multiplier for a player left with ``cards_left`` cards (§5).

        >>> [RuleSet(chao="8/11/13").chao_multiplier(c) for c in (0, 7, 8, 10, 11, 13)]
        [1, 1, 2, 2, 3, 4]
        """
        return 1 + sum(cards_left >= t for t in self.chao_thresholds)

    def deal_sizes(self) -> tuple[int, int]:
        """Cards dealt to each player and the undealt remainder r = 52 mod N (§2).

        >>> RuleSet(players=5).deal_sizes()
        (10, 2)
        """
        return divmod(52, self.players)

    def rank_strength(self) -> np.ndarray:
        """Strength 0-12 of each natural rank index (0 = ``3`` … 12 = ``2``) under ``top_rank``.

        >>> RuleSet(top_rank="3").rank_strength()[:3].tolist()
        [12, 0, 1]
        """
        t = RANKS.index(self.top_rank)
        return np.array([(r - t - 1) % 13 for r in range(13)], dtype=np.int64)

    def suit_strength(self) -> np.ndarray:
        """Strength 0-3 of each suit index (D C H S) under ``suit_order``.

        >>> RuleSet().suit_strength().tolist(), RuleSet(suit_order="taiwan").suit_strength().tolist()
        ([0, 1, 2, 3], [1, 0, 2, 3])
        """
        return np.array([0, 1, 2, 3] if self.suit_order == "hk" else [1, 0, 2, 3], dtype=np.int64)

    def card_strength(self) -> np.ndarray:
        """Single-card strength 0-51 of each card id: rank, then suit.

        >>> s = RuleSet().card_strength()
        >>> int(s[0]), int(s[51])
        (0, 51)
        """
        rs, ss = self.rank_strength(), self.suit_strength()
        ids = np.arange(52)
        return 4 * rs[ids >> 2] + ss[ids & 3]

    def lowest_card(self) -> int:
        """Id of the lowest card under the active orders (♦3 by default; §6.9).

        >>> RuleSet().lowest_card(), RuleSet(suit_order="taiwan").lowest_card()
        (0, 1)
        """
        return int(np.argmin(self.card_strength()))


#: Named presets (read-only mapping name -> RuleSet).
PRESETS: Mapping[str, RuleSet] = MappingProxyType({"hong_kong": RuleSet()})
RuleSet._PRESETS = PRESETS


def resolve_rules(rules: RuleSet | str | Mapping[str, Any] | None = None, **overrides: Any) -> RuleSet:
    """Turn what a user passed as ``rules`` into a RuleSet.

    Parameters
    ----------
    rules : RuleSet, str, mapping or None
        None means the ``'hong_kong'`` defaults; a string names a preset; a mapping gives
        options; a RuleSet is used as is.
    **overrides
        Options to change on top.

    Examples
    --------
    >>> from kaptai.bigtwo.rules import resolve_rules
    >>> resolve_rules({"flush_compare": "suit_first"}).flush_compare
    'suit_first'
    >>> resolve_rules(colour="red")
    Traceback (most recent call last):
    ...
    kaptai.errors.RulesError: unknown rule option(s) 'colour': valid options are name, players, top_rank, suit_order, malaysian_3p, first_lead, ... (26 in all: -o in --help lists them)
    """
    return resolve_ruleset(RuleSet, PRESETS, "hong_kong", rules, overrides)
