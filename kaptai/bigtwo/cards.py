"""Cards of Big Two (鋤大D): the 52-card deck, parsing and formatting of cards, hands and play records.

A card is an integer id ``0..51``: ``id = 4 * rank + suit`` with ``rank`` the index in the
natural rank order ``3 4 5 6 7 8 9 T J Q K A 2`` (0 = ``3`` … 12 = ``2``) and ``suit`` the
index in ``D C H S`` (♦ ♣ ♥ ♠, the Hong Kong order low → high).  The id is the card's bit in a
52-bit card mask.  Rule options that change the order (``top_rank``, ``suit_order``) never
change ids; they are applied by :mod:`kaptai.bigtwo.rules` and the evaluator.

Notation (``docs/rules/big-two.md`` §1): a card is rank + suit in either order, case-insensitive;
ranks ``2``-``9``, ``T``/``10``, ``J Q K A``; suits ``S H C D`` or ``♠ ♥ ♣ ♦`` (``♤ ♡ ♧ ♢``
too); cards are separated by spaces or commas.  The canonical form is rank + suit letter with
ten as ``T``.  A play record splits plays by ``|``; ``PASS`` or ``P`` is a pass.  Bad input
is an error, never a guess: the message names the token and its 1-based position.

Examples
--------
>>> from kaptai.bigtwo.cards import parse_cards, format_cards, parse_record, format_record
>>> ids = parse_cards("♦3, 3c as 2S 10h")
>>> ids
(0, 1, 47, 51, 30)
>>> format_cards(ids)
'3D 3C AS 2S TH'
>>> rec = parse_record("3D | 5C | PASS | 9H")
>>> rec
((0,), (9,), None, (26,))
>>> format_record(rec)
'3D | 5C | PASS | 9H'
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping, Sequence
from numbers import Integral
from typing import cast

import numpy as np

from kaptai.errors import InvalidHandError, KaptaiError, quote_token

__all__ = [
    "InvalidCardError",
    "RANKS",
    "SUITS",
    "SUIT_SYMBOLS",
    "N_CARDS",
    "DECK",
    "card",
    "card_rank",
    "card_suit",
    "parse_card",
    "parse_cards",
    "parse_hand",
    "parse_record",
    "format_card",
    "format_cards",
    "format_record",
    "cards_to_mask",
    "mask_to_cards",
]


class InvalidCardError(KaptaiError):
    """A token that is not a card (unknown rank or suit, missing part)."""


#: Ranks in the natural order, low → high (index = rank number).
RANKS: str = "3456789TJQKA2"
#: Suit letters by suit index, ♦ ♣ ♥ ♠ (the Hong Kong order, low → high).
SUITS: str = "DCHS"
#: Suit symbols by suit index.
SUIT_SYMBOLS: str = "♦♣♥♠"
#: Number of cards in the deck.
N_CARDS: int = 52
#: Every card id, ``0..51``.
DECK: tuple[int, ...] = tuple(range(N_CARDS))

_SUIT_OF = {
    "D": 0, "C": 1, "H": 2, "S": 3,
    "♦": 0, "♣": 1, "♥": 2, "♠": 3,
    "♢": 0, "♧": 1, "♡": 2, "♤": 3,
}
_RANK_OF = {r: i for i, r in enumerate(RANKS)}
_RANK_OF["10"] = RANKS.index("T")
_SPLIT = re.compile(r"[\s,]+")
_PASS = ("PASS", "P")



def _q(text: object) -> str:
    """A bad token between double quotes, cut to about 40 characters (:func:`kaptai.errors.quote_token`)."""
    return quote_token(text, quote='"')

def card(rank: int, suit: int) -> int:
    """Card id of ``rank`` (0 = ``3`` … 12 = ``2``) and ``suit`` (0-3 = D C H S).

    Examples
    --------
    >>> from kaptai.bigtwo.cards import card, format_card
    >>> format_card(card(12, 3))
    '2S'
    """
    return 4 * int(rank) + int(suit)


def card_rank(card_id: int) -> int:
    """Natural rank index of a card (0 = ``3`` … 12 = ``2``).

    >>> card_rank(51)
    12
    """
    return int(card_id) >> 2


def card_suit(card_id: int) -> int:
    """Suit index of a card (0-3 = D C H S).

    >>> card_suit(51)
    3
    """
    return int(card_id) & 3


def _clean(token: str) -> str:
    # drop emoji variation selectors (♠️) and fold case; suit symbols are unaffected
    return token.replace("\ufe0f", "").replace("\ufe0e", "").upper()


def parse_card(token: str, position: int = 1) -> int:
    """Parse one card token, e.g. ``'3D'``, ``'d3'``, ``'♦3'``, ``'10h'``.

    Parameters
    ----------
    token : str
        Rank and suit in either order, case-insensitive.
    position : int
        1-based token position, used in error messages.

    Returns
    -------
    int
        The card id.

    Raises
    ------
    InvalidCardError
        Naming the token, its position and the part that is wrong.

    Examples
    --------
    >>> from kaptai.bigtwo.cards import parse_card
    >>> parse_card("♠2"), parse_card("tD"), parse_card("10d")
    (51, 28, 28)
    >>> parse_card("1X", 3)
    Traceback (most recent call last):
    ...
    kaptai.bigtwo.cards.InvalidCardError: invalid card "1X" (token 3): unknown rank "1"
    >>> parse_card("3Z", 2)
    Traceback (most recent call last):
    ...
    kaptai.bigtwo.cards.InvalidCardError: invalid card "3Z" (token 2): unknown suit "Z"
    """
    if isinstance(position, (bool, np.bool_)) or not isinstance(position, Integral) or position < 1:
        raise KaptaiError(f"position={quote_token(position)}: expected a whole number >= 1 (the token's place, "
                          "named in messages)")
    if not isinstance(token, str):
        raise InvalidCardError(f"invalid card {quote_token(token)} (token {position}): expected a string such as \"3D\"")
    t = _clean(token.strip())

    def bad(why: str) -> InvalidCardError:
        return InvalidCardError(f'invalid card {_q(token)} (token {position}): {why}')

    if not t:
        raise bad("empty token")
    if t[-1] in _SUIT_OF:
        suit, rank_s = _SUIT_OF[t[-1]], t[:-1]
    elif t[0] in _SUIT_OF:
        suit, rank_s = _SUIT_OF[t[0]], t[1:]
    else:
        # no suit at either end: blame whichever part is not a rank
        for r in ("10",) + tuple(RANKS):
            if t.startswith(r):
                rest = token.strip()[len(r):]
                raise bad(f'unknown suit {_q(rest)}' if rest else "missing suit (expected S H C D or ♠ ♥ ♣ ♦)")
        for r in ("10",) + tuple(RANKS):
            if t.endswith(r) and len(t) > len(r):
                raise bad(f'unknown suit {_q(token.strip()[: len(t) - len(r)])}')
        raw = token.strip()
        raise bad(f'unknown rank {_q(raw[:-1])}' if len(raw) > 1 else f'unknown rank {_q(raw)} and no suit')
    if not rank_s:
        raise bad("missing rank (expected 2-9, T/10, J, Q, K, A)")
    if rank_s not in _RANK_OF:
        raw = token.strip().replace("\ufe0f", "").replace("\ufe0e", "")
        shown = raw[:-1] if t[-1] in _SUIT_OF else raw[1:]
        raise bad(f'unknown rank {_q(shown)}')
    return 4 * _RANK_OF[rank_s] + suit


def _tokens(text: str) -> list[str]:
    toks = [t for t in _SPLIT.split(text.strip()) if t]
    if not toks and text.strip():  # ',': a list of nothing, not an empty one
        raise InvalidHandError(f"{quote_token(text)} holds only separators, no card (give '' for none)")
    return toks


def _check_ids(cards: Iterable) -> tuple[int, ...]:
    out = []
    for i, c in enumerate(cards, 1):
        if isinstance(c, (bool, np.bool_)) or not isinstance(c, Integral) or not 0 <= int(c) < N_CARDS:
            raise InvalidCardError(f"invalid card {quote_token(c)} (token {i}): expected a card id 0-51")
        out.append(int(c))
    return tuple(out)


def _no_duplicates(ids: Sequence[int], positions: Sequence[int] | None = None) -> None:
    seen: dict[int, int] = {}
    for i, c in enumerate(ids):
        pos = positions[i] if positions is not None else i + 1
        if c in seen:
            raise InvalidHandError(f'duplicate card "{format_card(c)}" (tokens {seen[c]} and {pos})')
        seen[c] = pos


def _items(cards: object) -> list:
    """The items of an iterable of cards, or InvalidHandError for anything else (a number,
    None, bytes, a 0-d array) -- never a TypeError."""
    bad = isinstance(cards, (bytes, bytearray, memoryview, Mapping)) or (
        isinstance(cards, np.ndarray) and cards.ndim != 1
    )
    if not bad:
        try:
            return list(cards)  # type: ignore[call-overload]
        except TypeError:
            bad = True
    raise InvalidHandError(
        f"cards must be a string of card tokens (such as \"3D 4D\") or an iterable of cards, got "
        f"{type(cards).__name__} {quote_token(cards, 60)}"
    )


def parse_cards(cards: str | Iterable[int | str]) -> tuple[int, ...]:
    """Parse a set of distinct cards (a play or a hand), keeping the input order.

    Parameters
    ----------
    cards : str or iterable of int or str
        Text such as ``'3D 3C, AS'``, card tokens, or card ids.

    Returns
    -------
    tuple of int
        Card ids in input order.

    Raises
    ------
    InvalidCardError
        For a token that is not a card.
    InvalidHandError
        For a card given twice.

    Examples
    --------
    >>> from kaptai.bigtwo.cards import parse_cards
    >>> parse_cards("3d 4D")
    (0, 4)
    >>> parse_cards("3D 4D 5D 3D")
    Traceback (most recent call last):
    ...
    kaptai.errors.InvalidHandError: duplicate card "3D" (tokens 1 and 4)
    >>> parse_cards(42)
    Traceback (most recent call last):
    ...
    kaptai.errors.InvalidHandError: cards must be a string of card tokens (such as "3D 4D") or an iterable of cards, got int 42
    """
    if isinstance(cards, str):
        ids: tuple[int, ...] = tuple(parse_card(t, i) for i, t in enumerate(_tokens(cards), 1))
    else:
        items = _items(cards)
        if all(isinstance(c, str) for c in items):
            ids = tuple(parse_card(t, i) for i, t in enumerate(cast("list[str]", items), 1))
        else:
            ids = _check_ids(items)
    _no_duplicates(ids)
    return ids


def parse_hand(cards: str | Iterable[int | str], size: int | None = None) -> tuple[int, ...]:
    """Parse a hand, optionally checking its size.

    Parameters
    ----------
    cards : str or iterable
        As for :func:`parse_cards`.
    size : int, optional
        Expected number of cards (13 for four players).

    Raises
    ------
    InvalidHandError
        ``hand has 12 cards, expected 13``, or a duplicate card.

    Examples
    --------
    >>> from kaptai.bigtwo.cards import parse_hand
    >>> len(parse_hand("3D 4D 5D 6D 7D 8D 9D TD JD QD KD AD 2D", size=13))
    13
    >>> parse_hand("3D 4D", size=13)
    Traceback (most recent call last):
    ...
    kaptai.errors.InvalidHandError: hand has 2 cards, expected 13
    """
    ids = parse_cards(cards)
    if size is not None and len(ids) != size:
        raise InvalidHandError(f"hand has {len(ids)} cards, expected {quote_token(size)}")
    return ids


def parse_record(text: str) -> tuple[tuple[int, ...] | None, ...]:
    """Parse a play record: plays split by ``|``, ``PASS``/``P`` = pass.

    Tokens are numbered 1, 2, … over the whole record (bars are not tokens); a card
    played twice anywhere in the record is an error.  Legality of each play is not
    checked here (see :func:`kaptai.bigtwo.evaluate.classify`).

    Returns
    -------
    tuple
        One entry per play: a tuple of card ids, or ``None`` for a pass.

    Raises
    ------
    InvalidCardError, InvalidHandError

    Examples
    --------
    >>> from kaptai.bigtwo.cards import parse_record
    >>> parse_record("3D 3C | p | 4s 4h")
    ((0, 1), None, (7, 6))
    >>> parse_record("3D | | 4S")
    Traceback (most recent call last):
    ...
    kaptai.errors.InvalidHandError: empty play 2 in record (write PASS for a pass)
    """
    if not isinstance(text, str):
        raise InvalidHandError(f"a play record must be a string, got {type(text).__name__}")
    plays: list[tuple[int, ...] | None] = []
    all_ids: list[int] = []
    all_pos: list[int] = []
    pos = 0
    for k, chunk in enumerate(text.split("|"), 1):
        toks = _tokens(chunk)
        if not toks:
            raise InvalidHandError(f"empty play {k} in record (write PASS for a pass)")
        if any(_clean(t) in _PASS for t in toks):
            if len(toks) != 1:
                raise InvalidHandError(f"play {k} mixes PASS with cards: {quote_token(chunk.strip())}")
            pos += 1
            plays.append(None)
            continue
        ids = []
        for t in toks:
            pos += 1
            ids.append(parse_card(t, pos))
            all_pos.append(pos)
        all_ids.extend(ids)
        plays.append(tuple(ids))
    _no_duplicates(all_ids, all_pos)
    return tuple(plays)


def format_card(card_id: int, style: str = "letter") -> str:
    """Canonical text of a card: ``'3D'``; ``style='symbol'`` gives ``'3♦'``.

    Examples
    --------
    >>> from kaptai.bigtwo.cards import format_card
    >>> format_card(30), format_card(30, style="symbol")
    ('TH', 'T♥')
    """
    (c,) = _check_ids([card_id])
    if style == "letter":
        return RANKS[c >> 2] + SUITS[c & 3]
    if style == "symbol":
        return RANKS[c >> 2] + SUIT_SYMBOLS[c & 3]
    raise KaptaiError(f"unknown style {quote_token(style)}: expected 'letter' or 'symbol'")


def format_cards(cards: Iterable[int], style: str = "letter", *, sort: bool = False, rules=None) -> str:
    """Canonical text of cards, space-separated.

    Parameters
    ----------
    cards : iterable of int
        Card ids.
    style : {'letter', 'symbol'}
    sort : bool
        Sort ascending by single-card strength under ``rules`` (default rules if None).
    rules : RuleSet or None
        Used only when ``sort`` is true: any object with ``card_strength()`` (a
        :class:`kaptai.bigtwo.rules.RuleSet`); None for the default orders.

    Examples
    --------
    >>> from kaptai.bigtwo.cards import format_cards
    >>> format_cards([51, 0, 47, 1], sort=True)
    '3D 3C AS 2S'
    >>> from kaptai.bigtwo.rules import RuleSet
    >>> format_cards([51, 0, 47, 1], sort=True, rules=RuleSet(top_rank="3"))
    'AS 2S 3D 3C'
    """
    ids = _check_ids(_items(cards))
    if not isinstance(sort, (bool, np.bool_)):
        raise KaptaiError(f"sort={quote_token(sort)}: expected True or False")
    if rules is not None and not sort:
        raise KaptaiError("rules orders the cards only with sort=True: give both or neither")
    if sort:
        if rules is None:  # the default orders: card ids ascend with strength
            ids = tuple(sorted(ids))
        else:
            strength = _strength_of(rules)
            ids = tuple(sorted(ids, key=lambda c: strength[c]))
    return " ".join(format_card(c, style) for c in ids)


def _strength_of(rules: object):
    """``rules.card_strength()`` of a RuleSet (cards do not import the rules module)."""
    strength = getattr(rules, "card_strength", None)
    if not callable(strength):
        raise InvalidHandError(f"rules={quote_token(rules)} cannot order cards: pass a kaptai.bigtwo.RuleSet or None")
    return strength()


def format_record(plays: Iterable[Iterable[int] | None], style: str = "letter") -> str:
    """Canonical text of a play record (``None`` = ``PASS``).

    >>> format_record([(0, 1), None])
    '3D 3C | PASS'
    """
    return " | ".join("PASS" if p is None else format_cards(p, style) for p in _items(plays))


def cards_to_mask(cards: Iterable[int]) -> int:
    """52-bit card mask of distinct cards (bit ``id`` set).

    >>> cards_to_mask([0, 51]) == (1 | 1 << 51)
    True
    """
    ids = _check_ids(_items(cards))
    _no_duplicates(ids)
    m = 0
    for c in ids:
        m |= 1 << c
    return m


def mask_to_cards(mask: int) -> tuple[int, ...]:
    """Card ids of a 52-bit mask, ascending.

    >>> mask_to_cards(0b10011)
    (0, 1, 4)
    """
    if isinstance(mask, (bool, np.bool_)) or not isinstance(mask, Integral):
        raise InvalidHandError(f"card mask {quote_token(mask)}: expected an integer 0 <= mask < 2**52")
    m = int(mask)
    if m < 0 or m >> N_CARDS:
        raise InvalidHandError(f"card mask {quote_token(mask)} is out of range: expected 0 <= mask < 2**52")
    return tuple(i for i in range(N_CARDS) if m >> i & 1)
