"""The ground floor of Big Two's pure-Python play, below the policies and the reference engine.

What both :mod:`kaptai.bigtwo.policies` and :mod:`kaptai.bigtwo.engine_reference` need lives
here, so that neither imports the other: the per-ruleset tables (:class:`RulesInfo`), the view a
seat decides from (:class:`PlayerView`), the legal plays and options of a turn
(:func:`legal_entries`, :func:`turn_options`, :func:`make_view`), the decks and the game state
machine (:class:`Game`).  :class:`Game` here runs policy *objects* only; the name resolution
(``'greedy'``, ``'search'`` ...) is added by :class:`kaptai.bigtwo.engine_reference.Game`.  The
import order is ``_moves`` <- ``policies`` <- ``engine_reference``.

Examples
--------
>>> from kaptai.bigtwo._moves import make_view
>>> [str(p) for p in make_view("3D 4C 4S", trick="3S").options]
['4C', '4S']
"""

from __future__ import annotations

import itertools
from collections.abc import Sequence
from dataclasses import dataclass, field
from functools import lru_cache
from numbers import Integral
from typing import Any, Literal, cast

import numpy as np

from kaptai.bigtwo import reference
from kaptai.bigtwo.cards import N_CARDS, RANKS, format_card, format_cards, parse_cards
from kaptai.bigtwo.config import ACTIONS, MAX_REDEALS, MAX_TURNS, POINT_VALUES, EngineConfig, IllegalPlayError
from kaptai.bigtwo.evaluate import Category, Play
from kaptai.bigtwo.rules import RuleSet, resolve_rules
from kaptai.core.sampling import RandomStream
from kaptai.errors import InvalidHandError, KaptaiError

#: Mask of the whole deck.
FULL_MASK: int = (1 << N_CARDS) - 1
#: Entries of a game's public history that are kept (docs "search", History).
HMAX: int = 512


# --------------------------------------------------------------------------------------
# Per-ruleset tables and the memoised reference classifier
# --------------------------------------------------------------------------------------


class RulesInfo:
    """Tables of one ruleset used by the reference engine and the Python policies.

    Attributes
    ----------
    rules : RuleSet
    strength : tuple of int
        Single-card strength of each card id (0 = lowest card).
    rank_strength : tuple of int
        Strength 0-12 of each natural rank (12 = the top rank, a 2 by default).
    suit_strength : tuple of int
        Strength 0-3 of each suit index (D C H S).
    lowest : int
        Id of the lowest card.
    straights : tuple of int
        Rank masks (bit = natural rank) of the straights of ``straight_order``, lowest
        first, from :data:`kaptai.bigtwo.reference.STRAIGHTS`.
    """

    def __init__(self, rules: RuleSet):
        self.rules = rules
        self.strength = tuple(int(x) for x in rules.card_strength())
        self.rank_strength = tuple(int(x) for x in rules.rank_strength())
        self.suit_strength = tuple(int(x) for x in rules.suit_strength())
        self.lowest = int(rules.lowest_card())
        self.straights = tuple(
            sum(1 << RANKS.index(ch) for ch in seq) for seq in reference.STRAIGHTS[rules.straight_order]
        )
        self._memo: dict[int, tuple | None] = {}

    def entry(self, mask: int) -> tuple | None:
        """``(trick, key, mask, Play)`` of a card mask, or None if it is not a legal play.

        The classification is :func:`kaptai.bigtwo.reference.classify`, memoised by mask.
        """
        hit: tuple | None | Literal[False] = self._memo.get(mask, False)
        if hit is not False:
            return hit
        ids = [c for c in range(N_CARDS) if mask >> c & 1]
        res = reference.classify(ids, self.rules) if 1 <= len(ids) <= 5 else None
        if res is None:
            out = None
        else:
            t, cat, key = res
            play = Play(tuple(sorted(ids, key=self.strength.__getitem__)), t, Category(cat), key)
            out = (t, key, mask, play)
        if len(self._memo) > 400_000:
            self._memo.clear()
        self._memo[mask] = out
        return out

    def play(self, mask: int) -> Play | None:
        """The :class:`Play` of a card mask, or None if illegal."""
        e = self.entry(mask)
        return None if e is None else e[3]

    def top_card(self, mask: int) -> int:
        """Highest-strength card of a non-empty mask."""
        return max((c for c in range(N_CARDS) if mask >> c & 1), key=self.strength.__getitem__)

    def text(self, mask: int) -> str:
        """Canonical text of a mask, ascending by strength (``'3D 3C AS'``)."""
        ids = sorted((c for c in range(N_CARDS) if mask >> c & 1), key=self.strength.__getitem__)
        return format_cards(ids)


@lru_cache(maxsize=32)
def rules_info(rules: RuleSet) -> RulesInfo:
    """The (cached) :class:`RulesInfo` of a ruleset.

    Examples
    --------
    >>> from kaptai.bigtwo.policies import rules_info
    >>> from kaptai.bigtwo.rules import RuleSet
    >>> info = rules_info(RuleSet())
    >>> info.lowest, str(info.play(0b11)), info.play(0b10001) is None
    (0, '3D 3C', True)
    """
    return RulesInfo(rules)


def _bits(mask: int) -> list[int]:
    return [c for c in range(N_CARDS) if mask >> c & 1]


# --------------------------------------------------------------------------------------
# The view
# --------------------------------------------------------------------------------------


@dataclass(frozen=True)
class PlayerView:
    """What a seat knows when it decides (read-only).

    Attributes
    ----------
    seat : int
        The deciding seat (seats ``0..N-1`` in play order).
    players : int
        N.
    rules : RuleSet
    hand : tuple of int
        The seat's cards, ascending by single-card strength.
    hand_mask : int
        The same as a 52-bit mask.
    cards_left : tuple of int
        Cards held by each seat.
    trick_mask, trick_class, trick_key
        The play to beat (mask, trick class 1-5, reference key), or None when leading.
    trick_seat : int
        Seat that made the play to beat (-1 when leading).
    leading : bool
        The seat leads a new trick (it may not pass).
    opening_card : int or None
        The card the opening lead must contain (``opening_must_include_lowest``), else None.
    played : int
        Mask of every card played so far.
    dead : int
        Mask of cards publicly out of play (``lowest`` after a Malaysian swap).
    next_cards : int
        Cards held by the next seat ``(seat + 1) % N`` (頂大 applies at 1).
    options : tuple of Play
        The legal plays of the turn in play order (after the ``top_rule='mandatory'``
        filter); empty for the swap decision.
    option_masks : tuple of int
        Masks of ``options``.
    can_pass : bool
        PASS is a legal choice.
    turn : int
        Turns taken so far in the game.
    deciding_swap : bool
        The view is for the Malaysian swap decision (:meth:`Policy.swap`), not a turn.
    rng : RandomStream or None
        The run's random stream (``rng.bounded(k)``: uniform in ``[0, k)``).
    passes : int
        Passes in a row since the play to beat (0 when leading).
    locked : tuple of bool
        Seats locked out of the trick by ``pass_locks_out`` (empty: none).
    violator : int
        The seat whose 頂大 violation was the previous turn (liable if this seat goes out
        now), -1 for none; public, like every play.
    history : tuple of tuple
        The public record of the game's turns so far that were not automatic passes, each
        ``(seat, trick, must, played, choice)``: the mask of the play to beat (0 when leading),
        of the card the lead had to contain (0: none), of the cards played before the turn and
        of the choice (0 = PASS); at most :data:`HMAX` entries (docs ``big-two-engine.md``,
        "search", History).

    Examples
    --------
    >>> from kaptai.bigtwo.engine_reference import make_view
    >>> v = make_view("3D 3C 9S 2H", trick="8D", cards_left=(4, 5, 1, 7))
    >>> [str(p) for p in v.options], v.can_pass, v.opp_min, v.top
    (['9S', '2H'], True, 1, 50)
    """

    seat: int
    players: int
    rules: RuleSet
    hand: tuple[int, ...]
    hand_mask: int
    cards_left: tuple[int, ...]
    trick_mask: int | None
    trick_class: int | None
    trick_key: tuple | None
    trick_seat: int
    leading: bool
    opening_card: int | None
    played: int
    dead: int
    next_cards: int
    options: tuple[Play, ...]
    option_masks: tuple[int, ...]
    can_pass: bool
    turn: int = 0
    deciding_swap: bool = False
    rng: Any = field(default=None, repr=False, compare=False)
    passes: int = 0
    locked: tuple[bool, ...] = ()
    violator: int = -1
    history: tuple[tuple[int, int, int, int, int], ...] = field(default=(), repr=False, compare=False)

    def unseen(self) -> int:
        """Mask of the cards this seat cannot see: deck - own hand - played - dead."""
        return FULL_MASK & ~self.hand_mask & ~self.played & ~self.dead

    @property
    def trick(self) -> Play | None:
        """The play to beat, or None."""
        return None if self.trick_mask is None else rules_info(self.rules).play(self.trick_mask)

    @property
    def top(self) -> int:
        """The seat's highest-strength card (頂大's ``top``)."""
        return rules_info(self.rules).top_card(self.hand_mask)

    @property
    def opp_min(self) -> int:
        """Fewest cards held by another seat."""
        return min(n for s, n in enumerate(self.cards_left) if s != self.seat)

    @property
    def blocking(self) -> bool:
        """頂大 is in force: ``top_rule != 'off'`` and the next seat holds exactly 1 card."""
        return self.rules.top_rule != "off" and self.next_cards == 1

    def top_beats_trick(self) -> bool:
        """Facing a single that ``top`` beats (頂大 case (b))."""
        if self.trick_class != 1:
            return False
        info = rules_info(self.rules)
        return cast(tuple, info.entry(1 << self.top))[1] > self.trick_key  # a single is always legal



DEAL, LEFTOVER, SWAP, INSTANT_WIN, REDEAL, LEAD, PLAY, PASS, WIN = range(len(ACTIONS))

# §4 redeal points by natural rank: J=1 Q=2 K=3 A=4 2=5
_REDEAL_POINTS = (0,) * 8 + (1, 2, 3, 4, 5)
_T, _J = RANKS.index("T"), RANKS.index("J")
# every rank set that is a straight under some straight_order (candidate generation only;
# which of them is a straight under the active rules is the classifier's decision)
_ANY_STRAIGHT = tuple(
    sorted({sum(1 << RANKS.index(ch) for ch in seq) for seqs in reference.STRAIGHTS.values() for seq in seqs})
)


def _popcount(mask: int) -> int:
    return bin(mask).count("1")


# --------------------------------------------------------------------------------------
# Decks
# --------------------------------------------------------------------------------------


def shuffled_deck(stream: RandomStream) -> list[int]:
    """``[0..51]`` shuffled by Fisher-Yates with ``stream.bounded`` (51 draws).

    Examples
    --------
    >>> import numpy as np
    >>> from kaptai.core.sampling import RandomStream
    >>> from kaptai.bigtwo.engine_reference import shuffled_deck
    >>> d = shuffled_deck(RandomStream(np.random.PCG64(0)))
    >>> sorted(d) == list(range(52)), d[:3]
    (True, [43, 2, 48])
    """
    deck = list(range(N_CARDS))
    for i in range(N_CARDS - 1, 0, -1):
        j = stream.bounded(i + 1)
        deck[i], deck[j] = deck[j], deck[i]
    return deck


class DeckSource:
    """Where deals come from: given decks in order, else shuffles of the stream.

    Parameters
    ----------
    stream : RandomStream or None
        Shuffles the deck when no decks are given.
    decks : array_like of int, shape (m, 52), optional
        Decks used in order, one per deal (a redeal takes the next one).

    Raises
    ------
    KaptaiError
        A deck that is not a permutation of the 52 card ids; running out of decks; no
        decks and no stream.

    Examples
    --------
    >>> from kaptai.bigtwo.engine_reference import DeckSource
    >>> src = DeckSource(decks=[list(range(52))])
    >>> src.next()[:3]
    [0, 1, 2]
    >>> src.next()
    Traceback (most recent call last):
    ...
    kaptai.errors.KaptaiError: deal 2 needs a deck, but only 1 deck(s) were given
    """

    def __init__(self, stream: RandomStream | None = None, decks: Any = None):
        self.stream = stream
        self.used = 0
        if decks is None:
            self.decks = None
            return
        arr = np.asarray(decks)
        if arr.ndim == 1:
            arr = arr.reshape(1, -1)
        if arr.ndim != 2 or arr.shape[1] != N_CARDS or arr.dtype.kind not in "ui":
            raise KaptaiError(f"decks must be an integer array of shape (m, 52), got shape {arr.shape}")
        for i, row in enumerate(arr):
            if sorted(int(x) for x in row) != list(range(N_CARDS)):
                raise KaptaiError(f"deck {i} is not a permutation of the card ids 0-51")
        self.decks = [[int(x) for x in row] for row in arr]

    def next(self) -> list[int]:
        """The deck of the next deal."""
        self.used += 1
        if self.decks is not None:
            if self.used > len(self.decks):
                raise KaptaiError(
                    f"deal {self.used} needs a deck, but only {len(self.decks)} deck(s) were given"
                )
            return list(self.decks[self.used - 1])
        if self.stream is None:
            raise KaptaiError("no decks were given and there is no random stream to shuffle")
        return shuffled_deck(self.stream)


# --------------------------------------------------------------------------------------
# Legal plays, by brute force over the card sets that can form a combination
# --------------------------------------------------------------------------------------


def _candidates(hand: int) -> set[int]:
    """Every subset of ``hand`` with a shape some ruleset allows (a superset of the legal plays).

    Shapes: 1 card; 2-4 of one rank; two pairs; triple + pair; quad + 1; two pairs + 1;
    five distinct ranks that are one suit or a straight under some ``straight_order``.
    Every other 1-5 card set is illegal under every option.
    """
    ids = _bits(hand)
    by_rank: list[list[int]] = [[] for _ in range(13)]
    by_suit: list[list[int]] = [[] for _ in range(4)]
    for c in ids:
        by_rank[c >> 2].append(c)
        by_suit[c & 3].append(c)
    out: set[int] = {1 << c for c in ids}
    groups: list[dict[int, list[int]]] = [{}, {}, {}, {}, {}]  # k -> rank -> masks of k cards
    for r, cs in enumerate(by_rank):
        for k in (2, 3, 4):
            ms = [sum(1 << c for c in comb) for comb in itertools.combinations(cs, k)]
            if ms:
                groups[k][r] = ms
                out.update(ms)
    pair_ranks = sorted(groups[2])
    for r1, r2 in itertools.combinations(pair_ranks, 2):
        for m1 in groups[2][r1]:
            for m2 in groups[2][r2]:
                out.add(m1 | m2)  # two pairs
                for c in ids:  # two pairs + 1
                    if (c >> 2) not in (r1, r2):
                        out.add(m1 | m2 | 1 << c)
    for r3, ms3 in groups[3].items():  # full houses
        for r2, ms2 in groups[2].items():
            if r2 != r3:
                out.update(a | b for a in ms3 for b in ms2)
    for r4, ms4 in groups[4].items():  # quad + 1
        for c in ids:
            if c >> 2 != r4:
                out.add(ms4[0] | 1 << c)
    for cs in by_suit:  # one suit, five cards (distinct ranks by construction)
        out.update(sum(1 << c for c in comb) for comb in itertools.combinations(cs, 5))
    for w in _ANY_STRAIGHT:  # straight rank sets, any suits
        rks = [r for r in range(13) if w >> r & 1]
        if all(by_rank[r] for r in rks):
            out.update(sum(1 << c for c in comb) for comb in itertools.product(*(by_rank[r] for r in rks)))
    return out


def legal_entries(hand: int, rules: RuleSet | RulesInfo) -> list[tuple]:
    """Every legal play of a hand as ``(trick, key, mask, Play)``, in play order.

    Play order is ``(trick, key, mask)`` ascending with the reference key.

    Parameters
    ----------
    hand : int
        Card mask.
    rules : RuleSet or RulesInfo

    Examples
    --------
    >>> from kaptai.bigtwo.engine_reference import legal_entries
    >>> from kaptai.bigtwo.cards import cards_to_mask, parse_cards
    >>> from kaptai.bigtwo.rules import RuleSet
    >>> [str(e[3]) for e in legal_entries(cards_to_mask(parse_cards("3D 3C 4S")), RuleSet())]
    ['3D', '3C', '4S', '3D 3C']
    """
    info = rules if isinstance(rules, RulesInfo) else rules_info(rules)
    out = [e for e in map(info.entry, _candidates(hand)) if e is not None]
    out.sort(key=lambda e: (e[0], e[1], e[2]))
    return out


@dataclass(frozen=True)
class TurnOptions:
    """The options of one turn.

    Attributes
    ----------
    plays : list of tuple
        ``(trick, key, mask, Play)`` entries in play order, after the ``mandatory`` filter.
    can_pass : bool
        PASS is allowed (after the filter).
    pass_rule_ok : bool
        PASS is allowed by ``pass_only_if_unable`` (before the filter; False when leading).
    unfiltered : list of tuple
        The plays before the ``mandatory`` filter (the structurally legal plays).
    blocking : bool
        頂大 applies (``top_rule != 'off'`` and the next seat holds 1 card).
    top : int
        The seat's highest-strength card.
    pass_violates : bool
        Passing is a 頂大 violation.
    violating : frozenset of int
        Masks of the plays that are 頂大 violations.
    """

    plays: list
    can_pass: bool
    pass_rule_ok: bool
    unfiltered: list
    blocking: bool
    top: int
    pass_violates: bool
    violating: frozenset

    def violates(self, mask: int | None) -> bool:
        """Whether a choice (mask, None = PASS) is a 頂大 violation."""
        return self.pass_violates if mask is None else mask in self.violating


def turn_options(
    info: RulesInfo,
    entries: Sequence[tuple],
    hand: int,
    trick: tuple | None,
    opening_card: int | None,
    next_cards: int,
) -> TurnOptions:
    """The options of a seat's turn (docs "6. Play": leading, following, 頂大).

    Parameters
    ----------
    info : RulesInfo
    entries : sequence of tuple
        Legal plays of a hand containing ``hand`` (e.g. the dealt hand), in play order.
    hand : int
        The current hand mask.
    trick : tuple or None
        The ``(trick, key, mask, Play)`` entry to beat, None when leading.
    opening_card : int or None
        Card the lead must contain.
    next_cards : int
        Cards held by the next seat.
    """
    rules = info.rules
    mine = [e for e in entries if not e[2] & ~hand]
    if trick is None:
        plays = [e for e in mine if opening_card is None or e[2] >> opening_card & 1]
        pass_ok = False
    else:
        t, k = trick[0], trick[1]
        plays = [e for e in mine if e[0] == t and e[1] > k]
        pass_ok = not (rules.pass_only_if_unable and plays)
    top = info.top_card(hand)
    blocking = rules.top_rule != "off" and next_cards == 1
    violating: frozenset = frozenset()
    pass_violates = False
    if blocking:
        if trick is None:
            violating = frozenset(e[2] for e in plays if e[0] == 1 and e[2] != 1 << top)
        elif trick[0] == 1 and cast(tuple, info.entry(1 << top))[1] > trick[1]:  # a single is always legal
            violating = frozenset(e[2] for e in plays if e[2] != 1 << top)
            pass_violates = True
    kept, can_pass = plays, pass_ok
    if rules.top_rule == "mandatory" and (violating or pass_violates):
        f_plays = [e for e in plays if e[2] not in violating]
        f_pass = pass_ok and not pass_violates
        if f_plays or f_pass:  # a filter that would leave nothing is not applied
            kept, can_pass = f_plays, f_pass
    return TurnOptions(kept, can_pass, pass_ok, plays, blocking, top, pass_violates, violating)


def make_view(
    hand: Any,
    rules: RuleSet | str | Any = None,
    *,
    trick: Any = None,
    seat: int = 0,
    cards_left: Sequence[int] | None = None,
    played: Any = (),
    dead: Any = (),
    opening_card: int | None = None,
    trick_seat: int | None = None,
    turn: int = 0,
    rng: Any = None,
    passes: int = 0,
    locked: Sequence[bool] = (),
    violator: int = -1,
    history: Sequence[Sequence[int]] = (),
) -> PlayerView:
    """A :class:`PlayerView` of a hand-built position, options computed as the engine does.

    Parameters
    ----------
    hand : str or iterable of card ids
        The deciding seat's cards.
    rules : RuleSet, str, mapping or None
    trick : cards or None
        The play to beat (None: the seat leads).
    seat : int
    cards_left : sequence of int, optional
        Cards of every seat (default: 4 seats, the others holding 13); the seat's own entry
        is replaced by the hand size.
    played, dead : cards
        Cards played so far / publicly out of play.
    opening_card : int, optional
        Card the lead must contain.
    trick_seat : int, optional
        Seat that made the play to beat (default the previous seat).
    turn : int
        Turns taken so far.
    rng : RandomStream, optional
        The stream policies draw from.
    passes, locked, violator, history
        Passes since the play to beat, seats locked out (``pass_locks_out``), the 頂大
        violator of the previous turn, the public record of the game (see :class:`PlayerView`).

    Examples
    --------
    >>> from kaptai.bigtwo.engine_reference import make_view
    >>> v = make_view("3D 4C 4S", trick="3S")
    >>> [str(p) for p in v.options], v.leading
    (['4C', '4S'], False)
    """
    rules = resolve_rules(rules)
    info = rules_info(rules)

    def to_mask(x: Any) -> int:
        if isinstance(x, Play):
            x = x.cards
        if isinstance(x, Integral):
            return int(x)
        return sum(1 << c for c in parse_cards(x))

    hm = to_mask(hand)
    left = list(cards_left) if cards_left is not None else [13] * 4
    left[seat] = _popcount(hm)
    n = len(left)
    tentry = None
    if trick is not None:
        tentry = info.entry(to_mask(trick))
        if tentry is None:
            raise InvalidHandError(f'trick "{info.text(to_mask(trick))}" is not a legal combination')
    opts = turn_options(info, legal_entries(hm, info), hm, tentry, opening_card, left[(seat + 1) % n])
    return PlayerView(
        seat=seat, players=n, rules=rules, hand=tuple(sorted(_bits(hm), key=info.strength.__getitem__)),
        hand_mask=hm, cards_left=tuple(left),
        trick_mask=None if tentry is None else tentry[2], trick_class=None if tentry is None else tentry[0],
        trick_key=None if tentry is None else tentry[1],
        trick_seat=(-1 if tentry is None else ((seat - 1) % n if trick_seat is None else trick_seat)),
        leading=tentry is None, opening_card=opening_card, played=to_mask(played), dead=to_mask(dead),
        next_cards=left[(seat + 1) % n], options=tuple(e[3] for e in opts.plays),
        option_masks=tuple(e[2] for e in opts.plays), can_pass=opts.can_pass, turn=turn, rng=rng,
        passes=int(passes), locked=tuple(bool(x) for x in locked), violator=int(violator),
        history=tuple((int(h[0]), int(h[1]), int(h[2]), int(h[3]), int(h[4])) for h in history),
    )


# --------------------------------------------------------------------------------------
# One game
# --------------------------------------------------------------------------------------


@dataclass(frozen=True)
class GameResult:
    """The outcome row of one game (the keys of :data:`kaptai.bigtwo.config.OUTCOME_DTYPES`)."""

    winner: int
    leader: int
    cards_left: tuple[int, ...]
    points_left: tuple[int, ...]
    liable: int
    instant: int
    redeals: int
    swapped: int
    plays: int
    turns: int
    violations: int


_ASK = object()


class Game:
    """One game of Big Two in progress, following ``docs/big-two-engine.md``.

    The constructor plays the deal phase (deal, leftover cards or Malaysian swap, leader,
    instant wins, redeals); then each :meth:`step` plays one turn.  Until :attr:`over`,
    :attr:`seat` is the seat to move and :meth:`view` what it sees.

    Parameters
    ----------
    cfg : EngineConfig
    policies : str, Policy or sequence
        Policy objects, one per seat or one for all (names are resolved by
        :class:`kaptai.bigtwo.engine_reference.Game`); asked when :meth:`step` is
        called without a choice, and for the Malaysian swap.
    stream : RandomStream, optional
        Shuffles (unless ``decks`` is given) and the ``'random'`` policy.
    decks : DeckSource or array_like (m, 52), optional
        Constructed decks, one per deal.
    previous_winner : int
        Winner of the previous game of the run (-1: none); used by
        ``first_lead='previous_winner'``.
    index : int
        The log's ``game`` column.
    record : bool
        Keep the log rows in :attr:`log`.

    Examples
    --------
    >>> from kaptai.bigtwo.config import make_config
    >>> from kaptai.bigtwo.engine_reference import Game
    >>> g = Game(make_config(4, {"redeal": "off"}), "greedy", decks=[list(range(52))])
    >>> g.seat, g.view().opening_card, [str(p) for p in g.view().options][:2]
    (0, 0, ['3D', '3D 3C'])
    >>> g.step("3D 3C"); g.seat, g.trick_text
    (1, '3D 3C')
    >>> g.play().winner  # seat 3 was dealt the Js to the 2s
    3
    """

    @staticmethod
    def resolve(policies: Any, players: int, stream: Any = None, cfg: Any = None) -> list:
        """One policy object per seat from an object or a sequence of them (this ground-floor
        class resolves no names; :class:`kaptai.bigtwo.engine_reference.Game` does)."""
        objs = list(policies) if isinstance(policies, Sequence) and not isinstance(policies, str) else [policies] * players
        if len(objs) != players or not all(callable(getattr(p, "choose", None)) for p in objs):
            raise KaptaiError(f"expected {players} policy objects (with choose(view)), got {policies!r}"[:200])
        return objs

    def __init__(
        self,
        cfg: EngineConfig,
        policies: Any,
        stream: RandomStream | None = None,
        *,
        decks: DeckSource | Any = None,
        previous_winner: int = -1,
        index: int = 0,
        record: bool = True,
    ):
        self.cfg = cfg
        self.rules = cfg.rules
        self.info = rules_info(cfg.rules)
        self.N = cfg.players
        self.stream = stream
        self.policies = None if policies is None else type(self).resolve(policies, cfg.players, stream, cfg)
        self.source = decks if isinstance(decks, DeckSource) else DeckSource(stream, decks)
        self.previous_winner = previous_winner
        self.index = index
        self.record = record
        self.log: list[tuple[int, int, int, int, int, int]] = []
        self._step = 0
        # outcome fields
        self.winner = -1
        self.liable = -1
        self.instant = 0
        self.redeals = 0
        self.swapped = -1
        self.plays = 0
        self.turns = 0
        self.violations = 0
        self.over = False
        self._deal_phase()

    @classmethod
    def from_position(
        cls,
        cfg: EngineConfig,
        policies: Any,
        view: PlayerView,
        hands: Sequence[int],
        stream: RandomStream | None = None,
    ) -> Game:
        """A game in progress at the position of ``view`` with every seat's hand given
        (a search rollout): the trick, its maker, the passes, locks, ``played``, the public
        dead cards, the opening constraint and the 頂大 violator of the previous turn come
        from the view; no log is kept.

        Examples
        --------
        >>> from kaptai.bigtwo.config import make_config
        >>> from kaptai.bigtwo.cards import cards_to_mask, parse_cards
        >>> from kaptai.bigtwo.engine_reference import Game, make_view
        >>> v = make_view("3D 9S", trick="8D", cards_left=(2, 1, 1, 1), trick_seat=3)
        >>> m = lambda t: cards_to_mask(parse_cards(t))
        >>> g = Game.from_position(make_config(4), "greedy", v, [m("3D 9S"), m("4D"), m("5D"), m("AS")])
        >>> g.step("9S"); g.play().winner   # seats 1 and 2 cannot beat 9S; seat 3's AS does, and goes out
        3
        """
        g = cls.__new__(cls)
        g.cfg, g.rules, g.info, g.N = cfg, cfg.rules, rules_info(cfg.rules), cfg.players
        g.stream = stream
        g.policies = None if policies is None else cls.resolve(policies, cfg.players, stream, cfg)
        g.source = DeckSource(stream)
        g.previous_winner, g.index, g.record = -1, 0, False
        g.log = []
        g._step = 0
        g.winner, g.liable, g.instant, g.redeals, g.swapped = -1, -1, 0, 0, -1
        g.plays, g.turns, g.violations, g.over = 0, view.turn, 0, False
        g.leader = view.seat
        g.dead = view.dead
        g.lowest_gone = bool(view.dead)
        g.opening_card = view.opening_card if view.leading else None
        g._hands = [int(h) for h in hands]
        g.trick = None if view.trick_mask is None else g.info.entry(view.trick_mask)
        g.last = view.seat if view.trick_mask is None else view.trick_seat
        g.passes = view.passes
        g.locked = list(view.locked) if view.locked else [False] * g.N
        g.played = view.played
        g.seat = view.seat
        g._violator = view.violator
        g._entries = [None] * g.N
        g._opts_turn = -1
        g._opts = None
        g.history = None  # a rollout keeps no history
        return g

    # ------------------------------------------------------------------ helpers
    def _row(self, seat: int, action: int, cards: int = 0, value: int = 0) -> None:
        if self.record:
            self.log.append((self.index, self._step, seat, action, cards, value))
        self._step += 1

    def _policy(self, seat: int):
        if self.policies is None:
            raise KaptaiError(f"seat {seat} has no policy: pass a choice to step()")
        return self.policies[seat]

    @property
    def hands(self) -> tuple[int, ...]:
        """Hand masks by seat."""
        return tuple(self._hands)

    @property
    def trick_text(self) -> str | None:
        """Canonical text of the play to beat, or None."""
        return None if self.trick is None else str(self.trick[3])

    def state(self) -> dict[str, Any]:
        """A snapshot of the mutable state (for tests: unchanged after an illegal choice)."""
        return {
            "hands": tuple(self._hands), "trick": None if self.trick is None else self.trick[2],
            "last": self.last, "passes": self.passes, "locked": tuple(self.locked), "played": self.played,
            "seat": self.seat, "turns": self.turns, "plays": self.plays, "violations": self.violations,
            "opening": self.opening_card, "violator": self._violator, "over": self.over,
            "log": len(self.log), "step": self._step,
        }

    # ------------------------------------------------------------------ deal phase
    def _deal(self) -> None:
        cfg, info, N = self.cfg, self.info, self.N
        h, r = cfg.hand_size, cfg.leftover
        deck = self.source.next()
        hands = [sum(1 << c for c in deck[s * h : (s + 1) * h]) for s in range(N)]
        rest = deck[N * h :]
        lowest = info.lowest
        by_strength = sorted(range(N_CARDS), key=info.strength.__getitem__)
        self.dead = 0  # publicly dead cards
        self.swapped = -1
        self.lowest_gone = False
        holder_of = lambda c: next(s for s in range(N) if hands[s] >> c & 1)  # noqa: E731
        if not self.rules.malaysian_3p:
            if r > 0:
                first = next(c for c in by_strength if any(hm >> c & 1 for hm in hands))
                s = holder_of(first)
                lm = sum(1 << c for c in rest)
                hands[s] |= lm
                self._row(s, LEFTOVER, lm, r)
        else:
            (L,) = rest
            if L == lowest:
                self._row(-1, LEFTOVER, 1 << L, 0)
            else:
                H = holder_of(lowest)
                if cfg.malaysian_swap == "always":
                    do = True
                elif cfg.malaysian_swap == "never":
                    do = False
                else:
                    do = bool(self._policy(H).swap(self._swap_view(H, hands)))
                if do:
                    hands[H] = hands[H] & ~(1 << lowest) | 1 << L
                    self.dead = 1 << lowest
                    self.lowest_gone = True
                self.swapped = int(do)
                self._row(H, SWAP, 1 << L, int(do))
        self._hands = hands
        for s in range(N):
            self._row(s, DEAL, hands[s], _popcount(hands[s]))
        # leader and the opening constraint
        held = next(c for c in by_strength if any(hm >> c & 1 for hm in hands))
        by_winner = self.rules.first_lead == "previous_winner" and self.previous_winner >= 0
        if by_winner:
            self.leader = self.previous_winner
        elif self.lowest_gone:
            self.leader = holder_of(L)  # H: the swapped-in card is in H's hand
        else:
            self.leader = holder_of(held)
        self.opening_card = (
            held
            if self.rules.opening_must_include_lowest and not by_winner and not self.lowest_gone
            else None
        )

    def _swap_view(self, H: int, hands: list[int]) -> PlayerView:
        info = self.info
        return PlayerView(
            seat=H, players=self.N, rules=self.rules,
            hand=tuple(sorted(_bits(hands[H]), key=info.strength.__getitem__)), hand_mask=hands[H],
            cards_left=tuple(_popcount(m) for m in hands), trick_mask=None, trick_class=None, trick_key=None,
            trick_seat=-1, leading=False, opening_card=None, played=0, dead=0,
            next_cards=_popcount(hands[(H + 1) % self.N]), options=(), option_masks=(), can_pass=False,
            turn=0, deciding_swap=True, rng=self.stream,
        )

    def _instant_winner(self) -> tuple[int, int]:
        rules, N = self.rules, self.N
        order = [(self.leader + i) % N for i in range(N)]
        if rules.instant_dragon:
            for s in order:
                if all(self._hands[s] >> (4 * r) & 0xF for r in range(13)):
                    return s, 1
        if rules.instant_four_twos:
            for s in order:
                if self._hands[s] >> 48 & 0xF == 0xF:
                    return s, 2
        return -1, 0

    def _redeal_seat(self) -> int:
        rule = self.rules.redeal
        for s in range(self.N):
            ranks = [c >> 2 for c in _bits(self._hands[s])]
            if rule == "points_lt_3":
                ok = sum(_REDEAL_POINTS[r] for r in ranks) < 3
            elif rule == "hk_max10":
                ok = all(r < _J for r in ranks)
            elif rule == "literal_min10":
                ok = min(ranks) == _T
            else:
                ok = False
            if ok:
                return s
        return -1

    def _deal_phase(self) -> None:
        while True:
            self._deal()
            s, kind = self._instant_winner()
            if s >= 0:
                self._row(s, INSTANT_WIN, self._hands[s], kind)
                self._row(s, WIN, 0, -1)
                self.winner, self.instant, self.over = s, kind, True
                break
            if self.rules.redeal != "off" and self.redeals < MAX_REDEALS:
                s = self._redeal_seat()
                if s >= 0:
                    self.redeals += 1
                    self._row(s, REDEAL, self._hands[s], self.redeals)
                    continue
            break
        self.trick: tuple | None = None
        self.last = self.leader
        self.passes = 0
        self.locked = [False] * self.N
        self.played = 0
        self.seat = self.leader
        self._violator = -1
        self._entries: list[list | None] = [None] * self.N
        self._opts_turn = -1
        self._opts: TurnOptions | None = None
        self.history: list[tuple[int, int, int, int, int]] | None = []

    # ------------------------------------------------------------------ turns
    def _options(self) -> TurnOptions:
        if self._opts_turn != self.turns:
            p = self.seat
            entries = self._entries[p]
            if entries is None:
                entries = self._entries[p] = legal_entries(self._hands[p], self.info)
            self._opts = turn_options(
                self.info, entries, self._hands[p], self.trick, self.opening_card,
                _popcount(self._hands[(p + 1) % self.N]),
            )
            self._opts_turn = self.turns
        assert self._opts is not None  # made above for this turn
        return self._opts

    def view(self) -> PlayerView:
        """What the seat to move sees (a seat locked out by ``pass_locks_out`` sees no play
        options: its turn is an automatic pass)."""
        if self.over:
            raise KaptaiError("the game is over")
        p, info = self.seat, self.info
        opts = self._options()
        t = self.trick
        plays, can_pass = opts.plays, opts.can_pass
        if t is not None and self.locked[p]:
            plays, can_pass = [], True
        return PlayerView(
            seat=p, players=self.N, rules=self.rules,
            hand=tuple(sorted(_bits(self._hands[p]), key=info.strength.__getitem__)), hand_mask=self._hands[p],
            cards_left=tuple(_popcount(m) for m in self._hands),
            trick_mask=None if t is None else t[2], trick_class=None if t is None else t[0],
            trick_key=None if t is None else t[1], trick_seat=-1 if t is None else self.last,
            leading=t is None, opening_card=self.opening_card if t is None else None,
            played=self.played, dead=self.dead, next_cards=_popcount(self._hands[(p + 1) % self.N]),
            options=tuple(e[3] for e in plays), option_masks=tuple(e[2] for e in plays),
            can_pass=can_pass, turn=self.turns, rng=self.stream,
            passes=self.passes, locked=tuple(self.locked), violator=self._violator,
            history=tuple(self.history) if self.history else (),
        )

    def _illegal(self, text: str, reason: str) -> IllegalPlayError:
        return IllegalPlayError(f'illegal play "{text}" by seat {self.seat}: {reason}')

    def _parse_choice(self, choice: Any) -> int | None:
        """The mask of a choice (None = PASS); IllegalPlayError for what is not a set of cards."""
        if choice is None:
            return None
        if isinstance(choice, str):
            if choice.strip().upper() in ("PASS", "P"):
                return None
            try:
                ids = parse_cards(choice)
            except KaptaiError as err:
                raise self._illegal(choice.strip(), str(err)) from None
        elif isinstance(choice, Play):
            ids = choice.cards
        elif isinstance(choice, (Integral, bool, np.bool_)):
            raise self._illegal(
                repr(choice), "a bare integer is ambiguous: return a Play, card text or a list of card ids"
            )
        else:
            try:
                ids = parse_cards(list(choice))
            except TypeError:
                raise self._illegal(repr(choice), "not a set of cards") from None
            except KaptaiError as err:
                raise self._illegal(repr(choice), str(err)) from None
        if not ids:
            raise self._illegal("", "an empty play (return None or 'PASS' to pass)")
        return sum(1 << c for c in ids)

    def _check(self, mask: int | None, opts: TurnOptions) -> None:
        """Raise IllegalPlayError unless ``mask`` (None = PASS) is one of the turn's options."""
        info, p = self.info, self.seat
        top_text = format_card(opts.top)
        if mask is None:
            if self.trick is None:
                raise self._illegal("PASS", "cannot pass when leading")
            if not opts.pass_rule_ok:
                raise self._illegal("PASS", "must play when able (pass_only_if_unable)")
            if not opts.can_pass:
                raise self._illegal(
                    "PASS", f"頂大 (top_rule='mandatory') requires playing {top_text}: the next seat holds 1 card"
                )
            return
        text = info.text(mask)
        missing = mask & ~self._hands[p]
        if missing:
            raise self._illegal(text, f"{info.text(missing)} not in hand")
        entry = info.entry(mask)
        if entry is None:
            raise self._illegal(text, "not a legal combination")
        if self.trick is None:
            oc = self.opening_card
            if oc is not None and not mask >> oc & 1:
                raise self._illegal(text, f"must include {format_card(oc)} (opening lead)")
        else:
            t = self.trick
            if entry[0] != t[0]:
                n = len(t[3].cards)
                raise self._illegal(text, f'wrong number of cards: the trick "{t[3]}" has {n} card{"s" * (n != 1)}')
            if not entry[1] > t[1]:
                raise self._illegal(text, f'does not beat "{t[3]}"')
        if all(e[2] != mask for e in opts.plays):
            if self.trick is None:
                why = f"頂大 (top_rule='mandatory') requires playing {top_text} or a combination: the next seat holds 1 card"
            else:
                why = f"頂大 (top_rule='mandatory') requires playing {top_text}: the next seat holds 1 card"
            raise self._illegal(text, why)

    def step(self, choice: Any = _ASK) -> None:
        """Play one turn of the seat to move.

        Parameters
        ----------
        choice : optional
            The seat's play (a Play, card text, card ids; None or ``'PASS'`` to pass).
            Omitted: the seat's policy chooses (a seat locked out by ``pass_locks_out``
            passes automatically).

        Raises
        ------
        IllegalPlayError
            If the choice is not legal; nothing has changed then.
        """
        if self.over:
            raise KaptaiError("the game is over")
        p, N = self.seat, self.N
        violator, auto = self._violator, False
        if self.trick is not None and self.locked[p]:
            if choice is not _ASK and self._parse_choice(choice) is not None:
                raise self._illegal(
                    str(choice), "this seat passed earlier in the trick and is locked out (pass_locks_out)"
                )
            mask, auto, opts = None, True, None
        else:
            opts = self._options()
            if choice is _ASK:
                choice = self._policy(p).choose(self.view())
            mask = self._parse_choice(choice)
            self._check(mask, opts)
            if self.history is not None and len(self.history) < HMAX:
                oc = self.opening_card if self.trick is None else None
                self.history.append((p, 0 if self.trick is None else self.trick[2],
                                     0 if oc is None else 1 << oc, self.played, 0 if mask is None else mask))
        # ---- the choice is legal: apply it
        self._violator = -1
        if opts is not None and opts.violates(mask) and self.rules.top_rule == "liability":
            self.violations += 1
            self._violator = p
        self.turns += 1
        if mask is None:
            self.passes += 1
            if self.rules.pass_locks_out:
                self.locked[p] = True
            self._row(p, PASS, 0, int(auto))
        else:
            entry = self.info.entry(mask)
            assert entry is not None  # mask is a legal play (self._check above)
            lead = self.trick is None
            self._hands[p] &= ~mask
            self.played |= mask
            self.trick, self.last, self.passes = entry, p, 0
            self.opening_card = None
            self.plays += 1
            self._row(p, LEAD if lead else PLAY, mask, entry[0])
            if self._hands[p] == 0:
                self.winner, self.over = p, True
                self.liable = violator
                self._row(p, WIN, 0, violator)
                return
        if self.passes == N - 1:
            self.trick, self.passes = None, 0
            self.locked = [False] * N
            self.seat = self.last
        else:
            self.seat = (p + 1) % N
        if self.turns >= MAX_TURNS:
            raise RuntimeError(f"Big Two engine error: game {self.index} still running after {MAX_TURNS} turns")

    def play(self) -> GameResult:
        """Play the game to its end with the policies; return the outcome."""
        while not self.over:
            self.step()
        return self.result()

    def result(self) -> GameResult:
        """The outcome of a finished game."""
        if not self.over:
            raise KaptaiError("the game is not over")
        left = tuple(_popcount(m) for m in self._hands)
        points = tuple(int(sum(int(POINT_VALUES[c]) for c in _bits(m))) for m in self._hands)
        return GameResult(
            winner=self.winner, leader=self.leader, cards_left=left, points_left=points, liable=self.liable,
            instant=self.instant, redeals=self.redeals, swapped=self.swapped, plays=self.plays,
            turns=self.turns, violations=self.violations,
        )


