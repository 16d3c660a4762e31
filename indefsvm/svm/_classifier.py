"""The one-vs-one base of the SVM classifiers (private): the classes and their weights, one
binary dual per pair of classes, LIBSVM's layout of the support vectors and dual
coefficients, the votes, and the fitted state a model file vouches for."""

from __future__ import annotations

import numpy as np
import scipy.sparse as sp
from sklearn.base import ClassifierMixin
from sklearn.utils.multiclass import check_classification_targets
from sklearn.utils.validation import check_is_fitted, column_or_1d

from .. import _constraints as _c
from .._dual import label_digest
from .._logging import solver_progress
from ..exceptions import ParameterError
from ._base import SVMBase
from ._dual import classifier_problems
from ._ovo import OvOVotes
from ._weights import check_every_class_weighted, class_weight_vector

__all__ = ["_ClassifierBase"]


class _ClassifierBase(OvOVotes, ClassifierMixin, SVMBase):
    """One-vs-one classification on top of a binary dual (C-SVC or nu-SVC)."""

    #: the binary dual each pair of classes solves, as the progress and messages name it
    _dual_name = "C-SVC"

    @property
    def pair_classes_(self) -> list:
        """The two classes of each one-vs-one problem, in the order of ``solver_results_``
        and ``dual_coef_``'s pairs. Set by ``fit``."""
        return [(self.classes_[a], self.classes_[b]) for a, b, _ in self._pairs]

    _parameter_constraints: dict = {
        **SVMBase._parameter_constraints,
        "class_weight": _c.CLASS_WEIGHT,
        "decision_function_shape": _c.DECISION_FUNCTION_SHAPE,
        "break_ties": ["boolean"],
        "random_state": ["random_state"],
    }

    def _fit_classes(self, X, y, sample_weight):
        data, y, sw = self._validate_fit_input(X, y, sample_weight, y_numeric=False)
        y = column_or_1d(y, warn=True)
        check_classification_targets(y)
        self.classes_, y_idx = np.unique(y, return_inverse=True)
        self.class_weight_ = class_weight_vector(self.class_weight, self.classes_, y)
        if self.classes_.shape[0] < 2:
            raise ValueError(
                "The number of classes has to be greater than one; got 1 class")
        self._check_weights(sw, y_idx, "specified nu is infeasible: "
                            if self._dual_name == "nu-SVC" else "")
        w = self.class_weight_[y_idx] * sw
        check_every_class_weighted(self.classes_, y_idx, w)
        return data, y_idx, w

    def _pair_progress(self, members):
        """The progress callback of the one-vs-one problems (None unless verbose)."""
        name = self._dual_name
        labels = [f"{name}, classes {self.classes_[a]} vs {self.classes_[b]}"
                  for a, b, _, _ in members]
        reporters = [solver_progress(self.verbose, label) for label in labels]
        if reporters[0] is None:
            return None

        def report(problem, *figures):
            reporters[problem](*figures)

        return report

    def _store_pairs(self, data, y_idx, members, alphas, coefs, intercepts, results):
        n, n_classes = y_idx.shape[0], self.classes_.shape[0]
        is_sv = np.zeros(n, dtype=bool)
        for (_, _, _, idx), c in zip(members, coefs, strict=True):
            is_sv[idx[c != 0]] = True
        support = np.concatenate([np.flatnonzero(is_sv & (y_idx == c))
                                  for c in range(n_classes)]).astype(np.int32)
        position = np.full(n, -1)
        position[support] = np.arange(support.shape[0])
        dual_coef = np.zeros((n_classes - 1, support.shape[0]))
        # (a, b, the class with y = +1) of each problem; its coefficients live in _dual_coef_
        self._pairs = []
        for (a, b, pos_class, idx), c in zip(members, coefs, strict=True):
            nz = c != 0
            sv, cv = idx[nz], c[nz]
            pos = position[sv]
            # LIBSVM layout: coefficients of class-a SVs in row b-1, of class-b SVs in row a
            in_a = y_idx[sv] == a
            dual_coef[b - 1, pos[in_a]] = cv[in_a]
            dual_coef[a, pos[~in_a]] = cv[~in_a]
            self._pairs.append((a, b, pos_class))
        self.support_ = support
        self._n_support = np.array([np.count_nonzero(y_idx[support] == c)
                                    for c in range(n_classes)], dtype=np.int32)
        self.dual_coef_ = self._dual_coef_out(dual_coef)
        self._store_support(data, support)
        self.intercept_ = np.asarray(intercepts, dtype=np.float64)
        self._sv_class = y_idx[support]
        self._label_digest = label_digest(y_idx)  # the report tells other labels by it
        self._pair_members = [idx for _, _, _, idx in members]
        # LIBSVM's internal layout (what SVC keeps as _dual_coef_ / _intercept_): for two
        # classes LIBSVM's +1 is classes_[0], so both are negated
        sign = -1.0 if n_classes == 2 else 1.0
        self._intercept_ = sign * self.intercept_
        self._dual_coef_ = self._dual_coef_out(sign * dual_coef)
        self.solver_results_ = results
        self.n_iter_ = np.array([r.n_iter for r in results], dtype=np.int32)
        self.fit_status_ = 0 if all(r.converged for r in results) else 1
        alphas_full = []
        for (_, _, _, idx), a_k in zip(members, alphas, strict=True):
            full = np.zeros(n)
            full[idx] = a_k
            alphas_full.append(full)
        if n_classes == 2:
            r = results[0]
            self.alpha_ = alphas_full[0]
            self.objective_ = r.objective
            self.converged_ = r.converged
            self.kkt_gap_ = r.kkt_gap
            self.history_ = r.history
        else:
            self.alpha_ = np.vstack(alphas_full)
            self.objective_ = np.array([r.objective for r in results])
            self.converged_ = np.array([r.converged for r in results])
            self.kkt_gap_ = np.array([r.kkt_gap for r in results])
            self.history_ = [r.history for r in results]
        if not np.all(np.isfinite(self.intercept_)) or not np.all(np.isfinite(dual_coef)):
            raise ValueError(
                "The dual coefficients or intercepts are not finite. The input data may "
                "contain large values and need to be preprocessed.")

    # -- prediction ---------------------------------------------------------------------------

    def _pair_coefficients(self):
        """(n_pairs, n_SV) coefficients and biases of the one-vs-one problems, read from the
        LIBSVM-layout ``_dual_coef_`` / ``_intercept_`` (as SVC's predict reads them, so that
        changing those changes the predictions; for two classes they are the negatives of
        ``dual_coef_`` / ``intercept_``, as in SVC)."""
        dc = self._dual_coef_
        dc = np.asarray(dc.toarray() if sp.issparse(dc) else dc, dtype=np.float64)
        if self.classes_.shape[0] == 2:
            return -dc, -np.asarray(self._intercept_, dtype=np.float64)
        coef = np.zeros((len(self._pairs), dc.shape[1]))
        cls = self._sv_class
        for k, (a, b, _) in enumerate(self._pairs):
            in_a, in_b = cls == a, cls == b
            coef[k, in_a] = dc[b - 1, in_a]
            coef[k, in_b] = dc[a, in_b]
        return coef, np.asarray(self._intercept_, dtype=np.float64)

    def _ovo_decision(self, X):
        X = self._validate_for_predict(X)
        coef, intercept = self._pair_coefficients()
        return self._decision_rows(X, coef, intercept)

    def decision_function(self, X):
        """Decision values.

        Parameters
        ----------
        X : {array-like, sparse matrix} of shape (n_samples, n_features)
            Or (n_samples, n_train) kernel values for ``kernel="precomputed"``.

        Returns
        -------
        ndarray of shape (n_samples,) for two classes (> 0 means ``classes_[1]``), otherwise
        (n_samples, n_classes) for ``"ovr"`` or (n_samples, n_classes * (n_classes - 1) / 2)
        for ``"ovo"``.
        """
        return self._shaped_decision(self._ovo_decision(X))

    def predict(self, X):
        """Predicted class labels.

        With ``break_ties=False`` (the default, as in ``SVC``) each one-vs-one problem votes
        (for its first class when its decision value is > 0) and a tie goes to the class
        listed first in ``classes_``, as in LIBSVM; ``break_ties=True`` with
        ``decision_function_shape="ovr"`` takes the argmax of the ``"ovr"`` decision values.

        Parameters
        ----------
        X : {array-like, sparse matrix} of shape (n_samples, n_features)
            Or (n_samples, n_train) kernel values for ``kernel="precomputed"``.

        Returns
        -------
        ndarray of shape (n_samples,)
        """
        check_is_fitted(self, msg=self._not_fitted_message())
        if self.break_ties and self.decision_function_shape == "ovo":
            raise ParameterError("must be False when decision_function_shape is 'ovo'",
                                 "break_ties")
        return self._labels_from_ovo(self._ovo_decision(X))

    def _get_coef(self):
        """One row of input-space weights per one-vs-one problem (linear kernel)."""
        SV = self.support_vectors_
        pc, _ = self._pair_coefficients()
        return pc @ SV if not sp.issparse(SV) else sp.csr_matrix(SV.T.dot(pc.T).T)

    def _check_fitted_state(self):
        """The fitted state a model file vouches for (``indefsvm._fitted``): what every SVM
        of the family checks (``SVMBase``), and its one-vs-one problems."""
        from .._fitted import check_pairs

        super()._check_fitted_state()
        check_pairs(self)

    def _dual_problems(self, X, y, tol):
        """The C-SVC dual of each pair of classes (for :func:`~indefsvm.sanity_report`)."""
        return classifier_problems(self, X, y, tol)
