"""Krein-space Nystroem features, NystroemSVC and the linear dual coordinate descent."""

import json
import signal
import threading
import time
import warnings

import numpy as np
import pytest
from sklearn.datasets import make_classification
from sklearn.kernel_approximation import Nystroem
from sklearn.model_selection import cross_val_score
from sklearn.pipeline import make_pipeline
from sklearn.svm import SVC

import indefsvm as isvm
from indefsvm import ConvergenceWarning, KreinNystroem, NystroemSVC
from indefsvm.remedies import ClipEigenvalues, FlipEigenvalues
from indefsvm.solvers import linear_svc

SIG = dict(kernel="sigmoid", gamma=0.05, coef0=-0.5)


def _heart(n_train=180, seed=1):
    X, y = isvm.datasets.load_heart(return_X_y=True)
    X = (X - X.mean(0)) / X.std(0)
    p = np.random.default_rng(seed).permutation(len(y))
    return X[p[:n_train]], y[p[:n_train]], X[p[n_train:]], y[p[n_train:]]


def _blobs(n, d=6, k=3, seed=0):
    rng = np.random.default_rng(seed)
    centers = rng.normal(scale=2.0, size=(k, d))
    y = rng.integers(0, k, size=n)
    return centers[y] + rng.normal(size=(n, d)), y


# ---- the features ----------------------------------------------------------------------

@pytest.mark.parametrize("kernel,params", [
    ("sigmoid", dict(gamma=0.2, coef0=-1.0)),
    ("rbf", dict(gamma=0.3)),
    ("sqrt_l1_exponential", dict(gamma=0.5)),
    ("polynomial", dict(gamma=0.5, coef0=-1.0, degree=3)),
])
def test_all_landmarks_reproduce_the_kernel(kernel, params):
    """m = n: Phi S Phi' = K on training rows and Phi(x) S Phi' = k(x, X) on new rows."""
    rng = np.random.default_rng(0)
    X = np.abs(rng.normal(size=(150, 5)))
    Xt = np.abs(rng.normal(size=(40, 5)))
    ny = KreinNystroem(kernel, n_components=150, random_state=0, **params).fit(X)
    K = isvm.kernel_matrix(X, kernel=kernel, **params)
    Kt = isvm.kernel_matrix(Xt, X, kernel=kernel, **params)
    scale = np.abs(K).max()
    assert np.abs(ny.approximate_kernel(X) - K).max() <= 1e-8 * scale
    Phi, Phit = ny.transform(X), ny.transform(Xt)
    assert np.abs((Phit * ny.signature_) @ Phi.T - Kt).max() <= 1e-8 * scale
    # the signature is that of the kernel: as many negative features as eigenvalues < 0
    lam = np.linalg.eigvalsh(K)
    assert ny.n_negative_ == int(np.sum(lam < -ny.tol_))
    assert ny.n_positive_ + ny.n_negative_ + ny.n_dropped_ == 150
    assert np.all(ny.signature_[:ny.n_positive_] == 1)
    assert np.all(ny.signature_[ny.n_positive_:] == -1)


def test_more_landmarks_than_samples_take_every_sample_and_say_so():
    # check_estimator(NystroemSVC()) failed 35 checks, KreinNystroem() 21: "n_components=500
    # is more than the 30 samples"; scikit-learn's Nystroem warns and uses the samples
    rng = np.random.default_rng(1)
    X = np.abs(rng.normal(size=(30, 4)))
    y = (X[:, 0] > X[:, 1]).astype(int)
    with pytest.warns(UserWarning, match=r"n_components=100 is more than the 30 samples: "
                                         r"every sample is a landmark") as said:
        ny = KreinNystroem("sigmoid", gamma=0.2, coef0=-1.0).fit(X)
    assert len([w for w in said if "n_components" in str(w.message)]) == 1
    exact = KreinNystroem("sigmoid", n_components=30, gamma=0.2, coef0=-1.0).fit(X)
    np.testing.assert_allclose(ny.transform(X), exact.transform(X), rtol=1e-12, atol=1e-12)
    K = isvm.kernel_matrix(X, kernel="sigmoid", gamma=0.2, coef0=-1.0)
    assert np.abs(ny.approximate_kernel(X) - K).max() <= 1e-8 * np.abs(K).max()
    with pytest.warns(UserWarning, match="n_components=500 is more than the 30 samples"):
        clf = NystroemSVC("sigmoid", gamma=0.2, coef0=-1.0).fit(X, y)
    assert clf.nystroem_.components_.shape[0] == 30


def test_precomputed_and_callable_equal_named():
    X, _ = _blobs(120)
    idx = np.sort(np.random.default_rng(3).choice(120, 50, replace=False))
    named = KreinNystroem("sigmoid", gamma=0.1, coef0=-0.3, landmarks=idx).fit(X)

    def k(A, B):
        return np.tanh(0.1 * A @ B.T - 0.3)

    call = KreinNystroem(k, landmarks=idx).fit(X)
    B = k(X, X[idx])
    pre = KreinNystroem("precomputed", landmarks=idx).fit(B)
    ref = named.approximate_kernel(X)
    assert np.allclose(call.approximate_kernel(X), ref, atol=1e-10)
    Phi = pre.transform(B)
    assert np.allclose((Phi * pre.signature_) @ Phi.T, ref, atol=1e-10)
    # a square precomputed block is W itself
    W = k(X[idx], X[idx])
    sq = KreinNystroem("precomputed").fit(W)
    assert np.allclose(sq.transform(W) * sq.signature_ @ sq.transform(W).T, W, atol=1e-10)


def _sigmoid_task():
    rng = np.random.default_rng(0)
    X = rng.normal(size=(1200, 10))
    params = dict(gamma=0.5 / 10, coef0=-0.5)
    ev = rng.choice(1200, 300, replace=False)
    K = isvm.kernel_matrix(X[ev], X, kernel="sigmoid", **params)
    return X, params, ev, K


def test_error_below_sklearn_nystroem_and_falls_with_m():
    """On a sigmoid kernel with a large negative part, scikit-learn's Nystroem (which takes
    |lambda|) approximates the flipped kernel; ours approximates K, on the same landmarks,
    and its error (mean of three draws) falls with m."""
    X, params, ev, K = _sigmoid_task()
    norm = np.linalg.norm(K)
    means = []
    # m doubles from 100 on; between 25 and 50 the mean is flat within the draws' spread
    # (0.049 and 0.050: below ~150 landmarks the kernel's numerical rank is not reached)
    for m in (25, 100, 200, 400, 800):
        errs = []
        for seed in range(3):
            sk = Nystroem(kernel="sigmoid", n_components=m, random_state=seed,
                          **params).fit(X)
            Zs = sk.transform(X)
            sk_err = np.linalg.norm(Zs[ev] @ Zs.T - K) / norm
            ny = KreinNystroem("sigmoid", n_components=m, landmarks=sk.component_indices_,
                               random_state=seed, **params).fit(X)
            ours = np.linalg.norm(ny.approximate_kernel(X[ev], X) - K) / norm
            assert ours < sk_err, (m, seed, ours, sk_err)
            errs.append(ours)
        means.append(np.mean(errs))
    assert all(b < a for a, b in zip(means, means[1:], strict=False)), means
    assert means[-1] < 0.01 and sk_err > 1.0


def test_stability_rule_drops_directions_that_do_not_extend():
    X, params, ev, K = _sigmoid_task()
    norm = np.linalg.norm(K)
    # m = 50, seed 2: W has an eigenvalue near 0 that the other rows do not share
    raw = KreinNystroem("sigmoid", n_components=50, stability=None, random_state=2,
                        **params).fit(X)
    ruled = KreinNystroem("sigmoid", n_components=50, random_state=2, **params).fit(X)
    assert np.array_equal(raw.component_indices_, ruled.component_indices_)
    err_raw = np.linalg.norm(raw.approximate_kernel(X[ev], X) - K) / norm
    err = np.linalg.norm(ruled.approximate_kernel(X[ev], X) - K) / norm
    assert err_raw > 1.0 and err < 0.1
    assert ruled.n_unstable_ >= 1 and ruled.n_components_ == 50 - ruled.n_unstable_
    assert np.all(ruled.extension_ratio_ <= 1e3)
    # a PSD kernel extends: nothing dropped
    rbf = KreinNystroem("rbf", n_components=100, gamma=0.05, random_state=0).fit(X)
    assert rbf.n_unstable_ == 0 and np.median(rbf.extension_ratio_) < 3


def test_heldout_rows_of_the_stability_rule_are_a_uniform_draw_without_landmarks():
    """The rows the stability rule extends to: k = max(500, m) distinct rows that are not
    landmarks, each equally likely; drawn in O(k + m), never an array of all n rows (n =
    10^12 here: a set difference with arange(n) could not even be made)."""
    ny = KreinNystroem()
    rng = np.random.default_rng(0)
    idx = np.sort(rng.choice(1000, size=10, replace=False))
    counts = np.zeros(1000)
    for seed in range(400):
        held = ny._heldout(1000, idx, np.random.default_rng(seed))
        assert held.size == 500 and np.unique(held).size == 500
        assert np.all(np.diff(held) > 0) and not np.isin(held, idx).any()
        counts[held] += 1
    assert np.all(counts[idx] == 0)
    rest = np.delete(counts, idx)
    # each of the 990 other rows in 400 * 500 / 990 = 202 draws; binomial sd ~ 10
    assert abs(rest.mean() - 400 * 500 / 990) < 1e-9 and np.abs(rest - rest.mean()).max() < 60
    big = np.array([3, 10**11, 10**12 - 1], dtype=np.int64)
    held = ny._heldout(10**12, big, np.random.default_rng(1))
    assert held.size == 500 and not np.isin(held, big).any() and held.max() < 10**12
    # few other rows: all of them
    assert np.array_equal(ny._heldout(12, np.array([0, 5]), rng), np.delete(np.arange(12),
                                                                            [0, 5]))
    assert KreinNystroem(stability=None)._heldout(10**6, idx, rng).size == 0


def test_kmeanspp_landmarks_distinct_deterministic_and_cover_small_clusters():
    """D^2 seeding reaches the small clusters that a uniform draw misses (what it is for;
    in Frobenius error it is not better: the large cluster dominates that, see the docs)."""
    rng = np.random.default_rng(2)
    centers = rng.normal(scale=4.0, size=(12, 4))
    sizes = [490] + [10] * 11
    X = np.vstack([c + 0.5 * rng.normal(size=(s, 4)) for c, s in zip(centers, sizes, strict=True)])
    label = np.repeat(np.arange(12), sizes)
    a = KreinNystroem("rbf", n_components=20, gamma=0.5, landmarks="kmeans++",
                      random_state=5).fit(X)
    b = KreinNystroem("rbf", n_components=20, gamma=0.5, landmarks="kmeans++",
                      random_state=5).fit(X)
    assert np.array_equal(a.component_indices_, b.component_indices_)
    assert np.unique(a.component_indices_).size == 20

    def covered(rule):
        return np.mean([np.unique(label[KreinNystroem(
            "rbf", n_components=20, gamma=0.5, landmarks=rule,
            random_state=s).fit(X).component_indices_]).size for s in range(10)])

    assert covered("kmeans++") >= 10 > 7 >= covered("uniform")


def test_dask_blocks_equal_numpy():
    da = pytest.importorskip("dask.array")
    X, _ = _blobs(500)
    ny = KreinNystroem("sigmoid", n_components=60, gamma=0.1, coef0=-0.5,
                       random_state=0).fit(X)
    lazy = ny.transform(da.from_array(X, chunks=(77, 3)))
    assert lazy.chunks[0] == da.from_array(X, chunks=(77, 3)).chunks[0]
    # the same formulas on blocks of other sizes: equal up to BLAS's rounding by block shape
    ref = ny.transform(X)
    assert np.abs(lazy.compute() - ref).max() <= 1e-12 * np.abs(ref).max()


def test_transform_in_blocks_equals_one_block(monkeypatch):
    import indefsvm.nystroem._blocks as mod

    X, _ = _blobs(700)
    ny = KreinNystroem("rbf", n_components=40, random_state=0).fit(X)
    whole = ny.transform(X)
    monkeypatch.setattr(mod, "_BLOCK_BYTES", 8 * 40 * 256)  # 256 rows a block
    assert np.abs(ny.transform(X) - whole).max() <= 1e-12 * np.abs(whole).max()


def test_threads_give_the_same_features():
    X, _ = _blobs(3000)
    a = KreinNystroem("sigmoid", n_components=50, gamma=0.1, random_state=0, n_jobs=1).fit(X)
    b = KreinNystroem("sigmoid", n_components=50, gamma=0.1, random_state=0, n_jobs=2).fit(X)
    assert np.array_equal(a.transform(X), b.transform(X))


def test_small_eigenvalues_dropped_by_the_stated_threshold():
    X = np.random.default_rng(0).normal(size=(80, 2))
    # a rank-3 kernel: 77 eigenvalues are rounding, dropped at m * eps * max|lambda|
    ny = KreinNystroem("linear", n_components=80).fit(np.c_[X, X[:, :1]])
    assert ny.n_components_ == 2  # the third column repeats the first: rank 2
    assert ny.tol_ == pytest.approx(80 * np.finfo(float).eps * np.abs(
        np.linalg.eigvalsh(np.c_[X, X[:, :1]] @ np.c_[X, X[:, :1]].T)).max(), rel=1e-6)
    # a genuine eigenvalue at 1e-8 relative is kept
    Y = np.c_[X, 1e-4 * np.random.default_rng(1).normal(size=80)]
    assert KreinNystroem("linear", n_components=80).fit(Y).n_components_ == 3


@pytest.mark.parametrize("make,match", [
    (lambda X: KreinNystroem(n_components=0).fit(X),
     "The 'n_components' parameter of KreinNystroem"),
    (lambda X: KreinNystroem(landmarks="random").fit(X),
     "The 'landmarks' parameter of KreinNystroem must be a str among"),
    (lambda X: KreinNystroem(landmarks=[0, 0, 1]).fit(X), "holds a row twice"),
    (lambda X: KreinNystroem(landmarks=[0, 400]).fit(X), "outside"),
    (lambda X: KreinNystroem(lambda A, B: A @ B.T + np.arange(B.shape[0]),
                             n_components=20, random_state=0).fit(X), "not symmetric"),
    (lambda X: KreinNystroem("precomputed").fit(X[:, :5]), "give landmarks="),
    (lambda X: KreinNystroem("precomputed").fit(np.triu(np.ones((5, 5)))), "not symmetric"),
    (lambda X: KreinNystroem(rtol=2.0).fit(X), "The 'rtol' parameter of KreinNystroem"),
    (lambda X: KreinNystroem(stability=0.5).fit(X),
     "The 'stability' parameter of KreinNystroem"),
    (lambda X: KreinNystroem(n_components=5).fit(np.where(X > 1, np.nan, X)), "NaN"),
    (lambda X: KreinNystroem("linear", n_components=5).fit(np.zeros((20, 3))),
     "zero on the landmarks"),
])
def test_bad_inputs_are_refused_by_name(make, match):
    X, _ = _blobs(100)
    with pytest.raises(ValueError, match=match):
        make(X)


def test_transform_refuses_nan_and_wrong_width():
    X, _ = _blobs(100)
    ny = KreinNystroem(n_components=10, random_state=0).fit(X)
    with pytest.raises(ValueError, match="NaN"):
        ny.transform(np.full((2, X.shape[1]), np.nan))
    with pytest.raises(ValueError, match="features"):
        ny.transform(X[:, :3])


# ---- the solver ------------------------------------------------------------------------

@pytest.mark.parametrize("n,r,C,shift", [(300, 20, 1.0, 0.0), (400, 10, 10.0, 3.0),
                                         (1000, 40, 0.1, -2.0)])
def test_linear_svc_equals_libsvm_with_a_free_bias(n, r, C, shift):
    """The dual objective and the decisions of scikit-learn's SVC(kernel="linear") (LIBSVM)
    at the same tol; a shifted class boundary needs a bias that is not regularised."""
    rng = np.random.default_rng(n)
    Z = rng.normal(size=(n, r)).astype(np.float32)
    y = np.where(Z[:, 0] + 0.5 * rng.normal(size=n) > -shift * 0.3, 1.0, -1.0)
    Z[:, 1] += shift
    res = linear_svc(Z, y, C, tol=1e-3, random_state=0)
    assert res.converged and res.kkt_gap <= 1e-3
    ref = SVC(kernel="linear", C=C, tol=1e-3).fit(Z.astype(np.float64), y)
    a = np.zeros(n)
    a[ref.support_] = np.abs(ref.dual_coef_[0])
    w_ref = (a * y) @ Z.astype(np.float64)
    obj_ref = 0.5 * w_ref @ w_ref - a.sum()
    assert res.objective == pytest.approx(obj_ref, rel=1e-3)
    f = Z.astype(np.float64) @ res.extra["w"] + res.b
    f_ref = ref.decision_function(Z.astype(np.float64))
    assert np.mean(np.sign(f) == np.sign(f_ref)) >= 0.99
    assert res.b == pytest.approx(ref.intercept_[0], abs=0.05 * (1 + abs(ref.intercept_[0])))


def test_linear_svc_kkt_by_definition():
    """Recomputed from the definitions: box, y'a = 0, and the KKT conditions with the
    returned bias, each to tol."""
    rng = np.random.default_rng(4)
    Z = rng.normal(size=(500, 15)).astype(np.float32)
    y = np.where(rng.normal(size=500) + Z[:, 2] > 0, 1.0, -1.0)
    Cb = rng.uniform(0.2, 3.0, size=500)
    res = linear_svc(Z, y, Cb, tol=1e-3, random_state=1)
    a = res.alpha
    assert np.all(a >= 0) and np.all(a <= Cb)
    assert abs(a @ y) <= 1e-3 * Cb.max()
    w = Z.astype(np.float64).T @ (a * y)
    assert np.allclose(w, res.extra["w"], atol=1e-8)
    G = y * (Z.astype(np.float64) @ w + res.b) - 1.0
    free = (a > 0) & (a < Cb)
    assert np.all(np.abs(G[free]) <= 1e-3)
    assert np.all(G[a == 0] >= -1e-3)
    assert np.all(G[a == Cb] <= 1e-3)


def test_linear_svc_tiny_problems_equal_brute_force():
    """Two to four points: the dual's minimum over a fine grid of the feasible set."""
    rng = np.random.default_rng(7)
    for trial in range(20):
        Z = rng.normal(size=(2, 3)).astype(np.float32)
        y = np.array([1.0, -1.0])
        C = float(rng.uniform(0.1, 5.0))
        res = linear_svc(Z, y, C, tol=1e-6, random_state=trial)
        Q = (Z.astype(np.float64) * y[:, None]) @ (Z.astype(np.float64) * y[:, None]).T
        t = np.linspace(0, C, 20001)  # y'a = 0: a1 = a2 = t
        F = 0.5 * t ** 2 * Q.sum() - 2 * t
        # y'a = 0 holds to |y'a| <= tol * C, which can lower F by about |b| |y'a|
        slack = 1e-6 * (1 + abs(F.min())) + abs(res.b) * res.extra["feasibility"]
        assert abs(res.extra["feasibility"]) <= 1e-6 * C
        assert res.objective == pytest.approx(F.min(), abs=slack)


def test_linear_svc_stops_at_max_iter_honestly():
    rng = np.random.default_rng(0)
    Z = rng.normal(size=(2000, 50)).astype(np.float32)
    y = np.sign(Z[:, 0] + 0.5 * rng.normal(size=2000) + 0.3)
    res = linear_svc(Z, y, 10.0, max_iter=5, random_state=0)
    assert not res.converged and res.n_iter == 5 and res.kkt_gap > 1e-3
    assert res.status == "max_iter reached"


@pytest.mark.parametrize("rows", [None, "odd"])
def test_linear_svc_from_a_start(rows):
    """From its own solution the descent stops within a few passes at the same optimum;
    from a rough start (a few passes' multipliers and intercept) it reaches the cold
    run's optimum; the start's w is Z'(a o y) over the rows asked for."""
    rng = np.random.default_rng(11)
    Z = rng.normal(size=(3000, 30)).astype(np.float32)
    y_all = np.where(Z[:, 0] + 0.7 * rng.normal(size=3000) > 0.2, 1.0, -1.0)
    idx = None if rows is None else np.arange(1, 3000, 2)
    y = y_all if idx is None else y_all[idx]
    cold = linear_svc(Z, y, 2.0, rows=idx, random_state=0)
    again = linear_svc(Z, y, 2.0, rows=idx, random_state=0, alpha0=cold.alpha, b0=cold.b)
    assert again.converged and again.n_iter <= 3
    assert again.objective == pytest.approx(cold.objective, rel=1e-6)
    rough = linear_svc(Z, y, 2.0, rows=idx, random_state=0, max_iter=3)
    assert not rough.converged
    warm = linear_svc(Z, y, 2.0, rows=idx, random_state=0, alpha0=rough.alpha, b0=rough.b)
    assert warm.converged and warm.kkt_gap <= 1e-3
    assert warm.objective == pytest.approx(cold.objective, rel=1e-4)
    Zr = Z.astype(np.float64) if idx is None else Z[idx].astype(np.float64)
    np.testing.assert_allclose(warm.extra["w"], Zr.T @ (warm.alpha * y), atol=1e-7)


@pytest.mark.parametrize("alpha0,b0,match", [
    (np.full(3, 2.0), 0.0, "each in \\[0, C_t\\]"),
    (np.array([0.5, -0.1, 0.5]), 0.0, "each in"),
    (np.zeros(2), 0.0, "must hold 3 multipliers"),
    (np.zeros(3), np.nan, "'b0' parameter of linear_svc must be a float"),
])
def test_linear_svc_refuses_a_bad_start(alpha0, b0, match):
    Z = np.ones((3, 2), dtype=np.float32)
    with pytest.raises(ValueError, match=match):
        linear_svc(Z, np.array([1.0, -1.0, 1.0]), 1.0, alpha0=alpha0, b0=b0)


@pytest.mark.parametrize("kwargs,match", [
    (dict(Z=np.ones((3, 2))), "float32"),
    (dict(y=np.array([1.0, 0.0, -1.0])), "each \\+1 or -1"),
    (dict(C=-1.0), "C must be finite"),
    (dict(tol=0.0), "tol must be"),
    (dict(max_iter=0), "'max_iter' parameter of linear_svc must be an int in the range"),
    (dict(rows=[0, 5, 1]), "rows must be"),
])
def test_linear_svc_refuses_bad_input(kwargs, match):
    args = dict(Z=np.ones((3, 2), dtype=np.float32), y=np.array([1.0, -1.0, 1.0]), C=1.0)
    args.update(kwargs)
    with pytest.raises(ValueError, match=match):
        linear_svc(args.pop("Z"), args.pop("y"), args.pop("C"), **args)


# ---- the classifier --------------------------------------------------------------------

@pytest.mark.parametrize("C", [0.1, 1.0, 10.0])
def test_all_landmarks_give_the_exact_remedies(C):
    X, y, Xt, _ = _heart()
    K = isvm.kernel_matrix(np.r_[X, Xt], kernel="sigmoid", gamma=0.05, coef0=-0.5)
    n = len(y)
    Ktr, Kte = K[:n, :n], K[n:, :n]
    for remedy, fix in (("flip", FlipEigenvalues), ("clip", ClipEigenvalues), ("krein", None)):
        ours = NystroemSVC(n_components=n, remedy=remedy, C=C, random_state=0, **SIG).fit(X, y)
        assert ours.converged_
        if fix is None:
            d_ref = isvm.KreinSVC(C=C, **SIG).fit(X, y).decision_function(Xt)
        else:
            exact = make_pipeline(fix(), isvm.IndefiniteSVC(kernel="precomputed", C=C))
            d_ref = exact.fit(Ktr, y).decision_function(Kte)
        d = ours.decision_function(Xt)
        assert np.mean(np.sign(d) == np.sign(d_ref)) >= 0.99, remedy
        assert np.abs(d - d_ref).max() <= 0.02, remedy


def test_multiclass_and_weights_against_the_exact_estimator():
    X, y = _blobs(240, k=4, seed=3)
    Xt, _ = _blobs(200, k=4, seed=4)
    sw = np.random.default_rng(0).uniform(0.2, 3.0, size=240)
    cw = {0: 2.0, 1: 0.5, 2: 1.0, 3: 1.5}
    params = dict(kernel="sigmoid", gamma=0.05, coef0=-0.3, C=2.0, class_weight=cw)
    ours = NystroemSVC(n_components=240, remedy="flip", random_state=0, **params)
    ours.fit(X, y, sample_weight=sw)
    K = isvm.kernel_matrix(np.r_[X, Xt], kernel="sigmoid", gamma=0.05, coef0=-0.3)
    exact = make_pipeline(FlipEigenvalues(), isvm.IndefiniteSVC(kernel="precomputed", C=2.0,
                                                               class_weight=cw))
    exact.fit(K[:240, :240], y, indefinitesvc__sample_weight=sw)
    assert np.mean(ours.predict(Xt) == exact.predict(K[240:, :240])) >= 0.99
    d, d_ref = ours.decision_function(Xt), exact.decision_function(K[240:, :240])
    assert d.shape == d_ref.shape == (200, 4)
    ovo = NystroemSVC(n_components=240, remedy="flip", random_state=0,
                      decision_function_shape="ovo", **params).fit(X, y, sample_weight=sw)
    exact.set_params(indefinitesvc__decision_function_shape="ovo")
    v, v_ref = ovo.decision_function(Xt), exact.decision_function(K[240:, :240])
    assert v.shape == v_ref.shape == (200, 6)
    # the pairs' decision values agree; the ovr values (votes plus confidences) then agree
    # wherever no pair is within that tolerance of a tie (a pair at 0.0006 may vote either
    # way: which way depends on the BLAS's summation order)
    assert np.abs(v - v_ref).max() <= 0.05
    clear = np.all(np.abs(v_ref) > 0.05, axis=1)
    assert clear.sum() >= 150
    assert np.abs(d - d_ref)[clear].max() <= 0.05
    # zero weights leave the samples out, like IndefiniteSVC
    sw0 = sw.copy()
    sw0[:30] = 0.0
    a = NystroemSVC(n_components=240, remedy="flip", random_state=0, **params)
    a.fit(X, y, sample_weight=sw0)
    assert all(not np.isin(np.arange(30), r).any() for r in a._rows)


def test_krein_decisions_use_the_indefinite_inner_product():
    X, y, Xt, _ = _heart()
    clf = NystroemSVC(n_components=60, remedy="krein", random_state=0, **SIG).fit(X, y)
    flip = NystroemSVC(n_components=60, remedy="flip", random_state=0, **SIG).fit(X, y)
    assert np.array_equal(clf.metric_, clf.nystroem_.signature_)
    Phi = clf.nystroem_.transform(Xt)
    manual = (Phi * clf.nystroem_.signature_) @ clf.coef_[0] + clf.intercept_[0]
    assert np.allclose(clf.decision_function(Xt), manual)
    # v = S w: the same decisions as flip (Loosli et al.'s back-projection)
    assert np.allclose(clf.decision_function(Xt), flip.decision_function(Xt))
    assert np.allclose(clf.coef_ * clf.metric_, flip.coef_)


def test_clip_uses_the_positive_features_only():
    X, y, Xt, _ = _heart()
    clf = NystroemSVC(n_components=80, remedy="clip", random_state=0, **SIG).fit(X, y)
    assert clf.coef_.shape == (1, clf.nystroem_.n_positive_)
    Phi = clf.nystroem_.transform(Xt)[:, :clf.nystroem_.n_positive_]
    assert np.allclose(clf.decision_function(Xt), Phi @ clf.coef_[0] + clf.intercept_[0])


def test_clip_without_positive_part_is_refused():
    X, y, _, _ = _heart()
    with pytest.raises(ValueError, match="no positive eigenvalue"):
        NystroemSVC("precomputed", remedy="clip").fit(-np.eye(len(y)) - 0.01, y)


def test_in_cross_val_score_and_pipeline_and_deterministic():
    X, y, _, _ = _heart()
    clf = NystroemSVC(n_components=60, random_state=3, **SIG)
    s1 = cross_val_score(clf, X, y, cv=3)
    s2 = cross_val_score(clf, X, y, cv=3)
    assert np.array_equal(s1, s2) and s1.mean() > 0.7
    a = NystroemSVC(n_components=60, random_state=3, n_jobs=1, **SIG).fit(X, y)
    b = NystroemSVC(n_components=60, random_state=3, n_jobs=2, **SIG).fit(X, y)
    assert np.array_equal(a.coef_, b.coef_)


def test_not_converged_warns_and_says_so():
    X, y, _, _ = _heart()
    with pytest.warns(ConvergenceWarning, match="max_iter=2 passes"):
        clf = NystroemSVC(n_components=100, C=100.0, max_iter=2, random_state=0,
                          **SIG).fit(X, y)
    assert not clf.converged_ and np.all(clf.n_iter_ == 2)
    rep = isvm.sanity_report(clf, X, y)
    assert not rep.is_stationary
    assert "Not a stationary point" in str(rep)


@pytest.mark.parametrize("kwargs,match", [
    (dict(remedy="square"), "The 'remedy' parameter of NystroemSVC must be a str among"),
    (dict(C=0.0), "The 'C' parameter of NystroemSVC must be a float in the range"),
    # a finite C, said by the constraint before any work (a hand check of the fit said it)
    (dict(C=np.inf), r"The 'C' parameter of NystroemSVC must be a float in the range "
                     r"\(0.0, inf\)\. Got inf"),
    (dict(tol=-1.0), "The 'tol' parameter of NystroemSVC"),
    (dict(decision_function_shape="x"), "decision_function_shape"),
])
def test_classifier_refuses_bad_settings(kwargs, match):
    X, y, _, _ = _heart()
    with pytest.raises(ValueError, match=match):
        NystroemSVC(**kwargs).fit(X, y)


@pytest.mark.parametrize("C", [0.0, -1.0, np.inf, "1"])
def test_a_bad_C_is_refused_by_name_where_validation_is_skipped(C):
    """Inside a search scikit-learn skips a nested estimator's constraints
    (skip_parameter_validation): the model's own rule then says C, by name, as the
    library's other settings are said (a ParameterError, which the command line turns into
    its option)."""
    from sklearn import config_context

    from indefsvm.exceptions import ParameterError

    X, y, _, _ = _heart()
    with config_context(skip_parameter_validation=True), \
            pytest.raises(ParameterError, match="^C must be a finite number > 0") as err:
        NystroemSVC(C=C, n_components=20).fit(X, y)
    assert err.value.param == "C"


def test_one_class_and_bad_weights_refused():
    X, y, _, _ = _heart()
    with pytest.raises(ValueError, match="greater than one"):
        NystroemSVC(n_components=10).fit(X, np.zeros(len(y)))
    with pytest.raises(ValueError, match="sample_weight must be >= 0"):
        NystroemSVC(n_components=10).fit(X, y, sample_weight=np.where(
            np.arange(len(y)) == 3, -1.0, 1.0))
    # the positive weights in one class: refused, whichever class that is
    for c in np.unique(y):
        with pytest.raises(ValueError, match="belong to the same class"):
            NystroemSVC(n_components=10).fit(X, y, sample_weight=(y == c).astype(float))
    # each label coded by its place in classes_ (as np.unique's inverse): the classes
    # renamed in the other order give the mirrored problem and the same predictions
    codes = np.searchsorted(np.unique(y), y)
    words = np.array(["b", "a"])[codes]
    by_code = NystroemSVC(n_components=10, random_state=0).fit(X, codes)
    by_word = NystroemSVC(n_components=10, random_state=0).fit(X, words)
    assert list(by_word.classes_) == ["a", "b"]
    assert np.array_equal(by_word.predict(X), np.array(["b", "a"])[by_code.predict(X)])



def test_targets_checked_on_the_classes_as_scikit_learn_checks_the_labels():
    # NystroemSVC checks its classes, not its n labels, with scikit-learn's rule: the same
    # verdict and the same message as scikit-learn's check of y itself
    from sklearn.utils.multiclass import check_classification_targets

    from indefsvm.svm._weights import class_weight_vector

    X, y, _, _ = _heart()
    rng = np.random.default_rng(0)
    for bad in (y + 0.5 * rng.random(len(y)), np.where(np.arange(len(y)) == 7, np.nan, y),
                np.where(np.arange(len(y)) == 7, np.inf, y)):
        with warnings.catch_warnings():
            # (scikit-learn's cast of NaN to int warns on the way to its error)
            warnings.simplefilter("ignore", RuntimeWarning)
            with pytest.raises(ValueError) as sk:
                check_classification_targets(bad)
            with pytest.raises(ValueError) as ours:
                NystroemSVC(n_components=10).fit(X, bad)
        assert str(ours.value) == str(sk.value)
    # words of mixed kinds are checked by scikit-learn on the labels themselves
    mixed = np.array([1, "a"] * (len(y) // 2) + [1] * (len(y) % 2), dtype=object)
    with pytest.raises((ValueError, TypeError)):
        NystroemSVC(n_components=10).fit(X, mixed)
    # class_weight=None: ones for every class, without a pass over the labels
    from sklearn.utils.class_weight import compute_class_weight

    classes = np.unique(y)
    assert np.array_equal(class_weight_vector(None, classes, y),
                          compute_class_weight(None, classes=classes, y=y))

# ---- the sanity report -----------------------------------------------------------------

def test_sanity_report_recomputes_the_solution():
    X, y, _, _ = _heart()
    clf = NystroemSVC(n_components=80, random_state=0, **SIG).fit(X, y)
    rep = isvm.sanity_report(clf, X, y)
    assert rep.is_stationary and len(rep.problems) == 1
    p = rep.problems[0]
    # by definition, from the features of the training data
    Phi = clf.nystroem_.transform(X)
    yy = np.where(y == clf.classes_[1], 1.0, -1.0)
    a = clf._alphas[0]
    w = Phi.T @ (a * yy)
    wMw = (2 / a.sum()) ** 2 * (w * clf.nystroem_.signature_) @ w
    assert p["wMw"] == pytest.approx(wMw, rel=1e-4)
    assert p["n_bounded"] == int(np.sum(a >= clf.C))
    assert p["train_error"] == pytest.approx(1 - clf.score(X, y), abs=1e-9)
    assert p["coef_error"] < 1e-6
    d = Phi[yy > 0].mean(0) - Phi[yy < 0].mean(0)
    assert p["class_mean_sqdist"] == pytest.approx(d @ (clf.nystroem_.signature_ * d), rel=1e-4)
    assert rep.to_dict()["problems"][0]["n"] == len(y)
    # weights changed after fit are seen
    clf.coef_ = clf.coef_ * 1.5
    assert "differs from" in str(isvm.sanity_report(clf, X, y))


def test_sanity_report_multiclass_and_refusals():
    X, y = _blobs(150, k=3)
    clf = NystroemSVC(n_components=40, random_state=0).fit(X, y)
    rep = isvm.sanity_report(clf, X, y)
    assert [p["classes"] for p in rep.problems] == [(0, 1), (0, 2), (1, 2)]
    assert "<table>" in rep._repr_html_()
    with pytest.raises(ValueError, match="training data"):
        isvm.sanity_report(clf, X[:50], y[:50])
    with pytest.raises(ValueError, match="needs the training y"):
        isvm.sanity_report(clf, X)
    with pytest.raises(ValueError, match="fitted NystroemSVC"):
        isvm.sanity_report(NystroemSVC(), X, y)
    # labels that are not the training ones: refused (same length and classes, another
    # order; a class the model lacks; words against numbers), the same ones in a list kept
    with pytest.raises(ValueError, match="differ from the labels it was fitted on"):
        isvm.sanity_report(clf, X, y[::-1])
    with pytest.raises(ValueError, match=r"y\[0\] = 7 is not one of its classes"):
        isvm.sanity_report(clf, X, np.r_[7, y[1:]])
    with pytest.raises(ValueError, match="is not one of its classes"):
        isvm.sanity_report(clf, X, np.array(["a"] * len(y)))
    assert len(isvm.sanity_report(clf, X, list(y)).problems) == 3


# ---- Ctrl-C ----------------------------------------------------------------------------

def test_ctrl_c_stops_the_solver_and_leaves_the_estimator_unfitted():
    rng = np.random.default_rng(0)
    X = rng.normal(size=(60000, 10))
    y = np.where(np.sin(2 * X[:, 0]) + 0.8 * rng.normal(size=60000) > 0, 1, -1)
    clf = NystroemSVC(n_components=300, C=1000.0, tol=1e-6, random_state=0)
    timer = threading.Timer(3.0, lambda: signal.raise_signal(signal.SIGINT))
    start = time.perf_counter()
    timer.start()
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", ConvergenceWarning)
            with pytest.raises(KeyboardInterrupt):
                clf.fit(X, y)
                # the fit must last longer than the timer for the test to mean anything
                pytest.fail("fit ended before the signal")
    finally:
        timer.cancel()
    assert time.perf_counter() - start < 6.0
    assert not hasattr(clf, "coef_") and not hasattr(clf, "nystroem_")


# ---- the command line ------------------------------------------------------------------

def test_cli_fit_nystroem_saves_a_model_that_predicts(tmp_path, capsys):
    from indefsvm.cli import main

    model = tmp_path / "ny.skops"
    code = main(["fit", "--dataset", "heart", "--nystroem", "100", "--kernel", "sigmoid",
                 "--gamma", "0.01", "--coef0", "-0.5", "-C", "1", "--cv", "3", "--save",
                 str(model), "--json"])
    assert code == 0
    summary = json.loads(capsys.readouterr().out)
    assert summary["model"] == "NystroemSVC" and summary["landmarks"] == 100
    assert summary["converged"] and summary["problems"][0]["status"] == "converged"
    assert summary["problems"][0]["solver"] == "dcd"  # what its "passes" count
    assert 0.7 < summary["cv_accuracy_mean"] <= 1.0
    f = summary["features"]
    assert f["used"] == f["positive"] + f["negative"] and f["negative"] > 0
    X, y = isvm.datasets.load_heart(return_X_y=True)
    data = tmp_path / "heart.npy"
    np.save(data, X)
    out = tmp_path / "pred.txt"
    assert main(["predict", str(model), str(data), "--out", str(out)]) == 0
    pred = np.loadtxt(out)
    ref = NystroemSVC("sigmoid", n_components=100, gamma=0.01, coef0=-0.5,
                      random_state=0).fit(X, y).predict(X)
    assert np.array_equal(pred, ref)


@pytest.mark.parametrize("argv,match", [
    (["--nystroem", "1000"], "more than the 270 samples"),
    (["--nystroem", "100", "--restarts", "2"], "option of the SMO solver"),
    (["--nystroem", "100", "--remedy", "square"], "krein, flip or clip"),
    (["--nystroem", "0"], "argument --nystroem: expected the number of landmarks, 1 or more"),
    (["--nystroem", "100", "-C", "0"], "-C must be a float in the range (0.0, inf)"),
    (["--nystroem", "260", "--cv", "5"], "training samples of a CV fold"),
])
def test_cli_nystroem_usage_errors(argv, match, capsys):
    from indefsvm.cli import main

    assert main(["fit", "--dataset", "heart"] + argv) == 2
    err = capsys.readouterr().err
    assert match in err and "Traceback" not in err and err.startswith("indefsvm: error:")


def test_cli_refuses_a_tampered_nystroem_model(tmp_path, capsys):
    import skops.io as sio

    from indefsvm.cli import main

    X, y = isvm.datasets.load_heart(return_X_y=True)
    clf = NystroemSVC(n_components=50, random_state=0).fit(X, y)
    clf.coef_[0, 3] = np.nan
    path = tmp_path / "bad.skops"
    sio.dump(clf, path)
    data = tmp_path / "x.npy"
    np.save(data, X)
    assert main(["predict", str(path), str(data)]) == 1
    assert "coef values that are NaN" in capsys.readouterr().err


# ---- check_kernel says how many landmarks ------------------------------------------------

def test_check_kernel_says_how_many_landmarks_see_the_negative_part():
    X = np.random.default_rng(0).normal(size=(600, 10))
    params = dict(gamma=0.5, coef0=-2.0)
    rep = isvm.check_kernel(X=X, kernel="sigmoid", **params)
    # by definition, from the spectrum on the complement of e
    lam = rep.spectrum.restricted
    neg = lam < -rep.spectrum.tol
    order = np.argsort(-np.abs(lam))
    held = np.cumsum(np.where(neg[order], -lam[order], 0.0))
    k = int(np.argmax(held >= 0.9 * held[-1])) + 1
    assert rep.nystroem_landmarks == k
    assert rep.to_dict()["nystroem_landmarks"] == k
    assert any(f"n_components >= {k}" in note for note in rep.notes)
    est = isvm.check_kernel(X=X, kernel="sigmoid", method="slq", random_state=0, **params)
    assert abs(est.nystroem_landmarks - k) <= 0.15 * k
    assert "~>= " in str(est)
    assert isvm.check_kernel(X=X, kernel="rbf").nystroem_landmarks is None


def test_sanity_report_at_another_tol_does_not_call_the_model_a_liar():
    X, y, _, _ = _heart()
    clf = NystroemSVC(n_components=80, random_state=0, **SIG).fit(X, y)
    strict = isvm.sanity_report(clf, X, y, tol=1e-9)
    assert not strict.is_stationary
    assert not any("disagrees" in note for note in strict.notes)
    clf.converged_ = False  # a false claim at the fit's own tol is seen
    assert any("disagrees" in note for note in isvm.sanity_report(clf, X, y).notes)


def test_float32_features_keep_the_decision_values():
    """NystroemSVC trains on float32 features (half the memory); its decision values equal,
    to 1e-3 of their range, those of LIBSVM (scikit-learn's SVC, linear kernel) trained on
    the same features in float64, both solved to a tight gap (1e-6) so that what is left
    is the features' rounding."""
    X, y = make_classification(600, 8, n_informative=5, flip_y=0.05, random_state=4)
    clf = isvm.NystroemSVC(kernel="rbf", gamma=0.2, n_components=100, C=1.0, tol=1e-6,
                           random_state=0).fit(X, y)
    assert clf.converged_
    F = clf.nystroem_.transform(X)  # float64
    assert F.dtype == np.float64 and np.all(clf.metric_ == 1.0)  # rbf: a PSD kernel
    ref = SVC(kernel="linear", C=1.0, tol=1e-6).fit(F, y)
    d, d_ref = clf.decision_function(X), ref.decision_function(F)
    span = np.max(np.abs(d_ref))
    assert np.max(np.abs(d - d_ref)) <= 1e-3 * span
    np.testing.assert_array_equal(clf.predict(X), ref.predict(F))


def test_the_idle_cores_are_read_again_for_every_block(monkeypatch):
    # a moment's load at the start (another process ending, say) costs one block on one
    # thread, not the whole transform; the features are the same either way
    import indefsvm.nystroem._blocks as blocks
    import indefsvm.nystroem._features as feats

    X, _ = _blobs(1200)
    ny = KreinNystroem("rbf", n_components=40, random_state=0, n_jobs=2).fit(X)
    whole = ny.transform(X)
    monkeypatch.setattr(blocks, "_BLOCK_BYTES", 8 * 40 * 256)  # 256 rows a block: 5 blocks
    asked = []

    def busy_at_first(n_jobs, *args, **kwargs):
        asked.append(n_jobs)
        return 1 if len(asked) == 1 else 2

    monkeypatch.setattr(feats, "effective_threads", busy_at_first)
    np.testing.assert_array_equal(ny.transform(X), whole)
    assert len(asked) == 5


def test_large_c_unsolved_by_the_coordinate_descent_goes_on_in_the_decomposition(caplog):
    """With the default budget, a problem the coordinate descent leaves unsolved after its
    100 000 passes (C = 100 on imbalanced classes: many free multipliers) goes on in the
    decomposition on the CPU from the descent's point, and is solved: LIBSVM's KKT gap
    recomputed here in float64 from the multipliers, y'alpha = 0, the box. With max_iter
    given the budget is the user's: no hand-over, and the warning names the passes."""
    from indefsvm._solvers._linsvm import kkt_gap

    X, y = make_classification(6000, 10, n_informative=6, flip_y=0.05, weights=[0.9, 0.1],
                               random_state=0)
    kw = dict(n_components=80, random_state=0, C=100.0)
    with caplog.at_level("INFO", logger="indefsvm"), warnings.catch_warnings():
        warnings.simplefilter("error", ConvergenceWarning)
        clf = NystroemSVC(**kw, verbose=True).fit(X, y)
    assert "the coordinate descent stopped at 100000 passes" in caplog.text
    assert "the decomposition with working sets of rows goes on" in caplog.text
    assert clf.converged_ and clf.kkt_gap_[0] <= 1e-3
    assert clf.pair_results_[0]["solver"] == "decomposition"
    assert clf.n_iter_[0] == clf.pair_results_[0]["n_iter"] <= 400  # its steps
    Z = clf.nystroem_.transform(X).astype(np.float32).astype(np.float64)
    a = clf._alphas[0]
    ypm = np.where(y == clf.classes_[clf._pairs[0][2]], 1.0, -1.0)
    assert np.all(a >= 0) and np.all(a <= 100.0) and abs(ypm @ a) <= 1e-3 * 100.0
    w = Z.T @ (a * ypm)
    np.testing.assert_allclose(clf.coef_[0], w, rtol=1e-5, atol=1e-6)
    gap, _ = kkt_gap(Z @ w, ypm, a, np.full(len(y), 100.0))
    assert gap <= 1.01e-3
    with pytest.warns(ConvergenceWarning, match="coordinate descent stopped at "
                                                "max_iter=100000 passes"):
        capped = NystroemSVC(**kw, max_iter=100_000).fit(X, y)
    assert not capped.converged_ and capped.kkt_gap_[0] > 1e-3
    assert capped.pair_results_[0]["solver"] == "dcd"


def test_an_array_of_landmarks_sets_m_and_a_different_n_components_is_refused():
    # the probe of estimator options in pairs (2026-11-29): KreinNystroem(n_components=20,
    # landmarks=<25 indices>) fitted 25 landmarks and dropped the 20 without a word
    rng = np.random.default_rng(6)
    X = rng.normal(size=(60, 3))
    y = np.where(X[:, 0] > 0, 1, -1)
    idx = np.arange(0, 50, 2)  # 25 rows
    for est in (KreinNystroem(n_components=20, landmarks=idx),
                NystroemSVC(n_components=100, landmarks=idx)):
        with pytest.raises(ValueError, match=r"n_components=\d+ but landmarks names 25 rows: "
                                             r"with an array of landmarks m is its length"):
            est.fit(X, y)
    # left at its default, or equal to the length: the array's rows, m = 25
    for ny in (KreinNystroem(landmarks=idx), KreinNystroem(n_components=25, landmarks=idx)):
        ny.fit(X)
        np.testing.assert_array_equal(ny.component_indices_, idx)
        assert ny.n_components_ <= 25
    a = NystroemSVC(landmarks=idx, random_state=0).fit(X, y)
    b = NystroemSVC(n_components=25, landmarks=list(idx), random_state=0).fit(X, y)
    np.testing.assert_array_equal(a.decision_function(X), b.decision_function(X))


def test_stability_threshold_keeps_a_direction_at_the_threshold():
    """``stable = ratio <= float(self.stability)``: a direction whose extension ratio equals
    the threshold is kept."""
    rng = np.random.default_rng(2)
    X = rng.normal(size=(400, 5))
    kw = dict(kernel="sigmoid", n_components=60, gamma=0.3, coef0=-1.0, random_state=0)
    ny = isvm.KreinNystroem(**kw, stability=1e300).fit(X)  # every direction, every ratio
    worst = float(np.max(ny.extension_ratio_))
    at = isvm.KreinNystroem(**kw, stability=worst).fit(X)
    assert at.n_unstable_ == 0
    below = isvm.KreinNystroem(**kw, stability=np.nextafter(worst, 0)).fit(X)
    assert below.n_unstable_ >= 1


@pytest.mark.parametrize("idx, match", [
    (np.array([[0, 1], [2, 3]]), "landmarks"),
    (np.array([], dtype=int), "landmarks"),
    (np.array([0.0, 1.0]), "landmarks"),
])
def test_landmark_indices_are_checked_one_condition_at_a_time(idx, match):
    """``idx.ndim != 1 or idx.size == 0 or not integer``: each condition alone refuses."""
    X = np.random.default_rng(0).normal(size=(20, 3))
    with pytest.raises(ValueError, match=match):
        isvm.KreinNystroem(n_components=2, landmarks=idx).fit(X)


def test_nystroem_svc_defaults_are_svcs():
    """``coef0: float = 0.0`` and the other kernel defaults: those of scikit-learn's SVC."""
    from sklearn.svm import SVC

    ours, theirs = isvm.NystroemSVC().get_params(), SVC().get_params()
    for key in ("C", "coef0", "degree", "tol", "decision_function_shape", "break_ties"):
        assert ours[key] == theirs[key], key
    # gamma=None, as scikit-learn's Nystroem: SVC's "scale" for vectors (the median rule
    # with a metric)
    assert ours["gamma"] is None and isvm.NystroemSVC()._gamma() == theirs["gamma"]


def test_nystroem_svc_log_lines_say_the_truth(caplog):
    """The features line: rows x columns, their MB and a duration."""
    import logging
    import re

    rng = np.random.default_rng(0)
    X = rng.normal(size=(300, 4))
    y = np.where(X[:, 0] > 0, 1, -1)
    with caplog.at_level(logging.INFO, logger="indefsvm"):
        clf = isvm.NystroemSVC(n_components=40, random_state=0, verbose=True).fit(X, y)
    cols = clf.nystroem_.n_components_
    line = next(r.getMessage() for r in caplog.records
                if r.getMessage().startswith("features:"))
    m = re.match(r"features: (\d+) x (\d+) float32 \((\d+) MB\), ([\d.]+) s", line)
    assert m and int(m[1]) == 300 and int(m[2]) == cols
    assert int(m[3]) == round(300 * cols * 4 / 2**20) and float(m[4]) < 60
    ny = next(r.getMessage() for r in caplog.records if r.getMessage().startswith("Nystroem:"))
    assert float(ny.rsplit(", ", 1)[1].rstrip(" s")) < 60


def test_nystroem_svc_refuses_features_beyond_float32():
    # a linear kernel of inputs near 1e40: the float32 features were inf, and the linear
    # stage's rho "invalid value encountered in matmul" (NaN); now refused with the fix
    rng = np.random.default_rng(0)
    X = rng.normal(size=(60, 3))
    y = (X[:, 0] > 0).astype(int)
    with pytest.raises(ValueError, match=r"the features of rows 0 to 59 pass float32's "
                                         r"range .* Scale the features first"):
        isvm.NystroemSVC(kernel="linear", n_components=10, random_state=0).fit(X * 1e40, y)
    # inside float32 (features near 1e20) it trains: the labels are the sign of the first
    # input, and C x 1e40 makes it a hard margin
    with warnings.catch_warnings():
        warnings.simplefilter("error", RuntimeWarning)
        big = isvm.NystroemSVC(kernel="linear", n_components=10, random_state=0).fit(
            X * 1e20, y)
        assert np.all(np.isfinite(big.decision_function(X * 1e20)))
    assert big.score(X * 1e20, y) == 1.0


def _three_classes():
    rng = np.random.default_rng(0)
    y = np.repeat([0, 1, 2], 30)
    X = rng.normal(size=(90, 3))
    X[:, 0] += 2 * y
    return X, y


@pytest.mark.parametrize("make", [
    lambda: isvm.NystroemSVC(kernel="rbf", n_components=30, random_state=0),
    lambda: isvm.IndefiniteSVC(kernel="rbf")])
def test_a_class_with_no_weight_is_refused_as_by_the_smo_classifier(make):
    X, y = _three_classes()
    sw = np.where(y == 2, 0.0, 1.0)
    with pytest.raises(ValueError, match="class 2 has no sample with a positive weight"):
        make().fit(X, y, sample_weight=sw)
    with pytest.raises(ValueError, match="class_weight of class 0 is -1"):
        make().set_params(class_weight={0: -1}).fit(X, y)


@pytest.mark.parametrize("cls", [isvm.NystroemSVC, isvm.KreinNystroem])
def test_a_negative_gamma_is_refused_for_distance_like_kernels(cls):
    X, y = _three_classes()
    with pytest.raises(ValueError, match="gamma must be >= 0 for kernel='rbf'"):
        cls(kernel="rbf", gamma=-1, n_components=20).fit(X, y)
    # the sigmoid's negative slope stays allowed
    cls(kernel="sigmoid", gamma=-0.1, coef0=1.0, n_components=20, random_state=0).fit(X, y)


def test_a_tiny_c_converges_as_the_smo_does():
    X, y = _three_classes()
    yb = (y > 0).astype(int)
    import warnings

    with warnings.catch_warnings():
        warnings.simplefilter("error")  # no ConvergenceWarning
        clf = isvm.NystroemSVC(kernel="rbf", n_components=40, C=1e-8, random_state=0)
        clf.fit(X, yb)
    # passes, not seconds: it took the whole budget of 100 000 before
    assert clf.converged_ and clf.n_iter_[0] < 1000
    # every multiplier at its bound, as the SMO's solution at that C: the same decisions
    ref = isvm.IndefiniteSVC(kernel="rbf", C=1e-8).fit(X, yb)
    assert np.mean(clf.predict(X) == ref.predict(X)) > 0.9


def test_the_warning_names_the_condition_that_failed():
    from indefsvm.solvers import linear_svc

    Z = np.random.default_rng(0).normal(size=(200, 5)).astype(np.float32)
    yy = np.where(Z[:, 0] > 0, 1.0, -1.0)
    res = linear_svc(Z, yy, C=1e-8, max_iter=1)
    assert not res.converged
    X, y = _three_classes()
    with pytest.warns(isvm.ConvergenceWarning, match=r"KKT gap m - M is .* > tol|y'alpha"):
        isvm.NystroemSVC(kernel="rbf", n_components=40, C=100.0, max_iter=1,
                         random_state=0).fit(X, (y > 0).astype(int))


def test_verbose_feature_blocks_log_every_few_seconds_not_each(monkeypatch, caplog):
    import logging

    import indefsvm.nystroem._blocks as blocks

    monkeypatch.setattr(blocks, "_BLOCK_BYTES", 8 * 50 * 256)  # 256 rows a block
    rng = np.random.default_rng(0)
    X = rng.normal(size=(25_600, 5))
    y = (X[:, 0] > 0).astype(int)
    with caplog.at_level(logging.INFO, logger="indefsvm"):
        isvm.NystroemSVC(kernel="rbf", n_components=50, random_state=0, verbose=True).fit(X, y)
    steps = [r for r in caplog.records if r.getMessage().startswith("NystroemSVC: step")]
    # 100 blocks of features and one problem: the last block and the problem, not 101 lines
    assert 2 <= len(steps) <= 10
    assert steps[-1].args[0] == steps[-1].args[1] == 101


def test_the_fit_bar_shows_the_solvers_passes(monkeypatch):
    import io
    import logging
    from types import SimpleNamespace

    from tqdm import tqdm

    import indefsvm.cli._progress as progress

    monkeypatch.setattr(progress, "_bar", lambda args, total, desc, unit="fold": tqdm(
        total=total, file=io.StringIO()))
    args = SimpleNamespace(quiet=False, verbose=False)
    log = logging.getLogger("indefsvm")
    with progress._LogBar(args, 1, "fit", "NystroemSVC: step", "step",
                          detail=": pass ") as bar:
        log.info("NystroemSVC: step %d of %d (features of rows up to %d)", 12, 13, 10**6)
        log.info("%s: pass %d, gap %.3g, %d of %d rows active, %.1f s", "linear SVM", 4321,
                 0.02, 5000, 10**6, 12.0)
        assert bar._bar.n == 12 and bar._bar.total == 13
        assert "pass 4321, gap 0.02" in str(bar._bar.postfix)
