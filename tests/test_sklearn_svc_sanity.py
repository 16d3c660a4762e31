"""The sanity report of scikit-learn's own SVC: ``SVC(kernel="sigmoid")`` trains on an
indefinite kernel with LIBSVM, and its user asks what a user of ``IndefiniteSVC`` asks --
is the solution a stationary point, is w'Mw > 0? Before, ``sanity_report(svc, X, y)`` said
"needs a fitted IndefiniteSVC ... got SVC". The report reads the model's public dual
(``dual_coef_``, ``support_``, ``intercept_``), recomputes its kernel, and is checked here
against the dual written out by hand and against IndefiniteSVC on the same problem."""

import numpy as np
import pytest
from sklearn.datasets import load_iris
from sklearn.pipeline import make_pipeline
from sklearn.preprocessing import StandardScaler
from sklearn.svm import SVC

import indefsvm as isvm

SIGMOID = dict(kernel="sigmoid", gamma=0.01, coef0=-0.5)


@pytest.fixture(scope="module")
def heart():
    return isvm.datasets.load_heart(return_X_y=True)


def test_a_binary_sigmoid_svc_is_reported_as_its_dual_written_out(heart):
    X, y = heart
    svc = SVC(C=10, **SIGMOID).fit(X, y)
    rep = isvm.sanity_report(svc, X, y)
    # the dual by hand: alpha_i = y_i dual_coef_i on the support vectors, 0 elsewhere
    K = isvm.kernel_matrix(X, **SIGMOID)
    yp = np.where(y == svc.classes_[1], 1.0, -1.0)
    alpha = np.zeros(len(y))
    alpha[svc.support_] = svc.dual_coef_[0] * yp[svc.support_]
    assert alpha.min() >= 0 and alpha.max() <= 10
    v = yp * alpha
    assert rep.objective == pytest.approx(0.5 * v @ K @ v - alpha.sum(), rel=1e-12)
    assert rep.wMw == pytest.approx(4 * (v / alpha.sum()) @ K @ (v / alpha.sum()), rel=1e-10)
    assert rep.n_sv == svc.support_.shape[0]
    assert rep.n_bounded == int(np.sum(alpha >= 10 * (1 - 1e-12)))
    assert rep.is_stationary and rep.kkt_gap <= svc.tol
    # and IndefiniteSVC on the same problem reaches the same point, within tol
    ours = isvm.sanity_report(isvm.IndefiniteSVC(C=10, **SIGMOID).fit(X, y), X, y)
    assert rep.objective == pytest.approx(ours.objective, rel=1e-6)
    assert rep.wMw == pytest.approx(ours.wMw, rel=1e-3)


@pytest.mark.parametrize("shape", ["ovr", "ovo"])
def test_every_pair_of_a_multiclass_svc_is_reported(shape):
    X, y = load_iris(return_X_y=True)
    kw = dict(kernel="sigmoid", gamma=0.1, coef0=-1.0, C=1.0)
    rep = isvm.sanity_report(SVC(decision_function_shape=shape, **kw).fit(X, y), X, y)
    ours = isvm.sanity_report(isvm.IndefiniteSVC(**kw).fit(X, y), X, y)
    assert [tuple(p) for p in rep.pairs] == [tuple(p) for p in ours.pairs]
    for a, b in zip(rep.reports, ours.reports, strict=True):
        assert a.objective == pytest.approx(b.objective, rel=1e-6)
        assert a.wMw == pytest.approx(b.wMw, rel=1e-3, abs=1e-6)
        assert a.verdict == b.verdict


@pytest.mark.parametrize("kw", [dict(kernel="rbf"), dict(kernel="linear"),
                                dict(kernel="poly", degree=2, coef0=1.0),
                                dict(kernel="rbf", gamma="auto", class_weight={1: 3.0}),
                                dict(kernel="sigmoid", gamma=0.01, coef0=-0.5,
                                     class_weight="balanced")])
def test_each_kernel_and_class_weights(heart, kw):
    X, y = heart
    svc = SVC(C=1.0, **kw).fit(X, y)
    rep = isvm.sanity_report(svc, X, y)
    # LIBSVM stopped at its gap <= tol; recomputed in float64 here
    assert rep.is_stationary and rep.kkt_gap <= svc.tol
    if "class_weight" in kw:
        w = svc.class_weight_[np.searchsorted(svc.classes_, y)]
        assert np.asarray(rep.C).max() == pytest.approx(1.0 * w.max())


def test_a_precomputed_svc_and_a_pipeline(heart):
    X, y = heart
    K = isvm.kernel_matrix(X, **SIGMOID)
    direct = isvm.sanity_report(SVC(C=10, **SIGMOID).fit(X, y), X, y)
    pre = isvm.sanity_report(SVC(kernel="precomputed", C=10).fit(K, y), K, y)
    assert pre.objective == pytest.approx(direct.objective, rel=1e-6)
    pipe = make_pipeline(StandardScaler(), SVC(C=1.0, kernel="sigmoid")).fit(X, y)
    Z = StandardScaler().fit_transform(X)
    assert (isvm.sanity_report(pipe, X, y).objective
            == pytest.approx(isvm.sanity_report(pipe[-1], Z, y).objective, rel=1e-12))


def test_what_the_report_cannot_vouch_for_is_refused(heart):
    X, y = heart
    svc = SVC(C=10, **SIGMOID).fit(X, y)
    with pytest.raises(ValueError, match="it was fitted with sample_weight, which SVC does "
                                         "not keep"):
        weights = np.r_[np.full(100, 5.0), np.ones(170)]
        isvm.sanity_report(SVC(C=1.0).fit(X, y, sample_weight=weights), X, y)
    with pytest.raises(ValueError, match="the decision value recomputed for training "
                                         "sample .* differs"):
        isvm.sanity_report(svc, X + 0.01, y)
    with pytest.raises(ValueError, match="y must be the training labels"):
        isvm.sanity_report(svc, X, -y)
    with pytest.raises(ValueError, match="needs the training y"):
        isvm.sanity_report(svc, X)
    with pytest.raises(ValueError, match="needs a fitted SVC"):
        isvm.sanity_report(SVC(), X, y)
    svc.set_params(gamma=0.02)  # changed after fit: not the kernel it was trained on
    with pytest.raises(ValueError, match="kernel parameters changed after fit"):
        isvm.sanity_report(svc, X, y)


def test_sparse_features_and_a_callable_kernel_of_strings(heart):
    # a model fitted on CSR keeps its dual_coef_ as CSR; a callable reads strings as given
    import scipy.sparse as sp

    X, y = heart
    Xs = sp.csr_matrix(np.where(np.abs(X) < 0.3, 0.0, X))
    for kernel in ("rbf", "sigmoid"):
        svc = SVC(kernel=kernel, C=1.0).fit(Xs, y)
        dense = SVC(kernel=kernel, C=1.0).fit(Xs.toarray(), y)
        a, b = isvm.sanity_report(svc, Xs, y), isvm.sanity_report(dense, Xs.toarray(), y)
        assert a.objective == pytest.approx(b.objective, rel=1e-9)
    S, labels = isvm.datasets.make_motif_strings(40, random_state=0)

    def shared(A, B):
        return np.array([[len(set(s) & set(t)) / max(len(s), len(t)) for t in B] for s in A])

    rep = isvm.sanity_report(SVC(kernel=shared, C=10.0).fit(S, labels), S, labels)
    reports = getattr(rep, "reports", [rep])  # one a pair of classes
    assert len(reports) == len(np.unique(labels)) * (len(np.unique(labels)) - 1) // 2
    assert all(r.kkt_gap <= 1e-3 for r in reports)


def test_a_search_of_scikit_learn_is_reported_by_its_refitted_model(heart):
    from sklearn.model_selection import GridSearchCV

    X, y = heart
    for est in (SVC(**SIGMOID), isvm.IndefiniteSVC(**SIGMOID)):
        grid = GridSearchCV(est, {"C": [1.0, 10.0]}, cv=3).fit(X, y)
        assert (isvm.sanity_report(grid, X, y).objective
                == isvm.sanity_report(grid.best_estimator_, X, y).objective)
    grid = GridSearchCV(SVC(**SIGMOID), {"C": [1.0, 10.0]}, cv=3, refit=False).fit(X, y)
    with pytest.raises(ValueError, match="needs its refitted model: fit it with refit=True"):
        isvm.sanity_report(grid, X, y)
