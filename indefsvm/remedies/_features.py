"""Similarities as features: each object described by its similarities (or distances) to
the training objects or to landmarks, and a linear SVM on those -- the "similarity as
features" route of Graepel et al. (1999), Chen, Garcia, Gupta, Rahimi & Cazzanti (JMLR 2009,
section 4.3) and, with DTW distances, Kate (2016). No kernel is formed of the similarities
themselves, so it need not be positive definite: the linear kernel of the features is.
"""

from __future__ import annotations

import numpy as np
from sklearn.base import BaseEstimator, TransformerMixin, _fit_context
from sklearn.utils.validation import check_is_fitted, validate_data

from .._tags import TrainingColumns
from ._fix_base import _KernelFix

__all__ = ["SimilarityFeatures"]


class SimilarityFeatures(TrainingColumns, TransformerMixin, BaseEstimator):
    """Rows of a similarity or distance matrix as standardised features.

    ``fit(R)`` takes the rows of the training objects -- their similarities (kernel values)
    or distances to the training objects themselves (``n x n``) or to ``m`` landmarks
    (``n x m``) -- and learns each column's mean and standard deviation over them;
    ``transform(R)`` returns ``(R - mean) / (std * sqrt(m))``: every column standardised on
    the training rows, and the whole scaled so that a training row's squared norm is 1 on
    average, so that a linear SVM's ``C`` means what it means on an RBF kernel (without the
    scaling the right C moves with m). Standardised columns are Chen et al.'s (2009)
    choice for an SVM on similarities as features and what scikit-learn's ``StandardScaler``
    gives; a column that is constant on the training rows (every object as similar to that
    one) is kept at 0.

    Attributes
    ----------
    mean_ : ndarray of shape (m,)
        Each column's mean over the training rows.
    scale_ : ndarray of shape (m,)
        ``std * sqrt(m)`` of each column (1 for a constant column).
    n_features_in_ : int
        ``m``.
    n_train_ : int
        ``m``, the number of output columns (one a training object or landmark).

    See Also
    --------
    indefsvm.RemedySearchCV : its method ``"features"`` is a linear SVM on these features of
        the kernel rows, with ``C`` (and the kernel's ``gamma``) on the same folds as every
        other method.

    Examples
    --------
    >>> import numpy as np
    >>> from indefsvm.remedies import SimilarityFeatures
    >>> D = np.array([[0.0, 1, 4], [1, 0, 2], [4, 2, 0]])
    >>> SimilarityFeatures().fit_transform(D).round(3)
    array([[-0.577,  0.   ,  0.577],
           [ 0.   , -0.577,  0.   ],
           [ 0.577,  0.577, -0.577]])
    """

    _parameter_constraints: dict = {}

    @_fit_context(prefer_skip_nested_validation=True)
    def fit(self, X, y=None):
        """Learn the columns' means and scales.

        Parameters
        ----------
        X : array-like of shape (n_samples, m)
            Similarities or distances of the training objects to the training objects or
            to landmarks.
        y : None
            Ignored.

        Returns
        -------
        self
        """
        R = validate_data(self, X, dtype=np.float64, reset=True)
        self._learn(R)
        return self

    def _learn(self, R):
        m = R.shape[1]
        # the moments of R / 2^e, e the exponent of its largest value (exact): the squares
        # of values near 1e300 (or 1e-170) leave float64's range
        top = float(np.max(np.abs(R))) if R.size else 0.0
        e = int(np.frexp(top)[1]) if top > 0 and np.isfinite(top) else 0
        Rs = np.ldexp(R, -e)
        mean = Rs.mean(axis=0)
        sd = Rs.std(axis=0)
        # a column constant on the training rows carries nothing: 0 after the shift
        sd[sd <= R.shape[0] * np.finfo(float).eps * np.maximum(np.abs(mean), 1.0)] = np.inf
        self.mean_ = np.ldexp(mean, e)
        self.scale_ = np.ldexp(sd, e) * np.sqrt(m)
        self.n_train_ = m

    def _features(self, R):
        return (R - self.mean_) / self.scale_

    def transform(self, X):
        """The standardised features of similarity or distance rows.

        Parameters
        ----------
        X : array-like of shape (n_samples, m)
            Rows against the same training objects or landmarks as ``fit``'s.

        Returns
        -------
        ndarray of shape (n_samples, m)
        """
        check_is_fitted(self, "mean_")
        R = validate_data(self, X, dtype=np.float64, reset=False)
        return self._features(R)

    _n_train_attr = "n_train_"


class SimilarityKernel(_KernelFix):
    """The method ``"features"`` of the remedy table, in the fixes' protocol: kernel rows to
    :class:`SimilarityFeatures` ``Z``, and the linear kernel of those, ``Z Z_train'``, which an
    SVM on a precomputed kernel trains on -- the linear SVM on the features, with its bias
    (LIBSVM's ``-t 0`` on ``Z``). Positive semi-definite by construction."""

    _parameter_constraints: dict = {}
    _spectrum = None
    _keeps_kernel = False
    #: the features and their kernel beside the caller's kernel (measured: 2.1)
    _fit_matrices = _transform_matrices = 2.5

    def __init__(self):
        super().__init__(centered=False)

    def _fit_extra(self, K, lam, U):
        self.features_ = SimilarityFeatures()
        self.features_._learn(K)
        self.features_.n_features_in_ = K.shape[1]
        self.Z_fit_ = self.features_._features(K)

    def transform(self, X):
        """The linear kernel of the features of kernel rows with the training features.

        Parameters
        ----------
        X : array-like of shape (n_samples, n_train)
            Kernel values between new samples and the training samples.

        Returns
        -------
        ndarray of shape (n_samples, n_train)
        """
        return self.features_._features(self._rows(X)) @ self.Z_fit_.T

    def _fixed_kernel(self) -> np.ndarray:
        check_is_fitted(self, "Z_fit_")
        K = self.Z_fit_ @ self.Z_fit_.T
        return (K + K.T) / 2

    def _check_fitted_state(self):
        super()._check_fitted_state()
        from .._fitted import require, require_finite

        n = self.n_train_
        what = "holds similarity features that are not (n, n) finite numbers"
        require(require_finite(getattr(self, "Z_fit_", None), what).shape == (n, n), what)
