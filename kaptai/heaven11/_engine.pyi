from typing import Any, Sequence
import numpy as np

def run_hands(cfg: Any, play_codes: Sequence[int], bid_codes: Sequence[int], bit_generator: np.random.BitGenerator,
              hands: int, record: int = 0, decks: np.ndarray | None = None) -> tuple[dict[str, np.ndarray], np.ndarray]: ...
