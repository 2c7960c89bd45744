"""Rule options of nine-ten (九支十仔), with the defaults of the rules page.

Every option of ``docs/rules/nine-ten.md`` (§5 ``stake_per_tou`` and the §6 readings
**[D1]-[D19]**) is a field of the frozen dataclass :class:`RuleSet`, with the page's name and
default.  One preset, ``'taiwan'`` (all defaults); any option can be changed on top of it.
The player count is not an option: it is passed next to the rules and checked by
:func:`validate_players` (4-15; 2-3 with ``allow_small_table``; 8+ only for deal statistics
unless ``large_table='ten_nine'``).

Examples
--------
>>> from kaptai.nineten.rules import RuleSet, resolve_rules, validate_players, deal_sizes
>>> r = resolve_rules(natural="no_bonus")
>>> r.natural, r.reserve, r.stake_per_tou
('no_bonus', 9, 10.0)
>>> deal_sizes(5, r), deal_sizes(9, r)
((10, 9, 66), (5, 4, 75))
>>> validate_players(9, r, play=True)
Traceback (most recent call last):
...
kaptai.errors.RulesError: 8+ players: the source rules text defines no winning hand for the dealer-5/others-4 deal
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from numbers import Integral
from types import MappingProxyType
from typing import Any

import numpy as np

from kaptai.core.options import MAX_STAKE, RuleSetMethods, allowed_text, check_bool, check_choice, check_rule_number, resolve_ruleset
from kaptai.errors import RulesError, quote_token

__all__ = ["OPTION_VALUES", "MAX_PLAYERS", "RuleSet", "PRESETS", "resolve_rules", "validate_players", "deal_sizes",
           "seat_draw"]

#: Allowed values of the options that take one of a few values (§6).
OPTION_VALUES: Mapping[str, tuple] = MappingProxyType(
    {
        "large_table": ("deal_only", "ten_nine"),
        "seat_draw_key": ("rank_colour", "colour_rank"),
        "seating": ("by_card", "random"),
        "natural": ("self_draw", "no_bonus", "redeal"),
        "flip_priority": ("flipper_first", "next_player_first"),
        "flip_win_payer": ("all", "flipper"),
        "four_colour_flip_win": ("zero", "bonus_flip"),
        "dead_card_order": ("oldest", "policy"),
        "next_dealer": ("rotate", "winner", "redraw"),
    }
)

_BOOLS = (
    "allow_small_table",
    "dealt_four_is_kaizhao",
    "discard_payer_covers_all",
    "four_colour_kaizhao_counts",
    "kaizhao_wait_also_plus1",
    "dead_cards_claimable",
)

#: Most players at one table (§2); more is always an error.
MAX_PLAYERS: int = 15
#: The largest foul penalty in 頭 (``foul_penalty_tou``): far above any hand's score.
MAX_FOUL_PENALTY: float = 1000.0


@dataclass(frozen=True)
class RuleSet(RuleSetMethods):
    """A complete, validated set of nine-ten rule options (``docs/rules/nine-ten.md``).

    Parameters
    ----------
    name : str
        Label used in tables.
    stake_per_tou : float
        Money per 頭 (§5), > 0 and at most 10^9; default 10.
    large_table : {'deal_only', 'ten_nine'}
        8-15 players (§6.1): deal statistics only (the 5/4 deal), or the 10/9 deal for 8-11.
    seat_draw_key : {'rank_colour', 'colour_rank'}
        Seat-draw order (§6.2): rank then colour, or colour then rank.
    seating : {'by_card', 'random'}
        Non-dealers sit by descending card (§6.3) or at random.
    allow_small_table : bool
        Allow 2-3 players with the 10/9 deal (§6.4).
    natural : {'self_draw', 'no_bonus', 'redeal'}
        Dealer natural (§6.5): a self-draw with bonus flip, without it, or a redeal.
    dealt_four_is_kaizhao : bool
        Four dealt copies count as 開招 (+1) (§6.6).
    flip_priority : {'flipper_first', 'next_player_first'}
        Who claims a flipped card first (§6.7).
    flip_win_payer : {'all', 'flipper'}
        Who pays a flip win (§6.8): every other player the total, or the flipper alone.
    discard_payer_covers_all : bool
        The discarder pays total × (n − 1) on a discard win (§6.8).
    four_colour_flip_win : {'zero', 'bonus_flip'}
        Four colours on another's flip (§6.9): 0, or 0 plus the bonus flip.
    four_colour_kaizhao_counts : bool
        開招 points count with four colours (§6.10).
    kaizhao_wait_also_plus1 : bool
        The final-wait 開招 earns +5 and also +1 (§6.11; T2 = 9 instead of 8).
    dead_card_order : {'oldest', 'policy'}
        Which dead card is discarded first (§6.12).
    dead_cards_claimable : bool
        A dead card can still be paired by a later claim (§6.12).
    reserve : int
        Stock cards never flipped in play (§6.13), ≥ 5 (the bonus flip needs 5).
    next_dealer : {'rotate', 'winner', 'redraw'}
        Who deals the next hand (§6.15).
    foul_penalty_tou : float
        Foul (相公) penalty in 頭 (§6.16), 0 to 1,000; not modelled: the simulator plays legally.

    Examples
    --------
    >>> from kaptai.nineten.rules import RuleSet
    >>> RuleSet().flip_priority, RuleSet().dead_cards_claimable
    ('flipper_first', True)
    >>> RuleSet(reserve=4)
    Traceback (most recent call last):
    ...
    kaptai.errors.RulesError: option 'reserve' has bad value 4: expected an integer from 5 to 100 (the bonus flip takes 5 stock cards)
    """

    name: str = "taiwan"
    stake_per_tou: float = 10.0
    large_table: str = "deal_only"
    seat_draw_key: str = "rank_colour"
    seating: str = "by_card"
    allow_small_table: bool = False
    natural: str = "self_draw"
    dealt_four_is_kaizhao: bool = False
    flip_priority: str = "flipper_first"
    flip_win_payer: str = "all"
    discard_payer_covers_all: bool = False
    four_colour_flip_win: str = "zero"
    four_colour_kaizhao_counts: bool = False
    kaizhao_wait_also_plus1: bool = False
    dead_card_order: str = "oldest"
    dead_cards_claimable: bool = True
    reserve: int = 9
    next_dealer: str = "rotate"
    foul_penalty_tou: float = 0.0

    def __post_init__(self) -> None:
        def put(name: str, value: object) -> None:
            object.__setattr__(self, name, value)

        if not isinstance(self.name, str) or not self.name.strip():
            raise RulesError(f"option 'name' has bad value {quote_token(self.name)}: expected a non-empty string")
        for opt, allowed in OPTION_VALUES.items():
            put(opt, check_choice(opt, getattr(self, opt), allowed))
        for opt in _BOOLS:
            put(opt, check_bool(opt, getattr(self, opt)))
        put("stake_per_tou", check_rule_number("stake_per_tou", self.stake_per_tou, 0, MAX_STAKE, lo_open=True))
        put("foul_penalty_tou", check_rule_number("foul_penalty_tou", self.foul_penalty_tou, 0, MAX_FOUL_PENALTY))
        put("reserve", check_rule_number("reserve", self.reserve, 5, 100, integer=True,
                                         why="the bonus flip takes 5 stock cards"))

#: Named presets (read-only mapping name -> RuleSet).
PRESETS: Mapping[str, RuleSet] = MappingProxyType({"taiwan": RuleSet()})
RuleSet._PRESETS = PRESETS


def resolve_rules(rules: RuleSet | str | Mapping[str, Any] | None = None, **overrides: Any) -> RuleSet:
    """Turn what a user passed as ``rules`` into a RuleSet.

    Parameters
    ----------
    rules : RuleSet, str, mapping or None
        None: the ``'taiwan'`` defaults; a string names a preset; a mapping gives options.
    **overrides
        Options to change on top.

    Examples
    --------
    >>> from kaptai.nineten.rules import resolve_rules
    >>> resolve_rules({"reserve": 12}).reserve
    12
    >>> resolve_rules(colour="red")  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    kaptai.errors.RulesError: unknown rule option(s) 'colour': valid options are name, stake_per_tou, ...
    """
    return resolve_ruleset(RuleSet, PRESETS, "taiwan", rules, overrides)


def validate_players(players: object, rules: RuleSet | None = None, *, play: bool = False) -> int:
    """Check a player count (§2, §6.1, §6.4) and return it as an int.

    Parameters
    ----------
    players : int
    rules : RuleSet, optional
        Default rules if None.
    play : bool
        True for play and scoring (8+ players need ``large_table='ten_nine'``, at most 11);
        False for deal statistics (4-15).

    Examples
    --------
    >>> from kaptai.nineten.rules import validate_players, RuleSet
    >>> validate_players(15)
    15
    >>> validate_players(16)
    Traceback (most recent call last):
    ...
    kaptai.errors.RulesError: nine-ten seats 4-15 players, got 16
    >>> validate_players(3)
    Traceback (most recent call last):
    ...
    kaptai.errors.RulesError: nine-ten seats 4-15 players, got 3 (2-3 need allow_small_table=True)
    >>> validate_players(12, RuleSet(large_table="ten_nine"), play=True)
    Traceback (most recent call last):
    ...
    kaptai.errors.RulesError: ten_nine needs at most 11 players, got 12
    """
    rules = RuleSet() if rules is None else rules
    if not isinstance(rules, RuleSet):
        raise RulesError(f"rules={quote_token(rules)}: expected a nine-ten RuleSet or None")
    if not isinstance(play, (bool, np.bool_)):
        raise RulesError(f"play={quote_token(play)}: expected True or False")
    lo = 2 if rules.allow_small_table else 4
    if isinstance(players, (bool, np.bool_)) or not isinstance(players, Integral):
        raise RulesError(f"nine-ten seats {lo}-{MAX_PLAYERS} players, got {quote_token(players)}")
    n = int(players)
    if n < lo or n > MAX_PLAYERS:
        extra = " (2-3 need allow_small_table=True)" if n in (2, 3) else ""
        raise RulesError(f"nine-ten seats {lo}-{MAX_PLAYERS} players, got {n}{extra}")
    if n >= 8:
        if rules.large_table == "ten_nine":
            if n > 11:
                raise RulesError(f"ten_nine needs at most 11 players, got {n}")
        elif play:
            raise RulesError("8+ players: the source rules text defines no winning hand for the dealer-5/others-4 deal")
    return n


def deal_sizes(players: int, rules: RuleSet | None = None) -> tuple[int, int, int]:
    """(dealer cards, other cards, stock after the deal) for a table (§2).

    >>> from kaptai.nineten.rules import deal_sizes, RuleSet
    >>> deal_sizes(4), deal_sizes(15), deal_sizes(11, RuleSet(large_table="ten_nine"))
    ((10, 9, 75), (5, 4, 51), (10, 9, 12))
    """
    rules = RuleSet() if rules is None else rules
    n = validate_players(players, rules)
    if n >= 8 and rules.large_table == "deal_only":
        return 5, 4, 112 - (4 * n + 1)
    return 10, 9, 112 - (9 * n + 1)


def seat_draw(cards: Any, rules: RuleSet | None = None, rng: np.random.Generator | None = None) -> list[int] | None:
    """The seat draw of §1.2: who deals and where the others sit.

    Parameters
    ----------
    cards : str or sequence
        One card per player (player ``i`` drew ``cards[i]``).
    rules : RuleSet, optional
        ``seat_draw_key`` (``'rank_colour'``: rank first, colour R > Y > G > W breaks ties;
        ``'colour_rank'``: colour first) and ``seating`` (``'by_card'``: the others sit
        counter-clockwise from the dealer in descending order of their cards; ``'random'``:
        in a random order drawn from ``rng``).
    rng : numpy.random.Generator, optional
        Needed for ``seating='random'``.

    Returns
    -------
    list of int or None
        The players in seat order counter-clockwise from the dealer (first = dealer), or
        None when two players drew identical cards (**[D18]**: redraw).

    Examples
    --------
    >>> from kaptai.nineten.rules import seat_draw
    >>> seat_draw("WE GE RK GK")          # 紅帥 > 青將 > 青象 > 白象
    [2, 3, 1, 0]
    >>> seat_draw("RE YK", RuleSet(seat_draw_key="colour_rank"))
    [0, 1]
    >>> seat_draw("RK RK GE") is None
    True
    """
    from kaptai.nineten.cards import parse_cards

    rules = RuleSet() if rules is None else rules
    kinds = list(parse_cards(cards))
    if len(set(kinds)) < len(kinds):
        return None

    def key(k: int) -> tuple[int, int]:
        colour, rank = divmod(k, 7)
        return (rank, colour) if rules.seat_draw_key == "rank_colour" else (colour, rank)

    order = sorted(range(len(kinds)), key=lambda i: key(kinds[i]))
    if rules.seating == "random":
        if rng is None:
            raise RulesError("seating='random' needs an rng")
        rest = order[1:]
        perm = rng.permutation(len(rest))
        order = [order[0]] + [rest[int(j)] for j in perm]
    return order
