"""An SVM on Krein-space Nystroem features: the remedies at 10^5 - 10^6 points."""

from __future__ import annotations

import logging
import numbers
import time

import numpy as np
import scipy.sparse as sp
from sklearn.base import BaseEstimator, ClassifierMixin, _fit_context
from sklearn.utils._param_validation import StrOptions
from sklearn.utils.multiclass import check_classification_targets
from sklearn.utils.validation import check_is_fitted, column_or_1d

from .. import _constraints as _c
from .._device import DEVICES, is_device_array, resolve_device, resolve_fitted, to_numpy
from .._device._blocks import check_device_kernel
from .._dual import DualProblems, check_label_digest, check_training_labels, label_digest
from .._fitted import forget
from .._interrupt import unfitted_on_interrupt
from .._logging import REPORT_EVERY, enable, logger
from .._metrics import objects_of
from .._remedies import landmark_options
from .._tags import PairwiseInput
from .._threads import sized_blas
from .._validation import (
    SCALERS,
    check_memory,
    check_seed,
    user_stacklevel,
    validate_input,
    validate_rows,
)
from .._warn import warn
from ..distances._collection import Objects
from ..exceptions import ConvergenceWarning, ParameterError, Setting
from ..kernels import canonical_name, check_kernel_settings
from ..solvers._linear import linear_svc
from ..svm._ovo import OvOVotes
from ..svm._weights import (
    check_every_class_weighted,
    check_weights,
    class_weight_vector,
    sample_weight_vector,
)
from ._blocks import fit_memory, rows_per_block
from ._device import check_device_memory, check_device_metric
from ._features import LANDMARK_RULES, KreinNystroem, _default_of, landmark_count

#: steps of the device's decomposition for one linear SVM before the coordinate descent on
#: the host takes the problem over (10^6 rows of 500 features: about 110 steps)
DEVICE_STEPS = 400

__all__ = ["NystroemSVC"]

REMEDIES = landmark_options()


class NystroemSVC(PairwiseInput, OvOVotes, ClassifierMixin, BaseEstimator):
    """SVM on the Krein-space Nystroem features of an indefinite kernel.

    Fits :class:`KreinNystroem` (``m = n_components`` landmarks, features ``Phi`` with
    ``k ~ Phi S Phi'``, ``S = diag(signature_)``), then a linear C-SVM on the features
    (LIBSVM's dual with a free bias, by our compiled dual coordinate descent on float32
    features; one-vs-one for more classes, as :class:`~indefsvm.IndefiniteSVC`). Nothing
    of size ``n^2`` is formed: memory is ``n * m`` floats, time linear in ``n``.

    The remedy says which kernel the SVM sees (Chen et al. 2009; Loosli, Canu & Ong 2016):

    * ``"flip"``: ``Phi Phi'``, the flipped kernel ``|K|`` of the approximation;
    * ``"clip"``: ``Phi_+ Phi_+'``, its positive part only (the first ``n_positive_``
      features);
    * ``"krein"``: the Krein SVM. It is trained in the Hilbert space associated with the
      Krein space of the features (``Phi Phi'``) and its weight vector is mapped back by
      the fundamental symmetry, ``v = S w`` (Loosli et al.'s back-projection
      ``U sign(lam) U'`` in feature coordinates); it predicts with the indefinite inner
      product of the features, ``f(x) = Phi(x) S v + b`` -- the original (approximated)
      kernel. Since ``S S = I`` its decisions are those of flip with the consistent test
      transform, exactly as :class:`KreinSVC`'s are.

    With every training point a landmark (``n_components = n``) the three are the exact
    remedies: ``FlipEigenvalues`` / ``ClipEigenvalues`` + ``IndefiniteSVC`` and
    ``KreinSVC``.

    Parameters
    ----------
    kernel : str or callable, default="rbf"
        As :class:`KreinNystroem` (also ``"precomputed"``: ``X`` is the ``(n, m)`` block of
        kernel values against the landmarks). With ``metric``: the kernel of the
        distances, ``"rbf"``, ``"laplacian"``, ``"tl1"``, ``"linear"`` or
        ``"polynomial"`` (:class:`~indefsvm.DistanceKernel`).
    n_components : int, default=500
        Landmarks ``m``; more than the samples: every sample is a landmark (the exact
        kernel), with a warning, as scikit-learn's ``Nystroem`` does.
    metric : str, callable or None, default=None
        Train on objects compared by a distance: ``"dtw"``, ``"levenshtein"``,
        ``"euclidean"``, ``"cityblock"`` or a callable ``d(a, b) -> float``. ``X`` is then
        any collection :func:`~indefsvm.pairwise_distances` accepts (series of any
        lengths, multivariate series, strings); only the distances to the ``m`` landmarks
        are computed, block by block on ``n_jobs`` threads. At ``m = n`` the model is the
        exact remedy on the whole distance kernel.
    metric_params : dict, optional
        The metric's parameters, e.g. ``{"window": 0.1}``.
    features : {"nystroem", "d2ke"}, default="nystroem"
        ``"nystroem"``: the Krein-space Nystroem features of the kernel. ``"d2ke"`` (with a
        metric): random distance features ``s exp(-gamma d(x, omega_j))`` to ``m`` random
        objects (:class:`~indefsvm.distances.RandomDistanceFeatures`; Wu et al.
        2018), a positive-definite kernel by construction, so the three remedies coincide;
        ``kernel`` must then be ``"rbf"`` or ``"laplacian"`` (the features are
        ``exp(-gamma d)``), ``gamma`` is ``"median"`` (``1 / median d``) or a number, and
        ``landmarks`` does not apply.
    remedy : {"krein", "flip", "clip"}, default="krein"
        The kernel the SVM sees, as listed above: the flipped approximation, its positive
        part, or the Krein SVM (whose decisions are flip's, mapped back).
    C : float, default=1.0
        Box bound of the dual, scaled per sample by ``class_weight`` and ``sample_weight``.
    gamma : {"scale", "auto", "median"}, float or None, default=None
        ``None`` is ``"scale"`` for vectors (as :class:`~indefsvm.IndefiniteSVC`) and
        ``"median"`` with a metric (``1 / median(d^2)`` over the landmark pairs).
    coef0, degree : float, int
        Parameters of the polynomial and sigmoid kernels, as in :class:`KreinNystroem`.
    kernel_params : dict, optional
        Further parameters of the kernel (``sigma``, ``p``, or a callable's keywords);
        not ``gamma``, ``coef0`` or ``degree`` beside the options of those names.
    landmarks : {"uniform", "kmeans++", "kmedoids++", "pivoted"} or array-like of int, \
default="uniform"
        See :class:`KreinNystroem` (``"kmedoids++"`` with a metric; ``"pivoted"``: greedy
        pivoted Cholesky, each next landmark the object represented worst).
    class_weight : dict, "balanced" or None
        Multiplies ``C`` per class (``"balanced"``: ``n / (n_classes n_c)``), as in
        :class:`~indefsvm.IndefiniteSVC`.
    tol : float, default=1e-3
        LIBSVM's stopping rule: KKT gap ``m - M <= tol`` (and ``|y'alpha| <= tol * C``).
    max_iter : int, optional
        Passes of the coordinate descent per one-vs-one problem; ``None`` means 100 000,
        and a problem still unsolved then (a large C) goes on in the decomposition of the
        device path (below), run on the CPU for at most 400 steps (said in the log). On a
        device, also the most decomposition steps (when fewer than 400).
    decision_function_shape : {"ovr", "ovo"}, default="ovr"
    break_ties : bool, default=False
        As in ``SVC``.
    random_state : int, Generator or None
        Seed of the landmarks and of the order of the coordinate steps.
    n_jobs : int, optional
        Threads (OpenMP) of the kernel blocks and of the solver's full-gradient checks.
    device : {"cpu", "cuda"} or None, default=None
        Where the work that grows with ``n`` runs: ``None`` follows the input (a CuPy
        array: the GPU), ``"cuda"`` a CUDA device through CuPy (``pip install
        "indefsvm[gpu]"``): the kernel (or the distances) of every row to the landmarks
        and the features, block by block (kernels linear, polynomial, rbf, sigmoid,
        l1_gaussian, sqrt_l1_exponential; metrics dtw, euclidean, cityblock). The
        features stay on the device as float32 (their memory is checked there before the
        work), and each linear SVM is solved there: the same problem and stopping rule
        (the KKT gap ``<= tol``) by a decomposition with working sets of 2 048 rows,
        started from the smoothed primal problem (Huber's hinge, widths 0.1, 0.01, 0.001,
        L-BFGS) -- the same model within ``tol``. A problem not solved in 400 steps goes
        on in the CPU's coordinate descent, from the decomposition's multipliers (said in
        the log). The landmarks are fitted on the CPU, and the fitted model is plain
        NumPy: it saves, and predicts on a machine without a GPU after
        ``set_params(device="cpu")``. ``decision_function`` returns a
        CuPy array for CuPy input, NumPy otherwise.
    verbose : bool, default=False
        Log each stage (landmarks, features, each problem's progress).

    Attributes
    ----------
    nystroem_ : KreinNystroem
        The fitted features.
    coef_ : ndarray of shape (n_pairs, r)
        Weight vector of each one-vs-one problem in feature space (``r`` features used:
        all, or the positive ones for clip): ``w`` for flip and clip, the Krein-space
        ``v = S w`` for krein.
    metric_ : ndarray of shape (r,)
        The inner product of the decision, ``f(x) = Phi(x) diag(metric_) coef_' + b``:
        ``signature_`` for krein, ones for flip and clip.
    intercept_ : ndarray of shape (n_pairs,)
    classes_ : ndarray
    n_iter_ : ndarray of shape (n_pairs,)
        Passes of each problem (decomposition steps for one the decomposition solved: on a
        device, or on the CPU after the coordinate descent's default budget).
    converged_ : bool
        Every problem met the stopping rule.
    kkt_gap_ : ndarray of shape (n_pairs,)
    pair_results_ : list of dict
        Per one-vs-one problem (in the order of ``coef_``): ``classes`` (the pair),
        ``positive`` (the class of positive decision values), ``converged``, ``n_iter``
        (passes, or steps where ``solver`` is ``"decomposition"``), ``kkt_gap``,
        ``n_sv``, ``n_bounded`` (multipliers at their bound), ``intercept`` and ``solver``
        (``"dcd"``: the coordinate descent; ``"decomposition"``: the working sets, on a
        device or after the coordinate descent's default budget).
    n_support_ : ndarray of shape (n_classes,)
        Support vectors per class (over the problems they take part in).
    n_features_in_ : int
    n_features_used_ : int
        ``r``, the features the SVM is trained on.
    shape_fit_ : tuple
        Shape of the training data.
    class_weight_ : ndarray of shape (n_classes,)
        The class weights used (ones without ``class_weight``).
    n_train_ : int
        Number of training samples.

    Examples
    --------
    >>> import numpy as np
    >>> import indefsvm as isvm
    >>> X, y = isvm.datasets.load_heart(return_X_y=True)
    >>> clf = isvm.NystroemSVC(kernel="sigmoid", gamma=0.01, coef0=-0.5, n_components=100,
    ...                        random_state=0).fit(X, y)
    >>> clf.converged_, clf.score(X, y) > 0.8
    (True, True)
    """

    #: scikit-learn's declaration of the parameters, checked by fit (_fit_context); the
    #: ranges and the finer rules are checked after it, in messages that name the fix
    _parameter_constraints: dict = {
        "kernel": [str, callable], "n_components": _c.N_COMPONENTS,
        "remedy": [StrOptions(set(REMEDIES))], "C": _c.FINITE_C,
        "gamma": [str, numbers.Real, None], "coef0": _c.COEF0, "degree": _c.DEGREE,
        "kernel_params": _c.KERNEL_PARAMS,
        "landmarks": [StrOptions(set(LANDMARK_RULES)), "array-like"],
        "class_weight": _c.CLASS_WEIGHT, "tol": _c.TOL, "max_iter": _c.MAX_ITER,
        "decision_function_shape": _c.DECISION_FUNCTION_SHAPE, "break_ties": ["boolean"],
        "random_state": ["random_state"], "n_jobs": _c.N_JOBS,
        "verbose": ["verbose"], "metric": [str, callable, None], "metric_params": [dict, None],
        "features": [StrOptions({"nystroem", "d2ke"})],
        "device": [StrOptions(set(DEVICES)), None],
    }

    def __init__(self, kernel="rbf", *, n_components: int = 500, metric=None,
                 metric_params=None, features: str = "nystroem", remedy: str = "krein",
                 C: float = 1.0, gamma=None, coef0: float = 0.0, degree: int = 3,
                 kernel_params=None, landmarks="uniform", class_weight=None,
                 tol: float = 1e-3, max_iter: int | None = None,
                 decision_function_shape: str = "ovr", break_ties: bool = False,
                 random_state=None, n_jobs=None, verbose: bool = False, device=None):
        self.kernel = kernel
        self.n_components = n_components
        self.metric = metric
        self.metric_params = metric_params
        self.features = features
        self.remedy = remedy
        self.C = C
        self.gamma = gamma
        self.coef0 = coef0
        self.degree = degree
        self.kernel_params = kernel_params
        self.landmarks = landmarks
        self.class_weight = class_weight
        self.tol = tol
        self.max_iter = max_iter
        self.decision_function_shape = decision_function_shape
        self.break_ties = break_ties
        self.random_state = random_state
        self.n_jobs = n_jobs
        self.verbose = verbose
        self.device = device

    # features may be sparse (read a block at a time as dense rows)
    _sparse_features = True

    def __setstate__(self, state):
        # models saved before metric= existed load as what they were: an SVM of vectors
        state.setdefault("metric", None)
        state.setdefault("metric_params", None)
        state.setdefault("features", "nystroem")
        state.setdefault("device", None)
        super().__setstate__(state)

    def _feature_map(self):
        """The (unfitted) features: KreinNystroem, or D2KE's random distance features."""
        if self.features == "d2ke":
            from ..distances import RandomDistanceFeatures

            if not self._uses_metric():
                raise ValueError("features='d2ke' are distances to random objects: give "
                                 "metric= (e.g. metric='dtw').")
            if self.kernel not in ("rbf", "laplacian"):
                raise ValueError(f"features='d2ke' are exp(-gamma d(x, omega)); kernel="
                                 f"{self.kernel!r} does not apply (leave kernel='rbf').")
            if not (isinstance(self.landmarks, str) and self.landmarks == "uniform"):
                raise ParameterError(
                    "{landmarks} does not apply to {d2ke} (its objects are random, not chosen "
                    "among the data); drop it.", "landmarks", subject="",
                    values={"landmarks": Setting("landmarks"),
                            "d2ke": Setting("features", "d2ke")})
            if self.kernel_params:
                raise ValueError("kernel_params does not apply to features='d2ke'.")
            rdf = RandomDistanceFeatures(
                self.metric, metric_params=self.metric_params,
                n_components=self.n_components,
                gamma="median" if self.gamma is None else self.gamma, n_jobs=self.n_jobs)
            rdf._check_settings()
            return rdf
        ny = KreinNystroem(
            self.kernel, n_components=self._landmark_count(), metric=self.metric,
            metric_params=self.metric_params,
            gamma=self._gamma(), coef0=self.coef0, degree=self.degree,
            kernel_params=self.kernel_params, landmarks=self.landmarks, n_jobs=self.n_jobs)
        ny._check_settings()
        return ny

    def _landmark_count(self) -> int:
        """m: n_components, or the length of an array of landmarks (NystroemSVC's default
        of 500 beside it gives way to it; another n_components is refused)."""
        if self.kernel == "precomputed":
            return self.n_components
        return landmark_count(self.n_components, self.landmarks,
                              _default_of(type(self), "n_components"))

    def _uses_metric(self) -> bool:
        return getattr(self, "metric", None) is not None

    def _gamma(self):
        """gamma for the features: None is 'scale' for vectors ('median' with a metric, which
        KreinNystroem reads from None)."""
        named = {"gamma", "sigma"} & set(self.kernel_params or {})
        if self.gamma is None and not self._uses_metric() and not named:
            # (where kernel_params names the kernel's width it wins, and the features'
            # estimator is told no gamma of its own to be given twice)
            return "scale"
        return self.gamma

    def _check_settings(self):
        if self.remedy not in REMEDIES:
            raise ParameterError(f"must be one of {list(REMEDIES)}; got {self.remedy!r}.",
                                 "remedy")
        if isinstance(self.C, bool) or not isinstance(self.C, (int, float, np.number)) \
                or not np.isfinite(self.C) or self.C <= 0:
            raise ParameterError(f"must be a finite number > 0 (e.g. C=1.0); got {self.C!r}.",
                                 "C")
        if isinstance(self.tol, bool) or not isinstance(self.tol, (int, float, np.number)) \
                or not np.isfinite(self.tol) or self.tol <= 0:
            raise ParameterError(f"must be a positive number; got {self.tol!r}.", "tol")
        if self.kernel != "precomputed" and not self._uses_metric():
            check_kernel_settings(self.kernel, self._gamma(), self.kernel_params)
        if self.decision_function_shape not in ("ovr", "ovo"):
            raise ParameterError("must be 'ovr' or 'ovo'; got "
                                 f"{self.decision_function_shape!r}.", "decision_function_shape")
        # the features' own rules (the metric's parameters, D2KE's options): said with the
        # model's, before any data are read
        self._feature_map()

    @unfitted_on_interrupt
    @_fit_context(prefer_skip_nested_validation=True)
    def fit(self, X, y, sample_weight=None):
        """Fit the features, then one linear SVM per pair of classes.

        Parameters
        ----------
        X : array-like of shape (n_samples, n_features)
            Training data (``"precomputed"``: kernel values against the landmarks).
        y : array-like of shape (n_samples,)
            Class labels.
        sample_weight : array-like of shape (n_samples,), optional
            Per-sample weights: ``C_i = C * class_weight * sample_weight``.

        Returns
        -------
        self : NystroemSVC
        """
        self._check_settings()
        ny = self._feature_map()
        device = resolve_device(self.device, X)
        X_dev = None
        if device.is_cuda:
            # what the device cannot compute is refused before any work
            if self._uses_metric():
                check_device_metric(self.metric)
            elif self.kernel != "precomputed":
                check_device_kernel(canonical_name(self.kernel)
                                    if isinstance(self.kernel, str) else self.kernel)
            # a CuPy X stays there for the features; its copy here is checked and gives
            # the landmarks
            X_dev = X if is_device_array(X) else None
            X = to_numpy(X) if X_dev is not None else X
            y = to_numpy(y) if is_device_array(y) else y
        if self._uses_metric():
            # objects, not a matrix: checked once here (every object, before any distance);
            # no feature count, not even a previous fit's on vectors
            forget(self, "n_features_in_")
            X = Objects(X, self.metric, self.metric_params or {})
            y = column_or_1d(y, warn=True)
            if y.shape[0] != len(X):
                raise ValueError(f"X holds {len(X)} objects but y has {y.shape[0]} labels; "
                                 "give one label per object.")
        else:
            # X is checked once here, for the features and the SVM both
            X, y = validate_input(self, X, y, dtype=np.float64,
                                 accept_sparse=False if self.kernel == "precomputed"
                                 else "csr",
                                 order=None if callable(self.kernel) else "C")
            y = column_or_1d(y, warn=True)
        if y.dtype == object:
            # (words or mixed objects: scikit-learn's check before any sort of them)
            check_classification_targets(y)
        # the classes, then each label's code by a binary search among them: the same codes
        # as np.unique(y, return_inverse=True) without its sort of all n labels (10^7
        # labels: 1.3 s -> 0.7 s)
        self.classes_ = np.unique(y)
        if y.dtype != object:
            # scikit-learn's check of the targets reads the classes, not the n labels: the
            # same verdict and message (NaN, infinity, real values are classes too), and one
            # pass of np.unique over the labels fewer (0.25 s at 10^7)
            check_classification_targets(self.classes_)
        y_idx = np.searchsorted(self.classes_, y)
        if self.classes_.shape[0] < 2:
            raise ValueError("The number of classes has to be greater than one; got 1 class")
        n = len(X) if self._uses_metric() else X.shape[0]
        sw = sample_weight_vector(sample_weight, n)
        if sample_weight is None and self.class_weight is None:
            # every weight is 1 and every class has a sample: the checks below cannot fail
            # (three passes over the n weights fewer)
            self.class_weight_ = class_weight_vector(None, self.classes_, y)
            w = sw
        else:
            check_weights(sw, y_idx)
            self.class_weight_ = class_weight_vector(self.class_weight, self.classes_, y)
            w = self.class_weight_[y_idx] * sw
            check_every_class_weighted(self.classes_, y_idx, w)
        # said before the landmarks' work: the n x m float32 features (the one array that
        # grows with n) and what the landmarks hold at once (module _blocks)
        m = self._landmark_count() if self.kernel != "precomputed" else X.shape[1]
        d2ke = self.features == "d2ke"
        if not d2ke:
            m = min(m, n)  # landmarks are samples (more is refused by the landmarks' rule)
        held = ("the distances of a sample to the random objects" if d2ke else
                f"the {m} x {m} landmark kernel and its eigendecomposition")
        check_memory(fit_memory(n, m, d2ke=d2ke, sparse=sp.issparse(X)),
                     f"NystroemSVC with {m} {'random objects' if d2ke else 'landmarks'} on "
                     f"{n} samples (the {n} x {m} float32 features, {held})",
                     "Use fewer landmarks (n_components), or train on a subsample.")
        loud = enable(self.verbose)
        rng = check_seed(self.random_state)
        t0 = time.perf_counter()
        ny.set_params(random_state=int(rng.integers(2**31 - 1)))
        if self._uses_metric():
            self.nystroem_ = ny._fit_objects(X)
        else:
            ny.n_features_in_ = X.shape[1]  # what fit's check of X would set
            self.nystroem_ = ny._fit_rows(X)
        if loud:
            logger.info("%s: %d %s, %d features (%d positive, %d negative), %.1f s",
                        "D2KE" if self.features == "d2ke" else "Nystroem", ny.n_landmarks_,
                        "random objects" if self.features == "d2ke" else "landmarks",
                        ny.n_components_,
                        ny.n_positive_, ny.n_negative_, time.perf_counter() - t0)
        cols = ny.n_positive_ if self.remedy == "clip" else ny.n_components_
        if cols == 0:
            raise ValueError(
                "remedy='clip' keeps the positive part of the kernel on the landmarks, and it "
                "has no positive eigenvalue: no feature is left. Use remedy='flip' or "
                "'krein', or check the kernel's parameters.")
        t1 = time.perf_counter()
        pairs = self._pairs_of(y_idx, w)
        # progress in steps: the blocks of feature rows, then the one-vs-one problems
        m = ny.n_landmarks_
        n_blocks = -(-n // (X.block_rows(m) if self._uses_metric() else rows_per_block(m)))
        total = n_blocks + len(pairs)
        step = 0
        said = time.perf_counter()
        # the CPU's blocks are written into Z by the map (the kernels by name: rounded to
        # float32 tile by tile on the threads); the device's stay on the device, where the
        # linear SVM is solved (``_solve``)
        if device.is_cuda:
            # the features, and the linear SVM's work beside them: about eight float64
            # vectors of n, and from SUBSAMPLE_ROWS rows (when set) the warm start's copy of
            # a tenth of the features' rows
            from ..solvers import _linear_device as lin

            rows_from = lin.SUBSAMPLE_ROWS
            sub = n // lin.SUBSAMPLE_SHARE if rows_from is not None and n >= rows_from else 0
            check_device_memory(device, (n + sub) * cols * 4 + 64 * n,
                                f"the {n} x {cols} float32 features and the linear SVM's "
                                "work")
            Z = device.xp.empty((n, cols), dtype=device.xp.float32)
            blocks = self._device_blocks(ny, X if X_dev is None else X_dev, device, cols)
        else:
            Z = np.empty((n, cols), dtype=np.float32)
            blocks = ny._feature_blocks(X, np.float32, cols, out=Z)
        for lo, hi, F in blocks:
            if device.is_cuda:
                Z[lo:hi] = F
            if not bool((device.xp if device.is_cuda else np).isfinite(Z[lo:hi]).all()):
                # an unbounded kernel (linear, polynomial, a callable) of large inputs: its
                # features pass float32's largest number, the linear SVM would read inf
                raise ParameterError(
                    f"NystroemSVC: the features of rows {lo} to {hi - 1} pass float32's "
                    f"range (|z| > {float(np.finfo(np.float32).max):.3g}), in which the "
                    "linear SVM stores them: the kernel's values on these inputs are too "
                    "large. Scale the features first ({scale}) or the "
                    "kernel.", "X", "", SCALERS)
            step += 1
            # a line every few seconds (and the last block), not one per block: at 10^6
            # rows there are a hundred blocks
            if loud and (hi == n or time.perf_counter() - said >= REPORT_EVERY):
                said = time.perf_counter()
                logger.info("NystroemSVC: step %d of %d (features of rows up to %d)", step,
                            total, hi)
        if loud:
            logger.info("features: %d x %d float32 (%.0f MB), %.1f s", Z.shape[0], cols,
                        Z.nbytes / 2**20, time.perf_counter() - t1)
        self._pairs = []
        on_device = device if device.is_cuda else None
        coefs, intercepts, n_iter, gaps, alphas, rows, done = [], [], [], [], [], [], []
        solvers = []
        converged = True
        worst = None
        for a, b, pos, idx in pairs:
            ypm = np.where(y_idx[idx] == pos, 1.0, -1.0)
            label = (f"classes {self.classes_[a]} vs {self.classes_[b]}"
                     if self.classes_.shape[0] > 2 else "linear SVM")
            res, Z, on_device = self._solve(Z, ypm, self.C * w[idx], idx, rng, label,
                                            on_device)
            step += 1
            if loud:
                logger.info("NystroemSVC: step %d of %d (%s: %s after %d %s, KKT gap "
                            "%.3g, %d support vectors)", step, total, label, res.status,
                            res.n_iter, "decomposition steps on " + (
                                "the device" if res.extra.get("device") == "cuda" else
                                "the CPU") if res.solver == "decomposition" else "passes",
                            res.kkt_gap,
                            res.n_sv)
            self._pairs.append((a, b, pos))
            coefs.append(res.extra["w"])
            intercepts.append(res.b)
            n_iter.append(res.n_iter)
            solvers.append(res.solver)
            gaps.append(res.kkt_gap)
            alphas.append(res.alpha)
            rows.append(idx)
            done.append(bool(res.converged))
            if not res.converged:
                converged = False
                worst = res if worst is None or res.kkt_gap > worst.kkt_gap else worst
        del Z
        metric = ny.signature_[:cols] if self.remedy == "krein" else np.ones(cols)
        coef = np.asarray(coefs)
        # krein: the Krein-space weight vector v = S w (the fundamental symmetry), read by the
        # indefinite inner product Phi(x) S v
        self.coef_ = coef * metric if self.remedy == "krein" else coef
        self.metric_ = metric
        self.intercept_ = np.asarray(intercepts, dtype=np.float64)
        self.n_iter_ = np.asarray(n_iter, dtype=np.int64)
        self.kkt_gap_ = np.asarray(gaps)
        self.converged_ = converged
        self._pair_converged = done
        self._alphas = alphas
        self._label_digest = label_digest(y_idx)  # the report tells other labels by it
        self._rows = rows
        self._bounds = [self.C * w[idx] for idx in rows]
        # each one-vs-one problem's solution, for people and reports (the command line's
        # summary is built from it)
        self.pair_results_ = [
            {"classes": (self.classes_[a], self.classes_[b]),
             "positive": self.classes_[pos], "converged": bool(ok),
             "n_iter": int(it), "kkt_gap": float(gap), "n_sv": int(np.count_nonzero(al > 0)),
             "n_bounded": int(np.count_nonzero(al >= bd)), "intercept": float(b0),
             "solver": solver}
            for (a, b, pos), ok, it, gap, al, bd, b0, solver in zip(
                self._pairs, done, self.n_iter_, self.kkt_gap_, alphas, self._bounds,
                self.intercept_, solvers, strict=True)]
        sv = np.zeros(n, dtype=bool)
        for idx, al in zip(rows, alphas, strict=True):
            sv[idx[al > 0]] = True
        self.n_support_ = np.bincount(y_idx[sv], minlength=self.classes_.shape[0]).astype(
            np.int32)
        self.n_features_used_ = cols
        self.n_train_ = n
        self.shape_fit_ = (n,) if self._uses_metric() else X.shape
        if not converged:
            feas, cmax = worst.extra["feasibility"], float(np.max(worst.C))
            failed = (f"the KKT gap m - M is {worst.kkt_gap:.3g} > tol"
                      if worst.kkt_gap > self.tol else
                      f"|y'alpha| = {feas:.3g} > tol * max C = {self.tol * cmax:.3g} (the "
                      "bias had not settled)")
            stopped = (f"The decomposition stopped after {worst.n_iter} steps (the "
                       "coordinate descent's 100 000 passes before it)"
                       if worst.solver == "decomposition" else
                       f"The coordinate descent stopped at max_iter={worst.n_iter} passes")
            warn(
                f"{stopped} before reaching tol={self.tol:g}: {failed}. Increase max_iter "
                "(or tol), or scale C down.", ConvergenceWarning,
                stacklevel=user_stacklevel())
        if loud and logger.isEnabledFor(logging.INFO):
            logger.info("NystroemSVC fitted in %.1f s", time.perf_counter() - t0)
        return self

    def _device_blocks(self, fmap, X, device, cols):
        """(lo, hi, float32 features of rows lo:hi) computed on ``device``."""
        from ._device import nystroem_blocks, random_feature_blocks

        if self.features == "d2ke":
            return random_feature_blocks(fmap, X, device, np.float32)
        return nystroem_blocks(fmap, X, device, np.float32, cols)

    def _solve(self, Z, ypm, Cb, idx, rng, label, device):
        """One linear SVM on the rows ``idx`` of the features ``Z``: ``(result, Z, device)``.

        ``device`` None: the features are on the host, the dual coordinate descent solves.
        Else they are on ``device``, and its decomposition (``solvers._linear_device``: the
        same problem and stopping rule) runs for at most ``DEVICE_STEPS`` steps (or
        ``max_iter``, if fewer); a problem it has not solved by then goes to the
        coordinate descent on the host, started from the decomposition's multipliers and
        intercept, with a line in the log -- ``Z`` is then the features' host copy, which
        the next problems use too (``device`` None)."""
        if device is not None:
            from ..solvers._linear_device import linear_svc_device

            steps = DEVICE_STEPS if self.max_iter is None else min(DEVICE_STEPS,
                                                                   int(self.max_iter))
            res = linear_svc_device(Z, ypm, Cb, rows=idx, tol=self.tol, max_iter=steps,
                                    device=device, verbose=self.verbose, label=label)
            if res.converged:
                return res, Z, device
            logger.info("%s: the device's decomposition stopped after %d steps (%s, KKT gap "
                        "%.3g); the coordinate descent on the host goes on from its "
                        "multipliers", label, res.n_iter, res.status, res.kkt_gap)
            Z = np.ascontiguousarray(to_numpy(Z))
            start = {"alpha0": res.alpha, "b0": res.b}
        else:
            start = {}
        res = linear_svc(Z, ypm, Cb, rows=idx, tol=self.tol, max_iter=self.max_iter,
                         random_state=rng, n_jobs=self.n_jobs, verbose=self.verbose,
                         label=label, **start)
        if not res.converged and self.max_iter is None and device is None:
            res = self._decompose_on_host(Z, ypm, Cb, idx, res, label)
        return res, Z, None

    def _decompose_on_host(self, Z, ypm, Cb, idx, res, label):
        """The coordinate descent's default budget ran out on a problem that started on the
        host (a large C: its many free multipliers move one at a time, each little): the
        device's decomposition -- working sets of 2 048 rows, each solved exactly -- goes on
        from its multipliers on the CPU for at most ``DEVICE_STEPS`` steps, with a line in
        the log. It starts from the multipliers of the coordinate descent's ``(w, b)`` (its
        own ``y'alpha`` need not be 0 yet, and the decomposition keeps a start's). The
        result with the smaller KKT gap is kept. (On 6 000 rows, C = 100 and 1 000, 2-core
        VM: the coordinate descent 100 000 passes, 1.0-1.9 s, unsolved; the decomposition
        from zero solved in 4-5 steps.) The rows of a one-vs-one problem of several classes
        are copied for it (at most the features' size, on this path only)."""
        from ..solvers._linear_device import linear_svc_device

        logger.info("%s: the coordinate descent stopped at %d passes (KKT gap %.3g); the "
                    "decomposition with working sets of rows goes on from its point",
                    label, res.n_iter, res.kkt_gap)
        with sized_blas(len(idx), self.n_jobs):
            dec = linear_svc_device(Z, ypm, Cb, rows=idx, tol=self.tol, max_iter=DEVICE_STEPS,
                                    device=resolve_device("cpu"),
                                    primal0=(res.extra["w"], res.b), verbose=self.verbose,
                                    label=label)
        return dec if dec.converged or dec.kkt_gap < res.kkt_gap else res

    def _ovo(self, X):
        check_is_fitted(self, "coef_")
        ny = self.nystroem_
        device = resolve_fitted(self, X)
        if device.is_cuda:
            return self._ovo_device(X, device)
        if self._uses_metric():
            Xc = ny._check_rows(X)
        else:
            # checked here first: feature names are the classifier's (the features saw
            # arrays)
            X = validate_rows(self, X, "kernel rows" if self.kernel == "precomputed" else None,
                              dtype=np.float64,
                              accept_sparse=False if self.kernel == "precomputed" else "csr")
            Xc = ny._check_rows(X)
        W = (self.coef_ * self.metric_).T
        out = np.empty((len(Xc) if self._uses_metric() else Xc.shape[0], W.shape[1]))
        for lo, hi, F in ny._feature_blocks(Xc, np.float64, self.n_features_used_):
            out[lo:hi] = F @ W + self.intercept_
        return out

    def _ovo_device(self, X, device):
        """One-vs-one decision values with the features computed on ``device``."""
        from ._device import nystroem_blocks, random_feature_blocks

        ny = self.nystroem_
        on_device = is_device_array(X)
        xp = device.xp
        if self._uses_metric() or on_device:
            Xc = ny._check_rows(X) if self._uses_metric() else ny._device_rows(X)
        else:
            X = validate_rows(self, X, "kernel rows" if self.kernel == "precomputed" else None,
                              dtype=np.float64,
                              accept_sparse=False if self.kernel == "precomputed" else "csr")
            Xc = ny._check_rows(X)
        cols = self.n_features_used_
        if self.features == "d2ke":
            blocks = random_feature_blocks(ny, Xc, device, np.float64)
        else:
            blocks = nystroem_blocks(ny, Xc, device, np.float64, cols)
        W = xp.asarray((self.coef_ * self.metric_).T)
        b = xp.asarray(self.intercept_)
        n = len(Xc) if isinstance(Xc, Objects) else Xc.shape[0]
        out = xp.empty((n, W.shape[1]), dtype=xp.float64)
        for lo, hi, F in blocks:
            out[lo:hi] = F @ W + b
        return out if on_device else to_numpy(out)

    def decision_function(self, X):
        """Decision values ``Phi(x) diag(metric_) coef_' + intercept_``.

        Parameters
        ----------
        X : array-like of shape (n_samples, n_features)
            Test data, as given to :meth:`fit` (objects with ``metric``).

        Returns
        -------
        ndarray of shape (n_samples,) for two classes (> 0 means ``classes_[1]``), else
        (n_samples, n_classes) for ``"ovr"`` or (n_samples, n_pairs) for ``"ovo"``.
        """
        dec = self._ovo(X)
        if is_device_array(dec):
            # the input was a CuPy array: so is the result (the shaping is the CPU's)
            return _like(dec, self._shaped_decision(to_numpy(dec)))
        return self._shaped_decision(dec)

    def predict(self, X):
        """Class labels (the one-vs-one vote of :class:`~indefsvm.IndefiniteSVC`).

        Parameters
        ----------
        X : array-like of shape (n_samples, n_features)
            Test data, as given to :meth:`fit` (objects with ``metric``).

        Returns
        -------
        ndarray of shape (n_samples,)
        """
        if self.break_ties and self.decision_function_shape == "ovo":
            raise ParameterError("must be False when decision_function_shape is 'ovo'",
                                 "break_ties")
        return self._labels_from_ovo(to_numpy(self._ovo(X)))

    def _check_fitted_state(self):
        """The fitted state a model file vouches for (``indefsvm._fitted``): fitted, its
        one-vs-one problems, weights of its feature count, finite; features computed with its
        own kernel (vectors) or its distance kernel and landmarks the metric compares
        (objects)."""
        from .._fitted import check_pairs, require

        if getattr(self, "metric", None) is not None:
            return self._check_fitted_objects()
        ny = getattr(self, "nystroem_", None)
        require(type(ny) is KreinNystroem and hasattr(self, "coef_"),
                "holds a NystroemSVC that was never fitted")
        from .._fitted import check_degree, check_kernel_name, require_finite, require_finite_rows
        from ..kernels import KERNELS

        check_kernel_name(self.kernel, canonical_name, precomputed=False)
        check_pairs(self)
        # the features are computed with the name and parameters the fit resolved: they must
        # be the model's own kernel, with parameters it takes, finite, and a sane degree
        name = canonical_name(self.kernel)
        params = getattr(ny, "_params", None)
        require(getattr(ny, "_name", None) == name and ny.kernel == self.kernel
                and isinstance(params, dict) and set(params) <= set(KERNELS[name][1]),
                f"computes its features with a kernel other than its own {self.kernel!r}")
        for key, value in params.items():
            if key == "degree":
                check_degree(value)
            else:
                require(isinstance(value, (int, float)) and np.isfinite(value),
                        f"has a kernel parameter {key}={value!r} that is not a finite number")
        arrays = {key: require_finite(getattr(owner, key, np.nan),
                                      f"has {key.strip('_')} values that are NaN or infinite")
                  for owner, keys in ((self, ("coef_", "intercept_", "metric_")),
                                      (ny, ("normalization_", "signature_")))
                  for key in keys}
        # the landmarks: dense, or CSR as a fit on CSR features keeps them
        landmarks = require_finite_rows(getattr(ny, "components_", np.nan),
                                        "has components values that are NaN or infinite")
        N = arrays["normalization_"]
        m, r = N.shape if N.ndim == 2 else (-1, -1)
        n_pairs = len(self.classes_) * (len(self.classes_) - 1) // 2
        require(landmarks == (m, self.n_features_in_)
                and arrays["signature_"].shape == (r,)
                and arrays["coef_"].shape == (n_pairs, self.n_features_used_)
                and 0 < self.n_features_used_ <= r
                and arrays["intercept_"].shape == (n_pairs,)
                and arrays["metric_"].shape == (self.n_features_used_,)
                and np.all(np.abs(arrays["metric_"]) == 1),
                "has landmarks, features and weights of inconsistent shapes")

    def _check_fitted_objects(self):
        """``_check_fitted_state`` of a model of objects (``metric=``)."""
        from .._fitted import require
        from ..distances import DistanceKernel, RandomDistanceFeatures

        require(isinstance(self.metric, str), f"compares objects with {self.metric!r}, not a "
                "metric name")
        ny = getattr(self, "nystroem_", None)
        require(hasattr(self, "coef_") and type(ny) in (KreinNystroem, RandomDistanceFeatures),
                "holds a NystroemSVC that was never fitted")
        # predict compares with the features' own metric: a file's numpy.subtract there was
        # called on the input while the model's own metric passed the check
        inner = getattr(ny, "metric", None)
        require(isinstance(inner, str) and inner == self.metric,
                f"computes its features with a metric other than its own {self.metric!r}")
        n_pairs = len(self.classes_) * (len(self.classes_) - 1) // 2
        used = getattr(self, "n_features_used_", None)
        require(not isinstance(used, bool) and isinstance(used, (int, np.integer)) and used >= 1,
                "has no count of the features it uses")
        coef = np.asarray(self.coef_, dtype=float)
        require(coef.shape == (n_pairs, used) and np.all(np.isfinite(coef)),
                "has weights of the wrong shape, NaN or infinite")
        intercept = np.asarray(self.intercept_, dtype=float)
        require(intercept.shape == (n_pairs,) and np.all(np.isfinite(intercept)),
                "has intercept values of the wrong shape, NaN or infinite")
        metric_ = np.asarray(getattr(self, "metric_", np.ones(used)), dtype=float)
        require(metric_.shape == (used,) and np.all(np.abs(metric_) == 1.0),
                "has a feature metric that is not +1 / -1 per feature")
        objs = ny.components_ if type(ny) is KreinNystroem else ny.random_objects_
        n_obj = len(objs)
        if type(ny) is KreinNystroem:
            N = np.asarray(ny.normalization_, dtype=float)
            require(type(ny.distance_kernel_) is DistanceKernel and N.ndim == 2
                    and N.shape[0] == n_obj and N.shape[1] >= used
                    and np.all(np.isfinite(N)),
                    "has landmarks and features of inconsistent shapes")
            # its kind, a finite gamma > 0 where the kind has one, finite origin terms
            ny.distance_kernel_._check_fitted_state()
        else:
            require(np.isfinite(ny.gamma_) and ny.gamma_ > 0 and np.isfinite(ny.scale_),
                    "has a gamma or a scale that is not a finite number (gamma > 0)")
            require(used <= n_obj, "uses more features than it has random objects")
        for k, o in enumerate(objs):
            ok = isinstance(o, str) if objects_of(self.metric) == "strings" else (
                isinstance(o, np.ndarray) and o.dtype.kind == "f" and np.all(np.isfinite(o)))
            require(ok, f"has a landmark {k} that {self.metric} cannot compare")

    def _dual_problems(self, X, y, tol):
        """The linear SVM of each pair of classes on the training features, as fit computed
        them (float32), with the features' signature (for :func:`~indefsvm.sanity_report`)."""
        if not hasattr(self, "coef_"):
            raise ValueError("sanity_report needs a fitted NystroemSVC (call fit first).")
        tol = self.tol if tol is None else tol
        ny = self.nystroem_
        cols = self.n_features_used_
        Z = ny._features(X, np.float32, cols)
        if Z.shape[0] != self.n_train_:
            raise ParameterError(f"must be the training data of the model ({self.n_train_} "
                                 f"samples); got {Z.shape[0]}.", "X")
        y = check_training_labels(y, Z.shape[0], "NystroemSVC")
        check_label_digest(self, y)
        problems = []
        for k, ((a, b, pos), rows, alpha, C) in enumerate(zip(self._pairs, self._rows,
                                                              self._alphas, self._bounds,
                                                              strict=True)):
            problems.append({
                "classes": (self.classes_[a], self.classes_[b]), "rows": rows,
                "y": np.where(y[rows] == self.classes_[pos], 1.0, -1.0), "alpha": alpha,
                "C": C, "coef": self.coef_[k] * self.metric_})
        info = {"Z": Z, "S": ny.signature_[:cols], "remedy": self.remedy,
                "n_landmarks": int(ny.n_landmarks_), "n_features": cols,
                "n_positive": ny.n_positive_, "n_negative": ny.n_negative_,
                # the model's own claim is comparable only at the tolerance it was fitted with
                "converged": self.converged_ if tol == self.tol else None}
        return DualProblems("features", float(tol), problems=tuple(problems), info=info)


def _like(ref, a):
    """``a`` on the device of the CuPy array ``ref``."""
    import cupy

    return cupy.asarray(a)
