# cython: language_level=3
"""Compiled pass over the pairs i < j of a kernel matrix for the eta scan (private)."""

from cython.parallel cimport prange
from libc.math cimport INFINITY

import numpy as np


def eta_pairs(const double[:, ::1] K, const double[::1] y, bint have_y, double atol,
              int n_threads=1):
    """Count pairs with eta_ij = K_ii + K_jj - 2 K_ij < -atol, opposite-label pairs with
    eta_ij <= atol, and find the smallest eta (the first pair in row-major order that has
    it). Reads K once; allocates nothing of size n^2. Rows are shared among ``n_threads``
    OpenMP threads, each row's figures kept apart and merged in row order, so the result
    does not depend on the number of threads."""
    cdef Py_ssize_t n = K.shape[0], i, j, r, wi = -1, wj = -1, bj
    cdef long long n_neg = 0, n_cross = 0, n_cross_pairs = 0, c_neg, c_cross, c_pairs
    cdef double eta, kii, worst = INFINITY, best
    cdef int nt = n_threads if n_threads > 1 else 1
    rows_neg = np.zeros(max(n, 1), dtype=np.int64)
    rows_cross = np.zeros(max(n, 1), dtype=np.int64)
    rows_pairs = np.zeros(max(n, 1), dtype=np.int64)
    rows_worst = np.full(max(n, 1), INFINITY)
    rows_arg = np.full(max(n, 1), -1, dtype=np.intp)
    cdef long long[::1] rn = rows_neg, rc = rows_cross, rp = rows_pairs
    cdef double[::1] rw = rows_worst
    cdef Py_ssize_t[::1] ra = rows_arg
    with nogil:
        for i in prange(n, num_threads=nt, schedule="dynamic", chunksize=16):
            kii = K[i, i]
            c_neg = 0
            c_cross = 0
            c_pairs = 0
            best = INFINITY
            bj = -1
            for j in range(i + 1, n):
                eta = kii + K[j, j] - 2.0 * K[i, j]
                if eta < -atol:
                    c_neg = c_neg + 1
                if eta < best:
                    best = eta
                    bj = j
                if have_y and y[i] != y[j]:
                    c_pairs = c_pairs + 1
                    if eta <= atol:
                        c_cross = c_cross + 1
            rn[i] = c_neg
            rc[i] = c_cross
            rp[i] = c_pairs
            rw[i] = best
            ra[i] = bj
    for r in range(n):
        n_neg += rn[r]
        n_cross += rc[r]
        n_cross_pairs += rp[r]
        if rw[r] < worst:
            worst = rw[r]
            wi = r
            wj = ra[r]
    return n_neg, n_cross, n_cross_pairs, worst, wi, wj
