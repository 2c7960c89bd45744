"""Cards, notation, records and scoring of nine-ten: every test vector and error of the rules page."""
import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings, strategies as st

from kaptai.errors import KaptaiError, RulesError
from kaptai.nineten.cards import (
    InvalidCardError, InvalidRecordError, format_card, format_hand, parse_card, parse_cards, parse_hand,
    parse_record, format_record, N_KINDS,
)
from kaptai.nineten.rules import RuleSet, resolve_rules, validate_players, deal_sizes
from kaptai.nineten.scoring import score, payments

T_VECTORS = [
    ("RAx2 RRx2 YKx2 YAx2 WEx2 | win=self | bonus=GC GP WE RK RA", 6),
    ("RAx2 RRx2 YKx2 YAx4 | win=discard | kzwait=YA", 8),
    ("RAx2 RRx2 YKx2 YAx4 | win=flip | kz=YA | bonus=GC GP WE RK RA", 6),
    ("RKx2 YAx2 GEx2 WRx2 WHx2 | win=self", 1),
    ("RKx2 YAx2 GEx2 WRx2 WHx2 | win=discard", 0),
    ("RKx2 YAx2 GEx2 WRx2 WHx2 | win=flip", 0),
    ("RKx2 RAx2 REx2 RRx2 RHx2 | win=self | bonus=RC WP RK RH RH", 10),
]


@pytest.mark.parametrize("record,total", T_VECTORS)
def test_rules_page_vectors(record, total):
    assert score(record).total == total


def test_t1_components():
    s = score(T_VECTORS[0][0])
    assert s.components == {"colours": 2, "self_draw": 1, "bonus": 3, "kaizhao": 0, "kaizhao_wait": 0}
    assert s.colours == 3


def test_t2_discarder_pays():
    s = score(T_VECTORS[1][0])
    assert s.net(4, winner=1, source=2) == [0.0, 80.0, -80.0, 0.0]
    assert s.components["colours"] == 3 and s.components["kaizhao_wait"] == 5


def test_t6_components():
    s = score(T_VECTORS[6][0])
    assert s.components == {"colours": 5, "self_draw": 1, "bonus": 4, "kaizhao": 0, "kaizhao_wait": 0}


def test_t7_bonus_on_discard():
    with pytest.raises(InvalidRecordError, match="bonus not allowed for win=discard"):
        score("RAx2 RRx2 YKx2 YAx2 WEx2 | win=discard | bonus=GC GP WE RK RA")


def test_t8_too_many_copies():
    with pytest.raises(KaptaiError, match=r"card 'RA' \(紅仕\) appears 5 times; the deck has 4"):
        score("RAx2 RRx2 YKx2 YAx2 WEx2 | win=self | bonus=RA RA RA GC GP")


H5 = "RAx2 RRx2 YKx2 YAx2 WEx2"
H4C = "RKx2 YAx2 GEx2 WRx2 WHx2"


@pytest.mark.parametrize("record,message", [
    ("RAx2 RX RRx2 | win=self", "unknown card token 'RX' (item 2)"),
    ("RAx5 RRx2 | win=self", "bad multiplicity in 'RAx5' (allowed 1-4)"),
    ("RAx0 | win=self", "bad multiplicity in 'RAx0' (allowed 1-4)"),
    ("RAx3 RAx2 RRx2 YKx2 YAx2 | win=discard", "card 'RA' (紅仕) appears 5 times; the deck has 4"),
    ("RAx2 RRx2 YKx2 YAx2 WE RK | win=discard", "hand is not five pairs: unpaired 'WE', 'RK'"),
    ("RAx2 RRx2 YKx2 YAx2 WEx2 RKx2 | win=discard", "hand has 12 cards; five pairs need 10"),
    (H5 + " | win=self | bonus=GC GP WE RK", "bonus needs exactly 5 cards, got 4"),
    (H5 + " | win=discard | bonus=GC GP WE RK RA", "bonus not allowed for win=discard"),
    (H4C + " | win=self | bonus=GC GP WE RK RA", "bonus not allowed: four colours"),
    (H5 + " | win=self", "win=self needs bonus=5 cards"),
    (H5 + " | win=flip", "win=flip needs bonus=5 cards"),
    (H5 + " | win=discard | kz=YA", "kz card 'YA' is not held 4 times"),
    (H5 + " | win=discard | kzwait=YA", "kzwait card 'YA' is not held 4 times"),
    ("RAx2 RRx2 YKx2 YAx4 | win=discard | kz=YA | kzwait=YA", "'YA' is both kz and kzwait"),
    ("RAx2 RRx2 YKx2 YAx4 | win=discard | kz=YA YA", "kz lists 'YA' twice"),
    (H5 + " | bonsu=GC", "unknown field 'bonsu' (item 6)"),
    (H5 + " | win=self | win=self", "field 'win' given twice"),
    (H5 + " | win=sometimes", "bad value win='sometimes'"),
    (H5, "record has no win field"),
    (H5 + " | win=self | bonus=GC GP WX RK RA", "unknown card token 'WX' (item 9)"),
])
def test_rules_page_errors(record, message):
    with pytest.raises(KaptaiError) as exc:
        score(record)
    assert message in str(exc.value)


def test_check_order_tokens_before_fields():
    # an unknown token is reported before an unknown field
    with pytest.raises(InvalidCardError):
        score("RX | bonsu=1")
    # copies before five pairs
    with pytest.raises(KaptaiError, match="appears 5 times"):
        score("RAx4 RA | win=discard")


def test_table_size_errors():
    with pytest.raises(RulesError, match="nine-ten seats 4-15 players, got 16"):
        validate_players(16)
    with pytest.raises(RulesError, match="got 2"):
        validate_players(2)
    assert validate_players(2, RuleSet(allow_small_table=True), play=True) == 2
    with pytest.raises(RulesError, match="8\\+ players"):
        validate_players(8, play=True)
    assert validate_players(8) == 8
    assert deal_sizes(8) == (5, 4, 112 - 33)
    assert deal_sizes(8, RuleSet(large_table="ten_nine")) == (10, 9, 112 - 73)
    with pytest.raises(RulesError, match="ten_nine needs at most 11 players"):
        validate_players(12, RuleSet(large_table="ten_nine"))


def test_notation_forms():
    assert parse_card("RK") == parse_card("紅帥") == parse_card("红帅") == parse_card("hong-shuai") == 0
    assert parse_card("紅將") == 0 and parse_card("白仕") == parse_card("白士") == 22
    assert parse_card("GK") == parse_card("青將") == parse_card("绿将") == parse_card("qing-jiang") == parse_card("綠將")
    assert parse_card("lv-bao") == parse_card("GC") == parse_card("青砲") == parse_card("青炮")
    assert parse_card("yp") == parse_card("黃兵") == parse_card("黄兵")
    assert parse_cards("RA×2,WE") == (1, 1, 23)
    assert parse_cards("rax2") == (1, 1)
    for k in range(N_KINDS):
        for style in ("ascii", "trad", "simp", "pinyin"):
            assert parse_card(format_card(k, style)) == k


def test_other_family_normalised():
    assert format_card(parse_card("紅將"), "trad") == "紅帥"
    assert format_card(parse_card("白仕"), "trad") == "白士"
    assert format_card(parse_card("白仕"), "simp") == "白士"


@pytest.mark.parametrize("bad", ["", "R", "RKK", "XK", "紅", "hong-", "-shuai", "purple-shuai"])
def test_unknown_tokens(bad):
    with pytest.raises(InvalidCardError):
        parse_card(bad)


def test_hand_round_trip():
    h = parse_hand("WP YKx3 RA")
    assert format_hand(h) == "RA YKx3 WP"
    assert (parse_hand(format_hand(h)) == h).all()


def test_record_round_trip():
    for rec, _ in T_VECTORS:
        r = parse_record(rec)
        assert score(format_record(r)).total == score(rec).total


def test_options_change_scores():
    t2 = T_VECTORS[1][0]
    assert score(t2, {"kaizhao_wait_also_plus1": True}).total == 9
    kz4 = "RKx2 YAx4 GEx2 WRx2 | win=discard | kzwait=YA"
    assert score(kz4).total == 0
    assert score(kz4, {"four_colour_kaizhao_counts": True}).total == 5
    flip4 = H4C + " | win=flip | bonus=RK WP WP GC RK"
    assert score(flip4, {"four_colour_flip_win": "bonus_flip"}).total == 1 + 2
    with pytest.raises(InvalidRecordError, match="four colours"):
        score(flip4)
    nat = H5 + " | win=natural"
    with pytest.raises(InvalidRecordError, match="needs bonus"):
        score(nat)
    assert score(nat, {"natural": "no_bonus"}).total == 3
    with pytest.raises(InvalidRecordError, match="redeal"):
        score(nat, {"natural": "redeal"})
    assert score(nat + " | bonus=GC GP WE RK RA").total == 6


def test_payers():
    s = score(T_VECTORS[2][0])
    assert s.net(4, winner=2, source=0) == [-60.0, -60.0, 180.0, -60.0]
    s2 = score(T_VECTORS[2][0], {"flip_win_payer": "flipper"})
    assert s2.net(4, winner=2, source=0) == [-60.0, 0.0, 60.0, 0.0]
    with pytest.raises(RulesError):
        s2.net(4, winner=2, source=2)


cards_st = st.lists(st.integers(0, 27), min_size=5, max_size=5)


@st.composite
def winning_records(draw):
    kinds = draw(st.lists(st.integers(0, 27), min_size=1, max_size=5))
    counts = np.zeros(28, dtype=int)
    pairs = 0
    for k in kinds:
        add = 4 if (counts[k] == 0 and pairs <= 3 and draw(st.booleans())) else 2
        if counts[k] + add > 4 or pairs + add // 2 > 5:
            continue
        counts[k] += add
        pairs += add // 2
    while pairs < 5:
        k = draw(st.integers(0, 27))
        if counts[k] <= 2:
            counts[k] += 2
            pairs += 1
    win = draw(st.sampled_from(["self", "flip", "discard"]))
    fours = [k for k in range(28) if counts[k] == 4]
    kz = [k for k in fours if draw(st.booleans())]
    rest = [k for k in fours if k not in kz]
    kw = rest[0] if rest and draw(st.booleans()) else None
    text = format_hand(counts) + f" | win={win}"
    if kz:
        text += " | kz=" + " ".join(format_card(k) for k in kz)
    if kw is not None:
        text += " | kzwait=" + format_card(kw)
    colours = len({k // 7 for k in range(28) if counts[k]})
    if win != "discard" and colours < 4:
        left = [k for k in range(28) for _ in range(4 - counts[k])]
        idx = draw(st.lists(st.integers(0, len(left) - 1), min_size=5, max_size=5, unique=True))
        text += " | bonus=" + " ".join(format_card(left[i]) for i in idx)
    return text


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.large_base_example, HealthCheck.too_slow])
@given(winning_records(), st.integers(4, 7), st.data())
def test_money_conserved_and_bounds(text, n, data):
    rules = resolve_rules(discard_payer_covers_all=data.draw(st.booleans()),
                          flip_win_payer=data.draw(st.sampled_from(["all", "flipper"])),
                          stake_per_tou=data.draw(st.sampled_from([1, 10, 2.5])))
    s = score(text, rules)
    winner = data.draw(st.integers(0, n - 1))
    source = data.draw(st.integers(0, n - 1).filter(lambda x: x != winner))
    net = s.net(n, winner, source)
    assert abs(sum(net)) < 1e-9
    assert net[winner] >= 0
    assert s.total == sum(s.components.values())
    assert 0 <= s.total <= 5 + 1 + 6 + 2 + 5
    if s.colours == 4:
        assert s.total == (1 if "win=self" in text else 0)


def test_seat_draw():
    from kaptai.nineten.rules import seat_draw
    # the page's example: 紅帥 > 青將 > 青象 > 白象 (fits either key)
    for key in ("rank_colour", "colour_rank"):
        assert seat_draw("白象 青象 紅帥 青將", RuleSet(seat_draw_key=key)) == [2, 3, 1, 0]
    assert seat_draw("RE YK") == [1, 0]
    assert seat_draw("RE YK", RuleSet(seat_draw_key="colour_rank")) == [0, 1]
    assert seat_draw("GK GK") is None
    order = seat_draw("RK GK GE WE", RuleSet(seating="random"), np.random.default_rng(0))
    assert order[0] == 0 and sorted(order) == [0, 1, 2, 3]


@settings(max_examples=400, deadline=None)
@given(st.text(alphabet=st.sampled_from(list("RYGWKAERHCPx×|=, 0123456789紅黃青白帥將仕士相象俥車傌馬炮包兵卒winselfdcrbouzkt-")),
               max_size=60))
def test_any_text_is_a_score_or_a_kaptai_error(text):
    try:
        s = score(text)
    except KaptaiError:
        return
    assert s.total == sum(s.components.values())


@settings(max_examples=200, deadline=None)
@given(st.lists(st.integers(0, 27), min_size=1, max_size=12), st.sampled_from(["ascii", "trad", "simp", "pinyin"]))
def test_hand_notation_round_trip(kinds, style):
    from collections import Counter
    c = Counter(kinds)
    if max(c.values()) > 4:
        return
    text = " ".join(format_card(k, style) + (f"x{n}" if n > 1 else "") for k, n in c.items())
    assert sorted(parse_cards(text)) == sorted(kinds)
    assert sorted(parse_cards(text.replace(" ", ","))) == sorted(kinds)
