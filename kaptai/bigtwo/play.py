"""Big Two (鋤大D) at the terminal, and its decisions reviewed (``kaptai play`` / ``kaptai review``).

* :class:`HumanPolicy` -- a :class:`kaptai.bigtwo.policies.Policy` whose plays are typed by a
  person on a :class:`kaptai.core.play.Console` (cards as ``3D 3C``, or ``pass``);
* :func:`advice` -- the advisor (:func:`kaptai.bigtwo.advisor.advise`) on the position a
  :class:`PlayerView` shows, seats counted from the deciding seat;
* :func:`decisions` -- every decision of a record, replayed in the reference engine
  (:mod:`kaptai.bigtwo.records`), with the view of the deciding seat.

Examples
--------
>>> from kaptai.bigtwo.engine_reference import make_view
>>> v = make_view("3D 3C 9S 2H", trick="8D", cards_left=(4, 5, 1, 7))
>>> parse_move(v, "9s"), parse_move(v, "pass")
('9S', 'PASS')
>>> parse_move(v, "3D")
Traceback (most recent call last):
...
kaptai.errors.UsageError: 3D is not a legal play here
"""

from __future__ import annotations

import contextlib
from collections.abc import Iterator, Sequence
from typing import Any

from kaptai.bigtwo.cards import format_cards, parse_cards
from kaptai.bigtwo.policies import PlayerView, Policy, rules_info
from kaptai.core.play import Console, hint_rows
from kaptai.core.review import Decision, carry_before
from kaptai.errors import UsageError

__all__ = ["GAME", "HumanPolicy", "advice", "parse_move", "move_label", "decisions", "table_header", "hand_events",
           "show_cards"]

GAME = "big-two"
#: How many options the list after a refusal shows at most.
SHOWN = 30


def show_cards(ids: Sequence[int], ascii: bool, rules: Any = None) -> str:
    """Cards for the screen: suit symbols (``3♦``), or letters with ``ascii``."""
    if rules is not None:
        st = rules_info(rules).strength
        ids = sorted(ids, key=st.__getitem__)
    return format_cards(list(ids), "letter" if ascii else "symbol")


def _mask_ids(mask: int) -> list[int]:
    return [c for c in range(52) if mask >> c & 1]


def move_label(view: PlayerView, mask: int | None) -> str:
    """The advisor's label of a move (``'3D 3C'``, ``'PASS'``)."""
    if not mask:
        return "PASS"
    return rules_info(view.rules).text(int(mask))


def legal_labels(view: PlayerView) -> list[str]:
    """The legal moves as a person types them."""
    out = [move_label(view, m) for m in view.option_masks]
    if view.can_pass:
        out.append("pass")
    return out


def parse_move(view: PlayerView, text: str) -> str:
    """A typed move checked against the view's options; its advisor label.

    Raises
    ------
    UsageError
        Not cards, or not a legal move here (naming it).
    """
    t = text.strip()
    if t.lower() in ("pass", "p"):
        if not view.can_pass:
            raise UsageError("you cannot pass here (you lead)")
        return "PASS"
    ids = parse_cards(t)
    mask = sum(1 << c for c in ids)
    if mask not in view.option_masks:
        raise UsageError(f"{move_label(view, mask)} is not a legal play here")
    return move_label(view, mask)


def advice(view: PlayerView, *, samples: int | None = 32, seed: int = 0, budget_ms: float = 150.0,
           history: bool | None = None) -> Any:
    """The advisor's table for the position of ``view`` (every option, best first).

    Seats are counted from the deciding seat (1 = the next player), as
    :func:`kaptai.bigtwo.advisor.advise` counts them.  ``history`` (default
    :data:`kaptai.bigtwo.advisor.USE_HISTORY`): type the view's record as ``advise``'s ``history``
    (:func:`kaptai.bigtwo.advisor.uses_history`); False: the cards played, the play to beat and its
    maker only.

    >>> from kaptai.bigtwo.cards import format_cards, parse_cards
    >>> from kaptai.bigtwo.engine_reference import make_view
    >>> keep = parse_cards("3D 3C 9S 2H 4C 4H 4S 5C 5H 5S 6C 6H 6S 7C 7H 7S 8C")
    >>> out = format_cards([c for c in range(52) if c not in keep])
    >>> v = make_view("3D 3C 9S 2H", trick="8D", cards_left=(4, 5, 1, 7), played=out)
    >>> df = advice(v, samples=20)
    >>> sorted(df.play)
    ['2H', '9S', 'PASS']
    """
    from kaptai.bigtwo import advisor

    N, s = view.players, view.seat
    left = [view.cards_left[(s + j) % N] for j in range(1, N)]
    kwargs: dict[str, Any] = {"samples": samples} if samples is not None else {"budget_ms": budget_ms}
    if advisor.uses_history(view, history):
        # the hand's plays and passes: the advisor weighs its layouts by them (as advise --history)
        return advisor.advise(format_cards(list(view.hand)), history=advisor.typed_history(view), cards_left=left,
                              players=N, rules=view.rules, seed=seed, **kwargs)
    tb = view.trick_mask if not view.leading else None
    played = view.played & ~(tb or 0)
    kw: dict[str, Any] = {}
    if tb:
        kw = {"to_beat": format_cards(_mask_ids(tb)), "by": (view.trick_seat - s) % N}
    return advisor.advise(format_cards(list(view.hand)), played=format_cards(_mask_ids(played)), cards_left=left,
                          players=N, rules=view.rules, seed=seed, **kw, **kwargs)


class HumanPolicy(Policy):
    """A seat played by a person at the terminal.

    Parameters
    ----------
    console : Console
    hint_samples : int
        Layouts of the advisor's hint (``hint`` at the prompt, or every turn with hints on).
    """

    name = "human"

    def __init__(self, console: Console, hint_samples: int = 64):
        self.console = console
        self.hint_samples = hint_samples
        self.shown = 0

    def _news(self, view: PlayerView) -> list[str]:
        a = self.console.ascii
        lines = []
        if view.turn == 0 or len(view.history) < self.shown:
            self.shown = 0
        for seat, trick, _must, _played, choice in view.history[self.shown:]:
            who = "you" if seat == view.seat else f"seat {seat}"
            lines.append(f"  {who}: " + ("pass" if not choice else show_cards(_mask_ids(choice), a, view.rules)))
        self.shown = len(view.history)
        return lines

    def choose(self, view: PlayerView) -> Any:
        con, a = self.console, self.console.ascii
        news = self._news(view)
        left = ", ".join(f"{'you' if s == view.seat else f'seat {s}'} {n}" for s, n in enumerate(view.cards_left))
        con.say("", f"-- Big Two, seat {view.seat}, turn {view.turn + 1} --")
        if news:
            con.say("since your last turn:", *news[-3 * view.players:])
        con.say(f"cards left: {left}")
        if view.leading:
            must = f" (it must hold {show_cards([view.opening_card], a)})" if view.opening_card is not None else ""
            con.say(f"you lead{must}")
        else:
            con.say(f"to beat: {show_cards(_mask_ids(view.trick_mask or 0), a, view.rules)} by seat {view.trick_seat}")
        con.say(f"your hand: {show_cards(view.hand, a, view.rules)}")
        labels = legal_labels(view)
        shown = labels if len(labels) <= SHOWN else [*labels[:SHOWN], f"... {len(labels) - SHOWN} more"]

        def hint() -> str:
            df = advice(view, samples=self.hint_samples, seed=view.turn)
            return hint_rows(list(df.play), list(df.ev), "ev", p_win=list(df.p_win))

        label = con.ask("play (cards or pass)", lambda t: parse_move(view, t), shown, hint)
        if label == "PASS":
            return None
        mask = sum(1 << c for c in parse_cards(label))
        return view.options[view.option_masks.index(mask)]

    def swap(self, view: PlayerView) -> bool:
        def yes(t: str) -> bool:
            w = t.strip().lower()
            if w in ("y", "yes"):
                return True
            if w in ("n", "no"):
                return False
            raise UsageError("answer yes or no")

        self.console.say(f"your hand: {show_cards(view.hand, self.console.ascii, view.rules)}")
        return self.console.ask("swap the lowest card for the face-down card? (yes/no)", yes, ["yes", "no"])


def table_header(players: int | None, rules: Any, policies: Sequence[Any], seed: int | None, hands: int) -> tuple:
    """``(config, header)`` of a record of this table (as :func:`kaptai.bigtwo.records.record_hands` writes it)."""
    from kaptai.bigtwo.config import make_config
    from kaptai.bigtwo.records import UNIT
    from kaptai.core.records import make_header

    cfg = make_config(players, rules)
    header = make_header(GAME, cfg.rules.to_dict(), cfg.players, [getattr(x, "name", str(x)) for x in policies], UNIT,
                         seed=seed, hands=hands, stake=float(cfg.rules.stake), malaysian_swap="policy")
    return cfg, header


def hand_events(cfg: Any, policies: Sequence[Any], seed: int | None, hands: int,
                on_hand: Any = None) -> Iterator[list[dict[str, Any]]]:
    """Each hand's record events, played by ``policies`` (:func:`kaptai.bigtwo.records.hand_events`,
    ``on_hand`` too)."""
    from kaptai.bigtwo.records import hand_events as events

    return events(cfg.players, cfg.rules, policies=list(policies), hands=hands, seed=seed, on_hand=on_hand)


# --------------------------------------------------------------------------------------
# Review: the decisions of a record
# --------------------------------------------------------------------------------------


@contextlib.contextmanager
def _observed(sink: list) -> Iterator[None]:
    """While active, the reference engine's ``Game`` (as the record replay builds it) reports
    the view before every step: a thin adapter around :mod:`kaptai.bigtwo.records`' replay
    (under the reviews' lock, :data:`kaptai.core.review._WATCH_LOCK`: reviews in several threads
    take turns)."""
    from kaptai.bigtwo import engine_reference as ref
    from kaptai.core.review import _WATCH_LOCK

    with _WATCH_LOCK:
        yield from _observed_locked(ref, sink)


def _observed_locked(ref: Any, sink: list) -> Iterator[None]:
    base = ref.Game

    class _Watched(base):  # type: ignore[misc, valid-type]
        def step(self, choice: Any = None) -> None:  # type: ignore[override]
            if not self.over:
                sink.append((self.view(), choice))
            super().step(choice)

    ref.Game = _Watched  # type: ignore[misc]
    try:
        yield
    finally:
        ref.Game = base  # type: ignore[misc]


def decisions(record: Any, hands: Sequence[int] | None = None) -> Iterator[Decision]:
    """Every decision of the hands ``hands`` of a parsed record (all by default), replayed in the
    reference engine (the replay checks the record as ``kaptai replay`` does).

    A decision is a turn with two or more legal moves; its ``made`` is the advisor's label of
    the move played.
    """
    from kaptai.bigtwo.records import FORMAT
    from kaptai.core.records import HandCursor, record_setup

    cfg = record_setup(record, FORMAT)
    for i in (range(len(record.hands)) if hands is None else hands):
        hand = record.hands[i]
        sink: list = []
        cur = HandCursor(hand, record.path)
        with _observed(sink):
            FORMAT.replay_hand(cfg, cur, carry_before(record, i, "winner"))  # type: ignore[misc]
        k = 0
        for view, choice in sink:
            n = len(view.options) + int(view.can_pass)
            if n < 2:
                continue
            mask = 0 if choice is None else sum(1 << c for c in choice)
            yield Decision(hand=hand.index, seat=view.seat, index=k, kind="play", view=view,
                           made=move_label(view, mask), options=n,
                           hand_text=format_cards(sorted(view.hand, key=rules_info(view.rules).strength.__getitem__)),
                           table=("lead" if view.leading else
                                  f"to beat {move_label(view, view.trick_mask)} by seat {view.trick_seat}"))
            k += 1


def evaluate(d: Decision, *, samples: int, seed: int) -> dict[str, Any]:
    """The advisor on a decision: its table (best first), and the paired sums behind it with each
    row's option in them (``paired``, ``index``: a cross-fitted review measures on them).

    The numbers of :func:`advice`'s table (the same layouts, the same floats), taken from the
    advisor's arrays (:func:`kaptai.bigtwo.advisor.advise_view`) without typing the view's cards
    and parsing them back or building a DataFrame: a review asks this twice a decision.
    """
    from kaptai.bigtwo.advisor import advise_view

    a = advise_view(d.view, samples=samples, seed=seed)
    return {"labels": a["labels"], "value": a["ev"], "vs_best": a["vs_best"], "vs_low": a["vs_best_low"],
            "vs_high": a["vs_best_high"], "p_win": a["p_win"], "samples": int(a["samples"]),
            "paired": a["paired"], "index": [int(i) for i in a["index"]]}


def read(path: Any, game: str = GAME) -> Any:
    """A parsed record of this game (:func:`kaptai.records.read_record`)."""
    from kaptai.records import read_record

    return read_record(path, game)


def play_command(args: Any, game: Any) -> Any:
    """``kaptai play big-two``: a person at ``--seat`` against the built-in players."""
    from kaptai.bigtwo.engine_reference import compiled_rollouts
    from kaptai.core.play import Console, FinishedHands, parse_opponents, run_session, seat_policies
    from kaptai.errors import UsageError
    from kaptai.spec import Output

    overrides = dict(args.option or [])
    overrides.setdefault("players", args.players)
    rules = game.resolve_rules(args.rules, **overrides)
    N = rules.players
    if args.seat >= N:
        raise UsageError(f"--seat {args.seat}: the table has {N} seats (0 to {N - 1})")
    con = Console(ascii=True if args.ascii else None, hints=args.hints)
    opp = parse_opponents(args.opponents, game.policies, N, args.seat)
    human = HumanPolicy(con)
    pols = seat_policies(human, opp, args.seat)
    cfg, header = table_header(N, rules, pols, args.seed, args.hands)
    con.say(f"Big Two, {N} players, you are seat {args.seat}; the others: {', '.join(opp)}. Type the cards to "
            "play (3D 3C) or pass; ? lists the legal plays, hint asks the advisor, quit stops.")
    # the engine hands over a batch of hands at the end of its run, and each hand to ``kept`` as
    # soon as it is over: at quit the batch's finished hands are kept
    kept = FinishedHands()
    # a person's seat makes this the reference engine: its search seats roll out in the compiled
    # twin (the same plays from the same stream, a second or more faster a decision)
    with compiled_rollouts():
        df = run_session(con, header, hand_events(cfg, pols, args.seed, args.hands, on_hand=kept),
                         seat=args.seat, record=args.record, finished=kept)
    return Output(df, f"your results at seat {args.seat} ({header['unit']})", list(df.columns))


def review_command(args: Any, game: Any) -> Any:
    """``kaptai review big-two FILE``."""
    import sys

    from kaptai.core.review import review_command as run

    return run(args, game, sys.modules[__name__])
