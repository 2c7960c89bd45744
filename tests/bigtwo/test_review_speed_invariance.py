"""The Big Two review gives the same rows after the speed work of issue 33 as before it.

``kaptai review big-two`` asks the advisor through :func:`kaptai.bigtwo.advisor.advise_view`
(arrays, no DataFrame, the option count taken from the first batch of layouts). The rows below
were computed by the review before that change (commit 7421d82: ``advise`` built its table
from the view's cards typed as text, and the review read that table) on the committed 3-hand
record ``data/review_3hands.jsonl`` (four ``search`` seats, ``record_hands`` seed 1), with
``seed=5``, ``samples=8``: every seat cross-fitted, and seat 0 on one set of layouts.

Those rows price each position from the cards played alone; since the advisor weighs its layouts
by the hand's history (``advisor.USE_HISTORY``), they are checked with it switched off, and the
review with the history is checked to run and to differ.
"""

from __future__ import annotations

import math
from pathlib import Path

import numpy as np
import pytest

from kaptai.bigtwo import play as adapter
from kaptai.core.review import decision_seed, match_options, review

RECORD = Path(__file__).parent / "data" / "review_3hands.jsonl"
COLUMNS = ["hand", "seat", "decision", "options", "made", "best", "matched", "loss", "loss_low", "loss_high",
           "p_win_before", "p_win_after", "samples"]

#: ``review(..., seed=5, samples=8)`` (cross-fitted, every seat), computed before the change.
CROSS_FITTED = [
    (0, 3, 0, 9, '3D 4S 5H 6C 7C', '3D 4S 5H 6C 7C', True, 0.0, 0.0, 0.0, 0.75, 0.75, 8),
    (0, 0, 1, 9, '4D 7D 8D JD 2D', '4D 7D 8D TD JD', False, 3.0, -5.8741143684443, 11.8741143684443, 0.875, 0.875, 8),
    (0, 0, 2, 14, 'AS', 'AS', True, 0.0, 0.0, 0.0, 1.0, 1.0, 8),
    (0, 2, 3, 2, '2H', 'PASS', False, 6.5, -14.622452580892357, 27.622452580892357, 0.125, 0.0, 8),
    (0, 3, 4, 2, '2S', '2S', True, 0.0, 0.0, 0.0, 0.75, 0.75, 8),
    (0, 3, 5, 10, '3H 3S', 'AH', False, -9.625, -18.29530923522522, -0.9546907647747833, 0.25, 0.75, 8),
    (0, 0, 6, 5, 'TD TH', 'TD TH', True, 0.0, 0.0, 0.0, 1.0, 1.0, 8),
    (0, 1, 7, 3, 'JH JS', 'JH JS', True, 0.0, 0.0, 0.0, 0.0, 0.0, 8),
    (0, 3, 8, 2, 'KD KH', 'KD KH', True, 0.0, 0.0, 0.0, 1.0, 1.0, 8),
    (0, 1, 9, 2, 'PASS', 'KC KS', False, 5.75, -8.953229403177248, 20.453229403177247, 0.0, 0.0, 8),
    (0, 3, 10, 4, '9C 9H', '9C 9H', True, 0.0, 0.0, 0.0, 0.875, 0.875, 8),
    (0, 0, 11, 4, 'QC QH', 'PASS', False, 4.375, 0.43870027109331833, 8.311299728906683, 0.875, 0.625, 8),
    (0, 1, 12, 2, 'KC KS', 'KC KS', True, 0.0, 0.0, 0.0, 0.0, 0.0, 8),
    (0, 1, 13, 15, '6H 7H 8C 9D TC', '6H 6S', True, -5.75, -8.994951928370952, -2.505048071629048, 0.0, 0.0, 8),
    (0, 2, 14, 3, '8H 9S TS JC QD', '8H 9S TS JC QD', True, 0.0, 0.0, 0.0, 0.0, 0.0, 8),
    (0, 2, 15, 8, '5D 5C', '5D 5C', True, 0.0, 0.0, 0.0, 0.0, 0.0, 8),
    (0, 2, 16, 5, 'AD', 'AD', True, 0.0, 0.0, 0.0, 0.0, 0.0, 8),
    (0, 3, 17, 2, 'AH', 'AH', True, 0.0, 0.0, 0.0, 1.0, 1.0, 8),
    (1, 1, 0, 2, '3D 3S', '3D', False, -5.25, -13.871216180594082, 3.3712161805940823, 0.0, 0.25, 8),
    (1, 2, 1, 5, 'AC AH', 'PASS', False, 2.0, -3.4437221551524404, 7.44372215515244, 0.125, 0.125, 8),
    (1, 2, 2, 18, '7H 8H 9C TH JS', '7D 8H 9C TH JD', False, 3.875, -2.371870483093301, 10.1218704830933, 0.125, 0.0, 8),
    (1, 3, 3, 2, 'PASS', '4D 5D TD KD AD', False, 3.5, -1.551560369434334, 8.551560369434334, 0.25, 0.375, 8),
    (1, 0, 4, 11, '3C 3H 6D 6C 6H', '3C 3H 6D 6C 6H', True, 0.0, 0.0, 0.0, 0.625, 0.625, 8),
    (1, 0, 5, 11, 'JH', '8D 8S', False, -0.875, -8.397256672131693, 6.647256672131692, 0.625, 0.875, 8),
    (1, 1, 6, 5, 'PASS', 'KC', False, 1.375, -0.5474175347578816, 3.297417534757882, 0.0, 0.0, 8),
    (1, 2, 7, 3, '2D', 'PASS', False, 0.0, -3.8670725890692434, 3.8670725890692434, 0.0, 0.125, 8),
    (1, 3, 8, 2, '2S', '2S', True, 0.0, 0.0, 0.0, 0.0, 0.0, 8),
    (1, 3, 9, 17, '4D 5D TD KD AD', '5D 5C', False, -5.0, -17.110384385963414, 7.110384385963414, 0.25, 0.0, 8),
    (1, 3, 10, 9, '7C 7S', '7C 7S', True, 0.0, 0.0, 0.0, 0.0, 0.0, 8),
    (1, 0, 11, 4, 'KH KS', '8D 8S', False, 3.0, 1.0053436941227045, 4.994656305877296, 1.0, 1.0, 8),
    (1, 0, 12, 7, '8D 8S', '8D 8S', True, 0.0, 0.0, 0.0, 1.0, 1.0, 8),
    (1, 1, 13, 3, 'TC TS', 'TC TS', True, 0.0, 0.0, 0.0, 0.0, 0.0, 8),
    (1, 3, 14, 2, 'QH QS', 'QH QS', True, 0.0, 0.0, 0.0, 0.0, 0.0, 8),
    (1, 3, 15, 3, '4C', '5C', False, -0.375, -1.4185444303851387, 0.6685444303851387, 0.0, 0.0, 8),
    (1, 0, 16, 4, '2H', '2H', True, 0.0, 0.0, 0.0, 1.0, 1.0, 8),
    (1, 0, 17, 3, '9D 9H', '9D 9H', True, 0.0, 0.0, 0.0, 1.0, 1.0, 8),
    (2, 0, 0, 7, '3D 3H 3S 6H 6S', '3D 3H 3S 6H 6S', True, 0.0, 0.0, 0.0, 0.625, 0.625, 8),
    (2, 3, 1, 4, '4D 4C TD TC TH', '4D 4C TD TC TH', True, 0.0, 0.0, 0.0, 0.5, 0.5, 8),
    (2, 3, 2, 10, 'JS', '7C', False, 2.75, -0.34343632749485087, 5.843436327494851, 0.75, 0.5, 8),
    (2, 0, 3, 4, 'PASS', 'KS', False, -0.25, -6.068320707675624, 5.568320707675624, 0.25, 0.25, 8),
    (2, 1, 4, 6, 'PASS', 'KH', False, -0.125, -2.980612948056405, 2.730612948056405, 0.125, 0.25, 8),
    (2, 2, 5, 5, '2D', 'QH', False, 3.75, -6.324223051588641, 13.82422305158864, 0.375, 0.0, 8),
    (2, 3, 6, 3, 'PASS', '2C', False, 1.875, -5.898403647188526, 9.648403647188527, 0.75, 0.625, 8),
    (2, 1, 7, 2, 'PASS', '2S', True, -0.5, -3.8129438012973664, 2.8129438012973664, 0.125, 0.0, 8),
    (2, 2, 8, 21, '8C 9H TS JH QH', '7S 8C 9D TS JH', False, 2.375, -0.21613454906284213, 4.966134549062842, 0.25, 0.125, 8),
    (2, 2, 9, 8, '3C', '3C', True, 0.0, 0.0, 0.0, 0.25, 0.25, 8),
    (2, 3, 10, 8, '7C', '7C', True, 0.0, 0.0, 0.0, 0.5, 0.5, 8),
    (2, 0, 11, 8, 'JD', '7H', False, 0.875, -3.498799485534521, 5.248799485534521, 0.375, 0.25, 8),
    (2, 1, 12, 7, 'KH', 'JC', False, -1.75, -4.636969638102803, 1.1369696381028036, 0.0, 0.125, 8),
    (2, 2, 13, 2, 'PASS', 'AS', False, 0.125, -1.8846458824005299, 2.13464588240053, 0.0, 0.25, 8),
    (2, 3, 14, 3, 'PASS', '2C', False, 0.625, -2.9265294508521564, 4.176529450852156, 0.5, 0.375, 8),
    (2, 0, 15, 4, 'KS', 'PASS', False, -1.25, -5.252188317997503, 2.7521883179975033, 0.125, 0.0, 8),
    (2, 1, 16, 3, 'AH', '2S', False, -0.5, -2.1564719006486834, 1.1564719006486832, 0.125, 0.125, 8),
    (2, 2, 17, 2, 'AS', 'PASS', False, -0.375, -4.077826096824651, 3.3278260968246514, 0.125, 0.125, 8),
    (2, 3, 18, 3, 'PASS', 'PASS', True, 0.0, 0.0, 0.0, 0.625, 0.625, 8),
    (2, 1, 19, 2, '2S', '2S', True, 0.0, 0.0, 0.0, 0.0, 0.0, 8),
    (2, 1, 20, 17, '4H 5H 6D 7D 8D', '4H 5H 6D 7D 8D', True, 0.0, 0.0, 0.0, 0.0, 0.0, 8),
    (2, 1, 21, 6, 'QD QS', '4S', False, -0.75, -4.179936972945095, 2.679936972945095, 0.125, 0.0, 8),
    (2, 3, 22, 2, 'PASS', 'PASS', True, 0.0, 0.0, 0.0, 0.375, 0.375, 8),
    (2, 0, 23, 2, 'AD AC', 'AD AC', True, 0.0, 0.0, 0.0, 0.0, 0.0, 8),
    (2, 3, 24, 2, '2C 2H', 'PASS', False, -2.875, -7.808916328757055, 2.0589163287570553, 0.75, 0.875, 8),
    (2, 3, 25, 5, 'QC', '8H 8S', False, -1.125, -3.0294925043180414, 0.7794925043180414, 0.75, 1.0, 8),
    (2, 2, 26, 2, 'PASS', 'PASS', True, 0.0, 0.0, 0.0, 0.375, 0.375, 8),
    (2, 3, 27, 4, '8H 8S', '8H 8S', True, 0.0, 0.0, 0.0, 1.0, 1.0, 8),
    (2, 0, 28, 2, '9C 9S', '9C 9S', True, 0.0, 0.0, 0.0, 0.0, 0.0, 8),
    (2, 0, 29, 2, '5S', '5S', True, 0.0, 0.0, 0.0, 0.125, 0.125, 8),
    (2, 1, 30, 3, 'JC', '6C', False, 0.75, -1.3039583624965334, 2.8039583624965334, 0.125, 0.0, 8),
    (2, 2, 31, 2, 'KC', 'KC', True, 0.0, 0.0, 0.0, 0.0, 0.0, 8),
    (2, 2, 32, 5, '5D 5C', '5D 5C', True, 0.0, 0.0, 0.0, 0.0, 0.0, 8),
    (2, 2, 33, 2, '9D', '9D', True, 0.0, 0.0, 0.0, 0.0, 0.0, 8),
    (2, 3, 34, 2, 'KD', 'KD', True, 0.0, 0.0, 0.0, 1.0, 1.0, 8),
]

#: ``review(..., seats=[0], seed=5, samples=8, cross_fit=False)``, computed before the change.
SAME_LAYOUTS = [
    (0, 0, 1, 9, '4D 7D 8D JD 2D', '4D 7D 8D TD JD', False, 9.125, 1.5845268479230272, 16.665473152076974, 0.875, 0.75, 8),
    (0, 0, 2, 14, 'AS', 'AS', True, 0.0, 0.0, 0.0, 1.0, 1.0, 8),
    (0, 0, 6, 5, 'TD TH', 'TD TH', True, 0.0, 0.0, 0.0, 0.75, 0.75, 8),
    (0, 0, 11, 4, 'QC QH', 'PASS', False, 2.375, -4.56379352133286, 9.31379352133286, 0.875, 0.75, 8),
    (1, 0, 4, 11, '3C 3H 6D 6C 6H', '3C 3H 6D 6C 6H', True, 0.0, 0.0, 0.0, 0.625, 0.625, 8),
    (1, 0, 5, 11, 'JH', '8D 8S', False, 7.875, 2.0250797179213915, 13.724920282078608, 0.875, 0.25, 8),
    (1, 0, 11, 4, 'KH KS', '8D 8S', False, 1.625, -0.06985085793794044, 3.3198508579379404, 1.0, 1.0, 8),
    (1, 0, 12, 7, '8D 8S', '8D 8S', True, 0.0, 0.0, 0.0, 1.0, 1.0, 8),
    (1, 0, 16, 4, '2H', '2H', True, 0.0, 0.0, 0.0, 1.0, 1.0, 8),
    (1, 0, 17, 3, '9D 9H', '9D 9H', True, 0.0, 0.0, 0.0, 1.0, 1.0, 8),
    (2, 0, 0, 7, '3D 3H 3S 6H 6S', '3D 3H 3S 6H 6S', True, 0.0, 0.0, 0.0, 0.625, 0.625, 8),
    (2, 0, 3, 4, 'PASS', 'KS', False, 3.25, -4.311481250211203, 10.811481250211203, 0.125, 0.125, 8),
    (2, 0, 11, 8, 'JD', '7H', False, 0.375, -2.2424745861667943, 2.9924745861667943, 0.25, 0.25, 8),
    (2, 0, 15, 4, 'KS', 'PASS', False, 1.0, -2.9547724585038226, 4.954772458503823, 0.5, 0.125, 8),
    (2, 0, 23, 2, 'AD AC', 'AD AC', True, 0.0, 0.0, 0.0, 0.0, 0.0, 8),
    (2, 0, 28, 2, '9C 9S', '9C 9S', True, 0.0, 0.0, 0.0, 0.0, 0.0, 8),
    (2, 0, 29, 2, '5S', '5S', True, 0.0, 0.0, 0.0, 0.0, 0.0, 8),
]


def _rows(df) -> list[tuple]:
    return [tuple(r) for r in df[COLUMNS].itertuples(index=False)]


def _same(got: list[tuple], want: list[tuple]) -> None:
    assert len(got) == len(want)
    for g, w in zip(got, want):
        assert g[:7] == w[:7], (g, w)
        assert g[12] == w[12]
        for a, b in zip(g[7:12], w[7:12]):  # the same float, to the last bit
            assert (math.isnan(a) and math.isnan(b)) or a == b, (g, w)


@pytest.fixture
def no_history(monkeypatch):
    """The advisor of those rows: no history, and the search's rollouts of then (``greedy``; the
    default is ``contest`` since ``POLICY_VERSION`` 6)."""
    from kaptai.bigtwo import advisor, config

    monkeypatch.setattr(advisor, "USE_HISTORY", False)
    monkeypatch.setattr(config, "default_rollout", lambda rules: "greedy")
    monkeypatch.setattr(advisor, "_CONFIGS", {})  # the advisor's memo of tables


def test_cross_fitted_review_rows_unchanged(no_history):
    df = review(adapter, RECORD, "big-two", seed=5, samples=8, workers=1)
    assert df.attrs["cross_fit"] and df.attrs["cross_fitted"] == len(CROSS_FITTED) and df.attrs["skipped"] == 0
    _same(_rows(df), CROSS_FITTED)


def test_review_on_one_set_of_layouts_unchanged(no_history):
    df = review(adapter, RECORD, "big-two", seats=[0], seed=5, samples=8, workers=1, cross_fit=False)
    assert not df.attrs["cross_fit"]
    _same(_rows(df), SAME_LAYOUTS)


def test_review_with_the_history():
    """The default review weighs the layouts by the hand's history: the same decisions and moves,
    other prices."""
    df = review(adapter, RECORD, "big-two", seed=5, samples=8, workers=1)
    rows = _rows(df)
    assert len(rows) == len(CROSS_FITTED) and df.attrs["skipped"] == 0
    assert [r[:5] for r in rows] == [r[:5] for r in CROSS_FITTED]
    assert any(not math.isclose(a[7], b[7]) for a, b in zip(rows, CROSS_FITTED))


def test_evaluate_matches_the_advisor_table():
    """The review's arrays are the numbers of the public table (:func:`kaptai.bigtwo.play.advice`),
    row for row, and each row's option in the paired sums is what :func:`match_options` reads
    from that table."""
    record = adapter.read(RECORD)
    seen = 0
    for d in adapter.decisions(record, [0, 2]):
        if d.index % 3:
            continue
        seed = decision_seed(5, d.hand, d.index)
        ev = adapter.evaluate(d, samples=8, seed=seed)
        df = adapter.advice(d.view, samples=8, seed=seed)
        assert ev["labels"] == list(df.play)
        for key, col in (("value", "ev"), ("vs_best", "vs_best"), ("vs_low", "vs_best_low"),
                         ("vs_high", "vs_best_high"), ("p_win", "p_win")):
            np.testing.assert_array_equal(np.asarray(ev[key]), df[col].to_numpy())
        assert ev["samples"] == int(df.samples.iloc[0]) == 8
        assert ev["index"] == match_options(ev["paired"], {0: df.ev.to_numpy(), 1: df.p_win.to_numpy()})
        seen += 1
    assert seen >= 10


def test_paired_budget_counts_options_from_the_first_batch():
    from kaptai.core.advise import paired_budget

    def evaluate(bg, n):
        rng = np.random.Generator(bg)
        common = rng.normal(size=n)
        return np.array([common + 1.0, common, common - 0.5])[None]

    for kw in ({"samples": 40}, {"budget_ms": 10_000}):
        a = paired_budget(evaluate, 3, seed=2, batch=16, **kw)
        b = paired_budget(evaluate, None, seed=2, batch=16, **kw)
        assert (a.samples, a.stop) == (b.samples, b.stop)
        for x, y in ((a.sums, b.sums), (a.sumsq, b.sumsq), (a.cross, b.cross)):
            np.testing.assert_array_equal(x, y)
    with pytest.raises(ValueError, match="at least one option"):
        paired_budget(lambda bg, n: np.zeros((1, 0, n)), None, seed=0, samples=4)
