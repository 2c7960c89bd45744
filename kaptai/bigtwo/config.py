"""Big Two (鋤大D) engine configuration: constants, outcome dtypes, option codes and the table config.

The engine itself is specified once, in ``docs/big-two-engine.md``; two implementations
follow it line by line and are compared move for move by the tests:

* :mod:`kaptai.bigtwo._engine` — compiled, nogil, the built-in policies by code;
* :mod:`kaptai.bigtwo.engine_reference` — pure Python, the test oracle, and the only one
  that runs user :class:`kaptai.bigtwo.policies.Policy` objects.

This module is what both engines and every layer above them read; it imports neither engine.
:func:`kaptai.bigtwo.engine.run_hands` picks the compiled engine when every seat plays a built-in policy.

Examples
--------
>>> from kaptai.bigtwo.config import make_config
>>> cfg = make_config(3, {"malaysian_3p": True})
>>> cfg.players, cfg.hand_size, cfg.leftover, cfg.lowest
(3, 17, 1, 0)
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

import numpy as np

from kaptai.bigtwo.evaluate import _params
from kaptai.bigtwo.rules import FIRST_LEADS, REDEALS, TOP_RULES, RuleSet, resolve_rules, validate_players
from kaptai.errors import KaptaiError, RulesError, quote_token

__all__ = [
    "ACTIONS",
    "POLICY_NAMES",
    "POLICY_CODES",
    "MALAYSIAN_SWAP",
    "MAX_REDEALS",
    "MAX_TURNS",
    "OUTCOME_DTYPES",
    "LOG_COLUMNS",
    "IllegalPlayError",
    "EngineConfig",
    "make_config",
    "new_outcomes",
    "POINT_VALUES",
    "SEARCH_SAMPLES",
    "SEARCH_ROLLOUTS",
    "SEARCH_POOL",
    "MAX_POOL_LAYOUTS",
    "POLICY_VERSION",
]

#: Log actions by code (``docs/big-two-engine.md``).
ACTIONS: tuple[str, ...] = ("deal", "leftover", "swap", "instant_win", "redeal", "lead", "play", "pass", "win")
#: Columns of a log row (all int64).
LOG_COLUMNS: tuple[str, ...] = ("game", "step", "seat", "action", "cards", "value")
#: Built-in policies, by code.
POLICY_NAMES: tuple[str, ...] = ("random", "greedy", "heuristic", "search")
POLICY_CODES: Mapping[str, int] = {name: i for i, name in enumerate(POLICY_NAMES)}
#: Default budget of the ``search`` policy: sampled layouts of the unseen cards per decision.
SEARCH_SAMPLES: int = 128
#: Inference of the ``search`` policy (``search_infer``): a sampled layout's weight is
#: multiplied by ``SEARCH_INFER / 10`` per observed action that its styles contradict (the
#: value whose beliefs were calibrated, docs ``big-two.md``).
SEARCH_INFER: int = 4
#: Importance resampling of the ``search`` (``search_pool``): with inference on and a history,
#: ``search_pool * search_samples`` layouts are drawn and weighed and ``search_samples`` of them
#: are resampled in proportion to their weights (docs ``big-two-engine.md``, "search", step 4b);
#: 1 = no resampling (the S weighted layouts themselves).  8 was measured best of 2, 4, 8 and 16
#: against the sparring field under the outside rule set (docs ``big-two.md``, "Importance
#: resampling").
SEARCH_POOL: int = 8
#: Largest pool of layouts ``search_pool * search_samples`` (keeps the resampling's integer
#: arithmetic exact in 64 bits).
MAX_POOL_LAYOUTS: int = 100_000
#: Policies the ``search`` policy can play its rollouts with (``search_rollout``).
SEARCH_ROLLOUTS: tuple[str, ...] = ("greedy", "heuristic", "contest")
#: Engine code of the ``contest`` rollout style (a rollout policy only, not a table policy).
CONTEST_CODE: int = 4
#: Version of the built-in policies' play, in every checkpoint fingerprint
#: (:meth:`EngineConfig.fingerprint`): a checkpoint made by players that played otherwise is
#: refused (the runner names the difference) instead of being merged with games of today's.
#: Add one whenever a built-in policy plays differently.  2 (2026-12-04): greedy and heuristic
#: keep their 2s (8ec108f); search opponents of sampled styles and inference (014f4a8, 5eff1c7);
#: greedy rollouts under every rule set, where ``winner_takes_all`` had heuristic ones (d6ca180).
#: 3 (2026-12-04): the search resamples its layouts from a weighted pool of 8 times as many
#: (``search_pool=8``, issue 31; the fingerprint also records the pool).  4 (2026-12-04): the
#: search's default budget is 64 layouts a decision (was 32; docs ``big-two.md``, "Measured after
#: the resampling").  5 (2026-12-04): 128 layouts a decision (was 64; same section).  6
#: (2026-12-05): the search seat's own rollouts play ``contest`` (was ``greedy``; docs
#: ``big-two.md``, "The search seat's own rollouts: contest").
POLICY_VERSION: int = 6
#: Engine settings of the Malaysian swap decision, by code.
MALAYSIAN_SWAP: tuple[str, ...] = ("policy", "always", "never")
#: A game is redealt at most this many times; the next deal then stands unchecked.
MAX_REDEALS: int = 100
#: A game still running after this many turns is an engine error.
MAX_TURNS: int = 10_000
#: The outcome arrays of a run: name -> (dtype, per seat?).
OUTCOME_DTYPES: Mapping[str, tuple[str, bool]] = {
    "winner": ("int8", False),
    "leader": ("int8", False),
    "cards_left": ("int8", True),
    "points_left": ("int16", True),
    "liable": ("int8", False),
    "instant": ("int8", False),
    "redeals": ("int16", False),
    "swapped": ("int8", False),
    "plays": ("int16", False),
    "turns": ("int16", False),
    "violations": ("int16", False),
}
#: §5 ``points`` value of each card id: 2=15, A=14, K=13, Q=12, J=11, others face value.
POINT_VALUES: np.ndarray = np.repeat(np.arange(3, 16, dtype=np.int16), 4)
POINT_VALUES.setflags(write=False)


class IllegalPlayError(KaptaiError):
    """A policy chose a play the rules do not allow; the message names the play and why."""


@dataclass(frozen=True, eq=False)
class EngineConfig:
    """Everything an engine needs about a table, validated once.

    Attributes
    ----------
    rules : RuleSet
    players, hand_size, leftover : int
        N, ⌊52/N⌋ and 52 mod N.
    malaysian_swap : str
        ``'policy'`` (the seat's policy decides), ``'always'`` or ``'never'``.
    lowest : int
        Id of the lowest card under the active orders.
    card_strength : numpy.ndarray
        int64 single-card strength of each card id (0 = lowest).
    classifier : tuple
        The arguments the compiled classifier takes after the mask (rank strengths, suit
        strengths, straight windows, flush, two-pair-five, quad-optional, four-card flags).
    search_samples : int
        Layouts of the unseen cards the ``search`` policy samples at each decision.
    search_rollout : str
        The policy the ``search`` seat itself plays in its rollouts (``'contest'``, ``'greedy'``
        or ``'heuristic'``; the other seats play sampled styles, docs ``big-two-engine.md``).
    search_infer : int
        Inference of the ``search``: a layout's weight is multiplied by ``search_infer / 10`` per
        observed action its styles contradict (10: no inference; 0: such layouts are rejected).
    search_pool : int
        Importance resampling: with inference and a history the search weighs
        ``search_pool * search_samples`` layouts and plays its rollouts on ``search_samples`` of
        them resampled by weight (1: the S weighted layouts, no resampling).
    """

    rules: RuleSet
    players: int
    hand_size: int
    leftover: int
    malaysian_swap: str
    lowest: int
    card_strength: np.ndarray
    classifier: tuple
    search_samples: int = SEARCH_SAMPLES
    search_rollout: str = "contest"
    search_infer: int = SEARCH_INFER
    search_pool: int = SEARCH_POOL

    @property
    def rollout_code(self) -> int:
        """Engine code of :attr:`search_rollout` (``contest``: :data:`CONTEST_CODE`)."""
        return CONTEST_CODE if self.search_rollout == "contest" else POLICY_CODES[self.search_rollout]

    @property
    def swap_code(self) -> int:
        """Index of :attr:`malaysian_swap` in :data:`MALAYSIAN_SWAP`."""
        return MALAYSIAN_SWAP.index(self.malaysian_swap)

    @property
    def top_rule_code(self) -> int:
        """Index of ``rules.top_rule`` in :data:`kaptai.bigtwo.rules.TOP_RULES`."""
        return TOP_RULES.index(self.rules.top_rule)

    @property
    def first_lead_code(self) -> int:
        """Index of ``rules.first_lead`` in :data:`kaptai.bigtwo.rules.FIRST_LEADS`."""
        return FIRST_LEADS.index(self.rules.first_lead)

    @property
    def redeal_code(self) -> int:
        """Index of ``rules.redeal`` in :data:`kaptai.bigtwo.rules.REDEALS`."""
        return REDEALS.index(self.rules.redeal)

    def fingerprint(self) -> dict[str, Any]:
        """JSON-friendly identity of the table (checkpoints, attrs): the rules, the table, the
        ``search`` settings as resolved (``search_rollout='auto'`` recorded as the rollout it
        chose, so a checkpoint of another default is told apart) and :data:`POLICY_VERSION`.

        >>> make_config(4, {"settlement": "winner_takes_all"}).fingerprint()["search"]
        {'samples': 128, 'rollout': 'contest', 'infer': 4, 'pool': 8}
        """
        return {"rules": self.rules.to_dict(), "players": self.players, "malaysian_swap": self.malaysian_swap,
                "policy_version": POLICY_VERSION,
                "search": {"samples": self.search_samples, "rollout": self.search_rollout, "infer": self.search_infer,
                           "pool": self.search_pool}}


def default_rollout(rules: RuleSet) -> str:
    """The ``search`` rollout policy of ``search_rollout='auto'``: ``'contest'`` under every rule
    set (since ``POLICY_VERSION`` 6; ``'greedy'`` before).  Since the search models its
    opponents with a mixture of styles, ``heuristic`` rollouts are level with ``greedy`` ones
    under ``settlement='winner_takes_all'`` and weaker under the outside rule set of issue 31, and
    ``contest`` ones (the seat answers every trick it can beat) are ahead of ``greedy`` ones on
    every field measured (``docs/big-two.md``, "Strength against outside players" and "The search
    seat's own rollouts: contest").

    >>> from kaptai.bigtwo.rules import RuleSet
    >>> default_rollout(RuleSet()), default_rollout(RuleSet(settlement="winner_takes_all"))
    ('contest', 'contest')
    """
    return "contest"


def make_config(
    players: int | None = None,
    rules: RuleSet | str | Mapping[str, Any] | None = None,
    *,
    malaysian_swap: str = "policy",
    search_samples: int | None = None,
    search_rollout: str = "auto",
    search_infer: int | None = None,
    search_pool: int | None = None,
) -> EngineConfig:
    """Validate a table: players, rules and the Malaysian swap setting.

    Parameters
    ----------
    players : int, optional
        2-52; overrides ``rules.players`` (default: the ruleset's, 4).
    rules : RuleSet, str, mapping or None
    malaysian_swap : {'policy', 'always', 'never'}
        Who decides the swap of ``malaysian_3p`` (only matters with that option).
    search_samples : int, optional
        Budget of the ``search`` policy: layouts sampled per decision, 1-100,000 (default
        :data:`SEARCH_SAMPLES`).
    search_rollout : {'auto', 'contest', 'greedy', 'heuristic'}
        Rollout policy of the ``search`` seat itself (``'auto'``: :func:`default_rollout`).
    search_infer : int, optional
        Inference of ``search``, 0-10: a layout's weight is multiplied by ``search_infer / 10``
        per observed action its styles contradict (default :data:`SEARCH_INFER`; 10: none).
    search_pool : int, optional
        Importance resampling of ``search``, 1-1,000: with inference on and a history it weighs
        ``search_pool * search_samples`` layouts (at most :data:`MAX_POOL_LAYOUTS`) and resamples
        ``search_samples`` of them by weight (default :data:`SEARCH_POOL`; 1: no resampling).

    Raises
    ------
    RulesError

    Examples
    --------
    >>> from kaptai.bigtwo.config import make_config
    >>> make_config(5).leftover
    2
    >>> make_config(4, malaysian_swap="sometimes")
    Traceback (most recent call last):
    ...
    kaptai.errors.RulesError: malaysian_swap='sometimes' is not allowed: expected one of 'policy', 'always', 'never'
    >>> make_config(4, search_pool=0)
    Traceback (most recent call last):
    ...
    kaptai.errors.RulesError: search_pool=0 is not allowed: expected a whole number from 1 to 1,000
    """
    if players is None:
        rules = resolve_rules(rules)
    elif isinstance(rules, Mapping):
        rules = resolve_rules({**rules, "players": validate_players(players)})
    else:
        rules = resolve_rules(rules, players=validate_players(players))
    if malaysian_swap not in MALAYSIAN_SWAP:
        raise RulesError(
            f"malaysian_swap={quote_token(malaysian_swap)} is not allowed: expected one of "
            + ", ".join(repr(v) for v in MALAYSIAN_SWAP)
        )
    if search_samples is None:
        search_samples = SEARCH_SAMPLES
    if isinstance(search_samples, bool) or not isinstance(search_samples, (int, np.integer)) or not (
        1 <= int(search_samples) <= 100_000
    ):
        raise RulesError(f"search_samples={quote_token(search_samples)} is not allowed: expected a whole number from 1 to 100,000")
    if search_rollout == "auto":
        search_rollout = default_rollout(rules)
    if search_rollout not in SEARCH_ROLLOUTS:
        raise RulesError(
            f"search_rollout={quote_token(search_rollout)} is not allowed: expected 'auto', "
            + ", ".join(repr(v) for v in SEARCH_ROLLOUTS)
        )
    if search_infer is None:
        search_infer = SEARCH_INFER
    if isinstance(search_infer, bool) or not isinstance(search_infer, (int, np.integer)) or not (
        0 <= int(search_infer) <= 10
    ):
        raise RulesError(f"search_infer={quote_token(search_infer)} is not allowed: expected a whole number from 0 to 10")
    if search_pool is None:
        search_pool = SEARCH_POOL
    if isinstance(search_pool, bool) or not isinstance(search_pool, (int, np.integer)) or not (
        1 <= int(search_pool) <= 1_000
    ):
        raise RulesError(f"search_pool={quote_token(search_pool)} is not allowed: expected a whole number from 1 to 1,000")
    if int(search_pool) * int(search_samples) > MAX_POOL_LAYOUTS:
        raise RulesError(
            f"search_pool={quote_token(search_pool)} is not allowed with search_samples={int(search_samples)}: "
            f"the pool search_pool * search_samples must be at most {MAX_POOL_LAYOUTS:,} layouts"
        )
    h, r = rules.deal_sizes()
    strength = rules.card_strength().astype(np.int64)
    strength.setflags(write=False)
    return EngineConfig(
        rules=rules,
        players=rules.players,
        hand_size=h,
        leftover=r,
        malaysian_swap=malaysian_swap,
        lowest=rules.lowest_card(),
        card_strength=strength,
        classifier=_params(rules),
        search_samples=int(search_samples),
        search_rollout=search_rollout,
        search_infer=int(search_infer),
        search_pool=int(search_pool),
    )


def new_outcomes(games: int, players: int) -> dict[str, np.ndarray]:
    """Zeroed outcome arrays for ``games`` games (see :data:`OUTCOME_DTYPES`).

    >>> o = new_outcomes(2, 4)
    >>> o["cards_left"].shape, o["winner"].dtype.name
    ((2, 4), 'int8')
    """
    return {
        key: np.zeros((games, players) if per_seat else games, dtype=dtype)
        for key, (dtype, per_seat) in OUTCOME_DTYPES.items()
    }


