"""``RemedySearchCV``: which remedy, with which kernel parameter and which C -- chosen by
cross-validation, refitted, and ready to predict.

One machinery with :func:`~indefsvm.compare_remedies`: the same methods, the same decision
rule (:func:`~indefsvm.remedies._compare.choose_method`), the same report
(:class:`~indefsvm.remedies.RemedyComparison`). What makes the search cheap:

* the kernel of a fold is computed once per kernel parameter, and decomposed once (and once
  centred) for every spectrum fix and the Krein SVM that needs it;
* the Krein SVM makes the decisions of flip (Loosli et al. 2016; see the theory page), so its
  scores are flip's, not recomputed;
* the ``C`` grid of a convex method (every fix) is solved in increasing order, each solve
  started from the last solution scaled to the new box (``alpha C'/C`` stays feasible); the
  indefinite SVM, whose problem is not convex, starts every ``C`` from zero, as a refit does,
  so that its scores are the ones its refit would get;
* the one-vs-one problems of a fit go to the compiled loop in one call, and the (fold,
  kernel parameter) tasks through joblib (``n_jobs``; a Dask backend spreads them).
"""

from __future__ import annotations

import contextlib
import numbers
import time
from collections.abc import Iterable
from itertools import product

import numpy as np
import scipy.sparse as sp
from joblib import Parallel, delayed, effective_n_jobs
from scipy.stats import rankdata
from sklearn.base import BaseEstimator, ClassifierMixin, _fit_context, clone
from sklearn.metrics import check_scoring
from sklearn.model_selection import StratifiedKFold, check_cv
from sklearn.neighbors import KNeighborsClassifier
from sklearn.pipeline import Pipeline
from sklearn.utils import assert_all_finite
from sklearn.utils._available_if import available_if
from sklearn.utils._param_validation import HasMethods, Interval, StrOptions
from sklearn.utils.multiclass import check_classification_targets
from sklearn.utils.validation import check_is_fitted, column_or_1d, validate_data

from .._fitted import forget
from .._interrupt import unfitted_on_interrupt
from .._logging import enable, logger
from .._tags import PairwiseInput, arrays_out
from .._threads import joblib_workers, single_threaded, sized_by
from .._validation import (
    N_JOBS,
    check_distance_matrix,
    check_kernel_matrix,
    looks_like_distances,
    objects_error,
    user_stacklevel,
    validate_rows,
)
from .._warn import Muted, carried, warn
from ..exceptions import ConvergenceWarning, ParameterError
from ._compare import (
    SEARCH_FOLD,
    SEARCH_REFIT,
    RemedyComparison,
    _as_list,
    _fit_weighted,
    _positive,
    _recommend,
    choose_method,
    degenerate_warning,
    failed_note,
    ranked_errors,
)
from ._fix_base import check_kernel_memory, folds_matrices
from ._folds import KernelRanking, _task, features_gamma, of_features
from ._methods import METHODS, svm_estimator

__all__ = ["METHODS", "RemedySearchCV"]

#: how series and strings reach the search: their distances, computed once (each fold slices
#: them; a pipeline from the objects would compute them again in every fold)
_OBJECTS = ("For series or strings compute their distances once, D = "
            "indefsvm.pairwise_distances(S, metric='dtw') (or 'levenshtein'), and search "
            "RemedySearchCV(kernel=DistanceKernel()).fit(D, y): each fold slices D, and "
            "predict takes the distances of new objects to the training ones.")

#: the grid keys and the methods they apply to (gamma: the kernel's, every SVM method)
_KEYS = {"gamma", "C", "n_neighbors", "rank"}
_DEFAULT_C = (0.01, 0.1, 1.0, 10.0, 100.0)
_DEFAULT_K = (1, 3, 5, 7, 9)
#: the default gamma grid: the kernel's own rule (the median rule of DistanceKernel) times
_GAMMA_FACTORS = tuple(4.0 ** k for k in range(-4, 3))
#: scorers whose loss is 1 - score (an error rate)
_RATE_SCORERS = (None, "accuracy", "balanced_accuracy")


def _chosen_has(attr):
    """``available_if`` check: the refitted method has ``attr`` (before fit: some method
    of the search can have it -- k-NN probabilities, SVM decision values)."""

    def check(self):
        if hasattr(self, "best_estimator_"):
            getattr(self.best_estimator_, attr)  # AttributeError: not available
            return True
        names = self.methods if self.methods is not None else METHODS
        want = {"predict_proba": lambda m: m == "k-NN",
                "decision_function": lambda m: m != "k-NN"}[attr]
        return any(want(m) for m in names)

    return check


class RemedySearchCV(PairwiseInput, ClassifierMixin, BaseEstimator):
    """Search the remedies of an indefinite kernel, their kernel parameter and ``C`` by
    cross-validation; refit the chosen one on all the data.

    ``fit(X, y)`` takes a precomputed kernel matrix, or -- with ``kernel`` a
    distance-to-kernel transformer such as :class:`~indefsvm.DistanceKernel` -- a distance
    matrix, or -- with ``kernel=FeatureKernel(...)`` -- features, whose kernel (and its
    ``gamma``) each fold computes from its training rows. Every method (the indefinite
    SVM, the spectrum fixes, the Krein SVM, k-NN) is scored on the same stratified folds at
    every point of its grid; the best point of each
    method gives it its per-fold scores, and the method of best mean score is chosen, exact
    ties to the cheaper and simpler (the order :data:`~indefsvm.remedies._compare.COST_ORDER`)
    -- the rule that did best on every real task the benchmarks hold (``rule`` below).
    With ``refit=True`` the chosen
    method, with its best parameters, is refitted on all of ``X`` as an ordinary pipeline
    of this library's estimators (``best_estimator_``).

    Parameters
    ----------
    methods : list of str, optional
        A subset of :data:`METHODS`: ``"indefinite SVM"``, ``"clip"``, ``"flip"``,
        ``"shift"``, ``"advanced shift"``, ``"square"``, ``"CNE"``, ``"RNE"``,
        ``"Krein SVM"``, ``"k-NN"``. ``None``: all of them.
    param_grid : dict, optional
        Lists of values for the keys ``"gamma"`` (the kernel transformer's parameter; every
        SVM method), ``"C"`` (every SVM method), ``"n_neighbors"`` (k-NN) and ``"rank"``
        (the advanced shift, see :class:`AdvancedShiftEigenvalues`). Any other key is an
        error, and so is a key that no method of ``methods`` tunes. Keys left out take the
        defaults: ``C`` in 0.01, 0.1, 1, 10, 100; ``gamma``
        the kernel's own rule on all of ``X`` (the median rule of ``DistanceKernel``) times
        4^-4 ... 4^2 (seven values) when the kernel has a ``gamma``; ``n_neighbors`` 1, 3,
        5, 7, 9 (those no larger than a training fold); ``rank`` "auto".
    kernel : transformer, optional
        Turns the matrix ``X`` (and test rows) into kernel values: ``fit(D_train)``,
        ``transform(D_rows)`` with rows of shape ``(n_rows, n_train)``, and a ``gamma``
        parameter to tune (:class:`~indefsvm.DistanceKernel`). ``X`` then holds distances,
        which k-NN uses as they are. :class:`~indefsvm.FeatureKernel`: ``X`` holds
        features (sliced by rows; the default gamma grid spans the kernel's own rule,
        ``"scale"``, on all of ``X``), and k-NN is the Euclidean k-NN of the features.
        ``None``: ``X`` is the kernel itself (k-NN ranks neighbours by the kernel's
        distance, :class:`KernelRanking`).
    cv : int, cross-validation generator or iterable, default=5
        An integer (NumPy's too; ``None``: 5) gives stratified folds, shuffled with
        ``random_state`` when it is given; otherwise scikit-learn's ``check_cv``
        conventions (a splitter or an iterable of folds brings its own order, and
        ``random_state`` beside it is refused).
    scoring : str or callable, optional
        A scikit-learn scorer (one metric). ``None``: accuracy.
    refit : bool, default=True
        Refit the chosen method on all the data (``best_estimator_``, ``predict``).
    rule : {"best", "one-se"}, default="best"
        How the method is chosen from each method's per-fold scores at its best parameters:
        ``"best"`` the best mean score, exact ties to the cheaper method; ``"one-se"`` the
        one-standard-error rule on the *paired* per-fold differences (every method whose
        mean shortfall to the best is within the standard error of its per-fold shortfalls
        ties with it, and the cheapest of those wins). On 19 real tasks (``benchmarks/
        bench_search.py evidence``, the user guide's table) "best" landed within 1 point of
        the best single method's test error on 12 and "one-se" on 8 (mean excess 1.50 and
        2.66 points), so "best" is the default since 0.2; "one-se" prefers the cheaper
        method when the folds cannot tell them apart.
    class_weight : dict, "balanced" or None
        Class weights of every SVM (k-NN is unweighted).
    random_state : int, RandomState or None
        Shuffles the folds of an integer ``cv`` (the only thing it draws; refused with
        another ``cv``).
    n_jobs : int, optional
        The (fold, gamma) tasks in parallel through joblib (``None``: one). On this
        machine's backends never more workers than tasks or idle cores, and one below 300
        samples, where a worker's start costs more than it saves (measured); a Dask backend
        gets ``n_jobs`` as given.
    verbose : bool, default=False
        Log each finished task (``logging.getLogger("indefsvm")``, INFO).

    Attributes
    ----------
    best_method_ : str
        The chosen method.
    best_params_ : dict
        Its parameters (``"method"``, and ``"gamma"``, ``"C"``, ``"n_neighbors"``,
        ``"rank"`` as they apply).
    best_score_ : float
        Its mean cross-validated score (over the folds whose training part holds two
        classes or more: a fold of one class scores NaN in ``cv_results_``, as
        ``GridSearchCV``'s ``error_score``, and the choice reads the other folds).
    best_index_ : int
        Its row in ``cv_results_``.
    best_estimator_ : estimator
        The chosen method refitted on all of ``X`` (``refit=True``): a ``Pipeline`` of the
        kernel transformer (when given), the fix (when the method has one) and
        ``IndefiniteSVC(kernel="precomputed")``, or ``KreinSVC(kernel="precomputed")``, or
        ``KNeighborsClassifier(metric="precomputed")`` (after :class:`KernelRanking` on a
        kernel).
    cv_results_ : dict of ndarray
        scikit-learn's layout: ``params``, ``param_<key>`` (masked where a key does not
        apply), ``split<i>_test_score``, ``mean_test_score``, ``std_test_score``,
        ``rank_test_score``, ``mean_fit_time``, ``std_fit_time``, ``mean_score_time``,
        ``std_score_time``; and ``method``. A fit time counts the kernel, the fix and the
        solve of that candidate (work shared with other candidates counted in full).
    comparison_ : RemedyComparison
        Each method at its best parameters, fold by fold: the table, the decision and its
        evidence (``print``, HTML in a notebook, ``to_dict()``). Its errors are ``1 -
        score`` for accuracy, otherwise minus the score.
    classes_ : ndarray
    n_features_in_ : int
        Training samples (``X`` is square); features with ``FeatureKernel``.
    n_splits_ : int
    refit_time_ : float

    See Also
    --------
    compare_remedies : The report-only view: nested cross-validation of every method.

    References
    ----------
    T. Hastie, R. Tibshirani & J. Friedman (2009), The Elements of Statistical Learning,
    2nd ed., section 7.10 (the one-standard-error rule). G. Loosli, S. Canu & C. S. Ong
    (2016), Learning SVM in Krein spaces, IEEE TPAMI 38(6). Y. Chen, E. K. Garcia, M. R.
    Gupta, A. Rahimi & L. Cazzanti (2009), Similarity-based classification: concepts and
    algorithms, JMLR 10 (clip, flip, shift, square).

    Examples
    --------
    >>> import numpy as np
    >>> import indefsvm as isvm
    >>> X, y = isvm.datasets.load_heart(return_X_y=True)
    >>> K = isvm.kernel_matrix(X, kernel="sigmoid", gamma=0.01, coef0=0.5)
    >>> search = isvm.RemedySearchCV(methods=["indefinite SVM", "flip"],
    ...                              param_grid={"C": [0.1, 1]}, cv=3,
    ...                              random_state=0).fit(K, y)
    >>> search.best_method_ in ("indefinite SVM", "flip")
    True
    >>> round(search.score(K, y), 1) >= 0.8
    True
    """

    #: scikit-learn's declaration of the parameters, checked by fit (_fit_context); the
    #: ranges and the finer rules are checked after it, in messages that name the fix
    _parameter_constraints: dict = {
        # methods: any value reaches fit's own check, which lists the names to choose from
        "methods": "no_validation", "param_grid": [dict, list, tuple, None],
        "kernel": [HasMethods(["fit", "transform"]), None],
        "cv": [Interval(numbers.Integral, 2, None, closed="left"),
               HasMethods(["split", "get_n_splits"]), Iterable, None],
        "scoring": [str, callable, list, tuple, set, dict, None], "refit": ["boolean"],
        "rule": [StrOptions({"best", "one-se"})],
        "class_weight": [dict, StrOptions({"balanced"}), None],
        "random_state": ["random_state"], "n_jobs": N_JOBS,
        "verbose": ["verbose"],
    }

    def __init__(self, *, methods=None, param_grid=None, kernel=None, cv=5, scoring=None,
                 refit=True, rule="best", class_weight=None, random_state=None,
                 n_jobs=None, verbose=False):
        self.methods = methods
        self.rule = rule
        self.param_grid = param_grid
        self.kernel = kernel
        self.cv = cv
        self.scoring = scoring
        self.refit = refit
        self.class_weight = class_weight
        self.random_state = random_state
        self.n_jobs = n_jobs
        self.verbose = verbose

    def _pairwise_input(self) -> bool:
        # X is a kernel or distance matrix, which cross-validation slices on both axes;
        # features (kernel=FeatureKernel(...)) are sliced by rows, and may be sparse
        return not of_features(self.kernel)

    #: features (kernel=FeatureKernel(...)) may be CSR
    _sparse_features = True

    # -- checks -----------------------------------------------------------------------------

    def _methods(self):
        if self.methods is None:
            return list(METHODS)
        if isinstance(self.methods, str) or not hasattr(self.methods, "__iter__"):
            raise ParameterError(f"must be a list of names from {list(METHODS)}; got "
                                 f"{self.methods!r}.", "methods")
        names = list(dict.fromkeys(self.methods))
        unknown = [m for m in names if m not in METHODS]
        if unknown or not names:
            raise ValueError(f"unknown methods {unknown}; choose from {list(METHODS)}."
                             if unknown else "methods is empty; give at least one method.")
        return [m for m in METHODS if m in names]

    def _width_fixed(self):
        """The entry of the kernel transformer's ``kernel_params`` that fixes its width
        (``gamma`` or ``sigma``), or None: a gamma the search set beside it was refused by
        the transformer (before, the entry won and every grid point was one kernel)."""
        if self.kernel is None:
            return None
        entries = self.kernel.get_params().get("kernel_params") or {}
        return next((k for k in ("gamma", "sigma") if k in entries), None)

    def _tunable(self):
        """Whether the kernel transformer has a gamma to tune."""
        if self.kernel is None:
            return False
        if "gamma" not in self.kernel.get_params() or self._width_fixed() is not None:
            return False
        if of_features(self.kernel):  # FeatureKernel: whether its kernel has one
            return features_gamma(self.kernel)
        kinds = getattr(self.kernel, "kind", None)
        from ..distances._kernel import KINDS

        return KINDS.get(kinds, True) if kinds is not None else True

    def _grid(self, X, min_train, methods):
        if isinstance(self.param_grid, (list, tuple)):
            raise ValueError("param_grid is one dict here, e.g. {'C': [0.1, 1, 10], 'gamma': "
                             "[...]}: every method is searched on that one grid. A list of "
                             "dicts (GridSearchCV's form, a grid per method) is not taken; "
                             "choose the methods with methods=[...].")
        grid = dict(self.param_grid or {})
        unknown = sorted(set(grid) - _KEYS)
        if unknown:
            methods = (" The methods are not a grid key: choose them with "
                       "methods=['clip', 'flip', ...]." if {"method", "methods"} & set(unknown)
                       else "")
            raise ValueError(f"param_grid has unknown keys {unknown}; RemedySearchCV takes "
                             f"{sorted(_KEYS)} (gamma: the kernel transformer's parameter, "
                             "C: every SVM, n_neighbors: k-NN, rank: the advanced shift)."
                             + methods)
        # a key no chosen method reads was searched over nothing and said nothing
        tuned_by = {"gamma": "an SVM method", "C": "an SVM method", "n_neighbors": "'k-NN'",
                    "rank": "'advanced shift'"}
        has = {"gamma": any(m != "k-NN" for m in methods),
               "C": any(m != "k-NN" for m in methods),
               "n_neighbors": "k-NN" in methods, "rank": "advanced shift" in methods}
        unused = [k for k in grid if not has[k]]
        if unused:
            raise ValueError(f"param_grid has {unused}, which no method of methods={methods} "
                             f"tunes ({', '.join(f'{k}: {tuned_by[k]}' for k in unused)}); "
                             "drop them, or add the method.")
        out = {}
        if "gamma" in grid:
            fixed = self._width_fixed()
            if fixed is not None:
                raise ValueError(
                    f"param_grid has 'gamma' but kernel={self.kernel!r} fixes its width in "
                    f"kernel_params[{fixed!r}]: drop that entry to search gamma, or drop "
                    "'gamma' from param_grid.")
            if not self._tunable():
                raise ValueError(
                    "param_grid has 'gamma' but there is no kernel parameter to tune: give "
                    "kernel=DistanceKernel(...) (or another transformer with a gamma) and "
                    "distances as X" if self.kernel is None else
                    f"param_grid has 'gamma' but kernel={self.kernel!r} takes none.")
            out["gamma"] = [g if isinstance(g, str) else _positive("gamma", g)
                            for g in _as_list("gamma", grid["gamma"])]
        elif self._tunable():
            base = clone(self.kernel).fit(X)
            g0 = getattr(base, "gamma_", None)
            out["gamma"] = ([g0 * f for f in _GAMMA_FACTORS] if g0 is not None
                            else [self.kernel.get_params()["gamma"]])
        else:
            out["gamma"] = [None]
        out["C"] = [_positive("C", c) for c in _as_list("C", grid.get("C", _DEFAULT_C))]
        if "n_neighbors" in grid:
            ks = [_positive("n_neighbors", k, integer=True)
                  for k in _as_list("n_neighbors", grid["n_neighbors"])]
            big = [k for k in ks if k > min_train]
            if big:
                raise ValueError(f"param_grid['n_neighbors'] has {big}, more than the "
                                 f"{min_train} samples of the smallest training fold.")
        else:
            ks = [k for k in _DEFAULT_K if k <= min_train] or [1]
        out["n_neighbors"] = ks
        out["rank"] = list(_as_list("rank", grid.get("rank", ["auto"])))
        for r in out["rank"]:
            _check_rank(r)
        return out

    def _n_candidates(self, min_train: int) -> int:
        """The candidates a fit scores on each split, known before the data: the grid's
        lengths (gamma's: the given list, or the factors around the median rule's), the
        ks that fit in the smallest training fold of ``min_train`` samples."""
        methods = self._methods()
        grid = dict(self.param_grid or {})
        n_gamma = (len(_as_list("gamma", grid["gamma"])) if "gamma" in grid
                   else len(_GAMMA_FACTORS) if self._tunable() else 1)
        n_c = len(_as_list("C", grid.get("C", _DEFAULT_C)))
        n_k = (len(_as_list("n_neighbors", grid["n_neighbors"])) if "n_neighbors" in grid
               else len([k for k in _DEFAULT_K if k <= min_train]) or 1)
        n_rank = len(_as_list("rank", grid.get("rank", ["auto"])))
        return sum(n_k if m == "k-NN" else
                   n_gamma * n_c * (n_rank if m == "advanced shift" else 1) for m in methods)

    def _candidates(self, methods, grid):
        cands = []
        for m in methods:
            if m == "k-NN":
                cands += [{"method": m, "n_neighbors": k} for k in grid["n_neighbors"]]
                continue
            ranks = grid["rank"] if m == "advanced shift" else [None]
            for g, r, c in product(grid["gamma"], ranks, grid["C"]):
                p = {"method": m}
                if g is not None:
                    p["gamma"] = g
                if r is not None:
                    p["rank"] = r
                p["C"] = c
                cands.append(p)
        return cands

    # -- fit --------------------------------------------------------------------------------

    @unfitted_on_interrupt
    @sized_by(0, "X", method=True)
    @_fit_context(prefer_skip_nested_validation=True)
    def fit(self, X, y, sample_weight=None):
        """Score every method and parameter on the folds, choose, refit.

        Parameters
        ----------
        X : array-like of shape (n_samples, n_samples) or (n_samples, n_features)
            The kernel matrix, or the distance matrix when ``kernel`` is given (features
            with ``kernel=FeatureKernel(...)``).
        y : array-like of shape (n_samples,)
            Class labels (two or more classes).
        sample_weight : array-like of shape (n_samples,), optional
            Weights (>= 0) of the samples in every SVM method, times ``class_weight``: the
            folds' SVMs and the refit get ``C_i = C * weight`` (a weight of 0 leaves the
            sample out of the SVM), and every test fold is scored with its samples' weights
            (weighted accuracy, or ``scoring``'s ``sample_weight``) -- what
            ``GridSearchCV(SVC()).fit(X, y, sample_weight=w)`` does since scikit-learn 1.7
            (1.6 weighted the fits only; this search weighs the scores with either). k-NN
            does not weight its neighbours (said by a warning when k-NN is searched); its
            scores are weighted all the same.

        Returns
        -------
        self
        """
        from ..exceptions import DistanceMatrixWarning

        if self.kernel is None and isinstance(X, np.ndarray) and X.dtype.kind in "iuf" and \
                looks_like_distances(X):
            warn(
                "X looks like a distance matrix, not a kernel: its diagonal is 0 and no entry "
                "is negative. RemedySearchCV takes distances with a kernel to make of them: "
                "RemedySearchCV(kernel=indefsvm.DistanceKernel()) (exp(-gamma d^2), gamma "
                "searched around the median rule).", DistanceMatrixWarning,
                stacklevel=user_stacklevel())
        # said once, above, with the search's own fix (not by every step of the search)
        return Muted(DistanceMatrixWarning).call(self._fit, X, y, sample_weight)

    def _sample_weights(self, sample_weight, y, methods):
        """The checked sample weights (None when not given), and the warning that k-NN does
        not take them."""
        if sample_weight is None:
            return None
        from ..svm._weights import check_weights, sample_weight_vector

        sw = sample_weight_vector(sample_weight, y.shape[0])
        check_weights(sw, np.searchsorted(self.classes_, y))
        if "k-NN" in methods:
            warn("sample_weight weights the SVM methods only: k-NN ranks and votes "
                 "its neighbours unweighted (scikit-learn's KNeighborsClassifier "
                 "takes no sample weights). Leave k-NN out of methods to compare "
                 "weighted models only.", UserWarning, stacklevel=user_stacklevel())
        return sw

    def _fit(self, X, y, sample_weight=None):
        features = of_features(self.kernel)
        # features may be CSR (kept CSR: the folds slice their rows, the kernels take them)
        try:
            X = validate_data(self, X, accept_sparse="csr" if features else False,
                              dtype=np.float64, reset=True)
        except ValueError as exc:
            if objects_error(X, exc, "") is None:
                raise
            own = getattr(self.kernel, "kernel", None) if features else None
            route = (" A callable kernel of objects is searched on its matrix: K = "
                     "indefsvm.kernel_matrix(X, kernel=f), then RemedySearchCV().fit(K, y) "
                     "(C and the remedy; the kernel's own parameters are the callable's)."
                     if callable(own) else "")
            raise ValueError(f"X holds objects (series of unequal lengths or strings); "
                             f"RemedySearchCV reads a matrix.{route} {_OBJECTS}") from None
        if X.shape[0] != X.shape[1] and not features:
            what = "distances" if self.kernel is not None else "kernel"
            objects = (f" {_OBJECTS}" if "PairwiseDistances" in repr(self.kernel) else "")
            raise ParameterError(f"must be square, the {what} between the training samples; "
                                 f"got shape {X.shape}.{objects}", "X")
        from ..distances import DistanceKernel

        y = column_or_1d(y, warn=True)
        if y.dtype.kind == "f":
            # NaN / inf said in scikit-learn's words before the classes are read (their
            # reading casts them)
            assert_all_finite(y, input_name="y")
        if y.shape[0] != X.shape[0]:
            raise ValueError(f"y has {y.shape[0]} labels but X has {X.shape[0]} rows.")
        check_classification_targets(y)
        self.classes_, counts = np.unique(y, return_counts=True)
        if self.classes_.shape[0] < 2:
            raise ValueError("The number of classes has to be greater than one; got 1 class")
        methods = self._methods()
        # the labels and the weights first: their errors say more than the matrix's
        sw = self._sample_weights(sample_weight, y, methods)
        if features:
            X = X if sp.issparse(X) else np.ascontiguousarray(X)  # (finite: validate_data)
        elif self.kernel is None:
            X = check_kernel_matrix(X, "X (kernel)")
        elif isinstance(self.kernel, DistanceKernel):
            # checked once here, not in every fold's task
            try:
                X = check_distance_matrix(X, "X (training distances)")
            except ValueError as exc:
                raise ValueError(str(exc).replace("(kernel='precomputed')",
                                                  "(RemedySearchCV(kernel=None))")) from None
        else:
            X = np.ascontiguousarray(X)
        if self.rule not in ("one-se", "best"):
            raise ParameterError(f"must be 'one-se' or 'best'; got {self.rule!r}.", "rule")
        cv = self.cv
        if cv is None:
            cv = 5  # the default folds, shuffled by random_state as an integer's
        elif self.random_state is not None and not (
                isinstance(cv, numbers.Integral) and not isinstance(cv, (bool, np.bool_))):
            raise ValueError(f"random_state shuffles the folds of an integer cv; cv={cv!r} "
                             "makes its own folds (give its random_state there), so leave "
                             "random_state out.")
        if isinstance(cv, numbers.Integral) and not isinstance(cv, (bool, np.bool_)):
            if cv < 2:
                raise ParameterError(f"must be 2 or more folds; got {cv!r}.", "cv")
            if cv > counts.max():
                # said in our terms (StratifiedKFold's own error names n_splits, which the
                # user never gave); fewer samples than cv in some classes only is its warning
                raise ValueError(
                    f"cv={cv} stratified folds need {cv} samples of a class at least; the "
                    f"largest class has {counts.max()}: give cv from 2 to {counts.max()} "
                    f"(at most {max(2, counts.min())}, the smallest class's size, puts every "
                    "class in every test fold), or more samples.")
            rs = self.random_state
            cv = StratifiedKFold(int(cv), shuffle=rs is not None,
                                 random_state=rs if rs is not None else None)
        cv = check_cv(cv, y, classifier=True)
        folds = [(np.asarray(tr), np.asarray(te)) for tr, te in cv.split(X, y)]
        self.n_splits_ = len(folds)
        min_train = min(tr.shape[0] for tr, _ in folds)
        grid = self._grid(X, min_train, methods)
        cands = self._candidates(methods, grid)
        scorer = None
        if self.scoring not in (None, "accuracy"):
            if isinstance(self.scoring, (list, tuple, set, dict)):
                raise ValueError("RemedySearchCV takes one scoring metric (a string or a "
                                 "callable), not several.")
            scorer = check_scoring(self, self.scoring)
            rm = getattr(scorer, "_response_method", None)
            rm = (rm,) if isinstance(rm, str) else tuple(rm or ())
            if rm and all(m == "predict_proba" for m in rm):
                # the folds' SVMs give labels and decision values, no probabilities
                raise ValueError(
                    f"scoring={self.scoring!r} needs probabilities, and the search's models "
                    "give labels and decision values (an SVM's probabilities are a "
                    "calibration of its own, CalibratedClassifierCV): use a scorer of labels "
                    "or decision values, such as 'accuracy', 'balanced_accuracy' or "
                    "'roc_auc'.")
        tasks = []
        for g in grid["gamma"]:
            plan = {}
            for i, p in enumerate(cands):
                if p["method"] != "k-NN" and p.get("gamma") == g:
                    plan.setdefault(p["method"], []).append((i, p))
            tasks.append((g, plan))
        knn = [(i, p["n_neighbors"]) for i, p in enumerate(cands) if p["method"] == "k-NN"]
        enable(self.verbose)
        jobs = [(f, g, plan, knn if gi == 0 else [])
                for f in range(len(folds)) for gi, (g, plan) in enumerate(tasks)]
        n = X.shape[0]
        # the tasks run in joblib's workers: one below SEARCH_SMALL samples (the break-even
        # measured on 2 idle cores), else at most the tasks and the idle cores
        workers = joblib_workers(self.n_jobs, len(jobs), rows=n, small=SEARCH_SMALL)
        # the tasks running at once (a fold's kernel, its decompositions, the fixes and their
        # C paths: 8.5 matrices of a fold's size, measured; one more where the task computes
        # its kernel from features), then the refit on all the data: said before the work
        check_kernel_memory(n, max(folds_matrices(
            n, max(len(tr) for tr, _ in folds), len(jobs), workers,
            SEARCH_FOLD + features, whole=0.0 if features else 2.0), SEARCH_REFIT),
            "RemedySearchCV.fit")
        t0 = time.perf_counter()
        n_folds = len(folds)
        scores = np.full((len(cands), n_folds), np.nan)
        fit_t, score_t = np.zeros_like(scores), np.zeros_like(scores)
        n_sv = np.zeros_like(scores)
        one_class = np.zeros(scores.shape, dtype=bool)
        stopped = 0
        degenerate = {}  # (method, rank) -> {gamma: folds}: fixed kernels zero or constant
        # one BLAS / OpenMP thread while the tasks run, when several workers run them or the
        # folds are small (a threaded eigh of a few hundred rows gains nothing, and on a busy
        # machine its spinning threads made the search 7-15x a plain grid search). The limit
        # is the process's, set once around all the tasks: per task, threads of a threading
        # backend would lift each other's. Process workers (loky) get loky's own limit of
        # cores / n_jobs threads.
        limit = (single_threaded() if effective_n_jobs(workers) > 1
                 or min_train < SMALL_FOLD else contextlib.nullcontext())
        with limit:
            for done, ((f, g, _, _), rows) in enumerate(zip(jobs, Parallel(
                    n_jobs=workers, return_as="generator")(
                    delayed(carried(_task))(X, y, self.classes_, folds[f][0], folds[f][1],
                                   self.kernel, g, plan, kn, scorer, self.class_weight, sw)
                    for f, g, plan, kn in jobs), strict=True), 1):
                rows, flat = rows
                for key in flat:
                    at = degenerate.setdefault(key, {})
                    at[g] = at.get(g, 0) + 1
                for index, s, tf, ts, nsv, conv, one in rows:
                    scores[index, f], fit_t[index, f], score_t[index, f] = s, tf, ts
                    n_sv[index, f], one_class[index, f] = nsv, one
                    stopped += not conv
                if self.verbose:
                    logger.info("RemedySearchCV: task %d of %d done (fold %d, %.1f s)", done,
                                len(jobs), f + 1, time.perf_counter() - t0)
        # a fold whose training part holds one class scores NaN for every candidate (as
        # GridSearchCV's error_score): cv_results_ keeps the NaN, the choice reads the others
        bad = np.isnan(scores).all(axis=0)
        if bad.all():
            raise ValueError("every training fold holds one class only: give fewer folds "
                             "(cv) or more samples of each class.")
        if bad.any():
            warn(f"{int(bad.sum())} of {n_folds} training folds hold one class only; "
                 "their scores are NaN and the choice reads the other folds (give "
                 "fewer folds).", UserWarning, stacklevel=user_stacklevel())
        self._valid_folds = ~bad
        if degenerate:
            degenerate_warning("RemedySearchCV", _degenerate_fixes(degenerate, n_folds))
        if stopped:
            warn(f"{stopped} of the search's SVM fits stopped at max_iter before "
                 "the stopping rule held; their scores are those of the point "
                 "reached.", ConvergenceWarning, stacklevel=user_stacklevel())
        self.cv_results_ = self._results(cands, scores, fit_t, score_t)
        self._choose(methods, cands, scores, fit_t, n_sv, X, y, one_class)
        if self.refit:
            t = time.perf_counter()
            self.best_estimator_ = _fit_weighted(self._build(self.best_params_), X, y, sw)
            self.refit_time_ = time.perf_counter() - t
        else:  # not a previous fit's model on other data either
            forget(self, "best_estimator_", "refit_time_")
        return self

    def _results(self, cands, scores, fit_t, score_t):
        res = {"params": cands, "method": np.array([p["method"] for p in cands], dtype=object)}
        for key in ("method", "gamma", "C", "n_neighbors", "rank"):
            vals = np.ma.MaskedArray(np.empty(len(cands), dtype=object),
                                     mask=[key not in p for p in cands])
            for i, p in enumerate(cands):
                if key in p:
                    vals[i] = p[key]
            res[f"param_{key}"] = vals
        for f in range(scores.shape[1]):
            res[f"split{f}_test_score"] = scores[:, f]
        res["mean_test_score"] = scores.mean(axis=1)
        res["std_test_score"] = scores.std(axis=1)
        ranked = np.where(np.isnan(res["mean_test_score"]), -np.inf, res["mean_test_score"])
        res["rank_test_score"] = rankdata(-ranked, method="min").astype(np.int32)
        res["mean_fit_time"], res["std_fit_time"] = fit_t.mean(axis=1), fit_t.std(axis=1)
        res["mean_score_time"] = score_t.mean(axis=1)
        res["std_score_time"] = score_t.std(axis=1)
        return res

    def _choose(self, methods, cands, scores, fit_t, n_sv, X, y, one_class):
        rate = self.scoring in _RATE_SCORERS
        best_of, losses = {}, {}
        # the folds that trained (all of them, unless a training fold held one class)
        scores = scores[:, self._valid_folds]
        one_class = one_class[:, self._valid_folds]
        mean = scores.mean(axis=1)
        mean = np.where(np.isnan(mean), -np.inf, mean)
        for m in methods:
            rows = [i for i, p in enumerate(cands) if p["method"] == m]
            # the first best in grid order (the smaller C, gamma of a tie), as GridSearchCV
            i = max(rows, key=lambda i: (mean[i], -rows.index(i)))
            best_of[m] = i
            losses[m] = (1.0 - scores[i]) if rate else -scores[i]
        methods = [m for m in methods if np.isfinite(mean[best_of[m]])]
        # a method whose best point predicted one class on every test fold learned nothing:
        # reported as failed, not ranked
        failed = [m for m in methods if one_class[best_of[m]].all()]
        ranked = ranked_errors({m: losses[m] for m in methods}, failed)
        chosen, _, _ = choose_method(ranked, self.rule)
        self.best_method_ = chosen
        self.best_index_ = int(best_of[chosen])
        self.best_params_ = dict(cands[self.best_index_])
        self.best_score_ = float(mean[self.best_index_])
        self.comparison_ = self._comparison(methods, cands, best_of, losses, fit_t, n_sv,
                                            X, rate, failed)

    def _comparison(self, methods, cands, best_of, losses, fit_t, n_sv, X, rate, failed):
        from ..diagnostics import check_kernel

        g = self.best_params_.get("gamma")
        if self.kernel is not None:
            tf = arrays_out(clone(self.kernel))
            if g is not None:
                tf.set_params(gamma=g)
            K = np.asarray(tf.fit_transform(X), dtype=np.float64)
        else:
            K = X
        rep = check_kernel(K)
        mass = rep.signature.negative_mass
        kernel = {"verdict": rep.verdict, "lam_min": rep.lam_min, "lam_max": rep.lam_max,
                  "p": rep.signature.p, "q": rep.signature.q, "negative_mass": mass,
                  "negative_mass_text": "n/a" if mass is None else f"{100 * mass:.3g} %"}
        chosen = {}
        ok = self._valid_folds
        for m in methods:
            p = cands[best_of[m]]
            chosen[m] = [p["n_neighbors"] if m == "k-NN" else p["C"]] * int(ok.sum())
        out = RemedyComparison(
            methods=list(methods), fold_errors={m: np.asarray(losses[m]) for m in methods},
            fit_seconds={m: float(fit_t[best_of[m]][ok].mean()) for m in methods},
            n_sv={m: float(n_sv[best_of[m]][ok].mean()) for m in methods}, chosen=chosen,
            kernel=kernel, cv=int(ok.sum()), n=X.shape[0])
        out.one_class = list(failed)
        out.recommendation = _recommend({m: losses[m] for m in methods}, self.rule, failed)
        out.recommended = self.best_method_
        if failed:
            out.notes.append(failed_note(failed))
        at = ", ".join(
            f"{m} " + ", ".join(f"{k}={v:.4g}" if isinstance(v, float) else f"{k}={v}"
                                for k, v in cands[best_of[m]].items() if k != "method")
            for m in methods)
        out.notes.append(f"Each method at its best cross-validated parameters: {at}.")
        if not rate:
            out.notes.append(f"The error column is minus the score ({self.scoring}).")
        if "Krein SVM" in methods and "flip" in methods:
            out.notes.append("The Krein SVM makes flip's decisions (it predicts with the "
                             "original kernel and back-projected coefficients): its scores "
                             "are flip's; it differs in cost, not accuracy.")
        return out

    def fit_method(self, method: str, X, y, sample_weight=None):
        """The estimator of ``method`` at its own best cross-validated grid point, fitted on
        ``X``, ``y`` -- e.g. the best method a file can hold when the search chose k-NN.

        Parameters
        ----------
        method : str
            One of the searched methods (``cv_results_["method"]``).
        X, y : array-like
            The data the search was fitted on (or new training data of the same form).
        sample_weight : array-like of shape (n_samples,), optional
            The SVM's sample weights (as in :meth:`fit`; k-NN takes none).

        Returns
        -------
        estimator
            Fitted on ``X``, ``y`` with the parameters of the method's best-scored row of
            ``cv_results_``.

        Examples
        --------
        >>> import indefsvm as isvm
        >>> X, y = isvm.datasets.load_heart(return_X_y=True)
        >>> K = isvm.kernel_matrix(X, kernel="sigmoid", gamma=0.01, coef0=-0.5)
        >>> s = isvm.RemedySearchCV(methods=["indefinite SVM", "flip", "k-NN"],
        ...                         param_grid={"C": [1.0]}, cv=3).fit(K, y)
        >>> s.fit_method("flip", K, y).predict(K[:2]).shape
        (2,)
        """
        check_is_fitted(self, "cv_results_")
        res = self.cv_results_
        rows = [i for i, m in enumerate(res["method"]) if m == method]
        if not rows:
            raise ValueError(f"method {method!r} was not searched; the searched methods are "
                             f"{sorted(set(res['method']))}.")
        scores = np.where(np.isnan(res["mean_test_score"][rows]), -np.inf,
                          res["mean_test_score"][rows])
        # the method's best point; among equal scores the first of the grid (the simplest)
        best = rows[int(np.argmax(scores))]
        if sample_weight is not None and method == "k-NN":
            raise ValueError("k-NN takes no sample_weight (scikit-learn's "
                             "KNeighborsClassifier votes unweighted); drop it for k-NN.")
        return _fit_weighted(self._build(res["params"][best]), X, y, sample_weight)

    def _build(self, params):
        """The estimator of a method with its parameters (what ``refit`` fits)."""
        m = params["method"]
        steps = []
        if self.kernel is not None and m != "k-NN":
            k = clone(self.kernel)
            if "gamma" in params:
                k.set_params(gamma=params["gamma"])
            steps.append(("kernel", k))
        if m == "k-NN":
            if of_features(self.kernel):  # the features' own Euclidean k-NN
                return KNeighborsClassifier(n_neighbors=params["n_neighbors"])
            knn = KNeighborsClassifier(n_neighbors=params["n_neighbors"], metric="precomputed")
            if self.kernel is not None:
                return knn
            steps = [("distance", KernelRanking()), ("knn", knn)]
        else:
            est = svm_estimator(m, params, self.class_weight)
            # the kernel, then the method's own steps (the fix and the SVM) in one pipeline
            steps += est.steps if isinstance(est, Pipeline) else [("svm", est)]
        return steps[0][1] if len(steps) == 1 else Pipeline(steps)

    # -- prediction -------------------------------------------------------------------------

    def _refitted(self, X):
        check_is_fitted(self, "cv_results_")
        if not self.refit:
            raise AttributeError("RemedySearchCV(refit=False) keeps no fitted model: use "
                                 "best_params_, or refit=True.")
        what = (None if of_features(self.kernel) else
                "distances" if self.kernel is not None else "kernel rows")
        X = validate_rows(self, X, what, dtype=np.float64,
                          accept_sparse="csr" if what is None else False)
        return self.best_estimator_, X

    def predict(self, X):
        """Predict with the refitted chosen method.

        Parameters
        ----------
        X : array-like of shape (n_samples, n_train)
            Kernel rows (or distances, with ``kernel``) to the training samples; features
            with ``kernel=FeatureKernel(...)``.

        Returns
        -------
        ndarray of shape (n_samples,)
        """
        est, X = self._refitted(X)
        return est.predict(X)

    @available_if(_chosen_has("decision_function"))
    def decision_function(self, X):
        """Decision values of the refitted chosen method (an SVM method; k-NN gives
        ``predict_proba`` instead).

        Parameters
        ----------
        X : array-like of shape (n_samples, n_train)

        Returns
        -------
        ndarray
        """
        est, X = self._refitted(X)
        return est.decision_function(X)

    @available_if(_chosen_has("predict_proba"))
    def predict_proba(self, X):
        """Class probabilities of the chosen k-NN rule (SVM methods: ``decision_function``).

        Parameters
        ----------
        X : array-like of shape (n_samples, n_train)

        Returns
        -------
        ndarray of shape (n_samples, n_classes)
        """
        est, X = self._refitted(X)
        return est.predict_proba(X)

    def score(self, X, y, sample_weight=None):
        """The ``scoring`` metric (accuracy by default) of the refitted method on ``X, y``.

        Parameters
        ----------
        X : array-like of shape (n_samples, n_train)
            Test data, as given to :meth:`fit` (a kernel or distances against the training samples,
            features or objects).
        y : array-like of shape (n_samples,)
            True labels.
        sample_weight : array-like, optional
            Weights of the samples in the score (``scoring``; accuracy by default).

        Returns
        -------
        float
        """
        if self.scoring in (None, "accuracy"):
            return super().score(X, y, sample_weight=sample_weight)
        est, X = self._refitted(X)
        scorer = check_scoring(est, self.scoring)
        if sample_weight is not None:
            return float(scorer(est, X, y, sample_weight=sample_weight))
        return float(scorer(est, X, y))


#: folds with fewer training samples than this are searched with BLAS on one thread
SMALL_FOLD = 1000

#: below this many samples the search's tasks run in one worker whatever n_jobs says:
#: measured on 2 idle cores (benchmarks/bench_workers.py and a run at 400 samples: one
#: worker against two), 270 samples 2.8 s against 4.0 s, 400 8.7 against 7.1-7.6, 600 8.8
#: against 7.1, 1 000 30.2 against 18.6
SEARCH_SMALL = 300


def _degenerate_fixes(degenerate: dict, n_folds: int) -> list:
    """Where a search's fixed kernels were zero or constant: each fix, at which gammas, in
    how many folds."""
    parts = []
    for (method, rank), at in degenerate.items():
        name = f"{method} (rank {rank})" if rank is not None else method
        gammas = sorted(g for g in at if g is not None)
        where = "" if not gammas else (" at gamma " + ", ".join(f"{g:.3g}" for g in gammas))
        folds = max(at.values())
        parts.append(f"{name}{where}" + ("" if folds == n_folds
                                          else f" (in {folds} of {n_folds} folds)"))
    return parts


def _check_rank(r):
    if isinstance(r, str) and r == "auto":
        return r
    if isinstance(r, (bool, np.bool_)) or not isinstance(r, numbers.Real) \
            or not np.isfinite(r) or r <= 0 or (not isinstance(r, numbers.Integral) and r > 1):
        raise ValueError(f"param_grid['rank'] holds {r!r}; the advanced shift's rank is a "
                         "'auto', a whole number >= 1 or a share in (0, 1].")
    return r
