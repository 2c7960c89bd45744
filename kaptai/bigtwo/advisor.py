"""The Big Two (鋤大D) advisor: every legal play of a position with its expected value.

A player types the position as they see it -- their hand, the cards already played, the
play to beat and who made it -- and :func:`advise` answers with every legal play (and PASS
where passing is legal), each with its expected net result for the hand in the game's unit
(points x ``stake`` under the scoring in force) and P(win the hand), each with a 95%
interval, best first.

Method
------
The position is evaluated by the ``search`` policy's own evaluation (``docs/big-two-engine.md``,
"search"; compiled, nogil): layouts of the unseen cards are dealt to the other
seats at random, consistent with their card counts, each other seat playing a style drawn for the
layout (``contest``, ``greedy`` or ``heuristic``); every option is played on every layout (common
random numbers) and the rest of the hand is played out, the player by the rollout policy
(``greedy``).  Given the hand's ``history`` (every play and pass in order), each layout is drawn
as the search player draws its own: from a pool of ``search_pool`` layouts weighed by how well
their hands and styles explain what each other seat played and passed, one picked by weight (the
search's inference and importance resampling); without it the layouts are uniform, as only the
cards played are known.  The value
of an option is the mean of the seat's net over the layouts; its interval is the normal
interval of that mean, P(win) has a Wilson interval; ``vs_best`` is the paired difference to the
best option (the same layouts), with its 95% interval.  Layouts are drawn in batches until the best
option's lead over the second is resolved or the time budget (150 ms) is spent, or exactly
``samples`` of them (:mod:`kaptai.core.advise`; ``samples=N`` reproduces a budgeted answer that used
N).  Equal values share a rank (competition ranking, "1224").  So the numbers answer "against
players who play like the rollout policy, from a random layout consistent with the counts".
Big Two is a shedding game: a hand is won by playing out, there is no complete hand to declare, so
no "win" row.

What is derived from the rules
------------------------------
* With ``history`` the actions go round the table from the first lead (a trick ends after
  ``players - 1`` passes in a row and its winner leads; under ``pass_locks_out`` a locked seat's
  automatic passes are not typed), so the seats, the cards played, the play to beat, its maker
  and every seat's count (the deal's size less what the seat played; the leftover cards go to the
  holder of the lowest card) follow from it.  Each play is checked: a combination, cards neither
  played before nor in the hand, beating the play on the table, no seat playing more cards than it
  was dealt, the opening play holding the lowest card (which no later play holds, also under
  ``malaysian_3p``); under ``first_lead='lowest_card'`` the first leader is the lowest card's
  holder (the player if the hand holds it, whoever played it); given ``cards_left`` must be each
  seat's deal less what it played; a pass by a seat that held (played later, or the player's hand)
  a play beating the table is refused under ``pass_only_if_unable``, and under
  ``top_rule='mandatory'`` a single lead below, a pass or a single below a card so held while the
  next seat held one card.  Under ``first_lead='previous_winner'`` the history cannot say whether
  the hand is a match's first (whose opening must hold the lowest card): its opening is taken as free.
* Seats are numbered from the player (0) in the direction of play: 1 is the next player
  (下家), ``players - 1`` the previous one (上家).  ``by`` defaults to the previous player.
* The seats between ``by`` and the player have passed since that play (it is the player's
  turn and the play still stands); under ``pass_locks_out`` they are locked out of the trick.
* Without ``to_beat`` the player leads; the opening lead (nothing played yet, the hand holds
  the lowest card, ``opening_must_include_lowest``) must contain the lowest card.
* Under ``first_lead='lowest_card'`` and ``opening_must_include_lowest`` the lowest card (♦3) is in
  the opening play: a hand holding it after any play, a play to beat holding it after other plays,
  and (without ``malaysian_3p``, whose ♦3 may be face down or swapped out) cards played without it
  are refused.  When the play to beat is the only play, it is the opening: its maker ``by`` holds
  the deal's leftover cards and nobody else has played, so the counts follow (default) or are
  checked (given), and the hand is the player's whole deal.  Positions of the engine's views
  (``kaptai review``, ``kaptai play``'s hints) are not checked for these: the engine enforced them.
* ``cards_left`` (the other seats' counts, seats 1, 2, ...) defaults to the unseen cards
  shared out as evenly as possible, the extra cards to the seats nearest after the player
  (13 each at the start of a four-player hand).  A position whose counts cannot occur is refused:
  the other seats cannot hold more cards than were dealt to them (a 2-card hand with nothing
  played), and with nothing played under ``first_lead='lowest_card'`` only the holder of the
  lowest card (♦3) leads.
* The 頂大 (blocking) rule follows the counts: if the next player holds one card, every
  option's liability under ``top_rule='liability'`` is in its value.  A violation on the
  previous turn (which would make its maker liable if the player goes out now) is not typed.

Examples
--------
The previous player led ♦3; you hold 13 cards (the others 13, 13 and 12 by default):

>>> from kaptai.bigtwo.advisor import advise
>>> df = advise("4C 5H 6S 7D 9D 9C TS JS QS KH AH 2D 2C", to_beat="3D", samples=200, seed=1)
>>> df.kind.iloc[0], int(df["rank"].iloc[0]), df.attrs["stop"]
('single', 1, 'fixed')
>>> len(df), df.attrs["cards_left"], bool(df.ev.is_monotonic_decreasing)
(14, [13, 13, 13, 12], True)
"""

from __future__ import annotations

import math
import time
from collections.abc import Sequence
from dataclasses import dataclass, replace
from numbers import Integral
from typing import TYPE_CHECKING, Any

import numpy as np

from kaptai._version import __version__
from kaptai.bigtwo.cards import N_CARDS, format_cards, parse_cards
from kaptai.bigtwo.config import make_config
from kaptai.bigtwo.policies import rules_info
from kaptai.bigtwo.rules import RuleSet, resolve_rules
from kaptai.core.advise import (DEFAULT_BUDGET_MS, PairedResult, check_budget_ms, check_samples, competition_ranks,
                                paired_budget)
from kaptai.core.options import check_seed
from kaptai.core.stats import wilson_interval
from kaptai.errors import InvalidHandError, KaptaiError, RulesError, quote_token

if TYPE_CHECKING:  # pandas is imported where a table is built: a review's workers never build one
    import pandas as pd

__all__ = ["ADVICE_COLUMNS", "ADVISE_SAMPLES", "advise", "default_cards_left", "typed_history"]

#: Whether :func:`advise_view` (``kaptai review``, ``kaptai play``'s hints) weighs its layouts by the
#: hand's history when the view has one (docs/big-two.md, "The advisor").
USE_HISTORY: bool = True
#: The fixed layout count ``benchmarks/bench_bigtwo.py`` times (the advisor's default is the time budget).
ADVISE_SAMPLES: int = 400
#: Layouts per batch of the sampling budget (:mod:`kaptai.core.advise`).
BATCH: int = 32
#: Columns of :func:`advise`.
ADVICE_COLUMNS: list[str] = ["rank", "play", "kind", "ev", "ev_low", "ev_high", "vs_best", "vs_best_low",
                             "vs_best_high", "p_win", "p_win_low", "p_win_high", "samples"]
CONFIDENCE = 0.95

_KINDS = {1: "single", 2: "pair", 3: "triple", 4: "four cards", 5: "five cards"}


def _cards(text: Any, what: str) -> tuple[int, ...]:
    if text is None:
        return ()
    if isinstance(text, str) and not text.strip():
        return ()
    try:
        return parse_cards(text)
    except KaptaiError as err:  # InvalidCardError, InvalidHandError: the same class, naming the argument
        raise type(err)(f"{what}: {err}") from None


def default_cards_left(unseen: int, players: int) -> tuple[int, ...]:
    """The other seats' card counts when none are given: ``unseen`` shared out as evenly as
    possible, the extra cards to the seats nearest after the player (seats 1, 2, ...).

    >>> from kaptai.bigtwo.advisor import default_cards_left
    >>> default_cards_left(39, 4), default_cards_left(20, 4)
    ((13, 13, 13), (7, 7, 6))
    """
    q, r = divmod(int(unseen), players - 1)
    return tuple(q + (1 if j < r else 0) for j in range(players - 1))


def advise(
    hand: str | Sequence[Any],
    played: str | Sequence[Any] = "",
    to_beat: str | Sequence[Any] | None = None,
    by: int | None = None,
    cards_left: Sequence[int] | str | None = None,
    players: int | None = None,
    rules: RuleSet | str | Any = None,
    *,
    history: str | Sequence[Any] | None = None,
    samples: int | None = None,
    seed: int = 0,
    budget_ms: float = DEFAULT_BUDGET_MS,
) -> pd.DataFrame:
    """Every legal play of a position (and PASS when it is legal) with its value, best first.

    Parameters
    ----------
    hand : str or sequence
        The player's cards (``"3D 4C 9S"``, any notation of :func:`kaptai.bigtwo.cards.parse_cards`).
    played : str or sequence
        Every card played so far in the hand (the play to beat may be included or not).
    to_beat : str or sequence, optional
        The play on the table; None: the player leads.
    by : int, optional
        The seat that made it, counted from the player in the direction of play (1 = the next
        player, ``players - 1`` = the previous one, the default).
    cards_left : sequence of int or str, optional
        Cards held by seats 1, 2, ... (``"10,6,9"``); default :func:`default_cards_left`.
    players : int, optional
        Players at the table (default the ruleset's, 4).
    rules : RuleSet, str or mapping, optional
        The rules (default Hong Kong); the scoring in force prices every option.
    history : str or sequence, optional
        Every action of the hand so far, in order from its first lead: a play (``"3D 4D 5D 6D 7D"``)
        or a pass (``"pass"``), comma-separated in a string or one item each in a sequence (a pass
        may also be ``None``).  The actions go round the table in the direction of play and the
        last one is the previous turn's, so the seats need not be typed; under ``pass_locks_out``
        a locked seat's automatic passes are left out.  ``played``, ``to_beat``, ``by`` and
        ``cards_left`` are then derived from it (give none of the first three; ``cards_left`` only
        where the deal's leftover cards make the counts unknown), and the search weighs its layouts
        by how well they explain what each other seat played and passed (its inference, as the
        ``search`` player's), resampled by weight.
    samples : int, optional
        A fixed number of layouts of the unseen cards (1-100,000), the same ones for every option;
        default None: sampled within ``budget_ms`` until the best option is resolved.
    seed : int
        Seed of the layouts (the same seed and sample count, the same answer).
    budget_ms : float
        The time budget without ``samples`` (default 150 ms).

    Returns
    -------
    pandas.DataFrame
        Columns :data:`ADVICE_COLUMNS`, one row per option, by ``ev`` (ties in play order):
        ``ev`` = mean net of the hand in points x ``stake``, ``p_win`` = P(the player goes out
        first), each with its 95% interval (normal for the mean, Wilson for the
        proportion).  ``attrs``: the position, ``rules``, ``samples``, ``seed``, ``method``.

    Raises
    ------
    InvalidCardError, InvalidHandError
        A card that is not a card (naming the token), a duplicate, a card both in the hand and
        played, a play to beat that is not a legal combination.
    RulesError
        Impossible counts or seats (``by``, ``cards_left``, ``players``, ``samples``).

    Examples
    --------
    Late in a hand: 44 cards are out, the next player holds one card (頂大), six are unseen.

    >>> from kaptai.bigtwo.advisor import advise
    >>> from kaptai.bigtwo.cards import format_cards, parse_cards
    >>> unseen = parse_cards("3C KS AS 2D 2C 2H")
    >>> out = format_cards(c for c in range(52) if c not in unseen + parse_cards("5D 2S"))
    >>> df = advise("5D 2S", played=out, to_beat="4S", by=3, cards_left=(1, 2, 3), samples=50)
    >>> df.play.iloc[0], float(df.ev.iloc[0]), float(df.p_win.iloc[0]), sorted(df.play)   # 2S goes out
    ('2S', 6.0, 1.0, ['2S', '5D', 'PASS'])
    >>> advise("4C 5D")
    Traceback (most recent call last):
    ...
    kaptai.errors.RulesError: this position cannot occur: you hold 2 cards and 0 are played, so the other 3 seats would hold 50 cards, more than the 39 dealt to them (4 players, 13 cards each); give every card played so far (played=, --played)
    >>> advise("3D 3X")
    Traceback (most recent call last):
    ...
    kaptai.bigtwo.cards.InvalidCardError: hand: invalid card "3X" (token 2): unknown suit "X"
    """
    start = time.perf_counter()
    if players is not None and (isinstance(players, (bool, np.bool_)) or not isinstance(players, Integral)):
        raise RulesError(f"players={quote_token(players)}: expected a whole number of players")
    r, cfg = _config(rules, None if players is None else int(players))
    samples = check_samples(samples)
    budget_ms = check_budget_ms(budget_ms)
    seed = check_seed(seed)
    h = _cards(hand, "hand")
    if not h:
        raise InvalidHandError("hand is empty: give the cards you hold")
    if history is not None:
        given = [name for name, v in (("played", played), ("to_beat", to_beat), ("by", by)) if v not in (None, "", ())]
        if given:
            raise RulesError(f"history is given with {', '.join(given)}: the history says what was played, what is "
                             "to beat and by whom; give one or the other")
        pos = _history_position(cfg, h, _history_items(history), cards_left)
    else:
        pl = _cards(played, "played")
        tb = _cards(to_beat, "to-beat") if to_beat is not None else ()
        pos = _position(cfg, h, pl, tb, by, cards_left, to_beat is not None)
    return _frame(pos, _sample(pos, seed=seed, samples=samples, budget_ms=budget_ms, start=start), seed)


def typed_history(view: Any) -> str:
    """The public record of a :class:`kaptai.bigtwo.policies.PlayerView` typed as :func:`advise`'s
    ``history`` (``--history``): its plays and passes in order, comma-separated.

    >>> from kaptai.bigtwo.engine_reference import make_view
    >>> from kaptai.bigtwo.cards import parse_cards
    >>> m = lambda text: sum(1 << c for c in parse_cards(text))
    >>> v = make_view("4C 5H", trick="8D", history=[(3, 0, m("3D"), 0, m("3D")), (0, m("3D"), 0, m("3D"), 0),
    ...                                           (1, m("3D"), 0, m("3D"), m("8D"))])
    >>> typed_history(v)
    '3D, pass, 8D'
    """
    return ", ".join("pass" if row[4] == 0 else format_cards([c for c in range(N_CARDS) if row[4] >> c & 1])
                     for row in view.history)


#: Tokens of a pass in a typed history.
_PASS_TOKENS = frozenset({"pass", "p", "-"})


def _history_items(history: Any) -> list[tuple[int, ...] | None]:
    """The actions of a typed history: a tuple of card ids per play, None per pass.

    >>> from kaptai.bigtwo.cards import format_cards
    >>> [None if a is None else format_cards(a) for a in _history_items("3D 4D 5D 6D 7D, pass; 8C 9C TC JC QC")]
    ['3D 4D 5D 6D 7D', None, '8C 9C TC JC QC']
    >>> _history_items("3D,, 4D")
    Traceback (most recent call last):
    ...
    kaptai.bigtwo.cards.InvalidCardError: history item 2 is empty: give a play or 'pass'
    """
    from kaptai.bigtwo.cards import InvalidCardError

    if isinstance(history, str):
        raw: list[Any] = [] if not history.strip() else history.replace(";", ",").split(",")
    else:
        try:
            raw = list(history)
        except TypeError:
            raise RulesError(f"history={quote_token(history)}: expected the hand's actions in order, e.g. "
                             "'3D 4D 5D 6D 7D, pass, 8C 9C TC JC QC'") from None
    out: list[tuple[int, ...] | None] = []
    for i, item in enumerate(raw, 1):
        if item is None or (isinstance(item, str) and item.strip().lower() in _PASS_TOKENS):
            out.append(None)
            continue
        if isinstance(item, str) and not item.strip():
            raise InvalidCardError(f"history item {i} is empty: give a play or 'pass'")
        out.append(_cards(item, f"history item {i}"))
    return out


def _history_position(cfg: Any, h: tuple[int, ...], items: list[tuple[int, ...] | None],
                      cards_left: Any) -> _Position:
    """The position after a typed history (:func:`advise`'s ``history``): the actions replayed round
    the table from the first lead, each play checked (a combination, cards not seen before and not
    in the hand, beating the play on the table; the opening play holding the lowest card), the
    counts derived from the deal, and the engine's history rows."""
    r = cfg.rules
    N = cfg.players
    info = rules_info(r)
    if not items:
        return _position(cfg, h, (), (), None, cards_left, False)
    hm = sum(1 << c for c in h)
    opening = r.first_lead == "lowest_card" and r.opening_must_include_lowest and not r.malaysian_3p
    leaders = range(N) if r.pass_locks_out else [(-len(items)) % N]
    fits: list[tuple[int, dict[str, Any]]] = []
    errors: list[KaptaiError] = []
    for lead in leaders:
        try:
            st = _replay(cfg, info, hm, items, lead, opening)
            _check_leader(r, info, hm, lead, st["rows"])
        except KaptaiError as exc:
            errors.append(exc)
            continue
        if st["next"] == 0:
            fits.append((lead, st))
    if not fits:
        if len(errors) == len(leaders):
            raise errors[0]
        raise RulesError(f"the history's {len(items)} actions do not end at your turn: with the seats locked out "
                         "by their passes skipped, no first leader makes you the next to act")
    if len(fits) > 1:
        raise RulesError(f"the history's {len(items)} actions fit more than one first leader "
                         f"(seats {', '.join(str(lead) for lead, _st in fits)} counted from you): under "
                         "pass_locks_out the seats cannot be told apart; give the positions some other way "
                         "(played=, to_beat=, by=, cards_left=)")
    lead, st = fits[0]
    by_seat = st["played_by"]
    given = cards_left is not None
    if cards_left is None:
        dealt = [cfg.hand_size] * N
        if cfg.leftover:
            if r.first_lead != "lowest_card" or r.malaysian_3p:
                raise RulesError(f"with {N} players {cfg.leftover} card(s) are left over and who holds them is not "
                                 "known from the history under these rules: give cards_left (--cards-left)")
            dealt[lead] += cfg.leftover
        if len(h) + by_seat[0] != dealt[0]:
            raise RulesError(f"you hold {len(h)} cards and played {by_seat[0]} in the history: "
                             f"{len(h) + by_seat[0]}, but you were dealt {dealt[0]}")
        cards_left = tuple(dealt[s] - by_seat[s] for s in range(1, N))
    tm = st["trick"]
    tb = tuple(c for c in range(N_CARDS) if tm >> c & 1)
    pl = tuple(c for c in range(N_CARDS) if st["played"] >> c & 1 and not tm >> c & 1)
    pos = _position(cfg, h, pl, tb, st["trick_seat"] if tm else None, cards_left, bool(tm))
    if given:
        _check_counts(cfg, h, lead, by_seat, pos.left)
    _check_choices(cfg, info, hm, pos.left, by_seat, tuple(st["rows"]))
    return replace(pos, locked=tuple(st["locked"]), history=tuple(st["rows"]))


def _replay(cfg: Any, info: Any, hm: int, items: list[tuple[int, ...] | None], lead: int,
            opening: bool) -> dict[str, Any]:
    """Replay typed actions from first leader ``lead`` (seats counted from the player) as the
    engine's turn order does (docs "The play"): the next seat in turn, locked seats passing
    automatically, a trick over after ``players - 1`` passes in a row, its winner leading."""
    r = cfg.rules
    N = cfg.players
    dealt = _dealt_max(cfg, lead)
    low = info.lowest
    low_first = r.first_lead == "lowest_card" and r.opening_must_include_lowest
    p, trick, trick_seat, passes = lead, 0, -1, 0
    tkey: tuple[int, int] = (0, 0)   # (trick class, key) of the play on the table, when there is one
    played = 0
    locked = [False] * N
    played_by = [0] * N
    rows: list[tuple[int, int, int, int, int]] = []

    def advance(p: int) -> int:
        nonlocal trick, passes
        if passes == N - 1:
            trick, passes = 0, 0
            locked[:] = [False] * N
            return trick_seat
        return (p + 1) % N

    for i, act in enumerate(items, 1):
        while trick and locked[p]:   # a locked seat's automatic pass (not typed)
            passes += 1
            p = advance(p)
        if act is None:
            if not trick:
                raise RulesError(f"history item {i} is a pass, but that seat leads (seat {p} counted from you): "
                                 "a lead cannot be passed")
            rows.append((p, trick, 0, played, 0))
            passes += 1
            if r.pass_locks_out:
                locked[p] = True
            p = advance(p)
            continue
        m = sum(1 << c for c in act)
        text = info.text(m)
        for c in act:
            if played >> c & 1:
                raise InvalidHandError(f'history item {i} ("{text}"): card "{format_cards([c])}" was already played')
            if hm >> c & 1:
                raise InvalidHandError(f'history item {i} ("{text}"): card "{format_cards([c])}" is in your hand')
        ent = info.entry(m)
        if ent is None:
            raise InvalidHandError(f'history item {i}: "{text}" is not a legal combination')
        must = 0
        if not rows and not played and opening:
            must = 1 << info.lowest
            if not m & must:
                raise RulesError(f'history item 1 ("{text}"): the opening play must contain '
                                 f'"{format_cards([info.lowest])}" (opening_must_include_lowest)')
        if trick and not (ent[0] == tkey[0] and ent[1] > tkey[1]):
            raise InvalidHandError(f'history item {i}: "{text}" does not beat "{info.text(trick)}" on the table')
        if low_first and rows and m >> low & 1:
            raise RulesError(f'history item {i} ("{text}"): "{format_cards([low])}" can only be in the opening play '
                             "(history item 1) of the hand (first_lead=lowest_card, opening_must_include_lowest)")
        rows.append((p, trick, must if not trick else 0, played, m))
        played |= m
        played_by[p] += len(act)
        if played_by[p] >= dealt[p]:
            raise RulesError(f'history item {i} ("{text}"): seat {p} (counted from you) has played {played_by[p]} '
                             f"cards, all {dealt[p]} it can have been dealt: it has gone out and the hand is over")
        trick, tkey, trick_seat, passes = m, (ent[0], ent[1]), p, 0
        p = advance(p)
    while trick and locked[p] and p != 0:
        passes += 1
        p = advance(p)
    if p == 0 and trick and locked[0]:
        raise RulesError("you passed earlier in this round and are locked out of it (pass_locks_out): your turn is "
                         "an automatic pass, there is nothing to advise")
    return {"next": p, "trick": trick, "trick_seat": trick_seat, "played": played, "played_by": played_by,
            "locked": locked, "rows": rows}


def _dealt_max(cfg: Any, lead: int) -> list[int]:
    """The most cards each seat (counted from the player) can have been dealt when seat ``lead``
    made the first play: ``hand_size``, plus the deal's leftover cards for their holder (the lowest
    card's, the first leader under ``first_lead='lowest_card'``; unknown under ``previous_winner``,
    so any seat; nobody's under ``malaysian_3p``, whose leftover card is face down or swapped for ♦3)."""
    r, N, hs, lo = cfg.rules, cfg.players, cfg.hand_size, cfg.leftover
    if not lo or r.malaysian_3p:
        return [hs] * N
    if r.first_lead == "lowest_card":
        return [hs + (lo if s == lead else 0) for s in range(N)]
    return [hs + lo] * N


def _check_leader(r: RuleSet, info: Any, hm: int, lead: int, rows: list[tuple[int, int, int, int, int]]) -> None:
    """Refuse a first leader the lowest card's holder cannot be under ``first_lead='lowest_card'``
    (seats counted from the player; ``rows``: the replayed plays and passes)."""
    if r.first_lead != "lowest_card":
        return
    low = info.lowest
    lt = format_cards([low])
    if hm >> low & 1:
        if lead != 0:
            raise RulesError(f'you hold "{lt}", so the first play of the hand was yours (first_lead=lowest_card), but '
                             f"the history's {len(rows)} actions make seat {lead} (counted from you) the first to play")
        return
    if r.malaysian_3p:
        return  # the lowest card may be face down or swapped out: the holder of another card may lead
    by = next((row[0] for row in rows if row[4] >> low & 1), None)
    if by is None and lead == 0:
        raise RulesError(f"the history's {len(rows)} actions make you the first to play, so you held \"{lt}\" "
                         "(first_lead=lowest_card), but it is neither in your hand nor in your plays")
    if by is not None and by != lead:
        raise RulesError(f'"{lt}" was played by seat {by} (counted from you), but the history\'s {len(rows)} actions '
                         f'make seat {lead} the first to play, and the holder of "{lt}" plays first '
                         "(first_lead=lowest_card)")


def _check_counts(cfg: Any, h: tuple[int, ...], lead: int, by_seat: list[int], left: tuple[int, ...]) -> None:
    """Refuse given ``cards_left`` that the history contradicts: each seat holds what it was dealt
    less what it played (seats counted from the player; ``left[0]``: the hand)."""
    r, hs, lo = cfg.rules, cfg.hand_size, cfg.leftover
    top = _dealt_max(cfg, lead)
    for s, n in enumerate(left):
        d = n + by_seat[s]
        ok = {top[s]} if (not lo or r.malaysian_3p or r.first_lead == "lowest_card") else {hs, hs + lo}
        if d not in ok:
            who = "you hold" if s == 0 else f"cards_left of seat {s} is"
            raise RulesError(f"{who} {n} and {'you' if s == 0 else 'it'} played {by_seat[s]} in the history: {d} "
                             f"cards, but {'you' if s == 0 else 'it'} can only have been dealt "
                             f"{' or '.join(map(str, sorted(ok)))} ({cfg.players} players)")


def _check_choices(cfg: Any, info: Any, hm: int, left: tuple[int, ...], by_seat: list[int],
                   rows: tuple[tuple[int, int, int, int, int], ...]) -> None:
    """Refuse typed choices the rules forbid given what the seat held then, as far as it is known:
    the cards it plays later in the history (and for the player the hand too) were in its hand.

    * ``pass_only_if_unable``: a pass facing a play that those cards beat.
    * ``top_rule='mandatory'`` (頂大) with the next seat holding one card: leading a single below one
      of those cards; facing a single one of them beats, a pass or a single below one of them."""
    from kaptai.bigtwo._moves import _bits, legal_entries

    r, N = cfg.rules, cfg.players
    if not (r.pass_only_if_unable or r.top_rule == "mandatory"):
        return
    held = [left[s] + by_seat[s] for s in range(N)]  # what each seat was dealt
    later = [0] * N
    later[0] = hm
    known: list[int] = [0] * len(rows)
    for k in range(len(rows) - 1, -1, -1):  # the cards each seat still held at each of its turns
        p, _t, _m, _pl, c = rows[k]
        later[p] |= c
        known[k] = later[p]
    st = info.strength
    for k, (p, t, _m, _pl, c) in enumerate(rows):
        i = k + 1  # one row per typed action
        text = "pass" if not c else info.text(c)
        nxt = (p + 1) % N
        if r.pass_only_if_unable and t and not c:
            te = info.entry(t)
            assert te is not None  # a replayed play
            beat = next((e for e in legal_entries(known[k], info) if e[0] == te[0] and e[1] > te[1]), None)
            if beat is not None:
                raise RulesError(
                    f'history item {i} (pass): {"you" if p == 0 else f"seat {p} (counted from you)"} held '
                    f'"{info.text(beat[2])}", which beats "{info.text(t)}", and passing while able to play is not '
                    "allowed (pass_only_if_unable)")
        if r.top_rule == "mandatory":
            n_next = held[nxt] - sum(rows[j][4].bit_count() for j in range(k) if rows[j][0] == nxt)
            if n_next != 1:
                continue
            hi = max(_bits(known[k]), key=st.__getitem__, default=None)
            if hi is None:
                continue
            who = "you" if p == 0 else f"seat {p} (counted from you)"
            rule = "頂大, top_rule=mandatory: the next seat holds 1 card"
            if not t and c.bit_count() == 1 and st[hi] > st[_low_bit(c)]:
                raise RulesError(f'history item {i} ("{text}"): {who} led a single below "{format_cards([hi])}", '
                                 f"which {'you' if p == 0 else 'it'} held ({rule})")
            if t and t.bit_count() == 1 and st[hi] > st[_low_bit(t)] and (not c or st[hi] > st[_low_bit(c)]):
                raise RulesError(f'history item {i} ("{text}"): {who} held "{format_cards([hi])}", which beats '
                                 f'"{info.text(t)}", and had to play it ({rule})')


def _low_bit(m: int) -> int:
    return (m & -m).bit_length() - 1


def _config(rules: Any, players: int | None) -> tuple[RuleSet, Any]:
    """The resolved rules and the engine's table of ``rules`` at ``players`` (memoised: a review
    asks the advisor thousands of times under one rule set)."""
    r = resolve_rules(rules) if players is None else resolve_rules(rules, players=players)
    hit = _CONFIGS.get(r)
    if hit is None:
        cfg = make_config(r.players, r)
        if len(_CONFIGS) >= 64:
            _CONFIGS.clear()
        hit = _CONFIGS[r] = (cfg.rules, cfg)
    return hit


#: :func:`_config`'s memo, by resolved rule set (a frozen, hashable dataclass).
_CONFIGS: dict[RuleSet, tuple[RuleSet, Any]] = {}


@dataclass(frozen=True)
class _Position:
    """A checked position, as the compiled search takes it (seats counted from the player)."""

    r: RuleSet
    cfg: Any
    info: Any
    h: tuple[int, ...]
    pl: tuple[int, ...]
    tb: tuple[int, ...]
    hm: int
    pm: int
    tm: int
    b: int
    left: tuple[int, ...]
    passes: int
    locked: tuple[bool, ...]
    must: int
    hidden_dead: int
    #: The public record as the compiled search takes it: ``(seat, trick, must, played, choice)`` rows,
    #: seats counted from the player (empty: no history given, no inference).
    history: tuple[tuple[int, int, int, int, int], ...] = ()


def _position(cfg: Any, h: tuple[int, ...], pl: tuple[int, ...], tb: tuple[int, ...], by: Any,
              cards_left: Any, to_beat_given: bool, typed: bool = True) -> _Position:
    """Check a position (card ids of the hand, the cards played and the play to beat) against the
    rules and derive what the search needs; the refusals of :func:`advise`.  ``typed`` False: a
    view of the engine's (:func:`_view_position`), whose opening the engine has enforced, so the
    checks of who opened and with what (:func:`_check_lowest`, :func:`_opening_counts`) are skipped."""
    r = cfg.rules
    N = cfg.players
    info = rules_info(r)
    hm = sum(1 << c for c in h)
    pm = sum(1 << c for c in pl)
    tm = sum(1 << c for c in tb)
    for c in h:
        if pm >> c & 1:
            raise InvalidHandError(f'card "{format_cards([c])}" is both in the hand and in the played cards')
        if tm >> c & 1:
            raise InvalidHandError(f'card "{format_cards([c])}" is both in the hand and in the play to beat')
    maxh = cfg.hand_size + cfg.leftover
    if len(h) > maxh:
        raise InvalidHandError(f"hand has {len(h)} cards, expected at most {maxh} with {N} players")
    if to_beat_given and not tb:
        raise InvalidHandError("to-beat is empty: give the play on the table, or leave it out to lead")
    if tb and info.entry(tm) is None:
        raise InvalidHandError(f'"{format_cards(tb)}" is not a legal combination')
    before = pm & ~tm  # the cards played before the play to beat
    pm |= tm
    if by is not None and not tb:
        raise RulesError("by is given without a play to beat (to_beat): when you lead, leave both out")
    if tb:
        if by is not None and (isinstance(by, (bool, np.bool_)) or not isinstance(by, Integral)):
            raise RulesError(f"by={quote_token(by)}: expected a whole number, a seat from 1 (the next player) to "
                             f"{N - 1} (the previous one)")
        b = N - 1 if by is None else int(by)
        if not 1 <= b <= N - 1:
            raise RulesError(f"by={quote_token(by)}: expected a seat from 1 (the next player) to {N - 1} (the previous one)")
    else:
        b = 0
    unseen = N_CARDS - len(h) - pm.bit_count()
    hidden_dead = 0
    if cards_left is None:
        counts = default_cards_left(unseen, N)
    else:
        if isinstance(cards_left, str):
            try:
                counts = tuple(int(x) for x in cards_left.replace(",", " ").split())
            except ValueError:
                raise RulesError(f"cards_left={quote_token(cards_left)}: expected card counts like '10,6,9'") from None
        else:
            try:
                items = list(cards_left)
            except TypeError:
                raise RulesError(f"cards_left={quote_token(cards_left)}: expected card counts like (10, 6, 9)") from None
            bad = [x for x in items if isinstance(x, (bool, np.bool_)) or not isinstance(x, Integral)]
            if bad:
                raise RulesError(f"cards_left={quote_token(cards_left)}: {quote_token(bad[0])} is not a whole number "
                                 f"of cards")
            counts = tuple(int(x) for x in items)
        if len(counts) != N - 1:
            raise RulesError(f"cards_left has {len(counts)} counts, expected {N - 1} (seats 1 to {N - 1})")
        for j, n in enumerate(counts, 1):
            if not 1 <= n <= maxh:
                raise RulesError(f"cards_left of seat {j} is {n}: expected 1-{maxh} (a seat with 0 cards has won)")
        total = sum(counts)
        if r.malaysian_3p and total == unseen - 1:
            hidden_dead = 1  # the face-down card was not swapped in
        elif total != unseen:
            raise RulesError(
                f"cards_left {'+'.join(map(str, counts))} = {total}, but {unseen} cards are unseen "
                f"(52 - {len(h)} in the hand - {pm.bit_count()} played)"
            )
    if typed:
        _check_lowest(r, info, hm, before, tm)
    # the player was dealt at least hand_size cards (and at least what it holds): the others were
    # dealt the rest, and hold no more than that
    others_max = N_CARDS - max(len(h), cfg.hand_size)
    if unseen > others_max + (1 if r.malaysian_3p else 0):
        raise RulesError(
            f"this position cannot occur: you hold {len(h)} cards and {pm.bit_count()} are played, so the other "
            f"{N - 1} seats would hold {unseen} cards, more than the {others_max} dealt to them "
            f"({N} players, {cfg.hand_size} cards each); give every card played so far (played=, --played)")
    if not tb and pm == 0 and r.first_lead == "lowest_card" and not hm >> info.lowest & 1:
        low = format_cards([info.lowest])
        raise RulesError(
            f"nothing has been played and you lead, but you do not hold {low}: the first lead of a hand is made by "
            f"the holder of {low} (first_lead=lowest_card"
            + (f", and it must contain {low})" if r.opening_must_include_lowest else ")")
            + "; give the play to beat (to_beat=, --to-beat) and the cards played")
    if typed and tm and not before and r.first_lead == "lowest_card" and not r.malaysian_3p:
        counts = _opening_counts(cfg, h, tb, b, counts, cards_left is None)
    if min(counts) < 1:
        raise RulesError(f"{unseen} unseen cards cannot give each of {N - 1} other seats a card: the hand is over")
    left = (len(h), *counts)
    passes = (N - b - 1) if tb else 0
    locked = [False] * N
    if tb and r.pass_locks_out:
        for s in range(b + 1, N):
            locked[s] = True
    must = 0
    if not tb and pm == 0 and hm >> info.lowest & 1 and r.opening_must_include_lowest:
        must = 1 << info.lowest
    return _Position(r, cfg, info, tuple(h), tuple(pl), tuple(tb), hm, pm, tm, b, left, passes, tuple(locked), must,
                     hidden_dead)


def _check_lowest(r: RuleSet, info: Any, hm: int, before: int, tm: int) -> None:
    """Refuse a position that contradicts who makes the opening play under ``first_lead='lowest_card'``
    (the holder of the lowest card, ♦3 by default) and ``opening_must_include_lowest`` (that play holds
    it; under ``malaysian_3p`` its holder may swap it out of play instead, never play it later).
    ``hm``: the hand, ``before``: the cards played before the play to beat ``tm`` (masks)."""
    if r.first_lead != "lowest_card":
        return  # a later hand of a match is opened by the previous winner, with anything
    low = info.lowest
    lt = format_cards([low])
    out = before | tm
    seen = (f'the cards played ("{info.text(before)}")' if before else "") + (" and " if before and tm else "") + (
        f'the play to beat ("{info.text(tm)}")' if tm else "")
    strict = r.opening_must_include_lowest
    rule = "first_lead=lowest_card" + (", opening_must_include_lowest" if strict else "")
    if hm >> low & 1 and out and (strict or not before):
        why = (f'the opening play of the hand is made by the holder of "{lt}" and holds "{lt}" ({rule})'
               + (", unless its holder swaps it out of play (malaysian_3p)" if r.malaysian_3p else "")
               if strict else
               f'the opening play of the hand is made by the holder of "{lt}" ({rule}), so it is yours, '
               "not the play to beat")
        raise RulesError(f'this position cannot occur: you hold "{lt}", but {seen} came first: {why}')
    if not strict:
        return
    if tm >> low & 1 and before:
        raise RulesError(
            f'this position cannot occur: the play to beat "{info.text(tm)}" holds "{lt}", but "{info.text(before)}" '
            f'was played before it: "{lt}" can only be in the opening play of the hand ({rule}), before which '
            "nothing is played")
    if out and not out >> low & 1 and not r.malaysian_3p:
        if not before:
            raise RulesError(
                f'this position cannot occur: the play to beat "{info.text(tm)}" is the only play of the hand, so it '
                f'is the opening play, which must hold "{lt}" ({rule}); give every card played so far '
                "(played=, --played)")
        raise RulesError(
            f'this position cannot occur: "{lt}" is neither in your hand nor among {seen}, but the opening play of '
            f'the hand holds it ({rule}); give every card played so far (played=, --played)')


def _opening_counts(cfg: Any, h: tuple[int, ...], tb: tuple[int, ...], b: int, counts: tuple[int, ...],
                    derive: bool) -> tuple[int, ...]:
    """The other seats' counts when the play to beat is the only play of the hand under
    ``first_lead='lowest_card'``: seat ``b`` led it, holding the deal's leftover cards (its
    holder, the lowest card's, leads), and nobody else has played.  ``derive``: the counts were
    not given (``counts`` is the even default), else they are checked."""
    N, hs = cfg.players, cfg.hand_size
    if len(h) != hs:
        raise RulesError(
            f'this position cannot occur: only the play to beat ("{format_cards(tb)}") has been played, so you '
            f"hold the {hs} cards you were dealt ({N} players), not {len(h)}; give every card played so far "
            "(played=, --played)")
    want = tuple(hs + (cfg.leftover - len(tb) if j == b else 0) for j in range(1, N))
    if derive:
        return want
    for j, (n, w) in enumerate(zip(counts, want), 1):
        if n != w:
            raise RulesError(
                f"cards_left of seat {j} is {n}, but only the play to beat (\"{format_cards(tb)}\", seat {b}) has "
                f"been played: seat {j} holds {w} ({hs} dealt"
                + (f" + {cfg.leftover} left over" if j == b and cfg.leftover else "")
                + (f" - {len(tb)} played" if j == b else "") + ")")
    return counts


def _sample(pos: _Position, *, seed: int, samples: int | None, budget_ms: float,
            start: float | None = None) -> tuple[np.ndarray, PairedResult]:
    """The candidates (masks, play order) of a position and the paired sums of their values
    (quantity 0: net x stake, 1: wins) over the layouts (:func:`kaptai.core.advise.paired_budget`)."""
    from kaptai.bigtwo import _engine

    cfg, left, hm, pm, tm, b, passes, must = pos.cfg, pos.left, pos.hm, pos.pm, pos.tm, pos.b, pos.passes, pos.must
    locked = list(pos.locked)
    history = list(pos.history) or None
    stake = float(pos.r.stake)
    search = _engine.search_position
    cand_box: list[np.ndarray] = []

    def evaluate(bg: np.random.PCG64, n: int) -> np.ndarray:
        out: np.ndarray | None = None
        for t in range(n):  # one layout per call: per-layout values for the paired differences
            cands, sums, _sqs, wins = search(cfg, 0, left, hm, played=pm, trick=tm, trick_seat=b, passes=passes,
                                             locked=locked, must=must, bit_generator=bg, samples=1, history=history)
            if out is None:
                cand_box[:] = [cands]
                out = np.empty((2, len(cands), n))
            out[0, :, t] = sums * stake
            out[1, :, t] = wins
        assert out is not None
        return out

    # the option count comes from the first batch (n_options=None): no layout is spent on counting
    res = paired_budget(evaluate, None, seed=seed, samples=samples, budget_ms=budget_ms, batch=BATCH, start=start)
    return cand_box[0], res


def _label(pos: _Position, m: int, last: bool) -> str:
    """The label of candidate mask ``m`` (``'PASS'``: the pass, the last candidate), memoised."""
    if m == 0 and last:
        return "PASS"
    key = (pos.r, m)
    out = _LABELS.get(key)
    if out is None:
        if len(_LABELS) >= 200_000:
            _LABELS.clear()
        out = _LABELS[key] = pos.info.text(m)
    return out


#: :func:`_label`'s memo, by (rule set, mask).
_LABELS: dict[tuple[RuleSet, int], str] = {}


def _arrays(pos: _Position, cands: np.ndarray, res: PairedResult) -> dict[str, Any]:
    """The advisor's answer as arrays in table order (best first, ties in play order): what
    :func:`advise` tabulates, and what ``kaptai review`` reads without a DataFrame.

    Keys: ``labels`` (list of str), ``ev``, ``vs_best``, ``vs_best_low``, ``vs_best_high``, ``p_win``
    (float arrays), ``samples`` (int), ``paired`` (the :class:`PairedResult`) and ``index`` (each
    row's option in it: the table's order).
    """
    S = res.samples
    mean = res.means(0)
    d, dlo, dhi = res.vs_best()
    wins = res.sums[1]
    order = np.argsort(-mean, kind="stable")  # by ev, best first; equal values in play order
    k = len(cands)
    labels = [_label(pos, int(cands[i]), int(i) == k - 1) for i in order]
    return {"labels": labels, "ev": mean[order], "vs_best": d[order], "vs_best_low": dlo[order],
            "vs_best_high": dhi[order], "p_win": wins[order] / S, "samples": S, "paired": res,
            "index": order.tolist()}


def advise_view(view: Any, *, samples: int | None, seed: int, budget_ms: float = DEFAULT_BUDGET_MS,
                history: bool | None = None) -> dict[str, Any]:
    """The advisor on the position a :class:`kaptai.bigtwo.policies.PlayerView` shows, as the
    arrays of :func:`_arrays` (``kaptai review``'s path: no cards formatted and parsed back, no
    DataFrame); the same numbers as :func:`kaptai.bigtwo.play.advice` and the same refusals.

    ``history`` (default :data:`USE_HISTORY`): weigh the layouts by the view's public record, as
    :func:`advise` does with its ``history`` (the view's own locks are used then); False: only the
    cards played, as a position typed without its history.

    >>> from kaptai.bigtwo.engine_reference import make_view
    >>> from kaptai.bigtwo.play import advice
    >>> keep = parse_cards("3D 3C 9S 2H 4C 4H 4S 5C 5H 5S 6C 6H 6S 7C 7H 7S 8C")
    >>> v = make_view("3D 3C 9S 2H", trick="8D", cards_left=(4, 5, 1, 7),
    ...               played=format_cards([c for c in range(52) if c not in keep]))
    >>> a = advise_view(v, samples=20, seed=0)
    >>> a["labels"] == list(advice(v, samples=20, seed=0).play), a["samples"]
    (True, 20)
    """
    pos, sampled = _view_sampled(view, samples, seed, budget_ms, history)
    return _arrays(pos, *sampled)


def advise_view_table(view: Any, *, samples: int | None, seed: int, budget_ms: float = DEFAULT_BUDGET_MS,
                      history: bool | None = None) -> pd.DataFrame:
    """:func:`advise`'s table of the position a :class:`kaptai.bigtwo.policies.PlayerView` shows
    (the numbers of :func:`advise_view`): what ``kaptai play``'s hint shows.

    The options are the view's: the opening lead holds the view's ``opening_card`` (the engine's,
    which may be ♣3 under ``malaysian_3p`` with ♦3 face down, or none at a later hand under
    ``first_lead='previous_winner'``), and the cards publicly out of play (:func:`out_of_play`)
    are in no layout.

    >>> from kaptai.bigtwo.engine_reference import make_view
    >>> hand = "3C 4D 4C 5D 5C 6D 6C 7D 7C 8D 8C 9D 9C TD TC JD JC"   # 3D is face down: 3C leads
    >>> v = make_view(hand, rules={"players": 3, "malaysian_3p": True}, cards_left=(17, 17, 17), opening_card=1)
    >>> df = advise_view_table(v, samples=4, seed=0)
    >>> sorted(df.play) == sorted(str(p) for p in v.options), all("3C" in p.split() for p in df.play)
    (True, True)
    >>> df.attrs["played"]
    '3D'
    """
    pos, sampled = _view_sampled(view, samples, seed, budget_ms, history)
    return _frame(pos, sampled, check_seed(seed))


def _view_sampled(view: Any, samples: int | None, seed: int, budget_ms: float,
                  history: bool | None) -> tuple[_Position, tuple[np.ndarray, PairedResult]]:
    """The checked position of a view (with its history when :func:`uses_history`) and its sample."""
    start = time.perf_counter()
    pos, seed, samples = _view_position(view, samples, seed)
    budget_ms = check_budget_ms(budget_ms)
    if uses_history(view, history):
        pos = _with_view_history(pos, view)
    return pos, _sample(pos, seed=seed, samples=samples, budget_ms=budget_ms, start=start)


def uses_history(view: Any, history: bool | None = None) -> bool:
    """Whether the advisor weighs a view's layouts by the hand's record: ``history`` (default
    :data:`USE_HISTORY`) on, a record to read, and no publicly dead card (a Malaysian swap's ♦3,
    which the typed history cannot say)."""
    return bool((USE_HISTORY if history is None else history) and view.history and not view.dead)


def _with_view_history(pos: _Position, view: Any) -> _Position:
    """``pos`` with the view's public record and locks, seats counted from the deciding seat."""
    N, s = view.players, view.seat
    rows = tuple(((q - s) % N, int(t), int(m), int(p), int(c)) for q, t, m, p, c in view.history)
    locked = tuple(bool(view.locked[(s + j) % N]) for j in range(N)) if view.locked else pos.locked
    return replace(pos, history=rows, locked=locked)


def _view_position(view: Any, samples: int | None, seed: int) -> tuple[_Position, int, int | None]:
    """The checked position of a view (seats counted from the deciding seat), as :func:`advise`
    checks it when :func:`kaptai.bigtwo.play.advice` types the view's cards."""
    N, s = view.players, view.seat
    _r, cfg = _config(view.rules, N)
    samples = check_samples(samples)
    seed = check_seed(seed)
    h = tuple(view.hand)
    if not h:
        raise InvalidHandError("hand is empty: give the cards you hold")
    tbm = view.trick_mask if not view.leading else None
    tb = tuple(c for c in range(N_CARDS) if tbm and tbm >> c & 1)
    played = (view.played | out_of_play(view)) & ~(tbm or 0)
    pl = tuple(c for c in range(N_CARDS) if played >> c & 1)
    by = (view.trick_seat - s) % N if tbm else None
    left = [view.cards_left[(s + j) % N] for j in range(1, N)]
    pos = _position(cfg, h, pl, tb, by, left, bool(tb), typed=False)
    if view.leading:  # the card the lead must hold is the engine's (view.opening_card), not derived again
        pos = replace(pos, must=0 if view.opening_card is None else 1 << view.opening_card)
    return pos, seed, samples


def out_of_play(view: Any) -> int:
    """The cards publicly out of play that are not among ``view.played``: the advisor takes them as
    played (out of every layout), so that it prices the position the engine is in.

    Under ``malaysian_3p`` the lowest card (♦3) may be out of play before the first lead: its
    holder swapped it for the face-down card (``view.dead``), or it is the face-down card itself
    (nothing played, and the lead is not the lowest card's: under ``first_lead='lowest_card'``
    its holder would lead, and with the lowest card face down the lowest card held leads, the
    view's ``opening_card``).

    >>> from kaptai.bigtwo.engine_reference import make_view
    >>> rules = {"players": 3, "malaysian_3p": True}
    >>> v = make_view("3C 4D 9S", rules=rules, cards_left=(3, 17, 17), opening_card=1)
    >>> format_cards([c for c in range(N_CARDS) if out_of_play(v) >> c & 1])   # 3D face down
    '3D'
    >>> out_of_play(make_view("3D 4D 9S", rules=rules, cards_left=(3, 17, 17), opening_card=0))
    0
    """
    info = rules_info(view.rules)
    out = view.dead & ~view.played
    low = 1 << info.lowest
    if (view.rules.malaysian_3p and view.leading and not view.played and not view.hand_mask & low
            and (view.rules.first_lead == "lowest_card"
                 or (view.opening_card is not None and view.opening_card != info.lowest))):
        out |= low
    return out


def _frame(pos: _Position, sampled: tuple[np.ndarray, PairedResult], seed: int) -> pd.DataFrame:
    """:func:`advise`'s table of a sampled position."""
    import pandas as pd

    cands, res = sampled
    r, cfg, info, h, pl, tb, b = pos.r, pos.cfg, pos.info, pos.h, pos.pl, pos.tb, pos.b
    N, left, hidden_dead = cfg.players, pos.left, pos.hidden_dead
    S = res.samples
    mean = res.means(0)
    lo, hi = res.interval(0)
    d, dlo, dhi = res.vs_best()
    wins = res.sums[1]
    wlo, whi = wilson_interval(wins, S, CONFIDENCE)
    rows = []
    for i, m in enumerate(int(x) for x in cands):
        is_pass = m == 0 and i == len(cands) - 1
        ent = None if is_pass else info.entry(m)
        rows.append({
            "rank": 0, "play": "PASS" if is_pass else info.text(m),
            "kind": "pass" if is_pass else _KINDS[int(ent[0])] if ent is not None else "?",
            "ev": float(mean[i]), "ev_low": float(lo[i]) if S > 1 else math.nan,
            "ev_high": float(hi[i]) if S > 1 else math.nan,
            "vs_best": float(d[i]), "vs_best_low": float(dlo[i]), "vs_best_high": float(dhi[i]),
            "p_win": float(wins[i]) / S, "p_win_low": float(wlo[i]), "p_win_high": float(whi[i]), "samples": S,
            "_order": i,
        })
    df = pd.DataFrame(rows, columns=[*ADVICE_COLUMNS, "_order"])
    df = df.sort_values(["ev", "_order"], ascending=[False, True], kind="stable").drop(columns="_order")
    df["rank"] = competition_ranks(df["ev"].to_numpy())
    df = df.reset_index(drop=True)
    df.attrs.update({
        "game": "big-two",
        "rules": r.to_dict(),
        "players": N,
        "hand": format_cards(sorted(h, key=info.strength.__getitem__)),
        "played": format_cards(sorted(pl, key=info.strength.__getitem__)),
        "to_beat": format_cards(tb) if tb else None,
        "by": b if tb else None,
        "cards_left": list(left),
        "hidden_dead": hidden_dead,
        **res.attrs(),
        "seed": int(seed),
        "confidence": CONFIDENCE,
        "unit": "point x stake",
        "version": __version__,
        "history": len(pos.history),
        "method": (
            f"determinized Monte Carlo: {S} layouts of the unseen cards consistent with the card counts"
            + (f", each picked by weight from {cfg.search_pool} weighed by how well they explain the "
               f"{len(pos.history)} actions of the history" if pos.history and cfg.search_pool > 1 else "")
            + f", every option played on each (common random numbers), the rest of the hand by '{cfg.search_rollout}' "
            "for you and a style drawn per layout for each other seat (compiled engine); ev = mean net (normal 95% "
            "interval), p_win = P(go out first) (Wilson)"
        ),
    })
    return df
