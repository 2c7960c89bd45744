"""Type stubs of the compiled exact look-ahead (kaptai/kts/_lookahead.pyx)."""
from typing import Any, Sequence

def _solve(
    hands: Sequence[Sequence[int]] | Any,
    pool: Sequence[int],
    avail: Sequence[int],
    looks: int,
    bonus: Sequence[int],
    objective: int,
    forms: int,
    base_sum: int,
    gjrv: int,
    n: int,
) -> dict[str, Any]: ...
def _balance_keys(forms: int, n: int, gjrv: int) -> tuple[list[int], list[int]]: ...
def _masked_key(counts: Sequence[int]) -> int: ...
def _key_table(forms: int, n: int, gjrv: int) -> Any: ...
