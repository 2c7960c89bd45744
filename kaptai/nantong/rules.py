"""Rule options of Nantong long cards (南通長牌), with the page's defaults.

Every option of ``docs/rules/nantong.md`` (§7, rule options) is a field of
the frozen dataclass :class:`RuleSet`, with the page's name and default.  There is one preset,
``'nantong'`` (the general rules 一般通則, all defaults).

Examples
--------
>>> from kaptai.nantong.rules import RuleSet, resolve_rules
>>> r = resolve_rules(wenqian="cumulative")
>>> r.wenqian, r.potou, r.jiang_set_replacement
('cumulative', 'ceil', 0)
>>> RuleSet(potou="floor")
Traceback (most recent call last):
...
kaptai.errors.RulesError: option 'potou' has bad value 'floor': expected one of 'ceil', 'always_up'
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from types import MappingProxyType
from typing import Any

from kaptai.core.options import RuleSetMethods, allowed_text, check_bool, check_choice, check_players, resolve_ruleset
from kaptai.errors import RulesError, quote_token

__all__ = [
    "OPTION_VALUES",
    "BOOL_OPTIONS",
    "MIN_PLAYERS",
    "MAX_PLAYERS",
    "WILD_RULES_MESSAGE",
    "RuleSet",
    "PRESETS",
    "resolve_rules",
    "validate_players",
]

#: Allowed values of the options that take one of a few values (first = default).
OPTION_VALUES: Mapping[str, tuple] = MappingProxyType(
    {
        "deck": (120, 125),
        "jiang_set_replacement": (0, 3),
        "qishou": ("always", "never", "policy"),
        "discard_triplet": ("exposed", "concealed"),
        "decomposition": ("max", "min"),
        "wenqian": ("by_count", "cumulative"),
        "potou": ("ceil", "always_up"),
        "settlement": ("rank_only", "pairwise_difference", "winner_collects"),
        "tie": ("share", "completer_first", "seat_order"),
        "first_sitter": ("shangjia", "opposite", "xiajia"),
        "dreamer_shares": ("none", "with_dealer"),
        "compare": ("rounded", "raw"),
    }
)

#: Boolean options (all but ``double_before_round`` and ``nonwinner_concealed_triplets`` off).
BOOL_OPTIONS: tuple[str, ...] = (
    "tiancheng_double",
    "yazhuang_double",
    "honour_sequence",
    "jiang_same_number",
    "one_tiao_laojiang",
    "single_turn",
    "wilds",
    "four_active",
    "double_before_round",
    "nonwinner_concealed_triplets",
    "nonwinner_wenqian",
    "multi_win",
    "rob_kong",
)

#: Player counts (§2): 3 (抓鱉) or 4 (one sits out as 夢家).
MIN_PLAYERS: int = 3
MAX_PLAYERS: int = 4

#: The error of play and scoring with wild cards (§1.1).
WILD_RULES_MESSAGE: str = "wild cards (福祿壽喜財) have no rules in the source rules text"


def validate_players(players: int) -> int:
    """Check a player count (3 or 4) and return it as an int.

    >>> validate_players(3)
    3
    >>> validate_players(5)
    Traceback (most recent call last):
    ...
    kaptai.errors.RulesError: players=5 is not supported: expected an integer from 3 to 4
    """
    return check_players(players, MIN_PLAYERS, MAX_PLAYERS)


@dataclass(frozen=True)
class RuleSet(RuleSetMethods):
    """A complete, validated set of Nantong long-card rule options (§6 of the rules page).

    Parameters
    ----------
    name : str
        Label in tables and reports.
    deck : {120, 125}
        125 adds 福祿壽喜財 (deal statistics only; play and scoring raise).
    jiang_set_replacement : {0, 3}
        [D2] Replacements after exposing the 3 remaining copies of a 將: 0 (the set is a
        3-unit meld, one of the 7) or 3 (the set is 0 units and outside the 7 melds).
    qishou : {'always', 'never', 'policy'}
        [D4] Whether 起手 sets are exposed.
    tiancheng_double, yazhuang_double : bool
        [D5] Double the total of a 天成 win / of a player who announced 壓莊.
    honour_sequence : bool
        [D6] 千字-白花-紅花 is a sequence.
    jiang_same_number, one_tiao_laojiang, single_turn, wilds, four_active : bool
        [D7] Regional variants: non-老將 cards of a turned card's number are 將牌; 一條 is a
        老將; one turned card (如皋, no 雙將); wild cards (raise: no rules); 4 active players.
    discard_triplet : {'exposed', 'concealed'}
        [D8] A triplet completed by the winning discard scores as 明刻 or 暗刻.
    decomposition : {'max', 'min'}
        [D9] Which decomposition / winning-card role scores.
    wenqian : {'by_count', 'cumulative'}
        [D10] 文錢 20/50/100/200 for 1-4 groups, or cumulative 20/70/170/370.
    potou : {'ceil', 'always_up'}
        [D11] 破頭: round up to a multiple of 10 (exact tens unchanged), or always up.
    double_before_round : bool
        [D11] 葷和 doubling before the rounding (True) or after it.
    nonwinner_concealed_triplets, nonwinner_wenqian : bool
        [D12] Non-completers score concealed triplets (as 暗刻) / 文錢.
    settlement : {'rank_only', 'pairwise_difference', 'winner_collects'}
        [D13] Not given by the source: report 胡數 and the hand winner.
    tie : {'share', 'completer_first', 'seat_order'}
        [D14] Tied highest totals.
    multi_win : bool
        [D15] Several players may win on one discard (default: one winner, nearest first).
    rob_kong : bool
        [D16] 搶槓.
    reserve : int
        [D17] Cards kept back at 荒牌 (0).
    first_sitter : {'shangjia', 'opposite', 'xiajia'}
        [D19] The 4-player sitter on hand 1 relative to the dealer (then always the 上家).
    dreamer_shares : {'none', 'with_dealer'}
        [D19] Whether the sitter (夢家) shares the dealer's result in settlement.
    rounds : int
        [D20] 圈 per match (each player deals ``rounds`` times).
    compare : {'rounded', 'raw'}
        [D25] Which total decides the hand winner.

    Examples
    --------
    >>> RuleSet().qishou, RuleSet().discard_triplet, RuleSet().rounds
    ('always', 'exposed', 8)
    >>> RuleSet(wilds=True).deck
    125
    """

    name: str = "nantong"
    deck: int = 120
    jiang_set_replacement: int = 0
    qishou: str = "always"
    tiancheng_double: bool = False
    yazhuang_double: bool = False
    honour_sequence: bool = False
    jiang_same_number: bool = False
    one_tiao_laojiang: bool = False
    single_turn: bool = False
    wilds: bool = False
    four_active: bool = False
    discard_triplet: str = "exposed"
    decomposition: str = "max"
    wenqian: str = "by_count"
    potou: str = "ceil"
    double_before_round: bool = True
    nonwinner_concealed_triplets: bool = True
    nonwinner_wenqian: bool = False
    settlement: str = "rank_only"
    tie: str = "share"
    multi_win: bool = False
    rob_kong: bool = False
    reserve: int = 0
    first_sitter: str = "shangjia"
    dreamer_shares: str = "none"
    rounds: int = 8
    compare: str = "rounded"

    def __post_init__(self) -> None:
        def put(name: str, value: object) -> None:
            object.__setattr__(self, name, value)

        if not isinstance(self.name, str) or not self.name.strip():
            raise RulesError(f"option 'name' has bad value {quote_token(self.name)}: expected a non-empty string")
        for opt, allowed in OPTION_VALUES.items():
            put(opt, check_choice(opt, getattr(self, opt), allowed))
        for opt in BOOL_OPTIONS:
            put(opt, check_bool(opt, getattr(self, opt)))
        for opt, lo, hi in (("reserve", 0, 40), ("rounds", 1, 1000)):
            v = getattr(self, opt)
            if isinstance(v, bool) or not isinstance(v, int) or not lo <= v <= hi:
                raise RulesError(f"option {quote_token(opt)} has bad value {quote_token(v)}: expected an integer from {lo} to {hi}")
        if self.wilds:
            put("deck", 125)

    def check_playable(self) -> None:
        """Raise RulesError if these rules cannot be played or scored (the wild cards).

        >>> RuleSet(deck=125).check_playable()
        Traceback (most recent call last):
        ...
        kaptai.errors.RulesError: wild cards (福祿壽喜財) have no rules in the source rules text
        """
        if self.deck == 125 or self.wilds:
            raise RulesError(WILD_RULES_MESSAGE)

    def active_players(self, players: int) -> int:
        """Active players of a hand: 3, or 4 with ``four_active`` and 4 players.

        >>> RuleSet().active_players(4), RuleSet(four_active=True).active_players(4)
        (3, 4)
        """
        return 4 if (players == 4 and self.four_active) else 3


#: Named presets (read-only).
PRESETS: Mapping[str, RuleSet] = MappingProxyType({"nantong": RuleSet()})
RuleSet._PRESETS = PRESETS


def resolve_rules(rules: RuleSet | str | Mapping[str, Any] | None = None, **overrides: Any) -> RuleSet:
    """Turn what a user passed as ``rules`` into a RuleSet (None = defaults, a preset name,
    a mapping of options or a RuleSet), with options changed on top.

    >>> resolve_rules("nantong", tie="seat_order").tie
    'seat_order'
    >>> resolve_rules(colour="red")  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    kaptai.errors.RulesError: unknown rule option(s) 'colour': valid options are name, deck, ...
    """
    return resolve_ruleset(RuleSet, PRESETS, "nantong", rules, overrides)
