"""Nine-ten (九十) at the terminal, and its decisions reviewed (``kaptai play`` / ``kaptai review``).

Discarding is the game's only decision (claims and dead cards are mandatory): a person types
the card to throw (``RK``, or its Chinese name), and every seat's moves (discards, flips, claims,
dead cards, the bonus flip) are told as they happen (:func:`narrate`, in the words of
:class:`Narration`); :func:`decisions` replays a record in the
reference engine (:mod:`kaptai.nineten.records`) and :func:`evaluate` values each discard with
:func:`kaptai.nineten.advisor.advise_view` (the whole public position: every seat's face-up and dead
cards, and the hand's record of discards, which the search's inference reads).

Examples
--------
>>> show(0, ascii=True), show(0, ascii=False)
('RK', '紅帥(RK)')
"""

from __future__ import annotations

import sys
import threading
from collections.abc import Callable, Iterator, Mapping, Sequence
from contextlib import contextmanager
from typing import Any

from kaptai.core.play import Console, NarratedSeat, hint_rows, one_card, settled_description
from kaptai.core.review import Decision, carry_before, observe_script
from kaptai.errors import UsageError
from kaptai.nineten.cards import N_KINDS, format_card, format_hand, parse_card
from kaptai.nineten.policies import PlayerView, Policy

__all__ = ["GAME", "HumanPolicy", "Narration", "narrate", "show", "advice", "why_illegal", "describe_hand", "decisions",
           "evaluate", "read", "play_command", "review_command"]

GAME = "nine-ten"


def show(k: int, ascii: bool) -> str:
    """A card for the screen: its Chinese name and code, or the code alone."""
    return format_card(k) if ascii else f"{format_card(k, 'trad')}({format_card(k)})"


def _cards(counts: Any, ascii: bool) -> str:
    out = []
    for k, n in enumerate(counts):
        out += [show(k, ascii)] * int(n)
    return " ".join(out) or "none"


def _seen(view: PlayerView) -> Any:
    return view.waste + view.exposed.sum(axis=0) - view.exposed[view.seat]


def advice(view: PlayerView, rules: Any, players: int, *, samples: int | None, seed: int,
           history: bool | None = None) -> Any:
    """The advisor's table for a discard of ``view`` (best first): on the view's whole public
    position and the hand's record (:func:`kaptai.nineten.advisor.advise_view`) where
    :func:`kaptai.nineten.advisor.uses_history` says so (``history``, default
    :data:`kaptai.nineten.advisor.USE_HISTORY`), else as a typed position (the hand, the cards out
    of play and every seat's face-up cards, as ``kaptai advise nine-ten --exposed`` types them)."""
    from kaptai.nineten.advisor import advise, advise_view, uses_history

    if uses_history(view, history):
        return advise_view(view, rules, samples=samples, seed=seed)
    N = len(view.exposed)
    return advise(format_hand(view.hand), seen=format_hand(view.waste), players=players, rules=rules,
                  exposed=[format_hand(view.exposed[(view.seat + j) % N]) for j in range(N)], samples=samples,
                  seed=seed)


def why_illegal(view: PlayerView, k: int) -> str:
    """Why card kind ``k`` may not be discarded at ``view`` (the rules page, §3 and §4): not held,
    a pair (pairs are never broken: only a single goes), or a dead card must go first.

    >>> import numpy as np
    >>> from kaptai.nineten.cards import parse_card
    >>> hand = np.zeros(28, dtype=np.int64)
    >>> hand[[parse_card("WC"), parse_card("RK")]] = [2, 1]
    >>> v = PlayerView(0, 0, hand, np.zeros(28, dtype=np.int64), np.zeros((4, 28), dtype=np.int64),
    ...                np.zeros(28, dtype=np.int64), 60, (parse_card("RK"),), False)
    >>> why_illegal(v, parse_card("WC"))
    'you hold a pair of WC, and a pair is never broken: discard a single (RK)'
    >>> why_illegal(v, parse_card("RA"))
    'you do not hold RA'
    """
    name = format_card(k)
    held = int(view.hand[k])
    if held == 0:
        return f"you do not hold {name}"
    opts = ", ".join(format_card(d) for d in view.options)
    if view.forced:
        if int(view.dead[k]):
            return f"your dead cards go oldest first: {opts} goes before {name}"
        return f"a dead card must be discarded first (yours: {opts})"
    if held % 2 == 0:
        what = "a pair" if held == 2 else "two pairs"
        return f"you hold {what} of {name}, and a pair is never broken: discard a single ({opts})"
    return f"{name} cannot be discarded here (legal: {opts})"


class Narration:
    """The lines that tell the person at seat ``me`` a hand's events as they happen: called with
    each event as a record writes it (:mod:`kaptai.nineten.records`: ``deal``, ``natural``,
    ``discard``, ``flip``, ``claim``, ``dead``, ``waste``, ``bonus``), it returns the lines to
    print now; :meth:`flush` returns what is still held.  A discard or a flip is told in one line
    with what became of the card (claimed, and by whom, or out of play), so it is held until the
    next event; the five bonus cards are told together.  Only what the table sees is told: the
    person's own cards at the deal and the pairs they hold, but not the other seats' hidden ones.

    Examples
    --------
    >>> n = Narration(0, ascii=True)
    >>> n({"type": "deal", "hand": 0, "dealer": 1, "hands": ["RK RA RA WE", "GC GC WE", "RK YA"]})
    ['', '== hand 0: seat 1 deals', 'your cards: RK RA RA WE']
    >>> n({"type": "discard", "seat": 1, "cards": "WE", "forced": False})
    []
    >>> n({"type": "waste", "seat": 1, "cards": "WE"})
    ['seat 1 discards WE: nobody claims it, out of play']
    >>> n({"type": "flip", "seat": 2, "cards": "RK", "stock_left": 40})
    []
    >>> n({"type": "claim", "seat": 2, "cards": "RK"})
    ['seat 2 flips RK from the stock (40 left) and claims it (a pair)']
    >>> n({"type": "dead", "seat": 0, "cards": "RK"})
    ['you must lay your RK face up as a dead card (you also held an unpaired RK; a dead card is discarded before any other card)']
    >>> n({"type": "discard", "seat": 2, "cards": "WE", "forced": False}), n({"type": "claim", "seat": 0, "cards": "WE"})
    ([], ['seat 2 discards WE: you claim it (a pair: you now hold 2 of the 5 pairs)'])
    """

    def __init__(self, me: int, ascii: bool = True, told: set[str] | None = None):
        self.me, self.ascii = int(me), bool(ascii)
        #: what has been explained once (shared by a session's hands)
        self.told: set[str] = set() if told is None else told
        self.held: list[list[int]] = []  # each seat's cards by kind, from the deal, claims and discards
        self.offer: tuple[str, int, int, str] | None = None  # (type, seat, kind, its line) being offered
        self.bonus: list[int] = []
        self.bonus_seat = -1

    def _who(self, s: int) -> str:
        return "you" if s == self.me else f"seat {s}"

    def _does(self, s: int, verb: str) -> str:
        """``'you flip'``, ``'seat 2 flips'``."""
        return f"you {verb}" if s == self.me else f"seat {s} {verb}s"

    def _their(self, s: int) -> str:
        return "your" if s == self.me else "its"

    def __call__(self, ev: Mapping[str, Any]) -> list[str]:
        t = ev.get("type")
        s = int(ev.get("seat", -1))
        k = int(parse_card(ev["cards"])) if ev.get("cards") else -1
        card = show(k, self.ascii) if k >= 0 else ""
        out: list[str] = []
        if t == "deal":
            out += self.flush()
            self.held = [[0] * N_KINDS for _ in ev["hands"]]
            for seat, cards in enumerate(ev["hands"]):
                for tok in str(cards).split():
                    self.held[seat][int(parse_card(tok))] += 1
            d = int(ev["dealer"])
            mine = [show(j, self.ascii) for j in range(N_KINDS) for _ in range(self.held[self.me][j])]
            out += ["", f"== hand {ev['hand']}: " + ("you deal" if d == self.me else f"seat {d} deals"),
                    f"your cards: {' '.join(mine)}"]
        elif t == "natural":
            out += self.flush()
            out.append(f"{self._who(s)} {'were' if s == self.me else '(the dealer) was'} dealt five pairs: "
                       f"a natural, {self._does(s, 'win')}")
        elif t in ("discard", "flip"):
            out += self._told_offer()
            if t == "discard":
                line = (f"{self._does(s, 'discard')} {self._their(s)} dead card {card}" if ev.get("forced")
                        else f"{self._does(s, 'discard')} {card}")
                self.held[s][k] -= 1
            else:
                line = f"{self._does(s, 'flip')} {card} from the stock ({ev['stock_left']} left)"
            self.offer = (str(t), s, k, line)
        elif t == "waste":
            line = self._offered(k, s)
            out.append(f"{line}: nobody claims it, out of play")
        elif t == "claim":
            own = self.offer is not None and self.offer[0] == "flip" and self.offer[1] == s
            line = self._offered(k, -1)
            self.held[s][k] += 1
            pairs = sum(x // 2 for x in self.held[s])
            if pairs >= 5:
                what = f", {self._their(s)} fifth pair: {self._does(s, 'win')}"
            elif s == self.me:
                four = f"; your fourth {card} is kaizhao (開招)" if self.held[s][k] == 4 else ""
                what = f" (a pair: you now hold {pairs} of the 5 pairs{four})"
            else:
                what = " (a pair)"
            out.append(f"{line} and claim{'' if s == self.me else 's'} it{what}" if own else
                       f"{line}: {self._does(s, 'claim')} it{what}")
        elif t == "dead":
            out += self._told_offer()
            why = "" if "dead" in self.told else (f" ({self._who(s)} also held an unpaired {card}; a dead card is "
                                                  "discarded before any other card)")
            self.told.add("dead")
            out.append(f"{self._who(s)} must lay {self._their(s)} {card} face up as a dead card{why}")
        elif t == "bonus":
            out += self._told_offer()
            self.bonus.append(k)
            self.bonus_seat = s
        return out

    def _offered(self, k: int, origin: int) -> str:
        """The held line of the card being offered (``k``; ``origin``: its seat, -1 not known), to
        be told with what became of it (the card alone where the offer was not seen)."""
        off, self.offer = self.offer, None
        if off is None or off[2] != k or (origin >= 0 and off[1] != origin):
            return show(k, self.ascii)
        return off[3]

    def _told_offer(self) -> list[str]:
        """The line of a discard or flip not yet told (none, or one)."""
        off, self.offer = self.offer, None
        return [] if off is None else [off[3]]

    def flush(self) -> list[str]:
        """What is still held: a discard or flip not yet told, the bonus cards."""
        out = self._told_offer()
        if self.bonus:
            s = self.bonus_seat
            held = self.held[s]
            tou = sum((2 if j == 4 else 1) for j, k in enumerate(self.bonus) if held[k] >= 2)
            out.append(f"bonus flip for {self._who(s)}: {' '.join(show(k, self.ascii) for k in self.bonus)}, +{tou} "
                       f"tou (+1 for each of the first four that matches one of {self._their(s)} pairs, +2 if the "
                       "fifth does)")
            self.bonus = []
        return out


class HumanPolicy(NarratedSeat, Policy):
    """A seat played by a person at the terminal (discards only: the rest is mandatory).

    Under :func:`narrate` (``kaptai play`` turns it on) the engine also tells it every event of
    the hand as it happens (:meth:`notice`): the console prints each seat's discards, flips,
    claims and dead cards in one short line each (:class:`Narration`)."""

    name = "human"

    def __init__(self, console: Console, rules: Any, players: int, hint_samples: int = 64):
        self.console, self.rules, self.players, self.hint_samples = console, rules, players, hint_samples
        self._story: Narration | None = None
        self._told: set[str] = set()

    def notice(self, me: int, ev: Mapping[str, Any]) -> None:
        """One event of the hand being played (as its record writes it); seat ``me`` is this
        policy's.  A ``deal`` starts a hand's narration."""
        if ev.get("type") == "deal" or self._story is None:
            self._story = Narration(me, self.console.ascii, self._told)
        self.tell(ev)

    def discard(self, view: PlayerView) -> int:
        self.flush()
        con, a = self.console, self.console.ascii
        exposed = "; ".join(f"seat {s}: {_cards(view.exposed[s], a)}" for s in range(len(view.exposed))
                            if view.exposed[s].sum())
        con.say("", f"-- nine-ten, seat {view.seat} (dealer seat {view.dealer}), stock {view.stock_left} --",
                f"face up: {exposed or 'none'}", f"out of play: {_cards(view.waste, a)}",
                f"your hand: {_cards(view.hand, a)}" + ("  (dead cards must go first)" if view.forced else ""))
        legal = [format_card(k) for k in view.options]

        def parse(t: str) -> int:
            k = int(one_card(t, parse_card, words=("pass", "no", "claim"),
                             here="discard a card (claims and dead cards are automatic)"))
            if k not in view.options:
                raise UsageError(why_illegal(view, k))
            return k

        def hint() -> str:
            from kaptai.nineten.records import UNIT

            df = advice(view, self.rules, self.players, samples=self.hint_samples, seed=view.stock_left)
            return (hint_rows([str(x) for x in df.discard], list(df.ev), "ev", p_win=list(df.p_win), unit=UNIT,
                              vs_best=list(zip(df.vs_best_low, df.vs_best_high)))
                    + f"   search's pick: {df.attrs['pick']}")

        return con.ask("discard", parse, legal, hint)


@contextmanager
def narrate() -> Iterator[None]:
    """While active, the reference engine's hands tell every :class:`HumanPolicy` seat each event
    as it happens (:meth:`HumanPolicy.notice`): the engine's log rows, decoded as the record
    decodes them (:mod:`kaptai.nineten.records`), so the person reads what the record will hold.
    It wraps the engine's play of a hand and its settlement (``_play``, ``_settle``) for hands
    with a person at the table played in this thread (the same moves: it only tells); replays
    and the search's rollouts pass through untouched."""
    from kaptai.core.review import swapped_class
    from kaptai.nineten import engine_reference as ref
    from kaptai.nineten.records import _deal_event, _row_event

    me = threading.get_ident()
    live: list[Any] = [None]  # (the hand being told, its people)

    def people(policies: Sequence[Any]) -> list[tuple[int, HumanPolicy]]:
        if threading.get_ident() != me:
            return []
        return [(s, p) for s, p in enumerate(policies) if isinstance(p, HumanPolicy)]

    def telling(L: Callable[[int, int, int, int], None], who: list[tuple[int, HumanPolicy]]) -> Any:
        def told(seat: int, action: int, card: int, value: int) -> None:
            L(seat, action, card, value)
            ev = _row_event(int(seat), int(action), int(card), int(value))
            if ev is not None:
                for s, pol in who:
                    pol.notice(s, ev)

        return told

    def make_play(base: Any) -> Any:
        def _play(cfg: Any, codes: Any, h: Any, policies: Any, pcodes: Any, rng: Any, L: Any, i: int) -> Any:
            who = people(policies)
            if not who:
                return base(cfg, codes, h, policies, pcodes, rng, L, i)
            deal = _deal_event(cfg, i, h.dealer, h.deck)
            for s, pol in who:
                pol.notice(s, deal)
            live[0] = (h, who)
            try:
                return base(cfg, codes, h, policies, pcodes, rng, telling(L, who), i)
            finally:
                for _s, pol in who:
                    pol.flush()

        return _play

    def make_settle(base: Any) -> Any:
        def _settle(cfg: Any, codes: Any, h: Any, winner: int, win: str, source: int, kzwait: bool, L: Any) -> Any:
            cur = live[0]
            if cur is None or cur[0] is not h or threading.get_ident() != me:
                return base(cfg, codes, h, winner, win, source, kzwait, L)
            live[0] = None
            try:
                return base(cfg, codes, h, winner, win, source, kzwait, telling(L, cur[1]))
            finally:
                for _s, pol in cur[1]:
                    pol.flush()

        return _settle

    with swapped_class(ref, "_play", make_play), swapped_class(ref, "_settle", make_settle):
        yield


@settled_description
def describe_hand(st: dict[str, Any], events: Sequence[dict[str, Any]], who: Callable[[int], str]) -> str:
    """One line on how a hand of a record ended (its events, ``deal`` ... ``settle``): the winner,
    the win (self-draw, on another seat's flip, on a discard, or the dealer's natural), the winning
    card, the 頭 (tou) and who pays; or a drawn hand.  ``seat`` is "you".

    >>> evs = [{"type": "deal"}, {"type": "discard", "seat": 1, "cards": "GC", "forced": False},
    ...        {"type": "claim", "seat": 0, "cards": "GC"},
    ...        {"type": "settle", "winner": 0, "win_type": "discard", "cards": "GC", "tou": 3,
    ...         "result": [3.0, -3.0, 0.0, 0.0]}]
    >>> describe_hand(evs, 1)
    'seat 0 won on the discard of GC by you (seat 1), who pays: 3 tou'
    """
    w, kind, card, tou = int(st["winner"]), st.get("win_type", ""), st.get("cards", ""), int(st.get("tou", 0))
    if w < 0 or kind == "drawn":
        return "drawn (流局): the stock ran down to the reserve with no winner; nobody pays"
    res = st.get("result", [])
    payers = [s for s, v in enumerate(res) if v < 0]
    pays = (f"{who(payers[0])} pays" if len(payers) == 1 else
            "every other seat pays" if len(payers) == len(res) - 1 else
            "paid by " + ", ".join(who(s) for s in payers)) if payers else "nobody pays"
    amount = f"{tou} tou"
    if kind == "natural":
        return f"{who(w)} (the dealer) won with a natural, five pairs dealt: {amount}, {pays}"
    if kind == "self":
        return f"{who(w)} won by self-draw, turning {card} from the stock: {amount}, {pays}"
    if kind == "flip":
        flip = next((e for e in reversed(events) if e.get("type") == "flip"), None)
        by = f" by {who(int(flip['seat']))}" if flip is not None else ""
        return f"{who(w)} won on {card}, flipped from the stock{by}: {amount}, {pays}"
    if kind == "discard":
        disc = next((e for e in reversed(events) if e.get("type") == "discard"), None)
        if disc is not None:
            d = int(disc["seat"])
            tail = "who pays" if payers == [d] else pays
            return f"{who(w)} won on the discard of {card} by {who(d)}, {tail}: {amount}"
        return f"{who(w)} won on a discard of {card}: {amount}, {pays}"
    return f"{who(w)} won ({kind}) on {card}: {amount}, {pays}"


def read(path: Any, game: str = GAME) -> Any:
    """A parsed record of this game."""
    from kaptai.records import read_record

    return read_record(path, game)


def decisions(record: Any, hands: Sequence[int] | None = None) -> Iterator[Decision]:
    """Every discard with two or more options of the chosen hands of a record."""
    from kaptai.core.records import HandCursor, record_setup
    from kaptai.nineten import records as R

    cfg = record_setup(record, R.FORMAT)
    for i in (range(len(record.hands)) if hands is None else hands):
        hand = record.hands[i]
        sink: list = []
        with observe_script(R, "_Script", ("discard",), sink):
            R.FORMAT.replay_hand(cfg, HandCursor(hand, record.path), carry_before(record, i, "dealer_winner"))  # type: ignore[misc]
        k = 0
        for _m, view, _args, move, _pos in sink:
            if len(view.options) < 2:
                continue
            yield Decision(hand.index, view.seat, k, "discard", view, format_card(int(move)), len(view.options),
                           format_hand(view.hand), f"stock {view.stock_left}; seen {format_hand(_seen(view))}",
                           {"rules": cfg.rules, "players": cfg.players})
            k += 1


def evaluate(d: Decision, *, samples: int, seed: int) -> dict[str, Any]:
    """The advisor on a discard: its table (best first), and the paired sums behind it with each
    row's option in them (``paired``, ``index``: a cross-fitted review measures on them; None when
    nothing was sampled, a position whose values are exact)."""
    from kaptai.core.advise import capture_paired
    from kaptai.core.review import match_options

    with capture_paired() as got:
        df = advice(d.view, d.extra["rules"], d.extra["players"], samples=samples, seed=seed)
    df.attrs = {}  # the table's attrs are not needed here, and pandas copies them into every column taken
    sampled = bool(got) and bool((df.samples > 0).all())
    res = got[-1] if sampled else None
    return {"labels": [str(x) for x in df.discard], "value": df.ev.to_numpy(), "vs_best": df.vs_best.to_numpy(),
            "vs_low": df.vs_best_low.to_numpy(), "vs_high": df.vs_best_high.to_numpy(),
            "p_win": df.p_win.to_numpy(), "samples": int(df.samples.iloc[0]), "paired": res,
            "index": match_options(res, {0: df.ev.to_numpy(), 1: df.p_win.to_numpy()}) if res is not None else None}


def play_command(args: Any, game: Any, console: Console | None = None) -> Any:
    """``kaptai play nine-ten``: a person at ``--seat`` against the built-in players (``console``:
    where to ask, default the terminal); every seat's moves are told as they happen."""
    from kaptai.core.play import FinishedHands, parse_opponents, run_session, seat_policies
    from kaptai.core.records import make_header
    from kaptai.nineten.config import make_config
    from kaptai.nineten.engine_reference import compiled_rollouts
    from kaptai.nineten.records import UNIT, hand_events
    from kaptai.spec import Output

    rules = game.resolve_rules(args.rules, **dict(args.option or []))
    cfg = make_config(args.players, rules)
    N = cfg.players
    if args.seat >= N:
        raise UsageError(f"--seat {args.seat}: the table has {N} seats (0 to {N - 1})")
    con = console if console is not None else Console(ascii=True if args.ascii else None, hints=args.hints)
    opp = parse_opponents(args.opponents, game.policies, N, args.seat)
    human = HumanPolicy(con, cfg.rules, N)
    pols = seat_policies(human, opp, args.seat)
    header = make_header(GAME, cfg.rules.to_dict(), N, [getattr(x, "name", str(x)) for x in pols], UNIT,
                         seed=args.seed, hands=args.hands, stake=float(cfg.rules.stake_per_tou))
    con.say(f"nine-ten, {N} players, you are seat {args.seat}; the others: {', '.join(opp)}. Type the card to "
            "discard (RK, or its name); claims and dead cards are automatic, and every seat's moves are told as they "
            "happen; ? lists the legal discards, quit stops.")
    # the session is one engine run: it hands each hand over to ``kept`` as soon as it is over,
    # so at quit the finished hands are kept
    kept = FinishedHands()
    events = hand_events(cfg.players, cfg.rules, policies=list(pols), hands=args.hands, seed=args.seed, on_hand=kept)
    # a person's seat makes this the reference engine: its search seats choose in the compiled
    # twin (the same discards from the same seeds, seconds faster a decision); narrated, the person
    # reads every seat's moves as they happen
    with compiled_rollouts(), narrate():
        df = run_session(con, header, events, seat=args.seat, record=args.record, finished=kept,
                         describe=describe_hand)
    return Output(df, f"your results at seat {args.seat} ({UNIT})", list(df.columns))


def review_command(args: Any, game: Any) -> Any:
    """``kaptai review nine-ten FILE``."""
    from kaptai.core.review import review_command as run

    return run(args, game, sys.modules[__name__])
