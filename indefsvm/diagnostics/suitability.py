"""Suitability of a kernel before training: sigmoid regions, class-mean distance, and the
one-call :func:`check_kernel`."""

from __future__ import annotations

import math
import numbers
import time
from dataclasses import dataclass

import numpy as np
from scipy.sparse import issparse
from sklearn.utils._param_validation import StrOptions

from .._threads import effective_threads, sized_by
from .._validation import (
    N_JOBS,
    POS_INT,
    check_finite_array,
    check_finite_csr,
    check_kernel_matrix,
    check_label_vector,
    check_memory,
    check_real,
    objects_of_a_callable,
    options_checked,
    plain_label,
    seed_is_valid,
)
from ..exceptions import ParameterError
from ..kernels import SPARSE_INPUT_KERNELS, canonical_name, kernel_matrix
from ._advice import build_notes
from ._render import TextHTML
from .eta import check_entry_range, eta_scan
from .report import UNSUITABLE, KernelReport, _check_thresholds, small_c_verdict
from .spectrum import (
    UNDECIDED,
    _undecided,
    cpd_test,
    decided,
    indefiniteness,
    signature,
    spectrum,
)

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
class SigmoidRegion(TextHTML):
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
    saturated_high, saturated_low : float or None
        Shares of the pairs ``i != j`` where tanh is saturated: ``a x_i'x_j + r >= 3`` (the
        kernel within 0.5 % of 1: nearly constant there) and ``<= -3`` (within 0.5 % of -1:
        there ``1 + K ~ 2 exp(2(a x'x' + r))``, an exponential kernel scaled by
        ``1 + tanh(r)``, Lin & Lin 2003, (13)). ``None`` for fewer than two samples.
    saturation_rows : int
        The rows whose pairs were counted: all of them up to :data:`SATURATION_ROWS`, else
        a random sample of that many (seed 0).

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
    saturated_high: float | None = None
    saturated_low: float | None = None
    saturation_rows: int = 0

    def __str__(self) -> str:
        s = f"sigmoid (a={self.a:g}, r={self.r:g}), case {self.case}: {self.verdict}"
        s += (f" max_i a||x_i||^2 + r = {self.max_arg:.4g}"
              + (" <= 0: every SMO sub-problem is convex (Lemma 2)." if self.lemma2 else "."))
        if self.thm7_pairs is not None:
            s += f" Thm 7 pairs: {self.thm7_pairs}."
        return s + self._saturation_text()

    def _saturation_text(self) -> str:
        """A sentence when tanh is saturated on most pairs: what the kernel is there."""
        if self.saturated_high is None:
            return ""
        of = ("" if self.saturation_rows == 0 else
              f" (of the pairs of a random sample of {self.saturation_rows} rows)")
        if self.saturated_high >= SATURATED:
            return (f" tanh is saturated at +1 on {100 * self.saturated_high:.1f} % of the "
                    f"pairs{of}: a x_i'x_j + r >= 3, the kernel within 0.5 % of 1 there, "
                    "nearly constant: what the SVM can read of those pairs is a variation "
                    "of 1 - tanh(t) ~ 2 exp(-2t) and below. A smaller a (gamma), r < 0 "
                    "(case 1) or centred features bring tanh into its range.")
        if self.saturated_low >= SATURATED:
            scale = 1.0 + float(np.tanh(self.r))
            c = (f": the SVM then needs a C of order 1 / (1 + tanh(r)) = {1 / scale:.3g} "
                 "(their (15))" if self.r < 0 and scale > 0 else "")
            return (f" tanh is near -1 on {100 * self.saturated_low:.1f} % of the pairs{of}: "
                    "a x_i'x_j + r <= -3, where 1 + K ~ 2 exp(2(a x_i'x_j + r)), an "
                    "exponential kernel scaled by 1 + tanh(r) (Lin & Lin 2003, (13))" + c
                    + ".")
        return ""

    def to_dict(self) -> dict:
        """JSON-serialisable dictionary of the region's figures and verdict."""
        return {"a": self.a, "r": self.r, "case": self.case, "max_arg": self.max_arg,
                "lemma2": self.lemma2, "thm7_pairs": self.thm7_pairs, "verdict": self.verdict,
                "saturated_high": self.saturated_high, "saturated_low": self.saturated_low,
                "saturation_rows": self.saturation_rows}


#: the share of pairs saturated at which the region says so
SATURATED = 0.5
#: the most rows whose pairs the saturation counts; above, a random sample of this many
SATURATION_ROWS = 3000


def _saturation(X, a: float, r: float):
    """(share of pairs i != j with a x_i'x_j + r >= 3, share <= -3, sampled rows or 0)."""
    n = X.shape[0]
    if n < 2:
        return None, None, 0
    rows = 0
    if n > SATURATION_ROWS:
        rows = SATURATION_ROWS
        X = X[np.sort(np.random.default_rng(0).choice(n, rows, replace=False))]
        n = rows
    high = low = 0
    for start in range(0, n, 1024):  # blocks: no n x n temporary
        G = X[start:start + 1024] @ X.T
        t = a * (G.toarray() if issparse(G) else np.asarray(G)) + r
        high += int(np.count_nonzero(t >= 3.0))
        low += int(np.count_nonzero(t <= -3.0))
        # the diagonal (i = j) is no pair
        d = a * np.asarray(X[start:start + 1024].multiply(X[start:start + 1024]).sum(axis=1)
                           ).ravel() + r if issparse(X) else a * np.einsum(
            "ij,ij->i", X[start:start + 1024], X[start:start + 1024]) + r
        high -= int(np.count_nonzero(d >= 3.0))
        low -= int(np.count_nonzero(d <= -3.0))
    pairs = n * (n - 1)
    return high / pairs, low / pairs, rows


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
    X = check_finite_csr(X) if issparse(X) else check_finite_array(X, "X")
    a, r = check_real(a, "a"), check_real(r, "r")
    if y is not None:
        y = np.asarray(y)
        if y.shape != (X.shape[0],):
            raise ParameterError(f"must have shape ({X.shape[0]},); got {y.shape}.", "y")
        check_label_vector(y)
    norms = (np.asarray(X.multiply(X).sum(axis=1)).ravel() if issparse(X)
             else np.einsum("ij,ij->i", X, X))
    max_arg = float(np.max(a * norms + r))
    if a > 0:
        case = 1 if r < 0 else 2
    elif a < 0:
        case = 3 if r > 0 else 4
    else:
        case = 0
    thm7 = None
    if case == 4 and y is not None:
        thm7 = 0
        for start in range(0, X.shape[0], 1024):  # blocks: no n x n temporary
            G = X[start:start + 1024] @ X.T
            G = G.toarray() if issparse(G) else G
            lim = np.minimum(norms[start:start + 1024, None], norms[None, :])
            cross = y[start:start + 1024, None] != y[None, :]
            thm7 += int(np.count_nonzero((G <= lim) & cross))
        thm7 //= 2
    high, low, rows = _saturation(X, a, r)
    return SigmoidRegion(a=a, r=r, case=case, max_arg=max_arg,
                         lemma2=bool(a > 0 and max_arg <= 0), thm7_pairs=thm7,
                         verdict=_CASE_TEXT[case], saturated_high=high, saturated_low=low,
                         saturation_rows=rows)


def _two_class_labels(y, n, what):
    y = np.asarray(y)
    if y.ndim != 1 or y.shape[0] != n:
        raise ParameterError(f"must have shape ({n},) to match K; got {y.shape}.", "y")
    check_label_vector(y)
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
    check_entry_range(K)
    pos = _two_class_labels(y, K.shape[0], "class_mean_sqdist")
    c = np.where(pos, 1.0 / np.count_nonzero(pos), -1.0 / np.count_nonzero(~pos))
    return float(c @ K @ c)


_WMW_DEFAULT = (0.1, 1.0, 10.0, 100.0)


@options_checked({
    "kernel": [str, callable, None],
    "method": [StrOptions({"auto", "dense", "ldl", "lanczos", "slq"})],
    "mass_thresholds": ["array-like"], "verbose": ["verbose"],
    "wmw_C": [StrOptions({"auto"}), "array-like", None], "n_jobs": N_JOBS,
    "n_probes": [POS_INT, None], "n_steps": [POS_INT, None],
})
@sized_by(0, "K", "X")
def check_kernel(K=None, y=None, *, X=None, kernel=None, rtol: float | None = None,
                 method: str = "auto", mass_thresholds: tuple = (0.01, 0.10),
                 verbose: bool = False, wmw_C: tuple | str | None = "auto",
                 n_jobs: int | None = None, n_probes: int | None = None,
                 n_steps: int | None = None, random_state=None, device=None,
                 **params) -> KernelReport:
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
    X : array-like of shape (n, d) or dask.array, optional
        Inputs, with ``kernel``. With a matrix-free method (``"auto"`` above 5 000 samples)
        ``K`` is never formed: kernel blocks are computed on the fly, in compiled code on
        ``n_jobs`` threads -- or, for a ``dask.array``, one task per pair of row chunks on
        the current Dask scheduler (e.g. a ``distributed`` cluster; ``pip install
        "indefsvm[dask]"``).
    kernel : str or callable, optional
        A kernel name of :mod:`indefsvm.kernels` or a callable.
    rtol : float, optional
        Relative zero threshold of the eigenvalues (default ``n * eps``, relative to
        ``max |lambda|``).
    method : {"auto", "dense", "ldl", "lanczos", "slq"}, default="auto"
        See :func:`~indefsvm.diagnostics.spectrum`: ``"auto"`` is dense up to 5 000 samples
        and ``"slq"`` (matrix-free estimates with intervals) above. The eta scan, ``c'Kc``,
        the Thm 5 pair count and the negative diagonal stay exact with every method
        (streamed over kernel tiles when ``K`` is not formed).
    mass_thresholds : (float, float), default=(0.01, 0.10)
        ``0 <= low <= high <= 1``: negative mass (of the centred kernel) below ``low`` is
        "slightly indefinite", above ``high`` "strongly indefinite"; a most negative
        eigenvalue of more than ``high`` (half) of the largest makes it at least moderately
        (strongly) indefinite whatever the mass.
    wmw_C : tuple of float, "auto" or None, default="auto"
        With two-class labels, the SVM is trained (SMO, ``tol=1e-3``) at each of these ``C``
        and its ``w'Mw`` (Haasdonk 2005, §7.4) reported in ``KernelReport.wmw_by_C``: when
        every ``C >= 1`` gives ``w'Mw <= 0`` the verdict is "usable with a small C only
        (C <= c), or after a remedy" if a smaller ``C`` gives ``w'Mw > 0``, "unsuitable as
        it stands: use a remedy" if none does. ``None`` skips
        the fits (they cost a few SMO runs). ``"auto"``: ``(0.1, 1, 10, 100)`` with the
        dense and LDL methods, no fits with the matrix-free ones (an SMO run on 10^5 samples
        takes longer than the whole check; give the ``C`` values to run them anyway). Those
        ``C`` are in the units of a kernel near 1: when each gives ``w'Mw <= 0`` while the
        class means are at ``c'Kc > 0``, ``"auto"`` goes on with the powers of ten below
        them (from the largest with ``C max|K_ij| <= 100``, the grid's top on the kernel
        scaled to 1) until one gives ``w'Mw > 0`` or ``C n max|K_ij|`` falls below 0.1
        (the most the kernel then moves an entry of the SVM's gradient is within 100 times
        the SMO's ``tol``: the point found would be the stopping rule's, not the kernel's),
        so that "unsuitable" is said of the kernel, not of its scale.
    verbose : bool, default=False
        Log each phase and its time (``logging.getLogger("indefsvm")``, INFO; shown on
        stderr when nothing else handles it).
    n_jobs : int, optional
        Threads for the symmetry check, the eta scan, the kernel blocks of the matrix-free
        methods and the ``w'Mw`` fits (``None``: 1 unless a joblib context says otherwise;
        ``-1``: all cores), and the most threads the eigendecomposition's BLAS uses
        (``None``: its own count). Small work (below 1 000 rows) runs on one thread, and no
        more threads than the cores idle when the check starts. The figures depend on it
        only through the order of sums.
    n_probes, n_steps, random_state :
        The matrix-free methods' probes, Lanczos steps and seed (see
        :func:`~indefsvm.diagnostics.spectrum`).
    device : {"cpu", "cuda"} or None, default=None
        ``"cuda"`` (or CuPy ``X``): the matrix-free methods compute the kernel's row
        stripes, their products with the Lanczos vectors and the exact eta scan on a CUDA
        device (``pip install "indefsvm[gpu]"``; kernels linear, polynomial, rbf, sigmoid,
        l1_gaussian, sqrt_l1_exponential); the Lanczos runs and every estimate stay on the
        CPU, so the report is the CPU's within float64 rounding. The dense methods run on
        the CPU: ``device="cuda"`` with them is refused.
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
    seed_is_valid(random_state)  # said even where the dense method draws nothing
    from .._logging import enable, logger

    talk = enable(verbose)
    t0 = time.perf_counter()
    lo, hi = _check_thresholds(mass_thresholds)
    if rtol is not None and (isinstance(rtol, bool) or not isinstance(rtol, numbers.Real)
                             or not 0 < rtol < 1):
        raise ParameterError(f"must be a number in (0, 1) (a relative zero threshold, default "
                             f"n * eps: |lambda| <= rtol x max |lambda| counts as zero, so 1 or "
                             f"more would call every eigenvalue zero); got {rtol!r}.", "rtol")
    from .spectrum import DENSE_MAX, _check_method, _check_positive_int, _check_rtol

    _check_method(method)
    n_probes = _check_positive_int(n_probes, "n_probes")
    n_steps = _check_positive_int(n_steps, "n_steps")
    if isinstance(wmw_C, str) and wmw_C != "auto":
        raise ParameterError(f"must be a tuple of C values, 'auto' or None; got {wmw_C!r}.",
                             "wmw_C")
    if wmw_C is not None and not isinstance(wmw_C, str):
        # a tuple (or list, or 1-D array) of C values > 0: the SVMs it trains need them
        Cs = np.asarray(wmw_C, dtype=object).ravel() if np.ndim(wmw_C) == 1 else None
        if Cs is None or not Cs.size or not all(
                isinstance(c, numbers.Real) and not isinstance(c, bool) and 0 < c < np.inf
                for c in Cs):
            raise ParameterError(f"must be a tuple of C values (finite numbers > 0), "
                                 f"'auto' or None (no w'Mw); got "
                                 f"{' '.join(repr(wmw_C).split())[:80]}.", "wmw_C")
        wmw_C = tuple(float(c) for c in Cs)
    kernel_desc = None
    sig_region = None
    if K is None:
        if X is None or kernel is None:
            raise ValueError("Give a kernel matrix K, or inputs X together with kernel=...")
        from .._device import is_device_array, resolve_device, to_numpy

        dev = resolve_device(device, X)
        X = to_numpy(X) if is_device_array(X) else X
        dask_x = _is_dask_array(X)
        if dask_x and any(np.isnan(v) for v in X.shape):
            raise ValueError("X is a dask array of unknown chunk sizes (after boolean "
                             "indexing?); call X.compute_chunk_sizes() first.")
        n_x = int(X.shape[0]) if hasattr(X, "shape") else len(X)
        objects = objects_of_a_callable(kernel, X)
        if objects and method in ("lanczos", "slq"):
            raise ValueError(f"method={method!r} computes kernel tiles of numeric X; the "
                             "callable kernel's objects (strings, graphs, ...) are checked "
                             "on their matrix: method='dense' or 'auto'.")
        matrix_free = not objects and (dask_x or method in ("lanczos", "slq") or (
            method == "auto" and n_x > DENSE_MAX))
        if dask_x and method in ("dense", "ldl"):
            raise ValueError(f"method={method!r} needs the whole kernel matrix; a dask array X "
                             "is checked matrix-free: use method='slq', 'lanczos' or 'auto'.")
        if dev.is_cuda and not matrix_free:
            raise ValueError(f"device='cuda' computes the matrix-free methods; method="
                             f"{method!r} on {n_x} samples is dense (on the CPU): give "
                             "method='slq' or 'lanczos', or device='cpu'.")
        if dev.is_cuda and dask_x:
            raise ValueError("device='cuda' takes a NumPy or CuPy X, not a dask array.")
        if matrix_free:
            return _check_kernel_matrix_free(
                X, y, kernel, params, rtol=_check_rtol(rtol, n_x),
                method="slq" if method == "auto" else method, thresholds=(lo, hi),
                wmw_C=None if wmw_C == "auto" else wmw_C, n_jobs=n_jobs,
                n_probes=n_probes, n_steps=n_steps, random_state=random_state, talk=talk,
                t0=t0, device=dev)
        # CSR stays CSR for the kernels that read it so (a text collection's words)
        if not objects:
            # (a callable's objects go to it as given, as the SVMs give them)
            X = (check_finite_csr(X) if issparse(X) and isinstance(kernel, str)
                 and canonical_name(kernel) in SPARSE_INPUT_KERNELS
                 else check_finite_array(X, "X"))
            n_x = X.shape[0]
        if isinstance(kernel, str):
            # the estimators' defaults and resolver (gamma="scale", coef0=0, degree=3), so
            # that the check describes the kernel IndefiniteSVC(kernel=...) trains on
            params = _estimator_params(kernel, X, params)
        # 2.3 matrices measured (benchmarks/memory_probe.py, check_X): the kernel, the copy
        # its eigenvalues are computed on, and the smaller arrays of the other checks
        check_memory(20.0 * n_x * n_x, f"check_kernel on {n_x} samples (the {n_x} x {n_x} "
                     "kernel matrix, the copy its eigenvalues are computed on and the other "
                     "checks' arrays)",
                     "Use method='slq' (matrix-free: the kernel is never formed).")
        K = kernel_matrix(X, kernel=kernel, **params)
        name = kernel if callable(kernel) else canonical_name(kernel)
        kernel_desc = {"kernel": getattr(name, "__name__", str(name)), **params}
        if name == "sigmoid":
            sig_region = sigmoid_region(X, params["gamma"], params["coef0"], y)
    elif X is not None or kernel is not None:
        raise ValueError("Give either K or X with kernel, not both.")
    elif params:
        raise ValueError(f"kernel parameters {sorted(params)} apply to a kernel computed from "
                         "X (check_kernel(X=X, kernel=..., ...)); K is given as a matrix: "
                         "drop them.")
    elif device is not None and not (isinstance(device, str) and device == "cpu"):
        if not (isinstance(device, str) and device == "cuda"):
            raise ParameterError(f"must be one of ['cpu', 'cuda'] or None; got "
                                 f"{' '.join(repr(device).split())[:60]}.", "device")
        raise ValueError("device='cuda' applies to a kernel of X computed matrix-free; a "
                         "given matrix K is checked on the CPU.")
    default_C = wmw_C == "auto"
    if default_C:
        n_k = int(np.shape(K)[0]) if np.ndim(K) == 2 else 0
        wmw_C = _WMW_DEFAULT if method in ("dense", "ldl") or (
            method == "auto" and n_k <= DENSE_MAX) else None
    threads = effective_threads(n_jobs)
    K = check_kernel_matrix(K, n_threads=threads, warn_distances=True)
    check_entry_range(K)  # before the spectrum, not after it
    n = K.shape[0]
    skipped_C = []
    if default_C and wmw_C:
        # the default C are in the units of a kernel near 1: on one near 1e305 the SVM's
        # gradient, C K_ij summed over n, overflows -- those C are left out, and said so
        wmw_C, skipped_C = _trainable_C(wmw_C, K)
    pairs = None
    y2 = None
    if y is not None:
        y = np.asarray(y)
        if y.ndim != 1 or y.shape[0] != n:
            raise ParameterError(f"must have shape ({n},) to match K; got {y.shape}.", "y")
        check_label_vector(y)
        classes = np.unique(y)
        if classes.shape[0] < 2:
            raise ValueError(f"y holds one class only ({classes[0]}); give two or more, or "
                             "no labels.")
        if classes.shape[0] == 2:
            y2 = y
        else:
            pairs = _pairwise_label_checks(K, y, classes)
    if not default_C:
        _wmw_needs_two_classes(wmw_C, 0 if y is None else classes.shape[0])
    if talk:
        logger.info("check_kernel: spectrum of a %d x %d matrix (method=%s)...", n, n, method)
    sp = spectrum(K, rtol=rtol, method=method, n_probes=n_probes, n_steps=n_steps,
                  random_state=random_state)
    if talk:
        logger.info("check_kernel: spectrum done in %.1f s", time.perf_counter() - t0)
    eta = eta_scan(K, y2, n_jobs=threads)
    dcm = class_mean_sqdist(K, y2) if y2 is not None else None
    n_neg_diag = int(np.count_nonzero(np.diagonal(K) < -sp.tol))
    wmw = None
    if y2 is None or sp.is_psd or cpd_test(sp).is_cpd:
        skipped_C = []  # no SVM of w'Mw is needed: nothing left out
    elif wmw_C:
        try:
            wmw = _named_wmw_C(_wmw_over_C, K, y2, wmw_C, threads)
        except ValueError:
            if not default_C:
                raise
            # an SVM of the default grid failed on this kernel's scale (its sums overflow):
            # each C alone, those that train kept, the others said, not raised
            wmw = {}
            for C in wmw_C:
                try:
                    wmw.update(_wmw_over_C(K, y2, (C,), threads))
                except ValueError:
                    skipped_C.append(C)
            wmw, skipped_C = wmw or None, sorted(skipped_C)
        if default_C and wmw and dcm is not None and dcm > 0 \
                and all(v <= 0 for v in wmw.values()):
            # the default grid is in the units of a kernel near 1: on a larger one its
            # smallest C may already be too large, while the class means at c'Kc > 0 say a
            # small enough C has w'Mw > 0 -- smaller C are tried before "unsuitable" is said
            wmw = dict(sorted({**wmw, **_smaller_C(K, y2, min(wmw), threads)}.items()))
        if talk:
            logger.info("check_kernel: w'Mw over C %s", wmw)
    report = _assemble(sp, eta, dcm, pairs, n_neg_diag, wmw, sig_region, kernel_desc,
                       (lo, hi), talk, t0)
    if skipped_C:
        report.notes.append(
            f"w'Mw was not computed at C = {', '.join(f'{c:g}' for c in skipped_C)} of the "
            f"default grid: with kernel values up to {float(np.max(np.abs(K))):.3g} the SVM's "
            "sums of C K_ij over the samples overflow float64 there. Scale the kernel down "
            "(a positive factor changes no verdict of the spectrum).")
    return report


#: the smallest ``C n max|K_ij|`` tried below the default grid: the most the kernel moves a
#: gradient entry of the SVM at C (``|Q alpha| <= C n max|K_ij|``); below 100 times the
#: SMO's tol = 1e-3 the point found, and its w'Mw, are more the stopping rule's than the
#: kernel's
_SMALL_C_FLOOR = 0.1


def _smaller_C(K, y, C_min: float, n_threads: int) -> dict:
    """w'Mw at the powers of ten below ``C_min``, largest first, until one is > 0. They start
    at the largest with ``C max|K_ij| <= 100`` (the grid's top on the kernel scaled to 1:
    larger ones the grid has stood for), and end at the last with ``C n max|K_ij| >=
    _SMALL_C_FLOOR``: about ``3 + log10(n)`` fits at most, whatever the kernel's scale."""
    n = K.shape[0]
    log_k = math.log10(float(np.max(np.abs(K))))
    first = min(round(math.log10(C_min)) - 1, math.floor(2.0 - log_k))
    last = math.ceil(math.log10(_SMALL_C_FLOOR) - math.log10(n) - log_k)
    out = {}
    for e in range(first, last - 1, -1):
        C = float(f"1e{e}")  # exactly the decimal power, as the grid's
        if C == 0.0:
            break
        out.update(_wmw_over_C(K, y, (C,), n_threads))
        if out[C] > 0:
            break
    return out


def _trainable_C(Cs, K) -> tuple[list, list]:
    """The C of ``Cs`` whose SVM gradient on ``K`` stays within float64 (``C n max|K|`` at
    most 1e306), and those left out."""
    kmax = float(np.max(np.abs(K))) if K.size else 0.0
    if kmax == 0.0:
        return list(Cs), []
    room = 306.0 - math.log10(kmax) - math.log10(K.shape[0])
    keep = [c for c in Cs if math.log10(c) <= room]
    return keep, [c for c in Cs if c not in keep]


def _assemble(sp, eta, dcm, pairs, n_neg_diag, wmw, sig_region, kernel_desc, thresholds,
              talk, t0) -> KernelReport:
    """The verdict and the notes from the figures (every method)."""
    from .._logging import logger

    n = sp.n
    cpd = cpd_test(sp)
    sig = signature(sp)
    # -K conditionally PSD (and K not zero on e-perp): w'Mw <= 0 for every solution
    negated = bool(n > 1 and sp.restricted_max <= sp.tol and sp.restricted_min < -sp.tol)
    bad_pairs = [p for p in (pairs or []) if p["class_mean_sqdist"] <= 0]
    kind = indefiniteness(sig, thresholds)
    # w'Mw by C: none sensible at C >= 1 -- and none at all (unsuitable), or only below 1
    # (usable with that small C); a verdict that names its next step, as the notes do
    no_sensible_C = wmw is not None and all(v <= 0 for c, v in wmw.items() if c >= 1.0) \
        and any(c >= 1.0 for c in wmw)
    small_C = [c for c, v in (wmw or {}).items() if v > 0] if no_sensible_C else []
    undecided = _undecided(sp, cpd)
    if undecided:
        verdict = UNDECIDED
    elif sp.is_psd:
        verdict = "PSD"
    elif cpd.is_cpd:
        verdict = "CPD"
    elif negated or (dcm is not None and dcm <= 0) or bad_pairs or \
            (no_sensible_C and not small_C):
        verdict = UNSUITABLE
    elif small_C:
        verdict = small_c_verdict(max(small_C))
    elif kind == "strongly indefinite":
        verdict = "strongly indefinite: train with care and compare a remedy"
    else:
        verdict = f"{kind}, usable with care"
    # an estimate whose interval straddles the threshold decides nothing: None, said so
    is_psd, is_cpd, is_cpsd = sp.is_psd, cpd.is_cpd, cpd.is_cpsd
    if undecided == "psd":
        is_psd = None
        if decided(sp, "restricted_min", sp.tol) is None:
            is_cpd = is_cpsd = None
    elif undecided == "cpd":
        is_cpd = is_cpsd = None
    report = KernelReport(
        n=n, verdict=verdict, is_psd=is_psd, is_cpd=is_cpd, is_cpsd=is_cpsd,
        negated_cpd=negated, lam_min=sp.lam_min, lam_max=sp.lam_max, spectrum=sp, cpd=cpd,
        signature=sig, eta=eta, class_mean_sqdist=dcm, n_negative_diagonal=n_neg_diag,
        sigmoid=sig_region, kernel=kernel_desc, mass_thresholds=thresholds, notes=[],
        pairs=pairs, wmw_by_C=wmw, nystroem_landmarks=_nystroem_landmarks(sp),
    )
    report.notes = build_notes(report)
    if talk:
        logger.info("check_kernel: done in %.1f s: %s", time.perf_counter() - t0, verdict)
    return report


def _is_dask_array(X) -> bool:
    return type(X).__module__.split(".")[0] == "dask" and hasattr(X, "chunks")


def _check_kernel_matrix_free(X, y, kernel, params, *, rtol, method, thresholds, wmw_C,
                              n_jobs, n_probes, n_steps, random_state, talk, t0,
                              device=None):
    """check_kernel without forming K: spectrum estimates, exact streamed scans."""
    from .._logging import logger
    from ..solvers._kernel import SolverKernel
    from ._matfree import DaskKernelOperator, KernelOperator
    from .eta import EtaScan
    from .spectrum import matrix_free_spectrum

    threads = effective_threads(n_jobs)
    dask_x = _is_dask_array(X)
    if dask_x:
        # everything that can be told from the array's metadata is checked before any task
        # runs (a wrong y used to be refused only after the whole spectrum was computed)
        if X.ndim != 2:
            raise ParameterError(f"must be 2-D; got a dask array of shape {X.shape}.", "X")
        if any(np.isnan(v) for v in X.shape):
            raise ValueError("X is a dask array of unknown chunk sizes (after boolean "
                             "indexing?); call X.compute_chunk_sizes() first.")
        if X.shape[0] == 0 or X.shape[1] == 0:
            raise ValueError(f"X is empty (shape {X.shape}).")
        if X.dtype.kind == "c":
            raise ValueError("X is complex; the kernels take real inputs (split real and "
                             "imaginary parts into separate features if both matter).")
        if X.dtype.kind not in "biuf":
            raise ValueError(f"X holds {X.dtype} values; features must be numbers.")
        if y is not None and np.shape(y) != (X.shape[0],):
            raise ParameterError(f"must have shape ({X.shape[0]},) to match X; got "
                                 f"{np.shape(y)}.", "y")
        import dask.array as da

        bad, lowest = (v.compute() for v in (~da.isfinite(X).all(), X.min()))
        if bad:
            raise ValueError("X contains NaN or infinity; remove or impute those values.")
        sample = np.asarray(X[:2].compute(), dtype=np.float64)
    else:
        X = np.ascontiguousarray(check_finite_array(X, "X"), dtype=np.float64)
        sample, lowest = X[:2], (X.min() if X.size else 0.0)
        with np.errstate(over="ignore"):
            overflow = not np.all(np.isfinite(np.einsum("ij,ij->i", X, X)))
        if overflow:
            raise ValueError(f"X has entries so large (max |x| = {np.abs(X).max():.3g}) that "
                             "their squares overflow float64: no kernel value can be computed. "
                             "Scale X (e.g. StandardScaler) first.")
    n = int(X.shape[0])
    if n < 3:
        raise ValueError(f"The matrix-free methods need at least 3 samples; got {n}. Use "
                         "method='dense'.")
    name = kernel if callable(kernel) else canonical_name(kernel)
    if name == "precomputed":
        raise ValueError("kernel='precomputed' with X: give the matrix as K instead.")
    if not callable(kernel):
        params = _estimator_params(kernel, X, params)
    kernel_desc = {"kernel": getattr(name, "__name__", str(name)), **params}
    if name == "symmetric_kl" and lowest <= 0:
        raise ValueError("kernel='symmetric_kl' needs strictly positive inputs; X has "
                         "entries <= 0 (add a small pseudo-count and renormalise).")
    # the parameters are checked (and their defaults resolved) as for a fit
    kernel_matrix(sample, kernel=kernel, **params)
    compiled = not callable(kernel)
    if compiled:
        sk = SolverKernel.of(sample, name, params)
        kind, gamma, coef0, degree = sk.params
        compiled = sk.K is None
    labels, k, classes = None, 1, None
    if y is not None:
        y = np.asarray(y)
        if y.ndim != 1 or y.shape[0] != n:
            raise ParameterError(f"must have shape ({n},) to match X; got {y.shape}.", "y")
        check_label_vector(y)
        classes, codes = np.unique(y, return_inverse=True)
        if classes.shape[0] < 2:
            raise ValueError(f"y holds one class only ({classes[0]}); give two or more, or "
                             "no labels.")
        labels, k = codes.astype(np.int32), classes.shape[0]
    _wmw_needs_two_classes(wmw_C, 0 if labels is None else k)
    common = dict(labels=labels, n_classes=k, n_threads=threads)
    if dask_x:
        if not compiled:
            raise ValueError("A dask array X needs a named kernel with a compiled form "
                             "(linear, polynomial, rbf, sigmoid, l1_gaussian, "
                             "sqrt_l1_exponential, symmetric_kl); got "
                             f"{kernel_desc['kernel']!r}.")
        op = DaskKernelOperator(X=X, kind=kind, gamma=gamma, coef0=coef0, degree=degree,
                                **common)
    elif device is not None and device.is_cuda:
        from .._device._blocks import check_device_kernel
        from ._matfree_device import DeviceKernelOperator

        check_device_kernel(name)
        op = DeviceKernelOperator(device, X, name, params, **common)
    elif compiled:
        op = KernelOperator(X=X, kind=kind, gamma=gamma, coef0=coef0, degree=degree, **common)
    else:
        op = KernelOperator(X=X, func=lambda A, B: kernel_matrix(A, B, kernel=kernel,
                                                                   **params), **common)
    op.atol = 4.0 * np.finfo(np.float64).eps * float(np.max(np.abs(op.diag)))
    extra = None
    if labels is not None:
        counts = np.bincount(labels, minlength=k)
        extra = np.zeros((n, k))
        extra[np.arange(n), labels] = 1.0 / counts[labels]
    if talk:
        logger.info("check_kernel: matrix-free spectrum (%s) of %d samples...", method, n)
    sp = matrix_free_spectrum(op, rtol=rtol, method=method, n_probes=n_probes,
                              n_steps=n_steps, random_state=random_state, extra=extra,
                              logger=logger if talk else None)
    first = sp.details_first_pass
    e = first["eta"]
    n_pairs = n * (n - 1) // 2
    dcm, pairs, cross, cross_pairs = None, None, None, None
    if labels is not None:
        M = extra.T @ first["Kextra"]
        M = (M + M.T) / 2
        if k == 2:
            dcm = float(M[0, 0] + M[1, 1] - 2.0 * M[0, 1])
            cross, cross_pairs = int(e["cross"][0, 1]), int(counts[0] * counts[1])
        else:
            pairs = [{"classes": (str(plain_label(classes[a])), str(plain_label(classes[b]))),
                      "class_mean_sqdist": float(M[a, a] + M[b, b] - 2.0 * M[a, b]),
                      "n_cross_nonpositive": int(e["cross"][a, b])}
                     for a in range(k) for b in range(a + 1, k)]
    eta = EtaScan(n_pairs=n_pairs, n_negative=int(e["n_negative"]),
                  fraction=float(e["n_negative"] / n_pairs), n_cross_nonpositive=cross,
                  n_cross_pairs=cross_pairs,
                  worst_pair=(int(e["wi"]), int(e["wj"])) if e["wi"] >= 0 else None,
                  worst_eta=float(e["worst"]) if e["wi"] >= 0 else float("nan"),
                  atol=float(op.atol))
    n_neg_diag = int(np.count_nonzero(op.diag < -sp.tol))
    sig_region = None
    if name == "sigmoid":
        Xl = np.asarray(X) if not dask_x else np.asarray(X.compute())
        sig_region = sigmoid_region(Xl, params["gamma"], params["coef0"],
                                    y if k == 2 else None)
    wmw = None
    if wmw_C and k == 2 and not (sp.is_psd or cpd_test(sp).is_cpd):
        if dask_x or not compiled:
            raise ValueError("wmw_C with a matrix-free check needs a numpy X and a named "
                             "kernel (the SVM is trained on the fly); use wmw_C=None.")
        wmw = _named_wmw_C(_wmw_matrix_free, X, labels, wmw_C, name, params, op, threads)
    return _assemble(sp, eta, dcm, pairs, n_neg_diag, wmw, sig_region, kernel_desc,
                     thresholds, talk, t0)


def _wmw_needs_two_classes(wmw_C, n_classes: int) -> None:
    """C values given for w'Mw need the two-class SVM they train: without labels, or with
    more classes, they were taken and not used."""
    if wmw_C and n_classes != 2:
        has = "no labels y" if n_classes == 0 else f"y has {n_classes} classes"
        raise ValueError(f"wmw_C trains the two-class SVM whose w'Mw is reported, and {has}: "
                         "give two-class labels, or leave wmw_C out.")


def _wmw_matrix_free(X, labels, Cs, name, params, op, n_threads) -> dict:
    """w'Mw at each C with the kernel computed on the fly (SMO) and v'Kv by one pass."""
    from ..solvers._smo import csvc_problem, solve_duals

    yp = np.where(labels == 1, 1.0, -1.0)
    problems = [csvc_problem(yp, float(C)) for C in Cs]
    res = solve_duals(X, problems, kernel=name, kernel_params=params, n_threads=n_threads)
    V = np.column_stack([yp * r.alpha for r in res])
    KV = op.matmat(V)[0]
    out = {}
    for c, (C, r) in enumerate(zip(Cs, res, strict=True)):
        s = float(r.alpha.sum())
        # 4 (v/s)'K(v/s): (2/s)^2 alone overflows for a tiny alpha (see sanity_report)
        out[float(C)] = 4.0 * float((V[:, c] / s) @ (KV[:, c] / s)) if s > 0 else 0.0
    return out


def _named_wmw_C(fit, *args):
    """The SVMs of w'Mw, trained at the C of ``wmw_C``: an error of theirs (a C whose
    gradient overflows) names the parameter the caller gave, not the SVM's ``C``."""
    try:
        return fit(*args)
    except ValueError as exc:
        raise ValueError(f"wmw_C: {exc}") from None


def _wmw_over_C(K, y, Cs, n_threads=1) -> dict:
    """w'Mw of the SVM trained at each C (Haasdonk's criterion; > 0 for a sensible model);
    the fits are one compiled call, shared among ``n_threads`` threads."""
    from ..solvers._smo import csvc_problem, solve_duals

    yp = np.where(y == np.unique(y)[1], 1.0, -1.0)
    problems = [csvc_problem(yp, float(C)) for C in Cs]
    out = {}
    for C, res in zip(Cs, solve_duals(K, problems, check_input=False, n_threads=n_threads),
                      strict=True):
        s = float(res.alpha.sum())
        v = yp * res.alpha
        out[float(C)] = 4.0 * float((v / s) @ K @ (v / s)) if s > 0 else 0.0
    return out


def _estimator_params(kernel, X, params: dict) -> dict:
    """Kernel parameters resolved as the estimators resolve them (one resolver for every
    entry point): ``gamma`` "scale" (or "auto", or a number), ``coef0`` 0, ``degree`` 3 by
    default, other entries (``p``, ``sigma``) passed on."""
    from ..kernels import KERNELS, _coef0, canonical_name, resolve_kernel_params

    # refused as kernel_matrix refuses them: a degree given to the sigmoid is not taken
    # (an estimator's degree is ignored there, by scikit-learn's convention; a function's
    # keyword is not)
    if kernel != "precomputed":
        allowed = KERNELS[canonical_name(kernel)][1]
        unknown = sorted(set(params) - set(allowed))
        if unknown:
            raise ValueError(f"kernel={canonical_name(kernel)!r} takes parameters "
                             f"{list(allowed)}; got unexpected {unknown}: drop them.")
    if "coef0" in params:
        _coef0(params["coef0"])  # its one message, before float() gives another
    rest = dict(params)
    gamma = rest.pop("gamma", "scale")
    if gamma is None:  # the kernel functions' own spelling of 1 / n_features
        gamma = "auto"
    return resolve_kernel_params(kernel, X, gamma=gamma, coef0=rest.pop("coef0", 0.0),
                                 degree=rest.pop("degree", 3), kernel_params=rest)


def _pairwise_label_checks(K, y, classes):
    """Per pair of classes (one-vs-one): c'Kc and the opposite-label eta <= 0 count."""
    out = []
    for i in range(classes.shape[0]):
        for j in range(i + 1, classes.shape[0]):
            idx = np.flatnonzero((y == classes[i]) | (y == classes[j]))
            Kp = K[np.ix_(idx, idx)]
            yp = y[idx]
            eta = eta_scan(Kp, yp)
            out.append({"classes": (str(plain_label(classes[i])),
                                    str(plain_label(classes[j]))),
                        "class_mean_sqdist": float(class_mean_sqdist(Kp, yp)),
                        "n_cross_nonpositive": int(eta.n_cross_nonpositive)})
    return out


def _nystroem_landmarks(sp) -> int | None:
    """The landmarks a Nystroem approximation needs to see the negative part of K (see
    KernelReport.nystroem_landmarks)."""
    from ._matfree import negative_rank

    # the spectrum on the complement of e, as the negative mass of the report (the SVM's
    # bias makes the direction of e irrelevant; a sigmoid kernel has a large negative
    # eigenvalue there)
    if sp.restricted is not None:
        lam = np.asarray(sp.restricted)
        return negative_rank([(lam, np.ones_like(lam))], sp.tol)
    est = sp.details.get("negative_rank") if sp.details else None
    # an estimate from a few probes can pass the n - 1 directions there are: at most those
    return None if est is None else int(min(est, max(sp.n - 1, 1)))
