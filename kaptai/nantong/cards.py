"""Cards of Nantong long cards (南通長牌, 搭子和): the 120-card deck, notation and score records.

A card is identified by its **kind**, an integer ``0..29`` (the four copies of a kind are
identical): ``0..8`` = 1-9 萬 (``w``), ``9..17`` = 1-9 條 (``t``), ``18..26`` = 1-9 餅 (``b``),
``27`` = 千字 (``qz``), ``28`` = 白花 (``bh``), ``29`` = 紅花 (``hh``).  The optional
125-card deck adds the five wild cards 福 祿 壽 喜 財 (``fu lu shou xi cai``), kinds
``30..34``, one copy each.  A hand is usually handled as a *count vector* of length 30
(copies of each kind).

Notation (``docs/rules/nantong.md`` §1): a card is a rank digit + suit code
(``5w``, ``9t``, ``1b``) or an honour code (``qz``, ``bh``, ``hh``), or a Chinese form
(``五萬``/``五万``/``5萬``, ``九條``/``九条``, ``一餅``/``一饼``, ``千字``/``千``,
``白花``, ``紅花``/``红花``).  A digit string + suit code is one card per digit
(``123b`` = 1b 2b 3b); a suffix ``xN`` (N = 1-4) repeats the card before it
(``qzx3``, ``5wx2``).  ASCII is case-insensitive; items (whitespace- or comma-separated)
are numbered from 1 in error messages.

Score record (one active player)::

    jiang=A,B win=self:C|discard:C|tiancheng|none hand=CARDS [melds=TYPE:CARD ...]

with meld types ``pong mkong ckong qishou hezi``.  :func:`parse_record` checks the
*tokens* only; the rule-dependent checks (將 limits, copies, size, shape) are made by
:func:`kaptai.nantong.scoring.check_record`, in the page's order.

Examples
--------
>>> from kaptai.nantong.cards import parse_cards, format_cards, parse_record
>>> parse_cards("123b qzx2 五萬")
(18, 19, 20, 27, 27, 4)
>>> format_cards(parse_cards("紅花 9條 九条 1w"))
'1w 9t 9t hh'
>>> rec = parse_record("jiang=5w,7b win=self:9w hand=99w 123b melds=pong:bh")
>>> rec.win, format_cards([rec.win_card]), rec.melds
('self', '9w', (Meld(type='pong', kind=28),))
>>> parse_cards("10w")
Traceback (most recent call last):
...
kaptai.nantong.cards.InvalidCardError: unknown card token '10w' (item 1)
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field

from numbers import Integral

import numpy as np

from kaptai.errors import InvalidHandError, KaptaiError, as_items, quote_token

__all__ = [
    "InvalidCardError",
    "WildCardError",
    "RecordError",
    "JiangLimitError",
    "TooManyCopiesError",
    "HandSizeError",
    "NotWinningError",
    "MeldError",
    "WinningCardError",
    "N_KINDS",
    "N_WILD_KINDS",
    "SUITS",
    "HONOURS",
    "WILDS",
    "HONOUR_KINDS",
    "LAOJIANG",
    "WILD_KINDS",
    "MELD_TYPES",
    "WIN_TYPES",
    "COPIES",
    "kind",
    "kind_suit",
    "kind_rank",
    "is_honour",
    "parse_card",
    "parse_cards",
    "format_card",
    "format_cards",
    "format_compact",
    "counts_of",
    "kinds_of",
    "Meld",
    "ScoreRecord",
    "parse_record",
    "format_record",
]


# ----------------------------------------------------------------------------- errors


class InvalidCardError(KaptaiError):
    """A token that is not a card (unknown code, digit 0, bad multiplicity)."""


class WildCardError(InvalidCardError):
    """A wild card (福祿壽喜財) where the 120-card deck is in use."""


class RecordError(KaptaiError):
    """A score record with a missing, repeated or malformed field."""


class JiangLimitError(RecordError):
    """A meld needing more copies of a 將 than remain after 翻將 (3, or 2 under 雙將)."""


class MeldError(RecordError):
    """A meld that is not what its type says (e.g. ``qishou`` of a 雙將 card)."""


class TooManyCopiesError(InvalidHandError):
    """More copies of a card in hand + melds + turned cards than the deck holds."""


class HandSizeError(InvalidHandError):
    """Hand + melds not 23 units (completer) or 22 (``win=none``)."""


class NotWinningError(InvalidHandError):
    """A completer whose hand + melds do not form 1 pair + 7 melds."""


class WinningCardError(InvalidHandError):
    """A winning card that is not in the concealed hand."""


# ----------------------------------------------------------------------------- the deck

#: Kinds of the 120-card deck (27 suited + 3 honours).
N_KINDS: int = 30
#: Kinds including the five wild cards of the 125-card deck.
N_WILD_KINDS: int = 35
#: Suit codes by suit index (萬 條 餅).
SUITS: str = "wtb"
#: Honour codes, kinds 27, 28, 29 (千字 白花 紅花).
HONOURS: tuple[str, ...] = ("qz", "bh", "hh")
#: Wild codes, kinds 30..34 (福 祿 壽 喜 財), 125-card deck only.
WILDS: tuple[str, ...] = ("fu", "lu", "shou", "xi", "cai")
#: Kinds of the honours.
HONOUR_KINDS: tuple[int, ...] = (27, 28, 29)
#: Kinds of the 老將 (宿將, 常將): 千字, 白花, 紅花 and 九條.
LAOJIANG: tuple[int, ...] = (17, 27, 28, 29)
#: Kinds of the wild cards.
WILD_KINDS: tuple[int, ...] = (30, 31, 32, 33, 34)
#: Meld types of a score record.
MELD_TYPES: tuple[str, ...] = ("pong", "mkong", "ckong", "qishou", "hezi")
#: Win types of a score record.
WIN_TYPES: tuple[str, ...] = ("self", "discard", "tiancheng", "none")
#: Copies of each kind in the 125-card deck (the first 30 are the 120-card deck).
COPIES: tuple[int, ...] = (4,) * 30 + (1,) * 5

_RANK_ZH = "一二三四五六七八九"
_SUIT_ZH = {"萬": 0, "万": 0, "條": 1, "条": 1, "餅": 2, "饼": 2}
_NAMED_ZH = {
    "千字": 27, "千": 27, "白花": 28, "紅花": 29, "红花": 29,
    "福": 30, "祿": 31, "禄": 31, "壽": 32, "寿": 32, "喜": 33, "財": 34, "财": 34,
}
_NAMED = {"qz": 27, "bh": 28, "hh": 29, "fu": 30, "lu": 31, "shou": 32, "xi": 33, "cai": 34}
_ZH_OF = {0: "萬", 1: "條", 2: "餅"}
_HONOUR_ZH = {27: "千字", 28: "白花", 29: "紅花", 30: "福", 31: "祿", 32: "壽", 33: "喜", 34: "財"}

_SPLIT = re.compile(r"[\s,，]+")
_MULT = r"(?:[x×\*]([0-9]+))?"
_RUN_RE = re.compile(r"([0-9一二三四五六七八九]+)([wtb萬万條条餅饼])" + _MULT + r"$")
_NAMED_RE = re.compile(r"(qz|bh|hh|fu|lu|shou|xi|cai|千字|千|白花|紅花|红花|福|祿|禄|壽|寿|喜|財|财)" + _MULT + r"$")


def kind(rank: int, suit: int) -> int:
    """Kind of the suited card of ``rank`` (1-9) and ``suit`` (0-2 = 萬 條 餅).

    >>> kind(9, 1), format_card(kind(9, 1))
    (17, '9t')
    """
    return 9 * int(suit) + int(rank) - 1


def kind_suit(k: int) -> int:
    """Suit index 0-2 of a suited kind, 3 for an honour, 4 for a wild.

    >>> kind_suit(0), kind_suit(26), kind_suit(28)
    (0, 2, 3)
    """
    k = int(k)
    return k // 9 if k < 27 else (3 if k < 30 else 4)


def kind_rank(k: int) -> int:
    """Rank 1-9 of a suited kind (0 for honours and wilds).

    >>> kind_rank(17), kind_rank(27)
    (9, 0)
    """
    k = int(k)
    return k % 9 + 1 if k < 27 else 0


def is_honour(k: int) -> bool:
    """True for 千字, 白花, 紅花.

    >>> is_honour(27), is_honour(17)
    (True, False)
    """
    return 27 <= int(k) < 30


def _item(token: str, position: int) -> list[int]:
    """The kinds of one item (a card, a digit run, a card with ``xN``)."""
    t = token.strip().lower()
    m = _RUN_RE.match(t)
    if m:
        digits, suit, mult = m.groups()
        ranks = []
        for ch in digits:
            r = int(ch) if ch.isdigit() else _RANK_ZH.index(ch) + 1
            if r == 0:
                raise InvalidCardError(f"unknown card token {quote_token(token)} (item {position})")
            ranks.append(r)
        s = "wtb".index(suit) if suit in "wtb" else _SUIT_ZH[suit]
        kinds = [kind(r, s) for r in ranks]
    else:
        m = _NAMED_RE.match(t)
        if not m:
            raise InvalidCardError(f"unknown card token {quote_token(token)} (item {position})")
        name, mult = m.groups()
        kinds = [_NAMED[name] if name in _NAMED else _NAMED_ZH[name]]
    if mult is not None:
        n = int(mult) if len(mult) <= 2 else 0  # never int() of 5,000 digits
        if not 1 <= n <= 4:
            raise InvalidCardError(
                f"bad multiplicity in card token {quote_token(token)} (item {position}): expected x1 to x4"
            )
        if len(kinds) != 1:
            raise InvalidCardError(
                f"card token {quote_token(token)} (item {position}): a multiplicity xN repeats one card, "
                f"not a run of {len(kinds)}"
            )
        kinds = kinds * n
    return kinds


def _check_deck(kinds: Iterable[int], tokens: Sequence[str], deck: int) -> None:
    if isinstance(deck, bool) or deck not in (120, 125):
        raise KaptaiError(f"deck={quote_token(deck)}: expected 120 or 125 (cards)")
    if deck == 125:
        return
    for k in kinds:
        if k >= N_KINDS:
            raise WildCardError(f"card {WILDS[k - 30]!r} not in the 120-card deck")


def parse_card(token: str, *, deck: int = 120) -> int:
    """Kind of one card token.

    Parameters
    ----------
    token : str
        ``'5w'``, ``'qz'``, ``'九條'``, ... (a single card; ``'5wx1'`` is accepted).
    deck : {120, 125}
        With 120 the wild cards are an error.

    Examples
    --------
    >>> parse_card("9T"), parse_card("紅花"), parse_card("5萬")
    (17, 29, 4)
    >>> parse_card("fu")
    Traceback (most recent call last):
    ...
    kaptai.nantong.cards.WildCardError: card 'fu' not in the 120-card deck
    """
    kinds = _item(str(token), 1)
    if len(kinds) != 1:
        raise InvalidCardError(f"card token {quote_token(token)} (item 1) is {len(kinds)} cards, expected one")
    _check_deck(kinds, [token], deck)
    return kinds[0]


def parse_cards(text: str | Iterable[str], *, deck: int = 120) -> tuple[int, ...]:
    """Kinds of the cards of a notation string (or of a list of tokens), in order.

    Examples
    --------
    >>> parse_cards("147b 5wx2 千")
    (18, 21, 24, 4, 4, 27)
    >>> parse_cards("5w 0b")
    Traceback (most recent call last):
    ...
    kaptai.nantong.cards.InvalidCardError: unknown card token '0b' (item 2)
    """
    if isinstance(text, str):
        tokens = [t for t in _SPLIT.split(text.strip()) if t]
        if not tokens and text.strip():  # ',': a list of nothing, not an empty one
            raise InvalidHandError(f"{quote_token(text)} holds only separators, no card (give '' for none)")
    else:
        tokens = [str(t) for t in as_items(text, "cards")]
    out: list[int] = []
    for i, tok in enumerate(tokens, 1):
        out.extend(_item(tok, i))
    _check_deck(out, tokens, deck)
    return tuple(out)


def format_card(k: int, *, chinese: bool = False) -> str:
    """Canonical code of a kind (``'5w'``, ``'qz'``), or its Chinese name.

    >>> format_card(4), format_card(4, chinese=True), format_card(27, chinese=True)
    ('5w', '五萬', '千字')
    """
    if isinstance(k, (bool, np.bool_)) or not isinstance(k, Integral) or not 0 <= int(k) < N_WILD_KINDS:
        raise InvalidCardError(f"card kind {quote_token(k)} is not a card: expected 0 to {N_WILD_KINDS - 1}")
    _check_chinese(chinese)
    k = int(k)
    if k < 27:
        r, s = k % 9, k // 9
        return f"{_RANK_ZH[r]}{_ZH_OF[s]}" if chinese else f"{r + 1}{SUITS[s]}"
    if chinese:
        return _HONOUR_ZH[k]
    return HONOURS[k - 27] if k < 30 else WILDS[k - 30]


def _check_chinese(chinese: object) -> None:
    if not isinstance(chinese, (bool, np.bool_)):
        raise KaptaiError(f"chinese={quote_token(chinese)}: expected True (Chinese names) or False (codes)")


def format_cards(kinds: Iterable[int], *, chinese: bool = False) -> str:
    """Cards sorted by kind, one token each.

    >>> format_cards([27, 4, 4])
    '5w 5w qz'
    """
    items = as_items(kinds, "cards")
    _check_chinese(chinese)
    for k in items:
        format_card(k)  # a kind that is not a card: InvalidCardError naming it
    return " ".join(format_card(k, chinese=chinese) for k in sorted(int(k) for k in items))


def format_compact(kinds: Iterable[int]) -> str:
    """Compact notation: one digit string per suit, then honours with ``xN``.

    >>> format_compact(parse_cards("3b 1b 2b 9w 9w qz qz qz"))
    '99w 123b qzx3'
    """
    c = counts_of(kinds, n=N_WILD_KINDS)
    parts = []
    for s in range(3):
        digits = "".join(str(r + 1) * int(c[9 * s + r]) for r in range(9))
        if digits:
            parts.append(digits + SUITS[s])
    for k in range(27, N_WILD_KINDS):
        if c[k]:
            code = format_card(k)
            parts.append(code if c[k] == 1 else f"{code}x{int(c[k])}")
    return " ".join(parts)


def counts_of(kinds: Iterable[int], n: int = N_KINDS) -> np.ndarray:
    """Count vector (length ``n``, uint8) of a sequence of kinds.

    >>> counts_of([0, 0, 29]).tolist()[:2], int(counts_of([0, 0, 29])[29])
    ([2, 0], 1)
    """
    out = np.zeros(n, dtype=np.uint8)
    for k in kinds:
        out[int(k)] += 1
    return out


def kinds_of(counts: Sequence[int]) -> tuple[int, ...]:
    """The kinds of a count vector, sorted (inverse of :func:`counts_of`).

    >>> kinds_of([2, 0, 1])
    (0, 0, 2)
    """
    return tuple(k for k, c in enumerate(counts) for _ in range(int(c)))


# ----------------------------------------------------------------------------- records


@dataclass(frozen=True)
class Meld:
    """One exposed or declared set of a score record: ``type`` (one of :data:`MELD_TYPES`)
    and the ``kind`` of its cards."""

    type: str
    kind: int

    def __str__(self) -> str:
        return f"{self.type}:{format_card(self.kind)}"


@dataclass(frozen=True)
class ScoreRecord:
    """A parsed score record (tokens checked, nothing else).

    Attributes
    ----------
    jiang : tuple of two kinds
        The turned cards (翻將); one with the option ``single_turn``.
    win : {'self', 'discard', 'tiancheng', 'none'}
    win_card : int or None
        The winning card for ``self``/``discard``.
    hand : tuple of kinds
        The concealed cards (including the winning card), sorted by kind.
    melds : tuple of Meld
    yazhuang : bool
        The player announced 壓莊 (only used by the option ``yazhuang_double``).
    """

    jiang: tuple[int, ...]
    win: str
    win_card: int | None
    hand: tuple[int, ...]
    melds: tuple[Meld, ...] = field(default_factory=tuple)
    yazhuang: bool = False

    @property
    def completer(self) -> bool:
        """True for ``self``, ``discard`` and ``tiancheng``."""
        return self.win != "none"

    @property
    def double_jiang(self) -> bool:
        """雙將: both turned cards identical."""
        return len(self.jiang) == 2 and self.jiang[0] == self.jiang[1]


_KEYS = ("jiang", "win", "hand", "melds", "yazhuang")


def _card_list(tokens: list[str], deck: int) -> tuple[int, ...]:
    out: list[int] = []
    for i, tok in enumerate(tokens, 1):
        out.extend(_item(tok, i))
    _check_deck(out, tokens, deck)
    return tuple(out)


def parse_record(text: str, *, deck: int = 120) -> ScoreRecord:
    """Parse a score record, checking its tokens (the first of the page's checks).

    Parameters
    ----------
    text : str
        ``jiang=A,B win=... hand=CARDS [melds=TYPE:CARD ...]`` (fields in any order; an
        optional ``yazhuang=yes`` marks a 壓莊 announcement).
    deck : {120, 125}

    Raises
    ------
    InvalidCardError
        An unknown card token (naming it and its item number).
    RecordError
        A missing, repeated or malformed field or meld.

    Examples
    --------
    >>> r = parse_record("jiang=hh,4w win=none hand=888w 5b melds=qishou:hh mkong:9t")
    >>> r.jiang, r.win, len(r.hand), [str(m) for m in r.melds]
    ((29, 3), 'none', 4, ['qishou:hh', 'mkong:9t'])
    >>> parse_record("jiang=5w,5w win=self:9w hand=99w melds=peng:5w")
    Traceback (most recent call last):
    ...
    kaptai.nantong.cards.RecordError: unknown meld type 'peng' in 'peng:5w' (meld 1): expected one of pong, mkong, ckong, qishou, hezi
    """
    if not isinstance(text, str):
        raise RecordError(f"a score record must be a string, got {type(text).__name__}")
    fields: dict[str, list[str]] = {}
    current: str | None = None
    for tok in (t for t in re.split(r"\s+", text.strip()) if t):
        if "=" in tok:
            key, _, value = tok.partition("=")
            key = key.lower()
            if key not in _KEYS:
                raise RecordError(f"unknown record field {quote_token(key)} in {quote_token(tok)}: expected one of {', '.join(_KEYS)}")
            if key in fields:
                raise RecordError(f"record field {key!r} given twice")
            fields[key] = [value] if value else []
            current = key
        else:
            if current is None:
                raise RecordError(f"record token {quote_token(tok)} before any field: expected 'jiang=A,B win=... hand=...'")
            fields[current].append(tok)
    for key in ("jiang", "win", "hand"):
        if key not in fields:
            raise RecordError(f"record has no {key}= field: expected 'jiang=A,B win=... hand=CARDS [melds=...]'")
    # jiang
    jt = [t for t in ",".join(fields["jiang"]).split(",") if t]
    if len(jt) not in (1, 2):
        raise RecordError(f"jiang={quote_token(','.join(fields['jiang']))}: expected two turned cards, e.g. jiang=5w,7b "
                          f"(one with the option single_turn)")
    jiang = tuple(_item(t, i)[0] if len(_item(t, i)) == 1 else _bad_single(t, i) for i, t in enumerate(jt, 1))
    _check_deck(jiang, jt, deck)
    # win
    if len(fields["win"]) != 1:
        raise RecordError(f"win={quote_token(' '.join(fields['win']))}: expected self:C, discard:C, tiancheng or none")
    wtok = fields["win"][0]
    wtype, _, wcard = wtok.partition(":")
    wtype = wtype.lower()
    if wtype not in WIN_TYPES:
        raise RecordError(f"unknown win type {quote_token(wtype)} in win={quote_token(wtok)}: expected self:C, discard:C, tiancheng or none")
    win_card = None
    if wtype in ("self", "discard"):
        if not wcard:
            raise RecordError(f"win={quote_token(wtok)} needs the winning card, e.g. win={wtype}:9w")
        kinds = _item(wcard, 1)
        if len(kinds) != 1:
            _bad_single(wcard, 1)
        _check_deck(kinds, [wcard], deck)
        win_card = kinds[0]
    elif wcard:
        raise RecordError(f"win={quote_token(wtok)}: {wtype} takes no winning card")
    hand = _card_list(fields["hand"], deck)
    melds = []
    for i, tok in enumerate(fields.get("melds", []), 1):
        mtype, sep, mcard = tok.partition(":")
        if not sep or not mcard:
            raise RecordError(f"meld {quote_token(tok)} (meld {i}): expected TYPE:CARD, e.g. pong:5w")
        mtype = mtype.lower()
        if mtype not in MELD_TYPES:
            raise RecordError(
                f"unknown meld type {quote_token(mtype)} in {quote_token(tok)} (meld {i}): expected one of {', '.join(MELD_TYPES)}"
            )
        kinds = _item(mcard, i)
        if len(set(kinds)) != 1:
            raise MeldError(f"meld {quote_token(tok)} (meld {i}) names different cards: a meld is one kind of card")
        _check_deck(kinds, [mcard], deck)
        if len(kinds) > 1:
            need = {"pong": 3, "mkong": 4, "ckong": 4, "hezi": 2}.get(mtype)
            if need is not None and len(kinds) != need:
                raise MeldError(f"{mtype}:{format_card(kinds[0])} written with {len(kinds)} cards; a {mtype} has {need}")
            if mtype == "qishou" and len(kinds) not in (3, 4):
                raise MeldError(
                    f"qishou:{format_card(kinds[0])} is neither a kong nor all remaining 將 copies"
                )
        melds.append((Meld(mtype, kinds[0]), len(kinds)))
    yz = False
    if "yazhuang" in fields:
        v = " ".join(fields["yazhuang"]).lower()
        if v not in ("yes", "no", "true", "false", "1", "0"):
            raise RecordError(f"yazhuang={quote_token(v)}: expected yes or no")
        yz = v in ("yes", "true", "1")
    rec = ScoreRecord(jiang=tuple(int(j) for j in jiang), win=wtype, win_card=win_card, hand=tuple(sorted(hand)),
                      melds=tuple(m for m, _ in melds), yazhuang=yz)
    # a qishou written with its cards: 3 cards must be a 將 (no 雙將), 4 a non-將 kong
    for m, n in melds:
        if m.type == "qishou" and n > 1:
            is_jiang = m.kind in rec.jiang
            if (n == 4 and is_jiang) or (n == 3 and (not is_jiang or rec.double_jiang)):
                if is_jiang and rec.double_jiang:
                    raise MeldError(f"qishou:{format_card(m.kind)} is a 雙將 card: use hezi:{format_card(m.kind)}")
                raise MeldError(f"qishou:{format_card(m.kind)} is neither a kong nor all remaining 將 copies")
    return rec


def _bad_single(token: str, position: int):
    raise InvalidCardError(f"card token {quote_token(token)} (item {position}) is several cards, expected one")


def format_record(rec: ScoreRecord) -> str:
    """The canonical text of a record (round-trips through :func:`parse_record`).

    >>> format_record(parse_record("jiang=7b,5w win=discard:5B hand=5b 5b melds=pong:qz"))
    'jiang=7b,5w win=discard:5b hand=55b melds=pong:qz'
    """
    if not isinstance(rec, ScoreRecord):
        raise RecordError(f"expected a ScoreRecord (parse_record's), got {type(rec).__name__} {quote_token(rec)}")
    win = rec.win if rec.win_card is None else f"{rec.win}:{format_card(rec.win_card)}"
    out = f"jiang={','.join(format_card(j) for j in rec.jiang)} win={win} hand={format_compact(rec.hand)}"
    if rec.melds:
        out += " melds=" + " ".join(str(m) for m in rec.melds)
    if rec.yazhuang:
        out += " yazhuang=yes"
    return out
