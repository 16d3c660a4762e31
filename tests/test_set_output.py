"""scikit-learn's ``set_output`` on the transformers that return one column per training
sample (fixed kernels, kernel rows, distances), and the library's own use of transformers
when a user has set ``sklearn.set_config(transform_output="pandas")``."""

import numpy as np
import pandas as pd
import pytest
import sklearn
from sklearn.pipeline import make_pipeline
from sklearn.preprocessing import KernelCenterer

import indefsvm as isvm
from indefsvm.remedies import (
    AdvancedShiftEigenvalues,
    ClipEigenvalues,
    FlipEigenvalues,
    KernelRanking,
    RemedySearchCV,
    ShiftEigenvalues,
    SquareKernel,
    compare_remedies,
)


def _data(n=40, seed=0):
    rng = np.random.default_rng(seed)
    X = rng.normal(size=(n, 3))
    y = (X[:, 0] + 0.5 * rng.normal(size=n) > 0).astype(int)
    K = isvm.kernel_matrix(X, kernel="sigmoid", gamma=0.3, coef0=-0.5)
    D = isvm.pairwise_distances(X, metric="cityblock")
    return X, y, K, D


def _series(n=40, seed=1):
    rng = np.random.default_rng(seed)
    y = np.arange(n) % 2
    t = np.linspace(0, 3, 25)
    S = [np.sin(t * (1 + c)) + 0.3 * rng.normal(size=t.size) for c in y]
    return S, y


KERNEL_TRANSFORMERS = [FlipEigenvalues(), ClipEigenvalues(), ShiftEigenvalues(),
                       AdvancedShiftEigenvalues(rank=5), SquareKernel(), KernelRanking(),
                       FlipEigenvalues(centered=True)]


@pytest.mark.parametrize("tf", KERNEL_TRANSFORMERS, ids=lambda t: repr(t))
def test_a_kernel_transformer_names_one_column_per_training_sample_as_kernelcenterer_does(tf):
    _, _, K, _ = _data()
    fitted = tf.fit(K)
    names = fitted.get_feature_names_out()
    prefix = type(tf).__name__.lower()
    assert list(names) == [f"{prefix}{i}" for i in range(K.shape[0])]
    # scikit-learn's own kernel transformer names its columns the same way
    ref = KernelCenterer().fit(K).get_feature_names_out()
    assert list(ref) == [f"kernelcenterer{i}" for i in range(K.shape[0])]


@pytest.mark.parametrize("tf", KERNEL_TRANSFORMERS, ids=lambda t: repr(t))
def test_set_output_pandas_gives_the_same_numbers_in_a_dataframe(tf):
    _, _, K, _ = _data()
    plain = sklearn.clone(tf)
    want_fit = plain.fit_transform(K)
    want_rows = plain.transform(K[:7])
    framed = sklearn.clone(tf).set_output(transform="pandas")
    got_fit = framed.fit_transform(K)
    got_rows = framed.transform(K[:7])
    for got, want in ((got_fit, want_fit), (got_rows, want_rows)):
        assert isinstance(got, pd.DataFrame)
        assert list(got.columns) == list(framed.get_feature_names_out())
        np.testing.assert_array_equal(got.to_numpy(), want)


def test_feature_names_before_fit_say_not_fitted():
    from sklearn.exceptions import NotFittedError

    for tf in (FlipEigenvalues(), KernelRanking(), isvm.PairwiseDistances()):
        with pytest.raises(NotFittedError):
            tf.get_feature_names_out()


def test_pairwise_distances_name_one_column_per_training_object():
    S, _ = _series(12)
    pdist = isvm.PairwiseDistances("dtw").set_output(transform="pandas")
    got = pdist.fit_transform(S)
    assert isinstance(got, pd.DataFrame)
    assert list(got.columns) == [f"pairwisedistances{i}" for i in range(12)]
    np.testing.assert_array_equal(got.to_numpy(), isvm.pairwise_distances(S, metric="dtw"))
    # test objects: the same columns, one per training object
    rows = pdist.transform(S[:3])
    assert list(rows.columns) == list(got.columns)


def test_a_pipeline_set_to_pandas_fits_and_predicts_as_the_plain_one():
    # scikit-learn refused Pipeline.set_output when a step had no feature names
    _, y, K, D = _data()
    plain = make_pipeline(FlipEigenvalues(), isvm.IndefiniteSVC(kernel="precomputed"))
    framed = make_pipeline(FlipEigenvalues(), isvm.IndefiniteSVC(kernel="precomputed"))
    framed.set_output(transform="pandas")
    np.testing.assert_allclose(framed.fit(K, y).decision_function(K[:10]),
                               plain.fit(K, y).decision_function(K[:10]), atol=1e-9)
    dist = make_pipeline(isvm.DistanceKernel(), ShiftEigenvalues(),
                         isvm.IndefiniteSVC(kernel="precomputed")).set_output(transform="pandas")
    ref = make_pipeline(isvm.DistanceKernel(), ShiftEigenvalues(),
                        isvm.IndefiniteSVC(kernel="precomputed"))
    np.testing.assert_array_equal(dist.fit(D, y).predict(D), ref.fit(D, y).predict(D))


# -- the library's own transformers under set_config(transform_output="pandas") ---------------


def test_landmark_models_on_series_fit_the_same_under_a_pandas_output_config():
    # landmarks="pivoted" indexed the distance kernel's output as an array: with pandas
    # output set globally it failed with pandas' InvalidIndexError
    S, y = _series()
    for rule in ("pivoted", "uniform"):
        ref = isvm.NystroemSVC(metric="dtw", n_components=12, landmarks=rule,
                               random_state=0).fit(S, y)
        with sklearn.config_context(transform_output="pandas"):
            got = isvm.NystroemSVC(metric="dtw", n_components=12, landmarks=rule,
                                   random_state=0).fit(S, y)
            dec = got.decision_function(S)
        assert isinstance(dec, np.ndarray)
        np.testing.assert_allclose(dec, ref.decision_function(S), atol=1e-10)
        np.testing.assert_array_equal(got.nystroem_.component_indices_,
                                      ref.nystroem_.component_indices_)


def test_searches_comparisons_and_reports_are_the_same_under_a_pandas_output_config():
    X, y, K, D = _data()
    ref_search = RemedySearchCV(kernel=isvm.DistanceKernel(), cv=3).fit(D, y)
    ref_cmp = compare_remedies(K, y, cv=3)
    ref_rep = isvm.sanity_report(
        make_pipeline(FlipEigenvalues(), isvm.IndefiniteSVC(kernel="precomputed")).fit(K, y),
        K, y)
    with sklearn.config_context(transform_output="pandas"):
        search = RemedySearchCV(kernel=isvm.DistanceKernel(), cv=3).fit(D, y)
        cmp = compare_remedies(K, y, cv=3)
        rep = isvm.sanity_report(
            make_pipeline(FlipEigenvalues(),
                          isvm.IndefiniteSVC(kernel="precomputed")).fit(K, y), K, y)
        from indefsvm.plotting import plot_remedies

        plot_remedies(cmp, K)
    assert search.best_params_ == ref_search.best_params_
    np.testing.assert_array_equal(search.cv_results_["mean_test_score"],
                                  ref_search.cv_results_["mean_test_score"])
    for m in ref_cmp.fold_errors:
        np.testing.assert_array_equal(cmp.fold_errors[m], ref_cmp.fold_errors[m])
    assert rep.verdict == ref_rep.verdict
    assert rep.to_dict()["wMw"] == pytest.approx(ref_rep.to_dict()["wMw"])


def test_the_explorer_is_the_same_under_a_pandas_output_config():
    X, y, _, _ = _data(24)
    X = X[:, :2]
    ref = isvm.explore(X, y, kernel="sigmoid", remedies=("none", "flip", "clip"))
    with sklearn.config_context(transform_output="pandas"):
        got = isvm.explore(X, y, kernel="sigmoid", remedies=("none", "flip", "clip"))
    assert got.to_dict() == ref.to_dict()


def test_distance_kernel_takes_set_output():
    pd = pytest.importorskip("pandas")
    D = np.abs(np.subtract.outer(np.arange(6.0), np.arange(6.0)))
    K = isvm.DistanceKernel().set_output(transform="pandas").fit_transform(D)
    assert isinstance(K, pd.DataFrame)
    assert list(K.columns) == [f"distancekernel{i}" for i in range(6)]
    np.testing.assert_allclose(K.to_numpy(), isvm.DistanceKernel().fit_transform(D))
