"""Big Two checkpoint fingerprints (:meth:`kaptai.bigtwo.config.EngineConfig.fingerprint`) name the
players that played: the ``search`` settings as resolved and the built-in policies' version, so a
checkpoint of players that have since changed is refused, not merged."""

from __future__ import annotations

import json

import pytest

from kaptai.bigtwo.config import POLICY_VERSION, SEARCH_INFER, SEARCH_POOL, SEARCH_SAMPLES, make_config
from kaptai.bigtwo.simulate import simulate
from kaptai.core.runner import MANIFEST, CheckpointError

WTA = {"settlement": "winner_takes_all"}


@pytest.mark.parametrize("rules", [None, WTA])
def test_auto_rollout_is_recorded_as_resolved(rules):
    fp = make_config(4, rules).fingerprint()
    assert fp["search"] == {"samples": SEARCH_SAMPLES, "rollout": "contest", "infer": SEARCH_INFER,
                            "pool": SEARCH_POOL}
    # another importance-resampling pool is another player
    assert make_config(4, rules, search_pool=SEARCH_POOL + 1).fingerprint() != fp
    assert fp["policy_version"] == POLICY_VERSION
    # an explicit heuristic or greedy rollout is another player, whatever the default
    assert make_config(4, rules, search_rollout="heuristic").fingerprint() != fp
    assert make_config(4, rules, search_rollout="greedy").fingerprint() != fp
    assert make_config(4, rules, search_rollout="contest").fingerprint() == fp


def test_a_checkpoint_of_the_old_default_rollout_is_refused(tmp_path):
    """Under winner_takes_all 'auto' once meant heuristic rollouts, and the fingerprint (which left
    out settings equal to their default) read the same as today's: such a checkpoint is refused."""
    ck = tmp_path / "ck"
    args = dict(games=3, seed=1, policies=["search", "greedy", "greedy", "greedy"], progress=False, checkpoint=ck)
    first = simulate(4, WTA, **args)
    again = simulate(4, WTA, **args)  # today's checkpoint resumes
    assert first.equals(again)
    manifest = json.loads((ck / MANIFEST).read_text())
    old = dict(manifest["fingerprint"])
    del old["search"], old["policy_version"]  # what the fingerprint was before (d6ca180 and earlier)
    (ck / MANIFEST).write_text(json.dumps({**manifest, "fingerprint": old}))
    with pytest.raises(CheckpointError, match=rf"made by a different job.*policy_version: absent in the checkpoint, "
                                              rf"{POLICY_VERSION} now.*search: absent in the checkpoint"):
        simulate(4, WTA, **args)


def test_league_checkpoints_record_the_players_version(tmp_path):
    from kaptai.league import policy_league

    policy_league("big-two", players=4, hands=8, seed=1, policies=("greedy", "random"), progress=False,
                  checkpoint=tmp_path / "ck")
    jobs = json.loads((tmp_path / "ck" / MANIFEST).read_text())["fingerprint"]["jobs"]
    assert jobs and all(j["deal_rows_version"] == POLICY_VERSION for j in jobs)
