"""Pure-Python nine-ten engine: the test oracle of :mod:`kaptai.nineten._engine`.

Implements ``docs/nine-ten-engine.md`` line by line (same random draws, same moves, same log
rows, same outcomes) and is the only engine that runs user
:class:`kaptai.nineten.policies.Policy` objects.  Use :func:`kaptai.nineten.engine.run_hands`.
"""

from __future__ import annotations

from typing import Any, Sequence

import numpy as np

from kaptai.core.sampling import RandomStream
from kaptai.nineten.cards import N_KINDS, format_card, parse_card
from kaptai.nineten.config import (
    MAX_REDEALS, MAX_STEPS, POLICY_CODES, WIN_CODES, EngineConfig, IllegalMoveError, new_outcomes,
)
from kaptai.nineten.policies import PlayerView
from kaptai.nineten.scoring import bonus_reason, score_components

__all__ = ["run_hands", "Hand"]

A_DEAL, A_REDEAL, A_NATURAL, A_DISCARD, A_FLIP, A_CLAIM, A_DEAD, A_WASTE, A_BONUS, A_WIN, A_DRAWN = range(11)
_COLOUR = [k // 7 for k in range(N_KINDS)]


class Hand:
    """The state of one hand being played (see the specification)."""

    def __init__(self, cfg: EngineConfig, deck: Sequence[int], dealer: int):
        self.cfg = cfg
        self.N = N = cfg.players
        self.deck = list(deck)
        self.dealer = dealer
        self.held = [[0] * N_KINDS for _ in range(N)]
        self.dead = [[0] * N_KINDS for _ in range(N)]
        self.dead_seq = [[0] * N_KINDS for _ in range(N)]
        self.exposed = [[0] * N_KINDS for _ in range(N)]
        self.waste = [0] * N_KINDS
        self.pairs = [0] * N
        self.kz: list[list[int]] = [[] for _ in range(N)]
        self.counter = 0
        pos = 0
        for i in range(N):
            s = (dealer + i) % N
            size = cfg.dealer_cards if i == 0 else cfg.other_cards
            for c in self.deck[pos:pos + size]:
                self.held[s][c // 4] += 1
            pos += size
        self.top = pos
        for s in range(N):
            self.pairs[s] = sum(x // 2 for x in self.held[s])

    def stock_left(self) -> int:
        return len(self.deck) - self.top

    def unseen(self, p: int, k: int) -> int:
        vis = self.waste[k] + sum(self.exposed[t][k] for t in range(self.N) if t != p)
        return 4 - self.held[p][k] - vis

    def options(self, p: int, dead_order: int) -> tuple[list[int], bool]:
        deads = [k for k in range(N_KINDS) if self.dead[p][k]]
        if deads:
            if dead_order == 0:
                return [min(deads, key=lambda k: self.dead_seq[p][k])], True
            return deads, True
        return [k for k in range(N_KINDS) if self.held[p][k] & 1], False

    def view(self, p: int, options: list[int], forced: bool) -> PlayerView:
        return PlayerView(
            seat=p, dealer=self.dealer, hand=np.array(self.held[p], dtype=np.int64),
            dead=np.array(self.dead[p], dtype=np.int64), exposed=np.array(self.exposed, dtype=np.int64),
            waste=np.array(self.waste, dtype=np.int64), stock_left=self.stock_left(), options=tuple(options),
            forced=forced,
        )


def _builtin_choice(code: int, h: Hand, p: int, options: list[int], rng: RandomStream) -> int:
    if len(options) == 1:
        return options[0]
    keys: list
    if code == 0:
        return options[rng.bounded(len(options))]
    if code == 1:
        T = [0, 0, 0, 0]
        for k in range(N_KINDS):
            T[_COLOUR[k]] += h.held[p][k]
        keys = [(T[_COLOUR[k]], h.unseen(p, k)) for k in options]
    else:
        keys = [h.unseen(p, k) for k in options]
    best = min(keys)
    tied = [k for k, key in zip(options, keys) if key == best]
    if len(tied) == 1:
        return tied[0]
    return tied[rng.bounded(len(tied))]


def _user_choice(policy: Any, h: Hand, p: int, options: list[int], forced: bool) -> int:
    choice = policy.discard(h.view(p, options, forced))
    try:
        k = parse_card(choice) if isinstance(choice, str) else int(choice)
    except Exception:
        raise IllegalMoveError(f"seat {p} discards {choice!r}: not a card") from None
    if not 0 <= k < N_KINDS:
        raise IllegalMoveError(f"seat {p} discards {choice!r}: not a card")
    if k in options:
        return k
    name = f"{format_card(k)!r} ({format_card(k, 'trad')})"
    held = h.held[p][k]
    if held == 0:
        why = "not held"
    elif forced and held & 1 and not h.dead[p][k]:
        why = "a dead card must be discarded first (dead: " + ", ".join(repr(format_card(d)) for d in options) + ")"
    elif forced and h.dead[p][k]:
        why = f"the oldest dead card {format_card(options[0])!r} must go first"
    elif forced:
        why = "a dead card must be discarded first (dead: " + ", ".join(repr(format_card(d)) for d in options) + ")"
    else:
        why = f"breaks a pair (holds {held} of it)"
    raise IllegalMoveError(f"seat {p} cannot discard {name}: {why}")


def run_hands(cfg: EngineConfig, policies: list, bit_generator: np.random.BitGenerator | None, hands: int, *,
              record: int = 0, decks: Any = None) -> tuple[dict[str, np.ndarray], np.ndarray]:
    """Play ``hands`` hands (see :func:`kaptai.nineten.engine.run_hands`)."""
    N = cfg.players
    rules = cfg.rules
    codes = cfg.codes()
    rng = RandomStream(bit_generator) if bit_generator is not None else None
    out = new_outcomes(hands, N)
    log: list[list[int]] = []
    deck_i = 0
    dealer = 0
    pcodes = [POLICY_CODES[p] if isinstance(p, str) else -1 for p in policies]

    def new_deck() -> list[int]:
        nonlocal deck_i
        if decks is not None:
            if deck_i >= len(decks):
                raise ValueError(f"decks: {len(decks)} given, but hand {i} needs another one "
                                 f"(every deal, a redeal included, takes the next deck)")
            d = [int(x) for x in decks[deck_i]]
            deck_i += 1
            return d
        d = list(range(112))
        assert rng is not None
        for j in range(111, 0, -1):
            r = rng.bounded(j + 1)
            d[j], d[r] = d[r], d[j]
        return d

    for i in range(hands):
        rec = log if i < record else None
        step = [0]

        def L(seat: int, action: int, card: int, value: int) -> None:
            if rec is not None:
                rec.append([i, step[0], seat, action, card, value])
                step[0] += 1

        if i > 0:
            if codes["next_dealer"] == 0:
                dealer = (dealer + 1) % N
            elif codes["next_dealer"] == 1:
                w = int(out["winner"][i - 1])
                dealer = w if w >= 0 else dealer
        if codes["next_dealer"] == 2:
            assert rng is not None
            dealer = rng.bounded(N)
        redeals = 0
        while True:
            deck = new_deck()
            h = Hand(cfg, deck, dealer)
            for s in range(N):
                for k in range(N_KINDS):
                    if h.held[s][k]:
                        L(s, A_DEAL, k, h.held[s][k])
            if h.pairs[dealer] == 5 and codes["natural"] == 2 and redeals < MAX_REDEALS:
                redeals += 1
                L(dealer, A_REDEAL, -1, redeals)
                continue
            break
        out["dealer"][i] = dealer
        out["redeals"][i] = redeals
        for s in range(N):
            out["pairs_dealt"][i, s] = h.pairs[s]
        winner, win, source, wcard, kzwait = _play(cfg, codes, h, policies, pcodes, rng, L, out, i)
        out["winner"][i] = winner
        out["win_type"][i] = WIN_CODES[win]
        out["source"][i] = source
        out["stock_left"][i] = h.stock_left()
        if winner < 0:
            L(-1, A_DRAWN, -1, 0)
            continue
        held = h.held[winner]
        colours = len({_COLOUR[k] for k in range(N_KINDS) if held[k] >= 2})
        kz = len(h.kz[winner]) - (1 if kzwait else 0)
        if rules.dealt_four_is_kaizhao:
            kz += sum(1 for k in range(N_KINDS) if held[k] == 4 and k not in h.kz[winner])
        bonus = 0
        win_name = "self" if win == "natural" and codes["natural"] == 2 else win  # redeal cap reached
        if bonus_reason(rules, win_name, colours) is None:
            out["bonus_flip"][i] = 1
            for j in range(5):
                k = h.deck[h.top + j] // 4
                L(winner, A_BONUS, k, j + 1)
                if held[k] >= 2:
                    bonus += 2 if j == 4 else 1
        comp = score_components(rules, colours, win_name, bonus, kz, bool(kzwait))
        tou = sum(comp.values())
        net = [0] * N
        if win == "discard":
            pay = tou * ((N - 1) if rules.discard_payer_covers_all else 1)
            net[source] -= pay
            net[winner] += pay
        elif win == "flip" and rules.flip_win_payer == "flipper":
            net[source] -= tou
            net[winner] += tou
        else:
            for s in range(N):
                if s != winner:
                    net[s] -= tou
                    net[winner] += tou
        out["colours"][i] = colours
        out["tou"][i] = tou
        out["bonus"][i] = bonus
        out["kaizhao"][i] = kz
        out["kaizhao_wait"][i] = 1 if kzwait else 0
        out["net"][i] = net
        L(winner, A_WIN, wcard, WIN_CODES[win])
    return out, np.array(log, dtype=np.int64).reshape(-1, 6)


def _play(cfg, codes, h: Hand, policies, pcodes, rng, L, out, i):
    """The play of steps 3-4: (winner, win type, source, winning card, kaizhao_wait)."""
    N = cfg.players
    dealer = h.dealer
    if h.pairs[dealer] == 5:
        L(dealer, A_NATURAL, -1, 0)
        return dealer, "natural", -1, -1, False
    claims = flips = 0
    dead_order = codes["dead_card_order"]
    claimable = codes["dead_cards_claimable"]

    def discard(p: int) -> int:
        options, forced = h.options(p, dead_order)
        if pcodes[p] >= 0:
            k = _builtin_choice(pcodes[p], h, p, options, rng)
        else:
            k = _user_choice(policies[p], h, p, options, forced)
        h.held[p][k] -= 1
        if h.dead[p][k]:
            h.dead[p][k] = 0
            h.exposed[p][k] -= 1
        L(p, A_DISCARD, k, 1 if forced else 0)
        return k

    k = discard(dealer)
    origin, is_flip = dealer, False
    for _ in range(MAX_STEPS):
        if is_flip:
            order = [(origin + j) % N for j in range(N)] if codes["flip_priority"] == 0 else \
                [(origin + j) % N for j in range(1, N + 1)]
        else:
            order = [(origin + j) % N for j in range(1, N)]
        cands = [s for s in order if h.held[s][k] & 1 and (claimable or not h.dead[s][k])]
        if not cands:
            h.waste[k] += 1
            L(origin, A_WASTE, k, 0)
            f = (origin + 1) % N
            if h.stock_left() <= cfg.reserve:
                out["claims"][i], out["flips"][i] = claims, flips
                return -1, "drawn", -1, -1, False
            k = h.deck[h.top] // 4
            h.top += 1
            flips += 1
            L(f, A_FLIP, k, h.stock_left())
            origin, is_flip = f, True
            continue
        c = cands[0]
        if pcodes[c] < 0 and policies[c].claim(h.view(c, [], False), k) is not True:
            raise IllegalMoveError(f"seat {c} must claim {format_card(k)!r} ({format_card(k, 'trad')}): "
                                   f"it holds a single of it and is first in turn (skipping is a foul)")
        for s in cands[1:]:
            if pcodes[s] < 0 and not h.dead[s][k] and policies[s].expose_dead(h.view(s, [], False), k) is not True:
                raise IllegalMoveError(f"seat {s} must lay {format_card(k)!r} ({format_card(k, 'trad')}) face up "
                                       f"as a dead card (another seat claimed it)")
        was3 = h.held[c][k] == 3
        was_dead = h.dead[c][k]
        h.held[c][k] += 1
        h.exposed[c][k] += 1 if was_dead else 2
        h.dead[c][k] = 0
        h.pairs[c] += 1
        claims += 1
        L(c, A_CLAIM, k, h.held[c][k])
        if was3:
            h.kz[c].append(k)
        for s in cands[1:]:
            if not h.dead[s][k]:
                h.dead[s][k] = 1
                h.dead_seq[s][k] = h.counter
                h.counter += 1
                h.exposed[s][k] += 1
                L(s, A_DEAD, k, 0)
        if h.pairs[c] == 5:
            out["claims"][i], out["flips"][i] = claims, flips
            if is_flip:
                win = "self" if c == origin else "flip"
            else:
                win = "discard"
            return c, win, (-1 if win == "self" else origin), k, was3
        k = discard(c)
        origin, is_flip = c, False
    raise RuntimeError(f"engine error: hand {i} still running after {MAX_STEPS} offers")
