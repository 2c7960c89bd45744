"""Figures carry the CJK font of the PyPI package noto-cjk-sans-otc (kaptai.core.plotting).

Every Chinese character in kaptai's source is in that font; a figure with every game's title and
every one of those characters draws without a "Glyph ... missing from font(s)" warning, and each
CJK glyph comes from the packaged font; each game's figures, saved to a file as the commands save
them, leave no figure open in pyplot.
"""
import ast
import functools
import os
import pathlib
import re
import warnings

import matplotlib

matplotlib.use("Agg")

import matplotlib.pyplot as plt  # noqa: E402
import pytest  # noqa: E402
from matplotlib import font_manager as fm  # noqa: E402
from matplotlib.ft2font import FT2Font  # noqa: E402
from matplotlib.text import Text  # noqa: E402

import kaptai  # noqa: E402
from kaptai.core.plotting import (cjk_font_context, cjk_font_family, packaged_cjk_font, save_figure,  # noqa: E402
                                  with_cjk_font)

#: CJK ideographs, radicals, CJK and full-width punctuation: what DejaVu Sans does not draw.
_CJK = re.compile("[\u2e80-\u2fff\u3000-\u303f\u3040-\u9fff\uf900-\ufaff\ufe30-\ufe4f\uff00-\uffef"
                  "\U00020000-\U0003ffff]")


@functools.lru_cache(maxsize=1)
def source_cjk_chars() -> str:
    """Every CJK character of a string in kaptai's Python source (labels, titles, docstrings)."""
    chars: set[str] = set()
    for p in pathlib.Path(kaptai.__file__).parent.rglob("*.py"):
        for node in ast.walk(ast.parse(p.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Constant) and isinstance(node.value, str):
                chars.update(_CJK.findall(node.value))
    return "".join(sorted(chars))


def game_titles() -> list[str]:
    from kaptai.games import GAMES

    return [g.title for g in GAMES.values()]


@functools.lru_cache(maxsize=None)
def _charmap(path: str) -> frozenset[int]:
    return frozenset(FT2Font(path).get_charmap())


def font_of(char: str, prop: fm.FontProperties) -> str | None:
    """The font file matplotlib takes ``char`` from: the first family of ``prop`` that has it."""
    for family in prop.get_family():
        try:
            path = fm.findfont(fm.FontProperties(family=[family], style=prop.get_style(),
                                                 weight=prop.get_weight()), fallback_to_default=False)
        except ValueError:  # not installed
            continue
        if ord(char) in _charmap(os.fspath(path)):
            return os.path.realpath(path)
    return None


def assert_cjk_from_packaged_font(fig) -> int:
    """Every CJK character of every text of ``fig`` is drawn from the packaged font; the count."""
    want = os.path.realpath(packaged_cjk_font())
    seen = 0
    for text in fig.findobj(Text):
        for ch in set(_CJK.findall(text.get_text())):
            assert font_of(ch, text.get_fontproperties()) == want, (ch, text.get_text())
            seen += 1
    return seen


def _glyph_filters(config) -> list[str]:
    return [f for f in config.getini("filterwarnings") if "Glyph" in f and f.startswith("error")]


def test_packaged_font_is_registered_and_first_for_cjk():
    path = packaged_cjk_font()
    assert path is not None and os.path.isfile(path)
    assert path.endswith(".ttc") and "noto_cjk_sans_otc" in path
    family = cjk_font_family()
    assert family[0] == matplotlib.rcParams["font.sans-serif"][0]  # DejaVu Sans keeps the Latin text
    assert family[1].startswith("Noto Sans CJK")
    assert os.path.realpath(fm.findfont(fm.FontProperties(family=[family[1]]), fallback_to_default=False)) \
        == os.path.realpath(path)
    assert packaged_cjk_font() == path and cjk_font_family() == family  # registered once


def test_packaged_font_has_every_cjk_character_of_kaptai():
    chars = source_cjk_chars()
    assert len(chars) > 150 and "夾" in chars and "鋤" in chars  # the scan found the games' terms
    cmap = _charmap(packaged_cjk_font())
    missing = [c for c in chars + "".join(game_titles()) if _CJK.match(c) and ord(c) not in cmap]
    assert not missing


@with_cjk_font
def _draw_lines(lines):
    fig, ax = plt.subplots(figsize=(9, 0.32 * len(lines) + 1))
    for i, line in enumerate(lines):
        ax.text(0.01, 1 - (i + 1) / (len(lines) + 1), line, transform=ax.transAxes, fontsize=9)
    ax.set_title(lines[0])
    ax.set_xticks([0.25, 0.75], ["莊家 dealer", "閒家 other"])  # tick labels are made when drawn
    ax.set_ylabel("胡數 / 頭")
    ax.legend(handles=ax.plot([0, 1], [0, 1], label="九支十仔 flip win"))
    return fig


def test_every_title_and_character_draws_with_the_packaged_font(tmp_path):
    plt.close("all")  # figures other tests left open
    chars = source_cjk_chars()
    lines = game_titles() + ["夾大十 九支十仔 鋤大D 南通長牌 天牌十一 胡數 頭"] \
        + [chars[i:i + 40] for i in range(0, len(chars), 40)]
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # any warning, "Glyph ... missing from font(s)" included, fails
        fig = _draw_lines(lines)
        save_figure(fig, tmp_path / "cjk.png")
    data = (tmp_path / "cjk.png").read_bytes()
    assert data[:8] == b"\x89PNG\r\n\x1a\n"
    assert assert_cjk_from_packaged_font(fig) >= len(chars)
    assert plt.get_fignums() == []  # saved, so closed


def test_without_the_font_the_glyph_warning_fails_the_test(request):
    """The control: with DejaVu Sans alone Chinese text warns, and pyproject's filter makes that
    warning an error."""
    filters = _glyph_filters(request.config)
    assert filters, "pyproject's [tool.pytest.ini_options] filterwarnings lost its Glyph entry"
    pattern = filters[0].split(":")[1]
    fig, ax = plt.subplots()
    try:
        with matplotlib.rc_context({"font.family": ["DejaVu Sans"]}):
            ax.set_title("夾大十")
            with pytest.warns(UserWarning) as record:
                fig.canvas.draw()
    finally:
        plt.close(fig)
    messages = [str(w.message) for w in record]
    assert any(re.match(pattern, m, re.I) for m in messages), messages


def test_cjk_font_context_and_save_figure_keep_a_callers_figure_open(tmp_path):
    with cjk_font_context():  # the figure is made inside: its texts take the font when they are made
        fig, ax = plt.subplots()
        ax.set_title("南通長牌")
    try:
        save_figure(fig, tmp_path / "mine.png", close=False)
        assert fig.number in plt.get_fignums()
        assert assert_cjk_from_packaged_font(fig) == 4
        assert save_figure(fig, None) is fig  # no path: nothing saved, nothing closed
    finally:
        plt.close(fig)


# ------------------------------------------------------------------ every game's figures, saved as the CLI saves them


def _kts(tmp):
    from kaptai.kts.fairness import compare_variants, cut_curve
    from kaptai.kts.league import plot_league, policy_league
    from kaptai.kts.plots import plot_bankroll_fan, plot_cut_curve, plot_fairness, plot_seat_ev, plot_win_modes
    from kaptai.kts.sessions import simulate_sessions

    df = compare_variants(["traditional", "advanced"], players=4, hands=300, seed=1, progress=False)
    curve = cut_curve(4, "traditional", 300, 1, cuts=[0, 0.05, 0.1], progress=False)
    league = policy_league(players=(3, 4), rules="traditional", hands=100, seed=0, policies=("random", "greedy"),
                           progress=False)
    r = simulate_sessions(4, "traditional", 10, 10, tally_hands=200, progress=False)
    yield plot_fairness(df, path=tmp / "fairness.png")  # kaptai fairness kap-tai-shap --plot
    yield plot_seat_ev(df, path=tmp / "ev.png")
    yield plot_win_modes(df, path=tmp / "modes.png")
    yield plot_cut_curve(curve, path=tmp / "cut.png")
    yield plot_bankroll_fan(r, path=tmp / "fan.png")
    yield plot_league(league, path=tmp / "league.png")
    fig = plot_league(league)  # kaptai league: plot_league(df).savefig(...)
    fig.savefig(tmp / "league2.png", dpi=110, bbox_inches="tight")
    yield fig


def _bigtwo(tmp):
    from kaptai.bigtwo.fairness import fairness
    from kaptai.bigtwo.plots import plot_fairness

    df = fairness(4, 150, 1, progress=False)
    yield plot_fairness(df, path=tmp / "fairness.png")  # kaptai fairness big-two --plot
    yield plot_fairness(df, path=tmp / "finish.png", relative_to="finish")


def _nineten(tmp):
    from kaptai.nineten.fairness import compare_variants, fairness
    from kaptai.nineten.odds import deal_odds
    from kaptai.nineten.plots import (plot_fairness, plot_option_dealer_advantage, plot_pairs_distribution,
                                      plot_policy_money, plot_seat_wins, plot_wins)
    from kaptai.nineten.simulate import simulate

    yield plot_fairness(fairness(4, 200, 1, progress=False), path=tmp / "fairness.png")  # the CLI's --plot
    yield plot_pairs_distribution(deal_odds(4), tmp / "pairs.png")
    sims = {p: simulate(p, hands=200, seed=2, progress=False) for p in (4, 5)}
    yield plot_seat_wins(sims, path=tmp / "seats.png")
    yield plot_wins(sims[4], path=tmp / "wins.png")
    yield plot_policy_money(compare_variants("policies", 4, hands=150, seed=1, progress=False), path=tmp / "m.png")
    payer = compare_variants("payer", 4, hands=150, seed=1, progress=False)
    yield plot_option_dealer_advantage(payer, path=tmp / "o.png", baseline="all pay (default)")


def _nantong(tmp):
    import pandas as pd

    from kaptai.nantong.fairness import fairness
    from kaptai.nantong.odds import deal_odds
    from kaptai.nantong.plots import (plot_deal_odds, plot_distance, plot_fairness, plot_match_fairness,
                                      plot_opening_hu, plot_roles, plot_score_by_win_type)
    from kaptai.report.nantong import simulate_with_noncompleters

    fair = pd.concat([fairness(p, matches=6, seed=3, progress=False) for p in (3, 4)], ignore_index=True)
    yield plot_fairness(fair, path=tmp / "fairness.png")  # kaptai fairness nantong --plot
    yield plot_match_fairness(fair, path=tmp / "match.png")
    odds = deal_odds(3, metrics=("distance", "opening_hu", "opening_hu_mean"))
    yield plot_deal_odds(odds, path=tmp / "deal.png")
    yield plot_distance(odds, path=tmp / "distance.png")
    yield plot_opening_hu(odds, path=tmp / "hu.png")
    sim = pd.concat([simulate_with_noncompleters(p, 100, 3, progress=False) for p in (3, 4)], ignore_index=True)
    yield plot_roles(sim, path=tmp / "roles.png")
    yield plot_score_by_win_type(sim, path=tmp / "score.png")


def _heaven11(tmp):
    from kaptai.heaven11.fairness import asymmetry, compare_variants, leading_first
    from kaptai.heaven11.plots import plot_bid_ev, plot_fairness, plot_status, plot_trick_distribution
    from kaptai.heaven11.simulate import simulate

    asym = asymmetry(hands=300, seed=4, progress=False)
    yield plot_fairness(asym, "asymmetry", tmp / "asym.png")  # kaptai fairness heaven-eleven --plot
    yield plot_fairness(leading_first(hands=200, seed=2, progress=False), "leading", tmp / "lead.png")
    play = compare_variants({"standard": {}, "free": {"short_follow": "free"}}, hands=200, seed=2, progress=False)
    yield plot_fairness(play, "play", tmp / "play.png")
    yield plot_bid_ev(asym, tmp / "bid.png")
    yield plot_status(asym, tmp / "status.png")
    yield plot_trick_distribution(simulate(hands=300, seed=4, progress=False), tmp / "tricks.png")


_GAME_FIGURES = {"kap-tai-shap": _kts, "big-two": _bigtwo, "nine-ten": _nineten, "nantong": _nantong,
                 "heaven-eleven": _heaven11}


@pytest.mark.parametrize("game", list(_GAME_FIGURES))
def test_saved_figures_are_closed_and_use_the_packaged_font(game, tmp_path):
    plt.close("all")
    figs, cjk = 0, 0
    for fig in _GAME_FIGURES[game](tmp_path):
        assert plt.get_fignums() == [], f"figure {figs} of {game} left open after saving"
        cjk += assert_cjk_from_packaged_font(fig)
        figs += 1
    pngs = sorted(tmp_path.glob("*.png"))
    assert len(pngs) == figs and all(p.read_bytes()[:4] == b"\x89PNG" for p in pngs)
    if game in ("nine-ten", "nantong"):  # their figures name the terms in Chinese
        assert cjk > 0


def test_figures_returned_without_a_path_stay_open():
    from kaptai.nineten.odds import deal_odds
    from kaptai.nineten.plots import plot_pairs_distribution

    plt.close("all")
    fig = plot_pairs_distribution(deal_odds(4))
    try:
        assert plt.get_fignums() == [fig.number]
        assert assert_cjk_from_packaged_font(fig) > 0  # the legend's 莊家
    finally:
        plt.close(fig)
