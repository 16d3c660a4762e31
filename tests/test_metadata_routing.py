"""scikit-learn's metadata routing (``set_config(enable_metadata_routing=True)``): sample
weights requested with ``set_fit_request`` reach every weighted estimator's fit inside
scikit-learn's meta-estimators, and RemedySearchCV, whose own pipelines took the weights in
the ``svm__sample_weight`` form that routing refuses, fits the same model with routing on
as off (it raised "Pipeline.fit got unexpected argument(s) {'svm__sample_weight'}, which are
not routed to any object")."""

import warnings

import numpy as np
import pytest
import sklearn
from sklearn.base import clone
from sklearn.model_selection import StratifiedKFold, cross_validate

import indefsvm as isvm


@pytest.fixture(scope="module")
def heart():
    X, y = isvm.datasets.load_heart(return_X_y=True)
    w = np.random.default_rng(0).uniform(0.2, 3.0, len(y))
    return X, y, w


def _routed(est):
    return est.set_fit_request(sample_weight=True).set_score_request(sample_weight=False)


@pytest.mark.parametrize("make", [
    lambda: isvm.IndefiniteSVC(kernel="sigmoid", gamma=0.01, coef0=-0.5, C=10),
    lambda: isvm.IndefiniteNuSVC(kernel="sigmoid", gamma=0.01, coef0=-0.5, nu=0.3),
    lambda: isvm.KreinSVC(kernel="sigmoid", gamma=0.01, coef0=-0.5, C=10),
    lambda: isvm.KernelLogisticRegression(kernel="sigmoid", gamma=0.01, coef0=-0.5),
    lambda: isvm.NystroemSVC(kernel="sigmoid", gamma=0.01, coef0=-0.5, n_components=60,
                             random_state=0),
], ids=["IndefiniteSVC", "IndefiniteNuSVC", "KreinSVC", "KernelLogisticRegression",
        "NystroemSVC"])
def test_routed_weights_reach_the_fit(heart, make):
    X, y, w = heart
    folds = list(StratifiedKFold(3, shuffle=True, random_state=0).split(X, y))
    # the reference: each fold fitted by hand with its weights
    expected = [clone(make()).fit(X[tr], y[tr], sample_weight=w[tr]).score(X[te], y[te])
                for tr, te in folds]
    unweighted = [clone(make()).fit(X[tr], y[tr]).score(X[te], y[te]) for tr, te in folds]
    assert expected != unweighted  # the weights change these models
    with sklearn.config_context(enable_metadata_routing=True):
        got = cross_validate(_routed(make()), X, y, cv=folds, params={"sample_weight": w},
                             error_score="raise")["test_score"]
    np.testing.assert_allclose(got, expected, rtol=0, atol=1e-12)


def test_remedy_search_fits_the_same_model_with_routing_on(heart):
    X, y, w = heart
    D = isvm.pairwise_distances(X, metric="cityblock")
    fitted = {}
    for routing in (False, True):
        with sklearn.config_context(enable_metadata_routing=routing), \
                warnings.catch_warnings():
            warnings.simplefilter("ignore")  # the k-NN of the methods is not weighted
            search = isvm.RemedySearchCV(kernel=isvm.DistanceKernel(), cv=3,
                                         random_state=0).fit(D, y, sample_weight=w)
        fitted[routing] = search
    off, on = fitted[False], fitted[True]
    assert on.best_params_ == off.best_params_
    np.testing.assert_array_equal(on.cv_results_["mean_test_score"],
                                  off.cv_results_["mean_test_score"])
    np.testing.assert_array_equal(on.decision_function(D[:20]), off.decision_function(D[:20]))
    # and the weights were used: unweighted, the search scores otherwise
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        plain = isvm.RemedySearchCV(kernel=isvm.DistanceKernel(), cv=3, random_state=0).fit(D, y)
    assert not np.array_equal(plain.cv_results_["mean_test_score"],
                              off.cv_results_["mean_test_score"])


def test_remedy_search_takes_routed_weights_inside_cross_validate(heart):
    X, y, w = heart
    D = isvm.pairwise_distances(X, metric="cityblock")
    folds = list(StratifiedKFold(3, shuffle=True, random_state=1).split(D, y))

    def search():
        return isvm.RemedySearchCV(kernel=isvm.DistanceKernel(), methods=["flip", "clip"],
                                   cv=3, random_state=0)

    expected = [search().fit(D[np.ix_(tr, tr)], y[tr], sample_weight=w[tr])
                .score(D[np.ix_(te, tr)], y[te]) for tr, te in folds]
    with sklearn.config_context(enable_metadata_routing=True):
        got = cross_validate(_routed(search()), D, y, cv=folds, params={"sample_weight": w},
                             error_score="raise")["test_score"]
    np.testing.assert_allclose(got, expected, rtol=0, atol=1e-12)
