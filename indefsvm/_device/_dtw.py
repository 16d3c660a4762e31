"""DTW distances on a CUDA device (private): ``dtw.cu`` launched over blocks of pairs.

Two kernels of one thread a pair compute the same cells in the same order: ``ix_dtw_band``
keeps each thread's band of the row in the block's shared memory, and is used when every
pair's band is at most ``BAND_WIDTH_MAX`` cells (a 10 % window on series of a few hundred
points); ``ix_dtw_pairs`` keeps whole rows in the device's memory (any band, any length).
Measured on an H200 (2026-11-27, length 128, radius 12, 1e5 series x 300 landmarks): 4.67e11
DP cells a second with the band kernel, 3.12e11 with the row kernel, 6.98e9 on the CPU's 16
cores (its loop then one pair at a time; it now runs eight pairs at a time, 3.6-4.7x quicker on
a core: benchmarks/RESULTS.md); the values equal the CPU's bit for bit.

Between launches the device is waited for, so Ctrl-C is seen (and progress said) every
``LAUNCH_PAIRS`` pairs at most; a launch's rows of the cumulative cost matrix take at most
``BUFFER_BYTES`` of device memory.
"""

from __future__ import annotations

import math
from functools import cache

import numpy as np

from . import Device
from ._shim import launch_dtw_band, launch_dtw_pairs, source

#: threads of a CUDA block
BLOCK = 128

#: device memory for one launch's rows of the cumulative cost matrices
BUFFER_BYTES = 256 * 2**20

#: pairs of one launch at most (a launch of 2^18 pairs of length 128 takes a few ms)
LAUNCH_PAIRS = 2**18

#: the widest band (cells a thread) kept in shared memory, and a block's shared memory at
#: most (what a launch may use without opting in to more)
BAND_WIDTH_MAX = 64
SHARED_BYTES = 48 * 1024


@cache
def _raw_kernel(name: str = "ix_dtw_pairs"):
    import cupy

    return cupy.RawKernel(source(), name)


def band_width(A, B, window: float) -> int:
    """The most cells of a row that any pair's band spans: ``min(la, 2 r + la - lb + 1)``
    bounded over the pairs by the longest and the shortest series (``window < 0``: no
    band, the whole row)."""
    longest = int(max(A.lengths.max(), B.lengths.max()))
    shortest = int(min(A.lengths.min(), B.lengths.min()))
    r = longest if window < 0 else int(math.floor(window * longest + 1e-9))
    return min(longest, 2 * r + (longest - shortest) + 1)


def choose_kernel(A, B, window: float, kernel: str = "auto"):
    """``("band", threads a block, width)`` or ``("row", BLOCK, 0)`` for these series."""
    width = band_width(A, B, window)
    block = min(BLOCK, SHARED_BYTES // (8 * width) // 32 * 32)
    if kernel == "band" or (kernel == "auto" and width <= BAND_WIDTH_MAX and block >= 32):
        if block < 32:
            raise ValueError(f"a band of {width} cells does not fit {SHARED_BYTES} bytes "
                             "of shared memory for 32 threads")
        return "band", block, width
    return "row", BLOCK, 0


def dtw_block(device: Device, A, B, window: float, *, progress=None, kernel: str = "auto"):
    """``DTW(A_s, B_t)`` for every pair, as an ``(n_A, n_B)`` float64 array on ``device``.

    ``A`` and ``B`` are packed series (``distances._objects.Series``) with the same
    channels; ``window`` is the checked band (``< 0``: none). ``progress(done, total)`` is
    called after each launch. ``kernel``: ``"auto"`` (the band kernel where the band is
    narrow), ``"band"`` or ``"row"`` (for the tests and the benchmark)."""
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
    d = int(A.n_channels)
    which, block, width = choose_kernel(A, B, window, kernel)
    if which == "band":
        per = max(1, min(LAUNCH_PAIRS, total))
    else:
        longest = int(max(A.lengths.max(), B.lengths.max()))
        per = max(1, min(LAUNCH_PAIRS, BUFFER_BYTES // (8 * (longest + 1)), total))
        buf = xp.empty((longest + 1) * per, dtype=xp.float64)
    for p0 in range(0, total, per):
        p1 = min(total, p0 + per)
        grid = math.ceil((p1 - p0) / block)
        head = (Ap, offA, Bp, offB, np.int64(nB), np.int64(d), np.float64(window),
                np.int64(p0), np.int64(p1))
        if which == "band":
            args = head + (np.int32(width), np.float64(np.inf), out)
            if device.emulated:
                launch_dtw_band(grid, block, args)
            else:
                _raw_kernel("ix_dtw_band")((grid,), (block,), args,
                                           shared_mem=block * width * 8)
        else:
            args = head + (buf, np.int64(p1 - p0), np.float64(np.inf), out)
            if device.emulated:
                launch_dtw_pairs(grid, block, args)
            else:
                _raw_kernel()((grid,), (block,), args)
        if not device.emulated:
            device.synchronize()  # the launch is done: Ctrl-C is looked at here
        if progress is not None:
            progress(p1, total)
    return out
