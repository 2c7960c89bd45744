"""Pure-Python nine-ten engine: the test oracle of :mod:`kaptai.nineten._engine`.

Implements ``docs/nine-ten-engine.md`` line by line (same random draws, same moves, same log
rows, same outcomes) and is the only engine that runs user
:class:`kaptai.nineten.policies.Policy` objects.  Use :func:`kaptai.nineten.engine.run_hands`.
"""

from __future__ import annotations

import copy
from collections.abc import Callable, Mapping, Sequence
from math import comb
from typing import Any

import numpy as np

from kaptai.core.sampling import RandomStream, SplitMixStream, Switch
from kaptai.nineten.cards import N_KINDS, format_card, parse_card
from kaptai.nineten.config import (
    MAX_REDEALS,
    MAX_STEPS,
    POLICY_CODES,
    POLICY_NAMES,
    INFER_EPS,
    INFER_MAX_EVENTS,
    INFER_PRIOR,
    SEARCH_GO,
    SEARCH_MORE,
    SEARCH_ROLLOUT,
    SEARCH_TRIES,
    WIN_CODES,
    EngineConfig,
    IllegalMoveError,
    new_outcomes,
)
from kaptai.nineten.policies import PlayerView
from kaptai.nineten.scoring import bonus_reason, score_components

__all__ = ["Hand", "SplitMixStream", "hand_state", "infer_beliefs", "infer_beliefs_state", "run_hands", "search_values"]

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
        self.offered = 0  # bit k: kind k was discarded or flipped
        self.claims = 0
        self.flips = 0
        # the discards the search's inference reads (None in rollouts: not tracked)
        self.events: list[tuple[int, int, int, tuple[int, ...], tuple[int, ...]]] | None = []
        self.cum = [[0] * N_KINDS for _ in range(N)]  # claims minus discards of each kind, per seat
        self.index = 0       # the hand's index in its run and the run's search decisions so far
        self.run = [0]       # (the seed of a search decision's private stream)
        self.styles: list[int] | None = None  # the rollout policies of a sampled state (search_mix)
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

    def clone(self) -> Hand:
        """A copy sharing only the configuration."""
        h = copy.copy(self)
        h.deck = list(self.deck)
        for name in ("held", "dead", "dead_seq", "exposed", "kz", "cum"):
            setattr(h, name, [list(row) for row in getattr(self, name)])
        h.events = None if self.events is None else list(self.events)
        h.waste = list(self.waste)
        h.pairs = list(self.pairs)
        return h

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
            forced=forced, public=self.public_state(p),
        )

    def public_state(self, p: int) -> dict[str, Any]:
        """What seat ``p`` may know of the position (:attr:`PlayerView.public`): :func:`hand_state`'s
        form with each other seat's concealed cards replaced by their count, copied."""
        N = self.N
        return {"exposed": [list(r) for r in self.exposed], "dead": [list(r) for r in self.dead],
                "dead_seq": [list(r) for r in self.dead_seq], "kz4": [1 if k in self.kz[p] else 0 for k in range(N_KINDS)],
                "waste": list(self.waste), "offered": [k for k in range(N_KINDS) if self.offered >> k & 1],
                "top": self.top, "dealer": self.dealer, "counter": self.counter,
                "concealed": [sum(self.held[t]) - sum(self.exposed[t]) for t in range(N)],
                "events": list(self.events or []), "cum": [list(r) for r in self.cum]}


def _builtin_choice(code: int, h: Hand, p: int, options: list[int], rng: RandomStream) -> int:
    if len(options) == 1:
        return options[0]
    keys: list
    if code == _SEARCH:
        return _search_choice(h, p, options, rng)
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


_M64 = (1 << 64) - 1
_SEARCH = POLICY_CODES["search"]
_ROLLOUT = POLICY_CODES[SEARCH_ROLLOUT]
_LIVE_FIRST = POLICY_CODES["live_first"]
_RANDOM = POLICY_CODES["random"]


def run_hands(cfg: EngineConfig, policies: list, bit_generator: np.random.BitGenerator | None, hands: int, *,
              record: int = 0, decks: Any = None, relative: bool = False,
              on_hand: Callable[[int, dict[str, np.ndarray], np.ndarray], None] | None = None,
              ) -> tuple[dict[str, np.ndarray], np.ndarray]:
    """Play ``hands`` hands (see :func:`kaptai.nineten.engine.run_hands`).

    ``on_hand(i, out, log)``, when given, is called as soon as hand ``i`` is over, with its
    outcome row (``out[key]``: the run's ``out[key][i:i + 1]``) and its log rows (empty past
    ``record``): what the run returns, hand by hand, while it runs.

    >>> from kaptai.nineten.config import make_config
    >>> seen = []
    >>> out, log = run_hands(make_config(4), ["colour_cut"] * 4, np.random.PCG64(1), 3, record=3,
    ...                      on_hand=lambda i, o, lg: seen.append((i, int(o["winner"][0]), len(lg))))
    >>> [w for _, w, _ in seen] == out["winner"].tolist(), sum(n for *_, n in seen) == len(log)
    (True, True)
    """
    N = cfg.players
    codes = cfg.codes()
    rng = RandomStream(bit_generator) if bit_generator is not None else None
    out = new_outcomes(hands, N)
    log: list[list[int]] = []
    deck_i = 0
    dealer = 0
    given = list(policies)
    run_decisions = [0]

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
        start = len(log)
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
        policies = [given[(s - dealer) % N] for s in range(N)] if relative else given
        pcodes = [POLICY_CODES[p] if isinstance(p, str) else -1 for p in policies]
        redeals = 0
        while True:
            deck = new_deck()
            h = Hand(cfg, deck, dealer)
            h.index = i
            h.run = run_decisions
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
        winner, win, source, wcard, kzwait = _play(cfg, codes, h, policies, pcodes, rng, L, i)
        out["claims"][i], out["flips"][i] = h.claims, h.flips
        out["winner"][i] = winner
        out["win_type"][i] = WIN_CODES[win]
        out["source"][i] = source
        out["stock_left"][i] = h.stock_left()
        if winner < 0:
            L(-1, A_DRAWN, -1, 0)
        else:
            net, colours, tou, bonus, kz, bonus_flip = _settle(cfg, codes, h, winner, win, source, kzwait, L)
            out["bonus_flip"][i] = bonus_flip
            out["colours"][i] = colours
            out["tou"][i] = tou
            out["bonus"][i] = bonus
            out["kaizhao"][i] = kz
            out["kaizhao_wait"][i] = 1 if kzwait else 0
            out["net"][i] = net
            L(winner, A_WIN, wcard, WIN_CODES[win])
        if on_hand is not None:
            on_hand(i, {key: v[i:i + 1].copy() for key, v in out.items()},
                    np.array(log[start:], dtype=np.int64).reshape(-1, 6))
    return out, np.array(log, dtype=np.int64).reshape(-1, 6)


def _settle(cfg, codes, h: Hand, winner: int, win: str, source: int, kzwait: bool, L):
    """Step 6: (net per seat, colours, tou, bonus, kaizhao, bonus_flip)."""
    N = cfg.players
    rules = cfg.rules
    held = h.held[winner]
    colours = len({_COLOUR[k] for k in range(N_KINDS) if held[k] >= 2})
    kz = len(h.kz[winner]) - (1 if kzwait else 0)
    if rules.dealt_four_is_kaizhao:
        kz += sum(1 for k in range(N_KINDS) if held[k] == 4 and k not in h.kz[winner])
    bonus = 0
    bonus_flip = 0
    win_name = "self" if win == "natural" and codes["natural"] == 2 else win  # redeal cap reached
    if bonus_reason(rules, win_name, colours) is None:
        bonus_flip = 1
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
    return net, colours, tou, bonus, kz, bonus_flip


def _apply_discard(h: Hand, p: int, k: int) -> None:
    h.held[p][k] -= 1
    h.offered |= 1 << k
    if h.dead[p][k]:
        h.dead[p][k] = 0
        h.exposed[p][k] -= 1


def _play(cfg, codes, h: Hand, policies, pcodes, rng, L, i):
    """The play of steps 3-4: (winner, win type, source, winning card, kaizhao_wait)."""
    dealer = h.dealer
    if h.pairs[dealer] == 5:
        L(dealer, A_NATURAL, -1, 0)
        return dealer, "natural", -1, -1, False
    k = _discard(codes, h, dealer, policies, pcodes, rng, L)
    return _offers(cfg, codes, h, k, dealer, False, policies, pcodes, rng, L, i)


def _discard(codes, h: Hand, p: int, policies, pcodes, rng, L) -> int:
    options, forced = h.options(p, codes["dead_card_order"])
    if pcodes[p] >= 0:
        k = _builtin_choice(pcodes[p], h, p, options, rng)
    else:
        k = _user_choice(policies[p], h, p, options, forced)
    if h.events is not None:
        if (not forced or len(options) >= 2) and len(h.events) < INFER_MAX_EVENTS:
            vis = tuple(h.waste[j] + sum(h.exposed[t][j] for t in range(h.N) if t != p) for j in range(N_KINDS))
            fmask = sum(1 << j for j in options) if forced else 0
            h.events.append((p, k, fmask, vis, tuple(h.cum[p])))
        h.cum[p][k] -= 1
    _apply_discard(h, p, k)
    L(p, A_DISCARD, k, 1 if forced else 0)
    return k


def _offers(cfg, codes, h: Hand, k: int, origin: int, is_flip: bool, policies, pcodes, rng, L, i):
    """The loop of offers of step 4 from the offer of ``k`` by ``origin``."""
    N = cfg.players
    claimable = codes["dead_cards_claimable"]
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
                return -1, "drawn", -1, -1, False
            k = h.deck[h.top] // 4
            h.top += 1
            h.flips += 1
            h.offered |= 1 << k
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
        h.claims += 1
        if h.events is not None:
            h.cum[c][k] += 1
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
            if is_flip:
                win = "self" if c == origin else "flip"
            else:
                win = "discard"
            return c, win, (-1 if win == "self" else origin), k, was3
        k = _discard(codes, h, c, policies, pcodes, rng, L)
        origin, is_flip = c, False
    raise RuntimeError(f"engine error: hand {i} still running after {MAX_STEPS} offers")


# --------------------------------------------------------------------------------------
# search (docs/nine-ten-engine.md, "search"): layouts of the unseen cards and rollouts
# --------------------------------------------------------------------------------------
#: Layouts whose parities had to be dropped for a seat (the safety net; the tests read it).
RELAXED = [0]


def _bounded64(rng: RandomStream, s: int) -> int:
    rem = (1 << 64) % s
    while True:
        x = (rng.next_uint32() << 32) | rng.next_uint32()
        if x <= _M64 - rem:
            return x % s


def _count_table(U: list[int], offered: int, parity: bool, n: int) -> list[list[int]]:
    W = [[0] * (n + 1) for _ in range(N_KINDS + 1)]
    W[N_KINDS][0] = 1
    for i in range(N_KINDS - 1, -1, -1):
        even = parity and (offered >> i) & 1
        for r in range(n + 1):
            W[i][r] = sum(comb(U[i], c) * W[i + 1][r - c] for c in range(min(U[i], r) + 1)
                          if not (even and c & 1))
    return W


def _unrank(U: list[int], offered: int, parity: bool, n: int, x: int, W: list[list[int]]) -> list[int]:
    hid = [0] * N_KINDS
    r = n
    for i in range(N_KINDS):
        even = parity and (offered >> i) & 1
        for c in range(min(U[i], r) + 1):
            if even and c & 1:
                continue
            b = comb(U[i], c) * W[i + 1][r - c]
            if x < b:
                hid[i] = c
                x %= W[i + 1][r - c]
                r -= c
                break
            x -= b
    return hid


def _pool(h: Hand, p: int, inflight: int = -1) -> tuple[list[int], list[int]]:
    """The unseen pool ``U0`` of ``p`` and the hidden sizes ``nt`` of every seat."""
    N = h.N
    U0 = [4 - h.held[p][k] - (h.waste[k] + sum(h.exposed[t][k] for t in range(N) if t != p))
          for k in range(N_KINDS)]
    if inflight >= 0:
        U0[inflight] -= 1
    nt = [sum(h.held[t]) - sum(h.exposed[t]) for t in range(N)]
    return U0, nt


def _draw_hidden(h: Hand, p: int, rng: RandomStream, U0: list[int], nt: list[int]) -> dict[int, list[int]]:
    """Steps 1-2 of a layout: the concealed parts of the other seats (with the tries and the net)."""
    N = h.N
    hid: dict[int, list[int]] = {}
    for attempt in range(SEARCH_TRIES):
        U = list(U0)
        ok = True
        for j in range(1, N):
            t = (p + j) % N
            parity = True
            W = _count_table(U, h.offered, True, nt[t])
            if W[0][nt[t]] == 0:
                if attempt < SEARCH_TRIES - 1:
                    ok = False
                    break
                parity = False
                RELAXED[0] += 1
                W = _count_table(U, h.offered, False, nt[t])
            x = _bounded64(rng, W[0][nt[t]])
            hid[t] = _unrank(U, h.offered, parity, nt[t], x, W)
            U = [u - c for u, c in zip(U, hid[t])]
        if ok:
            break
    return hid


def _finish(h: Hand, p: int, rng: RandomStream, U0: list[int], hid: dict[int, list[int]]) -> tuple[Hand, int]:
    """Steps 3-4 of a layout: the stock from the pool left by ``hid``, the rollout seed, the state."""
    N = h.N
    U = list(U0)
    for j in range(1, N):
        t = (p + j) % N
        U = [u - c for u, c in zip(U, hid[t])]
    stock = [k for k in range(N_KINDS) for _ in range(U[k])]
    for i in range(len(stock) - 1, 0, -1):
        r = rng.bounded(i + 1)
        stock[i], stock[r] = stock[r], stock[i]
    a = rng.next_uint32()
    b = rng.next_uint32()
    gs = h.clone()
    gs.events = None
    gs.styles = [_ROLLOUT] * N
    if h.cfg.search_mix:
        for j in range(1, N):
            r = rng.bounded(10)
            gs.styles[(p + j) % N] = _ROLLOUT if r < 8 else (_LIVE_FIRST if r == 8 else _RANDOM)
    for i, kind in enumerate(stock):
        gs.deck[h.top + i] = 4 * kind
    for t in range(N):
        if t == p:
            continue
        gs.held[t] = [h.exposed[t][k] + hid[t][k] for k in range(N_KINDS)]
        gs.pairs[t] = sum(x // 2 for x in gs.held[t])
        gs.kz[t] = [k for k in range(N_KINDS) if h.exposed[t][k] >= 2 and gs.held[t][k] == 4]
    return gs, (a << 32) | b


def _layout(h: Hand, p: int, rng: RandomStream, inflight: int = -1) -> tuple[Hand, int]:
    """One uniform layout of what ``p`` has not seen: the sampled hand state and the rollout seed."""
    U0, nt = _pool(h, p, inflight)
    return _finish(h, p, rng, U0, _draw_hidden(h, p, rng, U0, nt))


#: Inference totals of the reference engine: decisions that resampled, sum of their effective
#: sample sizes (over the candidates), candidates drawn.
INFER_STATS = [0, 0.0, 0]


def _seat_likelihood(h: Hand, t: int, now: list[int]) -> float:
    """How likely seat ``t``'s recorded discards are if it holds ``now`` (the opponent model)."""
    a = b = c = 1.0
    cum = h.cum[t]
    assert h.events is not None
    for (s, k, fmask, vis, then) in h.events:
        if s != t:
            continue
        H = [now[j] - cum[j] + then[j] for j in range(N_KINDS)]
        if fmask:
            opts = [j for j in range(N_KINDS) if fmask >> j & 1]
        else:
            opts = [j for j in range(N_KINDS) if H[j] & 1]
        if k not in opts:
            return 0.0
        m = len(opts)
        T = [0, 0, 0, 0]
        for j in range(N_KINDS):
            T[_COLOUR[j]] += H[j]
        un = {j: 4 - H[j] - vis[j] for j in opts}
        kc = {j: T[_COLOUR[j]] * 8 + un[j] for j in opts}
        bc = min(kc.values())
        bl = min(un.values())
        ncc = sum(1 for j in opts if kc[j] == bc)
        nlf = sum(1 for j in opts if un[j] == bl)
        pr = 1.0 / m
        pcc = 1.0 / ncc if kc[k] == bc else 0.0
        a *= (1.0 - INFER_EPS) * pcc + INFER_EPS * pr
        b *= 1.0 / nlf if un[k] == bl else 0.0
        c *= pr
    return INFER_PRIOR[0] * a + INFER_PRIOR[1] * b + INFER_PRIOR[2] * c


def _informed(h: Hand, p: int) -> bool:
    """The inference applies: some seat other than ``p`` has a recorded discard."""
    return h.events is not None and any(e[0] != p for e in h.events)


def _candidates(h: Hand, p: int, rng: RandomStream, C: int, inflight: int = -1):
    """Steps I1-I2 of the specification: ``C`` particles drawn seat by seat, weighted and
    resampled after every seat but the last.  Returns the pool, the particles (concealed parts
    per seat), the last seat's weights, their total and the smallest effective sample size of
    the seats' weights."""
    U0, nt = _pool(h, p, inflight)
    N = h.N
    parts: list[dict[int, list[int]]] = [{} for _ in range(C)]
    pools = [list(U0) for _ in range(C)]
    order = [(p + j) % N for j in range(1, N)]
    weights = [1.0] * C
    total = float(C)
    ess_min = float(C)
    for idx, t in enumerate(order):
        weights = []
        relaxed = False
        for c in range(C):
            U = pools[c]
            W = _count_table(U, h.offered, True, nt[t])
            tot = W[0][nt[t]]
            parity = True
            if tot == 0:
                parity = False
                relaxed = True
                W = _count_table(U, h.offered, False, nt[t])
                tot = W[0][nt[t]]
            x = _bounded64(rng, tot)
            hid = _unrank(U, h.offered, parity, nt[t], x, W)
            parts[c][t] = hid
            pools[c] = [u - v for u, v in zip(U, hid)]
            if parity:
                L = _seat_likelihood(h, t, [h.exposed[t][k] + hid[k] for k in range(N_KINDS)])
                weights.append(L * float(tot))
            else:
                weights.append(0.0)
        total = 0.0
        sq = 0.0
        for w in weights:
            total += w
            sq += w * w
        if total == 0.0:
            if relaxed:
                RELAXED[0] += 1
            weights = [1.0] * C
            total = float(C)
            sq = float(C)
        ess = total * total / sq
        if ess < ess_min:
            ess_min = ess
        if idx < len(order) - 1:
            sel = _resample(rng, weights, total, C)
            parts = [dict(parts[c]) for c in sel]
            pools = [pools[c] for c in sel]
    return U0, parts, weights, total, ess_min


def _resample(rng: RandomStream, weights: list[float], total: float, S: int) -> list[int]:
    """Systematic resampling of ``S`` indices by weight (one 32-bit draw)."""
    u = rng.next_uint32() / 4294967296.0
    C = len(weights)
    sel = []
    c = 0
    acc = weights[0]
    for i in range(S):
        pos = (u + i) * total / S
        while acc <= pos and c < C - 1:
            c += 1
            acc += weights[c]
        sel.append(c)
    return sel


def _layouts(h: Hand, p: int, S: int, rng: RandomStream, inflight: int = -1):
    """The ``S`` layouts of a decision, drawn lazily: uniform, or resampled by the inference."""
    F = h.cfg.search_infer
    if F <= 0 or not _informed(h, p):
        for _ in range(S):
            yield _layout(h, p, rng, inflight)
        return
    U0, cands, weights, total, ess = _candidates(h, p, rng, F * S, inflight)
    INFER_STATS[0] += 1
    INFER_STATS[1] += ess
    INFER_STATS[2] += F * S
    for c in _resample(rng, weights, total, S):
        yield _finish(h, p, rng, U0, cands[c])


def infer_beliefs(h: Hand, p: int, candidates: int, rng: RandomStream) -> tuple[list[list[float]], float]:
    """What ``p`` believes of the other hands: the weighted share of ``candidates`` candidate layouts
    in which seat ``t`` hides at least one copy of kind ``k`` (rows of ``p`` are 0), and the
    effective sample size of the weights (``candidates`` when nothing is recorded)."""
    N = h.N
    U0, nt = _pool(h, p)
    if h.events is None:
        h = h.clone()
        h.events = []
    _, cands, weights, total, ess = _candidates(h, p, rng, candidates)
    probs = [[0.0] * N_KINDS for _ in range(N)]
    for j in range(1, N):
        t = (p + j) % N
        for k in range(N_KINDS):
            acc = 0.0
            for hid, w in zip(cands, weights):
                if hid[t][k] >= 1:
                    acc += w
            probs[t][k] = acc / total
    return probs, ess


def _rollout(gs: Hand, p: int, k: int, offer_from: int, seed: int) -> tuple[int, bool]:
    """Play a sampled state to its end with the rollout policy everywhere: (net of p, p won)."""
    cfg = gs.cfg
    codes = cfg.codes()
    h = gs.clone()
    rng = SplitMixStream(seed)
    pcodes = list(gs.styles) if gs.styles is not None else [_ROLLOUT] * cfg.players
    pols = [POLICY_NAMES[c] for c in pcodes]

    def nolog(seat: int, action: int, card: int, value: int) -> None:
        return None

    if offer_from < 0:
        _apply_discard(h, p, k)
        origin = p
    else:
        origin = offer_from
    winner, win, source, _, kzwait = _offers(cfg, codes, h, k, origin, False, pols, pcodes, rng, nolog, -1)
    if winner < 0:
        return 0, False
    net = _settle(cfg, codes, h, winner, win, source, kzwait, nolog)[0]
    return net[p], winner == p


def _search(h: Hand, p: int, options: Sequence[int], samples: int, rng: RandomStream,
            offer_from: int = -1) -> tuple[list[list[int]], list[list[int]]]:
    vals = [[0] * samples for _ in options]
    wins = [[0] * samples for _ in options]
    for j, (gs, seed) in enumerate(_layouts(h, p, samples, rng, options[0] if offer_from >= 0 else -1)):
        for i, k in enumerate(options):
            vals[i][j], won = _rollout(gs, p, k, offer_from, seed)
            wins[i][j] = int(won)
    return vals, wins


def _mix64(z: int) -> int:
    """SplitMix64's output function (a bijection of 64-bit words, 0 -> 0): the search salt's mix."""
    z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & _M64
    z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & _M64
    return z ^ (z >> 31)


def _search_seed(hand: int, decision: int, p: int, salt: int = 0) -> int:
    """The seed of a decision's private layout stream (``salt``: :attr:`EngineConfig.search_salt`).

    >>> _search_seed(3, 5, 1) == _search_seed(3, 5, 1, salt=0), _search_seed(3, 5, 1, salt=1) == _search_seed(3, 5, 1)
    (True, False)
    """
    return (((hand * 0x9E3779B97F4A7C15) & _M64) ^ ((decision * 0xBF58476D1CE4E5B9) & _M64) ^ p
            ^ _mix64(salt & _M64))


#: On (``with compiled_rollouts(): ...``), a ``'search'`` seat's two stages run in the compiled
#: twin (:func:`kaptai.nineten._engine.search_pick`) from the decision's own SplitMix seed: the
#: same layouts and values, so the same discard, at the compiled speed.  The reference stays pure
#: Python (the tests' oracle) unless a caller turns it on; ``kaptai play`` does, since a person's
#: table runs this engine (:class:`kaptai.core.sampling.Switch`).
compiled_rollouts = Switch()


def _search_choice(h: Hand, p: int, options: list[int], rng: RandomStream) -> int:
    T = [0, 0, 0, 0]
    for k in range(N_KINDS):
        T[_COLOUR[k]] += h.held[p][k]
    keys = [T[_COLOUR[k]] * 8 + h.unseen(p, k) for k in options]
    tied = [i for i, key in enumerate(keys) if key == min(keys)]
    # the rollout policy's own choice, its tie drawn from the engine's stream as colour_cut draws it
    ref = tied[0] if len(tied) == 1 else tied[rng.bounded(len(tied))]
    h.run[0] += 1
    seed = _search_seed(h.index, h.run[0], p, h.cfg.search_salt)
    if compiled_rollouts:
        from kaptai.nineten._engine import search_pick

        return int(search_pick(h.cfg, hand_state(h, p), p, options, ref, seed))
    srng = SplitMixStream(seed)
    S = h.cfg.samples
    vals, _ = _search(h, p, options, S, srng)
    sums = [sum(v) for v in vals]
    q = [sum((a - b) ** 2 for a, b in zip(v, vals[ref])) for v in vals]
    z = h.cfg.search_z
    go_z = min(SEARCH_GO, z)
    # stage 1: the options ahead of ref; a second stage if one leads by more than go_z errors
    ahead = [i for i in range(len(options)) if i != ref and sums[i] > sums[ref]]
    best = ref
    if any(_beats(float(sums[i] - sums[ref]), float(q[i]), float(S), go_z) for i in ahead):
        S2 = min(S * SEARCH_MORE, 100_000)
        vals2, _ = _search(h, p, [options[ref]] + [options[i] for i in ahead], S2, srng)
        sums2 = [sum(v) for v in vals2]
        both = float(S + S2)
        besttot = 0
        for j, i in enumerate(ahead, start=1):
            q2 = sum((a - b) ** 2 for a, b in zip(vals2[j], vals2[0]))
            tot = sums[i] + sums2[j]
            if _beats(float(tot - sums[ref] - sums2[0]), float(q[i] + q2), both, z) and (best == ref or tot > besttot):
                best, besttot = i, tot
    return options[best]


def _beats(D: float, Q: float, S: float, z: float) -> bool:
    """The paired test of the choice: a sum of differences ``D > 0`` over ``S`` layouts, with ``Q``
    the sum of their squares, is more than ``z`` standard errors."""
    return D > 0.0 and D * D * (S - 1.0) > z * z * (S * Q - D * D)


def _hand_from_state(cfg: EngineConfig, state: Mapping[str, Any], seat: int) -> Hand:
    """A typed position (see :func:`search_values`) as a :class:`Hand`."""
    N = cfg.players
    h = Hand(cfg, list(range(112)), int(state["dealer"]))
    h.held = [[int(x) for x in row] for row in np.asarray(state["held"])]
    h.exposed = [[int(x) for x in row] for row in np.asarray(state["exposed"])]
    h.dead = [[int(x) for x in row] for row in np.asarray(state["dead"])]
    h.dead_seq = [[int(x) for x in row] for row in np.asarray(state["dead_seq"])]
    h.waste = [int(x) for x in np.asarray(state["waste"])]
    h.pairs = [sum(x // 2 for x in h.held[t]) for t in range(N)]
    h.kz = [[] for _ in range(N)]
    h.kz[seat] = [k for k in range(N_KINDS) if int(np.asarray(state["kz4"])[k])]
    h.top = int(state["top"])
    h.counter = int(state["counter"])
    h.offered = 0
    for k in state["offered"]:
        h.offered |= 1 << int(k)
    events = state.get("events")
    if events is None:
        h.events = []
    else:
        h.events = [(int(t), int(k), int(fm), tuple(int(x) for x in vis), tuple(int(x) for x in then))
                    for (t, k, fm, vis, then) in list(events)[:INFER_MAX_EVENTS]]
        h.cum = [[int(x) for x in row] for row in np.asarray(state["cum"])]
    return h


def hand_state(h: Hand, seat: int) -> dict[str, Any]:
    """The position of ``h`` as ``seat`` sees it, in the form :func:`search_values` and
    :func:`infer_beliefs_state` take (the other seats' ``held`` included: the engines read only
    their sizes and face-up parts)."""
    return {"held": h.held, "exposed": h.exposed, "dead": h.dead, "dead_seq": h.dead_seq,
            "kz4": [1 if k in h.kz[seat] else 0 for k in range(N_KINDS)], "waste": h.waste,
            "offered": [k for k in range(N_KINDS) if h.offered >> k & 1], "top": h.top, "dealer": h.dealer,
            "counter": h.counter, "events": list(h.events or []), "cum": h.cum}


def infer_beliefs_state(cfg: EngineConfig, state: Mapping[str, Any], seat: int, candidates: int,
                        bit_generator: np.random.BitGenerator) -> tuple[np.ndarray, float]:
    """The pure-Python twin of :func:`kaptai.nineten._engine.infer_beliefs` (same draws, same numbers)."""
    h = _hand_from_state(cfg, state, seat)
    probs, ess = infer_beliefs(h, seat, int(candidates), RandomStream(bit_generator))
    return np.array(probs, dtype=np.float64), ess


def search_values(cfg: EngineConfig, state: Mapping[str, Any], seat: int, options: Sequence[int], samples: int,
                  bit_generator: np.random.BitGenerator, offer_from: int = -1) -> tuple[np.ndarray, np.ndarray, int]:
    """The pure-Python twin of :func:`kaptai.nineten._engine.search_values` (same layouts, same values).

    ``state`` holds ``held``, ``exposed``, ``dead``, ``dead_seq`` ((N, 28)), ``kz4`` ((28,), the
    seat's claimed 4th copies), ``waste``, ``offered`` (kinds), ``top``, ``dealer``, ``counter``;
    optionally ``events`` and ``cum`` (:attr:`Hand.events`, :attr:`Hand.cum`: the inference).
    Returns ``(values, wins, relaxed)`` as the compiled one.
    """
    h = _hand_from_state(cfg, state, seat)
    before = RELAXED[0]
    vals, wins = _search(h, seat, [int(k) for k in options], int(samples), RandomStream(bit_generator), offer_from)
    return np.array(vals, dtype=np.int64), np.array(wins, dtype=np.int8), RELAXED[0] - before
