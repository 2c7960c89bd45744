"""Type stubs of the compiled game engine (private; use kaptai.kts.simulate)."""

from collections.abc import Mapping, Sequence
from typing import Any

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
def search_values(
    cfg: EngineConfig,
    state: Mapping[str, Any],
    seat: int,
    kind: int,
    options: Sequence[int],
    bit_generator: np.random.BitGenerator,
    layouts: int,
    early_of: int = ...,
) -> npt.NDArray[np.float64]: ...
def _basic_waits(counts: Sequence[int]) -> int: ...
def _distance_proxy(counts: Sequence[int], copies: Sequence[int], n: int) -> int: ...

class _Memos: ...

_MEMO_POOL: dict[tuple[object, ...], list[_Memos]]
MEMO_POOL_RULESETS: int
MEMO_POOL_IDLE: int

def _memo_key(cfg: EngineConfig) -> tuple[object, ...]: ...
def _memos_take(key: tuple[object, ...]) -> _Memos: ...
def _memos_give(key: tuple[object, ...], ms: _Memos) -> None: ...
def _memos_clear() -> None: ...
