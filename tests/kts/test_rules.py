"""Tests of kaptai.kts.rules against rules/kap-tai-shap.md §2, §8 and §9."""

from __future__ import annotations

import dataclasses
import json
import math

import numpy as np
import pytest

from kaptai.errors import RulesError
from kaptai.kts.rules import (
    FORMS,
    PRESETS,
    RuleSet,
    check_deal,
    half_groups,
    hand_sizes,
    n_dice,
    resolve_rules,
    sets_for_players,
    validate_players,
)

# §8 defaults shared by both presets
VARIANT_DEFAULTS = dict(
    claim="previous",
    turn="claim-then-draw",
    keep_drawn=True,
    dice=3,
    gee_joon_run_value=6,
    base_combination="max",
    sets=None,
)

# §9, column by column
TRADITIONAL = dict(
    forms=frozenset({"basic"}),
    settlement="pot",
    house_cut=0.05,
    dealer_keeps_on_win=False,
    drawn_hand="refund",
    **VARIANT_DEFAULTS,
)
ADVANCED = dict(
    forms=frozenset({"basic", "general_eyes", "run4", "run6", "run8"}),
    settlement="advanced",
    house_cut=0.0,
    dealer_keeps_on_win=True,
    drawn_hand="refund",
    **VARIANT_DEFAULTS,
)

# §2 table, with the page's Decision for more than 10 players
SETS = {2: 1, 3: 2, 4: 2, 5: 3, 6: 3, 7: 3, 8: 4, 9: 4, 10: 4,
        11: 5, 12: 5, 13: 5, 14: 6, 15: 6, 16: 6, 17: 7, 18: 7, 19: 7, 20: 8, 21: 8, 22: 8}


def test_field_names_and_order():
    assert RuleSet.option_names() == (
        "name", "forms", "settlement", "house_cut", "dealer_keeps_on_win", "drawn_hand",
        "claim", "turn", "keep_drawn", "dice", "gee_joon_run_value", "base_combination", "sets",
    )
    assert FORMS == ("basic", "general_eyes", "run4", "run6", "run8")


@pytest.mark.parametrize(("name", "expected"), [("traditional", TRADITIONAL), ("advanced", ADVANCED)])
def test_presets_match_section_9(name, expected):
    r = PRESETS[name]
    assert r.name == name
    assert {k: getattr(r, k) for k in expected} == expected
    assert RuleSet.preset(name) == r
    assert resolve_rules(name) == r


def test_defaults_are_traditional():
    assert RuleSet() == PRESETS["traditional"] == resolve_rules() == resolve_rules(None)
    assert set(PRESETS) == {"traditional", "advanced"}


def test_presets_are_read_only():
    with pytest.raises(TypeError):
        PRESETS["mine"] = RuleSet()  # type: ignore[index]
    with pytest.raises(dataclasses.FrozenInstanceError):
        RuleSet().house_cut = 0.1  # type: ignore[misc]


def test_overrides_on_presets():
    r = RuleSet.preset("advanced", settlement="pot", house_cut=0.05)
    assert (r.name, r.settlement, r.house_cut, r.forms) == ("advanced", "pot", 0.05, ADVANCED["forms"])
    assert RuleSet.preset("advanced", name="advanced-pot").name == "advanced-pot"
    assert resolve_rules("traditional", forms="basic,run4").forms == {"basic", "run4"}
    base = RuleSet(claim="any")
    assert resolve_rules(base) is base
    assert resolve_rules(base, keep_drawn=False) == RuleSet(claim="any", keep_drawn=False)
    assert base.replace() is base


def test_forms_normalisation():
    assert RuleSet(forms="basic").forms == frozenset({"basic"})
    assert RuleSet(forms=" basic , run6,, ").forms == frozenset({"basic", "run6"})
    assert RuleSet(forms=["run8", "basic", "run8"]).forms == frozenset({"basic", "run8"})
    assert RuleSet(forms=("general-eyes", "General Eyes")).forms == frozenset({"general_eyes"})
    assert RuleSet(forms=iter(FORMS)).forms == frozenset(FORMS)
    assert isinstance(RuleSet(forms=["basic"]).forms, frozenset)
    # a ruleset without 'basic' is allowed (the forms are independent options)
    assert RuleSet(forms="run4").forms == frozenset({"run4"})


def test_hashable_and_equal():
    assert hash(RuleSet(forms=["basic"])) == hash(RuleSet())
    assert RuleSet(house_cut=0) == RuleSet(house_cut=0.0)
    assert RuleSet(house_cut=0).house_cut == 0.0 and isinstance(RuleSet(house_cut=1).house_cut, float)
    assert RuleSet(dice=np.int64(4)).dice == 4 and type(RuleSet(dice=np.int64(4)).dice) is int


BAD_VALUES = [
    ("forms", "", "at least one of"),
    ("forms", [], "at least one of"),
    ("forms", "basic,run5", "unknown form 'run5'"),
    ("forms", ["basic", 4], "unknown form 4"),
    ("forms", 5, "bad value 5"),
    ("settlement", "Pot", "'pot', 'advanced'"),
    ("settlement", None, "'pot', 'advanced'"),
    ("house_cut", -0.01, "from 0 to 1"),
    ("house_cut", 1.01, "from 0 to 1"),
    ("house_cut", float("nan"), "from 0 to 1"),
    ("house_cut", "0.05", "from 0 to 1"),
    ("house_cut", True, "from 0 to 1"),
    ("dealer_keeps_on_win", "yes", "True or False"),
    ("dealer_keeps_on_win", 1, "True or False"),
    ("drawn_hand", "void", "'refund', 'carry'"),
    ("claim", "next", "'previous', 'any', 'none'"),
    ("claim", None, "'previous', 'any', 'none'"),
    ("turn", "draw", "'claim-then-draw', 'claim-or-draw'"),
    ("keep_drawn", "no", "True or False"),
    ("keep_drawn", None, "True or False"),
    ("dice", 2, "3, 4"),
    ("dice", 3.0, "3, 4"),
    ("dice", True, "3, 4"),
    ("dice", "3", "3, 4"),
    ("gee_joon_run_value", 4, "6, 3"),
    ("gee_joon_run_value", 6.0, "6, 3"),
    ("base_combination", "product", "'max', 'sum'"),
    ("sets", 0, "integer 1-8"),
    ("sets", 9, "integer 1-8"),
    ("sets", 2.0, "integer 1-8"),
    ("sets", True, "integer 1-8"),
    ("name", "", "non-empty string"),
    ("name", 3, "non-empty string"),
]


@pytest.mark.parametrize(("option", "value", "expected"), BAD_VALUES, ids=lambda x: repr(x))
def test_bad_option_values(option, value, expected):
    with pytest.raises(RulesError, match=rf"'?{option}'?") as info:
        RuleSet(**{option: value})
    message = str(info.value)
    assert expected in message
    if option != "forms":
        assert repr(value) in message
    with pytest.raises(RulesError):
        RuleSet.preset("advanced", **{option: value})


def test_good_option_values():
    for option, values in [
        ("settlement", ["pot", "advanced"]), ("drawn_hand", ["refund", "carry"]),
        ("claim", ["previous", "any", "none"]), ("turn", ["claim-then-draw", "claim-or-draw"]),
        ("dice", [3, 4]), ("gee_joon_run_value", [6, 3]), ("base_combination", ["max", "sum"]),
        ("sets", [None, 1, 8]), ("house_cut", [0, 1, 0.5]),
        ("dealer_keeps_on_win", [True, False, np.bool_(True)]), ("keep_drawn", [True, False]),
    ]:
        for v in values:
            assert getattr(RuleSet(**{option: v}), option) == v


def test_unknown_option_names():
    with pytest.raises(RulesError, match="unknown rule option.*'housecut'.*valid options are name, forms, .*house_cut"):
        RuleSet().replace(housecut=0.1)
    with pytest.raises(RulesError, match="'players'"):
        RuleSet.preset("advanced", players=4)
    with pytest.raises(RulesError, match="'bogus'"):
        resolve_rules(None, bogus=1)
    with pytest.raises(RulesError, match="'bogus'"):
        RuleSet.from_dict({"bogus": 1})


def test_unknown_preset():
    with pytest.raises(RulesError, match="unknown preset 'modern': expected one of 'traditional', 'advanced'"):
        resolve_rules("modern")
    with pytest.raises(RulesError, match="unknown preset"):
        RuleSet.preset("Traditional")
    with pytest.raises(RulesError, match="rules must be a RuleSet.*int 3"):
        resolve_rules(3)  # type: ignore[arg-type]


def test_to_dict_round_trip():
    for r in (RuleSet(), PRESETS["advanced"], RuleSet(forms="run6,basic", sets=3, dice=4)):
        d = r.to_dict()
        assert list(d) == list(RuleSet.option_names())
        assert d["forms"] == [f for f in FORMS if f in r.forms]
        back = json.loads(json.dumps(d))
        assert RuleSet.from_dict(back) == r
        assert resolve_rules(back) == r
    assert RuleSet(forms="run6,basic").to_dict()["forms"] == ["basic", "run6"]


def test_describe_mentions_every_option():
    text = PRESETS["advanced"].describe()
    for option in RuleSet.option_names()[1:]:
        assert option in text
    assert "basic, general_eyes, run4, run6, run8" in text


def test_run_values_follow_option():
    assert int(RuleSet().run_values()[19]) == 6
    assert int(RuleSet(gee_joon_run_value=3).run_values()[19]) == 3


# ---------------------------------------------------------------------------- §2 player counts


@pytest.mark.parametrize("players", range(2, 23))
def test_player_count_tables(players):
    assert sets_for_players(players) == SETS[players]
    if players > 10:
        assert sets_for_players(players) == 2 + math.ceil((players - 4) / 3)
    kap_shap = players == 2
    assert half_groups(players) == (3 if kap_shap else 4)
    assert hand_sizes(players) == ((8, 7) if kap_shap else (10, 9))
    n = half_groups(players)
    assert hand_sizes(players)[0] == 2 * n + 2
    assert RuleSet().sets_for(players) == SETS[players]
    assert RuleSet(sets=5).sets_for(players) == 5
    assert validate_players(np.int64(players)) == players
    check_deal(players)  # the default table always fits
    check_deal(players, "advanced")


@pytest.mark.parametrize("bad", [0, 1, 23, 100, -2, 2.0, 4.5, True, "4", None])
def test_bad_player_counts(bad):
    for fn in (sets_for_players, half_groups, hand_sizes, check_deal, n_dice, RuleSet().sets_for):
        with pytest.raises(RulesError, match=rf"players={bad!r} is not supported: expected an integer from 2 to 22"):
            fn(bad)


def test_check_deal_too_few_sets():
    # 4 players need 10 + 3 * 9 = 37 tiles: one set (32) is not enough
    with pytest.raises(RulesError, match=r"4 players need 37 tiles .* but 1 set holds only 32"):
        check_deal(4, RuleSet(sets=1))
    check_deal(3, RuleSet(sets=1))  # 28 <= 32
    check_deal(2, RuleSet(sets=1))  # 15 <= 32
    # 22 players need 10 + 21 * 9 = 199 tiles
    with pytest.raises(RulesError, match=r"22 players need 199 tiles .* but 6 sets hold only 192"):
        check_deal(22, RuleSet(sets=6))
    check_deal(22, RuleSet(sets=7))  # 224
    # exhaustive: error exactly when the deal exceeds 32 * sets
    for players in range(2, 23):
        first, other = hand_sizes(players)
        needed = first + other * (players - 1)
        for sets in range(1, 9):
            if needed > 32 * sets:
                with pytest.raises(RulesError, match=rf"need {needed} tiles.*only {32 * sets}"):
                    check_deal(players, {"sets": sets})
            else:
                check_deal(players, RuleSet(sets=sets))


def test_n_dice():
    for players in range(2, 23):
        expected = 2 if players == 2 else (4 if players >= 9 else 3)
        assert n_dice(players) == expected
        assert n_dice(players, "advanced") == expected
        # dice=4: four dice always, Kap Shap included
        assert n_dice(players, RuleSet(dice=4)) == 4
    assert n_dice(8) == 3 and n_dice(9) == 4
