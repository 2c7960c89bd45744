"""Nantong long cards (南通長牌, 搭子和): 120 cards, 23-card hands, 1 pair + 7 melds
(``rules/nantong-long-cards.md``).

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

_LAZY = {
    "is_complete": "kaptai.nantong.evaluate", "waits": "kaptai.nantong.evaluate",
    "live_outs": "kaptai.nantong.evaluate", "distance": "kaptai.nantong.evaluate",
    "best_score": "kaptai.nantong.evaluate", "deal_odds": "kaptai.nantong.odds",
    "make_config": "kaptai.nantong.config", "EngineConfig": "kaptai.nantong.config",
    "IllegalMoveError": "kaptai.nantong.config", "run_hands": "kaptai.nantong.engine",
    "CHUNK_HANDS": "kaptai.nantong.engine", "Policy": "kaptai.nantong.policies",
    "PlayerView": "kaptai.nantong.policies", "simulate": "kaptai.nantong.simulate",
    "new_tallies": "kaptai.nantong.simulate", "tallies_frame": "kaptai.nantong.simulate",
    "fairness": "kaptai.nantong.fairness", "compare_variants": "kaptai.nantong.fairness",
    "VARIANT_SETS": "kaptai.nantong.fairness", "advise": "kaptai.nantong.advisor",
}


def __getattr__(name: str):
    # the compiled tables are built on first use, not on ``import kaptai.nantong``
    if name in _LAZY:
        import importlib

        return getattr(importlib.import_module(_LAZY[name]), name)
    raise AttributeError(f"module 'kaptai.nantong' has no attribute {name!r}")
