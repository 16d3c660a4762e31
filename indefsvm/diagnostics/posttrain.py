"""Sanity of a trained SVM with an indefinite kernel (Haasdonk 2005, §5 and §7.4; Lin & Lin
2003, §6)."""

from __future__ import annotations

import html
import numbers
from dataclasses import dataclass, field

import numpy as np
import scipy.linalg as sla

from .._threads import sized_by
from .._validation import (
    NONNEG,
    check_binary_labels,
    check_kernel_matrix,
    check_real,
    check_vector,
    options_checked,
)
from ..exceptions import ParameterError
from ._dual_report import (
    _NOT_STATIONARY_NOTE,
    _dual_report,
)
from ._feature_report import feature_report
from ._render import render_html, render_text, verdict_row

__all__ = ["PairwiseSanityReport", "SanityReport", "sanity_report",
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
            verdict_row(self.verdict),
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

    @property
    def verdict(self) -> str:
        """``"sensible"`` (stationary and ``w'Mw > 0``), ``"not stationary"`` (KKT gap above
        ``tol``) or ``"counter-intuitive"`` (stationary with ``w'Mw <= 0``; Haasdonk 2005,
        §7.4): the reading :meth:`PairwiseSanityReport.counts` counts per pair."""
        if not self.is_stationary:
            return "not stationary"
        return "sensible" if self.wMw > 0 else "counter-intuitive"

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
        out["verdict"] = self.verdict
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
    >>> len(rep.reports), [int(c) for c in rep.pairs[0]]
    (3, [0, 1])
    """

    pairs: list
    reports: list

    def __iter__(self):
        return iter(zip(self.pairs, self.reports, strict=True))

    def counts(self) -> dict:
        """How many pairs are sensible (stationary and ``w'Mw > 0``), not stationary, and
        counter-intuitive (stationary with ``w'Mw <= 0``), and the worst pair: the least
        stationary one (largest ``kkt_gap / tol``) if any is not stationary, else the one
        of smallest ``w'Mw``."""
        still = [r for r in self.reports if not r.is_stationary]
        sensible = sum(r.verdict == "sensible" for r in self.reports)
        counter = sum(r.verdict == "counter-intuitive" for r in self.reports)
        if still:
            i = max(range(len(self.reports)), key=lambda i: (
                not self.reports[i].is_stationary,
                self.reports[i].kkt_gap / max(self.reports[i].tol, 1e-300)))
        else:
            i = min(range(len(self.reports)), key=lambda i: self.reports[i].wMw)
        return {"pairs": len(self.reports), "sensible": int(sensible),
                "not_stationary": len(still), "counter_intuitive": int(counter),
                "worst": [str(c) for c in self.pairs[i]], "worst_index": int(i)}

    @property
    def verdict(self) -> str:
        """The whole model's reading, as :attr:`SanityReport.verdict` reads one pair:
        ``"sensible"`` when every pair is, else ``"not stationary"`` when a pair is not
        stationary, else ``"counter-intuitive"``."""
        c = self.counts()
        if c["sensible"] == c["pairs"]:
            return "sensible"
        return "not stationary" if c["not_stationary"] else "counter-intuitive"

    @property
    def overall(self) -> str:
        """One line for the whole model: the counts of :meth:`counts` and the worst pair."""
        c = self.counts()
        worst = self.reports[c["worst_index"]]
        a, b = c["worst"]
        why = (f"KKT gap {worst.kkt_gap:.3g} > tol {worst.tol:g}" if not worst.is_stationary
               else f"w'Mw = {worst.wMw:.4g}")
        verdict = ("every pair is sensible" if c["sensible"] == c["pairs"] else
                   "not every pair is sensible: read the worst pair's report below")
        return (f"Overall: {c['sensible']} of {c['pairs']} one-vs-one pairs sensible, "
                f"{c['not_stationary']} not stationary, {c['counter_intuitive']} "
                f"counter-intuitive (w'Mw <= 0); worst pair {a} vs {b} ({why}); {verdict}.")

    def __str__(self) -> str:
        return self.overall + "\n\n" + "\n\n".join(f"classes {a} vs {b}\n{r}"
                                                   for (a, b), r in self)

    def _repr_html_(self) -> str:
        return f"<p>{html.escape(self.overall)}</p>" + "".join(
            f"<h3>{html.escape(str(a))} vs {html.escape(str(b))}</h3>"
            f"{r._repr_html_()}" for (a, b), r in self)

    def to_dict(self) -> dict:
        """JSON-serialisable dictionary: ``overall`` (the line), ``counts``, the pairs and
        their reports."""
        counts = self.counts()
        counts.pop("worst_index")
        return {"overall": self.overall, "verdict": self.verdict, "counts": counts,
                "pairs": [[str(a), str(b)] for a, b in self.pairs],
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
@options_checked({"tol": [NONNEG], "bias": ["boolean"]})
def second_order_check(K, y, alpha, C, b, *, tol: float = 1e-3, bias: bool = True):
    """Second-order test of a stationary point of the SVM dual (2) (or, with
    ``bias=False``, of the dual without the bias, (19): no equality constraint).

    Parameters
    ----------
    K : ndarray of shape (n, n)
        The training kernel.
    y : ndarray of shape (n,)
        +1 / -1.
    alpha : ndarray of shape (n,)
        The dual variables of the point to test.
    C : float
        Box bound of the dual.
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
    K, y, alpha, C = _dual_point(K, y, alpha, C)
    b = check_real(b, "b")
    if isinstance(tol, bool) or not isinstance(tol, numbers.Real) or not tol >= 0:
        raise ParameterError(f"must be a number >= 0; got {tol!r}.", "tol")
    return _second_order(K, y, alpha, C, b, tol=tol, bias=bias)


def _dual_point(K, y, alpha, C):
    """``(K, y, alpha, C)`` checked as a point of the SVM dual: one error naming the part."""
    from ..solvers._smo import check_bounds

    K = check_kernel_matrix(K)
    n = K.shape[0]
    y = check_binary_labels(y, n)
    C = check_bounds(C, n)
    alpha = check_vector(alpha, "alpha", n)
    if np.any(alpha < -1e-12 * C) or np.any(alpha > C * (1 + 1e-12)):
        raise ParameterError("must satisfy 0 <= alpha <= C.", "alpha")
    return K, y, alpha, C


def _second_order(K, y, alpha, C, b, *, tol, bias):
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


@options_checked({"tol": [NONNEG], "bias": ["boolean"]})
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
    K, y, alpha, C = _dual_point(K, y, alpha, C)
    n = K.shape[0]
    if np.any(np.isinf(C)):
        raise ParameterError("must be finite for the sanity report (its bounded-SV counts need "
                             "a bound); got inf.", "C")
    if b is not None:
        b = check_real(b, "b")
    if isinstance(tol, bool) or not isinstance(tol, numbers.Real) or not tol >= 0:
        raise ParameterError(f"must be a number >= 0; got {tol!r}.", "tol")
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
    # (2/s)^2 v'Kv as 4 u'Ku with u = v/s (sum |u| = 1): (2/s)^2 alone overflows where the
    # kernel's entries are huge and alpha tiny (1e300 and 1e-300 on unscaled features)
    u = v / s
    wMw = 4.0 * float(u @ K @ u)
    dec = K @ v + b
    train_error = float(np.mean(np.where(dec > 0, 1.0, -1.0) != y))
    n_bounded = int(np.count_nonzero(alpha >= C))
    c = np.where(y > 0, 1.0 / np.count_nonzero(y > 0), -1.0 / np.count_nonzero(y < 0))
    dcm = float(c @ K @ c)
    is_min, curv, n_free, n_deg = _second_order(K, y, alpha, C, b, tol=tol, bias=bias)
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


@options_checked({"tol": [NONNEG, None]})
@sized_by(1, "X")
def sanity_report(model, X, y=None, *, tol: float | None = None):
    """Sanity report of a fitted SVM of indefsvm on its training data.

    Parameters
    ----------
    model : fitted estimator
        IndefiniteSVC, IndefiniteNuSVC, IndefiniteSVR, IndefiniteNuSVR,
        IndefiniteOneClassSVM, KreinSVC, NystroemSVC, a RemedySearchCV (the model it chose and
        refitted; an error if that is k-NN, which has no dual), or a Pipeline ending in one of
        the first five (after ``DistanceKernel``, a spectrum fix, ...), reported on the kernel
        its transformers make of ``X``; a ``KreinSVC`` is reported by the SVM it trains on
        the flipped kernel ``|K|``; a ``NystroemSVC`` in feature space
        (:class:`NystroemSanityReport`). Also scikit-learn's own ``SVC`` (LIBSVM: its
        ``kernel="sigmoid"`` is indefinite), its dual read from ``dual_coef_``,
        ``support_`` and ``intercept_`` and its kernel recomputed from its parameters, which
        must give the model's own decision values on ``X`` (one fitted with
        ``sample_weight``, which SVC does not keep, is refused); and scikit-learn's
        searches (``GridSearchCV`` ...) over any of these, by the model they refitted.
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
    with bounds ``C_i / r`` (Chang & Lin 2001), checked at ``2 tol / r``: the nu-SVC stops
    when each class's own gap is at most ``tol``, which bounds the equivalent C-SVC's gap
    by ``2 tol / r``, not ``tol / r``. ``w'Mw`` is Haasdonk's (2005) convex-hull
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
    if hasattr(model, "best_method_") and hasattr(model, "comparison_"):
        # a fitted RemedySearchCV: the report of the model it chose and refitted
        if not hasattr(model, "best_estimator_"):
            raise ValueError("sanity_report of a RemedySearchCV needs its refitted model: "
                             "fit it with refit=True (the default).")
        if model.best_method_ == "k-NN":
            raise ValueError("The search chose k-NN, which has no dual problem to check: "
                             "the sanity report is for the SVM methods. Restrict the search "
                             "with methods=[...] without 'k-NN' to check an SVM.")
        return sanity_report(model.best_estimator_, X, y, tol=tol)
    if hasattr(model, "cv_results_") and hasattr(model, "estimator"):
        # scikit-learn's searches (GridSearchCV, RandomizedSearchCV, the halving ones): the
        # model they refitted on all of X, the one that predicts
        if not hasattr(model, "best_estimator_"):
            raise ValueError(f"sanity_report of a {type(model).__name__} needs its refitted "
                             "model: fit it with refit=True (the default), or pass the model "
                             "you refitted yourself.")
        return sanity_report(model.best_estimator_, X, y, tol=tol)
    if hasattr(model, "steps"):
        # a Pipeline: the kernel its SVM was trained on is what its transformers made of X;
        # they are deterministic (distance kernels, spectrum fixes), so fresh copies refitted
        # on X reproduce it (a transform of the training X would not: the shift changes the
        # training diagonal only)
        from sklearn.base import clone

        from .._tags import arrays_out

        for _, step in model.steps[:-1]:
            if step is not None and step != "passthrough":
                # arrays, whatever set_config(transform_output=...) says: the report
                # computes with them
                X = arrays_out(clone(step)).fit_transform(X, y)
        return sanity_report(model.steps[-1][1], X, y, tol=tol)
    from ._svc_dual import is_sklearn_svc, sklearn_svc_problems

    ask = getattr(model, "_dual_problems", None)
    if ask is None and is_sklearn_svc(model):
        # scikit-learn's own SVC (LIBSVM): its dual read from its public attributes
        ask = lambda X, y, tol: sklearn_svc_problems(model, X, y, tol)  # noqa: E731
    if ask is None:
        raise ValueError(f"sanity_report needs a fitted IndefiniteSVC, IndefiniteNuSVC, "
                         f"IndefiniteSVR, IndefiniteNuSVR, IndefiniteOneClassSVM, KreinSVC, "
                         f"NystroemSVC, "
                         f"RemedySearchCV, scikit-learn's SVC or a "
                         f"Pipeline ending in one of them; got {type(model).__name__}.")
    # the model hands over its dual problems; everything else is recomputed here
    dp = ask(X, y, tol)
    if dp.kind == "features":
        return feature_report(dp)
    if dp.kind in ("svr", "one-class"):
        (p,) = dp.problems
        kind = ("one-class SVM" if dp.kind == "one-class"
                else "nu-SVR" if "nu" in dp.info else "epsilon-SVR")
        return _dual_report(kind, dp.K, p["y"], p["p"], p["C"], p["alpha"], p["coef"],
                            p["b"], p["outside_ratio"], dp.tol, epsilon=dp.info.get("nu"))
    reports = [sanity_report_from_alpha(dp.K[np.ix_(p["idx"], p["idx"])], p["y"], p["alpha"],
                                        p["C"], b=p["b"], tol=p["tol"], bias=dp.bias)
               for p in dp.problems]
    if len(reports) == 1:
        return reports[0]
    return PairwiseSanityReport(pairs=[p["classes"] for p in dp.problems], reports=reports)
