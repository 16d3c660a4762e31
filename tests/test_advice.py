"""Issue 34: from a verdict to the model it recommends -- sanity reports for every model the
library makes, and the command line training what it recommends."""

import pytest
from sklearn.datasets import load_iris

import indefsvm as isvm

# -- item 6: sanity for every model the library makes ---------------------------------------


@pytest.fixture(scope="module")
def heart_distances():
    X, y = isvm.datasets.load_heart(return_X_y=True)
    return isvm.pairwise_distances(X[:120]), y[:120]


def test_sanity_report_of_a_search_is_that_of_its_refitted_model(heart_distances):
    D, y = heart_distances
    search = isvm.RemedySearchCV(kernel=isvm.DistanceKernel(), cv=3, random_state=0,
                                 methods=["clip", "flip"]).fit(D, y)
    rep = isvm.sanity_report(search, D, y)
    direct = isvm.sanity_report(search.best_estimator_, D, y)
    assert rep.to_dict() == direct.to_dict()
    assert rep.n == D.shape[0]


def test_sanity_report_of_a_search_that_chose_knn_says_there_is_no_dual(heart_distances):
    D, y = heart_distances
    search = isvm.RemedySearchCV(kernel=isvm.DistanceKernel(), cv=3, random_state=0,
                                 methods=["k-NN"]).fit(D, y)
    assert search.best_method_ == "k-NN"
    with pytest.raises(ValueError, match="k-NN, which has no dual problem"):
        isvm.sanity_report(search, D, y)
    unrefitted = isvm.RemedySearchCV(kernel=isvm.DistanceKernel(), cv=3, random_state=0,
                                     methods=["clip"], refit=False).fit(D, y)
    with pytest.raises(ValueError, match="refit=True"):
        isvm.sanity_report(unrefitted, D, y)


def test_a_multiclass_sanity_report_starts_with_an_overall_line():
    X, y = load_iris(return_X_y=True)
    clf = isvm.IndefiniteSVC(kernel="sigmoid", gamma=0.5, coef0=-1.0, C=1.0).fit(X, y)
    rep = isvm.sanity_report(clf, X, y)
    first = str(rep).splitlines()[0]
    assert first.startswith("Overall: ") and "of 3 one-vs-one pairs sensible" in first
    c = rep.to_dict()["counts"]
    # the counts are those of the pairs' own reports
    assert c["sensible"] == sum(r.is_stationary and r.wMw > 0 for r in rep.reports)
    assert c["not_stationary"] == sum(not r.is_stationary for r in rep.reports)
    assert c["sensible"] + c["not_stationary"] + c["counter_intuitive"] == 3
    worst = min(range(3), key=lambda i: rep.reports[i].wMw)
    if c["not_stationary"] == 0:
        assert c["worst"] == [str(v) for v in rep.pairs[worst]]
    assert rep.to_dict()["overall"] in rep._repr_html_() or "Overall" in rep._repr_html_()


def test_a_nystroem_sanity_report_reads_wmw_on_a_relative_scale():
    X, y = isvm.datasets.load_heart(return_X_y=True)
    clf = isvm.NystroemSVC(kernel="sigmoid", gamma=0.05, coef0=-1.0, n_components=80,
                           random_state=0).fit(X, y)
    rep = isvm.sanity_report(clf, X, y)
    (p,) = rep.problems
    # w'Sw / w'w recomputed here from the model's own weights and signature
    w = clf.coef_[0] * clf.metric_
    S = clf.nystroem_.signature_[:w.shape[0]]
    assert p["wMw_relative"] == pytest.approx((w * S) @ w / (w @ w), rel=1e-4)
    assert p["negative_share"] == pytest.approx(w[S < 0] @ w[S < 0] / (w @ w), rel=1e-4,
                                                abs=1e-12)
    assert -1.0 <= p["wMw_relative"] <= 1.0
    text = str(rep)
    assert "w'Sw / w'w = " in text and "of |w|^2" in text


def test_the_nystroem_reading_of_a_counter_intuitive_model_gives_advice():
    # a problem whose weights lie mostly on the negative features
    from indefsvm.diagnostics._feature_report import NystroemSanityReport, _nystroem_notes

    prob = {"classes": (0, 1), "n": 10, "n_sv": 4, "n_bounded": 1, "bounded_ratio": 0.1,
            "train_error": 0.06, "kkt_gap": 0.0, "feasibility": 0.0, "objective": -1.0,
            "wMw": -7e-06, "wMw_relative": -0.117, "negative_share": 0.5585, "margin": None,
            "class_mean_sqdist": 1.0, "coef_error": 0.0}
    rep = NystroemSanityReport(remedy="krein", n_landmarks=5, n_features=5, n_positive=3,
                               n_negative=2, tol=1e-3, is_stationary=True, problems=[prob])
    notes = " ".join(_nystroem_notes(rep, True))
    assert "-0.117" in notes and "55.9%" in notes and "smaller C" in notes
    assert "remedy='clip'" in notes
    assert "counter-intuitive" in str(rep)
    prob["wMw_relative"] = 2e-5
    notes = " ".join(_nystroem_notes(rep, True))
    assert "not determined" in notes and "counter-intuitive convex-hull" not in notes
