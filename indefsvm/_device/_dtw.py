"""DTW distances on a CUDA device (private): ``dtw.cu`` launched over blocks of pairs.

Between launches the device is waited for, so Ctrl-C is seen (and progress said) every
``LAUNCH_PAIRS`` pairs at most; a launch's rows of the cumulative cost matrix take at most
``BUFFER_BYTES`` of device memory.
"""

from __future__ import annotations

import math
from functools import cache

import numpy as np

from . import Device
from ._shim import launch_dtw_pairs, source

#: threads of a CUDA block
BLOCK = 128

#: device memory for one launch's rows of the cumulative cost matrices
BUFFER_BYTES = 256 * 2**20

#: pairs of one launch at most (a launch of 2^18 pairs of length 128 takes a few ms)
LAUNCH_PAIRS = 2**18


@cache
def _raw_kernel():
    import cupy

    return cupy.RawKernel(source(), "ix_dtw_pairs")


def dtw_block(device: Device, A, B, window: float, *, progress=None):
    """``DTW(A_s, B_t)`` for every pair, as an ``(n_A, n_B)`` float64 array on ``device``.

    ``A`` and ``B`` are packed series (``distances._objects.Series``) with the same
    channels; ``window`` is the checked band (``< 0``: none). ``progress(done, total)`` is
    called after each launch."""
    xp = device.xp
    nA, nB = A.n, B.n
    total = nA * nB
    out = xp.empty((nA, nB), dtype=xp.float64)
    if total == 0:
        return out
    Ap = xp.asarray(np.ascontiguousarray(A.points, dtype=np.float64))
    Bp = xp.asarray(np.ascontiguousarray(B.points, dtype=np.float64))
    offA = xp.asarray(A.offsets.astype(np.int64))
    offB = xp.asarray(B.offsets.astype(np.int64))
    longest = int(max(A.lengths.max(), B.lengths.max()))
    per = max(1, min(LAUNCH_PAIRS, BUFFER_BYTES // (8 * (longest + 1)), total))
    buf = xp.empty((longest + 1) * per, dtype=xp.float64)
    d = int(A.n_channels)
    for p0 in range(0, total, per):
        p1 = min(total, p0 + per)
        grid = math.ceil((p1 - p0) / BLOCK)
        args = (Ap, offA, Bp, offB, np.int64(nB), np.int64(d), np.float64(window),
                np.int64(p0), np.int64(p1), buf, np.int64(p1 - p0), np.float64(np.inf), out)
        if device.emulated:
            launch_dtw_pairs(grid, BLOCK, args)
        else:
            _raw_kernel()((grid,), (BLOCK,), args)
            device.synchronize()  # the launch is done: Ctrl-C is looked at here
        if progress is not None:
            progress(p1, total)
    return out
