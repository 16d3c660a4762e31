"""The sanity report of a linear SVM on explicit features -- :class:`~indefsvm.NystroemSVC`
on its Krein-space Nystroem features -- recomputed in feature space without any ``n x n``
matrix."""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np

from ._render import render_html, render_text, verdict_row


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
        ``feasibility``, ``objective``, ``wMw``, ``wMw_relative`` (``w'Sw / w'w`` in
        [-1, 1]: the scale on which ``wMw`` is read; within ``RELATIVE_ZERO`` of 0 the sign
        is not told), ``negative_share`` (the negative features' share of ``|w|^2``),
        ``margin`` (``2 / sqrt(wMw)`` or None),
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
        rows = [verdict_row(self.verdict),
                ("remedy", self.remedy),
                ("landmarks / features", f"{self.n_landmarks} / {self.n_features} "
                 f"({self.n_positive} positive, {self.n_negative} negative)"),
                ("stationary (tol)", f"{self.is_stationary} ({self.tol:g})")]
        for p in self.problems:
            head = "" if len(self.problems) == 1 else f"{p['classes'][0]} vs {p['classes'][1]}: "
            rows += [
                (f"{head}KKT gap / |y'alpha|", f"{p['kkt_gap']:.3g} / {p['feasibility']:.3g}"),
                (f"{head}w'Mw (original kernel)",
                 f"{p['wMw']:.4g}; w'Sw / w'w = {p['wMw_relative']:+.3f} (negative features "
                 f"hold {p['negative_share']:.1%} of |w|^2): {_reading(p)}"),
                (f"{head}bounded SVs", f"{p['n_bounded']} of {p['n']} "
                 f"({p['bounded_ratio']:.2%}); {p['n_sv']} SVs"),
                (f"{head}training error", f"{p['train_error']:.2%}"),
            ]
        return rows

    @property
    def verdict(self) -> str:
        """``"not stationary"`` (a problem's KKT gap or ``|y'alpha|`` above ``tol``),
        ``"counter-intuitive"`` (a problem's ``w'Mw`` of the original kernel below 0),
        ``"undecided"`` (a sign not told: ``|w'Sw| / w'w`` within ``RELATIVE_ZERO`` of 0)
        or ``"sensible"``, as :attr:`SanityReport.verdict` reads an exact-kernel model."""
        if not self.is_stationary:
            return "not stationary"
        readings = {_reading(p) for p in self.problems}
        if "counter-intuitive" in readings:
            return "counter-intuitive"
        return "sensible" if readings <= {"sensible"} else "undecided"

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
                                             "is_stationary", "notes", "verdict")}
        out["problems"] = [{**p, "classes": [str(c) for c in p["classes"]]}
                           for p in self.problems]
        return out


#: |w'Sw| / w'w below this: w'Mw is 0 at the precision of the float32 features, its sign
#: says nothing. (The absolute w'Mw, scaled by (2 / sum alpha)^2, is no guide: -7e-06 for a
#: model whose w'Sw / w'w is -0.117, its negative features holding 56 % of |w|^2.)
RELATIVE_ZERO = 1e-4


def _reading(p) -> str:
    rel = p["wMw_relative"]
    if abs(rel) <= RELATIVE_ZERO:
        return "about 0, the sign not told"
    return "sensible" if rel > 0 else "counter-intuitive"


def _row_blocks(n: int, d: int, block_bytes: int = 8 * 2**20):
    """Slices of ``n`` rows whose float64 copy of ``d`` columns stays near 8 MB (with its
    float32 gather and the two class masks' copies, ~20 MB beside the features: the fit
    itself holds the features and tiles of 256 rows)."""
    step = max(1024, block_bytes // (8 * max(d, 1)))
    return [slice(lo, min(n, lo + step)) for lo in range(0, n, step)]


def feature_report(dp) -> NystroemSanityReport:
    """The NystroemSanityReport of the problems a fitted NystroemSVC hands over
    (``model._dual_problems``): everything recomputed in float64 from the features."""
    from .._solvers._linsvm import kkt_gap, row_products

    info = dp.info
    Z, S, tol = info["Z"], info["S"], dp.tol
    problems = []
    for p in dp.problems:
        rows, yy, alpha, C = p["rows"], p["y"], p["alpha"], p["C"]
        # the features exactly as fit computed them (float32), every sum in float64, a block
        # of rows at a time: the report holds no float64 copy of the features (at 10^6 rows
        # that copy made its peak 3 times the fit's)
        ay = alpha * yy
        w = np.zeros(Z.shape[1])
        sum_pos, sum_neg = np.zeros(Z.shape[1]), np.zeros(Z.shape[1])
        for sl in _row_blocks(rows.shape[0], Z.shape[1]):
            Zb = Z[rows[sl]].astype(np.float64)
            w += Zb.T @ ay[sl]
            sum_pos += Zb[yy[sl] > 0].sum(axis=0)
            sum_neg += Zb[yy[sl] < 0].sum(axis=0)
        # f = Z[rows] w in float64 by the compiled row products (no copy of the rows)
        f = row_products(Z, np.ascontiguousarray(rows, dtype=np.intp), w, 1)
        gap, bias = kkt_gap(f, yy, alpha, C)
        feas = abs(float(alpha @ yy))
        stored = p["coef"]
        coef_error = float(np.abs(w - stored).max() / max(np.abs(w).max(), 1e-300))
        s_alpha = float(alpha.sum())
        wSw = float(w @ (S * w))
        ww = float(w @ w)
        ws = w / s_alpha if s_alpha > 0 else w  # as in sanity_report: no (2/s)^2 to overflow
        wMw = 4.0 * float(ws @ (S * ws)) if s_alpha > 0 else 0.0
        # the scale that makes w'Mw readable: w'Sw / w'w lies in [-1, 1] (S = diag(+-1)),
        # the positive features' share of |w|^2 minus the negative features'
        rel = wSw / ww if ww > 0 else 0.0
        neg_share = float(w[S < 0] @ w[S < 0]) / ww if ww > 0 else 0.0
        d = sum_pos / max(np.count_nonzero(yy > 0), 1) - sum_neg / max(
            np.count_nonzero(yy < 0), 1)
        n_bounded = int(np.count_nonzero(alpha >= C))
        problems.append({
            "classes": p["classes"], "n": int(rows.shape[0]),
            "n_sv": int(np.count_nonzero(alpha > 0)), "n_bounded": n_bounded,
            "bounded_ratio": n_bounded / rows.shape[0],
            "train_error": float(np.mean(np.sign(f + bias) != yy)),
            "kkt_gap": float(gap), "feasibility": feas,
            "objective": 0.5 * ww - s_alpha, "wMw": wMw, "wMw_relative": rel,
            "negative_share": neg_share,
            "margin": 2.0 / np.sqrt(wMw) if wMw > 0 else None,
            "class_mean_sqdist": float(d @ (S * d)), "coef_error": coef_error})
    cmax = [float(np.max(p["C"])) if len(p["C"]) else 0.0 for p in dp.problems]
    stationary = all(p["kkt_gap"] <= tol and p["feasibility"] <= tol * c
                     for p, c in zip(problems, cmax, strict=True))
    rep = NystroemSanityReport(
        remedy=info["remedy"], n_landmarks=info["n_landmarks"], n_features=info["n_features"],
        n_positive=info["n_positive"], n_negative=info["n_negative"], tol=float(tol),
        is_stationary=stationary, problems=problems)
    rep.notes = _nystroem_notes(rep, info["converged"])
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
    zero = [p for p in r.problems if abs(p["wMw_relative"]) <= RELATIVE_ZERO]
    bad = [p for p in r.problems if p["wMw_relative"] < -RELATIVE_ZERO]
    trained = "positive part" if r.remedy == "clip" else "flipped kernel"
    if bad:
        worst = min(bad, key=lambda p: p["wMw_relative"])
        notes.append(
            f"w'Mw < 0 in {len(bad)} of {len(r.problems)} problem(s) (w'Sw / w'w as low as "
            f"{worst['wMw_relative']:+.3f}: the negative features hold "
            f"{worst['negative_share']:.1%} of w's squared length): read in the geometry of "
            "the indefinite kernel the solution is a counter-intuitive convex-hull "
            "classifier (Haasdonk 2005, §7.4), although the SVM trained on the "
            f"{trained} is convex. That does not make its predictions wrong (training error "
            f"{worst['train_error']:.2%}; check the test error). If you want the convex-hull "
            "reading to hold, try a smaller C (w'Mw > 0 is possible while the class-mean "
            "distance is > 0) or remedy='clip', which trains on the positive part only.")
    if zero:
        notes.append(
            f"w'Mw is 0 within {RELATIVE_ZERO:g} of w'w in {len(zero)} of {len(r.problems)} "
            "problem(s): the positive and negative features carry w equally, and its sign is "
            "not determined at the precision of the features (float32) -- neither sensible "
            "nor counter-intuitive.")
    if not bad and not zero:
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


