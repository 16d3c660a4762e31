# cython: language_level=3
"""Compiled loops for the dual without the equality constraint (private).

Problem (4) of Sha, Saul & Lee 2003 / (19) of Lin & Lin 2003: min F(a) = 1/2 a'Qa - e'a, 0 <= a <= C
(C may be +inf), Q = diag(y) K diag(y). Three families:

* ``munk_loop``: multiplicative updates (7) of Sha, Saul & Lee 2003, class A (y = +1) then class B, with
  the clip (8) for a finite C. Needs K >= 0 elementwise.
* ``m3_loop``: Sha-Saul-Lee multiplicative updates for min 1/2 v'Av + b'v, v >= 0, with
  A = A+ - A- split elementwise: v_i <- v_i (-b_i + sqrt(b_i^2 + 4 (A+v)_i (A-v)_i)) / (2 (A+v)_i).
* ``cd_loop``: one variable at a time (Kernel-Adatron with the exact rate 1/Q_ii). When
  Q_ii <= 0 the one-variable problem is concave and the step goes to the bound that lowers F
  (the one-variable form of Lin & Lin's (2003) rule (27)); with C = inf such a step is unbounded.

And ``lsvm_loop``, the Lagrangian SVM iteration of Mangasarian & Musicant (2001, Code 3) with a Cholesky factor.

Every loop runs without the GIL, records the objective, takes the GIL once per sweep to let
Ctrl-C through, and stops on the KKT residual of ``_kkt_and_objective`` (gradient units).
"""

from cpython.exc cimport PyErr_CheckSignals
from libc.math cimport sqrt, fabs, INFINITY, isfinite
from scipy.linalg.cython_blas cimport dgemv, dsymv
from scipy.linalg.cython_lapack cimport dpotrs

import numpy as np

cdef enum:
    ST_CONVERGED = 0
    ST_MAX_ITER = 1
    ST_UNBOUNDED = 2
    ST_STALLED = 3

cdef Py_ssize_t HISTORY_CAPACITY = 1024


cdef class _History:
    cdef long long[::1] it
    cdef double[::1] f
    cdef Py_ssize_t length
    cdef long long stride

    def __init__(self):
        self.it = np.zeros(HISTORY_CAPACITY + 1, dtype=np.int64)
        self.f = np.zeros(HISTORY_CAPACITY + 1)
        self.length = 0
        self.stride = 1

    cdef void record(self, long long k, double F) noexcept nogil:
        cdef Py_ssize_t j
        if k % self.stride != 0:
            return
        if self.length == HISTORY_CAPACITY:
            for j in range(HISTORY_CAPACITY // 2):
                self.it[j] = self.it[2 * j]
                self.f[j] = self.f[2 * j]
            self.length = HISTORY_CAPACITY // 2
            self.stride *= 2
            if k % self.stride != 0:
                return
        self.it[self.length] = k
        self.f[self.length] = F
        self.length += 1

    cdef void last(self, long long k, double F) noexcept nogil:
        if self.length > 0 and self.it[self.length - 1] == k:
            self.f[self.length - 1] = F
        else:
            self.it[self.length] = k
            self.f[self.length] = F
            self.length += 1

    def array(self):
        return np.column_stack([np.asarray(self.it[: self.length], dtype=np.float64),
                                np.asarray(self.f[: self.length])])


# Multiplicative updates shrink the non-support coefficients geometrically; below this they
# would turn subnormal (100x slower arithmetic) while no longer affecting any sum, so they are
# set to 0 (where a multiplicative update keeps them).
cdef double TINY = 1e-290


cdef inline double _clip(double v, double C) noexcept nogil:
    if v < TINY:
        return 0.0
    if v > C:
        return C
    return v


cdef double _kkt_and_objective(const double* a, const double* grad, const double* qd,
                               Py_ssize_t n, double C, double* F) noexcept nogil:
    """KKT residual of problem (4) in the units of the gradient; F = 1/2 a'(grad + 1) - e'a.

    Per variable strictly inside the box, ``Q_ii |a_i - clip(a_i - grad_i / Q_ii, 0, C)|``:
    ``|grad_i|`` away from the bounds, ``min(grad_i, Q_ii a_i)`` near the lower one, likewise
    near C. It does not change when the kernel is scaled (unlike the plain natural residual,
    which a kernel with huge values, such as (x'y + 1)^6, makes tiny at any point), it
    shrinks to 0 as a multiplicative update drives a coefficient to 0, and it is comparable
    with SMO's gap m - M. At a bound, the first-order condition itself: ``max(-grad_i, 0)`` at
    0, ``max(grad_i, 0)`` at C; ``|grad_i|`` inside for ``Q_ii <= 0`` (no Newton step). (At a
    bound the Newton form is at most ``Q_ii C``, and ``|a_i - clip(a_i - grad_i)|``, used
    before for ``Q_ii <= 0``, at most C: with ``Q_ii C < tol`` a run stopped at ``a = 0``, every
    gradient -1, after no sweep.)"""
    cdef Py_ssize_t i
    cdef double r, worst = 0.0, acc = 0.0, q
    for i in range(n):
        q = qd[i]
        if a[i] <= 0.0:
            r = -grad[i] if grad[i] < 0.0 else 0.0
        elif a[i] >= C:
            r = grad[i] if grad[i] > 0.0 else 0.0
        elif q > 0.0:
            r = q * fabs(a[i] - _clip(a[i] - grad[i] / q, C))
        else:
            r = fabs(grad[i])
        if r > worst:
            worst = r
        acc += a[i] * (grad[i] - 1.0)
    F[0] = 0.5 * acc
    return worst


cdef inline int _stop(double kkt, double tol, double F, double* Fold, double ftol, int* small,
                      long long k, long long max_iter) noexcept nogil:
    """The stopping rule of the multiplicative updates: a status, or -1 to go on."""
    if kkt <= tol:
        return ST_CONVERGED
    if not isfinite(F) or F < -1e300:
        return ST_UNBOUNDED
    if fabs(Fold[0] - F) <= ftol * fabs(F):
        small[0] += 1
        if small[0] >= 50:  # 50 iterations in a row without relative progress
            return ST_STALLED
    else:
        small[0] = 0
    Fold[0] = F
    if k >= max_iter:
        return ST_MAX_ITER
    return -1


cdef void _class_sums(const double* K, Py_ssize_t n, Py_ssize_t nA, const double* a,
                      double* zp, double* zm) noexcept nogil:
    """zp[j] = sum_{i in A} K_ij a_i and zm[j] = sum_{i in B} K_ij a_i for every j, for a
    C-ordered symmetric K whose first nA rows are class A: the rows of a class, read
    column-major, are the columns of an n x n_class matrix, so one dgemv each."""
    cdef int inc = 1, bn = <int>n, bA = <int>nA, bB = <int>(n - nA)
    cdef double one = 1.0, zero = 0.0
    cdef Py_ssize_t j
    if nA > 0:
        dgemv(b"N", &bn, &bA, &one, <double*>K, &bn, <double*>a, &inc, &zero, zp, &inc)
    else:
        for j in range(n):
            zp[j] = 0.0
    if nA < n:
        dgemv(b"N", &bn, &bB, &one, <double*>&K[nA * n], &bn, <double*>&a[nA], &inc, &zero,
              zm, &inc)
    else:
        for j in range(n):
            zm[j] = 0.0


def munk_loop(const double[:, ::1] K, Py_ssize_t nA, double C, double[::1] alpha, double tol,
              double ftol, long long max_iter):
    """MUNK (7)-(8) on K whose first nA rows/columns are class A (y = +1).

    ``alpha`` is updated in place. Returns (n_iter, status, kkt, objective, history)."""
    cdef Py_ssize_t n = K.shape[0], nB = n - nA, i
    cdef int inc = 1, bn = <int>n, bA = <int>nA, bB = <int>nB
    cdef double one = 1.0, zero = 0.0, kkt = INFINITY, F = 0.0, Fold = INFINITY
    cdef double[::1] zp = np.empty(n), zm = np.empty(n), grad = np.empty(n)
    cdef double[::1] qd = np.ascontiguousarray(np.diagonal(np.asarray(K)))
    cdef long long k = 0
    cdef int status = ST_MAX_ITER, small = 0
    cdef _History hist = _History()
    cdef double* a = &alpha[0]
    with nogil:
        while True:
            _class_sums(&K[0, 0], n, nA, a, &zp[0], &zm[0])
            # grad = Q a - e with Q a = [K_AA a_A - K_AB a_B ; K_BB a_B - K_BA a_A]
            for i in range(nA):
                grad[i] = zp[i] - zm[i] - 1.0
            for i in range(nA, n):
                grad[i] = zm[i] - zp[i] - 1.0
            kkt = _kkt_and_objective(a, &grad[0], &qd[0], n, C, &F)
            hist.record(k, F)
            status = _stop(kkt, tol, F, &Fold, ftol, &small, k, max_iter)
            if status >= 0:
                break
            # class A: a_A <- a_A (K_AB a_B + 1) / (K_AA a_A), clipped at C
            for i in range(nA):
                if zp[i] > 0.0:
                    a[i] = _clip(a[i] * (zm[i] + 1.0) / zp[i], C)
            # class B with the new a_A: a_B <- a_B (K_BA a_A + 1) / (K_BB a_B)
            if nA > 0 and nB > 0:
                dgemv(b"N", &bB, &bA, &one, &K[0, nA], &bn, a, &inc, &zero, &zp[nA], &inc)
            for i in range(nA, n):
                if zm[i] > 0.0:
                    a[i] = _clip(a[i] * (zp[i] + 1.0) / zm[i], C)
            k += 1
            with gil:
                PyErr_CheckSignals()
        hist.last(k, F)
    return k, status, kkt, F, hist.array()


def m3_loop(const double[:, ::1] P, const double[:, ::1] N, Py_ssize_t nA, double C,
            double[::1] alpha, double tol, double ftol, long long max_iter):
    """M3 updates for min 1/2 a'(A+ - A-)a - e'a, a >= 0 (b = -e), clipped at C.

    Two layouts. ``nA >= 0``: ``P`` is a non-negative K with class A (y = +1) in its first nA
    rows, so A+ a is the same-class part and A- a the cross-class part of one pass over K
    (``N`` unused). ``nA < 0``: ``P = max(Q, 0)`` and ``N = max(-Q, 0)`` explicitly."""
    cdef Py_ssize_t n = P.shape[0], i
    cdef int inc = 1, bn = <int>n
    cdef double one = 1.0, zero = 0.0, kkt = INFINITY, F = 0.0, Fold = INFINITY, ap, am
    cdef double[::1] zp = np.empty(n), zm = np.empty(n), grad = np.empty(n)
    cdef double[::1] pos = np.empty(n), neg = np.empty(n)
    cdef double[::1] qd = np.ascontiguousarray(
        np.diagonal(np.asarray(P)) - (np.diagonal(np.asarray(N)) if nA < 0 else 0.0))
    cdef long long k = 0
    cdef int status = ST_MAX_ITER, small = 0
    cdef _History hist = _History()
    cdef double* a = &alpha[0]
    with nogil:
        while True:
            if nA < 0:
                dgemv(b"T", &bn, &bn, &one, &P[0, 0], &bn, a, &inc, &zero, &pos[0], &inc)
                dgemv(b"T", &bn, &bn, &one, &N[0, 0], &bn, a, &inc, &zero, &neg[0], &inc)
            else:
                _class_sums(&P[0, 0], n, nA, a, &zp[0], &zm[0])
                for i in range(n):
                    if i < nA:
                        pos[i] = zp[i]
                        neg[i] = zm[i]
                    else:
                        pos[i] = zm[i]
                        neg[i] = zp[i]
            for i in range(n):
                grad[i] = pos[i] - neg[i] - 1.0
            kkt = _kkt_and_objective(a, &grad[0], &qd[0], n, C, &F)
            hist.record(k, F)
            status = _stop(kkt, tol, F, &Fold, ftol, &small, k, max_iter)
            if status >= 0:
                break
            for i in range(n):
                ap = pos[i]
                am = neg[i]
                if ap > 0.0:
                    a[i] = _clip(a[i] * (1.0 + sqrt(1.0 + 4.0 * ap * am)) / (2.0 * ap), C)
            k += 1
            with gil:
                PyErr_CheckSignals()
        hist.last(k, F)
    return k, status, kkt, F, hist.array()


def cd_loop(const double[:, ::1] K, const double[::1] y, double C, double[::1] alpha,
            double tol, long long max_iter):
    """Coordinate descent on problem (4)/(19); max_iter counts sweeps over all variables."""
    cdef Py_ssize_t n = K.shape[0], i, t
    cdef double kkt = INFINITY, F = 0.0, gi, qii, new, d, f0, fC, yi
    cdef double[::1] grad = np.empty(n)
    cdef double[::1] qd = np.ascontiguousarray(np.diagonal(np.asarray(K)))
    cdef long long k = 0
    cdef int status = ST_MAX_ITER
    cdef Py_ssize_t bad = -1
    cdef _History hist = _History()
    cdef double* a = &alpha[0]
    with nogil:
        for i in range(n):  # grad = Q a - e
            gi = 0.0
            for t in range(n):
                if a[t] != 0.0:
                    gi += K[i, t] * y[t] * a[t]
            grad[i] = y[i] * gi - 1.0
        while True:
            kkt = _kkt_and_objective(a, &grad[0], &qd[0], n, C, &F)
            hist.record(k, F)
            if kkt <= tol:
                status = ST_CONVERGED
                break
            if not isfinite(F) or F < -1e300:
                status = ST_UNBOUNDED  # diverging with C = inf
                break
            if k >= max_iter:
                break
            for i in range(n):
                gi = grad[i]
                qii = K[i, i]
                if qii > 0.0:
                    new = _clip(a[i] - gi / qii, C)
                else:
                    # concave (or linear) in a_i: the better bound, both if C is finite
                    if C == INFINITY:
                        if gi < 0.0 or qii < 0.0:
                            bad = i
                            break
                        new = 0.0
                    else:
                        d = 0.0 - a[i]
                        f0 = gi * d + 0.5 * qii * d * d
                        d = C - a[i]
                        fC = gi * d + 0.5 * qii * d * d
                        new = 0.0 if f0 <= fC else C
                d = new - a[i]
                if d != 0.0:
                    a[i] = new
                    yi = y[i] * d
                    for t in range(n):
                        grad[t] += y[t] * K[t, i] * yi
            if bad >= 0:
                status = ST_UNBOUNDED
                break
            k += 1
            with gil:
                PyErr_CheckSignals()
        hist.last(k, F)
    return k, status, kkt, F, hist.array(), bad


def lsvm_loop(double[:, ::1] Q, double[:, ::1] L, double rate, double tol, long long max_iter,
              double[::1] u, bint fresh=True):
    """Lagrangian SVM iteration u <- Q^{-1} (e + ((Qu - e) - rate u)_+).

    ``L`` holds the Cholesky factor of Q from LAPACK dpotrf (column-major lower, i.e. this
    C-ordered array read column-major). ``u`` is overwritten; with ``fresh`` it starts at
    Q^{-1} e, otherwise from its value. Stops when a step moves u by at most ``tol``, after
    ``max_iter`` steps, or when u stops being finite (a diverging iteration). Returns
    (n_iter, step criterion met, last step norm, history of the objective 1/2 u'Qu - e'u,
    diverged)."""
    cdef Py_ssize_t n = Q.shape[0], i
    cdef int inc = 1, bn = <int>n, nrhs = 1, info = 0
    cdef double one = 1.0, zero = 0.0, step = INFINITY, F = 0.0, acc, v
    cdef double[::1] w = np.empty(n), old = np.empty(n)
    cdef long long k = 0
    cdef bint converged = False, diverged = False
    cdef _History hist = _History()
    with nogil:
        if fresh:
            for i in range(n):
                u[i] = 1.0
            dpotrs(b"L", &bn, &nrhs, &L[0, 0], &bn, &u[0], &bn, &info)  # u = Q^{-1} e
        while True:
            dsymv(b"L", &bn, &one, &Q[0, 0], &bn, &u[0], &inc, &zero, &w[0], &inc)
            acc = 0.0
            for i in range(n):
                acc += u[i] * (0.5 * w[i] - 1.0)
            F = acc
            hist.record(k, F)
            if not (F == F and F < INFINITY and F > -INFINITY):
                diverged = True
                break
            if step <= tol:
                converged = True
                break
            if k >= max_iter:
                break
            for i in range(n):
                old[i] = u[i]
                v = (w[i] - 1.0) - rate * u[i]
                u[i] = 1.0 + (v if v > 0.0 else 0.0)
            dpotrs(b"L", &bn, &nrhs, &L[0, 0], &bn, &u[0], &bn, &info)
            acc = 0.0
            for i in range(n):
                acc += (u[i] - old[i]) * (u[i] - old[i])
            step = sqrt(acc)
            k += 1
            if k % 16 == 0:
                with gil:
                    PyErr_CheckSignals()
        hist.last(k, F)
    return k, converged, step, F, hist.array(), diverged
