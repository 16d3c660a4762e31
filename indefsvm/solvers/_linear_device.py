"""The linear C-SVM on device features: a decomposition with large working sets (private).

The problem and the stopping rule are :func:`~indefsvm.solvers.linear_svc`'s -- LIBSVM's
C-SVC dual with the linear kernel and a free bias, stopped when the maximal violating pair
gap ``m(a) - M(a) <= tol`` over all rows -- solved the way LIBSVM's decomposition and
ThunderSVM's GPU solver (Wen et al., JMLR 2018) do: each outer step

1. computes every row's gradient from ``f = Z w`` (one matrix-vector product over the
   features on the device),
2. measures the gap and picks the working set: the ``q / 2`` rows of largest ``-y G`` that
   may move up and the ``q / 2`` of smallest ``-y G`` that may move down (the maximal
   violating pair is always among them),
3. solves the sub-problem on those rows -- ``min 1/2 a_B'Q_BB a_B + p_B'a_B`` with
   ``y_B'a_B`` kept, so ``y'a = 0`` holds throughout -- exactly, by the library's compiled
   SMO on their ``q x q`` kernel ``Z_B Z_B'`` (computed on the device in float64), and
4. updates ``a`` and ``w = Z'(a o y)`` (float64).

A cold start needs many steps when many rows end at a bound (each step moves at most ``q``
of them). The steps start instead from a point read off the primal problem with the hinge
smoothed over a width ``delta`` (Huber's), minimised by L-BFGS over ``(w, b)`` -- two
products with the features an evaluation -- with ``a_t = C_t min(max(u_t / delta, 0), 1)``,
``u_t = 1 - y_t (z_t'w + b)``: the multipliers of the smoothed problem, which tend to the
SVM's as ``delta -> 0``; the larger class's are scaled so that ``y'a = 0``. The widths
``WARM_DELTAS`` are taken one after the other, each from the last one's ``(w, b)`` (a
continuation). Only the start comes from there: the result is the decomposition's, held to
the stopping rule above.

Measured (2-core VM, NumPy, 2026-11-27; rbf Nystroem features of ``make_classification``,
m = 500, C = 1; the decomposition's steps to tol = 1e-3 after the start):

=========  ===========================================  ======================
rows       start                                        steps
=========  ===========================================  ======================
3·10^5     width 0.1 alone, 100 iterations              46
3·10^5     0.1, 0.01 (100 each)                         4
3·10^5     0.1, 0.01, 0.001 (100 each)                  3 (37 with a class's
                                                        multipliers scaled)
10^6       0.1, 0.01, 0.001 (100 each)                  150 (111 scaled)
10^6       0.1, 0.01, 0.001 (300 each)                  4
10^6       0.1, 0.01, 0.001 (50, 100, 300)              6
=========  ===========================================  ======================

The start has to be near the smoothed problem's solution: the decomposition recomputes
``w`` from the multipliers, and a ``w`` that L-BFGS had not settled leaves many rows a
little on the wrong side (at 10^6 rows, 100 iterations of the last width left a gap of 0.7
that 2 048-row steps took 150 steps to close). From width 0.1 alone, on an H200
(2026-11-26), 10^6 rows still had a gap of 0.6 after 3 500 steps.

On an H200 (2026-11-27, ``benchmarks/RESULTS.md``) with that plain L-BFGS: 10^6 rows,
warm start 1.1 s, 97 steps of ~80 ms (140 for the same data on the CPU), the whole
``NystroemSVC`` fit 10.7 s against 15.8 s on 16 cores; 10^7 rows (ten noisy copies of
those), warm start 6.0 s, but a gap of 92 at step 0 and 0.24 after 400 steps, after which
the CPU's coordinate descent solved the problem (228 s in all).

The default since (``PRECONDITION``): L-BFGS on the diagonally rescaled problem
(``_diagonal_scaling``: each variable divided by the square root of the Hessian's diagonal
at the width's start), 25, 50 and 150 iterations. On the same H200 (2026-11-27, second
session; ``bench_gpu.py``): at 10^6 rows a warm start of 0.6 s, a gap of 0.75 at step 0
and 3 steps (the plain start: 4.6 s, 17.8 and 97), the whole fit 1.1-1.3 s; at 10^7 a
warm start of 3.2 s, a gap of 2.2 and 6 steps (the plain start: 6.5 s, 94, and 400
steps not enough), the whole fit 7.6-9.5 s in four fits.

A lead, off (``SUBSAMPLE_ROWS``): the widths first taken on a random tenth of the rows
(their bounds ``C_t`` times ten, so that the subsample's hinge losses weigh as all rows'
do), rescaled, and only the last width again on every row. On the H200: at 10^7 rows 5
steps, the whole fit 6.7-7.4 s (a little less than the default), but at 10^6 rows 97
steps, 7.2 s (the default: 1.1 s). ``SUBSAMPLE_ROWS``'s comment has the CPU's figures.

The gradient's ``Z' d`` sums n products: in one float32 product its rounding grows with n
(at 10^6 rows up to 0.05), enough to leave L-BFGS's point far from the smoothed optimum
on ten noisy copies of 10^5 rows (2-core VM, 2026-11-27: a gap of 9.5 at step 0, 87 steps);
summed a block of 65 536 rows at a time in float64 (``_transposed_product``): a gap of 1.7,
4 steps. (At 10^7 rows on the H200 above, before this change: a gap of 92 at step 0.) The
products ``Z w`` are float32 (the features are); their rounding, of order
``1e-7 |z| |w|`` a row, is far below ``tol``. Everything of size ``n`` stays on the device; a step
moves ``q x q`` numbers to the host and ``q`` back. ``NystroemSVC(device="cuda")`` solves
its problems so (``nystroem/_svc.py``), handing a problem that this solver has not solved
in its step budget to the CPU's coordinate descent.
"""

from __future__ import annotations

import time

import numpy as np

from .._logging import REPORT_EVERY, enable, logger
from .._solvers._linsvm import kkt_gap
from ._result import SolverResult

__all__ = ["linear_svc_device"]

#: outer steps when max_iter is None (finite: a run always ends)
DEFAULT_MAX_STEPS = 100_000

#: the smoothing widths of the warm start's hinge, one after the other, and the L-BFGS
#: iterations of each (the last width's solution is the start: it gets the most)
WARM_DELTAS = (0.1, 0.01, 1e-3)
WARM_ITERATIONS = (50, 100, 300)

#: the warm start's L-BFGS on the diagonally rescaled problem (``_diagonal_scaling``), with
#: its own iterations: on an H200 (benchmarks/RESULTS.md, 2026-11-27) 3 steps after the
#: start at 10^6 rows and 6 at 10^7 (the plain L-BFGS's WARM_ITERATIONS: 97, and more than
#: 400); False: the plain one
PRECONDITION = True
PRECONDITIONED_ITERATIONS = (25, 50, 150)

#: from SUBSAMPLE_ROWS rows (None: never; SUBSAMPLE_FROM when asked for) the warm start's
#: widths are first taken on a random 1 / SUBSAMPLE_SHARE of the rows (SUBSAMPLE_ITERATIONS,
#: rescaled), then the last width on every row for FINAL_ITERATIONS (rescaled). Measured on
#: a CPU (2-core VM, NumPy, 2026-11-27; rbf Nystroem features of make_classification,
#: m = 500; evaluations over all rows (+ the subsample's, about 234 of a tenth of the rows)
#: and the decomposition's steps after the start, earlier start -> this one): 5e4 rows x 10
#: noisy copies, C = 1: 534 and 3 -> 142 (+234) and 2; 5e5 distinct rows, C = 0.1: 338 and
#: 1 -> 152 (+234) and 1; C = 1: 529 and 51 -> 247 (+234) and 2; C = 10: 533 and 276 -> 123
#: (+234) and 5. But on bench_gpu.py's own 10^6 rows (C = 1; its 10^7 rows are ten noisy
#: copies of them): 527 and 6 -> 100 (+233) and 114 -- the last width's L-BFGS stopped
#: after 84 iterations, no longer lowering the value through the float32 products' noise,
#: at a gap of 10.3 (plain L-BFGS there instead: 47.6). A step costs about five
#: evaluations on a device (H200, 10^7 rows: 66 and 13 ms), so that problem costs more
#: this way (693 against 557). On an H200 (2026-11-27): at 10^7 rows 5 steps, the fit
#: 6.7-7.4 s against the rescaled start's 7.6-8.1 s, but at 10^6 rows 97 steps, 7.2 s
#: against 1.1 s: off. (The last width plain instead, 300 iterations: 400 steps did not
#: reach tol at 10^7.)
SUBSAMPLE_ROWS = None
SUBSAMPLE_FROM = 200_000
SUBSAMPLE_SHARE = 10
SUBSAMPLE_ITERATIONS = (25, 50, 150)
FINAL_ITERATIONS = 120

#: rows of a working set (at most; fewer when fewer rows violate)
WORKING_SET = 2048


def _smallest(xp, v, k):
    """Indices of the ``k + 1`` smallest entries of ``v`` (any order). NumPy partitions;
    on the device a full radix sort (CUB's) is used: CuPy's argpartition slows down
    with ``k`` (a selection sort per group), a sort of 10^7 keys takes milliseconds."""
    if k < 0:
        return xp.arange(0)
    if xp is np:
        return np.argpartition(v, k)[: k + 1]
    return xp.argsort(v)[: k + 1]


def _working_set(xp, g, up, low, half, top, bottom):
    """The ``half`` rows of largest ``g`` in ``up`` and of smallest ``g`` in ``low`` (only
    rows that can still violate against the other side's extreme)."""
    parts = []
    vu = xp.where(up, g, -xp.inf)
    k = min(half, int(vu.shape[0]) - 1)
    iu = _smallest(xp, -vu, k)
    parts.append(iu[vu[iu] > bottom])
    vl = xp.where(low, g, xp.inf)
    il = _smallest(xp, vl, k)
    parts.append(il[vl[il] < top])
    return xp.unique(xp.concatenate(parts))


def linear_svc_device(Z, y, C, *, device, rows=None, tol: float = 1e-3,
                      max_iter: int | None = None, working_set: int | None = None,
                      alpha0=None, primal0=None, warm: bool = True, verbose=False,
                      label: str = "linear SVM") -> SolverResult:
    """C-SVC on feature rows held on ``device`` (module docstring).

    Parameters
    ----------
    Z : device array of shape (n_rows, n_features), float32
    y : ndarray of shape (n,)
        Labels +1 / -1 of the rows used.
    C : float or ndarray of shape (n,)
        One bound, or ``C_t`` per row.
    device : Device
        Where ``Z`` is (its ``xp``: CuPy, or NumPy in the tests).
    rows : ndarray of int, optional
        The rows of ``Z`` taking part (default all).
    tol : float
        Tolerance of the maximal violating pair gap (as :func:`linear_svc`).
    max_iter : int, optional
        Outer steps; ``None`` means 100 000.
    working_set : int, optional
        Rows of a working set (default 2048).
    alpha0 : ndarray of shape (n,), optional
        A feasible start (``y'a = 0``, in the box); default the warm start.
    primal0 : tuple (w, b), optional
        A start read off a primal point instead, as the warm start reads its own
        (``feasible_start`` at the narrowest width): e.g. an unfinished coordinate
        descent's weights and intercept, whose multipliers need not satisfy ``y'a = 0``.
    warm : bool, default=True
        Start from the smoothed primal problem (when there are more rows than ``q``);
        ``False``: from ``a = 0``.

    Returns
    -------
    SolverResult
        As :func:`linear_svc`'s: ``solver="decomposition"``, ``n_iter`` counts outer steps,
        ``extra`` holds ``w``, ``feasibility`` (``|y'a|``), ``device``, ``working_set`` and
        ``sub_iterations`` (the SMO steps of all sub-problems).
    """
    from ._smo import solve_dual

    xp = device.xp
    n = int(np.shape(y)[0])
    y = np.asarray(y, dtype=np.float64)
    Cb = np.broadcast_to(np.asarray(C, dtype=np.float64), (n,)).copy()
    max_steps = DEFAULT_MAX_STEPS if max_iter is None else int(max_iter)
    q = WORKING_SET if working_set is None else int(working_set)
    if rows is not None and not (len(rows) == Z.shape[0]
                                 and np.array_equal(rows, np.arange(Z.shape[0]))):
        Z = Z[xp.asarray(rows)]
    yd = xp.asarray(y)
    Cd = xp.asarray(Cb)
    talk = enable(verbose)
    t0 = last = time.perf_counter()
    if alpha0 is not None:
        alpha = xp.asarray(np.array(alpha0, dtype=np.float64))
    elif primal0 is not None:
        v = np.r_[np.asarray(primal0[0], dtype=np.float64), float(primal0[1])]
        alpha = feasible_start(xp, Z, yd, Cd, v, WARM_DELTAS[-1])
    elif warm and n > q:
        alpha = warm_start(xp, Z, y, Cb)
        if talk:
            logger.info("%s: warm start from the smoothed primal, %.1f s", label,
                        time.perf_counter() - t0)
    else:
        alpha = xp.zeros(n, dtype=xp.float64)
    w = _weights(xp, Z, alpha * yd)
    steps = sub_iters = 0
    gap = np.inf
    converged = False
    status = "max_iter reached"
    sub_tol = 0.5 * tol
    while n > 0:
        f = (Z @ w.astype(xp.float32)).astype(xp.float64)
        g = yd - f                                     # -y_t G_t, G = y f - 1
        up = ((yd > 0) & (alpha < Cd)) | ((yd < 0) & (alpha > 0))
        low = ((yd > 0) & (alpha > 0)) | ((yd < 0) & (alpha < Cd))
        top = float(xp.where(up, g, -xp.inf).max())
        bottom = float(xp.where(low, g, xp.inf).min())
        gap = top - bottom if np.isfinite(top) and np.isfinite(bottom) else 0.0
        if talk and time.perf_counter() - last >= REPORT_EVERY:
            last = time.perf_counter()
            logger.info("%s: step %d, gap %.3g, %.1f s", label, steps, gap, last - t0)
        if gap <= tol:
            converged, status = True, "converged"
            break
        if steps >= max_steps:
            break
        B = _working_set(xp, g, up, low, q // 2, top, bottom)
        Zb = Z[B].astype(xp.float64)
        Kb = _host(Zb @ Zb.T)
        Kb = (Kb + Kb.T) / 2  # the product's rounding, symmetric for the solver's checks
        Bh = _host(B)
        yb, cb = y[Bh], Cb[Bh]
        ab = _host(alpha[B])
        fb = _host(f[B])
        # p_B = G_B - Q_BB a_B: the sub-problem's linear term with the other rows fixed
        p = (yb * fb - 1.0) - yb * (Kb @ (yb * ab))
        res = solve_dual(Kb, yb, p=p, C=cb, alpha0=ab, tol=sub_tol, check_input=False)
        sub_iters += int(res.n_iter)
        step = res.alpha - ab
        steps += 1
        if not np.any(step != 0.0):
            # the sub-problem is solved to tol / 2 on float64 products but the float32
            # ones still see a gap: nothing more can be gained
            status = "stalled: the float32 products' rounding is above tol"
            break
        alpha[B] = xp.asarray(res.alpha)
        w += Zb.T @ xp.asarray(yb * step)
    feas_now = float(abs(np.dot(y, _host(alpha))))
    if converged and feas_now > tol * float(Cb.max(initial=0.0)):
        converged, status = False, "y'a drifted from 0 (rounding)"
    f_h = _host((Z @ w.astype(xp.float32)).astype(xp.float64))
    a_h = _host(alpha)
    w_h = _host(w)
    gap_f, b = kkt_gap(f_h, y, a_h, Cb) if n else (0.0, 0.0)
    feas = float(abs(np.dot(y, a_h)))
    objective = 0.5 * float(w_h @ w_h) - float(a_h.sum())
    extra = {"w": w_h, "feasibility": feas, "device": device.name, "working_set": q,
             "sub_iterations": sub_iters, "threads": 1}
    return SolverResult(
        alpha=a_h, b=float(b), objective=objective, n_iter=steps, converged=converged,
        kkt_gap=float(gap_f), history=np.array([[steps, objective]]), status=status,
        solver="decomposition", tol=float(tol), C=Cb if np.ndim(C) else float(C),
        extra=extra)


def warm_start(xp, Z, y, Cb, *, deltas=WARM_DELTAS, max_iter=WARM_ITERATIONS):
    """A feasible starting point ``a`` from the smoothed primal problem (module docstring),
    minimised for each smoothing width of ``deltas`` in turn (``max_iter``: L-BFGS
    iterations, one number or one per width), each from the last's ``(w, b)``
    (a continuation: the narrower the hinge's smoothing, the fewer rows are left between
    the bounds and the fewer decomposition steps follow); ``Z`` and the returned ``a`` are
    on the namespace ``xp``. With ``PRECONDITION`` (the default) L-BFGS runs on the
    diagonally rescaled problem, for ``PRECONDITIONED_ITERATIONS`` when ``max_iter`` is the
    default.

    From ``SUBSAMPLE_ROWS`` rows on (None, the default: never; with the default widths
    and iterations) the widths are first taken on a random ``1 / SUBSAMPLE_SHARE`` of the
    rows, their bounds ``C_t`` scaled by the share (the subsample's hinge losses then weigh
    as all rows'), on the diagonally rescaled problem (``_diagonal_scaling``), and only the
    last width again on every row, for ``FINAL_ITERATIONS`` iterations: fewer evaluations
    over all rows (about 530 -> 100-247 on five problems), but on one of them many more
    steps after the start (``SUBSAMPLE_ROWS``'s comment)."""
    yd, Cd = xp.asarray(y), xp.asarray(Cb)
    n = Z.shape[0]
    v = np.zeros(Z.shape[1] + 1)
    if (SUBSAMPLE_ROWS is not None and n >= SUBSAMPLE_ROWS and deltas is WARM_DELTAS
            and max_iter is WARM_ITERATIONS):
        ns = n // SUBSAMPLE_SHARE
        # a fixed draw: the same start for the same problem
        S = xp.asarray(np.sort(np.random.default_rng(0).choice(n, ns, replace=False)))
        v = _minimise(xp, Z[S], yd[S], Cd[S] * (n / ns), v, deltas, SUBSAMPLE_ITERATIONS,
                      rescaled=True)
        del S
        v = _minimise(xp, Z, yd, Cd, v, deltas[-1:], (FINAL_ITERATIONS,), rescaled=True)
        return feasible_start(xp, Z, yd, Cd, v, deltas[-1])
    if PRECONDITION:
        max_iter = PRECONDITIONED_ITERATIONS if max_iter is WARM_ITERATIONS else max_iter
    v = _minimise(xp, Z, yd, Cd, v, deltas, max_iter, rescaled=PRECONDITION)
    return feasible_start(xp, Z, yd, Cd, v, deltas[-1])


def _minimise(xp, Z, yd, Cd, v, deltas, max_iter, *, rescaled: bool):
    """``(w, b)`` after L-BFGS on the smoothed primal problem of the rows ``Z`` (labels
    ``yd``, bounds ``Cd``), one width of ``deltas`` after the other from ``v``;
    ``rescaled``: in the variables ``(w, b) / s`` (``_diagonal_scaling``)."""
    import scipy.optimize as so

    r = Z.shape[1]

    def value_grad(v, delta):
        w = xp.asarray(v[:r].astype(np.float32))
        u = 1.0 - yd * ((Z @ w).astype(xp.float64) + float(v[r]))
        d = Cd * xp.clip(u / delta, 0.0, 1.0)
        h = xp.where(u <= 0, 0.0, xp.where(u < delta, u * u / (2 * delta), u - delta / 2))
        dy = d * yd
        gw = v[:r] - _host(_transposed_product(xp, Z, dy))
        val = 0.5 * float(v[:r] @ v[:r]) + float((Cd * h).sum())
        return val, np.r_[gw, -float(dy.sum())]

    def scaled(p, delta, s):
        val, grad = value_grad(p * s, delta)
        return val, grad * s

    iterations = np.broadcast_to(np.asarray(max_iter, dtype=int), (len(deltas),))
    for delta, its in zip(deltas, iterations, strict=True):
        if not rescaled:
            v = so.minimize(value_grad, v, args=(delta,), jac=True, method="L-BFGS-B",
                            options={"maxiter": int(its), "gtol": 1e-8, "ftol": 1e-13}).x
            continue
        # L-BFGS in p = (w, b) / s, s = 1 / sqrt(the Hessian's diagonal at the width's
        # start); ftol = 0 (the value's last digits are the float32 products' noise) and
        # the evaluations capped (near that noise the line searches flail)
        s = _diagonal_scaling(xp, Z, yd, Cd, v, delta)
        v = s * so.minimize(scaled, v / s, args=(delta, s), jac=True, method="L-BFGS-B",
                            options={"maxiter": int(its), "maxfun": 2 * int(its),
                                     "gtol": 1e-8, "ftol": 0.0}).x
    return v


def _diagonal_scaling(xp, Z, yd, Cd, v, delta):
    """``1 / sqrt(diag H)`` of the smoothed problem at ``v = (w, b)``: ``H = I + (1 / delta)
    sum C_t z_t z_t'`` over the rows in the hinge's quadratic zone ``0 < u_t < delta``
    (for the free bias ``1 + sum C_t / delta``), summed a block of rows at a time."""
    r = Z.shape[1]
    w = xp.asarray(v[:r].astype(np.float32))
    u = 1.0 - yd * ((Z @ w).astype(xp.float64) + float(v[r]))
    c = xp.where((u > 0) & (u < delta), Cd / delta, 0.0)
    c32 = c.astype(xp.float32)
    diag = xp.zeros(r, dtype=xp.float64)
    for lo in range(0, Z.shape[0], PRODUCT_BLOCK):
        block = Z[lo:lo + PRODUCT_BLOCK]
        diag += ((block * block).T @ c32[lo:lo + PRODUCT_BLOCK]).astype(xp.float64)
    return 1.0 / np.sqrt(np.r_[1.0 + _host(diag), 1.0 + float(c.sum())])


def feasible_start(xp, Z, yd, Cd, v, delta):
    """The smoothed problem's multipliers at ``(w, b) = (v[:-1], v[-1])`` made to satisfy
    ``y'a = 0``: ``b`` is moved to the root of ``y'a(b)`` (continuous and non-increasing in
    ``b``) by bisection, and what rounding leaves is taken up by one multiplier between its
    bounds. (Scaling a class's multipliers instead would move its rows at the upper bound
    -- the margin's violators -- off it, and each would then violate the optimality
    conditions by its whole margin: tens of thousands of rows for the decomposition to
    bring back.)"""
    r = Z.shape[1]
    w = xp.asarray(v[:r].astype(np.float32))
    base = 1.0 - yd * (Z @ w).astype(xp.float64)

    def multipliers(b):
        return Cd * xp.clip((base - yd * b) / delta, 0.0, 1.0)

    def excess(b):
        return float((yd * multipliers(b)).sum())

    lo = hi = float(v[r])
    step = 1.0
    while excess(lo) < 0 and step < 1e12:
        lo -= step
        step *= 2
    step = 1.0
    while excess(hi) > 0 and step < 1e12:
        hi += step
        step *= 2
    for _ in range(100):
        mid = 0.5 * (lo + hi)
        if mid in (lo, hi):
            break
        if excess(mid) > 0:
            lo = mid
        else:
            hi = mid
    a = multipliers(hi)
    rest = float((yd * a).sum())
    free = xp.nonzero((a > 0) & (a < Cd))[0]
    if rest != 0.0 and free.shape[0]:
        # the largest room in the direction that cancels rest
        t = int(free[int(xp.argmax(xp.minimum(a[free], Cd[free] - a[free])))])
        a[t] = min(max(float(a[t]) - float(yd[t]) * rest, 0.0), float(Cd[t]))
        rest = float((yd * a).sum())
    if rest != 0.0:
        pos = yd > 0
        sp, sn = float(a[pos].sum()), float(a[~pos].sum())
        if sp > sn:
            a = xp.where(pos, a * (sn / sp), a)
        elif sn > sp:
            a = xp.where(pos, a, a * (sp / sn))
    return a


#: rows of a block whose float32 product is summed in float64 (``_transposed_product``)
PRODUCT_BLOCK = 65536


def _transposed_product(xp, Z, v, rows_per_block: int = PRODUCT_BLOCK):
    """``Z' v`` for the warm start's gradient: float32 products of blocks of rows, their
    sums added in float64. One float32 product over all n rows rounds its sums over n
    terms: at 10^6 rows the gradient was off by up to 0.05, more than L-BFGS needs near the
    optimum, and the start it left was far (on ten noisy copies of 10^5 rows, 2-core VM,
    2026-11-27: a gap of 9.5 at step 0 and 87 steps, against 1.7 and 4 steps with the
    blocks)."""
    v32 = v.astype(xp.float32)
    n, r = Z.shape
    k = n // rows_per_block
    head = k * rows_per_block
    out = xp.zeros(r, dtype=xp.float64)
    if k:
        # the full blocks as one batched product (a launch or two on the device, not one a
        # block: 153 blocks at 10^7 rows), their sums added in float64
        parts = xp.matmul(v32[:head].reshape(k, 1, rows_per_block),
                          Z[:head].reshape(k, rows_per_block, r))
        out += parts.reshape(k, r).astype(xp.float64).sum(axis=0)
    if head < n:
        out += (Z[head:].T @ v32[head:]).astype(xp.float64)
    return out


def _weights(xp, Z, v, rows_per_block: int = 65536):
    """``Z' v`` in float64, a block of rows at a time (no float64 copy of Z)."""
    w = xp.zeros(Z.shape[1], dtype=xp.float64)
    for lo in range(0, Z.shape[0], rows_per_block):
        w += Z[lo:lo + rows_per_block].T.astype(xp.float64) @ v[lo:lo + rows_per_block]
    return w


def _host(a) -> np.ndarray:
    return a.get() if hasattr(a, "get") else np.asarray(a)
