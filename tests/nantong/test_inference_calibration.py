"""Calibration of the search's inference (docs/nantong-engine.md, "Opponent model", "Layouts").

At the decisions of a ``search`` seat among max_melds players, the weighted particles give, per
other seat and kind with an unseen copy, the probability ``p`` that the seat holds the kind.
Binned by ``p``, the share of true holdings must match the bin's mean ``p`` within its 95%
interval (clustered by hand) widened by :data:`TOLERANCE`, and the inference must predict the
true hands better (Brier score) than uniform layouts of the unseen cards do.  docs/nantong.md
gives the measured table.
"""

import numpy as np

from kaptai.nantong.config import make_config
from kaptai.nantong.engine import run_hands

#: How far a bin's mean belief may sit outside the 95% interval of the true share: the inference
#: weighs each seat's record back to its last draw only (config.INFER_HORIZON = 0), so it misses
#: part of what older discards say (max_melds hands hold their copies in pairs and runs, which
#: uniform layouts overlook too), and the beliefs come from a finite number of weighted particles.
TOLERANCE = 0.05


def belief_rows(hands, seed, particles, samples=32, field=("max_melds", "max_melds")):
    """Rows (p, held) over the other seats and the kinds with an unseen copy, the hand of each
    row, and the mean effective sample size."""
    cfg = make_config(3, samples=samples, particles=particles)
    log: list = []
    run_hands(cfg, hands, seed=seed, policies=["search", *field], belief_log=log)
    rows, ids, ess = [], [], []
    for h, p, e, probs, truth, unseen in log:
        ess.append(e)
        for t in range(3):
            if t == p:
                continue
            for k in range(30):
                if unseen[k] > 0:
                    rows.append((probs[t][k], truth[t][k]))
                    ids.append(h)
    return np.array(rows, dtype=float), np.array(ids), float(np.mean(ess))


def calibration_table(rows, ids, bins=10):
    """Per bin of p: rows, hands, mean p, true share and its 95% interval clustered by hand."""
    out = []
    b = np.minimum((rows[:, 0] * bins).astype(int), bins - 1)
    for j in range(bins):
        m = b == j
        n = int(m.sum())
        if n == 0:
            continue
        p, y = rows[m, 0], rows[m, 1]
        cl: dict = {}
        for i, r in zip(ids[m], y - y.mean()):
            cl[i] = cl.get(i, 0.0) + r
        se = float(np.sqrt((np.array(list(cl.values())) ** 2).sum()) / n)
        out.append({"bin": f"{j / bins:.1f}-{(j + 1) / bins:.1f}", "n": n, "hands": len(cl), "p": float(p.mean()),
                    "share": float(y.mean()), "lo": float(y.mean() - 1.96 * se), "hi": float(y.mean() + 1.96 * se)})
    return out


def test_beliefs_are_calibrated_and_beat_uniform_layouts():
    inf, ids, ess = belief_rows(12, 5, particles=16)
    uni, _, ess_u = belief_rows(12, 5, particles=0)
    assert len(inf) > 5000 and ess > 60
    assert ess_u == 32.0  # uniform layouts: every particle weighs 1
    checked = 0
    for r in calibration_table(inf, ids):
        if r["n"] < 300:
            continue
        checked += 1
        assert r["lo"] - TOLERANCE <= r["p"] <= r["hi"] + TOLERANCE, r
    assert checked >= 5
    brier_inf = float(np.mean((inf[:, 0] - inf[:, 1]) ** 2))
    brier_uni = float(np.mean((uni[:, 0] - uni[:, 1]) ** 2))
    assert brier_inf < brier_uni - 0.004, (brier_inf, brier_uni)
