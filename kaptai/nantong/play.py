"""Nantong long cards (南通長牌) at the terminal, and its discards reviewed (``kaptai play`` / ``kaptai review``).

A person types the card to discard (``5w``, ``qz``), answers a discard (``win``, ``kong``,
``pong``, ``pass``), and says yes or no to a self-drawn win, a kong and a 起手 set.
:func:`decisions` replays a record in the reference engine (:mod:`kaptai.nantong.records`) and
:func:`evaluate` values each discard with :func:`kaptai.nantong.advisor.advise` (the concealed
hand, the own exposed sets, the turned cards and every card face up elsewhere).

Examples
--------
>>> show(4, ascii=True), show(4, ascii=False)
('5w', '五萬(5w)')
"""

from __future__ import annotations

import sys
from collections.abc import Iterator, Sequence
from typing import Any

from kaptai.core.play import Console, hint_rows
from kaptai.core.review import Decision, observe_script
from kaptai.errors import UsageError
from kaptai.nantong.cards import format_card, parse_card
from kaptai.nantong.policies import PlayerView, Policy

__all__ = ["GAME", "HumanPolicy", "show", "advice", "decisions", "evaluate", "read", "play_command",
           "review_command"]

GAME = "nantong"


def show(k: int, ascii: bool) -> str:
    """A card for the screen: its Chinese name and code, or the code alone."""
    return format_card(k) if ascii else f"{format_card(k, chinese=True)}({format_card(k)})"


def _kinds(counts: Sequence[int]) -> list[int]:
    out: list[int] = []
    for k, n in enumerate(counts):
        out += [k] * int(n)
    return out


def _melds_text(melds: Sequence[tuple[str, int]]) -> str:
    return " ".join(f"{t}:{format_card(k)}" for t, k in melds)


def _seen(view: PlayerView, sets: bool = True) -> list[int]:
    """Every card face up outside the seat's hand and sets: the discards nobody claimed (a pong
    or a kong made on a discard holds that discard) and, with ``sets``, the other seats' sets."""
    from kaptai.nantong.scoring import meld_cards

    n = [0] * len(view.hand)
    for k in view.discards:
        n[k] += 1
    own = [0] * len(view.hand)
    for s, ms in enumerate(view.melds):
        for t, k in ms:
            if t in ("pong", "mkong"):  # made on a discard (a kong added to a pong keeps its discard)
                n[k] -= 1
            if s == view.seat or not sets:
                own[k] += meld_cards(t, k, view.turned)
            else:
                n[k] += meld_cards(t, k, view.turned)
    for k in view.turned:
        own[k] += 1
    out: list[int] = []
    for k in range(len(n)):
        out += [k] * max(0, min(n[k], 4 - int(view.hand[k]) - own[k]))
    return out


def _others_text(view: PlayerView, active: int) -> str:
    """The other active seats' sets, turn order from the next seat (the advisor's ``others``)."""
    return "; ".join(_melds_text(view.melds[(view.seat + i) % active]) for i in range(1, active))


#: Whether :func:`advice` gives the advisor the other seats' sets as theirs (``others``: their
#: concealed counts and scores follow) rather than among the cards seen (each then holding 22).
USE_OTHERS = True


def advice(view: PlayerView, rules: Any, players: int, *, samples: int | None, seed: int) -> Any:
    """The advisor's table for a discard of ``view`` (best first): the concealed hand, the
    seat's sets, the turned cards, the other seats' sets as theirs (:data:`USE_OTHERS`) and the
    discards not claimed."""
    from kaptai.nantong.advisor import advise
    from kaptai.nantong.config import make_config

    others = _others_text(view, make_config(players, rules).active) if USE_OTHERS else ""
    return advise(_kinds(view.hand), seen=" ".join(format_card(k) for k in _seen(view, sets=not USE_OTHERS)),
                  rules=rules, melds=_melds_text(view.melds[view.seat]),
                  jiang=" ".join(format_card(k) for k in view.turned), others=others, players=players,
                  samples=samples, seed=seed)


def _yes(t: str) -> bool:
    w = t.strip().lower()
    if w in ("y", "yes"):
        return True
    if w in ("n", "no"):
        return False
    raise UsageError("answer yes or no")


class HumanPolicy(Policy):
    """A seat played by a person at the terminal."""

    name = "human"

    def __init__(self, console: Console, rules: Any, players: int, hint_samples: int = 64):
        self.console, self.rules, self.players, self.hint_samples = console, rules, players, hint_samples

    def _table(self, view: PlayerView, what: str) -> None:
        con, a = self.console, self.console.ascii
        melds = "; ".join(f"seat {s}: {_melds_text(m)}" for s, m in enumerate(view.melds) if m)
        last = " ".join(show(k, a) for k in view.discards[-8:])
        con.say("", f"-- Nantong, seat {view.seat}, {what}; stock {view.stock_left} --",
                f"turned: {' '.join(show(k, a) for k in view.turned) or 'none'}; sets: {melds or 'none'}",
                f"last discards: {last or 'none'}",
                f"your hand: {' '.join(show(k, a) for k in _kinds(view.hand))}")

    def discard(self, view: PlayerView) -> int:
        self._table(view, "your discard")
        held = [k for k in range(len(view.hand)) if view.hand[k]]

        def parse(t: str) -> int:
            k = int(parse_card(t.strip()))
            if k not in held:
                raise UsageError(f"{format_card(k)} is not in your hand")
            return k

        def hint() -> str:
            df = advice(view, self.rules, self.players, samples=self.hint_samples, seed=view.stock_left)
            return hint_rows([str(x) for x in df.discard], list(df.value), "value", p_win=list(df.p_win))

        return self.console.ask("discard", parse, [format_card(k) for k in held], hint)

    def claim(self, view: PlayerView, kind: int, options: tuple[str, ...]) -> str:
        self._table(view, f"seat discards {show(kind, self.console.ascii)}")

        def parse(t: str) -> str:
            w = t.strip().lower()
            if w not in options:
                raise UsageError(f"{w!r} is not open to you here")
            return w

        return self.console.ask("answer", parse, list(options))

    def self_win(self, view: PlayerView) -> bool:
        self._table(view, "your hand is complete")
        return self.console.ask("declare the win? (yes/no)", _yes, ["yes", "no"])

    def self_kong(self, view: PlayerView, options: tuple[tuple[str, int], ...]) -> Any:
        self._table(view, "a kong is open to you")
        labels = [f"{t}:{format_card(k)}" for t, k in options]

        def parse(t: str) -> Any:
            w = t.strip().lower()
            if w in ("no", "n", "none"):
                return None
            if w not in labels:
                raise UsageError(f"{w!r} is not a kong you can declare")
            return options[labels.index(w)]

        return self.console.ask("kong (or no)", parse, [*labels, "no"])

    def qishou(self, view: PlayerView, meld: tuple[str, int]) -> bool:
        self._table(view, f"起手 set {meld[0]}:{format_card(meld[1])}")
        return self.console.ask("expose it? (yes/no)", _yes, ["yes", "no"])


def read(path: Any, game: str = GAME) -> Any:
    """A parsed record of this game."""
    from kaptai.records import read_record

    return read_record(path, game)


class _StateWatch:
    """While active (inside :class:`kaptai.core.review.observe_script`, under its lock), the
    replay's reference hand keeps its position (:func:`kaptai.nantong.engine_reference.hand_state`)
    at every view it hands to a seat, in ``sink`` by the view's ``id`` (with the view): what the
    ``search`` advisor (:mod:`kaptai.nantong.review_search`) plays out.  Only the replaying
    thread's hands are watched: a decision of a replay run by another thread meanwhile (which
    the watched script reports too) has no position here and is left out."""

    def __init__(self, module: Any, sink: dict[int, tuple]):
        self.cls, self.sink = module._Logged, sink
        self.had: Any = None

    def __enter__(self) -> dict[int, tuple]:
        import threading

        from kaptai.nantong import engine_reference as ref

        self.had = self.cls.__dict__.get("view")
        base = self.had or ref._Hand.view
        me, sink = threading.get_ident(), self.sink

        def view(h: Any, s: int, last: int | None = None) -> PlayerView:
            v = base(h, s, last)
            if not h.rollout and threading.get_ident() == me:
                sink[id(v)] = (v, ref.hand_state(h))  # the view kept: its id is not reused meanwhile
            return v

        self.cls.view = view
        return sink

    def __exit__(self, *exc: Any) -> None:
        if self.had is None:
            del self.cls.view
        else:
            self.cls.view = self.had


def decisions(record: Any, hands: Sequence[int] | None = None) -> Iterator[Decision]:
    """Every discard of the chosen hands of a record (the advisor values discards), with the
    replay's position at each (``extra['state']``, for the ``search`` advisor)."""
    from kaptai.core.records import HandCursor, record_setup
    from kaptai.nantong import records as R

    cfg = record_setup(record, R.FORMAT)
    for i in (range(len(record.hands)) if hands is None else hands):
        hand = record.hands[i]
        sink: list = []
        states: dict[int, tuple] = {}
        with observe_script(R, "_Script", ("discard",), sink), _StateWatch(R, states):
            R.FORMAT.replay_hand(cfg, HandCursor(hand, record.path), None)  # type: ignore[misc]
        k = 0
        for _m, view, _args, move, _pos in sink:
            n = sum(1 for x in view.hand if x)
            kept = states.get(id(view))
            if n < 2 or kept is None or kept[0] is not view:  # not this replay's (another thread's)
                continue
            yield Decision(hand.index, view.seat, k, "discard", view, format_card(int(move)), n,
                           " ".join(format_card(x) for x in _kinds(view.hand)),
                           f"sets {_melds_text(view.melds[view.seat]) or 'none'}; stock {view.stock_left}",
                           {"rules": cfg.rules, "players": cfg.players, "cfg": cfg, "state": kept[1]})
            k += 1


def evaluate(d: Decision, *, samples: int, seed: int) -> dict[str, Any]:
    """The advisor on a discard (a ``win`` row, when the hand is complete, is not a discard), best
    first, and the paired sums behind its table with each row's option in them (``paired``,
    ``index``: a cross-fitted review measures on them)."""
    from kaptai.core.advise import capture_paired
    from kaptai.core.review import match_options

    with capture_paired() as got:
        df = advice(d.view, d.extra["rules"], d.extra["players"], samples=samples, seed=seed)
    df.attrs = {}  # the table's attrs are not needed here, and pandas copies them into every column taken
    res = got[-1]
    won = int((df.discard.astype(str) == "win").any())  # the win now is the sums' first option
    df = df[df.discard.astype(str) != "win"].sort_values("value", ascending=False, kind="stable")
    # every mean the table shows from the sums (the value is quantity 1, the win share, under rank_only)
    index = match_options(res, {0: df.value.to_numpy(), 1: df.p_win.to_numpy(), 2: df.expected_hu.to_numpy(),
                                3: df.p_complete.to_numpy()}, range(won, res.sums.shape[1]))
    best = df.value.max()
    vs = df.value.to_numpy() - best
    # the advisor's paired interval is to its own first option; shift it to the best value
    shift = df.value.to_numpy() - df.vs_best.to_numpy() - best
    return {"labels": [str(x) for x in df.discard], "value": df.value.to_numpy(), "vs_best": vs,
            "vs_low": df.vs_best_low.to_numpy() + shift, "vs_high": df.vs_best_high.to_numpy() + shift,
            "p_win": df.p_win.to_numpy(), "samples": int(df.samples.iloc[0]), "paired": res, "index": index}


def play_command(args: Any, game: Any) -> Any:
    """``kaptai play nantong``: a person at ``--seat`` against the built-in players."""
    from kaptai.core.play import parse_opponents, run_session, seat_policies
    from kaptai.core.records import make_header
    from kaptai.nantong import records as R
    from kaptai.nantong.config import make_config
    from kaptai.nantong.engine_reference import compiled_rollouts
    from kaptai.spec import Output

    rules = game.resolve_rules(args.rules, **dict(args.option or []))
    cfg = make_config(args.players, rules)
    N = cfg.active
    if args.seat >= N:
        raise UsageError(f"--seat {args.seat}: {N} seats play (0 to {N - 1})")
    con = Console(ascii=True if args.ascii else None, hints=args.hints)
    opp = parse_opponents(args.opponents, game.policies, N, args.seat)
    pols = seat_policies(HumanPolicy(con, cfg.rules, cfg.players), opp, args.seat)
    unit = R.unit_of(cfg)
    header = make_header(GAME, cfg.rules.to_dict(), cfg.players, [getattr(x, "name", str(x)) for x in pols], unit,
                         seed=args.seed, hands=args.hands)
    con.say(f"Nantong, you are seat {args.seat}; the others: {', '.join(opp)}. Type the card to discard (5w, qz); "
            "answer a discard with win/kong/pong/pass; ? lists the legal moves, quit stops.")
    events = R.hand_events(cfg.players, cfg.rules, policies=pols, hands=args.hands, seed=args.seed)
    # a person's seat makes this the reference engine: its search seats decide in the compiled
    # twin (the same decisions from the same streams, seconds faster each)
    with compiled_rollouts():
        df = run_session(con, header, events, seat=args.seat, record=args.record)
    return Output(df, f"your results at seat {args.seat} ({unit})", list(df.columns))


def review_command(args: Any, game: Any) -> Any:
    """``kaptai review nantong FILE --advisor advise``: every discard graded by :func:`evaluate`
    (``kaptai review nantong`` itself runs :func:`kaptai.nantong.review_search.review_command`,
    which picks the advisor: ``search`` by default)."""
    from kaptai.core.review import review_command as run

    return run(args, game, sys.modules[__name__])
