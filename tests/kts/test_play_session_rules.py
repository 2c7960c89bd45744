"""``kaptai play kap-tai-shap`` deals every hand afresh with seat 0 dealing (as ``simulate``): the
session rules (the dealer streak, a carried pot) are refused by name, not silently ignored, and the
person is told so at a session of several hands; two players are told they play Kap Shap."""

from __future__ import annotations

import argparse
import io

import pytest

from kaptai.cli import main
from kaptai.core.play import Console
from kaptai.games import game as lookup
from kaptai.kts import play as P


@pytest.mark.parametrize("option", ["drawn_hand=carry", "drawn_hand=refund", "dealer_keeps_on_win=true"])
def test_session_rules_are_refused_before_any_work(option, capsys):
    assert main(["play", "kap-tai-shap", "--rules", "advanced", "-o", option]) == 2
    err = capsys.readouterr()
    assert err.out == "" and len(err.err.strip().splitlines()) == 1
    assert f"does not use the rule option '{option.split('=')[0]}'" in err.err
    assert "play deals every hand afresh with seat 0 dealing" in err.err


def _banner(players: int, hands: int) -> str:
    out = io.StringIO()
    args = argparse.Namespace(rules=None, option=None, players=players, seat=0, ascii=True, hints=False,
                              opponents="greedy", hands=hands, seed=0, record=None)
    P.play_command(args, lookup("kap-tai-shap"), console=Console(ascii=True, lines=["quit"], out=out))
    return out.getvalue().splitlines()[0]


def test_the_banner_says_how_a_session_is_dealt_and_names_kap_shap():
    assert "the deal does not pass, and no dealer streak" in _banner(4, 3)
    assert "dealer streak" not in _banner(4, 1)
    assert _banner(2, 1).startswith("Kap Shap, 2 players") and _banner(4, 1).startswith("Kap Tai Shap, 4 players")
