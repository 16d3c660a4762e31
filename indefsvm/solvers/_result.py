"""The result every solver returns."""

from __future__ import annotations

import html
from dataclasses import dataclass, field

import numpy as np

STATUS_TEXT = {
    0: "converged",
    1: "max_iter reached",
    4: "stalled: tol below what float64 reaches on this problem",
}


@dataclass
class SolverResult:
    """Outcome of one solver run on a binary problem.

    Attributes
    ----------
    alpha : ndarray of shape (n_samples,)
        Dual variables in the order of the input samples.
    b : float
        Bias of the decision function ``f(x) = sum_i alpha_i y_i k(x_i, x) + b``.
    objective : float
        ``F(alpha) = 1/2 alpha'Q alpha - e'alpha`` (``+ p'alpha`` in LIBSVM's general form)
        at the returned point, from the gradient the run keeps: SMO brings it up to date
        over every sample at the end, from float64 kernel columns where it stored them in
        float32. Its rounding is about ``n eps max|Q_ij| C^2`` -- relative to the size of
        the objective's terms, not to its value: where large terms cancel (kernel entries
        of 1e150 with C = 0.1, a value of -0.2) the figure says no more than that.
    n_iter : int
        Iterations (two-variable updates for SMO) of the returned run.
    converged : bool
        The stopping rule held at the returned point (for SMO: ``kkt_gap <= tol``).
    kkt_gap : float
        ``m(alpha) - M(alpha)`` (Lin & Lin 2003, (21)); ``<= 0`` at an exact stationary point.
    history : ndarray of shape (n_records, 2)
        ``(iteration, objective)`` samples taken during the run, from the same running
        gradient (non-increasing for SMO, up to the rounding above); the last row is the
        returned point.
    status : str
        ``"converged"``, ``"max_iter reached"``, or what else stopped the run short:
        ``"stalled"`` (SMO: ``"stalled: tol below what float64 reaches on this problem"``),
        ``"unbounded"`` (MUNK, M3 and the Kernel-Adatron).
    solver : str
        Name of the algorithm.
    tol : float
        Tolerance the run was asked for.
    C : float or ndarray of shape (n_samples,)
        Upper bound of the box: one for all variables, or ``C_i`` per variable (class and
        sample weights).
    n_concave_steps : int
        Sub-problems met with ``K_ii + K_jj - 2 K_ij <= 0`` and solved by the step to the bound
        (rule (27)); 0 on a PSD kernel.
    restart_objectives : list of float
        Objective reached from each start (the first is ``init``); the lowest is returned.
    extra : dict
        Solver-specific counters (kernel evaluations, cache hits, ...).

    Examples
    --------
    >>> import numpy as np
    >>> from indefsvm.solvers import smo
    >>> res = smo(np.eye(4), [1, 1, -1, -1], C=1.0)
    >>> res.n_sv, res.converged, res.to_dict()["status"]
    (4, True, 'converged')
    """

    alpha: np.ndarray
    b: float
    objective: float
    n_iter: int
    converged: bool
    kkt_gap: float
    history: np.ndarray
    status: str
    solver: str = "smo"
    tol: float = 1e-3
    C: float | np.ndarray = 1.0
    n_concave_steps: int = 0
    restart_objectives: list = field(default_factory=list)
    extra: dict = field(default_factory=dict)

    @property
    def n_sv(self) -> int:
        """Number of support vectors (alpha > 0)."""
        return int(np.count_nonzero(self.alpha > 0))

    @property
    def n_bounded(self) -> int:
        """Number of bounded support vectors (alpha = C)."""
        return int(np.count_nonzero(self.alpha >= self.C))

    def _c_text(self) -> str:
        if np.ndim(self.C) == 0:
            return f"C = {float(self.C):g}"
        return "their bound C_i"

    def __str__(self) -> str:
        lines = [
            f"{self.solver} result: {self.status} after {self.n_iter} iterations",
            f"  objective F(alpha)   {self.objective:.10g}",
            f"  KKT gap m - M        {self.kkt_gap:.3g} (tol {self.tol:g})",
            f"  bias b               {self.b:.6g}",
            f"  support vectors      {self.n_sv} ({self.n_bounded} at {self._c_text()})",
            f"  concave sub-problems {self.n_concave_steps}",
        ]
        if len(self.restart_objectives) > 1:
            objs = ", ".join(f"{o:.6g}" for o in self.restart_objectives)
            lines.append(f"  starts' objectives   {objs}")
        return "\n".join(lines)

    def _repr_html_(self) -> str:
        # a notebook's view: the text, escaped, its lines kept
        return f"<pre>{html.escape(str(self))}</pre>"

    def to_dict(self) -> dict:
        """JSON-serialisable dictionary of the result."""
        return {
            "solver": self.solver,
            "status": self.status,
            "converged": bool(self.converged),
            "objective": float(self.objective),
            "kkt_gap": float(self.kkt_gap),
            "b": float(self.b),
            "n_iter": int(self.n_iter),
            "tol": float(self.tol),
            "C": float(self.C) if np.ndim(self.C) == 0 else np.asarray(self.C).tolist(),
            "n_sv": self.n_sv,
            "n_bounded": self.n_bounded,
            "n_concave_steps": int(self.n_concave_steps),
            "restart_objectives": [float(o) for o in self.restart_objectives],
            "alpha": self.alpha.tolist(),
            "history": self.history.tolist(),
            "extra": {k: (v.tolist() if isinstance(v, np.ndarray) else v)
                      for k, v in self.extra.items()},
        }
