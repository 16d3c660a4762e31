"""Memory probe: is the memory a call says it needs the memory it takes?

    python benchmarks/memory_probe.py                 # n = 3 000, every case (~4 minutes)
    python benchmarks/memory_probe.py --n 4000 --cases compare_3_2 search_3_2

Each case runs in a fresh process on a sigmoid kernel (or the Euclidean distances) of ``n``
random points, loaded from ``.npy`` files so that nothing but the call allocates. Two
figures, in float64 ``n x n`` matrices beside the input:

- ``process``: the high-water mark of the process's resident memory (``VmHWM``, reset to
  the resident memory just before the call through ``/proc/self/clear_refs``);
- ``machine``: the largest drop of the machine's ``MemAvailable`` during the call, polled
  every 20 ms: it counts joblib's worker processes (their start, about 150 MB each) and the
  memory-mapped copies they share. ``MemAvailable`` is the kernel's estimate: on one process
  it differs from ``process`` by up to 2 matrices either way at n = 3 000.

Beside them, ``said``: the figure the library checks against the memory available before
the work (``check_memory``), where it has one. The figures of the fixes, the Krein SVM,
the comparison and the search (``_fix_base.folds_matrices``) come from this probe.
Writes ``benchmarks/results/memory_probe.json``. Linux only (``/proc``).
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile

import numpy as np

CHILD = r'''
import gc, json, sys, threading, warnings
warnings.simplefilter("ignore")
import numpy as np
case, n, d = sys.argv[1], int(sys.argv[2]), sys.argv[3]
X = np.load(f"{d}/X.npy"); y = np.load(f"{d}/y.npy")
K = np.load(f"{d}/K.npy") if not case.startswith(("km_", "check_X")) else None
D = np.load(f"{d}/D.npy") if case.startswith(("dk_", "check_D")) else None
import indefsvm as isvm
from indefsvm import remedies
from indefsvm.diagnostics import check_distances, check_kernel
# the imports and BLAS buffers of the calls, before the mark is reset
small = np.random.default_rng(0).normal(size=(60, 60)); np.linalg.eigh(small + small.T)
remedies.KreinSVC(kernel="precomputed").fit(small @ small.T, np.repeat([0, 1], 30))

FIX = {"clip": remedies.ClipEigenvalues, "flip": remedies.FlipEigenvalues,
       "shift": remedies.ShiftEigenvalues, "square": remedies.SquareKernel,
       "advshift": remedies.AdvancedShiftEigenvalues}

def run():
    if case.startswith("km_"):
        isvm.kernel_matrix(X, kernel=case[3:])
    elif case.startswith("dk_"):
        isvm.DistanceKernel(kind=case[3:]).fit_transform(D)
    elif case == "check_D":
        check_distances(D)
    elif case == "check_X":
        check_kernel(X=X, y=y, kernel="sigmoid", gamma=0.5, coef0=-1.0)
    elif case.startswith("fit_"):
        FIX[case[4:]]().fit(K)
    elif case in FIX:
        FIX[case]().fit_transform(K)
    elif case == "krein":
        remedies.KreinSVC(kernel="precomputed").fit(K, y)
    elif case.startswith("compare_"):
        cv, jobs = map(int, case.split("_")[1:])
        remedies.compare_remedies(K, y, cv=cv, n_jobs=jobs)
    elif case.startswith("search_"):
        cv, jobs = map(int, case.split("_")[1:])
        remedies.RemedySearchCV(cv=cv, n_jobs=jobs, param_grid={"C": [1.0]}).fit(K, y)
    else:
        raise SystemExit(f"unknown case {case}")

def status(key):
    for line in open("/proc/self/status"):
        if line.startswith(key):
            return int(line.split()[1]) * 1024

def available():
    for line in open("/proc/meminfo"):
        if line.startswith("MemAvailable"):
            return int(line.split()[1]) * 1024

gc.collect()
low = [available()]
top = low[0]
stop = threading.Event()
def poll():
    while not stop.is_set():
        low[0] = min(low[0], available())
        stop.wait(0.02)
threading.Thread(target=poll, daemon=True).start()
open("/proc/self/clear_refs", "w").write("5")
base = status("VmRSS")
run()
stop.set()
one = 8.0 * n * n
print(json.dumps({"process": (status("VmHWM") - base) / one, "machine": (top - low[0]) / one}))
'''


def said(case: str, n: int) -> float | None:
    """The figure the library checks before the work, in n x n matrices."""
    from indefsvm import remedies
    from indefsvm.remedies._compare import COMPARE_FOLD, SEARCH_FOLD, SEARCH_REFIT
    from indefsvm.remedies._fix_base import folds_matrices

    fixes = {"clip": remedies.ClipEigenvalues, "flip": remedies.FlipEigenvalues,
             "shift": remedies.ShiftEigenvalues, "square": remedies.SquareKernel,
             "advshift": remedies.AdvancedShiftEigenvalues}
    if case.startswith("km_"):
        return 1.0
    if case == "check_D":
        return 4.0
    if case == "check_X":
        return 2.5
    if case.startswith("fit_"):
        return fixes[case[4:]]._fit_matrices
    if case in fixes:
        return fixes[case]._transform_matrices
    if case == "krein":
        return remedies.FlipEigenvalues._transform_matrices
    if case.startswith(("compare_", "search_")):
        cv, jobs = map(int, case.split("_")[1:])
        n_train = n - n // cv
        if case.startswith("compare_"):
            return folds_matrices(n, n_train, cv, jobs, COMPARE_FOLD)
        return max(folds_matrices(n, n_train, cv, jobs, SEARCH_FOLD), SEARCH_REFIT)
    return None  # the distance kernels: pairwise_distances' check covers D itself


CASES = ["km_rbf", "km_sigmoid", "km_polynomial", "km_l1_gaussian", "km_tl1", "dk_rbf",
         "dk_polynomial", "check_D", "check_X", "fit_clip", "clip", "flip", "shift",
         "square", "advshift", "krein", "compare_3_1", "compare_3_2", "search_3_1",
         "search_3_2"]


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--n", type=int, default=3000)
    ap.add_argument("--cases", nargs="*", default=CASES)
    ap.add_argument("--out", default=os.path.join(os.path.dirname(__file__), "results",
                                                  "memory_probe.json"))
    args = ap.parse_args()
    if not sys.platform.startswith("linux"):
        raise SystemExit("memory_probe.py reads /proc: Linux only")
    import indefsvm as isvm

    rng = np.random.default_rng(0)
    n = args.n
    X = rng.normal(size=(n, 5))
    y = np.where(X[:, 0] + 0.3 * rng.normal(size=n) > 0, 1, -1)
    rows = []
    with tempfile.TemporaryDirectory() as d:
        np.save(f"{d}/X.npy", X)
        np.save(f"{d}/y.npy", y)
        np.save(f"{d}/K.npy", isvm.kernel_matrix(X, kernel="sigmoid", gamma=0.5, coef0=-1.0))
        np.save(f"{d}/D.npy", isvm.pairwise_distances(X, metric="euclidean"))
        print(f"n = {n}; float64 n x n matrices beside the input")
        print(f"{'case':16s} {'process':>8s} {'machine':>8s} {'said':>6s}")
        for case in args.cases:
            out = subprocess.run([sys.executable, "-c", CHILD, case, str(n), d],
                                 capture_output=True, text=True)
            if out.returncode:
                print(f"{case:16s} failed: {out.stderr.strip().splitlines()[-1]}")
                continue
            r = json.loads(out.stdout.strip().splitlines()[-1])
            s = said(case, n)
            rows.append({"case": case, "n": n, **r, "said": s})
            print(f"{case:16s} {r['process']:8.2f} {r['machine']:8.2f} "
                  + ("     -" if s is None else f"{s:6.2f}"), flush=True)
    os.makedirs(os.path.dirname(args.out), exist_ok=True)
    with open(args.out, "w") as fh:
        json.dump(rows, fh, indent=1)


if __name__ == "__main__":
    main()
