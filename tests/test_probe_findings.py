"""What a probe of the Python API at its edges found (2026-11-28): every public estimator,
diagnostic, distance, remedy, solver and the explorer, called with degenerate and extreme
inputs. Each test names the input, what went wrong before, and checks the answer against an
independent one (the exact spectrum of a zero or one-sample kernel, Kernel-Adatron on the
same problem, the definition of a feasible point)."""

from __future__ import annotations

import json
import warnings

import numpy as np
import pytest

import indefsvm as isvm
from indefsvm.diagnostics import eta_scan
from indefsvm.exceptions import UnboundedObjectiveError
from indefsvm.kernels import l1_gaussian
from indefsvm.remedies import SquareKernel
from indefsvm.solvers import (
    kernel_adatron,
    munk,
    random_feasible_alpha,
    random_feasible_hull_weights,
)

# -- one sample, the zero kernel: reports that tell the truth in text and in strict JSON ---------


def test_the_check_of_one_sample_is_strict_json_and_says_why_it_is_cpd():
    # before: to_dict() held worst_eta = NaN (json.dumps(allow_nan=False) failed, and the
    # command line's --json printed NaN, which is not JSON), the eta line read "smallest eta
    # nan at None" and the CPD note "its smallest eigenvalue is 0 > 0"
    report = isvm.check_kernel(np.array([[2.0]]))
    json.dumps(report.to_dict(), allow_nan=False)
    text = str(report)
    assert "0 > 0" not in text
    assert "K is CPD trivially: with one sample the complement of e is {0}" in text
    assert report.is_psd and report.lam_min == 2.0
    scan = eta_scan(np.array([[2.0]]))
    assert str(scan) == "eta: no pair to scan (0 pairs)"
    assert scan.to_dict()["worst_eta"] is None
    json.dumps(scan.to_dict(), allow_nan=False)


def test_the_ldl_check_of_the_zero_kernel_is_psd(capfd):
    # before: ARPACK started on the zero operator, LAPACK printed "On entry to DLASCL
    # parameter number 4 had an illegal value" six times, and the report said "K is not PSD:
    # lambda_min = nan" -- of a kernel whose every eigenvalue is exactly 0
    report = isvm.check_kernel(np.zeros((6, 6)), method="ldl")
    dense = isvm.check_kernel(np.zeros((6, 6)), method="dense")
    assert report.is_psd and dense.is_psd
    assert (report.lam_min, report.lam_max) == (0.0, 0.0)
    assert (report.signature.p, report.signature.q, report.signature.z) == (0, 0, 6)
    json.dumps(report.to_dict(), allow_nan=False)
    assert "nan" not in str(report).lower()
    assert "DLASCL" not in capfd.readouterr().err


def test_a_zero_threshold_of_zero_is_not_printed_as_minus_zero():
    # "lambda_min = 0 >= -0 (zero threshold)"
    text = str(isvm.check_kernel(np.zeros((4, 4))))
    assert ">= -0 " not in text
    assert "lambda_min = 0 >= 0 (zero threshold)" in text


# -- kernels: an overflow whose value is exact is not a warning -----------------------------------


def test_l1_gaussian_of_far_points_is_zero_without_an_overflow_warning():
    # (gamma d) d overflows to inf where gamma d^2 > 1.8e308, and exp(-inf) = 0 is the
    # kernel's value in float64; numpy's "overflow encountered in multiply" leaked out
    X = np.array([[0.0, 1e300], [1.0, -1e300]])
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        K = l1_gaussian(X)
    np.testing.assert_array_equal(K, np.eye(2))
    # a gamma small enough for the product to stay finite keeps its value: exp(-1)
    K = l1_gaussian(np.array([[0.0], [1e155]]), gamma=1e-310)
    assert K[0, 1] == pytest.approx(np.exp(-1.0), rel=1e-6)


# -- MUNK on kernels with zero rows or a zero diagonal ---------------------------------------------


def _gaussian(n=10, seed=0):
    X = np.random.default_rng(seed).normal(size=(n, 2))
    return np.exp(-((X[:, None] - X[None]) ** 2).sum(-1)), np.array([1.0, -1.0] * (n // 2))


def test_munk_reaches_the_optimum_when_a_point_has_a_zero_row():
    # a point whose row of its own class's block is zero: the update divides by 0 and left
    # it at its start (0.5); MUNK "stalled" with "multiplicative updates slow down near the
    # solution" at F = -6.59, the optimum being -7.09 (alpha_0 = C). Kernel-Adatron, a
    # different algorithm on the same problem (4), is the reference.
    K, y = _gaussian()
    K[0, :] = K[:, 0] = 0.0
    for C in (1.0, 0.3):
        res = munk(K, y, C=C, tol=1e-8)
        ref = kernel_adatron(K, y, C=C, tol=1e-8)
        assert res.converged
        assert res.objective == pytest.approx(ref.objective, rel=1e-9)
        np.testing.assert_allclose(res.alpha, ref.alpha, atol=1e-6)
        assert res.alpha[0] == C
    res = munk(np.zeros((10, 10)), y, C=1.0)
    assert res.converged and np.all(res.alpha == 1.0) and res.objective == -10.0


def test_munk_without_C_on_a_zero_diagonal_is_unbounded_by_name():
    # before: "stalled ... try solver='kernel_adatron'" (a zero row), or "objective nan
    # after 9 iterations" (a zero diagonal): the problem is unbounded along alpha_i
    K, y = _gaussian()
    K[np.diag_indices(10)] = 0.0
    K[3, 3] = 0.0
    with pytest.raises(UnboundedObjectiveError, match=r"^MUNK: problem \(4\) is unbounded "
                                                      r"below .* K\[0, 0\] = 0"):
        munk(K, y)
    with pytest.raises(UnboundedObjectiveError, match="Kernel-Adatron"):
        kernel_adatron(K, y)  # the reference says the same
    assert munk(K, y, C=1.0, tol=1e-8).objective == pytest.approx(
        kernel_adatron(K, y, C=1.0, tol=1e-8).objective, rel=1e-9)


# -- the random feasible starts ------------------------------------------------------------------


def test_random_feasible_alpha_with_C_zero_is_the_zero_point():
    # 0 / 0: NaN entries and "invalid value encountered in scalar divide"
    y = np.array([1.0, -1.0, 1.0, -1.0])
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        a = random_feasible_alpha(y, 0.0, np.random.default_rng(0))
    np.testing.assert_array_equal(a, np.zeros(4))
    with pytest.raises(ValueError, match="C must be >= 0"):
        random_feasible_alpha(y, -1.0, np.random.default_rng(0))


def test_random_feasible_hull_weights_refuses_an_infeasible_mu():
    # mu = 0.01 for 15 points a class: the weights summed to 0.15, not 1 -- a point that is
    # not in the set the function names
    y = np.array([1.0] * 15 + [-1.0] * 15)
    with pytest.raises(ValueError, match=r"mu=0\.01 is infeasible for the class \+1 of 15"):
        random_feasible_hull_weights(y, 0.01, np.random.default_rng(0))
    a = random_feasible_hull_weights(y, 1 / 15, np.random.default_rng(0))
    assert a[y > 0].sum() == pytest.approx(1.0) and a[y < 0].sum() == pytest.approx(1.0)


# -- kernels far from 1: every method reads K / 2^k, and what float64 cannot hold is refused ----


def _tanh_kernel(n=40):
    X = np.random.default_rng(0).normal(size=(n, 3))
    return np.tanh(X @ X.T - 0.2), (X[:, 0] > 0).astype(int)


@pytest.mark.parametrize("factor", [1e305, 1e-300, 1e-315])
def test_every_method_reads_a_kernel_far_from_1_as_the_same_kernel(factor):
    # a positive factor changes no eigenvalue's sign. Before: the LDL' method called the
    # tanh kernel at 1e-300 "Euclidean (no negative direction)" with signature (30, 0), and
    # (1, 0) at 1e-315, for the (30, 29) it has at 1 (its pivots and Ritz values lost their
    # digits); the dense method's figures at 1e-315 came from subnormal arithmetic
    K, y = _tanh_kernel(60)
    truth = isvm.check_kernel(K, y, method="dense")
    assert (truth.signature.p, truth.signature.q) == (30, 29)
    for method in ("dense", "ldl"):
        r = isvm.check_kernel(K * factor, y, method=method)
        assert (r.signature.p, r.signature.q) == (30, 29), method
        assert r.verdict == truth.verdict, method
        assert r.lam_min == pytest.approx(truth.lam_min * factor, rel=1e-6), method
        json.dumps(r.to_dict(), allow_nan=False)
    for method in ("lanczos", "slq"):
        r = isvm.check_kernel(K * factor, y, method=method, random_state=0)
        lo, hi = r.signature.intervals["q"]
        assert lo <= 29 <= hi, method
        assert r.lam_min == pytest.approx(truth.lam_min * factor, rel=1e-3), method


@pytest.mark.parametrize("method", ["dense", "ldl", "lanczos", "slq"])
def test_eigenvalues_past_float64_are_refused_not_read_as_psd(method):
    # the tanh kernel at 1e307: its largest eigenvalue (2.2e308) is past float64. Before: the
    # dense method read it as inf and said "PSD" (lambda_min = -4.4e307 >= -inf), or failed
    # inside SciPy ("array must not contain infs or NaNs"); the others warned of overflows
    K, y = _tanh_kernel(60)
    with pytest.raises(ValueError, match=r"^K's eigenvalues pass float64's range: the largest "
                                         r"\|eigenvalue\| is about 6\.\d*e\+308"):
        isvm.check_kernel(K * 2e307, method=method, random_state=0)


def test_entries_whose_eta_overflows_are_refused_before_the_work():
    # eta = K_ii + K_jj - 2 K_ij = -2e308 and c'Kc overflowed (numpy's "overflow encountered
    # in matmul"); the eigenvalues (+-1e308) themselves are within float64
    K = np.array([[0.0, 1e308], [1e308, 0.0]])
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", isvm.DistanceMatrixWarning)
        with pytest.raises(ValueError, match=r"^K's entries reach 1e\+308: eta"):
            isvm.check_kernel(K, [0, 1])
    with pytest.raises(ValueError, match=r"^K's entries reach 1e\+308"):
        eta_scan(K)


def test_the_default_w_Mw_grid_leaves_out_the_C_that_overflow_and_says_so():
    # the tanh kernel at 1e305 with labels: the SVM at C = 1 ... 100 overflows, and the
    # whole check failed with "the kernel has values that are not finite" (they are finite)
    K, y = _tanh_kernel()
    r = isvm.check_kernel(K * 1e305, y)
    assert 0.1 in r.wmw_by_C and max(r.wmw_by_C) == 0.1
    # C = 0.1 is already a large C there: the powers of ten below it are tried (from 1e-303,
    # C = 100 on the kernel at 1) until one has w'Mw > 0 -- C = 1e-305 is C = 1 on K, the
    # largest of K's grid with w'Mw > 0 (test_metamorphic: the verdict follows the scale)
    assert r.wmw_by_C[1e-305] > 0 and r.verdict == isvm.check_kernel(K, y).verdict
    assert r.wmw_by_C[1e-305] == pytest.approx(1e305 * isvm.check_kernel(K, y).wmw_by_C[1.0],
                                               rel=1e-6)
    assert ("w'Mw was not computed at C = 1, 10, 100 of the default grid: with kernel "
            "values up to 1e+305") in str(r)
    # the figure at C = 0.1 is the estimator's: 4 u'Ku, u = y alpha / sum(alpha)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", isvm.ConvergenceWarning)  # tol 1e-3 below 1e305's ulp
        svm = isvm.IndefiniteSVC(kernel="precomputed", C=0.1).fit(K * 1e305, y)
    u = np.zeros(40)
    u[svm.support_] = svm.dual_coef_[0] / np.abs(svm.dual_coef_[0]).sum()
    assert r.wmw_by_C[0.1] == pytest.approx(4.0 * u @ (K * 1e305) @ u, rel=1e-6)
    # a grid the caller gave is not trimmed: its error names the parameter
    with pytest.raises(ValueError, match=r"^wmw_C: The dual coefficients or intercepts are "
                                         r"not finite: C = 100 is too large for this kernel"):
        isvm.check_kernel(K * 1e305, y, wmw_C=(100.0,))


def test_an_svm_whose_C_overflows_on_a_large_finite_kernel_blames_C():
    K, y = _tanh_kernel()
    with pytest.raises(ValueError, match=r"C = 100 is too large for this kernel, whose values "
                                         r"reach 1e\+305 .* 40 samples"):
        isvm.IndefiniteSVC(kernel="precomputed", C=100.0).fit(K * 1e305, y)


def test_pseudo_euclidean_without_p_says_how_check_kernel_takes_it():
    X = np.random.default_rng(0).normal(size=(10, 3))
    with pytest.raises(ValueError, match=r"check_kernel: p=\.\.\."):
        isvm.check_kernel(X=X, kernel="pseudo_euclidean")
    assert isvm.check_kernel(X=X, kernel="pseudo_euclidean", p=2).signature.q >= 1


# -- the convex-hull dual and kernel logistic regression on kernels far from 1 -------------------


@pytest.mark.parametrize("factor", [1e200, 1e300, 2.0**-300])
def test_the_convex_hull_dual_of_a_kernel_far_from_1_is_the_same_problem(factor):
    # a factor on K (and on tol, which is in K's units) changes the hulls' weights in
    # nothing. Before: from about 1e155 the second-order selection squared gradients past
    # float64, every candidate scored -inf, and the run "stalled" after 10 025 iterations at
    # a relative KKT gap of 1.49 with another objective (0.43 for -0.43)
    from indefsvm.solvers import convex_hull_dual

    K, y01 = _tanh_kernel()
    y = np.where(y01 == 1, 1.0, -1.0)
    ref = convex_hull_dual(K, y)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        res = convex_hull_dual(K * factor, y, tol=1e-6 * factor)
    assert res.converged and res.n_iter == ref.n_iter
    np.testing.assert_allclose(res.alpha, ref.alpha, atol=1e-12)
    assert res.objective / factor == pytest.approx(ref.objective, rel=1e-12)
    assert res.b / factor == pytest.approx(ref.b, rel=1e-12)


def test_a_stalled_convex_hull_dual_says_stalled_not_max_iter():
    # tol = 1e-300 is below float64's resolution: the run stalls after some 10 000
    # iterations (max_iter is 10 000 000), and the warning said "stopped at
    # max_iter=10000000 ... Increase max_iter"
    X, y = isvm.datasets.load_heart(return_X_y=True)
    with pytest.warns(isvm.ConvergenceWarning, match=r"^CH-DU stalled at a KKT gap m - M of "
                                                     r".* \(or scale the kernel\)\.$"):
        model = isvm.ConvexHullClassifier(kernel="rbf", tol=1e-300).fit(X, y)
    assert model.result_.n_iter < 100_000 and not model.result_.converged


def test_kernel_logistic_regression_refuses_a_C_whose_bias_steps_overflow():
    # K near 1e-150 with C = 1e145: the alpha part of the Hessian check passed, the bias's
    # gradient C n / 2 and curvature C n / 4 overflowed d'Hd -- hundreds of numpy overflow
    # warnings, 1 000 iterations, ||grad|| / ||grad_0|| = 1
    K, y = _tanh_kernel()
    with pytest.raises(ValueError, match=r"would overflow on this kernel's scale: C\^3 "
                                         r"max\(\(n max\|K_ij\|\)\^4, n\^3\) = 1e440"):
        isvm.KernelLogisticRegression(kernel="precomputed", C=1e145).fit(K * 1e-150, y)
    with warnings.catch_warnings():
        warnings.simplefilter("error", RuntimeWarning)
        isvm.KernelLogisticRegression(kernel="precomputed", C=1e60).fit(K * 1e-60, y)


# -- squares that underflow: refused as their overflows are ------------------------------------


def test_distances_and_the_square_kernel_refuse_values_whose_squares_underflow():
    # DTW and euclidean distances of values near 1e-200 came out 0 (near 1e-160: a relative
    # error of 3e-5 to 5e-5), and SquareKernel of a kernel near 1e-170 was 0 -- each without
    # a word, where their overflows were refused. cityblock squares nothing: it is exact.
    rng = np.random.default_rng(0)
    X = rng.normal(size=(6, 3))
    series = [rng.normal(size=9) for _ in range(4)]
    with pytest.raises(ValueError, match=r"^X has values of at most 1\.96e-160: DTW's squared "
                                         r"differences underflow float64"):
        isvm.pairwise_distances([s * 1e-160 for s in series])
    with pytest.raises(ValueError, match=r"^the euclidean distances underflow float64"):
        isvm.pairwise_distances(X * 1e-200, metric="euclidean")
    D = isvm.pairwise_distances(X * 1e-200, metric="cityblock")
    np.testing.assert_allclose(D / 1e-200, isvm.pairwise_distances(X, metric="cityblock"),
                               rtol=1e-12)
    # one step inside: DTW of series near 1e-140 is that of the series, times 1e-140
    np.testing.assert_allclose(isvm.pairwise_distances([s * 1e-140 for s in series]) / 1e-140,
                               isvm.pairwise_distances(series), rtol=1e-12)
    np.testing.assert_array_equal(isvm.pairwise_distances([np.zeros(3), np.zeros(4)]),
                                  np.zeros((2, 2)))  # all zero: exact, not refused
    K, _ = _tanh_kernel(10)
    with pytest.raises(ValueError, match=r"^SquareKernel: K K would underflow"):
        SquareKernel().fit_transform(K * 1e-170)
    np.testing.assert_allclose(SquareKernel().fit_transform(K * 1e-140) / 1e-280,
                               SquareKernel().fit_transform(K), rtol=1e-12)


def test_the_default_comparison_of_a_huge_kernel_leaves_square_out_and_says_so(tmp_path, capsys):
    # K near 1e300: SquareKernel's K K overflows, and the whole comparison failed with its
    # error -- in the command line too. Now the other methods are compared, and a note says
    # why square is not among them; square asked for by name still fails by name.
    from indefsvm.cli import main

    K, y = _tanh_kernel()
    for factor, word in ((1e300, "overflow"), (1e-170, "underflow")):
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", isvm.ConvergenceWarning)
            cmp = isvm.compare_remedies(K * factor, y, cv=3)
        assert "square" not in cmp.methods and "flip" in cmp.methods
        assert any(n.startswith(f"square was left out: K K would {word} float64")
                   for n in cmp.notes)
    with pytest.raises(ValueError, match=r"^SquareKernel: K K would overflow"):
        isvm.compare_remedies(K * 1e300, y, cv=3, methods=["square"])
    np.save(tmp_path / "K.npy", K * 1e300)
    np.save(tmp_path / "y.npy", y)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", isvm.ConvergenceWarning)
        code = main(["compare", str(tmp_path / "K.npy"), "--labels", str(tmp_path / "y.npy"),
                     "--cv", "3"])
    out = capsys.readouterr().out
    assert code == 0 and "square was left out" in out


def test_a_long_search_is_said_with_its_projection_while_it_runs(monkeypatch, capsys):
    # fit --restarts 300 searched 75 fits for 18 s with nothing on stderr (a search was said
    # only for 1 000 samples or more): the first fit's time now projects the search, and
    # one of ANNOUNCE_S seconds or more is said before the rest of it runs
    from indefsvm.cli import _tune, main

    monkeypatch.setattr(_tune, "ANNOUNCE_S", 0.0)
    assert main(["fit", "--dataset", "heart", "--kernel", "sigmoid", "--restarts", "2",
                 "--cv", "0"]) == 0
    err = capsys.readouterr().err
    assert err.count("indefsvm: search: 5 C x 5 gamma by 3-fold CV on 270 samples, 75 fits, "
                     "about ") == 1
    monkeypatch.setattr(_tune, "ANNOUNCE_S", 1e9)  # a search of seconds is not said
    assert main(["fit", "--dataset", "heart", "--kernel", "sigmoid", "--cv", "0"]) == 0
    assert "search:" not in capsys.readouterr().err


@pytest.mark.parametrize("kernel", ["linear", "rbf", "poly", "sigmoid", "l1_gaussian"])
def test_features_whose_products_underflow_are_refused_by_name(kernel):
    # features near 1e-160: gamma="scale" was 1 / subnormal = inf ("gamma must be a finite
    # number; got inf", a gamma nobody gave); near 1e-200 the variance was 0, gamma fell
    # back to 1 and the kernel was constant: every SVM predicted one class, without a word.
    # The linear kernel's products were 0 there too. One step inside, all is as before.
    rng = np.random.default_rng(0)
    X = rng.normal(size=(60, 3))
    y = (X[:, 0] + 0.3 * X[:, 1] > 0).astype(int)
    for factor in (1e-160, 1e-200):
        with pytest.raises(ValueError, match=r"underflow"):
            isvm.IndefiniteSVC(kernel=kernel).fit(X * factor, y)
    with pytest.raises(ValueError, match=r"^X has values of at most 2\.4e-160: the kernel "
                                         r"multiplies features"):
        isvm.IndefiniteSVC(kernel=kernel, gamma=1e305).fit(X * 1e-160, y)
    if kernel != "linear":  # gamma="scale" makes these kernels scale-free
        np.testing.assert_array_equal(
            isvm.IndefiniteSVC(kernel=kernel).fit(X * 1e-140, y).predict(X * 1e-140),
            isvm.IndefiniteSVC(kernel=kernel).fit(X, y).predict(X))
    if kernel in ("rbf", "sigmoid"):
        with pytest.raises(ValueError, match=r"gamma's 'scale' rule .* the variance of X "
                                             r"\(values of at most 2\.4e-200\) underflows"):
            isvm.IndefiniteSVC(kernel=kernel).fit(X * 1e-200, y)
    if kernel in ("linear", "poly", "sigmoid"):
        with pytest.raises(ValueError, match=r"^X has values of at most 2\.4e-200: the .* "
                                             r"kernel multiplies features, and their products "
                                             r"underflow"):
            isvm.kernel_matrix(X * 1e-200, kernel=kernel)
    else:
        # exp(-gamma d^2) with gamma = 1 on such features is 1 to the last digit: its value
        K = isvm.kernel_matrix(X * 1e-200, kernel=kernel, gamma=1.0)
        np.testing.assert_array_equal(K, np.ones((60, 60)))
    # a constant X keeps scikit-learn's rule (gamma = 1): its variance is 0, not lost
    model = isvm.IndefiniteSVC().fit(np.ones((6, 2)), [0, 1] * 3)
    assert model.predict(np.ones((1, 2)))[0] in (0, 1)


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


def test_explore_of_tiny_features_draws_tl1_and_names_the_underflow_of_the_others():
    # tl1 has no gamma and needs no variance: its page is drawn (without live sliders, which
    # centre gamma on the scale rule); the sigmoid's gamma rule cannot be computed, said so
    X = np.random.default_rng(0).normal(size=(8, 2)) * 1e-200
    y = np.arange(8) % 2
    page = isvm.explore(X, y, kernel="tl1", C=[1.0], remedies=["none"])
    assert len(page.frames) == 3 and page.live is False  # tl1's three rho
    with pytest.raises(ValueError, match=r"gamma's 'scale' rule .* underflows float64"):
        isvm.explore(X, y, kernel="sigmoid", C=[1.0], remedies=["none"])


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


# -- plotting and geometry: inputs checked before the work ----------------------------------------


def test_plots_and_geometry_name_their_wrong_inputs():
    # each came out as another library's error (IndexError, AttributeError 'alpha', numpy's
    # "cannot reshape array of size 120000 into shape (200,200)", matplotlib's "Input z must
    # be at least a (2, 2) shaped array"), or as a figure or a point that was silently wrong
    # (a 5 x 5 kernel drawn for a 30-sample comparison, M of another dimension, an empty hull
    # for mu below 1/m, an SVM point with alpha > C)
    import matplotlib

    matplotlib.use("Agg")
    from sklearn.exceptions import NotFittedError

    from indefsvm import geometry, plotting

    rng = np.random.default_rng(2)
    Z = rng.normal(size=(30, 2))
    y = (Z[:, 0] > 0).astype(int)
    with pytest.raises(ValueError, match=r"^history must be \(iteration, objective\) rows"):
        plotting.plot_convergence(np.array([1.0, 2.0]))
    with pytest.raises(NotFittedError, match="IndefiniteSVC instance is not fitted"):
        plotting.plot_pe_geometry(isvm.IndefiniteSVC(), Z, y)
    three = isvm.IndefiniteSVC(kernel="sigmoid").fit(Z, np.arange(30) % 3)
    with pytest.raises(ValueError, match=r"draws one binary SVM .* the model has 3 classes"):
        plotting.plot_pe_geometry(three, Z, np.arange(30) % 3)
    two = isvm.IndefiniteSVC(kernel="pseudo_euclidean", kernel_params={"p": 1}).fit(Z, y)
    for grid in (0, 1, 2.5):
        with pytest.raises(ValueError, match=r"^grid must be an integer >= 2"):
            plotting.plot_pe_geometry(two, Z, y, grid=grid)
    assert plotting.plot_pe_geometry(two, Z, y, grid=2) is not None
    K = np.tanh(Z @ Z.T - 0.2)
    cmp = isvm.compare_remedies(K, y, cv=3, methods=["flip"])
    with pytest.raises(ValueError, match=r"^K must be the 30 x 30 kernel the comparison"):
        plotting.plot_remedies(cmp, K[:5, :5])
    with pytest.raises(ValueError, match=r"^M must be the \(2, 2\) signature matrix"):
        geometry.pe_plane_coordinates(Z, np.eye(3))
    with pytest.raises(ValueError, match=r"^mu must be at least 1/m = 0\.2 for 5 points"):
        geometry.reduced_hull(Z[:5], 0.01)
    with pytest.raises(ValueError, match=r"^n_directions must be a positive integer"):
        geometry.reduced_hull(Z[:5], 0.5, n_directions=0)
    # mu >= 1 is the hull itself: its vertices are among the points
    hull = geometry.reduced_hull(Z[:5], 3.0, n_directions=8)
    assert all(np.any(np.all(np.isclose(Z[:5], v), axis=1)) for v in hull)
    with pytest.raises(ValueError, match=r"^alpha must be a feasible point of the SVM dual"):
        geometry.svm_to_ch(np.ones(30), 0.5)
    abar, mu = geometry.svm_to_ch(np.full(4, 0.5), 1.0)
    assert abar.tolist() == [0.5] * 4 and mu == 1.0  # 2 alpha / sum alpha, 2 C / sum alpha
    import matplotlib.pyplot as plt

    plt.close("all")


def test_the_generators_check_their_arguments_and_say_too_big_before_the_work():
    # make_cbf(noise=-1) and noise=nan were taken (NaN series), n_samples=10**9 ran for
    # minutes towards a terabyte, random_state=-1 said numpy's "expected non-negative
    # integer", and make_motif_strings(length=5) said "'int' object is not iterable"
    from indefsvm.datasets import make_cbf, make_motif_strings

    for noise in (-1.0, float("nan"), float("inf")):
        with pytest.raises(ValueError, match=r"^noise must be a finite standard deviation"):
            make_cbf(6, noise=noise)
    with pytest.raises(MemoryError, match=r"^1000000000 series of up to 128 points needs "
                                          r"about 953\.7 GiB"):
        make_cbf(10**9)
    with pytest.raises(ValueError, match=r"^random_state must be None, a whole number >= 0"):
        make_cbf(6, random_state=-1)
    with pytest.raises(ValueError, match=r"^length must be a whole number >= 16 or a range "
                                         r"\(low, high\) of them; got \(20, 10\)"):
        make_cbf(6, length=(20, 10))
    X, y = make_motif_strings(9, length=5, motif_length=4, n_mutations=0, random_state=0)
    assert all(len(x) == 9 for x in X)  # one background length, 5, and the motif's 4
    with pytest.raises(MemoryError, match=r"strings of up to .* letters needs about"):
        make_motif_strings(10**10)
    with pytest.raises(ValueError, match=r"^n_mutations must be a whole number >= 0"):
        make_motif_strings(9, n_mutations=-1)
    # the defaults and the documented forms are as before
    X, y = make_cbf(6, length=(60, 80), random_state=0)
    assert len(X) == 6 and all(60 <= len(x) <= 80 for x in X)
