"""The CUDA source built as C and run on a CPU, for the tests (private).

``dtw.cu`` is compiled by the system's C compiler (the one that builds the package) with a
few definitions in front (``__global__`` and ``__shared__`` empty, ``threadIdx``/
``blockIdx``/``blockDim`` plain variables, the block's shared memory one static array;
the source's ``extern "C"`` is C++'s spelling of the C linkage C already has, so it is
dropped) and a loop that runs every thread of a launch one after the other. The threads of
``ix_dtw_pairs`` and ``ix_dtw_band`` share nothing but their own slice of the buffer (or of
the shared memory), so the serial order computes what the device does; the tests hold it
to the CPU's compiled DTW.
"""

from __future__ import annotations

import ctypes
import hashlib
import os
import subprocess
import tempfile
from functools import cache
from importlib import resources

import numpy as np

_PRELUDE = r"""
#include <math.h>
typedef struct { unsigned int x, y, z; } ix_dim3;
static ix_dim3 threadIdx, blockIdx, blockDim, gridDim;
#define __global__
#define __device__
#define __shared__
/* CUDA's separately rounded product and sum; C99 (-std=c99) does not fuse them either */
#define __dmul_rn(a, b) ((a) * (b))
#define __dadd_rn(a, b) ((a) + (b))
/* the block's shared memory (a launch's threads run one after the other here) */
double ix_band[IX_SHARED_DOUBLES];
"""

_LAUNCHER = r"""
void ix_launch_dtw_pairs(unsigned int grid, unsigned int block,
        const double *A, const long long *offA, const double *B, const long long *offB,
        long long nB, long long d, double window, long long p0, long long p1, double *buf,
        long long stride, double inf, double *out)
{
    gridDim.x = grid; blockDim.x = block;
    for (unsigned int g = 0; g < grid; g++)
        for (unsigned int t = 0; t < block; t++) {
            blockIdx.x = g; threadIdx.x = t;
            ix_dtw_pairs(A, offA, B, offB, nB, d, window, p0, p1, buf, stride, inf, out);
        }
}

void ix_launch_dtw_band(unsigned int grid, unsigned int block,
        const double *A, const long long *offA, const double *B, const long long *offB,
        long long nB, long long d, double window, long long p0, long long p1, int width,
        double inf, double *out)
{
    gridDim.x = grid; blockDim.x = block;
    for (unsigned int g = 0; g < grid; g++)
        for (unsigned int t = 0; t < block; t++) {
            blockIdx.x = g; threadIdx.x = t;
            ix_dtw_band(A, offA, B, offB, nB, d, window, p0, p1, width, inf, out);
        }
}
"""

#: doubles of the emulated shared memory (a block's threads x the band's width at most)
SHARED_DOUBLES = 1 << 16


def source() -> str:
    """The CUDA source of the device kernels."""
    return resources.files("indefsvm._device").joinpath("dtw.cu").read_text()


@cache
def library() -> ctypes.CDLL:
    """The C build of the source (cached by its hash in the temporary directory)."""
    text = (f"#define IX_SHARED_DOUBLES {SHARED_DOUBLES}\n" + _PRELUDE
            + source().replace('extern "C" ', "") + _LAUNCHER)
    tag = hashlib.sha256(text.encode()).hexdigest()[:16]
    where = os.path.join(tempfile.gettempdir(), f"indefsvm-shim-{tag}")
    lib = os.path.join(where, "shim.so")
    if not os.path.exists(lib):
        os.makedirs(where, exist_ok=True)
        src = os.path.join(where, "shim.c")
        with open(src, "w") as fh:
            fh.write(text)
        tmp = lib + f".{os.getpid()}"
        cc = os.environ.get("CC", "cc")
        subprocess.run([cc, "-O2", "-std=c99", "-shared", "-fPIC", "-o", tmp, src, "-lm"],
                       check=True, capture_output=True)
        os.replace(tmp, lib)
    dll = ctypes.CDLL(lib)
    P = ctypes.c_void_p
    dll.ix_launch_dtw_pairs.argtypes = [
        ctypes.c_uint, ctypes.c_uint, P, P, P, P, ctypes.c_longlong, ctypes.c_longlong,
        ctypes.c_double, ctypes.c_longlong, ctypes.c_longlong, P, ctypes.c_longlong,
        ctypes.c_double, P]
    dll.ix_launch_dtw_pairs.restype = None
    dll.ix_launch_dtw_band.argtypes = [
        ctypes.c_uint, ctypes.c_uint, P, P, P, P, ctypes.c_longlong, ctypes.c_longlong,
        ctypes.c_double, ctypes.c_longlong, ctypes.c_longlong, ctypes.c_int, ctypes.c_double,
        P]
    dll.ix_launch_dtw_band.restype = None
    return dll


def launch_dtw_pairs(grid: int, block: int, args: tuple) -> None:
    """Run ``ix_dtw_pairs`` over ``grid x block`` threads with the device call's arguments
    (NumPy arrays in place of device arrays)."""
    A, offA, B, offB, nB, d, window, p0, p1, buf, stride, inf, out = args
    for arr, dtype in ((A, np.float64), (offA, np.int64), (B, np.float64),
                       (offB, np.int64), (buf, np.float64), (out, np.float64)):
        if arr.dtype != dtype or not arr.flags.c_contiguous:
            raise TypeError("shim arguments must be C-contiguous arrays of the kernel's types")
    library().ix_launch_dtw_pairs(
        grid, block, A.ctypes.data, offA.ctypes.data, B.ctypes.data, offB.ctypes.data,
        int(nB), int(d), float(window), int(p0), int(p1), buf.ctypes.data, int(stride),
        float(inf), out.ctypes.data)


def launch_dtw_band(grid: int, block: int, args: tuple) -> None:
    """Run ``ix_dtw_band`` over ``grid x block`` threads with the device call's arguments
    (NumPy arrays in place of device arrays; the shared memory is the C build's array)."""
    A, offA, B, offB, nB, d, window, p0, p1, width, inf, out = args
    for arr, dtype in ((A, np.float64), (offA, np.int64), (B, np.float64),
                       (offB, np.int64), (out, np.float64)):
        if arr.dtype != dtype or not arr.flags.c_contiguous:
            raise TypeError("shim arguments must be C-contiguous arrays of the kernel's types")
    if int(block) * int(width) > SHARED_DOUBLES:
        raise ValueError("the band does not fit the emulated shared memory")
    library().ix_launch_dtw_band(
        grid, block, A.ctypes.data, offA.ctypes.data, B.ctypes.data, offB.ctypes.data,
        int(nB), int(d), float(window), int(p0), int(p1), int(width), float(inf),
        out.ctypes.data)
