"""Kernel logistic regression (33) of Lin & Lin: convex for any symmetric kernel."""

from __future__ import annotations

import numpy as np
import scipy.sparse as sp
from sklearn.base import BaseEstimator, ClassifierMixin, _fit_context
from sklearn.utils._param_validation import StrOptions
from sklearn.utils.multiclass import check_classification_targets
from sklearn.utils.validation import check_is_fitted

from . import _constraints as _c
from ._fitted import forget
from ._interrupt import unfitted_on_interrupt
from ._tags import PairwiseInput
from ._validation import (
    check_binary_labels,
    check_choice,
    check_kernel_matrix,
    check_positive,
    check_real,
    check_vector,
    kernel_input,
    user_stacklevel,
    validate_rows,
)
from .exceptions import ConvergenceWarning, ParameterError
from .kernels import estimator_kernel_params, kernel_matrix

__all__ = ["KernelLogisticRegression", "klr_objective"]


def _log1pexp(z):
    # log(1 + e^z) without overflow
    return np.logaddexp(0.0, z)


def _sigmoid(z):
    out = np.empty_like(z)
    pos = z >= 0
    out[pos] = 1.0 / (1.0 + np.exp(-z[pos]))
    ez = np.exp(z[~pos])
    out[~pos] = ez / (1.0 + ez)
    return out


def klr_objective(w, K, y, C, sample_weight=None):
    """Objective (33), ``1/2 sum alpha_r^2 + C sum s_r log(1 + exp(xi_r))``, and its gradient.

    Parameters
    ----------
    w : ndarray of shape (n + 1,)
        ``alpha`` followed by ``b``.
    K : ndarray of shape (n, n)
    y : ndarray of shape (n,)
        +1 / -1.
    C : float
    sample_weight : ndarray of shape (n,), optional
        ``s_r``, the weight of each sample's loss (default 1).

    Returns
    -------
    f : float
    grad : ndarray of shape (n + 1,)

    Examples
    --------
    >>> import numpy as np
    >>> from indefsvm.klr import klr_objective
    >>> f, g = klr_objective(np.zeros(3), np.eye(2), np.array([1.0, -1.0]), 1.0)
    >>> round(float(f), 6), g.tolist()   # 2 log 2 at zero
    (1.386294, [-0.5, 0.5, 0.0])
    """
    K = check_kernel_matrix(K)
    n = K.shape[0]
    y = check_binary_labels(y, n)
    w = check_vector(w, "w", None)
    if w.shape[0] != n + 1:
        raise ParameterError(f"must hold alpha and b, n + 1 = {n + 1} numbers; got {w.shape[0]}.",
                             "w")
    C = check_real(C, "C")
    if sample_weight is not None:
        sample_weight = check_vector(sample_weight, "sample_weight", n)
    return _klr_objective(w, K, y, C, sample_weight)


def _klr_objective(w, K, y, C, sample_weight=None):
    """:func:`klr_objective` of checked arrays (the Newton steps' inner calls)."""
    a, b = w[:-1], w[-1]
    xi = -y * (K @ a + b)
    sw = 1.0 if sample_weight is None else sample_weight
    f = 0.5 * a @ a + C * np.sum(sw * _log1pexp(xi))
    s = _sigmoid(xi)  # d log(1 + e^xi) / d xi
    r = -C * y * s * sw
    grad = np.empty_like(w)
    grad[:-1] = a + K @ r
    grad[-1] = r.sum()
    return f, grad


def _hess_vec(K, D, C, v):
    # (I~ + C K~ D K~') v with K~ = [K; e'] (the Hessian of (33))
    t = K @ v[:-1] + v[-1]
    t *= C * D
    out = np.empty_like(v)
    out[:-1] = v[:-1] + K @ t
    out[-1] = t.sum()
    return out


def _check_hessian_scale(K, C_max: float) -> None:
    """Refuse, before the solver, a kernel on whose scale the Newton and CG steps overflow
    float64: the gradient at 0 reaches ``g ~ C n max|K_ij|`` and the Hessian ``I + C K D K``
    (``D <= 1/4``) ``C (n max|K_ij|)^2``, so the curvature ``g'Hg`` of the first step
    ``C^3 (n max|K_ij|)^4``; along the bias ``C^3 n^3``: refused above 1e280 (the steps
    overflowed from about 1e305 on kernels of 30 and 300 samples, C from 1e-6 to 1e6)."""
    n = K.shape[0]
    top = float(np.abs(K).max()) if K.size else 0.0
    # the bias b is not regularised: its gradient at 0 is C sum(r) ~ C n / 2 and its
    # curvature C sum(D) <= C n / 4, whatever the kernel's scale -- C^3 n^3 (a kernel near
    # 1e-150 passed the alpha part with C = 1e145, and d'Hd overflowed on the bias)
    log_size = 3.0 * np.log10(C_max) + 3.0 * np.log10(n)
    if top > 0.0:
        log_size = max(log_size, 3.0 * np.log10(C_max) + 4.0 * (np.log10(n) + np.log10(top)))
    if log_size > 280:
        raise ValueError(
            f"KernelLogisticRegression: the Newton steps of the problem (Lin & Lin 2003, eq. "
            f"33) would overflow on this kernel's scale: C^3 max((n max|K_ij|)^4, n^3) = "
            f"1e{log_size:.0f} with max|K_ij| = {top:.3g}, n = {n}, C (times the largest "
            f"weight) = {C_max:.3g}. Scale the kernel down first (K / abs(K).max(), or scale "
            "the features) or use a smaller C (or smaller weights: sample_weight, "
            "class_weight).")


def _tron(K, y, C, tol, max_iter, sw):
    """Trust-region Newton with truncated CG (Steihaug), the scheme of TRON (Lin & More);
    ``sw`` the samples' weights (None: all 1)."""
    n = K.shape[0]
    w = np.zeros(n + 1)
    f, g = _klr_objective(w, K, y, C, sw)
    gnorm0 = np.linalg.norm(g)
    delta = gnorm0
    history = [(0, f)]
    k = 0
    converged = gnorm0 == 0
    while not converged and k < max_iter:
        xi = -y * (K @ w[:-1] + w[-1])
        s_ = _sigmoid(xi)
        D = s_ * (1 - s_) if sw is None else sw * s_ * (1 - s_)
        # Steihaug CG for min g's + 1/2 s'Hs, ||s|| <= delta
        s = np.zeros(n + 1)
        r = -g.copy()
        d = r.copy()
        rr = r @ r
        cg_tol = 0.1 * np.linalg.norm(g)
        for _ in range(2 * (n + 1)):
            if np.sqrt(rr) <= cg_tol:
                break
            Hd = _hess_vec(K, D, C, d)
            dHd = d @ Hd
            alpha_cg = rr / dHd if dHd > 0 else np.inf
            s_next = s + alpha_cg * d
            if not np.isfinite(alpha_cg) or np.linalg.norm(s_next) >= delta:
                # go to the trust-region boundary along d
                sd, dd, ss = s @ d, d @ d, s @ s
                tau = (-sd + np.sqrt(sd * sd + dd * (delta * delta - ss))) / dd
                s = s + tau * d
                break
            s = s_next
            r = r - alpha_cg * Hd
            rr_new = r @ r
            d = r + (rr_new / rr) * d
            rr = rr_new
        f_new, g_new = _klr_objective(w + s, K, y, C, sw)
        pred = -(g @ s + 0.5 * s @ _hess_vec(K, D, C, s))
        actual = f - f_new
        ratio = actual / pred if pred > 0 else -1.0
        snorm = np.linalg.norm(s)
        # radius update in the spirit of TRON (eta0 = 1e-4, eta1 = 0.25, eta2 = 0.75)
        if ratio < 0.25:
            delta = min(max(0.25 * snorm, 1e-12), delta * 0.25) if ratio < 1e-4 else \
                max(0.25 * delta, 0.5 * snorm)
        elif ratio > 0.75:
            delta = max(delta, 2.0 * snorm)
        if ratio > 1e-4:
            w, f, g = w + s, f_new, g_new
        k += 1
        history.append((k, f))
        converged = np.linalg.norm(g) <= tol * gnorm0
        if delta < 1e-14 * (1 + np.linalg.norm(w)):
            break
    # gnorm0 = 0: w = 0 is the minimum itself (a constant kernel on balanced classes)
    return (w, f, k, converged, np.asarray(history, dtype=float),
            np.linalg.norm(g) / gnorm0 if gnorm0 > 0 else 0.0)


def _cg(K, y, C, tol, max_iter, sw):
    """Nonlinear conjugate gradient (Polak-Ribiere+, restarts) with a backtracking line
    search on the exact one-dimensional quadratic model (Nash & Sofer); ``sw`` the samples'
    weights (None: all 1)."""
    n = K.shape[0]
    w = np.zeros(n + 1)
    f, g = _klr_objective(w, K, y, C, sw)
    gnorm0 = np.linalg.norm(g)
    d = -g
    history = [(0, f)]
    k = 0
    converged = gnorm0 == 0
    while not converged and k < max_iter:
        if g @ d >= 0:  # not a descent direction: restart
            d = -g
        # first trial step: minimiser of the local quadratic along d (curvature by H d)
        xi = -y * (K @ w[:-1] + w[-1])
        s_ = _sigmoid(xi)
        D = s_ * (1 - s_) if sw is None else sw * s_ * (1 - s_)
        dHd = d @ _hess_vec(K, D, C, d)
        step = -(g @ d) / dHd if dHd > 0 else 1.0
        gd = g @ d
        for _ in range(60):  # Armijo backtracking
            f_new, g_new = _klr_objective(w + step * d, K, y, C, sw)
            if f_new <= f + 1e-4 * step * gd:
                break
            step *= 0.5
        else:
            break
        w = w + step * d
        beta = max(0.0, g_new @ (g_new - g) / (g @ g))
        d = -g_new + beta * d
        f, g = f_new, g_new
        k += 1
        history.append((k, f))
        converged = np.linalg.norm(g) <= tol * gnorm0
    # gnorm0 = 0: w = 0 is the minimum itself (a constant kernel on balanced classes)
    return (w, f, k, converged, np.asarray(history, dtype=float),
            np.linalg.norm(g) / gnorm0 if gnorm0 > 0 else 0.0)


class KernelLogisticRegression(PairwiseInput, ClassifierMixin, BaseEstimator):
    """Kernel logistic regression (33) of Lin & Lin, convex for any symmetric kernel.

    ``min_{alpha, b} 1/2 sum_r alpha_r^2 + C sum_r log(1 + exp(xi_r))`` with
    ``xi_r = -y_r (sum_j alpha_j K(x_r, x_j) + b)``. The regulariser is ``alpha'alpha``, not
    ``alpha'K alpha``, so the problem is convex even when ``K`` is indefinite (Lin & Lin 2003, §7);
    the price is a dense ``alpha``. Multi-class problems are fitted one-vs-rest.

    Weights (``class_weight``, ``fit(X, y, sample_weight)``) scale each sample's loss term:
    ``C sum_r s_r log(1 + exp(xi_r))`` with ``s_r`` = class weight times sample weight, as in
    scikit-learn's ``LogisticRegression``. A sample of weight 0 is left out (its
    ``alpha_r`` is 0, as if it were not in ``X``). A weight of 2 is not the sample given
    twice: each training sample has a coefficient of its own in the regulariser
    ``alpha'alpha``, and two copies share the weight of one.

    Parameters
    ----------
    kernel : str or callable, default="rbf"
        As in :class:`~indefsvm.IndefiniteSVC` (``"precomputed"`` too).
    C : float, default=1.0
        Weight of the loss, > 0.
    gamma : {"scale", "auto"} or float, default="scale"
        Kernel coefficient, as in :class:`~indefsvm.IndefiniteSVC` (``"scale"``:
        ``1 / (n_features * X.var())``; ``"auto"``: ``1 / n_features``).
    coef0 : float, default=0.0
        ``r`` of the sigmoid and ``coef0`` of the polynomial kernel.
    degree : int, default=3
        Degree of the polynomial kernel.
    kernel_params : dict, optional
        Further parameters of the kernel (``sigma``, ``p``, ``rho``, or a callable's
        keywords).
    class_weight : dict, "balanced" or None, default=None
        Weight of each class's loss terms (``"balanced"``: ``n / (n_classes n_c)``), as in
        :class:`~indefsvm.IndefiniteSVC`.
    solver : {"newton", "cg"}, default="newton"
        ``"newton"``: trust-region Newton with truncated conjugate gradients (TRON's scheme,
        KLR-NT of the paper); ``"cg"``: nonlinear conjugate gradient (KLR-CG).
    tol : float, default=1e-3
        Stop when ``||grad f|| <= tol * ||grad f(0)||`` (the same rule for both solvers).
    max_iter : int, optional
        Outer iterations (Newton steps or CG steps); default 1000 for Newton and 50 000 for
        CG, which needs many more, cheaper steps on ill-conditioned kernels.

    Attributes
    ----------
    classes_ : ndarray
    class_weight_ : ndarray of shape (n_classes,)
        The class weights used.
    alpha_ : ndarray of shape (n_samples,) or (n_classes, n_samples)
    intercept_ : float or ndarray of shape (n_classes,)
    objective_, n_iter_, converged_ : scalar or ndarray per class
    history_ : ndarray of shape (k, 2) or list of them
        ``(iteration, objective)``.
    n_features_in_ : int
        Number of features (columns of ``X``) seen in fit, as scikit-learn's estimators keep it.

    References
    ----------
    Lin & Lin (2003), (33) and Tables 1-2.

    Examples
    --------
    >>> import indefsvm as isvm
    >>> X, y = isvm.datasets.load_heart(return_X_y=True)
    >>> klr = isvm.KernelLogisticRegression(kernel="sigmoid", gamma=0.01, coef0=-0.5,
    ...                                     C=1.0).fit(X, y)
    >>> bool(klr.converged_), klr.predict_proba(X[:2]).shape
    (True, (2, 2))
    """

    #: scikit-learn's declaration of the parameters and their ranges, checked by fit
    #: (_fit_context); the kernel's own rules after it
    _parameter_constraints: dict = {
        "kernel": _c.KERNEL, "C": _c.FINITE_C, "gamma": _c.GAMMA, "coef0": _c.COEF0,
        "degree": _c.DEGREE, "kernel_params": _c.KERNEL_PARAMS,
        "class_weight": [dict, StrOptions({"balanced"}), None],
        "solver": [StrOptions({"newton", "cg"})], "tol": _c.TOL, "max_iter": _c.MAX_ITER,
    }

    def __init__(self, *, kernel="rbf", C=1.0, gamma="scale", coef0=0.0, degree=3,
                 kernel_params=None, class_weight=None, solver="newton", tol=1e-3,
                 max_iter=None):
        self.kernel = kernel
        self.C = C
        self.gamma = gamma
        self.coef0 = coef0
        self.degree = degree
        self.kernel_params = kernel_params
        self.class_weight = class_weight
        self.solver = solver
        self.tol = tol
        self.max_iter = max_iter

    _sparse_features = True

    def __setstate__(self, state):
        # models saved before class_weight existed load as what they were: unweighted
        state.setdefault("class_weight", None)
        super().__setstate__(state)

    def _params(self, X):
        return estimator_kernel_params(self, X)

    @unfitted_on_interrupt
    @_fit_context(prefer_skip_nested_validation=True)
    def fit(self, X, y, sample_weight=None):
        """Fit by Newton or CG.

        Parameters
        ----------
        X : array-like of shape (n_samples, n_features) or (n_samples, n_samples)
            Training data, or the training kernel for ``kernel="precomputed"``.
        y : array-like of shape (n_samples,)
            Class labels.
        sample_weight : array-like of shape (n_samples,), optional
            Weights (>= 0) of the samples' loss terms, times their class weight; 0 leaves a
            sample out.

        Returns
        -------
        self
        """
        from ._warn import warn

        check_choice(self.solver, "solver", ("newton", "cg"))
        C = check_positive(self.C, "C")
        tol = check_positive(self.tol, "tol")
        max_iter = self.max_iter
        if max_iter is None:
            max_iter = 1000 if self.solver == "newton" else 50_000
        if isinstance(max_iter, bool) or int(max_iter) != max_iter or max_iter < 1:
            raise ParameterError(f"must be a positive integer; got {max_iter!r}.",
                                 "max_iter")
        precomputed = self.kernel == "precomputed"
        X, y = kernel_input(self, X, y, accept_sparse=not precomputed and "csr",
                            dtype=np.float64)
        if sp.issparse(X):
            X = X.toarray()
        check_classification_targets(y)
        self.classes_, y_idx = np.unique(y, return_inverse=True)
        if self.classes_.shape[0] < 2:
            raise ValueError("KernelLogisticRegression needs samples of at least 2 classes; "
                             f"the data contains only one class: {self.classes_[0]!r}.")
        weights = self._weights(sample_weight, y, y_idx)
        if precomputed:
            # a previous fit's training data stay out of this model (and its file)
            forget(self, "_X", "_params_fitted")
            K = check_kernel_matrix(X, "X (precomputed kernel)", warn_distances=True)
        else:
            self._params_fitted = self._params(X)
            K = check_kernel_matrix(kernel_matrix(X, kernel=self.kernel,
                                                  **self._params_fitted))
            self._X = X
        # a sample of weight 0 is left out: no loss term, and no coefficient either
        keep = np.flatnonzero(weights > 0)
        all_kept = keep.shape[0] == y_idx.shape[0]
        if not all_kept:
            K = K[np.ix_(keep, keep)]
        _check_hessian_scale(K, C * float(weights.max()))
        solve = _tron if self.solver == "newton" else _cg
        targets = ([y_idx[keep] == 1] if self.classes_.shape[0] == 2
                   else [y_idx[keep] == c for c in range(self.classes_.shape[0])])
        sw = None if np.all(weights == 1.0) else weights[keep]
        outs = []
        for pos in targets:
            yy = np.where(pos, 1.0, -1.0)
            outs.append(solve(K, yy, C, tol, int(max_iter), sw))
            if not outs[-1][3]:
                warn(
                    f"KLR ({self.solver}) stopped at max_iter={max_iter} before reaching "
                    f"tol={tol:g}: ||grad|| / ||grad_0|| = {outs[-1][5]:.3g}.",
                    ConvergenceWarning, stacklevel=user_stacklevel())
        W = np.array([o[0] for o in outs])
        if not all_kept:
            full = np.zeros((W.shape[0], y_idx.shape[0] + 1))
            full[:, keep] = W[:, :-1]
            full[:, -1] = W[:, -1]
            W = full
        if len(outs) == 1:
            o = outs[0]
            self.alpha_, self.intercept_ = W[0, :-1], float(W[0, -1])
            self.objective_, self.n_iter_, self.converged_ = float(o[1]), int(o[2]), bool(o[3])
            self.history_ = o[4]
        else:
            self.alpha_, self.intercept_ = W[:, :-1], W[:, -1]
            self.objective_ = np.array([o[1] for o in outs])
            self.n_iter_ = np.array([o[2] for o in outs])
            self.converged_ = np.array([o[3] for o in outs])
            self.history_ = [o[4] for o in outs]
        return self

    def _weights(self, sample_weight, y, y_idx) -> np.ndarray:
        """Each sample's loss weight: class weight times sample weight, checked (scikit-learn's
        class weights; the sample weights by the SVMs' rules, with their messages)."""
        from .svm._weights import (
            check_every_class_weighted,
            class_weight_vector,
            sample_weight_vector,
        )

        sw = sample_weight_vector(sample_weight, y_idx.shape[0])
        if not np.any(sw > 0):
            raise ValueError("sample_weight is zero (or negative) for every sample: give at "
                             "least one sample a weight > 0.")
        if np.any(sw < 0):
            i = int(np.flatnonzero(sw < 0)[0])
            raise ParameterError(f"must be >= 0; got {sw[i]:g} at index {i}. A "
                                 "weight scales the sample's loss term; give 0 to leave a "
                                 "sample out.", "sample_weight")
        self.class_weight_ = class_weight_vector(self.class_weight, self.classes_, y)
        weights = sw * self.class_weight_[y_idx]
        check_every_class_weighted(self.classes_, y_idx, weights)
        return weights

    def decision_function(self, X):
        """``sum_j alpha_j K(x, x_j) + b`` (per class one-vs-rest for more than two).

        Parameters
        ----------
        X : array-like
            Test data (features, or the kernel against the training samples).

        Returns
        -------
        ndarray of shape (n,) or (n, n_classes)
        """
        check_is_fitted(self)
        precomputed = self.kernel == "precomputed"
        X = (validate_rows(self, X, "kernel rows", dtype=np.float64) if precomputed else
             kernel_input(self, X, reset=False, accept_sparse="csr", dtype=np.float64))
        if sp.issparse(X):
            X = X.toarray()
        Kx = X if precomputed else kernel_matrix(X, self._X, kernel=self.kernel,
                                                 **self._params_fitted)
        return Kx @ self.alpha_.T + self.intercept_

    def predict_proba(self, X):
        """Class probabilities ``1 / (1 + exp(-f(x)))`` (normalised one-vs-rest).

        Parameters
        ----------
        X : array-like
            Test data (features, or the kernel against the training samples).

        Returns
        -------
        ndarray of shape (n, n_classes)
        """
        f = self.decision_function(X)
        if f.ndim == 1:
            p = _sigmoid(f)
            return np.c_[1 - p, p]
        P = _sigmoid(f)
        return P / P.sum(axis=1, keepdims=True)

    def predict(self, X):
        """Predicted labels.

        Parameters
        ----------
        X : array-like
            Test data (features, or the kernel against the training samples).

        Returns
        -------
        ndarray of shape (n,)
        """
        f = self.decision_function(X)
        if f.ndim == 1:
            return self.classes_[(f > 0).astype(int)]
        return self.classes_[np.argmax(f, axis=1)]


def __dir__():
    # completion lists the public names, not this module's imports (np, BaseEstimator, ...)
    return sorted({*__all__, *(k for k in globals() if k[:2] == "__")})
