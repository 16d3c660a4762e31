"""The search for series: DTW's kernel with its fixes, the similarities as features and
k-NN, the other elastic distances' kernels (move-split-merge) and the global alignment
kernel, on the same folds (:class:`SeriesSearchCV`)."""

from __future__ import annotations

import numbers
import time

import numpy as np
from sklearn.base import BaseEstimator, ClassifierMixin, _fit_context, clone
from sklearn.model_selection import RepeatedStratifiedKFold, StratifiedKFold, check_cv
from sklearn.neighbors import KNeighborsClassifier
from sklearn.utils._param_validation import Interval, StrOptions
from sklearn.utils.metaestimators import available_if
from sklearn.utils.multiclass import check_classification_targets
from sklearn.utils.validation import check_array, check_is_fitted, column_or_1d

from .._logging import enable, logger
from .._remedies import FEATURES, INDEF, KNN
from .._threads import effective_threads
from .._validation import N_JOBS, check_memory
from ..exceptions import ParameterError

__all__ = ["SeriesSearchCV"]

#: DP cells a second and a thread, measured (benchmarks/RESULTS.md): DTW and move-split-merge
#: one pair at a time (their lanes, where eight series of B share a length, are faster: the
#: estimate is an upper bound there), the alignment kernel
DTW_CELLS_PER_S = 4e8
GAK_CELLS_PER_S = 2e8
CELLS_PER_S = {"dtw": DTW_CELLS_PER_S, "msm": 1.2e8}

#: the methods the search weighs on the alignment kernel (positive definite: no fix)
GAK_METHODS = (INDEF, FEATURES, KNN)

#: the SVMs' C: two decades past RemedySearchCV's top (100), where the alignment kernel's
#: SVM chose the top itself at every sigma on ArrowHead (benchmarks/RESULTS.md)
SERIES_CS = (0.01, 0.1, 1.0, 10.0, 100.0, 1e3, 1e4)

#: repeats of an integer ``cv``: a UCR training set is small (20-400 series), and one
#: shuffle's folds chose differently from the next (docs/evidence.rst)
N_REPEATS = 5


def _band_cells(lengths: np.ndarray, window) -> float:
    """Mean cells of one pair's programme (the band's, or all of them)."""
    L = float(np.mean(lengths))
    if window is None:
        return L * L
    return L * min(L, 2.0 * np.floor(window * L) + 1.0)


def _checked(X):
    """Arrays through scikit-learn's checks first, for its wording of the common mistakes
    (sparse, complex, object, empty, 1-D, NaN); lists of series (any lengths) and pandas
    containers by the series' own checks."""
    from ..distances._objects import from_pandas

    X = from_pandas(X, "X", "one series")
    if isinstance(X, (list, tuple)):
        return X
    return check_array(X, dtype=np.float64, allow_nd=True)


def _chosen_has(attr: str):
    """Whether the chosen model has ``attr`` (unknown before fit: as scikit-learn's
    searches, the method is there until a fit says otherwise -- k-NN has no decision
    values)."""

    def check(self):
        if not hasattr(self, "best_estimator_"):
            return True
        getattr(self.best_estimator_, attr)  # its AttributeError says why
        return True

    return check


def _baseline_index(search) -> int:
    """The row of 1-NN (k-NN, k = 1) in a search's ``cv_results_``."""
    return next(i for i, p in enumerate(search.cv_results_["params"])
                if p == {"method": KNN, "n_neighbors": 1})


def _baseline_score(search) -> float:
    return float(search.cv_results_["mean_test_score"][_baseline_index(search)])


def _gain_over_1nn(dtw, chosen) -> tuple[float, float]:
    """The mean gain in score of ``chosen``'s best candidate over 1-NN on DTW, split by
    split (the same splits), and the standard error of those paired gains."""
    r0, r1 = dtw.cv_results_, chosen.cv_results_
    i0, i1 = _baseline_index(dtw), chosen.best_index_
    d = np.array([r1[f"split{f}_test_score"][i1] - r0[f"split{f}_test_score"][i0]
                  for f in range(dtw.n_splits_)])
    d = d[np.isfinite(d)]
    if d.size < 2:
        return float(d.mean()) if d.size else 0.0, float("inf")
    return float(d.mean()), float(d.std(ddof=1) / np.sqrt(d.size))


class SeriesSearchCV(ClassifierMixin, BaseEstimator):
    """A search over what a user of series would try, on the same folds, and the refit of
    its choice.

    Given labelled series (any lengths, one or several channels), it weighs

    * DTW's distance kernel ``exp(-gamma d^2)`` with every method of the remedy table -- the
      indefinite SVM, the spectrum fixes, the Krein SVM, the linear SVM on the kernel rows
      as features, k-NN on the distances (:class:`~indefsvm.RemedySearchCV` on the DTW
      matrix, with gamma, C and k);
    * the same on each distance of ``elastic``: move-split-merge (Stefan, Athitsos & Das
      2013) by default, one of the elastic distances of Lines & Bagnall's (2015) Elastic
      Ensemble and among its most accurate alone;
    * the global alignment kernel (Cuturi 2011) at each multiple of Cuturi's ``sigma`` in
      ``gak_sigmas``, with the SVM on it, the features of its rows and k-NN on its distance
      (positive definite: no fix is needed);

    scores all of them on the same stratified folds, repeated (``n_repeats`` shuffles of
    ``cv`` folds: the training sets of series are small, and the score of one shuffle's
    folds is too noisy to choose by), chooses the search of the best cross-validated score
    (exact ties to DTW, then to ``elastic``'s order, then to the smaller sigma) and keeps
    its refitted model. With
    ``verbose`` the cost is said before the work (the programmes' cells and their estimated
    seconds, the splits and the fits of the searches).

    Parameters
    ----------
    window : float or None, default=None
        The band of DTW and of the alignment kernel's triangle, a share of the longer
        series (None: none).
    elastic : tuple of str, default=("msm",)
        Series metrics of the metric table (:data:`indefsvm.distances.METRICS`, a metric
        added by :func:`~indefsvm.register_metric` too) searched beside DTW, each at its
        default parameters and with ``window`` where it takes one; ``()``: DTW alone. DTW
        itself is always searched (1-NN on it is the baseline), and the alignment kernel
        is ``gak_sigmas``'.
    gak_sigmas : tuple of float, default=(0.5, 1.0, 2.0)
        Multiples of Cuturi's sigma (:func:`~indefsvm.distances.gak_sigma`) at which the
        alignment kernel is tried; ``()`` leaves it out.
    methods : list of str or None, default=None
        The methods weighed, names of :data:`indefsvm.remedies.METHODS` (None: all of
        them on DTW's kernel, and ``GAK_METHODS`` on the alignment kernel's). On the
        alignment kernel, those of them it takes (the indefinite SVM, features, k-NN: it is
        positive definite, the fixes have nothing to fix); where it takes none, it is left
        out.
    cv : int or cross-validation splitter, default=5
        An integer: stratified folds, shuffled with ``random_state`` and repeated
        ``n_repeats`` times (:class:`~sklearn.model_selection.RepeatedStratifiedKFold`);
        a splitter: its folds, as given.
    n_repeats : int or None, default=None
        The shuffles of an integer ``cv`` (None: 5; 1: one
        :class:`~sklearn.model_selection.StratifiedKFold`). Refused with a splitter, which
        sets its own.
    Cs : tuple of float, default=(0.01, 0.1, 1, 10, 100, 1000, 10000)
        The C of every SVM method, in every search (RemedySearchCV's own grid stops at
        100: on series of the UCR archive the alignment kernel's SVM often wants more).
    rule : {"baseline-se", "best"}, default="baseline-se"
        ``"best"``: the search of the best cross-validated score. ``"baseline-se"``: the
        same, unless its best candidate beats 1-NN on DTW -- the field's baseline (Bagnall
        et al. 2017), k-NN at k = 1 in the DTW search -- by no more than one standard error
        of their paired per-split differences (the one-standard-error rule of Hastie,
        Tibshirani & Friedman 2009, section 7.10, with the baseline as the simpler model),
        or where a training fold holds fewer than two series of a class: then 1-NN on DTW
        is kept. A fold of one series a class scores one-shot problems, which the refit
        on all the series does not face; on aeon's sets cut to two series a class the
        folds' winner tested worse than 1-NN on four of five (docs/evidence.rst). The
        repeated splits are not independent, so the standard error is an underestimate:
        the rule leans to the winner, not to 1-NN. Only with k-NN among ``methods``.
    random_state : int or None, default=0
        Shuffles the folds.
    n_jobs : int, optional
        Threads for the distances and kernels, workers for the searches.
    verbose : bool, default=False
        Say the cost before the work, and each search's best score.

    Attributes
    ----------
    searches_ : dict
        ``{name: fitted RemedySearchCV}``: ``"DTW"``, each of ``elastic`` in capitals
        (``"MSM"``) and ``"GAK x m"`` for each multiple.
    best_search_name_ : str
        The search chosen (``"DTW"`` where 1-NN was kept).
    best_estimator_ : estimator
        The model that predicts: the chosen search, refitted, or 1-NN on the DTW
        distances (``rule="baseline-se"``).
    baseline_gain_ : dict or None
        ``{"mean", "se", "kept_1nn", "why"}``: the best candidate's mean per-split gain in
        score over 1-NN on DTW, its standard error, whether 1-NN was kept and why (None:
        ``rule="best"``, or k-NN not weighed).
    best_score_ : float
        Its best cross-validated score (accuracy).
    best_params_ : dict
        Its best parameters, with ``"kernel"`` (``"DTW"``, ``"MSM"``, ... or ``"GAK"``)
        and, for the alignment kernel, ``"sigma"``.
    sigma_ : float or None
        The alignment kernel's sigma when it was chosen (None: a distance).
    metric_ : str or None
        The distance of the chosen search (``"dtw"``, ``"msm"``, ...; None: the alignment
        kernel).
    X_fit_ : array or list
        The training series (new series are compared with them).
    cost_ : dict
        What was said before the work: ``dtw_cells``, ``gak_cells``, ``elastic_cells``
        (``{metric: cells}``), ``seconds`` (the estimated time of the distances and kernels
        on the threads used; a registered metric's, whose speed is not known, left out),
        ``splits`` (folds times repeats) and ``fits`` (every search's candidates times the
        splits).
    classes_ : ndarray
        The class labels.

    See Also
    --------
    indefsvm.RemedySearchCV : the search on one kernel or distance matrix.

    Examples
    --------
    >>> import indefsvm as isvm
    >>> S, y = isvm.datasets.make_cbf(30, random_state=0)
    >>> search = isvm.SeriesSearchCV(gak_sigmas=(1.0,), cv=3).fit(S, y)
    >>> sorted(search.searches_)
    ['DTW', 'GAK x 1', 'MSM']
    """

    _parameter_constraints: dict = {
        "window": [Interval(numbers.Real, 0, 1, closed="both"), None],
        "elastic": [tuple, list],
        "gak_sigmas": [tuple, list],
        "methods": [list, tuple, None],
        "cv": ["cv_object"],
        "n_repeats": [Interval(numbers.Integral, 1, None, closed="left"), None],
        "Cs": [tuple, list],
        "rule": [StrOptions({"baseline-se", "best"})],
        "random_state": ["random_state"],
        "n_jobs": N_JOBS,
        "verbose": ["verbose"],
    }

    def __init__(self, *, window=None, elastic=("msm",), gak_sigmas=(0.5, 1.0, 2.0),
                 methods=None, cv=5, n_repeats=None, Cs=SERIES_CS, rule="baseline-se",
                 random_state=0, n_jobs=None, verbose=False):
        self.window = window
        self.elastic = elastic
        self.gak_sigmas = gak_sigmas
        self.methods = methods
        self.cv = cv
        self.n_repeats = n_repeats
        self.Cs = Cs
        self.rule = rule
        self.random_state = random_state
        self.n_jobs = n_jobs
        self.verbose = verbose

    def _check_sigmas(self):
        ms = tuple(self.gak_sigmas)
        if not all(isinstance(m, numbers.Real) and not isinstance(m, bool)
                   and np.isfinite(m) and m > 0 for m in ms):
            raise ParameterError(f"must be numbers > 0 (multiples of Cuturi's sigma); "
                                 f"got {self.gak_sigmas!r}.", "gak_sigmas")
        return ms

    def _check_elastic(self) -> tuple[str, ...]:
        from .._metrics import REGISTRY, default_metric

        names = tuple(self.elastic)
        # the table's distances of series, but DTW (searched always: the baseline's) and
        # the kernels (the alignment kernel has gak_sigmas)
        base = default_metric("series")
        series = [n for n, m in REGISTRY.items()
                  if m.objects == "series" and m.kernel is None and n != base]
        bad = [n for n in names if not isinstance(n, str) or n not in series]
        if bad or len(set(names)) != len(names):
            raise ParameterError(
                f"must name series metrics of the metric table other than dtw (always "
                f"searched) and gak (gak_sigmas), each once: {', '.join(series)} or one "
                f"added by register_metric; got {self.elastic!r}.", "elastic")
        return names

    def _check_cs(self):
        cs = tuple(self.Cs)
        if not cs or not all(isinstance(c, numbers.Real) and not isinstance(c, bool)
                             and np.isfinite(c) and c > 0 for c in cs):
            raise ParameterError(f"must be one or more numbers > 0 (the SVMs' C); got "
                                 f"{self.Cs!r}.", "Cs")
        return cs

    def _methods(self):
        """The methods of the DTW search and of the alignment kernel's (checked by the
        remedy search's own rule, before the work)."""
        from ._search import RemedySearchCV

        dtw = RemedySearchCV(methods=self.methods)._methods()
        return dtw, [m for m in GAK_METHODS if m in dtw]

    def _folds(self, counts):
        """The one splitter every search uses (an integer ``cv`` repeated)."""
        if isinstance(self.cv, numbers.Integral) and counts.max() < 2:
            raise ParameterError(f"has no folds to make: every class holds one series, and "
                                 f"{self.cv} stratified folds need two of a class at least; "
                                 "give more series.", "cv")
        if isinstance(self.cv, numbers.Integral) and self.cv > counts.max():
            # before the distances, in our terms (StratifiedKFold's own error names
            # n_splits, which the user never gave)
            raise ParameterError(
                f"must be at most {counts.max()}, the largest class's size ({self.cv} "
                f"stratified folds need {self.cv} series of a class); give cv from 2 to "
                f"{counts.max()} (cv={max(2, counts.min())}, the smallest class's size, puts "
                "every class in every test fold), or more series.", "cv")
        if not isinstance(self.cv, numbers.Integral):
            if self.n_repeats is not None:
                raise ParameterError(f"repeats an integer cv; cv={self.cv!r} sets its own "
                                     "folds: leave n_repeats out, or give cv an integer.",
                                     "n_repeats")
            return self.cv
        reps = N_REPEATS if self.n_repeats is None else int(self.n_repeats)
        if reps == 1:
            return StratifiedKFold(self.cv, shuffle=True, random_state=self.random_state)
        return RepeatedStratifiedKFold(n_splits=self.cv, n_repeats=reps,
                                       random_state=self.random_state)

    @_fit_context(prefer_skip_nested_validation=True)
    def fit(self, X, y):
        """Run every search on the same folds, choose, keep the refitted model.

        Parameters
        ----------
        X : array-like or list
            Series, as :func:`~indefsvm.pairwise_distances` takes them for ``"dtw"``.
        y : array-like of shape (n_series,)
            Class labels.

        Returns
        -------
        self
        """
        from .._metrics import takes
        from ..distances import DistanceKernel, gak_sigma, pairwise_distances
        from ..distances._objects import as_series
        from ..kernels import kernel_matrix
        from ._search import RemedySearchCV

        ms = self._check_sigmas()
        elastic = self._check_elastic()
        cs = self._check_cs()
        dtw_methods, gak_methods = self._methods()
        if not gak_methods:
            ms = ()
        if y is None:
            raise ValueError("SeriesSearchCV requires y to be passed, but the target y is "
                             "None (the labels of the series).")
        X = _checked(X)
        S = as_series(X, "X")
        # scikit-learn's wording for NaN / infinity in y, and a column vector warned
        y = column_or_1d(check_array(y, ensure_2d=False, dtype=None, input_name="y"),
                         warn=True)
        check_classification_targets(y)
        if y.shape[0] != S.n:
            raise ParameterError(f"must hold one label a series: {S.n} series, y of shape "
                                 f"{y.shape}.", "y")
        n = S.n
        classes, counts = np.unique(y, return_counts=True)
        if classes.shape[0] < 2:
            # scikit-learn's words, before the folds' (what its checks look for)
            raise ValueError(f"The number of classes has to be greater than one; got "
                             f"{classes.shape[0]} class")
        folds = self._folds(counts)
        # the matrices held at once: the DTW matrix (kept by the 1-NN baseline while the
        # alignment kernels are searched), a kernel, the searches' fold copies
        held = 5 if self.rule == "baseline-se" else 4
        check_memory(8.0 * n * n * held, f"SeriesSearchCV on {n} series (about {held} "
                     f"matrices of {n} x {n})", "Train on landmarks instead: "
                     "NystroemSVC(metric='dtw' or 'gak', n_components=1000).")
        threads = effective_threads(self.n_jobs)
        cells = _band_cells(S.lengths, self.window)
        dtw_cells = n * (n - 1) / 2 * cells
        gak_cells = len(ms) * n * (n + 1) / 2 * cells
        # MSM's band is DTW's; a registered metric's programme is not known: its cells are
        # counted as one band's, and its time is left out of the seconds
        elastic_cells = {m: (dtw_cells if takes(m, "window") or self.window is None
                             else n * (n - 1) / 2 * _band_cells(S.lengths, None))
                         for m in elastic}
        seconds = (dtw_cells / DTW_CELLS_PER_S + gak_cells / GAK_CELLS_PER_S
                   + sum(c / CELLS_PER_S[m] for m, c in elastic_cells.items()
                         if m in CELLS_PER_S)) / threads
        # an iterable of splits is held once (a generator would be spent by the first search)
        folds = check_cv(folds, y, classifier=True)
        splits = folds.get_n_splits(X, y)
        grid = {"C": list(cs)}
        dtw_search = RemedySearchCV(methods=dtw_methods, kernel=DistanceKernel(), cv=folds,
                                    param_grid=grid if dtw_methods != [KNN] else None,
                                    n_jobs=self.n_jobs)
        gak_search = RemedySearchCV(methods=gak_methods, cv=folds, n_jobs=self.n_jobs,
                                    param_grid=grid if gak_methods != [KNN] else None)
        trains = [tr for tr, _ in folds.split(np.zeros((n, 1)), y)]
        min_train = min(len(tr) for tr in trains)
        # the fewest series of a class a training fold holds (0: a class left out)
        few = min(int(np.sum(y[tr] == c)) for tr in trains for c in classes)
        fits = splits * ((1 + len(elastic)) * dtw_search._n_candidates(min_train) + len(ms)
                         * (gak_search._n_candidates(min_train) if gak_methods else 0))
        self.cost_ = {"dtw_cells": dtw_cells, "gak_cells": gak_cells,
                      "elastic_cells": elastic_cells, "seconds": seconds, "splits": splits,
                      "fits": fits}
        talk = enable(self.verbose)
        if talk:
            logger.info("SeriesSearchCV: %d series; DTW %.3g cells%s and the alignment "
                        "kernel %.3g cells at %d sigma(s): about %.0f s on %d thread(s), "
                        "then %d searches on the same %d splits: %d fits of their methods, "
                        "gamma, C and k", n, dtw_cells,
                        "".join(f", {m.upper()} {c:.3g} cells"
                                for m, c in elastic_cells.items()),
                        gak_cells, len(ms), seconds, threads, 1 + len(elastic) + len(ms),
                        splits, fits)
        searches, sigmas, metrics = {}, {}, {"DTW": "dtw"}
        t = time.perf_counter()
        D = pairwise_distances(X, metric="dtw", window=self.window, n_jobs=self.n_jobs)
        searches["DTW"] = dtw_search.fit(D, y)
        # the field's baseline, kept where no method beats it by more than the folds' noise
        one_nn = (KNeighborsClassifier(n_neighbors=1, metric="precomputed").fit(D, y)
                  if self.rule == "baseline-se" and KNN in dtw_methods else None)
        del D
        for m in elastic:
            window = {"window": self.window} if takes(m, "window") else {}
            D = pairwise_distances(X, metric=m, n_jobs=self.n_jobs, **window)
            searches[m.upper()] = clone(dtw_search).fit(D, y)
            metrics[m.upper()] = m
            del D
        s0 = gak_sigma(X) if ms else None
        for m in ms:
            K = kernel_matrix(X, kernel="gak", sigma=m * s0, window=self.window,
                              n_jobs=self.n_jobs)
            name = f"GAK x {m:g}"
            searches[name] = clone(gak_search).fit(K, y)
            sigmas[name] = m * s0
        if talk:
            for name, s in searches.items():
                logger.info("SeriesSearchCV: %s: best %s, cross-validated accuracy %.4f",
                            name, s.best_method_, s.best_score_)
            logger.info("SeriesSearchCV: %.1f s", time.perf_counter() - t)
        # the best score; exact ties to the first (DTW, elastic's order, the smaller multiple)
        best = max(searches, key=lambda k: (searches[k].best_score_,
                                            -list(searches).index(k)))
        self.searches_ = searches
        self.classes_ = searches[best].classes_
        self.baseline_gain_ = None
        if self.rule == "baseline-se" and KNN in dtw_methods:
            gain, se = _gain_over_1nn(searches["DTW"], searches[best])
            why = (f"a training fold holds {few} series of a class: its scores are of a "
                   "problem the refit does not face" if few < 2 else
                   "within one standard error" if not gain > se else None)
            self.baseline_gain_ = {"mean": gain, "se": se, "kept_1nn": why is not None,
                                   "why": why}
            if talk:
                logger.info("SeriesSearchCV: the best (%s: %s) gains %.4f over 1-NN on DTW "
                            "(standard error %.4f): %s", best, searches[best].best_method_,
                            gain, se, "chosen" if why is None else f"1-NN on DTW kept ({why})")
        if self.baseline_gain_ is not None and self.baseline_gain_["kept_1nn"]:
            self.best_search_name_, self.sigma_, self.metric_ = "DTW", None, "dtw"
            self.best_score_ = _baseline_score(searches["DTW"])
            self.best_params_ = {"kernel": "DTW", "method": KNN, "n_neighbors": 1}
            self.best_estimator_ = one_nn
        else:
            self.best_search_name_ = best
            self.best_score_ = float(searches[best].best_score_)
            self.sigma_ = sigmas.get(best)
            self.metric_ = metrics.get(best)
            self.best_params_ = {"kernel": "GAK" if self.metric_ is None else best,
                                 **({} if self.sigma_ is None else {"sigma": self.sigma_}),
                                 **searches[best].best_params_}
            self.best_estimator_ = searches[best]
        self.X_fit_ = X
        return self

    def _rows(self, X):
        from ..distances import pairwise_distances
        from ..kernels import kernel_matrix

        check_is_fitted(self, "searches_")
        X = _checked(X)
        if self.metric_ is not None:
            from .._metrics import takes

            window = {"window": self.window} if takes(self.metric_, "window") else {}
            return pairwise_distances(X, self.X_fit_, metric=self.metric_,
                                      n_jobs=self.n_jobs, **window)
        return kernel_matrix(X, self.X_fit_, kernel="gak", sigma=self.sigma_,
                             window=self.window, n_jobs=self.n_jobs)

    def predict(self, X):
        """Classes of new series by the chosen, refitted model.

        Parameters
        ----------
        X : array-like or list
            Series with the channels of the training series.

        Returns
        -------
        ndarray of shape (n_series,)
        """
        R = self._rows(X)  # checks the model is fitted first
        return self.best_estimator_.predict(R)

    @available_if(_chosen_has("decision_function"))
    def decision_function(self, X):
        """The chosen model's decision values on new series (an SVM method only: absent
        where k-NN was chosen).

        Parameters
        ----------
        X : array-like or list
            Series with the channels of the training series.

        Returns
        -------
        ndarray
        """
        R = self._rows(X)
        return self.best_estimator_.decision_function(R)

    def __sklearn_tags__(self):
        tags = super().__sklearn_tags__()
        tags.input_tags.three_d_array = True
        return tags
