"""The Big Two search's inference is calibrated (docs/big-two.md, "Inference").

Games of the search's three opponent styles (reference engine); at decision points the
compiled search draws its weighted layouts (``_engine.search_layouts``), and its belief that a
seat holds a card is compared with the true hands, binned.  A bin's true frequency must contain
its mean belief within the 95% interval (clustered by decision point) widened by 0.03 for the
model's approximation (a style is a likelihood with a fixed error rate, the layouts a finite
sample); and the inference must sharpen the beliefs: a lower Brier score than the uniform
layouts (no inference) on the same positions.

At 32 layouts (the search's budget until ``POLICY_VERSION`` 4; 64 until 5, 128 since) the beliefs of importance resampling (``search_pool=8``:
32 layouts resampled from 256 weighted ones, the set the rollouts use) are calibrated too, within
0.04 (a belief from 32 equally weighted layouts is a multiple of 1/32), and sharper than those of
the 32 weighted layouts themselves (``search_pool=1``), which are overconfident.
"""

from __future__ import annotations

from kaptai.bigtwo.inference import belief_calibration


def _calibrated_bins(table, slack):
    """How many bins of 300 beliefs or more there are; each one's mean belief must lie within its
    frequency's interval widened by ``slack``."""
    checked = 0
    for r in table:
        if r["beliefs"] < 300:
            continue
        checked += 1
        assert r["ci_low"] - slack <= r["mean_belief"] <= r["ci_high"] + slack, r
    return checked


def _brier(table):
    n = sum(r["beliefs"] for r in table)
    return sum(r["brier"] * r["beliefs"] for r in table) / n


def test_beliefs_are_calibrated_and_sharper_than_uniform_layouts():
    table = belief_calibration(deals=24, samples=200, seed=3, pool=1)
    assert sum(r["beliefs"] for r in table) > 10_000
    assert _calibrated_bins(table, 0.03) >= 6
    # beliefs away from the uniform 1/3 exist and are right
    assert any(r["mean_belief"] > 0.6 and r["beliefs"] >= 100 for r in table)
    uniform = belief_calibration(deals=24, samples=200, seed=3, infer=10, pool=1)
    assert _brier(table) < _brier(uniform)


def test_resampled_beliefs_at_the_search_budget_are_calibrated():
    table = belief_calibration(deals=24, samples=32, seed=3, pool=8)
    assert _calibrated_bins(table, 0.04) >= 6
    weighted = belief_calibration(deals=24, samples=32, seed=3, pool=1)
    assert _brier(table) < _brier(weighted)
