"""Fit time of the SVM family against scikit-learn's LIBSVM estimators, same run.

    python benchmarks/bench_family.py               # all rows, median of 3
    python benchmarks/bench_family.py --repeats 1
    python benchmarks/bench_family.py --n-jobs 1,2  # our thread counts (the default)

Timing: one untimed warm-up fit of each estimator, then fits in alternation (scikit-learn,
ours n_jobs=1, ours n_jobs=2, ...) until each has ``--repeats`` fits and about half a second of
them (at most 25); the median of each.

Rows: weighted C-SVC (sample and class weights), multi-class one-vs-one with 10 classes (digits,
1 797 samples, on the fly and with kernel="precomputed"; a 20-class make_blobs problem with a
precomputed kernel), epsilon-SVR and nu-SVR (diabetes, make_regression n = 5 000) and the
one-class SVM (n = 5 000). tol = 1e-3, cache_size = 200 MB, PSD kernels (rbf), so both solve the
same problems. Reports median fit times (scikit-learn's on one core, as it is; ours for each
``--n-jobs`` value), their ratios (ours / scikit-learn; < 1 means faster) and the agreement of
the predictions (ours with the last n_jobs value). Generated data and scikit-learn's bundled
data sets only: nothing is read from ../shared.
"""

from __future__ import annotations

import argparse
import os
import platform
import statistics
import time

import numpy as np
from _machine import cpu_name
from sklearn import svm
from sklearn.datasets import load_diabetes, load_digits, make_blobs, make_regression

import indefsvm as isvm


def timed(makers, fit_args, repeats):
    """Median fit time of each estimator maker, measured in alternation (one fit of each per
    round) after one untimed warm-up fit each; rounds go on until each has ``repeats`` fits
    and about half a second of fits (the small rows take milliseconds, where a single
    outlier would decide a median of 3). Returns the medians and the last fitted models."""
    models = [make().fit(*fit_args[0], **fit_args[1]) for make in makers]
    t0 = time.perf_counter()
    models[0].fit(*fit_args[0], **fit_args[1])
    first = time.perf_counter() - t0
    rounds = max(repeats, min(25, int(0.5 / max(first, 1e-4))))
    times = [[] for _ in makers]
    for _ in range(rounds):
        for k, make in enumerate(makers):
            model = make()
            t0 = time.perf_counter()
            model.fit(*fit_args[0], **fit_args[1])
            times[k].append(time.perf_counter() - t0)
            models[k] = model
    return [statistics.median(t) for t in times], models


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
    yield ("diabetes nu-SVR rbf nu=0.5", svm.NuSVR, isvm.IndefiniteNuSVR,
           dict(kernel="rbf", gamma=1.0, C=10.0, nu=0.5), ((Xd, yd), {}), Xd)
    yield ("nu-SVR n=5000 rbf nu=0.1", svm.NuSVR, isvm.IndefiniteNuSVR,
           dict(kernel="rbf", gamma=0.5, C=1.0, nu=0.1), ((Xr, yr), {}), Xr)
    yield ("nu-SVR n=1500 rbf nu=0.3 (long: 85 000 steps)", svm.NuSVR, isvm.IndefiniteNuSVR,
           dict(kernel="rbf", gamma=0.5, C=10.0, nu=0.3), ((Xr[:1500], yr[:1500]), {}),
           Xr[:1500])
    yield ("one-class n=5000 rbf nu=0.1", svm.OneClassSVM, isvm.IndefiniteOneClassSVM,
           dict(kernel="rbf", gamma=0.1, nu=0.1), ((Xo,), {}), Xo)


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--repeats", type=int, default=3)
    ap.add_argument("--n-jobs", default="1,2", help="our thread counts, comma-separated")
    args = ap.parse_args(argv)
    jobs = [int(j) for j in args.n_jobs.split(",")]
    print(f"machine: {platform.machine()} {cpu_name()}, {os.cpu_count()} cores, python "
          f"{platform.python_version()}; median of >= {args.repeats} alternated fits; "
          f"scikit-learn on one core, ours with n_jobs = {jobs}")
    cols = " ".join(f"{'j' + str(j) + ' s':>8s} {'ratio':>6s}" for j in jobs)
    print(f"{'problem':40s} {'sklearn s':>10s} {cols} {'agree':>7s}")
    ratios = {j: [] for j in jobs}
    for name, ref_cls, our_cls, kw, fit_args, Xpred in rows():
        makers = [lambda c=ref_cls, k=kw: c(**k)]
        makers += [lambda c=our_cls, k=kw, j=j: c(**k, n_jobs=j) for j in jobs]
        medians, models = timed(makers, fit_args, args.repeats)
        t_ref, ref, our = medians[0], models[0], models[-1]
        times = dict(zip(jobs, medians[1:], strict=True))
        for j in jobs:
            ratios[j].append(times[j] / t_ref)
        p_ref, p_our = ref.predict(Xpred), our.predict(Xpred)
        if ref_cls in (svm.SVR, svm.NuSVR):
            agree = 1.0 - np.max(np.abs(p_ref - p_our)) / (np.ptp(p_ref) + 1e-300)
        else:
            agree = float(np.mean(p_ref == p_our))
        cells = " ".join(f"{times[j]:8.3f} {times[j] / t_ref:6.2f}" for j in jobs)
        print(f"{name:40s} {t_ref:10.3f} {cells} {agree:7.4f}", flush=True)
    for j in jobs:
        print(f"time ratio ours/sklearn, n_jobs={j}: max {max(ratios[j]):.2f}, median "
              f"{statistics.median(ratios[j]):.2f}")


if __name__ == "__main__":
    main()
