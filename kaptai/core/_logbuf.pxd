# cython: language_level=3
"""A growable buffer of fixed-size log rows for nogil engines (shared by every engine).

An engine appends rows with :func:`log_row` (a pointer to the next row, or NULL when
memory runs out) and copies them into a numpy array at the end with :func:`log_rows`.
"""
from libc.stdint cimport int64_t
from libc.stdlib cimport malloc, realloc, free
from libc.string cimport memcpy
cimport numpy as cnp


cdef struct LogBuffer:
    char* data
    int64_t rows         # rows written
    int64_t cap          # rows allocated
    int64_t row_bytes


cdef inline int log_init(LogBuffer* b, int64_t row_bytes, int64_t cap) noexcept nogil:
    """Allocate room for ``cap`` rows of ``row_bytes`` bytes; 0 on success, -1 out of memory."""
    b.rows = 0
    b.row_bytes = row_bytes
    b.cap = cap if cap > 0 else 1
    b.data = <char*> malloc(<size_t>(b.cap * row_bytes))
    return 0 if b.data != NULL else -1


cdef inline void* log_row(LogBuffer* b) noexcept nogil:
    """The next row to fill (the buffer doubles when full); NULL when out of memory."""
    cdef char* grown
    if b.rows >= b.cap:
        grown = <char*> realloc(b.data, <size_t>(2 * b.cap * b.row_bytes))
        if grown == NULL:
            return NULL
        b.data = grown
        b.cap *= 2
    b.rows += 1
    return b.data + (b.rows - 1) * b.row_bytes


cdef inline void log_free(LogBuffer* b) noexcept nogil:
    free(b.data)
    b.data = NULL
    b.rows = 0
    b.cap = 0


cdef inline object log_rows(LogBuffer* b, int cols, object dtype):
    """The rows written so far as a new ``(rows, cols)`` numpy array of ``dtype``."""
    import numpy as np

    out = np.empty((b.rows, cols), dtype=dtype)
    if b.rows:
        memcpy(cnp.PyArray_DATA(out), b.data, <size_t>(b.rows * b.row_bytes))
    return out
