"""Distances on a CUDA device (private): DTW through ``_device/dtw.cu``, the Euclidean and
L1 distances as array code."""

from __future__ import annotations

import numpy as np

from .._device import Device
from .._metrics import device_metrics, get, resolve


def check_device_metric(metric) -> None:
    """Refuse a metric without a device form, naming those that have one."""
    if callable(metric) or metric not in device_metrics():
        shown = getattr(metric, "__name__", metric)
        raise ValueError(f"metric={shown!r} has no GPU form; device='cuda' computes "
                         f"{list(device_metrics())} (or use device='cpu').")


def device_distances(device: Device, metric: str, params: dict, rows, landmarks):
    """``d(rows, landmarks)`` on ``device`` (float64, shape (len(rows), len(landmarks)));
    ``params`` checked already (``window``: None or a number in [0, 1])."""
    check_device_metric(metric)
    return resolve(get(metric).device)(device, metric, params, rows, landmarks)


def dtw_distances(device: Device, metric: str, params: dict, rows, landmarks,
                  progress=None):
    """DTW's device form (``_device/dtw.cu``), one thread a pair."""
    from .._device._dtw import dtw_block
    from ._objects import as_series

    A, B = as_series(rows, "X"), as_series(landmarks, "Y")
    if A.n_channels != B.n_channels:
        raise ValueError(f"X has {A.n_channels} channels and Y has {B.n_channels}; DTW "
                         "compares series with the same channels.")
    # the band was checked with the metric's parameters (pairwise_distances, Objects)
    window = params.get("window")
    return dtw_block(device, A, B, -1.0 if window is None else float(window),
                     progress=progress)


def _vectors_on(device: Device, metric: str, rows, landmarks):
    from ._objects import as_vectors, same_width

    A0, B0 = as_vectors(rows, "X"), as_vectors(landmarks, "Y")
    same_width(A0, B0, metric)
    return A0, B0, device.xp.asarray(A0), device.xp.asarray(B0)


def euclidean_distances(device: Device, metric: str, params: dict, rows, landmarks,
                        progress=None):
    """The Euclidean distance as array code on the device."""
    from ._objects import check_finite_distances

    A0, B0, A, B = _vectors_on(device, metric, rows, landmarks)
    xp = device.xp
    D2 = (A * A).sum(axis=1)[:, None] + (B * B).sum(axis=1)[None, :] - 2.0 * (A @ B.T)
    out = xp.sqrt(xp.maximum(D2, 0.0))
    check_finite_distances(out, metric, A0, B0)
    return out


def cityblock_distances(device: Device, metric: str, params: dict, rows, landmarks,
                        progress=None):
    """The L1 distance as array code on the device."""
    from .._device._blocks import _l1
    from ._objects import check_finite_distances

    A0, B0, A, B = _vectors_on(device, metric, rows, landmarks)
    out = _l1(device.xp, A, B)
    check_finite_distances(out, metric, A0, B0)
    return out


def object_blocks(X, m: int):
    """(lo, hi, rows) of about 2^20 distances each (a device launch's worth)."""
    n = len(X)
    step = max(16, 2**20 // max(m, 1))
    for lo in range(0, n, step):
        hi = min(n, lo + step)
        yield lo, hi, X.take(np.arange(lo, hi))


def random_feature_blocks(rdf, X, device: Device, dtype):
    """(lo, hi, Phi of rows lo:hi on the device) for fitted RandomDistanceFeatures."""
    check_device_metric(rdf.metric)
    for lo, hi, rows in object_blocks(X, rdf.n_components_):
        D = device_distances(device, rdf.metric, X.params, rows, rdf.random_objects_)
        yield lo, hi, (device.xp.exp(-rdf.gamma_ * D) * rdf.scale_).astype(dtype)


def device_features(blocks, n: int, cols: int, device: Device, dtype):
    """The blocks gathered into one ``(n, cols)`` device array."""
    out = device.xp.empty((n, cols), dtype=dtype)
    for lo, hi, F in blocks:
        out[lo:hi] = F
    return out
