"""indefsvm's SMO against LIBSVM (scikit-learn's SVC) on the speed target's problems.

    python benchmarks/bench_vs_libsvm.py                # all problems, median of 3
    python benchmarks/bench_vs_libsvm.py --quick        # n = 5000 only, median of 1

Same run, same tol = 1e-3, kernel, C and cache_size = 200 MB. Problems: make_classification
(n = 5 000 and 20 000, 20 features scaled to [-1, 1]) with rbf (gamma = 1/d, C = 1 and 100),
sigmoid (a = 1/d) with r = -1, C = 1 and r = +1, C = 10; a1a (1 605 x 123, sparse binary,
C = 1, read from ../shared/data: the row is skipped, and the script says so, when it is
missing); kernel="precomputed" rbf on n = 5 000. For each: median fit time of both and their
ratio (ours / SVC), the dual objective F(alpha) of both computed the same way in float64, our
KKT gap recomputed from scratch in float64, and the peak resident memory of one fit of each
(measured in a child process, above the memory the data already take).
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
    out.append(("precomputed rbf n=5000 C=1", ("synthetic", 5000), "precomputed",
                {"gamma": 1 / 20}, 1.0))
    return out


def load(spec):
    name, n = spec
    if name == "synthetic":
        return synthetic(n)
    X, y = isvm.datasets.load_libsvm(A1A, n_features=123, dense=False)
    X.indices = X.indices.astype(np.int32)  # LIBSVM's wrapper takes 32-bit indices only
    X.indptr = X.indptr.astype(np.int32)
    return X, np.where(y > 0, 1.0, -1.0)


def models(kernel, params, C):
    if kernel == "precomputed":
        kw = dict(kernel="precomputed", C=C, tol=1e-3, cache_size=200)
    else:
        kw = dict(kernel=kernel, C=C, tol=1e-3, cache_size=200, **params)
    return SVC(**kw), isvm.IndefiniteSVC(**kw)


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


def child_memory(label, which):
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
svc, ours = b.models(spec[2], spec[3], spec[4])
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


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--quick", action="store_true")
    ap.add_argument("--repeats", type=int, default=None)
    ap.add_argument("--no-memory", action="store_true")
    ap.add_argument("--only", help="run the problems whose name contains this text")
    ap.add_argument("--json")
    args = ap.parse_args()
    repeats = args.repeats or (1 if args.quick else 3)
    print(f"machine: {platform.machine()}, {os.cpu_count()} cores, python "
          f"{platform.python_version()}; tol=1e-3, cache_size=200 MB, median of {repeats}")
    head = (f"{'problem':<36} {'SVC s':>7} {'ours s':>7} {'ratio':>6} {'F SVC':>14} "
            f"{'F ours':>14} {'rel':>8} {'our gap':>8} {'MB SVC':>7} {'MB ours':>7} {'mem':>5}")
    print(head)
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
        svc0, ours0 = models(kernel, params, C)
        t_svc, t_our = [], []
        for _ in range(repeats):
            m = clone(svc0)
            t0 = time.perf_counter()
            svc = m.fit(A, y)
            t_svc.append(time.perf_counter() - t0)
            m = clone(ours0)
            t0 = time.perf_counter()
            ours = m.fit(A, y)
            t_our.append(time.perf_counter() - t0)
        ts, to = statistics.median(t_svc), statistics.median(t_our)
        f_svc, _ = objective_and_gap(Kfull, y, alpha_of(svc, len(y)), C)
        f_our, gap = objective_and_gap(Kfull, y, alpha_of(ours, len(y)), C)
        mem_s = mem_o = float("nan")
        if not args.no_memory:
            mem_s, mem_o = child_memory(label, "svc"), child_memory(label, "ours")
        row = {"problem": label, "svc_s": ts, "ours_s": to, "ratio": to / ts, "F_svc": f_svc,
               "F_ours": f_our, "rel_diff": (f_our - f_svc) / abs(f_svc), "our_gap": gap,
               "converged": bool(ours.converged_), "mem_svc_mb": mem_s, "mem_ours_mb": mem_o,
               "mem_ratio": mem_o / mem_s if mem_s > 0 else float("nan")}
        rows.append(row)
        print(f"{label:<36} {ts:>7.2f} {to:>7.2f} {row['ratio']:>6.2f} {f_svc:>14.4f} "
              f"{f_our:>14.4f} {row['rel_diff']:>8.1e} {gap:>8.1e} {mem_s:>7.0f} {mem_o:>7.0f} "
              f"{row['mem_ratio']:>5.2f}", flush=True)
        del Kfull
    if rows:
        print(f"time ratio ours/SVC: max {max(r['ratio'] for r in rows):.2f}, median "
              f"{statistics.median(r['ratio'] for r in rows):.2f}")
    if args.json:
        with open(args.json, "w") as fh:
            json.dump(rows, fh, indent=2)


if __name__ == "__main__":
    main()
