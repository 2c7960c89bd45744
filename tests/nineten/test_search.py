"""The ``search`` policy of nine-ten (docs/nine-ten-engine.md, "search") and its advisor.

* the compiled search and the pure-Python one make the same choices from the same stream:
  whole logs and outcomes, over hundreds of search decisions, several tables and options;
* every sampled layout is consistent with what the seat has seen (card counts, hand sizes,
  even counts of every offered kind in the other hands) and the safety net is never used;
* the advisor validates its position, is reproducible and equals the reference engine.
"""
import numpy as np
import pytest

from kaptai.core.sampling import RandomStream
from kaptai.errors import InvalidHandError, KaptaiError, RulesError
from kaptai.nineten import engine_reference as er
from kaptai.nineten.advisor import advise
from kaptai.nineten.cards import InvalidCardError
from kaptai.nineten.config import POLICY_CODES, POLICY_NAMES, make_config
from kaptai.nineten.engine import run_hands

pytest.importorskip("kaptai.nineten._engine")


@pytest.fixture
def count_decisions(monkeypatch):
    """Counts the reference engine's search decisions (two or more options)."""
    calls = []
    real = er._search_choice

    def spy(h, p, options, rng):
        calls.append(len(options))
        return real(h, p, options, rng)

    monkeypatch.setattr(er, "_search_choice", spy)
    return calls


def _same(cfg, hands, seed, policies, relative=False):
    o1, l1 = run_hands(cfg, hands, np.random.PCG64(seed), policies, record=hands, engine="compiled",
                       relative=relative)
    o2, l2 = run_hands(cfg, hands, np.random.PCG64(seed), policies, record=hands, engine="reference",
                       relative=relative)
    np.testing.assert_array_equal(l1, l2)
    for k in o1:
        np.testing.assert_array_equal(o1[k], o2[k], err_msg=k)
    return o1, l1


def test_search_code_is_appended():
    assert POLICY_NAMES[:3] == ("random", "colour_cut", "live_first")
    assert POLICY_CODES["search"] == 3


def test_compiled_equals_reference_over_200_decisions(count_decisions):
    before = er.RELAXED[0]
    inferred = er.INFER_STATS[0]
    _same(make_config(4, samples=3), 24, 2026, "search")
    _same(make_config(5, samples=2, search_z=0.0), 6, 7, ["search", "colour_cut", "random", "search", "live_first"])
    assert len(count_decisions) >= 200, len(count_decisions)
    assert min(count_decisions) >= 2
    assert er.RELAXED[0] == before  # every layout met the parities
    assert er.INFER_STATS[0] - inferred >= 150  # most decisions resampled by the inference


def test_second_stage_is_played_and_equal(monkeypatch):
    """The second stage (SEARCH_MORE x samples fresh layouts for the options ahead of colour_cut's
    choice) runs at some decisions, never at others, and both engines agree move for move."""
    from kaptai.nineten.config import SEARCH_MORE

    sizes = []
    real = er._search

    def spy(h, p, options, samples, rng, offer_from=-1):
        sizes.append((samples, len(options)))
        return real(h, p, options, samples, rng, offer_from)

    monkeypatch.setattr(er, "_search", spy)
    _same(make_config(4, samples=4), 6, 31, ["search", "colour_cut", "search", "colour_cut"])
    first = sum(1 for s, _ in sizes if s == 4)
    second = [n for s, n in sizes if s == 4 * SEARCH_MORE]
    assert first >= 20 and 3 <= len(second) < first, (first, len(second))
    assert min(second) >= 2  # colour_cut's choice and at least one option ahead of it


def test_search_without_inference_still_equal():
    _same(make_config(4, samples=3, search_infer=0), 6, 3, ["search", "colour_cut", "live_first", "search"])


def test_search_with_mixed_rollout_styles_equal():
    _same(make_config(4, samples=3, search_mix=1), 6, 5, "search")
    _same(make_config(5, samples=2, search_mix=1, search_infer=2), 3, 9,
          ["search", "colour_cut", "random", "search", "live_first"])


def test_search_values_with_the_record_compiled_equals_reference():
    from kaptai.nineten import _engine

    cfg = make_config(4, search_infer=2)
    done = 0
    for h, p, opts in _states(4, 12):
        if not er._informed(h, p):
            continue
        st = er.hand_state(h, p)
        a = _engine.search_values(cfg, st, p, opts, 4, np.random.PCG64(8))
        b = er.search_values(cfg, st, p, opts, 4, np.random.PCG64(8))
        np.testing.assert_array_equal(a[0], b[0])
        np.testing.assert_array_equal(a[1], b[1])
        done += 1
        if done == 4:
            break
    assert done == 4


@pytest.mark.parametrize("options", [
    {"flip_priority": "next_player_first", "dead_card_order": "policy"},
    {"dealt_four_is_kaizhao": True, "four_colour_kaizhao_counts": True, "discard_payer_covers_all": True},
    {"dead_cards_claimable": False, "flip_win_payer": "flipper", "four_colour_flip_win": "bonus_flip"},
])
def test_compiled_equals_reference_under_options(options, count_decisions):
    _same(make_config(4, options, samples=2, search_z=0.5), 5, 11, ["search", "colour_cut", "search", "colour_cut"])
    assert len(count_decisions) >= 10


@pytest.mark.parametrize("players, options", [(3, {"allow_small_table": True}), (9, {"large_table": "ten_nine"})])
def test_compiled_equals_reference_small_and_large_tables(players, options):
    pols = ["search"] + ["colour_cut"] * (players - 1)
    _same(make_config(players, options, samples=2), 3, 5, pols)


def test_relative_policies_follow_the_dealer():
    cfg = make_config(4, samples=2)
    out, _ = _same(cfg, 8, 3, ["colour_cut", "random", "colour_cut", "colour_cut"], relative=True)
    assert list(out["dealer"]) == [i % 4 for i in range(8)]


def _states(hands=6, seed=4):
    """Decision points of a colour_cut table (the state a search seat would see)."""
    caps = []

    def spy(h, p, options, rng):
        caps.append((h.clone(), p, list(options)))
        return er._builtin_choice(1, h, p, options, rng)

    real = er._search_choice
    er._search_choice = spy
    try:
        er.run_hands(make_config(4), ["search"] * 4, np.random.PCG64(seed), hands)
    finally:
        er._search_choice = real
    return caps


def test_layouts_are_consistent():
    rs = RandomStream(np.random.PCG64(0))
    caps = _states()
    assert len(caps) >= 20
    before = er.RELAXED[0]
    for h, p, _ in caps:
        gs, seed = er._layout(h, p, rs)
        assert 0 <= seed < 2**64
        for k in range(28):
            in_hands = sum(gs.held[t][k] for t in range(h.N))
            in_stock = sum(1 for c in gs.deck[h.top:] if c // 4 == k)
            assert in_hands + in_stock + h.waste[k] == 4
        for t in range(h.N):
            assert sum(gs.held[t]) == sum(h.held[t])
            assert gs.exposed[t] == h.exposed[t]
            if t == p:
                assert gs.held[t] == h.held[t]
                continue
            for k in range(28):
                assert gs.held[t][k] >= h.exposed[t][k]
                if h.offered >> k & 1:
                    assert (gs.held[t][k] - h.exposed[t][k]) % 2 == 0
                    assert h.held[t][k] % 2 == 0 or h.dead[t][k]  # the rule the parities rest on
    assert er.RELAXED[0] == before


def test_layout_of_a_single_hand_is_uniform():
    """Nothing offered: a seat's hidden cards are a uniform sample of the pool (hypergeometric
    mean of the copies of one kind), checked on 800 layouts."""
    cfg = make_config(4)
    h = er.Hand(cfg, list(range(112)), 0)
    rs = RandomStream(np.random.PCG64(1))
    k = 27  # the dealer holds none of it (deck order): 4 unseen copies among 102 unseen cards
    assert h.held[0][k] == 0
    got = [er._layout(h, 0, rs)[0].held[1][k] for _ in range(800)]
    mean, se = np.mean(got), np.std(got) / np.sqrt(800)
    assert abs(mean - 4 * 9 / 102) < 4 * se


def test_search_values_compiled_equals_reference():
    from kaptai.nineten import _engine

    cfg = make_config(4)
    for h, p, opts in _states(3, 9)[:6]:
        st = {"held": h.held, "exposed": h.exposed, "dead": h.dead, "dead_seq": h.dead_seq,
              "kz4": [1 if k in h.kz[p] else 0 for k in range(28)], "waste": h.waste,
              "offered": [k for k in range(28) if h.offered >> k & 1], "top": h.top, "dealer": h.dealer,
              "counter": h.counter}
        a = _engine.search_values(cfg, st, p, opts, 5, np.random.PCG64(3))
        b = er.search_values(cfg, st, p, opts, 5, np.random.PCG64(3))
        np.testing.assert_array_equal(a[0], b[0])
        np.testing.assert_array_equal(a[1], b[1])
        assert a[2] == b[2] == 0


def test_make_config_checks_the_budget():
    assert make_config(4, samples=7).samples == 7
    for bad in (0, -1, 2.5, True, 100_001):
        with pytest.raises(RulesError, match="samples"):
            make_config(4, samples=bad)
    assert make_config(4, search_infer=0).search_infer == 0
    for bad in (-1, 65, 1.5, True):
        with pytest.raises(RulesError, match="search_infer"):
            make_config(4, search_infer=bad)
    for bad in (-1, 2, True, "1"):
        with pytest.raises(RulesError, match="search_mix"):
            make_config(4, search_mix=bad)
    with pytest.raises(RulesError, match="search_z"):
        make_config(4, search_z=-1)


# --------------------------------------------------------------------------------------
# advisor
# --------------------------------------------------------------------------------------
HAND = "RKx2 RA YAx2 GE WC WP GK GA"


def test_advise_ranks_every_discard_reproducibly():
    a = advise(HAND, seen="RE YE", samples=150, seed=3)
    b = advise(HAND, seen="RE YE", samples=150, seed=3)
    pd_equal = a.equals(b)
    assert pd_equal
    assert sorted(a.discard) == sorted(["RA", "GE", "WC", "WP", "GK", "GA"])
    assert (a.ev.diff().dropna() <= 0).all() and a["rank"].iloc[0] == 1
    assert ((a.ev_low <= a.ev) & (a.ev <= a.ev_high)).all()
    assert ((a.p_win_low <= a.p_win) & (a.p_win <= a.p_win_high)).all()
    assert not a.equals(advise(HAND, seen="RE YE", samples=150, seed=4))


def test_advise_compiled_equals_reference():
    a = advise(HAND, seen="RE YE GK", samples=4, seed=1)
    b = advise(HAND, seen="RE YE GK", samples=4, seed=1, engine="reference")
    assert a.equals(b)
    c = advise("RKx2 RA YAx2 GE WC WP GK", offered="WE", samples=4, seed=2)
    d = advise("RKx2 RA YAx2 GE WC WP GK", offered="WE", samples=4, seed=2, engine="reference")
    assert c.equals(d) and list(c.action) == ["pass"] and c.attrs["claim"].startswith("not possible")


def test_advise_claims_when_it_must():
    df = advise("RKx2 RA YAx2 GE WC WP GK", offered="RA", samples=50)
    assert set(df.action) == {"claim+discard"} and "RA" not in set(df.discard)
    assert df.attrs["claim"] == "forced"
    win = advise("RKx2 RAx2 YAx2 YEx2 RC", offered="RC")  # the claim completes five pairs: k = 2 -> 3 頭
    assert list(win.action) == ["claim"] and win.ev.iloc[0] == 3.0 and win.p_win.iloc[0] == 1.0
    four = advise("RKx2 RAx2 YAx2 GEx2 WC", offered="WC")  # four colours on a discard: 0
    assert four.ev.iloc[0] == 0.0


@pytest.mark.parametrize("kwargs, error, match", [
    ({"hand": "RKx2 RA YAx2 GE WC WP GK GX"}, InvalidCardError, "unknown card token 'GX'"),
    ({"hand": HAND, "seen": "RKx3"}, InvalidHandError, "'RK'.*appears 5 times"),
    ({"hand": "RKx2 RA YAx2 GE WC WP GK"}, InvalidHandError, "9 cards: give the card just offered"),
    ({"hand": HAND, "offered": "RA"}, InvalidHandError, "hand has 10 cards, expected 9"),
    ({"hand": "RKx2 RA YAx2 GE WC WP GK", "offered": "RA GA"}, InvalidHandError, "one card"),
    ({"hand": HAND, "players": 8}, RulesError, "players=8"),
    ({"hand": HAND, "samples": 0}, RulesError, "samples"),
    ({"hand": HAND, "seen": " ".join(f"{c}{r}x4" for c in "YGW" for r in "KAERHCP")}, KaptaiError, "appears|stock"),
])
def test_advise_rejects_bad_positions(kwargs, error, match):
    with pytest.raises(error, match=match):
        advise(**kwargs)


def test_advise_rejects_a_stock_under_the_reserve():
    from kaptai.nineten.cards import format_card, parse_hand

    left = 4 - parse_hand(HAND)
    pool = [format_card(k) for k in range(28) for _ in range(int(left[k]))]
    keep = 27 + 9  # three hidden hands and the reserve
    assert advise(HAND, seen=" ".join(pool[keep:]), samples=5).attrs["stock"] == 9
    with pytest.raises(RulesError, match="leave 8 in the stock with 4 players, fewer than the reserve of 9"):
        advise(HAND, seen=" ".join(pool[keep - 1:]))


@pytest.mark.parametrize("cfg_kw,hands,seed,policies", [
    ({"samples": 3}, 12, 2027, "search"),
    ({"samples": 3, "search_infer": 0}, 10, 3, ["search", "colour_cut", "live_first", "search"]),
    ({"samples": 2, "search_mix": 1, "search_z": 0.0}, 8, 9, ["search", "colour_cut", "random", "search", "live_first"]),
    ({"samples": 3, "search_salt": 5}, 8, 11, "search"),
])
def test_compiled_rollouts_in_the_reference_engine_make_the_same_game(count_decisions, cfg_kw, hands, seed,
                                                                        policies):
    """``engine_reference.compiled_rollouts()`` (what ``kaptai play`` turns on: a person's table
    runs the reference engine) hands a search seat's two stages to the compiled twin
    (``_engine.search_pick``) from the decision's own seed: the same discards, so the same hands
    as the compiled engine and as the pure-Python reference, move for move."""
    players = 5 if isinstance(policies, list) and len(policies) == 5 else 4
    cfg = make_config(players, **cfg_kw)
    o1, l1 = run_hands(cfg, hands, np.random.PCG64(seed), policies, record=hands, engine="compiled")
    with er.compiled_rollouts():
        o2, l2 = run_hands(cfg, hands, np.random.PCG64(seed), policies, record=hands, engine="reference")
    assert not er.compiled_rollouts
    np.testing.assert_array_equal(l1, l2)
    for k in o1:
        np.testing.assert_array_equal(o1[k], o2[k], err_msg=k)
    assert len(count_decisions) >= 20, len(count_decisions)
