"""An independent replay of the engine log against the rules page: every move is checked
(claims by the first candidate in the right seat order, dead cards, forced discards, flips by
the next seat, the drawn hand at the reserve, the colour_cut / live_first decision keys)."""
import numpy as np
import pytest

from kaptai.nineten.config import ACTIONS, make_config
from kaptai.nineten.engine import run_hands

A = {name: i for i, name in enumerate(ACTIONS)}


def _replay_hand(rows, cfg, dealer, policy):
    N = cfg.players
    rules = cfg.rules
    held = np.zeros((N, 28), dtype=int)
    dead_since = {}                    # (seat, kind) -> order of exposure
    exposed = np.zeros((N, 28), dtype=int)
    waste = np.zeros(28, dtype=int)
    r = list(rows)
    i = 0
    while r[i][3] in (A["deal"], A["redeal"]):
        if r[i][3] == A["redeal"]:
            held[:] = 0
        else:
            held[r[i][2], r[i][4]] += r[i][5]
        i += 1
    stock = 112 - 10 - 9 * (N - 1)
    if (held[dealer] // 2).sum() == 5:
        assert r[i][3] == A["natural"]
        return
    counter = [0]

    def check_discard(row, p):
        assert row[2] == p and row[3] == A["discard"]
        k = row[4]
        deads = [kk for (s, kk) in dead_since if s == p]
        if deads:
            assert row[5] == 1 and k in deads
            if rules.dead_card_order == "oldest":
                assert k == min(deads, key=lambda kk: dead_since[(p, kk)])
            del dead_since[(p, k)]
            exposed[p, k] -= 1
        else:
            assert row[5] == 0 and held[p, k] % 2 == 1
            opts = [kk for kk in range(28) if held[p, kk] % 2 == 1]
            vis = waste + exposed.sum(axis=0) - exposed[p]
            unseen = 4 - held[p] - vis
            if policy == "colour_cut":
                T = [held[p, c * 7:(c + 1) * 7].sum() for c in range(4)]
                key = lambda kk: (T[kk // 7], unseen[kk])
            elif policy == "live_first":
                key = lambda kk: unseen[kk]
            else:
                key = lambda kk: 0
            assert key(k) == min(key(kk) for kk in opts)
        held[p, k] -= 1
        return k

    k = check_discard(r[i], dealer)
    origin, is_flip = dealer, False
    i += 1
    while True:
        if is_flip:
            order = [(origin + j) % N for j in range(N)] if rules.flip_priority == "flipper_first" else \
                [(origin + j) % N for j in range(1, N + 1)]
        else:
            order = [(origin + j) % N for j in range(1, N)]
        cands = [s for s in order if held[s, k] % 2 == 1 and (rules.dead_cards_claimable or (s, k) not in dead_since)]
        row = r[i]
        if not cands:
            assert tuple(row[2:]) == (origin, A["waste"], k, 0)
            waste[k] += 1
            i += 1
            row = r[i]
            if stock <= cfg.reserve:
                assert row[3] == A["drawn"] and i == len(r) - 1
                return
            f = (origin + 1) % N
            assert row[2] == f and row[3] == A["flip"]
            stock -= 1
            assert row[5] == stock
            k, origin, is_flip = row[4], f, True
            i += 1
            continue
        c = cands[0]
        assert tuple(row[2:5]) == (c, A["claim"], k)
        was_dead = (c, k) in dead_since
        held[c, k] += 1
        assert row[5] == held[c, k]
        exposed[c, k] += 1 if was_dead else 2
        dead_since.pop((c, k), None)
        i += 1
        for s in cands[1:]:
            if (s, k) not in dead_since:
                assert tuple(r[i][2:]) == (s, A["dead"], k, 0)
                dead_since[(s, k)] = counter[0]
                counter[0] += 1
                exposed[s, k] += 1
                i += 1
        if (held[c] // 2).sum() == 5:
            while r[i][3] == A["bonus"]:
                i += 1
            win = 1 if (is_flip and c == origin) else (2 if is_flip else 3)
            assert tuple(r[i][2:]) == (c, A["win"], k, win) and i == len(r) - 1
            return
        k = check_discard(r[i], c)
        origin, is_flip = c, False
        i += 1


@pytest.mark.parametrize("policy", ["colour_cut", "live_first", "random"])
@pytest.mark.parametrize("opts", [{}, {"flip_priority": "next_player_first"}, {"dead_card_order": "policy"},
                                  {"dead_cards_claimable": False}, {"reserve": 30}])
@pytest.mark.parametrize("players", [4, 6])
def test_log_follows_the_rules(policy, opts, players):
    cfg = make_config(players, opts)
    hands = 150
    out, log = run_hands(cfg, hands, np.random.PCG64(17), policy, record=hands)
    for h in range(hands):
        _replay_hand(log[log[:, 0] == h].tolist(), cfg, int(out["dealer"][h]), policy)
