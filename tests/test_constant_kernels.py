"""Kernel parameters that make a named kernel one number for every pair (gamma = 0 in
exp(-gamma d), the polynomial's or the sigmoid's gamma = 0, the polynomial's degree = 0) are
valid -- scikit-learn and LIBSVM accept them -- but the model fitted on them predicts the
same for every sample. The fit says so by name instead of returning that model silently."""

import json
import warnings

import numpy as np
import pytest
from sklearn.datasets import make_classification

import indefsvm as isvm
from indefsvm.cli import main
from indefsvm.exceptions import DegenerateKernelWarning
from indefsvm.kernels import constant_reason, kernel_matrix, resolve_kernel_params

X, Y = make_classification(120, 5, random_state=0)
POSITIVE = np.abs(X) + 0.1  # symmetric_kl reads histograms

# (kernel, settings): every named kernel at values that make it constant
CONSTANT = [
    ("rbf", {"gamma": 0.0}),
    ("l1_gaussian", {"gamma": 0}),
    ("sqrt_l1_exponential", {"gamma": 0.0}),
    ("symmetric_kl", {"gamma": 0.0}),
    ("polynomial", {"degree": 0}),
    ("poly", {"degree": 0, "gamma": 0.3, "coef0": -2.0}),
    ("polynomial", {"gamma": 0.0, "coef0": 2.0, "degree": 2}),
    ("sigmoid", {"gamma": 0.0, "coef0": 0.5}),
]
# near misses: the same kernels one step away, and the kernels no parameter makes constant
VARYING = [
    ("rbf", {"gamma": 1e-3}),
    ("l1_gaussian", {"gamma": 0.1}),
    ("polynomial", {"degree": 1}),
    ("polynomial", {"gamma": 0.1, "coef0": 0.0, "degree": 2}),
    ("sigmoid", {"gamma": -0.01, "coef0": 0.0}),
    ("linear", {}),
    ("tl1", {}),
    ("pseudo_euclidean", {"p": 3}),
]


def _params(kernel, settings, data):
    extra = {"p": settings["p"]} if "p" in settings else None
    return resolve_kernel_params(kernel, data, gamma=settings.get("gamma", "scale"),
                                 coef0=settings.get("coef0", 0.0),
                                 degree=settings.get("degree", 3), kernel_params=extra)


@pytest.mark.parametrize("kernel, settings", CONSTANT + VARYING)
def test_the_reason_is_given_exactly_when_the_kernel_matrix_is_constant(kernel, settings):
    # brute force: the kernel matrix itself, computed by the kernel's own function
    data = POSITIVE if kernel == "symmetric_kl" else X
    params = _params(kernel, settings, data)
    K = kernel_matrix(data, kernel=kernel, **params)
    constant = float(np.ptp(K)) == 0.0
    assert constant == ((kernel, settings) in CONSTANT)
    assert (constant_reason(kernel, params) is not None) == constant


@pytest.mark.parametrize("make", [
    lambda: isvm.IndefiniteSVC(gamma=0.0),
    lambda: isvm.IndefiniteSVC(kernel="poly", degree=0),
    lambda: isvm.IndefiniteSVC(kernel="sigmoid", gamma=0, coef0=0.5),
    lambda: isvm.IndefiniteSVC(kernel="poly", gamma=0.0, coef0=2.0, degree=2),
    lambda: isvm.IndefiniteSVR(gamma=0.0),
    lambda: isvm.KreinSVC(gamma=0.0),
    lambda: isvm.NystroemSVC(gamma=0.0, n_components=20, random_state=0),
    lambda: isvm.KreinNystroem(gamma=0.0, n_components=20, random_state=0),
], ids=["svc-rbf", "svc-degree", "svc-sigmoid", "svc-poly", "svr", "krein", "nystroem",
        "features"])
def test_fit_names_the_parameter_where_the_user_wrote_it(make):
    est = make()
    with warnings.catch_warnings(record=True) as said:
        warnings.simplefilter("always")
        est.fit(X, Y)
    ours = [w for w in said if w.category is DegenerateKernelWarning
            and str(w.message).startswith("kernel=")]
    assert len(ours) == 1, [str(w.message) for w in said]
    message = str(ours[0].message)
    assert ("degree=0" in message) == ("degree=0" in repr(est))
    assert "gamma=0" in message or "degree=0" in message
    assert ours[0].filename == __file__
    # and it is true: the fitted model says the same for every sample
    if hasattr(est, "decision_function"):
        out = est.decision_function(X)
    elif hasattr(est, "predict"):
        out = est.predict(X)
    else:
        return
    out = np.asarray(out)
    assert np.ptp(out, axis=0).max() <= 1e-8 * max(1.0, float(np.abs(out).max()))


def test_nu_svc_says_why_before_it_finds_no_margin():
    # nu-SVC refuses the constant kernel (no margin r > 0); the warning first says why
    with warnings.catch_warnings(record=True) as said:
        warnings.simplefilter("always")
        with pytest.raises(ValueError, match="no margin"):
            isvm.IndefiniteNuSVC(kernel="poly", gamma=0.0, coef0=2.0, degree=2,
                                 nu=0.3).fit(X, Y)
    assert [w for w in said if w.category is DegenerateKernelWarning
            and "gamma=0 makes (gamma <x, z> + coef0)^degree" in str(w.message)]


@pytest.mark.parametrize("make", [
    lambda: isvm.IndefiniteSVC(),
    lambda: isvm.IndefiniteSVC(kernel="sigmoid", gamma=-0.01),
    lambda: isvm.IndefiniteSVC(kernel="poly", degree=1, gamma=0.1),
    lambda: isvm.IndefiniteSVC(kernel="linear", gamma=0.0),  # linear takes no gamma
    lambda: isvm.IndefiniteSVC(kernel="precomputed"),
])
def test_a_kernel_that_varies_fits_without_the_warning(make):
    est = make()
    data = X @ X.T if est.kernel == "precomputed" else X
    with warnings.catch_warnings(record=True) as said:
        warnings.simplefilter("always")
        est.fit(data, Y)
    assert not [w for w in said if w.category is DegenerateKernelWarning]


def test_cli_fit_prints_the_warning_and_keeps_it_in_json(capsys):
    code = main(["fit", "--dataset", "heart", "--gamma", "0", "--no-search", "--cv", "0",
                 "--json"])
    assert code == 0
    summary = json.loads(capsys.readouterr().out)
    assert [w for w in summary["warnings"] if w.startswith("kernel='rbf': gamma=0")]
    assert summary["training_accuracy"] == pytest.approx(150 / 270)  # the larger class
    code = main(["fit", "--dataset", "heart", "--gamma", "0", "--no-search", "--cv", "0"])
    out = capsys.readouterr().out
    assert code == 0 and "warning: kernel='rbf': gamma=0 makes" in out


@pytest.mark.parametrize("K", [np.zeros((6, 6)), np.ones((6, 6)),
                               np.add.outer(np.arange(6.0), np.arange(6.0))])
def test_check_says_a_kernel_constant_on_the_samples_predicts_one_class(K):
    # K = u e' + e u': K v is constant for every v with e'v = 0 (every SVM with a bias)
    y = np.arange(6) % 2
    rep = isvm.check_kernel(K, y)
    rec = next(n for n in rep.notes if n.startswith("Recommendation"))
    assert rec.startswith("Recommendation: do not train on K as it is: its centred form "
                          "J K J is zero (signature (0, 0, 6)")
    v = np.where(y == 1, 1.0, -1.0)
    assert np.ptp(K @ v) == pytest.approx(0.0, abs=1e-12)


def test_check_of_a_useful_kernel_keeps_its_recommendation():
    X = np.random.default_rng(0).normal(size=(20, 3))
    rep = isvm.check_kernel(X=X, kernel="rbf", gamma=0.5)
    assert "do not train" not in rep.notes[-2]
