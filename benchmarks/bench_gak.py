"""The global alignment kernel: dynamic-programme cells a second, one thread and all, and
the plain log-domain programme it replaces.

    python benchmarks/bench_gak.py            # 200 x 200 series of 256 points, no band
    python benchmarks/bench_gak.py --window 0.1
    python benchmarks/bench_gak.py --sigma-scale 0.1   # series far apart against sigma

Cells = the cells of the programmes run: every pair of the matrix plus each series with
itself (for the normalisation), times the cells of the band (all ``n x m`` without one).
The peer in the same process is NumPy's ``logaddexp`` over anti-diagonals (each cell of an
anti-diagonal depends only on the two before it), the fastest log-domain form in plain
NumPy; tslearn's ``cdist_gak`` (numba, linear domain) is timed when installed.
``--sigma-scale F`` multiplies Cuturi's sigma: at small F the local kernels of whole rows
underflow and those pairs run the compiled log-domain programme instead of the scaled one.
"""

from __future__ import annotations

import argparse
import os
import sys
import time

import numpy as np
from _machine import cpu_name

import indefsvm as isvm
from indefsvm.distances import gak_sigma

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from bench_distances import _save  # noqa: E402


def _numpy_log_gak(x, y, sigma):
    """log k(x, y) by anti-diagonals in NumPy, log domain, no band."""
    n, m = len(x), len(y)
    C = (x[:, None] - y[None, :]) ** 2 / (2 * sigma**2)
    LK = -C - np.log(2 - np.exp(-C))
    L = np.full((n + 1, m + 1), -np.inf)
    L[0, 0] = 0.0
    for s in range(2, n + m + 1):
        i = np.arange(max(1, s - m), min(n, s - 1) + 1)
        j = s - i
        L[i, j] = LK[i - 1, j - 1] + np.logaddexp(np.logaddexp(L[i - 1, j - 1], L[i - 1, j]),
                                                  L[i, j - 1])
    return L[n, m]


def main():
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--n", type=int, default=200)
    p.add_argument("--length", type=int, default=256)
    p.add_argument("--window", type=float, default=None)
    p.add_argument("--sigma-scale", type=float, default=1.0,
                   help="a multiple of Cuturi's sigma (default 1)")
    args = p.parse_args()
    rng = np.random.default_rng(0)
    S = list(np.cumsum(rng.normal(size=(args.n, args.length)), axis=1))
    sigma = args.sigma_scale * gak_sigma(S)
    L = args.length
    band = L * L if args.window is None else sum(
        min(L, i + int(args.window * L) + 1) - max(0, i - int(args.window * L))
        for i in range(L))
    cells = (args.n * (args.n - 1) / 2 + args.n) * band
    rows = []
    for threads in (1, os.cpu_count()):
        t = time.perf_counter()
        K = isvm.kernel_matrix(S, kernel="gak", sigma=sigma, window=args.window,
                               n_jobs=threads)
        dt = time.perf_counter() - t
        rows.append({"threads": threads, "seconds": dt, "cells_per_s": cells / dt})
        print(f"indefsvm gak, {threads} thread(s): {dt:.2f} s, {cells / dt:.3g} cells/s",
              flush=True)
    assert np.all(np.isfinite(K))
    # the NumPy peer on a few pairs (it is slow), scaled to cells a second
    k = 5
    t = time.perf_counter()
    for i in range(k):
        _numpy_log_gak(S[i], S[i + 1], sigma)
    dt = time.perf_counter() - t
    numpy_rate = k * L * L / dt
    print(f"NumPy log-domain anti-diagonals: {numpy_rate:.3g} cells/s "
          f"(indefsvm one thread {rows[0]['cells_per_s'] / numpy_rate:.0f}x)", flush=True)
    tslearn = None
    try:
        from tslearn.metrics import cdist_gak

        X3 = np.asarray(S)[:, :, None]
        cdist_gak(X3[:4], sigma=sigma)  # numba's compilation, outside the timing
        t = time.perf_counter()
        cdist_gak(X3, sigma=sigma)
        tslearn = time.perf_counter() - t
        print(f"tslearn cdist_gak: {tslearn:.2f} s ({tslearn / rows[0]['seconds']:.1f}x "
              "indefsvm's one thread)", flush=True)
    except ImportError:
        print("tslearn is not installed: its cdist_gak is not timed")
    name = ("gak" + ("" if args.window is None else "_window")
            + ("" if args.sigma_scale == 1 else f"_sigma{args.sigma_scale:g}") + ".json")
    _save(name, {"cpu": cpu_name(), "n": args.n, "length": L, "window": args.window,
                 "sigma_scale": args.sigma_scale, "sigma": sigma, "cells": cells,
                 "rows": rows, "numpy_cells_per_s": numpy_rate, "tslearn_seconds": tslearn})


if __name__ == "__main__":
    main()
