import pytest

from kaptai.errors import RulesError
from kaptai.nantong.rules import BOOL_OPTIONS, OPTION_VALUES, PRESETS, RuleSet, resolve_rules, validate_players

DEFAULTS = {
    "deck": 120, "jiang_set_replacement": 0, "qishou": "always", "tiancheng_double": False,
    "yazhuang_double": False, "honour_sequence": False, "jiang_same_number": False,
    "one_tiao_laojiang": False, "single_turn": False, "wilds": False, "four_active": False,
    "discard_triplet": "exposed", "decomposition": "max", "wenqian": "by_count", "potou": "ceil",
    "double_before_round": True, "nonwinner_concealed_triplets": True, "nonwinner_wenqian": False,
    "settlement": "rank_only", "tie": "share", "multi_win": False, "rob_kong": False, "reserve": 0,
    "first_sitter": "shangjia", "dreamer_shares": "none", "rounds": 8, "compare": "rounded",
}


def test_every_page_option_and_default():
    r = RuleSet()
    for k, v in DEFAULTS.items():
        assert getattr(r, k) == v, k
    assert set(DEFAULTS) | {"name"} == set(RuleSet.option_names())


@pytest.mark.parametrize("opt", list(OPTION_VALUES))
def test_choices(opt):
    for v in OPTION_VALUES[opt]:
        assert getattr(RuleSet(**{opt: v}), opt) == v
    with pytest.raises(RulesError, match=opt):
        RuleSet(**{opt: "nonsense"})


@pytest.mark.parametrize("opt", BOOL_OPTIONS)
def test_bools(opt):
    with pytest.raises(RulesError, match=opt):
        RuleSet(**{opt: "yes"})


def test_resolve_and_players():
    assert resolve_rules() == PRESETS["nantong"]
    assert resolve_rules({"tie": "seat_order"}).tie == "seat_order"
    assert RuleSet.from_dict(RuleSet(wenqian="cumulative").to_dict()).wenqian == "cumulative"
    with pytest.raises(RulesError, match="unknown rule option"):
        resolve_rules(colour=1)
    with pytest.raises(RulesError):
        resolve_rules(3.5)
    assert validate_players(4) == 4
    for bad in (2, 5, True, "3"):
        with pytest.raises(RulesError):
            validate_players(bad)
    with pytest.raises(RulesError, match="rounds"):
        RuleSet(rounds=0)


def test_wild_deck_not_playable():
    with pytest.raises(RulesError, match=r"wild cards \(福祿壽喜財\) have no rules in the source rules text"):
        RuleSet(deck=125).check_playable()
    RuleSet().check_playable()
