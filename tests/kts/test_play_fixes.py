"""``kaptai play kap-tai-shap``: what the person reads and may type (scripted input, ``Console(lines=)``).

Each game here is played by :func:`kaptai.kts.play.play_command` on a scripted console, so the
session is the command's own (opening lines, the other seats' moves told as they happen, each
hand's end).  The deals are fixed by the seed; the scripts answer the prompts they meet.
"""

from __future__ import annotations

import io
import re
import types

import pytest

from kaptai.core.play import Console, QuitGame
from kaptai.games import game as lookup
from kaptai.kts import play as P
from kaptai.kts import reference
from kaptai.kts.rules import resolve_rules
from kaptai.kts.tiles import parse_tile

# --seed 1, seat 0, lookahead opponents: the first legal move at each of the 8 prompts (the
# person wins the hand self-drawn on 2-5)
SEED1 = ["2-3", "1-1", "5-5", "4-5", "5-5", "1-3", "2-2", "5-5"]


def _play(lines, seed, opponents="lookahead", players=4, seat=0, hands=1, rules=None):
    con = Console(ascii=True, lines=lines, out=io.StringIO())
    args = types.SimpleNamespace(rules=rules, option=None, players=players, seat=seat, ascii=True, hints=False,
                                 opponents=opponents, hands=hands, seed=seed, record=None)
    out = P.play_command(args, lookup("kap-shap" if players == 2 else "kap-tai-shap"), console=con)
    return con.out.getvalue(), out.table


def _hint_labels(text: str) -> list[str]:
    return re.findall(r"\d\. (.*?)  P\(win\)", text)


def test_claim_hint_names_typeable_moves_and_never_the_throw_back():
    """--seed 5: 2-5 offered; the advisor's 'claim 4-4' is 'claim 2-5, then discard 4-4'; its
    'claim 2-5' (take 2-5 and throw it back) is not a legal exchange and is not hinted."""
    text, _ = _play(["hint", "claim 2-5", "hint", "discard 4-4", "quit"], seed=5)
    hints = [line for line in text.splitlines() if line.startswith("hint (advisor)")]
    assert len(hints) == 2, text
    claim_labels, discard_labels = _hint_labels(hints[0]), _hint_labels(hints[1])
    assert claim_labels[0] == "claim 2-5, then discard 4-4", hints[0]
    assert "no (let it go)" in claim_labels
    assert not any(lab.endswith("discard 2-5") for lab in claim_labels), hints[0]
    assert all(lab.startswith("discard ") for lab in discard_labels) and "discard 2-5" not in discard_labels
    # every hinted move is typed as the hint names it: both prompts took them, nothing refused
    assert "refused" not in text, text
    assert "claim 2-5 or no> claim 2-5" in text and "discard> discard 4-4" in text


def test_hint_probability_unsigned_and_explained_once():
    text, _ = _play(["hint", "2-5", "hint", "4-4", "quit"], seed=5)
    hints = [line for line in text.splitlines() if line.startswith("hint (advisor)")]
    assert hints and all("P(win) 0." in h and "+0." not in h and "P(win within)" not in h for h in hints), hints
    assert text.count("(P(win): the advisor's chance that you win within its horizon") == 1, text


def test_claim_prompt_names_the_tile_and_the_seat_and_the_others_moves_are_told():
    """--seed 1: seat 3 claims seat 2's 4-5 and throws 2-3 in the early window (seat 3's turn 2);
    seat 1 takes the person's 1-1 and, later, 1-3."""
    text, _ = _play(list(SEED1), seed=1)
    first = text.split("claim 2-3 or no>")[0]
    assert "seat 2 discards 4-5" in first and "seat 3 claims seat 2's 4-5" in first
    assert "seat 3 discards 2-3" in first
    assert "turn 2 (seat 3's)" in first
    assert "seat 3 discarded 2-3 (its first discard of the turn, after its claim; it draws next): claim it" in first
    assert "claim a discard?" not in text
    assert "seat 1 claims your 1-1" in text and "seat 1 claims your 1-3" in text
    assert "seat 3 discarded 4-5" in text and "seat 3 draws, discards" in text
    assert "hand 0: you deal; dice 10, seat 2 is the first hand" in text


def test_claim_prompt_names_the_seat_without_narration():
    """The policy alone (as test_play drives it): the offered tile and the previous seat are named."""
    from kaptai.kts.records import hand_events

    con = Console(ascii=True, lines=["no", "quit"], out=io.StringIO())
    pols = [P.HumanPolicy(con), "greedy", "greedy", "greedy"]
    with pytest.raises(QuitGame):
        list(hand_events(4, resolve_rules("traditional"), policies=pols, hands=1, seed=5))
    assert "seat 3 discarded 3-6: claim it (3-6) or no?" in con.out.getvalue()


def test_refusals_give_the_reason():
    text, _ = _play(["4-4", "2-5", "2-5", "6-6", "zz", "quit"], seed=5)
    assert "refused '4-4': 4-4 is not on offer: only seat 3's 2-5 can be claimed now (or no)" in text
    assert ("refused '2-5': 2-5 is the tile you claimed: a claim exchanges it for a tile you held before, "
            "so it cannot go straight back") in text
    assert "refused '6-6': 6-6 is not in your hand" in text
    assert "cannot be discarded here" not in text and "cannot be claimed here" not in text


def test_opening_lines_mention_hint_help_and_quit():
    text, _ = _play(["quit"], seed=5)
    opening = text.splitlines()[0]
    assert "? lists the legal moves" in opening and "hint asks the advisor" in opening and "quit stops" in opening


def test_hand_end_says_who_won_and_how():
    text, df = _play(list(SEED1), seed=1)
    assert len(df) == 1 and df.you.iloc[0] == pytest.approx(2.8)
    end = text.split("== hand 0 over")[1]
    m = re.search(r"you win self-drawn on 2-5, score 3, with ([0-9\- ]+); the house takes 0\.2 antes", end)
    assert m, end
    counts = [0] * 21
    for t in m.group(1).split():
        counts[parse_tile(t)] += 1
    assert sum(counts) == 10 and reference.is_win(counts, resolve_rules("traditional"))


def test_hand_result_every_ending():
    deal = {"type": "deal", "hands": ["6-6 6-6 1-1", "4-4 4-4", "1-3"]}
    settle = {"type": "settle", "winner": 1, "score": 2, "house": 0.15, "result": [-1, 1.85, -1]}
    claim = [deal, {"type": "discard", "seat": 0, "cards": "1-1"}, {"type": "claim", "seat": 1, "cards": "1-1"},
             {"type": "claim_win", "seat": 1, "cards": "1-1", "score": 2}, settle]
    assert P.hand_result(claim, 0, "antes") == ("seat 1 wins by claiming your 1-1, score 2, with 1-1 4-4 4-4; "
                                                "the house takes 0.15 antes")
    assert P.hand_result(claim, 2, "antes").startswith("seat 1 wins by claiming seat 0's 1-1")
    assert P.hand_result(claim, 1, "antes").startswith("you win by claiming seat 0's 1-1")
    natural = [deal, {"type": "natural", "seat": 0, "score": 3},
               {"type": "settle", "winner": 0, "score": 3, "house": 0.0, "result": [2, -1, -1]}]
    assert P.hand_result(natural, 1, "points") == ("seat 0 wins with a natural (the first hand's dealt tiles), "
                                                   "score 3, with 6-6 6-6 1-1")
    drawn = [deal, {"type": "drawn_hand", "seat": 2},
             {"type": "settle", "winner": -1, "score": 0, "house": 0.0, "result": [0, 0, 0]}]
    assert P.hand_result(drawn, 0) == "the wall is empty: a drawn hand, no winner"


@pytest.mark.parametrize("players,rules", [(4, "traditional"), (2, "traditional"), (4, "advanced")])
def test_hand_result_winning_hand_is_a_win(players, rules):
    from kaptai.kts.records import hand_events

    rr = resolve_rules(rules)
    for evs in hand_events(players, rr, policies="greedy", hands=40, seed=11):
        w = evs[-1]["winner"]
        if w < 0:
            continue
        counts = [0] * 21
        for t in P._hand_of(evs, w):
            counts[t] += 1
        assert reference.is_win(counts, rr), P.hand_result(evs, 0)


def test_kap_shap_plays_and_tells():
    text, df = _play(["no", "quit"], seed=2, opponents="greedy", players=2)
    assert text.startswith("Kap Shap, 2 players, you are seat 0")
    assert "-- Kap Shap, you are seat 0" in text
    assert re.search(r"seat 1 (draws, )?discards \d-\d", text), text


def test_every_hinted_label_is_typed_whole():
    """The hint's labels typed exactly as shown: 'claim 2-5, then discard 4-4' claims and makes
    that exchange discard without asking again; 'no (let it go)' declines; 'no' at a discard is
    refused with the reason."""
    for typed in ("claim 2-5, then discard 4-4", "claim 2-5 then discard 4-4", "take 25 then discard 44"):
        text, _ = _play([typed, "quit"], seed=5)  # the comma is optional
        assert "refused" not in text, (typed, text)
        assert "you discard 4-4, as you said with the claim" in text, text
    assert "discard> " not in text.split("as you said with the claim")[0].split("claim 2-5 or no>")[-1]
    text, _ = _play(["no (let it go)", "quit"], seed=5)
    assert "refused" not in text, text
    text, _ = _play(["claim 2-5", "no", "quit"], seed=5)
    assert "refused 'no': a discard is due here" in text, text


def test_the_hint_says_under_advanced_scoring_that_it_ranks_by_p_win_alone():
    """Under advanced scoring the exact advisor's P(win) ignores the score a win makes, which the
    review's default advisor weighs: the hint's note says so there, and only there."""
    note = "it ranks by that chance alone, not by the score a win would make"
    adv, _ = _play(["hint", "quit"], seed=5, rules="advanced")
    pot, _ = _play(["hint", "quit"], seed=5)
    assert adv.count(note) == 1 and note not in pot, adv


def test_the_hint_is_the_exact_review_of_the_same_decision_counting_the_claimed_tiles(tmp_path):
    """--seed 1: seat 3 claims 4-5 before the person's first decision, and others claim later.
    The hint at every decision and ``kaptai review --advisor exact`` of the record agree (the same
    best move and P(win)), both counting the copies other seats are known to hold because they
    claimed them as unseen-no-more (as the search does); the hint counted them as drawable."""
    import json

    from kaptai.cli import main

    rec = tmp_path / "g.jsonl"
    con = Console(ascii=True, lines=[x for m in SEED1 for x in ("hint", m)], out=io.StringIO())
    args = types.SimpleNamespace(rules=None, option=None, players=4, seat=0, ascii=True, hints=False,
                                 opponents="lookahead", hands=1, seed=1, record=str(rec))
    P.play_command(args, lookup("kap-tai-shap"), console=con)
    text = con.out.getvalue()
    hints = re.findall(r"hint \(advisor\): 1\. (.*?)  P\(win\) ([\d.]+)", text)
    assert "seat 3 claims seat 2's 4-5" in text.split("hint (advisor)")[0]
    out = tmp_path / "r.json"
    assert main(["review", "kap-tai-shap", str(rec), "--advisor", "exact", "--seat", "0", "--format", "json",
                 "--out", str(out)]) == 0
    rows = json.loads(out.read_text())
    assert len(hints) == len(rows) == len(SEED1)
    for (label, p), r in zip(hints, rows):
        assert f"{r['p_win_before']:.2f}" == p, (label, p, r)
        best = r["best"] if r["kind"] == "discard" else r["best"].replace("claim ", "")
        assert best in label, (label, r)
    # seat 3's claimed 4-5 counted as seen changes the first decision's values (the 4-5 drawable
    # gave another P(win))
    d = next(x for x in P.decisions(P.read(str(rec))) if x.seat == 0)
    assert sum(d.extra["state"]["known"][3]) == 1
    blind = P.advice(d.view, offered=d.extra["offered"]).p_win_within.max()
    assert f"{blind:.2f}" != hints[0][1] and abs(blind - rows[0]["p_win_before"]) > 1e-6
