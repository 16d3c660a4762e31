"""From distances to kernel values: :class:`DistanceKernel` (distance substitution)."""

from __future__ import annotations

import numbers

import numpy as np
from sklearn.base import BaseEstimator, TransformerMixin, _fit_context
from sklearn.utils._param_validation import Interval, StrOptions
from sklearn.utils.validation import check_is_fitted, validate_data

from .. import _constraints as _c
from .._tags import PairwiseInput, TrainingColumns
from .._validation import (
    DISTANCE_SCALE_MAX,
    check_distance_matrix,
    check_distance_scale,
    options_checked,
)
from ..exceptions import ParameterError

__all__ = ["KINDS", "KIND_PARAMS", "DistanceKernel", "median_gamma"]

#: the kernel forms and the parameters each takes (gamma, its scale; the polynomial's shift
#: coef0 and degree)
KIND_PARAMS = {"rbf": ("gamma",), "laplacian": ("gamma",), "linear": (),
               "polynomial": ("gamma", "coef0", "degree"), "tl1": ("gamma",)}
#: the kernel forms and whether each has a gamma
KINDS = {kind: "gamma" in params for kind, params in KIND_PARAMS.items()}


@options_checked({"kind": [str]})
def median_gamma(D: np.ndarray, kind: str = "rbf") -> float:
    """The median rule: ``1 / median(d^2)`` over the pairs ``i < j`` (``1 / median(d)`` for
    ``kind="laplacian"``), so that a typical pair has ``gamma d^2 = 1``. Pairs at distance 0
    (duplicates) are left out when they are the majority.

    Parameters
    ----------
    D : ndarray of shape (n, n)
        Training distances.
    kind : str, default="rbf"
        The kernel form: ``1 / median(d)`` for ``"laplacian"`` and ``"tl1"``, ``1 / median(d^2)``
        otherwise.

    Returns
    -------
    float

    Examples
    --------
    >>> import numpy as np
    >>> from indefsvm.distances import median_gamma
    >>> D = np.array([[0.0, 1.0, 2.0], [1.0, 0.0, 3.0], [2.0, 3.0, 0.0]])
    >>> median_gamma(D), median_gamma(D, "laplacian")  # 1 / median(1, 4, 9), 1 / median(1, 2, 3)
    (0.25, 0.5)
    """
    if kind not in KINDS:
        raise ParameterError(f"must be one of {sorted(KINDS)}; got {kind!r}.", "kind")
    if getattr(D, "ndim", None) != 2 or D.shape[0] != D.shape[1]:
        got = f"shape {D.shape}" if hasattr(D, "shape") else type(D).__name__
        raise ParameterError(f"must be the square (n, n) matrix of the training distances; got "
                             f"{got}.", "D")
    if D.dtype.kind not in "biuf":
        raise ParameterError(f"must hold real distances; got an array of dtype {D.dtype}"
                             + (" (complex: distances are real numbers)" if D.dtype.kind == "c"
                            else "") + ".", "D")
    # the pairs above the diagonal copied row by row, squared and partitioned in place: half
    # a matrix at the peak (np.triu_indices' two index arrays alone were a whole one)
    n = D.shape[0]
    d = np.empty(n * (n - 1) // 2)
    start = 0
    for i in range(n - 1):
        d[start:start + n - 1 - i] = D[i, i + 1:]
        start += n - 1 - i
    if kind not in ("laplacian", "tl1"):
        d *= d
    if d.size == 0:
        raise ValueError("the median rule needs at least two training objects (got one "
                         "sample); give gamma as a number.")
    if not np.isfinite(d).all():
        raise ValueError("D holds NaN or infinite distances; the median rule needs finite "
                         "ones.")
    med = float(np.median(d, overwrite_input=True))
    if med <= 0:
        pos = d[d > 0]
        if pos.size == 0:
            raise ValueError("every training distance is 0 (all objects equal); the median "
                             "rule has nothing to scale by. Give gamma as a number.")
        med = float(np.median(pos))
    return 1.0 / med


class DistanceKernel(PairwiseInput, TrainingColumns, TransformerMixin, BaseEstimator):
    """Distances in, kernel values out: the distance-substitution kernels.

    With ``d`` a distance and ``O`` an origin (Haasdonk & Bahlmann 2004):

    - ``rbf``: ``exp(-gamma d(x, z)^2)``, PSD for every gamma iff ``d`` is Euclidean;
    - ``laplacian``: ``exp(-gamma d(x, z))``, PSD for every gamma iff ``sqrt(d)`` is
      Euclidean;
    - ``linear``: ``<x, z>_O = (d(x, O)^2 + d(z, O)^2 - d(x, z)^2) / 2``, PSD iff ``d`` is
      Euclidean;
    - ``polynomial``: ``(coef0 + gamma <x, z>_O)^degree``, PSD if ``d`` is Euclidean (and
      ``coef0 >= 0``);
    - ``tl1``: ``max(1 - gamma d(x, z), 0)``, the truncated distance kernel (Huang et al.
      2018, there with the L1 distance and ``rho = 1 / gamma``, scaled by ``1 / rho``):
      local (pairs beyond ``1 / gamma`` get 0) and indefinite in general.

    "Euclidean" is Schoenberg's condition (``-1/2 J D^2 J`` PSD), which
    :func:`indefsvm.diagnostics.check_distances` tests. When it fails the kernel is
    indefinite: train with :class:`~indefsvm.IndefiniteSVC` as it is, or compare a remedy.

    ``fit(D_train)`` learns what test rows need: ``gamma_`` by the median rule, and for the
    linear and polynomial forms the training objects' squared distances to the origin.
    ``transform(D_rows)`` takes distances of new objects to the training objects, shape
    ``(n_rows, n_train)``. The estimator has scikit-learn's ``pairwise`` tag, so
    ``GridSearchCV`` and ``cross_val_score`` slice a precomputed distance matrix on both axes
    when it is the first step of a pipeline.

    Parameters
    ----------
    kind : {"rbf", "laplacian", "linear", "polynomial", "tl1"}, default="rbf"
    gamma : float or "median", default="median"
        ``"median"``: ``1 / median(d^2)`` over the training pairs (``1 / median(d)`` for
        ``laplacian`` and ``tl1``), see :func:`median_gamma`. Not used by ``linear``.
    coef0 : float, default=1.0
        The polynomial's constant.
    degree : int, default=3
        The polynomial's degree.
    origin : "mean" or int, default="mean"
        The origin ``O`` of the linear and polynomial forms: ``"mean"`` the barycentre of the
        training objects (in their pseudo-Euclidean embedding; on the training set the linear
        form is then ``-1/2 J D^2 J``, the kernel of classical scaling), an integer the
        training object of that index.

    Attributes
    ----------
    gamma_ : float or None
        The gamma used (``None`` for ``linear``).
    n_fit_ : int
        Number of training objects, ``n_train`` (the width ``transform`` expects).
    origin_sq_ : ndarray of shape (n_train,) or None
        ``d(x_j, O)^2`` of each training object (linear and polynomial forms). For
        ``origin="mean"`` it is ``mean_i d(x_i, x_j)^2 - sq_mean_ / 2``.
    sq_mean_ : float or None
        ``mean_ij d(x_i, x_j)^2`` (``origin="mean"``): a new object's squared distance to
        the barycentre is ``mean_i d(z, x_i)^2 - sq_mean_ / 2``.
    n_features_in_ : int
        Columns of the training distances, ``n_train``.

    References
    ----------
    B. Haasdonk & C. Bahlmann (2004), Learning with distance substitution kernels, DAGM
    (LNCS 3175), kernels ``k^lin``, ``k^poly``, ``k^rbf`` and Prop. 1 (PSD iff the distance is
    Euclidean). I. J. Schoenberg (1938), Metric spaces and positive definite functions,
    Trans. AMS 44 (``exp(-gamma d^2)`` PSD for all gamma iff ``d`` is Euclidean).

    Examples
    --------
    >>> import numpy as np
    >>> from indefsvm import DistanceKernel
    >>> D = np.array([[0.0, 1.0, 2.0], [1.0, 0.0, 1.0], [2.0, 1.0, 0.0]])
    >>> dk = DistanceKernel().fit(D)
    >>> dk.gamma_
    1.0
    >>> dk.transform(D[:1]).round(4)
    array([[1.    , 0.3679, 0.0183]])
    """

    #: scikit-learn's declaration of the parameters, checked by fit (_fit_context); the
    #: ranges and the finer rules are checked after it, in messages that name the fix
    _parameter_constraints: dict = {
        "kind": [StrOptions(set(KINDS))],
        "gamma": [StrOptions({"median"}), Interval(numbers.Real, 0, None, closed="neither")],
        "coef0": _c.COEF0, "degree": [Interval(numbers.Integral, 1, 64, closed="both")],
        "origin": [StrOptions({"mean"}), Interval(numbers.Integral, 0, None, closed="left")],
    }

    def __init__(self, kind="rbf", *, gamma="median", coef0=1.0, degree=3, origin="mean"):
        self.kind = kind
        self.gamma = gamma
        self.coef0 = coef0
        self.degree = degree
        self.origin = origin

    def _check_fitted_state(self):
        """The fitted state a model file vouches for (``indefsvm._fitted``): a kind of its,
        a finite gamma > 0 where the kind has one, finite origin terms."""
        from .._fitted import require, require_finite

        require(isinstance(self.kind, str) and self.kind in KINDS,
                f"has a distance kernel of kind {self.kind!r}, not one of {sorted(KINDS)}")
        g = getattr(self, "gamma_", None)
        require(not KINDS[self.kind] or (isinstance(g, float) and np.isfinite(g) and g > 0),
                f"has a distance kernel whose gamma {g!r} is not a finite number > 0")
        for name in ("origin_sq_", "sq_mean_"):
            v = getattr(self, name, None)
            if v is not None:
                require_finite(v, f"has a distance kernel whose {name.strip('_')} values are "
                               "NaN or infinite")

    def _check_settings(self):
        """The rules the constraints cannot say: gamma belongs to the kinds that scale d, and
        the polynomial's coef0 is finite."""
        # scikit-learn's intervals take True for 1: an index or a degree is no flag
        for name in ("gamma", "degree", "origin", "coef0"):
            if isinstance(getattr(self, name), bool):
                raise ParameterError(f"must be a number, not {getattr(self, name)!r}.", name)
        if not KINDS[self.kind] and self.gamma != "median":
            raise ValueError(f"gamma does not apply to kind='linear' (got gamma="
                             f"{self.gamma!r}); use kind='polynomial' for a scaled form.")
        if self.kind == "polynomial" and not np.isfinite(self.coef0):
            raise ParameterError(f"must be a finite number; got {self.coef0!r}.", "coef0")

    @_fit_context(prefer_skip_nested_validation=True)
    def fit(self, X, y=None):
        """Learn gamma (median rule) and, for the linear forms, the origin's distances.

        Parameters
        ----------
        X : array-like of shape (n, n)
            Training distances: symmetric, finite, ``>= 0``.
        y : None
            Ignored; accepted for scikit-learn's pipeline API.

        Returns
        -------
        self
        """
        self._check_settings()
        # scikit-learn's checks first (sparse, complex, empty, 1-D, NaN in its wording; sets
        # n_features_in_ = the number of training objects, as KernelCenterer does), then ours
        D = validate_data(self, X, dtype=np.float64, reset=True)
        D = check_distance_matrix(D, "X (training distances)")
        check_distance_scale(D, "X (training distances)")
        n = D.shape[0]
        if not isinstance(self.origin, str) and self.origin >= n:
            raise ValueError(f"origin={self.origin} is not the index of a training object "
                             f"(there are {n}).")
        self.gamma_ = None
        if KINDS[self.kind]:
            self.gamma_ = (median_gamma(D, self.kind) if isinstance(self.gamma, str)
                           else float(self.gamma))
        self.origin_sq_ = self.sq_mean_ = None
        if self.kind in ("linear", "polynomial"):
            D2 = D * D
            if isinstance(self.origin, str):
                col = D2.mean(axis=0)
                self.sq_mean_ = float(col.mean())
                self.origin_sq_ = col - 0.5 * self.sq_mean_
            else:
                self.origin_sq_ = D2[:, self.origin].copy()
        self.n_fit_ = n
        return self

    def transform(self, X):
        """Kernel values from distances to the training objects.

        Parameters
        ----------
        X : array-like of shape (n_rows, n_train)
            Distances of the rows' objects to the training objects (the training matrix
            itself for the training kernel).

        Returns
        -------
        ndarray of shape (n_rows, n_train)
        """
        check_is_fitted(self, "n_fit_")
        try:
            D = validate_data(self, X, dtype=np.float64, reset=False)
        except ValueError as exc:
            if not str(exc).startswith("X has "):
                raise
            raise ValueError(f"{exc} DistanceKernel takes the distances of each row to the "
                             f"{self.n_fit_} training objects, shape (n_rows, "
                             f"{self.n_fit_}).") from None
        D = check_distance_matrix(D, "X (distances to the training objects)", square=False)
        if float(np.max(D, initial=0.0)) > DISTANCE_SCALE_MAX:
            check_distance_scale(D, "X (distances to the training objects)")
        # each formula in place, its operations in their order: one n_rows x n_train matrix
        # beside the distances at the peak (two for linear and polynomial), not three or four
        if self.kind in ("rbf", "laplacian"):
            # a product past float64 is -inf, whose exp, 0, is the kernel's value (a huge
            # gamma): no overflow to report
            with np.errstate(over="ignore"):
                K = np.multiply(-self.gamma_, D)
                if self.kind == "rbf":
                    K *= D
            return np.exp(K, out=K)
        if self.kind == "tl1":
            with np.errstate(over="ignore"):  # inf past float64: max(1 - inf, 0) is 0
                K = np.multiply(self.gamma_, D)
            np.subtract(1.0, K, out=K)
            return np.maximum(K, 0.0, out=K)
        D2 = D * D
        # d(z, O)^2 of each row's object: through the barycentre's formula, or the column of
        # the origin object
        if self.sq_mean_ is not None:
            row_sq = D2.mean(axis=1, keepdims=True) - 0.5 * self.sq_mean_
        else:
            row_sq = D2[:, [self.origin]]
        lin = np.add(row_sq, self.origin_sq_[None, :])
        lin -= D2
        del D2
        lin *= 0.5
        if self.kind == "linear":
            return lin
        with np.errstate(over="ignore", invalid="ignore"):
            K = lin
            K *= self.gamma_
            K += self.coef0
            K **= self.degree
        if not np.all(np.isfinite(K)):
            raise ValueError(f"the polynomial distance kernel (degree={self.degree}, gamma="
                             f"{self.gamma_:.4g}) overflows on these distances; lower gamma "
                             "or the degree.")
        return K

    @_fit_context(prefer_skip_nested_validation=True)
    def fit_transform(self, X, y=None):
        """``fit(X).transform(X)`` (the training kernel).

        Parameters
        ----------
        X : array-like of shape (n, n)
            Training distances, as in :meth:`fit`.
        y : None
            Ignored; accepted for scikit-learn's pipeline API.

        Returns
        -------
        ndarray of shape (n, n)
        """
        return self.fit(X).transform(X)

    #: X is a distance matrix: cross-validation slices it on both axes
    _always_pairwise = True

    #: one kernel column per training object (get_feature_names_out: distancekernel0, ...)
    _n_train_attr = "n_features_in_"

    def __sklearn_tags__(self):
        tags = super().__sklearn_tags__()
        # distances are >= 0 (scikit-learn's checks then build non-negative inputs)
        tags.input_tags.positive_only = True
        return tags
