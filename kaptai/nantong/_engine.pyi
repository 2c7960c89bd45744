"""Type stubs of the compiled Nantong engine (:mod:`kaptai.nantong._engine`)."""
from collections.abc import Sequence

import numpy as np

from kaptai.nantong.config import EngineConfig

def run_hands(cfg: EngineConfig, codes: Sequence[int], bit_generator: np.random.BitGenerator,
              hands: int, decision_log: np.ndarray | None = ...,
              belief_log: np.ndarray | None = ...) -> dict[str, np.ndarray]: ...
def search_stats() -> dict[str, float]: ...
def advise_position(cfg: EngineConfig, seat: int, hand: np.ndarray, melds: Sequence[tuple[int, int]],
                    seen: np.ndarray, turned: Sequence[int], samples: int,
                    bit_generator: np.random.BitGenerator,
                    others: Sequence[tuple[int, Sequence[tuple[int, int]]]] | None = ...
                    ) -> tuple[list[int], np.ndarray]: ...
def search_values(cfg: EngineConfig, state: object, seat: int, options: Sequence[int],
                  bit_generator: np.random.BitGenerator, layouts: int) -> tuple[np.ndarray, np.ndarray]: ...
def search_pick(cfg: EngineConfig, state: object, seat: int, key: int, ndec: int, cur: int = ...,
                d: int = ..., can_kong: int = ..., can_pong: int = ...) -> tuple[int, int, int, int]: ...
