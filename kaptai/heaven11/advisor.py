"""The Heaven Eleven (天牌十一) advisor: the expected score of every call, or of every legal play.

Both answers are the ``search`` policies' own estimates (``docs/heaven-eleven-engine.md``), with
every option kept (no pruning).  ``value`` is the mean of the seat's final score of the hand, in
points (the zero-sum finals of ``kaptai score``), over the sampled layouts of the unseen cards,
with its 95% normal interval; ``vs_best`` is the option's paired difference to the best option
(the same layouts for every option, so it is much sharper than the two intervals), with its 95%
interval.  Layouts are drawn in batches within a time budget (:mod:`kaptai.core.advise`): sampling
stops when the best option's lead over the second is resolved or the budget (150 ms) is spent;
``samples=N`` draws exactly N and reproduces a budgeted answer that used N.  Equal values share a
rank (competition ranking, "1224").  Heaven Eleven is a trick game: there is no complete hand to
declare, so no "win" row.

Model
-----
*Layouts.*  The unseen cards are dealt to the other seats at random, consistent with every void
they have shown, and with the auction typed (if any) under the assumption that the other seats bid
by the ``expected`` table bidder (the model of the ``search`` bidder; a layout that no attempt makes
consistent falls back to the voids alone, as in the engine).
*Playouts.*  Each option is followed by the rest of the hand played by ``greedy`` at every seat.
*Bids.*  After each call the other seats go on bidding by the ``expected`` table and the seat passes
at its later turns; the contract that comes out is played out and scored.  A passed-out deal is
worth 0 (it is redealt), under ``passout='dealer_0C'`` the dealer plays 0♣.  Calls that the other
seats' bidding overcalls anyway (often PASS, 0♣, 0♦ ...) end in the same contract on every layout:
their values are equal and they share a rank.
*Auctions.*  An auction still open asks for a call.  A finished auction (a bid and three passes, or
four passes under ``passout='dealer_0C'``) fixes the contract and the declarer: :func:`advise` then
answers the first play (the plays are asked of the seat on lead).  With a ``contract`` the auction,
if typed, must be finished and end in that contract by that declarer.
*Seats.*  Seats 0-3 are numbered clockwise: the seat after seat s in play is s + 1 (mod 4) by
default, s - 1 under ``play_direction='counterclockwise'``; calls go in bidding order from the
dealer (counterclockwise by default: s - 1).
*Free follows.*  Under ``short_follow='free'`` a player short of the suit led plays any n cards but
may not trump (rules §4.3): another seat's follow of 2-3 trumps and no card of the suit led is a
trump if that seat is void, a discard (that cannot win) if not.  The advisor follows both readings
and keeps those the later plays allow (the winner of each play is known from who leads next, and
your turn ends the plays); a void is inferred only when every reading kept shows it.  When the two
readings still differ on who is winning the play in progress, it asks: type the follow
``"KH AH trump"`` or ``"KH AH discard"``.

Examples
--------
>>> from kaptai.heaven11.advisor import advise_bid, advise_play
>>> df = advise_bid("AS KS QS JS TS 9S AH KH 2D 3D 4C 5C 6C", samples=8)
>>> df[df.scoring == "as_written"].sort_values("rank").option.iloc[0] != "PASS"
True
>>> sorted(set(df.scoring))
['as_written', 'symmetric']
>>> p = advise_play("AS KS QS JS TS 9S AH KH 2D 3D 4C 5C 6C", contract="4S", declarer=0, seat=0, samples=8)
>>> len(p), list(p.columns[:4])   # 41 spade leads, 3 + 3 in the red suits, 7 in clubs
(54, ['rank', 'option', 'value', 'ci_low'])
"""

from __future__ import annotations

import time
from typing import Any

import numpy as np
import pandas as pd

from kaptai.core.advise import DEFAULT_BUDGET_MS, PairedResult, check_budget_ms, check_samples, paired_budget
from kaptai.core.options import check_seed
from kaptai.errors import InvalidHandError, KaptaiError, RulesError, quote_token
from kaptai.heaven11 import _engine
from kaptai.heaven11.cards import (
    STRAINS,
    InvalidBidError,
    bid_code,
    format_bid,
    format_cards,
    parse_bid,
    parse_cards,
    parse_hand,
)
from kaptai.heaven11.config import FIRST_LEADERS, IllegalPlayError, make_config
from kaptai.heaven11.engine_reference import follow_options, lead_options, play_kind
from kaptai.heaven11.rules import resolve_rules

__all__ = ["ADVICE_COLUMNS", "BATCH", "advise", "advise_bid", "advise_play"]

#: Layouts per batch of the sampling budget (a batch of the 51 calls x 2 scorings takes ~5 ms).
BATCH: int = 32
#: Columns of the answers.
ADVICE_COLUMNS: list[str] = ["rank", "option", "value", "ci_low", "ci_high", "vs_best", "vs_best_low",
                             "vs_best_high", "sd", "samples", "scoring", "phase"]
#: The unit of ``value`` and ``vs_best``.
UNIT = "points (final score of the hand)"
SUIT_BITS = 0x1FFF


def _mask(ids) -> int:
    m = 0
    for c in ids:
        m |= 1 << c
    return m


def _cards_of(m: int) -> list[int]:
    return [c for c in range(52) if m >> c & 1]


def _why_not_yours(m: int, hand: int, kind: str, cards_led: int = 0, trump: int = 4, cfg: Any = None) -> str:
    """Why the seat's own lead or follow ``m`` is illegal: a card it does not hold, else the
    follow rule it breaks (:func:`kaptai.heaven11.evaluate.check_follow`'s reason)."""
    miss = m & ~hand
    if miss:
        return f"your hand does not hold {format_cards(_cards_of(miss))}"
    if kind == "follow" and cfg is not None:
        from kaptai.heaven11.evaluate import IllegalFollowError, check_follow

        try:
            check_follow(format_cards(_cards_of(m)), format_cards(_cards_of(hand)), format_cards(_cards_of(cards_led)),
                         STRAINS[trump], cfg.rules)
        except IllegalFollowError as exc:
            return str(exc).split(": ", 1)[-1].replace("the hand ", "your hand ")
    return f"not one of your legal {kind}s"


def _seat(name: str, value: Any) -> int:
    if isinstance(value, (bool, np.bool_)) or not isinstance(value, (int, np.integer)) or not 0 <= value < 4:
        raise RulesError(f"{name}={quote_token(value)} is not allowed: expected a seat 0-3")
    return int(value)


def _tokens(auction: Any) -> list[Any]:
    if auction is None:
        return []
    if isinstance(auction, str):
        return auction.replace(",", " ").split()
    if isinstance(auction, (list, tuple)):
        return list(auction)
    raise RulesError(f"auction={quote_token(auction)} is not allowed: expected calls such as 'PASS 1S PASS'")


def _parse_auction(auction: Any, dealer: int, bid_step: int, passout_0c: bool = False) -> list[tuple[int, int]]:
    """[(seat, code or -1)] from 'PASS 1S PASS ...' (the dealer calls first); each bid must beat the standing one.

    Four opening passes are refused under ``passout='redeal'`` (the deal is redealt: nothing to advise)."""
    tokens = _tokens(auction)
    calls: list[tuple[int, int]] = []
    current, passes, caller = -1, 0, dealer
    for i, tok in enumerate(tokens, 1):
        if (current >= 0 and passes == 3) or (current < 0 and len(calls) == 4):
            raise InvalidBidError(f'call {quote_token(str(tok), quote=chr(34))} (token {i}): the auction is over '
                                  f'({"three passes after a bid" if current >= 0 else "four passes"})')
        b = parse_bid(tok, i)
        if b is None:
            c = -1
            passes += 1 if current >= 0 else 0
        else:
            c = bid_code(b)
            if c <= current:
                raise InvalidBidError(f'invalid bid {quote_token(str(tok), quote=chr(34))} (token {i}): it does not '
                                      f'beat {format_bid(divmod(current, 5))}')
            current, passes = c, 0
        calls.append((caller, c))
        caller = (caller + bid_step) % 4
    if current < 0 and len(calls) >= 4 and not passout_0c:
        raise InvalidBidError(f"the first four calls are passes: the deal is passed out and redealt (token "
                              f"{len(calls)}; under -o passout=dealer_0C the dealer would play 0C)")
    return calls


def _outcome(calls: list[tuple[int, int]], dealer: int) -> tuple[int, int] | None:
    """(contract code, declarer) of a finished auction, None while it is open."""
    bids = [(s, c) for s, c in calls if c >= 0]
    if bids:
        last = max(i for i, (_, c) in enumerate(calls) if c >= 0)
        if len(calls) - 1 - last >= 3:
            return bids[-1][1], bids[-1][0]
        return None
    if len(calls) >= 4:
        return 0, dealer  # passed out under dealer_0C: the dealer plays 0C
    return None


def _frame(res: PairedResult, labels: list[str], scoring: str, phase: str, idx: np.ndarray | None = None) -> pd.DataFrame:
    """The rows of one scoring (options ``idx`` of the run)."""
    idx = np.arange(len(labels)) if idx is None else idx
    n = res.samples
    mean = res.means(0)[idx]
    lo, hi = (a[idx] for a in res.interval(0))
    sd = np.sqrt(np.maximum(res.sumsq[0][idx] - res.sums[0][idx] ** 2 / n, 0.0) / (n - 1)) if n > 1 \
        else np.zeros(len(idx))
    best = int(idx[int(np.argmax(mean))])
    vs = np.array([(0.0, 0.0, 0.0) if i == best else res.diff(int(i), best) for i in idx]).reshape(len(idx), 3)
    df = pd.DataFrame({"option": labels, "value": mean, "ci_low": lo, "ci_high": hi, "vs_best": vs[:, 0],
                       "vs_best_low": vs[:, 1], "vs_best_high": vs[:, 2], "sd": sd, "samples": n,
                       "scoring": scoring, "phase": phase})
    from kaptai.core.advise import competition_ranks

    df.insert(0, "rank", competition_ranks(mean))
    return df


def _run(evaluate, k: int, seed: int, samples: int | None, budget_ms: float, start: float,
         groups: int = 1) -> PairedResult:
    """paired_budget over ``groups`` blocks of ``k`` options, each block resolved on its own."""
    blocks = [np.arange(g * k, (g + 1) * k) for g in range(groups)] if groups > 1 else None
    return paired_budget(evaluate, k * groups, seed=seed, samples=samples, budget_ms=budget_ms, batch=BATCH,
                         groups=blocks, start=start)


def _checks(seed: Any, samples: Any, budget_ms: Any) -> tuple[int, int | None, float]:
    return check_seed(seed), check_samples(samples), check_budget_ms(budget_ms)


def advise_bid(hand: Any, *, seat: int = 0, dealer: int | None = None, auction: Any = None, rules: Any = None,
               samples: int | None = None, seed: int = 0, budget_ms: float = DEFAULT_BUDGET_MS) -> pd.DataFrame:
    """Expected final score of every call open to ``seat`` (pass and each higher bid up to 9NT), under the
    rules as written (``scoring='as_written'``) and under ``short_penalty='symmetric'``.

    Parameters
    ----------
    hand : str or ids
        The seat's 13 dealt cards.
    seat : int
        Your seat (0-3, numbered clockwise; see *Seats* above).
    dealer : int, optional
        The dealer; default: the seat that makes you the next caller after ``auction``.
    auction : str, optional
        The calls so far, the dealer's first: ``"PASS 1S PASS"`` (an open auction: a finished one
        has no call left, see :func:`advise`).
    rules : RuleSet, preset name or mapping, optional
        Everything but ``short_penalty`` (both are answered).
    samples : int, optional
        Layouts (1-100,000); default None: sampled within ``budget_ms`` (both scorings on the
        same stream, until each scoring's best call is resolved).
    seed : int
        Seed of the layouts' streams (a non-negative integer).
    budget_ms : float
        The time budget without ``samples``.

    Examples
    --------
    >>> df = advise_bid("2C 3C 4C 5D 6D 7D 8H 9H TH 2S 3S 4S 5S", samples=64)
    >>> df[(df.scoring == "symmetric") & (df["rank"] == 1)].option.tolist()[:2]
    ['PASS', '0C']
    """
    start = time.perf_counter()
    ids = parse_hand(hand, 13)
    seat = _seat("seat", seat)
    seed, samples, budget_ms = _checks(seed, samples, budget_ms)
    base = resolve_rules(rules)
    step = base.step(base.bid_direction)
    tokens = _tokens(auction)
    if dealer is None:
        dealer = (seat - step * len(tokens)) % 4
    dealer = _seat("dealer", dealer)
    calls = _parse_auction(tokens, dealer, step, base.passout == "dealer_0C")
    done = _outcome(calls, dealer)
    if done is not None:
        raise InvalidBidError(f"the auction {quote_token(' '.join(map(str, tokens)))} is over: contract "
                              f"{format_bid(divmod(done[0], 5))} by seat {done[1]}; advise on the plays with "
                              f"contract= and declarer= (advise() does so by itself)")
    nxt = (dealer + step * len(calls)) % 4
    if nxt != seat:
        raise InvalidBidError(f"after {len(calls)} calls from dealer {dealer} it is seat {nxt}'s call, not seat {seat}'s")
    current = max([c for _, c in calls], default=-1)
    cfgs = [make_config(rules=resolve_rules(base, short_penalty=sp)) for sp in ("none", "symmetric")]
    hm = _mask(ids)
    cand_box: list[list[int]] = []

    def evaluate(bg: np.random.PCG64, n: int) -> np.ndarray:
        state = bg.state
        out = []
        for cfg in cfgs:
            g = np.random.PCG64()
            g.state = state  # both scorings read the same stream
            cand, values = _engine.call_values(cfg, seat, hm, dealer, calls, n, g)
            cand_box[:] = [list(cand)]
            out.append(values)
        return np.concatenate(out)[None]

    k = 50 - current
    res = _run(evaluate, k, seed, samples, budget_ms, start, groups=2)
    labels = [format_bid(None if c < 0 else divmod(c, 5)) for c in cand_box[0]]
    frames = [_frame(res, labels, label, "bid", np.arange(g * k, (g + 1) * k))
              for g, label in enumerate(("as_written", "symmetric"))]
    df = pd.concat(frames, ignore_index=True)
    df.attrs.update(seat=seat, dealer=dealer, auction=" ".join(map(str, tokens)), standing=current, seed=seed,
                    unit=UNIT, **res.attrs(),
                    model="others bid by the 'expected' table, you pass after this call; greedy playouts")
    return df


#: The words that say how a follow was meant, typed after its cards ("KH AH trump"): kinds 1 and 2.
MARKS: dict[str, int] = {"trump": 1, "discard": 2}
_KIND_TEXT = {0: "a combination of the suit led", 1: "a trump combination", 2: "a discard (a mixed set)"}
#: Readings of one position kept apart at most (beyond, those alike but for voids are merged).
_MAX_READINGS = 16


class _Reading:
    """The public state after the plays under one reading of them.

    Under ``short_follow='free'`` a hidden seat that follows a lead of 2-3 cards with as many
    trumps and no card of the suit led may be void in it (a trump combination, it competes) or
    still hold 1 to n - 1 of it (a free discard: "such a player still may not trump", rules
    §4.3; no void shown).  The card text does not tell: each reading is followed on its own,
    ``choices`` maps such a play (its number) to (the kind read, its seat)."""

    __slots__ = ("hands", "tricks", "gone", "voids", "leader", "t_pos", "t_lead", "t_n", "t_led", "t_best",
                 "t_key", "t_trump", "choices")

    def __init__(self) -> None:
        self.hands = [0, 0, 0, 0]
        self.tricks = [0, 0, 0, 0]
        self.gone = [0, 0, 0, 0]
        self.voids = [0, 0, 0, 0]
        self.leader = self.t_pos = self.t_lead = self.t_n = self.t_led = self.t_best = 0
        self.t_key = self.t_trump = 0
        self.choices: dict[int, tuple[int, int]] = {}

    def copy(self) -> "_Reading":
        r = _Reading()
        r.hands, r.tricks, r.gone, r.voids = list(self.hands), list(self.tricks), list(self.gone), list(self.voids)
        r.leader, r.t_pos, r.t_lead, r.t_n, r.t_led = self.leader, self.t_pos, self.t_lead, self.t_n, self.t_led
        r.t_best, r.t_key, r.t_trump, r.choices = self.t_best, self.t_key, self.t_trump, dict(self.choices)
        return r

    def key(self) -> tuple:
        """Everything but the voids (and how it was read)."""
        return (tuple(self.hands), tuple(self.tricks), tuple(self.gone), self.leader, self.t_pos, self.t_lead,
                self.t_n, self.t_led, self.t_best, self.t_key, self.t_trump)


def _prune(readings: list[_Reading]) -> list[_Reading]:
    """Readings that differ only in their voids: those with fewer voids are kept (a reading that
    shows more voids than another, alike otherwise, allows nothing the other does not); beyond
    ``_MAX_READINGS`` such readings are merged into one with the voids common to them all."""
    groups: dict[tuple, list[_Reading]] = {}
    for r in readings:
        groups.setdefault(r.key(), []).append(r)
    out: list[_Reading] = []
    for group in groups.values():
        kept: list[_Reading] = []
        for r in sorted(group, key=lambda x: sum(v.bit_count() for v in x.voids)):
            if not any(all(k.voids[q] & ~r.voids[q] == 0 for q in range(4)) for k in kept):
                kept.append(r)
        if len(kept) > _MAX_READINGS:
            for r in kept[1:]:
                kept[0].voids = [a & b for a, b in zip(kept[0].voids, r.voids)]
            kept = kept[:1]
        out += kept
    return out


def _dead_end(errors: list[tuple[_Reading, KaptaiError]], texts: dict[int, str]) -> KaptaiError:
    """The error of the first reading, with another reading's if it says something else."""
    r0, e0 = errors[0]
    other = next(((r, e) for r, e in errors[1:] if str(e) != str(e0)), None)
    if other is None:
        return e0

    def how(r: _Reading) -> str:
        return "; ".join(f'play {gi} ("{texts[gi]}") by seat {w} read as {"a trump" if k == 1 else "a free discard"}'
                         for gi, (k, w) in sorted(r.choices.items())) or "no play read otherwise"

    return type(e0)(f"{e0} ({how(r0)}); and {other[1]} ({how(other[0])})")


def _position(ids: tuple[int, ...], contract: Any, declarer: int, seat: int, plays: Any, cfg) -> tuple[dict, int]:
    """The public state after ``plays`` (validated), and whether the seat leads (1) or follows (0).

    Each play's seat follows from the rules (the lead, then play order, each play's winner leads
    the next).  A hidden seat's follow under ``short_follow='free'`` of 2-3 trumps and no card of
    the suit led, the seat not known to be void in it, is a trump (void) or a free discard (not
    void, it cannot win): both readings are followed (see :class:`_Reading`) and those the later
    plays contradict are dropped (a seat the reading makes void playing the suit later, the seat
    it makes lead next playing your cards or being out of turn, your turn at the end).  Readings
    alike but for their voids keep the voids common to them (no void is inferred that one of
    them does not show).  Readings that still differ on the play in progress are refused,
    naming the play: type ``"KH AH trump"`` or ``"KH AH discard"`` (words of :data:`MARKS`, after
    the cards of a follow) to say which it was."""
    bid = parse_bid(contract)
    if bid is None:
        raise InvalidBidError("contract PASS: give the contract played, such as '3S'")
    level, trump = bid
    if isinstance(plays, str):
        groups = [g for g in plays.replace(";", ",").replace("|", ",").split(",")]
        while groups and not groups[-1].strip():  # a separator at the end
            groups.pop()
        for gi, g in enumerate(groups, 1):
            if not g.strip():
                raise IllegalPlayError(f"plays={quote_token(plays)}: play {gi} is empty (two separators in a row)")
    else:
        groups = list(plays or [])
        for g in groups:
            if not isinstance(g, str):
                raise RulesError(f"plays={quote_token(plays)}: each play is a string of cards, such as 'AS' or 'KD QD'")
    step = cfg.play_step
    key = cfg.key
    mine = _mask(ids)
    played = 0
    first = _Reading()
    first.hands[seat] = mine
    first.leader = first.t_best = declarer if cfg.first_leader == 0 else (declarer + step) % 4
    readings = [first]
    texts: dict[int, str] = {}
    trump_mask = SUIT_BITS << (13 * trump) if trump < 4 else 0

    def advance(r: _Reading, gi: int, text: str, cards: tuple[int, ...], m: int, mark: str | None) -> list[_Reading]:
        who = r.leader if r.t_pos == 0 else (r.leader + r.t_pos * step) % 4
        if who != seat and m & mine:
            c = (m & mine & -(m & mine)).bit_length() - 1
            raise InvalidHandError(f'play {gi} ("{text}") by seat {who}: card "{format_cards([c])}" is in your hand')
        if r.gone[who].bit_count() + len(cards) > 13:
            raise IllegalPlayError(f'play {gi} ("{text}") by seat {who}: more than 13 cards')
        if who != seat:
            for s in range(4):
                if r.voids[who] >> s & 1 and (m >> (13 * s)) & SUIT_BITS:
                    raise IllegalPlayError(f'play {gi} ("{text}") by seat {who}: it has shown a void in '
                                           f'{"CDHS"[s]} before')
        out: list[_Reading] = []
        if r.t_pos == 0:
            suits = {c // 13 for c in cards}
            if len(suits) != 1 or not 1 <= len(cards) <= 3:
                raise IllegalPlayError(f'lead {gi} ("{text}") by seat {who}: a lead is 1-3 cards of one suit')
            if mark is not None:
                raise IllegalPlayError(f'lead {gi} ("{text} {mark}") by seat {who}: "{mark}" says how a follow '
                                       f'was meant, a lead is neither a trump nor a discard')
            if who == seat and m not in lead_options(r.hands[seat]):
                raise IllegalPlayError(f'illegal lead "{text}" by seat {who} (play {gi}): '
                                       + _why_not_yours(m, r.hands[seat], "lead"))
            r2 = r.copy()
            r2.t_lead, r2.t_n, r2.t_led = m, len(cards), cards[0] // 13
            r2.t_best, r2.t_key, r2.t_trump, r2.t_pos = who, int(key[(m >> (13 * r2.t_led)) & SUIT_BITS]), 0, 1
            out.append(r2)
        else:
            if len(cards) != r.t_n:
                raise IllegalPlayError(f'follow {gi} ("{text}") by seat {who}: {len(cards)} cards, the lead was '
                                       f'{r.t_n}')
            led_mask = SUIT_BITS << (13 * r.t_led)
            led_played = (m & led_mask).bit_count()
            if who == seat:
                if m not in follow_options(r.hands[seat], r.t_led, r.t_n, trump, cfg):
                    raise IllegalPlayError(f'illegal follow "{text}" by seat {who} (play {gi}): '
                                           + _why_not_yours(m, r.hands[seat], "follow", r.t_lead, trump, cfg))
                kinds = [play_kind(m, r.hands[seat], r.t_led, trump)]
            elif m & ~led_mask == 0:
                kinds = [0]
            elif led_played == 0 and trump_mask and trump != r.t_led and m & ~trump_mask == 0:
                # all trumps, none of the suit led: a trump if void (always, but for a free discard
                # of a seat still holding the suit: short_follow='free', a lead of 2-3 cards)
                known = not cfg.short_free or r.t_n == 1 or r.voids[who] >> r.t_led & 1
                kinds = [1] if known else [1, 2]
            else:
                kinds = [2]
            if mark is not None:
                want = MARKS[mark]
                if want not in kinds:
                    why = _KIND_TEXT[kinds[0]]
                    if kinds == [1] and who != seat:
                        why += f" (seat {who} is known to be void in {'CDHS'[r.t_led]})"
                    raise IllegalPlayError(f'follow {gi} ("{text} {mark}") by seat {who}: it can only be {why}')
                kinds = [want]
            for kind in kinds:
                r2 = r.copy()
                if len(kinds) > 1:
                    r2.choices[gi] = (kind, who)
                if kind == 0 and not r2.t_trump:
                    k = int(key[(m >> (13 * r2.t_led)) & SUIT_BITS])
                    if k > r2.t_key:
                        r2.t_best, r2.t_key = who, k
                elif kind == 1:
                    k = int(key[(m >> (13 * trump)) & SUIT_BITS])
                    if not r2.t_trump or k > r2.t_key:
                        r2.t_best, r2.t_key, r2.t_trump = who, k, 1
                if cfg.short_free:
                    if (r2.t_n == 1 and led_played == 0) or kind == 1:
                        r2.voids[who] |= 1 << r2.t_led
                elif led_played < r2.t_n:
                    r2.voids[who] |= 1 << r2.t_led
                r2.t_pos += 1
                out.append(r2)
        for r2 in out:
            r2.hands[who] &= ~m
            r2.gone[who] |= m
            if r2.t_pos == 4:
                r2.tricks[r2.t_best] += r2.t_n
                r2.leader, r2.t_pos = r2.t_best, 0
        return out

    for gi, g in enumerate(groups, 1):
        words = g.split()
        mark = words[-1].lower() if words and words[-1].lower() in MARKS else None
        body = " ".join(words[:-1]) if mark is not None else g
        try:
            cards = parse_cards(body)
        except KaptaiError as exc:
            raise type(exc)(f"play {gi} ({quote_token(g.strip())}): {exc}") from None
        m = _mask(cards)
        text = format_cards(sorted(cards))
        text = text if len(text) <= 40 else text[:38] + "…"
        texts[gi] = text
        if m & played:
            c = (m & played & -(m & played)).bit_length() - 1
            raise InvalidHandError(f'play {gi} ("{text}"): card "{format_cards([c])}" was already played')
        nxt: list[_Reading] = []
        errors: list[tuple[_Reading, KaptaiError]] = []
        for r in readings:
            try:
                nxt += advance(r, gi, text, cards, m, mark)
            except KaptaiError as exc:
                errors.append((r, exc))
        if not nxt:
            raise _dead_end(errors, texts)
        readings = _prune(nxt)
        played |= m
    if readings[0].hands[seat] == 0:
        raise IllegalPlayError("the hand is over: every card has been played")
    errors = []
    ready = []
    for r in readings:
        to_move = r.leader if r.t_pos == 0 else (r.leader + r.t_pos * step) % 4
        if to_move == seat:
            ready.append(r)
        else:
            errors.append((r, IllegalPlayError(f"after {len(groups)} plays it is seat {to_move}'s turn, not "
                                               f"seat {seat}'s")))
    if not ready:
        raise _dead_end(errors, texts)
    if len({r.key() for r in ready}) > 1:
        # readings alike up to the play in progress, which they read differently: who is winning it
        seen: dict[int, set[int]] = {}
        whose: dict[int, int] = {}
        for x in ready:
            for gi, (k, w) in x.choices.items():
                seen.setdefault(gi, set()).add(k)
                whose[gi] = w
        gis = sorted(gi for gi, ks in seen.items() if len(ks) > 1) or sorted(seen)[-1:]
        led = "CDHS"[ready[0].t_led]
        why = (f"(short_follow=free: a player short of the suit led plays any cards but may not trump); the plays "
               f"do not tell which")
        if len(gis) == 1:
            gi, who = gis[0], whose[gis[0]]
            raise KaptaiError(
                f'play {gi} ("{texts[gi]}") by seat {who} is a trump if seat {who} is void in {led}, a free discard '
                f'if it still holds {led} {why}, and the two readings leave a different seat winning this play: '
                f'type it "{texts[gi]} trump" or "{texts[gi]} discard"')
        listing = " and ".join(f'play {gi} ("{texts[gi]}") by seat {whose[gi]}' for gi in gis)
        raise KaptaiError(
            f"{listing}: each is a trump if its seat is void in {led}, a free discard if that seat still holds "
            f"{led} {why}, and the readings leave different seats winning this play: type each with \"trump\" "
            f'or "discard" after its cards, e.g. "{texts[gis[0]]} trump"')
    r = ready[0]
    voids = list(r.voids)
    for x in ready[1:]:
        voids = [v & w for v, w in zip(voids, x.voids)]
    hands = list(r.hands)
    # the other seats' hands: any unseen cards of the right number (used only if no layout can be drawn)
    unseen = [c for c in range(52) if not (played | mine) >> c & 1]
    for q in range(4):
        if q != seat:
            size = 13 - r.gone[q].bit_count()
            hands[q] = _mask(unseen[:size])
            unseen = unseen[size:]
    state = {"hands": hands, "tricks": list(r.tricks), "gone": list(r.gone), "voids": voids, "played": played,
             "trump": trump, "declarer": declarer, "level": level, "leader": r.leader, "t_lead": r.t_lead,
             "t_n": r.t_n, "t_led": r.t_led, "t_pos": r.t_pos, "t_best": r.t_best, "t_key": r.t_key,
             "t_trump": r.t_trump}
    return state, int(r.t_pos == 0)


def advise_play(hand: Any, *, contract: Any, declarer: int = 0, seat: int = 0, plays: Any = None, auction: Any = None,
                dealer: int | None = None, rules: Any = None, samples: int | None = None,
                seed: int = 0, budget_ms: float = DEFAULT_BUDGET_MS) -> pd.DataFrame:
    """Expected final score of every legal play of ``seat`` now, under the scoring in force.

    Parameters
    ----------
    hand : str or ids
        Your 13 dealt cards (the cards you have played are taken out by ``plays``).
    contract : str
        The contract, e.g. ``'3S'``.
    declarer, seat : int
        The declarer's seat and yours (0-3, numbered clockwise: the seat after s in play is s + 1,
        or s - 1 under ``play_direction='counterclockwise'``; the declarer leads the first play).
    plays : str, optional
        The plays so far in order, one seat's cards per item, comma-separated:
        ``"AC, 2C, 5C, 9C, KD QD, ..."`` (the seats follow from the rules: the lead, then play order,
        each play's winner leads the next).  Under ``short_follow='free'`` a follow of trumps and
        no card of the suit led may end in ``trump`` or ``discard`` (``"KH AH discard"``): how it
        was meant, needed only when the plays do not tell and it decides who is winning the play
        in progress (see *Free follows* above).
    auction, dealer : optional
        The whole auction (``"1S PASS PASS PASS"``) and its dealer (default: the one that makes
        ``declarer`` the maker of the last bid): layouts then also agree with it.  It must be
        finished and end in ``contract`` by ``declarer``.
    rules, samples, seed, budget_ms
        The scoring in force; layouts (default: within the time budget), seed, budget.

    Examples
    --------
    >>> df = advise_play("AS KS QS JS TS 9S AH KH 2D 3D 4C 5C 6C", contract="4S", plays="AS, 2S, 3S, 4S", samples=8)
    >>> df.sort_values("rank").phase.iloc[0], int(df.samples.iloc[0])
    ('lead', 8)
    """
    start = time.perf_counter()
    ids = parse_hand(hand, 13)
    seat = _seat("seat", seat)
    declarer = _seat("declarer", declarer)
    seed, samples, budget_ms = _checks(seed, samples, budget_ms)
    cfg = make_config(rules=rules)
    if plays is not None and not isinstance(plays, (str, list, tuple)):
        raise RulesError(f"plays={quote_token(plays)} is not allowed: expected plays such as 'AS, 2S, 3S, 4S'")
    if not isinstance(contract, (str, tuple)):
        raise RulesError(f"contract={quote_token(contract)} is not allowed: expected a bid such as '3S'")
    bid = parse_bid(contract)
    if bid is None:
        raise InvalidBidError("contract PASS: give the contract played, such as '3S'")
    calls: list[tuple[int, int]] = []
    tokens = _tokens(auction)
    if tokens:
        step = cfg.bid_step
        if dealer is None:
            bids = [i for i, t in enumerate(tokens) if parse_bid(t, i + 1) is not None]
            dealer = (declarer - step * bids[-1]) % 4 if bids else declarer
        d = _seat("dealer", dealer)
        calls = _parse_auction(tokens, d, step, bool(cfg.passout_0c))
        done = _outcome(calls, d)
        if done is None:
            raise InvalidBidError(f"contract {format_bid(bid)} with the auction {quote_token(' '.join(map(str, tokens)))}: "
                                  f"the auction is not over (a bid needs three passes after it)")
        code, by = done
        if code != bid_code(bid) or by != declarer:
            raise InvalidBidError(f"contract {format_bid(bid)} by seat {declarer} contradicts the auction "
                                  f"{quote_token(' '.join(map(str, tokens)))} (dealer {d}), which ends in "
                                  f"{format_bid(divmod(code, 5))} by seat {by}")
    elif dealer is not None:
        raise RulesError("dealer is given without an auction: it only places the auction's calls")
    state, leading = _position(ids, format_bid(bid), declarer, seat, plays, cfg)
    me = state["hands"][seat]
    opts = lead_options(me) if leading else follow_options(me, state["t_led"], state["t_n"], state["trump"], cfg)

    def evaluate(bg: np.random.PCG64, n: int) -> np.ndarray:
        return _engine.option_values(cfg, state, seat, opts, n, bg, calls)[None]

    res = _run(evaluate, len(opts), seed, samples, budget_ms, start)
    labels = [format_cards(_cards_of(m)) for m in opts]
    sc = "symmetric" if cfg.rules.short_penalty == "symmetric" else "as_written"
    df = _frame(res, labels, sc, "lead" if leading else "follow")
    df.attrs.update(seat=seat, declarer=declarer, contract=format_bid(bid), seed=seed, unit=UNIT,
                    first_leader=FIRST_LEADERS[cfg.first_leader], tricks=list(state["tricks"]), **res.attrs(),
                    model="layouts consistent with the voids (and the auction, if given); greedy playouts")
    return df


def advise(hand: Any, *, contract: Any = None, **kw: Any) -> pd.DataFrame:
    """:func:`advise_play` when a contract is given or the auction is finished, else :func:`advise_bid`.

    A finished ``auction`` (a bid and three passes) fixes the contract and the declarer (the
    dealer, when not given, is the one that makes you the next caller as if the auction went on);
    ``plays`` and ``declarer`` need a contract (given or from a finished auction).

    >>> advise("AS KS QS JS TS 9S AH KH 2D 3D 4C 5C 6C", samples=4).phase.iloc[0]
    'bid'
    >>> d = advise("AS KS QS JS TS 9S AH KH 2D 3D 4C 5C 6C", auction="1S PASS PASS PASS", samples=4)
    >>> d.phase.iloc[0], d.attrs["contract"], d.attrs["declarer"]
    ('lead', '1S', 0)
    """
    if contract is None:
        tokens = _tokens(kw.get("auction"))
        if tokens:
            seat = _seat("seat", kw.get("seat", 0))
            base = resolve_rules(kw.get("rules"))
            step = base.step(base.bid_direction)
            dealer = kw.get("dealer")
            dealer = _seat("dealer", (seat - step * len(tokens)) % 4 if dealer is None else dealer)
            calls = _parse_auction(tokens, dealer, step, base.passout == "dealer_0C")
            done = _outcome(calls, dealer)
            if done is not None:
                if kw.get("declarer") is not None and kw["declarer"] != done[1]:
                    raise InvalidBidError(f"declarer={quote_token(kw['declarer'])} contradicts the auction "
                                          f"{quote_token(' '.join(map(str, tokens)))} (dealer {dealer}), "
                                          f"whose declarer is seat {done[1]}")
                kw.update(declarer=done[1], dealer=dealer)
                return advise_play(hand, contract=format_bid(divmod(done[0], 5)), **kw)
        for k in ("plays", "declarer"):
            if kw.get(k) is not None and not (k == "plays" and isinstance(kw[k], str) and not kw[k].strip()):
                raise RulesError(f"{k}={quote_token(kw[k])} needs a contract (the bid being played, e.g. "
                                 f"contract='3S', or a finished auction)")
        kw.pop("plays", None)
        kw.pop("declarer", None)
        return advise_bid(hand, **kw)
    if kw.get("declarer") is None:
        kw["declarer"] = 0
    return advise_play(hand, contract=contract, **kw)
