"""Game records of every game (docs/records.md): written by the engines, replayed by the reference
engines to the same settlement, and refused at the right line and field when edited to be
malformed or illegal.

The unmarked tests replay a few hundred hands per game (records written through the API); the
``slow`` test replays thousands per game (20,000 x KAPTAI_SLOW_SCALE).
"""

from __future__ import annotations

import json
import os
import sys
from pathlib import Path
from typing import Any, Callable

import pytest

from kaptai.cli import main
from kaptai.core.records import RECORD_VERSION, RecordError, RecordWriter, read_lines
from kaptai.records import RECORD_GAMES, read_record, record_hands, replay, schema, schema_text

ROOT = Path(__file__).resolve().parents[1]

# game -> (table keyword arguments, unmarked hands): policies that play fast and vary the play
TABLES: dict[str, list[tuple[dict[str, Any], int]]] = {
    "big-two": [({"players": 4, "policies": "greedy"}, 40), ({"players": 4, "policies": "random"}, 20),
                ({"players": 3, "policies": ["heuristic", "random", "greedy"],
                  "rules": {"malaysian_3p": True}}, 20),
                ({"players": 4, "policies": "random",
                  "rules": {"instant_dragon": True, "instant_four_twos": True, "pass_locks_out": True,
                            "first_lead": "previous_winner"}}, 20)],
    "nine-ten": [({"players": 4, "policies": "colour_cut"}, 150), ({"players": 5, "policies": "random"}, 100),
                 ({"players": 4, "policies": "live_first",
                   "rules": {"natural": "redeal", "next_dealer": "winner", "dead_card_order": "policy"}}, 100)],
    "heaven-eleven": [({"policies": "greedy"}, 80), ({"policies": "random", "bidding": "overbid"}, 60),
                      ({"policies": "greedy", "bidding": "never"}, 1),  # 100 passed-out deals, then 0C
                      ({"policies": "greedy", "bidding": "never", "rules": {"passout": "dealer_0C"}}, 10)],
    "kap-tai-shap": [({"players": 4, "policies": "greedy"}, 100), ({"players": 3, "policies": "random"}, 50),
                     ({"players": 5, "rules": "advanced", "policies": "score"}, 40)],
    "kap-shap": [({"players": 2, "rules": "traditional", "policies": "greedy"}, 100)],
    "nantong": [({"players": 3, "policies": "random"}, 25), ({"players": 3, "policies": "chase_qing"}, 40),
                ({"players": 4, "policies": ["chase_hun", "random", "max_melds"],
                  "rules": {"settlement": "winner_collects"}}, 15)],
}
GAMES = list(TABLES)


def _write(tmp_path: Path, game: str, kw: dict[str, Any], hands: int, seed: int = 1, name: str = "r.jsonl") -> Path:
    return record_hands(game, tmp_path / name, hands=hands, seed=seed, **kw)


def _events(path: Path) -> list[dict[str, Any]]:
    return [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines()]


def _save(path: Path, events: list[Any]) -> None:
    path.write_text("".join((e if isinstance(e, str) else json.dumps(e, ensure_ascii=False)) + "\n" for e in events),
                    encoding="utf-8")


def test_every_game_has_a_record_format():
    assert set(RECORD_GAMES) == set(GAMES)


@pytest.mark.parametrize("game", GAMES)
def test_records_replay_to_their_settlement(tmp_path, game):
    """Records written by the engines replay, event by event, to the settlement they hold."""
    for i, (kw, hands) in enumerate(TABLES[game]):
        path = _write(tmp_path, game, kw, hands, seed=10 + i, name=f"r{i}.jsonl")
        events = _events(path)
        header = events[0]
        assert header["type"] == "record" and header["version"] == RECORD_VERSION and header["game"] == game
        assert header["hands"] == hands and header["seed"] == 10 + i
        settles = [e for e in events if e["type"] == "settle"]
        deals = [e for e in events[1:] if e["type"] == "deal"]
        assert len(settles) == hands and len({d["hand"] for d in deals}) == hands
        s = replay(path)
        assert (s.hands, s.events) == (hands, len(events) - 1)
        want = [sum(e["result"][seat] for e in settles) for seat in range(header["players"])]
        assert s.totals == pytest.approx(want)
        frame = s.frame()
        assert frame["result"].tolist() == ["ok"] and int(frame["hands"].iloc[0]) == hands


@pytest.mark.slow
@pytest.mark.parametrize("game", GAMES)
def test_thousands_of_hands_replay(tmp_path, game, slow_scale):
    """Thousands of hands per game (20,000 x KAPTAI_SLOW_SCALE, at least 1,000; Nantong, whose
    records the reference engine writes, half)."""
    n = max(1_000, int(20_000 * slow_scale))
    kw = TABLES[game][0][0]
    if game == "nantong":  # written by the reference engine: half as many, with its quicker policy
        n //= 2
        kw = TABLES[game][1][0]
    path = _write(tmp_path, game, kw, n, seed=7)
    s = replay(path)
    settles = [e for e in _events(path) if e["type"] == "settle"]
    assert s.hands == n
    assert s.totals == pytest.approx([sum(e["result"][k] for e in settles) for k in range(len(s.totals))])


@pytest.mark.parametrize("game", GAMES)
def test_seeded_and_schema_valid(tmp_path, game):
    """The same seed writes the same record; every line validates against the game's schema
    file, which is the one the code writes."""
    jsonschema = pytest.importorskip("jsonschema")
    kw, _ = TABLES[game][0]
    a = _write(tmp_path, game, kw, 4, seed=3, name="a.jsonl")
    b = _write(tmp_path, game, kw, 4, seed=3, name="b.jsonl")
    c = _write(tmp_path, game, kw, 4, seed=4, name="c.jsonl")
    assert a.read_bytes() == b.read_bytes() != c.read_bytes()
    doc = ROOT / "docs" / "records" / f"{game}.schema.json"
    assert doc.read_text(encoding="utf-8") == schema_text(game), "regenerate: kaptai.records.write_schemas('docs/records')"
    validator = jsonschema.Draft202012Validator(json.loads(doc.read_text(encoding="utf-8")))
    for e in _events(a):
        validator.validate(e)
    assert schema(game)["$defs"]["record"]["properties"]["version"]["const"] == RECORD_VERSION


# --------------------------------------------------------------------------------------
# Edited records: refused at the right line and field
# --------------------------------------------------------------------------------------

#: game -> the event types that are a seat's own decision (the ones a replay takes from the record)
DECISIONS = {
    "big-two": ("play",), "nine-ten": ("discard",), "heaven-eleven": ("bid", "play"),
    "kap-tai-shap": ("discard",), "kap-shap": ("discard",), "nantong": ("discard",),
}


def _small(tmp_path: Path, game: str) -> tuple[Path, list[dict[str, Any]]]:
    kw, _ = TABLES[game][0]
    path = _write(tmp_path, game, kw, 6, seed=5)
    return path, _events(path)


def _first(events: list[dict[str, Any]], pred: Callable[[int, dict[str, Any]], bool]) -> int:
    return next(i for i, e in enumerate(events) if i > 0 and pred(i, e))


def _refused(path: Path, line: int | None, field: str | None, match: str = "") -> RecordError:
    with pytest.raises(RecordError) as info:
        replay(path)
    err = info.value
    assert (err.line, err.field) == (line, field), str(err)
    assert match in str(err)
    assert str(path)[-20:] in str(err) or "…" in str(err)
    return err


def _seat_hand(events: list[dict[str, Any]], i: int, seat: int) -> str:
    """The dealt hand of ``seat`` in the deal before event ``i``."""
    deal = next(e for e in reversed(events[:i]) if e["type"] == "deal")
    return deal["hands"][seat]


@pytest.mark.parametrize("game", GAMES)
def test_wrong_seat(tmp_path, game):
    path, ev = _small(tmp_path, game)
    i = _first(ev, lambda _, e: e["type"] in DECISIONS[game])
    ev[i]["seat"] = (ev[i]["seat"] + 1) % ev[0]["players"]
    _save(path, ev)
    _refused(path, i + 1, "seat")


def _absent(game: str, held: str, extra: set[str] = frozenset()) -> str:
    """A card or tile of the game that ``held`` (text) does not contain."""
    have = set(held.split()) | set(extra)
    pool = {
        "big-two": [r + s for r in "3456789TJQKA2" for s in "DCHS"],
        "heaven-eleven": [r + s for r in "23456789TJQKA" for s in "CDHS"],
        "nine-ten": ["RK", "RA", "RE", "RR", "RH", "RC", "RP", "YK", "YA", "YE", "YR", "YH", "YC", "YP", "GK", "GA",
                     "GE", "GR", "GH", "GC", "GP", "WK", "WA", "WE", "WR", "WH", "WC", "WP"],
        "nantong": [f"{n}{s}" for s in "wtb" for n in range(1, 10)] + ["qz", "bh", "hh"],
    }.get(game)
    if pool is None:  # Kap Tai Shap tiles in pips
        from kaptai.kts.tiles import format_tile

        pool = [format_tile(t) for t in range(21)]
    return next(c for c in pool if c not in have)


@pytest.mark.parametrize("game", GAMES)
def test_card_not_held(tmp_path, game):
    path, ev = _small(tmp_path, game)
    i = _first(ev, lambda _, e: e["type"] in DECISIONS[game] and e["type"] != "bid")
    seat = ev[i]["seat"]
    # every card the seat has held up to this event: its deal and what it drew or claimed
    start = max(j for j in range(i) if ev[j]["type"] == "deal")
    seen = {e["cards"] for e in ev[start:i] if e.get("seat") == seat and "cards" in e}
    ev[i]["cards"] = _absent(game, _seat_hand(ev, i, seat), seen)
    _save(path, ev)
    _refused(path, i + 1, "cards")


IMPOSSIBLE = {
    # game -> (event filter, edit, field): a move the rules forbid
    "big-two": (lambda e: e["type"] == "play" and e["lead"], lambda e: {"type": "pass", "seat": e["seat"], "auto": False},
                "type"),
    "heaven-eleven": (lambda e: e["type"] == "bid", None, "bid"),  # the second bid of an auction made the lowest
    "nine-ten": (lambda e: e["type"] == "claim", lambda e: {**e, "seat": (e["seat"] + 1) % 4}, "seat"),
    "kap-tai-shap": (lambda e: e["type"] in ("claim", "decline"), None, "cards"),
    "kap-shap": (lambda e: e["type"] in ("claim", "decline"), None, "cards"),
    "nantong": (lambda e: e["type"] == "claim" and e["choice"] != "win", lambda e: {**e, "choice": "win"}, "choice"),
}


@pytest.mark.parametrize("game", GAMES)
def test_impossible_claim_or_move(tmp_path, game):
    """A claim (or, in the games without claims, a bid or play) the rules do not allow."""
    path, ev = _small(tmp_path, game)
    pick, edit, field = IMPOSSIBLE[game]
    if game == "heaven-eleven":
        i = _first(ev, lambda j, e: e["type"] == "bid" and ev[j - 1]["type"] in ("bid", "pass")
                   and any(x["type"] == "bid" for x in ev[max(k for k in range(j) if ev[k]["type"] == "deal"):j]))
        ev[i]["bid"] = "0C"
    elif game in ("kap-tai-shap", "kap-shap"):
        i = _first(ev, lambda _, e: pick(e))
        last = next(e["cards"] for e in reversed(ev[:i]) if e["type"] == "discard")
        ev[i] = {"type": "claim", "seat": ev[i]["seat"], "cards": _absent(game, last)}
    else:
        i = _first(ev, lambda _, e: pick(e))
        ev[i] = edit(ev[i])
    _save(path, ev)
    _refused(path, i + 1, field)


@pytest.mark.parametrize("game", GAMES)
def test_bad_settlement(tmp_path, game):
    path, ev = _small(tmp_path, game)
    i = _first(ev, lambda _, e: e["type"] == "settle")
    ev[i]["result"][1] += 1
    _save(path, ev)
    _refused(path, i + 1, "result[1]", "the replay gives")


@pytest.mark.parametrize("game", GAMES)
def test_missing_field_and_unknown_field(tmp_path, game):
    path, ev = _small(tmp_path, game)
    i = _first(ev, lambda _, e: e["type"] in DECISIONS[game])
    del ev[i]["seat"]
    _save(path, ev)
    _refused(path, i + 1, "seat", "missing")
    path, ev = _small(tmp_path, game)
    ev[1]["colour"] = "red"
    _save(path, ev)
    _refused(path, 2, "colour", "not a field")


@pytest.mark.parametrize("game", GAMES)
def test_bad_version_and_header(tmp_path, game):
    path, ev = _small(tmp_path, game)
    ev[0]["version"] = 2
    _save(path, ev)
    _refused(path, 1, "version", "reads version 1")
    path, ev = _small(tmp_path, game)
    ev[0]["players"] = "four"
    _save(path, ev)
    _refused(path, 1, "players")
    path, ev = _small(tmp_path, game)
    ev[0]["rules"] = {**ev[0]["rules"], "no_such_option": 1}
    _save(path, ev)
    _refused(path, 1, "rules", "no_such_option")


@pytest.mark.parametrize("game", GAMES)
def test_truncated_and_non_json(tmp_path, game):
    path, ev = _small(tmp_path, game)
    text = path.read_text(encoding="utf-8")
    path.write_text(text[:-15], encoding="utf-8")  # cut inside the last line, no newline
    _refused(path, len(ev), None, "truncated")
    path.write_text("".join(line + "\n" for line in text.splitlines()[:-1]), encoding="utf-8")  # no settle
    _refused(path, len(ev) - 1, None, "settle")
    lines = text.splitlines()
    lines[3] = "{not json"
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    _refused(path, 4, None, "not JSON")
    lines[3] = ""
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    _refused(path, 4, None, "blank line")


@pytest.mark.parametrize("game", GAMES)
def test_a_missing_settle_is_named_at_the_next_deal(tmp_path, game):
    """A hand whose ``settle`` was lost is named where the next hand's deal begins, not at the header."""
    path, ev = _small(tmp_path, game)
    j = _first(ev, lambda _, e: e["type"] == "settle")
    del ev[j]
    _save(path, ev)
    _refused(path, j + 1, "hand", "hand 0's 'settle' event is missing")


@pytest.mark.parametrize("game", GAMES)
def test_a_missing_or_extra_event(tmp_path, game):
    """An engine event taken out (or one added after the hand's end) is named at its line."""
    path, ev = _small(tmp_path, game)
    i = _first(ev, lambda _, e: e["type"] not in ("deal", "settle") + DECISIONS[game])
    del ev[i]
    _save(path, ev)
    with pytest.raises(RecordError) as info:
        replay(path)
    assert info.value.line == i + 1, str(info.value)
    path, ev = _small(tmp_path, game)
    j = _first(ev, lambda _, e: e["type"] == "settle")
    ev.insert(j, dict(ev[j - 1]))  # the hand's last event twice
    _save(path, ev)
    with pytest.raises(RecordError) as info:
        replay(path)
    assert info.value.line == j + 1, str(info.value)


def test_a_deal_that_is_not_a_deck(tmp_path):
    path, ev = _small(tmp_path, "big-two")
    ev[1]["deck"] = ev[1]["deck"].replace("3D", "3C", 1)
    _save(path, ev)
    _refused(path, 2, "deck", "3C")
    path, ev = _small(tmp_path, "kap-tai-shap")
    ev[1]["dice"] = ev[1]["dice"] + 1 if ev[1]["dice"] < 18 else ev[1]["dice"] - 1
    _save(path, ev)
    _refused(path, 2, "first")


def test_wrong_game_and_unknown_event(tmp_path):
    path, ev = _small(tmp_path, "nine-ten")
    with pytest.raises(RecordError) as info:
        read_record(path, "big-two")
    assert (info.value.line, info.value.field) == (1, "game")
    ev[2]["type"] = "shuffle"
    _save(path, ev)
    _refused(path, 3, "type", "not an event of nine-ten")
    ev[0]["game"] = "chess"
    _save(path, ev)
    _refused(path, 1, "game", "unknown game")


# --------------------------------------------------------------------------------------
# Writing: nothing half-written; the command line
# --------------------------------------------------------------------------------------


def test_interrupted_write_leaves_nothing(tmp_path, monkeypatch):
    from kaptai.bigtwo import records as b2

    target = tmp_path / "keep.jsonl"
    target.write_text("old\n")
    real = b2.hand_events

    def interrupted(*a, **k):
        for i, evs in enumerate(real(*a, **k)):
            if i == 3:
                raise KeyboardInterrupt
            yield evs

    monkeypatch.setattr(b2, "hand_events", interrupted)
    with pytest.raises(KeyboardInterrupt):
        b2.record_hands(target, hands=10, seed=1)
    assert target.read_text() == "old\n" and os.listdir(tmp_path) == ["keep.jsonl"]


def test_writer_lines(tmp_path):
    p = tmp_path / "w.jsonl"
    with RecordWriter(p) as w:
        w.write({"type": "record", "x": "夾"})
    assert [e for _, e in read_lines(p)] == [{"type": "record", "x": "夾"}]


def test_command_line_simulate_record_and_replay(tmp_path, capsys):
    path = tmp_path / "games.jsonl"
    assert main(["simulate", "nine-ten", "--hands", "200", "--seed", "2", "--record", str(path), "--record-hands", "12",
                 "--no-progress", "--format", "json"]) == 0
    capsys.readouterr()
    assert main(["replay", "nine-ten", str(path), "--format", "json"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out[0]["hands"] == 12 and out[0]["result"] == "ok"
    ev = _events(path)
    i = _first(ev, lambda _, e: e["type"] == "settle")
    ev[i]["tou"] += 1
    _save(path, ev)
    assert main(["replay", "nine-ten", str(path)]) != 0
    err = capsys.readouterr().err
    assert f"line {i + 1}, field tou" in err and "Traceback" not in err
    # the --record path is checked before any work
    assert main(["simulate", "big-two", "--hands", "10", "--record", str(tmp_path / "none" / "x.jsonl")]) == 2
    assert "does not exist" in capsys.readouterr().err
    assert main(["simulate", "big-two", "--hands", "10", "--record", str(tmp_path / "x.csv")]) == 2
    assert ".jsonl" in capsys.readouterr().err


def test_nantong_search_seats_replay(tmp_path):
    """A Nantong record with a search seat (deciding in the compiled twin, from the same streams)
    replays."""
    path = record_hands("nantong", tmp_path / "s.jsonl", 3, policies=["max_melds", "chase_qing", "search"], hands=3,
                        seed=2)
    assert replay(path).hands == 3


@pytest.mark.slow
def test_nantong_search_decisions_are_the_reference_search(monkeypatch, slow_scale):
    """The record's search seats, deciding in the compiled twin, make the hand the pure-Python
    search makes (one hand: the reference search at the default budget takes about 100 s, so
    below the full size (``KAPTAI_SLOW_SCALE=1``) the records are made with 8 layouts a decision)."""
    import numpy as np

    from kaptai.core.sampling import RandomStream
    from kaptai.nantong import records as nr

    from .nantong.helpers import small_search

    small_search(monkeypatch, slow_scale, samples=8, module=nr)
    cfg = nr.make_config(3)
    pols = ["max_melds", "chase_qing", "search"]
    fast = next(nr.hand_events(3, policies=pols, hands=1, seed=1))
    evs: list = []
    h = nr._Logged(cfg, pols, RandomStream(np.random.PCG64(np.random.SeedSequence(1, spawn_key=(0,)))), 0, evs)
    row = h.play()
    slow = [nr._deal_event(cfg, 0, h.deck), *evs, nr._settle(cfg, row)]
    assert fast == slow
    assert sum(e.get("seat") == 2 and e["type"] in ("discard", "claim") for e in fast) > 5


def test_heaven11_card_texts_are_format_cards():
    import random

    from kaptai.heaven11.cards import format_cards
    from kaptai.heaven11.records import _text

    ids = list(range(52))
    random.Random(1).shuffle(ids)
    assert _text(ids) == format_cards(ids) and _text(sorted(ids[:13])) == format_cards(sorted(ids[:13]))


def test_command_line_league_record(tmp_path, capsys):
    """``league --record``: the league's first table, seat s playing the s-th policy (cycling)."""
    path = tmp_path / "league.jsonl"
    assert main(["league", "nine-ten", "--policies", "colour_cut,random", "--hands", "40", "--seed", "1",
                 "--record", str(path), "--record-hands", "6", "--no-progress", "--format", "json"]) == 0
    header = _events(path)[0]
    assert header["policies"] == ["colour_cut", "random", "colour_cut", "random"] and header["hands"] == 6
    assert replay(path).hands == 6


@pytest.mark.parametrize("game, kw", [
    ("kap-tai-shap", {"players": 4, "policies": "greedy"}), ("kap-shap", {"players": 2, "policies": "greedy"}),
    ("big-two", {"players": 4, "policies": "greedy"}), ("nine-ten", {"players": 4, "policies": "colour_cut"}),
    ("nantong", {"players": 3, "policies": "max_melds"}), ("heaven-eleven", {"policies": "greedy"}),
])
def test_docs_examples_are_the_code_s(tmp_path, game, kw):
    """docs/records.md shows each game's record of ``--hands 1 --seed 1``: its deal, its first
    events and its settlement are what the code writes."""
    doc = (ROOT / "docs" / "records.md").read_text(encoding="utf-8")
    lines = _write(tmp_path, game, kw, 1, seed=1).read_text(encoding="utf-8").splitlines()
    for line in lines[1:7] + lines[-1:]:
        assert line in doc, (game, line[:80])


@pytest.mark.skipif(sys.platform == "win32", reason="POSIX signals")
def test_ctrl_c_while_recording_leaves_nothing(tmp_path):
    """SIGINT to ``kaptai simulate --record`` while the record is being written: no record, no
    temporary file, an existing file untouched."""
    import signal
    import subprocess
    import tempfile
    import time

    target = tmp_path / "games.jsonl"
    target.write_text("old\n")
    p = subprocess.Popen([sys.executable, "-m", "kaptai", "simulate", "nantong", "--hands", "10", "--seed", "1",
                          "--record", str(target), "--record-hands", "100000", "--no-progress"],
                         stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                         cwd=tempfile.gettempdir())  # the installed package, not the uncompiled source tree
    try:
        deadline = time.monotonic() + 60
        while not any(f.name.endswith(".part") for f in tmp_path.iterdir()):
            assert p.poll() is None and time.monotonic() < deadline, p.stderr.read() if p.poll() is not None else ""
            time.sleep(0.05)
        time.sleep(0.5)
        os.kill(p.pid, signal.SIGINT)
        p.wait(timeout=20)
        assert p.returncode != 0 and "interrupted" in p.stderr.read()
        assert [f.name for f in tmp_path.iterdir()] == ["games.jsonl"] and target.read_text() == "old\n"
    finally:
        if p.poll() is None:
            p.kill()


def test_kap_tai_shap_records_name_their_unit_by_the_settlement(tmp_path):
    """A Kap Tai Shap table pays antes under the pot settlement and points under advanced
    scoring: the record's header says which, and its replay's totals carry the same unit."""
    for rules, unit in (("traditional", "antes"), ("advanced", "points")):
        p = record_hands("kap-tai-shap", tmp_path / f"{rules}.jsonl", 4, rules, hands=2, seed=1)
        assert json.loads(p.read_text().splitlines()[0])["unit"] == unit
        assert replay(p).unit == unit
        # a header whose unit is not the one its rules settle in is refused, before any hand,
        # by the replay and by the review alike (the file, the header's line and the field named)
        bad = tmp_path / f"{rules}-bad.jsonl"
        events = _events(p)
        events[0]["unit"] = "chips"
        _save(bad, events)
        for run in (lambda: replay(bad), lambda: list(_kts_decisions(bad))):
            with pytest.raises(RecordError, match=rf"{rules}-bad.jsonl line 1, field unit: unit 'chips'") as e:
                run()
            assert e.value.field == "unit" and e.value.line == 1
    # traditional rules labelled points: refused; advanced scoring labelled antes, as kaptai wrote
    # such records before 2026-12-05: read, and its totals are in points
    for rules, written, ok in (("traditional", "points", False), ("advanced", "antes", True)):
        events = _events(tmp_path / f"{rules}.jsonl")
        events[0]["unit"] = written
        relabelled = tmp_path / f"{rules}-{written}.jsonl"
        _save(relabelled, events)
        if ok:
            assert replay(relabelled).unit == "points"
        else:
            with pytest.raises(RecordError, match=r"field unit: unit 'points': the rules of this record settle in 'antes'"):
                replay(relabelled)


def test_nantong_records_name_their_unit_by_the_settlement(tmp_path):
    """Nantong's unit is a share of the hand win under ``rank_only`` and points under the other
    settlements: the header says it, the replay's totals carry it, another is refused."""
    for rules, unit in (({}, "share of the hand win"), ({"settlement": "winner_collects"}, "points")):
        p = record_hands("nantong", tmp_path / "n.jsonl", 3, rules, hands=1, seed=2)
        assert json.loads(p.read_text().splitlines()[0])["unit"] == unit
        assert replay(p).unit == unit
        events = _events(p)
        events[0]["unit"] = "tou"
        _save(p, events)
        with pytest.raises(RecordError, match=r"n.jsonl line 1, field unit: unit 'tou'"):
            replay(p)


def _kts_decisions(path: Path):
    from kaptai.kts import play

    return play.decisions(play.read(path))


def test_replay_totals_read_as_the_sum_of_the_written_results(tmp_path):
    """Results are written to 10 decimals (a share of a three-way tie as 0.3333333333): the
    totals are their sum to 10 decimals (2.3333333333, not the float 2.3333333332999997);
    Nantong, 4 players, seed 1: the 10th hand makes seat 1's plain float sum show the noise."""
    import json

    from kaptai.records import replay

    path = tmp_path / "n.jsonl"
    assert main(["simulate", "nantong", "--players", "4", "--hands", "10", "--seed", "1", "--record", str(path),
                 "--record-hands", "10", "--no-progress"]) == 0
    results = [json.loads(ln)["result"] for ln in path.read_text().splitlines() if '"settle"' in ln]
    assert len(results) == 10 and any(0.3333333333 in r for r in results)
    totals = replay(str(path)).totals
    assert totals == [round(sum(float(r[s]) for r in results), 10) for s in range(4)]
    assert all(len(repr(t).split(".")[-1]) <= 10 for t in totals), totals


@pytest.mark.parametrize("players", [6])
def test_big_two_records_at_large_tables_draw_more_spare_decks(tmp_path, players):
    """At 6+ players redeals are frequent: a batch that runs out of spare decks draws more (the
    compiled engine says so as a ValueError, which the record writer did not retry: a traceback)."""
    from kaptai.records import replay

    path = tmp_path / "b.jsonl"
    assert main(["simulate", "big-two", "--players", str(players), "--hands", "100", "--record", str(path),
                 "--record-hands", "100", "--no-progress"]) == 0
    assert replay(str(path)).hands == 100


def test_big_two_play_refuses_the_session_bankroll(capsys):
    """bankroll caps losses over a session; play settles every game alone: refused by name (it was
    accepted and did nothing)."""
    assert main(["play", "big-two", "-o", "bankroll=capped"]) == 2
    assert "does not use the rule option 'bankroll'" in capsys.readouterr().err
