"""Pseudo-Euclidean geometry of a kernel: the embedding of Prop. 1 and the convex-hull
classifier (CH-DU) of Haasdonk (2005), with the SVM <-> CH conversions of Prop. 7."""

from __future__ import annotations

import numbers

import numpy as np
import scipy.sparse as sp
from sklearn.base import BaseEstimator, ClassifierMixin, _fit_context
from sklearn.utils import assert_all_finite
from sklearn.utils._param_validation import Interval, StrOptions
from sklearn.utils.multiclass import check_classification_targets
from sklearn.utils.validation import check_is_fitted, column_or_1d

from . import _constraints as _c
from ._fitted import forget
from ._interrupt import unfitted_on_interrupt
from ._tags import PairwiseInput
from ._validation import (
    check_binary_labels,
    check_finite_array,
    check_kernel_matrix,
    check_real,
    check_vector,
    options_checked,
    user_stacklevel,
    validate_input,
)
from ._warn import warn
from .diagnostics.spectrum import Signature, _check_rtol
from .exceptions import ParameterError
from .kernels import estimator_kernel_params, kernel_matrix
from .solvers import convex_hull_dual

__all__ = [
    "ConvexHullClassifier",
    "PseudoEuclideanEmbedding",
    "ch_to_svm",
    "pe_plane_coordinates",
    "pseudo_euclidean_embedding",
    "reduced_hull",
    "svm_to_ch",
]


class PseudoEuclideanEmbedding:
    """Isometric embedding of kernel data in ``R^(p, q)`` (Haasdonk 2005, Prop. 1).

    With the centred kernel ``JKJ = V diag(lambda) V'`` (``J = I - ee'/n``), the coordinates
    are ``Z = V_+- |lambda_+-|^(1/2)`` over the non-zero eigenvalues, positive ones first, and
    ``M = diag(1_p, -1_q)``. Then ``z_i' M z_j = (JKJ)_ij`` and
    ``||z_i - z_j||^2_pE = K_ii + K_jj - 2 K_ij``.

    Parameters
    ----------
    rtol : float, optional
        Eigenvalues with ``|lambda| <= rtol * max |lambda|`` are dropped (default ``n * eps``).

    Attributes
    ----------
    Z_ : ndarray of shape (n, p + q)
    M_ : ndarray of shape (p + q, p + q)
        ``diag(1_p, -1_q)``.
    signature_ : Signature
    eigenvalues_ : ndarray of shape (p + q,)
        The kept eigenvalues of ``JKJ`` in the column order of ``Z_``.

    Notes
    -----
    A new point ``x`` with kernel row ``k = (k(x, x_1), ..., k(x, x_n))`` is placed at
    ``z(x) = V diag(sign(lambda) |lambda|^(-1/2))`` applied to the centred row
    ``k_c = k - mean(k) - mean_rows(K) + mean(K)``: the same formula returns ``z_i`` for a
    training point (kernel PCA's out-of-sample rule, with signs).

    Examples
    --------
    >>> import numpy as np
    >>> from indefsvm.geometry import PseudoEuclideanEmbedding
    >>> K = np.array([[2.0, 0.0, 1.0], [0.0, -1.0, 0.0], [1.0, 0.0, 0.5]])
    >>> emb = PseudoEuclideanEmbedding().fit(K)
    >>> tuple(emb.signature_)
    (1, 1, 1)
    """

    def __init__(self, rtol: float | None = None):
        self.rtol = rtol

    @unfitted_on_interrupt
    def fit(self, K) -> PseudoEuclideanEmbedding:
        """Embed the training points of the kernel matrix ``K``.

        Parameters
        ----------
        K : array-like of shape (n, n)
            A symmetric kernel matrix (indefinite allowed).

        Returns
        -------
        self
        """
        K = check_kernel_matrix(K)
        n = K.shape[0]
        _check_rtol(self.rtol, n)
        self._row_means = K.mean(axis=1)
        self._grand_mean = float(self._row_means.mean())
        C = K - self._row_means[:, None] - self._row_means[None, :] + self._grand_mean
        lam, V = np.linalg.eigh((C + C.T) / 2)
        rtol = n * np.finfo(float).eps if self.rtol is None else float(self.rtol)
        tol = rtol * float(np.max(np.abs(lam))) if n else 0.0
        pos = np.flatnonzero(lam > tol)[::-1]  # largest first
        neg = np.flatnonzero(lam < -tol)       # most negative first
        keep = np.r_[pos, neg]
        self.eigenvalues_ = lam[keep]
        self._V = V[:, keep]
        self.Z_ = self._V * np.sqrt(np.abs(self.eigenvalues_))
        self.M_ = np.diag(np.r_[np.ones(pos.size), -np.ones(neg.size)])
        total = float(np.abs(lam).sum())
        negmass = float(np.abs(lam[neg]).sum() / total) if total > 0 else 0.0
        ratio = float(-lam[neg[0]] / lam[pos[0]]) if neg.size and pos.size else 0.0
        self.signature_ = Signature(p=int(pos.size), q=int(neg.size),
                                    z=int(n - pos.size - neg.size), negative_mass=negmass,
                                    negative_ratio=ratio, eigenvalues=lam, rtol=rtol, tol=tol)
        return self

    def transform(self, K_rows) -> np.ndarray:
        """Coordinates of new points from their kernel rows against the training points.

        Parameters
        ----------
        K_rows : array-like of shape (m, n)
            ``k(x_new, x_i)`` for the ``n`` training points.

        Returns
        -------
        ndarray of shape (m, p + q)
        """
        if not hasattr(self, "Z_"):
            raise ValueError("Call fit(K) before transform.")
        K_rows = np.atleast_2d(np.asarray(K_rows, dtype=np.float64))
        if K_rows.shape[1] != self.Z_.shape[0]:
            raise ParameterError(f"must have {self.Z_.shape[0]} columns (one per training "
                                 f"point); got {K_rows.shape[1]}.", "K_rows")
        Kc = (K_rows - K_rows.mean(axis=1, keepdims=True) - self._row_means[None, :]
              + self._grand_mean)
        scale = np.sign(self.eigenvalues_) / np.sqrt(np.abs(self.eigenvalues_))
        return Kc @ (self._V * scale)


@options_checked({"rtol": [Interval(numbers.Real, 0, 1, closed="left"), None]})
def pseudo_euclidean_embedding(K, rtol: float | None = None):
    """Embed kernel data in a pseudo-Euclidean space ``R^(p, q)`` (Haasdonk 2005, Prop. 1).

    Parameters
    ----------
    K : array-like of shape (n, n)
        Symmetric kernel matrix.
    rtol : float, optional
        Relative zero threshold of the centred eigenvalues (default ``n * eps``).

    Returns
    -------
    Z : ndarray of shape (n, p + q)
        Coordinates, the ``p`` real ones first.
    M : ndarray of shape (p + q, p + q)
        ``diag(1_p, -1_q)``.
    signature : Signature
        ``(p, q, z)`` of the centred kernel.

    Examples
    --------
    >>> import numpy as np
    >>> from indefsvm.geometry import pseudo_euclidean_embedding
    >>> X = np.random.default_rng(0).normal(size=(5, 2))
    >>> K = X @ np.diag([1.0, -1.0]) @ X.T
    >>> Z, M, sig = pseudo_euclidean_embedding(K)
    >>> tuple(sig), np.diag(M).tolist()
    ((1, 1, 3), [1.0, -1.0])
    """
    emb = PseudoEuclideanEmbedding(rtol=rtol).fit(K)
    return emb.Z_, emb.M_, emb.signature_


def pe_plane_coordinates(Z, M) -> np.ndarray:
    """First real and first imaginary coordinate: points of ``R^(1,1)`` for plotting.

    Parameters
    ----------
    Z : ndarray of shape (n, p + q)
        Points in pseudo-Euclidean coordinates (e.g. :class:`PseudoEuclideanEmbedding`'s).
    M : ndarray of shape (p + q, p + q)
        The signature matrix ``diag(1, ..., 1, -1, ..., -1)`` of those coordinates.

    Returns
    -------
    ndarray of shape (n, 2)
        Column 0 real, column 1 imaginary (zeros when ``p`` or ``q`` is 0).

    Examples
    --------
    >>> import numpy as np
    >>> from indefsvm.geometry import pe_plane_coordinates
    >>> pe_plane_coordinates(np.array([[1.0, 2.0, 3.0]]), np.diag([1.0, 1.0, -1.0]))
    array([[1., 3.]])
    """
    Z = check_finite_array(Z, "Z")
    try:
        if np.iscomplexobj(M):
            raise ValueError("it is complex")
        M = np.asarray(M, dtype=float)
        if not np.all(np.isfinite(M)):
            raise ValueError("it contains NaN or infinity")
    except (TypeError, ValueError) as exc:
        raise ParameterError(f"must be the numeric signature matrix of Z's coordinates: "
                             f"{exc}", "M") from None
    if M.shape != (Z.shape[1], Z.shape[1]):
        raise ParameterError(f"must be the ({Z.shape[-1]}, {Z.shape[-1]}) signature matrix of "
                             f"Z's coordinates; got M of shape {M.shape} for Z of shape "
                             f"{Z.shape}.", "M")
    signs = np.diag(M)
    out = np.zeros((Z.shape[0], 2))
    real, imag = np.flatnonzero(signs > 0), np.flatnonzero(signs < 0)
    if real.size:
        out[:, 0] = Z[:, real[0]]
    if imag.size:
        out[:, 1] = Z[:, imag[0]]
    return out


def reduced_hull(P, mu, n_directions=360):
    """Vertices of the reduced convex hull ``conv_mu`` of planar points (Haasdonk 2005, §3.2).

    The support point in direction ``t`` puts weight ``mu`` on the ``floor(1/mu)`` points
    farthest along ``t`` and the rest on the next one.

    Parameters
    ----------
    P : ndarray of shape (m, 2)
        The points (one class).
    mu : float
        At least ``1/m``; ``mu >= 1`` is the convex hull itself.
    n_directions : int, default=360
        Directions at which the hull's support points are taken (its vertices' resolution).

    Returns
    -------
    ndarray of shape (n_directions, 2)

    Examples
    --------
    >>> import numpy as np
    >>> from indefsvm.geometry import reduced_hull
    >>> P = np.array([[0.0, 0.0], [2.0, 0.0], [1.0, 2.0]])
    >>> reduced_hull(P, 0.5, n_directions=1)  # direction +x: half on (2, 0), half on (1, 2)
    array([[1.5, 1. ]])
    """
    try:
        if np.iscomplexobj(P):
            raise ValueError("P is complex")
        P = np.asarray(P, dtype=float)
    except (TypeError, ValueError) as exc:
        raise ParameterError(f"must hold planar points, shape (m, 2): {exc}", "P") from None
    if P.ndim != 2 or P.shape[1] != 2 or P.shape[0] == 0:
        raise ParameterError(f"must hold planar points, shape (m, 2) with m >= 1; got {P.shape}.",
                             "P")
    if not np.all(np.isfinite(P)):
        raise ValueError("P contains NaN or infinity; a hull needs finite points.")
    m = P.shape[0]
    mu = check_real(mu, "mu", finite=False)
    if isinstance(n_directions, bool) or not isinstance(n_directions, numbers.Integral) \
            or n_directions < 1:
        raise ParameterError(f"must be a positive integer; got {n_directions!r}.",
                             "n_directions")
    if not float(mu) >= (1.0 / m) * (1.0 - 1e-9):
        # below 1/m no weights of at most mu sum to 1: the hull is empty, not the points
        raise ParameterError(f"must be at least 1/m = {1.0 / m:.4g} for {m} points (no "
                             f"weights of at most mu sum to 1 below it); got {mu!r}.", "mu")
    mu = min(max(float(mu), 1.0 / m), 1.0)
    k = int(np.floor(1.0 / mu + 1e-12))
    rest = 1.0 - k * mu
    th = np.linspace(0, 2 * np.pi, n_directions, endpoint=False)
    # every direction at once: column d of ``order`` ranks the points along direction d (the
    # same sort per column as one direction at a time, so the same vertices)
    order = np.argsort(-(P @ np.vstack([np.cos(th), np.sin(th)])), axis=0)
    out = mu * P[order[:k]].sum(axis=0)
    if rest > 1e-12 and k < m:
        out = out + rest * P[order[k]]
    return out


def svm_to_ch(alpha, C: float):
    """Prop. 7(1): a stationary point of the SVM dual gives one of CH-DU.

    Parameters
    ----------
    alpha : array-like of shape (n,)
        SVM dual variables (not all zero).
    C : float
        Box bound of the SVM.

    Returns
    -------
    alpha_bar : ndarray
        ``2 alpha / sum(alpha)``.
    mu : float
        ``2 C / sum(alpha)``.

    Examples
    --------
    >>> from indefsvm.geometry import svm_to_ch
    >>> svm_to_ch([1.0, 1.0, 0.0], C=2.0)
    (array([1., 1., 0.]), 2.0)
    """
    alpha = check_vector(alpha, "alpha")
    C = check_real(C, "C")
    if alpha.size == 0:
        raise ValueError("alpha is empty: give the dual variables of a fitted SVM.")
    if not C > 0 or np.any(alpha < 0) or np.any(alpha > C * (1 + 1e-12)):
        raise ParameterError(f"must be a feasible point of the SVM dual, 0 <= alpha <= C "
                             f"with C > 0; got C = {C:g} and alpha in [{alpha.min():.4g}, "
                             f"{alpha.max():.4g}].", "alpha")
    total = float(alpha.sum())
    if total <= 0:
        raise ValueError("alpha is zero: no convex-hull solution corresponds to it.")
    return 2.0 * alpha / total, 2.0 * float(C) / total


def ch_to_svm(alpha_bar, mu: float, K, y, *, tol: float = 1e-9, gap: float = 0.0) -> dict:
    """Prop. 7(2): a stationary point of CH-DU gives one of the SVM dual, if it can.

    Needs two unbounded coefficients of opposite classes, ``0 < a_k, a_l < mu``, and
    ``rho = 1/2 a'Q(e_k + e_l) > 0`` beyond its rounding (``n eps max|K_ij| sum(a)``) and
    the point's own accuracy ``gap`` (where the reduced hulls touch, ``rho`` is 0, and what
    is left of it is no SVM: ``C = mu / rho`` near 1e10); then ``alpha = a / rho`` with
    ``C = mu / rho``. The two decision planes are parallel, and the same plane only when no
    ``a_i`` is at ``mu`` (Prop. 7(3)): a bounded coefficient shifts the SVM's offset, set by
    its unbounded support vectors, from the hulls' bisector.

    Parameters
    ----------
    alpha_bar : array-like of shape (n,)
        CH-DU's hull weights (each class's sum to 1).
    mu : float
        The hull reduction ``mu``.
    K : array-like of shape (n, n)
        The kernel matrix.
    y : array-like of shape (n,)
        Labels +1 / -1.
    tol : float, default=1e-9
        Margin for "unbounded": ``tol < a_k < mu - tol``.
    gap : float, default=0.0
        The KKT gap ``m - M`` of ``alpha_bar`` (its solver's ``kkt_gap``): the gradient
        entries ``(Q a)_k`` of the unbounded coefficients, and so ``rho``, are known to
        within it.

    Returns
    -------
    dict
        ``ok`` (bool), ``reason`` (str), and when ``ok``: ``alpha``, ``C``, ``rho``, ``k``,
        ``l`` and ``same_plane`` (no ``a_i`` at ``mu``: the SVM's decision plane is the
        classifier's, not only parallel to it).

    Examples
    --------
    >>> import numpy as np
    >>> from indefsvm.geometry import ch_to_svm
    >>> K = np.eye(4)
    >>> out = ch_to_svm([0.5, 0.5, 0.5, 0.5], 1.0, K, [1, 1, -1, -1])
    >>> out["ok"], out["C"], out["alpha"].tolist(), out["same_plane"]
    (True, 2.0, [1.0, 1.0, 1.0, 1.0], True)
    """
    K = check_kernel_matrix(K)
    n = K.shape[0]
    y = check_binary_labels(y, n)
    a = check_vector(alpha_bar, "alpha_bar", n)
    mu = check_real(mu, "mu")
    if not mu > 0 or np.any(a < -1e-9 * mu) or np.any(a > mu * (1 + 1e-9)):
        raise ParameterError(f"must be a feasible point of CH-DU, 0 <= a <= mu with "
                             f"mu > 0; got mu = {mu:g} and a in [{a.min():.4g}, {a.max():.4g}].",
                             "alpha_bar")
    tol = check_real(tol, "tol")
    gap = check_real(gap, "gap")
    free = (a > tol) & (a < mu - tol)
    kk = np.flatnonzero(free & (y > 0))
    ll = np.flatnonzero(free & (y < 0))
    if kk.size == 0 or ll.size == 0:
        return {"ok": False, "reason": "no pair of unbounded coefficients of opposite classes "
                "(Prop. 7(2) needs 0 < a_k, a_l < mu with y_k = +1, y_l = -1)"}
    k, l = int(kk[0]), int(ll[0])
    Qa = y * (K @ (y * a))
    rho = 0.5 * float(Qa[k] + Qa[l])
    # each term of a'Q e_k is at most max|K_ij| a_j: the sum carries n eps max|K| sum(a) of
    # rounding. A rho within it (or within the point's gap), of either sign, is the 0 of
    # touching hulls (w = z+ - z- = 0): its sign is where the solver stopped and how the BLAS
    # rounded, and a / rho would be an SVM of C ~ 1e12 that is rounding, not the classifier
    rounding = a.shape[0] * np.finfo(np.float64).eps * float(np.abs(K).max()) * float(a.sum())
    if rho < -max(rounding, float(gap)):
        return {"ok": False, "reason": f"rho = 1/2 a'Q(e_k + e_l) = {rho:.4g} <= 0, so no SVM "
                "solution corresponds (Prop. 7(2))", "rho": rho}
    if rho <= max(rounding, float(gap)):
        what = (f"its rounding ({rounding:.3g} = n eps max|K_ij| sum(a))" if rounding >= gap
                else f"the KKT gap of the point ({float(gap):.3g})")
        return {"ok": False, "reason": f"rho = 1/2 a'Q(e_k + e_l) = {rho:.4g} is within "
                f"{what}: the reduced hulls touch, so no SVM solution corresponds (Prop. 7(2))",
                "rho": rho}
    same = not bool(np.any(a >= mu - tol))
    return {"ok": True, "reason": "Prop. 7(2) conditions hold" + (
                "" if same else "; a coefficient at mu: the SVM's decision plane is "
                "parallel to the classifier's, not the same (Prop. 7(3))"),
            "alpha": a / rho, "C": float(mu) / rho, "rho": rho, "k": k, "l": l,
            "same_plane": same}


class ConvexHullClassifier(PairwiseInput, ClassifierMixin, BaseEstimator):
    """Minimum-distance classifier between the closest points of reduced convex hulls in the
    pseudo-Euclidean space of a kernel or distance (CH-DU, Haasdonk 2005, §4 and §7.1).

    Parameters
    ----------
    mu : float or "auto", default="auto"
        Hull reduction: each weight ``alpha_i <= mu`` (``1``: the ordinary convex hulls, which
        intersect when the classes overlap, and then the closest points coincide); needs
        ``mu >= 1 / min(n_+, n_-)``. ``"auto"``: ``max(4 / n, 1 / min(n_+, n_-))``, the
        hulls of :class:`~sklearn.svm.NuSVC`'s default ``nu = 0.5`` (``mu = 2 / (nu n)``:
        Crisp & Burges 2000; Bennett & Bredensteiner 2000), in ``mu_``.
    kernel : str or callable, default="linear"
        A kernel of :mod:`indefsvm.kernels`, ``"precomputed"``, or a callable. Ignored when
        ``metric="precomputed_distance"``.
    metric : {None, "precomputed_distance"}, default=None
        ``"precomputed_distance"``: ``X`` holds distances ``d`` (``(n, n)`` in fit,
        ``(m, n)`` after), used through the kernel ``k = -d^2 / 2``.
    gamma, coef0, degree, kernel_params
        Kernel parameters, as in :class:`indefsvm.IndefiniteSVC`.
    tol : float, default=1e-6
        KKT tolerance of CH-DU.
    max_iter : int, optional
        Most pair steps of CH-DU per start; ``None`` means ``max(10^7, 100 n)``. A start
        that stops there sets ``converged_`` to False with a ``ConvergenceWarning``.
    n_restarts : int, default=0
        Random feasible restarts.
    restart_select : {"objective", "wMw"}, default="objective"
        Which start to keep: the lowest ``||z+ - z-||^2_pE``, or the lowest among those with
        ``w'Mw > 0`` when there is one (a solution with ``w'Mw <= 0`` is counter-intuitive).
    random_state : int, RandomState or None, default=None
        Seed of the restarts' random feasible starts (unused when ``n_restarts=0``).

    Attributes
    ----------
    classes_ : ndarray of shape (2,)
    alpha_ : ndarray of shape (n_samples,)
        Hull weights: ``z+ = sum_{y=+1} alpha_i Phi(x_i)``, ``z- = sum_{y=-1} ...``.
    support_ : ndarray
        Indices with ``alpha_i > 0``.
    intercept_ : float
        ``b`` of (7), ``1/2 sum_ij a_i a_j y_i d^2_ij``, so that
        ``f(x) = -sum_i a_i y_i d^2(x_i, x) + b = ||z - z-||^2_pE - ||z - z+||^2_pE``.
    wMw_ : float
        ``||z+ - z-||^2_pE = w'Mw`` with ``w = z+ - z-``; ``<= 0`` flags a counter-intuitive
        classifier (Haasdonk 2005, §4).
    svm_equivalent_ : dict
        :func:`ch_to_svm` of the solution: the SVM (``alpha``, ``C``) whose decision plane is
        parallel to this one -- the same plane when no ``alpha_i`` is at ``mu``
        (``same_plane``; Haasdonk 2005, Prop. 7(3)) -- or the reason there is none.
    result_ : SolverResult
    mu_ : float
        The hull reduction used (``mu``, or what ``"auto"`` chose).
    n_iter_ : int
        Iterations of CH-DU (of the start kept).
    converged_ : bool
        Whether the start kept met ``tol`` (not stopped by ``max_iter`` or a gap float64
        cannot close; a ``ConvergenceWarning`` says which).
    n_features_in_ : int
        Number of features (columns of ``X``) seen in fit, as scikit-learn's estimators keep it.

    Examples
    --------
    >>> import numpy as np
    >>> from indefsvm import ConvexHullClassifier
    >>> X = np.array([[0.0], [1.0], [3.0], [4.0]]); y = np.array([0, 0, 1, 1])
    >>> clf = ConvexHullClassifier(kernel="linear").fit(X, y)
    >>> clf.predict([[1.9], [2.1]]), clf.wMw_
    (array([0, 1]), 4.0)
    """

    #: scikit-learn's declaration of the parameters, checked by fit (_fit_context); the
    #: ranges and the finer rules are checked after it, in messages that name the fix
    _parameter_constraints: dict = {
        "mu": [Interval(numbers.Real, 0, None, closed="neither"), StrOptions({"auto"})],
        "kernel": [str, callable], "metric": [str, None],
        "gamma": _c.GAMMA, "coef0": _c.COEF0, "degree": _c.DEGREE,
        "kernel_params": _c.KERNEL_PARAMS, "tol": _c.TOL, "max_iter": _c.MAX_ITER,
        "n_restarts": [Interval(numbers.Integral, 0, None, closed="left")],
        "restart_select": [StrOptions({"objective", "wMw"})],
        "random_state": ["random_state"],
    }

    def __init__(self, *, mu="auto", kernel="linear", metric=None, gamma="scale", coef0=0.0,
                 degree=3, kernel_params=None, tol=1e-6, max_iter=None, n_restarts=0,
                 restart_select="objective", random_state=None):
        self.mu = mu
        self.kernel = kernel
        self.metric = metric
        self.gamma = gamma
        self.coef0 = coef0
        self.degree = degree
        self.kernel_params = kernel_params
        self.tol = tol
        self.max_iter = max_iter
        self.n_restarts = n_restarts
        self.restart_select = restart_select
        self.random_state = random_state

    # features (not a precomputed matrix) may be sparse: the kernel matrix is dense anyway
    _sparse_features = True

    def _pairwise_input(self) -> bool:
        # a precomputed kernel or distance matrix is sliced on both axes by
        # cross_val_score and GridSearchCV
        return self.kernel == "precomputed" or self.metric == "precomputed_distance"

    def __sklearn_tags__(self):
        tags = super().__sklearn_tags__()
        # two reduced hulls: binary only (OneVsOneClassifier wraps it for more)
        tags.classifier_tags.multi_class = False
        return tags

    def _params(self, X):
        return estimator_kernel_params(self, X)

    def _train_kernel(self, X):
        # a previous fit's training data stay out of this model (and its file)
        forget(self, "_X", "_kparams", "n_features_in_")
        if self.metric == "precomputed_distance":
            D = check_kernel_matrix(X, "X (precomputed distances)")
            if np.any(np.abs(np.diagonal(D)) > 0):
                raise ValueError("A distance matrix needs a zero diagonal.")
            return -0.5 * D**2
        if self.metric is not None:
            raise ValueError(f"Unknown metric={self.metric!r}; use None or "
                             "'precomputed_distance'.")
        if self.kernel == "precomputed":
            return check_kernel_matrix(X, "X (precomputed kernel)")
        # scikit-learn's checks (feature names and count remembered for prediction; complex,
        # empty or non-finite inputs refused), then ours
        if sp.issparse(X):
            self.n_features_in_ = X.shape[1]
        else:
            X = validate_input(self, X, dtype=np.float64)
        X = check_finite_array(X, "X")  # sparse X made dense: the kernel matrix is anyway
        self._X = X
        self._kparams = self._params(X)
        return check_kernel_matrix(kernel_matrix(X, kernel=self.kernel, **self._kparams))

    @unfitted_on_interrupt
    @_fit_context(prefer_skip_nested_validation=True)
    def fit(self, X, y):
        """Find the closest points of the two reduced hulls.

        Parameters
        ----------
        X : array-like
            Data, a kernel matrix (``kernel="precomputed"``) or distances
            (``metric="precomputed_distance"``).
        y : array-like of shape (n_samples,)
            Two classes.

        Returns
        -------
        self
        """
        if y is None:
            raise ValueError("ConvexHullClassifier requires y to be passed, but the target y "
                             "is None.")
        y = column_or_1d(y, warn=True)
        assert_all_finite(y, input_name="y")
        # scikit-learn's message for a continuous target ("Unknown label type")
        check_classification_targets(y)
        classes = np.unique(y)
        if classes.shape[0] != 2:
            n_cls = classes.shape[0]
            raise ValueError(
                ("Only binary classification is supported: " if n_cls > 2 else "")
                + f"ConvexHullClassifier separates exactly two classes; y has {n_cls} "
                f"class{'es' if n_cls != 1 else ''} ({', '.join(map(str, classes[:5]))}). "
                + ("For more classes wrap it: "
                   "sklearn.multiclass.OneVsOneClassifier(ConvexHullClassifier())."
                   if n_cls > 2 else "Give samples of two classes."))
        self.classes_ = classes
        K = self._train_kernel(X)
        if K.shape[0] != y.shape[0]:
            raise ValueError(f"X has {K.shape[0]} samples but y has {y.shape[0]}.")
        yp = np.where(y == self.classes_[1], 1.0, -1.0)
        if self.mu == "auto":
            n_small = int(min(np.sum(yp > 0), np.sum(yp < 0)))
            self.mu_ = min(1.0, max(4.0 / yp.shape[0], 1.0 / n_small))
        else:
            self.mu_ = float(self.mu)
        res = convex_hull_dual(K, yp, mu=self.mu_, tol=self.tol, max_iter=self.max_iter,
                               n_restarts=self.n_restarts, random_state=self.random_state,
                               restart_select=self.restart_select)
        self.result_ = res
        self.alpha_ = res.alpha
        self.support_ = np.flatnonzero(res.alpha > 0)
        self.intercept_ = res.b
        self.wMw_ = 2.0 * res.objective  # ||z+ - z-||^2_pE = a'Qa
        self._coef = (res.alpha * yp)[self.support_]
        self._diag_term = float(np.sum(self._coef * np.diagonal(K)[self.support_]))
        self._n_train = K.shape[0]
        self.svm_equivalent_ = ch_to_svm(res.alpha, self.mu_, K, yp,
                                         gap=max(float(res.kkt_gap), 0.0))
        self.n_iter_ = int(res.n_iter)
        self.converged_ = bool(res.converged)
        # zero within rounding: n eps max|K| (each hull's weights sum to 1)
        zero = K.shape[0] * np.finfo(float).eps * float(np.max(np.abs(K)))
        if abs(self.wMw_) <= zero:
            warn(
                f"w'Mw = ||z+ - z-||^2_pE = {self.wMw_:.3g} is zero within rounding (n eps "
                f"max|K| = {zero:.3g}): the reduced hulls intersect, so their closest points "
                f"coincide and do not define a classifier. Reduce them more: a smaller mu "
                f"(this fit: mu = {self.mu_:.4g}, at least 1 / min(n_+, n_-) = "
                f"{1.0 / min(np.sum(yp > 0), np.sum(yp < 0)):.4g}).",
                UserWarning, stacklevel=user_stacklevel())
        elif not self.wMw_ > 0:
            warn(
                f"w'Mw = ||z+ - z-||^2_pE = {self.wMw_:.4g} <= 0: the closest hull points are "
                "a counter-intuitive classifier (Haasdonk 2005, §4). Try n_restarts with "
                "restart_select='wMw', a larger mu, or check the kernel (check_kernel).",
                UserWarning, stacklevel=user_stacklevel())
        return self

    def decision_function(self, X):
        """Decision values (7): ``> 0`` means ``classes_[1]`` (closer to ``z+``).

        Parameters
        ----------
        X : array-like
            Data, kernel rows ``(m, n_train)`` or distance rows ``(m, n_train)``.

        Returns
        -------
        ndarray of shape (m,)
        """
        check_is_fitted(self)
        if self.metric == "precomputed_distance" or self.kernel == "precomputed":
            R = np.atleast_2d(np.asarray(X, dtype=np.float64))
            if R.shape[1] != self._n_train:
                raise ParameterError(f"must have {self._n_train} columns (one per training "
                                     f"point); got {R.shape[1]}.", "X")
            if not np.all(np.isfinite(R)):
                bad = np.argwhere(~np.isfinite(R))[0]
                raise ValueError(f"X (kernel rows) contains NaN or infinity (first at row "
                                 f"{bad[0]}, column {bad[1]}); fix the kernel or the data "
                                 "that produced it.")
            R = R[:, self.support_]
            if self.metric == "precomputed_distance":
                # f(x) = -sum a_i y_i d^2(x_i, x) + b
                return -(R**2) @ self._coef + self.intercept_
            Ksv = R
        else:
            if not sp.issparse(X):
                # the feature names and count of the fit (a reordered DataFrame is refused)
                X = validate_input(self, X, dtype=np.float64, reset=False)
            Xc = check_finite_array(X, "X")
            if Xc.shape[1] != self._X.shape[1]:
                raise ValueError(f"X has {Xc.shape[1]} features, but the model was fitted "
                                 f"with {self._X.shape[1]}.")
            Ksv = kernel_matrix(Xc, self._X[self.support_], kernel=self.kernel,
                                **self._kparams)
        # d^2(x_i, x) = K_ii + k(x, x) - 2 k(x_i, x); the k(x, x) term cancels (sum a y = 0)
        return 2.0 * Ksv @ self._coef - self._diag_term + self.intercept_

    def predict(self, X):
        """Predicted class labels.

        Parameters
        ----------
        X : array-like
            Test data, as given to fit (features, or the kernel / distances against the training
            samples).

        Returns
        -------
        ndarray of shape (m,)
        """
        check_is_fitted(self)
        return self.classes_[(self.decision_function(X) > 0).astype(int)]


def __dir__():
    # completion lists the public names, not this module's imports (np, BaseEstimator, ...)
    return sorted({*__all__, *(k for k in globals() if k[:2] == "__")})
