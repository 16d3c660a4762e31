# cython: language_level=3
"""Compiled pass over the pairs i < j of a kernel matrix for the eta scan (private)."""

from libc.math cimport INFINITY


def eta_pairs(const double[:, ::1] K, const double[::1] y, bint have_y, double atol):
    """Count pairs with eta_ij = K_ii + K_jj - 2 K_ij < -atol, opposite-label pairs with
    eta_ij <= atol, and find the smallest eta. Reads K once; allocates nothing of size n^2."""
    cdef Py_ssize_t n = K.shape[0], i, j, wi = -1, wj = -1
    cdef long long n_neg = 0, n_cross = 0, n_cross_pairs = 0
    cdef double eta, kii, worst = INFINITY
    with nogil:
        for i in range(n):
            kii = K[i, i]
            for j in range(i + 1, n):
                eta = kii + K[j, j] - 2.0 * K[i, j]
                if eta < -atol:
                    n_neg += 1
                if eta < worst:
                    worst = eta
                    wi = i
                    wj = j
                if have_y and y[i] != y[j]:
                    n_cross_pairs += 1
                    if eta <= atol:
                        n_cross += 1
    return n_neg, n_cross, n_cross_pairs, worst, wi, wj
