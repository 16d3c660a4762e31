"""Krein-space Nystroem features: an indefinite kernel at linear cost in n.

With ``m`` landmarks ``L``, ``C = k(X, L)`` and ``W = k(L, L) = U diag(lam) U'``, the Nystroem
approximation ``K ~ C W^+ C'`` of an indefinite kernel keeps the signs of ``lam`` (Gisbrecht
& Schleif 2015; Oglic & Gaertner 2019):

    Phi = C U |lam|^(-1/2),   S = diag(sign(lam)),   K ~ Phi S Phi'.

scikit-learn's ``Nystroem`` instead uses the singular values of ``W`` (``|lam|``), which
approximates the *flipped* kernel ``C U |lam|^-1 U' C'``, not ``K``.
"""

from __future__ import annotations

import inspect
import numbers

import numpy as np
import scipy.sparse as sp
from sklearn.base import BaseEstimator, TransformerMixin, _fit_context
from sklearn.utils._param_validation import Interval, StrOptions
from sklearn.utils.validation import check_is_fitted

from .. import _constraints as _c
from .._device import DEVICES, is_device_array, resolve_device, resolve_fitted, to_numpy
from .._feature_map import FeatureMap
from .._fitted import forget
from .._interrupt import unfitted_on_interrupt
from .._solvers._kblocks import kernel_block, kernel_features
from .._tags import PairwiseInput, arrays_out
from .._threads import blas_at_most, effective_threads, single_threaded_blas
from .._validation import check_kernel_matrix, check_seed, csr_int32, validate_input
from ..distances._collection import Objects, check_metric, kmedoids_pp
from ..distances._kernel import KINDS as DISTANCE_KINDS
from ..distances._kernel import DistanceKernel
from ..exceptions import ParameterError, Setting
from ..kernels import (
    _COMPILED_KIND,
    SPARSE_INPUT_KERNELS,
    canonical_name,
    check_kernel_settings,
    kernel_matrix,
    refuse_given_twice,
    resolve_kernel_params,
    warn_if_constant,
)
from ._blocks import dense_rows, dense_rows_per_block, rows_per_block
from ._pivoted import pivot_indices, pool_of

__all__ = ["KreinNystroem"]

LANDMARK_RULES = ("uniform", "kmeans++", "kmedoids++", "pivoted")


def _default_of(cls, name: str):
    """The default of the constructor's parameter ``name``."""
    return inspect.signature(cls.__init__).parameters[name].default


def landmark_count(n_components, landmarks, default: int) -> int:
    """``m``, the number of landmarks: ``n_components``, or the number of rows an index
    array ``landmarks`` names -- an ``n_components`` other than ``default`` given beside it
    and differing from it is refused (it was taken and not used)."""
    if isinstance(landmarks, str):
        return int(n_components)
    size = int(np.size(landmarks))
    if np.ndim(landmarks) != 1 or not size:
        return int(n_components)  # not an index array: refused by its own check at fit
    if n_components != default and n_components != size:
        raise ValueError(f"n_components={n_components!r} but landmarks names {size} rows: "
                         f"with an array of landmarks m is its length. Leave n_components "
                         f"out (or give n_components={size}).")
    return size


class KreinNystroem(PairwiseInput, TransformerMixin, FeatureMap, BaseEstimator):
    """Nystroem features of an indefinite kernel, with their signature.

    ``fit`` picks ``m = n_components`` landmarks and decomposes their kernel
    ``W = k(L, L) = U diag(lam) U'``; ``transform`` returns ``Phi = k(X, L) U |lam|^(-1/2)``
    and ``signature_`` holds ``sign(lam)``, so that

        ``k(x, y) ~ Phi(x) diag(signature_) Phi(y)'``

    -- the kernel itself in the pseudo-Euclidean (Krein) space of the features (Oglic &
    Gaertner, ICML 2019; Gisbrecht & Schleif 2015). With every training point a landmark
    the approximation is exact on the training set. Features come positive eigenvalues
    first (largest first), then negative ones (most negative first): the features of the
    positive part are ``Phi[:, :n_positive_]``.

    Parameters
    ----------
    kernel : str or callable, default="rbf"
        A kernel name of :mod:`indefsvm.kernels` (``"rbf"``, ``"sigmoid"``, ...), a
        callable ``k(A, B) -> (len(A), len(B))`` array, or ``"precomputed"``: ``fit`` then
        takes the ``(n, m)`` block of kernel values of ``n`` points against the ``m``
        landmarks, whose own rows are ``landmarks`` (an index array; by default, a square
        block is ``W`` itself), and ``transform`` takes ``(n_rows, m)`` blocks.

        With ``metric``: the distance-substitution kernel of
        :class:`~indefsvm.DistanceKernel` made of the metric's distances, ``"rbf"``
        (``exp(-gamma d^2)``), ``"laplacian"``, ``"tl1"``, ``"linear"`` or ``"polynomial"``.
    n_components : int, default=100
        Number of landmarks ``m``; more than the samples: every sample is a landmark (the
        exact kernel), with a warning, as scikit-learn's ``Nystroem`` does. Not used with
        ``"precomputed"``, where the block's columns are the landmarks.
    metric : str, callable or None, default=None
        A metric of :func:`~indefsvm.pairwise_distances` (``"dtw"``, ``"levenshtein"``,
        ``"euclidean"``, ``"cityblock"``) or a callable ``d(a, b) -> float``: ``X`` is then
        any collection it compares (series of equal or unequal lengths, multivariate series,
        strings, ...), and only the ``n x m`` distances to the landmarks are computed (plus
        ``m x m``), block by block, never ``n x n``. At ``m = n`` the features reproduce
        ``DistanceKernel(kernel, gamma)`` of the whole distance matrix.
    metric_params : dict, optional
        Parameters of the metric, e.g. ``{"window": 0.1}`` for DTW.
    gamma : float, "scale", "auto", "median" or None, default=None
        Kernel parameter; ``None`` is ``"auto"`` (``1 / n_features``, as scikit-learn's
        ``Nystroem``), and with ``metric`` ``"median"``: ``1 / median(d^2)`` over the
        landmark pairs (``1 / median(d)`` for laplacian and tl1; :func:`median_gamma`).
    coef0, degree : float, int
        Parameters of the polynomial and sigmoid kernels.
    kernel_params : dict, optional
        Further parameters of the kernel (``sigma``, ``p``, or a callable's keywords); not
        ``gamma``, ``coef0`` or ``degree`` beside the options of those names.
    landmarks : {"uniform", "kmeans++", "kmedoids++", "pivoted"} or array-like of int, \
default="uniform"
        How to pick them: ``"uniform"`` draws ``m`` distinct samples at random (unbiased,
        O(m); scikit-learn's choice, so the two compare on the same landmarks);
        ``"kmeans++"`` uses the D^2 seeding of Arthur & Vassilvitskii (2007) in input
        space (O(n m d)), which spreads the landmarks over clustered data and lowers the
        approximation error there at small ``m``; ``"kmedoids++"`` (with ``metric``) is the
        same seeding on the metric's own distances, no coordinates needed, over a random
        pool of ``max(2000, 10 m)`` objects (``m`` distance rows of the pool);
        ``"pivoted"`` adapts to the kernel: greedy pivoted Cholesky (Harbrecht, Peters &
        Schneider 2012; a signed ``L D L'`` for an indefinite kernel), each next landmark the
        object the landmarks so far represent worst (the largest ``|k(x, x) - k(x, L) W^{-1}
        k(L, x)|``), over a random pool of ``max(2000, 4 m)`` objects: ``m`` kernel columns of
        the pool and ``pool x m`` floats of memory (with a metric: the kinds rbf, laplacian
        and tl1, gamma by the median rule of the first column's distances when not given);
        an index array names the training rows to use (``m`` is its length: leave
        ``n_components`` at its default or give that length).
    rtol : float, optional
        Eigenvalues of ``W`` with ``|lam| <= rtol * max|lam|`` are dropped (their
        directions carry rounding, and ``|lam|^(-1/2)`` would amplify it). ``None`` means
        ``m * eps``, the default of ``numpy.linalg.matrix_rank``; genuine eigenvalues at
        1e-8 relative are kept.
    stability : float or None, default=1000
        Drops the eigen-directions of ``W`` that do not extend beyond the landmarks. The
        Nystroem extension of an eigenvector, ``k(x, L) u_k / lam_k`` (Williams & Seeger
        2001), has mean square ``1/m`` over the landmarks; on held-out rows (up to
        ``max(500, m)`` rows that are not landmarks) a direction whose mean square is more
        than ``stability`` times that is an artefact of the landmark sample, and its
        ``|lam_k|^(-1/2)`` would blow the approximation up. With a PSD kernel the
        extension is bounded and nothing is dropped; with an indefinite kernel ``W`` can
        have an eigenvalue near 0 that the rows do not share (measured on a sigmoid kernel
        with m = 50: relative error 3.02 with every direction, 0.066 without the one
        dropped). ``None`` keeps every direction above ``rtol``. With every sample a
        landmark there is no held-out row and nothing is dropped (the exact kernel).
    random_state : int, Generator or None
        Seed of the landmark draw and of the held-out rows.
    n_jobs : int, optional
        Threads of the compiled kernel blocks (OpenMP); -1 for all cores.
    device : {"cpu", "cuda"} or None, default=None
        Where ``transform`` computes the kernel to the landmarks and the features: ``None``
        follows the input (a CuPy array: the GPU), ``"cuda"`` a CUDA device through CuPy
        (``pip install "indefsvm[gpu]"``), for the kernels linear, polynomial, rbf,
        sigmoid, l1_gaussian, sqrt_l1_exponential and the metrics dtw, euclidean,
        cityblock. ``fit`` (the ``m`` landmarks) runs on the CPU either way, so the fitted
        model is the same NumPy model. Features come back as NumPy unless the input was a
        CuPy array; they equal the CPU's within float64 rounding.

    Attributes
    ----------
    components_ : ndarray of shape (m, n_features) or list
        The landmarks (``None`` for ``"precomputed"``; the landmark objects with
        ``metric``).
    distance_kernel_ : DistanceKernel or None
        With ``metric``: the kernel of the distances, fitted on the landmarks (its
        ``gamma_`` the gamma used).
    component_indices_ : ndarray of shape (m,)
        Their rows in the training data.
    eigenvalues_ : ndarray of shape (r,)
        The eigenvalues of ``W`` kept, in the order of the features.
    signature_ : ndarray of shape (r,)
        ``+1`` / ``-1`` per feature.
    normalization_ : ndarray of shape (m, r)
        ``U |lam|^(-1/2)``: ``transform(X) = k(X, L) @ normalization_``.
    n_components_ : int
        ``r``, the number of features (eigenvalues kept).
    n_positive_, n_negative_ : int
        Features of each sign.
    negative_mass_ : float
        ``sum |lam < 0| / sum |lam|`` over all eigenvalues of ``W``.
    tol_ : float
        The absolute zero threshold used, ``rtol * max|lam|``.
    n_dropped_ : int
        Eigenvalues at or below it.
    extension_ratio_ : ndarray of shape (r,)
        Mean square of each kept direction's Nystroem extension on the held-out rows over
        its mean square on the landmarks (1 when it generalises; empty: no held-out row).
    n_unstable_ : int
        Directions dropped by ``stability``.
    n_features_in_ : int
        Number of features (columns of ``X``) seen in fit, as scikit-learn's estimators keep it.

    See Also
    --------
    NystroemSVC : an SVM on these features, for 10^5 - 10^6 points.
    indefsvm.remedies.FlipEigenvalues : the exact flip of a whole kernel matrix.

    Examples
    --------
    >>> import numpy as np
    >>> import indefsvm as isvm
    >>> X = np.random.default_rng(0).normal(size=(300, 5))
    >>> ny = isvm.KreinNystroem("sigmoid", n_components=300, gamma=0.2, coef0=-1.0,
    ...                         random_state=0).fit(X)
    >>> Phi = ny.transform(X)
    >>> K = isvm.kernel_matrix(X, kernel="sigmoid", gamma=0.2, coef0=-1.0)
    >>> bool(np.allclose(Phi * ny.signature_ @ Phi.T, K, atol=1e-8))
    True
    >>> ny.n_negative_ > 0
    True
    """

    #: scikit-learn's declaration of the parameters, checked by fit (_fit_context); the
    #: ranges and the finer rules are checked after it, in messages that name the fix
    _parameter_constraints: dict = {
        "kernel": [str, callable], "n_components": _c.N_COMPONENTS,
        "gamma": [str, numbers.Real, None], "coef0": _c.COEF0, "degree": _c.DEGREE,
        "kernel_params": _c.KERNEL_PARAMS,
        "landmarks": [StrOptions(set(LANDMARK_RULES)), "array-like"],
        "rtol": [Interval(numbers.Real, 0, 1, closed="left"), None],
        "stability": [Interval(numbers.Real, 1, None, closed="left"), None],
        "random_state": ["random_state"], "n_jobs": _c.N_JOBS,
        "metric": [str, callable, None], "metric_params": [dict, None],
        "device": [StrOptions(set(DEVICES)), None],
    }

    def __init__(self, kernel="rbf", *, n_components: int = 100, metric=None,
                 metric_params=None, gamma=None, coef0=0.0,
                 degree=3, kernel_params=None, landmarks="uniform", rtol=None,
                 stability=1e3, random_state=None, n_jobs=None, device=None):
        self.kernel = kernel
        self.n_components = n_components
        self.metric = metric
        self.metric_params = metric_params
        self.gamma = gamma
        self.coef0 = coef0
        self.degree = degree
        self.kernel_params = kernel_params
        self.landmarks = landmarks
        self.rtol = rtol
        self.stability = stability
        self.random_state = random_state
        self.n_jobs = n_jobs
        self.device = device

    # features may be sparse (read a block at a time as dense rows)
    _sparse_features = True

    def __setstate__(self, state):
        # models saved before metric= existed load as what they were: features of vectors
        state.setdefault("metric", None)
        state.setdefault("metric_params", None)
        state.setdefault("device", None)
        super().__setstate__(state)

    def _uses_metric(self) -> bool:
        return getattr(self, "metric", None) is not None

    @property
    def kernel_params_(self) -> dict:
        """The kernel's parameters as the fit resolved them (``gamma`` a number; empty for
        ``"precomputed"`` and with ``metric``). Set by ``fit``."""
        return dict(self._params)

    @property
    def n_landmarks_(self) -> int:
        """``m``, the landmarks (rows of ``normalization_``)."""
        return int(self.normalization_.shape[0])

    # -- fit ------------------------------------------------------------------------------

    def _check_metric_settings(self):
        """The settings that go with (and without) a metric."""
        if not self._uses_metric():
            if isinstance(self.gamma, str) and self.gamma == "median":
                raise ValueError("gamma='median' is the median rule of distances: give "
                                 "metric= (e.g. metric='dtw'), or a number / 'scale' / 'auto' "
                                 "for vectors.")
            if self.metric_params:
                raise ValueError("metric_params given without metric: give metric= (e.g. "
                                 "metric='dtw', metric_params={'window': 0.1}), or drop "
                                 "metric_params.")
            if isinstance(self.landmarks, str) and self.landmarks == "kmedoids++":
                raise ParameterError(
                    "{landmarks} seeds on the distances of series or strings ({metric}); for "
                    "feature vectors its rule in input space is {kmeans} (or 'pivoted', or "
                    "'uniform').", "landmarks", subject="",
                    values={"landmarks": "kmedoids++", "metric": Setting("metric",
                                                                         words="metric="),
                            "kmeans": Setting("landmarks", "kmeans++")})
            return
        if not isinstance(self.kernel, str) or self.kernel not in DISTANCE_KINDS:
            raise ValueError(
                f"with metric={self.metric!r}, kernel names the kernel made of its distances, "
                f"one of {sorted(DISTANCE_KINDS)} (DistanceKernel's kinds); got "
                f"kernel={self.kernel!r}.")
        if isinstance(self.gamma, str) and self.gamma != "median":
            raise ParameterError(
                "{gamma} is a rule for vectors; with {metric} give 'median' (the default: 1 / "
                "median(d^2) over the landmark pairs) or a number > 0.", "gamma", subject="",
                values={"gamma": self.gamma, "metric": Setting("metric", words="metric=")})
        if (self.gamma is not None and not isinstance(self.gamma, str)
                and not self.gamma > 0):
            raise ParameterError(f"must be > 0 with a metric (exp(-gamma d^2) grows with "
                                 f"the distance otherwise); got {self.gamma!r}.", "gamma")
        if self.kernel_params:
            raise ValueError("kernel_params does not apply with metric=: the metric's "
                             "parameters go in metric_params, the kernel's are gamma, coef0 "
                             "and degree.")
        if isinstance(self.landmarks, str) and self.landmarks == "kmeans++":
            raise ParameterError(
                "{landmarks} seeds in input space (feature vectors); for series or strings "
                "({metric}) its rule on the distances is {kmedoids} (the same D^2 seeding; or "
                "'pivoted', or 'uniform').", "landmarks", subject="",
                values={"landmarks": "kmeans++", "metric": self.metric,
                        "kmedoids": Setting("landmarks", "kmedoids++")})
        if (isinstance(self.landmarks, str) and self.landmarks == "pivoted"
                and self.kernel in ("linear", "polynomial")):
            raise ValueError(f"landmarks='pivoted' with metric= pivots on a kernel of one "
                             f"distance column, which kernel={self.kernel!r} is not (it needs "
                             "the training objects' origin): use kernel='rbf', 'laplacian' or "
                             "'tl1', or landmarks='uniform' / 'kmedoids++'.")
        check_metric(self.metric, self.metric_params)

    def _check_settings(self):
        if not (callable(self.kernel) or isinstance(self.kernel, str)):
            raise ParameterError(f"must be a name, a callable or 'precomputed'; got "
                                 f"{self.kernel!r}.", "kernel")
        self._check_metric_settings()
        if (isinstance(self.kernel, str) and self.kernel != "precomputed"
                and not self._uses_metric()):
            canonical_name(self.kernel)
            check_kernel_settings(self.kernel, self.gamma, self.kernel_params)
        if self.kernel != "precomputed" and (
                isinstance(self.n_components, bool)
                or not isinstance(self.n_components, numbers.Integral)
                or self.n_components < 1):
            raise ParameterError(f"must be a positive integer (the number of "
                                 f"landmarks); got {self.n_components!r}.", "n_components")
        if self.stability is not None and not (
                isinstance(self.stability, (int, float, np.number))
                and not isinstance(self.stability, bool) and self.stability >= 1):
            raise ParameterError(f"must be None or a number >= 1; got "
                                 f"{self.stability!r}.", "stability")
        if self.rtol is not None and not (isinstance(self.rtol, (int, float, np.number))
                                          and np.isfinite(self.rtol) and 0 <= self.rtol < 1):
            raise ParameterError(f"must be None or a number in [0, 1); got {self.rtol!r}.",
                                 "rtol")
        if isinstance(self.landmarks, str) and self.landmarks not in LANDMARK_RULES:
            raise ParameterError(f"must be one of {list(LANDMARK_RULES)} or an array of "
                                 f"row indices; got {self.landmarks!r}.", "landmarks")
        if self.kernel != "precomputed":
            landmark_count(self.n_components, self.landmarks,
                           _default_of(type(self), "n_components"))

    def _landmark_number(self, n: int) -> int:
        """``n_components``, or the ``n`` samples where it is more: every sample a landmark,
        the exact kernel -- said once, as scikit-learn's ``Nystroem`` says it (its estimator
        checks fit 30 samples with the default n_components)."""
        m = int(self.n_components)
        if m > n and isinstance(self.landmarks, str):
            from .._warn import warn

            warn(f"n_components={m} is more than the {n} samples: every sample is a landmark "
                 f"(n_components={n}), which gives the exact kernel of the training data; "
                 f"give n_components <= {n} to say so.", UserWarning, stacklevel=3)
            return n
        return m

    def _landmark_indices(self, X, n: int, m: int, rng) -> np.ndarray:
        rule = self.landmarks
        if not isinstance(rule, str):
            idx = np.asarray(rule)
            if idx.ndim != 1 or idx.size == 0 or not np.issubdtype(idx.dtype, np.integer):
                raise ParameterError("must be 'uniform', 'kmeans++' or a 1-D array of "
                                     "row indices (integers).", "landmarks")
            if idx.min() < 0 or idx.max() >= n:
                raise ValueError(f"landmarks holds row indices outside [0, {n}).")
            if np.unique(idx).size != idx.size:
                raise ValueError("landmarks holds a row twice; each landmark once (a repeated "
                                 "landmark makes W singular).")
            return idx.astype(np.intp)
        if m > n:
            raise ValueError(
                f"n_components={m} is more than the {n} samples: there are at most {n} "
                f"landmarks. Use n_components <= {n} (n_components={n}: every sample a "
                "landmark, the exact kernel).")
        if m == n:
            return np.arange(n)
        if rule == "uniform":
            return np.sort(rng.choice(n, size=m, replace=False))
        if rule == "pivoted":
            pool = pool_of(n, m, rng)
            P = self._rows_of(X[pool])
            diag = np.array([self._block(P[i:i + 1], L=P[i:i + 1])[0, 0]
                             for i in range(P.shape[0])])
            piv = pivot_indices(lambda j: self._block(P, L=P[j:j + 1])[:, 0], diag, m, rng)
            return np.sort(pool[piv])
        from sklearn.cluster import kmeans_plusplus

        # one candidate per step: plain D^2 sampling (the greedy variant costs 2 + log m
        # times more and gains little for landmarks)
        _, idx = kmeans_plusplus(X, n_clusters=m, random_state=int(rng.integers(2**31 - 1)),
                                 n_local_trials=1)
        return np.sort(np.asarray(idx, dtype=np.intp))

    @unfitted_on_interrupt
    @_fit_context(prefer_skip_nested_validation=True)
    def fit(self, X, y=None):
        """Pick the landmarks and decompose their kernel ``W``.

        Parameters
        ----------
        X : array-like of shape (n_samples, n_features)
            Training data; for ``kernel="precomputed"`` the ``(n_samples, m)`` kernel values
            against the landmarks.
        y : None
            Ignored; accepted for scikit-learn's pipeline API.

        Returns
        -------
        self : KreinNystroem
        """
        self._check_settings()
        # the landmarks' work is on the CPU wherever transform runs (module docstring); a
        # CuPy X is copied back for it, after the device is checked
        resolve_device(self.device, X)
        X = to_numpy(X) if is_device_array(X) else X
        if self._uses_metric():
            forget(self, "n_features_in_")  # objects have no feature count (nor a last fit's)
            return self._fit_objects(Objects(X, self.metric, self.metric_params or {}))
        if self.kernel == "precomputed":
            X = validate_input(self, X, dtype=np.float64, ensure_min_features=1)
        else:
            # sparse rows are made dense a block at a time (the features are dense anyway)
            X = validate_input(self, X, dtype=np.float64, accept_sparse="csr",
                              order=None if callable(self.kernel) else "C")
        return self._fit_rows(X)

    def _fit_rows(self, X):
        """fit on rows checked already (by fit, or once for both by NystroemSVC.fit)."""
        self._threads = effective_threads(self.n_jobs)
        rng = check_seed(self.random_state)
        if self.kernel == "precomputed":
            B = X
            n, m = B.shape
            if isinstance(self.landmarks, str):
                if n != m:
                    raise ValueError(
                        f"kernel='precomputed': X is the ({n}, {m}) block of kernel values "
                        f"against {m} landmarks; give landmarks= the indices of the {m} rows "
                        "of X that are the landmarks (a square X is taken as W itself).")
                idx = np.arange(n)
            else:
                idx = self._landmark_indices(None, n, m, rng)
                if idx.size != m:
                    raise ValueError(f"landmarks names {idx.size} rows; X has {m} columns "
                                     "(one per landmark).")
            W = B[idx]
            self.components_ = None
            self._name = "precomputed"
            self._params = {}
            held = self._heldout(n, idx, rng)
            C_held = B[held]
        else:
            self._name = self.kernel if callable(self.kernel) else canonical_name(self.kernel)
            refuse_given_twice(self)
            gamma = "auto" if self.gamma is None else self.gamma
            self._params = resolve_kernel_params(self._name, X, gamma=gamma,
                                                 coef0=self.coef0, degree=self.degree,
                                                 kernel_params=self.kernel_params)
            warn_if_constant(self._name, self._params)
            n = X.shape[0]
            idx = self._landmark_indices(X, n, self._landmark_number(n), rng)
            # CSR landmarks stay CSR where the kernel reads them so (a text collection's
            # million words: dense landmarks would be m x d floats)
            self.components_ = self._rows_of(X[idx])
            W = self._block(self.components_)
            held = self._heldout(n, idx, rng)
            C_held = (self._block(self._rows_of(X[held])) if held.size
                      else np.empty((0, idx.size)))
        self.component_indices_ = idx
        self.distance_kernel_ = None
        self._decompose(W, C_held)
        return self

    def _fit_objects(self, objs: Objects):
        """fit on objects checked already: distances to the landmarks only."""
        self._threads = effective_threads(self.n_jobs)
        rng = check_seed(self.random_state)
        n = len(objs)
        m = self._landmark_number(n)
        if isinstance(self.landmarks, str) and self.landmarks == "kmedoids++":
            if m > n:
                self._landmark_indices(None, n, m, rng)  # its error
            idx = (np.arange(n) if m == n else
                   kmedoids_pp(objs, m, rng, n_jobs=self._threads))
        elif isinstance(self.landmarks, str) and self.landmarks == "pivoted" and m < n:
            idx = self._pivoted_objects(objs, m, rng)
        else:
            idx = self._landmark_indices(None, n, m, rng)
        L = objs.take(idx)
        if callable(self.metric):
            # a function of the user's: both orders and d(x, x) are evaluated, and what
            # breaks a distance's rules is said (the kernel then uses the symmetric part
            # and d(x, x) = 0)
            D = _checked_block(objs.distances(L, L, idx, n_jobs=self._threads), idx,
                               getattr(self.metric, "__name__", "metric"))
        else:
            # each pair of landmarks once, mirrored, the diagonal 0
            D = objs.distances(L, None, idx, n_jobs=self._threads)
            np.fill_diagonal(D, 0.0)
        gamma = "median" if self.gamma is None else self.gamma
        dk = arrays_out(DistanceKernel(self.kernel, gamma=gamma, coef0=self.coef0,
                                       degree=int(self.degree)))
        W = dk.fit_transform(D)
        held = self._heldout(n, idx, rng)
        C_held = (dk.transform(objs.distances(objs.take(held), L, idx, n_jobs=self._threads))
                  if held.size else np.empty((0, idx.size)))
        self._name = "precomputed"  # W is checked as a given matrix
        self._params = {}
        self._decompose(W, C_held)
        self.components_ = L
        self.component_indices_ = idx
        self.distance_kernel_ = dk
        return self

    def _pivoted_objects(self, objs: Objects, m: int, rng) -> np.ndarray:
        """landmarks="pivoted" on objects: the kernel columns of a pool are its distance
        columns through the kernel (rbf, laplacian, tl1: a function of one distance, 1 at
        distance 0); gamma by the median rule of the first column unless given."""
        pool = pool_of(len(objs), m, rng)
        P = objs.take(pool)
        first = objs.distances(P, objs.take(pool[:1]), n_jobs=self._threads)[:, 0]
        gamma = self.gamma
        if gamma is None or isinstance(gamma, str):
            d = first[1:]
            d = d[d > 0] if np.count_nonzero(d) else d
            scale = float(np.median(d * d if self.kernel == "rbf" else d)) if d.size else 0.0
            gamma = 1.0 / scale if scale > 0 else 1.0
        dk = arrays_out(DistanceKernel(self.kernel, gamma=float(gamma))).fit(np.zeros((1, 1)))

        def column(j):
            d = first if j == 0 else objs.distances(P, objs.take(pool[j:j + 1]),
                                                    n_jobs=self._threads)[:, 0]
            return dk.transform(d[:, None])[:, 0]

        piv = pivot_indices(column, np.ones(len(pool)), m, rng)
        return np.sort(pool[piv])

    def _heldout(self, n: int, idx, rng) -> np.ndarray:
        """Up to max(500, m) rows that are not landmarks, for the stability rule."""
        if self.stability is None:
            return np.empty(0, dtype=np.intp)
        k = max(500, idx.size)
        if n - idx.size <= k:
            return np.setdiff1d(np.arange(n), idx)
        # k + m distinct rows in random order, the landmarks among them dropped: the first
        # k left are a uniform draw from the other rows, in O(k + m) (a set difference with
        # arange(n) sorted all n rows: 15 s at 10^7)
        draw = rng.choice(n, size=k + idx.size, replace=False)
        draw = draw[~np.isin(draw, idx)]
        return np.sort(draw[:k])

    def _decompose(self, W, C_held):
        named = isinstance(self._name, str) and self._name != "precomputed"
        if named:
            # our own formulas: symmetric up to the rounding of the block's sums
            W = (W + W.T) / 2
        else:
            W = check_kernel_matrix(W, "the kernel on the landmarks, W = k(L, L)")
            W = (W + W.T) / 2
        lam, U = np.linalg.eigh(W)
        m = W.shape[0]
        scale = float(np.abs(lam).max()) if lam.size else 0.0
        if not scale > 0:
            raise ValueError("The kernel is zero on the landmarks (W = 0): it has no features. "
                             "Check the kernel's parameters.")
        rtol = m * np.finfo(np.float64).eps if self.rtol is None else float(self.rtol)
        self.tol_ = rtol * scale
        pos = np.flatnonzero(lam > self.tol_)[::-1]   # largest first
        neg = np.flatnonzero(lam < -self.tol_)        # most negative first
        keep = np.r_[pos, neg].astype(np.intp)
        self.n_unstable_ = 0
        self.extension_ratio_ = np.empty(0)
        if self.stability is not None and C_held.shape[0] > 0:
            # mean square of the Nystroem extension on held-out rows, over 1/m (its mean
            # square on the landmarks, where W u_k / lam_k = u_k)
            ext = C_held @ U[:, keep] / lam[keep]
            ratio = m * np.mean(ext * ext, axis=0)
            stable = ratio <= float(self.stability)
            self.n_unstable_ = int(np.count_nonzero(~stable))
            keep = keep[stable]
            pos = pos[np.isin(pos, keep)]
            neg = neg[np.isin(neg, keep)]
            self.extension_ratio_ = ratio[stable]
        self.eigenvalues_ = lam[keep]
        self.signature_ = np.r_[np.ones(pos.size), -np.ones(neg.size)]
        self.normalization_ = U[:, keep] / np.sqrt(np.abs(lam[keep]))
        self.n_components_ = int(keep.size)
        self.n_positive_ = int(pos.size)
        self.n_negative_ = int(neg.size)
        self.n_dropped_ = int(m - keep.size - self.n_unstable_)
        self.negative_mass_ = float(np.abs(lam[lam < 0]).sum() / np.abs(lam).sum())

    # -- transform ------------------------------------------------------------------------

    def _reads_sparse(self) -> bool:
        """Whether the kernel is computed from CSR rows as they are (the dot-product kernels
        and rbf: their stored values only, as LIBSVM does)."""
        return (isinstance(self._name, str) and self._name in SPARSE_INPUT_KERNELS
                and "sigma" not in self._params)

    def _csr_rows(self, A) -> bool:
        """Whether CSR rows ``A`` are computed as CSR: a kernel that reads them so, and
        under a quarter of the entries stored (denser ones are as fast as dense rows, which
        the compiled tiles take)."""
        return (sp.issparse(A) and self._reads_sparse()
                and A.nnz < 0.25 * A.shape[0] * A.shape[1])

    def _rows_of(self, Xb):
        """Rows as the kernel reads them: CSR kept (32-bit indices, sorted) where it reads
        CSR (``_csr_rows``), else dense and C-ordered."""
        if self._csr_rows(Xb):
            Xb = csr_int32(sp.csr_matrix(Xb, dtype=np.float64))
            Xb.sort_indices()
            return Xb
        return np.ascontiguousarray(dense_rows(Xb))

    def _block(self, Xb, threads=None, out=None, L=None):
        """k(Xb, L) for rows Xb (the compiled tiles for the kernels they know, on
        ``threads`` threads, default those of fit; written into ``out`` where they can);
        ``L`` the landmarks, or other rows (the pivoted rule's columns). CSR rows or
        landmarks: the kernel of the stored values (``_reads_sparse``)."""
        threads = self._threads if threads is None else threads
        L = self.components_ if L is None else L
        if sp.issparse(Xb) or sp.issparse(L):
            with blas_at_most(threads):
                return kernel_matrix(Xb, L, kernel=self._name, **self._params)
        if callable(self._name):
            B = np.asarray(self._name(Xb, L, **self._params), dtype=np.float64)
            if B.shape != (Xb.shape[0], L.shape[0]):
                raise ValueError(f"The kernel callable returned shape {B.shape}; expected "
                                 f"{(Xb.shape[0], L.shape[0])}.")
            if np.iscomplexobj(B) or not np.all(np.isfinite(B)):
                raise ValueError("The kernel callable returned NaN, infinity or complex "
                                 "values.")
            return B
        if self._name in _COMPILED_KIND:
            p = self._params
            gamma = p.get("gamma", 0.0)
            if "sigma" in p:
                return kernel_matrix(Xb, L, kernel=self._name, **p)
            with single_threaded_blas():
                B = kernel_block(_COMPILED_KIND[self._name], np.ascontiguousarray(Xb), L,
                                 float(gamma), float(p.get("coef0", 0.0)),
                                 int(p.get("degree", 3)), threads, out)
            if not np.all(np.isfinite(B)):
                raise ValueError(f"kernel={self._name!r} overflowed on these rows (NaN or "
                                 "infinity in k(X, landmarks)); scale the data or the "
                                 "kernel's parameters.")
            return B
        return kernel_matrix(Xb, L, kernel=self._name, **self._params)

    def _check_rows(self, X):
        if self._uses_metric():
            rows = Objects(X, self.metric, self.metric_params or {})
            rows.check_channels(self.components_, "its landmarks")
            return rows
        if self.kernel == "precomputed":
            return validate_input(self, X, dtype=np.float64, reset=False)
        return validate_input(self, X, dtype=np.float64, accept_sparse="csr", reset=False,
                             order=None if callable(self._name) else "C")

    def _feature_blocks(self, X, dtype=np.float64, columns=None, out=None):
        """(lo, hi, Phi of rows lo:hi) of the rows of X (checked by _check_rows), block by
        block, as ``dtype``; ``columns``: the number of leading features (the positive part
        is the first ``n_positive_``). A yielded block may be overwritten by the next one:
        copy it or use it before asking for the next. With ``out`` (an (n, columns) array
        of ``dtype``) each block is written into ``out[lo:hi]`` and that view is yielded."""
        N = self.normalization_ if columns is None else self.normalization_[:, :columns]
        if isinstance(X, Objects):
            # the distances of a block of objects to the landmarks, then their kernel
            for lo, hi, rows in X.blocks(N.shape[0]):
                # the cores idle now, block by block: a moment's load (a process that
                # ends, freeing gigabytes) costs one block on one thread, not all of them
                D = X.distances(rows, self.components_, self.component_indices_,
                                n_jobs=effective_threads(self.n_jobs), offset=lo)
                # arrays whatever set_config says (a model saved before arrays_out)
                F = (np.asarray(self.distance_kernel_.transform(D)) @ N).astype(dtype,
                                                                               copy=False)
                if out is not None:
                    out[lo:hi] = F
                    F = out[lo:hi]
                yield lo, hi, F
            return
        n = X.shape[0]
        step = min(rows_per_block(N.shape[0]), max(n, 1))
        sparse = self._csr_rows(X) or sp.issparse(self.components_)
        if sp.issparse(X) and not self._csr_rows(X):
            # CSR rows made dense a block at a time, each block near 64 MB
            step = min(step, dense_rows_per_block(X.shape[1]))
        if self._fused() and not sparse:
            # kernel tile, product and rounding in one pass per tile of 256 rows, on the
            # threads: no n x m kernel block, and no serial float64 -> float32 copy after
            # (at 2e5 x 500 that copy alone took 1.0 s of a 9 s fit on one thread)
            N = np.ascontiguousarray(N)
            p = self._params
            kind = _COMPILED_KIND[self._name]
            buf = np.empty((step, N.shape[1]), dtype=dtype) if out is None else None
            for lo in range(0, n, step):
                hi = min(n, lo + step)
                threads = effective_threads(self.n_jobs)  # the cores idle now, each block
                F = buf[: hi - lo] if out is None else out[lo:hi]
                with single_threaded_blas():
                    kernel_features(kind, np.ascontiguousarray(dense_rows(X[lo:hi])),
                                    self.components_, N, F, float(p.get("gamma", 0.0)),
                                    float(p.get("coef0", 0.0)), int(p.get("degree", 3)),
                                    threads)
                yield lo, hi, F
            return
        # one kernel buffer and one product buffer for all blocks (fresh ones would cost
        # their page faults again each block); the caller copies each block out
        Bbuf = np.empty((step, N.shape[0])) if self.kernel != "precomputed" else None
        Fbuf = np.empty((step, N.shape[1]))
        for lo in range(0, n, step):
            hi = min(n, lo + step)
            threads = effective_threads(self.n_jobs)  # the cores idle now, each block
            B = X[lo:hi] if self.kernel == "precomputed" else \
                self._block(self._rows_of(X[lo:hi]), threads, Bbuf[: hi - lo])
            F = Fbuf[: hi - lo]
            # the product on the n_jobs threads the kernel block had (BLAS's own count
            # would make n_jobs=1 use every core, and compete on a busy machine)
            with blas_at_most(threads):
                np.matmul(B, N, out=F)
            F = F if dtype == np.float64 else F.astype(dtype)
            if out is not None:
                out[lo:hi] = F
                F = out[lo:hi]
            yield lo, hi, F

    def _fused(self) -> bool:
        """The features of rows come from the compiled tiles in one pass (the kernels
        computed by name in C, from features)."""
        return (self.kernel != "precomputed" and isinstance(self._name, str)
                and self._name in _COMPILED_KIND and "sigma" not in self._params)

    def _features(self, X, dtype=np.float64, columns=None) -> np.ndarray:
        """Phi of the rows of X (checked), as ``dtype``, computed block by block."""
        X = X if isinstance(X, Objects) else self._check_rows(X)
        n = len(X) if isinstance(X, Objects) else X.shape[0]  # len() of a sparse matrix fails
        out = np.empty((n, self.n_components_ if columns is None else columns), dtype=dtype)
        for _ in self._feature_blocks(X, dtype, columns, out=out):
            pass
        return out

    def transform(self, X):
        """The features ``Phi = k(X, L) U |lam|^(-1/2)``.

        Parameters
        ----------
        X : array-like of shape (n_samples, n_features) or dask array
            Data (for ``"precomputed"``: kernel values against the landmarks, one column per
            landmark). A ``dask.array`` is transformed block by block of rows (lazily).

        Returns
        -------
        ndarray of shape (n_samples, r)
            ``r = n_components_`` features.
            With ``signature_``, ``k(x, y) ~ Phi(x) diag(signature_) Phi(y)'``.
        """
        check_is_fitted(self, "normalization_")
        if hasattr(X, "dask") and hasattr(X, "map_blocks"):
            return self._transform_dask(X)
        device = resolve_fitted(self, X)
        if device.is_cuda:
            return self._device_features(X, device, np.float64)
        return self._features(X)

    def _device_rows(self, X):
        """Rows checked for the device: a CuPy array as is (shape and finiteness checked
        there), anything else as ``_check_rows`` checks it."""
        if not is_device_array(X):
            return self._check_rows(X)
        if self._uses_metric():
            raise ValueError("with metric=, give the objects as NumPy arrays or lists (the "
                             "series are sent to the device block by block).")
        if X.ndim != 2 or X.shape[1] != self.n_features_in_:
            raise ValueError(f"X has shape {X.shape}, but {type(self).__name__} is expecting "
                             f"{self.n_features_in_} features as input.")
        if not bool(X.dtype.kind in "biuf") or not bool(X.size == 0 or
                                                         abs(X).max() < np.inf):
            raise ValueError("X contains NaN, infinity or non-numbers; remove or impute "
                             "those values.")
        return X

    def _device_features(self, X, device, dtype, columns=None):
        """Phi of the rows of X computed on ``device``: a CuPy array for CuPy input,
        NumPy otherwise."""
        from ._device import device_features, nystroem_blocks

        on_device = is_device_array(X)
        Xc = self._device_rows(X)
        n = len(Xc) if isinstance(Xc, Objects) else Xc.shape[0]
        cols = self.n_components_ if columns is None else columns
        F = device_features(nystroem_blocks(self, Xc, device, dtype, columns), n, cols,
                            device, dtype)
        return F if on_device else to_numpy(F)

    def _transform_dask(self, X):
        if X.ndim != 2 and not self._uses_metric():
            raise ParameterError(f"must be 2-D; got a dask array of shape {X.shape}.", "X")
        if any(np.isnan(c) for c in X.chunks[0]) or np.isnan(X.shape[1]):
            raise ValueError("X is a dask array with unknown chunk sizes; call "
                             "X.compute_chunk_sizes() first.")
        if self._uses_metric():
            # equal-length series (n, length) or (n, channels, length): one task per block
            # of rows, each the distances of its series to the landmarks
            if X.ndim not in (2, 3):
                raise ParameterError(f"must be a dask array of series, (n, length) or (n, "
                                     f"channels, length); got shape {X.shape}.", "X")
            Xr = X.rechunk({i: -1 for i in range(1, X.ndim)})
            return Xr.map_blocks(lambda b: self._features(b), dtype=np.float64,
                                 chunks=(Xr.chunks[0], (self.n_components_,)),
                                 drop_axis=list(range(2, X.ndim)))
        if X.shape[1] != self.n_features_in_:
            raise ValueError(f"X has {X.shape[1]} features, but {type(self).__name__} is "
                             f"expecting {self.n_features_in_} features as input.")
        Xr = X.rechunk({1: -1})
        return Xr.map_blocks(lambda b: self._features(b), dtype=np.float64,
                             chunks=(Xr.chunks[0], (self.n_components_,)))

    def approximate_kernel(self, X, Y=None) -> np.ndarray:
        """``Phi(X) diag(signature_) Phi(Y)'``: the approximation of ``k(X, Y)``.

        Parameters
        ----------
        X : array-like
            Rows to compare with the training rows (as given to :meth:`transform`).
        Y : array-like, optional
            ``None`` means ``X``.

        Returns
        -------
        ndarray of shape (n_X, n_Y)
        """
        check_is_fitted(self, "normalization_")
        A = self._features(X)
        B = A if Y is None else self._features(Y)
        return (A * self.signature_) @ B.T

    def get_feature_names_out(self, input_features=None):
        """Feature names ``kreinnystroem0``, ... (positive part first).

        Parameters
        ----------
        input_features : None
            Ignored; accepted for scikit-learn's pipeline API.

        Returns
        -------
        ndarray of str
        """
        check_is_fitted(self, "normalization_")
        return np.asarray([f"kreinnystroem{i}" for i in range(self.n_components_)],
                          dtype=object)


def _checked_block(D, idx, name: str):
    """The landmarks' distances by a callable metric, both orders: a warning where
    ``d(x, x) != 0`` or ``d(a, b) != d(b, a)`` (beyond 1e-9 of the largest distance), then
    the symmetric part with a zero diagonal, which the kernel is made of."""
    from .._warn import warn

    scale = float(np.max(D, initial=0.0))
    tol = 1e-9 * scale if scale > 0 else 0.0
    diag = np.abs(np.diag(D))
    k = int(np.argmax(diag)) if diag.size else 0
    if diag.size and diag[k] > tol:
        warn(f"metric {name!r} gives d(x, x) = {D[k, k]:.6g}, not 0, for landmark "
             f"{k} (training object {int(idx[k])}); a distance is 0 from an object "
             "to itself. The kernel takes d(x, x) = 0.", UserWarning, stacklevel=4)
    asym = np.abs(D - D.T)
    i, j = np.unravel_index(int(np.argmax(asym)), asym.shape) if asym.size else (0, 0)
    if asym.size and asym[i, j] > tol:
        warn(f"metric {name!r} is not symmetric on the landmarks: d(a, b) = "
             f"{D[i, j]:.6g} but d(b, a) = {D[j, i]:.6g} for landmarks {i} and {j} "
             f"(training objects {int(idx[i])}, {int(idx[j])}). The kernel uses "
             "(d(a, b) + d(b, a)) / 2; the distances to the landmarks of other "
             "objects are d(x, landmark).", UserWarning, stacklevel=4)
    D = (D + D.T) / 2
    np.fill_diagonal(D, 0.0)
    return D

