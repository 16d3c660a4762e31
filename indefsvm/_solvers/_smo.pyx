# cython: language_level=3
"""Compiled SMO loop for C-SVC with possibly indefinite kernels (private).

Problem (2) of Lin & Lin: min F(a) = 1/2 a'Qa - e'a, 0 <= a <= C, y'a = 0, Q = diag(y) K diag(y).
The same loop solves min 1/2 a'Qa + p'a with any linear term p, and, with ``same_class``, the
nu-SVM form with one equality constraint per class (sum of a over each class fixed): pairs are
then chosen inside one class, which is how the convex-hull dual (CH-DU) of Haasdonk 2005 is solved.

Notation inside this file: ``g[t] = -y_t * grad F(a)_t``. Then

* I_up = {t : a_t < C, y_t = +1  or  a_t > 0, y_t = -1},
  I_low = {t : a_t < C, y_t = -1  or  a_t > 0, y_t = +1},
* m = max_{I_up} g, M = min_{I_low} g, and a is stationary iff m - M <= 0 (21),
* moving u_t = y_t a_t by +delta at i and -delta at j changes F by
  -delta (g_i - g_j) + delta^2 a_ij / 2 with a_ij = K_ii + K_jj - 2 K_ij,
* the gradient update is g_t -= d_i K_ti + d_j K_tj with d_s = y_s * (change of a_s).

The sub-problem is solved by rule (27): the clipped Newton step when a_ij > 0, otherwise the
step to the bound, which is what makes F strictly decrease for indefinite K (Lemma 3) and
removes the stall of section 6 (a_i = a_j = 0, y_i != y_j, a_ij < 0).

The loop runs without the GIL; it takes the GIL every few hundred iterations only to let
Python handle signals, so Ctrl-C raises KeyboardInterrupt promptly.

Kernel columns come from the cache as float32 or float64. With float32 columns (LIBSVM's
choice: half the memory and bandwidth) the gradient is still kept in float64, but it is built
from rounded kernel entries, so the loop's own gap can differ from the true one by about
2^-24 |K| sum(alpha) -- more than tol when C is large. The solve therefore ends with a
*polish*: the gradient is recomputed from float64 kernel columns, the true gap checked, and,
if it exceeds tol, the loop continues from the exact gradient (each further round only
recomputes the columns of the variables that moved). ``converged`` always refers to the
float64 gradient.
"""

from cpython.exc cimport PyErr_CheckSignals
from cython.parallel cimport prange, threadid
from libc.math cimport INFINITY, fabs, frexp, ldexp

from indefsvm._solvers._kcache cimport KernelCache

cimport cython
from libc.stdlib cimport free, malloc

import numpy as np
from time import monotonic as _monotonic

cdef enum:
    AT_LOWER = 0
    AT_UPPER = 1
    IS_FREE = 2

# flags[t]: bit 1 = t in I_up, bit 2 = t in I_low (kept with the status, read branch-free)
cdef enum:
    IN_UP = 1
    IN_LOW = 2

cdef enum:
    STATUS_CONVERGED = 0
    STATUS_MAX_ITER = 1
    STATUS_UNBOUNDED = 2
    STATUS_STOPPED = 3
    STATUS_STALLED = 4

# kernel entries (about) between two looks at pending signals (Ctrl-C): an iteration costs
# O(n) or a few kernel columns, so look every max(1, SIGNAL_WORK / n) iterations -- well under
# a second between looks for any n, and a negligible cost (taking the GIL is ~1 us)
cdef long long SIGNAL_WORK = 1 << 18
cdef Py_ssize_t HISTORY_CAPACITY = 1024
# iterations without progress (objective or gap) before the loop calls itself stalled:
# max(STALL_PATIENCE, 10 n)
cdef long long STALL_PATIENCE = 10000
# float64 polish rounds after a float32 solve (one or two are the rule: each round starts from
# the exact gradient and moves alpha only a little)
cdef int MAX_POLISH_ROUNDS = 20


from indefsvm._solvers._smo_steps cimport (_axpy, _first_order_max, _free_dot, _scaled_tau,
                                           _second_order_j, _sub2)


@cython.final
cdef class SMOSolver:
    cdef KernelCache kc
    cdef Py_ssize_t n
    cdef Py_ssize_t cap_n          # capacity: the largest problem reset() accepts
    cdef Py_ssize_t active
    cdef double[::1] Cv            # upper bound of each variable (C_i of the general dual)
    cdef double tol
    cdef double tau                # _scaled_tau of this problem's kernel (_solve)
    cdef double[::1] y
    cdef double[::1] alpha
    cdef double[::1] g
    cdef double[::1] gbar
    cdef double[::1] g0            # -y_t p_t: the gradient term of the linear part
    cdef signed char[::1] status
    cdef unsigned char[::1] flags
    cdef double[::1] up_off        # 0 for t in I_up, -inf otherwise
    cdef double[::1] low_off       # 0 for t in I_low, +inf otherwise
    cdef double[::1] obj           # scratch of the working-set selection
    cdef Py_ssize_t[::1] swaps     # the pairs of positions one shrink swaps, in order
    cdef Py_ssize_t n_swaps
    cdef bint f32
    cdef bint polishing
    cdef double[::1] g_ref         # float64 gradient at alpha_ref (float32 columns only)
    cdef double[::1] gbar_ref
    cdef double[::1] alpha_ref
    cdef double[::1] coef          # scratch: y_s alpha_s of the free variables
    cdef public int n_polish
    cdef bint shrinking
    cdef bint second_order
    cdef bint same_class
    cdef bint has_inf_C            # some bound is infinite (hard margin): F may diverge
    cdef bint unshrunk
    cdef long long max_iter
    cdef public long long n_iter
    cdef public long long n_concave
    cdef double F
    cdef long long[::1] hist_it
    cdef double[::1] hist_f
    cdef Py_ssize_t hist_len
    cdef long long hist_stride
    cdef public double gap
    cdef public double m_up
    cdef public double M_low
    cdef public int status_code
    cdef public Py_ssize_t bad_i
    cdef public Py_ssize_t bad_j
    # progress(n_iter, objective, gap, seconds) is called at most every report_every seconds
    # from the loop's signal look (which holds the GIL anyway): no cost when it is None
    cdef public object progress
    cdef public double report_every
    cdef double t_start
    cdef double t_last
    # solve_tasks: the task being solved, a progress callback that is told it
    # (progress_task(task, n_iter, objective, gap, seconds)), and the flag shared by the
    # solvers of one call: set when one of them stops on an exception (Ctrl-C is seen by the
    # main thread only), read by the others at their signal look
    cdef public Py_ssize_t task
    cdef public object progress_task
    cdef int[::1] stop_ref

    def __init__(self, KernelCache kc, y, alpha0, C, double tol, bint second_order,
                 bint shrinking, long long max_iter, p=None, bint same_class=False):
        # y's length is also the capacity: reset() can later load any problem of at most
        # that many variables (with a kernel cache of at least that capacity)
        cdef Py_ssize_t n = y.shape[0]
        self.kc = kc
        self.cap_n = n
        self.tol = tol
        self.Cv = np.empty(n)
        self.y = np.empty(n)
        self.alpha = np.empty(n)
        self.g = np.empty(n)
        self.gbar = np.zeros(n)
        self.g0 = np.empty(n)
        self.same_class = same_class
        self.status = np.empty(n, dtype=np.int8)
        self.flags = np.empty(n, dtype=np.uint8)
        self.up_off = np.empty(n)
        self.low_off = np.empty(n)
        self.obj = np.empty(n)
        # a shrink swaps each position at most once with one further on: at most n / 2 pairs
        self.swaps = np.empty(n + 2, dtype=np.intp)
        self.n_swaps = 0
        self.f32 = kc.f32
        self.coef = np.zeros(n)
        m_ref = n if self.f32 else 1
        self.g_ref = np.zeros(m_ref)
        self.gbar_ref = np.zeros(m_ref)
        self.alpha_ref = np.zeros(m_ref)
        # shrinking: with same_class each class by its own m and M (one multiplier per class)
        self.shrinking = shrinking
        self.second_order = second_order
        self.max_iter = max_iter
        self.hist_it = np.zeros(HISTORY_CAPACITY + 1, dtype=np.int64)
        self.hist_f = np.zeros(HISTORY_CAPACITY + 1)
        self.progress = None
        self.report_every = 5.0
        self.t_start = 0.0
        self.t_last = 0.0
        self.task = -1
        self.progress_task = None
        self.stop_ref = np.zeros(1, dtype=np.intc)
        # C: one bound for all, or C_i per variable (class and sample weights, LIBSVM's form)
        cdef const double[::1] Cb = np.ascontiguousarray(
            np.broadcast_to(np.asarray(C, dtype=np.float64), (n,)))
        cdef const double[::1] yv = np.ascontiguousarray(y, dtype=np.float64)
        cdef const double[::1] av = np.ascontiguousarray(alpha0, dtype=np.float64)
        cdef const double[::1] pv = (np.zeros(1) if p is None
                                     else np.ascontiguousarray(p, dtype=np.float64))
        if n > 0:
            self.reset(&yv[0], &av[0], &Cb[0], NULL if p is None else &pv[0], n)

    cdef int reset(self, const double* y, const double* alpha0, const double* C,
                   const double* p, Py_ssize_t m) except -1 nogil:
        """Load a new problem of m variables (labels, start, bounds, linear term p or NULL
        for p = -e); the kernel cache is reset by the caller."""
        cdef Py_ssize_t t
        if m > self.cap_n:
            with gil:
                raise ValueError("a problem larger than the solver's capacity")
        self.n = m
        self.active = m
        self.has_inf_C = False
        for t in range(m):
            if C[t] == INFINITY:
                self.has_inf_C = True
            self.y[t] = y[t]
            self.alpha[t] = alpha0[t]
            self.Cv[t] = C[t]
            self.g0[t] = y[t] if p == NULL else -y[t] * p[t]
            self.gbar[t] = 0.0
            self.coef[t] = 0.0
            if self.f32:
                self.g_ref[t] = 0.0
                self.gbar_ref[t] = 0.0
                self.alpha_ref[t] = 0.0
            self._set_status(t)
        self.polishing = False
        self.n_polish = 0
        self.unshrunk = False
        self.n_iter = 0
        self.n_concave = 0
        self.hist_len = 0
        self.hist_stride = 1
        self.status_code = STATUS_MAX_ITER
        self.bad_i = -1
        self.bad_j = -1
        self.gap = INFINITY
        self.m_up = -INFINITY
        self.M_low = INFINITY
        self.F = 0.0
        return 0

    cdef inline void _set_status(self, Py_ssize_t t) noexcept nogil:
        cdef signed char st
        if self.alpha[t] >= self.Cv[t]:
            st = AT_UPPER
        elif self.alpha[t] <= 0.0:
            st = AT_LOWER
        else:
            st = IS_FREE
        self.status[t] = st
        # I_up: y = +1 and not at C, or y = -1 and not at 0; I_low the other way round
        if self.y[t] > 0:
            self.flags[t] = (IN_UP if st != AT_UPPER else 0) | (IN_LOW if st != AT_LOWER else 0)
        else:
            self.flags[t] = (IN_UP if st != AT_LOWER else 0) | (IN_LOW if st != AT_UPPER else 0)
        self.up_off[t] = 0.0 if self.flags[t] & IN_UP else -INFINITY
        self.low_off[t] = 0.0 if self.flags[t] & IN_LOW else INFINITY

    cdef inline bint _in_up(self, Py_ssize_t t) noexcept nogil:
        return self.flags[t] & IN_UP

    cdef inline bint _in_low(self, Py_ssize_t t) noexcept nogil:
        return self.flags[t] & IN_LOW

    cdef void _swap(self, Py_ssize_t i, Py_ssize_t j) noexcept nogil:
        """Swap positions i and j of the problem; the cached columns' entries are left to
        the caller (``kc.swap_entries`` with the pairs in ``swaps``, once per shrink)."""
        cdef double tmp
        cdef signed char st
        self.kc.swap_index(i, j)
        self.swaps[2 * self.n_swaps] = i
        self.swaps[2 * self.n_swaps + 1] = j
        self.n_swaps += 1
        tmp = self.y[i]; self.y[i] = self.y[j]; self.y[j] = tmp
        tmp = self.alpha[i]; self.alpha[i] = self.alpha[j]; self.alpha[j] = tmp
        tmp = self.g[i]; self.g[i] = self.g[j]; self.g[j] = tmp
        tmp = self.gbar[i]; self.gbar[i] = self.gbar[j]; self.gbar[j] = tmp
        tmp = self.g0[i]; self.g0[i] = self.g0[j]; self.g0[j] = tmp
        tmp = self.Cv[i]; self.Cv[i] = self.Cv[j]; self.Cv[j] = tmp
        st = self.status[i]; self.status[i] = self.status[j]; self.status[j] = st
        st = self.flags[i]; self.flags[i] = self.flags[j]; self.flags[j] = st
        tmp = self.up_off[i]; self.up_off[i] = self.up_off[j]; self.up_off[j] = tmp
        tmp = self.low_off[i]; self.low_off[i] = self.low_off[j]; self.low_off[j] = tmp
        if self.f32:
            tmp = self.g_ref[i]; self.g_ref[i] = self.g_ref[j]; self.g_ref[j] = tmp
            tmp = self.gbar_ref[i]; self.gbar_ref[i] = self.gbar_ref[j]; self.gbar_ref[j] = tmp
            tmp = self.alpha_ref[i]; self.alpha_ref[i] = self.alpha_ref[j]
            self.alpha_ref[j] = tmp

    cdef int _exact_gradient(self) except -1 nogil:
        """g and gbar from scratch over all n samples (columns of the support vectors).

        Columns come from the cache, so with float32 storage this is the float gradient the
        loop works with; ``_polish`` recomputes it in float64."""
        cdef Py_ssize_t s, t, n = self.n, done = 0
        cdef void* col
        cdef double coef
        for t in range(n):
            self.g[t] = self.g0[t]
            self.gbar[t] = 0.0
        for s in range(n):
            if self.alpha[s] <= 0.0:
                continue
            col = self._col(s, n)
            coef = -self.y[s] * self.alpha[s]
            if self.f32:
                _axpy(&self.g[0], <float*>col, coef, 0, n)
            else:
                _axpy(&self.g[0], <double*>col, coef, 0, n)
            if self.shrinking and self.status[s] == AT_UPPER:
                coef = -self.y[s] * self.Cv[s]
                if self.f32:
                    _axpy(&self.gbar[0], <float*>col, coef, 0, n)
                else:
                    _axpy(&self.gbar[0], <double*>col, coef, 0, n)
            done += 1
            if done % 64 == 0:
                with gil:
                    PyErr_CheckSignals()
        return 0

    cdef int _polish(self) except -1 nogil:
        """Replace g and gbar by their values from float64 kernel columns (float32 storage).

        The first call sums the columns of all support vectors; later calls add the change
        since the previous call, over the variables that moved only."""
        cdef Py_ssize_t s, t, n = self.n
        cdef bint first = not self.polishing
        cdef bint up_now, up_ref
        cdef double* g = &self.g_ref[0]
        cdef double* gb = &self.gbar_ref[0]
        cdef double* c1 = <double*>malloc(n * sizeof(double))
        cdef double* c2 = <double*>malloc(n * sizeof(double))
        if c1 == NULL or c2 == NULL:
            free(c1)
            free(c2)
            with gil:
                raise MemoryError()
        try:
            if first:
                for t in range(n):
                    g[t] = self.g0[t]
                    gb[t] = 0.0
                    self.alpha_ref[t] = 0.0
            for s in range(n):
                # g = g0 - sum_s y_s alpha_s K_s and gbar = -sum_{s at C} C y_s K_s
                c1[s] = -self.y[s] * (self.alpha[s] - self.alpha_ref[s])
                up_now = self.alpha[s] >= self.Cv[s]
                up_ref = self.alpha_ref[s] >= self.Cv[s] and not first
                c2[s] = 0.0
                if self.shrinking and up_now != up_ref:
                    c2[s] = -self.y[s] * self.Cv[s] if up_now else self.y[s] * self.Cv[s]
                self.alpha_ref[s] = self.alpha[s]
            self.kc.exact_product(c1, c2, g, gb)
        finally:
            free(c1)
            free(c2)
        for t in range(n):
            self.g[t] = g[t]
            if self.shrinking:
                self.gbar[t] = gb[t]
        self.polishing = True
        self.n_polish += 1
        return 0

    cdef int _reconstruct(self) except -1 nogil:
        """Bring the gradient of the shrunk variables up to date (they are all at bounds)."""
        cdef Py_ssize_t t, s, n = self.n, act = self.active, n_free = 0
        cdef void* col
        cdef double* coef = &self.coef[0]
        if act == n:
            return 0
        for t in range(act, n):
            self.g[t] = self.gbar[t] + self.g0[t]
        for s in range(act):
            if self.status[s] == IS_FREE:
                n_free += 1
                coef[s] = self.y[s] * self.alpha[s]
            else:
                coef[s] = 0.0
        # two ways to add the free variables' part; take the one with fewer kernel entries
        if n_free * n <= 2 * act * (n - act):
            for s in range(act):
                if self.status[s] == IS_FREE:
                    col = self._col(s, n)
                    if self.f32:
                        _axpy(&self.g[0], <float*>col, -coef[s], act, n)
                    else:
                        _axpy(&self.g[0], <double*>col, -coef[s], act, n)
        else:
            for t in range(act, n):
                col = self._col(t, act)
                if self.f32:
                    self.g[t] -= _free_dot(<float*>col, coef, act)
                else:
                    self.g[t] -= _free_dot(<double*>col, coef, act)
                if (t - act) % 256 == 255:
                    with gil:
                        PyErr_CheckSignals()
        return 0

    cdef void* _col(self, Py_ssize_t i, Py_ssize_t L) except NULL nogil:
        cdef void* c = self.kc.column(i, L)
        if c == NULL:
            with gil:
                raise MemoryError(
                    "no memory for a kernel column; give a smaller cache_size")
        return c

    cdef inline double _entry(self, void* col, Py_ssize_t t) noexcept nogil:
        if self.f32:
            return (<float*>col)[t]
        return (<double*>col)[t]

    cdef int _select_same_class(self, Py_ssize_t* out_i, Py_ssize_t* out_j) except -1 nogil:
        """Working set inside one class (one equality constraint per class): i maximises g
        over I_up of its class, j is chosen in I_low of the same class by the first- or
        second-order rule; the class with the better pair wins. True when both classes'
        gaps m_s - M_s are <= tol."""
        cdef Py_ssize_t t, c, act = self.active, j = -1, jc = -1
        cdef Py_ssize_t ic[2]
        cdef double gmax[2]
        cdef double gmin[2]
        cdef double b, a, obj, best = INFINITY, gap0, gap1
        cdef void* Kc[2]
        cdef const double* g = &self.g[0]
        cdef const double* y = &self.y[0]
        cdef const unsigned char* fl = &self.flags[0]
        cdef const double* diag = &self.kc.diag[0]
        ic[0] = -1; ic[1] = -1
        gmax[0] = -INFINITY; gmax[1] = -INFINITY
        gmin[0] = INFINITY; gmin[1] = INFINITY
        for t in range(act):
            c = 0 if y[t] > 0 else 1
            if (fl[t] & IN_UP) and g[t] >= gmax[c]:
                gmax[c] = g[t]
                ic[c] = t
        for c in range(2):
            Kc[c] = self._col(ic[c], act) if (ic[c] >= 0 and self.second_order) else NULL
        for t in range(act):
            c = 0 if y[t] > 0 else 1
            if fl[t] & IN_LOW:
                if g[t] <= gmin[c]:
                    gmin[c] = g[t]
                b = gmax[c] - g[t]
                if b > 0.0 and ic[c] >= 0:
                    if self.second_order:
                        a = diag[ic[c]] + diag[t] - 2.0 * self._entry(Kc[c], t)
                        if a <= 0.0:
                            a = self.tau
                        obj = -b * b / a
                    else:
                        obj = -b
                    if obj <= best:
                        best = obj
                        j = t
                        jc = c
        gap0 = gmax[0] - gmin[0] if ic[0] >= 0 else -INFINITY
        gap1 = gmax[1] - gmin[1] if ic[1] >= 0 else -INFINITY
        self.gap = gap0 if gap0 > gap1 else gap1
        self.m_up = gmax[0] if gap0 >= gap1 else gmax[1]
        self.M_low = gmin[0] if gap0 >= gap1 else gmin[1]
        out_i[0] = ic[jc] if jc >= 0 else -1
        out_j[0] = j
        return j < 0 or self.gap <= self.tol

    cdef int _select(self, Py_ssize_t* out_i, Py_ssize_t* out_j) except -1 nogil:
        """Working set (22) or its second-order form; True when m - M <= tol."""
        if self.same_class:
            return self._select_same_class(out_i, out_j)
        cdef Py_ssize_t t, i = -1, j = -1, act = self.active
        cdef double gmax = -INFINITY, gmin = INFINITY, w
        cdef void* Ki
        # raw pointers: the loops below are the hot path of every iteration
        cdef const double* g = &self.g[0]
        cdef const double* diag = &self.kc.diag[0]
        cdef const double* low_off = &self.low_off[0]
        i = _first_order_max(g, &self.up_off[0], act, &gmax)
        if i >= 0 and self.second_order:
            Ki = self._col(i, act)
            if self.f32:
                j = _second_order_j(<float*>Ki, g, low_off, diag, diag[i], gmax, self.tau, act,
                                    &self.obj[0], &gmin)
            else:
                j = _second_order_j(<double*>Ki, g, low_off, diag, diag[i], gmax, self.tau, act,
                                    &self.obj[0], &gmin)
        else:
            # first order: the last t minimising g over I_low (+inf outside it)
            for t in range(act):
                w = g[t] + low_off[t]
                gmin = w if w < gmin else gmin
            if gmin < INFINITY:
                j = act - 1
                while g[j] + low_off[j] != gmin:
                    j -= 1
        self.m_up = gmax
        self.M_low = gmin
        self.gap = gmax - gmin
        out_i[0] = i
        out_j[0] = j
        return i < 0 or j < 0 or self.gap <= self.tol

    cdef int _update_pair(self, Py_ssize_t i, Py_ssize_t j) except -1 nogil:
        """One SMO step; False (and nothing changed) if it would be infinite (C = inf)."""
        cdef Py_ssize_t act = self.active, n = self.n
        cdef void* Ki = self._col(i, act)
        cdef void* Kj = self._col(j, act)
        cdef double Ci = self.Cv[i], Cj = self.Cv[j]
        cdef double b = self.g[i] - self.g[j]
        cdef double kij = self._entry(Ki, j)
        cdef double a = self.kc.diag[i] + self.kc.diag[j] - 2.0 * kij
        cdef double room_i, room_j, dmax, delta, ai, aj, di, dj
        cdef signed char old_i = self.status[i], old_j = self.status[j]
        room_i = Ci - self.alpha[i] if self.y[i] > 0 else self.alpha[i]
        room_j = self.alpha[j] if self.y[j] > 0 else Cj - self.alpha[j]
        dmax = room_i if room_i < room_j else room_j
        # rule (27): Newton step clipped to the box if the sub-problem is convex,
        # the bound otherwise (it always decreases F since b > 0)
        if a > 0.0:
            delta = b / a
            if delta > dmax:
                delta = dmax
        else:
            delta = dmax
            self.n_concave += 1
        if delta == INFINITY:
            # C = inf and a_ij <= 0 with opposite labels: F -> -inf along this pair (Thm 5)
            self.bad_i = i
            self.bad_j = j
            return False
        ai = self.alpha[i]
        aj = self.alpha[j]
        if self.y[i] > 0:
            self.alpha[i] = Ci if delta >= room_i else ai + delta
        else:
            self.alpha[i] = 0.0 if delta >= room_i else ai - delta
        if self.y[j] > 0:
            self.alpha[j] = 0.0 if delta >= room_j else aj - delta
        else:
            self.alpha[j] = Cj if delta >= room_j else aj + delta
        di = self.y[i] * (self.alpha[i] - ai)
        dj = self.y[j] * (self.alpha[j] - aj)
        self.F += (-di * self.g[i] - dj * self.g[j]
                   + 0.5 * (di * di * self.kc.diag[i] + 2.0 * di * dj * kij
                            + dj * dj * self.kc.diag[j]))
        if self.f32:
            _sub2(&self.g[0], <float*>Ki, <float*>Kj, di, dj, act)
        else:
            _sub2(&self.g[0], <double*>Ki, <double*>Kj, di, dj, act)
        self._set_status(i)
        self._set_status(j)
        if self.shrinking:
            # gbar_t = -sum_{s at C} C y_s K_ts, kept for all n to rebuild shrunk gradients
            if (old_i == AT_UPPER) != (self.status[i] == AT_UPPER):
                self._gbar_add(i, Ci * self.y[i] if old_i == AT_UPPER else -Ci * self.y[i])
            if (old_j == AT_UPPER) != (self.status[j] == AT_UPPER):
                self._gbar_add(j, Cj * self.y[j] if old_j == AT_UPPER else -Cj * self.y[j])
        return True

    cdef int _gbar_add(self, Py_ssize_t s, double coef) except -1 nogil:
        cdef void* col = self._col(s, self.n)
        if self.f32:
            _axpy(&self.gbar[0], <float*>col, coef, 0, self.n)
        else:
            _axpy(&self.gbar[0], <double*>col, coef, 0, self.n)
        return 0

    cdef inline bint _shrinkable(self, Py_ssize_t t, double m, double M) noexcept nogil:
        cdef bint up = self._in_up(t), low = self._in_low(t)
        if up and not low:
            return self.g[t] < M
        if low and not up:
            return self.g[t] > m
        return False

    cdef inline int _kind(self, Py_ssize_t t) noexcept nogil:
        # the equality constraint variable t belongs to: one, or (same_class) its class's
        return 1 if (self.same_class and self.y[t] < 0) else 0

    cdef int _shrink(self) except -1 nogil:
        cdef Py_ssize_t t
        cdef int c
        cdef double m[2]
        cdef double M[2]
        m[0] = -INFINITY
        m[1] = -INFINITY
        M[0] = INFINITY
        M[1] = INFINITY
        # m and M of each equality constraint (with same_class the nu forms have one per
        # class, each with its own multiplier: a variable is judged against its class's)
        for t in range(self.active):
            c = self._kind(t)
            if self._in_up(t) and self.g[t] > m[c]:
                m[c] = self.g[t]
            if self._in_low(t) and self.g[t] < M[c]:
                M[c] = self.g[t]
        if not self.unshrunk and m[0] - M[0] <= 10.0 * self.tol and (
                not self.same_class or m[1] - M[1] <= 10.0 * self.tol):
            # close to the end: restore everything once and shrink again from exact values
            self.unshrunk = True
            self._reconstruct()
            self.active = self.n
        t = 0
        self.n_swaps = 0
        while t < self.active:
            c = self._kind(t)
            if self._shrinkable(t, m[c], M[c]):
                self.active -= 1
                while self.active > t:
                    c = self._kind(self.active)
                    if not self._shrinkable(self.active, m[c], M[c]):
                        self._swap(t, self.active)
                        break
                    self.active -= 1
            t += 1
        # the cached columns' entries, all of this shrink's swaps at once (column by column)
        if self.n_swaps > 0:
            self.kc.swap_entries(&self.swaps[0], self.n_swaps, self.kc.splitting_pays())
        return 0

    cdef void _record(self) noexcept nogil:
        cdef Py_ssize_t k
        if self.n_iter % self.hist_stride != 0:
            return
        if self.hist_len == HISTORY_CAPACITY:
            # keep every other sample and sample half as often from now on
            for k in range(HISTORY_CAPACITY // 2):
                self.hist_it[k] = self.hist_it[2 * k]
                self.hist_f[k] = self.hist_f[2 * k]
            self.hist_len = HISTORY_CAPACITY // 2
            self.hist_stride *= 2
            if self.n_iter % self.hist_stride != 0:
                return
        self.hist_it[self.hist_len] = self.n_iter
        self.hist_f[self.hist_len] = self.F
        self.hist_len += 1

    cdef double _objective(self) noexcept nogil:
        cdef Py_ssize_t t
        cdef double acc = 0.0
        # F = 1/2 a'(Qa) + p'a = 1/2 sum_t a_t (grad_t + p_t), grad_t = -y_t g_t and
        # p_t = -y_t g0_t
        for t in range(self.n):
            if self.alpha[t] != 0.0:
                acc += self.alpha[t] * self.y[t] * (self.g[t] + self.g0[t])
        return -0.5 * acc

    cdef int _iterate(self) except -1 nogil:
        """SMO steps until the loop's own gap is <= tol or max_iter; 1 if unbounded, 2 if
        told to stop by another solver, 3 if stalled.

        Stalled: for ``patience`` iterations in a row neither did the objective decrease
        (steps below its last bit) nor did the gap reach a new low -- a tol below what
        float64 can reach. On a shrunk problem that first brings every variable back (a
        variable shrunk by mistake is the usual cause) and shrinking stops; on the whole
        problem the loop ends at the reachable gap instead of spinning until max_iter."""
        cdef Py_ssize_t i, j
        cdef long long counter, shrink_every
        cdef long long signal_every = SIGNAL_WORK // self.n if self.n < SIGNAL_WORK else 1
        cdef long long patience = 10 * self.n if 10 * self.n > STALL_PATIENCE else STALL_PATIENCE
        cdef long long since = 0
        cdef double F_best = self.F, gap_best = INFINITY
        cdef bint optimal, may_shrink = self.shrinking
        shrink_every = self.n if self.n < 1000 else 1000
        counter = shrink_every
        while self.n_iter < self.max_iter:
            if self.n_iter % signal_every == 0:
                if self.stop_ref[0]:
                    # another solver of this solve_tasks call stopped on an exception
                    return 2
                with gil:
                    PyErr_CheckSignals()
                    if self.progress is not None or self.progress_task is not None:
                        self._report()
            if may_shrink:
                counter -= 1
                if counter == 0:
                    counter = shrink_every
                    self._shrink()
            optimal = self._select(&i, &j)
            if optimal:
                if self.active == self.n:
                    return 0
                # optimal on the shrunk problem: check it on the whole one
                self._reconstruct()
                self.active = self.n
                optimal = self._select(&i, &j)
                if optimal:
                    return 0
                counter = 1
            if not self._update_pair(i, j):
                return 1
            self.n_iter += 1
            self._record()
            if not (self.F > -1e300) and (self.has_inf_C or not (self.F > -INFINITY)):
                # diverging (C = inf with a direction of negative curvature), or a kernel
                # value that overflowed: stop and report (a finite objective below -1e300 with
                # finite bounds is just a large problem)
                return 1
            if self.F < F_best or self.gap < gap_best:
                F_best = self.F if self.F < F_best else F_best
                gap_best = self.gap if self.gap < gap_best else gap_best
                since = 0
            else:
                since += 1
                if since >= patience:
                    if self.active < self.n:
                        self._reconstruct()
                        self.active = self.n
                        may_shrink = False
                        since = 0
                        gap_best = INFINITY
                    else:
                        return 3
        return 0

    cdef int _solve(self) except -1 nogil:
        cdef Py_ssize_t i, j
        cdef int rc
        cdef bint stalled = False
        cdef bint optimal = False
        cdef int rounds = 0
        cdef Py_ssize_t t
        self.tau = _scaled_tau(&self.kc.diag[0], self.n)
        self._exact_gradient()
        self.F = self._objective()
        self._record()
        while True:
            rc = self._iterate()
            if rc == 1:
                self.status_code = STATUS_UNBOUNDED
                return 0
            if rc == 2:
                self.status_code = STATUS_STOPPED
                return 0
            stalled = rc == 3
            # the verdict is taken on all n variables with an up-to-date gradient ...
            self._reconstruct()
            self.active = self.n
            if self.f32:
                # ... computed from float64 kernel columns
                self._polish()
            optimal = self._select(&i, &j)
            if optimal or not self.f32 or self.n_iter >= self.max_iter:
                break
            if rounds == MAX_POLISH_ROUNDS or (stalled and rounds >= 2):
                break
            # the float32 loop stopped short of the true tol: go on from the exact gradient
            rounds += 1
            self.F = self._objective()
        if optimal:
            self.status_code = STATUS_CONVERGED
        else:
            self.status_code = STATUS_STALLED if stalled else STATUS_MAX_ITER
        self.F = self._objective()
        # the last sample is the exact objective at the returned point
        if self.hist_it[self.hist_len - 1] == self.n_iter:
            self.hist_f[self.hist_len - 1] = self.F
        else:
            self.hist_it[self.hist_len] = self.n_iter
            self.hist_f[self.hist_len] = self.F
            self.hist_len += 1
        return 0

    def _report(self):
        now = _monotonic()
        if now - self.t_last >= self.report_every:
            self.t_last = now
            if self.progress_task is not None:
                self.progress_task(int(self.task), int(self.n_iter), float(self.F),
                                   float(self.gap), now - self.t_start)
            else:
                self.progress(int(self.n_iter), float(self.F), float(self.gap),
                              now - self.t_start)

    cdef void _export(self, double* alpha_out, double* grad_out, double* scal,
                      double* hist) noexcept nogil:
        """The solution in the problem's own variable order: alpha, the gradient of the
        objective (Qa + p), and the figures of the run (see ``SCALARS``); the history as
        (iteration, objective) rows."""
        cdef Py_ssize_t t, o, n = self.n, n_free = 0
        cdef const Py_ssize_t* perm = &self.kc.perm[0]
        cdef double acc = 0.0
        for t in range(n):
            o = perm[t]
            alpha_out[o] = self.alpha[t]
            grad_out[o] = -self.y[t] * self.g[t]
        # b: the mean of g over the free variables, else the middle of [M, m]
        for t in range(n):
            if self.alpha[t] > 0.0 and self.alpha[t] < self.Cv[t]:
                n_free += 1
        if n_free > 0:
            # summed in the problem's order, so that the result does not depend on the
            # permutation left by shrinking
            for o in range(n):
                self.obj[o] = 0.0
            for t in range(n):
                if self.alpha[t] > 0.0 and self.alpha[t] < self.Cv[t]:
                    self.obj[perm[t]] = self.g[t]
                    self.coef[perm[t]] = 1.0
                else:
                    self.coef[perm[t]] = 0.0
            for o in range(n):
                if self.coef[o] != 0.0:
                    acc += self.obj[o]
            scal[SC_B] = acc / n_free
        else:
            scal[SC_B] = 0.5 * (self.m_up + self.M_low)
        scal[SC_OBJECTIVE] = self.F
        scal[SC_N_ITER] = <double>self.n_iter
        scal[SC_STATUS] = <double>self.status_code
        scal[SC_GAP] = self.gap
        scal[SC_M] = self.m_up
        scal[SC_MLOW] = self.M_low
        scal[SC_CONCAVE] = <double>self.n_concave
        scal[SC_BAD_I] = <double>(perm[self.bad_i] if self.bad_i >= 0 else -1)
        scal[SC_BAD_J] = <double>(perm[self.bad_j] if self.bad_j >= 0 else -1)
        scal[SC_EVALS] = <double>self.kc.n_evals
        scal[SC_HITS] = <double>self.kc.n_hits
        scal[SC_MISSES] = <double>self.kc.n_misses
        scal[SC_SPLIT] = <double>self.kc.n_split
        scal[SC_TEAM] = <double>self.kc.split_team
        scal[SC_LEVEL] = <double>self.kc.split_level
        scal[SC_POLISH] = <double>self.n_polish
        scal[SC_HIST_LEN] = <double>self.hist_len
        for t in range(self.hist_len):
            hist[2 * t] = <double>self.hist_it[t]
            hist[2 * t + 1] = self.hist_f[t]

    cdef int _run_task(self, const Py_ssize_t* rows, const double* y, const double* alpha0,
                       const double* C, const double* p, Py_ssize_t m, double* alpha_out,
                       double* grad_out, double* scal, double* hist) except -1 nogil:
        """reset, solve, export: one task of solve_tasks."""
        cdef bint done = False
        try:
            if self.stop_ref[0]:
                scal[SC_STATUS] = STATUS_STOPPED
                done = True
                return 0
            self.kc.reset(rows, m)
            self.reset(y, alpha0, C, p, m)
            self._solve()
            self._export(alpha_out, grad_out, scal, hist)
            done = True
        finally:
            if not done:
                # an exception (Ctrl-C in the main thread, no memory): the others stop too
                self.stop_ref[0] = 1
        return 0

    def run(self):
        """Run the loop on the problem loaded last; return a dict of results in that
        problem's variable order."""
        n = self.n
        alpha = np.empty(n)
        grad = np.empty(n)
        scal = np.zeros(N_SCALARS)
        hist = np.zeros((HISTORY_CAPACITY + 1, 2))
        cdef double[::1] av = alpha, gv = grad, sv = scal
        cdef double[:, ::1] hv = hist
        self.t_start = _monotonic()
        self.t_last = self.t_start
        with nogil:
            self._solve()
            if n > 0:
                self._export(&av[0], &gv[0], &sv[0], &hv[0, 0])
        return result_dict(alpha, grad, scal, hist)


# the figures of one run, as stored by _export
cdef enum:
    SC_OBJECTIVE = 0
    SC_N_ITER = 1
    SC_STATUS = 2
    SC_GAP = 3
    SC_M = 4
    SC_MLOW = 5
    SC_CONCAVE = 6
    SC_BAD_I = 7
    SC_BAD_J = 8
    SC_EVALS = 9
    SC_HITS = 10
    SC_MISSES = 11
    SC_POLISH = 12
    SC_B = 13
    SC_HIST_LEN = 14
    SC_SPLIT = 15
    SC_TEAM = 16
    SC_LEVEL = 17
    N_SCALARS = 18


def result_dict(alpha, grad, scal, hist):
    """The figures of one task of solve_tasks (or of run) as a dict."""
    bad = (int(scal[SC_BAD_I]), int(scal[SC_BAD_J]))
    return {
        "alpha": alpha,
        "grad": grad,
        "b": float(scal[SC_B]),
        "objective": float(scal[SC_OBJECTIVE]),
        "n_iter": int(scal[SC_N_ITER]),
        "status": int(scal[SC_STATUS]),
        "bad_pair": bad if bad[0] >= 0 else None,
        "kkt_gap": float(scal[SC_GAP]),
        "m": float(scal[SC_M]),
        "M": float(scal[SC_MLOW]),
        "n_concave_steps": int(scal[SC_CONCAVE]),
        "history": hist[: int(scal[SC_HIST_LEN])].copy(),
        "n_kernel_evals": int(scal[SC_EVALS]),
        "cache_hits": int(scal[SC_HITS]),
        "cache_misses": int(scal[SC_MISSES]),
        "split_columns": int(scal[SC_SPLIT]),
        "split_threads": int(scal[SC_TEAM]),
        "split_level": int(scal[SC_LEVEL]),
        "polish_rounds": int(scal[SC_POLISH]),
    }


#: the columns of solve_tasks' ``scal`` that callers read without result_dict
SCALARS = {"b": SC_B, "status": SC_STATUS, "n_iter": SC_N_ITER, "objective": SC_OBJECTIVE}


def solve_tasks(list solvers, rows, offsets, y, alpha0, C, p, task_done=None):
    """Solve many problems on one data set inside compiled code (the one-vs-one problems of
    a multi-class fit, the restarts of one problem).

    Task k has the variables ``offsets[k]:offsets[k+1]`` of the concatenated ``rows`` (the
    kernel row of each variable), ``y``, ``alpha0``, ``C`` and ``p``. The tasks are shared
    among ``len(solvers)`` OpenMP threads, one solver (with its own kernel cache, whose
    memory is reused from task to task) per thread, in a dynamic schedule; each task is
    solved exactly as it would be alone, so the results do not depend on the number of
    threads. Ctrl-C is seen by the main thread, which then stops the others.
    ``task_done()`` is called (with the GIL) after each task. Returns the arrays ``(alpha,
    grad, scal, hist)``: the tasks' solutions and gradients concatenated as ``rows``, and
    per task its figures (``scal[k]``: :func:`result_dict`, or the columns ``SCALARS``)
    and objective history.
    """
    cdef const Py_ssize_t[::1] rv = np.ascontiguousarray(rows, dtype=np.intp)
    cdef const Py_ssize_t[::1] ov = np.ascontiguousarray(offsets, dtype=np.intp)
    cdef const double[::1] yv = np.ascontiguousarray(y, dtype=np.float64)
    cdef const double[::1] av = np.ascontiguousarray(alpha0, dtype=np.float64)
    cdef const double[::1] cv = np.ascontiguousarray(C, dtype=np.float64)
    cdef const double[::1] pv = np.ascontiguousarray(p, dtype=np.float64)
    cdef Py_ssize_t n_tasks = ov.shape[0] - 1, total = rv.shape[0], k, lo, m
    cdef int nt = len(solvers), tid
    cdef bint has_done = task_done is not None
    if nt < 1:
        raise ValueError("solve_tasks needs at least one solver")
    if not (yv.shape[0] == av.shape[0] == cv.shape[0] == pv.shape[0] == total) \
            or ov[0] != 0 or ov[n_tasks] != total:
        raise ValueError("inconsistent task arrays")
    alpha = np.zeros(max(total, 1))
    grad = np.zeros(max(total, 1))
    scal = np.zeros((max(n_tasks, 1), N_SCALARS))
    hist = np.zeros((max(n_tasks, 1), HISTORY_CAPACITY + 1, 2))
    cdef double[::1] alv = alpha, grv = grad
    cdef double[:, ::1] scv = scal
    cdef double[:, :, ::1] hiv = hist
    stop = np.zeros(1, dtype=np.intc)
    cdef SMOSolver s
    cdef void** arr = <void**>malloc(nt * sizeof(void*))
    if arr == NULL:
        raise MemoryError()
    t0 = _monotonic()
    for tid in range(nt):
        s = solvers[tid]
        s.stop_ref = stop
        s.t_start = t0
        s.t_last = t0
        arr[tid] = <void*>s
    try:
        with nogil:
            if nt == 1:
                # one solver: the tasks run in this thread, outside any parallel region, so
                # that a lone task's kernel columns can be split among threads (a region
                # inside prange's region would run on one thread)
                for k in range(n_tasks):
                    lo = ov[k]
                    m = ov[k + 1] - lo
                    (<SMOSolver>arr[0]).task = k
                    (<SMOSolver>arr[0])._run_task(&rv[lo], &yv[lo], &av[lo], &cv[lo],
                                                  &pv[lo], m, &alv[lo], &grv[lo],
                                                  &scv[k, 0], &hiv[k, 0, 0])
                    if has_done:
                        with gil:
                            task_done()
        with nogil:
            for k in prange(n_tasks if nt > 1 else 0, num_threads=nt, schedule="dynamic",
                            chunksize=1):
                tid = threadid()
                lo = ov[k]
                m = ov[k + 1] - lo
                (<SMOSolver>arr[tid]).task = k
                (<SMOSolver>arr[tid])._run_task(&rv[lo], &yv[lo], &av[lo], &cv[lo], &pv[lo],
                                                m, &alv[lo], &grv[lo], &scv[k, 0],
                                                &hiv[k, 0, 0])
                if has_done:
                    with gil:
                        task_done()
    finally:
        free(arr)
        for tid in range(nt):
            s = solvers[tid]
            s.stop_ref = np.zeros(1, dtype=np.intc)
            s.task = -1
    return alpha, grad, scal, hist
