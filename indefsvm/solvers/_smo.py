"""SMO for C-SVC with indefinite kernels: validation and restarts around the compiled loop."""

from __future__ import annotations

import numpy as np
from sklearn.utils import check_random_state
from sklearn.utils._param_validation import StrOptions

from .. import _warn
from .._solvers._smo import SCALARS, SMOSolver, result_dict, solve_tasks
from .._threads import single_threaded_blas
from .._validation import (
    MAX_ITER,
    NONNEG_INT,
    POS,
    SCALERS,
    check_binary_labels,
    check_choice,
    check_generator,
    check_max_iter,
    check_memory,
    check_pm1_labels,
    check_positive,
    check_vector,
    options_checked,
    user_stacklevel,
)
from ..exceptions import ConvergenceWarning, ParameterError, UnboundedObjectiveError
from ._kernel import SolverKernel
from ._result import STATUS_TEXT, SolverResult

_WSS = ("first_order", "second_order")

#: bytes a random start holds per variable until the lowest objective is chosen (its start,
#: its solution and the solver's per-start arrays): measured with tracemalloc, IndefiniteSVC
#: on 270 samples with 2 000 and 8 000 restarts (peaks 92 and 366 MB, 170 bytes each)
RESTART_BYTES = 170.0


def check_restarts_memory(n_restarts: int, n_vars: int, what: str) -> None:
    """Raise MemoryError before the starts are drawn when ``n_restarts`` random starts of
    ``n_vars`` variables in all (every problem's) need more memory than is available."""
    if n_restarts:
        check_memory(RESTART_BYTES * float(n_restarts) * n_vars,
                     f"{what} with {{n_restarts}} ({n_vars} variables a start)",
                     "Use fewer restarts: every start and its solution are kept until the "
                     "lowest objective is chosen.", {"n_restarts": n_restarts})
_INIT = ("zero", "class_balanced")
_CACHE_DTYPES = ("auto", "float32", "float64")
# "auto" keeps float64 columns while the whole float64 matrix is this small (MB): there the
# memory does not matter and the loop needs no polish
_FLOAT64_AUTO_MB = 8.0


def _c_text(C) -> str:
    """C for a message: the number, or the range of per-sample bounds."""
    if np.ndim(C) == 0:
        return f"{float(C):g}"
    return f"per-sample bounds in [{float(np.min(C)):g}, {float(np.max(C)):g}]"


def check_bounds(C, n: int, name: str = "C"):
    """One bound > 0 (``inf`` allowed), or one per variable: a float64 array of shape (n,)
    with every entry > 0. Entries of 0 are refused here: a sample with no weight is left out
    by the estimators before the solver sees it (LIBSVM does the same)."""
    if np.ndim(C) == 0:
        return check_positive(C, name, allow_inf=True)
    try:
        Cv = np.asarray(C, dtype=np.float64)
    except (TypeError, ValueError):
        raise ParameterError("must be a positive number or an array of them.",
                             name) from None
    if Cv.shape != (n,):
        raise ParameterError(f"must be a number or have shape ({n},); got {Cv.shape}.", name)
    bad = ~(Cv > 0)
    if bad.any():
        i = int(np.flatnonzero(bad)[0])
        raise ParameterError(
            f"must be > 0 for every sample; got {Cv[i]!r} at index {i}. Leave out the "
            "samples whose weight is 0.", name)
    return np.ascontiguousarray(Cv)


def random_feasible_alpha(y: np.ndarray, C: float, rng) -> np.ndarray:
    """A random point of {0 <= alpha <= C, y'alpha = 0} (the larger class is scaled down).

    Parameters
    ----------
    y : ndarray of shape (n,)
        Labels +1 / -1.
    C : float or ndarray of shape (n,)
        Upper bound, one for all or one per sample (``inf``: entries drawn in [0, 1]).
    rng : numpy.random.Generator, RandomState, int or None
        A generator, or a seed for one.

    Returns
    -------
    ndarray of shape (n,)

    Examples
    --------
    >>> import numpy as np
    >>> from indefsvm.solvers import random_feasible_alpha
    >>> y = np.array([1.0, 1.0, -1.0])
    >>> a = random_feasible_alpha(y, 2.0, np.random.default_rng(0))
    >>> bool(abs(y @ a) < 1e-12 and a.min() >= 0 and a.max() <= 2)
    True
    """
    y = check_pm1_labels(y)
    rng = check_generator(rng)
    # C = inf (hard margin): any scale is feasible; take [0, 1]
    try:
        C = np.asarray(C, dtype=np.float64)
        if C.ndim > 1 or (C.ndim == 1 and C.shape != y.shape):
            raise ValueError
    except (TypeError, ValueError):
        raise ParameterError(f"must be a number or {y.shape[0]} numbers, one per sample; got "
                             f"{type(C).__name__} of shape {np.shape(C)}.", "C") from None
    C = np.broadcast_to(C, y.shape)
    if not np.all(C >= 0):
        raise ParameterError("must be >= 0 (one bound, or one per sample, inf for none).", "C")
    alpha = rng.uniform(0.0, 1.0, size=y.shape[0]) * np.where(np.isfinite(C), C, 1.0)
    pos, neg = y > 0, y < 0
    sp, sn = alpha[pos].sum(), alpha[neg].sum()
    if sp > sn:
        alpha[pos] *= sn / sp
    elif sn > 0:  # (both sums 0: alpha is 0 already, and 0 / 0 is not a scale)
        alpha[neg] *= sp / sn
    return alpha


def _initial_alpha(init, y, C):
    if init == "zero":
        return np.zeros(y.shape[0])
    # the SVM lecture notes: alpha_i = c / N_+ or c / N_-, feasible for y'alpha = 0; c scaled
    # so that alpha <= C
    n_pos, n_neg = np.count_nonzero(y > 0), np.count_nonzero(y < 0)
    c = min(1.0, float(np.min(C)) * min(n_pos, n_neg))
    return np.where(y > 0, c / n_pos, c / n_neg)


def _raise_unbounded(out, kern, y, C=np.inf):
    pair = out["bad_pair"]
    if pair is None and np.all(np.isfinite(C)):
        # with finite bounds the objective is bounded: only non-finite kernel values (an
        # overflow of the kernel for huge inputs or parameters) -- or a C so large that the
        # gradient's sums of C K_ij overflow -- can send it to -inf or NaN
        top = float(np.max(C))
        Kmat = kern.K
        kmax = (float(np.max(np.abs(Kmat))) if Kmat is not None and Kmat.size
                and np.all(np.isfinite(Kmat)) else None)
        n = max(y.shape[0], 1)
        if kmax is not None and kmax > 0 and top > 0 and (
                np.log10(top) + np.log10(n) + np.log10(kmax) > 300):
            # a finite kernel: C K_ij summed over the samples is what overflowed
            raise ValueError(
                f"The dual coefficients or intercepts are not finite: C = {top:.3g} is too "
                f"large for this kernel, whose values reach {kmax:.3g} (the solver's sums of "
                f"C K_ij over {y.shape[0]} samples overflow float64 near 1e308). Use "
                "a smaller C, or scale the kernel down (a positive factor on K and its "
                "inverse on C give the same classifier).")
        if top > 0 and np.log10(top) + np.log10(n) > 250:
            raise ValueError(
                f"The dual coefficients or intercepts are not finite: C = {top:.3g} is too "
                f"large (the gradient sums C K_ij over {y.shape[0]} samples, which overflows "
                "float64 near 1e308). Use a smaller C.")
        raise ParameterError(
            "The dual coefficients or intercepts are not finite: the kernel has values that "
            "are not finite (an overflow: the inputs or the kernel parameters, such as gamma "
            "or degree, are too large). The input data may contain large values and need to "
            "be preprocessed ({scale}).", "X", "", SCALERS)
    if pair is None:
        raise UnboundedObjectiveError(
            "The dual objective diverges to -infinity (C = inf and the kernel has a feasible "
            "direction of negative curvature). Give a finite C.")
    i, j = pair
    Kmat = kern.K
    if Kmat is not None:
        eta = Kmat[i, i] + Kmat[j, j] - 2 * Kmat[i, j]
        eta_txt = f"eta = K_ii + K_jj - 2 K_ij = {eta:.4g} <= 0"
    else:
        eta_txt = "eta = K_ii + K_jj - 2 K_ij <= 0"
    raise UnboundedObjectiveError(
        f"The dual objective is unbounded below: samples {i} and {j} have opposite labels "
        f"(y = {y[i]:+g}, {y[j]:+g}) and {eta_txt}, so with C = inf the objective of (6) "
        "goes to -infinity along them (Lin & Lin, Thm 5). Give a finite C.")


def check_kernel_inputs(data, kernel, kernel_params) -> None:
    """The checks :func:`solve_dual` skips with ``check_input=False``, done once: the data
    (finite; a precomputed K square, finite and symmetric) and kernel values that can be
    finite."""
    SolverKernel.of(data, kernel, kernel_params).check_finite()


def _use_float32(cache_dtype, kind, n, bound):
    """Column storage: "auto" is float32 for kernels computed on the fly unless the whole
    float64 matrix is small or an entry could overflow float32 (|K| bound above 1e30); a
    precomputed kernel is gathered from float64 exactly."""
    if cache_dtype != "auto":
        if cache_dtype == "float32" and not bound <= 1e30:
            raise ValueError(
                f"cache_dtype='float32' cannot hold this kernel: its entries may reach "
                f"{bound:.3g}, beyond float32. Use cache_dtype='float64' (or 'auto').")
        return cache_dtype == "float32"
    return kind != 0 and 8.0 * n * n / 1048576.0 > _FLOAT64_AUTO_MB and bound <= 1e30


def _solve_tasks(kern, tasks, *, tol, wss, shrinking,
                 max_iter, cache_size, same_class=False, f32=False, n_threads=1,
                 progress=None, task_done=None):
    """Run the compiled loop on each task ``(rows, y, alpha0, C, p)`` (``rows``: the kernel
    row of each variable; ``C`` and ``p`` one entry per variable) over ``n_threads``
    threads; return one result dict per task, in order.

    One solver and one kernel cache per thread, reused from task to task (the cache's
    ``cache_size`` megabytes are shared among the threads, as LIBSVM's one cache);
    ``progress(task, n_iter, objective, gap, seconds)`` every few seconds, ``task_done()``
    after each task."""
    n_threads = max(1, int(n_threads))
    # threads take whole tasks; a lone task splits its kernel columns among them instead
    n_solvers = min(n_threads, len(tasks))
    column_threads = n_threads if n_solvers == 1 else 1
    big = max(range(len(tasks)), key=lambda k: tasks[k][1].shape[0])
    rows_b, y_b, a_b, C_b, p_b = tasks[big]
    cap = y_b.shape[0]
    solvers = []
    for _ in range(n_solvers):
        cache = kern.cache(cache_size / n_solvers, cap, f32, rows_b)
        cache.n_threads = column_threads
        solver = SMOSolver(cache, y_b, a_b, C_b, tol, wss == "second_order",
                           bool(shrinking), max_iter, p_b, same_class)
        if progress is not None:
            from .. import _logging

            solver.progress_task = progress
            solver.report_every = _logging.REPORT_EVERY
        solvers.append(solver)
    offsets = np.zeros(len(tasks) + 1, dtype=np.intp)
    offsets[1:] = np.cumsum([t[1].shape[0] for t in tasks])
    cat = [np.concatenate([np.asarray(t[f], dtype=dt) for t in tasks])
           for f, dt in ((0, np.intp), (1, np.float64), (2, np.float64), (3, np.float64),
                         (4, np.float64))]
    if kern.kind == 0:
        # a precomputed kernel: no BLAS in the loop
        alpha, grad, scal, hist = solve_tasks(solvers, cat[0], offsets, cat[1], cat[2],
                                              cat[3], cat[4], task_done=task_done)
    else:
        with single_threaded_blas():
            alpha, grad, scal, hist = solve_tasks(solvers, cat[0], offsets, cat[1], cat[2],
                                                  cat[3], cat[4], task_done=task_done)
    return [result_dict(alpha[lo:hi], grad[lo:hi], scal[k], hist[k])
            for k, (lo, hi) in enumerate(zip(offsets[:-1], offsets[1:], strict=True))]


def _best_start(outs, prefer_positive=False):
    """The run of lowest objective; with ``prefer_positive``, the lowest among the positive
    ones first (the convex-hull dual, whose objective 1/2 w'Mw must be > 0 to make sense)."""
    key = [(prefer_positive and not o["objective"] > 0, o["objective"]) for o in outs]
    return outs[min(range(len(outs)), key=key.__getitem__)]


def _run_starts(kern, y, starts, C, tol, wss, shrinking,
                max_iter, cache_size, p=None, same_class=False, f32=None,
                sample_of=None, progress=None, prefer_positive=False, start_done=None,
                n_threads=1):
    """Run the compiled loop from each start; return the lowest-objective run and all
    objectives. ``C`` is one bound or one per variable; ``sample_of`` maps variables to
    kernel rows when a sample carries several variables (epsilon-SVR). ``f32``: float32
    columns (None: the "auto" rule of :func:`smo`). The starts run on ``n_threads``
    threads."""
    n = y.shape[0]
    if f32 is None:
        f32 = _use_float32("auto", kern.kind, n, kern.bound())
    rows = np.arange(n, dtype=np.intp) if sample_of is None else np.asarray(sample_of)
    Cv = np.broadcast_to(np.asarray(C, dtype=np.float64), (n,))
    pv = -np.ones(n) if p is None else np.asarray(p, dtype=np.float64)
    tasks = [(rows, y, np.asarray(a0, dtype=np.float64), Cv, pv) for a0 in starts]
    outs = _solve_tasks(kern, tasks, tol=tol, wss=wss,
                        shrinking=shrinking, max_iter=max_iter, cache_size=cache_size,
                        same_class=same_class, f32=f32, n_threads=n_threads,
                        progress=None if progress is None else _drop_task(progress),
                        task_done=start_done)
    for out in outs:
        if out["status"] == 2:
            _raise_unbounded(out, kern, y, C)
    return _best_start(outs, prefer_positive), [o["objective"] for o in outs]


def _drop_task(progress):
    """progress(n_iter, objective, gap, seconds) as a callback that is also told the task."""
    return lambda task, *figures: progress(*figures)


def stop_message(status: int, gap: float, tol: float, max_iter, who: str = "SMO",
                 scale: str = "the kernel and C") -> str:
    """Why a run is not converged, and what to do: stalled (tol out of float64's reach) or
    stopped by max_iter."""
    if status == 4:
        return (f"{who} stalled at a KKT gap m - M of {gap:.3g}, above tol={tol:g}: the "
                "objective stopped decreasing (its steps fell below float64's resolution), so "
                "this tol cannot be reached on this problem; the point returned is the best "
                f"reached. Use a larger tol (or scale {scale}).")
    return (f"{who} stopped at max_iter={max_iter} before reaching tol={tol:g}: the KKT gap "
            f"m - M is {gap:.3g}. Increase max_iter (or tol) for a stationary point.")


def _result(best, objectives, f32, tol, C, converged, keys=("m", "M", "n_kernel_evals",
              "cache_hits", "cache_misses", "polish_rounds", "split_columns",
              "split_threads", "split_level", "grad")) -> SolverResult:
    """The SolverResult of the compiled loop's best run."""
    extra = {k: best[k] for k in keys}
    extra["cache_dtype"] = "float32" if f32 else "float64"
    return SolverResult(
        alpha=best["alpha"], b=float(best["b"]), objective=float(best["objective"]),
        n_iter=int(best["n_iter"]), converged=bool(converged),
        kkt_gap=float(best["kkt_gap"]), history=best["history"],
        status=STATUS_TEXT[best["status"]], solver="smo", tol=tol, C=C,
        n_concave_steps=int(best["n_concave_steps"]), restart_objectives=objectives,
        extra=extra,
    )


@options_checked({
    "wss": [StrOptions({"second_order", "first_order"})], "shrinking": ["boolean"],
    "max_iter": MAX_ITER, "cache_size": [POS], "init": [StrOptions({"zero", "class_balanced"})],
    "n_restarts": [NONNEG_INT], "random_state": ["random_state"], "kernel": [str, callable],
    "kernel_params": [dict, None], "warn": ["boolean"], "check_input": ["boolean"],
    "cache_dtype": [StrOptions({"auto", "float32", "float64"})],
})
def smo(
    K,
    y,
    *,
    C: float = 1.0,
    tol: float = 1e-3,
    wss: str = "second_order",
    shrinking: bool = True,
    max_iter: int | None = None,
    cache_size: float = 200.0,
    init: str = "zero",
    alpha0=None,
    n_restarts: int = 0,
    random_state=None,
    kernel="precomputed",
    kernel_params: dict | None = None,
    warn: bool = True,
    check_input: bool = True,
    cache_dtype: str = "auto",
) -> SolverResult:
    """Train a binary C-SVC by SMO, for PSD and indefinite kernels alike.

    Solves problem (2) of Lin & Lin (2003), ``min 1/2 a'Qa - e'a`` subject to
    ``0 <= a <= C`` and ``y'a = 0``, with ``Q_ij = y_i y_j K_ij``. For an indefinite ``K`` the
    problem is non-convex and the result is a stationary (KKT) point.

    Parameters
    ----------
    K : array-like
        The kernel matrix (n_samples, n_samples) when ``kernel="precomputed"`` (default);
        otherwise the data ``X`` (n_samples, n_features), dense or sparse, whose kernel
        columns are computed in C on demand and cached, so the n x n matrix is never formed.
        Sparse ``X`` is used as CSR rows by the linear, polynomial, rbf and sigmoid kernels
        (densified for the others).
    y : array-like of shape (n_samples,)
        Labels, +1 or -1, both present.
    C : float or array-like of shape (n_samples,), default=1.0
        Upper bound on alpha (> 0), one for all samples or one per sample (``C_i``: how class
        and sample weights enter, as in LIBSVM). ``np.inf`` gives the hard margin; then an unbounded
        objective (an opposite-label pair with ``K_ii + K_jj - 2 K_ij <= 0``, Thm 5, or any
        divergence) raises :class:`~indefsvm.UnboundedObjectiveError` instead of looping.
    tol : float, default=1e-3
        Stop when the KKT gap ``m(a) - M(a)`` of (21) is ``<= tol``.
    wss : {"second_order", "first_order"}, default="second_order"
        Working-set selection: (22) (``"first_order"``), or ``i`` by (22) and ``j`` minimising
        ``-b^2 / a`` with ``a`` replaced by 1e-12 when ``a <= 0`` (LIBSVM's rule).
    shrinking : bool, default=True
        Temporarily remove variables stuck at a bound (LIBSVM's heuristic; the final check is
        always on all variables).
    max_iter : int, optional
        Iteration cap; ``None`` means ``max(10_000_000, 100 * n_samples)`` (finite).
    cache_size : float, default=200
        Megabytes of kernel columns kept (at least two columns).
    cache_dtype : {"auto", "float32", "float64"}, default="auto"
        Storage of the cached columns. float32 halves the memory and the bandwidth of the
        loop (LIBSVM's choice); the solve then ends with a float64 polish, so ``converged``
        and ``kkt_gap`` still refer to a gradient computed from float64 kernel values.
        ``"auto"``: float32 for kernels computed on the fly when the full float64 matrix
        would exceed 8 MB and no entry can overflow float32, float64 otherwise (and always
        for a precomputed kernel, whose columns are exact gathers). With float32 columns the
        objective values recorded in ``history`` between polishes are running values built
        from them (relative error of order 1e-7); the returned ``objective`` is exact.
    init : {"zero", "class_balanced"}, default="zero"
        Starting point: ``alpha = 0``, or ``alpha_i = c / N_+`` (positives), ``c / N_-``
        (negatives) with ``c = min(1, C min(N_+, N_-))`` (the SVM lecture notes).
    alpha0 : array-like, optional
        Explicit feasible starting point (in place of ``init``'s: an ``init`` other than
        "zero" beside it is refused).
    n_restarts : int, default=0
        Extra runs from random feasible points (Lin & Lin 2003, Fig. 5); the lowest objective wins.
    random_state : int, RandomState or None
        Seed for the random starts.
    kernel : str or callable, default="precomputed"
        How to read ``K``; see :func:`indefsvm.kernel_matrix` for names.
    kernel_params : dict, optional
        ``gamma``, ``coef0``, ``degree``, ``sigma`` or ``p`` for a named kernel.
    warn : bool, default=True
        Emit :class:`~sklearn.exceptions.ConvergenceWarning` when stopped by ``max_iter``.
    check_input : bool, default=True
        Check a precomputed ``K`` (square, finite, symmetric). Only for callers that have
        checked it already, such as :class:`~indefsvm.IndefiniteSVC`; an unchecked bad matrix
        gives meaningless results.

    Returns
    -------
    SolverResult

    Notes
    -----
    The two-variable sub-problem is solved by rule (27): a clipped Newton step when
    ``a_ij = K_ii + K_jj - 2 K_ij > 0``, the step to the bound when ``a_ij <= 0``. The objective
    then decreases strictly at every iteration (Lemma 3) and every limit point is stationary
    (Thm 11). ``converged`` is decided on a gradient recomputed from scratch in float64.

    References
    ----------
    H.-T. Lin and C.-J. Lin, *A study on sigmoid kernels for SVM and the training of non-PSD
    kernels by SMO-type methods*, section 6, (21), (22), (27).

    Examples
    --------
    The stall case of Lin & Lin 2003, §6: both variables at 0, opposite labels, concave sub-problem.

    >>> import numpy as np
    >>> from indefsvm.solvers import smo
    >>> res = smo(np.array([[0.0, 1.0], [1.0, 0.0]]), np.array([1, -1]), C=2.0)
    >>> res.alpha
    array([2., 2.])
    >>> res.converged, res.objective
    (True, -8.0)
    """
    kern = SolverKernel.of(K, kernel, kernel_params, check_input)
    kern.check_finite()
    n = kern.n_samples
    y = check_binary_labels(y, n)
    C = check_bounds(C, n)
    tol = check_positive(tol, "tol")
    check_choice(wss, "wss", _WSS)
    check_choice(init, "init", _INIT)
    check_choice(cache_dtype, "cache_dtype", _CACHE_DTYPES)
    cache_size = check_positive(cache_size, "cache_size")
    max_iter = check_max_iter(max_iter, n)
    if int(n_restarts) != n_restarts or n_restarts < 0:
        raise ParameterError(f"must be a non-negative integer; got {n_restarts!r}.",
                             "n_restarts")
    if alpha0 is not None:
        if init != "zero":  # two starts: init was taken and not used
            raise ValueError(f"init={init!r} and alpha0 both give the starting point; give "
                             "one of them.")
        alpha0 = check_vector(alpha0, "alpha0", finite=False)
        if alpha0.shape != (n,):
            raise ParameterError(f"must have shape ({n},); got {alpha0.shape}.", "alpha0")
        if np.any(alpha0 < 0) or np.any(alpha0 > C) or not np.all(np.isfinite(alpha0)):
            raise ParameterError(f"must satisfy 0 <= alpha0 <= C (C={_c_text(C)}).",
                                 "alpha0")
        if abs(y @ alpha0) > 1e-8 * max(1.0, float(np.max(C)) * n):
            raise ParameterError(
                f"must satisfy y'alpha0 = 0; got {y @ alpha0:.3g}. "
                "Use indefsvm.solvers.random_feasible_alpha for a feasible random start."
            , "alpha0")
    starts = [alpha0 if alpha0 is not None else _initial_alpha(init, y, C)]
    rng = check_random_state(random_state)
    check_restarts_memory(int(n_restarts), n, "smo")
    starts += [random_feasible_alpha(y, C, rng) for _ in range(int(n_restarts))]

    f32 = _use_float32(cache_dtype, kern.kind, n, kern.bound())
    best, objectives = _run_starts(kern, y, starts, C, tol,
                                   wss, shrinking, max_iter, cache_size, f32=f32)
    converged = best["status"] == 0
    if not converged and warn:
        _warn.warn(stop_message(best["status"], best["kkt_gap"], tol, max_iter, "SMO"),
                   ConvergenceWarning, stacklevel=user_stacklevel())
    return _result(best, objectives, f32, tol, C, converged)


def solve_dual(
    data,
    y,
    *,
    p,
    C,
    alpha0,
    sample_of=None,
    same_class: bool = False,
    kernel="precomputed",
    kernel_params: dict | None = None,
    tol: float = 1e-3,
    wss: str = "second_order",
    shrinking: bool = True,
    max_iter: int | None = None,
    cache_size: float = 200.0,
    cache_dtype: str = "auto",
    check_input: bool = True,
    progress=None,
    start_done=None,
    n_threads: int = 1,
) -> SolverResult:
    """The general dual of LIBSVM by the same compiled SMO (private; the estimators' engine).

    ``min 1/2 a'Qa + p'a`` subject to ``y'a = y'alpha0`` (or, with ``same_class``, the sum of
    ``a`` over each class fixed: the nu forms) and ``0 <= a_i <= C_i``, where
    ``Q_ij = y_i y_j K(s_i, s_j)`` and ``s = sample_of`` maps the variables to kernel rows
    (the identity, or ``[0..n-1, 0..n-1]`` for the 2n variables of epsilon-SVR). Rule (27)
    of Lin & Lin (2003) for the concave sub-problems, second-order selection, the column
    cache, shrinking and the float64 polish are those of :func:`smo`.

    ``progress(n_iter, objective, gap, seconds)``, when given, is called every few seconds
    from inside the loop (the estimators' ``verbose``); ``start_done()`` after each start.

    The caller validates the kernel parameters, the labels (+1 / -1), ``p`` and the feasible
    start ``alpha0`` (or a list of starts: the lowest objective wins); ``C`` is checked
    here. With ``check_input=False`` the inputs are taken as checked by
    :func:`check_kernel_inputs` once (the estimators solve many problems on one data set).
    No warning is emitted: the caller reads ``converged``. ``extra["grad"]`` holds ``Qa + p``
    at the solution. The starts run on ``n_threads`` threads.
    """
    problem = {"y": y, "p": p, "C": C, "alpha0": alpha0, "sample_of": sample_of}
    return solve_duals(data, [problem], same_class=same_class, kernel=kernel,
                       kernel_params=kernel_params, tol=tol, wss=wss, shrinking=shrinking,
                       max_iter=max_iter, cache_size=cache_size, cache_dtype=cache_dtype,
                       check_input=check_input,
                       progress=None if progress is None else _drop_task(progress),
                       task_done=start_done, n_threads=n_threads)[0]


def csvc_problem(y, C, alpha0=None, *, idx=None, n: int | None = None) -> dict:
    """One C-SVC dual (2) as :func:`solve_duals` takes it: labels ``y`` (+-1), bounds ``C``
    (a number or one per variable), the start(s) ``alpha0`` (default zero) and, for a
    one-vs-one problem, ``idx``: the samples of its two classes among ``n`` (the kernel row
    of each variable; all of them in order when ``idx`` covers the ``n`` samples)."""
    m = np.shape(y)[0]
    return {"y": y, "p": -np.ones(m), "C": C,
            "alpha0": np.zeros(m) if alpha0 is None else alpha0,
            "sample_of": None if idx is None or idx.shape[0] == n else idx}


def solve_duals(
    data,
    problems,
    *,
    same_class: bool = False,
    kernel="precomputed",
    kernel_params: dict | None = None,
    tol: float = 1e-3,
    wss: str = "second_order",
    shrinking: bool = True,
    max_iter: int | None = None,
    cache_size: float = 200.0,
    cache_dtype: str = "auto",
    check_input: bool = True,
    progress=None,
    task_done=None,
    n_threads: int = 1,
) -> list[SolverResult]:
    """Several duals of :func:`solve_dual` on one data set, solved inside one compiled call.

    ``problems`` is a list of dicts with the arguments of :func:`solve_dual` that differ
    between them: ``y``, ``p``, ``C``, ``alpha0`` (one start or a list) and ``sample_of``
    (the kernel row of each variable; None: all samples in order). All their starts are
    shared among ``n_threads`` threads, one solver and one kernel cache per thread reused
    from problem to problem: this is the one-vs-one loop of the multi-class estimators,
    with no Python between two problems. ``progress(problem, n_iter, objective, gap,
    seconds)`` every few seconds, ``task_done()`` after each start. One
    :class:`SolverResult` per problem (its best start), in order.
    """
    kern = SolverKernel.of(data, kernel, kernel_params, check_input)
    if check_input:
        kern.check_finite()
    tol = check_positive(tol, "tol")
    check_choice(wss, "wss", _WSS)
    check_choice(cache_dtype, "cache_dtype", _CACHE_DTYPES)
    cache_size = check_positive(cache_size, "cache_size")
    n_samples = kern.n_samples
    tasks, owner, bounds = [], [], []
    for k, prob in enumerate(problems):
        y = np.ascontiguousarray(prob["y"], dtype=np.float64)
        n_var = y.shape[0]
        C = prob["C"]
        # one number is checked here; arrays below, all problems at once
        C = check_positive(C, "C", allow_inf=True) if np.ndim(C) == 0 else np.asarray(
            C, dtype=np.float64)
        if np.ndim(C) and C.shape != (n_var,):
            raise ParameterError(f"must be a number or have shape ({n_var},); got {C.shape}.",
                                 "C")
        bounds.append(C)
        p = np.ascontiguousarray(prob["p"], dtype=np.float64)
        rows = prob.get("sample_of")
        rows = (np.arange(n_var, dtype=np.intp) if rows is None
                else np.ascontiguousarray(rows, dtype=np.intp))
        if rows.shape != (n_var,):
            raise ParameterError("must give one kernel row per variable", "sample_of")
        Cv = np.broadcast_to(np.asarray(C, dtype=np.float64), (n_var,))
        a0s = prob["alpha0"] if isinstance(prob["alpha0"], list) else [prob["alpha0"]]
        for a0 in a0s:
            tasks.append((rows, y, np.asarray(a0, dtype=np.float64), Cv, p))
            owner.append(k)
    all_C = np.concatenate([t[3] for t in tasks])
    if not np.all(all_C > 0):
        i = int(np.flatnonzero(~(all_C > 0))[0])
        raise ParameterError(
            f"must be > 0 for every sample; got {float(all_C[i])!r}. Leave out the samples whose "
            "weight is 0.", "C")
    if not all(np.all(np.isfinite(t[4])) for t in tasks):
        raise ValueError("the linear term of the dual contains NaN or infinity; check y.")
    all_rows = np.concatenate([t[0] for t in tasks])
    if all_rows.size and (all_rows.min() < 0 or all_rows.max() >= n_samples):
        raise ParameterError("must give kernel rows in [0, n_samples)", "sample_of")
    n_max = max(t[1].shape[0] for t in tasks)
    max_iter = check_max_iter(max_iter, n_max)
    f32 = _use_float32(cache_dtype, kern.kind, n_max, kern.bound())
    task_progress = None
    if progress is not None:
        def task_progress(task, *figures):
            progress(owner[task], *figures)
    outs = _solve_tasks(kern, tasks, tol=tol, wss=wss,
                        shrinking=shrinking, max_iter=max_iter, cache_size=cache_size,
                        same_class=same_class, f32=f32, n_threads=n_threads,
                        progress=task_progress, task_done=task_done)
    results = []
    by_problem = [[] for _ in problems]
    for out, k in zip(outs, owner, strict=True):
        by_problem[k].append(out)
    for k, runs in enumerate(by_problem):
        for out in runs:
            if out["status"] == 2:
                # name the samples (kernel rows) of the offending pair, not the variables
                rows, y = tasks[owner.index(k)][:2]
                pair = out["bad_pair"]
                y_rows = np.zeros(n_samples)
                y_rows[rows] = y
                _raise_unbounded(
                    dict(out, bad_pair=None if pair is None
                         else (int(rows[pair[0]]), int(rows[pair[1]]))),
                    kern, y_rows, bounds[k])
        best = _best_start(runs)
        results.append(_result(best, [o["objective"] for o in runs], f32, tol, bounds[k],
                               best["status"] == 0))
    return results


class DualPath:
    """The C-SVC duals (2) of one precomputed kernel, solved again and again with new
    bounds and starts: the C path of a search's fold, whose one-vs-one problems keep their
    samples and labels from one C to the next.

    What :func:`solve_duals` does per call and per problem -- the problems' checks, the
    kernel's wrapper, one solver and its kernel cache, a :class:`SolverResult` per problem
    -- is done once here, and each :meth:`solve` is one compiled call returning arrays. The
    numbers are :func:`solve_duals`'s (same tasks, same compiled loop, one thread; the
    kernel cache holds exact copies of ``K``'s columns): on a 9-class set of 270 series
    the per-problem Python took more time than the solver (benchmarks/RESULTS.md).

    Parameters
    ----------
    K : ndarray of shape (n, n)
        The kernel, finite and symmetric (not checked: as ``check_input=False``).
    rows : list of ndarray of int
        Each problem's samples (kernel rows), within ``[0, n)``.
    y : list of ndarray
        Each problem's labels, +-1, one per sample of ``rows``.
    tol, wss, shrinking, max_iter, cache_size
        As :func:`solve_duals`.
    """

    def __init__(self, K, rows, y, *, tol: float = 1e-3, wss: str = "second_order",
                 shrinking: bool = True, max_iter: int | None = None,
                 cache_size: float = 200.0):
        if len(rows) != len(y) or not rows:
            raise ValueError("DualPath needs one label vector per problem, and a problem")
        self.kern = SolverKernel.of(K, "precomputed", None, False)
        self.tol = check_positive(tol, "tol")
        check_choice(wss, "wss", _WSS)
        cache_size = check_positive(cache_size, "cache_size")
        sizes = np.array([np.shape(r)[0] for r in rows], dtype=np.intp)
        if any(np.shape(l)[0] != k for l, k in zip(y, sizes, strict=True)):
            raise ParameterError("must give one kernel row per variable", "sample_of")
        self.rows = np.ascontiguousarray(np.concatenate(rows), dtype=np.intp)
        self.y = np.ascontiguousarray(np.concatenate(y), dtype=np.float64)
        if self.rows.size and (self.rows.min() < 0 or self.rows.max() >= self.kern.n_samples):
            raise ParameterError("must give kernel rows in [0, n_samples)", "sample_of")
        self.offsets = np.zeros(sizes.shape[0] + 1, dtype=np.intp)
        self.offsets[1:] = np.cumsum(sizes)
        self.p = -np.ones(self.rows.shape[0])
        self.shape = dict(tol=self.tol, wss=wss, shrinking=shrinking, max_iter=max_iter,
                          cache_size=cache_size)
        big = int(np.argmax(sizes))
        lo, hi = self.offsets[big], self.offsets[big + 1]
        cap = int(sizes[big])
        self.max_iter = check_max_iter(max_iter, cap)
        self.f32 = _use_float32("auto", self.kern.kind, cap, self.kern.bound())
        cache = self.kern.cache(cache_size, cap, self.f32, self.rows[lo:hi])
        cache.n_threads = 1
        # the solver's first problem only sizes it: every solve loads its own problems
        self.solver = SMOSolver(cache, self.y[lo:hi], np.zeros(cap), np.ones(cap), self.tol,
                                wss == "second_order", bool(shrinking), self.max_iter,
                                self.p[lo:hi], False)

    def solve(self, C, alpha0) -> dict:
        """Solve every problem with the bounds ``C`` and the starts ``alpha0`` (each
        concatenated as ``rows``).

        Returns
        -------
        dict
            ``alpha`` (concatenated), and per problem ``b``, ``status`` (0: converged, as
            ``STATUS_TEXT``), ``n_iter`` and ``objective``.
        """
        C = np.ascontiguousarray(C, dtype=np.float64)
        a0 = np.ascontiguousarray(alpha0, dtype=np.float64)
        if C.shape != self.y.shape or a0.shape != self.y.shape:
            raise ValueError(f"C and alpha0 must have shape {self.y.shape}; got {C.shape} "
                             f"and {a0.shape}")
        if not np.all(C > 0):
            i = int(np.flatnonzero(~(C > 0))[0])
            raise ParameterError(f"must be > 0 for every sample; got {float(C[i])!r}. Leave out "
                                 "the samples whose weight is 0.", "C")
        alpha, _, scal, _ = solve_tasks([self.solver], self.rows, self.offsets, self.y, a0,
                                        C, self.p)
        status = scal[:, SCALARS["status"]].astype(np.intp)
        if np.any(status == 2):
            # unbounded (an infinite C): solve_duals names the samples of the pair
            o = self.offsets
            solve_duals(self.kern.K, [{"y": self.y[o[k]:o[k + 1]], "p": self.p[o[k]:o[k + 1]],
                                       "C": C[o[k]:o[k + 1]], "alpha0": a0[o[k]:o[k + 1]],
                                       "sample_of": self.rows[o[k]:o[k + 1]]}
                                      for k in np.flatnonzero(status == 2)],
                        check_input=False, **self.shape)
        return {"alpha": alpha[:self.rows.shape[0]], "b": scal[:, SCALARS["b"]].copy(),
                "status": status, "n_iter": scal[:, SCALARS["n_iter"]].astype(np.int64),
                "objective": scal[:, SCALARS["objective"]].copy()}
