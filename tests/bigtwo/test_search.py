"""The ``search`` policy (docs/big-two-engine.md, "search"): compiled against the reference.

The compiled engine (rollouts in C, nogil) and the pure-Python reference engine
(:func:`kaptai.bigtwo.engine_reference.search_values`, rollouts by the reference ``Game``)
must draw the same layouts from the same stream and make the same choices: whole games of
``search`` players are compared log row by log row (>= 200 search decisions with two or
more options in all), and positions are compared candidate by candidate (the sums of the
net, of its square and of the wins over the layouts).
"""

from __future__ import annotations

import hashlib

import numpy as np
import pytest

from kaptai.bigtwo import _engine
from kaptai.bigtwo import engine_reference as reference
from kaptai.bigtwo.cards import cards_to_mask, parse_cards
from kaptai.bigtwo.config import POLICY_CODES, POLICY_NAMES, SEARCH_INFER, SEARCH_POOL, SEARCH_SAMPLES, make_config
from kaptai.bigtwo.engine import run_hands
from kaptai.bigtwo.policies import SearchPolicy, search_layouts
from kaptai.core.sampling import RandomStream
from kaptai.errors import RulesError


class CountingSearch(SearchPolicy):
    """The reference search, counting its decisions with two or more options."""

    def __init__(self, samples, rollout, counter, infer=4, pool=1):
        super().__init__(samples, rollout, infer, pool)
        self.counter = counter

    def choose(self, view):
        if len(view.options) + int(view.can_pass) >= 2:
            self.counter[0] += 1
        return super().choose(view)


#: (players, rule options, samples, games, seats playing search ('s') or another policy)
GAME_CASES = [
    (4, {}, 1, 4, "ssss"),
    (4, {}, 2, 1, "sgsh"),
    (3, {"malaysian_3p": True}, 1, 1, "sss"),
    (4, {"settlement": "winner_takes_all", "rollout": "heuristic"}, 1, 1, "ssss"),  # heuristic rollouts
    (4, {"rollout": "greedy"}, 1, 1, "sgss"),  # greedy rollouts (the default until POLICY_VERSION 6)
    (4, {"scoring": "points", "winner_bonus": 5, "chao": "eight"}, 1, 1, "sgsg"),
    (4, {"pass_locks_out": True, "top_rule": "mandatory"}, 1, 1, "ssgs"),
    (5, {"pass_only_if_unable": True, "four_card_play": "quad"}, 1, 1, "sgsgs"),
    # several layouts: the inference weights differ between layouts (styles, history replays)
    (4, {"straight_order": "sequential", "four_card_play": "quad_or_two_pair", "top_rule": "off"}, 3, 1, "gsrh"),
]
_OTHER = {"s": "search", "g": "greedy", "h": "heuristic", "r": "random"}


@pytest.mark.parametrize("pool", sorted({SEARCH_POOL, 3}))
def test_search_games_match_reference(pool):
    """Whole games: the same log and outcomes from both engines, >= 200 search decisions, at the
    default ``search_pool`` and with importance resampling (pool 3: step 4b)."""
    counter = [0]
    for players, options, samples, games, seats in GAME_CASES:
        rules = {k: v for k, v in options.items() if k != "rollout"}
        cfg = make_config(players, rules, search_samples=samples, search_rollout=options.get("rollout", "auto"),
                          search_pool=pool)
        names = [_OTHER[c] for c in seats]
        objs = [CountingSearch(samples, cfg.search_rollout, counter, cfg.search_infer, pool) if n == "search" else n
                for n in names]
        seed = 11 * players + len(options)
        a, la = _engine.run_hands(cfg, [POLICY_CODES[n] for n in names], np.random.PCG64(seed), games, record=games)
        b, lb = reference.run_hands(cfg, objs, np.random.PCG64(seed), games, record=games)
        for i in range(min(len(la), len(lb))):
            assert la[i].tolist() == lb[i].tolist(), (options, f"log row {i}", la[i].tolist(), lb[i].tolist())
        assert la.shape == lb.shape
        for key in b:
            assert np.array_equal(a[key], b[key]), (options, key)
    assert counter[0] >= 200, counter[0]


def test_compiled_rollouts_in_the_reference_engine_make_the_same_games():
    """``engine_reference.compiled_rollouts()`` (what ``kaptai play`` turns on: a person's table
    runs the reference engine) hands a search seat's values to the compiled twin
    (``_engine.search_position``) on the game's own stream: the same logs and outcomes as the
    compiled engine, game for game, with and without the history's inference and resampling."""
    counter = [0]
    for players, options, samples, games, seats in GAME_CASES:
        rules = {k: v for k, v in options.items() if k != "rollout"}
        cfg = make_config(players, rules, search_samples=max(samples, 2),
                          search_rollout=options.get("rollout", "auto"))
        names = [_OTHER[c] for c in seats]
        objs = [CountingSearch(cfg.search_samples, cfg.search_rollout, counter, cfg.search_infer, cfg.search_pool)
                if n == "search" else n for n in names]
        seed = 13 * players + len(options)
        a, la = _engine.run_hands(cfg, [POLICY_CODES[n] for n in names], np.random.PCG64(seed), games, record=games)
        with reference.compiled_rollouts():
            b, lb = reference.run_hands(cfg, objs, np.random.PCG64(seed), games, record=games)
        assert not reference.compiled_rollouts
        assert la.shape == lb.shape and np.array_equal(la, lb), options
        for key in b:
            assert np.array_equal(a[key], b[key]), (options, key)
    assert counter[0] >= 200, counter[0]


def _positions(cfg, seed, count, players="greedy"):
    """Views of the positions met by ``players`` (every 5th turn), from the reference Game."""
    stream = RandomStream(np.random.PCG64(seed))
    out = []
    g = reference.Game(cfg, players, stream)
    turn = 0
    while len(out) < count:
        if g.over:
            g = reference.Game(cfg, players, stream)
            continue
        v = g.view()
        if (len(v.options) + int(v.can_pass) >= 2) and turn % 5 == 0:
            out.append(v)
        turn += 1
        g.step()
    return out


@pytest.mark.parametrize("players,options", [
    (4, {}),
    (4, {"settlement": "winner_takes_all", "winner_bonus": 10}),
    (3, {"scoring": "points", "points_chao": True}),
    (4, {"top_rule": "liability", "chao": "8/11/13", "stake": 2.5}),
])
def test_search_position_matches_reference(players, options):
    """Positions: every candidate's sums over the same layouts agree exactly."""
    cfg = make_config(players, options)
    for i, v in enumerate(_positions(cfg, 5 + players, 4)):
        seed = 100 + i
        must = 0 if v.opening_card is None else 1 << v.opening_card
        cands, sums, sqs, wins = _engine.search_position(
            cfg, v.seat, v.cards_left, v.hand_mask, played=v.played, dead=v.dead, trick=v.trick_mask or 0,
            trick_seat=v.trick_seat, passes=v.passes, locked=v.locked or None, must=must, violator=v.violator,
            turns=v.turn, bit_generator=np.random.PCG64(seed), samples=3,
        )
        view = reference.make_view(
            v.hand_mask, cfg.rules, trick=v.trick_mask, seat=v.seat, cards_left=v.cards_left, played=v.played,
            dead=v.dead, opening_card=v.opening_card, trick_seat=v.trick_seat, turn=v.turn,
            rng=RandomStream(np.random.PCG64(seed)), passes=v.passes, locked=v.locked, violator=v.violator,
        )
        rc, rs, rq, rw = reference.search_values(view, 3, cfg.search_rollout, cfg.search_infer, cfg.search_pool)
        assert [0 if c is None else c for c in rc] == cands.tolist()
        assert rs == sums.tolist() and rq == sqs.tolist() and rw == wins.tolist()


@pytest.mark.parametrize("players,options", [
    (4, {}),
    (4, {"straight_order": "sequential", "four_card_play": "quad_or_two_pair", "top_rule": "off"}),
    (3, {"malaysian_3p": True, "pass_only_if_unable": True}),
])
def test_inference_matches_reference(players, options):
    """Positions with a history: the layouts, styles, inference weights and effective sample
    size, and every candidate's weighted sums, agree exactly; some weights differ."""
    cfg = make_config(players, options)
    uneven = 0
    seats = ["greedy", "heuristic", "random", "greedy"][:players]
    for i, v in enumerate(_positions(cfg, 40 + players, 5, seats)):
        if not v.history:   # the first turn of a game
            continue
        seed = 300 + i
        hl, hs, hw, hess = _engine.search_layouts(cfg, v.seat, v.cards_left, v.hand_mask, played=v.played,
                                                  dead=v.dead, history=v.history,
                                                  bit_generator=np.random.PCG64(seed), samples=12)
        view = reference.make_view(
            v.hand_mask, cfg.rules, trick=v.trick_mask, seat=v.seat, cards_left=v.cards_left, played=v.played,
            dead=v.dead, opening_card=v.opening_card, trick_seat=v.trick_seat, turn=v.turn,
            rng=RandomStream(np.random.PCG64(seed)), passes=v.passes, locked=v.locked, violator=v.violator,
            history=v.history,
        )
        rl, rs_, rw, ress = search_layouts(view, 12, cfg.search_infer, cfg.search_pool)
        assert hl.tolist() == rl and hs.tolist() == rs_ and hw.tolist() == rw
        assert hess == pytest.approx(ress, rel=1e-12)
        uneven += len(set(rw)) > 1 or (cfg.search_pool > 1 and len(set(map(tuple, rl))) < len(rl))
        if i % 2 == 0:
            must = 0 if v.opening_card is None else 1 << v.opening_card
            cands, sums, sqs, wins = _engine.search_position(
                cfg, v.seat, v.cards_left, v.hand_mask, played=v.played, dead=v.dead, trick=v.trick_mask or 0,
                trick_seat=v.trick_seat, passes=v.passes, locked=v.locked or None, must=must,
                violator=v.violator, turns=v.turn, bit_generator=np.random.PCG64(seed), samples=4,
                history=v.history,
            )
            view2 = reference.make_view(
                v.hand_mask, cfg.rules, trick=v.trick_mask, seat=v.seat, cards_left=v.cards_left,
                played=v.played, dead=v.dead, opening_card=v.opening_card, trick_seat=v.trick_seat, turn=v.turn,
                rng=RandomStream(np.random.PCG64(seed)), passes=v.passes, locked=v.locked,
                violator=v.violator, history=v.history,
            )
            rc, rsum, rq, rwin = reference.search_values(view2, 4, cfg.search_rollout, cfg.search_infer,
                                                         cfg.search_pool)
            assert [0 if c is None else c for c in rc] == cands.tolist()
            assert rsum == sums.tolist() and rq == sqs.tolist() and rwin == wins.tolist()
    assert uneven >= 1


@pytest.mark.parametrize("players,options", [
    (4, {}),
    (4, {"straight_order": "sequential", "four_card_play": "quad_or_two_pair", "top_rule": "off",
         "settlement": "winner_takes_all"}),
])
def test_resampled_layouts_match_reference_and_follow_the_weights(players, options):
    """Step 4b: with ``search_pool=4`` both engines pick the same S = 6 of the 24 weighted pool
    layouts (the first 24 draws of the stream: those of ``search_pool=1, samples=24``), every
    pick weighs 1, the effective sample size is the pool's, and systematic resampling picks
    pool layout i floor or ceil of ``S * w_i / Σw`` times."""
    cfg = make_config(players, options, search_pool=4)
    flat = make_config(players, options, search_pool=1)
    seats = ["greedy", "heuristic", "random", "greedy"][:players]
    uneven = 0
    for i, v in enumerate(_positions(flat, 60 + players, 6, seats)):
        if not v.history:
            continue
        seed = 500 + i
        kw = dict(played=v.played, dead=v.dead, history=v.history)
        hl, hs, hw, hess = _engine.search_layouts(cfg, v.seat, v.cards_left, v.hand_mask,
                                                  bit_generator=np.random.PCG64(seed), samples=6, **kw)
        pl, ps, pw, pess = _engine.search_layouts(flat, v.seat, v.cards_left, v.hand_mask,
                                                  bit_generator=np.random.PCG64(seed), samples=24, **kw)
        view = reference.make_view(
            v.hand_mask, cfg.rules, trick=v.trick_mask, seat=v.seat, cards_left=v.cards_left, played=v.played,
            dead=v.dead, opening_card=v.opening_card, trick_seat=v.trick_seat, turn=v.turn,
            rng=RandomStream(np.random.PCG64(seed)), passes=v.passes, locked=v.locked, violator=v.violator,
            history=v.history,
        )
        rl, rs_, rw, ress = search_layouts(view, 6, cfg.search_infer, 4)
        assert hl.tolist() == rl and hs.tolist() == rs_ and hw.tolist() == rw == [1] * 6
        assert hess == pytest.approx(ress, rel=1e-12) and hess == pytest.approx(pess, rel=1e-12)
        rows = [tuple(r) + tuple(t) for r, t in zip(pl.tolist(), ps.tolist())]
        picks = [rows.index(tuple(r) + tuple(t)) for r, t in zip(hl.tolist(), hs.tolist())]
        W = int(pw.sum())
        for j, wj in enumerate(pw.tolist()):
            n = sum(rows[k] == rows[j] for k in picks)   # equal rows: count by value
            lo = sum(6 * w // W for k, w in enumerate(pw.tolist()) if rows[k] == rows[j])
            assert lo <= n <= lo + sum(1 for k in range(24) if rows[k] == rows[j]), (j, wj, n)
        uneven += len(set(pw.tolist())) > 1
    assert uneven >= 1


def test_pool_one_keeps_the_streams():
    """``search_pool=1`` is the search before step 4b existed: logs of four search seats
    (S = 8, histories and inference at every decision) hash as they did before it (4 games a rule
    set, recorded with the engine of commit 0985d42)."""
    outside = {"straight_order": "sequential", "four_card_play": "quad_or_two_pair", "top_rule": "off",
               "redeal": "off", "settlement": "winner_takes_all", "chao": "13"}
    for opts, want in (({}, "f8225af2097553c5"), (outside, "3d96efc7f91271ce")):
        cfg = make_config(4, opts, search_samples=8, search_pool=1, search_rollout="greedy")
        _, log = _engine.run_hands(cfg, [3, 3, 3, 3], np.random.PCG64(2031), 4, record=4)
        assert hashlib.sha256(np.ascontiguousarray(log, dtype=np.int64).tobytes()).hexdigest()[:16] == want


def test_inference_rejects_contradicted_layouts():
    """A seat that passed on a single it could have beaten with every style's choice: layouts
    that give it a card all styles would have played weigh less; without inference all weigh 1."""
    cfg = make_config(4, {"redeal": "off"}, search_pool=1)   # the weights themselves (no resampling)
    g = reference.Game(cfg, "greedy",
                       RandomStream(np.random.PCG64(8)))
    while g.seat != 0 or len(g.history) < 6:
        g.step()
    v = g.view()
    args = dict(played=v.played, dead=v.dead, history=v.history, samples=64)
    _, _, w, ess = _engine.search_layouts(cfg, 0, v.cards_left, v.hand_mask, bit_generator=np.random.PCG64(1), **args)
    _, _, w0, ess0 = _engine.search_layouts(make_config(4, {"redeal": "off"}, search_infer=10), 0, v.cards_left,
                                            v.hand_mask, bit_generator=np.random.PCG64(1), **args)
    assert set(w0.tolist()) == {1} and ess0 == 64.0
    assert len(set(w.tolist())) > 1 and 1.0 <= ess < 64.0


def test_liability_is_priced():
    """頂大 under liability: with the next seat on one card that beats 5D, leading 5D (a
    violation) costs the 包牌 of every loser; 2S (the top card) cannot lose."""
    cfg = make_config(4)
    hand = cards_to_mask(parse_cards("5D 2S"))
    keep = {8, 51, 47, 48, 49, 50, 43, 1}  # 5D 2S + the six unseen cards
    played = sum(1 << c for c in range(52) if c not in keep)
    cands, sums, _, wins = _engine.search_position(cfg, 0, (2, 1, 2, 3), hand, played=played,
                                                   bit_generator=np.random.PCG64(0), samples=40)
    order = {int(c): i for i, c in enumerate(cands)}
    two, five = order[1 << 51], order[1 << 8]
    assert wins[two] == 40 and sums[two] > sums[five]


def test_search_is_stronger_than_greedy():
    """One search seat (default budget) against three greedy ones wins well above 1/4."""
    cfg = make_config(4)
    out, _ = run_hands(cfg, ["greedy", "greedy", "greedy", "search"], np.random.PCG64(3), 300)
    assert (out["winner"] == 3).mean() > 0.33


def test_seat_by_leader_is_the_rotated_table():
    """seat_by_leader: each game is the game of the same deck with the codes rotated to its leader."""
    cfg = make_config(4, {"redeal": "off"})
    rng = np.random.default_rng(1)
    decks = np.array([rng.permutation(52) for _ in range(12)])
    rel = ["heuristic", "greedy", "greedy", "random"]
    a, _ = run_hands(cfg, rel, np.random.PCG64(9), 12, decks=decks, seat_by_leader=True)
    bg = np.random.PCG64(9)
    for i, d in enumerate(decks):
        L = int(a["leader"][i])
        seated = [rel[(s - L) % 4] for s in range(4)]
        b, _ = run_hands(cfg, seated, bg, 1, decks=d[None, :])
        assert int(b["winner"][0]) == int(a["winner"][i]) and b["cards_left"][0].tolist() == a["cards_left"][i].tolist()
    with pytest.raises(RulesError, match="first_lead"):
        run_hands(make_config(4, {"first_lead": "previous_winner"}), rel, np.random.PCG64(1), 1, seat_by_leader=True)


def test_search_reproducible_and_legal():
    """Same stream, same games; the reference engine (which checks every move) agrees."""
    cfg = make_config(4, search_samples=4)
    a, la = run_hands(cfg, "search", np.random.PCG64(2), 3, record=3)
    b, lb = run_hands(cfg, "search", np.random.PCG64(2), 3, record=3)
    assert np.array_equal(la, lb) and all(np.array_equal(a[k], b[k]) for k in a)
    assert "search" in POLICY_NAMES and POLICY_CODES["search"] == 3


@pytest.mark.parametrize("kwargs,match", [
    ({"search_samples": 0}, "search_samples=0"),
    ({"search_samples": 2.5}, "search_samples=2.5"),
    ({"search_rollout": "random"}, "search_rollout='random'"),
    ({"search_pool": 0}, "search_pool=0"),
    ({"search_pool": 2.5}, "search_pool=2.5"),
    ({"search_pool": True}, "search_pool=True"),
    ({"search_pool": 1001}, "search_pool=1001"),
    ({"search_pool": 40, "search_samples": 5000}, "search_pool=40 is not allowed with search_samples=5000"),
])
def test_config_errors(kwargs, match):
    with pytest.raises(RulesError, match=match):
        make_config(4, **kwargs)


def test_engine_bounds_the_pool_by_the_config_constant(monkeypatch):
    """The compiled entry points check ``samples * search_pool`` against ``MAX_POOL_LAYOUTS`` (one
    helper, ``_engine.check_pool``), also when ``samples=`` overrides the config's budget."""
    from kaptai.bigtwo import config as config_module
    cfg = make_config(4)  # search_pool 8
    hand = cards_to_mask(parse_cards("3D 4C 5H 6S 7D 9D 9C TS JS QS KH AH 2C"))
    over = config_module.MAX_POOL_LAYOUTS // cfg.search_pool + 1
    with pytest.raises(ValueError, match=f"samples={over} with search_pool=8: the pool must be at most 100,000"):
        _engine.search_layouts(cfg, 0, (13, 13, 13, 13), hand, samples=over)
    with pytest.raises(ValueError, match=f"samples={over} with search_pool=8"):
        _engine.search_position(cfg, 0, (13, 13, 13, 13), hand, samples=over)
    monkeypatch.setattr(config_module, "MAX_POOL_LAYOUTS", 100)
    with pytest.raises(ValueError, match="samples=13 with search_pool=8: the pool must be at most 100 layouts"):
        _engine.search_layouts(cfg, 0, (13, 13, 13, 13), hand, samples=13)
    _engine.check_pool(12, 8)  # 96 layouts: within the patched bound


def test_default_rollout_is_contest():
    assert make_config(4).search_rollout == "contest"
    assert make_config(4, {"settlement": "winner_takes_all"}).search_rollout == "contest"
    assert make_config(4, search_rollout="heuristic").fingerprint()["search"] == {
        "samples": SEARCH_SAMPLES, "rollout": "heuristic", "infer": SEARCH_INFER, "pool": SEARCH_POOL}
    # 'auto' is recorded as the rollout it resolved to (tests/bigtwo/test_config_fingerprint.py)
    assert make_config(4).fingerprint()["search"]["rollout"] == "contest"
