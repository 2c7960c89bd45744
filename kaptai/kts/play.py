"""Kap Tai Shap (夾大十) and Kap Shap at the terminal, and their decisions reviewed.

A person types the tile to discard or to claim (``6-6``, ``66``, or its Chinese name), or
``no`` to decline a claim.  :func:`decisions` replays a record in the reference engine
(:mod:`kaptai.kts.records`), keeping the engine's state at each decision.  ``kaptai review``
grades them by the ``search`` policy's own evaluation by default (:mod:`kaptai.kts.review_search`:
rollouts on sampled layouts, the loss in antes); with ``--advisor exact``, :func:`evaluate`
here values each discard and claim with the game's exact advisor
(:func:`kaptai.kts.advisor.advise`, the look-ahead model): the value of an option is its exact
P(win within the next looks), so a loss there is exact (its interval has no width) and counts
in that probability.

Examples
--------
>>> show(0, ascii=True), show(0, ascii=False), show(11, ascii=False)
('6-6', '天(6-6)', '雜九(4-5)')
"""

from __future__ import annotations

import threading
from collections.abc import Iterator, Sequence
from typing import Any

import numpy as np

from kaptai.core.play import Console, hint_rows
from kaptai.core.review import Decision, observe_script
from kaptai.errors import UsageError
from kaptai.kts.policies import PlayerView, Policy
from kaptai.kts.tiles import format_tile, parse_tile

#: What a loss counts in here (the exact advisor's value).
LOSS_UNIT = "P(win within the look-ahead)"

__all__ = ["LOSS_UNIT", "HumanPolicy", "show", "advice", "decisions", "evaluate", "read", "play_command"]


def show(t: int, ascii: bool) -> str:
    """A tile for the screen: its Chinese name (with the pips), or the pips alone."""
    if ascii:
        return format_tile(t)
    zh = format_tile(t, "zh")
    return zh if "(" in zh else f"{zh}({format_tile(t)})"


def _tiles(counts: Sequence[int]) -> list[int]:
    out: list[int] = []
    for t, n in enumerate(counts):
        out += [t] * int(n)
    return out


def _text(counts: Sequence[int]) -> str:
    return " ".join(format_tile(t) for t in _tiles(counts))


def advice(view: PlayerView, *, offered: int | None = None, table: Sequence[int] | None = None) -> Any:
    """The exact advisor on ``view`` (a discard, or a claim of ``offered``), best first.

    ``seen`` is every tile face up on the table (the offered tile taken out).
    """
    from kaptai.kts.advisor import advise

    tab = list(view.table if table is None else table)
    if offered is not None and tab[offered] > 0:
        tab[offered] -= 1
    return advise(_text(view.hand), view.rules, seen=_text(tab), players=view.players,
                  offered=None if offered is None else format_tile(offered))


class HumanPolicy(Policy):
    """A seat played by a person at the terminal."""

    name = "human"

    def __init__(self, console: Console):
        self.console = console

    def _table(self, view: PlayerView, what: str) -> None:
        con, a = self.console, self.console.ascii
        con.say("", f"-- {'Kap Shap' if view.n == 3 else 'Kap Tai Shap'}, seat {view.seat}, turn {view.turn}, {what}; "
                    f"wall {view.wall_remaining} --",
                f"on the table: {' '.join(show(t, a) for t in _tiles(view.table)) or 'nothing'}",
                f"your hand: {' '.join(show(t, a) for t in _tiles(view.hand))}")

    def claim(self, view: PlayerView, candidates: tuple[int, ...]) -> int | None:
        self._table(view, "claim a discard?")
        legal = [format_tile(t) for t in candidates] + ["no"]

        def parse(s: str) -> int | None:
            if s.strip().lower() in ("no", "n", "draw", "decline"):
                return None
            t = int(parse_tile(s.strip()))
            if t not in candidates:
                raise UsageError(f"{format_tile(t)} cannot be claimed here")
            return t

        def hint() -> str:
            df = advice(view, offered=candidates[0])
            return hint_rows([f"{r.action} {r.discard or ''}".strip() for r in df.itertuples()],
                             list(df.p_win_within), "P(win within)")

        return self.console.ask("claim (tile) or no", parse, legal, hint if len(candidates) == 1 else None)

    def discard(self, view: PlayerView, legal: tuple[int, ...]) -> int:
        self._table(view, "your discard" + (f" (you took {format_tile(view.claimed)})" if view.claimed is not None
                                            else f" (you drew {format_tile(view.drawn)})" if view.drawn is not None
                                            else ""))

        def parse(s: str) -> int:
            t = int(parse_tile(s.strip()))
            if t not in legal:
                raise UsageError(f"{format_tile(t)} cannot be discarded here")
            return t

        def hint() -> str:
            df = advice(view)
            df = df[df.discard.isin([format_tile(t) for t in legal])]
            return hint_rows(list(df.discard), list(df.p_win_within), "P(win within)")

        return self.console.ask("discard", parse, [format_tile(t) for t in legal], hint)


def read(path: Any, game: str = "kap-tai-shap") -> Any:
    """A parsed record of this game (or of Kap Shap)."""
    from kaptai.records import read_record

    return read_record(path, game)


def decisions(record: Any, hands: Sequence[int] | None = None) -> Iterator[Decision]:
    """Every claim and every discard with two or more options of the chosen hands of a record."""
    from kaptai.core.records import HandCursor, record_setup
    from kaptai.kts import records as R

    fmt = R.FORMATS[record.header["game"]]
    cfg = record_setup(record, fmt)
    for i in (range(len(record.hands)) if hands is None else hands):
        hand = record.hands[i]
        sink: list = []
        states: list = []
        with _watch_states(states), observe_script(R, "_Script", ("claim", "discard"), sink):
            fmt.replay_hand(cfg, HandCursor(hand, record.path), None)  # type: ignore[misc]
        if len(states) != len(sink):  # every decision of the replay asks the script once
            raise RuntimeError(f"hand {hand.index + 1}: {len(states)} engine decisions for {len(sink)} recorded ones")
        k = 0
        for (method, view, args, move, _pos), (kind, early_of, state) in zip(sink, states):
            (opts,) = args
            if method == "claim":
                if len(opts) != 1:  # the advisor values the claim of one offered tile
                    continue
                made = "claim" if move is not None else "no_claim"
                extra: dict[str, Any] = {"offered": int(opts[0])}
                n = 2
            else:
                if len(opts) < 2:
                    continue
                made, extra, n = format_tile(int(move)), {"legal": [format_tile(t) for t in opts]}, len(opts)
            extra.update(ids=[int(t) for t in opts], ctx=kind, early_of=early_of, state=state, cfg=cfg)
            yield Decision(hand.index, view.seat, k, method, view, made, n, _text(view.hand),
                           f"table {_text(view.table) or '-'}; wall {view.wall_remaining}", extra)
            k += 1


def _watch_states(sink: list) -> Any:
    """While active, the reference engine's hands (:class:`kaptai.kts.engine_reference._Hand`,
    which the record replay subclasses) append, at every claim and discard they ask a seat
    for, ``(kind, early_of, state)`` to ``sink``: the kind as the search's code (0 the discard
    after a draw or at turn 1, 1 the exchange discard, 2 the claim step, 3 the early window on
    ``early_of``'s first discard) and the hand's state at that moment (what
    :func:`kaptai.kts.engine_reference.search_values` reads).  Swapped in under the review's lock
    (:class:`kaptai.core.review.swapped_class`, as :class:`~kaptai.core.review.observe_script`;
    same moves: it only watches); hands played by other threads meanwhile are not recorded."""
    from kaptai.core.review import swapped_class
    from kaptai.kts import engine_reference as ref

    me = threading.get_ident()

    def snap(h: Any, kind: int, early_of: int) -> None:
        if threading.get_ident() != me:  # a hand another thread plays meanwhile: not this replay's
            return
        sink.append((kind, early_of, h.search_state()))

    def make(base: Any) -> Any:
        class Watched(base):  # type: ignore[misc, valid-type]
            def decide_claim(self, seat: int, cands: tuple[int, ...], early_of: int = -1) -> int | None:
                snap(self, 3 if early_of >= 0 else 2, early_of)
                return super().decide_claim(seat, cands, early_of)

            def decide_discard(self, seat: int, legal: tuple[int, ...], drawn: Any = None,
                               claimed: Any = None) -> int:
                snap(self, 1 if claimed is not None else 0, -1)
                return super().decide_discard(seat, legal, drawn, claimed)

        return Watched

    return swapped_class(ref, "_Hand", make)


def evaluate(d: Decision, *, samples: int, seed: int) -> dict[str, Any]:
    """The exact advisor on a decision: the value is P(win within the look-ahead) (exact: no
    sampling, so ``samples`` and ``seed`` do not enter)."""
    v = d.view
    if d.kind == "claim":
        df = advice(v, offered=d.extra["offered"])
        take = df[df.action.isin(["claim", "claim_win"])].p_win_within
        stay = df[df.action == "no_claim"].p_win_within
        vals = {"claim": float(take.max()) if len(take) else -1.0, "no_claim": float(stay.max()) if len(stay) else -1.0}
        labels = sorted(vals, key=lambda x: -vals[x])
        value = np.asarray([vals[x] for x in labels])
    else:
        df = advice(v)
        df = df[df.discard.isin(d.extra["legal"])].sort_values("p_win_within", ascending=False, kind="stable")
        labels = list(df.discard)
        value = df.p_win_within.to_numpy(dtype=np.float64)
    vs = value - value.max()
    return {"labels": labels, "value": value, "vs_best": vs, "vs_low": vs, "vs_high": vs, "p_win": value,
            "samples": 0}


def play_command(args: Any, game: Any) -> Any:
    """``kaptai play kap-tai-shap`` (or ``kap-shap``): a person at ``--seat`` against the built-in players."""
    from kaptai.core.play import parse_opponents, run_session, seat_policies
    from kaptai.core.records import make_header
    from kaptai.kts import records as R
    from kaptai.kts.config import make_config
    from kaptai.kts.engine_reference import compiled_rollouts
    from kaptai.spec import Output

    rules = game.resolve_rules(args.rules, **dict(args.option or []))
    cfg = make_config(args.players, rules)
    N = cfg.players
    if args.seat >= N:
        raise UsageError(f"--seat {args.seat}: the table has {N} seats (0 to {N - 1})")
    con = Console(ascii=True if args.ascii else None, hints=args.hints)
    opp = parse_opponents(args.opponents, game.policies, N, args.seat)
    pols = seat_policies(HumanPolicy(con), opp, args.seat)
    unit = R.unit_of(cfg.rules)
    header = make_header(game.name, cfg.rules.to_dict(), N, [getattr(x, "name", str(x)) for x in pols], unit,
                         seed=args.seed, hands=args.hands)
    con.say(f"{game.title}, {N} players, you are seat {args.seat}; the others: {', '.join(opp)}. Type a tile "
            "(6-6, 66, or its name) to discard or claim, no to decline; ? lists the legal moves, quit stops.")
    events = R.hand_events(N, cfg.rules, policies=pols, hands=args.hands, seed=args.seed)
    # a person's seat makes this the reference engine: its search seats roll out in the compiled
    # twin (the same moves from the same stream, seconds faster a decision)
    with compiled_rollouts():
        df = run_session(con, header, events, seat=args.seat, record=args.record)
    return Output(df, f"your results at seat {args.seat} ({unit})", list(df.columns))
