"""A person at the table: the terminal side of ``kaptai play <game>`` (no game names here).

A game's ``kaptai.<package>.play`` module gives a *human policy*: a :class:`Policy` of that game
whose decisions are asked on a :class:`Console`.  The console prints with plain ``print`` and
reads lines with ``input()`` (no mouse, no screen control, so it works over any terminal or a
pipe), refuses what it cannot parse with the legal choices listed and asks again (nothing is
lost), and ends the game cleanly on ``quit`` (or end of input) by raising :class:`QuitGame`,
which the play loop catches.

Examples
--------
>>> import io
>>> con = Console(ascii=True, lines=["7", "2", "quit"], out=io.StringIO())
>>> def pick(text):
...     if text not in ("1", "2"):
...         raise ValueError(f"{text!r} is not a choice")
...     return int(text)
>>> con.ask("your move", pick, ["1", "2"])
2
>>> "refused" in con.out.getvalue() and "legal: 1, 2" in con.out.getvalue()
True
>>> con.ask("your move", pick, ["1", "2"])
Traceback (most recent call last):
...
kaptai.core.play.QuitGame: quit at the prompt
"""

from __future__ import annotations

import functools
import math
import os
import re
import sys
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from typing import Any, TextIO, TypeVar

from kaptai.errors import KaptaiError, UsageError, quote_token

__all__ = ["QuitGame", "Console", "can_print", "QUIT_WORDS", "HELP_WORDS", "HINT_WORDS", "hint_rows", "run_session", "FinishedHands",
           "parse_opponents", "seat_policies"]

T = TypeVar("T")

#: Words that end the game at any prompt.
QUIT_WORDS: tuple[str, ...] = ("quit", "q", "exit")
#: Words that list the legal choices again.
HELP_WORDS: tuple[str, ...] = ("?", "help", "h")
#: Words that ask the advisor for a hint at this decision.
HINT_WORDS: tuple[str, ...] = ("hint",)
#: Legal moves listed at ``?`` or after a refusal; ``??`` lists every one.
LISTED = 30


def _listing(legal: Sequence[str], every: bool = False) -> str:
    """The legal moves as listed: all of them, or the first :data:`LISTED` and how many more.

    >>> _listing([str(i) for i in range(33)]).split(", ")[-3:]
    ['28', '29', '... 3 more (?? lists them all)']
    """
    if every or len(legal) <= LISTED:
        return ", ".join(legal)
    return ", ".join(legal[:LISTED]) + f", ... {len(legal) - LISTED} more (?? lists them all)"


#: A sample of the non-ASCII text the games print (Chinese names, suit symbols).
_SAMPLE = "天地人和鋤大D紅帥五萬♠♥♦♣"


class QuitGame(KaptaiError):
    """The person ended the game (``quit`` or end of input); the play loop stops cleanly."""


def can_print(stream: Any, sample: str = _SAMPLE) -> bool:
    """Whether ``stream``'s encoding can print Chinese names and suit symbols.

    >>> import io
    >>> can_print(io.TextIOWrapper(io.BytesIO(), encoding="ascii"))
    False
    >>> can_print(io.TextIOWrapper(io.BytesIO(), encoding="utf-8"))
    True
    """
    enc = getattr(stream, "encoding", None) or "ascii"
    try:
        sample.encode(enc)
    except (UnicodeEncodeError, LookupError):
        return False
    return True


class Console:
    """Line-based terminal I/O for a person's decisions.

    Parameters
    ----------
    ascii : bool, optional
        Print ASCII only (card codes instead of Chinese names and suit symbols); default: when
        ``out``'s encoding cannot print them.
    lines : iterable of str, optional
        Scripted input lines (tests); default ``input()``.
    out : text stream, optional
        Where to print (default ``sys.stdout``).
    hint : callable, optional
        ``hint(context) -> str``: the advisor's hint at a decision, shown when the person
        types ``hint`` (and before each decision when ``hints`` is on).
    hints : bool
        Show the hint before every decision.
    """

    def __init__(self, ascii: bool | None = None, lines: Iterable[str] | None = None, out: TextIO | None = None,
                 hints: bool = False):
        self.out: Any = out if out is not None else sys.stdout
        self.ascii = (not can_print(self.out)) if ascii is None else bool(ascii)
        self._lines = iter(lines) if lines is not None else None
        self.hints = bool(hints)
        self.decisions = 0

    def say(self, *lines: str) -> None:
        """Print lines (flushed, so a pipe or a pseudo-terminal sees them at once)."""
        for line in lines:
            text = str(line)
            if self.ascii:  # a Chinese name beside its English one or in a list of examples goes; any other is '?'
                text = _CJK_LISTED.sub("", without_asides(text)).encode("ascii", "replace").decode("ascii")
            print(text, file=self.out)
        try:
            self.out.flush()
        except (AttributeError, OSError):
            pass

    def _read(self, prompt: str) -> str:
        if self._lines is not None:
            try:
                line = next(self._lines)
            except StopIteration:
                raise QuitGame("end of input") from None
            self.say(f"{prompt}{line}")
            return line
        self.out.write(prompt)
        self.out.flush()
        try:
            return input()
        except EOFError:
            raise QuitGame("end of input") from None

    def ask(self, prompt: str, parse: Callable[[str], T], legal: Sequence[str],
            hint: Callable[[], str] | None = None) -> T:
        """Ask until a line parses; ``quit`` raises :class:`QuitGame`.

        Parameters
        ----------
        prompt : str
            Shown before the cursor (``"> "`` is appended).
        parse : callable
            ``parse(line) -> choice``; raises ``KaptaiError`` or ``ValueError`` for a line that
            is not a legal choice (its message is shown).
        legal : sequence of str
            The legal choices as the person may type them, listed after a refusal and on ``?``
            (the first :data:`LISTED` of a longer list, and ``??`` lists them all).
        hint : callable, optional
            The advisor's hint (``hint`` at the prompt; before the prompt with ``hints``).
        """
        self.decisions += 1
        if hint is not None and self.hints:
            self._hint(hint)
        while True:
            line = self._read(f"{prompt}> ").strip()
            word = line.lower()
            if word in QUIT_WORDS:
                raise QuitGame("quit at the prompt")
            if word in HELP_WORDS or word == "??" or not line:
                self.say("legal: " + _listing(legal, word == "??"),
                         "(type one of them; 'hint' for advice, 'quit' to stop)")
                continue
            if word in HINT_WORDS:
                if hint is None:
                    self.say("no hint at this decision")
                else:
                    self._hint(hint)
                continue
            try:
                return parse(line)
            except (KaptaiError, ValueError) as exc:
                self.say(f"refused {quote_token(line)}: {exc}", "legal: " + _listing(legal))

    def _hint(self, hint: Callable[[], str]) -> None:
        try:
            self.say(hint())
        except KaptaiError as exc:  # the advisor cannot price this position: say so, keep playing
            self.say(f"(no hint: {exc})")


#: A name in other characters in brackets after its English one ("Kap Tai Shap (夾大十)"): dropped in ASCII.
_CJK_ASIDE = re.compile(r"\s*\([^\x00-\x7f]+\)")
#: A name in other characters in a list ("such as 天, 長三, heaven") or before its code ("長三(4-5)").
_CJK_LISTED = re.compile(r"[^\x00-\x7f]+(?:,\s*|(?=\())")


def without_asides(text: str) -> str:
    """``text`` without the names in other characters in brackets after their English ones (an
    ASCII rendering).

    >>> without_asides("Kap Tai Shap (夾大十), self-drawn (自摸)")
    'Kap Tai Shap, self-drawn'
    """
    return _CJK_ASIDE.sub("", text)


def hint_rows(labels: Sequence[str], values: Sequence[float], what: str, top: int = 3,
              p_win: Sequence[float] | None = None, unit: str = "",
              vs_best: Sequence[tuple[float, float]] | None = None) -> str:
    """The advisor's best options as one short text block (``unit``: the unit of ``values``,
    printed after each; a probability has none and no sign).  ``vs_best``: each option's 95%
    interval of its difference to the first (paired, on the same sampled layouts), printed after
    every option but the first, so a person sees which gaps the sampling can tell apart.

    >>> print(hint_rows(["9S", "PASS"], [1.5, -0.25], "ev", unit="points"))
    hint (advisor): 1. 9S  ev +1.50 points   2. PASS  ev -0.25 points
    >>> print(hint_rows(["9S", "PASS"], [1.5, -0.25], "ev", unit="points",
    ...                 vs_best=[(0.0, 0.0), (-2.5, -1.0)]))
    hint (advisor): 1. 9S  ev +1.50 points   2. PASS  ev -0.25 points (vs 1.: -2.50 to -1.00)
    >>> print(hint_rows(["claim 2-5", "no_claim"], [0.31, 0.2], "P(win)", unit="probability"))
    hint (advisor): 1. claim 2-5  P(win) 0.31   2. no_claim  P(win) 0.20
    """
    parts = []
    for i, (lab, v) in enumerate(zip(labels[:top], values[:top])):
        if unit == "probability":
            s = f"{i + 1}. {lab}  {what} {v:.2f}"
        else:
            s = f"{i + 1}. {lab}  {what} {v:+.2f}" + (f" {unit}" if unit else "")
        if p_win is not None:
            s += f" P(win) {p_win[i]:.0%}"
        if vs_best is not None and i > 0:
            lo, hi = vs_best[i]
            s += f" (vs 1.: {lo:+.2f} to {hi:+.2f})"
        parts.append(s)
    return "hint (advisor): " + "   ".join(parts)


def one_card(text: str, parse: Callable[[str], T], what: str = "card",
             words: Sequence[str] = (), here: str = "") -> T:
    """``parse`` of a line that must name one card (a discard): two or more tokens, or a word
    that answers another kind of prompt (``words``; ``here`` says what this prompt wants), are
    refused with the reason; the parser's message loses its "(item 1)" (a line is one item).

    >>> one_card("5w", str.upper)
    '5W'
    >>> one_card("2w 3w", str.upper)
    Traceback (most recent call last):
    ...
    kaptai.errors.UsageError: one card at a time: '2w 3w' names 2
    >>> one_card("pong", str.upper, words=("pong",), here="discard a card of your hand")
    Traceback (most recent call last):
    ...
    kaptai.errors.UsageError: 'pong' is not asked here: discard a card of your hand
    """
    t = text.strip()
    if t.lower() in words:
        raise UsageError(f"{quote_token(t)} is not asked here: {here}")
    if len(t.split()) > 1:
        raise UsageError(f"one {what} at a time: {quote_token(t)} names {len(t.split())}")
    try:
        return parse(t)
    except KaptaiError as exc:
        raise UsageError(str(exc).replace(" (item 1)", "")) from None


def hand_settle(events: Sequence[dict[str, Any]]) -> dict[str, Any] | None:
    """The ``settle`` event of a hand's events (its last), or None for a hand that did not finish."""
    return next((e for e in reversed(events) if e.get("type") == "settle"), None)


def seat_word(s: int, me: int) -> str:
    """A seat as a hand's description names it: ``'you (seat 0)'`` for the person's, else ``'seat 2'``.

    >>> seat_word(0, 0), seat_word(2, 0)
    ('you (seat 0)', 'seat 2')
    """
    return f"you (seat {s})" if s == me else f"seat {s}"


def settled_description(fn: Callable[[dict[str, Any], Sequence[dict[str, Any]], Callable[[int], str]], str]
                        ) -> Callable[[Sequence[dict[str, Any]], int], str]:
    """A game's ``describe_hand(events, seat)`` from ``fn(settle, events, who)``, which words a
    finished hand (``who(s)``: :func:`seat_word` for the person's ``seat``); a hand with no
    ``settle`` did not finish."""

    @functools.wraps(fn)
    def describe(events: Sequence[dict[str, Any]], seat: int) -> str:
        st = hand_settle(events)
        if st is None:
            return "the hand did not finish"
        return fn(st, events, functools.partial(seat_word, me=seat))

    return describe


class NarratedSeat:
    """Part of a person's seat whose hand is told as it happens: :meth:`tell` prints the lines
    of ``_story`` (a narration: called with each event it returns the lines to print now, and
    its ``flush()`` what it still holds); :meth:`flush` prints what it holds."""

    console: Console
    _story: Any = None

    def tell(self, ev: Mapping[str, Any]) -> None:
        """Print what the narration makes of one event (nothing without a narration)."""
        if self._story is not None:
            self._say(self._story(ev))

    def flush(self) -> None:
        """Tell what the narration still holds (the hand's play is over)."""
        if self._story is not None:
            self._say(self._story.flush())

    def _say(self, lines: Sequence[str]) -> None:
        if lines:
            self.console.say(*lines)


class FinishedHands:
    """The hands an engine run has finished, handed over one by one while it runs: the
    ``on_hand`` callback of a game's ``hand_events`` (Big Two, nine-ten, Heaven Eleven, whose
    engine hands a session's hands to the play loop only when its run ends).  At ``quit``
    :func:`run_session` keeps those the run had finished but not yet handed over.

    Called as ``kept(index, events)`` with the hand's index in the session and its events; a
    hand handed over again (a run played again after drawing more spare decks) replaces it and
    those after it.

    Examples
    --------
    >>> kept = FinishedHands()
    >>> kept(0, ["a"]); kept(1, ["b"]); kept(1, ["b2"]); kept.hands
    [['a'], ['b2']]
    """

    def __init__(self) -> None:
        self.hands: list[list[dict[str, Any]]] = []
        #: ``on_finish(index, events)``, called as each hand is over (:func:`run_session` shows
        #: the hand's result there, when it happens, not when the engine's run ends)
        self.on_finish: Callable[[int, list[dict[str, Any]]], None] | None = None

    def __call__(self, index: int, events: list[dict[str, Any]]) -> None:
        del self.hands[index:]
        if index != len(self.hands):
            raise KaptaiError(f"hand {index} handed over after only {len(self.hands)} hand(s)")
        self.hands.append(events)
        if self.on_finish is not None:
            self.on_finish(index, events)


def run_session(console: Console, header: dict[str, Any], hands: Iterator[list[dict[str, Any]]], *,
                seat: int, record: str | None = None, finished: FinishedHands | None = None,
                describe: Callable[[list[dict[str, Any]], int], str] | None = None) -> Any:
    """Play a session: each hand's events as the engine hands them over, its result shown as
    the hand ends; ``quit`` (or end of input, or Ctrl-C) stops it.  The finished hands are
    written to ``record`` (a game record, ``docs/records.md``; written whole or not at all, and
    not at all when no hand finished, so that an existing file is left as it was) and returned
    as a table, one row per hand (numbered from 0, as in the record and in ``kaptai review``):
    the hand, each seat's result, and the person's seat's result.  With ``finished``, the hands
    the engine had finished but not yet handed over are kept too (:class:`FinishedHands`): a
    finished hand is never lost.  Ctrl-C keeps them as ``quit`` does, then stops the command as
    interrupted.

    Parameters
    ----------
    console : Console
    header : dict
        The record's header (:func:`kaptai.core.records.make_header`).
    hands : iterator of lists of events
        Each hand's events, ``deal`` ... ``settle`` (the game's ``hand_events``, the person's
        policy at ``seat``).
    seat : int
    record : str, optional
        Where to write the record.
    finished : FinishedHands, optional
        For an engine that hands the hands over only at the end of its run: the ``on_hand``
        collector of the run behind ``hands``.
    describe : callable, optional
        ``describe(events, seat) -> str``: who won the hand and how, shown under its result.
    """
    import pandas as pd

    from kaptai.core.records import write_record

    unit = header.get("unit", "")
    shown: dict[int, list[float]] = {}  # each announced hand's results

    def results(values: Sequence[float]) -> str:
        mine = values[seat] if seat < len(values) else math.nan
        return f"you {mine:+g} {unit}; every seat: " + ", ".join(f"{s}: {v:+g}" for s, v in enumerate(values))

    def totals() -> str:
        tot = [math.fsum(col) for col in zip(*shown.values())] if shown else []
        return f"totals after {len(shown)} hand(s): {results(tot)}"

    def announce(index: int, evs: list[dict[str, Any]]) -> None:
        if index in shown:
            return
        res = evs[-1].get("result", [])
        shown[index] = [float(v) for v in res]
        lines = ["", f"== hand {index} over: {results(res)}"]
        if describe is not None:
            lines.append("   " + describe(evs, seat))
        if len(shown) > 1:
            lines.append("   " + totals())
        console.say(*lines)

    if finished is not None:
        finished.on_finish = announce
    done: list[list[dict[str, Any]]] = []
    quit_reason = None
    interrupt: KeyboardInterrupt | None = None
    try:
        for evs in hands:
            done.append(evs)
            announce(len(done) - 1, evs)
    except (QuitGame, KeyboardInterrupt) as exc:
        if isinstance(exc, KeyboardInterrupt):
            interrupt, quit_reason = exc, "interrupted (Ctrl-C)"
        else:
            quit_reason = str(exc)
        if finished is not None and len(finished.hands) > len(done):
            done = list(finished.hands)  # the hands handed over are its first ones
            console.say(f"keeping the {len(done)} finished hand(s)")
            for i, evs in enumerate(done):
                announce(i, evs)
        console.say("", f"game ended ({quit_reason}) after {len(done)} finished hand(s)")
    finally:
        if finished is not None:
            finished.on_finish = None
    if shown:
        console.say("", totals())
    rows = []
    for i, evs in enumerate(done):
        res = evs[-1].get("result", [])
        row: dict[str, Any] = {"hand": i, "you": float(res[seat]) if seat < len(res) else math.nan}
        for s, v in enumerate(res):
            row[f"seat_{s}"] = float(v)
        rows.append(row)
    df = pd.DataFrame(rows, columns=["hand", "you", *(f"seat_{s}" for s in range(int(header["players"])))])
    df.attrs.update({"game": header.get("game"), "seat": seat, "quit": quit_reason, "unit": unit,
                     "record": record})
    if record and done:
        h = dict(header)
        h["hands"] = len(done)
        write_record(record, h, done)
        console.say(f"record of {len(done)} hand(s) written to {record} (review it: kaptai review "
                    f"{header.get('game')} {record} --seat {seat})")
    elif record:
        console.say(f"no hand finished: no record written ({record} left as it was)"
                    if os.path.exists(record) else "no hand finished: no record written")
    if interrupt is not None:
        raise interrupt
    return df


def parse_opponents(text: str, names: Sequence[str], players: int, seat: int) -> list[str]:
    """``--opponents``: one policy name for every other seat, or one per other seat (comma
    separated, in seat order).

    >>> parse_opponents("greedy", ("greedy", "random"), 4, 0)
    ['greedy', 'greedy', 'greedy']
    >>> parse_opponents("greedy,random", ("greedy", "random"), 3, 1)
    ['greedy', 'random']
    >>> parse_opponents("best", ("greedy", "random"), 3, 1)
    Traceback (most recent call last):
    ...
    kaptai.errors.UsageError: --opponents: unknown policy 'best': expected one of greedy, random
    """
    items = [t.strip() for t in str(text).split(",")]
    for t in items:
        if t not in names:
            raise UsageError(f"--opponents: unknown policy {quote_token(t)}: expected one of {', '.join(names)}")
    if len(items) == 1:
        return items * (players - 1)
    if len(items) != players - 1:
        raise UsageError(f"--opponents: {len(items)} policies for {players - 1} other seats: give one, or one "
                         "per other seat")
    return items


def seat_policies(human: Any, opponents: Sequence[Any], seat: int) -> list[Any]:
    """The table's policies: ``human`` at ``seat``, the opponents at the other seats in order.

    >>> seat_policies("H", ["a", "b", "c"], 2)
    ['a', 'b', 'H', 'c']
    """
    out = list(opponents)
    out.insert(seat, human)
    return out


def _file_check(what: str, kinds: tuple[str, ...]) -> Callable[[str], str]:
    def check(text: str) -> str:
        from kaptai.core.paths import check_output_path

        if text != text.strip() or "\x00" in text:
            raise ValueError(f"{quote_token(text)} is not a usable path")
        try:
            check_output_path(text, kinds, what=what)
        except KaptaiError as exc:
            raise ValueError(str(exc).removeprefix(what + " ")) from None
        return text

    return check


def play_options(players: Any, presets: Sequence[str], policies: Sequence[str], default_opponents: str,
                 max_players: int, seat_help: str | None = None) -> tuple:
    """The declared options of ``kaptai play <game>`` (``players``: the game's ``--players``
    option, or None where the table size is fixed; ``seat_help``: what ``--seat`` numbers, where
    the game says more than the default)."""
    from kaptai.core import cli_options as o
    from kaptai.spec import Opt

    out: list = []
    if players is not None:
        out.append(players)
    out += [
        Opt("--seat", "int", default=0, lo=0, hi=max_players - 1, unit="seat",
            help=seat_help or "your seat at the table, the seats numbered from 0 in turn order (the others are the "
                              "built-in players)"),
        Opt("--opponents", "str", default=default_opponents, metavar="POLICIES", sample=policies[0],
            help="the built-in players at the other seats: one policy for all, or one per other seat in seat "
                 f"order, comma separated ({', '.join(policies)}; default {default_opponents})"),
        *o.rules(presets),
        o.hands(1, "hands to play"),
        Opt("--seed", "int", default=0, lo=0, hi=o.MAX_SEED, unit="seed",
            help="seed of the deals and of the built-in players' draws (the same seed, the same deals)"),
        Opt("--hints", "flag", help="show the advisor's best options before each of your decisions (type 'hint' "
                                    "at any prompt for one)"),
        Opt("--record", "str", default=None, metavar="FILE", check=_file_check("--record", ("jsonl",)),
            sample="my-game.jsonl",
            help="write the game as a record to FILE (.jsonl, docs/records.md) for kaptai review"),
        Opt("--ascii", "flag", help="card and tile codes only (default: Chinese names and suit symbols where "
                                    "the terminal can print them)"),
    ]
    return tuple(out)
