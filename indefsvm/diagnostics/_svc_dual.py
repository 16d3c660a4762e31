"""The dual problems of scikit-learn's own ``SVC`` (LIBSVM), for the sanity report
(private): a user who trained ``sklearn.svm.SVC(kernel="sigmoid")`` -- an indefinite kernel
-- asks the same question as one who trained ``IndefiniteSVC``.

Everything is read from the model's public attributes (``dual_coef_``, ``support_``,
``n_support_``, ``intercept_``, ``classes_``, ``class_weight_`` and the kernel's parameters)
and the training data; the kernel is recomputed here, and the decision values it gives on
the training data must be the model's own, so that the report checks the problem LIBSVM
solved and not another.
"""

from __future__ import annotations

import numpy as np
import scipy.sparse as sp

from .._dual import DualProblems, check_support_labels, check_training_labels
from .._validation import check_kernel_matrix
from ..exceptions import ParameterError
from ..kernels import kernel_matrix

#: scikit-learn's kernel names and ours
_KERNELS = {"linear": "linear", "poly": "polynomial", "rbf": "rbf", "sigmoid": "sigmoid"}


def is_sklearn_svc(model) -> bool:
    """Whether ``model`` is scikit-learn's SVC (or a subclass of it)."""
    try:
        from sklearn.svm import SVC
    except ImportError:  # pragma: no cover - scikit-learn is a dependency
        return False
    return isinstance(model, SVC)


def _gamma(model, X) -> float:
    """SVC's gamma as its fit resolved it: 'scale' is 1 / (n_features var(X)), 'auto'
    1 / n_features (scikit-learn's definitions, on the training X)."""
    if model.gamma == "scale":
        if sp.issparse(X):
            var = X.multiply(X).mean() - X.mean() ** 2
        else:
            var = np.asarray(X, dtype=np.float64).var()
        return 1.0 / (X.shape[1] * var) if var != 0 else 1.0
    if model.gamma == "auto":
        return 1.0 / X.shape[1]
    return float(model.gamma)


def _training_kernel(model, X) -> np.ndarray:
    if callable(model.kernel):
        return check_kernel_matrix(model.kernel(X, X), "kernel(X, X)")
    if model.kernel == "precomputed":
        return check_kernel_matrix(X, "X (precomputed kernel)")
    if sp.issparse(X):
        X = sp.csr_matrix(X, dtype=np.float64)
    else:
        X = np.asarray(X, dtype=np.float64)
    if X.ndim != 2 or X.shape[1] != model.shape_fit_[1]:
        raise ParameterError(f"must be the training data of the model: {model.shape_fit_[1]} "
                             f"features; got shape {X.shape}.", "X")
    name = _KERNELS[model.kernel]
    params = {"linear": {}, "rbf": {"gamma": _gamma(model, X)},
              "sigmoid": {"gamma": _gamma(model, X), "coef0": float(model.coef0)},
              "polynomial": {"gamma": _gamma(model, X), "coef0": float(model.coef0),
                             "degree": int(model.degree)}}[name]
    return kernel_matrix(X, kernel=name, **params)


def sklearn_svc_problems(model, X, y, tol) -> DualProblems:
    """scikit-learn's SVC: one C-SVC dual (2) per pair of classes, read from the model."""
    if not hasattr(model, "dual_coef_"):
        raise ValueError("sanity_report needs a fitted SVC (call fit first).")
    tol = float(model.tol) if tol is None else tol
    n = int(model.shape_fit_[0])
    K = _training_kernel(model, X)
    if K.shape[0] != n:
        raise ParameterError(f"must be the training data of the model ({n} samples); got "
                             f"{K.shape[0]}.", "X")
    y = check_training_labels(y, n, "SVC")
    classes = model.classes_
    starts = np.r_[0, np.cumsum(model.n_support_)]
    check_support_labels(model, y)
    weights = np.asarray(model.class_weight_, dtype=np.float64)
    # (CSR for a model fitted on sparse X)
    dual = model.dual_coef_
    dual = dual.toarray() if sp.issparse(dual) else np.asarray(dual, dtype=np.float64)
    k = classes.shape[0]
    pairs = [(i, j) for i in range(k) for j in range(i + 1, k)]
    problems = []
    for p, (i, j) in enumerate(pairs):
        # LIBSVM's one-vs-one layout, as scikit-learn documents dual_coef_: the pair's
        # coefficients of class i's support vectors are in row j - 1, of class j's in row i
        v = np.zeros(n)
        si, sj = slice(starts[i], starts[i + 1]), slice(starts[j], starts[j + 1])
        v[model.support_[si]] = dual[j - 1, si]
        v[model.support_[sj]] = dual[i, sj]
        idx = np.flatnonzero((y == classes[i]) | (y == classes[j]))
        # the sign of the decision: for two classes scikit-learn's positive side is
        # classes_[1]; for more, the pair's first class (LIBSVM's vote for i)
        plus, minus = (j, i) if k == 2 else (i, j)
        yp = np.where(y[idx] == classes[plus], 1.0, -1.0)
        alpha = v[idx] * yp
        bounds = float(model.C) * np.where(y[idx] == classes[i], weights[i], weights[j])
        b = float(model.intercept_[p])
        _check_the_solution(model, K, v, b, idx, alpha, bounds, X, p, k)
        if np.all(bounds == bounds[0]):
            bounds = float(bounds[0])
        problems.append({"classes": (classes[plus], classes[minus]), "idx": idx, "y": yp,
                         "alpha": alpha, "C": bounds, "b": b, "tol": tol})
    return DualProblems("svc", tol, K=K, problems=tuple(problems), bias=True)


def _check_the_solution(model, K, v, b, idx, alpha, bounds, X, p, k) -> None:
    """The multipliers read are the model's: within their box (sample weights, which SVC
    does not keep, widen it), and giving the model's own decision values on its training
    data (another X, another gamma or other parameters would not)."""
    scale = float(np.max(np.abs(alpha))) if alpha.size else 1.0
    if np.any(alpha < -1e-9 * scale):
        raise ValueError("The model's dual coefficients do not have the signs of its labels: "
                         "y must be the training labels of the model.")
    if np.any(alpha > bounds * (1 + 1e-9) + 1e-12):
        raise ValueError(
            "The model's multipliers exceed C x class_weight: it was fitted with "
            "sample_weight, which SVC does not keep, so the bounds of its problem are not "
            "known here. Check the same fit as indefsvm.IndefiniteSVC(...).fit(X, y, "
            "sample_weight=w) -- with a PSD kernel the same problem -- or check it without "
            "the weights.")
    ours = K[idx] @ v + b
    theirs = np.asarray(model.decision_function(X), dtype=np.float64)
    if k > 2:
        if model.decision_function_shape != "ovo":
            # the pairs' own values (the 'ovr' shape folds them into votes)
            theirs = _ovo_values(model, X)
        theirs = theirs[:, p]
    theirs = theirs[idx]
    if not np.allclose(ours, theirs, rtol=1e-6, atol=1e-9 * max(1.0, np.abs(theirs).max())):
        worst = int(idx[np.argmax(np.abs(ours - theirs))])
        raise ParameterError(
            f"must be the training data of the model, with the kernel it was fitted with: "
            f"the decision value recomputed for training sample {worst} differs from the "
            "model's own (another X, or kernel parameters changed after fit).", "X")


def _ovo_values(model, X):
    """The pairs' decision values of a model of 'ovr' shape: its own, asked in the 'ovo'
    shape (a parameter decision_function reads when called; put back after)."""
    shape = model.decision_function_shape
    try:
        model.decision_function_shape = "ovo"
        return np.asarray(model.decision_function(X), dtype=np.float64)
    finally:
        model.decision_function_shape = shape
