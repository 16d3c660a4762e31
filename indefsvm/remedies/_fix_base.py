"""The spectrum-fix protocol (private): what every fix of a precomputed kernel is -- fitted on
the training kernel, the fixed training kernel and the consistent transform of test rows --
declared once. ``_KernelFix`` holds the protocol the search's fold engine
(``remedies._folds``) and the Krein SVM call -- ``_prepare`` (the training kernel, centred if
asked), ``_spectrum`` (what the fix needs of the eigendecomposition: "values", "vectors" or
nothing), ``_finish`` (the fix from it), ``_fixed_kernel`` (the fixed training kernel) -- and
``_EigenFix`` the eigendecomposition clip, flip and the advanced shift share. The fixes
themselves are in ``_spectrum_fix``."""

from __future__ import annotations

import numpy as np
from sklearn.base import BaseEstimator, TransformerMixin, _fit_context
from sklearn.utils.validation import check_is_fitted

from .._fitted import forget
from .._interrupt import interruptible, unfitted_on_interrupt
from .._tags import PairwiseInput, TrainingColumns
from .._threads import sized_by
from .._validation import check_memory, kernel_fit_input, kernel_rows_input, user_stacklevel
from .._warn import warn

__all__ = ["_EigenFix", "_KernelFix", "_check_fixed_spectrum"]


#: what works where a whole-kernel remedy does not fit in memory
LANDMARK_HINT = ("Train on landmarks instead, NystroemSVC(remedy='clip', 'flip' or 'krein', "
                 "n_components=1000) (memory linear in n), or fix the kernel of a subsample.")


def check_kernel_memory(n: int, matrices: float, what: str) -> None:
    """Refuse before the work (MemoryError with the figure and :data:`LANDMARK_HINT`) when
    ``matrices`` float64 ``n x n`` matrices are more than the memory available now."""
    check_memory(8.0 * n * n * matrices, f"{what} on {n} samples (about {matrices:.3g} "
                 f"matrices of {n} x {n} at once)", LANDMARK_HINT)


def folds_matrices(n: int, n_train: int, n_folds: int, n_jobs, per_fold: float,
                   whole: float = 2.0) -> float:
    """float64 ``n x n`` matrices a cross-validation of whole-kernel remedies holds at its
    peak beside the caller's kernel: ``whole`` of the whole kernel's (its check, the k-NN
    distances), ``per_fold`` times ``(n_train / n)^2`` for each of the ``n_folds`` tasks
    that runs at once, and three more when joblib's workers run them (the memory-mapped
    copies of the kernel and the distances they share, and the rest of what a worker holds).
    The factors are measured (``benchmarks/memory_probe.py``)."""
    from joblib import effective_n_jobs

    at_once = max(1, min(n_folds, effective_n_jobs(n_jobs)))
    share = n_train / max(n, 1)
    return whole + (3.0 if at_once > 1 else 0.0) + per_fold * share**2 * at_once


class _KernelFix(PairwiseInput, TrainingColumns, TransformerMixin, BaseEstimator):
    """Shared: input checks, centring, the eigendecomposition, the pairwise tag."""

    #: what fit decomposes: "vectors" (eigh), "values" (eigvalsh) or None
    #: scikit-learn's declaration of the parameters, checked by fit (_fit_context); the
    #: ranges and the finer rules are checked after it, in messages that name the fix
    _parameter_constraints: dict = {"centered": ["boolean"]}

    _spectrum = "vectors"
    #: whether the fitted model keeps the (prepared) training kernel, ``K_fit_``: the shift
    #: and the square read it after fit; clip and flip have their projector and their
    #: eigenvectors, and kept a third n x n copy they never read (a third of a model file)
    _keeps_kernel = True

    #: float64 n x n matrices beside the caller's kernel at the peak of fit and of
    #: fit_transform, measured (RSS high-water mark): the kept copy, eigh's eigenvectors and
    #: workspace (2 n^2), the projector; 5.2 at n = 2 000 to 3 000, 5.6 at 1 200
    _fit_matrices = _transform_matrices = 6.0

    def __init__(self, centered: bool = False):
        self.centered = centered

    # X is a kernel: cross-validation slices it on both axes
    _always_pairwise = True

    def _rows(self, K_rows) -> np.ndarray:
        check_is_fitted(self, "n_train_")
        R = kernel_rows_input(self, K_rows, self.n_train_, "X")
        return self._center(R) if self.centered else R

    def _center(self, R):
        """Rows centred with the training means (for training rows: J K J)."""
        return R - R.mean(axis=1, keepdims=True) - self.col_mean_[None, :] + self.all_mean_

    def _check_fitted_state(self):
        """The fitted state a model file vouches for (``indefsvm._fitted``): its training
        size, finite arrays of that size, ``centered`` a flag."""
        from .._fitted import require, require_finite

        n = getattr(self, "n_train_", None)
        require(isinstance(n, int) and n > 0, "holds a kernel fix without its training size")
        for name, shape in {"col_mean_": (n,), "projector_": (n, n), "K_fit_": (n, n)}.items():
            value = getattr(self, name, None)
            if value is None:
                continue
            what = f"holds a kernel fix whose {name.strip('_')} is not {shape} of finite numbers"
            require(require_finite(value, what).shape == shape, what)
        require(isinstance(getattr(self, "centered", None), bool),
                "holds a kernel fix whose 'centered' is not True or False")

    @unfitted_on_interrupt
    @sized_by(0, "X", method=True)
    @_fit_context(prefer_skip_nested_validation=True)
    def fit(self, X, y=None):
        """Decompose the training kernel once.

        Parameters
        ----------
        X : array-like of shape (n_train, n_train)
            Symmetric training kernel matrix.
        y : Ignored

        Returns
        -------
        self
        """
        K = kernel_fit_input(self, X, warn_distances=True)
        check_kernel_memory(K.shape[0], self._fit_matrices, f"{type(self).__name__}.fit")
        K = self._prepare(K, copy=K is X)
        lam = U = None
        if self._spectrum == "vectors":
            lam, U = interruptible(np.linalg.eigh, K)  # Ctrl-C at once
        elif self._spectrum == "values":
            lam = np.linalg.eigvalsh(K)
        return self._finish(K, lam, U)

    def _prepare(self, K, copy: bool = True):
        """The training means, and the kernel the fix decomposes (centred when ``centered``;
        a copy, since the caller's array may change after fit, ``K *= 7``, and the
        transforms must not)."""
        self.n_train_ = K.shape[0]
        self.col_mean_ = K.mean(axis=0)
        self.all_mean_ = float(self.col_mean_.mean())
        if self.centered:
            K = self._center(K)
            return (K + K.T) / 2
        return K.copy() if copy else K

    def _finish(self, K, lam, U):
        """The fix from the prepared kernel and its decomposition (``eigh``; ``U`` None
        when the fix needs the values only). :class:`~indefsvm.RemedySearchCV` decomposes
        a fold's kernel once and finishes every fix from it."""
        if self._keeps_kernel:
            self.K_fit_ = K
        else:
            forget(self, "K_fit_")  # (nor a refitted model its last one)
        if lam is not None:
            self.eigenvalues_ = lam
            self.eigenvectors_ = U if self._spectrum == "vectors" else None
            # zero threshold relative to the largest |lambda| (numpy.linalg.matrix_rank's)
            self.tol_ = K.shape[0] * np.finfo(float).eps * max(float(np.abs(lam).max()),
                                                               1e-300)
        self._fit_extra(K, lam, U)
        return self

    def _fit_extra(self, K, lam, U):
        pass

    # the fixed kernel's product under the fit's thread rule: the same bits as a fit inside
    # another estimator's (KreinSVC), whose SVM would otherwise take another path within tol
    @sized_by(0, "X", method=True)
    @_fit_context(prefer_skip_nested_validation=True)
    def fit_transform(self, X, y=None, **fit_params):
        """Fit, then return the fixed training kernel.

        Parameters
        ----------
        X : array-like of shape (n_train, n_train)
        y : Ignored
        **fit_params : dict
            Unused.

        Returns
        -------
        ndarray of shape (n_train, n_train)
        """
        shape = getattr(X, "shape", ())
        if len(shape) == 2 and shape[0] == shape[1]:
            # the fixed kernel too, said before the fit's work
            check_kernel_memory(shape[0], self._transform_matrices,
                                f"{type(self).__name__}.fit_transform")
        return self.fit(X)._fixed_kernel()


def _check_fixed_spectrum(name, values, U, tol):
    """Warn by name when the fixed kernel ``U diag(values) U'`` is zero or constant: an SVM
    on it cannot tell the samples apart and predicts one class."""
    from ..exceptions import DegenerateKernelWarning

    kept = np.flatnonzero(np.abs(values) > tol)
    n = U.shape[0]
    what = None
    if kept.size == 0:
        what = "is zero (every eigenvalue it keeps is 0 after the fix)"
    elif kept.size == 1 and n > 1 and float(U[:, kept[0]].sum()) ** 2 / n > 1.0 - 1e-9:
        what = "is constant (its one direction is the all-ones vector)"
    if what is not None:
        warn(f"{name}: the fixed kernel {what}; an SVM on it predicts one class. "
             "Keep more directions (a larger rank) or choose another remedy.",
             DegenerateKernelWarning, stacklevel=user_stacklevel())


class _EigenFix(_KernelFix):
    """clip / flip: the test transform is ``k U D U'`` with a diagonal D of the fix."""

    _keeps_kernel = False

    def _diag(self, lam):  # pragma: no cover - abstract
        raise NotImplementedError

    def _fit_extra(self, K, lam, U):
        d = self._diag(lam)
        # k U D U' for all rows at once: the projector P = U D U' (symmetric)
        self.projector_ = (U * d) @ U.T
        _check_fixed_spectrum(type(self).__name__, lam * d, U, self.tol_)

    def transform(self, X):
        """Apply the fix consistently to kernel rows k(x, x_train).

        Parameters
        ----------
        X : array-like of shape (n_samples, n_train)
            Kernel values between new samples and the training samples (the training kernel
            itself gives the fixed training kernel).

        Returns
        -------
        ndarray of shape (n_samples, n_train)
        """
        return self._rows(X) @ self.projector_

    def _fixed_kernel(self) -> np.ndarray:
        check_is_fitted(self, "n_train_")
        U, lam = self.eigenvectors_, self.eigenvalues_
        K = (U * (lam * self._diag(lam))) @ U.T
        return (K + K.T) / 2
