# cython: boundscheck=False, wraparound=False, cdivision=True, language_level=3
# A probe, not the package's: KDTW (Marteau & Gibet 2015, "On recursive edit distance kernels
# with application to time series classification", IEEE TNNLS 26(6)) -- K = K1 + K2, K1 the
# sum over alignments of the products of the local kernel kappa(a, b) = (exp(-|a-b|^2 /
# sigma) + eps) / 3, K2 its companion along the diagonal -- carried row by row as scaled
# values and a logarithm (finite at any length), to measure whether it beats the global
# alignment kernel on the evidence tasks (issue 87). Built with `cythonize -i`; see
# bench_kdtw.py.
import numpy as np

from libc.math cimport exp, log


cdef inline double _kappa(double[:, ::1] A, int i, double[:, ::1] B, int j, double sigma,
                          double eps) noexcept nogil:
    """The local kernel of the points A[i] and B[j]."""
    cdef int c
    cdef double t, s = 0.0
    for c in range(A.shape[1]):
        t = A[i, c] - B[j, c]
        s += t * t
    return (exp(-s / sigma) + eps) / 3.0


cdef double _logk(double[:, ::1] A, double[:, ::1] B, double sigma, double eps, int r,
                  double* k1p, double* k2p, double* k1c, double* k2c,
                  double* diag) noexcept nogil:
    cdef int n = A.shape[0], m = B.shape[0]
    cdef int i, j, k, lo, hi
    cdef double s, top, logscale = 0.0, kij
    # kappa(x_k, y_k), k = 1 ... min(n, m), 0 past it: the term of a step that stays on one
    # side of the diagonal (K2), the same for rows and columns
    for k in range(n + m + 2):
        diag[k] = 0.0
    for k in range(1, (n if n < m else m) + 1):
        diag[k] = _kappa(A, k - 1, B, k - 1, sigma, eps)
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
        for j in range(lo, hi + 1):
            kij = _kappa(A, i - 1, B, j - 1, sigma, eps)
            k1c[j] = (k1p[j] + k1c[j - 1] + k1p[j - 1]) * kij
            k2c[j] = k2p[j] * diag[i] + k2c[j - 1] * diag[j]
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
             bint same=False):
    """log KDTW(x, y) of every pair; X, Y lists of (n, d) C-contiguous float arrays."""
    cdef int nx = len(X), ny = len(Y), a, b, L = 0, r
    out = np.full((nx, ny), np.nan)
    cdef double[:, ::1] o = out
    for a in range(nx):
        L = max(L, X[a].shape[0])
    for b in range(ny):
        L = max(L, Y[b].shape[0])
    cdef double[:, ::1] buf = np.zeros((nx, 6 * (L + 2)))
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
                                &buf[a, 2 * (L + 2)], &buf[a, 3 * (L + 2)],
                                &buf[a, 4 * (L + 2)])
            if same:
                o[b, a] = o[a, b]
    return out
