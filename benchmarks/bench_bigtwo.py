"""Throughput of the Big Two (鋤大D) game engine: compiled against the pure-Python reference.

Run ``python benchmarks/bench_bigtwo.py [--quick]``; prints one row per measurement.
``python benchmarks/bench_bigtwo.py --duel DEALS SEED`` prints the search's strength table
(one search seat against each field, seats rotated, duplicate deals; :func:`duel`;
``--rules outside,default``, ``--fields greedy,heuristic`` choose the cells, ``--pool K`` the
search's ``search_pool``, ``--compare-pool K`` prints ``search_pool=K`` − ``search_pool=1`` on
the same deals, paired; ``--compare KEY=VALUE``, e.g. ``search_rollout=heuristic``, prints the
search with that config override − the default search on the same deals, paired).  ``--search [--quick] [--pool K]`` prints only the search-decision rows.
``run(quick)`` returns the rows as dicts ``{name, value, unit, repeats}`` (plus ``target``
where there is one).

Measured on one core, complete games (deal, redeals, play to the first empty hand), the
median of several timed runs after a warm-up:

* the exact deal table of four players under every option (target < 5 s);
* the compiled engine (:mod:`kaptai.bigtwo._engine`) with the ``greedy``, ``heuristic``
  and ``random`` policies, 4 players, default (Hong Kong) rules — the greedy row has the
  context target >= 10,000 games/s — and greedy with 3 players (Malaysian) and 2 players;
* the ``search`` policy at its default budget (``EngineConfig.search_samples`` layouts per
  decision): decisions per second over positions met in greedy games (every turn with two
  or more options, with the game's history, so the inference is timed too), and complete
  games per second of a table of four ``search`` players;
* ``kaptai advise big-two`` (:func:`kaptai.bigtwo.advisor.advise`, its default budget): the
  median milliseconds of one answer over positions met in greedy games (target <= 200);
* the reference engine (:mod:`kaptai.bigtwo.engine_reference`) on a few games per policy,
  and the compiled/reference ratios (skipped, with a note, if the reference is missing).
"""

from __future__ import annotations

import statistics
import sys
import time

import numpy as np
from _timing import Rows, compare_override, median_rate

from kaptai.bigtwo import _engine
from kaptai.bigtwo.config import POLICY_CODES, make_config


def _compiled(cfg, policy: str):
    codes = [POLICY_CODES[policy]] * cfg.players
    seed = iter(range(10**6))
    return lambda n: _engine.run_hands(cfg, codes, np.random.PCG64(next(seed)), n)


def _reference(cfg, policy: str):
    from kaptai.bigtwo.engine_reference import run_hands

    seed = iter(range(10**6))
    return lambda n: run_hands(cfg, [policy] * cfg.players, np.random.PCG64(next(seed)), n)


def _positions(cfg, count: int, seed: int = 7) -> list:
    """Views of ``count`` turns with two or more options met by greedy players (reference Game)."""
    from kaptai.bigtwo.engine_reference import Game
    from kaptai.core.sampling import RandomStream

    stream = RandomStream(np.random.PCG64(seed))
    out: list = []
    g = Game(cfg, "greedy", stream)
    while len(out) < count:
        if g.over:
            g = Game(cfg, "greedy", stream)
            continue
        v = g.view()
        if len(v.options) + int(v.can_pass) >= 2:
            out.append(v)
        g.step()
    return out


def _search_rows(row, quick: bool, pool: int | None = None, advise_rows: bool = True) -> None:
    """The search and advise rows (module docstring); ``pool``: the search's ``search_pool``."""
    from kaptai.bigtwo.advisor import advise
    from kaptai.bigtwo.cards import format_cards

    four = make_config(4, search_pool=pool)
    views = _positions(make_config(4), 60 if quick else 300)
    tag = "" if pool is None else f", pool {four.search_pool}"

    def decide(v, seed):
        must = 0 if v.opening_card is None else 1 << v.opening_card
        # the game's public history drives the search's inference (absent before it existed)
        kw = {"history": v.history} if getattr(v, "history", None) else {}
        _engine.search_position(four, v.seat, v.cards_left, v.hand_mask, played=v.played, dead=v.dead,
                                trick=v.trick_mask or 0, trick_seat=v.trick_seat, passes=v.passes,
                                locked=v.locked or None, must=must, violator=v.violator, turns=v.turn,
                                bit_generator=np.random.PCG64(seed), **kw)

    reps = 3 if quick else 5
    rates = []
    for r in range(reps):
        t0 = time.perf_counter()
        for i, v in enumerate(views):
            decide(v, 1000 * r + i)
        rates.append(len(views) / (time.perf_counter() - t0))
    row(f"search decisions 4p, {four.search_samples} layouts{tag}", statistics.median(rates), "decisions/s", reps,
        positions=len(views))
    rate, n = median_rate(_compiled(four, "search"), 20 if quick else 100, reps)
    row(f"compiled search x4 4p, {four.search_samples} layouts{tag}", rate, "games/s", n)
    if not advise_rows:
        return

    times = []
    for i, v in enumerate(views[: 30 if quick else 100]):
        N = v.players
        hand = format_cards([c for c in range(52) if v.hand_mask >> c & 1])
        played = format_cards([c for c in range(52) if v.played >> c & 1])
        kw = {}
        if v.trick_mask is not None:
            kw = {"to_beat": format_cards([c for c in range(52) if v.trick_mask >> c & 1]),
                  "by": (v.trick_seat - v.seat) % N}
        left = [v.cards_left[(v.seat + j) % N] for j in range(1, N)]
        t0 = time.perf_counter()
        advise(hand, played=played, cards_left=left, seed=i, **kw)
        times.append(1000 * (time.perf_counter() - t0))
    row("advise 4p, default budget, median", statistics.median(times), "ms", len(times), target="<= 200")
    row("advise 4p, default budget, 90th percentile", float(np.percentile(times, 90)), "ms", len(times))


def run(quick: bool = False) -> list[dict]:
    """Measure and return rows ``{'name', 'value', 'unit', 'repeats'}``.

    Parameters
    ----------
    quick : bool
        Fewer games and repeats, a time budget on the reference rows (a smoke run).
    """
    repeats = 3 if quick else 7
    n_fast = 5_000 if quick else 50_000
    n_ref = 10 if quick else 40
    four = make_config(4)
    out: list[dict] = Rows()

    def row(name, value, unit, reps, **extra):
        out.append({"name": name, "value": float(value), "unit": unit, "repeats": reps, **extra})

    rates = {}
    for policy in ("greedy", "heuristic", "random"):
        rates[policy], reps = median_rate(_compiled(four, policy), n_fast, repeats)
        extra = {"target": ">= 10,000"} if policy == "greedy" else {}
        row(f"compiled {policy} 4p hong_kong", rates[policy], "games/s", reps, **extra)
    for players, options, label in ((3, {"malaysian_3p": True}, "3p malaysian"), (2, {}, "2p")):
        rate, reps = median_rate(_compiled(make_config(players, options), "greedy"), n_fast // 2, repeats)
        row(f"compiled greedy {label}", rate, "games/s", reps)

    _search_rows(row, quick)

    # the exact deal table: deal_odds for every hand kind x every straight_order / option that
    # changes it, and the best five-card hand distribution (all straight orders), 4 players
    from itertools import product

    from kaptai.bigtwo.odds import HAND_KINDS, best_hand_distribution, deal_odds

    def table() -> None:
        for order, suits, hand in product(("hk", "sequential", "poker", "wheel_top", "broadway_top"),
                                          ("hk", "taiwan"), HAND_KINDS):
            deal_odds(4, {"straight_order": order, "suit_order": suits}, hand=hand)
        for tpf in (False, True):
            best_hand_distribution(4, {"two_pair_five": tpf})

    times = []
    for _ in range(repeats):
        t0 = time.perf_counter()
        table()
        times.append(time.perf_counter() - t0)
    # the first run fills the enumeration caches (cold); later runs reuse them
    row("exact deal table 4p, every option, cold", 1000 * times[0], "ms", 1, target="< 5000")
    row("exact deal table 4p, every option, warm", 1000 * statistics.median(times[1:] or times), "ms", repeats)

    try:
        import kaptai.bigtwo.engine_reference  # noqa: F401
    except ImportError as exc:
        print(f"note: reference engine not available ({exc}); ratio rows skipped", file=sys.stderr)
        return out
    for policy in ("greedy", "heuristic", "random"):
        ref, reps = median_rate(_reference(four, policy), n_ref, max(1, repeats // 2), budget=15.0 if quick else None)
        row(f"reference {policy} 4p hong_kong", ref, "games/s", reps)
        row(f"speed-up {policy} compiled/reference", rates[policy] / ref, "x", reps)
    return out


#: The rule sets of the search's strength table (docs/big-two.md, "Strength against each field").
DUEL_RULES = {
    "default": {},
    "wta": {"settlement": "winner_takes_all"},
    "outside": {"straight_order": "sequential", "four_card_play": "quad_or_two_pair", "top_rule": "off",
                "redeal": "off", "settlement": "winner_takes_all", "chao": "13"},
}


def duel(deals: int, seed: int, rulesets=tuple(DUEL_RULES), fields=("greedy", "heuristic", "random"),
         pool: int | None = None, overrides: dict | None = None) -> dict:
    """One ``search`` seat against a field of one policy, seats rotated, on duplicate deals.

    The decks come from ``numpy.random.default_rng(seed)`` (``3 * deals`` of them, spare ones for
    redeals) and are the same for every seat of the search; the search's stream of rotation
    ``s`` is ``PCG64(seed + 1 + s)``. Per deal, the search seat's net (points, stake 1) is
    averaged over the 4 rotations; the interval is over deals. Returns
    ``{'<rules>/<field>': {'ev', 'ev_ci', 'hands', 'per_deal'}}``.  ``pool``: the search's
    ``search_pool`` (default: the config's); ``overrides``: further ``make_config`` keywords of
    the search (e.g. ``{'search_rollout': 'heuristic'}``).
    """
    from kaptai.bigtwo import scoring

    out = {}
    for rs in rulesets:
        cfg = make_config(4, DUEL_RULES[rs], search_pool=pool, **(overrides or {}))
        rng = np.random.default_rng(seed)
        decks = np.array([rng.permutation(52) for _ in range(deals * 3)])
        flat = cfg.rules.replace(stake=1.0, bankroll="off")
        for field in fields:
            ev = np.zeros(deals)
            for s in range(4):
                codes = [POLICY_CODES[field]] * 4
                codes[s] = POLICY_CODES["search"]
                res, _ = _engine.run_hands(cfg, codes, np.random.PCG64(seed + 1 + s), deals, decks=decks)
                pen = scoring.penalties(res["cards_left"], flat, points_left=res["points_left"], winner=res["winner"])
                ev += scoring.settle_many(pen, flat, winner=res["winner"], liable=res["liable"])[:, s] / 4
            out[f"{rs}/{field}"] = {"ev": float(ev.mean()), "ev_ci": float(1.96 * ev.std(ddof=1) / np.sqrt(deals)),
                                    "hands": 4 * deals, "per_deal": ev}
    return out


def main(argv: list[str] | None = None) -> int:
    argv = sys.argv[1:] if argv is None else argv
    pool = int(argv[argv.index("--pool") + 1]) if "--pool" in argv else None
    if argv[:1] == ["--duel"]:
        deals, seed = int(argv[1]), int(argv[2])
        rulesets = tuple(argv[argv.index("--rules") + 1].split(",")) if "--rules" in argv else tuple(DUEL_RULES)
        fields = tuple(argv[argv.index("--fields") + 1].split(",")) if "--fields" in argv else (
            "greedy", "heuristic", "random")
        pair = None
        if "--compare-pool" in argv:   # paired: search_pool=K against search_pool=1 on the same deals
            k = int(argv[argv.index("--compare-pool") + 1])
            pair = ("pool 1", {"pool": 1}, f"pool {k}", {"pool": k})
        elif "--compare" in argv:   # paired: one config override against the default search, same deals
            spec = argv[argv.index("--compare") + 1]
            name, value = compare_override(spec)
            pair = ("default", {"pool": pool}, spec, {"pool": pool, "overrides": {name: value}})
        if pair is not None:
            a, kw_a, b, kw_b = pair
            base, new = duel(deals, seed, rulesets, fields, **kw_a), duel(deals, seed, rulesets, fields, **kw_b)
            for key in base:
                d = new[key]["per_deal"] - base[key]["per_deal"]
                print(f"{key:<22} {a} {base[key]['ev']:+.3f} +- {base[key]['ev_ci']:.3f}, {b} "
                      f"{new[key]['ev']:+.3f} +- {new[key]['ev_ci']:.3f}; paired {b} - {a}: {d.mean():+.3f} "
                      f"+- {1.96 * d.std(ddof=1) / np.sqrt(deals):.3f} points a hand ({4 * deals:,} hands)", flush=True)
            return 0
        for key, r in duel(deals, seed, rulesets, fields, pool=pool).items():
            print(f"{key:<22} search EV {r['ev']:+.2f} +- {r['ev_ci']:.2f} points a hand ({r['hands']:,} hands)")
        return 0
    if "--search" in argv:   # the search-decision rows only (``--pool K``: its search_pool)
        rows: list[dict] = []
        _search_rows(lambda name, value, unit, reps, **extra: rows.append(
            {"name": name, "value": float(value), "unit": unit, "repeats": reps}), "--quick" in argv, pool, False)
        for r in rows:
            print(f"{r['name']:<42} {r['value']:>14,.1f} {r['unit']}  (median of {r['repeats']})")
        return 0
    for r in run(quick="--quick" in argv):
        print(f"{r['name']:<42} {r['value']:>14,.1f} {r['unit']}  (median of {r['repeats']})")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
