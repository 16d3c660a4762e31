"""``compare_remedies(..., sample_weight=w)``: weighted SVMs in every fold, the inner search
of C scored by weighted accuracy, weighted test errors.

References: the unweighted comparison (unit weights, where scikit-learn's GridSearchCV
chooses C); RemedySearchCV's weighted folds (the same folds and models); the folds fitted
and scored by hand."""

from __future__ import annotations

import numpy as np
import pytest
from sklearn.model_selection import StratifiedKFold

import indefsvm as isvm
from indefsvm.remedies import FlipEigenvalues


@pytest.fixture(scope="module")
def heart():
    X, y = isvm.datasets.load_heart(return_X_y=True)
    K = isvm.kernel_matrix(X, kernel="sigmoid", gamma=0.01, coef0=-0.5)
    w = np.random.default_rng(0).integers(0, 3, size=len(y)).astype(float)
    return K, y, w


@pytest.mark.parametrize("grid", [None, {"C": [0.1, 1.0, 10.0]}])
def test_unit_weights_are_the_unweighted_comparison(heart, grid):
    K, y, _ = heart
    plain = isvm.compare_remedies(K, y, cv=3, methods=["flip", "clip"], param_grid=grid)
    unit = isvm.compare_remedies(K, y, cv=3, methods=["flip", "clip"], param_grid=grid,
                                 sample_weight=np.ones(len(y)))
    for m in plain.methods:
        np.testing.assert_array_equal(unit.fold_errors[m], plain.fold_errors[m])
        # our weighted inner search chooses the C scikit-learn's GridSearchCV chose
        assert unit.chosen[m] == plain.chosen[m]


def test_weighted_folds_are_fitted_and_scored_with_the_weights(heart):
    K, y, w = heart
    cmp = isvm.compare_remedies(K, y, cv=3, methods=["flip"], sample_weight=w)
    for k, (tr, te) in enumerate(StratifiedKFold(3).split(K, y)):
        svm = isvm.IndefiniteSVC(kernel="precomputed").fit(K[np.ix_(tr, tr)], y[tr],
                                                           sample_weight=w[tr])
        wrong = svm.predict(K[np.ix_(te, tr)]) != y[te]
        assert cmp.fold_errors["indefinite SVM"][k] == pytest.approx(
            np.sum(w[te] * wrong) / np.sum(w[te]))
        fix = FlipEigenvalues().fit(K[np.ix_(tr, tr)])
        svm = isvm.IndefiniteSVC(kernel="precomputed").fit(
            fix.transform(K[np.ix_(tr, tr)]), y[tr], sample_weight=w[tr])
        wrong = svm.predict(fix.transform(K[np.ix_(te, tr)])) != y[te]
        assert cmp.fold_errors["flip"][k] == pytest.approx(np.sum(w[te] * wrong) / w[te].sum())
    assert any("weighted by sample_weight" in note for note in cmp.notes)


def test_the_same_folds_as_the_weighted_remedy_search(heart):
    K, y, w = heart
    cmp = isvm.compare_remedies(K, y, cv=3, methods=["flip", "clip"], sample_weight=w)
    search = isvm.RemedySearchCV(param_grid={"C": [1.0]}, cv=3,
                                 methods=["flip", "clip"]).fit(K, y, sample_weight=w)
    for m in ("flip", "clip"):
        np.testing.assert_allclose(cmp.fold_errors[m], search.comparison_.fold_errors[m])


def test_weight_zero_leaves_a_sample_out(heart):
    K, y, w = heart
    keep = np.flatnonzero(w > 0)
    # leaving the weight-0 samples out of a fold's training part changes nothing
    cmp = isvm.compare_remedies(K, y, cv=3, methods=["clip"], sample_weight=(w > 0) * 1.0)
    for k, (tr, te) in enumerate(StratifiedKFold(3).split(K, y)):
        tr_kept = np.intersect1d(tr, keep)
        svm = isvm.IndefiniteSVC(kernel="precomputed").fit(K[np.ix_(tr_kept, tr_kept)],
                                                           y[tr_kept])
        te_kept = np.intersect1d(te, keep)
        err = np.mean(svm.predict(K[np.ix_(te_kept, tr_kept)]) != y[te_kept])
        assert cmp.fold_errors["indefinite SVM"][k] == pytest.approx(err)


def test_refusals_and_the_k_nn_warning(heart):
    K, y, w = heart
    with pytest.raises(ValueError, match="sample_weight"):
        isvm.compare_remedies(K, y, cv=3, sample_weight=-w)
    with pytest.raises(ValueError, match="sample_weight"):
        isvm.compare_remedies(K, y, cv=3, sample_weight=w[:-1])
    zero_fold = np.ones(len(y))
    zero_fold[next(StratifiedKFold(3).split(K, y))[1]] = 0.0
    with pytest.raises(ValueError, match="test fold 1"):
        isvm.compare_remedies(K, y, cv=3, methods=["flip"], sample_weight=zero_fold)
    with pytest.warns(UserWarning, match="k-NN ranks and votes its neighbours unweighted"):
        isvm.compare_remedies(K, y, cv=3, methods=["k-NN"], sample_weight=w)
