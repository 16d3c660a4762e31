"""Distances on a CUDA device (private): DTW through ``_device/dtw.cu``, the Euclidean and
L1 distances as array code."""

from __future__ import annotations

import numpy as np

from .._device import Device

#: the metrics with a device form
DEVICE_METRICS = ("dtw", "euclidean", "cityblock")


def check_device_metric(metric) -> None:
    """Refuse a metric without a device form, naming those that have one."""
    if callable(metric) or metric not in DEVICE_METRICS:
        shown = getattr(metric, "__name__", metric)
        raise ValueError(f"metric={shown!r} has no GPU form; device='cuda' computes "
                         f"{list(DEVICE_METRICS)} (or use device='cpu').")


def device_distances(device: Device, metric: str, params: dict, rows, landmarks):
    """``d(rows, landmarks)`` on ``device`` (float64, shape (len(rows), len(landmarks)));
    ``params`` checked already (``window``: None or a number in [0, 1])."""
    from .._device._blocks import _l1
    from ._objects import as_series, as_vectors

    check_device_metric(metric)
    if metric == "dtw":
        from .._device._dtw import dtw_block

        A, B = as_series(rows, "X"), as_series(landmarks, "landmarks")
        if A.n_channels != B.n_channels:
            raise ValueError(f"X has {A.n_channels} channels and the landmarks "
                             f"{B.n_channels}; DTW compares series with the same channels.")
        # the band was checked with the metric's parameters (pairwise_distances, Objects)
        window = params.get("window")
        return dtw_block(device, A, B, -1.0 if window is None else float(window))
    xp = device.xp
    A = xp.asarray(as_vectors(rows, "X"))
    B = xp.asarray(as_vectors(landmarks, "landmarks"))
    if metric == "cityblock":
        return _l1(xp, A, B)
    D2 = (A * A).sum(axis=1)[:, None] + (B * B).sum(axis=1)[None, :] - 2.0 * (A @ B.T)
    return xp.sqrt(xp.maximum(D2, 0.0))


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
