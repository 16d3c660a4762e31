"""Spectrum fixes of a precomputed kernel, with the consistent transform of test rows.

With the training kernel ``K = U diag(lam) U'`` (Chen, Garcia, Gupta, Rahimi & Cazzanti, JMLR
2009, section 4; Wu, Chang & Zhang 2005):

* clip:   ``K~ = U max(lam, 0) U'``;  test rows ``k~ = k U P+ U'``, ``P+ = diag(lam > 0)``
* flip:   ``K~ = U |lam| U'``;        test rows ``k~ = k U sign(lam) U'``
* shift:  ``K~ = K + |lam_min| I``;   test rows unchanged (the shift acts on the training
  diagonal only)
* square: ``K~ = K K``;               test rows ``k~ = k K``
* advanced shift (Muench et al. 2020): ``K~ = U_k diag(lam_k + |lam_min|) U_k'`` on the
  ``k`` directions of largest ``|lam|``; test rows ``k U_k diag((lam_k + |lam_min|) /
  lam_k) U_k'``

``centered=True`` first centres the kernel with the training means,
``Kc = J K J`` with ``J = I - ee'/n``, and test rows with
``kc(x, x_i) = k(x, x_i) - mean_j k(x, x_j) - mean_j K_ji + mean_jl K_jl``
(Haasdonk 2005, section 7.5: CNE cuts off and RNE reflects the negative eigenvalues of the
centred kernel). The transform of a training row then gives the row of the fixed training
kernel exactly: ``transform(K_train) == fit_transform(K_train)`` (except for shift, which by
design changes the training diagonal only).
"""

from __future__ import annotations

import numbers
import warnings

import numpy as np
from sklearn.base import BaseEstimator, TransformerMixin, _fit_context
from sklearn.utils._param_validation import Interval, StrOptions
from sklearn.utils.validation import check_is_fitted

from .._interrupt import interruptible, unfitted_on_interrupt
from .._tags import PairwiseInput
from .._threads import sized_by
from .._validation import kernel_fit_input, kernel_rows_input, user_stacklevel

__all__ = ["AdvancedShiftEigenvalues", "ClipEigenvalues", "FlipEigenvalues", "ShiftEigenvalues",
           "SquareKernel"]


class _KernelFix(PairwiseInput, TransformerMixin, BaseEstimator):
    """Shared: input checks, centring, the eigendecomposition, the pairwise tag."""

    #: what fit decomposes: "vectors" (eigh), "values" (eigvalsh) or None
    #: scikit-learn's declaration of the parameters, checked by fit (_fit_context); the
    #: ranges and the finer rules are checked after it, in messages that name the fix
    _parameter_constraints: dict = {"centered": ["boolean"]}

    _spectrum = "vectors"

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
        self.K_fit_ = K
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
        warnings.warn(f"{name}: the fixed kernel {what}; an SVM on it predicts one class. "
                      "Keep more directions (a larger rank) or choose another remedy.",
                      DegenerateKernelWarning, stacklevel=user_stacklevel())


class _EigenFix(_KernelFix):
    """clip / flip: the test transform is ``k U D U'`` with a diagonal D of the fix."""

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


class ClipEigenvalues(_EigenFix):
    """Clip the negative eigenvalues of a precomputed kernel to 0 (spectrum clip; CNE when
    ``centered=True``), with the consistent transform of test rows.

    ``K~ = U max(lam, 0) U'`` and test rows ``k U P+ U'`` with ``P+ = diag(lam > tol)``
    (Chen et al., JMLR 2009, section 4.1); ``tol = n eps max|lam|``.

    Parameters
    ----------
    centered : bool, default=False
        Centre the kernel with the training means first (Haasdonk 2005, §7.5, "CNE").

    Attributes
    ----------
    eigenvalues_, eigenvectors_ : ndarray
        Of the (centred) training kernel.
    projector_ : ndarray of shape (n_train, n_train)
        ``U P+ U'``.
    n_train_ : int
    tol_ : float

    Examples
    --------
    >>> import numpy as np
    >>> from indefsvm.remedies import ClipEigenvalues
    >>> K = np.array([[2.0, 1.0, 0.0], [1.0, 2.0, 3.0], [0.0, 3.0, 2.0]])  # -1.16, 2, 5.16
    >>> ClipEigenvalues().fit_transform(K).round(3)
    array([[2.058, 0.816, 0.174],
           [0.816, 2.581, 2.449],
           [0.174, 2.449, 2.523]])
    """

    def _diag(self, lam):
        return (lam > self.tol_).astype(np.float64)


class FlipEigenvalues(_EigenFix):
    """Flip the sign of the negative eigenvalues of a precomputed kernel (spectrum flip; RNE
    when ``centered=True``), with the consistent transform of test rows.

    ``K~ = U |lam| U'`` and test rows ``k U sign(lam) U'`` (Chen et al., JMLR 2009, section
    4.2; eigenvalues within ``tol = n eps max|lam|`` of 0 count as positive).

    Parameters
    ----------
    centered : bool, default=False
        Centre the kernel with the training means first (Haasdonk 2005, §7.5, "RNE").

    Attributes
    ----------
    eigenvalues_, eigenvectors_ : ndarray
    projector_ : ndarray of shape (n_train, n_train)
        ``U sign(lam) U'``.
    n_train_ : int
    tol_ : float

    Examples
    --------
    >>> import numpy as np
    >>> from indefsvm.remedies import FlipEigenvalues
    >>> K = np.array([[1.0, 2.0], [2.0, 1.0]])          # eigenvalues 3 and -1
    >>> FlipEigenvalues().fit_transform(K)
    array([[2., 1.],
           [1., 2.]])
    """

    def _diag(self, lam):
        return np.where(lam < -self.tol_, -1.0, 1.0)


class ShiftEigenvalues(_KernelFix):
    """Shift the spectrum of a precomputed kernel: ``K + |lam_min| I`` on the training
    diagonal; test rows are unchanged (Chen et al., JMLR 2009, section 4.3).

    ``fit_transform(K)`` is the shifted training kernel; ``transform(rows)`` returns the rows
    as they are (so ``transform(K_train) != fit_transform(K_train)``: by design the shift
    touches the training diagonal only).

    Parameters
    ----------
    centered : bool, default=False
        Centre with the training means first (rows are then centred too).

    Attributes
    ----------
    shift_ : float
        ``max(0, -lam_min)``.
    eigenvalues_ : ndarray
        Of the (centred) training kernel (no eigenvectors are computed).
    n_train_, tol_ : int, float

    Examples
    --------
    >>> import numpy as np
    >>> from indefsvm.remedies import ShiftEigenvalues
    >>> ShiftEigenvalues().fit_transform(np.array([[1.0, 2.0], [2.0, 1.0]]))
    array([[2., 2.],
           [2., 2.]])
    """

    _spectrum = "values"

    def _fit_extra(self, K, lam, U):
        self.shift_ = float(max(0.0, -lam[0]))

    def transform(self, X):
        """Test rows: unchanged (centred with the training means if ``centered``).

        Parameters
        ----------
        X : array-like of shape (n_samples, n_train)

        Returns
        -------
        ndarray of shape (n_samples, n_train)
        """
        return self._rows(X)

    def _fixed_kernel(self) -> np.ndarray:
        check_is_fitted(self, "n_train_")
        return self.K_fit_ + self.shift_ * np.eye(self.n_train_)


class AdvancedShiftEigenvalues(_EigenFix):
    """The advanced shift: a low-rank approximation, then the shift applied to the kept
    directions only (Muench, Raab, Biehl & Schleif 2020), with the consistent transform of
    test rows.

    With ``K = U diag(lam) U'``, keep the ``k`` directions of largest ``|lam|`` and shift
    them by ``s = max(0, -lam_min)``:

        ``K~ = U_k diag(lam_k + s) U_k'``,  test rows ``k~ = k U_k diag((lam_k + s) / lam_k)
        U_k'``.

    The plain shift (:class:`ShiftEigenvalues`) lifts every eigenvalue by ``|lam_min|``,
    the many near zero included, so that noise gains the weight of the most negative
    direction; here the discarded directions (the null space of the approximation) stay at
    zero and the order of the kept eigenvalues is preserved, which flip does not do. The
    training rows transform to the fixed training kernel exactly.

    Parameters
    ----------
    rank : "auto", int or float, default="auto"
        ``"auto"``: the directions with ``|lam| > |lam_min|``, those above the level of the
        most negative eigenvalue, below which the spectrum cannot be told apart from the
        indefiniteness (all of them when ``K`` is PSD). When no positive eigenvalue lies
        above that level (the most negative eigenvalue is also the largest in size, as for
        many sigmoid kernels) those would be the most negative direction alone, shifted to
        0: "auto" then keeps every direction down to the smallest positive eigenvalue, so
        the fixed kernel is never zero. An integer: that many directions.
        A float in (0, 1]: the fewest directions (of largest ``|lam|``) holding that share
        of ``sum |lam|``.
    centered : bool, default=False
        Centre with the training means first.

    Attributes
    ----------
    eigenvalues_, eigenvectors_ : ndarray
        Of the (centred) training kernel.
    rank_ : int
        Directions kept.
    shift_ : float
        ``s``.
    projector_ : ndarray of shape (n_train, n_train)
        ``U_k diag((lam_k + s) / lam_k) U_k'``.
    n_train_ : int
    tol_ : float
        ``n eps max|lam|``: eigenvalues within it of 0 are never kept.

    References
    ----------
    M. Muench, C. Raab, M. Biehl & F.-M. Schleif (2020), Structure preserving encoding of
    non-euclidean similarity data, ICPRAM, the advanced shift (a low-rank approximated
    null-space correction of the shift).

    Examples
    --------
    >>> import numpy as np
    >>> from indefsvm.remedies import AdvancedShiftEigenvalues
    >>> K = np.diag([3.0, 0.5, -1.0])
    >>> AdvancedShiftEigenvalues(rank=2).fit_transform(K)   # keeps 3 and -1, shifts by 1
    array([[4., 0., 0.],
           [0., 0., 0.],
           [0., 0., 0.]])
    """

    #: scikit-learn's declaration of the parameters, checked by fit (_fit_context); the
    #: ranges and the finer rules are checked after it, in messages that name the fix
    _parameter_constraints: dict = {"rank": [StrOptions({"auto"}),
                                             Interval(numbers.Real, 0, None, closed="neither")],
                                    "centered": ["boolean"]}

    def __init__(self, rank="auto", centered: bool = False):
        self.rank = rank
        self.centered = centered

    @staticmethod
    def _shift_of(lam):
        """``s = max(0, -lam_min)``."""
        return float(max(0.0, -lam.min()))

    def _diag(self, lam):
        # the test transform's D = (lam + s) / lam on the kept directions, 0 elsewhere; the
        # fixed training kernel U diag(lam D) U' is then U_k diag(lam_k + s) U_k'
        r = self.rank
        n = lam.shape[0]
        auto = isinstance(r, str) and r == "auto"
        if not auto and (isinstance(r, (bool, np.bool_)) or isinstance(r, str)
                         or not isinstance(r, (int, float, np.number)) or not np.isfinite(r)
                         or r <= 0):
            raise ValueError(f"rank must be 'auto', an integer >= 1 or a share in (0, 1]; "
                             f"got {r!r}.")
        order = np.argsort(-np.abs(lam), kind="stable")
        mag = np.abs(lam[order])
        usable = int(np.count_nonzero(mag > self.tol_))
        if auto:
            floor = max(-float(lam[0]), self.tol_)
            k = int(np.count_nonzero(mag > floor))
            if not np.any(lam[order[:k]] + self._shift_of(lam) > self.tol_):
                # nothing positive above |lam_min| (the most negative eigenvalue is also the
                # largest in size, as for many sigmoid kernels): the directions above the
                # level would be that one alone, shifted to 0 -- a zero kernel. Keep the
                # positive part of the spectrum instead, and the most negative direction
                # (which the shift takes to 0).
                pos = lam[order] > self.tol_
                k = int(np.flatnonzero(pos).max()) + 1 if pos.any() else k
        elif isinstance(r, (int, np.integer)):
            k = int(r)
        elif r <= 1:
            share = np.cumsum(mag) / max(float(mag.sum()), 1e-300)
            k = int(np.searchsorted(share, float(r) - 1e-12)) + 1
        else:
            raise ValueError(f"rank must be 'auto', an integer >= 1 or a share in (0, 1]; "
                             f"got {r!r}.")
        keep = order[:max(1, min(k, usable, n))]
        self.rank_ = int(keep.size)
        # the shift of the whole spectrum (Muench et al. estimate lam_min by a von Mises
        # iteration), applied to the kept directions only
        self.shift_ = self._shift_of(lam)
        d = np.zeros_like(lam)
        d[keep] = (lam[keep] + self.shift_) / lam[keep]
        return d


class SquareKernel(_KernelFix):
    """Replace the kernel by its square ``K K`` (PSD by construction), test rows by ``k K``
    (Chen et al., JMLR 2009, section 4.4: the kernel as features).

    Parameters
    ----------
    centered : bool, default=False
        Centre with the training means first.

    Attributes
    ----------
    n_train_ : int

    Examples
    --------
    >>> import numpy as np
    >>> from indefsvm.remedies import SquareKernel
    >>> SquareKernel().fit_transform(np.array([[1.0, 2.0], [2.0, 1.0]]))
    array([[5., 4.],
           [4., 5.]])
    """

    _spectrum = None

    def _fit_extra(self, K, lam, U):
        big = float(np.abs(K).max()) if K.size else 0.0
        if not np.isfinite(big * big * K.shape[0]):
            raise ValueError(f"SquareKernel: K K would overflow (the largest |K_ij| is "
                             f"{big:.3g}, n = {K.shape[0]}); scale the kernel down first "
                             "(e.g. K / abs(K).max()).")

    def transform(self, X):
        """Test rows ``k K`` (centred first if ``centered``).

        Parameters
        ----------
        X : array-like of shape (n_samples, n_train)

        Returns
        -------
        ndarray of shape (n_samples, n_train)
        """
        return self._rows(X) @ self.K_fit_

    def _fixed_kernel(self) -> np.ndarray:
        check_is_fitted(self, "n_train_")
        K = self.K_fit_ @ self.K_fit_
        return (K + K.T) / 2
