# cython: language_level=3
"""Compiled hand analysis of Nantong long cards (南通長牌): per-suit tables, no search.

Tables (tomohxx-style shanten tables)
-------------------------------------
A suit (萬, 條 or 餅) of a hand is a count vector ``c`` of 9 ranks, 0-4 copies each, coded
in base 5 (``code = sum c[r] 5**r``; 5**9 = 1,953,125 codes).  The honours 千字 白花 紅花 are
a 3-"rank" suit (125 codes) without sequences (or with the one sequence 千字-白花-紅花 under
``honour_sequence``).  Each code is classified once:

* ``S[code]`` - 16 bits, bit ``2m+p``: the vector is *exactly* m melds (sequences,
  triplets) + p pairs (p = 0, 1), m <= 7.  Built by a depth-first walk over meld multisets
  (each multiset visited once, counts <= 4).
* ``F[code]`` - its downward closure: bit ``2m+p`` if the vector is a sub-multiset of some
  (m, p) vector (one pass in decreasing code order: ``F[c] = S[c] | F[c + 5**r]``).
* ``D[code][2m+p]`` - the distance ``min over (m,p) vectors T of sum max(T[r] - c[r], 0)``
  (cards missing to reach such a T): ``3m+2p - |c|`` if ``c`` is in the closure, else
  ``min_r D[c - 5**r]`` (one pass in increasing code order).  255 = impossible.
* ``EW[code]`` - bit 15: the vector is exactly decomposable at its own size (``|c| = 3m`` or
  ``3m+2``); bits 0-8: ranks r (c[r] < 4) with ``c + e_r`` exactly decomposable (the waits).

The engine looks up EW and a packed D (``DC``: 30 bits a code, unpacked by
``suit_profile16``); :func:`build_tables` builds them once (about 0.25 s) and caches them in a
file of the user's cache folder, which later processes map into memory in about a
millisecond (see the cache section below; :func:`fresh_suit_tables` builds them afresh).

A hand is complete iff every suit is exactly decomposable and exactly one suit holds the
pair; the waits of a 3k+1-card hand are the wait bits of the one suit that can take the
card (all others exact, the pair count right); the distance from ready is the min-plus
convolution of the four suits' D profiles at (k melds, 1 pair), minus 1.

Scoring
-------
:func:`best_scores` enumerates the decompositions of complete hands by a depth-first
search over the 30 kinds (only complete hands reach it, a few decompositions each) and
scores every winning-card role; the integer option codes come from
:mod:`kaptai.nantong.evaluate`.
"""
from libc.stdint cimport int64_t, uint64_t, int8_t, uint8_t, uint16_t, int32_t, uint32_t
from libc.stdlib cimport malloc, calloc, free
from libc.string cimport memset

cimport numpy as cnp
import numpy as np

cnp.import_array()

DEF NSUIT = 1953125
DEF NHON = 125
DEF MAXM = 7
DEF INF = 255

cdef int P5[10]
P5[0] = 1
for _i in range(1, 10):
    P5[_i] = P5[_i - 1] * 5

# The 9-rank suit tables in use (read-only: a cached file mapped into memory, or the arrays of a
# fresh build) and the two honour tables (3 ranks, without / with the sequence; built in place).
cdef const uint16_t* S_EW = NULL
cdef const uint32_t* S_DC = NULL  # the D profile of each code in 30 bits (see suit_profile16)
cdef uint16_t H_EW[2][NHON]
cdef uint8_t H_D[2][NHON * 16]
cdef uint8_t H_SUM[NHON]
cdef bint _built = False
cdef object _owners = None       # the arrays (and the mapping) that S_EW and S_DC point into

#: Bump when the tables' builder changes what it computes: the name of the cache file holds it.
TABLES_FORMAT = 1
#: Where the tables came from in this process: "cache" (a mapped file), "built and cached",
#: "built" (no cache folder, or it could not be written), or "" (not yet).
tables_source = ""

cdef void _gen(int nranks, int* mdelta, int* mrank, int* mtype, int nmelds, int start, int m,
               int* cnt, int code, uint16_t* S) noexcept nogil:
    cdef int r, i, ok
    S[code] |= <uint16_t>(1 << (2 * m))
    for r in range(nranks):
        if cnt[r] + 2 <= 4:
            S[code + 2 * P5[r]] |= <uint16_t>(1 << (2 * m + 1))
    if m == MAXM:
        return
    for i in range(start, nmelds):
        r = mrank[i]
        if mtype[i] == 0:  # sequence r, r+1, r+2
            if cnt[r] < 4 and cnt[r + 1] < 4 and cnt[r + 2] < 4:
                cnt[r] += 1
                cnt[r + 1] += 1
                cnt[r + 2] += 1
                _gen(nranks, mdelta, mrank, mtype, nmelds, i, m + 1, cnt, code + mdelta[i], S)
                cnt[r] -= 1
                cnt[r + 1] -= 1
                cnt[r + 2] -= 1
        else:
            if cnt[r] + 3 <= 4:
                cnt[r] += 3
                _gen(nranks, mdelta, mrank, mtype, nmelds, i, m + 1, cnt, code + mdelta[i], S)
                cnt[r] -= 3


cdef void _build_table(int nranks, int nseq, uint16_t* EW, uint8_t* D, uint8_t* SUM) noexcept nogil:
    """Fill EW, D and SUM for a suit of ``nranks`` ranks with ``nseq`` sequence starts."""
    cdef int n = P5[nranks]
    cdef uint16_t* S = <uint16_t*> calloc(n, sizeof(uint16_t))
    cdef uint16_t* F = <uint16_t*> calloc(n, sizeof(uint16_t))
    cdef int mdelta[16]
    cdef int mrank[16]
    cdef int mtype[16]
    cdef int cnt[9]
    cdef int nm = 0
    cdef int r, c, x, mp, s, best, v, dig, bit, p, m, total, t
    for r in range(nseq):
        mdelta[nm] = P5[r] + P5[r + 1] + P5[r + 2]
        mrank[nm] = r
        mtype[nm] = 0
        nm += 1
    for r in range(nranks):
        mdelta[nm] = 3 * P5[r]
        mrank[nm] = r
        mtype[nm] = 1
        nm += 1
    for r in range(9):
        cnt[r] = 0
    _gen(nranks, mdelta, mrank, mtype, nm, 0, 0, cnt, 0, S)
    # digit sums
    for c in range(n):
        x = c
        s = 0
        for r in range(nranks):
            s += x % 5
            x = x // 5
        SUM[c] = <uint8_t>s
    # downward closure, decreasing code order
    for c in range(n - 1, -1, -1):
        bit = S[c]
        x = c
        for r in range(nranks):
            dig = x % 5
            x = x // 5
            if dig < 4:
                bit |= F[c + P5[r]]
        F[c] = <uint16_t>bit
    # distances, increasing code order
    for c in range(n):
        for mp in range(16):
            m = mp >> 1
            p = mp & 1
            if (F[c] >> mp) & 1:
                D[16 * c + mp] = <uint8_t>(3 * m + 2 * p - SUM[c])
            elif c == 0:
                D[mp] = INF
            else:
                best = INF
                x = c
                for r in range(nranks):
                    dig = x % 5
                    x = x // 5
                    if dig > 0:
                        v = D[16 * (c - P5[r]) + mp]
                        if v < best:
                            best = v
                D[16 * c + mp] = <uint8_t>best
    # exact flag and waits
    for c in range(n):
        EW[c] = 0
    for c in range(n):
        s = SUM[c]
        if s % 3 != 1 and s <= 3 * MAXM + 2:
            p = 1 if s % 3 == 2 else 0
            m = (s - 2 * p) // 3
            if (S[c] >> (2 * m + p)) & 1:
                EW[c] |= <uint16_t>(1 << 15)
    for c in range(n):
        bit = 0
        x = c
        for r in range(nranks):
            dig = x % 5
            x = x // 5
            if dig < 4 and (EW[c + P5[r]] >> 15):
                bit |= 1 << r
        EW[c] |= <uint16_t>bit
    free(S)
    free(F)


def fresh_suit_tables():
    """Build the 9-rank suit tables afresh, ignoring any cache: numpy arrays ``(EW, D, SUM,
    DC)`` (D of shape (1953125, 16), DC its packed form as used by the engine).  About 0.25 s
    and 45 MB on one core; the process's own tables are not touched."""
    ew = np.empty(NSUIT, dtype=np.uint16)
    d = np.empty((NSUIT, 16), dtype=np.uint8)
    sm = np.empty(NSUIT, dtype=np.uint8)
    dc = np.empty(NSUIT, dtype=np.uint32)
    cdef uint16_t[::1] ewv = ew
    cdef uint8_t[:, ::1] dv = d
    cdef uint8_t[::1] smv = sm
    cdef uint32_t[::1] dcv = dc
    with nogil:
        _build_table(9, 7, &ewv[0], &dv[0, 0], &smv[0])
        _compact(&dv[0, 0], &dcv[0])
    return ew, d, sm, dc


cdef void _build_honours() noexcept nogil:
    _build_table(3, 0, H_EW[0], H_D[0], H_SUM)
    _build_table(3, 1, H_EW[1], H_D[1], H_SUM)


def _install(ew, dc, owner, str source):
    """Point the tables in use at ``ew`` (uint16) and ``dc`` (uint32), NSUIT codes each."""
    global S_EW, S_DC, _owners, _built, tables_source
    cdef const uint16_t[::1] ewv = ew
    cdef const uint32_t[::1] dcv = dc
    if ewv.shape[0] != NSUIT or dcv.shape[0] != NSUIT:
        raise ValueError(f"nantong tables: {ewv.shape[0]} and {dcv.shape[0]} codes, {NSUIT} expected")
    _owners = (ew, dc, owner)
    S_EW = &ewv[0]
    S_DC = &dcv[0]
    tables_source = source
    _built = True


# ------------------------------------------------------------------------------ the cache
# The tables depend on nothing but this module's code, so they are built once per installed
# build of it and kept in a file of the user's cache folder (``$KAPTAI_CACHE_DIR``, else
# ``$XDG_CACHE_HOME/kaptai`` or ``~/.cache/kaptai``; ``KAPTAI_CACHE_DIR=""`` turns it off): EW
# and DC raw, 11.7 MB, mapped into memory on load (about a millisecond; pages are read as the
# codes are looked up, shared by every process that maps them).  The file name holds
# TABLES_FORMAT and the size and modification time of this compiled module, so a rebuild or
# an upgrade builds the tables once more; a file of the wrong size or header is ignored.

_MAGIC = b"kaptai-nantong\x00\x01"
_HEADER = 64
_EW_BYTES = NSUIT * 2
_DC_OFFSET = _HEADER + ((_EW_BYTES + 7) // 8) * 8
_FILE_BYTES = _DC_OFFSET + NSUIT * 4


def cache_dir():
    """The folder of the cached tables, or None if caching is off (``KAPTAI_CACHE_DIR=""``)."""
    import os

    env = os.environ.get("KAPTAI_CACHE_DIR")
    if env is not None:
        return env or None
    base = os.environ.get("XDG_CACHE_HOME") or (os.environ.get("LOCALAPPDATA") if os.name == "nt" else None)
    return os.path.join(base or os.path.join(os.path.expanduser("~"), ".cache"), "kaptai")


def cache_path():
    """The file of the cached tables for this build of the module, or None (caching off)."""
    import os

    folder = cache_dir()
    if folder is None:
        return None
    st = os.stat(__file__)
    return os.path.join(folder, f"nantong-tables-f{TABLES_FORMAT}-{st.st_size:x}-{st.st_mtime_ns:x}.bin")


def _header():
    import struct

    return (_MAGIC + struct.pack("<iiqq", TABLES_FORMAT, NSUIT, _DC_OFFSET, _FILE_BYTES)).ljust(_HEADER, b"\x00")


def load_cached(path):
    """``(EW, DC, mapping)`` read-only views of a cache file, or None if it is missing or is
    not a table file of this format."""
    import mmap

    try:
        with open(path, "rb") as fh:
            if fh.read(_HEADER) != _header():
                return None
            mm = mmap.mmap(fh.fileno(), 0, access=mmap.ACCESS_READ)
    except (OSError, ValueError):
        return None
    if len(mm) != _FILE_BYTES:
        mm.close()
        return None
    ew = np.frombuffer(mm, dtype=np.uint16, count=NSUIT, offset=_HEADER)
    dc = np.frombuffer(mm, dtype=np.uint32, count=NSUIT, offset=_DC_OFFSET)
    return ew, dc, mm


def write_cache(path, ew, dc):
    """Write the tables to ``path`` atomically (a temporary file in its folder, then renamed),
    removing the files of other builds beside it; returns True if written."""
    import glob
    import os
    import tempfile

    folder = os.path.dirname(path)
    try:
        os.makedirs(folder, exist_ok=True)
        fd, tmp = tempfile.mkstemp(prefix=".nantong-tables-", suffix=".tmp", dir=folder)
    except OSError:
        return False
    try:
        with os.fdopen(fd, "wb") as fh:
            fh.write(_header())
            fh.write(np.ascontiguousarray(ew, dtype="<u2").tobytes())
            fh.write(b"\x00" * (_DC_OFFSET - _HEADER - _EW_BYTES))
            fh.write(np.ascontiguousarray(dc, dtype="<u4").tobytes())
        os.replace(tmp, path)
    except OSError:
        try:
            os.unlink(tmp)
        except OSError:
            pass
        return False
    for old in glob.glob(os.path.join(folder, "nantong-tables-*.bin")):
        if os.path.basename(old) != os.path.basename(path):
            try:
                os.unlink(old)
            except OSError:  # in use elsewhere (Windows), or gone already
                pass
    return True


def build_tables():
    """Make the tables ready (idempotent); returns nothing.

    Maps the cached file when there is one (about a millisecond), else builds the tables
    (about 0.25 s on one core) and caches them (see :func:`cache_path`)."""
    global _built
    if _built:
        return
    with nogil:
        _build_honours()
    import sys

    path = cache_path()
    if path is not None:
        got = load_cached(path) if sys.byteorder == "little" else None
        if got is not None:
            _install(got[0], got[1], got[2], "cache")
            return
    ew, _, _, dc = fresh_suit_tables()
    cached = path is not None and sys.byteorder == "little" and write_cache(path, ew, dc)
    _install(ew, dc, None, "built and cached" if cached else "built")


def tables_in_use():
    """Read-only views ``(EW, DC)`` of the 9-rank suit tables this process looks up."""
    build_tables()
    return _owners[0], _owners[1]


cdef void _compact(const uint8_t* D, uint32_t* DC) noexcept nogil:
    """Pack each profile: d(m,0) - d(m-1,0) (m = 1..7, 0..3) in bits 0-13 and
    d(m,1) - d(m,0) (m = 0..7, 0..2) in bits 14-29 (both bounds hold for every code: a
    target with one meld or the pair more costs at most 3 / 2 cards more, never less)."""
    cdef int c, m
    cdef uint32_t x
    cdef const uint8_t* d
    for c in range(NSUIT):
        d = D + 16 * c
        x = 0
        for m in range(1, 8):
            x |= (<uint32_t>(d[2 * m] - d[2 * m - 2]) & 3) << (2 * (m - 1))
        for m in range(8):
            x |= (<uint32_t>(d[2 * m + 1] - d[2 * m]) & 3) << (14 + 2 * m)
        DC[c] = x


cdef void suit_profile16(int s, int code, int hs, int* out) noexcept nogil:
    """The 16 distances of suit ``s`` (3 = honours) at ``code``, as ints (compact table)."""
    cdef uint32_t x
    cdef int m, acc
    cdef const uint8_t* d
    if s == 3:
        d = H_D[hs] + 16 * code
        for m in range(16):
            out[m] = d[m]
        return
    x = S_DC[code]
    acc = 0
    out[0] = 0
    for m in range(1, 8):
        acc += (x >> (2 * (m - 1))) & 3
        out[2 * m] = acc
    for m in range(8):
        out[2 * m + 1] = out[2 * m] + ((x >> (14 + 2 * m)) & 3)


def suit_tables():
    """The 9-rank suit tables ``(EW, D, SUM)`` (D of shape (1953125, 16)) as numpy arrays:
    a copy of EW in use, D unpacked from the packed table in use (equal to the builder's D,
    a test holds it), SUM the digit sums; for the exact odds and the Python reference engine.
    About 30 ms (:func:`fresh_suit_tables` builds them afresh instead)."""
    build_tables()
    ew = np.empty(NSUIT, dtype=np.uint16)
    d = np.empty((NSUIT, 16), dtype=np.uint8)
    sm = np.empty(NSUIT, dtype=np.uint8)
    cdef uint16_t[::1] ewv = ew
    cdef uint8_t[:, ::1] dv = d
    cdef uint8_t[::1] smv = sm
    cdef int c, j, r, x, t
    cdef int prof[16]
    with nogil:
        for c in range(NSUIT):
            ewv[c] = S_EW[c]
            suit_profile16(0, c, 0, prof)
            for j in range(16):
                dv[c, j] = <uint8_t>prof[j]
            x = c
            t = 0
            for r in range(9):
                t += x % 5
                x = x // 5
            smv[c] = <uint8_t>t
    return ew, d, sm


def honour_tables(int honour_sequence):
    """The honour tables ``(EW, D, SUM)`` (125 codes)."""
    build_tables()
    cdef int hs = 1 if honour_sequence else 0
    ew = np.array([H_EW[hs][c] for c in range(NHON)], dtype=np.uint16)
    d = np.array([[H_D[hs][16 * c + j] for j in range(16)] for c in range(NHON)], dtype=np.uint8)
    sm = np.array([H_SUM[c] for c in range(NHON)], dtype=np.uint8)
    return ew, d, sm


# ------------------------------------------------------------------------------ per hand

cdef inline void _codes(const uint8_t* h, int* code, int* size) noexcept nogil:
    cdef int s, r, c, n
    for s in range(3):
        c = 0
        n = 0
        for r in range(8, -1, -1):
            c = c * 5 + h[9 * s + r]
            n += h[9 * s + r]
        code[s] = c
        size[s] = n
    code[3] = h[27] + 5 * h[28] + 25 * h[29]
    size[3] = h[27] + h[28] + h[29]


cdef inline uint16_t _ew(int s, int code, int hs) noexcept nogil:
    if s < 3:
        return S_EW[code]
    return H_EW[hs][code]


cdef int complete_hand(const uint8_t* h, int hs) noexcept nogil:
    """1 if the concealed hand (3k+2 cards) is exactly 1 pair + k melds."""
    cdef int code[4]
    cdef int size[4]
    cdef int s, pairs = 0
    _codes(h, code, size)
    for s in range(4):
        if not (_ew(s, code[s], hs) >> 15):
            return 0
        if size[s] % 3 == 2:
            pairs += 1
    return 1 if pairs == 1 else 0


cdef uint32_t wait_mask(const uint8_t* h, int hs) noexcept nogil:
    """Bit w set if the 3k+1-card hand + one card of kind w is complete (h[w] < 4)."""
    cdef int code[4]
    cdef int size[4]
    cdef uint16_t ew[4]
    cdef int s, t, nonexact = 0, r2, res, ok
    cdef uint32_t out = 0
    _codes(h, code, size)
    for s in range(4):
        ew[s] = _ew(s, code[s], hs)
        if not (ew[s] >> 15):
            nonexact += 1
    if nonexact > 1:
        return 0
    for s in range(4):
        if (ew[s] & 0x1FF) == 0:
            continue
        ok = 1
        r2 = 0
        for t in range(4):
            if t == s:
                continue
            if not (ew[t] >> 15):
                ok = 0
                break
            if size[t] % 3 == 2:
                r2 += 1
        if not ok:
            continue
        res = (size[s] + 1) % 3
        if (res == 2 and r2 == 0) or (res == 0 and r2 == 1):
            out |= (<uint32_t>(ew[s] & 0x1FF)) << (9 * s)
    return out


cdef inline int _conv(const uint8_t* a, const uint8_t* b, int* out, int kmax) noexcept nogil:
    """out[2m+p] = min over splits of a + b (int profile, INF-safe), m <= kmax."""
    cdef int m, p, m1, p1, v, best
    for m in range(kmax + 1):
        for p in range(2):
            best = 1000
            for m1 in range(m + 1):
                for p1 in range(p + 1):
                    v = a[2 * m1 + p1] + b[2 * (m - m1) + (p - p1)]
                    if v < best:
                        best = v
            out[2 * m + p] = best
    return 0


cdef int distance_hand(const uint8_t* h, int hs) noexcept nogil:
    """Shanten-style distance from ready of a 3k+1 / 3k+2-card hand (-1 = complete)."""
    cdef int code[4]
    cdef int size[4]
    cdef int n, k, m, m1, p1, p, v, best
    cdef int a[16]
    cdef int b[16]
    cdef int d0[16]
    cdef int d1[16]
    cdef int d2[16]
    cdef const uint8_t* d3
    _codes(h, code, size)
    n = size[0] + size[1] + size[2] + size[3]
    k = (n - 1) // 3 if n % 3 == 1 else (n - 2) // 3
    if k > MAXM or n % 3 == 0:
        return -100
    suit_profile16(0, code[0], hs, d0)
    suit_profile16(1, code[1], hs, d1)
    suit_profile16(2, code[2], hs, d2)
    d3 = H_D[hs] + 16 * code[3]
    # a = d0 (+) d1
    for m in range(k + 1):
        for p in range(2):
            best = 1000
            for m1 in range(m + 1):
                for p1 in range(p + 1):
                    v = d0[2 * m1 + p1] + d1[2 * (m - m1) + (p - p1)]
                    if v < best:
                        best = v
            a[2 * m + p] = best
    # b = a (+) d2
    for m in range(k + 1):
        for p in range(2):
            best = 1000
            for m1 in range(m + 1):
                for p1 in range(p + 1):
                    v = a[2 * m1 + p1] + d2[2 * (m - m1) + (p - p1)]
                    if v < best:
                        best = v
            b[2 * m + p] = best
    best = 1000
    for m1 in range(k + 1):
        for p1 in range(2):
            v = b[2 * m1 + p1] + d3[2 * (k - m1) + (1 - p1)]
            if v < best:
                best = v
    return best - 1


def complete_batch(const uint8_t[:, ::1] hands, int honour_sequence, uint8_t[::1] out):
    """out[i] = 1 if hand i (counts, 30 columns, 3k+2 cards) is complete."""
    cdef Py_ssize_t i, n = hands.shape[0]
    cdef int hs = 1 if honour_sequence else 0
    build_tables()
    with nogil:
        for i in range(n):
            out[i] = complete_hand(&hands[i, 0], hs)


def waits_batch(const uint8_t[:, ::1] hands, int honour_sequence, uint32_t[::1] out):
    """out[i] = wait mask (bit = kind) of hand i (3k+1 cards)."""
    cdef Py_ssize_t i, n = hands.shape[0]
    cdef int hs = 1 if honour_sequence else 0
    build_tables()
    with nogil:
        for i in range(n):
            out[i] = wait_mask(&hands[i, 0], hs)


def analyze_batch(const uint8_t[:, ::1] hands, int honour_sequence, uint8_t[::1] complete, uint32_t[::1] waits):
    """Both at once: a 3k+2-card hand gets ``complete``, a 3k+1-card hand ``waits``
    (the other output is 0)."""
    cdef Py_ssize_t i, n = hands.shape[0]
    cdef int hs = 1 if honour_sequence else 0
    cdef int r, tot
    build_tables()
    with nogil:
        for i in range(n):
            tot = 0
            for r in range(30):
                tot += hands[i, r]
            if tot % 3 == 2:
                complete[i] = complete_hand(&hands[i, 0], hs)
                waits[i] = 0
            else:
                complete[i] = 0
                waits[i] = wait_mask(&hands[i, 0], hs) if tot % 3 == 1 else 0


def distance_batch(const uint8_t[:, ::1] hands, int honour_sequence, int8_t[::1] out):
    """out[i] = distance from ready of hand i (-1 complete, 0 ready, ...)."""
    cdef Py_ssize_t i, n = hands.shape[0]
    cdef int hs = 1 if honour_sequence else 0
    build_tables()
    with nogil:
        for i in range(n):
            out[i] = <int8_t>distance_hand(&hands[i, 0], hs)


def live_outs_batch(const uint8_t[:, ::1] hands, const uint8_t[:, ::1] seen, const uint8_t[::1] caps,
                    int honour_sequence, uint32_t[::1] waits, int32_t[::1] outs):
    """Waits of each 3k+1-card hand and its live outs: sum over waits w of
    ``max(caps[w] - hand[w] - seen[w], 0)`` (``seen`` has one row per hand, or one row)."""
    cdef Py_ssize_t i, n = hands.shape[0]
    cdef int hs = 1 if honour_sequence else 0
    cdef int w, v, tot, srow
    cdef uint32_t mk
    build_tables()
    with nogil:
        for i in range(n):
            mk = wait_mask(&hands[i, 0], hs)
            srow = i if seen.shape[0] > 1 else 0
            tot = 0
            for w in range(30):
                if (mk >> w) & 1:
                    if hands[i, w] >= caps[w]:
                        mk &= ~(<uint32_t>1 << w)
                        continue
                    v = caps[w] - hands[i, w] - seen[srow, w]
                    if v > 0:
                        tot += v
            waits[i] = mk
            outs[i] = tot


# ------------------------------------------------------------------------------ scoring

# option codes (see kaptai.nantong.evaluate.score_options)
# opts[0] honour_sequence, [1] discard_triplet exposed (1) / concealed (0), [2] decomposition
# max (1) / min (0), [3] wenqian cumulative (1), [4] potou always_up (1), [5] double_before_round,
# [6] tiancheng_double, [7] yazhuang_double

cdef int WQ_TABLE[2][5]
WQ_TABLE[0][:] = [0, 20, 50, 100, 200]
WQ_TABLE[1][:] = [0, 20, 70, 170, 370]

ctypedef struct ScoreCtx:
    int win_card
    int win_kind        # 0 self, 1 discard, 2 tiancheng
    int meld_dihu
    int meld_trips
    int yazhuang
    const int8_t* lev
    const int32_t* opts
    # best found
    int best_total
    int best_raw
    int best_ch
    int best_dihu
    int best_other
    int best_type      # 0 tahe 1 hunhe 2 qinghe
    int best_pair
    int best_ng
    int best_gt[8]
    int best_gk[8]
    int found
    # current
    int pair
    int ng
    int gt[8]
    int gk[8]


cdef inline int _potou(int v, int always_up) noexcept nogil:
    if v <= 0:
        return v
    if always_up:
        return (v // 10 + 1) * 10
    return ((v + 9) // 10) * 10


cdef void _leaf(ScoreCtx* x) noexcept nogil:
    cdef int nseq = 0, ntrip = 0, nwq = 0, j, jj, role, dup, wt, mult, ch, dihu, bonus, wq, raw, total, base
    cdef int tripcol, w = x.win_card, better
    for j in range(x.ng):
        if x.gt[j] == 0:
            nseq += 1
            if x.gk[j] == 18:
                nwq += 1
        else:
            ntrip += 1
    ntrip += x.meld_trips
    if nseq == 7:
        wt = 1
        ch = 50
    elif ntrip == 7:
        wt = 2
        ch = 100
    else:
        wt = 0
        ch = 20
    if nwq > 4:
        nwq = 4
    wq = WQ_TABLE[x.opts[3]][nwq]
    # roles: -2 = none (tiancheng), -1 = pair, j = group j
    for role in range(-2, x.ng):
        if role == -2 and x.win_kind != 2:
            continue
        if role != -2 and x.win_kind == 2:
            continue
        if role == -1 and x.pair != w:
            continue
        if role >= 0:
            if x.gt[role] == 1 and x.gk[role] != w:
                continue
            if x.gt[role] == 0 and not (x.gk[role] <= w <= x.gk[role] + 2):
                continue
            dup = 0
            for jj in range(role):
                if x.gt[jj] == x.gt[role] and x.gk[jj] == x.gk[role]:
                    dup = 1
            if dup:
                continue
        dihu = x.meld_dihu
        for j in range(x.ng):
            if x.gt[j] == 1:
                if j == role and x.win_kind == 1 and x.opts[1]:
                    dihu += 2 << x.lev[x.gk[j]]
                else:
                    dihu += 4 << x.lev[x.gk[j]]
        bonus = 0
        if role == -1 or (role >= 0 and x.gt[role] == 0):
            bonus = 20 if x.win_kind == 0 else 10
        mult = 2 if wt == 1 else 1
        if x.opts[6] and x.win_kind == 2:
            mult *= 2
        if x.opts[7] and x.yazhuang:
            mult *= 2
        base = ch + dihu + bonus + wq
        raw = base * mult
        if x.opts[5]:
            total = _potou(raw, x.opts[4])
        else:
            total = _potou(base, x.opts[4]) * mult
        if not x.found:
            better = 1
        elif x.opts[2]:
            better = total > x.best_total or (total == x.best_total and raw > x.best_raw)
        else:
            better = total < x.best_total or (total == x.best_total and raw < x.best_raw)
        if better:
            x.found = 1
            x.best_total = total
            x.best_raw = raw
            x.best_ch = ch
            x.best_dihu = dihu
            x.best_other = bonus + wq
            x.best_type = wt
            x.best_pair = x.pair
            x.best_ng = x.ng
            for j in range(x.ng):
                x.best_gt[j] = x.gt[j]
                x.best_gk[j] = x.gk[j]


cdef void _dfs(int* c, int k, int need_pair, ScoreCtx* x) noexcept nogil:
    while k < 30 and c[k] == 0:
        k += 1
    if k == 30:
        if not need_pair:
            _leaf(x)
        return
    if x.ng >= 8:
        return
    if need_pair and c[k] >= 2:
        c[k] -= 2
        x.pair = k
        _dfs(c, k, 0, x)
        x.pair = -1
        c[k] += 2
    if c[k] >= 3:
        c[k] -= 3
        x.gt[x.ng] = 1
        x.gk[x.ng] = k
        x.ng += 1
        _dfs(c, k, need_pair, x)
        x.ng -= 1
        c[k] += 3
    if ((k < 27 and k % 9 <= 6) or (k == 27 and x.opts[0])) and c[k + 1] > 0 and c[k + 2] > 0:
        c[k] -= 1
        c[k + 1] -= 1
        c[k + 2] -= 1
        x.gt[x.ng] = 0
        x.gk[x.ng] = k
        x.ng += 1
        _dfs(c, k, need_pair, x)
        x.ng -= 1
        c[k] += 1
        c[k + 1] += 1
        c[k + 2] += 1


cdef int best_score_c(const uint8_t* h, const int8_t* lev, int win_card, int win_kind, int meld_dihu,
                      int meld_trips, int yazhuang, const int32_t* opts, int32_t* result,
                      int32_t* groups) noexcept nogil:
    """Best score of a complete concealed hand; returns 0 if not complete.

    result = (total, raw, chenghu, dihu, other, win_type); groups (17 ints) = pair kind,
    number of groups, then (type, kind) pairs; may be NULL."""
    cdef ScoreCtx x
    cdef int c[30]
    cdef int j
    if not complete_hand(h, opts[0]):
        return 0
    for j in range(30):
        c[j] = h[j]
    x.win_card = win_card
    x.win_kind = win_kind
    x.meld_dihu = meld_dihu
    x.meld_trips = meld_trips
    x.yazhuang = yazhuang
    x.lev = lev
    x.opts = opts
    x.found = 0
    x.pair = -1
    x.ng = 0
    _dfs(c, 0, 1, &x)
    if not x.found:
        return 0
    result[0] = x.best_total
    result[1] = x.best_raw
    result[2] = x.best_ch
    result[3] = x.best_dihu
    result[4] = x.best_other
    result[5] = x.best_type
    if groups != NULL:
        groups[0] = x.best_pair
        groups[1] = x.best_ng
        for j in range(x.best_ng):
            groups[2 + 2 * j] = x.best_gt[j]
            groups[3 + 2 * j] = x.best_gk[j]
    return 1


def best_scores(const uint8_t[:, ::1] hands, const int8_t[:, ::1] levels, const int32_t[::1] win_card,
                const int32_t[::1] win_kind, const int32_t[::1] meld_dihu, const int32_t[::1] meld_trips,
                const int32_t[::1] yazhuang, const int32_t[::1] opts, int32_t[:, ::1] result,
                int32_t[:, ::1] groups):
    """Best score of each complete hand (row of ``result``: total, raw, chenghu, dihu,
    other, win_type; all -1 if the hand is not complete)."""
    cdef Py_ssize_t i, n = hands.shape[0]
    cdef int ok, j
    build_tables()
    with nogil:
        for i in range(n):
            ok = best_score_c(&hands[i, 0], &levels[i, 0], win_card[i], win_kind[i], meld_dihu[i],
                              meld_trips[i], yazhuang[i], &opts[0], &result[i, 0], &groups[i, 0])
            if not ok:
                for j in range(6):
                    result[i, j] = -1
