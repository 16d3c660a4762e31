"""The LIBSVM family on the general dual: weights, nu-SVC, SVR, one-class, probabilities.

References are independent of the code under test: scikit-learn's LIBSVM estimators in the
same run (PSD kernels), and a KKT gap of the general dual recomputed here from the kernel
matrix (indefinite kernels).
"""


import numpy as np
import pytest
from sklearn import svm
from sklearn.calibration import CalibratedClassifierCV
from sklearn.datasets import load_diabetes, load_iris, load_wine
from sklearn.metrics import log_loss
from sklearn.model_selection import GridSearchCV, cross_val_score, train_test_split
from sklearn.preprocessing import StandardScaler

import indefsvm as isvm


def _svc_objective(model, **kernel):
    """F = 1/2 b'Kb - sum|b| of a binary C-SVC, b = y * alpha on the support vectors (their
    kernel from support_vectors_: scikit-learn's support_ counts only the samples of
    non-zero weight when some weights are 0)."""
    b = np.asarray(model.dual_coef_).ravel()
    Ks = isvm.kernel_matrix(model.support_vectors_, **kernel)
    return 0.5 * b @ Ks @ b - np.abs(b).sum()


def _general_gap(Q, p, y, C, alpha):
    """m - M of min 1/2 a'Qa + p'a, y'a fixed, 0 <= a <= C (LIBSVM's stopping rule)."""
    g = -y * (Q @ alpha + p)
    up = ((alpha < C) & (y > 0)) | ((alpha > 0) & (y < 0))
    low = ((alpha < C) & (y < 0)) | ((alpha > 0) & (y > 0))
    return g[up].max() - g[low].min()


@pytest.mark.parametrize("data", ["heart", "sonar", "breast"])
@pytest.mark.parametrize("class_weight", [None, "balanced", "dict"])
def test_weighted_svc_matches_sklearn(data, class_weight, request):
    X, y = request.getfixturevalue(data)
    rng = np.random.default_rng(1)
    sw = rng.uniform(0.1, 3.0, y.shape[0])
    sw[rng.choice(y.shape[0], 5, replace=False)] = 0.0  # zero weights leave samples out
    cw = {np.unique(y)[0]: 2.5, np.unique(y)[1]: 0.7} if class_weight == "dict" else class_weight
    kw = dict(kernel="rbf", gamma=0.05, C=3.0, class_weight=cw)
    ref = svm.SVC(**kw).fit(X, y, sample_weight=sw)
    ours = isvm.IndefiniteSVC(**kw).fit(X, y, sample_weight=sw)
    f_ref = _svc_objective(ref, kernel="rbf", gamma=0.05)
    f_ours = _svc_objective(ours, kernel="rbf", gamma=0.05)
    assert f_ours == pytest.approx(ours.objective_, rel=1e-9)
    assert ours.converged_
    assert f_ours == pytest.approx(f_ref, rel=1e-3)
    assert np.mean(ours.predict(X) == ref.predict(X)) >= 0.99
    assert not np.isin(np.flatnonzero(sw == 0), ours.support_).any()
    np.testing.assert_allclose(ours.class_weight_, ref.class_weight_)
    # the bounds are C_i = C * class weight * sample weight
    bounds = 3.0 * ours.class_weight_[np.searchsorted(ours.classes_, y)] * sw
    assert np.all(ours.alpha_ <= bounds * (1 + 1e-12))


def test_multiclass_weighted_matches_sklearn():
    X, y = load_iris(return_X_y=True)
    sw = np.random.default_rng(0).uniform(0.5, 2.0, y.shape[0])
    for shape in ("ovr", "ovo"):
        ref = svm.SVC(kernel="linear", C=0.5, class_weight="balanced",
                      decision_function_shape=shape).fit(X, y, sample_weight=sw)
        ours = isvm.IndefiniteSVC(kernel="linear", C=0.5, class_weight="balanced",
                                  decision_function_shape=shape).fit(X, y, sample_weight=sw)
        assert ours.n_iter_.shape == (3,)
        np.testing.assert_allclose(ours.decision_function(X), ref.decision_function(X),
                                   atol=2e-2)
        np.testing.assert_array_equal(ours.n_support_, ref.n_support_)
        np.testing.assert_allclose(ours.coef_, ref.coef_, atol=2e-2)
        assert np.mean(ours.predict(X) == ref.predict(X)) >= 0.99


def test_break_ties_follows_the_ovr_argmax():
    X, y = load_iris(return_X_y=True)
    clf = isvm.IndefiniteSVC(kernel="rbf", C=0.1, break_ties=True).fit(X, y)
    np.testing.assert_array_equal(clf.predict(X),
                                  clf.classes_[np.argmax(clf.decision_function(X), axis=1)])
    with pytest.raises(ValueError, match="break_ties must be False"):
        clf.set_params(decision_function_shape="ovo").predict(X)


@pytest.mark.parametrize("bad", [[-1.0], [np.nan], [np.inf]])
def test_bad_sample_weight_is_refused_by_name(heart, bad):
    X, y = heart
    sw = np.ones(y.shape[0])
    sw[3] = bad[0]
    with pytest.raises(ValueError, match="sample_weight"):
        isvm.IndefiniteSVC().fit(X, y, sample_weight=sw)


@pytest.mark.parametrize("weighted", [False, True])
@pytest.mark.parametrize("precomputed", [False, True])
def test_svr_matches_sklearn(weighted, precomputed):
    X, y = load_diabetes(return_X_y=True)
    y = y / 100.0
    sw = np.random.default_rng(2).uniform(0.2, 2.0, y.shape[0]) if weighted else None
    K = isvm.kernel_matrix(X, kernel="rbf", gamma=2.0)
    data, kw = (K, dict(kernel="precomputed")) if precomputed else (X, dict(kernel="rbf",
                                                                            gamma=2.0))
    ref = svm.SVR(C=5.0, epsilon=0.2, **kw).fit(data, y, sample_weight=sw)
    ours = isvm.IndefiniteSVR(C=5.0, epsilon=0.2, **kw).fit(data, y, sample_weight=sw)

    def objective(m):
        b = np.zeros(y.shape[0])
        b[m.support_] = np.asarray(m.dual_coef_).ravel()
        return 0.5 * b @ K @ b + 0.2 * np.abs(b).sum() - y @ b

    assert ours.converged_
    assert objective(ours) == pytest.approx(objective(ref), rel=1e-3)
    assert ours.objective_ == pytest.approx(objective(ours), rel=1e-9)
    np.testing.assert_allclose(ours.predict(data), ref.predict(data), atol=5e-3)
    assert ours.n_support_.tolist() == [ours.support_.shape[0]]


@pytest.mark.parametrize("nu", [0.1, 0.5, 0.9])
@pytest.mark.parametrize("weighted", [False, True])
@pytest.mark.parametrize("precomputed", [False, True])
def test_nu_svr_matches_sklearn(nu, weighted, precomputed):
    X, y = load_diabetes(return_X_y=True)
    y = y / 100.0
    sw = np.random.default_rng(2).uniform(0.2, 2.0, y.shape[0]) if weighted else None
    K = isvm.kernel_matrix(X, kernel="rbf", gamma=2.0)
    data, kw = (K, dict(kernel="precomputed")) if precomputed else (X, dict(kernel="rbf",
                                                                            gamma=2.0))
    ref = svm.NuSVR(nu=nu, C=5.0, **kw).fit(data, y, sample_weight=sw)
    ours = isvm.IndefiniteNuSVR(nu=nu, C=5.0, **kw).fit(data, y, sample_weight=sw)

    def coef(m):
        b = np.zeros(y.shape[0])
        b[m.support_] = np.asarray(m.dual_coef_).ravel()
        return b

    def objective(m):  # the nu-SVR dual in beta = a - a*: 1/2 b'Kb - y'b
        return 0.5 * coef(m) @ K @ coef(m) - y @ coef(m)

    assert ours.converged_
    assert objective(ours) == pytest.approx(objective(ref), rel=1e-3)
    assert ours.objective_ == pytest.approx(objective(ours), rel=1e-9)
    np.testing.assert_allclose(ours.predict(data), ref.predict(data), atol=5e-3)
    assert ours.n_support_.tolist() == [ours.support_.shape[0]]
    assert abs(ours.support_.shape[0] - ref.support_.shape[0]) <= 2
    # the two sums of the dual: sum(a) = sum(a*) = nu sum(C_i) / 2
    C_i = 5.0 * (np.ones(y.shape[0]) if sw is None else sw)
    n = y.shape[0]
    np.testing.assert_allclose([ours.alpha_[:n].sum(), ours.alpha_[n:].sum()],
                               nu * C_i.sum() / 2, rtol=1e-9)
    # the width found: scikit-learn's free support vectors sit on the tube's edge,
    # |y - f(x)| = epsilon (scikit-learn does not report epsilon itself)
    b = coef(ref)
    free = (np.abs(b) > 1e-8 * C_i) & (np.abs(b) < C_i * (1 - 1e-8))
    edge = np.abs(y - ref.predict(data))[free]
    assert ours.epsilon_ == pytest.approx(float(np.median(edge)), abs=5e-3)


def test_nu_svr_on_an_indefinite_kernel_is_stationary_and_reports_its_width():
    """Sigmoid kernel with r > 0 (indefinite): each of the two sums' own KKT gap,
    recomputed here from the kernel, is <= tol (LIBSVM's Solver_NU rule), the sums are kept,
    the objective decreases, and the sanity report reads it as epsilon-SVR at epsilon_."""
    rng = np.random.default_rng(3)
    X = rng.normal(size=(120, 4))
    y = np.sin(X[:, 0]) + 0.1 * rng.normal(size=120)
    reg = isvm.IndefiniteNuSVR(nu=0.3, kernel="sigmoid", gamma=0.5, coef0=1.0, C=10.0)
    reg.fit(X, y)
    K = isvm.kernel_matrix(X, kernel="sigmoid", gamma=0.5, coef0=1.0)
    assert np.linalg.eigvalsh(K)[0] < -1e-3  # the kernel is indefinite
    n = y.shape[0]
    yy = np.r_[np.ones(n), -np.ones(n)]
    Q = np.outer(yy, yy) * np.block([[K, K], [K, K]])
    p = np.r_[-y, y]
    a = reg.alpha_
    assert reg.converged_
    for half in (slice(0, n), slice(n, 2 * n)):
        # each sum with its own multiplier: the gap of LIBSVM's rule within one half
        assert _general_gap(Q[half, half], (Q[half] @ a - Q[half, half] @ a[half]) + p[half],
                            yy[half], 10.0, a[half]) <= 1e-3 + 1e-9
        assert a[half].sum() == pytest.approx(0.3 * 10.0 * n / 2, rel=1e-9)
    assert np.all(np.diff(reg.history_[:, 1]) <= 1e-9)
    rep = isvm.sanity_report(reg, X, y)
    assert rep.model == "nu-SVR" and rep.is_stationary and rep.tol == pytest.approx(2e-3)
    assert f"epsilon = {reg.epsilon_:.4g}" in str(rep)
    assert rep.outside_ratio <= rep.bounded_ratio + 1e-12
    # the same solution is a stationary epsilon-SVR at epsilon_: its gap, recomputed here
    assert _general_gap(Q, np.r_[reg.epsilon_ - y, reg.epsilon_ + y], yy, 10.0, a) <= 2e-3


@pytest.mark.parametrize("kernel", [dict(kernel="rbf", gamma=0.5),
                                    dict(kernel="sigmoid", gamma=0.5, coef0=-0.2)])
def test_the_nu_forms_shrink_each_class_by_its_own_gap(kernel):
    """Shrinking with one equality constraint per class (each variable judged by its own
    class's m and M) on problems long enough to shrink (tens of thousands of iterations; the
    sigmoid kernel indefinite): stationary in each sum, and on the PSD kernel the same
    solution as without, to tol; nu-SVC likewise."""
    from sklearn.datasets import make_classification, make_regression

    X, y = make_regression(n_samples=1500, n_features=20, noise=10.0, random_state=0)
    X /= np.abs(X).max()
    y /= np.abs(y).max()
    K = isvm.kernel_matrix(X, **kernel)
    fits = {s: isvm.IndefiniteNuSVR(nu=0.3, C=10.0, shrinking=s, **kernel).fit(X, y)
            for s in (True, False)}
    n = y.shape[0]
    yy = np.r_[np.ones(n), -np.ones(n)]
    Q = np.outer(yy, yy) * np.block([[K, K], [K, K]])
    p = np.r_[-y, y]
    for reg in fits.values():
        assert reg.converged_ and reg.n_iter_ > 10_000
        for half in (slice(0, n), slice(n, 2 * n)):
            rest = Q[half] @ reg.alpha_ - Q[half, half] @ reg.alpha_[half]
            assert _general_gap(Q[half, half], rest + p[half], yy[half], 10.0,
                                reg.alpha_[half]) <= 1e-3 + 1e-9
    if kernel["kernel"] == "rbf":
        # one optimum (PSD): both runs reach it; on the indefinite kernel the two paths may
        # end at different stationary points, each checked above
        assert fits[True].objective_ == pytest.approx(fits[False].objective_, rel=1e-4)
        np.testing.assert_allclose(fits[True].predict(X), fits[False].predict(X), atol=5e-3)
        # shrinking ran: a loop that ignored it (as the nu forms' did) takes the very path
        # of shrinking=False, to the iteration; the rebuilt gradients change the path here
        assert fits[True].n_iter_ != fits[False].n_iter_
    Xc, yc = make_classification(n_samples=3000, n_features=20, random_state=0)
    clf = {s: isvm.IndefiniteNuSVC(nu=0.3, gamma=0.05, shrinking=s).fit(Xc, yc)
           for s in (True, False)}
    assert clf[True].converged_ and clf[False].converged_ and clf[True].n_iter_[0] > 1000
    assert clf[True].objective_ == pytest.approx(clf[False].objective_, rel=1e-4)
    assert np.mean(clf[True].predict(Xc) == clf[False].predict(Xc)) >= 0.995


def test_nu_svr_says_when_the_tube_it_finds_has_negative_width():
    rng = np.random.default_rng(17)
    X = rng.normal(size=(30, 3))
    y = rng.normal(size=30)
    coef0 = float(rng.uniform(-2, 2))
    with pytest.warns(isvm.exceptions.DegenerateKernelWarning, match="negative width"):
        reg = isvm.IndefiniteNuSVR(nu=1.0, C=100.0, kernel="sigmoid", gamma=1.0,
                                   coef0=coef0).fit(X, y)
    assert reg.epsilon_ < -1.0 and reg.converged_


def test_svr_on_an_indefinite_kernel_is_stationary():
    """Sigmoid kernel with r > 0 (indefinite): the independently recomputed KKT gap of the
    2n-variable dual is <= tol and the history decreases."""
    rng = np.random.default_rng(3)
    X = rng.normal(size=(120, 4))
    y = np.sin(X[:, 0]) + 0.1 * rng.normal(size=120)
    reg = isvm.IndefiniteSVR(kernel="sigmoid", gamma=0.5, coef0=1.0, C=10.0, epsilon=0.05)
    reg.fit(X, y)
    K = isvm.kernel_matrix(X, kernel="sigmoid", gamma=0.5, coef0=1.0)
    assert np.linalg.eigvalsh(K)[0] < -1e-3  # the kernel is indefinite
    n = y.shape[0]
    yy = np.r_[np.ones(n), -np.ones(n)]
    Q = np.outer(yy, yy) * np.block([[K, K], [K, K]])
    p = np.r_[0.05 - y, 0.05 + y]
    assert reg.converged_
    assert _general_gap(Q, p, yy, 10.0, reg.alpha_) <= 1e-3 + 1e-9
    assert np.all(np.diff(reg.history_[:, 1]) <= 1e-9)
    np.testing.assert_allclose(reg.predict(X), K[:, reg.support_] @ reg.dual_coef_[0]
                               + reg.intercept_[0], atol=1e-8)


@pytest.mark.parametrize("nu", [0.05, 0.3, 0.7])
def test_one_class_matches_sklearn(heart, nu):
    X, _ = heart
    ref = svm.OneClassSVM(kernel="rbf", gamma=0.1, nu=nu).fit(X)
    ours = isvm.IndefiniteOneClassSVM(kernel="rbf", gamma=0.1, nu=nu).fit(X)
    K = isvm.kernel_matrix(X, kernel="rbf", gamma=0.1)

    def objective(m):
        a = np.zeros(X.shape[0])
        a[m.support_] = np.asarray(m.dual_coef_).ravel()
        return 0.5 * a @ K @ a

    assert objective(ours) == pytest.approx(objective(ref), rel=1e-3)
    assert ours.alpha_.sum() == pytest.approx(nu * X.shape[0])
    assert np.mean(ours.predict(X) == ref.predict(X)) >= 0.99
    np.testing.assert_allclose(ours.score_samples(X), ours.decision_function(X)
                               + ours.offset_, atol=1e-12)


def test_one_class_on_an_indefinite_kernel_is_stationary():
    rng = np.random.default_rng(5)
    X = rng.normal(size=(150, 3))
    det = isvm.IndefiniteOneClassSVM(kernel="l1_gaussian", gamma=0.3, nu=0.2).fit(X)
    K = isvm.kernel_matrix(X, kernel="l1_gaussian", gamma=0.3)
    assert np.linalg.eigvalsh(K)[0] < 0
    ones = np.ones(X.shape[0])
    assert det.converged_
    assert _general_gap(K, 0 * ones, ones, 1.0, det.alpha_) <= 1e-3 + 1e-9
    assert det.alpha_.sum() == pytest.approx(0.2 * X.shape[0])


@pytest.mark.parametrize("nu", [0.2, 0.5])
def test_nu_svc_matches_sklearn(sonar, nu):
    X, y = sonar
    ref = svm.NuSVC(kernel="rbf", gamma=0.05, nu=nu).fit(X, y)
    ours = isvm.IndefiniteNuSVC(kernel="rbf", gamma=0.05, nu=nu).fit(X, y)
    assert np.mean(ours.predict(X) == ref.predict(X)) >= 0.99
    np.testing.assert_allclose(ours.intercept_, ref.intercept_, atol=5e-3)
    with pytest.raises(ValueError, match="nu is infeasible"):
        isvm.IndefiniteNuSVC(nu=1.0).fit(X[:100], np.r_[np.zeros(80), np.ones(20)])


def _calibration_data():
    heart = isvm.datasets.load_heart(return_X_y=True)
    sonar = isvm.datasets.load_sonar(return_X_y=True)
    breast = isvm.datasets.load_breast_cancer_683(return_X_y=True)
    iris = load_iris(return_X_y=True)
    wine = load_wine(return_X_y=True)
    wine = (StandardScaler().fit_transform(wine[0]), wine[1])
    return {"heart": heart, "sonar": sonar, "breast": breast, "iris": iris, "wine": wine}


@pytest.mark.parametrize("name", ["heart", "sonar", "breast", "iris", "wine"])
def test_calibrated_probabilities_match_sklearn(name):
    """CalibratedClassifierCV(IndefiniteSVC(), ensemble=False) -- scikit-learn's advice in
    place of SVC(probability=True) -- gives SVC's log-loss within 2 %."""
    X, y = _calibration_data()[name]
    Xtr, Xte, ytr, yte = train_test_split(X, y, test_size=0.3, random_state=0, stratify=y)
    ref = CalibratedClassifierCV(svm.SVC(C=1.0), ensemble=False).fit(Xtr, ytr)
    ours = CalibratedClassifierCV(isvm.IndefiniteSVC(C=1.0), ensemble=False).fit(Xtr, ytr)
    l_ref = log_loss(yte, ref.predict_proba(Xte))
    l_ours = log_loss(yte, ours.predict_proba(Xte))
    assert l_ours == pytest.approx(l_ref, rel=0.02)


def test_calibrated_probabilities_on_precomputed_indefinite_weighted():
    X, y = load_wine(return_X_y=True)
    X = StandardScaler().fit_transform(X)
    Xtr, Xte, ytr, yte = train_test_split(X, y, test_size=0.3, random_state=0, stratify=y)
    Ktr = isvm.kernel_matrix(Xtr, kernel="l1_gaussian", gamma=0.02)
    Kte = isvm.kernel_matrix(Xte, Xtr, kernel="l1_gaussian", gamma=0.02)
    assert np.linalg.eigvalsh(Ktr)[0] < 0
    clf = CalibratedClassifierCV(isvm.IndefiniteSVC(kernel="precomputed", C=5.0,
                                                    class_weight="balanced"), ensemble=False)
    sw = np.where(ytr == 0, 2.0, 1.0)
    clf.fit(Ktr, ytr, sample_weight=sw)
    proba = clf.predict_proba(Kte)
    np.testing.assert_allclose(proba.sum(axis=1), 1.0)
    assert log_loss(yte, proba) < 0.3


@pytest.mark.parametrize("est", [isvm.IndefiniteSVC(kernel="precomputed"),
                                 isvm.IndefiniteNuSVC(kernel="precomputed"),
                                 isvm.IndefiniteSVR(kernel="precomputed"),
                                 isvm.ConvexHullClassifier(kernel="precomputed")])
def test_precomputed_estimators_slice_the_kernel_in_cv(est, heart):
    """The pairwise tag: cross_val_score and GridSearchCV slice K on both axes."""
    X, y = heart
    K = isvm.kernel_matrix(X, kernel="rbf", gamma=0.05)
    assert est.__sklearn_tags__().input_tags.pairwise
    # without the tag the folds would get rows of K only (not square) and fail
    scores = cross_val_score(est, K, y, cv=3, error_score="raise")
    assert np.all(scores > 0.5) if not isinstance(est, isvm.IndefiniteSVR) else np.all(
        np.isfinite(scores))
    grid = GridSearchCV(est, {}, cv=3, error_score="raise").fit(K, y)
    assert grid.best_estimator_.__sklearn_tags__().input_tags.pairwise


def test_sanity_reports_of_the_family(heart):
    X, y = heart
    sw = np.random.default_rng(0).uniform(0.5, 2.0, y.shape[0])
    sw[:3] = 0.0
    clf = isvm.IndefiniteSVC(kernel="sigmoid", gamma=0.01, coef0=-0.5, C=10.0,
                             class_weight="balanced").fit(X, y, sample_weight=sw)
    rep = isvm.sanity_report(clf, X, y)
    assert rep.is_stationary and rep.n == y.shape[0] - 3 and rep.ch_mu is None
    assert np.ndim(rep.C) == 1 and "per-sample" in str(rep)
    # nu-SVC: alpha / r is a C-SVC solution with bounds C_i / r
    nu = isvm.IndefiniteNuSVC(nu=0.4, kernel="sigmoid", gamma=0.01, coef0=-0.5).fit(X, y)
    rep = isvm.sanity_report(nu, X, y)
    assert rep.is_stationary and rep.train_error <= rep.bounded_ratio + 1e-12
    # epsilon-SVR and one-class on indefinite kernels: the general dual's report
    t = X[:, 0] + 0.5 * X[:, 1]
    reg = isvm.IndefiniteSVR(kernel="sigmoid", gamma=0.05, coef0=1.0, C=5.0, epsilon=0.1)
    rep = isvm.sanity_report(reg.fit(X, t), X, t)
    assert isinstance(rep, isvm.diagnostics.DualSanityReport) and rep.model == "epsilon-SVR"
    assert rep.is_stationary and rep.outside_ratio <= rep.bounded_ratio + 1e-12
    assert rep.objective == pytest.approx(reg.objective_, rel=1e-9)
    assert "flatness" in rep.wMw_meaning and rep.to_dict()["n"] == y.shape[0]
    det = isvm.IndefiniteOneClassSVM(kernel="l1_gaussian", gamma=0.05, nu=0.2).fit(X)
    rep = isvm.sanity_report(det, X)
    assert rep.is_stationary and rep.outside_ratio <= rep.bounded_ratio + 1e-12
    assert rep.bounded_ratio <= 0.2 + 1e-12  # nu bounds the fraction at the bound
    with pytest.raises(ValueError, match="needs a fitted"):
        isvm.sanity_report(isvm.KernelLogisticRegression().fit(X, y), X, y)


def test_kernel_rows_of_the_wrong_width_say_what_the_columns_are():
    # scikit-learn's words first (its tests match them), then what a precomputed kernel's
    # test rows are
    import re

    X, y = isvm.datasets.load_heart(return_X_y=True)
    K = isvm.kernel_matrix(X, kernel="sigmoid", gamma=0.01, coef0=-0.5)
    model = isvm.IndefiniteSVC(kernel="precomputed").fit(K, y)
    with pytest.raises(ValueError, match=re.escape(
            "X has 10 features, but IndefiniteSVC is expecting 270 features as input: kernel "
            "rows (n_samples, 270), one column per training sample.")):
        model.predict(K[:, :10])
    # vectors keep scikit-learn's message as it is
    with pytest.raises(ValueError, match=r"expecting 13 features as input\.$"):
        isvm.IndefiniteSVC().fit(X, y).predict(X[:, :10])


def test_probability_true_says_where_probabilities_live():
    with pytest.raises(TypeError, match=r"CalibratedClassifierCV\(IndefiniteSVC\(\.\.\.\), "
                                        "ensemble=False"):
        isvm.IndefiniteSVC(probability=True)
    with pytest.raises(TypeError, match=r"CalibratedClassifierCV\(IndefiniteNuSVC"):
        isvm.IndefiniteNuSVC(probability=True)
    with pytest.raises(TypeError, match="unexpected keyword argument 'gama'"):
        isvm.IndefiniteSVC(gama=1.0)
    # get_params / clone are unchanged
    import inspect

    from sklearn.base import clone

    clf = isvm.IndefiniteSVC(C=3.0)
    assert clone(clf).C == 3.0
    assert list(inspect.signature(isvm.IndefiniteSVC).parameters)[:2] == ["kernel", "C"]


def test_a_one_class_svm_with_nu_1_says_why_it_has_no_offset():
    # "The input data may contain large values and need to be preprocessed" -- of data near
    # 1 (scikit-learn's OneClassSVM says the same). With nu = 1 every alpha is at its bound 1:
    # no free support vector, none at 0, and the KKT conditions bound rho on one side only.
    from sklearn.svm import OneClassSVM

    X = np.random.default_rng(7).normal(size=(40, 3))
    with pytest.raises(ValueError):
        OneClassSVM(nu=1.0).fit(X)  # the reference fails on the same input
    with pytest.raises(ValueError, match=r"^The dual coefficients or intercepts are not "
                                         r"finite: nu=1 puts every sample at its upper bound"):
        isvm.IndefiniteOneClassSVM(nu=1.0).fit(X)
    assert np.isfinite(isvm.IndefiniteOneClassSVM(nu=0.999).fit(X).offset_[0])


@pytest.mark.parametrize("make", [
    lambda cw: isvm.IndefiniteSVC(class_weight=cw),
    lambda cw: isvm.KreinSVC(class_weight=cw),
    lambda cw: isvm.NystroemSVC(n_components=20, class_weight=cw),
])
def test_a_class_weight_of_a_class_the_labels_lack_is_named(make):
    # scikit-learn's words name the classes there are ("The classes, ['no', 'yes'], are not
    # in class_weight"), not the one the user mistyped
    rng = np.random.default_rng(0)
    X = rng.normal(size=(40, 3))
    y = np.where(X[:, 0] > 0, "yes", "no")
    with pytest.raises(ValueError, match=r"class_weight names class 'maybe', which the "
                       r"labels do not hold; their classes are 'no', 'yes'\."):
        make({"yes": 2.0, "maybe": 3.0}).fit(X, y)
    assert make({"yes": 2.0}).fit(X, y).score(X, y) > 0.8  # a class left out weighs 1
