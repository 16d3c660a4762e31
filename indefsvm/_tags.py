"""scikit-learn's declarations of the estimators whose X may be a kernel or distance matrix
(private): their input tags -- cross-validation slices such an X on both axes
(``pairwise``), and features given instead may be sparse -- and the names of the columns of
the kernels and distances they return, one per training sample, which scikit-learn's
``set_output`` needs."""

from __future__ import annotations

from sklearn.base import ClassNamePrefixFeaturesOutMixin


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


class TrainingColumns(ClassNamePrefixFeaturesOutMixin):
    """Mixin (before ``TransformerMixin`` in the bases) of the transformers whose output has
    one column per training sample -- a fixed kernel, kernel rows, distances: as with
    scikit-learn's ``KernelCenterer``, ``get_feature_names_out()`` names them
    ``<class name>0``, ``<class name>1``, ..., so that ``set_output(transform="pandas")``
    (also on a pipeline, or by ``sklearn.set_config``) returns DataFrames."""

    #: the fitted attribute that holds the number of training samples
    _n_train_attr = "n_train_"

    @property
    def _n_features_out(self):
        # an AttributeError before fit: get_feature_names_out then says "not fitted"
        return getattr(self, self._n_train_attr)


def arrays_out(transformer):
    """``transformer``, set to return NumPy arrays whatever ``sklearn.set_config``
    (``transform_output``) says: for the library's own use of a transformer inside another
    computation, which works with arrays (as scikit-learn's own estimators do)."""
    if hasattr(transformer, "set_output"):
        transformer.set_output(transform="default")
    return transformer
