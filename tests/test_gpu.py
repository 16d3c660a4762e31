"""The GPU path on a real CUDA device: run where CuPy sees one, reported as skipped (not as
passed) everywhere else. ``tests/test_device.py`` runs the same code without a GPU."""

from __future__ import annotations

import numpy as np
import pytest
from sklearn.datasets import make_classification

import indefsvm as isvm


def _device_or_skip():
    cupy = pytest.importorskip("cupy", reason="CuPy is not installed: no GPU test can run")
    try:
        count = cupy.cuda.runtime.getDeviceCount()
    except Exception as exc:  # no driver
        pytest.skip(f"CUDA cannot be used here: {exc}")
    if count == 0:
        pytest.skip("CUDA sees no GPU")
    return cupy


@pytest.fixture(scope="module")
def cupy():
    return _device_or_skip()


@pytest.mark.parametrize("window", [None, 0.1])
def test_dtw_on_gpu_equals_cpu(cupy, window):
    rng = np.random.default_rng(0)
    X = [rng.standard_normal((2, int(rng.integers(20, 140)))) for _ in range(60)]
    Y = [rng.standard_normal((2, int(rng.integers(20, 140)))) for _ in range(25)]
    ref = isvm.pairwise_distances(X, Y, metric="dtw", window=window)
    got = isvm.pairwise_distances(X, Y, metric="dtw", window=window, device="cuda")
    np.testing.assert_allclose(got, ref, rtol=1e-5, atol=0)
    S, _ = isvm.datasets.make_cbf(200, length=128, random_state=0)
    np.testing.assert_allclose(isvm.pairwise_distances(S, metric="dtw", window=window,
                                                       device="cuda"),
                               isvm.pairwise_distances(S, metric="dtw", window=window),
                               rtol=1e-5, atol=0)


def test_both_dtw_kernels_on_gpu(cupy):
    # unequal lengths with a narrow band: the shared-memory kernel (band of at most 41
    # cells) and the row kernel, against the CPU's DTW
    from indefsvm._device import resolve_device
    from indefsvm._device._dtw import choose_kernel, dtw_block
    from indefsvm.distances._objects import as_series

    rng = np.random.default_rng(3)
    X = [rng.standard_normal(int(rng.integers(100, 129))) for _ in range(70)]
    Y = [rng.standard_normal(int(rng.integers(100, 129))) for _ in range(33)]
    ref = isvm.pairwise_distances(X, Y, metric="dtw", window=0.05)
    A, B = as_series(X), as_series(Y)
    assert choose_kernel(A, B, 0.05)[0] == "band"
    dev = resolve_device("cuda")
    for kernel in ("band", "row"):
        got = dtw_block(dev, A, B, 0.05, kernel=kernel).get()
        np.testing.assert_allclose(got, ref, rtol=1e-12, atol=0)


@pytest.mark.parametrize("kernel,params", [("rbf", {"gamma": 0.3}),
                                           ("sigmoid", {"gamma": 0.1, "coef0": -0.5}),
                                           ("polynomial", {"gamma": 0.2, "coef0": 1.0,
                                                           "degree": 3})])
def test_fused_kernel_tails_on_gpu(cupy, kernel, params):
    from indefsvm._device import _blocks

    X = np.random.default_rng(4).standard_normal((500, 9))
    fused = _blocks.kernel_block(cupy, kernel, cupy.asarray(X), cupy.asarray(X[:77]), params)
    assert _blocks.FUSED
    np.testing.assert_allclose(fused.get(), isvm.kernel_matrix(X, X[:77], kernel=kernel,
                                                               **params),
                               rtol=1e-10, atol=1e-12)


def test_kernel_matrix_cupy_in_cupy_out(cupy):
    X = np.random.default_rng(1).standard_normal((300, 7))
    K = isvm.kernel_matrix(cupy.asarray(X), kernel="sigmoid", gamma=0.1, coef0=-0.5)
    assert isinstance(K, cupy.ndarray)
    np.testing.assert_allclose(K.get(), isvm.kernel_matrix(X, kernel="sigmoid", gamma=0.1,
                                                           coef0=-0.5), rtol=1e-10,
                               atol=1e-12)


def test_nystroem_svc_on_gpu(cupy):
    X, y = make_classification(20_000, 20, n_informative=10, flip_y=0.05, random_state=0)
    cpu = isvm.NystroemSVC(n_components=300, random_state=0).fit(X, y)
    gpu = isvm.NystroemSVC(n_components=300, random_state=0, device="cuda").fit(X, y)
    assert gpu.converged_ and gpu.kkt_gap_[0] <= 1e-3
    assert np.mean(cpu.predict(X) == gpu.predict(X)) >= 0.995
    dec = gpu.decision_function(cupy.asarray(X))
    assert isinstance(dec, cupy.ndarray)
    np.testing.assert_allclose(dec.get(), gpu.set_params(device="cpu").decision_function(X),
                               rtol=1e-6, atol=1e-6)


def test_nystroem_svc_dtw_on_gpu(cupy):
    S, lab = isvm.datasets.make_cbf(3000, length=128, random_state=0)
    kw = dict(metric="dtw", metric_params={"window": 0.1}, n_components=100, random_state=0)
    cpu = isvm.NystroemSVC(**kw).fit(S, lab)
    gpu = isvm.NystroemSVC(**kw, device="cuda").fit(S, lab)
    assert np.mean(cpu.predict(S) == gpu.predict(S)) >= 0.995


def test_matrix_free_check_on_gpu(cupy):
    X, y = make_classification(6000, 10, random_state=0)
    kw = dict(kernel="sigmoid", gamma=0.05, coef0=-1.0, method="slq", random_state=0)
    a = isvm.check_kernel(X=X, y=y, **kw).to_dict()
    b = isvm.check_kernel(X=X, y=y, device="cuda", **kw).to_dict()
    assert a["eta"]["n_negative"] == b["eta"]["n_negative"]
    assert (a["signature"]["p"], a["signature"]["q"]) == (b["signature"]["p"],
                                                          b["signature"]["q"])
    np.testing.assert_allclose(b["lam_min"], a["lam_min"], rtol=1e-8)
