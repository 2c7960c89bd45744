"""The QA review of issue 30 (a new user's command lines and API calls, generated from the
registry): each class of defect that the review found gets its regression here.

Every case is refused before any work (in-process, milliseconds), with one ``kaptai: error:``
line, exit status 2 and no traceback (CLI), or a :class:`~kaptai.errors.KaptaiError` (API).
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest

from kaptai.cli import main
from kaptai.errors import KaptaiError
from kaptai.games import GAMES


def _commands() -> Iterator[tuple[str, str, Any]]:
    for spec in GAMES.values():
        for name, cmd in spec.commands.items():
            yield spec.name, name, cmd


def _base(command: str, game: str, cmd: Any) -> list[str]:
    return [command, game] + [o.example_value() for o in cmd.options if o.positional]


def _refused(capsys, argv: list[str]) -> str:
    code = main(argv)
    err = capsys.readouterr().err
    lines = [ln for ln in err.splitlines() if ln.strip()]
    assert code == 2 and len(lines) == 1 and lines[0].startswith("kaptai: error: "), f"{argv!r:.300}: {code} {err[:300]!r}"
    assert len(lines[0]) < 400, lines[0]
    return lines[0]


def _numbers() -> Iterator[Any]:
    for game, command, cmd in _commands():
        for opt in cmd.options:
            if opt.kind in ("int", "float") and not opt.positional:
                yield pytest.param(game, command, opt, id=f"{game}-{command}-{opt.name.lstrip('-')}")


@pytest.mark.parametrize("game, command, opt", list(_numbers()))
def test_numbers_in_other_scripts_and_options_given_twice_are_refused(game, command, opt, capsys, tmp_path, monkeypatch):
    """int('١') is 1 and float('٠') 0.0 in Python: an option took Arabic-Indic digits as a
    number; and argparse kept the last of ``--hands 20 --hands 21`` without a word."""
    monkeypatch.chdir(tmp_path)
    cmd = GAMES[game].commands[command]
    base = _base(command, game, cmd)
    for digits in ("١", "１"):
        line = _refused(capsys, base + [opt.name, digits])
        assert opt.name in line
    if opt.lo is not None and opt.lo == opt.hi:
        return  # one value only (kap-shap's --players)
    good = opt.example_value() or str(int(opt.lo if opt.lo is not None else 0))
    value = opt.parse(good)
    other = value + 1 if opt.hi is None or value + 1 <= opt.hi else value - 1
    other_text = str(other) if opt.kind == "int" else repr(float(other))
    line = _refused(capsys, base + [opt.name, good, opt.flags[-1], other_text])
    assert ("given twice with two values" in line or "has no effect here" in line) and opt.name in line
    assert not list(tmp_path.iterdir())


def test_a_switch_given_both_ways_is_refused(capsys):
    for game, command, cmd in _commands():
        if cmd.option("progress") is not None:
            line = _refused(capsys, _base(command, game, cmd) + ["--progress", "--no-progress"])
            assert "--progress and --no-progress contradict" in line


def test_kts_advise_a_complete_hand_checks_its_horizon_first():
    """A complete hand skipped the horizon check: draws=10**30 raised OverflowError."""
    from kaptai.kts.advisor import advise

    for draws in (10**30, 2**63, 5):
        with pytest.raises(KaptaiError, match="draws"):
            advise("66 66 44 44 14 14 55 55 46 46", draws=draws)
    assert advise("66 66 44 44 14 14 55 55 46 46", draws=3)["action"].iloc[0] == "win"


#: A token far past every declared bound (the issue's 4,000 characters).
LONG = "z" * 4000


def _short(exc: BaseException) -> str:
    text = str(exc)
    assert "z" * 46 not in text, f"the error quotes the whole token: {text[:200]}"
    assert len(text) < 600, text[:200]
    return text


def _run_functions() -> Iterator[Any]:
    """Every public function of every game (and the league) that takes progress= or executor=."""
    import importlib
    import inspect

    for pkg in ("kts", "bigtwo", "nineten", "nantong", "heaven11"):
        mod = importlib.import_module(f"kaptai.{pkg}")
        for name in mod.__all__:
            fn = getattr(mod, name)
            if inspect.isfunction(fn):
                params = inspect.signature(fn).parameters
                for arg in ("progress", "executor"):
                    if arg in params:
                        yield pytest.param(fn, arg, id=f"{pkg}-{name}-{arg}")


@pytest.mark.parametrize("fn, arg", list(_run_functions()))
def test_run_functions_quote_a_long_progress_or_executor_briefly(fn, arg):
    """progress= and executor= were quoted whole (repr) by the runner."""
    with pytest.raises(KaptaiError) as info:
        fn(**{arg: LONG})
    assert arg in _short(info.value)


@pytest.mark.parametrize("call", [
    lambda: __import__("kaptai.bigtwo", fromlist=["x"]).make_config(4, search_samples=LONG),
    lambda: __import__("kaptai.bigtwo", fromlist=["x"]).make_config(4, search_rollout=LONG),
    lambda: __import__("kaptai.bigtwo", fromlist=["x"]).make_config(4, search_infer=LONG),
    lambda: __import__("kaptai.nineten", fromlist=["x"]).make_config(4, search_z=LONG),
    lambda: __import__("kaptai.nineten", fromlist=["x"]).make_config(4, search_mix=LONG),
    lambda: __import__("kaptai.nantong", fromlist=["x"]).make_config(3, margin=LONG),
    lambda: __import__("kaptai.nantong", fromlist=["x"]).make_config(3, particles=LONG),
    lambda: __import__("kaptai.heaven11", fromlist=["x"]).trick_winner(["AS", "2S", "3S", "4S"], trump=LONG),
    lambda: __import__("kaptai.bigtwo", fromlist=["x"]).settle([0, 3, 5, 7], winner=LONG),
    lambda: __import__("kaptai.kts", fromlist=["x"]).resolve_rules(forms=LONG),
    lambda: __import__("kaptai.league", fromlist=["x"]).policy_league("nine-ten", hands=20, progress=LONG),
    lambda: __import__("kaptai.heaven11", fromlist=["x"]).make_config(first_dealer=LONG),
    lambda: __import__("kaptai.bigtwo", fromlist=["x"]).settle_many(LONG, winner=[0]),
], ids=["bigtwo-search_samples", "bigtwo-search_rollout", "bigtwo-search_infer", "nineten-search_z",
        "nineten-search_mix", "nantong-margin", "nantong-particles", "heaven11-trump", "bigtwo-settle-winner",
        "kts-forms", "league-progress", "heaven11-first_dealer", "bigtwo-settle_many"])
def test_api_errors_quote_at_most_40_characters(call):
    with pytest.raises(KaptaiError) as info:
        call()
    _short(info.value)


def test_small_api_functions_refuse_what_is_not_their_input():
    """best_bid of an empty distribution divided by zero; format_record(None) iterated None."""
    from kaptai.bigtwo import format_record
    from kaptai.heaven11 import best_bid

    for dist in ({}, {(13, 0, 0, 0): 0}, {(13, 0, 0, 0): "x"}, {(13, 0, 0, 0): -1}, {(13, 0, 0, 0): float("nan")},
                 {(13, 0, 0, 0): True}):
        with pytest.raises(KaptaiError, match="distribution"):
            best_bid(dist)
    assert best_bid({(7, 2, 2, 2): 1})[0] >= 0
    for plays in (None, 1.5, True, 10**30):
        with pytest.raises(KaptaiError):
            format_record(plays)
    assert format_record([(0, 1), None]) == "3D 3C | PASS"


def test_a_process_pool_has_no_more_workers_than_pending_chunks():
    """--workers 256 for a run of 2 chunks forked 256 processes (52 s for 20 hands)."""
    from kaptai.core.runner import _Executors

    ex = _Executors(256, None, None)
    pool = ex.open(2)
    try:
        assert ex.kind == "processes" and ex.workers == ex.slots == 2 and pool._max_workers == 2
    finally:
        pool.shutdown()


def _api(module: str, name: str) -> Any:
    import importlib

    return getattr(importlib.import_module(module), name)


@pytest.mark.parametrize("module, name, kwargs", [
    ("kaptai.nantong", "compare_variants", {"variants": {}, "matches": 2}),
    ("kaptai.nineten", "compare_variants", {"variants": {}, "hands": 20}),
    ("kaptai.bigtwo", "compare_variants", {"variants": {}, "games": 20}),
    ("kaptai.bigtwo", "compare_variants", {"variants": [], "games": 20}),
    ("kaptai.nantong", "fairness", {"variant": {}, "matches": 2}),
    ("kaptai.nantong", "fairness", {"variant": LONG, "matches": 2}),
    ("kaptai.nantong", "hand_winners", {"totals": None, "completers": [True, False, False]}),
    ("kaptai.nantong", "hand_winners", {"totals": [1, 2, 3], "completers": LONG}),
    ("kaptai.nantong", "settle", {"totals": 1.5, "winners": [0]}),
    ("kaptai.nantong", "settle", {"totals": [1, 2, 3], "winners": LONG}),
    ("kaptai.nineten", "parse_cards", {"cards": "RA", "first_item": None}),
    ("kaptai.nineten", "parse_record", {"text": "RAx2 RRx2 YKx2 YAx4 | win=discard | kzwait=YA", "bonus_rule": 1.5}),
    ("kaptai.nineten", "bonus_flip_distribution", {"stock": None, "matches": 3}),
    ("kaptai.nineten", "bonus_flip_distribution", {"stock": 40, "matches": "x"}),
    ("kaptai.nineten", "validate_players", {"players": 4, "rules": 1.5}),
    ("kaptai.heaven11", "make_config", {"contract": 1.5}),
    ("kaptai.heaven11", "make_config", {"bid_table": "x"}),
    ("kaptai.heaven11", "make_config", {"bid_table": 10**30}),
])
def test_api_arguments_of_the_wrong_kind_are_refused_before_any_work(module, name, kwargs):
    """Each raised TypeError/ValueError/AttributeError (or ran nothing and returned an empty
    table: empty variant mappings) before the QA review."""
    with pytest.raises(KaptaiError) as info:
        _api(module, name)(progress=False, **kwargs) if "variant" in str(kwargs) else _api(module, name)(**kwargs)
    _short(info.value)


def test_argparse_messages_shorten_the_token_not_the_text_between_two_quotes(capsys):
    """'local' or ... got '<token>': the text between the two quotes was taken for a token."""
    line = _refused(capsys, ["simulate", "nine-ten", "--scheduler", "x" * 100])
    assert "tcp://host:8786, got 'xxx" in line and "(100 characters)" in line and "x" * 41 not in line


def test_a_scheduler_address_without_a_port_is_refused_without_a_traceback(capsys):
    """tcp://<host> with no port: distributed.Client failed, and its __del__ printed a
    traceback 10 s later; the address is checked first."""
    pytest.importorskip("distributed")
    line = _refused(capsys, ["simulate", "nine-ten", "--hands", "20", "--scheduler", "tcp://" + "x" * 100])
    assert "not host:port" in line and "x" * 41 not in line


def _card_arguments() -> Iterator[Any]:
    for game, command, cmd in _commands():
        for opt in cmd.options:
            if opt.positional and opt.name == "hand":
                yield pytest.param(game, command, id=f"{game}-{command}")


@pytest.mark.parametrize("game, command", list(_card_arguments()))
def test_an_unknown_card_or_tile_is_said_in_about_200_characters(game, command, capsys, tmp_path, monkeypatch):
    """Kap Tai Shap's tile error listed every civil tile name in two languages (318+ characters)."""
    monkeypatch.chdir(tmp_path)
    for token in ("x", "☃☃", "x" * 4000):
        line = _refused(capsys, [command, game, token])
        assert len(line) <= 260, f"{len(line)}: {line}"


@pytest.mark.parametrize("game", list(GAMES))
def test_an_unknown_rule_option_is_said_briefly_with_a_close_match(game, capsys):
    """The error listed every rule option (up to 454 characters); now the first few, the count,
    where --help lists them all, and the close match of a misspelling."""
    names = list(GAMES[game].rule_defaults())
    line = _refused(capsys, ["odds", game, "-o", "nonexistent_option=1"])
    assert len(line) <= 200 and "valid options are" in line
    target = max(names, key=len)
    line = _refused(capsys, ["odds", game, "-o", f"{target[:-1]}=1"])
    assert f"did you mean '{target}'" in line and len(line) <= 260
