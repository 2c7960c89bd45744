"""``kaptai play big-two`` tells a person enough: how each hand's score came about (cards left,
炒, points, 包牌, the settlement in force; from the scoring code, adding up to the settled
result), every play to the end of the hand, each hand's number and why its leader leads, a
warning before a pass that risks 包牌, and refusals that never suggest what the rules refuse."""

from __future__ import annotations

import io
import os
import re
import sys

import pytest

from kaptai.bigtwo import play as P
from kaptai.bigtwo.cards import parse_cards
from kaptai.bigtwo.config import make_config
from kaptai.bigtwo.engine_reference import make_view
from kaptai.bigtwo.records import hand_events as record_events
from kaptai.core.play import Console, FinishedHands, run_session, seat_policies
from kaptai.games import game as lookup
from tests.bigtwo.test_play_fixes import _malaysian


def _console(lines, ascii=True):
    return Console(ascii=ascii, lines=lines, out=io.StringIO())


class _Auto(Console):
    """Answers every prompt itself: ``pass`` where it may (so the others play on), else the first
    legal move; ``no`` to a Malaysian swap."""

    def __init__(self, ascii=True):
        super().__init__(ascii=ascii, out=io.StringIO())

    def _read(self, prompt):
        if prompt.startswith("swap"):
            line = "no"
        else:
            self.say(prompt + "?")  # the legal moves, as a person would ask
            legal = [x for x in self.out.getvalue().splitlines() if x.startswith("legal: ")]
            legal_now = legal[-1][len("legal: "):].split(", ") if legal else []
            line = "pass" if "pass" in legal_now else legal_now[0]
        self.say(prompt + line)
        return line

    def ask(self, prompt, parse, legal, hint=None):
        self.say("legal: " + ", ".join(legal))
        return super().ask(prompt, parse, legal, hint)


def _session(rules, hands, seed, seat=0, players=4, ascii=True, opp="greedy"):
    """Play ``hands`` hands with the person at ``seat`` answered by :class:`_Auto`: the screen's
    text and the record's hands."""
    r = lookup("big-two").resolve_rules(None, players=players, **rules)
    con = _Auto(ascii=ascii)
    pols = seat_policies(P.HumanPolicy(con, hint_samples=4), [opp] * (players - 1), seat)
    cfg, header = P.table_header(players, r, pols, seed, hands)
    kept = FinishedHands()  # as ``kaptai play`` runs it: each hand's result told as it ends
    run_session(con, header, P.hand_events(cfg, pols, seed, hands, on_hand=kept), seat=seat, finished=kept,
                describe=lambda evs, s: P.describe_hand(evs, s, cfg.rules, ascii=con.ascii))
    return con.out.getvalue(), kept.hands, cfg.rules


# --------------------------------------------------------------------------------------
# 1. the result's breakdown
# --------------------------------------------------------------------------------------

_SEAT = r"(?:you \(seat (\d+)\)|seat (\d+))"
_LINE = re.compile(rf"^     {_SEAT}(?: won)?: (.*?) = (-?\d+) -> (.*) = ([+-]?[\d.]+(?:e[+-]?\d+)?)(?:   \(held (.*)\))?$")
_BAO = re.compile(rf"^   penalty \(包牌\): .*?they pay nothing: {_SEAT} ([+-][\d.]+)((?: - [\d.]+ \({_SEAT}\))*) = "
                  r"([+-][\d.]+)(?:; (.*))?$")


def _seat(m, i=1):
    return int(m.group(i) if m.group(i) is not None else m.group(i + 1))


def _shown_nets(text, rules, st):
    """Each seat's result as the breakdown's lines add it up (checking their arithmetic)."""
    N, x = rules.players, "x"
    lines = text.split("\n")
    seat_lines = [m for m in map(_LINE.match, lines) if m]
    assert len(seat_lines) == N, text
    p = {}
    nets = {}
    for m in seat_lines:
        s, head, pen, tail, net = _seat(m), m.group(3), int(m.group(4)), m.group(5), float(m.group(6))
        p[s] = pen
        c = int(st["cards_left"][s])
        if s != st["winner"]:
            assert head.startswith(f"{c} card"), (head, c)
            mult = re.search(rf" {x}(\d+)(?: \(|$)", head)
            if rules.scoring == "count" or "instant" in head:
                assert c * int(mult.group(1)) == pen, head
            else:
                pts = int(re.search(r"worth (\d+) points", head).group(1))
                assert pts * (int(mult.group(1)) if mult else 1) == pen, head
            held = m.group(7)
            if held is not None:
                assert len(parse_cards(held)) == c
        nets[s] = (s, tail, net)
    S = sum(p.values())
    out = {}
    stake = float(rules.stake)
    for s, tail, net in nets.values():
        if rules.settlement == "place":
            assert f"{S} - {N}{x}" in tail
            assert net == pytest.approx((S - N * p[s]) * stake), tail
            out[s] = net
        elif s == st["winner"]:
            assert tail.startswith("receives ")
            assert net == pytest.approx(sum(float(v) for v in tail[len("receives "):].split(" + ")))
            out[s] = net
        else:
            assert tail.startswith("pays ")
            assert net == pytest.approx((p[s] - p[st["winner"]]) * stake), tail
            out[s] = -net
    if rules.settlement == "winner_takes_all":
        assert out[st["winner"]] == pytest.approx(-sum(v for s, v in out.items() if s != st["winner"]))
    bao = [m for m in map(_BAO.match, lines) if m]
    if st["liable"] >= 0:
        (m,) = bao
        lv = _seat(m)
        assert lv == st["liable"]
        absorbed = [float(v) for v in re.findall(r" - ([\d.]+) \(", m.group(4))]
        assert float(m.group(3)) == pytest.approx(out[lv])
        assert float(m.group(7)) == pytest.approx(out[lv] - sum(absorbed))
        out[lv] = float(m.group(7))
        for part in (m.group(8) or "").split(", "):
            if part:
                who, _, after = part.rpartition(" -> ")
                s = int(re.search(r"seat (\d+)", who).group(1))
                out[s] = float(after)
    else:
        assert not bao
    return [out[s] for s in range(N)]


@pytest.mark.parametrize("players, rules, policy", [
    (4, {}, "greedy"),
    (4, {"chao": "eight", "stake": 10}, "random"),
    (4, {"chao": "8/11/13", "settlement": "winner_takes_all"}, "random"),
    (4, {"scoring": "points"}, "random"),
    (4, {"scoring": "points", "points_chao": True, "winner_bonus": 5}, "greedy"),
    (4, {"settlement": "winner_takes_all", "winner_bonus": 10, "stake": 20}, "random"),
    (4, {"instant_four_twos": True, "instant_dragon": True, "settlement": "winner_takes_all"}, "greedy"),
    (3, {"malaysian_3p": True, "chao": "eight"}, "random"),
    (3, {"first_lead": "previous_winner", "scoring": "points", "settlement": "winner_takes_all"}, "random"),
    (5, {"top_rule": "liability", "stake": 2.5}, "random"),
])
def test_the_breakdown_adds_up_to_the_settled_result(players, rules, policy):
    """For 300 seeded hands of each table the breakdown's lines (cards left, 炒, points, the
    winner's bonus, Place or 獨贏, stake, 包牌) add up, line by line, to the result the engine
    settled (the record's ``settle`` event), seat by seat."""
    r = make_config(players, rules).rules
    kinds = {"liable": 0, "instant": 0}
    for evs in record_events(players, r, policies=policy, hands=300, seed=7):
        st = evs[-1]
        b = P.score_breakdown(evs, r)
        assert b["nets"] == pytest.approx(st["result"], abs=1e-9)
        assert b["cards"] is not None and [len(c) for c in b["cards"]] == st["cards_left"]
        text = P.describe_hand(evs, 0, r)
        assert _shown_nets(text, r, st) == pytest.approx(st["result"], abs=1e-6), text
        kinds["liable"] += st["liable"] >= 0
        kinds["instant"] += b["instant"] != 0
    if policy == "random":
        assert kinds["liable"] > 0  # 包牌 hands are among those checked
    if rules.get("instant_four_twos"):
        assert kinds["instant"] > 0


def test_the_breakdown_in_words():
    """炒 and 包牌 named as a player says them (ASCII drops the Chinese asides)."""
    evs = [{"type": "deal", "hand": 0, "deck": "", "hands": ["3D 4D 5D 6D 7D 8D 9D TD JD QD KD AD 2D",
                                                             "3C 4C 5C 6C 7C 8C 9C TC JC QC KC AC 2C",
                                                             "3H 4H 5H 6H 7H 8H 9H TH JH QH KH AH 2H",
                                                             "3S 4S 5S 6S 7S 8S 9S TS JS QS KS AS 2S"]},
           {"type": "play", "seat": 0, "cards": "3D 4D 5D 6D 7D", "lead": True},
           {"type": "play", "seat": 0, "cards": "8D 9D TD JD QD", "lead": True},
           {"type": "play", "seat": 0, "cards": "KD AD 2D", "lead": True},
           {"type": "play", "seat": 1, "cards": "3C", "lead": True},
           {"type": "play", "seat": 1, "cards": "4C", "lead": True},
           {"type": "settle", "winner": 0, "liable": 3, "cards_left": [0, 11, 13, 13], "result": []}]
    evs[-1]["result"] = P.score_breakdown(evs, make_config(4, {}).rules)["nets"]  # (a made-up hand)
    text = P.describe_hand(evs, 1, make_config(4, {}).rules, ascii=False)
    assert "you (seat 1): 11 cards ×2 (炒) = 22 -> 100 - 4×22 = +12   (held 5♣ 6♣" in text
    assert "seat 2: 13 cards ×3 (炒) = 39 -> 100 - 4×39 = -56" in text
    assert ("penalty (包牌): seat 3 broke the blocking rule (頂大) just before seat 0 went out, so seat 3 pays the "
            "other losers' share too and they pay nothing: seat 3 -56 - 56 (seat 2) = -112; seat 2 -56 -> 0") in text
    con = _console([])  # as the console prints it in ASCII
    con.say(P.describe_hand(evs, 1, make_config(4, {}).rules))
    ascii_text = con.out.getvalue()
    assert "you (seat 1): 11 cards x2 = 22 -> 100 - 4x22 = +12   (held 5C 6C" in ascii_text
    assert "penalty: seat 3 broke the blocking rule just before" in ascii_text and "?" not in ascii_text


# --------------------------------------------------------------------------------------
# 2. every play to the end of the hand; 3. the hand's number and its leader
# --------------------------------------------------------------------------------------


def _between(text, start, end):
    i = text.index(start)
    return text[i:text.index(end, i)]


def test_the_plays_after_the_persons_last_turn_are_shown_to_the_end():
    """Passing whenever they may, the person sees, between their last prompt and the hand's
    result, every play and pass of the record after their last turn, cards in suit symbols as
    the table shows them; the winner line shows its cards the same way."""
    text, hands, rules = _session({}, 2, 3, ascii=False)
    for i, evs in enumerate(hands):
        turns = [e for e in evs if e["type"] in ("play", "pass")]
        last = max(k for k, e in enumerate(turns) if e["seat"] == 0)
        block = _between(text, f"\n== hand {i} (" if i else "\n== hand 0 (", f"== hand {i} over")
        told = block[block.rindex("to the end of the hand:\n"):].strip().splitlines()[1:]
        want = []
        for e in turns[last + 1:]:
            who = "you" if e["seat"] == 0 else f"seat {e['seat']}"
            want.append(f"  {who}: " + ("pass" if e["type"] == "pass" else P.show_cards(parse_cards(e["cards"]), False,
                                                                                       rules)))
        want[-1] += " (out of cards: wins the hand)"
        assert told == want, (told, want)
        assert any(ch in told[-1] for ch in "♠♥♣♦")
        over = text[text.index(f"== hand {i} over"):].splitlines()[1]
        assert " won, out of cards first with " + P.show_cards(parse_cards(turns[-1]["cards"]), False, rules) in over


def test_each_hand_has_its_number_and_why_its_leader_leads():
    text, hands, _ = _session({}, 3, 5)
    for i, evs in enumerate(hands):
        first = next(e for e in evs if e["type"] == "play")
        block = _between(text, f"== hand {i} (hand {i + 1} of 3) ==", "play (cards or pass)> ")
        who = "you" if first["seat"] == 0 else f"seat {first['seat']}"
        assert (f"leader: {who}, the holder of 3D, the lowest card (first_lead=lowest_card); the opening lead must "
                "contain it") in block
        assert first["cards"].split()[0] == "3D"
    assert text.index("== hand 1 (") > text.index("== hand 0 over")


def test_the_leader_under_previous_winner_is_the_previous_hands_winner():
    text, hands, _ = _session({"first_lead": "previous_winner"}, 3, 5)
    assert "leader: " in _between(text, "== hand 0 (", "play (cards or pass)> ")
    assert "the first hand of the session; from the next hand on the previous winner leads" in text
    for i in (1, 2):
        w = hands[i - 1][-1]["winner"]
        first = next(e for e in hands[i] if e["type"] == "play")
        assert first["seat"] == w
        who = "you" if w == 0 else f"seat {w}"
        block = _between(text, f"== hand {i} (hand {i + 1} of 3) ==", "play (cards or pass)> ")
        assert f"leader: {who}, the winner of the previous hand (first_lead=previous_winner)" in block


def test_the_leftover_cards_are_told_with_the_leader():
    """Three players: 17 cards each, the one left over goes to the holder of 3D, who leads."""
    text, hands, _ = _session({}, 1, 5, players=3)
    deal = hands[0][0]
    taker = next(e["seat"] for e in hands[0] if e["type"] == "leftover")
    who = "you" if taker == 0 else f"seat {taker}"
    assert ("the deal: 17 cards each, and the 1 card left over went to "
            f"{who}, the holder of the lowest card (18 cards)\nleader: {who}, the holder of 3D") in text
    assert "3D" in deal["hands"][taker].split()


def test_the_leader_after_a_malaysian_swap_and_with_the_lowest_card_face_down():
    text = _malaysian(3, ["yes", "quit"])
    assert text.index("== hand 0 (hand 1 of 1) ==") < text.index("swap the lowest card")
    assert ("leader: you, who held 3D, the lowest card, and swapped it for the face-down card (3D is out of play, "
            "so the opening lead is free)") in text
    text = _malaysian(49, ["quit"], seat=1)
    assert ("leader: you, the holder of 3C, the lowest card in play (3D lies face down) (first_lead=lowest_card); "
            "the opening lead must contain 3C") in text


# --------------------------------------------------------------------------------------
# 4. the warning before a pass that risks 包牌; 5. refusals
# --------------------------------------------------------------------------------------


def _prompt_text(view, lines=("pass",)):
    con = _console(list(lines))
    P.HumanPolicy(con).choose(view)
    return con.out.getvalue()


def test_a_pass_that_risks_bao_is_warned_before_the_prompt():
    v = make_view("3D 3C 9S 2H", trick="8D", cards_left=(4, 1, 5, 7))
    text = _prompt_text(v)
    warn = next(x for x in text.splitlines() if x.startswith("warning: "))
    assert warn == ("warning: seat 1 holds 1 card: passing or playing a single other than your highest, 2H, breaks "
                    "the blocking rule; if seat 1 then goes out on its next turn, you pay everyone's losses "
                    "(top_rule='liability'). To be safe, play 2H.")
    assert text.index(warn) < text.index("play (cards or pass)> ")
    # leading a single that is not the highest
    text = _prompt_text(make_view("3D 3C 9S 2H", cards_left=(4, 1, 5, 7)), ["2H"])
    assert "warning: seat 1 holds 1 card: leading a single other than your highest, 2H, breaks" in text
    assert "To be safe, lead 2H or a combination." in text
    # no warning: the rule off, the next seat with 2 cards, a single the highest cannot beat, a pair to beat
    for v in (make_view("3D 3C 9S 2H", {"top_rule": "off"}, trick="8D", cards_left=(4, 1, 5, 7)),
              make_view("3D 3C 9S 2H", trick="8D", cards_left=(4, 2, 5, 7)),
              make_view("3D 3C 9S TH", trick="2S", cards_left=(4, 1, 5, 7)),
              make_view("3D 3C 9S 2H", trick="8D 8S", cards_left=(4, 1, 5, 7))):
        text = _prompt_text(v)
        assert "warning" not in text and "blocking" not in text, text
    # mandatory: said, but no 包牌 (it cannot happen: the pass is refused)
    v = make_view("3D 3C 9S 2H", {"top_rule": "mandatory"}, trick="8D", cards_left=(4, 1, 5, 7))
    text = _prompt_text(v, ["2H"])
    assert ("note: seat 1 holds 1 card: the blocking rule (top_rule='mandatory') makes you play 2H: nothing else is "
            "allowed, not even a pass") in text and "pay" not in text


def test_refusals_under_mandatory_never_suggest_passing():
    """`-o top_rule=mandatory`, the next seat holding 1 card, a single to beat that the highest card
    beats: every refusal points to the highest single, none to a pass."""
    v = make_view("3D 3C 9S 2H", {"top_rule": "mandatory"}, trick="8D", cards_left=(4, 1, 5, 7))
    assert not v.can_pass
    con = _console(["3C", "3D 3C", "3C 9S", "9S", "pass", "2H"])
    P.HumanPolicy(con).choose(v)
    refusals = [x for x in con.out.getvalue().splitlines() if x.startswith("refused ")]
    assert len(refusals) == 5
    for r in refusals[:4]:
        assert "pass" not in r.split(":", 1)[1], r
        assert "2H" in r
    assert refusals[0] == ("refused '3C': 3C does not beat 8D, the single to beat (by seat 3): play your highest "
                           "single 2H (the next seat holds 1 card: the blocking rule, top_rule='mandatory', allows "
                           "nothing else)")


@pytest.mark.parametrize("rules", [{"top_rule": "mandatory"}, {"pass_only_if_unable": True}, {}])
def test_no_refusal_advises_what_the_rules_refuse(rules):
    """At every turn of 40 games (random players), the refusal of every single, pair and five-card
    set the seat holds that is not a legal play says "pass" only where a pass is legal, and "play"
    only where some play is."""
    import numpy as np

    from kaptai.bigtwo.engine_reference import Game
    from kaptai.core.sampling import RandomStream

    cfg = make_config(4, rules)
    stream = RandomStream(np.random.PCG64(11))
    seen = {"no pass": 0, "no play": 0}
    for _ in range(40):
        g = Game(cfg, "random", stream)
        while not g.over:
            v = g.view()
            if not v.leading and not (v.locked and v.locked[v.seat]):
                held = list(v.hand)
                tries = [1 << c for c in held] + [(1 << a) | (1 << b) for a, b in zip(held, held[1:])]
                tries += [sum(1 << c for c in held[:5])] if len(held) >= 5 else []
                for mask in tries:
                    if mask in v.option_masks:
                        continue
                    why = P.why_illegal(v, mask)
                    advice = why.rsplit(": ", 1)[-1]
                    if not v.can_pass:
                        seen["no pass"] += 1
                        assert not re.search(r"\bor pass\b|: pass$", why), why
                    if not v.options:
                        seen["no play"] += 1
                        assert not advice.startswith("play "), why
            g.step()
    assert seen["no play"] > 50
    if rules:
        assert seen["no pass"] > 10


# --------------------------------------------------------------------------------------
# the whole of it at the terminal
# --------------------------------------------------------------------------------------


def test_at_the_terminal(tmp_path):
    """`kaptai play big-two --seed 4 --hands 2 --ascii`, typed as a person would: each hand is
    numbered with its leader, the plays are told to the end, and the result is broken down."""
    pexpect = pytest.importorskip("pexpect")
    env = dict(os.environ, PYTHONIOENCODING="utf-8", COLUMNS="200")
    child = pexpect.spawn(sys.executable, ["-m", "kaptai", "play", "big-two", "--opponents", "greedy", "--seed", "4",
                                           "--hands", "2", "--ascii"], cwd=str(tmp_path), env=env, encoding="utf-8",
                          timeout=120, dimensions=(50, 200))
    seen = io.StringIO()
    child.logfile_read = seen
    while child.expect([r"> $", pexpect.EOF]) == 0:
        child.sendline("?")
        child.expect(r"legal: ([^\r\n]*)")
        legal = child.match.group(1).split(", ")
        child.expect(r"> $")
        child.sendline("pass" if "pass" in legal else legal[0])
    child.close()
    assert child.exitstatus == 0
    text = seen.getvalue().replace("\r\n", "\n")
    for i in (0, 1):
        assert f"== hand {i} (hand {i + 1} of 2) ==\nleader: " in text
        block = _between(text, f"== hand {i} (", f"== hand {i} over")
        assert "to the end of the hand:\n" in block and "(out of cards: wins the hand)\n" in block
        over = text[text.index(f"== hand {i} over"):]
        assert "\n   score: cards left x the multiplier (chao=standard: x2 from 10 cards, x3 from 13 cards)\n" in over
        assert "\n   settlement place: every two seats settle the difference of their scores" in over
