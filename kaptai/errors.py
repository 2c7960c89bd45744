"""Exception classes of kaptai.

Every error raised at the API boundary is one of these, so callers can catch
``KaptaiError`` and the command-line interface can print the message without a
traceback.
"""

from collections.abc import Sequence
from typing import Any

__all__ = ["KaptaiError", "InvalidTileError", "InvalidHandError", "RulesError", "UsageError", "quote_token", "as_items",
           "first_repeat", "same_value"]


class KaptaiError(ValueError):
    """Base class of every kaptai input error."""


class InvalidTileError(KaptaiError):
    """A token that is not a tile (unknown name, impossible pip pair, ambiguous name)."""


class InvalidHandError(KaptaiError):
    """A hand of the wrong size, or with more copies of a tile than the sets hold."""


class RulesError(KaptaiError):
    """An unknown option, preset or player count, or an option value out of range."""


class UsageError(KaptaiError):
    """A command line that does not parse: an unknown command, game or option, or a value of
    the wrong type or out of the bounds its option declares."""


def _repr_of(obj: object) -> str:
    try:
        return repr(obj)
    except Exception:  # noqa: BLE001 - an int beyond int->str's digit limit, a broken __repr__
        if isinstance(obj, int):
            import math

            return f"<an integer of about {int(abs(obj).bit_length() * math.log10(2)) + 1} digits>"
        return f"<a {type(obj).__name__}>"


def _escape(text: str, quote: str) -> str:
    out = []
    for ch in text:
        if ch in ("\\", quote):
            out.append("\\" + ch)
        else:
            out.append(ch if ch.isprintable() else repr(ch)[1:-1])  # \x00, \u3000 ...
    return "".join(out)


def quote_token(text: object, limit: int = 40, *, quote: str = "'") -> str:
    r"""``repr`` of a (user's) token, cut to about ``limit`` characters so a message stays short.

    ``quote='"'`` puts the text between double quotes instead (the style of the card games'
    messages), ``quote=''`` shows it bare; unprintable characters are escaped as in ``repr``.
    Anything but a string is shown as its ``repr``, cut the same way (an integer too long to
    print is described by its number of digits).

    >>> from kaptai.errors import quote_token
    >>> quote_token("abc")
    "'abc'"
    >>> quote_token("9" * 5000)
    "'99999999999999999999999999999999999999…' (5000 characters)"
    >>> quote_token("3X", quote='"'), quote_token("\x00" + "x" * 99, quote='"')
    ('"3X"', '"\\x00xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx…" (100 characters)')
    >>> quote_token(10**5000), quote_token(1.5), quote_token([1] * 100)
    ('<an integer of about 5001 digits>', '1.5', '[1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1… (300 characters)')
    >>> quote_token(12, quote=""), quote_token("7/2/" + "9" * 99, quote="")
    ('12', '7/2/9999999999999999999999999999999999… (103 characters)')
    """
    if not isinstance(text, str):  # a number, a list ...: its repr, cut the same way
        r = _repr_of(text)
        return r if len(r) <= limit else r[: limit - 2] + f"… ({len(r)} characters)"
    s = text
    cut = s if len(s) <= limit else s[: limit - 2]
    if quote == "'":
        body = repr(cut)
        opening, inner, closing = body[0], body[1:-1], body[-1]
    else:
        opening, inner, closing = quote, _escape(cut, quote), quote
    if len(s) <= limit:
        return opening + inner + closing
    return opening + inner + "…" + closing + f" ({len(s)} characters)"


def as_items(obj: object, what: str = "hand", error: type[KaptaiError] = InvalidHandError) -> list:
    """The items of a sequence given for ``what`` (a hand, the cards seen, a list of plays ...),
    else ``error`` naming what was given: a user's ``None``, number or object where cards
    belong is a :class:`KaptaiError`, not Python's ``TypeError``.  Text is not split here (each
    game parses its own notation); a mapping or a set is refused too (no order to read).

    >>> from kaptai.errors import as_items
    >>> as_items((3, 1)), as_items(range(2))
    ([3, 1], [0, 1])
    >>> as_items(None, "hand")
    Traceback (most recent call last):
    ...
    kaptai.errors.InvalidHandError: hand: expected text or a sequence of cards, got NoneType None
    """
    from collections.abc import Iterable, Mapping, Set

    if isinstance(obj, (Mapping, Set, bytes, bytearray)) or not isinstance(obj, Iterable) or isinstance(obj, str):
        if isinstance(obj, str):
            return [obj]
        raise error(f"{what}: expected text or a sequence of {_items_of(what)}, got {type(obj).__name__} "
                    f"{quote_token(obj)}")
    try:
        return list(obj)
    except TypeError as exc:  # an iterable that is not (a 0-d numpy array ...)
        raise error(f"{what}: expected text or a sequence of {_items_of(what)}, got {type(obj).__name__} "
                    f"({exc})") from None


def _items_of(what: str) -> str:
    """What a sequence given for ``what`` holds, for a message (cards unless it is policies)."""
    return "policy names" if what.startswith("polic") else "cards"


def first_repeat(items: Sequence[Any]) -> Any:
    """The first item of ``items`` given a second time, else None (a list option's or argument's
    check: the second would silently win, or be dropped).

    >>> from kaptai.errors import first_repeat
    >>> first_repeat(["a", "b", "a"]), first_repeat([3, 4])
    ('a', None)
    """
    return next((x for i, x in enumerate(items) if x in items[:i]), None)


def same_value(a: Any, b: Any) -> bool:
    """Whether two settings say the same: equal values of one type, or equal numbers (4 and 4.0;
    a bool is not a number here).

    >>> from kaptai.errors import same_value
    >>> same_value(4, 4.0), same_value("4", 4), same_value(True, 1)
    (True, False, False)
    """
    return type(a) is type(b) and a == b or (isinstance(a, (int, float)) and isinstance(b, (int, float))
                                              and not isinstance(a, bool) and not isinstance(b, bool) and a == b)
