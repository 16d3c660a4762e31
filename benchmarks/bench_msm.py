"""Move-split-merge: dynamic-programme cells a second, one thread and all, against aeon's
``msm_pairwise_distance`` (numba) in the same process when aeon is installed.

    python benchmarks/bench_msm.py            # 200 z-normalised random walks of 256 points
    python benchmarks/bench_msm.py --window 0.1

Ours with its lanes (one series against eight of one length at a time, AVX2) on one thread
and all, and with every pair alone (``_msm.LANES = False``) on one thread.

Cells = the pairs of the training matrix (each once) times the cells of the band. aeon is
the field's implementation (its ``msm_distance`` is the reference the library's values are
compared with here, to 1e-12); aeon pins NumPy below 2.4, so it is timed where both are
installed in one environment (``pip install "numpy<2.4" aeon`` beside the library), and said
absent otherwise.
"""

from __future__ import annotations

import argparse
import os
import sys
import time

import numpy as np
from _machine import cpu_name

import indefsvm as isvm

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from bench_distances import _save  # noqa: E402


def main():
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--n", type=int, default=200)
    p.add_argument("--length", type=int, default=256)
    p.add_argument("--window", type=float, default=None)
    args = p.parse_args()
    rng = np.random.default_rng(0)
    X = np.cumsum(rng.normal(size=(args.n, args.length)), axis=1)
    X = (X - X.mean(axis=1, keepdims=True)) / X.std(axis=1, keepdims=True)
    L = args.length
    r = L if args.window is None else int(np.floor(args.window * L + 1e-9))
    band = sum(min(L - 1, i + r) - max(0, i - r) + 1 for i in range(L))
    cells = args.n * (args.n - 1) / 2 * band
    from indefsvm.distances import _msm

    rows = []
    # the lanes (eight pairs at once, AVX2) and, on one thread, every pair alone
    for lanes, threads in ((True, 1), (True, os.cpu_count()), (False, 1)):
        _msm.LANES = lanes
        t = time.perf_counter()
        D = isvm.pairwise_distances(X, metric="msm", window=args.window, n_jobs=threads)
        dt = time.perf_counter() - t
        rows.append({"threads": threads, "lanes": lanes, "seconds": dt,
                     "cells_per_s": cells / dt})
        print(f"indefsvm msm, {threads} thread(s), {'lanes' if lanes else 'pairs alone'}: "
              f"{dt:.2f} s, {cells / dt:.3g} cells/s", flush=True)
    _msm.LANES = True
    aeon = None
    try:
        from aeon.distances import msm_pairwise_distance

        msm_pairwise_distance(X[:4], window=args.window)  # numba's compilation, untimed
        t = time.perf_counter()
        A = msm_pairwise_distance(X, window=args.window)
        aeon = time.perf_counter() - t
        gap = float(np.abs(A - D).max() / np.abs(A).max())
        print(f"aeon msm_pairwise_distance: {aeon:.2f} s ({aeon / rows[0]['seconds']:.1f}x "
              f"indefsvm's one thread); largest difference {gap:.1e} relative", flush=True)
    except ImportError:
        gap = None
        print("aeon is not installed here: its msm_pairwise_distance is not timed")
    _save("msm.json" if args.window is None else "msm_window.json",
          {"cpu": cpu_name(), "n": args.n, "length": L, "window": args.window,
           "cells": cells, "rows": rows, "aeon_seconds": aeon, "aeon_gap": gap})


if __name__ == "__main__":
    main()
