"""Reading a LIBSVM file: ``indefsvm.datasets.load_libsvm`` (strict: every defect named with
its line) against scikit-learn's ``load_svmlight_file`` (compiled, lenient), in the same
process, on a generated file (plain and gzip), and the peak memory each allocates
(tracemalloc: numpy's arrays and Python's objects).

    python benchmarks/bench_libsvm_reader.py            # 200 000 x 54 (covtype's width)
    python benchmarks/bench_libsvm_reader.py --rows 50000
"""

from __future__ import annotations

import argparse
import gzip
import os
import shutil
import tempfile
import time
import tracemalloc

import numpy as np

import indefsvm as isvm


def _write(path: str, n: int, d: int) -> None:
    rng = np.random.default_rng(0)
    X = np.round(rng.normal(size=(n, d)), 4)
    y = np.where(X[:, 0] > 0, 1, -1)
    with open(path, "w") as fh:
        for row, label in zip(X, y, strict=True):
            fh.write(f"{label} " + " ".join(f"{j}:{v:g}" for j, v in enumerate(row, 1)) + "\n")


def _measure(read, repeats: int = 2):
    best = np.inf
    for _ in range(repeats):
        t0 = time.perf_counter()
        out = read()
        best = min(best, time.perf_counter() - t0)
    del out
    tracemalloc.start()
    out = read()
    peak = tracemalloc.get_traced_memory()[1]
    tracemalloc.stop()
    return best, peak / 2**20, out


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--rows", type=int, default=200_000)
    ap.add_argument("--features", type=int, default=54)
    args = ap.parse_args()
    from sklearn.datasets import load_svmlight_file

    folder = tempfile.mkdtemp()
    try:
        plain = os.path.join(folder, "data.libsvm")
        _write(plain, args.rows, args.features)
        packed = plain + ".gz"
        with open(plain, "rb") as src, gzip.open(packed, "wb") as dst:
            shutil.copyfileobj(src, dst)
        print(f"{args.rows} x {args.features}: {os.path.getsize(plain) / 2**20:.0f} MB of text")
        print(f"{'file':8s} {'reader':22s} {'seconds':>8s} {'peak MB':>8s} {'ratio':>6s}")
        for name, path in (("plain", plain), ("gzip", packed)):
            ours = _measure(lambda p=path: isvm.datasets.load_libsvm(p, dense=False))
            peer = _measure(lambda p=path: load_svmlight_file(p, zero_based=False))
            Xa, ya = ours[2]
            Xb, yb = peer[2]
            assert (Xa != Xb).nnz == 0 and np.array_equal(ya, yb)  # the same matrix
            print(f"{name:8s} {'indefsvm load_libsvm':22s} {ours[0]:8.2f} {ours[1]:8.0f} "
                  f"{ours[0] / peer[0]:6.1f}")
            print(f"{name:8s} {'sklearn svmlight':22s} {peer[0]:8.2f} {peer[1]:8.0f} "
                  f"{1.0:6.1f}")
    finally:
        shutil.rmtree(folder)


if __name__ == "__main__":
    main()
