"""Reproducible random streams for chunked Monte Carlo runs.

A run of ``hands`` trials is cut into chunks of a fixed size; chunk ``i`` reads its own
``PCG64`` stream built from child ``i`` of ``SeedSequence(entropy)``.  The streams belong
to the chunks, never to the workers, so a run gives the same result whatever the number of
worker processes, and a longer run with the same seed starts with the same chunks.

Examples
--------
>>> from kaptai.core.sampling import chunk_plan, chunk_seeds, seed_entropy
>>> chunk_plan(10, 4)
[(0, 0, 4), (1, 4, 4), (2, 8, 2)]
>>> ent = seed_entropy(42)
>>> ent
42
>>> a, b = chunk_seeds(ent, 2), chunk_seeds(ent, 3)
>>> bool(a[1].generate_state(1)[0] == b[1].generate_state(1)[0])
True
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from numbers import Integral
from typing import Callable, TypeVar, cast

import numpy as np

from kaptai.errors import RulesError, quote_token

_T = TypeVar("_T")

#: The largest seed a run takes (128 bits: what fresh entropy holds).
MAX_SEED: int = 2**128 - 1

__all__ = ["seed_entropy", "chunk_plan", "chunk_seed", "chunk_seeds", "bit_generator", "RandomStream", "SplitMixStream",
           "Switch"]


def seed_entropy(seed: object) -> int:
    """The entropy to record for a run: the seed itself, or fresh entropy for None.

    Parameters
    ----------
    seed : int, SeedSequence or None
        A non-negative integer, a ``SeedSequence`` (its entropy is used; it must not have
        a spawn key), or None for fresh OS entropy.

    Returns
    -------
    int

    Raises
    ------
    kaptai.errors.RulesError
        For a negative or non-integer seed (a bool, a float, a string), or one of more than
        128 bits (a ``ValueError`` too).

    Examples
    --------
    >>> from kaptai.core.sampling import seed_entropy
    >>> seed_entropy(7), seed_entropy(None) >= 0
    (7, True)
    >>> seed_entropy(1.5)
    Traceback (most recent call last):
    ...
    kaptai.errors.RulesError: seed=1.5: expected a non-negative integer or None
    """
    if seed is None:
        return int(cast(int, np.random.SeedSequence().entropy))  # fresh entropy is an int
    if isinstance(seed, np.random.SeedSequence):
        if seed.spawn_key:
            raise RulesError("pass the root SeedSequence (no spawn_key) or its entropy as seed")
        return int(cast(int, seed.entropy))
    if isinstance(seed, (bool, np.bool_)) or not isinstance(seed, Integral) or seed < 0:
        raise RulesError(f"seed={quote_token(seed)}: expected a non-negative integer or None")
    if int(seed) > MAX_SEED:
        raise RulesError(f"seed={quote_token(seed)}: expected a non-negative integer below 2^128, or None")
    return int(seed)


def chunk_plan(total: int, chunk_size: int) -> list[tuple[int, int, int]]:
    """Cut ``total`` trials into chunks: ``(index, start, size)`` triples.

    Examples
    --------
    >>> from kaptai.core.sampling import chunk_plan
    >>> chunk_plan(3, 8)
    [(0, 0, 3)]
    """
    if chunk_size < 1:
        raise ValueError(f"chunk_size={quote_token(chunk_size)}: expected a positive integer")
    return [
        (i, start, min(chunk_size, total - start))
        for i, start in enumerate(range(0, total, chunk_size))
    ]


def chunk_seeds(entropy: int, n_chunks: int) -> list[np.random.SeedSequence]:
    """Children ``0 .. n_chunks - 1`` of ``SeedSequence(entropy)``.

    Child ``i`` does not depend on ``n_chunks``, so runs of different lengths share their
    first chunks.
    """
    return np.random.SeedSequence(entropy).spawn(n_chunks)


def chunk_seed(entropy: int, index: int) -> np.random.SeedSequence:
    """Child ``index`` of ``SeedSequence(entropy)`` alone, without spawning the ones before it.

    The same stream as ``chunk_seeds(entropy, n)[index]`` for any ``n > index``, in
    constant time and memory: a run of any length plans its chunks lazily.

    Examples
    --------
    >>> from kaptai.core.sampling import chunk_seed, chunk_seeds
    >>> a, b = chunk_seed(5, 2), chunk_seeds(5, 3)[2]
    >>> a.spawn_key, a.spawn_key == b.spawn_key, bool((a.generate_state(4) == b.generate_state(4)).all())
    ((2,), True, True)
    """
    return np.random.SeedSequence(entropy, spawn_key=(int(index),))


def bit_generator(child: np.random.SeedSequence) -> np.random.PCG64:
    """The chunk's bit generator: ``PCG64(child)``."""
    return np.random.PCG64(child)


class RandomStream:
    """numpy ``bitgen_t.next_uint32`` of a ``PCG64`` and Lemire bounded integers, in Python.

    The pure-Python twin of :func:`kaptai.core._rng.bounded` (``_rng.pxd``), used by the
    reference engines so that they read the same stream as the compiled ones.

    Parameters
    ----------
    bit_generator : numpy.random.PCG64
        A fresh generator (its 32-bit buffer must be empty, as it is after construction).

    Examples
    --------
    >>> import numpy as np
    >>> from kaptai.core.sampling import RandomStream
    >>> s = RandomStream(np.random.PCG64(0))
    >>> [s.bounded(6) for _ in range(5)]
    [5, 3, 3, 1, 1]
    """

    __slots__ = ("_raw", "_has", "_buf")

    def __init__(self, bit_generator: np.random.BitGenerator):
        self._raw = bit_generator.random_raw
        self._has = False
        self._buf = 0

    def next_uint32(self) -> int:
        """The next 32-bit output, exactly as numpy's PCG64 ``next_uint32``."""
        if self._has:
            self._has = False
            return self._buf
        x = int(self._raw())
        self._has = True
        self._buf = x >> 32
        return x & 0xFFFFFFFF

    def lend(self, use: Callable[[np.random.BitGenerator], _T]) -> _T:
        """``use(bit_generator)`` with this stream's unread 32-bit half handed to the generator
        first, and taken back after: a compiled twin that reads the same ``next_uint32`` (numpy's
        ``bitgen_t``) then draws exactly the numbers this stream would have drawn, and this
        stream goes on where the twin stopped.  For a ``PCG64`` (its state's ``has_uint32`` and
        ``uinteger`` hold that half).

        >>> import numpy as np
        >>> a, b = RandomStream(np.random.PCG64(0)), RandomStream(np.random.PCG64(0))
        >>> _ = a.next_uint32(), b.next_uint32()          # both hold the high half unread
        >>> got = a.lend(lambda bg: np.random.Generator(bg).integers(0, 2**32, 3, dtype=np.uint32).tolist())
        >>> got == [b.next_uint32() for _ in range(3)], a.next_uint32() == b.next_uint32()
        (True, True)
        """
        bg = cast(np.random.BitGenerator, getattr(self._raw, "__self__"))  # the generator random_raw belongs to
        bg.state = {**bg.state, "has_uint32": int(self._has), "uinteger": int(self._buf)}
        try:
            return use(bg)
        finally:
            st = dict(bg.state)
            self._has, self._buf = bool(st["has_uint32"]), int(st["uinteger"])
            bg.state = {**st, "has_uint32": 0, "uinteger": 0}

    def bounded(self, s: int) -> int:
        """Uniform integer in ``[0, s)`` for ``1 <= s < 2**32`` (Lemire's method)."""
        m = self.next_uint32() * s
        low = m & 0xFFFFFFFF
        if low < s:
            threshold = ((1 << 32) - s) % s
            while low < threshold:
                m = self.next_uint32() * s
                low = m & 0xFFFFFFFF
        return m >> 32


_M64 = (1 << 64) - 1


class SplitMixStream(RandomStream):
    """SplitMix64 read as 32-bit draws (``z >> 32``): a search decision's private stream
    (the nine-ten and Nantong searches draw their layouts from one, seeded per decision, so
    the engine's own stream, and with it a duplicate deal, is not touched).

    >>> from kaptai.core.sampling import SplitMixStream
    >>> st = SplitMixStream(0)
    >>> st.next_uint32(), st.bounded(10)
    (3793791033, 4)
    """

    __slots__ = ("_state",)

    def __init__(self, seed: int):  # no bit generator: the state is the seed
        self._state = seed & _M64

    def next_uint32(self) -> int:
        self._state = (self._state + 0x9E3779B97F4A7C15) & _M64
        z = self._state
        z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & _M64
        z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & _M64
        return (z ^ (z >> 31)) >> 32


class Switch:
    """An on/off flag of a reference engine with a context manager, such as
    ``engine_reference.compiled_rollouts`` (its search seats roll out in the compiled twin: the
    same choices from the same numbers, at the compiled speed; ``kaptai play`` turns it on).

    >>> from kaptai.core.sampling import Switch
    >>> s = Switch()
    >>> with s():
    ...     bool(s)
    True
    >>> bool(s)
    False
    """

    __slots__ = ("on",)

    def __init__(self, on: bool = False):
        self.on = bool(on)

    def __bool__(self) -> bool:
        return self.on

    @contextmanager
    def __call__(self, on: bool = True) -> Iterator[None]:
        """Within the block the flag is ``on`` (restored after)."""
        before, self.on = self.on, bool(on)
        try:
            yield
        finally:
            self.on = before
