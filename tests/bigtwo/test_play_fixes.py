"""``kaptai play big-two`` and ``kaptai review big-two``: the refusals say why, the hint and the
review price the opening lead after a Malaysian swap (and with the lowest card face down), the
hint names its unit, and a hand's end is described in one line."""

from __future__ import annotations

import io

import pytest

from kaptai.bigtwo import play as P
from kaptai.bigtwo.engine_reference import make_view
from kaptai.core.play import Console, run_session, seat_policies
from kaptai.games import game as lookup


def _console(lines):
    return Console(ascii=True, lines=lines, out=io.StringIO())


def _refusals(con):
    return [x for x in con.out.getvalue().splitlines() if x.startswith("refused ")]


def test_refusals_name_the_reason():
    """A card not held is named; a single against a five-card play is told to match the play to
    beat (named); a single that does not beat is told so; the lead must hold the opening card."""
    v = make_view("3D 3C 9S 2H 4D 5D 6D 7D 8D", trick="3S 4S 5H 6C 7C", cards_left=(9, 5, 5, 7))
    con = _console(["9C 9H 9S 9D 3C", "4D", "3D 3C", "pass"])
    assert P.HumanPolicy(con).choose(v) is None
    r = _refusals(con)
    assert r[0] == "refused '9C 9H 9S 9D 3C': you do not hold 9D 9C 9H"
    assert r[1] == ("refused '4D': 4D is a single, but the play to beat is 3S 4S 5H 6C 7C, 5 cards (straight) by "
                    "seat 3: play 5 cards that beat it, or pass")
    assert "3D 3C is a pair, but the play to beat is 3S 4S 5H 6C 7C" in r[2]

    v = make_view("3D 3C 9S 2H", trick="8D", cards_left=(4, 5, 1, 7))
    con = _console(["3C", "9S"])
    P.HumanPolicy(con).choose(v)
    assert _refusals(con) == ["refused '3C': 3C does not beat 8D, the single to beat (by seat 3): play a higher "
                              "single, or pass"]

    v = make_view("3D 3C 9S 2H 4H 5D 6D 7D 8D 9D", cards_left=(10, 13, 13, 13), opening_card=0)
    con = _console(["9S", "pass", "3D"])
    P.HumanPolicy(con).choose(v)
    r = _refusals(con)
    assert r[0] == "refused '9S': the opening lead must contain 3D: 9S does not"
    assert r[1].startswith("refused 'pass': you cannot pass here: you lead")


def test_refusal_of_a_non_combination_and_of_the_blocking_rule():
    v = make_view("3D 3C 9S 2H", trick="8D", cards_left=(4, 1, 5, 7), rules={"top_rule": "mandatory"})
    con = _console(["3C 9S", "9S", "pass", "2H"])
    P.HumanPolicy(con).choose(v)
    r = _refusals(con)
    assert "3C 9S is not a combination: play a single, a pair, a triple, or 5 cards" in r[0]
    assert "blocking rule (top_rule='mandatory') makes you play your highest single 2H" in r[1]
    assert "blocking rule" in r[2] and "2H" in r[2]


def _malaysian(seed, lines, seat=0):
    rules = lookup("big-two").resolve_rules(None, players=3, malaysian_3p=True)
    con = _console(lines)
    pols = seat_policies(P.HumanPolicy(con, hint_samples=8), ["greedy"] * 2, seat)
    cfg, header = P.table_header(3, rules, pols, seed, 1)
    run_session(con, header, P.hand_events(cfg, pols, seed, 1), seat=seat)
    return con.out.getvalue()


def test_hint_at_the_opening_lead_after_a_malaysian_swap():
    """`kaptai play big-two --players 3 -o malaysian_3p=true --seed 3`, `yes`, `hint`: the swapper
    leads without the lowest card (out of play), freely; the hint prices it, in its unit."""
    text = _malaysian(3, ["yes", "hint", "quit"])
    assert "you lead\n" in text and "3D" not in text.split("you lead")[1].split("hint (")[0]
    assert "no hint" not in text
    assert "hint (advisor): 1. " in text and "ev " in text and " points x stake P(win)" in text


def test_the_swap_says_which_cards_changed_hands():
    """After `yes` to the Malaysian swap the person is told the card given and the card taken."""
    text = _malaysian(3, ["yes", "quit"])
    assert "the swap: you gave 3D (now out of play) and took 8S, the face-down card" in text, text
    assert "the swap:" not in _malaysian(3, ["no", "quit"])


def test_hint_at_the_opening_lead_with_the_lowest_card_face_down():
    """Seed 49: the face-down card is 3D, so the holder of 3C (seat 1) leads and must hold 3C;
    the hint lists such leads only."""
    text = _malaysian(49, ["hint", "quit"], seat=1)
    assert "you lead (it must hold 3C)" in text
    hint = next(x for x in text.splitlines() if x.startswith("hint (advisor)"))
    plays = [part.split("  ev ")[0].split(". ", 1)[1] for part in hint[len("hint (advisor): "):].split("   ")]
    assert plays and all("3C" in p.split() for p in plays)


@pytest.mark.parametrize("seed", [3, 49])
def test_review_prices_the_opening_lead_of_a_malaysian_hand(seed, tmp_path):
    """The review's opening lead (after the swap, seed 3; the lowest card face down, seed 49) is
    priced, not left out; its options are the legal leads."""
    from kaptai.core.review import review_rows
    from kaptai.records import record_hands

    path = tmp_path / "m.jsonl"
    record_hands("big-two", path, players=3, rules={"malaysian_3p": True}, hands=1, seed=seed, policies="greedy",
                 malaysian_swap="always")
    rec = P.read(path)
    first = next(iter(P.decisions(rec)))
    assert first.index == 0 and first.table == "lead"
    skipped: list = []
    rows = review_rows(P, rec, [0], None, seed=0, samples=4, skipped=skipped)
    assert skipped == []
    lead = rows[0]
    assert lead["decision"] == 0 and lead["table"] == "lead"
    ev = P.evaluate(first, samples=4, seed=0)
    legal = {P.move_label(first.view, m) for m in first.view.option_masks}
    assert set(ev["labels"]) == legal and ev["vs_best"][0] == 0.0
    assert lead["options"] == len(legal)


def test_describe_hand():
    evs = [{"type": "deal"}, {"type": "play", "seat": 2, "cards": "3D", "lead": True},
           {"type": "settle", "winner": 2, "liable": 1, "cards_left": [4, 11, 0], "result": [-3.0, -21.0, 24.0]}]
    text = P.describe_hand(evs, 0)
    assert text.startswith("seat 2 won, out of cards first with 3D; cards left: you (seat 0) 4, seat 1 11")
    assert "seat 1 broke the blocking rule" in text
    evs = [{"type": "deal"}, {"type": "instant_win", "seat": 0, "cards": "", "kind": "dragon"},
           {"type": "settle", "winner": 0, "liable": -1, "cards_left": [0, 13, 13, 13], "result": [1.0, 0, 0, 0]}]
    assert P.describe_hand(evs, 0).startswith("you (seat 0) won at once with a dragon (all 13 ranks)")


def test_describe_hand_of_a_played_hand(tmp_path):
    from kaptai.records import read_record, record_hands

    path = tmp_path / "g.jsonl"
    record_hands("big-two", path, players=4, hands=1, seed=1, policies="greedy")
    evs = read_record(path).hands[0].events
    st = evs[-1]
    text = P.describe_hand(evs, 1)
    w = st["winner"]
    last = [e for e in evs if e["type"] == "play" and e["seat"] == w][-1]["cards"]  # the winning play
    assert text.startswith(("you (seat 1)" if w == 1 else f"seat {w}") + f" won, out of cards first with {last}; "
                           "cards left: ")
    for s, n in enumerate(st["cards_left"]):
        if s != w:
            assert f"seat {s}) {n}" in text or f"seat {s} {n}" in text


def test_hint_names_its_unit():
    """The hint's ev is in the record's unit (points x stake)."""
    from kaptai.bigtwo.cards import format_cards, parse_cards
    from kaptai.bigtwo.records import UNIT

    keep = parse_cards("3D 3C 9S 2H 4C 4H 4S 5C 5H 5S 6C 6H 6S 7C 7H 7S 8C")
    v = make_view("3D 3C 9S 2H", trick="8D", cards_left=(4, 5, 1, 7),
                  played=format_cards([c for c in range(52) if c not in keep]))
    con = _console(["hint", "9S"])
    P.HumanPolicy(con, hint_samples=8).choose(v)
    hint = next(x for x in con.out.getvalue().splitlines() if x.startswith("hint (advisor)"))
    assert UNIT == "points x stake" and hint.count(f" {UNIT} P(win)") == 3, hint


@pytest.mark.parametrize("players, rules, swap", [
    (3, {"malaysian_3p": True}, "always"), (3, {"malaysian_3p": True}, "never"),
    (4, {"first_lead": "previous_winner"}, "policy"), (4, {}, "policy"),
])
def test_the_advisor_prices_exactly_the_engines_options(players, rules, swap, tmp_path):
    """At every decision of recorded hands (a Malaysian swap, the lowest card face down, a later
    hand under first_lead=previous_winner whose opening is free), the advisor's rows are the
    view's legal options, no more and no fewer: no filtering after the fact."""
    from kaptai.records import record_hands

    path = tmp_path / "r.jsonl"
    record_hands("big-two", path, players=players, rules=rules, hands=3, seed=5, policies="greedy",
                 malaysian_swap=swap)
    rec = P.read(path)
    n = 0
    for d in P.decisions(rec):
        legal = {P.move_label(d.view, m) for m in d.view.option_masks} | ({"PASS"} if d.view.can_pass else set())
        assert set(P.evaluate(d, samples=2, seed=0)["labels"]) == legal, (d.hand, d.index)
        n += 1
        if n >= 40:
            break
    assert n >= 10


def test_a_later_hands_opening_under_previous_winner_is_free():
    """first_lead=previous_winner, a later hand: the view's opening is free (no opening card);
    the hint lists leads without 3D too (it once required 3D, as a match's first hand does)."""
    v = make_view("3D 4C 5C 6H 7S 8S 9S 9H TD JD QC KD AS", rules={"first_lead": "previous_winner"})
    assert v.opening_card is None and v.leading
    df = P.advice(v, samples=4)
    assert sorted(df.play) == sorted(str(p) for p in v.options)
    assert any("3D" not in p.split() for p in df.play)


def test_the_malaysian_swap_of_another_seat_or_none_is_told_once_a_hand():
    """Under malaysian_3p the person's first turn of a hand says whether the lowest card's holder
    swapped (the card out of play named) or not; the person's own swap is told as before."""
    rules = {"malaysian_3p": True, "players": 3}
    for dead, said in (("3D", "swapped it for the face-down card: 3D is out of play, face up"),
                       ((), "no swap this hand: the face-down card stays out of play, unseen")):
        con = _console(["pass", "pass"])
        pol = P.HumanPolicy(con)
        for turn in (2, 5):  # two turns of the same hand: told once
            pol.choose(make_view("4D 5C 9S 2H", rules, trick="8D", cards_left=(4, 16, 17), dead=dead, turn=turn))
        assert con.out.getvalue().count(said) == 1, con.out.getvalue()
    v = make_view("4D 5C 9S 2H", trick="8D", cards_left=(4, 5, 7))
    con = _console(["pass"])
    P.HumanPolicy(con).choose(v)
    assert "the swap" not in con.out.getvalue()


def test_question_mark_lists_thirty_plays_and_two_list_them_all():
    """A free lead of 17 cards (73 plays): '?' lists 30 and says how many more, '??' lists them
    all (the rest could not be seen)."""
    v = make_view("3D 3C 3H 4D 4C 5S 5H 6D 7C 8S 9H TD JC QS KH AD 2S", {"players": 3}, cards_left=(17, 17, 17))
    con = _console(["?", "??", "3D"])
    P.HumanPolicy(con).choose(v)
    lines = [x for x in con.out.getvalue().splitlines() if x.startswith("legal: ")]
    n = len(v.options)
    assert n > 30 and lines[0].endswith(f"... {n - 30} more (?? lists them all)")
    assert len(lines[1].split(", ")) == n and "more" not in lines[1]
