"""Tests of kaptai.kts.tiles against the tile table of rules/kap-tai-shap.md §1."""

from __future__ import annotations

import itertools
import re

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from kaptai.errors import InvalidHandError, InvalidTileError, KaptaiError
from kaptai.kts.tiles import (
    COPIES_PER_SET,
    GENERAL_EYE_IDS,
    IS_CIVIL,
    N_TILE_TYPES,
    RUN_VALUE,
    STYLES,
    TEN_VALUE,
    TILES,
    Tile,
    format_hand,
    format_tile,
    parse_hand,
    parse_tile,
    run_values,
    tile_counts,
)

# The rules table, copied by hand: id, pips, Chinese name, class, per set, pip total,
# ten-value, run-value.
TABLE = [
    (0, (6, 6), "天", "civil", 2, 12, 12, 12),
    (1, (1, 1), "地", "civil", 2, 2, 2, 2),
    (2, (4, 4), "人", "civil", 2, 8, 8, 8),
    (3, (1, 3), "和", "civil", 2, 4, 4, 4),
    (4, (5, 5), "梅", "civil", 2, 10, 10, 10),
    (5, (3, 3), "長三", "civil", 2, 6, 6, 6),
    (6, (2, 2), "板凳", "civil", 2, 4, 4, 4),
    (7, (5, 6), "斧頭", "civil", 2, 11, 11, 11),
    (8, (4, 6), "紅頭十", "civil", 2, 10, 10, 10),
    (9, (1, 6), "高腳七", "civil", 2, 7, 7, 7),
    (10, (1, 5), "零霖六", "civil", 2, 6, 6, 6),
    (11, (4, 5), "雜九", "military", 1, 9, 9, 9),
    (12, (3, 6), "雜九", "military", 1, 9, 9, 9),
    (13, (2, 6), "雜八", "military", 1, 8, 8, 8),
    (14, (3, 5), "雜八", "military", 1, 8, 8, 8),
    (15, (2, 5), "雜七", "military", 1, 7, 7, 7),
    (16, (3, 4), "雜七", "military", 1, 7, 7, 7),
    (17, (1, 4), "雜五", "military", 1, 5, 5, 5),
    (18, (2, 3), "雜五", "military", 1, 5, 5, 5),
    (19, (2, 4), "至尊", "military", 1, 6, 3, 6),
    (20, (1, 2), "至尊", "military", 1, 3, 3, 3),
]

ENGLISH = {
    0: "heaven", 1: "earth", 2: "man", 3: "harmony", 4: "plum", 5: "long-three",
    6: "bench", 7: "axe", 8: "red-ten", 9: "long-seven", 10: "copper-six",
}

CHINESE = {
    "天": 0, "地": 1, "人": 2, "和": 3, "鵝": 3, "鹅": 3, "梅": 4, "長三": 5, "长三": 5,
    "板凳": 6, "斧頭": 7, "斧头": 7, "紅頭十": 8, "红头十": 8, "高腳七": 9, "高脚七": 9,
    "零霖六": 10,
}


# ---------------------------------------------------------------------------- table


@pytest.mark.parametrize("row", TABLE, ids=lambda r: f"id{r[0]}")
def test_tile_matches_rules_table(row):
    id_, pips, zh, cls, per_set, total, ten, run = row
    t = TILES[id_]
    assert isinstance(t, Tile)
    assert (t.id, t.pips, t.name_zh, t.tile_class, t.per_set) == (id_, pips, zh, cls, per_set)
    assert (t.pip_total, t.ten_value, t.run_value) == (total, ten, run)
    assert t.pips[0] <= t.pips[1]
    assert t.is_civil == (cls == "civil")
    assert TEN_VALUE[id_] == ten
    assert RUN_VALUE[id_] == run
    assert COPIES_PER_SET[id_] == per_set
    assert IS_CIVIL[id_] == (cls == "civil")
    if cls == "civil":
        assert t.name_en == ENGLISH[id_]


def test_table_shape_and_arrays():
    assert N_TILE_TYPES == 21 == len(TILES)
    assert [t.id for t in TILES] == list(range(21))
    # All 21 unordered pairs of 1..6 occur exactly once.
    assert sorted(t.pips for t in TILES) == sorted(itertools.combinations_with_replacement(range(1, 7), 2))
    assert int(COPIES_PER_SET.sum()) == 32  # one set
    assert IS_CIVIL.sum() == 11
    assert GENERAL_EYE_IDS == (0, 1, 2, 3)
    for arr, dtype in ((TEN_VALUE, np.int64), (RUN_VALUE, np.int64), (COPIES_PER_SET, np.int64), (IS_CIVIL, np.bool_)):
        assert arr.dtype == dtype and arr.shape == (21,)
        assert not arr.flags.writeable
        with pytest.raises(ValueError):
            arr[0] = arr[1]


def test_tile_is_frozen():
    with pytest.raises(AttributeError):
        TILES[0].ten_value = 3  # type: ignore[misc]


def test_run_values_option():
    assert np.array_equal(run_values(), RUN_VALUE)
    three = run_values(3)
    assert int(three[19]) == 3
    assert np.array_equal(np.delete(three, 19), np.delete(RUN_VALUE, 19))
    assert not three.flags.writeable
    for bad in (4, 0, True, "6"):
        with pytest.raises(KaptaiError, match="gee_joon_run_value"):
            run_values(bad)


def test_ten_pairs_by_tile_type():
    # §3: 16 ten pairs summing to 10 and 8 summing to 20, by tile type (identical types included).
    sums = [int(TEN_VALUE[a] + TEN_VALUE[b]) for a, b in itertools.combinations_with_replacement(range(21), 2)]
    assert sums.count(10) == 16
    assert sums.count(20) == 8
    # the identical-type ten pairs named on the rules page
    identical = {a for a in range(21) if TEN_VALUE[a] * 2 in (10, 20)}
    assert identical == {parse_tile(t) for t in ("55", "46", "14", "23")}


def test_parity_uses_ten_value():
    assert TEN_VALUE[parse_tile("2-4")] % 2 == 1


# ---------------------------------------------------------------------------- parsing


@pytest.mark.parametrize("tile", TILES, ids=lambda t: str(t))
def test_parse_pip_forms(tile):
    lo, hi = tile.pips
    forms = [f"{lo}{hi}", f"{hi}{lo}", f"{lo}-{hi}", f"{hi}-{lo}", f"{lo}:{hi}", f"{hi}:{lo}",
             f"  {hi}{lo}\t", f"{lo} - {hi}", f"{lo}：{hi}", chr(0xFF10 + lo) + chr(0xFF10 + hi)]
    for form in forms:
        assert parse_tile(form) == tile.id, form


@pytest.mark.parametrize(("name", "tile_id"), sorted(CHINESE.items()))
def test_parse_chinese_names(name, tile_id):
    assert parse_tile(name) == tile_id
    assert parse_tile(f" {name} ") == tile_id


@pytest.mark.parametrize(("tile_id", "name"), sorted(ENGLISH.items()))
def test_parse_english_names(tile_id, name):
    variants = {name, name.upper(), name.title(), name.replace("-", " "), name.replace("-", "_")}
    for v in variants:
        assert parse_tile(v) == tile_id, v


def test_parse_english_aliases():
    assert parse_tile("goose") == parse_tile("harmony") == 3
    assert parse_tile("Red Head Ten") == 8
    assert parse_tile("long-leg-seven") == 9


@pytest.mark.parametrize(
    ("name", "forms"),
    [
        ("雜九", "4-5 or 3-6"), ("杂九", "4-5 or 3-6"), ("mixed nine", "4-5 or 3-6"),
        ("雜八", "2-6 or 3-5"), ("杂八", "2-6 or 3-5"), ("Mixed-Eight", "2-6 or 3-5"),
        ("雜七", "2-5 or 3-4"), ("杂七", "2-5 or 3-4"), ("mixed_seven", "2-5 or 3-4"),
        ("雜五", "1-4 or 2-3"), ("杂五", "1-4 or 2-3"), ("mixed five", "1-4 or 2-3"),
        ("至尊", "2-4 or 1-2"), ("gee joon", "2-4 or 1-2"),
    ],
)
def test_military_names_are_ambiguous(name, forms):
    with pytest.raises(InvalidTileError, match=f"'{name}' is ambiguous: write {forms}"):
        parse_tile(name)


@pytest.mark.parametrize(("name", "pips"), [("大頭六", "2-4"), ("大头六", "2-4"), ("gee-joon-three", "1-2")])
def test_single_military_names_are_rejected(name, pips):
    with pytest.raises(InvalidTileError, match=f"'{name}' names a military tile.*write {pips}"):
        parse_tile(name)


@pytest.mark.parametrize("token", ["17", "77", "00", "6-7", "123", "7:1", "1-2-3", "6", "60"])
def test_non_domino_pips(token):
    with pytest.raises(InvalidTileError, match=rf"'{token}' is not a domino: .*1 to 6.*21 pairs"):
        parse_tile(token)


@pytest.mark.parametrize("token", ["foo", "6/6", "heavens", "天天", "6 6", "x(6-6)"])
def test_unknown_tokens(token):
    with pytest.raises(InvalidTileError, match=re.escape(repr(token)) + ".*expected two pip digits"):
        parse_tile(token)


def test_parse_tile_other_errors():
    with pytest.raises(InvalidTileError, match="empty tile token"):
        parse_tile("  ")
    with pytest.raises(InvalidTileError, match="must be a string.*int 66"):
        parse_tile(66)  # type: ignore[arg-type]
    with pytest.raises(InvalidTileError, match=r"'雜九\(2-4\)': 雜九 is 4-5 or 3-6, not 2-4"):
        parse_tile("雜九(2-4)")
    with pytest.raises(InvalidTileError, match=r"'天\(1-1\)': 天 is 6-6, not 1-1"):
        parse_tile("天(1-1)")
    with pytest.raises(InvalidTileError, match="'77' is not a domino"):
        parse_tile("雜九(77)")


def test_parse_name_with_pips():
    assert parse_tile("雜九(4-5)") == 11
    assert parse_tile("杂九（6-3）") == 12
    assert parse_tile("mixed nine (3:6)") == 12
    assert parse_tile("天(66)") == 0
    assert parse_tile("至尊(2-4)") == 19
    assert parse_tile("gee-joon(12)") == 20


# ---------------------------------------------------------------------------- hands


def test_parse_hand_forms():
    assert parse_hand("66 6-6,4:2 ,, heaven  長三") == (0, 0, 19, 0, 5)
    assert parse_hand("66，24、12") == (0, 19, 20)
    assert parse_hand("") == ()
    assert parse_hand([0, "1-1", np.int64(19), TILES[20]]) == (0, 1, 19, 20)
    assert parse_hand(np.array([3, 2, 1])) == (3, 2, 1)
    assert parse_hand(iter(["66"])) == (0,)
    assert parse_hand(["long three"]) == (5,)


def test_parse_hand_bad_tokens_name_position():
    with pytest.raises(InvalidTileError, match="tile 3 of the hand: '17' is not a domino"):
        parse_hand("66 24 17 11")
    with pytest.raises(InvalidTileError, match="tile 2 of the hand: unknown tile 'foo'"):
        parse_hand(["66", "foo"])
    with pytest.raises(InvalidTileError, match="tile 1 of the hand: '雜九' is ambiguous: write 4-5 or 3-6"):
        parse_hand("雜九 66")


@pytest.mark.parametrize(("bad", "pos"), [([0, 21], 2), ([-1], 1), ([0, 1, 99], 3)])
def test_parse_hand_ids_out_of_range(bad, pos):
    value = bad[pos - 1]
    with pytest.raises(InvalidTileError, match=rf"tile {pos} of the hand: tile id {value} is out of range: expected an integer 0-20"):
        parse_hand(bad)


@pytest.mark.parametrize("bad", [True, 1.0, None, b"66"])
def test_parse_hand_non_tiles(bad):
    with pytest.raises(InvalidTileError, match="tile 2 of the hand: .* is not a tile"):
        parse_hand([0, bad])


def test_parse_hand_not_a_hand():
    with pytest.raises(InvalidHandError, match="int 5"):
        parse_hand(5)  # type: ignore[arg-type]


def test_parse_hand_size():
    hand = "66 11 44 13 55 33 22 56 46 16"
    assert len(parse_hand(hand, size=10)) == 10
    assert len(parse_hand(hand, size=(8, 10))) == 10
    with pytest.raises(InvalidHandError, match="the hand has 10 tiles: expected 9$"):
        parse_hand(hand, size=9)
    with pytest.raises(InvalidHandError, match="the hand has 10 tiles: expected one of 7, 8$"):
        parse_hand(hand, size={8, 7})
    with pytest.raises(InvalidHandError, match="the hand has 3 tiles: expected 10"):
        parse_hand([0, 1, 2], size=10)


def test_parse_hand_copies():
    # one set: civil tiles twice, military once
    assert parse_hand("66 66 24 12", sets=1) == (0, 0, 19, 20)
    with pytest.raises(InvalidHandError, match="3 copies of 6-6 but 1 set holds at most 2"):
        parse_hand("66 66 天", sets=1)
    with pytest.raises(InvalidHandError, match="2 copies of 2-4 but 1 set holds at most 1"):
        parse_hand("24 42", sets=1)
    # two sets
    assert parse_hand("24 42 66 66 66 66", sets=2) == (19, 19, 0, 0, 0, 0)
    with pytest.raises(InvalidHandError, match="3 copies of 4-5 but 2 sets hold at most 2"):
        parse_hand("45 54 4:5", sets=2)
    with pytest.raises(InvalidHandError, match="5 copies of 1-3 but 2 sets hold at most 4"):
        parse_hand("13 13 13 鵝 harmony", sets=2)
    with pytest.raises(KaptaiError, match="sets=0"):
        parse_hand("66", sets=0)


# ---------------------------------------------------------------------------- formatting


def test_format_tile_styles():
    assert format_tile(0) == "6-6"
    assert format_tile(19, "pips") == "2-4"
    assert format_tile(19, "compact") == "24"
    assert format_tile(3, "zh") == "和"
    assert format_tile(11, "zh") == "雜九(4-5)"
    assert format_tile(20, "zh") == "至尊(1-2)"
    assert format_tile(10, "en") == "copper-six"
    assert format_tile(12, "en") == "mixed-nine(3-6)"
    assert format_tile(np.int64(5), "zh") == "長三"


def test_format_errors():
    cases = [
        (21, "tile id 21 is out of range: expected an integer 0-20"),
        (-1, "tile id -1 is out of range"),
        (True, "tile id True is not an integer"),
        (1.5, "tile id 1.5 is not an integer"),
        ("6-6", "tile id '6-6' is not an integer"),
    ]
    for bad, message in cases:
        with pytest.raises(InvalidTileError, match=message):
            format_tile(bad)  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="unknown tile style 'fancy': expected one of pips, compact, zh, en"):
        format_tile(0, "fancy")
    with pytest.raises(ValueError, match="'fancy'"):
        format_hand([0], style="fancy")
    with pytest.raises(InvalidTileError, match="tile id 30"):
        format_hand([0, 30])


@pytest.mark.parametrize("style", STYLES)
def test_every_tile_round_trips(style):
    for t in TILES:
        text = format_tile(t.id, style)
        assert parse_tile(text) == t.id
        assert parse_hand(text) == (t.id,)


hands = st.lists(st.integers(0, 20), max_size=25)


@settings(max_examples=150, deadline=None)
@given(ids=hands, style=st.sampled_from(STYLES), sep=st.sampled_from([" ", ",", ", ", "  ,", "\n"]))
def test_hand_round_trip(ids, style, sep):
    text = format_hand(ids, style=style, sep=sep)
    assert parse_hand(text) == tuple(ids)
    assert format_hand(text, style=style, sep=sep) == text


@settings(max_examples=100, deadline=None)
@given(ids=hands)
def test_tile_counts(ids):
    c = tile_counts(ids)
    assert c.dtype == np.int64 and c.shape == (21,)
    assert int(c.sum()) == len(ids)
    for i in range(21):
        assert c[i] == ids.count(i)
    assert np.array_equal(tile_counts(np.array(ids, dtype=np.int64)), c)
    assert np.array_equal(tile_counts(format_hand(ids)), c)


def test_tile_counts_errors():
    with pytest.raises(InvalidTileError, match="tile id 21"):
        tile_counts(np.array([0, 21]))
    with pytest.raises(InvalidTileError, match="'77'"):
        tile_counts("66 77")
