"""IndefiniteSVC: agreement with SVC, multi-class layout, kernels given three ways, warnings and
errors."""


import numpy as np
import pytest
from sklearn.datasets import load_iris
from sklearn.svm import SVC
from test_diagnostics import _tanh_kernel

import indefsvm as isvm
from helpers import dual_objective, kkt_gap
from indefsvm import IndefiniteSVC
from indefsvm.exceptions import ConvergenceWarning


def test_binary_matches_svc(heart):
    X, y = heart
    ours = IndefiniteSVC(kernel="rbf", C=2.0).fit(X, y)
    ref = SVC(kernel="rbf", C=2.0).fit(X, y)
    # decision_function > 0 means classes_[1] in both
    assert np.mean(ours.predict(X) == ref.predict(X)) >= 0.99
    np.testing.assert_allclose(ours.decision_function(X), ref.decision_function(X), atol=5e-3)
    np.testing.assert_array_equal(ours.classes_, ref.classes_)
    assert ours.alpha_.shape == (X.shape[0],)
    assert set(ours.support_) == set(np.flatnonzero(ours.alpha_ > 0))
    assert ours.dual_coef_.shape == (1, ours.support_.shape[0])
    assert ours.fit_status_ == 0 and ours.converged_


def test_string_labels_and_sign_convention(heart):
    X, y = heart
    labels = np.where(y > 0, "sick", "healthy")
    clf = IndefiniteSVC(kernel="rbf").fit(X, labels)
    assert list(clf.classes_) == ["healthy", "sick"]
    dec = clf.decision_function(X)
    np.testing.assert_array_equal(clf.predict(X), np.where(dec > 0, "sick", "healthy"))


@pytest.mark.parametrize("shape", ["ovr", "ovo"])
def test_multiclass_matches_svc_layout(shape):
    X, y = load_iris(return_X_y=True)
    ours = IndefiniteSVC(tol=1e-6, decision_function_shape=shape).fit(X, y)
    ref = SVC(tol=1e-6, decision_function_shape=shape).fit(X, y)
    np.testing.assert_array_equal(ours.support_, ref.support_)
    np.testing.assert_array_equal(ours.n_support_, ref.n_support_)
    np.testing.assert_allclose(ours.dual_coef_, ref.dual_coef_, atol=1e-4)
    np.testing.assert_allclose(ours.intercept_, ref.intercept_, atol=1e-4)
    np.testing.assert_allclose(ours.decision_function(X), ref.decision_function(X), atol=1e-4)
    np.testing.assert_array_equal(ours.predict(X), ref.predict(X))
    assert ours.alpha_.shape == (3, X.shape[0])
    assert ours.objective_.shape == (3,) and ours.converged_.all()


def test_kernel_three_ways_agree(sonar):
    X, y = sonar
    params = dict(gamma=0.05, coef0=-0.5)
    named = IndefiniteSVC(kernel="sigmoid", C=3.0, **params).fit(X, y)
    K = isvm.kernel_matrix(X, kernel="sigmoid", **params)
    pre = IndefiniteSVC(kernel="precomputed", C=3.0).fit(K, y)
    call = IndefiniteSVC(kernel=lambda A, B: isvm.kernels.sigmoid(A, B, **params), C=3.0)
    call.fit(X, y)
    for m in (pre, call):
        assert abs(m.objective_ - named.objective_) <= 1e-3 * abs(named.objective_)
    assert pre.support_vectors_.size == 0
    dec = named.decision_function(X)
    np.testing.assert_allclose(pre.decision_function(K), dec, atol=1e-2)
    np.testing.assert_allclose(call.decision_function(X), dec, atol=1e-2)


def test_fitted_solution_is_stationary_on_indefinite_kernel(heart):
    X, y = heart
    clf = IndefiniteSVC(kernel="sigmoid", gamma=1.0, coef0=1.0, C=100.0).fit(X, y)
    K = isvm.kernel_matrix(X, kernel="sigmoid", gamma=1.0, coef0=1.0)
    yp = np.where(y == clf.classes_[1], 1.0, -1.0)
    assert clf.converged_ and kkt_gap(K, yp, clf.alpha_, 100.0) <= 1e-3 + 1e-9
    assert clf.objective_ == pytest.approx(dual_objective(K, yp, clf.alpha_), rel=1e-9)
    assert np.all(np.diff(clf.history_[:, 1]) <= 0)


def test_gamma_scale_and_auto(heart):
    X, y = heart
    scale = IndefiniteSVC(gamma="scale").fit(X, y)
    assert scale._kernel_params_fitted["gamma"] == pytest.approx(1 / (X.shape[1] * X.var()))
    auto = IndefiniteSVC(gamma="auto").fit(X, y)
    assert auto._kernel_params_fitted["gamma"] == pytest.approx(1 / X.shape[1])


def test_pseudo_euclidean_needs_kernel_params():
    rng = np.random.default_rng(0)
    X = rng.standard_normal((40, 2))
    y = np.where(X[:, 0] > 0, 1, -1)
    clf = IndefiniteSVC(kernel="pseudo_euclidean", kernel_params={"p": 1}, C=1.0).fit(X, y)
    assert clf.converged_
    with pytest.raises(ValueError, match="needs p"):
        IndefiniteSVC(kernel="pseudo_euclidean").fit(X, y)


def test_restarts_in_estimator_keep_the_lowest_objective(heart):
    X, y = heart
    base = IndefiniteSVC(kernel="sigmoid", gamma=1.0, coef0=1.0, C=10.0).fit(X, y)
    rs = IndefiniteSVC(kernel="sigmoid", gamma=1.0, coef0=1.0, C=10.0, n_restarts=3,
                       random_state=0).fit(X, y)
    assert rs.objective_ <= base.objective_
    assert rs.solver_results_[0].restart_objectives[0] == pytest.approx(base.objective_)


def test_convergence_warning_names_max_iter_tol_and_gap(heart):
    X, y = heart
    with pytest.warns(ConvergenceWarning, match=r"max_iter=3\).*gap.*tol=0.001"):
        clf = IndefiniteSVC(max_iter=3).fit(X, y)
    assert not clf.converged_ and clf.fit_status_ == 1


@pytest.mark.parametrize(
    "params,X,y,match",
    [
        ({"kernel": "precomputed"}, np.array([[1.0, 0.2], [0.3, 1.0]]), [0, 1], "not symmetric"),
        ({"kernel": "precomputed"}, np.ones((2, 3)), [0, 1], "square"),
        ({"kernel": "banana"}, np.eye(2), [0, 1], "'kernel' parameter of IndefiniteSVC must be"),
        ({"C": 0}, np.eye(2), [0, 1], "'C' parameter of IndefiniteSVC must be"),
        ({"C": -2.0}, np.eye(2), [0, 1], "'C' parameter of IndefiniteSVC must be"),
        ({"solver": "newton"}, np.eye(2), [0, 1], "'solver' parameter"),
        ({"wss": "x"}, np.eye(2), [0, 1], "'wss' parameter"),
        ({"init": "x"}, np.eye(2), [0, 1], "'init' parameter"),
        ({"gamma": "sometimes"}, np.eye(2), [0, 1], "'gamma' parameter"),
        ({}, np.array([[np.nan, 1.0], [1.0, 0.0]]), [0, 1], "NaN"),
        ({}, np.eye(2), [1, 1], "number of classes has to be greater than one"),
        ({}, np.eye(3), [0, 1], "inconsistent numbers of samples"),
    ],
)
def test_bad_input(params, X, y, match):
    with pytest.raises(ValueError, match=match):
        IndefiniteSVC(**params).fit(X, y)


def test_precomputed_predict_shape_is_checked(heart):
    X, y = heart
    K = isvm.kernel_matrix(X, kernel="rbf", gamma=0.1)
    clf = IndefiniteSVC(kernel="precomputed").fit(K, y)
    with pytest.raises(ValueError, match="features"):
        clf.predict(K[:, :10])


def test_verbose_logs_progress_lines(heart, caplog, monkeypatch):
    """verbose=True: the compiled loop reports iteration, objective, gap and time through
    the 'indefsvm' logger (every REPORT_EVERY seconds; 0 here: at every signal look)."""
    import logging

    import indefsvm._logging as ilog

    monkeypatch.setattr(ilog, "REPORT_EVERY", 0.0)
    X, y = heart
    with caplog.at_level(logging.INFO, logger="indefsvm"):
        IndefiniteSVC(kernel="sigmoid", gamma=0.01, coef0=-0.5, C=10, verbose=True).fit(X, y)
    lines = [r.getMessage() for r in caplog.records if r.name == "indefsvm"]
    progress = [m for m in lines if "iteration" in m and "KKT gap" in m]
    assert progress and all(" s" in m and "objective" in m for m in progress)
    assert any("converged" in m for m in lines)
    caplog.clear()
    with caplog.at_level(logging.INFO, logger="indefsvm"):
        IndefiniteSVC(kernel="sigmoid", gamma=0.01, coef0=-0.5, C=10).fit(X, y)
    assert not [r for r in caplog.records if r.name == "indefsvm"]


def _with_max_iter():
    import inspect

    from sklearn.base import BaseEstimator

    return [n for n in isvm.__all__
            if isinstance(getattr(isvm, n), type) and issubclass(getattr(isvm, n), BaseEstimator)
            and "max_iter" in inspect.signature(getattr(isvm, n)).parameters]


def test_the_sweep_of_max_iter_estimators_reaches_them_all():
    assert {"ConvexHullClassifier", "IndefiniteSVC", "KernelLogisticRegression", "KreinSVC",
            "NystroemSVC"} <= set(_with_max_iter())


@pytest.mark.parametrize("name", _with_max_iter())
def test_every_estimator_with_max_iter_says_whether_it_converged(name):
    # ConvexHullClassifier stopped at max_iter with a warning and kept no converged_
    import inspect

    cls = getattr(isvm, name)
    params = inspect.signature(cls).parameters
    kw = {"max_iter": 1}
    if "n_components" in params:
        kw["n_components"] = 20
    if name != "NystroemSVC":
        kw["kernel"] = "rbf"
    rng = np.random.default_rng(0)
    X = rng.normal(size=(60, 2))
    y = X[:, 1] if name.endswith("SVR") else (X[:, 0] + 0.5 * rng.normal(size=60) > 0)
    with pytest.warns(ConvergenceWarning):
        stopped = cls(**kw).fit(X, y)
    assert hasattr(stopped, "converged_") and not stopped.converged_
    kw.pop("max_iter")
    assert bool(cls(**kw).fit(X, y).converged_) is True


@pytest.mark.parametrize("make", [
    lambda: isvm.IndefiniteSVC(max_iter=2),
    lambda: isvm.IndefiniteSVR(max_iter=2),
    lambda: isvm.KernelLogisticRegression(max_iter=1),
    lambda: isvm.IndefiniteSVC(solver="munk", kernel="rbf", max_iter=2),
])
def test_warnings_point_at_the_callers_line(make):
    # the ConvergenceWarning named _interrupt.py (the fit wrapper), not the user's line
    import warnings

    X, y = isvm.datasets.load_heart(return_X_y=True)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        make().fit(X, y)
    conv = [w for w in caught if issubclass(w.category, isvm.ConvergenceWarning)]
    assert conv
    assert all(w.filename == __file__ for w in conv), [w.filename for w in conv]


def test_an_svm_whose_C_overflows_on_a_large_finite_kernel_blames_C():
    K, y = _tanh_kernel()
    with pytest.raises(ValueError, match=r"C = 100 is too large for this kernel, whose values "
                                         r"reach 1e\+305 .* 40 samples"):
        isvm.IndefiniteSVC(kernel="precomputed", C=100.0).fit(K * 1e305, y)


@pytest.mark.parametrize("n_classes", [2, 3])
def test_decision_values_that_overflow_at_prediction_are_refused(n_classes):
    # a polynomial SVM asked about features near 1e160: (gamma x's + c)^3 overflowed, the
    # decision values were inf - inf = NaN, and predict chose a class from NaN. Fitting
    # refuses such features; predicting now does too, naming the sample. The Krein SVM and
    # kernel logistic regression refused them already (their kernel_matrix checks).
    rng = np.random.default_rng(0)
    X = rng.normal(size=(60, 3))
    y = (X[:, 0] > 0).astype(int) if n_classes == 2 else np.arange(60) % 3
    model = isvm.IndefiniteSVC(kernel="poly").fit(X, y)
    for method in (model.predict, model.decision_function):
        with pytest.raises(ValueError, match=r"^The decision values of sample 0 of X are not "
                                             r"finite: the polynomial kernel of its features"):
            method(X[:4] * 1e160)
    np.testing.assert_array_equal(model.predict(X[:4] * 1e-200), model.predict(X[:4] * 0.0))


def test_series_given_to_an_svm_point_to_the_distance_pipeline():
    S, labels = isvm.datasets.make_cbf(20, length=(60, 80), random_state=0)
    with pytest.raises(ValueError, match="PairwiseDistances\\('dtw'\\), DistanceKernel\\(\\)"):
        isvm.IndefiniteSVC().fit(S, labels)


def test_predict_proba_is_absent_but_says_where_probabilities_are():
    # VotingClassifier(voting="soft") with an IndefiniteSVC met Python's "'IndefiniteSVC'
    # object has no attribute 'predict_proba'"; hasattr stays False (scikit-learn's duck
    # typing) and the error names CalibratedClassifierCV, as the probability keyword does
    from sklearn.ensemble import VotingClassifier
    from sklearn.linear_model import LogisticRegression

    X, y = isvm.datasets.load_heart(return_X_y=True)
    for est in (isvm.IndefiniteSVC(), isvm.IndefiniteNuSVC(), isvm.NystroemSVC()):
        assert not hasattr(est, "predict_proba")
    vote = VotingClassifier([("svm", isvm.IndefiniteSVC()), ("lr", LogisticRegression())],
                            voting="soft").fit(X, y)
    with pytest.raises(AttributeError, match=r"^IndefiniteSVC has no predict_proba: .* "
                                             r"CalibratedClassifierCV\(IndefiniteSVC\(\.\.\.\)"):
        vote.predict(X)
