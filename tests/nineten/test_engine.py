"""Nine-ten engines: compiled vs reference move for move, the S1 walk-through, scores re-derived
from the log, user-policy errors, engine deals vs exact odds."""
import math

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings, strategies as st

from kaptai.nineten.cards import format_card, format_hand, parse_card, parse_cards
from kaptai.nineten.config import ACTIONS, IllegalMoveError, make_config, POLICY_NAMES
from kaptai.nineten.engine import run_hands
from kaptai.nineten.engine_reference import Hand, _user_choice
from kaptai.nineten.odds import hand_distribution
from kaptai.nineten.policies import Policy
from kaptai.nineten.rules import OPTION_VALUES, RuleSet
from kaptai.nineten.scoring import score

A = {name: i for i, name in enumerate(ACTIONS)}
WIN_NAMES = {1: "self", 2: "flip", 3: "discard", 4: "natural"}


def _both(cfg, hands, seed, pols, record=None):
    record = hands if record is None else record
    a = run_hands(cfg, hands, np.random.PCG64(seed), pols, record=record, engine="reference")
    b = run_hands(cfg, hands, np.random.PCG64(seed), pols, record=record, engine="compiled")
    return a, b


def _same(a, b):
    for k in a[0]:
        assert np.array_equal(a[0][k], b[0][k]), k
    assert np.array_equal(a[1], b[1])


OPTION_SETS = [
    {},
    {"flip_priority": "next_player_first"},
    {"dead_card_order": "policy"},
    {"dead_cards_claimable": False},
    {"natural": "redeal", "next_dealer": "winner"},
    {"natural": "no_bonus", "next_dealer": "redraw"},
    {"dealt_four_is_kaizhao": True, "four_colour_kaizhao_counts": True, "kaizhao_wait_also_plus1": True},
    {"four_colour_flip_win": "bonus_flip", "flip_win_payer": "flipper", "discard_payer_covers_all": True},
    {"reserve": 20},
]


@pytest.mark.parametrize("opts", OPTION_SETS)
@pytest.mark.parametrize("players", [4, 5, 7])
def test_engines_agree(opts, players):
    cfg = make_config(players, opts)
    for pols in ("colour_cut", "live_first", "random", ["random", "colour_cut", "live_first"] + ["random"] * (players - 3)):
        _same(*_both(cfg, 60, 11, pols))


def test_engines_agree_small_and_large_tables():
    _same(*_both(make_config(2, {"allow_small_table": True}), 80, 3, "colour_cut"))
    _same(*_both(make_config(3, {"allow_small_table": True}), 80, 3, "random"))
    _same(*_both(make_config(11, {"large_table": "ten_nine"}), 80, 3, "live_first"))


@st.composite
def tables(draw):
    opts = {name: draw(st.sampled_from(vals)) for name, vals in OPTION_VALUES.items()
            if name not in ("large_table", "seat_draw_key", "seating")}
    for b in ("dealt_four_is_kaizhao", "discard_payer_covers_all", "four_colour_kaizhao_counts",
              "kaizhao_wait_also_plus1", "dead_cards_claimable"):
        opts[b] = draw(st.booleans())
    opts["reserve"] = draw(st.sampled_from([5, 9, 15]))
    table = draw(st.sampled_from(["normal"] * 6 + ["small", "large"]))
    if table == "small":
        opts["allow_small_table"] = True
        n = draw(st.integers(2, 3))
    elif table == "large":
        opts["large_table"] = "ten_nine"
        n = draw(st.integers(8, 11))
    else:
        n = draw(st.integers(4, 7))
    # the search (slow in the reference engine) has its own equivalence tests: tests/nineten/test_search.py
    pols = draw(st.lists(st.sampled_from([p for p in POLICY_NAMES if p != "search"]), min_size=n, max_size=n))
    return make_config(n, opts), pols, draw(st.integers(0, 2**32 - 1))


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(tables())
def test_engines_agree_hypothesis(table):
    cfg, pols, seed = table
    a, b = _both(cfg, 25, seed, pols)
    _same(a, b)
    assert (a[0]["net"].sum(axis=1) == 0).all()      # money is conserved on every hand
    _replay_scores(cfg, *a)                           # every win re-scored by kaptai.nineten.score


def _replay_scores(cfg, out, log):
    """Rebuild every recorded winning hand's record from the log and score it with kaptai.nineten.score."""
    n = cfg.players
    for i in np.unique(log[:, 0]):
        rows = log[log[:, 0] == i]
        held = np.zeros((n, 28), dtype=int)
        kz = {s: [] for s in range(n)}
        bonus = []
        last_claim = None
        for _, step, seat, action, card, value in rows:
            if action == A["deal"]:
                if step == 0 or rows[step - 1][3] == A["redeal"]:
                    held[:] = 0
                held[seat, card] += value
            elif action == A["claim"]:
                held[seat, card] += 1
                if held[seat, card] == 4:
                    kz[seat].append(card)
                last_claim = (seat, card, held[seat, card])
            elif action == A["discard"]:
                assert held[seat, card] % 2 == 1, "a pair was broken"
                held[seat, card] -= 1
            elif action == A["bonus"]:
                bonus.append(card)
        w = int(out["winner"][i])
        if w < 0:
            assert out["tou"][i] == 0 and not out["net"][i].any()
            continue
        wt = WIN_NAMES[int(out["win_type"][i])]
        text = format_hand(held[w]) + f" | win={wt}"
        kzs = list(kz[w])
        wait = wt != "natural" and last_claim[0] == w and last_claim[2] == 4
        if wait:
            kzs.remove(last_claim[1])
            text += " | kzwait=" + format_card(last_claim[1])
        if cfg.rules.dealt_four_is_kaizhao:
            kzs += [k for k in range(28) if held[w, k] == 4 and k not in kz[w]]
        if kzs:
            text += " | kz=" + " ".join(format_card(k) for k in kzs)
        if bonus:
            text += " | bonus=" + " ".join(format_card(k) for k in bonus)
        s = score(text, cfg.rules)
        assert s.total == out["tou"][i], text
        src = int(out["source"][i]) if out["source"][i] >= 0 else None
        assert np.allclose(np.array(s.net(n, w, src)) / cfg.rules.stake_per_tou, out["net"][i])


@pytest.mark.parametrize("opts", OPTION_SETS[:1] + OPTION_SETS[6:8])
def test_scores_rederived_from_log(opts):
    cfg = make_config(5, opts)
    out, log = run_hands(cfg, 400, np.random.PCG64(5), "colour_cut", record=400)
    _replay_scores(cfg, out, log)
    assert out["net"].sum() == 0 and (out["net"].sum(axis=1) == 0).all()


def test_natural_is_scored_and_redealt():
    # a dealer natural: the dealer's 10 cards five pairs
    def deck_with(dealer_kinds):
        used = {}
        ids = []
        for k in dealer_kinds:
            ids.append(4 * k + used.get(k, 0))
            used[k] = used.get(k, 0) + 1
        rest = [c for c in range(112) if c not in ids]
        return ids + rest
    nat = deck_with(parse_cards("RAx2 RRx2 YKx2 YAx2 WEx2"))
    plain = [int(x) for x in np.random.default_rng(1).permutation(112)]
    cfg = make_config(4)
    out, log = run_hands(cfg, 1, np.random.PCG64(0), "colour_cut", decks=[nat], record=1, engine="reference")
    assert out["win_type"][0] == 4 and out["winner"][0] == 0 and out["bonus_flip"][0] == 1
    _replay_scores(cfg, out, log)
    cfg2 = make_config(4, {"natural": "redeal"})
    for eng in ("reference", "compiled"):
        out2, log2 = run_hands(cfg2, 1, np.random.PCG64(0), "colour_cut", decks=[nat, plain], record=1, engine=eng)
        assert out2["redeals"][0] == 1 and out2["win_type"][0] != 4
        assert A["redeal"] in log2[:, 3]


def _deck(seats, stock_top):
    """Physical deck for given per-seat kind lists (dealer first) and stock top cards."""
    used = [0] * 28
    ids = []
    for kinds in list(seats) + [stock_top]:
        for k in kinds:
            ids.append(4 * k + used[k])
            used[k] += 1
    assert max(used) <= 4
    rest = [c for c in range(112) if c not in set(ids)]
    return ids + rest


class Scripted(Policy):
    def __init__(self, moves, fallback="colour_cut"):
        self.moves = list(moves)

    def discard(self, view):
        if view.forced:
            return view.options[0]
        return self.moves.pop(0) if self.moves else view.options[0]


def test_scenario_s1():
    dealer = parse_cards("RAx2 RR YKx2 YA YP GK WE WP")
    p2 = parse_cards("GK YK RK RE GA GE GR WK WA")
    p3 = parse_cards("GK WH RC GC GP WR WC YE YR")
    p4 = parse_cards("GK YK RH RP YH YC WA WE GH")
    deck = _deck([dealer, p2, p3, p4], parse_cards("WK"))
    cfg = make_config(4)
    pols = ["colour_cut", Scripted(["YK"]), Scripted(["WH"]), Scripted([])]
    out, log = run_hands(cfg, 1, np.random.PCG64(0), pols, decks=[deck], record=1)
    play = [tuple(r[2:]) for r in log if r[3] != A["deal"]]
    gk, yk, wh = parse_card("GK"), parse_card("YK"), parse_card("WH")
    assert play[:11] == [
        (0, A["discard"], gk, 0),          # the dealer cuts green: 青將
        (1, A["claim"], gk, 2),            # P2 claims
        (2, A["dead"], gk, 0),             # P3 and P4 lay dead 青將
        (3, A["dead"], gk, 0),
        (1, A["discard"], yk, 0),          # P2 discards 黃帥; the dealer's pair cannot claim
        (3, A["claim"], yk, 2),            # P4 claims ...
        (3, A["discard"], gk, 1),          # ... and must discard the dead 青將
        (2, A["claim"], gk, 2),            # P3 pairs its dead card
        (2, A["discard"], wh, 0),          # and discards 白馬
        (2, A["waste"], wh, 0),            # nobody holds it
        (3, A["flip"], parse_card("WK"), 112 - 37 - 1),   # P4 flips
    ]


def test_user_policy_breaking_a_pair_raises_and_leaves_state():
    cfg = make_config(4)
    deck = [int(x) for x in np.random.default_rng(1).permutation(112)]
    h = Hand(cfg, deck, 0)
    before = [row[:] for row in h.held]

    class Breaker(Policy):
        def discard(self, view):
            return int(np.nonzero(view.hand == 2)[0][0]) if (view.hand == 2).any() else int(np.nonzero(view.hand == 4)[0][0])

    opts, forced = h.options(0, 0)
    with pytest.raises(IllegalMoveError, match="breaks a pair"):
        _user_choice(Breaker(), h, 0, opts, forced)
    assert h.held == before
    with pytest.raises(IllegalMoveError, match="breaks a pair"):
        run_hands(cfg, 1, None, Breaker(), decks=[deck])


def test_user_policy_skipping_a_claim_raises():
    class Skipper(Policy):
        def discard(self, view):
            return view.options[0]

        def claim(self, view, card):
            return False

    with pytest.raises(IllegalMoveError, match="must claim"):
        run_hands(make_config(4), 20, np.random.PCG64(2), Skipper())


def test_user_policy_not_held_and_dead_first():
    cfg = make_config(4)
    h = Hand(cfg, [int(x) for x in np.random.default_rng(1).permutation(112)], 0)
    k_absent = next(k for k in range(28) if h.held[0][k] == 0)

    class Absent(Policy):
        def discard(self, view):
            return format_card(k_absent)

    opts, forced = h.options(0, 0)
    with pytest.raises(IllegalMoveError, match="not held"):
        _user_choice(Absent(), h, 0, opts, forced)
    single = opts[0]
    h.dead[0][single] = 1
    other = next(k for k in range(28) if h.held[0][k] % 2 == 1 and k != single)

    class Other(Policy):
        def discard(self, view):
            return other

    opts, forced = h.options(0, 0)
    assert forced and opts == [single]
    with pytest.raises(IllegalMoveError, match="dead card must be discarded first"):
        _user_choice(Other(), h, 0, opts, forced)


def test_user_policy_legal_matches_builtin():
    class First(Policy):
        def discard(self, view):
            return view.options[0]
    out, _ = run_hands(make_config(4), 50, np.random.PCG64(9), First())
    assert out["net"].sum() == 0


def test_engine_deals_match_exact_odds():
    cfg = make_config(4)
    hands = 60_000
    out, _ = run_hands(cfg, hands, np.random.PCG64(2024), "random")
    pd_ = out["pairs_dealt"]
    dealer = pd_[np.arange(hands), out["dealer"]]
    mask = np.ones_like(pd_, dtype=bool)
    mask[np.arange(hands), out["dealer"]] = False
    others = pd_[mask]
    for h, sample in ((10, dealer), (9, others)):
        d = hand_distribution(h)
        tot = math.comb(112, h)
        for p in range(4):
            exact = sum(w for (q, _, _), w in d.items() if q == p) / tot
            phat = float((sample == p).mean())
            se = math.sqrt(exact * (1 - exact) / len(sample))
            assert abs(phat - exact) < 5 * se + 1e-4, (h, p, phat, exact)


def test_bad_tables():
    from kaptai.errors import RulesError
    with pytest.raises(RulesError):
        make_config(8)
    with pytest.raises(RulesError, match="unknown policy"):
        run_hands(make_config(4), 1, np.random.PCG64(0), "greedy")
