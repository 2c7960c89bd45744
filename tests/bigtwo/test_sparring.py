"""The sparring agent of benchmarks/bigtwo_sparring.py (issue 31): legal play under both rule sets
of its duels, an exact decomposition, 頂大, and strength against a random field."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

from kaptai.bigtwo.cards import cards_to_mask, parse_cards
from kaptai.bigtwo.config import make_config
from kaptai.bigtwo.engine_reference import make_view

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "benchmarks"))
import bigtwo_sparring as B  # noqa: E402


def _units(text, rules=None):
    cfg = make_config(4, rules or {})
    T = B._tables(cfg.rules)
    m = cards_to_mask(parse_cards(text))
    return sorted(str(e[3]) for e in T.plan(m, T.entries(m))[1])


def test_decomposition_takes_the_fewest_units():
    assert _units("3D 4C 5H 6S 7D 9C 9H") == ["3D 4C 5H 6S 7D", "9C 9H"]
    assert _units("3D 3C 3H 8S 8D KD") == ["3D 3C 3H 8D 8S", "KD"]
    # two pairs are one unit only where the rules allow four-card plays
    assert len(_units("5D 5C 9H 9S", {"four_card_play": "quad_or_two_pair"})) == 1
    assert len(_units("5D 5C 9H 9S")) == 2


def test_blocks_a_seat_on_one_card():
    # 頂大 (default top_rule='liability'): the next seat holds one card, a single must be our top
    v = make_view("4D 9S KH 2S", trick="8D", cards_left=(4, 1, 13, 13), trick_seat=3)
    assert str(B.SparringPolicy().choose(v)) == "2S"
    # leading with a seat on one card: a pair, not a single it could beat
    v = make_view("4D 7C 7S KH", cards_left=(4, 5, 1, 13))
    assert str(B.SparringPolicy().choose(v)) == "7C 7S"


@pytest.mark.parametrize("rules", ["default", "outside"])
def test_plays_legal_games_and_beats_random(rules):
    # every choice goes through the reference engine's legality check; 12 deals x 4 seats
    r = B.duel(12, 5, rules, "field", "random")
    assert r["ev"] > 0, r["ev"]


def test_advisor_history_duel_pairs_its_arms():
    """benchmarks/bigtwo_advise_history.py: both arms play the same decks; the history arm at pool 8
    is the same player as ``--compare-pool``'s pool-8 arm (the same numbers), and the patched pool
    is put back."""
    import bigtwo_advise_history as H

    from kaptai.bigtwo import advisor

    base = advisor.make_config
    plain = H.duel(2, 5, "default", "greedy", 8)
    pools = H.duel(2, 5, "default", "greedy", 8, pools=(8, 16))
    assert advisor.make_config is base
    assert set(plain) == {"plain", "history", "secs"} and set(pools) == {8, 16, "secs"}
    assert (pools[8] == plain["history"]).all()
