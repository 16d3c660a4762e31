# cython: language_level=3
"""Dual coordinate descent for the linear C-SVM with a free bias (private).

Solves, on feature rows ``z_t`` (float32) of a subset of a feature matrix,

    min_alpha  1/2 ||sum_t alpha_t y_t z_t||^2 - sum_t alpha_t
    s.t.       0 <= alpha_t <= C_t,   sum_t y_t alpha_t = 0,

the dual of LIBSVM's C-SVC with the linear kernel on those features: the bias is free, not
regularised (liblinear's appended constant feature would shrink it towards 0). The equality
constraint is handled by the method of multipliers (Hestenes 1969; Powell 1969): each inner
problem

    min_alpha  D(alpha) + lam y'alpha + rho/2 (y'alpha)^2   on the box

is solved by the coordinate descent of Hsieh, Chang, Lin, Keerthi & Sundararajan (ICML
2008) with their shrinking (the rank-one term only adds rho to each diagonal entry and
``lam + rho * s`` to the bias of each gradient, ``s = y'alpha`` kept up to date), then
``lam <- lam + rho s``. Once ``y'alpha`` has settled, the shrunk problem is solved to
``SHRUNK_TOL * tol`` (half) before every row is looked at again, so that the rows left out
rarely sit just past ``tol`` when they are. The effective bias ``lam + rho s`` tends to the bias of the
constrained problem and ``s`` to 0.

Convergence is judged on the full problem, as LIBSVM does: the maximal violating pair gap
``m(alpha) - M(alpha) <= tol`` over all rows (computed from scratch, threads sharing the
rows) together with ``|y'alpha| <= tol * max C_t``. The intercept is then LIBSVM's (the
mean over free vectors, else the middle of the feasible interval).
"""

from libc.math cimport fabs
from cpython.exc cimport PyErr_CheckSignals
from cython.parallel cimport prange

import numpy as np

cdef extern from "_dcd.h" nogil:
    double ix_dot_fd(const float* z, const double* w, Py_ssize_t r)
    double ix_sq_f(const float* z, Py_ssize_t r)
    void ix_axpy_fd(double a, const float* z, double* w, Py_ssize_t r)
    void ix_dcd_parallel(const float* Z, Py_ssize_t r, const Py_ssize_t* rows,
                         const double* y, const double* Cb, const double* Qd, double* alpha,
                         double* w, double* s, double lam, double rho, const Py_ssize_t* perm,
                         Py_ssize_t lo, Py_ssize_t hi, unsigned char* shrunk,
                         double pg_max_old, double pg_min_old, double* pg_max, double* pg_min,
                         int nthreads, double* work, Py_ssize_t block)

#: rows x features below which a pass runs on one thread whatever n_threads says: a pass
#: over 4 000 rows of 250 features takes ~1 ms, a parallel region and its merges ~20 us
PARALLEL_MIN_WORK = 1_000_000

#: on three threads or more, a pass is shared among them only while at least
#: 1 / PARALLEL_SHARE of the rows are active (see dcd_svc); two threads share every pass of
#: PARALLEL_MIN_WORK or more
PARALLEL_SHARE = 4

#: passes on one thread after the first up-hill shared pass on two threads (doubled after
#: each further one)
SERIAL_HOLD = 16

# tests only: the next this-many shared passes count as up hill. Whether the threads'
# steps overlap enough to raise the objective is the system's choice (on a VM whose two
# cores do not run at once, no pass ever does), so the undo path is tested by this
cdef Py_ssize_t _forced_up_hill = 0


def _force_up_hill(Py_ssize_t k):
    """Tests only: count the next ``k`` shared passes of :func:`dcd_svc` as up hill."""
    global _forced_up_hill
    _forced_up_hill = k

#: the tolerance of the shrunk problem, as a share of tol, once y'alpha has settled (dcd_svc).
#: Measured on 2e5 x 500 Nystroem features, the linear stage alone, 1 thread (2 threads):
#: C = 1, three seeds, 4.19 / 3.50 / 6.60 s (1.93 / 1.51 / 2.68) at 1.0 -> 2.73 / 3.12 / 2.83
#: (1.61 / 1.60 / 1.90) at 0.5; C = 10, two seeds, 29.6 / 36.0 (9.0 / 10.1) -> 11.5 / 11.6
#: (7.6 / 7.6); C = 0.1 2.13 / 1.64 (1.35 / 1.25) -> 1.88 / 1.89 (0.74 / 0.83). 0.7 did as
#: well as 0.5, 0.3 worse (more passes over the small active sets)
SHRUNK_TOL = 0.5

#: rows a thread takes at a time in a parallel pass; after each block it hands its changes
#: of w over (a merge costs ~3 r flops against ~4 r per row: 2 % at 64 rows). Two threads
#: take BLOCK_TWO: the other thread's view of w is then at most 16 rows late, which let
#: them share the passes over the last coupled free vectors too (dcd_svc)
BLOCK = 64
BLOCK_TWO = 16

cdef double INF = float("inf")


cdef inline unsigned long long _next(unsigned long long* state) noexcept nogil:
    """xorshift64* (Marsaglia 2003; Vigna 2016): the shuffles' random numbers."""
    cdef unsigned long long x = state[0]
    x ^= x >> 12
    x ^= x << 25
    x ^= x >> 27
    state[0] = x
    return x * 2685821657736338717ULL


cdef Py_ssize_t _compact(Py_ssize_t* perm, unsigned char* shrunk, Py_ssize_t active,
                         Py_ssize_t* tmp) noexcept nogil:
    """Move the positions a parallel pass marked as shrunk behind the active ones (the
    order of each part kept), clear the marks; returns the new active size."""
    cdef Py_ssize_t k, kept = 0, dropped = 0
    for k in range(active):
        if shrunk[k]:
            tmp[dropped] = perm[k]
            dropped += 1
        else:
            perm[kept] = perm[k]
            kept += 1
    for k in range(dropped):
        perm[kept + k] = tmp[k]
    for k in range(active):
        shrunk[k] = 0
    return kept


cdef Py_ssize_t _sweep(const float* Z, Py_ssize_t r, const Py_ssize_t* rows,
                       const double* y, const double* Cb, const double* Qd, double* alpha,
                       double* w, double* s, double lam, double rho, Py_ssize_t* perm,
                       Py_ssize_t* k_io, Py_ssize_t budget, Py_ssize_t active,
                       double pg_max_old, double pg_min_old, double* pg_max,
                       double* pg_min) noexcept nogil:
    """Coordinates perm[k : active] in order, ``budget`` of them at most (visited or
    shrunk), from ``k = k_io[0]``, where the next call resumes (Hsieh et al., Algorithm 3
    with shrinking). Returns the new active size; shrunk coordinates are swapped to the
    end of the active part."""
    cdef Py_ssize_t k = k_io[0], t, tmp, seen = 0
    cdef double G, PG, a_old, a_new, dlt
    cdef const float* z
    while k < active and seen < budget:
        seen += 1
        t = perm[k]
        z = Z + rows[t] * r
        G = y[t] * (ix_dot_fd(z, w, r) + lam + rho * s[0]) - 1.0
        PG = 0.0
        if alpha[t] == 0.0:
            if G > pg_max_old:
                active -= 1
                tmp = perm[k]
                perm[k] = perm[active]
                perm[active] = tmp
                continue
            if G < 0.0:
                PG = G
        elif alpha[t] == Cb[t]:
            if G < pg_min_old:
                active -= 1
                tmp = perm[k]
                perm[k] = perm[active]
                perm[active] = tmp
                continue
            if G > 0.0:
                PG = G
        else:
            PG = G
        if PG > pg_max[0]:
            pg_max[0] = PG
        if PG < pg_min[0]:
            pg_min[0] = PG
        if fabs(PG) > 1e-12:
            a_old = alpha[t]
            a_new = a_old - G / Qd[t]
            if a_new < 0.0:
                a_new = 0.0
            elif a_new > Cb[t]:
                a_new = Cb[t]
            alpha[t] = a_new
            dlt = (a_new - a_old) * y[t]
            if dlt != 0.0:
                ix_axpy_fd(dlt, z, w, r)
                s[0] += dlt
        k += 1
    k_io[0] = k
    return active


def row_products(const float[:, ::1] Z, const Py_ssize_t[::1] rows, const double[::1] w,
                 int n_threads=1):
    """``Z[rows] @ w`` in float64, rows shared among OpenMP threads (each row summed the
    same way whatever the number of threads)."""
    cdef Py_ssize_t l = rows.shape[0], r = Z.shape[1], t
    cdef int nt = n_threads if n_threads > 1 else 1
    out = np.empty(l)
    cdef double[::1] ov = out
    if l == 0:
        return out
    if r == 0:
        out[:] = 0.0
        return out
    with nogil:
        for t in prange(l, num_threads=nt, schedule="static"):
            ov[t] = ix_dot_fd(&Z[rows[t], 0], &w[0], r)
    return out


def kkt_gap(const double[::1] f, const double[::1] y, const double[::1] alpha,
            const double[::1] Cb):
    """LIBSVM's maximal violating pair gap ``m - M`` of C-SVC at ``alpha``, with the
    gradient ``y_t f_t - 1`` (``f = Z w``), and LIBSVM's intercept."""
    fa = np.asarray(f)
    ya = np.asarray(y)
    aa = np.asarray(alpha)
    ca = np.asarray(Cb)
    minus_yg = ya - fa  # -y_t G_t with G_t = y_t f_t - 1
    up = ((ya > 0) & (aa < ca)) | ((ya < 0) & (aa > 0))
    low = ((ya > 0) & (aa > 0)) | ((ya < 0) & (aa < ca))
    m = minus_yg[up].max() if up.any() else -INF
    M = minus_yg[low].min() if low.any() else INF
    gap = float(m - M) if np.isfinite(m) and np.isfinite(M) else 0.0
    free = (aa > 0) & (aa < ca)
    if free.any():
        b = float(minus_yg[free].mean())
    else:
        # the middle of the interval that keeps every bounded vector on its side
        lo = m if np.isfinite(m) else M
        hi = M if np.isfinite(M) else m
        b = 0.5 * float(lo + hi) if np.isfinite(lo) and np.isfinite(hi) else 0.0
    return max(gap, 0.0), b


def dcd_svc(const float[:, ::1] Z, const Py_ssize_t[::1] rows, const double[::1] y,
            const double[::1] Cb, double tol, Py_ssize_t max_passes, unsigned long long seed,
            int n_threads=1, progress=None, double rho=-1.0, Py_ssize_t block=0,
            alpha0=None, double b0=0.0):
    """Solve the C-SVC dual on the feature rows ``Z[rows]`` (labels ``y`` of +-1, bounds
    ``Cb``) by dual coordinate descent with the method of multipliers (module docstring).

    Returns a dict: ``alpha``, ``w``, ``intercept``, ``n_passes``, ``converged``,
    ``kkt_gap``, ``feasibility`` (``|y'alpha|``), ``objective`` and ``status``. A pass is one
    sweep over the active coordinates; ``max_passes`` bounds their number. ``progress``,
    when given, is called after each pass as ``progress(n_passes, gap, active)``.

    With ``n_threads > 1`` (and at least ``PARALLEL_MIN_WORK`` rows x features) each pass
    is shared among the threads (``ix_dcd_parallel`` in ``_dcd.h``): the same problem, the
    same stopping rule, but the threads' steps interleave, so the result equals one
    thread's within the tolerance, not bit for bit. With one thread the passes are the
    sequential ones, always the same for the same seed. A shared pass that raises the
    augmented Lagrangian is undone and the threads halved -- from two, the next
    ``SERIAL_HOLD`` passes run on one thread (twice as many after each further one) before
    two are tried again (``undone`` in the result counts
    them; ``shared`` the shared passes kept; ``threads`` is the count the shared passes
    ended on). ``block``: rows a thread
    takes at a time in a shared pass (0: ``BLOCK_TWO`` on two threads, else ``BLOCK``).
    ``alpha0`` (checked by the caller: ``l`` values in the box) and ``b0``: a start, e.g.
    another solver's nearly optimal multipliers and intercept -- ``w`` is computed from
    ``alpha0``, and the multiplier of ``y'alpha = 0`` so that the bias is ``b0``.
    """
    global _forced_up_hill
    cdef Py_ssize_t l = rows.shape[0], r = Z.shape[1], t, k, active, chunk = 32768
    cdef Py_ssize_t passes = 0, hi, blk
    cdef int nt = n_threads if n_threads > 1 else 1
    cdef double lam = 0.0, s = 0.0, pg_max, pg_min, pg_max_old = INF, pg_min_old = -INF
    cdef double cmax = 0.0, gap, feas, feas_prev = INF
    # once y'alpha has settled, the shrunk problem is solved to SHRUNK_TOL * tol before
    # every row is looked at again (see the loop)
    cdef double shrunk_tol = SHRUNK_TOL * tol
    cdef bint settled = False
    cdef unsigned long long state = seed * 2 + 1
    if Z.shape[0] == 0 and l > 0:
        raise ValueError("empty feature matrix")
    alpha_a = np.zeros(l)
    w_a = np.zeros(r)
    qd_a = np.empty(l)
    perm_a = np.arange(l, dtype=np.intp)
    cdef double[::1] alpha = alpha_a, w = w_a, Qd = qd_a
    cdef Py_ssize_t[::1] perm = perm_a
    if nt > 1 and l * r < PARALLEL_MIN_WORK:
        nt = 1
    cdef bint par
    cdef double obj_old = 0.0, obj_new, s_keep = 0.0
    cdef Py_ssize_t n_undone = 0, n_shared = 0
    # after an up-hill shared pass on two threads, the next passes run on one thread:
    # SERIAL_HOLD of them, twice as many after each further one (see the undo below)
    cdef Py_ssize_t hold_until = 0, hold = SERIAL_HOLD
    # a shared pass that raised the objective is undone from these copies
    alpha_keep = np.empty(l if nt > 1 else 0)
    w_keep = np.empty(r if nt > 1 else 0)
    # the parallel passes' marks of shrunk positions, a buffer to move them, and each
    # thread's copy of w with the value it last read (2 r doubles a thread)
    shrunk_a = np.zeros(l if nt > 1 else 1, dtype=np.uint8)
    tmp_a = np.empty(l if nt > 1 else 1, dtype=np.intp)
    work_a = np.empty(2 * r * nt if nt > 1 else 1)
    cdef unsigned char[::1] shrunk = shrunk_a
    cdef Py_ssize_t[::1] tmp = tmp_a
    cdef double[::1] work = work_a
    if alpha0 is not None:
        alpha_a[:] = alpha0
        ay = alpha_a * np.asarray(y)
        Zf = np.asarray(Z)
        ri = np.asarray(rows)
        every = l == Zf.shape[0] and bool(np.all(ri == np.arange(l)))
        # w = Z' (alpha o y) in float64, a block of rows at a time (no float64 copy of Z;
        # all the rows in order: slices, not gathered copies)
        for lo_ in range(0, l, 65536):
            hi_ = min(l, lo_ + 65536)
            blk_ = Zf[lo_:hi_] if every else Zf[ri[lo_:hi_]]
            w_a += blk_.T.astype(np.float64) @ ay[lo_:hi_]
        s = float(ay.sum())
    sq = row_products_sq(Z, rows, n_threads)
    for t in range(l):
        if Cb[t] > cmax:
            cmax = Cb[t]
    if rho <= 0.0:
        rho = default_rho(Z, rows, sq)
        if cmax > 0.0:
            # a small C: the bias moves by rho y'alpha, y'alpha ~ C l, per multiplier step;
            # at least 1 / (C l) keeps that step of order one (rho of Q alone took ~1/C
            # passes: 100 000 without converging at C = 1e-8, 101 with this)
            rho = max(rho, 1.0 / (cmax * l))
    for t in range(l):
        Qd[t] = sq[t] + rho
    if alpha0 is not None:
        # the gradient's bias is lam + rho s: the start's intercept
        lam = b0 - rho * s
    status = "max_passes"
    converged = False
    gap = INF
    feas = 0.0
    active = l
    while passes < max_passes and l > 0:
        # shuffle the active coordinates (Fisher-Yates)
        for k in range(active - 1, 0, -1):
            t = <Py_ssize_t>(_next(&state) % <unsigned long long>(k + 1))
            perm[k], perm[t] = perm[t], perm[k]
        pg_max = -INF
        pg_min = INF
        k = 0
        # a pass over few active rows is quicker on one thread than its threads' start-up.
        # Once shrinking has left a small part of the rows (the coupled free vectors near
        # the margin), threads whose views of w are 64 rows late each slowed the descent
        # down more than they shared it (measured at 10^6 rows, before up-hill passes were
        # undone: passes over 50 000-80 000 active rows stalled at a gap of 1-2, the fit
        # 2.6x slower on two threads than on one): three threads or more keep such passes
        # on one. Two threads, 16 rows late, share them (measured, linear stage over 8
        # seeds at 2e5 x 500: median 2.02 s against 2.59 s; at 10^6 over 2 seeds: 18.6 /
        # 15.2 s against 29.2 / 23.8 s, one thread 28.3 / 67.8 s)
        par = (nt > 1 and passes >= hold_until and active * r >= PARALLEL_MIN_WORK
               and (nt == 2 or active * PARALLEL_SHARE >= l))
        blk = block if block > 0 else (BLOCK_TWO if nt == 2 else BLOCK)
        if par:
            # the augmented Lagrangian before the pass, and the point to go back to: a
            # sequential pass never raises it (each step is exact along its coordinate), a
            # shared one may, when the threads' late views of w and s add up to too long a
            # step (the coupling through s = y'alpha is dense). Measured on 16 cores at
            # 10^6 rows: the gap stayed near 550 for 5 000 passes.
            obj_old = _augmented(w_a, alpha_a, lam, s, rho)
            alpha_keep[:] = alpha_a
            w_keep[:] = w_a
            s_keep = s
        while k < active:
            # a chunk of coordinates at a time, between which Ctrl-C is looked at
            if par:
                hi = min(k + chunk * nt, active)
                with nogil:
                    ix_dcd_parallel(&Z[0, 0], r, &rows[0], &y[0], &Cb[0], &Qd[0],
                                    &alpha[0], &w[0], &s, lam, rho, &perm[0], k, hi,
                                    &shrunk[0], pg_max_old, pg_min_old, &pg_max, &pg_min,
                                    nt, &work[0], blk)
                k = hi
            else:
                with nogil:
                    active = _sweep(&Z[0, 0], r, &rows[0], &y[0], &Cb[0], &Qd[0],
                                    &alpha[0], &w[0], &s, lam, rho, &perm[0], &k, chunk,
                                    active, pg_max_old, pg_min_old, &pg_max, &pg_min)
            PyErr_CheckSignals()
        passes += 1
        if par:
            obj_new = _augmented(w_a, alpha_a, lam, s, rho)
            if _forced_up_hill > 0 or not obj_new <= obj_old + 1e-12 * (fabs(obj_old) + 1.0):
                if _forced_up_hill > 0:
                    _forced_up_hill -= 1
                # the shared pass went up hill: undo it and share the next passes among
                # half the threads; from two threads, run the next passes on one (always
                # down hill) and try two again after them -- for good, one up-hill pass
                # left the rest of the fit on one thread, and how early it came decided
                # the fit's time (measured at 2e5 rows, m = 500: 2.8-4.5 s on two threads
                # against 4.1-4.3 s on one)
                alpha_a[:] = alpha_keep
                w_a[:] = w_keep
                s = s_keep
                shrunk_a[:active] = 0
                if nt > 2:
                    nt = nt // 2
                else:
                    hold_until = passes + hold
                    hold = 2 * hold
                n_undone += 1
                if progress is not None:
                    progress(passes, pg_max - pg_min, active)
                continue
            active = _compact(&perm[0], &shrunk[0], active, &tmp[0])
            n_shared += 1
        # the shrunk problem, once y'alpha has settled, is solved to SHRUNK_TOL * tol: solved
        # to tol, the pass over every row that follows found a few rows just past tol (gaps
        # of 1.0-1.3 tol) and the shrinking after it left out rows that the next steps moved
        # across the margin again -- 6 to 25 passes over all 2e5 rows in the tail of a fit
        if pg_max - pg_min <= (shrunk_tol if settled and active < l else tol) or active == 0:
            # the inner problem is solved on the active set: one multiplier step; the
            # shrunk coordinates are looked at again only once y'alpha is near 0 too
            # (unshrinking after every step read all rows 2-3 times per step)
            lam = lam + rho * s
            feas = fabs(s)
            pg_max_old = INF
            pg_min_old = -INF
            settled = feas <= tol * cmax
            if feas > tol * cmax:
                if active < l and feas > 0.5 * feas_prev:
                    # the active set alone no longer brings y'alpha down (its coordinates
                    # may all sit at their bounds): look at every coordinate again
                    active = l
                feas_prev = feas
                if progress is not None:
                    progress(passes, pg_max - pg_min, active)
                continue
            if active < l:
                active = l
                if progress is not None:
                    progress(passes, pg_max - pg_min, active)
                continue
            f = row_products(Z, rows, w, n_threads)
            gap, _ = kkt_gap(f, y, alpha, Cb)
            if progress is not None:
                progress(passes, gap, active)
            if gap <= tol:
                converged = True
                status = "converged"
                break
            continue
        pg_max_old = pg_max if pg_max > 0.0 else INF
        pg_min_old = pg_min if pg_min < 0.0 else -INF
        if progress is not None:
            progress(passes, pg_max - pg_min, active)
    f = row_products(Z, rows, w, n_threads)
    gap, b = kkt_gap(f, y, alpha, Cb) if l > 0 else (0.0, 0.0)
    if not converged and gap <= tol and fabs(s) <= tol * cmax:
        # the last pass of the budget reached the stopping rule: say so
        converged = True
        status = "converged"
    wnorm2 = float(np.dot(w_a, w_a))
    return {"alpha": alpha_a, "w": w_a, "intercept": b, "n_passes": int(passes),
            "converged": converged, "kkt_gap": gap, "feasibility": fabs(s),
            "objective": 0.5 * wnorm2 - float(alpha_a.sum()), "status": status,
            "rho": rho, "threads": nt, "undone": int(n_undone),
            "shared": int(n_shared)}


cdef double _augmented(w, alpha, double lam, double s, double rho):
    """The augmented Lagrangian ``1/2 |w|^2 - e'alpha + lam s + rho/2 s^2`` that a pass of
    the coordinate descent lowers (``s = y'alpha``; its gradient in ``alpha_t`` is ``G``)."""
    return 0.5 * float(np.dot(w, w)) - float(np.sum(alpha)) + lam * s + 0.5 * rho * s * s


def default_rho(Z, rows, sq):
    """The weight of the multiplier method's penalty: the largest eigenvalue of ``Q = Z Z'``
    over the number of rows, so that the rank-one term ``rho y y'`` (eigenvalue ``rho l``)
    weighs like ``Q``'s own largest curvature. A larger rho reaches ``y'alpha = 0`` in
    fewer multiplier steps but makes the coordinate descent of each step slow (measured:
    ``rho`` = the mean squared row norm took 3 000 passes where this takes ~100)."""
    l = len(rows)
    if l == 0:
        return 1.0
    # a few steps of the power method on Z'Z (r x r), from a sample of rows when many
    # (1 000 rows: the estimate within 0.1 % of 20 000 rows' at 2e5 x 500)
    A = np.asarray(Z)[np.asarray(rows)[:: max(1, l // 1000)]].astype(np.float64)
    r = A.shape[1]
    v = np.ones(r) / max(1.0, np.sqrt(r))
    lam = 0.0
    # Z'Z (r x r) when it is small; above 2 000 features its products with A instead
    # (20 000 random objects made a 3.2 GB Gram matrix). Callers run this on one BLAS
    # thread (linear_svc does): the passes that follow share OpenMP threads, and OpenBLAS's
    # workers, spinning for a while after a threaded call, held a core from them (measured:
    # 45 one-vs-one problems of 2 880 rows x 400 features, 2.2x slower on two threads than
    # on one; the rho of each, from all its rows then, cost about as much as its solve)
    G = A.T @ A if r <= 2000 else None
    for _ in range(30):
        u = G @ v if G is not None else A.T @ (A @ v)
        lam = float(np.linalg.norm(u))
        if lam == 0.0:
            break
        v = u / lam
    rho = lam / A.shape[0]
    return rho if rho > 0.0 else max(float(np.mean(sq)), 1.0)


def row_products_sq(const float[:, ::1] Z, const Py_ssize_t[::1] rows, int n_threads=1):
    """Squared norms of the rows ``Z[rows]`` in float64."""
    cdef Py_ssize_t l = rows.shape[0], r = Z.shape[1], t
    cdef int nt = n_threads if n_threads > 1 else 1
    out = np.zeros(l)
    cdef double[::1] ov = out
    if l == 0 or r == 0:
        return out
    with nogil:
        for t in prange(l, num_threads=nt, schedule="static"):
            ov[t] = ix_sq_f(&Z[rows[t], 0], r)
    return out
