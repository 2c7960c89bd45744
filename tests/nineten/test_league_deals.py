"""Nine-ten's duplicate-league deals (:func:`kaptai.nineten.atlas.deal_rows`): every deal is
played on its own stream, so a deal's rows do not depend on the deals played before it."""

from __future__ import annotations

from types import SimpleNamespace

import numpy as np
import pytest

import kaptai.core.league as league
from kaptai.core.atlas import AtlasVariant
from kaptai.core.runner import plan_chunks
from kaptai.nineten.atlas import VARIANTS, deal_rows

# random draws at every decision, so a shared stream would shift every later deal
ARRANGEMENTS = [
    ("colour_cut",) * 4,
    ("random", "colour_cut", "colour_cut", "colour_cut"),
    ("colour_cut", "live_first", "random", "colour_cut"),
    ("random",) * 4,
]


def _play(monkeypatch, chunk, order, variant=VARIANTS[0]):
    """deal_rows on the chunk's deals ``order`` (indices into its deals) as if they were a chunk."""
    seeds = league.deal_seeds(chunk)
    with monkeypatch.context() as mp:
        mp.setattr(league, "deal_seeds", lambda c: [seeds[i] for i in order])
        return deal_rows(variant, ARRANGEMENTS, SimpleNamespace(seed=chunk.seed, size=len(order)), log=True)


def _same(a, b, ia, ib):
    for x, y in zip(a, b):
        for k in ("net", "win", "deal"):
            assert np.array_equal(x[k][ia], y[k][ib]), k


def test_a_deal_alone_plays_as_in_its_chunk(monkeypatch):
    chunk = plan_chunks(8, 8, 21)[0]
    whole = deal_rows(VARIANTS[0], ARRANGEMENTS, chunk, log=True)
    assert len(set(whole[0]["deal"].tolist())) == 8
    # deals 0 and 4 are dealt by seat 0, as the one deal of a chunk of one
    for i in (0, 4):
        _same(_play(monkeypatch, chunk, [i]), whole, [0], [i])


def test_the_deals_in_another_order_play_the_same(monkeypatch):
    """Played in the order 4..7, 0..3 (each deal keeps its dealer, i mod 4), every deal has the
    same rows under every arrangement: nothing carries from one deal to the next."""
    chunk = plan_chunks(8, 8, 22)[0]
    whole = deal_rows(VARIANTS[0], ARRANGEMENTS, chunk, log=True)
    order = [4, 5, 6, 7, 0, 1, 2, 3]
    _same(_play(monkeypatch, chunk, order), whole, list(range(8)), order)
    # and the arrangements did play differently
    assert any(not np.array_equal(whole[0]["net"], w["net"]) for w in whole[1:])


def _natural_at(monkeypatch, at):
    """Deal ``at``'s deck gives its dealer five pairs (cards 4k, 4k+1 are two copies of kind k)."""
    real = league.chunk_decks
    head = [0, 1, 4, 5, 8, 9, 12, 13, 16, 17]

    def decks(chunk, cards, extra=0):
        d = real(chunk, cards, extra).copy()
        d[at] = head + [c for c in d[at].tolist() if c not in head]
        return d

    monkeypatch.setattr(league, "chunk_decks", decks)


@pytest.mark.parametrize("at", [1, 2, 7])
def test_deal_i_is_dealt_by_seat_i_mod_n(monkeypatch, at):
    """A dealer natural (default rules: a self-draw win) is won by physical seat ``at mod 4``."""
    _natural_at(monkeypatch, at)
    outs = deal_rows(VARIANTS[0], ARRANGEMENTS, plan_chunks(8, 8, 23)[0])
    for o in outs:
        assert o["win"][at].tolist() == [1.0 if s == at % 4 else 0.0 for s in range(4)]
        assert o["net"][at, at % 4] > 0 and o["net"][at].sum() == 0


def test_a_redealt_natural_takes_the_deals_own_spare_deck(monkeypatch):
    _natural_at(monkeypatch, 0)
    v = AtlasVariant("redeal", (("natural", "redeal"),), 4, "a dealer natural is redealt")
    chunk = plan_chunks(3, 3, 25)[0]
    outs = deal_rows(v, ARRANGEMENTS, chunk, log=True)
    for o in outs[1:]:
        assert np.array_equal(o["deal"], outs[0]["deal"])
    # under the default rules the natural wins; redealt, deal 0 is another deal, the rest untouched
    std = deal_rows(VARIANTS[0], ARRANGEMENTS[:1], chunk, log=True)[0]
    assert std["win"][0, 0] == 1.0 and std["deal"][0] != outs[0]["deal"][0]
    assert np.array_equal(std["deal"][1:], outs[0]["deal"][1:])


def test_a_league_checkpoint_of_one_stream_a_chunk_is_refused(tmp_path):
    """League checkpoints record deal_rows.version (2: one stream a deal; 3: salted search layouts);
    one made before is refused."""
    import json

    from kaptai.core.runner import MANIFEST, CheckpointError
    from kaptai.league import policy_league

    args = dict(players=4, hands=16, seed=3, policies=("colour_cut", "random"), progress=False,
                checkpoint=tmp_path / "ck")
    first = policy_league("nine-ten", **args)
    assert first.equals(policy_league("nine-ten", **args))  # today's checkpoint resumes
    manifest = json.loads((tmp_path / "ck" / MANIFEST).read_text())
    jobs = manifest["fingerprint"]["jobs"]
    assert all(j["deal_rows_version"] == deal_rows.version == 3 for j in jobs)
    for j in jobs:
        del j["deal_rows_version"]  # the fingerprint before e6692a7
    (tmp_path / "ck" / MANIFEST).write_text(json.dumps(manifest))
    with pytest.raises(CheckpointError, match="made by a different job; differing parameters: jobs"):
        policy_league("nine-ten", **args)
