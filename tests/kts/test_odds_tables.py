"""The overlap tables behind the exact distance-from-ready odds (kaptai.kts.odds).

The distance of a dealt hand comes from tables built bottom-up (the max overlap
of every hand of 2n tiles is searched, a larger hand that is not ready /
complete takes the best of its sub-hands one tile smaller).  Checked here:

* the tables' canonical ranking against an independent Python ranking;
* every table entry looked at against ``_max_overlap_counts`` (itself checked
  against the reference evaluator in test_evaluate.py);
* the tallies of the table path against the direct per-hand search
  (``_deal_tables`` without ``prev``), for several rule sets and supplies, and
  for one and two threads.
"""

from __future__ import annotations

import numpy as np
import pytest

from kaptai.kts import _eval, odds
from kaptai.kts._eval import _max_overlap_counts
from kaptai.kts.evaluate import c_rules
from kaptai.kts.rules import RuleSet
from kaptai.kts.tiles import COPIES_PER_SET

from ..conftest import SLOW_SCALE  # KAPTAI_SLOW_SCALE, default in tests/conftest.py

#: One ranking position per single tile id or identical-role pair, in the walk's order.
POSITIONS = [(0,), (1,), (2,), (3,), (4, 8), (5, 10), (6,), (7,), (9,), (11, 12), (13, 14), (15, 16),
             (17, 18), (19,), (20,)]
PAIRS = [p for p in POSITIONS if len(p) == 2]

RULES = {
    "traditional": RuleSet.preset("traditional"),
    "advanced": RuleSet.preset("advanced"),
    "advanced-gj3": RuleSet.preset("advanced", gee_joon_run_value=3),
    "advanced-sum": RuleSet.preset("advanced", base_combination="sum"),
    "general_eyes+basic": RuleSet.preset("advanced", forms={"general_eyes", "basic"}),
    "runs-only": RuleSet.preset("advanced", forms={"run4", "run6", "run8"}),
    "general_eyes+run8-gj3": RuleSet.preset("advanced", forms={"general_eyes", "run8"}, gee_joon_run_value=3),
}


def canonical(counts) -> list[int]:
    """The representative the walk enumerates: a pair's second tile never has more copies."""
    c = [int(x) for x in counts]
    for a, b in PAIRS:
        if c[b] > c[a]:
            c[a], c[b] = c[b], c[a]
    return c


class Ranker:
    """Independent ranking of canonical count vectors: lexicographic in the
    positions' states, a pair's state (x, y) ordered by x then y."""

    def __init__(self, copies, max_size: int = 10):
        self.states = []
        for pos in POSITIONS:
            lim = min(copies[pos[0]], max_size)
            if len(pos) == 1:
                self.states.append([(c,) for c in range(lim + 1)])
            else:
                self.states.append([(x, y) for x in range(lim + 1) for y in range(x + 1)])
        q_n = len(POSITIONS)
        self.n = [[0] * (max_size + 1) for _ in range(q_n + 1)]
        self.n[q_n][0] = 1
        for q in reversed(range(q_n)):
            for r in range(max_size + 1):
                self.n[q][r] = sum(self.n[q + 1][r - sum(s)] for s in self.states[q] if sum(s) <= r)

    def count(self, size: int) -> int:
        return self.n[0][size]

    def rank(self, counts) -> int:
        c = canonical(counts)
        r, out = sum(c), 0
        for q, pos in enumerate(POSITIONS):
            s = tuple(c[i] for i in pos)
            for s2 in self.states[q]:
                if s2 == s:
                    break
                if sum(s2) <= r:
                    out += self.n[q + 1][r - sum(s2)]
            r -= sum(s)
        return out

    def vectors(self, size: int):
        """Every canonical vector of ``size`` tiles, in lexicographic (= rank) order."""
        c = [0] * 21

        def walk(q, r):
            if q == len(POSITIONS):
                if r == 0:
                    yield list(c)
                return
            for s in self.states[q]:
                if sum(s) <= r:
                    for i, x in zip(POSITIONS[q], s):
                        c[i] = x
                    yield from walk(q + 1, r - sum(s))
            for i in POSITIONS[q]:
                c[i] = 0

        yield from walk(0, size)


def copies_for(sets: int) -> list[int]:
    return [int(k) for k in COPIES_PER_SET * sets]


#: A supply of 38 tiles with 0-3 copies per tile (pairs equal): binding availability.
ODD_SUPPLY = [2, 2, 2, 2, 3, 3, 2, 2, 3, 2, 3, 1, 1, 2, 2, 1, 1, 0, 0, 1, 3]


def random_hands(rng, copies, size: int, m: int) -> list[list[int]]:
    wall = np.repeat(np.arange(21), copies)
    out = []
    for _ in range(m):
        pick = rng.choice(wall, size, replace=False)
        out.append(np.bincount(pick, minlength=21).tolist())
    return out


@pytest.mark.parametrize("copies", [copies_for(1), copies_for(2), copies_for(8), ODD_SUPPLY])
def test_canonical_count_and_rank_order(copies):
    ranker = Ranker(copies)
    for size in range(0, 11):
        assert _eval._canonical_count(copies, size) == ranker.count(size)
    # the independent ranker is a bijection onto 0..count-1, in enumeration order
    size = 4 if sum(copies) > 40 else 6
    for i, v in enumerate(ranker.vectors(size)):
        assert ranker.rank(v) == i
    assert i + 1 == ranker.count(size)
    _, mask, base_sum, gj = c_rules("traditional")
    assert _eval._deal_tables(copies, 9, mask, base_sum, gj, 4, False)["vectors"] == ranker.count(9)


@pytest.mark.slow
@pytest.mark.parametrize(
    "copies,n,rules_name",
    [
        (copies_for(1), 3, "advanced"),
        (copies_for(1), 3, "traditional"),
        (copies_for(1), 3, "general_eyes+run8-gj3"),
        (ODD_SUPPLY, 4, "advanced"),
        (copies_for(2), 4, "advanced"),
        (copies_for(3), 4, "advanced-gj3"),
    ],
)
def test_overlap_tables_match_max_overlap(copies, n, rules_name):
    """Entries of the 2n table (searched) and of the 2n+1 table (written by the
    walk of the other hands, bottom-up) against the direct search."""
    _, mask, base_sum, gj = c_rules(RULES[rules_name])
    ranker = Ranker(copies)
    below = odds._overlap_table(copies, 2 * n, mask, base_sum, gj, n, 2)
    table = np.full(_eval._canonical_count(copies, 2 * n + 1), 255, dtype=np.uint8)
    odds._tallies(copies, 2 * n + 1, mask, base_sum, gj, n, True, 2, prev=below, out=table)
    assert len(below) == ranker.count(2 * n) and len(table) == ranker.count(2 * n + 1)
    assert below.max() <= 2 * n and table.max() <= 2 * n + 1
    rng = np.random.default_rng([len(copies), sum(copies), n, list(RULES).index(rules_name)])
    m = max(50, int(1500 * SLOW_SCALE))
    for size, t in ((2 * n, below), (2 * n + 1, table)):
        if len(t) <= 20 * m:  # small: every entry
            hands = list(ranker.vectors(size))
            idx = range(len(hands))
        else:
            hands = random_hands(rng, copies, size, m)
            idx = [ranker.rank(h) for h in hands]
        bad = []
        for i, h in zip(idx, hands):
            want = _max_overlap_counts(h, copies, mask, base_sum, gj, n)
            if t[i] != want:
                bad.append(f"  {h}: table {t[i]}, search {want}")
        assert not bad, f"{size}-tile overlap table disagrees:\n" + "\n".join(bad[:10])


def _direct(copies, sizes, mask, base_sum, gj, n, workers):
    return tuple(odds._tallies(copies, s, mask, base_sum, gj, n, True, workers) for s in sizes)


@pytest.mark.parametrize(
    "copies,n,rules_name",
    [(copies_for(1), 3, name) for name in RULES]
    + [
        ([2] * 11 + [2] * 10, 3, "advanced"),  # military tiles doubled: military eyes
        ([1] * 21, 3, "advanced"),  # no eye of a single copy at all
        (ODD_SUPPLY, 4, "advanced"),
        (ODD_SUPPLY, 4, "general_eyes+basic"),
    ],
)
def test_distance_tables_match_direct_search(copies, n, rules_name):
    _, mask, base_sum, gj = c_rules(RULES[rules_name])
    sizes = (2 * n + 2, 2 * n + 1)
    want = _direct(copies, sizes, mask, base_sum, gj, n, 2)
    for workers in (1, 2):
        got = odds._hand_tallies(copies, *sizes, mask, base_sum, gj, n, True, workers)
        assert got == want


@pytest.mark.slow
@pytest.mark.skipif(SLOW_SCALE < 1, reason="full-size check: set KAPTAI_SLOW_SCALE=1")
@pytest.mark.parametrize("sets,rules_name", [(2, "advanced"), (3, "advanced-gj3")])
def test_distance_tables_match_direct_search_full_size(sets, rules_name):
    _, mask, base_sum, gj = c_rules(RULES[rules_name])
    copies = copies_for(sets)
    want = _direct(copies, (10, 9), mask, base_sum, gj, 4, None)
    assert odds._hand_tallies(copies, 10, 9, mask, base_sum, gj, 4, True) == want


def test_table_arguments_are_checked():
    _, mask, base_sum, gj = c_rules("advanced")
    copies = copies_for(1)
    below = odds._overlap_table(copies, 6, mask, base_sum, gj, 3, 1)
    good = np.zeros(_eval._canonical_count(copies, 7), dtype=np.uint8)
    with pytest.raises(ValueError, match="prev has"):
        _eval._deal_tables(copies, 7, mask, base_sum, gj, 3, True, (), below[:-1])
    with pytest.raises(ValueError, match="needs distance=True"):
        _eval._deal_tables(copies, 7, mask, base_sum, gj, 3, False, (), below)
    with pytest.raises(ValueError, match="out has"):
        _eval._deal_tables(copies, 7, mask, base_sum, gj, 3, True, (), below, good[:-1])
    with pytest.raises(ValueError, match="out is written for the other hands"):
        _eval._deal_tables(copies, 8, mask, base_sum, gj, 3, True, (), good, np.zeros(10, np.uint8))
    with pytest.raises(ValueError, match="2n\\+1 or 2n\\+2"):
        _eval._deal_tables(copies, 6, mask, base_sum, gj, 3, True, (), below)
    with pytest.raises(ValueError, match="same copies"):
        _eval._canonical_count([2] * 8 + [1] + [2] * 12, 5)
    with pytest.raises(ValueError, match="out has"):
        _eval._overlap_table(copies, 6, mask, base_sum, gj, 3, (), good)
    # a table walk covers only its prefix slice; together the slices fill it
    table = np.full(len(below), 255, dtype=np.uint8)
    for p in odds._prefixes(copies, 6):
        _eval._overlap_table(copies, 6, mask, base_sum, gj, 3, p, table)
    assert (table == below).all()
