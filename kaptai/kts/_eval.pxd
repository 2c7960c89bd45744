# C interface of the compiled Kap Tai Shap evaluator (夾大十).
#
# Everything here works on a *count vector*: ``c[i]`` is the number of copies of
# tile id ``i`` (0..20) in a hand.  The Python layer validates input; these
# functions trust it.
from libc.stdint cimport int64_t, uint64_t

cdef enum:
    N_TILES = 21
    N_CLASSES = 10
    FORM_BASIC = 1
    FORM_GENERAL_EYES = 2
    FORM_RUN4 = 4
    FORM_RUN6 = 8
    FORM_RUN8 = 16
    # special-hand flags reported by ``score_counts``
    SPECIAL_ALL_EVEN = 1
    SPECIAL_ALL_ODD = 2
    SPECIAL_ALL_PAIRS = 4
    SPECIAL_GENERAL_EYES = 8
    SPECIAL_RUN4 = 16
    SPECIAL_RUN6 = 32
    SPECIAL_RUN8 = 64

cdef struct EvalRules:
    int forms          # bit set of FORM_* allowed
    int base_sum       # 0: base = max of applicable items; 1: their sum
    int n              # half groups: 4 (Kap Tai Shap) or 3 (Kap Shap)
    int rv[21]         # run-value of each tile id (2-4 per gee_joon_run_value)

cdef struct HandState:
    int c[21]          # copies of each tile id
    int rvc[13]        # copies per run-value 0..12
    int64_t key        # packed ten-pair balance (see _eval.pyx)
    int size

cdef void rules_init(EvalRules* r, int forms, int base_sum, int n, int gee_joon_run_value) noexcept nogil
cdef void hs_clear(HandState* h) noexcept nogil
cdef void hs_add(HandState* h, int t, const EvalRules* r) noexcept nogil
cdef void hs_remove(HandState* h, int t, const EvalRules* r) noexcept nogil
cdef bint hs_is_win(const HandState* h, const EvalRules* r) noexcept nogil
cdef int hs_score(const HandState* h, const EvalRules* r, int* form_out, int* specials_out) noexcept nogil
cdef int hs_waits(HandState* h, const EvalRules* r, int* out) noexcept nogil
cdef int max_overlap(const int* c, const int* copies, const EvalRules* r, int ceiling) noexcept nogil
