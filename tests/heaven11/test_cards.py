import pytest
from hypothesis import given, strategies as st

from kaptai.errors import InvalidHandError, KaptaiError, RulesError
from kaptai.heaven11.cards import (
    InvalidBidError, InvalidCardError, InvalidCombinationError, InvalidRecordError, InvalidTricksError,
    bid_code, bid_from_code, format_bid, format_card, format_cards, parse_bid, parse_card, parse_cards,
    parse_combination, parse_hand, parse_score_record, parse_tricks,
)
from kaptai.heaven11.rules import OPTION_VALUES, PRESETS, RuleSet, resolve_rules, validate_players


def test_page_error_messages():
    with pytest.raises(InvalidCardError, match=r'^invalid card "1H" \(token 4\): unknown rank "1"$'):
        parse_cards("2H 3H 4H 1H")
    with pytest.raises(InvalidBidError, match=r'^invalid bid "10S" \(token 1\): level must be 0-9$'):
        parse_bid("10S")
    with pytest.raises(InvalidHandError, match=r'^duplicate card "AS" \(tokens 2 and 7\)$'):
        parse_cards("KS AS 2C 3C 4C 5C AS")
    with pytest.raises(InvalidCombinationError, match=r'^combination "5S 6H" is not one suit$'):
        parse_combination("5S 6H")
    with pytest.raises(InvalidTricksError, match=r"^tricks 7/2/2/1 sum to 12, not 13$"):
        parse_tricks("7/2/2/1")
    for err in (InvalidCardError, InvalidBidError, InvalidCombinationError, InvalidTricksError, InvalidRecordError):
        assert issubclass(err, KaptaiError)


@pytest.mark.parametrize("tok", ["KS", "ks", "sk", "♠K", "K♠", "k♠️"])
def test_card_forms(tok):
    assert parse_card(tok) == 50


def test_ten_and_canonical():
    assert format_cards(parse_cards("10h TH".split()[:1])) == "TH"
    assert format_cards(parse_cards("as ks")) == "AS KS"
    assert format_cards(parse_cards("as ks"), sort=True) == "KS AS"


@pytest.mark.parametrize("tok,why", [("", "empty"), ("X", "unknown rank"), ("5", "missing suit"), ("ZH", 'unknown rank "Z"'),
                                     ("QX", 'unknown suit "X"')])
def test_bad_cards(tok, why):
    with pytest.raises(InvalidCardError, match=why):
        parse_card(tok)


def test_bids():
    assert parse_bid("0C") == (0, 0) and parse_bid("9NT") == (9, 4) and parse_bid("3♣") == (3, 0)
    assert parse_bid("PASS") is None and parse_bid("pass") is None
    assert bid_code((0, 0)) == 0 and bid_code((9, 4)) == 49
    order = [(lv, s) for lv in range(10) for s in range(5)]
    assert [bid_code(b) for b in order] == list(range(50))
    for b in order:
        assert parse_bid(format_bid(b)) == b and parse_bid(format_bid(b, "symbol")) == b
        assert bid_from_code(bid_code(b)) == b
    for bad in ("3", "NT", "3Z", "-1C", "3CC", "10NT"):
        with pytest.raises(InvalidBidError):
            parse_bid(bad)
    with pytest.raises(InvalidBidError):
        parse_bid((10, 0))


def test_tricks_and_records():
    assert parse_tricks("4/3/3/3") == (4, 3, 3, 3)
    for bad in ("4/3/3", "4/3/3/3/0", "14/0/0/-1", "a/b/c/d", "13/0/0/1"):
        with pytest.raises(InvalidTricksError):
            parse_tricks(bad)
    assert parse_score_record("tricks=7/2/2/2 bid=3C") == ((3, 0), (7, 2, 2, 2))
    for bad in ("bid=3C", "tricks=7/2/2/2", "bid=3C bid=4C tricks=7/2/2/2", "foo bid=3C tricks=7/2/2/2"):
        with pytest.raises(InvalidRecordError):
            parse_score_record(bad)


def test_hand_size():
    with pytest.raises(InvalidHandError, match="hand has 12 cards, expected 13"):
        parse_hand(list(range(12)))
    assert len(parse_hand(list(range(13)))) == 13


@given(st.lists(st.integers(0, 51), unique=True, max_size=13), st.sampled_from(["letter", "symbol"]))
def test_roundtrip(ids, style):
    assert parse_cards(format_cards(ids, style)) == tuple(ids)


def test_rules_options_and_defaults():
    r = RuleSet()
    expected = {"point_scheme": "blackjack", "reduction": "repeat", "bid_direction": "counterclockwise",
                "play_direction": "clockwise", "passout": "redeal", "short_follow": "all_led", "must_trump": False,
                "rounds": 4, "ace_points": 1, "short_penalty": "none"}
    for k, v in expected.items():
        assert getattr(r, k) == v
    assert set(OPTION_VALUES) <= set(RuleSet.option_names())
    assert resolve_rules("symmetric").short_penalty == "symmetric"
    assert set(PRESETS) == {"standard", "symmetric"}
    assert RuleSet.from_dict(r.to_dict()) == r
    for bad in ({"passout": "dealer"}, {"must_trump": "yes"}, {"rounds": 0}, {"ace_points": 10}, {"colour": 1}):
        with pytest.raises(RulesError):
            resolve_rules(bad)
    assert validate_players(4) == 4
    with pytest.raises(RulesError):
        validate_players(3)
