"""Tests written for mutants that survived ``benchmarks/mutation_score.py``: each pins a
documented behaviour that no earlier test sat on (see docs/reliability.rst)."""

from types import SimpleNamespace

import numpy as np
import pytest

import indefsvm as isvm
from indefsvm.diagnostics import cpd_test, eta_scan, sigmoid_region, spectrum
from indefsvm.diagnostics._advice import recommendation
from indefsvm.kernels import kernel_matrix


def test_eta_scan_default_atol_is_four_eps_of_the_largest_diagonal():
    K = np.array([[3.0, 1.0, 0.0], [1.0, -5.0, 2.0], [0.0, 2.0, 1.0]])
    assert eta_scan(K).atol == 4.0 * np.finfo(np.float64).eps * 5.0


def test_sigmoid_case_4_without_labels_has_no_pair_count():
    X = np.random.default_rng(0).standard_normal((20, 3))
    reg = sigmoid_region(X, a=-0.5, r=-1.0)
    assert reg.case == 4 and reg.thm7_pairs is None


def test_not_cpd_note_gives_the_share_of_the_largest_eigenvalue():
    K = np.diag([4.0, 1.0, -1.0, 2.0])
    sp = spectrum(K)
    note = cpd_test(K).note
    assert f"({100 * abs(sp.restricted_min) / sp.scale:.3g} % of max |lambda|)" in note


def _report(wmw=None, mass=0.05, ratio=0.01, q=3):
    sig = SimpleNamespace(p=50, q=q, negative_mass=mass, negative_ratio=ratio)
    return SimpleNamespace(is_psd=False, is_cpd=False, signature=sig, negated_cpd=False,
                           spectrum=SimpleNamespace(estimated=False),
                           class_mean_sqdist=None, wmw_by_C=wmw, mass_thresholds=(0.01, 0.1),
                           n=100, kernel=None, nystroem_landmarks=None)


def test_recommendation_keeps_C_only_when_some_wmw_is_not_positive():
    mixed = recommendation(_report({0.1: 0.5, 1.0: 0.2, 10.0: -0.1}))
    assert "keep C <= 1" in mixed
    small_but_positive = recommendation(_report({0.1: 0.5, 1.0: 0.2, 10.0: 0.3}))
    assert "keep C" not in small_but_positive


def test_recommendation_for_strongly_indefinite_says_the_method_matters():
    assert "the choice of method matters" in recommendation(_report(mass=0.3))
    assert "the choice of method matters" not in recommendation(_report(mass=0.05))


def test_wmw_rule_reads_C_from_one_upwards():
    # heart, sigmoid a = 1/13, r = 0: w'Mw > 0 at C = 1, <= 0 at C = 10 and 100 -> usable
    X, y = isvm.datasets.load_heart(return_X_y=True)
    rep = isvm.check_kernel(X=X, y=y, kernel="sigmoid", gamma=1 / 13, coef0=0.0)
    assert rep.wmw_by_C[1.0] > 0 and rep.wmw_by_C[10.0] <= 0
    assert rep.verdict != "unsuitable as it stands: use a remedy"


def test_wmw_with_a_small_alpha_sum_is_computed_not_zeroed():
    X, y = isvm.datasets.load_heart(return_X_y=True)
    K = kernel_matrix(X, kernel="sigmoid", gamma=1 / 13, coef0=0.0)
    rep = isvm.check_kernel(K, y, wmw_C=(0.001,))
    clf = isvm.IndefiniteSVC(kernel="precomputed", C=0.001).fit(K, y)
    v = np.zeros(K.shape[0])
    v[clf.support_] = clf.dual_coef_[0]
    s = np.abs(v).sum()
    assert s < 1.0
    assert rep.wmw_by_C[0.001] == pytest.approx((2.0 / s) ** 2 * (v @ K @ v), rel=1e-3)
    assert rep.wmw_by_C[0.001] != 0.0


# -- _validation.py -------------------------------------------------------------------------

def test_a_one_sample_kernel_is_a_kernel_and_an_empty_one_is_refused():
    from indefsvm._validation import check_kernel_matrix

    np.testing.assert_array_equal(check_kernel_matrix([[2.5]]), [[2.5]])
    with pytest.raises(ValueError, match="empty"):
        check_kernel_matrix(np.zeros((0, 0)))


def test_non_finite_kernel_message_names_row_and_column():
    from indefsvm._validation import check_kernel_matrix

    K = np.eye(6)
    K[2, 5] = K[5, 2] = np.nan
    with pytest.raises(ValueError, match=r"first at row 2, column 5"):
        check_kernel_matrix(K)


def test_default_max_iter_grows_with_the_samples_past_the_floor():
    from indefsvm._validation import check_max_iter

    assert check_max_iter(None, 10) == 10_000_000
    assert check_max_iter(None, 300_000) == 30_000_000
    assert check_max_iter(None, 300_000, default_per_sample=7, floor=5) == 2_100_000


def test_memory_message_gives_both_figures_in_gigabytes(monkeypatch):
    import indefsvm._validation as v

    monkeypatch.setattr(v, "available_memory", lambda: 1.5 * 2**30)
    with pytest.raises(MemoryError, match=r"needs about 6\.0 GiB of memory and 1\.5 GiB are "
                                          r"available\. do less"):
        v.check_memory(6 * 2**30, "the thing", "do less")
    v.check_memory(1.4 * 2**30, "the thing", "do less")   # fits: no error


def test_labels_of_the_wrong_length_are_refused_with_both_lengths():
    from indefsvm._validation import check_binary_labels

    with pytest.raises(ValueError, match="y has 3 entries but there are 2 samples"):
        check_binary_labels([1, -1, 1], 2)


def test_symmetry_threshold_is_1e_10_of_the_largest_entry():
    from indefsvm._validation import check_kernel_matrix

    check_kernel_matrix([[1.0, 0.0], [0.9e-10, 1.0]])
    with pytest.raises(ValueError, match="not symmetric"):
        check_kernel_matrix([[1.0, 0.0], [1.5e-10, 1.0]])


def test_available_memory_reads_memavailable_in_kibibytes(monkeypatch):
    import io

    import indefsvm._validation as v

    text = "MemTotal:  9999 kB\nMemFree:  1 kB\nMemAvailable:    2048 kB\n"
    monkeypatch.setattr(v, "open", lambda *a, **k: io.StringIO(text), raising=False)
    assert v.available_memory() == 2048 * 1024.0
    monkeypatch.setattr(v, "open", lambda *a, **k: io.StringIO("MemTotal: 1 kB\n"),
                        raising=False)
    assert v.available_memory() is None


# -- report.py: the recommendation's rules on their boundaries, and the report's text ------

def test_recommendation_zero_wmw_is_not_positive():
    only_zero = recommendation(_report({1.0: 0.0}))
    assert "every C tried gives w'Mw <= 0" in only_zero
    zero_and_pos = recommendation(_report({0.1: 0.2, 1.0: 0.0}))
    assert "keep C <= 0.1 (w'Mw > 0 there)" in zero_and_pos
    assert "so also search the remedies on your folds" in zero_and_pos


def test_recommendation_class_means_at_zero_distance():
    r = _report()
    r.class_mean_sqdist = 0.0
    assert "class means are at c'Kc = 0 <= 0" in recommendation(r)
    r.class_mean_sqdist = 0.5
    assert "class means" not in recommendation(r)


def test_recommendation_for_psd_and_cpd_kernels():
    r = _report()
    r.is_psd, r.is_cpd = True, False
    assert recommendation(r) == ("Recommendation: train on K as it is; the SVM dual is "
                                 "convex.")
    r.is_psd, r.is_cpd = False, True
    assert recommendation(r).endswith("convex on y'alpha = 0 (CPD).")


def test_recommendation_for_slightly_and_moderately_indefinite():
    slight = recommendation(_report(mass=0.001, ratio=0.001))
    assert "(negative mass 0.1 %: slightly indefinite; clip and flip change little" in slight
    moderate = recommendation(_report(mass=0.05, ratio=0.01))
    assert moderate.startswith("Recommendation: train on K as it is with a sanity_report "
                               "(negative mass 5 %), and search the remedies on your folds")


def test_pct_never_rounds_a_small_share_to_zero():
    from indefsvm.diagnostics.report import pct

    assert pct(0) == "0 %"
    assert pct(0.000138) == "0.0138 %"
    assert pct(0.5) == "50 %"


def test_class_means_at_zero_distance_are_called_unsuitable_per_pair():
    # K = ee': every difference of class means has c'Kc = (sum c)^2 = 0 exactly
    y = np.array([0, 0, 1, 1, 2, 2])
    rep = isvm.check_kernel(np.ones((6, 6)), y, wmw_C=None)
    text = str(rep)
    for a, b in ((0, 1), (0, 2), (1, 2)):
        assert f"Classes {a} vs {b}: c'Kc = 0 <= 0, every solution of this pair" in text
        assert f"classes {a} vs {b}: c'Kc / opposite eta <= 0" in text
    two = isvm.check_kernel(np.ones((4, 4)), [0, 0, 1, 1], wmw_C=None)
    assert "Squared distance of the class means c'Kc = 0 <= 0" in str(two)


def test_report_text_shows_the_figures_it_holds():
    X = np.random.default_rng(0).standard_normal((80, 3))
    y = (X[:, 0] > 0).astype(int)
    kw = dict(kernel="sigmoid", gamma=0.5, coef0=-1.0)
    rep = isvm.check_kernel(X=X, y=y, **kw)
    text = str(rep)
    assert text.startswith("Kernel check (kernel=sigmoid, gamma=0.5, coef0=-1.0)\n")
    assert f"{rep.lam_min:.4g} / {rep.lam_max:.4g}" in text
    sig = rep.signature
    assert f"({sig.p}, {sig.q}, {sig.z})" in text
    assert ", ".join(f"C={c:g}: {v:.3g}" for c, v in rep.wmw_by_C.items()) in text
    scale = rep.spectrum.scale
    from indefsvm.diagnostics.report import pct

    assert (f"K is not PSD: lambda_min = {rep.lam_min:.4g}, {pct(abs(rep.lam_min) / scale)} "
            f"of max |lambda| = {scale:.4g}.") in text
    est = isvm.check_kernel(X=X, y=y, method="slq", random_state=0, **kw)
    t2 = str(est)
    iv = est.spectrum.intervals
    s2 = est.signature
    assert (f"~{est.lam_min:.4g} [{iv['lam_min'][0]:.4g}, {iv['lam_min'][1]:.4g}] / "
            f"~{est.lam_max:.4g} [{iv['lam_max'][0]:.4g}, {iv['lam_max'][1]:.4g}]") in t2
    assert (f"(~{s2.p} [{s2.intervals['p'][0]}, {s2.intervals['p'][1]}], "
            f"~{s2.q} [{s2.intervals['q'][0]}, {s2.intervals['q'][1]}], ~{s2.z})") in t2
    lo, hi = s2.intervals["negative_mass"]
    assert f"~{pct(s2.negative_mass)} [{pct(lo)}, {pct(hi)}]" in t2
    assert (f"Estimates (matrix-free, slq): lambda_min in [{iv['lam_min'][0]:.4g}, "
            f"{iv['lam_min'][1]:.4g}], lambda_max in [{iv['lam_max'][0]:.4g}, "
            f"{iv['lam_max'][1]:.4g}], q in {iv['n_neg']}, negative mass in "
            f"[{pct(lo)}, {pct(hi)}]") in t2
    assert "slq (figures with ~ are estimates, [interval])" in t2


def test_report_to_dict_keeps_plain_kernel_parameters_and_names_the_rest():
    def my_kernel(A, B):
        return A @ B.T

    X = np.random.default_rng(0).standard_normal((20, 2))
    d = isvm.check_kernel(X=X, kernel=my_kernel, wmw_C=None).to_dict()
    assert isinstance(d["kernel"]["kernel"], str) and "my_kernel" in d["kernel"]["kernel"]
    d2 = isvm.check_kernel(X=X, kernel="rbf", gamma=0.5, wmw_C=None).to_dict()
    assert d2["kernel"]["kernel"] == "rbf" and d2["kernel"]["gamma"] == 0.5


# -- suitability.py: the grading of indefiniteness and the sigmoid table on their edges --

@pytest.mark.parametrize("mass, ratio, want", [
    (0.0099, 0.01, "slightly"), (0.01, 0.01, "moderately"), (0.1, 0.01, "moderately"),
    (0.1001, 0.01, "strongly"), (0.005, 0.0999, "slightly"), (0.005, 0.1, "moderately"),
    (0.005, 0.4999, "moderately"), (0.005, 0.5, "strongly"), (0.2, 0.2, "strongly"),
    (None, 0.0999, "moderately"), (None, 0.1, "strongly"),
])
def test_indefiniteness_grades_on_the_thresholds(mass, ratio, want):
    from indefsvm.diagnostics.spectrum import indefiniteness

    sig = SimpleNamespace(q=2, negative_mass=mass, negative_ratio=ratio)
    assert indefiniteness(sig, (0.01, 0.1)) == f"{want} indefinite"
    assert indefiniteness(SimpleNamespace(q=0, negative_mass=0.0, negative_ratio=0.0),
                          (0.01, 0.1)).startswith("Euclidean")


@pytest.mark.parametrize("good", [(0.0, 0.0), (0.0, 1.0), (0.3, 0.3), (1.0, 1.0)])
def test_mass_thresholds_inclusive_bounds_are_accepted(good):
    from indefsvm.diagnostics.suitability import _check_thresholds

    assert _check_thresholds(good) == good


@pytest.mark.parametrize("bad", [(-0.1, 0.5), (0.5, 0.4), (0.2, 1.1), ("a", 0.2), (0.1,)])
def test_mass_thresholds_out_of_order_or_range_are_refused(bad):
    from indefsvm.diagnostics.suitability import _check_thresholds

    with pytest.raises(ValueError, match="mass_thresholds"):
        _check_thresholds(bad)


@pytest.mark.parametrize("a, r, case", [(0.5, -1.0, 1), (0.5, 0.0, 2), (0.5, 1.0, 2),
                                        (-0.5, 1.0, 3), (-0.5, 0.0, 4), (-0.5, -1.0, 4),
                                        (0.0, -1.0, 0), (0.0, 1.0, 0)])
def test_sigmoid_cases_on_the_axes(a, r, case):
    X = np.array([[1.0, 0.0], [0.0, 2.0], [1.0, 1.0]])
    reg = sigmoid_region(X, a=a, r=r)
    assert reg.case == case
    assert reg.max_arg == pytest.approx(max(a * float(x @ x) + r for x in X))


def test_eta_scan_of_one_sample_has_no_pair():
    r = eta_scan([[2.0]], y=[1])
    assert (r.n_pairs, r.n_negative, r.fraction) == (0, 0, 0.0)
    assert r.worst_pair is None and np.isnan(r.worst_eta)
    assert (r.n_cross_nonpositive, r.n_cross_pairs) == (0, 0)


def test_eta_scan_counts_and_worst_pair_by_brute_force():
    rng = np.random.default_rng(12)
    B = rng.standard_normal((9, 9))
    K = B + B.T
    y = rng.integers(0, 2, 9)
    r = eta_scan(K, y)
    etas = {(i, j): K[i, i] + K[j, j] - 2 * K[i, j] for i in range(9) for j in range(i + 1, 9)}
    assert r.n_pairs == 36 and r.n_negative == sum(e < -r.atol for e in etas.values())
    assert r.fraction == r.n_negative / 36
    assert r.n_cross_pairs == sum(y[i] != y[j] for i, j in etas)
    assert r.n_cross_nonpositive == sum(y[i] != y[j] and e <= r.atol
                                        for (i, j), e in etas.items())
    worst = min(etas, key=lambda p: (etas[p], p))
    assert r.worst_pair == worst and r.worst_eta == etas[worst]
    with pytest.raises(ValueError, match=r"y must have shape \(9,\)"):
        eta_scan(K, y[:8])
    with pytest.raises(ValueError, match=r"y must have shape \(9,\)"):
        eta_scan(K, y[None, :])


def test_bad_labels_message_lists_the_first_five_values():
    from indefsvm._validation import check_binary_labels

    with pytest.raises(ValueError, match=r"got values \[-3\.0, -2\.0, 0\.0, 2\.0, 3\.0\]\)"):
        check_binary_labels([-3, -2, 0, 2, 3, 4, 5], 7)
