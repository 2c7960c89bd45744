# cython: language_level=3
"""C interface of the Nantong hand-analysis tables (for the compiled engine)."""
from libc.stdint cimport uint8_t, uint16_t, uint32_t, int8_t, int32_t

cdef int complete_hand(const uint8_t* h, int hs) noexcept nogil
cdef uint32_t wait_mask(const uint8_t* h, int hs) noexcept nogil
cdef int distance_hand(const uint8_t* h, int hs) noexcept nogil
cdef void suit_profile16(int s, int code, int hs, int* out) noexcept nogil
cdef int best_score_c(const uint8_t* h, const int8_t* lev, int win_card, int win_kind, int meld_dihu,
                      int meld_trips, int yazhuang, const int32_t* opts, int32_t* result,
                      int32_t* groups) noexcept nogil
