"""``kaptai play <game>`` driven through a pseudo-terminal: a scripted game per game.

At each prompt the script first types something illegal (refused, the legal moves listed, the
prompt repeated: nothing lost), then the first legal move listed.  The game ends, its record
replays (``kaptai.records.replay``), and ``quit`` in a second game ends it cleanly with an
empty record.
"""

from __future__ import annotations

import io
import os
import re
import sys

import pytest

pexpect = pytest.importorskip("pexpect")

from kaptai.core.play import Console, QuitGame  # noqa: E402

# game -> (fast opponents, extra options)
GAMES = {
    "big-two": ("greedy", ["--players", "3"]),
    "kap-tai-shap": ("greedy", []),
    "nine-ten": ("colour_cut", []),
    "nantong": ("max_melds", []),
    "heaven-eleven": ("greedy", []),
}

PROMPT = re.compile(r"> $", re.M)


def _spawn(args: list[str], cwd: str) -> "pexpect.spawn":
    env = dict(os.environ, PYTHONIOENCODING="utf-8", COLUMNS="200")
    return pexpect.spawn(sys.executable, ["-m", "kaptai", *args], cwd=cwd, env=env, encoding="utf-8",
                         timeout=120, dimensions=(50, 200))


@pytest.mark.parametrize("game", sorted(GAMES))
def test_scripted_game_with_illegal_input(game, tmp_path):
    from kaptai.records import replay

    opp, extra = GAMES[game]
    rec = str(tmp_path / "g.jsonl")
    child = _spawn(["play", game, "--opponents", opp, "--seed", "3", "--record", rec, "--ascii", *extra],
                   str(tmp_path))
    decisions = refused = 0
    while True:
        i = child.expect([PROMPT, r"record of (\d+) hand\(s\) written", pexpect.EOF])
        if i != 0:
            break
        decisions += 1
        if decisions <= 2:  # something illegal: refused, the legal moves listed, asked again
            child.sendline("ZZ9 not-a-move")
            child.expect(r"refused .*\r?\nlegal: ([^\r\n]*)")
            refused += 1
            legal = child.match.group(1)
            child.expect(PROMPT)
        else:
            child.sendline("?")
            child.expect(r"legal: ([^\r\n]*)")
            legal = child.match.group(1)
            child.expect(PROMPT)
        first = legal.split(", ")[0]
        child.sendline(first)
    assert i == 1, child.before
    assert child.match.group(1) == "1"
    child.expect(pexpect.EOF)
    child.close()
    assert child.exitstatus == 0, child.before
    assert decisions >= 3 and refused == 2
    summary = replay(rec)
    assert summary.hands == 1


def test_quit_ends_cleanly(tmp_path):
    rec = str(tmp_path / "q.jsonl")
    child = _spawn(["play", "nine-ten", "--opponents", "colour_cut", "--record", rec], str(tmp_path))
    child.expect(PROMPT)
    child.sendline("quit")
    child.expect(r"game ended \(quit at the prompt\) after 0 finished hand")
    child.expect(r"no hand finished: no record written")
    child.expect(pexpect.EOF)
    child.close()
    assert child.exitstatus == 0
    assert not os.path.exists(rec)


def test_quit_before_a_hand_finishes_leaves_an_existing_record_as_it_was(tmp_path):
    rec = tmp_path / "keep.jsonl"
    rec.write_text("an earlier session's record\n", encoding="utf-8")
    child = _spawn(["play", "big-two", "--opponents", "greedy", "--record", str(rec)], str(tmp_path))
    child.expect(PROMPT)
    child.sendline("quit")
    child.expect(r"no record written \(.*keep.jsonl left as it was\)")
    child.expect(pexpect.EOF)
    child.close()
    assert child.exitstatus == 0
    assert rec.read_text(encoding="utf-8") == "an earlier session's record\n"


def test_ctrl_c_keeps_the_finished_hands_and_says_interrupted(tmp_path):
    """Ctrl-C in a later hand writes the hands finished before it (as quit does), exit status 130;
    each hand's result is shown when the hand ends, not when the engine's run ends."""
    from kaptai.records import replay

    opp, more = GAMES["nine-ten"]
    rec = str(tmp_path / "int.jsonl")
    child = _spawn(["play", "nine-ten", "--opponents", opp, "--hands", "5", "--seed", "3", "--record", rec,
                    "--ascii", *more], str(tmp_path))
    seen_over = False
    for _ in range(40):
        child.expect(PROMPT)
        if "== hand 0 over" in child.before:
            seen_over = True
            break
        _first_legal(child)
    assert seen_over, "hand 0's result was not shown before the next hand's first prompt"
    child.sendcontrol("c")
    child.expect(r"game ended \(interrupted \(Ctrl-C\)\) after (\d+) finished hand")
    k = int(child.match.group(1))
    child.expect(r"record of (\d+) hand\(s\) written")
    assert int(child.match.group(1)) == k >= 1
    child.expect(pexpect.EOF)
    child.close()
    assert child.exitstatus == 130 or child.signalstatus is not None
    assert replay(rec).hands == k


def test_console_ascii_fallback():
    out = io.TextIOWrapper(io.BytesIO(), encoding="ascii")
    con = Console(out=out, lines=["quit"])
    assert con.ascii
    con.say("天 6-6")  # printable: the fallback replaces what ASCII cannot show
    con.say("Kap Tai Shap (夾大十), 4 players")  # a Chinese name beside its English one is dropped
    out.flush()
    text = out.buffer.getvalue().decode("ascii")
    assert "? 6-6" in text and "Kap Tai Shap, 4 players" in text and "(???)" not in text
    con.say("a civil tile name such as 天, 長三, heaven or long-three")  # examples it cannot show go
    out.flush()
    assert "such as heaven or long-three" in out.buffer.getvalue().decode("ascii")
    with pytest.raises(QuitGame):
        con.ask("x", int, ["1"])


class _Auto(Console):
    """Answers its own prompts: 'hint' at the first decision, then '?' and the first legal move."""

    def __init__(self):
        super().__init__(ascii=True, out=io.StringIO())
        self.hinted = False
        self.listed = False

    def _read(self, prompt):
        if not self.hinted:
            self.hinted = True
            line = "hint"
        elif not self.listed:
            self.listed = True
            line = "?"
        else:
            self.listed = False
            legal = [x for x in self.out.getvalue().splitlines() if x.startswith("legal: ")][-1]
            line = legal[len("legal: "):].split(", ")[0]
        self.say(prompt + line)
        return line


@pytest.mark.parametrize("game", sorted(GAMES))
def test_hint_in_process(game):
    """The advisor's hint at a decision of each game (in this process, one hand)."""
    import importlib

    from kaptai.core.play import seat_policies
    from kaptai.games import game as lookup

    spec = lookup(game)
    mod = importlib.import_module(f"{spec.package}.play")
    con = _Auto()
    opp = GAMES[game][0]
    if game == "big-two":
        cfg, _ = mod.table_header(3, spec.resolve_rules(None, players=3), ["x"] * 3, 1, 1)
        pols = seat_policies(mod.HumanPolicy(con, hint_samples=8), [opp] * 2, 0)
        events = mod.hand_events(cfg, pols, 1, 1)
    elif game == "heaven-eleven":
        from kaptai.heaven11.records import hand_events

        rules = spec.resolve_rules(None)
        pols = seat_policies(mod.HumanPolicy(con, rules, hint_samples=8), [opp] * 3, 0)
        events = hand_events(None, rules, policies=pols, bidding=["expected"] * 4, hands=1, seed=1)
    elif game == "kap-tai-shap":
        from kaptai.kts.records import hand_events

        pols = seat_policies(mod.HumanPolicy(con), [opp] * 3, 0)
        events = hand_events(4, spec.resolve_rules(None), policies=pols, hands=1, seed=1)
    else:
        rec = importlib.import_module(f"{spec.package}.records")
        n = 4 if game == "nine-ten" else 3
        pols = seat_policies(mod.HumanPolicy(con, spec.resolve_rules(None), n, hint_samples=8), [opp] * (n - 1), 0)
        events = rec.hand_events(n, spec.resolve_rules(None), policies=pols, hands=1, seed=1)
    hands = list(events)
    assert len(hands) == 1 and hands[0][-1]["type"] == "settle"
    text = con.out.getvalue()
    assert "hint (advisor): 1. " in text, text[-2000:]


def _first_legal(child) -> None:
    """At a prompt: ask for the legal moves (``?``) and type the first one."""
    child.sendline("?")
    child.expect(r"legal: ([^\r\n]*)")
    legal = child.match.group(1)
    child.expect(PROMPT)
    child.sendline(legal.split(", ")[0])


def _first_legal_then_quit(game, tmp_path, decisions, extra=()):
    """Play the first legal move at ``decisions`` prompts (fewer if the game ends), then quit."""
    opp, more = GAMES[game]
    rec = str(tmp_path / f"{game}-{decisions}.jsonl")
    child = _spawn(["play", game, "--opponents", opp, "--hands", "5", "--seed", "3", "--record", rec, "--ascii",
                    *more, *extra], str(tmp_path))
    for _ in range(decisions):
        if child.expect([PROMPT, pexpect.EOF]) == 1:
            break
        _first_legal(child)
    else:
        child.expect(PROMPT)
        child.sendline("quit")
    child.expect(pexpect.EOF)
    child.close()
    assert child.exitstatus == 0, child.before
    return rec, child.before


# game -> prompts answered before quit (the quit falls in a later hand than the first)
QUIT_AFTER = {"big-two": 28, "nine-ten": 8, "heaven-eleven": 25}


@pytest.mark.parametrize("game", sorted(QUIT_AFTER))
def test_quit_keeps_the_finished_hands(game, tmp_path):
    """These engines hand the session's hands over at the end of their run: at quit the hands
    finished before it are played again from the seed with the person's moves and written."""
    from kaptai.records import read_record, replay

    rec, text = _first_legal_then_quit(game, tmp_path, QUIT_AFTER[game])
    m = re.search(r"keeping the (\d+) finished hand\(s\)", text)
    assert m, text[-2000:]
    k = int(m.group(1))
    assert 1 <= k < 5
    assert f"game ended (quit at the prompt) after {k} finished hand(s)" in text
    assert replay(rec).hands == k and read_record(rec).header["hands"] == k
    if game == "nine-ten":  # the hands kept are the game's own: the same as those of the game played on
        full, _ = _first_legal_then_quit(game, tmp_path, 10_000)
        a, b = (open(p, encoding="utf-8").read().splitlines() for p in (rec, full))
        assert len(b) > len(a) and b[1:len(a)] == a[1:]


def test_the_session_tells_running_totals_and_the_final_ones():
    """Each hand's result, then (from the second hand on) the totals so far; at the end of the
    session the totals again."""
    from kaptai.core.play import run_session

    class Said:
        def __init__(self):
            self.lines: list[str] = []

        def say(self, *lines):
            self.lines.extend(lines)

    third = 1 / 3
    results = [[2, -1, -1], [third, third, -2 * third], [-3, 1.5, 1.5]]
    hands = iter([[{"type": "deal"}, {"type": "settle", "result": r}] for r in results])
    con = Said()
    df = run_session(con, {"game": "nantong", "players": 3, "unit": "points"}, hands, seat=1)
    shown = [ln.strip() for ln in con.lines if "totals" in ln]
    assert shown == [
        "totals after 2 hand(s): you -0.666667 points; every seat: 0: +2.33333, 1: -0.666667, 2: -1.66667",
        "totals after 3 hand(s): you +0.833333 points; every seat: 0: -0.666667, 1: +0.833333, 2: -0.166667",
        "totals after 3 hand(s): you +0.833333 points; every seat: 0: -0.666667, 1: +0.833333, 2: -0.166667",
    ]
    assert con.lines.index("== hand 0 over: you -1 points; every seat: 0: +2, 1: -1, 2: -1") >= 0
    assert df.you.tolist() == [-1, third, 1.5]
