"""Rule options (rules/big-two.md): every option exists with the page's default."""
import pytest

from kaptai.bigtwo.rules import PRESETS, RuleSet, resolve_rules
from kaptai.errors import RulesError

PAGE_DEFAULTS = {
    "players": 4,
    "top_rank": "2",
    "suit_order": "hk",
    "malaysian_3p": False,
    "first_lead": "lowest_card",
    "opening_must_include_lowest": True,
    "straight_order": "hk",
    "straight_suit_card": "highest_single",
    "flush_compare": "rank_first",
    "quad_kicker": "required",
    "four_card_play": "none",
    "two_pair_five": False,
    "pass_only_if_unable": False,
    "pass_locks_out": False,
    "top_rule": "liability",
    "instant_dragon": False,
    "instant_four_twos": False,
    "redeal": "points_lt_3",
    "scoring": "count",
    "chao": "standard",
    "points_chao": False,
    "winner_bonus": 0,
    "settlement": "place",
    "bankroll": "off",
}

PAGE_VALUES = {
    "suit_order": ["hk", "taiwan", "bridge"],
    "first_lead": ["lowest_card", "previous_winner"],
    "straight_order": ["hk", "sequential", "poker", "wheel_top", "broadway_top"],
    "straight_suit_card": ["highest_single", "sequence_top"],
    "flush_compare": ["rank_first", "suit_first"],
    "quad_kicker": ["required", "optional"],
    "four_card_play": ["none", "quad", "quad_or_two_pair"],
    "top_rule": ["liability", "mandatory", "off"],
    "redeal": ["points_lt_3", "hk_max10", "literal_min10", "off"],
    "scoring": ["count", "points"],
    "chao": ["standard", "eight", "8/11/13"],
    "winner_bonus": [0, 5, 10],
    "settlement": ["place", "winner_takes_all"],
    "bankroll": ["off", "capped"],
    "top_rank": ["2", "3", "4"],
}


def test_defaults_match_page():
    r = RuleSet()
    for k, v in PAGE_DEFAULTS.items():
        assert getattr(r, k) == v, k
    assert PRESETS["hong_kong"] == r


@pytest.mark.parametrize("option, values", PAGE_VALUES.items())
def test_every_page_value_accepted(option, values):
    for v in values:
        RuleSet(**{option: v})


@pytest.mark.parametrize("option", PAGE_VALUES)
def test_bad_value_named(option):
    with pytest.raises(RulesError, match=repr(option)):
        RuleSet(**{option: "nonsense"})


def test_bridge_alias_and_orders():
    assert RuleSet(suit_order="bridge") == RuleSet(suit_order="taiwan")
    assert RuleSet(suit_order="taiwan").lowest_card() == 1  # 3C
    assert RuleSet(top_rank="3").rank_strength().tolist() == [12] + list(range(12))
    assert RuleSet(top_rank=10).top_rank == "T"


def test_config_errors():
    with pytest.raises(RulesError, match="cannot be combined"):
        RuleSet(four_card_play="quad_or_two_pair", quad_kicker="optional")
    with pytest.raises(RulesError, match="players=3"):
        RuleSet(malaysian_3p=True)
    with pytest.raises(RulesError, match="players"):
        RuleSet(players=1)
    with pytest.raises(RulesError, match="stake"):
        RuleSet(stake=0)
    with pytest.raises(RulesError, match="expected True or False"):
        RuleSet(two_pair_five="yes")
    for bad in ("13/8", "0/5", "8/9/10/11", "x"):
        with pytest.raises(RulesError, match="chao"):
            RuleSet(chao=bad)
    with pytest.raises(RulesError, match="unknown rule option"):
        resolve_rules(suits="hk")
    with pytest.raises(RulesError, match="unknown preset"):
        resolve_rules("taiwan")


def test_chao_tables_worked_examples():
    def pen(chao, c):
        return c * RuleSet(chao=chao).chao_multiplier(c)

    assert [pen("standard", c) for c in (9, 10, 12, 13)] == [9, 20, 24, 39]
    assert [pen("eight", c) for c in (8, 10, 13)] == [16, 30, 52]
    assert [pen("8/11/13", c) for c in (0, 5, 10, 13)] == [0, 5, 20, 52]


def test_deal_table():
    table = {2: (26, 0), 3: (17, 1), 4: (13, 0), 5: (10, 2), 6: (8, 4), 7: (7, 3), 8: (6, 4), 13: (4, 0), 52: (1, 0)}
    for n, sizes in table.items():
        assert RuleSet(players=n).deal_sizes() == sizes


def test_round_trip():
    r = RuleSet(chao="8/11/13", suit_order="taiwan", four_card_play="quad", stake=20)
    assert RuleSet.from_dict(r.to_dict()) == r
    assert resolve_rules(r.to_dict()) == r
