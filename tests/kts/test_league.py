"""Policy league: EV from outcome frequencies, the league table, the advisor policy, the
plot and bad input."""

from __future__ import annotations

import math

import matplotlib

matplotlib.use("Agg")

import numpy as np  # noqa: E402
import pandas as pd  # noqa: E402
import pytest  # noqa: E402
from matplotlib.figure import Figure  # noqa: E402

from kaptai.errors import RulesError  # noqa: E402
from kaptai.kts.advisor import advise  # noqa: E402
from kaptai.kts.league import (  # noqa: E402
    LEAGUE_COLUMNS,
    LEAGUE_METRICS,
    AdvisorPolicy,
    expected_value,
    plot_league,
    policy_league,
    seat_ev,
)
from kaptai.kts.policies import Policy, PlayerView  # noqa: E402
from kaptai.kts.rules import resolve_rules  # noqa: E402
from kaptai.kts.simulate import simulate, simulate_log  # noqa: E402
from kaptai.kts.tiles import format_tile, parse_hand, tile_counts  # noqa: E402

WINS = ("natural", "claim_win", "self_drawn_win")


def small_league(**kw):
    args = dict(players=(3, 4), rules=("traditional", "advanced"), hands=300, seed=5,
                policies=("random", "greedy", "score"), progress=False)
    args.update(kw)
    return policy_league(**args)


def net_from_log(log: pd.DataFrame, players: int, rules) -> np.ndarray:
    """Realised net payoff of every dealer seat in every hand, straight from the hand log."""
    r = resolve_rules(rules)
    ends = log.groupby("hand").tail(1)
    nets = []
    for _, e in ends.iterrows():
        net = np.zeros(players)
        if e.action in WINS:
            if r.settlement == "pot":
                net -= 1.0
                net[e.seat] += players * (1 - r.house_cut)
            else:
                net -= e.value
                net[e.seat] = (players - 1) * e.value * (1 - r.house_cut)
        else:
            assert e.action == "drawn_hand"
        nets.append(net)
    return np.array(nets)


# --------------------------------------------------------------------------------------
# EV from outcome frequencies
# --------------------------------------------------------------------------------------


def test_expected_value_hand_computed():
    w, d = [0.3, 0.2, 0.25, 0.15], 0.1
    # pot: w * 4 * 0.95 - 0.9
    assert expected_value(w, d, "traditional") == pytest.approx([0.24, -0.14, 0.05, -0.33])
    # carry: w * 4 * 0.95 / 0.9 - 1
    carry = resolve_rules("traditional", drawn_hand="carry")
    assert expected_value(w, d, carry) == pytest.approx([x * 3.8 / 0.9 - 1 for x in w])
    # advanced: E[score; j wins] = (0.9, 0.8, 0.5, 0.75), total 2.95
    adv = expected_value(w, d, "advanced", score_mean=[3, 4, 2, 5])
    assert adv == pytest.approx([3 * 0.9 - 2.05, 3 * 0.8 - 2.15, 3 * 0.5 - 2.45, 3 * 0.75 - 2.2])
    assert adv.sum() == pytest.approx(0.0, abs=1e-12)
    cut = expected_value(w, d, resolve_rules("advanced", house_cut=0.1), score_mean=[3, 4, 2, 5])
    assert cut.sum() == pytest.approx(-0.1 * 3 * 2.95)  # the house takes 10% of the gross
    with pytest.raises(RulesError, match="score_mean"):
        expected_value(w, d, "advanced")


@pytest.mark.parametrize("players, rules", [(4, "traditional"), (4, "advanced"), (3, "advanced")])
def test_seat_ev_is_the_mean_realised_net_of_the_logged_hands(players, rules):
    n = 300
    sim = simulate(players, rules, n, seed=4, policies="score", record=n, progress=False)
    nets = net_from_log(pd.DataFrame(sim.attrs["log"]), players, rules)
    assert len(nets) == n
    ev = seat_ev(sim)
    assert ev.value.to_numpy() == pytest.approx(nets.mean(axis=0), abs=1e-12)
    # delta method on a linear functional = normal interval of the mean net payoff
    assert ev.sd.to_numpy() == pytest.approx(nets.std(axis=0, ddof=0) / math.sqrt(n), rel=1e-9)
    assert ((ev.ci_low < ev.value) & (ev.value < ev.ci_high)).all()
    # the same figures through the closed formula, from the table's win and score_mean rows
    win = sim[(sim.metric == "win") & (sim.relative_to == "dealer")].sort_values("seat").value
    drawn = sim[sim.metric == "drawn_hand"].value.iloc[0]
    means = None
    if resolve_rules(rules).settlement == "advanced":
        means = sim[(sim.metric == "score_mean") & (sim.relative_to == "dealer")].sort_values("seat").value
        means = means.to_numpy()
    formula = expected_value(win.to_numpy(), drawn, rules, score_mean=means)
    assert ev.value.to_numpy() == pytest.approx(formula)


@pytest.mark.parametrize("cut, drawn_hand", [(0.05, "refund"), (0.2, "refund"), (0.1, "carry")])
def test_pot_evs_of_all_seats_sum_to_minus_the_house_take(cut, drawn_hand):
    rules = resolve_rules("traditional", house_cut=cut, drawn_hand=drawn_hand)
    for players, policy in ((3, "random"), (6, "random"), (4, "greedy")):
        sim = simulate(players, rules, 1500, seed=9, policies=policy, progress=False)
        drawn = sim[sim.metric == "drawn_hand"].value.iloc[0]
        assert 0 < drawn < 1
        take = cut * players * (1 - drawn) if drawn_hand == "refund" else cut * players
        assert seat_ev(sim).value.sum() == pytest.approx(-take, abs=1e-12)


def test_advanced_evs_sum_to_zero_without_a_cut():
    sim = simulate(5, "advanced", 1000, seed=2, policies="greedy", progress=False)
    assert seat_ev(sim).value.sum() == pytest.approx(0.0, abs=1e-12)


# --------------------------------------------------------------------------------------
# The league table
# --------------------------------------------------------------------------------------


def test_league_table_shape_columns_and_attrs():
    df = small_league()
    assert list(df.columns) == LEAGUE_COLUMNS
    # 2 rulesets x 2 player counts x (3 policies x 3 metrics + 2 value_of_play rows
    # + 3 vs_best_other rows)
    assert len(df) == 2 * 2 * (3 * 3 + 2 + 3)
    assert set(df.metric) == set(LEAGUE_METRICS)
    assert set(df[df.metric == "value_of_play"].policy) == {"greedy", "score"}
    assert (df.game == "kap-tai-shap").all() and (df.method == "monte_carlo").all()
    assert (df.opponents == "greedy").all()
    assert list(dict.fromkeys(df.rules)) == ["traditional", "advanced"]
    assert (df.hands % df.players == 0).all() and (df.hands >= 300).all()
    assert ((df.ci_low <= df.value + 1e-12) & (df.value <= df.ci_high + 1e-12)).all()
    win = df[df.metric == "win"].set_index(["rules", "players", "policy"]).value
    share = df[df.metric == "win_share"].set_index(["rules", "players", "policy"]).value
    assert (share == win * share.index.get_level_values("players")).all()
    # the baseline's table is symmetric: pot EV = -cut (1 - drawn), advanced EV = 0
    base = df[(df.policy == "greedy") & (df.metric == "ev_per_hand")].set_index("rules").value
    assert -0.05 - 1e-12 <= base["traditional"].min() and base["traditional"].max() < 0
    assert base["advanced"].to_numpy() == pytest.approx(0.0, abs=1e-12)
    vop = df[df.metric == "value_of_play"].set_index(["rules", "players", "policy"]).value
    ev = df[df.metric == "ev_per_hand"].set_index(["rules", "players", "policy"]).value
    for (r, p, pol), v in vop.items():
        assert v == pytest.approx(ev[(r, p, pol)] - ev[(r, p, "random")])
    vbo = df[df.metric == "vs_best_other"].set_index(["rules", "players", "policy"]).value
    assert len(vbo) == len(ev)
    for (r, p, pol), v in vbo.items():
        others = [ev[(r, p, o)] for o in ("random", "greedy", "score") if o != pol]
        assert v == pytest.approx(ev[(r, p, pol)] - max(others))
    a = df.attrs
    assert a["seed_entropy"] == 5 and a["settings"]["baseline"] == "greedy"
    assert [r["name"] for r in a["settings"]["rules"]] == ["traditional", "advanced"]
    # one run entry per ruleset, player count and policy: the deals behind it (duplicate deals)
    assert len(a["runs"]) == 2 * 2 * 3
    assert all(r["hands"] == r["deals"] * r["players"] for r in a["runs"])
    assert a["settings"]["design"] == "duplicate" and len(a["differences"]) == 2 * 2 * 3 * 2


def test_same_seed_same_table_and_rows_do_not_depend_on_the_others():
    a = small_league(players=(3,), hands=200)
    b = small_league(players=(3,), hands=200)
    pd.testing.assert_frame_equal(a, b)
    assert a.attrs == b.attrs
    c = small_league(players=(3,), hands=200, seed=6)
    assert not a.value.equals(c.value)
    # a policy's rows are the same whatever else is played alongside (but vs_best_other,
    # which compares with the others)
    d = small_league(players=(4, 3), hands=200, policies=("score",))
    assert "vs_best_other" not in set(d.metric)
    key = ["rules", "players", "policy", "metric"]
    left = a[(a.policy == "score") & (a.metric != "vs_best_other")].set_index(key).value
    right = d[(d.policy == "score") & (d.players == 3)].set_index(key).value
    pd.testing.assert_series_equal(left, right.loc[left.index])


def test_greedy_beats_random_at_four_players():
    df = policy_league(players=4, rules="traditional", hands=4000, seed=1,
                       policies=("random", "greedy"), progress=False)
    vop = df[(df.policy == "greedy") & (df.metric == "value_of_play")].iloc[0]
    assert vop.value > 0 and vop.ci_low > 0
    share = df[(df.policy == "random") & (df.metric == "win_share")].iloc[0]
    assert share.ci_high < 1  # random wins less than its fair share against greedy


def test_advisor_rows_are_flagged_by_their_hands():
    df = policy_league(players=3, rules="traditional", hands=90, seed=3, policies=("greedy",),
                       include_advisor=True, advisor_hands=5, progress=False)
    adv = df[df.policy == "advisor"]
    assert set(adv.metric) == set(LEAGUE_METRICS)
    # the advisor plays the first 2 deals at each seat; greedy's differences from it are paired over those
    assert (adv.hands == 6).all()
    greedy = df[df.policy == "greedy"].set_index("metric").hands
    assert (greedy.drop("vs_best_other") == 90).all() and greedy["vs_best_other"] == 6
    assert "random" not in set(df.policy)  # played as the reference, not shown
    runs = [r for r in df.attrs["runs"] if r["policy"] == "advisor"]
    assert [r["deals"] for r in runs] == [2]


# --------------------------------------------------------------------------------------
# The advisor policy
# --------------------------------------------------------------------------------------


def view_of(hand: str, table: str = "", rules="traditional", players=4) -> PlayerView:
    r = resolve_rules(rules)
    copies = (4,) * 11 + (2,) * 10 if players <= 4 else (6,) * 11 + (3,) * 10
    return PlayerView(seat=1, players=players, n=4, rules=r, copies=copies,
                    hand=tuple(int(x) for x in tile_counts(parse_hand(hand))),
                    table=tuple(int(x) for x in tile_counts(parse_hand(table) if table else [])),
                    wall_remaining=20, turn=3, first_hand=0, rng=None)


def test_advisor_choices_match_advise_on_constructed_positions():
    pol = AdvisorPolicy()
    # discard: advise ranks 5-6 first
    v = view_of("16 16 33 13 15 22 55 46 66 56", "45 45 36")
    legal = tuple(t for t in range(21) if v.hand[t])
    top = advise("16 16 33 13 15 22 55 46 66 56", seen="45 45 36").discard.iloc[0]
    assert format_tile(pol.discard(v, legal)) == top == "5-6"
    # ... unless that tile may not be thrown (just claimed): the next legal one
    rest = tuple(t for t in legal if format_tile(t) != "5-6")
    second = advise("16 16 33 13 15 22 55 46 66 56", seen="45 45 36").discard.iloc[1]
    assert format_tile(pol.discard(v, rest)) == second
    # claims: the offered tile lies on the table, advise sees it as offered, not seen
    four = parse_hand("44")[0]
    win = view_of("16 16 16 12 33 13 15 22 66", "44")
    assert pol.claim(win, (four,)) == four  # claim_win
    claim = view_of("16 16 33 13 15 22 66 56 24", "44")
    assert advise("16 16 33 13 15 22 66 56 24", offered="44").action.iloc[0] == "claim"
    assert pol.claim(claim, (four,)) == four
    one = parse_hand("11")[0]
    stay = view_of("16 16 33 13 15 22 66 56 24", "11")
    assert advise("16 16 33 13 15 22 66 56 24", offered="11").action.iloc[0] == "no_claim"
    assert pol.claim(stay, (one,)) is None
    # several candidates (claim='any'): the winning claim is preferred
    both = view_of("16 16 16 12 33 13 15 22 66", "44 11", rules=resolve_rules("traditional", claim="any"))
    assert pol.claim(both, tuple(sorted((four, one)))) == four


class Spy(Policy):
    """Record the advisor's discards with the view they were made from."""

    name = "spy"

    def __init__(self):
        self.inner = AdvisorPolicy()
        self.discards = []

    def claim(self, view, candidates):
        return self.inner.claim(view, candidates)

    def discard(self, view, legal):
        t = self.inner.discard(view, legal)
        self.discards.append((view, legal, t))
        return t


@pytest.mark.parametrize(
    "players, rules",
    [(4, "traditional"), (3, {"name": "any", "forms": "basic, run4", "claim": "any"}), (2, "advanced")],
)
def test_advisor_plays_legal_moves_in_the_reference_engine(players, rules):
    spy = Spy()
    pols = ["greedy"] * players
    pols[0] = spy
    # the reference engine raises ValueError on any illegal claim or discard
    log = simulate_log(players, rules, 3, seed=7, policies=pols)
    assert log.groupby("hand").action.last().isin(list(WINS) + ["drawn_hand"]).all()
    assert spy.discards
    for view, legal, t in spy.discards[:6]:
        assert t in legal
        hand = " ".join(format_tile(x) for x in range(21) for _ in range(view.hand[x]))
        seen = " ".join(format_tile(x) for x in range(21) for _ in range(view.table[x]))
        ranked = advise(hand, view.rules, seen=seen, players=players)
        first_legal = next(d for d in ranked.discard if parse_hand(d)[0] in legal)
        assert format_tile(t) == first_legal


def test_advisor_is_deterministic():
    a = simulate(3, "advanced", 4, seed=11, policies=[AdvisorPolicy(), "random", "greedy"], progress=False)
    b = simulate(3, "advanced", 4, seed=11, policies=[AdvisorPolicy(), "random", "greedy"], progress=False)
    pd.testing.assert_frame_equal(a, b)


# --------------------------------------------------------------------------------------
# Plot
# --------------------------------------------------------------------------------------


def test_plot_returns_a_labelled_figure():
    df = small_league(hands=120)
    fig = plot_league(df)
    assert isinstance(fig, Figure) and len(fig.axes) == 2
    assert [a.get_title() for a in fig.axes] == ["traditional rules", "advanced rules"]
    # the advanced panel is paid in points (deliberate change, issue 13 item 9: it said antes)
    assert [a.get_ylabel() for a in fig.axes] == ["EV per hand (antes)", "EV per hand (points)"]
    for a in fig.axes:
        assert a.get_xlabel() == "players"
        assert [t.get_text() for t in a.get_xticklabels()] == ["3", "4"]
    import matplotlib.pyplot as plt

    fig2, ax = plt.subplots()
    try:
        assert plot_league(df, "value_of_play", ax=ax) is fig2
        assert "value of play" in ax.get_ylabel()
        assert len(ax.get_legend().get_texts()) == 4  # (greedy, score) x 2 rulesets
    finally:
        plt.close(fig2)
    with pytest.raises(RulesError, match="unknown metric"):
        plot_league(df, "profit")


# --------------------------------------------------------------------------------------
# Bad input
# --------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "kwargs, match",
    [
        ({"policies": ("greedy", "smart")}, "unknown policy 'smart'"),
        ({"policies": (AdvisorPolicy(),)}, "unknown policy"),
        ({"policies": ()}, "policies is empty"),
        ({"baseline": "advisor"}, "unknown baseline policy"),
        ({"players": (4, 1)}, "players=1"),
        ({"players": 23}, "players=23"),
        ({"players": ()}, "players is empty"),
        ({"players": 2.5}, "players=2.5"),
        ({"rules": "fast"}, "unknown preset 'fast'"),
        ({"rules": ("advanced", {"name": "advanced", "house_cut": 0.1})}, "same name"),
        ({"hands": 0}, "hands=0"),
        ({"hands": 1.5}, "hands=1.5"),
        ({"advisor_hands": 0}, "advisor_hands=0"),
        ({"workers": 0}, "workers=0"),
        ({"seed": -1}, "seed=-1"),
    ],
)
def test_bad_input_raises_rules_error(kwargs, match):
    args = dict(players=(3,), rules="traditional", hands=10, progress=False)
    args.update(kwargs)
    with pytest.raises(RulesError, match=match):
        policy_league(**args)


def test_bad_advisor_draws():
    with pytest.raises(RulesError, match="draws=0"):
        AdvisorPolicy(draws=0)


def test_the_same_ruleset_twice_is_refused():
    with pytest.raises(RulesError, match="same name"):
        policy_league(players=4, rules=("traditional", "traditional"), hands=8, progress=False)
