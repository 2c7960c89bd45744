import numpy as np
import pytest
from hypothesis import given, settings, strategies as st

from kaptai.errors import KaptaiError, RulesError
from kaptai.heaven11 import engine_reference as R
from kaptai.heaven11 import reference as ref
from kaptai.heaven11.config import ACTIONS, IllegalPlayError, make_config
from kaptai.heaven11.engine import run_hands
from kaptai.heaven11.policies import Policy
from kaptai.heaven11.rules import RuleSet
from kaptai.heaven11.scoring import score

RULE_VARIANTS = [
    {}, {"short_follow": "free"}, {"must_trump": True}, {"passout": "dealer_0C"},
    {"bid_direction": "clockwise"}, {"play_direction": "counterclockwise"}, {"short_penalty": "symmetric"},
    {"reduction": "once"}, {"point_scheme": "rank"}, {"short_follow": "free", "must_trump": True},
]


def both(cfg, pols, seed, n, bidding="expected", decks=None):
    a = run_hands(cfg, pols, np.random.PCG64(seed), n, bidding=bidding, record=n, decks=decks, engine="compiled")
    b = run_hands(cfg, pols, np.random.PCG64(seed), n, bidding=bidding, record=n, decks=decks, engine="reference")
    return a, b


def same(a, b):
    (oa, la), (ob, lb) = a, b
    for k in oa:
        assert (oa[k] == ob[k]).all(), k
    assert la.shape == lb.shape and (la == lb).all()


@pytest.mark.parametrize("rules", RULE_VARIANTS, ids=lambda r: ",".join(f"{k}={v}" for k, v in r.items()) or "default")
@pytest.mark.parametrize("pols", [["greedy"] * 4, ["random"] * 4, ["random", "greedy", "random", "greedy"]])
def test_compiled_equals_reference(rules, pols):
    cfg = make_config(rules=rules)
    same(*both(cfg, pols, 11, 8))


@pytest.mark.parametrize("rules", [{}, {"short_follow": "free"}, {"must_trump": True}])
def test_rollout_equal(rules):
    cfg = make_config(rules=rules, samples=2)
    same(*both(cfg, ["rollout", "greedy", "random", "greedy"], 5, 2))


def test_first_leader_next_and_contract():
    cfg = make_config(contract="3NT", first_leader="next", first_dealer=2)
    (o, log), b = both(cfg, ["greedy"] * 4, 3, 4)
    same((o, log), b)
    assert (o["level"] == 3).all() and (o["strain"] == 4).all()
    first_lead = log[(log[:, 0] == 0) & (log[:, 3] == ACTIONS.index("lead"))][0]
    assert first_lead[2] == (2 + 1) % 4


@settings(max_examples=25)
@given(st.integers(0, 2**32 - 1), st.sampled_from(RULE_VARIANTS),
       st.lists(st.sampled_from(["random", "greedy"]), min_size=4, max_size=4),
       st.lists(st.sampled_from(["expected", "underbid", "overbid"]), min_size=4, max_size=4))
def test_hypothesis_equivalence(seed, rules, pols, bidding):
    same(*both(make_config(rules=rules), pols, seed, 3, bidding=bidding))


def _replay(cfg, o, log, h):
    """Check every move of hand h is legal (reference evaluator) and the score is the page's."""
    rules = cfg.rules
    rows = log[log[:, 0] == h]
    deal = rows[rows[:, 3] == 0]
    hands = {int(r[2]): [c for c in range(52) if int(r[4]) >> c & 1] for r in deal[-4:]}
    trump = int(o["strain"][h])
    plays = rows[(rows[:, 3] == 5) | (rows[:, 3] == 6)]
    for i in range(0, len(plays), 4):
        trick = plays[i:i + 4]
        lead_seat = int(trick[0, 2])
        lead = [c for c in range(52) if int(trick[0, 4]) >> c & 1]
        assert tuple(sorted(lead)) in ref.legal_leads(hands[lead_seat])
        before = [list(hands[lead_seat])]
        ps = [lead]
        for r in trick[1:]:
            s = int(r[2])
            p = [c for c in range(52) if int(r[4]) >> c & 1]
            assert tuple(sorted(p)) in ref.legal_follows(hands[s], lead[0] // 13, len(lead), trump, rules)
            before.append(list(hands[s]))
            ps.append(p)
        w = ref.trick_winner(ps, before, trump, rules)
        seats = [int(r[2]) for r in trick]
        win = rows[rows[:, 3] == 7][i // 4]
        assert int(win[2]) == seats[w]
        for s, p in zip(seats, ps):
            hands[s] = [c for c in hands[s] if c not in p]
    d = int(o["declarer"][h])
    order = [(d + i * cfg.play_step) % 4 for i in range(4)]
    t = [int(o["tricks"][h, s]) for s in order]
    r = score(int(o["level"][h]), t, rules)
    assert [int(o["finals"][h, s]) for s in order] == r.finals
    assert bool(o["draw"][h]) == r.draw


@pytest.mark.parametrize("rules", RULE_VARIANTS[:3] + [{"play_direction": "counterclockwise"}])
def test_moves_legal_and_scores(rules):
    cfg = make_config(rules=rules)
    o, log = run_hands(cfg, ["random", "greedy", "random", "greedy"], np.random.PCG64(2), 30, record=30)
    assert (o["tricks"].sum(axis=1) == 13).all() and (o["finals"].sum(axis=1) == 0).all()
    for h in range(30):
        _replay(cfg, o, log, h)


def test_passout_rules():
    o, _ = run_hands(make_config(rules={"passout": "dealer_0C"}), "greedy", np.random.PCG64(1), 5, bidding="never")
    assert (o["forced"] == 1).all() and (o["level"] == 0).all() and (o["strain"] == 0).all()
    assert (o["declarer"] == o["dealer"]).all() and (o["redeals"] == 0).all()
    o, _ = run_hands(make_config(), "greedy", np.random.PCG64(1), 2, bidding="never")
    assert (o["redeals"] == 100).all() and (o["forced"] == 1).all()


def test_dealer_rotation_and_draw():
    o, _ = run_hands(make_config(first_dealer=0), "greedy", np.random.PCG64(4), 40)
    for h in range(1, 40):
        expect = o["dealer"][h - 1] if o["draw"][h - 1] else (o["dealer"][h - 1] - 1) % 4
        assert o["dealer"][h] == expect


def test_decks():
    rng = np.random.default_rng(0)
    decks = np.array([rng.permutation(52) for _ in range(3)])
    cfg = make_config(contract="1S", first_dealer=0)
    (o, _), b = both(cfg, ["greedy"] * 4, 0, 3, decks=decks)
    same((o, _), b)
    for h in range(3):
        for s in range(4):
            assert o["hands"][h, s] == sum(1 << int(c) for c in decks[h, 13 * s:13 * s + 13])
    for engine in ("compiled", "reference"):
        with pytest.raises(RulesError, match="decks: 3 given"):
            run_hands(cfg, "greedy", np.random.PCG64(0), 4, decks=decks, engine=engine)


class Illegal(Policy):
    name = "illegal"

    def play(self, view):
        # a card that is not in the hand
        mine = set(view.hand)
        return [next(c for c in range(52) if c not in mine)]


class Lowest(Policy):
    name = "lowest"

    def play(self, view):
        return view.options[0]

    def bid(self, view):
        return "0C" if view.current_bid < 0 else None


def test_user_policies():
    with pytest.raises(IllegalPlayError, match=r'illegal lead ".*" by seat 0'):
        run_hands(make_config(contract="0C", first_dealer=0), [Illegal(), "greedy", "greedy", "greedy"],
                  np.random.PCG64(0), 1)
    assert issubclass(IllegalPlayError, KaptaiError)
    o, _ = run_hands(make_config(), [Lowest(), "greedy", "greedy", "greedy"], np.random.PCG64(0), 5)
    assert (o["tricks"].sum(axis=1) == 13).all()
    with pytest.raises(RulesError):
        run_hands(make_config(), [Lowest(), "greedy", "greedy", "greedy"], np.random.PCG64(0), 1, engine="compiled")
    with pytest.raises(RulesError):
        run_hands(make_config(), "best", np.random.PCG64(0), 1)


class BadBid(Policy):
    def play(self, view):
        return view.options[0]

    def bid(self, view):
        return "0C"   # never beats a standing bid


def test_illegal_bid():
    with pytest.raises(IllegalPlayError, match="illegal bid 0C"):
        run_hands(make_config(first_dealer=0), [BadBid()] * 4, np.random.PCG64(0), 1)


from ..conftest import SLOW_SCALE as SCALE  # KAPTAI_SLOW_SCALE, default in tests/conftest.py


@pytest.mark.slow
@pytest.mark.parametrize("rules", RULE_VARIANTS, ids=lambda r: ",".join(f"{k}={v}" for k, v in r.items()) or "default")
def test_many_tables_equal(rules):
    cfg = make_config(rules=rules, samples=2)
    n = max(5, int(60 * SCALE))
    for seed, pols in enumerate([["greedy"] * 4, ["random"] * 4, ["random", "greedy", "greedy", "random"]]):
        same(*both(cfg, pols, 100 + seed, n, bidding=["expected", "underbid", "overbid", "expected"]))
    same(*both(cfg, ["rollout", "random", "greedy", "rollout"], 7, max(1, int(3 * SCALE))))


def test_hand_state_step_api():
    from kaptai.heaven11.engine_reference import HandState

    rng = np.random.default_rng(4)
    deck = rng.permutation(52)
    hands = [sorted(int(c) for c in deck[13 * s:13 * s + 13]) for s in range(4)]
    st = HandState(hands, declarer=2, contract="2H")
    while not st.finished:
        seat = st.to_move
        opts = st.options()
        before = (st.to_move, st.tricks, [st.hand(s) for s in range(4)], list(st.history))
        bad = [c for c in range(52) if c not in st.hand(seat)][:1]
        with pytest.raises(IllegalPlayError, match=r'illegal (lead|follow) ".*" by seat'):
            st.play(bad)
        assert before == (st.to_move, st.tricks, [st.hand(s) for s in range(4)], list(st.history))
        st.play(opts[len(opts) // 2])
    assert sum(st.tricks) == 13 and sum(st.finals()) == 0
    with pytest.raises(IllegalPlayError):
        st.play("2C")


class Recorder(Policy):
    name = "recorder"

    def __init__(self):
        self.views = []

    def play(self, view):
        self.views.append(view)
        return view.options[-1]


def test_player_view_contents():
    rec = Recorder()
    o, _ = run_hands(make_config(first_dealer=1), [rec, "greedy", "greedy", "greedy"], np.random.PCG64(8), 3)
    assert rec.views
    for v in rec.views:
        assert v.phase == "play" and v.seat == 0
        assert set(sum(v.options, ())) <= set(v.hand)
        assert v.declarer in range(4) and 0 <= v.trump <= 4
        assert v.auction and all(c is None or 0 <= c < 50 for _, c in v.auction)
        if v.trick:
            assert v.trick[0][0] != 0 or len(v.trick) == 0


def test_rollout_sampler_consistent():
    from kaptai.core.sampling import RandomStream
    from kaptai.heaven11.engine_reference import HandState

    rng = np.random.default_rng(12)
    checked = 0
    for trial in range(20):
        deck = rng.permutation(52)
        st = HandState([[int(c) for c in deck[13 * s:13 * s + 13]] for s in range(4)], 0, "2S")
        for _ in range(int(rng.integers(4, 24))):
            if st.finished:
                break
            opts = st.options()
            st.play(opts[int(rng.integers(len(opts)))])
        if st.finished:
            continue
        T = st._T
        E = st._E
        E.rs = RandomStream(np.random.PCG64(trial))
        seat = st.to_move
        for _ in range(5):
            h = E._sample(T, seat)
            if h is None:
                continue
            checked += 1
            assert h[seat] == T.hands[seat]
            assert sum(h) == sum(T.hands)  # disjoint and the same cards overall: masks add without carries
            allc = 0
            for q in range(4):
                assert bin(h[q]).count("1") == bin(T.hands[q]).count("1")
                assert allc & h[q] == 0
                allc |= h[q]
                for s in range(4):
                    if T.voids[q] >> s & 1:
                        assert (h[q] >> (13 * s)) & 0x1FFF == 0
            assert allc == sum(T.hands)
    assert checked > 20
