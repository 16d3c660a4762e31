"""Independent reference computations used by the tests."""

import numpy as np


def kkt_gap(K, y, alpha, C):
    """m(alpha) - M(alpha) of Lin & Lin (21), computed from scratch (independent of the solver)."""
    grad = y * (K @ (y * alpha)) - 1.0
    g = -y * grad
    up = ((alpha < C) & (y > 0)) | ((alpha > 0) & (y < 0))
    low = ((alpha < C) & (y < 0)) | ((alpha > 0) & (y > 0))
    return g[up].max() - g[low].min()


def dual_objective(K, y, alpha):
    v = y * alpha
    return 0.5 * v @ K @ v - alpha.sum()


def random_indefinite(n, rng, n_negative=None):
    """Symmetric matrix with a prescribed number of negative eigenvalues."""
    Q, _ = np.linalg.qr(rng.standard_normal((n, n)))
    n_negative = n // 3 if n_negative is None else n_negative
    lam = rng.uniform(0.1, 3.0, n)
    lam[:n_negative] *= -1
    K = (Q * lam) @ Q.T
    return (K + K.T) / 2
