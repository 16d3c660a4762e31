"""Kernel functions, PSD and not, and :func:`kernel_matrix`.

Every function takes ``X`` of shape (n, d) and optionally ``Y`` of shape (m, d) and returns the
(n, m) matrix ``k(x_i, y_j)`` (``Y=None`` means ``Y = X``). Parameters follow scikit-learn's
names: ``gamma`` (``a`` in Lin & Lin's sigmoid tanh(a x'x + r)), ``coef0`` (``r``), ``degree``.
``gamma=None`` means ``1 / n_features``.

=======================  ==============================================  ===============
name                     k(x, x')                                        PSD?
=======================  ==============================================  ===============
linear                   x'x                                             yes
polynomial               (gamma x'x + coef0)^degree                      yes if coef0>=0
rbf                      exp(-gamma ||x - x'||^2)                        yes
sigmoid                  tanh(gamma x'x + coef0)                         in general no
l1_gaussian              exp(-gamma ||x - x'||_1^2)                      no (Haasdonk 2005, §7.5)
sqrt_l1_exponential      exp(-gamma sqrt(||x - x'||_1)), gamma=1/2s^2    yes (the SVM lecture notes)
symmetric_kl             exp(-gamma [D(x||x') + D(x'||x)])               not known
pseudo_euclidean         x' M x', M = diag(1_p, -1_q)                     no if q > 0
=======================  ==============================================  ===============

``exp(-sqrt(||x - x'||_1) / 2 sigma^2)`` is PSD because the square root of the L1 distance is a
conditionally negative definite function; the other claims are checked by
:func:`indefsvm.check_kernel` rather than taken on trust.
"""

from __future__ import annotations

import inspect
import numbers
from collections.abc import Callable

import numpy as np
import scipy.sparse as sp
from scipy.spatial.distance import cdist

from ._kernel_params import ALIASES, DISTANCE_HINT, KERNEL_TAKES, _check_p, _check_rho
from ._validation import (
    SCALERS,
    check_finite_array,
    check_finite_csr,
    check_memory,
    dense_rows_are_better,
    objects_of_a_callable,
)
from .exceptions import ParameterError, Setting

__all__ = [
    "KERNELS",
    "kernel_matrix",
    "l1_gaussian",
    "linear",
    "polynomial",
    "pseudo_euclidean",
    "rbf",
    "resolve_kernel_params",
    "sigmoid",
    "sqrt_l1_exponential",
    "symmetric_kl",
    "tl1",
]


def _prepare(X, Y, *, sparse: bool = False):
    """X and Y (``None``: X) checked; with ``sparse``, a sparse input stays CSR (the
    dot-product kernels and rbf read its stored values only, as LIBSVM does) unless it is
    small and not very sparse (``dense_rows_are_better``: then made dense, and the kernel
    equals the dense input's to the last bit); without, sparse inputs are made dense."""
    def checked(A, name):
        if sparse and sp.issparse(A) and not dense_rows_are_better(A):
            return check_finite_csr(A, name)
        return check_finite_array(A, name)

    X = checked(X, "X")
    if Y is None:
        return X, X
    Y = checked(Y, "Y")
    if Y.shape[1] != X.shape[1]:
        raise ValueError(
            f"X has {X.shape[1]} features but Y has {Y.shape[1]}; they must have the same number."
        )
    return X, Y


def _dots(X, Y) -> np.ndarray:
    """X Y' as a dense array (a sparse product when either is CSR; exactly symmetric when
    Y is X, as the dense product is)."""
    if sp.issparse(X) and sp.issparse(Y):
        X, Y = (_used_columns(X, Y),) * 2 if Y is X else (_used_columns(X, Y),
                                                          _used_columns(Y, Y))
    if sp.issparse(X) or sp.issparse(Y):
        D = X @ Y.T
        D = D.toarray() if sp.issparse(D) else np.asarray(D)
        if Y is X:
            D += D.T
            D *= 0.5
        return D
    return X @ Y.T


#: the kernels computed from CSR inputs as they are (their stored values only)
SPARSE_INPUT_KERNELS = ("linear", "polynomial", "rbf", "sigmoid")


def _used_columns(X, Y):
    """CSR X restricted to the columns Y stores, renumbered 0 ... k-1 (X Y' is unchanged):
    scipy's sparse product converts a transposed factor with one pointer per column, which
    for a million-word vocabulary would cost more than the product itself."""
    cols = np.unique(Y.indices)
    pos = np.minimum(np.searchsorted(cols, X.indices), max(cols.size - 1, 0))
    keep = cols[pos] == X.indices if cols.size else np.zeros(X.indices.shape, dtype=bool)
    rows = np.repeat(np.arange(X.shape[0]), np.diff(X.indptr))
    indptr = np.zeros(X.shape[0] + 1, dtype=np.int64)
    np.cumsum(np.bincount(rows[keep], minlength=X.shape[0]), out=indptr[1:])
    return sp.csr_matrix((X.data[keep], pos[keep], indptr), shape=(X.shape[0], max(cols.size,
                                                                                    1)))


def _sq_norms(X) -> np.ndarray:
    return (np.asarray(X.multiply(X).sum(axis=1)).ravel() if sp.issparse(X)
            else np.einsum("ij,ij->i", X, X))


def _gamma(gamma, X) -> float:
    if gamma is None:
        return 1.0 / X.shape[1]
    if not isinstance(gamma, (str, bytes, bool, np.bool_)) and np.ndim(gamma) == 0:
        try:
            g = float(gamma)
        except (TypeError, ValueError):
            pass
        else:
            if np.isfinite(g):
                return g
            # inf or NaN: a kernel of NaN entries (0 * inf on the diagonal), not a number
            raise ParameterError(f"must be a finite number; got {gamma!r}.", "gamma")
    # 'scale' and 'auto' are the estimators' rules, resolved before a kernel is computed
    hint = (f" ({gamma!r} is the estimators' rule: resolve_kernel_params(kernel, X, "
            f"gamma={gamma!r}) gives its number)"
            if isinstance(gamma, str) and gamma in ("scale", "auto") else "")
    shown = (f"an array of shape {gamma.shape}" if isinstance(gamma, np.ndarray)
             and gamma.ndim else repr(gamma))
    raise ParameterError(f"must be a number (None: 1 / n_features); got {shown}{hint}.",
                         "gamma")


def _coef0(coef0) -> float:
    """The shift of the sigmoid and the polynomial: a finite real number."""
    if isinstance(coef0, (bool, np.bool_)) or not isinstance(coef0, numbers.Real) \
            or not np.isfinite(coef0):
        raise ParameterError(f"must be a finite number; got {coef0!r}.", "coef0")
    return float(coef0)


def _scale_gamma(gamma, X, name: str) -> float:
    """gamma of a kernel exp(-gamma d): >= 0, since a negative one makes it grow with the
    distance d (the sigmoid's negative slope is another matter: Lin & Lin 2003, Table 1)."""
    g = _gamma(gamma, X)
    if not g >= 0:
        raise ParameterError(f"must be >= 0 for the {name} kernel (exp(-gamma d) with gamma "
                             f"< 0 grows with the distance d); got gamma={gamma!r}.", "gamma")
    return g


def _largest(A) -> float:
    """max |A| of a dense, sparse or dask array (0 when empty)."""
    if hasattr(A, "dask"):
        return float(abs(A).max().compute()) if A.size else 0.0
    return float(np.abs(A.data if sp.issparse(A) else A).max()) if A.size else 0.0


def _check_squares(X, Y, name: str) -> None:
    """Refuse features whose products overflow float64 (``d max|x|^2`` beyond its largest
    number): the kernels of ``x'y`` or ``|x - y|^2`` would be inf or NaN, or -- through
    ``gamma="scale"``, whose variance overflows too -- silently constant."""
    tops = [_largest(A) for A in ((X,) if Y is X else (X, Y))]
    top = max(tops)
    if top > 0 and 2.0 * np.log10(top) + np.log10(max(X.shape[1], 1)) > np.log10(
            np.finfo(np.float64).max / 4):
        raise ParameterError(f"{'X' if tops[0] == top else 'Y'} has values up to {top:.3g}: "
                         f"the {name} kernel multiplies features, and their products overflow "
                         "float64 (its values would be inf or NaN). Scale the features first "
                         "({scale}).", "X", "", SCALERS)


def _check_tiny(X, Y, name: str, gamma: float | None = None) -> None:
    """Refuse features whose every value is below 1e-150: their products underflow float64,
    and the kernel came out 0 (x'y), or constant, without a word. For ``exp(-gamma d^2)``
    (``gamma`` given) only where ``gamma d^2`` could reach float64's resolution: below it the
    kernel is 1 to the last digit, and that is its value."""
    top = max(_largest(A) for A in ((X,) if Y is X else (X, Y)))
    if not 0.0 < top < 1e-150:
        return
    if gamma is not None and (gamma <= 0 or np.log10(gamma) + 2.0 * np.log10(2.0 * top) < -16):
        return
    raise ParameterError(f"{'X has' if Y is X else 'X and Y have'} values of at most {top:.3g}: "
                     f"the {name} kernel multiplies features, and their products underflow "
                     "float64 (its values would be 0 or lose their digits). Scale the "
                     "features first ({scale}).", "X", "", SCALERS)


def _finite(K: np.ndarray, name: str, params: str) -> np.ndarray:
    if not np.all(np.isfinite(K)):
        raise ValueError(f"The {name} kernel ({params}) has values that are not finite on "
                         "these inputs (an overflow); scale X or change the parameters.")
    return K


def linear(X, Y=None) -> np.ndarray:
    """Linear kernel ``x'y``.

    Parameters
    ----------
    X : array-like of shape (n_samples_X, n_features)
        Samples (dense or CSR).
    Y : array-like of shape (n_samples_Y, n_features), optional
        ``None`` means ``X``.

    Returns
    -------
    ndarray of shape (n_samples_X, n_samples_Y)

    Examples
    --------
    >>> import numpy as np
    >>> from indefsvm.kernels import linear
    >>> linear(np.array([[1.0, 2.0]]), np.array([[3.0, 4.0]]))
    array([[11.]])
    """
    X, Y = _prepare(X, Y, sparse=True)
    _check_squares(X, Y, "linear")
    _check_tiny(X, Y, "linear")
    with np.errstate(over="ignore", invalid="ignore"):
        return _finite(_dots(X, Y), "linear", "x'y")


def polynomial(X, Y=None, *, degree: int = 3, gamma: float | None = None,
               coef0: float = 1.0) -> np.ndarray:
    """Polynomial kernel ``(gamma x'y + coef0) ** degree``.

    Parameters
    ----------
    X, Y : array-like
        See :func:`linear`.
    degree : int, default=3
        The polynomial's degree.
    gamma : float, optional
        ``None`` means ``1 / n_features``.
    coef0 : float, default=1.0
        The polynomial's constant (1 here, as scikit-learn's ``polynomial_kernel``; the estimators'
        default ``coef0`` is 0, as ``SVC``'s).

    Returns
    -------
    ndarray of shape (n_samples_X, n_samples_Y)

    Examples
    --------
    >>> import numpy as np
    >>> from indefsvm.kernels import polynomial
    >>> polynomial(np.array([[1.0, 1.0]]), degree=2, gamma=1.0, coef0=1.0)
    array([[9.]])
    """
    X, Y = _prepare(X, Y, sparse=True)
    _check_squares(X, Y, "polynomial")
    _check_tiny(X, Y, "polynomial")
    if isinstance(degree, bool) or not isinstance(degree, (int, float, np.number)) \
            or not np.isfinite(degree) or degree != int(degree) or not 0 <= degree <= 2**31 - 1:
        # (the bound of the compiled kernels, which hold it in a C int)
        raise ParameterError(f"must be a whole number from 0 to {2**31 - 1}; got "
                             f"{degree!r}.", "degree")
    with np.errstate(over="ignore", invalid="ignore"):
        # in place, the operations of (gamma x'y + coef0) ** degree in their order: one
        # n_X x n_Y matrix at the peak, not three (the size check_memory estimates)
        K = _dots(X, Y)
        K *= _gamma(gamma, X)
        K += _coef0(coef0)
        K **= int(degree)
    return _finite(K, "polynomial", f"degree={degree}, gamma={gamma}, coef0={coef0}")


def rbf(X, Y=None, *, gamma: float | None = None) -> np.ndarray:
    """Gaussian kernel ``exp(-gamma ||x - y||^2)``.

    Parameters
    ----------
    X, Y : array-like
        See :func:`linear`.
    gamma : float, optional
        ``None`` means ``1 / n_features``.

    Returns
    -------
    ndarray of shape (n_samples_X, n_samples_Y)

    Examples
    --------
    >>> import numpy as np
    >>> from indefsvm.kernels import rbf
    >>> round(float(rbf(np.array([[0.0]]), np.array([[1.0]]), gamma=1.0)[0, 0]), 12)  # exp(-1)
    0.367879441171
    """
    X, Y = _prepare(X, Y, sparse=True)
    _check_squares(X, Y, "rbf")
    g = _scale_gamma(gamma, X, "rbf")
    _check_tiny(X, Y, "rbf", g)
    if sp.issparse(X) or sp.issparse(Y):
        # |x|^2 + |y|^2 - 2 x'y from the stored values (LIBSVM's and the compiled solver's
        # formula for sparse rows), clipped at 0 against rounding; 0 on the diagonal of K(X)
        dots = _dots(X, Y)
        dots *= 2.0
        d2 = np.add(_sq_norms(X)[:, None], _sq_norms(Y)[None, :])
        d2 -= dots
        del dots
        np.maximum(d2, 0.0, out=d2)
        if Y is X:
            np.fill_diagonal(d2, 0.0)
    else:
        d2 = cdist(X, Y, "sqeuclidean")
    # exp(-gamma d^2) in place: one matrix at the peak, not three. A product past float64
    # is -inf, whose exp, 0, is the kernel's value (a huge gamma): no overflow to report
    with np.errstate(over="ignore"):
        d2 *= -g
    return np.exp(d2, out=d2)


def sigmoid(X, Y=None, *, gamma: float | None = None, coef0: float = 1.0) -> np.ndarray:
    """Sigmoid kernel ``tanh(a x'y + r)`` with ``a = gamma`` and ``r = coef0``.

    Not PSD in general. Lin & Lin (2003, §3) show it is conditionally positive definite for
    ``a > 0`` and ``r`` small enough (Thm 4), and advise ``a > 0, r < 0``.

    Parameters
    ----------
    X, Y : array-like
        See :func:`linear`.
    gamma : float, optional
        The slope ``a``; ``None`` means ``1 / n_features``.
    coef0 : float, default=1.0
        The shift ``r``.

    Returns
    -------
    ndarray of shape (n_samples_X, n_samples_Y)

    Examples
    --------
    >>> import numpy as np
    >>> from indefsvm.kernels import sigmoid
    >>> sigmoid(np.array([[1.0]]), gamma=1.0, coef0=-1.0)
    array([[0.]])
    """
    X, Y = _prepare(X, Y, sparse=True)
    _check_squares(X, Y, "sigmoid")
    _check_tiny(X, Y, "sigmoid")
    K = _dots(X, Y)  # tanh(a x'y + r) in place: one matrix at the peak, not three
    K *= _gamma(gamma, X)
    K += _coef0(coef0)
    return np.tanh(K, out=K)


def l1_gaussian(X, Y=None, *, gamma: float | None = None) -> np.ndarray:
    """"Gaussian" of the L1 distance, ``exp(-gamma ||x - y||_1^2)`` (Haasdonk 2005, §7.5).

    Not PSD in general (for d >= 2): Haasdonk's Fig. 4 example of an indefinite kernel.

    Parameters
    ----------
    X, Y : array-like
        See :func:`linear`.
    gamma : float, optional
        ``None`` means ``1 / n_features``.

    Returns
    -------
    ndarray of shape (n_samples_X, n_samples_Y)

    Examples
    --------
    >>> import numpy as np
    >>> from indefsvm.kernels import l1_gaussian
    >>> K = l1_gaussian(np.array([[0.0, 0.0]]), np.array([[1.0, 1.0]]), gamma=0.25)
    >>> round(float(K[0, 0]), 12)  # exp(-1)
    0.367879441171
    """
    X, Y = _prepare(X, Y)
    d1 = cdist(X, Y, "cityblock")
    # gamma d first, then times d: overflow only where gamma d^2 > 1.8e308, whose kernel
    # value is exactly 0 in float64 (exp(-inf)), so the overflow is not worth a warning
    g = _scale_gamma(gamma, X, "l1_gaussian")
    # in place, a block of rows at a time (at most 2^20 values, at most an eighth): the
    # n_X x n_Y distances and one block at the peak, not three more matrices
    step = max(1, min(2**20 // max(d1.shape[1], 1), -(-d1.shape[0] // 8)))
    with np.errstate(over="ignore"):
        for i in range(0, d1.shape[0], step):
            rows = d1[i:i + step]
            t = g * rows
            t *= rows
            np.negative(t, out=t)
            np.exp(t, out=rows)
    return d1


def _gamma_sigma(gamma, sigma, X) -> float:
    if sigma is not None:
        if gamma is not None:
            raise ValueError("Give gamma or sigma, not both (gamma = 1 / (2 sigma^2)).")
        if isinstance(sigma, (bool, np.bool_)) or not isinstance(sigma, numbers.Real) \
                or not 0 < sigma < np.inf:
            raise ParameterError(f"must be a finite number > 0; got {sigma!r}.", "sigma")
        return 1.0 / (2.0 * float(sigma) ** 2)
    return _scale_gamma(gamma, X, "exponential")


def sqrt_l1_exponential(X, Y=None, *, gamma: float | None = None,
                        sigma: float | None = None) -> np.ndarray:
    """``exp(-sqrt(||x - y||_1) / (2 sigma^2))``, the kernel K_v of the SVM lecture notes.

    Parameters
    ----------
    X, Y : array-like
        See :func:`linear`.
    gamma : float, optional
        ``1 / (2 sigma^2)``; ``None`` (and no ``sigma``) means ``1 / n_features``.
    sigma : float, optional
        Alternative to ``gamma``.

    Returns
    -------
    ndarray of shape (n_samples_X, n_samples_Y)

    Examples
    --------
    >>> import numpy as np
    >>> from indefsvm.kernels import sqrt_l1_exponential
    >>> K = sqrt_l1_exponential(np.array([[0.0]]), np.array([[4.0]]), sigma=1.0)
    >>> round(float(K[0, 0]), 12)  # exp(-1)
    0.367879441171
    """
    X, Y = _prepare(X, Y)
    g = _gamma_sigma(gamma, sigma, X)
    K = cdist(X, Y, "cityblock")  # in place: one matrix at the peak
    np.sqrt(K, out=K)
    with np.errstate(over="ignore"):  # -inf past float64: exp gives the kernel's 0
        K *= -g
    return np.exp(K, out=K)


def symmetric_kl(X, Y=None, *, gamma: float | None = None,
                 sigma: float | None = None) -> np.ndarray:
    """Entropic kernel ``exp(-[D(x||y) + D(y||x)] / (2 sigma^2))`` of the SVM lecture notes.

    ``D(x||y) + D(y||x) = sum_k (x_k - y_k)(log x_k - log y_k)``; inputs must be strictly
    positive (typically probability vectors, e.g. histograms with a pseudo-count).

    Parameters
    ----------
    X, Y : array-like, entries > 0
        See :func:`linear`.
    gamma : float, optional
        ``1 / (2 sigma^2)``; ``None`` (and no ``sigma``) means ``1 / n_features``.
    sigma : float, optional
        Alternative to ``gamma``.

    Returns
    -------
    ndarray of shape (n_samples_X, n_samples_Y)

    Examples
    --------
    >>> import numpy as np
    >>> from indefsvm.kernels import symmetric_kl
    >>> P = np.array([[0.5, 0.5], [0.9, 0.1]])
    >>> np.round(symmetric_kl(P, gamma=1.0), 4)
    array([[1.    , 0.4152],
           [0.4152, 1.    ]])
    """
    X, Y = _prepare(X, Y)
    for name, A in (("X", X), ("Y", Y)):
        if np.any(A <= 0):
            raise ValueError(
                f"symmetric_kl needs strictly positive inputs; {name} has entries <= 0 "
                "(add a small pseudo-count and renormalise)."
            )
    g = _gamma_sigma(gamma, sigma, X)
    lx, ly = np.log(X), np.log(Y)
    # sum_k (x - y)(log x - log y) = x.lx + y.ly - x.ly - y.lx
    # the sums of the divergence in their order, in place: two matrices at the peak
    div = np.add(np.einsum("ij,ij->i", X, lx)[:, None], np.einsum("ij,ij->i", Y, ly)[None, :])
    div -= X @ ly.T
    div -= lx @ Y.T
    np.maximum(div, 0.0, out=div)
    with np.errstate(over="ignore"):  # -inf past float64: exp gives the kernel's 0
        div *= -g
    return np.exp(div, out=div)


def pseudo_euclidean(X, Y=None, *, p: int | None = None) -> np.ndarray:
    """Pseudo-Euclidean inner product ``x' M y`` with ``M = diag(1_p, -1_q)``.

    The first ``p`` coordinates are "real", the remaining ``q = n_features - p`` "imaginary"
    (Haasdonk 2005, §3). ``x1 y1 - x2 y2`` on R^(1,1) is ``p=1`` with two features.

    Parameters
    ----------
    X, Y : array-like
        See :func:`linear`.
    p : int
        Number of positive coordinates, ``0 <= p <= n_features`` (required).

    Returns
    -------
    ndarray of shape (n_samples_X, n_samples_Y)

    Examples
    --------
    >>> import numpy as np
    >>> from indefsvm.kernels import pseudo_euclidean
    >>> pseudo_euclidean(np.array([[1.0, 2.0]]), np.array([[3.0, 4.0]]), p=1)
    array([[-5.]])
    """
    X, Y = _prepare(X, Y)
    _check_squares(X, Y, "pseudo_euclidean")
    _check_tiny(X, Y, "pseudo_euclidean")
    _check_p(p, X.shape[1])
    p = int(p)
    if not 0 <= p <= X.shape[1]:
        raise ParameterError(f"must be between 0 and n_features={X.shape[1]}; got {p}.", "p")
    signs = np.ones(X.shape[1])
    signs[p:] = -1.0
    return (X * signs) @ Y.T


def tl1(X, Y=None, *, rho: float | None = None) -> np.ndarray:
    """The truncated L1 kernel ``max(rho - ||x - y||_1, 0)`` (Huang, Suykens, Wang, Hornegger
    & Maier 2018).

    Indefinite in general, piecewise linear and local: pairs farther apart than ``rho`` in
    the L1 distance get 0, so an SVM on it behaves like a local linear classifier. Huang et
    al. found it competitive with the tuned Gaussian kernel with ``rho`` fixed at ``0.7 d``
    (``d`` features, data scaled to [0, 1]), which needs no tuning of a kernel parameter.

    Parameters
    ----------
    X, Y : array-like
        See :func:`linear`.
    rho : float, optional
        The truncation radius, ``> 0``; ``None`` means ``0.7 * n_features`` (Huang et al.'s
        default).

    Returns
    -------
    ndarray of shape (n_samples_X, n_samples_Y)

    References
    ----------
    X. Huang, J. A. K. Suykens, S. Wang, J. Hornegger & A. Maier (2018), Classification with
    truncated l1 distance kernel, IEEE Trans. Neural Netw. Learn. Syst. 29(5).

    Examples
    --------
    >>> import numpy as np
    >>> from indefsvm.kernels import tl1
    >>> tl1(np.array([[0.0, 0.0]]), np.array([[0.5, 0.25], [1.0, 1.0]]), rho=1.0)
    array([[0.25, 0.  ]])
    """
    X, Y = _prepare(X, Y)
    _check_rho(rho)
    r = 0.7 * X.shape[1] if rho is None else rho
    K = cdist(X, Y, "cityblock")  # max(rho - d, 0) in place
    np.subtract(float(r), K, out=K)
    return np.maximum(K, 0.0, out=K)


#: name -> (function, parameters it takes)
KERNELS: dict[str, tuple[Callable[..., np.ndarray], tuple[str, ...]]] = {
    name: (function, KERNEL_TAKES[name]) for name, function in (
        ("linear", linear), ("polynomial", polynomial), ("rbf", rbf), ("sigmoid", sigmoid),
        ("l1_gaussian", l1_gaussian), ("sqrt_l1_exponential", sqrt_l1_exponential),
        ("symmetric_kl", symmetric_kl), ("pseudo_euclidean", pseudo_euclidean), ("tl1", tl1))}
_ALIASES = ALIASES

# kernels exp(-gamma d) of a distance d: gamma >= 0 (the sigmoid's slope may be negative)
_DISTANCE_GAMMA = ("rbf", "l1_gaussian", "sqrt_l1_exponential", "symmetric_kl")

# codes of the kernels the compiled solver evaluates itself (see _solvers/_kernels.pxd)
_COMPILED_KIND = {
    "precomputed": 0,
    "linear": 1,
    "polynomial": 2,
    "rbf": 3,
    "sigmoid": 4,
    "l1_gaussian": 5,
    "sqrt_l1_exponential": 6,
    "symmetric_kl": 7,
}


#: above this many entries the variance of "scale" is summed a block of rows at a time
_BLOCKED_VARIANCE = 1 << 22


def _variance(X: np.ndarray) -> float:
    """``X.var()`` (scikit-learn's expression for gamma="scale", the same bits) up to
    ``_BLOCKED_VARIANCE`` entries; above, the same two passes over blocks of rows that stay
    in cache, without NumPy's n x d temporary (10^7 x 20: 3.8 s -> 0.6 s on one core)."""
    if X.size <= _BLOCKED_VARIANCE or X.ndim != 2:
        return float(X.var())
    rows = max(1, (1 << 16) // max(X.shape[1], 1))
    total = 0.0
    for lo in range(0, X.shape[0], rows):
        total += float(X[lo:lo + rows].sum(dtype=np.float64))
    mean = total / X.size
    squares = 0.0
    for lo in range(0, X.shape[0], rows):
        d = X[lo:lo + rows] - mean
        squares += float(np.einsum("ij,ij->", d, d))
    return squares / X.size


def resolve_gamma(gamma, X) -> float:
    """``"scale"``: ``1 / (n_features * X.var())`` (1 if the variance is 0); ``"auto"``:
    ``1 / n_features``; a finite number is returned as a float."""
    if isinstance(gamma, str):
        if gamma == "scale":
            # data near the float64 limit overflow the variance: gamma is then 1 / inf = 0
            with np.errstate(over="ignore", invalid="ignore"):
                if sp.issparse(X):
                    mean = float(X.mean())
                    var = float(X.multiply(X).mean()) - mean * mean
                elif hasattr(X, "dask"):  # a dask array: one reduction on the cluster
                    var = float(X.var())
                else:
                    var = _variance(np.asarray(X))
            if var > 0 and np.isfinite(1.0 / (X.shape[1] * var)):
                return 1.0 / (X.shape[1] * var)
            top = _largest(X)
            if 0.0 < top < 1e-150:
                # not a constant X: its variance fell below float64's smallest number (0,
                # or a subnormal whose inverse is inf); gamma = 1 would make the kernel
                # constant without a word
                raise ParameterError(f"gamma's 'scale' rule 1 / (n_features X.var()) cannot be "
                                 f"computed: the variance of X (values of at most {top:.3g}) "
                                 "underflows float64. Scale the features first "
                                 "({scale}).", "X", "", SCALERS)
            return 1.0 / (X.shape[1] * var) if var > 0 else 1.0
        if gamma == "auto":
            return 1.0 / X.shape[1]
        raise ParameterError(f"must be 'scale', 'auto' or a number; got {gamma!r}.", "gamma")
    if isinstance(gamma, bool) or not isinstance(gamma, (int, float, np.number)) \
            or not np.isfinite(gamma):
        raise ParameterError(f"must be 'scale', 'auto' or a finite number; got {gamma!r}.",
                             "gamma")
    return float(gamma)


def resolve_kernel_params(kernel, X, *, gamma="scale", coef0=0.0, degree=3,
                          kernel_params=None) -> dict:
    """The concrete parameters a named kernel gets from an estimator's settings.

    ``gamma`` ("scale", "auto" or a number) goes to the kernels that take it (unless
    ``kernel_params`` gives ``sigma``), ``coef0`` and ``degree`` to those that take them;
    ``kernel_params`` entries override (the estimators refuse an entry beside its option
    set away from the default). For ``"precomputed"`` and callables only
    ``kernel_params`` is passed on.

    Parameters
    ----------
    kernel : str or callable
        A kernel name of :func:`kernel_matrix`, ``"precomputed"`` or a callable.
    X : array-like of shape (n_samples, n_features)
        The training features ``"scale"`` and ``"auto"`` are resolved on
        (``1 / (n_features * X.var())`` and ``1 / n_features``, as scikit-learn's SVC).
    gamma : {"scale", "auto"} or float, default="scale"
        The estimators' gamma.
    coef0 : float, default=0.0
        The shift of the sigmoid and the polynomial.
    degree : int, default=3
        The polynomial's degree.
    kernel_params : dict, optional
        Further parameters (``p``, ``sigma``, ``rho``, a callable's keywords).

    Returns
    -------
    dict
        The keyword arguments of ``kernel_matrix(X, Y, kernel, **params)``.

    Examples
    --------
    >>> import numpy as np
    >>> from indefsvm.kernels import resolve_kernel_params
    >>> resolve_kernel_params("sigmoid", np.ones((3, 4)), gamma="auto")
    {'gamma': 0.25, 'coef0': 0.0}
    """
    extra = dict(kernel_params or {})
    if callable(kernel) or kernel == "precomputed":
        return extra
    _, allowed = KERNELS[canonical_name(kernel)]
    params = {}
    if "gamma" in allowed and "sigma" not in extra:
        params["gamma"] = resolve_gamma(gamma, X)
    if "coef0" in allowed:
        params["coef0"] = float(coef0)
    if "degree" in allowed:
        params["degree"] = degree
    params.update(extra)
    return params


def check_kernel_settings(kernel, gamma, kernel_params=None) -> None:
    """Every rule of a named kernel's settings that needs no data, said before any (an
    estimator's ``_check_settings``): gamma's sign (:func:`check_gamma_sign`),
    pseudo_euclidean's ``p`` (given, a whole number >= 0), tl1's ``rho`` (> 0). What
    depends on the features (``p <= n_features``) is the kernel's own check, on them."""
    check_gamma_sign(kernel, gamma)
    if callable(kernel) or kernel == "precomputed" or not isinstance(kernel, str):
        return
    name = canonical_name(kernel)
    extra = kernel_params if isinstance(kernel_params, dict) else {}
    if name == "pseudo_euclidean":
        _check_p(extra.get("p"))
    if name == "tl1":
        _check_rho(extra.get("rho"))


def check_gamma_sign(kernel, gamma) -> None:
    """gamma < 0 makes exp(-gamma d) grow with the distance: refused for every kernel of
    that form (a negative slope is meaningful for the sigmoid only)."""
    name = None if callable(kernel) or kernel == "precomputed" else canonical_name(kernel)
    if (name in _DISTANCE_GAMMA and not isinstance(gamma, str) and gamma is not None
            and gamma < 0):
        raise ParameterError(
            "must be >= 0 for {kernel} (exp(-gamma d) with gamma < 0 grows with the "
            "distance d); got {gamma}. A negative slope is meaningful for {sigmoid} only "
            "(Lin & Lin 2003, Table 1).", "gamma",
            values={"kernel": kernel, "gamma": gamma, "sigmoid": Setting("kernel", "sigmoid")})


def estimator_kernel_params(est, X) -> dict:
    """:func:`resolve_kernel_params` of an estimator's own settings (``kernel``, ``gamma``,
    ``coef0``, ``degree``, ``kernel_params``), the one way every kernel estimator of the
    package turns its settings into the kernel's parameters on ``X``; a
    :class:`~indefsvm.exceptions.DegenerateKernelWarning` when they make the kernel one
    number for every pair (:func:`warn_if_constant`)."""
    refuse_given_twice(est)
    params = resolve_kernel_params(est.kernel, X, gamma=est.gamma, coef0=est.coef0,
                                   degree=est.degree, kernel_params=est.kernel_params)
    warn_if_constant(est.kernel, params)
    return params


def refuse_given_twice(est) -> None:
    """Refuse a kernel parameter an estimator is given twice: an option set away from its
    default (``gamma``, ``coef0``, ``degree``) and the same entry in ``kernel_params``
    (``sigma`` stands for ``gamma``), where the entry would win and the option be dropped
    without a word. ``kernel_params`` alone overriding a default is fine."""
    extra = est.kernel_params or {}
    if callable(est.kernel) or est.kernel == "precomputed" or not extra:
        return
    allowed = KERNELS[canonical_name(est.kernel)][1]  # (what it does not take: refused later)
    defaults = {name: p.default for name, p
                in inspect.signature(type(est).__init__).parameters.items()}
    for option, entries in (("gamma", ("gamma", "sigma")), ("coef0", ("coef0",)),
                            ("degree", ("degree",))):
        value = getattr(est, option, None)
        given = [e for e in entries if e in extra and e in allowed]
        if not given or option not in defaults or _same(value, defaults[option]):
            continue
        entry = f"kernel_params[{given[0]!r}]={extra[given[0]]!r}"
        if given[0] == option:
            raise ValueError(
                f"{option} is given twice: {option}={value!r} and {entry}; the entry would "
                f"win and {option}={value!r} be dropped. Give it once.")
        raise ValueError(
            f"gamma={value!r} and {entry} both set the kernel's width; sigma would win and "
            "gamma be dropped. Give one of them.")


def _same(value, default) -> bool:
    if isinstance(value, str) or isinstance(default, str) or value is None or default is None:
        return value == default if type(value) is type(default) else False
    return bool(value == default)


def constant_reason(kernel, params: dict) -> str | None:
    """Why the named ``kernel`` is the same number for every pair of samples at the
    resolved ``params`` -- ``gamma = 0`` in ``exp(-gamma d)``, the polynomial's or the
    sigmoid's ``gamma = 0``, the polynomial's ``degree = 0`` -- or None when it is not.

    Such a kernel is valid (scikit-learn and LIBSVM accept these values), but an SVM on it
    cannot tell the samples apart: every decision value is the bias, one class is
    predicted. Read from the parameters alone, so it costs nothing; a kernel that is
    constant because the *data* are (every sample alike) is not seen here.
    """
    if callable(kernel) or kernel == "precomputed":
        return None
    name = canonical_name(kernel)
    gamma, degree = params.get("gamma"), params.get("degree")
    if name == "polynomial" and degree == 0:
        return "degree=0 makes (gamma <x, z> + coef0)^0 = 1 for every pair"
    if gamma is None or gamma != 0:
        return None
    if name in _DISTANCE_GAMMA:
        return "gamma=0 makes exp(-gamma d(x, z)) = 1 for every pair"
    if name == "polynomial":
        value = float(params.get("coef0", 0.0)) ** degree
        return f"gamma=0 makes (gamma <x, z> + coef0)^degree = coef0^degree = {value:.4g} " \
               "for every pair"
    if name == "sigmoid":
        value = float(np.tanh(params.get("coef0", 0.0)))
        return f"gamma=0 makes tanh(gamma <x, z> + coef0) = tanh(coef0) = {value:.4g} for " \
               "every pair"
    return None


def warn_if_constant(kernel, params: dict) -> None:
    """A :class:`~indefsvm.exceptions.DegenerateKernelWarning` naming the parameter when
    :func:`constant_reason` finds the kernel constant: the fit goes on (the values are
    valid), the user learns why its model predicts one class."""
    reason = constant_reason(kernel, params)
    if reason is None:
        return
    from . import _warn
    from ._validation import user_stacklevel
    from .exceptions import DegenerateKernelWarning

    fix = ("a degree >= 1" if reason.startswith("degree") else
           "a gamma > 0 (or 'scale', the default)")
    _warn.warn(f"kernel={kernel!r}: {reason}; a model on it cannot tell the samples apart: "
               f"every decision value is its bias, one class (or one value) for all. Give "
               f"{fix}.", DegenerateKernelWarning,
               stacklevel=user_stacklevel())


def canonical_name(kernel: str) -> str:
    """Resolve aliases (``"poly"``, ``"gaussian"``) and check the name."""
    if not isinstance(kernel, str):
        raise ValueError(
            f"Unknown kernel of type {type(kernel).__name__}; give a kernel's name, one of "
            f"{sorted(KERNELS) + ['precomputed']}, or a callable k(X, Y) -> matrix "
            "(a kernel matrix itself goes in X with kernel='precomputed').")
    name = _ALIASES.get(kernel, kernel)
    if name != "precomputed" and name not in KERNELS:
        raise ValueError(
            f"Unknown kernel={kernel!r}; choose one of {sorted(KERNELS) + ['precomputed']}, "
            f"or pass a callable k(X, Y) -> matrix ({DISTANCE_HINT})."
        )
    return name


def kernel_matrix(X, Y=None, kernel: str | Callable = "rbf", *, device=None,
                  **params) -> np.ndarray:
    """Kernel matrix between the rows of ``X`` and ``Y``.

    Parameters
    ----------
    X : {array-like, sparse matrix} of shape (n_samples_X, n_features)
        Sparse rows are read as they are by the kernels of :data:`SPARSE_INPUT_KERNELS`
        (their stored values only; rbf as ``|x|^2 + |y|^2 - 2 x'y``, LIBSVM's formula,
        clipped at 0) unless small and not very sparse; the other kernels make them dense.
    Y : {array-like, sparse matrix} of shape (n_samples_Y, n_features), optional
        ``None`` means ``X``.
    kernel : str or callable, default="rbf"
        A name from :data:`KERNELS` (aliases ``"poly"``, ``"gaussian"``), ``"gak"``, or a
        callable ``kernel(X, Y, **params)`` returning an (n_samples_X, n_samples_Y) array.
        ``"gak"``: the global alignment kernel of series (Cuturi et al. 2007; Cuturi 2011,
        eq. 4), normalised, ``k(x, y) / sqrt(k(x, x) k(y, y))`` in [0, 1]: ``X`` and ``Y``
        are series as :func:`~indefsvm.pairwise_distances` takes them for ``"dtw"`` (any
        lengths, several channels). Its parameters: ``sigma``, the local Gaussian kernel's
        bandwidth (None: :func:`~indefsvm.distances.gak_sigma` of ``Y``, else of ``X`` --
        Cuturi's rule, the median distance between points times the square root of the
        median length); ``window``, a triangular band (Cuturi 2011, section 2.3) of radius
        ``floor(window * max(len_x, len_y))`` (None: no band; pairs whose lengths differ by
        more get 0); ``n_jobs``, threads. Computed by a compiled dynamic programme whose rows
        are carried as a logarithm and scaled values, so it is finite at any length. Positive
        definite without a band, and with one on series of one length.
    device : {"cpu", "cuda"} or None, default=None
        ``"cuda"`` (or CuPy input): compute on a CUDA device through CuPy (``pip install
        "indefsvm[gpu]"``), for linear, polynomial, rbf, sigmoid, l1_gaussian and
        sqrt_l1_exponential, in float64 (the same values within rounding). The result is a
        CuPy array for CuPy input, NumPy otherwise.
    **params
        The kernel's parameters (``gamma``, ``coef0``, ``degree``, ``sigma``, ``p``).

    Returns
    -------
    ndarray of shape (n_samples_X, n_samples_Y)

    Examples
    --------
    >>> import numpy as np
    >>> import indefsvm as isvm
    >>> X = np.array([[0.0, 1.0], [1.0, 0.0]])
    >>> isvm.kernel_matrix(X, kernel="pseudo_euclidean", p=1)
    array([[-1.,  0.],
           [ 0.,  1.]])
    """
    from ._device import resolve_device

    dev = resolve_device(device, X, Y)
    if dev.is_cuda:
        return _kernel_matrix_device(dev, X, Y, kernel, params)
    # said before the work, with what works at that size (NumPy said "Unable to allocate
    # 7.28 TiB" at 10^6 rows)
    n_x = X.shape[0] if hasattr(X, "shape") else (len(X) if hasattr(X, "__len__") else 0)
    n_y = n_x if Y is None else (Y.shape[0] if hasattr(Y, "shape") else (
        len(Y) if hasattr(Y, "__len__") else 0))
    check_memory(8.0 * n_x * n_y, f"A {n_x} x {n_y} kernel matrix",
                 "Compute it in blocks of rows (kernel_matrix(X[i:j], Y)), or train on "
                 "landmarks (NystroemSVC, KreinNystroem) and check it matrix-free "
                 "(check_kernel(X=X, kernel=..., method='slq')).")
    if isinstance(kernel, str) and kernel not in KERNELS:
        # a kernel of objects in the metric table (the global alignment kernel of series)
        from .distances._pairwise import metric_kernel

        K = metric_kernel(kernel, X, Y, params)
        if K is not None:
            return K
    if callable(kernel):
        if objects_of_a_callable(kernel, X) or objects_of_a_callable(kernel, Y):
            # strings, graphs, series of several lengths: the callable reads them as given
            Xa, Ya = X, (X if Y is None else Y)
        else:
            Xa = check_finite_array(X, "X")
            Ya = Xa if Y is None else check_finite_array(Y, "Y")
        K = np.asarray(kernel(Xa, Ya, **params), dtype=np.float64)
        from sklearn.utils.validation import _num_samples

        shape = (_num_samples(Xa), _num_samples(Ya))
        if K.shape != shape:
            raise ValueError(
                f"The kernel callable returned shape {K.shape}; expected {shape}.")
        if not np.all(np.isfinite(K)):
            raise ValueError("The kernel callable returned NaN or infinity.")
        return K
    name = canonical_name(kernel)
    if name == "precomputed":
        raise ValueError('kernel="precomputed" has no formula; pass the matrix itself.')
    func, allowed = KERNELS[name]
    unknown = set(params) - set(allowed)
    if unknown:
        raise ValueError(
            f"kernel={name!r} takes parameters {list(allowed)}; got unexpected {sorted(unknown)}."
        )
    return func(X, Y, **params)


def _kernel_matrix_device(dev, X, Y, kernel, params):
    """kernel_matrix on a CUDA device: the parameters are checked (and their defaults
    resolved) on two rows by the CPU formula, the matrix computed by the device's."""
    from ._device import is_device_array, to_numpy
    from ._device._blocks import check_device_kernel, kernel_block

    on_device = is_device_array(X) or is_device_array(Y)
    name = canonical_name(kernel) if isinstance(kernel, str) else kernel
    check_device_kernel(name)
    xp = dev.xp
    Xd = xp.asarray(X, dtype=xp.float64)
    Yd = Xd if Y is None else xp.asarray(Y, dtype=xp.float64)
    if Xd.ndim != 2 or Yd.ndim != 2 or Xd.shape[1] != Yd.shape[1]:
        raise ValueError(f"X and Y must be 2-D with the same number of features; got shapes "
                         f"{Xd.shape} and {Yd.shape}.")
    if not (bool(xp.isfinite(Xd).all()) and bool(xp.isfinite(Yd).all())):
        raise ValueError("X or Y contains NaN or infinity; remove or impute those values.")
    sample = to_numpy(Xd[:2])
    kernel_matrix(sample, kernel=name, **params)  # the CPU's checks of the parameters
    p = dict(params)
    if p.get("gamma") is None and p.get("sigma") is None and name != "linear":
        p["gamma"] = 1.0 / Xd.shape[1]
    if name in ("polynomial", "sigmoid"):
        p.setdefault("coef0", 1.0)
    K = kernel_block(xp, name, Xd, Yd, p)
    if not bool(xp.isfinite(K).all()):
        raise ValueError(f"The {name} kernel has values that are not finite on these inputs "
                         "(an overflow); scale X or change the parameters.")
    return K if on_device else to_numpy(K)


def __dir__():
    # completion lists the public names, not this module's imports (np, BaseEstimator, ...)
    return sorted({*__all__, *(k for k in globals() if k[:2] == "__")})
