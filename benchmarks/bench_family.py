"""Fit time of the SVM family against scikit-learn's LIBSVM estimators, same run.

    python benchmarks/bench_family.py               # all rows, median of 3
    python benchmarks/bench_family.py --repeats 1

Rows: weighted C-SVC (sample and class weights), multi-class one-vs-one with 10 classes
(digits, 1 797 samples, on the fly and with kernel="precomputed"; a 20-class make_blobs
problem with a precomputed kernel), epsilon-SVR (diabetes, make_regression n = 5 000) and the
one-class SVM (n = 5 000). tol = 1e-3, cache_size = 200 MB, PSD kernels (rbf), so both
solve the same problems. Reports median fit times, their ratio (ours / scikit-learn; < 1
means faster) and the agreement of the predictions. Generated data and scikit-learn's bundled
data sets only: nothing is read from ../shared.
"""

from __future__ import annotations

import argparse
import platform
import statistics
import time

import numpy as np
from sklearn import svm
from sklearn.datasets import load_diabetes, load_digits, make_blobs, make_regression

import indefsvm as isvm


def timed(make, fit_args, repeats):
    times, model = [], None
    for _ in range(repeats):
        model = make()
        t0 = time.perf_counter()
        model.fit(*fit_args[0], **fit_args[1])
        times.append(time.perf_counter() - t0)
    return statistics.median(times), model


def rows():
    X, y = load_digits(return_X_y=True)
    X = X / 16.0
    K = isvm.kernel_matrix(X, kernel="rbf", gamma=0.02)
    Xb, yb = make_blobs(n_samples=4000, centers=20, n_features=10, cluster_std=3.0,
                        random_state=0)
    Kb = isvm.kernel_matrix(Xb, kernel="rbf", gamma=0.05)
    rng = np.random.default_rng(0)
    sw = rng.uniform(0.5, 2.0, y.shape[0])
    Xd, yd = load_diabetes(return_X_y=True)
    Xr, yr = make_regression(n_samples=5000, n_features=20, noise=10.0, random_state=0)
    Xr /= np.abs(Xr).max()
    yr /= np.abs(yr).max()
    Xo = rng.normal(size=(5000, 10))
    yield ("digits 10 classes rbf, weighted", svm.SVC, isvm.IndefiniteSVC,
           dict(kernel="rbf", gamma=0.02, class_weight="balanced"), ((X, y), {"sample_weight": sw}),
           X)
    yield ("digits 10 classes rbf", svm.SVC, isvm.IndefiniteSVC, dict(kernel="rbf", gamma=0.02),
           ((X, y), {}), X)
    yield ("digits 10 classes precomputed", svm.SVC, isvm.IndefiniteSVC,
           dict(kernel="precomputed"), ((K, y), {}), K)
    yield ("blobs 20 classes n=4000 precomputed", svm.SVC, isvm.IndefiniteSVC,
           dict(kernel="precomputed"), ((Kb, yb), {}), Kb)
    yield ("diabetes SVR rbf", svm.SVR, isvm.IndefiniteSVR,
           dict(kernel="rbf", gamma=1.0, C=10.0, epsilon=5.0), ((Xd, yd), {}), Xd)
    yield ("SVR n=5000 rbf", svm.SVR, isvm.IndefiniteSVR,
           dict(kernel="rbf", gamma=0.5, C=10.0, epsilon=0.01), ((Xr, yr), {}), Xr)
    yield ("one-class n=5000 rbf nu=0.1", svm.OneClassSVM, isvm.IndefiniteOneClassSVM,
           dict(kernel="rbf", gamma=0.1, nu=0.1), ((Xo,), {}), Xo)


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--repeats", type=int, default=3)
    args = ap.parse_args(argv)
    print(f"machine: {platform.machine()} {platform.processor() or ''}, python "
          f"{platform.python_version()}; median of {args.repeats}")
    print(f"{'problem':40s} {'sklearn s':>10s} {'ours s':>8s} {'ratio':>6s} {'agree':>7s}")
    ratios = []
    for name, ref_cls, our_cls, kw, fit_args, Xpred in rows():
        t_ref, ref = timed(lambda c=ref_cls, k=kw: c(**k), fit_args, args.repeats)
        t_our, our = timed(lambda c=our_cls, k=kw: c(**k), fit_args, args.repeats)
        p_ref, p_our = ref.predict(Xpred), our.predict(Xpred)
        if ref_cls is svm.SVR:
            agree = 1.0 - np.max(np.abs(p_ref - p_our)) / (np.ptp(p_ref) + 1e-300)
        else:
            agree = float(np.mean(p_ref == p_our))
        ratios.append(t_our / t_ref)
        print(f"{name:40s} {t_ref:10.3f} {t_our:8.3f} {t_our / t_ref:6.2f} {agree:7.4f}")
    print(f"time ratio ours/sklearn: max {max(ratios):.2f}, median {statistics.median(ratios):.2f}")


if __name__ == "__main__":
    main()
