# cython: language_level=3
"""numpy ``bitgen_t`` access and bounded random integers without the GIL (shared by the engines).

The pure-Python twin is :class:`kaptai.core.sampling.RandomStream`; both read
``next_uint32`` and use Lemire's multiply-shift with rejection, so a compiled engine and
its reference draw the same numbers from the same ``PCG64``.
"""
from libc.stdint cimport uint32_t, uint64_t
from cpython.pycapsule cimport PyCapsule_GetPointer
from numpy.random cimport bitgen_t


cdef inline bitgen_t* bitgen_of(object bit_generator) except NULL:
    """The ``bitgen_t`` of a numpy BitGenerator (hold ``bit_generator.lock`` while drawing)."""
    return <bitgen_t*> PyCapsule_GetPointer(bit_generator.capsule, "BitGenerator")


cdef inline uint32_t bounded(bitgen_t* rng, uint32_t s) noexcept nogil:
    """Uniform integer in [0, s) by Lemire's multiply-shift with rejection."""
    cdef uint32_t x = rng.next_uint32(rng.state)
    cdef uint64_t m = <uint64_t>x * s
    cdef uint32_t low = <uint32_t>m
    cdef uint32_t threshold
    if low < s:
        threshold = (<uint32_t>0 - s) % s
        while low < threshold:
            x = rng.next_uint32(rng.state)
            m = <uint64_t>x * s
            low = <uint32_t>m
    return <uint32_t>(m >> 32)
