"""Compiled Big Two engine against the pure-Python reference engine, move for move.

Both implement ``docs/big-two-engine.md``; from the same ``PCG64`` stream (or the same
decks) and the same policies they must return identical outcome arrays and identical logs.
"""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from kaptai.bigtwo import _engine
from kaptai.bigtwo import engine_reference as reference
from kaptai.bigtwo.config import POLICY_CODES, POLICY_NAMES, make_config
from kaptai.bigtwo.policies import plan
from kaptai.bigtwo.rules import OPTION_VALUES

from ..conftest import SLOW_SCALE as SCALE  # KAPTAI_SLOW_SCALE, default in tests/conftest.py

#: The heuristic policies (``search`` is compared move for move in test_search.py, at small budgets).
PLAIN = tuple(p for p in POLICY_NAMES if p != "search")


def compare(cfg, policies, seed, games, decks=None):
    """Run both engines; assert equal outcomes and logs (naming the first difference)."""
    if isinstance(policies, str):
        policies = [policies] * cfg.players
    codes = [POLICY_CODES[p] for p in policies]
    a, la = _engine.run_hands(cfg, codes, np.random.PCG64(seed), games, record=games, decks=decks)
    b, lb = reference.run_hands(cfg, policies, np.random.PCG64(seed), games, record=games, decks=decks)
    for key in b:
        assert a[key].dtype == b[key].dtype and a[key].shape == b[key].shape, key
    for i in range(min(len(la), len(lb))):
        assert la[i].tolist() == lb[i].tolist(), f"log row {i}: compiled {la[i].tolist()} reference {lb[i].tolist()}"
    assert la.shape == lb.shape
    for key in b:
        assert np.array_equal(a[key], b[key]), key
    return a


CASES = [
    (4, {}, "policy"),
    (2, {}, "policy"),
    (3, {}, "policy"),
    (5, {}, "policy"),
    (7, {}, "policy"),
    (13, {}, "policy"),
    (3, {"malaysian_3p": True}, "policy"),
    (3, {"malaysian_3p": True}, "never"),
    (3, {"malaysian_3p": True}, "always"),
    (3, {"malaysian_3p": True, "first_lead": "previous_winner", "suit_order": "taiwan"}, "policy"),
    (4, {"pass_only_if_unable": True}, "policy"),
    (4, {"pass_locks_out": True}, "policy"),
    (6, {"pass_locks_out": True, "pass_only_if_unable": True}, "policy"),
    (4, {"top_rule": "mandatory"}, "policy"),
    (4, {"top_rule": "off"}, "policy"),
    (3, {"top_rule": "mandatory", "pass_locks_out": True}, "policy"),
    (4, {"instant_dragon": True, "instant_four_twos": True}, "policy"),
    (13, {"instant_four_twos": True}, "policy"),
    (4, {"redeal": "hk_max10"}, "policy"),
    (4, {"redeal": "literal_min10"}, "policy"),
    (5, {"redeal": "off"}, "policy"),
    (4, {"first_lead": "previous_winner"}, "policy"),
    (4, {"first_lead": "previous_winner", "opening_must_include_lowest": False}, "policy"),
    (4, {"four_card_play": "quad"}, "policy"),
    (4, {"four_card_play": "quad_or_two_pair"}, "policy"),
    (4, {"quad_kicker": "optional"}, "policy"),
    (4, {"two_pair_five": True}, "policy"),
    (4, {"straight_order": "sequential"}, "policy"),
    (4, {"straight_order": "poker", "straight_suit_card": "sequence_top"}, "policy"),
    (4, {"straight_order": "wheel_top", "flush_compare": "suit_first"}, "policy"),
    (4, {"straight_order": "broadway_top"}, "policy"),
    (4, {"suit_order": "taiwan"}, "policy"),
    (4, {"top_rank": "3"}, "policy"),
    (6, {"top_rank": "A", "suit_order": "taiwan"}, "policy"),
    (2, {"top_rule": "mandatory", "two_pair_five": True}, "policy"),
    (8, {"pass_locks_out": True}, "policy"),
    (30, {"top_rule": "mandatory"}, "policy"),
    (30, {"top_rule": "liability"}, "policy"),
    (52, {}, "policy"),
]


def _id(case):
    players, options, swap = case
    text = ",".join(f"{k}={v}" for k, v in options.items()) or "defaults"
    return f"{players}p-{text}" + ("" if swap == "policy" else f"-swap={swap}")


@pytest.mark.parametrize("case", CASES, ids=_id)
@pytest.mark.parametrize("policy", [*PLAIN, "mixed"])
def test_compiled_matches_reference(case, policy):
    players, options, swap = case
    cfg = make_config(players, options, malaysian_swap=swap)
    policies = [POLICY_NAMES[(s + 1) % 3] for s in range(players)] if policy == "mixed" else policy
    # 6 games at KAPTAI_SLOW_SCALE=1, at least 2 (a second game of the session) below
    compare(cfg, policies, seed=players + 100 * len(options), games=max(2, round(6 * min(1.0, SCALE))))


@pytest.mark.slow
@pytest.mark.parametrize("case", CASES[:24], ids=_id)
@pytest.mark.parametrize("policy", PLAIN)
def test_compiled_matches_reference_many_seeds(case, policy):
    players, options, swap = case
    cfg = make_config(players, options, malaysian_swap=swap)
    for seed in range(max(1, int(6 * SCALE))):
        compare(cfg, policy, seed=1000 + seed, games=8)


def test_constructed_decks_match():
    """The same decks in both engines (leftover of the lowest card, Malaysian cases, redeals)."""
    for players, options, swap in [(3, {}, "policy"), (3, {"malaysian_3p": True}, "policy"),
                                   (3, {"malaysian_3p": True}, "never"), (4, {"redeal": "hk_max10"}, "policy")]:
        cfg = make_config(players, options, malaysian_swap=swap)
        rng = np.random.default_rng(players)
        decks = [rng.permutation(52) for _ in range(40)]
        decks[0] = np.r_[np.arange(1, 52), 0]  # the lowest card is the leftover
        for policy in ("greedy", "heuristic"):
            compare(cfg, policy, seed=0, games=5, decks=np.array(decks))


@pytest.mark.parametrize("options", [
    {}, {"four_card_play": "quad"}, {"quad_kicker": "optional", "top_rank": "A"},
    {"straight_order": "sequential", "suit_order": "taiwan"}, {"straight_order": "poker"},
    {"straight_order": "broadway_top", "top_rank": "3"},
])
def test_heuristic_plan_matches_reference(options):
    cfg = make_config(4, options)
    rng = np.random.default_rng(3)
    for trial in range(300):
        size = int(rng.choice([4, 8, 13, 17, 26]))
        pool = 52 if trial % 2 else 24
        hand = sum(1 << int(c) for c in rng.choice(pool, min(size, pool), replace=False))
        want = [sum(1 << c for c in u.cards) for u in plan(hand, cfg.rules)]
        assert _engine._plan(cfg, hand) == want


_CHOICE_OPTIONS = {k: v for k, v in OPTION_VALUES.items() if k in (
    "suit_order", "first_lead", "straight_order", "straight_suit_card", "flush_compare", "quad_kicker",
    "four_card_play", "top_rule", "redeal")}


@st.composite
def tables(draw):
    players = draw(st.sampled_from([2, 3, 3, 4, 4, 4, 5, 6, 8, 13]))
    options = {k: draw(st.sampled_from(v)) for k, v in _CHOICE_OPTIONS.items()}
    for k in ("pass_only_if_unable", "pass_locks_out", "instant_dragon", "instant_four_twos",
              "two_pair_five", "opening_must_include_lowest"):
        options[k] = draw(st.booleans())
    options["top_rank"] = draw(st.sampled_from("3456789TJQKA2"))
    if options["four_card_play"] != "none":
        options["quad_kicker"] = "required"
    swap = "policy"
    if players == 3 and draw(st.booleans()):
        options["malaysian_3p"] = True
        swap = draw(st.sampled_from(["policy", "always", "never"]))
    policies = [draw(st.sampled_from(PLAIN)) for _ in range(players)]
    return make_config(players, options, malaysian_swap=swap), policies


@settings(max_examples=max(25, int(100 * SCALE)))  # 100 tables at KAPTAI_SLOW_SCALE=1
@given(table=tables(), seed=st.integers(0, 2**32 - 1))
def test_compiled_matches_reference_random_tables(table, seed):
    cfg, policies = table
    compare(cfg, policies, seed=seed, games=3)
