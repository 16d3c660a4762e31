"""Sanity report after training: w'Mw, bounded SVs, second-order test, CH equivalence."""

import json

import numpy as np
import pytest

import indefsvm as isvm
from helpers import kkt_gap
from indefsvm.diagnostics import sanity_report_from_alpha
from indefsvm.geometry import pseudo_euclidean_embedding, svm_to_ch


@pytest.fixture(scope="module")
def sigmoid_model(heart):
    X, y = heart
    clf = isvm.IndefiniteSVC(kernel="sigmoid", gamma=0.05, coef0=-0.2, C=5.0).fit(X, y)
    K = isvm.kernel_matrix(X, kernel="sigmoid", gamma=0.05, coef0=-0.2)
    return clf, K, X, y


def test_wMw_matches_definition_and_embedding(sigmoid_model):
    clf, K, X, y = sigmoid_model
    rep = isvm.sanity_report(clf, X, y)
    a = clf.alpha_
    brute = sum(a[i] * a[j] * y[i] * y[j] * K[i, j] for i in np.flatnonzero(a)
                for j in np.flatnonzero(a))
    assert rep.wMw == pytest.approx((2 / a.sum()) ** 2 * brute, rel=1e-10)
    # w = sum abar_i y_i z_i in the explicit pseudo-Euclidean embedding
    Z, M, sig = pseudo_euclidean_embedding(K)
    abar = 2 * a / a.sum()
    w = (abar * y) @ Z
    assert w @ M @ w == pytest.approx(rep.wMw, rel=1e-6)
    assert sig.q > 0  # the kernel really is indefinite here


def test_embedding_reproduces_squared_distances(sigmoid_model):
    _, K, _, _ = sigmoid_model
    Z, M, _ = pseudo_euclidean_embedding(K)
    d = np.diag(K)
    D2 = d[:, None] + d[None, :] - 2 * K
    diff = Z[:, None, :] - Z[None, :, :]
    E2 = np.einsum("ijk,k,ijk->ij", diff, np.diag(M), diff)
    assert np.max(np.abs(E2 - D2)) <= 1e-8 * np.max(np.abs(D2))


def test_embedding_projects_training_rows_onto_themselves(sigmoid_model):
    _, K, _, _ = sigmoid_model
    emb = isvm.geometry.PseudoEuclideanEmbedding().fit(K)
    np.testing.assert_allclose(emb.transform(K[:7]), emb.Z_[:7], atol=1e-8)


def test_bounded_ratio_bounds_training_error_and_ch_alpha_feasible(sigmoid_model, sonar):
    clf, K, X, y = sigmoid_model
    models = [(clf, X, y)]
    Xs, ys = sonar
    models.append((isvm.IndefiniteSVC(kernel="sigmoid", gamma=1.0, coef0=1.0, C=3.0)
                   .fit(Xs, ys), Xs, ys))
    for model, Xm, ym in models:
        rep = isvm.sanity_report(model, Xm, ym)
        assert rep.is_stationary
        assert rep.bounded_ratio >= rep.train_error
        yp = np.where(ym == model.classes_[1], 1.0, -1.0)
        abar, mu = rep.ch_alpha, rep.ch_mu
        assert abs(abar @ yp) < 1e-9 and abs(abar.sum() - 2) < 1e-12
        assert abar.min() >= 0 and abar.max() <= mu * (1 + 1e-12)


def test_ch_decision_has_svm_sign_when_no_alpha_is_bounded():
    """Prop. 7(3): without bounded coefficients the CH and SVM decision lines coincide."""
    rng = np.random.default_rng(0)
    # separated along the real axis, a little spread along the imaginary one
    X = np.r_[np.c_[rng.normal(-2, 0.5, 15), rng.normal(0, 0.3, 15)],
              np.c_[rng.normal(2, 0.5, 15), rng.normal(0, 0.3, 15)]]
    y = np.r_[-np.ones(15), np.ones(15)]
    svm = isvm.IndefiniteSVC(kernel="pseudo_euclidean", kernel_params={"p": 1}, C=1e4,
                             tol=1e-8).fit(X, y)
    a = svm.alpha_
    assert a.max() < 1e4  # nothing at the bound
    abar, mu = svm_to_ch(a, svm.C)
    ch = isvm.ConvexHullClassifier(kernel="pseudo_euclidean", kernel_params={"p": 1}, mu=1.0,
                                   tol=1e-10).fit(X, y)
    grid = rng.uniform(-4, 4, (400, 2))
    s_svm = np.sign(svm.decision_function(grid))
    s_ch = np.sign(ch.decision_function(grid))
    assert np.mean(s_svm == s_ch) >= 0.99
    # and the CH problem's optimum is the SVM's abar (same objective)
    K = isvm.kernel_matrix(X, kernel="pseudo_euclidean", p=1)
    Q = np.outer(y, y) * K
    assert 0.5 * abar @ Q @ abar == pytest.approx(ch.result_.objective, rel=1e-4)


def _constructed(c):
    """alpha = 0.5 all free, y = (1, 1, -1, -1), K v = y with v = y * alpha; c < 0 puts
    negative curvature along u = (1, -1, 0, 0) (e'u = 0, v'u = 0), c > 0 makes it PD."""
    y = np.array([1.0, 1.0, -1.0, -1.0])
    alpha = np.full(4, 0.5)
    v = y * alpha
    if c < 0:
        u = np.array([1.0, -1.0, 0.0, 0.0])
        K = np.outer(y, y) / 2 + c * np.outer(u, u)
    else:
        K = np.outer(y, y) / 2 + c * (np.eye(4) - np.outer(v, v) / (v @ v))
    assert np.allclose(K @ v, y)  # stationary with b = 0: Q alpha - e + b y = 0
    return K, y, alpha


def test_second_order_negative_curvature_is_not_a_local_min():
    K, y, alpha = _constructed(-1.0)
    rep = sanity_report_from_alpha(K, y, alpha, C=1.0)
    assert rep.is_stationary and rep.kkt_gap <= 1e-12
    assert rep.is_local_min is False and rep.min_curvature < 0
    # and indeed the objective drops along the direction
    d = np.array([1.0, -1.0, 0.0, 0.0]) * y
    Q = np.outer(y, y) * K
    F = lambda a: 0.5 * a @ Q @ a - a.sum()  # noqa: E731
    assert F(alpha + 0.1 * d) < F(alpha)


def test_second_order_strict_local_min():
    K, y, alpha = _constructed(1.0)
    rep = sanity_report_from_alpha(K, y, alpha, C=1.0)
    assert rep.is_stationary and rep.is_local_min is True and rep.min_curvature > 0


def test_negated_rbf_model_gets_nonpositive_wMw_and_unsuitable_note(heart):
    X, y = heart
    neg_rbf = lambda A, B: -isvm.kernels.rbf(A, B, gamma=0.1)  # noqa: E731
    clf = isvm.IndefiniteSVC(kernel=neg_rbf, C=1.0).fit(X, y)
    rep = isvm.sanity_report(clf, X, y)
    assert rep.wMw <= 0
    assert any("unsuitable" in n for n in rep.notes)


def test_report_from_alpha_agrees_with_solver(heart):
    X, y = heart
    K = isvm.kernel_matrix(X, kernel="sigmoid", gamma=1.0, coef0=1.0)
    res = isvm.solvers.smo(K, y, C=10.0)
    rep = sanity_report_from_alpha(K, y, res.alpha, 10.0, b=res.b)
    assert rep.kkt_gap == pytest.approx(kkt_gap(K, y, res.alpha, 10.0), abs=1e-12)
    assert rep.objective == pytest.approx(res.objective, rel=1e-9)
    text = str(rep)
    assert "w'Mw" in text and "KKT gap" in text
    json.dumps(rep.to_dict())
    assert "<table>" in rep._repr_html_()


def test_multiclass_gives_one_report_per_pair():
    from sklearn.datasets import load_iris

    X, y = load_iris(return_X_y=True)
    clf = isvm.IndefiniteSVC(kernel="sigmoid", gamma=0.1, coef0=-1.0).fit(X, y)
    rep = isvm.sanity_report(clf, X, y)
    assert len(rep.reports) == 3 and len(rep.pairs) == 3
    assert all(r.n_sv > 0 for r in rep.reports)
    json.dumps(rep.to_dict())


def test_sanity_report_input_errors(heart):
    X, y = heart
    with pytest.raises(ValueError, match="fitted"):
        isvm.sanity_report(isvm.IndefiniteSVC(), X, y)
    with pytest.raises(ValueError, match="alpha must satisfy"):
        sanity_report_from_alpha(np.eye(2), [1, -1], [2.0, 2.0], C=1.0)
    with pytest.raises(ValueError, match="all zero"):
        sanity_report_from_alpha(np.eye(2), [1, -1], [0.0, 0.0], C=1.0)


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


@pytest.mark.parametrize("make, y_kind", [
    (lambda: isvm.IndefiniteSVC(kernel="sigmoid", gamma=0.5, coef0=1, C=100, max_iter=5),
     "class"),
    (lambda: isvm.IndefiniteSVR(kernel="sigmoid", gamma=0.5, coef0=1, C=100, max_iter=5),
     "target"),
])
def test_sanity_report_never_calls_a_non_stationary_point_a_local_minimum(make, y_kind):
    # "not a stationary point (gap 376)" and "local minimum: yes (strict)" in one report
    import warnings

    X, y = isvm.datasets.load_heart(return_X_y=True)
    if y_kind == "target":
        y = X[:, 0] + 0.1 * X[:, 1]
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", isvm.ConvergenceWarning)
        model = make().fit(X, y)
    rep = isvm.sanity_report(model, X, y)
    assert not rep.is_stationary
    assert rep.is_local_min is None and rep.min_curvature is None
    text = str(rep)
    assert "Strict local minimum" not in text and "yes (strict)" not in text
    assert "not a stationary point" in text


def _indefinite_kernel():
    X, y = isvm.datasets.load_heart(return_X_y=True)
    return isvm.kernel_matrix(X, kernel="sigmoid", gamma=0.01, coef0=-0.5), y



def _same_report(rep, ref):
    """The same report, its float figures to 1e-9 (a pipeline's report sees transform(K),
    equal to fit_transform(K) to rounding: which BLAS path runs depends on the threads)."""
    got, want = rep.to_dict(), ref.to_dict()
    assert got.keys() == want.keys()
    for key, value in want.items():
        if isinstance(value, float):
            assert got[key] == pytest.approx(value, rel=1e-9, abs=1e-12), key
        else:
            assert got[key] == value, key



@pytest.mark.parametrize("fix", ["clip", "flip", "shift", "square"])
def test_sanity_report_of_a_remedy_pipeline(fix):
    # sanity_report refused the pipelines the library recommends
    from sklearn.pipeline import make_pipeline

    from indefsvm.remedies import (
        ClipEigenvalues,
        FlipEigenvalues,
        ShiftEigenvalues,
        SquareKernel,
    )

    K, y = _indefinite_kernel()
    step = {"clip": ClipEigenvalues, "flip": FlipEigenvalues, "shift": ShiftEigenvalues,
            "square": SquareKernel}[fix]()
    pipe = make_pipeline(step, isvm.IndefiniteSVC(kernel="precomputed", C=10)).fit(K, y)
    rep = isvm.sanity_report(pipe, K, y)
    # the same as the report of the SVM on the kernel it was trained on
    Kt = type(step)().fit_transform(K)
    ref = isvm.sanity_report(pipe[-1], Kt, y)
    _same_report(rep, ref)
    assert rep.is_stationary



def test_sanity_report_of_a_distance_pipeline_and_of_krein_svc():
    from sklearn.pipeline import make_pipeline

    X, y = isvm.datasets.make_cbf(45, length=40, random_state=0)
    D = isvm.pairwise_distances(X, metric="dtw")
    pipe = make_pipeline(isvm.DistanceKernel(), isvm.IndefiniteSVC(kernel="precomputed"))
    rep = isvm.sanity_report(pipe.fit(D, y), D, y)
    assert type(rep).__name__ == "PairwiseSanityReport"
    K, yb = _indefinite_kernel()
    krein = isvm.KreinSVC(kernel="precomputed", C=10).fit(K, yb)
    rk = isvm.sanity_report(krein, K, yb)
    Kf = isvm.remedies.FlipEigenvalues().fit_transform(K)
    _same_report(rk, isvm.sanity_report(krein.svc_, Kf, yb))
    assert rk.wMw > 0  # the flipped kernel is PSD: w'Mw = w'w > 0


def test_wmw_of_a_huge_kernel_and_tiny_alpha_does_not_overflow():
    # (2 / s)^2 overflowed (OverflowError) for s = sum(alpha) ~ 1e-300, the dual variables of
    # a linear kernel of features ~ 1e150; w'Mw scales as c for K -> c K, alpha -> alpha / c
    rng = np.random.default_rng(0)
    X = rng.normal(size=(10, 3))
    y = np.where(np.arange(10) % 2, 1.0, -1.0)
    K = X @ X.T
    clf = isvm.IndefiniteSVC(kernel="precomputed", C=1.0).fit(K, y)
    alpha = np.zeros(10)
    alpha[clf.support_] = np.abs(clf.dual_coef_[0])
    ref = sanity_report_from_alpha(K, y, alpha, 1.0, b=float(clf.intercept_[0]))
    c = 1e300
    rep = sanity_report_from_alpha(K * c, y, alpha / c, 1.0 / c,
                                   b=float(clf.intercept_[0]))
    assert rep.wMw == pytest.approx(ref.wMw * c, rel=1e-10)
    assert rep.margin == pytest.approx(ref.margin / np.sqrt(c), rel=1e-10)


def test_every_sanity_report_has_a_verdict():
    # generic code reads one attribute, whatever the model: the classifier's reading per pair
    from sklearn.datasets import load_iris

    X, y = isvm.datasets.load_heart(return_X_y=True)
    Xi, yi = load_iris(return_X_y=True)
    rng = np.random.default_rng(0)
    Z = rng.normal(size=(60, 2))
    models = [
        (isvm.IndefiniteSVC(kernel="sigmoid", gamma=0.01, coef0=-0.5), X, y),
        (isvm.IndefiniteSVC(), Xi, yi),
        (isvm.NystroemSVC(kernel="sigmoid", gamma=0.01, coef0=-0.5, n_components=80,
                          random_state=0), X, y),
        (isvm.IndefiniteSVR(), Z, Z[:, 0] + 0.1 * Z[:, 1]),
        (isvm.IndefiniteOneClassSVM(nu=0.2, gamma=0.5), Z, None),
    ]
    allowed = {"sensible", "not stationary", "counter-intuitive", "undecided"}
    for est, A, b in models:
        rep = isvm.sanity_report(est.fit(A, b), A, b)
        assert rep.verdict in allowed and rep.to_dict()["verdict"] == rep.verdict
        if hasattr(rep, "reports"):  # one-vs-one: the worst pair decides
            want = ("sensible" if all(r.verdict == "sensible" for r in rep.reports) else
                    "not stationary" if any(not r.is_stationary for r in rep.reports)
                    else "counter-intuitive")
        elif hasattr(rep, "problems"):  # the landmark model: each problem's w'Mw reading
            rel = [p["wMw_relative"] for p in rep.problems]
            want = ("not stationary" if not rep.is_stationary else "counter-intuitive"
                    if min(rel) < -1e-4 else "sensible" if min(rel) > 1e-4 else "undecided")
        else:
            want = ("not stationary" if not rep.is_stationary else
                    "sensible" if rep.wMw > 0 else "counter-intuitive")
        assert rep.verdict == want, type(est).__name__
