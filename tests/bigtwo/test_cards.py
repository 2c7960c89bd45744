"""Cards and notation (rules/big-two.md §1): every form and every error of the page."""
import pytest

from kaptai.bigtwo.cards import (
    InvalidCardError,
    cards_to_mask,
    format_cards,
    format_record,
    mask_to_cards,
    parse_card,
    parse_cards,
    parse_hand,
    parse_record,
)
from kaptai.errors import InvalidHandError, KaptaiError


@pytest.mark.parametrize("token", ["3D", "d3", "3d", "D3", "♦3", "3♦", "♢3", "3♢", "3♦\ufe0f"])
def test_three_of_diamonds_every_form(token):
    assert parse_card(token) == 0


@pytest.mark.parametrize(
    "token, text",
    [("10h", "TH"), ("Th", "TH"), ("h10", "TH"), ("♠A", "AS"), ("♤a", "AS"), ("♥2", "2H"), ("♡k", "KH"),
     ("♣q", "QC"), ("♧J", "JC"), ("s2", "2S")],
)
def test_forms_and_canonical(token, text):
    assert format_cards([parse_card(token)]) == text


def test_canonical_example_and_separators():
    ids = parse_cards("3D,3C  AS,2S")
    assert format_cards(ids) == "3D 3C AS 2S"
    assert format_cards(parse_cards("2S AS 3C 3D"), sort=True) == "3D 3C AS 2S"
    assert parse_cards("♦3") == parse_cards("3D")


def test_every_card_round_trips():
    for c in range(52):
        assert parse_cards(format_cards([c])) == (c,)
        assert parse_cards(format_cards([c], style="symbol")) == (c,)


@pytest.mark.parametrize(
    "text, message",
    [
        ("3D 4D 1X", 'invalid card "1X" (token 3): unknown rank "1"'),
        ("3D 3Z", 'invalid card "3Z" (token 2): unknown suit "Z"'),
        ("11S", 'invalid card "11S" (token 1): unknown rank "11"'),
        ("S", 'invalid card "S" (token 1): missing rank (expected 2-9, T/10, J, Q, K, A)'),
        ("4D 3", 'invalid card "3" (token 2): missing suit (expected S H C D or ♠ ♥ ♣ ♦)'),
    ],
)
def test_bad_card_messages(text, message):
    with pytest.raises(InvalidCardError) as e:
        parse_cards(text)
    assert str(e.value) == message
    assert isinstance(e.value, KaptaiError)


def test_duplicate_and_size_messages():
    with pytest.raises(InvalidHandError, match=r'^duplicate card "3D" \(tokens 1 and 4\)$'):
        parse_cards("3D 4D 5D d3")
    with pytest.raises(InvalidHandError, match=r"^hand has 12 cards, expected 13$"):
        parse_hand("3D 4D 5D 6D 7D 8D 9D TD JD QD KD AD", size=13)


def test_play_record():
    rec = parse_record("3D | 5C | PASS | 9H")
    assert rec == ((0,), (9,), None, (26,))
    assert format_record(rec) == "3D | 5C | PASS | 9H"
    assert parse_record("3d 3c|p|pass|4s 4h") == ((0, 1), None, None, (7, 6))


def test_play_record_errors():
    with pytest.raises(InvalidHandError, match="empty play 2"):
        parse_record("3D | | 4S")
    with pytest.raises(InvalidHandError, match="mixes PASS"):
        parse_record("3D PASS | 4S")
    # tokens are numbered over the whole record
    with pytest.raises(InvalidCardError, match=r'"9Q" \(token 4\)'):
        parse_record("3D | PASS | 4S 9Q")
    with pytest.raises(InvalidHandError, match=r'duplicate card "3D" \(tokens 1 and 3\)'):
        parse_record("3D | PASS | 3D")


def test_masks_and_ids():
    assert mask_to_cards(cards_to_mask([5, 0, 51])) == (0, 5, 51)
    assert parse_cards([3, 7]) == (3, 7)
    with pytest.raises(InvalidCardError):
        parse_cards([52])
    with pytest.raises(InvalidHandError):
        mask_to_cards(1 << 52)
