"""Issue 43, item 2: a fitted model vouches for itself. Each class a model file can hold
checks its own loaded state (``_check_fitted_state``); the model-file loader keeps only what
belongs to files (trusted types, archive limits, the pipelines fit writes)."""

from __future__ import annotations

import inspect
import warnings

import numpy as np
import pytest

import indefsvm as isvm
from indefsvm import _modelfile
from indefsvm._fitted import UnsoundState
from indefsvm.remedies import FlipEigenvalues

X, Y = isvm.datasets.load_heart(return_X_y=True)
X, Y = X[:80], Y[:80]


def _fitted():
    K = isvm.kernel_matrix(X, kernel="sigmoid", gamma=0.01, coef0=-0.5)
    D = isvm.pairwise_distances(X, metric="cityblock")
    S, ys = isvm.datasets.make_cbf(30, length=24, random_state=0)
    return {
        "svc": isvm.IndefiniteSVC(kernel="sigmoid", gamma=0.01, coef0=-0.5).fit(X, Y),
        "krein": isvm.KreinSVC(kernel="sigmoid", gamma=0.01, coef0=-0.5).fit(X, Y),
        "fix": FlipEigenvalues().fit(K),
        "dk": isvm.DistanceKernel().fit(D),
        "ny": isvm.NystroemSVC(n_components=20, random_state=0).fit(X, Y),
        "series": isvm.NystroemSVC(metric="dtw", n_components=10, random_state=0).fit(S, ys),
    }


@pytest.mark.parametrize("key", ["svc", "krein", "fix", "dk", "ny", "series"])
def test_a_sound_fitted_model_vouches_for_itself(key):
    _fitted()[key]._check_fitted_state()  # raises nothing


@pytest.mark.parametrize("key, attr, words", [
    ("svc", "_dual_coef_", "dual_coef values that are NaN"),
    ("krein", "beta_", "Krein SVM coefficients"),
    ("fix", "projector_", "kernel fix whose projector"),
    ("ny", "coef_", "coef values that are NaN"),
    ("series", "coef_", "weights of the wrong shape, NaN"),
])
def test_a_nan_in_a_fitted_array_is_named(key, attr, words):
    model = _fitted()[key]
    value = np.array(getattr(model, attr), dtype=float)
    value.flat[0] = np.nan
    setattr(model, attr, value)
    with pytest.raises(UnsoundState, match=words):
        model._check_fitted_state()


def test_other_unsound_states():
    models = _fitted()
    svc = models["svc"]
    svc.support_ = svc.support_ + 1000
    with pytest.raises(UnsoundState, match="support indices outside 0 ... 79"):
        svc._check_fitted_state()
    dk = models["dk"]
    dk.gamma_ = -1.0
    with pytest.raises(UnsoundState, match="gamma -1.0 is not a finite number > 0"):
        dk._check_fitted_state()
    ny = models["ny"]
    ny.nystroem_._name = "sigmoid"
    with pytest.raises(UnsoundState, match="features with a kernel other than its own"):
        ny._check_fitted_state()
    with pytest.raises(UnsoundState, match="never fitted"):
        isvm.KreinSVC()._check_fitted_state()


def test_the_loader_holds_no_checker_of_a_class():
    # what is left in the model-file module is about files: no function that knows one
    # class's fitted attributes
    names = [n for n, f in inspect.getmembers(_modelfile, inspect.isfunction)
             if f.__module__ == _modelfile.__name__]
    assert not [n for n in names if n.startswith("_check_") and n not in (
        "_check_model", "_check_path", "_check_archive")], names
    source = inspect.getsource(_modelfile)
    for attr in ("support_", "beta_", "normalization_", "projector_", "dual_coef"):
        assert f'"{attr}' not in source and f"'{attr}" not in source, attr


def _refit_cases():
    rng = np.random.default_rng(0)
    X = rng.normal(size=(60, 8))
    y = (X[:, 0] > 0).astype(int)
    K = np.tanh(X @ X.T / 8 - 0.5)
    D = np.sqrt(((X[:, None] - X[None]) ** 2).sum(-1))
    S = list(X)  # the rows as series
    ny = dict(n_components=10, random_state=0)
    return {
        "KreinSVC rbf -> precomputed": (isvm.KreinSVC, {}, {"kernel": "rbf"},
                                        {"kernel": "precomputed"}, (X, y), (K, y)),
        "KernelLogisticRegression rbf -> precomputed": (
            isvm.KernelLogisticRegression, {}, {"kernel": "rbf"}, {"kernel": "precomputed"},
            (X, y), (K, y)),
        "ConvexHullClassifier rbf -> precomputed": (
            isvm.ConvexHullClassifier, {}, {"kernel": "rbf"}, {"kernel": "precomputed"},
            (X, y), (K, y)),
        "ConvexHullClassifier rbf -> distances": (
            isvm.ConvexHullClassifier, {}, {"kernel": "rbf"},
            {"metric": "precomputed_distance"}, (X, y), (D, y)),
        "IndefiniteSVC rbf -> precomputed": (isvm.IndefiniteSVC, {}, {"kernel": "rbf"},
                                             {"kernel": "precomputed"}, (X, y), (K, y)),
        "KreinNystroem vectors -> dtw": (isvm.KreinNystroem, ny, {}, {"metric": "dtw"},
                                         (X,), (S,)),
        "NystroemSVC vectors -> dtw": (isvm.NystroemSVC, ny, {}, {"metric": "dtw"},
                                       (X, y), (S, y)),
        "NystroemSVC nystroem -> d2ke": (isvm.NystroemSVC, dict(ny, metric="dtw"), {},
                                         {"features": "d2ke"}, (S, y), (S, y)),
        "RemedySearchCV refit -> refit=False": (
            isvm.RemedySearchCV, dict(cv=3, methods=["flip"]), {}, {"refit": False},
            (K, y), (K[:40, :40], y[:40])),
        "RemedySearchCV features -> kernel": (
            isvm.RemedySearchCV, dict(cv=3, methods=["flip"]),
            {"kernel": isvm.FeatureKernel(kernel="sigmoid")}, {"kernel": None}, (X, y), (K, y)),
    }


@pytest.mark.parametrize("case", list(_refit_cases()))
def test_a_refit_keeps_nothing_of_the_previous_fit(case):
    # KreinSVC, KernelLogisticRegression and ConvexHullClassifier refitted on a precomputed
    # kernel kept the training vectors of their last fit (in memory and in a saved file), and
    # a landmark model refitted on objects kept the last fit's n_features_in_, and a search
    # refitted with refit=False its last best_estimator_ (a model of other data)
    cls, common, first, second, data1, data2 = _refit_cases()[case]
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        refitted = cls(**common, **first).fit(*data1).set_params(**second).fit(*data2)
        fresh = cls(**common, **second).fit(*data2)
    assert sorted(vars(refitted)) == sorted(vars(fresh))
