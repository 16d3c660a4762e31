"""Sparse (CSR) features through the whole kernel path, as a LIBSVM user has them
(``sklearn.datasets.load_svmlight_file``): ``FeatureKernel``, ``KreinSVC`` and the remedy
search on features take CSR and compute what they compute on the same features dense; a model
fitted so, saved with skops, loads through ``load_model`` (its CSR parts checked like dense
ones) and predicts the same."""

import numpy as np
import pytest
import scipy.sparse as sp
import skops.io as sio
from sklearn.pipeline import make_pipeline

import indefsvm as isvm
from indefsvm.exceptions import DataFileError

X, Y = isvm.datasets.load_heart(return_X_y=True)
S = sp.csr_matrix(X)
SIGMOID = {"kernel": "sigmoid", "gamma": 0.01, "coef0": -0.5}


@pytest.mark.parametrize("kernel, params", [("sigmoid", {"gamma": 0.01, "coef0": -0.5}),
                                            ("l1_gaussian", {}),
                                            ("pseudo_euclidean", {"kernel_params": {"p": 5}})])
def test_feature_kernel_on_csr_is_the_kernel_of_the_dense_features(kernel, params):
    fk = isvm.FeatureKernel(kernel, **params).fit(S[:100])
    dense = isvm.FeatureKernel(kernel, **params).fit(X[:100])
    assert sp.issparse(fk.X_fit_)
    np.testing.assert_allclose(fk.transform(S[100:]), dense.transform(X[100:]), rtol=1e-12)
    # rows of dense features against CSR training samples, and the training kernel
    np.testing.assert_allclose(fk.transform(X[100:]), dense.transform(X[100:]), rtol=1e-12)
    np.testing.assert_allclose(isvm.FeatureKernel(kernel, **params).fit_transform(S[:100]),
                               dense.transform(X[:100]), rtol=1e-12, atol=1e-14)
    assert fk.__sklearn_tags__().input_tags.sparse


def test_krein_svm_on_csr_equals_the_dense_fit():
    sparse = isvm.KreinSVC(**SIGMOID).fit(S, Y)
    dense = isvm.KreinSVC(**SIGMOID).fit(X, Y)
    np.testing.assert_allclose(sparse.decision_function(S), dense.decision_function(X),
                               rtol=1e-9, atol=1e-9)
    np.testing.assert_array_equal(sparse.predict(X), dense.predict(X))
    assert sparse.__sklearn_tags__().input_tags.sparse
    assert not isvm.KreinSVC(kernel="precomputed").__sklearn_tags__().input_tags.sparse


def test_the_search_on_csr_features_scores_as_on_dense():
    kw = {"kernel": isvm.FeatureKernel("sigmoid", coef0=-0.5), "methods": ["clip", "k-NN"],
          "param_grid": {"C": [1.0], "gamma": [0.01, 0.05], "n_neighbors": [3]}, "cv": 3}
    sparse = isvm.RemedySearchCV(**kw).fit(S, Y)
    dense = isvm.RemedySearchCV(**kw).fit(X, Y)
    np.testing.assert_allclose(sparse.cv_results_["mean_test_score"],
                               dense.cv_results_["mean_test_score"])
    assert sparse.best_params_ == dense.best_params_
    np.testing.assert_array_equal(sparse.predict(S), dense.predict(X))
    # a kernel matrix stays dense: CSR is refused there in scikit-learn's words
    with pytest.raises(TypeError, match="dense data is required"):
        isvm.RemedySearchCV().fit(sp.csr_matrix(isvm.kernel_matrix(X, **SIGMOID)), Y)


@pytest.mark.parametrize("make", [
    lambda: isvm.IndefiniteSVC(**SIGMOID),
    lambda: isvm.KreinSVC(**SIGMOID),
    lambda: make_pipeline(isvm.FeatureKernel(**SIGMOID), isvm.remedies.FlipEigenvalues(),
                          isvm.IndefiniteSVC(kernel="precomputed"))])
def test_a_model_fitted_on_csr_saves_and_loads(make, tmp_path):
    model = make().fit(S, Y)
    sio.dump(model, tmp_path / "m.skops")
    loaded = isvm.load_model(tmp_path / "m.skops")
    np.testing.assert_array_equal(loaded.decision_function(S), model.decision_function(S))


_OURS = "support vectors that are NaN, infinite or not a matrix"


@pytest.mark.parametrize("damage, says", [
    (lambda sv: sv.data.__setitem__(0, np.nan), _OURS),            # a NaN value
    (lambda sv: sv.indices.__setitem__(0, 10 ** 6), _OURS),        # a column outside
    # pointers past the values: scipy refuses to build it, said as a file that is not ours
    (lambda sv: sv.indptr.__setitem__(-1, sv.nnz + 5), "is not a model saved by")])
def test_a_damaged_csr_part_is_refused_on_loading(damage, says, tmp_path):
    model = isvm.IndefiniteSVC(**SIGMOID).fit(S, Y)
    assert sp.issparse(model.support_vectors_)
    damage(model.support_vectors_)
    sio.dump(model, tmp_path / "m.skops")
    with pytest.raises(DataFileError, match=says):
        isvm.load_model(tmp_path / "m.skops")
