# The kernels the compiled code evaluates itself: their codes and their element formulas,
# written once and inlined into the column cache (_kcache.pyx) and the kernel blocks
# (_kblocks.pyx), so that a column of the solver, a decision value and a Nystroem block hold
# the same number for the same pair (exp and tanh by the vectorised loops of _vmath.h).

from libc.math cimport fabs, sqrt


cdef enum KernelKind:
    KIND_PRECOMPUTED = 0
    KIND_LINEAR = 1
    KIND_POLYNOMIAL = 2
    KIND_RBF = 3
    KIND_SIGMOID = 4
    # the distance kernels, exp(-gamma distance_arg): every code from here on
    KIND_L1_GAUSSIAN = 5
    KIND_SQRT_L1_EXPONENTIAL = 6
    KIND_SYMMETRIC_KL = 7


cdef extern from "_vmath.h" nogil:
    double ix_exp_core(double x)
    double ix_tanh_core(double z)
    void ix_exp_scaled(const double* v, double scale, double* out, Py_ssize_t m)
    void ix_tanh_affine(const double* v, double a, double b, double* out, Py_ssize_t m)
    void ix_rbf_from_dot(const double* dot, const double* sq, double sqi, double gamma,
                         double* out, Py_ssize_t m)
    void ix_dot_rows(const double* X, Py_ssize_t d, const double* xi, double* out,
                     Py_ssize_t m)



cdef inline void kernel_from_dots(int kind, double* out, Py_ssize_t m, const double* sq,
                                   double sqi, double gamma, double coef0,
                                   int degree) noexcept nogil:
    """Dot products -> kernel values in place, for the dot-product kernels and rbf (sq: the
    other points' squared norms, sqi: this point's; rbf only)."""
    cdef Py_ssize_t t, k
    cdef double v, base
    if kind == KIND_LINEAR:
        return
    if kind == KIND_POLYNOMIAL:
        for t in range(m):
            base = gamma * out[t] + coef0
            v = 1.0
            for k in range(degree):
                v *= base
            out[t] = v
        return
    if kind == KIND_SIGMOID:
        ix_tanh_affine(out, gamma, coef0, out, m)
        return
    # rbf: ||a - b||^2 = |a|^2 + |b|^2 - 2 a.b, clipped at 0 against rounding
    ix_rbf_from_dot(out, sq, sqi, gamma, out, m)


cdef inline double distance_arg(int kind, const double* s, const double* x,
                                const double* ls, Py_ssize_t ls_at, const double* lx,
                                Py_ssize_t lx_at, Py_ssize_t d) noexcept nogil:
    """The argument of exp(-gamma .) of a distance kernel between rows s and x: the
    symmetric KL divergence (with the rows' logs from ls[ls_at], lx[lx_at]; read only for
    that kernel, placeholders otherwise), the squared L1 distance or its square root."""
    cdef Py_ssize_t k
    cdef double acc = 0.0
    if kind == KIND_SYMMETRIC_KL:
        for k in range(d):
            acc += (s[k] - x[k]) * (ls[ls_at + k] - lx[lx_at + k])
        return acc
    for k in range(d):
        acc += fabs(s[k] - x[k])
    return acc * acc if kind == KIND_L1_GAUSSIAN else sqrt(acc)


cdef inline double kernel_from_dot(int kind, double dot, double sqi, double sqj, double gamma,
                                   double coef0, int degree) noexcept nogil:
    """One value of a dot-product kernel or rbf from the dot product (sqi, sqj: the two
    squared norms, rbf only): the scalar twin of kernel_from_dots, by the same formulas."""
    cdef int k
    cdef double v = 1.0, d2
    if kind == KIND_LINEAR:
        return dot
    if kind == KIND_POLYNOMIAL:
        for k in range(degree):
            v *= gamma * dot + coef0
        return v
    if kind == KIND_SIGMOID:
        return ix_tanh_core(gamma * dot + coef0)
    # rbf, written as the columns compute it so that a diagonal entry is exactly 1
    d2 = sqi + sqj - 2.0 * dot
    if d2 < 0.0:
        d2 = 0.0
    return ix_exp_core(-gamma * d2)
