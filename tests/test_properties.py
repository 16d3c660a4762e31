"""Property-based tests (hypothesis): invariants that must hold for any symmetric matrix."""

import os

import numpy as np
import scipy.linalg as sla
from hypothesis import given, settings
from hypothesis import strategies as st
from hypothesis.extra.numpy import arrays

from helpers import kkt_gap
from indefsvm.diagnostics import cpd_test, eta_scan, signature
from indefsvm.solvers import smo

finite = st.floats(-5, 5, allow_nan=False, allow_infinity=False, width=64)
# 150 in CI; benchmarks/property_soak.py raises it
EXAMPLES = int(os.environ.get("INDEFSVM_PROPERTY_EXAMPLES", "150"))


@st.composite
def problems(draw):
    n = draw(st.integers(2, 12))
    A = draw(arrays(np.float64, (n, n), elements=finite))
    K = (A + A.T) / 2
    y = np.where(draw(arrays(np.bool_, n)), 1.0, -1.0)
    y[0], y[-1] = 1.0, -1.0  # both classes
    C = draw(st.floats(0.1, 100.0))
    return K, y, C


@settings(max_examples=EXAMPLES, deadline=None)
@given(problems())
def test_smo_always_stops_at_a_feasible_stationary_point(problem):
    K, y, C = problem
    res = smo(K, y, C=C, tol=1e-3)
    a = res.alpha
    assert res.converged
    assert np.all(a >= 0) and np.all(a <= C)
    assert abs(y @ a) <= 1e-9 * max(1.0, C * len(y))
    assert kkt_gap(K, y, a, C) <= 1e-3 + 1e-9 * max(1.0, np.abs(K).max() * C)
    f = res.history[:, 1]
    assert np.all(np.diff(f) <= 1e-9 * max(1.0, np.abs(f).max()))


@settings(max_examples=EXAMPLES, deadline=None)
@given(problems())
def test_cpd_certificate_is_always_verified(problem):
    K, _, _ = problem
    K = K + np.eye(len(K)) * 3.0  # many of these are CPD
    res = cpd_test(K)
    if res.delta is not None:
        assert res.is_cpd
        sla.cholesky(K + res.delta, lower=True)  # raises if not positive definite
    p, q, z = signature(K)
    assert p + q + z == len(K) and (q == 0) == res.is_cpsd


@settings(max_examples=EXAMPLES, deadline=None)
@given(problems())
def test_eta_scan_matches_brute_force(problem):
    K, y, _ = problem
    n = len(K)
    res = eta_scan(K, y)
    d = np.diag(K)
    eta = d[:, None] + d[None, :] - 2 * K
    iu = np.triu_indices(n, 1)
    assert res.n_negative == int(np.sum(eta[iu] < -res.atol))
    cross = (y[:, None] != y[None, :])[iu]
    assert res.n_cross_nonpositive == int(np.sum(cross & (eta[iu] <= res.atol)))
