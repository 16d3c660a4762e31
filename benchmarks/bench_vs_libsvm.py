"""indefsvm's SMO against LIBSVM (scikit-learn's SVC) on the speed target's problems.

    python benchmarks/bench_vs_libsvm.py                # all problems, median of 3
    python benchmarks/bench_vs_libsvm.py --quick        # n = 5000 only, median of 1
    python benchmarks/bench_vs_libsvm.py --n-jobs 1,2   # our thread counts (the default)

Same run, same tol = 1e-3, kernel, C and cache_size = 200 MB. Problems: make_classification
(n = 5 000 and 20 000, 20 features scaled to [-1, 1]) with rbf (gamma = 1/d, C = 1 and 100),
sigmoid (a = 1/d) with r = -1, C = 1 and r = +1, C = 10; a1a (1 605 x 123, sparse binary,
C = 1, read from ../shared/data: the row is skipped, and the script says so, when it is
missing); kernel="precomputed" rbf on n = 5 000 and 10 000. For each: median fit time of SVC
and of ours for each ``--n-jobs`` value, their ratios (ours / SVC; SVC runs on one core as it
is), the dual objective F(alpha) of both computed the same way in float64, our KKT gap
recomputed from scratch in float64, and the peak resident memory of one fit of each
(measured in a child process, above the memory the data already take; ours with the last
n_jobs value).

Prediction rows: ``decision_function`` on 100 000 test points (20 000 with --quick) of a
model fitted on n = 20 000 (5 000), rbf and sigmoid, SVC against ours for each n_jobs.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import statistics
import subprocess
import sys
import time

import numpy as np
from _machine import cpu_name
from sklearn.base import clone
from sklearn.datasets import make_classification
from sklearn.preprocessing import MinMaxScaler
from sklearn.svm import SVC

import indefsvm as isvm

HERE = os.path.dirname(os.path.abspath(__file__))
A1A = os.path.normpath(os.path.join(HERE, "..", "..", "shared", "data", "a1a"))


def synthetic(n):
    X, y = make_classification(n_samples=n, n_features=20, n_informative=10, n_redundant=4,
                               flip_y=0.05, class_sep=0.8, random_state=0)
    return MinMaxScaler(feature_range=(-1, 1)).fit_transform(X), np.where(y == 1, 1.0, -1.0)


def problems(quick):
    sizes = [5000] if quick else [5000, 20000]
    out = []
    for n in sizes:
        d = 20
        out += [
            (f"synthetic n={n} rbf C=1", ("synthetic", n), "rbf", {"gamma": 1 / d}, 1.0),
            (f"synthetic n={n} rbf C=100", ("synthetic", n), "rbf", {"gamma": 1 / d}, 100.0),
            (f"synthetic n={n} sigmoid r=-1 C=1", ("synthetic", n), "sigmoid",
             {"gamma": 1 / d, "coef0": -1.0}, 1.0),
            (f"synthetic n={n} sigmoid r=+1 C=10", ("synthetic", n), "sigmoid",
             {"gamma": 1 / d, "coef0": 1.0}, 10.0),
        ]
    out.append(("a1a rbf C=1 (sparse)", ("a1a", 0), "rbf", {"gamma": 1 / 123}, 1.0))
    for n in [5000] if quick else [5000, 10000]:
        out.append((f"precomputed rbf n={n} C=1", ("synthetic", n), "precomputed",
                    {"gamma": 1 / 20}, 1.0))
    return out


def predict_problems(quick):
    n, m = (5000, 20000) if quick else (20000, 100000)
    return [(f"decision_function {m} x (rbf model n={n})", n, m, "rbf", {"gamma": 1 / 20}, 1.0),
            (f"decision_function {m} x (sigmoid model n={n})", n, m, "sigmoid",
             {"gamma": 1 / 20, "coef0": -1.0}, 1.0)]


def load(spec):
    name, n = spec
    if name == "synthetic":
        return synthetic(n)
    X, y = isvm.datasets.load_libsvm(A1A, n_features=123, dense=False)
    X.indices = X.indices.astype(np.int32)  # LIBSVM's wrapper takes 32-bit indices only
    X.indptr = X.indptr.astype(np.int32)
    return X, np.where(y > 0, 1.0, -1.0)


def models(kernel, params, C, n_jobs=None):
    if kernel == "precomputed":
        kw = dict(kernel="precomputed", C=C, tol=1e-3, cache_size=200)
    else:
        kw = dict(kernel=kernel, C=C, tol=1e-3, cache_size=200, **params)
    return SVC(**kw), isvm.IndefiniteSVC(**kw, n_jobs=n_jobs)


def objective_and_gap(K, y, alpha, C):
    v = alpha * y
    grad = y * (K @ v) - 1.0
    g = -y * grad
    up = ((alpha < C) & (y > 0)) | ((alpha > 0) & (y < 0))
    low = ((alpha < C) & (y < 0)) | ((alpha > 0) & (y > 0))
    return 0.5 * v @ (K @ v) - alpha.sum(), g[up].max() - g[low].min()


def alpha_of(model, n):
    if isinstance(model, SVC):
        a = np.zeros(n)
        dc = model.dual_coef_
        dc = dc.toarray() if hasattr(dc, "toarray") else dc  # sparse input, sparse coefs
        a[model.support_] = np.abs(dc[0])
        return a
    return model.alpha_


def child_memory(label, which, n_jobs=None):
    """Peak resident memory (MB) of one fit in a fresh process, above the memory in use just
    before the fit (Linux: the high-water mark is reset through /proc/self/clear_refs)."""
    code = f"""
import sys
sys.path.insert(0, {HERE!r})
import bench_vs_libsvm as b
spec = [p for p in b.problems(False) if p[0] == {label!r}][0]
X, y = b.load(spec[1])
if spec[2] == "precomputed":
    import indefsvm as isvm
    X = isvm.kernel_matrix(X, kernel="rbf", **spec[3])
svc, ours = b.models(spec[2], spec[3], spec[4], {n_jobs!r})
def status(key):
    for line in open("/proc/self/status"):
        if line.startswith(key):
            return int(line.split()[1]) / 1024
with open("/proc/self/clear_refs", "w") as fh:
    fh.write("5")  # reset VmHWM to the current RSS
before = status("VmRSS:")
(svc if {which!r} == "svc" else ours).fit(X, y)
print(status("VmHWM:") - before)
"""
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    try:
        return float(out.stdout.strip().splitlines()[-1])
    except (IndexError, ValueError):
        return float("nan")


def timed_fit(model, A, y, repeats):
    times, fitted = [], None
    for _ in range(repeats):
        m = clone(model)
        t0 = time.perf_counter()
        fitted = m.fit(A, y)
        times.append(time.perf_counter() - t0)
    return statistics.median(times), fitted


def predict_rows(quick, repeats, jobs):
    """decision_function time of SVC and of ours (each n_jobs) on the same fitted problem."""
    rows = []
    for label, n, m, kernel, params, C in predict_problems(quick):
        X, y = synthetic(n + m)
        Xtr, ytr, Xte = X[:n], y[:n], X[n:]
        svc, ours = models(kernel, params, C)
        svc.fit(Xtr, ytr)
        ours.fit(Xtr, ytr)
        t_svc, d_svc = _timed(svc.decision_function, Xte, repeats)
        times = {}
        for j in jobs:
            ours.set_params(n_jobs=j)
            times[j], d_our = _timed(ours.decision_function, Xte, repeats)
        rel = float(np.max(np.abs(d_our - d_svc)) / np.max(np.abs(d_svc)))
        rows.append({"problem": label, "svc_s": t_svc, "n_sv_svc": int(svc.support_.size),
                     "n_sv_ours": int(ours.support_.size),
                     **{f"ours_s_jobs{j}": times[j] for j in jobs},
                     **{f"ratio_jobs{j}": times[j] / t_svc for j in jobs},
                     "max_rel_diff": rel})
        cells = " ".join(f"{times[j]:>7.2f} {times[j] / t_svc:>6.2f}" for j in jobs)
        print(f"{label:<44} {t_svc:>7.2f} {cells}  SVs {svc.support_.size}/{ours.support_.size}"
              f"  max |d_ours - d_SVC| / max |d_SVC| = {rel:.1e}", flush=True)
    return rows


def _timed(call, arg, repeats):
    times, out = [], None
    for _ in range(repeats):
        t0 = time.perf_counter()
        out = call(arg)
        times.append(time.perf_counter() - t0)
    return statistics.median(times), out


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--quick", action="store_true")
    ap.add_argument("--repeats", type=int, default=None)
    ap.add_argument("--no-memory", action="store_true")
    ap.add_argument("--no-predict", action="store_true")
    ap.add_argument("--only", help="run the problems whose name contains this text")
    ap.add_argument("--n-jobs", default="1,2", help="our thread counts, comma-separated")
    ap.add_argument("--json")
    args = ap.parse_args()
    jobs = [int(j) for j in args.n_jobs.split(",")]
    repeats = args.repeats or (1 if args.quick else 3)
    print(f"machine: {platform.machine()} {cpu_name()}, {os.cpu_count()} cores, python "
          f"{platform.python_version()}; tol=1e-3, cache_size=200 MB, median of {repeats}; "
          f"SVC on one core, ours with n_jobs = {jobs}")
    cols = " ".join(f"{'j' + str(j) + ' s':>7} {'ratio':>6}" for j in jobs)
    print(f"{'problem':<36} {'SVC s':>7} {cols} {'F SVC':>14} {'F ours':>14} {'rel':>8} "
          f"{'our gap':>8} {'MB SVC':>7} {'MB ours':>7} {'mem':>5}")
    rows = []
    for label, spec, kernel, params, C in problems(args.quick):
        if args.only and args.only not in label:
            continue
        if spec[0] == "a1a" and not os.path.exists(A1A):
            print(f"{label:<36} skipped: {A1A} is missing (benchmarks read ../shared/data)")
            continue
        X, y = load(spec)
        if kernel == "precomputed":
            A = isvm.kernel_matrix(X, kernel="rbf", **params)
            Kfull = A
        else:
            A = X
            Xd = X.toarray() if hasattr(X, "toarray") else X
            Kfull = isvm.kernel_matrix(Xd, kernel=kernel, **params)
        svc0, _ = models(kernel, params, C)
        ts, svc = timed_fit(svc0, A, y, repeats)
        times = {}
        for j in jobs:
            times[j], ours = timed_fit(models(kernel, params, C, j)[1], A, y, repeats)
        f_svc, _ = objective_and_gap(Kfull, y, alpha_of(svc, len(y)), C)
        f_our, gap = objective_and_gap(Kfull, y, alpha_of(ours, len(y)), C)
        mem_s = mem_o = float("nan")
        if not args.no_memory:
            mem_s = child_memory(label, "svc")
            mem_o = child_memory(label, "ours", jobs[-1])
        row = {"problem": label, "svc_s": ts,
               **{f"ours_s_jobs{j}": times[j] for j in jobs},
               **{f"ratio_jobs{j}": times[j] / ts for j in jobs},
               "F_svc": f_svc, "F_ours": f_our, "rel_diff": (f_our - f_svc) / abs(f_svc),
               "our_gap": gap, "converged": bool(ours.converged_), "mem_svc_mb": mem_s,
               "mem_ours_mb": mem_o, "mem_ratio": mem_o / mem_s if mem_s > 0 else float("nan")}
        rows.append(row)
        cells = " ".join(f"{times[j]:>7.2f} {times[j] / ts:>6.2f}" for j in jobs)
        print(f"{label:<36} {ts:>7.2f} {cells} {f_svc:>14.4f} {f_our:>14.4f} "
              f"{row['rel_diff']:>8.1e} {gap:>8.1e} {mem_s:>7.0f} {mem_o:>7.0f} "
              f"{row['mem_ratio']:>5.2f}", flush=True)
        del Kfull
    for j in jobs:
        r = [row[f"ratio_jobs{j}"] for row in rows]
        if r:
            print(f"fit time ratio ours/SVC, n_jobs={j}: max {max(r):.2f}, median "
                  f"{statistics.median(r):.2f}")
    prows = []
    if not args.no_predict and not args.only:
        print(f"{'prediction':<44} {'SVC s':>7} "
              + " ".join(f"{'j' + str(j) + ' s':>7} {'ratio':>6}" for j in jobs))
        prows = predict_rows(args.quick, repeats, jobs)
    if args.json:
        with open(args.json, "w") as fh:
            json.dump({"fit": rows, "predict": prows}, fh, indent=2)


if __name__ == "__main__":
    main()
