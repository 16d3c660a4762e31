"""Distances between objects: :func:`pairwise_distances` and :class:`PairwiseDistances`."""

from __future__ import annotations

import numbers
import time
from collections.abc import Callable, Mapping

import numpy as np
from scipy.spatial.distance import cdist
from sklearn.base import BaseEstimator, TransformerMixin, _fit_context
from sklearn.utils._param_validation import Interval
from sklearn.utils.validation import check_array, check_is_fitted, validate_data

from .._device import is_device_array, resolve_device, to_numpy
from .._logging import REPORT_EVERY, enable, logger
from .._metrics import REGISTRY, get, objects_of, resolve, takes
from .._tags import TrainingColumns
from .._threads import effective_threads
from .._validation import (
    N_JOBS,
    check_memory,
    options_checked,
)
from ..exceptions import ParameterError
from ._dtw import dtw_pairs
from ._objects import (
    as_objects,
    as_series,
    as_strings,
    as_vectors,
    check_finite_distances,
    from_pandas,
    same_width,
)

__all__ = ["METRICS", "PairwiseDistances", "pairwise_distances"]

class _MetricParams(Mapping):
    """The metric table (``indefsvm._metrics``) as ``{name: the parameters it takes}``, read
    live: a registered metric is in it."""

    def __getitem__(self, name):
        return REGISTRY[name].params

    def __iter__(self):
        return iter(REGISTRY)

    def __len__(self):
        return len(REGISTRY)

    def __repr__(self):
        return repr(dict(self))


#: the metric names and the parameters each takes
METRICS = _MetricParams()

#: rows of strings given to rapidfuzz at a time (Ctrl-C and progress between blocks)
_STRING_BLOCK = 256


def _check_window(window):
    if window is None:
        return -1.0
    if (isinstance(window, bool) or not isinstance(window, numbers.Real)
            or not 0 <= window <= 1):
        learn = (" A window learned from labelled series: "
                 "indefsvm.distances.learn_window(S, y).window." if isinstance(window, str)
                 else "")
        if not isinstance(window, bool) and isinstance(window, numbers.Real) and window > 1:
            # tslearn's sakoe_chiba_radius and dtaidistance's window count points
            learn = (f" A band of {window:g} points is window={window:g} / the series length "
                     "(tslearn's sakoe_chiba_radius counts points; this window is a share, "
                     "as aeon's).")
        raise ParameterError(f"must be None (no band) or a number in [0, 1] (the "
                             f"Sakoe-Chiba band's radius as a share of the series length; 0 is "
                             f"the Euclidean distance); got {window!r}.{learn}", "window")
    return float(window)


#: the largest edit weight (weight x string length must fit in a 64-bit integer)
_MAX_EDIT_WEIGHT = 2**31 - 1


def _check_weights(weights):
    if weights is None:
        return (1, 1, 1)
    try:
        w = tuple(weights)
    except TypeError:
        w = ()
    if len(w) != 3 or not all(isinstance(v, numbers.Integral) and not isinstance(v, bool)
                              and v >= 0 for v in w) or not any(w):
        raise ParameterError(f"must be three whole numbers >= 0 (insertion, deletion, "
                             f"substitution), not all zero; got {weights!r}.", "weights")
    if w[0] != w[1]:
        # d(a, b) would cost insertions where d(b, a) costs deletions: not a distance
        raise ValueError(f"weights={weights!r}: insertion and deletion must cost the same, "
                         "or the edit distance is not symmetric (d('ab', 'abcd') != "
                         "d('abcd', 'ab')) and no distance kernel can be made of it; give "
                         f"weights=({w[0]}, {w[0]}, {w[2]}) or ({w[1]}, {w[1]}, {w[2]}).")
    if max(w) > _MAX_EDIT_WEIGHT:
        raise ValueError(f"weights={weights!r}: each weight must be at most 2**31 - 1, so that "
                         "a distance between strings of up to 2**31 characters stays within "
                         "64-bit integers; only their ratios matter: divide them by a common "
                         "factor.")
    return tuple(int(v) for v in w)


#: other libraries' names of DTW's band, as their users type them here
_PEER_NAMES = {
    "sakoe_chiba_radius": "tslearn's sakoe_chiba_radius counts points: here the band is "
                          "window=radius / the series length (a share of it, in [0, 1]).",
    "radius": "A band's radius in points is window=radius / the series length here (a share "
              "of it, in [0, 1]).",
    "global_constraint": "The band here is always Sakoe-Chiba's (tslearn's "
                         "global_constraint='sakoe_chiba'): give its width as window; "
                         "Itakura's parallelogram is not offered.",
    "band": "The Sakoe-Chiba band is window here: its radius as a share of the series length.",
    "sakoe_chiba_window": "The Sakoe-Chiba band is window here: its radius as a share of the "
                          "series length.",
}


def _check_params(metric, params: dict) -> dict:
    if callable(metric):
        return params
    row = get(metric)
    if row is None:
        raise ValueError(f"Unknown metric={metric!r}; choose one of {sorted(METRICS)} or give "
                         "a callable d(a, b) -> float (or add one: "
                         "indefsvm.register_metric).")
    unknown = sorted(set(params) - set(row.params))
    if unknown:
        takes = ", ".join(row.params) or "no parameters"
        peers = [_PEER_NAMES[p] for p in unknown if p in _PEER_NAMES and "window" in takes]
        raise ValueError(f"metric={metric!r} takes {takes}; got unknown parameter(s) "
                         f"{unknown}." + "".join(f" {p}" for p in peers))
    check = resolve(row.check)
    if check is not None:
        check(dict(params))  # at fit, not first at transform
    return params


def _dtw_params(params: dict) -> dict:
    """DTW's band checked: ``window`` -1 (no band) or a share in [0, 1]."""
    return {"window": _check_window(params.get("window"))}


def _levenshtein_params(params: dict) -> dict:
    """The edit weights checked and made whole numbers."""
    return {"weights": _check_weights(params.get("weights"))}


class _Progress:
    """Progress lines every few seconds on the ``indefsvm`` logger (with ``verbose``)."""

    def __init__(self, verbose, what: str):
        self.on = enable(verbose)
        self.what = what
        self.t0 = self.last = time.perf_counter()

    def __call__(self, done: int, total: int) -> None:
        now = time.perf_counter()
        if self.on and (now - self.last >= REPORT_EVERY or done == total):
            self.last = now
            logger.info("%s: %d of %d pairs, %.1f s", self.what, done, total, now - self.t0)


def _dtw(metric, X, Y, params, threads, progress):
    same = Y is None
    A = as_series(X, "X")
    B = A if same else as_series(Y, "Y")
    if B.n_channels != A.n_channels:
        raise ValueError(f"X has {A.n_channels} channels and Y has {B.n_channels}; DTW "
                         "compares series with the same channels.")
    out = np.zeros((A.n, B.n))
    dtw_pairs(A.points, A.offsets, B.points, B.offsets, same,
              _dtw_params(params)["window"], out, threads, progress)
    return out


def _levenshtein(metric, X, Y, params, threads, progress):
    from rapidfuzz.distance import Levenshtein
    from rapidfuzz.process import cdist as rf_cdist

    weights = _levenshtein_params(params)["weights"]
    A = as_strings(X, "X")
    B = A if Y is None else as_strings(Y, "Y")
    out = np.empty((len(A), len(B)))
    for r0 in range(0, len(A), _STRING_BLOCK):
        r1 = min(len(A), r0 + _STRING_BLOCK)
        out[r0:r1] = rf_cdist(A[r0:r1], B, scorer=Levenshtein.distance,
                              scorer_kwargs={"weights": weights}, dtype=np.int64,
                              workers=threads)
        progress(r1 * len(B), len(A) * len(B))
    return out


def _vectors(metric, X, Y, tiny_check: bool):
    """scipy's ``cdist`` for the vector metrics of the table (its own metric names)."""
    A = as_vectors(X, "X")
    B = A if Y is None else as_vectors(Y, "Y")
    same_width(A, B, metric)
    if tiny_check:
        _check_not_tiny(A, B)
    out = cdist(A, B, metric=metric)
    check_finite_distances(out, metric, A, B)
    if Y is None:
        np.fill_diagonal(out, 0.0)
    return out


def _euclidean(metric, X, Y, params, threads, progress):
    return _vectors(metric, X, Y, tiny_check=True)


def _cityblock(metric, X, Y, params, threads, progress):
    return _vectors(metric, X, Y, tiny_check=False)


def _as_kind(X, objects: str, name: str, metric: str):
    """Objects checked for their kind, as a registered metric's function receives them:
    series as a list of float arrays (1-D, or (n_channels, length)), strings as a list,
    vectors as a 2-D array."""
    if objects == "strings":
        return as_strings(X, name)
    if objects == "vectors":
        return as_vectors(X, name)
    S = as_series(X, name, metric)
    return [S.points[a:b, 0] if S.n_channels == 1 else S.points[a:b].T
            for a, b in zip(S.offsets[:-1], S.offsets[1:], strict=True)]


def _checked_registered(metric, function, objects, X, Y, params, progress):
    """A registered metric's function on objects checked for its kind; its result checked
    (shape, finite, >= 0) and, for the training matrix, its diagonal set to 0."""
    A = _as_kind(X, objects, "X", metric)
    B = A if Y is None else _as_kind(Y, objects, "Y", metric)
    if objects == "vectors":
        same_width(A, B, metric)
    out = np.array(function(A, B, **params), dtype=np.float64)
    if out.shape != (len(A), len(B)):
        raise ValueError(f"metric {metric!r} returned an array of shape {out.shape} for "
                         f"{len(A)} and {len(B)} objects; a distance matrix is "
                         f"({len(A)}, {len(B)}).")
    bad = ~np.isfinite(out) | (out < 0)
    if np.any(bad):
        i, j = np.argwhere(bad)[0]
        raise ValueError(f"metric {metric!r} returned {float(out[i, j])!r} for X[{i}] and "
                         f"{'X' if Y is None else 'Y'}[{j}]; a distance is a finite number "
                         ">= 0.")
    if Y is None:
        np.fill_diagonal(out, 0.0)
    progress(out.size, out.size)
    return out


def _callable_rows(metric, A, B, rows, same, params):
    out = np.empty((len(rows), len(B)))
    for k, i in enumerate(rows):
        for j in range(i if same else 0, len(B)):
            v = metric(A[i], B[j], **params)
            # a number, not something NumPy would turn into one ("1.5", True)
            if isinstance(v, (bool, np.bool_)) or not isinstance(
                    v, (numbers.Real, np.floating, np.integer)):
                raise ValueError(
                    f"metric {getattr(metric, '__name__', metric)!r} returned {v!r} "
                    f"({type(v).__name__}) for X[{i}] and {'X' if same else 'Y'}[{j}]; a "
                    "distance is a number (an int or a float).")
            out[k, j] = v
    return out


def _callable(metric, X, Y, same, threads, params, progress):
    from joblib import Parallel, delayed

    A = as_objects(X, "X")
    B = A if same else as_objects(Y, "Y")
    blocks = np.array_split(np.arange(len(A)), max(1, min(len(A), 4 * threads)))
    out = np.empty((len(A), len(B)))
    # processes, not threads: a Python metric holds the GIL
    parts = Parallel(n_jobs=threads, return_as="generator")(
        delayed(_callable_rows)(metric, A, B, rows, same, params) for rows in blocks)
    done = 0
    for rows, part in zip(blocks, parts, strict=True):
        out[rows] = part
        done += len(rows) * len(B)
        progress(done, len(A) * len(B))
    if same:
        _mirror_upper(out)
    bad = ~np.isfinite(out) | (out < 0)
    if np.any(bad):
        i, j = np.argwhere(bad)[0]
        raise ValueError(f"metric {getattr(metric, '__name__', metric)!r} returned "
                         f"{float(out[i, j])!r} for X[{i}] and {'X' if same else 'Y'}[{j}]; a "
                         "distance is a finite number >= 0.")
    return out


@options_checked({"metric": [str, callable], "n_jobs": N_JOBS, "verbose": ["verbose"]})
def pairwise_distances(X, Y=None, *, metric: str | Callable = "dtw", n_jobs: int | None = None,
                       verbose: bool = False, device=None, **params) -> np.ndarray:
    """Distances between every object of ``X`` and every object of ``Y``.

    Parameters
    ----------
    X : array-like or list
        The objects. For ``"dtw"``: a 2-D array ``(n_series, n_timepoints)``, a 3-D array
        ``(n_series, n_channels, n_timepoints)`` (aeon's layout) or a list of 1-D / 2-D
        ``(n_channels, n_timepoints_i)`` arrays of any lengths. For ``"levenshtein"``: a list
        of strings. For ``"euclidean"`` and ``"cityblock"``: a 2-D array (a 3-D array of series
        is flattened). For a callable: anything it takes (the rows of an array, the items of a
        list). pandas containers as pandas users hold them: a DataFrame is its rows, a Series
        its entries (strings, or arrays of any lengths).
    Y : same as X, optional
        ``None``: ``X`` against itself -- each unordered pair is computed once and mirrored,
        and the diagonal is 0 (for a callable, ``d(x, x)`` is evaluated).
    metric : str or callable, default="dtw"
        A name of the metric table (:data:`~indefsvm.distances.METRICS`: ``"dtw"``,
        ``"levenshtein"``, ``"gak"``, ``"msm"``, ``"euclidean"``, ``"cityblock"``; a metric added by
        :func:`~indefsvm.register_metric` is one), or a callable. ``"dtw"``: dynamic time warping,
        the square root of the smallest sum of squared point differences (squared Euclidean
        distances between points of several channels) along a warping path (Sakoe & Chiba 1978),
        i.e. aeon's and tslearn's ``dtw`` with its square root taken, so that ``window=0`` is the
        Euclidean distance. ``"levenshtein"``: the edit distance with unit costs (Levenshtein 1966)
        over Unicode code points, computed by rapidfuzz. ``"gak"``: the distance the global
        alignment kernel induces (:func:`~indefsvm.kernel_matrix`). ``"msm"``: move-split-merge
        (Stefan, Athitsos & Das 2013), a metric, aeon's ``msm_distance`` (several channels: the sum
        of each one's). ``"euclidean"``, ``"cityblock"``: scipy's. A callable ``d(a, b, **params)``
        must return a finite number ``>= 0`` (an int or a float: a string or a bool is refused); it
        is assumed symmetric when ``Y`` is None. (The landmark features of ``KreinNystroem`` /
        ``NystroemSVC`` evaluate both orders and ``d(x, x)`` on their landmarks and warn where the
        callable breaks those rules.)
    n_jobs : int, optional
        Threads for DTW (OpenMP) and Levenshtein (rapidfuzz), processes for a callable
        (joblib); ``None`` is 1 unless a joblib context says otherwise, ``-1`` all cores. The
        values do not depend on it.
    verbose : bool, default=False
        Log the progress every few seconds (``logging.getLogger("indefsvm")``).
    device : {"cpu", "cuda"} or None, default=None
        ``"cuda"``: compute ``"dtw"``, ``"euclidean"`` or ``"cityblock"`` on a CUDA device
        through CuPy (``pip install "indefsvm[gpu]"``): DTW one thread a pair, the same
        definition and band, equal to the CPU's within 1e-12 relative; Ctrl-C is seen
        between launches of at most 2^18 pairs. The result is NumPy, or CuPy for CuPy
        input (``None`` follows the input: CuPy arrays mean the GPU).
    **params
        ``window`` for ``"dtw"`` (``None``: no band; ``w`` in [0, 1]: Sakoe-Chiba band of
        radius ``floor(w * max(len_a, len_b))``, widened by the length difference of two
        series of unequal lengths so that a path always exists); ``weights=(1, 1, 1)``
        (insertion, deletion, substitution costs, whole numbers up to 2**31 - 1;
        insertion and deletion equal, so that the distance is symmetric) for
        ``"levenshtein"``; ``c=1.0`` (the cost of a split or a merge, > 0) and ``window``
        (DTW's band) for ``"msm"``; ``sigma`` and ``window`` for ``"gak"``; keyword
        arguments of a callable.

    Returns
    -------
    ndarray of shape (n_X, n_Y)

    Raises
    ------
    ValueError
        An unknown metric or parameter, objects the metric does not compare (strings for
        ``"dtw"``, numbers for ``"levenshtein"``), NaN or infinity, an empty input.

    See Also
    --------
    PairwiseDistances : the same as a transformer for a ``Pipeline``.
    DistanceKernel : distances to kernel values.
    indefsvm.diagnostics.check_distances : is this distance Euclidean, a metric?

    References
    ----------
    H. Sakoe & S. Chiba (1978), Dynamic programming algorithm optimization for spoken word
    recognition, IEEE Trans. ASSP 26(1). V. I. Levenshtein (1966), Binary codes capable of
    correcting deletions, insertions, and reversals, Soviet Physics Doklady 10(8).

    Examples
    --------
    >>> import numpy as np
    >>> import indefsvm as isvm
    >>> isvm.pairwise_distances([np.array([0.0, 1, 2]), np.array([0.0, 0, 1, 2])])
    array([[0., 0.],
           [0., 0.]])
    >>> isvm.pairwise_distances(["kitten", "sitting"], metric="levenshtein")
    array([[0., 3.],
           [3., 0.]])
    """
    params = _check_params(metric, dict(params))
    threads = effective_threads(n_jobs)
    same = Y is None
    device = resolve_device(device, X, Y)
    n_x = len(X) if hasattr(X, "__len__") and not isinstance(X, str) else 0
    n_y = n_x if same else (len(Y) if hasattr(Y, "__len__") and not isinstance(Y, str) else 0)
    check_memory(8.0 * n_x * n_y, f"A {n_x} x {n_y} distance matrix",
                 "Compute it in blocks of rows (pairwise_distances(X[i:j], Y)).")
    name = metric if isinstance(metric, str) else getattr(metric, "__name__", "callable")
    progress = _Progress(verbose, f"{name} distances")
    if device.is_cuda:
        on_device = is_device_array(X) or is_device_array(Y)
        X = to_numpy(X) if is_device_array(X) else X
        Y = to_numpy(Y) if is_device_array(Y) else Y
        out = _on_device(device, metric, X, Y, params, progress)
        return device.xp.asarray(out) if on_device else out
    if callable(metric):
        return _callable(metric, X, Y, same, threads, params, progress)
    row = get(metric)
    if row.function is not None:
        return _checked_registered(metric, row.function, row.objects, X, Y, params, progress)
    return resolve(row.compute)(metric, X, Y, params, threads, progress)


def metric_kernel(kernel: str, X, Y, params: dict) -> np.ndarray | None:
    """``kernel_matrix(X, Y, kernel=name)`` for a kernel of the metric table (the global
    alignment kernel): None when the table has no kernel of that name. ``params`` holds the
    kernel's parameters and ``n_jobs`` (threads; the values do not depend on it)."""
    row = get(kernel)
    if row is None or row.kernel is None:
        return None
    params = dict(params)
    threads = effective_threads(params.pop("n_jobs", None))
    params = _check_params(kernel, params)
    return resolve(row.kernel)(kernel, X, Y, params, threads, _Progress(False, kernel))


def _check_not_tiny(A, B) -> None:
    """euclidean squares the differences: vectors whose every value is below 1e-150 (not
    all 0) have distances that underflow to 0 or lose their digits, without a word."""
    top = max(float(np.abs(A).max()) if A.size else 0.0,
              float(np.abs(B).max()) if B.size else 0.0)
    if 0.0 < top < 1e-150:
        raise ValueError(f"the euclidean distances underflow float64 on values of at most "
                         f"{top:.3g} (their squares are 0 or lose their digits); scale the "
                         "vectors up first (multiply by a constant, or standardise each "
                         "feature).")


def _on_device(device, metric, X, Y, params, progress):
    """pairwise_distances on a CUDA device (the metrics with a device form)."""
    from ._device import check_device_metric

    check_device_metric(metric)
    out = to_numpy(resolve(get(metric).device)(device, metric, params, X,
                                               X if Y is None else Y, progress=progress))
    if Y is None:
        # each pair once, mirrored, and the diagonal 0 (as on the CPU)
        _mirror_upper(out)
        np.fill_diagonal(out, 0.0)
    return out


def _mirror_upper(A: np.ndarray, block: int = 256) -> np.ndarray:
    """``A``'s upper triangle copied onto its lower triangle, in place, a block of columns at
    a time: a ``block``-wide strip at the peak (``np.triu_indices`` held two index arrays
    of ``n^2 / 2`` integers, a whole matrix more)."""
    n = A.shape[0]
    for i in range(0, n, block):
        j = min(i + block, n)
        sub = A[i:j, i:j]
        low = np.tril_indices(j - i, -1)
        sub[low] = sub.T[low]
        A[j:, i:j] = A[i:j, j:].T
    return A


class PairwiseDistances(TrainingColumns, TransformerMixin, BaseEstimator):
    """Distances to the training objects, as a transformer: raw objects in, distances out.

    ``fit(X)`` keeps the training objects; ``transform(Z)`` returns the distances of ``Z`` to
    them, shape ``(len(Z), len(X))``; ``fit_transform(X)`` the symmetric training matrix
    (each pair once). So ``make_pipeline(PairwiseDistances("dtw"), DistanceKernel(),
    IndefiniteSVC(kernel="precomputed"))`` trains and predicts on raw series.

    Parameters
    ----------
    metric : str or callable, default="dtw"
        See :func:`pairwise_distances`.
    window : float or None, default=None
        The band of an elastic distance (``"dtw"``, ``"gak"``, ``"msm"``): ``None`` no
        band, ``w`` in [0, 1] a Sakoe-Chiba band of ``floor(w * length)`` points, ``0``
        DTW's Euclidean distance.
    metric_params : dict, optional
        Other parameters of the metric (``{"weights": (1, 1, 2)}`` for Levenshtein, keyword
        arguments of a callable).
    n_jobs : int, optional
        Threads (see :func:`pairwise_distances`).
    verbose : bool, default=False
        Log the progress every few seconds.

    Attributes
    ----------
    X_fit_ : array or list
        The training objects.
    n_fit_ : int
        Their number (the width of ``transform``'s output).

    Examples
    --------
    >>> import numpy as np
    >>> from indefsvm import PairwiseDistances
    >>> pd = PairwiseDistances("dtw").fit(np.array([[0.0, 1, 2], [2.0, 1, 0]]))
    >>> pd.transform(np.array([[0.0, 1, 1, 2]])).round(3)
    array([[0.   , 2.828]])
    """

    #: scikit-learn's declaration of the parameters, checked by fit (_fit_context); the
    #: ranges and the finer rules are checked after it, in messages that name the fix
    _parameter_constraints: dict = {
        "metric": [str, callable],
        "window": [Interval(numbers.Real, 0, None, closed="left"), None],
        "metric_params": [dict, None],
        "n_jobs": N_JOBS, "verbose": ["verbose"],
    }

    def __init__(self, metric="dtw", *, window=None, metric_params=None, n_jobs=None,
                 verbose=False):
        self.metric = metric
        self.window = window
        self.metric_params = metric_params
        self.n_jobs = n_jobs
        self.verbose = verbose

    def _params(self) -> dict:
        params = dict(self.metric_params or {})
        if self.window is not None:
            if not takes(self.metric, "window"):
                raise ValueError(f"window is a parameter of metric='dtw'; got window="
                                 f"{self.window!r} with metric={self.metric!r}.")
            if "window" in params:
                # two windows: one of them was dropped without a word
                raise ValueError(f"window is given twice: window={self.window!r} and "
                                 f"metric_params['window']={params['window']!r}; give it "
                                 "once.")
            params["window"] = self.window
        return _check_params(self.metric, params)

    def _check_input(self, X, reset: bool):
        """Validate X now (a bad fit input fails at fit, not at transform). Arrays of numbers
        go through scikit-learn's checks first, for its wording of the common mistakes
        (sparse, complex, empty, 1-D, NaN); the Euclidean and city-block metrics remember the
        number of features. Lists (series of several lengths, strings) are checked by ours;
        pandas Series (and, but for the vector metrics' feature names, DataFrames) as NumPy."""
        objects = objects_of(self.metric)
        if objects in ("series", "strings", "objects") or getattr(X, "ndim", None) == 1:
            X = from_pandas(X, "X", "one series" if objects == "series" else "values")
        if objects == "strings":
            as_strings(X, "X")
            return X
        if objects == "objects":
            as_objects(X, "X")
            return X
        if not isinstance(X, (list, tuple)):
            if objects == "series":
                X = check_array(X, dtype=np.float64, allow_nd=True)
            else:
                X = validate_data(self, X, dtype=np.float64, reset=reset, allow_nd=True)
        as_series(X, "X", self.metric) if objects == "series" else as_vectors(X, "X")
        return X

    #: one distance column per training object (get_feature_names_out:
    #: pairwisedistances0, ...)
    _n_train_attr = "n_fit_"

    @_fit_context(prefer_skip_nested_validation=True)
    def fit(self, X, y=None):
        """Keep the training objects.

        Parameters
        ----------
        X : array-like or list
            The training objects (see :func:`pairwise_distances`).
        y : None
            Ignored; accepted for scikit-learn's pipeline API.

        Returns
        -------
        self
        """
        self._params()
        self.X_fit_ = self._check_input(X, reset=True)
        self.n_fit_ = len(self.X_fit_)
        return self

    def transform(self, X):
        """Distances of ``X`` to the training objects.

        Parameters
        ----------
        X : array-like or list
            Objects to compare with the training objects.

        Returns
        -------
        ndarray of shape (len(X), n_train)
        """
        check_is_fitted(self, "X_fit_")
        X = self._check_input(X, reset=False)
        return pairwise_distances(X, self.X_fit_, metric=self.metric, n_jobs=self.n_jobs,
                                  verbose=self.verbose, **self._params())

    @_fit_context(prefer_skip_nested_validation=True)
    def fit_transform(self, X, y=None):
        """Fit, and return the training distances (each pair computed once).

        Parameters
        ----------
        X : array-like or list
            The training objects (see :func:`pairwise_distances`).
        y : None
            Ignored; accepted for scikit-learn's pipeline API.

        Returns
        -------
        ndarray of shape (len(X), len(X))
        """
        self.fit(X)
        return pairwise_distances(self.X_fit_, metric=self.metric, n_jobs=self.n_jobs,
                                  verbose=self.verbose, **self._params())

    def __sklearn_tags__(self):
        tags = super().__sklearn_tags__()
        objects = objects_of(self.metric)
        tags.input_tags.string = objects == "strings"
        tags.input_tags.two_d_array = objects != "strings"
        tags.input_tags.three_d_array = objects == "series"
        tags.requires_fit = True
        return tags
