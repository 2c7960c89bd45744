"""The advisor refuses positions that cannot occur under the rules in force, and accepts every
position of a game actually played (kaptai.bigtwo.advisor: _check_lowest, _opening_counts,
_check_leader, _check_counts, _check_choices and the checks of _replay)."""

from __future__ import annotations

import numpy as np
import pytest

from kaptai.bigtwo.advisor import (_history_items, _history_position, _position, _view_position, advise, out_of_play,
                                   typed_history)
from kaptai.bigtwo.cards import N_CARDS, format_cards
from kaptai.bigtwo.config import make_config
from kaptai.bigtwo.engine_reference import Game
from kaptai.core.sampling import RandomStream
from kaptai.errors import RulesError

H12 = "4C 5H 6S 7D 9D 9C TS JS QS KH AH 2D"        # no 3D
H13 = H12 + " 2C"
H17 = H13 + " 2H 2S 8S 8H"
M3 = {"players": 3, "malaysian_3p": True}
FREE = {"opening_must_include_lowest": False}


def _cards(m: int) -> str:
    return format_cards([c for c in range(N_CARDS) if m >> c & 1])


# ---------------------------------------------------------------- refusals (each accepted before)
REFUSED = [
    # the opening play (the only play) without the lowest card
    (dict(hand=H12 + " 3S", to_beat="4D", by=3), r'the play to beat "4D" is the only play of the hand.*must hold "3D"'),
    (dict(hand=H12 + " 3S", to_beat="4D", by=1, rules={"suit_order": "taiwan"}), r'must hold "3C"'),
    (dict(hand=H12 + " 3S", to_beat="3D", by=1, rules={"top_rank": "3"}), r'must hold "4D"'),
    # the lowest card on the table after other plays
    (dict(hand=H12, to_beat="3D", by=2, played="5D 6D"), r'the play to beat "3D" holds "3D", but "5D 6D" was played'),
    (dict(hand=H17, rules=M3, to_beat="3D", played="5S", by=2, cards_left=(17, 15)), r'"3D" can only be in the opening'),
    # the lowest card in the hand after plays
    (dict(hand="3D " + H12, to_beat="5D", by=3, played="4D"), r'you hold "3D", but the cards played \("4D"\)'),
    (dict(hand="3D " + H17[3:], rules=M3, to_beat="5S", by=2, cards_left=(17, 16)), r'you hold "3D"'),
    (dict(hand="3D " + H12, to_beat="5S", by=3, rules=FREE), r'you hold "3D", but the play to beat \("5S"\)'),
    # cards played, the lowest card not among them
    (dict(hand=H12, to_beat="8S", by=3, played="4D 5D"), r'"3D" is neither in your hand nor among'),
    (dict(hand=H12, played="3S"), r'"3D" is neither in your hand nor among the cards played \("3S"\)'),
    # only the opening played: the counts follow
    (dict(hand=H13, to_beat="3D", by=3, cards_left=(12, 13, 13)), r"cards_left of seat 1 is 12.*seat 1 holds 13"),
    (dict(hand=H12, to_beat="3D", by=3), r"you hold the 13 cards you were dealt.*not 12"),
    # history: the first leader is the lowest card's holder
    (dict(hand="3D " + H12[3:] + " 2C", history="5S, 8D, pass", rules=FREE), r'you hold "3D", so the first play'),
    (dict(hand=H13.replace("4C ", ""), history="4C, 8D, pass, pass", rules=FREE),
     r'make you the first to play, so you held "3D"'),
    (dict(hand=H13, history="5S, 8S, 9S, pass, pass, pass, 3D", rules=FREE), r'"3D" was played by seat 3'),
    (dict(hand="3D " + H17[3:], rules=M3, history="5S, 8D", cards_left=(16, 16)), r'you hold "3D", so the first play'),
    (dict(hand="3D " + H17[3:], rules=M3, history="3C 3H, pass, pass, 5S, 8D", cards_left=(14, 16)),
     r'you hold "3D", so the first play'),
    # history: the lowest card later than the opening play (malaysian_3p: not caught as a repeat)
    (dict(hand=H17.replace(" 8H", ""), rules=M3, history="5S, 8D, pass, pass, 3D 3C, 4H 4S", cards_left=(16, 14)),
     r'history item 5 \("3D 3C"\): "3D" can only be in the opening play'),
    # history with counts it contradicts
    (dict(hand=H13, history="3D, 4D", cards_left=(12, 13, 12)), r"cards_left of seat 1 is 12 and it played 0"),
    (dict(hand=H17, rules=M3, history="5S, 8D", cards_left=(17, 15)), r"cards_left of seat 1 is 17 and it played 1"),
    (dict(hand=H17, players=3, history="3D, 5S", cards_left=(18, 15)), r"cards_left of seat 1 is 18 and it played 1"),
    # history: a seat going out with the cards it was dealt (not the leader: no leftover card); refused
    # before too, later, as a seat with 0 cards left
    (dict(hand="3S " + H17[3:], players=3,
          history="3D, 4D, pass, pass, 4H 4C 4S 5C 5D, pass, pass, 6D 6H 6C 7C 7H, pass, pass, "
                  "9S 9H TH TD TC, pass, pass, JD"),
     r'history item 14 \("JD"\): seat 2 \(counted from you\) has played 17 cards, all 17'),
    # history: pass_only_if_unable, a pass by a seat that held (played later) a beating card
    (dict(hand=H12.replace("4C ", ""), history="3D, 5S, 7C, pass, pass, pass, 8C, 2S, pass, pass",
          rules={"pass_only_if_unable": True}), r'history item 4 \(pass\): seat 1 .* held "2S", which beats "7C"'),
    (dict(hand=H13, history="3D, 9S, pass, pass, pass, 4S", rules={"pass_only_if_unable": True}),
     r'history item 3 \(pass\): you held "[^"]+", which beats "9S"'),
]


@pytest.mark.parametrize("kwargs,match", REFUSED)
def test_impossible_positions_are_refused(kwargs, match):
    with pytest.raises(RulesError, match=match):
        advise(samples=1, **kwargs)


@pytest.mark.parametrize("rule,violation", [("top_rule", "liability"), ("pass_only_if_unable", False)])
def test_illegal_choices_of_real_games_are_refused(rule, violation):
    """Games played where a choice is legal (頂大 with liability, voluntary passes) give histories
    that the stricter rule refuses once the chooser is seen holding what it had to play."""
    strict = {"top_rule": "mandatory"} if rule == "top_rule" else {"pass_only_if_unable": True}
    found = 0
    for cfg, v in _views(3, {rule: violation}, "policy", "random", hands=12, seed=5):
        if not v.history:
            continue
        scfg = make_config(3, {"redeal": "off", **strict})
        try:
            _history_position(scfg, v.hand, _history_items(typed_history(v)), None)
        except RulesError as exc:
            assert ("頂大" in str(exc)) == (rule == "top_rule"), exc
            assert ("pass_only_if_unable" in str(exc)) == (rule != "top_rule"), exc
            found += 1
    assert found > 0


def test_readme_history_is_accepted():
    df = advise(H12, history="3D, 8D, pass, KD, pass, pass, pass", samples=1)
    assert df.attrs["cards_left"] == [12, 12, 12, 13]   # you played KD


def test_refusals_reach_the_cli_as_one_line(capsys):
    from kaptai.cli import main
    assert main(["advise", "big-two", H12, "--to-beat", "3D", "--by", "2", "--played", "5D 6D"]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and err[0].startswith("kaptai: error: this position cannot occur") and '"3D"' in err[0]


# ---------------------------------------------------------------- possible positions are accepted
CONFIGS = [
    ("default", 4, {}, "policy", "heuristic"),
    ("winner_takes_all", 4, {"settlement": "winner_takes_all"}, "policy", "random"),
    ("3 players", 3, {}, "policy", "random"),
    ("malaysian swap", 3, {"malaysian_3p": True}, "always", "random"),
    ("malaysian no swap", 3, {"malaysian_3p": True}, "never", "greedy"),
    ("malaysian policy", 3, {"malaysian_3p": True}, "policy", "heuristic"),
    ("four-card plays", 4, {"four_card_play": "quad_or_two_pair", "two_pair_five": False}, "policy", "random"),
    ("top mandatory", 4, {"top_rule": "mandatory"}, "policy", "random"),
    ("top mandatory 3p", 3, {"top_rule": "mandatory"}, "policy", "greedy"),
    ("top off", 4, {"top_rule": "off", "straight_order": "sequential"}, "policy", "random"),
    ("pass only if unable", 4, {"pass_only_if_unable": True}, "policy", "random"),
    ("pass locks out", 4, {"pass_locks_out": True}, "policy", "random"),
    ("previous winner", 4, {"first_lead": "previous_winner"}, "policy", "random"),
    ("previous winner 3p", 3, {"first_lead": "previous_winner"}, "policy", "greedy"),
    ("free opening", 4, {"opening_must_include_lowest": False}, "policy", "random"),
    ("free opening 5p", 5, {"opening_must_include_lowest": False}, "policy", "random"),
    ("taiwan, big 3", 4, {"suit_order": "taiwan", "top_rank": "3"}, "policy", "random"),
    ("5 players", 5, {"two_pair_five": True, "quad_kicker": "optional"}, "policy", "random"),
    ("2 players", 2, {}, "policy", "heuristic"),
    ("7 players", 7, {"pass_only_if_unable": True, "top_rule": "mandatory"}, "policy", "random"),
]


def _views(players, rules, swap, policy, hands, seed):
    cfg = make_config(players, {"redeal": "off", **rules}, malaysian_swap=swap)
    stream = RandomStream(np.random.PCG64(seed))
    prev = -1
    for _ in range(hands):
        g = Game(cfg, policy, stream, previous_winner=prev)
        while not g.over:
            if g.trick is not None and g.locked[g.seat]:
                g.step()
                continue
            yield cfg, g.view()
            g.step()
        prev = g.winner


@pytest.mark.parametrize("name,players,rules,swap,policy", CONFIGS, ids=[c[0] for c in CONFIGS])
def test_played_positions_are_accepted(name, players, rules, swap, policy):
    n = 0
    for cfg, v in _views(players, rules, swap, policy, hands=6, seed=len(name)):
        N, s = v.players, v.seat
        left = tuple(v.cards_left[(s + j) % N] for j in range(1, N))
        _view_position(v, 1, 0)                       # kaptai review / play's hint
        tm = 0 if v.leading else v.trick_mask
        out = (v.played | out_of_play(v)) & ~tm
        by = (v.trick_seat - s) % N if tm else None
        typed = dict(hand=format_cards(v.hand), played=_cards(out), to_beat=_cards(tm) if tm else None, by=by)
        _position(cfg, v.hand, tuple(c for c in range(N_CARDS) if out >> c & 1),
                  tuple(c for c in range(N_CARDS) if tm >> c & 1), by, left, bool(tm))
        if v.history:
            items = _history_items(typed_history(v))
            hidden = v.dead or (cfg.leftover and (cfg.rules.malaysian_3p or cfg.rules.first_lead != "lowest_card"))
            if not hidden:
                _history_position(cfg, v.hand, items, None)
            try:  # the counts given: checked against the history (a swapped-out 3D is not typed: unseen)
                _history_position(cfg, v.hand, items, left)
            except RulesError as exc:
                if "fit more than one first leader" not in str(exc):  # pass_locks_out: ambiguous, not impossible
                    raise
        if n % 25 == 0:  # the public path, end to end
            advise(samples=1, rules=cfg.rules, players=N, cards_left=left, **typed)
        n += 1
    assert n > 50
