import pytest
from hypothesis import given, strategies as st

from kaptai.errors import KaptaiError
from kaptai.nantong.cards import (
    InvalidCardError, RecordError, WildCardError, counts_of, format_card, format_cards, format_compact,
    format_record, kinds_of, parse_card, parse_cards, parse_record, MeldError,
)


def test_every_card_roundtrips():
    for k in range(30):
        assert parse_card(format_card(k)) == k
        assert parse_card(format_card(k, chinese=True)) == k
    for k in range(30, 35):
        assert parse_card(format_card(k), deck=125) == k


@pytest.mark.parametrize("text,expected", [
    ("123b", "1b 2b 3b"), ("147b", "1b 4b 7b"), ("qzx3", "qz qz qz"), ("5wx2", "5w 5w"),
    ("五萬 五万 5萬", "5w 5w 5w"), ("九條 九条", "9t 9t"), ("一餅 一饼", "1b 1b"),
    ("千字 千 白花 紅花 红花", "qz qz bh hh hh"), ("5W,9T QZ", "5w 9t qz"), ("紅花x2", "hh hh"),
])
def test_notation(text, expected):
    assert format_cards(parse_cards(text)) == expected


@pytest.mark.parametrize("text,msg", [
    ("10w", "unknown card token '10w' (item 1)"),
    ("5w 5x", "unknown card token '5x' (item 2)"),
    ("5w qzx5", "bad multiplicity in card token 'qzx5' (item 2)"),
    ("123bx2", "repeats one card"),
    ("qq", "unknown card token 'qq' (item 1)"),
])
def test_bad_tokens(text, msg):
    with pytest.raises(InvalidCardError, match=msg.replace("(", r"\(").replace(")", r"\)")):
        parse_cards(text)


def test_wild_cards():
    with pytest.raises(WildCardError, match=r"card 'fu' not in the 120-card deck"):
        parse_cards("5w fu")
    with pytest.raises(WildCardError, match=r"card 'cai' not in the 120-card deck"):
        parse_cards("財")
    assert parse_cards("福 祿 壽 喜 財", deck=125) == (30, 31, 32, 33, 34)
    assert issubclass(WildCardError, KaptaiError)


@given(st.lists(st.integers(0, 29), max_size=23))
def test_compact_roundtrip(kinds):
    if max((kinds.count(k) for k in set(kinds)), default=0) > 4:
        return
    assert sorted(parse_cards(format_compact(kinds))) == sorted(kinds)
    assert kinds_of(counts_of(kinds)) == tuple(sorted(kinds))


def test_record_parse_and_format():
    text = "jiang=5t,5t win=self:3b hand=888b 999t 33b melds=hezi:5t qishou:hh pong:2w ckong:6w pong:bh pong:4t"
    r = parse_record(text)
    assert r.double_jiang and r.completer and r.win_card == 20
    assert [str(m) for m in r.melds] == ["hezi:5t", "qishou:hh", "pong:2w", "ckong:6w", "pong:bh", "pong:4t"]
    assert parse_record(format_record(r)) == r
    assert parse_record("jiang=5t,5t win=tiancheng hand=11w").win_card is None


@pytest.mark.parametrize("text,msg", [
    ("win=none hand=11w", "no jiang= field"),
    ("jiang=5w,6w,7w win=none hand=11w", "expected two turned cards"),
    ("jiang=5w,6w win=draw hand=11w", "unknown win type 'draw'"),
    ("jiang=5w,6w win=self hand=11w", "needs the winning card"),
    ("jiang=5w,6w win=none:5w hand=11w", "takes no winning card"),
    ("jiang=5w,6w win=none hand=11w melds=pong", "expected TYPE:CARD"),
    ("jiang=5w,6w win=none hand=11w hand=22w", "given twice"),
    ("jiang=5w,6w win=none hand=11w colour=red", "unknown record field 'colour'"),
    ("jiang=5w,6w win=none hand=10w", "unknown card token '10w' (item 1)"),
    ("jiang=5w,6w win=none hand=1w melds=pong:56w", "names different cards"),
])
def test_record_errors(text, msg):
    with pytest.raises(KaptaiError, match=msg.replace("(", r"\(").replace(")", r"\)")):
        parse_record(text)


def test_written_out_melds():
    r = parse_record("jiang=5w,6w win=none hand=11w melds=pong:7wx3 qishou:5wx3 qishou:3wx4")
    assert [str(m) for m in r.melds] == ["pong:7w", "qishou:5w", "qishou:3w"]
    with pytest.raises(MeldError, match=r"qishou:3w is neither a kong nor all remaining 將 copies"):
        parse_record("jiang=5w,6w win=none hand=11w melds=qishou:3wx3")
    with pytest.raises(MeldError, match=r"qishou:5t is a 雙將 card: use hezi:5t"):
        parse_record("jiang=5t,5t win=none hand=11w melds=qishou:5tx3")
    with pytest.raises(MeldError, match=r"a pong has 3"):
        parse_record("jiang=5t,5t win=none hand=11w melds=pong:7wx2")
