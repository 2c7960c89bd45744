"""Type stubs of the compiled Big Two combination evaluator (kaptai/bigtwo/_eval.pyx)."""
from typing import Sequence

import numpy as np
import numpy.typing as npt

CATEGORY_NAMES: tuple[str, ...]

def _classify_batch(
    masks: npt.NDArray[np.uint64],
    rank_strength: Sequence[int],
    suit_strength: Sequence[int],
    windows: Sequence[tuple[int, int, int]],
    flush_suit_first: int,
    two_pair_five: int,
    quad_optional: int,
    four_card: int,
) -> tuple[npt.NDArray[np.int8], npt.NDArray[np.int8], npt.NDArray[np.int64]]: ...
def _plays_beating(
    hand: int,
    target: int,
    rank_strength: Sequence[int],
    suit_strength: Sequence[int],
    windows: Sequence[tuple[int, int, int]],
    flush_suit_first: int,
    two_pair_five: int,
    quad_optional: int,
    four_card: int,
) -> npt.NDArray[np.uint64]: ...
def _combinations(n: int, k: int) -> npt.NDArray[np.int8]: ...
def _masks_of(cards: npt.NDArray[np.int8]) -> npt.NDArray[np.uint64]: ...
