"""The Heaven Eleven (天牌十一) advisor: the expected score of every call, or of every legal play.

Both answers are the ``search`` policies' own estimates (``docs/heaven-eleven-engine.md``), with
every option kept (no pruning) and a 95% interval: the mean of the seat's final over ``samples``
layouts of the unseen cards, ± 1.96 standard errors (normal interval over the layouts; the same
layouts for every option, so differences between options are sharper than the intervals say).

Model
-----
*Layouts.*  The unseen cards are dealt to the other seats at random, consistent with every void
they have shown, and with the auction typed (if any) under the assumption that the other seats bid
by the ``expected`` table bidder (the model of the ``search`` bidder; a layout that no attempt makes
consistent falls back to the voids alone, as in the engine).
*Playouts.*  Each option is followed by the rest of the hand played by ``greedy`` at every seat.
*Bids.*  After each call the other seats go on bidding by the ``expected`` table and the seat passes
at its later turns; the contract that comes out is played out and scored.  A passed-out deal is
worth 0 (it is redealt), under ``passout='dealer_0C'`` the dealer plays 0♣.
*Seats.*  Seats 0-3 are numbered in play order (clockwise by default); calls go in bidding order
(counterclockwise by default) from the dealer.

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

import math
from typing import Any

import numpy as np
import pandas as pd

from kaptai.errors import InvalidHandError, KaptaiError, RulesError
from kaptai.heaven11 import _engine
from kaptai.heaven11.cards import (
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

__all__ = ["ADVICE_COLUMNS", "BID_ADVICE_SAMPLES", "PLAY_ADVICE_SAMPLES", "advise", "advise_bid", "advise_play"]

#: Layouts per answer by default.
PLAY_ADVICE_SAMPLES: int = 48
BID_ADVICE_SAMPLES: int = 200
#: Columns of the answers.
ADVICE_COLUMNS: list[str] = ["rank", "option", "value", "ci_low", "ci_high", "sd", "samples", "scoring", "phase"]
_Z = 1.959963984540054
SUIT_BITS = 0x1FFF


def _mask(ids) -> int:
    m = 0
    for c in ids:
        m |= 1 << c
    return m


def _seat(name: str, value: Any) -> int:
    if isinstance(value, bool) or not isinstance(value, (int, np.integer)) or not 0 <= value < 4:
        raise RulesError(f"{name}={value!r} is not allowed: expected a seat 0-3")
    return int(value)


def _samples(samples: Any) -> int:
    if isinstance(samples, bool) or not isinstance(samples, (int, np.integer)) or not 1 <= samples <= 4096:
        raise RulesError(f"samples={samples!r} is not allowed: expected an integer 1-4096")
    return int(samples)


def _parse_auction(auction: Any, dealer: int, bid_step: int) -> list[tuple[int, int]]:
    """[(seat, code or -1)] from 'PASS 1S PASS ...' (the dealer calls first); each bid must beat the standing one."""
    if auction is None:
        return []
    tokens = auction.replace(",", " ").split() if isinstance(auction, str) else list(auction)
    calls, current, passes, caller = [], -1, 0, dealer
    for i, tok in enumerate(tokens, 1):
        if current >= 0 and passes == 3:
            raise InvalidBidError(f'call "{tok}" (token {i}): the auction is over (three passes after a bid)')
        b = parse_bid(tok, i)
        if b is None:
            c = -1
            passes += 1 if current >= 0 else 0
        else:
            c = bid_code(b)
            if c <= current:
                raise InvalidBidError(f'invalid bid "{tok}" (token {i}): it does not beat {format_bid(divmod(current, 5))}')
            current, passes = c, 0
        calls.append((caller, c))
        caller = (caller + bid_step) % 4
    if current < 0 and len(calls) >= 4:
        raise InvalidBidError(f"the first four calls are passes: the deal is passed out (token {len(calls)})")
    return calls


def _rows(labels: list[str], values: np.ndarray, scoring: str, phase: str) -> pd.DataFrame:
    v = values.astype(np.float64)
    n = v.shape[1]
    mean = v.mean(axis=1)
    sd = v.std(axis=1, ddof=1) if n > 1 else np.zeros(len(labels))
    half = _Z * sd / math.sqrt(n)
    df = pd.DataFrame({"option": labels, "value": mean, "ci_low": mean - half, "ci_high": mean + half, "sd": sd,
                       "samples": n, "scoring": scoring, "phase": phase})
    df.insert(0, "rank", df["value"].rank(ascending=False, method="first").astype(int))
    return df


def advise_bid(hand: Any, *, seat: int = 0, dealer: int | None = None, auction: Any = None, rules: Any = None,
               samples: int = BID_ADVICE_SAMPLES, seed: int = 0) -> pd.DataFrame:
    """Expected final score of every call open to ``seat`` (pass and each higher bid up to 9NT), under the
    rules as written (``scoring='as_written'``) and under ``short_penalty='symmetric'``.

    Parameters
    ----------
    hand : str or ids
        The seat's 13 dealt cards.
    seat : int
        Your seat (0-3, play order).
    dealer : int, optional
        The dealer; default: the seat that makes you the next caller after ``auction``.
    auction : str, optional
        The calls so far, the dealer's first: ``"PASS 1S PASS"``.
    rules : RuleSet, preset name or mapping, optional
        Everything but ``short_penalty`` (both are answered).
    samples, seed : int
        Layouts, and the seed of their stream (the same layouts for both scorings).

    Examples
    --------
    >>> df = advise_bid("2C 3C 4C 5D 6D 7D 8H 9H TH 2S 3S 4S 5S", samples=20)
    >>> df[(df.scoring == "symmetric") & (df["rank"] == 1)].option.tolist()
    ['PASS']
    """
    ids = parse_hand(hand, 13)
    seat = _seat("seat", seat)
    samples = _samples(samples)
    base = resolve_rules(rules)
    step = base.step(base.bid_direction)
    tokens = auction.replace(",", " ").split() if isinstance(auction, str) else list(auction or [])
    if dealer is None:
        dealer = (seat - step * len(tokens)) % 4
    dealer = _seat("dealer", dealer)
    calls = _parse_auction(tokens, dealer, step)
    nxt = (dealer + step * len(calls)) % 4
    if nxt != seat:
        raise InvalidBidError(f"after {len(calls)} calls from dealer {dealer} it is seat {nxt}'s call, not seat {seat}'s")
    current = max([c for _, c in calls], default=-1)
    frames = []
    for label, sp in (("as_written", "none"), ("symmetric", "symmetric")):
        cfg = make_config(rules=resolve_rules(base, short_penalty=sp))
        cand, values = _engine.call_values(cfg, seat, _mask(ids), dealer, calls, samples, np.random.PCG64(seed))
        labels = [format_bid(None if c < 0 else divmod(c, 5)) for c in cand]
        frames.append(_rows(labels, values, label, "bid"))
    df = pd.concat(frames, ignore_index=True)
    df.attrs.update(seat=seat, dealer=dealer, auction=" ".join(tokens), standing=current, samples=samples, seed=seed,
                    model="others bid by the 'expected' table, you pass after this call; greedy playouts")
    return df


def _position(ids: tuple[int, ...], contract: Any, declarer: int, seat: int, plays: Any, cfg) -> tuple[dict, int]:
    """The public state after ``plays`` (validated), and whether the seat leads (1) or follows (0)."""
    bid = parse_bid(contract)
    if bid is None:
        raise InvalidBidError("contract PASS: give the contract played, such as '3S'")
    level, trump = bid
    if isinstance(plays, str):
        groups = [g for g in plays.replace(";", ",").replace("|", ",").split(",")]
        groups = [g for g in groups if g.strip()] if plays.strip() else []
    else:
        groups = list(plays or [])
    step = cfg.play_step
    key = cfg.key
    mine = _mask(ids)
    hands = [0, 0, 0, 0]
    hands[seat] = mine
    tricks, gone, voids, played = [0, 0, 0, 0], [0, 0, 0, 0], [0, 0, 0, 0], 0
    leader = declarer if cfg.first_leader == 0 else (declarer + step) % 4
    t_pos, t_lead, t_n, t_led, t_best, t_key, t_trump = 0, 0, 0, 0, leader, 0, 0
    for gi, g in enumerate(groups, 1):
        try:
            cards = parse_cards(g)
        except KaptaiError as exc:
            raise type(exc)(f"play {gi} ({g.strip()!r}): {exc}") from None
        m = _mask(cards)
        text = format_cards(sorted(cards))
        who = leader if t_pos == 0 else (leader + t_pos * step) % 4
        if m & played:
            c = (m & played & -(m & played)).bit_length() - 1
            raise InvalidHandError(f'play {gi} ("{text}"): card "{format_cards([c])}" was already played')
        if who != seat and m & mine:
            c = (m & mine & -(m & mine)).bit_length() - 1
            raise InvalidHandError(f'play {gi} ("{text}") by seat {who}: card "{format_cards([c])}" is in your hand')
        if gone[who].bit_count() + len(cards) > 13:
            raise IllegalPlayError(f'play {gi} ("{text}") by seat {who}: more than 13 cards')
        if who != seat:
            for s in range(4):
                if voids[who] >> s & 1 and (m >> (13 * s)) & SUIT_BITS:
                    raise IllegalPlayError(f'play {gi} ("{text}") by seat {who}: it has shown a void in '
                                           f'{"CDHS"[s]} before')
        if t_pos == 0:
            suits = {c // 13 for c in cards}
            if len(suits) != 1 or not 1 <= len(cards) <= 3:
                raise IllegalPlayError(f'lead {gi} ("{text}") by seat {who}: a lead is 1-3 cards of one suit')
            if who == seat and m not in lead_options(hands[seat]):
                raise IllegalPlayError(f'illegal lead "{text}" by seat {who} (play {gi})')
            t_lead, t_n, t_led = m, len(cards), cards[0] // 13
            t_best, t_key, t_trump, t_pos = who, int(key[(m >> (13 * t_led)) & SUIT_BITS]), 0, 1
        else:
            if len(cards) != t_n:
                raise IllegalPlayError(f'follow {gi} ("{text}") by seat {who}: {len(cards)} cards, the lead was {t_n}')
            led_mask = SUIT_BITS << (13 * t_led)
            if who == seat:
                if m not in follow_options(hands[seat], t_led, t_n, trump, cfg):
                    raise IllegalPlayError(f'illegal follow "{text}" by seat {who} (play {gi})')
                kind = play_kind(m, hands[seat], t_led, trump)
            else:
                # public reading: no card of the led suit and all trumps = a trump combination (void)
                kind = play_kind(m, 0 if m & led_mask == 0 else led_mask, t_led, trump)
            if kind == 0 and not t_trump:
                k = int(key[(m >> (13 * t_led)) & SUIT_BITS])
                if k > t_key:
                    t_best, t_key = who, k
            elif kind == 1:
                k = int(key[(m >> (13 * trump)) & SUIT_BITS])
                if not t_trump or k > t_key:
                    t_best, t_key, t_trump = who, k, 1
            led_played = (m & led_mask).bit_count()
            if cfg.short_free:
                if (t_n == 1 and led_played == 0) or kind == 1:
                    voids[who] |= 1 << t_led
            elif led_played < t_n:
                voids[who] |= 1 << t_led
            t_pos += 1
        hands[who] &= ~m
        gone[who] |= m
        played |= m
        if t_pos == 4:
            tricks[t_best] += t_n
            leader, t_pos = t_best, 0
    if hands[seat] == 0:
        raise IllegalPlayError("the hand is over: every card has been played")
    to_move = leader if t_pos == 0 else (leader + t_pos * step) % 4
    if to_move != seat:
        raise IllegalPlayError(f"after {len(groups)} plays it is seat {to_move}'s turn, not seat {seat}'s")
    # the other seats' hands: any unseen cards of the right number (used only if no layout can be drawn)
    unseen = [c for c in range(52) if not (played | mine) >> c & 1]
    for q in range(4):
        if q != seat:
            size = 13 - gone[q].bit_count()
            hands[q] = _mask(unseen[:size])
            unseen = unseen[size:]
    state = {"hands": hands, "tricks": tricks, "gone": gone, "voids": voids, "played": played, "trump": trump,
             "declarer": declarer, "level": level, "leader": leader, "t_lead": t_lead, "t_n": t_n, "t_led": t_led,
             "t_pos": t_pos, "t_best": t_best, "t_key": t_key, "t_trump": t_trump}
    return state, int(t_pos == 0)


def advise_play(hand: Any, *, contract: Any, declarer: int = 0, seat: int = 0, plays: Any = None, auction: Any = None,
                dealer: int | None = None, rules: Any = None, samples: int = PLAY_ADVICE_SAMPLES,
                seed: int = 0) -> pd.DataFrame:
    """Expected final score of every legal play of ``seat`` now, under the scoring in force.

    Parameters
    ----------
    hand : str or ids
        Your 13 dealt cards (the cards you have played are taken out by ``plays``).
    contract : str
        The contract, e.g. ``'3S'``.
    declarer, seat : int
        The declarer's seat and yours (0-3, play order; the declarer leads the first play).
    plays : str, optional
        The plays so far in order, one seat's cards per item, comma-separated:
        ``"AC, 2C, 5C, 9C, KD QD, ..."`` (the seats follow from the rules: the lead, then play order,
        each play's winner leads the next).
    auction, dealer : optional
        The whole auction (``"1S PASS PASS PASS"``) and its dealer: layouts then also agree with it.
    rules, samples, seed
        The scoring in force, layouts, seed.

    Examples
    --------
    >>> df = advise_play("AS KS QS JS TS 9S AH KH 2D 3D 4C 5C 6C", contract="4S", plays="AS, 2S, 3S, 4S", samples=8)
    >>> df.sort_values("rank").phase.iloc[0], int(df.samples.iloc[0])
    ('lead', 8)
    """
    ids = parse_hand(hand, 13)
    seat = _seat("seat", seat)
    declarer = _seat("declarer", declarer)
    samples = _samples(samples)
    cfg = make_config(rules=rules)
    state, leading = _position(ids, contract, declarer, seat, plays, cfg)
    calls: list[tuple[int, int]] = []
    if auction:
        d = _seat("dealer", dealer if dealer is not None else declarer)
        calls = _parse_auction(auction, d, cfg.bid_step)
    me = state["hands"][seat]
    opts = lead_options(me) if leading else follow_options(me, state["t_led"], state["t_n"], state["trump"], cfg)
    values = _engine.option_values(cfg, state, seat, opts, samples, np.random.PCG64(seed), calls)
    labels = [format_cards([c for c in range(52) if m >> c & 1]) for m in opts]
    sc = "symmetric" if cfg.rules.short_penalty == "symmetric" else "as_written"
    df = _rows(labels, values, sc, "lead" if leading else "follow")
    df.attrs.update(seat=seat, declarer=declarer, contract=format_bid(parse_bid(contract)), samples=samples, seed=seed,
                    first_leader=FIRST_LEADERS[cfg.first_leader], tricks=list(state["tricks"]),
                    model="layouts consistent with the voids (and the auction, if given); greedy playouts")
    return df


def advise(hand: Any, *, contract: Any = None, **kw: Any) -> pd.DataFrame:
    """:func:`advise_play` when a contract is given, else :func:`advise_bid`.

    >>> advise("AS KS QS JS TS 9S AH KH 2D 3D 4C 5C 6C", samples=4).phase.iloc[0]
    'bid'
    """
    if contract is None:
        for k in ("plays", "declarer"):
            if kw.get(k):
                raise RulesError(f"{k} needs a contract (the bid being played, e.g. contract='3S')")
        kw.pop("plays", None)
        kw.pop("declarer", None)
        return advise_bid(hand, **kw)
    return advise_play(hand, contract=contract, **kw)
