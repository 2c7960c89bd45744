"""Every option of every command of every game, tried with bad values: a clean error.

Driven by the registry (:mod:`kaptai.games`) and the declarations (:class:`kaptai.spec.Opt`):
a sixth game, a new command or a new option gets the same checks with no change here.
Each case goes through :func:`kaptai.cli.main` as a user's command line would and must end
in ``kaptai: error: ...`` on stderr, exit status 2, nothing on stdout and no traceback, with
at most ~40 characters of the bad token quoted.
"""

from __future__ import annotations

import re

import pytest

from kaptai.cli import COMMANDS, build_parser, main
from kaptai.commands import EXTRA_TARGETS, TOOLS
from kaptai.games import GAMES, games_for
from kaptai.spec import Command, Opt

HUGE = "9" * 5000
LONG = "x" * 5000


def _targets() -> list[tuple[str, str | None, Command]]:
    """(command, game or None, Command) for every command line kaptai has."""
    out: list[tuple[str, str | None, Command]] = [(name, None, cmd) for name, cmd in TOOLS.items()]
    for name, _ in COMMANDS:
        for spec in games_for(name):
            out.append((name, spec.name, spec.commands[name]))
        for target, cmd in EXTRA_TARGETS.get(name, {}).items():
            out.append((name, target, cmd))
    return out


TARGETS = _targets()


def _base(command: str, target: str | None, cmd: Command) -> list[str]:
    argv = [command] + ([target] if target else [])
    for opt in cmd.options:
        if opt.positional:
            value = opt.example_value()
            assert value is not None, f"{command} {target}: positional {opt.name} declares no sample"
            argv.append(value)
    return argv


def bad_values(opt: Opt) -> list[str]:
    """Values that the declaration of ``opt`` must refuse."""
    if opt.kind in ("flag", "switch"):
        return []
    if opt.kind in ("int", "float"):
        vals = ["abc", "", " ", HUGE, "-" + HUGE, "1e400", "nan" if opt.kind == "float" else "1.5"]
        if opt.lo is not None:
            vals += [str(opt.lo - 1), str(opt.lo - 0.5) if opt.kind == "float" else str(int(opt.lo) - 1)]
            if opt.lo > 0:
                vals.append("0")
            if opt.lo >= 0:
                vals.append("-1")
        if opt.hi is not None:
            vals += [str(int(opt.hi) + 1), f"{int(opt.hi) * 10}"]
        if opt.kind == "float":
            vals += ["inf", "-inf"]
        return vals
    if opt.kind == "choice":
        return ["junk", "", " ", LONG, opt.choices[0].upper() + "x"]
    if opt.kind == "keyvalue":
        return ["noequals", "", "=1", LONG]
    vals = [LONG]
    if not opt.empty_ok:
        vals += ["", " "]
    return vals


def _cases():
    for command, target, cmd in TARGETS:
        base = _base(command, target, cmd)
        label = f"{command}-{target}" if target else command
        for opt in cmd.options:
            for value in bad_values(opt):
                if opt.positional:
                    argv = list(base)
                    argv[argv.index(opt.example_value())] = value
                else:
                    argv = base + [opt.name, value]
                yield pytest.param(argv, id=f"{label}:{opt.name}={value[:8]!r}")
        yield pytest.param(base + ["--no-such-option", "1"], id=f"{label}:undeclared")
        yield pytest.param(base + ["--no-such-flag"], id=f"{label}:undeclared-flag")
        if target:
            yield pytest.param(base + ["stray-word"], id=f"{label}:stray")


CASES = list(_cases())


def test_every_command_line_is_covered():
    """Every game × command is in the table, and every value option gets bad values."""
    assert {(c, t) for c, t, _ in TARGETS} >= {(c, g.name) for g in GAMES.values() for c in g.commands}
    assert len(CASES) > 50 * len(TARGETS)


@pytest.mark.parametrize("argv", CASES)
def test_a_bad_value_is_a_clean_error(argv, capsys):
    code = main(argv)
    out, err = capsys.readouterr()
    assert code == 2, (argv[:2], err)
    assert out == ""
    assert err.startswith("kaptai: error: ") and err.count("\n") == 1, err
    assert "Traceback" not in err
    # at most ~40 characters of the bad token are quoted
    assert "x" * 41 not in err and "9" * 41 not in err, err[:200]
    assert len(err) < 800, err[:200]


@pytest.mark.parametrize("command,target,cmd", TARGETS, ids=[f"{c}-{t}" for c, t, _ in TARGETS])
def test_help_lists_only_the_declared_options_and_an_example(command, target, cmd, capsys):
    argv = [command] + ([target] if target else []) + ["--help"]
    with pytest.raises(SystemExit) as exc:
        main(argv)
    assert exc.value.code == 0
    text = capsys.readouterr().out
    flags = set(re.findall(r"(?<![\w-])(--[a-z][a-z-]*)", text.split("example:")[0]))
    declared = {f for o in cmd.options for f in o.flags if f.startswith("--")} | {"--help"}
    declared |= {"--no-" + o.name[2:] for o in cmd.options if o.kind == "switch"}
    assert flags <= declared, (command, target, flags - declared)
    assert cmd.example and f"example: {cmd.example}" in text
    spec = GAMES.get(target) if target else None
    if spec is not None and cmd.option("rules") is not None:
        assert "presets: " + ", ".join(spec.presets) in text
    if spec is not None and cmd.option("policy") is not None:
        assert "policies: " + ", ".join(spec.policies) in text


@pytest.mark.parametrize("command,target,cmd", TARGETS, ids=[f"{c}-{t}" for c, t, _ in TARGETS])
def test_every_example_and_every_sample_parses(command, target, cmd):
    """The example of ``--help`` and each option's own sample value are valid command lines."""
    import shlex

    argv = shlex.split(cmd.example)[1:]
    parser = build_parser(argv)
    args, extra = parser.parse_known_args(argv)
    assert not extra, (cmd.example, extra)
    base = _base(command, target, cmd)
    for opt in cmd.options:
        value = opt.example_value()
        if opt.positional or opt.kind in ("flag", "switch", "keyvalue") or value is None:
            continue
        args, extra = build_parser(base).parse_known_args(base + [opt.name, value])
        assert not extra
        assert getattr(args, opt.dest) == opt.parse(value)


@pytest.mark.parametrize("command,target,cmd", TARGETS, ids=[f"{c}-{t}" for c, t, _ in TARGETS])
def test_defaults_are_the_declared_ones(command, target, cmd):
    """Nothing given: every option holds its declared default (nothing is filled in later)."""
    base = _base(command, target, cmd)
    args, _ = build_parser(base).parse_known_args(base)
    for opt in cmd.options:
        if opt.positional:
            continue
        expected = bool(opt.default) if opt.kind == "flag" else opt.parse(opt.default)  # argparse types a text default
        assert getattr(args, opt.dest) == expected, (command, target, opt.name)


def test_zero_negative_and_empty_are_not_defaults(capsys):
    """The cases of the issue: a 0, a negative number or an empty string is checked, not
    replaced by the default."""
    cases = [
        (["fairness", "big-two", "--players", "0"], "got '0'"),
        (["league", "kap-shap", "--players", "4"], "4 players is out of range"),
        (["fairness", "nantong", "--matches", "-5"], "got '-5'"),
        (["simulate", "heaven-eleven", "--policy", "rollout", "--samples", "0"], "got '0'"),
        (["fairness", "nine-ten", "--policy", "junk"], "--policy does not apply to nine-ten"),
        (["waits", "nantong", "147w 258w 369w", "--players", "7"], "--players does not apply to nantong"),
        (["evaluate", "nantong", "147w 258w 369w", "--sets", "9"], "--sets does not apply to nantong"),
        (["odds", "nantong", "--rules", "traditional"], "expected one of 'nantong', got 'traditional'"),
        (["simulate", "nantong", "--policy", "greedy"], "unknown policy 'greedy'"),
        (["odds", "big-two", "--rules", ""], "got ''"),
        (["simulate", "kap-tai-shap", "--policy", ""], "got ''"),
        (["simulate", "kap-tai-shap", "--hands", "10**30"], "got '10**30'"),
        (["simulate", "kap-tai-shap", "--hands", str(2**63)], "to 1,000,000,000,000"),
        (["odds", "kap-tai-shap", "--format", "xml"], "got 'xml'"),
        (["simulate", "kap-tai-shap", "--hands", "abc"], "got 'abc'"),
    ]
    for argv, message in cases:
        assert main(argv) == 2, argv
        err = capsys.readouterr().err
        assert err.startswith("kaptai: error: ") and message in err, (argv, err)


def test_scientific_whole_numbers_are_taken(capsys):
    """``1e3`` is a whole number of hands; ``1.5e0`` is not."""
    assert main(["simulate", "kap-shap", "--hands", "1e3", "--seed", "1", "--format", "json"]) == 0
    assert '"samples":1000' in capsys.readouterr().out.replace(" ", "")
    assert main(["simulate", "kap-shap", "--hands", "1.5e0"]) == 2
    assert "got '1.5e0'" in capsys.readouterr().err


def test_progress_off_a_terminal_is_plain_lines_counting_hands(capsys):
    """--progress in a log (stderr not a terminal) writes plain lines that count hands; without
    it nothing is written there but the provenance line."""
    assert main(["simulate", "kap-shap", "--hands", "3000", "--format", "csv", "--progress"]) == 0
    err = capsys.readouterr().err
    assert "3,000/3,000 hands (100%)" in err and "done" in err and "\r" not in err
    assert main(["simulate", "kap-shap", "--hands", "3000", "--format", "csv"]) == 0
    assert "hands (" not in capsys.readouterr().err
