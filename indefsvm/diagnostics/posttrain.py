"""Sanity of a trained SVM with an indefinite kernel (Haasdonk 2005, §5 and §7.4; Lin & Lin
2003, §6)."""

from __future__ import annotations

import html
from dataclasses import dataclass, field

import numpy as np
import scipy.linalg as sla

from .._validation import check_binary_labels, check_kernel_matrix
from ._render import render_html, render_text

__all__ = ["NystroemSanityReport", "PairwiseSanityReport", "SanityReport", "sanity_report",
           "sanity_report_from_alpha", "second_order_check"]


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
        ``m(alpha) - M(alpha)`` of Lin & Lin 2003, (21), recomputed from ``K``.
    tol : float
        Tolerance for "stationary".
    is_stationary : bool
        ``kkt_gap <= tol`` (and ``alpha`` feasible).
    n_sv, n_bounded : int
        ``alpha > 0`` and ``alpha = C``.
    bounded_ratio : float
        ``n_bounded / n``: an upper bound on the training error at a stationary point
        (Haasdonk 2005, §7.4).
    train_error : float
        Fraction of training points misclassified by ``sum alpha_j y_j K_ij + b``.
    wMw : float
        ``w'Mw`` of the convex-hull solution, ``(2 / sum alpha)^2 alpha'Q alpha``
        (Haasdonk 2005, §7.4); must be ``> 0`` for a sensible classifier.
    margin : float or None
        ``2 / sqrt(wMw)`` when ``wMw > 0`` (Haasdonk 2005, §5).
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
    C: float | np.ndarray
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
    ch_mu: float | None
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
            ("local minimum", "n/a (not a stationary point)" if not self.is_stationary
             else f"{loc[self.is_local_min]} (min curvature {curv})"),
            ("CH mu = 2C / sum(alpha)",
             "n/a (per-sample C_i)" if self.ch_mu is None else f"{self.ch_mu:.4g}"),
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
        if np.ndim(self.C):
            out["C"] = np.asarray(self.C).tolist()
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
        return "\n\n".join(f"classes {a} vs {b}\n{r}" for (a, b), r in self)

    def _repr_html_(self) -> str:
        return "".join(f"<h3>{html.escape(str(a))} vs {html.escape(str(b))}</h3>"
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


def _nobias_residual(K, y, alpha, C, grad) -> float:
    """KKT residual of the problem without the bias, as Kernel-Adatron, MUNK and M3 measure
    it (see ``sanity_report_from_alpha``), recomputed from alpha."""
    qd = np.diagonal(K).astype(np.float64)  # Q_tt = y_t^2 K_tt
    Cv = np.broadcast_to(np.asarray(C, dtype=np.float64), alpha.shape)
    pos = qd > 0
    with np.errstate(over="ignore"):  # a subnormal Q_tt: the step is inf, clipped to a bound
        step = np.where(pos, grad / np.where(pos, qd, 1.0), grad)
    r = np.abs(alpha - np.clip(alpha - step, 0.0, Cv))
    r = np.where(pos, qd * r, r)
    return float(r.max()) if r.size else 0.0


#: the note of a report whose point is not stationary (the second-order test needs one)
_NOT_STATIONARY_NOTE = ("Second-order test not applied: it characterises stationary points, "
                        "and this is not one (a first-order step still lowers F).")


def second_order_check(K, y, alpha, C, b, *, tol: float = 1e-3, bias: bool = True):
    """Second-order test of a stationary point of the SVM dual (2) (or, with
    ``bias=False``, of the dual without the bias, (19): no equality constraint).

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
    bias : bool, default=True
        ``False`` for the problem without the bias: the multiplier of a bound variable is
        its gradient ``(Qa - e)_t``, and the reduced Hessian is ``Q_FF`` itself.

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
    g, _, _, grad = _kkt(K, y, alpha, C)
    degenerate = ~free & (np.abs(b - g) <= tol if bias else np.abs(grad) <= tol)
    idx = np.flatnonzero(free)
    min_curv = None
    if idx.size >= (2 if bias else 1):
        Q = (y[idx, None] * y[None, idx]) * K[np.ix_(idx, idx)]
        Z = sla.null_space(y[idx][None, :]) if bias else np.eye(idx.size)
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


def sanity_report_from_alpha(K, y, alpha, C, b=None, *, tol: float = 1e-3,
                             bias: bool = True) -> SanityReport:
    """Sanity report of a binary SVM given by its dual variables.

    Parameters
    ----------
    K : array-like of shape (n, n)
        Training kernel matrix.
    y : array-like of shape (n,)
        Labels +1 / -1.
    alpha : array-like of shape (n,)
        Dual variables, ``0 <= alpha <= C``.
    C : float or array-like of shape (n,)
        One bound, or ``C_i`` per sample (class and sample weights).
    b : float, optional
        Bias; default the mean of ``-y_t grad_t`` over free variables (midpoint of
        ``[M, m]`` if none), as the solver computes it.
    tol : float, default=1e-3
        Tolerance of the KKT gap and of degenerate multipliers.
    bias : bool, default=True
        ``False`` for a model without the bias (problem (19) of Lin & Lin 2003, (4) of the
        MUNK paper: no ``y'alpha = 0``; Kernel-Adatron, MUNK, M3, ``fit_intercept=False``):
        ``b`` is 0 and ``kkt_gap`` is then the KKT residual of those solvers, in gradient
        units: ``max_t Q_tt |a_t - clip(a_t - g_t / Q_tt, 0, C_t)|`` with ``g = Qa - e``
        (``|g_t|`` where ``a_t`` is free, ``min(g_t, Q_tt a_t)`` near 0, likewise at C; the
        plain ``|a_t - clip(a_t - g_t)|`` where ``Q_tt <= 0``).

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
    from ..solvers._smo import check_bounds

    y = check_binary_labels(y, n)
    C = check_bounds(C, n)
    if np.any(np.isinf(C)):
        raise ValueError("C must be finite for the sanity report (its bounded-SV counts need "
                         "a bound); got inf.")
    alpha = np.asarray(alpha, dtype=np.float64)
    if alpha.shape != (n,):
        raise ValueError(f"alpha must have shape ({n},); got {alpha.shape}.")
    if not np.all(np.isfinite(alpha)):
        raise ValueError("alpha contains NaN or infinity.")
    if np.any(alpha < -1e-12 * C) or np.any(alpha > C * (1 + 1e-12)):
        raise ValueError("alpha must satisfy 0 <= alpha <= C.")
    if alpha.sum() <= 0:
        raise ValueError("alpha is all zero: there is no classifier to check.")
    g, m, M, grad = _kkt(K, y, alpha, C)
    free = (alpha > 0) & (alpha < C)
    if not bias:
        b = 0.0
        gap = _nobias_residual(K, y, alpha, C, grad)
        feasible = True
    else:
        if b is None:
            b = float(np.mean(g[free])) if free.any() else 0.5 * (m + M)
        gap = m - M
        feasible = abs(float(y @ alpha)) <= 1e-8 * max(1.0, float(np.max(C)) * n)
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
    is_min, curv, n_free, n_deg = second_order_check(K, y, alpha, C, b, tol=tol, bias=bias)
    if not stationary:
        # the second-order conditions are conditions on a stationary point: away from one a
        # positive curvature says nothing (a first-order step lowers F)
        is_min, curv = None, None
    rep = SanityReport(
        n=n, C=C, b=float(b), objective=0.5 * aQa - s, kkt_gap=float(gap), tol=tol,
        is_stationary=stationary, n_sv=int(np.count_nonzero(alpha > 0)), n_bounded=n_bounded,
        bounded_ratio=n_bounded / n, train_error=train_error, wMw=float(wMw),
        margin=float(2.0 / np.sqrt(wMw)) if wMw > 0 else None, class_mean_sqdist=dcm,
        is_local_min=is_min, min_curvature=curv, n_free=n_free, n_degenerate=n_deg,
        ch_alpha=2.0 * alpha / s, ch_mu=2.0 * float(C) / s if np.ndim(C) == 0 else None,
    )
    rep.notes = _notes(rep, feasible, bias)
    return rep


def _notes(r: SanityReport, feasible: bool, bias: bool = True) -> list[str]:
    notes = []
    if not feasible:
        notes.append("alpha violates y'alpha = 0: not a feasible point of the dual (2).")
    if not bias:
        if r.is_stationary:
            notes.append(f"Stationary point of the problem without the bias (Lin & Lin 2003, "
                         f"(19)): largest KKT violation {r.kkt_gap:.3g} <= tol = {r.tol:g}.")
        else:
            notes.append(f"Not a stationary point of the problem without the bias: largest "
                         f"KKT violation {r.kkt_gap:.3g} > tol = {r.tol:g}; the solver "
                         "stopped early. Raise max_iter before reading on.")
    elif r.is_stationary:
        notes.append(f"Stationary point: KKT gap m - M = {r.kkt_gap:.3g} <= tol = {r.tol:g} "
                     "(Lin & Lin 2003, (21)).")
    else:
        notes.append(f"Not a stationary point: KKT gap m - M = {r.kkt_gap:.3g} > tol = "
                     f"{r.tol:g}; the solver stopped early. Raise max_iter before reading on.")
    if r.wMw > 0:
        notes.append(f"w'Mw = {r.wMw:.4g} > 0: w and Mw point to the same side of the decision "
                     f"line, the convex-hull reading is sensible (Haasdonk 2005, §7.4); pE margin "
                     f"2/sqrt(w'Mw) = {r.margin:.4g}.")
    else:
        notes.append(f"w'Mw = {r.wMw:.4g} <= 0: the SVM acts as a counter-intuitive convex-hull "
                     "classifier, unsuitable as it stands (Haasdonk 2005, §7.4). It still "
                     "classifies unbounded training points correctly; a smaller C may give "
                     "w'Mw > 0 if c'Kc > 0.")
    bound = "holds" if r.train_error <= r.bounded_ratio + 1e-12 else "is violated"
    notes.append(f"{r.n_bounded} of {r.n} training points are bounded SVs ({r.bounded_ratio:.2%}),"
                 f" an upper bound on the training error {r.train_error:.2%}; the bound {bound}.")
    if r.class_mean_sqdist <= 0:
        notes.append(f"Class-mean squared distance c'Kc = {r.class_mean_sqdist:.4g} <= 0: no "
                     "solution can have w'Mw > 0 for these labels.")
    else:
        notes.append(f"Class-mean squared distance c'Kc = {r.class_mean_sqdist:.4g} bounds w'Mw "
                     "from above.")
    if not r.is_stationary:
        notes.append(_NOT_STATIONARY_NOTE)
    elif r.is_local_min is True and r.min_curvature is None:
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
    if r.ch_mu is None:
        notes.append("Per-sample bounds C_i (class or sample weights): the convex-hull "
                     "equivalent of Haasdonk (2005), Prop. 7, needs one C and is not given.")
    else:
        notes.append(f"Equivalent convex-hull solution (Haasdonk 2005, Prop. 7(1)): alpha_bar "
                     f"= 2 alpha / sum(alpha), mu = 2C / sum(alpha) = {r.ch_mu:.4g}.")
    return notes


@dataclass
class DualSanityReport:
    """Is a trained epsilon-SVR or one-class SVM a stationary, sensible solution?

    The general dual ``min 1/2 a'Qa + p'a``, ``y'a`` fixed, ``0 <= a_i <= C_i``, read from the
    training kernel independently of the solver.

    Attributes
    ----------
    model : str
        ``"epsilon-SVR"`` or ``"one-class SVM"``.
    n : int
        Training samples taking part (weight > 0).
    objective : float
        ``1/2 a'Qa + p'a`` recomputed from the kernel.
    kkt_gap : float
        ``m - M`` of the general dual (LIBSVM's stopping rule), recomputed.
    tol : float
    is_stationary : bool
    n_sv, n_bounded : int
        Samples with a non-zero coefficient; samples with a variable at its bound ``C_i``.
    bounded_ratio : float
        ``n_bounded / n``: at a stationary point an upper bound on ``outside_ratio``.
    outside_ratio : float
        SVR: fraction of training points outside the epsilon-tube (by more than tol);
        one-class: fraction with a decision value below -tol (training outliers).
    wMw : float
        ``w'Mw = c'Kc`` of the weight vector ``w = sum_i c_i phi(x_i)`` in the
        pseudo-Euclidean feature space (``c = a - a*`` for SVR, ``c = a`` for one-class).
    wMw_meaning : str
        What its sign says for this model.
    is_local_min : bool or None
        Second-order test on the free variables restricted to the equality constraint.
    min_curvature : float or None
    n_free : int
    notes : list of str

    Examples
    --------
    >>> import numpy as np
    >>> import indefsvm as isvm
    >>> X = np.random.default_rng(0).normal(size=(60, 2))
    >>> det = isvm.IndefiniteOneClassSVM(nu=0.2, gamma=0.5).fit(X)
    >>> rep = isvm.sanity_report(det, X)
    >>> rep.is_stationary, rep.wMw > 0
    (True, True)
    """

    model: str
    n: int
    objective: float
    kkt_gap: float
    tol: float
    is_stationary: bool
    n_sv: int
    n_bounded: int
    bounded_ratio: float
    outside_ratio: float
    wMw: float
    wMw_meaning: str
    is_local_min: bool | None
    min_curvature: float | None
    n_free: int
    notes: list = field(default_factory=list)

    def _rows(self):
        loc = {True: "yes (strict)", False: "no (negative curvature)", None: "undetermined"}
        curv = "n/a" if self.min_curvature is None else f"{self.min_curvature:.4g}"
        outside = ("outside the epsilon-tube" if self.model == "epsilon-SVR"
                   else "training outliers")
        return [
            ("model", self.model),
            ("objective", f"{self.objective:.10g}"),
            ("KKT gap m - M", f"{self.kkt_gap:.3g} (tol {self.tol:g})"),
            ("stationary", str(self.is_stationary)),
            ("#SV / #bounded", f"{self.n_sv} / {self.n_bounded}"),
            (f"bounded ratio >= {outside}", f"{self.bounded_ratio:.3%} >= "
             f"{self.outside_ratio:.3%}"),
            ("w'Mw", f"{self.wMw:.4g}"),
            ("local minimum", "n/a (not a stationary point)" if not self.is_stationary
             else f"{loc[self.is_local_min]} (min curvature {curv})"),
        ]

    def __str__(self) -> str:
        return render_text("Sanity report", self._rows(), self.notes)

    def _repr_html_(self) -> str:
        return render_html("Sanity report", self._rows(), self.notes)

    def to_dict(self) -> dict:
        """JSON-serialisable dictionary."""
        return {k: getattr(self, k) for k in (
            "model", "n", "objective", "kkt_gap", "tol", "is_stationary", "n_sv", "n_bounded",
            "bounded_ratio", "outside_ratio", "wMw", "wMw_meaning", "is_local_min",
            "min_curvature", "n_free", "notes")}


@dataclass
class NystroemSanityReport:
    """Is a trained :class:`~indefsvm.NystroemSVC` a stationary, sensible classifier?

    Everything is recomputed in feature space from the training data and the model's dual
    variables, independently of the solver and without any ``n x n`` matrix: per one-vs-one
    problem, the weight vector ``w = Phi' (alpha * y)``, LIBSVM's KKT gap ``m - M`` and
    ``|y'alpha|``, and Haasdonk's (2005, §7.4) criterion ``w'Mw`` of the *original*
    (approximated) kernel ``Phi S Phi'``, in its convex-hull scaling
    ``(2 / sum alpha)^2 w'Sw``: for flip and krein the SVM was trained on ``Phi Phi'`` (where
    the criterion is always positive); read in the geometry of the indefinite kernel the
    solution may still have ``w'Mw <= 0``.

    Attributes
    ----------
    remedy : str
    n_landmarks, n_features, n_positive, n_negative : int
        Landmarks; features used by the SVM; features of each sign in the approximation.
    tol : float
    is_stationary : bool
        Every problem has ``kkt_gap <= tol`` and ``|y'alpha| <= tol * max C``.
    problems : list of dict
        Per one-vs-one problem: ``classes``, ``n``, ``n_sv``, ``n_bounded``,
        ``bounded_ratio`` (``n_bounded / n``), ``train_error``, ``kkt_gap``,
        ``feasibility``, ``objective``, ``wMw``, ``margin`` (``2 / sqrt(wMw)`` or None),
        ``class_mean_sqdist`` (``(mu_a - mu_b)' S (mu_a - mu_b)``, an upper bound on
        ``wMw``) and ``coef_error`` (largest difference between ``w`` recomputed and the
        model's ``coef_``, relative to its largest entry).
    notes : list of str

    Examples
    --------
    >>> import indefsvm as isvm
    >>> X, y = isvm.datasets.load_heart(return_X_y=True)
    >>> clf = isvm.NystroemSVC(kernel="sigmoid", gamma=0.01, coef0=-0.5, n_components=80,
    ...                        random_state=0).fit(X, y)
    >>> rep = isvm.sanity_report(clf, X, y)
    >>> rep.is_stationary, len(rep.problems)
    (True, 1)
    """

    remedy: str
    n_landmarks: int
    n_features: int
    n_positive: int
    n_negative: int
    tol: float
    is_stationary: bool
    problems: list
    notes: list = field(default_factory=list)

    def _rows(self):
        rows = [("remedy", self.remedy),
                ("landmarks / features", f"{self.n_landmarks} / {self.n_features} "
                 f"({self.n_positive} positive, {self.n_negative} negative)"),
                ("stationary (tol)", f"{self.is_stationary} ({self.tol:g})")]
        for p in self.problems:
            head = "" if len(self.problems) == 1 else f"{p['classes'][0]} vs {p['classes'][1]}: "
            rows += [
                (f"{head}KKT gap / |y'alpha|", f"{p['kkt_gap']:.3g} / {p['feasibility']:.3g}"),
                (f"{head}w'Mw (original kernel)", f"{p['wMw']:.4g}"),
                (f"{head}bounded SVs", f"{p['n_bounded']} of {p['n']} "
                 f"({p['bounded_ratio']:.2%}); {p['n_sv']} SVs"),
                (f"{head}training error", f"{p['train_error']:.2%}"),
            ]
        return rows

    def __str__(self) -> str:
        return render_text("Sanity report (NystroemSVC, feature space)", self._rows(),
                           self.notes)

    def _repr_html_(self) -> str:
        return render_html("Sanity report (NystroemSVC, feature space)", self._rows(),
                           self.notes)

    def to_dict(self) -> dict:
        """JSON-serialisable dictionary of the report."""
        out = {k: getattr(self, k) for k in ("remedy", "n_landmarks", "n_features",
                                             "n_positive", "n_negative", "tol",
                                             "is_stationary", "notes")}
        out["problems"] = [{**p, "classes": [str(c) for c in p["classes"]]}
                           for p in self.problems]
        return out


def _nystroem_report(model, X, y, tol):
    """The NystroemSanityReport of a fitted NystroemSVC on its training data."""
    from .._solvers._linsvm import kkt_gap

    if not hasattr(model, "coef_"):
        raise ValueError("sanity_report needs a fitted NystroemSVC (call fit first).")
    tol = model.tol if tol is None else tol
    ny = model.nystroem_
    cols = model.n_features_used_
    # the features exactly as fit computed them (float32), then every sum in float64
    Z = ny._features(X, np.float32, cols)
    if Z.shape[0] != model.n_train_:
        raise ValueError(f"X must be the training data of the model ({model.n_train_} "
                         f"samples); got {Z.shape[0]}.")
    if y is None:
        raise ValueError("sanity_report of a NystroemSVC needs the training y.")
    y = np.asarray(y)
    if y.shape[0] != Z.shape[0]:
        raise ValueError(f"y has {y.shape[0]} entries for {Z.shape[0]} training samples.")
    S = ny.signature_[:cols]
    problems = []
    for k, ((a, b, pos), rows, alpha, C) in enumerate(zip(model._pairs, model._rows,
                                                          model._alphas, model._bounds,
                                                          strict=True)):
        yy = np.where(y[rows] == model.classes_[pos], 1.0, -1.0)
        Zr = Z[rows].astype(np.float64)
        w = Zr.T @ (alpha * yy)
        f = Zr @ w
        gap, bias = kkt_gap(f, yy, alpha, C)
        feas = abs(float(alpha @ yy))
        stored = model.coef_[k] * model.metric_
        coef_error = float(np.abs(w - stored).max() / max(np.abs(w).max(), 1e-300))
        s_alpha = float(alpha.sum())
        wSw = float(w @ (S * w))
        wMw = (2.0 / s_alpha) ** 2 * wSw if s_alpha > 0 else 0.0
        d = Zr[yy > 0].mean(axis=0) - Zr[yy < 0].mean(axis=0)
        n_bounded = int(np.count_nonzero(alpha >= C))
        problems.append({
            "classes": (model.classes_[a], model.classes_[b]), "n": int(rows.shape[0]),
            "n_sv": int(np.count_nonzero(alpha > 0)), "n_bounded": n_bounded,
            "bounded_ratio": n_bounded / rows.shape[0],
            "train_error": float(np.mean(np.sign(f + bias) != yy)),
            "kkt_gap": float(gap), "feasibility": feas,
            "objective": 0.5 * float(w @ w) - s_alpha, "wMw": wMw,
            "margin": 2.0 / np.sqrt(wMw) if wMw > 0 else None,
            "class_mean_sqdist": float(d @ (S * d)), "coef_error": coef_error})
    cmax = [float(np.max(C)) if len(C) else 0.0 for C in model._bounds]
    stationary = all(p["kkt_gap"] <= tol and p["feasibility"] <= tol * c
                     for p, c in zip(problems, cmax, strict=True))
    rep = NystroemSanityReport(
        remedy=model.remedy, n_landmarks=int(ny.normalization_.shape[0]), n_features=cols,
        n_positive=ny.n_positive_, n_negative=ny.n_negative_, tol=float(tol),
        is_stationary=stationary, problems=problems)
    # the model's own claim is comparable only at the tolerance it was fitted with
    rep.notes = _nystroem_notes(rep, model.converged_ if tol == model.tol else None)
    return rep


def _nystroem_notes(r: NystroemSanityReport, converged: bool) -> list[str]:
    notes = []
    if r.is_stationary:
        notes.append(f"Stationary point of every problem: KKT gap m - M <= tol = {r.tol:g} and "
                     "|y'alpha| <= tol * C (LIBSVM's rule, recomputed from the features).")
    else:
        notes.append("Not a stationary point of every problem (KKT gap or |y'alpha| above "
                     "tol): the solver stopped early. Raise max_iter before reading on.")
    if converged is not None and converged != r.is_stationary:
        notes.append(f"The model's converged_ = {converged} disagrees with this recomputation; "
                     "please report it.")
    bad = [p for p in r.problems if p["wMw"] <= 0]
    if bad:
        notes.append(
            f"w'Mw <= 0 in {len(bad)} of {len(r.problems)} problem(s): read in the geometry "
            "of the indefinite kernel the solution is a counter-intuitive convex-hull "
            "classifier (Haasdonk 2005, §7.4), although the SVM trained on the "
            f"{'positive part' if r.remedy == 'clip' else 'flipped kernel'} is convex.")
    else:
        notes.append("w'Mw > 0 in every problem: w and Mw point to the same side in the "
                     "geometry of the indefinite kernel too (Haasdonk 2005, §7.4).")
    worst = max(r.problems, key=lambda p: p["bounded_ratio"])
    notes.append(f"Bounded SVs: at most {worst['bounded_ratio']:.2%} of a problem's points, "
                 f"an upper bound on its training error ({worst['train_error']:.2%}).")
    err = max(p["coef_error"] for p in r.problems)
    if err > 1e-6:
        notes.append(f"The model's coef_ differs from Phi'(alpha y) by {err:.3g} (relative): "
                     "the weights were changed after fit, or the data are not the training "
                     "data.")
    return notes


def _general_kkt(Q, p, y, C, alpha):
    """g = -y * (Qa + p), m, M of the general dual (LIBSVM's I_up / I_low)."""
    g = -y * (Q @ alpha + p)
    up = ((alpha < C) & (y > 0)) | ((alpha > 0) & (y < 0))
    low = ((alpha < C) & (y < 0)) | ((alpha > 0) & (y > 0))
    m = float(g[up].max()) if up.any() else -np.inf
    M = float(g[low].min()) if low.any() else np.inf
    return g, m, M


def _reduced_curvature(Q, y, alpha, C, g, b, tol):
    """Second-order test of the general dual: reduced Hessian of Q on the free variables
    restricted to y_F'd = 0; bound variables with multiplier |b - g_t| <= tol degenerate."""
    free = (alpha > 0) & (alpha < C)
    degenerate = ~free & (np.abs(b - g) <= tol)
    idx = np.flatnonzero(free)
    if idx.size >= 2:
        Z = sla.null_space(y[idx][None, :])
        H = Z.T @ Q[np.ix_(idx, idx)] @ Z
        lam = np.linalg.eigvalsh((H + H.T) / 2)
        curv = float(lam[0])
        zero_tol = H.shape[0] * np.finfo(float).eps * max(float(np.abs(lam).max()), 1e-300)
        if curv < -zero_tol:
            return False, curv, int(idx.size)
        if curv <= zero_tol or degenerate.any():
            return None, curv, int(idx.size)
        return True, curv, int(idx.size)
    return (None if degenerate.any() else True), None, int(idx.size)


def _dual_report(kind, K, y2, p, C2, alpha2, coef, b, outside_ratio, tol):
    n2 = y2.shape[0]
    m_rep = K.shape[0]
    Q = np.outer(y2, y2) * (K if n2 == m_rep else np.block([[K, K], [K, K]]))
    g, m, M = _general_kkt(Q, p, y2, C2, alpha2)
    gap = m - M
    free = (alpha2 > 0) & (alpha2 < C2)
    if b is None:
        b = float(np.mean(g[free])) if free.any() else 0.5 * (m + M)
    is_min, curv, n_free = _reduced_curvature(Q, y2, alpha2, C2, g, b, tol)
    at_bound = alpha2 >= C2 * (1 - 1e-12)
    n_bounded = int(np.count_nonzero(at_bound[:m_rep] | (at_bound[m_rep:] if n2 > m_rep
                                                          else False)))
    wMw = float(coef @ K @ coef)
    if kind == "epsilon-SVR":
        meaning = ("w'Mw = ||w||^2 in the pseudo-Euclidean feature space is the flatness term "
                   "of the primal; > 0 means the solution trades flatness against tube "
                   "violations as in the PSD case, <= 0 means the 'flatness' term rewards "
                   "large coefficients and the fit is a stationary point without that reading")
    else:
        meaning = ("w'Mw = ||w||^2 in the pseudo-Euclidean feature space; > 0 is needed for "
                   "the boundary rho / ||w|| to be a distance from the origin (Schoelkopf et al. "
                   "2001), <= 0 means the support estimate has no such geometric reading")
    rep = DualSanityReport(
        model=kind, n=m_rep, objective=float(0.5 * alpha2 @ Q @ alpha2 + p @ alpha2),
        kkt_gap=float(gap), tol=tol, is_stationary=bool(gap <= tol),
        n_sv=int(np.count_nonzero(coef)), n_bounded=n_bounded, bounded_ratio=n_bounded / m_rep,
        outside_ratio=float(outside_ratio), wMw=wMw, wMw_meaning=meaning, is_local_min=is_min,
        min_curvature=curv, n_free=n_free)
    notes = []
    if rep.is_stationary:
        notes.append(f"Stationary point: KKT gap m - M = {gap:.3g} <= tol = {tol:g}.")
    else:
        notes.append(f"Not a stationary point: KKT gap m - M = {gap:.3g} > tol = {tol:g}; the "
                     "solver stopped early. Raise max_iter before reading on.")
    what = "outside the tube" if kind == "epsilon-SVR" else "training outliers"
    holds = "holds" if outside_ratio <= rep.bounded_ratio + 1e-12 else "is violated"
    notes.append(f"{n_bounded} of {m_rep} samples have a variable at its bound "
                 f"({rep.bounded_ratio:.2%}), an upper bound on the {what} "
                 f"({outside_ratio:.2%}) at a stationary point; the bound {holds}.")
    notes.append(f"w'Mw = {wMw:.4g}: " + meaning + ".")
    if not rep.is_stationary:
        rep.is_local_min, rep.min_curvature = None, None
        notes.append(_NOT_STATIONARY_NOTE)
    elif is_min is False:
        notes.append(f"Not a local minimum: curvature {curv:.4g} < 0 along a feasible "
                     "direction of the free variables (a saddle point).")
    elif is_min is True:
        notes.append("Strict local minimum on the free variables (positive definite reduced "
                     "Hessian, no degenerate bound).")
    else:
        notes.append("Local minimality undetermined (singular reduced Hessian or degenerate "
                     "bounds).")
    rep.notes = notes
    return rep


def _training_kernel(model, X):
    from ..kernels import kernel_matrix

    if callable(model.kernel):
        return check_kernel_matrix(model._callable_rows(X, X), "kernel(X, X)")
    if model.kernel == "precomputed":
        return check_kernel_matrix(X, "X (precomputed kernel)")
    Xa = np.asarray(X.toarray() if hasattr(X, "toarray") else X, dtype=np.float64)
    if Xa.ndim != 2 or Xa.shape[1] != model.n_features_in_:
        raise ValueError(
            f"X must be the training data of the model: {model.n_features_in_} features; got "
            f"shape {Xa.shape}.")
    if getattr(model, "solver", "smo") == "lsvm" and hasattr(model, "_solver_inputs"):
        Xa = model._solver_inputs(Xa)
    return kernel_matrix(Xa, kernel=model._kernel_name(), **model._kernel_params_fitted)


def sanity_report(model, X, y=None, *, tol: float | None = None):
    """Sanity report of a fitted SVM of indefsvm on its training data.

    Parameters
    ----------
    model : fitted estimator
        IndefiniteSVC, IndefiniteNuSVC, IndefiniteSVR, IndefiniteOneClassSVM, KreinSVC,
        NystroemSVC, or a Pipeline ending in one of the first four (after
        ``DistanceKernel``, a spectrum fix, ...), reported on the kernel its transformers
        make of ``X``; a ``KreinSVC`` is reported by the SVM it trains on the flipped kernel
        ``|K|``; a ``NystroemSVC`` in feature space (:class:`NystroemSanityReport`).
    X : array-like
        The training data (or training kernel matrix for ``kernel="precomputed"``).
    y : array-like of shape (n_samples,), optional
        The training labels or targets (not for the one-class SVM).
    tol : float, optional
        Default: the model's ``tol``.

    Returns
    -------
    SanityReport, PairwiseSanityReport (more than two classes), DualSanityReport (SVR,
    one-class) or NystroemSanityReport.

    Notes
    -----
    Classifiers: the report of the C-SVC dual (2) of Lin & Lin (2003) with the model's
    per-sample bounds ``C_i``; for nu-SVC, of the equivalent C-SVC solution ``alpha / r``
    with bounds ``C_i / r`` (Chang & Lin 2001). ``w'Mw`` is Haasdonk's (2005) convex-hull
    criterion. SVR and one-class: :class:`DualSanityReport`, whose ``w'Mw`` is the
    pseudo-Euclidean norm of the weight vector (its reading is stated in the report).

    Examples
    --------
    >>> import indefsvm as isvm
    >>> X, y = isvm.datasets.load_heart(return_X_y=True)
    >>> clf = isvm.IndefiniteSVC(kernel="sigmoid", gamma=0.01, coef0=-0.5, C=10).fit(X, y)
    >>> rep = isvm.sanity_report(clf, X, y)
    >>> rep.is_stationary, rep.wMw > 0
    (True, True)
    """
    if hasattr(model, "steps"):
        # a Pipeline: the kernel its SVM was trained on is what its transformers made of X;
        # they are deterministic (distance kernels, spectrum fixes), so fresh copies refitted
        # on X reproduce it (a transform of the training X would not: the shift changes the
        # training diagonal only)
        from sklearn.base import clone

        for _, step in model.steps[:-1]:
            if step is not None and step != "passthrough":
                X = clone(step).fit_transform(X, y)
        return sanity_report(model.steps[-1][1], X, y, tol=tol)
    name = type(model).__name__
    if name == "NystroemSVC":
        return _nystroem_report(model, X, y, tol)
    if name == "KreinSVC":
        if not hasattr(model, "svc_"):
            raise ValueError("sanity_report needs a fitted KreinSVC (call fit first).")
        # the Krein SVM is an SVM on the flipped kernel |K| (then back-projected): that SVM
        # is what has a dual to check
        Kf = model.flipped_kernel(X)
        if Kf.shape[0] != model.n_train_:
            raise ValueError(f"X must be the training data of the model ({model.n_train_} "
                             f"samples); got {Kf.shape[0]}.")
        return sanity_report(model.svc_, Kf, y, tol=tol)
    known = ("IndefiniteSVC", "IndefiniteNuSVC", "IndefiniteSVR", "IndefiniteOneClassSVM")
    if name not in known:
        raise ValueError(f"sanity_report needs a fitted {', '.join(known)}, KreinSVC, "
                         f"NystroemSVC or a Pipeline ending in one of them; got {name}.")
    if not hasattr(model, "support_"):
        raise ValueError(f"sanity_report needs a fitted {name} (call fit first).")
    tol = model.tol if tol is None else tol
    K = _training_kernel(model, X)
    n = K.shape[0]
    if n != model.shape_fit_[0]:
        raise ValueError(f"X must be the training data of the model ({model.shape_fit_[0]} "
                         f"samples); got {n}.")
    if name == "IndefiniteOneClassSVM":
        keep = model._keep
        Kk = K[np.ix_(keep, keep)]
        a = model.alpha_[keep]
        dec = Kk @ a + model.intercept_[0]
        return _dual_report("one-class SVM", Kk, np.ones(keep.shape[0]),
                            np.zeros(keep.shape[0]), model._bounds, a, a, model.intercept_[0],
                            float(np.mean(dec < -tol)), tol)
    if y is None:
        raise ValueError(f"sanity_report of a {name} needs the training y.")
    y = np.asarray(y)
    if y.shape[0] != n:
        raise ValueError(f"y has {y.shape[0]} entries for {n} training samples.")
    if name == "IndefiniteSVR":
        keep = model._keep
        Kk = K[np.ix_(keep, keep)]
        m = keep.shape[0]
        yk = y[keep].astype(np.float64)
        a2 = np.r_[model.alpha_[keep], model.alpha_[n + keep]]
        coef = a2[:m] - a2[m:]
        resid = np.abs(yk - (Kk @ coef + model.intercept_[0]))
        return _dual_report("epsilon-SVR", Kk, np.r_[np.ones(m), -np.ones(m)],
                            np.r_[model.epsilon - yk, model.epsilon + yk],
                            np.r_[model._bounds, model._bounds], a2, coef, model.intercept_[0],
                            float(np.mean(resid > model.epsilon + tol)), tol)
    if getattr(model, "solver", "smo") == "lsvm":
        raise ValueError(
            "sanity_report checks the box-constrained SVM dual (2); a model fitted with "
            "solver='lsvm' solves another problem, the Lagrangian SVM of Mangasarian & "
            "Musicant (2001): min 1/2 u'(I/nu + DKD)u - e'u over u >= 0 with the kernel of the "
            "augmented inputs [x, -1]. Its KKT residual is the model's kkt_gap_ (converged_ "
            "says whether it is <= tol); for this report fit with solver='smo'.")
    # Kernel-Adatron, MUNK, M3 and fit_intercept=False solve the problem without the bias
    bias = getattr(model, "fit_intercept", True) and getattr(model, "solver", "smo") == "smo"
    classes = model.classes_
    reports, pairs = [], []
    alphas = model.alpha_[None, :] if model.alpha_.ndim == 1 else model.alpha_
    scale = getattr(model, "_nu_r", None)
    for k, (a, b_, pos_class) in enumerate(model._pairs):
        idx = model._pair_members[k]
        yp = np.where(y[idx] == classes[pos_class], 1.0, -1.0)
        bounds = np.asarray(model._pair_bounds[k], dtype=np.float64)
        if bounds.size == 0 or (np.all(bounds == bounds[0]) and scale is None):
            bounds = float(bounds[0]) if bounds.size else float(model.C)
        alpha = alphas[k][idx]
        tol_k = tol
        if scale is not None:
            # nu-SVC: alpha / r solves the C-SVC dual with bounds C_i / r, and the nu-SVC
            # tolerance tol on the gradient becomes tol / r there
            alpha, bounds = alpha / scale[k], np.asarray(bounds) / scale[k]
            tol_k = tol / scale[k]
        rep = sanity_report_from_alpha(K[np.ix_(idx, idx)], yp, alpha, bounds,
                                       b=model.intercept_[k], tol=tol_k, bias=bias)
        reports.append(rep)
        neg_class = b_ if pos_class == a else a
        pairs.append((classes[pos_class], classes[neg_class]))
    if len(reports) == 1:
        return reports[0]
    return PairwiseSanityReport(pairs=pairs, reports=reports)
