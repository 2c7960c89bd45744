"""A rule-based Big Two sparring partner, independent of kaptai's built-in policies.

This is **our** stand-in for a strong outside player (it is not the held-out outside agent of
issue 31, and nothing here was tuned to it).  It was written from general Big Two strategy,
not from kaptai's ``greedy``/``heuristic``/``search`` code, and it is never used by the
search's rollouts: it only sits at the table as an opponent (or as the one seat under test).
It talks to kaptai only through the reference engine's policy interface (``choose(view)``
with a :class:`kaptai.bigtwo.policies.PlayerView`), so it plays under any rule set.

Strategy
--------
* **Decomposition.**  The hand is split into the fewest units (singles, pairs, triples,
  four-card plays where the rules allow them, five-card hands), found by an exact dynamic
  programme over the subsets of the hand (memoised by card mask): the unit holding the
  lowest card is chosen among every legal play containing it.  Ties go to fewer weak
  singles/pairs, then to stronger units.
* **Card counting.**  A unit is *boss* when no combination of the unseen cards beats it
  (singles and pairs exactly; triples by rank; five-card hands by a bound).  Control cards
  are 2s, aces and boss units.
* **Leading.**  Finish if it can (the whole hand is one play, or all units but one are boss:
  play the bosses, then the last one).  Otherwise lead the weakest non-control unit,
  preferring a five-card or pair unit to a weak single; when an opponent holds one card,
  lead no single but a boss (pairs/fives first, else the highest single); two cards: avoid
  pairs.
* **Following.**  Beat with a unit of the plan (a play that does not raise the plan's unit
  count) -- the weakest one; spend control cards only when an opponent is close to going
  out (<= 3 cards), when the seat itself is close (<= 3 units), or when the control card is
  a boss and the seat then has a plan to run out.  Breaking the plan is done only to stop a
  seat with one or two cards.  Otherwise pass.

Measuring it
------------
``python benchmarks/bigtwo_sparring.py DEALS SEED [--rules default|outside] [--what ...]``
plays duplicate deals (seats rotated) of: the sparring agent against three ``greedy`` /
three ``heuristic`` (``--what field``), or one compiled ``search`` seat (32 layouts unless
``--samples N``: the league's budget until ``POLICY_VERSION`` 4, 64 until 5, 128 since; the
documented runs used 32, and the 64/128 comparison ``--samples 64``) against three sparring
agents (``--what search``; ``--pool K`` sets its
``search_pool``, ``--compare-pool K`` plays ``search_pool=K`` and ``search_pool=1`` on the same
deals and prints the paired difference; ``--compare KEY=VALUE`` plays the search with that one
config override, e.g. ``search_rollout=heuristic`` or ``search_samples=64``, against the default
search on the same deals and prints the paired difference).  The score is the seat's
net in points (stake 1) under the rule set's settlement, averaged over the four rotations
of a deal; the interval is 1.96 standard errors over deals.
"""

from __future__ import annotations

import sys
import time
from functools import lru_cache

import numpy as np
from _timing import compare_override, paired_text

from kaptai.bigtwo import _engine, scoring
from kaptai.bigtwo._moves import legal_entries
from kaptai.bigtwo.config import make_config
from kaptai.bigtwo.engine_reference import Game
from kaptai.bigtwo.policies import PlayerView, rules_info
from kaptai.core.sampling import RandomStream

RULESETS = {
    "default": {},
    "outside": {"straight_order": "sequential", "four_card_play": "quad_or_two_pair", "top_rule": "off",
                "redeal": "off", "settlement": "winner_takes_all", "chao": "13"},
}


def _pop(m: int) -> int:
    return bin(m).count("1")


def _low_bit_card(mask: int, strength) -> int:
    return min((c for c in range(52) if mask >> c & 1), key=strength.__getitem__)


class _Tables:
    """Per-rule-set memo tables: legal plays by hand mask, plans by mask."""

    def __init__(self, rules):
        self.rules = rules
        self.info = rules_info(rules)
        self.plans: dict[int, tuple] = {}

    def entries(self, mask: int) -> list:
        return _entries(mask, self.rules)

    def plan(self, mask: int, pool: list) -> tuple:
        """(cost, units) of the best decomposition of ``mask``; ``pool``: entries of a
        superset hand (every legal play of ``mask`` is among them)."""
        hit = self.plans.get(mask)
        if hit is not None:
            return hit
        if mask == 0:
            return (0.0, ())
        st = self.info.strength
        low = _low_bit_card(mask, st)
        lowbit = 1 << low
        best = None
        for e in pool:
            m = e[2]
            if m & lowbit and m & mask == m:
                sub = self.plan(mask & ~m, pool)
                cost = sub[0] + _unit_cost(e, self.info)
                if best is None or cost < best[0]:
                    best = (cost, (e,) + sub[1])
        assert best is not None  # the single of the lowest card is always legal
        if len(self.plans) > 300_000:
            self.plans.clear()
        self.plans[mask] = best
        return best


@lru_cache(maxsize=50_000)
def _entries(mask: int, rules) -> list:
    return legal_entries(mask, rules_info(rules))


def _unit_cost(e, info) -> float:
    """One unit costs 1; weak singles and pairs cost a little more (they are hard to shed),
    strong units a little less (they win tricks)."""
    t, mask = e[0], e[2]
    top = max(info.rank_strength[c >> 2] for c in range(52) if mask >> c & 1)
    if t == 1:
        return 1.0 + (0.25 if top < 6 else 0.1 if top < 9 else -0.05 * (top - 8))
    if t == 2:
        return 1.0 + (0.1 if top < 5 else -0.03 * max(0, top - 7))
    if t == 5 or t == 4:
        return 0.9
    return 0.95


_TABLES: dict = {}


def _tables(rules) -> _Tables:
    t = _TABLES.get(rules)
    if t is None:
        t = _TABLES[rules] = _Tables(rules)
    return t


class SparringPolicy:
    """The sparring agent (module docstring).  ``choose(view)`` returns a Play or None."""

    name = "sparring"

    def __init__(self, control_rank: int = 12, spend_units: int = 4, danger: int = 5, keep_tol: float = 2.0,
                 lead_bonus: float = 6.0):
        self.control_rank, self.spend_units, self.danger, self.keep_tol = control_rank, spend_units, danger, keep_tol
        self.lead_bonus = lead_bonus

    def swap(self, view: PlayerView) -> bool:  # Malaysian 3-player swap: keep the hand
        return False

    # ---------------------------------------------------------------- card counting
    def _is_boss(self, e, unseen: int, T: _Tables) -> bool:
        t, key = e[0], e[1]
        info = T.info
        if t == 1:
            c = next(c for c in range(52) if e[2] >> c & 1)
            return all(info.strength[u] < info.strength[c] for u in range(52) if unseen >> u & 1)
        if t in (2, 3, 4):
            by_rank: dict[int, int] = {}
            for u in range(52):
                if unseen >> u & 1:
                    by_rank[u >> 2] = by_rank.get(u >> 2, 0) | (1 << u)
            for r, m in by_rank.items():
                if _pop(m) >= t if t < 4 else _pop(m) >= 2:
                    for ue in T.entries(m):
                        if ue[0] == t and ue[1] > key:
                            return False
            if t == 4:  # two pairs from two ranks: bound by the two highest unseen pair ranks
                return len([1 for m in by_rank.values() if _pop(m) >= 2]) < 2
            return True
        # five-card hands: boss if the unseen cards hold no five-card play that beats it;
        # checking every unseen five is too slow, so a bound: flushes and better count as boss
        # when few unseen cards remain, straights never
        cat = e[3].category.value
        return cat in ("four_of_a_kind", "straight_flush") or (cat == "full_house" and _pop(unseen) <= 12)

    def _control(self, e, unseen: int, T: _Tables) -> bool:
        top = max(T.info.rank_strength[c >> 2] for c in range(52) if e[2] >> c & 1)
        return top >= self.control_rank or self._is_boss(e, unseen, T)

    # ---------------------------------------------------------------- decisions
    def choose(self, view: PlayerView):
        opts = list(zip(view.option_masks, view.options))
        if not opts:
            return None
        T = _tables(view.rules)
        info = T.info
        hand = view.hand_mask
        pool = T.entries(hand)
        cost0, units = T.plan(hand, pool)
        unseen = view.unseen()
        N, me = view.players, view.seat
        others = [view.cards_left[s] for s in range(N) if s != me]
        opp_min = min(others) if others else 13
        nxt = view.cards_left[(me + 1) % N]
        by_mask = {m: p for m, p in opts}
        entry = {e[2]: e for e in pool}

        # 1) play out: the whole hand at once
        if hand in by_mask:
            return by_mask[hand]
        # 頂大: the next seat holds one card -- a single must be our top card, or we are liable
        if view.rules.top_rule != "off" and nxt == 1:
            top = 1 << view.top
            if view.leading:
                multi = [m for m in by_mask if _pop(m) >= 2]
                if multi:
                    return by_mask[max(multi, key=lambda m: (_pop(m), -info.entry(m)[1][0]
                                                              if isinstance(info.entry(m)[1], tuple) else 0))]
                return by_mask.get(top) or by_mask[max(by_mask, key=lambda m: info.strength[m.bit_length() - 1])]
            if view.trick_class == 1:
                return by_mask.get(top) if top in by_mask else (None if view.can_pass else by_mask[top])

        if view.leading:
            return self._lead(view, T, pool, units, unseen, opp_min, nxt, by_mask, entry)
        return self._follow(view, T, pool, cost0, units, unseen, opp_min, by_mask)

    def _lead(self, view, T, pool, units, unseen, opp_min, nxt, by_mask, entry):
        info = T.info
        legal = [e for e in units if e[2] in by_mask]
        if view.opening_card is not None:
            oc = 1 << view.opening_card
            # the unit holding the opening card, else the biggest legal play holding it
            u = [e for e in units if e[2] & oc and e[2] in by_mask]
            if u:
                return by_mask[u[0][2]]
            best = max((m for m in by_mask if m & oc), key=lambda m: (_pop(m), -info.entry(m)[1] if False else 0))
            return by_mask[best]
        boss = [e for e in units if self._is_boss(e, unseen, T)]
        rest = [e for e in units if not self._is_boss(e, unseen, T)]
        # 2) run out: every unit but (at most) one is boss -- play the bosses first
        if len(rest) <= 1 and boss:
            e = max(boss, key=lambda e: e[0])
            if e[2] in by_mask:
                return by_mask[e[2]]
        if len(rest) == 1 and not boss and rest[0][2] in by_mask:
            return by_mask[rest[0][2]]
        if not legal:
            legal = [e for e in pool if e[2] in by_mask]

        def weak_key(e):
            top = max(info.strength[c] for c in range(52) if e[2] >> c & 1)
            return top

        non_control = [e for e in legal if not self._control(e, unseen, T)]
        # 3) an opponent holds one card: lead no beatable single
        if opp_min == 1:
            multi = [e for e in legal if e[0] >= 2]
            if multi:
                return by_mask[min(multi, key=lambda e: (-e[0], weak_key(e)))[2]]
            singles = [e for e in legal if e[0] == 1]
            bs = [e for e in singles if self._is_boss(e, unseen, T)]
            pick = bs[0] if bs else max(singles, key=weak_key)
            return by_mask[pick[2]]
        cand = non_control or legal
        if opp_min == 2:
            np_ = [e for e in cand if e[0] != 2]
            cand = np_ or cand
        # 4) the weakest unit, a multi-card unit before a single of similar weakness
        def lead_key(e):
            w = weak_key(e)
            bonus = {5: 10, 4: 8, 3: 6, 2: 4, 1: 0}[e[0]]
            return w - self.lead_bonus * bonus
        return by_mask[min(cand, key=lead_key)[2]]

    def _follow(self, view, T, pool, cost0, units, unseen, opp_min, by_mask):
        info = T.info
        trick_seat = view.trick_seat
        N, me = view.players, view.seat
        threat = view.cards_left[trick_seat] if trick_seat >= 0 else 13
        unit_masks = {e[2] for e in units}
        scored = []
        for m, p in by_mask.items():
            e = info.entry(m)
            sub = T.plan(view.hand_mask & ~m, pool)
            scored.append((sub[0] - (cost0 - _unit_cost(e, info)), m in unit_masks, e, sub))
        # plays that keep the plan: raise the rest's cost by under half a unit
        keep = [s for s in scored if s[0] < self.keep_tol]
        n_units = len(units)
        danger = opp_min <= self.danger
        if keep:
            keep.sort(key=lambda s: (s[0] > 0.05, s[2][1]))
            for s in keep:
                e = s[2]
                ctrl = self._control(e, unseen, T)
                if not ctrl:
                    return by_mask[e[2]]
                # a control card: spend it when it matters
                boss = self._is_boss(e, unseen, T)
                rest_units = len(s[3][1])
                if danger or n_units <= self.spend_units:
                    return by_mask[e[2]]
                if boss and rest_units <= 2:
                    return by_mask[e[2]]
                if boss and len([1 for u in s[3][1] if not self._is_boss(u, unseen, T)]) <= 1:
                    return by_mask[e[2]]
                # keep 2s for later while the table is long
                break
        # breaking the plan: only to stop a seat with one or two cards
        if opp_min <= 2 or threat <= 2:
            best = max(scored, key=lambda s: s[2][1])
            return by_mask[best[2][2]]
        if not view.can_pass:
            return by_mask[min(scored, key=lambda s: (s[0], s[2][1]))[2][2]]
        return None


# ------------------------------------------------------------------------- measurement
class CompiledSearch:
    """One seat of the compiled ``search`` (``_engine.search_position``, the engine's choice
    rule: the largest weighted net, the first on ties), its stream seeded per decision."""

    name = "search"

    def __init__(self, cfg, seed: int, samples: int = 32):
        self.cfg, self.samples = cfg, samples
        self.ss = np.random.SeedSequence(seed)

    def swap(self, view):
        return False

    def choose(self, view):
        if len(view.options) + int(view.can_pass) <= 1:
            return view.options[0] if view.options else None
        must = 0 if view.opening_card is None else 1 << view.opening_card
        kw = {"history": view.history} if view.history else {}
        cands, sums, _, _ = _engine.search_position(
            self.cfg, view.seat, view.cards_left, view.hand_mask, played=view.played, dead=view.dead,
            trick=view.trick_mask or 0, trick_seat=view.trick_seat, passes=view.passes,
            locked=view.locked or None, must=must, violator=view.violator, turns=view.turn,
            bit_generator=np.random.PCG64(self.ss.spawn(1)[0]), samples=self.samples, **kw)
        best = max(range(len(cands)), key=lambda i: (int(sums[i]), -i))
        m = int(cands[best])
        return None if m == 0 else rules_info(view.rules).play(m)


def _builtin(name, cfg):
    from kaptai.bigtwo.policies import resolve_policies

    return resolve_policies([name], 1, None, cfg)[0]


def duplicate_decks(deals: int, seed: int) -> list[list[list[int]]]:
    """The duels' decks: per deal three shuffles (two spares for redeals) from ``default_rng(seed)``."""
    rng = np.random.default_rng(seed)
    return [[rng.permutation(52).tolist() for _ in range(3)] for _ in range(deals)]


def seat_net(cfg, flat, pols, deck, key, seat: int) -> float:
    """Seat ``seat``'s net (points under ``flat``, the rules at stake 1) of one game of the reference
    engine with ``pols`` on ``deck``, the public record kept (the search reads it); the stream
    ``PCG64(key)`` serves only a 'random' field (the deck is given)."""
    g = Game(cfg, pols, RandomStream(np.random.PCG64(list(key))), decks=deck, record=False)
    g.history = []
    r = g.play()
    pen = scoring.penalties([list(r.cards_left)], flat, points_left=[list(r.points_left)], winner=[r.winner])
    return float(scoring.settle_many(pen, flat, winner=[r.winner], liable=[r.liable])[0, seat])


def duel(deals: int, seed: int, rules: str, what: str, field: str = "greedy", samples: int = 32,
         **search_cfg) -> dict:
    """One seat of the tested player against three of the field on ``deals`` duplicate deals,
    the tested seat rotated through the four seats; returns ``{'ev', 'ci', 'per_deal', 'secs'}``."""
    cfg = make_config(4, RULESETS[rules])
    scfg = make_config(4, RULESETS[rules], **search_cfg) if search_cfg else cfg
    flat = cfg.rules.replace(stake=1.0, bankroll="off")
    decks = duplicate_decks(deals, seed)
    ev = np.zeros(deals)
    t0 = time.perf_counter()
    for d in range(deals):
        for s in range(4):
            if what == "search":
                pols = [SparringPolicy() for _ in range(4)]
                pols[s] = CompiledSearch(scfg, seed * 1_000_003 + d * 4 + s, samples)
            else:
                f = _builtin(field, cfg)
                pols = [f] * 4
                pols[s] = SparringPolicy()
            ev[d] += seat_net(cfg, flat, pols, decks[d], (seed, d, s), s) / 4
    return {"ev": float(ev.mean()), "ci": float(1.96 * ev.std(ddof=1) / np.sqrt(deals)), "per_deal": ev,
            "secs": time.perf_counter() - t0}


def main(argv=None) -> int:
    argv = sys.argv[1:] if argv is None else argv
    deals, seed = int(argv[0]), int(argv[1])
    rules = argv[argv.index("--rules") + 1] if "--rules" in argv else "default"
    what = argv[argv.index("--what") + 1] if "--what" in argv else "field"
    fields = ("greedy", "heuristic") if what == "field" else ("sparring",)
    kw = {}
    if "--rollout" in argv:
        kw["search_rollout"] = argv[argv.index("--rollout") + 1]
    if "--infer" in argv:
        kw["search_infer"] = int(argv[argv.index("--infer") + 1])
    if "--samples" in argv:
        kw["samples"] = int(argv[argv.index("--samples") + 1])
    if "--pool" in argv:
        kw["search_pool"] = int(argv[argv.index("--pool") + 1])
    pair = None
    if "--compare-pool" in argv:   # paired: search_pool=K against search_pool=1 on the same deals
        k = int(argv[argv.index("--compare-pool") + 1])
        pair = ("pool 1", {**kw, "search_pool": 1}, f"pool {k}", {**kw, "search_pool": k})
    elif "--compare" in argv:   # paired: the search with one config override against the default search
        spec = argv[argv.index("--compare") + 1]
        key, value = compare_override(spec)
        over = {**kw, key: value}
        if key == "search_samples":   # the seat's budget is passed per decision as well
            over["samples"] = value
        pair = ("default", kw, spec, over)
    if pair is not None:
        a, kw_a, b, kw_b = pair
        base = duel(deals, seed, rules, "search", "sparring", **kw_a)
        new = duel(deals, seed, rules, "search", "sparring", **kw_b)
        print(f"{rules:<8} search vs 3 sparring: {paired_text(a, base['per_deal'], b, new['per_deal'])} points a "
              f"game ({deals} deals x 4 seats, seed {seed}, {base['secs']:.0f} s / {new['secs']:.0f} s)", flush=True)
        return 0
    for f in fields:
        r = duel(deals, seed, rules, what, f, **kw)
        who = "sparring vs 3 " + f if what == "field" else f"search{kw} vs 3 sparring"
        print(f"{rules:<8} {who:<26} {r['ev']:+.2f} +- {r['ci']:.2f} points a game "
              f"({deals} deals x 4 seats, seed {seed}, {r['secs']:.0f} s)", flush=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
