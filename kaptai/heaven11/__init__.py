"""Heaven Eleven (天牌十一), a bridge-like trick-taking game with an auction (``docs/rules/heaven-eleven.md``).

Public API: cards, bids and notation (:func:`parse_cards`, :func:`parse_bid`,
:func:`parse_tricks`, :func:`format_cards`), rules (:class:`RuleSet`, :data:`PRESETS`,
:func:`resolve_rules`), scoring (:func:`score`, :func:`score_table`, :func:`best_bid`), the
compiled evaluator (:func:`classify`, :func:`compare`, :func:`trick_winner`,
:func:`legal_follows`), exact odds (:func:`deal_odds`, :func:`score_odds`), the engine
(:func:`make_config`, :func:`run_hands`, :class:`Policy`; ``docs/heaven-eleven-engine.md``) and
the Monte Carlo analyses (:func:`simulate`, :func:`compare_variants`, :func:`fairness`,
:func:`leading_first`, :func:`asymmetry`).

Examples
--------
>>> import kaptai.heaven11 as h11
>>> h11.score("bid=3C tricks=7/2/2/2").finals
[12, -4, -4, -4]
"""

from typing import TYPE_CHECKING

from kaptai._lazy import lazy_exports

if TYPE_CHECKING:  # the names for type checkers; at run time each is imported on first use
    from kaptai.heaven11.cards import (
        InvalidBidError,
        InvalidCardError,
        InvalidCombinationError,
        InvalidRecordError,
        InvalidTricksError,
        format_bid,
        format_cards,
        parse_bid,
        parse_cards,
        parse_combination,
        parse_hand,
        parse_score_record,
        parse_tricks,
    )
    from kaptai.heaven11.rules import PRESETS, RuleSet, resolve_rules, validate_players
    from kaptai.heaven11.scoring import ScoreResult, best_bid, score, score_table
    from kaptai.heaven11.evaluate import (
        IllegalFollowError,
        classify,
        combination_counts,
        compare,
        legal_follows,
        legal_leads,
        trick_winner,
    )
    from kaptai.heaven11.config import EngineConfig, IllegalPlayError, make_config
    from kaptai.heaven11.engine import run_hands
    from kaptai.heaven11.policies import PlayerView, Policy
    from kaptai.heaven11.odds import deal_odds, score_odds
    from kaptai.heaven11.simulate import CHUNK_HANDS, new_tallies, simulate, tallies_frame
    from kaptai.heaven11.fairness import VARIANT_SETS, asymmetry, compare_variants, fairness, leading_first

__all__ = [
    "InvalidBidError", "InvalidCardError", "InvalidCombinationError", "InvalidRecordError", "InvalidTricksError",
    "IllegalFollowError", "IllegalPlayError",
    "format_bid", "format_cards", "parse_bid", "parse_cards", "parse_combination", "parse_hand",
    "parse_score_record", "parse_tricks",
    "PRESETS", "RuleSet", "resolve_rules", "validate_players",
    "ScoreResult", "best_bid", "score", "score_table",
    "classify", "combination_counts", "compare", "legal_follows", "legal_leads", "trick_winner",
    "EngineConfig", "make_config", "run_hands", "PlayerView", "Policy",
    "deal_odds", "score_odds", "simulate", "tallies_frame", "new_tallies", "CHUNK_HANDS",
    "compare_variants", "fairness", "leading_first", "asymmetry", "VARIANT_SETS",
]

#: Where each public name comes from: imported on first use (``import kaptai.heaven11`` loads no engine).
_EXPORTS = {
    **dict.fromkeys(('InvalidBidError', 'InvalidCardError', 'InvalidCombinationError', 'InvalidRecordError', 'InvalidTricksError', 'format_bid', 'format_cards', 'parse_bid', 'parse_cards', 'parse_combination', 'parse_hand', 'parse_score_record', 'parse_tricks'), 'kaptai.heaven11.cards'),
    **dict.fromkeys(('PRESETS', 'RuleSet', 'resolve_rules', 'validate_players'), 'kaptai.heaven11.rules'),
    **dict.fromkeys(('ScoreResult', 'best_bid', 'score', 'score_table'), 'kaptai.heaven11.scoring'),
    **dict.fromkeys(('IllegalFollowError', 'classify', 'combination_counts', 'compare', 'legal_follows', 'legal_leads', 'trick_winner'), 'kaptai.heaven11.evaluate'),
    **dict.fromkeys(('EngineConfig', 'IllegalPlayError', 'make_config'), 'kaptai.heaven11.config'),
    **dict.fromkeys(('run_hands',), 'kaptai.heaven11.engine'),
    **dict.fromkeys(('PlayerView', 'Policy'), 'kaptai.heaven11.policies'),
    **dict.fromkeys(('deal_odds', 'score_odds'), 'kaptai.heaven11.odds'),
    **dict.fromkeys(('CHUNK_HANDS', 'new_tallies', 'simulate', 'tallies_frame'), 'kaptai.heaven11.simulate'),
    **dict.fromkeys(('VARIANT_SETS', 'asymmetry', 'compare_variants', 'fairness', 'leading_first'), 'kaptai.heaven11.fairness'),
}

__getattr__, __dir__ = lazy_exports(__name__, _EXPORTS)
