"""Compiled Big Two engine (kaptai/bigtwo/_engine.pyx) against docs/big-two-engine.md.

* the structural play generator against the subset enumeration of ``_eval``;
* invariants of many random games, checked by replaying each game's log with the public
  classifier (:mod:`kaptai.bigtwo.evaluate`): deals, leftovers, legal plays that beat the
  trick, passes, locks, trick ends, 頂大 violations and liability, outcomes;
* the ``greedy`` policy move by move;
* constructed decks for the worked points of the specification.
"""

from __future__ import annotations

import numpy as np
import pytest

from kaptai.bigtwo import _eval, _engine
from kaptai.bigtwo.cards import parse_cards
from kaptai.bigtwo.evaluate import _params, classify, classify_masks, legal_plays
from kaptai.core.sampling import RandomStream
from kaptai.bigtwo.config import ACTIONS, LOG_COLUMNS, MAX_REDEALS, OUTCOME_DTYPES, POINT_VALUES, make_config, new_outcomes

from ..conftest import SLOW_SCALE as SCALE  # KAPTAI_SLOW_SCALE, default in tests/conftest.py
DEAL, LEFTOVER, SWAP, INSTANT, REDEAL, LEAD, PLAY, PASS, WIN = range(9)
RANDOM, GREEDY, HEURISTIC = 0, 1, 2


def mask(text: str) -> int:
    return sum(1 << c for c in parse_cards(text))


def bits(m: int) -> list[int]:
    return [c for c in range(52) if m >> c & 1]


def run(cfg, policy, games=1, seed=0, record=None, decks=None, bit_generator="seed"):
    codes = [policy] * cfg.players if isinstance(policy, int) else list(policy)
    bg = np.random.PCG64(seed) if bit_generator == "seed" else bit_generator
    return _engine.run_hands(cfg, codes, bg, games, record=games if record is None else record, decks=decks)


def build_deck(cfg, hands: dict[int, str], leftovers: str = "") -> list[int]:
    """A deck dealing the given hands (by seat) and leftovers; the other seats get the
    remaining cards round-robin in id order (so each holds a mix of ranks)."""
    h, N = cfg.hand_size, cfg.players
    fixed = {s: list(parse_cards(t)) for s, t in hands.items()}
    left = list(parse_cards(leftovers)) if leftovers else []
    used = {c for cs in fixed.values() for c in cs} | set(left)
    assert len(used) == sum(len(cs) for cs in fixed.values()) + len(left)
    rest = [c for c in range(52) if c not in used]
    if not left:
        left, rest = rest[len(rest) - cfg.leftover:], rest[: len(rest) - cfg.leftover]
    assert len(left) == cfg.leftover
    others = [s for s in range(N) if s not in fixed]
    for s in others:
        fixed[s] = []
    for i, c in enumerate(rest):
        fixed[others[i % len(others)]].append(c)
    deck = []
    for s in range(N):
        assert len(fixed[s]) == h
        deck += fixed[s]
    deck += left
    assert sorted(deck) == list(range(52))
    return deck


# --------------------------------------------------------------------------------------
# Log replay: every rule of the specification that the log can show
# --------------------------------------------------------------------------------------


class Replay:
    """Replays the log of one game and checks it against the specification."""

    def __init__(self, cfg, rows: np.ndarray, out: dict, g: int, policies):
        self.cfg, self.rules, self.N = cfg, cfg.rules, cfg.players
        self.rows = [tuple(int(x) for x in r) for r in rows]
        self.out, self.g, self.policies = out, g, policies
        self.strength = [int(x) for x in cfg.card_strength]
        self.params = _params(self.rules)

    def cls(self, m: int) -> tuple[int, int]:
        t, _, k = _eval._classify_batch(np.array([m], dtype=np.uint64), *self.params)
        return int(t[0]), int(k[0])

    def top(self, hand: int) -> int:
        return max(bits(hand), key=self.strength.__getitem__)

    def lowest_of(self, m: int) -> int:
        return min(bits(m), key=self.strength.__getitem__)

    def plays(self, hand: int, beat: int = 0) -> list[int]:
        return [int(x) for x in _eval._plays_beating(hand, beat, *self.params)]

    def eligible(self, hand: int) -> bool:
        ranks = [c >> 2 for c in bits(hand)]
        rd = self.rules.redeal
        if rd == "points_lt_3":
            return sum(max(0, r - 7) for r in ranks) < 3
        if rd == "hk_max10":
            return max(ranks) < 8
        if rd == "literal_min10":
            return min(ranks) == 7
        return False

    def check(self, previous_winner: int) -> None:
        rows, N, cfg, rules, out, g = self.rows, self.N, self.cfg, self.rules, self.out, self.g
        assert [r[1] for r in rows] == list(range(len(rows))), "steps count rows from 0"
        assert all(r[0] == g for r in rows)
        i = 0
        redeals = 0
        h, rr = cfg.hand_size, cfg.leftover
        lowest = cfg.lowest
        # ---- deals
        while True:
            swapped, dead_known, opening = -1, 0, lowest
            if rr and not rules.malaysian_3p:
                _, _, seat, act, cards, value = rows[i]
                assert act == LEFTOVER and value == rr and bin(cards).count("1") == rr
                i += 1
                receiver, left = seat, cards
            elif rules.malaysian_3p:
                _, _, seat, act, cards, value = rows[i]
                assert bin(cards).count("1") == 1
                i += 1
                L, H = cards, seat
                if act == LEFTOVER:
                    assert seat == -1 and value == 0 and L == 1 << lowest
                else:
                    assert act == SWAP and value in (0, 1) and L != 1 << lowest
                    swapped = value
                    if cfg.malaysian_swap == "always":
                        assert value == 1
                    if cfg.malaysian_swap == "never":
                        assert value == 0
            hands = []
            for s in range(N):
                _, _, seat, act, cards, value = rows[i]
                assert act == DEAL and seat == s and value == bin(cards).count("1")
                hands.append(cards)
                i += 1
            union = 0
            for m in hands:
                assert union & m == 0
                union |= m
            if rules.malaysian_3p:
                assert bin(union).count("1") == 51
                assert not union & (1 << lowest if swapped == 1 else L), "the dead card is in no hand"
                if swapped >= 0:
                    assert hands[H] & (L if swapped else 1 << lowest)
                    assert sorted(bin(m).count("1") for m in hands) == [17, 17, 17]
                    if swapped == 1:
                        dead_known = 1 << lowest
                        assert not union & dead_known
                        opening = None
                    holder = H
                else:
                    opening = self.lowest_of(union)
                    holder = seat_of(hands, 1 << opening)
            else:
                assert union == (1 << 52) - 1
                holder = seat_of(hands, 1 << lowest)
                for s in range(N):
                    assert bin(hands[s]).count("1") == h + (rr if s == holder and rr else 0)
                if rr:
                    assert receiver == holder and hands[holder] & left == left
                    # the receiver held the lowest-strength dealt card
                    dealt = union & ~left
                    assert hands[holder] & (1 << self.lowest_of(dealt))
            if rules.first_lead == "previous_winner" and g > 0:
                leader, constrained = previous_winner, False
            else:
                leader, constrained = holder, rules.opening_must_include_lowest and opening is not None
            must = 1 << opening if constrained else 0
            # instant wins
            inst = None
            if rules.instant_dragon:
                for k in range(N):
                    s = (leader + k) % N
                    if all(hands[s] >> (4 * r) & 15 for r in range(13)):
                        inst = (s, 1)
                        break
            if inst is None and rules.instant_four_twos:
                for k in range(N):
                    s = (leader + k) % N
                    if hands[s] >> 48 & 15 == 15:
                        inst = (s, 2)
                        break
            if inst is not None:
                s, v = inst
                assert rows[i][2:] == (s, INSTANT, hands[s], v)
                assert rows[i + 1][2:] == (s, WIN, 0, -1)
                assert len(rows) == i + 2
                assert out["instant"][g] == v and out["winner"][g] == s and out["leader"][g] == leader
                assert out["cards_left"][g].tolist() == [bin(m).count("1") for m in hands]
                assert out["plays"][g] == 0 and out["turns"][g] == 0 and out["redeals"][g] == redeals
                self.final(hands, swapped)
                return
            eligible = [s for s in range(N) if self.eligible(hands[s])]
            if rules.redeal != "off" and redeals < MAX_REDEALS and eligible:
                s = eligible[0]
                redeals += 1
                assert rows[i][2:] == (s, REDEAL, hands[s], redeals)
                i += 1
                continue
            assert i == len(rows) or rows[i][3] not in (REDEAL, INSTANT)
            break
        assert out["instant"][g] == 0 and out["redeals"][g] == redeals and out["swapped"][g] == swapped
        assert out["leader"][g] == leader
        # ---- play
        trick = None  # (mask, t, k)
        p, last, passes, locked = leader, leader, 0, [False] * N
        played, turns, plays, violations, pending = 0, 0, 0, 0, -1
        while True:
            _, _, seat, act, cards, value = rows[i]
            i += 1
            assert seat == p, f"row {i - 1}: seat {seat} moved, expected {p}"
            nxt = (p + 1) % N
            top_active = rules.top_rule != "off" and bin(hands[nxt]).count("1") == 1
            top = self.top(hands[p])
            tk = self.cls(1 << top)[1]
            opp_min = min(bin(hands[s]).count("1") for s in range(N) if s != p)
            prev_pending, pending = pending, -1
            opening_card = must
            viol = False
            auto = trick is not None and locked[p]
            if act in (LEAD, PLAY):
                assert (act == LEAD) == (trick is None)
                assert cards and not cards & ~hands[p], "a play comes from the hand"
                t, k = self.cls(cards)
                assert t and value == t, "a legal combination, value = trick class"
                if trick is None:
                    if must:
                        assert cards & must, "the opening lead contains the lowest card in play"
                    viol = top_active and t == 1 and cards != 1 << top
                else:
                    assert not auto
                    assert t == trick[1] and k > trick[2], "same class, strictly higher"
                    viol = top_active and trick[1] == 1 and tk > trick[2] and cards != 1 << top
                if self.policies[p] == GREEDY:
                    assert cards == self.greedy(hands[p], trick, must, top_active, top, tk, opp_min), "greedy move"
                hands[p] &= ~cards
                played |= cards
                trick, last, passes, must = (cards, t, k), p, 0, 0
                plays += 1
            else:
                assert act == PASS and cards == 0 and trick is not None, "no pass on a lead"
                assert value == int(auto)
                if not auto:
                    beat = self.plays(hands[p], trick[0])
                    if rules.pass_only_if_unable:
                        assert not beat, "pass_only_if_unable: passing while able"
                    viol = top_active and trick[1] == 1 and tk > trick[2]
                    if self.policies[p] == GREEDY:
                        assert self.greedy(hands[p], trick, 0, top_active, top, tk, opp_min) == 0, "greedy move"
                passes += 1
                if rules.pass_locks_out:
                    locked[p] = True
            turns += 1
            if viol:
                assert rules.top_rule == "liability" or self.filter_empty(
                    hands[p] | cards, act == LEAD, opening_card), "頂大 under 'mandatory'"
                if rules.top_rule == "liability":
                    violations += 1
                    pending = p
            if act != PASS and hands[p] == 0:
                assert rows[i][2:] == (p, WIN, 0, prev_pending)
                assert i + 1 == len(rows)
                break
            if passes == N - 1:
                trick, passes, locked, p = None, 0, [False] * N, last
            else:
                p = nxt
        assert out["winner"][g] == p and out["liable"][g] == prev_pending
        assert out["plays"][g] == plays and out["turns"][g] == turns and out["violations"][g] == violations
        if rules.top_rule != "liability":
            assert violations == 0 and out["liable"][g] == -1
        self.final(hands, swapped)

    def filter_empty(self, hand, lead, must) -> bool:
        """A violation under 'mandatory' only when the filter would remove every option (an
        opening lead bound by the opening card)."""
        return lead and must and all(bin(m).count("1") == 1 for m in self.plays(hand) if m & must)

    def final(self, hands, swapped) -> None:
        out, g = self.out, self.g
        assert out["cards_left"][g].tolist() == [bin(m).count("1") for m in hands]
        assert out["points_left"][g].tolist() == [int(sum(POINT_VALUES[c] for c in bits(m))) for m in hands]
        assert out["swapped"][g] == swapped

    def greedy(self, hand, trick, must, top_active, top, tk, opp_min=99) -> int:
        """The greedy policy (docs, Policies) from the public enumeration of plays."""
        mandatory = self.rules.top_rule == "mandatory"
        rs = [int(x) for x in self.rules.rank_strength()]
        if trick is None:
            opts = [m for m in self.plays(hand) if not must or m & must]
            if mandatory and top_active:
                kept = [m for m in opts if bin(m).count("1") > 1 or m == 1 << top]
                opts = kept or opts
            clean = [m for m in opts if all(rs[c >> 2] != 12 for c in bits(m))] or opts
            tmax = max(self.cls(m)[0] for m in clean)
            choice = next(m for m in clean if self.cls(m)[0] == tmax)
            if top_active and bin(choice).count("1") == 1:
                choice = 1 << top
            return choice if choice in opts else opts[0]
        beat = self.plays(hand, trick[0])
        choice = beat[0] if beat else 0
        can_pass = not (self.rules.pass_only_if_unable and beat)
        if (choice and trick[1] == 1 and rs[bits(choice)[0] >> 2] == 12 and opp_min > 6
                and bin(hand).count("1") > 6 and can_pass):
            choice = 0  # no 2 on an early single
        if top_active and choice and trick[1] == 1 and tk > trick[2]:
            choice = 1 << top
        return choice


def seat_of(hands, m):
    return next(s for s, h in enumerate(hands) if h & m)


def check_run(cfg, policies, out, log, games):
    assert set(out) == set(OUTCOME_DTYPES)
    ref = new_outcomes(games, cfg.players)
    for k in ref:
        assert out[k].dtype == ref[k].dtype and out[k].shape == ref[k].shape, k
    assert log.dtype == np.int64 and log.shape[1] == len(LOG_COLUMNS)
    assert set(np.unique(log[:, 3]).tolist()) <= set(range(len(ACTIONS)))
    prev = -1
    for g in range(games):
        Replay(cfg, log[log[:, 0] == g], out, g, policies).check(prev)
        prev = int(out["winner"][g])
    won = out["instant"] == 0
    assert (out["cards_left"][np.arange(games), out["winner"].astype(int)][won] == 0).all()


# --------------------------------------------------------------------------------------
# The play generator
# --------------------------------------------------------------------------------------

GEN_OPTIONS = [
    {},
    {"four_card_play": "quad"},
    {"four_card_play": "quad_or_two_pair", "two_pair_five": True},
    {"quad_kicker": "optional", "top_rank": "A"},
    {"straight_order": "sequential", "suit_order": "taiwan"},
    {"straight_order": "poker", "straight_suit_card": "sequence_top"},
    {"straight_order": "wheel_top", "flush_compare": "suit_first", "top_rank": "3"},
    {"straight_order": "broadway_top", "top_rank": "T"},
]


@pytest.mark.parametrize("options", GEN_OPTIONS)
def test_generator_matches_subset_enumeration(options):
    cfg = make_config(4, options)
    P = _params(cfg.rules)
    rng = np.random.default_rng(7)
    for trial in range(int(60 * max(SCALE, 0.2))):
        size = int(rng.choice([5, 9, 13, 13, 18, 26]))
        pool = 52 if trial % 3 else 28  # dense hands: many quads, full houses, flushes
        hand = sum(1 << int(c) for c in rng.choice(pool, min(size, pool), replace=False))
        every = _eval._plays_beating(hand, 0, *P)
        assert np.array_equal(_engine._options(cfg, hand), every)
        trick = classify_masks(every, cfg.rules)[0]
        must = 1 << int(rng.choice(bits(hand)))
        assert _engine._options(cfg, hand, 0, must).tolist() == [m for m in every.tolist() if m & must]
        for t in range(1, 6):
            first = [int(m) for m, tt in zip(every, trick) if tt == t and m & must]
            assert _engine._weakest(cfg, hand, t, 0, must) == (first[0] if first else 0)
        other = (~hand) & ((1 << 52) - 1)
        targets = _eval._plays_beating(sum(1 << c for c in bits(other)[:13]), 0, *P)
        for tm in rng.choice(targets, min(8, len(targets)), replace=False):
            want = _eval._plays_beating(hand, int(tm), *P)
            assert np.array_equal(_engine._options(cfg, hand, int(tm)), want)
            t = int(classify_masks([int(tm)], cfg.rules)[0][0])
            assert _engine._weakest(cfg, hand, t, int(tm)) == (int(want[0]) if len(want) else 0)


def test_equal_keys_lowest_mask_first():
    cfg = make_config(4)
    # two straights 3-4-5-6-7 share the tie card 7S: same key, the lower mask (4C) first
    hand = mask("3D 4C 4H 5S 6S 7S")
    a, b = mask("3D 4C 5S 6S 7S"), mask("3D 4H 5S 6S 7S")
    assert classify("3D 4C 5S 6S 7S").key == classify("3D 4H 5S 6S 7S").key
    assert _engine._weakest(cfg, hand, 5) == a
    assert _engine._options(cfg, hand).tolist()[-2:] == [a, b]
    # pairs ♠K♦K and ♠K♣K tie; the ♦ one has the lower mask
    hand = mask("KD KC KS")
    assert _engine._weakest(cfg, hand, 2, mask("QS QH")) == mask("KD KC")
    assert _engine._weakest(cfg, hand, 2, mask("KH KC")) == mask("KD KS")
    assert _engine._options(cfg, hand, mask("KH KC")).tolist() == [mask("KD KS"), mask("KC KS")]


# --------------------------------------------------------------------------------------
# Random games: invariants from the log
# --------------------------------------------------------------------------------------

INVARIANT_CASES = [
    (4, {}),
    (2, {}),
    (3, {}),
    (5, {"redeal": "off"}),
    (6, {"suit_order": "taiwan"}),
    (7, {"top_rank": "A"}),
    (8, {"pass_locks_out": True}),
    (9, {"pass_only_if_unable": True}),
    (10, {"top_rule": "mandatory"}),
    (11, {"top_rule": "off", "first_lead": "previous_winner"}),
    (12, {"redeal": "hk_max10"}),
    (13, {"top_rule": "liability", "pass_locks_out": True}),
    (3, {"malaysian_3p": True}),
    (3, {"malaysian_3p": True, "suit_order": "taiwan", "first_lead": "previous_winner"}),
    (4, {"pass_only_if_unable": True, "pass_locks_out": True, "top_rule": "mandatory"}),
    (4, {"instant_dragon": True, "instant_four_twos": True, "redeal": "literal_min10"}),
    (2, {"instant_dragon": True}),
    (4, {"first_lead": "previous_winner", "opening_must_include_lowest": False}),
    (4, {"four_card_play": "quad"}),
    (4, {"four_card_play": "quad_or_two_pair", "two_pair_five": True}),
    (4, {"quad_kicker": "optional"}),
    (4, {"straight_order": "sequential", "straight_suit_card": "sequence_top"}),
    (4, {"straight_order": "poker", "flush_compare": "suit_first"}),
    (4, {"straight_order": "wheel_top"}),
    (5, {"straight_order": "broadway_top", "top_rank": "3"}),
    (4, {"suit_order": "taiwan", "top_rank": "T", "top_rule": "mandatory"}),
    (30, {"top_rule": "mandatory"}),
    (40, {"redeal": "off"}),
]


@pytest.mark.parametrize("players,options", INVARIANT_CASES)
@pytest.mark.parametrize("policy", [RANDOM, GREEDY, HEURISTIC])
def test_logs_follow_the_specification(players, options, policy):
    cfg = make_config(players, options)
    games = max(4, int(25 * SCALE))
    out, log = run(cfg, policy, games, seed=players * 31 + policy)
    check_run(cfg, [policy] * players, out, log, games)


@pytest.mark.parametrize("players,options,swap", [
    (4, {}, "policy"), (3, {"malaysian_3p": True}, "policy"), (3, {"malaysian_3p": True}, "always"),
    (3, {"malaysian_3p": True, "top_rule": "mandatory"}, "never"), (6, {"pass_locks_out": True}, "policy"),
])
def test_mixed_policies(players, options, swap):
    cfg = make_config(players, options, malaysian_swap=swap)
    pols = [s % 3 for s in range(players)]
    games = max(4, int(30 * SCALE))
    out, log = run(cfg, pols, games, seed=11)
    check_run(cfg, pols, out, log, games)


def test_violations_and_liability_happen():
    """Many players hold few cards: 頂大 situations are common; the replay recounts them."""
    cfg = make_config(13, {"top_rule": "liability"})
    out, log = run(cfg, RANDOM, 200, seed=3)
    check_run(cfg, [RANDOM] * 13, out, log, 200)
    assert out["violations"].sum() > 0 and (out["liable"] >= 0).any()
    cfg = make_config(13, {"top_rule": "mandatory"})
    out, _ = run(cfg, RANDOM, 200, seed=3, record=0)
    assert out["violations"].sum() == 0 and (out["liable"] == -1).all()


def test_four_card_and_bare_quad_plays_are_logged():
    out, log = run(make_config(4, {"four_card_play": "quad_or_two_pair"}), RANDOM, 300, seed=2)
    plays = log[np.isin(log[:, 3], [LEAD, PLAY])]
    assert (plays[:, 5] == 4).any()
    out, log = run(make_config(4, {"quad_kicker": "optional"}), RANDOM, 2000, seed=2)
    plays = log[np.isin(log[:, 3], [LEAD, PLAY])]
    sizes = np.array([bin(int(m)).count("1") for m in plays[:, 4]])
    assert ((sizes == 4) & (plays[:, 5] == 5)).any()


def test_same_seed_same_result_and_record():
    cfg = make_config(4, {"pass_locks_out": True})
    for policy in (RANDOM, GREEDY, HEURISTIC):
        a, la = run(cfg, policy, 50, seed=9)
        b, lb = run(cfg, policy, 50, seed=9)
        for k in a:
            assert np.array_equal(a[k], b[k])
        assert np.array_equal(la, lb)
        c, lc = run(cfg, policy, 50, seed=10, record=3)
        assert not all(np.array_equal(a[k], c[k]) for k in a)
        assert set(lc[:, 0].tolist()) == {0, 1, 2}
        _, l0 = run(cfg, policy, 5, seed=9, record=0)
        assert l0.shape == (0, 6)
    out, log = run(cfg, GREEDY, 0)
    assert out["winner"].shape == (0,) and log.shape == (0, 6)


def test_log_reconstructs_hands():
    cfg = make_config(5, {"redeal": "off"})
    out, log = run(cfg, HEURISTIC, 20, seed=4)
    for g in range(20):
        rows = log[log[:, 0] == g]
        hands = {int(r[2]): int(r[4]) for r in rows if r[3] == DEAL}
        for r in rows:
            if r[3] in (LEAD, PLAY):
                hands[int(r[2])] &= ~int(r[4])
        assert [bin(hands[s]).count("1") for s in range(5)] == out["cards_left"][g].tolist()


# --------------------------------------------------------------------------------------
# Constructed decks: the worked points of the specification
# --------------------------------------------------------------------------------------


def body(log):
    return [(int(r[2]), ACTIONS[r[3]], int(r[4]), int(r[5])) for r in log]


def test_three_players_leftover_lowest_goes_to_next_lowest_holder():
    cfg = make_config(3, {"redeal": "off"})
    deck = build_deck(cfg, {1: "3C 4D 4C 5D 5C 6D 6C 7D 7C 8D 8C 9D 9C TD TC JD JC"}, leftovers="3D")
    out, log = run(cfg, GREEDY, decks=[deck])
    rows = body(log)
    assert rows[0] == (1, "leftover", 1, 1)
    assert rows[2] == (1, "deal", mask("3C 4D 4C 5D 5C 6D 6C 7D 7C 8D 8C 9D 9C TD TC JD JC") | 1, 18)
    assert out["leader"][0] == 1 and out["cards_left"][0].sum() > 0
    lead = next(r for r in rows if r[1] == "lead")
    assert lead[0] == 1 and lead[2] & 1  # the opening lead contains 3D
    check_run(cfg, [GREEDY] * 3, out, log, 1)


def test_taiwan_lowest_is_club_three():
    cfg = make_config(3, {"suit_order": "taiwan", "redeal": "off"})
    assert cfg.lowest == 1
    deck = build_deck(cfg, {2: "3D 4D 4C 5D 5C 6D 6C 7D 7C 8D 8C 9D 9C TD TC JD JC"}, leftovers="3C")
    out, log = run(cfg, HEURISTIC, decks=[deck])
    assert body(log)[0] == (2, "leftover", 2, 1)
    assert out["leader"][0] == 2
    lead = next(r for r in body(log) if r[1] == "lead")
    assert lead[0] == 2 and lead[2] & 2


def test_five_players_two_leftovers_to_the_lowest_dealt_card():
    cfg = make_config(5, {"redeal": "off"})
    deck = build_deck(cfg, {3: "3D 5S 6S 7S 8S 9S TS JS QS KS"}, leftovers="2S AS")
    out, log = run(cfg, GREEDY, decks=[deck])
    assert body(log)[0] == (3, "leftover", mask("2S AS"), 2)
    assert out["leader"][0] == 3 and body(log)[4] == (3, "deal", mask("3D 5S 6S 7S 8S 9S TS JS QS KS 2S AS"), 12)
    # greedy leads the weakest five-card play containing 3D ... there is none: the single 3D
    assert next(r for r in body(log) if r[1] == "lead")[2] == 1


def malaysian_deck(cfg, leftover, h0="3D 4D 4C 5D 5C 6D 6C 7D 7C 8D 8C 9D 9C TD TC JD JC"):
    return build_deck(cfg, {0: h0}, leftovers=leftover)


def test_malaysian_leftover_is_the_lowest():
    cfg = make_config(3, {"malaysian_3p": True, "redeal": "off"})
    deck = build_deck(cfg, {2: "3C 4D 4C 5D 5C 6D 6C 7D 7C 8D 8C 9D 9C TD TC JD JC"}, leftovers="3D")
    out, log = run(cfg, GREEDY, decks=[deck])
    rows = body(log)
    assert rows[0] == (-1, "leftover", 1, 0)
    assert out["swapped"][0] == -1 and out["leader"][0] == 2
    lead = next(r for r in rows if r[1] == "lead")
    assert lead[0] == 2 and lead[2] & 2  # the opening lead contains 3C, the lowest held card
    assert not any(r[2] & 1 for r in rows if r[1] in ("deal", "lead", "play"))  # 3D is dead
    check_run(cfg, [GREEDY] * 3, out, log, 1)


@pytest.mark.parametrize("setting,policy,expect", [
    ("always", RANDOM, 1), ("never", GREEDY, 0), ("policy", GREEDY, 1),
    ("policy", HEURISTIC, 0),  # the hand holds another 3 (3C)
])
def test_malaysian_swap(setting, policy, expect):
    cfg = make_config(3, {"malaysian_3p": True, "redeal": "off"}, malaysian_swap=setting)
    h0 = "3D 3C 4D 5D 5C 6D 6C 7D 7C 8D 8C 9D 9C TD TC JD JC"
    out, log = run(cfg, policy, decks=[malaysian_deck(cfg, "2S", h0)])
    rows = body(log)
    assert rows[0] == (0, "swap", mask("2S"), expect)
    assert out["swapped"][0] == expect and out["leader"][0] == 0
    hand0 = rows[1][2]
    if expect:
        assert hand0 == (mask(h0) & ~1) | mask("2S")
        assert not any(r[2] & 1 for r in rows if r[1] in ("lead", "play"))
    else:
        assert hand0 == mask(h0)
        assert next(r for r in rows if r[1] == "lead")[2] & 1
        assert not any(r[2] & mask("2S") for r in rows if r[1] in ("lead", "play", "deal"))
    check_run(cfg, [policy] * 3, out, log, 1)


def test_malaysian_heuristic_swaps_without_another_three():
    cfg = make_config(3, {"malaysian_3p": True, "redeal": "off"})
    h0 = "3D 4C 4D 5D 5C 6D 6C 7D 7C 8D 8C 9D 9C TD TC JD JC"
    out, log = run(cfg, HEURISTIC, decks=[malaysian_deck(cfg, "2S", h0)])
    assert body(log)[0] == (0, "swap", mask("2S"), 1)


def test_malaysian_random_swap_draws_once():
    cfg = make_config(3, {"malaysian_3p": True, "redeal": "off"})
    deck = malaysian_deck(cfg, "2S")
    seen = set()
    for seed in range(12):
        out, log = run(cfg, [RANDOM, GREEDY, GREEDY], decks=[deck], seed=seed)
        seen.add(int(out["swapped"][0]))
        # the swap decision is the first draw of the stream (no shuffle with a deck)
        assert int(out["swapped"][0]) == int(RandomStream(np.random.PCG64(seed)).bounded(2) == 1)
    assert seen == {0, 1}


DRAGON = "3D 4D 5D 6D 7D 8D 9D TD JD QD KD AD 2D"


def test_instant_dragon_scans_from_the_leader():
    cfg = make_config(2, {"instant_dragon": True, "redeal": "off"})
    # both seats hold all 13 ranks; seat 1 holds 3D and leads, so seat 1 wins
    s1 = "3D 4D 5D 6D 7D 8D 9D TD JD QD KD AD 2D 3C 4C 5C 6C 7C 8C 9C TC JC QC KC AC 2C"
    out, log = run(cfg, GREEDY, decks=[build_deck(cfg, {1: s1})])
    rows = body(log)
    assert rows[2:] == [(1, "instant_win", mask(s1), 1), (1, "win", 0, -1)]
    assert out["instant"][0] == 1 and out["winner"][0] == 1 and out["leader"][0] == 1
    assert out["cards_left"][0].tolist() == [26, 26] and out["plays"][0] == 0 and out["turns"][0] == 0
    assert out["points_left"][0].tolist() == [sum(range(3, 16)) * 2] * 2


def test_instant_four_twos_and_dragon_first():
    cfg = make_config(4, {"instant_dragon": True, "instant_four_twos": True, "redeal": "off"})
    out, log = run(cfg, GREEDY, decks=[build_deck(cfg, {2: "2D 2C 2H 2S 3S 4S 5S 6S 7S 8S 9S TS JS"})])
    assert out["instant"][0] == 2 and out["winner"][0] == 2
    assert body(log)[4] == (2, "instant_win", mask("2D 2C 2H 2S 3S 4S 5S 6S 7S 8S 9S TS JS"), 2)
    # one seat with both: the dragon is checked first
    cfg3 = make_config(3, {"instant_dragon": True, "instant_four_twos": True, "redeal": "off"})
    both = DRAGON + " 2C 2H 2S 3C"
    out, log = run(cfg3, GREEDY, decks=[build_deck(cfg3, {0: both})])
    assert out["instant"][0] == 1 and out["winner"][0] == 0
    # a four-twos seat after the leader in play order wins over one before it
    cfg4 = make_config(4, {"instant_four_twos": True, "redeal": "off"})
    out, _ = run(cfg4, GREEDY, decks=[build_deck(cfg4, {3: "2D 2C 2H 2S 3S 4S 5S 6S 7S 8S 9S TS JS"})])
    assert out["winner"][0] == 3


def test_redeal_takes_the_next_deck():
    cfg = make_config(4)
    weak = "3D 3C 4D 4C 5D 5C 6D 6C 7D 7C 8D 8C JD"  # 1 point < 3
    first = build_deck(cfg, {0: "3S 4S 5S 6S 7S 8S 9S TS JS QS KS AS 2S", 2: weak})
    second = build_deck(cfg, {0: "3D 4S 5S 6S 7S 8S 9S TS JS QS KS AS 2S"})
    out, log = run(cfg, GREEDY, decks=[first, second])
    rows = body(log)
    assert rows[4] == (2, "redeal", mask(weak), 1)
    assert rows[5][1] == "deal" and rows[5][2] == mask("3D 4S 5S 6S 7S 8S 9S TS JS QS KS AS 2S")
    assert out["redeals"][0] == 1 and out["leader"][0] == 0
    check_run(cfg, [GREEDY] * 4, out, log, 1)
    with pytest.raises(ValueError, match="decks"):
        run(cfg, GREEDY, decks=[first])


def test_redeal_cap():
    cfg = make_config(4)
    weak = build_deck(cfg, {1: "3D 3C 4D 4C 5D 5C 6D 6C 7D 7C 8D 8C JD"})
    out, log = run(cfg, GREEDY, decks=[weak] * (MAX_REDEALS + 1))
    assert out["redeals"][0] == MAX_REDEALS
    assert (log[:, 3] == REDEAL).sum() == MAX_REDEALS and (log[:, 3] == LEAD).any()
    check_run(cfg, [GREEDY] * 4, out, log, 1)
    with pytest.raises(ValueError, match="decks: 100 given"):
        run(cfg, GREEDY, decks=[weak] * MAX_REDEALS)


@pytest.mark.parametrize("rule,hand,eligible", [
    ("hk_max10", "3D 3C 4D 4C 5D 5C 6D 6C 7D 7C 8D 8C TD", True),
    ("hk_max10", "3D 3C 4D 4C 5D 5C 6D 6C 7D 7C 8D 8C JD", False),
    ("literal_min10", "TD TC TH TS JD JC JH JS QD QC QH QS KD", True),
    ("literal_min10", "9D TC TH TS JD JC JH JS QD QC QH QS KD", False),
    ("points_lt_3", "3D 3C 4D 4C 5D 5C 6D 6C 7D 7C 8D QD 9C", True),
    ("points_lt_3", "3D 3C 4D 4C 5D 5C 6D 6C 7D 7C 8D KD 9C", False),
    ("off", "3D 3C 4D 4C 5D 5C 6D 6C 7D 7C 8D 8C 9C", False),
])
def test_redeal_rules(rule, hand, eligible):
    cfg = make_config(4, {"redeal": rule})
    deck = build_deck(cfg, {1: hand})
    plain = [c for s in range(4) for c in range(s, 52, 4)]  # seat s: every rank of suit s
    out, log = run(cfg, GREEDY, decks=[deck, plain])
    assert out["redeals"][0] == int(eligible)
    rows = body(log)
    assert (rows[4] == (1, "redeal", mask(hand), 1)) == eligible
    check_run(cfg, [GREEDY] * 4, out, log, 1)


def test_previous_winner_leads_the_next_game():
    cfg = make_config(4, {"first_lead": "previous_winner", "redeal": "off"})
    out, log = run(cfg, GREEDY, 30, seed=5)
    assert (out["leader"][1:] == out["winner"][:-1]).all()
    check_run(cfg, [GREEDY] * 4, out, log, 30)
    # game 0 is led by the 3D holder and bound by it; later games are not
    first = log[(log[:, 0] == 0) & (log[:, 3] == LEAD)][0]
    assert first[4] & 1
    later = log[(log[:, 0] > 0) & (log[:, 3] == LEAD)]
    assert not all(r[4] & 1 for r in later)


def test_opening_constraint_off():
    cfg = make_config(4, {"opening_must_include_lowest": False, "redeal": "off"})
    h0 = "3D 5C 6D 7H 8S 9C JD JC QH KS AD 2H 2C"
    out, log = run(cfg, GREEDY, decks=[build_deck(cfg, {0: h0})])
    lead = next(r for r in body(log) if r[1] == "lead")
    assert lead == (0, "lead", mask("5C 6D 7H 8S 9C"), 5)
    cfg = make_config(4, {"redeal": "off"})
    out, log = run(cfg, GREEDY, decks=[build_deck(cfg, {0: h0})])
    assert next(r for r in body(log) if r[1] == "lead") == (0, "lead", 1, 1)


def test_greedy_follows_with_the_weakest_beating_play():
    cfg = make_config(2, {"redeal": "off", "top_rule": "off"})
    h0 = "3D 4D 5C 6H 7S 9D 9S TD JD QD KD AD 2D 3C 4C 5D 6C 7C 8C 9C TC JC QC KC AC 2C"
    deck = build_deck(cfg, {0: h0})
    out, log = run(cfg, GREEDY, decks=[deck])
    rows = body(log)
    # seat 0 leads its weakest five-card play containing 3D ...
    assert rows[2][:2] == (0, "lead") and rows[2][2] == _engine._weakest(cfg, mask(h0), 5, 0, 1)
    # ... and seat 1 answers with its weakest beating five-card play, or passes
    hand1 = rows[1][2]
    want = _engine._weakest(cfg, hand1, 5, rows[2][2])
    assert rows[3] == ((1, "play", want, 5) if want else (1, "pass", 0, 0))
    check_run(cfg, [GREEDY] * 2, out, log, 1)


def test_top_rule_forces_the_top_single():
    """N=2 with the next seat on one card: greedy leads its top single (頂大)."""
    cfg = make_config(2, {"redeal": "off", "top_rule": "mandatory"})
    out, log = run(cfg, GREEDY, 200, seed=1)
    check_run(cfg, [GREEDY] * 2, out, log, 200)


# --------------------------------------------------------------------------------------
# Input errors
# --------------------------------------------------------------------------------------


def test_input_errors():
    cfg = make_config(4)
    with pytest.raises(ValueError, match="policy codes"):
        _engine.run_hands(cfg, [1, 1, 1], np.random.PCG64(0), 1)
    with pytest.raises(ValueError, match="unknown policy code 7"):
        _engine.run_hands(cfg, [1, 1, 1, 7], np.random.PCG64(0), 1)
    with pytest.raises(ValueError, match=r"shape \(m, 52\)"):
        run(cfg, GREEDY, decks=[list(range(51))])
    with pytest.raises(ValueError, match=r"decks\[1\] is not a permutation"):
        run(cfg, GREEDY, decks=[list(range(52)), [0] * 52])
    with pytest.raises(ValueError, match="decks: 0 given"):
        run(cfg, GREEDY, decks=np.zeros((0, 52), dtype=int))
    with pytest.raises(ValueError, match="bit_generator is None"):
        run(cfg, RANDOM, decks=[list(range(52))], bit_generator=None)
    out, _ = run(make_config(4, {"redeal": "off"}), GREEDY, decks=[list(range(52))], bit_generator=None)
    assert out["winner"][0] >= 0
