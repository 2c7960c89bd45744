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
kaptai.errors.UsageError: 3D does not beat 8D, the single to beat (by seat 3): play a higher single, or pass
"""

from __future__ import annotations

import contextlib
from collections.abc import Callable, Iterator, Sequence
from typing import Any

from kaptai.bigtwo.cards import format_cards, parse_cards
from kaptai.bigtwo.policies import PlayerView, Policy, rules_info
from kaptai.core.play import Console, hint_rows, settled_description
from kaptai.core.review import Decision, carry_before
from kaptai.errors import UsageError

__all__ = ["GAME", "HumanPolicy", "advice", "parse_move", "why_illegal", "move_label", "decisions", "table_header",
           "hand_events", "show_cards", "describe_hand"]

GAME = "big-two"


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
        Not cards, or not a legal move here (naming it and why: :func:`why_illegal`).
    """
    t = text.strip()
    if t.lower() in ("pass", "p"):
        if not view.can_pass:
            raise UsageError(_why_no_pass(view))
        return "PASS"
    ids = parse_cards(t)
    mask = sum(1 << c for c in ids)
    if mask not in view.option_masks:
        raise UsageError(why_illegal(view, mask))
    return move_label(view, mask)


def _count_name(n: int) -> str:
    return {1: "a single", 2: "a pair", 3: "a triple"}.get(n, f"{n} cards")


def _kind_name(entry: tuple) -> str:
    """``'a single'``, ``'a pair'``, ``'a triple'``, or the category of a 4- or 5-card play."""
    n = len(entry[3].cards)
    return _count_name(n) if n <= 3 else f"{n} cards ({str(entry[3].category).replace('_', ' ')})"


def _combinations(rules: Any) -> str:
    """The combinations the rules allow, in words."""
    four = {"quad": "four of a kind (4 cards), ", "quad_or_two_pair": "four of a kind or two pairs (4 cards), "}
    five = "straight, flush, full house, four of a kind + 1, straight flush"
    if getattr(rules, "two_pair_five", False):
        five = "two pairs + 1, " + five
    return f"a single, a pair, a triple, {four.get(getattr(rules, 'four_card_play', 'none'), '')}or 5 cards ({five})"


def _why_no_pass(view: PlayerView) -> str:
    if view.leading:
        return "you cannot pass here: you lead (play any combination" + (
            f" holding {format_cards([view.opening_card])})" if view.opening_card is not None else ")")
    if view.rules.pass_only_if_unable and view.options:
        return "you cannot pass while you can beat the play (pass_only_if_unable)"
    top = format_cards([view.top])
    return (f"you cannot pass: the next seat holds 1 card and your highest single {top} beats the single on the "
            f"table, so the blocking rule (top_rule='mandatory') makes you play {top}")


def why_illegal(view: PlayerView, mask: int) -> str:
    """Why the cards ``mask`` are not a legal play of ``view`` (the rules page, §3 and §4): a
    card not held, not a combination, the opening lead without the lowest card, not the same
    kind and number of cards as the play to beat or not beating it, or the blocking rule.

    >>> from kaptai.bigtwo.engine_reference import make_view
    >>> v = make_view("3D 3C 9S 2H 4D", trick="3S 4S 5H 6C 7C", cards_left=(5, 5, 1, 7))
    >>> why_illegal(v, 1 << 4)
    '4D is a single, but the play to beat is 3S 4S 5H 6C 7C, 5 cards (straight) by seat 3: play 5 cards that beat it, or pass'
    >>> from kaptai.bigtwo.cards import parse_cards
    >>> why_illegal(v, sum(1 << c for c in parse_cards("9C 9H 9S 9D 3C")))
    'you do not hold 9D 9C 9H'
    """
    info = rules_info(view.rules)
    text = info.text(mask)
    missing = mask & ~view.hand_mask
    if missing:
        return f"you do not hold {info.text(missing)}"
    if view.trick_mask is not None and view.locked and view.locked[view.seat]:
        return "you passed earlier in this trick and are locked out of it (pass_locks_out): pass"
    entry = info.entry(mask)
    if entry is None:
        return f"{text} is not a combination: play {_combinations(view.rules)}"
    if view.leading:
        oc = view.opening_card
        if oc is not None and not mask >> oc & 1:
            return f"the opening lead must contain {format_cards([oc])}: {text} does not"
    else:
        tm = view.trick_mask or 0
        tb = info.entry(tm)
        if tb is not None:
            to_beat = f"{info.text(tm)}, {_kind_name(tb)} by seat {view.trick_seat}"
            n = len(tb[3].cards)
            if entry[0] != tb[0]:
                return (f"{text} is {_kind_name(entry)}, but the play to beat is {to_beat}: play "
                        f"{_count_name(n) if n <= 3 else f'{n} cards'} that beat{'s' if n <= 3 else ''} it, or pass")
            if not entry[1] > tb[1]:
                if n <= 3:
                    return (f"{text} does not beat {info.text(tm)}, the {_count_name(n)[2:]} to beat (by seat "
                            f"{view.trick_seat}): play a higher {_count_name(n)[2:]}, or pass")
                return (f"{text}, {_kind_name(entry)}, does not beat the play to beat, {to_beat}: play {n} cards "
                        "that beat it, or pass")
    if view.blocking and view.rules.top_rule == "mandatory":
        top = format_cards([view.top])
        return (f"the next seat holds 1 card, so the blocking rule (top_rule='mandatory') makes you play your "
                f"highest single {top}" + (" or a combination" if view.leading else ""))
    return f"{text} is not a legal play here"


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

    kwargs: dict[str, Any] = {"samples": samples} if samples is not None else {"samples": None, "budget_ms": budget_ms}
    return advisor.advise_view_table(view, seed=seed, history=history, **kwargs)


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
        self._before_swap: tuple[int, ...] | None = None  # the hand when the person swapped (Malaysian)
        self._swap_told = False  # the hand's Malaysian swap (or none) told

    def _news(self, view: PlayerView) -> list[str]:
        a = self.console.ascii
        lines = []
        if view.turn == 0 or len(view.history) < self.shown:
            self.shown = 0
            self._swap_told = False
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
        if self._before_swap is not None:  # the swap's cards, told at the person's first turn after it
            gave = sorted(set(self._before_swap) - set(view.hand))
            took = sorted(set(view.hand) - set(self._before_swap))
            self._before_swap = None
            if gave and took:
                self._swap_told = True
                con.say(f"the swap: you gave {show_cards(gave, a, view.rules)} (now out of play) and took "
                        f"{show_cards(took, a, view.rules)}, the face-down card")
        if getattr(view.rules, "malaysian_3p", False) and not self._swap_told:
            self._swap_told = True  # another seat's swap, or none, told at the person's first turn
            dead = _mask_ids(view.dead or 0)
            con.say(f"the swap: the holder of the lowest card swapped it for the face-down card: "
                    f"{show_cards(dead, a, view.rules)} is out of play, face up" if dead else
                    "no swap this hand: the face-down card stays out of play, unseen")
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

        def hint() -> str:
            from kaptai.bigtwo.records import UNIT

            df = advice(view, samples=self.hint_samples, seed=view.turn)
            return hint_rows(list(df.play), list(df.ev), "ev", p_win=list(df.p_win), unit=UNIT)

        label = con.ask("play (cards or pass)", lambda t: parse_move(view, t), labels, hint)
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
        do = self.console.ask("swap the lowest card for the face-down card? (yes/no)", yes, ["yes", "no"])
        self._before_swap = tuple(view.hand) if do else None
        return do


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


@settled_description
def describe_hand(st: dict[str, Any], events: Sequence[dict[str, Any]], who: Callable[[int], str]) -> str:
    """One line on how a hand of a record ended (its events, ``deal`` ... ``settle``): who won and
    how, each seat's cards left, and who is liable (包牌) if anyone; ``seat`` is "you".

    >>> evs = [{"type": "deal"}, {"type": "play", "seat": 2, "cards": "6C", "lead": True},
    ...        {"type": "settle", "winner": 2, "liable": -1, "cards_left": [4, 11, 0], "result": [-3.0, -21.0, 24.0]}]
    >>> describe_hand(evs, 0)
    'seat 2 won, out of cards first with 6C; cards left: you (seat 0) 4, seat 1 11'
    """
    w = int(st["winner"])
    inst = next((e for e in events if e.get("type") == "instant_win"), None)
    if inst is not None:
        kind = str(inst.get("kind", ""))
        how = {"dragon": "a dragon (all 13 ranks)", "four_twos": "all four 2s"}.get(kind, kind)
        line = f"{who(w)} won at once with {how}"
    else:
        last = next((e for e in reversed(events) if e.get("type") == "play" and e.get("seat") == w), None)
        line = f"{who(w)} won, out of cards first" + (f" with {last['cards']}" if last is not None else "")
    left = [(s, int(n)) for s, n in enumerate(st.get("cards_left", [])) if s != w]
    if left:
        line += "; cards left: " + ", ".join(f"{who(s)} {n}" for s, n in left)
    liable = int(st.get("liable", -1))
    if liable >= 0:
        line += (f"; {who(liable)} broke the blocking rule (頂大) before the winner went out and pays the others' "
                 "losses (包牌)")
    return line


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
                         seat=args.seat, record=args.record, finished=kept, describe=describe_hand)
    return Output(df, f"your results at seat {args.seat} ({header['unit']})", list(df.columns))


def review_command(args: Any, game: Any) -> Any:
    """``kaptai review big-two FILE``."""
    import sys

    from kaptai.core.review import review_command as run

    return run(args, game, sys.modules[__name__])
