"""Engine configuration of nine-ten: constants, option codes and outcome dtypes.

Both engines (:mod:`kaptai.nineten._engine`, compiled, and
:mod:`kaptai.nineten.engine_reference`, pure Python) read an :class:`EngineConfig`; every
option reaches the compiled engine as one of the integer codes below (no string option is
decoded in Cython).  The engine is specified in ``docs/nine-ten-engine.md``.

Examples
--------
>>> from kaptai.nineten.config import make_config
>>> cfg = make_config(5)
>>> cfg.players, cfg.dealer_cards, cfg.other_cards, cfg.stock, cfg.reserve
(5, 10, 9, 66, 9)
>>> cfg.codes()["natural"], cfg.codes()["next_dealer"]
(0, 0)
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

from kaptai.nineten.rules import OPTION_VALUES, RuleSet, deal_sizes, resolve_rules, validate_players
from kaptai.errors import KaptaiError, RulesError, quote_token

__all__ = [
    "ACTIONS",
    "LOG_COLUMNS",
    "POLICY_NAMES",
    "POLICY_CODES",
    "WIN_CODES",
    "MAX_REDEALS",
    "MAX_STEPS",
    "SEARCH_SAMPLES",
    "SEARCH_ROLLOUT",
    "SEARCH_Z",
    "SEARCH_GO",
    "SEARCH_MORE",
    "SEARCH_TRIES",
    "SEARCH_INFER",
    "INFER_PRIOR",
    "INFER_EPS",
    "INFER_MAX_EVENTS",
    "SEARCH_MIX",
    "CODED_OPTIONS",
    "OUTCOME_DTYPES",
    "IllegalMoveError",
    "EngineConfig",
    "make_config",
    "new_outcomes",
    "check_policies",
]

#: Log actions by code (``docs/nine-ten-engine.md``).
ACTIONS: tuple[str, ...] = ("deal", "redeal", "natural", "discard", "flip", "claim", "dead", "waste", "bonus",
                            "win", "drawn")
#: Columns of a log row (all int64).
LOG_COLUMNS: tuple[str, ...] = ("hand", "step", "seat", "action", "card", "value")
#: Built-in policies, by code (``search`` is the determinized Monte Carlo player of
#: ``docs/nine-ten-engine.md``; new policies are appended so that codes never change).
POLICY_NAMES: tuple[str, ...] = ("random", "colour_cut", "live_first", "search")
POLICY_CODES: Mapping[str, int] = {name: i for i, name in enumerate(POLICY_NAMES)}
#: ``win_type`` outcome codes.
WIN_CODES: Mapping[str, int] = {"drawn": 0, "self": 1, "flip": 2, "discard": 3, "natural": 4}
#: A dealer natural under ``natural='redeal'`` is redealt at most this many times in a row.
MAX_REDEALS: int = 100
#: A hand still running after this many offers is an engine error (never happens: every
#: claim removes two singles from play).
MAX_STEPS: int = 10_000
#: Default search budget: layouts of the unseen cards sampled per decision of ``search``.
SEARCH_SAMPLES: int = 300
#: The search keeps the rollout policy's own choice unless another option's mean is higher by
#: more than this many standard errors of the paired difference (0: the best mean), over both
#: stages of layouts (``docs/nine-ten-engine.md``, "The choice").
SEARCH_Z: float = 2.5
#: The second stage of the search: when an option beats the rollout policy's own choice by more
#: than SEARCH_GO standard errors on the first ``samples`` layouts, the options ahead of it get
#: SEARCH_MORE x ``samples`` fresh layouts more (at most 100,000).
SEARCH_GO: float = 1.0
SEARCH_MORE: int = 6
#: The heuristic every seat plays in the rollouts of ``search`` (the strongest of the league).
SEARCH_ROLLOUT: str = "colour_cut"
#: Attempts at a consistent layout before the parities are dropped for a seat that cannot meet them.
SEARCH_TRIES: int = 20
#: Inference of the search: candidate layouts drawn per rolled-out layout, weighted by how likely
#: the other seats' discards are under the opponent model and resampled (0: uniform layouts, the
#: search before inference).  ``docs/nine-ten-engine.md``, "Inference".
SEARCH_INFER: int = 4
#: The opponent model: prior weights of the styles a seat plays all hand long (a softened
#: colour_cut, live_first, random).
INFER_PRIOR: tuple[float, float, float] = (0.8, 0.1, 0.1)
#: The softened colour_cut style: colour_cut's choice with probability 1 - INFER_EPS, else any option.
INFER_EPS: float = 0.05
#: Rollouts with a mixture of styles: 1 plays each other seat of a layout's rollouts by a style
#: drawn for it (colour_cut 8 in 10, live_first 1, random 1), 0 plays colour_cut everywhere.
SEARCH_MIX: int = 0
#: Discards of a hand kept for the inference (never reached: a hand has fewer than 5 x 15 claims).
INFER_MAX_EVENTS: int = 128
#: The options handed to the compiled engine as integer codes (index in OPTION_VALUES, or 0/1).
CODED_OPTIONS: tuple[str, ...] = (
    "natural", "flip_priority", "flip_win_payer", "discard_payer_covers_all", "four_colour_flip_win",
    "four_colour_kaizhao_counts", "kaizhao_wait_also_plus1", "dead_card_order", "dead_cards_claimable",
    "dealt_four_is_kaizhao", "next_dealer",
)
#: Outcome arrays: name -> (dtype, per seat?).
OUTCOME_DTYPES: Mapping[str, tuple[str, bool]] = {
    "dealer": ("int8", False),
    "winner": ("int8", False),
    "win_type": ("int8", False),
    "source": ("int8", False),
    "colours": ("int8", False),
    "tou": ("int16", False),
    "bonus": ("int8", False),
    "bonus_flip": ("int8", False),
    "kaizhao": ("int8", False),
    "kaizhao_wait": ("int8", False),
    "claims": ("int16", False),
    "flips": ("int16", False),
    "stock_left": ("int16", False),
    "redeals": ("int16", False),
    "pairs_dealt": ("int8", True),
    "net": ("int32", True),
}


class IllegalMoveError(KaptaiError):
    """A user policy chose a move the rules forbid (breaking a pair, skipping a mandatory
    claim or dead card, a card not held); the message names the move and why."""


@dataclass(frozen=True, eq=False)
class EngineConfig:
    """A validated table: rules, seats, deal sizes and option codes.

    Attributes
    ----------
    rules : RuleSet
    players : int
    dealer_cards, other_cards : int
        10 and 9.
    stock : int
        Stock after the deal.
    reserve : int
        Stock cards never flipped in play.
    samples : int
        Layouts per decision of the ``search`` policy (its budget).
    search_z : float
        The search's test against the rollout policy's own choice (``docs/nine-ten-engine.md``).
    search_infer : int
        Candidate layouts per rolled-out layout of the search's inference (0: uniform layouts).
    search_mix : int
        1: the search's rollouts play the other seats by styles drawn per layout; 0: colour_cut.
    search_salt : int
        A 64-bit number mixed into the seed of every search decision's private layout stream
        (``docs/nine-ten-engine.md``, "The layout stream"); 0, the default, leaves the streams as
        they were.  The duplicate league gives each deal its own, so that deals played as separate
        one-hand runs do not share layouts.
    """

    rules: RuleSet
    players: int
    dealer_cards: int
    other_cards: int
    stock: int
    reserve: int
    samples: int = SEARCH_SAMPLES
    search_z: float = SEARCH_Z
    search_infer: int = SEARCH_INFER
    search_mix: int = SEARCH_MIX
    search_salt: int = 0

    def codes(self) -> dict[str, int]:
        """Integer code of every option in :data:`CODED_OPTIONS`."""
        out = {}
        for name in CODED_OPTIONS:
            v = getattr(self.rules, name)
            out[name] = int(v) if isinstance(v, bool) else OPTION_VALUES[name].index(v)
        return out

    def code_array(self) -> np.ndarray:
        """The codes as an int64 array in :data:`CODED_OPTIONS` order, then players, reserve."""
        c = self.codes()
        return np.array([c[n] for n in CODED_OPTIONS] + [self.players, self.reserve], dtype=np.int64)

    def fingerprint(self) -> dict[str, Any]:
        """JSON-friendly identity (checkpoints, attrs)."""
        return {"rules": self.rules.to_dict(), "players": self.players}


def make_config(players: int = 4, rules: RuleSet | str | Mapping[str, Any] | None = None, *,
                samples: int | None = None, search_z: float | None = None,
                search_infer: int | None = None, search_mix: int | None = None,
                search_salt: int = 0) -> EngineConfig:
    """Validate a table for play.

    Parameters
    ----------
    players : int
    rules : RuleSet, preset name or mapping of options
    samples : int, optional
        Budget of the ``search`` policy: layouts sampled per decision (default
        :data:`SEARCH_SAMPLES`), 1 to 100,000.
    search_z : float, optional
        How many standard errors an option must gain over the rollout policy's own choice
        (default :data:`SEARCH_Z`; 0 takes the best mean), 0 to 10.
    search_infer : int, optional
        Candidate layouts drawn per rolled-out layout and resampled by the likelihood of the other
        seats' discards (default :data:`SEARCH_INFER`; 0 samples uniform layouts), 0 to 64.
    search_mix : int, optional
        1: the rollouts play the other seats by a style drawn per layout (default
        :data:`SEARCH_MIX`).
    search_salt : int, optional
        Mixed into the seed of the search's layout streams, 0 to 2**64 - 1 (default 0: the
        streams of the specification without a salt).

    Raises
    ------
    RulesError
        Player count (§2, §6.1, §6.4) or options.

    Examples
    --------
    >>> from kaptai.nineten.config import make_config
    >>> make_config(8)
    Traceback (most recent call last):
    ...
    kaptai.errors.RulesError: 8+ players: the source rules text defines no winning hand for the dealer-5/others-4 deal
    """
    rules = resolve_rules(rules)
    n = validate_players(players, rules, play=True)
    hd, ho, stock = deal_sizes(n, rules)
    if samples is None:
        samples = SEARCH_SAMPLES
    if isinstance(samples, bool) or not isinstance(samples, (int, np.integer)) or not 1 <= samples <= 100_000:
        raise RulesError(f"samples={quote_token(samples)}: expected a whole number of layouts from 1 to 100,000")
    if search_z is None:
        search_z = SEARCH_Z
    if isinstance(search_z, bool) or not isinstance(search_z, (int, float, np.integer, np.floating)) or \
            not 0.0 <= float(search_z) <= 10.0:
        raise RulesError(f"search_z={quote_token(search_z)}: expected a number from 0 to 10")
    if search_infer is None:
        search_infer = SEARCH_INFER
    if isinstance(search_infer, bool) or not isinstance(search_infer, (int, np.integer)) or \
            not 0 <= search_infer <= 64:
        raise RulesError(f"search_infer={quote_token(search_infer)}: expected a whole number of candidates from 0 to 64")
    if search_mix is None:
        search_mix = SEARCH_MIX
    if isinstance(search_mix, bool) or search_mix not in (0, 1):
        raise RulesError(f"search_mix={quote_token(search_mix)}: expected 0 or 1")
    if isinstance(search_salt, bool) or not isinstance(search_salt, (int, np.integer)) or \
            not 0 <= int(search_salt) < 1 << 64:
        raise RulesError(f"search_salt={quote_token(search_salt)}: expected a whole number from 0 to 2**64 - 1")
    return EngineConfig(rules, n, hd, ho, stock, rules.reserve, int(samples), float(search_z), int(search_infer),
                        int(search_mix), int(search_salt))


def new_outcomes(hands: int, players: int) -> dict[str, np.ndarray]:
    """Zeroed outcome arrays (see :data:`OUTCOME_DTYPES`).

    >>> o = new_outcomes(2, 4)
    >>> o["net"].shape, o["tou"].dtype.name
    ((2, 4), 'int16')
    """
    return {k: np.zeros((hands, players) if per else hands, dtype=dt) for k, (dt, per) in OUTCOME_DTYPES.items()}


def check_policies(policies: Any, players: int) -> list:
    """One policy per seat from a name, a Policy object or a sequence of them.

    >>> check_policies("colour_cut", 2)
    ['colour_cut', 'colour_cut']
    >>> check_policies(["random", "best"], 2)
    Traceback (most recent call last):
    ...
    kaptai.errors.RulesError: unknown policy 'best' for seat 1: expected one of 'random', 'colour_cut', 'live_first', 'search' or a kaptai.nineten.policies.Policy
    """
    if isinstance(policies, str) or not isinstance(policies, Sequence):
        policies = [policies] * players
    policies = list(policies)
    if len(policies) != players:
        raise RulesError(f"got {len(policies)} policies for {players} players: give one, or one per seat")
    for seat, p in enumerate(policies):
        if isinstance(p, str) and p not in POLICY_CODES:
            raise RulesError(f"unknown policy {quote_token(p)} for seat {seat}: expected one of "
                             + ", ".join(repr(x) for x in POLICY_NAMES) + " or a kaptai.nineten.policies.Policy")
        if not isinstance(p, str) and not callable(getattr(p, "discard", None)):
            raise RulesError(f"policy for seat {seat} ({quote_token(p)}) has no discard(view) method")
    return policies
