"""The rule options each command reads (:attr:`kaptai.spec.Command.rule_fields` / ``rule_ignores``).

Generated from the registry: for every command of every game, every rule option (``-o KEY=``)
it is declared not to read is refused on the command line, naming it; and the declarations are
checked against the code two ways:

* a sample of the fields declared *not* read: the command at a tiny size with a non-default
  value gives exactly the same table (or record) as with the default (the league is left out:
  its deal seed hashes the whole ruleset, so any ``-o`` changes its deals, not its rules);
* every field a command *does* read when it runs (each read of a ``RuleSet`` attribute is
  recorded, outside ``to_dict``/``replace``/``__eq__``/``__post_init__``) is declared read, so
  that nothing the command reads is refused.
"""

from __future__ import annotations

import dataclasses
import importlib
import sys
from typing import Any

import pandas as pd
import pytest

from kaptai.cli import build_parser, check_settings, main, run_command
from kaptai.errors import UsageError
from kaptai.games import GAMES

#: (game, command) with a declaration -> extra arguments that keep a run tiny and deterministic
TINY: dict[tuple[str, str], list[str]] = {
    ("kap-tai-shap", "odds"): ["--no-distance"],
    ("kap-shap", "odds"): ["--no-distance"],
    ("kap-tai-shap", "simulate"): ["--hands", "30", "--seed", "2"],
    ("kap-tai-shap", "evaluate"): [],
    ("kap-tai-shap", "waits"): [],
    ("kap-tai-shap", "advise"): ["--draws", "2"],
    ("kap-tai-shap", "draw-odds"): ["--draws", "2"],
    ("big-two", "odds"): ["--players", "13"],
    ("big-two", "simulate"): ["--hands", "30", "--seed", "2"],
    ("big-two", "advise"): ["--samples", "6"],
    ("big-two", "league"): ["--hands", "8", "--policies", "greedy,random"],
    ("nine-ten", "odds"): [],
    ("nine-ten", "score"): [],
    ("nine-ten", "simulate"): ["--hands", "30", "--seed", "2"],
    ("nine-ten", "advise"): ["--samples", "6"],
    ("nine-ten", "league"): ["--hands", "8", "--policies", "colour_cut,random"],
    ("nantong", "simulate"): ["--hands", "30", "--seed", "2", "--players", "4"],
    ("nantong", "score"): [],
    ("nantong", "waits"): [],
    ("nantong", "evaluate"): [],
    ("nantong", "advise"): ["--samples", "6"],
    ("nantong", "league"): ["--hands", "8", "--policies", "max_melds,random", "--players", "4"],
    ("heaven-eleven", "odds"): ["--table", "scores"],
    ("heaven-eleven", "score"): [],
    ("heaven-eleven", "simulate"): ["--hands", "30", "--seed", "2"],
    ("heaven-eleven", "fairness"): ["--hands", "16"],
    ("heaven-eleven", "advise"): ["--samples", "6"],
    ("heaven-eleven", "league"): ["--hands", "8", "--policies", "greedy,random"],
}

#: Fields declared not read, each with a value other than the default: the output must not change.
UNREAD_SAMPLE: list[tuple[str, str, str, str]] = [
    ("kap-shap", "odds", "house_cut", "0.2"),
    ("kap-shap", "odds", "claim", "any"),
    ("kap-tai-shap", "simulate", "dealer_keeps_on_win", "true"),
    ("kap-tai-shap", "simulate", "drawn_hand", "carry"),
    ("kap-tai-shap", "evaluate", "settlement", "advanced"),
    ("kap-tai-shap", "waits", "dice", "4"),
    ("kap-tai-shap", "advise", "turn", "claim-or-draw"),
    ("kap-tai-shap", "draw-odds", "keep_drawn", "false"),
    ("big-two", "odds", "stake", "7.5"),
    ("big-two", "odds", "top_rule", "mandatory"),
    ("big-two", "simulate", "bankroll", "capped"),
    ("big-two", "advise", "bankroll", "capped"),
    ("nine-ten", "odds", "stake_per_tou", "20"),
    ("nine-ten", "score", "reserve", "20"),
    ("nine-ten", "score", "dead_card_order", "policy"),
    ("nine-ten", "simulate", "foul_penalty_tou", "5"),
    ("nine-ten", "simulate", "seating", "random"),
    ("nine-ten", "advise", "stake_per_tou", "20"),
    ("nantong", "simulate", "first_sitter", "opposite"),
    ("nantong", "simulate", "dreamer_shares", "with_dealer"),
    ("nantong", "score", "tie", "seat_order"),
    ("nantong", "score", "settlement", "winner_collects"),
    ("nantong", "waits", "wenqian", "cumulative"),
    ("nantong", "evaluate", "single_turn", "true"),
    ("nantong", "advise", "rounds", "2"),
    ("heaven-eleven", "odds", "must_trump", "true"),
    ("heaven-eleven", "score", "point_scheme", "rank"),
    ("heaven-eleven", "simulate", "rounds", "2"),
    ("heaven-eleven", "advise", "rounds", "9"),
]


def _declared() -> list[tuple[str, str, Any]]:
    return [(g.name, name, cmd) for g in GAMES.values() for name, cmd in g.commands.items()
            if cmd.option("option") is not None and not cmd.reads_every_rule]


DECLARED = _declared()


def _base(game: str, name: str, extra: list[str] | None = None) -> list[str]:
    cmd = GAMES[game].commands[name]
    return [name, game, *[o.example_value() or "" for o in cmd.options if o.positional], *(extra or [])]


def test_every_game_declares_what_its_commands_read():
    """Each declaration names real rule options of its game and says why the others change nothing;
    odds, score, evaluate and waits read only some of them in every game that has them."""
    for game, name, cmd in DECLARED:
        known = set(GAMES[game].rule_defaults())
        named = set(cmd.rule_fields if cmd.rule_fields is not None else cmd.rule_ignores)
        assert named and named <= known, (game, name, named - known)
        assert cmd.rule_note, (game, name)
    for g in GAMES.values():
        for name in ("odds", "score", "evaluate", "waits"):
            if name in g.commands and g.commands[name].option("option") is not None:
                assert g.commands[name].rule_fields is not None, (g.name, name)
    # a person's commands (play) read the terminal: not run here; their refusals are (below)
    assert all(key in TINY for key in [(g, n) for g, n, _ in DECLARED if g != "kap-shap" and
                                       (g, n) != ("nantong", "odds") and n != "play"])


@pytest.mark.parametrize("game,name", [(g, n) for g, n, _ in DECLARED], ids=[f"{n}-{g}" for g, n, _ in DECLARED])
def test_every_rule_option_a_command_does_not_read_is_refused(game, name, capsys):
    spec = GAMES[game]
    cmd = spec.commands[name]
    defaults = spec.rule_defaults()
    unread = [k for k in defaults if not cmd.reads_rule(k)]
    read = [k for k in defaults if cmd.reads_rule(k)]
    assert unread and read
    base = _base(game, name)
    for key in unread:  # even at its default value: it has no effect either way
        value = defaults[key]
        text = str(value).lower() if isinstance(value, bool) else str(value)
        assert main([*base, "-o", f"{key}={text}"]) == 2
        err = capsys.readouterr().err
        assert f"kaptai {name} {game} does not use the rule option '{key}'" in err, err
        assert cmd.rule_note in err and err.count("\n") == 1
    plain = build_parser(base).parse_args(base)
    for key in read:  # an option it reads passes, unless the command line makes it change nothing
        argv = [*base, "-o", f"{key}={defaults[key]}"]
        if cmd.rule_applies is None or cmd.rule_applies(plain, key) is None:
            check_settings(argv, build_parser(argv).parse_args(argv))
        else:
            with pytest.raises(UsageError, match="has no effect here"):
                check_settings(argv, build_parser(argv).parse_args(argv))
    with pytest.raises(SystemExit):
        main([name, game, "--help"])
    help_text = " ".join(capsys.readouterr().out.split())
    assert "The options this command reads" in help_text
    assert all(f" {k}=" not in help_text for k in unread) and all(f"{k}=" in help_text for k in read)


def _run(argv: list[str]):
    """The command's output, past the command line's checks (so that an unread -o still runs)."""
    return run_command(build_parser(argv).parse_args(argv))


def _same(a, b) -> None:
    if a.record is not None or b.record is not None:
        ra, rb = dict(a.record or {}), dict(b.record or {})
        for r in (ra, rb):
            r.pop("rules", None)
        assert ra == rb
        return
    assert isinstance(a.table, pd.DataFrame) and isinstance(b.table, pd.DataFrame)
    pd.testing.assert_frame_equal(a.table.reset_index(drop=True), b.table.reset_index(drop=True))


@pytest.mark.parametrize("game,name,key,value", UNREAD_SAMPLE,
                         ids=[f"{n}-{g}-{k}" for g, n, k, _ in UNREAD_SAMPLE])
def test_a_rule_option_declared_not_read_changes_nothing(game, name, key, value):
    cmd = GAMES[game].commands[name]
    assert not cmd.reads_rule(key)
    base = _base(game, name, TINY[(game, name)]) + (["--format", "json"] if cmd.option("format") else [])
    assert str(GAMES[game].rule_defaults()[key]).lower() != value.lower()
    default = _run(base)
    changed = _run([*base, "-o", f"{key}={value}"])
    assert default.table is not None or default.record is not None
    _same(default, changed)


#: Frames whose reads are not the command's: copies, comparisons, listings of every option.
_NOT_READS = {"to_dict", "replace", "_replace", "__eq__", "__repr__", "__hash__", "describe", "__post_init__",
              "from_dict", "__new__", "put", "_label", "asdict", "_asdict_inner", "astuple"}


@pytest.mark.parametrize("game,name", sorted(TINY), ids=[f"{n}-{g}" for g, n in sorted(TINY)])
def test_every_rule_option_a_command_reads_is_declared(game, name, monkeypatch):
    """Every RuleSet field the command reads while it runs is one its declaration says it reads."""
    spec = GAMES[game]
    cmd = spec.commands[name]
    cls = importlib.import_module(spec.package + ".rules").RuleSet
    fields = {f.name for f in dataclasses.fields(cls)} - {"name"}
    reads: dict[str, str] = {}
    forced: dict[int, set[str]] = {}  # copies the command makes with a field set (bankroll='off'): not the user's
    replace = cls.replace

    def replacing(self, **overrides):
        new = replace(self, **overrides)
        if sys._getframe(1).f_code.co_name not in ("resolve_ruleset", "preset"):  # not the user's -o
            forced[id(new)] = forced.get(id(self), set()) | {k for k in overrides if k in fields}
        return new

    def getattribute(self, attr):
        if attr in fields and attr not in forced.get(id(self), ()):
            frame = sys._getframe(1)
            code = frame.f_code
            if (code.co_name not in _NOT_READS and not code.co_filename.endswith(("core/options.py", "dataclasses.py"))
                    and not (code.co_name == "<dictcomp>" and code.co_filename.endswith("rules.py"))):
                reads.setdefault(attr, f"{code.co_filename.rsplit('/', 1)[-1]}:{code.co_name}")
        return object.__getattribute__(self, attr)

    monkeypatch.setattr(cls, "__getattribute__", getattribute, raising=False)
    monkeypatch.setattr(cls, "replace", replacing)
    out = _run(_base(game, name, TINY[(game, name)]))
    assert out.table is not None or out.record is not None
    undeclared = {k: where for k, where in reads.items() if not cmd.reads_rule(k)}
    assert not undeclared, f"kaptai {name} {game} reads rule options it declares unread: {undeclared}"
    assert reads  # the recorder saw the command's reads


def _numeric_fields() -> list[tuple[str, str]]:
    """(game, field) of every rule option that holds a number (or None for 'the table's')."""
    out = []
    for g in GAMES.values():
        if g.name == "kap-shap":  # Kap Tai Shap's rules
            continue
        for key, value in g.rule_defaults().items():
            if value is None or (isinstance(value, (int, float)) and not isinstance(value, bool)):
                out.append((g.name, key))
    return out


NUMERIC = _numeric_fields()


@pytest.mark.parametrize("game,key", NUMERIC, ids=[f"{g}-{k}" for g, k in NUMERIC])
def test_every_numeric_rule_option_is_bounded_at_the_api_and_the_command_line(game, key, capsys):
    """A number no game could mean (10**30, -10**30, 1e30) is refused by resolve_rules naming the
    option and what it expects; the command line says the same (or that the command does not
    read the option at all)."""
    from kaptai.errors import RulesError

    spec = GAMES[game]
    for value in (10**30, -(10**30), 1e30, float("nan"), "10**30"):
        with pytest.raises(RulesError) as exc:
            spec.resolve_rules(**{key: value})
        text = str(exc.value)
        assert f"'{key}'" in text or f"{key}=" in text, text
        assert "expected" in text and len(text) < 300, text
    readers = [(n, c) for n, c in spec.commands.items() if c.option("option") is not None and c.reads_rule(key)]
    name, cmd = readers[0] if readers else next((n, c) for n, c in spec.commands.items() if c.option("option"))
    assert main([*_base(game, name), "-o", f"{key}=10**30"]) == 2
    err = capsys.readouterr().err
    assert (f"'{key}'" in err or f"{key}=" in err) and err.count("\n") == 1, err


def _text_options() -> list[tuple[str, str, str]]:
    out = []
    for g in GAMES.values():
        for name, cmd in g.commands.items():
            for o in cmd.options:
                if o.kind == "str" and o.metavar not in ("FILE", "DIR"):
                    out.append((g.name, name, o.name))
    return out


TEXT_OPTIONS = _text_options()


@pytest.mark.parametrize("game,name,option", TEXT_OPTIONS, ids=[f"{n}-{g}-{o}" for g, n, o in TEXT_OPTIONS])
def test_a_list_of_only_separators_is_refused_naming_it(game, name, option, capsys):
    """``--seen ,`` (or a hand of ' ; ') is not an empty list: refused, quoting the token."""
    cmd = GAMES[game].commands[name]
    for token in (",", " , ; "):
        argv = [name, game] + [token if o.name == option else (o.example_value() or "x")
                               for o in cmd.options if o.positional]
        if option.startswith("-"):
            argv += [option, token]
        assert main(argv) == 2
        err = capsys.readouterr().err
        assert "only separators" in err and repr(token) in err and err.count("\n") == 1, err


def _junk_calls():
    import kaptai.bigtwo as b
    import kaptai.heaven11 as h
    import kaptai.kts as k
    import kaptai.nantong as t
    import kaptai.nineten as n

    return [
        ("bigtwo.parse_card position", lambda: b.parse_card("3D", position="x"), "position"),
        ("bigtwo.parse_card position 0", lambda: b.parse_card("3D", position=0), "position"),
        ("bigtwo.penalty points_left", lambda: b.penalty(5, points_left="x"), "points_left"),
        ("bigtwo.penalty points_left range", lambda: b.penalty(5, points_left=-1), "points_left"),
        ("bigtwo.penalty instant", lambda: b.penalty(5, instant="x"), "instant"),
        ("bigtwo.penalties points_left", lambda: b.penalties([[0, 5, 6, 7]], points_left="x"), "points_left"),
        ("bigtwo.format_cards sort", lambda: b.format_cards([0, 1], sort="x"), "sort"),
        ("bigtwo.format_cards rules without sort", lambda: b.format_cards([0, 1], rules=b.RuleSet()), "rules"),
        ("bigtwo.parse_hand dict", lambda: b.parse_hand({}), "dict"),
        ("nineten.parse_card item", lambda: n.parse_card("RA", item="x"), "item"),
        ("nineten.parse_cards first_item", lambda: n.parse_cards("RA", first_item=0), "first_item"),
        ("nineten.parse_hand dict", lambda: n.parse_hand({}), "dict"),
        ("nineten.format_record", lambda: n.format_record("x"), "Record"),
        ("nantong.format_card chinese", lambda: t.format_card(3, chinese="x"), "chinese"),
        ("nantong.format_cards chinese", lambda: t.format_cards([3], chinese=1), "chinese"),
        ("nantong.format_record", lambda: t.format_record("x"), "ScoreRecord"),
        ("heaven11.parse_bid position", lambda: h.parse_bid("3C", position=None), "position"),
        ("heaven11.format_cards sort", lambda: h.format_cards([0], sort=1), "sort"),
        ("heaven11.parse_hand dict", lambda: h.parse_hand({}), "dict"),
        ("kts.parse_hand dict", lambda: k.parse_hand({}), "dict"),
    ] + [(f"{m.__name__}.{f} ','", (lambda f=getattr(m, f): f(",")), "only separators")
         for m, f in ((b, "parse_cards"), (n, "parse_cards"), (t, "parse_cards"), (h, "parse_cards"), (k, "parse_hand"))]


JUNK_CALLS = _junk_calls()


@pytest.mark.parametrize("what,call,named", JUNK_CALLS, ids=[w for w, _, _ in JUNK_CALLS])
def test_the_small_api_helpers_refuse_junk_arguments_naming_them(what, call, named):
    from kaptai.errors import KaptaiError

    with pytest.raises(KaptaiError, match=named):
        call()


def test_the_small_api_helpers_still_take_good_arguments():
    import kaptai.bigtwo as b
    import kaptai.heaven11 as h
    import kaptai.nantong as t
    import kaptai.nineten as n

    assert b.parse_card("3D", position=4) == 0 and b.penalty(5, points_left=30) == 5
    assert b.format_cards([51, 0], sort=True, rules=b.RuleSet()) == "3D 2S"
    assert n.parse_cards("RA RK", first_item=3) == (n.parse_card("RA"), n.parse_card("RK"))
    assert t.format_card(3, chinese=True) == "四萬" and t.format_cards([3, 3]) == "4w 4w"
    assert h.parse_bid("3C", position=2) == (3, 0) and h.format_cards([1, 0], sort=True) == h.format_cards([0, 1])
    assert b.parse_cards("") == () and n.parse_cards("") == () and len(t.parse_cards("")) == 0


#: A rule option a command reads, given where the command line makes it change nothing (its
#: declaration's rule_applies): refused, and indeed the output is the same with it.
NO_EFFECT_HERE = [
    ("heaven-eleven", "odds", [], "short_penalty", "symmetric"),
    ("heaven-eleven", "odds", ["--table", "scores"], "point_scheme", "rank"),
    ("nine-ten", "odds", [], "large_table", "ten_nine"),
    ("nine-ten", "odds", ["--players", "5"], "allow_small_table", "true"),
    ("nantong", "simulate", ["--hands", "30", "--seed", "2"], "four_active", "true"),
]


@pytest.mark.parametrize("game,name,extra,key,value", NO_EFFECT_HERE, ids=[f"{n}-{g}-{k}" for g, n, _, k, _ in NO_EFFECT_HERE])
def test_a_rule_option_with_no_effect_in_the_command_line_as_given_is_refused(game, name, extra, key, value, capsys):
    cmd = GAMES[game].commands[name]
    assert cmd.reads_rule(key) and cmd.rule_applies is not None
    base = [*_base(game, name, extra), "--format", "json"]
    assert main([*base, "-o", f"{key}={value}"]) == 2
    err = capsys.readouterr().err
    assert f"-o {key}=" in err and "has no effect here" in err and err.count("\n") == 1, err
    _same(_run(base), _run([*base, "-o", f"{key}={value}"]))
