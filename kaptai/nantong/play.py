"""Nantong long cards (南通長牌) at the terminal, and its discards reviewed (``kaptai play`` / ``kaptai review``).

A person types the card to discard (``5w``, ``qz``), answers a discard (``win``, ``kong``,
``pong``, ``pass``: the prompt lists those open, and the header names the seat whose discard it
is), declares a kong by ``kong`` (when one is open), its card (``4w``) or ``ckong:4w`` (or says
``no``), and says yes or no to a self-drawn win and a 起手 set.  Every seat's moves are told as
they happen, from the events the record is made of (:class:`Narration`: each discard with what
became of it, kongs, 起手 sets, wins; the person's own draws named).  Each hand ends with who won
it and how (:func:`describe_hand`) and how the winner scored, item by item
(:func:`describe_scores`, from :func:`hand_scores`); hints give the advisor's value in its unit (:func:`hint_unit`): at a
discard the advisor's (:func:`advice`), at a claim every answer the prompt takes as the review
prices it (:func:`claim_hint`).
:func:`decisions` replays a record in the reference engine (:mod:`kaptai.nantong.records`) and
:func:`evaluate` values each discard with :func:`kaptai.nantong.advisor.advise` (the concealed
hand, the own exposed sets, the turned cards and every card face up elsewhere).

Examples
--------
>>> show(4, ascii=True), show(4, ascii=False)
('5w', '五萬(5w)')
"""

from __future__ import annotations

import functools
import sys
from collections.abc import Iterator, Mapping, Sequence
from typing import Any

from kaptai.core.play import Console, NarratedSeat, hint_rows, one_card, without_asides
from kaptai.core.review import Decision, carry_before, observe_script
from kaptai.errors import KaptaiError, UsageError
from kaptai.nantong.cards import format_card, parse_card
from kaptai.nantong.policies import PlayerView, Policy

__all__ = ["GAME", "HumanPolicy", "Narration", "show", "advice", "hint_unit", "claim_hint", "describe_hand",
           "hand_scores", "describe_scores", "hand_events",
           "decisions", "evaluate", "read", "play_command", "review_command"]

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


def hint_unit(rules: Any) -> str:
    """The unit of the advisor's ``value`` under ``rules`` for :func:`kaptai.core.play.hint_rows`:
    under ``rank_only`` the value is the win share, a probability (the same quantity as
    ``p_win``); under the other settlements the net in points.

    >>> from kaptai.nantong.rules import resolve_rules
    >>> hint_unit(resolve_rules(None)), hint_unit(resolve_rules(None, settlement="winner_collects"))
    ('probability', 'points')
    """
    return "probability" if rules.settlement == "rank_only" else "points"


def claim_hint(view: PlayerView, kind: int, options: Sequence[str], rules: Any, *, samples: int, seed: int,
               ascii: bool = True) -> str:
    """The hint at a claim prompt: every answer in ``options`` (what the prompt takes) with its
    value in the rules' unit (:func:`hint_unit`) and P(win), best first, as the review prices a
    claim (:func:`kaptai.nantong.claims.evaluate_claim`, ``samples`` layouts from
    ``seed``; a pong valued by the review's best discard after it, which the hint names).  The
    view must carry the hand's position (``extra['position']``, :func:`hand_events`' hand)."""
    from kaptai.nantong.claims import evaluate_claim

    src, pos = view.extra.get("claim_of"), view.extra.get("position")
    if src is None or pos is None:
        raise UsageError("this table kept no position to price the answers from")
    if src[1] != "discard":
        raise UsageError("the answers to a kong that may be robbed are not priced (only those to a discard)")
    ev = evaluate_claim(pos[0], pos[1], view.seat, src[0], kind, options, samples=samples, seed=seed)
    text = hint_rows(ev["labels"], list(ev["value"]), "value", top=len(ev["labels"]), p_win=list(ev["p_win"]),
                     unit=hint_unit(rules))
    if ev["after_pong"] is not None:
        text += f"   (after a pong, discard {show(ev['after_pong'], ascii)})"
    return text


def _yes(t: str) -> bool:
    w = t.strip().lower()
    if w in ("y", "yes"):
        return True
    if w in ("n", "no"):
        return False
    raise UsageError("answer yes or no")


class Narration:
    """The lines that tell the person at the hand's seat ``me`` the hand's events as they happen:
    called with each event as the record writes it (:mod:`kaptai.nantong.records`: ``expose``,
    ``draw``, ``discard``, ``kong``, ``claim``, ``meld``, ``dead``, ``win``), it returns the lines
    to print now; :meth:`flush` returns what is still held.  ``seats``: the table's seat of each of
    the hand's seats (a rotating deal; None: the hand's own, or a ``deal`` event's ``seats``),
    which the lines name.

    A discard (or a kong added to a pong, which may be robbed) is told in one line with what
    became of the card (taken for a pong or a kong, and by whom, won on, or left face up), so it
    is held until that is known; another seat's draws are counted, not named, and told with its
    next move; the person's own draws are named.  The seats' answers to a discard are not told
    (a pass is silent at the table): only the claim taken.  :attr:`face_up` keeps each seat's
    discards that nobody took (by the hand's seat).

    Examples
    --------
    >>> n = Narration(1, seats=[2, 0, 1])
    >>> n({"type": "discard", "seat": 0, "cards": "6t", "after_draw": False})
    []
    >>> n({"type": "claim", "seat": 1, "cards": "6t", "choice": "pass"})
    []
    >>> n({"type": "dead", "seat": 0, "cards": "6t"})
    ['seat 2 discards 6t: nobody takes it']
    >>> n({"type": "draw", "seat": 1, "cards": "4w"})
    ['you draw 4w']
    >>> n({"type": "discard", "seat": 1, "cards": "qz", "after_draw": True})
    []
    >>> n({"type": "meld", "seat": 2, "cards": "qz", "meld": "pong"})
    ['you discard qz: seat 1 pongs it (pong:qz)']
    >>> n({"type": "draw", "seat": 0, "cards": "bh"}), n({"type": "kong", "seat": 0, "cards": "bh", "kong": "ckong"})
    ([], ['seat 2 draws and declares a concealed kong of bh, shown in its sets (ckong:bh)'])
    >>> n({"type": "draw", "seat": 0, "cards": "1w"}), n({"type": "discard", "seat": 0, "cards": "5b"})
    ([], [])
    >>> n({"type": "win", "seat": 1, "cards": "5b", "win_type": "discard"})
    ['seat 2 draws and discards 5b: you win on it']
    >>> n.face_up
    {0: [14]}
    """

    def __init__(self, me: int, seats: Sequence[int] | None = None, ascii: bool = True):
        self.me, self.ascii = int(me), bool(ascii)
        self.seats = None if seats is None else [int(p) for p in seats]
        #: each hand seat's discards that nobody took, in order (kinds)
        self.face_up: dict[int, list[int]] = {}
        self.drawn: tuple[int, int] = (-1, 0)  # another seat's draws not yet told: (seat, count)
        self.offer: tuple[str, int, int, str] | None = None  # ('discard' or 'kong', seat, kind, its line)

    def at(self, s: int) -> int:
        """The table's seat of the hand's seat ``s``."""
        return self.seats[s] if self.seats is not None else int(s)

    def _who(self, s: int) -> str:
        return "you" if s == self.me else f"seat {self.at(s)}"

    def _does(self, s: int, verb: str, third: str | None = None) -> str:
        """``'you draw'``, ``'seat 2 draws'``."""
        return f"you {verb}" if s == self.me else f"seat {self.at(s)} {third or verb + 's'}"

    def _its(self, s: int) -> str:
        return "your" if s == self.me else "its"

    def _card(self, ev: Mapping[str, Any]) -> tuple[int, str]:
        k = int(parse_card(str(ev["cards"])))
        return k, show(k, self.ascii)

    def _text(self, line: str) -> str:
        return without_asides(line) if self.ascii else line

    def _acts(self, s: int, verb: str, third: str | None = None) -> str:
        """The start of a line on seat ``s``'s move, with its draws not yet told (``'seat 2
        draws and discards'``)."""
        if s != self.me and self.drawn[0] == s and self.drawn[1]:
            n = self.drawn[1]
            self.drawn = (-1, 0)
            return f"seat {self.at(s)} draws{'' if n == 1 else f' {n} cards'} and {third or verb + 's'}"
        return self._does(s, verb, third)

    def _told_draws(self, but: int = -2) -> list[str]:
        """The line of another seat's draws not yet told (none when they are seat ``but``'s)."""
        s, n = self.drawn
        if n == 0 or s == but:
            return []
        self.drawn = (-1, 0)
        return [f"seat {self.at(s)} draws" + ("" if n == 1 else f" {n} cards")]

    def _told_offer(self) -> list[str]:
        off, self.offer = self.offer, None
        return [] if off is None else [self._text(off[3])]

    def _offered(self, k: int) -> str:
        """The held line of the card on offer (kind ``k``), to be told with what became of it."""
        off, self.offer = self.offer, None
        return off[3] if off is not None and off[2] == k else show(k, self.ascii)

    def __call__(self, ev: Mapping[str, Any]) -> list[str]:
        t = ev.get("type")
        if t == "claim":  # an answer: the claim taken is told with the discard
            return []
        if t == "deal":
            if self.seats is None and ev.get("seats"):
                self.seats = [int(p) for p in ev["seats"]]
            return []
        if t == "settle":
            return self.flush()
        s = int(ev.get("seat", -1))
        out: list[str] = []
        if self.offer is not None and t not in ("meld", "dead", "win"):
            out += self._told_offer()  # a kong added to a pong, not robbed
        out += self._told_draws(but=s)
        if t == "expose":
            k, card = self._card(ev)
            n = int(ev.get("count", 0))
            what = (("a hezi" if n == 2 else "a qishou set") if self.ascii else
                    ("a 和子 (hezi)" if n == 2 else "a 起手 set (qishou)"))
            out.append(self._text(f"{self._acts(s, 'lay', 'lays')} out {n} {card}, {what}"))
        elif t == "draw":
            if s == self.me:
                out.append(f"you draw {self._card(ev)[1]}")
            else:
                self.drawn = (s, self.drawn[1] + 1)
        elif t == "discard":
            k, card = self._card(ev)
            self.offer = ("discard", s, k, f"{self._acts(s, 'discard')} {card}")
        elif t == "kong":
            k, card = self._card(ev)
            code = format_card(k)
            if ev.get("kong") == "ckong":
                out.append(self._text(f"{self._acts(s, 'declare')} a concealed kong (暗槓) of {card}, shown in "
                                      f"{self._its(s)} sets (ckong:{code})"))
            else:  # held: it may be robbed
                self.offer = ("kong", s, k, f"{self._acts(s, 'add')} {card} to {self._its(s)} pong: an open kong "
                                            f"(明槓) (mkong:{code})")
        elif t == "meld":
            k, _card = self._card(ev)
            code = format_card(k)
            what = (f"{self._does(s, 'pong')} it (pong:{code})" if ev.get("meld") == "pong" else
                    f"{self._does(s, 'take')} it for an open kong (明槓) (mkong:{code})")
            out.append(self._text(f"{self._offered(k)}: {what}"))
        elif t == "dead":
            k, _card = self._card(ev)
            out.append(self._text(f"{self._offered(k)}: nobody takes it"))
            self.face_up.setdefault(s, []).append(k)
        elif t == "win":
            wt = ev.get("win_type")
            if wt == "tiancheng":
                out.append(self._text(f"{self._who(s)} (the dealer) complete{'' if s == self.me else 's'} at the "
                                      "deal (天成)"))
            elif wt == "self":
                card = self._card(ev)[1]
                out.append(self._text(f"{self._acts(s, 'complete')} the hand (胡), self-drawn (自摸) with {card}"))
            else:  # on a discard, or robbing a kong
                k, card = self._card(ev)
                wins = "win" if s == self.me else "wins"
                if self.offer is not None and self.offer[2] == k:
                    off, self.offer = self.offer, None
                    how = (f"rob{'' if s == self.me else 's'} the kong and {wins}" if off[0] == "kong"
                           else f"{wins} on it")
                    out.append(self._text(f"{off[3]}: {self._who(s)} {how} (胡)"))
                else:  # a second completer on the same discard
                    out.append(self._text(f"{self._who(s)} also {wins} on {card} (胡)"))
        return out

    def flush(self) -> list[str]:
        """What is still held: a discard or kong not yet told, another seat's draws."""
        return self._told_offer() + self._told_draws()


class HumanPolicy(NarratedSeat, Policy):
    """A seat played by a person at the terminal."""

    name = "human"
    #: The table's seat of each of the hand's seats (the engine's, numbered from the dealer),
    #: which the table shows: set before each hand of a rotating deal (None: the hand's own).
    seats: Sequence[int] | None = None

    def __init__(self, console: Console, rules: Any, players: int, hint_samples: int = 64):
        self.console, self.rules, self.players, self.hint_samples = console, rules, players, hint_samples
        self._story: Narration | None = None
        self._drew: int | None = None  # the card the person drew last, while it is their turn

    def _seat(self, s: int) -> int:
        """The table's seat of the hand's seat ``s``."""
        return int(self.seats[s]) if self.seats is not None else int(s)

    def start_hand(self, me: int) -> None:
        """A hand starts with this policy at the hand's seat ``me``: its narration starts
        (:class:`Narration`, the table's seats :attr:`seats`)."""
        self._story = Narration(me, self.seats, self.console.ascii)
        self._drew = None

    def notice(self, ev: Mapping[str, Any]) -> None:
        """One event of the hand being played, as its record writes it: the console prints what
        :class:`Narration` makes of it (:func:`_table_hand` calls it as the event happens)."""
        if self._story is None:
            return
        me = self._story.me
        if ev.get("seat") == me and ev.get("type") in ("draw", "discard", "kong", "meld", "expose"):
            self._drew = int(parse_card(str(ev["cards"]))) if ev["type"] == "draw" else None
        self.tell(ev)

    def _drawn(self, what: str) -> str:
        """``what``, with the card the person has just drawn (told by the narration)."""
        return what if self._drew is None else f"{what} (you drew {show(self._drew, self.console.ascii)})"

    def _table(self, view: PlayerView, what: str) -> None:
        con, a = self.console, self.console.ascii
        melds = "; ".join(f"seat {p}{' (you)' if s == view.seat else ''}: {_melds_text(m)}"
                          for p, s, m in sorted((self._seat(s), s, m) for s, m in enumerate(view.melds) if m))
        story = self._story
        if story is not None:  # every discard nobody took, by the seat that threw it
            piles = sorted((story.at(s), s, ks) for s, ks in story.face_up.items() if ks)
            text = "; ".join(f"seat {p}{' (you)' if s == view.seat else ''}: {' '.join(show(k, a) for k in ks)}"
                             for p, s, ks in piles)
            discards = f"discards nobody took: {text or 'none'}"
        else:
            discards = f"last discards: {' '.join(show(k, a) for k in view.discards[-8:]) or 'none'}"
        con.say("", f"-- Nantong, seat {self._seat(view.seat)} (you): {what}; stock {view.stock_left} --",
                f"turned: {' '.join(show(k, a) for k in view.turned) or 'none'}; sets: {melds or 'none'}",
                discards,
                f"your hand: {' '.join(show(k, a) for k in _kinds(view.hand))}")

    def discard(self, view: PlayerView) -> int:
        self._table(view, self._drawn("your discard"))
        held = [k for k in range(len(view.hand)) if view.hand[k]]

        def parse(t: str) -> int:
            k = int(one_card(t, parse_card, words=("win", "hu", "pong", "kong", "pass", "no", "yes"),
                             here="discard a card of your hand"))
            if k not in held:
                raise UsageError(f"{format_card(k)} is not in your hand")
            return k

        def hint() -> str:
            df = advice(view, self.rules, self.players, samples=self.hint_samples, seed=view.stock_left)
            return hint_rows([str(x) for x in df.discard], list(df.value), "value", p_win=list(df.p_win),
                             unit=hint_unit(self.rules), vs_best=list(zip(df.vs_best_low, df.vs_best_high)))

        return self.console.ask("discard", parse, [format_card(k) for k in held], hint)

    def claim(self, view: PlayerView, kind: int, options: tuple[str, ...]) -> str:
        card = show(kind, self.console.ascii)
        src = view.extra.get("claim_of")  # (seat, 'discard' or 'kong'): set by this module's table
        if src is None:
            what = f"the discard is {card}"
        elif src[1] == "kong":
            what = f"seat {self._seat(src[0])} adds {card} to a pong (rob the kong?)"
        else:
            what = f"seat {self._seat(src[0])} discards {card}"
        self._table(view, what)

        def parse(t: str) -> str:
            w = t.strip().lower()
            if w not in options:
                raise UsageError(f"{w!r} is not open to you here")
            return w

        def hint() -> str:
            return claim_hint(view, kind, options, self.rules, samples=self.hint_samples, seed=view.stock_left,
                              ascii=self.console.ascii)

        return self.console.ask(f"answer ({'/'.join(options)})", parse, list(options), hint)

    def self_win(self, view: PlayerView) -> bool:
        self._table(view, self._drawn("your hand is complete"))
        return self.console.ask("declare the win? (yes/no)", _yes, ["yes", "no"])

    def self_kong(self, view: PlayerView, options: tuple[tuple[str, int], ...]) -> Any:
        self._table(view, self._drawn("a kong is open to you"))
        labels = [f"{t}:{format_card(k)}" for t, k in options]
        cards = [format_card(k) for _, k in options]

        def parse(t: str) -> Any:
            w = " ".join(t.strip().lower().replace(":", " ").split())
            if w in ("no", "n", "none", "pass"):
                return None
            if w in ("kong", "yes", "y"):
                if len(options) == 1:
                    return options[0]
                raise UsageError(f"{len(options)} kongs are open to you: name the card ({', '.join(cards)})")
            words = w.split()
            if len(words) == 2 and words[0] in ("kong", "ckong", "mkong"):
                typ, w = words
            elif len(words) == 1:
                typ = "kong"
            else:
                raise UsageError(f"{t.strip()!r} is not a kong you can declare")
            try:
                k = int(parse_card(w))
            except KaptaiError:
                raise UsageError(f"{t.strip()!r} is not a kong you can declare") from None
            for o in options:
                if o[1] == k and typ in ("kong", o[0]):
                    return o
            raise UsageError(f"{t.strip()!r} is not a kong you can declare")

        if len(options) == 1:
            t, k = options[0]
            prompt = f"declare the kong {t}:{show(k, self.console.ascii)}? (kong/no)"
            legal = ["kong", "no"]
        else:
            prompt = f"kong ({'/'.join(cards)}/no)"
            legal = [*cards, "no"]
        return self.console.ask(prompt, parse, legal)

    def qishou(self, view: PlayerView, meld: tuple[str, int]) -> bool:
        self._table(view, f"起手 set {meld[0]}:{format_card(meld[1])}")
        return self.console.ask("expose it? (yes/no)", _yes, ["yes", "no"])


def read(path: Any, game: str = GAME) -> Any:
    """A parsed record of this game."""
    from kaptai.records import read_record

    return read_record(path, game)


@functools.lru_cache(maxsize=None)
def _table_hand() -> type:
    """The reference hand of a table with a person (:class:`kaptai.nantong.records._Logged`, its
    play unchanged): a view handed to a seat asked to claim says whose card it is
    (``extra['claim_of']``: the seat, and ``'discard'`` or ``'kong'`` for a kong that may be
    robbed), which the engine's claim call knows and the view alone does not, and the hand's
    position (``extra['position']``: the engine's configuration and
    :func:`kaptai.nantong.engine_reference.hand_state`) for the claim hint (:func:`claim_hint`)."""
    from kaptai.nantong import records as R

    class _TableHand(R._Logged):
        claim_of: tuple[int, str] | None = None

        def _claim(self, j: int, kind: int, opts: tuple[str, ...], cur: int = -1) -> str:
            last = next((e["type"] for e in reversed(self.events) if e["type"] in ("discard", "kong")), "discard")
            self.claim_of = (cur, last)
            try:
                return str(super()._claim(j, kind, opts, cur))
            finally:
                self.claim_of = None

        def _people(self) -> list[tuple[int, HumanPolicy]]:
            return [(s, p) for s, p in enumerate(self.pols) if isinstance(p, HumanPolicy)]

        def play(self) -> dict:
            for s, p in self._people():
                p.start_hand(s)
            return super().play()

        def on_event(self, e: dict[str, Any]) -> None:
            super().on_event(e)
            for _s, p in self._people():  # told as it happens, as the record has it
                p.notice(e)

        def _finish(self, result: dict) -> dict:
            out = super()._finish(result)
            if not self.rollout:
                for _s, p in self._people():
                    p.flush()
            return out

        def view(self, s: int, last: int | None = None) -> PlayerView:
            from kaptai.nantong.engine_reference import hand_state

            v = super().view(s, last)
            if self.claim_of is not None:
                v.extra["claim_of"] = self.claim_of
                v.extra["position"] = (self.cfg, hand_state(self))  # what the claim hint plays out
            return v

    return _TableHand


def hand_events(players: int, rules: Any, policies: Sequence[Any], *, hands: int,
                seed: int | None) -> Iterator[list[dict[str, Any]]]:
    """The hands of a table with a person, each hand's events as
    :func:`kaptai.nantong.records.hand_events` writes them (the same deals from the same seed,
    the same record), played by :func:`_table_hand`'s hand so that the person is told whose
    discard they answer."""
    from kaptai.nantong import records as R

    return R.hand_events(players, rules, policies=list(policies), hands=hands, seed=seed,
                         hand_class=_table_hand())


#: Where the sitter of a 4-player table sits from the dealer (its seat minus the dealer's).
_SITTER_PLACE = {1: "下家", 2: "對家", 3: "上家"}
_SITTER_PLACE_ASCII = {1: "xiajia, the next player", 2: "duijia, opposite", 3: "shangjia, the previous player"}


def rotating_hands(players: int, rules: Any, table: Sequence[Any], *, hands: int, seed: int | None,
                   before: Any = None, first: int = 0) -> Iterator[list[dict[str, Any]]]:
    """The hands of a table whose deal rotates as the rules have it (不設連莊: the 下家 deals
    after every hand; with 4 players the outgoing dealer sits out the next hand, the dealer's 上家;
    :func:`kaptai.nantong.config.hand_seats`): ``table`` holds one policy per seat of the table
    (seat ``first`` deals hand 0), hand ``i`` is played by the active ones in the engine's order (from
    the dealer) on :func:`hand_events`' deal ``i``, and its ``deal`` event says the table's seat
    of each of the hand's seats (``seats``), its ``settle``'s result is by the table's seat.
    ``before(i, seats)`` is called as hand ``i`` starts."""
    from kaptai.nantong import records as R
    from kaptai.nantong.config import hand_seats, make_config

    cfg = make_config(players, rules)
    if len(table) != cfg.players:
        raise UsageError(f"{len(table)} policies for a table of {cfg.players}")
    for i in range(int(hands)):
        seats = hand_seats(cfg, i, first)
        if before is not None:
            before(i, seats)
        yield R.play_hand(cfg, [table[p] for p in seats[:cfg.active]], i, seed=seed, hand_class=_table_hand(),
                          seats=seats)


_HOW = {"self": "self-drawn (自摸)", "discard": "on a discard", "tiancheng": "complete at the deal (天成)"}


def describe_hand(events: Sequence[dict[str, Any]], seat: int, ascii: bool = True, rules: Any = None) -> str:
    """Who won a hand and how, from its events: the completer and the win type (荒牌 when
    nobody completed), every active seat's 胡數 total and the hand winner(s) (此局勝利者: the
    highest total, who may not have completed), ``seat`` marked as you, and who sat out (夢家);
    under ``rules`` with ``dreamer_shares='with_dealer'`` the sitter's share of the dealer's
    result (the settle's).  In the record of a
    rotating deal (its ``deal`` event says ``seats``) the seats are the table's, ``seat`` too.

    >>> evs = [{"type": "discard", "seat": 0, "cards": "5w"}, {"type": "win", "seat": 1, "cards": "5w",
    ...        "win_type": "discard"}, {"type": "settle", "win_type": "discard", "totals": [40, 120, 30],
    ...        "winners": [0, 1, 0], "result": [0.0, 1.0, 0.0]}]
    >>> print(describe_hand(evs, 0))
    seat 1 completed (hu) on your discard of 5w; hand winner: seat 1 with 120 hu; totals (hu): seat 0 (you) 40, seat 1 120, seat 2 30
    """
    seats = events[0].get("seats") if events and events[0].get("type") == "deal" else None

    def at(s: int) -> int:  # the table's seat of the hand's seat s (a rotating deal's record)
        return int(seats[s]) if seats is not None else s

    def who(s: int) -> str:
        return f"seat {at(s)} (you)" if at(s) == seat else f"seat {at(s)}"

    def whose(s: int) -> str:
        return "your" if at(s) == seat else f"seat {at(s)}'s"

    def card(c: str) -> str:
        try:
            return show(int(parse_card(c)), ascii)
        except KaptaiError:
            return c

    hu = "hu" if ascii else "胡"
    settle = events[-1]
    totals = [int(x) for x in settle.get("totals", [])]
    winners = [s for s, w in enumerate(settle.get("winners", [])) if w]
    wins = [(i, e) for i, e in enumerate(events) if e.get("type") == "win"]
    parts = []
    if not wins:
        parts.append("荒牌: a drawn hand, nobody completed (the stock ran out)" if not ascii
                     else "a drawn hand (huang): nobody completed, the stock ran out")
    for i, e in wins:
        s, wt = int(e["seat"]), str(e.get("win_type", settle.get("win_type")))
        text = f"{who(s)} completed ({hu})"
        if wt == "discard":
            src = next((x for x in reversed(events[:i]) if x.get("type") in ("discard", "kong")), None)
            if src is not None and src.get("type") == "kong":
                text += f", robbing {whose(int(src['seat']))} kong of {card(str(src['cards']))}"
            elif src is not None:
                text += f" on {whose(int(src['seat']))} discard of {card(str(src['cards']))}"
            else:
                text += " on a discard"
        else:
            text += " " + _HOW.get(wt, wt)
            if wt == "self" and e.get("cards"):
                text += f" with {card(str(e['cards']))}"
        parts.append(text)
    if winners and totals:
        top = totals[winners[0]]
        if len(winners) == 1:
            parts.append(f"hand winner: {who(winners[0])} with {top} {hu}")
        else:
            parts.append(f"hand winners: {' and '.join(who(s) for s in winners)} with {top} {hu} each (a shared win)")
    if totals:
        parts.append(f"totals ({hu}): " + ", ".join(f"{who(s)} {totals[s]}"
                                                    for s in sorted(range(len(totals)), key=at)))
    res = settle.get("result", [])
    if len(res) > len(totals) > 0:
        sat = ", ".join(who(s) for s in range(len(totals), len(res))) + " sat out (夢家)"
        if getattr(rules, "dreamer_shares", "none") == "with_dealer":  # the settle's result, by the table's seat
            dealer = "your" if at(0) == seat else f"seat {at(0)}'s"
            sat += (f", sharing the dealer's ({dealer}) result: "
                    + ", ".join(f"{float(res[at(s)]):+g}" for s in range(len(totals), len(res))))
        parts.append(sat)
    text = "; ".join(parts)
    return without_asides(text) if ascii else text


def hand_scores(events: Sequence[dict[str, Any]], rules: Any) -> list[Any]:
    """Each active seat's :class:`kaptai.nantong.scoring.Score` at the end of a hand (the hand's
    seats), from its events (``deal`` ... ``settle``): the position the record leads to (the dealt
    cards, 起手 sets, draws, discards, kongs, claims and the winning card), scored by
    :func:`kaptai.nantong.scoring.score` as the engine scores it; None for a seat whose score is
    not the settle's total (a hand cut short by 荒牌 during 起手, when a seat may hold a card more).

    >>> from kaptai.nantong.records import hand_events
    >>> from kaptai.nantong.rules import resolve_rules
    >>> evs = next(hand_events(3, hands=1, seed=3, policies="random"))
    >>> [s.total for s in hand_scores(evs, resolve_rules(None))] == evs[-1]["totals"]
    True
    """
    from kaptai.nantong.cards import Meld, ScoreRecord
    from kaptai.nantong.policies import table_distance, table_waits
    from kaptai.nantong.rules import resolve_rules
    from kaptai.nantong.scoring import score

    rules = rules if hasattr(rules, "yazhuang_double") else resolve_rules(rules)
    deal = events[0]
    c = [[0] * 30 for _ in deal["hands"]]
    for s, text in enumerate(deal["hands"]):
        for tok in str(text).split():
            c[s][int(parse_card(tok))] += 1
    turned = tuple(int(parse_card(t)) for t in str(deal["turned"]).split())
    melds: list[list[tuple[str, int]]] = [[] for _ in c]
    yazhuang = [False] * len(c)
    wins: dict[int, tuple[str, int | None]] = {}
    dealt = True  # still in the deal's 起手 phase
    last: tuple[int, str, int] = (-1, "", -1)  # the last discard or added kong: seat, type, kind
    for e in events[1:]:
        t = e.get("type")
        if dealt and t not in ("expose", "draw"):
            dealt = False
            if rules.yazhuang_double:  # 壓莊, as the engine sets it before the first discard
                hs = int(rules.honour_sequence)
                yazhuang = [table_distance(c[0], hs) == 0] + [table_waits(c[s], hs) != 0 for s in range(1, len(c))]
        if t in ("deal", "claim", "dead", "settle"):
            continue
        s = int(e["seat"])
        k = int(parse_card(str(e["cards"]))) if e.get("cards") else -1
        if t == "expose":
            n = int(e["count"])
            c[s][k] -= n
            melds[s].append(("hezi" if n == 2 else "qishou", k))
        elif t == "draw":
            c[s][k] += 1
        elif t == "discard":
            c[s][k] -= 1
            last = (s, "discard", k)
        elif t == "kong":
            if e["kong"] == "ckong":
                c[s][k] -= 4
                melds[s].append(("ckong", k))
            else:
                c[s][k] -= 1
                melds[s][melds[s].index(("pong", k))] = ("mkong", k)
                last = (s, "kong", k)
        elif t == "meld":
            c[s][k] -= 2 if e["meld"] == "pong" else 3
            melds[s].append(("pong" if e["meld"] == "pong" else "mkong", k))
        elif t == "win":
            wt = str(e["win_type"])
            if wt == "discard":
                c[s][k] += 1
                if last[1] == "kong" and last[2] == k:  # robbed: the card leaves the kong
                    i = melds[last[0]].index(("mkong", k))
                    melds[last[0]][i] = ("pong", k)
            wins[s] = (wt, None if wt == "tiancheng" else k)
    totals = events[-1].get("totals", [])
    out: list[Any] = []
    for s in range(len(c)):
        win, card = wins.get(s, ("none", None))
        rec = ScoreRecord(jiang=turned, win=win, win_card=card, hand=tuple(k for k in range(30) for _ in range(c[s][k])),
                          melds=tuple(Meld(t, k) for t, k in melds[s]), yazhuang=bool(yazhuang[s]))
        try:
            sc = score(rec, rules)
        except KaptaiError:
            sc = None
        out.append(sc if sc is not None and (s >= len(totals) or sc.total == int(totals[s])) else None)
    return out


#: The scoring items' words in ASCII (:func:`describe_scores`).
_ITEM_WORDS = {"塌和": "tahe (mixed)", "葷和": "hunhe (all sequences)", "清和": "qinghe (all triplets)",
               "成胡": "for completing", "明刻": "exposed triplet", "暗刻": "concealed triplet",
               "明槓": "open kong", "暗槓": "concealed kong", "起手": "qishou set", "和子": "hezi",
               "文錢": "wenqian (1-2-3b)"}


def describe_scores(events: Sequence[dict[str, Any]], seat: int, rules: Any, ascii: bool = True) -> list[str]:
    """How the hand winner(s) and the completer(s) of a hand scored, one line each, in the rules
    page's terms: the win type and its 成胡, each set's 底胡 (明刻, 暗刻, 明槓, 暗槓, 起手, 和子),
    the winning-card bonus and 文錢, the 葷和 doubling and 破頭 (rounding up to tens), from
    :func:`hand_scores` (the settle's totals); ``seat`` is you (the table's seat where the deal
    says ``seats``).

    >>> from kaptai.nantong.records import hand_events
    >>> from kaptai.nantong.rules import resolve_rules
    >>> evs = next(hand_events(3, hands=1, seed=3, policies="random"))
    >>> lines = describe_scores(evs, 0, resolve_rules(None))
    >>> all(line.startswith("how ") for line in lines) and len(lines) >= 1
    True
    """
    seats = events[0].get("seats") if events and events[0].get("type") == "deal" else None
    settle = events[-1]
    scores = hand_scores(events, rules)
    winners = [s for s, w in enumerate(settle.get("winners", [])) if w]
    completers = [int(e["seat"]) for e in events if e.get("type") == "win"]
    hu = "hu" if ascii else "胡"
    out = []
    for s in dict.fromkeys(completers + winners):
        sc = scores[s] if s < len(scores) else None
        p = int(seats[s]) if seats is not None else s
        who = "you" if p == seat else f"seat {p}"
        if sc is None:
            continue
        items = []
        for label, v in sc.items:
            text = str(label)
            if ascii:
                for zh, en in _ITEM_WORDS.items():
                    text = text.replace(zh, en)
            items.append(f"{text} {v}")
        base = sc.chenghu + sc.dihu + sc.other
        line = f"how {who} scored ({sc.total} {hu}): " + (" + ".join(items) + f" = {base}" if items else "nothing, 0")
        value = base
        if sc.multiplier > 1:
            value = base * sc.multiplier
            line += f", x{sc.multiplier}" + ("" if sc.win_type != "hunhe" else " for hunhe" if ascii
                                               else " (葷和)") + f" = {value}"
        if sc.total != value:
            line += f", rounded up to tens (破頭): {sc.total}"
        out.append(without_asides(line) if ascii else line)
    return out


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
    replay's position at each (``extra['state']``, for the ``search`` advisor).  A decision's
    ``seat`` is the table's seat where the deal says the table's seats (``seats``: a rotating
    deal, ``kaptai play``), else the hand's; its view's ``seat`` is always the hand's (the
    engine's, numbered from the dealer)."""
    from kaptai.core.records import HandCursor, record_setup
    from kaptai.nantong import records as R

    cfg = record_setup(record, R.FORMAT)
    for i in (range(len(record.hands)) if hands is None else hands):
        hand = record.hands[i]
        seats = hand.deal.get("seats")
        sink: list = []
        states: dict[int, tuple] = {}
        with observe_script(R, "_Script", ("discard",), sink), _StateWatch(R, states):
            R.FORMAT.replay_hand(cfg, HandCursor(hand, record.path), carry_before(record, i, "seats"))  # type: ignore[misc]
        k = 0
        for _m, view, _args, move, _pos in sink:
            n = sum(1 for x in view.hand if x)
            kept = states.get(id(view))
            if n < 2 or kept is None or kept[0] is not view:  # not this replay's (another thread's)
                continue
            yield Decision(hand.index, int(seats[view.seat]) if seats else view.seat, k, "discard", view,
                           format_card(int(move)), n,
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


def play_command(args: Any, game: Any, console: Console | None = None) -> Any:
    """``kaptai play nantong``: a person at ``--seat`` against the built-in players (``console``:
    where to ask, default the terminal)."""
    from kaptai.core.play import parse_opponents, run_session, seat_policies
    from kaptai.core.records import make_header
    from kaptai.nantong import records as R
    from kaptai.nantong.config import first_dealer, make_config
    from kaptai.nantong.engine_reference import compiled_rollouts
    from kaptai.spec import Output

    rules = game.resolve_rules(args.rules, **dict(args.option or []))
    cfg = make_config(args.players, rules)
    P, N = cfg.players, cfg.active
    if args.seat >= P:
        raise UsageError(f"--seat {args.seat}: a table of {P} has seats 0 to {P - 1}")
    con = console if console is not None else Console(ascii=True if args.ascii else None, hints=args.hints)
    opp = parse_opponents(args.opponents, game.policies, P, args.seat)
    human = HumanPolicy(con, cfg.rules, cfg.players)
    table = seat_policies(human, opp, args.seat)
    unit = R.unit_of(cfg)
    header = make_header(GAME, cfg.rules.to_dict(), P, [getattr(x, "name", str(x)) for x in table], unit,
                         seed=args.seed, hands=args.hands)
    first = first_dealer(P, args.seed)
    shares = P > N and cfg.rules.dreamer_shares == "with_dealer"  # the sitter (夢家) shares the dealer's result
    con.say(f"Nantong, you are seat {args.seat}; the others: {', '.join(opp)}. Seat {first} deals the first hand "
            "(drawn at random), then "
            "the deal passes to the next seat (下家) after every hand"
            + ("; the outgoing dealer sits out the next hand (the new dealer's "
               + ("previous player" if con.ascii else "上家") + ")"
               + (" and shares that dealer's result" if shares else "") if P > N else "")
            + ". Type the card to discard (5w, qz); answer a discard with win/kong/pong/pass; ? lists the legal "
              "moves, quit stops.")

    def before(i: int, seats: Sequence[int]) -> None:
        human.seats = seats
        lines = ["", f"== hand {i}: seat {seats[0]} deals"]
        if P > N:
            place = (seats[N] - seats[0]) % P
            name = _SITTER_PLACE_ASCII[place] if con.ascii else _SITTER_PLACE[place]
            if seats[N] == args.seat:
                lines[-1] += f"; you sit out this hand (the dealer's {name})"
            else:
                lines[-1] += f"; seat {seats[N]} sits out (the dealer's {name})"
            if shares:
                lines[-1] += (", sharing the dealer's result (dreamer_shares=with_dealer)"
                              if seats[N] != args.seat else
                              f", and share seat {seats[0]}'s result (dreamer_shares=with_dealer)")
        con.say(*lines)

    events = rotating_hands(P, cfg.rules, table, hands=args.hands, seed=args.seed, before=before, first=first)

    def describe(evs: list[dict[str, Any]], seat: int) -> str:
        return "\n   ".join([describe_hand(evs, seat, ascii=con.ascii, rules=cfg.rules),
                              *describe_scores(evs, seat, cfg.rules, ascii=con.ascii)])

    # a person's seat makes this the reference engine: its search seats decide in the compiled
    # twin (the same decisions from the same streams, seconds faster each)
    with compiled_rollouts():
        df = run_session(con, header, events, seat=args.seat, record=args.record, describe=describe)
    return Output(df, f"your results at seat {args.seat} ({unit})", list(df.columns))


def review_command(args: Any, game: Any) -> Any:
    """``kaptai review nantong FILE --advisor advise``: every discard graded by :func:`evaluate`
    (``kaptai review nantong`` itself runs :func:`kaptai.nantong.review_search.review_command`,
    which picks the advisor: ``search`` by default)."""
    from kaptai.core.review import review_command as run

    return run(args, game, sys.modules[__name__])
