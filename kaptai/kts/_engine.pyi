"""Type stubs of the compiled game engine (private; use kaptai.kts.simulate)."""

from collections.abc import Sequence

import numpy as np
import numpy.typing as npt

from kaptai.kts.config import EngineConfig

ACTIONS: tuple[str, ...]

def run_hands(
    cfg: EngineConfig,
    policies: Sequence[int],
    bit_generator: np.random.BitGenerator,
    n_hands: int,
    hand_offset: int = ...,
    record: int = ...,
    wall: npt.ArrayLike | None = ...,
    first_hand: int = ...,
    scripts: Sequence[Sequence[int]] | None = ...,
) -> tuple[dict[str, npt.NDArray[np.int64]], npt.NDArray[np.int32]]: ...
def search_stats() -> dict[str, int]: ...
def _basic_waits(counts: Sequence[int]) -> int: ...
def _distance_proxy(counts: Sequence[int], copies: Sequence[int], n: int) -> int: ...
