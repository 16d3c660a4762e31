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
