"""Big Two (鋤大D), the Hong Kong climbing card game (``docs/rules/big-two.md``).

Public API: cards and notation (:func:`parse_cards`, :func:`parse_hand`,
:func:`parse_record`, :func:`format_cards`, :func:`format_record`), rules
(:class:`RuleSet`, :data:`PRESETS`, :func:`resolve_rules`), the compiled combination
evaluator (:func:`classify`, :func:`classify_masks`, :func:`compare`, :func:`beats`,
:func:`legal_plays`), exact deal odds (:func:`deal_odds`, :func:`best_hand_distribution`),
the game engine (:func:`run_hands`, :func:`make_config`, :class:`Policy`,
:class:`IllegalPlayError`; specified in ``docs/big-two-engine.md``), scoring and
settlement (:func:`penalty`, :func:`penalties`, :func:`settle`, :func:`settle_many`,
:func:`run_bankrolls`) and the Monte Carlo analyses (:func:`simulate`,
:func:`compare_variants`, :func:`fairness`); the ``search`` player (:class:`SearchPolicy`,
determinized Monte Carlo) and the position advisor (:func:`advise`).
"""

from typing import TYPE_CHECKING

from kaptai._lazy import lazy_exports

if TYPE_CHECKING:  # the names for type checkers; at run time each is imported on first use
    from kaptai.bigtwo.cards import (
        DECK,
        RANKS,
        SUITS,
        InvalidCardError,
        cards_to_mask,
        format_card,
        format_cards,
        format_record,
        mask_to_cards,
        parse_card,
        parse_cards,
        parse_hand,
        parse_record,
    )
    from kaptai.bigtwo.evaluate import (
        CATEGORIES,
        Category,
        Play,
        beats,
        classify,
        classify_masks,
        compare,
        five_card_ranking,
        golden_hash,
        legal_plays,
    )
    from kaptai.bigtwo.config import IllegalPlayError, make_config
    from kaptai.bigtwo.engine import run_hands
    from kaptai.bigtwo.fairness import compare_variants, fairness
    from kaptai.bigtwo.odds import best_hand_distribution, deal_odds
    from kaptai.bigtwo.policies import PlayerView, Policy, SearchPolicy
    from kaptai.bigtwo.advisor import advise
    from kaptai.bigtwo.scoring import penalties, penalty, run_bankrolls, settle, settle_many
    from kaptai.bigtwo.simulate import simulate, simulate_log
    from kaptai.bigtwo.rules import PRESETS, RuleSet, resolve_rules

__all__ = [
    "deal_odds",
    "best_hand_distribution",
    "IllegalPlayError",
    "make_config",
    "run_hands",
    "Policy",
    "PlayerView",
    "SearchPolicy",
    "advise",
    "penalty",
    "penalties",
    "settle",
    "settle_many",
    "run_bankrolls",
    "simulate",
    "simulate_log",
    "compare_variants",
    "fairness",
    "DECK",
    "RANKS",
    "SUITS",
    "InvalidCardError",
    "parse_card",
    "parse_cards",
    "parse_hand",
    "parse_record",
    "format_card",
    "format_cards",
    "format_record",
    "cards_to_mask",
    "mask_to_cards",
    "PRESETS",
    "RuleSet",
    "resolve_rules",
    "Category",
    "CATEGORIES",
    "Play",
    "classify",
    "classify_masks",
    "compare",
    "beats",
    "legal_plays",
    "five_card_ranking",
    "golden_hash",
]

#: Where each public name comes from: imported on first use (``import kaptai.bigtwo`` loads no engine).
_EXPORTS = {
    **dict.fromkeys(('DECK', 'RANKS', 'SUITS', 'InvalidCardError', 'cards_to_mask', 'format_card', 'format_cards', 'format_record', 'mask_to_cards', 'parse_card', 'parse_cards', 'parse_hand', 'parse_record'), 'kaptai.bigtwo.cards'),
    **dict.fromkeys(('CATEGORIES', 'Category', 'Play', 'beats', 'classify', 'classify_masks', 'compare', 'five_card_ranking', 'golden_hash', 'legal_plays'), 'kaptai.bigtwo.evaluate'),
    **dict.fromkeys(('IllegalPlayError', 'make_config'), 'kaptai.bigtwo.config'),
    **dict.fromkeys(('run_hands',), 'kaptai.bigtwo.engine'),
    **dict.fromkeys(('compare_variants', 'fairness'), 'kaptai.bigtwo.fairness'),
    **dict.fromkeys(('best_hand_distribution', 'deal_odds'), 'kaptai.bigtwo.odds'),
    **dict.fromkeys(('PlayerView', 'Policy', 'SearchPolicy'), 'kaptai.bigtwo.policies'),
    **dict.fromkeys(('advise',), 'kaptai.bigtwo.advisor'),
    **dict.fromkeys(('penalties', 'penalty', 'run_bankrolls', 'settle', 'settle_many'), 'kaptai.bigtwo.scoring'),
    **dict.fromkeys(('simulate', 'simulate_log'), 'kaptai.bigtwo.simulate'),
    **dict.fromkeys(('PRESETS', 'RuleSet', 'resolve_rules'), 'kaptai.bigtwo.rules'),
}

__getattr__, __dir__ = lazy_exports(__name__, _EXPORTS)
