"""Big Two (鋤大D), the Hong Kong climbing card game (``rules/big-two.md``).

Public API so far: cards and notation (:func:`parse_cards`, :func:`parse_hand`,
:func:`parse_record`, :func:`format_cards`, :func:`format_record`), rules
(:class:`RuleSet`, :data:`PRESETS`, :func:`resolve_rules`), the compiled combination
evaluator (:func:`classify`, :func:`classify_masks`, :func:`compare`, :func:`beats`,
:func:`legal_plays`) and exact deal odds (:func:`deal_odds`).
"""

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
from kaptai.bigtwo.combos import (
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
from kaptai.bigtwo.odds import deal_odds
from kaptai.bigtwo.rules import PRESETS, RuleSet, resolve_rules

__all__ = [
    "deal_odds",
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
