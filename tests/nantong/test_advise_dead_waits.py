"""Nantong advise: ``distance`` and ``waits`` count only copies the player can still draw.

A kind whose four copies are all in the player's concealed hand, its own exposed sets (pong 3,
kong 4, 起手 / 和子 the copies they hold) or turned out of play (a 將 has only 3 copies in play)
is no wait and no way to ready.  The cards seen elsewhere count in ``live_outs`` only.  Checked
on the reviewer's two positions (Python API and ``--format json``), against a brute force written
here from the rules (ready = one drawable card from a complete hand; the distance = the fewest
exchanges, each a card out and a drawable card in, to be ready) on small hands and on advised
positions with six or more own sets, and against the table-free reference programme on random
positions."""

import json
from collections import deque

import numpy as np
import pytest

from kaptai.cli import main
from kaptai.errors import InvalidHandError
from kaptai.nantong.advisor import advise
from kaptai.nantong.cards import format_card, parse_card, parse_cards
from kaptai.nantong.evaluate import complete_many, distance, distance_many, hand_counts, live_outs
from kaptai.nantong.reference import distance_dp
from kaptai.nantong.rules import resolve_rules
from kaptai.nantong.scoring import meld_units

KONG_HAND, KONG_MELDS, KONG_JIANG = "1w 3w 456w 789w 123t 456t 789t 55b qz", "ckong:2w", "5t 6t"
JIANG_HAND, JIANG_TURNED = "456b 789b qzx3 bhx3 456t 1w 22w 333w 4w 9t", "3w hh"


def _row(df, discard):
    rows = df[df.discard == discard]
    assert len(rows) == 1, df.to_string()
    return rows.iloc[0]


def _json(capsys, args):
    assert main(["advise", "nantong", *args, "--format", "json"]) == 0
    return {r["discard"]: r for r in json.loads(capsys.readouterr().out)}


# ---------------------------------------------------------------------------- the two repros


def test_wait_on_own_concealed_kong_is_dead_api():
    df = advise(KONG_HAND, melds=KONG_MELDS, jiang=KONG_JIANG, samples=8)
    qz = _row(df, "qz")
    assert (int(qz.distance), qz.waits, int(qz.live_outs)) == (1, "", 0)
    # no discard leaves a ready hand: the only wait would be 2w, all four in the kong
    assert (df.distance >= 1).all() and (df.waits == "").all(), df.to_string()
    assert df.iloc[0].discard != "qz"


def test_wait_on_own_concealed_kong_is_dead_json(capsys):
    rows = _json(capsys, [KONG_HAND, "--melds", KONG_MELDS, "--jiang", KONG_JIANG, "--samples", "8"])
    assert (rows["qz"]["distance"], rows["qz"]["waits"], rows["qz"]["live_outs"]) == (1, "", 0)
    assert all(r["distance"] >= 1 and r["waits"] == "" for r in rows.values())
    assert next(iter(rows)) != "qz"  # the first row is not the dead-ready discard


def test_wait_on_turned_jiang_fourth_copy_is_dead_api():
    df = advise(JIANG_HAND, jiang=JIANG_TURNED, samples=8)
    t9 = _row(df, "9t")
    assert (int(t9.distance), t9.waits, int(t9.live_outs)) == (1, "", 0)
    w3 = _row(df, "3w")  # discarding 3w keeps a live wait on 9t
    assert (int(w3.distance), w3.waits, int(w3.live_outs)) == (0, "9t", 3)
    assert df.iloc[0].discard == "3w"


def test_wait_on_turned_jiang_fourth_copy_is_dead_json(capsys):
    rows = _json(capsys, [JIANG_HAND, "--jiang", JIANG_TURNED, "--samples", "8"])
    assert (rows["9t"]["distance"], rows["9t"]["waits"], rows["9t"]["live_outs"]) == (1, "", 0)
    assert (rows["3w"]["distance"], rows["3w"]["waits"], rows["3w"]["live_outs"]) == (0, "9t", 3)


def test_seen_cards_reduce_live_outs_only():
    """The cards seen elsewhere do not kill a wait: it is listed with 0 live outs."""
    hand = "123b 234w 678t 333w qzx3 789t 99w bhx2 hh"  # discarding hh waits on 9w and bh
    df = advise(hand, seen="9w 9w bh bh", samples=8)
    hh = _row(df, "hh")
    assert (int(hh.distance), hh.waits, int(hh.live_outs)) == (0, "9w bh", 0)


# ------------------------------------------------------------------------------ brute force


def brute_distance(h, caps):
    """The fewest exchanges (a card out, a card in while fewer than caps[k] are held) to reach a
    hand that one drawable card completes; None if no hand is ever ready."""
    caps = np.asarray(caps, dtype=np.int64)
    start = tuple(int(x) for x in h)
    frontier, seen, d = [start], {start}, 0
    while frontier:
        a = np.array(frontier, dtype=np.int64)
        # every (hand, drawable card) pair at once through the repository's completeness check
        plus = np.repeat(a, 30, axis=0)
        w = np.tile(np.arange(30), len(frontier))
        plus[np.arange(len(plus)), w] += 1
        ok = plus[np.arange(len(plus)), w] <= caps[w]
        hit = np.zeros(len(plus), dtype=bool)
        if ok.any():
            hit[ok] = complete_many(plus[ok].astype(np.uint8))
        if hit.any():
            return d
        nxt = []
        for x in frontier:
            for i in range(30):
                if not x[i]:
                    continue
                for j in range(30):
                    if j == i or x[j] + 1 > caps[j]:
                        continue
                    y = list(x)
                    y[i] -= 1
                    y[j] += 1
                    t = tuple(y)
                    if t not in seen:
                        seen.add(t)
                        nxt.append(t)
        frontier, d = nxt, d + 1
    return None


def brute_waits(h, caps):
    """Kinds w, a copy of which is still drawable, completing the hand."""
    out = []
    for w in range(30):
        if h[w] + 1 > caps[w]:
            continue
        x = np.array(h, dtype=np.int64)
        x[w] += 1
        if complete_many(x[None, :].astype(np.uint8))[0]:
            out.append(w)
    return tuple(out)


def test_brute_force_agrees_with_the_hand_examples():
    caps = [4] * 30
    assert brute_distance(hand_counts("23w 55t"), caps) == 0
    caps[0] = caps[3] = 0
    assert brute_distance(hand_counts("23w 55t"), caps) == 1 == distance("23w 55t", caps=caps)


def _random_small(rng, size, universe):
    """A ``size``-card hand drawn from ``universe`` kinds, with caps from its own cards up."""
    caps = np.zeros(30, dtype=np.int64)
    caps[universe] = 4
    pool = np.repeat(np.asarray(universe), 4)
    h = np.bincount(rng.choice(pool, size, replace=False), minlength=30)
    for k in universe:  # cap some kinds: 0 to 3 copies out of reach, never below the hand's count
        if rng.random() < 0.35:
            caps[k] = int(rng.integers(h[k], 5))
    return h.astype(np.uint8), caps


@pytest.mark.parametrize("seed", range(4))
def test_capped_distance_and_waits_match_brute_force_on_small_hands(seed):
    rng = np.random.default_rng(9100 + seed)
    cases = []
    for _ in range(25):  # 1 and 4 cards over the whole deck
        size = int(rng.choice([1, 4, 4]))
        cases.append(_random_small(rng, size, list(range(30))))
    for _ in range(25):  # 7 cards over a few kinds (the others capped at 0)
        size = 7
        universe = sorted(rng.choice(30, int(rng.integers(6, 11)), replace=False).tolist())
        cases.append(_random_small(rng, size, universe))
    for h, caps in cases:
        want = brute_distance(h, caps)
        if want is None:
            with pytest.raises(InvalidHandError):
                distance(h, caps=caps)
            continue
        got = distance(h, caps=caps)
        assert got == want, (h.tolist(), caps.tolist(), got, want)
        wk, _ = live_outs(h, caps=caps.tolist())
        assert wk == brute_waits(h, caps)
        assert (got == 0) == bool(wk)


def test_caps_of_four_is_the_compiled_distance():
    from kaptai.nantong.evaluate import _distance_capped

    rng = np.random.default_rng(77)
    for size in (22, 23, 19, 7):
        hands = np.array([np.bincount(rng.choice(np.repeat(np.arange(30), 4), size, replace=False), minlength=30)
                          for _ in range(30)], dtype=np.uint8)
        full = np.full(30, 4, np.uint8)
        assert _distance_capped(hands, 0, full).tolist() == distance_many(hands).tolist()
        assert distance_many(hands, caps=full).tolist() == distance_many(hands).tolist()


def test_capped_distance_refuses_a_hand_over_its_caps():
    caps = [4] * 30
    caps[0] = 1
    with pytest.raises(Exception, match="1w"):
        distance("11w 23w", caps=caps)


# ---------------------------------------------------------------------------- random positions


def _random_position(rng, n_sets):
    """A random legal position: turned cards, ``n_sets`` own sets, the concealed hand after the
    draw (23 units).  Returns (hand kinds, melds text, jiang kinds, caps the test derives)."""
    r = resolve_rules(None)
    left = np.full(30, 4, dtype=np.int64)
    jiang = tuple(int(x) for x in rng.choice(np.repeat(np.arange(30), 4), 2, replace=False))
    for k in jiang:
        left[k] -= 1
    double = jiang[0] == jiang[1]
    sets, units = [], 0
    for _ in range(200):
        if len(sets) == n_sets:
            break
        k = int(rng.integers(30))
        if any(m[1] == k for m in sets):
            continue
        mtype = str(rng.choice(["pong", "pong", "mkong", "ckong", "qishou", "hezi"]))
        if mtype == "hezi":
            if not (double and k == jiang[0]):
                continue
            need = 2
        elif mtype == "qishou":
            if double and k in jiang:
                continue
            need = 3 if k in jiang else 4
        else:
            need = 3 if mtype == "pong" else 4
        if left[k] < need or (mtype in ("mkong", "ckong") and k in jiang):
            continue
        left[k] -= need
        sets.append((mtype, k, need))
        units += meld_units(mtype, k, jiang, r)
    size = 23 - units
    pool = np.repeat(np.arange(30), left)
    hand = rng.choice(pool, size, replace=False).tolist()
    caps = np.full(30, 4, dtype=np.int64)
    for _, k, need in sets:
        caps[k] -= need
    for k in jiang:
        caps[k] -= 1
    melds = " ".join(f"{t}:{format_card(k)}" for t, k, _ in sets)
    return hand, melds, jiang, caps


def _check_rows(df, hand, caps):
    h = np.bincount(np.asarray(hand), minlength=30)
    out = []
    for row in df.itertuples():
        if row.discard == "win":
            continue
        rest = h.copy()
        rest[parse_card(row.discard)] -= 1
        waits = parse_cards(row.waits) if row.waits else []
        for w in waits:  # no listed wait is a kind with no copy left
            assert rest[w] + 1 <= caps[w], (row.discard, row.waits, caps.tolist())
        assert (row.distance == 0) == bool(waits), row
        out.append((rest, int(row.distance), tuple(waits)))
    return out


@pytest.mark.parametrize("seed", range(6))
def test_advised_positions_with_many_sets_match_brute_force(seed):
    """Six or seven own sets leave 1-4 concealed cards after the discard: brute force."""
    rng = np.random.default_rng(4400 + seed)
    done = 0
    while done < 6:
        hand, melds, jiang, caps = _random_position(rng, int(rng.choice([6, 7])))
        if len(hand) > 5:
            continue
        df = advise(hand, melds=melds, jiang=" ".join(format_card(k) for k in jiang), samples=2, seed=seed)
        for rest, dist, waits in _check_rows(df, hand, caps):
            assert dist == brute_distance(rest, caps), (hand, melds, jiang, rest.tolist())
            assert waits == brute_waits(rest, caps)
        done += 1


@pytest.mark.parametrize("seed", range(4))
def test_advised_random_positions_count_no_dead_copy(seed):
    """Fewer sets, larger hands: the distance is the reference programme's under the caps."""
    rng = np.random.default_rng(5500 + seed)
    for _ in range(5):
        hand, melds, jiang, caps = _random_position(rng, int(rng.integers(0, 5)))
        df = advise(hand, melds=melds, jiang=" ".join(format_card(k) for k in jiang), samples=2, seed=seed)
        for rest, dist, waits in _check_rows(df, hand, caps):
            assert dist == distance_dp(rest, caps=caps.tolist()), (hand, melds, jiang, rest.tolist())
