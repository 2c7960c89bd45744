"""Cards of nine-ten (九支十仔, Taiwanese four-colour cards): the 112-card deck and its notation.

A card *kind* is an integer ``0..27``: ``kind = 7 * colour + rank`` with ``colour`` the index
in ``R Y G W`` (紅 黃 青 白) and ``rank`` the index in ``K A E R H C P`` (帥/將 仕/士 相/象
俥/車 傌/馬 炮/包 兵/卒, high → low).  The deck holds 4 identical copies of each kind
(``docs/rules/nine-ten.md`` §1); a hand is a *count vector* of 28 entries 0-4.

Notation (§1.3), case-insensitive for ASCII:

* ASCII: colour code + rank code, ``RK`` 紅帥, ``GK`` 青將, ``WE`` 白象, ``YP`` 黃兵;
* Chinese, traditional or simplified: ``紅帥``, ``红帅``, ``青將``, ``绿将``; the other
  family's character of the same rank is accepted and normalised (``紅將`` → ``紅帥``),
  ``砲`` is accepted for the cannon, ``綠``/``绿`` for 青;
* pinyin ``colour-rank``: ``hong-shuai``, ``qing-jiang``, ``lv-bao`` (``lu``/``lü`` for 綠).

A token may carry a multiplicity suffix ``xN`` or ``×N`` (N = 1-4): ``RAx2``.  Tokens are
separated by spaces or commas.  The scoring record (:func:`parse_record`) is
``HAND | win=self|flip|discard [| kz=CARDS] [| kzwait=CARD] [| bonus=C1 C2 C3 C4 C5]``.
Bad input raises an error that names the offending token or count; nothing is guessed.

Examples
--------
>>> from kaptai.nineten.cards import parse_hand, format_hand, format_card
>>> h = parse_hand("RAx2 紅俥 红伡 hong-shuai, 紅將")
>>> format_hand(h)
'RKx2 RAx2 RRx2'
>>> format_card(parse_hand("绿将").nonzero()[0][0], "trad")
'青將'
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from numbers import Integral

import numpy as np

from kaptai.errors import InvalidHandError, KaptaiError, as_items, quote_token

__all__ = [
    "InvalidCardError",
    "InvalidRecordError",
    "COLOURS",
    "RANKS",
    "N_KINDS",
    "COPIES",
    "DECK_SIZE",
    "WIN_TYPES",
    "kind",
    "colour_of",
    "rank_of",
    "parse_card",
    "parse_cards",
    "parse_hand",
    "format_card",
    "format_cards",
    "format_hand",
    "Record",
    "parse_record",
    "format_record",
]


class InvalidCardError(KaptaiError):
    """A token that is not a card, or a bad multiplicity suffix."""


class InvalidRecordError(KaptaiError):
    """A scoring record with an unknown/repeated/missing field, a bad ``kz``/``kzwait`` or a
    misused ``bonus`` field."""


#: Colour codes by colour index (R Y G W = 紅 黃 青 白; seat-draw order high → low).
COLOURS: str = "RYGW"
#: Rank codes by rank index (1 high … 7 low).
RANKS: str = "KAERHCP"
#: Number of distinct cards.
N_KINDS: int = 28
#: Copies of each card in the deck.
COPIES: int = 4
#: Cards in the deck.
DECK_SIZE: int = N_KINDS * COPIES
#: The ``win=`` values of a scoring record (the dealer natural ``natural`` is an extension).
WIN_TYPES: tuple[str, ...] = ("self", "flip", "discard", "natural")

_COLOUR_TRAD = ("紅", "黃", "青", "白")
_COLOUR_SIMP = ("红", "黄", "青", "白")
_COLOUR_PINYIN = ("hong", "huang", "qing", "bai")
# rank characters: (R/Y traditional, R/Y simplified, G/W traditional, G/W simplified)
_RANK_CHARS = (
    ("帥", "帅", "將", "将"),
    ("仕", "仕", "士", "士"),
    ("相", "相", "象", "象"),
    ("俥", "伡", "車", "车"),
    ("傌", "㐷", "馬", "马"),
    ("炮", "炮", "包", "包"),
    ("兵", "兵", "卒", "卒"),
)
_RANK_PINYIN = (("shuai", "jiang"), ("shi", "shi"), ("xiang", "xiang"), ("ju", "ju"), ("ma", "ma"),
                ("pao", "bao"), ("bing", "zu"))

_COLOUR_OF: dict[str, int] = {}
for _i, (_t, _s, _p) in enumerate(zip(_COLOUR_TRAD, _COLOUR_SIMP, _COLOUR_PINYIN)):
    _COLOUR_OF[_t] = _COLOUR_OF[_s] = _i
_COLOUR_OF["綠"] = _COLOUR_OF["绿"] = 2
_CH_RANK_OF: dict[str, int] = {}
for _i, _chars in enumerate(_RANK_CHARS):
    for _c in _chars:
        _CH_RANK_OF[_c] = _i
_CH_RANK_OF["砲"] = 5
_PY_COLOUR_OF = {p: i for i, p in enumerate(_COLOUR_PINYIN)}
_PY_COLOUR_OF.update({"lv": 2, "lu": 2, "lü": 2})
_PY_RANK_OF: dict[str, int] = {}
for _i, _names in enumerate(_RANK_PINYIN):
    for _n in _names:
        _PY_RANK_OF[_n] = _i

_SPLIT = re.compile(r"[\s,，]+")
_MULT = re.compile(r"^(.+?)[x×X](\d+)$")


def kind(colour: int, rank: int) -> int:
    """Card kind of ``colour`` (0-3 = R Y G W) and ``rank`` (0-6 = K A E R H C P).

    >>> kind(3, 2), format_card(kind(3, 2))
    (23, 'WE')
    """
    return 7 * int(colour) + int(rank)


def colour_of(k: int) -> int:
    """Colour index 0-3 (R Y G W) of a card kind.

    >>> colour_of(23)
    3
    """
    return int(k) // 7


def rank_of(k: int) -> int:
    """Rank index 0-6 (K … P) of a card kind.

    >>> rank_of(23)
    2
    """
    return int(k) % 7


def _parse_base(base: str) -> int | None:
    t = base.strip()
    if len(t) == 2 and t.isascii():
        u = t.upper()
        if u[0] in COLOURS and u[1] in RANKS:
            return kind(COLOURS.index(u[0]), RANKS.index(u[1]))
        return None
    if len(t) == 2 and t[0] in _COLOUR_OF and t[1] in _CH_RANK_OF:
        return kind(_COLOUR_OF[t[0]], _CH_RANK_OF[t[1]])
    low = t.lower()
    if "-" in low:
        c, _, r = low.partition("-")
        if c in _PY_COLOUR_OF and r in _PY_RANK_OF:
            return kind(_PY_COLOUR_OF[c], _PY_RANK_OF[r])
    return None


def _split_token(token: str, item: int) -> tuple[int, int]:
    """(kind, multiplicity) of one token such as ``'RAx2'``; errors name the token."""
    m = _MULT.match(token)
    if m is not None and _parse_base(m.group(1)) is None and _parse_base(token) is not None:
        m = None
    if m is None:
        k = _parse_base(token)
        if k is None:
            raise InvalidCardError(f"unknown card token {quote_token(token)} (item {item})")
        return k, 1
    k = _parse_base(m.group(1))
    if k is None:
        raise InvalidCardError(f"unknown card token {quote_token(m.group(1))} (item {item})")
    digits = m.group(2)
    n = int(digits) if len(digits) <= 2 else 0  # never int() of 5,000 digits
    if not 1 <= n <= COPIES:
        raise InvalidCardError(f"bad multiplicity in {quote_token(token)} (allowed 1-4)")
    return k, n


def parse_card(token: str, item: int = 1) -> int:
    """Parse one card token (no multiplicity suffix) to its kind.

    Parameters
    ----------
    token : str
        ASCII (``'RK'``), Chinese (``'紅帥'``, ``'红帅'``) or pinyin (``'hong-shuai'``).
    item : int
        1-based item number used in the error message.

    Raises
    ------
    InvalidCardError
        ``unknown card token 'RX' (item 3)``.

    Examples
    --------
    >>> from kaptai.nineten.cards import parse_card
    >>> parse_card("wE"), parse_card("白象"), parse_card("bai-xiang"), parse_card("白相")
    (23, 23, 23, 23)
    >>> parse_card("RX", 3)
    Traceback (most recent call last):
    ...
    kaptai.nineten.cards.InvalidCardError: unknown card token 'RX' (item 3)
    """
    _check_place("item", item)
    if not isinstance(token, str):
        raise InvalidCardError(f"unknown card token {quote_token(token)} (item {item}): expected a string such as 'RK'")
    k = _parse_base(token)
    if k is None:
        raise InvalidCardError(f"unknown card token {quote_token(token)} (item {item})")
    return k


def _tokens(text: str) -> list[str]:
    toks = [t for t in _SPLIT.split(text.strip()) if t]
    if not toks and text.strip():  # ',': a list of nothing, not an empty one
        raise InvalidHandError(f"{quote_token(text)} holds only separators, no card (give '' for none)")
    return toks


def parse_cards(cards: str | Iterable[int | str], *, first_item: int = 1) -> tuple[int, ...]:
    """Parse cards to a tuple of kinds in input order (multiplicities expanded).

    Parameters
    ----------
    cards : str or iterable of str or int
        Text such as ``'RAx2 WE'``, a list of tokens, or card kinds 0-27.
    first_item : int
        Item number of the first token (for error messages).

    Examples
    --------
    >>> from kaptai.nineten.cards import parse_cards
    >>> parse_cards("RAx2, WE")
    (1, 1, 23)
    >>> parse_cards("RAx5")
    Traceback (most recent call last):
    ...
    kaptai.nineten.cards.InvalidCardError: bad multiplicity in 'RAx5' (allowed 1-4)
    """
    if isinstance(cards, str):
        toks: list = _tokens(cards)
    else:
        try:
            if isinstance(cards, Mapping):  # its keys are no cards
                raise TypeError
            toks = list(cards)
        except TypeError:
            raise InvalidCardError(f"cards must be a string such as 'RAx2 WE' or an iterable of cards, got "
                                   f"{type(cards).__name__} {quote_token(cards)}") from None
    out: list[int] = []
    _check_place("first_item", first_item)
    for i, t in enumerate(toks, first_item):
        if isinstance(t, str):
            k, n = _split_token(t, i)
            out.extend([k] * n)
        elif isinstance(t, Integral) and not isinstance(t, (bool, np.bool_)) and 0 <= int(t) < N_KINDS:
            out.append(int(t))
        else:
            raise InvalidCardError(f"unknown card token {quote_token(t)} (item {i}): expected a token or a kind 0-27")
    return tuple(out)


def _check_copies(counts: np.ndarray) -> None:
    bad = np.nonzero(counts > COPIES)[0]
    if bad.size:
        k = int(bad[0])
        raise InvalidHandError(
            f"card {format_card(k)!r} ({format_card(k, 'trad')}) appears {int(counts[k])} times; the deck has 4"
        )


def parse_hand(cards: str | Iterable[int | str], size: int | None = None) -> np.ndarray:
    """Parse a hand to its count vector (28 entries, int8).

    Raises
    ------
    InvalidCardError, InvalidHandError
        An unknown token; more than 4 copies of a card; a wrong size.

    Examples
    --------
    >>> from kaptai.nineten.cards import parse_hand
    >>> int(parse_hand("RAx2 RA").sum())
    3
    >>> parse_hand("RAx3 RAx2")
    Traceback (most recent call last):
    ...
    kaptai.errors.InvalidHandError: card 'RA' (紅仕) appears 5 times; the deck has 4
    """
    ks = parse_cards(cards)
    counts = np.bincount(np.array(ks, dtype=np.int64), minlength=N_KINDS) if ks else np.zeros(N_KINDS, dtype=np.int64)
    _check_copies(counts)  # before the int8 cast: 256 copies must not wrap round to 0
    if size is not None and len(ks) != size:
        raise InvalidHandError(f"hand has {len(ks)} cards, expected {quote_token(size)}")
    return counts.astype(np.int8)


def format_card(k: int, style: str = "ascii") -> str:
    """Text of a card kind: ``'ascii'`` (``'RK'``), ``'trad'`` (``'紅帥'``), ``'simp'``
    (``'红帅'``) or ``'pinyin'`` (``'hong-shuai'``).

    >>> [format_card(8, s) for s in ("ascii", "trad", "simp", "pinyin")]
    ['YA', '黃仕', '黄仕', 'huang-shi']
    """
    if isinstance(k, (bool, np.bool_)) or not isinstance(k, Integral) or not 0 <= int(k) < N_KINDS:
        raise InvalidCardError(f"unknown card kind {quote_token(k)}: expected 0-27")
    c, r = divmod(int(k), 7)
    fam = 0 if c < 2 else 2
    if style == "ascii":
        return COLOURS[c] + RANKS[r]
    if style == "trad":
        return _COLOUR_TRAD[c] + _RANK_CHARS[r][fam]
    if style == "simp":
        return _COLOUR_SIMP[c] + _RANK_CHARS[r][fam + 1]
    if style == "pinyin":
        return _COLOUR_PINYIN[c] + "-" + _RANK_PINYIN[r][fam // 2]
    raise KaptaiError(f"unknown style {quote_token(style)}: expected 'ascii', 'trad', 'simp' or 'pinyin'")


def format_cards(kinds: Iterable[int], style: str = "ascii") -> str:
    """Cards one by one, space-separated, in the given order.

    >>> format_cards([0, 27], "trad")
    '紅帥 白卒'
    """
    return " ".join(format_card(k, style) for k in as_items(kinds, "cards"))


def format_hand(counts: Iterable[int], style: str = "ascii") -> str:
    """A count vector as tokens with multiplicity suffixes, in kind order.

    >>> format_hand([2] + [0] * 26 + [1])
    'RKx2 WP'
    """
    items = as_items(counts, "counts")
    if not all(isinstance(n, Integral) and not isinstance(n, (bool, np.bool_)) for n in items):
        raise InvalidHandError(f"counts: expected 28 non-negative integers, got {quote_token(items)}")
    c = np.asarray(items, dtype=np.int64)
    if c.shape != (N_KINDS,) or c.min(initial=0) < 0:
        raise InvalidHandError(f"a count vector has 28 non-negative entries, got shape {c.shape}")
    _check_copies(c)
    return " ".join(format_card(k, style) + (f"x{int(n)}" if n > 1 else "") for k, n in enumerate(c) if n)


# --------------------------------------------------------------------------- scoring record

_FIELDS = ("win", "kz", "kzwait", "bonus")


@dataclass(frozen=True)
class Record:
    """A parsed, validated scoring record (§1.3).

    Attributes
    ----------
    hand : tuple of int
        The winner's 10 cards (kinds) in record order.
    counts : numpy.ndarray
        The hand's count vector.
    win : str
        ``'self'``, ``'flip'``, ``'discard'`` or ``'natural'`` (dealer natural; an
        extension, scored like ``self``).
    kz : tuple of int
        Cards whose 4th copy was claimed before the final wait (開招 during play).
    kzwait : int or None
        The winning card when it was the 4th copy.
    bonus : tuple of int or None
        The five bonus-flip cards in order.
    """

    hand: tuple[int, ...]
    counts: np.ndarray
    win: str
    kz: tuple[int, ...]
    kzwait: int | None
    bonus: tuple[int, ...] | None

    @property
    def colours(self) -> int:
        """Distinct colours among the five pairs (k, 1-4)."""
        return len({colour_of(k) for k in range(N_KINDS) if self.counts[k] >= 2})


def parse_record(text: str, bonus_rule=None) -> Record:
    """Parse and check a scoring record.

    Parameters
    ----------
    text : str
        ``HAND | win=self|flip|discard [| kz=CARDS] [| kzwait=CARD] [| bonus=C1 … C5]``.
        Items (card tokens and fields) are numbered from 1 across the record.
    bonus_rule : callable, optional
        ``bonus_rule(win, colours) -> None or str``: None when the options give a bonus
        flip for that win, else the reason it is not allowed (``'win=discard'``,
        ``'four colours'`` …).  Default: bonus flips exactly on self/flip wins with fewer
        than 4 colours (the default options; :func:`kaptai.nineten.scoring.bonus_reason`).

    Checks run in the order of the rules page: tokens and multiplicities → fields → copies
    (hand + bonus ≤ 4) → five pairs → kz/kzwait → bonus presence.

    Raises
    ------
    InvalidCardError, InvalidHandError, InvalidRecordError

    Examples
    --------
    >>> from kaptai.nineten.cards import parse_record
    >>> r = parse_record("RAx2 RRx2 YKx2 YAx4 | win=discard | kzwait=YA")
    >>> r.win, r.colours, format_card(r.kzwait)
    ('discard', 2, 'YA')
    >>> parse_record("RAx2 RRx2 YKx2 YAx2 WEx2 | win=self | bonsu=GC")
    Traceback (most recent call last):
    ...
    kaptai.nineten.cards.InvalidRecordError: unknown field 'bonsu' (item 7)
    """
    if not isinstance(text, str):
        raise InvalidRecordError(f"a scoring record must be a string, got {type(text).__name__}")
    segments = text.split("|")
    item = 0
    hand: list[int] = []
    # (key, has '=', item of the field, [(value token, item)], parsed cards [(kind, n, token)])
    fields: list[tuple[str, bool, int, list[tuple[str, int]], list[tuple[int, int, str]]]] = []
    # 1. tokens and multiplicities (every card token of the hand and of the card fields)
    for si, seg in enumerate(segments):
        toks = _tokens(re.sub(r"\s*=\s*", "=", seg))
        if si == 0:
            for t in toks:
                item += 1
                k, n = _split_token(t, item)
                hand.extend([k] * n)
            continue
        if not toks:
            raise InvalidRecordError(f"empty field {si} of the record")
        vals: list[tuple[str, int]] = []
        key, eq, key_item = "", "", 0
        v0 = ""
        for j, t in enumerate(toks):
            item += 1
            if j == 0:
                key, eq, v0 = t.partition("=")
                key_item = item
                if v0:
                    vals.append((v0, item))
            else:
                vals.append((t, item))
        parsed: list[tuple[int, int, str]] = []
        if eq and key.lower() in ("kz", "kzwait", "bonus"):
            for t, it in vals:
                k, n = _split_token(t, it)
                parsed.append((k, n, t))
        fields.append((key, bool(eq), key_item, vals, parsed))
    # 2. fields
    seen: dict[str, int] = {}
    win = None
    kz: list[tuple[int, int, str]] = []
    kzwait: list[tuple[int, int, str]] | None = None
    bonus: list[tuple[int, int, str]] | None = None
    for key, has_eq, key_item, vals, parsed in fields:
        name = key.lower()
        if not has_eq or name not in _FIELDS:
            raise InvalidRecordError(f"unknown field {quote_token(key)} (item {key_item})")
        if name in seen:
            raise InvalidRecordError(f"field {name!r} given twice")
        seen[name] = key_item
        if name == "win":
            raw = " ".join(t for t, _ in vals)
            if raw.lower() not in WIN_TYPES:
                raise InvalidRecordError(f"bad value win={quote_token(raw)} (item {key_item}): expected self, flip or discard")
            win = raw.lower()
        elif not parsed:
            raise InvalidRecordError(f"field {name!r} (item {key_item}) has no cards")
        elif name == "kz":
            kz = parsed
        elif name == "kzwait":
            if len(parsed) != 1 or parsed[0][1] != 1:
                raise InvalidRecordError(f"kzwait takes one card, got {quote_token(' '.join(p[2] for p in parsed))}")
            kzwait = parsed
        else:
            for k, n, t in parsed:
                if n != 1 or (_MULT.match(t) is not None and _parse_base(t) is None):
                    raise InvalidRecordError(f"bonus cards are single tokens without xN, got {quote_token(t)}")
            bonus = parsed
    if win is None:
        raise InvalidRecordError("record has no win field: expected win=self, win=flip or win=discard")
    if not hand:
        raise InvalidHandError("hand has 0 cards; five pairs need 10")
    # 3. copies over hand + bonus
    counts = np.bincount(np.array(hand, dtype=np.int64), minlength=N_KINDS)
    total = counts.copy()
    bonus_kinds = tuple(k for k, _, _ in bonus) if bonus is not None else None
    if bonus_kinds:
        total += np.bincount(np.array(bonus_kinds, dtype=np.int64), minlength=N_KINDS)
    _check_copies(total)
    # 4. five pairs
    if len(hand) != 10:
        raise InvalidHandError(f"hand has {len(hand)} cards; five pairs need 10")
    odd = [k for k in dict.fromkeys(hand) if counts[k] % 2]
    if odd:
        raise InvalidHandError("hand is not five pairs: unpaired " + ", ".join(repr(format_card(k)) for k in odd))
    # 5. kz / kzwait
    kz_kinds: list[int] = []
    for k, n, _ in kz:
        if n > 1 or k in kz_kinds:
            raise InvalidRecordError(f"kz lists {format_card(k)!r} twice")
        kz_kinds.append(k)
    for k in kz_kinds:
        if counts[k] != 4:
            raise InvalidRecordError(f"kz card {format_card(k)!r} is not held 4 times")
    kw = kzwait[0][0] if kzwait else None
    if kw is not None:
        if counts[kw] != 4:
            raise InvalidRecordError(f"kzwait card {format_card(kw)!r} is not held 4 times")
        if kw in kz_kinds:
            raise InvalidRecordError(f"{format_card(kw)!r} is both kz and kzwait")
    # 6. bonus presence
    colours = len({colour_of(k) for k in range(N_KINDS) if counts[k] >= 2})
    if bonus_rule is not None and not callable(bonus_rule):
        raise KaptaiError(f"bonus_rule={quote_token(bonus_rule)}: expected a callable (win, colours) -> reason or None")
    if bonus_rule is None:
        def bonus_rule(w: str, k: int) -> str | None:
            if w == "discard":
                return "win=discard"
            if k == 4:
                return "four colours"
            return None
    reason = bonus_rule(win, colours)
    if bonus is not None:
        if reason is not None:
            raise InvalidRecordError(f"bonus not allowed: {reason}" if reason != "win=discard"
                                     else "bonus not allowed for win=discard")
        if len(bonus) != 5:
            raise InvalidRecordError(f"bonus needs exactly 5 cards, got {len(bonus)}")
    elif reason is None:
        raise InvalidRecordError(f"win={win} needs bonus=5 cards")
    return Record(tuple(hand), counts.astype(np.int8), win, tuple(kz_kinds), kw, bonus_kinds)


def _check_place(name: str, value: object) -> None:
    """A 1-based item number (named in messages): a whole number >= 1, else KaptaiError."""
    if isinstance(value, (bool, np.bool_)) or not isinstance(value, Integral) or value < 1:
        raise KaptaiError(f"{name}={quote_token(value)}: expected a whole number >= 1 (the item's place, named in "
                          "messages)")


def format_record(rec: Record) -> str:
    """Canonical text of a record.

    >>> from kaptai.nineten.cards import parse_record, format_record
    >>> format_record(parse_record("yax4 rax2 rrx2 ykx2 | win=discard | kzwait=ya"))
    'RAx2 RRx2 YKx2 YAx4 | win=discard | kzwait=YA'
    """
    if not isinstance(rec, Record):
        raise InvalidRecordError(f"expected a Record (parse_record's), got {type(rec).__name__} {quote_token(rec)}")
    parts = [format_hand(rec.counts), f"win={rec.win}"]
    if rec.kz:
        parts.append("kz=" + format_cards(rec.kz))
    if rec.kzwait is not None:
        parts.append("kzwait=" + format_card(rec.kzwait))
    if rec.bonus is not None:
        parts.append("bonus=" + format_cards(rec.bonus))
    return " | ".join(parts)
