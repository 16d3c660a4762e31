"""
A kernel of 100 000 points
==========================

The sigmoid kernel ``tanh(a x'x' + r)`` of 100 000 points is a 100 000 x 100 000 matrix: 80 GB
in float64, and a dense eigendecomposition of it would take days. ``check_kernel`` never forms
it: above 5 000 samples it estimates what it needs from products of the kernel with blocks of
vectors, computed tile by tile (``method="slq"``), and reports every estimate with an interval.
The eta scan, the class-mean distance ``c'Kc`` and the opposite-label pair count of Lin & Lin
(2003), Thm 5, stay exact: they are read from the same kernel tiles.

This script is shown, not run, by the documentation build (it takes several minutes on two
cores). ``benchmarks/bench_matfree.py scaling`` measures it; its figures are in
``benchmarks/RESULTS.md`` and the user guide.

The second half runs the same check on a Dask cluster: with a ``distributed.Client`` active,
``check_kernel`` given a ``dask.array`` computes one task per pair of row chunks on the
workers (``pip install "indefsvm[dask]"``).
"""

import os
import time

import numpy as np

import indefsvm as isvm


def main():
    rng = np.random.default_rng(0)
    # the test suite runs every example: it sets a small size through this variable
    n, d = int(os.environ.get("INDEFSVM_EXAMPLE_N", 100_000)), 20
    X = rng.standard_normal((n, d))
    y = np.where(X[:, 0] + 0.5 * rng.standard_normal(n) > 0, 1, -1)

    t0 = time.perf_counter()
    # method="slq": what "auto" chooses above 5 000 samples, named so that the suite can run
    # the example at a few thousand points on the same path
    report = isvm.check_kernel(X=X, y=y, kernel="sigmoid", gamma=1.0 / d, coef0=-1.0,
                               method="slq", random_state=0, n_jobs=-1, verbose=True)
    print(f"{time.perf_counter() - t0:.0f} s")
    print(report)                      # estimates are marked "~" and carry [intervals]
    summary = report.to_dict()
    print(summary["method"], summary["lam_min"], summary["lam_min_interval"])
    print(summary["signature"]["negative_mass"], summary["signature"]["negative_mass_interval"])

    # The same on a cluster: a two-worker LocalCluster stands for a real one; the same
    # random_state gives the same estimates (up to the order of floating-point sums).
    import dask.array as da
    from distributed import Client, LocalCluster

    with LocalCluster(n_workers=2, threads_per_worker=1) as cluster, Client(cluster):
        Xd = da.from_array(X, chunks=(max(n // 8, 1), d))
        on_cluster = isvm.check_kernel(X=Xd, y=y, kernel="sigmoid", gamma=1.0 / d,
                                       coef0=-1.0, random_state=0)
        print(on_cluster.verdict, on_cluster.lam_min, on_cluster.signature.negative_mass)


if __name__ == "__main__":   # the cluster's worker processes import this file
    main()
