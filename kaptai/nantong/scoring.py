"""Scoring of Nantong long cards (南通長牌): 胡數 of one player, the hand winner, settlement.

``Total = 破頭( (成胡 + 底胡 + 其他) x (2 if 葷和) )`` (``docs/rules/nantong.md`` §5):

* **成胡** (completers only): 塌和 20, 葷和 50 (pair + 7 sequences), 清和 100 (pair + 7
  triplets/kongs).
* **底胡** per triplet/kong (every active player): column 明刻 2, 暗刻 4, 明槓 8, 暗槓 12,
  起手 16, times 2 per "level": 老將, 將牌, and 雙將 on a 將牌 (so the rows 1, 2, 4, 8
  times).  和子 is scored in the 起手 column (64, or 128 on a 老將).  Pairs score nothing.
* **其他** (completers only): the winning card completes a sequence or the pair: 20
  self-drawn, 10 from a discard; 文錢 (1-2-3 餅 sequences) 20/50/100/200 by count.
* **破頭**: round up to a multiple of 10 (41 -> 50, 40 -> 40).

A completer's hand is decomposed every possible way, with every role the winning card can
take; the highest total is kept ([D9], ``decomposition='max'``).  A non-completer scores
the 底胡 of its exposed sets, 起手 sets, 和子 and concealed triplets (four identical
concealed cards never declared count as one 暗刻), no 成胡, 其他 or doubling [D12].

Record checks run in the page's order (tokens -> 將 limits per meld -> total copies ->
size -> shape); the first failure is raised.

Examples
--------
>>> from kaptai.nantong.scoring import score
>>> s = score("jiang=5w,7b win=self:9w hand=123b 234w 678t 333w qz qz qz 789t 99w melds=pong:bh")
>>> s.total, s.raw, s.win_type, s.chenghu, s.dihu, s.other
(80, 76, 'tahe', 20, 16, 40)
>>> score("jiang=5w,5w win=none hand=147w 369w 147t 258t 369b 147b 2b melds=pong:5w")
Traceback (most recent call last):
...
kaptai.nantong.cards.JiangLimitError: pong:5w needs 3 copies but only 2 remain under 雙將
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from kaptai.errors import RulesError, as_items, quote_token
from kaptai.nantong.cards import (
    LAOJIANG,
    N_KINDS,
    HandSizeError,
    JiangLimitError,
    MeldError,
    NotWinningError,
    RecordError,
    ScoreRecord,
    TooManyCopiesError,
    WinningCardError,
    format_card,
    parse_record,
)
from kaptai.nantong.reference import decompositions
from kaptai.nantong.rules import RuleSet, resolve_rules

__all__ = [
    "CHENGHU",
    "COLUMNS",
    "WIN_TYPE_NAMES",
    "WENQIAN",
    "Score",
    "jiang_kinds",
    "laojiang_kinds",
    "remaining_copies",
    "meld_cards",
    "meld_units",
    "level",
    "set_value",
    "check_record",
    "score",
    "potou",
    "hand_winners",
    "settle",
]

#: 成胡 by win type: 塌和, 葷和, 清和.
CHENGHU: Mapping[str, int] = {"tahe": 20, "hunhe": 50, "qinghe": 100}
#: Chinese names of the win types.
WIN_TYPE_NAMES: Mapping[str, str] = {"tahe": "塌和", "hunhe": "葷和", "qinghe": "清和"}
#: 底胡 columns, ordinary row.
COLUMNS: Mapping[str, int] = {"minke": 2, "anke": 4, "minggang": 8, "angang": 12, "qishou": 16}
_COLUMN_ZH = {"minke": "明刻", "anke": "暗刻", "minggang": "明槓", "angang": "暗槓", "qishou": "起手"}
#: 文錢 by number of 1-2-3 餅 groups (index 0-4).
WENQIAN: Mapping[str, tuple[int, ...]] = {"by_count": (0, 20, 50, 100, 200), "cumulative": (0, 20, 70, 170, 370)}
_MELD_COLUMN = {"pong": "minke", "mkong": "minggang", "ckong": "angang", "qishou": "qishou", "hezi": "qishou"}
_MELD_CARDS = {"pong": 3, "mkong": 4, "ckong": 4, "hezi": 2}


def _rules(rules: Any) -> RuleSet:
    return rules if isinstance(rules, RuleSet) else resolve_rules(rules)


def jiang_kinds(turned: Sequence[int], rules: RuleSet) -> frozenset[int]:
    """The 將牌 kinds: the turned kinds, plus (``jiang_same_number``) the non-老將 suited
    kinds of a turned suited card's number.

    >>> sorted(jiang_kinds((4, 20), RuleSet()))
    [4, 20]
    >>> sorted(jiang_kinds((4,), RuleSet(jiang_same_number=True)))
    [4, 13, 22]
    """
    out = set(int(k) for k in turned)
    if rules.jiang_same_number:
        lao = laojiang_kinds(rules)
        for k in list(out):
            if k < 27:
                for s in range(3):
                    j = 9 * s + k % 9
                    if j not in lao:
                        out.add(j)
    return frozenset(out)


def laojiang_kinds(rules: RuleSet) -> frozenset[int]:
    """The 老將 kinds: 千字, 白花, 紅花, 九條 (+ 一條 with ``one_tiao_laojiang``).

    >>> sorted(laojiang_kinds(RuleSet(one_tiao_laojiang=True)))
    [9, 17, 27, 28, 29]
    """
    return frozenset(LAOJIANG + ((9,) if rules.one_tiao_laojiang else ()))


def remaining_copies(kind: int, turned: Sequence[int]) -> int:
    """Copies of ``kind`` left in play after 翻將 (4 minus the turned copies).

    >>> remaining_copies(4, (4, 4)), remaining_copies(4, (4, 5)), remaining_copies(6, (4, 5))
    (2, 3, 4)
    """
    return 4 - sum(1 for t in turned if int(t) == int(kind))


def level(kind: int, turned: Sequence[int], rules: RuleSet) -> int:
    """底胡 row of a set of ``kind`` (0-3): +1 老將, +1 將牌, +1 將牌 under 雙將.

    >>> r = RuleSet()
    >>> level(4, (7, 8), r), level(17, (7, 8), r), level(29, (29, 3), r), level(27, (27, 27), r)
    (0, 1, 2, 3)
    """
    lao = int(kind) in laojiang_kinds(rules)
    jiang = int(kind) in jiang_kinds(turned, rules)
    double = jiang and len(turned) == 2 and turned[0] == turned[1]
    return int(lao) + int(jiang) + int(double)


def set_value(column: str, kind: int, turned: Sequence[int], rules: RuleSet) -> int:
    """底胡 of one set: the column's ordinary value times 2 ** :func:`level`.

    >>> set_value("qishou", 27, (27, 27), RuleSet()), set_value("minke", 17, (1, 2), RuleSet())
    (128, 4)
    """
    return COLUMNS[column] << level(kind, turned, rules)


# ----------------------------------------------------------------------------- checks


def meld_cards(meld_type: str, kind: int, jiang: Sequence[int]) -> int:
    """Cards a set holds, the turned cards ``jiang`` given: a pong 3, a kong 4, 和子 2, a 起手 set 4
    (3 of a turned card).

    >>> meld_cards("pong", 4, (4, 12)), meld_cards("qishou", 4, (4, 12)), meld_cards("qishou", 5, (4, 12))
    (3, 3, 4)
    """
    if meld_type == "qishou":
        return 3 if kind in jiang else 4
    return _MELD_CARDS[meld_type]


def meld_units(meld_type: str, kind: int, jiang: Sequence[int], rules: RuleSet) -> int:
    """Units a set counts toward the 22/23 of a hand: 3, but 0 for 和子 and, under
    ``jiang_set_replacement=3``, for a 起手 set of a turned card.

    >>> meld_units("mkong", 4, (4, 12), RuleSet()), meld_units("hezi", 4, (4, 4), RuleSet())
    (3, 0)
    """
    if meld_type == "hezi":
        return 0
    if meld_type == "qishou" and kind in jiang and rules.jiang_set_replacement == 3:
        return 0
    return 3


def _counts_as_meld(meld_type: str, kind: int, rec: ScoreRecord, rules: RuleSet) -> bool:
    return meld_units(meld_type, kind, rec.jiang, rules) == 3


def check_record(record: str | ScoreRecord, rules: Any = None) -> ScoreRecord:
    """Parse (if needed) and check a score record in the page's order.

    Checks: tokens -> 將 limits per meld -> total copies (hand + melds + turned) -> size
    (23 units for a completer, 22 for ``win=none``; a kong counts 3, 和子 0) -> the winning
    card is in hand -> shape (a completer's hand + melds form 1 pair + 7 melds).

    Raises
    ------
    InvalidCardError, RecordError, JiangLimitError, MeldError, TooManyCopiesError,
    HandSizeError, WinningCardError, NotWinningError
        All :class:`kaptai.errors.KaptaiError`; each message names the offending token.
    RulesError
        With ``deck=125`` (wild cards have no rules).

    Examples
    --------
    >>> check_record("jiang=5w,7b win=self:9w hand=99w melds=pong:bh")
    Traceback (most recent call last):
    ...
    kaptai.nantong.cards.HandSizeError: hand + melds = 5 units (kong = 3, hezi = 0); expected 23 for win=self
    >>> check_record("jiang=5w,7b win=discard:5w hand=5w melds=mkong:5w")
    Traceback (most recent call last):
    ...
    kaptai.nantong.cards.JiangLimitError: mkong:5w needs 4 copies but only 3 remain
    """
    rules = _rules(rules)
    rules.check_playable()
    rec = record if isinstance(record, ScoreRecord) else parse_record(record, deck=rules.deck)
    turned = rec.jiang
    need = 1 if rules.single_turn else 2
    if len(turned) != need:
        raise RecordError(
            f"jiang={','.join(format_card(j) for j in turned)}: expected {need} turned card(s)"
            + (" under single_turn" if rules.single_turn else "")
        )
    double = rec.double_jiang
    # 2. 將 limits per meld (and what each meld type requires)
    for m in rec.melds:
        name = f"{m.type}:{format_card(m.kind)}"
        rem = remaining_copies(m.kind, turned)
        under = " under 雙將" if double and m.kind in turned else ""
        if m.type == "hezi":
            if not (double and m.kind == turned[0]):
                raise MeldError(
                    f"{name} needs 雙將 {format_card(m.kind)} (both turned cards {format_card(m.kind)}); "
                    f"turned are {','.join(format_card(j) for j in turned)}"
                )
        elif m.type == "qishou":
            if double and m.kind == turned[0]:
                raise MeldError(f"{name} is a 雙將 card: use hezi:{format_card(m.kind)}")
        else:
            need = 3 if m.type == "pong" else 4
            if rem < need:
                raise JiangLimitError(f"{name} needs {need} copies but only {rem} remain{under}")
        if rec.win == "tiancheng" and m.type in ("pong", "mkong", "ckong"):
            raise MeldError(f"{name} with win=tiancheng: 天成 is the dealer's hand at the deal (only qishou and hezi sets)")
    # 3. total copies
    used = Counter(int(k) for k in rec.hand)
    for m in rec.melds:
        used[m.kind] += meld_cards(m.type, m.kind, rec.jiang)
    for t in turned:
        used[int(t)] += 1
    for k in sorted(used):
        if used[k] > 4:
            raise TooManyCopiesError(f"card {format_card(k)!r} used {used[k]} times; the deck has 4")
    # 4. size
    units = len(rec.hand) + sum(meld_units(m.type, m.kind, rec.jiang, rules) for m in rec.melds)
    expected = 23 if rec.completer else 22
    if units != expected:
        raise HandSizeError(
            f"hand + melds = {units} units (kong = 3, hezi = 0); expected {expected} for win={rec.win}"
        )
    # 5. winning card, 6. shape
    win = f"win={rec.win}" + (f":{format_card(rec.win_card)}" if rec.win_card is not None else "")
    if rec.win_card is not None and rec.win_card not in rec.hand:
        raise WinningCardError(f"{win} but {format_card(rec.win_card)} is not in hand")
    if rec.completer:
        n_melds = 7 - sum(_counts_as_meld(m.type, m.kind, rec, rules) for m in rec.melds)
        counts = np.bincount(np.asarray(rec.hand, dtype=np.int64), minlength=N_KINDS)
        if n_melds < 0 or not decompositions(counts, rules.honour_sequence):
            raise NotWinningError(f"{win} but hand + melds do not form 1 pair + 7 melds")
    return rec


# ----------------------------------------------------------------------------- score


@dataclass(frozen=True)
class Score:
    """胡數 of one player's hand.

    Attributes
    ----------
    total : int
        After doubling and 破頭 (the score of the hand).
    raw : int
        成胡 + 底胡 + 其他, times 2 for 葷和 (and the optional doublings), before 破頭.
    chenghu, dihu, other : int
        The three components (before doubling); ``other = winning_card + wenqian``.
    winning_card, wenqian : int
        The parts of 其他.
    multiplier : int
        1, or 2 for 葷和 (4 with a doubling option on top).
    win_type : {'tahe', 'hunhe', 'qinghe'} or None
        None for a non-completer.
    completer : bool
    items : tuple of (label, 胡)
        Every scoring item.
    decomposition : str
        The scoring decomposition of the concealed hand (``''`` for a non-completer).
    """

    total: int
    raw: int
    chenghu: int
    dihu: int
    other: int
    winning_card: int
    wenqian: int
    multiplier: int
    win_type: str | None
    completer: bool
    items: tuple = field(default_factory=tuple)
    decomposition: str = ""

    def to_dict(self) -> dict[str, Any]:
        """JSON-friendly dict (``kaptai score nantong --format json``).

        >>> score("jiang=qz,qz win=none hand=147w 258w 369w 147t 258t 369b 147b 5b melds=hezi:qz").to_dict()["total"]
        130
        """
        return {
            "total": self.total,
            "raw": self.raw,
            "chenghu": self.chenghu,
            "dihu": self.dihu,
            "other": self.other,
            "winning_card": self.winning_card,
            "wenqian": self.wenqian,
            "multiplier": self.multiplier,
            "win_type": self.win_type,
            "win_type_zh": WIN_TYPE_NAMES.get(self.win_type or "", None),
            "completer": self.completer,
            "items": [{"item": a, "hu": b} for a, b in self.items],
            "decomposition": self.decomposition,
        }


def potou(value: int, rules: Any = None) -> int:
    """破頭: round up to a multiple of 10 (``'ceil'``: 41 -> 50, 40 -> 40; ``'always_up'``:
    40 -> 50).  0 stays 0 under both.

    >>> potou(41), potou(40), potou(40, RuleSet(potou="always_up")), potou(0)
    (50, 40, 50, 0)
    """
    rules = _rules(rules)
    v = int(value)
    if v <= 0:
        return v
    if rules.potou == "ceil":
        return -(-v // 10) * 10
    return (v // 10 + 1) * 10


def _finish(chenghu: int, dihu: int, winning: int, wenqian: int, mult: int, rules: RuleSet) -> tuple[int, int]:
    base = chenghu + dihu + winning + wenqian
    raw = base * mult
    if rules.double_before_round:
        return raw, potou(raw, rules)
    return raw, potou(base, rules) * mult


def _group_text(g: tuple[str, int]) -> str:
    t, k = g
    if t == "t":
        return format_card(k) * 1 + "x3"
    return f"{k % 9 + 1}{k % 9 + 2}{k % 9 + 3}{'wtb'[k // 9]}" if k < 27 else "qz-bh-hh"


def score(record: str | ScoreRecord, rules: Any = None) -> Score:
    """胡數 of one active player from a score record.

    Parameters
    ----------
    record : str or ScoreRecord
        ``jiang=A,B win=self:C|discard:C|tiancheng|none hand=CARDS [melds=TYPE:CARD ...]``.
    rules : RuleSet, str, mapping or None

    Returns
    -------
    Score
        ``total`` after 破頭 and every component.

    Examples
    --------
    >>> score("jiang=3w,bh win=discard:5b hand=123b 123b 456b 123w 789t 234t 567w hh hh").total
    220
    >>> score("jiang=3w,bh win=discard:5b hand=123b 123b 456b 123w 789t 234t 567w hh hh",
    ...       {"wenqian": "cumulative"}).total
    260
    >>> score("jiang=2t,6b win=discard:9t hand=222t 999b 444w 888t 11w 999t melds=pong:qz pong:7w").total
    130
    """
    rules = _rules(rules)
    rec = check_record(record, rules)
    turned = rec.jiang
    items: list[tuple[str, int]] = []
    dihu_melds = 0
    n_meld_triplets = 0
    for m in rec.melds:
        col = _MELD_COLUMN[m.type]
        v = set_value(col, m.kind, turned, rules)
        label = "和子" if m.type == "hezi" else _COLUMN_ZH[col]
        items.append((f"{format_card(m.kind)} {label}", v))
        dihu_melds += v
        if _counts_as_meld(m.type, m.kind, rec, rules):
            n_meld_triplets += 1
    counts = np.bincount(np.asarray(rec.hand, dtype=np.int64), minlength=N_KINDS)
    if not rec.completer:
        dihu = dihu_melds
        if rules.nonwinner_concealed_triplets:
            for k in range(N_KINDS):
                if counts[k] >= 3:
                    v = set_value("anke", k, turned, rules)
                    items.append((f"{format_card(k)} 暗刻", v))
                    dihu += v
        wq = 0
        if rules.nonwinner_wenqian:
            n = int(min(counts[18], counts[19], counts[20]))
            wq = WENQIAN[rules.wenqian][n]
            if wq:
                items.append((f"文錢 x{n}", wq))
        raw, total = _finish(0, dihu, 0, wq, 1, rules)
        return Score(total=total, raw=raw, chenghu=0, dihu=dihu, other=wq, winning_card=0, wenqian=wq,
                     multiplier=1, win_type=None, completer=False, items=tuple(items))
    best = None
    sign = 1 if rules.decomposition == "max" else -1
    w = rec.win_card
    for pair, groups in decompositions(counts, rules.honour_sequence):
        if rec.win == "tiancheng":
            roles: list = [None]
        else:
            roles = []
            if pair == w:
                roles.append(("pair", w))
            for g in sorted(set(groups)):
                t, k = g
                if (t == "t" and k == w) or (t == "s" and k <= w <= k + 2):
                    roles.append(g)
        seqs = sum(1 for t, _ in groups if t == "s")
        trips = sum(1 for t, _ in groups if t == "t") + n_meld_triplets
        win_type = "hunhe" if seqs == 7 else ("qinghe" if trips == 7 else "tahe")
        n_wq = sum(1 for g in groups if g == ("s", 18))
        wq = WENQIAN[rules.wenqian][min(n_wq, 4)]
        for role in roles:
            its = list(items)
            dihu = dihu_melds
            exposed_done = False
            for g in groups:
                t, k = g
                if t != "t":
                    continue
                col = "anke"
                if (role == g and not exposed_done and rec.win == "discard" and rules.discard_triplet == "exposed"):
                    col = "minke"
                    exposed_done = True
                v = set_value(col, k, turned, rules)
                its.append((f"{format_card(k)} {_COLUMN_ZH[col]}", v))
                dihu += v
            bonus = 0
            if role is not None and (role[0] in ("pair", "s")):
                bonus = 20 if rec.win == "self" else 10
                its.append(("winning card " + ("pair" if role[0] == "pair" else "sequence") + f" ({rec.win})", bonus))
            if wq:
                its.append((f"文錢 x{n_wq}", wq))
            mult = 2 if win_type == "hunhe" else 1
            if rules.tiancheng_double and rec.win == "tiancheng":
                mult *= 2
            if rules.yazhuang_double and rec.yazhuang:
                mult *= 2
            ch = CHENGHU[win_type]
            its.insert(0, (f"{WIN_TYPE_NAMES[win_type]} 成胡", ch))
            raw, total = _finish(ch, dihu, bonus, wq, mult, rules)
            key = (sign * total, sign * raw)
            if best is None or key > best[0]:
                text = f"pair {format_card(pair)}x2 | " + " ".join(_group_text(g) for g in groups)
                best = (key, Score(total=total, raw=raw, chenghu=ch, dihu=dihu, other=bonus + wq,
                                   winning_card=bonus, wenqian=wq, multiplier=mult, win_type=win_type,
                                   completer=True, items=tuple(its), decomposition=text))
    assert best is not None  # check_record guarantees a decomposition
    return best[1]


# ----------------------------------------------------------------------------- hand result


def hand_winners(totals: Sequence[int], completers: Sequence[bool], rules: Any = None,
                 raws: Sequence[int] | None = None) -> tuple[int, ...]:
    """The hand winner(s) (此局勝利者): highest total, ties by ``tie`` [D13, D14, D25].

    Parameters
    ----------
    totals : ints
        Totals after 破頭, in seat order starting from the player who decides seat-order
        ties (the caller orders them).
    completers : bools
    raws : ints, optional
        Totals before 破頭 (needed for ``compare='raw'``).

    Examples
    --------
    >>> hand_winners([90, 80, 10], [False, True, False])
    (0,)
    >>> hand_winners([80, 80, 10], [False, True, False]), hand_winners([80, 80, 10], [False, True, False], {"tie": "completer_first"})
    ((0, 1), (1,))
    """
    rules = _rules(rules)
    totals = _points("totals", totals)
    completers = [bool(c) for c in _seats_of("completers", completers, len(totals), bools=True)]
    raws = None if raws is None else _points("raws", raws, len(totals))
    vals = list(totals) if rules.compare == "rounded" else list(raws if raws is not None else totals)
    top = max(vals)
    tied = [i for i, v in enumerate(vals) if v == top]
    if len(tied) > 1:
        if rules.tie == "seat_order":
            tied = tied[:1]
        elif rules.tie == "completer_first" and any(completers[i] for i in tied):
            tied = [i for i in tied if completers[i]]
    return tuple(tied)


def _points(what: str, values: Any, n: int | None = None) -> list:
    """The points of each player (real numbers, one per player), else a RulesError naming them."""
    items = as_items(values, what, RulesError)
    for v in items:
        if isinstance(v, (bool, np.bool_)) or not isinstance(v, (int, float, np.integer, np.floating)) or v != v:
            raise RulesError(f"{what}: expected one number per player, got {quote_token(v)}")
    if not items or (n is not None and len(items) != n):
        raise RulesError(f"{what}: expected {n or 'at least 1'} number(s), one per player, got {len(items)}")
    return items


def _seats_of(what: str, values: Any, n: int, *, bools: bool = False) -> list:
    """Seats 0..n-1 (``bools``: one flag per player), else a RulesError naming them."""
    items = as_items(values, what, RulesError)
    if bools:
        if len(items) != n or not all(isinstance(v, (bool, np.bool_, int, np.integer)) and v in (0, 1) for v in items):
            raise RulesError(f"{what}: expected {n} flags (True/False), one per player, got {quote_token(values)}")
        return items
    for v in items:
        if isinstance(v, (bool, np.bool_)) or not isinstance(v, (int, np.integer)) or not 0 <= v < n:
            raise RulesError(f"{what}: expected seats 0-{n - 1}, got {quote_token(v)}")
    return [int(v) for v in items]


def settle(totals: Sequence[int], winners: Sequence[int], rules: Any = None) -> np.ndarray:
    """Net points of each active player for one hand under ``settlement`` [D13].

    * ``'rank_only'``: no payments (all 0);
    * ``'pairwise_difference'``: every pair settles the difference of their totals,
      ``net_i = N t_i - sum(t)``;
    * ``'winner_collects'``: every other player pays the hand winner the winner's total
      (shared winners split each payment equally; a shared winner pays nothing).

    >>> settle([90, 80, 10], (0,), {"settlement": "pairwise_difference"}).tolist()
    [90.0, 60.0, -150.0]
    >>> settle([90, 80, 10], (0,), {"settlement": "winner_collects"}).tolist()
    [180.0, -90.0, -90.0]
    """
    rules = _rules(rules)
    t = np.asarray(_points("totals", totals), dtype=np.float64)
    n = len(t)
    winners = _seats_of("winners", winners, n)
    if rules.settlement == "rank_only":
        return np.zeros(n)
    if rules.settlement == "pairwise_difference":
        return n * t - t.sum()
    if not winners:
        raise RulesError("winner_collects needs at least one hand winner")
    net = np.zeros(n)
    ws = list(winners)
    for i in range(n):
        if i in ws:
            continue
        for w in ws:
            pay = t[w] / len(ws)
            net[i] -= pay
            net[w] += pay
    return net
