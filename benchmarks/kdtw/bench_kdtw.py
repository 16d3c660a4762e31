"""Does KDTW (Marteau & Gibet 2015) beat the global alignment kernel on the evidence tasks?

    cd benchmarks/kdtw && cythonize -i kdtw_probe.pyx
    python bench_kdtw.py --aeon-data DIR [TASK ...]

An SVM on the normalised KDTW kernel, sigma (0.1, 1, 10 times the median squared distance
between points) and C (0.1 ... 100) by 5-fold stratified cross-validation on the training
series, its test error on the official split -- beside the SVM on the alignment kernel of
``bench_evidence.py`` (docs/evidence_table.txt, "GAK SVM"). The verdict is in RESULTS.md.
"""
import argparse
import os
import sys
import time

import numpy as np
from sklearn.model_selection import StratifiedKFold

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.dirname(HERE))
sys.path.insert(0, HERE)

import bench_evidence as be  # noqa: E402
import kdtw_probe as kdtw  # noqa: E402

import indefsvm as isvm  # noqa: E402


def as_list(S):
    """Series as (length, channels) C-contiguous arrays."""
    out = []
    for x in S:
        a = np.asarray(x, dtype=float)
        out.append(np.ascontiguousarray(a.T if a.ndim == 2 else a[:, None]))
    return out


def norm(L, dx, dy):
    """The normalised kernel k(x, y) / sqrt(k(x, x) k(y, y)) from logarithms."""
    return np.exp(L - 0.5 * dx[:, None] - 0.5 * dy[None, :])


def one(task):
    name, kind, (X, y), (Xte, yte), window = task
    A, B = as_list(X), as_list(Xte)
    pts = np.concatenate(A)
    rng = np.random.default_rng(0)
    i, j = rng.integers(0, len(pts), 4000), rng.integers(0, len(pts), 4000)
    med = np.median(np.sum((pts[i] - pts[j]) ** 2, axis=1))
    w = -1.0 if window is None else window
    t0 = time.perf_counter()
    k = min(5, np.bincount(np.unique(y, return_inverse=True)[1]).min())
    folds = list(StratifiedKFold(k, shuffle=True, random_state=0).split(np.zeros(len(y)), y))
    best = None
    for mult in (0.1, 1.0, 10.0):
        L = kdtw.log_kdtw(A, A, mult * med, window=w, same=True)
        d = np.diag(L).copy()
        K = norm(L, d, d)
        for C in (0.1, 1, 10, 100):
            acc = [np.mean(isvm.IndefiniteSVC(kernel="precomputed", C=C)
                           .fit(K[np.ix_(tr, tr)], y[tr]).predict(K[np.ix_(te, tr)]) == y[te])
                   for tr, te in folds]
            if best is None or np.mean(acc) > best[0]:
                best = (np.mean(acc), mult, C, K, d)
    score, mult, C, K, d = best
    s = mult * med
    dte = np.array([kdtw.log_kdtw([b], [b], s, window=w)[0, 0] for b in B])
    Kte = norm(kdtw.log_kdtw(B, A, s, window=w), dte, d)
    err = np.mean(isvm.IndefiniteSVC(kernel="precomputed", C=C).fit(K, y).predict(Kte) != yte)
    print(f"{name:22s} KDTW SVM test error {100 * err:5.1f}  (cv {100 * (1 - score):.1f}, "
          f"sigma x {mult}, C {C}, {time.perf_counter() - t0:.0f} s)", flush=True)


def main():
    p = argparse.ArgumentParser()
    p.add_argument("--aeon-data", default=None)
    p.add_argument("tasks", nargs="*")
    args = p.parse_args()
    for task in be._tasks(be._aeon_folder(args.aeon_data)):
        if task[1] == "series" and (not args.tasks or task[0] in args.tasks):
            one(task)


if __name__ == "__main__":
    main()
