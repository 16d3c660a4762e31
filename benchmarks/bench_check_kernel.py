"""Time of ``check_kernel`` against one ``numpy.linalg.eigvalsh`` of the same matrix, same run.

    python benchmarks/bench_check_kernel.py            # n = 1000, 2000, 3000
    python benchmarks/bench_check_kernel.py --sizes 3000 --repeats 3

``check_kernel`` answers the PSD and CPD tests (with a Cholesky-verified certificate when the
kernel is CPD), the signature with negative mass, the eta scan and the class-mean distance. It
gets all the eigenvalues it needs from one tridiagonalisation. Data are generated (a sigmoid
kernel, indefinite, and an RBF kernel, PD, on uniform points in [-1, 1]^13); nothing is read.
"""

from __future__ import annotations

import argparse
import statistics
import time

import numpy as np

import indefsvm as isvm


def median_time(fn, repeats):
    times = []
    for _ in range(repeats):
        t0 = time.perf_counter()
        fn()
        times.append(time.perf_counter() - t0)
    return statistics.median(times)


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--sizes", type=int, nargs="+", default=[1000, 2000, 3000])
    ap.add_argument("--repeats", type=int, default=3)
    args = ap.parse_args()
    print(f"{'n':>6} {'kernel':>8} {'eigvalsh s':>11} {'check s':>9} {'ratio':>6}  verdict")
    rng = np.random.default_rng(0)
    for n in args.sizes:
        X = rng.uniform(-1, 1, (n, 13))
        y = np.where(X[:, 0] + 0.3 * rng.normal(size=n) > 0, 1, -1)
        for kernel, params in (("sigmoid", {"gamma": 1 / 13, "coef0": 0.0}),
                               ("rbf", {"gamma": 0.5})):
            K = isvm.kernel_matrix(X, kernel=kernel, **params)
            t_eig = median_time(lambda K=K: np.linalg.eigvalsh(K), args.repeats)
            rep = None

            def run(K=K, y=y):
                nonlocal rep
                rep = isvm.check_kernel(K, y)

            t_chk = median_time(run, args.repeats)
            print(f"{n:>6} {kernel:>8} {t_eig:>11.3f} {t_chk:>9.3f} {t_chk / t_eig:>6.2f}  "
                  f"{rep.verdict} (p, q, z) = {tuple(rep.signature)}", flush=True)


if __name__ == "__main__":
    main()
