"""Validation helpers and construction methods shared by every game's ``RuleSet``.

Each game keeps its own frozen dataclass of options (the names and defaults of
its rules page); what is the same for all of them lives here: checking a
choice, a boolean or a player count with a message that names the option, the
bad value and what was expected, and building variants (``preset``,
``replace``, ``from_dict``) with unknown option names rejected.

Examples
--------
>>> from kaptai.core.options import check_choice
>>> check_choice("claim", "any", ("previous", "any", "none"))
'any'
>>> check_choice("claim", "all", ("previous", "any", "none"))
Traceback (most recent call last):
...
kaptai.errors.RulesError: option 'claim' has bad value 'all': expected one of 'previous', 'any', 'none'
"""

from __future__ import annotations

import dataclasses
from collections.abc import Iterable, Mapping
from numbers import Integral
from typing import TYPE_CHECKING, Any, ClassVar, cast

import numpy as np

from kaptai.errors import RulesError, quote_token

__all__ = ["allowed_text", "check_choice", "check_bool", "check_players", "check_count", "check_seed", "policy_label",
           "MAX_COUNT", "MAX_STAKE", "check_rule_number",
           "parse_player_range", "parse_seat_policies", "RuleSetMethods"]


def allowed_text(values: Iterable) -> str:
    """``'a', 'b', 'c'`` — the allowed values as they appear in messages."""
    return ", ".join(repr(v) for v in values)


def check_choice(name: str, value: object, allowed: tuple) -> object:
    """``value`` if it is one of ``allowed`` (strings exactly; integers not bools), else RulesError."""
    if isinstance(allowed[0], str):
        ok = isinstance(value, str) and value in allowed
    else:
        ok = isinstance(value, Integral) and not isinstance(value, (bool, np.bool_)) and int(value) in allowed
    if not ok:
        raise RulesError(f"option {quote_token(name)} has bad value {quote_token(value)}: expected one of {allowed_text(allowed)}")
    return value if isinstance(value, str) else int(cast(Integral, value))


def check_bool(name: str, value: object) -> bool:
    """``value`` as a bool if it is a real boolean (not 'yes', not 1), else RulesError."""
    if not isinstance(value, (bool, np.bool_)):
        raise RulesError(f"option {quote_token(name)} has bad value {quote_token(value)}: expected True or False")
    return bool(value)


#: The largest run size (hands, games, matches, samples …) the API takes, as the CLI's ``--hands``.
MAX_COUNT: int = 10**12


def check_count(name: str, value: object, minimum: int = 1, maximum: int | None = MAX_COUNT) -> int:
    """``value`` as an int if it is an integer from ``minimum`` to ``maximum`` (not a bool), else
    RulesError naming it.

    Used for run sizes (hands, games, workers, sessions …); ``maximum`` (default
    :data:`MAX_COUNT`, 10^12 as the CLI's ``--hands``; None: no bound) keeps a count that no run
    could finish from overflowing a 64-bit counter deep inside an engine.

    >>> check_count("games", 10)
    10
    >>> check_count("games", 0)
    Traceback (most recent call last):
    ...
    kaptai.errors.RulesError: games=0 is not allowed: expected an integer >= 1
    >>> check_count("hands", 10**30)
    Traceback (most recent call last):
    ...
    kaptai.errors.RulesError: hands=1000000000000000000000000000000 is not allowed: expected an integer from 1 to 1,000,000,000,000
    >>> check_count("hands", "9" * 100)
    Traceback (most recent call last):
    ...
    kaptai.errors.RulesError: hands='99999999999999999999999999999999999999…' (100 characters) is not allowed: expected an integer >= 1 (got a str)
    """
    if isinstance(value, (bool, np.bool_)) or not isinstance(value, Integral):
        raise RulesError(f"{name}={quote_token(value)} is not allowed: expected an integer >= {minimum} "
                         f"(got a {type(value).__name__})")
    number = int(value)
    if number < minimum:
        raise RulesError(f"{name}={quote_token(value)} is not allowed: expected an integer >= {minimum}")
    if maximum is not None and number > maximum:
        raise RulesError(f"{name}={quote_token(value)} is not allowed: expected an integer from {minimum} to {maximum:,}")
    return number


#: The largest money stake per point (Big Two ``stake``, nine-ten ``stake_per_tou``): a billion.
MAX_STAKE: float = 1e9


def _bound_text(value: float) -> str:
    return f"{int(value):,}" if float(value).is_integer() and abs(value) < 1e15 else f"{value:g}"


def check_rule_number(name: str, value: object, lo: float, hi: float, *, integer: bool = False,
                      lo_open: bool = False, why: str | None = None) -> int | float:
    """A numeric rule option within its declared bounds, as an int (``integer``) or a float;
    else RulesError naming the option and its range (``lo_open``: ``lo`` itself is excluded;
    ``why``: the reason of the bounds, added in parentheses).

    >>> check_rule_number("rounds", 4, 1, 1000, integer=True), check_rule_number("stake", 2, 0, 1e9, lo_open=True)
    (4, 2.0)
    >>> check_rule_number("rounds", 10**30, 1, 1000, integer=True)
    Traceback (most recent call last):
    ...
    kaptai.errors.RulesError: option 'rounds' has bad value 1000000000000000000000000000000: expected an integer from 1 to 1,000
    >>> check_rule_number("stake", 0, 0, 1e9, lo_open=True)
    Traceback (most recent call last):
    ...
    kaptai.errors.RulesError: option 'stake' has bad value 0: expected a number greater than 0 and at most 1,000,000,000
    >>> check_rule_number("stake", "2", 0, 1e9, lo_open=True)
    Traceback (most recent call last):
    ...
    kaptai.errors.RulesError: option 'stake' has bad value '2': expected a number greater than 0 and at most 1,000,000,000
    """
    import math
    from numbers import Real

    what = "an integer" if integer else "a number"
    if lo_open:
        expected = f"{what} greater than {_bound_text(lo)} and at most {_bound_text(hi)}"
    else:
        expected = f"{what} from {_bound_text(lo)} to {_bound_text(hi)}"
    bad = RulesError(f"option {quote_token(name)} has bad value {quote_token(value)}: expected {expected}"
                     + (f" ({why})" if why else ""))
    if isinstance(value, (bool, np.bool_)) or not isinstance(value, Integral if integer else Real):
        raise bad
    try:
        number: int | float = int(cast(Integral, value)) if integer else float(cast(Real, value))
    except (OverflowError, ValueError):
        raise bad from None
    if not math.isfinite(number) or number > hi or (number <= lo if lo_open else number < lo):
        raise bad
    return number


def check_seed(seed: object) -> int:
    """The entropy of a run's seed (:func:`kaptai.core.sampling.seed_entropy`), RulesError if bad.

    >>> check_seed(7)
    7
    >>> check_seed(-1)
    Traceback (most recent call last):
    ...
    kaptai.errors.RulesError: seed=-1: expected a non-negative integer or None
    >>> check_seed("x")
    Traceback (most recent call last):
    ...
    kaptai.errors.RulesError: seed='x': expected a non-negative integer or None
    """
    from kaptai.core.sampling import seed_entropy

    try:
        return seed_entropy(seed)
    except RulesError:
        raise
    except (ValueError, TypeError, OverflowError) as exc:
        raise RulesError(f"seed={quote_token(seed)}: {exc}") from None


def policy_label(policy: object) -> str:
    """A stable label of a playing policy: its name if it is a string, else its ``name``
    attribute, else its class name (never a repr with a memory address, so that
    checkpoint fingerprints match across runs).

    >>> policy_label("greedy"), policy_label(object())
    ('greedy', 'object')
    """
    return policy if isinstance(policy, str) else str(getattr(policy, "name", type(policy).__name__))


def as_tuple(value: Any, single: tuple[type, ...]) -> tuple:
    """``value`` as a tuple: one item if it is of a ``single`` type (a name), else its items.

    >>> as_tuple("greedy", (str,)), as_tuple(["a", "b"], (str,)), as_tuple(4, (str,))
    (('greedy',), ('a', 'b'), (4,))
    """
    if isinstance(value, single):
        return (value,)
    if isinstance(value, Iterable):
        return tuple(value)
    return (value,)


def check_players(players: object, lo: int, hi: int) -> int:
    """A player count from ``lo`` to ``hi`` as an int, else RulesError naming it.

    >>> check_players(4, 2, 22)
    4
    >>> check_players(True, 2, 22)
    Traceback (most recent call last):
    ...
    kaptai.errors.RulesError: players=True is not supported: expected an integer from 2 to 22
    """
    if isinstance(players, (bool, np.bool_)) or not isinstance(players, Integral) or not lo <= int(players) <= hi:
        raise RulesError(f"players={quote_token(players)} is not supported: expected an integer from {lo} to {hi}")
    return int(players)


def parse_player_range(text: object, what: str = "--players") -> list[int]:
    """Player counts from ``'3-10'``, ``'3,4,6'`` or a mix (``'2-4,8'``), in the order given.

    Every part must be a whole number or a non-empty rising range; a count given twice is
    an error (it would run the same configuration twice).  The counts themselves are
    checked by the game.

    Examples
    --------
    >>> from kaptai.core.options import parse_player_range
    >>> parse_player_range("3-5,8")
    [3, 4, 5, 8]
    >>> parse_player_range("3-1")
    Traceback (most recent call last):
    ...
    kaptai.errors.RulesError: --players '3-1': the range 3-1 is empty (write the smaller count first, e.g. 1-3)
    """
    if isinstance(text, (list, tuple)):
        parts = list(text)
        if not parts:
            raise RulesError(f"{what}: expected at least one player count")
        return [check_count(what.lstrip("-"), p, 0) for p in parts]
    if not isinstance(text, str):
        raise RulesError(f"{what} {quote_token(text)}: expected a range like 3-10 or a list like 3,4,6")
    out: list[int] = []
    shown = quote_token(text)
    for part in text.split(","):
        part = part.strip()
        lo, sep, hi = part.partition("-")
        try:
            if len(lo) > 12 or len(hi) > 12:  # no game seats 10^12 players
                raise ValueError
            a = int(lo)
            b = int(hi) if sep else a
        except ValueError:
            raise RulesError(f"{what} {shown}: {quote_token(part)} is not a count or a range (expected a range like 3-10 "
                             "or a list like 3,4,6)") from None
        if b < a:
            raise RulesError(f"{what} {shown}: the range {a}-{b} is empty (write the smaller count first, e.g. {b}-{a})")
        if b - a > 1000:
            raise RulesError(f"{what} {shown}: the range {a}-{b} is too long")
        for p in range(a, b + 1):
            if p in out:
                raise RulesError(f"{what} {shown}: {p} players is given twice")
            out.append(p)
    return out


def parse_seat_policies(text: object, players: int, default: str = "greedy", what: str = "--policy",
                        seats_text: str | None = None) -> str | list[str]:
    """``'greedy'`` (every seat) or ``'SEAT=POLICY,...'`` (other seats ``default``).

    Returns the name itself for one policy, else one name per seat.  A seat that does not
    exist, is not a number, or is given twice is an error (the second would silently win);
    ``seats_text`` says which seats exist in that error (default: "with N players (seats 0-N-1)").

    Examples
    --------
    >>> from kaptai.core.options import parse_seat_policies
    >>> parse_seat_policies("random", 4), parse_seat_policies("0=score,2=random", 3)
    ('random', ['score', 'greedy', 'random'])
    >>> parse_seat_policies("0=score,0=random", 4)
    Traceback (most recent call last):
    ...
    kaptai.errors.RulesError: --policy: seat 0 is given twice ('score' and 'random')
    """
    if not isinstance(text, str) or not text.strip():
        raise RulesError(f"{what} {quote_token(text)}: expected a policy name or SEAT=POLICY,...")
    if "=" not in text:
        return text.strip()
    seats = [default] * players
    given: dict[int, str] = {}
    for item in text.split(","):
        seat, eq, name = item.partition("=")
        name = name.strip()
        try:
            index = int(seat)
        except ValueError:
            raise RulesError(f"{what}: {quote_token(seat)} is not a seat number (expected SEAT=POLICY, seat 0 = dealer)") from None
        if not eq or not name:
            raise RulesError(f"{what}: {quote_token(item)} names no policy (expected SEAT=POLICY)")
        if not 0 <= index < players:
            raise RulesError(f"{what}: seat {quote_token(index)} does not exist "
                             + (seats_text or f"with {players} players (seats 0-{players - 1})"))
        if index in given:
            raise RulesError(f"{what}: seat {index} is given twice ({quote_token(given[index])} and {quote_token(name)})")
        given[index] = name
        seats[index] = name
    return seats


class RuleSetMethods:
    """Construction methods of a frozen rules dataclass.

    The dataclass sets ``_PRESETS`` (a mapping name -> instance) after its
    module defines the presets.
    """

    _PRESETS: Mapping[str, Any] = {}

    if TYPE_CHECKING:
        # set by @dataclass on every rules class that uses these methods
        __dataclass_fields__: ClassVar[dict[str, dataclasses.Field[Any]]]
    def __new__(cls, *args: Any, **kwargs: Any):
        # unknown option names are a RulesError naming them, not Python's TypeError
        if kwargs:
            cls._check_names(kwargs)
        if len(args) > len(cls.option_names()):
            raise RulesError(f"{cls.__name__} takes at most {len(cls.option_names())} options, got {len(args)}")
        return super().__new__(cls)

    @classmethod
    def option_names(cls) -> tuple[str, ...]:
        """Names of all options, in field order.

        >>> from kaptai.kts.rules import RuleSet
        >>> RuleSet.option_names()[:3]
        ('name', 'forms', 'settlement')
        """
        return tuple(f.name for f in dataclasses.fields(cls))

    @classmethod
    def _check_names(cls, overrides: Mapping[str, Any]) -> None:
        valid = cls.option_names()
        unknown = [k for k in overrides if k not in valid]
        if unknown:
            import difflib

            close = [m for k in unknown if isinstance(k, str) for m in difflib.get_close_matches(k, valid, 2, 0.7)]
            listed = ", ".join(valid)
            if len(listed) > 80:  # the line stays short: -o's --help lists every option with its default
                listed = listed[: listed.rfind(", ", 0, 80)] + f", ... ({len(valid)} in all: -o in --help lists them)"
            raise RulesError(
                f"unknown rule option(s) {', '.join(quote_token(k) for k in unknown)}: "
                + (f"did you mean {' or '.join(map(repr, dict.fromkeys(close)))}? " if close else "")
                + f"valid options are {listed}"
            )

    @classmethod
    def preset(cls, name: str, /, **overrides: Any):
        """A named preset, optionally with options changed (the name is kept unless
        ``name=`` is given).

        >>> from kaptai.kts.rules import RuleSet
        >>> RuleSet.preset("advanced", house_cut=0.05).house_cut
        0.05
        """
        if not isinstance(name, str) or name not in cls._PRESETS:
            raise RulesError(f"unknown preset {quote_token(name)}: expected one of {allowed_text(cls._PRESETS)}")
        return cls._PRESETS[name].replace(**overrides)

    def to_dict(self) -> dict[str, Any]:
        """JSON-friendly dict of all options (a game whose options are not JSON values overrides it).

        >>> from kaptai.bigtwo.rules import RuleSet
        >>> RuleSet().to_dict()["chao"]
        'standard'
        """
        return {f.name: getattr(self, f.name) for f in dataclasses.fields(self)}

    def describe(self) -> str:
        """One option per line.

        >>> from kaptai.nineten.rules import RuleSet
        >>> print(RuleSet().describe().splitlines()[1])
          stake_per_tou: 10.0
        """
        name = getattr(self, "name", type(self).__name__)
        return "\n".join([f"RuleSet {name!r}"] + [f"  {k}: {v}" for k, v in self.to_dict().items() if k != "name"])

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]):
        """Rebuild a ruleset from its ``to_dict()`` output.

        >>> from kaptai.kts.rules import RuleSet
        >>> r = RuleSet.preset("advanced")
        >>> RuleSet.from_dict(r.to_dict()) == r
        True
        """
        cls._check_names(data)
        return cls(**dict(data))

    def replace(self, **overrides: Any):
        """A copy with some options changed (validated again); unknown names are an error.

        >>> from kaptai.kts.rules import RuleSet
        >>> RuleSet().replace(claim="any").claim
        'any'
        """
        self._check_names(overrides)
        # validate once: an option set to the value it already has (same type) changes nothing
        overrides = {k: v for k, v in overrides.items()
                     if not (type(v) is type(getattr(self, k)) and v == getattr(self, k))}
        if not overrides:
            return self
        return dataclasses.replace(self, **overrides)


def resolve_ruleset(cls: Any, presets: Mapping[str, Any], default: str, rules: Any, overrides: Mapping[str, Any]) -> Any:
    """The body of every game's ``resolve_rules``: a RuleSet of class ``cls`` from None (the
    ``default`` preset), a preset name, a RuleSet or a mapping, with ``overrides`` applied.

    >>> from kaptai.kts.rules import PRESETS, RuleSet
    >>> resolve_ruleset(RuleSet, PRESETS, "traditional", "advanced", {"dice": 4}).dice
    4
    """
    if rules is None:
        return presets[default].replace(**overrides)
    if isinstance(rules, str):
        return cls.preset(rules, **overrides)
    if isinstance(rules, cls):
        return rules.replace(**overrides)
    if isinstance(rules, Mapping):
        return cls.from_dict(rules).replace(**overrides)
    raise RulesError(
        f"rules must be a RuleSet, a preset name ({allowed_text(presets)}), a mapping or None, "
        f"got {type(rules).__name__} {quote_token(rules)}"
    )
