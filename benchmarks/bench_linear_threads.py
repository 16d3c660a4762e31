"""Where the linear SVM's time goes on many threads: passes by active-set size, thread rules.

    python benchmarks/bench_linear_threads.py                       # 2e5 rows, 1 and 2 threads
    python benchmarks/bench_linear_threads.py --threads 1,2,4,8,16 --rules default,share-all
    python benchmarks/bench_linear_threads.py --n 1000000 \
        --out benchmarks/results/linear_threads_1e6.json

Issue 42's 16-core targets (NystroemSVC on 2e5 vectors 8x over one core; 10^6 vectors in 5 s)
are not met: on the GPU machine's 16 cores the 2e5 fit took 4.29 s against 7.79 s on one.
This script says why on the machine it runs on, for the linear stage alone (the features are
made once, first, as ``NystroemSVC(kernel="rbf", n_components=500)`` makes them on
``make_classification(n, 20, n_informative=10, flip_y=0.05)``, C = 1, tol = 1e-3): for each
thread count and each rule of sharing the passes, the time, the passes, the shared and
undone passes, and the time spent in passes over active sets of each size -- the passes over
a small shrunk set run on one thread, the ones over many rows on all of them.

The rules (module constants of ``indefsvm._solvers._linsvm``, set here for the run only):

* ``default``: the library's -- two threads share every pass of 10^6 rows x features or
  more, in blocks of 16 rows; three or more only passes over a quarter of the rows or more,
  in blocks of 64.
* ``share-all``: three threads or more share every pass of that much work too (blocks of
  64); the up-hill guard (a shared pass that raises the augmented Lagrangian is undone and
  the threads halved) stays.
* ``share-all-16``: the same in blocks of 16 rows.

Each configuration runs in this process one after the other (the features shared); the
first run of a thread count is not repeated. Writes JSON (``--out``, default
``benchmarks/results/linear_threads.json``) and prints a markdown table.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import time
import warnings
from pathlib import Path

import numpy as np

HERE = Path(__file__).resolve().parent
#: active-set sizes (shares of the rows, then row counts) the pass times are summed over
BUCKETS = (("all rows", None), (">= 1/4", 0.25), ("5 000 - 1/4", 5_000), ("< 5 000", 0))
RULES = {
    "default": {},
    "share-all": {"PARALLEL_SHARE": 10**9},
    "share-all-16": {"PARALLEL_SHARE": 10**9, "BLOCK": 16},
}


def features(n: int, seed: int = 0):
    """The float32 features and +-1 labels of NystroemSVC's binary problem on ``n`` rows."""
    from sklearn.datasets import make_classification

    import indefsvm as isvm

    X, y = make_classification(n, 20, n_informative=10, flip_y=0.05, random_state=0)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # max_iter=1: only the feature map is wanted
        clf = isvm.NystroemSVC(kernel="rbf", n_components=500, random_state=seed,
                               max_iter=1, n_jobs=-1).fit(X[:2000], y[:2000])
    Z = clf.nystroem_._features(X, np.float32, clf.n_features_used_)
    return np.ascontiguousarray(Z, dtype=np.float32), np.where(y == 1, 1.0, -1.0)


def run(Z, y, threads: int, rule: str, seed: int = 0) -> dict:
    """The coordinate descent on ``threads`` threads under ``rule``: its figures."""
    from threadpoolctl import threadpool_limits

    from indefsvm._solvers import _linsvm

    n = Z.shape[0]
    saved = {k: getattr(_linsvm, k) for k in RULES[rule]}
    passes: list = []
    last = [0.0]

    def progress(p, gap, active):
        now = time.perf_counter()
        passes.append((p, active, now - last[0]))
        last[0] = now

    rows = np.arange(n, dtype=np.intp)
    try:
        for k, v in RULES[rule].items():
            setattr(_linsvm, k, v)
        with threadpool_limits(1):  # as linear_svc runs it
            t0 = last[0] = time.perf_counter()
            out = _linsvm.dcd_svc(Z, rows, y, np.ones(n), 1e-3, 100_000, seed, threads,
                                  progress)
            seconds = time.perf_counter() - t0
    finally:
        for k, v in saved.items():
            setattr(_linsvm, k, v)
    # a pass's time is credited to the active set it started from (the one after the
    # pass before; all rows for the first)
    rec = np.array(passes, dtype=float).reshape(-1, 3)
    start = np.r_[n, rec[:-1, 1]] if len(rec) else np.zeros(0)
    split = {}
    for name, lo in BUCKETS:
        if lo is None:
            m = start >= n
        elif lo == 0.25:
            m = (start >= 0.25 * n) & (start < n)
        elif lo == 5_000:
            m = (start >= 5_000) & (start < 0.25 * n)
        else:
            m = start < 5_000
        split[name] = {"passes": int(m.sum()), "seconds": float(rec[m, 2].sum())}
    return {"threads": threads, "rule": rule, "seconds": seconds,
            "passes": int(out["n_passes"]), "shared": int(out["shared"]),
            "undone": int(out["undone"]), "threads_at_end": int(out["threads"]),
            "converged": bool(out["converged"]), "kkt_gap": float(out["kkt_gap"]),
            "objective": float(out["objective"]), "by_active_set": split}


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--n", type=int, default=200_000, help="rows (default 2e5)")
    ap.add_argument("--threads", default="1,2", help="thread counts (default 1,2)")
    ap.add_argument("--rules", default="default,share-all,share-all-16",
                    help="comma-separated: " + ", ".join(RULES))
    ap.add_argument("--seed", type=int, default=0, help="seed of the pass order")
    ap.add_argument("--out", default=str(HERE / "results" / "linear_threads.json"))
    args = ap.parse_args()
    sys.path.insert(0, str(HERE))
    from _machine import cpu_name

    rules = args.rules.split(",")
    for r in rules:
        if r not in RULES:
            ap.error(f"unknown rule {r!r}; choose from {', '.join(RULES)}")
    t0 = time.perf_counter()
    Z, y = features(args.n)
    made = time.perf_counter() - t0
    print(f"{args.n} x {Z.shape[1]} float32 features in {made:.1f} s "
          f"({os.cpu_count()} CPUs, {cpu_name()})", flush=True)
    results = []
    print("| threads | rule | time (s) | passes | shared | undone | "
          + " | ".join(f"{b} (passes, s)" for b, _ in BUCKETS) + " |")
    print("|---" * (6 + len(BUCKETS)) + "|")
    for th in (int(t) for t in args.threads.split(",")):
        for rule in rules:
            if th <= 2 and rule != "default":
                continue  # the rules differ from three threads on
            res = run(Z, y, th, rule, args.seed)
            results.append(res)
            cells = " | ".join(f"{v['passes']}, {v['seconds']:.2f}"
                               for v in res["by_active_set"].values())
            print(f"| {th} | {rule} | {res['seconds']:.2f} | {res['passes']} | "
                  f"{res['shared']} | {res['undone']} | {cells} |", flush=True)
    Path(args.out).parent.mkdir(parents=True, exist_ok=True)
    Path(args.out).write_text(json.dumps({
        "n": args.n, "features": int(Z.shape[1]), "features_seconds": made,
        "cpus": os.cpu_count(), "machine": cpu_name(),
        "date": time.strftime("%Y-%m-%d"), "results": results}, indent=1))
    print(f"written to {args.out}")


if __name__ == "__main__":
    main()
