"""Bad input, fuzzed (issue 13): random strings of tile/card tokens and junk, non-string
objects and random option dictionaries through every public parser and entry point of
both games, and random command lines through ``kaptai.cli.main``.

Zero exceptions outside :class:`kaptai.errors.KaptaiError` (argparse's own exit for an
unknown flag aside), and the command line never prints a traceback.  CI runs a reduced
size; the ``slow`` test runs at least 10**5 library inputs (times ``KAPTAI_SLOW_SCALE``).
"""
import contextlib
import importlib
import io
import random
from fractions import Fraction

import numpy as np
import pytest

from kaptai.errors import KaptaiError

from .conftest import scaled

JUNK = ["", " ", ",", ", ,", "-", ":", "|", "x", "1X", "\x00", "☃", "66666", "0", "-1", "1e9", "None", "nan",
        "💀", "\ufe0f", "10", "T", "♠", "PASS", "P", "6-", "-6", "6:", "天天", "ｓ", "\u200b", "'", '"', "\\", "%s",
        "{}", "[]", "=", "a=b", "1" * 40, "-" * 5, "\t", "\n"]


def _kts_tokens():
    from kaptai.kts.tiles import TILES, format_tile

    out = []
    for t in TILES:
        for style in ("pips", "compact", "zh", "en"):
            out.append(format_tile(t.id, style))
    out += ["4:2", "6-6", "42", "24", "heaven", "Heaven", "HEAVEN", "天", "雜九", "red-ten", "long three"]
    return out


def _card_tokens():
    from kaptai.bigtwo.cards import format_card

    out = [format_card(c, s) for c in range(52) for s in ("letter", "symbol")]
    return out + ["10h", "d3", "♦3", "♠️2", "tD", "1X", "3Z", "AA", "22", "S2"]


def _objects():
    return [None, 0, -1, 21, 52, 10**30, 3.14, float("nan"), float("inf"), True, False, b"66", bytearray(b"3S"),
            np.array(5), np.array([0, 1]), np.array([[1, 2]]), np.array([], dtype=float), np.array(["3D"]),
            np.int64(3), np.float32(1), np.bool_(True), [None], [[1]], {"a": 1}, {1: 2}, set(), frozenset({3}),
            object(), (1, "66"), range(3), [1.5], [np.nan], Fraction(1, 2), complex(1, 1), [True], [-1], [99],
            ["66", 3], [b"x"], "66" * 50, Ellipsis, type, lambda: 1]


def _text(rng, tokens):
    seps = [" ", ",", ", ", "  ", "|", "\t", ";", ""]
    n = rng.randrange(0, 16)
    parts = [rng.choice(tokens) if rng.random() < 0.8 else rng.choice(JUNK) for _ in range(n)]
    return "".join(p + rng.choice(seps) for p in parts)


def _input(rng, tokens, objects):
    r = rng.random()
    if r < 0.3:  # a plausible hand: the right number of real tokens (so the call goes deep)
        n = rng.choice([1, 2, 3, 5, 7, 8, 9, 10, 13])
        return " ".join(rng.sample(tokens[:52], n) if len(tokens) >= 52 and rng.random() < 0.5
                        else [rng.choice(tokens) for _ in range(n)])
    if r < 0.55:
        return _text(rng, tokens)
    if r < 0.7:
        return [rng.choice(tokens) for _ in range(rng.randrange(0, 14))]
    if r < 0.8:
        return [rng.randrange(-3, 60) for _ in range(rng.randrange(0, 14))]
    if r < 0.9:
        return rng.choice(objects)
    return [rng.choice(objects + tokens) for _ in range(rng.randrange(0, 6))]


def _value_pool(option_values):
    pool = [None, True, False, 0, 1, 2, 3, 5, 10, -1, 0.05, 1.5, float("nan"), "", "x", "none", "any", "basic",
            ("basic",), ["basic", "run4"], {"a": 1}, 10**20, np.int64(2), object()]
    for values in option_values:
        pool += list(values)
    return pool


def _options(rng, names, pool):
    out = {}
    for _ in range(rng.randrange(0, 5)):
        key = rng.choice(names) if rng.random() < 0.85 else rng.choice(JUNK + ["players", "sets", "colour"])
        out[key] = rng.choice(pool)
    return out


class _Fuzz:
    def __init__(self, seed):
        b2_rules = importlib.import_module("kaptai.bigtwo.rules")
        kts_rules = importlib.import_module("kaptai.kts.rules")

        self.rng = random.Random(seed)
        self.kts_tokens = _kts_tokens()
        self.card_tokens = _card_tokens()
        self.objects = _objects()
        self.kts_names = list(kts_rules.RuleSet.option_names())
        self.b2_names = list(b2_rules.RuleSet.option_names())
        self.kts_pool = _value_pool(getattr(kts_rules, "OPTION_VALUES", {}).values())
        b2_values = [v for v in vars(b2_rules).values() if isinstance(v, tuple) and v and isinstance(v[0], (str, int))]
        self.b2_pool = _value_pool(b2_values)
        self.failures = []
        self.calls = 0

    def call(self, fn, *args, **kwargs):
        self.calls += 1
        try:
            fn(*args, **kwargs)
        except KaptaiError as exc:
            assert str(exc), f"{fn.__name__}: empty message"
        except Exception as exc:  # noqa: BLE001 - what the fuzz looks for
            if len(self.failures) < 20:
                self.failures.append(f"{fn.__module__}.{fn.__name__}{(args, kwargs)!r:.300}: {type(exc).__name__}: {exc}")

    # -- one random call -------------------------------------------------------------
    def kts_rules(self):
        r = self.rng.random()
        if r < 0.5:
            return self.rng.choice(["traditional", "advanced"])
        if r < 0.6:
            return self.rng.choice([None, "fancy", 3, {"name": "x"}] + self.objects[:5])
        return _options(self.rng, self.kts_names, self.kts_pool)

    def b2_rules(self):
        r = self.rng.random()
        if r < 0.5:
            return self.rng.choice([None, "hong_kong"])
        if r < 0.6:
            return self.rng.choice(["traditional", 3, {"name": "x"}] + self.objects[:5])
        return _options(self.rng, self.b2_names, self.b2_pool)

    def kts_call(self, heavy):
        ev, rules, tiles = (importlib.import_module(f"kaptai.kts.{m}") for m in ("evaluate", "rules", "tiles"))

        rng = self.rng
        x = _input(rng, self.kts_tokens, self.objects)
        choice = rng.randrange(11 if heavy else 10)
        if choice == 0:
            self.call(tiles.parse_tile, rng.choice(self.kts_tokens + JUNK + self.objects))
        elif choice == 1:
            self.call(tiles.parse_hand, x, size=rng.choice([None, 10, (8, 10), 0, -1, "x", [9]]),
                      sets=rng.choice([None, 1, 2, 0, -1, True, "2", 10**9]))
        elif choice == 2:
            self.call(tiles.format_hand, x, style=rng.choice(["pips", "compact", "zh", "en", "x", None]))
        elif choice == 3:
            self.call(tiles.tile_counts, x)
        elif choice == 4:
            self.call(ev.evaluate, x, self.kts_rules(), sets=rng.choice([None, 1, 2, 5, 0, "2"]),
                      players=rng.choice([None, 2, 4, 23, 0, "4"]))
        elif choice == 5:
            self.call(ev.waits, x, self.kts_rules(), seen=_input(rng, self.kts_tokens, self.objects),
                      players=rng.choice([None, 2, 4, 23, -1]), sets=rng.choice([None, 1, 2, 0]))
        elif choice == 6:
            fn = rng.choice([ev.score_hands, ev.classify_hands, ev.waits_hands])
            arr = rng.choice([x, np.array([rng.randrange(-2, 23) for _ in range(rng.choice([8, 9, 10, 7, 3]))]),
                              np.zeros((2, 10), dtype=rng.choice([np.int8, np.int64, np.float64, np.uint8]))])
            self.call(fn, arr, self.kts_rules())
        elif choice == 7:
            self.call(rules.resolve_rules, self.kts_rules(), **_options(rng, self.kts_names, self.kts_pool))
        elif choice == 8:
            self.call(rules.RuleSet, **_options(rng, self.kts_names, self.kts_pool))
        elif choice == 9:
            self.call(rules.sets_for_players, rng.choice([2, 4, 22, 23, 0, -1, 2.5, "4", None, True]))
        else:
            advisor = importlib.import_module("kaptai.kts.advisor")
            fn = rng.choice([advisor.advise, advisor.draw_odds])
            self.call(fn, x, self.kts_rules(), seen=_input(rng, self.kts_tokens, self.objects),
                      draws=rng.choice([1, 2, 0, -1, "2", 2.5]), players=rng.choice([2, 4, 23, None]),
                      sets=rng.choice([None, 1, 2, 0]))

    def b2_call(self, heavy):
        cards, combos, rules = (importlib.import_module(f"kaptai.bigtwo.{m}") for m in ("cards", "evaluate", "rules"))

        rng = self.rng
        x = _input(rng, self.card_tokens, self.objects)
        choice = rng.randrange(10)
        if choice == 0:
            self.call(cards.parse_card, rng.choice(self.card_tokens + JUNK + self.objects),
                      rng.choice([1, 2, 0, -1, "x"]))
        elif choice == 1:
            self.call(cards.parse_cards, x)
        elif choice == 2:
            self.call(cards.parse_hand, x, size=rng.choice([None, 13, 0, -1, "13", 2.5]))
        elif choice == 3:
            rec = x if rng.random() < 0.3 else " | ".join(_text(rng, self.card_tokens + ["PASS", "P"])
                                                          for _ in range(rng.randrange(0, 5)))
            self.call(cards.parse_record, rec)
        elif choice == 4:
            self.call(cards.format_cards, x, rng.choice(["letter", "symbol", "x", None]))
        elif choice == 5:
            self.call(combos.classify, x, self.b2_rules())
        elif choice == 6:
            fn = rng.choice([combos.compare, combos.beats])
            self.call(fn, x, _input(rng, self.card_tokens, self.objects), self.b2_rules())
        elif choice == 7:
            hand = x if rng.random() < 0.5 else rng.sample(self.card_tokens[:52], rng.randrange(0, 14))
            self.call(combos.legal_plays, hand, self.b2_rules(),
                      rng.choice([None, _input(rng, self.card_tokens, self.objects)]))
        elif choice == 8:
            self.call(combos.classify_masks, rng.choice([x, [1, 3, 2**53], np.array([-1]), np.array([1.5]),
                                                         np.array([[3, 7]], dtype=np.uint64), 5]), self.b2_rules())
        else:
            self.call(rules.resolve_rules, self.b2_rules(), **_options(rng, self.b2_names, self.b2_pool))

    def core_call(self):
        options = importlib.import_module("kaptai.core.options")

        rng = self.rng
        text = rng.choice(["3-10", "3,4,6", "3-1", "2-4,8", "", ",", "-", "a-b", "3--4", "4-4", "1-100000",
                           "0=score", "0=score,0=random", "9=random", "x=y", "=", "0=", "greedy"] + JUNK)
        choice = rng.randrange(5)
        if choice == 0:
            self.call(options.parse_player_range, rng.choice([text, None, 3, [3, 4], [], ["x"]]))
        elif choice == 1:
            self.call(options.parse_seat_policies, rng.choice([text, None, 3]), rng.choice([2, 4, 8]))
        elif choice == 2:
            self.call(options.check_seed, rng.choice(self.objects + [2**128, -5, "7"]))
        elif choice == 3:
            self.call(options.check_count, "hands", rng.choice(self.objects + [2**70, -5, "7"]))
        else:
            self.call(options.check_players, rng.choice(self.objects + [4, 23]), 2, 22)

    def run(self, n, heavy_share=0.002):
        for _ in range(n):
            r = self.rng.random()
            heavy = self.rng.random() < heavy_share
            if r < 0.45:
                self.kts_call(heavy)
            elif r < 0.9:
                self.b2_call(heavy)
            else:
                self.core_call()


def _fuzz_library(n, seed):
    f = _Fuzz(seed)
    f.run(n)
    assert f.calls == n
    assert not f.failures, "\n".join(f.failures)


def _cli_argv(rng, f):
    games = ["kap-tai-shap", "kap-shap", "big-two"]
    cmd = rng.choice(["evaluate", "waits", "advise", "draw-odds", "odds", "simulate"])
    game = rng.choice(games)
    tokens = f.card_tokens if game == "big-two" else f.kts_tokens
    argv = [cmd, game]
    if cmd in ("evaluate", "waits", "advise", "draw-odds"):
        argv.append(_text(rng, tokens + JUNK))
        if rng.random() < 0.3:
            argv += ["--seen", _text(rng, tokens)]
        if rng.random() < 0.2:
            argv += ["--sets", rng.choice(["0", "1", "3", "x", "-1"])]
        if cmd in ("advise", "draw-odds"):
            argv += ["--draws", rng.choice(["1", "0", "-2"])]
    elif cmd == "odds":
        if rng.random() < 0.5:
            argv.append("--no-distance")
        argv += ["--players", rng.choice(["2", "3", "4", "5", "23", "0", "x", "53"])]
        if game == "kap-tai-shap" and "--no-distance" not in argv:
            argv.append("--no-distance")
    else:
        argv += ["--hands", rng.choice(["0", "-1", "x", "50"]), "--seed", rng.choice(["1", "-1", "x"])]
        if rng.random() < 0.5:
            argv += ["--policy", rng.choice(["0=score,0=random", "9=x", "smart", "0=", "greedy"])]
    for _ in range(rng.randrange(0, 3)):
        key = rng.choice(f.b2_names if game == "big-two" else f.kts_names + ["bogus"])
        argv += ["-o", f"{key}={rng.choice(['1', 'x', 'True', '[1]', '{', '', 'None', '0.5', '-3'])}"]
    if rng.random() < 0.2:
        argv += ["--format", rng.choice(["json", "csv", "parquet", "x"])]
    if rng.random() < 0.1:
        argv += ["--out", rng.choice(["/proc/x.json", "/nonexistent/x.csv", "t.txt"])]
    return argv


def _fuzz_cli(n, seed, tmp_path, monkeypatch):
    from kaptai.cli import main

    monkeypatch.chdir(tmp_path)
    f = _Fuzz(seed)
    rng = random.Random(seed + 1)
    failures = []
    for _ in range(n):
        argv = _cli_argv(rng, f)
        out, err = io.StringIO(), io.StringIO()
        try:
            with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
                code = main(argv)
        except SystemExit as exc:  # argparse: a value of the wrong type for a flag
            code = exc.code
        except Exception as exc:  # noqa: BLE001
            failures.append(f"{argv!r}: {type(exc).__name__}: {exc}")
            continue
        if code not in (0, 2) or "Traceback" in err.getvalue():
            failures.append(f"{argv!r}: exit {code}: {err.getvalue()[:300]}")
        if code == 2 and err.getvalue() and not any(
            line.startswith(("kaptai: error:", "usage:")) for line in err.getvalue().splitlines()
        ):
            failures.append(f"{argv!r}: exit 2 without an error line: {err.getvalue()[:300]}")
        if len(failures) > 10:
            break
    assert not failures, "\n".join(failures)


def test_fuzz_library_reduced():
    _fuzz_library(3000, seed=13)


def test_fuzz_cli_reduced(tmp_path, monkeypatch):
    _fuzz_cli(60, seed=13, tmp_path=tmp_path, monkeypatch=monkeypatch)


@pytest.mark.slow
def test_fuzz_library_full():
    _fuzz_library(scaled(100_000, 1000), seed=2026)


@pytest.mark.slow
def test_fuzz_cli_full(tmp_path, monkeypatch):
    _fuzz_cli(scaled(1500, 30), seed=2026, tmp_path=tmp_path, monkeypatch=monkeypatch)


# --------------------------------------------------------------------------------------
# Numbers and records at their limits (issue 22, item 3): a number of more than 4,300
# digits (Python's int() refuses it with a ValueError), a token of 100,000 characters, a
# NUL or an ideographic space, anywhere in a record or a hand, of every game
# --------------------------------------------------------------------------------------
from hypothesis import HealthCheck, given, settings  # noqa: E402
from hypothesis import strategies as st  # noqa: E402

#: (what, parser, record templates with one slot {N} for the huge token)
_RECORD_PARSERS = [
    ("nine-ten score", "kaptai.nineten.scoring:score", [
        "RAx{N} RRx2 YKx2 YAx2 WEx2 | win=self | bonus=GC GP WE RK RA",
        "RAx2 RRx2 YKx2 YAx2 WEx2 | win=self | bonus=GC GP WE RK RAx{N}",
        "RAx2 RRx2 YKx2 YAx4 | win=discard | kzwait=YAx{N}",
        "RAx2 RRx2 YKx2 YAx4 | win={N} | kz=YA",
        "RAx2 RRx2 YKx2 YAx4 | {N}=discard",
        "{N}",
    ]),
    ("nine-ten hand", "kaptai.nineten.cards:parse_hand", ["RAx{N}", "RA {N}", "{N}x2"]),
    ("Nantong score", "kaptai.nantong.scoring:score", [
        "jiang=5w,7b win=self:9w hand=123b 234w 678t 333w qz qz qz 789t 99w melds=pong:bhx{N}",
        "jiang=5w,7b win=self:9wx{N} hand=123b 234w 678t 333w qz qz qz 789t 99w melds=pong:bh",
        "jiang=5wx{N},7b win=self:9w hand=123b 234w 678t 333w qz qz qz 789t 99w melds=pong:bh",
        "jiang=5w,7b win=self:9w hand=123b 234w 678t 333w qzx{N} 789t 99w melds=pong:bh",
        "jiang=5w,7b win=self:9w hand={N}w",
        "jiang=5w,7b win={N} hand=99w",
        "jiang=5w,7b win=none hand=99w yazhuang={N}",
        "{N}=5w",
    ]),
    ("Nantong best score", "kaptai.nantong.evaluate:best_score", [
        "jiang=5w,7b win=self:9w hand=123b 234w 678t 333w qz qz qz 789t 99w melds=pong:bhx{N}",
    ]),
    ("Nantong hand", "kaptai.nantong.evaluate:analyze_hand", ["5wx{N}", "qzx{N} 1w", "{N}"]),
    ("Heaven Eleven score", "kaptai.heaven11.scoring:score", [
        "bid={N}C tricks=4/3/3/3",
        "bid={N} tricks=4/3/3/3",
        "bid=3C tricks={N}/0/0/0",
        "bid=3C tricks=7/2/2/{N}",
        "bid=3C tricks=7/2/2/2 {N}",
        "bid=3{N} tricks=7/2/2/2",
    ]),
    ("Heaven Eleven bid", "kaptai.heaven11.cards:parse_bid", ["{N}C", "{N}", "3{N}"]),
    ("big-two play record", "kaptai.bigtwo.cards:parse_record", ["3D | {N}H | PASS", "{N}", "3D {N}"]),
    ("Heaven Eleven hand", "kaptai.heaven11.cards:parse_hand", ["{N}S 3D"]),
    ("Kap Tai Shap hand", "kaptai.kts.evaluate:evaluate", ["{N} 66 66 44 14 14 55 55 46 36", "6-{N}", "天({N})"]),
    ("Kap Tai Shap waits", "kaptai.kts.evaluate:waits", ["16 16 16 12 33 13 15 22 {N}", "{N}"]),
]


def _parser(path):
    module, name = path.split(":")
    return getattr(importlib.import_module(module), name)


def _huge_token(kind: str, n: int, seed: int) -> str:
    rng = random.Random(seed)
    if kind == "digits":  # more than int()'s 4,300-digit limit
        return rng.choice("123456789") + "".join(rng.choices("0123456789", k=n - 1))
    if kind == "nines":
        return "9" * n
    if kind == "letters":
        return "x" * (20 * n)
    return rng.choice(["\x00", "\u3000", "\x00" * n, "\u3000" * 3, "9\x00" * n, "\ufffd" * n])


def _check_message(exc: BaseException, token: str) -> None:
    msg = str(exc)
    assert msg and "\n" not in msg
    longest = max((len(run) for run in msg.replace("…", "\n").splitlines()), default=0)
    assert longest < 600, msg[:300]
    # at most ~40 characters of the bad token are quoted
    probe = token[:46]
    if len(set(probe)) > 0 and probe.isprintable() and len(probe) == 46:
        assert probe not in msg, msg[:300]


@pytest.mark.parametrize("what,path,templates", _RECORD_PARSERS, ids=[p[0] for p in _RECORD_PARSERS])
@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(data=st.data())
def test_records_with_huge_numbers_and_tokens_are_kaptai_errors(what, path, templates, data):
    fn = _parser(path)
    template = data.draw(st.sampled_from(templates), label="template")
    kind = data.draw(st.sampled_from(["digits", "nines", "letters", "odd"]), label="kind")
    n = data.draw(st.integers(4301, 12_000), label="digits")
    token = _huge_token(kind, n, data.draw(st.integers(0, 2**32 - 1), label="seed"))
    record = template.replace("{N}", token)
    if kind == "odd":  # a NUL is no card, but an ideographic space is a separator: either way no other error
        try:
            fn(record)
        except KaptaiError as exc:
            _check_message(exc, token)
        return
    with pytest.raises(KaptaiError) as info:
        fn(record)
    _check_message(info.value, token)


@pytest.mark.parametrize("what,path,templates", _RECORD_PARSERS, ids=[p[0] for p in _RECORD_PARSERS])
@pytest.mark.parametrize("text", ["9" * 5000, "bid=" + "9" * 5000 + "C", "x" * 100000, "\x00", "\u3000"],
                         ids=["9x5000", "bid=9x5000C", "x100000", "nul", "ideographic-space"])
def test_the_issue_inputs_are_kaptai_errors(what, path, templates, text):
    """The inputs of the issue, alone, through every parser of a record or hand string (an
    ideographic space alone is an empty hand, which some parsers accept)."""
    try:
        _parser(path)(text)
    except KaptaiError as exc:
        _check_message(exc, text)
    else:
        assert text == "\u3000" and path in _EMPTY_OK, path


#: parsers for which an empty string is a valid input (an empty hand)
_EMPTY_OK = {"kaptai.nineten.cards:parse_hand"}
