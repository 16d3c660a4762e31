# The inner steps of the SMO loop (_smo.pyx), inlined there: gradient updates with one or two
# kernel columns (stored as float32 or float64) and the working-set selection of LIBSVM's
# first- and second-order rules (Fan, Chen & Lin 2005), whose vectorised passes are in _wss.h.

from libc.math cimport INFINITY, fabs, frexp, ilogb, ldexp


ctypedef fused col_t:
    float
    double


# second-order selection uses tau in place of a non-positive curvature (Fan, Chen & Lin 2005):
# 1e-12 (LIBSVM's) for a kernel whose largest |K_ii| is in [1, 2), scaled by the power of two
# of that largest |K_ii| otherwise, so that a kernel times 2^k (with C times 2^-k) is the same
# problem step for step. An absolute tau made concave pairs (-b^2 / tau) lose to convex ones
# of curvature below 1e-12 on a kernel near 1e-9, and the SMO then took other steps
cdef inline double _scaled_tau(const double* diag, Py_ssize_t n) noexcept nogil:
    cdef double top = 0.0, tau = 1e-12
    cdef Py_ssize_t t
    cdef int e
    for t in range(n):
        if fabs(diag[t]) > top:
            top = fabs(diag[t])
    if top > 0.0 and top < INFINITY:
        frexp(top, &e)
        tau = ldexp(tau, e - 1)  # top in [2^(e-1), 2^e)
    return tau


cdef inline void _sub2(double* g, const col_t* a, const col_t* b, double da, double db,
                       Py_ssize_t m) noexcept nogil:
    cdef Py_ssize_t t
    for t in range(m):
        g[t] -= da * a[t] + db * b[t]


cdef inline void _axpy(double* g, const col_t* a, double da, Py_ssize_t start,
                       Py_ssize_t end) noexcept nogil:
    cdef Py_ssize_t t
    for t in range(start, end):
        g[t] += da * a[t]


cdef inline double _free_dot(const col_t* col, const double* coef, Py_ssize_t act) noexcept nogil:
    # coef[s] = y_s alpha_s for free s, 0 otherwise
    cdef Py_ssize_t s
    cdef double acc = 0.0
    for s in range(act):
        acc += coef[s] * col[s]
    return acc


cdef extern from "_wss.h" nogil:
    double ix_max_plus(const double* g, const double* off, Py_ssize_t n)
    double ix_second_order_d(const double* K, const double* g, const double* low_off,
                             const double* diag, double di, double gmax, double tau,
                             Py_ssize_t n, double* obj, double* gmin_out)
    double ix_second_order_f(const float* K, const double* g, const double* low_off,
                             const double* diag, double di, double gmax, double tau,
                             Py_ssize_t n, double* obj, double* gmin_out)


cdef inline Py_ssize_t _first_order_max(const double* g, const double* off, Py_ssize_t act,
                                        double* gmax_out) noexcept nogil:
    """Last t maximising g[t] + off[t] (off = 0 inside the index set, -inf outside), or -1.

    Two passes: a vectorised max reduction (_wss.h), then a backward search."""
    cdef Py_ssize_t t
    cdef double gmax = ix_max_plus(g, off, act)
    gmax_out[0] = gmax
    if gmax == -INFINITY:
        return -1
    t = act - 1
    while t > 0 and g[t] + off[t] != gmax:
        t -= 1
    return t


cdef inline Py_ssize_t _second_order_j(const col_t* Ki, const double* g, const double* low_off,
                                       const double* diag, double di, double gmax,
                                       double tau, Py_ssize_t act, double* obj,
                                       double* gmin_out) noexcept nogil:
    """j of the second-order rule (the last t minimising -b^2/a over I_low with b > 0) and
    min g over I_low. t outside I_low reads g + inf, so b = -inf and it is never chosen; the
    vectorised first pass (_wss.h) stores the objective values for the backward search."""
    cdef Py_ssize_t t
    cdef double best, inv, b, a, o
    if col_t is float:
        best = ix_second_order_f(Ki, g, low_off, diag, di, gmax, tau, act, obj, gmin_out)
    else:
        best = ix_second_order_d(Ki, g, low_off, diag, di, gmax, tau, act, obj, gmin_out)
    if best == -INFINITY and gmax - gmin_out[0] < INFINITY:
        # b^2 overflowed (gradients past 1e154: a kernel near 1e300 with C = 1), and every
        # such candidate scored -inf: the last was taken, and SMO stalled far from the
        # optimum. The scan again on b / 2^k <= 1 (the same order, no overflow), here and
        # not in the vectorised scan, which stays as it is for every other problem.
        inv = ldexp(1.0, -(ilogb(gmax - gmin_out[0]) + 1))
        best = INFINITY
        for t in range(act):
            b = (gmax - (g[t] + low_off[t])) * inv
            a = di + diag[t] - 2.0 * <double>Ki[t]
            if not a > 0.0:
                a = tau
            o = -(b * b) / a if b > 0.0 else INFINITY
            obj[t] = o
            if o < best:
                best = o
    if best == INFINITY:
        return -1
    t = act - 1
    while t > 0 and obj[t] != best:
        t -= 1
    return t

