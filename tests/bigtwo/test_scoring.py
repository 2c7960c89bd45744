"""Big Two scoring and settlement (rules/big-two.md §4-§6): every worked example of the page,
the decisions of kaptai.bigtwo.scoring, vectorised == one hand, and money conservation."""
import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from kaptai.bigtwo.config import OUTCOME_DTYPES, new_outcomes
from kaptai.bigtwo.rules import RuleSet
from kaptai.bigtwo.scoring import (
    BankrollRun,
    card_points,
    chao_multipliers,
    graduated,
    penalties,
    penalty,
    run_bankrolls,
    score_outcomes,
    settle,
    settle_many,
)
from kaptai.errors import KaptaiError, RulesError

T8 = RuleSet(chao="8/11/13")

# ----------------------------------------------------------------------------- §5 炒 tables


@pytest.mark.parametrize(
    "chao, cards, expected",
    [
        ("standard", [9, 10, 12, 13], [9, 20, 24, 39]),
        ("eight", [8, 10, 13], [16, 30, 52]),
        ("8/11/13", [0, 5, 10, 13], [0, 5, 20, 52]),
    ],
)
def test_chao_page_examples(chao, cards, expected):
    r = RuleSet(chao=chao)
    assert [penalty(c, r) for c in cards] == expected
    # the same through the vectorised path (one loser per row, the winner holding 0; a
    # loser never holds 0 cards, so c = 0 is the winner's own entry)
    rows = [[0, c, 1, 1] if c else [1, 0, 1, 1] for c in cards]
    p = penalties(rows, r)
    assert p[:, 1].tolist() == expected
    assert p.dtype == np.int64


def test_chao_tables_every_count():
    std = {c: 1 if c < 10 else 2 if c < 13 else 3 for c in range(14)}
    eight = {c: 1 if c < 8 else 2 if c < 10 else 3 if c < 13 else 4 for c in range(14)}
    custom = {c: 1 if c < 8 else 2 if c < 11 else 3 if c < 13 else 4 for c in range(14)}
    for chao, table in (("standard", std), ("eight", eight), ("8/11/13", custom)):
        r = RuleSet(chao=chao)
        assert chao_multipliers(list(range(14)), r).tolist() == [table[c] for c in range(14)]
        assert [r.chao_multiplier(c) for c in range(14)] == [table[c] for c in range(14)]
        assert [penalty(c, r) for c in range(14)] == [c * table[c] for c in range(14)]


def test_exactly_ten_cards_is_doubled():  # §6.1
    assert penalty(10) == 20
    assert penalty(10, {"chao": "11/13"}) == 10  # custom table for x1 at 10


# ----------------------------------------------------------------------------- points


def test_points_page_example():
    assert card_points("2S AH TD") == 39
    assert card_points([51, 47, 30]) == 39
    assert card_points("") == 0
    r = RuleSet(scoring="points")
    assert penalty(3, r, points_left=card_points("2S AH TD")) == 39
    hand = [0, 3, 1, 1]
    pts = [0, 39, card_points("3D"), card_points("2C")]
    assert penalty(hand, r, points_left=pts).tolist() == [0, 39, 3, 15]


def test_points_without_and_with_chao():
    # 10 cards worth 100: no 炒 by default, x2 with points_chao (the multiplier uses the card count)
    assert penalty(10, {"scoring": "points"}, points_left=100) == 100
    assert penalty(10, {"scoring": "points", "points_chao": True}, points_left=100) == 200
    assert penalty(13, {"scoring": "points", "points_chao": True, "chao": "eight"}, points_left=120) == 480
    assert penalty(9, {"scoring": "points", "points_chao": True}, points_left=90) == 90


def test_points_full_deck_values():
    assert card_points(range(52)) == 4 * sum(range(3, 16))
    assert card_points("3D 4D 5D 6D 7D 8D 9D TD JD QD KD AD 2D") == sum(range(3, 16))


# ----------------------------------------------------------------------------- winner bonus


@pytest.mark.parametrize("bonus", [5, 10])
def test_winner_bonus(bonus):
    r = T8.replace(winner_bonus=bonus)
    p = penalty([0, 5, 10, 13], r)
    assert p.tolist() == [-bonus, 5, 20, 52]
    base_w = settle([0, 5, 20, 52], T8.replace(settlement="winner_takes_all"), winner=0)
    w = settle(p, r.replace(settlement="winner_takes_all"), winner=0)
    # 獨贏: each loser pays B more
    assert (w - base_w).tolist() == [3 * bonus, -bonus, -bonus, -bonus]
    # Place: B more in each loser's difference with the winner, nothing between losers
    base_p = settle([0, 5, 20, 52], T8, winner=0)
    pl = settle(p, r, winner=0)
    assert (pl - base_p).tolist() == [3 * bonus, -bonus, -bonus, -bonus]


# ----------------------------------------------------------------------------- instant wins


def test_instant_win_thirteen_cards():
    p = penalty([13, 13, 13, 13], winner=2, instant=1)
    assert p.tolist() == [39, 39, 0, 39]


@pytest.mark.parametrize("chao", ["standard", "eight", "8/11/13"])
def test_instant_bypasses_chao_and_scoring(chao):
    for scoring in ("count", "points"):
        r = RuleSet(chao=chao, scoring=scoring)
        p = penalties([[13] * 4], r, points_left=[[100] * 4], winner=[0], instant=[2])
        assert p.tolist() == [[0, 39, 39, 39]]
        assert penalty(13, r, points_left=100, instant=1) == 39


def test_instant_three_players_hand_sizes():
    r = RuleSet(players=3)
    p = penalties([[18, 17, 17], [18, 17, 17]], r, winner=[1, 0], instant=[1, 2])
    assert p.tolist() == [[54, 0, 51], [0, 51, 51]]


@pytest.mark.parametrize("bonus", [0, 5, 10])
def test_instant_with_winner_bonus(bonus):
    r = RuleSet(winner_bonus=bonus, settlement="winner_takes_all")
    p = penalty([13, 13, 13, 13], r, winner=0, instant=1)
    assert p.tolist() == [-bonus, 39, 39, 39]
    assert settle(p, r, winner=0).tolist() == [3 * (39 + bonus)] + [-(39 + bonus)] * 3


# ----------------------------------------------------------------------------- settlement table


def test_settlement_page_table():
    p = penalty([0, 5, 10, 13], T8)
    assert p.tolist() == [0, 5, 20, 52]
    assert settle(p, T8.replace(settlement="winner_takes_all", stake=10), winner=0).tolist() == [770, -50, -200, -520]
    assert settle(p, T8, winner=0).tolist() == [77, 57, -3, -131]
    assert settle(p, T8.replace(stake=20), winner=0).tolist() == [1540, 1140, -60, -2620]


def test_place_is_pairwise_differences():
    p = np.array([0, 5, 20, 52])
    pairwise = [sum(p[j] - p[i] for j in range(4)) for i in range(4)]
    assert settle(p, T8, winner=0).tolist() == pairwise


def test_bao_winner_takes_all_page_example():
    # losses 3 (violator), 1, 4 -> 8, 0, 0
    r = RuleSet(settlement="winner_takes_all")
    assert settle([0, 3, 1, 4], r, winner=0, liable=1).tolist() == [8, -8, 0, 0]
    assert settle([3, 0, 1, 4], r, winner=1, liable=0).tolist() == [-8, 8, 0, 0]


def test_bao_place_absorption():
    # Place nets of p = 0/3/1/4: +8/-4/+4/-8; the violator (seat 1) absorbs D's -8; C keeps +4
    assert settle([0, 3, 1, 4], None, winner=0).tolist() == [8, -4, 4, -8]
    assert settle([0, 3, 1, 4], None, winner=0, liable=1).tolist() == [8, -12, 4, 0]
    # page table hands, C violator: absorbs D's -131
    assert settle([0, 5, 20, 52], T8, winner=0, liable=2).tolist() == [77, 57, -134, 0]
    # a violator with a positive Place net still absorbs
    assert settle([0, 5, 20, 52], T8, winner=0, liable=1).tolist() == [77, 57 - 3 - 131, 0, 0]


# ----------------------------------------------------------------------------- graduation

GRAD = RuleSet(chao="8/11/13", stake=20)
GRAD_COINS = [10000, 2100, 5000, 2500]
GRAD_CARDS = [0, 13, 8, 11]


def test_graduation_page_example():
    p = penalty(GRAD_CARDS, GRAD)
    assert p.tolist() == [0, 52, 16, 33]
    assert settle(p, GRAD.replace(stake=1), winner=0).tolist() == [101, -107, 37, -31]
    assert settle(p, GRAD, winner=0).tolist() == [2020, -2140, 740, -620]
    wta = GRAD.replace(settlement="winner_takes_all")
    assert settle(p, wta, winner=0).tolist() == [2020, -1040, -320, -660]
    assert settle(p, wta.replace(bankroll="capped"), winner=0, coins=GRAD_COINS).tolist() == [2020, -1040, -320, -660]
    capped = GRAD.replace(bankroll="capped")
    nets = settle(p, capped, winner=0, coins=GRAD_COINS, cards_left=GRAD_CARDS)
    assert nets.tolist() == [2020, -2100, 80, 0]
    assert nets.sum() == 0
    assert graduated(GRAD_COINS, nets).tolist() == [False, True, False, False]
    # without cards_left the order by penalty is the same under count scoring
    assert settle(p, capped, winner=0, coins=GRAD_COINS).tolist() == [2020, -2100, 80, 0]


def test_graduation_winner_takes_all_caps_each_payment():
    r = GRAD.replace(settlement="winner_takes_all", bankroll="capped")
    nets = settle([0, 52, 16, 33], r, winner=0, coins=[0, 500, 5000, 100])
    assert nets.tolist() == [500 + 320 + 100, -500, -320, -100]


def test_loss_equal_to_coins_pays_normally():
    r = GRAD.replace(bankroll="capped")
    nets = settle([0, 52, 16, 33], r, winner=0, coins=[1, 2140, 1, 620])
    assert nets.tolist() == [2020, -2140, 740, -620]
    assert graduated([1, 2140, 1, 620], nets).tolist() == [False, True, False, True]


def test_several_graduations():
    r = RuleSet(bankroll="capped")
    p = [0, 39, 39, 5]  # Place: +83/-73/-73/+63
    assert settle(p, r.replace(bankroll="off"), winner=0).tolist() == [83, -73, -73, 63]
    # pot 10 + 20 = 30 < the winner's net: all to the winner
    assert settle(p, r, winner=0, coins=[1, 10, 20, 1]).tolist() == [30, -10, -20, 0]
    # pot 60 + 50 = 110: the winner is paid in full (83), the rest (27) to D
    assert settle(p, r, winner=0, coins=[1, 60, 50, 1]).tolist() == [83, -60, -50, 27]
    # only B graduates: C (who could pay) pays nothing
    assert settle(p, r, winner=0, coins=[1, 60, 100, 1]).tolist() == [60, -60, 0, 0]


def test_graduation_pot_order_fewest_cards_then_penalty():
    # points scoring: C has fewer cards but a smaller net than D
    r = RuleSet(scoring="points", bankroll="capped")
    cards = [0, 13, 2, 3]
    pts = [0, 150, 30, 9]
    p = penalty(cards, r, points_left=pts)
    off = settle(p, r.replace(bankroll="off"), winner=0)
    assert off.tolist() == [189, -411, 69, 153]
    nets = settle(p, r, winner=0, coins=[1, 200, 1, 1], cards_left=cards)
    assert nets.tolist() == [189, -200, 11, 0]  # C (2 cards) before D (3 cards)
    nets = settle(p, r, winner=0, coins=[1, 200, 1, 1])  # by penalty: D (9) before C (30)
    assert nets.tolist() == [189, -200, 0, 11]
    nets = settle(p, r, winner=0, coins=[1, 300, 1, 1], cards_left=cards)
    assert nets.tolist() == [189, -300, 69, 42]


def test_bao_then_cap():
    r = RuleSet(bankroll="capped", settlement="winner_takes_all")
    assert settle([0, 3, 1, 4], r, winner=0, liable=1, coins=[0, 5, 9, 9]).tolist() == [5, -5, 0, 0]
    r = RuleSet(bankroll="capped")
    # Place +8/-4/+4/-8, violator 1 absorbs -> -12 > 10 coins: pot 10 -> A 8, C 2
    assert settle([0, 3, 1, 4], r, winner=0, liable=1, coins=[0, 10, 0, 0]).tolist() == [8, -10, 2, 0]


def test_zero_coins_loser_pays_nothing():
    r = RuleSet(bankroll="capped")
    assert settle([0, 3, 1, 4], r, winner=0, coins=[5, 0, 5, 50]).tolist() == [0, 0, 0, 0]
    r = r.replace(settlement="winner_takes_all")
    assert settle([0, 3, 1, 4], r, winner=0, coins=[5, 0, 5, 50]).tolist() == [5, 0, -1, -4]


# ----------------------------------------------------------------------------- reference and invariants


def ref_settle(p, rules, winner, liable=-1, coins=None, cards=None, active=None):
    """The page's text, one pair / one payment at a time (pure Python)."""
    N = len(p)
    act = [True] * N if active is None else list(active)
    seats = [i for i in range(N) if act[i]]
    net = [0.0] * N
    if rules.settlement == "place":
        for i in seats:
            for j in seats:
                net[i] += p[j] - p[i]
    elif act[winner]:
        for i in seats:
            if i != winner:
                net[i] -= p[i] - p[winner]
                net[winner] += p[i] - p[winner]
    if liable >= 0 and act[liable]:
        for j in range(N):
            if j != liable and net[j] < 0:
                net[liable] += net[j]
                net[j] = 0.0
    net = [x * rules.stake for x in net]
    if rules.bankroll != "capped":
        return net
    if rules.settlement == "winner_takes_all":
        out = [0.0] * N
        for i in range(N):
            if net[i] < 0:
                pay = min(-net[i], coins[i])
                out[i] -= pay
                out[winner] += pay
        return out
    grads = [i for i in range(N) if net[i] < 0 and -net[i] > coins[i]]
    if not grads:
        return net
    key = (lambda i: (i != winner, cards[i], p[i], i)) if cards is not None else (lambda i: (i != winner, p[i], i))
    prio = sorted((i for i in range(N) if net[i] > 0), key=key)
    room = {i: net[i] for i in prio}
    out = [0.0] * N
    for g in grads:  # seat order
        pot = coins[g]
        out[g] = -coins[g]
        for r in prio:
            give = min(pot, room[r])
            out[r] += give
            room[r] -= give
            pot -= give
        assert pot < 1e-6 * (1 + coins[g])
    return out


CHAOS = ["standard", "eight", "8/11/13", "5/9", "13", "2/4/6"]


@st.composite
def tables(draw, games=st.integers(1, 12)):
    N = draw(st.integers(2, 8))
    rules = RuleSet(
        players=N,
        scoring=draw(st.sampled_from(["count", "points"])),
        chao=draw(st.sampled_from(CHAOS)),
        points_chao=draw(st.booleans()),
        winner_bonus=draw(st.sampled_from([0, 5, 10])),
        settlement=draw(st.sampled_from(["place", "winner_takes_all"])),
        stake=draw(st.sampled_from([1, 20, 0.5, 0.1, 3.7])),
        bankroll=draw(st.sampled_from(["off", "capped"])),
    )
    n = draw(games)
    size = 52 // N
    cards = np.array(draw(st.lists(st.lists(st.integers(1, size), min_size=N, max_size=N), min_size=n, max_size=n)))
    frac = np.array(draw(st.lists(st.lists(st.floats(0, 1), min_size=N, max_size=N), min_size=n, max_size=n)))
    winner = np.array(draw(st.lists(st.integers(0, N - 1), min_size=n, max_size=n)))
    instant = np.array(draw(st.lists(st.sampled_from([0, 0, 0, 1, 2]), min_size=n, max_size=n)))
    liable = np.array(draw(st.lists(st.integers(-1, N - 1), min_size=n, max_size=n)))
    rows = np.arange(n)
    ordinary = instant == 0
    cards[rows[ordinary], winner[ordinary]] = 0
    liable = np.where((liable == winner) | ~ordinary, -1, liable)
    points = np.round(3 * cards + frac * 12 * cards).astype(np.int64)
    coins = np.array(
        draw(st.lists(st.lists(st.sampled_from([0, 1, 7, 50, 100, 333.3, 1000, 1e6]), min_size=N, max_size=N),
                      min_size=n, max_size=n))
    )
    active = np.array(draw(st.lists(st.lists(st.booleans(), min_size=N, max_size=N), min_size=n, max_size=n)))
    return rules, cards, points, winner, instant, liable, coins, active


@given(tables(), st.booleans())
def test_vectorised_equals_one_hand_and_reference(table, use_active):
    rules, cards, points, winner, instant, liable, coins, active = table
    cn = coins if rules.bankroll == "capped" else None
    act = active if use_active else None
    p = penalties(cards, rules, points_left=points, winner=winner, instant=instant)
    nets = settle_many(p, rules, winner=winner, liable=liable, coins=cn, cards_left=cards, active=act)
    scale = 1.0 + np.abs(nets).sum(axis=1)
    assert np.all(np.abs(nets.sum(axis=1)) <= 1e-9 * scale)  # Σ net = 0
    for g in range(len(winner)):
        one = penalty(cards[g].tolist(), rules, points_left=points[g].tolist(), winner=int(winner[g]),
                      instant=int(instant[g]))
        assert one.tolist() == p[g].tolist()
        kw = {}
        if cn is not None:
            kw["coins"] = cn[g].tolist()
        if act is not None:
            kw["active"] = act[g].tolist()
        s = settle(one.tolist(), rules, winner=int(winner[g]), liable=int(liable[g]),
                   cards_left=cards[g].tolist(), **kw)
        np.testing.assert_allclose(s, nets[g], rtol=1e-12, atol=1e-9)
        ref = ref_settle(p[g].tolist(), rules, int(winner[g]), int(liable[g]),
                         None if cn is None else cn[g].tolist(), cards[g].tolist(),
                         None if act is None else act[g].tolist())
        np.testing.assert_allclose(nets[g], ref, rtol=1e-9, atol=1e-6)


@given(tables())
def test_net_properties(table):
    rules, cards, points, winner, instant, liable, coins, active = table
    p = penalties(cards, rules, points_left=points, winner=winner, instant=instant)
    n, N = p.shape
    rows = np.arange(n)
    free = settle_many(p, rules.replace(bankroll="off"), winner=winner, liable=liable)
    assert np.all(np.abs(free.sum(axis=1)) <= 1e-9 * (1 + np.abs(free).sum(axis=1)))
    assert np.all(free[rows, winner] >= 0)
    assert np.all(free[rows, winner] >= free.max(axis=1) - 1e-9)  # the winner does best
    if rules.settlement == "winner_takes_all":
        others = np.ones((n, N), dtype=bool)
        others[rows, winner] = False
        assert np.all(free[others] <= 0)
    if rules.bankroll == "capped":
        capped = settle_many(p, rules, winner=winner, liable=liable, coins=coins, cards_left=cards)
        assert np.all(np.abs(capped.sum(axis=1)) <= 1e-9 * (1 + np.abs(capped).sum(axis=1)))
        assert np.all(capped >= -coins - 1e-9 * (1 + coins))  # nobody loses more than its coins
        assert np.all(capped <= np.maximum(free, 0) + 1e-9 * (1 + np.abs(free)))  # nobody gains more
        assert np.all((capped >= -1e-9) | (free < 0))  # a winner of the hand never pays
        ok = np.all(-free <= coins, axis=1)  # nobody short: the hand settles as without the cap
        np.testing.assert_allclose(capped[ok], free[ok])


@given(tables(games=st.integers(1, 1)), st.integers(0, 2**32 - 1))
def test_seat_relabelling(table, seed):
    # rotating the seats rotates the nets (ties in the graduation order aside)
    rules, cards, points, winner, instant, liable, coins, active = table
    if rules.bankroll == "capped":
        rules = rules.replace(bankroll="off")
    N = cards.shape[1]
    perm = np.random.default_rng(seed).permutation(N)
    inv = np.argsort(perm)
    p = penalties(cards, rules, points_left=points, winner=winner, instant=instant)
    nets = settle_many(p, rules, winner=winner, liable=liable)
    p2 = p[:, perm]
    nets2 = settle_many(p2, rules, winner=inv[winner], liable=np.where(liable >= 0, inv[liable], -1))
    np.testing.assert_allclose(nets2, nets[:, perm])


def test_engine_dtypes_do_not_overflow():
    o = new_outcomes(3, 4)
    o["cards_left"][:] = [[0, 13, 13, 13], [13, 0, 13, 13], [13, 13, 13, 13]]
    o["points_left"][:] = [[0, 195, 195, 195], [195, 0, 195, 195], [117, 117, 117, 117]]
    o["winner"][:] = [0, 1, 3]
    o["instant"][:] = [0, 0, 1]
    o["liable"][:] = -1
    assert o["cards_left"].dtype == np.int8 and OUTCOME_DTYPES["points_left"][0] == "int16"
    p, nets = score_outcomes(o, {"chao": "eight", "settlement": "winner_takes_all"})
    assert p.dtype == np.int64
    assert p.tolist() == [[0, 52, 52, 52], [52, 0, 52, 52], [39, 39, 39, 0]]
    assert nets[0].tolist() == [156, -52, -52, -52]
    p, nets = score_outcomes(o, {"scoring": "points", "points_chao": True, "chao": "eight", "winner_bonus": 10})
    assert p.tolist() == [[-10, 780, 780, 780], [780, -10, 780, 780], [39, 39, 39, -10]]
    assert nets[0].tolist() == [2370, -790, -790, -790]  # S = 2330, net = S - 4p


def test_score_outcomes_with_bao_and_coins():
    out = {"winner": [0, 1], "cards_left": [[0, 13, 8, 11], [3, 0, 1, 4]], "liable": [-1, 0]}
    r = {"chao": "8/11/13", "stake": 20, "bankroll": "capped"}
    p, nets = score_outcomes(out, r, coins=GRAD_COINS)
    assert p.tolist() == [[0, 52, 16, 33], [3, 0, 1, 4]]
    # game 2 (Place): p 3/0/1/4 -> nets -4/+8/+4/-8, x 20; A (the violator) absorbs D's -8
    assert nets.tolist() == [[2020, -2100, 80, 0], [-240, 160, 80, 0]]


# ----------------------------------------------------------------------------- sessions


def _outcomes(rng, n, N):
    size = 52 // N
    cards = rng.integers(1, size + 1, size=(n, N))
    winner = rng.integers(0, N, size=n)
    cards[np.arange(n), winner] = 0
    liable = np.where(rng.random(n) < 0.2, (winner - 1) % N, -1)
    return {"winner": winner.astype(np.int8), "cards_left": cards.astype(np.int8), "liable": liable.astype(np.int8)}


def test_run_bankrolls_page_example():
    out = {"winner": [0], "cards_left": [GRAD_CARDS]}
    run = run_bankrolls(out, GRAD.replace(bankroll="capped"), GRAD_COINS)
    assert isinstance(run, BankrollRun)
    assert run.coins.tolist() == [GRAD_COINS, [12020, 0, 5080, 2500]]
    assert run.nets.tolist() == [[2020, -2100, 80, 0]]
    assert run.graduated_at.tolist() == [-1, 0, -1, -1]
    assert run.graduated.tolist() == [False, True, False, False]
    assert run.final.tolist() == [12020, 0, 5080, 2500]


@pytest.mark.parametrize("settlement", ["place", "winner_takes_all"])
def test_run_bankrolls_leavers_neither_pay_nor_receive(settlement):
    rng = np.random.default_rng(7)
    out = _outcomes(rng, 400, 4)
    rules = RuleSet(settlement=settlement, bankroll="capped", stake=5)
    run = run_bankrolls(out, rules, [300, 500, 800, 2000])
    assert run.coins.shape == (401, 4) and run.nets.shape == (400, 4)
    assert np.allclose(run.coins.sum(axis=1), 3600)  # coins are conserved
    assert np.all(run.coins >= -1e-9)
    assert run.graduated.any()
    for seat, t in enumerate(run.graduated_at):
        if t >= 0:
            assert run.coins[t + 1, seat] == 0 and run.coins[t, seat] > 0
            assert np.all(run.nets[t + 1:, seat] == 0)
            assert np.all(run.coins[t + 1:, seat] == 0)
        else:
            assert np.all(run.coins[1:, seat] > 0)
    # replaying hand by hand with settle() and the active seats gives the same path
    coins = np.array([300.0, 500, 800, 2000])
    active = np.ones(4, dtype=bool)
    p = penalties(out["cards_left"], rules, winner=out["winner"])
    for t in range(400):
        nets = settle(p[t], rules, winner=int(out["winner"][t]), liable=int(out["liable"][t]), coins=coins,
                      cards_left=out["cards_left"][t], active=active)
        coins = coins + nets
        active &= ~graduated(coins)
        np.testing.assert_allclose(coins, run.coins[t + 1])


def test_run_bankrolls_sessions_side_by_side():
    rng = np.random.default_rng(11)
    out = _outcomes(rng, 300, 4)
    rules = RuleSet(bankroll="capped", stake=3, chao="eight")
    start = np.array([[200, 300, 400, 500], [500, 400, 300, 200], [250, 250, 250, 250]], dtype=float)
    run = run_bankrolls(out, rules, start)
    assert run.coins.shape == (3, 101, 4) and run.graduated_at.shape == (3, 4)
    for k in range(3):
        part = {key: v[k * 100:(k + 1) * 100] for key, v in out.items()}
        one = run_bankrolls(part, rules, start[k])
        np.testing.assert_array_equal(one.coins, run.coins[k])
        np.testing.assert_array_equal(one.graduated_at, run.graduated_at[k])


def test_run_bankrolls_off_never_graduates():
    rng = np.random.default_rng(3)
    out = _outcomes(rng, 200, 4)
    rules = RuleSet(stake=10)
    run = run_bankrolls(out, rules, [100, 100, 100, 100])
    assert (run.graduated_at == -1).all()
    assert run.coins.min() < 0
    _, nets = score_outcomes(out, rules)
    np.testing.assert_allclose(run.nets, nets)
    np.testing.assert_allclose(run.coins[1:], 100 + np.cumsum(nets, axis=0))


def test_run_bankrolls_winner_takes_all_departed_winner_settles_nothing():
    out = {"winner": [0, 1], "cards_left": [[0, 13, 1, 1], [1, 0, 1, 13]]}
    rules = RuleSet(settlement="winner_takes_all", bankroll="capped")
    run = run_bankrolls(out, rules, [10, 5, 10, 10])
    assert run.graduated_at.tolist() == [-1, 0, -1, -1]
    assert run.nets.tolist() == [[7, -5, -1, -1], [0, 0, 0, 0]]


# ----------------------------------------------------------------------------- errors


def test_errors_are_value_errors():
    assert issubclass(RulesError, KaptaiError) and issubclass(RulesError, ValueError)


@pytest.mark.parametrize(
    "call, match",
    [
        (lambda: penalties([0, 5, 10, 13]), "cards_left has shape"),
        (lambda: penalties([[0, 5, 10]]), "cards_left has 3 seats but rules.players=4"),
        (lambda: penalties([[0, -1, 10, 13]]), r"cards_left\[0, 1\]=-1"),
        (lambda: penalties([[0, 5, 10, 99]]), r"cards_left\[0, 3\]=99"),
        (lambda: penalties([[0, 5.5, 10, 13]]), "cards_left must be integers"),
        (lambda: penalties([[0, 5, 10, 13]], winner=[4]), "winner=4"),
        (lambda: penalties([[0, 5, 10, 13]], winner=[-1]), "winner=-1"),
        (lambda: penalties([[0, 5, 10, 13]], winner=[0, 1]), "winner has shape"),
        (lambda: penalties([[0, 5, 10, 13]], winner=[1]), "winner=1 .* still holds 5 cards"),
        (lambda: penalties([[0, 0, 10, 13]]), "2 seats with 0 cards"),
        (lambda: penalties([[0, 0, 10, 13]], winner=[0]), r"cards_left\[0, 1\]=0 but seat 1 is not the winner"),
        (lambda: penalties([[13, 13, 13, 13]], instant=[1]), "winner is needed for instant wins"),
        (lambda: penalties([[13, 13, 13, 13]], winner=[0], instant=[3]), "instant"),
        (lambda: penalties([[0, 1, 1, 1]], "hong_kong", winner=[0], instant=[0, 0]), "instant has shape"),
        (lambda: penalties([[0, 1, 1, 1]], {"scoring": "points"}), "points_left is needed"),
        (lambda: penalties([[0, 1, 1, 1]], {"scoring": "points"}, points_left=[[0, 1, 1]]), "points_left has shape"),
        (lambda: penalties([[0, 1, 1, 1]], {"scoring": "points"}, points_left=[[0, 2, 3, 3]]),
         r"points_left\[0, 1\]=2 is impossible for 1 cards"),
        (lambda: penalty(-1), "cards_left=-1"),
        (lambda: penalty(13, winner=0), "winner is not used"),
        (lambda: penalty(3, {"scoring": "points"}), "points_left"),
        (lambda: penalty([[0, 1, 1, 1]]), "cards_left has shape"),
        (lambda: penalty([0, 1, 1, 1], {"chao": "9/9"}), "chao"),
        (lambda: settle([0, 5, 20, 52], winner=4), "winner=4"),
        (lambda: settle([0, 5, 20, 52], winner=True), "winner=True"),
        (lambda: settle([0, 5, 20], winner=0), "p has 3 seats"),
        (lambda: settle([[0, 5, 20, 52]], winner=0), "p has shape"),
        (lambda: settle([0, 5, 20, np.nan], winner=0), "p must be finite"),
        (lambda: settle([0, 5, 20, 52], winner=1), r"p\[0, 0\]=0 is below the winner's p"),
        (lambda: settle([0, 5, 20, 52], winner=0, liable=0), "liable=0 .* is the winner"),
        (lambda: settle([0, 5, 20, 52], winner=0, liable=7), "liable=7"),
        (lambda: settle([0, 5, 20, 52], {"bankroll": "capped"}, winner=0), "coins are needed"),
        (lambda: settle([0, 5, 20, 52], winner=0, coins=[1, 1, 1, 1]), "coins given but rules.bankroll='off'"),
        (lambda: settle([0, 5, 20, 52], {"bankroll": "capped"}, winner=0, coins=[1, -1, 1, 1]), "coins must be >= 0"),
        (lambda: settle([0, 5, 20, 52], {"bankroll": "capped"}, winner=0, coins=[1, 1, 1]), "coins has shape"),
        (lambda: settle([0, 5, 20, 52], winner=0, active=[1, 1, 1, 1]), "active must be booleans"),
        (lambda: settle([0, 5, 20, 52], winner=0, cards_left=[0, 1]), "cards_left has shape"),
        (lambda: settle_many([[0, 5, 20, 52]], winner=[0], liable=[-1, -1]), "liable has shape"),
        (lambda: settle_many([["a", "b", "c", "d"]], winner=[0]), "p must be numbers"),
        (lambda: score_outcomes({"winner": [0]}), "outcomes has no 'cards_left'"),
        (lambda: score_outcomes([[0, 1, 1, 1]]), "outcomes must be a mapping"),
        (lambda: run_bankrolls({"winner": [0], "cards_left": [[0, 1, 1, 1]]}, None, [1, 0, 1, 1]),
         "coins must be > 0"),
        (lambda: run_bankrolls({"winner": [0], "cards_left": [[0, 1, 1, 1]]}, None, [1, -3, 1, 1]),
         "coins must be > 0"),
        (lambda: run_bankrolls({"winner": [0], "cards_left": [[0, 1, 1, 1]]}, None, [1, 1, 1]), "coins has shape"),
        (lambda: run_bankrolls({"winner": [0] * 3, "cards_left": [[0, 1, 1, 1]] * 3}, None, [[1] * 4] * 2),
         "3 games cannot be split into 2 sessions"),
    ],
)
def test_clear_errors(call, match):
    with pytest.raises(RulesError, match=match):
        call()
