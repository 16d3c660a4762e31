# cython: language_level=3
"""Move-split-merge between many pairs of series, on OpenMP threads (private).

Stefan, Athitsos & Das (2013, IEEE TKDE 25, "The move-split-merge metric for time series"):
the cheapest sequence of moves (change a point's value, cost its change), splits (repeat a
point) and merges (join two equal neighbours), each split or merge costing ``c`` plus, when
the new point does not lie between its neighbour and the point it is matched to, its
distance to the nearer of the two. Their recursion (section 4.2, the cost function
``C(x_i, x_{i-1}, y_j)`` of their eq. 8):

    D(i, j) = min(D(i-1, j-1) + |x_i - y_j|,
                  D(i-1, j) + C(x_i, x_{i-1}, y_j),
                  D(i, j-1) + C(y_j, x_i, y_{j-1})),   D(0, 0) = |x_0 - y_0|,

with the first row and column through the split and merge moves alone. It is a metric
(their theorem 1), so its kernels are indefinite only through the kernel, not the distance.
Several channels: the sum of each channel's distance (the "independent" form, as aeon's
``msm_distance``). A Sakoe-Chiba band as DTW's (``_dtw.pyx``): cell (i, j) of the longer
series ``a`` and the shorter ``b`` lies in it when ``j - r <= i <= j + (la - lb) + r``.
The values are aeon 1.6's to the bit on series of one length (band or none) and on unequal
lengths without a band; aeon's band on unequal lengths follows the slanted diagonal, so
there the two differ.
Series are packed as for DTW: one ``(total_points, n_channels)`` array and ``offsets``.
"""

from libc.math cimport INFINITY, fabs

include "_pairs.pxi"

cdef extern from "_msm_lanes.h" nogil:
    int ix_msm_lanes_ok()
    int ix_msm_lanes(int nv, const double* x, Py_ssize_t lx, const double* B,
                     const Py_ssize_t* offs, Py_ssize_t ly, Py_ssize_t d, Py_ssize_t r,
                     double c, double* prev, double* cur, int watch,
                     int (*interrupted)() noexcept nogil, int* stop, double* out)

#: pairs computed eight or four at a time (one series against eight or four of one length,
#: _msm_lanes.h) where they can be (AVX2); False: every pair alone (the tests compare the
#: two; benchmarks/RESULTS.md has the speeds)
LANES = True


cdef inline double _split_merge(double new, double prev, double other,
                                double c) noexcept nogil:
    """C(new, prev, other): c when ``new`` lies between its neighbour ``prev`` and the point
    ``other`` it is matched to, else c plus its distance to the nearer of the two."""
    if (prev <= new <= other) or (prev >= new >= other):
        return c
    return c + min(fabs(new - prev), fabs(new - other))


cdef double _msm(const double* x, Py_ssize_t lx, const double* y, Py_ssize_t ly,
                 Py_ssize_t d, const double* prm, double* buf, bint watch,
                 int* stop) noexcept nogil:
    """MSM(x, y) summed over the channels; ``prm`` is ``(c, window)``. Rows run over the
    longer series; two rows of the shorter one's length in ``buf``."""
    cdef const double* a = x if lx >= ly else y
    cdef const double* b = y if lx >= ly else x
    cdef Py_ssize_t la = lx if lx >= ly else ly, lb = ly if lx >= ly else lx
    cdef Py_ssize_t r = _radius(prm[1], la, lb), extra = la - lb
    cdef Py_ssize_t i, j, ch, lo, hi, cells = 0
    cdef double c = prm[0], total = 0.0, u, v, w, xi, xp, yj, yp, left
    cdef double* prev
    cdef double* cur
    cdef double* tmp
    if la == 0 or lb == 0:
        return INFINITY
    for ch in range(d):
        prev = buf
        cur = buf + lb + 1
        for j in range(lb):
            prev[j] = INFINITY
            cur[j] = INFINITY
        for i in range(la):
            if cells > 16777216:
                cells = 0
                if stop[0] or (watch and _interrupted()):
                    stop[0] = 1
                    return INFINITY
            lo = i - extra - r
            if lo < 0:
                lo = 0
            hi = i + r
            if hi > lb - 1:
                hi = lb - 1
            cells += hi - lo + 1
            xi = a[i * d + ch]
            # the cell left of the band holds no path (it may hold a row two back)
            if lo > 0:
                cur[lo - 1] = INFINITY
            j = lo
            if i == 0:
                # the first row: D(0, 0), then splits and merges of b's points alone
                yp = b[ch]
                cur[0] = fabs(xi - yp)
                for j in range(1, hi + 1):
                    yj = b[j * d + ch]
                    cur[j] = cur[j - 1] + _split_merge(yj, yp, xi, c)
                    yp = yj
            else:
                xp = a[(i - 1) * d + ch]
                if j == 0:
                    cur[0] = prev[0] + _split_merge(xi, xp, b[ch], c)
                    j = 1
                yp = b[(j - 1) * d + ch]
                left = cur[j - 1]
                for j in range(j, hi + 1):
                    yj = b[j * d + ch]
                    v = prev[j - 1] + fabs(xi - yj)
                    u = prev[j] + _split_merge(xi, xp, yj, c)
                    w = left + _split_merge(yj, yp, xi, c)
                    if u < v:
                        v = u
                    if w < v:
                        v = w
                    cur[j] = v
                    left = v
                    yp = yj
            # the next row may read the cell right of this row's band
            if hi + 1 < lb:
                cur[hi + 1] = INFINITY
            tmp = prev
            prev = cur
            cur = tmp
        total = total + prev[lb - 1]
    return total


cdef int _msm_group(int nv, const double* x, Py_ssize_t lx, const double* B,
                    const Py_ssize_t* offs, Py_ssize_t ly, Py_ssize_t d, const double* prm,
                    double* prev, double* cur, bint watch, int* stop,
                    double* out) noexcept nogil:
    """The lanes' form of :func:`_msm` (``_pairs.pxi``'s group measure)."""
    return ix_msm_lanes(nv, x, lx, B, offs, ly, d, _radius(prm[1], lx, ly), prm[0], prev,
                        cur, watch, _interrupted, stop, out)


def msm_pairs(const double[:, ::1] A, const Py_ssize_t[::1] offA, const double[:, ::1] B,
              const Py_ssize_t[::1] offB, bint same, double c, double window,
              double[:, ::1] out, int n_threads=1, progress=None):
    """Fill ``out[s, t]`` with MSM(series s of A, series t of B); with ``same`` (B is A)
    each pair once, mirrored. ``window`` < 0: no band. Rounds of about 10^8 cells per
    thread, Ctrl-C and ``progress(done, total)`` between them (``_pairs.pxi``); with
    ``LANES``, one series against eight or four of B of one length at a time."""
    cdef double prm[2]
    cdef group_measure lanes = NULL
    prm[0] = c
    prm[1] = window
    if LANES and ix_msm_lanes_ok():
        lanes = _msm_group
    _run_pairs(_msm, A, offA, B, offB, 1 if same else 0, prm, out, n_threads, progress, 1e8,
               lanes)


def msm_params(params: dict) -> dict:
    """``c`` (a number > 0; default 1, Stefan et al.'s choice for z-normalised series) and
    ``window`` (DTW's band) checked."""
    import numbers

    from ..exceptions import ParameterError
    from ._pairwise import _check_window

    c = params.get("c", 1.0)
    if (isinstance(c, bool) or not isinstance(c, numbers.Real) or not np.isfinite(c)
            or c <= 0):
        raise ParameterError(f"must be a number > 0 (the cost of a split or a merge; 1 "
                             f"suits z-normalised series, Stefan et al. tune it from 0.01 "
                             f"to 100); got {c!r}.", "c")
    return {"c": float(c), "window": _check_window(params.get("window"))}


def msm_distance(metric, X, Y, params, threads, progress):
    """The metric table's ``compute`` of ``"msm"``."""
    from ._objects import as_series

    p = msm_params(params)
    A = as_series(X, "X", "msm")
    B = A if Y is None else as_series(Y, "Y", "msm")
    if B.n_channels != A.n_channels:
        raise ValueError(f"X has {A.n_channels} channels and Y has {B.n_channels}; MSM "
                         "compares series with the same channels.")
    out = np.zeros((A.n, B.n))
    msm_pairs(A.points, A.offsets, B.points, B.offsets, Y is None, p["c"], p["window"], out,
              threads, progress)
    return out
