"""Sparse features as a text collection has them: indefsvm against LIBSVM (scikit-learn's
SVC) on CSR input, in the same process, and the command line on a LIBSVM file.

    python benchmarks/bench_sparse.py                 # n = 5 000 and 20 000 documents
    python benchmarks/bench_sparse.py --sizes 5000    # (about 4 min on 2 cores)
    python benchmarks/bench_sparse.py --sizes 20000 --kernels rbf --repeats 1
    python benchmarks/bench_sparse.py --out benchmarks/results/sparse.json

Generated documents (nothing is read from ../shared): a vocabulary of 100 000 words, about
80 distinct words per document drawn by Zipf's law, two topics that favour two disjoint
sets of 2 000 words, tf-idf weights normalised per row (the way text reaches an SVM), CSR
with 32-bit indices (LIBSVM's wrapper takes nothing else). For each size: the fit of SVC
and of IndefiniteSVC (rbf, gamma = 1, C = 1; sigmoid, gamma = 1, coef0 = -1, C = 1; tol =
1e-3, cache 200 MB) and ``decision_function`` on 5 000 held-out documents, median of
``--repeats``; NystroemSVC(rbf, 500 landmarks) fit and predict; the dual objectives of both
fits computed alike, and the test accuracies. Last, ``indefsvm fit FILE -C 1 --gamma 1
--cv 0`` and ``indefsvm predict`` on the documents of the largest size written as a LIBSVM
file, timed as whole processes with their peak memory (from ``resource``).
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import statistics
import subprocess
import sys
import tempfile
import time

import numpy as np
import scipy.sparse as sp
from _machine import cpu_name
from sklearn.svm import SVC

import indefsvm as isvm

VOCAB, WORDS, TOPIC = 100_000, 80, 2_000


def documents(n, seed):
    """(X, y): n tf-idf rows over VOCAB words, two topics."""
    rng = np.random.default_rng(seed)
    y = np.where(rng.random(n) < 0.5, 1.0, -1.0)
    rows, cols = [], []
    for i in range(n):
        common = rng.zipf(1.3, size=WORDS) % VOCAB  # the language's frequent words
        base = 10_000 if y[i] > 0 else 10_000 + TOPIC
        topical = base + rng.integers(0, TOPIC, size=WORDS // 4)  # the topic's own words
        words = np.unique(np.r_[common, topical])
        rows.append(np.full(words.size, i))
        cols.append(words)
    r, c = np.concatenate(rows), np.concatenate(cols)
    counts = sp.csr_matrix((np.ones(r.size), (r, c)), shape=(n, VOCAB))
    counts.sum_duplicates()
    df = np.bincount(counts.indices, minlength=VOCAB)
    idf = np.log((1 + n) / (1 + df)) + 1.0
    X = counts.multiply(idf[None, :]).tocsr()
    norms = np.sqrt(np.asarray(X.multiply(X).sum(axis=1)).ravel())
    X = sp.diags(1.0 / norms) @ X
    X = sp.csr_matrix(X)
    X.indices, X.indptr = X.indices.astype(np.int32), X.indptr.astype(np.int32)
    X.sort_indices()
    return X, y


def median_time(fn, repeats):
    times = []
    for _ in range(repeats):
        t = time.perf_counter()
        out = fn()
        times.append(time.perf_counter() - t)
    return statistics.median(times), out


def objective(model, X, kernel, params):
    """F(alpha) = 1/2 v'Kv - sum(alpha), v = alpha y, from the dual coefficients alike, the
    kernel rows of the support vectors computed in blocks (no n x n matrix)."""
    dc = model.dual_coef_
    v = (dc.toarray() if hasattr(dc, "toarray") else np.asarray(dc))[0]
    Xs = X[model.support_]
    quad = 0.0
    for lo in range(0, v.size, 2000):
        Kb = isvm.kernel_matrix(Xs[lo:lo + 2000], Xs, kernel=kernel, **params)
        quad += float(v[lo:lo + 2000] @ (Kb @ v))
    return 0.5 * quad - float(np.abs(v).sum())


def cli(argv):
    """A command as a whole process: (seconds, peak RSS MB, stderr's last line)."""
    code = ("import resource, sys, time; from indefsvm.cli import main; t = time.perf_counter();"
            f" rc = main({argv!r}); s = time.perf_counter() - t;"
            " print(f'@@ {s} {resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024}',"
            " file=sys.stderr); sys.exit(rc)")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         check=True)
    tag = [ln for ln in out.stderr.splitlines() if ln.startswith("@@")][-1].split()
    last = [ln for ln in out.stderr.splitlines() if ln and not ln.startswith("@@")]
    return float(tag[1]), float(tag[2]), (last[-1] if last else "")


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--sizes", default="5000,20000",
                    help="training documents, comma-separated (SVC takes about 10 min at "
                         "20 000 on one core)")
    ap.add_argument("--kernels", default="rbf,sigmoid")
    ap.add_argument("--repeats", type=int, default=3)
    ap.add_argument("--out", default=None)
    args = ap.parse_args()
    sizes = [int(v) for v in args.sizes.split(",")]
    kernels = {"rbf": {"gamma": 1.0}, "sigmoid": {"gamma": 1.0, "coef0": -1.0}}
    kernels = [(k, kernels[k]) for k in args.kernels.split(",")]
    Xte, yte = documents(5000, seed=99)
    rows = []
    for n in sizes:
        X, y = documents(n, seed=n)
        print(f"\n{n} documents, {VOCAB} words, {X.nnz / n:.0f} stored per row "
              f"({100 * X.nnz / (n * VOCAB):.3f} %)", flush=True)
        for kernel, params in kernels:
            kw = dict(kernel=kernel, C=1.0, tol=1e-3, cache_size=200, **params)
            t_svc, svc = median_time(lambda kw=kw, X=X, y=y: SVC(**kw).fit(X, y), args.repeats)
            t_ours, ours = median_time(lambda kw=kw, X=X, y=y: isvm.IndefiniteSVC(**kw).fit(X, y),
                                       args.repeats)
            p_svc, _ = median_time(lambda svc=svc: svc.decision_function(Xte), args.repeats)
            p_ours, _ = median_time(lambda ours=ours: ours.decision_function(Xte), args.repeats)
            row = {"n": n, "kernel": kernel, "fit_svc_s": t_svc, "fit_ours_s": t_ours,
                   "fit_ratio": t_ours / t_svc, "predict_svc_s": p_svc,
                   "predict_ours_s": p_ours, "predict_ratio": p_ours / p_svc,
                   "objective_svc": objective(svc, X, kernel, params),
                   "objective_ours": objective(ours, X, kernel, params),
                   "acc_svc": float(svc.score(Xte, yte)),
                   "acc_ours": float(ours.score(Xte, yte))}
            rows.append(row)
            print(f"  {kernel:8s} fit SVC {t_svc:7.2f} s  ours {t_ours:7.2f} s  "
                  f"({row['fit_ratio']:.2f}x)   predict 5000: SVC {p_svc:6.2f} s  ours "
                  f"{p_ours:6.2f} s ({row['predict_ratio']:.2f}x)   F: "
                  f"{row['objective_svc']:.6f} / {row['objective_ours']:.6f}   acc "
                  f"{row['acc_svc']:.4f} / {row['acc_ours']:.4f}", flush=True)
        t_ny, ny = median_time(lambda X=X, y=y: isvm.NystroemSVC(
            kernel="rbf", gamma=1.0, n_components=500, random_state=0).fit(X, y),
                               args.repeats)
        p_ny, _ = median_time(lambda ny=ny: ny.decision_function(Xte), args.repeats)
        rows.append({"n": n, "kernel": "rbf", "model": "NystroemSVC(500)", "fit_ours_s": t_ny,
                     "predict_ours_s": p_ny, "acc_ours": float(ny.score(Xte, yte))})
        print(f"  NystroemSVC(500) fit {t_ny:.2f} s, predict 5000 {p_ny:.2f} s, acc "
              f"{ny.score(Xte, yte):.4f}", flush=True)
    from sklearn.datasets import dump_svmlight_file

    with tempfile.TemporaryDirectory() as tmp:
        X, y = documents(sizes[-1], seed=sizes[-1])
        train, test, model = (os.path.join(tmp, f) for f in ("train.svm", "test.svm",
                                                              "m.skops"))
        dump_svmlight_file(X, y, train, zero_based=False)
        dump_svmlight_file(Xte, yte, test, zero_based=False)
        s_fit, mb_fit, _ = cli(["fit", train, "-C", "1", "--gamma", "1", "--cv", "0",
                                "--quiet", "--save", model])
        s_pred, mb_pred, said = cli(["predict", model, test, "--out", os.devnull])
        rows.append({"n": sizes[-1], "command": "fit -C 1 --gamma 1 --cv 0", "seconds": s_fit,
                     "peak_mb": mb_fit})
        rows.append({"n": 5000, "command": "predict", "seconds": s_pred, "peak_mb": mb_pred,
                     "said": said})
        print(f"\nindefsvm fit ({sizes[-1]} documents): {s_fit:.2f} s, peak {mb_fit:.0f} MB; "
              f"predict (5000): {s_pred:.2f} s, peak {mb_pred:.0f} MB ({said})")
    meta = {"machine": cpu_name(), "cores": os.cpu_count(), "python": platform.python_version(),
            "date": time.strftime("%Y-%m-%d"), "repeats": args.repeats,
            "command": " ".join(sys.argv)}
    if args.out:
        with open(args.out, "w") as fh:
            json.dump({"meta": meta, "rows": rows}, fh, indent=2)
    print(f"\n{meta}")


if __name__ == "__main__":
    main()
