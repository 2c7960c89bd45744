"""The hint at ``kaptai play nantong``'s claim prompt (pong / kong / win on a discard).

* through the real play loop: ``hint`` at a claim prompt lists exactly the answers the prompt
  takes, each with its value and P(win), best first, and the hinted label typed is taken;
* the answers are priced as the search prices a claim (the review's layouts, the seat's answer
  forced, ``max_melds`` after): pass and kong equal the engine's own forced replay layout by
  layout; a pong is followed by the review's best discard on the position after the pong, which
  is the engine's;
* ``--hints`` shows it before the prompt, hints off does not, ``--ascii`` gives codes only, the
  same position gives the same hint; a kong that may be robbed gets no hint, said so.
"""

from __future__ import annotations

import argparse
import dataclasses
import io
import re

import numpy as np
import pytest

from kaptai.core.play import Console
from kaptai.core.sampling import RandomStream
from kaptai.nantong import engine_reference as er
from kaptai.nantong import play as P
from kaptai.nantong import claims as RS
from kaptai.nantong.config import NET_SCALE
from kaptai.nantong.policies import Policy, PlayerView, builtin_discard
from kaptai.nantong.rules import resolve_rules

_HINT = re.compile(r"(\d)\. (\S+)  value (\S+)( points)? P\(win\) (\d+)%")


class _Grab(Policy):
    """Seat 0 at a table of :func:`kaptai.nantong.play.hand_events`: max_melds' discards, keeps
    every claim view, answers ``answer`` when it is open (else ``pass``)."""

    name = "grab"

    def __init__(self, answer: str = "pass"):
        self.answer, self.got, self.discards = answer, [], []

    def discard(self, view):
        self.discards.append(view)
        return builtin_discard(0, list(view.hand), False, None)

    def claim(self, view, kind, options):
        self.got.append((view, kind, options))
        return self.answer if self.answer in options else "pass"

    def self_win(self, view):
        return True

    def self_kong(self, view, options):
        return None

    def qishou(self, view, meld):
        return True


@pytest.fixture(scope="module")
def claims():
    pol = _Grab()
    for seed in range(12):
        list(P.hand_events(3, resolve_rules(None), [pol, "max_melds", "max_melds"], hands=1, seed=seed))
    return pol.got


def test_hint_at_a_claim_prompt_through_the_play_loop(tmp_path):
    from kaptai.games import game as lookup
    from kaptai.records import read_record

    out = io.StringIO()
    hinted: list[tuple[list[str], str]] = []

    def lines():
        while True:
            yield "?"
            listed = [x for x in out.getvalue().splitlines() if x.startswith("legal: ")][-1]
            legal = listed[len("legal: "):].split(", ")
            if "pass" not in legal:  # not a claim prompt
                yield legal[0]
                continue
            yield "hint"
            hint = out.getvalue().splitlines()[-1]
            rows = _HINT.findall(hint)
            assert hint.startswith("hint (advisor): ") and rows, out.getvalue()[-2000:]
            hinted.append((legal, hint))
            yield rows[0][1]  # the best answer, typed as the hint labels it

    con = Console(ascii=True, lines=lines(), out=out)
    rec = str(tmp_path / "g.jsonl")
    args = argparse.Namespace(rules=None, option=None, players=3, seat=0, ascii=True, hints=False,
                              opponents="max_melds", hands=1, seed=4, record=rec)
    P.play_command(args, lookup("nantong"), console=con)
    text = out.getvalue()
    assert hinted and "no hint at this decision" not in text and "refused" not in text
    typed = []
    for legal, hint in hinted:
        rows = _HINT.findall(hint)
        assert sorted(r[1] for r in rows) == sorted(legal), hint  # every answer the prompt takes, nothing else
        assert [int(r[0]) for r in rows] == list(range(1, len(legal) + 1))
        values = [float(r[2]) for r in rows]
        assert values == sorted(values, reverse=True) and all(0 <= v <= 1 and not r[3] for v, r in zip(values, rows))
        typed.append(rows[0][1])
    evs = read_record(rec).hands[0].events
    assert [e["choice"] for e in evs if e["type"] == "claim" and e["seat"] == 0] == typed


def _replayed(cfg, st, seat, cur, kind, layouts, seed):
    """The layouts the claim pricing draws, each back to before the discard."""
    stream = RandomStream(np.random.PCG64(seed))
    h = er._from_state(dataclasses.replace(cfg, samples=layouts), st, stream)
    parts, pools, w, total, _ = h._particles(seat, stream)
    for c in er._resample(stream, w, total, layouts):
        smp = h._layout(parts[c], pools[c], stream, "test")
        smp.c[cur][kind] += 1
        smp.pub[kind] -= 1
        smp.discards -= 1
        smp.discard_log.pop()
        yield h, smp


def test_answers_are_priced_as_the_search_prices_a_claim(claims):
    checked = set()
    for view, kind, options in claims:
        if "win" in options:  # the engine's forced answer leaves a win to the seat's policy
            continue
        cfg, st = view.extra["position"]
        cur = view.extra["claim_of"][0]
        labels, nets, wins, after = RS.claim_values(cfg, st, view.seat, cur, kind, options, 4, 5)
        assert labels == list(options) and nets.shape == wins.shape == (len(options), 4)
        assert after is not None and st["c"][view.seat][after] - 2 * (after == kind) >= 1
        for t, (h, smp) in enumerate(_replayed(cfg, st, view.seat, cur, kind, 4, 5)):
            for i, a in enumerate(labels):
                if a in ("pass", "kong"):
                    want = h._rollout(smp._clone(), view.seat, cur, kind, view.seat, er._CLAIMS.index(a))
                    assert round(nets[i, t] * NET_SCALE) == want, (a, t)
                    checked.add(a)
        if checked == {"pass", "kong"}:
            break
    assert checked == {"pass", "kong"}


def test_a_pong_is_followed_by_the_review_s_best_discard_on_the_engine_s_position():
    from kaptai.nantong.records import hand_events

    states = {}

    class _Keep(P._table_hand()):
        def view(self, s, last=None):
            v = super().view(s, last)
            v.extra["state"] = er.hand_state(self)
            return v

    pol = _Grab("pong")
    compared = 0
    for seed in range(6):
        pol.got.clear()
        pol.discards.clear()
        next(hand_events(3, None, policies=[pol, "max_melds", "max_melds"], hands=1, seed=seed,
                               hand_class=_Keep))
        for view, kind, options in pol.got:
            if "pong" not in options or "win" in options:
                continue
            st = view.extra["position"][1]
            nxt = next((d for d in pol.discards if d.extra["state"]["discards"] == st["discards"]), None)
            if nxt is None:  # another seat completed on the discard
                continue
            want = nxt.extra["state"]
            got = RS.after_pong(st, view.seat, kind)
            assert {k: got[k] for k in er.STATE_FIELDS} == {k: [tuple(x) for x in want[k]] if k == "rec" else want[k]
                                                           for k in er.STATE_FIELDS}
            compared += 1
            states[compared] = (view, kind, options, got)
    assert compared >= 2
    view, kind, options, post = states[1]
    cfg = view.extra["position"][0]
    labels, nets, wins, after = RS.claim_values(cfg, view.extra["position"][1], view.seat,
                                                view.extra["claim_of"][0], kind, options, 4, 9)
    best = RS.answer(*RS.discard_values(cfg, post, view.seat, 4,
                                        np.random.PCG64(np.random.SeedSequence(9, spawn_key=(1,)))))["labels"][0]
    assert P.show(after, True) == best


def _pong_claim(claims):
    return next((v, k, o) for v, k, o in claims if "pong" in o)


@pytest.mark.parametrize("ascii", [True, False])
def test_hints_on_show_it_before_the_prompt_and_ascii_gives_codes(claims, ascii):
    view, kind, options = _pong_claim(claims)
    out = io.StringIO()
    pol = P.HumanPolicy(Console(ascii=ascii, lines=["pass"], out=out, hints=True), resolve_rules(None), 3,
                        hint_samples=8)
    assert pol.claim(view, kind, options) == "pass"
    text = out.getvalue()
    hint = next(x for x in text.splitlines() if x.startswith("hint (advisor): "))
    assert text.index(hint) < text.index(f"answer ({'/'.join(options)})> pass")
    assert sorted(r[1] for r in _HINT.findall(hint)) == sorted(options)
    after = re.search(r"\(after a pong, discard (\S+)\)$", hint).group(1)
    assert after.isascii() == ascii and text.isascii() == ascii
    # the same position, the same hint (seeded from it)
    assert P.claim_hint(view, kind, options, resolve_rules(None), samples=8, seed=view.stock_left,
                        ascii=ascii) == hint


def test_hints_off_show_none_until_asked_and_points_under_a_net_settlement(claims):
    view, kind, options = _pong_claim(claims)
    out = io.StringIO()
    pol = P.HumanPolicy(Console(ascii=True, lines=["pass"], out=out), resolve_rules(None), 3, hint_samples=8)
    pol.claim(view, kind, options)
    assert "hint" not in out.getvalue().replace("'hint'", "")
    text = P.claim_hint(view, kind, options, resolve_rules(None, settlement="pairwise_difference"), samples=8,
                        seed=1)
    assert all(r[3] == " points" for r in _HINT.findall(text)), text


def test_a_kong_to_rob_or_a_view_without_position_gets_no_hint():
    hand = [0] * 30
    hand[3] = 2
    view = PlayerView(seat=0, hand=tuple(hand), melds=((), (), ()), discards=(), turned=(), stock_left=30,
                      extra={"claim_of": (1, "kong"), "position": (None, None)})
    out = io.StringIO()
    pol = P.HumanPolicy(Console(ascii=True, lines=["hint", "pass"], out=out), resolve_rules(None), 3)
    assert pol.claim(view, 3, ("win", "pass")) == "pass"
    assert "(no hint: the answers to a kong that may be robbed are not priced" in out.getvalue()
    bare = dataclasses.replace(view, extra={})
    out = io.StringIO()
    P.HumanPolicy(Console(ascii=True, lines=["hint", "pass"], out=out), resolve_rules(None), 3).claim(
        bare, 3, ("pong", "pass"))
    assert "(no hint: this table kept no position" in out.getvalue()
