"""The search salt of nine-ten (``EngineConfig.search_salt``, docs/nine-ten-engine.md "The layout
stream") and its use by the duplicate league (:func:`kaptai.nineten.atlas.deal_rows`):

* with a salt the compiled and the reference search still make the same choices, move for move;
* salt 0 is the seed of the specification before the salt (three terms), and a salt changes the play;
* every deal of a league chunk has its own salt, the same in every arrangement of the deal.
"""

from __future__ import annotations

import numpy as np
import pytest

import kaptai.nineten.atlas as atlas
from kaptai.core.atlas import AtlasVariant
from kaptai.core.runner import plan_chunks
from kaptai.errors import RulesError
from kaptai.nineten import engine_reference as er
from kaptai.nineten.config import make_config
from kaptai.nineten.engine import run_hands
from tests.nineten.test_search import _same

pytest.importorskip("kaptai.nineten._engine")

_M64 = (1 << 64) - 1


def _unsalted_seed(hand: int, decision: int, p: int, salt: int = 0) -> int:
    """The seed as the specification gave it before the salt."""
    return ((hand * 0x9E3779B97F4A7C15) & _M64) ^ ((decision * 0xBF58476D1CE4E5B9) & _M64) ^ p


def test_compiled_equals_reference_with_a_salt():
    _same(make_config(4, samples=3, search_salt=0xDEADBEEF12345678), 6, 2026, "search")
    _same(make_config(5, samples=2, search_salt=(1 << 64) - 1), 3, 7,
          ["search", "colour_cut", "random", "search", "live_first"])


def test_salt_zero_is_the_unsalted_stream_and_a_salt_changes_the_play(monkeypatch):
    cfg = make_config(4, samples=2, search_z=0.0)  # the best mean: the layouts decide most choices
    assert cfg.search_salt == 0
    o0, l0 = run_hands(cfg, 8, np.random.PCG64(11), "search", record=8, engine="compiled")
    with monkeypatch.context() as mp:
        mp.setattr(er, "_search_seed", _unsalted_seed)
        o1, l1 = run_hands(cfg, 8, np.random.PCG64(11), "search", record=8, engine="reference")
    np.testing.assert_array_equal(l0, l1)
    salted = make_config(4, samples=2, search_z=0.0, search_salt=1)
    o2, l2 = run_hands(salted, 8, np.random.PCG64(11), "search", record=8, engine="compiled")
    assert l2.shape != l0.shape or not np.array_equal(l2, l0)


def test_make_config_checks_the_salt():
    assert make_config(4, search_salt=np.uint64(2**63)).search_salt == 2**63
    for bad in (-1, 1 << 64, 1.5, True, "3"):
        with pytest.raises(RulesError, match="search_salt"):
            make_config(4, search_salt=bad)


def _spy_salts(monkeypatch):
    """(arrangement-free) list of (pols, salt) per engine run of deal_rows."""
    seen: list[tuple[tuple, int]] = []
    real_deal, real_run = atlas._deal_hand, atlas.run_hands

    def deal_spy(cfg, pols, *a, **k):
        seen.append((tuple(pols), cfg.search_salt))
        return real_deal(cfg, pols, *a, **k)

    def run_spy(cfg, hands, bg, pols, **k):
        seen.append((tuple(pols), cfg.search_salt))
        return real_run(cfg, hands, bg, pols, **k)

    monkeypatch.setattr(atlas, "_deal_hand", deal_spy)
    monkeypatch.setattr(atlas, "run_hands", run_spy)
    return seen


@pytest.mark.parametrize("variant", [atlas.VARIANTS[0], AtlasVariant("winner", (("next_dealer", "winner"),), 4, "")])
def test_each_deal_has_its_own_salt_the_same_in_every_arrangement(monkeypatch, variant):
    seen = _spy_salts(monkeypatch)
    chunk = plan_chunks(5, 5, 3)[0]
    arrs = [("colour_cut",) * 4, ("random", "colour_cut", "live_first", "colour_cut")]
    a, b = atlas.deal_rows(variant, arrs, chunk, log=True)
    assert len(seen) == 10
    salts = [[s for _, s in seen[:5]], [s for _, s in seen[5:]]]
    assert salts[0] == salts[1]  # a deal's salt does not depend on the arrangement
    assert len(set(salts[0])) == 5 and 0 not in salts[0]  # every deal its own
    assert np.array_equal(a["deal"], b["deal"])  # and the deals stay duplicate
    assert atlas.deal_rows.version == 3


def test_search_deals_sample_their_own_layouts(monkeypatch):
    """Two deals of a chunk played by the search read different layout streams (before the salt,
    every deal was hand 0 of its own run and its decision d at seat p had the same seed)."""
    from kaptai.nineten.policies import Policy

    class First(Policy):
        def discard(self, view):
            return view.options[0]

    seen: list[tuple[int, int, int, int]] = []
    real = er._search_seed

    def spy(hand, decision, p, salt=0):
        seen.append((salt, decision, p, real(hand, decision, p, salt)))
        return seen[-1][3]

    monkeypatch.setattr(er, "_search_seed", spy)
    monkeypatch.setattr(atlas, "variant_config", lambda v: make_config(4, samples=1))
    # a user policy sends the deals to the reference engine, where the spy reads the seeds
    atlas.deal_rows(atlas.VARIANTS[0], [("search", First(), "search", First())], plan_chunks(4, 4, 5)[0])
    by_salt: dict[int, dict[tuple[int, int], int]] = {}
    for salt, d, p, seed in seen:
        by_salt.setdefault(salt, {})[(d, p)] = seed
    assert len(by_salt) >= 2, list(by_salt)  # deals with a search decision (not every deal has one)
    firsts = [min(x.items()) for x in by_salt.values()]  # each deal's first search decision ...
    assert all(d == 1 for (d, _), _ in firsts)
    seeds = [seed for _, seed in firsts]
    same_seat = [seed for key, seed in firsts if key == firsts[0][0]]
    # ... on its own seed, also where the same seat decided (the same seed without the salt)
    assert len(set(seeds)) == len(seeds) and len(same_seat) >= 2
