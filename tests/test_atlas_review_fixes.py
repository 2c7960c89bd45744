"""Defects of ``kaptai atlas`` and its designer report found by an outside review (small sizes)."""

import json
import math

import numpy as np
import pandas as pd
import pytest

from kaptai.atlas import (ATLAS_COLUMNS, INFINITE_COLUMN, PairwiseRecords, _pairwise_records, atlas_refusal, feed_of,
                          mark_infinite)
from kaptai.cli import main
from kaptai.core.atlas import hand_moments, independent_difference, table_measures
from kaptai.report.designer import (_sweep_table, luck_hands_table, money_table, players_sweep, recommendations,
                                    seat_luck_hands)

INF = math.inf


# 1. an infinite "hands until skill shows" never gives a sure difference ----------------------------------


def test_a_difference_with_an_infinite_estimate_or_end_spans_zero_where_the_intervals_overlap():
    # the review's figures: flipper_pays ∞ [165, ∞], taiwan 10,874 [111, ∞], six_players 1,699 [78, ∞]
    for a, b in [((INF, 165.0, INF), (10874.0, 111.0, INF)), ((1699.0, 78.0, INF), (INF, 165.0, INF)),
                 ((INF, 165.0, INF), (INF, 200.0, INF))]:
        d, lo, hi = independent_difference(a, b)
        assert not (lo > 0 or hi < 0), (a, b, d, lo, hi)
    # finite estimates keep the MOVER interval
    assert tuple(round(x, 4) for x in independent_difference((1.0, 0.7, 1.3), (0.5, 0.1, 0.9))) == (0.5, 0.0, 1.0)
    # intervals apart stay apart
    d, lo, hi = independent_difference((INF, 900.0, INF), (50.0, 40.0, 60.0))
    assert lo == 840.0 and hi == INF


def _skill_table() -> pd.DataFrame:
    figures = {"taiwan": (10874.0, 111.0, INF), "discarder_covers_all": (1911.0, 96.0, INF),
               "flipper_pays": (INF, 165.0, INF), "six_players": (1699.0, 78.0, INF)}
    rows = [dict(game="nine-ten", variant=v, players=6 if v == "six_players" else 4,
                 measure="hands_until_skill_shows", seat=None, relative_to="dealer", level="strong - default",
                 value=x, ci_low=lo, ci_high=hi, exact=None, unit="hands", hands=1008, method="monte_carlo",
                 label="hands until skill shows", bidders=None) for v, (x, lo, hi) in figures.items()]
    df = pd.DataFrame(rows, columns=ATLAS_COLUMNS)
    df["seat"] = df["seat"].astype("Int64")
    df.attrs["deal_groups"] = {"nine-ten": [["taiwan", "discarder_covers_all", "flipper_pays"], ["six_players"]]}
    df.attrs["pairwise"] = PairwiseRecords(_pairwise_records(df, {"nine-ten": feed_of("nine-ten")}, [], {}, {}, 0.95))
    return df


def test_pairwise_differences_of_an_infinite_estimate_are_unresolved():
    df = _skill_table()
    p = pd.DataFrame(list(df.attrs["pairwise"]))
    for a, b in [("taiwan", "flipper_pays"), ("flipper_pays", "six_players"), ("discarder_covers_all",
                                                                               "flipper_pays")]:
        r = p[(p.variant_a == a) & (p.variant_b == b)].iloc[0]
        assert r.ci_low <= 0 <= r.ci_high, r.to_dict()
        assert "infinite" in r.note


def test_the_recommendation_is_not_sure_against_a_variant_whose_skill_never_shows():
    rec = recommendations(_skill_table())
    row = rec[rec.criterion.str.contains("strongest")].iloc[0]
    assert row.recommended == "six_players"
    assert row["how sure"].startswith("not sure") and "flipper_pays" in row["how sure"]


# 2. Heaven Eleven's seat luck over a session: one table's luck and swing -----------------------------------


def _he_table() -> pd.DataFrame:
    rows = []

    def add(measure, value, level, bidders, role=None, seat=None):
        rows.append(dict(game="heaven-eleven", variant="standard", players=4, measure=measure, seat=seat,
                         relative_to=role or "declarer", level=level, value=value, ci_low=value * 0.9,
                         ci_high=value * 1.1, exact=None, unit="point", hands=1000, method="monte_carlo",
                         label=measure, bidders=bidders))

    for level, bid, swing, after in ((None, "expected", 4.245, 0.2), ("search bidders", "search", 5.77, 0.316)):
        add("swing", swing, level, bid)
        add("role_luck_after_rotation", after, level, bid)
        add("role_luck_share", after, level, bid)
        add("role_luck_after_rotation", 0.0, level, bid, role="dealer")
        add("role_luck_share", 0.1, level, bid, role="dealer")
        for k, e in enumerate([3.0, -1.0, -1.0, -1.0] if bid == "search" else [9.0, -3.0, -3.0, -3.0]):
            add("role_ev", e, level, bid, role="dealer", seat=k)
    df = pd.DataFrame(rows, columns=ATLAS_COLUMNS)
    df["seat"] = df["seat"].astype("Int64")
    df.attrs.update({"roles": {"heaven-eleven": [{"name": "declarer", "assigned": "auction"},
                                                 {"name": "dealer", "assigned": "rotation"}]},
                     "principal_roles": {"heaven-eleven": "declarer"}, "units": {"heaven-eleven": "point"}})
    return df


def test_seat_luck_over_a_session_takes_the_swing_of_its_own_table():
    m = money_table(_he_table(), "heaven-eleven", stake=10)
    row = m[m.effect.str.startswith("seat luck") & m["pair / role"].str.contains("declarer")].iloc[0]
    cell = row["over a session (money at 10 per unit)"]
    # 0.316 x 5.77 (the search table's swing) x sqrt(4 hands) x 10, not 0.316 x 4.245 (the default table's)
    assert cell.startswith(f"{0.316 * 5.77 * 2 * 10:.2f}"), cell
    assert "search bidders" in row["pair / role"]


def test_hands_until_the_luck_evens_out_take_the_swing_of_its_own_table():
    t = luck_hands_table(_he_table(), 0.10)
    dealer = t[t.role.str.startswith("dealer")].iloc[0]
    want = seat_luck_hands([3.0, -1.0, -1.0, -1.0], 5.77, "rotation", 0.10)
    assert want != seat_luck_hands([3.0, -1.0, -1.0, -1.0], 4.245, "rotation", 0.10)
    assert dealer["hands until within 10% of a session's swing"] == f"{want:,.0f}"


# 3. the house's take per stake of a pot game is sampled, within the cut ----------------------------------


def _pot(n: int, drawn: np.ndarray, P: int = 4, cut: float = 0.05) -> dict:
    rng = np.random.default_rng(0)
    win = rng.integers(0, P, n)
    gross = np.where(np.eye(P)[win] == 1, P - 1.0, -1.0)
    gross[drawn == 1] = 0.0
    house = np.where(drawn == 1, 0.0, cut * P)
    net = gross.copy()
    net[np.arange(n), win] -= house
    return hand_moments(net, gross=gross, staked=np.full(n, float(P)), length=np.ones(n), drawn=drawn,
                        natural=np.zeros(n))


def test_house_take_per_stake_with_no_drawn_hand_sampled_is_not_exact():
    rows = table_measures(_pot(200, np.zeros(200)), pot_cut=0.05)
    r = next(x for x in rows if x["measure"] == "house_edge_staked")
    assert r["method"] == "monte_carlo"
    assert r["ci_low"] < r["value"] == pytest.approx(0.05) and r["ci_high"] <= 0.05


def test_house_take_per_stake_never_exceeds_the_cut():
    drawn = np.zeros(200)
    drawn[:1] = 1
    rows = table_measures(_pot(200, drawn), pot_cut=0.05)
    r = next(x for x in rows if x["measure"] == "house_edge_staked")
    assert r["ci_high"] <= 0.05 and r["ci_low"] < r["value"] < r["ci_high"]


def test_players_sweep_of_kap_tai_shap_samples_the_house_take():
    s = players_sweep("kap-tai-shap", counts=[3, 4], hands=200, skill=False, seed=1)
    h = s[s.measure == "house_edge_staked"]
    assert len(h) == 2 and (h.method == "monte_carlo").all()
    assert (h.ci_high <= 0.05 + 1e-12).all() and (h.ci_low < h.value).all()
    table = _sweep_table(s, "kap-tai-shap")
    col = next(c for c in table.columns if c.startswith("house take"))
    assert all("[" in x and "exact" not in x for x in table[col])


# 4. kaptai atlas --differences; infinite figures named -----------------------------------------------------


def test_mark_infinite():
    d = mark_infinite(pd.DataFrame({"value": [INF, 2.0, -INF], "ci_low": [165.0, 1.0, -INF], "ci_high": [INF, 3.0, 1]}))
    assert d[INFINITE_COLUMN].tolist() == ["value=+inf, ci_high=+inf", "", "value=-inf, ci_low=-inf"]


def test_cli_differences(capsys):
    argv = ["atlas", "--games", "nine-ten", "--hands", "300", "--seed", "1", "--no-skill", "--no-progress"]
    assert main(argv + ["--differences", "--format", "json"]) == 0
    rows = json.loads(capsys.readouterr().out)
    assert rows and {"variant_a", "variant_b", "diff", "ci_low", "ci_high", "shared_deals", INFINITE_COLUMN} <= set(rows[0])
    assert any(r["shared_deals"] for r in rows) and any(not r["shared_deals"] for r in rows)
    assert main(argv + ["--format", "json"]) == 0
    assert INFINITE_COLUMN in json.loads(capsys.readouterr().out)[0]
    assert main(argv + ["--differences", "--ranking"]) != 0


# 6. --games names only the games the atlas accepts ---------------------------------------------------------


def test_unknown_game_lists_only_atlas_games(capsys):
    assert main(["atlas", "--games", "foo", "--hands", "10"]) == 2
    err = capsys.readouterr().err
    assert "kap-tai-shap" in err and "kap-shap," not in err and "'kap-shap'" not in err
    assert main(["atlas", "--games", "kap-shap", "--hands", "10"]) == 2
    assert "kap_shap" in capsys.readouterr().err
    assert atlas_refusal("big-two") is None and "kap-shap" not in atlas_refusal("foo")
