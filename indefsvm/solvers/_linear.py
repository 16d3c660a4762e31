"""The linear C-SVM on explicit features: dual coordinate descent with a free bias."""

from __future__ import annotations

import numbers
import time

import numpy as np

from .._logging import REPORT_EVERY, enable, logger
from .._solvers._linsvm import dcd_svc
from .._threads import effective_threads, single_threaded_blas
from .._validation import (
    MAX_ITER,
    N_JOBS,
    REAL,
    check_seed,
    check_vector,
    options_checked,
)
from ..exceptions import ParameterError
from ._result import SolverResult

__all__ = ["linear_svc"]

#: passes over the active rows when max_iter is None (finite: a run always ends)
DEFAULT_MAX_PASSES = 100_000


@options_checked({
    "rows": ["array-like", None], "max_iter": MAX_ITER, "n_jobs": N_JOBS,
    "verbose": ["verbose"], "label": [str], "alpha0": ["array-like", None], "b0": [REAL],
})
def linear_svc(Z, y, C=1.0, *, rows=None, tol: float = 1e-3, max_iter: int | None = None,
               random_state=None, n_jobs=None, verbose=False,
               label: str = "linear SVM", alpha0=None, b0: float = 0.0) -> SolverResult:
    """C-SVC on explicit feature rows, by dual coordinate descent with a free bias.

    Solves LIBSVM's C-SVC dual with the linear kernel ``Z Z'``,
    ``min 1/2 a'Qa - e'a`` subject to ``0 <= a_t <= C_t`` and ``y'a = 0``, without forming
    ``Q``: the coordinate descent of Hsieh, Chang, Lin, Keerthi & Sundararajan (2008) with
    their shrinking, and the equality constraint (the free bias) by the method of multipliers
    (Hestenes 1969; Powell 1969) -- unlike liblinear, whose appended constant feature makes
    the bias part of the regularised weight vector. The run stops when LIBSVM's stopping
    rule holds on all rows: the maximal violating pair gap ``m - M <= tol`` and
    ``|y'a| <= tol * max C_t``.

    Parameters
    ----------
    Z : ndarray of shape (n_rows, n_features), float32, C-contiguous
        Feature matrix (float32: half the memory of float64 at 10^6 rows; every sum is
        float64).
    y : array-like of shape (n,)
        Labels +1 / -1 of the rows used.
    C : float or array-like of shape (n,)
        One bound, or ``C_t`` per row (class and sample weights).
    rows : array-like of int of shape (n,), optional
        The rows of ``Z`` the problem is made of (default all): the one-vs-one problems of a
        multi-class fit share one feature matrix without copies.
    tol : float, default=1e-3
        Tolerance of the KKT gap (LIBSVM's default).
    max_iter : int, optional
        Passes over the active rows; ``None`` means 100 000 (a pass over a few active rows
        is cheap: hard problems with a large C take tens of thousands, as in liblinear).
    random_state : int, Generator or None
        Seed of the order in which each pass visits the rows.
    n_jobs : int, optional
        OpenMP threads (capped by the idle cores). Each pass over the rows is shared among
        them when the problem has at least 10^6 rows x features: each thread steps through
        blocks of rows on its own copy of ``w`` and hands its changes over after each block
        (so the result equals one thread's within ``tol``, not bit for bit); the
        full-gradient checks are shared too. A shared pass that raises the augmented
        Lagrangian (the threads' late views of ``w`` adding up to too long a step, as on
        16 cores at 10^6 Nystroem rows) is undone and the next passes are shared among half
        the threads, down to one (whose passes never go up hill). Smaller problems run on
        one thread. Two threads share every pass of that much work (blocks of 16 rows);
        three or more only those over a quarter of the rows or more (blocks of 64).
    verbose : bool
        Log a progress line every few seconds.
    label : str
        Name of the problem in the log.
    alpha0 : array-like of shape (n,), optional
        A start: multipliers in the box ``[0, C_t]`` (e.g. another solver's nearly optimal
        ones); ``w`` is computed from them. Default all zero.
    b0 : float, default=0.0
        The intercept of the start (the bias the first pass's gradients use).

    Returns
    -------
    SolverResult
        ``solver="dcd"``; ``n_iter`` counts passes; ``extra`` holds ``w`` (the weight vector
        ``Z' (a * y)``), ``feasibility`` (``|y'a|``), ``rho`` (the penalty weight),
        ``threads`` (the threads the large passes ended on), ``shared`` (passes shared
        among threads) and ``undone`` (shared passes undone for going up hill).

    Examples
    --------
    >>> import numpy as np
    >>> from indefsvm.solvers import linear_svc
    >>> Z = np.array([[0.0, 1.0], [1.0, 0.0], [3.0, 1.0], [4.0, 0.0]], dtype=np.float32)
    >>> res = linear_svc(Z, [-1, -1, 1, 1], C=10.0)
    >>> res.converged, round(float(res.extra["w"][0]), 3), round(res.b, 3)
    (True, 0.8, -1.8)
    """
    if not isinstance(Z, np.ndarray) or Z.dtype != np.float32 or Z.ndim != 2 \
            or not Z.flags.c_contiguous:
        raise ParameterError("must be a C-contiguous float32 array of shape (n_rows, n_features).",
                             "Z")
    n_rows = Z.shape[0]
    try:
        rows = (np.arange(n_rows, dtype=np.intp) if rows is None
                else np.asarray(rows, dtype=np.intp))
    except (TypeError, ValueError):
        rows = np.empty((0, 0))  # said below, in the words of the other mistakes
    if rows.ndim != 1 or not rows.size or rows.min() < 0 or rows.max() >= n_rows:
        raise ParameterError(f"must be indices of the {n_rows} rows of Z (one or more).",
                             "rows")
    n = rows.shape[0]
    y = check_vector(y, "y", n)
    if not np.all((y == 1.0) | (y == -1.0)):
        raise ParameterError(f"must hold {n} labels, each +1 or -1.", "y")
    try:
        Cb = np.broadcast_to(np.asarray(C, dtype=np.float64), (n,)).copy()
    except (TypeError, ValueError):
        raise ParameterError(f"must be a number or {n} numbers, one per row; got "
                             f"{type(C).__name__} of shape {np.shape(C)}.", "C") from None
    if not np.all(np.isfinite(Cb)) or np.any(Cb < 0):
        raise ParameterError("must be finite and >= 0 (C_t > 0 for every row that takes part).",
                             "C")
    if not (isinstance(tol, (int, float, np.number)) and np.isfinite(tol) and tol > 0):
        raise ParameterError(f"must be a positive number; got {tol!r}.", "tol")
    if max_iter is None:
        max_iter = DEFAULT_MAX_PASSES
    if isinstance(max_iter, bool) or int(max_iter) != max_iter or max_iter < 1:
        raise ParameterError(f"must be a positive integer or None; got {max_iter!r}.",
                             "max_iter")
    if alpha0 is not None:
        alpha0 = np.array(check_vector(alpha0, "alpha0", finite=False), dtype=np.float64)
        if alpha0.shape != (n,) or not np.all(np.isfinite(alpha0)) \
                or np.any(alpha0 < 0) or np.any(alpha0 > Cb):
            raise ParameterError(f"must hold {n} multipliers, each in [0, C_t].", "alpha0")
    if isinstance(b0, bool) or not isinstance(b0, numbers.Real) or not np.isfinite(b0):
        raise ParameterError(f"must be a finite number; got {b0!r}.", "b0")
    seed = int(check_seed(random_state).integers(0, 2**62))
    n_threads = effective_threads(n_jobs)
    progress = None
    if enable(verbose):
        start = last = time.perf_counter()

        def progress(passes, gap, active):
            nonlocal last
            now = time.perf_counter()
            if now - last >= REPORT_EVERY:
                last = now
                logger.info("%s: pass %d, gap %.3g, %d of %d rows active, %.1f s", label,
                            passes, gap, active, n, now - start)

    # the BLAS on one thread: the solver's threads are OpenMP's, and OpenBLAS's workers,
    # spinning after the penalty weight's Gram product, held a core from its shared passes
    with single_threaded_blas():
        out = dcd_svc(Z, rows, y, Cb, float(tol), int(max_iter), seed, n_threads, progress,
                      alpha0=alpha0, b0=float(b0))
    extra = {"w": out["w"], "feasibility": float(out["feasibility"]), "rho": float(out["rho"]),
             "threads": int(out["threads"]), "shared": int(out["shared"]),
             "undone": int(out["undone"])}
    return SolverResult(
        alpha=out["alpha"], b=float(out["intercept"]), objective=float(out["objective"]),
        n_iter=out["n_passes"], converged=bool(out["converged"]),
        kkt_gap=float(out["kkt_gap"]), history=np.array([[out["n_passes"], out["objective"]]]),
        status="converged" if out["converged"] else "max_iter reached", solver="dcd",
        tol=float(tol), C=Cb if np.ndim(C) else float(C), extra=extra)
