"""The command line refuses, before any work, what it would otherwise ignore or contradict.

Generated from the registry for every command of every game that declares the options
concerned (issue 30 item 1, the CLI layer, and item 6's help texts):

* an option given where it has no effect (``--percent`` outside the table format,
  ``--samples`` when no seat plays a policy that samples);
* one setting given twice with two values (``-o KEY=`` twice, ``--players`` with
  ``-o players=``), while the same value twice passes;
* a duplicate in a list-valued option (``atlas --games``, ``--variants``, ``--policies``,
  ``--policy SEAT=...``);
* the help texts: ``-o`` lists the game's rule options with their defaults, ``kaptai --help``
  lists the games, ``kaptai games`` the true player counts.
"""

from __future__ import annotations

import pytest

from kaptai.cli import build_parser, check_settings, main
from kaptai.commands import TOOLS
from kaptai.errors import UsageError
from kaptai.games import GAMES


def commands_with(*dests: str):
    """(game, command name, Command) of every game command declaring all of ``dests``."""
    return [(g.name, name, cmd) for g in GAMES.values() for name, cmd in g.commands.items()
            if all(cmd.option(d) is not None for d in dests)]


def _ids(cases):
    return [f"{c[1]}-{c[0]}" for c in cases]


def positionals(cmd) -> list[str]:
    return [o.example_value() or "x" for o in cmd.options if o.positional]


def refused(argv: list[str], capsys) -> str:
    """Run ``kaptai argv``: it must stop with status 2 and one error line, which is returned."""
    assert main(argv) == 2
    err = capsys.readouterr().err.strip()
    assert err.startswith("kaptai: error: ") and "\n" not in err and "Traceback" not in err, err
    return err


def settings_ok(argv: list[str]) -> None:
    """``argv`` parses and passes :func:`check_settings` (nothing is run)."""
    args = build_parser(argv).parse_args(argv)
    check_settings(argv, args)


PERCENT = commands_with("percent", "format")


@pytest.mark.parametrize("game,name,cmd", PERCENT, ids=_ids(PERCENT))
def test_percent_outside_the_table_format_is_refused(game, name, cmd, capsys, tmp_path):
    base = [name, game, *positionals(cmd)]
    formats = [f for f in cmd.option("format").choices if f not in ("table",)]
    assert formats
    for fmt in formats:
        err = refused([*base, "--percent", "--format", fmt], capsys)
        assert "--percent has no effect" in err and fmt in err
    if cmd.option("out") is not None:
        err = refused([*base, "--percent", "--out", str(tmp_path / "t.csv")], capsys)
        assert "--percent has no effect" in err and "csv" in err
        settings_ok([*base, "--percent", "--out", str(tmp_path / "t.txt")])
    settings_ok([*base, "--percent"])
    settings_ok([*base, "--percent", "--format", "table"])


RULE_OPTIONS = commands_with("option")


@pytest.mark.parametrize("game,name,cmd", RULE_OPTIONS, ids=_ids(RULE_OPTIONS))
def test_one_rule_option_given_twice_with_two_values_is_refused(game, name, cmd, capsys):
    base = [name, game, *positionals(cmd)]
    plain = build_parser(base).parse_args(base)
    read = [k for k in GAMES[game].rule_defaults() if cmd.reads_rule(k)]  # the options the command reads
    effect = [k for k in read if cmd.rule_applies is None or cmd.rule_applies(plain, k) is None]
    key = (effect or read)[0]
    err = refused([*base, "-o", f"{key}=3", "-o", f"{key}=4"], capsys)
    assert f"-o {key}=3 and -o {key}=4" in err
    if effect:  # (odds nine-ten at 4 players: its two table size options change nothing there)
        settings_ok([*base, "-o", f"{key}=3", "-o", f"{key}=3"])  # the same value twice passes the check
    players = cmd.option("players")
    if players is not None and players.kind == "int":
        lo, hi = int(players.lo), int(players.hi)
        other = lo + 1 if hi > lo else lo + 1  # -o players= is not bounded by the option
        err = refused([*base, "--players", str(lo), "-o", f"players={other}"], capsys)
        assert f"--players {lo} and -o players={other}" in err
        settings_ok([*base, "--players", str(lo), "-o", f"players={lo}"])
    sets = cmd.option("sets")
    if sets is not None:
        err = refused([*base, "--sets", "2", "-o", "sets=3"], capsys)
        assert "--sets 2 and -o sets=3" in err


def test_the_review_s_command_lines_are_refused(capsys):
    err = refused(["odds", "big-two", "--players", "3", "-o", "players=5"], capsys)
    assert "--players 3" in err and "players=5" in err
    err = refused(["simulate", "big-two", "-o", "players=3", "--players", "4", "--hands", "10"], capsys)
    assert "--players 4" in err and "players=3" in err
    err = refused(["simulate", "heaven-eleven", "--samples", "4", "--hands", "10"], capsys)
    assert "--samples has no effect" in err and "rollout" in err
    settings_ok(["simulate", "heaven-eleven", "--samples", "4", "--policy", "2=rollout"])
    settings_ok(["simulate", "heaven-eleven", "--samples", "4", "--policy", "rollout"])
    err = refused(["atlas", "--games", "big-two,big-two"], capsys)
    assert "big-two is given twice" in err
    err = refused(["atlas", "--games", "heaven11,heaven-eleven"], capsys)
    assert "given twice" in err


def test_samples_applies_only_where_a_policy_samples():
    # every game command with --samples: the advisors always sample; Heaven Eleven's simulate only
    # when a seat plays rollout
    for game, name, cmd in commands_with("samples"):
        opt = cmd.option("samples")
        argv = [name, game, *positionals(cmd), "--samples", "4"]
        args = build_parser(argv).parse_args(argv)
        if opt.applies is None or name == "review":  # review: the advisor samples (below)
            continue
        assert opt.applies(args), (game, name)  # the default policies take no samples
        assert "policy" in vars(args)


@pytest.mark.parametrize("flag", ["--samples 7", "--no-cross-fit", "--cross-fit"])
def test_review_refuses_sampling_options_with_the_exact_advisor(flag, tmp_path, capsys):
    """Kap Tai Shap's exact advisor samples nothing: --samples and --cross-fit / --no-cross-fit
    are refused with it (they were accepted and ignored), and accepted with the search advisor."""
    from kaptai.cli import check_settings

    for advisor, refused in (("exact", True), ("search", False)):
        argv = ["review", "kap-tai-shap", str(tmp_path / "r.jsonl"), "--advisor", advisor, *flag.split()]
        args = build_parser(argv).parse_args(argv)
        if refused:
            with pytest.raises(UsageError, match="exact advisor samples nothing"):
                check_settings(argv, args)
        else:
            check_settings(argv, args)


DUPLICATE_LISTS = [(g, n, c, d) for d in ("policies", "rules_list", "variants", "policy")
                   for g, n, c in commands_with(d)
                   if d != "variants" or "," in c.option(d).default]  # --variants of a list of presets


@pytest.mark.parametrize("game,name,cmd,dest", DUPLICATE_LISTS,
                         ids=[f"{n}-{g}-{d}" for g, n, _, d in DUPLICATE_LISTS])
def test_a_duplicate_in_a_list_valued_option_is_refused(game, name, cmd, dest, capsys):
    opt = cmd.option(dest)
    flag = opt.name
    base = [name, game, *positionals(cmd)]
    if dest == "policy":
        value = f"0={opt.choices[0] if opt.choices else opt.default},0={opt.default}"
    elif dest == "variants":
        parts = opt.default.split(",")
        value = f"{parts[0]},{parts[0]}"
    else:
        first = opt.default.split(",")[0]
        value = f"{first},{first}"
    err = refused([*base, flag, value], capsys)
    assert "given twice" in err, err


def test_variants_lists_of_set_names_refuse_duplicates_too(capsys):
    err = refused(["fairness", "nine-ten", "--variants", "payer,options,payer"], capsys)
    assert "'payer' is given twice" in err


def test_the_rule_options_help_lists_every_option_it_reads_with_its_default(capsys):
    for game, name, cmd in RULE_OPTIONS:
        spec = GAMES[game]
        with pytest.raises(SystemExit):
            main([name, game, "--help"])
        text = " ".join(capsys.readouterr().out.split())
        rules = spec.resolve_rules(spec.presets[0]).to_dict()
        assert f"as in the preset {spec.presets[0]}" in text, (game, name)
        for key, value in rules.items():
            if key == "name":
                continue
            if not cmd.reads_rule(key):  # the help lists the options the command reads, only those
                assert f" {key}=" not in text, (game, name, key)
                continue
            assert f"{key}=" in text, (game, name, key)
            if isinstance(value, (bool, int, float)) and not isinstance(value, str):
                assert f"{key}={value!r}" in text, (game, name, key, value)


def test_the_top_level_help_lists_the_games_and_advise_for_every_game(capsys):
    with pytest.raises(SystemExit):
        main(["--help"])
    text = capsys.readouterr().out
    for spec in GAMES.values():
        assert spec.name in text and spec.title in text
    advise = " ".join(text.split("advise", 1)[1].split("\n")[0:3])
    assert "tile games only" not in text and "every game" in " ".join(text.split())
    assert advise


def test_kaptai_games_gives_the_player_counts_with_what_the_range_does_not_say(capsys):
    import json

    assert main(["games", "--format", "json"]) == 0
    rows = {r["name"]: r for r in json.loads(capsys.readouterr().out)}
    from kaptai.bigtwo.rules import MAX_PLAYERS, MIN_PLAYERS

    assert rows["big-two"]["players"].startswith(f"{MIN_PLAYERS}-{MAX_PLAYERS}")  # the rules allow 2-52
    assert rows["nine-ten"]["players"].startswith("2-15 (4-7 by default")
    from kaptai.nineten.rules import RuleSet, validate_players

    assert validate_players(4, RuleSet()) == 4 and validate_players(7, RuleSet()) == 7
    with pytest.raises(Exception):
        validate_players(3, RuleSet())
    assert rows["heaven-eleven"]["players"] == "4" and rows["nantong"]["players"] == "3-4"


def test_fairness_nantong_takes_hands_as_whole_matches(capsys):
    argv = ["fairness", "nantong", "--hands", "100"]
    args = build_parser(argv).parse_args(argv)
    check_settings(argv, args)
    from kaptai.nantong.commands import _matches

    assert args.matches is None and _matches(args, 24) == 5  # 100 hands of 24-hand matches
    err = refused(["fairness", "nantong", "--hands", "100", "--matches", "3"], capsys)
    assert "--matches 3 is given too" in err
    settings_ok(["fairness", "nantong", "--matches", "3"])


def test_the_scheduler_help_gives_an_install_line_that_works_from_a_clone():
    for spec in GAMES.values():
        for cmd in spec.commands.values():
            opt = cmd.option("scheduler")
            if opt is not None:
                assert "kaptai[distributed]" not in opt.help
                assert "'.[distributed]'" in opt.help and "'dask[distributed]'" in opt.help
    assert "kaptai[distributed]" not in (TOOLS["atlas"].option("scheduler").help)


def test_check_settings_reads_flags_as_typed():
    # --flag=value and -oKEY=VALUE count as given; a default never does
    argv = ["odds", "big-two", "--players=4", "-oplayers=3"]
    with pytest.raises(UsageError, match="--players 4 and -o players=3"):
        check_settings(argv, build_parser(argv).parse_args(argv))
    argv = ["odds", "big-two", "-o", "players=3"]  # --players at its default: -o sets it
    check_settings(argv, build_parser(argv).parse_args(argv))


def test_every_help_names_pages_that_exist_in_the_clone(capsys):
    from pathlib import Path

    root = Path(__file__).resolve().parent.parent
    for spec in GAMES.values():
        with pytest.raises(SystemExit):
            main([next(iter(spec.commands)), spec.name, "--help"])
        text = capsys.readouterr().out
        pages = [w.rstrip(",") for w in text.split() if w.startswith("docs/") and w.rstrip(",").endswith(".md")]
        assert len(pages) == 2, (spec.name, pages)
        for page in pages:
            assert (root / page).is_file(), (spec.name, page)
        assert "../shared" not in text


def test_the_rule_defaults_read_from_the_source_are_the_rulesets():
    # --help reads the rule options from the source of each game's rules (no numpy): the same
    # names, order and values as the default preset's RuleSet
    from kaptai.spec import _literal_rule_defaults

    for spec in GAMES.values():
        read = _literal_rule_defaults(f"{spec.package}.rules", spec.presets[0])
        assert read is not None, spec.name  # the literal path is the one --help takes
        real = {k: v for k, v in spec.resolve_rules(spec.presets[0]).to_dict().items() if k != "name"}
        assert list(read.items()) == list(real.items()), spec.name
        assert spec.rule_defaults() == real


BUDGETED = commands_with("samples", "budget_ms")


@pytest.mark.parametrize("game,name,cmd", BUDGETED, ids=_ids(BUDGETED))
def test_a_time_budget_with_a_fixed_sample_count_is_refused(game, name, cmd, capsys):
    base = [name, game, *positionals(cmd)]
    err = refused([*base, "--samples", "4", "--budget-ms", "100"], capsys)
    assert "--budget-ms has no effect" in err and "--samples 4" in err
    settings_ok([*base, "--budget-ms", "100"])
    settings_ok([*base, "--samples", "4"])


def test_every_advise_has_the_time_budget():
    assert {g for g, _, _ in BUDGETED} >= {"big-two", "nine-ten", "nantong", "heaven-eleven"}
