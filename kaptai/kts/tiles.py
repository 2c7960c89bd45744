"""The Chinese domino tile table, and parsing and formatting of tiles and hands.

A set (副) of Chinese dominoes has 32 tiles: 11 civil (文) types twice and 10 military
(武) types once.  Tiles are identified by an integer id 0-20, in the order of the table in
``docs/rules/kap-tai-shap.md`` §1; everything else in :mod:`kaptai.kts` works on these ids.

Users write tiles as two pip digits in either order with an optional separator
(``66``, ``6-6``, ``6:6``, ``42``, ``2-4``), or civil tiles by their Chinese or English
name (``天``, ``长三``, ``heaven``, ``long-three``).  Military names such as 雜九 name two
different tiles and are rejected with a message listing both pip forms.

Examples
--------
>>> from kaptai.kts.tiles import parse_hand, format_hand, TILES
>>> ids = parse_hand("66 天 24, long-three")
>>> ids
(0, 0, 19, 5)
>>> format_hand(ids, style="zh")
'天 天 至尊(2-4) 長三'
>>> TILES[19].ten_value, TILES[19].run_value
(3, 6)
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Collection, Iterable, Mapping
from dataclasses import dataclass
from numbers import Integral
from typing import cast

import numpy as np

from kaptai.errors import InvalidHandError, InvalidTileError, KaptaiError, RulesError, quote_token

__all__ = [
    "Tile",
    "TILES",
    "N_TILE_TYPES",
    "TILES_PER_SET",
    "TEN_VALUE",
    "RUN_VALUE",
    "COPIES_PER_SET",
    "IS_CIVIL",
    "GENERAL_EYE_IDS",
    "STYLES",
    "run_values",
    "parse_tile",
    "parse_hand",
    "format_tile",
    "format_hand",
    "tile_counts",
    "MAX_SETS",
    "sets_needed",
    "copies_error",
]


@dataclass(frozen=True)
class Tile:
    """One tile type of the Chinese domino set.

    Attributes
    ----------
    id : int
        Position 0-20 in the rules table.
    pips : tuple of int
        The two pip digits as the rules table writes them, low first: ``(1, 3)``, ``(2, 4)``.
    name_zh, name_en : str
        Chinese and English names.  The English name of a civil tile is the one users may
        type (``'long-three'``); military names are only descriptive.
    tile_class : {'civil', 'military'}
        Civil (文) tiles occur twice per set, military (武) tiles once.
    per_set : int
        Copies in one set of 32 tiles.
    pip_total : int
        Sum of the pips.
    ten_value : int
        Value used when making tens (湊十); 3 for 2-4, otherwise the pip total.
    run_value : int
        Value used in runs (相連) under the default ``gee_joon_run_value=6``: the pip total.

    Examples
    --------
    >>> from kaptai.kts.tiles import TILES
    >>> t = TILES[8]
    >>> t.pips, t.name_zh, t.name_en, t.tile_class, t.per_set
    ((4, 6), '紅頭十', 'red-ten', 'civil', 2)
    >>> str(TILES[19])
    '2-4'
    """

    id: int
    pips: tuple[int, int]
    name_zh: str
    name_en: str
    tile_class: str
    per_set: int
    pip_total: int
    ten_value: int
    run_value: int

    @property
    def is_civil(self) -> bool:
        """Whether the tile is civil (文, two per set)."""
        return self.tile_class == "civil"

    def __str__(self) -> str:
        return f"{self.pips[0]}-{self.pips[1]}"


def _tile(id_: int, pips: tuple[int, int], zh: str, en: str, cls: str, ten: int | None = None) -> Tile:
    total = pips[0] + pips[1]
    return Tile(
        id=id_,
        pips=pips,
        name_zh=zh,
        name_en=en,
        tile_class=cls,
        per_set=2 if cls == "civil" else 1,
        pip_total=total,
        ten_value=total if ten is None else ten,
        run_value=total,
    )


#: The 21 tile types, ``TILES[id]``, in the order of the rules table (§1).
TILES: tuple[Tile, ...] = (
    _tile(0, (6, 6), "天", "heaven", "civil"),
    _tile(1, (1, 1), "地", "earth", "civil"),
    _tile(2, (4, 4), "人", "man", "civil"),
    _tile(3, (1, 3), "和", "harmony", "civil"),
    _tile(4, (5, 5), "梅", "plum", "civil"),
    _tile(5, (3, 3), "長三", "long-three", "civil"),
    _tile(6, (2, 2), "板凳", "bench", "civil"),
    _tile(7, (5, 6), "斧頭", "axe", "civil"),
    _tile(8, (4, 6), "紅頭十", "red-ten", "civil"),
    _tile(9, (1, 6), "高腳七", "long-seven", "civil"),
    _tile(10, (1, 5), "零霖六", "copper-six", "civil"),
    _tile(11, (4, 5), "雜九", "mixed-nine", "military"),
    _tile(12, (3, 6), "雜九", "mixed-nine", "military"),
    _tile(13, (2, 6), "雜八", "mixed-eight", "military"),
    _tile(14, (3, 5), "雜八", "mixed-eight", "military"),
    _tile(15, (2, 5), "雜七", "mixed-seven", "military"),
    _tile(16, (3, 4), "雜七", "mixed-seven", "military"),
    _tile(17, (1, 4), "雜五", "mixed-five", "military"),
    _tile(18, (2, 3), "雜五", "mixed-five", "military"),
    _tile(19, (2, 4), "至尊", "gee-joon-six", "military", ten=3),
    _tile(20, (1, 2), "至尊", "gee-joon-three", "military"),
)

#: Number of tile types.
N_TILE_TYPES: int = 21
#: Tiles in one set (副).
TILES_PER_SET: int = 32
#: Ids of the tiles whose pair is a general eye (將眼): heaven, earth, man, harmony.
GENERAL_EYE_IDS: tuple[int, ...] = (0, 1, 2, 3)


def _frozen(values: Iterable, dtype) -> np.ndarray:
    arr = np.array(list(values), dtype=dtype)
    arr.setflags(write=False)
    return arr


#: Ten-value (湊十 value) per tile id; 2-4 counts 3.
TEN_VALUE: np.ndarray = _frozen((t.ten_value for t in TILES), np.int64)
#: Run-value per tile id with the default ``gee_joon_run_value=6``.
RUN_VALUE: np.ndarray = _frozen((t.run_value for t in TILES), np.int64)
#: Copies of each tile in one set: 2 civil, 1 military.
COPIES_PER_SET: np.ndarray = _frozen((t.per_set for t in TILES), np.int64)
#: Largest number of sets (副) kaptai plays with (the ``sets`` option's bound, 22 players).
MAX_SETS: int = 8
#: Whether each tile is civil.
IS_CIVIL: np.ndarray = _frozen((t.is_civil for t in TILES), np.bool_)

_RUN_VALUE_3 = RUN_VALUE.copy()
_RUN_VALUE_3[19] = 3
_RUN_VALUE_3.setflags(write=False)


def run_values(gee_joon_run_value: int = 6) -> np.ndarray:
    """Run-values (相連 values) of the 21 tiles under the ``gee_joon_run_value`` option.

    Parameters
    ----------
    gee_joon_run_value : {6, 3}
        The value of 2-4 in runs.  6 (the default) counts its pips; 3 uses its ten-value.

    Returns
    -------
    numpy.ndarray
        Read-only int64 array of length 21.

    Raises
    ------
    RulesError
        If ``gee_joon_run_value`` is not 6 or 3.

    Examples
    --------
    >>> from kaptai.kts.tiles import run_values
    >>> int(run_values()[19]), int(run_values(3)[19])
    (6, 3)
    """
    if isinstance(gee_joon_run_value, bool) or gee_joon_run_value not in (6, 3):
        raise RulesError(
            f"gee_joon_run_value={gee_joon_run_value!r} is not allowed: expected 6 or 3"
        )
    return RUN_VALUE if gee_joon_run_value == 6 else _RUN_VALUE_3


# --------------------------------------------------------------------------------------
# Parsing
# --------------------------------------------------------------------------------------

_PIPS_TO_ID: dict[tuple[int, int], int] = {}
for _t in TILES:
    _PIPS_TO_ID[_t.pips] = _t.id
    _PIPS_TO_ID[_t.pips[::-1]] = _t.id
del _t

# Names of civil tiles: each names exactly one tile.
_CIVIL_NAMES: dict[str, int] = {
    # traditional
    "天": 0, "地": 1, "人": 2, "和": 3, "鵝": 3, "梅": 4, "長三": 5, "板凳": 6,
    "斧頭": 7, "紅頭十": 8, "高腳七": 9, "零霖六": 10, "銅錘六": 10,
    # simplified (where different)
    "鹅": 3, "长三": 5, "斧头": 7, "红头十": 8, "高脚七": 9, "铜锤六": 10,
    # English (normalised: lower case, words joined by '-')
    "heaven": 0, "earth": 1, "man": 2, "harmony": 3, "goose": 3, "plum": 4,
    "long-three": 5, "bench": 6, "axe": 7, "red-ten": 8, "red-head-ten": 8,
    "long-seven": 9, "long-leg-seven": 9, "copper-six": 10,
}

# Names of military tiles: rejected; each maps to the tile(s) it may mean.
_MILITARY_NAMES: dict[str, tuple[int, ...]] = {
    "雜九": (11, 12), "杂九": (11, 12), "mixed-nine": (11, 12),
    "雜八": (13, 14), "杂八": (13, 14), "mixed-eight": (13, 14),
    "雜七": (15, 16), "杂七": (15, 16), "mixed-seven": (15, 16),
    "雜五": (17, 18), "杂五": (17, 18), "mixed-five": (17, 18),
    "至尊": (19, 20), "gee-joon": (19, 20), "supreme": (19, 20),
    "大頭六": (19,), "大头六": (19,), "gee-joon-six": (19,), "gee-joon-three": (20,),
}

_PIP_LIKE = re.compile(r"[0-9]+(?:\s*[-:]\s*[0-9]+)*")
_PIP_PAIR = re.compile(r"([0-9])(?:\s*[-:]\s*)?([0-9])")
_NAME_WITH_PIPS = re.compile(r"(?P<name>[^()]+?)\s*\(\s*(?P<pips>[^()]*?)\s*\)")
_HAND_SEP = re.compile(r"[\s,、]+")

_EXPECTED_TOKEN = (  # short: the error line stays under ~200 characters (the names: docs/rules)
    "expected two pip digits 1-6 ('66', '6-6', '4:2') or a civil tile name such as 天, 長三, "
    "heaven or long-three (docs/rules/kap-tai-shap.md)"
)
_EXPECTED_PIPS = (
    "a domino is two pip digits from 1 to 6 in either order (the 21 pairs 1-1, 1-2, ..., 6-6)"
)


def _normalise(token: str) -> str:
    # NFKC folds full-width digits, colons and parentheses to ASCII.
    return unicodedata.normalize("NFKC", token).strip()


def _english_key(text: str) -> str:
    return re.sub(r"[\s_-]+", "-", text.strip().lower()).strip("-")


def _pips_id(text: str, token: str) -> int:
    m = _PIP_PAIR.fullmatch(text)
    if m:
        a, b = int(m.group(1)), int(m.group(2))
        if 1 <= a <= 6 and 1 <= b <= 6:
            return _PIPS_TO_ID[(a, b)]
    raise InvalidTileError(f"{quote_token(token)} is not a domino: {_EXPECTED_PIPS}")


def _name_ids(text: str) -> tuple[tuple[int, ...], bool] | None:
    """Tiles a name may denote and whether the name is a civil one; None if unknown."""
    for key in (text, _english_key(text)):
        if key in _CIVIL_NAMES:
            return (_CIVIL_NAMES[key],), True
        if key in _MILITARY_NAMES:
            return _MILITARY_NAMES[key], False
    return None


def _pip_forms(ids: Iterable[int]) -> str:
    return " or ".join(str(TILES[i]) for i in ids)


def parse_tile(token: str) -> int:
    """Parse one tile token into its tile id.

    Accepted forms: two pip digits in either order with an optional ``-`` or ``:``
    (``'66'``, ``'6-6'``, ``'6:6'``, ``'42'``, ``'2-4'``); the Chinese name of a civil
    tile, traditional or simplified (``'天'``, ``'長三'``, ``'长三'``, ``'鵝'``); its English
    name, case-insensitive, words joined by hyphens, spaces or underscores
    (``'heaven'``, ``'Long Three'``, ``'red_ten'``); or any name followed by the pips in
    parentheses, as :func:`format_tile` writes military tiles (``'雜九(4-5)'``).

    Parameters
    ----------
    token : str
        The tile as typed; surrounding whitespace is ignored.

    Returns
    -------
    int
        The tile id 0-20.

    Raises
    ------
    InvalidTileError
        For an unknown token, a pip pair that is not a domino (``'17'``, ``'77'``,
        ``'123'``), or a military name (雜九 ..., 至尊), which is ambiguous or at least not
        accepted alone: the message lists the pip form(s) to write instead.

    Examples
    --------
    >>> from kaptai.kts.tiles import parse_tile
    >>> parse_tile("6-6"), parse_tile("42"), parse_tile("长三"), parse_tile("Copper Six")
    (0, 19, 5, 10)
    >>> parse_tile("雜九")
    Traceback (most recent call last):
    ...
    kaptai.errors.InvalidTileError: '雜九' is ambiguous: write 4-5 or 3-6
    >>> parse_tile("17")
    Traceback (most recent call last):
    ...
    kaptai.errors.InvalidTileError: '17' is not a domino: a domino is two pip digits from 1 to 6 in either order (the 21 pairs 1-1, 1-2, ..., 6-6)
    """
    if not isinstance(token, str):
        raise InvalidTileError(
            f"a tile token must be a string such as '6-6', got {type(token).__name__} {quote_token(token)}"
        )
    text = _normalise(token)
    if not text:
        raise InvalidTileError(f"empty tile token {quote_token(token)}: {_EXPECTED_TOKEN}")
    if _PIP_LIKE.fullmatch(text):
        return _pips_id(text, token)

    found = _name_ids(text)
    if found is not None:
        ids, civil = found
        if civil:
            return ids[0]
        if len(ids) > 1:
            raise InvalidTileError(f"{quote_token(token)} is ambiguous: write {_pip_forms(ids)}")
        raise InvalidTileError(
            f"{quote_token(token)} names a military tile; only civil tiles may be given by name alone: "
            f"write {_pip_forms(ids)}"
        )

    m = _NAME_WITH_PIPS.fullmatch(text)
    if m:
        pips = m.group("pips")
        if not _PIP_LIKE.fullmatch(pips):
            raise InvalidTileError(
                f"{quote_token(token)}: expected pips in the parentheses, e.g. '雜九(4-5)', got {quote_token(pips)}"
            )
        tile_id = _pips_id(pips, pips)
        named = _name_ids(m.group("name"))
        if named is None:
            raise InvalidTileError(
                f"{quote_token(token)}: unknown tile name {quote_token(m.group('name'))} before the pips; "
                f"{_EXPECTED_TOKEN}"
            )
        if tile_id not in named[0]:
            raise InvalidTileError(
                f"{quote_token(token)}: {m.group('name')} is {_pip_forms(named[0])}, not {pips}"
            )
        return tile_id

    raise InvalidTileError(f"unknown tile {quote_token(token)}: {_EXPECTED_TOKEN}")


def _check_id(value: object, where: str = "") -> int:
    if isinstance(value, (bool, np.bool_)) or not isinstance(value, Integral):
        raise InvalidTileError(
            f"{where}tile id {quote_token(value)} is not an integer: expected an integer 0-20"
        )
    v = int(value)
    if not 0 <= v < N_TILE_TYPES:
        raise InvalidTileError(f"{where}tile id {quote_token(v)} is out of range: expected an integer 0-20")
    return v


def _parse_item(item: object, pos: int) -> int:
    where = f"tile {pos} of the hand: "
    if isinstance(item, Tile):
        return item.id
    if isinstance(item, str):
        try:
            return parse_tile(item)
        except InvalidTileError as exc:
            raise InvalidTileError(f"{where}{exc}") from None
    if isinstance(item, (bool, np.bool_)) or not isinstance(item, Integral):
        raise InvalidTileError(
            f"{where}{quote_token(item)} ({type(item).__name__}) is not a tile: expected a tile id "
            "0-20 or a tile token such as '6-6'"
        )
    return _check_id(item, where)


def _sizes_text(sizes: tuple[int, ...]) -> str:
    if len(sizes) == 1:
        return str(sizes[0])
    return "one of " + ", ".join(str(s) for s in sizes)


def parse_hand(
    hand: str | Iterable[int | str | Tile],
    *,
    size: int | Collection[int] | None = None,
    sets: int | None = None,
) -> tuple[int, ...]:
    """Parse a hand into tile ids, in input order.

    Parameters
    ----------
    hand : str or iterable
        A string of tile tokens separated by spaces and/or commas (empty tokens are
        ignored), or an iterable of tile ids (ints 0-20), tile tokens and/or
        :class:`Tile` objects.  See :func:`parse_tile` for the tokens.
    size : int or collection of int, optional
        Allowed number(s) of tiles.
    sets : int, optional
        Number of sets in play; a tile may appear at most ``sets * COPIES_PER_SET[id]``
        times (2 per set for civil tiles, 1 for military ones).

    Returns
    -------
    tuple of int
        The tile ids.

    Raises
    ------
    InvalidTileError
        For a bad token or id; the message gives its 1-based position in the hand.
    InvalidHandError
        For a hand of the wrong size or with more copies of a tile than ``sets`` hold.

    Examples
    --------
    >>> from kaptai.kts.tiles import parse_hand
    >>> parse_hand("66, 6-6 4:2 heaven")
    (0, 0, 19, 0)
    >>> parse_hand([0, "1-1", 19])
    (0, 1, 19)
    >>> parse_hand("66 66 66", sets=1)
    Traceback (most recent call last):
    ...
    kaptai.errors.InvalidHandError: the hand holds 3 copies of 6-6 but 1 set holds at most 2: it needs 2 sets (--sets 2)
    >>> parse_hand("66 11", size=(8, 10))
    Traceback (most recent call last):
    ...
    kaptai.errors.InvalidHandError: the hand has 2 tiles: expected one of 8, 10
    """
    if isinstance(hand, str):
        items: list = [t for t in _HAND_SEP.split(unicodedata.normalize("NFKC", hand)) if t]
        if not items and hand.strip():  # ',': a list of nothing, not an empty one
            raise InvalidHandError(f"{quote_token(hand)} holds only separators, no tile (give '' for none)")
    elif isinstance(hand, Iterable) and not isinstance(hand, (bytes, bytearray, memoryview, Mapping)) and not (
        isinstance(hand, np.ndarray) and hand.ndim != 1
    ):
        try:
            items = list(hand)
        except TypeError:
            raise InvalidHandError(
                f"a hand must be a string of tile tokens or an iterable of tiles, got "
                f"{type(hand).__name__} {quote_token(hand, 60)}"
            ) from None
    else:
        raise InvalidHandError(
            f"a hand must be a string of tile tokens or an iterable of tiles, got "
            f"{type(hand).__name__} {quote_token(hand, 60)}"
        )
    ids = tuple(_parse_item(item, pos) for pos, item in enumerate(items, start=1))

    if size is not None:
        if isinstance(size, Integral) and not isinstance(size, bool):
            allowed: tuple[int, ...] = (int(size),)
        elif isinstance(size, Collection) and not isinstance(size, str) and all(
            isinstance(s, Integral) and not isinstance(s, bool) for s in size
        ):
            allowed = tuple(sorted({int(s) for s in size}))
        else:
            raise RulesError(f"size={quote_token(size)} is not allowed: expected a hand size or a collection of sizes")
        if len(ids) not in allowed:
            raise InvalidHandError(
                f"the hand has {len(ids)} tiles: expected {_sizes_text(allowed)}"
            )

    if sets is not None:
        if isinstance(sets, bool) or not isinstance(sets, Integral) or not 1 <= sets <= MAX_SETS:
            raise RulesError(f"sets={quote_token(sets)} is not allowed: expected an integer from 1 to {MAX_SETS}")
        err = copies_error(np.bincount(np.asarray(ids, dtype=np.int64), minlength=N_TILE_TYPES), int(sets))
        if err is not None:
            raise err
    return ids


def sets_needed(counts: np.ndarray) -> int:
    """The fewest sets that hold ``counts`` (copies per tile id): 2 copies of a civil tile
    per set, 1 of a military tile (at least 1).

    >>> from kaptai.kts.tiles import sets_needed, tile_counts
    >>> sets_needed(tile_counts("66 66 66 66 66")), sets_needed(tile_counts("45 45")), sets_needed(tile_counts(""))
    (3, 2, 1)
    """
    c = np.asarray(counts, dtype=np.int64)
    return max(1, int((-(-c // COPIES_PER_SET)).max(initial=0)))


def copies_error(counts: np.ndarray, sets: int, what: str = "the hand holds") -> InvalidHandError | None:
    """The error for more copies of a tile than ``sets`` sets hold (None when they fit),
    saying how many sets the tiles need (``--sets`` on the command line).

    Parameters
    ----------
    counts : array of 21 ints
        Copies per tile id (the hand, or the hand and the seen tiles ...).
    sets : int
        Sets in play.
    what : str
        The subject of the message (``'the hand and the seen tiles hold'``).

    Examples
    --------
    >>> from kaptai.kts.tiles import copies_error, tile_counts
    >>> print(copies_error(tile_counts("66 66 66 66 66 11 22 33 44 55"), 2))
    the hand holds 5 copies of 6-6 but 2 sets hold at most 4 (one set has 2 copies of it): it needs 3 sets (--sets 3)
    >>> print(copies_error(tile_counts("66 66 66"), 1))
    the hand holds 3 copies of 6-6 but 1 set holds at most 2: it needs 2 sets (--sets 2)
    >>> copies_error(tile_counts("66 66"), 1) is None
    True
    """
    c = np.asarray(counts, dtype=np.int64)
    limits = int(sets) * COPIES_PER_SET
    over = np.flatnonzero(c > limits)
    if not over.size:
        return None
    i = int(over[0])
    per = int(COPIES_PER_SET[i])
    msg = (f"{what} {int(c[i])} copies of {TILES[i]} but {int(sets)} "
           f"{'set holds' if sets == 1 else 'sets hold'} at most {int(limits[i])}")
    if sets != 1:
        msg += f" (one set has {per} {'copies' if per > 1 else 'copy'} of it)"
    need = sets_needed(c)
    if need <= MAX_SETS:
        msg += f": it needs {need} sets (--sets {need})"
    else:
        msg += f": more than the {MAX_SETS} sets kaptai plays with hold (at most {MAX_SETS * per} copies)"
    return InvalidHandError(msg)


# --------------------------------------------------------------------------------------
# Formatting
# --------------------------------------------------------------------------------------

#: Styles accepted by :func:`format_tile` and :func:`format_hand`.
STYLES: tuple[str, ...] = ("pips", "compact", "zh", "en")


def format_tile(tile_id: int, style: str = "pips") -> str:
    """Write a tile id in one of the notations :func:`parse_tile` reads back.

    Parameters
    ----------
    tile_id : int
        Tile id 0-20.
    style : {'pips', 'compact', 'zh', 'en'}
        ``'pips'``: ``'2-4'`` as the rules table writes it; ``'compact'``: ``'24'``;
        ``'zh'``: the Chinese name, plus the pips for military tiles (``'雜九(4-5)'``);
        ``'en'``: the English name, likewise (``'mixed-nine(4-5)'``).

    Returns
    -------
    str

    Raises
    ------
    InvalidTileError
        If ``tile_id`` is not an integer 0-20.
    KaptaiError
        If ``style`` is unknown (a ``ValueError``).

    Examples
    --------
    >>> from kaptai.kts.tiles import format_tile
    >>> [format_tile(3, s) for s in ("pips", "compact", "zh", "en")]
    ['1-3', '13', '和', 'harmony']
    >>> format_tile(11, "zh"), format_tile(11, "en")
    ('雜九(4-5)', 'mixed-nine(4-5)')
    """
    tile = TILES[_check_id(tile_id)]
    lo, hi = tile.pips
    if style == "pips":
        return f"{lo}-{hi}"
    if style == "compact":
        return f"{lo}{hi}"
    if style in ("zh", "en"):
        name = tile.name_zh if style == "zh" else tile.name_en
        return name if tile.is_civil else f"{name}({lo}-{hi})"
    raise KaptaiError(f"unknown tile style {quote_token(style)}: expected one of {', '.join(STYLES)}")


def format_hand(ids: str | Iterable[int | str | Tile], style: str = "pips", sep: str = " ") -> str:
    """Write a hand in one notation.

    Parameters
    ----------
    ids : str or iterable
        Anything :func:`parse_hand` accepts, usually a sequence of tile ids.
    style : {'pips', 'compact', 'zh', 'en'}
        See :func:`format_tile`.
    sep : str
        Separator between tiles.

    Returns
    -------
    str

    Examples
    --------
    >>> from kaptai.kts.tiles import format_hand
    >>> format_hand([0, 0, 19, 20])
    '6-6 6-6 2-4 1-2'
    >>> format_hand("天 天 鵝", style="compact", sep=",")
    '66,66,13'
    """
    if not isinstance(sep, str):
        raise KaptaiError(f"sep={quote_token(sep)}: expected a string")
    return sep.join(format_tile(i, style) for i in parse_hand(ids))


def tile_counts(ids: str | Iterable[int | str | Tile] | np.ndarray) -> np.ndarray:
    """Count vector of a hand: how many of each tile type it holds.

    Parameters
    ----------
    ids : array_like of int, str or iterable
        Tile ids, or anything :func:`parse_hand` accepts.

    Returns
    -------
    numpy.ndarray
        int64 array of length 21.

    Examples
    --------
    >>> from kaptai.kts.tiles import tile_counts
    >>> c = tile_counts("66 66 24")
    >>> int(c[0]), int(c[19]), int(c.sum()), c.shape
    (2, 1, 3, (21,))
    """
    if isinstance(ids, np.ndarray) and ids.dtype.kind in "iu":
        flat = ids.ravel()
        if flat.size and (flat.min() < 0 or flat.max() >= N_TILE_TYPES):
            bad = int(flat[(flat < 0) | (flat >= N_TILE_TYPES)][0])
            raise InvalidTileError(f"tile id {bad} is out of range: expected an integer 0-20")
        arr = flat.astype(np.int64)
    else:
        arr = np.asarray(parse_hand(ids), dtype=np.int64)
    return np.bincount(arr, minlength=N_TILE_TYPES).astype(np.int64)
