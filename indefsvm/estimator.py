"""``IndefiniteSVC``: a scikit-learn classifier for PSD and indefinite kernels."""

from __future__ import annotations

from itertools import combinations

import numpy as np
import scipy.sparse as sp
from sklearn.base import BaseEstimator, ClassifierMixin
from sklearn.utils.multiclass import check_classification_targets
from sklearn.utils.validation import check_is_fitted, validate_data

from ._validation import check_choice, check_kernel_matrix
from .kernels import canonical_name, kernel_matrix, resolve_kernel_params
from .solvers import kernel_adatron, lsvm, m3, munk, smo
from .solvers._smo import _SPARSE_KERNELS

_SOLVERS = ("smo", "munk", "m3", "kernel_adatron", "lsvm")


class IndefiniteSVC(ClassifierMixin, BaseEstimator):
    """C-support vector classifier for kernels that need not be positive semi-definite.

    Trains the dual (2) of Lin & Lin (seed 000) by SMO with their rule (27) for concave
    sub-problems, so it stops at a stationary point whatever the kernel: sigmoid, distance
    substitution kernels (DTW, edit, tangent, KL), ``l1_gaussian`` or any hand-made similarity.
    On PSD kernels it gives what :class:`sklearn.svm.SVC` gives. Multi-class problems are
    solved one-vs-one, as in ``SVC``.

    Parameters
    ----------
    kernel : str or callable, default="rbf"
        ``"linear"``, ``"polynomial"`` (``"poly"``), ``"rbf"``, ``"sigmoid"``,
        ``"l1_gaussian"``, ``"sqrt_l1_exponential"``, ``"symmetric_kl"``,
        ``"pseudo_euclidean"``, ``"precomputed"`` (``X`` is then the kernel matrix,
        ``(n_samples, n_samples)`` in ``fit`` and ``(n_test, n_train)`` afterwards), or a
        callable ``k(X, Y) -> (n_X, n_Y)`` array. Named kernels except ``pseudo_euclidean``
        are evaluated in C, column by column, so the n x n matrix is never formed.
    C : float, default=1.0
        Box bound of the dual, > 0. ``np.inf`` (hard margin) is accepted; when the objective is
        then unbounded below (Thm 5, Thm 10, or any divergence) the fit stops and raises
        :class:`~indefsvm.UnboundedObjectiveError`.
    gamma : {"scale", "auto"} or float, default="scale"
        Kernel coefficient (the slope ``a`` of the sigmoid). ``"scale"``:
        ``1 / (n_features * X.var())``; ``"auto"``: ``1 / n_features`` (Lin & Lin's choice).
    coef0 : float, default=0.0
        ``r`` of the sigmoid and ``coef0`` of the polynomial kernel.
    degree : int, default=3
        Degree of the polynomial kernel.
    solver : {"smo", "munk", "m3", "kernel_adatron", "lsvm"}, default="smo"
        Optimisation algorithm. ``"smo"`` solves problem (2) with the bias (any kernel).
        ``"munk"`` (non-negative kernels only), ``"m3"`` and ``"kernel_adatron"`` solve problem
        (4) of seed 002: no bias, the hyperplane passes through the origin of the feature
        space, and ``intercept_`` is 0. ``"lsvm"`` is the Lagrangian SVM of seed 001 with
        ``nu = C``: it works on the augmented inputs ``[x, -1]``, which yields a bias for the
        linear and polynomial kernels but not for RBF-type kernels (their value ignores the
        shared last coordinate); ``intercept_`` is 0 and a precomputed kernel must be the
        kernel of the augmented inputs. ``lsvm`` needs ``Q = I/C + DKD`` positive definite.
    tol : float, default=1e-3
        Stop when the KKT gap ``m - M`` (seed 000, (21)) is ``<= tol``.
    max_iter : int, optional
        Iteration cap of each binary problem; ``None`` means
        ``max(10_000_000, 100 * n_samples)``. A ``ConvergenceWarning`` is emitted when it stops
        a run.
    fit_intercept : bool, default=True
        Keep the bias ``b`` and the constraint ``y'alpha = 0`` (problem (2)). ``False`` solves
        problem (19) of seed 000 (box constraints only, ``intercept_ = 0``) by a compiled
        one-variable loop that, where ``Q_ii <= 0``, moves to the bound that lowers the
        objective. Without ``y'alpha = 0`` a CPD kernel loses its advantage (seed 000, §5), and
        with ``C = inf`` a negative ``K_ii`` makes (19) unbounded (Thm 10): the fit then raises
        :class:`~indefsvm.UnboundedObjectiveError`. For ``solver="lsvm"`` it means: no ``-1``
        column appended to the inputs.
    n_restarts : int, default=0
        Extra SMO runs from random feasible points; the lowest objective is kept (seed 000,
        Fig. 5).
    random_state : int, RandomState or None, default=None
        Seed of the random starts.
    cache_size : float, default=200
        Kernel column cache in megabytes. As in LIBSVM the cached columns are float32 (for
        kernels computed on the fly, unless the whole float64 matrix is under 8 MB); the SMO
        solve then ends with a float64 polish, so ``converged_`` and ``kkt_gap_`` refer to a
        gradient computed from float64 kernel values (see :func:`indefsvm.solvers.smo`).
    shrinking : bool, default=True
        Use LIBSVM's shrinking heuristic.
    wss : {"second_order", "first_order"}, default="second_order"
        Working-set selection; see :func:`indefsvm.solvers.smo`.
    init : {"zero", "class_balanced"}, default="zero"
        Starting point of the first run.
    kernel_params : dict, optional
        Extra kernel parameters: ``p`` for ``pseudo_euclidean``, ``sigma`` instead of
        ``gamma`` for the seed-004 kernels, keyword arguments of a callable kernel. Entries here
        override ``gamma``, ``coef0`` and ``degree``.
    decision_function_shape : {"ovr", "ovo"}, default="ovr"
        Shape of ``decision_function`` for more than two classes, as in ``SVC``.
    verbose : bool, default=False
        Print a summary of each binary run.

    Attributes
    ----------
    classes_ : ndarray of shape (n_classes,)
    alpha_ : ndarray of shape (n_samples,) or (n_pairs, n_samples)
        Dual variables of all training samples (0 for samples outside a pair).
    dual_coef_ : ndarray of shape (n_classes - 1, n_SV)
        ``y_i alpha_i`` of the support vectors, in LIBSVM's one-vs-one layout.
    support_ : ndarray of shape (n_SV,)
        Indices of the support vectors, grouped by class.
    support_vectors_ : ndarray of shape (n_SV, n_features)
        Empty for ``kernel="precomputed"``.
    n_support_ : ndarray of shape (n_classes,)
    intercept_ : ndarray of shape (n_pairs,)
        Bias ``b`` of each binary problem.
    objective_, kkt_gap_ : float or ndarray of shape (n_pairs,)
        Dual objective ``F(alpha)`` and KKT gap ``m - M`` at the solution.
    n_iter_ : int or ndarray of shape (n_pairs,)
    converged_ : bool or ndarray of shape (n_pairs,)
        Whether the KKT gap reached ``tol`` (recomputed from scratch at the end).
    history_ : ndarray of shape (n_records, 2) or list of them
        ``(iteration, objective)`` samples; non-increasing (Lemma 3 of seed 000).
    fit_status_ : int
        0 if every binary problem converged, 1 otherwise.
    solver_results_ : list of SolverResult
        Full result of each binary problem.
    n_features_in_ : int

    Notes
    -----
    Binary problems use ``y = +1`` for ``classes_[1]``, so ``decision_function > 0`` means
    ``classes_[1]``, as in ``SVC``. For a pair ``(a, b)``, ``a < b``, of a multi-class problem
    ``y = +1`` is class ``a``: a positive ``"ovo"`` decision value means ``a`` and
    ``dual_coef_`` has SVC's signs and layout.
    Sparse input is accepted: with ``solver="smo"`` (and the bias) the linear, polynomial,
    rbf and sigmoid kernels are evaluated on the CSR rows directly, as LIBSVM's sparse mode
    does; other combinations convert it to a dense array.

    With an indefinite kernel the dual is non-convex: the solution is a stationary point that
    depends on the start. Check it with :func:`indefsvm.sanity_report`.

    References
    ----------
    H.-T. Lin and C.-J. Lin, *A study on sigmoid kernels for SVM and the training of non-PSD
    kernels by SMO-type methods* (seed 000), section 6.

    Examples
    --------
    >>> import indefsvm as isvm
    >>> X, y = isvm.datasets.load_heart(return_X_y=True)
    >>> clf = isvm.IndefiniteSVC(kernel="sigmoid", gamma=0.01, coef0=-0.5, C=10).fit(X, y)
    >>> bool(clf.converged_), round(clf.score(X, y), 2)
    (True, 0.86)
    """

    def __init__(
        self,
        *,
        kernel="rbf",
        C=1.0,
        gamma="scale",
        coef0=0.0,
        degree=3,
        solver="smo",
        tol=1e-3,
        max_iter=None,
        fit_intercept=True,
        n_restarts=0,
        random_state=None,
        cache_size=200,
        shrinking=True,
        wss="second_order",
        init="zero",
        kernel_params=None,
        decision_function_shape="ovr",
        verbose=False,
    ):
        self.kernel = kernel
        self.C = C
        self.gamma = gamma
        self.coef0 = coef0
        self.degree = degree
        self.solver = solver
        self.tol = tol
        self.max_iter = max_iter
        self.fit_intercept = fit_intercept
        self.n_restarts = n_restarts
        self.random_state = random_state
        self.cache_size = cache_size
        self.shrinking = shrinking
        self.wss = wss
        self.init = init
        self.kernel_params = kernel_params
        self.decision_function_shape = decision_function_shape
        self.verbose = verbose

    def __sklearn_tags__(self):
        tags = super().__sklearn_tags__()
        tags.input_tags.pairwise = self.kernel == "precomputed"
        tags.input_tags.sparse = self.kernel != "precomputed"
        return tags

    # -- helpers ------------------------------------------------------------------------------

    def _kernel_name(self):
        return self.kernel if callable(self.kernel) else canonical_name(self.kernel)

    def _resolved_params(self, X) -> dict:
        """Concrete kernel parameters (gamma resolved) for the fitted data."""
        return resolve_kernel_params(self.kernel, X, gamma=self.gamma, coef0=self.coef0,
                                     degree=self.degree, kernel_params=self.kernel_params)

    def _solver_inputs(self, X):
        """LSVM works on the augmented inputs G = [X, -1] (seed 001, (27))."""
        if self.solver == "lsvm" and self.fit_intercept and self.kernel != "precomputed":
            return np.c_[X, -np.ones(X.shape[0])]
        return X

    def _sparse_path(self) -> bool:
        """Whether sparse X stays sparse: SMO with a bias evaluates these kernels on CSR rows
        itself (LIBSVM's sparse mode); every other combination densifies."""
        return (self.solver == "smo" and self.fit_intercept and not callable(self.kernel)
                and canonical_name(self.kernel) in _SPARSE_KERNELS)

    def _check_params(self):
        check_choice(self.solver, "solver", _SOLVERS)
        check_choice(self.decision_function_shape, "decision_function_shape", ("ovr", "ovo"))
        if not callable(self.kernel):
            canonical_name(self.kernel)

    # -- fit ----------------------------------------------------------------------------------

    def fit(self, X, y):
        """Fit the classifier.

        Parameters
        ----------
        X : array-like or sparse matrix of shape (n_samples, n_features)
            Training data, or the kernel matrix (n_samples, n_samples) if
            ``kernel="precomputed"``.
        y : array-like of shape (n_samples,)
            Class labels (two or more classes).

        Returns
        -------
        self : IndefiniteSVC
        """
        self._check_params()
        precomputed = self.kernel == "precomputed"
        X, y = validate_data(self, X, y, accept_sparse=not precomputed and "csr",
                             dtype=np.float64)
        if sp.issparse(X) and not self._sparse_path():
            X = X.toarray()
        check_classification_targets(y)
        self.classes_, y_idx = np.unique(y, return_inverse=True)
        if self.classes_.shape[0] < 2:
            raise ValueError(
                "IndefiniteSVC needs samples of at least 2 classes in the data, but the data "
                f"contains only one class: {self.classes_[0]!r}."
            )
        if precomputed:
            X = check_kernel_matrix(X, "X (precomputed kernel)")
        params = self._resolved_params(X)
        kernel_arg = self._kernel_name()
        K_full = None
        smo_with_bias = self.solver == "smo" and self.fit_intercept
        if callable(kernel_arg) or (not smo_with_bias and not precomputed):
            # SMO evaluates named kernels itself; the other solvers work on the full matrix
            K_full = check_kernel_matrix(kernel_matrix(self._solver_inputs(X),
                                                       kernel=kernel_arg, **params),
                                         "kernel(X, X)")
        n = X.shape[0]
        pairs = list(combinations(range(self.classes_.shape[0]), 2))
        results, alphas, members = [], [], []
        # +1 is classes_[1] for two classes (decision > 0 means classes_[1]) and the first
        # class of each pair otherwise: the sign conventions of SVC's dual_coef_ and "ovo".
        binary = len(pairs) == 1
        for a, b in pairs:
            idx = np.flatnonzero((y_idx == a) | (y_idx == b))
            pos_class = b if binary else a
            y_pm = np.where(y_idx[idx] == pos_class, 1.0, -1.0)
            whole = idx.shape[0] == n  # two classes: no copy of the data
            if precomputed or K_full is not None:
                src = X if precomputed else K_full
                data = src if whole else src[np.ix_(idx, idx)]
                kern, kp = "precomputed", None
            else:
                data, kern, kp = (X if whole else X[idx]), kernel_arg, params
            if self.solver == "smo" and not self.fit_intercept:
                # problem (19): box constraints only, one variable at a time
                res = kernel_adatron(data, y_pm, C=self.C, tol=self.tol, max_iter=self.max_iter)
            elif self.solver == "smo":
                res = smo(data, y_pm, C=self.C, tol=self.tol, wss=self.wss,
                          shrinking=self.shrinking, max_iter=self.max_iter,
                          cache_size=self.cache_size, init=self.init,
                          n_restarts=self.n_restarts, random_state=self.random_state,
                          kernel=kern, kernel_params=kp, check_input=False)
            elif self.solver == "lsvm":
                if not np.isfinite(self.C):
                    raise ValueError(
                        "solver='lsvm' needs a finite C: it is the nu of the Lagrangian SVM, the "
                        "weight of its squared errors, and the method has no hard-margin form "
                        "(Q = I/nu + DKD). Use a finite C or solver='smo'.")
                res = lsvm(data, y_pm, nu=self.C, tol=self.tol, max_iter=self.max_iter)
            else:
                solve = {"munk": munk, "m3": m3, "kernel_adatron": kernel_adatron}[self.solver]
                res = solve(data, y_pm, C=self.C, tol=self.tol, max_iter=self.max_iter)
            if self.verbose:
                print(f"classes ({self.classes_[a]!r}, {self.classes_[b]!r}):\n{res}")
            alpha = np.zeros(n)
            alpha[idx] = res.alpha
            results.append(res)
            alphas.append(alpha)
            members.append((a, b, pos_class, idx))
        self._store(X, y_idx, params, results, alphas, members, precomputed)
        return self

    def _store(self, X, y_idx, params, results, alphas, members, precomputed):
        n_classes = self.classes_.shape[0]
        is_sv = np.zeros(X.shape[0], dtype=bool)
        for alpha in alphas:
            is_sv |= alpha > 0
        # support vectors grouped by class, as LIBSVM orders them
        support = np.concatenate([np.flatnonzero(is_sv & (y_idx == c)) for c in range(n_classes)])
        position = np.full(X.shape[0], -1)
        position[support] = np.arange(support.shape[0])
        dual_coef = np.zeros((max(n_classes - 1, 1), support.shape[0]))
        self._pairs = []
        for (a, b, pos_class, idx), alpha in zip(members, alphas, strict=True):
            sv = idx[alpha[idx] > 0]
            coef = alpha[sv] * np.where(y_idx[sv] == pos_class, 1.0, -1.0)
            pos = position[sv]
            # LIBSVM layout: coefficients of class-a SVs in row b-1, of class-b SVs in row a
            in_a = y_idx[sv] == a
            dual_coef[b - 1, pos[in_a]] = coef[in_a]
            dual_coef[a, pos[~in_a]] = coef[~in_a]
            self._pairs.append((a, b, pos_class, pos, coef))
        self.support_ = support.astype(np.int32)
        self.n_support_ = np.array([np.count_nonzero(y_idx[support] == c)
                                    for c in range(n_classes)], dtype=np.int32)
        self.dual_coef_ = dual_coef
        if precomputed:
            self.support_vectors_ = np.empty((0, 0))
        elif sp.issparse(X):
            self.support_vectors_ = X[support].toarray()
        else:
            self.support_vectors_ = X[support].copy()
        self.intercept_ = np.array([r.b for r in results])
        self.solver_results_ = results
        self._kernel_params_fitted = params
        self.shape_fit_ = X.shape
        binary = n_classes == 2
        if binary:
            r = results[0]
            self.alpha_ = alphas[0]
            self.objective_ = r.objective
            self.n_iter_ = r.n_iter
            self.converged_ = r.converged
            self.kkt_gap_ = r.kkt_gap
            self.history_ = r.history
        else:
            self.alpha_ = np.vstack(alphas)
            self.objective_ = np.array([r.objective for r in results])
            self.n_iter_ = np.array([r.n_iter for r in results])
            self.converged_ = np.array([r.converged for r in results])
            self.kkt_gap_ = np.array([r.kkt_gap for r in results])
            self.history_ = [r.history for r in results]
        self.fit_status_ = 0 if all(r.converged for r in results) else 1

    # -- predict ------------------------------------------------------------------------------

    def _kernel_to_sv(self, X):
        check_is_fitted(self)
        precomputed = self.kernel == "precomputed"
        X = validate_data(self, X, reset=False, accept_sparse=not precomputed and "csr",
                          dtype=np.float64)
        if sp.issparse(X):
            X = X.toarray()
        if precomputed:
            return X[:, self.support_]
        return kernel_matrix(self._solver_inputs(X), self._solver_inputs(self.support_vectors_),
                             kernel=self._kernel_name(),
                             **self._kernel_params_fitted)

    def _ovo_decision(self, X):
        Ksv = self._kernel_to_sv(X)
        dec = np.empty((Ksv.shape[0], len(self._pairs)))
        for p, (_, _, _, pos, coef) in enumerate(self._pairs):
            dec[:, p] = Ksv[:, pos] @ coef + self.intercept_[p]
        return dec

    def _ovr_from_ovo(self, dec):
        n_classes = self.classes_.shape[0]
        votes = np.zeros((dec.shape[0], n_classes))
        conf = np.zeros((dec.shape[0], n_classes))
        for p, (a, b, pos_class, _, _) in enumerate(self._pairs):
            neg_class = b if pos_class == a else a
            votes[:, pos_class] += dec[:, p] > 0
            votes[:, neg_class] += dec[:, p] <= 0
            conf[:, pos_class] += dec[:, p]
            conf[:, neg_class] -= dec[:, p]
        # confidences squeezed into (-1/3, 1/3) so they only break ties between votes
        return votes + conf / (3.0 * (np.abs(conf) + 1.0))

    def decision_function(self, X):
        """Decision values.

        Parameters
        ----------
        X : array-like of shape (n_samples, n_features)
            Or (n_samples, n_train) kernel values for ``kernel="precomputed"``.

        Returns
        -------
        ndarray of shape (n_samples,) for two classes (> 0 means ``classes_[1]``), otherwise
        (n_samples, n_classes) for ``"ovr"`` or (n_samples, n_pairs) for ``"ovo"``.
        """
        dec = self._ovo_decision(X)
        if self.classes_.shape[0] == 2:
            return dec[:, 0]
        if self.decision_function_shape == "ovo":
            return dec
        return self._ovr_from_ovo(dec)

    def predict(self, X):
        """Predicted class labels.

        Parameters
        ----------
        X : array-like of shape (n_samples, n_features)
            Or (n_samples, n_train) kernel values for ``kernel="precomputed"``.

        Returns
        -------
        ndarray of shape (n_samples,)
        """
        dec = self._ovo_decision(X)
        if self.classes_.shape[0] == 2:
            return self.classes_[(dec[:, 0] > 0).astype(int)]
        return self.classes_[np.argmax(self._ovr_from_ovo(dec), axis=1)]
