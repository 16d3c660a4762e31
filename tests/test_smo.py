"""SMO: agreement with LIBSVM on PSD kernels, stationarity and monotone decrease on indefinite
kernels, the stall case of Lin & Lin section 6, restarts, and input validation."""

import warnings

import numpy as np
import pytest
import scipy.sparse as sp
from sklearn.svm import SVC

import indefsvm as isvm
from helpers import dual_objective, kkt_gap, random_indefinite
from indefsvm.exceptions import ConvergenceWarning
from indefsvm.solvers import random_feasible_alpha, smo

PSD = [("linear", {}), ("rbf", {"gamma": 0.2}),
       ("polynomial", {"gamma": 0.2, "coef0": 1.0, "degree": 3})]


def _svc_alpha(K, y, C, **svc_params):
    """Dual solution of LIBSVM (scikit-learn SVC) on a precomputed kernel."""
    svc = SVC(kernel="precomputed", C=C, tol=1e-3, **svc_params).fit(K, y)
    alpha = np.zeros(y.shape[0])
    alpha[svc.support_] = np.abs(svc.dual_coef_[0])
    return alpha, svc


@pytest.mark.parametrize("data", ["heart", "sonar", "breast"])
@pytest.mark.parametrize("kernel,params", PSD)
@pytest.mark.parametrize("C", [0.1, 10.0])
def test_matches_libsvm_on_psd_kernels(request, data, kernel, params, C):
    X, y = request.getfixturevalue(data)
    K = isvm.kernel_matrix(X, kernel=kernel, **params)
    a_ref, svc = _svc_alpha(K, y, C)
    f_ref = dual_objective(K, y, a_ref)
    res = smo(X, y, C=C, kernel=kernel, kernel_params=params)
    assert res.converged
    f = dual_objective(K, y, res.alpha)
    assert abs(f - f_ref) <= 1e-3 * abs(f_ref)
    assert abs(res.objective - f) <= 1e-9 * abs(f)  # the reported objective is the true one
    pred = np.where(K @ (y * res.alpha) + res.b > 0, 1.0, -1.0)
    assert np.mean(pred == svc.predict(K)) >= 0.99


@pytest.mark.parametrize("wss", ["first_order", "second_order"])
@pytest.mark.parametrize("shrinking", [True, False])
def test_options_reach_the_same_psd_optimum(heart, wss, shrinking):
    X, y = heart
    K = isvm.kernel_matrix(X, kernel="rbf", gamma=0.1)
    f_ref = dual_objective(K, y, _svc_alpha(K, y, 10.0)[0])
    # tiny cache: two columns, every other request evicts
    res = smo(X, y, C=10.0, kernel="rbf", kernel_params={"gamma": 0.1}, wss=wss,
              shrinking=shrinking, cache_size=0.001)
    assert res.converged and kkt_gap(K, y, res.alpha, 10.0) <= 1e-3 + 1e-9
    assert abs(res.objective - f_ref) <= 1e-3 * abs(f_ref)


def test_on_the_fly_equals_precomputed(sonar):
    X, y = sonar
    params = {"gamma": 0.05, "coef0": -0.5}
    K = isvm.kernel_matrix(X, kernel="sigmoid", **params)
    a = smo(X, y, C=3.0, kernel="sigmoid", kernel_params=params)
    b = smo(K, y, C=3.0)
    assert a.converged and b.converged
    assert abs(a.objective - b.objective) <= 1e-3 * abs(b.objective)


def _assert_stationary_and_monotone(K, y, res, C, tol=1e-3):
    assert res.converged
    assert np.all(res.alpha >= 0) and np.all(res.alpha <= C)
    assert abs(y @ res.alpha) <= 1e-9 * max(1.0, C * len(y))
    assert kkt_gap(K, y, res.alpha, C) <= tol + 1e-9
    f = res.history[:, 1]
    assert np.all(np.diff(f) <= 1e-12 * np.abs(f[1:]).max())  # Lemma 3
    assert res.history[-1, 1] == pytest.approx(dual_objective(K, y, res.alpha), rel=1e-10)


def test_sigmoid_positive_r_large_C(heart):
    X, y = heart
    params = {"gamma": 1.0, "coef0": 1.0}
    K = isvm.kernel_matrix(X, kernel="sigmoid", **params)
    assert np.linalg.eigvalsh(K)[0] < -1.0  # genuinely indefinite
    d = np.diag(K)
    assert np.any(d[:, None] + d[None, :] - 2 * K < 0)  # concave sub-problems exist
    C = 1000.0
    res = smo(X, y, C=C, kernel="sigmoid", kernel_params=params)
    _assert_stationary_and_monotone(K, y, res, C)
    assert res.n_concave_steps > 0  # the rule for a_ij <= 0 was exercised


@pytest.mark.parametrize("seed", range(6))
@pytest.mark.parametrize("wss", ["first_order", "second_order"])
def test_random_indefinite_matrices(seed, wss):
    rng = np.random.default_rng(seed)
    n = 60
    K = random_indefinite(n, rng)
    y = np.where(rng.random(n) < 0.4, 1.0, -1.0)
    C = float(rng.choice([0.5, 10.0, 100.0]))
    res = smo(K, y, C=C, wss=wss, shrinking=bool(seed % 2))
    _assert_stationary_and_monotone(K, y, res, C)


def test_objective_never_increases_between_iterations():
    """Lemma 3 checked from the outside: F of the k-th iterate, recomputed from alpha."""
    rng = np.random.default_rng(7)
    n = 40
    K = random_indefinite(n, rng)
    y = np.where(np.arange(n) % 2 == 0, 1.0, -1.0)
    values = []
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", ConvergenceWarning)
        for k in range(1, 80):
            res = smo(K, y, C=5.0, max_iter=k, shrinking=False)
            values.append(dual_objective(K, y, res.alpha))
    assert np.all(np.diff(values) <= 1e-10)
    assert values[-1] < values[0]


@pytest.mark.parametrize("C", [0.5, 1.0, 7.0])
@pytest.mark.parametrize("wss", ["first_order", "second_order"])
def test_stall_case_of_section_6(C, wss):
    # alpha_i = alpha_j = 0, y_i != y_j, a_ij = -2 < 0: the PSD rule would not move
    K = np.array([[0.0, 1.0], [1.0, 0.0]])
    res = smo(K, np.array([1, -1]), C=C, wss=wss)
    np.testing.assert_array_equal(res.alpha, [C, C])
    assert res.converged and res.n_concave_steps == 1
    assert res.objective == pytest.approx(-C * C - 2 * C)


def test_restarts_never_worse_than_zero_start():
    rng = np.random.default_rng(3)
    for trial in range(5):
        n = 50
        K = random_indefinite(n, rng, n_negative=25)
        y = np.where(rng.random(n) < 0.5, 1.0, -1.0)
        zero = smo(K, y, C=2.0)
        best = smo(K, y, C=2.0, n_restarts=4, random_state=trial)
        assert len(best.restart_objectives) == 5
        assert best.restart_objectives[0] == pytest.approx(zero.objective, rel=1e-12)
        assert best.objective <= zero.objective
        assert best.objective == min(best.restart_objectives)
        assert best.objective == pytest.approx(dual_objective(K, y, best.alpha), rel=1e-9)


def test_random_feasible_start_is_feasible():
    rng = np.random.default_rng(0)
    y = np.where(rng.random(30) < 0.3, 1.0, -1.0)
    a = random_feasible_alpha(y, 2.0, rng)
    assert np.all((a >= 0) & (a <= 2.0)) and abs(y @ a) < 1e-12


def test_class_balanced_init_reaches_the_psd_optimum(heart):
    X, y = heart
    K = isvm.kernel_matrix(X, kernel="rbf", gamma=0.1)
    zero = smo(K, y, C=1.0)
    bal = smo(K, y, C=1.0, init="class_balanced")
    assert bal.converged
    assert abs(bal.objective - zero.objective) <= 1e-3 * abs(zero.objective)


def test_alpha0_start_is_used():
    K = np.array([[0.0, 1.0], [1.0, 0.0]])
    y = np.array([1.0, -1.0])
    res = smo(K, y, C=1.0, alpha0=[0.5, 0.5])
    np.testing.assert_array_equal(res.alpha, [1.0, 1.0])
    with pytest.raises(ValueError, match="y'alpha0 = 0"):
        smo(K, y, C=1.0, alpha0=[0.5, 0.2])


def test_max_iter_warns_with_numbers(heart):
    X, y = heart
    with pytest.warns(ConvergenceWarning, match=r"max_iter=5 .*tol=0.001.*gap m - M is"):
        res = smo(X, y, C=10.0, kernel="rbf", kernel_params={"gamma": 0.1}, max_iter=5)
    assert not res.converged and res.n_iter == 5 and res.status == "max_iter reached"
    assert res.kkt_gap > 1e-3


def test_result_reporting():
    K = np.array([[0.0, 1.0], [1.0, 0.0]])
    res = smo(K, np.array([1, -1]), C=1.0)
    text = str(res)
    assert "converged" in text and "objective" in text and "KKT gap" in text
    d = res.to_dict()
    assert d["converged"] is True and d["alpha"] == [1.0, 1.0] and d["n_bounded"] == 2
    assert res.history.shape[1] == 2


def test_bad_kernel_parameter_is_named(heart):
    X, y = heart
    with pytest.raises(ValueError, match="gamma must be a finite number"):
        smo(X, y, kernel="rbf", kernel_params={"gamma": float("nan")})
    with pytest.raises(ValueError, match="coef0 must be a finite number"):
        smo(X, y, kernel="sigmoid", kernel_params={"coef0": float("inf")})


@pytest.mark.parametrize(
    "K,y,kwargs,match",
    [
        (np.ones((2, 3)), [1, -1], {}, "square"),
        (np.array([[1.0, 0.5], [0.4, 1.0]]), [1, -1], {}, r"not symmetric.*\(K \+ K.T\) / 2"),
        (np.array([[1.0, np.nan], [np.nan, 1.0]]), [1, -1], {}, "NaN"),
        (np.eye(2), [1, 1], {}, "only one class"),
        (np.eye(2), [0, 1], {}, "only -1 and \\+1"),
        (np.eye(3), [1, -1], {}, "same length"),
        (np.eye(2), [1, -1], {"C": 0.0}, "C must be > 0"),
        (np.eye(2), [1, -1], {"C": -1.0}, "C must be > 0"),
        (np.eye(2), [1, -1], {"C": np.nan}, "C must be > 0"),
        (np.eye(2), [1, -1], {"tol": 0.0}, "tol must be > 0"),
        (np.eye(2), [1, -1], {"wss": "third"}, "'wss' parameter of smo must be a str among"),
        (np.eye(2), [1, -1], {"init": "ones"}, "'init' parameter of smo must be a str among"),
        (np.eye(2), [1, -1], {"max_iter": 0}, "max_iter"),
        (np.eye(2), [1, -1], {"C": "big"}, "C must be a positive number"),
        (np.eye(2), [1, -1], {"kernel": "banana"}, "Unknown kernel"),
        (np.eye(2), [1, -1], {"n_restarts": -1}, "n_restarts"),
    ],
)
def test_bad_input_is_named(K, y, kwargs, match):
    with pytest.raises(ValueError, match=match):
        smo(K, y, **kwargs)


# -- float32 column cache and its float64 polish -------------------------------------------------


def _blobs(n, seed=0):
    r = np.random.default_rng(seed)
    X = r.uniform(-1, 1, (n, 8))
    y = np.where(X[:, 0] + 0.5 * np.sin(3 * X[:, 1]) + 0.3 * r.standard_normal(n) > 0, 1.0, -1.0)
    return X, y


@pytest.mark.parametrize("kernel,params,C", [
    ("rbf", {"gamma": 0.5}, 1.0),
    ("rbf", {"gamma": 0.5}, 1000.0),
    ("sigmoid", {"gamma": 0.1, "coef0": -1.0}, 10.0),
    ("sigmoid", {"gamma": 0.1, "coef0": 1.0}, 100.0),
])
def test_float32_cache_is_honest_and_agrees_with_float64(kernel, params, C):
    """With float32 columns, converged still means a float64 KKT gap <= tol (recomputed here
    from scratch), the reported gap is that float64 gap, and the objective equals the float64
    cache's run."""
    X, y = _blobs(1500)
    K = isvm.kernel_matrix(X, kernel=kernel, **params)
    r32 = smo(X, y, C=C, kernel=kernel, kernel_params=params, cache_dtype="float32")
    r64 = smo(X, y, C=C, kernel=kernel, kernel_params=params, cache_dtype="float64")
    assert r32.extra["cache_dtype"] == "float32" and r64.extra["cache_dtype"] == "float64"
    assert r32.converged and r64.converged
    assert r32.extra["polish_rounds"] >= 1 and r64.extra["polish_rounds"] == 0
    gap = kkt_gap(K, y, r32.alpha, C)
    assert gap <= r32.tol
    assert abs(r32.kkt_gap - gap) <= 1e-9 * max(1.0, C)
    assert r32.objective == pytest.approx(dual_objective(K, y, r32.alpha), rel=1e-12)
    assert r32.objective == pytest.approx(r64.objective, rel=1e-5)
    assert abs(y @ r32.alpha) <= 1e-9 * C * len(y)


def test_auto_cache_dtype():
    X, y = _blobs(1100)
    assert smo(X, y, kernel="rbf").extra["cache_dtype"] == "float32"
    assert smo(X[:900], y[:900], kernel="rbf").extra["cache_dtype"] == "float64"
    K = isvm.kernel_matrix(X, kernel="rbf")
    assert smo(K, y).extra["cache_dtype"] == "float64"  # precomputed: exact gathers
    with pytest.raises(ValueError, match="cache_dtype"):
        smo(X, y, kernel="rbf", cache_dtype="half")
    # entries up to (10 * 8 + 1)^20 ~ 1e38: float32 could overflow, so auto keeps float64
    big = {"gamma": 10.0, "coef0": 1.0, "degree": 20}
    res = smo(X, y, kernel="polynomial", kernel_params=big, max_iter=5, warn=False)
    assert res.extra["cache_dtype"] == "float64"
    with pytest.raises(ValueError, match="beyond float32"):
        smo(X, y, kernel="polynomial", kernel_params=big, cache_dtype="float32")
    assert smo(X, y, kernel="polynomial", kernel_params={"degree": 2}, max_iter=5,
               warn=False).extra["cache_dtype"] == "float32"


@pytest.mark.parametrize("kernel,params", [
    ("linear", {}), ("rbf", {"gamma": 0.3}), ("sigmoid", {"gamma": 0.2, "coef0": -0.5}),
    ("polynomial", {"gamma": 0.5, "coef0": 1.0, "degree": 2}), ("l1_gaussian", {"gamma": 0.2}),
])
def test_sparse_input_gives_the_dense_solution(kernel, params):
    """CSR rows (compiled sparse path, or densified for the distance kernels) solve the same
    problem as the dense array."""
    r = np.random.default_rng(3)
    X = r.uniform(-1, 1, (300, 12))
    X[np.abs(X) < 0.6] = 0.0
    X[-1] = 0.0  # an empty last CSR row
    y = np.where(X[:, 0] - X[:, 1] + 0.2 * r.standard_normal(300) > 0, 1.0, -1.0)
    dense = smo(X, y, C=2.0, kernel=kernel, kernel_params=params)
    sparse = smo(sp.csr_matrix(X), y, C=2.0, kernel=kernel, kernel_params=params)
    assert sparse.converged
    assert sparse.objective == pytest.approx(dense.objective, rel=1e-6)
    K = isvm.kernel_matrix(X, kernel=kernel, **params)
    assert kkt_gap(K, y, sparse.alpha, 2.0) <= 1e-3


def test_estimator_on_sparse_input_matches_dense():
    r = np.random.default_rng(4)
    X = r.uniform(-1, 1, (400, 15))
    X[np.abs(X) < 0.5] = 0.0
    y = np.where(X[:, 2] + X[:, 3] > 0, 1, 0)
    for gamma in ("scale", 0.1):
        d = isvm.IndefiniteSVC(kernel="rbf", gamma=gamma, C=3.0).fit(X, y)
        s = isvm.IndefiniteSVC(kernel="rbf", gamma=gamma, C=3.0).fit(sp.csr_matrix(X), y)
        assert s._kernel_params_fitted["gamma"] == pytest.approx(d._kernel_params_fitted["gamma"])
        # as SVC after a sparse fit: support vectors and dual coefficients are CSR
        assert sp.issparse(s.support_vectors_) and sp.issparse(s.dual_coef_)
        np.testing.assert_array_equal(s.support_vectors_.toarray(), X[s.support_])
        np.testing.assert_allclose(s.dual_coef_.toarray(), d.dual_coef_, atol=1e-4)
        assert s.objective_ == pytest.approx(d.objective_, rel=1e-6)
        np.testing.assert_allclose(s.decision_function(sp.csr_matrix(X)),
                                   d.decision_function(X), atol=1e-4)


def _smo_gap(K, y, alpha, C):
    """m - M of (21) recomputed from scratch."""
    g = -y * (y * (K @ (y * alpha)) - 1.0)
    up = ((alpha < C) & (y > 0)) | ((alpha > 0) & (y < 0))
    low = ((alpha < C) & (y < 0)) | ((alpha > 0) & (y > 0))
    return float(g[up].max() - g[low].min())



def test_smo_with_an_unreachable_tol_stops_at_the_reachable_gap():
    # before: shrinking on an indefinite K with tol below float64's reach spun on the shrunk
    # set until max_iter (10^7 iterations) and returned a point with gap 4.9e6 (3e-9 without
    # shrinking)
    rng = np.random.default_rng(2)
    X = rng.normal(size=(80, 3))
    y = np.where(X[:, 0] + 0.5 * rng.normal(size=80) > 0, 1.0, -1.0)
    K = isvm.kernel_matrix(X, kernel="sigmoid", gamma=1.0, coef0=-0.5)
    runs = {}
    for shrinking in (True, False):
        with pytest.warns(isvm.ConvergenceWarning, match="stalled|max_iter") as rec:
            res = isvm.solvers.smo(K, y, C=1e8, tol=1e-13, shrinking=shrinking)
        runs[shrinking] = res
        assert res.n_iter < 2_000_000
        gap = _smo_gap(K, y, res.alpha, 1e8)
        assert abs(gap - res.kkt_gap) <= 1e-6 * max(1.0, abs(gap))
        if not res.converged:
            assert res.status.startswith("stalled")
            assert any("stalled" in str(w.message) for w in rec)
    gaps = {s: _smo_gap(K, y, r.alpha, 1e8) for s, r in runs.items()}
    # shrinking reaches what the unshrunk loop reaches (within the float64 noise of C = 1e8)
    assert gaps[True] <= max(1e-6, 100 * gaps[False]), gaps



def test_smo_finite_c_with_a_huge_objective_is_not_called_unbounded():
    # before: "C = inf ... give a finite C" for C = 1 once the objective dropped below -1e300
    res = isvm.solvers.smo(np.array([[-3e300, 0.0], [0.0, -3e300]]), np.array([1, -1]), C=1.0)
    np.testing.assert_array_equal(res.alpha, [1.0, 1.0])
    assert res.converged and np.isfinite(res.objective) and res.objective < -1e300


def test_default_max_iter_grows_with_the_samples_past_the_floor():
    from indefsvm._validation import check_max_iter

    assert check_max_iter(None, 10) == 10_000_000
    assert check_max_iter(None, 300_000) == 30_000_000
    assert check_max_iter(None, 300_000, default_per_sample=7, floor=5) == 2_100_000


def test_a_C_whose_gradient_overflows_is_named():
    # C = 1e300 on the heart data: the error blamed the kernel's values (finite here) and
    # the inputs' size; it is C
    X, y = isvm.datasets.load_heart(return_X_y=True)
    with pytest.raises(ValueError, match=r"^The dual coefficients or intercepts are not "
                                         r"finite: C = 1e\+300 is too large .* 270 samples"):
        isvm.IndefiniteSVC(kernel="sigmoid", gamma=0.01, C=1e300).fit(X, y)


def test_smo_on_a_kernel_near_1e300_selects_its_pairs_without_overflow():
    # gradients near 1e300 square past float64 in the second-order selection (b^2 / a): every
    # candidate scored -inf, the first was taken, and SMO "stalled" at a relative KKT gap of
    # 1.6 -- "its steps fell below float64's resolution", which they had not. Such a scan is
    # now redone on b / 2^k (the same order). The reference: the same problem at 1e100,
    # where nothing overflows (C = 1 with K -> cK is the same problem for every large c: the
    # bound holds nearly every alpha).
    from indefsvm.solvers import smo

    X = np.random.default_rng(3).normal(size=(30, 3))
    y = np.where(X[:, 0] > 0, 1.0, -1.0)
    K = np.tanh(X @ X.T)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", isvm.ConvergenceWarning)  # tol 1e-3 is below 1e300's ulp
        ref = smo(K * 1e100, y, C=1.0)
        res = smo(K * 1e300, y, C=1.0)
    assert res.kkt_gap / 1e300 < 1e-12
    assert res.objective / 1e300 == pytest.approx(ref.objective / 1e100, rel=1e-9)
    np.testing.assert_allclose(res.alpha, ref.alpha, atol=1e-9)


# -- DualPath: one kernel's one-vs-one problems solved along a C path -------------------------


def _ovo_problems(seed=0, n=40, n_classes=5):
    """An indefinite kernel and its one-vs-one problems (rows, +-1 labels), class-weighted
    bounds of each pair's samples."""
    K = random_indefinite(n, np.random.default_rng(seed))
    y = np.arange(n) % n_classes
    w = np.where(y == 0, 2.0, 1.0)
    rows, signs = [], []
    for a in range(n_classes):
        for b in range(a + 1, n_classes):
            idx = np.flatnonzero((y == a) | (y == b))
            rows.append(idx)
            signs.append(np.where(y[idx] == a, 1.0, -1.0))
    return K, rows, signs, w


def test_dual_path_equals_solve_duals_along_a_warm_started_path():
    """Each C of the path, warm-started from the last, is solve_duals' answer on the same
    problems: the same compiled loop on the same tasks (so the same numbers; compared to
    1e-12, not bits, all the same)."""
    from indefsvm.solvers._smo import DualPath, csvc_problem, solve_duals

    K, rows, signs, w = _ovo_problems()
    path = DualPath(K, rows, signs)
    cat = np.concatenate(rows)
    last = None
    for C in (0.1, 1.0, 10.0, 100.0):
        starts = ([np.zeros(r.shape[0]) for r in rows] if last is None else
                  [np.minimum(a * 10.0, C * w[r]) for a, r in zip(last, rows, strict=True)])
        ref = solve_duals(K, [csvc_problem(s, C * w[r], [a0], idx=r, n=K.shape[0])
                              for s, r, a0 in zip(signs, rows, starts, strict=True)],
                          check_input=False)
        got = path.solve(C * w[cat], np.concatenate(starts))
        np.testing.assert_allclose(got["alpha"], np.concatenate([r.alpha for r in ref]),
                                   rtol=1e-12, atol=1e-12)
        np.testing.assert_allclose(got["b"], [r.b for r in ref], rtol=1e-12, atol=1e-12)
        assert list(got["status"] == 0) == [r.converged for r in ref]
        assert list(got["n_iter"]) == [r.n_iter for r in ref]
        np.testing.assert_allclose(got["objective"], [r.objective for r in ref], rtol=1e-12)
        o = path.offsets
        last = [got["alpha"][o[k]:o[k + 1]] for k in range(len(rows))]
    # the box holds, and y'alpha = 0 in each pair
    for k, (s, r) in enumerate(zip(signs, rows, strict=True)):
        a = last[k]
        assert np.all(a >= 0) and np.all(a <= 100.0 * w[r] * (1 + 1e-12))
        assert abs(s @ a) <= 1e-9 * max(1.0, a.sum())


def test_dual_path_refuses_a_bound_of_zero_and_a_wrong_shape():
    from indefsvm.exceptions import ParameterError
    from indefsvm.solvers._smo import DualPath

    K, rows, signs, _ = _ovo_problems()
    path = DualPath(K, rows, signs)
    m = path.rows.shape[0]
    C = np.ones(m)
    C[3] = 0.0
    with pytest.raises(ParameterError, match=r"must be > 0 for every sample; got 0\.0") as e:
        path.solve(C, np.zeros(m))
    assert e.value.param == "C"
    with pytest.raises(ValueError, match=rf"must have shape \({m},\)"):
        path.solve(np.ones(m - 1), np.zeros(m))
    with pytest.raises(ParameterError, match=r"kernel rows in \[0, n_samples\)"):
        DualPath(K, [np.array([0, K.shape[0]])], [np.array([1.0, -1.0])])


def test_dual_path_says_an_unbounded_pair_as_solve_duals_does():
    """An infinite C on an indefinite kernel can be unbounded: the error names the pair's
    samples (kernel rows), not the variables of the concatenation."""
    from indefsvm.exceptions import UnboundedObjectiveError
    from indefsvm.solvers._smo import DualPath

    K = np.array([[-1.0, 0.0, 0.0], [0.0, -1.0, 0.0], [0.0, 0.0, 1.0]])
    path = DualPath(K, [np.array([0, 1])], [np.array([1.0, -1.0])])
    with pytest.raises(UnboundedObjectiveError):
        path.solve(np.full(2, np.inf), np.zeros(2))
