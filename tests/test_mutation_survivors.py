"""Tests written for mutants that survived ``benchmarks/mutation_score.py``: each pins a
documented behaviour that no earlier test sat on (see docs/reliability.rst)."""

from types import SimpleNamespace

import numpy as np
import pytest

import indefsvm as isvm
from indefsvm.diagnostics import cpd_test, eta_scan, sigmoid_region, spectrum
from indefsvm.diagnostics.report import recommendation
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
    sig = SimpleNamespace(q=q, negative_mass=mass, negative_ratio=ratio)
    return SimpleNamespace(is_psd=False, is_cpd=False, signature=sig, negated_cpd=False,
                           class_mean_sqdist=None, wmw_by_C=wmw, mass_thresholds=(0.01, 0.1))


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
    assert rep.verdict != "unsuitable"


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
    with pytest.raises(MemoryError, match=r"needs about 6\.0 GB of memory and 1\.5 GB are "
                                          r"available\. do less"):
        v.check_memory(6 * 2**30, "the thing", "do less")
    v.check_memory(1.4 * 2**30, "the thing", "do less")   # fits: no error


def test_labels_of_the_wrong_length_are_refused_with_both_lengths():
    from indefsvm._validation import check_binary_labels

    with pytest.raises(ValueError, match="y has 3 entries but there are 2 samples"):
        check_binary_labels([1, -1, 1], 2)
