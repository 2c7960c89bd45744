from typing import Any, Sequence
import numpy as np

def run_hands(cfg: Any, play_codes: Sequence[int], bid_codes: Sequence[int], bit_generator: np.random.BitGenerator,
              hands: int, record: int = 0, decks: np.ndarray | None = None) -> tuple[dict[str, np.ndarray], np.ndarray]: ...
def option_values(cfg: Any, state: Any, seat: int, options: Sequence[int], samples: int,
                  bit_generator: np.random.BitGenerator, calls: Sequence[tuple[int, int]] = ...,
                  bid_codes: Sequence[int] = ...) -> np.ndarray: ...
def call_values(cfg: Any, seat: int, hand: int, dealer: int, calls: Sequence[tuple[int, int]], samples: int,
                bit_generator: np.random.BitGenerator,
                bid_codes: Sequence[int] = ...) -> tuple[list[int], np.ndarray]: ...
