"""Features of many rows on a CUDA device (private): the O(n) part of Nystroem and D2KE.

Fit stays on the CPU (``m`` landmarks: their kernel, its eigen-decomposition, the stability
rule), so a model fitted either way is the same NumPy model. What grows with ``n`` -- the
kernel (or the distances) of every row to the landmarks, and its product with the
normalisation -- runs on the device, block by block, in float64 (cast to the asked dtype
at the end): the same features as the CPU's within float64 rounding.
"""

from __future__ import annotations

import numpy as np

from .._device import Device
from .._device._blocks import check_device_kernel, kernel_block
from ..distances._collection import Objects
from ..distances._device import (
    check_device_metric,
    device_distances,
    device_features,
    object_blocks,
    random_feature_blocks,
)

__all__ = ["check_device_memory", "check_device_metric", "device_features",
           "distance_kernel", "nystroem_blocks", "random_feature_blocks"]
from ._blocks import dense_rows

#: device memory of one block's kernel values (rows x landmarks float64)
BLOCK_BYTES = 256 * 2**20


def check_device_memory(device: Device, need: int, what: str) -> None:
    """Refuse, before the work, ``need`` bytes on a device that has fewer free (with three
    blocks' work beside them), naming the figures and what works at that size."""
    mem = device.memory_free()
    if mem is None:
        return
    free, total = mem
    want = need + 3 * BLOCK_BYTES
    if want > free:
        raise MemoryError(
            f"{what} need about {want / 2**30:.1f} GiB of the GPU's memory, and it has "
            f"{free / 2**30:.1f} GiB free of {total / 2**30:.1f} GiB. Use fewer landmarks "
            "(n_components), train on a subsample, or device='cpu' (the features in the "
            "host's memory).")


def distance_kernel(device: Device, dk, D):
    """DistanceKernel ``dk``'s transform of device distances ``D`` (its formulas)."""
    xp = device.xp
    if dk.kind == "rbf":
        return xp.exp(-dk.gamma_ * D * D)
    if dk.kind == "laplacian":
        return xp.exp(-dk.gamma_ * D)
    if dk.kind == "tl1":
        return xp.maximum(1.0 - dk.gamma_ * D, 0.0)
    D2 = D * D
    if dk.sq_mean_ is not None:
        row_sq = D2.mean(axis=1, keepdims=True) - 0.5 * dk.sq_mean_
    else:
        row_sq = D2[:, [dk.origin]]
    lin = 0.5 * (row_sq + xp.asarray(dk.origin_sq_)[None, :] - D2)
    if dk.kind == "linear":
        return lin
    K = (dk.coef0 + dk.gamma_ * lin) ** dk.degree
    if not bool(xp.isfinite(K).all()):
        raise ValueError(f"the polynomial distance kernel (degree={dk.degree}, gamma="
                         f"{dk.gamma_:.4g}) overflows on these distances; lower gamma or "
                         "the degree.")
    return K


def nystroem_blocks(ny, X, device: Device, dtype, columns=None):
    """(lo, hi, Phi of rows lo:hi on the device) for a fitted KreinNystroem ``ny`` and rows
    ``X`` checked by its ``_check_rows`` (or a device array of vectors)."""
    xp = device.xp
    Nh = ny.normalization_ if columns is None else ny.normalization_[:, :columns]
    N = xp.asarray(np.ascontiguousarray(Nh))
    m = Nh.shape[0]
    if isinstance(X, Objects):
        check_device_metric(ny.metric)
        for lo, hi, rows in object_blocks(X, m):
            D = device_distances(device, ny.metric, X.params, rows, ny.components_)
            yield lo, hi, (distance_kernel(device, ny.distance_kernel_, D) @ N).astype(dtype)
        return
    precomputed = ny.kernel == "precomputed"
    if not precomputed:
        check_device_kernel(ny._name)
        L = xp.asarray(dense_rows(ny.components_))  # CSR landmarks (a CPU fit) made dense
        L_sq = (L * L).sum(axis=1)
    n = X.shape[0]
    step = max(1, min(n, BLOCK_BYTES // (8 * max(m, 1))))
    for lo in range(0, n, step):
        hi = min(n, lo + step)
        Xb = X[lo:hi]
        Xb = xp.asarray(Xb if hasattr(Xb, "__cuda_array_interface__") else dense_rows(Xb),
                        dtype=xp.float64)
        B = Xb if precomputed else kernel_block(xp, ny._name, Xb, L, ny._params, L_sq)
        yield lo, hi, (B @ N).astype(dtype)
