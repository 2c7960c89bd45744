"""``kaptai play kap-tai-shap``: each hand's end shows what its result is made of.

Under advanced scoring the winner's score item by item (the base items, the general eyes, the
self-draw point) and what each other seat paid; under the pot game the pot, the house's cut and
who paid.  The lines are read back from the screen text with regular expressions written from the
wording and checked against the hand's ``settle`` event (what the engine settled), over many
seeded hands under both presets, and against the compiled evaluator (a second scorer: the items
come from the reference scorer the play engine settles with).
"""

from __future__ import annotations

import io
import re
import types

import pytest

from kaptai.core.play import Console
from kaptai.games import game as lookup
from kaptai.kts import play as P
from kaptai.kts.evaluate import evaluate
from kaptai.kts.records import hand_events, unit_of
from kaptai.kts.rules import resolve_rules
from kaptai.kts.tiles import format_tile

_SCORE = re.compile(r"score (\d+)(?: = (.*?))?(?: \(the base is the highest item; not added: (.*?)\))?"
                    r"(?: \(advanced scoring's points: the pot game does not pay them\))?")
_PAYS = re.compile(r"(.*?) pays? (you|seat \d+) the score, ([\d.]+) (points|antes)(?: each)?: "
                   r"(?:you|seat \d+) takes? ([\d.]+) (?:points|antes)"
                   r"(?:; the house's cut \(([\d.]+)%\) takes ([\d.]+): (?:you|seat \d+) nets? ([\d.\-]+))?")
_POT = re.compile(r"the pot: ([\d.]+) antes, ([\d.]+) from each seat; (?:the house's cut \(([\d.]+)%\) takes ([\d.]+); )?"
                  r"(you|seat \d+) takes? (?:the other )?([\d.]+), a net ([+\-][\d.]+) after (?:your|its) own ante; "
                  r"(.*?) (?:each lose the ([\d.]+) they anted|loses? the ([\d.]+) (?:you|it) anted)")


def _seats(words: str, me: int) -> list[int]:
    return sorted(me if w == "you" else int(w.split()[1]) for w in re.split(r", | and ", words))


def _items(text: str) -> list[tuple[str, int]]:
    out = []
    for item in text.split(" + "):
        words, pts = item.rsplit(" ", 1)
        out.append((words, int(pts)))
    return out


def check_lines(lines: list[str], evs: list[dict], seat: int, rules) -> dict:
    """The hand's end lines (``hand_settlement``'s) against its settle event; what they showed."""
    settle = evs[-1]
    res = [float(x) for x in settle["result"]]
    w = int(settle["winner"])
    pot = rules.settlement == "pot"
    if w < 0:
        assert lines == (["every seat's ante goes back to it and the house takes nothing"] if pot
                         else ["nobody pays"]), lines
        assert not any(res)
        return {"drawn": 1}
    hand, score_line, pay_line = lines
    # the winning hand's groups hold exactly the winner's tiles
    shown = sorted(re.findall(r"\d-\d", hand))
    assert shown == sorted(format_tile(t) for t in P._hand_of(evs, w)), (hand, evs[-2])
    m = _SCORE.fullmatch(score_line)
    assert m, score_line
    score = int(m.group(1))
    assert score == settle["score"]
    items = _items(m.group(2))
    # the items add up to the settled score, each one named (none 'not itemised')
    assert sum(p for _w, p in items) == score, score_line
    assert all(words != "not itemised" for words, _p in items), score_line
    # a second scorer (the compiled evaluator) agrees with the base and eyes; the self-draw point is 1
    ev = evaluate(" ".join(format_tile(t) for t in P._hand_of(evs, w)), rules, players=len(res))
    win = P._win(evs)
    self_drawn = win["type"] in ("natural", "self_drawn_win")
    assert ev.score + int(self_drawn) + int(settle.get("bonus", 0)) == score  # + the dealer streak's points
    assert (("self-drawn" in items[-1][0]) and items[-1][1] == 1) == self_drawn, score_line
    if m.group(3):  # max: the items left out are no higher than the base counted
        assert rules.base_combination == "max"
        assert all(p <= items[0][1] for _w, p in _items(m.group(3).replace(", ", " + ")))
    house = float(settle["house"])
    losers = [s for s in range(len(res)) if s != w]
    if pot:
        assert score_line.endswith("(advanced scoring's points: the pot game does not pay them)")
        m = _POT.fullmatch(pay_line)
        assert m, pay_line
        total, ante = float(m.group(1)), float(m.group(2))
        assert _seats(m.group(5), seat) == [w] and _seats(m.group(8), seat) == losers
        assert total == pytest.approx(ante * len(res))  # every seat anted
        assert float(m.group(4) or 0) == pytest.approx(house)
        if house:
            assert float(m.group(3)) == pytest.approx(rules.house_cut * 100)
        assert float(m.group(6)) == pytest.approx(total - house)  # the winner takes the rest
        assert float(m.group(7)) == pytest.approx(res[w]) == pytest.approx(total - house - ante)
        lost = float(m.group(9) or m.group(10))
        assert lost == pytest.approx(ante) and all(res[s] == pytest.approx(-ante) for s in losers)
    else:
        m = _PAYS.fullmatch(pay_line)
        assert m, pay_line
        assert _seats(m.group(1), seat) == losers and _seats(m.group(2), seat) == [w]
        each, took = float(m.group(3)), float(m.group(5))
        assert each == score and all(res[s] == pytest.approx(-score) for s in losers)
        assert took == pytest.approx(score * len(losers))
        if house:
            assert float(m.group(6)) == pytest.approx(rules.house_cut * 100)
            assert float(m.group(7)) == pytest.approx(house) == pytest.approx(took * rules.house_cut)
            assert float(m.group(8)) == pytest.approx(res[w]) == pytest.approx(took - house)
        else:
            assert m.group(6) is None and res[w] == pytest.approx(took)
    return {"self_drawn": int(self_drawn), "eyes": int("general eye" in score_line),
            "not_added": int("not added: " in score_line), "forms": {items[0][0]}}


RULES = [("traditional", {}), ("advanced", {}), ("advanced", {"base_combination": "sum"}),
         ("advanced", {"house_cut": 0.05}), ("traditional", {"house_cut": 0.0, "forms": "basic,run4"})]


@pytest.mark.parametrize("players", [4, 2, 6])
@pytest.mark.parametrize("preset,over", RULES, ids=lambda x: str(x))
def test_the_shown_items_add_up_to_the_settled_result(preset, over, players):
    rules = resolve_rules(preset, **over)
    unit = unit_of(rules)
    seen = {"self_drawn": 0, "eyes": 0, "not_added": 0, "forms": set()}
    policy = "score" if rules.settlement == "advanced" else "greedy"
    for i, evs in enumerate(hand_events(players, rules, policies=policy, hands=150, seed=7)):
        seat = i % players
        got = check_lines(P.hand_settlement(evs, seat, rules, unit, ascii=True), evs, seat, rules)
        for k in ("self_drawn", "eyes", "not_added"):
            seen[k] += got.get(k, 0)
        seen["forms"] |= got.get("forms", set())
    # the hands checked hold wins of both kinds, and general eyes
    assert seen.get("self_drawn", 0) > 0 and seen.get("eyes", 0) > 0, seen
    if preset == "advanced" and players == 4:
        assert len(seen["forms"]) >= 3, seen  # several forms' base items (runs among them)
        if rules.base_combination == "max":
            assert seen.get("not_added", 0) > 0, seen  # a pattern over its form's base


def test_the_worked_examples_of_the_rules_page():
    """The rules page's all-pairs hand with two general eyes: 8 + 2 = 10 (its 8 excludes the
    general-eye points in the page's words, but the scoring counts them: the table's 10)."""
    rules = resolve_rules("advanced")
    hand = "6-6 6-6 4-4 4-4 1-4 1-4 5-5 5-5 4-6"
    evs = [{"type": "deal", "hands": [hand, "1-2", "1-2"]}, {"type": "discard", "seat": 1, "cards": "4-6"},
           {"type": "claim", "seat": 0, "cards": "4-6"}, {"type": "claim_win", "seat": 0, "cards": "4-6", "score": 10},
           {"type": "settle", "winner": 0, "score": 10, "house": 0.0, "result": [20.0, -10.0, -10.0]}]
    lines = P.hand_settlement(evs, 0, rules, "points")
    assert lines[1] == ("score 10 = all pairs 8 + general eyes (6-6, 4-4) 2 (the base is the highest item; "
                        "not added: general-eyes win 2)"), lines
    assert lines[2] == "seat 1 and seat 2 pay you the score, 10 points each: you take 20 points"
    assert "all pairs (全對子) 8" in P.hand_settlement(evs, 0, rules, "points", ascii=False)[1]
    check_lines(lines, evs, 0, rules)


def _auto(out):
    """At each prompt '?', then 'no' to a claim, else the first legal move listed."""
    while True:
        yield "?"
        listed = [x for x in out.getvalue().splitlines() if x.startswith("legal: ")][-1]
        legal = listed[len("legal: "):].split(", ")
        yield "no" if "no" in legal else legal[0]


@pytest.mark.parametrize("preset", ["traditional", "advanced"])
def test_the_screen_shows_the_breakdown_under_each_hand(preset, tmp_path):
    """A session of the command itself (the reference engine settles it): under each hand's result
    line, the winning hand, the score's items and who paid; checked against the session's record."""
    from kaptai.records import read_record

    out = io.StringIO()
    con = Console(ascii=True, lines=_auto(out), out=out)
    rec = str(tmp_path / "k.jsonl")
    args = types.SimpleNamespace(rules=preset, option=None, players=4, seat=0, ascii=True, hints=False,
                                 opponents="greedy", hands=6, seed=3, record=rec)
    P.play_command(args, lookup("kap-tai-shap"), console=con)
    text = out.getvalue()
    rules = resolve_rules(preset)
    record = read_record(rec)
    assert len(record.hands) == 6
    wins = 0
    for i, hand in enumerate(record.hands):
        end = text.split(f"== hand {i} over")[1].split("\n\n")[0].splitlines()[1:]
        evs = P.table_events(hand.events)  # the deal passes: the record numbers a hand's seats from its dealer
        assert end[0] == "   " + P.hand_result(evs, 0, unit_of(rules)), end
        lines = [x[3:] for x in end[1:] if not x.startswith("   totals after")]
        check_lines(lines, evs, 0, rules)
        wins += evs[-1]["winner"] >= 0
    assert wins >= 3
