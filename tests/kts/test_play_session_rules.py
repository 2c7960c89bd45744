"""``kaptai play kap-tai-shap`` plays a session as the rules have it (§5): seat 0 deals the first
hand and the deal passes to the next seat after every hand, unless the dealer wins and keeps it
under ``dealer_keeps_on_win`` (連莊, a win after a streak of k such wins scoring +2k); a drawn
hand's pot is carried under ``drawn_hand='carry'``.  The record says the table's seats, the streak
and the pot of every hand; ``kaptai replay`` checks them; ``kaptai review --seat N`` is the
table's seat.  Two players are told they play Kap Shap."""

from __future__ import annotations

import argparse
import io
import json
import re

import pytest

from kaptai.core.play import Console
from kaptai.core.records import RecordError, make_header, write_record
from kaptai.games import game as lookup
from kaptai.kts import play as P
from kaptai.kts.config import make_config
from kaptai.kts.records import Passing, hand_events, replay, unit_of


def _banner(players: int, hands: int, option=None) -> str:
    out = io.StringIO()
    args = argparse.Namespace(rules=None, option=option, players=players, seat=0, ascii=True, hints=False,
                              opponents="greedy", hands=hands, seed=0, record=None)
    P.play_command(args, lookup("kap-tai-shap"), console=Console(ascii=True, lines=["quit"], out=out))
    return out.getvalue().splitlines()[0]


def test_the_banner_says_how_the_deal_passes_and_names_kap_shap():
    b = _banner(4, 3)
    assert "Seat 0 deals the first hand; the deal passes to the next seat after every hand." in b, b
    keep = _banner(4, 3, [("dealer_keeps_on_win", True), ("drawn_hand", "carry")])
    assert "unless the dealer wins and keeps it; a dealer's win after a streak of k such wins scores +2k" in keep
    assert "a drawn hand's pot is carried into the next hand" in keep and "??" not in keep
    assert _banner(2, 1).startswith("Kap Shap, 2 players") and _banner(4, 1).startswith("Kap Tai Shap, 4 players")


def test_the_session_rules_are_taken_by_play(capsys, monkeypatch):
    """No longer refused: the options play a session as the rules page has it."""
    from kaptai.cli import main

    for option in ("drawn_hand=carry", "dealer_keeps_on_win=true"):
        monkeypatch.setattr("sys.stdin", io.StringIO("quit\n"))
        assert main(["play", "kap-tai-shap", "--hands", "1", "--ascii", "-o", option]) == 0, option
        out = capsys.readouterr()
        assert "does not use the rule option" not in out.err and "Seat 0 deals the first hand" in out.out


def _session(rules, hands: int, seed: int, policies="greedy", players: int = 4):
    cfg = make_config(players, rules)
    return cfg, list(hand_events(players, cfg.rules, policies=policies, hands=hands, seed=seed, passing=True))


def _expected_states(cfg, hands):
    """The rules' rotation, streak and pot, derived here from each hand's winner and outcome."""
    P_, keeps, carry = cfg.players, cfg.rules.dealer_keeps_on_win, cfg.rules.drawn_hand == "carry"
    dealer, streak, pot, out = 0, 0, 0.0, []
    for evs in hands:
        out.append((dealer, streak, pot))
        w = evs[-1]["winner"]  # the hand's seat: 0 is the dealer
        if w == 0 and keeps:
            streak += 1
        else:
            dealer, streak = (dealer + 1) % P_, 0
        pot = (pot + P_ if w < 0 else 0.0) if carry else 0.0
    return out


@pytest.mark.parametrize("rules,policies,seed", [
    ("advanced", "greedy", 0),
    ({"name": "traditional", "dealer_keeps_on_win": True}, "greedy", 3),
    ({"name": "traditional", "drawn_hand": "carry"}, "random", 0),
    ({"name": "advanced", "drawn_hand": "carry"}, "random", 0),
])
def test_the_deal_passes_the_streak_scores_and_the_pot_carries(rules, policies, seed, tmp_path):
    cfg, hands = _session(rules, 30, seed, policies)
    want = _expected_states(cfg, hands)
    P_ = cfg.players
    bonuses = carried = 0
    for evs, (dealer, streak, pot) in zip(hands, want):
        deal, settle = evs[0], evs[-1]
        assert deal["seats"] == [(dealer + e) % P_ for e in range(P_)]
        assert deal.get("streak", 0) == streak and ("streak" in deal) == cfg.rules.dealer_keeps_on_win
        assert deal.get("pot", 0.0) == pytest.approx(pot) and ("pot" in deal) == (cfg.rules.drawn_hand == "carry")
        w = settle["winner"]
        engine_score = next((e["score"] for e in evs if e["type"] in ("natural", "claim_win", "self_drawn_win")), 0)
        bonus = 2 * streak if w == 0 and cfg.rules.dealer_keeps_on_win else 0
        assert settle["score"] == engine_score + bonus and settle.get("bonus", 0) == bonus
        bonuses += bonus > 0
        carried += pot > 0
        # money: the seats' nets, the house and the pot balance; the result is by the table's seat
        res = settle["result"]
        assert sum(res) + settle["house"] + settle.get("pot", 0.0) - pot == pytest.approx(0, abs=1e-9)
        if w >= 0:
            assert max(res) == res[deal["seats"][w]]
    if cfg.rules.dealer_keeps_on_win:
        assert bonuses >= 1
    if cfg.rules.drawn_hand == "carry":
        assert carried >= 1
    # the record replays, its totals by the table's seat
    path = tmp_path / "s.jsonl"
    write_record(path, make_header("kap-tai-shap", cfg.rules.to_dict(), P_, ["x"] * P_, unit_of(cfg.rules),
                                   seed=seed, hands=30), iter(hands))
    s = replay(path)
    assert s.totals == pytest.approx([sum(h[-1]["result"][k] for h in hands) for k in range(P_)])


def _write(tmp_path, cfg, hands, name="s.jsonl"):
    path = tmp_path / name
    write_record(path, make_header("kap-tai-shap", cfg.rules.to_dict(), cfg.players, ["x"] * cfg.players,
                                   unit_of(cfg.rules), seed=0, hands=len(hands)), iter(hands))
    return path


def _tampered(tmp_path, cfg, hands, hand, key, value):
    lines = _write(tmp_path, cfg, hands).read_text().splitlines()
    at = [i for i, x in enumerate(lines) if json.loads(x).get("type") == "deal"][hand]
    e = json.loads(lines[at])
    e[key] = value
    lines[at] = json.dumps(e, ensure_ascii=False)
    p = tmp_path / "t.jsonl"
    p.write_text("\n".join(lines) + "\n")
    return p


def test_replay_checks_the_rotation_the_streak_and_the_pot(tmp_path):
    cfg, hands = _session({"name": "traditional", "dealer_keeps_on_win": True, "drawn_hand": "carry"}, 20, 0,
                          "random")
    states = _expected_states(cfg, hands)
    k = next(i for i in range(1, 20) if states[i][1] > 0 or states[i][2] > 0)
    dealer, streak, pot = states[k]
    wrong_seats = [(dealer + 1 + e) % 4 for e in range(4)]
    with pytest.raises(RecordError, match="deals, but after hand"):
        replay(_tampered(tmp_path, cfg, hands, k, "seats", wrong_seats))
    with pytest.raises(RecordError, match="the hand's seats are the dealer then the seats after it"):
        replay(_tampered(tmp_path, cfg, hands, k, "seats", [dealer, (dealer + 2) % 4, (dealer + 1) % 4,
                                                             (dealer + 3) % 4]))
    with pytest.raises(RecordError, match="streak"):
        replay(_tampered(tmp_path, cfg, hands, k, "streak", streak + 1))
    with pytest.raises(RecordError, match="pot"):
        replay(_tampered(tmp_path, cfg, hands, k, "pot", pot + 4))
    with pytest.raises(RecordError, match="seat 0 deals"):
        replay(_tampered(tmp_path, cfg, hands, 0, "seats", [1, 2, 3, 0]))
    # a record names the seats in every deal or in none
    lines = _write(tmp_path, cfg, hands).read_text().splitlines()
    at = [i for i, x in enumerate(lines) if json.loads(x).get("type") == "deal"][3]
    e = json.loads(lines[at])
    for key in ("seats", "streak", "pot"):
        e.pop(key, None)
    lines[at] = json.dumps(e, ensure_ascii=False)
    (tmp_path / "u.jsonl").write_text("\n".join(lines) + "\n")
    with pytest.raises(RecordError, match="in every hand's deal or in none"):
        replay(tmp_path / "u.jsonl")


def test_passing_state_doctest_agrees_with_sessions():
    """The rule of :class:`Passing` is the sessions' (kaptai.kts.sessions): the deal stays only with
    a winning dealer under dealer_keeps_on_win."""
    adv, trad = make_config(4, "advanced"), make_config(4, "traditional")
    assert Passing(1, 2, 0.0).after(adv, 0, 0.0) == Passing(1, 3, 0.0)
    assert Passing(1, 2, 0.0).after(trad, 0, 0.0) == Passing(2, 0, 0.0)
    assert Passing(3, 0, 0.0).after(adv, -1, 8.0) == Passing(0, 0, 8.0)
    assert Passing(1, 2, 0.0).bonus(adv, 0) == 4 and Passing(1, 2, 0.0).bonus(adv, 1) == 0


def test_review_seat_is_the_table_seat(tmp_path):
    """A decision's seat is the table's; --seat N reviews the table's seat N in every hand."""
    from kaptai.records import read_record

    cfg, hands = _session("traditional", 4, 2)
    rec = read_record(_write(tmp_path, cfg, hands))
    ds = list(P.decisions(rec))
    assert ds
    for d in ds:
        seats = rec.hands[d.hand].deal["seats"]
        assert d.seat == seats[d.view.seat]
    assert {d.seat for d in ds if d.hand == 1} and any(d.seat != d.view.seat for d in ds if d.hand > 0)


def test_the_person_hears_the_table_seats(tmp_path):
    """A played session: each hand says who deals; the seats named are the table's (the person's
    own seat never changes) and the record of the session replays."""
    from tests.kts.test_play_result import _auto

    out = io.StringIO()
    con = Console(ascii=True, lines=_auto(out), out=out)
    rec = str(tmp_path / "k.jsonl")
    args = argparse.Namespace(rules="advanced", option=None, players=4, seat=2, ascii=True, hints=False,
                              opponents="greedy", hands=5, seed=3, record=rec)
    P.play_command(args, lookup("kap-tai-shap"), console=con)
    text = out.getvalue()
    heads = [x for x in text.splitlines() if re.match(r"hand \d+: (you deal|seat \d+ deals)", x)]
    assert len(heads) == 5 and heads[0].startswith("hand 0: seat 0 deals")
    assert all("you are seat 2," in x for x in text.splitlines() if x.startswith("-- Kap Tai Shap, you are seat"))
    s = replay(rec)
    assert s.hands == 5
    from kaptai.records import read_record

    record = read_record(rec)
    for i, hand in enumerate(record.hands):
        d = hand.deal["seats"][0]
        assert heads[i].startswith(f"hand {i}: " + ("you deal" if d == 2 else f"seat {d} deals"))
