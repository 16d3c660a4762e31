"""SeriesSearchCV: DTW's methods and the global alignment kernel's on the same folds, the
choice by cross-validated score, the refit, the cost said before the work."""

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
    K = isvm.kernel_matrix(S, kernel="gak", sigma=gak_sigma(S))
    gak = isvm.RemedySearchCV(methods=["indefinite SVM", "features", "k-NN"],
                              cv=folds, param_grid=grid).fit(K, y)
    assert search.cost_["splits"] == 15
    for name, ref in (("DTW", dtw), ("GAK x 1", gak)):
        ours = search.searches_[name].cv_results_
        assert search.searches_[name].n_splits_ == 15
        assert ours["params"] == ref.cv_results_["params"]
        for f in range(15):
            np.testing.assert_array_equal(ours[f"split{f}_test_score"],
                                          ref.cv_results_[f"split{f}_test_score"])
    # the choice: the best cross-validated score of the two, and its refit predicts
    scores = {"DTW": dtw.best_score_, "GAK x 1": gak.best_score_}
    best = max(scores, key=lambda k: (scores[k], k == "DTW"))
    assert search.best_search_name_ == best
    assert search.best_score_ == scores[best]
    T, _ = isvm.datasets.make_cbf(12, length=(40, 60), noise=1.5, random_state=9)
    rows = (isvm.pairwise_distances(list(T), S, metric="dtw") if best == "DTW" else
            isvm.kernel_matrix(list(T), S, kernel="gak", sigma=gak_sigma(S)))
    want = (dtw if best == "DTW" else gak).predict(rows)
    np.testing.assert_array_equal(search.predict(list(T)), want)
    assert search.best_params_["kernel"] == ("DTW" if best == "DTW" else "GAK")


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
    search = isvm.SeriesSearchCV(gak_sigmas=(1.0,), cv=3).fit(S, y)
    dtw, gak = search.searches_["DTW"].best_score_, search.searches_["GAK x 1"].best_score_
    assert gak > dtw
    assert search.best_search_name_ == "GAK x 1" and search.sigma_ == gak_sigma(S)


def test_the_cost_is_said_before_the_work(cbf, caplog):
    S, y = cbf
    with caplog.at_level(logging.INFO, logger="indefsvm"):
        search = isvm.SeriesSearchCV(gak_sigmas=(0.5, 2.0), cv=3, verbose=True).fit(S, y)
    first = caplog.records[0].getMessage()
    assert first.startswith("SeriesSearchCV: 60 series; DTW ")
    assert "2 sigma(s)" in first and "then 3 searches of C (7 values)" in first
    assert first.endswith("on the same 15 splits")
    L = np.mean([len(s) for s in S])
    assert search.cost_["dtw_cells"] == pytest.approx(60 * 59 / 2 * L * L)
    assert search.cost_["gak_cells"] == pytest.approx(2 * 60 * 61 / 2 * L * L)
    assert sorted(search.searches_) == ["DTW", "GAK x 0.5", "GAK x 2"]


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
