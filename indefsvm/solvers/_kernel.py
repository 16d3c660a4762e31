"""The kernel as the compiled solver sees it: one small frozen description.

``SolverKernel.of(data, kernel, kernel_params)`` checks the data and the kernel's parameters
once and describes the kernel by its compiled code and parameters with the rows it is
computed from (dense, or CSR parts for the dot-product kernels and rbf), or by the matrix
itself (a precomputed or callable kernel, or a kernel with no compiled form). The same object
says how many samples it has, whether its values can be finite, and a bound on its entries.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import scipy.sparse as sp

from .._solvers._kcache import KernelCache, csr_row_sqnorms
from .._validation import SCALERS, check_finite_array, check_kernel_matrix, check_positive
from ..exceptions import ParameterError
from ..kernels import _COMPILED_KIND, KERNELS, SPARSE_INPUT_KERNELS, canonical_name, kernel_matrix

#: kernels computed from dot products (and rbf from them and the squared norms): these have a
#: CSR path in the compiled cache (and in kernel_matrix); the distance kernels densify
#: sparse inputs
SPARSE_KERNELS = SPARSE_INPUT_KERNELS


def _csr_parts(X):
    """(data, indices, indptr, n_features) of a canonical float64 CSR copy of X (the caller's
    matrix is never changed); non-finite entries are refused by name."""
    X = sp.csr_matrix(X, dtype=np.float64)
    if not X.has_canonical_format:
        X = X.copy()
        X.sum_duplicates()
    if not np.all(np.isfinite(X.data)):
        raise ValueError("X contains NaN or infinity; remove or impute those values.")
    return (X.data, X.indices.astype(np.intp), X.indptr.astype(np.intp), X.shape[1]), X


@dataclass(frozen=True, eq=False)
class SolverKernel:
    """A kernel for the compiled solver.

    Attributes
    ----------
    kind : int
        The compiled code (``kernels._COMPILED_KIND``); 0: the matrix ``K`` is given.
    X : ndarray or None
        Dense rows the kernel is computed from (None for CSR rows or a given matrix).
    K : ndarray or None
        The kernel matrix (precomputed, callable-made, or a kernel with no compiled form).
    gamma, coef0 : float
    degree : int
    csr : tuple or None
        ``(data, indices, indptr, n_features)`` of CSR rows (dot-product kernels and rbf).
    """

    kind: int
    X: np.ndarray | None
    K: np.ndarray | None
    gamma: float = 0.0
    coef0: float = 0.0
    degree: int = 0
    csr: tuple | None = None

    @classmethod
    def of(cls, data, kernel, kernel_params, check_input: bool = True) -> SolverKernel:
        """The description of ``kernel`` (a name, ``"precomputed"`` or a callable) with
        ``kernel_params`` on ``data``, every input checked (``check_input=False``: a
        precomputed matrix is taken as it is)."""
        params = dict(kernel_params or {})
        name = None if callable(kernel) else canonical_name(kernel)
        csr = None
        if sp.issparse(data):
            if name in SPARSE_KERNELS:
                csr, data = _csr_parts(data)
            elif name == "precomputed":
                raise TypeError("A precomputed kernel must be a dense array; got a sparse "
                                "matrix.")
            else:
                data = data.toarray()
        if callable(kernel):
            X = check_finite_array(data, "X")
            return cls(0, None, check_kernel_matrix(kernel_matrix(X, kernel=kernel, **params),
                                                    "kernel(X, X)"))
        if name == "precomputed":
            if params:
                raise ValueError(f"kernel='precomputed' takes no parameters; got "
                                 f"{sorted(params)}.")
            if not check_input:
                return cls(0, None, np.ascontiguousarray(data, dtype=np.float64))
            return cls(0, None, check_kernel_matrix(data, "K"))
        X = data if csr is not None else check_finite_array(data, "X")
        _, allowed = KERNELS[name]
        unknown = set(params) - set(allowed)
        if unknown:
            raise ValueError(
                f"kernel={name!r} takes parameters {list(allowed)}; got unexpected "
                f"{sorted(unknown)}.")
        if name not in _COMPILED_KIND:
            # no compiled form (pseudo_euclidean): build the matrix once
            return cls(0, None, check_kernel_matrix(kernel_matrix(X, kernel=name, **params)))
        gamma = params.get("gamma")
        if params.get("sigma") is not None:
            sigma = check_positive(params["sigma"], "sigma")
            if gamma is not None:
                raise ValueError("Give gamma or sigma, not both (gamma = 1 / (2 sigma^2)).")
            gamma = 1.0 / (2.0 * sigma**2)
        gamma = 1.0 / X.shape[1] if gamma is None else float(gamma)
        coef0 = float(params.get("coef0", 1.0))
        for pname, value in (("gamma", gamma), ("coef0", coef0)):
            if not np.isfinite(value):
                raise ValueError(f"{pname} must be a finite number; got {value!r}.")
        degree = params.get("degree", 3)
        if int(degree) != degree or not 0 <= degree <= 2**31 - 1:
            # (the compiled kernel holds it in a C int)
            raise ParameterError(f"must be a whole number from 0 to {2**31 - 1}; got "
                                 f"{degree!r}.", "degree")
        if name == "symmetric_kl" and np.any(X <= 0):
            raise ValueError(
                "kernel='symmetric_kl' needs strictly positive inputs; X has entries <= 0 "
                "(add a small pseudo-count and renormalise).")
        return cls(_COMPILED_KIND[name], None if csr else X, None, gamma, coef0, int(degree),
                   csr)

    @property
    def n_samples(self) -> int:
        if self.X is not None:
            return self.X.shape[0]
        return self.K.shape[0] if self.K is not None else self.csr[2].shape[0] - 1

    @property
    def params(self) -> tuple:
        """``(kind, gamma, coef0, degree)``: what the compiled kernel blocks take."""
        return self.kind, self.gamma, self.coef0, self.degree

    def check_finite(self) -> None:
        """Refuse inputs whose kernel values cannot be finite, naming why: squared norms
        that overflow float64 (the dot-product kernels and rbf read them), or a polynomial
        whose diagonal (gamma |x|^2 + coef0)^degree overflows; and features whose every
        value is below 1e-150, whose products underflow."""
        X, csr, kind = self.X, self.csr, self.kind
        if kind == 0 or (X is None and csr is None):
            return
        squares = [_COMPILED_KIND[k] for k in ("linear", "polynomial", "rbf", "sigmoid",
                                               "l1_gaussian")]
        top = float(np.max(np.abs(csr[0] if csr is not None else X))) \
            if (csr[0] if csr is not None else X).size else 0.0
        exp_of_d2 = kind in (_COMPILED_KIND["rbf"], _COMPILED_KIND["l1_gaussian"])
        if kind in squares and 0.0 < top < 1e-150 and not (exp_of_d2 and (
                self.gamma <= 0 or np.log10(self.gamma) + 2.0 * np.log10(2.0 * top) < -16)):
            # (exp(-gamma d^2) with gamma d^2 below float64's resolution is 1 to the last
            # digit: that kernel is computed, as it is)
            # the products (or squared distances) of such features underflow float64: the
            # kernel came out 0 (or 1) on every pair, and the SVM predicted one class
            raise ParameterError(
                f"X has values of at most {top:.3g}: the kernel multiplies features, and "
                "their products underflow float64 (its values would be 0 or lose their "
                "digits). Scale X ({scale}).", "X", "", SCALERS)
        with np.errstate(over="ignore", invalid="ignore"):
            if csr is not None:
                sq = csr_row_sqnorms(csr[0], csr[2])
            elif kind in (_COMPILED_KIND["l1_gaussian"], _COMPILED_KIND["sqrt_l1_exponential"],
                          _COMPILED_KIND["symmetric_kl"]):
                sq = np.abs(X).sum(axis=1) ** 2
            else:
                sq = np.einsum("ij,ij->i", X, X)
            if not np.all(np.isfinite(sq)):
                i = int(np.flatnonzero(~np.isfinite(sq))[0])
                big = (float(np.max(np.abs(X[i]))) if csr is None
                       else float(np.max(np.abs(csr[0]))))
                raise ParameterError(
                    f"The dual coefficients or intercepts are not finite: X has values up to "
                    f"{big:.3g} (sample {i}) whose squared norms overflow float64, so the "
                    "kernel values are inf or NaN. Scale X ({scale}).", "X", "", SCALERS)
            if kind == _COMPILED_KIND["polynomial"]:
                diag = (self.gamma * sq + self.coef0) ** self.degree
                if not np.all(np.isfinite(diag)):
                    i = int(np.flatnonzero(~np.isfinite(diag))[0])
                    raise ValueError(
                        "The dual coefficients or intercepts are not finite: "
                        "kernel='polynomial' overflows, (gamma |x|^2 + coef0)^degree with "
                        f"gamma={self.gamma:g}, coef0={self.coef0:g}, degree={self.degree} "
                        f"is not finite for sample {i}. Scale X or lower gamma or degree.")

    def bound(self) -> float:
        """An upper bound of max |K_ij| for a kernel computed on the fly: 1 for the bounded
        kernels, by Cauchy-Schwarz from the largest squared norm for linear and polynomial."""
        if self.kind not in (_COMPILED_KIND["linear"], _COMPILED_KIND["polynomial"]):
            return 1.0
        if self.csr is not None:
            sq = csr_row_sqnorms(self.csr[0], self.csr[2])
            r2 = float(sq.max()) if sq.size else 0.0
        else:
            r2 = float(np.einsum("ij,ij->i", self.X, self.X).max()) if self.X.shape[0] else 0.0
        if self.kind == _COMPILED_KIND["linear"]:
            return r2
        with np.errstate(over="ignore"):
            return float((abs(self.gamma) * r2 + abs(self.coef0)) ** self.degree)

    def cache(self, cache_mb: float, capacity: int, f32: bool, rows) -> KernelCache:
        """A column cache of this kernel for problems of up to ``capacity`` variables."""
        return KernelCache(self.kind, self.X, self.K, self.gamma, self.coef0, self.degree,
                           cache_mb, capacity, f32, self.csr, rows)
