"""Reference engine of Big Two (docs/big-two-engine.md): constructed deals for every rule
mechanic of rules/big-two.md §2 and §4, the policies on hand-built positions, illegal plays,
and invariants of random games replayed from their logs."""

from __future__ import annotations

import itertools
import random

import numpy as np
import pytest

from kaptai.bigtwo import reference
from kaptai.bigtwo.cards import cards_to_mask, mask_to_cards, parse_cards
from kaptai.bigtwo.evaluate import legal_plays
from kaptai.bigtwo.config import LOG_COLUMNS, MAX_REDEALS, OUTCOME_DTYPES, POINT_VALUES, IllegalPlayError, make_config
from kaptai.bigtwo.engine_reference import (
    DEAL,
    INSTANT_WIN,
    LEAD,
    LEFTOVER,
    PASS,
    PLAY,
    REDEAL,
    SWAP,
    WIN,
    DeckSource,
    Game,
    legal_entries,
    make_view,
    play_game,
    run_hands,
    shuffled_deck,
)
from kaptai.bigtwo.policies import (
    FULL_MASK,
    GreedyPolicy,
    HeuristicPolicy,
    Policy,
    RandomPolicy,
    ScriptedPolicy,
    boss_units,
    plan,
    resolve_policies,
    rules_info,
)
from kaptai.bigtwo.rules import RuleSet
from kaptai.core.sampling import RandomStream
from kaptai.errors import KaptaiError, RulesError

NO_REDEAL = {"redeal": "off"}


# --------------------------------------------------------------------------------------
# Helpers
# --------------------------------------------------------------------------------------


def M(text: str) -> int:
    return cards_to_mask(parse_cards(text)) if text else 0


def deck_for(n: int, hands: dict[int, str], leftovers: str = "", spread: bool = False) -> list[int]:
    """A deck dealing ``hands`` (seat -> cards) and ``leftovers`` as the undealt cards.

    The other cards fill the seats in seat order, lowest first; ``spread=True`` deals them
    round-robin instead, so that every filled seat holds low and high cards."""
    h, r = divmod(52, n)
    fixed = {s: list(parse_cards(t)) for s, t in hands.items()}
    left = list(parse_cards(leftovers)) if leftovers else []
    used = [c for v in fixed.values() for c in v] + left
    assert len(used) == len(set(used))
    pool = [c for c in range(52) if c not in set(used)]
    seats = [fixed.get(s, []) for s in range(n)]
    assert all(len(cs) <= h for cs in seats)
    if spread:
        while any(len(cs) < h for cs in seats):
            for cs in seats:
                if len(cs) < h:
                    cs.append(pool.pop(0))
    deck = []
    for cs in seats:
        while len(cs) < h:
            cs.append(pool.pop(0))
        deck += cs
    while len(left) < r:
        left.append(pool.pop(0))
    deck += left
    assert sorted(deck) == list(range(52))
    return deck


def rows_of(g: Game, action: int) -> list[tuple]:
    return [row for row in g.log if row[3] == action]


def new_game(n, rules=None, hands=None, leftovers="", policies="greedy", **kw) -> Game:
    cfg = make_config(n, {**NO_REDEAL, **(rules or {})}, **({"malaysian_swap": kw.pop("swap")} if "swap" in kw else {}))
    return Game(cfg, policies, decks=[deck_for(n, hands or {}, leftovers)], **kw)


def passes(g: Game, k: int) -> None:
    for _ in range(k):
        g.step("PASS")


class NeverAsked(Policy):
    name = "never-asked"

    def choose(self, view):
        raise AssertionError("choose() must not be called")

    def swap(self, view):
        raise AssertionError("swap() must not be called")


# --------------------------------------------------------------------------------------
# Legal plays: brute force and the compiled order
# --------------------------------------------------------------------------------------

CONFIGS = [
    {},
    {"suit_order": "taiwan", "straight_order": "sequential"},
    {"straight_order": "poker", "straight_suit_card": "sequence_top", "top_rank": "3"},
    {"straight_order": "broadway_top", "flush_compare": "suit_first", "two_pair_five": True},
    {"quad_kicker": "optional", "straight_order": "wheel_top"},
    {"four_card_play": "quad_or_two_pair", "two_pair_five": True, "top_rank": "A"},
]


@pytest.mark.parametrize("opts", CONFIGS)
def test_legal_entries_brute_force_and_compiled_order(opts):
    rules = RuleSet(**opts)
    rng = random.Random(11)
    hands = [rng.sample(range(52), 9) for _ in range(12)]
    hands += [list(range(0, 52, 4))[:9] + [1, 2, 3], [0, 1, 2, 3, 4, 5, 6, 48, 49, 50, 51, 44]]
    for ids in hands:
        hm = cards_to_mask(ids)
        mine = legal_entries(hm, rules)
        brute = set()
        for k in range(1, 6):
            for comb in itertools.combinations(ids, k):
                if reference.classify(comb, rules) is not None:
                    brute.add(cards_to_mask(comb))
        assert {e[2] for e in mine} == brute
        # the compiled evaluator, sorted by (trick, compiled key, mask), gives the same order
        comp = sorted(
            ((p.trick, p.key, cards_to_mask(p.cards)) for p in legal_plays(ids, rules)),
        )
        assert [m for _, _, m in comp] == [e[2] for e in mine]


def test_make_view_options_and_pass():
    v = make_view("3D 4C 4S 9H", trick="4D")
    assert [str(p) for p in v.options] == ["4C", "4S", "9H"] and v.can_pass and not v.leading
    v = make_view("3D 4C 4S 9H", trick="4D", rules={"pass_only_if_unable": True})
    assert not v.can_pass
    v = make_view("3D 9H", trick="4D 4C", rules={"pass_only_if_unable": True})
    assert v.options == () and v.can_pass
    assert v.unseen() == FULL_MASK & ~M("3D 9H")


# --------------------------------------------------------------------------------------
# §2 Deal and setup
# --------------------------------------------------------------------------------------


def test_three_players_leftover_3d_goes_to_3c_holder_who_leads():
    # rules page §2 test: N=3, leftover card ♦3 -> the ♣3 holder (18 cards), who then leads
    g = new_game(3, hands={2: "3C"}, leftovers="3D")
    assert rows_of(g, LEFTOVER) == [(0, 0, 2, LEFTOVER, M("3D"), 1)]
    deals = rows_of(g, DEAL)
    assert [r[5] for r in deals] == [17, 17, 18] and deals[2][4] >> 0 & 1
    assert g.leader == 2 and g.seat == 2 and g.opening_card == 0
    assert [r[3] for r in g.log[:4]] == [LEFTOVER, DEAL, DEAL, DEAL]
    res = g.play()
    first = rows_of(g, LEAD)[0]
    assert first[2] == 2 and first[4] & 1  # led by seat 2, containing ♦3
    assert res.leader == 2


@pytest.mark.parametrize(
    "n, leftovers, placed, holder",
    [
        (5, "3D 2S", {3: "3C"}, 3),  # lowest dealt card is ♣3
        (6, "3D 3C 3H 3S", {4: "4D"}, 4),  # all four 3s undealt: ♦4
        (7, "KD 9S 5H", {6: "3D"}, 6),
        (8, "3C 4D 7S AH", {1: "3D"}, 1),
    ],
)
def test_leftovers_go_to_the_lowest_dealt_card(n, leftovers, placed, holder):
    h, r = divmod(52, n)
    g = new_game(n, hands=placed, leftovers=leftovers)
    lm = M(leftovers)
    assert rows_of(g, LEFTOVER) == [(0, 0, holder, LEFTOVER, lm, r)]
    sizes = [row[5] for row in rows_of(g, DEAL)]
    assert sizes == [h + (r if s == holder else 0) for s in range(n)]
    assert g.hands[holder] & lm == lm
    # the holder of the lowest card in play (now ♦3, wherever it was) leads and must use it
    assert g.leader == holder and g.opening_card == 0
    assert all(o.cards[0] == 0 for o in g.view().options)


def test_taiwan_order_lowest_is_3c():
    g = new_game(3, {"suit_order": "taiwan"}, hands={1: "3D"}, leftovers="3C")
    assert rows_of(g, LEFTOVER)[0][2] == 1 and g.leader == 1 and g.opening_card == 1


def test_malaysian_swap():
    g = new_game(3, {"malaysian_3p": True}, hands={1: "3D"}, leftovers="2S")
    assert rows_of(g, SWAP) == [(0, 0, 1, SWAP, M("2S"), 1)]
    assert [r[3] for r in g.log] == [SWAP, DEAL, DEAL, DEAL]
    assert not g.hands[1] & 1 and g.hands[1] >> 51 & 1 and sum(bin(h).count("1") for h in g.hands) == 51
    assert g.swapped == 1 and g.leader == 1
    assert g.opening_card is None  # the opening lead is free after a swap
    v = g.view()
    assert v.opening_card is None and v.dead == 1
    assert any(0 not in o.cards and o.trick == 1 for o in v.options)
    g.step("2S")  # H may lead anything, even the swapped-in card
    assert g.view().unseen() & 1 == 0  # ♦3 is publicly dead
    assert g.view().unseen() >> 51 & 1 == 0  # ... and ♠2 was played
    assert g.play().swapped == 1


def test_malaysian_no_swap_leaves_the_card_dead():
    g = new_game(3, {"malaysian_3p": True}, hands={1: "3D"}, leftovers="2S",
                 policies=["greedy", ScriptedPolicy([], swaps=False), "greedy"])
    assert rows_of(g, SWAP) == [(0, 0, 1, SWAP, M("2S"), 0)]
    assert g.swapped == 0 and g.hands[1] & 1 and not any(h >> 51 & 1 for h in g.hands)
    assert g.leader == 1 and g.opening_card == 0
    # the dead card is unknown to all: still unseen for everybody
    assert g.view().unseen() >> 51 & 1 and g.view().dead == 0
    assert g.play().swapped == 0


def test_malaysian_leftover_is_lowest():
    g = new_game(3, {"malaysian_3p": True}, hands={2: "3C"}, leftovers="3D", policies=NeverAsked())
    assert rows_of(g, LEFTOVER) == [(0, 0, -1, LEFTOVER, 1, 0)]
    assert g.swapped == -1 and g.leader == 2 and g.opening_card == 1
    assert sum(bin(h).count("1") for h in g.hands) == 51


@pytest.mark.parametrize("setting, swapped", [("always", 1), ("never", 0)])
def test_malaysian_swap_setting_overrides_policy(setting, swapped):
    g = new_game(3, {"malaysian_3p": True}, hands={0: "3D"}, leftovers="KH", policies=NeverAsked(), swap=setting)
    assert g.swapped == swapped and rows_of(g, SWAP)[0][5] == swapped


def test_malaysian_swap_decisions_of_builtins():
    deck_pair = deck_for(3, {0: "3D 3C"}, "KH")  # holds another 3: the heuristic keeps ♦3
    deck_alone = deck_for(3, {0: "3D 4C", 1: "3C 3H", 2: "3S"}, "KH")
    cfg = make_config(3, {"malaysian_3p": True, **NO_REDEAL})
    assert Game(cfg, "heuristic", decks=[deck_pair]).swapped == 0
    assert Game(cfg, "heuristic", decks=[deck_alone]).swapped == 1
    assert Game(cfg, "greedy", decks=[deck_pair]).swapped == 1
    for seed in range(4):
        expect = int(RandomStream(np.random.PCG64(seed)).bounded(2) == 1)
        out, log = run_hands(cfg, "random", np.random.PCG64(seed), 1, record=1, decks=[deck_pair])
        assert out["swapped"][0] == expect and log[0, 3] == SWAP and log[0, 5] == expect


def test_first_lead_previous_winner():
    deck = list(range(52))  # seat 3 holds J♠..2♠ and wins under greedy
    for rule, leader2 in (("previous_winner", 3), ("lowest_card", 0)):
        cfg = make_config(4, {"first_lead": rule, **NO_REDEAL})
        out, log = run_hands(cfg, "greedy", None, 2, record=2, decks=[deck, deck])
        assert out["winner"][0] == 3 and out["leader"].tolist() == [0, leader2]
        g2 = log[log[:, 0] == 1]
        first = g2[g2[:, 3] == LEAD][0]
        assert first[2] == leader2
        if rule == "previous_winner":
            assert not first[4] & 1  # no opening card after the first game
    g = Game(make_config(4, {"first_lead": "previous_winner", **NO_REDEAL}), "greedy", decks=[deck], previous_winner=2)
    assert g.leader == 2 and g.opening_card is None


def test_opening_must_include_lowest_on_off():
    g = new_game(4, hands={0: "3D 4D 5S"})
    assert all(0 in o.cards for o in g.view().options)
    with pytest.raises(IllegalPlayError, match=r'"4D" by seat 0: must include 3D \(opening lead\)'):
        g.step("4D")
    g = new_game(4, {"opening_must_include_lowest": False}, hands={0: "3D 4D 5S"})
    assert g.opening_card is None and "4D" in [str(o) for o in g.view().options]
    g.step("4D")
    assert rows_of(g, LEAD)[0][4] == M("4D")


# --------------------------------------------------------------------------------------
# §4 Play procedure
# --------------------------------------------------------------------------------------


def test_pass_only_if_unable():
    hands = {0: "3D 3C", 1: "4D 5D 6D 7D 8D 9D TD JD QD KD AD 2D 3H"}
    g = new_game(4, {"pass_only_if_unable": True}, hands=hands)
    g.step("3D")
    assert not g.view().can_pass
    with pytest.raises(IllegalPlayError, match=r"must play when able \(pass_only_if_unable\)"):
        g.step("PASS")
    g.step("4D")
    # a pair cannot be followed by a hand without pairs: passing is then allowed
    g = new_game(4, {"pass_only_if_unable": True, "opening_must_include_lowest": False}, hands=hands)
    g.step("3D 3C")
    v = g.view()
    assert v.options == () and v.can_pass
    g.step(None)
    # default: passing while able is allowed
    g = new_game(4, hands=hands)
    g.step("3D")
    assert g.view().can_pass
    g.step("PASS")


def test_pass_locks_out():
    hands = {0: "3D 4D", 1: "2S 3C", 2: "5H 6H"}
    g = new_game(4, {"pass_locks_out": True}, hands=hands)
    g.step("3D")
    g.step("PASS")  # seat 1 passes and is locked out of this trick
    g.step("5H")
    g.step("PASS")
    g.step("PASS")  # seat 0
    assert g.seat == 1 and g.view().options == () and g.view().can_pass
    with pytest.raises(IllegalPlayError, match="locked out"):
        g.step("2S")
    g.step()  # automatic pass: the third pass after 5H ends the trick
    assert g.log[-1][2:] == (1, PASS, 0, 1)
    assert g.trick is None and g.seat == 2 and g.locked == [False] * 4
    # without the option the earlier passer may play later in the trick
    g = new_game(4, hands=hands)
    g.step("3D")
    g.step("PASS")
    g.step("5H")
    passes(g, 2)
    g.step("2S")
    assert g.log[-1][2:] == (1, PLAY, M("2S"), 1)


def test_trick_ends_after_all_others_pass_and_the_winner_leads_anything():
    g = new_game(4, {"opening_must_include_lowest": False}, hands={0: "3D 2S 7C"})
    g.step("2S")
    passes(g, 3)
    assert g.trick is None and g.seat == 0 and g.passes == 0
    assert "3D" in [str(o) for o in g.view().options]  # after ♠2 they may lead ♦3
    g.step("3D")
    assert [r[3] for r in g.log[-5:]] == [LEAD, PASS, PASS, PASS, LEAD]
    # two players: one pass ends the trick
    g = new_game(2, {"opening_must_include_lowest": False}, hands={0: "3D 2S"})
    g.step("2S")
    g.step("PASS")
    assert g.trick is None and g.seat == 0


def test_win_stops_the_hand():
    g = new_game(52, hands={0: "3D"})  # one card each: the opening lead wins
    assert g.view().next_cards == 1 and [str(o) for o in g.view().options] == ["3D"]
    g.step("3D")
    assert g.over and g.log[-1][2:] == (0, WIN, 0, -1)
    r = g.result()
    assert r.winner == 0 and r.cards_left[0] == 0 and r.plays == 1 and r.turns == 1
    with pytest.raises(KaptaiError, match="over"):
        g.step()


# 頂大 (blocking): 18 players hold 2 cards each; seat 0 (the ♦3 holder) gets the 16 leftovers
BLOCK_HANDS = {0: "3D 2H", 1: "4C 2S"}
BLOCK_LEFT = "5D KD KC 6D 7D 8D 9D TD JD QD AD 6C 7C 8C 9C TC"


def block_game(top_rule: str) -> Game:
    """Seat 0 leads ♦3, seat 1 plays ♣4 (one card left: ♠2), the others pass: seat 0 must
    answer ♣4 while the next seat holds one card."""
    g = new_game(18, {"top_rule": top_rule}, hands=BLOCK_HANDS, leftovers=BLOCK_LEFT)
    g.step("3D")
    g.step("4C")
    passes(g, 16)
    assert g.seat == 0 and g.view().next_cards == 1
    return g


def test_blocking_mandatory_following():
    g = block_game("mandatory")
    v = g.view()
    assert [str(o) for o in v.options] == ["2H"] and not v.can_pass
    before = g.state()
    for bad in ("5D", "PASS"):
        with pytest.raises(IllegalPlayError, match=r"頂大 \(top_rule='mandatory'\) requires playing 2H"):
            g.step(bad)
        assert g.state() == before
    g.step("2H")
    g.step("PASS")  # seat 1 (next seat holds 2 cards: no 頂大) passes
    passes(g, 16)
    assert g.seat == 0 and g.trick is None
    v = g.view()  # leading: a single must be the highest card (now ♦A) or a combination
    assert "5D" not in [str(o) for o in v.options] and "AD" in [str(o) for o in v.options]
    with pytest.raises(IllegalPlayError, match=r"requires playing AD or a combination"):
        g.step("5D")
    g.step("KD KC")
    assert g.violations == 0


def test_blocking_liability_next_turn():
    g = block_game("liability")
    assert "5D" in [str(o) for o in g.view().options] and g.view().can_pass
    g.step("5D")  # violation (b): ♥2 beats ♣4
    assert g.violations == 1
    g.step("2S")  # the next seat goes out on the very next turn
    r = g.result()
    assert r.winner == 1 and r.liable == 0 and r.violations == 1
    assert g.log[-1][2:] == (1, WIN, 0, 0)


def test_blocking_liability_pass_is_a_violation():
    g = block_game("liability")
    g.step("PASS")
    g.step("2S")
    assert g.result().liable == 0 and g.result().violations == 1


def test_blocking_liability_only_the_very_next_turn():
    g = block_game("liability")
    g.step("5D")  # violation
    g.step("PASS")  # seat 1 does not go out now
    passes(g, 16)
    assert g.seat == 0 and g.trick is None
    g.step("2H")  # complies (leads the highest card)
    g.step("2S")  # seat 1 goes out, but not right after the violation
    r = g.result()
    assert r.winner == 1 and r.liable == -1 and r.violations == 1


def test_blocking_liability_leading_low_single():
    g = block_game("liability")
    g.step("2H")
    g.step("PASS")
    passes(g, 16)
    g.step("5D")  # violation (a): leads a single that is not its highest card
    g.step("2S")
    assert g.result().liable == 0 and g.result().violations == 1


def test_blocking_off():
    g = block_game("off")
    g.step("5D")
    g.step("2S")
    r = g.result()
    assert r.liable == -1 and r.violations == 0


def test_blocking_mandatory_opening_edge():
    # 27 players: seat 0 holds 26 cards and must open with ♦3 while seat 1 holds one card.
    # ♦3 forms no combination: the 頂大 filter would leave nothing and is not applied.
    left = "5C 5H 5S 6C 6H 6S 7C 7H 7S 8C 8H 8S 9C 9H 9S TC TH TS JC JH JS QC QH QS KS"
    g = new_game(27, {"top_rule": "mandatory"}, hands={0: "3D", 1: "2S"}, leftovers=left, policies="heuristic")
    v = g.view()
    assert v.next_cards == 1 and [str(o) for o in v.options] == ["3D"]
    g.step()  # the heuristic's 頂大 replacement is not legal here: it takes the first option
    assert g.log[-1][2:] == (0, LEAD, 1, 1)
    # with a pair of 3s the single ♦3 is filtered out
    left2 = "3C " + " ".join(left.split()[1:])
    g = new_game(27, {"top_rule": "mandatory"}, hands={0: "3D", 1: "2S"}, leftovers=left2)
    opts = [str(o) for o in g.view().options]
    assert "3D" not in opts and opts[0] == "3D 3C"
    with pytest.raises(IllegalPlayError, match=r"頂大 \(top_rule='mandatory'\) requires playing KS or a combination"):
        g.step("3D")


# --------------------------------------------------------------------------------------
# §4 Instant wins and redeals
# --------------------------------------------------------------------------------------

DRAGON_A = "3C 4D 5D 6D 7D 8D 9D TD JD QD KD AD 2D"
DRAGON_B = "3H 4C 5C 6C 7C 8C 9C TC JC QC KC AC 2C"


def test_instant_dragon_scan_from_the_leader():
    rules = {"instant_dragon": True, "instant_four_twos": True}
    g = new_game(4, rules, hands={1: DRAGON_A, 3: DRAGON_B, 2: "3D"})
    assert g.leader == 2 and g.over and g.instant == 1 and g.winner == 3  # scan 2, 3, 0, 1
    assert g.log[-2:] == [(0, 4, 3, INSTANT_WIN, M(DRAGON_B), 1), (0, 5, 3, WIN, 0, -1)]
    r = g.result()
    assert r.cards_left == (13, 13, 13, 13) and r.plays == 0 and r.turns == 0 and r.liable == -1
    assert r.points_left[3] == sum(range(3, 16))
    # the same deal with the leader at seat 0: seat 1 comes first
    g = new_game(4, rules, hands={1: DRAGON_A, 3: DRAGON_B, 0: "3D"})
    assert g.winner == 1


def test_instant_four_twos_and_dragon_first():
    g = new_game(4, {"instant_four_twos": True}, hands={2: "2D 2C 2H 2S"})
    assert g.instant == 2 and g.winner == 2 and g.log[-2][3:] == (INSTANT_WIN, g.hands[2], 2)
    assert not new_game(4, {"instant_dragon": True}, hands={2: "2D 2C 2H 2S"}).over
    # one hand with both: the dragon is checked first
    both = "3C 4D 5D 6D 7D 8D 9D TD JD QD KD AD 2D 2C 2H 2S"
    g = new_game(3, {"instant_dragon": True, "instant_four_twos": True}, hands={1: both})
    assert g.instant == 1 and g.winner == 1 and g.result().cards_left[1] == 17


def test_instant_win_checked_before_redeal():
    rules = {"instant_dragon": True, "redeal": "points_lt_3"}
    g = Game(make_config(4, rules), "greedy", decks=[deck_for(4, {0: "3D 3H 3S 4H 4S 5H 5S 6H 6S 7H 7S 8H 8S", 2: DRAGON_A})])
    assert g.instant == 1 and g.redeals == 0 and g.winner == 2


WEAK = "3D 3C 3H 3S 4D 4C 4H 4S 5D 5C 5H 5S JS"  # J = 1 point


@pytest.mark.parametrize(
    "rule, eligible, not_eligible",
    [
        ("points_lt_3", WEAK.replace("JS", "QS"), WEAK.replace("JS", "KS")),  # 2 < 3; 3 is not
        ("hk_max10", WEAK.replace("JS", "TS"), WEAK),
        ("literal_min10", "TD TC TH TS JD JC JH JS QD QC QH QS KD", "9D TC TH TS JD JC JH JS QD QC QH QS KD"),
    ],
)
def test_redeal_rules(rule, eligible, not_eligible):
    cfg = make_config(4, {"redeal": rule})
    normal = deck_for(4, {}, spread=True)
    d1 = deck_for(4, {2: eligible}, spread=True)
    g = Game(cfg, "greedy", decks=[d1, normal])
    assert g.redeals == 1
    assert rows_of(g, REDEAL) == [(0, 4, 2, REDEAL, M(eligible), 1)]
    assert [r[3] for r in g.log] == [DEAL] * 4 + [REDEAL] + [DEAL] * 4
    assert [r[4] for r in g.log[5:]] == [cards_to_mask(normal[13 * s : 13 * s + 13]) for s in range(4)]
    assert g.source.used == 2 and g.play().redeals == 1
    g = Game(cfg, "greedy", decks=[deck_for(4, {2: not_eligible}, spread=True)])
    assert g.redeals == 0 and g.source.used == 1
    if rule == "points_lt_3":
        # seats are scanned 0..N-1 (not from the leader, seat 3): seat 1 is logged
        d3 = deck_for(
            4,
            {1: "3C 3H 3S 4D 4C 4H 4S 5D 5C 5H 5S 6D QS", 3: "3D 6C 6H 6S 7D 7C 7H 7S 8D 8C 8H 8S JS"},
            spread=True,
        )
        g = Game(cfg, "greedy", decks=[d3, normal])
        assert rows_of(g, REDEAL)[0][2] == 1
    assert Game(make_config(4, NO_REDEAL), "greedy", decks=[d1]).redeals == 0


def test_redeal_cap_and_running_out_of_decks():
    weak = deck_for(4, {1: WEAK})
    cfg = make_config(4, {"redeal": "points_lt_3"})
    g = Game(cfg, "greedy", decks=[weak] * (MAX_REDEALS + 1))
    assert g.redeals == MAX_REDEALS and g.source.used == MAX_REDEALS + 1
    assert [r[5] for r in rows_of(g, REDEAL)] == list(range(1, MAX_REDEALS + 1))
    steps = [r[1] for r in g.log]
    assert steps == list(range(len(steps)))
    r = g.play()
    assert r.redeals == MAX_REDEALS
    with pytest.raises(KaptaiError, match=r"deal 101 needs a deck, but only 100 deck\(s\) were given"):
        Game(cfg, "greedy", decks=[weak] * MAX_REDEALS)
    with pytest.raises(KaptaiError, match="not a permutation"):
        DeckSource(decks=[[0] * 52])


def test_redeal_reshuffles_from_the_stream():
    cfg = make_config(8)  # six cards each: redeals are common
    out, log = run_hands(cfg, "greedy", np.random.PCG64(3), 4, record=4)
    assert out["redeals"].sum() > 0
    twin = RandomStream(np.random.PCG64(3))
    for g in range(4):
        rows = log[log[:, 0] == g]
        for k in range(out["redeals"][g] + 1):
            deck = shuffled_deck(twin)
            deals = rows[rows[:, 3] == DEAL][8 * k : 8 * k + 8]
            assert [int(r[4]) & cards_to_mask(deck[s * 6 : s * 6 + 6]) for s, r in enumerate(deals)] == [
                cards_to_mask(deck[s * 6 : s * 6 + 6]) for s in range(8)
            ]


# --------------------------------------------------------------------------------------
# Policies on hand-built positions
# --------------------------------------------------------------------------------------


def choice(policy, *args, **kw):
    c = policy.choose(make_view(*args, **kw))
    return None if c is None else str(c)


def test_greedy_decisions():
    g = GreedyPolicy()
    assert choice(g, "3D 4D 5D 6C 7C 9S 9H KD KC KS") == "3D 4D 5D 6C 7C"  # straight < full house
    assert choice(g, "9S 9H KD KC KS") == "9H 9S KD KC KS"
    assert choice(g, "4D 4C 4H 9S") == "4D 4C 4H"
    assert choice(g, "4D 4C 4H 4S 7D", {"four_card_play": "quad"}) == "4D 4C 4H 4S 7D"
    assert choice(g, "5C 9D 9S KH", trick="8H") == "9D"
    assert choice(g, "5C 9D 9S KH", trick="7S 7D") == "9D 9S"
    assert choice(g, "5C 9D 9S KH", trick="7S 7D 7H") is None
    # 頂大: a single becomes the highest card
    nxt1 = (13, 1, 13, 13)
    assert choice(g, "3D 5C 9H", cards_left=nxt1) == "9H"
    assert choice(g, "3D 5C 9H", cards_left=nxt1, rules={"top_rule": "off"}) == "3D"
    assert choice(g, "3D 5C 5H", cards_left=nxt1) == "5C 5H"  # largest class first
    assert choice(g, "3D 3C 5C 9H", cards_left=nxt1) == "3D 3C"
    assert choice(g, "3D 5C 9H", trick="4S", cards_left=nxt1) == "9H"
    assert choice(g, "3D 5C 9H", trick="TS", cards_left=nxt1) is None
    assert g.swap(make_view("3D 3C")) is True


def test_random_policy_draws():
    v = make_view("3D 5C 7H", trick="4S")  # 5C, 7H, PASS
    for seed in range(5):
        expect = RandomStream(np.random.PCG64(seed)).bounded(3)
        got = RandomPolicy(RandomStream(np.random.PCG64(seed))).choose(v)
        assert (None if expect == 2 else str(v.options[expect])) == (None if got is None else str(got))
    s = RandomStream(np.random.PCG64(0))
    one = make_view("3D 5C", trick="4S", rules={"pass_only_if_unable": True})  # only 5C
    assert str(RandomPolicy(s).choose(one)) == "5C"
    assert s.next_uint32() == RandomStream(np.random.PCG64(0)).next_uint32()  # no draw


def test_heuristic_plan():
    def units(hand, **rules):
        return [str(u) for u in plan(hand, RuleSet(**rules))]

    assert units("5D 5C 5H 5S 8D 9C 9H") == ["5D 5C 5H 5S 8D", "9C 9H"]  # quad + lowest singleton
    assert units("5D 5C 5H 5S 9C 9H") == ["5D 5C", "5H 5S", "9C 9H"]  # no singleton: two pairs
    assert units("5D 5C 5H 5S 8D", four_card_play="quad") == ["5D 5C 5H 5S", "8D"]
    p = plan("5D 5C 5H 5S 8D", RuleSet(quad_kicker="optional"))
    assert [u.trick for u in p] == [5, 1]
    assert units("7D 7C 7H 4S 4H 9D 9C") == ["4H 4S 7D 7C 7H", "9D 9C"]  # triple + lowest pair
    assert units("7D 7C 7H 5S") == ["5S", "7D 7C 7H"]
    assert units("3D 4C 5H 6S 7D 8C 9H TS JD QC") == ["3D 4C 5H 6S 7D", "8C 9H TS JD QC"]
    assert units("3D 4C 5H 5S 6S 7D") == ["3D", "4C", "5H 5S", "6S", "7D"]
    assert units("3H 5H 9H JH KH 2D") == ["3H 5H 9H JH KH", "2D"]
    assert units("3D 5D 7D 9D JD 3H") == ["3D 3H", "5D", "7D", "9D", "JD"]  # 3 is no singleton rank
    assert units("3D 5D 7D 9D JD KD") == ["3D 5D 7D 9D JD", "KD"]
    # top_rank rotates the visiting order: with A on top, 2 2 is the lowest pair
    assert units("5D 5C 5H 2S 2H KD KC") == ["5D 5C 5H KD KC", "2H 2S"]
    assert units("5D 5C 5H 2S 2H KD KC", top_rank="A") == ["2H 2S 5D 5C 5H", "KD KC"]


def test_boss_units():
    hand = M("4D AS 2H 2S")
    units = plan(hand)
    assert [str(u) for u in units] == ["4D", "AS", "2H 2S"]
    assert boss_units(units, FULL_MASK & ~hand) == (False, False, True)
    # with the other 2s gone, ♠A is a boss too
    assert boss_units(units, FULL_MASK & ~hand & ~M("2D 2C")) == (False, True, True)
    five = plan("3D 4C 5H 6S 7D")
    assert boss_units(five, 0) == (False,)  # five-card units never are


def test_heuristic_leading():
    h = HeuristicPolicy()
    assert choice(h, "9D 9C") == "9D 9C"  # the whole hand
    assert choice(h, "3D 4C 5H 6S 7D 9C 9H", opening_card=0) == "3D 4C 5H 6S 7D"
    assert choice(h, "3D 9C 9H", opening_card=0) == "3D"
    assert choice(h, "4D 2S") == "2S"  # two units, one boss
    assert choice(h, "4D 7C 2S") == "4D"  # first non-boss
    played = "KD KC KH AD AC AH 2D 2C 2H"
    assert choice(h, "KS AS 2S", played=played) == "KS"  # all bosses: the first unit
    assert choice(h, "AS 2H 2S", played="2D 2C") == "AS"  # two units, both bosses: the lowest
    nxt1 = (13, 1, 13, 13)
    assert choice(h, "3D 9C 9H KS", cards_left=nxt1) == "9C 9H"  # 頂大: first non-single unit
    assert choice(h, "3D 9C KS", cards_left=nxt1) == "KS"
    assert choice(h, "3D 9C KS", cards_left=nxt1, rules={"top_rule": "off"}) == "3D"


def test_heuristic_following():
    h = HeuristicPolicy()
    nxt1 = (13, 1, 13, 13)
    assert choice(h, "4D 9C KS", trick="5D", cards_left=nxt1) == "KS"  # 頂大 first
    assert choice(h, "4D 9C KS", trick="5D") == "9C"
    assert choice(h, "9C 9H", trick="5D 5C") == "9C 9H"  # the whole hand
    assert choice(h, "3D 8C 9H 2S", trick="7D") == "8C"
    assert choice(h, "3D 8C 9H 2S", trick="TD") is None  # keeps its 2 while opponents hold > 4
    assert choice(h, "3D 8C 9H 2S", trick="TD", cards_left=(4, 13, 4, 13)) == "2S"
    assert choice(h, "3D 8C 9H 2S", trick="TD", rules={"pass_only_if_unable": True}) == "2S"
    assert choice(h, "8C 8H 9S", trick="7D") == "9S"
    assert choice(h, "8C 8H 4S", trick="7D") is None  # only the pair's cards beat: pass
    assert choice(h, "8C 8H 4S", trick="7D", cards_left=(3, 3, 13, 13)) == "8C"
    assert choice(h, "8C 8H 4S", trick="9D", cards_left=(3, 3, 13, 13)) is None
    assert h.swap(make_view("3D 3S 9C")) is False and h.swap(make_view("3D 4S 9C")) is True


def test_resolve_policies():
    s = RandomStream(np.random.PCG64(0))
    ps = resolve_policies(["random", "greedy", "heuristic"], 3, s)
    assert [p.name for p in ps] == ["random", "greedy", "heuristic"] and ps[0].stream is s
    with pytest.raises(RulesError, match="unknown policy 'best'"):
        resolve_policies("best", 2)


# --------------------------------------------------------------------------------------
# User choices and illegal plays
# --------------------------------------------------------------------------------------

ILLEGAL_HANDS = {0: "3D 3C 4D 7S 8S", 1: "9H 9S TD"}


def illegal_game(**rules) -> Game:
    return new_game(4, rules, hands=ILLEGAL_HANDS)


@pytest.mark.parametrize(
    "setup, bad, message",
    [
        ([], "KS", r'"KS" by seat 0: KS not in hand'),
        ([], "3D KS", r'"3D KS" by seat 0: KS not in hand'),
        ([], "3D 4D", r'"3D 4D" by seat 0: not a legal combination'),
        ([], "4D", r"must include 3D \(opening lead\)"),
        ([], "PASS", r'"PASS" by seat 0: cannot pass when leading'),
        ([], None, "cannot pass when leading"),
        (["3D"], "9H 9S", r'"9H 9S" by seat 1: wrong number of cards: the trick "3D" has 1 card'),
        (["3D 3C"], "TD", r'wrong number of cards: the trick "3D 3C" has 2 cards'),
        (["3D 3C", "9H 9S", "PASS", "PASS"], "3D 3C", r'"3D 3C" by seat 0: 3D 3C not in hand'),
        ([], "1X", r'invalid card "1X" \(token 1\): unknown rank "1"'),
        ([], 5, "a bare integer is ambiguous"),
        ([], [], "an empty play"),
    ],
)
def test_illegal_choices_leave_state_unchanged(setup, bad, message):
    g = illegal_game()
    for s in setup:
        g.step(s)
    before = g.state()
    with pytest.raises(IllegalPlayError, match=message):
        g.step(bad)
    assert g.state() == before
    g.play()  # the game goes on


def test_illegal_follow_messages():
    g = illegal_game()
    g.step("3D 3C")
    g.step("9H 9S")
    passes(g, 2)
    with pytest.raises(IllegalPlayError, match=r'"7S 8S" by seat 0: not a legal combination'):
        g.step("7S 8S")
    g = new_game(4, hands={0: "3D 3C 4D 7S 8S", 1: "9H 9S TD 5D"})
    g.step("3D")
    g.step("5D")
    passes(g, 2)
    before = g.state()
    with pytest.raises(IllegalPlayError, match=r'"4D" by seat 0: does not beat "5D"'):
        g.step("4D")
    assert g.state() == before
    g = illegal_game(pass_only_if_unable=True)
    g.step("3D")
    before = g.state()
    with pytest.raises(IllegalPlayError, match=r'"PASS" by seat 1: must play when able \(pass_only_if_unable\)'):
        g.step("PASS")
    assert g.state() == before


def test_choice_forms():
    for form in ("3D 3C", "c3, d3", [0, 1], ("3D", "3C"), np.array([1, 0])):
        g = illegal_game()
        g.step(form)
        assert g.log[-1][2:] == (0, LEAD, 3, 2)
    g = illegal_game()
    g.step(g.view().options[0])
    g.step("p")
    g.step(None)
    g.step("PASS")
    assert [r[3] for r in g.log[-4:]] == [LEAD, PASS, PASS, PASS]


class BadFirst(Policy):
    """Returns an illegal play once, then plays like greedy."""

    name = "bad-first"

    def __init__(self):
        self.calls = 0

    def choose(self, view):
        self.calls += 1
        if self.calls == 1:
            return "3D 4D"
        return GreedyPolicy().choose(view)


def test_illegal_policy_choice_then_the_game_continues():
    p = BadFirst()
    g = new_game(4, hands={0: "3D", 1: "2S 2H"}, policies=[p, "greedy", "greedy", "greedy"])
    before = g.state()
    with pytest.raises(IllegalPlayError, match=r'"3D 4D" by seat 0: not a legal combination'):
        g.step()
    assert g.state() == before
    r = g.play()
    assert r.winner in range(4) and p.calls > 1
    with pytest.raises(IllegalPlayError):
        run_hands(make_config(4, NO_REDEAL), [BadFirst(), "greedy", "greedy", "greedy"], np.random.PCG64(0), 1)


def test_scripted_policy():
    cfg = make_config(4, NO_REDEAL)
    deck = deck_for(4, {0: "3D 4D 5S", 1: "6C 7C", 2: "8H 9H", 3: "TS JS"})
    pols = [ScriptedPolicy("3D | PASS"), ScriptedPolicy("6C"), ScriptedPolicy("PASS"), ScriptedPolicy("PASS")]
    log: list = []
    play_game(cfg, pols, decks=[deck], log=log)
    body = [(r[2], r[3], r[4]) for r in log if r[3] in (LEAD, PLAY, PASS)][:5]
    assert body == [(0, LEAD, M("3D")), (1, PLAY, M("6C")), (2, PASS, 0), (3, PASS, 0), (0, PASS, 0)]
    strict = ScriptedPolicy(["3D"], then=None)
    with pytest.raises(KaptaiError, match="ran out of plays"):
        play_game(cfg, [strict, "greedy", "greedy", "greedy"], decks=[deck])


# --------------------------------------------------------------------------------------
# Random games: invariants, log replay, determinism
# --------------------------------------------------------------------------------------


def replay(cfg, game_rows: np.ndarray, out: dict, g: int) -> None:
    """Check one game's log against the rules and the outcome row."""
    rules, N, r = cfg.rules, cfg.players, cfg.leftover
    info = rules_info(rules)
    rows = [tuple(int(x) for x in row) for row in game_rows]
    assert [row[1] for row in rows] == list(range(len(rows)))
    i, redeals = 0, 0
    while True:  # deal phase
        lowest_gone, opening = False, None
        if rows[i][3] == LEFTOVER:
            assert (rows[i][2] >= 0 and rows[i][5] == r) or (rules.malaysian_3p and rows[i][5] == 0)
            i += 1
        elif rows[i][3] == SWAP:
            lowest_gone = rows[i][5] == 1
            i += 1
        hands = []
        for s in range(N):
            assert rows[i][2:4] == (s, DEAL) and rows[i][5] == bin(rows[i][4]).count("1")
            hands.append(rows[i][4])
            i += 1
        total = sum(bin(m).count("1") for m in hands)
        assert total == (51 if rules.malaysian_3p else 52)
        assert all(not a & b for a, b in itertools.combinations(hands, 2))
        held = min((c for m in hands for c in mask_to_cards(m)), key=info.strength.__getitem__)
        if rows[i][3] == REDEAL:
            redeals += 1
            assert rows[i][4] == hands[rows[i][2]] and rows[i][5] == redeals
            i += 1
            continue
        break
    dealt = sum(bin(m).count("1") for m in hands)
    assert out["redeals"][g] == redeals
    if rows[i][3] == INSTANT_WIN:
        s = rows[i][2]
        assert rows[i + 1][2:] == (s, WIN, 0, -1) and len(rows) == i + 2
        assert out["winner"][g] == s and out["instant"][g] == rows[i][5]
        assert out["cards_left"][g].tolist() == [bin(m).count("1") for m in hands]
        return
    assert out["instant"][g] == 0
    seat = out["leader"][g]
    if rules.first_lead == "lowest_card" and not lowest_gone:
        assert hands[seat] >> held & 1
        opening = held if rules.opening_must_include_lowest else None
    trick, last, npass, plays, turns, played = None, -1, 0, 0, 0, 0
    locked = [False] * N
    for row in rows[i:]:
        _, _, s, act, cards, value = row
        if act == WIN:
            assert s == last and hands[s] == 0 and value == out["liable"][g]
            break
        assert s == seat
        turns += 1
        if act == PASS:
            assert trick is not None
            assert value == int(locked[s])
            npass += 1
            if rules.pass_locks_out:
                locked[s] = True
        else:
            assert act == (LEAD if trick is None else PLAY)
            assert cards & ~hands[s] == 0
            e = info.entry(cards)
            assert e is not None and value == e[0]
            if opening is not None:
                assert cards >> opening & 1
                opening = None
            if trick is not None:
                assert e[0] == trick[0] and e[1] > trick[1]
            hands[s] &= ~cards
            played |= cards
            trick, last, npass = e, s, 0
            plays += 1
            if hands[s] == 0:
                seat = s
                continue
        if npass == N - 1:
            trick, npass, seat, locked = None, 0, last, [False] * N
        else:
            seat = (s + 1) % N
    else:
        raise AssertionError("no win row")
    w = out["winner"][g]
    left = [bin(m).count("1") for m in hands]
    assert left[w] == 0 and out["cards_left"][g].tolist() == left
    assert sum(left) + bin(played).count("1") == dealt
    assert out["points_left"][g].tolist() == [int(POINT_VALUES[list(mask_to_cards(m))].sum()) if m else 0 for m in hands]
    assert out["plays"][g] == plays and out["turns"][g] == turns
    if rules.top_rule != "liability":
        assert out["violations"][g] == 0 and out["liable"][g] == -1


RANDOM_CASES = [
    (2, {}, "greedy", 1),
    (2, {"pass_only_if_unable": True}, "random", 2),
    (3, {"malaysian_3p": True}, "random", 3),
    (3, {"malaysian_3p": True, "first_lead": "previous_winner"}, "heuristic", 4),
    (4, {}, "heuristic", 5),
    (4, {"top_rule": "mandatory", "pass_locks_out": True}, "random", 6),
    (4, {"four_card_play": "quad_or_two_pair", "two_pair_five": True, "suit_order": "taiwan"}, "greedy", 7),
    (5, {"first_lead": "previous_winner", "top_rank": "3", "straight_order": "sequential"}, "random", 8),
    (6, {"quad_kicker": "optional", "redeal": "hk_max10"}, "heuristic", 9),
    (7, {"instant_dragon": True, "instant_four_twos": True, "top_rule": "off"}, "greedy", 10),
    (8, {"opening_must_include_lowest": False, "pass_locks_out": True}, "heuristic", 11),
    (8, {"redeal": "literal_min10", "top_rule": "mandatory"}, "random", 12),
    (4, {}, ["random", "greedy", "heuristic", "random"], 13),
    (13, {}, "random", 14),
    (27, {"top_rule": "mandatory"}, "heuristic", 15),
]


@pytest.mark.parametrize("n, rules, policies, seed", RANDOM_CASES)
def test_random_games_replay_and_determinism(n, rules, policies, seed):
    cfg = make_config(n, rules)
    games = 6 if n <= 8 else 2
    out, log = run_hands(cfg, policies, np.random.PCG64(seed), games, record=games)
    assert set(out) == set(OUTCOME_DTYPES)
    for key, (dtype, per_seat) in OUTCOME_DTYPES.items():
        assert out[key].dtype == np.dtype(dtype) and out[key].shape == ((games, n) if per_seat else (games,))
    assert log.dtype == np.int64 and log.shape[1] == len(LOG_COLUMNS)
    for g in range(games):
        replay(cfg, log[log[:, 0] == g], out, g)
        if cfg.rules.first_lead == "previous_winner" and g > 0:
            assert out["leader"][g] == out["winner"][g - 1]
    out2, log2 = run_hands(cfg, policies, np.random.PCG64(seed), games, record=1)
    assert all(np.array_equal(out[k], out2[k]) for k in out)
    assert np.array_equal(log2, log[log[:, 0] == 0])
    if not cfg.rules.malaysian_3p:
        assert (out["swapped"] == -1).all()


def test_stream_order_deal_then_random_policy():
    # the whole run reads one stream: deck of game 0, the random policy's draws, deck of game 1
    cfg = make_config(4, NO_REDEAL)
    out, log = run_hands(cfg, "random", np.random.PCG64(21), 2, record=2)
    twin = RandomStream(np.random.PCG64(21))
    deck = shuffled_deck(twin)
    g0 = log[log[:, 0] == 0]
    assert [int(m) for m in g0[g0[:, 3] == DEAL][:, 4]] == [cards_to_mask(deck[13 * s : 13 * s + 13]) for s in range(4)]
    game = Game(cfg, "random", twin, decks=[deck])  # replays game 0 with the twin stream
    assert game.play().winner == out["winner"][0]
    deck1 = shuffled_deck(twin)
    g1 = log[log[:, 0] == 1]
    assert int(g1[0, 4]) == cards_to_mask(deck1[:13])


def test_run_hands_record_and_decks():
    cfg = make_config(4, NO_REDEAL)
    deck = list(range(52))
    out, log = run_hands(cfg, "heuristic", None, 3, record=2, decks=np.array([deck] * 3))
    assert set(log[:, 0].tolist()) == {0, 1}
    assert (out["leader"] == 0).all() and out["winner"].tolist() == [out["winner"][0]] * 3
    with pytest.raises(KaptaiError, match="deal 3 needs a deck"):
        run_hands(cfg, "heuristic", None, 3, decks=[deck] * 2)
    out, log = run_hands(cfg, "greedy", np.random.PCG64(0), 0)
    assert out["winner"].shape == (0,) and log.shape == (0, 6)
