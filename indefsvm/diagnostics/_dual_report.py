"""The sanity report of the general dual (LIBSVM's form) that epsilon-SVR and the one-class SVM
solve (and nu-SVR, read as epsilon-SVR at the width it found): ``min 1/2 a'Qa + p'a``,
``y'a`` fixed, ``0 <= a_i <= C_i``, read from the training kernel independently of the
solver."""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np
import scipy.linalg as sla

from ._render import render_html, render_text, verdict_row

#: what a report says of the second-order test at a point that is not stationary
_NOT_STATIONARY_NOTE = ("Second-order test not applied: it characterises stationary points, "
                        "and this is not one (a first-order step still lowers F).")


@dataclass
class DualSanityReport:
    """Is a trained epsilon-SVR, nu-SVR or one-class SVM a stationary, sensible solution?

    The general dual ``min 1/2 a'Qa + p'a``, ``y'a`` fixed, ``0 <= a_i <= C_i``, read from the
    training kernel independently of the solver.

    Attributes
    ----------
    model : str
        ``"epsilon-SVR"``, ``"nu-SVR"`` (read as the epsilon-SVR dual at the tube width it
        found, stationary by ``2 tol``: see the notes) or ``"one-class SVM"``.
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
        outside = ("training outliers" if self.model == "one-class SVM"
                   else "outside the epsilon-tube")
        return [
            verdict_row(self.verdict),
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

    @property
    def verdict(self) -> str:
        """``"sensible"`` (stationary and ``w'Mw > 0``), ``"not stationary"`` (KKT gap above
        ``tol``) or ``"counter-intuitive"`` (stationary with ``w'Mw <= 0``: see
        ``wMw_meaning``), as :attr:`SanityReport.verdict` reads a classifier."""
        if not self.is_stationary:
            return "not stationary"
        return "sensible" if self.wMw > 0 else "counter-intuitive"

    def __str__(self) -> str:
        return render_text("Sanity report", self._rows(), self.notes)

    def _repr_html_(self) -> str:
        return render_html("Sanity report", self._rows(), self.notes)

    def to_dict(self) -> dict:
        """JSON-serialisable dictionary."""
        return {k: getattr(self, k) for k in (
            "model", "n", "objective", "kkt_gap", "tol", "is_stationary", "n_sv", "n_bounded",
            "bounded_ratio", "outside_ratio", "wMw", "wMw_meaning", "is_local_min",
            "min_curvature", "n_free", "notes", "verdict")}


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


def _dual_report(kind, K, y2, p, C2, alpha2, coef, b, outside_ratio, tol, epsilon=None):
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
    if kind in ("epsilon-SVR", "nu-SVR"):
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
    if kind == "nu-SVR":
        notes.append(f"nu-SVR, read as the epsilon-SVR dual at the tube width it found, "
                     f"epsilon = {epsilon:.4g} (Chang & Lin 2002), with the objective of that "
                     f"dual; stationarity by 2 tol = {tol:g}, since the nu-SVR stops when each "
                     "of its two sums has its own gap <= tol.")
    if rep.is_stationary:
        notes.append(f"Stationary point: KKT gap m - M = {gap:.3g} <= tol = {tol:g}.")
    else:
        notes.append(f"Not a stationary point: KKT gap m - M = {gap:.3g} > tol = {tol:g}; the "
                     "solver stopped early. Raise max_iter before reading on.")
    what = "outside the tube" if kind in ("epsilon-SVR", "nu-SVR") else "training outliers"
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


