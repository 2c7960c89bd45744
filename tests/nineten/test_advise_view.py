"""The nine-ten advisor on a view's whole public position (``advise_view``, play's hints, review).

* A reference-engine view carries the public position (:attr:`PlayerView.public`): at every
  decision of whole games under several rule sets, :func:`view_state` is the engine's own
  position as the deciding seat may know it, and the search's values on it are exactly the values
  on the engine's true state (the other seats' concealed cards are stand-ins the engines never
  read), in both engines.
* ``advise_view`` in both engines gives the same table; play's hints and the review use it.
"""

from __future__ import annotations

import numpy as np
import pytest

from kaptai.errors import KaptaiError
from kaptai.nineten import _engine, engine_reference
from kaptai.nineten.advisor import advise, advise_view, uses_history, view_state
from kaptai.nineten.config import make_config
from kaptai.nineten.engine import run_hands
from kaptai.nineten.policies import Policy


class _Colour(Policy):
    """colour_cut's rule as a user policy (a user seat makes the engine build views): the single
    of the colour with the fewest cards held, ties by the fewest unseen copies, then the lowest."""

    name = "user_colour_cut"

    def discard(self, view):
        held = [int(view.hand[7 * c:7 * c + 7].sum()) for c in range(4)]
        unseen = view.unseen()
        return min(view.options, key=lambda k: (held[k // 7], int(unseen[k]), k))


def _positions(monkeypatch, players, rules, hands, seed):
    """(view, the engine's true state for that seat) at every discard with two or more options."""
    got = []
    orig = engine_reference.Hand.view

    def spy(self, p, options, forced):
        v = orig(self, p, options, forced)
        if len(options) >= 2:
            got.append((v, engine_reference.hand_state(self.clone(), p)))
        return v

    monkeypatch.setattr(engine_reference.Hand, "view", spy)
    cfg = make_config(players, rules)
    pols = [_Colour() for _ in range(players)]
    run_hands(cfg, hands, np.random.PCG64(seed), pols)
    monkeypatch.setattr(engine_reference.Hand, "view", orig)
    return cfg, got


RULE_SETS = [(4, None), (5, {"discard_payer_covers_all": True}), (4, {"dead_card_order": "policy"}),
             (6, {"natural": "redeal"})]


@pytest.mark.parametrize("players,options", RULE_SETS)
def test_view_state_is_the_engines_position(monkeypatch, players, options):
    from kaptai.nineten.rules import resolve_rules

    rules = resolve_rules(None, **(options or {}))
    cfg, got = _positions(monkeypatch, players, rules, 6, 11 + players)
    assert len(got) >= 20
    with_events = 0
    for v, true in got:
        st = view_state(v)
        p = v.seat
        for key in ("exposed", "dead", "dead_seq", "waste", "cum"):
            assert np.array_equal(np.asarray(st[key]), np.asarray(true[key])), key
        assert list(st["offered"]) == list(true["offered"])
        assert (st["top"], st["dealer"], st["counter"]) == (true["top"], true["dealer"], true["counter"])
        assert np.array_equal(st["kz4"], np.asarray(true["kz4"]))
        assert [tuple(e[:3]) + (tuple(e[3]), tuple(e[4])) for e in st["events"]] == list(true["events"])
        assert np.array_equal(st["held"][p], np.asarray(true["held"][p]))
        sizes = np.asarray(true["held"]).sum(axis=1)
        assert np.array_equal(st["held"].sum(axis=1), sizes)
        assert (st["held"] <= 4).all() and (st["held"].sum(axis=0) + st["waste"] <= 4).all()
        with_events += bool(any(e[0] != p for e in st["events"]))
    assert with_events >= 10  # the inference has a record to read at most decisions


@pytest.mark.parametrize("players,options", RULE_SETS[:2])
def test_search_values_on_the_view_equal_the_true_state(monkeypatch, players, options):
    from kaptai.nineten.rules import resolve_rules

    cfg, got = _positions(monkeypatch, players, resolve_rules(None, **(options or {})), 3, 5)
    for i, (v, true) in enumerate(got[:12]):
        st = view_state(v)
        opts = list(v.options)
        a = _engine.search_values(cfg, st, v.seat, opts, 24, np.random.PCG64(i))
        b = _engine.search_values(cfg, true, v.seat, opts, 24, np.random.PCG64(i))
        assert all(np.array_equal(x, y) for x, y in zip(a, b))
        if i < 4:
            c = engine_reference.search_values(cfg, st, v.seat, opts, 24, np.random.PCG64(i))
            assert all(np.array_equal(x, y) for x, y in zip(a, c))


def test_advise_view_compiled_equals_reference_and_differs_from_the_typed_position(monkeypatch):
    cfg, got = _positions(monkeypatch, 4, None, 2, 3)
    v = next(v for v, _ in got if any(e[0] != v.seat for e in v.public["events"]) and v.exposed.sum())
    a = advise_view(v, samples=16, seed=2)
    b = advise_view(v, samples=16, seed=2, engine="reference")
    assert a[["discard", "ev", "p_win", "vs_best"]].equals(b[["discard", "ev", "p_win", "vs_best"]])
    assert sorted(a.discard) == sorted(__import__("kaptai.nineten.cards", fromlist=["x"]).format_card(k)
                                       for k in v.options)
    assert a.attrs["history"] and a.attrs["seat"] == v.seat and a.attrs["samples"] == 16
    off = advise_view(v, samples=16, seed=2, history=False)
    assert not off.attrs["history"] and not off[["discard", "ev"]].equals(a[["discard", "ev"]])
    from kaptai.nineten.cards import format_hand
    from kaptai.nineten.play import advice

    assert uses_history(v) and not uses_history(v, False)
    assert advice(v, None, 4, samples=16, seed=2).equals(a)
    typed = advise(format_hand(v.hand), samples=16, seed=2, **_typed_args(v))
    assert advice(v, None, 4, samples=16, seed=2, history=False).equals(typed)


def test_advise_view_refusals(monkeypatch):
    from dataclasses import replace

    _, got = _positions(monkeypatch, 4, None, 1, 3)
    v = got[0][0]
    with pytest.raises(KaptaiError, match="no public position"):
        advise_view(replace(v, public=None), samples=4)
    assert not uses_history(replace(v, public=None))
    with pytest.raises(KaptaiError, match="no discard"):
        advise_view(replace(v, options=()), samples=4)
    with pytest.raises(KaptaiError, match="seed"):
        advise_view(v, samples=4, seed=-1)
    with pytest.raises(KaptaiError, match="samples"):
        advise_view(v, samples=0)


# the typed position with the other seats' face-up cards (advise(exposed=...), --exposed)

def _typed_args(v):
    """A view typed as a user at the table would: the hand, the cards out of play, every seat's
    face-up cards in turn order from the player's own."""
    from kaptai.nineten.cards import format_hand

    N = v.exposed.shape[0]
    return dict(seen=format_hand(v.waste), exposed=[format_hand(v.exposed[(v.seat + j) % N]) for j in range(N)],
                players=N)


@pytest.mark.parametrize("players,options", RULE_SETS[:2])
def test_typed_exposed_counts_the_stock_right_at_every_decision(monkeypatch, players, options):
    """Typed with ``exposed``, every engine position is accepted and the advisor's stock is the
    engine's; the other seats' face-up cards typed among the cards seen (the advisor before
    ``exposed``) count the stock short, refused late in a hand."""
    from kaptai.nineten.cards import format_hand
    from kaptai.nineten.rules import resolve_rules
    from kaptai.nineten.play import _seen

    rules = resolve_rules(None, **(options or {}))
    _, got = _positions(monkeypatch, players, rules, 10, 21)
    short = 0
    for v, _ in got:
        df = advise(format_hand(v.hand), rules=rules, samples=2, **_typed_args(v))
        assert df.attrs["stock"] == v.stock_left
        try:
            old = advise(format_hand(v.hand), seen=format_hand(_seen(v)), rules=rules, players=players, samples=2)
            short += old.attrs["stock"] < v.stock_left
        except KaptaiError:
            short += 1
    assert short >= 5


def test_typed_exposed_is_the_public_position_without_the_record(monkeypatch):
    """Where the typed model and the engine agree (the player deals, no seat with two dead cards,
    whose order the typed model cannot know), ``advise(exposed=...)`` equals
    ``advise_view(history=False)`` on the same seed."""
    from kaptai.nineten.cards import format_hand

    _, got = _positions(monkeypatch, 4, None, 12, 8)
    n = 0
    for v, _ in got:
        pub = v.public
        if v.seat != v.dealer or (np.asarray(pub["dead"]).sum(axis=1) > 1).any() or not v.exposed.any():
            continue
        a = advise(format_hand(v.hand), samples=24, seed=5, **_typed_args(v))
        b = advise_view(v, samples=24, seed=5, history=False)
        assert a[["discard", "ev", "p_win"]].equals(b[["discard", "ev", "p_win"]])
        n += 1
    assert n >= 3


@pytest.mark.parametrize("exposed,match", [
    ("; RCx2;;;", "5 seats given for 4 players"),
    ("; RCx2 RX", r"exposed \(seat 1, the next player\): unknown card token 'RX'"),
    (";; RKx2", "'RK'.*appears 5 times over the hand, seen, exposed and offered"),
    ("; ; ; RCx2 RPx2 RHx2 YCx2 YHx2", r"seat 3, 3 after you\).*10 face-up cards, but a seat holds 9"),
    ("RKx2 WEx2", r"exposed \(yours\): 'WE' shown 2 times but held 0"),
    ("RK RA", r"exposed \(yours\): dead cards RK, RA: under dead_card_order='oldest'"),
])
def test_typed_exposed_refusals(exposed, match):
    with pytest.raises(KaptaiError, match=match):
        advise("RKx3 RA YAx2 GE WC WP GK", exposed=exposed, samples=2)


def test_cli_exposed(capsys):
    import json

    from kaptai.cli import main

    args = ["advise", "nine-ten", "RKx2 RA YAx2 GE WC WP GK GA", "--seen", "RE YE", "--exposed", "RKx2; RCx2; ; GCx2 YC",
            "--samples", "40", "--format", "json"]
    assert main(args) == 0
    out = json.loads(capsys.readouterr().out)
    df = advise("RKx2 RA YAx2 GE WC WP GK GA", seen="RE YE", exposed="RKx2; RCx2; ; GCx2 YC", samples=40)
    assert [r["discard"] for r in out] == list(df.discard) and [r["ev"] for r in out] == list(df.ev)
    assert df.attrs["exposed"] == ["RK RK", "RC RC", "", "YC GC GC"]
    assert main(["advise", "nine-ten", "RKx2 RA YAx2 GE WC WP GK GA", "--exposed", "RC; RX"]) != 0
    assert "RX" in capsys.readouterr().err


# the pick: the search player's rule on the advisor's layouts

def test_pick_rule_on_paired_sums():
    from kaptai.core.advise import paired_budget
    from kaptai.nineten.advisor import _pick

    def values(lead):
        def evaluate(bg, n):
            noise = np.random.Generator(bg).normal(size=n)
            return np.stack([noise, noise + lead + 0.01 * np.random.Generator(bg).normal(size=n), noise - 1.0])
        return evaluate

    clear = paired_budget(values(1.0), 3, seed=0, samples=200)   # option 1 leads option 0 by 1.0, sd 0.01
    assert _pick(clear, 0) == 1 and _pick(clear, 2) == 1
    close = paired_budget(lambda bg, n: np.random.Generator(bg).normal(size=(3, n)), 3, seed=0, samples=50)
    assert _pick(close, 2) == 2  # nothing leads by 2.5 standard errors: colour_cut's option stays
    # among several options ahead of the reference, the best mean
    both = paired_budget(lambda bg, n: np.stack([np.zeros(n), np.full(n, 1.0), np.full(n, 2.0)])
                         + 0.01 * np.random.Generator(bg).normal(size=(3, n)), 3, seed=0, samples=40)
    assert _pick(both, 0) == 2


def test_pick_starts_from_colour_cuts_discard(monkeypatch):
    """The pick's reference is the engine's colour_cut choice (its keys; ties to the lowest kind);
    the pick is that discard unless another leads it by 2.5 paired standard errors."""
    from kaptai.core.advise import capture_paired
    from kaptai.nineten.advisor import _colour_cut_index
    from kaptai.nineten.cards import format_card

    _, got = _positions(monkeypatch, 4, None, 4, 2)
    moved = 0
    for v, true in got[:30]:
        h = engine_reference._hand_from_state(make_config(4), true, v.seat)
        T = [sum(h.held[v.seat][7 * c:7 * c + 7]) for c in range(4)]
        keys = {k: (T[k // 7], h.unseen(v.seat, k)) for k in v.options}
        want = min(k for k in v.options if keys[k] == min(keys.values()))
        opts = list(v.options)
        ref = _colour_cut_index(opts, v.hand, v.unseen())
        assert opts[ref] == want
        with capture_paired() as res:
            df = advise_view(v, samples=1024, seed=0)
        assert df.pick.sum() == 1 and df.attrs["pick"] == df.discard[df.pick].iloc[0]
        pick = opts.index(int(np.flatnonzero([format_card(k) == df.attrs["pick"] for k in range(28)])[0]))
        if pick != ref:
            moved += 1
            assert res[-1].diff(pick, ref, 2.5)[1] > 0
        else:
            assert not any(res[-1].diff(i, ref, 2.5)[1] > 0 for i in range(len(opts)) if i != ref)
    assert moved >= 1
    typed = advise("RKx2 RA YAx2 GE WC WP GK GA", seen="RE YE", samples=2)
    # colours held: red 3 (RKx2 RA), yellow 2, green 3, white 2: white's WC/WP and yellow none single... the
    # fewest cards among the colours with a single is white (WC, WP, 2 cards): WC, the lower kind at equal unseen
    assert typed.attrs["pick"] == "WC"
    assert advise("RKx2 RAx2 YAx2 GEx2 WCx2").pick.tolist() == [True]  # the natural win: the one row


def test_hint_names_the_pick(monkeypatch):
    from kaptai.core.play import Console
    from kaptai.nineten.play import HumanPolicy

    _, got = _positions(monkeypatch, 4, None, 1, 3)
    v = got[0][0]
    shown = {}

    class Con(Console):
        def ask(self, prompt, parse, legal, hint):
            shown["hint"] = hint()
            return parse(legal[0])

        def say(self, *lines):
            pass

    pol = HumanPolicy(Con(ascii=True, hints=False), None, 4, hint_samples=16)
    pol.discard(v)
    assert "search's pick: " in shown["hint"] and shown["hint"].startswith("hint (advisor): 1. ")


def test_typed_own_dead_card():
    """Your dead card (an odd count of yours face up): discarded first; claimed back when the rules
    let a dead card claim (then every single), let pass when they do not."""
    first = advise("RKx2 RA YAx2 GE WC WP GK GA", exposed="GE", samples=8)
    assert first.discard.tolist() == ["GE"] and bool(first.forced.iloc[0]) and first.attrs["pick"] == "GE"
    back = advise("RKx2 RA YAx2 GE WC WP GK", offered="GE", exposed="GE", samples=8)
    assert set(back.discard) == {"RA", "WC", "WP", "GK"} and back.attrs["claim"] == "forced"
    kept = advise("RKx2 RA YAx2 GE WC WP GK", offered="GE", exposed="GE", samples=8,
                  rules={"dead_cards_claimable": False})
    assert kept.action.tolist() == ["pass"] and "dead card" in kept.attrs["claim"]
