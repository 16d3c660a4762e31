"""Class and sample weights of KernelLogisticRegression, checked against the weighted
objective minimised here by SciPy (an independent solver on a formula written here), against
the data with the zero-weighted samples removed, and against "balanced" by hand."""

import numpy as np
import pytest
from scipy.optimize import minimize

import indefsvm as isvm


def _weighted_klr(K, y_pm, C, s):
    """min 1/2 a'a + C sum_r s_r log(1 + exp(-y_r (K a + b)_r)) by L-BFGS (SciPy)."""
    n = K.shape[0]

    def f(w):
        a, b = w[:-1], w[-1]
        z = -y_pm * (K @ a + b)
        sig = 0.5 * (1.0 + np.tanh(0.5 * z))
        r = -C * s * y_pm * sig
        return 0.5 * a @ a + C * np.sum(s * np.logaddexp(0.0, z)), np.r_[a + K @ r, r.sum()]

    res = minimize(f, np.zeros(n + 1), jac=True, method="L-BFGS-B",
                   options={"maxiter": 20_000, "gtol": 1e-10, "ftol": 1e-15})
    return res.x[:-1], res.x[-1]


@pytest.fixture(scope="module")
def data():
    X, y = isvm.datasets.load_heart(return_X_y=True)
    X, y = X[:120], y[:120]
    # sigmoid: indefinite on these data; (33) is convex whatever the kernel
    K = isvm.kernel_matrix(X, kernel="sigmoid", gamma=0.01, coef0=-0.5)
    return X, y, K


@pytest.mark.parametrize("solver", ["newton", "cg"])
def test_weighted_klr_minimises_the_weighted_objective(data, solver):
    X, y, K = data
    rng = np.random.default_rng(0)
    sw = rng.uniform(0.2, 3.0, y.shape[0])
    cw = {-1: 2.0, 1: 0.5}
    clf = isvm.KernelLogisticRegression(kernel="precomputed", C=2.0, class_weight=cw,
                                        solver=solver, tol=1e-8).fit(K, y, sample_weight=sw)
    assert clf.converged_
    y_pm = np.where(y == clf.classes_[1], 1.0, -1.0)
    s = sw * np.where(y == -1, 2.0, 0.5)
    a, b = _weighted_klr(K, y_pm, 2.0, s)
    np.testing.assert_allclose(clf.alpha_, a, atol=1e-4)
    assert clf.intercept_ == pytest.approx(b, abs=1e-4)
    # the weights changed the solution: the unweighted one is elsewhere
    plain = isvm.KernelLogisticRegression(kernel="precomputed", C=2.0, tol=1e-8).fit(K, y)
    assert np.abs(plain.alpha_ - a).max() > 1e-2
    np.testing.assert_array_equal(clf.class_weight_, [2.0, 0.5])


def test_balanced_is_n_over_classes_times_class_count(data):
    X, y, _ = data
    classes, counts = np.unique(y, return_counts=True)
    by_hand = {c: y.shape[0] / (2 * k) for c, k in zip(classes, counts, strict=True)}
    kw = dict(kernel="sigmoid", gamma=0.01, coef0=-0.5, tol=1e-8)
    bal = isvm.KernelLogisticRegression(class_weight="balanced", **kw).fit(X, y)
    ref = isvm.KernelLogisticRegression(class_weight=by_hand, **kw).fit(X, y)
    np.testing.assert_allclose(bal.alpha_, ref.alpha_, atol=1e-12)
    np.testing.assert_allclose(bal.class_weight_, [by_hand[c] for c in classes])


@pytest.mark.parametrize("multiclass", [False, True])
def test_a_zero_weight_leaves_the_sample_out(data, multiclass):
    X, y, _ = data
    if multiclass:
        y = np.where(X[:, 0] > np.median(X[:, 0]), 2, y)
    sw = np.ones(y.shape[0])
    sw[[0, 5, 17, 60]] = 0.0
    kw = dict(kernel="sigmoid", gamma=0.01, coef0=-0.5, tol=1e-7)
    weighted = isvm.KernelLogisticRegression(**kw).fit(X, y, sample_weight=sw)
    kept = isvm.KernelLogisticRegression(**kw).fit(X[sw > 0], y[sw > 0])
    np.testing.assert_allclose(weighted.decision_function(X), kept.decision_function(X),
                               atol=1e-6)
    alpha = np.atleast_2d(weighted.alpha_)
    assert np.all(alpha[:, sw == 0] == 0.0)


def test_a_weight_of_two_is_not_the_sample_twice(data):
    # each training sample has its own coefficient in alpha'alpha: two copies share one
    # sample's weight, so the two fits differ (documented; the SVMs' bounds C_i do not)
    X, y, K = data
    sw = np.ones(y.shape[0])
    sw[3] = 2.0
    kw = dict(kernel="sigmoid", gamma=0.01, coef0=-0.5, tol=1e-7)
    weighted = isvm.KernelLogisticRegression(**kw).fit(X, y, sample_weight=sw)
    twice = isvm.KernelLogisticRegression(**kw).fit(np.r_[X, X[3:4]], np.r_[y, y[3:4]])
    assert np.abs(weighted.decision_function(X) - twice.decision_function(X)).max() > 1e-4


@pytest.mark.parametrize("sw, match", [
    (lambda n: np.r_[-1.0, np.ones(n - 1)], "sample_weight must be >= 0"),
    (lambda n: np.r_[np.nan, np.ones(n - 1)], "NaN"),
    (lambda n: np.ones(n - 1), "sample_weight.shape"),
])
def test_bad_sample_weights_are_refused_by_name(data, sw, match):
    X, y, _ = data
    with pytest.raises(ValueError, match=match):
        isvm.KernelLogisticRegression().fit(X, y, sample_weight=sw(y.shape[0]))


def test_a_class_without_weight_or_an_unknown_class_is_refused(data):
    X, y, _ = data
    sw = np.where(y == -1, 0.0, 1.0)
    with pytest.raises(ValueError, match="no sample with a positive weight"):
        isvm.KernelLogisticRegression().fit(X, y, sample_weight=sw)
    with pytest.raises(ValueError, match="class_weight names class 7"):
        isvm.KernelLogisticRegression(class_weight={7: 1.0}).fit(X, y)



def test_a_model_pickled_before_class_weight_existed_loads_and_predicts_the_same():
    """tests/data/klr_0.2: a KernelLogisticRegression pickled by the release before the
    weights (commit 419a19b), with its decision values then."""
    import pickle
    from pathlib import Path

    if int(np.__version__.split(".")[0]) < 2:
        # the file holds arrays pickled by NumPy 2 (numpy._core), which NumPy 1.x cannot
        # unpickle whatever wrote the model: not this library's file format (skops' files,
        # which the command line writes, load under both)
        pytest.skip("the pickle was written under NumPy 2, which NumPy 1.x cannot read")
    here = Path(__file__).parent / "data" / "klr_0.2"
    with open(here / "klr_heart_sigmoid.pkl", "rb") as fh:
        old = pickle.load(fh)
    assert "class_weight" not in old.__dict__ or old.class_weight is None
    X, _ = isvm.datasets.load_heart(return_X_y=True)
    # the same coefficients and kernel: equal to the last bits a CPU's BLAS rounds
    np.testing.assert_allclose(old.decision_function(X),
                               np.load(here / "klr_heart_sigmoid_decision.npy"),
                               rtol=1e-12, atol=1e-14)
    # it answers for itself as today's models do: its parameters, a refit
    assert old.get_params()["class_weight"] is None
    assert "KernelLogisticRegression(coef0=-0.5, gamma=0.01, kernel='sigmoid')" == repr(old)


def test_weights_that_overflow_the_newton_steps_are_named_with_their_fix():
    # the sweep of sample_weight values (2026-11-29): weights of 1e300 were refused with
    # "use a smaller C", the weights that made C x weight too big unnamed
    rng = np.random.default_rng(10)
    X = rng.normal(size=(30, 3))
    y = np.where(X[:, 0] > 0, 1, -1)
    with pytest.raises(ValueError, match=r"C \(times the largest weight\) = 1e\+300\. .* or "
                                         r"use a smaller C \(or smaller weights: "
                                         r"sample_weight, class_weight\)"):
        isvm.KernelLogisticRegression().fit(X, y, sample_weight=np.full(30, 1e300))
