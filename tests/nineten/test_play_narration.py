"""``kaptai play nine-ten`` tells every seat's moves as they happen, and what it tells is the game.

Scripted games are played by :func:`kaptai.nineten.play.play_command` (the person discards the
first legal card at each prompt), written to a record, and every narrated line is read back
(seat, card, what became of the card) and checked against the record's events of the same game,
in order: no event is left untold and no line tells anything the record does not hold.  The
person's pair count after a claim is checked against the engine's own view at the next prompt,
and the bonus flip's tou against the engine's settlement.
"""

from __future__ import annotations

import io
import re
import types

import pytest

from kaptai.core.play import Console
from kaptai.games import game as lookup
from kaptai.nineten import engine_reference as ref
from kaptai.nineten import play as P
from kaptai.nineten.cards import parse_card
from kaptai.records import read_record

TOLD = {"deal", "natural", "discard", "flip", "claim", "dead", "waste", "bonus"}


class FirstLegal(Console):
    """A scripted person: the first legal discard at every prompt (the prompt and the answer are
    printed as a person would see them)."""

    def ask(self, prompt, parse, legal, hint=None):
        self.decisions += 1
        self.say(f"{prompt}> {legal[0]}")
        return parse(legal[0])


def _play(tmp_path, monkeypatch=None, *, seat=0, players=4, seed=0, hands=3, option=None, opponents="colour_cut",
          ascii=True):
    """A scripted session (``monkeypatch``: the command makes its console as at the terminal, the
    scripted one swapped in for it; else it is passed as ``console=``)."""
    con = FirstLegal(ascii=ascii, out=io.StringIO())
    rec = str(tmp_path / f"g{seat}{players}{seed}{ascii}.jsonl")
    args = types.SimpleNamespace(rules=None, option=option, players=players, seat=seat, ascii=ascii, hints=False,
                                 opponents=opponents, hands=hands, seed=seed, record=rec)
    if monkeypatch is not None:
        monkeypatch.setattr(P, "Console", lambda **kw: con)
        df = P.play_command(args, lookup("nine-ten")).table
    else:
        df = P.play_command(args, lookup("nine-ten"), console=con).table
    return con.out.getvalue().splitlines(), read_record(rec), df


# --------------------------------------------------------------------------------------
# reading the narration back
# --------------------------------------------------------------------------------------
SEAT = r"(you|seat \d+)"
CARD = r"([RYGW][KAERHCP])"
R_DEAL = re.compile(r"^== hand (\d+): (?:you deal|seat (\d+) deals)$")
R_CARDS = re.compile(r"^your cards: (.*)$")
R_DISCARD = re.compile(rf"^{SEAT} discards? (?:(?:its|your) dead card )?{CARD}(.*)$")
R_FLIP = re.compile(rf"^{SEAT} flips? {CARD} from the stock \((\d+) left\)(.*)$")
R_WASTE = re.compile(r"^: nobody claims it, out of play$")
R_CLAIM = re.compile(rf"^(?:: {SEAT} claims?| and (claims?)) it(.*)$")
R_WIN = re.compile(rf"^, (its|your) fifth pair: {SEAT} wins?$")
R_PAIR = re.compile(r"^ \(a pair(?:: you now hold (\d) of the 5 pairs(?:; your fourth " + CARD
                    + r" is kaizhao(?: \(開招\))?)?)?\)$")
R_DEAD = re.compile(rf"^{SEAT} must lay (its|your) {CARD} face up as a dead card(?: \({SEAT} also held an unpaired "
                    rf"{CARD}; a dead card is discarded before any other card\))?$")
R_BONUS = re.compile(rf"^bonus flip for {SEAT}: ((?:{CARD} ?){{5}}), \+(\d+) tou \(\+1 for each of the first four "
                     r"that matches one of (?:its|your) pairs, \+2 if the fifth does\)$")
R_NATURAL = re.compile(rf"^{SEAT} (?:were|\(the dealer\) was) dealt five pairs: a natural, {SEAT} wins?$")
#: lines that are not narration: the opening, the prompt's position, the answer, each hand's end
OTHER = ("nine-ten, ", "-- nine-ten, seat ", "face up: ", "out of play: ", "your hand: ", "discard> ",
         "== hand ", "   ", "record of ", "totals after ")


def _seat(word, me):
    return me if word == "you" else int(word.split()[1])


def _told(lines, me):
    """The events the narration tells, in the record's form (type, seat, card, extra), with the
    facts it adds: ``wins`` (the winner named at a claim), ``pairs`` (the person's pair count
    told at each of their claims, with the line's index), ``bonus_tou``."""
    evs, facts = [], {"wins": [], "pairs": [], "bonus_tou": [], "cards": []}
    for i, line in enumerate(lines):
        if not line.strip():
            continue
        if m := R_DEAL.match(line):
            evs.append(("deal", me if m.group(2) is None else int(m.group(2)), int(m.group(1)), None))
            continue
        if m := R_CARDS.match(line):
            facts["cards"].append(sorted(m.group(1).split()))
            continue
        if line.startswith(OTHER):
            continue
        if m := R_NATURAL.match(line):
            s = _seat(m.group(1), me)
            assert _seat(m.group(2), me) == s, line
            evs.append(("natural", s, "", None))
            facts["wins"].append(s)
            continue
        if m := R_DEAD.match(line):
            s = _seat(m.group(1), me)
            assert (m.group(2) == "your") == (s == me), line
            assert m.group(4) is None or (_seat(m.group(4), me) == s and m.group(5) == m.group(3)), line
            evs.append(("dead", s, m.group(3), None))
            continue
        if m := R_BONUS.match(line):
            s = _seat(m.group(1), me)
            evs += [("bonus", s, c, None) for c in m.group(2).split()]
            facts["bonus_tou"].append(int(m.group(4)))
            continue
        m = R_DISCARD.match(line)
        if m:
            s, card, rest = _seat(m.group(1), me), m.group(2), m.group(3)
            evs.append(("discard", s, card, "dead card" in line.split(":")[0]))
        else:
            m = R_FLIP.match(line)
            assert m, f"a line that tells nothing the checker knows: {line!r}"
            s, card, rest = _seat(m.group(1), me), m.group(2), m.group(4)
            evs.append(("flip", s, card, int(m.group(3))))
        if R_WASTE.match(rest):
            evs.append(("waste", s, card, None))
            continue
        c = R_CLAIM.match(rest)
        assert c, f"the offer's end is not told: {line!r}"
        claimer = s if c.group(2) else _seat(c.group(1), me)
        if c.group(2):  # "... and claims it": the flipper's own card
            assert evs[-1][0] == "flip" and c.group(2) == ("claim" if s == me else "claims"), line
        evs.append(("claim", claimer, card, None))
        tail = c.group(3)
        if w := R_WIN.match(tail):
            assert _seat(w.group(2), me) == claimer and (w.group(1) == "your") == (claimer == me), line
            facts["wins"].append(claimer)
        else:
            p = R_PAIR.match(tail)
            assert p, f"a claim's detail not understood: {line!r}"
            assert (p.group(1) is not None) == (claimer == me), line  # the pair count is the person's only
            if claimer == me:
                facts["pairs"].append((i, int(p.group(1))))
    return evs, facts


def _recorded(record):
    """The record's events the narration must tell, in the same form, hand by hand."""
    evs = []
    for hand in record.hands:
        hevs = list(hand.events)
        for j, e in enumerate(hevs):
            t = e["type"]
            if t not in TOLD:
                continue
            if t == "deal":
                if j + 1 < len(hevs) and hevs[j + 1]["type"] == "redeal":
                    continue  # a redealt natural: the hand is told from the deal played
                evs.append(("deal", e["dealer"], e["hand"], None))
            elif t == "natural":
                evs.append(("natural", e["seat"], "", None))
            else:
                extra = e.get("forced") if t == "discard" else e.get("stock_left") if t == "flip" else None
                evs.append((t, e["seat"], e["cards"], extra))
    return evs


def _check(lines, record, me, prompts=True):
    told, facts = _told(lines, me)
    want = _recorded(record)
    assert told == want, next(((i, a, b) for i, (a, b) in enumerate(zip(told, want)) if a != b),
                              (len(told), len(want)))
    # the person's dealt cards, each hand
    played = [e for h in record.hands for j, e in enumerate(h.events)
              if e["type"] == "deal" and not (j + 1 < len(h.events) and h.events[j + 1]["type"] == "redeal")]
    assert facts["cards"] == [sorted(d["hands"][me].split()) for d in played]
    # the winner named at the last claim (or the natural) of each won hand
    winners = [h.events[-1]["winner"] for h in record.hands if h.events[-1]["winner"] >= 0]
    assert facts["wins"] == winners
    for h in record.hands:
        st = h.events[-1]
        if st["winner"] >= 0 and st["win_type"] != "natural":
            last = [e for e in h.events if e["type"] == "claim"][-1]
            assert last["seat"] == st["winner"] and last["cards"] == st["cards"]
    # the pair count told at each of the person's claims is the engine's, as its next prompt shows it
    for i, n in facts["pairs"] if prompts else ():
        nxt = next(x for x in lines[i + 1:] if x.startswith("your hand: "))
        cards = nxt.removeprefix("your hand: ").split("  (")[0].split()
        assert sum(cards.count(c) // 2 for c in set(cards)) == n, (lines[i], nxt)
    return told, facts


@pytest.mark.parametrize("seat, players, seed, option", [
    (0, 4, 3, None),
    (1, 4, 3, None),
    (2, 4, 11, [("flip_priority", "next_player_first")]),
    (3, 5, 5, [("dead_card_order", "policy"), ("next_dealer", "winner")]),
    (1, 6, 7, [("dead_cards_claimable", False), ("natural", "redeal")]),
])
def test_every_narrated_line_is_the_record(tmp_path, monkeypatch, seat, players, seed, option):
    settled = []
    base = ref._settle

    def spy(cfg, codes, h, winner, win, source, kzwait, L):
        out = base(cfg, codes, h, winner, win, source, kzwait, L)
        settled.append((out[3], out[5]))  # bonus tou, whether there was a bonus flip
        return out

    monkeypatch.setattr(ref, "_settle", spy)  # narrate() wraps what it finds: the spy sees the real hands
    lines, record, df = _play(tmp_path, monkeypatch, seat=seat, players=players, seed=seed, hands=4, option=option)
    told, facts = _check(lines, record, seat)
    kinds = {e[0] for e in told}
    assert {"deal", "discard", "flip", "claim", "waste"} <= kinds, kinds
    assert facts["bonus_tou"] == [b for b, flipped in settled if flipped]
    assert len(df) == len(record.hands) == 4
    # other seats' moves are told, naming the seat; the person's as "you"
    assert any(e[1] != seat and e[0] == "discard" for e in told)
    assert not any(line.startswith(f"seat {seat} ") for line in lines)
    # told as they happen: each hand's moves come before its end, the person's prompt after the moves before it
    text = "\n".join(lines)
    for h in range(4):
        assert text.index(f"== hand {h}: ") < text.index(f"== hand {h} over")


def test_narration_of_many_recorded_hands(tmp_path):
    """The same words over whole recorded hands of built-in players (every seat the person's):
    each line reads back as the record's events (naturals, dead cards, bonus flips included)."""
    from kaptai.records import record_hands

    path = tmp_path / "many.jsonl"
    record_hands("nine-ten", path, players=4, hands=60, seed=9, policies="colour_cut")
    record = read_record(path)
    for me in range(4):
        n = P.Narration(me, ascii=True)
        lines = []
        for h in record.hands:
            for e in h.events:
                lines += n(e)
            lines += n.flush()
        told, facts = _check(lines, record, me, prompts=False)
        assert facts["pairs"] or me != 0


def test_natural_and_chinese_names():
    n = P.Narration(2, ascii=False)
    deal = {"type": "deal", "hand": 4, "dealer": 2, "hands": ["RK", "RA", "RK RK RA RA YA YA GC GC WE WE"]}
    lines = n(deal) + n({"type": "natural", "seat": 2})
    assert lines[1] == "== hand 4: you deal" and lines[2].startswith("your cards: 紅帥(RK) 紅帥(RK) 紅仕(RA)")
    assert lines[3] == "you were dealt five pairs: a natural, you win"
    n = P.Narration(0, ascii=False)
    n({**deal, "dealer": 1, "hands": ["RK", "RA RA", "WE"]})
    n({"type": "discard", "seat": 1, "cards": "RK", "forced": False})
    assert n({"type": "claim", "seat": 0, "cards": "RK"}) == [
        "seat 1 discards 紅帥(RK): you claim it (a pair: you now hold 1 of the 5 pairs)"]


def test_ascii_through_the_console(tmp_path):
    """Without --ascii the cards are named (紅帥(RK)); with it, the codes alone, as the prompt shows them."""
    lines, record, _ = _play(tmp_path, seat=0, seed=3, hands=1, ascii=False)
    flips = [x for x in lines if " from the stock (" in x]
    assert flips and all(re.search(r"flips? [^\x00-\x7f]+\([RYGW][KAERHCP]\) from", x) for x in flips), flips[:3]
    ascii_lines, _, _ = _play(tmp_path, seat=0, seed=3, hands=1, ascii=True)
    assert all(x.isascii() for x in ascii_lines)
    assert len(ascii_lines) == len(lines)
