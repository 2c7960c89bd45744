"""Kap Tai Shap (夾大十) and Kap Shap (夾十) engine configuration.

The table both engines play (:class:`EngineConfig`, built and validated once by
:func:`make_config`), the event and outcome codes of the hand log, the tally shapes
(:func:`new_outcomes`) and the integer option codes the compiled engine receives.  The
engine itself is specified in ``docs/kap-tai-shap-engine.md``; this module imports neither
engine.

Examples
--------
>>> from kaptai.kts.config import make_config
>>> cfg = make_config(4, "advanced")
>>> cfg.n_first, cfg.n_other, cfg.sets, cfg.claim_code
(10, 9, 2, 0)
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

import numpy as np

from kaptai.errors import RulesError, quote_token
from kaptai.kts.rules import (
    CLAIMS,
    TURNS,
    RuleSet,
    check_deal,
    forms_mask,
    half_groups,
    hand_sizes,
    n_dice,
    resolve_rules,
    validate_players,
)
from kaptai.kts.tiles import COPIES_PER_SET

__all__ = [
    "ACTIONS",
    "KINDS",
    "MAX_TURNS",
    "READY_LEVELS",
    "SCORE_LEVELS",
    "CLAIM_CODES",
    "TURN_CODES",
    "EngineConfig",
    "make_config",
    "new_outcomes",
    "SEARCH_SAMPLES",
    "SEARCH_SAMPLES_ADVANCED",
    "SEARCH_Z",
    "SEARCH_ROLLOUT",
    "SEARCH_ROLLOUTS",
    "SETTLEMENT_CODES",
]

#: Compiled-engine policy code of a scripted seat (the built-ins are their code in
#: ``kaptai.kts.policies.POLICY_CODES``: 0 random, 1 greedy, 2 score, 3 lookahead, 5 lookahead_score).
SCRIPT_CODE = 4

#: Layouts of the unseen tiles the ``'search'`` policy samples per decision
#: (``make_config(search_samples=...)``; ``docs/kap-tai-shap-engine.md``, "search").
#: Measured (benchmarks/kts_duel.py, one search seat against three ``lookahead``, traditional,
#: duplicate deals, seed 2, 4,000 hands): 32 layouts +0.004 antes a hand over the field seats
#: (-0.010 to +0.018), 96 layouts +0.022 (-0.002 to +0.045) on the same deals; with seeds 1 and 3
#: the 96-layout search is ahead with an interval above 0 (docs/kap-tai-shap.md, "search").
SEARCH_SAMPLES: int = 96
#: Layouts per decision of ``'search'`` when the settlement is ``'advanced'`` (its values are
#: points, whose spread is wider than the pot's antes).  Measured (benchmarks/kts_duel.py, one
#: search seat against three ``lookahead_score``, advanced, duplicate deals, 192 - 96 layouts
#: paired on the same deals): +0.062 points a hand (+0.002 to +0.121; seed 2051, 4,000 hands),
#: +0.052 (-0.001 to +0.105; seed 2054, 8,000 hands), for 1.8 times the CPU; in the pot game the
#: same doubling bought +0.007 antes (-0.011 to +0.025), so the pot keeps :data:`SEARCH_SAMPLES`
#: (docs/kap-tai-shap.md, "A larger budget or a lower guard").
SEARCH_SAMPLES_ADVANCED: int = 192
#: Standard errors of the paired difference by which an option must beat the look-ahead's
#: choice before ``'search'`` plays it (``make_config(search_z=...)``; 0: the best mean).
#: Measured (kaptai league, traditional, 4 players, 20,000 hands, seed 1): at z = 1 the search
#: lost 0.033 antes a hand to ``lookahead`` (-0.067 to +0.001), at z = 2.5 it gained 0.027
#: (-0.007 to +0.061): the greedy rollouts are biased against the look-ahead's own plans, so
#: only a clear difference overrules it.
SEARCH_Z: float = 2.5
#: The ``'search'`` policy's rollout policies (``make_config(search_rollout=...)``; index = code):
#: ``'greedy'`` plays greedy (pot) or score (advanced) at every seat of a rollout, ``'lookahead'``
#: plays the reference policy itself, lookahead (pot) or lookahead_score (advanced), at every
#: seat, ``'own'`` the reference policy at the searching seat and greedy / score at the others.
SEARCH_ROLLOUTS: tuple[str, ...] = ("greedy", "lookahead", "own")
#: The default rollout policy of ``'search'`` (``docs/kap-tai-shap-engine.md``, "search").
SEARCH_ROLLOUT: str = "greedy"
#: Settlement codes handed to the compiled engine (index = code).
SETTLEMENT_CODES: tuple[str, ...] = ("pot", "advanced")

#: Event names of the hand log, by code.

ACTIONS: tuple[str, ...] = (
    "dice", "deal", "natural", "claim", "decline", "claim_win", "draw",
    "self_drawn_win", "discard", "drawn_hand", "turn_limit",
)
DICE, DEAL, NATURAL, CLAIM, DECLINE, CLAIM_WIN, DRAW, SELF_DRAWN_WIN, DISCARD, DRAWN_HAND, TURN_LIMIT = range(11)
#: How a hand ends, by code (the first three are wins).
KINDS: tuple[str, ...] = ("natural", "claimed", "self_drawn", "drawn", "turn_limit")
K_NATURAL, K_CLAIMED, K_SELF_DRAWN, K_DRAWN, K_LIMIT = range(5)
#: A hand still running after this many turns ends drawn (only reachable when a
#: ``turn='claim-or-draw'`` policy keeps claiming instead of drawing).
MAX_TURNS: int = 1000
#: Ready statistics are kept for own turns 0 .. READY_LEVELS - 1.
READY_LEVELS: int = 64
#: Winning scores of SCORE_LEVELS - 1 or more share the last bin.
SCORE_LEVELS: int = 64

#: Option codes handed to the compiled engine (index = code); the values are those of
#: :mod:`kaptai.kts.rules`, declared there once.
CLAIM_CODES: tuple[str, ...] = CLAIMS
TURN_CODES: tuple[str, ...] = TURNS


@dataclass(frozen=True, eq=False)
class EngineConfig:
    """Everything the engines need about a table, validated once.

    Build it with :func:`make_config`.  ``copies`` is the number of copies of each tile id
    in play; the wall holds ``n_tiles = sum(copies)`` tiles.
    """

    players: int
    rules: RuleSet
    n: int
    n_first: int
    n_other: int
    sets: int
    copies: tuple[int, ...]
    n_tiles: int
    n_dice: int
    claim: str
    turn: str
    keep_drawn: bool
    forms_mask: int
    base_sum: int
    gee_joon_run_value: int
    search_samples: int = SEARCH_SAMPLES
    search_z: float = SEARCH_Z
    search_rollout: str = SEARCH_ROLLOUT

    @property
    def rollout_code(self) -> int:
        """0 greedy/score rollouts, 1 lookahead/lookahead_score, 2 the reference policy at the
        searching seat and greedy/score elsewhere (the ``'search'`` policy)."""
        return SEARCH_ROLLOUTS.index(self.search_rollout)

    @property
    def settlement_code(self) -> int:
        """0 pot, 1 advanced (the ``'search'`` policy's values)."""
        return SETTLEMENT_CODES.index(self.rules.settlement)

    @property
    def house_cut(self) -> float:
        """The rules' house cut (the ``'search'`` policy's values)."""
        return float(self.rules.house_cut)

    @property
    def claim_code(self) -> int:
        """0 previous, 1 any, 2 none."""
        return CLAIM_CODES.index(self.claim)

    @property
    def turn_code(self) -> int:
        """0 claim-then-draw, 1 claim-or-draw."""
        return TURN_CODES.index(self.turn)


def make_config(players: int, rules: RuleSet | str | Mapping[str, Any] | None = None, *,
                search_samples: int | None = None, search_z: float | None = None,
                search_rollout: str | None = None) -> EngineConfig:
    """Validate a table (player count and rules) for the engines.

    Parameters
    ----------
    players : int
        2-22 (2 is Kap Shap).
    rules : RuleSet, str, mapping or None
        See :func:`kaptai.kts.rules.resolve_rules`.
    search_samples : int, optional
        Layouts per decision of the ``'search'`` policy, 1 to 100,000 (default
        :data:`SEARCH_SAMPLES` under the pot settlement, :data:`SEARCH_SAMPLES_ADVANCED` under
        advanced scoring).
    search_z : float, optional
        Paired standard errors by which ``'search'`` must find an option better than the
        look-ahead's choice (default :data:`SEARCH_Z`; 0 takes the best mean), 0 to 10.
    search_rollout : {'greedy', 'lookahead', 'own'}, optional
        The policy at every seat of the ``'search'`` policy's rollouts (default
        :data:`SEARCH_ROLLOUT`; :data:`SEARCH_ROLLOUTS`).

    Returns
    -------
    EngineConfig

    Raises
    ------
    RulesError
        For a bad player count, unknown options, or a deal that does not fit in the sets.

    Examples
    --------
    >>> from kaptai.kts.config import make_config
    >>> c = make_config(2)
    >>> c.n, c.n_first, c.n_other, c.n_tiles, c.n_dice
    (3, 8, 7, 32, 2)
    >>> make_config(4, "advanced", search_samples=8).search_samples
    8
    >>> make_config(4).search_samples, make_config(4, "advanced").search_samples
    (96, 192)
    >>> make_config(4, search_z=-1)
    Traceback (most recent call last):
    ...
    kaptai.errors.RulesError: search_z=-1: expected a number from 0 to 10
    """
    if search_samples is not None and (isinstance(search_samples, bool) or
                                       not isinstance(search_samples, (int, np.integer)) or
                                       not 1 <= int(search_samples) <= 100_000):
        raise RulesError(f"search_samples={search_samples!r}: expected a whole number from 1 to 100,000")
    if search_z is None:
        search_z = SEARCH_Z
    if isinstance(search_z, bool) or not isinstance(search_z, (int, float, np.integer, np.floating)) or \
            not 0.0 <= float(search_z) <= 10.0:
        raise RulesError(f"search_z={search_z!r}: expected a number from 0 to 10")
    if search_rollout is None:
        search_rollout = SEARCH_ROLLOUT
    if not isinstance(search_rollout, str) or search_rollout not in SEARCH_ROLLOUTS:
        raise RulesError(f"search_rollout={quote_token(search_rollout)}: expected 'greedy', 'lookahead' or 'own'")
    p = validate_players(players)
    r = resolve_rules(rules)
    check_deal(p, r)
    if search_samples is None:
        search_samples = SEARCH_SAMPLES_ADVANCED if r.settlement == "advanced" else SEARCH_SAMPLES
    sets = r.sets_for(p)
    first, other = hand_sizes(p)
    copies = tuple(int(c) * sets for c in COPIES_PER_SET)
    return EngineConfig(
        players=p,
        rules=r,
        n=half_groups(p),
        n_first=first,
        n_other=other,
        sets=sets,
        copies=copies,
        n_tiles=sum(copies),
        n_dice=n_dice(p, r),
        claim=r.claim,
        turn=r.turn,
        keep_drawn=r.keep_drawn,
        forms_mask=forms_mask(r.forms),
        base_sum=int(r.base_combination == "sum"),
        gee_joon_run_value=r.gee_joon_run_value,
        search_samples=int(search_samples),
        search_z=float(search_z),
        search_rollout=search_rollout,
    )


def new_outcomes(players: int) -> dict[str, np.ndarray]:
    """Zeroed tallies of a chunk of hands; every entry adds up across chunks.

    Keys (``P`` = players; "first" = seat relative to the first hand, "dealer" = absolute
    seat, 0 the dealer):

    ``hands`` (1,); ``first_hand`` (P,) first-hand seat counts; ``wins_first`` /
    ``wins_dealer`` (3, P) wins by kind (natural, claimed, self-drawn) and seat;
    ``ends`` (2,) drawn hands and turn-limit hands (a subset); ``length`` (MAX_TURNS + 1,)
    hands by the turn they ended in; ``score_first`` / ``score_dealer`` (P, SCORE_LEVELS)
    winning scores by seat; ``ready_first`` / ``alive_first`` / ``ready_dealer`` /
    ``alive_dealer`` (P, READY_LEVELS): after own turn t (t = 0: the dealt hand, seats
    other than the first hand), hands still running and hands ready.
    """
    p = players
    return {
        "hands": np.zeros(1, np.int64),
        "first_hand": np.zeros(p, np.int64),
        "wins_first": np.zeros((3, p), np.int64),
        "wins_dealer": np.zeros((3, p), np.int64),
        "ends": np.zeros(2, np.int64),
        "length": np.zeros(MAX_TURNS + 1, np.int64),
        "score_first": np.zeros((p, SCORE_LEVELS), np.int64),
        "score_dealer": np.zeros((p, SCORE_LEVELS), np.int64),
        "ready_first": np.zeros((p, READY_LEVELS), np.int64),
        "alive_first": np.zeros((p, READY_LEVELS), np.int64),
        "ready_dealer": np.zeros((p, READY_LEVELS), np.int64),
        "alive_dealer": np.zeros((p, READY_LEVELS), np.int64),
    }
