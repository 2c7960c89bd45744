"""Nantong long cards (南通長牌, 搭子和): 120 cards, 23-card hands, 1 pair + 7 melds
(``docs/rules/nantong.md``).

Public API: cards and notation (:func:`parse_cards`, :func:`format_cards`,
:func:`parse_record`), rules (:class:`RuleSet`, :data:`PRESETS`, :func:`resolve_rules`),
scoring (:func:`score`, :func:`hand_winners`, :func:`settle`), hand analysis on the compiled
per-suit tables (:func:`is_complete`, :func:`waits`, :func:`live_outs`, :func:`distance`,
:func:`best_score`), exact deal odds (:func:`deal_odds`), the engine (:func:`make_config`,
:func:`run_hands`, :class:`Policy`, :class:`PlayerView`; specified in
``docs/nantong-engine.md``) and the Monte Carlo analyses (:func:`simulate`,
:func:`fairness`, :func:`compare_variants`).

Examples
--------
>>> import kaptai.nantong as nt
>>> nt.score("jiang=qz,qz win=none hand=147w 258w 369w 147t 258t 369b 147b 5b melds=hezi:qz").total
130
>>> nt.waits("1112w"), nt.distance("19w 5t qz")
((1, 2), 2)
"""

from typing import TYPE_CHECKING

from kaptai._lazy import lazy_exports

if TYPE_CHECKING:  # the names for type checkers; at run time each is imported on first use
    from kaptai.nantong.cards import (
        HandSizeError,
        InvalidCardError,
        JiangLimitError,
        MeldError,
        NotWinningError,
        RecordError,
        ScoreRecord,
        TooManyCopiesError,
        WildCardError,
        WinningCardError,
        format_card,
        format_cards,
        format_record,
        parse_card,
        parse_cards,
        parse_record,
    )
    from kaptai.nantong.rules import PRESETS, RuleSet, resolve_rules, validate_players
    from kaptai.nantong.scoring import Score, check_record, hand_winners, score, settle
    from kaptai.nantong.evaluate import best_score, distance, is_complete, live_outs, waits
    from kaptai.nantong.odds import deal_odds
    from kaptai.nantong.config import EngineConfig, IllegalMoveError, make_config
    from kaptai.nantong.engine import CHUNK_HANDS, run_hands
    from kaptai.nantong.policies import PlayerView, Policy
    from kaptai.nantong.simulate import new_tallies, simulate, tallies_frame
    from kaptai.nantong.fairness import VARIANT_SETS, compare_variants, fairness
    from kaptai.nantong.advisor import advise

__all__ = [
    "HandSizeError", "InvalidCardError", "JiangLimitError", "MeldError", "NotWinningError", "RecordError",
    "ScoreRecord", "TooManyCopiesError", "WildCardError", "WinningCardError",
    "format_card", "format_cards", "format_record", "parse_card", "parse_cards", "parse_record",
    "PRESETS", "RuleSet", "resolve_rules", "validate_players",
    "Score", "check_record", "hand_winners", "score", "settle",
    "is_complete", "waits", "live_outs", "distance", "best_score",
    "deal_odds", "make_config", "EngineConfig", "run_hands", "CHUNK_HANDS", "Policy", "PlayerView",
    "IllegalMoveError", "simulate", "new_tallies", "tallies_frame", "fairness", "compare_variants", "VARIANT_SETS",
    "advise",
]

#: Where each public name comes from: imported on first use (``import kaptai.nantong`` loads no table).
_EXPORTS = {
    **dict.fromkeys(('HandSizeError', 'InvalidCardError', 'JiangLimitError', 'MeldError', 'NotWinningError', 'RecordError', 'ScoreRecord', 'TooManyCopiesError', 'WildCardError', 'WinningCardError', 'format_card', 'format_cards', 'format_record', 'parse_card', 'parse_cards', 'parse_record'), 'kaptai.nantong.cards'),
    **dict.fromkeys(('PRESETS', 'RuleSet', 'resolve_rules', 'validate_players'), 'kaptai.nantong.rules'),
    **dict.fromkeys(('Score', 'check_record', 'hand_winners', 'score', 'settle'), 'kaptai.nantong.scoring'),
    **dict.fromkeys(('is_complete', 'waits', 'live_outs', 'distance', 'best_score'), 'kaptai.nantong.evaluate'),
    **dict.fromkeys(('deal_odds',), 'kaptai.nantong.odds'),
    **dict.fromkeys(('make_config', 'EngineConfig', 'IllegalMoveError'), 'kaptai.nantong.config'),
    **dict.fromkeys(('run_hands', 'CHUNK_HANDS'), 'kaptai.nantong.engine'),
    **dict.fromkeys(('Policy', 'PlayerView'), 'kaptai.nantong.policies'),
    **dict.fromkeys(('simulate', 'new_tallies', 'tallies_frame'), 'kaptai.nantong.simulate'),
    **dict.fromkeys(('fairness', 'compare_variants', 'VARIANT_SETS'), 'kaptai.nantong.fairness'),
    **dict.fromkeys(('advise',), 'kaptai.nantong.advisor'),
}

__getattr__, __dir__ = lazy_exports(__name__, _EXPORTS)
