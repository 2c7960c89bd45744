"""Rule options of Kap Tai Shap (夾大十) and Kap Shap (夾十), with named presets.

Every option of ``docs/rules/kap-tai-shap.md`` is a field of the frozen dataclass
:class:`RuleSet`, with the page's name and default.  Two presets follow §9:
``'traditional'`` (the pot game, basic form only) and ``'advanced'`` (all five forms,
per-score payments, dealer keeps the deal on a win).  Any option can be set on top of a
preset.

The module also holds the player-count tables of §2: sets (副) per player count, hand
sizes, the number of groups ``n`` and the number of dice thrown for the first hand (先手).

Examples
--------
>>> from kaptai.kts.rules import RuleSet, resolve_rules, sets_for_players
>>> rules = resolve_rules("advanced", settlement="pot")
>>> rules.settlement, sorted(rules.forms) == sorted(RuleSet.preset("advanced").forms)
('pot', True)
>>> [sets_for_players(p) for p in (2, 4, 7, 10, 11, 22)]
[1, 2, 3, 4, 5, 8]
"""

from __future__ import annotations

import dataclasses
import math
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from numbers import Integral, Real
from types import MappingProxyType
from typing import Any, Literal, get_args

import numpy as np

from kaptai.core.options import RuleSetMethods, allowed_text, check_bool, check_choice, check_players, resolve_ruleset
from kaptai.errors import RulesError, quote_token
from kaptai.kts.tiles import MAX_SETS as _MAX_SETS
from kaptai.kts.tiles import TILES_PER_SET, run_values

__all__ = [
    "FORMS",
    "OPTION_VALUES",
    "FORM_BITS",
    "forms_mask",
    "SETTLEMENTS",
    "DRAWN_HANDS",
    "CLAIMS",
    "TURNS",
    "DICE",
    "GEE_JOON_RUN_VALUES",
    "BASE_COMBINATIONS",
    "MIN_PLAYERS",
    "MAX_PLAYERS",
    "MAX_SETS",
    "RuleSet",
    "PRESETS",
    "resolve_rules",
    "settlement_unit",
    "validate_players",
    "sets_for_players",
    "half_groups",
    "hand_sizes",
    "check_deal",
    "n_dice",
]

#: Winning forms (§3), in the page's order.
Form = Literal["basic", "general_eyes", "run4", "run6", "run8"]
FORMS: tuple[Form, ...] = get_args(Form)
#: Bit of each form in the integer form mask the compiled code reads (defined once here).
FORM_BITS: Mapping[str, int] = MappingProxyType({f: 1 << i for i, f in enumerate(FORMS)})

# The string (and small-integer) options: each declares its values once, as a Literal
# whose arguments, in this order, are also the integer codes handed to compiled code.
Settlement = Literal["pot", "advanced"]
DrawnHand = Literal["refund", "carry"]
Claim = Literal["previous", "any", "none"]
Turn = Literal["claim-then-draw", "claim-or-draw"]
Dice = Literal[3, 4]
GeeJoonRunValue = Literal[6, 3]
BaseCombination = Literal["max", "sum"]
SETTLEMENTS: tuple[Settlement, ...] = get_args(Settlement)
DRAWN_HANDS: tuple[DrawnHand, ...] = get_args(DrawnHand)
CLAIMS: tuple[Claim, ...] = get_args(Claim)
TURNS: tuple[Turn, ...] = get_args(Turn)
DICE: tuple[Dice, ...] = get_args(Dice)
GEE_JOON_RUN_VALUES: tuple[GeeJoonRunValue, ...] = get_args(GeeJoonRunValue)
BASE_COMBINATIONS: tuple[BaseCombination, ...] = get_args(BaseCombination)

#: Allowed values of the options that take one of a few values.
OPTION_VALUES: Mapping[str, tuple] = MappingProxyType(
    {
        "settlement": SETTLEMENTS,
        "drawn_hand": DRAWN_HANDS,
        "claim": CLAIMS,
        "turn": TURNS,
        "dice": DICE,
        "gee_joon_run_value": GEE_JOON_RUN_VALUES,
        "base_combination": BASE_COMBINATIONS,
    }
)


def forms_mask(forms: Iterable[str]) -> int:
    """The integer form mask of a set of forms (:data:`FORM_BITS`).

    >>> forms_mask({"basic", "run4"})
    5
    """
    return sum(FORM_BITS[f] for f in set(forms))


#: Smallest and largest supported player counts.
MIN_PLAYERS: int = 2
MAX_PLAYERS: int = 22
#: Largest accepted ``sets`` option (:data:`kaptai.kts.tiles.MAX_SETS`: what a hand may need).
MAX_SETS: int = _MAX_SETS


_allowed = allowed_text


def _normalise_forms(value: object) -> frozenset[str]:
    if isinstance(value, str):
        items: list = [s for s in (p.strip() for p in value.split(",")) if s]
    elif isinstance(value, Iterable):
        items = list(value)
    else:
        raise RulesError(
            f"option 'forms' has bad value {quote_token(value)}: expected a non-empty collection (or a "
            f"comma-separated string) of {_allowed(FORMS)}"
        )
    out = set()
    for item in items:
        key = item.strip().lower().replace("-", "_").replace(" ", "_") if isinstance(item, str) else item
        if key not in FORMS:
            raise RulesError(
                f"option 'forms' has unknown form {quote_token(item)}: expected some of {_allowed(FORMS)}"
            )
        out.add(key)
    if not out:
        raise RulesError(
            f"option 'forms' is empty ({quote_token(value)}): expected at least one of {_allowed(FORMS)}"
        )
    return frozenset(out)


def _check_choice(name: str, value: object) -> object:
    return check_choice(name, value, OPTION_VALUES[name])


_check_bool = check_bool


@dataclass(frozen=True)
class RuleSet(RuleSetMethods):
    """A complete, validated set of rule options.

    Parameters
    ----------
    name : str
        Label used in tables and reports.  Not changed by overrides; pass ``name=`` to
        label a variant.
    forms : frozenset of str
        Winning forms allowed (§3), a non-empty subset of :data:`FORMS`.  Any iterable of
        form names or a comma-separated string is accepted and normalised.  ``run8`` needs
        n = 4 groups, so it never applies in Kap Shap (two players).
    settlement : {'pot', 'advanced'}
        Pot (傳統彩池制) or per-score payments (進階計分制), §6.
    house_cut : float
        House cut 0-1: of the pot, or of the winner's gross receipts under advanced
        settlement.
    dealer_keeps_on_win : bool
        Dealer streak (連莊): a winning dealer keeps the deal, §5.6.
    drawn_hand : {'refund', 'carry'}
        Exhausted wall (流局): antes returned, or rolled into the next pot.
    claim : {'previous', 'any', 'none'}
        Who may claim (搶牌) a discard, §8.
    turn : {'claim-then-draw', 'claim-or-draw'}
        Turn structure, §8.
    keep_drawn : bool
        Whether a drawn tile that does not win may be kept (another tile discarded).
    dice : {3, 4}
        3: the source rule, 3 dice, 4 from 9 players, 2 in Kap Shap.  4: Culin's reading,
        4 dice always, taken literally, so also in Kap Shap.
    gee_joon_run_value : {6, 3}
        Value of 2-4 in runs.
    base_combination : {'max', 'sum'}
        How the bases of several applicable special hands combine (§4).
    sets : int or None
        Number of sets (副), 1-8; None uses the §2 table for the player count.

    Raises
    ------
    RulesError
        Naming the option, the bad value and the allowed values.

    Examples
    --------
    >>> from kaptai.kts.rules import RuleSet
    >>> r = RuleSet(forms="basic, run4", house_cut=0)
    >>> sorted(r.forms), r.house_cut
    (['basic', 'run4'], 0.0)
    >>> RuleSet(dice=5)
    Traceback (most recent call last):
    ...
    kaptai.errors.RulesError: option 'dice' has bad value 5: expected one of 3, 4
    """

    name: str = "traditional"
    forms: frozenset[str] = field(default=frozenset({"basic"}))
    settlement: Settlement = "pot"
    house_cut: float = 0.05
    dealer_keeps_on_win: bool = False
    drawn_hand: DrawnHand = "refund"
    claim: Claim = "previous"
    turn: Turn = "claim-then-draw"
    keep_drawn: bool = True
    dice: Dice = 3
    gee_joon_run_value: GeeJoonRunValue = 6
    base_combination: BaseCombination = "max"
    sets: int | None = None

    def __post_init__(self) -> None:
        def put(name: str, value: object) -> None:
            object.__setattr__(self, name, value)

        if not isinstance(self.name, str) or not self.name.strip():
            raise RulesError(f"option 'name' has bad value {quote_token(self.name)}: expected a non-empty string")
        put("forms", _normalise_forms(self.forms))
        for opt in OPTION_VALUES:
            put(opt, _check_choice(opt, getattr(self, opt)))

        cut = self.house_cut
        if (
            isinstance(cut, (bool, np.bool_))
            or not isinstance(cut, Real)
            or not math.isfinite(float(cut))
            or not 0.0 <= float(cut) <= 1.0
        ):
            raise RulesError(
                f"option 'house_cut' has bad value {quote_token(cut)}: expected a number from 0 to 1 inclusive"
            )
        put("house_cut", float(cut))

        for opt in ("dealer_keeps_on_win", "keep_drawn"):
            put(opt, _check_bool(opt, getattr(self, opt)))

        sets = self.sets
        if sets is not None:
            if (
                isinstance(sets, (bool, np.bool_))
                or not isinstance(sets, Integral)
                or not 1 <= sets <= MAX_SETS
            ):
                raise RulesError(
                    f"option 'sets' has bad value {quote_token(sets)}: expected None (the table for the "
                    f"player count) or an integer 1-{MAX_SETS}"
                )
            put("sets", int(sets))

    # ---------------------------------------------------------------- construction

    # ---------------------------------------------------------------- views

    def to_dict(self) -> dict[str, Any]:
        """JSON-friendly dict of all options; ``forms`` as a list in :data:`FORMS` order.

        Examples
        --------
        >>> from kaptai.kts.rules import RuleSet
        >>> d = RuleSet.preset("advanced").to_dict()
        >>> d["forms"], d["house_cut"], d["sets"]
        (['basic', 'general_eyes', 'run4', 'run6', 'run8'], 0.0, None)
        """
        out = {f.name: getattr(self, f.name) for f in dataclasses.fields(self)}
        out["forms"] = [f for f in FORMS if f in self.forms]
        return out

    def describe(self) -> str:
        """Human-readable summary, one option per line.

        Examples
        --------
        >>> from kaptai.kts.rules import RuleSet
        >>> print(RuleSet().describe().splitlines()[1])
          forms: basic
        """
        d = self.to_dict()
        lines = [f"RuleSet {self.name!r}"]
        for key, value in d.items():
            if key == "name":
                continue
            if key == "forms":
                value = ", ".join(value)
            elif key == "sets" and value is None:
                value = "table for the player count"
            lines.append(f"  {key}: {value}")
        return "\n".join(lines)

    def sets_for(self, players: int) -> int:
        """Number of sets in play: the ``sets`` option, or the §2 table.

        Examples
        --------
        >>> from kaptai.kts.rules import RuleSet
        >>> RuleSet().sets_for(5), RuleSet(sets=2).sets_for(5)
        (3, 2)
        """
        p = validate_players(players)
        return self.sets if self.sets is not None else sets_for_players(p)

    def run_values(self) -> np.ndarray:
        """Run-values of the 21 tiles under this ruleset's ``gee_joon_run_value``.

        Examples
        --------
        >>> from kaptai.kts.rules import RuleSet
        >>> int(RuleSet(gee_joon_run_value=3).run_values()[19])
        3
        """
        return run_values(self.gee_joon_run_value)


#: The presets of §9 (read-only mapping name -> RuleSet).
PRESETS: Mapping[str, RuleSet] = MappingProxyType(
    {
        "traditional": RuleSet(),
        "advanced": RuleSet(
            name="advanced",
            forms=frozenset(FORMS),
            settlement="advanced",
            house_cut=0.0,
            dealer_keeps_on_win=True,
            drawn_hand="refund",
        ),
    }
)
RuleSet._PRESETS = PRESETS


def resolve_rules(rules: RuleSet | str | Mapping[str, Any] | None = None, **overrides: Any) -> RuleSet:
    """Turn what a user passed as ``rules`` into a RuleSet.

    Parameters
    ----------
    rules : RuleSet, str, mapping or None
        None means the ``'traditional'`` preset; a string names a preset; a mapping is read
        with :meth:`RuleSet.from_dict`; a RuleSet is used as is.
    **overrides
        Options to change on top.

    Returns
    -------
    RuleSet

    Raises
    ------
    RulesError
        For an unknown preset (the message lists the presets), option or value.

    Examples
    --------
    >>> from kaptai.kts.rules import resolve_rules
    >>> resolve_rules().name, resolve_rules("advanced").settlement
    ('traditional', 'advanced')
    >>> resolve_rules("fast")
    Traceback (most recent call last):
    ...
    kaptai.errors.RulesError: unknown preset 'fast': expected one of 'traditional', 'advanced'
    """
    return resolve_ruleset(RuleSet, PRESETS, "traditional", rules, overrides)


# --------------------------------------------------------------------------------------
# Player counts (§2)
# --------------------------------------------------------------------------------------


def settlement_unit(settlement: str | None, *, singular: bool = False) -> str:
    """The unit a table's results are counted in under ``settlement``: antes under the pot
    settlement, points under advanced scoring (a point is paid by each loser); one ante or one
    point with ``singular``.  The one spelling of this rule: :func:`kaptai.kts.records.unit_of`
    (a record's and the review's unit), the league's tables and plots and the report's
    sentences all ask it.

    >>> settlement_unit("pot"), settlement_unit("advanced"), settlement_unit("advanced", singular=True)
    ('antes', 'points', 'point')
    >>> settlement_unit(resolve_rules("traditional").settlement, singular=True)
    'ante'
    """
    unit = "point" if settlement == "advanced" else "ante"
    return unit if singular else unit + "s"


def game_name(players: int) -> str:
    """'kap-shap' for two players (夾十), else 'kap-tai-shap': the label of a run's tables.

    >>> game_name(2), game_name(4)
    ('kap-shap', 'kap-tai-shap')
    """
    return "kap-shap" if players == 2 else "kap-tai-shap"


def validate_players(players: int) -> int:
    """Check a player count and return it as an int.

    Raises
    ------
    RulesError
        Unless ``players`` is an integer (not a bool) from 2 to 22.

    Examples
    --------
    >>> from kaptai.kts.rules import validate_players
    >>> validate_players(4)
    4
    >>> validate_players(1)
    Traceback (most recent call last):
    ...
    kaptai.errors.RulesError: players=1 is not supported: expected an integer from 2 to 22
    """
    return check_players(players, MIN_PLAYERS, MAX_PLAYERS)


def sets_for_players(players: int) -> int:
    """Sets (副) used by default for a player count, per the §2 table.

    2 -> 1 (Kap Shap), 3-4 -> 2, 5-7 -> 3, 8-10 -> 4, more: ``2 + ceil((players - 4) / 3)``.

    Examples
    --------
    >>> from kaptai.kts.rules import sets_for_players
    >>> [sets_for_players(p) for p in range(2, 14)]
    [1, 2, 2, 3, 3, 3, 4, 4, 4, 5, 5, 5]
    """
    p = validate_players(players)
    if p == 2:
        return 1
    return 2 + math.ceil((p - 4) / 3)


def half_groups(players: int) -> int:
    """Number of ten-pair-sized groups ``n``: 3 in Kap Shap (2 players), else 4.

    A winning hand has ``2n + 2`` tiles.

    Examples
    --------
    >>> from kaptai.kts.rules import half_groups
    >>> half_groups(2), half_groups(5)
    (3, 4)
    """
    return 3 if validate_players(players) == 2 else 4


def hand_sizes(players: int) -> tuple[int, int]:
    """Dealt hand sizes (first hand, every other player): (8, 7) in Kap Shap, else (10, 9).

    Examples
    --------
    >>> from kaptai.kts.rules import hand_sizes
    >>> hand_sizes(2), hand_sizes(4)
    ((8, 7), (10, 9))
    """
    n = half_groups(players)
    return (2 * n + 2, 2 * n + 1)


def check_deal(players: int, rules: RuleSet | str | Mapping[str, Any] | None = None) -> None:
    """Check that the deal fits in the sets in play.

    Parameters
    ----------
    players : int
        Player count, 2-22.
    rules : RuleSet, str or None
        Rules (see :func:`resolve_rules`); only ``sets`` matters.

    Raises
    ------
    RulesError
        If the deal needs more tiles than ``32 * sets``; the message names both numbers.

    Examples
    --------
    >>> from kaptai.kts.rules import check_deal, RuleSet
    >>> check_deal(4)
    >>> check_deal(4, RuleSet(sets=1))
    Traceback (most recent call last):
    ...
    kaptai.errors.RulesError: 4 players need 37 tiles for the deal (10 + 3 x 9) but 1 set holds only 32
    """
    rules = resolve_rules(rules)
    p = validate_players(players)
    first, other = hand_sizes(p)
    needed = first + other * (p - 1)
    sets = rules.sets_for(p)
    available = TILES_PER_SET * sets
    if needed > available:
        noun = "set holds" if sets == 1 else "sets hold"
        raise RulesError(
            f"{p} players need {needed} tiles for the deal ({first} + {p - 1} x {other}) "
            f"but {sets} {noun} only {available}"
        )


def n_dice(players: int, rules: RuleSet | str | Mapping[str, Any] | None = None) -> int:
    """Number of dice the dealer throws to pick the first hand (先手).

    With ``dice=3`` (the source): 2 in Kap Shap, 3 for 3-8 players, 4 from 9 players.
    With ``dice=4``: 4 always, two players included.

    Examples
    --------
    >>> from kaptai.kts.rules import n_dice
    >>> n_dice(2), n_dice(8), n_dice(9), n_dice(2, {"dice": 4})
    (2, 3, 4, 4)
    """
    rules = resolve_rules(rules)
    p = validate_players(players)
    if rules.dice == 4 or p >= 9:
        return 4
    if p == 2:
        return 2
    return 3
