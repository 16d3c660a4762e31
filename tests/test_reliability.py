"""Regression tests for the reliability probe's findings: each case failed before its fix.

Every invariant is checked independently of the code under test (the KKT conditions recomputed
here from the returned point, not read from the solver's own report).
"""

from __future__ import annotations

import numpy as np
import pytest

import indefsvm as isvm
from indefsvm.solvers import lsvm


def _lsvm_kkt(K, y, nu, u):
    """max_i |min(Q_ii u_i, (Qu - e)_i)| for Q = I/nu + DKD: 0 exactly at the solution."""
    Q = np.outer(y, y) * K + np.eye(len(y)) / nu
    g = Q @ u - 1.0
    return float(np.max(np.abs(np.minimum(np.diagonal(Q) * u, g))))


@pytest.fixture(scope="module")
def heart():
    X, y = isvm.datasets.load_heart(return_X_y=True)
    return X, np.where(y == np.unique(y)[1], 1.0, -1.0)


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


@pytest.mark.parametrize("kw", [{"solver": "kernel_adatron"}, {"fit_intercept": False},
                                {"solver": "munk", "max_iter": 400_000, "tol": 1e-2}])
def test_sanity_report_of_models_without_the_bias(heart, kw):
    # before: every no-bias model was "not a stationary point, raise max_iter", converged or
    # not -- the report checked the conditions of the problem with the bias
    X, y = heart
    clf = isvm.IndefiniteSVC(kernel="rbf", gamma=0.1, **kw).fit(X, y)
    assert clf.converged_
    rep = isvm.sanity_report(clf, X, y)
    assert rep.is_stationary, rep
    assert rep.b == 0.0 and "without the bias" in str(rep)
    # the same figure recomputed here, by the solvers' documented definition:
    # max_t Q_tt |a_t - clip(a_t - g_t / Q_tt, 0, C)| (rbf: Q_tt = 1)
    K = isvm.kernel_matrix(X, kernel="rbf", gamma=0.1)
    a = clf.alpha_
    grad = y * (K @ (y * a)) - 1.0
    resid = np.max(np.abs(a - np.clip(a - grad, 0.0, clf.C)))
    assert rep.kkt_gap == pytest.approx(resid, rel=1e-9, abs=1e-12)
    assert rep.kkt_gap <= clf.tol
    assert rep.kkt_gap == pytest.approx(clf.kkt_gap_, rel=1e-6, abs=1e-9)


def test_sanity_report_of_an_lsvm_model_says_why_not(heart):
    # before: "alpha must satisfy 0 <= alpha <= C", about a bound the model does not have
    X, y = heart
    clf = isvm.IndefiniteSVC(kernel="rbf", gamma=0.1, solver="lsvm").fit(X, y)
    with pytest.raises(ValueError, match="Lagrangian SVM.*kkt_gap_"):
        isvm.sanity_report(clf, X, y)


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


def test_check_kernel_too_large_for_memory_says_so_before_allocating(tmp_path):
    # before: `indefsvm check` on 40 000 samples was killed by the OOM killer after 67 s
    from indefsvm._validation import available_memory

    avail = available_memory()
    if avail is None:
        pytest.skip("no /proc/meminfo here: the memory check cannot know what is available")
    n = int(np.sqrt(avail / 16.0) * 1.5) + 1  # 16 n^2 bytes: over what is available
    X = np.random.default_rng(0).normal(size=(n, 2))
    # the dense method asked for explicitly (above 5 000 samples "auto" is matrix-free now,
    # and needs no n x n memory at all)
    with pytest.raises(MemoryError, match=r"needs about .* GiB .* available.*method='slq'"):
        isvm.check_kernel(X=X, kernel="rbf", method="dense")
    import subprocess
    import sys

    from sklearn.datasets import dump_svmlight_file

    path = tmp_path / "big.libsvm"
    dump_svmlight_file(X, np.where(X[:, 0] > 0, 1, -1), str(path), zero_based=False)
    proc = subprocess.run([sys.executable, "-m", "indefsvm", "check", str(path), "--method",
                           "dense"], capture_output=True, text=True, cwd=tmp_path, timeout=300)
    assert proc.returncode == 1, proc.stderr
    last = proc.stderr.strip().splitlines()[-1]
    assert last.startswith("indefsvm: error:") and "GiB" in last and "available" in last
    assert "Traceback" not in proc.stderr


@pytest.mark.parametrize("rank", [1, 3, 8])
def test_ldl_lanczos_spectrum_of_low_rank_psd_kernels(rank):
    # before: the LDL + Lanczos path returned lambda_min = NaN on low-rank PSD kernels (6 of 54
    # planted cases), called them indefinite, and the verdict could change between calls
    rng = np.random.default_rng(rank)
    A = rng.normal(size=(700, rank))
    K = A @ A.T
    runs = [isvm.diagnostics.spectrum(K, method="ldl") for _ in range(2)]
    for sp_ in runs:
        assert np.isfinite(sp_.lam_min) and np.isfinite(sp_.lam_max)
        assert sp_.n_neg == 0 and sp_.is_psd, sp_
        assert sp_.lam_min >= -1e-8 * sp_.lam_max
    assert runs[0].to_dict() == runs[1].to_dict()
    dense = isvm.diagnostics.spectrum(K, method="dense")
    assert dense.n_neg == 0
    assert runs[0].lam_max == pytest.approx(dense.lam_max, rel=1e-8)


def _fitted_models(X, y):
    yr = X[:, 0] + 0.1 * X[:, 1]
    return [
        (isvm.IndefiniteSVC(kernel="sigmoid", gamma=0.05, coef0=-1.0).fit(X, y), X),
        (isvm.IndefiniteNuSVC(nu=0.3, gamma=0.1).fit(X, y), X),
        (isvm.IndefiniteSVR(kernel="rbf", gamma=0.1).fit(X, yr), X),
        (isvm.IndefiniteOneClassSVM(gamma=0.1, nu=0.2).fit(X), X),
        (isvm.ConvexHullClassifier(kernel="rbf", gamma=0.1).fit(X, y), X),
    ]


def test_models_survive_pickle_joblib_and_skops(heart, tmp_path):
    import pickle

    import joblib
    import skops.io as sio

    X, y = heart
    for model, Xp in _fitted_models(X, y):
        ref = model.predict(Xp)
        again = pickle.loads(pickle.dumps(model))
        np.testing.assert_array_equal(again.predict(Xp), ref)
        joblib.dump(model, tmp_path / "m.joblib")
        np.testing.assert_array_equal(joblib.load(tmp_path / "m.joblib").predict(Xp), ref)
        sio.dump(model, tmp_path / "m.skops")
        trusted = sio.get_untrusted_types(file=tmp_path / "m.skops")
        np.testing.assert_array_equal(
            sio.load(tmp_path / "m.skops", trusted=trusted).predict(Xp), ref)


def test_one_model_predicts_from_eight_threads_at_once(heart):
    from concurrent.futures import ThreadPoolExecutor

    X, y = heart
    for model, Xp in _fitted_models(X, y)[:3]:
        ref = model.decision_function(Xp) if hasattr(model, "decision_function") \
            else model.predict(Xp)
        call = model.decision_function if hasattr(model, "decision_function") \
            else model.predict
        with ThreadPoolExecutor(8) as pool:
            outs = list(pool.map(call, [Xp] * 32))
        for out in outs:
            np.testing.assert_array_equal(out, ref)


def test_a_cache_size_beyond_memory_is_not_allocated_up_front(heart):
    # columns are allocated as they are filled (never more than n of them): a cache_size of
    # a petabyte costs what the problem needs, not an out-of-memory kill
    X, y = heart
    big = isvm.IndefiniteSVC(kernel="rbf", gamma=0.1, cache_size=1e9).fit(X, y)
    small = isvm.IndefiniteSVC(kernel="rbf", gamma=0.1).fit(X, y)
    np.testing.assert_array_equal(big.dual_coef_, small.dual_coef_)
