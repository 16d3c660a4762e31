"""The per-fold engine of :class:`RemedySearchCV`: one task a (fold, gamma) pair.

A task computes the fold's kernel once, decomposes it once (and once more centred) for every
fix, scores the C path of each method warm-started (cold for the indefinite SVM, so that its
scores are GridSearchCV's), the Krein SVM through the flip's scores (the same decisions),
and the k-NN rule on the kernel's ranking; ``KernelRanking`` turns kernel rows into the
distances the k-NN rule needs.
"""

from __future__ import annotations

import time

import numpy as np
from sklearn.base import BaseEstimator, ClassifierMixin, TransformerMixin, _fit_context, clone
from sklearn.neighbors import KNeighborsClassifier
from sklearn.utils.validation import check_is_fitted

from .._interrupt import interruptible
from .._tags import PairwiseInput, TrainingColumns, arrays_out
from .._validation import kernel_fit_input, kernel_rows_input
from .._warn import Held
from ..exceptions import DegenerateKernelWarning
from ..solvers._smo import DualPath
from ..svm._ovo import OvOVotes, ovo_problems
from ..svm._weights import class_weight_vector
from ._methods import BY_NAME
from ._methods import INDEF as _INDEF
from ._spectrum_fix import ClipEigenvalues


class KernelRanking(PairwiseInput, TrainingColumns, TransformerMixin, BaseEstimator):
    """Kernel rows to the distances a k-nearest-neighbour rule needs.

    The squared distance in the kernel's (pseudo-Euclidean) space is
    ``d(x, x_i)^2 = k(x, x) + K_ii - 2 k(x, x_i)``. A test row has no ``k(x, x)``, but it is
    the same for every training sample and so leaves the order of the neighbours unchanged:
    ``transform`` returns ``K_ii - 2 k(x, x_i)`` shifted so that each row's smallest value is
    0 (a valid input of ``KNeighborsClassifier(metric="precomputed")``, which ranks and votes
    with uniform weights).

    Attributes
    ----------
    diag_ : ndarray of shape (n_train,)
        ``K_ii`` of the training samples.
    n_train_ : int
    n_features_in_ : int
        Columns of the training kernel, ``n_train``.

    Examples
    --------
    >>> import numpy as np
    >>> from indefsvm.remedies import KernelRanking
    >>> K = np.array([[1.0, 0.5, 0.0], [0.5, 1.0, 0.2], [0.0, 0.2, 1.0]])
    >>> KernelRanking().fit(K).transform(K[:1])
    array([[0., 1., 2.]])
    """

    #: scikit-learn's declaration of the parameters, checked by fit (_fit_context); the
    #: ranges and the finer rules are checked after it, in messages that name the fix
    _parameter_constraints: dict = {}

    _always_pairwise = True

    @_fit_context(prefer_skip_nested_validation=True)
    def fit(self, X, y=None):
        """Keep the training diagonal.

        Parameters
        ----------
        X : array-like of shape (n_train, n_train)
            Training kernel.
        y : None
            Ignored; accepted for scikit-learn's pipeline API.

        Returns
        -------
        self
        """
        K = kernel_fit_input(self, X)
        self.diag_ = np.diag(K).copy()
        self.n_train_ = K.shape[0]
        return self

    def transform(self, X):
        """Neighbour distances (up to each row's own constant).

        Parameters
        ----------
        X : array-like of shape (n_samples, n_train)
            Kernel values of new samples against the training samples.

        Returns
        -------
        ndarray of shape (n_samples, n_train)
        """
        check_is_fitted(self, "diag_")
        R = kernel_rows_input(self, X, self.n_train_, "X")
        D = self.diag_[None, :] - 2.0 * R
        return D - D.min(axis=1, keepdims=True)


class _FoldModel(OvOVotes, ClassifierMixin, BaseEstimator):
    """The one-vs-one SVM of one fold, on fixed kernel rows (what a scorer calls)."""

    decision_function_shape = "ovr"
    break_ties = False

    def _set(self, classes, pairs, n, rows, pair_of, offsets, coef, intercepts):
        """The pairs' coefficients ``coef`` of the samples ``rows`` among the ``n`` training
        samples, concatenated by pair (variable ``v`` of pair ``pair_of[v]``; pair ``k``
        the slice ``offsets[k]:offsets[k + 1]``), and their intercepts."""
        self.classes_ = classes
        self._pairs = pairs
        self._b = np.asarray(intercepts)
        if len(pairs) < 4:
            self._members = [(rows[lo:hi], coef[lo:hi]) for lo, hi in
                             zip(offsets[:-1], offsets[1:], strict=True)]
            self._B = None
        else:
            # many pairs: their coefficients as the columns of one (n_train, n_pairs) matrix
            # and one product, instead of a gather and a product per pair
            self._B = np.zeros((n, len(pairs)))
            self._B[rows, pair_of] = coef
        return self

    def _ovo(self, R):
        if self._B is None:
            return np.column_stack([R[:, idx] @ c + b for (idx, c), b in
                                    zip(self._members, self._b, strict=True)])
        return R @ self._B + self._b

    def decision_function(self, X):
        """Decision values (SVC's shapes)."""
        return self._shaped_decision(self._ovo(X))

    def predict(self, X):
        """Labels by LIBSVM's vote."""
        return self._labels_from_ovo(self._ovo(X))


def _pairs(y_idx, n_classes, w):
    """(a, b, +1 class, indices, signs) of each one-vs-one problem (IndefiniteSVC's: the
    samples of weight 0 take no part)."""
    return [(a, b, pos, idx, np.where(y_idx[idx] == pos, 1.0, -1.0))
            for a, b, pos, idx in ovo_problems(y_idx, w, n_classes)]


def _svm_path(Kf, Rf, y_idx, classes, w, Cs, warm, scorer, y_te, w_te=None):
    """Fit the one-vs-one SVM on the fixed training kernel for each C (ascending), with the
    bounds ``C * w`` (class weight times sample weight), score it on the fixed test rows
    (weighted by ``w_te``, the test samples' weights, when given).
    Returns {C: (score, fit s, score s, n_sv, converged, one class predicted)}.

    The pairs' problems are set up once (:class:`~indefsvm.solvers._smo.DualPath`) and
    every C is one compiled call over the pairs' concatenated variables."""
    n_classes = classes.shape[0]
    members = _pairs(y_idx, n_classes, w)
    n = y_idx.shape[0]
    out, last, C_last = {}, None, None
    t0 = time.perf_counter()
    path = DualPath(Kf, [m[3] for m in members], [m[4] for m in members])
    rows, signs = path.rows, path.y
    # the pair of each variable, for the (n_train, n_pairs) matrix of the pairs' coefficients
    pair_of = np.repeat(np.arange(len(members)), np.diff(path.offsets))
    w_rows = w[rows]
    pairs = [(a, b, pos) for a, b, pos, _, _ in members]
    t_setup = time.perf_counter() - t0
    for C in sorted(Cs):
        t0 = time.perf_counter()
        C_rows = float(C) * w_rows
        # alpha C'/C keeps y'alpha = 0 and the box (min: a bound value times the ratio
        # may round one ulp past the new bound)
        start = (np.zeros(rows.shape[0]) if last is None or not warm
                 else np.minimum(last * (C / C_last), C_rows))
        res = path.solve(C_rows, start)
        t1 = time.perf_counter()
        last, C_last = res["alpha"], C
        coef = res["alpha"] * signs
        model = _FoldModel()._set(classes, pairs, n, rows, pair_of, path.offsets, coef,
                                  res["b"])
        score, one = _score(scorer, model, Rf, y_te, w_te)
        sv = np.zeros(n, dtype=bool)
        sv[rows[coef != 0]] = True
        out[C] = (score, t_setup + t1 - t0, time.perf_counter() - t1, int(sv.sum()),
                  bool(np.all(res["status"] == 0)), one)
        t_setup = 0.0
    return out


def _score(scorer, model, R, y_te, w_te=None):
    """(score, whether the model predicted one class on every test row); with ``w_te`` the
    test samples' weights, as GridSearchCV hands a search's sample_weight to its scorer."""
    pred = model.predict(R)
    one = bool(np.unique(pred).shape[0] == 1)
    if scorer is None:
        if w_te is None:
            return float(np.mean(pred == y_te)), one
        total = float(w_te.sum())
        return (float(np.sum(w_te * (pred == y_te)) / total) if total > 0
                else float("nan")), one
    if w_te is None:
        return float(scorer(model, R, y_te)), one
    return float(scorer(model, R, y_te, sample_weight=w_te)), one


def of_features(kernel) -> bool:
    """Whether the search's ``kernel`` takes features (:class:`~indefsvm.FeatureKernel`):
    X is then sliced by rows, not on both axes."""
    from .._feature_kernel import FeatureKernel

    return isinstance(kernel, FeatureKernel)


def features_gamma(kernel) -> bool:
    """Whether a FeatureKernel's kernel takes its ``gamma`` parameter (a callable takes
    its parameters from ``kernel_params`` only)."""
    from ..kernels import KERNELS, canonical_name

    return not callable(kernel.kernel) and "gamma" in KERNELS[canonical_name(kernel.kernel)][1]


def _fixed(fix, K, spectrum) -> float:
    """Finish ``fix`` on the prepared fold kernel ``K`` (its decomposition from
    ``spectrum``, shared by the fixes of a fold); the seconds that decomposition took."""
    if fix._spectrum is None:
        fix._finish(K, None, None)
        return 0.0
    lam, U, extra = spectrum(fix.centered)
    fix._finish(K, lam, U if fix._spectrum == "vectors" else None)
    return extra


def _task(X, y, classes, train, test, kernel, gamma, plan, knn, scorer, class_weight,
          sample_weight=None):
    """One fold at one kernel parameter: every candidate of ``plan`` (method -> [(index,
    params)]); k-NN (``knn``: [(index, k)]) when asked. Returns [(index, score, fit s,
    score s, n_sv, converged, one class predicted)], and the fixes whose kernel was zero or
    constant, [(method, rank)] (their DegenerateKernelWarning, caught here: the search says
    them once, and process workers would print them where nobody reads)."""
    y_tr, y_te = y[train], y[test]
    # the classes of this training fold (a small class may miss a fold, as in GridSearchCV:
    # the fold's model then knows the others only)
    classes = np.unique(y_tr)
    if classes.shape[0] < 2:
        nan = float("nan")
        return ([(i, nan, 0.0, 0.0, 0, True, False) for cands in plan.values()
                 for i, _ in cands] + [(i, nan, 0.0, 0.0, 0, True, False) for i, _ in knn],
                [])
    y_idx = np.searchsorted(classes, y_tr)
    cw = class_weight_vector(class_weight, classes, y_tr)
    w = cw[y_idx] if sample_weight is None else cw[y_idx] * sample_weight[train]
    w_te = None if sample_weight is None else sample_weight[test]
    t0 = time.perf_counter()
    features = of_features(kernel)
    if kernel is not None:
        tf = arrays_out(clone(kernel))
        if gamma is not None:
            tf.set_params(gamma=gamma)
        Xtr, Xte = ((X[train], X[test]) if features else
                    (X[np.ix_(train, train)], X[np.ix_(test, train)]))
        Ktr = np.asarray(tf.fit_transform(Xtr), dtype=np.float64)
        Kte = np.asarray(tf.transform(Xte), dtype=np.float64)
    else:
        Ktr, Kte = X[np.ix_(train, train)], X[np.ix_(test, train)]
    t_kernel = time.perf_counter() - t0
    spectra = {}

    def spectrum(centered):
        # eigh once per (fold, gamma) and per centring, shared by every fix that needs it
        if centered not in spectra:
            t = time.perf_counter()
            probe = ClipEigenvalues(centered=centered)
            K = probe._prepare(Ktr, copy=False)
            lam, U = interruptible(np.linalg.eigh, K)  # Ctrl-C at once, not after eigh
            spectra[centered] = (lam, U, time.perf_counter() - t)
        return spectra[centered]

    out, degenerate = [], []
    done = {}
    if np.unique(y_idx[w > 0]).shape[0] < classes.shape[0]:
        # the weights leave a class of this fold without a weighted sample: its SVMs cannot
        # be trained (IndefiniteSVC refuses them), so they score NaN here, as GridSearchCV's
        # failed fits do; k-NN, unweighted, still scores
        nan = float("nan")
        out = [(i, nan, 0.0, 0.0, 0, True, False) for cands in plan.values() for i, _ in cands]
        plan = {}
    for method, cands in plan.items():
        by_fix = {}
        for index, params in cands:
            key = ("flip" if method == "Krein SVM" else method,
                   params.get("rank") if method == "advanced shift" else None)
            by_fix.setdefault(key, []).append((index, params))
        for key, group in by_fix.items():
            Cs = sorted({p["C"] for _, p in group})
            if key not in done:
                t = time.perf_counter()
                extra = 0.0
                if method == _INDEF:
                    Kf, Rf = Ktr, Kte
                else:
                    fix = arrays_out(BY_NAME[method].fix(group[0][1]))
                    K = fix._prepare(Ktr, copy=False)
                    flat = Held(DegenerateKernelWarning)
                    extra = flat.call(_fixed, fix, K, spectrum)
                    if flat.said:  # said once by the search, for all its folds
                        degenerate.append(key)
                    Kf, Rf = fix._fixed_kernel(), fix.transform(Kte)
                t_fix = t_kernel + extra + time.perf_counter() - t
                done[key] = (t_fix, _svm_path(Kf, Rf, y_idx, classes, w, Cs,
                                              BY_NAME[method].warm, scorer, y_te, w_te))
            t_fix, path = done[key]
            for index, params in group:
                score, t_fit, t_score, n_sv, conv, one = path[params["C"]]
                if method == "Krein SVM":
                    n_sv = train.shape[0]  # beta is dense: every training sample is used
                out.append((index, score, t_fix + t_fit, t_score, n_sv, conv, one))
    for index, k in knn:
        t = time.perf_counter()
        if features:
            # the k-NN rule of the features themselves (Euclidean), as the model refits it
            from sklearn.metrics import euclidean_distances

            Dtr, Dte = euclidean_distances(X[train]), euclidean_distances(X[test], X[train])
        elif kernel is not None:
            Dtr, Dte = X[np.ix_(train, train)], X[np.ix_(test, train)]
        else:
            rank = arrays_out(KernelRanking()).fit(Ktr)
            Dtr, Dte = rank.transform(Ktr), rank.transform(Kte)
        model = KNeighborsClassifier(n_neighbors=k, metric="precomputed").fit(Dtr, y_tr)
        t1 = time.perf_counter()
        score, one = _score(scorer, model, Dte, y_te, w_te)
        out.append((index, score, t1 - t, time.perf_counter() - t1, train.shape[0], True, one))
    return out, degenerate
