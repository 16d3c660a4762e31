"""SeriesSearchCV: DTW's methods, move-split-merge's and the global alignment kernel's on
the same folds, the choice by cross-validated score, the refit, the cost said before the
work."""

import logging

import numpy as np
import pytest
from sklearn.model_selection import RepeatedStratifiedKFold, StratifiedKFold

import indefsvm as isvm
from indefsvm.distances import gak_sigma
from indefsvm.remedies._series_search import SERIES_CS


@pytest.fixture(scope="module")
def cbf():
    S, y = isvm.datasets.make_cbf(60, length=(40, 60), noise=1.5, random_state=2)
    return list(S), np.asarray(y)


def test_each_search_is_remedysearchcv_on_its_matrix_and_the_same_folds(cbf):
    S, y = cbf
    search = isvm.SeriesSearchCV(gak_sigmas=(1.0,), cv=3, random_state=0).fit(S, y)
    # the default: 3 folds shuffled 5 times, C to 1e4 in every search
    folds = RepeatedStratifiedKFold(n_splits=3, n_repeats=5, random_state=0)
    grid = {"C": [0.01, 0.1, 1, 10, 100, 1e3, 1e4]}
    D = isvm.pairwise_distances(S, metric="dtw")
    dtw = isvm.RemedySearchCV(kernel=isvm.DistanceKernel(), cv=folds,
                              param_grid=grid).fit(D, y)
    msm = isvm.RemedySearchCV(kernel=isvm.DistanceKernel(), cv=folds, param_grid=grid).fit(
        isvm.pairwise_distances(S, metric="msm"), y)
    K = isvm.kernel_matrix(S, kernel="gak", sigma=gak_sigma(S))
    gak = isvm.RemedySearchCV(methods=["indefinite SVM", "features", "k-NN"],
                              cv=folds, param_grid=grid).fit(K, y)
    assert search.cost_["splits"] == 15
    for name, ref in (("DTW", dtw), ("MSM", msm), ("GAK x 1", gak)):
        ours = search.searches_[name].cv_results_
        assert search.searches_[name].n_splits_ == 15
        assert ours["params"] == ref.cv_results_["params"]
        for f in range(15):
            np.testing.assert_array_equal(ours[f"split{f}_test_score"],
                                          ref.cv_results_[f"split{f}_test_score"])
    # the choice: the best cross-validated score of the three, exact ties in that order (it
    # beat 1-NN on DTW by more than a standard error here: the baseline rule kept nothing),
    # and its refit predicts
    refs = {"DTW": dtw, "MSM": msm, "GAK x 1": gak}
    best = max(refs, key=lambda k: (refs[k].best_score_, -list(refs).index(k)))
    assert search.baseline_gain_["mean"] > search.baseline_gain_["se"]
    assert search.best_search_name_ == best
    assert search.best_score_ == refs[best].best_score_
    T, _ = isvm.datasets.make_cbf(12, length=(40, 60), noise=1.5, random_state=9)
    rows = (isvm.kernel_matrix(list(T), S, kernel="gak", sigma=gak_sigma(S)) if best[:3] ==
            "GAK" else isvm.pairwise_distances(list(T), S, metric=best.lower()))
    np.testing.assert_array_equal(search.predict(list(T)), refs[best].predict(rows))
    assert search.best_params_["kernel"] == best[:3]


def test_the_alignment_kernel_is_chosen_where_it_wins():
    """Two classes of noisy sine bursts whose only difference is the burst's frequency, at
    random places: the alignment kernel's SVM separates them on the folds far better than
    anything on DTW's best alignment, and the search chooses it."""
    rng = np.random.default_rng(0)
    S, y = [], []
    for k in range(60):
        c = k % 2
        L = 80
        s = rng.normal(scale=0.6, size=L)
        at = rng.integers(0, L - 30)
        s[at:at + 30] += np.sin(np.arange(30) * (0.5 if c else 0.8))
        S.append(s)
        y.append(c)
    y = np.array(y)
    # (against DTW alone: move-split-merge, which also counts a burst's steps, does as well)
    search = isvm.SeriesSearchCV(elastic=(), gak_sigmas=(1.0,), cv=3).fit(S, y)
    dtw, gak = search.searches_["DTW"].best_score_, search.searches_["GAK x 1"].best_score_
    assert gak > dtw
    assert search.best_search_name_ == "GAK x 1" and search.sigma_ == gak_sigma(S)


def test_the_cost_is_said_before_the_work(cbf, caplog):
    S, y = cbf
    with caplog.at_level(logging.INFO, logger="indefsvm"):
        search = isvm.SeriesSearchCV(gak_sigmas=(0.5, 2.0), cv=3, verbose=True).fit(S, y)
    first = caplog.records[0].getMessage()
    assert first.startswith("SeriesSearchCV: 60 series; DTW ")
    assert ", MSM " in first and "2 sigma(s)" in first
    assert "then 4 searches on the same 15 splits: " in first
    assert first.endswith(f"{search.cost_['fits']} fits of their methods, gamma, C and k")
    L = np.mean([len(s) for s in S])
    assert search.cost_["dtw_cells"] == pytest.approx(60 * 59 / 2 * L * L)
    assert search.cost_["gak_cells"] == pytest.approx(2 * 60 * 61 / 2 * L * L)
    assert search.cost_["elastic_cells"] == {"msm": pytest.approx(60 * 59 / 2 * L * L)}
    assert sorted(search.searches_) == ["DTW", "GAK x 0.5", "GAK x 2", "MSM"]


def test_bad_settings_are_refused_by_name(cbf):
    S, y = cbf
    with pytest.raises(ValueError, match="gak_sigmas must be numbers > 0"):
        isvm.SeriesSearchCV(gak_sigmas=(1.0, -2.0)).fit(S, y)
    with pytest.raises(ValueError, match="one label a series"):
        isvm.SeriesSearchCV().fit(S, y[:-1])
    with pytest.raises(ValueError, match="Cs must be one or more numbers > 0"):
        isvm.SeriesSearchCV(Cs=(1.0, 0.0)).fit(S, y)
    with pytest.raises(ValueError, match="Cs must be one or more numbers > 0"):
        isvm.SeriesSearchCV(Cs=()).fit(S, y)
    with pytest.raises(ValueError, match="n_repeats"):
        isvm.SeriesSearchCV(n_repeats=0).fit(S, y)
    for bad in (("dtw",), ("gak",), ("levenshtein",), ("msm", "msm"), ("warp",), (1,)):
        with pytest.raises(ValueError, match="^elastic must name series metrics of the "
                                             "metric table other than dtw"):
            isvm.SeriesSearchCV(elastic=bad).fit(S, y)


def test_a_registered_series_metric_is_searched_by_name(cbf):
    """elastic takes a metric added to the table from here: its distance kernel is searched
    with DTW's methods, and a model that chose it predicts from its distances."""
    from indefsvm import _metrics

    S, y = cbf

    def ends(X, Y):
        # the distance between the series' first and last points (a pseudo-metric)
        a = np.array([[s[0], s[-1]] for s in X])
        b = np.array([[s[0], s[-1]] for s in Y])
        return np.abs(a[:, None, :] - b[None, :, :]).sum(axis=2)

    before = dict(_metrics.REGISTRY)
    isvm.register_metric("ends", ends, objects="series")
    try:
        search = isvm.SeriesSearchCV(elastic=("ends",), gak_sigmas=(), methods=["k-NN"],
                                     cv=3, n_repeats=1, rule="best").fit(S, y)
        ref = isvm.RemedySearchCV(kernel=isvm.DistanceKernel(), methods=["k-NN"],
                                  cv=StratifiedKFold(3, shuffle=True, random_state=0)).fit(
            ends(S, S), y)
        assert search.searches_["ENDS"].best_score_ == ref.best_score_
        assert "ends" in search.cost_["elastic_cells"]
        search.metric_ = "ends"  # as if it had been chosen: predicts from its distances
        search.best_estimator_ = search.searches_["ENDS"]
        np.testing.assert_array_equal(search.predict(S[:10]), ref.predict(ends(S[:10], S)))
    finally:
        _metrics.REGISTRY.clear()
        _metrics.REGISTRY.update(before)


def test_one_shuffle_and_a_given_grid_of_c_reach_every_search(cbf):
    """n_repeats=1 is one StratifiedKFold shuffle (the folds of RemedySearchCV's own integer
    cv); Cs is the C of every SVM candidate of every search, and nothing else is."""
    S, y = cbf
    search = isvm.SeriesSearchCV(gak_sigmas=(1.0,), cv=3, n_repeats=1, Cs=(0.5, 50.0),
                                 random_state=4).fit(S, y)
    K = isvm.kernel_matrix(S, kernel="gak", sigma=gak_sigma(S))
    ref = isvm.RemedySearchCV(methods=["indefinite SVM", "features", "k-NN"],
                              cv=StratifiedKFold(3, shuffle=True, random_state=4),
                              param_grid={"C": [0.5, 50.0]}).fit(K, y)
    ours = search.searches_["GAK x 1"]
    assert ours.n_splits_ == 3 and search.cost_["splits"] == 3
    for f in range(3):
        np.testing.assert_array_equal(ours.cv_results_[f"split{f}_test_score"],
                                      ref.cv_results_[f"split{f}_test_score"])
    for s in search.searches_.values():
        cs = {p["C"] for p in s.cv_results_["params"] if p["method"] != "k-NN"}
        assert cs == {0.5, 50.0}
    assert SERIES_CS[-1] == 1e4 and isvm.SeriesSearchCV().Cs == SERIES_CS


def test_a_splitter_is_used_as_given_and_n_repeats_with_it_refused(cbf):
    S, y = cbf
    folds = list(StratifiedKFold(2, shuffle=True, random_state=1).split(S, y))
    search = isvm.SeriesSearchCV(gak_sigmas=(), cv=iter(folds)).fit(S, y)
    # a generator of splits is held once: the DTW search saw both
    assert search.searches_["DTW"].n_splits_ == 2 and search.cost_["splits"] == 2
    with pytest.raises(ValueError, match="n_repeats repeats an integer cv"):
        isvm.SeriesSearchCV(cv=StratifiedKFold(3), n_repeats=2).fit(S, y)


def test_the_fits_said_first_are_the_fits_made(cbf):
    """cost_["fits"], said before the distances, is every search's candidates (as its
    cv_results_ lists them) times the splits."""
    S, y = cbf
    search = isvm.SeriesSearchCV(gak_sigmas=(0.5, 1.0), cv=3, n_repeats=2).fit(S, y)
    made = sum(len(s.cv_results_["params"]) * s.n_splits_
               for s in search.searches_.values())
    assert search.cost_["splits"] == 6 and search.cost_["fits"] == made


def test_methods_choose_what_each_kernel_weighs(cbf, caplog):
    S, y = cbf
    search = isvm.SeriesSearchCV(methods=["clip", "k-NN"], gak_sigmas=(1.0,), cv=3,
                                 n_repeats=1).fit(S, y)
    meth = {name: {p["method"] for p in s.cv_results_["params"]}
            for name, s in search.searches_.items()}
    # the alignment kernel is positive definite: clip has nothing to fix there
    assert meth == {"DTW": {"clip", "k-NN"}, "MSM": {"clip", "k-NN"}, "GAK x 1": {"k-NN"}}
    # a fix only: the alignment kernel takes none of them and is left out, said in the cost
    with caplog.at_level(logging.INFO, logger="indefsvm"):
        only = isvm.SeriesSearchCV(methods=["flip"], cv=3, n_repeats=1,
                                   verbose=True).fit(S, y)
    assert sorted(only.searches_) == ["DTW", "MSM"] and only.cost_["gak_cells"] == 0
    assert "at 0 sigma(s)" in caplog.records[0].getMessage()
    with pytest.raises(ValueError, match=r"unknown methods \['warp'\]"):
        isvm.SeriesSearchCV(methods=["warp"]).fit(S, y)


def test_folds_a_class_cannot_fill_are_refused_before_the_distances(cbf, monkeypatch):
    S, y = cbf
    two = np.concatenate([np.flatnonzero(y == c)[:2] for c in np.unique(y)])
    import indefsvm.distances as d

    def never(*a, **k):
        raise AssertionError("the distances were computed before the refusal")

    monkeypatch.setattr(d, "pairwise_distances", never)
    with pytest.raises(ValueError, match=r"cv must be at most 2, the largest class's size "
                                         r"\(5 stratified folds need 5 series of a class\); "
                                         r"give cv from 2 to 2"):
        isvm.SeriesSearchCV().fit([S[i] for i in two], y[two])
    one = np.array([np.flatnonzero(y == c)[0] for c in np.unique(y)])
    with pytest.raises(ValueError, match="cv has no folds to make: every class holds one"):
        isvm.SeriesSearchCV(cv=2).fit([S[i] for i in one], y[one])
    with pytest.raises(ValueError, match="number of classes has to be greater than one"):
        isvm.SeriesSearchCV(cv=2).fit([S[i] for i in two[:2]], y[two[:2]])


def _one_nn_rows(search):
    res = search.cv_results_
    i = next(i for i, p in enumerate(res["params"])
             if p == {"method": "k-NN", "n_neighbors": 1})
    return np.array([res[f"split{f}_test_score"][i] for f in range(search.n_splits_)])


def test_one_nn_on_dtw_is_kept_unless_beaten_by_more_than_a_standard_error():
    """Six series a class, three folds: the gain of the best candidate over 1-NN on DTW,
    split by split, is computed here from the searches' own per-split scores; 1-NN is kept
    exactly when that gain is within one standard error, and then predicts as a plain
    1-NN on the DTW distances."""
    kept = beaten = 0
    for noise, seed in ((0.2, 0), (2.5, 0), (2.5, 1)):
        S, y = isvm.datasets.make_cbf(60, length=(40, 60), noise=noise, random_state=5)
        y = np.asarray(y)
        keep = np.concatenate([np.flatnonzero(y == c)[:6] for c in np.unique(y)])
        Str, ytr = [S[i] for i in keep], y[keep]
        T = [S[i] for i in range(60) if i not in set(keep)]
        search = isvm.SeriesSearchCV(gak_sigmas=(1.0,), cv=3, random_state=seed).fit(Str, ytr)
        plain = isvm.SeriesSearchCV(gak_sigmas=(1.0,), cv=3, random_state=seed,
                                    rule="best").fit(Str, ytr)
        name = max(plain.searches_, key=lambda k: (plain.searches_[k].best_score_,
                                                   k == "DTW"))
        top = plain.searches_[name]
        res = top.cv_results_
        gains = np.array([res[f"split{f}_test_score"][top.best_index_]
                          for f in range(top.n_splits_)]) - _one_nn_rows(plain.searches_["DTW"])
        se = gains.std(ddof=1) / np.sqrt(gains.size)
        g = search.baseline_gain_
        assert (g["mean"], g["se"]) == pytest.approx((gains.mean(), se))
        assert g["kept_1nn"] == (not gains.mean() > se)
        if gains.mean() > se:
            beaten += 1
            assert search.best_search_name_ == name
            assert search.best_params_["method"] == top.best_method_
        else:
            kept += 1
            assert search.best_params_ == {"kernel": "DTW", "method": "k-NN",
                                           "n_neighbors": 1}
            D = isvm.pairwise_distances(T, Str, metric="dtw")
            np.testing.assert_array_equal(search.predict(T), ytr[np.argmin(D, axis=1)])
            assert not hasattr(search, "decision_function")
    assert kept and beaten  # both sides of the rule were exercised
    # without k-NN among the methods there is no baseline to keep
    no_knn = isvm.SeriesSearchCV(methods=["clip", "features"], gak_sigmas=(), cv=2,
                                 n_repeats=1).fit(Str, ytr)
    assert no_knn.baseline_gain_ is None and no_knn.best_params_["method"] != "k-NN"


def test_one_nn_on_dtw_is_kept_where_a_training_fold_has_one_series_a_class():
    S, y = isvm.datasets.make_cbf(60, length=(40, 60), noise=1.5, random_state=3)
    y = np.asarray(y)
    keep = np.concatenate([np.flatnonzero(y == c)[:2] for c in np.unique(y)])
    Str, ytr = [S[i] for i in keep], y[keep]
    T = [S[i] for i in range(60) if i not in set(keep)]
    search = isvm.SeriesSearchCV(gak_sigmas=(1.0,), cv=2).fit(Str, ytr)
    assert search.baseline_gain_["kept_1nn"]
    assert search.baseline_gain_["why"].startswith("a training fold holds 1 series of a class")
    assert search.best_params_ == {"kernel": "DTW", "method": "k-NN", "n_neighbors": 1}
    D = isvm.pairwise_distances(T, Str, metric="dtw")
    np.testing.assert_array_equal(search.predict(T), ytr[np.argmin(D, axis=1)])
    # rule="best" takes the folds' winner all the same
    best = isvm.SeriesSearchCV(gak_sigmas=(1.0,), cv=2, rule="best").fit(Str, ytr)
    assert best.baseline_gain_ is None
    top = max(best.searches_.values(), key=lambda s: s.best_score_)
    assert best.best_score_ == top.best_score_
