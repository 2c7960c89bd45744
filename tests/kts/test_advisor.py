"""Exact draw odds and the hand advisor (``kaptai.kts.advisor``).

The oracles are independent of the code under test:

* **enumeration** -- every ordered sequence of draws (or claim/draw looks) from a small
  unseen pool, each copy a distinct tile, the win and its score judged by the reference
  evaluator (:mod:`kaptai.kts.reference`); the counts must equal the reported fractions
  exactly;
* **simulation** -- a seeded shuffle of the unseen tiles with the other players' draws in
  between, within a 99% interval;
* hands whose answer is known by construction (waits, scores and best discards worked out
  by hand), and the brute-force ``reference.max_overlap`` for the distance.
"""

from __future__ import annotations

import itertools
import math
from fractions import Fraction

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from kaptai.errors import InvalidHandError, InvalidTileError, KaptaiError, RulesError
from kaptai.kts import reference as ref
from kaptai.kts.advisor import ADVICE_COLUMNS, DRAW_ODDS_COLUMNS, advise, draw_odds
from kaptai.kts.tiles import COPIES_PER_SET, format_tile, parse_hand

READY = "16 16 16 12 33 13 15 22 66"  # waits 4-4, 2-6, 3-5 (any eight with the 6-6)


# ---------------------------------------------------------------------------------------
# helpers
# ---------------------------------------------------------------------------------------
def counts(ids) -> list[int]:
    return np.bincount(np.asarray(list(ids), dtype=np.int64), minlength=21).tolist()


def frac(text: str | None) -> Fraction | None:
    return None if text is None else Fraction(text)


def pool_of(hand, seen, sets) -> list[int]:
    """Every unseen copy, as a list of tile ids (one entry per physical tile)."""
    left = COPIES_PER_SET * sets - np.array(counts(hand)) - np.array(counts(seen))
    assert (left >= 0).all()
    return [t for t in range(21) for _ in range(int(left[t]))]


def enumerate_odds(hand, seen, rules, sets, looks, claims=False):
    """Over every ordered sequence of ``looks`` tiles from the unseen pool: P(some tile
    completes ``hand``), P(the first winning look is a claim) and the mean score of the
    first win (+1 when it is a draw).  With ``claims`` the looks alternate claim, draw;
    otherwise every look is a draw."""
    pool = pool_of(hand, seen, sets)
    base = counts(hand)
    score = {}
    for t in set(pool):
        c = list(base)
        c[t] += 1
        score[t] = ref.score(c, rules)
    total = wins = by_claim = points = 0
    for seq in itertools.permutations(range(len(pool)), looks):
        total += 1
        for j, idx in enumerate(seq):
            s = score[pool[idx]]
            if s >= 0:
                is_claim = claims and j % 2 == 0
                wins += 1
                by_claim += is_claim
                points += s + (0 if is_claim else 1)
                break
    return Fraction(wins, total), Fraction(by_claim, total), (Fraction(points, wins) if wins else None)


def metric(df, name, draws=None, discard=None):
    rows = df[(df.metric == name) & (df.discard.isna() if discard is None else df.discard == discard)]
    if draws is not None:
        rows = rows[rows.draws == draws]
    assert len(rows) == 1, (name, draws, discard, rows)
    return rows.iloc[0]


def small_case(seed: int, rules: str, players: int, sets: int, unseen: int):
    """A ready 2n+1-tile hand (a random winning hand minus a tile) and seen tiles leaving
    ``unseen`` tiles unseen, between 1 and ``unseen - 2`` of them live outs when enough
    copies are left."""
    rng = np.random.default_rng(seed)
    n = 3 if players == 2 else 4
    copies = (COPIES_PER_SET * sets).tolist()
    wins = ref.winning_hands(rules, copies, n)
    win = wins[rng.integers(len(wins))]
    ids = [t for t in range(21) for _ in range(int(win[t]))]
    ids.pop(int(rng.integers(len(ids))))
    outs = {t for t in range(21) if ref.score([c + (i == t) for i, c in enumerate(counts(ids))], rules) >= 0}
    rest = pool_of(ids, (), sets)
    rng.shuffle(rest)
    live = [t for t in rest if t in outs]
    dead = [t for t in rest if t not in outs]
    n_live = int(rng.integers(1, min(len(live), unseen - 2) + 1)) if live else 0
    keep = live[:n_live] + dead[: unseen - n_live]
    seen = live[n_live:] + dead[unseen - n_live:]
    return tuple(ids), tuple(seen), tuple(keep)


# ---------------------------------------------------------------------------------------
# draw odds against enumeration
# ---------------------------------------------------------------------------------------
CASES = [(seed, rules, 2, 1) for seed in range(6) for rules in ("traditional", "advanced")] + [
    (seed, rules, 4, 2) for seed in range(2) for rules in ("traditional", "advanced")
]


@pytest.mark.parametrize("seed,rules,players,sets", CASES)
def test_draw_odds_equal_enumeration(seed, rules, players, sets):
    hand, seen, _ = small_case(seed, rules, players, sets, unseen=7)
    df = draw_odds(hand, rules, seen=seen, draws=3, players=players, sets=sets)
    assert list(df.columns) == DRAW_ODDS_COLUMNS
    assert df.attrs["unseen"] == 7
    for k in (1, 2, 3):
        p, _, e = enumerate_odds(hand, seen, rules, sets, k)
        assert frac(metric(df, "p_win_within", k).exact) == p
        assert metric(df, "p_win_within", k).value == pytest.approx(float(p))
        assert frac(metric(df, "expected_score", k).exact) == e
    p1, _, _ = enumerate_odds(hand, seen, rules, sets, 1)
    assert frac(metric(df, "p_win_next", 1).exact) == p1
    live = sum(1 for t in pool_of(hand, seen, sets) if ref.score(
        [c + (i == t) for i, c in enumerate(counts(hand))], rules) >= 0)
    assert metric(df, "live_outs").value == live
    waits = ref.waits(counts(hand), rules)
    assert metric(df, "waits").tiles == " ".join(format_tile(t) for t in waits)
    assert metric(df, "waits").value == len(waits)


@pytest.mark.parametrize("seed,rules,players,sets", CASES[:8])
def test_claims_equal_enumeration_of_looks(seed, rules, players, sets):
    hand, seen, _ = small_case(seed, rules, players, sets, unseen=7)
    df = draw_odds(hand, rules, seen=seen, draws=2, players=players, sets=sets, claims=True)
    for k in (1, 2):
        p, by_claim, e = enumerate_odds(hand, seen, rules, sets, 2 * k, claims=True)
        assert frac(metric(df, "p_win_within", k).exact) == p
        assert frac(metric(df, "p_win_by_claim", k).exact) == by_claim
        assert frac(metric(df, "expected_score", k).exact) == e


@pytest.mark.parametrize("seed", range(4))
def test_discard_rows_equal_enumeration(seed):
    """A hand of 2n+2 tiles: each discard's rows are those of the 2n+1 tiles left, the
    discard now seen."""
    rules, players, sets = ("traditional", "advanced")[seed % 2], 2, 1
    hand, seen, keep = small_case(100 + seed, rules, players, sets, unseen=7)
    big = hand + (keep[-1],)  # draw one unseen tile: 6 stay unseen
    df = draw_odds(big, rules, seen=seen, draws=2, players=players, sets=sets)
    if (df.metric == "complete").any():
        assert ref.score(counts(big), rules) >= 0
        return
    discards = sorted(set(big))
    assert sorted(parse_hand(" ".join(df.discard.unique()))) == discards
    for d in discards:
        rest = list(big)
        rest.remove(d)
        for k in (1, 2):
            p, _, e = enumerate_odds(rest, seen + (d,), rules, sets, k)
            assert frac(metric(df, "p_win_within", k, format_tile(d)).exact) == p
            assert frac(metric(df, "expected_score", k, format_tile(d)).exact) == e


def test_simulation_with_other_players_between_own_draws():
    """4 players: after the player's discard the three others draw (tiles the player does
    not see) before each own draw.  Shuffle the unseen tiles, read the own draws at every
    fourth position (and the previous player's discard, a claimable look, just before):
    the hit rate and the mean score of the first win agree with the exact answer (a 99%
    interval over the four checks)."""
    hand, seen, rules, draws = "66 66 14 14 23 23 55 55 46", "12 24 11", "advanced", 6
    ids, seen_ids = parse_hand(hand), parse_hand(seen)
    pool = np.array(pool_of(ids, seen_ids, 2))
    score = np.full(21, -1)
    for t in set(pool.tolist()):
        score[t] = ref.score([c + (i == t) for i, c in enumerate(counts(ids))], rules)
    rng = np.random.default_rng(20240605)
    trials = 100_000
    shuffled = rng.permuted(np.tile(pool, (trials, 1)), axis=1)
    # four checks (hit rate and mean score, with and without claims) at a family-wise 99%:
    # each two-sided at 1 - 0.01/4 (Bonferroni)
    z = 3.023
    for claims in (False, True):
        df = draw_odds(hand, rules, seen=seen, draws=draws, claims=claims)
        cols = [4 * p + 3 for p in range(draws)]
        if claims:
            cols = sorted(cols + [4 * p + 2 for p in range(draws)])
        s = score[shuffled[:, cols]]
        hit = s >= 0
        won = hit.any(axis=1)
        first = hit.argmax(axis=1)
        p_exact = float(frac(metric(df, "p_win_within", draws).exact))
        p_hat = won.mean()
        assert abs(p_hat - p_exact) <= z * math.sqrt(p_exact * (1 - p_exact) / trials)
        is_draw = (np.array(cols)[first] % 4 == 3) if claims else np.ones(trials, bool)
        points = s[np.arange(trials), first] + is_draw
        e_exact = float(frac(metric(df, "expected_score", draws).exact))
        sample = points[won]
        assert abs(sample.mean() - e_exact) <= z * sample.std(ddof=1) / math.sqrt(len(sample))


# ---------------------------------------------------------------------------------------
# closed form and worked cases
# ---------------------------------------------------------------------------------------
def test_expected_score_worked_by_hand():
    """66 66 · 14 14 · 23 23 · 55 55 · 46 waits on 4-6 (all pairs 8 + general eye 1 = 9)
    and 5-5 (basic 2 + 1 = 3).  With one 4-6 seen: 2 live 4-6 and 2 live 5-5 of 54
    unseen tiles; self-drawn mean (2*10 + 2*4) / 4 = 7."""
    hand, seen = "66 66 14 14 23 23 55 55 46", "46"
    df = draw_odds(hand, "advanced", seen=seen, draws=2)
    assert df.attrs["unseen"] == 54
    assert metric(df, "waits").tiles == "5-5 4-6"
    assert metric(df, "live_outs").value == 4
    assert metric(df, "p_win_next", 1).exact == "2/27"
    assert metric(df, "p_win_within", 2).exact == _fmt(1 - Fraction(math.comb(50, 2), math.comb(54, 2)))
    assert metric(df, "expected_score", 1).exact == "7/1"
    assert metric(df, "expected_score", 2).exact == "7/1"
    # claims, one turn: claim look wins with 4/54, the draw with 50/54 * 4/53; base mean 6
    c = draw_odds(hand, "advanced", seen=seen, draws=1, claims=True)
    f1, f2 = Fraction(4, 54), Fraction(50, 54) * Fraction(4, 53)
    assert frac(metric(c, "p_win_within", 1).exact) == f1 + f2
    assert frac(metric(c, "p_win_by_claim", 1).exact) == f1
    assert metric(c, "expected_score", 1).exact == "668/103" == _fmt(6 + f2 / (f1 + f2))


def _fmt(x: Fraction) -> str:
    return f"{x.numerator}/{x.denominator}"


@pytest.mark.parametrize("claims", [False, True])
def test_closed_form_and_monotone(claims):
    df = draw_odds(READY, seen="44 26", draws=5, claims=claims)
    u, w = df.attrs["unseen"], int(metric(df, "live_outs").value)
    assert (u, w) == (53, 6)
    ps = [frac(metric(df, "p_win_within", k).exact) for k in range(1, 6)]
    assert ps == sorted(ps)
    looks = 2 if claims else 1
    for k, p in enumerate(ps, 1):
        assert p == 1 - Fraction(math.comb(u - w, looks * k), math.comb(u, looks * k))
    assert metric(df, "p_win_next", 1).exact == "6/53"


def test_complete_hand():
    df = draw_odds(READY + " 44", "traditional")
    assert df.metric.tolist() == ["complete", "expected_score"]
    assert df.exact.tolist() == ["1/1", "3/1"]
    a = advise(READY + " 44", "traditional")
    assert a[["rank", "action", "p_win_within", "expected_score", "distance"]].values.tolist() == [
        [1, "win", 1.0, 3.0, -1]]


def test_dead_wait_and_no_waits():
    df = draw_odds(READY, seen="44 44 44 44 26 26 35 35")
    assert metric(df, "live_outs").value == 0
    assert metric(df, "waits").tiles == "4-4 2-6 3-5"
    assert metric(df, "p_win_within", 3).exact == "0/1"
    assert np.isnan(metric(df, "expected_score", 3).value) and metric(df, "expected_score", 3).exact is None


# ---------------------------------------------------------------------------------------
# advisor
# ---------------------------------------------------------------------------------------
def test_ready_hand_plus_useless_tile():
    a = advise(READY + " 56", "traditional", draws=3)
    assert list(a.columns) == ADVICE_COLUMNS
    best = a.iloc[0]
    assert (best["rank"], best.action, best.discard, best.waits, best.live_outs, best.distance) == (
        1, "discard", "5-6", "4-4 2-6 3-5", 8, 0)
    assert (a.p_win_within.iloc[1:] < best.p_win_within).all()
    assert frac(best.exact) == 1 - Fraction(math.comb(54 - 8, 3), math.comb(54, 3))  # 64 - 10 unseen


def test_many_outs_beats_one_out():
    """Eye 16 16 and three ten pairs; throwing 5-6 waits on the eights of 6-6 (8 outs),
    throwing 6-6 waits on the nines of 5-6 of which only one 3-6 is unseen."""
    a = advise("16 16 33 13 15 22 55 46 66 56", seen="45 45 36", model="one_tile")
    top = a.head(2)[["rank", "discard", "waits", "live_outs", "distance"]].values.tolist()
    assert top == [[1, "5-6", "4-4 2-6 3-5", 8, 0], [2, "6-6", "4-5 3-6", 1, 0]]
    assert (a.distance.iloc[2:] == 1).all() and (a.live_outs.iloc[2:] == 0).all()
    assert (a["rank"].iloc[2:] == 3).all()  # the others tie


def test_expected_score_breaks_a_tie():
    """22 22 · 11+44 · 13+33 · 55+46 plus 6-6 and 5-6.  Throwing 5-6 waits on the eights
    (4-4, 2-6, 3-5: all even, 4); throwing 6-6 waits on the nines (4-5, 3-6: basic, 2).
    The seen tiles leave 3 live outs either way, so the score decides."""
    a = advise("22 22 11 44 13 33 55 46 66 56", "advanced", seen="44 44 26 35 45", model="one_tile")
    top = a.head(2)[["rank", "discard", "live_outs", "expected_score", "exact"]].values.tolist()
    assert top[0][:4] == [1, "5-6", 3, 5.0]
    assert top[1][:4] == [2, "6-6", 3, 3.0]
    assert top[0][4] == top[1][4]  # the same P(win within 3 draws)


def test_claim_wins():
    a = advise(READY, offered="44", draws=3)
    assert a.action.tolist() == ["claim_win", "no_claim"]
    first = a.iloc[0]
    assert (first["rank"], first.p_win_within, first.expected_score, first.distance) == (1, 1.0, 2.0, -1)
    # not claiming: the offered 4-4 is dead, so 7 live outs of 54 unseen
    assert a.iloc[1].live_outs == 7 and a.attrs["unseen"] == 54


def test_claim_improves():
    """Not ready (66, 56 and 24 unpaired): taking the 4-4 makes 66 + 44 and one throw
    leaves a ready hand; standing gives no chance at all."""
    a = advise("16 16 33 13 15 22 66 56 24", offered="44", draws=2, model="one_tile")
    assert a.iloc[0].action == "claim" and a.iloc[0].p_win_within > 0
    stay = a[a.action == "no_claim"].iloc[0]
    assert stay.p_win_within == 0 and stay.distance == 1
    assert a.iloc[0].discard == "5-6" and a.iloc[0].waits == "1-6 2-5 3-4"


def test_claim_is_worse():
    """A ready hand offered a useless tile: a claim cannot throw it straight back (the exchange
    discard comes from the hand held before the claim), and any other throw is strictly worse."""
    a = advise(READY, offered="56", draws=3)
    assert a.iloc[0].action == "no_claim" and a.iloc[0]["rank"] == 1
    assert a[(a.action == "claim") & (a.discard == "5-6")].empty
    others = a[a.action == "claim"]
    assert (others.p_win_within < a.iloc[0].p_win_within).all() and (others["rank"] > 1).all()


@pytest.mark.parametrize("players,hand", [(4, READY), (2, "16 16 12 33 13 15 22")])
def test_nine_tiles_without_offer_needs_offered(players, hand):
    """A 2n+1-tile hand has no decision without the offered tile (issue 22): say what to give."""
    small = 9 if players == 4 else 7
    with pytest.raises(InvalidHandError, match=rf"a hand of {small} tiles is one short of a turn: give the "
                                               rf"offered tile with --offered .*the hand after the draw "
                                               rf"\({small + 1} tiles\)"):
        advise(hand, seen="44", draws=2, players=players)
    assert len(advise(hand, seen="44", draws=2, players=players, offered="55"))  # with the offered tile it ranks
    assert len(draw_odds(hand, seen="44", draws=2, players=players))  # standing on it: draw_odds


def _keys(a):
    return list(zip(a.p_win_within, a.expected_score.fillna(-1), a.live_outs, -a.distance))


@settings(max_examples=40)
@given(seed=st.integers(0, 2**32 - 1), rules=st.sampled_from(["traditional", "advanced"]),
       n_seen=st.integers(0, 20), draws=st.integers(1, 4))
def test_advise_agrees_with_draw_odds(seed, rules, n_seen, draws):
    rng = np.random.default_rng(seed)
    wall = np.repeat(np.arange(21), COPIES_PER_SET * 2)
    rng.shuffle(wall)
    hand, seen = wall[:10].tolist(), wall[10:10 + n_seen].tolist()
    a = advise(hand, rules, seen=seen, draws=draws, model="one_tile")
    df = draw_odds(hand, rules, seen=seen, draws=draws)
    keys = _keys(a)
    assert keys == sorted(keys, reverse=True)
    if a.action.iloc[0] == "win":
        assert (df.metric == "complete").any()
        return
    assert sorted(a.discard) == sorted(set(format_tile(t) for t in hand))
    assert ((a.distance == 0) == (a.live_outs > 0)).all()
    assert (a.distance >= 0).all()
    for r in a.itertuples():
        assert r.exact == metric(df, "p_win_within", draws, r.discard).exact
        assert r.live_outs == metric(df, "live_outs", None, r.discard).value
        assert r.waits == metric(df, "waits", None, r.discard).tiles


@pytest.mark.parametrize("seed", range(6))
def test_distance_equals_reference_kap_shap(seed):
    rng = np.random.default_rng(seed)
    rules = ("traditional", "advanced")[seed % 2]
    wall = np.repeat(np.arange(21), COPIES_PER_SET)
    rng.shuffle(wall)
    hand, seen = wall[:8].tolist(), wall[8:14].tolist()
    a = advise(hand, rules, seen=seen, players=2)
    if a.action.iloc[0] == "win":
        return
    for r in a.itertuples():
        d = parse_hand(r.discard)[0]
        rest = list(hand)
        rest.remove(d)
        avail = (COPIES_PER_SET - np.array(counts(seen)) - np.array(counts([d]))).tolist()
        assert r.distance == 7 - ref.max_overlap(counts(rest), rules, avail, n=3)


def test_distance_equals_reference_two_sets():
    hand, seen = "66 11 13 56 45 36 24 12 25 34", "66 66 16 16 16"
    a = advise(hand, "traditional", seen=seen)
    for r in a.itertuples():
        d = parse_hand(r.discard)[0]
        rest = list(parse_hand(hand))
        rest.remove(d)
        avail = (COPIES_PER_SET * 2 - np.array(counts(parse_hand(seen))) - np.array(counts([d]))).tolist()
        assert r.distance == 9 - ref.max_overlap(counts(rest), "traditional", avail, n=4)


def test_kap_shap_and_sets_option():
    a = advise("16 16 33 14 13 23 46 55", players=2)  # 8 tiles, one set
    assert a.attrs["sets"] == 1 and a.attrs["unseen"] == 24
    df = draw_odds(READY, sets=3, players=5)
    assert df.attrs["sets"] == 3 and df.attrs["unseen"] == 96 - 9


# ---------------------------------------------------------------------------------------
# bad input
# ---------------------------------------------------------------------------------------
BAD = [
    (dict(hand="16 17 16 12 33 13 15 22 66"), InvalidTileError, r"tile 2 of the hand: '17' is not a domino"),
    (dict(hand="16 16 16 12 33 13 15 22 77"), InvalidTileError, r"'77' is not a domino"),
    (dict(hand=[0, 1, 2, 3, 4, 5, 6, 7, 99]), InvalidTileError, r"tile id 99 is out of range"),
    (dict(hand=5), InvalidHandError, r"a hand must be a string"),
    (dict(hand="66 66 66 66 66 16 16 16 12 33"), InvalidHandError,
     r"the hand holds 5 copies of 6-6 but 2 sets hold at most 4 \(one set has 2 copies of it\): it needs 3 sets \(--sets 3\)"),
    (dict(hand="14 14 16 12 33 13 15 22 66", seen="14"), InvalidHandError,
     r"the hand and the seen tiles hold 3 copies of 1-4 but 2 sets hold at most 2"),
    (dict(hand=READY, seen="44 xx"), InvalidTileError, r"tile 2 of seen: unknown tile 'xx'"),
    (dict(hand=READY, seen=7), InvalidHandError, r"seen must be a string"),
    (dict(hand="16 16 16 12 33 13 15 22"), InvalidHandError,
     r"the hand has 8 tiles: expected 9 or 10 for Kap Tai Shap with 4 players"),
    (dict(hand=READY + " 44 55"), InvalidHandError, r"the hand has 11 tiles"),
    (dict(hand=READY, players=2), InvalidHandError, r"the hand has 9 tiles: expected 7 or 8 for Kap Shap"),
    (dict(hand=READY, draws=0), RulesError, r"draws=0 is not allowed"),
    (dict(hand=READY, draws=-2), RulesError, r"draws=-2 is not allowed"),
    (dict(hand=READY, draws=1.5), RulesError, r"draws=1.5 is not allowed"),
    (dict(hand=READY, draws=True), RulesError, r"draws=True is not allowed"),
    (dict(hand=READY, draws="3"), RulesError, r"draws='3' is not allowed"),
    (dict(hand=READY, draws=56), RulesError, r"draws=56 needs 56 draws but only 55 tiles are unseen"),
    (dict(hand=READY, rules="fast"), RulesError, r"unknown preset 'fast'"),
    (dict(hand=READY, players=1), RulesError, r"players=1 is not supported"),
    (dict(hand=READY, sets=0), RulesError, r"option 'sets' has bad value 0"),
    (dict(hand=READY, sets=1), RulesError, r"4 players need 37 tiles"),
]


@pytest.mark.parametrize("kwargs,error,match", BAD)
@pytest.mark.parametrize("func", [draw_odds, advise])
def test_bad_input(func, kwargs, error, match):
    kwargs = dict(kwargs)
    hand = kwargs.pop("hand")
    with pytest.raises(error, match=match):
        func(hand, **kwargs)


def test_bad_claims_horizon():
    with pytest.raises(RulesError, match=r"draws=28 with claims needs 56 looks but only 55 tiles are unseen"):
        draw_odds(READY, draws=28, claims=True)
    assert len(draw_odds(READY, draws=27, claims=True)) > 0


BAD_OFFERED = [
    ("14", dict(hand="14 14 16 12 33 13 15 22 66"), InvalidHandError,
     r"the hand, the seen tiles and the offered tile hold 3 copies of 1-4 but 2 sets hold at most 2"),
    ("雜九", {}, InvalidTileError, r"offered tile '雜九' is ambiguous: write 4-5 or 3-6"),
    ("17", {}, InvalidTileError, r"offered tile '17' is not a domino"),
    ("44 55", {}, InvalidHandError, r"offered must be one tile .* got 2"),
    ("", {}, InvalidHandError, r"offered must be one tile .* got 0"),
    (4.5, {}, InvalidTileError, r"offered tile 4.5 \(float\) is not a tile"),
    ("44", dict(hand=READY + " 56"), InvalidHandError, r"offered applies to a hand of 9 tiles"),
]


@pytest.mark.parametrize("offered,kwargs,error,match", BAD_OFFERED)
def test_bad_offered(offered, kwargs, error, match):
    kwargs = {"hand": READY, **kwargs}
    hand = kwargs.pop("hand")
    with pytest.raises(error, match=match):
        advise(hand, offered=offered, **kwargs)


def test_errors_are_kaptai_errors():
    for func in (draw_odds, advise):
        with pytest.raises(KaptaiError):
            func("nonsense")


def test_offered_forms():
    from kaptai.kts import TILES

    for o in ("4-4", "人", 2, TILES[2], [2]):
        assert advise(READY, offered=o).action.iloc[0] == "claim_win"


def test_a_claim_never_throws_the_claimed_tile_straight_back():
    """The exchange discard comes from the hand held before the claim (以手牌交換): the claimed
    tile goes back only as a second copy held before, as the engines play it."""
    from kaptai.kts.advisor import advise

    df = advise("44 44 13 55 56 56 16 16 45", "traditional", seen="23", offered="25")
    claims = df[df.action == "claim"]
    assert len(claims) == 6 and "2-5" not in set(claims.discard)
    held = advise("44 25 13 55 56 56 16 16 45", "traditional", seen="23", offered="25")
    assert "2-5" in set(held[held.action == "claim"].discard)  # a copy held before may go
