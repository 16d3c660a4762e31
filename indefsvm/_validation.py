"""Input checks shared by the solvers, the estimator and the diagnostics (private).

Every check raises ``ValueError`` naming the parameter and saying how to fix it; nothing is
silently repaired.
"""

from __future__ import annotations

import functools
import inspect
import numbers

import numpy as np
import scipy.sparse as sp
from sklearn.utils._param_validation import (
    Interval,
    InvalidParameterError,
    validate_parameter_constraints,
)

from ._solvers._checks import matrix_defects
from .exceptions import ParameterError, Said, Setting

#: relative tolerance of the symmetry check: max|K - K'| <= SYMMETRY_RTOL * max|K|
SYMMETRY_RTOL = 1e-10


def validate_rows(est, X, what: str | None = "kernel rows", **kwargs):
    """scikit-learn's ``validate_data(est, X, reset=False, **kwargs)`` for a fitted
    estimator; when the rows have the wrong width and ``what`` names its columns (kernel rows,
    distances: one column per training sample), the message says so after scikit-learn's
    words ("X has 5 features, but ... is expecting 270"), which speak of features."""
    from sklearn.utils.validation import validate_data

    try:
        return validate_data(est, X, reset=False, **kwargs)
    except ValueError as exc:
        if what is None or "is expecting" not in str(exc):
            err = objects_error(X, exc, type(est).__name__)
            if err is None:
                raise
            raise err from None
        raise ValueError(f"{str(exc).rstrip('.')}: {what} (n_samples, "
                         f"{est.n_features_in_}), one column per training sample.") from None


#: the largest index a CSR matrix of 32-bit integers holds
_INT32_MAX = np.iinfo(np.int32).max


def csr_int32(X, name: str = "X"):
    """``X`` itself, or -- a CSR matrix indexed by 64-bit integers, as scikit-learn's
    ``load_svmlight_file`` and indefsvm's ``load_libsvm`` may return one -- the same matrix
    indexed by 32-bit ones, which the compiled kernels read (the values are shared, not
    copied). A matrix past 32-bit indices (2^31 stored values or columns) is refused in one
    sentence; scikit-learn's ``SVC`` refuses every 64-bit-indexed matrix."""
    if not sp.issparse(X) or (X.indices.dtype == np.int32 and X.indptr.dtype == np.int32):
        return X
    if X.nnz > _INT32_MAX or X.shape[1] > _INT32_MAX:
        raise ValueError(f"{name} has {X.nnz} stored values in {X.shape[1]} columns: more than "
                         "32-bit indices hold, which the compiled kernels read. Train on a "
                         "part of the rows (NystroemSVC's landmarks need only those), or "
                         "drop empty columns.")
    out = sp.csr_matrix((X.data, X.indices.astype(np.int32), X.indptr.astype(np.int32)),
                        shape=X.shape)
    out.has_sorted_indices = X.has_sorted_indices
    return out


def check_finite_csr(X, name: str = "X"):
    """A sparse input as finite float64 CSR with 32-bit indices (what
    :func:`check_finite_array` checks of a dense one), for the kernels that read the stored
    values only."""
    X = csr_int32(sp.csr_matrix(X, dtype=np.float64), name)
    if X.ndim != 2 or X.shape[1] == 0:
        raise ParameterError(f"must be 2-D with at least one feature; got shape {X.shape}.",
                             name)
    if not np.all(np.isfinite(X.data)):
        raise ValueError(f"{name} contains NaN or infinity; remove or impute those values.")
    return X


def dense_rows_are_better(X) -> bool:
    """Whether a CSR matrix is best computed as dense rows: small (the dense copy under
    8 MB) and not very sparse (a quarter of the entries or more) -- BLAS rows are then as fast
    as sparse dots, and a fit equals the dense fit exactly (the SVMs' rule)."""
    n, d = X.shape
    return 8.0 * n * d <= 8 * 1048576 and X.nnz >= 0.25 * n * d


def check_kernel_matrix(K, name: str = "K", *, rtol: float = SYMMETRY_RTOL,
                        n_threads: int = 1, warn_distances: bool = False) -> np.ndarray:
    """Return ``K`` as a C-contiguous float64 square symmetric finite matrix, or raise.

    ``K`` itself is returned (no copy) when it is already float64 and C-contiguous; the
    finiteness, scale and symmetry checks are one pass over it on ``n_threads`` threads.
    ``warn_distances``: warn when ``K`` looks like a distance matrix (the entry points of
    users: estimators' fit, check_kernel, compare_remedies)."""
    if np.iscomplexobj(K):
        raise ValueError(f"{name} is complex; a kernel matrix is real (a Hermitian kernel is "
                         "not the real kernel of its parts). Pass its real part only if that "
                         "is what you mean.")
    if sp.issparse(K):
        # a kernel's missing entries are zeros (a compactly supported kernel, TL1's, is
        # sparse): read dense, as every decomposition and check here reads it
        rows, cols = K.shape
        check_memory(8.0 * rows * cols, f"{name}, a sparse {rows} x {cols} kernel matrix made "
                     "dense", "The checks and remedies read a kernel dense: at this size use "
                     "check_kernel(X=..., kernel=...) on the features (matrix-free) or a "
                     "landmark model (NystroemSVC).")
        K = K.toarray()
    try:
        K = np.asarray(K, dtype=np.float64)
    except (TypeError, ValueError) as exc:
        raise ParameterError(f"must be a numeric 2-D array: {exc}", name) from None
    if K.ndim != 2 or K.shape[0] != K.shape[1]:
        raise ParameterError(
            f"must be a square (n_samples, n_samples) kernel matrix; got shape {K.shape}.",
            name)
    if K.shape[0] == 0:
        raise ValueError(f"{name} is empty (0 samples).")
    K = np.ascontiguousarray(K)
    # one compiled pass: finiteness, scale and symmetry without n x n temporaries
    scale, asym, (i, j), finite = matrix_defects(K, n_threads)
    if not finite:
        bad = np.argwhere(~np.isfinite(K))[0]
        raise ValueError(
            f"{name} contains NaN or infinity (first at row {bad[0]}, column {bad[1]}); "
            "fix the kernel or the data that produced it."
        )
    if asym > rtol * max(scale, np.finfo(float).tiny):
        raise ValueError(
            f"{name} is not symmetric: max |K - K.T| = {asym:.3g} at ({i}, {j}), more than "
            f"rtol={rtol:g} times max |K| = {scale:.3g}. A kernel matrix must be symmetric; "
            f"if the asymmetry is numerical noise use (K + K.T) / 2."
        )
    if warn_distances:
        warn_if_distances(K, name)
    return K


def check_binary_labels(y, n_samples: int, name: str = "y") -> np.ndarray:
    """Return labels as a float64 vector of +1/-1 with both classes present, or raise."""
    y = np.asarray(y)
    if y.ndim != 1:
        raise ParameterError(f"must be 1-D; got shape {y.shape}.", name)
    if y.dtype.kind == "c":
        raise ValueError(f"{name} is complex; it must contain only -1 and +1.")
    if y.shape[0] != n_samples:
        raise ValueError(
            f"{name} has {y.shape[0]} entries but there are {n_samples} samples; "
            "they must have the same length."
        )
    try:
        yf = y.astype(np.float64)
    except (TypeError, ValueError):
        raise ParameterError("must contain only -1 and +1.", name) from None
    if yf.size == 0:
        raise ValueError(f"{name} is empty; an SVM needs samples of both classes +1 and -1.")
    values = np.unique(yf)
    if not np.all(np.isin(values, (-1.0, 1.0))):
        raise ParameterError(
            f"must contain only -1 and +1 (got values {values[:5].tolist()}); map your "
            "labels, e.g. y = np.where(labels == positive, 1, -1), or use IndefiniteSVC, which "
            "does it for you.", name)
    if values.shape[0] < 2:
        raise ValueError(
            f"{name} contains only one class ({values[0]:+g}); an SVM needs samples of both "
            "classes +1 and -1."
        )
    return np.ascontiguousarray(yf)


def check_positive(value, name: str, *, allow_inf: bool = False) -> float:
    """A real number > 0 (finite unless ``allow_inf``)."""
    if isinstance(value, bool) or not isinstance(value, numbers.Real):
        raise ParameterError(f"must be a positive number; got {value!r}.", name)
    value = float(value)
    if np.isnan(value) or value <= 0 or (np.isinf(value) and not allow_inf):
        hint = "" if allow_inf else " and finite"
        raise ParameterError(f"must be > 0{hint}; got {value!r}.", name)
    return value


def check_max_iter(max_iter, n_samples: int, default_per_sample: int = 100,
                   floor: int = 10_000_000) -> int:
    """``None`` gives the finite default max(floor, default_per_sample * n)."""
    if max_iter is None:
        return int(max(floor, default_per_sample * n_samples))
    if isinstance(max_iter, bool) or not isinstance(max_iter, numbers.Integral) or max_iter < 1:
        raise ParameterError(f"must be a positive integer or None; got {max_iter!r}.",
                             "max_iter")
    return int(max_iter)


def check_choice(value, name: str, choices) -> str:
    if value not in choices:
        raise ValueError(f"Unknown {name}={value!r}; choose one of {sorted(choices)}.")
    return value


def objects_error(X, exc: Exception, who: str, name: str = "X") -> ValueError | None:
    """The error for objects -- series of unequal lengths, strings -- given where feature
    vectors go (``exc``: NumPy's or scikit-learn's error on reading ``X`` as numbers), naming
    the way to their distances; None when ``X`` does not look like objects."""
    first = X[0] if isinstance(X, (list, tuple)) and len(X) else None
    if isinstance(first, str) or (isinstance(X, np.ndarray) and X.ndim == 1
                                  and X.dtype.kind in "USO" and X.size
                                  and isinstance(X.flat[0], str)):
        kind, metric = "strings", "levenshtein"
    elif "inhomogeneous" in str(exc) or "sequence" in str(exc):
        kind, metric = "rows of different lengths (series or other objects?)", "dtw"
    else:
        return None
    return ValueError(
        f"{name} holds {kind}; {who} takes feature vectors of one length. For series or "
        f"strings, their distances: D = indefsvm.pairwise_distances({name}, "
        f"metric='{metric}'), then a kernel of them -- make_pipeline(PairwiseDistances("
        f"'{metric}'), DistanceKernel(), IndefiniteSVC(kernel='precomputed')) -- or "
        f"NystroemSVC(metric='{metric}') at scale.")


def validate_input(estimator, X, *args, **kwargs):
    """scikit-learn's ``validate_data``, with objects given for features said as such
    (:func:`objects_error`) in place of NumPy's "inhomogeneous shape"."""
    from sklearn.utils.validation import validate_data

    try:
        return validate_data(estimator, X, *args, **kwargs)
    except ValueError as exc:
        err = objects_error(X, exc, type(estimator).__name__)
        if err is None:
            raise
        raise err from None


def objects_of_a_callable(kernel, X) -> bool:
    """Whether ``X`` goes to the callable ``kernel`` as it is given: strings, graphs, series
    of several lengths -- anything but numbers of one shape, which are checked (finite, 2-D)
    as for a named kernel. The SVMs' rule, as scikit-learn's SVC passes such X to a
    callable kernel; every kernel estimator and check follows it."""
    if not callable(kernel) or X is None or sp.issparse(X):
        return False
    try:
        values = np.asarray(X)
    except (TypeError, ValueError):
        return True  # a ragged list: series of several lengths
    return values.dtype.kind in "OUSV"


def kernel_input(estimator, X, *y, reset: bool = True, **kwargs):
    """``validate_input`` (``reset=True``: a fit; ``y`` given there is validated with X) or
    ``validate_rows`` (a fitted model's input) of the data of an estimator that computes a
    kernel of X; where its kernel is a callable and X objects
    (:func:`objects_of_a_callable`), X goes as given (and y as an array of its length) --
    the SVMs' rule."""
    if not objects_of_a_callable(estimator.kernel, X):
        if reset:
            return validate_input(estimator, X, *y, reset=True, **kwargs)
        return validate_rows(estimator, X, None, **kwargs)
    if reset and "n_features_in_" in vars(estimator):
        del estimator.n_features_in_  # a previous fit's, on vectors
    if not y:
        return X
    from sklearn.utils.validation import _num_samples

    if y[0] is None:  # scikit-learn's words
        raise ValueError(f"{type(estimator).__name__} requires y to be passed, but the "
                         "target y is None.")
    labels = np.asarray(y[0])
    if labels.ndim != 1 or labels.shape[0] != _num_samples(X):
        raise ValueError(f"X and y have incompatible shapes: X has {_num_samples(X)} "
                         f"samples, but y has shape {labels.shape}.")
    return X, labels


def check_finite_array(X, name: str = "X") -> np.ndarray:
    """Return ``X`` as a C-contiguous float64 2-D array with at least one feature and finite
    entries, or raise. A scipy sparse matrix (or array) is made dense: the callers form a
    dense kernel matrix from it anyway, which is larger than X. Complex inputs are refused
    (a kernel of complex vectors is not the real kernel of their parts)."""
    if sp.issparse(X):
        X = X.toarray()
    try:
        complex_ = np.iscomplexobj(X)
        X = X if complex_ else np.asarray(X, dtype=np.float64)
    except (TypeError, ValueError) as exc:
        err = objects_error(X, exc, "a kernel of features", name)
        raise (err or ValueError(f"{name} must be a numeric 2-D array: {exc}")) from None
    if complex_:
        raise ValueError(f"{name} is complex; the kernels take real inputs (split real and "
                         "imaginary parts into separate features if both matter).")
    if X.ndim != 2:
        raise ParameterError(f"must be 2-D (n_samples, n_features); got shape {X.shape}.",
                             name)
    if X.shape[1] == 0:
        raise ValueError(f"{name} has 0 features (shape {X.shape}); at least one is required.")
    if not np.all(np.isfinite(X)):
        raise ValueError(f"{name} contains NaN or infinity; remove or impute those values.")
    return np.ascontiguousarray(X)


def available_memory() -> float | None:
    """Bytes of memory available to a new allocation: Linux' MemAvailable, and no more than
    the address space the process may still take (``ulimit -v``, RLIMIT_AS, less what it
    maps now), or None when neither is known."""
    avail = None
    try:
        with open("/proc/meminfo") as fh:
            for line in fh:
                if line.startswith("MemAvailable:"):
                    avail = float(line.split()[1]) * 1024.0
                    break
    except OSError:
        pass
    room = _address_space_left()
    if room is not None:
        avail = room if avail is None else min(avail, room)
    return avail


def _address_space_left() -> float | None:
    """Bytes the process may still map under RLIMIT_AS (``ulimit -v``), or None without a
    limit: MemAvailable alone said 20 GiB where a 2 GiB limit made the allocation fail."""
    try:
        import resource

        soft, _ = resource.getrlimit(resource.RLIMIT_AS)
    except (ImportError, OSError, ValueError):
        return None
    if soft == resource.RLIM_INFINITY or soft <= 0:
        return None
    try:
        with open("/proc/self/status") as fh:
            for line in fh:
                if line.startswith("VmSize:"):
                    return max(0.0, float(soft) - float(line.split()[1]) * 1024.0)
    except OSError:
        pass
    return float(soft)


#: the scalers a message about the features' range names, as a slot ``{scale}`` of its
#: rule (``values=SCALERS``): scikit-learn's here, the command line's ``--scale`` there
SCALERS = {"scale": Setting("scale", words="StandardScaler, MinMaxScaler")}


class MemoryShortage(Said, MemoryError):
    """A MemoryError said before the allocation (:func:`check_memory`), its settings named
    by slots (``{n_restarts}``) so that a caller says them its way."""


def check_memory(n_bytes: float, what: str, hint: str, values: dict | None = None) -> None:
    """Raise MemoryError saying what needs how much, what is available and what to do, when
    ``n_bytes`` is more than the memory available -- before the allocation, instead of an
    out-of-memory kill halfway through. ``values``: the parameters ``what`` names by
    slots (``{n_restarts}``) and their values."""
    avail = available_memory()
    if avail is not None and n_bytes > avail:
        raise MemoryShortage(
            f"{what} needs about {n_bytes / 2**30:.1f} GiB of memory and "
            f"{avail / 2**30:.1f} GiB "
            f"are available. {hint}", None, None, values)


#: distances beyond this have squares that overflow float64, below its inverse squares that
#: underflow (exp(-gamma d^2), the median rule 1 / median(d^2), Schoenberg's D^2)
DISTANCE_SCALE_MAX = 1e150


def check_distance_scale(D, name: str = "D") -> None:
    """Distances whose squares are finite and not all lost to underflow, or a ValueError
    naming ``name`` and the fix (a constant factor: the median-rule kernel is unchanged by
    it)."""
    top = float(np.max(D)) if np.size(D) else 0.0
    if top > DISTANCE_SCALE_MAX:
        raise ValueError(f"{name} holds distances up to {top:.3g}: their squares overflow "
                         "float64 (d^2 in exp(-gamma d^2), the median rule). Divide the "
                         "distances by a constant, e.g. D / np.median(D): the kernel with the "
                         "median rule is the same.")
    if 0.0 < top < 1.0 / DISTANCE_SCALE_MAX:
        raise ValueError(f"{name} holds distances of at most {top:.3g}: their squares "
                         "underflow float64 (every d^2 would be 0). Multiply the distances by "
                         "a constant, e.g. D / np.max(D): the kernel with the median rule is "
                         "the same.")


#: what a matrix of distances with negative entries may be instead, in Python's words
NOT_DISTANCES = ("Is it a similarity or a kernel? Then pass it as a kernel "
                 "(kernel='precomputed'), not as distances.")


def check_distance_matrix(D, name: str = "D", *, square: bool = True,
                          rtol: float = SYMMETRY_RTOL, axioms: bool = True,
                          instead: str = NOT_DISTANCES) -> np.ndarray:
    """Return distances as a C-contiguous float64 matrix, finite and ``>= 0`` (square and
    symmetric when ``square``), or raise naming ``name`` and the first bad entry.
    ``axioms=False`` leaves non-negativity and symmetry to the caller (check_distances
    reports them instead of refusing); ``instead``: what to say a matrix with a negative
    entry may be, and how to pass it (a caller's own words: the command line's options)."""
    if sp.issparse(D):
        raise ValueError(f"{name} is a sparse matrix; distances are dense (a missing entry "
                         "is not a distance of 0): pass D.toarray().")
    if np.iscomplexobj(D):
        raise ValueError(f"{name} is complex; distances are real numbers >= 0.")
    try:
        D = np.asarray(D, dtype=np.float64)
    except (TypeError, ValueError) as exc:
        raise ParameterError(f"must be a numeric 2-D array of distances: {exc}",
                             name) from None
    if D.ndim != 2:
        raise ParameterError(f"must be a 2-D array of distances; got shape {D.shape}.", name)
    if D.size == 0:
        raise ValueError(f"{name} is empty (shape {D.shape}).")
    D = np.ascontiguousarray(D)
    if not np.all(np.isfinite(D)):
        bad = np.argwhere(~np.isfinite(D))[0]
        raise ValueError(f"{name} contains NaN or infinity (first at row {bad[0]}, column "
                         f"{bad[1]}); a distance is a finite number >= 0.")
    if axioms and D.min() < 0:
        bad = np.unravel_index(np.argmin(D), D.shape)
        raise ValueError(f"Negative values in data passed as {name}: the smallest is "
                         f"{D[bad]:.4g} at row {bad[0]}, column {bad[1]}; distances are >= 0. "
                         + instead)
    if square and D.shape[0] != D.shape[1]:
        raise ParameterError(f"must be a square (n, n) matrix of distances; got shape "
                             f"{D.shape}.", name)
    if square and axioms:
        scale, asym, (i, j), _ = matrix_defects(D, 1)
        if asym > rtol * max(scale, np.finfo(float).tiny):
            raise ValueError(
                f"{name} is not symmetric: max |D - D.T| = {asym:.3g} at ({i}, {j}), more "
                f"than rtol={rtol:g} times max |D| = {scale:.3g}. Distance-substitution "
                "kernels need d(x, z) = d(z, x): symmetrise an asymmetric dissimilarity "
                "first, e.g. (D + D.T) / 2 or np.maximum(D, D.T).")
    return D


def looks_like_distances(K: np.ndarray) -> bool:
    """True for a square matrix with a zero diagonal, no negative entry and a positive one:
    the pattern of a distance matrix. A kernel never has it (k(x, x) = 0 with k(x, z) >= 0
    for all z is impossible for a PSD kernel unless K = 0, and rare for any similarity)."""
    if K.ndim != 2 or K.shape[0] != K.shape[1] or K.shape[0] < 2:
        return False
    diag = np.diagonal(K)
    # the O(n) test first: a kernel's diagonal is almost never zero
    if np.any(diag != 0.0):
        return False
    return bool(K.min() >= 0.0 and K.max() > 0.0)


def user_stacklevel() -> int:
    """The stacklevel of the first frame outside this package, so that a warning points at
    the user's line whatever the depth of the call inside indefsvm (or scikit-learn)."""
    import os
    import sys

    roots = (os.path.dirname(os.path.abspath(__file__)),)
    try:
        import sklearn

        roots += (os.path.dirname(os.path.abspath(sklearn.__file__)),)
    except ImportError:  # pragma: no cover - a dependency
        pass
    frame, level = sys._getframe(1), 1
    while frame is not None and os.path.abspath(frame.f_code.co_filename).startswith(roots):
        frame, level = frame.f_back, level + 1
    return level


def warn_if_distances(K: np.ndarray, name: str = "K") -> None:
    """Warn (``DistanceMatrixWarning``) when a kernel argument looks like a distance matrix,
    with the one line that turns distances into a kernel."""
    if looks_like_distances(K):
        from ._warn import warn
        from .exceptions import DistanceMatrixWarning

        warn(
            f"{name} looks like a distance matrix, not a kernel: its diagonal is 0 and no "
            "entry is negative (a kernel is largest for similar objects, k(x, x) >= k(x, z)). "
            "Training on distances gives a meaningless model. Turn them into a kernel first: "
            "K = indefsvm.DistanceKernel().fit_transform(D)  (exp(-gamma D**2), gamma by the "
            "median rule); indefsvm.diagnostics.check_distances(D) says whether that kernel "
            "is PSD.", DistanceMatrixWarning, stacklevel=user_stacklevel())


def plain_label(value):
    """A class label as people write it: 1 and -1, not 1.0 or np.float64(-1.0) (labels read
    from LIBSVM files and text come as floats)."""
    value = value.item() if hasattr(value, "item") else value
    if isinstance(value, float) and value.is_integer():
        return int(value)
    return value


def check_kernel_rows(R, n_train: int, name: str = "X") -> np.ndarray:
    """Kernel rows ``k(x, x_train)`` of test samples: a real finite float64 matrix with one
    column per training sample, or ``ValueError`` naming ``name``."""
    if np.iscomplexobj(R):
        raise ValueError(f"{name} is complex; kernel rows are real numbers.")
    try:
        R = np.asarray(R, dtype=np.float64)
    except (TypeError, ValueError):
        raise ParameterError(f"must be a numeric (n_samples, {n_train}) array of kernel "
                             "values.", name) from None
    if R.ndim != 2 or R.shape[1] != n_train:
        raise ParameterError(f"must hold kernel rows (n_samples, {n_train}): one column per "
                             f"training sample; got shape {R.shape}.", name)
    if not np.all(np.isfinite(R)):
        bad = np.argwhere(~np.isfinite(R))[0]
        raise ValueError(f"{name} contains NaN or infinity (first at row {bad[0]}, column "
                         f"{bad[1]}); kernel rows must be finite.")
    return R


def kernel_fit_input(estimator, X, name: str = "X (training kernel)", *,
                     warn_distances: bool = False) -> np.ndarray:
    """A training kernel matrix given to ``estimator.fit``: scikit-learn's checks and
    messages first (sparse, complex, object, empty, 1-D input; ``n_features_in_`` set to the
    number of training samples), then :func:`check_kernel_matrix`'s (square, finite --
    naming the first bad entry --, symmetric)."""
    from sklearn.utils.validation import validate_data

    X = validate_data(estimator, X, dtype=np.float64, reset=True, ensure_all_finite=False)
    if X.shape[0] != X.shape[1] and not np.all(np.isfinite(X)):
        # the first defect a user would fix: said before the shape
        bad = np.argwhere(~np.isfinite(X))[0]
        raise ValueError(f"{name} contains NaN or infinity (first at row {bad[0]}, column "
                         f"{bad[1]}); fix the kernel or the data that produced it.")
    return check_kernel_matrix(X, name, warn_distances=warn_distances)


def kernel_rows_input(estimator, R, n_train: int, name: str = "X") -> np.ndarray:
    """Kernel rows given to a fitted estimator: scikit-learn's checks and messages (the
    number of columns against ``n_features_in_`` where the model has it; a model saved
    before it was set is checked by ``n_train``), then :func:`check_kernel_rows`'s."""
    from sklearn.utils.validation import check_array, validate_data

    given = R  # its feature names (a DataFrame's columns) are checked against fit's below
    R = check_array(R, dtype=np.float64, ensure_all_finite=False, input_name=name)
    if not np.all(np.isfinite(R)):
        # the first defect a user would fix: said before the number of columns
        bad = np.argwhere(~np.isfinite(R))[0]
        raise ValueError(f"{name} contains NaN or infinity (first at row {bad[0]}, column "
                         f"{bad[1]}); kernel rows must be finite.")
    if R.shape[1] != n_train:
        # scikit-learn's wording, then ours
        raise ValueError(f"{name} has {R.shape[1]} features, but {type(estimator).__name__} "
                         f"is expecting {n_train} features as input: kernel rows "
                         f"(n_samples, {n_train}), one column per training sample.")
    R = validate_data(estimator, given, dtype=np.float64, reset=False, ensure_all_finite=False)
    return check_kernel_rows(R, n_train, name)


def check_seed(random_state, name: str = "random_state"):
    """``random_state`` as numpy's ``default_rng`` takes it (None, an int >= 0, a sequence of
    ints, a SeedSequence, a Generator or a RandomState's bit generator), or ValueError."""
    if isinstance(random_state, np.random.RandomState):
        return np.random.default_rng(random_state.randint(2**31 - 1))
    seed_is_valid(random_state, name)
    return np.random.default_rng(random_state)


def seed_is_valid(random_state, name: str = "random_state") -> None:
    """What :func:`check_seed` refuses, refused without drawing from it (a RandomState
    passed on is left as it was): for a function that draws only on some paths."""
    ok = (random_state is None
          or (isinstance(random_state, numbers.Integral) and not isinstance(random_state, bool)
              and random_state >= 0)
          or isinstance(random_state, (np.random.Generator, np.random.SeedSequence,
                                       np.random.BitGenerator, np.random.RandomState)))
    if not ok:
        raise ParameterError(f"must be None, a whole number >= 0 or a numpy Generator; got "
                             f"{random_state!r}.", name)


def check_real(value, name: str, *, finite: bool = True) -> float:
    """A real number (a NumPy scalar or 0-d array too; not a bool), finite unless told."""
    if isinstance(value, np.ndarray) and value.ndim == 0:
        value = value[()]
    if isinstance(value, bool) or not isinstance(value, numbers.Real):
        raise ParameterError(f"must be a real number; got {value!r}.", name)
    value = float(value)
    if np.isnan(value) or (finite and np.isinf(value)):
        raise ParameterError(f"must be a finite number; got {value!r}.", name)
    return value


def check_vector(v, name: str, n: int | None = None, *, finite: bool = True) -> np.ndarray:
    """``v`` as a float64 vector (of length ``n`` when given) of finite real entries."""
    if v is None or isinstance(v, (str, bytes)):
        raise ParameterError(f"must be a 1-D array of numbers; got {type(v).__name__}.",
                             name)
    if np.iscomplexobj(v):
        raise ValueError(f"{name} is complex; it must hold real numbers.")
    try:
        v = np.asarray(v, dtype=np.float64)
    except (TypeError, ValueError) as exc:
        raise ParameterError(f"must be a 1-D array of numbers: {exc}", name) from None
    if v.ndim != 1:
        raise ParameterError(f"must be 1-D; got shape {v.shape}.", name)
    if n is not None and v.shape[0] != n:
        raise ValueError(f"{name} has {v.shape[0]} entries but there are {n} samples; they "
                         "must have the same length.")
    if finite and not np.all(np.isfinite(v)):
        raise ValueError(f"{name} contains NaN or infinity.")
    return v


def check_label_vector(y, name: str = "y", n: int | None = None):
    """Class labels of any kind, 1-D, of length ``n`` when given: NaN and complex refused
    (as scikit-learn refuses them in a classifier's y)."""
    if y is None or isinstance(y, (str, bytes)):
        raise ParameterError(f"must be a 1-D array of class labels; got "
                             f"{type(y).__name__}.", name)
    y = np.asarray(y)
    if y.ndim != 1:
        raise ParameterError(f"must be 1-D (one label per sample); got shape {y.shape}.",
                             name)
    if n is not None and y.shape[0] != n:
        raise ValueError(f"{name} has {y.shape[0]} entries but there are {n} samples; they "
                         "must have the same length.")
    if y.dtype.kind == "c":
        raise ValueError(f"{name} is complex; class labels must be real numbers or strings.")
    if y.dtype.kind == "f" and not np.all(np.isfinite(y)):
        raise ValueError(f"{name} contains NaN or infinity; every sample needs a class label.")
    return y


def check_generator(rng, name: str = "rng"):
    """A numpy Generator or RandomState as given, or what :func:`check_seed` turns into a
    Generator (None, a seed)."""
    if isinstance(rng, (np.random.Generator, np.random.RandomState)):
        return rng
    return check_seed(rng, name)


def check_pm1_labels(y, name: str = "y") -> np.ndarray:
    """Labels +1 / -1 of both classes, 1-D, as float64: :func:`check_binary_labels` for a
    caller that has no other array to take the length from."""
    if y is None or isinstance(y, (str, bytes)) or np.ndim(y) != 1:
        raise ParameterError(f"must be a 1-D array of labels +1 / -1; got "
                             f"{type(y).__name__} of shape {np.shape(y)}.", name)
    return check_binary_labels(y, len(y), name)


# The options of the public functions, in scikit-learn's language (the estimators' own are in
# _constraints): a wrong type or range is one InvalidParameterError (a ValueError and a
# TypeError) naming the parameter, the function and what it takes, before any work. The
# arrays are left to the checks above, whose words say more (shape, first bad entry).
REAL = Interval(numbers.Real, None, None, closed="neither")
NONNEG = Interval(numbers.Real, 0, None, closed="left")
POS = Interval(numbers.Real, 0, None, closed="neither")
POS_INT = Interval(numbers.Integral, 1, None, closed="left")
NONNEG_INT = Interval(numbers.Integral, 0, None, closed="left")
#: what check_seed takes
SEED = [None, NONNEG_INT, np.random.Generator, np.random.RandomState, np.random.SeedSequence,
        np.random.BitGenerator]
#: None, a positive count, or a negative one (joblib's -1: all cores); 0 means nothing and
#: is refused here, where every estimator and function checks it, before any work
N_JOBS = [Interval(numbers.Integral, 1, None, closed="left"),
          Interval(numbers.Integral, None, -1, closed="right"), None]
MAX_ITER = [POS_INT, None]


class ConstraintError(ParameterError, InvalidParameterError):
    """scikit-learn's constraint error (its class and its words: "The 'C' parameter of
    IndefiniteSVC must be ..."), carrying the parameter it is about, as every
    :class:`~indefsvm.exceptions.ParameterError` does."""


def validate_constraints(constraints: dict, params: dict, caller_name: str) -> None:
    """scikit-learn's ``validate_parameter_constraints``, one parameter at a time (as it
    goes itself), so that the error says which parameter failed by its ``param``
    (:class:`ConstraintError`) and not only in its message."""
    for name, value in params.items():
        if name not in constraints:
            continue
        try:
            validate_parameter_constraints({name: constraints[name]}, {name: value},
                                           caller_name=caller_name)
        except InvalidParameterError as exc:
            subject = f"The {name!r} parameter of {caller_name}"
            text = str(exc)
            if not text.startswith(subject + " "):
                raise  # another scikit-learn's words: its own error, whole
            raise ConstraintError(text[len(subject) + 1:], name, subject) from None


def options_checked(constraints: dict):
    """scikit-learn's parameter validation on the options a call of a public function
    gives (its words: "The 'wss' parameter of smo must be a str among ..."), skipped where
    scikit-learn's config says so (inside an estimator's fit, whose own constraints have
    run). Lighter than ``validate_params``, which costs ~150 us a call (the signature read
    again, a config context entered): this one reads the signature once and checks only
    the options given; the defaults are checked once by the tests
    (``tests/test_odd_arguments.py``). Calls inside are validated as ever."""
    from sklearn import get_config

    def decorate(func):
        sig = inspect.signature(func)

        @functools.wraps(func)
        def wrapper(*args, **kwargs):
            if not get_config()["skip_parameter_validation"]:
                given = sig.bind(*args, **kwargs).arguments
                validate_constraints(
                    constraints, {k: v for k, v in given.items() if k in constraints},
                    caller_name=func.__qualname__)
            return func(*args, **kwargs)

        wrapper._skl_parameter_constraints = constraints
        return wrapper

    return decorate
