"""Edges of the diagnostics that no other test reached (found by the coverage map of
``benchmarks/mutation_score.py``): one-sample kernels, estimates printed for people, rtol
given to a computed spectrum, the CPD certificate from a matrix-free estimate, a probe's
Lanczos run ending at its first step, the reports of SVR and one-class models, and the
refusals on these paths. Each checks the figure against one computed here."""

import logging

import numpy as np
import pytest

import indefsvm as isvm
from indefsvm.diagnostics import (
    class_mean_sqdist,
    cpd_test,
    sanity_report,
    sigmoid_region,
    signature,
    spectrum,
)
from indefsvm.kernels import kernel_matrix


@pytest.mark.parametrize("value", [3.0, -2.0])
def test_one_sample_kernel_spectrum(value):
    sp = spectrum([[value]], method="dense")
    assert sp.lam_min == sp.lam_max == value
    assert sp.restricted.shape == (0,)
    assert sp.schur == value
    assert sp.is_psd is (value >= 0)
    assert (sp.n_pos, sp.n_neg, sp.n_zero) == (0, 0, 0)


def test_estimated_spectrum_and_signature_print_their_intervals():
    B = np.random.default_rng(0).standard_normal((120, 120))
    sp = spectrum(B + B.T, method="slq", random_state=0, n_steps=20)
    text = str(sp)
    iv = sp.intervals
    assert "estimates" in text
    assert f"lambda_min ~ {sp.lam_min:.4g} in [{iv['lam_min'][0]:.4g}, " in text
    assert f"lambda_max ~ {sp.lam_max:.4g} in [{iv['lam_max'][0]:.4g}, " in text
    sig = signature(sp)
    st = str(sig)
    assert f"p ~ {sig.p} in {sig.intervals['p']}, q ~ {sig.q} in {sig.intervals['q']}" in st
    lo, hi = sig.intervals["negative_mass"]
    assert f"[{lo:.3%}, {hi:.3%}]" in st


@pytest.mark.parametrize("bad", [-1.0, True, "x", float("nan"), 1.0, float("inf")])
def test_spectrum_refuses_a_bad_rtol(bad):
    with pytest.raises(ValueError, match=r"rtol must be a number in \[0, 1\)"):
        spectrum(np.eye(3), rtol=bad)


def test_a_new_rtol_on_a_computed_spectrum_recomputes_it():
    K = np.diag([5.0, 1.0, 1e-6, -1e-6, -2.0])
    sp = spectrum(K)
    assert signature(sp).q == 2
    # a looser threshold (1e-3 of max |lambda| ~ 5e-3) counts the +-1e-6 pair as zero;
    # the same rtol as before gives the same object back
    loose = signature(sp, rtol=1e-3)
    assert loose.q == 1 and loose.z > signature(sp).z
    # a spectrum estimated from X alone (no matrix to recompute from) cannot take a new
    # rtol; its own rtol is no new one and reuses it as it is
    X = np.random.default_rng(0).standard_normal((40, 2))
    est = isvm.check_kernel(X=X, kernel="rbf", method="slq", random_state=0).spectrum
    with pytest.raises(ValueError, match="estimated without a kernel matrix"):
        signature(est, rtol=0.5)
    assert signature(est, rtol=est.rtol).q == signature(est).q


def test_cpd_certificate_from_a_matrix_free_estimate_is_positive_definite():
    # -||x - x'|| is CPD (a negative distance): the certificate Delta from the Lanczos
    # bound must make K + Delta ee' positive definite, which Cholesky checks here
    X = np.random.default_rng(1).standard_normal((150, 3))
    D = np.sqrt(((X[:, None, :] - X[None, :, :]) ** 2).sum(-1))
    K = -D
    res = cpd_test(spectrum(K, method="slq", random_state=0))
    assert res.is_cpd and res.delta is not None
    assert "K is CPD (estimate)" in res.note
    np.linalg.cholesky(K + res.delta * np.ones_like(K))


def test_a_kernel_with_one_eigenvalue_ends_every_probe_at_step_one():
    # on e-perp K = 3 I has the one eigenvalue 3: each probe's Lanczos run breaks down
    # after one step and its quadrature is then the exact measure
    sp = spectrum(3.0 * np.eye(40), method="slq", random_state=0)
    assert (sp.n_pos, sp.n_neg) == (39, 0)
    assert sp.intervals["n_neg"] == [0, 0] and sp.intervals["n_pos"][1] == 39
    assert sp.lam_min == pytest.approx(3.0) and sp.lam_max == pytest.approx(3.0)


def test_sigmoid_region_with_a_zero_slope_is_case_0():
    X = np.ones((4, 2))
    assert sigmoid_region(X, a=0.0, r=1.0).case == 0


def test_sigmoid_saturation_counts_the_pairs_past_three_and_says_what_the_kernel_is():
    # iris at scikit-learn's gamma="scale", r = 0: tanh saturated at +1 on most pairs (LIBSVM
    # and IndefiniteSVC train a 7 % accurate model there); r = -5: near -1, where Lin & Lin's
    # (13) and (15) ask for a C of order 1 / (1 + tanh r)
    from scipy.sparse import csr_matrix
    from sklearn.datasets import load_iris

    X, _ = load_iris(return_X_y=True)
    a = 1.0 / (X.shape[1] * X.var())
    t = a * (X @ X.T)
    off = ~np.eye(len(X), dtype=bool)
    reg = sigmoid_region(X, a=a, r=0.0)
    assert reg.saturated_high == np.mean(t[off] >= 3.0) and 0.5 < reg.saturated_high < 1
    assert reg.saturated_low == 0.0 and reg.saturation_rows == 0
    assert f"saturated at +1 on {100 * reg.saturated_high:.1f} % of the pairs" in str(reg)
    assert reg.to_dict()["saturated_high"] == reg.saturated_high
    assert sigmoid_region(csr_matrix(X), a=a, r=0.0).saturated_high == reg.saturated_high
    low = sigmoid_region(X, a=0.01, r=-5.0)
    assert low.saturated_low == np.mean(0.01 * (X @ X.T)[off] - 5.0 <= -3.0) == 1.0
    assert f"1 / (1 + tanh(r)) = {1 / (1 + np.tanh(-5.0)):.3g}" in str(low)
    assert "saturated" not in str(sigmoid_region(X, a=0.01, r=0.0))
    rep = isvm.check_kernel(X=X, kernel="sigmoid")
    assert ("tanh saturated at +1 / -1",
            f"{100 * reg.saturated_high:.3g} % / 0 % of the pairs") in rep._rows()
    assert any("saturated at +1" in note for note in rep.notes)


def test_sigmoid_saturation_of_many_rows_counts_a_sample_and_says_so(monkeypatch):
    import indefsvm.diagnostics.suitability as suit

    monkeypatch.setattr(suit, "SATURATION_ROWS", 50)
    X = np.random.default_rng(0).standard_normal((120, 3)) + 2.0
    reg = sigmoid_region(X, a=1.0, r=0.0)
    assert reg.saturation_rows == 50
    keep = np.sort(np.random.default_rng(0).choice(120, 50, replace=False))
    t = X[keep] @ X[keep].T
    assert reg.saturated_high == np.mean(t[~np.eye(50, dtype=bool)] >= 3.0)
    assert "a random sample of 50 rows" in str(reg)


def test_sigmoid_region_case_4_refuses_labels_of_the_wrong_shape():
    X = np.random.default_rng(0).standard_normal((10, 2))
    with pytest.raises(ValueError, match=r"y must have shape \(10,\)"):
        sigmoid_region(X, a=-0.5, r=-1.0, y=np.ones(9))


def test_class_mean_sqdist_needs_exactly_two_classes():
    with pytest.raises(ValueError, match="needs exactly two classes in y; got 3"):
        class_mean_sqdist(np.eye(3), [0, 1, 2])


@pytest.mark.parametrize("bad", [0.0, -1.0, True, "x", 1.0, float("inf")])
def test_check_kernel_refuses_a_bad_rtol(bad):
    with pytest.raises(ValueError, match=r"rtol must be a number in \(0, 1\)"):
        isvm.check_kernel(np.eye(3), rtol=bad)


def test_check_kernel_verbose_logs_its_phases(caplog):
    X = np.random.default_rng(0).standard_normal((30, 2))
    with caplog.at_level(logging.INFO, logger="indefsvm"):
        isvm.check_kernel(X=X, kernel="rbf", verbose=True, wmw_C=None)
    assert "check_kernel: spectrum done" in caplog.text
    # the logged durations are elapsed times (seconds since the call began)
    import re

    secs = [float(v) for v in re.findall(r"done in ([0-9.]+) s", caplog.text)]
    assert len(secs) >= 2 and all(0.0 <= s < 60.0 for s in secs)


def test_matrix_free_check_refuses_one_class_and_wmw_with_a_callable():
    X = np.random.default_rng(0).standard_normal((60, 2))
    with pytest.raises(ValueError, match="y holds one class only"):
        isvm.check_kernel(X=X, y=np.zeros(60), kernel="rbf", method="slq")
    y = (X[:, 0] > 0).astype(int)

    def my_kernel(A, B):
        return np.tanh(0.5 * A @ B.T - 1.0)

    with pytest.raises(ValueError, match="wmw_C with a matrix-free check needs"):
        isvm.check_kernel(X=X, y=y, kernel=my_kernel, method="slq", wmw_C=(1.0,))


def test_matrix_free_wmw_equals_the_dense_one():
    # w'Mw with the kernel computed on the fly (SMO) and v'Kv by one kernel pass, against
    # w'Mw from the dense check of the same indefinite kernel
    X = np.random.default_rng(2).standard_normal((120, 3))
    y = (X[:, 0] + 0.5 * X[:, 1] > 0).astype(int)
    kw = dict(kernel="sigmoid", gamma=0.5, coef0=-1.0)
    dense = isvm.check_kernel(X=X, y=y, method="dense", wmw_C=(0.1, 1.0), **kw)
    mf = isvm.check_kernel(X=X, y=y, method="slq", random_state=0, wmw_C=(0.1, 1.0), **kw)
    assert dense.wmw_by_C is not None and mf.wmw_by_C is not None
    for C in (0.1, 1.0):
        assert mf.wmw_by_C[C] == pytest.approx(dense.wmw_by_C[C], rel=1e-3, abs=1e-6)


def test_negated_cpd_kernel_gets_the_do_not_train_recommendation():
    X = np.random.default_rng(3).standard_normal((40, 2))
    y = (X[:, 0] > 0).astype(int)
    K = -kernel_matrix(X, kernel="rbf", gamma=0.5)
    rep = isvm.check_kernel(K, y)
    assert rep.negated_cpd
    assert "do not train on K as it is (-K is CPSD: w'Mw <= 0 for every solution)" in str(rep)


def _svr_and_one_class():
    rng = np.random.default_rng(4)
    X = rng.standard_normal((50, 2))
    t = X[:, 0] - 0.5 * X[:, 1]
    kw = dict(kernel="sigmoid", gamma=0.3, coef0=-0.5)
    return X, t, isvm.IndefiniteSVR(C=1.0, **kw).fit(X, t), \
        isvm.IndefiniteOneClassSVM(nu=0.2, **kw).fit(X)


def test_svr_and_one_class_reports_print_their_figures():
    X, t, svr, oc = _svr_and_one_class()
    for rep, name in ((sanity_report(svr, X, t), "outside the epsilon-tube"),
                      (sanity_report(oc, X), "training outliers")):
        text = str(rep)
        assert f"{rep.n_sv} / {rep.n_bounded}" in text
        assert f"{rep.wMw:.4g}" in text
        assert name in text
        curv = "n/a" if rep.min_curvature is None else f"{rep.min_curvature:.4g}"
        assert f"(min curvature {curv})" in text
        assert "Sanity report" in rep._repr_html_()


def test_dual_reports_refuse_other_data():
    X, t, svr, oc = _svr_and_one_class()
    with pytest.raises(ValueError, match="X must be the training data of the model"):
        sanity_report(oc, X[:40])
    with pytest.raises(ValueError, match="y has 49 entries for 50 training samples"):
        sanity_report(svr, X, t[:49])


@pytest.mark.parametrize("est", [
    isvm.IndefiniteSVC(kernel="sigmoid", gamma=0.01, coef0=-0.5),
    isvm.IndefiniteNuSVC(kernel="sigmoid", gamma=0.01, coef0=-0.5, nu=0.3),
])
def test_a_classifier_report_refuses_labels_that_are_not_the_training_ones(est):
    # reversed labels are all of the pair's two classes: the report once checked the dual
    # with them and called the converged solution no stationary point (KKT gap 3.1)
    X, y = isvm.datasets.load_heart(return_X_y=True)
    model = est.fit(X, y)
    assert sanity_report(model, X, y).is_stationary
    with pytest.raises(ValueError, match=r"y must be the training labels of the model: sample "
                       r"\d+ is a support vector of class -?1 in the model, and y gives it"):
        sanity_report(model, X, y[::-1])
    # one label flipped at a sample that is no support vector: the digest fit kept tells it
    flipped = y.copy()
    other = np.setdiff1d(np.arange(len(y)), model.support_)[0]
    flipped[other] = -flipped[other]
    with pytest.raises(ValueError, match="differ from the labels it was fitted on"):
        sanity_report(model, X, flipped)
    # the same labels in another container or dtype are the training labels
    assert sanity_report(model, X, list(y)).is_stationary


def test_pairwise_report_prints_every_pair():
    rng = np.random.default_rng(5)
    X = rng.standard_normal((60, 2))
    y = np.digitize(X[:, 0], [-0.4, 0.4])
    model = isvm.IndefiniteSVC(kernel="sigmoid", gamma=0.3, coef0=-0.5).fit(X, y)
    rep = sanity_report(model, X, y)
    pairs = list(rep)
    assert [p for p, _ in pairs] == [(0, 1), (0, 2), (1, 2)]
    text = str(rep)
    for (a, b), r in pairs:
        assert f"classes {a} vs {b}\n{r}" in text
    assert text.count("classes ") == 3
    assert rep._repr_html_().count("<h3>") == 3


@pytest.mark.parametrize("n", [3, 4, 8, 20])
def test_small_kernels_probe_the_whole_complement_of_e(n):
    # with as many probes as the complement of e has dimensions the probes are a basis of
    # it: the counts are exact, not estimates from a handful of random signs (a constant
    # sign vector, likely for small n, had no component there and gave NaN)
    for K in (np.diag(np.linspace(-1.0, 2.0, n)), np.diag(np.r_[np.full(n - 1, -1.0), 3.0])):
        ref = spectrum(K, method="dense")
        for seed in range(10):
            sp = spectrum(K, method="slq", random_state=seed)
            assert np.isfinite(sp.lam_min) and np.isfinite(sp.negative_mass)
            for key in ("n_neg", "n_pos"):
                lo, hi = sp.intervals[key]
                assert lo <= getattr(ref, key) <= hi, (n, seed, key)
            assert sp.intervals["lam_min"][0] - 1e-9 <= ref.lam_min <= \
                sp.intervals["lam_min"][1] + 1e-9


def _cpd_kernels():
    rng = np.random.default_rng(7)
    X = rng.standard_normal((60, 3))
    D = np.sqrt(((X[:, None, :] - X[None, :, :]) ** 2).sum(-1))
    B = rng.standard_normal((40, 40))
    return {"negative distance (CPD, not PSD)": -D,
            "indefinite": B + B.T,
            "rbf (PD)": np.exp(-0.5 * D ** 2),
            "three samples": -D[:3, :3],
            "two samples": np.array([[1.0, 3.0], [3.0, 1.0]])}


@pytest.mark.parametrize("name", list(_cpd_kernels()))
def test_ldl_path_equals_dense_on_every_figure(name):
    K = _cpd_kernels()[name]
    dense, ldl = spectrum(K, method="dense"), spectrum(K, method="ldl")
    assert (ldl.n_pos, ldl.n_neg, ldl.n_zero) == (dense.n_pos, dense.n_neg, dense.n_zero)
    for f in ("lam_min", "lam_max", "restricted_min", "restricted_max"):
        assert getattr(ldl, f) == pytest.approx(getattr(dense, f), rel=1e-7, abs=1e-9), f
    assert (ldl.schur is None) == (dense.schur is None)
    if dense.schur is not None:
        assert ldl.schur == pytest.approx(dense.schur, rel=1e-8)
    assert cpd_test(ldl).is_cpd == cpd_test(dense).is_cpd


def test_ldl_finds_no_negative_eigenvalue_in_a_low_rank_psd_kernel():
    # rank 3 PSD on 300 samples: 297 eigenvalues at rounding level, none negative
    X = np.random.default_rng(8).standard_normal((300, 3))
    K = X @ X.T
    sp = spectrum(K, method="ldl")
    dense = spectrum(K, method="dense")
    assert sp.n_neg == dense.n_neg == 0
    assert sp.n_pos == dense.n_pos
    assert sp.is_psd


def test_cpd_delta_min_is_the_smallest_shift_that_makes_k_positive_definite():
    # Lin & Lin (2003), Thm 3 through the Schur complement: K + Delta ee' is PD exactly for
    # Delta > delta_min; checked on both sides by Cholesky, and the returned Delta adds the
    # margin lambda_min(B) / n
    K = _cpd_kernels()["negative distance (CPD, not PSD)"]
    n = K.shape[0]
    res = cpd_test(K)
    assert res.is_cpd and res.delta_min is not None
    step = 1e-6 * abs(res.delta_min)
    np.linalg.cholesky(K + (res.delta_min + step))
    with pytest.raises(np.linalg.LinAlgError):
        np.linalg.cholesky(K + (res.delta_min - step))
    sp = spectrum(K)
    assert res.delta == pytest.approx(res.delta_min + sp.restricted_min / n, rel=1e-12)


@pytest.mark.parametrize("value, delta_min, delta", [(3.0, -3.0, 0.0), (-2.0, 2.0, 4.0)])
def test_cpd_certificate_of_one_sample(value, delta_min, delta):
    res = cpd_test([[value]])
    assert res.is_cpd and res.delta_min == delta_min and res.delta == delta


def test_svr_and_one_class_reports_equal_figures_from_the_model():
    # the report recomputes from the kernel; the model's own predictions, dual coefficients
    # and solver figures are the independent reference
    X, t, svr, oc = _svr_and_one_class()
    n = X.shape[0]
    rep = sanity_report(svr, X, t)
    K = kernel_matrix(X, kernel="sigmoid", gamma=0.3, coef0=-0.5)
    coef = np.zeros(n)
    coef[svr.support_] = svr.dual_coef_[0]
    assert rep.n == n and rep.n_sv == svr.support_.shape[0]
    assert rep.wMw == pytest.approx(coef @ K @ coef, rel=1e-10)
    tol = svr.tol
    outside = np.mean(np.abs(t - svr.predict(X)) > svr.epsilon + tol)
    assert rep.outside_ratio == pytest.approx(outside)
    a_up, a_low = svr.alpha_[:n], svr.alpha_[n:]
    obj = 0.5 * (a_up - a_low) @ K @ (a_up - a_low) + svr.epsilon * (a_up + a_low).sum() \
        - t @ (a_up - a_low)
    assert rep.objective == pytest.approx(obj, rel=1e-9)
    assert rep.n_bounded == int(np.count_nonzero((a_up >= svr.C * (1 - 1e-12))
                                                 | (a_low >= svr.C * (1 - 1e-12))))
    assert rep.kkt_gap == pytest.approx(svr.kkt_gap_, rel=1e-6, abs=1e-9)
    assert rep.is_stationary == (rep.kkt_gap <= tol)
    orep = sanity_report(oc, X)
    assert orep.outside_ratio == pytest.approx(np.mean(oc.decision_function(X) < -oc.tol))
    a = oc.alpha_
    assert orep.wMw == pytest.approx(a @ K @ a, rel=1e-10)
    assert orep.objective == pytest.approx(0.5 * a @ K @ a, rel=1e-9)
    assert orep.n_sv == int(np.count_nonzero(a))


@pytest.mark.parametrize("seed", range(4))
def test_signature_equals_the_centred_kernel_computed_here(seed):
    # JKJ by numpy's eigvalsh on the explicit centring, thresholds as documented:
    # |lambda| <= rtol * max|lambda(K)| is zero; mass = sum |negative| / sum |all|
    rng = np.random.default_rng(seed)
    n = 30
    B = rng.standard_normal((n, 6))
    K = B @ np.diag([3.0, 2.0, 1.0, -0.5, -1.5, 1e-9]) @ B.T
    J = np.eye(n) - np.ones((n, n)) / n
    mu = np.linalg.eigvalsh(J @ K @ J)
    rtol = 1e-6 if seed % 2 else None
    sp = spectrum(K, rtol=rtol)
    tol = (rtol if rtol is not None else n * np.finfo(float).eps) * np.abs(
        np.linalg.eigvalsh(K)).max()
    assert sp.tol == pytest.approx(tol, rel=1e-12)
    sig = signature(sp)
    p, q = int(np.sum(mu > tol)), int(np.sum(mu < -tol))
    assert (sig.p, sig.q, sig.z) == (p, q, n - p - q)
    nz = mu[np.abs(mu) > tol]
    assert sig.negative_mass == pytest.approx(np.abs(nz[nz < 0]).sum() / np.abs(mu).sum(),
                                              rel=1e-9)
    assert sig.negative_ratio == pytest.approx(abs(mu.min()) / mu.max(), rel=1e-9)
    np.testing.assert_allclose(sig.eigenvalues, np.sort(mu), atol=1e-10 * abs(mu).max())
    assert (sp.n_pos, sp.n_neg, sp.n_zero) == (p, q, n - 1 - p - q)


def test_signature_of_a_psd_kernel_has_no_negative_ratio():
    X = np.random.default_rng(0).standard_normal((20, 3))
    sig = signature(X @ X.T)
    assert sig.q == 0 and sig.negative_ratio == 0.0 and sig.negative_mass == 0.0


@pytest.mark.parametrize("method", ["dense", "slq"])
def test_sigmoid_region_reads_the_estimators_defaults(method):
    # no gamma, no coef0: the kernel is IndefiniteSVC(kernel="sigmoid")'s, tanh(gamma x'x')
    # with gamma = "scale" = 1 / (d var X) and coef0 = 0, and the region is read for those
    # -- the parameters of the matrix that was checked
    X = np.random.default_rng(6).standard_normal((40, 4))
    a = 1.0 / (4 * X.var())
    rep = isvm.check_kernel(X=X, kernel="sigmoid", method=method, random_state=0,
                            wmw_C=None)
    assert rep.sigmoid.a == a and rep.sigmoid.r == 0.0
    assert rep.kernel == {"kernel": "sigmoid", "gamma": a, "coef0": 0.0}


def test_lemma_2_needs_a_positive_slope():
    X = np.array([[1.0, 0.0], [0.0, 1.0]])
    assert sigmoid_region(X, a=0.5, r=-1.0).lemma2 is True      # a > 0, max a|x|^2 + r < 0
    assert sigmoid_region(X, a=0.0, r=-1.0).lemma2 is False     # a = 0: not Lemma 2's case
    assert sigmoid_region(X, a=1.0, r=-1.0).lemma2 is True      # max_arg = 0 exactly
    assert sigmoid_region(X, a=1.5, r=-1.0).lemma2 is False


def test_matrix_free_steps_are_counted_in_the_log_and_details(caplog):
    X = np.random.default_rng(9).standard_normal((60, 3))
    with caplog.at_level(logging.INFO, logger="indefsvm"):
        rep = isvm.check_kernel(X=X, kernel="sigmoid", gamma=0.5, coef0=-1.0, method="slq",
                                random_state=0, n_steps=3, verbose=True)
    sp = rep.spectrum
    steps = [r.getMessage() for r in caplog.records if "Lanczos step" in r.getMessage()]
    assert [s.split(" (")[0] for s in steps] == [
        f"matrix-free spectrum: Lanczos step {i} of 3" for i in (1, 2, 3)]
    # each with the seconds since the run began
    secs = [float(s.split(" (")[1].split(" s)")[0]) for s in steps]
    assert secs == sorted(secs) and 0.0 <= secs[0] and secs[-1] < 60.0
    assert sp.details["n_steps"] == 3 and sp.details["passes"] == 3
    B = np.random.default_rng(9).standard_normal((60, 60))
    one = spectrum(B + B.T, method="slq", random_state=0, n_steps=1)
    # one step is one pass, and one more for A c (c = J K u, the Ritz step's coupling of e
    # to its complement), which rides along the second pass when there is one
    assert one.details["n_steps"] == 1 and one.details["passes"] == 2


def test_auto_wmw_is_computed_up_to_dense_max_inclusive(monkeypatch):
    import sys

    monkeypatch.setattr(sys.modules["indefsvm.diagnostics.spectrum"], "DENSE_MAX", 40)
    rng = np.random.default_rng(10)
    for n, computed in ((40, True), (41, False)):
        X = rng.standard_normal((n, 3))
        y = (X[:, 0] > 0).astype(int)
        K = kernel_matrix(X, kernel="sigmoid", gamma=0.5, coef0=-1.0)
        rep = isvm.check_kernel(K, y, random_state=0)
        assert (rep.wmw_by_C is not None) is computed, n


def test_matrix_free_check_takes_three_samples_and_refuses_two():
    X = np.array([[0.0, 1.0], [1.0, 0.5], [2.0, -1.0]])
    rep = isvm.check_kernel(X=X, kernel="sigmoid", gamma=0.5, coef0=-1.0, method="slq",
                            random_state=0)
    dense = isvm.check_kernel(X=X, kernel="sigmoid", gamma=0.5, coef0=-1.0, method="dense")
    assert rep.n == 3 and (rep.signature.p, rep.signature.q) == (dense.signature.p,
                                                                  dense.signature.q)
    with pytest.raises(ValueError, match="need at least 3 samples; got 2"):
        isvm.check_kernel(X=X[:2], kernel="rbf", method="slq")


def test_auto_spectrum_is_dense_up_to_dense_max_inclusive(monkeypatch):
    import sys

    monkeypatch.setattr(sys.modules["indefsvm.diagnostics.spectrum"], "DENSE_MAX", 40)
    B = np.random.default_rng(13).standard_normal((41, 41))
    assert spectrum((B + B.T)[:40, :40]).method == "dense"
    assert spectrum(B + B.T, random_state=0).method == "slq"


@pytest.mark.parametrize("seed", range(40))
def test_ldl_inertia_with_two_by_two_pivots_equals_dense(seed):
    # zero diagonals force Bunch-Kaufman's 2 x 2 pivots, also in the last rows
    rng = np.random.default_rng(seed)
    n = int(rng.integers(3, 9))
    B = rng.standard_normal((n, n))
    K = B + B.T
    np.fill_diagonal(K, 0.0)
    dense, ldl = spectrum(K, method="dense"), spectrum(K, method="ldl")
    assert (ldl.n_pos, ldl.n_neg, ldl.n_zero) == (dense.n_pos, dense.n_neg, dense.n_zero)


def test_the_documented_switch_to_matrix_free_is_5000_samples():
    # the user guide, check_kernel's and spectrum's docstrings say "dense up to 5 000"
    import sys

    assert sys.modules["indefsvm.diagnostics.spectrum"].DENSE_MAX == 5000
    assert "5 000" in spectrum.__doc__ and "5 000" in isvm.check_kernel.__doc__


@pytest.mark.parametrize("scale", [1e-309, 1e-300, 1.0, 1e300])
def test_schur_complement_scales_with_the_kernel_without_overflow(scale):
    # the property soak found spectrum() of a kernel of subnormal entries overflowing in the
    # Schur complement's solve (1 / 1e-309; a RuntimeWarning, which this suite raises); the
    # complement is scale-covariant, so it is solved on T / max|lambda| and scaled back
    rng = np.random.default_rng(3)
    B = rng.standard_normal((6, 6))
    K = B @ B.T + np.eye(6)
    ref = spectrum(K)
    got = spectrum(K * scale)
    assert got.schur == pytest.approx(ref.schur * scale, rel=1e-6 if scale < 1e-307 else 1e-12)
    assert (got.n_pos, got.n_neg, got.n_zero) == (ref.n_pos, ref.n_neg, ref.n_zero)
    # the soak's own matrix: one subnormal entry, the rest zero
    tiny = spectrum(np.array([[2.22507386e-309, 0.0], [0.0, 0.0]]))
    assert np.isfinite(tiny.schur) and abs(tiny.schur) <= 1e-320


def test_a_sparse_kernel_matrix_is_checked_as_its_dense_self():
    # a compactly supported kernel (TL1's) is mostly zeros and people keep it sparse;
    # "K must be a numeric 2-D array: setting an array element with a sequence" before
    import scipy.sparse as sp

    import indefsvm as isvm

    X, y = isvm.datasets.load_heart(return_X_y=True)
    K = isvm.kernel_matrix(X, kernel="tl1", rho=3.0)
    assert np.mean(K == 0) > 0.9
    Ks = sp.csr_matrix(K)
    assert isvm.check_kernel(Ks, y).to_dict() == isvm.check_kernel(K, y).to_dict()
    assert str(isvm.diagnostics.signature(Ks)) == str(isvm.diagnostics.signature(K))
    assert str(isvm.diagnostics.cpd_test(Ks)) == str(isvm.diagnostics.cpd_test(K))
    a = isvm.compare_remedies(Ks, y, cv=3, random_state=0)
    b = isvm.compare_remedies(K, y, cv=3, random_state=0)
    assert a.recommended == b.recommended and list(a.fold_errors) == list(b.fold_errors)
    for method in a.fold_errors:
        np.testing.assert_array_equal(a.fold_errors[method], b.fold_errors[method])


def test_a_precomputed_model_refuses_another_kernel_of_the_same_shape(tmp_path, capsys):
    # report fit.skops K_other.npy --labels y.txt (another gamma) called it the model's
    # training data, then "Not a stationary point ... Raise max_iter" for a model that
    # converged; features or scikit-learn's SVC were refused by their decision values
    from indefsvm.cli import main

    X, y = isvm.datasets.load_heart(return_X_y=True)
    K = kernel_matrix(X, kernel="rbf", gamma=0.1)
    other = kernel_matrix(X, kernel="rbf", gamma=0.2)
    for model, target in ((isvm.IndefiniteSVC(kernel="precomputed", C=1).fit(K, y), y),
                          (isvm.IndefiniteSVR(kernel="precomputed").fit(K, y * 1.0), y * 1.0),
                          (isvm.IndefiniteOneClassSVM(kernel="precomputed").fit(K), None)):
        assert sanity_report(model, K, target).verdict == "sensible"
        with pytest.raises(ValueError, match=r"X must be the training kernel of the model: "
                                             r"its entry \(\d+, \d+\) is .* where the kernel "
                                             r"the model was trained on holds"):
            sanity_report(model, other, target)
    np.save(tmp_path / "K.npy", K)
    np.save(tmp_path / "other.npy", other)
    np.savetxt(tmp_path / "y.txt", y, fmt="%d")
    model = str(tmp_path / "fit.skops")
    assert main(["fit", str(tmp_path / "K.npy"), "--labels", str(tmp_path / "y.txt"),
                 "--cv", "0", "--quiet", "--save", model]) == 0
    capsys.readouterr()
    assert main(["report", model, str(tmp_path / "other.npy"), "--labels",
                 str(tmp_path / "y.txt")]) != 0
    err = capsys.readouterr().err
    assert "must be the training kernel of the model" in err and "stationary" not in err


def test_every_sanity_report_opens_with_its_verdict():
    # print(sanity_report(...)) and indefsvm report opened with the objective; the verdict
    # (SanityReport.verdict) came nowhere in the text
    X, y = isvm.datasets.load_heart(return_X_y=True)
    svc = isvm.IndefiniteSVC(kernel="sigmoid", gamma=0.01, coef0=-0.5, C=10).fit(X, y)
    X_, t, svr, oc = _svr_and_one_class()
    ny = isvm.NystroemSVC(n_components=40, random_state=0).fit(X, y)
    for rep in (sanity_report(svc, X, y), sanity_report(svr, X_, t), sanity_report(oc, X_),
                sanity_report(ny, X, y)):
        first = str(rep).splitlines()[2]
        assert first.startswith("verdict") and rep.verdict.upper() in first, str(rep)
        assert rep.verdict.upper() in rep._repr_html_()
