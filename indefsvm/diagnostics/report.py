"""``KernelReport``: the result of :func:`indefsvm.check_kernel`, for people and machines."""

from __future__ import annotations

from dataclasses import dataclass, field

from ._render import render_html, render_text
from .eta import EtaScan
from .spectrum import CPDResult, Signature, Spectrum

__all__ = ["KernelReport", "build_notes", "pct"]


def pct(x: float) -> str:
    """A fraction as a percentage with three significant digits (0.000138 -> '0.0138 %'),
    so that a small but non-zero share never reads as 0.000 %."""
    if x == 0:
        return "0 %"
    return f"{100 * x:.3g} %"


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
        remedy"`` or ``"unsuitable"`` (negated CPD, or a class-mean squared distance <= 0 for
        the labels or a pair of classes).
    is_psd, is_cpd, is_cpsd : bool
        Tests on ``K`` and on ``K`` restricted to the complement of ``e``.
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
    notes : list of str
        Numbered notes in plain words.

    Examples
    --------
    >>> import numpy as np
    >>> import indefsvm as isvm
    >>> rep = isvm.check_kernel(-np.eye(3) + 0.1)
    >>> rep.verdict, rep.negated_cpd, sorted(rep.to_dict())[:3]
    ('unsuitable', True, ['class_mean_sqdist', 'cpd', 'estimated'])
    """

    n: int
    verdict: str
    is_psd: bool
    is_cpd: bool
    is_cpsd: bool
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
            ("PSD / CPD / CPSD", f"{self.is_psd} / {self.is_cpd} / {self.is_cpsd}"),
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
        if self.sigmoid is not None:
            rows.append(("sigmoid case (Lin & Lin)", str(self.sigmoid.case)))
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
            "notes": list(self.notes),
        }


def recommendation(r: KernelReport) -> str:
    """What to do, from the report's own figures (named in the sentence)."""
    from .suitability import indefiniteness

    if r.is_psd or r.is_cpd:
        return ("Recommendation: train on K as it is; the SVM dual is convex"
                + (" on y'alpha = 0 (CPD)." if not r.is_psd else "."))
    sig = r.signature
    mass = "n/a" if sig.negative_mass is None else pct(sig.negative_mass)
    kind = indefiniteness(sig, r.mass_thresholds)
    compare = ("Compare the remedies on your folds: indefsvm.compare_remedies(K, y) (or "
               "'indefsvm compare'); no method wins on every data set (Chen et al. 2009).")
    if r.negated_cpd:
        return ("Recommendation: do not train on K as it is (-K is CPSD: w'Mw <= 0 for every "
                "solution). A fix of the spectrum changes the geometry: try flip (RNE) and "
                "clip (CNE). " + compare)
    if r.class_mean_sqdist is not None and r.class_mean_sqdist <= 0:
        return (f"Recommendation: the labels' class means are at c'Kc = "
                f"{r.class_mean_sqdist:.3g} <= 0, so no SVM on K has w'Mw > 0; try flip "
                "(RNE) or clip (CNE), which make c'Kc positive. " + compare)
    if r.wmw_by_C:
        pos = sorted(c for c, v in r.wmw_by_C.items() if v > 0)
        if not pos:
            return ("Recommendation: every C tried gives w'Mw <= 0 on K as it is; train on "
                    "the flipped or clipped kernel (or the Krein SVM). " + compare)
        if any(v <= 0 for v in r.wmw_by_C.values()):
            return (f"Recommendation: keep C <= {max(pos):g} (w'Mw > 0 there) and check the "
                    "model with sanity_report; a smaller C trades training error for a "
                    "sensible geometry, so also " + compare[0].lower() + compare[1:])
    if kind == "slightly indefinite":
        return (f"Recommendation: train on K as it is (negative mass {mass}: slightly "
                "indefinite; clip and flip change little, Haasdonk 2005 found equal errors on "
                "such data) and check the model with sanity_report.")
    if kind == "strongly indefinite":
        return (f"Recommendation: negative mass {mass}, |most negative| / largest eigenvalue "
                f"{sig.negative_ratio:.3g}: strongly indefinite, the choice of method "
                "matters. " + compare)
    return (f"Recommendation: train on K as it is with a sanity_report (negative mass {mass}), "
            "and " + compare[0].lower() + compare[1:])


def build_notes(r: KernelReport) -> list[str]:
    """The numbered notes of a report, in plain words with the numbers."""
    sp, sig, eta = r.spectrum, r.signature, r.eta
    notes = []
    if sp.estimated:
        iv = sp.intervals
        notes.append(
            f"Estimates (matrix-free, {sp.method}): lambda_min in [{iv['lam_min'][0]:.4g}, "
            f"{iv['lam_min'][1]:.4g}], lambda_max in [{iv['lam_max'][0]:.4g}, "
            f"{iv['lam_max'][1]:.4g}], q in {iv['n_neg']}, negative mass in "
            f"[{pct(iv['negative_mass'][0])}, {pct(iv['negative_mass'][1])}]; the verdict "
            "reads the point estimates. The eta scan, c'Kc and the diagonal are exact.")
    if r.is_psd:
        notes.append(f"K is positive semi-definite: lambda_min = {r.lam_min:.4g} >= "
                     f"-{sp.tol:.3g} (zero threshold). The SVM dual is convex.")
    else:
        notes.append(f"K is not PSD: lambda_min = {r.lam_min:.4g}, "
                     f"{pct(abs(r.lam_min) / sp.scale)} of max |lambda| = {sp.scale:.4g}. "
                     "The SVM dual is not convex; SMO returns a stationary point.")
    notes.append(r.cpd.note)
    from .suitability import indefiniteness

    mass = sig.negative_mass
    kind = indefiniteness(sig, r.mass_thresholds)
    mass_txt = ("" if mass is None else
                f", negative mass {pct(mass)} (sum |negative| / sum |all| eigenvalues of the "
                "centred kernel JKJ)")
    lo, hi = r.mass_thresholds
    notes.append(f"Pseudo-Euclidean signature (p, q, z) = ({sig.p}, {sig.q}, {sig.z}): the data "
                 f"embed in R^({sig.p},{sig.q}){mass_txt}, |most negative| / largest "
                 f"eigenvalue {sig.negative_ratio:.3g}: {kind} (thresholds: mass {pct(lo)} / "
                 f"{pct(hi)}, eigenvalue ratio {pct(hi)} / 50 %).")
    if r.negated_cpd:
        notes.append("-K is conditionally positive semi-definite (no eigenvalue on the "
                     "complement of e is positive): "
                     "w'Mw <= 0 for every solution, whatever the data. Unsuitable (Haasdonk 2005, "
                     "§7.3).")
    if eta.n_negative:
        notes.append(f"{eta.n_negative} of {eta.n_pairs} pairs ({pct(eta.fraction)}) have "
                     f"eta = K_ii + K_jj - 2K_ij < 0 (smallest {eta.worst_eta:.4g} at pair "
                     f"{eta.worst_pair}): SMO meets concave sub-problems there and takes the "
                     "step to the bound (rule (27)).")
    else:
        notes.append("No pair has eta = K_ii + K_jj - 2K_ij < 0, so every SMO sub-problem is "
                     "convex. This does NOT mean K is PSD: the spectrum decides that.")
    if eta.n_cross_nonpositive:
        notes.append(f"{eta.n_cross_nonpositive} opposite-label pairs have eta <= 0: without "
                     "an upper bound problem (6) is unbounded below (Thm 5); keep C finite.")
    if r.class_mean_sqdist is not None:
        d = r.class_mean_sqdist
        if d > 0:
            notes.append(f"Squared distance of the class means c'Kc = {d:.4g} > 0: an upper "
                         "bound on w'Mw, so a solution with w'Mw > 0 can exist (a smaller C "
                         "may be needed).")
        else:
            notes.append(f"Squared distance of the class means c'Kc = {d:.4g} <= 0: every "
                         "CH/SVM solution has w'Mw <= 0. Unsuitable for these labels "
                         "(Haasdonk 2005, §7.3).")
    for p in r.pairs or []:
        a, b = p["classes"]
        if p["class_mean_sqdist"] <= 0:
            notes.append(f"Classes {a} vs {b}: c'Kc = {p['class_mean_sqdist']:.4g} <= 0, every "
                         "solution of this pair has w'Mw <= 0: unsuitable for it (Haasdonk "
                         "2005, §7.3).")
        if p["n_cross_nonpositive"]:
            notes.append(f"Classes {a} vs {b}: {p['n_cross_nonpositive']} opposite-label pairs "
                         "have eta <= 0; keep C finite (Thm 5).")
    if r.n_negative_diagonal:
        notes.append(f"{r.n_negative_diagonal} diagonal entries K_ii are negative: without "
                     "y'alpha = 0 and a finite C the no-bias problem (19) is unbounded "
                     "(Thm 10).")
    if r.sigmoid is not None:
        notes.append(str(r.sigmoid))
    if r.wmw_by_C:
        pos = [c for c, v in r.wmw_by_C.items() if v > 0]
        neg = [c for c, v in r.wmw_by_C.items() if v <= 0]
        if neg and pos:
            notes.append(f"w'Mw of the trained SVM is > 0 for C in {pos} and <= 0 for C in "
                         f"{neg}: only the former are sensible convex-hull classifiers "
                         "(Haasdonk 2005, §7.4).")
        elif neg:
            notes.append(f"w'Mw of the trained SVM is <= 0 for every C tried ({neg}): no "
                         "sensible solution was found on the kernel as it is.")
    notes.append(recommendation(r))
    method = ("eigenvalues from one dense tridiagonalisation" if sp.method == "dense"
              else "; ".join(sp.approximate))
    notes.append(f"Method: {method}. Zero threshold {sp.tol:.3g} = rtol {sp.rtol:.3g} x "
                 f"max |lambda|.")
    return [n for n in notes if n]
