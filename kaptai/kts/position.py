"""The position an advice is asked about (Kap Tai Shap 夾大十): the hand, what is seen, the
offered tile, players, sets and horizon, validated once for every model that ranks it
(:mod:`kaptai.kts.advisor`'s one-tile model and :mod:`kaptai.kts.lookahead`).

>>> from kaptai.kts.position import position
>>> ctx = position("16 16 16 12 33 13 15 22 66 45", "traditional", "44", 4, None, 3)
>>> ctx.players, ctx.sets, ctx.n, len(ctx.hand), ctx.draws
(4, 2, 4, 10, 3)
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

import numpy as np

from kaptai.errors import InvalidHandError, InvalidTileError, RulesError, quote_token
from kaptai.kts.evaluate import c_rules, score_hands
from kaptai.kts.rules import RuleSet, check_deal, half_groups, resolve_rules, validate_players
from kaptai.kts.tiles import COPIES_PER_SET, N_TILE_TYPES, Tile, copies_error, format_tile, parse_hand

__all__ = ["Position", "position", "check_horizon", "is_win", "position_attrs"]


@dataclass(frozen=True, eq=False)
class Position:
    """A validated position (:func:`position`)."""


    rules: RuleSet
    mask: int
    base_sum: int
    gj: int
    players: int
    sets: int
    n: int
    copies: np.ndarray  # copies the sets hold, per tile id
    hand: tuple[int, ...]
    seen: np.ndarray  # counts of the seen tiles
    seen_ids: tuple[int, ...]
    offered: int | None
    draws: int


def _game(players: int) -> str:
    return "Kap Shap (2 players)" if players == 2 else f"Kap Tai Shap with {players} players"


def _tiles(value: Any, what: str) -> tuple[int, ...]:
    """Parse tiles, saying which argument (hand, seen, offered) a bad token came from."""
    if value is None:
        return ()
    try:
        return parse_hand(value)
    except (InvalidTileError, InvalidHandError) as exc:
        text = str(exc)
        if what != "hand":
            text = text.replace("of the hand", f"of {what}").replace("a hand must be", f"{what} must be")
        # parse_hand's messages name their position ("tile 2 of the hand"); say which argument
        raise type(exc)(text if what in text else f"{what}: {text}") from None


def _one_tile(value: Any) -> int:
    """The offered tile: one token (``'4-4'``, ``'人'``), a tile id or a :class:`Tile`."""
    try:
        ids = _tiles(value if isinstance(value, Iterable) and not isinstance(value, Tile) else [value], "offered")
    except (InvalidTileError, InvalidHandError) as exc:
        raise type(exc)(str(exc).replace("tile 1 of offered:", "offered tile")) from None
    if len(ids) != 1:
        raise InvalidHandError(f"offered must be one tile (the previous player's discard), got {len(ids)}")
    return ids[0]


def _check_draws(draws: Any) -> int:
    if isinstance(draws, (bool, np.bool_)) or not isinstance(draws, (int, np.integer)) or draws < 1:
        raise RulesError(f"draws={quote_token(draws)} is not allowed: expected a whole number of draws, at least 1")
    return int(draws)


def position(hand, rules, seen, players, sets, draws, offered=None) -> Position:
    r = resolve_rules(rules)
    if sets is not None:
        from kaptai.kts.evaluate import check_sets

        given = r.replace(sets=sets)  # validates: RulesError naming 'sets'
        check_sets(r, sets)  # -o sets=1 --sets 3: refused, not one of them silently
        r = given
    players = validate_players(players)
    check_deal(players, r)
    draws = _check_draws(draws)
    n_sets = r.sets_for(players)
    n = half_groups(players)
    r, mask, base_sum, gj = c_rules(r)

    ids = _tiles(hand, "hand") if hand is not None else ()
    sizes = (2 * n + 1, 2 * n + 2)
    if len(ids) not in sizes:
        other = "Kap Tai Shap (players >= 3) uses 9 or 10" if n == 3 else "Kap Shap (players=2) uses 7 or 8"
        raise InvalidHandError(
            f"the hand has {len(ids)} tiles: expected {sizes[0]} or {sizes[1]} for {_game(players)}; {other}"
        )
    seen_ids = _tiles(seen, "seen")
    offered_id = None if offered is None else _one_tile(offered)

    copies = (COPIES_PER_SET * n_sets).astype(np.int64)
    parts = [("the hand holds", ids), ("the hand and the seen tiles hold", ids + seen_ids)]
    if offered_id is not None:
        parts.append(("the hand, the seen tiles and the offered tile hold", ids + seen_ids + (offered_id,)))
    for what, tiles in parts:
        err = copies_error(np.bincount(np.asarray(tiles, dtype=np.int64), minlength=N_TILE_TYPES), n_sets, what)
        if err is not None:
            raise err
    seen_counts = np.bincount(np.asarray(seen_ids, dtype=np.int64), minlength=N_TILE_TYPES)
    return Position(r, mask, base_sum, gj, players, n_sets, n, copies, ids, seen_counts, seen_ids,
                    offered_id, draws)


def check_horizon(ctx: Position, u: int, claims: bool) -> None:
    looks = ctx.draws * (2 if claims else 1)
    if looks > u:
        what = f"draws={ctx.draws} with claims needs {looks} looks" if claims else f"draws={ctx.draws} needs {looks} draws"
        raise RulesError(f"{what} but only {u} tile{'s are' if u != 1 else ' is'} unseen")


def is_win(ctx: Position, tiles: tuple[int, ...]) -> int:
    """Score of a 2n+2-tile hand, -1 if not a win."""
    return int(score_hands(np.array([tiles], dtype=np.int8), ctx.rules)[0])


def position_attrs(ctx: Position, u: int, claims: bool) -> dict[str, Any]:
    return {
        "rules": ctx.rules.to_dict(),
        "players": ctx.players,
        "sets": ctx.sets,
        "hand": " ".join(format_tile(t) for t in ctx.hand),
        "seen": " ".join(format_tile(t) for t in ctx.seen_ids),
        "offered": None if ctx.offered is None else format_tile(ctx.offered),
        "unseen": u,
        "draws": ctx.draws,
        "model": "stand on the waits; own draws uniform over the unseen tiles"
        + ("; a claimable discard before each draw" if claims else ""),
        "method": "exact",
    }
