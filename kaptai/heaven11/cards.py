"""Cards, bids and notation of Heaven Eleven (天牌十一), ``docs/rules/heaven-eleven.md`` §1.

A card is an integer id ``0..51``: ``id = 13 * suit + rank`` with ``rank`` ``0..12`` for
``2 3 4 5 6 7 8 9 T J Q K A`` (low -> high) and ``suit`` ``0..3`` for ``C D H S``
(♣ ♦ ♥ ♠, the bidding order of the strains).  Strain ``4`` is NT (無王, no trump).  The cards
of suit ``s`` in a 52-bit hand mask are the 13 bits ``(mask >> 13 * s) & 0x1FFF``, one bit per
rank, which is what the evaluator and the engine work on.

A bid is ``(level, strain)`` with level ``0..9``; its integer code ``5 * level + strain``
(``0..49``) orders the bids (a higher code beats a lower one).  ``None`` is a pass.

Errors name the token and its 1-based position (§1).

Examples
--------
>>> from kaptai.heaven11.cards import parse_cards, format_cards, parse_bid, format_bid
>>> ids = parse_cards("KS as ♥5 10d")
>>> format_cards(ids)
'KS AS 5H TD'
>>> parse_bid("3♣"), format_bid(parse_bid("0nt")), parse_bid("pass")
((3, 0), '0NT', None)
>>> parse_tricks("7/2/2/2")
(7, 2, 2, 2)
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from numbers import Integral

import numpy as np

from kaptai.errors import InvalidHandError, KaptaiError, as_items, quote_token

__all__ = [
    "InvalidCardError",
    "InvalidBidError",
    "InvalidCombinationError",
    "InvalidTricksError",
    "InvalidRecordError",
    "RANKS",
    "SUITS",
    "SUIT_SYMBOLS",
    "STRAINS",
    "NT",
    "N_CARDS",
    "DECK",
    "MAX_LEVEL",
    "card",
    "card_rank",
    "card_suit",
    "parse_card",
    "parse_cards",
    "parse_hand",
    "parse_combination",
    "format_card",
    "format_cards",
    "parse_bid",
    "format_bid",
    "bid_code",
    "bid_from_code",
    "parse_tricks",
    "check_tricks",
    "format_tricks",
    "parse_score_record",
    "cards_to_mask",
    "mask_to_cards",
    "suit_ranks",
]


class InvalidCardError(KaptaiError):
    """A token that is not a card (unknown rank or suit, missing part)."""


class InvalidBidError(KaptaiError):
    """A token that is not a bid (level outside 0-9, unknown strain)."""


class InvalidCombinationError(KaptaiError):
    """A set of cards that is not a combination (not 1-3 cards, not one suit)."""


class InvalidTricksError(KaptaiError):
    """A trick vector that cannot occur (not four non-negative integers summing to 13)."""


class InvalidRecordError(KaptaiError):
    """A scoring record that is not ``bid=<bid> tricks=t0/t1/t2/t3``."""


#: Ranks low -> high (index = rank number).
RANKS: str = "23456789TJQKA"
#: Suit letters by suit index: the strain order ♣ < ♦ < ♥ < ♠.
SUITS: str = "CDHS"
#: Suit symbols by suit index.
SUIT_SYMBOLS: str = "♣♦♥♠"
#: Strain names by strain index (4 = NT, no trump).
STRAINS: tuple[str, ...] = ("C", "D", "H", "S", "NT")
#: Strain index of no trump.
NT: int = 4
#: Number of cards.
N_CARDS: int = 52
#: Every card id.
DECK: tuple[int, ...] = tuple(range(N_CARDS))
#: Highest bid level (13 - 4, the declarer's highest origin grade).
MAX_LEVEL: int = 9

_SUIT_OF = {
    "C": 0, "D": 1, "H": 2, "S": 3,
    "♣": 0, "♦": 1, "♥": 2, "♠": 3,
    "♧": 0, "♢": 1, "♡": 2, "♤": 3,
}
_RANK_OF = {r: i for i, r in enumerate(RANKS)}
_RANK_OF["10"] = RANKS.index("T")
_SPLIT = re.compile(r"[\s,]+")
_STRAIN_OF = {"C": 0, "D": 1, "H": 2, "S": 3, "NT": 4, "N": 4, "♣": 0, "♦": 1, "♥": 2, "♠": 3,
              "♧": 0, "♢": 1, "♡": 2, "♤": 3}



def _q(text: object) -> str:
    """A bad token between double quotes, cut to about 40 characters (:func:`kaptai.errors.quote_token`)."""
    return quote_token(text, quote='"')

def card(rank: int, suit: int) -> int:
    """Card id of ``rank`` (0 = ``2`` … 12 = ``A``) and ``suit`` (0-3 = C D H S).

    >>> format_card(card(12, 3))
    'AS'
    """
    return 13 * int(suit) + int(rank)


def card_rank(card_id: int) -> int:
    """Rank index of a card (0 = ``2`` … 12 = ``A``).

    >>> card_rank(51)
    12
    """
    return int(card_id) % 13


def card_suit(card_id: int) -> int:
    """Suit index of a card (0-3 = C D H S).

    >>> card_suit(51)
    3
    """
    return int(card_id) // 13


def _clean(token: str) -> str:
    return token.replace("\ufe0f", "").replace("\ufe0e", "").strip().upper()


def parse_card(token: str, position: int = 1) -> int:
    """Parse one card token: rank + suit in either order, case-insensitive.

    Raises
    ------
    InvalidCardError
        Naming the token, its position and the bad part.

    Examples
    --------
    >>> parse_card("KS"), parse_card("♠k"), parse_card("10h")
    (50, 50, 34)
    >>> parse_card("1H", 4)
    Traceback (most recent call last):
    ...
    kaptai.heaven11.cards.InvalidCardError: invalid card "1H" (token 4): unknown rank "1"
    >>> parse_card("5X", 2)
    Traceback (most recent call last):
    ...
    kaptai.heaven11.cards.InvalidCardError: invalid card "5X" (token 2): unknown suit "X"
    """
    if not isinstance(token, str):
        raise InvalidCardError(f"invalid card {quote_token(token)} (token {position}): expected a string such as \"KS\"")
    raw = token.replace("\ufe0f", "").replace("\ufe0e", "").strip()
    t = raw.upper()

    def bad(why: str) -> InvalidCardError:
        return InvalidCardError(f'invalid card {_q(token)} (token {position}): {why}')

    if not t:
        raise bad("empty token")
    if t[-1] in _SUIT_OF:
        suit, rank_s, shown = _SUIT_OF[t[-1]], t[:-1], raw[:-1]
    elif t[0] in _SUIT_OF:
        suit, rank_s, shown = _SUIT_OF[t[0]], t[1:], raw[1:]
    else:
        for r in ("10",) + tuple(RANKS):
            if t.startswith(r):
                rest = raw[len(r):]
                raise bad(f'unknown suit {_q(rest)}' if rest else "missing suit (expected S H C D or ♠ ♥ ♣ ♦)")
        for r in ("10",) + tuple(RANKS):
            if t.endswith(r) and len(t) > len(r):
                raise bad(f'unknown suit {_q(raw[: len(t) - len(r)])}')
        raise bad(f'unknown rank {_q(raw[:-1])}' if len(raw) > 1
                  else f'unknown rank {_q(raw)} and no suit')
    if not rank_s:
        raise bad("missing rank (expected 2-9, T/10, J, Q, K, A)")
    if rank_s not in _RANK_OF:
        raise bad(f'unknown rank {_q(shown)}')
    return 13 * suit + _RANK_OF[rank_s]


def _tokens(text: str) -> list[str]:
    toks = [t for t in _SPLIT.split(text.strip()) if t]
    if not toks and text.strip():  # ',': a list of nothing, not an empty one
        raise InvalidHandError(f"{quote_token(text)} holds only separators, no card (give '' for none)")
    return toks


def _check_ids(cards: Iterable) -> tuple[int, ...]:
    out = []
    for i, c in enumerate(as_items(cards, "cards"), 1):
        if isinstance(c, (bool, np.bool_)) or not isinstance(c, Integral) or not 0 <= int(c) < N_CARDS:
            raise InvalidCardError(f"invalid card {quote_token(c)} (token {i}): expected a card id 0-51")
        out.append(int(c))
    return tuple(out)


def _no_duplicates(ids: Sequence[int]) -> None:
    seen: dict[int, int] = {}
    for i, c in enumerate(ids, 1):
        if c in seen:
            raise InvalidHandError(f'duplicate card "{format_card(c)}" (tokens {seen[c]} and {i})')
        seen[c] = i


def parse_cards(cards: str | Iterable[int | str]) -> tuple[int, ...]:
    """Parse distinct cards (text, tokens or ids), keeping the input order.

    Raises
    ------
    InvalidCardError, InvalidHandError

    Examples
    --------
    >>> parse_cards("2C 3c")
    (0, 1)
    >>> parse_cards("KS 2C 3C 4C 5C 6C AS")
    (50, 0, 1, 2, 3, 4, 51)
    >>> parse_cards("KS AS 2C 3C 4C 5C AS")
    Traceback (most recent call last):
    ...
    kaptai.errors.InvalidHandError: duplicate card "AS" (tokens 2 and 7)
    """
    if isinstance(cards, str):
        ids = tuple(parse_card(t, i) for i, t in enumerate(_tokens(cards), 1))
    else:
        items = as_items(cards, "cards")
        if items and all(isinstance(c, str) for c in items):
            ids = tuple(parse_card(str(t), i) for i, t in enumerate(items, 1))
        else:
            ids = _check_ids(items)
    _no_duplicates(ids)
    return ids


def parse_hand(cards: str | Iterable[int | str], size: int | None = 13) -> tuple[int, ...]:
    """Parse a hand (13 cards unless ``size`` says otherwise; None: any size).

    >>> len(parse_hand("2C 3C 4C 5C 6C 7C 8C 9C TC JC QC KC AC"))
    13
    >>> parse_hand("2C 3C")
    Traceback (most recent call last):
    ...
    kaptai.errors.InvalidHandError: hand has 2 cards, expected 13
    """
    ids = parse_cards(cards)
    if size is not None and len(ids) != size:
        raise InvalidHandError(f"hand has {len(ids)} cards, expected {quote_token(size)}")
    return ids


def parse_combination(cards: str | Iterable[int | str]) -> tuple[int, ...]:
    """Parse a combination: 1-3 distinct cards of one suit (§3).

    Raises
    ------
    InvalidCardError, InvalidHandError, InvalidCombinationError

    Examples
    --------
    >>> format_cards(parse_combination("as ks"))
    'AS KS'
    >>> parse_combination("5S 6H")
    Traceback (most recent call last):
    ...
    kaptai.heaven11.cards.InvalidCombinationError: combination "5S 6H" is not one suit
    >>> parse_combination("2C 3C 4C 5C")
    Traceback (most recent call last):
    ...
    kaptai.heaven11.cards.InvalidCombinationError: combination "2C 3C 4C 5C" has 4 cards, expected 1-3
    """
    ids = parse_cards(cards)
    text = format_cards(ids)
    if not 1 <= len(ids) <= 3:
        raise InvalidCombinationError(f'combination {_q(text)} has {len(ids)} cards, expected 1-3')
    if len({c // 13 for c in ids}) != 1:
        raise InvalidCombinationError(f'combination {_q(text)} is not one suit')
    return ids


def format_card(card_id: int, style: str = "letter") -> str:
    """Canonical text of a card: ``'KS'``; ``style='symbol'`` gives ``'K♠'``.

    >>> format_card(50), format_card(50, "symbol")
    ('KS', 'K♠')
    """
    (c,) = _check_ids([card_id])
    if style == "letter":
        return RANKS[c % 13] + SUITS[c // 13]
    if style == "symbol":
        return RANKS[c % 13] + SUIT_SYMBOLS[c // 13]
    raise KaptaiError(f"unknown style {style!r}: expected 'letter' or 'symbol'")


def format_cards(cards: Iterable[int], style: str = "letter", *, sort: bool = False) -> str:
    """Cards as canonical text, space-separated (``sort``: by suit then rank).

    >>> format_cards([51, 50], sort=True)
    'KS AS'
    """
    ids = _check_ids(cards)
    if not isinstance(sort, (bool, np.bool_)):
        raise KaptaiError(f"sort={quote_token(sort)}: expected True or False")
    if sort:
        ids = tuple(sorted(ids))
    return " ".join(format_card(c, style) for c in ids)


# ---------------------------------------------------------------------------- bids


def bid_code(bid: tuple[int, int]) -> int:
    """Integer code ``5 * level + strain`` of a bid (higher beats lower).

    >>> bid_code((0, 0)), bid_code((9, 4))
    (0, 49)
    """
    return 5 * int(bid[0]) + int(bid[1])


def bid_from_code(code: int) -> tuple[int, int]:
    """The bid of an integer code.

    >>> bid_from_code(17)
    (3, 2)
    """
    code = int(code)
    if not 0 <= code < 50:
        raise InvalidBidError(f"invalid bid code {code}: expected 0-49")
    return divmod(code, 5)


def parse_bid(token: str | tuple, position: int = 1) -> tuple[int, int] | None:
    """Parse a bid ``<0-9><C|D|H|S|NT>`` (or a suit symbol), or ``PASS`` (None).

    A ``(level, strain)`` pair is checked and returned.

    Raises
    ------
    InvalidBidError

    Examples
    --------
    >>> parse_bid("3C"), parse_bid("9nt"), parse_bid("2♠")
    ((3, 0), (9, 4), (2, 3))
    >>> parse_bid("10S")
    Traceback (most recent call last):
    ...
    kaptai.heaven11.cards.InvalidBidError: invalid bid "10S" (token 1): level must be 0-9
    >>> parse_bid("3X", 2)
    Traceback (most recent call last):
    ...
    kaptai.heaven11.cards.InvalidBidError: invalid bid "3X" (token 2): unknown strain "X" (expected C, D, H, S or NT)
    """
    if isinstance(position, (bool, np.bool_)) or not isinstance(position, Integral) or position < 1:
        raise KaptaiError(f"position={quote_token(position)}: expected a whole number >= 1 (the token's place, "
                          "named in messages)")
    if isinstance(token, tuple):
        if (len(token) != 2 or any(isinstance(v, (bool, np.bool_)) or not isinstance(v, Integral) for v in token)
                or not 0 <= token[0] <= MAX_LEVEL or not 0 <= token[1] <= 4):
            raise InvalidBidError(
                f"invalid bid {quote_token(token)} (token {position}): expected (level 0-9, strain 0-4)")
        return (int(token[0]), int(token[1]))
    if not isinstance(token, str):
        raise InvalidBidError(f"invalid bid {quote_token(token)} (token {position}): expected a string such as \"3C\"")
    t = _clean(token)

    def bad(why: str) -> InvalidBidError:
        return InvalidBidError(f'invalid bid {_q(token)} (token {position}): {why}')

    if t in ("PASS", "P"):
        return None
    m = re.fullmatch(r"(\d*)(.*)", t, flags=re.DOTALL)
    assert m is not None  # the pattern matches every string
    digits, strain = m.group(1), m.group(2)
    if not digits:
        raise bad("missing level (expected 0-9 followed by C, D, H, S or NT)")
    if strain not in _STRAIN_OF:
        if not strain:
            raise bad("missing strain (expected C, D, H, S or NT)")
        shown = token.strip()[len(digits):]
        raise bad(f'unknown strain {_q(shown)} (expected C, D, H, S or NT)')
    if len(digits) > 1 or int(digits) > MAX_LEVEL:  # one digit: never int() of 5,000 digits
        raise bad("level must be 0-9")
    level = int(digits)
    return (level, _STRAIN_OF[strain])


def format_bid(bid: tuple[int, int] | None, style: str = "letter") -> str:
    """Canonical text of a bid (``None`` = ``PASS``).

    >>> format_bid((3, 0)), format_bid((3, 0), "symbol"), format_bid(None)
    ('3C', '3♣', 'PASS')
    """
    if bid is None:
        return "PASS"
    checked = parse_bid(tuple(as_items(bid, "bid", InvalidBidError)))
    assert checked is not None
    level, strain = checked
    if style == "symbol" and strain < 4:
        return f"{level}{SUIT_SYMBOLS[strain]}"
    return f"{level}{STRAINS[strain]}"


# ---------------------------------------------------------------------------- tricks


def check_tricks(tricks: Iterable[int], text: str | None = None) -> tuple[int, int, int, int]:
    """Check a trick vector: four non-negative integers summing to 13.

    Raises
    ------
    InvalidTricksError

    Examples
    --------
    >>> check_tricks([4, 3, 3, 3])
    (4, 3, 3, 3)
    >>> check_tricks([7, 2, 2, 1])
    Traceback (most recent call last):
    ...
    kaptai.heaven11.cards.InvalidTricksError: tricks 7/2/2/1 sum to 12, not 13
    """
    vals = as_items(tricks, "tricks", InvalidTricksError)
    shown = quote_token(text if text is not None else "/".join(quote_token(v, quote="") for v in vals), quote="")
    if len(vals) != 4:
        raise InvalidTricksError(f"tricks {shown} has {len(vals)} entries, expected 4 (declarer, then 3 defenders)")
    for v in vals:
        if isinstance(v, (bool, np.bool_)) or not isinstance(v, Integral) or v < 0:
            raise InvalidTricksError(f"tricks {shown}: {quote_token(v)} is not a non-negative integer")
    total = sum(int(v) for v in vals)
    if total != 13:
        raise InvalidTricksError(f"tricks {shown} sum to {quote_token(total)}, not 13")
    return tuple(int(v) for v in vals)  # type: ignore[return-value]


def parse_tricks(text: str | Iterable[int]) -> tuple[int, int, int, int]:
    """Parse ``t0/t1/t2/t3`` (declarer first) or check a sequence.

    >>> parse_tricks("13/0/0/0")
    (13, 0, 0, 0)
    >>> parse_tricks("7/2/x/2")
    Traceback (most recent call last):
    ...
    kaptai.heaven11.cards.InvalidTricksError: tricks 7/2/x/2: "x" is not a non-negative integer
    """
    if not isinstance(text, str):
        return check_tricks(text)
    parts = text.strip().split("/")
    vals = []
    for p in parts:
        if not re.fullmatch(r"\d{1,2}", p.strip()):
            raise InvalidTricksError(
                f'tricks {quote_token(text.strip(), quote="")}: {_q(p)} is not a non-negative integer')
        vals.append(int(p))
    return check_tricks(vals, text.strip())


def format_tricks(tricks: Iterable[int]) -> str:
    """``'7/2/2/2'``.

    >>> format_tricks((7, 2, 2, 2))
    '7/2/2/2'
    """
    return "/".join(str(int(v)) for v in tricks)


def parse_score_record(text: str) -> tuple[tuple[int, int], tuple[int, int, int, int]]:
    """Parse a scoring record ``bid=<bid> tricks=t0/t1/t2/t3`` (fields in either order).

    Raises
    ------
    InvalidRecordError, InvalidBidError, InvalidTricksError

    Examples
    --------
    >>> parse_score_record("bid=3C tricks=7/2/2/2")
    ((3, 0), (7, 2, 2, 2))
    >>> parse_score_record("bid=pass tricks=7/2/2/2")
    Traceback (most recent call last):
    ...
    kaptai.heaven11.cards.InvalidRecordError: invalid record "bid=pass tricks=7/2/2/2": bid PASS has no declarer to score
    """
    if not isinstance(text, str):
        raise InvalidRecordError(f"a scoring record must be a string, got {type(text).__name__}")
    fields: dict[str, tuple[str, int]] = {}
    for i, tok in enumerate(_tokens(text), 1):
        key, sep, value = tok.partition("=")
        key = key.strip().lower()
        if not sep or key not in ("bid", "tricks"):
            raise InvalidRecordError(
                f"invalid record {_q(text)}: token {i} {_q(tok)} is not bid=<bid> or tricks=t0/t1/t2/t3")
        if key in fields:
            raise InvalidRecordError(f'invalid record {_q(text)}: {key}= given twice')
        fields[key] = (value, i)
    for key in ("bid", "tricks"):
        if key not in fields:
            raise InvalidRecordError(f'invalid record {_q(text)}: missing {key}=')
    bid = parse_bid(*fields["bid"])
    if bid is None:
        raise InvalidRecordError(f'invalid record {_q(text)}: bid PASS has no declarer to score')
    return bid, parse_tricks(fields["tricks"][0])


# ---------------------------------------------------------------------------- masks


def cards_to_mask(cards: Iterable[int]) -> int:
    """52-bit mask of distinct card ids.

    >>> cards_to_mask([0, 51]) == 1 | 1 << 51
    True
    """
    ids = _check_ids(cards)
    _no_duplicates(ids)
    m = 0
    for c in ids:
        m |= 1 << c
    return m


def mask_to_cards(mask: int) -> tuple[int, ...]:
    """Card ids of a 52-bit mask, ascending.

    >>> mask_to_cards(0b101)
    (0, 2)
    """
    m = int(mask)
    if m < 0 or m >> N_CARDS:
        raise InvalidHandError(f"card mask {mask!r} is out of range: expected 0 <= mask < 2**52")
    return tuple(i for i in range(N_CARDS) if m >> i & 1)


def suit_ranks(mask: int, suit: int) -> int:
    """13-bit rank set of ``suit`` in a card mask.

    >>> suit_ranks(cards_to_mask(parse_cards("KS AS 2C")), 3) == (1 << 11 | 1 << 12)
    True
    """
    return (int(mask) >> (13 * int(suit))) & 0x1FFF
