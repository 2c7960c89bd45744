"""Big Two (鋤大D) at the terminal, and its decisions reviewed (``kaptai play`` / ``kaptai review``).

* :class:`HumanPolicy` -- a :class:`kaptai.bigtwo.policies.Policy` whose plays are typed by a
  person on a :class:`kaptai.core.play.Console` (cards as ``3D 3C``, or ``pass``);
* :func:`advice` -- the advisor (:func:`kaptai.bigtwo.advisor.advise`) on the position a
  :class:`PlayerView` shows, seats counted from the deciding seat;
* :func:`decisions` -- every decision of a record, replayed in the reference engine
  (:mod:`kaptai.bigtwo.records`), with the view of the deciding seat;
* :func:`describe_hand` -- how a hand ended, and (:func:`score_breakdown`, :func:`score_lines`)
  how the scoring code turned each seat's cards left into its result.

At the table the person is told each hand's number and why its leader leads, every play and
pass up to the end of the hand, and, before choosing, when the blocking rule (頂大) is in force.

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
import functools
from collections.abc import Callable, Iterator, Sequence
from typing import Any

from kaptai.bigtwo.cards import format_cards, parse_cards
from kaptai.bigtwo.policies import PlayerView, Policy, rules_info
from kaptai.core.play import Console, hand_settle, hint_rows, seat_word
from kaptai.core.review import Decision, carry_before
from kaptai.errors import KaptaiError, UsageError

__all__ = ["GAME", "HumanPolicy", "advice", "parse_move", "why_illegal", "move_label", "decisions", "table_header",
           "hand_events", "show_cards", "describe_hand", "score_breakdown", "score_lines"]

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


def _mandatory_top(view: PlayerView) -> bool:
    """The blocking rule under ``top_rule='mandatory'`` leaves only the highest single (or, when
    leading, a combination): the next seat holds 1 card and (following) the top card beats the
    single to beat."""
    if not (view.blocking and view.rules.top_rule == "mandatory"):
        return False
    return view.leading or view.top_beats_trick()


def _follow_advice(view: PlayerView, n: int, higher: bool) -> str:
    """What the person may do against the play to beat (``n`` cards), as the rules in force allow:
    never "pass" where passing is refused, never "play" what they do not hold.

    >>> from kaptai.bigtwo.engine_reference import make_view
    >>> _follow_advice(make_view("3D 3C 9S 2H", trick="8D"), 1, True)
    'play a higher single, or pass'
    >>> v = make_view("3D 3C 9S 2H", {"top_rule": "mandatory"}, trick="8D", cards_left=(4, 1, 5, 7))
    >>> print(_follow_advice(v, 1, True))
    play your highest single 2H (the next seat holds 1 card: the blocking rule, top_rule='mandatory', allows nothing else)
    >>> _follow_advice(make_view("3D 3C 4H", trick="8D"), 1, True)
    'you hold no single that beats it: pass'
    """
    if _mandatory_top(view) and not view.can_pass:
        return (f"play your highest single {format_cards([view.top])} (the next seat holds 1 card: the blocking "
                "rule, top_rule='mandatory', allows nothing else)")
    kind = _count_name(n) if n <= 3 else f"{n} cards"
    if not view.options:
        return (f"you hold no {kind[2:] if n <= 3 else 'play of ' + kind} that beats it: pass" if view.can_pass
                else f"you hold no {kind[2:] if n <= 3 else 'play of ' + kind} that beats it")
    play = (f"play a higher {kind[2:]}" if higher and n <= 3 else
            f"play {kind} that beat{'s' if n <= 3 else ''} it")
    if view.can_pass:
        return play + ", or pass"
    if view.rules.pass_only_if_unable:
        return play + " (you cannot pass while you can beat it: pass_only_if_unable)"
    return play


def why_illegal(view: PlayerView, mask: int) -> str:
    """Why the cards ``mask`` are not a legal play of ``view`` (the rules page, §3 and §4): a
    card not held, not a combination, the opening lead without the lowest card, not the same
    kind and number of cards as the play to beat or not beating it, or the blocking rule.  The
    advice that follows names only what the rules in force allow (no "or pass" where passing is
    refused: :func:`_follow_advice`).

    >>> from kaptai.bigtwo.engine_reference import make_view
    >>> v = make_view("3D 3C 9S 2H 4D", trick="3S 4S 5H 6C 7C", cards_left=(5, 5, 1, 7))
    >>> why_illegal(v, 1 << 4)
    '4D is a single, but the play to beat is 3S 4S 5H 6C 7C, 5 cards (straight) by seat 3: you hold no play of 5 cards that beats it: pass'
    >>> from kaptai.bigtwo.cards import parse_cards
    >>> why_illegal(v, sum(1 << c for c in parse_cards("9C 9H 9S 9D 3C")))
    'you do not hold 9D 9C 9H'
    >>> v = make_view("3D 3C 9S 2H", {"top_rule": "mandatory"}, trick="8D", cards_left=(4, 1, 5, 7))
    >>> print(why_illegal(v, 1 << 1))
    3C does not beat 8D, the single to beat (by seat 3): play your highest single 2H (the next seat holds 1 card: the blocking rule, top_rule='mandatory', allows nothing else)
    """
    info = rules_info(view.rules)
    text = info.text(mask)
    missing = mask & ~view.hand_mask
    if missing:
        return f"you do not hold {info.text(missing)}"
    if view.trick_mask is not None and view.locked and view.locked[view.seat]:
        return "you passed earlier in this trick and are locked out of it (pass_locks_out): pass"
    entry = info.entry(mask)
    tm = view.trick_mask or 0
    tb = None if view.leading else info.entry(tm)
    if entry is None:
        out = f"{text} is not a combination: play {_combinations(view.rules)}"
        if tb is not None:  # following: the combinations above are not all allowed here
            out += f"; here, against {info.text(tm)}: {_follow_advice(view, len(tb[3].cards), False)}"
        return out
    if view.leading:
        oc = view.opening_card
        if oc is not None and not mask >> oc & 1:
            return f"the opening lead must contain {format_cards([oc])}: {text} does not"
    elif tb is not None:
        to_beat = f"{info.text(tm)}, {_kind_name(tb)} by seat {view.trick_seat}"
        n = len(tb[3].cards)
        if entry[0] != tb[0]:
            return f"{text} is {_kind_name(entry)}, but the play to beat is {to_beat}: {_follow_advice(view, n, False)}"
        if not entry[1] > tb[1]:
            if n <= 3:
                return (f"{text} does not beat {info.text(tm)}, the {_count_name(n)[2:]} to beat (by seat "
                        f"{view.trick_seat}): {_follow_advice(view, n, True)}")
            return (f"{text}, {_kind_name(entry)}, does not beat the play to beat, {to_beat}: "
                    f"{_follow_advice(view, n, False)}")
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
        self.hand_index = 0  # the session's hand being played (numbered from 0, as the record and the results)
        self.hands_total: int | None = None  # hands in the session, when known
        self.previous_winner = -1  # the winner of the session's previous hand
        self._started = False  # the hand's number told
        self._leader_told = False  # the hand's leader, and why, told
        self._over_told: set[int] = set()  # hands whose end was told (a hand played again is not told twice)
        self.table_seat = -1  # the person's seat and the table's rules (:func:`hand_events` sets them)
        self.table_rules: Any = None

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

    def _begin_hand(self) -> None:
        """The hand's number, told once, at the person's first decision of the hand."""
        if self._started:
            return
        self._started = True
        of = f" (hand {self.hand_index + 1} of {self.hands_total})" if self.hands_total else ""
        self.console.say("", f"== hand {self.hand_index}{of} ==")

    def _leader_line(self, view: PlayerView) -> str | None:
        """Who leads the hand and why, under the rules in force (§2: ``first_lead``, the Malaysian
        swap); None when the view does not show the hand's first turn."""
        if view.turn == 0 and view.leading:
            lead, must = view.seat, view.opening_card
        elif view.history:
            lead, must_mask = view.history[0][0], view.history[0][2]
            must = must_mask.bit_length() - 1 if must_mask else None
        else:
            return None
        a, r = self.console.ascii, view.rules
        who = "you" if lead == view.seat else f"seat {lead}"
        if r.first_lead == "previous_winner" and self.previous_winner >= 0:
            return f"leader: {who}, the winner of the previous hand (first_lead=previous_winner)"
        lowest = rules_info(r).lowest
        low = show_cards([lowest], a)
        if view.dead:  # a Malaysian swap: the lowest card is out of play, its holder leads freely
            return (f"leader: {who}, who held {low}, the lowest card, and swapped it for the face-down card "
                    f"({low} is out of play, so the opening lead is free)")
        first = " (the first hand of the session; from the next hand on the previous winner leads)" if (
            r.first_lead == "previous_winner") else " (first_lead=lowest_card)"
        if must is not None:
            card = show_cards([must], a)
            if must != lowest:  # Malaysian: the lowest card lies face down
                return (f"leader: {who}, the holder of {card}, the lowest card in play ({low} lies face down)"
                        f"{first}; the opening lead must contain {card}")
            return f"leader: {who}, the holder of {card}, the lowest card{first}; the opening lead must contain it"
        if getattr(r, "malaysian_3p", False):
            return f"leader: {who}, the holder of the lowest card in play{first}"
        return f"leader: {who}, the holder of {low}, the lowest card{first}"

    def _leftover_line(self, view: PlayerView) -> str | None:
        """Who took the 52 mod N cards the deal left over (§2: the holder of the lowest card), from
        the public card counts; None when there are none (or under ``malaysian_3p``)."""
        size, extra = view.rules.deal_sizes()
        if not extra or getattr(view.rules, "malaysian_3p", False):
            return None
        start = list(view.cards_left)
        for h in view.history:
            start[h[0]] += bin(h[4]).count("1")
        took = [s for s, n in enumerate(start) if n > size]
        if len(took) != 1:
            return None
        who = "you" if took[0] == view.seat else f"seat {took[0]}"
        return (f"the deal: {size} cards each, and the {extra} card{'s' * (extra != 1)} left over went to {who}, the "
                f"holder of the lowest card ({size + extra} cards)")

    def _blocking_warning(self, view: PlayerView) -> str | None:
        """A warning before the prompt when the blocking rule (頂大, §4) is in force this turn: what
        breaks it and what that costs under ``top_rule`` (nothing under ``off``)."""
        rule = view.rules.top_rule
        if not view.blocking or rule == "off":
            return None
        nxt = (view.seat + 1) % view.players
        top = show_cards([view.top], self.console.ascii)
        if view.leading:
            wrong = f"leading a single other than your highest, {top},"
            safe = f"lead {top} or a combination"
        elif view.top_beats_trick():
            wrong = (f"passing or playing a single other than your highest, {top}," if view.can_pass
                     else f"playing a single other than your highest, {top},")
            safe = f"play {top}"
        else:
            return None
        if rule == "mandatory":
            refused = "a lower single is refused" if view.leading else "nothing else is allowed, not even a pass"
            return (f"note: seat {nxt} holds 1 card: the blocking rule (頂大, top_rule='mandatory') makes you {safe}: "
                    f"{refused}")
        return (f"warning: seat {nxt} holds 1 card: {wrong} breaks the blocking rule (頂大); if seat {nxt} then goes "
                f"out on its next turn, you pay everyone's losses (包牌, top_rule='liability'). To be safe, {safe}.")

    def choose(self, view: PlayerView) -> Any:
        con, a = self.console, self.console.ascii
        self._begin_hand()
        news = self._news(view)
        left = ", ".join(f"{'you' if s == view.seat else f'seat {s}'} {n}" for s, n in enumerate(view.cards_left))
        if not self._leader_told:
            self._leader_told = True
            for line in (self._leftover_line(view), self._leader_line(view)):
                if line:
                    con.say(line)
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
            mine = any(h[0] == view.seat for h in view.history)  # a turn of the person's earlier this hand
            con.say("since your last turn:" if mine else "this hand so far:", *news[-3 * view.players:])
        con.say(f"cards left: {left}")
        if view.leading:
            must = f" (it must hold {show_cards([view.opening_card], a)})" if view.opening_card is not None else ""
            con.say(f"you lead{must}")
        else:
            con.say(f"to beat: {show_cards(_mask_ids(view.trick_mask or 0), a, view.rules)} by seat {view.trick_seat}")
        con.say(f"your hand: {show_cards(view.hand, a, view.rules)}")
        warn = self._blocking_warning(view)
        if warn:
            con.say(warn)
        labels = legal_labels(view)

        def hint() -> str:
            from kaptai.bigtwo.records import UNIT

            df = advice(view, samples=self.hint_samples, seed=view.turn)
            return hint_rows(list(df.play), list(df.ev), "ev", p_win=list(df.p_win), unit=UNIT,
                             vs_best=list(zip(df.vs_best_low, df.vs_best_high)))

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

        self._begin_hand()
        self.console.say(f"your hand: {show_cards(view.hand, self.console.ascii, view.rules)}")
        do = self.console.ask("swap the lowest card for the face-down card? (yes/no)", yes, ["yes", "no"])
        self._before_swap = tuple(view.hand) if do else None
        return do

    def finish_hand(self, index: int, events: Sequence[dict[str, Any]]) -> None:
        """The hand ``index`` of the session is over (its record events): tell every play and pass
        after the person's last turn (all of the hand's if they had none), then get ready for the
        next hand."""
        if index in self._over_told:
            return
        self._over_told.add(index)
        seat = self.table_seat
        lines = _plays_after_last_turn(events, seat, self.console.ascii, self.table_rules)
        if lines:
            had_turn = any(e.get("seat") == seat and e.get("type") in ("play", "pass") for e in events)
            self.console.say("", "to the end of the hand:" if had_turn else "the hand's plays:", *lines)
        st = events[-1] if events and events[-1].get("type") == "settle" else {}
        self.previous_winner = int(st.get("winner", -1))
        self.hand_index = index + 1
        self._started = self._leader_told = False
        self.shown = 0
        self._swap_told = False
        self._before_swap = None


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
    ``on_hand`` too).  A :class:`HumanPolicy` among them is told its seat, the table's rules and
    the number of hands, and each hand's end (:meth:`HumanPolicy.finish_hand`) before ``on_hand``."""
    from kaptai.bigtwo.records import hand_events as events

    humans = [(s, p) for s, p in enumerate(policies) if isinstance(p, HumanPolicy)]
    for s, p in humans:  # the person's seat and table, for the hand's end and the next hand's number
        p.table_seat, p.table_rules, p.hands_total = s, cfg.rules, hands
    over = on_hand
    if humans:
        def over(index: int, evs: list[dict[str, Any]]) -> None:
            for _, p in humans:  # the plays after the person's last turn, before the hand's result
                p.finish_hand(index, evs)
            if on_hand is not None:
                on_hand(index, evs)

    return events(cfg.players, cfg.rules, policies=list(policies), hands=hands, seed=seed, on_hand=over)


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


_INSTANT_KINDS = {"dragon": 1, "four_twos": 2}


def _ids(text: Any) -> list[int]:
    return list(parse_cards(text)) if str(text).strip() else []


def _hand_events_since_deal(events: Sequence[dict[str, Any]]) -> list[dict[str, Any]]:
    """The events of the hand's last deal (a redeal deals again) up to its end."""
    start = max((i for i, e in enumerate(events) if e.get("type") == "deal"), default=0)
    return list(events[start:])


def _cards_held(events: Sequence[dict[str, Any]], rules: Any) -> list[list[int]] | None:
    """The cards each seat holds at the end of a hand, from its record events (the deal, the
    leftover cards, a Malaysian swap, the plays); None if they do not match the ``settle``
    event's ``cards_left``."""
    evs = _hand_events_since_deal(events)
    if not evs or evs[0].get("type") != "deal":
        return None
    held = [_ids(h) for h in evs[0]["hands"]]
    lowest = rules_info(rules).lowest
    for e in evs[1:]:
        t = e.get("type")
        if t == "leftover" and int(e["seat"]) >= 0:
            held[int(e["seat"])] += _ids(e["cards"])
        elif t == "swap" and e.get("swapped"):
            s = int(e["seat"])
            held[s] = [c for c in held[s] if c != lowest] + _ids(e["cards"])
        elif t == "play":
            gone = set(_ids(e["cards"]))
            s = int(e["seat"])
            held[s] = [c for c in held[s] if c not in gone]
    st = hand_settle(events)
    if st is None or [len(h) for h in held] != [int(n) for n in st.get("cards_left", [])]:
        return None
    return held


def score_breakdown(events: Sequence[dict[str, Any]], rules: Any) -> dict[str, Any] | None:
    """How a finished hand's result came about, from the scoring code (:mod:`kaptai.bigtwo.scoring`,
    as the record's ``settle`` event is priced): each seat's cards left (``cards``, the cards
    themselves, or None), their 炒 multiplier (``mult``) and point value (``points``), the penalty
    ``p``, the nets before 包牌 (``plain``) and the settled nets (``nets``); None for a hand that
    did not finish.

    >>> evs = [{"type": "deal", "hand": 0, "deck": "", "hands": ["3D 4D", "5D 6D 7D", "8D 9D TD JD"]},
    ...        {"type": "play", "seat": 0, "cards": "3D", "lead": True}, {"type": "play", "seat": 0, "cards": "4D",
    ...        "lead": True}, {"type": "settle", "winner": 0, "liable": -1, "cards_left": [0, 3, 4], "result": []}]
    >>> b = score_breakdown(evs, {"players": 3, "chao": "4"})
    >>> b["p"], b["mult"], b["nets"]
    ([0, 3, 8], [1, 1, 2], [11.0, 2.0, -13.0])
    """
    from kaptai.bigtwo import scoring
    from kaptai.bigtwo.rules import resolve_rules

    st = hand_settle(events)
    if st is None:
        return None
    r = resolve_rules(rules).replace(bankroll="off")  # a hand settles without bankrolls (as its record)
    w, liable = int(st["winner"]), int(st.get("liable", -1))
    counts = [int(n) for n in st["cards_left"]]
    inst_ev = next((e for e in events if e.get("type") == "instant_win"), None)
    inst = 0 if inst_ev is None else _INSTANT_KINDS.get(str(inst_ev.get("kind")), 0)
    cards = _cards_held(events, r)
    points = None if cards is None else [scoring.card_points(c) for c in cards]
    # as the record prices the hand (kaptai.bigtwo.records): the engine's outcome row, one game
    p = scoring.penalties([counts], r, points_left=None if points is None else [points], winner=[w], instant=[inst])
    plain = scoring.settle_many(p, r, winner=[w])[0]  # before 包牌
    nets = scoring.settle_many(p, r, winner=[w], liable=[liable])[0]
    p = p[0]
    return {"winner": w, "liable": liable, "instant": inst, "counts": counts, "cards": cards, "points": points,
            "mult": [int(m) for m in scoring.chao_multipliers(counts, r)], "p": [int(x) for x in p],
            "plain": [round(float(x), 10) for x in plain], "nets": [round(float(x), 10) for x in nets], "rules": r}


def _num(x: float) -> str:
    return f"{x:g}" if x >= 0 else f"({x:g})"


def score_lines(b: dict[str, Any], who: Callable[[int], str], ascii: bool = True) -> list[str]:
    """The lines of :func:`score_breakdown` for a person: how each seat's score came about (its
    cards left, 炒, points, the winner's bonus) and how the settlement in force turned the scores
    into the result (Place or 獨贏, stake, 包牌)."""
    r, x = b["rules"], "x" if ascii else "×"
    N, w, lv, p = len(b["p"]), b["winner"], b["liable"], b["p"]
    stake = float(r.stake)
    thr = ", ".join(f"{x}{k + 2} from {t} cards" for k, t in enumerate(r.chao_thresholds))
    if b["instant"]:
        how = f"an instant win: every other seat scores 3 {x} its hand size (三炒), whatever chao says"
    elif r.scoring == "points":
        how = "the points of the cards left (2=15, A=14, K=13, Q=12, J=11, others their number)"
        if r.points_chao:
            how += f" {x} the multiplier (炒) of their number (points_chao; chao={r.chao}: {thr})"
    else:
        how = f"cards left {x} the multiplier (炒) (chao={r.chao}: {thr})"
    if r.winner_bonus:
        bonus = r.winner_bonus
        how += f"; winner_bonus {bonus}: the winner scores -{bonus}, so each loser pays {bonus} more"
    S = sum(p)
    if r.settlement == "place":
        per = f" {x} stake {stake:g}" if stake != 1 else ""
        settle = (f"settlement place (四人互算): every two seats settle the difference of their scores, so each "
                  f"seat gets the total of the scores, {S}, minus {N} {x} its own{per}")
    else:
        settle = ("settlement winner_takes_all (獨贏): each loser pays the winner the difference of their scores"
                  + (f", {x} stake {stake:g}" if stake != 1 else ""))
    lines = [f"score: {how}", settle]
    for s in range(N):
        c = b["counts"][s]
        if s == w:
            head = f"{who(s)} won: " + ("at once" if b["instant"] else "0 cards") + f" = {p[s]}"
        elif b["instant"]:
            head = f"{who(s)}: {c} cards {x}3 (instant win) = {p[s]}"
        elif r.scoring == "points":
            head = f"{who(s)}: {c} card{'s' * (c != 1)} worth {b['points'][s]} points"
            if r.points_chao and b["mult"][s] > 1:
                head += f" {x}{b['mult'][s]} (炒)"
            head += f" = {p[s]}"
        else:
            m = b["mult"][s]
            head = f"{who(s)}: {c} card{'s' * (c != 1)} {x}{m}" + (" (炒)" if m > 1 else "") + f" = {p[s]}"
        if r.settlement == "place":
            expr = f"{S} - {N}{x}{_num(p[s])}"
            tail = f"({expr}) {x} {stake:g}" if stake != 1 else expr
        elif s == w:
            tail = "receives " + " + ".join(f"{-b['plain'][j]:g}" for j in range(N) if j != w)
        else:
            expr = f"{p[s]} - {_num(p[w])}"
            tail = "pays " + (f"({expr}) {x} {stake:g}" if stake != 1 else expr)
        net = b["plain"][s]
        line = f"  {head} -> {tail} = " + (f"{net:+g}" if r.settlement == "place" else f"{abs(net):g}")
        cards = b["cards"]
        if cards is not None and s != w and cards[s] and not b["instant"]:
            line += f"   (held {show_cards(cards[s], ascii, r)})"
        lines.append(line)
    if lv >= 0:
        others = [j for j in range(N) if j != lv and b["plain"][j] < 0]
        absorbed = "".join(f" - {-b['plain'][j]:g} ({who(j)})" for j in others)
        zero = ", ".join(f"{who(j)} {b['plain'][j]:+g} -> {b['nets'][j]:g}" for j in others)
        pays = "pay" if who(lv).startswith("you") else "pays"
        lines.append(f"penalty (包牌): {who(lv)} broke the blocking rule (頂大) just before {who(w)} went out, so "
                     f"{who(lv)} {pays} the other losers' share too and they pay nothing: "
                     f"{who(lv)} {b['plain'][lv]:+g}{absorbed} = {b['nets'][lv]:+g}" + (f"; {zero}" if zero else ""))
    return lines


def describe_hand(events: Sequence[dict[str, Any]], seat: int, rules: Any = None, *, ascii: bool = True) -> str:
    """How a hand of a record ended (its events, ``deal`` ... ``settle``): who won and how, each
    seat's cards left, and who is liable (包牌) if anyone; ``seat`` is "you".  With ``rules``, the
    lines of :func:`score_lines` follow: how each seat's score and its result came about.  Cards
    are shown as the table shows them (suit symbols unless ``ascii``).

    >>> evs = [{"type": "deal"}, {"type": "play", "seat": 2, "cards": "6C", "lead": True},
    ...        {"type": "settle", "winner": 2, "liable": -1, "cards_left": [4, 11, 0], "result": [-3.0, -21.0, 24.0]}]
    >>> describe_hand(evs, 0)
    'seat 2 won, out of cards first with 6C; cards left: you (seat 0) 4, seat 1 11'
    >>> describe_hand(evs, 0, ascii=False)
    'seat 2 won, out of cards first with 6♣; cards left: you (seat 0) 4, seat 1 11'
    """
    st = hand_settle(events)
    if st is None:
        return "the hand did not finish"
    who = functools.partial(seat_word, me=seat)
    w = int(st["winner"])
    inst = next((e for e in events if e.get("type") == "instant_win"), None)
    if inst is not None:
        kind = str(inst.get("kind", ""))
        how = {"dragon": "a dragon (all 13 ranks)", "four_twos": "all four 2s"}.get(kind, kind)
        line = f"{who(w)} won at once with {how}"
    else:
        last = next((e for e in reversed(events) if e.get("type") == "play" and e.get("seat") == w), None)
        line = f"{who(w)} won, out of cards first" + (
            f" with {show_cards(_ids(last['cards']), ascii, rules)}" if last is not None else "")
    left = [(s, int(n)) for s, n in enumerate(st.get("cards_left", [])) if s != w]
    if left:
        line += "; cards left: " + ", ".join(f"{who(s)} {n}" for s, n in left)
    liable = int(st.get("liable", -1))
    if liable >= 0:
        line += (f"; {who(liable)} broke the blocking rule (頂大) before the winner went out and pays the others' "
                 "losses (包牌)")
    if rules is None:
        return line
    try:
        b = score_breakdown(events, rules)
    except KaptaiError:  # a record the scoring code cannot price (it never should): the line alone
        return line
    if b is None:
        return line
    return "\n   ".join([line, *score_lines(b, who, ascii)])


def _plays_after_last_turn(events: Sequence[dict[str, Any]], seat: int, ascii: bool, rules: Any) -> list[str]:
    """The plays and passes of a finished hand after the turn ``seat`` took last (all of the
    hand's if it took none), as the table shows them: ``'  seat 2: 5♦'``, ``'  seat 3: pass'``.

    >>> evs = [{"type": "deal"}, {"type": "play", "seat": 0, "cards": "3D", "lead": True},
    ...        {"type": "pass", "seat": 1, "auto": False}, {"type": "play", "seat": 2, "cards": "2S", "lead": False},
    ...        {"type": "settle", "winner": 2, "liable": -1, "cards_left": [4, 11, 0], "result": [0, 0, 0]}]
    >>> _plays_after_last_turn(evs, 0, True, None)
    ['  seat 1: pass', '  seat 2: 2S (out of cards: wins the hand)']
    """
    evs = [e for e in _hand_events_since_deal(events) if e.get("type") in ("play", "pass")]
    mine = [i for i, e in enumerate(evs) if int(e["seat"]) == seat]
    st = hand_settle(events)
    w = -1 if st is None else int(st["winner"])
    out = []
    for k, e in enumerate(evs[mine[-1] + 1 if mine else 0:], start=mine[-1] + 1 if mine else 0):
        s = int(e["seat"])
        name = "you" if s == seat else f"seat {s}"
        if e["type"] == "pass":
            out.append(f"  {name}: pass" + (" (locked out: pass_locks_out)" if e.get("auto") else ""))
        else:
            won = " (out of cards: wins the hand)" if s == w and k == len(evs) - 1 else ""
            out.append(f"  {name}: {show_cards(_ids(e['cards']), ascii, rules)}{won}")
    return out


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
                         seat=args.seat, record=args.record, finished=kept,
                         describe=lambda evs, seat: describe_hand(evs, seat, cfg.rules, ascii=con.ascii))
    return Output(df, f"your results at seat {args.seat} ({header['unit']})", list(df.columns))


def review_command(args: Any, game: Any) -> Any:
    """``kaptai review big-two FILE``."""
    import sys

    from kaptai.core.review import review_command as run

    return run(args, game, sys.modules[__name__])
