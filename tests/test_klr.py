"""KernelLogisticRegression (``indefsvm.klr``) on degenerate and huge kernels: a constant
kernel starts at its minimum, a scale on which its steps overflow is refused by name."""

import warnings

import numpy as np
import pytest
from test_diagnostics import _tanh_kernel

import indefsvm as isvm


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
