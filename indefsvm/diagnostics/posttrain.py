"""Sanity of a trained SVM with an indefinite kernel (seed 003, §5 and §7.4; seed 000, §6)."""

from __future__ import annotations

import html
from dataclasses import dataclass, field

import numpy as np
import scipy.linalg as sla

from .._validation import check_binary_labels, check_kernel_matrix, check_positive
from ._render import render_html, render_text

__all__ = ["PairwiseSanityReport", "SanityReport", "sanity_report", "sanity_report_from_alpha",
           "second_order_check"]


@dataclass
class SanityReport:
    """Is a trained (binary) SVM a sensible classifier?

    Attributes
    ----------
    n : int
    C : float
    b : float
        Bias used for the training error and the multipliers.
    objective : float
        ``F(alpha) = 1/2 alpha'Q alpha - e'alpha``.
    kkt_gap : float
        ``m(alpha) - M(alpha)`` of seed 000 (21), recomputed from ``K``.
    tol : float
        Tolerance for "stationary".
    is_stationary : bool
        ``kkt_gap <= tol`` (and ``alpha`` feasible).
    n_sv, n_bounded : int
        ``alpha > 0`` and ``alpha = C``.
    bounded_ratio : float
        ``n_bounded / n``: an upper bound on the training error at a stationary point
        (seed 003, §7.4).
    train_error : float
        Fraction of training points misclassified by ``sum alpha_j y_j K_ij + b``.
    wMw : float
        ``w'Mw`` of the convex-hull solution, ``(2 / sum alpha)^2 alpha'Q alpha``
        (seed 003, §7.4); must be ``> 0`` for a sensible classifier.
    margin : float or None
        ``2 / sqrt(wMw)`` when ``wMw > 0`` (seed 003, §5).
    class_mean_sqdist : float
        ``c'Kc``, an upper bound on ``wMw``.
    is_local_min : bool or None
        Second-order test: ``True`` strict local minimum, ``False`` negative curvature found
        along a feasible direction (saddle or maximum), ``None`` undetermined.
    min_curvature : float or None
        Smallest eigenvalue of ``Q`` on the free variables restricted to ``y'd = 0``.
    n_free, n_degenerate : int
        Free variables; variables at a bound whose KKT multiplier is within ``tol`` of 0.
    ch_alpha : ndarray
        ``2 alpha / sum alpha``: the CH-DU solution (Prop. 7(1)).
    ch_mu : float
        ``2 C / sum alpha``.
    notes : list of str

    Examples
    --------
    >>> import numpy as np
    >>> from indefsvm.diagnostics import sanity_report_from_alpha
    >>> rep = sanity_report_from_alpha(np.eye(2), [1, -1], [1.0, 1.0], C=1.0)
    >>> rep.n_bounded, rep.bounded_ratio, rep.wMw
    (2, 1.0, 2.0)
    """

    n: int
    C: float
    b: float
    objective: float
    kkt_gap: float
    tol: float
    is_stationary: bool
    n_sv: int
    n_bounded: int
    bounded_ratio: float
    train_error: float
    wMw: float
    margin: float | None
    class_mean_sqdist: float
    is_local_min: bool | None
    min_curvature: float | None
    n_free: int
    n_degenerate: int
    ch_alpha: np.ndarray
    ch_mu: float
    notes: list = field(default_factory=list)

    def _rows(self):
        loc = {True: "yes (strict)", False: "no (negative curvature)", None: "undetermined"}
        curv = "n/a" if self.min_curvature is None else f"{self.min_curvature:.4g}"
        return [
            ("objective F(alpha)", f"{self.objective:.10g}"),
            ("KKT gap m - M", f"{self.kkt_gap:.3g} (tol {self.tol:g})"),
            ("stationary", str(self.is_stationary)),
            ("#SV / #bounded SV", f"{self.n_sv} / {self.n_bounded}"),
            ("bounded ratio >= training error", f"{self.bounded_ratio:.3%} >= "
             f"{self.train_error:.3%}"),
            ("w'Mw (CH solution)", f"{self.wMw:.4g}"),
            ("margin 2/sqrt(w'Mw)", "n/a" if self.margin is None else f"{self.margin:.4g}"),
            ("class-mean sq. distance c'Kc", f"{self.class_mean_sqdist:.4g}"),
            ("local minimum", f"{loc[self.is_local_min]} (min curvature {curv})"),
            ("CH mu = 2C / sum(alpha)", f"{self.ch_mu:.4g}"),
        ]

    def __str__(self) -> str:
        return render_text("Sanity report", self._rows(), self.notes)

    def _repr_html_(self) -> str:
        return render_html("Sanity report", self._rows(), self.notes)

    def to_dict(self) -> dict:
        """JSON-serialisable dictionary."""
        out = {k: getattr(self, k) for k in (
            "n", "C", "b", "objective", "kkt_gap", "tol", "is_stationary", "n_sv", "n_bounded",
            "bounded_ratio", "train_error", "wMw", "margin", "class_mean_sqdist",
            "is_local_min", "min_curvature", "n_free", "n_degenerate", "ch_mu", "notes")}
        out["ch_alpha"] = self.ch_alpha.tolist()
        return out


@dataclass
class PairwiseSanityReport:
    """One :class:`SanityReport` per pair of classes of a multi-class (one-vs-one) model.

    Attributes
    ----------
    pairs : list of tuple
        ``(class_a, class_b)``; ``y = +1`` is the class the model used as positive.
    reports : list of SanityReport

    Examples
    --------
    >>> import indefsvm as isvm
    >>> from sklearn.datasets import load_iris
    >>> X, y = load_iris(return_X_y=True)
    >>> rep = isvm.sanity_report(isvm.IndefiniteSVC().fit(X, y), X, y)
    >>> len(rep.reports), rep.pairs[0]
    (3, (np.int64(0), np.int64(1)))
    """

    pairs: list
    reports: list

    def __iter__(self):
        return iter(zip(self.pairs, self.reports, strict=True))

    def __str__(self) -> str:
        return "\n\n".join(f"classes {a!r} vs {b!r}\n{r}" for (a, b), r in self)

    def _repr_html_(self) -> str:
        return "".join(f"<h3>{html.escape(repr(a))} vs {html.escape(repr(b))}</h3>"
                       f"{r._repr_html_()}" for (a, b), r in self)

    def to_dict(self) -> dict:
        return {"pairs": [[str(a), str(b)] for a, b in self.pairs],
                "reports": [r.to_dict() for r in self.reports]}


def _kkt(K, y, alpha, C):
    grad = y * (K @ (y * alpha)) - 1.0
    g = -y * grad
    up = ((alpha < C) & (y > 0)) | ((alpha > 0) & (y < 0))
    low = ((alpha < C) & (y < 0)) | ((alpha > 0) & (y > 0))
    m = g[up].max() if up.any() else -np.inf
    M = g[low].min() if low.any() else np.inf
    return g, float(m), float(M), grad


def second_order_check(K, y, alpha, C, b, *, tol: float = 1e-3):
    """Second-order test of a stationary point of the SVM dual (2).

    Parameters
    ----------
    K : ndarray of shape (n, n)
    y : ndarray of shape (n,)
        +1 / -1.
    alpha : ndarray of shape (n,)
    C : float
    b : float
        Bias (the multiplier of ``y'alpha = 0``).
    tol : float, default=1e-3
        A variable at a bound whose multiplier ``|b - g_t|`` is ``<= tol`` is degenerate.

    Returns
    -------
    is_local_min : bool or None
        ``False``: the reduced Hessian ``Z'Q_FF Z`` (free variables ``F``, ``Z`` a basis of
        ``{d : y_F'd = 0}``) has a negative eigenvalue, so moving along it keeps the first-order
        change 0 and lowers ``F``: not a local minimum. ``True``: it is positive definite and
        no bound variable is degenerate (strict complementarity), a strict local minimum.
        ``None`` otherwise.
    min_curvature : float or None
        Smallest eigenvalue of the reduced Hessian (``None`` with fewer than 2 free variables).
    n_free, n_degenerate : int

    Examples
    --------
    >>> import numpy as np
    >>> from indefsvm.diagnostics import second_order_check
    >>> y = np.array([1.0, 1.0, -1.0, -1.0])
    >>> K = np.outer(y, y) / 2 - np.outer([1, -1, 0, 0], [1, -1, 0, 0])  # negative curvature
    >>> second_order_check(K, y, np.full(4, 0.5), 1.0, 0.0)[0]
    False
    """
    free = (alpha > 0) & (alpha < C)
    g, _, _, _ = _kkt(K, y, alpha, C)
    degenerate = ~free & (np.abs(b - g) <= tol)
    idx = np.flatnonzero(free)
    min_curv = None
    if idx.size >= 2:
        Q = (y[idx, None] * y[None, idx]) * K[np.ix_(idx, idx)]
        Z = sla.null_space(y[idx][None, :])
        H = Z.T @ Q @ Z
        lam = np.linalg.eigvalsh((H + H.T) / 2)
        min_curv = float(lam[0])
        zero_tol = H.shape[0] * np.finfo(float).eps * max(float(np.abs(lam).max()), 1e-300)
        if min_curv < -zero_tol:
            return False, min_curv, int(idx.size), int(degenerate.sum())
        if min_curv <= zero_tol:
            return None, min_curv, int(idx.size), int(degenerate.sum())
    if degenerate.any():
        return None, min_curv, int(idx.size), int(degenerate.sum())
    return True, min_curv, int(idx.size), 0


def sanity_report_from_alpha(K, y, alpha, C, b=None, *, tol: float = 1e-3) -> SanityReport:
    """Sanity report of a binary SVM given by its dual variables.

    Parameters
    ----------
    K : array-like of shape (n, n)
        Training kernel matrix.
    y : array-like of shape (n,)
        Labels +1 / -1.
    alpha : array-like of shape (n,)
        Dual variables, ``0 <= alpha <= C``.
    C : float
    b : float, optional
        Bias; default the mean of ``-y_t grad_t`` over free variables (midpoint of
        ``[M, m]`` if none), as the solver computes it.
    tol : float, default=1e-3
        Tolerance of the KKT gap and of degenerate multipliers.

    Returns
    -------
    SanityReport

    Examples
    --------
    >>> import numpy as np
    >>> from indefsvm.diagnostics import sanity_report_from_alpha
    >>> K = np.array([[2.0, 0.0], [0.0, 2.0]])
    >>> rep = sanity_report_from_alpha(K, [1, -1], [0.5, 0.5], C=1.0)
    >>> rep.is_stationary, rep.wMw, rep.margin
    (True, 4.0, 1.0)
    """
    K = check_kernel_matrix(K)
    n = K.shape[0]
    y = check_binary_labels(y, n)
    C = check_positive(C, "C")
    alpha = np.asarray(alpha, dtype=np.float64)
    if alpha.shape != (n,):
        raise ValueError(f"alpha must have shape ({n},); got {alpha.shape}.")
    if np.any(alpha < -1e-12 * C) or np.any(alpha > C * (1 + 1e-12)):
        raise ValueError(f"alpha must satisfy 0 <= alpha <= C={C:g}.")
    if alpha.sum() <= 0:
        raise ValueError("alpha is all zero: there is no classifier to check.")
    g, m, M, grad = _kkt(K, y, alpha, C)
    free = (alpha > 0) & (alpha < C)
    if b is None:
        b = float(np.mean(g[free])) if free.any() else 0.5 * (m + M)
    gap = m - M
    feasible = abs(float(y @ alpha)) <= 1e-8 * max(1.0, C * n)
    stationary = bool(feasible and gap <= tol)
    v = y * alpha
    aQa = float(v @ K @ v)
    s = float(alpha.sum())
    wMw = (2.0 / s) ** 2 * aQa
    dec = K @ v + b
    train_error = float(np.mean(np.where(dec > 0, 1.0, -1.0) != y))
    n_bounded = int(np.count_nonzero(alpha >= C))
    c = np.where(y > 0, 1.0 / np.count_nonzero(y > 0), -1.0 / np.count_nonzero(y < 0))
    dcm = float(c @ K @ c)
    is_min, curv, n_free, n_deg = second_order_check(K, y, alpha, C, b, tol=tol)
    rep = SanityReport(
        n=n, C=C, b=float(b), objective=0.5 * aQa - s, kkt_gap=float(gap), tol=tol,
        is_stationary=stationary, n_sv=int(np.count_nonzero(alpha > 0)), n_bounded=n_bounded,
        bounded_ratio=n_bounded / n, train_error=train_error, wMw=float(wMw),
        margin=float(2.0 / np.sqrt(wMw)) if wMw > 0 else None, class_mean_sqdist=dcm,
        is_local_min=is_min, min_curvature=curv, n_free=n_free, n_degenerate=n_deg,
        ch_alpha=2.0 * alpha / s, ch_mu=2.0 * C / s,
    )
    rep.notes = _notes(rep, feasible)
    return rep


def _notes(r: SanityReport, feasible: bool) -> list[str]:
    notes = []
    if not feasible:
        notes.append("alpha violates y'alpha = 0: not a feasible point of the dual (2).")
    if r.is_stationary:
        notes.append(f"Stationary point: KKT gap m - M = {r.kkt_gap:.3g} <= tol = {r.tol:g} "
                     "(seed 000, (21)).")
    else:
        notes.append(f"Not a stationary point: KKT gap m - M = {r.kkt_gap:.3g} > tol = "
                     f"{r.tol:g}; the solver stopped early. Raise max_iter before reading on.")
    if r.wMw > 0:
        notes.append(f"w'Mw = {r.wMw:.4g} > 0: w and Mw point to the same side of the decision "
                     f"line, the convex-hull reading is sensible (seed 003, §7.4); pE margin "
                     f"2/sqrt(w'Mw) = {r.margin:.4g}.")
    else:
        notes.append(f"w'Mw = {r.wMw:.4g} <= 0: the SVM acts as a counter-intuitive convex-hull "
                     "classifier, unsuitable as it stands (seed 003, §7.4). It still classifies "
                     "unbounded training points correctly; a smaller C may give w'Mw > 0 "
                     "if c'Kc > 0.")
    bound = "holds" if r.train_error <= r.bounded_ratio + 1e-12 else "is violated"
    notes.append(f"{r.n_bounded} of {r.n} training points are bounded SVs ({r.bounded_ratio:.2%}),"
                 f" an upper bound on the training error {r.train_error:.2%}; the bound {bound}.")
    if r.class_mean_sqdist <= 0:
        notes.append(f"Class-mean squared distance c'Kc = {r.class_mean_sqdist:.4g} <= 0: no "
                     "solution can have w'Mw > 0 for these labels.")
    else:
        notes.append(f"Class-mean squared distance c'Kc = {r.class_mean_sqdist:.4g} bounds w'Mw "
                     "from above.")
    if r.is_local_min is True and r.min_curvature is None:
        notes.append(f"Strict local minimum: {r.n_free} free variable(s), every bound variable "
                     "has a non-zero multiplier, so every feasible direction raises F at "
                     "first order.")
    elif r.is_local_min is True:
        notes.append(f"Strict local minimum: the Hessian on the {r.n_free} free variables "
                     f"restricted to y'd = 0 is positive definite (smallest curvature "
                     f"{r.min_curvature:.4g}) and no bound variable is degenerate.")
    elif r.is_local_min is False:
        notes.append(f"Not a local minimum: curvature {r.min_curvature:.4g} < 0 along a feasible "
                     "direction of the free variables (a saddle point). Restarts "
                     "(n_restarts) may find a lower objective.")
    else:
        why = (f"{r.n_degenerate} bound variables have a zero multiplier"
               if r.n_degenerate else "the reduced Hessian is singular")
        notes.append(f"Local minimality undetermined: {why}.")
    notes.append(f"Equivalent convex-hull solution (Prop. 7(1)): alpha_bar = 2 alpha / "
                 f"sum(alpha), mu = 2C / sum(alpha) = {r.ch_mu:.4g}.")
    return notes


def sanity_report(model, X, y, *, tol: float | None = None):
    """Sanity report of a fitted :class:`~indefsvm.IndefiniteSVC` on its training data.

    Parameters
    ----------
    model : IndefiniteSVC
        Fitted.
    X : array-like
        The training data (or training kernel matrix for ``kernel="precomputed"``).
    y : array-like of shape (n_samples,)
        The training labels.
    tol : float, optional
        Default: the model's ``tol``.

    Returns
    -------
    SanityReport, or PairwiseSanityReport for more than two classes.

    Examples
    --------
    >>> import indefsvm as isvm
    >>> X, y = isvm.datasets.load_heart(return_X_y=True)
    >>> clf = isvm.IndefiniteSVC(kernel="sigmoid", gamma=0.01, coef0=-0.5, C=10).fit(X, y)
    >>> rep = isvm.sanity_report(clf, X, y)
    >>> rep.is_stationary, rep.wMw > 0
    (True, True)
    """
    from ..kernels import kernel_matrix

    if not hasattr(model, "alpha_"):
        raise ValueError("sanity_report needs a fitted IndefiniteSVC (call fit first).")
    tol = model.tol if tol is None else tol
    y = np.asarray(y)
    if model.kernel == "precomputed":
        K = check_kernel_matrix(X, "X (precomputed kernel)")
    else:
        Xa = np.asarray(X.toarray() if hasattr(X, "toarray") else X, dtype=np.float64)
        name = model._kernel_name()
        K = kernel_matrix(Xa, kernel=name, **model._kernel_params_fitted)
    if K.shape[0] != y.shape[0] or K.shape[0] != model.alpha_.shape[-1]:
        raise ValueError("X and y must be the training data of the model "
                         f"({model.alpha_.shape[-1]} samples).")
    classes = model.classes_
    reports, pairs = [], []
    alphas = model.alpha_[None, :] if model.alpha_.ndim == 1 else model.alpha_
    for k, (a, b_, pos_class, _, _) in enumerate(model._pairs):
        idx = np.flatnonzero((y == classes[a]) | (y == classes[b_]))
        yp = np.where(y[idx] == classes[pos_class], 1.0, -1.0)
        rep = sanity_report_from_alpha(K[np.ix_(idx, idx)], yp, alphas[k][idx], model.C,
                                       b=model.intercept_[k], tol=tol)
        reports.append(rep)
        neg_class = b_ if pos_class == a else a
        pairs.append((classes[pos_class], classes[neg_class]))
    if len(reports) == 1:
        return reports[0]
    return PairwiseSanityReport(pairs=pairs, reports=reports)
