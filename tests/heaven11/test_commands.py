
import pytest

import kaptai.games  # noqa: F401  (the registry first: kaptai/games.py imports the commands module)
from kaptai.errors import KaptaiError
from kaptai.heaven11.commands import SPEC, fairness, odds, score, simulate


def ns(**kw):
    from kaptai.cli import default_args

    return default_args("heaven-eleven", **{"hands": 300, "seed": 1, **kw})


def test_spec():
    assert SPEC.name == "heaven-eleven" and SPEC.players == (4, 4)
    assert set(SPEC.commands) == {"odds", "score", "simulate", "fairness", "league", "report", "advise",
                                  "play", "review", "replay"}
    assert SPEC.resolve_rules("symmetric").short_penalty == "symmetric"
    for c in SPEC.commands.values():
        assert callable(c.load())


def test_score_and_odds():
    out = score(ns(record="bid=9NT tricks=13/0/0/0"), SPEC)
    assert out.record["finals"] == [36, -12, -12, -12]
    with pytest.raises(KaptaiError):
        score(ns(record="bid=3C tricks=7/2/2/1"), SPEC)
    o = odds(ns(option=[("reduction", "once")]), SPEC)
    assert "any_special" in set(o.table.metric)
    assert len(odds(ns(table="scores"), SPEC).table) == 5600


def test_simulate_and_fairness():
    out = simulate(ns(policy="0=random"), SPEC)
    assert out.table.attrs["policies"] == ["random", "greedy", "greedy", "greedy"]
    for v in ("asymmetry", "leading", "scoring"):
        assert len(fairness(ns(variants=v), SPEC).table)
    from kaptai.cli import main

    assert main(["simulate", "heaven-eleven", "--players", "5"]) == 2  # checked by its declaration
