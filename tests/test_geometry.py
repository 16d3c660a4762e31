"""Convex-hull classifier (CH-DU) and the SVM <-> CH conversions (seed 003)."""

import warnings

import numpy as np
import pytest
import scipy.sparse as sp
from scipy.optimize import minimize
from test_diagnostics import _tanh_kernel

import indefsvm as isvm
from indefsvm.geometry import ch_to_svm, svm_to_ch
from indefsvm.solvers import (
    convex_hull_dual,
    random_feasible_hull_weights,
)


def _ch_reference(K, y, mu):
    """CH-DU by SLSQP: an independent solver (convex case)."""
    Q = np.outer(y, y) * K
    n = len(y)
    cons = [{"type": "eq", "fun": lambda a: a[y > 0].sum() - 1},
            {"type": "eq", "fun": lambda a: a[y < 0].sum() - 1}]
    a0 = np.where(y > 0, 1 / np.sum(y > 0), 1 / np.sum(y < 0))
    res = minimize(lambda a: 0.5 * a @ Q @ a, a0, jac=lambda a: Q @ a, bounds=[(0, mu)] * n,
                   constraints=cons, method="SLSQP", options={"ftol": 1e-14, "maxiter": 500})
    return res.fun


@pytest.mark.parametrize("mu", [1.0, 0.4, 0.15])
def test_ch_dual_matches_independent_solver_on_psd_kernel(mu):
    rng = np.random.default_rng(1)
    X = np.r_[rng.normal(-1, 1, (12, 2)), rng.normal(1, 1, (12, 2))]
    y = np.r_[-np.ones(12), np.ones(12)]
    K = isvm.kernel_matrix(X, kernel="rbf", gamma=0.5)
    res = convex_hull_dual(K, y, mu=mu, tol=1e-9)
    assert res.converged
    assert res.objective == pytest.approx(_ch_reference(K, y, mu), rel=1e-6, abs=1e-10)
    a = res.alpha
    assert a[y > 0].sum() == pytest.approx(1) and a[y < 0].sum() == pytest.approx(1)
    assert a.min() >= 0 and a.max() <= mu + 1e-12


def test_ch_decision_is_the_minimum_distance_rule():
    rng = np.random.default_rng(2)
    Z = rng.normal(size=(30, 2))
    y = np.where(Z[:, 0] + 0.3 * rng.normal(size=30) > 0, 1, -1)
    with pytest.warns(UserWarning, match="w'Mw .* <= 0"):
        clf = isvm.ConvexHullClassifier(kernel="pseudo_euclidean", kernel_params={"p": 1},
                                        mu=0.3).fit(Z, y)
    assert clf.wMw_ <= 0
    a, M = clf.alpha_, np.diag([1.0, -1.0])
    zp, zm = (a * (y > 0)) @ Z, (a * (y < 0)) @ Z
    pts = rng.normal(size=(50, 2))
    g = [(z - zm) @ M @ (z - zm) - (z - zp) @ M @ (z - zp) for z in pts]
    np.testing.assert_allclose(clf.decision_function(pts), g, atol=1e-10)
    assert clf.wMw_ == pytest.approx((zp - zm) @ M @ (zp - zm))


def test_precomputed_distance_metric_equals_kernel_form():
    rng = np.random.default_rng(3)
    X = rng.normal(size=(20, 3))
    y = np.where(X[:, 0] > 0, 1, -1)
    D = np.sqrt(((X[:, None] - X[None]) ** 2).sum(-1))
    by_dist = isvm.ConvexHullClassifier(metric="precomputed_distance", mu=0.5).fit(D, y)
    by_kernel = isvm.ConvexHullClassifier(kernel="linear", mu=0.5).fit(X, y)
    np.testing.assert_allclose(by_dist.decision_function(D), by_kernel.decision_function(X),
                               atol=1e-8)
    with pytest.raises(ValueError, match="zero diagonal"):
        isvm.ConvexHullClassifier(metric="precomputed_distance").fit(D + 1, y)


def test_prop7_round_trip():
    rng = np.random.default_rng(4)
    X = np.r_[rng.normal(-1, 0.7, (10, 2)), rng.normal(1, 0.7, (10, 2))]
    y = np.r_[-np.ones(10), np.ones(10)]
    K = isvm.kernel_matrix(X, kernel="rbf", gamma=0.5)
    svm = isvm.solvers.smo(K, y, C=1.0, tol=1e-10)
    abar, mu = svm_to_ch(svm.alpha, 1.0)
    back = ch_to_svm(abar, mu, K, y)
    assert back["ok"]
    np.testing.assert_allclose(back["alpha"], svm.alpha, atol=1e-6)
    assert back["C"] == pytest.approx(1.0, rel=1e-6)
    bad = ch_to_svm(np.r_[np.ones(10) / 10, np.ones(10) / 10], 0.1, K, y)
    assert not bad["ok"] and "unbounded" in bad["reason"]


def test_mu_infeasible_and_multiclass_rejected():
    X = np.arange(6.0)[:, None]
    with pytest.raises(ValueError, match="mu=0.2 is infeasible"):
        convex_hull_dual(X @ X.T, [1, 1, 1, -1, -1, -1], mu=0.2)
    with pytest.raises(ValueError, match="exactly two classes"):
        isvm.ConvexHullClassifier().fit(X, [0, 1, 2, 0, 1, 2])


def test_random_hull_weights_feasible():
    rng = np.random.default_rng(0)
    y = np.r_[np.ones(7), -np.ones(5)]
    for _ in range(20):
        a = random_feasible_hull_weights(y, 0.25, rng)
        assert a[y > 0].sum() == pytest.approx(1) and a[y < 0].sum() == pytest.approx(1)
        assert a.min() >= 0 and a.max() <= 0.25 + 1e-12


def test_restarts_on_indefinite_ch_never_worse():
    rng = np.random.default_rng(5)
    Z = rng.normal(size=(24, 2))
    y = np.where(rng.random(24) < 0.5, 1.0, -1.0)
    K = isvm.kernel_matrix(Z, kernel="pseudo_euclidean", p=1)
    one = convex_hull_dual(K, y, mu=0.5)
    many = convex_hull_dual(K, y, mu=0.5, n_restarts=5, random_state=0)
    assert many.objective <= one.objective + 1e-12
    assert np.all(np.diff(many.history[:, 1]) <= 1e-12)


def test_convex_hull_dual_float32_cache_and_sparse_rows():
    """Above the float64-cache size (n > 1024) CH-DU runs on float32 columns with the float64
    polish; it reaches the optimum of the precomputed (float64) run, also from CSR rows."""
    r = np.random.default_rng(5)
    X = r.uniform(-1, 1, (1100, 6))
    X[np.abs(X) < 0.3] = 0.0
    y = np.where(X[:, 0] > 0, 1.0, -1.0)
    X[:, 0] += 0.5 * y  # separated classes: a clear distance between the reduced hulls
    params = {"gamma": 0.5}
    ref = convex_hull_dual(isvm.kernel_matrix(X, kernel="rbf", **params), y, mu=0.05,
                           tol=1e-6)
    for data in (X, sp.csr_matrix(X)):
        res = convex_hull_dual(data, y, mu=0.05, kernel="rbf", kernel_params=params, tol=1e-6)
        assert res.converged and res.extra["polish_rounds"] >= 1
        assert res.objective == pytest.approx(ref.objective, rel=1e-5)
        assert res.b == pytest.approx(ref.b, rel=1e-4, abs=1e-6)


def test_ch_restart_select_prefers_a_positive_wMw():
    """Restarts whose stationary points have w'Mw of both signs (a 2+1 pseudo-Euclidean
    space): "objective" keeps the lowest (negative) one, "wMw" the lowest positive one."""
    rng = np.random.default_rng(3)
    Z = rng.normal(size=(20, 3))
    y = np.where(Z[:, 0] + 0.5 * rng.normal(size=20) > 0, 1, -1)
    kw = dict(kernel="pseudo_euclidean", kernel_params={"p": 2}, mu=0.5, n_restarts=20,
              random_state=0)
    with pytest.warns(UserWarning):
        low = isvm.ConvexHullClassifier(**kw).fit(Z, y)
    objs = np.array(low.result_.restart_objectives)
    assert objs.min() < 0 < objs.max()
    assert low.wMw_ == pytest.approx(2 * objs.min())
    pos = isvm.ConvexHullClassifier(restart_select="wMw", **kw).fit(Z, y)
    assert pos.wMw_ == pytest.approx(2 * objs[objs > 0].min()) and pos.wMw_ > 0
    with pytest.raises(ValueError, match="restart_select"):
        isvm.ConvexHullClassifier(restart_select="best", **kw).fit(Z, y)


def test_ch_multiclass_error_says_what_to_do():
    X = np.random.default_rng(0).normal(size=(30, 2))
    with pytest.raises(ValueError, match="OneVsOneClassifier"):
        isvm.ConvexHullClassifier().fit(X, np.repeat([0, 1, 2], 10))


def test_mu_auto_reduces_overlapping_hulls_as_nu_svc_does():
    """Overlapping classes: the ordinary hulls (mu = 1) intersect, the closest points
    coincide (w'Mw zero within rounding, said) and the classifier is no better than chance;
    mu="auto" = max(4 / n, 1 / min(n_+, n_-)) (NuSVC's nu = 0.5) separates them."""
    from sklearn.datasets import make_blobs

    X, y = make_blobs(n_samples=300, random_state=0)
    X, y = X[y != 2], y[y != 2]
    X = (X - X.mean(axis=0)) / X.std(axis=0)
    auto = isvm.ConvexHullClassifier().fit(X, y)
    n_small = min(np.sum(y == 0), np.sum(y == 1))
    assert auto.mu_ == pytest.approx(max(4 / len(y), 1 / n_small))
    assert auto.wMw_ > 0 and auto.score(X, y) >= 0.95
    with pytest.warns(UserWarning, match="zero within rounding.*smaller mu"):
        hard = isvm.ConvexHullClassifier(mu=1.0).fit(X, y)
    assert hard.mu_ == 1.0 and hard.score(X, y) < 0.7


def test_hull_classifier_speaks_scikit_learns_language():
    from sklearn.exceptions import NotFittedError

    X = np.random.default_rng(0).normal(size=(20, 2))
    with pytest.raises(NotFittedError):
        isvm.ConvexHullClassifier().predict(X)
    with pytest.raises(ValueError, match="Unknown label type"):
        isvm.ConvexHullClassifier().fit(X, np.linspace(0, 1, 20))
    with pytest.raises(ValueError, match="1 class"):
        isvm.ConvexHullClassifier().fit(X, np.zeros(20))
    with pytest.raises(ValueError, match="Only binary classification is supported"):
        isvm.ConvexHullClassifier().fit(X, np.arange(20) % 3)
    assert not isvm.ConvexHullClassifier().__sklearn_tags__().classifier_tags.multi_class


def test_sparse_inputs_to_kernels_check_kernel_and_the_hull_classifier(heart):
    # before: "setting an array element with a sequence"
    import scipy.sparse as sp

    X, y = heart
    Xs = sp.csr_matrix(X)
    np.testing.assert_array_equal(isvm.kernel_matrix(Xs, kernel="rbf", gamma=0.1),
                                  isvm.kernel_matrix(X, kernel="rbf", gamma=0.1))
    dense = isvm.check_kernel(X=X, y=y, kernel="sigmoid", gamma=0.05, coef0=-1.0)
    sparse = isvm.check_kernel(X=sp.csc_array(X), y=y, kernel="sigmoid", gamma=0.05, coef0=-1.0)
    assert sparse.to_dict() == dense.to_dict()
    ch = isvm.ConvexHullClassifier(kernel="rbf", gamma=0.1)
    np.testing.assert_array_equal(ch.fit(Xs, y).predict(Xs), ch.fit(X, y).predict(X))



def test_hull_classifier_input_checks(heart):
    import pandas as pd

    X, y = heart
    with pytest.raises(ValueError, match="[Cc]omplex"):
        isvm.ConvexHullClassifier(kernel="rbf").fit(X.astype(complex), y)
    with pytest.raises(ValueError, match="0 feature"):
        isvm.ConvexHullClassifier(kernel="rbf").fit(np.zeros((10, 0)), y[:10])
    # before: a DataFrame with its columns reordered changed 30 of 60 predictions silently
    df = pd.DataFrame(X, columns=[f"c{i}" for i in range(X.shape[1])])
    model = isvm.ConvexHullClassifier(kernel="rbf", gamma=0.1).fit(df, y)
    with pytest.warns(UserWarning, match="feature names"):  # scikit-learn's own notice
        plain = model.predict(X)
    np.testing.assert_array_equal(model.predict(df), plain)
    with pytest.raises(ValueError, match="feature names"):
        model.predict(df[df.columns[::-1]])
    # before: NaN kernel rows predicted the first class
    K = isvm.kernel_matrix(X, kernel="rbf", gamma=0.1)
    pre = isvm.ConvexHullClassifier(kernel="precomputed").fit(K, y)
    K[0, 3] = np.nan
    with pytest.raises(ValueError, match="NaN"):
        pre.predict(K)


def test_random_feasible_hull_weights_refuses_an_infeasible_mu():
    # mu = 0.01 for 15 points a class: the weights summed to 0.15, not 1 -- a point that is
    # not in the set the function names
    y = np.array([1.0] * 15 + [-1.0] * 15)
    with pytest.raises(ValueError, match=r"mu=0\.01 is infeasible for the class \+1 of 15"):
        random_feasible_hull_weights(y, 0.01, np.random.default_rng(0))
    a = random_feasible_hull_weights(y, 1 / 15, np.random.default_rng(0))
    assert a[y > 0].sum() == pytest.approx(1.0) and a[y < 0].sum() == pytest.approx(1.0)


@pytest.mark.parametrize("factor", [1e200, 1e300, 2.0**-300])
def test_the_convex_hull_dual_of_a_kernel_far_from_1_is_the_same_problem(factor):
    # a factor on K (and on tol, which is in K's units) changes the hulls' weights in
    # nothing. Before: from about 1e155 the second-order selection squared gradients past
    # float64, every candidate scored -inf, and the run "stalled" after 10 025 iterations at
    # a relative KKT gap of 1.49 with another objective (0.43 for -0.43)
    from indefsvm.solvers import convex_hull_dual

    K, y01 = _tanh_kernel()
    y = np.where(y01 == 1, 1.0, -1.0)
    ref = convex_hull_dual(K, y)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        res = convex_hull_dual(K * factor, y, tol=1e-6 * factor)
    assert res.converged and res.n_iter == ref.n_iter
    np.testing.assert_allclose(res.alpha, ref.alpha, atol=1e-12)
    assert res.objective / factor == pytest.approx(ref.objective, rel=1e-12)
    assert res.b / factor == pytest.approx(ref.b, rel=1e-12)


def test_a_stalled_convex_hull_dual_says_stalled_not_max_iter():
    # tol = 1e-300 is below float64's resolution: the run stalls after some 10 000
    # iterations (max_iter is 10 000 000), and the warning said "stopped at
    # max_iter=10000000 ... Increase max_iter"
    X, y = isvm.datasets.load_heart(return_X_y=True)
    with pytest.warns(isvm.ConvergenceWarning, match=r"^CH-DU stalled at a KKT gap m - M of "
                                                     r".* \(or scale the kernel\)\.$"):
        model = isvm.ConvexHullClassifier(kernel="rbf", tol=1e-300).fit(X, y)
    assert model.result_.n_iter < 100_000 and not model.result_.converged
