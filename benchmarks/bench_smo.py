"""Fit time and objective of indefsvm's SMO against scikit-learn's SVC (LIBSVM), same run.

    python benchmarks/bench_smo.py                 # n = 1000, 2000, 5000, 10000
    python benchmarks/bench_smo.py --sizes 1000 2000 --repeats 1

Data: make_classification (20 features, scaled to [-1, 1]); kernels rbf (gamma = 1/d) and
sigmoid (a = 1/d, r = -1); C = 1; tol = 1e-3; cache_size = 200 MB; on the fly and with
kernel="precomputed" (the precomputed matrix is built once, outside the timings). Reports the
median fit time of each, their ratio (ours / SVC; < 1 means faster), both dual objectives
F(alpha) computed the same way from the returned alpha, and their relative difference.
Generated data only: nothing is read from disk.
"""

from __future__ import annotations

import argparse
import json
import platform
import statistics
import time

import numpy as np
from sklearn.base import clone
from sklearn.datasets import make_classification
from sklearn.preprocessing import MinMaxScaler
from sklearn.svm import SVC

import indefsvm as isvm


def data(n: int, seed: int = 0):
    X, y = make_classification(n_samples=n, n_features=20, n_informative=10, n_redundant=4,
                               flip_y=0.05, class_sep=0.8, random_state=seed)
    X = MinMaxScaler(feature_range=(-1, 1)).fit_transform(X)
    return X, np.where(y == 1, 1.0, -1.0)


def objective_from_alpha(X, y, alpha, kernel, params, K=None):
    sv = np.flatnonzero(alpha > 0)
    if K is None:
        Ksv = isvm.kernel_matrix(X[sv], kernel=kernel, **params)
    else:
        Ksv = K[np.ix_(sv, sv)]
    v = alpha[sv] * y[sv]
    return 0.5 * v @ Ksv @ v - alpha.sum()


def timed(estimator, A, y, repeats):
    """Median wall time of ``clone(estimator).fit(A, y)`` and the last fitted model."""
    times, out = [], None
    for _ in range(repeats):
        model = clone(estimator)
        t0 = time.perf_counter()
        out = model.fit(A, y)
        times.append(time.perf_counter() - t0)
    return statistics.median(times), out


def run(sizes, repeats, C):
    rows = []
    for n in sizes:
        X, y = data(n)
        d = X.shape[1]
        for kernel, params in (("rbf", {"gamma": 1.0 / d}),
                               ("sigmoid", {"gamma": 1.0 / d, "coef0": -1.0})):
            svc_kw = dict(kernel=kernel, C=C, tol=1e-3, cache_size=200, **params)
            for mode in ("on the fly", "precomputed"):
                K = isvm.kernel_matrix(X, kernel=kernel, **params) if mode == "precomputed" \
                    else None
                if K is None:
                    t_svc, svc = timed(SVC(**svc_kw), X, y, repeats)
                    t_our, ours = timed(isvm.IndefiniteSVC(**svc_kw), X, y, repeats)
                else:
                    pre = dict(kernel="precomputed", C=C, tol=1e-3, cache_size=200)
                    t_svc, svc = timed(SVC(**pre), K, y, repeats)
                    t_our, ours = timed(isvm.IndefiniteSVC(**pre), K, y, repeats)
                a_svc = np.zeros(n)
                a_svc[svc.support_] = np.abs(svc.dual_coef_[0])
                f_svc = objective_from_alpha(X, y, a_svc, kernel, params, K)
                f_our = objective_from_alpha(X, y, ours.alpha_, kernel, params, K)
                rows.append({
                    "n": n, "kernel": kernel, "mode": mode,
                    "svc_s": t_svc, "ours_s": t_our, "ratio": t_our / t_svc,
                    "F_svc": f_svc, "F_ours": f_our,
                    "rel_diff": (f_our - f_svc) / abs(f_svc),
                    "iter_svc": int(svc.n_iter_[0]), "iter_ours": int(np.ravel(ours.n_iter_)[0]),
                    "sv_svc": int(svc.support_.shape[0]), "sv_ours": int(ours.support_.shape[0]),
                })
                print(_fmt(rows[-1]), flush=True)
    return rows


HEADER = (f"{'n':>6} {'kernel':>8} {'mode':>12} {'SVC s':>8} {'ours s':>8} {'ratio':>6} "
          f"{'F SVC':>14} {'F ours':>14} {'rel diff':>9} {'iters SVC/ours':>16} "
          f"{'#SV SVC/ours':>14}")


def _fmt(r):
    return (f"{r['n']:>6} {r['kernel']:>8} {r['mode']:>12} {r['svc_s']:>8.3f} "
            f"{r['ours_s']:>8.3f} {r['ratio']:>6.2f} {r['F_svc']:>14.6f} {r['F_ours']:>14.6f} "
            f"{r['rel_diff']:>9.1e} {r['iter_svc']:>7}/{r['iter_ours']:<8} "
            f"{r['sv_svc']:>6}/{r['sv_ours']:<7}")


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--sizes", type=int, nargs="+", default=[1000, 2000, 5000, 10000])
    ap.add_argument("--repeats", type=int, default=3)
    ap.add_argument("-C", type=float, default=1.0)
    ap.add_argument("--json", help="also write the rows to this JSON file")
    args = ap.parse_args()
    print(f"machine: {platform.machine()}, {platform.processor() or '?'}, "
          f"python {platform.python_version()}; C={args.C}, tol=1e-3, cache_size=200 MB, "
          f"median of {args.repeats}")
    print(HEADER)
    rows = run(args.sizes, args.repeats, args.C)
    ratios = [r["ratio"] for r in rows]
    print(f"ratio ours/SVC: median {statistics.median(ratios):.2f}, max {max(ratios):.2f}")
    if args.json:
        with open(args.json, "w") as fh:
            json.dump(rows, fh, indent=2)


if __name__ == "__main__":
    main()
