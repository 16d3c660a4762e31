# cython: language_level=3
"""The global alignment kernel between many pairs of series, on OpenMP threads (private).

Cuturi, Vert, Birkenes & Matsui (2007), Cuturi (2011): the sum over every alignment of two
series of the product of a local kernel along it, ``k(x, y) = M(|x|, |y|)`` with

    M(i, j) = kappa(x_i, y_j) * (M(i-1, j-1) + M(i-1, j) + M(i, j-1)),  M(0, 0) = 1,
    kappa = g / (2 - g),  g = w(i, j) * exp(-|x_i - y_j|^2 / (2 sigma^2)),

(Cuturi 2011, eq. 4 and the local kernel of his section 2.3, whose ``kappa / (1 + kappa) =
g / 2`` is positive definite), ``w(i, j) = 1 - |i - j| / T`` for ``|i - j| < T`` and 0 beyond
(his triangular kernel; no band: w = 1). The sums reach e^-10^4 on series of a few hundred
points, far below float64: each row of M is carried as its largest value's logarithm plus
values scaled to at most 1 (the scaled forward recursion of hidden Markov models), so the
result is ``log k`` -- finite at any length -- and the normalisation ``log k(x, y) - (log
k(x, x) + log k(y, y)) / 2`` is done on logarithms by the caller. Series are packed as for
DTW (``_dtw.pyx``): one ``(total_points, n_channels)`` array and ``offsets``.

Where a row's largest value, or the last cell against its row's, leaves float64's digits
(series far apart against sigma: their local kernels underflow), the pair is computed again
by the plain log-domain programme, every cell a log-sum-exp of three; the fast programme's
values are unchanged elsewhere.
"""

from libc.float cimport DBL_MAX
from libc.math cimport INFINITY, exp, log, log1p

include "_pairs.pxi"

cdef extern from "../_solvers/_vmath.h" nogil:
    # out[t] = exp(scale * v[t]), vectorised (AVX2 where the CPU has it), within 3 ulp;
    # 0 below exp(-708) (the kernel columns' loop of the SMO)
    void ix_exp_scaled(const double* v, double scale, double* out, Py_ssize_t m)


cdef inline Py_ssize_t _band(double window, Py_ssize_t la, Py_ssize_t lb) noexcept nogil:
    """T of the triangular weights: floor(window * max(la, lb)) + 1 cells either side of
    the diagonal reach w > 0; window < 0: no band (T = 0)."""
    cdef Py_ssize_t L = la if la > lb else lb
    if window < 0.0:
        return 0
    # the 1e-9 keeps products such as 0.1 * 400 = 40 from rounding down to 39
    return <Py_ssize_t>(window * L + 1e-9) + 1


cdef inline void _row_span(Py_ssize_t i, Py_ssize_t T, Py_ssize_t lb, Py_ssize_t* lo,
                           Py_ssize_t* hi) noexcept nogil:
    """The points j of b that row i of the programme reaches: |i - j| < T (all of them
    when T <= 0), from lo to hi."""
    lo[0] = 0
    hi[0] = lb - 1
    if T > 0:
        lo[0] = i - T + 1 if i - T + 1 > 0 else 0
        hi[0] = i + T - 1 if i + T - 1 < lb - 1 else lb - 1


#: a row whose largest scaled value falls below this (or a last cell below it, relative to
#: its row's largest) leaves the fast programme: below ~1e-292 the cells within 1e-16 of the
#: row's largest are subnormal (digits lost) and 1 / smax overflows past ~1e-308 (0 * inf:
#: NaN). Such a pair -- series far apart against sigma -- is computed again in log domain.
cdef double _TINY = 1e-290
#: log 2, and the log-domain programme's threshold of a term that adds nothing
cdef double _LN2 = 0.6931471805599453
cdef double _SKIP = -40.0


cdef double _log_gak_exact(const double* a, Py_ssize_t la, const double* b, Py_ssize_t lb,
                           Py_ssize_t d, double inv2s2, Py_ssize_t T, double* buf,
                           bint watch, int* stop) noexcept nogil:
    """log k(a, b) by the plain log-domain programme: every cell ``log kappa +
    logsumexp`` of its three predecessors (five times the fast programme's time a cell on
    walks of 256 points at sigma 1; used only where that one underflows). Same band, buffers and
    Ctrl-C rule as :func:`_log_gak`; -inf only where k is 0 even in log domain (no
    alignment in the band; unequal points at a sigma below ~5e-155)."""
    cdef Py_ssize_t i, j, c, lo, hi, cells = 0
    cdef double lg, lk, m, left, diff, cost, tail, x0, x1
    cdef double* prev = buf
    cdef double* cur = buf + lb + 1
    cdef double invT = 1.0 / T if T > 0 else 0.0
    cdef double* tmp
    cdef const double* pa
    cdef const double* pb
    for j in range(lb + 1):
        prev[j] = -INFINITY
        cur[j] = -INFINITY
    prev[0] = 0.0
    for i in range(la):
        if cells > 4194304:
            cells = 0
            if stop[0] or (watch and _interrupted()):
                stop[0] = 1
                return -INFINITY
        _row_span(i, T, lb, &lo, &hi)
        cells += (hi - lo + 1) * d
        pa = a + i * d
        cur[lo] = -INFINITY
        cur[0] = -INFINITY
        left = -INFINITY
        for j in range(lo, hi + 1):
            pb = b + j * d
            cost = 0.0
            for c in range(d):
                diff = pa[c] - pb[c]
                cost = cost + diff * diff
            lg = -cost * inv2s2
            if T > 0:
                lg = lg + log(1.0 - (i - j if i >= j else j - i) * invT)
            # log(2 - g) is log 2 to the last digit below g = e^-40, as a term of the
            # sum below e^-40 of its largest adds nothing a double holds: both skipped
            lk = lg - (log(2.0 - exp(lg)) if lg > _SKIP else _LN2)
            x0 = prev[j]
            x1 = prev[j + 1]
            if x0 >= x1 and x0 >= left:
                m, x0 = x0, left
            elif x1 >= left:
                m, x1 = x1, left
            else:
                m = left
            if m == -INFINITY:
                left = -INFINITY
            else:
                # x0 and x1 now hold the two others
                x0 = x0 - m
                x1 = x1 - m
                tail = (exp(x0) if x0 > _SKIP else 0.0) + (exp(x1) if x1 > _SKIP else 0.0)
                left = lk + m + (log1p(tail) if tail > 0.0 else 0.0)
            cur[j + 1] = left
        if hi + 2 <= lb:
            cur[hi + 2] = -INFINITY
        tmp = prev
        prev = cur
        cur = tmp
    return prev[lb]


cdef double _log_gak(const double* a, Py_ssize_t la, const double* b, Py_ssize_t lb,
                     Py_ssize_t d, const double* prm, double* buf, bint watch,
                     int* stop) noexcept nogil:
    """log k(a, b), unnormalised; -inf where no alignment lies in the band (|la - lb| >= T);
    by :func:`_log_gak_exact` where the scaled rows underflow.

    ``prm`` is ``(1 / (2 sigma^2), window)``. Row i of M runs over the points j of ``b``
    with |i - j| < T (all of them when T <= 0). Three rows of lb + 1 cells in ``buf``: the
    programme's last row and its next (cell j at index j + 1, index 0 the boundary column)
    and the local kernels of the row, computed at once before the recursion, which then
    has only products and sums in its chain. ``watch`` (the main thread only) looks at
    Ctrl-C every ~1.6e7 cells and sets ``stop``; every thread gives up its pair when
    ``stop`` is set."""
    cdef Py_ssize_t i, j, c, lo, hi, cells = 0
    cdef double g, v, left, smax, inv, diff, cost, logscale = 0.0
    cdef double inv2s2 = prm[0]
    cdef Py_ssize_t T = _band(prm[1], la, lb)
    cdef double* prev = buf
    cdef double* cur = buf + lb + 1
    cdef double* kap = buf + 2 * (lb + 1)
    cdef double invT = 1.0 / T if T > 0 else 0.0
    cdef double* tmp
    cdef const double* pa
    cdef const double* pb
    if la == 0 or lb == 0 or (T > 0 and (la - lb >= T or lb - la >= T)):
        return -INFINITY
    # the virtual row -1: only M(-1, -1) = 1
    for j in range(lb + 1):
        prev[j] = 0.0
        cur[j] = 0.0
    prev[0] = 1.0
    for i in range(la):
        if cells > 16777216:
            cells = 0
            if stop[0] or (watch and _interrupted()):
                stop[0] = 1
                return -INFINITY
        _row_span(i, T, lb, &lo, &hi)
        cells += (hi - lo + 1) * d
        pa = a + i * d
        # the row's local kernels: squared differences, their exponentials at once (the
        # vectorised loop of _vmath.h), the band's weights and kappa = g / (2 - g)
        if d == 1:
            for j in range(lo, hi + 1):
                diff = pa[0] - b[j]
                kap[j] = diff * diff
        else:
            for j in range(lo, hi + 1):
                pb = b + j * d
                cost = 0.0
                for c in range(d):
                    diff = pa[c] - pb[c]
                    cost = cost + diff * diff
                kap[j] = cost
        ix_exp_scaled(kap + lo, -inv2s2, kap + lo, hi - lo + 1)
        if T > 0:
            for j in range(lo, hi + 1):
                g = kap[j] * (1.0 - (i - j if i >= j else j - i) * invT)
                kap[j] = g / (2.0 - g)
        else:
            for j in range(lo, hi + 1):
                g = kap[j]
                kap[j] = g / (2.0 - g)
        # the cell left of the band (and the boundary column) hold no alignment
        cur[lo] = 0.0
        cur[0] = 0.0
        left = 0.0
        smax = 0.0
        for j in range(lo, hi + 1):
            v = kap[j] * (prev[j] + prev[j + 1] + left)
            cur[j + 1] = v
            left = v
            if v > smax:
                smax = v
        # the band moves right by one cell a row: the next row may read the cell right of
        # this row's band, which must not hold a value of an older row
        if hi + 2 <= lb:
            cur[hi + 2] = 0.0
        if smax < _TINY:
            # every alignment so far is below float64's digits: in log domain instead
            return _log_gak_exact(a, la, b, lb, d, inv2s2, T, buf, watch, stop)
        inv = 1.0 / smax
        for j in range(lo, hi + 1):
            cur[j + 1] = cur[j + 1] * inv
        logscale = logscale + log(smax)
        tmp = prev
        prev = cur
        cur = tmp
    if prev[lb] < _TINY:
        # the last cell far below its row's largest: its digits are gone, so log domain
        return _log_gak_exact(a, la, b, lb, d, inv2s2, T, buf, watch, stop)
    return log(prev[lb]) + logscale


def log_gak_pairs(const double[:, ::1] A, const Py_ssize_t[::1] offA,
                  const double[:, ::1] B, const Py_ssize_t[::1] offB, int mode,
                  double sigma, double window, double[:, ::1] out, int n_threads=1,
                  progress=None):
    """Fill ``out`` with unnormalised ``log k`` of series of A against series of B.

    ``mode`` 0: every pair, ``out[s, t]``; 1 (B is A): the pairs s < t, mirrored, and
    the diagonal; 2: each series of A against itself, ``out[s, 0]``. Pairs are dealt to
    ``n_threads`` threads (dynamic schedule) in rounds of about 10^8 cells per thread;
    between rounds Ctrl-C is checked and ``progress(done, total)`` is called when given. A
    pair's value does not depend on the thread that computed it."""
    cdef double prm[2]
    cdef double inv = 1.0 / (2.0 * sigma * sigma)
    # below sigma ~ 5e-155, 1 / (2 sigma^2) overflows and 0 * inf (a point against itself)
    # is NaN; the largest double keeps g = 1 there and 0 wherever the points differ, which
    # is the kernel's value at such a sigma
    prm[0] = inv if inv < DBL_MAX else DBL_MAX
    prm[1] = window
    # (no lanes: a pair alone; three rows a thread, the third the row's local kernels)
    _run_pairs(_log_gak, A, offA, B, offB, mode, prm, out, n_threads, progress, 1e8, NULL,
               3)
