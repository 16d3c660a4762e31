"""What the fuzzers of the command line and a probe of kernel scales found (2026-11-28): a
nested search on folds too small for it, a traceback inside a warning, the same warning said
eighteen times, w'Mw overflowing, the advanced shift and the spectrum plot on a zero kernel,
a check that recommended training on one, a header row over an empty line, kernel logistic
regression on constant and huge kernels, features whose products overflow."""

from __future__ import annotations

import warnings

import numpy as np
import pytest
from sklearn.model_selection import GridSearchCV, StratifiedKFold
from sklearn.neighbors import KNeighborsClassifier

import indefsvm as isvm
from indefsvm.cli import main
from indefsvm.diagnostics import sanity_report_from_alpha
from indefsvm.remedies import AdvancedShiftEigenvalues


def _run(capsys, argv):
    code = main(argv)
    out, err = capsys.readouterr()
    return code, out, err


def _sigmoid(n, seed=0):
    X = np.random.default_rng(seed).normal(size=(n, 2))
    return isvm.kernel_matrix(X, kernel="sigmoid", gamma=0.5, coef0=-0.2)


# -- compare_remedies: the inner search fits the folds -------------------------------------------


def test_compare_remedies_searches_only_the_k_an_inner_training_fold_holds():
    # 6 + 6 samples, 2 outer folds of 3 + 3 training samples, 3 inner folds: each inner
    # training fold holds 4 samples, so k is 1 or 3
    # (before: 1 ... 9 were tried, the larger failed inside scikit-learn's search with a
    # traceback in a warning, and scored NaN)
    K, y = _sigmoid(12), np.arange(12) % 2
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # no FitFailed / Scoring failed / NaN-score warning
        cmp = isvm.compare_remedies(K, y, cv=2, methods=["k-NN"])
    d = np.diag(K)
    D = np.sqrt(np.maximum(d[:, None] + d[None, :] - 2 * K, 0.0))
    for (tr, _), k in zip(StratifiedKFold(2).split(K, y), cmp.chosen["k-NN"], strict=True):
        ref = GridSearchCV(KNeighborsClassifier(metric="precomputed"),
                           {"n_neighbors": [1, 3]}, cv=StratifiedKFold(3)).fit(
            D[np.ix_(tr, tr)], y[tr])
        assert k == ref.best_params_["n_neighbors"]


def test_compare_remedies_with_one_sample_of_a_class_in_a_training_fold():
    # 2 + 2 samples and cv = 2: a training fold holds one sample of each class, so no inner
    # cross-validation exists -- a grid of C is refused (before: scikit-learn's "n_splits=2
    # cannot be greater than the number of members in each class"), one C is used, k = 1
    K, y = _sigmoid(4), np.array([0, 1, 0, 1])
    with pytest.raises(ValueError, match=r"param_grid: the inner search of C needs two "
                                         r"samples .* class 0\. Give one C"):
        isvm.compare_remedies(K, y, cv=2, param_grid={"C": [0.1, 1, 10]})
    with warnings.catch_warnings():
        warnings.filterwarnings("ignore", category=isvm.DegenerateKernelWarning)
        cmp = isvm.compare_remedies(K, y, cv=2, param_grid={"C": [10.0]})
    assert all(c == [10.0, 10.0] for m, c in cmp.chosen.items() if m != "k-NN")
    assert cmp.chosen["k-NN"] == [1, 1]
    assert any(n.startswith("k = 1, not searched: a training fold holds one sample of "
                            "class 0") for n in cmp.notes)


def test_cli_compare_on_a_few_samples_shows_no_traceback(tmp_path, capsys):
    path = tmp_path / "six.csv"
    path.write_text("0,0.12\n1,-0.13\n0,0.64\n1,0.10\n0,-0.53\n1,0.36\n")
    code, out, err = _run(capsys, ["compare", str(path), "--label-column", "0", "--cv", "2"])
    assert code == 0
    assert "Traceback" not in err and "Scoring failed" not in err
    assert "k = 1, not searched" in out
    four = tmp_path / "four.csv"
    four.write_text("0,0.12\n1,-0.13\n0,0.64\n1,0.10\n")
    code, out, err = _run(capsys, ["compare", str(four), "--label-column", "0", "--cv", "2",
                                   "--C-grid", "0.1,1"])
    assert code == 2
    last = err.splitlines()[-1]  # after the announcement of the comparison
    assert last.startswith("indefsvm: error: --C-grid: the inner search of C") and \
        "with --cv 2" in last and "(--C-grid 0.1)" in last and err.count("error") == 1


# -- the command line's warnings: one line, once --------------------------------------------------


def test_a_warning_that_carries_a_traceback_is_one_line(capsys):
    from indefsvm.cli._main import _SAID, _warning_line

    # scikit-learn's own warning: a search whose k exceeds a training fold
    X = np.arange(8.0).reshape(-1, 1)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        GridSearchCV(KNeighborsClassifier(), {"n_neighbors": [9]}, cv=2).fit(X, np.arange(8) % 2)
    said = [w for w in caught if "Traceback (most recent call last)" in str(w.message)]
    assert said, [str(w.message)[:80] for w in caught]
    _SAID.clear()
    for w in said:
        _warning_line(w.message, w.category, w.filename, w.lineno)
    err = capsys.readouterr().err
    assert "Traceback" not in err and "File " not in err
    lines = err.splitlines()
    assert lines and all(ln.startswith("indefsvm: warning: ") for ln in lines)
    assert "ValueError: Expected n_neighbors <= n_samples_fit" in lines[0]
    # the same text is said once
    assert len(lines) == len(set(lines))


def test_explore_says_each_warning_once(tmp_path, capsys):
    # a polynomial kernel of a constant X is constant: clip and flip warn at each of the
    # page's frames (eighteen lines before), the command says each once. (The fuzzer's case
    # was features near 1e-300, whose products underflow: those are refused now.)
    X = np.ones((8, 2))
    path = tmp_path / "tiny.csv"
    np.savetxt(path, np.c_[np.arange(8) % 2, X], delimiter=",")
    code, _, err = _run(capsys, ["explore", str(path), "--label-column", "0", "--kernel",
                                 "polynomial", "--quiet", "--out", str(tmp_path / "e.html")])
    assert code == 0
    lines = [ln for ln in err.splitlines() if ln.startswith("indefsvm: warning:")]
    assert lines and len(lines) == len(set(lines))


# -- huge kernels, tiny dual variables ---------------------------------------------------------


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


def test_explore_on_features_near_1e150():
    rng = np.random.default_rng(1)
    X = rng.normal(size=(8, 2)) * 1e150
    y = np.arange(8) % 2
    # the page's frames each carry a sanity report of a linear-kernel SVM (before: an
    # OverflowError, "internal error" on the command line)
    ex = isvm.explore(X, y, kernel="linear", C=[1.0], remedies=["none"])
    assert ex.frames and all(np.isfinite(f["w_M_w"]) for f in ex.frames)


# -- a zero kernel ----------------------------------------------------------------------------


def test_advanced_shift_of_a_zero_kernel_is_zero_not_nan():
    # every eigenvalue 0: the one direction it kept was 0 / 0 = NaN before
    with pytest.warns(isvm.DegenerateKernelWarning, match="zero"):
        M = AdvancedShiftEigenvalues().fit_transform(np.zeros((5, 5)))
    assert np.array_equal(M, np.zeros((5, 5)))


def test_spectrum_plot_of_a_zero_kernel():
    pytest.importorskip("matplotlib")
    import matplotlib

    matplotlib.use("Agg")
    from indefsvm.plotting import plot_spectrum

    # the symlog axis had a linear band of width 0 ("'linthresh' must be positive")
    fig = plot_spectrum(isvm.check_kernel(np.zeros((5, 5))))
    assert fig.axes[0].get_yscale() == "linear"


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


# -- a series file whose header row is followed by an empty line ---------------------------------


def test_header_row_then_an_empty_line(tmp_path, capsys):
    path = tmp_path / "s.csv"
    path.write_text(",label\n\n0\n")
    code, _, err = _run(capsys, ["fit", str(path), "--metric", "dtw", "--cv", "0", "--quiet"])
    assert code == 1
    # before: "internal error (IndexError: list index out of range)"
    assert "internal error" not in err
    assert err.splitlines()[-1].startswith(f"indefsvm: error: {path}, line 2: is empty")


# -- kernel logistic regression on degenerate and huge kernels -----------------------------------


def test_klr_on_a_constant_kernel_starts_at_its_minimum():
    # balanced classes and K = ee': the gradient at 0 is 0, so w = 0 is the minimum; the
    # relative gradient was 0 / 0 (a RuntimeWarning, an error in this suite)
    K, y = np.ones((6, 6)), np.arange(6) % 2
    for solver in ("newton", "cg"):
        with warnings.catch_warnings():
            warnings.simplefilter("error", RuntimeWarning)
            klr = isvm.KernelLogisticRegression(kernel="precomputed", solver=solver).fit(K, y)
        assert klr.converged_
        assert np.all(klr.decision_function(K) == 0.0)


def test_klr_refuses_a_kernel_on_whose_scale_its_steps_overflow():
    rng = np.random.default_rng(0)
    X = rng.normal(size=(30, 3))
    y = (X[:, 0] > 0).astype(int)
    K = np.tanh(0.5 * X @ X.T - 0.2)
    for solver in ("newton", "cg"):
        # 1e60: fits, without an overflow (RuntimeWarning is an error in this suite)
        with warnings.catch_warnings():
            warnings.simplefilter("error", RuntimeWarning)
            big = isvm.KernelLogisticRegression(kernel="precomputed", solver=solver).fit(
                K * 1e60, y)
        assert np.all(np.isfinite(big.decision_function(K * 1e60)))
        # 1e80: the first Newton step's curvature overflowed ("overflow encountered in
        # matmul"); now refused before the solver, with the fix
        with pytest.raises(ValueError, match=r"C\^3 max\(\(n max\|K_ij\|\)\^4, n\^3\) = "
                                             r"1e326 .* Scale the kernel down first"):
            isvm.KernelLogisticRegression(kernel="precomputed", solver=solver).fit(
                K * 1e80, y)


# -- features whose squares overflow -----------------------------------------------------------


HUGE = np.random.default_rng(1).normal(size=(8, 2)) * 1e160


@pytest.mark.parametrize("kernel", ["linear", "polynomial", "rbf", "sigmoid"])
def test_kernels_of_features_whose_products_overflow_say_so(kernel):
    # before: "K contains NaN or infinity (first at row 0, column 0); fix the kernel or the
    # data that produced it" (rbf, sigmoid) or "has values that are not finite (an
    # overflow)" -- now the features, their largest value and the fix
    with pytest.raises(ValueError, match=r"X has values up to 1\.3e\+160: the "
                                         f"{kernel} kernel multiplies features, and their "
                                         r"products overflow float64 .* Scale the features"):
        # (the linear kernel takes no gamma: given one, that is what is said)
        isvm.check_kernel(X=HUGE, kernel=kernel, **({} if kernel == "linear" else {"gamma": 1.0}))
    # one step inside float64: the kernel is computed
    small = HUGE / 1e160 * 1e150
    assert np.all(np.isfinite(isvm.kernel_matrix(small, kernel="linear")))


def test_euclidean_distances_that_overflow_are_refused():
    # scipy's cdist returned inf without a word; NystroemSVC then said "Input X contains
    # infinity", of an X that holds none
    with pytest.raises(ValueError, match=r"the euclidean distances overflow float64 on "
                                         r"values up to 1\.3e\+160; scale the vectors"):
        isvm.pairwise_distances(HUGE, metric="euclidean")
    with pytest.raises(ValueError, match="the cityblock distances overflow"):
        isvm.pairwise_distances(HUGE * 1e148, metric="cityblock")
    assert np.all(np.isfinite(isvm.pairwise_distances(HUGE, metric="cityblock")))


def test_explore_says_the_scale_rule_overflows_and_tl1_still_draws(tmp_path, capsys):
    y = np.arange(8) % 2
    # gamma's "scale" rule was 1 / inf = 0, and the grid's three gammas 0: "param_grid
    # ['gamma'] lists a value twice: [0.0, 0.0, 0.0]"
    with pytest.raises(ValueError, match=r"gamma's 'scale' rule .* is 0 here: the variance "
                                         r"of X \(values up to 1\.3e\+160\) overflows"):
        isvm.explore(HUGE, y, kernel="l1_gaussian")
    # tl1 has no gamma: its page is drawn (frames only: no live sliders around a gamma)
    ex = isvm.explore(HUGE, y, kernel="tl1", C=[1.0], remedies=["none"])
    assert len(ex.frames) == 3 and ex.live is False
    assert isvm.explore(HUGE / 1e160, y, kernel="tl1", C=[1.0], remedies=["none"]).live
    # the command line names its own option for scaling
    path = tmp_path / "huge.csv"
    np.savetxt(path, np.c_[y, HUGE], delimiter=",")
    code, _, err = _run(capsys, ["check", str(path), "--label-column", "0", "--kernel",
                                 "sigmoid", "--quiet"])
    assert code == 1 and err.rstrip().endswith("Scale the features first (--scale).")


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


def test_a_dtw_window_in_points_is_told_the_share():
    # tslearn's sakoe_chiba_radius counts points: window=3 was refused without saying so
    with pytest.raises(ValueError, match=r"got 3\. A band of 3 points is window=3 / the "
                                         r"series length \(tslearn's sakoe_chiba_radius"):
        isvm.pairwise_distances(np.zeros((3, 10)), metric="dtw", window=3)


# -- the matrix-free spectrum of a kernel far from 1 ------------------------------------------


@pytest.mark.parametrize("k", [-1000, -600, 600, 1000])
def test_matrix_free_spectrum_of_a_kernel_scaled_by_2_to_the_k(k):
    # the Lanczos recurrences square their products: near 1e-300 the estimates came out
    # (p, q) = (31, 8) where the kernel has (21, 18) and near 1e300 they overflowed; now run
    # on K / s (s a power of two) and scaled back, the same figures to the last bit
    from indefsvm.diagnostics import spectrum

    X = np.random.default_rng(0).normal(size=(40, 3))
    K = np.tanh(0.5 * X @ X.T - 0.3) / 2.0  # max |K_ij| in [1/4, 1/2]: no scaling of its own
    ref = spectrum(K, method="slq", random_state=0)
    truth = spectrum(K, method="dense")
    with warnings.catch_warnings():
        warnings.simplefilter("error", RuntimeWarning)
        sp = spectrum(K * 2.0**k, method="slq", random_state=0)
    assert (sp.n_neg, sp.n_pos, sp.negative_mass) == (ref.n_neg, ref.n_pos, ref.negative_mass)
    assert sp.lam_min == ref.lam_min * 2.0**k and sp.tol == ref.tol * 2.0**k
    for key in ("lam_min", "lam_max", "restricted_min", "restricted_max"):
        assert sp.intervals[key] == [v * 2.0**k for v in ref.intervals[key]]
        assert sp.intervals[key][0] <= getattr(truth, key) * 2.0**k <= sp.intervals[key][1]
    for key in ("n_neg", "n_pos", "negative_mass"):
        assert sp.intervals[key] == ref.intervals[key]
    assert sp.intervals["n_neg"][0] <= truth.n_neg <= sp.intervals["n_neg"][1]


def test_check_kernel_matrix_free_of_a_small_kernel_near_1e200():
    # eight samples, entries near 1e200: "overflow encountered in matmul" before
    X = np.random.default_rng(0).normal(size=(8, 3))
    D = np.sqrt(((X[:, None] - X[None]) ** 2).sum(-1)) * 1e100
    with warnings.catch_warnings():
        warnings.simplefilter("error", RuntimeWarning)
        rep = isvm.check_kernel(-0.5 * D**2, np.arange(8) % 2, method="slq", random_state=0)
    assert np.isfinite(rep.lam_min) and rep.lam_min < 0


def test_matrix_free_spectrum_of_a_constant_kernel():
    # J K J = 0 exactly: the Lanczos runs went on normalising the 1e-32 that centring leaves,
    # and the Ritz step said lambda_min in [-2.8e124, -2.3e124] (the truth: -45.6), p = q = 1
    # and a negative mass of 100 %
    from indefsvm.diagnostics import spectrum

    K = np.full((60, 60), -0.76)
    with warnings.catch_warnings():
        warnings.simplefilter("error", RuntimeWarning)
        sp = spectrum(K, method="slq", random_state=0)
    lo, hi = sp.intervals["lam_min"]
    assert lo <= -0.76 * 60 <= hi and hi - lo < 1e-3
    assert (sp.n_pos, sp.n_neg) == (0, 0)
    assert sp.intervals["n_pos"] == [0, 0] and sp.intervals["n_neg"] == [0, 0]
    assert sp.negative_mass == 0.0
    rep = isvm.check_kernel(K, np.arange(60) % 2, method="slq", random_state=0)
    assert rep.notes[-2].startswith("Recommendation: do not train on K as it is: its centred")


def test_matrix_free_check_of_a_linear_kernel_of_features_near_1e_100():
    # K near 1e-200: every beta^2 underflowed to 0; the estimate said (p, q) = (59, 0) where
    # the kernel has rank 5, and its lambda_max interval missed the truth by a factor of 5
    X = np.random.default_rng(0).normal(size=(60, 5)) * 1e-100
    dense = isvm.check_kernel(X=X, kernel="linear", method="dense")
    with warnings.catch_warnings():
        warnings.simplefilter("error", RuntimeWarning)
        est = isvm.check_kernel(X=X, kernel="linear", method="slq", random_state=0)
    iv = est.spectrum.intervals
    for key in ("lam_min", "lam_max", "restricted_min", "restricted_max"):
        assert iv[key][0] <= getattr(dense.spectrum, key) <= iv[key][1], key
    assert iv["n_pos"][0] <= dense.signature.p <= iv["n_pos"][1]
    assert est.signature.p <= 10


# -- options at their extremes ------------------------------------------------------------------


def test_a_C_whose_gradient_overflows_is_named():
    # C = 1e300 on the heart data: the error blamed the kernel's values (finite here) and
    # the inputs' size; it is C
    X, y = isvm.datasets.load_heart(return_X_y=True)
    with pytest.raises(ValueError, match=r"^The dual coefficients or intercepts are not "
                                         r"finite: C = 1e\+300 is too large .* 270 samples"):
        isvm.IndefiniteSVC(kernel="sigmoid", gamma=0.01, C=1e300).fit(X, y)


@pytest.mark.parametrize("command", ["fit", "check", "compare", "explore"])
def test_a_negative_seed_names_the_option(command, capsys):
    # "--random-state must be an int in the range [0, 4294967295], an instance of
    # 'numpy.random.mtrand.RandomState' or None" -- an option the command line does not have
    code, _, err = _run(capsys, [command, "--dataset", "heart", "--seed", "-1"])
    assert code == 2
    assert err.startswith("indefsvm: error: argument --seed: expected a whole number from 0 "
                          "to 4294967295; got -1")


def test_a_kernel_matrix_too_big_is_said_before_the_work():
    # NumPy's "Unable to allocate 7.28 TiB", after the inputs' checks; now the figure and
    # what works at that size, before any work
    with pytest.raises(MemoryError, match=r"A 1000000 x 1000000 kernel matrix needs about "
                                          r"7450\.6 GiB .* train on landmarks"):
        isvm.kernel_matrix(np.zeros((10**6, 2)))
