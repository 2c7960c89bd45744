"""Nine-ten (九支十仔), the Taiwanese four-colour card game (``docs/rules/nine-ten.md``).

Public API: cards and notation (:func:`parse_card`, :func:`parse_cards`, :func:`parse_hand`,
:func:`parse_record`, :func:`format_card`, :func:`format_hand`, :func:`format_record`), rules
(:class:`RuleSet`, :data:`PRESETS`, :func:`resolve_rules`, :func:`validate_players`), scoring
(:func:`score`), exact odds (:func:`deal_odds`, :func:`bonus_flip_distribution`,
:func:`bonus_flip_odds`), the engine (:func:`make_config`, :func:`run_hands`, :class:`Policy`,
:class:`PlayerView`, :class:`IllegalMoveError`; specified in ``docs/nine-ten-engine.md``) and the
Monte Carlo analyses (:func:`simulate`, :func:`compare_variants`, :func:`fairness`).

Examples
--------
>>> import kaptai.nineten as nt
>>> nt.score("RAx2 RRx2 YKx2 YAx2 WEx2 | win=self | bonus=GC GP WE RK RA").total
6
"""

from typing import TYPE_CHECKING

from kaptai._lazy import lazy_exports

if TYPE_CHECKING:  # the names for type checkers; at run time each is imported on first use
    from kaptai.nineten.cards import (
        InvalidCardError,
        InvalidRecordError,
        Record,
        format_card,
        format_cards,
        format_hand,
        format_record,
        parse_card,
        parse_cards,
        parse_hand,
        parse_record,
    )
    from kaptai.nineten.advisor import advise
    from kaptai.nineten.config import CODED_OPTIONS, EngineConfig, IllegalMoveError, make_config
    from kaptai.nineten.engine import run_hands
    from kaptai.nineten.fairness import VARIANT_SETS, compare_variants, fairness
    from kaptai.nineten.odds import bonus_flip_distribution, bonus_flip_odds, deal_odds
    from kaptai.nineten.policies import PlayerView, Policy
    from kaptai.nineten.rules import PRESETS, RuleSet, resolve_rules, validate_players
    from kaptai.nineten.scoring import Score, score
    from kaptai.nineten.simulate import CHUNK_HANDS, new_tallies, simulate, tallies_frame

__all__ = [
    "InvalidCardError",
    "InvalidRecordError",
    "Record",
    "format_card",
    "format_cards",
    "format_hand",
    "format_record",
    "parse_card",
    "parse_cards",
    "parse_hand",
    "parse_record",
    "advise",
    "CODED_OPTIONS",
    "EngineConfig",
    "IllegalMoveError",
    "make_config",
    "run_hands",
    "VARIANT_SETS",
    "compare_variants",
    "fairness",
    "bonus_flip_distribution",
    "bonus_flip_odds",
    "deal_odds",
    "PlayerView",
    "Policy",
    "PRESETS",
    "RuleSet",
    "resolve_rules",
    "validate_players",
    "Score",
    "score",
    "CHUNK_HANDS",
    "new_tallies",
    "simulate",
    "tallies_frame",
]

#: Where each public name comes from: imported on first use (``import kaptai.nineten`` loads no engine).
_EXPORTS = {
    **dict.fromkeys(('InvalidCardError', 'InvalidRecordError', 'Record', 'format_card', 'format_cards', 'format_hand', 'format_record', 'parse_card', 'parse_cards', 'parse_hand', 'parse_record'), 'kaptai.nineten.cards'),
    **dict.fromkeys(('advise',), 'kaptai.nineten.advisor'),
    **dict.fromkeys(('CODED_OPTIONS', 'EngineConfig', 'IllegalMoveError', 'make_config'), 'kaptai.nineten.config'),
    **dict.fromkeys(('run_hands',), 'kaptai.nineten.engine'),
    **dict.fromkeys(('VARIANT_SETS', 'compare_variants', 'fairness'), 'kaptai.nineten.fairness'),
    **dict.fromkeys(('bonus_flip_distribution', 'bonus_flip_odds', 'deal_odds'), 'kaptai.nineten.odds'),
    **dict.fromkeys(('PlayerView', 'Policy'), 'kaptai.nineten.policies'),
    **dict.fromkeys(('PRESETS', 'RuleSet', 'resolve_rules', 'validate_players'), 'kaptai.nineten.rules'),
    **dict.fromkeys(('Score', 'score'), 'kaptai.nineten.scoring'),
    **dict.fromkeys(('CHUNK_HANDS', 'new_tallies', 'simulate', 'tallies_frame'), 'kaptai.nineten.simulate'),
}

__getattr__, __dir__ = lazy_exports(__name__, _EXPORTS)
