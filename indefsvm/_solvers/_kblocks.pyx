# cython: language_level=3
"""Kernel blocks computed in C without forming the kernel matrix (private): the decision
values ``K(X, SV) @ coef.T`` of the SVMs, the block products of the matrix-free diagnostics
``K(XI, XJ) @ V`` with their eta scan, the kernel diagonal, the blocks ``K(X, L)`` of the
Nystroem features and those features themselves (``K(X, L) N`` tile by tile). Each uses the element formulas of ``_kernels.pxd``, the same as the
solver's column cache, so a decision value is computed from the kernel values the fit saw.
"""

from cython cimport floating
from libc.math cimport fabs, sqrt
from scipy.linalg.cython_blas cimport dgemm
from cpython.exc cimport PyErr_CheckSignals
from cython.parallel cimport parallel, prange, threadid

from indefsvm._solvers._kernels cimport (
    KIND_L1_GAUSSIAN,
    KIND_LINEAR,
    KIND_POLYNOMIAL,
    KIND_RBF,
    KIND_SIGMOID,
    KIND_SYMMETRIC_KL,
    distance_arg,
    ix_dot_rows,
    ix_exp_scaled,
    kernel_from_dots,
)

import numpy as np


cdef object _self_dots(const double[:, ::1] A):
    """Squared row norms by the same sums as the dot products (an rbf self-value is then
    exactly 1)."""
    cdef Py_ssize_t i, n = A.shape[0], d = A.shape[1]
    out = np.zeros(n)
    cdef double[::1] o = out
    if d > 0:
        for i in range(n):
            ix_dot_rows(&A[i, 0], d, &A[i, 0], &o[i], 1)
    return out


cdef object _logs(A, int kind):
    """Entrywise logs of the inputs for the symmetric KL kernel (a placeholder otherwise)."""
    return np.log(np.asarray(A)) if kind == KIND_SYMMETRIC_KL else np.zeros((1, 1))


cdef tuple _tile_inputs(int kind, const double[:, ::1] X, const double[:, ::1] Y):
    """What the tiles of ``K(X, Y)`` read beside the rows: the squared norms of X and Y and
    (symmetric KL) their logs."""
    return _self_dots(X), _self_dots(Y), _logs(X, kind), _logs(Y, kind)


def decision_values(int kind, const double[:, ::1] X, const double[:, ::1] SV,
                    const double[:, ::1] coef, double gamma, double coef0, int degree,
                    int n_threads=1):
    """``K(X, SV) @ coef.T`` for dense inputs and a kernel computed on the fly, without
    forming K: blocks of test rows are shared among ``n_threads`` OpenMP threads, each
    computing its kernel block (the dot-product kernels and rbf by one dgemm and the
    vectorised loops, the distance kernels by plain loops) into its own buffer and the
    products with ``coef`` row by row. Every row is computed by the same code whatever the
    number of threads. The kernel values are those of the fit's columns (same formulas)."""
    cdef Py_ssize_t n = X.shape[0], m = SV.shape[0], d = X.shape[1], n_out = coef.shape[0]
    cdef Py_ssize_t B, nblocks, blk, lo, nb, b, j, k, tid
    cdef int nt = n_threads if n_threads > 1 else 1
    if SV.shape[1] != d or coef.shape[1] != m:
        raise ValueError("inconsistent shapes")
    out = np.zeros((n, n_out))
    if n == 0 or m == 0 or n_out == 0:
        return out
    # test rows a block: the block's kernel values (B x m) stay under about 2 MB
    B = max(1, min(256, 262144 // m))
    nblocks = (n + B - 1) // B
    if nt > nblocks:
        nt = <int>nblocks
    cdef double[:, ::1] ov = out
    cdef double[::1] sq_sv = _self_dots(SV)
    logs_sv = _logs(SV, kind)
    logs_x = _logs(X, kind)
    cdef const double[:, ::1] lsv = logs_sv
    cdef const double[:, ::1] lx = logs_x
    bufs = np.empty((nt, B * m))
    cdef double[:, ::1] bv = bufs
    cdef bint dots = kind in (KIND_LINEAR, KIND_POLYNOMIAL, KIND_RBF, KIND_SIGMOID)
    with nogil:
        for blk in prange(nblocks, num_threads=nt, schedule="dynamic"):
            tid = threadid()
            _decision_block(kind, dots, &X[0, 0], &SV[0, 0], &coef[0, 0], &sq_sv[0],
                            &lx[0, 0], &lsv[0, 0], n, m, d, n_out, blk * B,
                            B if blk * B + B <= n else n - blk * B, gamma, coef0, degree,
                            &bv[tid, 0], &ov[0, 0])
    return out


cdef void _decision_block(int kind, bint dots, const double* X, const double* SV,
                          const double* coef, const double* sq_sv, const double* lx,
                          const double* lsv, Py_ssize_t n, Py_ssize_t m, Py_ssize_t d,
                          Py_ssize_t n_out, Py_ssize_t lo, Py_ssize_t nb, double gamma,
                          double coef0, int degree, double* D, double* out) noexcept nogil:
    """Rows [lo, lo + nb) of decision_values; D holds nb x m kernel values."""
    cdef Py_ssize_t b, j, k
    cdef int bm = <int>m, bnb = <int>nb, bd = <int>d
    cdef double one = 1.0, zero = 0.0, sqx
    cdef const double* x
    if dots:
        if d > 0:
            # D (m x nb, column-major) = SV (m x d) X_block' : column b = SV . x_b
            dgemm(b"T", b"N", &bm, &bnb, &bd, &one, SV, &bd, &X[lo * d], &bd, &zero, D, &bm)
        else:
            for j in range(m * nb):
                D[j] = 0.0
        for b in range(nb):
            sqx = 0.0
            if kind == KIND_RBF and d > 0:
                ix_dot_rows(&X[(lo + b) * d], d, &X[(lo + b) * d], &sqx, 1)
            kernel_from_dots(kind, &D[b * m], m, sq_sv, sqx, gamma, coef0, degree)
    else:
        for b in range(nb):
            x = &X[(lo + b) * d]
            for j in range(m):
                D[b * m + j] = distance_arg(kind, &SV[j * d], x, lsv, j * d, lx,
                                             (lo + b) * d, d)
            ix_exp_scaled(&D[b * m], -gamma, &D[b * m], m)
    for b in range(nb):
        ix_dot_rows(coef, m, &D[b * m], &out[(lo + b) * n_out], n_out)


# ---------------------------------------------------------------------------------------
# Kernel-block products for the matrix-free diagnostics: K(XI, XJ) @ VJ (and its transpose
# times VI) without ever holding more than one tile of K per thread.

cdef void _kernel_tile(int kind, bint dots, const double* XI, const double* XJ,
                       const double* sqI, const double* sqJ, const double* lxI,
                       const double* lxJ, Py_ssize_t a0, Py_ssize_t na, Py_ssize_t b0,
                       Py_ssize_t nb, Py_ssize_t d, double gamma, double coef0, int degree,
                       double* D) noexcept nogil:
    """D (na x nb, row-major) = K(XI[a0:a0+na], XJ[b0:b0+nb]), by the formulas of the
    columns (dgemm for the dot-product kernels and rbf, plain loops for the distances)."""
    cdef Py_ssize_t a, b, k
    cdef int bna = <int>na, bnb = <int>nb, bd = <int>d
    cdef double one = 1.0, zero = 0.0
    cdef const double* x
    if dots:
        if d > 0:
            # column-major nb x na = XJ_block . XI_block': row a of D = K(x_a, XJ_block)
            dgemm(b"T", b"N", &bnb, &bna, &bd, &one, &XJ[b0 * d], &bd, &XI[a0 * d], &bd,
                  &zero, D, &bnb)
        else:
            for k in range(na * nb):
                D[k] = 0.0
        for a in range(na):
            kernel_from_dots(kind, &D[a * nb], nb, &sqJ[b0], sqI[a0 + a], gamma, coef0,
                              degree)
        return
    for a in range(na):
        x = &XI[(a0 + a) * d]
        for b in range(nb):
            D[a * nb + b] = distance_arg(kind, &XJ[(b0 + b) * d], x, lxJ, (b0 + b) * d,
                                          lxI, (a0 + a) * d, d)
        ix_exp_scaled(&D[a * nb], -gamma, &D[a * nb], nb)


def kernel_diagonal(int kind, const double[:, ::1] X, double gamma, double coef0,
                    int degree):
    """``K(x_i, x_i)`` by the formulas of the kernel blocks (1 for the distance kernels)."""
    cdef Py_ssize_t n = X.shape[0], d = X.shape[1], i
    out = np.ones(n)
    cdef double[::1] ov = out
    cdef double sq
    if kind in (KIND_LINEAR, KIND_POLYNOMIAL, KIND_SIGMOID):
        for i in range(n):
            sq = 0.0
            if d > 0:
                ix_dot_rows(&X[i, 0], d, &X[i, 0], &sq, 1)
            ov[i] = sq
            kernel_from_dots(kind, &ov[i], 1, &sq, sq, gamma, coef0, degree)
    return out


def kernel_block_products(int kind, const double[:, ::1] XI, const double[:, ::1] XJ,
                          const double[:, ::1] VI, const double[:, ::1] VJ, bint same,
                          double gamma, double coef0, int degree,
                          const double[::1] diagI, const double[::1] diagJ,
                          const int[::1] yI, const int[::1] yJ, int n_classes,
                          double atol, Py_ssize_t offI, Py_ssize_t offJ, bint want_eta,
                          int n_threads=1, Py_ssize_t tile=256):
    """Products with the kernel block ``K(XI, XJ)``, computed tile by tile, never stored.

    ``same`` (``XI`` is ``XJ``, ``VI`` is ``VJ``): returns ``(K VI, None, eta)``, each tile of
    the upper triangle computed once and used for both of its mirror images. Otherwise
    ``(K(XI, XJ) VJ, K(XI, XJ)' VI, eta)`` for the block of rows ``XI`` and columns ``XJ``
    (rows ``offI + i``, columns ``offJ + j`` of the whole matrix; the caller only asks for
    blocks above the diagonal).

    With ``want_eta``, ``eta`` holds the exact figures of the eta scan over the pairs
    ``i < j`` of the block (global indices): ``n_negative`` (eta < -atol), a
    ``n_classes x n_classes`` table of opposite-label pairs with eta <= atol (row: the
    smaller class index), the smallest eta and its first pair in row-major order.

    Tiles are dealt round-robin to ``n_threads`` OpenMP threads, each adding into its own
    accumulator; the accumulators are summed in thread order, so a result depends on the
    number of threads only through the order of the sums. Ctrl-C is checked between rounds
    of tiles (a few hundredths of a second apart).
    """
    cdef Py_ssize_t nI = XI.shape[0], nJ = XJ.shape[0], d = XI.shape[1], m = VI.shape[1]
    cdef Py_ssize_t T = tile if tile > 0 else 256
    cdef Py_ssize_t tI = (nI + T - 1) // T, tJ = (nJ + T - 1) // T
    cdef Py_ssize_t n_tiles, p, p0, p1, a, b, a0, b0, na, nb, i, j, tid, round_size, c
    cdef int nt = n_threads if n_threads > 1 else 1
    cdef int bm = <int>m, bna, bnb
    cdef double one = 1.0
    cdef double eta, kii
    if XJ.shape[1] != d or VJ.shape[1] != m or VI.shape[0] != nI or VJ.shape[0] != nJ:
        raise ValueError("inconsistent shapes")
    if same:
        n_tiles = tI * (tI + 1) // 2
    else:
        n_tiles = tI * tJ
    # tile coordinates in a fixed order (rows of tiles, then columns)
    coords = np.empty((max(n_tiles, 1), 2), dtype=np.intp)
    cdef Py_ssize_t[:, ::1] cv = coords
    p = 0
    for a in range(tI):
        for b in range(a if same else 0, tJ):
            cv[p, 0] = a
            cv[p, 1] = b
            p += 1
    if nt > n_tiles:
        nt = <int>max(n_tiles, 1)
    accI = np.zeros((nt, nI, m))
    accJ = np.zeros((nt, 1 if same else nJ, m))
    cdef double[:, :, ::1] aI = accI
    cdef double[:, :, ::1] aJ = accJ
    bufs = np.empty((nt, T * T))
    cdef double[:, ::1] bv = bufs
    cdef double[::1] sqI = _self_dots(XI), sqJ = _self_dots(XJ)
    lxI_a = _logs(XI, kind)
    lxJ_a = _logs(XJ, kind)
    cdef const double[:, ::1] lxI = lxI_a
    cdef const double[:, ::1] lxJ = lxJ_a
    cdef bint dots = kind in (KIND_LINEAR, KIND_POLYNOMIAL, KIND_RBF, KIND_SIGMOID)
    cdef int k = n_classes if n_classes > 0 else 1
    neg_a = np.zeros(nt, dtype=np.int64)
    cross_a = np.zeros((nt, k, k), dtype=np.int64)
    worst_a = np.full(nt, np.inf)
    wi_a = np.full(nt, -1, dtype=np.intp)
    wj_a = np.full(nt, -1, dtype=np.intp)
    cdef long long[::1] negv = neg_a
    cdef long long[:, :, ::1] crossv = cross_a
    cdef double[::1] worstv = worst_a
    cdef Py_ssize_t[::1] wiv = wi_a, wjv = wj_a
    cdef int ya, yb
    cdef double* D
    cdef Py_ssize_t gi, gj
    round_size = 32 * nt
    p0 = 0
    while p0 < n_tiles:
        p1 = min(n_tiles, p0 + round_size)
        with nogil:
            for p in prange(p0, p1, num_threads=nt, schedule="static", chunksize=1):
                tid = threadid()
                D = &bv[tid, 0]
                a = cv[p, 0]
                b = cv[p, 1]
                a0 = a * T
                b0 = b * T
                na = T if a0 + T <= nI else nI - a0
                nb = T if b0 + T <= nJ else nJ - b0
                _kernel_tile(kind, dots, &XI[0, 0], &XJ[0, 0], &sqI[0], &sqJ[0],
                             &lxI[0, 0], &lxJ[0, 0], a0, na, b0, nb, d, gamma, coef0,
                             degree, D)
                _tile_products(D, na, nb, m, &VI[0, 0], &VJ[0, 0], a0, b0,
                               &aI[tid, 0, 0], &aJ[tid, 0, 0], same, a == b)
                if want_eta:
                    _tile_eta(D, na, nb, a0, b0, offI, offJ, same and a == b, &diagI[0],
                              &diagJ[0], &yI[0], &yJ[0], k, atol, &negv[tid],
                              &crossv[tid, 0, 0], &worstv[tid], &wiv[tid], &wjv[tid])
        PyErr_CheckSignals()
        p0 = p1
    outI = accI[0]
    for c in range(1, nt):
        outI += accI[c]
    outJ = None
    if not same:
        outJ = accJ[0]
        for c in range(1, nt):
            outJ += accJ[c]
    eta_out = None
    if want_eta:
        best = int(np.argmin(worst_a))
        # the first smallest pair in row-major order, whichever thread found it
        ties = np.flatnonzero(worst_a == worst_a[best])
        best = min(ties, key=lambda t: (wi_a[t], wj_a[t]))
        eta_out = {"n_negative": int(neg_a.sum()), "cross": cross_a.sum(axis=0),
                   "worst": float(worst_a[best]), "wi": int(wi_a[best]),
                   "wj": int(wj_a[best])}
    return outI, outJ, eta_out


cdef void _tile_products(const double* D, Py_ssize_t na, Py_ssize_t nb, Py_ssize_t m,
                         const double* VI, const double* VJ, Py_ssize_t a0, Py_ssize_t b0,
                         double* accI, double* accJ, bint same, bint diag) noexcept nogil:
    """accI[a0:] += D VJ[b0:]; and D' VI[a0:] into accJ[b0:] (or, for a tile above the
    diagonal of a symmetric product, into accI[b0:])."""
    cdef int bm = <int>m, bna = <int>na, bnb = <int>nb
    cdef double one = 1.0
    if m == 0:
        return
    # row-major (na x m) += (na x nb)(nb x m)  <=>  column-major (m x na) += (m x nb)(nb x na)
    dgemm(b"N", b"N", &bm, &bna, &bnb, &one, &VJ[b0 * m], &bm, D, &bnb, &one,
          &accI[a0 * m], &bm)
    if same and diag:
        return
    # row-major (nb x m) += D' (nb x na) VI (na x m)
    dgemm(b"N", b"T", &bm, &bnb, &bna, &one, &VI[a0 * m], &bm, D, &bnb, &one,
          &(accI if same else accJ)[b0 * m], &bm)


cdef void _tile_eta(const double* D, Py_ssize_t na, Py_ssize_t nb, Py_ssize_t a0,
                    Py_ssize_t b0, Py_ssize_t offI, Py_ssize_t offJ, bint diag_tile,
                    const double* diagI, const double* diagJ, const int* yI, const int* yJ,
                    int k, double atol, long long* n_neg, long long* cross, double* worst,
                    Py_ssize_t* wi, Py_ssize_t* wj) noexcept nogil:
    """The eta scan over one tile (pairs i < j only on a tile of the diagonal)."""
    cdef Py_ssize_t a, b, bstart, gi, gj
    cdef double eta, kii
    cdef int ya, yb
    for a in range(na):
        kii = diagI[a0 + a]
        ya = yI[a0 + a]
        gi = offI + a0 + a
        bstart = a + 1 if diag_tile else 0
        for b in range(bstart, nb):
            eta = kii + diagJ[b0 + b] - 2.0 * D[a * nb + b]
            if eta < -atol:
                n_neg[0] += 1
            gj = offJ + b0 + b
            if eta < worst[0] or (eta == worst[0] and (gi < wi[0] or (gi == wi[0]
                                                                     and gj < wj[0]))):
                worst[0] = eta
                wi[0] = gi
                wj[0] = gj
            yb = yJ[b0 + b]
            if ya != yb and eta <= atol:
                if ya < yb:
                    cross[ya * k + yb] += 1
                else:
                    cross[yb * k + ya] += 1


def kernel_block(int kind, const double[:, ::1] X, const double[:, ::1] Y, double gamma,
                 double coef0, int degree, int n_threads=1, out=None):
    """The kernel block ``K(X, Y)`` (n_X x n_Y, float64) by the formulas of the columns.

    For the Nystroem features: rows of ``X`` in tiles of 256 shared among ``n_threads``
    OpenMP threads, each tile computed into its place of the output (dgemm for the
    dot-product kernels and rbf, plain loops for the distance kernels). Every entry is
    computed by the same code whatever the number of threads. Ctrl-C is checked between
    rounds of tiles. ``out``: a C-contiguous float64 (n_X, n_Y) array to write into (a
    buffer reused block after block saves the page faults of a fresh one, ~15 ms per
    64 MB).
    """
    cdef Py_ssize_t n = X.shape[0], m = Y.shape[0], d = X.shape[1]
    cdef Py_ssize_t T = 256, n_tiles, p, p0, p1, a0, na, i, round_size
    cdef int nt = n_threads if n_threads > 1 else 1
    if Y.shape[1] != d:
        raise ValueError("inconsistent shapes")
    if out is None:
        out = np.empty((n, m))
    elif out.shape != (n, m) or out.dtype != np.float64 or not out.flags.c_contiguous:
        raise ValueError("out must be a C-contiguous float64 array of shape (n_X, n_Y)")
    if n == 0 or m == 0:
        return out
    cdef double[:, ::1] ov = out
    sqX_a, sqY_a, lx_a, ly_a = _tile_inputs(kind, X, Y)
    cdef double[::1] sqX = sqX_a, sqY = sqY_a
    cdef const double[:, ::1] lx = lx_a
    cdef const double[:, ::1] ly = ly_a
    cdef bint dots = kind in (KIND_LINEAR, KIND_POLYNOMIAL, KIND_RBF, KIND_SIGMOID)
    n_tiles = (n + T - 1) // T
    nt = <int>min(nt, n_tiles)
    round_size = 16 * nt
    p0 = 0
    while p0 < n_tiles:
        p1 = min(n_tiles, p0 + round_size)
        with nogil:
            for p in prange(p0, p1, num_threads=nt, schedule="static", chunksize=1):
                a0 = p * T
                na = T if a0 + T <= n else n - a0
                _kernel_tile(kind, dots, &X[0, 0], &Y[0, 0], &sqX[0], &sqY[0], &lx[0, 0],
                             &ly[0, 0], a0, na, 0, m, d, gamma, coef0, degree, &ov[a0, 0])
        PyErr_CheckSignals()
        p0 = p1
    return out


def kernel_features(int kind, const double[:, ::1] X, const double[:, ::1] Y,
                    const double[:, ::1] N, floating[:, ::1] out, double gamma, double coef0,
                    int degree, int n_threads=1):
    """Nystroem features ``out = K(X, Y) @ N`` (``out``: n_X x c, float64 or float32),
    without the n_X x n_Y kernel block: rows of ``X`` in tiles of 256 shared among
    ``n_threads`` OpenMP threads, each computing its tile's kernel values (as
    ``kernel_block``, the same entries), their product with ``N`` (one dgemm, on the BLAS's
    count: the caller holds it at one) and, for float32, the rounding into ``out`` while the
    tile is in cache. A tile's features are the same whatever the number of threads (its
    rows, its code). Ctrl-C is checked between rounds of tiles."""
    cdef Py_ssize_t n = X.shape[0], m = Y.shape[0], d = X.shape[1], c = N.shape[1]
    cdef Py_ssize_t T = 256, n_tiles, p, p0, p1, a0, na, k, round_size, tid
    cdef int nt = n_threads if n_threads > 1 else 1
    cdef int bm = <int>m, bc = <int>c, bna
    cdef double one = 1.0, zero = 0.0
    if Y.shape[1] != d or N.shape[0] != m or out.shape[0] != n or out.shape[1] != c:
        raise ValueError("inconsistent shapes")
    if n == 0 or c == 0:
        return
    if m == 0:
        out[:, :] = 0
        return
    sqX_a, sqY_a, lx_a, ly_a = _tile_inputs(kind, X, Y)
    cdef double[::1] sqX = sqX_a, sqY = sqY_a
    cdef const double[:, ::1] lx = lx_a
    cdef const double[:, ::1] ly = ly_a
    cdef bint dots = kind in (KIND_LINEAR, KIND_POLYNOMIAL, KIND_RBF, KIND_SIGMOID)
    n_tiles = (n + T - 1) // T
    nt = <int>min(nt, n_tiles)
    # per thread: the tile's kernel values, and (float32) its float64 features
    kbuf = np.empty((nt, T * m))
    fbuf = np.empty((nt, T * c if floating is float else 1))
    cdef double[:, ::1] kb = kbuf
    cdef double[:, ::1] fb = fbuf
    cdef double* F
    round_size = 16 * nt
    p0 = 0
    while p0 < n_tiles:
        p1 = min(n_tiles, p0 + round_size)
        with nogil:
            for p in prange(p0, p1, num_threads=nt, schedule="static", chunksize=1):
                tid = threadid()
                a0 = p * T
                na = T if a0 + T <= n else n - a0
                bna = <int>na
                _kernel_tile(kind, dots, &X[0, 0], &Y[0, 0], &sqX[0], &sqY[0], &lx[0, 0],
                             &ly[0, 0], a0, na, 0, m, d, gamma, coef0, degree, &kb[tid, 0])
                # column-major c x na = N' (c x m) . tile' (m x na): row a of F = tile_a N
                if floating is double:
                    dgemm(b"N", b"N", &bc, &bna, &bm, &one, &N[0, 0], &bc, &kb[tid, 0],
                          &bm, &zero, &out[a0, 0], &bc)
                else:
                    F = &fb[tid, 0]
                    dgemm(b"N", b"N", &bc, &bna, &bm, &one, &N[0, 0], &bc, &kb[tid, 0],
                          &bm, &zero, F, &bc)
                    for k in range(na * c):
                        (&out[a0, 0])[k] = <float>F[k]
        PyErr_CheckSignals()
        p0 = p1


def reorthogonalise(const double[:, ::1] basis, Py_ssize_t m, Py_ssize_t nvec,
                    double[:, ::1] w, int n_threads=1, int passes=2):
    """Classical Gram-Schmidt, ``passes`` times (CGS2: "twice is enough", Giraud, Langou &
    Rozloznik 2005), of each column ``p`` of ``w`` (n x m) against its own Lanczos vectors:
    column ``j * m + p`` of ``basis`` (n x (k + 1) m), ``j < nvec``, orthonormal.

    The dot products are summed over fixed chunks of 256 rows, the chunks in order, and the
    update is row by row: the result does not depend on ``n_threads``. Rows are shared among
    the OpenMP threads."""
    cdef Py_ssize_t n = w.shape[0], T = 256, nch, ch, r, r0, r1, j, p, q, c
    cdef int nt = n_threads if n_threads > 1 else 1
    if w.shape[1] != m or basis.shape[0] != n or basis.shape[1] < nvec * m:
        raise ValueError("inconsistent shapes")
    c = nvec * m
    if n == 0 or c == 0:
        return
    nch = (n + T - 1) // T
    part_a = np.zeros((nch, c))
    coef_a = np.zeros(c)
    cdef double[:, ::1] part = part_a
    cdef double[::1] coef = coef_a
    cdef double acc
    for _ in range(passes):
        with nogil:
            for ch in prange(nch, num_threads=nt, schedule="static"):
                r0 = ch * T
                r1 = min(n, r0 + T)
                for q in range(c):
                    part[ch, q] = 0.0
                for r in range(r0, r1):
                    for j in range(nvec):
                        for p in range(m):
                            part[ch, j * m + p] += basis[r, j * m + p] * w[r, p]
            for q in range(c):
                acc = 0.0
                for ch in range(nch):
                    acc = acc + part[ch, q]
                coef[q] = acc
            for r in prange(n, num_threads=nt, schedule="static"):
                for j in range(nvec):
                    for p in range(m):
                        w[r, p] -= basis[r, j * m + p] * coef[j * m + p]
