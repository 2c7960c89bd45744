"""Type stubs of the compiled nine-ten engine (private; use kaptai.nineten.engine.run_hands)."""

from collections.abc import Sequence

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
) -> tuple[dict[str, npt.NDArray[np.generic]], npt.NDArray[np.int64]]: ...
