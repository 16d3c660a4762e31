"""The GPU path without a GPU: the device code on NumPy, the CUDA source built as C.

``indefsvm._device._EMULATE`` makes ``device="cuda"`` run the very functions the GPU runs
with NumPy as their array namespace, and the DTW kernel's CUDA source (``dtw.cu``) through
its C build (``_device/_shim.py``), one thread after the other. Each result is held to the
CPU path's (the compiled DTW, the kernels, the dual coordinate descent, the matrix-free
operator). ``tests/test_gpu.py`` runs the same on a real device where there is one.
"""

from __future__ import annotations

import importlib.util
import os
import re
import signal
import sys
import threading
import time

import numpy as np
import pytest
from sklearn.datasets import make_classification
from sklearn.utils._param_validation import InvalidParameterError

import indefsvm as isvm
from indefsvm import _device
from indefsvm._device import DeviceError, resolve_device
from indefsvm._device import _dtw as dtw_mod
from indefsvm._solvers._linsvm import kkt_gap
from indefsvm.distances import RandomDistanceFeatures
from indefsvm.solvers import linear_svc
from indefsvm.solvers._linear_device import linear_svc_device


@pytest.fixture
def emulated(monkeypatch):
    monkeypatch.setattr(_device, "_EMULATE", True)
    return resolve_device("cuda")


def _series(rng, n, d, lo=1, hi=30):
    return [rng.standard_normal((d, int(rng.integers(lo, hi)))) for _ in range(n)]


# -- DTW: the CUDA source against the compiled CPU DTW -------------------------------------


@pytest.mark.parametrize("d", [1, 3])
@pytest.mark.parametrize("window", [None, 0.0, 0.1, 0.5, 1.0])
def test_dtw_source_equals_cpu_unequal_lengths(emulated, d, window):
    rng = np.random.default_rng(d)
    X, Y = _series(rng, 11, d), _series(rng, 6, d)
    ref = isvm.pairwise_distances(X, Y, metric="dtw", window=window)
    got = isvm.pairwise_distances(X, Y, metric="dtw", window=window, device="cuda")
    np.testing.assert_allclose(got, ref, rtol=1e-12, atol=0)


def test_dtw_source_equals_cpu_equal_lengths_self(emulated, monkeypatch):
    # several launches (7 pairs each): the buffer's stride and the pair offsets
    monkeypatch.setattr(dtw_mod, "LAUNCH_PAIRS", 7)
    S, _ = isvm.datasets.make_cbf(15, length=40, random_state=0)
    ref = isvm.pairwise_distances(S, metric="dtw", window=0.1)
    got = isvm.pairwise_distances(S, metric="dtw", window=0.1, device="cuda")
    np.testing.assert_allclose(got, ref, rtol=1e-12, atol=0)
    assert np.array_equal(got, got.T) and np.all(np.diag(got) == 0)


@pytest.mark.parametrize("kernel", ["band", "row"])
@pytest.mark.parametrize("d", [1, 2])
@pytest.mark.parametrize("window", [None, 0.0, 0.05, 0.2])
def test_both_dtw_kernels_equal_cpu(emulated, kernel, d, window):
    # the band kernel's slots wrap around many times on series of 40-90 points; a pair
    # whose band were wider than the launch's width would come back as -1
    from indefsvm.distances._objects import as_series

    rng = np.random.default_rng(7)
    X, Y = _series(rng, 9, d, 40, 90), _series(rng, 5, d, 40, 90)
    ref = isvm.pairwise_distances(X, Y, metric="dtw", window=window)
    got = dtw_mod.dtw_block(emulated, as_series(X), as_series(Y),
                            -1.0 if window is None else window, kernel=kernel)
    assert np.array_equal(got, ref)


def test_dtw_kernel_choice_follows_the_band():
    from indefsvm.distances._objects import as_series

    S, _ = isvm.datasets.make_cbf(4, length=128, random_state=0)
    A = as_series(S)
    # a 10 % window on length 128: r = 12, 25 cells a thread, 128 threads of 200 bytes
    assert dtw_mod.choose_kernel(A, A, 0.1) == ("band", 128, 25)
    assert dtw_mod.choose_kernel(A, A, -1.0) == ("row", dtw_mod.BLOCK, 0)
    # 48 KB / 408 bytes: 120 threads, 96 in whole warps
    assert dtw_mod.choose_kernel(A, A, 0.2) == ("band", 96, 51)
    uneven = as_series([np.zeros(128), np.zeros(100)])
    assert dtw_mod.band_width(uneven, uneven, 0.1) == 2 * 12 + 28 + 1


@pytest.mark.parametrize("metric", ["euclidean", "cityblock"])
def test_vector_metrics_on_device(emulated, metric):
    X = np.random.default_rng(0).standard_normal((9, 4))
    np.testing.assert_allclose(
        isvm.pairwise_distances(X, X[:3], metric=metric, device="cuda"),
        isvm.pairwise_distances(X, X[:3], metric=metric), rtol=1e-12, atol=1e-12)


def test_metric_without_device_form_refused(emulated):
    with pytest.raises(ValueError, match="levenshtein.*no GPU form.*device='cpu'"):
        isvm.pairwise_distances(["ab", "b"], metric="levenshtein", device="cuda")


def test_ctrl_c_seen_between_launches(emulated, monkeypatch):
    monkeypatch.setattr(dtw_mod, "LAUNCH_PAIRS", 64)
    S, _ = isvm.datasets.make_cbf(600, length=128, random_state=0)
    timer = threading.Timer(0.3, os.kill, (os.getpid(), signal.SIGINT))
    t0 = time.perf_counter()
    timer.start()
    with pytest.raises(KeyboardInterrupt):
        isvm.pairwise_distances(S, metric="dtw", device="cuda")  # ~10 s uninterrupted
    timer.cancel()
    assert time.perf_counter() - t0 < 3.0


# -- kernels and features -------------------------------------------------------------------


@pytest.mark.parametrize("kernel,params", [
    ("linear", {}), ("rbf", {"gamma": 0.3}), ("sigmoid", {"gamma": 0.2, "coef0": -0.5}),
    ("polynomial", {"gamma": 0.5, "coef0": 1.0, "degree": 2}), ("polynomial", {}),
    ("l1_gaussian", {"gamma": 0.1}), ("sqrt_l1_exponential", {"sigma": 2.0})])
def test_kernel_matrix_on_device(emulated, kernel, params):
    X = np.random.default_rng(1).standard_normal((30, 5))
    np.testing.assert_allclose(isvm.kernel_matrix(X, X[:7], kernel=kernel, device="cuda",
                                                  **params),
                               isvm.kernel_matrix(X, X[:7], kernel=kernel, **params),
                               rtol=1e-12, atol=1e-13)


def test_kernel_without_device_form_refused(emulated):
    X = np.abs(np.random.default_rng(1).standard_normal((5, 3))) + 0.1
    with pytest.raises(ValueError, match="symmetric_kl.*no GPU form"):
        isvm.kernel_matrix(X, kernel="symmetric_kl", device="cuda")


@pytest.mark.parametrize("kw", [dict(kernel="rbf"), dict(kernel="sigmoid", gamma=0.05,
                                                         coef0=-0.5)])
def test_nystroem_features_on_device(emulated, kw):
    X, _ = make_classification(400, 6, random_state=0)
    ny = isvm.KreinNystroem(n_components=60, random_state=0, **kw).fit(X)
    ref = ny.transform(X)
    got = ny.set_params(device="cuda").transform(X)
    assert isinstance(got, np.ndarray)
    np.testing.assert_allclose(got, ref, rtol=1e-9, atol=1e-10)


def test_distance_features_on_device(emulated):
    S, _ = isvm.datasets.make_cbf(120, length=48, random_state=0)
    ny = isvm.KreinNystroem(metric="dtw", metric_params={"window": 0.1}, n_components=20,
                            random_state=0).fit(S)
    np.testing.assert_allclose(ny.set_params(device="cuda").transform(S),
                               ny.set_params(device="cpu").transform(S), rtol=1e-9,
                               atol=1e-10)
    rdf = RandomDistanceFeatures(n_components=8, random_state=0).fit(S)
    np.testing.assert_allclose(rdf.set_params(device="cuda").transform(S),
                               rdf.set_params(device="cpu").transform(S), rtol=1e-12)


# -- the linear SVM's decomposition against the dual coordinate descent --------------------


def _features(n, seed=0):
    X, y = make_classification(n, 10, n_informative=6, flip_y=0.05, random_state=seed)
    Z = isvm.KreinNystroem(n_components=80, gamma=0.1, random_state=0).fit(X).transform(X)
    return Z.astype(np.float32), np.where(y == 1, 1.0, -1.0)


@pytest.mark.parametrize("C,warm,scaled", [(1.0, True, False), (1.0, False, False),
                                           (20.0, True, False), (1.0, True, True),
                                           (20.0, True, True)])
def test_decomposition_solves_the_same_problem(emulated, monkeypatch, C, warm, scaled):
    from indefsvm.solvers import _linear_device

    # scaled: the warm start's L-BFGS on the diagonally rescaled problem (the default)
    monkeypatch.setattr(_linear_device, "PRECONDITION", scaled)
    Z, y = _features(3000)
    ref = linear_svc(Z, y, C, tol=1e-3, random_state=0)
    got = linear_svc_device(Z, y, C, device=emulated, tol=1e-3, working_set=256, warm=warm)
    assert got.converged and ref.converged
    a = got.alpha
    # the box and the equality constraint hold; w is Z'(a o y)
    assert np.all(a >= 0) and np.all(a <= C)
    assert abs(y @ a) <= 1e-9 * C * len(y)
    w = Z.astype(np.float64).T @ (a * y)
    np.testing.assert_allclose(got.extra["w"], w, rtol=1e-6, atol=1e-8)
    # LIBSVM's stopping rule, recomputed here in float64 from a
    gap, _ = kkt_gap(Z.astype(np.float64) @ w, y, a, np.full(len(y), C))
    assert gap <= 1.01e-3
    # the same optimum: both objectives within tol of each other (per unit of C n)
    obj = 0.5 * w @ w - a.sum()
    assert abs(obj - ref.objective) <= 1e-3 * max(1.0, abs(ref.objective)) * 1e-2
    dec_r = Z @ ref.extra["w"] + ref.b
    dec_g = Z @ got.extra["w"] + got.b
    assert np.mean(np.sign(dec_r) == np.sign(dec_g)) >= 0.995


def test_warm_start_gradient_sums_blocks_in_float64():
    """The warm start's Z'v: float32 products of blocks of rows added in float64, every row
    counted once (a last partial block too), as accurate as the float64 product to float32
    rounding of a block -- not of all n rows."""
    from indefsvm.solvers._linear_device import _transposed_product

    rng = np.random.default_rng(0)
    Z = rng.normal(size=(2 * 1000 + 37, 6)).astype(np.float32)
    v = rng.normal(size=Z.shape[0])
    exact = Z.astype(np.float64).T @ v.astype(np.float32).astype(np.float64)
    for block in (1, 1000, 4096):
        got = _transposed_product(np, Z, v, rows_per_block=block)
        assert got.dtype == np.float64
        np.testing.assert_allclose(got, exact, rtol=1e-5, atol=1e-4)
    # each row once: a column of ones sums the (float32) entries of v
    ones = np.ones((Z.shape[0], 1), dtype=np.float32)
    got = _transposed_product(np, ones, np.ones(Z.shape[0]), rows_per_block=1000)
    assert got[0] == Z.shape[0]


def test_rescaled_warm_start_is_a_nearer_start(monkeypatch):
    """The diagonal rescaling changes L-BFGS's path, not the problem: from the rescaled
    start the decomposition needs no more steps than from the plain one (20 against 4 when
    this was written, 20 000 rows, C = 10), and both starts are feasible."""
    from indefsvm.solvers import _linear_device as dev

    X, y = make_classification(20000, 10, n_informative=6, flip_y=0.05, random_state=2)
    Z = isvm.KreinNystroem(n_components=200, random_state=0).fit(X).transform(X)
    Z, y = Z.astype(np.float32), np.where(y == 1, 1.0, -1.0)
    steps = {}
    for scaled in (False, True):
        monkeypatch.setattr(dev, "PRECONDITION", scaled)
        a0 = dev.warm_start(np, Z, y, np.full(len(y), 10.0))
        assert abs(y @ a0) <= 1e-8 * len(y) and a0.min() >= 0 and a0.max() <= 10.0
        res = dev.linear_svc_device(Z, y, 10.0, device=_device.Device("cuda", np, True),
                                    alpha0=a0, working_set=256, max_iter=500)
        assert res.converged
        steps[scaled] = res.n_iter
    assert steps[True] <= steps[False], steps


def test_default_warm_start_is_rescaled_on_every_row(monkeypatch):
    """By default the warm start's three widths run on every row, on the diagonally
    rescaled problem, for PRECONDITIONED_ITERATIONS (measured on an H200: 3 steps after it
    at 10^6 rows against 97 after the plain L-BFGS); explicit iterations are kept."""
    from indefsvm.solvers import _linear_device as dev

    Z, y = _features(2500)
    calls = []
    minimise = dev._minimise

    def spy(xp, Zs, yd, Cd, v, deltas, max_iter, *, rescaled):
        calls.append((Zs.shape[0], tuple(deltas), tuple(np.atleast_1d(max_iter)), rescaled))
        return minimise(xp, Zs, yd, Cd, v, deltas, max_iter, rescaled=rescaled)

    monkeypatch.setattr(dev, "_minimise", spy)
    a0 = dev.warm_start(np, Z, y, np.full(len(y), 1.0))
    assert calls == [(2500, dev.WARM_DELTAS, dev.PRECONDITIONED_ITERATIONS, True)]
    assert abs(y @ a0) <= 1e-8 * len(y) and a0.min() >= 0 and a0.max() <= 1.0
    calls.clear()
    dev.warm_start(np, Z, y, np.full(len(y), 1.0), max_iter=(7, 8, 9))
    assert calls == [(2500, dev.WARM_DELTAS, (7, 8, 9), True)]


def test_large_warm_start_takes_its_widths_on_a_subsample(monkeypatch):
    """From SUBSAMPLE_ROWS rows (when set) the warm start's widths run on a tenth of the rows, whose
    bounds are scaled by the share, and only the last width on every row, at most
    2 * FINAL_ITERATIONS evaluations there; the start is feasible and the decomposition
    from it reaches the coordinate descent's optimum."""
    from indefsvm.solvers import _linear_device as dev

    X, y = make_classification(20000, 10, n_informative=6, flip_y=0.05, random_state=3)
    Z = isvm.KreinNystroem(n_components=120, random_state=0).fit(X).transform(X)
    Z, y = Z.astype(np.float32), np.where(y == 1, 1.0, -1.0)
    monkeypatch.setattr(dev, "SUBSAMPLE_ROWS", 10000)
    stages, rows = [], []
    minimise, product = dev._minimise, dev._transposed_product

    def spy_minimise(xp, Zs, yd, Cd, v, deltas, max_iter, *, rescaled):
        stages.append((Zs.shape[0], float(Cd.max()), tuple(deltas), rescaled))
        return minimise(xp, Zs, yd, Cd, v, deltas, max_iter, rescaled=rescaled)

    def spy_product(xp, Zs, v, **kw):
        rows.append(Zs.shape[0])
        return product(xp, Zs, v, **kw)

    monkeypatch.setattr(dev, "_minimise", spy_minimise)
    monkeypatch.setattr(dev, "_transposed_product", spy_product)
    a0 = dev.warm_start(np, Z, y, np.full(len(y), 2.0))
    assert stages == [(2000, 20.0, dev.WARM_DELTAS, True),
                      (20000, 2.0, dev.WARM_DELTAS[-1:], True)]
    # (L-BFGS-B checks its cap on evaluations between iterations: a line search may pass it)
    assert 0 < rows.count(20000) <= 2 * dev.FINAL_ITERATIONS + 20
    assert rows.count(2000) > rows.count(20000)
    assert abs(y @ a0) <= 1e-8 * len(y) and a0.min() >= 0 and a0.max() <= 2.0
    monkeypatch.setattr(dev, "_transposed_product", product)
    ref = linear_svc(Z, y, 2.0, tol=1e-3, random_state=0)
    got = dev.linear_svc_device(Z, y, 2.0, device=_device.Device("cuda", np, True),
                                alpha0=a0, working_set=256, max_iter=500)
    assert got.converged
    assert abs(got.objective - ref.objective) <= 1e-5 * abs(ref.objective)


def test_decomposition_starts_from_a_primal_point(monkeypatch):
    """primal0 = (w, b) of an unfinished coordinate descent (its y'alpha not yet 0): the
    start read off it is feasible, and the decomposition from it reaches the converged
    coordinate descent's optimum."""
    from indefsvm.solvers import _linear_device as dev

    Z, y = _features(3000)
    C = 20.0
    rough = linear_svc(Z, y, C, tol=1e-3, max_iter=3, random_state=0)
    assert not rough.converged
    starts = []
    feasible = dev.feasible_start

    def spy(xp, Zs, yd, Cd, v, delta):
        a = feasible(xp, Zs, yd, Cd, v, delta)
        starts.append((v, delta, a.copy()))
        return a

    monkeypatch.setattr(dev, "feasible_start", spy)
    got = dev.linear_svc_device(Z, y, C, device=_device.Device("cpu", np), working_set=256,
                                primal0=(rough.extra["w"], rough.b), max_iter=500)
    (v, delta, a0), = starts
    np.testing.assert_array_equal(v, np.r_[rough.extra["w"], rough.b])
    assert delta == dev.WARM_DELTAS[-1]
    assert abs(y @ a0) <= 1e-8 * len(y) and a0.min() >= 0 and a0.max() <= C
    ref = linear_svc(Z, y, C, tol=1e-3, random_state=0)
    assert got.converged and ref.converged
    assert abs(got.objective - ref.objective) <= 1e-5 * abs(ref.objective)


def test_decomposition_budget_is_honest(emulated):
    Z, y = _features(2000)
    res = linear_svc_device(Z, y, 50.0, device=emulated, working_set=64, max_iter=2,
                            warm=False)
    assert not res.converged and res.n_iter == 2 and res.kkt_gap > 1e-3


def test_nystroem_svc_on_device_same_model(emulated):
    X, y = make_classification(3000, 10, n_informative=6, flip_y=0.05, random_state=0)
    y3 = np.arange(3000) % 3
    for labels in (y, y3):
        cpu = isvm.NystroemSVC(n_components=80, random_state=0).fit(X, labels)
        gpu = isvm.NystroemSVC(n_components=80, random_state=0, device="cuda").fit(X,
                                                                                  labels)
        assert gpu.converged_
        assert np.mean(cpu.predict(X) == gpu.predict(X)) >= 0.99
        # the same landmarks and features: fit's CPU part is shared
        np.testing.assert_array_equal(cpu.nystroem_.component_indices_,
                                      gpu.nystroem_.component_indices_)
        # fitted on the device, predicted on the CPU: the same decisions
        on_dev = gpu.decision_function(X)
        on_cpu = gpu.set_params(device="cpu").decision_function(X)
        np.testing.assert_allclose(on_cpu, on_dev, rtol=1e-9, atol=1e-9)


def test_nystroem_svc_on_device_solves_by_the_decomposition(emulated, caplog):
    # more rows than a working set: the warm start's continuation, then the decomposition;
    # its solution meets LIBSVM's stopping rule on the CPU's float64 features and is the
    # coordinate descent's model within tol
    X, y = make_classification(5000, 10, n_informative=6, flip_y=0.05, random_state=1)
    cpu = isvm.NystroemSVC(n_components=60, random_state=0).fit(X, y)
    with caplog.at_level("INFO", logger="indefsvm"):
        gpu = isvm.NystroemSVC(n_components=60, random_state=0, device="cuda",
                               verbose=True).fit(X, y)
    assert gpu.converged_ and gpu.kkt_gap_[0] <= 1e-3
    assert "coordinate descent on the host goes on" not in caplog.text
    assert "converged after" in caplog.text and "decomposition steps on the device" in \
        caplog.text
    Z = gpu.nystroem_.transform(X)
    a = np.zeros(len(y))
    a[gpu._rows[0]] = gpu._alphas[0]
    ypm = np.where(y == gpu.classes_[gpu._pairs[0][2]], 1.0, -1.0)
    gap, _ = kkt_gap(Z @ gpu.coef_[0], ypm, a, np.ones(len(y)))
    assert gap <= 1.05e-3
    assert np.mean(cpu.predict(X) == gpu.predict(X)) >= 0.995
    np.testing.assert_allclose(gpu.decision_function(X), cpu.decision_function(X),
                               atol=0.05)


def test_nystroem_svc_on_device_hands_an_unsolved_problem_to_the_cpu(emulated, monkeypatch,
                                                                      caplog):
    from indefsvm.nystroem import _svc
    from indefsvm.solvers import _linear_device

    monkeypatch.setattr(_svc, "DEVICE_STEPS", 1)
    X, y = make_classification(3000, 10, n_informative=6, flip_y=0.05, random_state=1)
    kw = dict(n_components=60, C=100.0, random_state=0)
    cpu = isvm.NystroemSVC(**kw).fit(X, y)
    # the decomposition's result and the coordinate descent's start, seen from both sides
    seen = {}
    device_solve, host_solve = _linear_device.linear_svc_device, _svc.linear_svc

    def on_device(*args, **kw):
        seen["device"] = device_solve(*args, **kw)
        return seen["device"]

    def on_host(*args, **kw):
        seen["start"] = (kw.get("alpha0"), kw.get("b0"))
        return host_solve(*args, **kw)

    monkeypatch.setattr(_linear_device, "linear_svc_device", on_device)
    monkeypatch.setattr(_svc, "linear_svc", on_host)
    with caplog.at_level("INFO", logger="indefsvm"):
        gpu = isvm.NystroemSVC(**kw, device="cuda", verbose=True).fit(X, y)
    assert "the device's decomposition stopped after 1 steps" in caplog.text
    assert "coordinate descent on the host goes on from its multipliers" in caplog.text
    # the coordinate descent goes on from the decomposition's multipliers and intercept
    assert not seen["device"].converged and seen["device"].n_iter == 1
    np.testing.assert_array_equal(seen["start"][0], seen["device"].alpha)
    assert seen["start"][1] == seen["device"].b
    # ... to the CPU's model within tol
    assert gpu.converged_ and gpu.kkt_gap_[0] <= 1e-3
    assert np.mean(cpu.predict(X) == gpu.predict(X)) >= 0.995


def test_nystroem_svc_on_device_says_too_big_before_the_work(emulated, monkeypatch):
    monkeypatch.setattr(type(emulated), "memory_free", lambda self: (2**20, 2**30))
    X, y = make_classification(500, 6, random_state=0)
    with pytest.raises(MemoryError, match=r"the 500 x \d+ float32 features and the linear "
                                          r"SVM's work need about [\d.]+ GiB of the GPU's "
                                          r"memory, and it has 0.0 GiB free of 1.0 GiB\. Use "
                                          r"fewer landmarks"):
        isvm.NystroemSVC(n_components=40, random_state=0, device="cuda").fit(X, y)
    # the estimate holds the warm start's copy of a tenth of the rows where it is made
    from indefsvm.nystroem import _svc
    from indefsvm.solvers import _linear_device

    needs = []

    def spy(device, need, what):
        needs.append(need)
        raise MemoryError("enough")

    monkeypatch.setattr(_svc, "check_device_memory", spy)
    for rows_from in (None, 500):
        monkeypatch.setattr(_linear_device, "SUBSAMPLE_ROWS", rows_from)
        with pytest.raises(MemoryError, match="enough"):
            isvm.NystroemSVC(n_components=40, random_state=0, device="cuda").fit(X, y)
    cols = (needs[0] - 64 * 500) // (500 * 4)
    assert needs[1] - needs[0] == 50 * cols * 4


def test_nystroem_svc_dtw_on_device(emulated):
    S, lab = isvm.datasets.make_cbf(300, length=48, random_state=0)
    kw = dict(metric="dtw", metric_params={"window": 0.1}, n_components=30, random_state=0)
    for feats in ("nystroem", "d2ke"):
        cpu = isvm.NystroemSVC(**kw, features=feats).fit(S, lab)
        gpu = isvm.NystroemSVC(**kw, features=feats, device="cuda").fit(S, lab)
        assert np.mean(cpu.predict(S) == gpu.predict(S)) >= 0.99


def test_gpu_fitted_model_saves_and_loads(emulated, tmp_path):
    import skops.io as sio

    X, y = make_classification(500, 6, random_state=0)
    clf = isvm.NystroemSVC(n_components=40, random_state=0, device="cuda").fit(X, y)
    path = tmp_path / "m.skops"
    sio.dump(clf, path)
    back = sio.load(path, trusted=sio.get_untrusted_types(file=path))
    np.testing.assert_array_equal(back.set_params(device="cpu").predict(X),
                                  clf.predict(X))


# -- the matrix-free check ------------------------------------------------------------------


@pytest.mark.parametrize("kernel,params", [("sigmoid", {"gamma": 0.05, "coef0": -1.0}),
                                           ("polynomial", {"degree": 2, "coef0": -1.0})])
def test_matrix_free_check_on_device(emulated, kernel, params):
    X, y = make_classification(900, 8, random_state=0)
    a = isvm.check_kernel(X=X, y=y, kernel=kernel, method="slq", random_state=0, **params)
    b = isvm.check_kernel(X=X, y=y, kernel=kernel, method="slq", random_state=0,
                          device="cuda", **params)
    da, db = a.to_dict(), b.to_dict()
    assert a.verdict == b.verdict
    assert da["eta"]["n_negative"] == db["eta"]["n_negative"]
    assert da["eta"]["n_cross_nonpositive"] == db["eta"]["n_cross_nonpositive"]
    assert da["eta"]["worst_pair"] == db["eta"]["worst_pair"]
    for key in ("p", "q", "z"):
        assert da["signature"][key] == db["signature"][key]
    np.testing.assert_allclose(db["lam_min"], da["lam_min"], rtol=1e-9)
    np.testing.assert_allclose(db["signature"]["negative_mass"],
                               da["signature"]["negative_mass"], rtol=1e-9)


def test_dense_check_on_device_refused(emulated):
    X, _ = make_classification(50, 4, random_state=0)
    with pytest.raises(ValueError, match="matrix-free.*method='slq'"):
        isvm.check_kernel(X=X, kernel="rbf", method="dense", device="cuda")


# -- asking for a device --------------------------------------------------------------------


def test_no_cupy_gives_one_clear_error(monkeypatch):
    monkeypatch.setattr(_device, "_EMULATE", False)
    monkeypatch.setitem(sys.modules, "cupy", None)  # import cupy raises ImportError
    with pytest.raises(DeviceError, match=r'pip install "indefsvm\[gpu\]"'):
        isvm.kernel_matrix(np.eye(3), device="cuda")
    X, y = make_classification(60, 4, random_state=0)
    with pytest.raises(DeviceError, match="device='cpu'"):
        isvm.NystroemSVC(n_components=10, device="cuda").fit(X, y)


def test_device_values_checked():
    X, y = make_classification(60, 4, random_state=0)
    with pytest.raises(InvalidParameterError, match="device"):
        isvm.NystroemSVC(n_components=10, device="gpu").fit(X, y)
    with pytest.raises(ValueError, match="device must be one of"):
        isvm.pairwise_distances(X, metric="euclidean", device="gpu")


def test_device_array_with_cpu_refused():
    fake = type("ndarray", (), {"__module__": "cupy._core.core"})()
    with pytest.raises(ValueError, match="CuPy array.*device='cuda'"):
        resolve_device("cpu", fake)


def test_default_follows_the_input():
    assert resolve_device(None, np.zeros(3)).name == "cpu"


def test_decomposition_emulated_launch_source_is_the_package_file():
    # the C build runs the installed dtw.cu, not a copy
    from importlib import resources

    from indefsvm._device._shim import source

    text = resources.files("indefsvm._device").joinpath("dtw.cu").read_text()
    assert source() == text and "ix_dtw_pairs" in text


@pytest.mark.parametrize("make", [
    lambda: isvm.NystroemSVC(n_components=40, device="cuda", random_state=0),
    lambda: isvm.KreinNystroem(n_components=40, device="cuda", random_state=0),
])
def test_a_model_fitted_on_a_gpu_says_how_to_use_it_without_one(make, monkeypatch):
    import indefsvm._device as device

    X, y = isvm.datasets.load_heart(return_X_y=True)
    monkeypatch.setattr(device, "_EMULATE", True)  # the CUDA path on NumPy
    model = make().fit(X, y)
    monkeypatch.setattr(device, "_EMULATE", False)  # then moved to a machine without CuPy
    apply = model.predict if hasattr(model, "predict") else model.transform
    if importlib.util.find_spec("cupy") is None:
        with pytest.raises(device.DeviceError, match=re.escape(".set_params(device='cpu')")):
            apply(X[:5])
    model.set_params(device="cpu")
    ref = make().set_params(device="cpu").fit(X, y)
    want = ref.predict(X[:5]) if hasattr(ref, "predict") else ref.transform(X[:5])
    np.testing.assert_allclose(apply(X[:5]), want, rtol=1e-5, atol=1e-6)
