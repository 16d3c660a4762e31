# cython: boundscheck=False, wraparound=False, cdivision=True, language_level=3
# A probe, not the package's: KDTW (Marteau & Gibet 2015, "On recursive edit distance kernels
# with application to time series classification", IEEE TNNLS 26(6)) -- K = K1 + K2, K1 the
# sum over alignments of the products of the local kernel kappa(a, b) = (exp(-|a-b|^2 /
# sigma) + eps) / 3, K2 its companion along the diagonal -- carried row by row as scaled
# values and a logarithm (finite at any length), to measure whether it beats the global
# alignment kernel on the evidence tasks (issue 87). Built with `cythonize -i`; see
# bench_kdtw.py.
import numpy as np
from libc.math cimport exp, log, sqrt

cdef double _logk(double[:, ::1] A, double[:, ::1] B, double sigma, double eps, int r,
                  double* k1p, double* k2p, double* k1c, double* k2c) noexcept nogil:
    cdef int n = A.shape[0], m = B.shape[0], d = A.shape[1]
    cdef int i, j, c, lo, hi
    cdef double s, t, top, logscale = 0.0, kij, dii, djj
    cdef double third = 1.0 / 3.0
    # row 0 (the empty prefix of A): K1[0,0] = K2[0,0] = 1, the rest 0
    for j in range(m + 1):
        k1p[j] = 0.0
        k2p[j] = 0.0
    k1p[0] = 1.0
    k2p[0] = 1.0
    for i in range(1, n + 1):
        for j in range(m + 1):
            k1c[j] = 0.0
            k2c[j] = 0.0
        lo = 1 if r < 0 else (i - r if i - r > 1 else 1)
        hi = m if r < 0 else (i + r if i + r < m else m)
        # kappa(x_i, y_i): the term of a step that stays on one side
        if i <= m:
            s = 0.0
            for c in range(d):
                t = A[i - 1, c] - B[i - 1, c]
                s += t * t
            dii = third * (exp(-s / sigma) + eps)
        else:
            dii = 0.0
        for j in range(lo, hi + 1):
            s = 0.0
            for c in range(d):
                t = A[i - 1, c] - B[j - 1, c]
                s += t * t
            kij = third * (exp(-s / sigma) + eps)
            k1c[j] = (k1p[j] + k1c[j - 1] + k1p[j - 1]) * kij
            if j <= n:
                s = 0.0
                for c in range(d):
                    t = A[j - 1, c] - B[j - 1, c]
                    s += t * t
                djj = third * (exp(-s / sigma) + eps)
            else:
                djj = 0.0
            k2c[j] = k2p[j] * dii + k2c[j - 1] * djj
            if i == j:
                k2c[j] += k2p[j - 1] * kij
        # the row scaled by its largest entry, the scale kept as a logarithm
        top = 0.0
        for j in range(m + 1):
            if k1c[j] > top:
                top = k1c[j]
            if k2c[j] > top:
                top = k2c[j]
        if top <= 0.0:
            return -1e300
        for j in range(m + 1):
            k1p[j] = k1c[j] / top
            k2p[j] = k2c[j] / top
        logscale += log(top)
    s = k1p[m] + k2p[m]
    if s <= 0.0:
        return -1e300
    return logscale + log(s)


def log_kdtw(list X, list Y, double sigma, double eps=1e-3, double window=-1.0,
             bint same=False, int threads=1):
    """log KDTW(x, y) of every pair; X, Y lists of (n, d) C-contiguous float arrays."""
    cdef int nx = len(X), ny = len(Y), a, b, L = 0, r
    out = np.full((nx, ny), np.nan)
    cdef double[:, ::1] o = out
    for a in range(nx):
        L = max(L, X[a].shape[0])
    for b in range(ny):
        L = max(L, Y[b].shape[0])
    cdef double[:, ::1] buf = np.zeros((nx, 4 * (L + 2)))
    cdef double[:, ::1] xa, yb
    for a in range(nx):
        xa = X[a]
        for b in range(ny):
            if same and b < a:
                continue
            yb = Y[b]
            r = -1 if window < 0 else <int>(window * max(xa.shape[0], yb.shape[0]))
            with nogil:
                o[a, b] = _logk(xa, yb, sigma, eps, r, &buf[a, 0], &buf[a, L + 2],
                                &buf[a, 2 * (L + 2)], &buf[a, 3 * (L + 2)])
            if same:
                o[b, a] = o[a, b]
    return out
