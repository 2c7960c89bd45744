"""Scoring of a finished nine-ten hand (九支十仔; ``docs/rules/nine-ten.md`` §5).

The total in 頭 adds the components of §5:

* colours k of the five pairs: 1 → 5, 2 → 3, 3 → 2; k = 4 → 0, except exactly 1 **in
  total** on a self-draw (no bonus flip, no self-draw point, no 開招 unless
  ``four_colour_kaizhao_counts``) **[D9, D10]**;
* self-draw +1 (a dealer natural is a self-draw **[D5]**);
* bonus flip (self-draw or flip win, never a discard win, never k = 4 unless
  ``four_colour_flip_win='bonus_flip'`` on a flip win, not on a natural under
  ``natural='no_bonus'``): +1 for each of the cards 1-4 that is the same card as one of the
  winner's pairs, +2 if card 5 (尾椎) is;
* 開招 during play +1 each; the final wait 開招 +5 (+6 with ``kaizhao_wait_also_plus1``)
  **[D11]**.

Payment **[D8]**: on a discard win the discarder pays the total (× (n − 1) with
``discard_payer_covers_all``); on a self-draw or flip win every other player pays the total
(only the flipper, ``flip_win_payer='flipper'``, on a flip win).  Money = 頭 ×
``stake_per_tou``; the nets of a hand sum to 0.

Examples
--------
>>> from kaptai.nineten.scoring import score
>>> s = score("RAx2 RRx2 YKx2 YAx2 WEx2 | win=self | bonus=GC GP WE RK RA")   # T1
>>> s.total, s.components
(6, {'colours': 2, 'self_draw': 1, 'bonus': 3, 'kaizhao': 0, 'kaizhao_wait': 0})
>>> s.net(players=4)
[180.0, -60.0, -60.0, -60.0]
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from numbers import Integral
from typing import Any

import numpy as np

from kaptai.nineten.cards import N_KINDS, Record, colour_of, format_card, parse_record
from kaptai.nineten.rules import RuleSet, resolve_rules, validate_players
from kaptai.errors import RulesError, quote_token

__all__ = [
    "COLOUR_TOU",
    "Score",
    "bonus_reason",
    "bonus_points",
    "score_components",
    "score",
    "payments",
]

#: 頭 for k = 1, 2, 3, 4 colours (k = 4: see :func:`score_components`).
COLOUR_TOU: tuple[int, int, int, int] = (5, 3, 2, 0)


def bonus_reason(rules: RuleSet, win: str, colours: int) -> str | None:
    """None if the options give a bonus flip to this win, else why not (record errors).

    >>> from kaptai.nineten.rules import RuleSet
    >>> bonus_reason(RuleSet(), "self", 3), bonus_reason(RuleSet(), "flip", 4)
    (None, 'four colours')
    >>> bonus_reason(RuleSet(four_colour_flip_win="bonus_flip"), "flip", 4) is None
    True
    """
    if win == "discard":
        return "win=discard"
    if win == "natural":
        if rules.natural == "redeal":
            return "natural=redeal (a dealer natural is redealt, never scored)"
        if rules.natural == "no_bonus":
            return "natural=no_bonus"
    if colours == 4 and not (win == "flip" and rules.four_colour_flip_win == "bonus_flip"):
        return "four colours"
    return None


def bonus_points(counts: Any, bonus: Any) -> int:
    """Bonus-flip points of five turned cards against the winner's hand (count vector).

    Cards 1-4 score 1 each and card 5 (尾椎) 2 when they are the same card as one of the
    winner's pairs (a kind held 2 or more times).

    >>> from kaptai.nineten.cards import parse_hand, parse_cards
    >>> bonus_points(parse_hand("RKx2 RAx2 REx2 RRx2 RHx2"), parse_cards("RC WP RK RH RH"))
    4
    """
    c = np.asarray(counts)
    pts = 0
    for i, k in enumerate(bonus):
        if c[int(k)] >= 2:
            pts += 2 if i == 4 else 1
    return pts


def score_components(rules: RuleSet, colours: int, win: str, bonus: int, kaizhao: int, kaizhao_wait: bool) -> dict[str, int]:
    """The §5 components in 頭 of a win, from its facts (the engines use the same rule).

    Parameters
    ----------
    rules : RuleSet
    colours : int
        k, 1-4.
    win : {'self', 'flip', 'discard', 'natural'}
    bonus : int
        Bonus-flip points (0 when there was no bonus flip).
    kaizhao : int
        開招 during play (cards listed in ``kz``).
    kaizhao_wait : bool
        The winning card was the 4th copy.

    Examples
    --------
    >>> from kaptai.nineten.rules import RuleSet
    >>> score_components(RuleSet(), 4, "self", 0, 1, False)
    {'colours': 1, 'self_draw': 0, 'bonus': 0, 'kaizhao': 0, 'kaizhao_wait': 0}
    >>> score_components(RuleSet(kaizhao_wait_also_plus1=True), 2, "discard", 0, 0, True)["kaizhao_wait"]
    6
    """
    selfdraw = win in ("self", "natural")
    kz_on = colours < 4 or rules.four_colour_kaizhao_counts
    kzp = int(kaizhao) if kz_on else 0
    kwp = (5 + (1 if rules.kaizhao_wait_also_plus1 else 0)) if (kaizhao_wait and kz_on) else 0
    if colours == 4:
        return {"colours": 1 if selfdraw else 0, "self_draw": 0, "bonus": int(bonus), "kaizhao": kzp,
                "kaizhao_wait": kwp}
    return {"colours": COLOUR_TOU[colours - 1], "self_draw": 1 if selfdraw else 0, "bonus": int(bonus),
            "kaizhao": kzp, "kaizhao_wait": kwp}


def payments(total: float, win: str, players: int, rules: RuleSet, winner: int = 0, source: int | None = None) -> list[float]:
    """Net money of every seat for one win of ``total`` 頭 (sums to 0).

    Parameters
    ----------
    total : number
        The winner's 頭.
    win : {'self', 'flip', 'discard', 'natural'}
    players : int
    rules : RuleSet
    winner : int
        Winner's seat.
    source : int, optional
        The discarder (discard win) or the flipper (flip win); default the seat after the
        winner.  Ignored on a self-draw.

    Examples
    --------
    >>> from kaptai.nineten.rules import RuleSet
    >>> payments(8, "discard", 4, RuleSet(), winner=0, source=3)
    [80.0, 0.0, 0.0, -80.0]
    >>> payments(8, "discard", 4, RuleSet(discard_payer_covers_all=True), winner=0, source=3)
    [240.0, 0.0, 0.0, -240.0]
    """
    n = int(players)
    for name, s in (("winner", winner), ("source", source)):
        if s is not None and (isinstance(s, bool) or not isinstance(s, Integral) or not 0 <= s < n):
            raise RulesError(f"{name}={quote_token(s)} is not a seat: expected 0-{n - 1}")
    if source is None:
        source = (winner + 1) % n
    if source == winner and win in ("flip", "discard"):
        raise RulesError(f"source={source} is the winner: a {win} win is paid by another seat")
    money = float(total) * rules.stake_per_tou
    net = [0.0] * n
    if win == "discard":
        pay = money * ((n - 1) if rules.discard_payer_covers_all else 1)
        net[source] -= pay
        net[winner] += pay
    elif win == "flip" and rules.flip_win_payer == "flipper":
        net[source] -= money
        net[winner] += money
    else:
        for s in range(n):
            if s != winner:
                net[s] -= money
                net[winner] += money
    return [x + 0.0 for x in net]


@dataclass(frozen=True)
class Score:
    """The score of one finished hand.

    Attributes
    ----------
    record : Record
    rules : RuleSet
    colours : int
        k.
    components : dict
        ``colours, self_draw, bonus, kaizhao, kaizhao_wait`` in 頭.
    total : int
        Sum of the components (頭).
    """

    record: Record
    rules: RuleSet
    colours: int
    components: dict[str, int] = field(default_factory=dict)
    total: int = 0

    @property
    def money(self) -> float:
        """What one paying seat pays: ``total × stake_per_tou``."""
        return self.total * self.rules.stake_per_tou

    def payer_rule(self) -> str:
        """Who pays, in words."""
        r, w = self.rules, self.record.win
        if w == "discard":
            return "the discarder pays the total" + (" x (n - 1)" if r.discard_payer_covers_all else "")
        if w == "flip" and r.flip_win_payer == "flipper":
            return "the flipper pays the total"
        return "every other player pays the total"

    def net(self, players: int = 4, winner: int = 0, source: int | None = None) -> list[float]:
        """Net money per seat (see :func:`payments`)."""
        n = validate_players(players, self.rules, play=True)
        return payments(self.total, self.record.win, n, self.rules, winner, source)

    def to_dict(self, players: int = 4, winner: int = 0, source: int | None = None) -> dict[str, Any]:
        """JSON-friendly result: ``total`` (頭), the components (``colours``, ``self_draw``,
        ``bonus``, ``kaizhao``, ``kaizhao_wait`` in 頭), ``colour_count`` (k), money and the
        net of every seat.

        >>> from kaptai.nineten.scoring import score
        >>> d = score("RAx2 RRx2 YKx2 YAx4 | win=discard | kzwait=YA").to_dict(winner=0, source=2)
        >>> d["total"], d["colour_count"], d["colours"], d["net"]
        (8, 2, 3, [80.0, 0.0, -80.0, 0.0])
        """
        from kaptai.nineten.cards import format_record

        return {
            "record": format_record(self.record),
            "win": self.record.win,
            "colour_count": self.colours,
            **{k: v for k, v in self.components.items()},
            "total": self.total,
            "stake_per_tou": self.rules.stake_per_tou,
            "money": self.money,
            "payer": self.payer_rule(),
            "players": players,
            "net": self.net(players, winner, source),
        }


def score(record: str | Record, rules: RuleSet | str | Mapping[str, Any] | None = None) -> Score:
    """Score a finished hand from its record (§1.3 format, §5 rules).

    Parameters
    ----------
    record : str
        ``HAND | win=self|flip|discard [| kz=CARDS] [| kzwait=CARD] [| bonus=C1 … C5]``;
        ``win=natural`` (an extension) marks a dealer natural.
    rules : RuleSet, str, mapping or None

    Returns
    -------
    Score
        ``total`` in 頭 and the components; ``net(players, winner, source)`` for who pays whom.

    Raises
    ------
    KaptaiError
        Any problem of the record (the rules page's error table); a bad record never
        yields a score.

    Examples
    --------
    >>> from kaptai.nineten.scoring import score
    >>> score("RAx2 RRx2 YKx2 YAx4 | win=discard | kzwait=YA").total       # T2
    8
    >>> score("RAx2 RRx2 YKx2 YAx4 | win=flip | kz=YA | bonus=GC GP WE RK RA").total   # T3
    6
    >>> score("RAx2 RRx2 YKx2 YAx2 WEx2 | win=discard | bonus=GC GP WE RK RA")   # T7
    Traceback (most recent call last):
    ...
    kaptai.nineten.cards.InvalidRecordError: bonus not allowed for win=discard
    """
    rules = resolve_rules(rules)
    if isinstance(record, Record):
        rec = parse_record(_record_text(record), lambda w, k: bonus_reason(rules, w, k))
    else:
        rec = parse_record(record, lambda w, k: bonus_reason(rules, w, k))
    if rec.win == "natural" and rules.natural == "redeal":
        from kaptai.nineten.cards import InvalidRecordError

        raise InvalidRecordError("win=natural is not scored under natural=redeal (a dealer natural is redealt)")
    k = rec.colours
    bonus = bonus_points(rec.counts, rec.bonus) if rec.bonus is not None else 0
    comp = score_components(rules, k, rec.win, bonus, len(rec.kz), rec.kzwait is not None)
    return Score(rec, rules, k, comp, int(sum(comp.values())))


def _record_text(rec: Record) -> str:
    from kaptai.nineten.cards import format_record

    return format_record(rec)
