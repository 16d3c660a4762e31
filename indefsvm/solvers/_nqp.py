"""MUNK, M3, Kernel-Adatron (coordinate descent) and Lagrangian SVM: validation around the
compiled loops of ``_solvers/_nqp.pyx``."""

from __future__ import annotations

import numpy as np
import scipy.linalg as sla
from scipy.sparse.linalg import LinearOperator, eigsh

from .. import _warn
from .._solvers._nqp import cd_loop, lsvm_loop, m3_loop, munk_loop
from .._validation import (
    MAX_ITER,
    NONNEG,
    REAL,
    check_binary_labels,
    check_kernel_matrix,
    check_positive,
    check_vector,
    options_checked,
    user_stacklevel,
)
from ..exceptions import ConvergenceWarning, ParameterError, UnboundedObjectiveError
from ._result import SolverResult

_STATUS = {0: "converged", 1: "max_iter reached", 2: "unbounded", 3: "stalled"}


def _box(C) -> float:
    if C is None:
        return float("inf")
    return check_positive(C, "C", allow_inf=True)


def _iterations(max_iter, default):
    if max_iter is None:
        return default
    if isinstance(max_iter, bool) or int(max_iter) != max_iter or max_iter < 1:
        raise ParameterError(f"must be a positive integer or None; got {max_iter!r}.",
                             "max_iter")
    return int(max_iter)


def _start(alpha0, y, C):
    n = y.shape[0]
    if alpha0 is None:
        # a positive start, as multiplicative updates need: 1, or C/2 below C = 1
        return np.full(n, min(1.0, C / 2.0))
    # its name in the error of a dict or of strings, not float()'s words
    a = np.array(check_vector(alpha0, "alpha0", finite=False), dtype=np.float64, copy=True)
    if a.shape != (n,) or np.any(a < 0) or np.any(a > C) or not np.all(np.isfinite(a)):
        raise ParameterError(f"must have shape ({n},) and satisfy 0 <= alpha0 <= C.",
                             "alpha0")
    return a


def _finish(name, a, k, status, kkt, F, hist, tol, C, max_iter, warn, extra=None):
    text = _STATUS[status]
    if status == 2:
        raise UnboundedObjectiveError(
            f"{name}: the objective of problem (4) goes to -infinity (objective {F:.3g} after "
            f"{k} iterations); the kernel makes the dual unbounded without an upper bound. "
            "Give a finite C.")
    if status == 3 and warn:
        # not max_iter: the objective stopped moving (say where, and what would help)
        _warn.warn(
            f"{name} stalled at iteration {k} (of max_iter={max_iter}) before reaching "
            f"tol={tol:g}: the objective no longer decreased (by more than ftol, relative) "
            f"and the KKT residual is {kkt:.3g}. Multiplicative updates slow down near the "
            "solution; try solver='kernel_adatron' or 'smo', or a larger tol.",
            ConvergenceWarning, stacklevel=user_stacklevel())
    elif status != 0 and warn:
        _warn.warn(
            f"{name} stopped ({text}) at max_iter={max_iter} before reaching tol={tol:g}: "
            f"the KKT residual is {kkt:.3g}. Increase max_iter (or tol).",
            ConvergenceWarning, stacklevel=user_stacklevel())
    return SolverResult(alpha=a, b=0.0, objective=float(F), n_iter=int(k),
                        converged=status == 0, kkt_gap=float(kkt), history=hist, status=text,
                        solver=name, tol=tol, C=C, extra=dict(extra or {}))


def _prepare(K, y, bias):
    K = check_kernel_matrix(K)
    y = check_binary_labels(y, K.shape[0])
    if bias is not None:
        bias = float(bias)
        if not bias >= 0:
            raise ParameterError(f"must be >= 0 (a constant added to K); got {bias!r}.",
                                 "bias")
        K = K + bias
    return K, y


@options_checked({"ftol": [NONNEG], "bias": [REAL, None], "alpha0": ["array-like", None],
                  "max_iter": MAX_ITER, "warn": ["boolean"]})
def munk(K, y, *, C=None, tol: float = 1e-3, ftol: float = 1e-15, max_iter=None,
         alpha0=None, bias=None, warn: bool = True) -> SolverResult:
    """MUNK: multiplicative updates for SVMs with non-negative kernels (Sha, Saul & Lee 2003).

    Solves problem (4), ``min 1/2 a'Qa - e'a`` subject to ``a >= 0`` (and ``a <= C``), whose
    hyperplane passes through the origin. Updates (7): class A (``y = +1``) then class B,

        ``a_A <- a_A * (K_AB a_B + 1) / (K_AA a_A)``,
        ``a_B <- a_B * (K_BA a_A + 1) / (K_BB a_B)``,

    each followed by the clip (8) ``a <- min(a, C)`` for a soft margin.

    Parameters
    ----------
    K : array-like of shape (n, n)
        Kernel matrix with every entry ``>= 0`` (e.g. Gaussian, even-degree polynomials).
    y : array-like of shape (n,)
        Labels +1 / -1.
    C : float, optional
        Upper bound; ``None`` or ``inf`` for the hard margin.
    tol : float, default=1e-3
        Stop when the KKT residual of problem (4), ``max_i Q_ii |a_i - clip(a_i - grad_i /
        Q_ii, 0, C)|`` (in the units of the gradient, like SMO's gap; unchanged when the
        kernel is scaled), is ``<= tol``.
    ftol : float, default=1e-15
        Also stop (not converged, status ``"stalled"``) after 50 iterations in a row whose
        relative objective change is ``<= ftol``.
    max_iter : int, optional
        Default 100 000 iterations (one iteration updates both classes: O(n^2)).
    alpha0 : array-like, optional
        Positive start. Default ``min(1, C/2)`` everywhere: multiplicative updates keep a zero
        at zero, so every entry must start positive.
    bias : float, optional
        Solve with ``K + bias`` (still non-negative): the decision function then has the bias
        ``b = bias * sum_i a_i y_i``, which is regularised (it enters ``a'Qa``).
    warn : bool, default=True
        Emit :class:`~sklearn.exceptions.ConvergenceWarning` when stopped before ``tol``
        (by ``max_iter``, or stalled by ``ftol``).

    Returns
    -------
    SolverResult
        ``b`` is 0 (or the bias above); ``kkt_gap`` holds the KKT residual.

    Raises
    ------
    ValueError
        If ``K`` has a negative entry (named, with its position).

    Examples
    --------
    >>> import numpy as np
    >>> from indefsvm.solvers import munk
    >>> X = np.array([[0.0], [1.0], [3.0], [4.0]])
    >>> K = np.exp(-0.5 * (X - X.T) ** 2)
    >>> res = munk(K, [-1, -1, 1, 1], C=10.0, tol=1e-8)
    >>> res.converged, np.sign(K @ (res.alpha * [-1, -1, 1, 1])).tolist()
    (True, [-1.0, -1.0, 1.0, 1.0])
    """
    K, y = _prepare(K, y, bias)
    if K.min() < 0:
        i, j = np.unravel_index(np.argmin(K), K.shape)
        raise ValueError(
            f"MUNK needs a kernel with non-negative entries; K[{i}, {j}] = {K[i, j]:.4g} is the "
            "most negative. Use a non-negative kernel (Gaussian, even-degree polynomial), add "
            "a constant (bias=...), or another solver (m3, kernel_adatron, smo).")
    C = _box(C)
    tol = check_positive(tol, "tol")
    max_iter = _iterations(max_iter, 100_000)
    diag = np.diagonal(K)
    if C == np.inf and np.any(diag <= 0):
        i = int(np.argmin(diag))
        raise UnboundedObjectiveError(
            f"MUNK: problem (4) is unbounded below without an upper bound: K[{i}, {i}] = "
            f"{K[i, i]:.4g}, so F = -alpha_{i} along alpha_{i} alone decreases without limit "
            "(the other alpha at 0 is feasible). Give a finite C.")
    a0 = _start(alpha0, y, C)
    order = np.r_[np.flatnonzero(y > 0), np.flatnonzero(y < 0)]
    Kp = np.ascontiguousarray(K[np.ix_(order, order)])
    a = np.ascontiguousarray(a0[order])
    nA = int(np.count_nonzero(y > 0))
    # a point whose row of its own class's block is zero: the update (7) divides by
    # (K_AA a_A)_i = 0 and cannot move it, while its gradient -(K_AB a_B)_i - 1 < 0 at every
    # point puts it at C in the optimum: it starts (and stays) there
    stuck = np.r_[~np.any(Kp[:nA, :nA] > 0, axis=1), ~np.any(Kp[nA:, nA:] > 0, axis=1)]
    a[stuck] = C
    k, status, kkt, F, hist = munk_loop(Kp, nA, C, a, tol, ftol, max_iter)
    alpha = np.empty_like(a)
    alpha[order] = a
    res = _finish("MUNK", alpha, k, status, kkt, F, hist, tol, C, max_iter, warn)
    if bias is not None:
        res.b = float(bias) * float(alpha @ y)
    return res


@options_checked({"ftol": [NONNEG], "bias": [REAL, None], "alpha0": ["array-like", None],
                  "max_iter": MAX_ITER, "warn": ["boolean"]})
def m3(K, y, *, C=None, tol: float = 1e-3, ftol: float = 1e-15, max_iter=None, alpha0=None,
       bias=None, warn: bool = True) -> SolverResult:
    """M3: Sha, Saul & Lee's multiplicative updates for the non-negative QP (4).

    For ``min 1/2 v'Av + b'v, v >= 0`` with ``A = A+ - A-`` split elementwise and ``b = -e``:
    ``v_i <- v_i (-b_i + sqrt(b_i^2 + 4 (A+ v)_i (A- v)_i)) / (2 (A+ v)_i)``, clipped at ``C``.
    The comparator of Sha, Saul & Lee 2003, Fig. 1 and Table 1. Works for any symmetric ``K`` whose
    diagonal is positive (``Q_ii = K_ii`` is in ``A+``).

    Parameters
    ----------
    K, y, C, tol, ftol, max_iter, alpha0, bias, warn
        As in :func:`munk`.

    Returns
    -------
    SolverResult

    Examples
    --------
    >>> import numpy as np
    >>> from indefsvm.solvers import m3, munk
    >>> X = np.array([[0.0], [1.0], [3.0], [4.0]])
    >>> K = np.exp(-0.5 * (X - X.T) ** 2)
    >>> y = [-1, -1, 1, 1]
    >>> abs(m3(K, y, C=10, tol=1e-9).objective - munk(K, y, C=10, tol=1e-9).objective) < 1e-8
    True
    """
    K, y = _prepare(K, y, bias)
    if np.any(np.diagonal(K) <= 0):
        raise ValueError("M3 needs K_ii > 0 for every i (the update divides by (A+ v)_i).")
    C = _box(C)
    tol = check_positive(tol, "tol")
    max_iter = _iterations(max_iter, 100_000)
    a0 = _start(alpha0, y, C)
    if K.min() >= 0:
        # non-negative K: A+ is the same-class block, A- the cross-class one; one pass over K
        order = np.r_[np.flatnonzero(y > 0), np.flatnonzero(y < 0)]
        P = np.ascontiguousarray(K[np.ix_(order, order)])
        a = np.ascontiguousarray(a0[order])
        k, status, kkt, F, hist = m3_loop(P, P, int(np.count_nonzero(y > 0)), C, a, tol, ftol,
                                          max_iter)
        alpha = np.empty_like(a)
        alpha[order] = a
        a = alpha
    else:
        Q = np.outer(y, y) * K
        P = np.ascontiguousarray(np.maximum(Q, 0.0))
        N = np.ascontiguousarray(np.maximum(-Q, 0.0))
        a = np.ascontiguousarray(a0)
        k, status, kkt, F, hist = m3_loop(P, N, -1, C, a, tol, ftol, max_iter)
    res = _finish("M3", a, k, status, kkt, F, hist, tol, C, max_iter, warn)
    if bias is not None:
        res.b = float(bias) * float(a @ y)
    return res


@options_checked({"bias": [REAL, None], "alpha0": ["array-like", None], "max_iter": MAX_ITER,
                  "warn": ["boolean"]})
def kernel_adatron(K, y, *, C=None, tol: float = 1e-3, max_iter=None, alpha0=None, bias=None,
                   warn: bool = True) -> SolverResult:
    """Kernel-Adatron (Friess, Cristianini & Campbell): one variable at a time on problem (4).

    Each step is ``a_i <- clip(a_i + (1 - y_i f(x_i)) / K_ii, 0, C)`` with
    ``f(x_i) = sum_j a_j y_j K_ij``: the Adatron update with the rate ``1 / K_ii``, which
    minimises ``F`` exactly along ``a_i``. When ``K_ii <= 0`` the one-variable problem is concave
    and the step goes to whichever bound gives the lower ``F`` (Lin & Lin's (2003) rule (27) for one
    variable); with ``C = inf`` that is unbounded and raises ``UnboundedObjectiveError``.

    Parameters
    ----------
    K, y, C, tol, alpha0, bias, warn
        As in :func:`munk` (any symmetric ``K``; ``alpha0`` defaults to 0).
    max_iter : int, optional
        Sweeps over all variables (default 100 000).

    Returns
    -------
    SolverResult

    Examples
    --------
    >>> import numpy as np
    >>> from indefsvm.solvers import kernel_adatron
    >>> X = np.array([[0.0], [1.0], [3.0], [4.0]])
    >>> K = np.exp(-0.5 * (X - X.T) ** 2)
    >>> kernel_adatron(K, [-1, -1, 1, 1], C=10, tol=1e-9).converged
    True
    """
    K, y = _prepare(K, y, bias)
    C = _box(C)
    tol = check_positive(tol, "tol")
    max_iter = _iterations(max_iter, 100_000)
    a = np.ascontiguousarray(np.zeros(len(y)) if alpha0 is None else _start(alpha0, y, C))
    k, status, kkt, F, hist, bad = cd_loop(K, y, C, a, tol, max_iter)
    if status == 2 and bad < 0:
        raise UnboundedObjectiveError(
            f"Kernel-Adatron: the objective of problem (4)/(19) diverges (F = {F:.3g} after {k} "
            "sweeps): with C = inf the kernel has a direction of negative curvature. Give a "
            "finite C.")
    if status == 2:
        raise UnboundedObjectiveError(
            f"Kernel-Adatron: problem (4)/(19) is unbounded below without an upper bound: "
            f"K[{bad}, {bad}] = {K[bad, bad]:.4g} <= 0, so F decreases without limit along "
            f"alpha_{bad} (Lin & Lin 2003, Thm 10). Give a finite C.")
    res = _finish("Kernel-Adatron", a, k, status, kkt, F, hist, tol, C, max_iter, warn)
    if bias is not None:
        res.b = float(bias) * float(a @ y)
    return res


#: up to this size the smallest eigenvalue of Q falls back to a dense eigendecomposition when
#: Lanczos does not converge (clustered eigenvalues near 0 of a PSD kernel leave Q^{-1} with a
#: cluster at the top that ARPACK may not resolve)
_DENSE_FALLBACK = 4000
#: up to this size the dense eigendecomposition is the first choice
_DENSE_FIRST = 1000


def _smallest_eigenvalue(L) -> float:
    """Smallest eigenvalue of Q from its Cholesky factor: 1 / the largest of Q^{-1}, by
    Lanczos (scipy's eigsh) on Q^{-1} x = cho_solve(L, x). When Lanczos does not converge:
    a dense eigendecomposition up to ``_DENSE_FALLBACK`` rows, else Lanczos with a looser
    tolerance, else the Gershgorin lower bound of q_min when it is positive (a lower bound
    keeps the step safe) -- never scipy's error."""
    from scipy.sparse.linalg import ArpackNoConvergence

    n = L.shape[0]
    if n <= _DENSE_FIRST:
        # a dense eigendecomposition costs about what the Cholesky factorisation did; Lanczos
        # on clustered eigenvalues can cost a minute before it gives up
        Q = L.T @ L  # the C-ordered array is the upper factor: Q = U'U
        return float(np.linalg.eigvalsh(Q)[0])
    op = LinearOperator((n, n), matvec=lambda x: sla.cho_solve((L, False), x),
                        dtype=np.float64)
    try:
        top = eigsh(op, k=1, which="LA", tol=1e-10, return_eigenvectors=False,
                    v0=np.ones(n), maxiter=300)[0]
        return float(1.0 / top)
    except ArpackNoConvergence:
        pass
    if n <= _DENSE_FALLBACK:
        return float(np.linalg.eigvalsh(L.T @ L)[0])
    try:
        top = eigsh(op, k=1, which="LA", tol=1e-4, maxiter=20 * n,
                    return_eigenvectors=False, v0=np.ones(n))[0]
        return float(1.0 / top)
    except ArpackNoConvergence:
        Q = L.T @ L
        radius = np.abs(Q).sum(axis=1) - np.abs(np.diagonal(Q))
        gersh = float(np.min(np.diagonal(Q) - radius))
        if gersh > 0:
            return gersh
        raise ValueError(
            "LSVM could not find the smallest eigenvalue of Q = I/nu + DKD (Lanczos did not "
            f"converge on {n} rows) and needs it for its step; use solver='smo'.") from None


def _lsvm_residual(Q, qd, u) -> float:
    """max_i |min(Q_ii u_i, (Qu - e)_i)|: zero exactly at the solution of
    min 1/2 u'Qu - e'u, u >= 0, in the units of the gradient (those of e)."""
    g = Q @ u - 1.0
    return float(np.max(np.abs(np.minimum(qd * u, g)))) if u.size else 0.0


@options_checked({"max_iter": MAX_ITER, "warn": ["boolean"]})
def lsvm(K, y, *, nu: float = 1.0, tol: float = 1e-5, max_iter=None, warn: bool = True
         ) -> SolverResult:
    """Lagrangian SVM for a nonlinear kernel (Mangasarian & Musicant, section 4, Code 3).

    Solves ``min_{u >= 0} 1/2 u'Qu - e'u`` with ``Q = I/nu + D K D``, ``D = diag(y)``, by
    ``u <- Q^{-1} (e + ((Qu - e) - a u)_+)`` from ``u = Q^{-1} e``. ``Q`` is factored once by
    Cholesky (never inverted); each iteration costs O(n^2). The step is Mangasarian &
    Musicant's ``a = 1.9 / nu`` when ``K`` is PSD; for an indefinite ``K`` it is
    ``a = 1.9 q_min`` (``q_min`` the smallest eigenvalue of ``Q``, by Lanczos), for which the
    iteration is still a contraction -- with ``1.9 / nu`` it can diverge although ``Q`` is
    positive definite. ``converged`` means the KKT residual
    ``max_i |min(Q_ii u_i, (Qu - e)_i)|`` (gradient units, independent of the scale of ``K``)
    is ``<= tol``.

    ``K`` should be the kernel of the augmented inputs ``G = [A, -e]`` (Mangasarian & Musicant
    2001, (27)); the separating surface is then ``K([x', -1], G') D u = 0`` and there is no
    separate bias.
    :class:`~indefsvm.IndefiniteSVC` with ``solver="lsvm"`` builds that kernel.

    Parameters
    ----------
    K : array-like of shape (n, n)
        Symmetric kernel matrix, possibly indefinite.
    y : array-like of shape (n,)
        Labels +1 / -1.
    nu : float, default=1.0
        Weight of the errors. ``Q`` must be positive definite: true for any ``nu`` when ``K``
        is PSD, and for an indefinite ``K`` exactly when ``1/nu > -lambda_min(K)`` (``DKD``
        has the eigenvalues of ``K``); then the problem is strictly convex.
    tol : float, default=1e-5
        Stop when the KKT residual is ``<= tol`` (see above).
    max_iter : int, optional
        Default 100 000.
    warn : bool, default=True
        Emit :class:`~sklearn.exceptions.ConvergenceWarning` when stopped by ``max_iter``.

    Returns
    -------
    SolverResult
        ``alpha`` is ``u`` (rounding-level negative entries of the last solve set to 0);
        ``kkt_gap`` holds the KKT residual; ``extra`` the step ``rate``, ``q_min`` and the
        ``last_step`` norm.

    Raises
    ------
    ValueError
        If ``Q`` is not positive definite, with ``lambda_min(DKD)`` and the bound on ``nu``.
    FloatingPointError
        If the iteration diverges all the same (the iterate stops being finite).

    Examples
    --------
    >>> import numpy as np
    >>> from indefsvm.solvers import lsvm
    >>> G = np.c_[np.array([[0.0], [1.0], [3.0], [4.0]]), -np.ones(4)]
    >>> y = np.array([-1, -1, 1, 1])
    >>> res = lsvm(G @ G.T, y, nu=10.0, tol=1e-10)
    >>> res.converged, np.sign((G @ G.T) @ (y * res.alpha)).tolist()
    (True, [-1.0, -1.0, 1.0, 1.0])
    """
    K = check_kernel_matrix(K)
    y = check_binary_labels(y, K.shape[0])
    nu = check_positive(nu, "nu")
    tol = check_positive(tol, "tol")
    max_iter = _iterations(max_iter, 100_000)
    n = K.shape[0]
    Q = np.outer(y, y) * K
    Q[np.diag_indices(n)] += 1.0 / nu
    Q = np.ascontiguousarray(Q)
    try:
        # lower Cholesky factor read column-major == upper factor of the C-ordered array
        L = np.ascontiguousarray(sla.cholesky(Q, lower=False, check_finite=False))
    except np.linalg.LinAlgError:
        lam = float(np.linalg.eigvalsh(np.outer(y, y) * K)[0])
        bound = (f"choose nu < 1/{-lam:.4g} = {-1.0 / lam:.4g}" if lam < 0
                 else "K is PSD, so any nu works; Q failed the Cholesky test numerically")
        raise ValueError(
            f"LSVM needs Q = I/nu + DKD positive definite, but with nu={nu:g} it is not: "
            f"lambda_min(DKD) = {lam:.4g} and 1/nu = {1 / nu:.4g}. {bound}.") from None
    # the step: Mangasarian & Musicant's 1.9/nu makes the map a contraction when K is PSD
    # (every eigenvalue of Q is >= 1/nu); for an indefinite K the smallest eigenvalue q_min
    # of Q is below 1/nu, and the map contracts only for rate < 2 q_min -- with 1.9/nu it
    # can diverge although Q is positive definite. So rate = 1.9 min(1/nu, q_min), q_min by
    # Lanczos on Q^{-1} through the Cholesky factor (a few O(n^2) solves).
    q_min = _smallest_eigenvalue(L)
    rate = 1.9 * min(1.0 / nu, q_min)
    u = np.empty(n)
    qd = np.diagonal(Q).copy()
    # the loop stops on the step size; the verdict is the KKT residual of
    # min 1/2 u'Qu - e'u, u >= 0, in gradient units (the scale of e): max_i |min(Q_ii u_i,
    # (Qu - e)_i)|, so that "converged" does not depend on the scale of K. A step below
    # step_tol that leaves the residual above tol makes the next round ask for smaller steps.
    step_tol = tol / float(qd.max())
    k = 0
    hists = []
    converged, diverged, fresh, resid, step = False, False, True, np.inf, np.inf
    while True:
        k_run, _, step, F, hist, diverged = lsvm_loop(Q, L, rate, step_tol, max_iter - k, u,
                                                      fresh)
        hist[:, 0] += k
        hists.append(hist)
        k += int(k_run)
        fresh = False
        if diverged:
            break
        resid = _lsvm_residual(Q, qd, np.maximum(u, 0.0))
        if resid <= tol:
            converged = True
            break
        if k >= max_iter or step_tol < 1e-300:
            break
        step_tol /= 100.0
    hist = np.vstack(hists)
    if diverged:
        raise FloatingPointError(
            f"LSVM diverged after {k} iterations (the iterate is no longer finite) although "
            f"Q = I/nu + DKD is positive definite (smallest eigenvalue {q_min:.3g}, step "
            f"rate {rate:.3g}): the problem is too ill-conditioned for the fixed-point "
            "iteration. Use a smaller nu or solver='smo'.")
    # the fixed point has u >= 0; entries of order -eps from the last solve are rounding
    np.maximum(u, 0.0, out=u)
    F = float(0.5 * u @ Q @ u - u.sum())
    hist[-1, 1] = F
    if not converged and warn:
        _warn.warn(f"LSVM stopped at max_iter={max_iter} before reaching tol={tol:g}: the "
                   f"KKT residual is {resid:.3g} (last step {step:.3g}). Increase "
                   "max_iter (or tol).", ConvergenceWarning, stacklevel=user_stacklevel())
    return SolverResult(alpha=u, b=0.0, objective=float(F), n_iter=int(k),
                        converged=bool(converged), kkt_gap=float(resid), history=hist,
                        status="converged" if converged else "max_iter reached", solver="LSVM",
                        tol=tol, C=float("inf"),
                        extra={"nu": nu, "rate": rate, "q_min": q_min, "last_step": step})
