"""MUNK, M3, Kernel-Adatron and LSVM against independent solutions of their problems."""

import warnings

import numpy as np
import pytest
from scipy.optimize import minimize

import indefsvm as isvm
from helpers import random_indefinite
from indefsvm.exceptions import ConvergenceWarning, UnboundedObjectiveError
from indefsvm.solvers import (
    kernel_adatron,
    lsvm,
    m3,
    munk,
)


@pytest.fixture(scope="module")
def problem4():
    """200 sonar points, Gaussian kernel (non-negative, PSD), C = 10, and the reference
    optimum of problem (4) by L-BFGS-B with bounds."""
    X, y = isvm.datasets.load_sonar(return_X_y=True)
    X, y = X[:200], y[:200]
    K = isvm.kernel_matrix(X, kernel="rbf", gamma=1 / 18)
    Q = np.outer(y, y) * K
    C = 10.0
    ref = minimize(lambda a: 0.5 * a @ Q @ a - a.sum(), np.zeros(200), jac=lambda a: Q @ a - 1,
                   bounds=[(0, C)] * 200, method="L-BFGS-B",
                   options={"ftol": 1e-15, "gtol": 1e-12, "maxiter": 100000, "maxfun": 100000})
    return K, y, C, ref.fun


@pytest.mark.parametrize("solver", [munk, m3, kernel_adatron], ids=lambda f: f.__name__)
def test_reaches_reference_objective_of_problem_4(problem4, solver):
    K, y, C, f_ref = problem4
    res = solver(K, y, C=C, tol=1e-5, max_iter=300_000)
    assert res.converged
    assert abs(res.objective - f_ref) <= 1e-5 * abs(f_ref)
    a = res.alpha
    Q = np.outer(y, y) * K
    assert res.objective == pytest.approx(0.5 * a @ Q @ a - a.sum(), rel=1e-12)
    assert a.min() >= 0 and a.max() <= C


def test_munk_objective_is_monotone_on_psd_kernel(problem4):
    K, y, C, _ = problem4
    res = munk(K, y, C=C, tol=1e-4)
    f = res.history[:, 1]
    assert np.all(np.diff(f) <= 1e-12 * np.abs(f).max())


def test_munk_converges_about_twice_as_fast_as_m3(problem4):
    K, y, C, _ = problem4
    it_munk = munk(K, y, C=C, tol=1e-4).n_iter
    it_m3 = m3(K, y, C=C, tol=1e-4).n_iter
    assert 1.3 < it_m3 / it_munk < 3.5  # seed 002: bound (11) vs (10), about 2x


def test_munk_rejects_negative_entries_by_name():
    K = isvm.kernel_matrix(np.random.default_rng(0).normal(size=(10, 3)), kernel="sigmoid",
                           gamma=1.0, coef0=0.0)
    i, j = np.unravel_index(np.argmin(K), K.shape)
    with pytest.raises(ValueError, match=rf"K\[{i}, {j}\] = .* most negative"):
        munk(K, np.where(np.arange(10) % 2, 1, -1))


def test_munk_bias_through_constant():
    X = np.r_[np.random.default_rng(1).normal(-2, 1, (20, 2)),
              np.random.default_rng(2).normal(1, 1, (20, 2))]
    y = np.r_[-np.ones(20), np.ones(20)]
    K = isvm.kernel_matrix(X, kernel="rbf", gamma=0.5)
    res = munk(K, y, C=10.0, bias=1.0, tol=1e-6)
    # decision with the bias equals the kernel K + 1 without one
    np.testing.assert_allclose(K @ (res.alpha * y) + res.b, (K + 1) @ (res.alpha * y))


def test_kernel_adatron_unbounded_is_detected_quickly():
    K = np.array([[1.0, 0.2, 0.1], [0.2, -0.5, 0.0], [0.1, 0.0, 1.0]])
    with pytest.raises(UnboundedObjectiveError, match=r"K\[1, 1\] = -0.5"):
        kernel_adatron(K, [1, -1, 1])
    # with a finite C the concave coordinate goes to a bound and the KKT conditions hold
    res = kernel_adatron(K, [1, -1, 1], C=2.0, tol=1e-10)
    assert res.converged and res.alpha[1] == 2.0


def test_lsvm_matches_independent_solution(heart):
    X, y = heart
    G = np.c_[X, -np.ones(len(y))]
    K = isvm.kernel_matrix(G, kernel="rbf", gamma=0.1)
    nu = 2.0
    Q = np.eye(len(y)) / nu + np.outer(y, y) * K
    ref = minimize(lambda u: 0.5 * u @ Q @ u - u.sum(), np.zeros(len(y)),
                   jac=lambda u: Q @ u - 1, bounds=[(0, None)] * len(y), method="L-BFGS-B",
                   options={"ftol": 1e-15, "gtol": 1e-12, "maxiter": 100000})
    res = lsvm(K, y, nu=nu, tol=1e-10)
    assert res.converged
    assert abs(res.objective - ref.fun) <= 1e-6 * abs(ref.fun)
    # and it is the KKT point (30): 0 <= u  perp  Qu - e >= 0
    r = Q @ res.alpha - 1
    assert res.alpha.min() >= 0 and r.min() >= -1e-7 and abs(res.alpha @ r) <= 1e-6


def test_lsvm_predicts_like_smo_on_easy_data():
    rng = np.random.default_rng(3)
    X = np.r_[rng.normal(-2, 0.6, (50, 2)), rng.normal(2, 0.6, (50, 2))]
    y = np.r_[-np.ones(50), np.ones(50)]
    test = rng.uniform(-4, 4, (300, 2))
    a = isvm.IndefiniteSVC(solver="lsvm", kernel="linear", C=1.0).fit(X, y)
    b = isvm.IndefiniteSVC(solver="smo", kernel="linear", C=1.0).fit(X, y)
    assert a.converged_ and a.intercept_[0] == 0.0
    assert np.mean(a.predict(test) == b.predict(test)) >= 0.97
    assert np.mean(a.predict(X) == y) == 1.0


def test_lsvm_indefinite_kernel_nu_bound():
    rng = np.random.default_rng(4)
    K = random_indefinite(30, rng, n_negative=3)
    y = np.where(np.arange(30) % 2, 1.0, -1.0)
    lam = np.linalg.eigvalsh(K)[0]
    with pytest.raises(ValueError, match=rf"choose nu < 1/{-lam:.4g}"):
        lsvm(K, y, nu=2.0 / -lam)
    res = lsvm(K, y, nu=0.5 / -lam, tol=1e-9)  # below the bound: strictly convex, works
    assert res.converged


@pytest.mark.parametrize("solver", [munk, m3, kernel_adatron], ids=lambda f: f.__name__)
def test_convergence_warning(problem4, solver):
    K, y, C, _ = problem4
    with pytest.warns(ConvergenceWarning, match=r"max_iter=2 .*tol=1e-09"):
        res = solver(K, y, C=C, tol=1e-9, max_iter=2)
    assert not res.converged


def test_lsvm_convergence_warning(heart):
    X, y = heart
    with pytest.warns(ConvergenceWarning, match="max_iter=1 "):
        lsvm(X @ X.T + 1, y, nu=1.0, tol=1e-12, max_iter=1)


@pytest.mark.parametrize("solver", ["munk", "m3", "kernel_adatron", "lsvm"])
def test_estimator_with_each_solver(sonar, solver):
    X, y = sonar
    with warnings.catch_warnings():
        warnings.simplefilter("error", ConvergenceWarning)
        clf = isvm.IndefiniteSVC(solver=solver, kernel="rbf", gamma=1 / 18, C=10.0,
                                 max_iter=300_000).fit(X, y)
    ref = isvm.IndefiniteSVC(kernel="rbf", gamma=1 / 18, C=10.0).fit(X, y)
    assert clf.converged_ and clf.fit_status_ == 0 and clf.intercept_[0] == 0.0
    assert clf.alpha_.shape == (len(y),) and clf.history_.shape[1] == 2
    assert np.mean(clf.predict(X) == ref.predict(X)) >= 0.97


def _lsvm_kkt(K, y, nu, u):
    """max_i |min(Q_ii u_i, (Qu - e)_i)| for Q = I/nu + DKD: 0 exactly at the solution."""
    Q = np.outer(y, y) * K + np.eye(len(y)) / nu
    g = Q @ u - 1.0
    return float(np.max(np.abs(np.minimum(np.diagonal(Q) * u, g))))



def test_lsvm_converged_means_a_kkt_point_whatever_the_scale(heart):
    # before: lsvm(K * 1e6, y, nu=1e-6) said "converged" after one iteration with a KKT
    # residual of 0.377 -- its criterion was one step moving less than tol, in the units of u
    X, y = heart
    K = isvm.kernel_matrix(np.c_[X, -np.ones(len(y))], kernel="rbf", gamma=0.05)
    plain = lsvm(K, y, nu=1.0, tol=1e-6)
    scaled = lsvm(K * 1e6, y, nu=1e-6, tol=1e-6)
    for res, k, nu in ((plain, K, 1.0), (scaled, K * 1e6, 1e-6)):
        assert res.converged
        assert _lsvm_kkt(k, y, nu, res.alpha) <= 1e-6
        assert res.kkt_gap == pytest.approx(_lsvm_kkt(k, y, nu, res.alpha), abs=1e-12)
    # the same problem scaled: u scales by 1e-6
    np.testing.assert_allclose(scaled.alpha * 1e6, plain.alpha, rtol=1e-4, atol=1e-6)



def test_lsvm_does_not_diverge_on_indefinite_kernels_with_positive_definite_q():
    # before: with nu = 0.9 / |lambda_min| (Q positive definite, our own check passes) the
    # iteration with step 1.9 / nu diverged in 61 of 200 random 4 x 4 cases (alpha ~ 1e164
    # or inf, "increase max_iter")
    rng = np.random.default_rng(0)
    n_indefinite = 0
    for _ in range(200):
        A = rng.normal(size=(4, 4))
        K = (A + A.T) / 2
        y = np.array([1.0, 1.0, -1.0, -1.0])
        lam = np.linalg.eigvalsh(np.outer(y, y) * K)[0]
        if lam >= 0:
            continue
        n_indefinite += 1
        nu = 0.9 / abs(lam)
        res = lsvm(K, y, nu=nu, tol=1e-8, max_iter=200_000)
        assert np.all(np.isfinite(res.alpha)) and np.all(res.alpha >= 0)
        assert res.converged, res
        assert _lsvm_kkt(K, y, nu, res.alpha) <= 1e-8
    assert n_indefinite > 150



def test_lsvm_through_the_estimator_on_an_indefinite_kernel(heart):
    X, y = heart
    clf = isvm.IndefiniteSVC(kernel="sigmoid", gamma=0.05, coef0=-1.0, solver="lsvm", C=0.004)
    clf.fit(X, y)
    assert clf.converged_ and clf.kkt_gap_ <= clf.tol
    assert np.all(np.isfinite(clf.alpha_)) and np.all(np.isfinite(clf.decision_function(X)))



def test_munk_stall_is_reported_as_a_stall_at_its_iteration():
    # before: "stalled at max_iter=100000" after stopping at iteration 499
    rng = np.random.default_rng(4)
    X = rng.random((40, 3))
    y = np.where(X[:, 0] > 0.5, 1.0, -1.0)
    K = isvm.kernel_matrix(X, kernel="rbf", gamma=0.5)
    with pytest.warns(isvm.ConvergenceWarning) as rec:
        res = isvm.solvers.munk(K, y, C=100.0, tol=1e-12, ftol=1e-6)
    assert res.status == "stalled" and not res.converged and res.n_iter < 100_000
    msg = str(rec[0].message)
    assert f"stalled at iteration {res.n_iter}" in msg and "max_iter=100000" in msg


def test_lsvm_on_a_psd_kernel_with_clustered_eigenvalues_falls_back():
    # ARPACK did not converge on Q^{-1} (the rbf kernel's eigenvalues cluster at 0) and its
    # ArpackNoConvergence escaped from fit
    from sklearn.datasets import make_moons
    from sklearn.preprocessing import StandardScaler

    X, y = make_moons(600, noise=0.1, random_state=0)
    X = StandardScaler().fit_transform(X)
    clf = isvm.IndefiniteSVC(kernel="rbf", gamma=2, C=10, solver="lsvm").fit(X, y)
    assert clf.converged_
    assert clf.score(X, y) > 0.95


def _gaussian(n=10, seed=0):
    X = np.random.default_rng(seed).normal(size=(n, 2))
    return np.exp(-((X[:, None] - X[None]) ** 2).sum(-1)), np.array([1.0, -1.0] * (n // 2))


def test_munk_reaches_the_optimum_when_a_point_has_a_zero_row():
    # a point whose row of its own class's block is zero: the update divides by 0 and left
    # it at its start (0.5); MUNK "stalled" with "multiplicative updates slow down near the
    # solution" at F = -6.59, the optimum being -7.09 (alpha_0 = C). Kernel-Adatron, a
    # different algorithm on the same problem (4), is the reference.
    K, y = _gaussian()
    K[0, :] = K[:, 0] = 0.0
    for C in (1.0, 0.3):
        res = munk(K, y, C=C, tol=1e-8)
        ref = kernel_adatron(K, y, C=C, tol=1e-8)
        assert res.converged
        assert res.objective == pytest.approx(ref.objective, rel=1e-9)
        np.testing.assert_allclose(res.alpha, ref.alpha, atol=1e-6)
        assert res.alpha[0] == C
    res = munk(np.zeros((10, 10)), y, C=1.0)
    assert res.converged and np.all(res.alpha == 1.0) and res.objective == -10.0


def test_munk_without_C_on_a_zero_diagonal_is_unbounded_by_name():
    # before: "stalled ... try solver='kernel_adatron'" (a zero row), or "objective nan
    # after 9 iterations" (a zero diagonal): the problem is unbounded along alpha_i
    K, y = _gaussian()
    K[np.diag_indices(10)] = 0.0
    K[3, 3] = 0.0
    with pytest.raises(UnboundedObjectiveError, match=r"^MUNK: problem \(4\) is unbounded "
                                                      r"below .* K\[0, 0\] = 0"):
        munk(K, y)
    with pytest.raises(UnboundedObjectiveError, match="Kernel-Adatron"):
        kernel_adatron(K, y)  # the reference says the same
    assert munk(K, y, C=1.0, tol=1e-8).objective == pytest.approx(
        kernel_adatron(K, y, C=1.0, tol=1e-8).objective, rel=1e-9)
