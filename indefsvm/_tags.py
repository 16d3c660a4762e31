"""scikit-learn's input tags of the estimators whose X may be a kernel or distance matrix
(private): cross-validation slices such an X on both axes (``pairwise``), and features given
instead may be sparse."""

from __future__ import annotations


class PairwiseInput:
    """Mixin (before ``BaseEstimator`` in the bases): ``input_tags.pairwise`` when X is a
    square matrix of the training samples -- always (``_always_pairwise``) or when
    ``kernel == "precomputed"`` -- and, with ``_sparse_features``, ``input_tags.sparse``
    when it is not."""

    #: X is always a kernel or distance matrix (transformers of kernels, the remedy search)
    _always_pairwise = False
    #: features (when X is not a matrix of the samples) may be sparse
    _sparse_features = False

    def _pairwise_input(self) -> bool:
        return self._always_pairwise or getattr(self, "kernel", None) == "precomputed"

    def __sklearn_tags__(self):
        tags = super().__sklearn_tags__()
        pairwise = self._pairwise_input()
        tags.input_tags.pairwise = pairwise
        if self._sparse_features:
            tags.input_tags.sparse = not pairwise
        return tags
