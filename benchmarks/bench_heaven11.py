"""Throughput of the Heaven Eleven (天牌十一) engine: compiled against the pure-Python reference.

Run ``python benchmarks/bench_heaven11.py [--quick]``.  ``run(quick)`` returns rows
``{name, value, unit, repeats}`` (plus ``target`` where there is one): complete hands (auction +
play) per second on one core with each built-in play policy, the reference engine's rate and the
compiled/reference ratio, the cost of one rollout and one search decision (play and bidding),
complete hands per second of a table of four ``search`` players, and the median time of an
``advise`` answer (a play at the default 48 layouts, the calls at the default 200).
"""

from __future__ import annotations

import sys
import time

import numpy as np
from _timing import Rows, median_rate

from kaptai.heaven11 import _engine
from kaptai.heaven11.config import make_config


def _rollout_decisions(cfg, out, log) -> int:
    """Seat-0 decisions with two or more options in a log (the ones that run a rollout)."""
    from kaptai.heaven11.engine_reference import follow_options, lead_options

    hands: dict[int, int] = {}
    led = n = 0
    count = 0
    for h, _, seat, action, cards, _value in log.tolist():
        trump = int(out["strain"][h])
        if action == 0:
            hands[seat] = cards
        elif action == 5:
            count += seat == 0 and len(lead_options(hands[0])) >= 2
            led, n = ((cards & -cards).bit_length() - 1) // 13, bin(cards).count("1")
            hands[seat] &= ~cards
        elif action == 6:
            count += seat == 0 and len(follow_options(hands[0], led, n, trump, cfg)) >= 2
            hands[seat] &= ~cards
    return int(count)


def run(quick: bool = False) -> list[dict]:
    """Measure and return the rows."""
    from kaptai.heaven11 import engine_reference

    repeats = 3 if quick else 5
    n_fast = 5_000 if quick else 50_000
    n_ref = 20 if quick else 200
    out: list[dict] = Rows()

    def row(name, value, unit, reps, **extra):
        out.append({"name": name, "value": float(value), "unit": unit, "repeats": reps, **extra})

    cfg = make_config()
    seeds = iter(range(10**6))
    rates = {}
    for name, code in (("greedy", 1), ("random", 0)):
        rates[name], reps = median_rate(lambda n: _engine.run_hands(cfg, [code] * 4, [0] * 4, np.random.PCG64(next(seeds)), n),
                                  n_fast, repeats)
        extra = {"target": ">= 20,000"} if name == "greedy" else {}
        row(f"heaven11 compiled {name} (4 seats)", rates[name], "hands/s", reps, **extra)
    ref, reps = median_rate(lambda n: engine_reference.run_hands(cfg, ["greedy"] * 4, np.random.PCG64(next(seeds)), n),
                      n_ref, max(1, repeats // 2))
    row("heaven11 reference greedy", ref, "hands/s", reps)
    row("heaven11 compiled/reference greedy", rates["greedy"] / ref, "x", reps, target=">= 100")
    for samples in (8, 32):
        rc = make_config(samples=samples)
        n_roll = 20 if quick else 100

        def roll(n, rc=rc):
            o, log = _engine.run_hands(rc, [2, 1, 1, 1], [0] * 4, np.random.PCG64(next(seeds)), n, n)
            return o, log

        roll(2)
        t0 = time.perf_counter()
        o, log = roll(n_roll)
        dt = time.perf_counter() - t0
        # decisions of seat 0 with >= 2 options: count from the log's plays of seat 0 (upper bound of rollouts)
        base_t0 = time.perf_counter()
        _engine.run_hands(cfg, [1] * 4, [0] * 4, np.random.PCG64(0), n_roll)
        base = time.perf_counter() - base_t0
        seat0 = _rollout_decisions(rc, o, log)
        row(f"heaven11 rollout decision (>= 2 options), samples={samples}", 1e3 * (dt - base) / max(seat0, 1),
            "ms/decision", 1)
        row(f"heaven11 compiled rollout seat 0 + greedy, samples={samples}", n_roll / dt, "hands/s", 1)
    _search_rows(row, cfg, seeds, quick)
    return out


def _positions(n: int, seed: int) -> list[dict]:
    """Random play positions a player could type: a hand, a contract, the plays so far (random legal play)."""
    from kaptai.heaven11.cards import format_cards
    from kaptai.heaven11.engine_reference import HandState

    rng = np.random.default_rng(seed)
    out = []
    for _ in range(n):
        deck = rng.permutation(52)
        hands = [sorted(int(c) for c in deck[13 * s:13 * s + 13]) for s in range(4)]
        st = HandState(hands, 0, "2S")
        k = int(rng.integers(0, 45))
        for _ in range(k):
            opts = st.options()
            st.play(opts[int(rng.integers(len(opts)))])
            if st.finished:
                break
        if st.finished:
            continue
        plays = ", ".join(format_cards(list(c)) for _, c, _ in st.history)
        out.append({"hand": format_cards(hands[st.to_move]), "seat": st.to_move, "plays": plays})
    return out


def _search_rows(row, cfg, seeds, quick: bool) -> None:
    from kaptai.heaven11.advisor import advise_bid, advise_play

    # CPU time of this process: what one core spends (the machine may be shared)
    n = 10 if quick else 60
    _engine.run_hands(cfg, [3, 1, 1, 1], [0] * 4, np.random.PCG64(next(seeds)), 2)
    t0 = time.process_time()
    o, log = _engine.run_hands(cfg, [3, 1, 1, 1], [0] * 4, np.random.PCG64(next(seeds)), n, n)
    dt = time.process_time() - t0
    t1 = time.process_time()
    _engine.run_hands(cfg, [1] * 4, [0] * 4, np.random.PCG64(0), n)
    base = time.process_time() - t1
    dec = _rollout_decisions(cfg, o, log)
    row(f"heaven11 search decisions/s (>= 2 options), search_samples={cfg.search_samples}", dec / max(dt - base, 1e-9),
        "decisions/s", 1)
    # the same without the inference from the plays (search_infer=0: the search before it)
    off = make_config(search_infer=0)
    t0 = time.process_time()
    o0, log0 = _engine.run_hands(off, [3, 1, 1, 1], [0] * 4, np.random.PCG64(next(seeds)), n, n)
    dt0 = time.process_time() - t0
    row("heaven11 search decisions/s, search_infer=0", _rollout_decisions(off, o0, log0) / max(dt0 - base, 1e-9),
        "decisions/s", 1)
    row("heaven11 compiled search seat 0 + greedy", n / dt, "hands/s", 1)
    m = 4 if quick else 20
    t0 = time.process_time()
    _engine.run_hands(cfg, [3] * 4, [0] * 4, np.random.PCG64(next(seeds)), m)
    row("heaven11 compiled search (4 seats)", m / (time.process_time() - t0), "hands/s", 1)
    m = 20 if quick else 200
    t0 = time.process_time()
    o, log = _engine.run_hands(cfg, [1] * 4, [4] * 4, np.random.PCG64(next(seeds)), m, m)
    dt = time.process_time() - t0
    calls = int(((log[:, 3] == 1) | (log[:, 3] == 2)).sum())
    row(f"heaven11 search bidding, bid_samples={cfg.bid_samples}: ms per call", 1e3 * dt / max(calls, 1), "ms/call", 1)
    row("heaven11 compiled greedy play + search bidding (4 seats)", m / dt, "hands/s", 1)
    # advise: CPU time of this process (what one core spends; wall time on a shared machine is longer)
    times, walls = [], []
    for p in _positions(8 if quick else 40, 7):
        t0, w0 = time.process_time(), time.perf_counter()
        advise_play(p["hand"], contract="2S", declarer=0, seat=p["seat"], plays=p["plays"], samples=48)
        times.append(1e3 * (time.process_time() - t0))
        walls.append(1e3 * (time.perf_counter() - w0))
    row("heaven11 advise play, median CPU ms (48 layouts)", float(np.median(times)), "ms", len(times), target="<= 200")
    row("heaven11 advise play, median wall ms (48 layouts)", float(np.median(walls)), "ms", len(walls))
    row("heaven11 advise play, worst CPU ms (48 layouts)", float(np.max(times)), "ms", len(times))
    times = []
    rng = np.random.default_rng(8)
    from kaptai.heaven11.cards import format_cards

    for _ in range(3 if quick else 10):
        hand = format_cards(sorted(int(c) for c in rng.permutation(52)[:13]))
        t0 = time.process_time()
        advise_bid(hand, samples=200)
        times.append(1e3 * (time.process_time() - t0))
    row("heaven11 advise calls, median CPU ms (200 layouts, both scorings)", float(np.median(times)), "ms", len(times))


def main(argv: list[str] | None = None) -> None:
    quick = "--quick" in (argv if argv is not None else sys.argv[1:])
    for r in run(quick):
        extra = f"  (target {r['target']})" if "target" in r else ""
        print(f"{r['name']:<60} {r['value']:>14,.2f} {r['unit']}{extra}")


if __name__ == "__main__":
    main()
