# The pair loop the compiled elastic measures share (included by _dtw.pyx, _gak.pyx and
# _msm.pyx, so that each stays one extension module without a cross-module C interface):
# the Ctrl-C probe, the band radius, pair numbers to rows, and the driver that deals the
# pairs of two packed sets of series to OpenMP threads in rounds.

from cython.parallel cimport prange, threadid
from libc.math cimport floor
from cpython.exc cimport PyErr_CheckSignals

import numpy as np


#: one pair's measure: ``f(a, la, b, lb, d, prm, buf, watch, stop)``, ``buf`` two rows of
#: ``maxlen + 1`` cells, ``prm`` the measure's parameters; it looks at Ctrl-C (when
#: ``watch``) every ~1.6e7 cells and gives up (any value) when ``stop`` is set
ctypedef double (*pair_measure)(const double* a, Py_ssize_t la, const double* b,
                                Py_ssize_t lb, Py_ssize_t d, const double* prm, double* buf,
                                bint watch, int* stop) noexcept nogil


#: a group of pairs' measure (lanes): ``g(nv, x, lx, B, offs, ly, d, prm, prev, cur, watch,
#: stop, out)``, series x against the 4 nv series of B at ``offs`` (one length ly) into
#: ``out``; 0 done, 1 stopped, -1 where the lanes do not run (the pairs then run alone)
ctypedef int (*group_measure)(int nv, const double* x, Py_ssize_t lx, const double* B,
                              const Py_ssize_t* offs, Py_ssize_t ly, Py_ssize_t d,
                              const double* prm, double* prev, double* cur, bint watch,
                              int* stop, double* out) noexcept nogil


cdef int _interrupted() noexcept with gil:
    """1 when Ctrl-C is pending (the exception is caught here and raised by the caller)."""
    try:
        PyErr_CheckSignals()
    except BaseException:  # KeyboardInterrupt, or whatever a signal handler raised
        return 1
    return 0


cdef inline Py_ssize_t _radius(double window, Py_ssize_t la, Py_ssize_t lb) noexcept nogil:
    """Band radius r = floor(window * max(la, lb)); window < 0 means no band."""
    cdef Py_ssize_t L = la if la > lb else lb
    if window < 0.0:
        return L
    # the 1e-9 keeps products such as 0.1 * 400 = 40 from rounding down to 39
    return <Py_ssize_t>floor(window * L + 1e-9)


cdef inline Py_ssize_t _row_of(const Py_ssize_t* starts, Py_ssize_t n,
                               Py_ssize_t p) noexcept nogil:
    """The row s with starts[s] <= p < starts[s + 1] (binary search; rows may be empty)."""
    cdef Py_ssize_t lo = 0, hi = n - 1, mid
    while lo < hi:
        mid = (lo + hi + 1) // 2
        if starts[mid] <= p:
            lo = mid
        else:
            hi = mid - 1
    return lo


cdef _run_pairs(pair_measure f, const double[:, ::1] A, const Py_ssize_t[::1] offA,
                const double[:, ::1] B, const Py_ssize_t[::1] offB, int mode,
                const double* prm, double[:, ::1] out, int n_threads, progress,
                double cells_per_round, group_measure group=NULL, int rows=2):
    """Fill ``out`` with ``f`` of series of A against series of B.

    ``mode`` 0: every pair, ``out[s, t]``; 1 (B is A): the pairs s <= t, mirrored; 2: each
    series of A against itself, ``out[s, 0]``. Pairs are dealt to ``n_threads`` threads
    (dynamic schedule: lengths may differ) in rounds of about ``cells_per_round`` cells per
    thread; between rounds Ctrl-C is checked and ``progress(done, total)`` is called when
    given. A pair's value does not depend on the thread that computed it. With ``group``
    (modes 0 and 1), B's series are visited by length (with mode 1 A's too) and each
    thread takes eight pairs at a time: a series of A against eight or four of B of one
    length run in ``group``'s lanes, the others alone; ``group`` must give ``f``'s values
    to the bit, so the order changes no value. ``rows``: the rows of ``maxlen + 1`` cells
    each thread's buffer holds for ``f`` (two: a programme's last row and its next)."""
    cdef Py_ssize_t nA = offA.shape[0] - 1, nB = offB.shape[0] - 1, d = A.shape[1]
    cdef Py_ssize_t p, p0, p1, s, t, la, lb, n_pairs, maxlen = 1, k, tid, g, q, e, nv
    cdef int nt = n_threads if n_threads > 1 else 1
    cdef bint grouped = group != NULL and mode != 2
    cdef double* bufp
    for k in range(nA):
        maxlen = max(maxlen, offA[k + 1] - offA[k])
    for k in range(nB):
        maxlen = max(maxlen, offB[k + 1] - offB[k])
    # pair p is found from its number (no n^2 index arrays): row-major over (s, t)
    starts = np.zeros(nA + 1, dtype=np.intp)
    if mode == 1:
        starts[1:] = np.cumsum(np.arange(nA, 0, -1, dtype=np.intp))  # t >= s
    elif mode == 2:
        starts[1:] = np.arange(1, nA + 1, dtype=np.intp)
    else:
        starts[1:] = np.cumsum(np.full(nA, nB, dtype=np.intp))
    cdef Py_ssize_t[::1] sv = starts
    n_pairs = starts[nA]
    if n_pairs == 0:
        return
    cdef int stop = 0
    lenA = np.diff(np.asarray(offA))
    lenB = np.diff(np.asarray(offB))
    mean_cells = float(np.mean(lenA)) * float(np.mean(lenB) if mode != 2 else np.mean(lenA))
    cdef Py_ssize_t round_size = max(nt, <Py_ssize_t>(nt * cells_per_round
                                                      / max(mean_cells, 1.0)))
    # a thread's buffers: two rows of one pair; grouped, two rows of eight lanes and the
    # eight results (one pair alone uses the first rows' room)
    cdef Py_ssize_t w8 = 8 * (maxlen + 1)
    buf = np.empty((nt, 2 * w8 + 8 if grouped else rows * (maxlen + 1)), dtype=np.float64)
    cdef double[:, ::1] bv = buf
    # grouped: the visit's order (series of one length stand together and share lanes);
    # pair (s, t) of the visit is out[rowA[s], colB[t]]
    colB_a = (np.argsort(lenB, kind="stable") if grouped else np.arange(nB)).astype(np.intp)
    rowA_a = colB_a if mode == 1 else np.arange(nA, dtype=np.intp)
    cdef Py_ssize_t[::1] colB = colB_a, rowA = rowA_a
    cdef Py_ssize_t[::1] stB = np.ascontiguousarray(np.asarray(offB)[:-1][colB_a],
                                                    dtype=np.intp)
    cdef Py_ssize_t[::1] lnB = np.ascontiguousarray(lenB[colB_a], dtype=np.intp)
    cdef Py_ssize_t[::1] stA = np.ascontiguousarray(np.asarray(offA)[:-1][rowA_a],
                                                    dtype=np.intp)
    cdef Py_ssize_t[::1] lnA = np.ascontiguousarray(lenA[rowA_a], dtype=np.intp)
    if grouped:
        round_size = 8 * max(nt, round_size // 8)
    p0 = 0
    while p0 < n_pairs:
        p1 = min(n_pairs, p0 + round_size)
        if grouped:
            with nogil:
                for g in prange(p0 // 8, (p1 + 7) // 8, num_threads=nt, schedule="dynamic",
                                chunksize=1):
                    tid = threadid()
                    bufp = &bv[tid, 0]
                    p = 8 * g
                    e = min(p + 8, p1)
                    while p < e:
                        s = _row_of(&sv[0], nA, p)
                        t = p - sv[s] + (s if mode == 1 else 0)
                        la = lnA[s]
                        lb = lnB[t]
                        # the pairs from p on in row s whose series of B have lb points
                        nv = 0
                        if la > 0 and lb > 0:
                            q = 1
                            while (q < 8 and p + q < e and p + q < sv[s + 1]
                                   and lnB[t + q] == lb):
                                q = q + 1
                            nv = 2 if q == 8 else (1 if q >= 4 else 0)
                        if nv > 0 and group(nv, &A[stA[s], 0], la, &B[0, 0], &stB[t], lb, d,
                                            prm, bufp, bufp + w8, tid == 0, &stop,
                                            bufp + 2 * w8) >= 0:
                            for q in range(4 * nv):
                                out[rowA[s], colB[t + q]] = bufp[2 * w8 + q]
                            p = p + 4 * nv
                        else:
                            out[rowA[s], colB[t]] = f(&A[stA[s], 0], la, &B[stB[t], 0], lb,
                                                      d, prm, bufp, tid == 0, &stop)
                            p = p + 1
        else:
            with nogil:
                for p in prange(p0, p1, num_threads=nt, schedule="dynamic", chunksize=1):
                    tid = threadid()
                    bufp = &bv[tid, 0]
                    s = _row_of(&sv[0], nA, p)
                    la = offA[s + 1] - offA[s]
                    if mode == 0:
                        t = p - sv[s]
                        out[s, t] = f(&A[offA[s], 0], la, &B[offB[t], 0],
                                      offB[t + 1] - offB[t], d, prm, bufp, tid == 0, &stop)
                    else:
                        t = s if mode == 2 else p - sv[s] + s
                        out[s, t if mode == 1 else 0] = f(
                            &A[offA[s], 0], la, &A[offA[t], 0], offA[t + 1] - offA[t], d,
                            prm, bufp, tid == 0, &stop)
        if stop:
            raise KeyboardInterrupt
        if mode == 1:
            for p in range(p0, p1):
                s = _row_of(&sv[0], nA, p)
                t = p - sv[s] + s
                out[colB[t], rowA[s]] = out[rowA[s], colB[t]]
        PyErr_CheckSignals()
        if progress is not None:
            progress(p1, n_pairs)
        p0 = p1
