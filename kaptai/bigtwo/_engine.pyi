"""Type stubs of the compiled Big Two game engine (private; use kaptai.bigtwo.engine.run_hands)."""

from collections.abc import Sequence

import numpy as np
import numpy.typing as npt

from kaptai.bigtwo.config import EngineConfig

MAX_REDEALS: int
MAX_TURNS: int

def run_hands(
    cfg: EngineConfig,
    policy_codes: Sequence[int],
    bit_generator: np.random.BitGenerator | None,
    games: int,
    record: int = ...,
    decks: npt.ArrayLike | None = ...,
    seat_by_leader: bool = ...,
) -> tuple[dict[str, npt.NDArray[np.generic]], npt.NDArray[np.int64]]: ...
def search_position(
    cfg: EngineConfig,
    seat: int,
    cards_left: Sequence[int],
    hand: int,
    played: int = ...,
    dead: int = ...,
    trick: int = ...,
    trick_seat: int = ...,
    passes: int = ...,
    locked: Sequence[bool] | None = ...,
    must: int = ...,
    violator: int = ...,
    turns: int = ...,
    bit_generator: np.random.BitGenerator | None = ...,
    samples: int | None = ...,
    history: Sequence[Sequence[int]] | None = ...,
) -> tuple[npt.NDArray[np.uint64], npt.NDArray[np.int64], npt.NDArray[np.int64], npt.NDArray[np.int64]]: ...
def search_layouts(
    cfg: EngineConfig,
    seat: int,
    cards_left: Sequence[int],
    hand: int,
    played: int = ...,
    dead: int = ...,
    history: Sequence[Sequence[int]] | None = ...,
    bit_generator: np.random.BitGenerator | None = ...,
    samples: int | None = ...,
) -> tuple[npt.NDArray[np.uint64], npt.NDArray[np.int8], npt.NDArray[np.int64], float]: ...
def _options(cfg: EngineConfig, hand: int, target: int = ..., must: int = ...) -> npt.NDArray[np.uint64]: ...
def _weakest(cfg: EngineConfig, hand: int, t: int, target: int = ..., must: int = ...) -> int: ...
def _plan(cfg: EngineConfig, hand: int) -> list[int]: ...
