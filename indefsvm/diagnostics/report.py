"""``KernelReport``: the result of :func:`indefsvm.check_kernel`, for people and machines."""

from __future__ import annotations

from dataclasses import dataclass, field

from ..exceptions import ParameterError
from ._render import render_html, render_text
from .eta import EtaScan
from .spectrum import CPDResult, Signature, Spectrum

__all__ = ["UNSUITABLE", "DistanceReport", "KernelReport", "pct", "small_c_verdict"]


def pct(x: float) -> str:
    """A fraction as a percentage with three significant digits (0.000138 -> '0.0138 %'),
    so that a small but non-zero share never reads as 0.000 %."""
    if x == 0:
        return "0 %"
    return f"{100 * x:.3g} %"


#: the verdict of a kernel no SVM on it should be trained on as it is (negated CPD, class
#: means at a distance <= 0, w'Mw <= 0 at every C tried): a remedy is the next step
UNSUITABLE = "unsuitable as it stands: use a remedy"


def small_c_verdict(c: float) -> str:
    """The verdict of a kernel whose SVM has ``w'Mw > 0`` only at ``C <= c < 1``."""
    return f"usable with a small C only (C <= {c:g}), or after a remedy"


@dataclass
class KernelReport:
    """Suitability of a kernel matrix for an SVM, before training.

    Attributes
    ----------
    n : int
        Number of samples.
    verdict : str
        ``"PSD"``, ``"CPD"``, ``"slightly indefinite, usable with care"``, ``"moderately
        indefinite, usable with care"``, ``"strongly indefinite: train with care and compare a
        remedy"``, ``"usable with a small C only (C <= c), or after a remedy"`` (the SVM's
        ``w'Mw > 0`` at ``C <= c`` only, every ``C >= 1`` tried giving ``w'Mw <= 0``) or
        ``"unsuitable as it stands: use a remedy"`` (negated CPD, a class-mean squared
        distance <= 0 for the labels or a pair of classes, or ``w'Mw <= 0`` at every ``C``
        tried). Each names the next step; the last note says it in full.
    is_psd, is_cpd, is_cpsd : bool or None
        Tests on ``K`` and on ``K`` restricted to the complement of ``e``; None when a
        matrix-free estimate cannot decide at its accuracy (the verdict then says
        "undecided at this accuracy").
    negated_cpd : bool
        ``-K`` is conditionally positive (semi-)definite and ``K`` is not zero on the
        complement of ``e``: every solution has ``w'Mw <= 0``, whatever the data
        (Haasdonk 2005, §7.3).
    lam_min, lam_max : float
        Extreme eigenvalues of ``K``.
    spectrum : Spectrum
    cpd : CPDResult
    signature : Signature
    eta : EtaScan
    class_mean_sqdist : float or None
        ``c'Kc`` (labels needed).
    n_negative_diagonal : int
        Entries ``K_ii < 0``.
    sigmoid : SigmoidRegion or None
        For the sigmoid kernel given with ``X``.
    kernel : dict or None
        Kernel name and parameters when the report built ``K``.
    mass_thresholds : tuple
        Negative-mass bounds of "slightly" and "strongly" indefinite.
    wmw_by_C : dict or None
        ``{C: w'Mw}`` of the SVM trained at each ``C`` (two-class labels, indefinite ``K``).
    pairs : list of dict or None
        With labels of more than two classes: per pair of classes, ``classes``,
        ``class_mean_sqdist`` and ``n_cross_nonpositive``.
    nystroem_landmarks : int or None
        The number of eigen-directions of ``K`` on the complement of ``e`` (largest
        ``|lambda|`` first; the spectrum of the negative mass) that hold 90 % of its
        negative mass: a Nystroem approximation (:class:`~indefsvm.KreinNystroem`,
        :class:`~indefsvm.NystroemSVC`) needs at least that many landmarks to see the
        negative part. From every eigenvalue (dense) or from the Lanczos quadrature of the
        matrix-free methods (an estimate); None when ``K`` has no negative part or the
        method gives no spectrum (``"ldl"``).
    notes : list of str
        Numbered notes in plain words.

    Examples
    --------
    >>> import numpy as np
    >>> import indefsvm as isvm
    >>> rep = isvm.check_kernel(-np.eye(3) + 0.1)
    >>> rep.verdict, rep.negated_cpd, sorted(rep.to_dict())[:3]
    ('unsuitable as it stands: use a remedy', True, ['class_mean_sqdist', 'cpd', 'estimated'])
    """

    n: int
    verdict: str
    is_psd: bool | None
    is_cpd: bool | None
    is_cpsd: bool | None
    negated_cpd: bool
    lam_min: float
    lam_max: float
    spectrum: Spectrum
    cpd: CPDResult
    signature: Signature
    eta: EtaScan
    class_mean_sqdist: float | None
    n_negative_diagonal: int
    sigmoid: object | None
    kernel: dict | None
    mass_thresholds: tuple
    notes: list = field(default_factory=list)
    pairs: list | None = None
    wmw_by_C: dict | None = None
    nystroem_landmarks: int | None = None
    #: how the command line names this data (file, labels, kernel options), for the commands
    #: the notes print (set by ``indefsvm check``); None: they say FILE
    data_args: str | None = None

    def _rows(self):
        sig = self.signature
        mass = "n/a" if sig.negative_mass is None else pct(sig.negative_mass)
        iv = self.spectrum.intervals
        lam = f"{self.lam_min:.4g} / {self.lam_max:.4g}"
        sig_txt = f"({sig.p}, {sig.q}, {sig.z})"
        if iv:
            # estimates: "~value [low, high]"
            lam = (f"~{self.lam_min:.4g} [{iv['lam_min'][0]:.4g}, {iv['lam_min'][1]:.4g}] / "
                   f"~{self.lam_max:.4g} [{iv['lam_max'][0]:.4g}, {iv['lam_max'][1]:.4g}]")
            sig_txt = (f"(~{sig.p} [{sig.intervals['p'][0]}, {sig.intervals['p'][1]}], "
                       f"~{sig.q} [{sig.intervals['q'][0]}, {sig.intervals['q'][1]}], ~{sig.z})")
            lo, hi = sig.intervals["negative_mass"]
            mass = f"~{mass} [{pct(lo)}, {pct(hi)}]"
        rows = [
            ("verdict", self.verdict),
            ("samples", str(self.n)),
            ("lambda_min / lambda_max", lam),
            ("PSD / CPD / CPSD", " / ".join("undecided" if v is None else str(v) for v in
                                            (self.is_psd, self.is_cpd, self.is_cpsd))),
            ("CPD certificate Delta", "none" if self.cpd.delta is None
             else f"{self.cpd.delta:.4g}"),
            ("signature (p, q, z)", sig_txt),
            ("negative mass (centred kernel)", mass),
            ("negated CPD", str(self.negated_cpd)),
            ("eta < 0 pairs", f"{self.eta.n_negative} of {self.eta.n_pairs}"),
        ]
        if self.eta.n_cross_nonpositive is not None:
            rows.append(("opposite-label eta <= 0", str(self.eta.n_cross_nonpositive)))
        if self.class_mean_sqdist is not None:
            rows.append(("class-mean sq. distance c'Kc", f"{self.class_mean_sqdist:.4g}"))
        if self.wmw_by_C:
            rows.append(("w'Mw of the SVM by C", ", ".join(
                f"C={c:g}: {v:.3g}" for c, v in self.wmw_by_C.items())))
        for p in self.pairs or []:
            a, b = p["classes"]
            rows.append((f"classes {a} vs {b}: c'Kc / opposite eta <= 0",
                         f"{p['class_mean_sqdist']:.4g} / {p['n_cross_nonpositive']}"))
        rows.append(("K_ii < 0 entries", str(self.n_negative_diagonal)))
        if self.nystroem_landmarks is not None:
            rows.append(("Nystroem landmarks, negative part", ("~" if iv else "")
                         + f">= {self.nystroem_landmarks}"))
        if self.sigmoid is not None:
            rows.append(("sigmoid case (Lin & Lin)", str(self.sigmoid.case)))
            if self.sigmoid.saturated_high is not None:
                rows.append(("tanh saturated at +1 / -1", f"{pct(self.sigmoid.saturated_high)}"
                             f" / {pct(self.sigmoid.saturated_low)} of the pairs"
                             + (" (sampled)" if self.sigmoid.saturation_rows else "")))
        rows.append(("method", self.spectrum.method + (
            " (figures with ~ are estimates, [interval])" if iv else "")))
        return rows

    def __str__(self) -> str:
        head = "Kernel check"
        if self.kernel:
            head += " (" + ", ".join(f"{k}={v}" for k, v in self.kernel.items()) + ")"
        return render_text(head, self._rows(), self.notes)

    def _repr_html_(self) -> str:
        return render_html(f"Kernel check: {self.verdict}", self._rows(), self.notes)

    def to_dict(self) -> dict:
        """JSON-serialisable dictionary (numbers, verdict and notes)."""
        return {
            "n": self.n, "verdict": self.verdict, "is_psd": self.is_psd, "is_cpd": self.is_cpd,
            "is_cpsd": self.is_cpsd, "negated_cpd": self.negated_cpd,
            "lam_min": self.lam_min, "lam_max": self.lam_max,
            **{f"{k}_interval": list(self.spectrum.intervals[k])
               for k in ("lam_min", "lam_max") if k in self.spectrum.intervals},
            "method": self.spectrum.method, "estimated": self.spectrum.estimated,
            "spectrum": self.spectrum.to_dict(), "cpd": self.cpd.to_dict(),
            "signature": self.signature.to_dict(), "eta": self.eta.to_dict(),
            "class_mean_sqdist": self.class_mean_sqdist,
            "n_negative_diagonal": self.n_negative_diagonal,
            "sigmoid": None if self.sigmoid is None else self.sigmoid.to_dict(),
            "pairs": None if self.pairs is None else [dict(p) for p in self.pairs],
            "wmw_by_C": None if self.wmw_by_C is None else {
                str(c): v for c, v in self.wmw_by_C.items()},
            "kernel": None if self.kernel is None else {
                k: (v if isinstance(v, (int, float, str, bool)) or v is None else str(v))
                for k, v in self.kernel.items()},
            "nystroem_landmarks": self.nystroem_landmarks,
            "notes": list(self.notes),
        }


@dataclass
class DistanceReport:
    """What a distance matrix is, before a kernel is made of it: the result of
    :func:`indefsvm.diagnostics.check_distances`.

    Attributes
    ----------
    n : int
        Number of objects.
    verdict : str
        ``"Euclidean"``, ``"slightly non-Euclidean"``, ``"moderately non-Euclidean"``,
        ``"strongly non-Euclidean"`` (graded by the negative mass of ``-1/2 J D^2 J`` with the
        thresholds of :func:`~indefsvm.check_kernel`), or ``"not a distance matrix"``
        (asymmetric, negative entries or a non-zero diagonal).
    symmetric, zero_diagonal, nonnegative : bool
        The three axioms that can be read off the matrix (tolerance ``1e-10 * max D``).
    max_asymmetry, max_diagonal : float
        ``max |D - D'|`` and ``max |D_ii|``.
    n_negative : int
        Entries ``< 0``.
    triangle_violations : float
        Share of the inequalities ``d_ij <= d_ik + d_kj`` (``i < j``, ``k`` not ``i, j``) that
        fail by more than ``1e-12 * max D``: 0 for a metric.
    triangle_interval : list or None
        95 % Wilson interval of that share when it was estimated from a random sample of
        triples (``None``: counted over every triple).
    n_triangles : int
        Inequalities counted (all, or the sample).
    worst_triangle : float
        ``max (d_ij - d_ik - d_kj) / max D`` (0 when none fails).
    euclidean : bool or None
        Schoenberg's test: ``-1/2 J D^2 J`` has no eigenvalue below the zero threshold, so
        the objects embed in a Euclidean space with these distances and ``exp(-gamma d^2)``
        is PSD for every ``gamma``. ``None``: a Euclidean sample of the objects, undecided
        for all of them.
    signature : Signature
        Inertia ``(p, q, z)``, negative mass and ratio of ``-1/2 J D^2 J``.
    negative_mass : float
        ``signature.negative_mass``.
    gamma_median : float
        The median rule ``1 / median(d^2)`` (what :class:`~indefsvm.DistanceKernel` uses).
    gamma_profile : list of (float, float)
        ``(gamma, negative mass of the centred exp(-gamma D^2))`` over the grid.
    negligible : float
        The negative mass counted as negligible.
    gamma_negligible_below, gamma_negligible_above : float or None
        The largest grid gamma up to which (the smallest from which) every grid point has a
        negative mass ``<= negligible``; ``None`` when there is none.
    class_mean_sqdist : float or None
        With two classes: the squared distance of the class means in the embedding,
        ``mean_{+-} d^2 - (mean_{++} d^2 + mean_{--} d^2) / 2`` (``c'(-1/2 D^2)c``).
    pairs : list of dict or None
        With more classes: ``classes`` and ``class_mean_sqdist`` per pair.
    notes : list of str

    Examples
    --------
    >>> import numpy as np
    >>> from indefsvm.diagnostics import check_distances
    >>> D = np.array([[0.0, 1.0, 3.0], [1.0, 0.0, 1.0], [3.0, 1.0, 0.0]])
    >>> rep = check_distances(D)  # d_02 = 3 > d_01 + d_12: not a metric, not Euclidean
    >>> rep.verdict, rep.euclidean, round(rep.triangle_violations, 3)
    ('strongly non-Euclidean', False, 0.333)
    >>> sorted(rep.to_dict())[:3]
    ['class_mean_sqdist', 'euclidean', 'gamma_median']
    """

    n: int
    verdict: str
    symmetric: bool
    zero_diagonal: bool
    nonnegative: bool
    max_asymmetry: float
    max_diagonal: float
    n_negative: int
    triangle_violations: float
    triangle_interval: list | None
    n_triangles: int
    worst_triangle: float
    euclidean: bool
    signature: Signature
    gamma_median: float | None
    gamma_profile: list
    negligible: float
    gamma_negligible_below: float | None
    gamma_negligible_above: float | None
    class_mean_sqdist: float | None = None
    pairs: list | None = None
    notes: list = field(default_factory=list)
    #: check_distances(X=objects, metric=...): the objects sampled (None: every one), the
    #: negative mass on four random halves of the sample, the metric, and the landmarks the
    #: negative part of exp(-gamma d^2) at the median gamma needs
    n_sample: int | None = None
    negative_mass_halves: list | None = None
    metric: str | None = None
    nystroem_landmarks: int | None = None
    #: the metric's parameters (e.g. DTW's window), repeated in the commands the notes print
    metric_params: dict | None = None
    #: how the command line names this data (set by ``indefsvm check``); None: FILE
    data_args: str | None = None
    #: DTW on series: their levels and scales (``level_spread``, the standard deviation of
    #: the series' means; ``scale_median``, ``scale_low`` / ``scale_high``, the median and
    #: the 10th / 90th percentiles of their standard deviations), which DTW compares with
    #: their shapes; None for other objects
    series_levels: dict | None = None

    @property
    def negative_mass(self) -> float:
        """The share of the eigenvalues' absolute sum that is negative (the signature's)."""
        return self.signature.negative_mass

    def _rows(self):
        sig = self.signature
        tri = pct(self.triangle_violations)
        if self.triangle_interval is not None:
            tri = (f"~{tri} [{pct(self.triangle_interval[0])}, "
                   f"{pct(self.triangle_interval[1])}] ({self.n_triangles} sampled)")
        else:
            tri += f" of {self.n_triangles}"
        rows = [
            ("verdict", self.verdict),
            ("objects", str(self.n) + ("" if self.n_sample is None else
                                       f" ({self.n_sample} sampled: the figures below are "
                                       "of the sample)")),
            ("symmetric / zero diagonal / >= 0",
             f"{self.symmetric} / {self.zero_diagonal} / {self.nonnegative}"),
            ("triangle inequality violated", tri),
            ("Euclidean (Schoenberg)", "undecided (the sample is)" if self.euclidean is None
             else str(self.euclidean)),
            ("signature of -1/2 J D^2 J", f"({sig.p}, {sig.q}, {sig.z})"),
            ("negative mass", pct(sig.negative_mass) + (
                "" if not self.negative_mass_halves else
                f" (on 4 random halves of the sample {pct(min(self.negative_mass_halves))} "
                f"to {pct(max(self.negative_mass_halves))})")),
        ]
        if self.nystroem_landmarks is not None:
            rows.append(("Nystroem landmarks, negative part", f">= {self.nystroem_landmarks}"))
        if self.gamma_median is not None:
            rows.append(("median-rule gamma", f"{self.gamma_median:.4g}"))
        if self.gamma_profile:
            at = _profile_at(self.gamma_profile, self.gamma_median)
            rows.append(("neg. mass of exp(-gamma D^2)", ", ".join(
                f"{g:.3g}: {pct(m)}" for g, m in self.gamma_profile[::3])))
            if at is not None:
                rows.append(("  at the median-rule gamma", pct(at)))
            rows.append((f"  <= {pct(self.negligible)} for gamma", _negligible_text(self)))
        if self.class_mean_sqdist is not None:
            rows.append(("class-mean sq. distance", f"{self.class_mean_sqdist:.4g}"))
        for p in self.pairs or []:
            a, b = p["classes"]
            rows.append((f"classes {a} vs {b}: class-mean sq. distance",
                         f"{p['class_mean_sqdist']:.4g}"))
        return rows

    def __str__(self) -> str:
        return render_text("Distance check", self._rows(), self.notes)

    def _repr_html_(self) -> str:
        return render_html(f"Distance check: {self.verdict}", self._rows(), self.notes)

    def to_dict(self) -> dict:
        """JSON-serialisable dictionary (numbers, verdict and notes)."""
        return {
            "n": self.n, "verdict": self.verdict, "symmetric": self.symmetric,
            "zero_diagonal": self.zero_diagonal, "nonnegative": self.nonnegative,
            "max_asymmetry": self.max_asymmetry, "max_diagonal": self.max_diagonal,
            "n_negative": self.n_negative, "triangle_violations": self.triangle_violations,
            "triangle_interval": self.triangle_interval, "n_triangles": self.n_triangles,
            "worst_triangle": self.worst_triangle, "euclidean": self.euclidean,
            "negative_mass": self.negative_mass, "signature": self.signature.to_dict(),
            "gamma_median": self.gamma_median,
            "gamma_profile": [[g, m] for g, m in self.gamma_profile],
            "negligible": self.negligible,
            "gamma_negligible_below": self.gamma_negligible_below,
            "gamma_negligible_above": self.gamma_negligible_above,
            "class_mean_sqdist": self.class_mean_sqdist,
            "pairs": None if self.pairs is None else [dict(p) for p in self.pairs],
            "n_sample": self.n_sample, "negative_mass_halves": self.negative_mass_halves,
            "metric": self.metric, "metric_params": self.metric_params,
            "nystroem_landmarks": self.nystroem_landmarks,
            "series_levels": self.series_levels,
            "notes": list(self.notes),
        }


def _profile_at(profile, gamma):
    for g, m in profile:
        if gamma is not None and abs(g - gamma) <= 1e-12 * gamma:
            return m
    return None


def _negligible_text(r: DistanceReport) -> str:
    lo, hi = r.gamma_negligible_below, r.gamma_negligible_above
    if lo is not None and hi is not None and hi <= lo:
        return "every gamma of the grid"
    parts = []
    if lo is not None:
        parts.append(f"gamma <= {lo:.3g}")
    if hi is not None:
        parts.append(f"gamma >= {hi:.3g}")
    return " and ".join(parts) if parts else "no gamma of the grid"


def _check_thresholds(mass_thresholds):
    """(low, high) of ``mass_thresholds``: two numbers, 0 <= low <= high <= 1."""
    try:
        lo, hi = (float(v) for v in mass_thresholds)
    except (TypeError, ValueError):
        raise ParameterError("must be two numbers (low, high); got "
                             f"{mass_thresholds!r}.", "mass_thresholds") from None
    if not 0.0 <= lo <= hi <= 1.0:
        raise ParameterError(f"must satisfy 0 <= low <= high <= 1; got "
                             f"{mass_thresholds!r}.", "mass_thresholds")
    return lo, hi
