"""Type stubs of the compiled Kap Tai Shap evaluator (kaptai/kts/_eval.pyx)."""
from typing import Any, Sequence

import numpy as np
import numpy.typing as npt

def _score_batch(tiles: npt.NDArray[np.int8], forms: int, base_sum: int, gjrv: int) -> npt.NDArray[np.int32]: ...
def _classify_batch(
    tiles: npt.NDArray[np.int8], forms: int, base_sum: int, gjrv: int
) -> tuple[npt.NDArray[np.int32], npt.NDArray[np.int8], npt.NDArray[np.int16]]: ...
def _waits_batch(tiles: npt.NDArray[np.int8], forms: int, base_sum: int, gjrv: int) -> npt.NDArray[np.bool_]: ...
def _max_overlap_counts(
    counts: Sequence[int], copies: Sequence[int], forms: int, base_sum: int, gjrv: int, n: int
) -> int: ...
def _canonical_count(copies: Sequence[int], size: int) -> int: ...
def _overlap_table(
    copies: Sequence[int],
    size: int,
    forms: int,
    base_sum: int,
    gjrv: int,
    n: int,
    prefix: Sequence[int],
    out: npt.NDArray[np.uint8],
) -> int: ...
def _deal_tables(
    copies: Sequence[int],
    size: int,
    forms: int,
    base_sum: int,
    gjrv: int,
    n: int,
    distance: bool,
    prefix: Sequence[int] = ...,
    prev: npt.NDArray[np.uint8] | None = ...,
    out: npt.NDArray[np.uint8] | None = ...,
) -> dict[str, Any]: ...
