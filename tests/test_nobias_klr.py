"""Problem (19) without the bias, hard margins and unbounded objectives, and KLR (33)."""

import numpy as np
import pytest
from scipy.optimize import minimize
from sklearn.svm import SVC

import indefsvm as isvm
from helpers import random_indefinite
from indefsvm import IndefiniteSVC, KernelLogisticRegression, UnboundedObjectiveError
from indefsvm.exceptions import ConvergenceWarning
from indefsvm.klr import klr_objective


def test_problem19_negative_diagonal_hard_margin_raises_quickly():
    rng = np.random.default_rng(0)
    K = random_indefinite(40, rng)
    K[5, 5] = -1.0
    y = np.where(np.arange(40) % 2, 1, -1)
    with pytest.raises(UnboundedObjectiveError, match=r"K\[5, 5\] = -1"):
        IndefiniteSVC(kernel="precomputed", fit_intercept=False, C=np.inf).fit(K, y)


def test_problem19_finite_C_satisfies_projected_gradient_kkt():
    rng = np.random.default_rng(1)
    K = random_indefinite(60, rng)
    y = np.where(rng.random(60) < 0.5, 1.0, -1.0)
    C, tol = 2.0, 1e-6
    clf = IndefiniteSVC(kernel="precomputed", fit_intercept=False, C=C, tol=tol).fit(K, y)
    a = clf.alpha_
    assert clf.converged_ and clf.intercept_[0] == 0.0
    grad = y * (K @ (y * a)) - 1.0
    # projected gradient of (19): 0 where free, >= 0 at 0, <= 0 at C
    pg = np.where(a <= 0, np.minimum(grad, 0), np.where(a >= C, np.maximum(grad, 0), grad))
    assert np.abs(pg).max() <= tol * 10
    assert np.all((a >= 0) & (a <= C))
    # decision values are sum alpha_j y_j K_ij, no bias
    np.testing.assert_allclose(clf.decision_function(K), K @ (y * a), atol=1e-10)


def test_problem19_concave_coordinate_goes_to_the_better_bound():
    K = np.array([[-1.0, 0.0], [0.0, 1.0]])
    clf = IndefiniteSVC(kernel="precomputed", fit_intercept=False, C=3.0, tol=1e-9)
    clf.fit(K, [1, -1])
    assert clf.alpha_[0] == 3.0  # F(a0) = -a0^2/2 - a0 is lowest at the bound C
    assert clf.alpha_[1] == pytest.approx(1.0)


def test_smo_hard_margin_opposite_pair_with_nonpositive_eta_raises():
    K = np.array([[1.0, 2.0, 0.0], [2.0, 1.0, 0.0], [0.0, 0.0, 1.0]])  # eta_01 = -2
    with pytest.raises(UnboundedObjectiveError, match="Thm 5"):
        isvm.solvers.smo(K, [1, -1, 1], C=np.inf)
    with pytest.raises(UnboundedObjectiveError):
        IndefiniteSVC(kernel="precomputed", C=np.inf).fit(K, [1, -1, 1])


def test_smo_hard_margin_matches_svc_with_huge_C():
    rng = np.random.default_rng(2)
    X = np.r_[rng.normal(-2, 0.7, (30, 2)), rng.normal(2, 0.7, (30, 2))]
    y = np.r_[-np.ones(30), np.ones(30)]
    ours = IndefiniteSVC(kernel="linear", C=np.inf, tol=1e-6).fit(X, y)
    ref = SVC(kernel="linear", C=1e8, tol=1e-6).fit(X, y)
    assert ours.converged_
    np.testing.assert_allclose(ours.decision_function(X), ref.decision_function(X), atol=1e-3)


@pytest.mark.parametrize("solver", ["munk", "m3", "kernel_adatron"])
def test_other_solvers_accept_infinite_C(solver):
    rng = np.random.default_rng(3)
    X = np.r_[rng.normal(-2, 0.7, (20, 2)), rng.normal(2, 0.7, (20, 2))]
    y = np.r_[-np.ones(20), np.ones(20)]
    clf = IndefiniteSVC(solver=solver, kernel="rbf", gamma=0.5, C=np.inf,
                        max_iter=200_000).fit(X, y)
    assert clf.converged_ and clf.score(X, y) == 1.0


def test_lsvm_hard_margin_is_refused_with_the_reason():
    X = np.array([[0.0], [1.0], [3.0], [4.0]])
    with pytest.raises(ValueError, match="solver='lsvm' needs a finite C"):
        IndefiniteSVC(solver="lsvm", C=np.inf).fit(X, [0, 0, 1, 1])


@pytest.fixture(scope="module", params=["rbf", "sigmoid"])
def klr_problem(request, heart):
    X, y = heart
    params = {"rbf": dict(gamma=0.1), "sigmoid": dict(gamma=0.05, coef0=-1.0)}[request.param]
    K = isvm.kernel_matrix(X, kernel=request.param, **params)
    if request.param == "sigmoid":
        assert np.linalg.eigvalsh(K)[0] < 0  # indefinite
    ref = minimize(klr_objective, np.zeros(len(y) + 1), args=(K, y, 1.0), jac=True,
                   method="L-BFGS-B", options=dict(ftol=1e-15, gtol=1e-10, maxiter=20000))
    return X, y, request.param, params, ref.fun


@pytest.mark.parametrize("solver", ["newton", "cg"])
def test_klr_matches_independent_minimisation(klr_problem, solver):
    X, y, kernel, params, f_ref = klr_problem
    m = KernelLogisticRegression(kernel=kernel, solver=solver, tol=1e-8, C=1.0, **params)
    m.fit(X, y)
    assert m.converged_
    assert abs(m.objective_ - f_ref) <= 1e-6 * abs(f_ref)
    assert np.all(np.diff(m.history_[:, 1]) <= 1e-12 * abs(f_ref))


def test_klr_newton_and_cg_agree(klr_problem):
    X, y, kernel, params, _ = klr_problem
    nt = KernelLogisticRegression(kernel=kernel, tol=1e-8, **params).fit(X, y)
    cg = KernelLogisticRegression(kernel=kernel, solver="cg", tol=1e-8, **params).fit(X, y)
    np.testing.assert_allclose(nt.decision_function(X), cg.decision_function(X), atol=1e-4)
    assert np.array_equal(nt.predict(X), cg.predict(X))
    p = nt.predict_proba(X)
    assert np.allclose(p.sum(axis=1), 1) and np.array_equal(nt.classes_[p.argmax(1)],
                                                            nt.predict(X))


def test_klr_warns_and_rejects_bad_input(heart):
    X, y = heart
    with pytest.warns(ConvergenceWarning, match="max_iter=1 "):
        KernelLogisticRegression(max_iter=1, tol=1e-12).fit(X, y)
    with pytest.raises(ValueError, match="The 'solver' parameter of KernelLogisticRegression"):
        KernelLogisticRegression(solver="lbfgs").fit(X, y)
    with pytest.raises(ValueError, match="The 'C' parameter of KernelLogisticRegression"):
        KernelLogisticRegression(C=0).fit(X, y)
