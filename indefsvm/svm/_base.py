"""What the SVM estimators share: parameters, input checks, weights, kernels rows (private).

The estimators of :mod:`indefsvm.svm._classes` differ only in the dual they hand to the
compiled SMO (:func:`indefsvm.solvers._smo.solve_dual`) and in how they read its solution;
everything around it -- scikit-learn's parameter validation, the kernel and its parameters,
sample and class weights, sparse inputs, the kernel rows of prediction -- lives here.
"""

from __future__ import annotations

from typing import Any

import numpy as np
import scipy.sparse as sp
from sklearn.base import BaseEstimator
from sklearn.utils._param_validation import StrOptions
from sklearn.utils.validation import (
    _num_samples,
    check_is_fitted,
    validate_data,
)

from .. import _constraints as _c
from .._metrics import get as metric_row
from .._metrics import object_kernels, resolve
from .._solvers._kblocks import decision_values
from .._tags import PairwiseInput
from .._threads import effective_threads, single_threaded_blas
from .._validation import (
    check_kernel_matrix,
    check_memory,
    csr_int32,
    dense_rows_are_better,
    objects_error,
    validate_rows,
)
from ..exceptions import ParameterError
from ..kernels import (
    _COMPILED_KIND,
    canonical_name,
    check_kernel_settings,
    estimator_kernel_params,
    kernel_matrix,
)
from ..solvers._kernel import SPARSE_KERNELS, SolverKernel
from ..solvers._smo import check_kernel_inputs
from ._weights import check_weights, sample_weight_vector

# prediction computes kernel rows against the support vectors in blocks of about this many
# bytes, so that n_test x n_SV is never formed at once
_PREDICT_BLOCK_BYTES = 16 * 1048576

#: the names an SVM takes: the kernels of features, and the kernels of objects of the
#: metric table (the global alignment kernel, on the series themselves)
_KERNEL_NAMES = _c.KERNEL_NAMES | set(object_kernels())

#: parameters every SVM estimator validates as scikit-learn's SVC does (same wording)
BASE_CONSTRAINTS: dict[str, list[Any]] = {
    "kernel": [_c.KernelNames(_KERNEL_NAMES), callable], "degree": _c.DEGREE,
    "gamma": _c.GAMMA, "coef0": _c.COEF0,
    "tol": _c.TOL, "shrinking": ["boolean"], "cache_size": _c.CACHE_SIZE,
    "verbose": ["verbose"],
    # SVC spells "no limit" -1 (max_iter_of reads it as our finite default)
    "max_iter": _c.SVM_MAX_ITER,
    "wss": [StrOptions({"first_order", "second_order"})],
    "kernel_params": _c.KERNEL_PARAMS, "n_jobs": _c.N_JOBS,
}



def _compute_dense(X) -> bool:
    """Whether a CSR input is computed as dense rows (``dense_rows_are_better``): the fit
    then equals the dense fit exactly instead of within tol."""
    return dense_rows_are_better(X)


def max_iter_of(max_iter):
    """scikit-learn spells "no limit" -1; we have none, so -1 (like None) is the finite
    default of the solver, max(10^7, 100 n)."""
    if max_iter is None or max_iter == -1:
        return None
    if max_iter == 0:
        raise ParameterError("must be a positive integer, -1 or None; got 0.", "max_iter")
    return int(max_iter)


#: support vectors whose kernel block a precomputed model keeps (8 KB at most)
SUPPORT_BLOCK = 32


class SVMBase(PairwiseInput, BaseEstimator):
    """Kernel, inputs and prediction rows shared by the SVM estimators (private)."""

    _parameter_constraints: dict = dict(BASE_CONSTRAINTS)
    #: the LIBSVM model type, named in messages that keep SVC's wording
    _libsvm_name = "SVC"

    # cross_val_score and GridSearchCV slice a precomputed kernel on both axes; features
    # may be sparse
    _sparse_features = True

    # -- parameters -----------------------------------------------------------------------

    @property
    def kernel_params_(self) -> dict:
        """The kernel's parameters as the fit resolved them (``gamma`` of ``"scale"`` or
        ``"auto"`` as a number; the keys the kernel takes). Set by ``fit``."""
        return dict(self._kernel_params_fitted)

    def _kernel_name(self):
        return self.kernel if self._reads_objects() else canonical_name(self.kernel)

    def _reads_objects(self) -> bool:
        """Whether the SVM reads its inputs as given and makes the kernel from them: a
        callable kernel, or a kernel of objects of the metric table (``"gak"``: series of
        any lengths, a list or a 2-D array) -- not feature vectors."""
        return callable(self.kernel) or (isinstance(self.kernel, str)
                                         and self.kernel in object_kernels())

    def _check_settings(self):
        """What scikit-learn's constraints cannot say: gamma's sign by kernel, the kernel's
        own parameters (pseudo_euclidean's p, tl1's rho; a kernel of objects' own, its
        ``kernel_params``: gak's sigma and window)."""
        if isinstance(self.kernel, str) and self.kernel in object_kernels():
            row = metric_row(self.kernel)
            unknown = sorted(set(self.kernel_params or {}) - set(row.params))
            if unknown:
                raise ParameterError(
                    f"of kernel={self.kernel!r} takes {list(row.params)}; got "
                    f"{unknown}.", "kernel_params")
            resolve(row.check)(dict(self.kernel_params or {}))
            return
        check_kernel_settings(self.kernel, self.gamma, self.kernel_params)

    def _resolved_params(self, X) -> dict:
        return estimator_kernel_params(self, X)

    def _sparse_path(self) -> bool:
        """Sparse X stays sparse (CSR rows in the compiled cache) for these kernels."""
        return not self._reads_objects() and canonical_name(self.kernel) in SPARSE_KERNELS

    def _check_fitted_state(self):
        """The fitted state a model file vouches for (``indefsvm._fitted``), what every SVM of
        the family has: fitted, a kernel of the library, support indices in range, finite
        coefficients and support vectors (the classifiers add their one-vs-one problems,
        the single duals the shape of their one row of coefficients)."""
        from .._fitted import (
            check_degree,
            check_kernel_name,
            require,
            require_finite,
            require_finite_rows,
        )

        require(hasattr(self, "support_"), "holds a model that was never fitted")
        check_kernel_name(self.kernel, _model_kernel_name)
        check_degree(getattr(self, "degree", 3))
        n_train = int(self.shape_fit_[0])
        support = np.asarray(self.support_)
        require(support.dtype.kind in "iu" and not (support.size and (
            support.min() < 0 or support.max() >= n_train)),
            f"has support indices outside 0 ... {n_train - 1}")
        for name in ("_dual_coef_", "_intercept_", "dual_coef_", "intercept_"):
            values = getattr(self, name, None)
            what = f"has {name.strip('_')} values that are NaN or infinite"
            if sp.issparse(values):  # dual_coef_ of a fit on sparse features, as in SVC
                require_finite_rows(values, what)
            elif values is not None:
                require_finite(values, what)
        sv = getattr(self, "support_vectors_", None)
        if sv is not None and hasattr(sv, "shape"):
            # dense, or CSR as a model fitted on sparse features keeps them
            require_finite_rows(sv, "has support vectors that are NaN, infinite or not a "
                                "matrix")
            # one row per support index, one column per feature (a precomputed kernel's
            # model keeps none); predict met "inconsistent shapes" naming no file
            width = int(self.shape_fit_[1])
            require(sv.shape[0] in (0, support.size)
                    and (self.kernel == "precomputed" or sv.shape[0] == 0
                         or sv.shape[1] == width),
                    f"has support vectors of shape {tuple(sv.shape)} for {support.size} "
                    f"support indices of {width} features")

    # -- inputs -----------------------------------------------------------------------------

    def _validate_fit_input(self, X, y, sample_weight, *, y_numeric: bool):
        """Return (X or K, y, sample weights, sparse?) checked for the fit.

        A callable kernel sees X as given (strings, graphs: whatever it understands); the
        matrix it returns is checked like a precomputed one.
        """
        # the parameters were validated by fit (_fit_context); then the kernel's own rules
        self._check_settings()
        precomputed = self.kernel == "precomputed"
        if self._reads_objects():
            if y is None:
                n = _num_samples(X)
            else:
                y = np.asarray(y)
                n = _num_samples(X)
                if y.shape[0] != n:
                    raise ValueError(
                        "X and y have incompatible shapes.\n"
                        f"X has {n} samples, but y has {y.shape[0]}.")
            self._X_fit_callable = X
            self._fit_sparse = True  # the callable decides what it reads
            if not callable(self.kernel):
                # a kernel of objects: the parameters its rule sets (gak's sigma) fixed on
                # the training objects, for the kernel rows of new ones (a kernel without
                # such a rule: its parameters as given)
                fitted = resolve(metric_row(self.kernel).kernel_fit)
                params = dict(self.kernel_params or {})
                self._object_params = params if fitted is None else fitted(X, params)
            data, sparse = self._callable_rows(X, X), False
            if data.shape != (n, n):
                raise ValueError(
                    f"The kernel callable returned shape {data.shape}; expected {(n, n)}.")
        else:
            if sp.issparse(X) and precomputed:
                raise TypeError("Sparse precomputed kernels are not supported.")
            # a precomputed kernel gets our own one-pass check (finite and symmetric) later
            kw = dict(dtype=np.float64, order="C", accept_sparse="csr",
                      ensure_all_finite=not precomputed)
            try:
                if y is None:
                    data = validate_data(self, X, **kw)
                else:
                    data, y = validate_data(self, X, y, y_numeric=y_numeric, **kw)
            except ValueError as exc:
                # series of unequal lengths or strings: objects, not feature vectors
                err = objects_error(X, exc, "an SVM (with a kernel of features)")
                if err is None:
                    raise
                raise err from None
            data = csr_int32(data)  # 64-bit indices (load_svmlight_file's) to 32-bit
            sparse = sp.issparse(data)
            self._fit_sparse = sparse
            if sparse and not self._sparse_path():
                # this kernel reads dense rows: the size said before the copy
                n_rows, d = data.shape
                check_memory(8.0 * n_rows * d, f"kernel={self.kernel!r} on CSR X ({n_rows} x "
                             f"{d}, read as dense rows)",
                             f"The kernels {', '.join(SPARSE_KERNELS)} read CSR rows as they "
                             "are; or keep fewer features.")
                data = data.toarray()
                sparse = False
            self._sv_source = None
            if sparse:
                data = sp.csr_matrix(data)
                data.sort_indices()
                if _compute_dense(data):
                    # the support vectors stay CSR (as SVC keeps them); the solver reads
                    # dense rows, so the fit is the dense fit to the last bit
                    self._sv_source = data
                    data = data.toarray()
            if precomputed and data.shape[0] != data.shape[1]:
                if not np.all(np.isfinite(data)):
                    raise ValueError("Input X (precomputed kernel) contains NaN or infinity.")
                # scikit-learn's words first (its tests match them), then why it happens
                # inside a meta-estimator that slices rows only, and what works there
                raise ValueError(
                    "Precomputed matrix must be a square matrix. Input is a "
                    f"{data.shape[0]}x{data.shape[1]} matrix. fit takes the training kernel "
                    "(n_train x n_train); a meta-estimator that slices the rows only "
                    "(CalibratedClassifierCV, BaggingClassifier) passes (n_rows x n_train): "
                    "give it the features and a kernel name (kernel='sigmoid', ...), or "
                    "make_pipeline(FeatureKernel(...), IndefiniteSVC(kernel='precomputed')).")
        n = data.shape[0]
        sw = sample_weight_vector(sample_weight, n)
        self._sparse = sparse
        self.shape_fit_ = data.shape if hasattr(data, "shape") else (n,)
        return data, y, sw

    def _check_weights(self, sw, y_idx=None, one_class_prefix=""):
        check_weights(sw, y_idx, one_class_prefix)

    def _not_fitted_message(self) -> str:
        # scikit-learn's tests look for the name of its estimator (SVC, NuSVC, ...) in it
        article = "an" if self._libsvm_name.startswith("S") else "a"  # an SVC, a NuSVC
        return (f"This {type(self).__name__} instance ({article} {self._libsvm_name}) is not "
                "fitted yet. Call 'fit' with appropriate arguments before using this "
                "estimator.")

    def _callable_rows(self, A, B):
        if callable(self.kernel):
            K = self.kernel(A, B, **(self.kernel_params or {}))
        else:  # a kernel of objects of the metric table, its parameters fixed by the fit
            # (the training kernel as kernel_matrix(X): each pair once, the diagonal exact)
            K = kernel_matrix(A, None if B is A else B, kernel=self.kernel,
                              n_jobs=self.n_jobs, **self._object_params)
        if sp.issparse(K):
            K = K.toarray()
        return np.asarray(K, dtype=np.float64, order="C")

    def _solver_data(self, data):
        """(data, kernel name, kernel parameters) as the compiled solver reads them; a
        precomputed (or callable-made) matrix is checked here -- square, finite, symmetric --
        after the labels and weights, whose errors say more."""
        objects = not callable(self.kernel) and self._reads_objects()
        self._kernel_params_fitted = dict(self._object_params if objects
                                          else self.kernel_params or {})
        self._gamma = 0.0
        threads = effective_threads(self.n_jobs)
        if self._reads_objects():
            return (check_kernel_matrix(data, "kernel(X, X)", n_threads=threads),
                    "precomputed", None)
        if self.kernel == "precomputed":
            return (check_kernel_matrix(data, "X (precomputed kernel)", n_threads=threads,
                                        warn_distances=True),
                    "precomputed", None)
        name = self._kernel_name()
        params = self._resolved_params(data)
        self._gamma = float(params.get("gamma", 0.0))
        self._kernel_params_fitted = params
        if name in _COMPILED_KIND:
            # once per fit; the solver then runs every problem with check_input=False
            check_kernel_inputs(data, name, params)
        return data, name, params

    # -- prediction ---------------------------------------------------------------------------

    def _validate_for_predict(self, X):
        check_is_fitted(self, msg=self._not_fitted_message())
        if self._reads_objects():
            return X
        X = validate_rows(self, X, "kernel rows" if self.kernel == "precomputed" else None,
                          accept_sparse="csr", dtype=np.float64, order="C")
        X = csr_int32(X)
        if sp.issparse(X) and self.kernel == "precomputed":
            raise TypeError("Sparse precomputed kernels are not supported.")
        if self.kernel == "precomputed" and X.shape[1] != self.shape_fit_[0]:
            raise ValueError(
                f"X.shape[1] = {X.shape[1]} should be equal to {self.shape_fit_[0]}, the "
                "number of samples at training time")
        if sp.issparse(X) and not self._fit_sparse:
            raise ValueError(
                f"cannot use sparse input in {type(self).__name__!r} trained on dense data")
        n_sv = self.support_.shape[0]
        if self.kernel != "precomputed" and self.support_vectors_.shape[0] != n_sv:
            raise ValueError(self._altered_message())
        if int(np.sum(self._n_support)) != n_sv and self._n_support.shape[0] > 1:
            raise ValueError(self._altered_message())
        return X

    def _altered_message(self) -> str:
        # SVC's wording (CVE-2020-28975 check), with the model type LIBSVM gives it
        return (f"The internal representation of {self._libsvm_name} was altered "
                f"({type(self).__name__}: n_support_ and the support vectors disagree)")

    def _kernel_block(self, Xb):
        """Kernel rows k(x, support vectors) of a block of (validated) test inputs."""
        if self._reads_objects():
            Xsv = self._sv_for_callable()
            K = self._callable_rows(Xb, Xsv)
            if K.shape != (_num_samples(Xb), _num_samples(Xsv)):
                raise ValueError(
                    f"The kernel callable returned shape {K.shape}; expected "
                    f"{(_num_samples(Xb), _num_samples(Xsv))}.")
            return K
        if self.kernel == "precomputed":
            return np.asarray(Xb[:, self.support_], dtype=np.float64)
        # CSR stays CSR: the dot-product kernels and rbf read the stored values only (the
        # other kernels make their inputs dense themselves)
        return kernel_matrix(Xb, self.support_vectors_, kernel=self._kernel_name(),
                             **self._kernel_params_fitted)

    def _compiled_kernel(self):
        """(kind, gamma, coef0, degree) of the fitted kernel when the compiled prediction
        reads it (a named kernel with a compiled form and dense support vectors), else
        None."""
        if self._reads_objects() or self.kernel == "precomputed" \
                or sp.issparse(self.support_vectors_):
            return None
        name = self._kernel_name()
        if name not in _COMPILED_KIND or self.support_vectors_.shape[0] == 0:
            return None
        return SolverKernel.of(self.support_vectors_, name, self._kernel_params_fitted,
                               check_input=False).params

    def _sv_for_callable(self):
        X = self._X_fit_callable
        idx = self.support_
        if hasattr(X, "iloc"):
            return X.iloc[idx]
        if isinstance(X, np.ndarray) or sp.issparse(X):
            return X[idx]
        return [X[i] for i in idx]

    def _decision_rows(self, X, coef, intercept):
        """``K(X, SV) @ coef.T + intercept`` in row blocks (coef: (n_out, n_SV)).

        Dense inputs and a compiled kernel: in compiled code on ``n_jobs`` threads, K never
        formed; otherwise (precomputed, callable or sparse) block by block in numpy."""
        compiled = self._compiled_kernel()
        if compiled is not None and not sp.issparse(X) and coef.shape[1] > 0:
            kind, gamma, coef0, degree = compiled
            with single_threaded_blas():
                out = decision_values(kind, np.ascontiguousarray(X, dtype=np.float64),
                                      np.ascontiguousarray(self.support_vectors_),
                                      np.ascontiguousarray(coef, dtype=np.float64), gamma,
                                      coef0, degree, effective_threads(self.n_jobs))
            return self._finite_decisions(out + intercept, X)
        n = _num_samples(X)
        n_sv = max(coef.shape[1], 1)
        step = max(1, _PREDICT_BLOCK_BYTES // (8 * n_sv))
        out = np.empty((n, coef.shape[0]))
        for start in range(0, n, step):
            stop = min(n, start + step)
            if self._reads_objects():
                Xb = (X.iloc[start:stop] if hasattr(X, "iloc")
                      else X[start:stop] if isinstance(X, np.ndarray) or sp.issparse(X)
                      else [X[i] for i in range(start, stop)])
            else:
                Xb = X[start:stop]
            K = self._kernel_block(Xb)
            out[start:stop] = K @ coef.T + intercept
        return self._finite_decisions(out, X)

    def _finite_decisions(self, out, X):
        """``out``, or a ValueError naming the row whose decision values overflowed: a
        polynomial kernel of test features near 1e160 gave inf - inf = NaN, and a class
        chosen from NaN, without a word."""
        if np.all(np.isfinite(out)):
            return out
        i = int(np.flatnonzero(~np.all(np.isfinite(out), axis=1))[0])
        if self._reads_objects() or self.kernel == "precomputed" or sp.issparse(X) \
                or not hasattr(X, "shape"):
            where = "its kernel values times the dual coefficients overflow"
        else:
            top = float(np.max(np.abs(np.asarray(X[i], dtype=np.float64))))
            where = (f"the {self._kernel_name()} kernel of its features (values up to "
                     f"{top:.3g}) with the support vectors overflows")
        raise ValueError(f"The decision values of sample {i} of X are not finite: {where} "
                         "float64. Scale X as the training data were scaled.")

    def _store_support(self, data, support):
        """``support_vectors_`` as the fit data were: dense, CSR, or empty (precomputed and
        callable kernels: there are no vectors, only kernel values)."""
        if getattr(self, "_sv_source", None) is not None:
            data, self._sv_source = self._sv_source, None
        if self.kernel == "precomputed" and getattr(data, "shape", None) == (
                self.shape_fit_[0],) * 2:
            # no vectors to tell the training kernel by: a block of it among the first
            # support vectors, by which the sanity report refuses another kernel of the
            # same shape (another gamma) instead of calling the model unconverged
            first = support[:SUPPORT_BLOCK]
            self._support_block = np.array(np.asarray(data)[np.ix_(first, first)],
                                           dtype=np.float64)
        if self._reads_objects() or self.kernel == "precomputed":
            self.support_vectors_ = np.empty((0, 0))
        elif sp.issparse(data):
            self.support_vectors_ = sp.csr_matrix(data[support])
        else:
            self.support_vectors_ = np.asarray(data[support]).copy()

    def _dual_coef_out(self, coef):
        return sp.csr_matrix(coef) if self._sparse else coef

    @property
    def n_support_(self):
        """Number of support vectors per class (one entry for regression and one-class)."""
        check_is_fitted(self, "support_")
        return self._n_support

    @property
    def coef_(self):
        """Weights in the input space, ``kernel="linear"`` only (read-only)."""
        if self.kernel != "linear":
            raise AttributeError("coef_ is only available when using a linear kernel")
        check_is_fitted(self, "support_")
        coef = self._get_coef()
        if sp.issparse(coef):
            coef.data.flags.writeable = False
        else:
            coef.flags.writeable = False
        return coef

    def _get_coef(self):
        SV = self.support_vectors_
        dc = self._dual_coef_dense
        out = dc @ SV if not sp.issparse(SV) else sp.csr_matrix(SV.T.dot(dc.T).T)
        return out


def _model_kernel_name(kernel: str) -> str:
    """A kernel name a model file may hold: a kernel of features (its canonical name) or a
    kernel of objects of the metric table."""
    return kernel if kernel in object_kernels() else canonical_name(kernel)
