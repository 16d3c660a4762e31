"""The convex-hull dual (CH-DU) of Haasdonk (2005, section 4), solved by SMO."""

from __future__ import annotations

import numpy as np
import scipy.sparse as sp
from sklearn.utils import check_random_state
from sklearn.utils._param_validation import StrOptions

from .. import _warn
from .._scale import power_of_two_exponent
from .._validation import (
    MAX_ITER,
    NONNEG_INT,
    POS,
    check_binary_labels,
    check_choice,
    check_generator,
    check_max_iter,
    check_pm1_labels,
    check_positive,
    check_vector,
    options_checked,
    user_stacklevel,
)
from ..exceptions import ConvergenceWarning, ParameterError
from ..kernels import canonical_name, kernel_matrix
from ._kernel import SolverKernel
from ._result import STATUS_TEXT, SolverResult
from ._smo import _WSS, _run_starts, check_restarts_memory, stop_message


def random_feasible_hull_weights(y: np.ndarray, mu: float, rng) -> np.ndarray:
    """A random point of {0 <= a <= mu, sum of a over each class = 1}.

    Parameters
    ----------
    y : ndarray of shape (n,)
        Labels +1 / -1.
    mu : float
        Upper bound, at least ``1 / min(n_+, n_-)``.
    rng : numpy.random.Generator, RandomState, int or None
        A generator, or a seed for one.

    Returns
    -------
    ndarray of shape (n,)

    Examples
    --------
    >>> import numpy as np
    >>> from indefsvm.solvers import random_feasible_hull_weights
    >>> y = np.array([1.0, 1.0, 1.0, -1.0, -1.0])
    >>> a = random_feasible_hull_weights(y, 0.6, np.random.default_rng(0))
    >>> float(round(a[y > 0].sum(), 12)), float(round(a[y < 0].sum(), 12)), bool(a.max() <= 0.6)
    (1.0, 1.0, True)
    """
    y = check_pm1_labels(y)
    mu = check_positive(mu, "mu", allow_inf=True)
    rng = check_generator(rng)
    for cls in (1.0, -1.0):
        # a class of n_c points sums to 1 under a <= mu only when mu n_c >= 1 (the
        # water-filling below would return weights that sum to less, not a feasible point)
        n_c = int(np.count_nonzero(y == cls))
        if n_c == 0 or not float(mu) * n_c >= 1.0 - 1e-12:
            raise ValueError(f"mu={mu!r} is infeasible for the class {cls:+g} of {n_c} points: "
                             "each class needs mu >= 1 / (its number of points).")
    a = np.zeros(y.shape[0])
    for cls in (1.0, -1.0):
        idx = np.flatnonzero(y == cls)
        w = rng.dirichlet(np.ones(idx.shape[0]))
        # water-filling: clip at mu, hand the excess to the entries still below mu
        for _ in range(idx.shape[0]):
            over = w > mu
            if not over.any():
                break
            excess = float(np.sum(w[over] - mu))
            w[over] = mu
            room = mu - w
            free = room > 0
            w[free] += excess * room[free] / room[free].sum()
        a[idx] = np.minimum(w, mu)
    return a


@options_checked({
    "wss": [StrOptions({"second_order", "first_order"})], "max_iter": MAX_ITER,
    "cache_size": [POS], "n_restarts": [NONNEG_INT],
    "restart_select": [StrOptions({"objective", "wMw"})], "random_state": ["random_state"],
    "kernel": [str, callable], "kernel_params": [dict, None], "warn": ["boolean"],
})
def convex_hull_dual(
    K,
    y,
    *,
    mu: float = 1.0,
    tol: float = 1e-6,
    wss: str = "second_order",
    max_iter: int | None = None,
    cache_size: float = 200.0,
    alpha0=None,
    n_restarts: int = 0,
    restart_select: str = "objective",
    random_state=None,
    kernel="precomputed",
    kernel_params: dict | None = None,
    warn: bool = True,
) -> SolverResult:
    """Closest points of the reduced convex hulls of two classes in pseudo-Euclidean space.

    Solves (CH-DU) of Haasdonk 2005: ``min 1/2 a'Qa`` with ``Q_ij = y_i y_j k(x_i, x_j)``,
    subject to ``0 <= a_i <= mu`` and ``sum_{y_i = +1} a_i = sum_{y_i = -1} a_i = 1`` (the
    equivalent form of the paper's ``max 1/2 sum a_i a_j y_i y_j d^2_ij`` with
    ``sum a_i y_i = 0, sum a_i = 2``, Lemma 6). Then ``z+ = sum_{y=+1} a_i Phi(x_i)``,
    ``z- = sum_{y=-1} a_i Phi(x_i)`` and ``a'Qa = ||z+ - z-||^2_pE = w'Mw``.

    The problem is non-convex for an indefinite kernel; SMO with pairs inside one class (the
    nu-SVM form) and rule (27) of Lin & Lin 2003 for concave sub-problems returns a stationary
    point.

    Parameters
    ----------
    K : array-like
        Kernel matrix, or data ``X`` when ``kernel`` names a kernel.
    y : array-like of shape (n,)
        Labels +1 / -1.
    mu : float, default=1.0
        Reduction of the hulls: 1 gives the ordinary convex hulls; feasible only for
        ``mu >= 1 / min(n_+, n_-)``.
    tol : float, default=1e-6
        Stop when, in each class, ``max_{I_up} g - min_{I_low} g <= tol``.
    wss, max_iter, cache_size, n_restarts, random_state, kernel, kernel_params, warn
        As in :func:`indefsvm.solvers.smo`.
    restart_select : {"objective", "wMw"}, default="objective"
        Which of the starts to keep: the lowest ``||z+ - z-||^2_pE`` (the problem's own
        criterion, which may be negative), or ``"wMw"``: the lowest among the starts with
        ``w'Mw > 0`` -- the sensible convex-hull classifiers (Haasdonk 2005, §4) -- when there
        is one.
    alpha0 : array-like, optional
        Feasible start. Default: the class means, ``a_i = 1 / n_+`` or ``1 / n_-``.

    Returns
    -------
    SolverResult
        ``alpha`` are the hull weights; ``objective`` is ``1/2 ||z+ - z-||^2_pE``; ``b`` is the
        offset of the decision function (7), ``f(x) = -sum_i a_i y_i d^2(x_i, x) + b`` with
        ``b = 1/2 sum_ij a_i a_j y_i d^2_ij`` (the classifier ``||z - z-||^2 - ||z - z+||^2``).

    Examples
    --------
    >>> import numpy as np
    >>> from indefsvm.solvers import convex_hull_dual
    >>> Z = np.array([[0.0], [1.0], [3.0], [4.0]])
    >>> res = convex_hull_dual(Z @ Z.T, [-1, -1, 1, 1])
    >>> res.alpha, 2 * res.objective   # closest points 1 and 3: squared distance 4
    (array([0., 1., 1., 0.]), 4.0)
    """
    kern = SolverKernel.of(K, kernel, kernel_params)
    X, Kmat = kern.X, kern.K
    n = kern.n_samples
    y = check_binary_labels(y, n)
    mu = check_positive(mu, "mu")
    n_pos, n_neg = int(np.count_nonzero(y > 0)), int(np.count_nonzero(y < 0))
    if mu * min(n_pos, n_neg) < 1.0 - 1e-12:
        raise ValueError(
            f"mu={mu:g} is infeasible: the smaller class has {min(n_pos, n_neg)} points, so "
            f"mu must be >= 1/{min(n_pos, n_neg)} = {1 / min(n_pos, n_neg):.4g}."
        )
    tol = check_positive(tol, "tol")
    check_choice(wss, "wss", _WSS)
    max_iter = check_max_iter(max_iter, n)
    if alpha0 is None:
        start = np.where(y > 0, 1.0 / n_pos, 1.0 / n_neg)
    else:
        start = check_vector(alpha0, "alpha0", finite=False)
        if (start.shape != (n,) or np.any(start < 0) or np.any(start > mu)
                or abs(start[y > 0].sum() - 1) > 1e-9 or abs(start[y < 0].sum() - 1) > 1e-9):
            raise ParameterError("must satisfy 0 <= alpha0 <= mu and sum to 1 on each class.",
                                 "alpha0")
    rng = check_random_state(random_state)
    check_restarts_memory(int(n_restarts), n, "convex_hull_dual")
    starts = [start] + [random_feasible_hull_weights(y, mu, rng) for _ in range(int(n_restarts))]
    check_choice(restart_select, "restart_select", ("objective", "wMw"))
    # the problem has no linear term: its gradient Q a is of the kernel's size, and the
    # second-order selection squares it -- past 1e154 every candidate scored -inf and the
    # run stalled at a relative gap of 1.5 (a kernel near 1e200). A given matrix far from 1
    # is solved as K / 2^k with tol / 2^k (the same problem, exactly), figures scaled back.
    k = power_of_two_exponent(max(float(Kmat.max()), -float(Kmat.min()))) \
        if Kmat is not None and Kmat.size else 0
    run_kern = SolverKernel.of(np.ldexp(Kmat, -k), "precomputed", None,
                               check_input=False) if k else kern
    best, objectives = _run_starts(run_kern, y, starts, mu, float(np.ldexp(tol, -k)),
                                   wss, False, max_iter, cache_size, p=np.zeros(n),
                                   same_class=True,
                                   prefer_positive=restart_select == "wMw")
    if k:
        best = dict(best, objective=float(np.ldexp(best["objective"], k)),
                    kkt_gap=float(np.ldexp(best["kkt_gap"], k)))
        hist = np.array(best["history"], dtype=float, copy=True)
        if hist.size:
            hist[:, 1] = np.ldexp(hist[:, 1], k)
        best["history"] = hist
        objectives = [float(np.ldexp(o, k)) for o in objectives]
    converged = best["status"] == 0
    if not converged and warn:
        # stalled (a gap float64 cannot close: a kernel near 1e250) or max_iter, said as such
        _warn.warn(stop_message(best["status"], best["kkt_gap"], tol, max_iter,
                                who="CH-DU", scale="the kernel"),
                   ConvergenceWarning, stacklevel=user_stacklevel())
    a = best["alpha"]
    # offset of the decision function (7): b = 1/2 sum_ij a_i a_j y_i d^2_ij, which with
    # d^2_ij = K_ii + K_jj - 2 K_ij and sum a = 2, sum a y = 0 is sum a_i y_i K_ii - (a y)'K a
    sv = np.flatnonzero(a > 0)
    if Kmat is not None:
        Ksv = Kmat[np.ix_(sv, sv)]
    else:
        Xsv = X[sv] if X is not None else sp.csr_matrix(K)[sv].toarray()  # CSR input
        Ksv = kernel_matrix(Xsv, kernel=canonical_name(kernel), **dict(kernel_params or {}))
    ay = a[sv] * y[sv]
    b = float(ay @ np.diagonal(Ksv) - ay @ Ksv @ a[sv])
    return SolverResult(
        alpha=a, b=float(b), objective=float(best["objective"]), n_iter=int(best["n_iter"]),
        converged=bool(converged), kkt_gap=float(best["kkt_gap"]), history=best["history"],
        status=STATUS_TEXT[best["status"]], solver="ch-smo", tol=tol, C=mu,
        n_concave_steps=int(best["n_concave_steps"]), restart_objectives=objectives,
        extra={k: best[k] for k in ("n_kernel_evals", "polish_rounds")},
    )

