"""The Krein-space SVM: trained on the flipped kernel, predicting with the original one."""

from __future__ import annotations

import numpy as np
from sklearn.base import BaseEstimator, ClassifierMixin, _fit_context
from sklearn.utils.validation import _num_samples, check_is_fitted

from .. import _constraints as _c
from .._fitted import forget
from .._interrupt import unfitted_on_interrupt
from .._tags import PairwiseInput
from .._threads import sized_by
from .._validation import (
    check_kernel_matrix,
    check_kernel_rows,
    kernel_input,
    validate_input,
)
from ..exceptions import ParameterError
from ..kernels import (
    canonical_name,
    check_kernel_settings,
    estimator_kernel_params,
    kernel_matrix,
)
from ..svm import IndefiniteSVC
from ._fix_base import check_kernel_memory
from ._spectrum_fix import FlipEigenvalues

__all__ = ["KreinSVC"]


class KreinSVC(PairwiseInput, ClassifierMixin, BaseEstimator):
    """SVM in the Krein space of an indefinite kernel (Loosli, Canu & Ong, TPAMI 2016).

    Trains the SVM dual on the flipped kernel ``|K| = U |lam| U'`` (a PSD problem: one
    optimum) by the SMO of :class:`~indefsvm.IndefiniteSVC`, then back-projects the
    coefficients, ``beta = U sign(lam) U' (alpha * y)``, so that

        ``f(x) = k(x, X) beta + b``

    uses the *original* kernel: the decisions are those of flip + SVC with the consistent
    test transform ``k U sign(lam) U'`` (:class:`FlipEigenvalues`), without any eigenbasis at
    test time. ``beta`` is in general dense: every training sample enters the prediction.

    Parameters
    ----------
    kernel, C, gamma, coef0, degree, tol, max_iter, cache_size, kernel_params, class_weight, \
decision_function_shape, break_ties
        As in :class:`~indefsvm.IndefiniteSVC` (``kernel="precomputed"``: ``X`` is the
        training kernel, then kernel rows ``(n_test, n_train)``).

    Attributes
    ----------
    svc_ : IndefiniteSVC
        The SVM on the flipped training kernel (precomputed).
    eigenvalues_ : ndarray of shape (n_train,)
        The eigenvalues of the training kernel, ascending (those the flip made absolute).
        The decomposition itself is not kept (its eigenvectors and projector were two
        ``n x n`` arrays, most of a saved model, and prediction does not read them):
        ``FlipEigenvalues().fit(K_train)`` computes it.
    beta_ : ndarray of shape (n_pairs, n_train)
        Back-projected coefficients of each one-vs-one problem.
    intercept_ : ndarray of shape (n_pairs,)
    classes_ : ndarray
    n_iter_ : ndarray of shape (n_pairs,)
        The SVM's iterations for each one-vs-one problem (``svc_.n_iter_``).
    converged_ : bool or ndarray of bool
        Whether the SVM reached ``tol`` (``svc_.converged_``: one flag for two classes, one
        per pair otherwise).
    kernel_params_ : dict
        The kernel's parameters as the fit resolved them (``gamma`` of ``"scale"`` as a
        number), as :attr:`IndefiniteSVC.kernel_params_`; empty for a precomputed kernel.
    X_fit_ : ndarray or sparse matrix
        The training data, the rows test data are compared with (absent for a precomputed kernel).
    n_train_ : int
        Number of training samples.
    n_features_in_ : int
        Number of features (columns of ``X``) seen in fit, as scikit-learn's estimators keep it.

    Examples
    --------
    >>> import numpy as np
    >>> import indefsvm as isvm
    >>> X, y = isvm.datasets.load_heart(return_X_y=True)
    >>> clf = isvm.KreinSVC(kernel="sigmoid", gamma=0.01, coef0=0.5).fit(X, y)
    >>> round(clf.score(X, y), 2) > 0.8
    True
    """

    #: features (not a kernel matrix) may be CSR: kept CSR, the kernels take them
    _sparse_features = True

    #: scikit-learn's declaration of the parameters and their ranges, checked by fit
    #: (_fit_context); the kernel's own rule (gamma's sign) by the SVM it trains
    _parameter_constraints: dict = {
        "kernel": _c.KERNEL, "C": _c.C, "gamma": _c.GAMMA, "coef0": _c.COEF0,
        "degree": _c.DEGREE, "tol": _c.TOL,
        "max_iter": _c.SVM_MAX_ITER,
        "cache_size": _c.CACHE_SIZE, "kernel_params": _c.KERNEL_PARAMS,
        "class_weight": _c.CLASS_WEIGHT,
        "decision_function_shape": _c.DECISION_FUNCTION_SHAPE, "break_ties": ["boolean"],
    }

    def __init__(self, *, kernel="rbf", C=1.0, gamma="scale", coef0=0.0, degree=3, tol=1e-3,
                 max_iter=None, cache_size=200, kernel_params=None, class_weight=None,
                 decision_function_shape="ovr", break_ties=False):
        self.kernel = kernel
        self.C = C
        self.gamma = gamma
        self.coef0 = coef0
        self.degree = degree
        self.tol = tol
        self.max_iter = max_iter
        self.cache_size = cache_size
        self.kernel_params = kernel_params
        self.class_weight = class_weight
        self.decision_function_shape = decision_function_shape
        self.break_ties = break_ties

    @property
    def flip_(self):
        """Not kept any more (also hidden in a model loaded from an older file, whose state
        has it): an AttributeError that says where the spectrum and the decomposition are.
        Computing it here would make an attribute's read cost an eigendecomposition."""
        raise AttributeError(
            "KreinSVC keeps no flip_ (its eigenvectors and projector were two n x n arrays, "
            "most of a saved model, and prediction does not read them): eigenvalues_ holds "
            "the training kernel's spectrum, and FlipEigenvalues().fit(K_train) computes "
            "the decomposition (K_train = indefsvm.kernel_matrix(clf.X_fit_, "
            "kernel=clf.kernel, **clf.kernel_params_) for a named kernel).")

    @property
    def kernel_params_(self) -> dict:
        """The kernel's parameters as the fit resolved them. Set by ``fit``."""
        from sklearn.utils.validation import check_is_fitted

        check_is_fitted(self)  # NotFittedError is an AttributeError: hasattr says False
        return {} if self.kernel == "precomputed" else dict(self._params)

    def _train_kernel(self, X, reset: bool = True):
        """The training kernel of X (checked); ``reset`` fixes the kernel's parameters."""
        if self.kernel == "precomputed":
            if reset:  # a previous fit's training data stay out of this model (and its file)
                forget(self, "X_fit_", "_name", "_params")
            return check_kernel_matrix(X, "X (precomputed kernel)", warn_distances=reset)
        X = kernel_input(self, X, reset=reset, accept_sparse="csr", dtype=np.float64)
        if reset:
            self.X_fit_ = X
            self._name = self.kernel if callable(self.kernel) else canonical_name(self.kernel)
            self._params = estimator_kernel_params(self, X)
        return check_kernel_matrix(kernel_matrix(X, kernel=self._name, **self._params),
                                   "kernel(X, X)")

    def _check_settings(self):
        """The kernel's rules that need no data: gamma's sign, p, rho (as the SVMs')."""
        check_kernel_settings(self.kernel, self.gamma, self.kernel_params)

    @unfitted_on_interrupt
    @sized_by(0, "X", method=True)
    @_fit_context(prefer_skip_nested_validation=True)
    def fit(self, X, y, sample_weight=None):
        """Fit on the flipped kernel and back-project.

        Parameters
        ----------
        X : array-like
            Training data (dense or CSR), or the training kernel for
            ``kernel="precomputed"``.
        y : array-like of shape (n_samples,)
            Class labels.
        sample_weight : array-like of shape (n_samples,), optional
            Per-sample weights (>= 0): ``C_i = C * class_weight * sample_weight``.

        Returns
        -------
        self : KreinSVC
        """
        self._check_settings()
        if self.kernel == "precomputed":
            validate_input(self, X, y, dtype=np.float64)
        n = _num_samples(X)
        # the flip's fit and fixed kernel (FlipEigenvalues'), and the kernel of X when it is
        # computed here: said before the work
        check_kernel_memory(n, FlipEigenvalues._transform_matrices
                            + (self.kernel != "precomputed"), "KreinSVC.fit")
        K = self._train_kernel(X)
        # the flip is used here and not kept: its eigenvectors and projector were two n x n
        # arrays in every fitted model
        flip = FlipEigenvalues().fit(K)
        self.eigenvalues_ = flip.eigenvalues_
        Kf = flip._fixed_kernel()
        self.svc_ = IndefiniteSVC(
            kernel="precomputed", C=self.C, tol=self.tol, max_iter=self.max_iter,
            cache_size=self.cache_size, class_weight=self.class_weight,
            decision_function_shape=self.decision_function_shape,
            break_ties=self.break_ties).fit(Kf, y, sample_weight=sample_weight)
        coef, intercept = self.svc_._pair_coefficients()
        full = np.zeros((coef.shape[0], K.shape[0]))
        full[:, self.svc_.support_] = coef
        # beta = U sign(lam) U' c for each pair (the projector is symmetric)
        self.beta_ = full @ flip.projector_
        self.intercept_ = np.asarray(intercept, dtype=np.float64)
        self.classes_ = self.svc_.classes_
        self.n_train_ = K.shape[0]
        # the SVM's passes and whether it reached tol (scikit-learn's n_iter_, per pair)
        self.n_iter_ = self.svc_.n_iter_
        self.converged_ = self.svc_.converged_
        return self

    def _rows(self, X):
        check_is_fitted(self)
        if self.kernel == "precomputed":
            return check_kernel_rows(X, self.n_train_, "X")
        X = kernel_input(self, X, reset=False, accept_sparse="csr", dtype=np.float64)
        return kernel_matrix(X, self.X_fit_, kernel=self._name, **self._params)

    def _ovo(self, X):
        return self._rows(X) @ self.beta_.T + self.intercept_

    def decision_function(self, X):
        """``k(x, X) beta + b`` with the original kernel (SVC's shapes).

        Parameters
        ----------
        X : array-like
            Data (dense or CSR), or kernel rows ``(n_samples, n_train)`` for
            ``kernel="precomputed"``.

        Returns
        -------
        ndarray of shape (n_samples,) or (n_samples, n_classes) / (n_samples, n_pairs)
        """
        dec = self._ovo(X)
        if self.classes_.shape[0] == 2:
            return dec[:, 0]
        if self.decision_function_shape == "ovo":
            return dec
        return self.svc_._ovr_from_ovo(dec)

    def predict(self, X):
        """Class labels (one-vs-one vote, as :class:`~indefsvm.IndefiniteSVC`).

        Parameters
        ----------
        X : array-like
            Test data (features, or the kernel against the training samples).

        Returns
        -------
        ndarray of shape (n_samples,)
        """
        check_is_fitted(self)
        return self.svc_._labels_from_ovo(self._ovo(X))

    def _check_fitted_state(self):
        """The fitted state a model file vouches for (``indefsvm._fitted``): fitted, a kernel
        of the library, finite coefficients (and training data) of its size."""
        from .._fitted import check_kernel_name, require, require_finite, require_finite_rows

        require(hasattr(self, "beta_") and isinstance(getattr(self, "n_train_", None), int),
                "holds a Krein SVM that was never fitted")
        check_kernel_name(self.kernel, canonical_name)
        n_pairs = len(self.classes_) * (len(self.classes_) - 1) // 2
        what = "has Krein SVM coefficients that are not finite or not of its size"
        beta = require_finite(self.beta_, what)
        icpt = require_finite(self.intercept_, what)
        require(beta.shape == (n_pairs, self.n_train_) and icpt.shape == (n_pairs,), what)
        if self.kernel != "precomputed":
            what = "has Krein SVM training data that are not finite or not of its size"
            shape = require_finite_rows(getattr(self, "X_fit_", np.nan), what)
            require(shape[0] == self.n_train_, what)

    def _dual_problems(self, X, y, tol):
        """The dual problems of the SVM it trains on the flipped kernel ``|K|`` (then
        back-projected): that SVM is what has a dual to check (for
        :func:`~indefsvm.sanity_report`)."""
        if not hasattr(self, "svc_"):
            raise ValueError("sanity_report needs a fitted KreinSVC (call fit first).")
        Kf = self.flipped_kernel(X)
        if Kf.shape[0] != self.n_train_:
            raise ParameterError(f"must be the training data of the model ({self.n_train_} "
                                 f"samples); got {Kf.shape[0]}.", "X")
        return self.svc_._dual_problems(Kf, y, tol)

    def flipped_kernel(self, X) -> np.ndarray:
        """The flipped training kernel ``U |lam| U'`` of the training data ``X`` (for
        :func:`indefsvm.sanity_report` of ``svc_``).

        Parameters
        ----------
        X : array-like
            The training data (or training kernel).

        Returns
        -------
        ndarray of shape (n_train, n_train)
        """
        check_is_fitted(self)
        return FlipEigenvalues().fit(self._train_kernel(X, reset=False))._fixed_kernel()
