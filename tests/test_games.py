"""The game registry: lookups, the `kaptai games` command, and dispatch only through it."""

import inspect
import json
import subprocess
import sys
from pathlib import Path

import pytest

import kaptai.cli
import kaptai.report
from kaptai.cli import COMMANDS, build_parser, main
from kaptai.errors import RulesError
from kaptai.games import GAMES, GameSpec, game, games_for, load_entry


def test_every_entry_point_loads_and_every_game_resolves_its_rules():
    for spec in GAMES.values():
        assert isinstance(spec, GameSpec)
        lo, hi = spec.players
        assert lo <= spec.default_players <= hi
        for name, command in spec.commands.items():
            assert callable(command.load()), (spec.name, name)
        assert spec.resolve_rules(spec.presets[0]).name == spec.presets[0] or spec.presets[0] == "traditional"
        if spec.variant_sets:
            names = spec.variant_set_names()
            assert spec.default_variants in names or all(
                part in spec.presets or part in names for part in spec.default_variants.split(","))
        if spec.report_sections:
            assert callable(load_entry(spec.report_sections))
        for alias in spec.aliases:
            assert game(alias) is spec


def test_unknown_game_is_a_rules_error():
    with pytest.raises(RulesError, match="unknown game 'chess'"):
        game("chess")


def test_games_json_lists_every_game_with_its_commands(capsys):
    assert main(["games", "--format", "json"]) == 0
    rows = json.loads(capsys.readouterr().out)
    assert [r["name"] for r in rows] == list(GAMES)
    for r in rows:
        assert set(r) >= {"name", "aliases", "title", "players", "commands"}
        assert r["commands"] == list(GAMES[r["name"]].commands)
    assert main(["games"]) == 0
    assert "Kap Tai Shap (夾大十)" in capsys.readouterr().out


def test_help_offers_only_the_games_that_support_each_command():
    parser = build_parser()
    sub = next(a for a in parser._actions if a.dest == "command")
    for name, _ in COMMANDS:
        supporting = [g.name for g in games_for(name)]
        if not supporting:
            assert name not in sub.choices
            continue
        text = sub.choices[name].format_help()
        for spec in GAMES.values():
            assert (spec.name in text) == (spec.name in supporting), (name, spec.name)


def test_a_game_flag_given_to_another_game_is_refused(capsys):
    own = {o.dest: (spec, o) for spec in games_for("odds") for o in spec.commands["odds"].options}
    checked = 0
    for dest, (owner, opt) in own.items():
        other = next((g for g in games_for("odds") if g.commands["odds"].option(dest) is None), None)
        if other is None or opt.kind in ("flag", "switch"):
            continue
        assert main(["odds", other.name, opt.name, opt.example_value() or "x"]) == 2
        err = capsys.readouterr().err
        assert f"{opt.name} does not apply to {other.name}" in err and "takes --" in err
        checked += 1
    assert checked


def test_an_unsupported_command_names_what_the_game_has(capsys):
    small = min(GAMES.values(), key=lambda g: len(g.commands))
    # a command some game has and this one lacks (its positionals need not be given: the game is checked first)
    missing = next(name for name, _ in COMMANDS if name not in small.commands and games_for(name))
    assert main([missing, small.name]) == 2
    err = capsys.readouterr().err
    assert "is not available" in err and ", ".join(small.commands) in err


def test_no_game_is_named_in_the_cli_or_the_report_builder():
    """cli.py and report/__init__.py dispatch only through the registry."""
    for module in (kaptai.cli, kaptai.report):
        source = inspect.getsource(module)
        for spec in GAMES.values():
            for word in (spec.name, *spec.aliases, spec.package, spec.package.rsplit(".", 1)[1] + "."):
                assert word not in source, (module.__name__, word)


def test_games_command_runs_as_a_user_would(tmp_path):
    proc = subprocess.run([sys.executable, "-m", "kaptai", "games", "--format", "json"], capture_output=True,
                          text=True, cwd=tmp_path)
    assert proc.returncode == 0, proc.stderr
    assert {r["name"] for r in json.loads(proc.stdout)} == set(GAMES)
    assert Path(kaptai.cli.__file__).exists()


def test_rules_are_validated_once_on_the_way_down(monkeypatch):
    """Entry points resolve a RuleSet once; inner layers (make_config, run_tallies) trust it."""
    import kaptai.bigtwo.rules as big_two_rules
    import kaptai.kts.rules as kts_rules
    from kaptai.bigtwo.config import make_config as big_two_config
    from kaptai.kts.fairness import compare_variants

    calls = {"n": 0}
    for module in (kts_rules, big_two_rules):
        original = module.RuleSet.__post_init__

        def counting(self, original=original):
            calls["n"] += 1
            return original(self)

        monkeypatch.setattr(module.RuleSet, "__post_init__", counting)
    compare_variants(["traditional", "advanced"], players=4, hands=50, seed=1, progress=False)
    assert calls["n"] == 2  # one RuleSet per variant, none rebuilt below
    rules = big_two_rules.RuleSet()
    calls["n"] = 0
    assert big_two_config(4, rules).rules is rules and calls["n"] == 0


def test_every_game_simulates_with_its_default_policy(capsys):
    """No --policy: each game plays its own first built-in policy (not another game's)."""
    for spec in games_for("simulate"):
        assert main(["simulate", spec.name, "--hands", "40", "--seed", "1", "--format", "json"]) == 0, spec.name
        rows = json.loads(capsys.readouterr().out)
        assert rows and all(r["method"] == "monte_carlo" for r in rows), spec.name


def test_the_registry_s_copies_of_engine_constants_match_them():
    # the commands.py files copy a few engine constants so that loading the registry imports no
    # engine (tests/test_startup.py): each copy is the engine's value
    import kaptai.kts.commands as kts_commands
    from kaptai.kts.rules import MAX_SETS

    assert kts_commands._MAX_SETS == MAX_SETS
    assert GAMES["kap-tai-shap"].commands["waits"].option("sets").hi == MAX_SETS
    from kaptai.core import advise, cli_options

    assert (cli_options.ADVICE_MAX_SAMPLES, cli_options.ADVICE_BUDGET_MS, cli_options.ADVICE_MAX_BUDGET_MS) == (
        advise.MAX_SAMPLES, advise.DEFAULT_BUDGET_MS, advise.MAX_BUDGET_MS)
    assert advise.cli_options("layout") == cli_options.advice_budget("layout")


def test_the_league_policies_option_is_each_game_s_policies():
    for spec in GAMES.values():
        league = spec.commands.get("league")
        opt = league.option("policies") if league else None
        if opt is None or spec.package == "kaptai.kts":
            continue
        assert opt.default.split(",") == list(spec.policies)
        assert opt.parse(spec.policies[-1]) == spec.policies[-1]
        with pytest.raises(Exception, match="given twice"):
            opt.parse(f"{spec.policies[0]},{spec.policies[0]}")
