"""The dual problems a fitted SVM of the family hands to the sanity report (see
``indefsvm._dual``): the training kernel recomputed from the training data, and per problem
the labels, multipliers, bounds and bias the solver ended with."""

from __future__ import annotations

import numpy as np
import scipy.sparse as sp

from .._dual import (
    DualProblems,
    check_label_digest,
    check_support_labels,
    check_training_labels,
)
from .._validation import check_kernel_matrix, csr_int32
from ..exceptions import ParameterError
from ..kernels import SPARSE_INPUT_KERNELS, canonical_name, kernel_matrix


def training_kernel(model, X) -> np.ndarray:
    """The kernel the model was trained on, from its training data ``X``."""
    if model._reads_objects():  # a callable, or a kernel of objects (gak): X as given
        return check_kernel_matrix(model._callable_rows(X, X), "kernel(X, X)")
    if model.kernel == "precomputed":
        K = check_kernel_matrix(X, "X (precomputed kernel)")
        _check_support_block(model, K)
        return K
    lsvm = getattr(model, "solver", "smo") == "lsvm" and hasattr(model, "_solver_inputs")
    # CSR stays CSR where the kernel reads it so (a text collection's words)
    keep = (sp.issparse(X) and not lsvm
            and canonical_name(model._kernel_name()) in SPARSE_INPUT_KERNELS)
    Xa = (csr_int32(sp.csr_matrix(X, dtype=np.float64)) if keep else
          np.asarray(X.toarray() if hasattr(X, "toarray") else X, dtype=np.float64))
    if Xa.ndim != 2 or Xa.shape[1] != model.n_features_in_:
        raise ParameterError(
            f"must be the training data of the model: {model.n_features_in_} features; got "
            f"shape {Xa.shape}.", "X")
    sv = getattr(model, "support_vectors_", None)
    if sv is not None and Xa.shape[0] == model.shape_fit_[0] and sv.shape[0]:
        # the dual variables are the training samples': on other data of the same size the
        # report would check a problem the solver never saw
        bad = _rows_differing(Xa[model.support_], sv)
        if bad is not None:
            raise ParameterError(
                f"must be the training data of the model: its row "
                f"{int(model.support_[bad])} differs from the support vector the model holds "
                "for that training sample.", "X")
    if lsvm:
        Xa = model._solver_inputs(Xa)
    return kernel_matrix(Xa, kernel=model._kernel_name(), **model._kernel_params_fitted)


def _check_support_block(model, K) -> None:
    """``K`` is the kernel the model was trained on, by the block among its first support
    vectors that fit kept (models saved before it: not checked): another kernel of the same
    shape (another gamma) would be checked as a problem the solver never saw, and called
    "not a stationary point" for a model that converged."""
    block = getattr(model, "_support_block", None)
    if block is None or K.shape[0] != model.shape_fit_[0]:
        return
    first = np.asarray(model.support_[:block.shape[0]])
    here = K[np.ix_(first, first)]
    scale = float(np.max(np.abs(block))) if block.size else 1.0
    close = np.isclose(here, block, rtol=1e-9, atol=1e-12 * scale)
    if not close.all():
        i, j = (int(v) for v in np.argwhere(~close)[0])
        raise ParameterError(
            f"must be the training kernel of the model: its entry ({first[i]}, {first[j]}) "
            f"is {here[i, j]:.10g} where the kernel the model was trained on holds "
            f"{block[i, j]:.10g} (another kernel, or other kernel parameters).", "X")


def _rows_differing(A, B) -> int | None:
    """The first row where A and B (dense or CSR) differ by more than 1e-12 relative, or
    None."""
    if sp.issparse(A) or sp.issparse(B):
        A, B = sp.csr_matrix(A), sp.csr_matrix(B)
        excess = (abs(A - B) - 1e-12 * abs(B)).tocoo()
        rows = excess.row[excess.data > 0]
        return int(rows.min()) if rows.size else None
    close = np.isclose(A, B, rtol=1e-12, atol=0.0)
    return None if close.all() else int(np.flatnonzero(~np.all(close, axis=1))[0])


def _fitted_kernel(model, X, tol):
    name = type(model).__name__
    if not hasattr(model, "support_"):
        raise ValueError(f"sanity_report needs a fitted {name} (call fit first).")
    tol = model.tol if tol is None else tol
    K = training_kernel(model, X)
    if K.shape[0] != model.shape_fit_[0]:
        raise ParameterError(f"must be the training data of the model ({model.shape_fit_[0]} "
                             f"samples); got {K.shape[0]}.", "X")
    return K, tol


def classifier_problems(model, X, y, tol) -> DualProblems:
    """IndefiniteSVC / IndefiniteNuSVC: one C-SVC dual (2) per pair of classes (nu-SVC as
    the equivalent C-SVC solution ``alpha / r`` with bounds ``C_i / r``, Chang & Lin 2001)."""
    K, tol = _fitted_kernel(model, X, tol)
    y = check_training_labels(y, K.shape[0], type(model).__name__)
    check_support_labels(model, y)
    # the other samples' labels, by the digest fit kept (models saved before it: the
    # support vectors' check above only)
    check_label_digest(model, y)
    if getattr(model, "solver", "smo") == "lsvm":
        raise ValueError(
            "sanity_report checks the box-constrained SVM dual (2); a model fitted with "
            "solver='lsvm' solves another problem, the Lagrangian SVM of Mangasarian & "
            "Musicant (2001): min 1/2 u'(I/nu + DKD)u - e'u over u >= 0 with the kernel of the "
            "augmented inputs [x, -1]. Its KKT residual is the model's kkt_gap_ (converged_ "
            "says whether it is <= tol); for this report fit with solver='smo'.")
    # Kernel-Adatron, MUNK, M3 and fit_intercept=False solve the problem without the bias
    bias = getattr(model, "fit_intercept", True) and getattr(model, "solver", "smo") == "smo"
    classes = model.classes_
    alphas = model.alpha_[None, :] if model.alpha_.ndim == 1 else model.alpha_
    scale = getattr(model, "_nu_r", None)
    problems = []
    for k, (a, b_, pos_class) in enumerate(model._pairs):
        idx = model._pair_members[k]
        yp = np.where(y[idx] == classes[pos_class], 1.0, -1.0)
        bounds = np.asarray(model._pair_bounds[k], dtype=np.float64)
        if bounds.size == 0 or (np.all(bounds == bounds[0]) and scale is None):
            bounds = float(bounds[0]) if bounds.size else float(model.C)
        alpha = alphas[k][idx]
        if not np.all((y[idx] == classes[a]) | (y[idx] == classes[b_])):
            raise ParameterError(f"must be the training labels of the model: the samples of the "
                                 f"pair ({classes[a]}, {classes[b_]}) hold other labels.", "y")
        tol_k = tol
        if scale is not None:
            # nu-SVC: alpha / r solves the C-SVC dual with bounds C_i / r. The nu-SVC stops
            # when each class's own gap is <= tol (LIBSVM's Solver_NU: one multiplier per
            # class); the two classes' intervals of -y_i grad_i / r can sit apart by as much,
            # so the C-SVC gap of a converged nu-SVC is <= 2 tol / r, not tol / r (heart,
            # sigmoid, nu = 0.3: gap 1.224 against tol / r = 1.217, converged at 0.98 tol)
            alpha, bounds = alpha / scale[k], np.asarray(bounds) / scale[k]
            tol_k = 2.0 * tol / scale[k]
        neg_class = b_ if pos_class == a else a
        problems.append({"classes": (classes[pos_class], classes[neg_class]), "idx": idx,
                         "y": yp, "alpha": alpha, "C": bounds, "b": model.intercept_[k],
                         "tol": tol_k})
    return DualProblems("svc", tol, K=K, problems=tuple(problems), bias=bias)


def svr_problems(model, X, y, tol, *, epsilon: float | None = None,
                 nu: bool = False) -> DualProblems:
    """IndefiniteSVR: the 2n-variable general dual of epsilon-SVR on the kept samples.
    IndefiniteNuSVR (``nu``): the same dual at ``epsilon`` = the width it found -- a nu-SVR
    solution solves it (Chang & Lin 2002) -- whose gap, for a nu-SVR that stopped with each
    half's own gap <= tol (one multiplier per sum, LIBSVM's Solver_NU), is <= 2 tol."""
    K, tol = _fitted_kernel(model, X, tol)
    eps = model.epsilon if epsilon is None else epsilon
    n = K.shape[0]
    y = check_training_labels(y, n, type(model).__name__)
    keep = model._keep
    Kk = K[np.ix_(keep, keep)]
    m = keep.shape[0]
    yk = y[keep].astype(np.float64)
    a2 = np.r_[model.alpha_[keep], model.alpha_[n + keep]]
    coef = a2[:m] - a2[m:]
    resid = np.abs(yk - (Kk @ coef + model.intercept_[0]))
    problem = {"y": np.r_[np.ones(m), -np.ones(m)],
               "p": np.r_[eps - yk, eps + yk],
               "C": np.r_[model._bounds, model._bounds], "alpha": a2, "coef": coef,
               "b": model.intercept_[0],
               "outside_ratio": float(np.mean(resid > eps + tol))}
    return DualProblems("svr", 2.0 * tol if nu else tol, K=Kk, problems=(problem,),
                        info={"nu": eps} if nu else {})


def one_class_problems(model, X, y, tol) -> DualProblems:
    """IndefiniteOneClassSVM: the nu one-class dual on the kept samples (no labels)."""
    K, tol = _fitted_kernel(model, X, tol)
    keep = model._keep
    Kk = K[np.ix_(keep, keep)]
    a = model.alpha_[keep]
    dec = Kk @ a + model.intercept_[0]
    problem = {"y": np.ones(keep.shape[0]), "p": np.zeros(keep.shape[0]),
               "C": model._bounds, "alpha": a, "coef": a, "b": model.intercept_[0],
               "outside_ratio": float(np.mean(dec < -tol))}
    return DualProblems("one-class", tol, K=Kk, problems=(problem,))
