"""Playing policies of the Big Two (鋤大D) engine and the view a seat decides from.

A policy makes the two choices the rules leave to a player (``docs/rules/big-two.md`` §2, §4):

* **play** -- on each turn, one of the legal plays or PASS (:meth:`Policy.choose`);
* **swap** -- under ``malaysian_3p``, whether the ♦3 holder exchanges ♦3 for the face-down
  leftover card (:meth:`Policy.swap`).

The policy sees a read-only :class:`PlayerView`: its own hand, every seat's card count, the
trick on the table, the cards played so far and the legal options of the turn, never a
hidden card.  The built-in policies follow ``docs/big-two-engine.md`` ("Policies") line by
line, so that the compiled engine (:mod:`kaptai.bigtwo._engine`) and the pure-Python
reference engine (:mod:`kaptai.bigtwo.engine_reference`) make the same moves:

``'random'``
    Uniform over the options (plays in play order, then PASS when allowed); one draw
    ``bounded(len(options))`` from the run's stream when there are two or more options.
``'greedy'``
    Leads the weakest play of the largest trick class it holds (keeping its 2s out of leads
    while it can); follows with the weakest beating play, passing when it cannot beat or when
    that play is a 2 on a single early in the hand.
``'heuristic'``
    Splits the hand into a *plan* (:func:`plan`), keeps control with *boss* units
    (:func:`boss_units`), counts what is out and respects 頂大 (blocking).

Play objects are :class:`kaptai.bigtwo.evaluate.Play`; in this module and in the reference
engine their ``key`` is the key of the pure-Python classifier
(:func:`kaptai.bigtwo.reference.classify`, a tuple), which orders plays of one trick class
exactly as the compiled key does.  **Play order** is ``(trick, key, mask)`` ascending.

Writing your own policy
-----------------------
Subclass :class:`Policy` and implement :meth:`Policy.choose`; return one of
``view.options``, card text (``"3D 3C"``), card ids, or ``None`` / ``"PASS"`` to pass.
Use ``view.rng`` for randomness so that a run is reproducible.  Custom policies run in the
reference engine only; an illegal choice raises
:class:`kaptai.bigtwo.config.IllegalPlayError` and leaves the game unchanged.

Examples
--------
>>> from kaptai.bigtwo.policies import Policy, resolve_policies
>>> class Lowest(Policy):
...     name = "lowest"
...     def choose(self, view):
...         return view.options[0] if view.options else None
>>> [p.name for p in resolve_policies(["greedy", Lowest()], 2)]
['greedy', 'lowest']
"""

from __future__ import annotations

import abc
import itertools
from collections.abc import Sequence
from functools import lru_cache
from numbers import Integral
from typing import Any, cast

from kaptai.bigtwo.cards import N_CARDS, format_cards, parse_record
from kaptai.bigtwo.evaluate import Play
from kaptai.bigtwo.config import (
    POLICY_CODES, POLICY_NAMES, SEARCH_INFER, SEARCH_POOL, SEARCH_ROLLOUTS, SEARCH_SAMPLES, make_config,
)
from kaptai.core.sampling import RandomStream, Switch
from kaptai.errors import RulesError
from kaptai.bigtwo.rules import RuleSet, resolve_rules
from kaptai.errors import KaptaiError, quote_token

__all__ = [
    "FULL_MASK",
    "PlayerView",
    "Policy",
    "RandomPolicy",
    "GreedyPolicy",
    "HeuristicPolicy",
    "ScriptedPolicy",
    "resolve_policies",
    "RulesInfo",
    "rules_info",
    "plan",
    "boss_units",
    "SearchPolicy",
]

#: Mask of the whole deck.
from kaptai.bigtwo import scoring
from kaptai.bigtwo._moves import (  # noqa: F401  (make_view, RulesInfo: re-exported)
    FULL_MASK, Game, PlayerView, RulesInfo, _bits, legal_entries, make_view, rules_info, turn_options,
)

# --------------------------------------------------------------------------------------
# The interface
# --------------------------------------------------------------------------------------


class Policy(abc.ABC):
    """Interface of a playing policy.

    Subclasses implement :meth:`choose` and may override :meth:`swap`.  A policy may keep
    state between calls, but must draw any randomness from ``view.rng``.
    """

    #: Label used in tables and messages.
    name: str = "custom"

    @abc.abstractmethod
    def choose(self, view: PlayerView) -> Any:
        """Choose the play of the turn.

        Returns
        -------
        Play, str, iterable of int, or None
            One of ``view.options`` (or the same cards as text / ids), or ``None`` /
            ``'PASS'`` to pass.
        """

    def swap(self, view: PlayerView) -> bool:
        """Malaysian swap decision of the ♦3 holder (``view.hand`` holds ♦3); default: swap."""
        return True

    def __repr__(self) -> str:
        return f"<{type(self).__name__} {self.name!r}>"


def _fallback(view: PlayerView, choice: Play | None) -> Play | None:
    """A built-in choice that is not legal (only possible on an opening lead bound by the
    opening card while 頂大 applies) is replaced by the first option."""
    if choice is None:
        if view.can_pass or not view.options:
            return None
        return view.options[0]
    mask = sum(1 << c for c in choice.cards)
    if mask in view.option_masks or not view.options:
        return choice
    return view.options[0]


class RandomPolicy(Policy):
    """Uniform over the options (``'random'``).

    Parameters
    ----------
    stream : RandomStream, optional
        Stream to draw from; default ``view.rng`` (the engine's stream).

    Examples
    --------
    >>> import numpy as np
    >>> from kaptai.core.sampling import RandomStream
    >>> from kaptai.bigtwo.engine_reference import make_view
    >>> from kaptai.bigtwo.policies import RandomPolicy
    >>> p = RandomPolicy(RandomStream(np.random.PCG64(1)))
    >>> str(p.choose(make_view("3D 5C 7H", trick="4S")))
    '7H'
    """

    name = "random"

    def __init__(self, stream: Any = None):
        self.stream = stream

    def _rng(self, view: PlayerView):
        rng = self.stream if self.stream is not None else view.rng
        if rng is None:
            raise KaptaiError("the random policy needs a random stream (view.rng is None)")
        return rng

    def choose(self, view: PlayerView) -> Play | None:
        n = len(view.options) + int(view.can_pass)
        if n == 0:
            return None
        j = 0 if n == 1 else self._rng(view).bounded(n)
        return view.options[j] if j < len(view.options) else None

    def swap(self, view: PlayerView) -> bool:
        return self._rng(view).bounded(2) == 1


class GreedyPolicy(Policy):
    """Smallest beating play, big combinations first (``'greedy'``).

    Examples
    --------
    >>> from kaptai.bigtwo.engine_reference import make_view
    >>> from kaptai.bigtwo.policies import GreedyPolicy
    >>> g = GreedyPolicy()
    >>> str(g.choose(make_view("3D 4C 5H 6S 7D 9D 9C"))), str(g.choose(make_view("4C 9D 9C", trick="8S")))
    ('3D 4C 5H 6S 7D', '9D')
    """

    name = "greedy"

    def choose(self, view: PlayerView) -> Play | None:
        opts = view.options
        rs = rules_info(view.rules).rank_strength
        if view.leading:
            if not opts:
                return None
            clean = [p for p in opts if all(rs[c >> 2] != 12 for c in p.cards)] or list(opts)
            tmax = max(p.trick for p in clean)
            choice: Play | None = next(p for p in clean if p.trick == tmax)
        else:
            choice = opts[0] if opts else None
            if (
                choice is not None
                and choice.trick == 1
                and rs[choice.cards[0] >> 2] == 12
                and view.opp_min > 6
                and len(view.hand) > 6
                and view.can_pass
            ):
                choice = None
        if (
            choice is not None
            and view.rules.top_rule in ("liability", "mandatory")
            and view.next_cards == 1
            and choice.trick == 1
            and (view.leading or view.top_beats_trick())
        ):
            choice = rules_info(view.rules).play(1 << view.top)
        return _fallback(view, choice)

    def swap(self, view: PlayerView) -> bool:
        return True


# --------------------------------------------------------------------------------------
# The heuristic: plan and bosses
# --------------------------------------------------------------------------------------


@lru_cache(maxsize=4096)
def _plan(hand_mask: int, rules: RuleSet) -> tuple[Play, ...]:
    info = rules_info(rules)
    st, rs, ss = info.strength, info.rank_strength, info.suit_strength
    ids = sorted(_bits(hand_mask), key=st.__getitem__)
    cards_of: list[list[int]] = [[] for _ in range(13)]
    for c in ids:
        cards_of[c >> 2].append(c)  # within a rank: increasing strength
    n = [len(cs) for cs in cards_of]
    ranks = sorted(range(13), key=rs.__getitem__)
    free = set(ids)
    units: list[list[int]] = []

    def take(cs: list[int]) -> None:
        units.append(list(cs))
        free.difference_update(cs)

    # 1. quads
    bare_quad = rules.four_card_play != "none" or rules.quad_kicker == "optional"
    for r in ranks:
        if n[r] != 4:
            continue
        cs = cards_of[r]
        if bare_quad:
            take(cs)
            continue
        kickers = [c for c in free if n[c >> 2] == 1]
        if kickers:
            take(cs + [min(kickers, key=st.__getitem__)])
        else:
            take(cs[:2])
            take(cs[2:])
    # 2. triples (+ the lowest free pair)
    for r in ranks:
        if n[r] != 3:
            continue
        pairs = [q for q in ranks if n[q] == 2 and all(c in free for c in cards_of[q])]
        take(cards_of[r] + (cards_of[pairs[0]] if pairs else []))
    # 3. straights of singleton ranks, rescanning from the lowest after each take
    while True:
        for w in info.straights:
            rks = [r for r in range(13) if w >> r & 1]
            if all(n[r] == 1 and cards_of[r][0] in free for r in rks):
                take([cards_of[r][0] for r in rks])
                break
        else:
            break
    # 4. flushes of singleton ranks, suits by increasing strength
    for s in sorted(range(4), key=ss.__getitem__):
        while True:
            cs = sorted((c for c in free if c & 3 == s and n[c >> 2] == 1), key=st.__getitem__)
            if len(cs) < 5:
                break
            take(cs[:5])
    # 5. free pairs, then free singles
    for r in ranks:
        if n[r] == 2 and all(c in free for c in cards_of[r]):
            take(cards_of[r])
    for c in ids:
        if c in free:
            take([c])
    units.sort(key=lambda u: min(st[c] for c in u))
    out = []
    for u in units:
        p = info.play(sum(1 << c for c in u))
        if p is None:  # pragma: no cover - impossible by construction
            raise AssertionError(f"plan unit {format_cards(u)} is not a legal play")
        out.append(p)
    return tuple(out)


def plan(hand: Any, rules: RuleSet | str | None = None) -> tuple[Play, ...]:
    """The heuristic policy's partition of a hand into units (``docs/big-two-engine.md``).

    Built in this order over natural ranks (visited by increasing rank strength): quads,
    triples (+ the lowest free pair), straights of singleton ranks, flushes of singleton
    ranks, then the free pairs and free singles.  Units are ordered by their lowest card.

    Parameters
    ----------
    hand : int mask, str or iterable of card ids
    rules : RuleSet, str, mapping or None

    Examples
    --------
    >>> from kaptai.bigtwo.policies import plan
    >>> [str(u) for u in plan("3D 3C 3H 5S 5D 7C 8D 9H TS JD KS KH 2C")]
    ['3D 3C 3H 5D 5S', '7C 8D 9H TS JD', 'KH KS', '2C']
    """
    rules = resolve_rules(rules)
    if isinstance(hand, Integral) and not isinstance(hand, bool):
        mask = int(hand)
    else:
        from kaptai.bigtwo.cards import cards_to_mask, parse_cards

        mask = cards_to_mask(parse_cards(hand))
    return _plan(mask, rules)


def _unseen_best(unseen: int, rules: RuleSet) -> dict[int, tuple]:
    """Highest key of a single / pair / triple (class 1, 2, 3) formed from unseen cards."""
    info = rules_info(rules)
    best: dict[int, tuple] = {}
    by_rank: list[list[int]] = [[] for _ in range(13)]
    for c in _bits(unseen):
        by_rank[c >> 2].append(c)
    for cs in by_rank:
        for k in (1, 2, 3):
            for comb in itertools.combinations(cs, k):
                e = info.entry(sum(1 << c for c in comb))
                if e is not None and (k not in best or e[1] > best[k]):
                    best[k] = e[1]
    return best


def boss_units(units: Sequence[Play], unseen: int, rules: RuleSet | str | None = None) -> tuple[bool, ...]:
    """Which units are *bosses*: class 1-3 units no unseen single / pair / triple beats.

    Units of class 4 or 5 are never bosses.

    Examples
    --------
    >>> from kaptai.bigtwo.policies import plan, boss_units, FULL_MASK
    >>> from kaptai.bigtwo.cards import cards_to_mask, parse_cards
    >>> hand = cards_to_mask(parse_cards("4D 2S"))
    >>> boss_units(plan(hand), FULL_MASK & ~hand)
    (False, True)
    """
    rules = resolve_rules(rules)
    best = _unseen_best(unseen, rules)
    return tuple(u.trick in (1, 2, 3) and (u.trick not in best or u.key > best[u.trick]) for u in units)


def _mask_of(p: Play) -> int:
    return sum(1 << c for c in p.cards)


class HeuristicPolicy(Policy):
    """Keep control, count what is out, respect 頂大 (``'heuristic'``).

    Examples
    --------
    >>> from kaptai.bigtwo.engine_reference import make_view
    >>> from kaptai.bigtwo.policies import HeuristicPolicy
    >>> h = HeuristicPolicy()
    >>> str(h.choose(make_view("3D 5C 5S 9H", opening_card=0)))
    '3D'
    >>> h.choose(make_view("3D 5C 2S", trick="9H", cards_left=(3, 13, 13, 13))) is None
    True
    """

    name = "heuristic"

    def choose(self, view: PlayerView) -> Play | None:
        rules = view.rules
        info = rules_info(rules)
        hand = view.hand_mask
        units = _plan(hand, rules)
        top = view.top
        top_play = info.play(1 << top)
        assert top_play is not None  # a single card is always a legal play
        whole = info.play(hand) if len(view.hand) <= 5 else None
        oc = view.opening_card
        choice: Play | None
        if view.leading:
            if whole is not None and (oc is None or hand >> oc & 1):
                choice = whole
            elif oc is not None:
                choice = next(u for u in units if oc in u.cards)
            else:
                boss = boss_units(units, view.unseen(), rules)
                bosses = [u for u, b in zip(units, boss) if b]
                if len(units) == 2 and bosses:
                    choice = bosses[0]
                else:
                    cs = [u for u, b in zip(units, boss) if not b] or list(units)
                    if view.opp_min <= 3:
                        most = max(len(u.cards) for u in cs)
                        choice = next(u for u in cs if len(u.cards) == most)
                    else:
                        choice = next((u for u in cs if len(u.cards) >= 4), cs[0])
            if view.blocking and choice.trick == 1:
                multi = [u for u in units if u.trick != 1]
                choice = multi[0] if multi else top_play
            return _fallback(view, choice)
        t, k = view.trick_class, view.trick_key
        if view.blocking and t == 1 and top_play.key > k:
            choice = top_play
        elif whole is not None and whole.trick == t and whole.key > k:
            choice = whole
        else:
            beating = [u for u in units if u.trick == t and u.key > k]
            if beating:
                x = min(beating, key=lambda u: (u.key, _mask_of(u)))
                has_top_rank = any(info.rank_strength[c >> 2] == 12 for c in x.cards)
                choice = None if (has_top_rank and view.opp_min > 4 and view.can_pass) else x
            elif view.opp_min <= 3 or not view.can_pass:
                choice = view.options[0] if view.options else None
            else:
                choice = None
        return _fallback(view, choice)

    def swap(self, view: PlayerView) -> bool:
        low = rules_info(view.rules).lowest
        return not any(c >> 2 == low >> 2 and c != low for c in view.hand)


# --------------------------------------------------------------------------------------
# Search: determinized Monte Carlo (docs/big-two-engine.md, "search")
# --------------------------------------------------------------------------------------


class SearchPolicy(Policy):
    """Determinized Monte Carlo search (``'search'``; docs ``big-two-engine.md``, "search").

    At a turn with two or more options it deals ``samples`` layouts of the unseen cards to
    the other seats (their card counts are the only constraint) with a sampled style per
    opponent (``contest``, ``greedy`` or ``heuristic``), weighs each layout by how well its
    styles explain the opponents' observed plays and passes (inference), plays every option and
    then the rest of the game (the seat itself with ``rollout``) on each layout (the reference
    engine), and plays the option with the largest weighted total net of the seat under the
    scoring in force, the first on ties.  The layouts and styles are drawn from ``view.rng``
    (the engine's stream), so the reference and the compiled engine make the same choices.

    Parameters
    ----------
    samples : int
        Layouts per decision (the compiled engine reads ``EngineConfig.search_samples``).
    rollout : {'contest', 'greedy', 'heuristic'}
        The policy of the searching seat in its rollouts (default ``'contest'``, as the engine's
        ``search_rollout='auto'``).
    infer : int
        Inference: a layout's weight is multiplied by ``infer / 10`` per observed action its
        styles contradict (``EngineConfig.search_infer``; 10: no inference, 0: rejection).
    pool : int
        Importance resampling (``EngineConfig.search_pool``): with inference and a history,
        ``pool * samples`` layouts are weighed and ``samples`` resampled by weight (1: none).

    Examples
    --------
    >>> import numpy as np
    >>> from kaptai.core.sampling import RandomStream
    >>> from kaptai.bigtwo.engine_reference import make_view
    >>> from kaptai.bigtwo.policies import SearchPolicy
    >>> view = make_view("5D 2S", trick="4S", cards_left=(2, 1, 13, 13), rng=RandomStream(np.random.PCG64(0)))
    >>> str(SearchPolicy(samples=4).choose(view))   # 頂大: the next seat holds one card
    '2S'
    """

    name = "search"

    def __init__(self, samples: int = SEARCH_SAMPLES, rollout: str = "contest", infer: int = SEARCH_INFER,
                 pool: int = SEARCH_POOL):
        if rollout not in SEARCH_ROLLOUTS:
            raise RulesError(f"rollout={quote_token(rollout)} is not allowed: expected "
                             + ", ".join(repr(r) for r in SEARCH_ROLLOUTS))
        if isinstance(pool, bool) or not isinstance(pool, Integral) or int(pool) < 1:
            raise RulesError(f"pool={quote_token(pool)} is not allowed: expected a whole number of at least 1")
        self.samples: int = int(samples)
        self.rollout: str = rollout
        self.infer: int = int(infer)
        self.pool: int = int(pool)

    def choose(self, view: PlayerView) -> Play | None:
        n = len(view.options) + int(view.can_pass)
        if n <= 1:
            return view.options[0] if view.options else None
        if compiled_rollouts and isinstance(view.rng, RandomStream):
            cands, sums = self._compiled_values(view)
        else:
            cands, sums, _, _ = search_values(view, self.samples, self.rollout, self.infer, self.pool)
        best = max(range(len(cands)), key=lambda i: (sums[i], -i))
        return None if cands[best] is None else rules_info(view.rules).play(cast(int, cands[best]))

    def _compiled_values(self, view: PlayerView) -> tuple[list, list[int]]:
        """:func:`search_values`'s candidates and sums from the compiled twin
        (``_engine.search_position``) on the view's own stream (:meth:`RandomStream.lend`): the
        same layouts, styles, weights and values, so the same choice and the same stream after."""
        from kaptai.bigtwo import _engine

        cfg = make_config(view.players, view.rules, search_rollout=self.rollout, search_infer=self.infer,
                          search_pool=self.pool)
        must = 0 if view.opening_card is None else 1 << view.opening_card
        cands, sums, _, _ = view.rng.lend(lambda bg: _engine.search_position(
            cfg, view.seat, view.cards_left, view.hand_mask, played=view.played, dead=view.dead,
            trick=view.trick_mask or 0, trick_seat=view.trick_seat, passes=view.passes,
            locked=list(view.locked) or None, must=must, violator=view.violator, turns=view.turn,
            bit_generator=bg, samples=self.samples, history=list(view.history) or None))
        out = [int(c) for c in cands]
        if view.can_pass:
            out[-1] = None  # type: ignore[call-overload]
        return out, [int(x) for x in sums]

    def swap(self, view: PlayerView) -> bool:
        return HeuristicPolicy().swap(view)


#: On (``with compiled_rollouts(): ...``), a :class:`SearchPolicy` seat's rollouts run in the
#: compiled twin (``_engine.search_position``) on the view's own stream: the same values from the
#: same numbers, so the same plays and the same stream after, at the compiled speed.  The
#: reference stays pure Python (the tests' oracle) unless a caller turns it on; ``kaptai play``
#: does, since a person's table runs this engine (:class:`kaptai.core.sampling.Switch`).
compiled_rollouts = Switch()


class ContestPolicy(GreedyPolicy):
    """The ``contest`` rollout style of ``search`` (docs "search", Styles): ``greedy`` without
    its two 2-keeping rules -- it leads the weakest play of the largest class among all options
    and follows every trick with its weakest beating play.  Not a table policy.

    Examples
    --------
    >>> from kaptai.bigtwo.policies import ContestPolicy, make_view
    >>> str(ContestPolicy().choose(make_view("3D 4C 2S 9H", trick="8S", cards_left=(4, 13, 13, 13))))
    '9H'
    >>> str(ContestPolicy().choose(make_view("4C 5C 6C 7C 2C 9H")))   # greedy would keep its 2
    '4C 5C 6C 7C 2C'
    """

    name = "contest"

    def choose(self, view: PlayerView) -> Play | None:
        opts = view.options
        if view.leading:
            if not opts:
                return None
            tmax = max(p.trick for p in opts)
            choice: Play | None = next(p for p in opts if p.trick == tmax)
        else:
            choice = opts[0] if opts else None
        if (
            choice is not None
            and view.rules.top_rule in ("liability", "mandatory")
            and view.next_cards == 1
            and choice.trick == 1
            and (view.leading or view.top_beats_trick())
        ):
            choice = rules_info(view.rules).play(1 << view.top)
        return _fallback(view, choice)


#: The rollout styles of ``search`` by index (docs "search", Styles).
STYLE_NAMES: tuple[str, ...] = ("contest", "greedy", "heuristic")
#: Inference weights are ``n ** d * 10 ** (W_EXP - d)`` with ``d = mm - mm*`` (docs "search", step 4).
W_EXP = 9


def _styles() -> tuple[Policy, ...]:
    return (ContestPolicy(), GreedyPolicy(), HeuristicPolicy())


@lru_cache(maxsize=200_000)
def _entries_of(hand: int, rules: RuleSet) -> list:
    return legal_entries(hand, rules_info(rules))


def _replay_choice(view: PlayerView, style: Policy, q: int, hand: int, counts: Sequence[int],
                   trick: int, must: int, played: int) -> int:
    """The mask (0 = PASS) that ``style`` chooses in a past turn of seat ``q`` replayed with
    ``hand`` (docs "search", step 4)."""
    rules, info = view.rules, rules_info(view.rules)
    N = view.players
    tentry = info.entry(trick) if trick else None
    oc = None if (trick or not must) else (must & -must).bit_length() - 1
    opts = turn_options(info, _entries_of(hand, rules), hand, tentry, oc, counts[(q + 1) % N])
    pv = PlayerView(
        seat=q, players=N, rules=rules, hand=tuple(sorted(_bits(hand), key=info.strength.__getitem__)),
        hand_mask=hand, cards_left=tuple(counts), trick_mask=None if tentry is None else tentry[2],
        trick_class=None if tentry is None else tentry[0], trick_key=None if tentry is None else tentry[1],
        trick_seat=-1, leading=tentry is None, opening_card=oc, played=played, dead=view.dead,
        next_cards=counts[(q + 1) % N], options=tuple(e[3] for e in opts.plays),
        option_masks=tuple(e[2] for e in opts.plays), can_pass=opts.can_pass,
    )
    c = style.choose(pv)
    return 0 if c is None else sum(1 << x for x in c.cards)


def _resample(rng: Any, w: Sequence[int], S: int) -> list[int]:
    """Docs "search", step 4b: systematic resampling of ``S`` indices of the weights ``w``, exact
    in integers (one offset ``r`` uniform in ``[0, Σw)`` from ``rng``; index ``k`` is the first
    ``i`` with ``S * (w[0] + ... + w[i]) > k * Σw + r``).

    >>> import numpy as np
    >>> from kaptai.core.sampling import RandomStream
    >>> _resample(RandomStream(np.random.PCG64(0)), [0, 3, 0, 1], 4)
    [1, 1, 1, 3]
    """
    W = sum(w)
    if W < 1 << 32:
        r = rng.bounded(W)
    else:
        H = (W >> 32) + 1
        while True:
            r = rng.bounded(H) << 32 | rng.next_uint32()
            if r < W:
                break
    idx = []
    i, cum = 0, w[0]
    for k in range(S):
        t = k * W + r
        while cum * S <= t:
            i += 1
            cum += w[i]
        idx.append(i)
    return idx


def search_layouts(view: PlayerView, samples: int, infer: int = SEARCH_INFER,
                   pool: int = SEARCH_POOL) -> tuple[list, list, list, float]:
    """Docs "search", steps 2-4b, in the reference engine: the layouts (hands by seat, the
    seat's own included), the styles (by seat, -1 for the seat) and the inference weights of
    ``samples`` draws from ``view.rng``, and the effective sample size ``(Σw)² / Σw²``.

    With ``pool > 1``, inference on (``infer < 10``) and a history, ``pool * samples`` layouts
    are drawn and weighed, and ``samples`` of them resampled in proportion to their weights
    (:func:`_resample`); each resampled layout weighs 1 and the effective sample size returned is
    the weighted pool's.

    Examples
    --------
    >>> import numpy as np
    >>> from kaptai.core.sampling import RandomStream
    >>> from kaptai.bigtwo.policies import make_view, search_layouts
    >>> v = make_view("3D 9S", trick="8D", cards_left=(2, 1, 1, 1), rng=RandomStream(np.random.PCG64(1)))
    >>> lays, styles, w, ess = search_layouts(v, 3)
    >>> len(lays), styles[0][0], w, ess   # no history: every layout weighs 1
    (3, -1, [1, 1, 1], 3.0)
    """
    if view.rng is None:
        raise KaptaiError("the search policy needs a random stream (view.rng is None)")
    S = int(samples)
    if pool > 1 and infer < 10 and view.history:
        samples = S * int(pool)
    N, p = view.players, view.seat
    unseen = [c for c in range(N_CARDS) if view.unseen() >> c & 1]
    m = len(unseen)
    lays: list[list[int]] = []
    stys: list[list[int]] = []
    for _ in range(int(samples)):
        a = list(unseen)
        for k in range(m - 1, 0, -1):
            j = view.rng.bounded(k + 1)
            a[k], a[j] = a[j], a[k]
        hands = [0] * N
        hands[p] = view.hand_mask
        pos = 0
        for j in range(1, N):
            q = (p + j) % N
            hands[q] = sum(1 << c for c in a[pos:pos + view.cards_left[q]])
            pos += view.cards_left[q]
        st = [-1] * N
        for j in range(1, N):
            st[(p + j) % N] = view.rng.bounded(len(STYLE_NAMES))
        lays.append(hands)
        stys.append(st)
    w = [1] * len(lays)
    if infer < 10 and view.history and lays:
        styles = _styles()
        mms = []
        for hands, st in zip(lays, stys):
            acc = [0] * N
            mm = 0
            for seat, trick, must, played, choice in reversed(view.history):
                acc[seat] |= choice
                if seat == p:
                    continue
                counts = [view.cards_left[s] + bin(acc[s]).count("1") for s in range(N)]
                got = _replay_choice(view, styles[st[seat]], seat, hands[seat] | acc[seat], counts, trick, must,
                                     played)
                mm += int(got != choice)
            mms.append(mm)
        lo = min(mms)
        if any(x != lo for x in mms):
            w = [infer ** (x - lo) * 10 ** (W_EXP - (x - lo)) if x - lo <= W_EXP else 0 for x in mms]
    sw, sw2 = float(sum(w)), float(sum(float(x) * float(x) for x in w))
    ess = sw * sw / sw2 if sw2 > 0 else 0.0
    if len(lays) > S:
        idx = _resample(view.rng, w, S)
        lays, stys, w = [lays[i] for i in idx], [stys[i] for i in idx], [1] * S
    return lays, stys, w, ess


def search_values(view: PlayerView, samples: int, rollout: str = "contest",
                  infer: int = SEARCH_INFER, pool: int = SEARCH_POOL) -> tuple[list, list, list, list]:
    """Docs "search", steps 1-6, in the reference engine: the candidates of the view's turn
    and, per candidate, the weighted sums over ``samples`` layouts of the seat's net in points
    (before ``stake``), of its square and of its wins.

    The layouts, styles and weights are :func:`search_layouts` (drawn from ``view.rng``
    exactly as the compiled engine draws them); each rollout is a :meth:`Game.from_position`
    in which the seat plays ``rollout`` and every other seat its sampled style, scored by
    :func:`kaptai.bigtwo.scoring.penalties` and :func:`kaptai.bigtwo.scoring.settle_many`.

    Returns
    -------
    (list, list, list, list)
        Candidate masks (plays in play order, then None for PASS when it is an option) and
        the three lists of int sums.

    Examples
    --------
    >>> import numpy as np
    >>> from kaptai.core.sampling import RandomStream
    >>> from kaptai.bigtwo.policies import make_view, search_values
    >>> v = make_view("3D 9S", trick="8D", cards_left=(2, 1, 1, 1), rng=RandomStream(np.random.PCG64(1)))
    >>> cands, sums, _, wins = search_values(v, 3)
    >>> [None if c is None else hex(c) for c in cands], wins   # 9S (card 27) or PASS; 3D cannot beat 8D
    (['0x8000000', None], [1, 0])
    """
    rules = view.rules
    cfg = make_config(view.players, rules)
    N, p = view.players, view.seat
    cands: list = list(view.option_masks) + ([None] if view.can_pass else [])
    lays, stys, w, _ = search_layouts(view, samples, infer, pool)
    flat = rules.replace(stake=1.0, bankroll="off")
    roll: Policy = (ContestPolicy() if rollout == "contest" else GreedyPolicy() if rollout == "greedy"
                    else HeuristicPolicy())
    styles = _styles()
    sums, sqs, wins = [], [], []
    for cand in cands:
        s1 = s2 = s3 = 0
        for hands, st, wi in zip(lays, stys, w):
            if wi == 0:
                continue
            pols = [roll if q == p else styles[st[q]] for q in range(N)]
            g = Game.from_position(cfg, pols, view, hands)
            g.step(None if cand is None else _bits(cand))
            res = g.play()
            pen = scoring.penalties([list(res.cards_left)], flat, points_left=[list(res.points_left)],
                                    winner=[res.winner])
            net = scoring.settle_many(pen, flat, winner=[res.winner], liable=[res.liable])
            v = round(float(net[0, p]))
            s1 += wi * v
            s2 += wi * v * v
            s3 += wi * int(res.winner == p)
        sums.append(s1)
        sqs.append(s2)
        wins.append(s3)
    return cands, sums, sqs, wins


# --------------------------------------------------------------------------------------
# Scripted play (tests, demos)
# --------------------------------------------------------------------------------------


class ScriptedPolicy(Policy):
    """Play a fixed list of choices, then hand over to another policy.

    Parameters
    ----------
    script : str or sequence
        A play record (``'3D | PASS | 5C 5D'``) or a sequence of choices (card text, card
        ids, :class:`Play`, or ``None`` / ``'PASS'``), consumed one per turn of this seat.
        Entries are passed to the engine as they are, so an illegal entry raises
        :class:`kaptai.bigtwo.config.IllegalPlayError`.
    then : Policy, str or None
        Policy used when the script is exhausted (default ``'greedy'``); None: running out
        is an error.
    swaps : bool or sequence of bool
        Answer(s) to the Malaysian swap decision, one per decision (the last one repeats).

    Examples
    --------
    >>> from kaptai.bigtwo.policies import ScriptedPolicy
    >>> ScriptedPolicy("3D | PASS | 5C 5D").script
    ((0,), None, (9, 8))
    """

    name = "scripted"

    def __init__(self, script: str | Sequence[Any] = (), then: Policy | str | None = "greedy", swaps: Any = True):
        self.script = parse_record(script) if isinstance(script, str) and script.strip() else tuple(
            () if isinstance(script, str) else script
        )
        self.position = 0
        if isinstance(then, str):
            then = _builtin(then, None)
        self.then = then
        self.swaps = (swaps,) if isinstance(swaps, bool) else tuple(bool(s) for s in swaps)
        self._swap_pos = 0

    def choose(self, view: PlayerView) -> Any:
        if self.position < len(self.script):
            self.position += 1
            return self.script[self.position - 1]
        if self.then is None:
            raise KaptaiError(f"scripted policy of seat {view.seat} ran out of plays at turn {view.turn}")
        return self.then.choose(view)

    def swap(self, view: PlayerView) -> bool:
        i = min(self._swap_pos, len(self.swaps) - 1)
        self._swap_pos += 1
        return self.swaps[i]


# --------------------------------------------------------------------------------------
# Resolution
# --------------------------------------------------------------------------------------


def _builtin(name: str, stream: Any, cfg: Any = None) -> Policy:
    if name == "random":
        return RandomPolicy(stream)
    if name == "greedy":
        return GreedyPolicy()
    if name == "heuristic":
        return HeuristicPolicy()
    if name == "search":
        if cfg is None:
            return SearchPolicy()
        return SearchPolicy(cfg.search_samples, cfg.search_rollout, cfg.search_infer,
                            getattr(cfg, "search_pool", SEARCH_POOL))
    raise KaptaiError(f"unknown policy {quote_token(name)}: expected one of {', '.join(map(repr, POLICY_NAMES))}")


def check_policies(policies: Any, players: int) -> list:
    """One policy per seat from a name, a Policy object or a sequence of them.

    Names must be built-in (:data:`POLICY_NAMES`); objects are kept as they are.

    >>> check_policies("greedy", 3)
    ['greedy', 'greedy', 'greedy']
    >>> check_policies(["greedy", "best"], 2)
    Traceback (most recent call last):
    ...
    kaptai.errors.RulesError: unknown policy 'best' for seat 1: expected one of 'random', 'greedy', 'heuristic', 'search' or a kaptai.bigtwo.policies.Policy
    """
    if isinstance(policies, str) or not isinstance(policies, Sequence):
        policies = [policies] * players
    policies = list(policies)
    if len(policies) != players:
        raise RulesError(f"got {len(policies)} policies for {players} players: give one, or one per seat")
    for seat, p in enumerate(policies):
        if isinstance(p, str) and p not in POLICY_CODES:
            raise RulesError(
                f"unknown policy {quote_token(p)} for seat {seat}: expected one of "
                + ", ".join(repr(n) for n in POLICY_NAMES)
                + " or a kaptai.bigtwo.policies.Policy"
            )
        if not isinstance(p, str) and not callable(getattr(p, "choose", None)):
            raise RulesError(f"policy for seat {seat} ({quote_token(p)}) has no choose(view) method")
    return policies


def resolve_policies(policies: Any, players: int, stream: Any = None, cfg: Any = None) -> list:
    """One policy object per seat.

    Parameters
    ----------
    policies : str, Policy or sequence of them
        A built-in name (:data:`kaptai.bigtwo.config.POLICY_NAMES`) or Policy for every seat,
        or one per seat.
    players : int
    stream : RandomStream, optional
        The run's stream, given to built-in ``'random'`` seats.
    cfg : EngineConfig, optional
        The table: the budget and rollout policy of built-in ``'search'`` seats.

    Returns
    -------
    list
        Policy objects (names become fresh built-in instances; objects are kept).

    Raises
    ------
    RulesError
        Unknown name, an object without ``choose``, or the wrong number of policies.

    Examples
    --------
    >>> from kaptai.bigtwo.policies import resolve_policies
    >>> resolve_policies("heuristic", 2)
    [<HeuristicPolicy 'heuristic'>, <HeuristicPolicy 'heuristic'>]
    """
    return [_builtin(p, stream, cfg) if isinstance(p, str) else p for p in check_policies(policies, players)]
