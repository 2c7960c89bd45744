"""Kap Tai Shap (夾大十) and Kap Shap at the terminal, and their decisions reviewed.

A person types the tile to discard or to claim (``6-6``, ``66``, or its Chinese name; ``claim 2-5``
and ``discard 4-4`` as the hint names them), or ``no`` to decline a claim; the other seats'
discards and claims are told as they happen (:func:`narrate`), and each hand's end by
:func:`hand_result`, with what its result is made of (:func:`hand_settlement`: the winning hand's
groups, the score item by item as the scoring code settled it (:func:`score_items`), and who paid
the winner what: the score from each other seat under advanced scoring, the pot and the house's
cut under the pot game).  :func:`decisions` replays a record in the reference engine
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

import re
import threading
from collections.abc import Iterator, Sequence
from typing import Any

import numpy as np

from kaptai.core.play import Console, hint_rows, without_asides
from kaptai.core.review import Decision, observe_script
from kaptai.errors import UsageError
from kaptai.kts.policies import PlayerView, Policy
from kaptai.kts.tiles import format_tile, parse_tile

#: What a loss counts in here (the exact advisor's value).
LOSS_UNIT = "P(win within the look-ahead)"

__all__ = ["LOSS_UNIT", "HumanPolicy", "show", "advice", "narrate", "hand_result", "score_items", "hand_settlement",
           "table_events", "claim_labels", "decisions", "evaluate", "read", "play_command"]


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


def advice(view: PlayerView, *, offered: int | None = None, table: Sequence[int] | None = None,
           known: Sequence[Sequence[int]] | None = None) -> Any:
    """The exact advisor on ``view`` (a discard, or a claim of ``offered``), best first.

    ``seen`` is every tile face up on the table (the offered tile taken out) and, with ``known``
    (each seat's copies it is known to hold because it claimed them, the engine's ``known``), the
    other seats' known copies: none of them can be drawn.
    """
    from kaptai.kts.advisor import advise

    tab = list(view.table if table is None else table)
    if offered is not None and tab[offered] > 0:
        tab[offered] -= 1
    for x, row in enumerate(known or ()):
        if x != view.seat:
            for t, n in enumerate(row):
                tab[t] += int(n)
    return advise(_text(view.hand), view.rules, seen=_text(tab), players=view.players,
                  offered=None if offered is None else format_tile(offered))


def _name(view: PlayerView) -> str:
    return "Kap Shap" if view.n == 3 else "Kap Tai Shap"


def _seat(seat: int, me: int) -> str:
    return "you" if seat == me else f"seat {seat}"


def _typed(s: str, verbs: tuple[str, ...]) -> str:
    """The tile of a line, a leading verb (``claim 2-5``, ``discard 4-4``: as the hint names a move)
    dropped, and a hint's remark in brackets after it (``claim 2-5 (it wins)``).

    >>> _typed("claim 2-5 (it wins)", ("claim",)), _typed("discard 4-4", ("discard",)), _typed("天", ())
    ('2-5', '4-4', '天')
    """
    t = re.sub(r"\s+\([a-z ]+\)$", "", s.strip())
    head, _, rest = t.partition(" ")
    return rest.strip() if head.lower() in verbs and rest.strip() else t


#: "claim 2-5, then discard 4-4", as the hint names a claim and its exchange discard.
_CLAIM_THEN = re.compile(r"^\s*(?:claim|take)\s+(.+?)\s*(?:,\s*|\s+)then\s+discard\s+(.+?)\s*$", re.I)


class HumanPolicy(Policy):
    """A seat played by a person at the terminal.

    Under :func:`narrate` (``kaptai play`` turns it on) the engine also tells it, as they
    happen, what the other seats do in the open (their discards and claims; a draw shows no
    tile) and, at a claim, whether it is the early window on a seat's first discard.
    """

    name = "human"

    def __init__(self, console: Console):
        self.console = console
        #: set by :func:`narrate` at a claim decision: the seat whose first discard is offered in
        #: the early window, -1 at the claim step; None when not known
        self.early_of: int | None = None
        self._last: tuple[int, int] | None = None  # (seat, tile) of the latest discard
        self._drew = -1  # the other seat that has just drawn (its discard says so)
        self._explained = False  # the hint's P(win) is explained once, with the first hint
        self._then: int | None = None  # the exchange discard typed with a claim ("claim X, then discard Y")
        #: set by :func:`narrate` at each decision: each seat's copies it is known to hold because it
        #: claimed them (the engine's ``known``, what the search and the review count); None when not known
        self._known: list[list[int]] | None = None
        #: the table's seat of each of the hand's seats (the engine's, 0 deals), set as each hand of
        #: a session whose deal passes starts (``kaptai play``); None: the table's seats are the hand's
        self.table: list[int] | None = None
        #: who deals the hand (and its streak, a carried pot), told with its dice ("seat 1 deals; ")
        self.deal_note = ""

    def _t(self, seat: int) -> int:
        """The table's seat of the hand's seat ``seat`` (what the person is told)."""
        return seat if self.table is None else self.table[seat]

    # ------------------------------------------------------------------ what the others do
    def notice(self, me: int, seat: int, action: str, tile: int, value: int, hand: int = -1) -> None:
        """One event of hand ``hand``, as the engine logs it; seat ``me`` is this policy's.  The
        other seats' claims and discards are announced (naming the seat); draws show no tile."""
        a = self.console.ascii
        if action == "dice":
            self._last, self._drew = None, -1
            head = f"hand {hand}: " if hand >= 0 else ""
            head += self.deal_note
            self.console.say("", f"{head}dice {value}, {_seat(self._t(seat), self._t(me))} {'are' if seat == me else 'is'} the "
                                 "first hand")
        elif action == "draw":
            self._drew = seat if seat != me else -1
        elif action == "discard":
            if seat != me:
                drew = "draws, " if self._drew == seat else ""
                self.console.say(f"seat {self._t(seat)} {drew}discards {show(tile, a)}")
            self._last, self._drew = (seat, tile), -1
        elif action == "claim" and seat != me:
            if self._last is not None and self._last[1] == tile:
                whose = "your" if self._last[0] == me else f"seat {self._t(self._last[0])}'s"
                self.console.say(f"seat {self._t(seat)} claims {whose} {show(tile, a)}")
            else:
                self.console.say(f"seat {self._t(seat)} claims {show(tile, a)} from the table")

    # ------------------------------------------------------------------ decisions
    def _table(self, view: PlayerView, turn: str, what: str) -> None:
        con, a = self.console, self.console.ascii
        con.say("", f"-- {_name(view)}, you are seat {self._t(view.seat)}, turn {view.turn}{turn}; "
                    f"wall {view.wall_remaining} --",
                f"on the table: {' '.join(show(t, a) for t in _tiles(view.table)) or 'nothing'}",
                f"your hand: {' '.join(show(t, a) for t in _tiles(view.hand))}", what)

    def _p_win_note(self, df: Any, rules: Any) -> str:
        if self._explained:
            return ""
        self._explained = True
        looks = df.attrs.get("looks", 3)
        return (f"\n(P(win): the advisor's chance that you win within its horizon, your next {looks} draws "
                "with the best play after each, the other seats' draws unseen; not the chance of winning "
                "the hand"
                + ("; it ranks by that chance alone, not by the score a win would make: kaptai review's default "
                   "advisor (the search) weighs the points, so it can grade a move differently"
                   if getattr(rules, "settlement", None) == "advanced" else "") + ")")

    def claim(self, view: PlayerView, candidates: tuple[int, ...]) -> int | None:
        a, P = self.console.ascii, view.players
        early = self.early_of
        one = len(candidates) == 1 and view.rules.claim == "previous"
        thrower = (view.seat - 1) % P  # under claim='previous' the offered tile is always the previous seat's
        if one:
            c = candidates[0]
            in_window = early is not None and early >= 0  # the early window: seat `thrower`'s turn
            when = " (its first discard of the turn, after its claim; it draws next)" if in_window else ""
            turn = f" (seat {self._t(thrower)}'s)" if in_window else ""
            what = f"seat {self._t(thrower)} discarded {show(c, a)}{when}: claim it ({format_tile(c)}) or no?"
            prompt = f"claim {format_tile(c)} or no"
        else:
            turn = ""
            what = f"claim a face-up tile ({', '.join(format_tile(t) for t in candidates)}) or no?"
            prompt = "claim (tile) or no"
        self._table(view, turn, what)
        legal = [format_tile(t) for t in candidates] + ["no"]

        def parse(s: str) -> int | None:
            if _typed(s, ()).lower() in ("no", "n", "draw", "decline", "pass"):
                return None
            both = _CLAIM_THEN.match(s)
            then = None
            if both:  # the hint's "claim X, then discard Y": Y is kept for the exchange discard
                s, then = both.group(1), int(parse_tile(both.group(2)))
            t = int(parse_tile(_typed(s, ("claim", "take"))))
            if t in candidates:
                self._then = then
                return t
            ft = format_tile(t)
            if one:
                raise UsageError(f"{ft} is not on offer: only seat {self._t(thrower)}'s {format_tile(candidates[0])} can "
                                 "be claimed now (or no)")
            raise UsageError(f"{ft} is not face up on the table")

        def hint() -> str:
            c = candidates[0]
            fc = format_tile(c)
            df = advice(view, offered=c, known=self._known)
            labels, values = [], []
            for r in df.itertuples():
                if r.action == "claim_win":
                    lab = f"claim {fc} (it wins)"
                elif r.action == "no_claim":
                    lab = "no (let it go)"
                else:
                    if view.hand[int(parse_tile(r.discard))] == 0:
                        # the advisor's "claim and throw the claimed tile back": not a legal exchange
                        # (the claimed tile is exchanged for a tile held before the claim)
                        continue
                    lab = f"claim {fc}, then discard {r.discard}"
                labels.append(lab)
                values.append(float(r.p_win_within))
            return hint_rows(labels, values, "P(win)", unit="probability") + self._p_win_note(df, view.rules)

        return self.console.ask(prompt, parse, legal, hint if len(candidates) == 1 else None)

    def discard(self, view: PlayerView, legal: tuple[int, ...]) -> int:
        a = self.console.ascii
        why = (f" (you took {show(view.claimed, a)})" if view.claimed is not None
               else f" (you drew {show(view.drawn, a)})" if view.drawn is not None else "")
        then, self._then = self._then, None
        if then is not None and then in legal and view.claimed is not None:
            self.console.say(f"you discard {show(then, a)}, as you said with the claim")
            return then
        self._table(view, "", f"your discard{why}")

        def parse(s: str) -> int:
            if s.strip().lower() in ("no", "n", "pass", "draw"):
                raise UsageError("a discard is due here: type a tile of your hand ('no' answers a claim)")
            t = int(parse_tile(_typed(s, ("discard", "throw"))))
            if t in legal:
                return t
            ft = format_tile(t)
            if view.hand[t] == 0:
                raise UsageError(f"{ft} is not in your hand")
            if view.claimed is not None and t == view.claimed:
                raise UsageError(f"{ft} is the tile you claimed: a claim exchanges it for a tile you held before, "
                                 "so it cannot go straight back")
            if view.drawn is not None and tuple(legal) == (view.drawn,):
                raise UsageError(f"under keep_drawn=false a drawn tile that does not win is discarded at once: "
                                 f"only {format_tile(view.drawn)}")
            raise UsageError(f"{ft} cannot be discarded here")

        def hint() -> str:
            df = advice(view, known=self._known)
            df = df[df.discard.isin([format_tile(t) for t in legal])]
            return (hint_rows([f"discard {d}" for d in df.discard], list(df.p_win_within), "P(win)",
                              unit="probability") + self._p_win_note(df, view.rules))

        return self.console.ask("discard", parse, [format_tile(t) for t in legal], hint)


def narrate() -> Any:
    """While active, the reference engine's hands (:class:`kaptai.kts.engine_reference._Hand`)
    tell every :class:`HumanPolicy` seat each event of the hand as it happens
    (:meth:`HumanPolicy.notice`) and, at its claims, whether it is the early window
    (:attr:`HumanPolicy.early_of`); at its decisions, the copies each seat is known to hold
    because it claimed them (the engine's ``known``, which the hint counts as the review does).  Swapped in as :func:`_watch_states` is (the same moves: it
    only tells); only hands played in this thread and not the search's rollouts (no log) tell."""
    from kaptai.core.review import swapped_class
    from kaptai.kts import engine_reference as ref
    from kaptai.kts.config import ACTIONS

    me = threading.get_ident()

    def make(base: Any) -> Any:
        class Narrated(base):  # type: ignore[misc, valid-type]
            def event(self, seat: int, action: int, tile: int = -1, value: int = -1) -> None:
                super().event(seat, action, tile, value)
                if self.log is None or threading.get_ident() != me:
                    return
                for s, pol in enumerate(self.policies):
                    if isinstance(pol, HumanPolicy):
                        pol.notice(s, int(seat), ACTIONS[action], int(tile), int(value), int(self.hand_index))

            def decide_claim(self, seat: int, cands: tuple[int, ...], early_of: int = -1) -> int | None:
                pol = self.policies[seat]
                if not isinstance(pol, HumanPolicy) or self.log is None:
                    return super().decide_claim(seat, cands, early_of)
                pol.early_of, pol._known = early_of, [list(x) for x in self.known]
                try:
                    return super().decide_claim(seat, cands, early_of)
                finally:
                    pol.early_of, pol._known = None, None

            def decide_discard(self, seat: int, legal: tuple[int, ...], drawn: Any = None,
                               claimed: Any = None) -> int:
                pol = self.policies[seat]
                if not isinstance(pol, HumanPolicy) or self.log is None:
                    return super().decide_discard(seat, legal, drawn, claimed)
                pol._known = [list(x) for x in self.known]
                try:
                    return super().decide_discard(seat, legal, drawn, claimed)
                finally:
                    pol._known = None

        return Narrated

    return swapped_class(ref, "_Hand", make)


def _hand_of(evs: Sequence[dict[str, Any]], seat: int) -> list[int]:
    """``seat``'s tiles at the end of a hand's events (the deal, then its draws, claims, discards)."""
    deal = evs[0]
    hand = [int(parse_tile(t)) for t in str(deal["hands"][seat]).split()]
    for e in evs[1:]:
        if e.get("seat") != seat or not e.get("cards"):
            continue
        if e["type"] in ("draw", "claim"):
            hand.append(int(parse_tile(e["cards"])))
        elif e["type"] == "discard":
            hand.remove(int(parse_tile(e["cards"])))
    return sorted(hand)


def table_events(evs: Sequence[dict[str, Any]]) -> list[dict[str, Any]]:
    """A hand's events with the seats the table's: a record whose deal passes numbers a hand's
    seats from its dealer and says the table's seat of each in its ``deal`` (``seats``); its
    ``settle``'s result is by the table's seat already.  Without ``seats``, the events as they are.

    >>> evs = [{"type": "deal", "first": 1, "hands": ["1-1", "2-2", "3-3"], "seats": [2, 0, 1]},
    ...        {"type": "discard", "seat": 1, "cards": "2-2"}, {"type": "settle", "winner": 0, "result": [1, 2, 3]}]
    >>> [(e.get("seat"), e.get("first"), e.get("winner"), e.get("hands")) for e in table_events(evs)]
    [(None, 0, None, ['2-2', '3-3', '1-1']), (0, None, None, None), (None, None, 2, None)]
    """
    seats = evs[0].get("seats") if evs else None
    if not seats:
        return list(evs)
    out = []
    for e in evs:
        e = dict(e)
        if e.get("type") == "deal":
            hands = list(e["hands"])
            for h, t in enumerate(seats):
                hands[t] = e["hands"][h]
            e["hands"], e["first"] = hands, seats[int(e["first"])]
        elif e.get("type") == "settle":
            if int(e["winner"]) >= 0:
                e["winner"] = seats[int(e["winner"])]
        elif "seat" in e:
            e["seat"] = seats[int(e["seat"])]
        out.append(e)
    return out


def hand_result(evs: Sequence[dict[str, Any]], seat: int, unit: str = "", ascii: bool = True) -> str:
    """How a hand ended, for the person at ``seat``: who won and how (a claim, self-drawn, a
    natural), the tile, the score and the winning hand, and the house's take; or why no one won.

    >>> evs = [{"type": "deal", "hands": ["6-6 6-6", "1-1"]}, {"type": "draw", "seat": 1, "cards": "1-1"},
    ...        {"type": "self_drawn_win", "seat": 1, "cards": "1-1", "score": 3},
    ...        {"type": "settle", "winner": 1, "score": 3, "house": 0.1, "result": [-1, 0.9]}]
    >>> hand_result(evs, 0, "antes")
    'seat 1 wins self-drawn on 1-1, score 3, with 1-1 1-1; the house takes 0.1 antes'
    """
    settle = evs[-1]
    win = next((e for e in evs if e.get("type") in ("natural", "claim_win", "self_drawn_win")), None)
    if win is None:
        end = next((e["type"] for e in evs if e.get("type") in ("drawn_hand", "turn_limit")), None)
        why = ("the wall is empty: a drawn hand" if end == "drawn_hand"
               else "the hand stalled at the turn limit" if end == "turn_limit" else "the hand ended")
        return f"{why}, no winner"
    w = int(win["seat"])
    who = "you win" if w == seat else f"seat {w} wins"
    score = settle.get("score", win.get("score"))
    if win["type"] == "natural":
        how = "with a natural (the first hand's dealt tiles)"
    else:
        t = show(int(parse_tile(win["cards"])), ascii)
        if win["type"] == "claim_win":
            at = list(evs).index(win)
            src = next((int(e["seat"]) for e in reversed(evs[:at])
                        if e.get("type") == "discard" and e.get("cards") == win["cards"]), -1)
            whose = "your " if src == seat else f"seat {src}'s " if src >= 0 else ""
            how = f"by claiming {whose}{t}"
        else:
            how = f"self-drawn on {t}"
    tiles = " ".join(show(t, ascii) for t in _hand_of(evs, w))
    house = float(settle.get("house", 0) or 0)
    cut = f"; the house takes {house:g} {unit}".rstrip() if house else ""
    return f"{who} {how}, score {score}, with {tiles}{cut}"


#: The score items' names (the rules page, §4), the Chinese in brackets (dropped in ASCII).
_ITEM_WORDS = {"basic": "basic win", "general_eyes": "general-eyes win", "run4": "run of four (四相連)",
               "run6": "run of six (六相連)", "run8": "run of eight (八相連)", "all_even": "all even (偶合)",
               "all_odd": "all odd (奇合)", "all_pairs": "all pairs (全對子)"}
_GROUP_WORDS = {"eye": "eye (眼)", "general_eye": "general eye (將眼)", "ten_pair": "ten pair (湊十)",
                "run": "run (相連)"}


def _win(evs: Sequence[dict[str, Any]]) -> dict[str, Any] | None:
    return next((e for e in evs if e.get("type") in ("natural", "claim_win", "self_drawn_win")), None)


def score_items(evs: Sequence[dict[str, Any]], rules: Any) -> dict[str, Any] | None:
    """The winner's score of a finished hand, item by item, from the scoring code that settled it;
    None when no one won.

    The engine (:class:`kaptai.kts.engine_reference._Hand`) scores a win with
    :func:`kaptai.kts.reference.score`, the score of :func:`kaptai.kts.reference.best`'s
    decomposition, plus 1 for a self-drawn win or a natural; a session whose deal passes adds the
    dealer streak's points (連莊, the ``settle``'s ``bonus``).  That decomposition of the winner's tiles gives the items: its form's base
    (``reference.FORM_POINTS``) and its patterns' (``reference.PATTERN_POINTS``), of which the
    scoring code counts the highest (``base_combination='max'``) or all (``'sum'``), and 1 per
    general eye; the self-draw point is what the settled score (the ``settle`` event's) holds
    above the decomposition's.  The items are read off the decomposition and checked against its
    score and the settled one, never recomputed: what would not add up is one ``not itemised``
    item.

    Returns a dict: ``seat`` (the winner), ``score`` (the settled score), ``items``
    (``(key, words, points)``, adding up to it), ``not_added`` (the base items a ``max``
    combination leaves out) and ``groups`` (the decomposition's groups, eyes, run, ten pairs).

    >>> from kaptai.kts.rules import resolve_rules
    >>> evs = [{"type": "deal", "hands": ["2-2 2-2 1-1 4-4 1-3 3-3 5-5 4-6 6-6", "1-2"]},
    ...        {"type": "draw", "seat": 0, "cards": "2-6"},
    ...        {"type": "self_drawn_win", "seat": 0, "cards": "2-6", "score": 5},
    ...        {"type": "settle", "winner": 0, "score": 5, "house": 0.0, "result": [5.0, -5.0]}]
    >>> info = score_items(evs, resolve_rules("advanced"))
    >>> [(k, p) for k, _w, p in info["items"]], [(k, p) for k, _w, p in info["not_added"]]
    ([('all_even', 4), ('self_drawn', 1)], [('basic', 2)])
    """
    from kaptai.kts import reference as ref

    win = _win(evs)
    if win is None:
        return None
    w = int(win["seat"])
    settled = int(evs[-1].get("score", win.get("score", 0)))
    counts = [0] * ref.N_TILES
    for t in _hand_of(evs, w):
        counts[t] += 1
    try:
        d = ref.best(counts, rules)
    except ValueError:  # not a complete hand (a record cut short)
        d = None
    items: list[tuple[str, str, int]] = []
    not_added: list[tuple[str, str, int]] = []
    rest = settled
    if d is not None:
        eyes = [ids[0] for kind, ids in d.groups if kind == "general_eye"]
        base = [(d.form, _ITEM_WORDS[d.form], ref.FORM_POINTS[d.form])]
        base += [(p, _ITEM_WORDS[p], ref.PATTERN_POINTS[p]) for p in ref.PATTERNS if p in d.patterns]
        base_points = d.score - len(eyes)  # the scoring code's base: its score less the eyes' points
        counted: list[tuple[str, str, int]] = []
        if sum(b[2] for b in base) == base_points:  # every base item counts (one alone, or 'sum')
            counted = base
        else:  # 'max': the highest counts, the others do not
            top = next((b for b in sorted(base, key=lambda b: -b[2]) if b[2] == base_points), None)
            if top is not None:
                counted, not_added = [top], [b for b in base if b is not top]
        if counted:
            items += counted
            if eyes:
                what = ", ".join(format_tile(t) for t in eyes)
                items.append(("general_eyes", f"general eye{'s' if len(eyes) > 1 else ''} ({what})", len(eyes)))
            rest -= d.score
    bonus = int(evs[-1].get("bonus", 0) or 0)
    if bonus and rest >= bonus:
        k = bonus // 2
        items.append(("streak", f"dealer streak (連莊) of {k} win{'s' if k > 1 else ''} keeping the deal", bonus))
        rest -= bonus
    if rest == 1 and win["type"] in ("natural", "self_drawn_win"):
        items.append(("self_drawn", "natural, counted as self-drawn (自摸)" if win["type"] == "natural"
                      else "self-drawn (自摸)", 1))
        rest = 0
    if rest:
        items.append(("other", "not itemised", rest))
    return {"seat": w, "score": settled, "items": items, "not_added": not_added,
            "groups": () if d is None else d.groups}


def _names(seats: Sequence[int], me: int) -> str:
    """``'you, seat 2 and seat 3'``."""
    words = [_seat(s, me) for s in seats]
    return words[0] if len(words) == 1 else ", ".join(words[:-1]) + " and " + words[-1]


def _num(x: float) -> str:
    return f"{round(float(x), 10):g}"


def _group(kind: str, ids: Sequence[int], rules: Any, ascii: bool) -> str:
    if kind == "run":  # in run-value order
        rv = rules.run_values()
        ids = sorted(ids, key=lambda t: int(rv[t]))
    sep = "+" if kind == "ten_pair" else " "
    return f"{_GROUP_WORDS[kind]} {sep.join(show(t, ascii) for t in ids)}"


def hand_settlement(evs: Sequence[dict[str, Any]], seat: int, rules: Any, unit: str = "",
                    ascii: bool = True) -> list[str]:
    """The lines under :func:`hand_result` that say what the hand's result is made of, for the
    person at ``seat``: the winning hand's groups, the score item by item (:func:`score_items`)
    and, under advanced scoring, who paid the winner what; under the pot game, the pot, the
    house's cut and who paid it; a drawn hand's refund.  Every number is a settled one (the
    ``settle`` event's score, house and results, as :func:`kaptai.core.settlement.settle_outcomes`
    settled them) or a sum of them.

    >>> from kaptai.kts.rules import resolve_rules
    >>> evs = [{"type": "deal", "hands": ["2-2 2-2 1-1 4-4 1-3 3-3 5-5 4-6 6-6", "1-2", "1-2"]},
    ...        {"type": "draw", "seat": 0, "cards": "2-6"},
    ...        {"type": "self_drawn_win", "seat": 0, "cards": "2-6", "score": 5},
    ...        {"type": "settle", "winner": 0, "score": 5, "house": 0.0, "result": [10.0, -5.0, -5.0]}]
    >>> print("\\n".join(hand_settlement(evs, 1, resolve_rules("advanced"), "points")))
    the winning hand: eye 2-2 2-2 | ten pair 6-6+4-4 | ten pair 1-1+2-6 | ten pair 1-3+3-3 | ten pair 5-5+4-6
    score 5 = all even 4 + self-drawn 1 (the base is the highest item; not added: basic win 2)
    you and seat 2 pay seat 0 the score, 5 points each: seat 0 takes 10 points
    """
    settle = evs[-1]
    res = [float(x) for x in settle.get("result", [])]
    pot = getattr(rules, "settlement", "pot") == "pot"
    info = score_items(evs, rules)
    lines: list[str] = []
    pot_in = float(evs[0].get("pot", 0) or 0)  # antes carried from drawn hands (drawn_hand='carry')
    if info is None:
        if res and not any(res):
            lines.append("every seat's ante goes back to it and the house takes nothing" if pot else "nobody pays")
        elif pot and "pot" in settle:
            lines.append(f"every seat's ante stays in the pot: {_num(float(settle['pot']))} {unit} carried to the "
                         "next hand (drawn_hand='carry')")
        return [without_asides(x) if ascii else x for x in lines]
    w = info["seat"]
    if info["groups"]:
        lines.append("the winning hand: " + (" | " if ascii else " · ").join(_group(k, ids, rules, ascii)
                                                                      for k, ids in info["groups"]))
    score = f"score {info['score']}"
    if info["items"]:
        score += " = " + " + ".join(f"{words} {pts}" for _k, words, pts in info["items"])
    if info["not_added"]:
        score += (" (the base is the highest item; not added: "
                  + ", ".join(f"{words} {pts}" for _k, words, pts in info["not_added"]) + ")")
    losers = [s for s in range(len(res)) if s != w]
    paid = [-res[s] for s in losers]
    house = float(settle.get("house", 0) or 0)
    cut = f"the house's cut ({_num(float(getattr(rules, 'house_cut', 0.0)) * 100)}%) takes {_num(house)}"
    who, takes = _seat(w, seat), "take" if w == seat else "takes"
    even = bool(paid) and all(abs(p - paid[0]) < 1e-9 for p in paid)
    if pot:
        lines.append(score + " (advanced scoring's points: the pot game does not pay them)")
        ante = paid[0] if even else 0.0
        gross = len(res) * ante + pot_in
        if even and abs(gross - house - ante - res[w]) < 1e-9:  # the pot game: every seat anted `ante`
            carried = f" and {_num(pot_in)} carried from drawn hands" if pot_in else ""
            lines.append(f"the pot: {_num(gross)} {unit}, {_num(ante)} from each seat{carried}; "
                         + (f"{cut}; " if house else "")
                         + f"{who} {takes} {'the other ' if house else ''}{_num(gross - house)}, a net {res[w]:+g} "
                         f"after {'your' if w == seat else 'its'} own ante; {_names(losers, seat)} "
                         + (f"each lose the {_num(ante)} they anted" if len(losers) > 1 else
                            f"lose the {_num(ante)} you anted" if losers[0] == seat else
                            f"loses the {_num(ante)} it anted"))
        else:  # not the pot game's shape: the settled results as they are
            lines.append("settled: " + ", ".join(f"{_seat(s, seat)} {res[s]:+g}" for s in range(len(res)))
                         + (f"; the house takes {_num(house)}" if house else ""))
    else:
        lines.append(score)
        if even:
            pay = "pays" if len(losers) == 1 and losers[0] != seat else "pay"
            text = (f"{_names(losers, seat)} {pay} {who} the score, {_num(paid[0])} {unit}"
                    f"{' each' if len(losers) > 1 else ''}: {who} {takes} {_num(sum(paid))} {unit}")
        else:
            text = "; ".join(f"{_seat(s, seat)} {'pay' if s == seat else 'pays'} {_num(p)}"
                             for s, p in zip(losers, paid)) + f": {who} {takes} {_num(sum(paid))} {unit}"
        if house:
            text += f"; {cut}: {who} net{'' if w == seat else 's'} {_num(res[w])}"
        lines.append(text)
    return [without_asides(x) if ascii else x for x in lines]


def read(path: Any, game: str = "kap-tai-shap") -> Any:
    """A parsed record of this game (or of Kap Shap)."""
    from kaptai.records import read_record

    return read_record(path, game)


def claim_labels(offered: int) -> tuple[str, str]:
    """The review's labels of a claim decision on the tile ``offered``: taking it, then letting it
    go, named as the play hint names them (``claim 2-5``; the hint's ``no (let it go)`` with the
    tile named).  The exchange discard after a claim is a decision of its own.

    >>> claim_labels(parse_tile("2-5"))
    ('claim 2-5', 'no claim (let 2-5 go)')
    """
    t = format_tile(offered)
    return f"claim {t}", f"no claim (let {t} go)"


def decisions(record: Any, hands: Sequence[int] | None = None) -> Iterator[Decision]:
    """Every claim and every discard with two or more options of the chosen hands of a record;
    a claim's move made is one of :func:`claim_labels`, a discard's the tile.  A decision's
    ``seat`` is the table's (a record whose deal passes names them, ``seats``); its view's is the
    hand's (0 deals), as the engine and the advisors count."""
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
        table = hand.deal.get("seats")  # the table's seat of each of the hand's seats (a passing deal)
        for (method, view, args, move, _pos), (kind, early_of, state) in zip(sink, states):
            (opts,) = args
            if method == "claim":
                if len(opts) != 1:  # the advisor values the claim of one offered tile
                    continue
                take, stay = claim_labels(int(opts[0]))
                made = take if move is not None else stay
                extra: dict[str, Any] = {"offered": int(opts[0])}
                n = 2
            else:
                if len(opts) < 2:
                    continue
                made, extra, n = format_tile(int(move)), {"legal": [format_tile(t) for t in opts]}, len(opts)
            extra.update(ids=[int(t) for t in opts], ctx=kind, early_of=early_of, state=state, cfg=cfg)
            yield Decision(hand.index, int(table[view.seat]) if table else view.seat, k, method, view, made, n,
                           _text(view.hand),
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
    sampling, so ``samples`` and ``seed`` do not enter); a claim's options are
    :func:`claim_labels` (the claim valued at its best exchange discard, or its win)."""
    v = d.view
    known = d.extra["state"]["known"]  # the engine's: what the hint at the table counts too
    if d.kind == "claim":
        df = advice(v, offered=d.extra["offered"], known=known)
        take = df[df.action.isin(["claim", "claim_win"])].p_win_within
        stay = df[df.action == "no_claim"].p_win_within
        claim, no_claim = claim_labels(d.extra["offered"])
        vals = {claim: float(take.max()) if len(take) else -1.0, no_claim: float(stay.max()) if len(stay) else -1.0}
        labels = sorted(vals, key=lambda x: -vals[x])
        value = np.asarray([vals[x] for x in labels])
    else:
        df = advice(v, known=known)
        df = df[df.discard.isin(d.extra["legal"])].sort_values("p_win_within", ascending=False, kind="stable")
        labels = list(df.discard)
        value = df.p_win_within.to_numpy(dtype=np.float64)
    vs = value - value.max()
    return {"labels": labels, "value": value, "vs_best": vs, "vs_low": vs, "vs_high": vs, "p_win": value,
            "samples": 0}


def play_command(args: Any, game: Any, console: Console | None = None) -> Any:
    """``kaptai play kap-tai-shap`` (or ``kap-shap``): a person at ``--seat`` against the built-in players
    (``console``: the terminal; a scripted one in the tests)."""
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
    con = console if console is not None else Console(ascii=True if args.ascii else None, hints=args.hints)
    opp = parse_opponents(args.opponents, game.policies, N, args.seat)
    pols = seat_policies(HumanPolicy(con), opp, args.seat)
    unit = R.unit_of(cfg.rules)
    header = make_header(game.name, cfg.rules.to_dict(), N, [getattr(x, "name", str(x)) for x in pols], unit,
                         seed=args.seed, hands=args.hands)
    from kaptai.kts.commands import KAP_SHAP

    title = KAP_SHAP.title if N == 2 else game.title  # two players play Kap Shap (the rules, §7)
    r = cfg.rules
    say = (lambda text: con.say(without_asides(text))) if con.ascii else con.say
    say(f"{title}, {N} players, you are seat {args.seat}; the others: {', '.join(opp)}. Seat 0 deals the first "
        "hand; the deal passes to the next seat after every hand"
        + (" unless the dealer wins and keeps it (連莊); a dealer's win after a streak of k such wins "
           "scores +2k" if r.dealer_keeps_on_win else "")
        + ("; a drawn hand's pot is carried into the next hand" if r.drawn_hand == "carry" else "")
        + ". Type a tile (6-6, 66, or its name) to discard or claim, no to decline a claim; ? lists the legal "
          "moves, hint asks the advisor for its best moves, quit stops.")
    human = pols[args.seat]

    def before(_i: int, state: Any) -> None:  # as each hand starts: who deals, the streak, the pot
        human.table = state.seats(N)
        human.deal_note = ("you deal" if state.dealer == args.seat else f"seat {state.dealer} deals") + (
            f" (streak {state.streak}: a win scores +{2 * state.streak})" if state.streak else "") + (
            f", {_num(state.pot)} {unit} carried in the pot" if state.pot else "") + "; "

    events = R.hand_events(N, r, policies=pols, hands=args.hands, seed=args.seed, passing=True, before=before)
    # a person's seat makes this the reference engine: its search seats roll out in the compiled
    # twin (the same moves from the same stream, seconds faster a decision); narrated, the
    # person hears the other seats' discards and claims as they happen
    def describe(evs: list[dict[str, Any]], seat: int) -> str:
        tev = table_events(evs)  # the record numbers a hand's seats from its dealer; the person, the table's
        return "\n   ".join([hand_result(tev, seat, unit, con.ascii), *hand_settlement(tev, seat, r, unit, con.ascii)])

    with compiled_rollouts(), narrate():
        df = run_session(con, header, events, seat=args.seat, record=args.record, describe=describe)
    return Output(df, f"your results at seat {args.seat} ({unit})", list(df.columns))
