# ruff: noqa: F811  (heart_kernel is a fixture imported from test_load_file.py)
"""RemedySearchCV: the search against GridSearchCV on the same folds, the refit against a
manual refit, scikit-learn's composition (cross_val_score, Pipeline), the grid's contract,
determinism; the advanced shift and the truncated L1 kernel."""

import numpy as np
import pytest
import sklearn
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from sklearn.model_selection import GridSearchCV, StratifiedKFold, cross_val_score
from sklearn.neighbors import KNeighborsClassifier
from sklearn.pipeline import Pipeline
from test_load_file import heart_kernel  # noqa: F401 (a fixture)

import indefsvm as isvm
from indefsvm.remedies import (
    METHODS,
    AdvancedShiftEigenvalues,
    ClipEigenvalues,
    FlipEigenvalues,
    KernelRanking,
    ShiftEigenvalues,
    SquareKernel,
)
from indefsvm.remedies._compare import choose_method
from indefsvm.remedies._features import SimilarityKernel

#: GridSearchCV weights its test scores by sample_weight since scikit-learn 1.7 (PR #30743);
#: 1.6, the oldest the library supports, weighted the fits only, and is no reference there
_GRID_WEIGHS_SCORES = tuple(int(v) for v in sklearn.__version__.split(".")[:2]) >= (1, 7)


@pytest.fixture(scope="module")
def series():
    X, y = isvm.datasets.make_cbf(90, noise=2.0, random_state=3)
    D = isvm.pairwise_distances(X, metric="dtw", window=0.1)
    return X, D, y


@pytest.fixture(scope="module")
def sigmoid():
    X, y = isvm.datasets.load_heart(return_X_y=True)
    K = isvm.kernel_matrix(X, kernel="sigmoid", gamma=0.01, coef0=0.5)
    return K, y


def _fixed(method):
    return {"clip": ClipEigenvalues(), "flip": FlipEigenvalues(), "shift": ShiftEigenvalues(),
            "advanced shift": AdvancedShiftEigenvalues(), "square": SquareKernel(),
            "CNE": ClipEigenvalues(centered=True), "RNE": FlipEigenvalues(centered=True),
            "features": SimilarityKernel()}[method]


def _manual(method, params, kernel=True):
    """The estimator a user would build by hand for a method and its parameters."""
    steps = []
    if kernel and method != "k-NN":
        steps.append(("kernel", isvm.DistanceKernel(gamma=params["gamma"])))
    if method == "k-NN":
        knn = KNeighborsClassifier(n_neighbors=params["n_neighbors"], metric="precomputed")
        return knn if kernel else Pipeline([("distance", KernelRanking()), ("knn", knn)])
    if method == "Krein SVM":
        steps.append(("svm", isvm.KreinSVC(kernel="precomputed", C=params["C"])))
    else:
        if method != "indefinite SVM":
            steps.append(("fix", _fixed(method)))
        steps.append(("svm", isvm.IndefiniteSVC(kernel="precomputed", C=params["C"])))
    return steps[0][1] if len(steps) == 1 else Pipeline(steps)


# -- the search is GridSearchCV on the same folds ----------------------------------------------


def test_indefinite_svm_scores_equal_gridsearchcv(series):
    """Cold-started, the indefinite SVM's fold scores are exactly GridSearchCV's on the same
    folds, gamma and C (a search that scored something else would differ here)."""
    _, D, y = series
    g0 = isvm.DistanceKernel().fit(D).gamma_
    gam, Cs = [g0 / 16, g0, g0 * 4], [0.1, 1.0, 100.0]
    search = isvm.RemedySearchCV(methods=["indefinite SVM"], kernel=isvm.DistanceKernel(),
                                 param_grid={"gamma": gam, "C": Cs}, cv=4,
                                 random_state=0).fit(D, y)
    gs = GridSearchCV(_manual("indefinite SVM", {"gamma": 1.0, "C": 1.0}),
                      {"kernel__gamma": gam, "svm__C": Cs},
                      cv=StratifiedKFold(4, shuffle=True, random_state=0)).fit(D, y)
    ours = {(p["gamma"], p["C"]): i for i, p in enumerate(search.cv_results_["params"])}
    for j, p in enumerate(gs.cv_results_["params"]):
        i = ours[(p["kernel__gamma"], p["svm__C"])]
        for f in range(4):
            assert search.cv_results_[f"split{f}_test_score"][i] == \
                gs.cv_results_[f"split{f}_test_score"][j]


def test_many_classes_and_class_weights_score_as_gridsearchcv():
    """Five classes (ten one-vs-one problems: the fold models' one product of all pairs)
    with class weights: the indefinite SVM's fold scores are GridSearchCV's exactly, and the
    warm-started flip's to within one test sample."""
    X, y = isvm.datasets.make_cbf(60, random_state=2)
    y = np.where(np.arange(y.shape[0]) % 2 == 0, y, y + 3)  # 3 -> 5 classes (0..5, 5 used)
    y[y == 3] = 0
    assert np.unique(y).shape[0] == 5
    D = isvm.pairwise_distances(X, metric="dtw", window=0.1)
    K = isvm.DistanceKernel().fit_transform(D)
    Cs, cw = [0.1, 1.0, 10.0], {0: 3.0, 4: 0.5}
    folds = StratifiedKFold(3, shuffle=True, random_state=0)
    for method, exact in (("indefinite SVM", True), ("flip", False)):
        search = isvm.RemedySearchCV(methods=[method], param_grid={"C": Cs}, cv=3,
                                     class_weight=cw, random_state=0).fit(K, y)
        est = _manual(method, {"C": 1.0}, kernel=False)
        svm = est if not isinstance(est, Pipeline) else est.named_steps["svm"]
        svm.set_params(class_weight=cw)
        key = "svm__C" if isinstance(est, Pipeline) else "C"
        gs = GridSearchCV(est, {key: Cs}, cv=folds).fit(K, y)
        a = np.array([[search.cv_results_[f"split{f}_test_score"][i] for f in range(3)]
                      for i in range(3)])
        b = np.array([[gs.cv_results_[f"split{f}_test_score"][i] for f in range(3)]
                      for i in range(3)])
        if exact:
            assert np.array_equal(a, b)
        else:
            assert np.max(np.abs(a - b)) <= 1.0 / 20 + 1e-12


@pytest.mark.parametrize("method", ["clip", "flip", "shift", "advanced shift", "square", "CNE",
                                    "RNE", "Krein SVM"])
def test_warm_started_fixes_score_as_gridsearchcv(sigmoid, method):
    """The fixes share one eigendecomposition per fold and warm-start the C grid; their
    fold scores agree with GridSearchCV on the public pipeline to within one test sample
    (the duals are solved to tol = 1e-3 from another start), and on most folds exactly."""
    K, y = sigmoid
    Cs = [0.1, 1.0, 10.0]
    search = isvm.RemedySearchCV(methods=[method], param_grid={"C": Cs}, cv=3,
                                 random_state=1).fit(K, y)
    est = _manual(method, {"C": 1.0}, kernel=False)
    key = "svm__C" if isinstance(est, Pipeline) else "C"
    gs = GridSearchCV(est, {key: Cs}, cv=StratifiedKFold(3, shuffle=True, random_state=1)
                      ).fit(K, y)
    a = np.array([[search.cv_results_[f"split{f}_test_score"][i] for f in range(3)]
                  for i in range(3)])
    b = np.array([[gs.cv_results_[f"split{f}_test_score"][i] for f in range(3)]
                  for i in range(3)])
    assert np.max(np.abs(a - b)) <= 1.0 / 90 + 1e-12
    assert np.mean(a == b) >= 0.75


def test_knn_on_a_kernel_ranks_as_the_kernel_distance(sigmoid):
    """KernelRanking gives the neighbours of the kernel's distance sqrt(k_xx + K_ii - 2
    k_xi): the same k-NN predictions as on the full distance matrix."""
    K, y = sigmoid
    d = np.diag(K)
    D = np.sqrt(np.maximum(d[:, None] + d[None, :] - 2 * K, 0))
    tr, te = np.arange(0, 270, 2), np.arange(1, 270, 2)
    a = KNeighborsClassifier(5, metric="precomputed").fit(D[np.ix_(tr, tr)], y[tr])
    b = Pipeline([("d", KernelRanking()), ("k", KNeighborsClassifier(5, metric="precomputed"))]
                 ).fit(K[np.ix_(tr, tr)], y[tr])
    assert np.array_equal(a.predict(D[np.ix_(te, tr)]), b.predict(K[np.ix_(te, tr)]))


# -- the refit ----------------------------------------------------------------------------------


@pytest.mark.parametrize("method", METHODS)
def test_refit_equals_a_manual_refit(series, method):
    """refit=True: best_estimator_'s predictions and decision values equal those of the same
    method with best_params_ built and fitted by hand."""
    X, D, y = series
    te = np.arange(1, 90, 3)
    tr = np.setdiff1d(np.arange(90), te)
    Dtr, Dte = D[np.ix_(tr, tr)], D[np.ix_(te, tr)]
    grid = {"n_neighbors": [1, 3]} if method == "k-NN" else {"C": [0.1, 10.0]}
    search = isvm.RemedySearchCV(methods=[method], kernel=isvm.DistanceKernel(),
                                 param_grid=grid, cv=3, random_state=0).fit(Dtr, y[tr])
    assert search.best_method_ == method
    manual = _manual(method, search.best_params_).fit(Dtr, y[tr])
    assert np.array_equal(search.predict(Dte), manual.predict(Dte))
    if method != "k-NN":
        assert np.array_equal(search.decision_function(Dte), manual.decision_function(Dte))
    assert search.score(Dte, y[te]) == manual.score(Dte, y[te])


def test_refit_false_keeps_the_choice_only(sigmoid):
    K, y = sigmoid
    s = isvm.RemedySearchCV(methods=["flip"], param_grid={"C": [1.0]}, cv=3, refit=False,
                            random_state=0).fit(K, y)
    assert s.best_params_ == {"method": "flip", "C": 1.0}
    assert not hasattr(s, "best_estimator_")
    with pytest.raises(AttributeError, match="refit=False"):
        s.predict(K)


# -- the choice ---------------------------------------------------------------------------------


def test_choice_follows_the_paired_one_se_rule(sigmoid):
    """best_method_ is choose_method of the per-fold errors of each method at its best
    parameters, and the comparison holds those errors."""
    K, y = sigmoid
    s = isvm.RemedySearchCV(param_grid={"C": [0.1, 10.0]}, cv=4, random_state=0).fit(K, y)
    res = s.cv_results_
    errs = {}
    for m in s.comparison_.methods:
        rows = [i for i, p in enumerate(res["params"]) if p["method"] == m]
        i = rows[int(np.argmax(res["mean_test_score"][rows]))]
        errs[m] = 1 - np.array([res[f"split{f}_test_score"][i] for f in range(4)])
        assert np.allclose(s.comparison_.fold_errors[m], errs[m])
    assert s.best_method_ == choose_method(errs)[0]
    assert s.best_params_ == res["params"][s.best_index_]
    assert s.best_score_ == res["mean_test_score"][s.best_index_]
    assert "Recommendation" in str(s.comparison_) and s.comparison_._repr_html_()
    assert set(s.comparison_.to_dict()["methods"]) == set(METHODS)


def test_cv_results_layout(series):
    """scikit-learn's layout: params, masked param_ columns, splits, means, ranks, times."""
    _, D, y = series
    s = isvm.RemedySearchCV(methods=["flip", "k-NN", "advanced shift"],
                            kernel=isvm.DistanceKernel(),
                            param_grid={"gamma": [0.01, 0.1], "C": [1.0, 10.0],
                                        "n_neighbors": [1, 3], "rank": ["auto", 5]},
                            cv=3, random_state=0).fit(D, y)
    res = s.cv_results_
    n = 2 * 2 + 2 + 2 * 2 * 2
    assert len(res["params"]) == n
    for key in ("mean_test_score", "std_test_score", "rank_test_score", "mean_fit_time",
                "std_fit_time", "mean_score_time", "std_score_time", "split0_test_score",
                "split2_test_score", "param_C", "param_gamma", "param_n_neighbors",
                "param_rank", "param_method"):
        assert len(res[key]) == n, key
    knn = res["param_method"] == "k-NN"
    assert res["param_C"].mask[knn].all() and not res["param_C"].mask[~knn].any()
    assert res["param_rank"].mask[res["param_method"] != "advanced shift"].all()
    best = res["mean_test_score"].max()
    assert (res["rank_test_score"][res["mean_test_score"] == best] == 1).all()
    assert np.all(res["mean_fit_time"] > 0)


def test_default_grid_tunes_gamma_around_the_kernels_rule(series):
    """With a DistanceKernel and no gamma given, gamma runs over the median rule times
    4^-4 ... 4^2 (seven values), C over 0.01 ... 100."""
    _, D, y = series
    s = isvm.RemedySearchCV(methods=["indefinite SVM"], kernel=isvm.DistanceKernel(), cv=3,
                            random_state=0).fit(D, y)
    g0 = isvm.DistanceKernel().fit(D).gamma_
    gams = sorted({p["gamma"] for p in s.cv_results_["params"]})
    assert np.allclose(gams, [g0 * 4.0 ** k for k in range(-4, 3)])
    assert sorted({p["C"] for p in s.cv_results_["params"]}) == [0.01, 0.1, 1.0, 10.0, 100.0]


# -- scikit-learn's composition -----------------------------------------------------------------


def test_inside_cross_val_score_and_a_pipeline(series):
    """cross_val_score slices the distance matrix on both axes (the pairwise tag); in a
    Pipeline after PairwiseDistances the search runs on raw series."""
    X, D, y = series
    search = isvm.RemedySearchCV(methods=["indefinite SVM", "flip", "k-NN"],
                                 kernel=isvm.DistanceKernel(),
                                 param_grid={"C": [1.0, 10.0]}, cv=3, random_state=0)
    scores = cross_val_score(search, D, y, cv=3)
    assert scores.shape == (3,) and scores.min() > 0.6
    pipe = Pipeline([("dtw", isvm.PairwiseDistances("dtw", window=0.1)), ("search", search)])
    pipe.fit(X[:60], y[:60])
    direct = search.fit(D[:60, :60], y[:60]).predict(D[60:, :60])
    assert np.array_equal(pipe.predict(X[60:]), direct)


def test_custom_scoring_and_class_weight(sigmoid):
    K, y = sigmoid
    s = isvm.RemedySearchCV(methods=["indefinite SVM", "flip"], param_grid={"C": [1.0]},
                            cv=3, scoring="roc_auc", class_weight="balanced",
                            random_state=0).fit(K, y)
    assert 0.5 < s.best_score_ <= 1.0
    assert "minus the score (roc_auc)" in str(s.comparison_)
    assert s.best_estimator_.named_steps["svm"].class_weight == "balanced" \
        if isinstance(s.best_estimator_, Pipeline) else s.best_estimator_.class_weight
    assert 0.5 < s.score(K, y) <= 1.0


# -- the grid's contract ------------------------------------------------------------------------


@pytest.mark.parametrize("kw, match", [
    ({"param_grid": {"gamma": [0.1]}}, "no kernel parameter to tune"),
    ({"param_grid": {"C": [1.0], "coef0": [1]}}, r"unknown keys \['coef0'\]"),
    ({"param_grid": {"C": 1.0}}, "must be a list"),
    ({"param_grid": {"C": []}}, "is empty"),
    ({"param_grid": {"C": [0.0]}}, "finite numbers > 0"),
    ({"param_grid": {"n_neighbors": [500]}}, "more than the"),
    ({"param_grid": {"rank": [1.5]}}, "share in"),
    ({"methods": ["banana"]}, "unknown methods"),
    ({"methods": []}, "methods is empty"),
    ({"cv": 1}, "The 'cv' parameter of RemedySearchCV"),
    # in our words, not StratifiedKFold's n_splits, which the user never gave
    ({"cv": 1000}, r"cv=1000 stratified folds need 1000 samples of a class at least; the "
                   r"largest class has \d+: give cv from 2 to \d+"),
    ({"scoring": ["accuracy", "roc_auc"]}, "one scoring metric"),
])
def test_bad_settings_are_named(sigmoid, kw, match):
    K, y = sigmoid
    with pytest.raises(ValueError, match=match):
        isvm.RemedySearchCV(**kw).fit(K, y)


def test_bad_inputs_are_named(sigmoid):
    K, y = sigmoid
    with pytest.raises(ValueError, match="square"):
        isvm.RemedySearchCV().fit(K[:, :10], y)
    with pytest.raises(ValueError, match="got 1 class"):
        isvm.RemedySearchCV().fit(K[:5, :5], np.ones(5))
    bad = K.copy()
    bad[0, 1] += 1.0
    with pytest.raises(ValueError, match="symmetric"):
        isvm.RemedySearchCV().fit(bad, y)
    with pytest.raises(ValueError, match="gamma"):
        isvm.RemedySearchCV(kernel=isvm.DistanceKernel("linear"),
                            param_grid={"gamma": [1.0]}).fit(np.abs(K - K.max()), y)


def test_numpy_integer_cv_and_determinism(series):
    """cv=np.int64(3) is an integer; a seed gives the same search, with one job or two."""
    _, D, y = series
    kw = dict(methods=["indefinite SVM", "clip", "k-NN"], kernel=isvm.DistanceKernel(),
              param_grid={"gamma": [0.01, 0.05], "C": [1.0, 10.0]}, random_state=4)
    a = isvm.RemedySearchCV(cv=np.int64(3), **kw).fit(D, y)
    b = isvm.RemedySearchCV(cv=3, n_jobs=2, **kw).fit(D, y)
    for f in range(3):
        assert np.array_equal(a.cv_results_[f"split{f}_test_score"],
                              b.cv_results_[f"split{f}_test_score"])
    assert a.best_params_ == b.best_params_
    assert np.array_equal(a.predict(D), b.predict(D))


def test_compare_remedies_refuses_keys_it_ignored_and_takes_numpy_cv(sigmoid):
    K, y = sigmoid
    with pytest.raises(ValueError, match="RemedySearchCV"):
        isvm.compare_remedies(K, y, param_grid={"gamma": [0.1]})
    cmp = isvm.compare_remedies(K, y, cv=np.int64(3), random_state=0, methods=["flip"])
    assert cmp.cv == 3


def test_verbose_logs_tasks(sigmoid, caplog):
    import logging

    K, y = sigmoid
    with caplog.at_level(logging.INFO, logger="indefsvm"):
        isvm.RemedySearchCV(methods=["flip"], param_grid={"C": [1.0]}, cv=3, verbose=True,
                            random_state=0).fit(K, y)
    assert sum("RemedySearchCV: task" in r.getMessage() for r in caplog.records) == 3


def test_stopped_fits_warn(sigmoid, monkeypatch):
    """Fits that stop at max_iter are counted and reported in one ConvergenceWarning."""
    from indefsvm.remedies import _folds as _search  # the per-fold engine calls the solver

    real = _search.DualPath
    monkeypatch.setattr(_search, "DualPath",
                        lambda *a, **k: real(*a, **{**k, "max_iter": 2}))
    K, y = sigmoid
    with pytest.warns(isvm.ConvergenceWarning, match="stopped at max_iter"):
        isvm.RemedySearchCV(methods=["indefinite SVM"], param_grid={"C": [10.0]}, cv=3,
                            random_state=0).fit(K, y)


# -- the advanced shift and the truncated L1 kernel ---------------------------------------------


def test_advanced_shift_is_a_shift_of_the_kept_directions():
    rng = np.random.default_rng(0)
    U, _ = np.linalg.qr(rng.normal(size=(8, 8)))
    lam = np.array([-2.0, -0.5, 0.01, 0.02, 0.3, 1.0, 3.0, 5.0])
    K = (U * lam) @ U.T
    K = (K + K.T) / 2
    a = AdvancedShiftEigenvalues().fit(K)
    # auto: the directions amplified in a test row ((lam + s) / lam) at most 10 times as
    # much as lam = 5's (1.4): -2, -0.5, 0.3, 1, 3 and 5, each lifted by s = 2; 0.01 and
    # 0.02 (amplified 201 and 101 times) are the null space
    assert a.rank_ == 6 and np.isclose(a.shift_, 2.0)
    assert np.isclose(a.amplification_, 2.3 / 0.3)
    Kt = a.fit_transform(K)
    assert np.allclose(np.sort(np.linalg.eigvalsh(Kt)), [0, 0, 0, 1.5, 2.3, 3, 5, 7],
                       atol=1e-10)
    assert np.allclose(a.transform(K), Kt, atol=1e-10)  # training rows: the fixed kernel
    # every direction: 0.01 is amplified 201 times in a test row, which is said
    with pytest.warns(UserWarning, match=r"rank=8 keeps the direction of eigenvalue 0\.01, "
                                         r"which the transform of test rows amplifies 201"):
        b = AdvancedShiftEigenvalues(rank=8).fit(K)
    assert np.allclose(np.sort(np.linalg.eigvalsh(b.fit_transform(K))), np.sort(lam + 2.0))
    c = AdvancedShiftEigenvalues(rank=0.5).fit(K)  # 5 + 3 of sum |lam| = 11.83 is over half
    assert c.rank_ == 2
    with pytest.raises(ValueError, match="The 'rank' parameter of AdvancedShiftEigenvalues"):
        AdvancedShiftEigenvalues(rank=-1).fit(K)
    with pytest.raises(ValueError, match=r"The 'rank' parameter of AdvancedShiftEigenvalues "
                       r"must be a str among \{'auto'\}, an int in the range \[1, inf\) or a "
                       r"float in the range \(0.0, 1.0\]"):
        AdvancedShiftEigenvalues(rank=1.5).fit(K)  # neither a count nor a share
    # a PSD kernel keeps everything above 0 and is not shifted
    P = (U * np.abs(lam)) @ U.T
    p = AdvancedShiftEigenvalues().fit((P + P.T) / 2)
    assert p.shift_ == 0.0 and np.allclose(p.fit_transform((P + P.T) / 2), (P + P.T) / 2)


def test_tl1_kernel():
    rng = np.random.default_rng(1)
    X, Y = rng.uniform(size=(20, 3)), rng.uniform(size=(7, 3))
    K = isvm.kernel_matrix(X, Y, kernel="tl1")
    ref = np.maximum(0.7 * 3 - np.abs(X[:, None, :] - Y[None, :, :]).sum(-1), 0)
    assert np.allclose(K, ref)
    assert np.allclose(isvm.kernel_matrix(X, Y, kernel="tl1", rho=0.5),
                       np.maximum(0.5 - np.abs(X[:, None, :] - Y[None, :, :]).sum(-1), 0))
    with pytest.raises(ValueError, match="rho must be"):
        isvm.kernel_matrix(X, kernel="tl1", rho=0.0)
    clf = isvm.IndefiniteSVC(kernel="tl1", kernel_params={"rho": 1.0}).fit(
        X, (X[:, 0] > 0.5).astype(int))
    assert clf.score(X, (X[:, 0] > 0.5).astype(int)) > 0.8
    # as a distance kernel: max(1 - gamma d, 0), gamma by 1 / median(d)
    D = isvm.pairwise_distances(X, metric="cityblock")
    dk = isvm.DistanceKernel("tl1").fit(D)
    iu = np.triu_indices(20, 1)
    assert np.isclose(dk.gamma_, 1 / np.median(D[iu]))
    assert np.allclose(dk.transform(D), np.maximum(1 - dk.gamma_ * D, 0))
    assert np.allclose(isvm.DistanceKernel("tl1", gamma=1 / 2.1).fit(D).transform(D) * 2.1,
                       isvm.kernel_matrix(X, kernel="tl1"))


def test_interrupt_leaves_the_search_unfitted(sigmoid, monkeypatch):
    from indefsvm.remedies import _folds as _search  # the per-fold engine calls the solver

    def stop(*a, **k):
        raise KeyboardInterrupt

    monkeypatch.setattr(_search, "DualPath", stop)
    K, y = sigmoid
    s = isvm.RemedySearchCV(methods=["flip"], param_grid={"C": [1.0]}, cv=3)
    with pytest.raises(KeyboardInterrupt):
        s.fit(K, y)
    assert not hasattr(s, "cv_results_") and not hasattr(s, "n_features_in_")


def test_rule_best_and_a_bad_rule(sigmoid):
    K, y = sigmoid
    kw = dict(methods=["indefinite SVM", "square", "flip"], param_grid={"C": [1.0, 10.0]},
              cv=3, random_state=0)
    s = isvm.RemedySearchCV(rule="best", **kw).fit(K, y)
    means = {m: s.comparison_.mean_error(m) for m in s.comparison_.methods}
    assert means[s.best_method_] == min(means.values())
    with pytest.raises(ValueError, match="The 'rule' parameter of RemedySearchCV"):
        isvm.RemedySearchCV(rule="banana", **kw).fit(K, y)


# -- properties (hypothesis) --------------------------------------------------------------------

@settings(max_examples=25, deadline=None, derandomize=True,
          suppress_health_check=[HealthCheck.too_slow])
@given(st.integers(12, 30), st.integers(0, 10_000), st.sampled_from([2, 3]),
       st.sampled_from(["one-se", "best"]))
def test_search_properties_on_random_kernels(n, seed, n_classes, rule):
    """On any symmetric kernel and labels: scores in [0, 1]; each method's best point is
    its maximum; the choice is a method whose mean is within its reported standard error
    of the best (one-se) or the best (best); best_score_ is its cv_results_ row; the refit
    predicts the classes; the same seed gives the same search."""
    rng = np.random.default_rng(seed)
    A = rng.normal(size=(n, n))
    K = np.tanh((A + A.T) / 4)
    y = np.arange(n) % n_classes
    rng.shuffle(y)
    kw = dict(methods=["indefinite SVM", "clip", "flip", "square", "k-NN"],
              param_grid={"C": [0.1, 10.0]}, cv=2, rule=rule, random_state=seed)
    s = isvm.RemedySearchCV(**kw).fit(K, y)
    res = s.cv_results_
    assert np.all((res["mean_test_score"] >= 0) & (res["mean_test_score"] <= 1))
    means = {m: s.comparison_.mean_error(m) for m in s.comparison_.methods}
    for m in s.comparison_.methods:
        rows = [i for i, p in enumerate(res["params"]) if p["method"] == m]
        assert np.isclose(1 - means[m], res["mean_test_score"][rows].max())
    best = min(means.values())
    _, _, paired = choose_method(s.comparison_.fold_errors, rule)
    md, se = paired[s.best_method_]
    assert md <= (se if rule == "one-se" else 0.0) + 1e-12
    assert means[s.best_method_] <= best + (se if rule == "one-se" else 0.0) + 1e-12
    assert s.best_score_ == res["mean_test_score"][s.best_index_]
    assert set(np.unique(s.predict(K))) <= set(np.unique(y))
    again = isvm.RemedySearchCV(**kw).fit(K, y)
    assert again.best_params_ == s.best_params_
    assert np.array_equal(again.cv_results_["mean_test_score"], res["mean_test_score"])


def test_bad_distances_are_refused_before_any_fold(series):
    _, D, y = series
    bad = D.copy()
    bad[0, 1] = bad[1, 0] = -1.0
    with pytest.raises(ValueError, match=r"RemedySearchCV\(kernel=None\)"):
        isvm.RemedySearchCV(kernel=isvm.DistanceKernel()).fit(bad, y)
    bad = D.copy()
    bad[0, 1] += 1.0
    with pytest.raises(ValueError, match="not symmetric"):
        isvm.RemedySearchCV(kernel=isvm.DistanceKernel()).fit(bad, y)


# -- sample weights: those GridSearchCV gives the SVM step --------------------------------------


def _weighted_fold_scores(method, K, y, sw, Cs, folds):
    """Each C's fold scores by hand: the method's estimator fitted on the training part with
    its samples' weights (the SVM step's), scored by weighted accuracy on the test part."""
    from sklearn.metrics import accuracy_score

    out = np.zeros((len(Cs), len(folds)))
    for c, C in enumerate(Cs):
        for f, (tr, te) in enumerate(folds):
            est = _manual(method, {"C": C}, kernel=False)
            key = "svm__sample_weight" if isinstance(est, Pipeline) else "sample_weight"
            est.fit(K[np.ix_(tr, tr)], y[tr], **{key: sw[tr]})
            out[c, f] = accuracy_score(y[te], est.predict(K[np.ix_(te, tr)]),
                                       sample_weight=sw[te])
    return out


@pytest.mark.parametrize("method", ["indefinite SVM", "flip", "Krein SVM"])
def test_sample_weights_weight_the_svms_and_the_scores_as_gridsearchcv(sigmoid, method):
    """The folds' SVMs get C_i = C * weight of their training samples (zero weights leave
    samples out) and each test fold is scored by weighted accuracy: the fold scores of a
    loop by hand, to within the weight of one test sample (warm starts), and GridSearchCV's
    own where it routes the weights to both (a bare estimator)."""
    K, y = sigmoid
    rng = np.random.default_rng(4)
    sw = rng.uniform(0.2, 3.0, y.shape[0])
    sw[rng.choice(y.shape[0], 12, replace=False)] = 0.0
    Cs = [0.1, 1.0, 10.0]
    cv = StratifiedKFold(3, shuffle=True, random_state=1)
    folds = list(cv.split(K, y))
    search = isvm.RemedySearchCV(methods=[method], param_grid={"C": Cs}, cv=3,
                                 random_state=1).fit(K, y, sample_weight=sw)
    a = np.array([[search.cv_results_[f"split{f}_test_score"][i] for f in range(3)]
                  for i in range(3)])
    b = _weighted_fold_scores(method, K, y, sw, Cs, folds)
    one = max(sw[te].max() / sw[te].sum() for _, te in folds)
    assert np.max(np.abs(a - b)) <= one + 1e-12
    assert np.mean(np.isclose(a, b, rtol=0, atol=1e-12)) >= 0.75
    if method != "flip" and _GRID_WEIGHS_SCORES:
        est = _manual(method, {"C": 1.0}, kernel=False)
        gs = GridSearchCV(est, {"C": Cs}, cv=cv).fit(K, y, sample_weight=sw)
        np.testing.assert_allclose(gs.cv_results_["mean_test_score"], a.mean(axis=1),
                                   atol=one)
    # the weights reached the folds: the unweighted search scores otherwise
    plain = isvm.RemedySearchCV(methods=[method], param_grid={"C": Cs}, cv=3,
                                random_state=1).fit(K, y)
    assert not np.array_equal(plain.cv_results_["mean_test_score"],
                              search.cv_results_["mean_test_score"])
    # and the refit: the chosen estimator fitted with the weights, by hand
    best = _manual(method, {"C": search.best_params_["C"]}, kernel=False)
    best.fit(K, y, **({"svm__sample_weight": sw} if isinstance(best, Pipeline)
                      else {"sample_weight": sw}))
    np.testing.assert_allclose(search.decision_function(K[:20]), best.decision_function(K[:20]),
                               atol=1e-10)


def test_sample_weights_with_a_distance_kernel_and_knn(series):
    _, D, y = series
    sw = np.where(np.arange(y.shape[0]) % 3 == 0, 2.0, 1.0)
    with pytest.warns(UserWarning, match="k-NN ranks and votes its neighbours unweighted"):
        search = isvm.RemedySearchCV(methods=["indefinite SVM", "k-NN"],
                                     kernel=isvm.DistanceKernel(), cv=3,
                                     random_state=0).fit(D, y, sample_weight=sw)
    plain = isvm.RemedySearchCV(methods=["indefinite SVM", "k-NN"],
                                kernel=isvm.DistanceKernel(), cv=3, random_state=0).fit(D, y)
    res, ref = search.cv_results_, plain.cv_results_
    knn = res["method"] == "k-NN"
    # k-NN's fits unweighted, its scores weighted; the SVMs' fits weighted too
    assert not np.array_equal(res["mean_test_score"][~knn], ref["mean_test_score"][~knn])
    from sklearn.metrics import accuracy_score
    from sklearn.neighbors import KNeighborsClassifier

    folds = list(StratifiedKFold(3, shuffle=True, random_state=0).split(D, y))
    k = int(res["param_n_neighbors"][knn][0])
    by_hand = np.mean([accuracy_score(
        y[te], KNeighborsClassifier(k, metric="precomputed").fit(
            D[np.ix_(tr, tr)], y[tr]).predict(D[np.ix_(te, tr)]), sample_weight=sw[te])
        for tr, te in folds])
    assert res["mean_test_score"][knn][0] == pytest.approx(by_hand, abs=1e-12)
    svm = search.fit_method("indefinite SVM", D, y, sample_weight=sw)
    assert svm.steps[-1][1].class_weight_ is not None
    with pytest.raises(ValueError, match="k-NN takes no sample_weight"):
        search.fit_method("k-NN", D, y, sample_weight=sw)


def test_bad_sample_weights_of_the_search_are_refused_by_name(sigmoid):
    K, y = sigmoid
    with pytest.raises(ValueError, match="sample_weight must be >= 0"):
        isvm.RemedySearchCV(methods=["flip"], cv=3).fit(
            K, y, sample_weight=np.r_[-1.0, np.ones(y.shape[0] - 1)])
    with pytest.raises(ValueError, match="sample_weight.shape"):
        isvm.RemedySearchCV(methods=["flip"], cv=3).fit(K, y, sample_weight=np.ones(3))


def test_grid_keys_no_chosen_method_tunes_and_a_seed_beside_a_splitter_are_refused(sigmoid):
    # the probe of the search's options in pairs (2026-11-29): param_grid={"rank": [2]}
    # with methods=["flip"] (no advanced shift) searched nothing over it and said nothing,
    # as n_neighbors without k-NN and C with k-NN alone; random_state beside cv=KFold(3)
    # (or cv=None) shuffled nothing
    from sklearn.model_selection import KFold

    K, y = sigmoid
    K, y = K[:90][:, :90], y[:90]
    for methods, grid, keys in ((["flip"], {"rank": [2]}, r"\['rank'\]"),
                                (["flip", "clip"], {"n_neighbors": [3], "C": [1.0]},
                                 r"\['n_neighbors'\]"),
                                (["k-NN"], {"C": [1.0]}, r"\['C'\]")):
        with pytest.raises(ValueError, match=rf"param_grid has {keys}, which no method of "
                                             r"methods=.* tunes"):
            isvm.RemedySearchCV(methods=methods, param_grid=grid, cv=3).fit(K, y)
    with pytest.raises(ValueError, match=r"random_state shuffles the folds of an integer cv; "
                                         r"cv=KFold"):
        isvm.RemedySearchCV(methods=["flip"], cv=KFold(3), random_state=0).fit(K, y)
    # what applies is taken: rank with the advanced shift, and cv=None is the default 5
    # stratified folds, shuffled by random_state as cv=5 is
    s = isvm.RemedySearchCV(methods=["advanced shift"], param_grid={"rank": [2], "C": [1.0]},
                       cv=3).fit(K, y)
    assert s.best_params_["rank"] == 2
    a = isvm.RemedySearchCV(methods=["flip"], param_grid={"C": [1.0]}, cv=None,
                       random_state=4, refit=False).fit(K, y)
    b = isvm.RemedySearchCV(methods=["flip"], param_grid={"C": [1.0]}, cv=5,
                       random_state=4, refit=False).fit(K, y)
    assert a.n_splits_ == 5
    np.testing.assert_array_equal(a.cv_results_["split0_test_score"],
                                  b.cv_results_["split0_test_score"])


def test_a_kernel_whose_width_is_fixed_in_kernel_params_is_not_searched_over_gamma():
    # FeatureKernel("rbf", kernel_params={"gamma": 1}) in the search: the search set gamma
    # on it and the entry won, so all seven gamma points were one kernel (now the
    # transformer refuses a gamma given twice: the search leaves gamma alone, and a gamma
    # grid is refused naming the entry)
    rng = np.random.default_rng(6)
    X = rng.normal(size=(60, 3))
    y = (X[:, 0] > 0).astype(int)
    for entry in ({"gamma": 1.0}, {"sigma": 1.0}):
        kind = "rbf" if "gamma" in entry else "sqrt_l1_exponential"
        search = isvm.RemedySearchCV(kernel=isvm.FeatureKernel(kind, kernel_params=entry),
                                     cv=3, methods=["flip"]).fit(X, y)
        assert [p for p in search.cv_results_["params"] if "gamma" in p] == []
        assert len(search.cv_results_["params"]) == 5  # the five C, one kernel
    with pytest.raises(ValueError, match=r"fixes its width in kernel_params\['gamma'\]: drop "
                                         r"that entry to search gamma"):
        isvm.RemedySearchCV(kernel=isvm.FeatureKernel("rbf", kernel_params={"gamma": 1.0}),
                            param_grid={"gamma": [0.1, 1.0]}, cv=3).fit(X, y)


def test_n_neighbors_up_to_the_smallest_training_fold(sigmoid):
    """``k > min_train``: k equal to the smallest training fold is allowed."""
    K, y = sigmoid
    K, y = K[:30, :30], y[:30]
    folds = list(StratifiedKFold(3, shuffle=True, random_state=0).split(K, y))
    smallest = min(len(tr) for tr, _ in folds)
    s = isvm.RemedySearchCV(methods=["k-NN"], param_grid={"n_neighbors": [smallest]}, cv=3,
                            random_state=0).fit(K, y)
    assert s.best_params_ == {"method": "k-NN", "n_neighbors": smallest}
    with pytest.raises(ValueError, match="more than the"):
        isvm.RemedySearchCV(methods=["k-NN"], param_grid={"n_neighbors": [smallest + 1]},
                            cv=3, random_state=0).fit(K, y)


@pytest.mark.parametrize("rank", [1.5, 0, -1, True, "half"])
def test_rank_grid_values_are_checked_before_the_folds(sigmoid, rank):
    K, y = sigmoid
    with pytest.raises(ValueError, match=r"param_grid\['rank'\]"):
        isvm.RemedySearchCV(methods=["advanced shift"], param_grid={"rank": [rank]}).fit(K, y)


def test_probabilities_and_decisions_available_by_the_methods(sigmoid):
    """Before fit, ``predict_proba`` exists only when k-NN may be chosen and
    ``decision_function`` only when an SVM method may be; after fit, as the choice has."""
    assert hasattr(isvm.RemedySearchCV(methods=["k-NN"]), "predict_proba")
    assert not hasattr(isvm.RemedySearchCV(methods=["flip"]), "predict_proba")
    assert hasattr(isvm.RemedySearchCV(methods=["flip"]), "decision_function")
    assert not hasattr(isvm.RemedySearchCV(methods=["k-NN"]), "decision_function")
    K, y = sigmoid
    s = isvm.RemedySearchCV(methods=["k-NN"], param_grid={"n_neighbors": [5]}, cv=3,
                            random_state=0).fit(K, y)
    assert s.predict_proba(K[:4]).shape == (4, 2)
    assert not hasattr(s, "decision_function")


def test_label_count_must_match_the_matrix(sigmoid):
    """``if y.shape[0] != X.shape[0]``."""
    K, y = sigmoid
    with pytest.raises(ValueError, match="270 rows"):
        isvm.RemedySearchCV().fit(K, y[:-1])


def test_class_weights_enter_every_fold_as_in_gridsearchcv(sigmoid):
    """``C_pair = float(C) * w[idx]``: with class weights the indefinite SVM's fold scores
    are still exactly GridSearchCV's."""
    K, y = sigmoid
    cw = {-1.0: 1.0, 1.0: 4.0}
    s = isvm.RemedySearchCV(methods=["indefinite SVM"], param_grid={"C": [0.1, 1.0]},
                            class_weight=cw, cv=3, random_state=0).fit(K, y)
    gs = GridSearchCV(isvm.IndefiniteSVC(kernel="precomputed", class_weight=cw),
                      {"C": [0.1, 1.0]}, cv=StratifiedKFold(3, shuffle=True, random_state=0)
                      ).fit(K, y)
    for f in range(3):
        np.testing.assert_array_equal(s.cv_results_[f"split{f}_test_score"],
                                      gs.cv_results_[f"split{f}_test_score"])


@pytest.mark.parametrize("three", [False, True])
def test_support_vector_counts_are_the_estimators(sigmoid, three):
    """``sv[m[3][c != 0]] = True``: the comparison's #SV of the indefinite SVM is the mean
    over the folds of ``IndefiniteSVC.support_`` sizes."""
    K, y = sigmoid
    if three:
        y = np.where(np.arange(y.shape[0]) % 3 == 0, 2.0, y)
    s = isvm.RemedySearchCV(methods=["indefinite SVM", "flip"], param_grid={"C": [1.0]},
                            cv=3, random_state=0).fit(K, y)
    folds = StratifiedKFold(3, shuffle=True, random_state=0).split(K, y)
    sizes = [isvm.IndefiniteSVC(kernel="precomputed").fit(K[np.ix_(tr, tr)], y[tr])
             .support_.shape[0] for tr, _ in folds]
    assert s.comparison_.n_sv["indefinite SVM"] == pytest.approx(np.mean(sizes))
    pipe = Pipeline([("fix", isvm.remedies.FlipEigenvalues()),
                     ("svm", isvm.IndefiniteSVC(kernel="precomputed"))])
    assert s.comparison_.n_sv["flip"] == pytest.approx(np.mean([
        pipe.fit(K[np.ix_(tr, tr)], y[tr]).named_steps["svm"].support_.shape[0]
        for tr, _ in StratifiedKFold(3, shuffle=True, random_state=0).split(K, y)]), abs=2)


def test_search_warnings_point_at_the_callers_line(sigmoid, monkeypatch):
    """``stacklevel``: the ConvergenceWarning of the search names this file."""
    from indefsvm.remedies import _folds as _search  # the per-fold engine calls the solver

    real = _search.DualPath
    monkeypatch.setattr(_search, "DualPath",
                        lambda *a, **k: real(*a, **{**k, "max_iter": 2}))
    K, y = sigmoid
    with pytest.warns(isvm.ConvergenceWarning) as rec:
        isvm.RemedySearchCV(methods=["indefinite SVM"], param_grid={"C": [10.0]}, cv=3,
                            random_state=0).fit(K, y)
    assert any(r.filename == __file__ for r in rec)


def test_search_fit_times_are_durations(sigmoid):
    """``t1 - t0`` and ``t_fix + t_fit``: each candidate's fit time is positive and no
    longer than the whole search."""
    import time

    K, y = sigmoid
    t = time.perf_counter()
    s = isvm.RemedySearchCV(methods=["indefinite SVM", "flip", "k-NN"],
                            param_grid={"C": [0.1, 1.0]}, cv=3, random_state=0).fit(K, y)
    wall = time.perf_counter() - t
    res = s.cv_results_
    assert np.all(res["mean_fit_time"] > 0) and np.all(res["mean_fit_time"] < wall)
    assert np.all(res["mean_score_time"] >= 0) and np.all(res["mean_score_time"] < wall)
    flip = [i for i, p in enumerate(res["params"]) if p["method"] == "flip"]
    # flip's time holds its eigendecomposition on top of its solve
    assert res["mean_fit_time"][flip].min() > 0


def test_search_methods_must_be_a_list(sigmoid):
    """``isinstance(self.methods, str) or not iterable``: one name as a string is refused."""
    K, y = sigmoid
    with pytest.raises(ValueError, match="methods must be a list"):
        isvm.RemedySearchCV(methods="flip").fit(K, y)
    with pytest.raises(ValueError, match="methods must be a list"):
        isvm.RemedySearchCV(methods=3).fit(K, y)


def test_search_log_names_the_fold(sigmoid, caplog):
    import logging

    K, y = sigmoid
    with caplog.at_level(logging.INFO, logger="indefsvm"):
        isvm.RemedySearchCV(methods=["flip"], param_grid={"C": [1.0]}, cv=3, verbose=True,
                            random_state=0).fit(K, y)
    msgs = [r.getMessage() for r in caplog.records if "RemedySearchCV" in r.getMessage()]
    assert [m.split("(fold ")[1].split(",")[0] for m in msgs] == ["1", "2", "3"]


def test_a_training_fold_with_one_class(sigmoid):
    """A fold whose training part holds one class scores NaN (with a warning), takes no
    time, and is left out of the choice; every fold so: an error."""
    K, y = sigmoid
    one = np.flatnonzero(y == y[0])
    other = np.flatnonzero(y != y[0])
    folds = [(one[:60], np.r_[one[60:70], other[:10]]),
             (np.r_[one[:80], other[:80]], np.r_[one[80:90], other[80:90]])]
    with pytest.warns(UserWarning, match="1 of 2 training folds hold one class only"):
        s = isvm.RemedySearchCV(methods=["indefinite SVM", "k-NN"],
                                param_grid={"C": [1.0], "n_neighbors": [3]}, cv=folds).fit(K, y)
    res = s.cv_results_
    assert np.all(np.isnan(res["split0_test_score"])) and np.all(res["mean_fit_time"] < 0.5)
    assert np.all(np.isnan(res["mean_test_score"]))
    # the choice reads the second fold only
    assert s.best_score_ == res["split1_test_score"][s.best_index_]
    assert s.comparison_.cv == 1 and s.predict(K[:3]).shape == (3,)
    with pytest.raises(ValueError, match="one class only"):
        isvm.RemedySearchCV(methods=["flip"], param_grid={"C": [1.0]},
                            cv=[folds[0], folds[0]]).fit(K, y)


def test_scoring_that_needs_probabilities_is_refused_with_what_works(heart_kernel):
    K, y = heart_kernel
    with pytest.raises(ValueError, match="scoring='neg_log_loss' needs probabilities"):
        isvm.RemedySearchCV(scoring="neg_log_loss", param_grid={"C": [1.0]}, cv=2).fit(K, y)


def test_a_list_of_grids_and_a_method_key_point_to_the_right_parameter(heart_kernel):
    K, y = heart_kernel
    with pytest.raises(ValueError, match="param_grid is one dict here"):
        isvm.RemedySearchCV(param_grid=[{"C": [1.0]}], cv=2).fit(K, y)
    with pytest.raises(ValueError, match="choose them with methods="):
        isvm.RemedySearchCV(param_grid={"method": ["clip"]}, cv=2).fit(K, y)


# on 80 Euclidean distances read as a kernel, the search's clip of some folds keeps nothing
# (its own warning, a different one from the one this test counts)
@pytest.mark.filterwarnings("ignore::indefsvm.exceptions.DegenerateKernelWarning")
def test_distances_given_to_the_search_warn_once_with_the_searchs_fix():
    X, y = isvm.datasets.load_heart(return_X_y=True)
    D = isvm.pairwise_distances(X[:80], metric="euclidean")
    with pytest.warns(isvm.DistanceMatrixWarning) as record:
        isvm.RemedySearchCV(param_grid={"C": [1.0]}, cv=2).fit(D, y[:80])
    messages = [str(w.message) for w in record if w.category is isvm.DistanceMatrixWarning]
    assert len(messages) == 1
    assert "RemedySearchCV(kernel=indefsvm.DistanceKernel())" in messages[0]


def test_rows_of_the_wrong_width_tell_a_search_what_its_columns_are():
    # as IndefiniteSVC(kernel="precomputed") says it: scikit-learn's "features" are columns
    X, y = isvm.datasets.load_heart(return_X_y=True)
    X, y = X[:60], y[:60]
    K = isvm.kernel_matrix(X, kernel="sigmoid", gamma=0.01, coef0=-0.5)
    search = isvm.RemedySearchCV(param_grid={"C": [1.0]}, cv=2, methods=["flip"]).fit(K, y)
    with pytest.raises(ValueError, match=r"expecting 60 features as input: kernel rows "
                                         r"\(n_samples, 60\), one column per training"):
        search.predict(K[:, :5])
    D = isvm.pairwise_distances(X)
    search = isvm.RemedySearchCV(kernel=isvm.DistanceKernel(), param_grid={"C": [1.0]},
                                 cv=2, methods=["flip"]).fit(D, y)
    with pytest.raises(ValueError, match=r"input: distances \(n_samples, 60\)"):
        search.predict(D[:, :5])
    # and the other estimators of a precomputed kernel (NystroemSVC and the kernel logistic
    # regression said scikit-learn's words only)
    for est in (isvm.NystroemSVC(kernel="precomputed", n_components=20),
                isvm.KernelLogisticRegression(kernel="precomputed"),
                isvm.IndefiniteSVC(kernel="precomputed")):
        with pytest.raises(ValueError, match=r"kernel rows \(n_samples, 60\), one column"):
            est.fit(K, y).predict(K[:, :5])
