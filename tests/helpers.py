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


def two_class_series(n=40, seed=0, *, jitter=2.0, noise=0.1):
    """Series of random lengths (30 to 44) with a bump early (class 0) or late (class 1),
    its centre shifted by ``jitter`` and the series by ``noise`` (Gaussian)."""
    rng = np.random.default_rng(seed)
    X, y = [], []
    for i in range(n):
        L = int(rng.integers(30, 45))
        t = np.arange(L)
        c = i % 2
        centre = (0.3 if c == 0 else 0.7) * L + (rng.normal(scale=jitter) if jitter else 0.0)
        X.append(np.exp(-0.5 * ((t - centre) / 3.0) ** 2) + rng.normal(scale=noise, size=L))
        y.append(c)
    return X, np.array(y)


def interrupted_after(call, seconds: float = 1.0):
    """Send SIGINT ``seconds`` into ``call()``; return (signal sent, seconds from the start
    until the KeyboardInterrupt). Timed from the start: a call holding the GIL would also
    hold back the timer thread."""
    import os
    import signal
    import threading
    import time

    import pytest

    sent = []
    timer = threading.Timer(seconds, lambda: (sent.append(time.perf_counter()),
                                              os.kill(os.getpid(), signal.SIGINT)))
    t0 = time.perf_counter()
    timer.start()
    try:
        with pytest.raises(KeyboardInterrupt):
            call()
        stopped = time.perf_counter()
    finally:
        timer.cancel()
    return bool(sent), stopped - t0


def stopped_at_line(call, k: int, traced) -> int:
    """Run ``call()`` with a KeyboardInterrupt raised at the k-th line it runs in the files
    for which ``traced(filename)`` is true (as a signal is delivered between lines); returns
    the number of such lines when k is past them (k=-1: count only). A tracer already there
    (coverage's) is put back afterwards, else it would be off for the rest of the session."""
    import sys

    count = [0]

    def local(frame, event, arg):
        if event == "line":
            count[0] += 1
            if count[0] == k:
                raise KeyboardInterrupt
        return local

    def tracer(frame, event, arg):
        return local if traced(frame.f_code.co_filename) else None

    previous = sys.gettrace()
    sys.settrace(tracer)
    try:
        call()
    finally:
        sys.settrace(previous)
    return count[0]
