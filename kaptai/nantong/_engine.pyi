"""Type stubs of the compiled Nantong engine (:mod:`kaptai.nantong._engine`)."""
from collections.abc import Sequence

import numpy as np

from kaptai.nantong.config import EngineConfig

def run_hands(cfg: EngineConfig, codes: Sequence[int], bit_generator: np.random.BitGenerator,
              hands: int) -> dict[str, np.ndarray]: ...
