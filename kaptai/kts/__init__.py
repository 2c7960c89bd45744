"""Kap Tai Shap (夾大十) and its two-player form Kap Shap (夾十), Chinese dominoes.

Public API: tiles and notation (:data:`TILES`, :func:`parse_hand`,
:func:`format_hand`), rules (:class:`RuleSet`, :data:`PRESETS`), the compiled
evaluator (:func:`score_hands`, :func:`waits_hands`, :func:`evaluate`,
:func:`waits`), exact deal odds (:func:`deal_odds`) and the dice
(:func:`first_hand_distribution`).
"""

from typing import TYPE_CHECKING

from kaptai._lazy import lazy_exports

if TYPE_CHECKING:  # the names for type checkers; at run time each is imported on first use
    from kaptai.kts.dice import first_hand_distribution, first_hand_table
    from kaptai.kts.evaluate import (
        Evaluation,
        classify_hands,
        evaluate,
        score_hands,
        waits,
        waits_hands,
    )
    from kaptai.kts.odds import deal_odds
    from kaptai.kts.rules import FORMS, PRESETS, RuleSet, hand_sizes, resolve_rules, sets_for_players
    from kaptai.kts.tiles import TILES, Tile, format_hand, format_tile, parse_hand, parse_tile, tile_counts

__all__ = [
    "TILES",
    "Tile",
    "parse_tile",
    "parse_hand",
    "format_tile",
    "format_hand",
    "tile_counts",
    "FORMS",
    "PRESETS",
    "RuleSet",
    "resolve_rules",
    "sets_for_players",
    "hand_sizes",
    "Evaluation",
    "score_hands",
    "waits_hands",
    "classify_hands",
    "evaluate",
    "waits",
    "deal_odds",
    "first_hand_distribution",
    "first_hand_table",
]

#: Where each public name comes from: imported on first use (``import kaptai.kts`` loads no engine).
_EXPORTS = {
    **dict.fromkeys(('first_hand_distribution', 'first_hand_table'), 'kaptai.kts.dice'),
    **dict.fromkeys(('Evaluation', 'classify_hands', 'evaluate', 'score_hands', 'waits', 'waits_hands'), 'kaptai.kts.evaluate'),
    **dict.fromkeys(('deal_odds',), 'kaptai.kts.odds'),
    **dict.fromkeys(('FORMS', 'PRESETS', 'RuleSet', 'hand_sizes', 'resolve_rules', 'sets_for_players'), 'kaptai.kts.rules'),
    **dict.fromkeys(('TILES', 'Tile', 'format_hand', 'format_tile', 'parse_hand', 'parse_tile', 'tile_counts'), 'kaptai.kts.tiles'),
}

__getattr__, __dir__ = lazy_exports(__name__, _EXPORTS)
