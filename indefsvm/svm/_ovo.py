"""The one-vs-one problems of a classifier and their vote (LIBSVM's and ``SVC``'s), shared
by the SMO classifiers, :class:`~indefsvm.NystroemSVC` and the remedy search's fold models."""

from __future__ import annotations

from itertools import combinations

import numpy as np


def ovo_problems(y_idx, w, n_classes: int) -> list:
    """(a, b, +1 class, sample indices) of each one-vs-one problem, in LIBSVM's order, for
    class codes ``y_idx`` in ``range(n_classes)``; samples of weight ``w`` 0 take no part."""
    keep = w > 0
    if n_classes == 2:
        # one problem: every sample kept, in its order (no index lists to merge and sort)
        return [(0, 1, 1, np.flatnonzero(keep))]
    members = [np.flatnonzero((y_idx == c) & keep) for c in range(n_classes)]
    out = []
    for a, b in combinations(range(n_classes), 2):
        # the samples of both classes in their original order
        idx = np.concatenate([members[a], members[b]])
        idx.sort(kind="stable")
        # +1 is classes_[1] for two classes (decision > 0 means classes_[1]) and the
        # first class of each pair otherwise: SVC's dual_coef_ signs and "ovo" layout
        pos = b if n_classes == 2 else a
        out.append((a, b, pos, idx))
    return out


class OvOVotes:
    """The one-vs-one problems of a classifier and their vote, as LIBSVM and ``SVC`` do
    them (shared by the SMO classifiers and :class:`~indefsvm.NystroemSVC`). Needs
    ``classes_``, ``_pairs`` (``(a, b, +1 class)`` per problem), ``break_ties`` and
    ``decision_function_shape``."""

    @property
    def predict_proba(self):
        # hasattr() stays False (scikit-learn's duck typing: VotingClassifier(voting="soft"),
        # probability scorers), and whoever calls it learns where probabilities are, not
        # Python's "object has no attribute 'predict_proba'"
        name = type(self).__name__
        raise AttributeError(
            f"{name} has no predict_proba: an SVM's decision values are not probabilities. "
            f"Calibrated ones: CalibratedClassifierCV({name}(...), ensemble=False).fit(X, y)"
            ".predict_proba(X) -- Platt scaling on cross-validation folds, LIBSVM's -b 1.")

    def _pairs_of(self, y_idx, w):
        """:func:`ovo_problems` of this classifier's classes."""
        return ovo_problems(y_idx, w, self.classes_.shape[0])

    def _ovr_from_ovo(self, dec):
        """SVC's ovr shape: votes plus the summed confidences squeezed into (-1/3, 1/3), which
        only break ties between vote counts (a pair votes for its first class when its value
        is >= 0)."""
        n_classes = self.classes_.shape[0]
        votes = np.zeros((dec.shape[0], n_classes))
        conf = np.zeros((dec.shape[0], n_classes))
        for p, (a, b, pos_class) in enumerate(self._pairs):
            neg_class = b if pos_class == a else a
            votes[:, pos_class] += dec[:, p] >= 0
            votes[:, neg_class] += dec[:, p] < 0
            conf[:, pos_class] += dec[:, p]
            conf[:, neg_class] -= dec[:, p]
        return votes + conf / (3.0 * (np.abs(conf) + 1.0))

    def _shaped_decision(self, dec):
        """SVC's shapes of one-vs-one decision values: one column for two classes, else
        ``"ovo"`` as they are or the ``"ovr"`` votes and confidences."""
        if self.classes_.shape[0] == 2:
            return dec[:, 0]
        if self.decision_function_shape == "ovo":
            return dec
        return self._ovr_from_ovo(dec)

    def _labels_from_ovo(self, dec):
        """Class labels from one-vs-one decision values (LIBSVM's vote, or the ovr argmax
        with break_ties)."""
        n_classes = self.classes_.shape[0]
        if n_classes == 2:
            return self.classes_[(dec[:, 0] > 0).astype(np.intp)]
        if self.break_ties and self.decision_function_shape == "ovr":
            return self.classes_[np.argmax(self._ovr_from_ovo(dec), axis=1)]
        pos = np.array([pc for _, _, pc in self._pairs], dtype=np.intp)
        neg = np.array([b if pc == a else a for a, b, pc in self._pairs], dtype=np.intp)
        # every pair's winner at once, counted per row (one bincount, not a loop of pairs:
        # the search predicts tens of thousands of folds' models)
        win = np.where(dec > 0, pos[None, :], neg[None, :])
        n = dec.shape[0]
        flat = (np.arange(n, dtype=np.intp)[:, None] * n_classes + win).ravel()
        votes = np.bincount(flat, minlength=n * n_classes).reshape(n, n_classes)
        return self.classes_[np.argmax(votes, axis=1)]
