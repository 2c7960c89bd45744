"""Big Two (鋤大D) game engine: configuration, constants and the front door to both engines.

The engine itself is specified once, in ``docs/big-two-engine.md``; two implementations
follow it line by line and are compared move for move by the tests:

* :mod:`kaptai.bigtwo._engine` — compiled, nogil, the built-in policies by code;
* :mod:`kaptai.bigtwo.engine_reference` — pure Python, the test oracle, and the only one
  that runs user :class:`kaptai.bigtwo.policies.Policy` objects.

:func:`run_games` picks the compiled engine when every seat plays a built-in policy.

Examples
--------
>>> from kaptai.bigtwo.engine import make_config
>>> cfg = make_config(3, {"malaysian_3p": True})
>>> cfg.players, cfg.hand_size, cfg.leftover, cfg.lowest
(3, 17, 1, 0)
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

from kaptai.bigtwo.combos import _params
from kaptai.bigtwo.rules import RuleSet, resolve_rules, validate_players
from kaptai.errors import KaptaiError, RulesError

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
    "check_policies",
    "run_games",
]

#: Log actions by code (``docs/big-two-engine.md``).
ACTIONS: tuple[str, ...] = ("deal", "leftover", "swap", "instant_win", "redeal", "lead", "play", "pass", "win")
#: Columns of a log row (all int64).
LOG_COLUMNS: tuple[str, ...] = ("game", "step", "seat", "action", "cards", "value")
#: Built-in policies, by code.
POLICY_NAMES: tuple[str, ...] = ("random", "greedy", "heuristic")
POLICY_CODES: Mapping[str, int] = {name: i for i, name in enumerate(POLICY_NAMES)}
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
    """

    rules: RuleSet
    players: int
    hand_size: int
    leftover: int
    malaysian_swap: str
    lowest: int
    card_strength: np.ndarray
    classifier: tuple

    @property
    def swap_code(self) -> int:
        """Index of :attr:`malaysian_swap` in :data:`MALAYSIAN_SWAP`."""
        return MALAYSIAN_SWAP.index(self.malaysian_swap)

    def fingerprint(self) -> dict[str, Any]:
        """JSON-friendly identity of the table (checkpoints, attrs)."""
        return {"rules": self.rules.to_dict(), "players": self.players, "malaysian_swap": self.malaysian_swap}


def make_config(
    players: int | None = None,
    rules: RuleSet | str | Mapping[str, Any] | None = None,
    *,
    malaysian_swap: str = "policy",
) -> EngineConfig:
    """Validate a table: players, rules and the Malaysian swap setting.

    Parameters
    ----------
    players : int, optional
        2-52; overrides ``rules.players`` (default: the ruleset's, 4).
    rules : RuleSet, str, mapping or None
    malaysian_swap : {'policy', 'always', 'never'}
        Who decides the swap of ``malaysian_3p`` (only matters with that option).

    Raises
    ------
    RulesError

    Examples
    --------
    >>> from kaptai.bigtwo.engine import make_config
    >>> make_config(5).leftover
    2
    >>> make_config(4, malaysian_swap="sometimes")
    Traceback (most recent call last):
    ...
    kaptai.errors.RulesError: malaysian_swap='sometimes' is not allowed: expected one of 'policy', 'always', 'never'
    """
    if players is None:
        rules = resolve_rules(rules)
    elif isinstance(rules, Mapping):
        rules = resolve_rules({**rules, "players": validate_players(players)})
    else:
        rules = resolve_rules(rules, players=validate_players(players))
    if malaysian_swap not in MALAYSIAN_SWAP:
        raise RulesError(
            f"malaysian_swap={malaysian_swap!r} is not allowed: expected one of "
            + ", ".join(repr(v) for v in MALAYSIAN_SWAP)
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


def check_policies(policies: Any, players: int) -> list:
    """One policy per seat from a name, a Policy object or a sequence of them.

    Names must be built-in (:data:`POLICY_NAMES`); objects are kept as they are.

    >>> check_policies("greedy", 3)
    ['greedy', 'greedy', 'greedy']
    >>> check_policies(["greedy", "best"], 2)
    Traceback (most recent call last):
    ...
    kaptai.errors.RulesError: unknown policy 'best' for seat 1: expected one of 'random', 'greedy', 'heuristic' or a kaptai.bigtwo.policies.Policy
    """
    if isinstance(policies, str) or not isinstance(policies, Sequence):
        policies = [policies] * players
    policies = list(policies)
    if len(policies) != players:
        raise RulesError(f"got {len(policies)} policies for {players} players: give one, or one per seat")
    for seat, p in enumerate(policies):
        if isinstance(p, str) and p not in POLICY_CODES:
            raise RulesError(
                f"unknown policy {p!r} for seat {seat}: expected one of "
                + ", ".join(repr(n) for n in POLICY_NAMES)
                + " or a kaptai.bigtwo.policies.Policy"
            )
        if not isinstance(p, str) and not callable(getattr(p, "choose", None)):
            raise RulesError(f"policy for seat {seat} ({p!r}) has no choose(view) method")
    return policies


def run_games(
    cfg: EngineConfig,
    policies: Any,
    bit_generator: np.random.BitGenerator,
    games: int,
    *,
    record: int = 0,
    decks: Any = None,
    engine: str = "auto",
) -> tuple[dict[str, np.ndarray], np.ndarray]:
    """Play ``games`` games on one random stream: the outcome arrays and the log.

    Parameters
    ----------
    cfg : EngineConfig
    policies : str, Policy or sequence
        Built-in names (:data:`POLICY_NAMES`) or :class:`kaptai.bigtwo.policies.Policy`
        objects, one per seat (a single one is used for every seat).
    bit_generator : numpy.random.PCG64
        A fresh generator: the shuffles and the ``random`` policy read it.
    games : int
    record : int
        Keep the log rows of the first ``record`` games.
    decks : array_like, optional
        ``(m, 52)`` card ids dealt in order instead of shuffling (tests, constructed deals).
    engine : {'auto', 'compiled', 'reference'}
        ``'auto'``: compiled when every seat plays a built-in policy.

    Returns
    -------
    (dict, numpy.ndarray)
        Outcome arrays (:data:`OUTCOME_DTYPES`) and the int64 log ``(rows, 6)``
        (:data:`LOG_COLUMNS`).  Both engines return the same for the same input.

    Examples
    --------
    >>> import numpy as np
    >>> from kaptai.bigtwo.engine import make_config, run_games
    >>> out, log = run_games(make_config(4), "greedy", np.random.PCG64(1), 3, record=1)
    >>> out["cards_left"].shape, int((out["cards_left"][np.arange(3), out["winner"]]).sum())
    ((3, 4), 0)
    """
    pols = check_policies(policies, cfg.players)
    builtin = all(isinstance(p, str) for p in pols)
    if engine not in ("auto", "compiled", "reference"):
        raise RulesError(f"engine={engine!r} is not allowed: expected 'auto', 'compiled' or 'reference'")
    if engine == "compiled" and not builtin:
        raise RulesError("the compiled engine plays only the built-in policies " + ", ".join(POLICY_NAMES))
    if decks is not None:
        decks = np.ascontiguousarray(decks, dtype=np.int8)
        if decks.ndim != 2 or decks.shape[1] != 52 or any(sorted(d) != list(range(52)) for d in decks.tolist()):
            raise RulesError("decks must be an array of shape (m, 52), each row a permutation of the card ids 0-51")
    if builtin and engine != "reference":
        from kaptai.bigtwo import _engine

        return _engine.run_games(cfg, [POLICY_CODES[p] for p in pols], bit_generator, int(games),
                                 record=int(record), decks=decks)
    from kaptai.bigtwo import engine_reference

    return engine_reference.run_games(cfg, pols, bit_generator, int(games), record=int(record), decks=decks)
