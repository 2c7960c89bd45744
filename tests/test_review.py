"""``kaptai review``: the loss of each decision against the advisor's best move.

A record of ``search`` against itself reviews to a mean loss whose interval holds 0; one of
``random`` to a clearly positive loss.  The review is the same for the same seed with any
number of workers; every game's adapter reviews a short record of its own.
"""

from __future__ import annotations

import importlib

import numpy as np
import pytest

from kaptai.core.review import REVIEW_COLUMNS, decision_seed, review, summarize, write_html
from kaptai.records import record_hands


@pytest.fixture(scope="module")
def b2(tmp_path_factory):
    d = tmp_path_factory.mktemp("rev")
    out = {}
    for pol, seed in (("search", 2), ("random", 2)):
        p = d / f"{pol}.jsonl"
        record_hands("big-two", p, players=4, hands=8, seed=seed, policies=pol)
        out[pol] = p
    return out


def _record_row(df):
    s = summarize(df)
    return s[(s.level == "record")].iloc[0]


def test_search_against_itself_loses_nothing_measurable(b2):
    from kaptai.bigtwo import play as P

    df = review(P, b2["search"], "big-two", seats=[0], seed=1, samples=32)
    assert list(df.columns[: len(REVIEW_COLUMNS)]) == REVIEW_COLUMNS
    assert len(df) >= 20 and (df.seat == 0).all()
    r = _record_row(df)
    assert r.mean_loss_low <= 0.0 <= r.mean_loss_high, r
    assert (df.loss >= 0).all() and (df.loss_low <= df.loss).all() and (df.loss <= df.loss_high).all()
    assert ((df.made == df.best) <= df.matched).all()


def test_random_loses_clearly(b2):
    from kaptai.bigtwo import play as P

    df = review(P, b2["random"], "big-two", seats=[0], seed=1, samples=32)
    r = _record_row(df)
    assert r.mean_loss_low > 0.2, r
    assert r.matched_share < 0.6
    p = write_html(df, b2["random"].with_suffix(".html"))
    text = open(p, encoding="utf-8").read()
    assert "Flagged decisions" in text and "<td class='t'>" in text  # the hand at a flagged decision


def test_same_seed_same_review_any_workers(b2):
    from kaptai.bigtwo import play as P

    a = review(P, b2["search"], "big-two", seats=[1], seed=5, samples=8, hands=4, chunk_hands=2)
    b = review(P, b2["search"], "big-two", seats=[1], seed=5, samples=8, hands=4, chunk_hands=1, workers=2)
    assert a.drop(columns=[]).equals(b)
    c = review(P, b2["search"], "big-two", seats=[1], seed=6, samples=8, hands=4)
    assert not np.array_equal(a.loss.to_numpy(), c.loss.to_numpy()) or len(a) == 0
    assert decision_seed(5, 1, 2) != decision_seed(5, 2, 1)


@pytest.mark.parametrize("game,policy,players", [("kap-tai-shap", "lookahead", 4), ("nine-ten", "colour_cut", 4),
                                                 ("nantong", "max_melds", 3), ("heaven-eleven", "greedy", None)])
def test_every_game_reviews(game, policy, players, tmp_path):
    from kaptai.games import game as lookup

    p = tmp_path / "r.jsonl"
    record_hands(game, p, players, hands=2, seed=1, policies=policy)
    adapter = importlib.import_module(f"{lookup(game).package}.play")
    df = review(adapter, p, game, seats=[0], seed=0, samples=8)
    assert len(df) >= 1 and (df.seat == 0).all()
    assert np.isfinite(df.loss).all() and (df.loss >= -1e-12).all()
    assert df.attrs["unit"]


def test_review_command_and_bad_seat(b2, capsys):
    from kaptai.cli import main
    from kaptai.errors import UsageError
    from kaptai.bigtwo import play as P

    with pytest.raises(UsageError, match="--seat 7"):
        review(P, b2["search"], "big-two", seats=[7])
    main(["review", "big-two", str(b2["search"]), "--seat", "0", "--hands", "1", "--samples", "4", "--summary"])
    out = capsys.readouterr().out
    assert "matched the advisor's best" in out and "record" in out
