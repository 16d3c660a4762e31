"""Similarities as features (``indefsvm.remedies.SimilarityFeatures``) and the remedy
table's method ``"features"``: a linear SVM on them, against pipelines built by hand on the
same folds."""

import numpy as np
import pytest
from sklearn.model_selection import GridSearchCV, StratifiedKFold
from sklearn.pipeline import Pipeline
from sklearn.preprocessing import StandardScaler

import indefsvm as isvm
from indefsvm.remedies import METHODS, SimilarityFeatures
from indefsvm.remedies._features import SimilarityKernel


@pytest.fixture(scope="module")
def series():
    X, y = isvm.datasets.make_cbf(90, noise=2.0, random_state=3)
    D = isvm.pairwise_distances(X, metric="dtw", window=0.1)
    return D, y


def test_features_are_standardised_columns_scaled_to_unit_rows():
    rng = np.random.default_rng(0)
    R = rng.normal(size=(40, 12)) * rng.uniform(0.1, 10, size=12) + 3.0
    R[:, 5] = 2.5  # a column every training row has the same similarity to
    f = SimilarityFeatures().fit(R)
    Z = f.transform(R)
    ref = StandardScaler().fit(np.delete(R, 5, axis=1)).transform(np.delete(R, 5, axis=1))
    np.testing.assert_allclose(np.delete(Z, 5, axis=1), ref / np.sqrt(12), atol=1e-12)
    assert np.all(Z[:, 5] == 0)
    # the training rows' squared norms are 1 on average (11 of 12 columns carry variance)
    assert np.mean(np.sum(Z**2, axis=1)) == pytest.approx(11 / 12, rel=1e-12)
    # new rows with the training rows' means and scales
    S = rng.normal(size=(3, 12))
    np.testing.assert_allclose(f.transform(S), (S - R.mean(0)) / f.scale_, atol=1e-12)
    with pytest.raises(ValueError, match="12 features"):
        f.transform(S[:, :5])


def test_the_table_has_the_features_method():
    assert "features" in METHODS
    from indefsvm._remedies import BY_NAME

    assert not BY_NAME["features"].remedy  # not a fix of the kernel: no fit --remedy


def test_features_scores_equal_gridsearchcv_of_the_pipeline(series):
    """Cold-started as the indefinite SVM is, the method's fold scores are exactly
    GridSearchCV's on the same folds, gamma and C, of DistanceKernel -> SimilarityKernel ->
    IndefiniteSVC; and within one test sample those of the linear SVM on the features
    (SimilarityFeatures, then IndefiniteSVC(kernel="linear"): another arithmetic)."""
    D, y = series
    g0 = isvm.DistanceKernel().fit(D).gamma_
    gam, Cs = [g0 / 4, g0, g0 * 4], [0.1, 1.0, 100.0]
    search = isvm.RemedySearchCV(methods=["features"], kernel=isvm.DistanceKernel(),
                                 param_grid={"gamma": gam, "C": Cs}, cv=4,
                                 random_state=0).fit(D, y)
    cv = StratifiedKFold(4, shuffle=True, random_state=0)
    ours = {(p["gamma"], p["C"]): i for i, p in enumerate(search.cv_results_["params"])}
    same = GridSearchCV(Pipeline([("kernel", isvm.DistanceKernel()),
                                  ("fix", SimilarityKernel()),
                                  ("svm", isvm.IndefiniteSVC(kernel="precomputed"))]),
                        {"kernel__gamma": gam, "svm__C": Cs}, cv=cv).fit(D, y)
    linear = GridSearchCV(Pipeline([("kernel", isvm.DistanceKernel()),
                                    ("features", SimilarityFeatures()),
                                    ("svm", isvm.IndefiniteSVC(kernel="linear"))]),
                          {"kernel__gamma": gam, "svm__C": Cs}, cv=cv).fit(D, y)
    for gs, exact in ((same, True), (linear, False)):
        for j, p in enumerate(gs.cv_results_["params"]):
            i = ours[(p["kernel__gamma"], p["svm__C"])]
            for f in range(4):
                a = search.cv_results_[f"split{f}_test_score"][i]
                b = gs.cv_results_[f"split{f}_test_score"][j]
                if exact:
                    assert a == b
                else:
                    assert abs(a - b) <= 1.0 / 22 + 1e-12
    # refitted, the chosen model is that pipeline's model and predicts as it does
    p = search.best_params_
    hand = Pipeline([("kernel", isvm.DistanceKernel(gamma=p["gamma"])),
                     ("fix", SimilarityKernel()),
                     ("svm", isvm.IndefiniteSVC(kernel="precomputed", C=p["C"]))]).fit(D, y)
    np.testing.assert_array_equal(search.predict(D[:20]), hand.predict(D[:20]))


def test_the_search_chooses_features_where_they_win():
    """Two classes told by the first two of six coordinates (inside or outside a circle),
    the four others noise four times larger; L1 distances. On the search's folds the linear
    SVM on the kernel rows errs least (about 0.21 against the indefinite SVM's 0.27 and
    1-NN's 0.38): the search chooses it, and its refit is that pipeline's."""
    rng = np.random.default_rng(0)
    X = rng.normal(size=(120, 6))
    y = (np.linalg.norm(X[:, :2], axis=1) > 1.2).astype(int)
    X[:, 2:] *= 4.0
    D = np.abs(X[:, None, :] - X[None, :, :]).sum(axis=2)
    search = isvm.RemedySearchCV(methods=["indefinite SVM", "features", "k-NN"],
                                 kernel=isvm.DistanceKernel(), cv=4, random_state=0).fit(D, y)
    errors = {m: search.comparison_.mean_error(m) for m in ("indefinite SVM", "features",
                                                            "k-NN")}
    assert search.best_params_["method"] == "features"
    assert errors["features"] < min(errors["indefinite SVM"], errors["k-NN"]) - 0.03
    p = search.best_params_
    hand = Pipeline([("kernel", isvm.DistanceKernel(gamma=p["gamma"])),
                     ("fix", SimilarityKernel()),
                     ("svm", isvm.IndefiniteSVC(kernel="precomputed", C=p["C"]))]).fit(D, y)
    np.testing.assert_array_equal(search.predict(D), hand.predict(D))


def test_features_do_not_depend_on_the_similarities_scale():
    """Standardised columns are the same for R and c R: near 1e300 (whose squares overflow)
    and 1e-170 (whose squares underflow) as well -- the moments are taken of R / 2^e."""
    rng = np.random.default_rng(1)
    R = rng.normal(size=(30, 8))
    Z = SimilarityFeatures().fit_transform(R)
    for c in (2.0**1000, 2.0**-560, 1e300, 1e-170):
        f = SimilarityFeatures().fit(R * c)
        np.testing.assert_allclose(f.transform(R * c), Z, rtol=1e-12, atol=1e-14)
