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


# -- CSR read as it is: the kernels of the stored values, nothing made dense ---------------


def _wide(n=60, d=10**9, per=5, seed=0):
    """``n`` CSR rows of ``d`` columns (a billion: 480 GB dense), ``per`` stored values
    each; the classes told apart by column 7."""
    rng = np.random.default_rng(seed)
    y = np.where(np.arange(n) % 2 == 0, 1, -1)
    cols = np.sort(rng.choice(np.arange(8, d), size=(n, per)), axis=1)
    cols[:, 0] = 7
    vals = rng.uniform(0.5, 1.5, (n, per))
    vals[:, 0] = np.where(y > 0, 2.0, 0.1)
    X = sp.csr_matrix((vals.ravel(), cols.ravel(), np.arange(0, n * per + 1, per)),
                      shape=(n, d))
    X.sum_duplicates()
    return X, y


@pytest.mark.parametrize("kernel, params", [("linear", {}), ("rbf", {"gamma": 0.3}),
                                            ("sigmoid", {"gamma": 0.2, "coef0": -0.5}),
                                            ("polynomial", {"degree": 2, "gamma": 0.5})])
def test_kernels_of_csr_are_the_kernels_of_the_dense_rows(kernel, params):
    # 1 % stored, a dense copy of 12 MB: read as CSR (the stored values only)
    A = sp.random(300, 5000, density=0.01, format="csr", random_state=0)
    B = sp.random(40, 5000, density=0.01, format="csr", random_state=1)
    K = isvm.kernel_matrix(A, kernel=kernel, **params)
    np.testing.assert_allclose(K, isvm.kernel_matrix(A.toarray(), kernel=kernel, **params),
                               rtol=1e-12, atol=1e-13)
    np.testing.assert_array_equal(K, K.T)  # exactly symmetric, as the dense kernel is
    if kernel == "rbf":
        np.testing.assert_array_equal(np.diag(K), 1.0)
    np.testing.assert_allclose(isvm.kernel_matrix(B, A, kernel=kernel, **params),
                               isvm.kernel_matrix(B.toarray(), A.toarray(), kernel=kernel,
                                                  **params), rtol=1e-12, atol=1e-13)


def test_64_bit_indices_as_load_svmlight_file_gives_them_are_taken():
    """scikit-learn's load_svmlight_file returns int64 indices, which SVC refuses; the SVMs
    take them (as 32-bit ones, the same matrix) and fit what they fit on int32 indices."""
    X64 = sp.csr_matrix(X)
    X64.indices, X64.indptr = X64.indices.astype(np.int64), X64.indptr.astype(np.int64)
    a = isvm.IndefiniteSVC(**SIGMOID).fit(X64, Y)
    b = isvm.IndefiniteSVC(**SIGMOID).fit(S, Y)
    np.testing.assert_array_equal(a.dual_coef_.toarray(), b.dual_coef_.toarray())
    np.testing.assert_array_equal(a.decision_function(X64), b.decision_function(S))


def test_a_billion_columns_are_never_made_dense():
    """60 rows of 10^9 columns (480 GB dense): every model of the kernels that read CSR,
    the check and the sanity report work on the stored values; any dense copy would raise
    MemoryError."""
    W, y = _wide()
    for model in [isvm.IndefiniteSVC(kernel="rbf", gamma=0.5),
                  isvm.IndefiniteSVC(kernel="sigmoid", gamma=0.1),
                  isvm.NystroemSVC(kernel="rbf", gamma=0.5, n_components=20, random_state=0),
                  isvm.NystroemSVC(kernel="rbf", gamma=0.5, n_components=20,
                                   landmarks="pivoted", random_state=0),
                  isvm.KreinSVC(kernel="sigmoid", gamma=0.1),
                  make_pipeline(isvm.FeatureKernel("rbf", gamma=0.5),
                                isvm.remedies.ClipEigenvalues(),
                                isvm.IndefiniteSVC(kernel="precomputed")),
                  isvm.RemedySearchCV(kernel=isvm.FeatureKernel("rbf", gamma=0.5), cv=3,
                                      methods=["indefinite SVM", "clip"],
                                      param_grid={"C": [1.0]})]:
        assert model.fit(W, y).score(W, y) >= 0.9, model
    svc = isvm.IndefiniteSVC(kernel="sigmoid", gamma=0.1).fit(W, y)
    assert sp.issparse(svc.support_vectors_)
    assert isvm.sanity_report(svc, W, y).is_stationary
    rep = isvm.check_kernel(X=W, y=y, kernel="sigmoid", gamma=0.1)
    assert rep.n == 60
    # a kernel that reads dense rows says so, with the size, before the copy
    with pytest.raises(MemoryError, match="kernel='l1_gaussian' on CSR X .* GiB"):
        isvm.IndefiniteSVC(kernel="l1_gaussian").fit(W, y)


def test_load_libsvm_auto_keeps_a_sparse_file_sparse(tmp_path):
    from sklearn.datasets import dump_svmlight_file

    A = sp.random(300, 5000, density=0.01, format="csr", random_state=0)
    dump_svmlight_file(A, np.arange(300) % 2, str(tmp_path / "sparse.svm"), zero_based=False)
    dump_svmlight_file(X, Y, str(tmp_path / "heart.svm"), zero_based=False)
    kept, _ = isvm.datasets.load_libsvm(tmp_path / "sparse.svm", dense="auto",
                                        n_features=5000)
    assert sp.issparse(kept) and kept.indices.dtype == np.int32
    np.testing.assert_allclose(kept.toarray(), A.toarray(), rtol=1e-15)  # text round trip
    small, _ = isvm.datasets.load_libsvm(tmp_path / "heart.svm", dense="auto")
    assert isinstance(small, np.ndarray)  # small and dense: read dense, as before
    with pytest.raises(ValueError, match="dense must be True, False or 'auto'"):
        isvm.datasets.load_libsvm(tmp_path / "heart.svm", dense="sparse")


def test_the_command_line_reads_a_sparse_file_as_it_is(tmp_path, capsys):
    """A LIBSVM file of 60 rows with feature indices up to 10^9: fit (its search of C and
    gamma, its cross-validation, the saved model), predict, compare --search, check,
    report and the landmark and remedy models run on the stored values; --scale, which
    would make it dense, is refused with the size; a model of dense features predicts a
    sparse file."""
    from sklearn.datasets import dump_svmlight_file

    from indefsvm.cli import main

    W, y = _wide()
    path, model = str(tmp_path / "wide.svm"), str(tmp_path / "wide.skops")
    dump_svmlight_file(W, y, path, zero_based=False)
    for argv in (["fit", path, "--save", model], ["compare", path, "--search", "--methods",
                                                  "svm,clip"],
                 ["check", path, "--kernel", "sigmoid"],
                 ["report", path, "--out", str(tmp_path)],
                 ["fit", path, "--nystroem", "20"], ["fit", path, "--remedy", "flip"]):
        assert main(argv + ["--quiet"]) == 0, argv
    capsys.readouterr()
    assert main(["predict", model, path]) == 0
    assert "accuracy 100.00 % (60/60)" in capsys.readouterr().err
    assert main(["fit", path, "--scale", "--quiet"]) == 1
    assert "--scale on" in capsys.readouterr().err
    # a model of dense features (a .npy) predicts a file read sparse: made dense for it
    A = sp.random(300, 5000, density=0.01, format="csr", random_state=0).tolil()
    labels = np.where(np.arange(300) % 2 == 0, 1, -1)
    A[:, 5] = (labels + 2)[:, None]
    np.save(tmp_path / "dense.npy", A.toarray())
    np.savetxt(tmp_path / "labels.txt", labels, fmt="%d")
    dump_svmlight_file(A.tocsr(), labels, str(tmp_path / "sparse.svm"), zero_based=False)
    assert main(["fit", str(tmp_path / "dense.npy"), "--labels", str(tmp_path / "labels.txt"),
                 "-C", "1", "--gamma", "0.1", "--cv", "0", "--quiet", "--save",
                 str(tmp_path / "dense.skops")]) == 0
    capsys.readouterr()
    assert main(["predict", str(tmp_path / "dense.skops"), str(tmp_path / "sparse.svm")]) == 0
    assert "accuracy 100.00 % (300/300)" in capsys.readouterr().err


def test_landmarks_kept_csr_save_load_and_are_checked(tmp_path):
    W, y = _wide()
    model = isvm.NystroemSVC(kernel="rbf", gamma=0.5, n_components=20, random_state=0).fit(W, y)
    assert sp.issparse(model.nystroem_.components_)
    sio.dump(model, tmp_path / "m.skops")
    np.testing.assert_array_equal(isvm.load_model(tmp_path / "m.skops").decision_function(W),
                                  model.decision_function(W))
    model.nystroem_.components_.data[0] = np.inf
    sio.dump(model, tmp_path / "bad.skops")
    with pytest.raises(DataFileError, match="components values that are NaN or infinite"):
        isvm.load_model(tmp_path / "bad.skops")
