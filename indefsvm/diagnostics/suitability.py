"""Suitability of a kernel before training: sigmoid regions, class-mean distance, and the
one-call :func:`check_kernel`."""

from __future__ import annotations

import numbers
import time
from dataclasses import dataclass

import numpy as np

from .._threads import effective_threads
from .._validation import check_finite_array, check_kernel_matrix, check_memory
from ..kernels import canonical_name, kernel_matrix
from .eta import eta_scan
from .report import KernelReport, build_notes
from .spectrum import cpd_test, signature, spectrum

__all__ = ["SigmoidRegion", "check_kernel", "class_mean_sqdist", "sigmoid_region"]

_CASE_TEXT = {
    0: "a = 0: the kernel is the constant tanh(r); it carries no information about x.",
    1: ("a > 0, r < 0: K is CPD once r is small enough (Thm 4) and behaves like the RBF "
        "kernel for small a (Thms 8-9): the region Lin & Lin advise."),
    2: ("a > 0, r >= 0: in general not as good as a > 0, r < 0; where a||x||^2 + r > 0 "
        "opposite-label pairs can have eta <= 0 and then problem (6) is unbounded (Thm 5)."),
    3: ("a < 0, r > 0: for r large enough the optimum of (6) is -infinity (Thm 6); "
        "a poor choice."),
    4: ("a < 0, r <= 0: the optimum of (6) is easily -infinity (Thm 7); a poor choice."),
}


@dataclass
class SigmoidRegion:
    """Where ``(a, r)`` of ``tanh(a x'x' + r)`` falls in Lin & Lin's table (Lin & Lin 2003, §3).

    Attributes
    ----------
    a, r : float
        Slope and shift.
    case : int
        1: ``a > 0, r < 0``; 2: ``a > 0, r >= 0``; 3: ``a < 0, r > 0``; 4: ``a < 0, r <= 0``;
        0: ``a = 0``.
    max_arg : float
        ``max_i (a ||x_i||^2 + r)``.
    lemma2 : bool
        ``a > 0`` and ``max_arg <= 0`` (condition (26)): every SMO sub-problem is convex.
    thm7_pairs : int or None
        Case 4 with labels: opposite-label pairs with ``x_i'x_j <= min(||x_i||^2, ||x_j||^2)``;
        any one makes problem (6) unbounded (Thm 7). ``None`` otherwise.
    verdict : str
        The table's advice in words.

    Examples
    --------
    >>> import numpy as np
    >>> from indefsvm.diagnostics import sigmoid_region
    >>> reg = sigmoid_region(np.ones((2, 2)), a=-1.0, r=2.0)
    >>> reg.case, reg.lemma2
    (3, False)
    """

    a: float
    r: float
    case: int
    max_arg: float
    lemma2: bool
    thm7_pairs: int | None
    verdict: str

    def __str__(self) -> str:
        s = f"sigmoid (a={self.a:g}, r={self.r:g}), case {self.case}: {self.verdict}"
        s += (f" max_i a||x_i||^2 + r = {self.max_arg:.4g}"
              + (" <= 0: every SMO sub-problem is convex (Lemma 2)." if self.lemma2 else "."))
        if self.thm7_pairs is not None:
            s += f" Thm 7 pairs: {self.thm7_pairs}."
        return s

    def to_dict(self) -> dict:
        return {"a": self.a, "r": self.r, "case": self.case, "max_arg": self.max_arg,
                "lemma2": self.lemma2, "thm7_pairs": self.thm7_pairs, "verdict": self.verdict}


def sigmoid_region(X, a: float, r: float, y=None) -> SigmoidRegion:
    """Classify sigmoid parameters by Lin & Lin's table and check Lemma 2 on the data.

    Parameters
    ----------
    X : array-like of shape (n, d)
        Training inputs.
    a, r : float
        The kernel ``tanh(a x'x' + r)`` (scikit-learn's ``gamma`` and ``coef0``).
    y : array-like of shape (n,), optional
        Labels; needed for the Thm 7 pair count in case 4.

    Returns
    -------
    SigmoidRegion

    References
    ----------
    Lin & Lin (2003), section 3 (table, Thms 4-7) and Lemma 2 of section 6.1.

    Examples
    --------
    >>> import numpy as np
    >>> from indefsvm.diagnostics import sigmoid_region
    >>> reg = sigmoid_region(np.array([[1.0, 0.0], [0.0, 0.5]]), a=0.5, r=-1.0)
    >>> reg.case, reg.lemma2
    (1, True)
    """
    X = check_finite_array(X, "X")
    a, r = float(a), float(r)
    norms = np.einsum("ij,ij->i", X, X)
    max_arg = float(np.max(a * norms + r))
    if a > 0:
        case = 1 if r < 0 else 2
    elif a < 0:
        case = 3 if r > 0 else 4
    else:
        case = 0
    thm7 = None
    if case == 4 and y is not None:
        y = np.asarray(y)
        if y.shape != (X.shape[0],):
            raise ValueError(f"y must have shape ({X.shape[0]},); got {y.shape}.")
        thm7 = 0
        for start in range(0, X.shape[0], 1024):  # blocks: no n x n temporary
            G = X[start:start + 1024] @ X.T
            lim = np.minimum(norms[start:start + 1024, None], norms[None, :])
            cross = y[start:start + 1024, None] != y[None, :]
            thm7 += int(np.count_nonzero((G <= lim) & cross))
        thm7 //= 2
    return SigmoidRegion(a=a, r=r, case=case, max_arg=max_arg,
                         lemma2=bool(a > 0 and max_arg <= 0), thm7_pairs=thm7,
                         verdict=_CASE_TEXT[case])


def _two_class_labels(y, n, what):
    y = np.asarray(y)
    if y.ndim != 1 or y.shape[0] != n:
        raise ValueError(f"y must have shape ({n},) to match K; got {y.shape}.")
    classes = np.unique(y)
    if classes.shape[0] != 2:
        raise ValueError(
            f"{what} needs exactly two classes in y; got {classes.shape[0]} "
            f"({classes[:5].tolist()}). For more classes check each pair (one-vs-one)."
        )
    return y == classes[1]


def class_mean_sqdist(K, y) -> float:
    """Squared pseudo-Euclidean distance of the class means, ``c'Kc`` (Haasdonk 2005, §7.3).

    ``c_i = 1/n_+`` for the positive class and ``-1/n_-`` for the other. It is an upper bound
    on ``w'Mw`` of every CH/SVM solution: negative means no sensible solution exists.

    Parameters
    ----------
    K : array-like of shape (n, n)
        Symmetric kernel matrix.
    y : array-like of shape (n,)
        Two-class labels.

    Returns
    -------
    float

    Examples
    --------
    >>> import numpy as np
    >>> from indefsvm.diagnostics import class_mean_sqdist
    >>> X = np.array([[0.0], [1.0], [3.0], [4.0]])
    >>> class_mean_sqdist(X @ X.T, [-1, -1, 1, 1])  # (3.5 - 0.5)^2
    9.0
    """
    K = check_kernel_matrix(K)
    pos = _two_class_labels(y, K.shape[0], "class_mean_sqdist")
    c = np.where(pos, 1.0 / np.count_nonzero(pos), -1.0 / np.count_nonzero(~pos))
    return float(c @ K @ c)


def check_kernel(K=None, y=None, *, X=None, kernel=None, rtol: float | None = None,
                 method: str = "auto", mass_thresholds: tuple = (0.01, 0.10),
                 verbose: bool = False, wmw_C: tuple | None = (0.1, 1.0, 10.0, 100.0),
                 n_jobs: int | None = None, **params) -> KernelReport:
    """Can this kernel be used in an SVM? One call, numbers and plain words.

    Computes the spectrum once (:func:`~indefsvm.diagnostics.spectrum`) and reads from it the
    PSD test, the CPD test with a certificate ``Delta`` (Lin & Lin 2003, Thm 3), the negated-CPD
    test and the pseudo-Euclidean signature (Haasdonk 2005, Prop. 1); then the eta scan, the
    class-mean squared distance ``c'Kc`` and the negative diagonal entries when labels are given,
    and the sigmoid region when the kernel is the sigmoid.

    Parameters
    ----------
    K : array-like of shape (n, n), optional
        Precomputed symmetric kernel matrix. Give either ``K`` or ``X`` and ``kernel``.
    y : array-like of shape (n,), optional
        Labels: they enable the class-mean distance and the Thm 5 pair count -- for two
        classes directly, for more classes one row per pair of classes (one-vs-one, as the
        classifier is trained) in ``KernelReport.pairs``.
    X : array-like of shape (n, d), optional
        Inputs, with ``kernel``.
    kernel : str or callable, optional
        A kernel name of :mod:`indefsvm.kernels` or a callable.
    rtol : float, optional
        Relative zero threshold of the eigenvalues (default ``n * eps``, relative to
        ``max |lambda|``).
    method : {"auto", "dense", "ldl"}, default="auto"
        See :func:`~indefsvm.diagnostics.spectrum`.
    mass_thresholds : (float, float), default=(0.01, 0.10)
        ``0 <= low <= high <= 1``: negative mass (of the centred kernel) below ``low`` is
        "slightly indefinite", above ``high`` "strongly indefinite"; a most negative
        eigenvalue of more than ``high`` (half) of the largest makes it at least moderately
        (strongly) indefinite whatever the mass.
    wmw_C : tuple of float or None, default=(0.1, 1, 10, 100)
        With two-class labels, the SVM is trained (SMO, ``tol=1e-3``) at each of these ``C``
        and its ``w'Mw`` (Haasdonk 2005, §7.4) reported in ``KernelReport.wmw_by_C``: the
        verdict is "unsuitable" when every ``C >= 1`` gives ``w'Mw <= 0``. ``None`` skips
        the fits (they cost a few SMO runs).
    verbose : bool, default=False
        Log each phase and its time (``logging.getLogger("indefsvm")``, INFO; shown on
        stderr when nothing else handles it).
    n_jobs : int, optional
        Threads for the symmetry check, the eta scan and the ``w'Mw`` fits (``None``: 1
        unless a joblib context says otherwise; ``-1``: all cores). The figures do not
        depend on it.
    **params
        Kernel parameters (``gamma``, ``coef0``, ``degree``, ...).

    Returns
    -------
    KernelReport
        Print it, or ``to_dict()`` it.

    Examples
    --------
    >>> import indefsvm as isvm
    >>> X, y = isvm.datasets.load_heart(return_X_y=True)
    >>> rep = isvm.check_kernel(X=X, y=y, kernel="rbf", gamma=0.1)
    >>> rep.verdict, rep.is_psd
    ('PSD', True)
    """
    from .._logging import enable, logger

    talk = enable(verbose)
    t0 = time.perf_counter()
    lo, hi = _check_thresholds(mass_thresholds)
    if rtol is not None and (isinstance(rtol, bool) or not isinstance(rtol, numbers.Real)
                             or not rtol > 0):
        raise ValueError(f"rtol must be a positive number (a relative zero threshold, default "
                         f"n * eps); got {rtol!r}.")
    kernel_desc = None
    sig_region = None
    if K is None:
        if X is None or kernel is None:
            raise ValueError("Give a kernel matrix K, or inputs X together with kernel=...")
        X = check_finite_array(X, "X")
        n_x = X.shape[0]
        check_memory(16.0 * n_x * n_x, f"check_kernel on {n_x} samples (the {n_x} x {n_x} "
                     "kernel matrix and the copy its eigenvalues are computed on)",
                     "Check a random subsample of the samples, or a smaller problem.")
        K = kernel_matrix(X, kernel=kernel, **params)
        name = kernel if callable(kernel) else canonical_name(kernel)
        kernel_desc = {"kernel": getattr(name, "__name__", str(name)), **params}
        if name == "sigmoid":
            a = params.get("gamma")
            a = 1.0 / X.shape[1] if a is None else a
            sig_region = sigmoid_region(X, a, params.get("coef0", 1.0), y)
    elif X is not None or kernel is not None:
        raise ValueError("Give either K or X with kernel, not both.")
    threads = effective_threads(n_jobs)
    K = check_kernel_matrix(K, n_threads=threads)
    n = K.shape[0]
    pairs = None
    y2 = None
    if y is not None:
        y = np.asarray(y)
        if y.ndim != 1 or y.shape[0] != n:
            raise ValueError(f"y must have shape ({n},) to match K; got {y.shape}.")
        classes = np.unique(y)
        if classes.shape[0] < 2:
            raise ValueError(f"y holds one class only ({classes[0]}); give two or more, or "
                             "no labels.")
        if classes.shape[0] == 2:
            y2 = y
        else:
            pairs = _pairwise_label_checks(K, y, classes)
    if talk:
        logger.info("check_kernel: spectrum of a %d x %d matrix (method=%s)...", n, n, method)
    sp = spectrum(K, rtol=rtol, method=method)
    if talk:
        logger.info("check_kernel: spectrum done in %.1f s", time.perf_counter() - t0)
    cpd = cpd_test(sp)
    sig = signature(sp)
    # -K conditionally PSD (and K not zero on e-perp): w'Mw <= 0 for every solution
    negated = bool(n > 1 and sp.restricted_max <= sp.tol and sp.restricted_min < -sp.tol)
    eta = eta_scan(K, y2, n_jobs=threads)
    dcm = class_mean_sqdist(K, y2) if y2 is not None else None
    n_neg_diag = int(np.count_nonzero(np.diagonal(K) < -sp.tol))
    bad_pairs = [p for p in (pairs or []) if p["class_mean_sqdist"] <= 0]
    kind = indefiniteness(sig, (lo, hi))
    wmw = None
    if y2 is not None and wmw_C and not (sp.is_psd or cpd.is_cpd):
        wmw = _wmw_over_C(K, y2, wmw_C, threads)
        if talk:
            logger.info("check_kernel: w'Mw over C %s", wmw)
    no_sensible_C = wmw is not None and all(v <= 0 for c, v in wmw.items() if c >= 1.0) \
        and any(c >= 1.0 for c in wmw)
    if sp.is_psd:
        verdict = "PSD"
    elif cpd.is_cpd:
        verdict = "CPD"
    elif negated or (dcm is not None and dcm <= 0) or bad_pairs or no_sensible_C:
        verdict = "unsuitable"
    elif kind == "strongly indefinite":
        verdict = "strongly indefinite: train with care and compare a remedy"
    else:
        verdict = f"{kind}, usable with care"
    report = KernelReport(
        n=n, verdict=verdict, is_psd=sp.is_psd, is_cpd=cpd.is_cpd, is_cpsd=cpd.is_cpsd,
        negated_cpd=negated, lam_min=sp.lam_min, lam_max=sp.lam_max, spectrum=sp, cpd=cpd,
        signature=sig, eta=eta, class_mean_sqdist=dcm, n_negative_diagonal=n_neg_diag,
        sigmoid=sig_region, kernel=kernel_desc, mass_thresholds=(lo, hi), notes=[],
        pairs=pairs, wmw_by_C=wmw,
    )
    report.notes = build_notes(report)
    if talk:
        logger.info("check_kernel: done in %.1f s: %s", time.perf_counter() - t0, verdict)
    return report


def _wmw_over_C(K, y, Cs, n_threads=1) -> dict:
    """w'Mw of the SVM trained at each C (Haasdonk's criterion; > 0 for a sensible model);
    the fits are one compiled call, shared among ``n_threads`` threads."""
    from ..solvers._smo import solve_duals

    yp = np.where(y == np.unique(y)[1], 1.0, -1.0)
    n = yp.shape[0]
    problems = [{"y": yp, "p": -np.ones(n), "C": float(C), "alpha0": np.zeros(n)} for C in Cs]
    out = {}
    for C, res in zip(Cs, solve_duals(K, problems, check_input=False, n_threads=n_threads),
                      strict=True):
        s = float(res.alpha.sum())
        v = yp * res.alpha
        out[float(C)] = float((2.0 / s) ** 2 * (v @ K @ v)) if s > 0 else 0.0
    return out


def _check_thresholds(mass_thresholds):
    try:
        lo, hi = (float(v) for v in mass_thresholds)
    except (TypeError, ValueError):
        raise ValueError("mass_thresholds must be two numbers (low, high); got "
                         f"{mass_thresholds!r}.") from None
    if not 0.0 <= lo <= hi <= 1.0:
        raise ValueError(f"mass_thresholds must satisfy 0 <= low <= high <= 1; got "
                         f"{mass_thresholds!r}.")
    return lo, hi


def indefiniteness(sig, thresholds) -> str:
    """"Euclidean", "slightly", "moderately" or "strongly indefinite" from the negative mass
    and the size of the most negative eigenvalue (both of the centred kernel): a large
    negative eigenvalue is not "slight" whatever its share of the mass."""
    lo, hi = thresholds
    if sig.q == 0:
        return "Euclidean (no negative direction)"
    mass = sig.negative_mass
    ratio = sig.negative_ratio
    if mass is None:
        level = 1 if ratio < hi else 2
    else:
        level = 0 if mass < lo else (2 if mass > hi else 1)
    if ratio >= 0.5:
        level = 2
    elif ratio >= hi:
        level = max(level, 1)
    return ("slightly indefinite", "moderately indefinite", "strongly indefinite")[level]


def _pairwise_label_checks(K, y, classes):
    """Per pair of classes (one-vs-one): c'Kc and the opposite-label eta <= 0 count."""
    out = []
    for i in range(classes.shape[0]):
        for j in range(i + 1, classes.shape[0]):
            idx = np.flatnonzero((y == classes[i]) | (y == classes[j]))
            Kp = K[np.ix_(idx, idx)]
            yp = y[idx]
            eta = eta_scan(Kp, yp)
            out.append({"classes": (str(classes[i]), str(classes[j])),
                        "class_mean_sqdist": float(class_mean_sqdist(Kp, yp)),
                        "n_cross_nonpositive": int(eta.n_cross_nonpositive)})
    return out
