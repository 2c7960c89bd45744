"""Type stubs of the compiled nine-ten engine (private; use kaptai.nineten.engine.run_hands)."""

from collections.abc import Mapping, Sequence
from typing import Any

import numpy as np
import numpy.typing as npt

from kaptai.nineten.config import EngineConfig

def run_hands(
    cfg: EngineConfig,
    policy_codes: Sequence[int],
    bit_generator: np.random.BitGenerator | None,
    hands: int,
    record: int = ...,
    decks: npt.ArrayLike | None = ...,
    relative: bool = ...,
) -> tuple[dict[str, npt.NDArray[np.generic]], npt.NDArray[np.int64]]: ...
def search_values(
    cfg: EngineConfig,
    state: Mapping[str, Any],
    seat: int,
    options: Sequence[int],
    samples: int,
    bit_generator: np.random.BitGenerator,
    offer_from: int = ...,
) -> tuple[npt.NDArray[np.int64], npt.NDArray[np.int8], int]: ...
def infer_beliefs(
    cfg: EngineConfig,
    state: Mapping[str, Any],
    seat: int,
    candidates: int,
    bit_generator: np.random.BitGenerator,
) -> tuple[npt.NDArray[np.float64], float]: ...
def search_stats() -> dict[str, int | float]: ...
def search_pick(
    cfg: EngineConfig,
    state: Mapping[str, Any],
    seat: int,
    options: Sequence[int],
    ref: int,
    seed: int,
) -> int: ...
