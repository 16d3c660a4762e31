"""Random distance features (D2KE): a positive-definite kernel from any distance, by
distances to random objects."""

from __future__ import annotations

import numbers

import numpy as np
from sklearn.base import (
    BaseEstimator,
    ClassNamePrefixFeaturesOutMixin,
    TransformerMixin,
    _fit_context,
)
from sklearn.utils._param_validation import Interval, StrOptions
from sklearn.utils.validation import check_array, check_is_fitted, validate_data

from .. import _constraints as _c
from .._device import DEVICES, resolve_fitted, to_numpy
from .._feature_map import FeatureMap
from .._interrupt import unfitted_on_interrupt
from .._metrics import get, objects_of
from .._threads import effective_threads
from .._validation import check_seed
from ..exceptions import ParameterError
from ._collection import Objects, check_metric

__all__ = ["RandomDistanceFeatures"]

#: the longest random series / string drawn by default (Wu et al. draw short random
#: objects: their distances to a long object then read its local patterns)
MAX_RANDOM_LENGTH = 25



def _draws_random(metric) -> bool:
    """The metric table says random objects of its kind are drawn (series, strings)."""
    row = get(metric)
    return row is not None and row.random_objects

class RandomDistanceFeatures(ClassNamePrefixFeaturesOutMixin, TransformerMixin, FeatureMap,
                             BaseEstimator):
    """Features ``phi_j(x) = s exp(-gamma d(x, omega_j))`` for ``R`` random objects.

    D2KE (Wu, Yen, Xu, Ravikumar & Witbrock 2018, "D2KE: from distance to kernel and
    embedding"; for series Wu et al. 2018, "Random warping series", for strings Wu et al.
    2019, "Efficient global string kernel with random features"): the kernel
    ``k(x, y) = E_omega[exp(-gamma d(x, omega)) exp(-gamma d(y, omega))]`` is positive
    definite by construction for *any* distance ``d`` -- it is an inner product of features
    -- and ``Phi Phi'`` is its Monte-Carlo estimate with ``R`` draws, up to the constant
    ``s``, chosen so that the features' total variance over the training objects is 1 (as
    for standardised features: ``C`` then means what it means on an RBF kernel). A linear
    SVM on
    ``Phi`` (``NystroemSVC(features="d2ke", ...)``) is then an SVM with that kernel at a
    cost linear in ``n``: ``n x R`` distances, no landmark decomposition, no negative
    part to remedy.

    Parameters
    ----------
    metric : str or callable, default="dtw"
        A metric of :func:`~indefsvm.pairwise_distances` or a callable ``d(a, b)``.
    metric_params : dict, optional
        E.g. ``{"window": 0.1}`` for DTW.
    n_components : int, default=100
        ``R``, the number of random objects (features).
    gamma : float or "median", default="median"
        ``"median"``: ``1 / median d(x, omega)`` over the training objects and the random
        ones.
    random_objects : {"auto", "data"}, default="auto"
        The distribution of ``omega``. ``"auto"``: for ``"dtw"`` random series whose length
        is uniform in ``[1, min(25, median length)]`` and whose points are normal with each
        channel's mean and standard deviation over the training series (Random Warping
        Series); for ``"levenshtein"`` random strings of a length uniform in
        ``[1, min(25, median length)]`` over the training strings' alphabet, each character
        drawn with its frequency there; for any other metric objects sampled from the
        training data. ``"data"``: objects sampled from the training data for every
        metric.
    max_length : int, optional
        The longest random series or string (default ``min(25, median length)``); with
        ``random_objects="auto"`` and ``"dtw"`` or ``"levenshtein"`` only (refused where the
        objects are sampled from the data).
    random_state : int, Generator or None
        Seed of the random objects ``omega_j``.
    n_jobs : int, optional
        Threads of the distances (``-1``: all cores).
    device : {"cpu", "cuda"} or None, default=None
        ``"cuda"``: ``transform`` computes the distances (``"dtw"``, ``"euclidean"``,
        ``"cityblock"``) and the features on a CUDA device (``pip install
        "indefsvm[gpu]"``); ``fit`` stays on the CPU. The features come back as NumPy.

    Attributes
    ----------
    random_objects_ : list or ndarray
        The ``R`` objects ``omega_j``.
    gamma_ : float
    scale_ : float
        ``s``.
    n_components_ : int
    signature_ : ndarray of shape (n_components,)
        ``+1`` per feature: the features of a positive-definite kernel (as
        :class:`~indefsvm.KreinNystroem`'s ``signature_``).
    n_positive_, n_negative_ : int
        Features of each sign: ``n_components_`` and 0.

    Examples
    --------
    >>> import numpy as np
    >>> import indefsvm as isvm
    >>> S, y = isvm.datasets.make_cbf(30, random_state=0)
    >>> rdf = isvm.distances.RandomDistanceFeatures(n_components=64, random_state=0).fit(S)
    >>> Phi = rdf.transform(S)
    >>> Phi.shape, bool(np.linalg.eigvalsh(Phi @ Phi.T).min() > -1e-12)
    ((30, 64), True)
    """

    _parameter_constraints: dict = {
        "metric": [str, callable], "metric_params": [dict, None],
        "n_components": _c.N_COMPONENTS,
        "gamma": [StrOptions({"median"}), Interval(numbers.Real, 0, None, closed="neither")],
        "random_objects": [StrOptions({"auto", "data"})],
        "max_length": [Interval(numbers.Integral, 1, None, closed="left"), None],
        "random_state": ["random_state"], "n_jobs": _c.N_JOBS,
        "device": [StrOptions(set(DEVICES)), None],
    }

    def __init__(self, metric="dtw", *, metric_params=None, n_components: int = 100,
                 gamma="median", random_objects: str = "auto", max_length=None,
                 random_state=None, n_jobs=None, device=None):
        self.metric = metric
        self.metric_params = metric_params
        self.n_components = n_components
        self.gamma = gamma
        self.random_objects = random_objects
        self.max_length = max_length
        self.random_state = random_state
        self.n_jobs = n_jobs
        self.device = device

    def _check_settings(self):
        check_metric(self.metric, self.metric_params)
        if isinstance(self.n_components, bool) or self.n_components < 1:
            raise ParameterError(f"must be a positive integer (the number of random "
                                 f"objects); got {self.n_components!r}.", "n_components")
        if isinstance(self.gamma, str):
            if self.gamma != "median":
                raise ParameterError(f"must be 'median' or a number > 0; got "
                                     f"{self.gamma!r}.", "gamma")
        elif not (np.isfinite(self.gamma) and self.gamma > 0):
            raise ParameterError(f"must be 'median' or a number > 0; got {self.gamma!r}.",
                                 "gamma")
        if self.random_objects not in ("auto", "data"):
            raise ParameterError(f"must be 'auto' or 'data'; got "
                                 f"{self.random_objects!r}.", "random_objects")
        if self.max_length is not None and (isinstance(self.max_length, bool)
                                            or self.max_length < 1):
            raise ParameterError(f"must be a positive integer; got "
                                 f"{self.max_length!r}.", "max_length")
        if self.max_length is not None and (self.random_objects == "data"
                                            or not _draws_random(self.metric)):
            # objects sampled from the data keep their own lengths: it was taken and unused
            why = ("random_objects='data' samples the training objects" if
                   self.random_objects == "data" else
                   f"metric={self.metric!r} samples its random objects from the training data")
            raise ValueError(f"max_length bounds the random series of metric='dtw' and the "
                             f"random strings of 'levenshtein' (random_objects='auto'); {why}, "
                             "whose lengths are their own. Leave max_length out.")

    # -- the random objects ---------------------------------------------------------------

    def _draw(self, objs, rng):
        from ._objects import as_series

        R = int(self.n_components)
        if self.random_objects == "data" or not _draws_random(self.metric):
            idx = rng.choice(len(objs), size=R, replace=R > len(objs))
            return objs.take(idx)
        if objects_of(self.metric) == "series":
            S = as_series(objs.data, "X", self.metric)
            lengths = S.lengths
            top = self.max_length or max(1, min(MAX_RANDOM_LENGTH, int(np.median(lengths))))
            P = S.points
            # values beyond 1e150 (which MSM takes) would overflow std's squares: the
            # moments of P / top, scaled back (elsewhere P's own, to the bit as before)
            big = float(np.max(np.abs(P))) if P.size else 0.0
            unit = big if big > 1e150 else 1.0
            mean, std = (P / unit).mean(axis=0) * unit, (P / unit).std(axis=0) * unit
            std = np.where(std > 0, std, 1.0)
            out = []
            for L in rng.integers(1, top + 1, size=R):
                pts = mean[:, None] + std[:, None] * rng.standard_normal((S.n_channels, L))
                out.append(pts[0] if S.n_channels == 1 else pts)
            return out
        chars, counts = np.unique(np.array(list("".join(objs.data))), return_counts=True)
        lengths = np.array([len(s) for s in objs.data])
        top = self.max_length or max(1, min(MAX_RANDOM_LENGTH, int(np.median(lengths))))
        p = counts / counts.sum()
        return ["".join(rng.choice(chars, size=L, p=p))
                for L in rng.integers(1, top + 1, size=R)]

    @unfitted_on_interrupt
    @_fit_context(prefer_skip_nested_validation=True)
    def fit(self, X, y=None):
        """Draw the random objects and (``gamma="median"``) the scale.

        Parameters
        ----------
        X : collection of objects
            What the metric compares (series, strings, ...).
        y : None
            Ignored; accepted for scikit-learn's pipeline API.

        Returns
        -------
        self
        """
        self._check_settings()
        objs = Objects(self._arrays_checked(X, reset=True), self.metric,
                       self.metric_params or {})
        if len(objs) < 2:
            raise ValueError(f"RandomDistanceFeatures needs at least two training objects; got "
                             f"n_samples = {len(objs)} (the features' scale is their variance "
                             "over the training objects).")
        return self._fit_objects(objs)

    def _arrays_checked(self, X, reset: bool):
        """Arrays of numbers through scikit-learn's checks first, for its wording of the
        common mistakes (sparse, complex, object, empty, 1-D, NaN); vectors remember their
        number of features. Lists (series of several lengths, strings) and the objects of a
        callable are checked by ours (Objects)."""
        objects = objects_of(self.metric)
        if isinstance(X, (list, tuple)) or objects in ("strings", "objects"):
            return X
        if objects == "series":
            # series of any length: no fixed number of features
            return check_array(X, dtype=np.float64, allow_nd=True)
        return validate_data(self, X, dtype=np.float64, reset=reset, allow_nd=True)

    def _fit_objects(self, objs):
        rng = check_seed(self.random_state)
        omegas = self._draw(objs, rng)
        self._threads = effective_threads(self.n_jobs)
        # a sample of the training objects against every random one: the median rule and
        # the scale
        k = min(len(objs), 1000)
        rows = objs.take(np.sort(rng.choice(len(objs), size=k, replace=False)))
        D = objs.distances(rows, omegas, n_jobs=self._threads)
        if isinstance(self.gamma, str):
            med = float(np.median(D))
            if not med > 0:
                pos = D[D > 0]
                if pos.size == 0:
                    raise ValueError("every distance to the random objects is 0; give gamma "
                                     "as a number.")
                med = float(np.median(pos))
            self.gamma_ = 1.0 / med
        else:
            self.gamma_ = float(self.gamma)
        # the kernel's scale: the features' total variance over the training objects is 1
        # (the centred kernel's mean diagonal, as for standardised features), so that C
        # means what it means on an RBF kernel. An SVM with a bias ignores the features'
        # common offset, which would otherwise set the scale: with the 1 / sqrt(R) of Monte
        # Carlo, C had to be about 100 times larger (CBF series, DTW, 64 random series)
        F = np.exp(-self.gamma_ * D)
        F -= F.mean(axis=0)
        norm2 = float(np.mean(np.sum(F * F, axis=1)))
        if not norm2 > 0:
            raise ValueError(f"the features do not vary over the training objects at gamma="
                             f"{self.gamma_:.4g}: give another gamma.")
        self.scale_ = 1.0 / np.sqrt(norm2)
        self.random_objects_ = omegas
        self.n_components_ = int(self.n_components)
        # the interface NystroemSVC reads: every feature positive
        self.signature_ = np.ones(self.n_components_)
        self.n_positive_, self.n_negative_ = self.n_components_, 0
        return self

    # -- features ---------------------------------------------------------------------------

    @property
    def n_landmarks_(self) -> int:
        """The number of random objects (``n_components_``): the name a landmark model
        reads."""
        return self.n_components_

    def _check_rows(self, X):
        rows = Objects(self._arrays_checked(X, reset=False), self.metric,
                       self.metric_params or {})
        rows.check_channels(self.random_objects_, "its random series")
        return rows

    def _feature_blocks(self, X, dtype=np.float64, columns=None, out=None):
        scale = self.scale_
        for lo, hi, rows in X.blocks(self.n_components_):
            # the cores idle now, block by block (a moment's load costs one block)
            D = X.distances(rows, self.random_objects_, n_jobs=effective_threads(self.n_jobs),
                            offset=lo)
            F = (np.exp(-self.gamma_ * D) * scale).astype(dtype, copy=False)
            if out is not None:
                out[lo:hi] = F
                F = out[lo:hi]
            yield lo, hi, F

    def _features(self, X, dtype=np.float64, columns=None):
        X = X if isinstance(X, Objects) else self._check_rows(X)
        out = np.empty((len(X), self.n_components_), dtype=dtype)
        for lo, hi, F in self._feature_blocks(X, dtype):
            out[lo:hi] = F
        return out

    def transform(self, X):
        """``Phi(X)``, shape ``(n, R)``.

        Parameters
        ----------
        X : collection of objects
            Objects of the kind given to :meth:`fit`.

        Returns
        -------
        ndarray of shape (n_samples, n_components)
        """
        check_is_fitted(self, "random_objects_")
        device = resolve_fitted(self)
        if device.is_cuda:
            from ._device import device_features, random_feature_blocks

            Xc = self._check_rows(X)
            return to_numpy(device_features(
                random_feature_blocks(self, Xc, device, np.float64), len(Xc),
                self.n_components_, device, np.float64))
        return self._features(X)

    @property
    def _n_features_out(self):
        # scikit-learn's mixin names them randomdistancefeatures0, 1, ...
        return self.n_components_
