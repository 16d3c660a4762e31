# cython: language_level=3
"""Dynamic time warping between many pairs of series, on OpenMP threads (private).

All series of one side are packed into one C-contiguous ``(total_points, n_channels)`` array
with ``offsets`` (series ``s`` is rows ``offsets[s]:offsets[s + 1]``), so a point's channels
are contiguous and any lengths can be mixed. The dynamic programme keeps two rows of the
cumulative cost matrix per thread and visits only the cells of the Sakoe-Chiba band.
"""

from libc.math cimport INFINITY, sqrt

include "_pairs.pxi"

cdef extern from "_dtw_lanes.h" nogil:
    int ix_dtw_lanes_ok()
    int ix_dtw_lanes(int nv, const double* x, Py_ssize_t lx, const double* B,
                     const Py_ssize_t* offs, Py_ssize_t ly, Py_ssize_t d, Py_ssize_t r,
                     double* prev, double* cur, double* yrow, int watch,
                     int (*interrupted)() noexcept nogil, int* stop, double* out)

#: pairs computed eight or four at a time (one series against eight or four of one length,
#: _dtw_lanes.h) where they can be (AVX2); False: every pair alone (the tests compare the
#: two). Measured on 2 000 CBF series of length 128 against 300, band radius 12, one thread
#: of an AMD EPYC: one pair at a time 4.4-5.5e8 DP cells a second, four 1.2e9, eight 2.0e9
#: (benchmarks/RESULTS.md)
LANES = True


cdef double _dtw_pair(const double* a, Py_ssize_t la, const double* b, Py_ssize_t lb,
                      Py_ssize_t d, Py_ssize_t r, double* prev, double* cur,
                      bint watch, int* stop) noexcept nogil:
    """sqrt of the smallest sum of squared point differences along a warping path.

    ``a`` is the longer series (la >= lb). Row j of the cumulative cost matrix runs over the
    points i of ``a`` with j - r <= i <= j + (la - lb) + r: the band of radius r widened by
    the length difference, so that a path exists for every r >= 0 (as tslearn's
    Sakoe-Chiba mask does). Buffers hold la + 1 cells; cell i of a row is at index i + 1,
    index 0 is the boundary column. ``watch`` (the main thread only: Python's signal handlers
    run there) looks at Ctrl-C every ~1.6e7 cells and sets ``stop``; every thread gives up
    its pair when ``stop`` is set (the result is then thrown away)."""
    cdef Py_ssize_t i, j, c, lo, hi, hi_next, extra = la - lb
    cdef Py_ssize_t cells = 0
    cdef double best, cost, diff, left
    cdef double* tmp
    cdef const double* pa
    cdef const double* pb
    # the virtual row -1: only D(-1, -1) = 0 is reachable
    for i in range(la + 1):
        prev[i] = INFINITY
        cur[i] = INFINITY
    prev[0] = 0.0
    for j in range(lb):
        if cells > 16777216:
            cells = 0
            if stop[0] or (watch and _interrupted()):
                stop[0] = 1
                return INFINITY
        lo = j - r
        if lo < 0:
            lo = 0
        hi = j + extra + r
        if hi > la - 1:
            hi = la - 1
        pb = b + j * d
        cells += (hi - lo + 1) * d
        # the cell left of the band is unreachable in this row
        cur[lo] = INFINITY
        left = INFINITY
        for i in range(lo, hi + 1):
            pa = a + i * d
            if d == 1:
                diff = pa[0] - pb[0]
                cost = diff * diff
            else:
                cost = 0.0
                for c in range(d):
                    diff = pa[c] - pb[c]
                    cost = cost + diff * diff
            best = prev[i]          # D(j - 1, i - 1)
            if prev[i + 1] < best:  # D(j - 1, i)
                best = prev[i + 1]
            if left < best:         # D(j, i - 1)
                best = left
            left = cost + best
            cur[i + 1] = left
        # the band's right end moves by at most one cell a row: the next row may read the
        # cell right of this row's band, which must not hold a value of an older row
        hi_next = hi + 2
        if hi_next <= la:
            cur[hi_next] = INFINITY
        # boundary column: D(j, -1) is unreachable for j >= 0
        cur[0] = INFINITY
        tmp = prev
        prev = cur
        cur = tmp
    return sqrt(prev[la])


def dtw_pairs(const double[:, ::1] A, const Py_ssize_t[::1] offA, const double[:, ::1] B,
              const Py_ssize_t[::1] offB, bint same, double window, double[:, ::1] out,
              int n_threads=1, progress=None):
    """Fill ``out[s, t]`` with DTW(series s of A, series t of B).

    With ``same`` (B is A) only the pairs s < t are computed and mirrored, and the diagonal is
    0. Pairs are dealt to ``n_threads`` threads (dynamic schedule: lengths may differ) in
    rounds of about 2 * 10^8 cells per thread; between rounds Ctrl-C is checked and
    ``progress(done, total)`` is called when given. Each pair's value does not depend on the
    thread that computed it, nor on whether it ran alone or in a group of lanes (``LANES``:
    one series of A against eight or four of B of one length; B's series are visited by
    length for that)."""
    cdef Py_ssize_t nA = offA.shape[0] - 1, nB = offB.shape[0] - 1, d = A.shape[1]
    cdef Py_ssize_t p, p0, p1, s, t, la, lb, r, n_pairs, maxlen = 1, k, tid
    cdef int nt = n_threads if n_threads > 1 else 1
    cdef double* bufp
    cdef const double* pa
    cdef const double* pb
    for k in range(nA):
        maxlen = max(maxlen, offA[k + 1] - offA[k])
    for k in range(nB):
        maxlen = max(maxlen, offB[k + 1] - offB[k])
    # pair p is found from its number (no n^2 index arrays: they took 2 - 5 times the
    # output's memory): row-major over (s, t), t > s when ``same``
    starts = np.zeros(nA + 1, dtype=np.intp)
    if same:
        starts[1:] = np.cumsum(np.arange(nA - 1, -1, -1, dtype=np.intp))
    else:
        starts[1:] = np.cumsum(np.full(nA, nB, dtype=np.intp))
    cdef Py_ssize_t[::1] sv = starts
    n_pairs = starts[nA]
    if n_pairs == 0:
        return
    cdef int stop = 0
    # rounds of about 2e8 cells per thread (~0.3 s), so Ctrl-C is seen soon at any length
    lenA = np.diff(np.asarray(offA))
    lenB = np.diff(np.asarray(offB))
    mean_cells = float(np.mean(lenA)) * float(np.mean(lenB))
    if window >= 0:
        mean_cells = min(mean_cells, float(np.mean(lenA)) * (2 * window * maxlen + 1
                                                             + abs(float(np.mean(lenA))
                                                                   - float(np.mean(lenB)))))
    # rounds and the threads' work in groups of eight pairs: eight, four or one at a time
    cdef Py_ssize_t round_size = 8 * max(nt, <Py_ssize_t>(nt * 2e8 / max(mean_cells, 1.0)
                                                          / 8))
    # a thread's buffers: two rows of the cumulative costs for eight pairs, the eight series'
    # points of a row, the eight results (one pair alone uses the first two rows' room)
    cdef Py_ssize_t g, q, e, nv, w8 = 8 * (maxlen + 1)
    cdef Py_ssize_t stride = 2 * w8 + 8 * d + 8
    cdef bint lanes = LANES and ix_dtw_lanes_ok()
    buf = np.empty((nt, stride), dtype=np.float64)
    cdef double[:, ::1] bv = buf
    # the series of B visited by length (stable: in their order within a length), so that
    # series of one length stand together and share lanes (random objects, unequal-length
    # sets); with ``same`` A's rows in that order too. Pair (s, t) of the visit is
    # out[rowA[s], colB[t]]: DTW(x, y) and DTW(y, x) have the same bits (a cell's value does
    # not depend on the direction of the sweep), so the order changes no value
    colB_a = np.argsort(lenB, kind="stable").astype(np.intp) if lanes else np.arange(nB)
    rowA_a = colB_a if same else np.arange(nA, dtype=np.intp)
    stB_a = np.ascontiguousarray(np.asarray(offB)[:-1][colB_a], dtype=np.intp)
    lnB_a = np.ascontiguousarray(lenB[colB_a], dtype=np.intp)
    stA_a = np.ascontiguousarray(np.asarray(offA)[:-1][rowA_a], dtype=np.intp)
    lnA_a = np.ascontiguousarray(lenA[rowA_a], dtype=np.intp)
    cdef Py_ssize_t[::1] colB = colB_a.astype(np.intp), rowA = rowA_a.astype(np.intp)
    cdef Py_ssize_t[::1] stB = stB_a, lnB = lnB_a, stA = stA_a, lnA = lnA_a
    p0 = 0
    while p0 < n_pairs:
        p1 = min(n_pairs, p0 + round_size)
        with nogil:
            for g in prange(p0 // 8, (p1 + 7) // 8, num_threads=nt, schedule="dynamic",
                            chunksize=1):
                tid = threadid()
                bufp = &bv[tid, 0]
                p = 8 * g
                e = min(p + 8, p1)
                while p < e:
                    s = _row_of(&sv[0], nA, p)
                    t = p - sv[s] + (s + 1 if same else 0)
                    la = lnA[s]
                    lb = lnB[t]
                    # the pairs from p on in row s whose series of B have lb points
                    nv = 0
                    if lanes and la > 0 and lb > 0:
                        q = 1
                        while q < 8 and p + q < e and p + q < sv[s + 1] and lnB[t + q] == lb:
                            q = q + 1
                        nv = 2 if q == 8 else (1 if q >= 4 else 0)
                    if nv > 0:
                        # one series of A against 4 nv of B of one length: one band
                        if ix_dtw_lanes(nv, &A[stA[s], 0], la, &B[0, 0], &stB[t], lb, d,
                                        _radius(window, la, lb), bufp, bufp + w8,
                                        bufp + 2 * w8, tid == 0, _interrupted, &stop,
                                        bufp + 2 * w8 + 8 * d) == 0:
                            for q in range(4 * nv):
                                out[rowA[s], colB[t + q]] = bufp[2 * w8 + 8 * d + q]
                        p = p + 4 * nv
                    else:
                        pa = &A[stA[s], 0]
                        pb = &B[stB[t], 0]
                        r = _radius(window, la, lb)
                        if la >= lb:
                            out[rowA[s], colB[t]] = _dtw_pair(pa, la, pb, lb, d, r, bufp,
                                                              bufp + maxlen + 1, tid == 0,
                                                              &stop)
                        else:
                            out[rowA[s], colB[t]] = _dtw_pair(pb, lb, pa, la, d, r, bufp,
                                                              bufp + maxlen + 1, tid == 0,
                                                              &stop)
                        p = p + 1
        if stop:
            raise KeyboardInterrupt
        if same:
            for p in range(p0, p1):
                s = _row_of(&sv[0], nA, p)
                t = p - sv[s] + s + 1
                out[colB[t], rowA[s]] = out[rowA[s], colB[t]]
        PyErr_CheckSignals()
        if progress is not None:
            progress(p1, n_pairs)
        p0 = p1
    if same:
        for k in range(nA):
            out[k, k] = 0.0
