"""Boundary cases generated from the registry (issue 30): every option of every command of
every game on the command line, and the run-size, seed, worker and path arguments of the Python
API functions the games export, each given a value of the wrong type, out of bounds, a file
name too long for the file system, or a 4,000-character token.

Each must fail before any work, with a :class:`~kaptai.errors.KaptaiError` (API) or one
``kaptai: error:`` line and exit status 2 (CLI, ``kaptai.cli.main`` in this process), quoting
at most ~40 characters of the bad token.  The stale-temporary-file cleanup of a killed run and
the Ctrl-C line of a league that runs several jobs are tested at the end.
"""

from __future__ import annotations

import importlib
import inspect
import os
import re
import signal
from collections.abc import Callable, Iterator
from typing import Any

import pytest

from kaptai.cli import main
from kaptai.errors import KaptaiError
from kaptai.games import GAMES

#: A token far past every declared bound and length (the issue's 4,000 characters).
LONG = 4000
#: Most characters of a bad token an error may quote (quote_token's 40, give or take the quotes).
QUOTED = 45
#: Path options: a file name (one component) longer than any file system allows (255 bytes).
PATH_OPTIONS = ("--out", "--plot", "--checkpoint", "--plot-dir")


def _longest_run(text: str, ch: str) -> int:
    return max((len(m) for m in re.findall(f"{re.escape(ch)}+", text)), default=0)


def _cli_error(capsys, argv: list[str]) -> str:
    """Run ``kaptai argv`` in this process: exit 2, one ``kaptai: error:`` line, no traceback."""
    code = main(argv)
    cap = capsys.readouterr()
    err = cap.err
    assert code == 2, f"{argv!r:.300}: exit {code}, stderr {err[:300]!r}"
    lines = [ln for ln in err.splitlines() if ln.strip()]
    assert len(lines) == 1 and lines[0].startswith("kaptai: error: "), f"{argv!r:.300}: {err[:500]!r}"
    assert "Traceback" not in err
    return lines[0]


# --------------------------------------------------------------------------------------
# The command line: every option of every command of every game
# --------------------------------------------------------------------------------------


def _commands() -> Iterator[tuple[str, str, Any]]:
    for spec in GAMES.values():
        for name, cmd in spec.commands.items():
            yield spec.name, name, cmd


def _base_argv(command: str, game: str, cmd: Any) -> list[str]:
    """The command with a valid value for each positional argument (its declared sample)."""
    argv = [command, game]
    for opt in cmd.options:
        if opt.positional:
            value = opt.example_value()
            assert value is not None, f"{game} {command}: positional {opt.name} declares no sample"
            argv.append(value)
    return argv


def _bad_values(opt: Any) -> list[tuple[str, str]]:
    """``(value, what)`` pairs the option must refuse; ``what`` names the category."""
    if opt.name in PATH_OPTIONS:
        suffix = {"--out": ".csv", "--plot": ".png"}.get(opt.name, "")
        name = "x" * 300 + suffix
        return [(os.path.join(os.getcwd(), name), "300-byte file name"), (f"{name}/y{suffix}", "300-byte folder name"),
                ("x" * LONG + suffix, "4,000-character path")]
    if opt.kind == "flag" or opt.kind == "switch":
        return []
    out = [("9" * LONG if opt.kind in ("int", "float") else "x" * LONG, "4,000-character token")]
    if opt.kind == "int":
        out += [("1.5", "float for int"), ("x", "str for int"), ("True", "bool for int")]
        if opt.lo is not None:
            out.append((str(int(opt.lo) - 1), "below the bound"))
        if opt.hi is not None:
            out.append((str(int(opt.hi) + 1), "above the bound"))
        out.append(("1" + "0" * 30, "10^30"))
    elif opt.kind == "float":
        out += [("x", "str for float"), ("nan", "nan")]
    elif opt.kind == "keyvalue":
        out += [("x" * LONG + "=1", "4,000-character key"), ("x", "no =")]
    return out


CLI_CASES = [
    pytest.param(game, command, opt.name, id=f"{game}-{command}-{opt.name.lstrip('-')}")
    for game, command, cmd in _commands()
    for opt in cmd.options
    if _bad_values(opt)
]


@pytest.mark.timeout(60)
@pytest.mark.parametrize("game, command, option", CLI_CASES)
def test_every_cli_option_refuses_bad_values_in_one_line(game, command, option, capsys, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    cmd = GAMES[game].commands[command]
    opt = next(o for o in cmd.options if o.name == option)
    base = _base_argv(command, game, cmd)
    for value, what in _bad_values(opt):
        if opt.positional:
            argv = [command, game] + [value if o.name == option else o.example_value()
                                      for o in cmd.options if o.positional]
        else:
            argv = base + [opt.flags[-1] if opt.short and opt.flags[0] == opt.short else opt.flags[0], value]
        line = _cli_error(capsys, argv)
        for ch in "x9":
            if ch * 200 in value:
                assert _longest_run(line, ch) <= QUOTED, f"{what}: {line[:300]}"
        assert len(line) < 1000, f"{what}: {len(line)} characters"
    assert not [p for p in tmp_path.iterdir()], "a refused command left files behind"


# --------------------------------------------------------------------------------------
# The Python API: run sizes, seeds, workers, players and paths of every exported function
# --------------------------------------------------------------------------------------

#: Run-size arguments: hands, games, matches, samples ... (the CLI's --hands bounds: 1..10^12).
COUNTS = ("hands", "games", "matches", "samples", "sessions", "monte_carlo_deals", "search_samples", "bid_samples")
BAD_COUNTS = (0, -1, 10**30, 1.5, "10", True, 2.0)
BAD_SEEDS = (-1, 1.5, "x", True, 2**200)
BAD_WORKERS = (0, -1, 1.5, "2", True, 10**30)
BAD_CHECKPOINTS = (123, 1.5, ["ck"], "x" * 300, "", "x" * LONG)
BAD_PLAYERS = (1.5, "x" * LONG, True, 10**30, -1)
#: Other arguments of the run functions and what each must refuse.
BAD_OTHERS = {
    "policies": (123, ["x" * LONG], "x" * LONG, object(), 1.5),
    "rules": (123, "x" * LONG, 1.5, ["a"]),
    "variants": (123, "x" * LONG, 1.5),
    "bidding": (123, "x" * LONG),
    "malaysian_swap": (123, "x" * LONG),
    "first_leader": (123, "x" * LONG),
    "house_cut": ("x", -1, 10**30, float("nan")),
    "cut": ("x" * LONG, 123),
    "record": (-1, 1.5, "x", 10**30),
    "confidence": (2, "x", -1),
    "scheduler": (123, "x" * LONG),
    "baseline": (123, "x" * LONG),
    "coins": ("x" * LONG, -1),
}

#: The run-level functions of each game (its API for the commands that run chunks).
RUN_FUNCTIONS = {
    "kap-tai-shap": ["kaptai.kts.simulate:simulate", "kaptai.kts.fairness:compare_variants", "kaptai.kts.fairness:fairness",
                     "kaptai.kts.fairness:cut_curve", "kaptai.kts.league:policy_league"],
    "big-two": ["kaptai.bigtwo:simulate", "kaptai.bigtwo:fairness", "kaptai.bigtwo:compare_variants",
                "kaptai.bigtwo:simulate_log", "kaptai.bigtwo.sessions:simulate_sessions"],
    "nine-ten": ["kaptai.nineten:simulate", "kaptai.nineten:fairness", "kaptai.nineten:compare_variants",
                 "kaptai.nineten:deal_odds"],
    "nantong": ["kaptai.nantong:simulate", "kaptai.nantong:fairness", "kaptai.nantong:compare_variants"],
    "heaven-eleven": ["kaptai.heaven11:simulate", "kaptai.heaven11:fairness", "kaptai.heaven11:compare_variants",
                      "kaptai.heaven11:leading_first", "kaptai.heaven11:asymmetry", "kaptai.heaven11.sessions:sessions"],
}
#: Valid values of required arguments, per function name.
REQUIRED = {"players": 4}


def _load(entry: str) -> Callable[..., Any]:
    module, _, attr = entry.partition(":")
    return getattr(importlib.import_module(module), attr)  # a renamed function fails the collection


def _api_cases() -> Iterator[Any]:
    for game, entries in RUN_FUNCTIONS.items():
        for entry in entries:
            fn = _load(entry)
            params = inspect.signature(fn).parameters
            for name in params:
                if name in COUNTS:
                    values: tuple = BAD_COUNTS
                elif name == "seed":
                    values = BAD_SEEDS
                elif name == "workers":
                    values = BAD_WORKERS
                elif name == "checkpoint":
                    values = BAD_CHECKPOINTS
                elif name == "players":
                    values = BAD_PLAYERS
                elif name in BAD_OTHERS:
                    values = BAD_OTHERS[name]
                else:
                    continue
                yield pytest.param(entry, name, values, id=f"{entry.split(':')[0].split('.')[1]}-{entry.split(':')[1]}-{name}")
    for game in ("big-two", "nine-ten", "nantong", "heaven-eleven"):  # the shared league
        for name, values in (("hands", BAD_COUNTS), ("seed", BAD_SEEDS), ("workers", BAD_WORKERS),
                             ("checkpoint", BAD_CHECKPOINTS), ("policies", BAD_OTHERS["policies"]),
                             ("baseline", BAD_OTHERS["baseline"]), ("scheduler", BAD_OTHERS["scheduler"])):
            yield pytest.param(f"kaptai.core.league:policy_league#{game}", name, values, id=f"league-{game}-{name}")


class _Timeout(Exception):
    pass


def _call_with_alarm(fn: Callable[[], Any], seconds: int = 20) -> Any:
    """``fn()``, or _Timeout if it runs for ``seconds`` (a bad value accepted as a huge run)."""
    def ring(signum, frame):
        raise _Timeout

    old = signal.signal(signal.SIGALRM, ring)
    signal.alarm(seconds)
    try:
        return fn()
    finally:
        signal.alarm(0)
        signal.signal(signal.SIGALRM, old)


def _small_kwargs(params: Any, bad: str) -> dict[str, Any]:
    """The smallest valid run for the other arguments: one hand (or game, match ...), no progress."""
    kw: dict[str, Any] = {}
    for name, p in params.items():
        if name == bad:
            continue
        if name in COUNTS and name in ("hands", "games", "matches", "sessions"):
            kw[name] = 1
        elif name == "progress":
            kw[name] = False
        elif p.default is inspect.Parameter.empty and p.kind in (p.POSITIONAL_OR_KEYWORD, p.KEYWORD_ONLY):
            kw[name] = REQUIRED[name]
    if "games" in params and "hands" in params:  # big two: hands is another name of games
        kw.pop("hands", None)
        if bad == "hands":
            kw.pop("games", None)
    return kw


@pytest.mark.parametrize("entry, name, values", list(_api_cases()))
def test_every_run_function_refuses_bad_arguments_before_any_work(entry, name, values, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    if "#" in entry:
        entry, game = entry.split("#")
        fn0 = _load(entry)
        assert fn0 is not None

        def fn(**kw):
            return fn0(game, **kw)
        params = {k: v for k, v in inspect.signature(fn0).parameters.items() if k != "game"}
    else:
        loaded = _load(entry)
        assert loaded is not None
        fn = loaded
        params = dict(inspect.signature(fn).parameters)
    kw = _small_kwargs(params, name)
    for value in values:
        if name == "monte_carlo_deals" and value == 0:  # 0: no Monte Carlo table (exact ones only)
            continue
        try:
            _call_with_alarm(lambda: fn(**kw, **{name: value}))
        except KaptaiError as exc:
            text = str(exc)
            for ch in "x9":
                assert _longest_run(text, ch) <= QUOTED + 5, f"{name}={value!r:.50}: {text[:300]}"
            continue
        except _Timeout:
            pytest.fail(f"{entry} {name}={value!r:.50} was accepted and ran for 20 s")
        except BaseException as exc:  # noqa: BLE001 - the point of the test
            pytest.fail(f"{entry} {name}={value!r:.50} raised {type(exc).__name__}: {exc!s:.200}")
        pytest.fail(f"{entry} {name}={value!r:.50} was accepted")
    assert not [p for p in tmp_path.iterdir()], "a refused call left files behind"


#: Hands, cards, records given to the per-game parsing and evaluating functions.
BAD_HANDS = (None, 123, 1.5, object(), True, {"a": 1}, b"4C", [None], "x" * LONG)
#: Exported functions whose first argument is not cards (numbers, configurations ...).
NOT_CARDS = {"run_hands", "make_config", "tallies_frame", "new_tallies", "run_bankrolls", "format_record",
             "bonus_flip_distribution", "first_hand_distribution", "first_hand_table", "sets_for_players",
             "hand_sizes", "format_tile", "format_card", "penalty", "penalties", "settle", "settle_many", "hand_winners",
             "format_bid", "validate_players", "resolve_rules", "parse_card", "parse_bid", "classify_masks", "cards_to_mask",
             "mask_to_cards"}


def _card_functions() -> Iterator[Any]:
    for package in ("kts", "bigtwo", "nineten", "nantong", "heaven11"):
        module = importlib.import_module(f"kaptai.{package}")
        for name in module.__all__:
            fn = getattr(module, name)
            if not callable(fn) or inspect.isclass(fn) or name in NOT_CARDS:
                continue
            try:
                params = list(inspect.signature(fn).parameters.values())
            except (TypeError, ValueError):
                continue
            required = [p for p in params if p.default is inspect.Parameter.empty
                        and p.kind in (p.POSITIONAL_ONLY, p.POSITIONAL_OR_KEYWORD)]
            if not required or required[0] is not params[0]:
                continue
            yield pytest.param(fn, len(required), id=f"{package}-{name}")


@pytest.mark.parametrize("fn, n_args", list(_card_functions()))
def test_every_card_function_refuses_what_is_not_cards(fn, n_args):
    """The first argument of each (a hand, cards, a record, a bid ...) given something that is
    not one; a second card argument (``compare(a, b)``) gets the same."""
    for value in BAD_HANDS:
        try:
            fn(*[value] * n_args)
        except KaptaiError as exc:
            assert _longest_run(str(exc), "x") <= QUOTED, str(exc)[:300]
            continue
        except BaseException as exc:  # noqa: BLE001
            pytest.fail(f"{fn.__name__}({value!r:.40}) raised {type(exc).__name__}: {exc!s:.200}")
        pytest.fail(f"{fn.__name__}({value!r:.40}) was accepted")


#: Other arguments of the analysis functions: (function, valid arguments, argument, bad values).
ANALYSIS_CASES = [
    ("kaptai.kts:evaluate", ("66 66 44 44 14 14 55 55 46 46",), "sets", (0, 10**30, 1.5, "x" * LONG, True)),
    ("kaptai.kts:waits", ("16 16 16 12 33 13 15 22 66",), "sets", (0, 10**30, 1.5, "x" * LONG, True)),
    ("kaptai.kts:waits", ("16 16 16 12 33 13 15 22 66",), "seen", (123, 1.5, "x" * LONG, object())),
    ("kaptai.kts:deal_odds", (4,), "distance", (1.5, "x" * LONG, None, 1)),
    ("kaptai.kts:deal_odds", (4,), "workers", (0, -1, 1.5, "x" * LONG, 10**30)),
    ("kaptai.kts:deal_odds", (), "players", (1.5, "x" * LONG, True, 10**30, None)),
    ("kaptai.nantong:live_outs", ("147w 258w 369w 147t 258t 369b 147b 5b",), "caps",
     (123, "x" * LONG, [None] * 30, [-1] * 30, [10**30] * 30)),
    ("kaptai.nantong:waits", ("147w 258w 369w 147t 258t 369b 147b 5b",), "rules", (123, "x" * LONG, 1.5)),
    ("kaptai.nantong:deal_odds", (3,), "metrics", (1.5, 123, ["x" * LONG], [None])),
    ("kaptai.bigtwo:deal_odds", (4,), "hand_size", (0, 53, 1.5, "x" * LONG, True)),
    ("kaptai.bigtwo:deal_odds", (), "players", (1.5, "x" * LONG, True, 10**30)),
    ("kaptai.nineten:bonus_flip_odds", ("RK RA", 10), "pool", ("x" * LONG, 1.5, None)),
    ("kaptai.nineten:deal_odds", (4,), "seed", BAD_SEEDS),
    ("kaptai.nineten:deal_odds", (4,), "monte_carlo_deals", (-1, 10**30, 1.5, "x" * LONG)),
    ("kaptai.heaven11:deal_odds", (), "players", (1.5, "x" * LONG, True, 3)),
    ("kaptai.heaven11:score", ("3C",), "tricks", (123, 1.5, "x" * LONG, [None] * 4, {"a": 1})),
    ("kaptai.nantong:parse_cards", ("5w",), "deck", (123, 1.5, "x" * LONG, None)),
    ("kaptai.nineten:validate_players", (4,), "play", (123, "x" * LONG, None)),
    ("kaptai.kts:format_hand", ("66 55",), "sep", (123, None, object())),
    ("kaptai.kts:format_hand", ("66 55",), "style", (123, "x" * LONG)),
    ("kaptai.bigtwo:parse_hand", ("3D",), "size", ("x" * LONG, 2)),
]


@pytest.mark.parametrize("entry, args, name, values", [
    pytest.param(*case, id=f"{case[0].split(':')[0].split('.')[1]}-{case[0].split(':')[1]}-{case[2]}")
    for case in ANALYSIS_CASES])
def test_every_analysis_argument_is_checked(entry, args, name, values):
    fn = _load(entry)
    assert fn is not None, entry
    for value in values:
        try:
            _call_with_alarm(lambda: fn(*args, **{name: value}))
        except KaptaiError as exc:
            assert _longest_run(str(exc), "x") <= QUOTED, str(exc)[:300]
            continue
        except _Timeout:
            pytest.fail(f"{entry} {name}={value!r:.50} was accepted and ran for 20 s")
        except BaseException as exc:  # noqa: BLE001
            pytest.fail(f"{entry} {name}={value!r:.50} raised {type(exc).__name__}: {exc!s:.200}")
        pytest.fail(f"{entry} {name}={value!r:.50} was accepted")


@pytest.mark.parametrize("entry", ["kaptai.report:build_report#big-two", "kaptai.report.atlas:build_atlas_report"])
def test_every_report_path_is_checked_before_any_work(entry, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    name, _, game = entry.partition("#")
    fn = _load(name)
    assert fn is not None, entry
    args = (game,) if game else ()
    for kw in ({"out": tmp_path / ("x" * 300 + ".html")}, {"out": 123}, {"out": "x" * LONG + ".md"},
               {"checkpoint": 123}, {"checkpoint": "x" * 300}, {"checkpoint": ""}):
        with pytest.raises(KaptaiError) as info:
            _call_with_alarm(lambda: fn(*args, hands=10, progress=False, **kw))
        assert _longest_run(str(info.value), "x") <= QUOTED, str(info.value)[:300]
    assert not list(tmp_path.iterdir())


def test_every_plot_path_is_checked_before_the_figure_is_written(tmp_path):
    """The plot functions of every game save through save_figure: a 300-byte file name, a path
    of the wrong type or a suffix matplotlib cannot write is a PathError, no OSError."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    from kaptai.core.paths import PathError
    from kaptai.core.plotting import save_figure

    for path, message in [(tmp_path / ("x" * 300 + ".png"), "304 bytes long"), (123, "got int 123"),
                          (tmp_path / "f.xyz", "a .xyz file"), (tmp_path / "no" / "f.png", "does not exist"),
                          (str(tmp_path / "a\x00b.png"), "NUL")]:
        fig = plt.figure()
        with pytest.raises(PathError, match=message) as info:
            save_figure(fig, path)
        assert _longest_run(str(info.value), "x") <= QUOTED
    assert not list(tmp_path.iterdir())
    assert list(inspect.signature(save_figure).parameters)[:2] == ["fig", "path"]


# --------------------------------------------------------------------------------------
# Checkpoints: no temporary file after a resume; Ctrl-C counts what is on disk
# --------------------------------------------------------------------------------------


def test_a_resume_removes_the_temporary_files_a_killed_run_left(tmp_path):
    from kaptai.kts.simulate import CHUNK_HANDS, simulate

    ckpt = tmp_path / "ck"
    hands = 2 * CHUNK_HANDS
    whole = simulate(2, "traditional", hands, seed=3, checkpoint=ckpt, progress=False)
    # what kill -9 leaves: a chunk, the manifest and a write test cut short, and a missing chunk
    (ckpt / "chunk-000001.npz").unlink()
    stale = [ckpt / ".chunk-000001.npz.k2j3h4.tmp", ckpt / ".kaptai-checkpoint.json.a8b7c6.tmp",
             ckpt / ".write-test.q1w2e3.tmp"]
    for p in stale:
        p.write_bytes(b"half")
    mine = ckpt / "notes.tmp"  # not kaptai's: left alone
    mine.write_text("x")
    resumed = simulate(2, "traditional", hands, seed=3, checkpoint=ckpt, progress=False)
    assert resumed.equals(whole)
    assert not [p for p in stale if p.exists()] and mine.exists()
    assert sorted(p.name for p in ckpt.iterdir()) == ["chunk-000000.npz", "chunk-000001.npz",
                                                       "kaptai-checkpoint.json", "notes.tmp"]


def test_the_ctrl_c_line_counts_every_chunk_on_disk_under_the_checkpoint(tmp_path):
    """A league runs one job per sub-folder: interrupted in the ninth, the line counts the
    chunks of all of them (it said '0 of 1 chunk(s) are saved' with eight on disk)."""
    from kaptai.core.output import interrupted_message
    from kaptai.core.runner import RunInterrupted
    from kaptai.kts.simulate import CHUNK_HANDS, simulate

    for k in range(3):
        simulate(2, "traditional", CHUNK_HANDS, seed=k, checkpoint=tmp_path / f"league-{k}", progress=False)
    current = tmp_path / "league-9"
    current.mkdir()
    exc = RunInterrupted(f"0 of 1 chunk(s) are saved in the checkpoint {current}", checkpoint=current, saved=0, chunks=1)
    line = interrupted_message(exc, tmp_path)
    assert line == (f"kaptai: interrupted: 3 chunk(s) of 3 run(s) are saved under the checkpoint {tmp_path}: "
                    "run the same command again to resume")
    # a run that is the whole checkpoint keeps its own count (it counted its files on disk)
    own = RunInterrupted(f"1 of 4 chunk(s) are saved in the checkpoint {tmp_path / 'league-0'}",
                         checkpoint=tmp_path / "league-0", saved=1, chunks=4)
    assert interrupted_message(own, tmp_path / "league-0").endswith("1 of 4 chunk(s) are saved in the checkpoint "
                                                                     f"{tmp_path / 'league-0'}")


def test_ctrl_c_on_the_command_line_counts_the_chunks_on_disk_under_its_checkpoint(tmp_path, capsys, monkeypatch):
    """The command line gives its --checkpoint to the Ctrl-C line: a command that runs its jobs
    in sub-folders (a report, a league of several runs), interrupted in a later one, names
    the chunks the earlier ones saved."""
    import kaptai.cli as cli
    from kaptai.core.runner import RunInterrupted
    from kaptai.kts.simulate import CHUNK_HANDS, simulate

    def several_runs(args):
        for k in range(2):
            simulate(2, "traditional", CHUNK_HANDS, seed=k, checkpoint=os.path.join(args.checkpoint, f"part-{k}"),
                     progress=False)
        raise RunInterrupted(f"0 of 1 chunk(s) are saved in the checkpoint {args.checkpoint}/part-2",
                             checkpoint=tmp_path / "ck" / "part-2", saved=0, chunks=1)

    monkeypatch.setattr(cli, "_dispatch", several_runs)
    code = main(["simulate", "kap-tai-shap", "--hands", "20", "--checkpoint", str(tmp_path / "ck"), "--no-progress"])
    err = capsys.readouterr().err
    assert code == 130
    assert err.strip() == (f"kaptai: interrupted: 2 chunk(s) of 2 run(s) are saved under the checkpoint "
                           f"{tmp_path / 'ck'}: run the same command again to resume")


def test_the_ctrl_c_line_imports_nothing_heavy():
    """The command line imports the Ctrl-C line only when interrupted: it must not import
    pandas or numpy then (a second or two on a loaded machine before the run stops)."""
    import subprocess
    import sys

    code = ("import sys; from kaptai.core.interrupt import interrupted_message; "
            "print(interrupted_message(KeyboardInterrupt()), sorted(m for m in ('pandas', 'numpy') if m in sys.modules))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60, check=True).stdout
    assert out.strip() == "kaptai: interrupted []"
