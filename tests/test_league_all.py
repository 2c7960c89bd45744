"""``kaptai league <game>`` for Big Two, nine-ten, Nantong and Heaven Eleven (:mod:`kaptai.core.league`).

Every league here goes through :func:`kaptai.cli.main` with ``--format json``, as a user's
command line would.  Sizes are small (the whole module is a few seconds of CPU); every
assertion about which policy is stronger holds with overwhelming probability at its size
(the margins are many standard errors, measured at 10x these sizes).
"""

from __future__ import annotations

import json
import math

import numpy as np
import pandas as pd
import pytest

from kaptai.cli import main
from kaptai.core.atlas import AtlasJob, moments_of_rows
from kaptai.core.league import LEAGUE_COLUMNS, LEAGUE_METRICS
from kaptai.core.runner import plan_chunks
from kaptai.games import game
from kaptai.spec import load_entry

#: game -> (default policy, hands, the policies of the small leagues, zero-sum under the default rules)
GAMES = {
    "big-two": ("greedy", 800, ("greedy", "random", "heuristic"), True),
    "nine-ten": ("colour_cut", 8000, ("colour_cut", "random"), True),
    "nantong": ("max_melds", 600, ("max_melds", "random", "chase_qing"), False),  # rank_only: 1 point a hand
    "heaven-eleven": ("greedy", 400, ("greedy", "random"), True),
}


def league(capsys, name: str, *extra: str) -> pd.DataFrame:
    code = main(["league", name, "--format", "json", "--no-progress", *extra])
    out, err = capsys.readouterr()
    assert code == 0, err
    return pd.DataFrame(json.loads(out))


def value(df: pd.DataFrame, policy: str, metric: str, players: int | None = None) -> pd.Series:
    sel = df[(df.policy == policy) & (df.metric == metric)]
    if players is not None:
        sel = sel[sel.players == players]
    assert len(sel) == 1, (policy, metric)
    return sel.iloc[0]


def expected_metrics(policy: str, shown: tuple[str, ...]) -> list[str]:
    out = ["win", "win_share", "ev_per_hand"]
    if policy != "random":
        out.append("value_of_play")
    if len(shown) > 1:
        out.append("vs_best_other")
    return out


@pytest.fixture(scope="module")
def tables():
    """One small league per game (seed 1), shared by the tests below, and the same with 2 workers."""
    mp = pytest.MonkeyPatch()
    out = {}
    import io
    import sys

    for name, (_, hands, pols, _) in GAMES.items():
        for workers in ("1", "2"):
            buf = io.StringIO()
            mp.setattr(sys, "stdout", buf)
            code = main(["league", name, "--format", "json", "--no-progress", "--hands", str(hands), "--seed", "1",
                         "--policies", ",".join(pols), "--workers", workers])
            mp.undo()
            assert code == 0
            out[name, workers] = buf.getvalue()
    return out


@pytest.mark.parametrize("name", list(GAMES))
def test_table_shape(name, tables):
    base, hands, pols, _ = GAMES[name]
    df = pd.DataFrame(json.loads(tables[name, "1"]))
    assert list(df.columns) == LEAGUE_COLUMNS
    assert set(df.metric) <= set(LEAGUE_METRICS)
    P = game(name).default_players
    assert list(dict.fromkeys(df.policy)) == list(pols)  # one row set per policy, in the order asked
    for pol in pols:
        rows = df[df.policy == pol]
        assert rows.metric.tolist() == expected_metrics(pol, pols)
        assert (rows.hands == -(-hands // P) * P).all()
    assert (df.opponents == base).all() and (df.game == name).all() and (df.players == P).all()
    assert (df.method == "monte_carlo").all()
    assert set(df[df.metric == "win"].unit) == {"probability"}


@pytest.mark.parametrize("name", list(GAMES))
def test_intervals_contain_the_values(name, tables):
    df = pd.DataFrame(json.loads(tables[name, "1"]))
    assert df[["value", "ci_low", "ci_high"]].notna().all().all()
    assert (df.ci_low <= df.value + 1e-12).all() and (df.value <= df.ci_high + 1e-12).all()
    win = df[df.metric == "win"]
    assert ((win.ci_low >= 0) & (win.ci_high <= 1)).all()
    share = df[df.metric == "win_share"]
    assert np.allclose(share.value.to_numpy(), win.value.to_numpy() * df.players.iloc[0])


@pytest.mark.parametrize("name", list(GAMES))
def test_same_table_for_one_and_two_workers(name, tables):
    assert tables[name, "1"] == tables[name, "2"]


@pytest.mark.parametrize("name", list(GAMES))
def test_random_is_below_the_default_and_differences_add_up(name, tables):
    base, _, pols, _ = GAMES[name]
    df = pd.DataFrame(json.loads(tables[name, "1"]))
    rnd, dft = value(df, "random", "ev_per_hand"), value(df, base, "ev_per_hand")
    assert rnd.ci_high < dft.value  # many standard errors at these sizes
    vop = value(df, base, "value_of_play")
    assert vop.ci_low > 0 and math.isclose(vop.value, dft.value - rnd.value, abs_tol=1e-12)
    for pol in pols:  # the difference from the best other policy is to the best of the others
        others = [value(df, o, "ev_per_hand").value for o in pols if o != pol]
        d = value(df, pol, "vs_best_other")
        assert math.isclose(d.value, value(df, pol, "ev_per_hand").value - max(others), abs_tol=1e-12)


@pytest.mark.parametrize("name", list(GAMES))
def test_the_default_against_itself(name, tables):
    """Zero-sum games: the field's EV against itself is 0 by construction (an interval of
    width 0); Nantong's rank_only awards one point a hand, so its field gets 1/players."""
    base, _, _, zero_sum = GAMES[name]
    df = pd.DataFrame(json.loads(tables[name, "1"]))
    P = game(name).default_players
    ev = value(df, base, "ev_per_hand")
    target = 0.0 if zero_sum else 1.0 / P
    assert math.isclose(ev.value, target, abs_tol=1e-12)
    assert math.isclose(ev.ci_low, target, abs_tol=1e-12) and math.isclose(ev.ci_high, target, abs_tol=1e-12)
    win = value(df, base, "win")
    if name in ("big-two", "nantong"):  # every hand has exactly one (shared) winner
        assert math.isclose(win.value, 1.0 / P, abs_tol=1e-12)
        assert math.isclose(win.ci_low, 1.0 / P, abs_tol=1e-12) and math.isclose(win.ci_high, 1.0 / P, abs_tol=1e-12)
    else:
        assert win.ci_low <= win.value <= win.ci_high


@pytest.mark.parametrize("seed", [2, 3])
def test_zero_sum_money_settlement_field_is_zero(seed, capsys):
    """Under a Nantong money settlement (winner collects), the field against itself is 0 exactly."""
    df = league(capsys, "nantong", "--hands", "90", "--seed", str(seed), "--policies", "max_melds,random",
                "-o", "settlement=winner_collects")
    ev = value(df, "max_melds", "ev_per_hand")
    assert ev.value == ev.ci_low == ev.ci_high == 0.0
    assert "settlement=winner_collects" in df.rules.iloc[0]


def test_every_policy_by_default_and_several_player_counts(capsys):
    """No --policies: every built-in policy; --players 3,4 gives one row set per count (Nantong
    at 4 players rotates the focal seat over the sitter's seat too)."""
    df = league(capsys, "nantong", "--hands", "30", "--seed", "4", "--players", "3,4")
    assert set(df.policy) == set(game("nantong").policies)
    assert sorted(set(df.players)) == [3, 4]
    for P in (3, 4):
        assert math.isclose(value(df, "max_melds", "ev_per_hand", P).value, 1.0 / P, abs_tol=1e-12)  # 1 point a hand
    he = league(capsys, "heaven-eleven", "--hands", "20", "--seed", "4")
    assert list(dict.fromkeys(he.policy)) == list(game("heaven-eleven").policies)


def test_bad_league_options_are_clean_errors(capsys):
    for argv, message in [
        (["league", "big-two", "--policies", "lookahead"], "unknown policy 'lookahead'"),
        (["league", "nine-ten", "--policies", "random,random"], "given twice"),
        (["league", "big-two", "-o", "players=3", "--hands", "8"], "--players"),
        (["league", "nine-ten", "--players", "2", "--hands", "8"], "allow_small_table"),
        (["league", "heaven-eleven", "--players", "4"], "--players does not apply"),
    ]:
        assert main(argv) == 2, argv
        err = capsys.readouterr().err
        assert err.startswith("kaptai: error: ") and message in err, (argv, err)


@pytest.mark.parametrize("name", list(GAMES))
def test_feed_rows_win_and_moments(name):
    """The feeds' per-hand rows: ``play`` is their moments (the atlas is unchanged), and the win
    shares of a hand add up to at most 1 (exactly 1 where every hand has a winner)."""
    spec = game(name)
    feed = load_entry(spec.atlas)
    v = feed.variants[0]
    pols = (feed.random_policy,) + (feed.default_policy,) * (v.players - 1)
    job, chunk = AtlasJob(name, v, pols), plan_chunks(120, 120, 9)[0]
    rows = feed.rows(job, chunk)
    m = feed.play(job, chunk)
    mr = moments_of_rows(rows)
    assert all(np.array_equal(m[k], mr[k]) for k in m)
    win = rows["win"]
    assert win.shape == rows["net"].shape and ((win >= 0) & (win <= 1)).all()
    if name != "heaven-eleven":  # Heaven Eleven: every defender of a set contract wins
        total = win.sum(axis=1)
        assert np.allclose(total, 1.0 - rows["drawn"]) if name == "nine-ten" else np.allclose(total, 1.0)


@pytest.mark.parametrize("name", [*GAMES, "kap-tai-shap"])
def test_cross_and_diff_from_the_command_line(name, capsys, tmp_path):
    """``--cross`` (with its heat map) and ``--diff``: the tables every game's league command gives."""
    import matplotlib

    matplotlib.use("Agg")
    pols = GAMES[name][2][:2] if name in GAMES else ("greedy", "random")
    extra = ["--players", "4", "--rules-list", "traditional"] if name == "kap-tai-shap" else []
    plot = tmp_path / "cross.png"
    cross = league(capsys, name, "--hands", "24", "--seed", "2", "--policies", ",".join(pols), "--cross",
                   "--plot", str(plot), *extra)
    assert plot.stat().st_size > 0
    assert {"policy", "field", "seats", "ev_per_hand", "diff_vs_field", "diff_ci_low", "diff_ci_high",
            "hands"} <= set(cross.columns)
    P = int(cross.players.iloc[0])
    assert len(cross) == 2 * (2 if P == 4 else 1)
    assert (cross.policy != cross.field).all()
    diff = league(capsys, name, "--hands", "24", "--seed", "2", "--policies", ",".join(pols), "--diff", *extra)
    assert {"policy", "other", "value", "ci_low", "ci_high", "variance_ratio"} <= set(diff.columns)
    assert len(diff) == 2
    a, b = diff.iloc[0], diff.iloc[1]
    assert math.isclose(a.value, -b.value, abs_tol=1e-12)


@pytest.mark.parametrize("name", [*GAMES, "kap-tai-shap"])
def test_cross_challenger_rows_and_strong_hands(name, capsys):
    """``--challenger search --challenger-seats 1``: one search against a field of each other policy
    and nothing else; ``--strong-hands`` sets the search's hands (the feed caps it otherwise)."""
    pols = ((*GAMES[name][2][:1], "search") if name in GAMES else ("greedy", "search"))
    extra = ["--players", "4", "--rules-list", "traditional"] if name == "kap-tai-shap" else []
    t = league(capsys, name, "--hands", "16", "--seed", "2", "--policies", ",".join(pols), "--cross",
               "--challenger", "search", "--challenger-seats", "1", "--strong-hands", "8", *extra)
    assert t[["policy", "field", "seats"]].values.tolist() == [["search", pols[0], 1]]
    P = int(t.players.iloc[0])
    assert int(t.hands.iloc[0]) == P * -(-8 // P)  # the deals the cap allows, each at every seat
    assert main(["league", name, "--hands", "8", "--challenger", "search", *extra]) == 2
    assert "give it with --cross" in capsys.readouterr().err


def test_win_share_of_the_field_is_within_its_range():
    """Kap Tai Shap has drawn hands (no winner): the field's win share against itself is below 1,
    and its interval never above 1 (a seat average of one winner a hand is at most 1/players; it
    read above 1 when the interval was clipped to 1 instead)."""
    from kaptai.kts.league import policy_league

    df = policy_league(players=4, rules="traditional", hands=2000, seed=7, policies=("greedy",), progress=False)
    share = value(df, "greedy", "win_share")
    assert share.value < 1.0 and share.ci_low < share.value
    assert share.ci_high <= 1.0 + 1e-12


def test_vs_best_other_of_a_capped_table_compares_on_the_same_deals(capsys):
    """With the search capped (--strong-hands), the best other of each policy is the best on the
    deals that policy played: a policy clearly below another is not shown ahead of "the best
    other" (it once was: the best was picked on means over different deals)."""
    df = league(capsys, "nine-ten", "--hands", "200", "--strong-hands", "40", "--seed", "5")
    ev = df[df.metric == "ev_per_hand"].set_index("policy").value
    vbo = df[df.metric == "vs_best_other"].set_index("policy").value
    assert ev["live_first"] < ev["colour_cut"] and ev["random"] < ev["colour_cut"]
    assert vbo["live_first"] < 0 and vbo["random"] < 0
    # uncapped policies: the best other is the best on every deal, and the difference is that pair's
    d = league(capsys, "nine-ten", "--hands", "200", "--strong-hands", "40", "--seed", "5", "--diff")
    row = d[(d.policy == "live_first") & (d.other == "colour_cut")]
    assert float(row.value.iloc[0]) == pytest.approx(vbo["live_first"])
