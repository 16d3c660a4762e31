"""From features to kernel values: :class:`FeatureKernel`, the first step of a pipeline that
fixes a whole kernel matrix (a spectrum remedy) and trains on the fixed kernel, yet predicts
from features (private module; the class is public as ``indefsvm.FeatureKernel``)."""

from __future__ import annotations

import numpy as np
from sklearn.base import BaseEstimator, TransformerMixin, _fit_context
from sklearn.utils.validation import _num_samples, check_is_fitted

from . import _constraints as _c
from ._tags import TrainingColumns
from ._validation import kernel_input
from .kernels import (
    canonical_name,
    check_kernel_settings,
    estimator_kernel_params,
    kernel_matrix,
)

__all__ = ["FeatureKernel"]


class FeatureKernel(TrainingColumns, TransformerMixin, BaseEstimator):
    """Features in, kernel values against the training samples out.

    ``fit(X)`` keeps the training samples and resolves the kernel's parameters on them
    (``gamma="scale"`` is ``1 / (n_features X.var())``, as in :class:`IndefiniteSVC`);
    ``transform(Z)`` returns the rows ``k(z, x_j)`` against the ``n_train`` training samples,
    and ``fit_transform(X)`` the training kernel ``K`` itself (exactly symmetric). It is to
    features what :class:`~indefsvm.DistanceKernel` is to distances: in front of a kernel fix
    (:class:`~indefsvm.remedies.ClipEigenvalues`, ``FlipEigenvalues``, ``SquareKernel``, ...)
    and an SVM with ``kernel="precomputed"``, the pipeline fits on features and predicts
    on new features, and cross-validation slices the features as usual (each fold's kernel
    is its training part's). ``indefsvm fit --remedy R`` on features builds that pipeline.
    CSR features (a LIBSVM file read by ``load_svmlight_file``) are kept CSR.

    Parameters
    ----------
    kernel : str or callable, default="rbf"
        A name of :data:`indefsvm.kernels.KERNELS` (aliases ``"poly"``, ``"gaussian"``) or a
        callable ``k(X, Y) -> (n_X, n_Y)`` matrix.
    gamma : {"scale", "auto"} or float, default="scale"
        For the kernels that take it; its sign is the kernel's rule (>= 0 but for the
        sigmoid).
    coef0 : float, default=0.0
        The sigmoid's and the polynomial's constant.
    degree : int, default=3
        The polynomial's degree.
    kernel_params : dict or None, default=None
        Further parameters of the kernel (``sigma``, ``p``, ``rho``), or of the callable.

    Attributes
    ----------
    X_fit_ : ndarray of shape (n_train, n_features)
        The training samples (the columns of every output).
    kernel_params_ : dict
        The kernel's parameters as resolved on them.
    gamma_ : float or None
        The gamma used (``None`` for a kernel without one): what
        :class:`~indefsvm.RemedySearchCV` (``kernel=FeatureKernel(...)``) spans its default
        grid of gamma around.
    n_train_ : int
        Number of training samples: the width of the output.
    n_features_in_ : int
        Number of features.

    Examples
    --------
    >>> import numpy as np
    >>> from sklearn.pipeline import make_pipeline
    >>> import indefsvm as isvm
    >>> X, y = isvm.datasets.load_heart(return_X_y=True)
    >>> model = make_pipeline(
    ...     isvm.FeatureKernel("sigmoid", gamma=0.01, coef0=-0.5),
    ...     isvm.remedies.ClipEigenvalues(),
    ...     isvm.IndefiniteSVC(kernel="precomputed", C=10)).fit(X[:200], y[:200])
    >>> model.predict(X[200:203]).shape
    (3,)
    """

    _parameter_constraints: dict = {
        # a kernel matrix needs no FeatureKernel: it goes straight to the fix or the SVM
        "kernel": [_c.KernelNames(_c.KERNEL_NAMES - {"precomputed"}), callable],
        "gamma": _c.GAMMA, "coef0": _c.COEF0, "degree": _c.DEGREE,
        "kernel_params": _c.KERNEL_PARAMS,
    }

    #: the fitted attribute of the output's width (TrainingColumns)
    _n_train_attr = "n_train_"

    def __init__(self, kernel="rbf", *, gamma="scale", coef0=0.0, degree=3,
                 kernel_params=None):
        self.kernel = kernel
        self.gamma = gamma
        self.coef0 = coef0
        self.degree = degree
        self.kernel_params = kernel_params

    def __sklearn_tags__(self):
        tags = super().__sklearn_tags__()
        tags.input_tags.sparse = True  # CSR features, kept CSR (the kernels take them)
        return tags

    def _check_settings(self):
        """The rules the constraints cannot say: gamma's sign by kernel, the kernel's own
        parameters (pseudo_euclidean's p, tl1's rho)."""
        check_kernel_settings(self.kernel, self.gamma, self.kernel_params)

    def _check_fitted_state(self):
        """The fitted state a model file vouches for (``indefsvm._fitted``): a kernel name of
        the library, finite training samples and parameters."""
        from ._fitted import (
            check_degree,
            check_kernel_name,
            require,
            require_finite,
            require_finite_rows,
        )

        require(hasattr(self, "X_fit_"), "holds a feature kernel that was never fitted")
        check_kernel_name(self.kernel, canonical_name, precomputed=False)
        check_degree(self.degree)
        shape = require_finite_rows(self.X_fit_, "holds a feature kernel whose training "
                                    "samples are NaN, infinite or not a matrix")
        require(shape == (self.n_train_, self.n_features_in_),
                "holds a feature kernel whose training samples do not match its sizes")
        params = self.kernel_params_
        require(isinstance(params, dict) and all(
            isinstance(v, (int, float, np.integer, np.floating)) for v in params.values()),
            "holds a feature kernel whose parameters are not numbers")
        require_finite(list(params.values()), "holds a feature kernel whose parameters are "
                       "NaN or infinite")

    @_fit_context(prefer_skip_nested_validation=True)
    def fit(self, X, y=None):
        """Keep the training samples and resolve the kernel's parameters on them.

        Parameters
        ----------
        X : {array-like, sparse matrix} of shape (n_train, n_features)
        y : None
            Ignored; accepted for scikit-learn's pipeline API.

        Returns
        -------
        self
        """
        self._check_settings()
        X = kernel_input(self, X, accept_sparse="csr", dtype=np.float64)
        self.kernel_params_ = estimator_kernel_params(self, X)
        gamma = self.kernel_params_.get("gamma")
        self.gamma_ = None if gamma is None else float(gamma)
        self.X_fit_ = X
        self.n_train_ = _num_samples(X)
        return self

    def transform(self, X):
        """Kernel rows ``k(x, x_j)`` against the training samples.

        Parameters
        ----------
        X : {array-like, sparse matrix} of shape (n_rows, n_features)

        Returns
        -------
        ndarray of shape (n_rows, n_train)
        """
        check_is_fitted(self, "X_fit_")
        X = kernel_input(self, X, reset=False, accept_sparse="csr", dtype=np.float64)
        return kernel_matrix(X, self.X_fit_, self.kernel, **self.kernel_params_)

    def fit_transform(self, X, y=None):
        """The training kernel ``K(X, X)`` (the same values as ``fit(X).transform(X)``).

        Parameters
        ----------
        X : {array-like, sparse matrix} of shape (n_train, n_features)
        y : None
            Ignored; accepted for scikit-learn's pipeline API.

        Returns
        -------
        ndarray of shape (n_train, n_train)
        """
        self.fit(X)
        # Y = None: the kernels' symmetric path; a callable's matrix as it returns it (a fix
        # refuses one that is not symmetric, naming it)
        return kernel_matrix(self.X_fit_, None, self.kernel, **self.kernel_params_)
