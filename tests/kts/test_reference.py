"""Tests of the reference (oracle) evaluator against the rules page, by hand and by property."""

from __future__ import annotations

import itertools
from types import SimpleNamespace

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from kaptai.kts import reference as ref

# The rules-page table, pips -> id (kept here, independent of the module under test).
PIPS = {
    "66": 0, "11": 1, "44": 2, "13": 3, "55": 4, "33": 5, "22": 6, "56": 7, "46": 8,
    "16": 9, "15": 10, "45": 11, "36": 12, "26": 13, "35": 14, "25": 15, "34": 16,
    "14": 17, "23": 18, "24": 19, "12": 20,
}  # fmt: skip
ONE_SET = (2,) * 11 + (1,) * 10
TWO_SETS = (4,) * 11 + (2,) * 10


def hand(text: str) -> list[int]:
    """Count vector of a hand written as pip pairs, e.g. ``"16 16 12"`` (``+``, ``·`` ignored)."""
    counts = [0] * 21
    for token in text.replace("+", " ").replace("·", " ").split():
        counts[PIPS["".join(sorted(token))]] += 1
    return counts


def rules(forms=ref.FORMS, gee_joon_run_value=6, base_combination="max"):
    return SimpleNamespace(
        forms=frozenset(forms),
        gee_joon_run_value=gee_joon_run_value,
        base_combination=base_combination,
    )


# --------------------------------------------------------------------------------------
# Tile table and ten pairs
# --------------------------------------------------------------------------------------
def test_tile_table():
    assert len(ref.TEN_VALUE) == len(ref.RUN_VALUE) == 21
    for pips, tile in PIPS.items():
        pip_total = int(pips[0]) + int(pips[1])
        assert ref.RUN_VALUE[tile] == pip_total
        assert ref.TEN_VALUE[tile] == (3 if pips == "24" else pip_total)
    assert ref.TEN_VALUE[PIPS["24"]] % 2 == 1  # 2-4 is odd for all-even / all-odd
    assert ref.GENERAL_EYE_IDS == (0, 1, 2, 3)


def test_ten_pair_catalogue():
    tens = {p for p in ref.TEN_PAIRS if ref.TEN_VALUE[p[0]] + ref.TEN_VALUE[p[1]] == 10}
    twenties = {p for p in ref.TEN_PAIRS if ref.TEN_VALUE[p[0]] + ref.TEN_VALUE[p[1]] == 20}
    assert len(ref.TEN_PAIRS) == 24
    assert len(tens) == 16 and len(twenties) == 8
    pairs = lambda text: {tuple(sorted(PIPS[t] for t in p.split("+"))) for p in text.split()}
    assert twenties == pairs("66+44 66+26 66+35 55+55 55+46 46+46 56+45 56+36")
    assert tens == pairs(
        "11+44 11+26 11+35 13+33 13+15 22+33 22+15 16+24 16+12 25+24 25+12 34+24 34+12"
        " 14+14 14+23 23+23"
    )


# --------------------------------------------------------------------------------------
# Worked examples of §4
# --------------------------------------------------------------------------------------
WORKED = [
    ("16 16 · 16+12 · 33+13 · 15+22 · 66+44", "basic", 2, set()),
    ("16 16 · 55+55 · 44+11 · 46+46 · 56+45", "basic", 2, set()),
    ("22 22 · 11+44 · 13+33 · 55+46 · 66+26", "basic", 4, {"all_even"}),
    ("16 16 · 14+23 · 25+12 · 34+12 · 56+36", "basic", 5, {"all_odd"}),
    ("66 66 · 44 44 · 14+14 · 55+55 · 46+46", "general_eyes", 10, {"all_pairs"}),
    ("12 12 · 11+44 · 16+24 · 33 25 26 45", "run4", 2, set()),
    ("55 55 · 16+24 · 13 14 15 34 35 36", "run6", 4, set()),
    ("36 36 · 11 12 22 23 33 16 44 45", "run8", 8, set()),
]


@pytest.mark.parametrize("text, form, points, patterns", WORKED)
def test_worked_examples_advanced(text, form, points, patterns):
    counts = hand(text)
    assert sum(counts) == 10
    top = ref.best(counts, "advanced")
    assert top is not None and top.form == form
    assert top.score == points == ref.score(counts, "advanced")
    assert top.patterns == patterns
    assert ref.is_win(counts, rules())  # a rules object works like the preset name


@pytest.mark.parametrize("text, form, points, patterns", WORKED)
def test_worked_examples_traditional(text, form, points, patterns):
    counts = hand(text)
    is_run = form.startswith("run")
    assert ref.is_win(counts, "traditional") is (not is_run)
    if not is_run:
        assert ref.best(counts, "traditional").form == "basic"
        assert ref.score(counts, rules({"basic"})) == ref.score(counts, "traditional")
    else:
        assert ref.score(counts, "traditional") == -1
        assert ref.best(counts, "traditional") is None
        assert ref.decompositions(counts, "traditional") == []


def test_all_pairs_example_details():
    counts = hand("66 66 44 44 14 14 55 55 46 46")
    found = ref.decompositions(counts, "advanced")
    # By hand: 2 general-eye readings (pairs 14+14 55+55 46+46, or 14+14 55+46 55+46) and
    # 4 basic ones (eye 55, 46, or 14 twice), each with 66+44 twice.
    assert sorted((d.form, d.score) for d in found) == sorted(
        [("general_eyes", 10), ("general_eyes", 4)] + [("basic", 2)] * 4
    )
    assert found[0].groups == (
        ("general_eye", (0, 0)),
        ("general_eye", (2, 2)),
        ("ten_pair", (4, 4)),
        ("ten_pair", (8, 8)),
        ("ten_pair", (17, 17)),
    )
    assert ref.specials(counts, "advanced") == {"all_pairs", "general_eyes"}
    assert ref.specials(counts, "traditional") == frozenset()
    # base_combination='sum': all pairs 8 + basic win 2, plus two general eyes = 12.
    assert ref.score(counts, rules(base_combination="sum")) == 12


# --------------------------------------------------------------------------------------
# Hand-checked cases
# --------------------------------------------------------------------------------------
def test_general_eyes_form():
    counts = hand("66 66 11 11 16+12 34+24 14+23")
    # 66 66 and 11 11 need partners of ten-value 8 to be ten pairs; there are none.
    assert ref.score(counts, "advanced") == 2 + 2
    assert ref.best(counts, "advanced").form == "general_eyes"
    assert not ref.is_win(counts, "traditional")
    assert not ref.is_win(counts, rules(forms={"basic", "run4", "run6", "run8"}))


def test_two_general_eyes_from_one_id():
    counts = hand("66 66 66 66 16+12 34+24 14+23")
    top = ref.best(counts, "advanced")
    assert top.form == "general_eyes" and top.score == 4
    assert top.groups[:2] == (("general_eye", (0, 0)), ("general_eye", (0, 0)))
    assert not ref.is_win(counts, "traditional")


def test_general_eye_in_basic_and_run_forms():
    assert ref.score(hand("11 11 · 16+12 · 33+13 · 15+22 · 66+44"), "traditional") == 3
    assert ref.score(hand("13 13 · 11+44 · 16+24 · 33 25 26 45"), "advanced") == 3
    # 55+55 in a basic hand is a ten pair and may also be the eye: one decomposition
    # per multiset of groups.
    counts = hand("55 55 55 55 · 16+12 · 11+44 · 14+23")
    found = ref.decompositions(counts, "traditional")
    assert len(found) == 1
    assert found[0].groups[0] == ("eye", (4, 4)) and ("ten_pair", (4, 4)) in found[0].groups
    # Whereas 33+13 · 15+22 can also be read 13+15 · 22+33: two decompositions.
    assert len(ref.decompositions(hand(WORKED[0][0]), "traditional")) == 2


def test_gee_joon_run_value():
    six = rules(gee_joon_run_value=6)
    three = rules(gee_joon_run_value=3)
    # Run 24 25 26 36 uses 2-4 as 6: values 6 7 8 9.
    as_six = hand("55 55 · 24 25 26 36 · 11+44 · 13+15")
    assert ref.score(as_six, six) == 2 and ref.best(as_six, six).form == "run4"
    assert not ref.is_win(as_six, three)
    # Run 24 13 14 33 uses 2-4 as 3: values 3 4 5 6.
    as_three = hand("55 55 · 24 13 14 33 · 11+44 · 46+46")
    assert ref.score(as_three, three) == 2 and ref.best(as_three, three).form == "run4"
    assert not ref.is_win(as_three, six)
    # In a ten pair 2-4 is always 3, whatever the run value.
    assert ref.score(hand(WORKED[0][0]), three) == 2


def test_base_combination_sum():
    summed = rules(base_combination="sum")
    assert ref.score(hand(WORKED[2][0]), summed) == 2 + 4
    assert ref.score(hand(WORKED[3][0]), summed) == 2 + 5
    assert ref.score(hand(WORKED[7][0]), summed) == 8


def test_kap_shap():
    counts = hand("33 33 · 46+46 · 55+55 · 16+12")
    assert sum(counts) == 8
    assert ref.score(counts, "traditional") == 2
    assert ref.score(hand("11 11 · 46+46 · 55+55 · 16+12"), "traditional") == 3
    # run6 alone: eye + run of 6, no ten pair.
    run6 = hand("11 11 · 13 14 15 34 35 36")
    assert ref.best(run6, "advanced").form == "run6"
    assert ref.score(run6, "advanced") == 4 + 1
    assert not ref.is_win(run6, "traditional")
    # run4 + 1 ten pair; run8 needs 10 tiles.
    assert ref.best(hand("12 12 · 16+24 · 33 25 26 45"), "advanced").form == "run4"
    assert not ref.is_win(hand("11 12 22 23 33 16 44 45"), "advanced")


def test_waits():
    # Worked example 1 without its 1-2: the lone 1-6 (ten-value 7) waits on a 3.
    ready = hand("16 16 · 16 · 33+13 · 15+22 · 66+44")
    assert ref.waits(ready, "traditional") == [PIPS["24"], PIPS["12"]]
    # Four ten pairs and a single 5-5: a second 5-5 makes the eye; a 4-6 would make a
    # ten pair with it but leave no eye (the other eight tiles are all different).
    single = hand("55 · 16+12 · 33+13 · 15+22 · 66+44")
    assert ref.waits(single, "traditional") == [PIPS["55"]]
    # An eye, three ten pairs and a single 5-6 (ten-value 11): waits on a 9.
    assert ref.waits(hand("16 16 · 55+55 · 44+11 · 46+46 · 56"), "traditional") == [
        PIPS["45"],
        PIPS["36"],
    ]
    # 66 66 11 + three ten pairs: a second 1-1 completes the general-eyes form; an 8
    # (4-4, 2-6, 3-5) pairs with the 1-1 and leaves 66 66 as the basic eye.
    partial = hand("66 66 11 · 16+12 · 34+24 · 14+23")
    eights = [PIPS["44"], PIPS["26"], PIPS["35"]]
    assert ref.waits(partial, "traditional") == eights
    assert ref.waits(partial, "advanced") == [PIPS["11"]] + eights
    with pytest.raises(ValueError):
        ref.waits(hand(WORKED[0][0]), "traditional")


def test_bad_input():
    with pytest.raises(ValueError, match="21 counts"):
        ref.score([1] * 10, "traditional")
    with pytest.raises(ValueError, match="even"):
        ref.score(hand("16 16 16"), "traditional")
    with pytest.raises(ValueError, match="preset"):
        ref.score(hand(WORKED[0][0]), "modern")
    with pytest.raises(ValueError, match="forms"):
        ref.score(hand(WORKED[0][0]), rules(forms={"basic", "seven_pairs"}))
    with pytest.raises(ValueError, match="gee_joon"):
        ref.score(hand(WORKED[0][0]), rules(gee_joon_run_value=4))


# --------------------------------------------------------------------------------------
# Brute-force winning hands and max_overlap
# --------------------------------------------------------------------------------------
@pytest.mark.parametrize("preset", ["traditional", "advanced"])
@pytest.mark.parametrize("copies", [ONE_SET, TWO_SETS])
def test_winning_hands_exhaustive_four_tiles(preset, copies):
    """n = 1: every 4-tile hand within the copies, by the search, equals the generic list."""
    found = set()
    for tiles in itertools.combinations_with_replacement(range(21), 4):
        counts = np.bincount(tiles, minlength=21)
        if (counts <= copies).all() and ref.is_win(counts, preset):
            found.add(counts.tobytes())
    listed = ref.winning_hands(preset, copies, n=1)
    assert {row.astype(np.int64).tobytes() for row in listed} == found


@pytest.mark.parametrize(
    "preset, copies, n", [("advanced", ONE_SET, 3), ("traditional", TWO_SETS, 4)]
)
def test_winning_hands_agree_with_search(preset, copies, n):
    listed = ref.winning_hands(preset, copies, n=n)
    assert (listed <= np.array(copies)).all() and (listed.sum(axis=1) == 2 * n + 2).all()
    rng = np.random.default_rng(7)
    for row in listed[rng.choice(len(listed), 300, replace=False)]:
        assert ref.is_win(row, preset)
    # Random dealt hands: a win exactly when it is in the list.
    members = {row.tobytes() for row in listed}
    deck = np.repeat(np.arange(21), copies)
    for _ in range(2000):
        counts = np.bincount(rng.choice(deck, 2 * n + 2, replace=False), minlength=21)
        assert ref.is_win(counts, preset) == (counts.astype(np.int8).tobytes() in members)


def test_max_overlap_simple():
    complete = hand(WORKED[0][0])
    assert ref.max_overlap(complete, "traditional", TWO_SETS) == 10
    ready = hand("16 16 · 16 · 33+13 · 15+22 · 66+44")
    assert ref.max_overlap(ready, "traditional", TWO_SETS) == 9
    assert ref.max_overlap([0] * 21, "traditional", TWO_SETS) == 0
    # Example 1 needs three 1-6: not feasible with one set, so one tile must go.
    assert ref.max_overlap(complete, "traditional", ONE_SET, n=4) == 9
    # Kap Shap.
    assert ref.max_overlap(hand("33 33 · 46+46 · 55+55 · 16"), "advanced", ONE_SET, n=3) == 7


def test_max_overlap_forms():
    run4 = hand(WORKED[5][0])
    assert ref.max_overlap(run4, "advanced", TWO_SETS) == 10
    assert ref.max_overlap(run4, "traditional", TWO_SETS) < 10


def test_max_overlap_ready_iff_feasible_wait():
    rng = np.random.default_rng(3)
    deck = np.repeat(np.arange(21), TWO_SETS)
    copies = np.array(TWO_SETS)
    for _ in range(150):
        nine = np.bincount(rng.choice(deck, 9, replace=False), minlength=21)
        feasible = [t for t in ref.waits(nine, "traditional") if nine[t] < copies[t]]
        best = ref.max_overlap(nine, "traditional", TWO_SETS)
        assert (best == 9) == bool(feasible)
        assert 0 < best <= 9
        # Removing one tile loses at most one shared tile.
        t = int(np.flatnonzero(nine)[0])
        fewer = nine.copy()
        fewer[t] -= 1
        assert best - 1 <= ref.max_overlap(fewer, "traditional", TWO_SETS) <= best


# --------------------------------------------------------------------------------------
# Properties
# --------------------------------------------------------------------------------------
def _valid_group(kind, ids, run_value=6):
    tv = [ref.TEN_VALUE[t] for t in ids]
    if kind in ("eye", "general_eye"):
        return len(ids) == 2 and ids[0] == ids[1] and (kind == "general_eye") == (ids[0] <= 3)
    if kind == "ten_pair":
        return len(ids) == 2 and sum(tv) % 10 == 0
    rv = sorted(run_value if t == 19 else ref.RUN_VALUE[t] for t in ids)
    return rv == list(range(rv[0], rv[0] + len(ids))) and len(ids) in (4, 6, 8)


eyes = st.integers(0, 20)
ten_pairs = st.lists(st.sampled_from(ref.TEN_PAIRS), min_size=4, max_size=4)


@settings(max_examples=200, deadline=None)
@given(eyes, ten_pairs)
def test_eye_plus_ten_pairs_is_a_win(eye, pairs):
    counts = [0] * 21
    for t in (eye, eye) + tuple(t for p in pairs for t in p):
        counts[t] += 1
    assert ref.is_win(counts, "traditional")
    assert ref.score(counts, "traditional") >= 2
    assert ref.score(counts, "advanced") >= ref.score(counts, "traditional")
    assert ref.score(counts, rules(base_combination="sum")) >= ref.score(counts, "advanced")
    # Every tile of a complete hand is a wait of the hand without it.
    for t in set(counts_to_tiles(counts)):
        fewer = list(counts)
        fewer[t] -= 1
        assert t in ref.waits(fewer, "traditional")


def counts_to_tiles(counts):
    return [t for t, c in enumerate(counts) for _ in range(c)]


@settings(max_examples=300, deadline=None)
@given(st.lists(st.integers(0, 20), min_size=10, max_size=10), st.sampled_from([3, 6]))
def test_decompositions_are_valid_partitions(tiles, run_value):
    counts = [0] * 21
    for t in tiles:
        counts[t] += 1
    rs = rules(gee_joon_run_value=run_value)
    found = ref.decompositions(counts, rs)
    seen = set()
    for d in found:
        assert sorted(counts_to_tiles(counts)) == sorted(t for _, ids in d.groups for t in ids)
        assert all(_valid_group(kind, ids, run_value) for kind, ids in d.groups)
        kinds = [kind for kind, _ in d.groups]
        assert kinds.count("run") == (1 if d.form.startswith("run") else 0)
        eye_count = kinds.count("eye") + kinds.count("general_eye")
        if d.form == "general_eyes":
            assert eye_count >= 2 and kinds.count("eye") == 0
        else:
            assert eye_count == 1
        key = tuple(sorted(d.groups))
        assert key not in seen
        seen.add(key)
    assert ref.score(counts, rs) == (max(d.score for d in found) if found else -1)
    assert ref.is_win(counts, rs) == bool(found)
    assert ref.specials(counts, rs) <= set(ref.PATTERNS) | set(ref.FORMS[1:])


@settings(max_examples=100, deadline=None)
@given(st.lists(st.integers(0, 20), min_size=9, max_size=9))
def test_waits_match_is_win(tiles):
    counts = [0] * 21
    for t in tiles:
        counts[t] += 1
    for preset in ("traditional", "advanced"):
        expected = []
        for t in range(21):
            grown = list(counts)
            grown[t] += 1
            if ref.is_win(grown, preset):
                expected.append(t)
        assert ref.waits(counts, preset) == expected


def test_reference_is_standalone():
    """The oracle imports nothing from kaptai and loads as a lone file."""
    import ast
    import importlib.util
    import sys

    source = open(ref.__file__, encoding="utf-8").read()
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Import):
            assert not any(a.name.startswith("kaptai") for a in node.names)
        elif isinstance(node, ast.ImportFrom):
            assert node.level == 0 and not (node.module or "").startswith("kaptai")
    spec = importlib.util.spec_from_file_location("lone_reference", ref.__file__)
    module = importlib.util.module_from_spec(spec)
    sys.modules["lone_reference"] = module  # dataclasses look their module up there
    try:
        spec.loader.exec_module(module)
    finally:
        del sys.modules["lone_reference"]
    assert module.score(hand(WORKED[4][0]), "advanced") == 10
