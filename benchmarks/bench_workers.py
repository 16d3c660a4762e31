"""joblib's workers: the folds of ``compare_remedies`` and the tasks of ``RemedySearchCV`` in
one worker against two, and the library's rule (``indefsvm._threads.joblib_workers``: no
more workers than tasks or idle cores, one below a size where a worker costs more than it
saves) against joblib's own count.

    python benchmarks/bench_workers.py               # about 4 minutes on 2 cores
    python benchmarks/bench_workers.py --sizes 270,600 --repeats 5   # rows of other sizes kept

Data: scikit-learn's ``make_classification`` (10 features, seed 0), the sigmoid kernel
``tanh(0.05 x'y - 0.5)``; ``compare_remedies(K, y, cv=5)`` with every method, and
``RemedySearchCV(kernel=FeatureKernel("sigmoid", coef0=-0.5))`` with its default grid on the
features. Each figure is the median of ``--repeats`` runs, each in a fresh child process (a
worker pool is not reused between figures), the call alone timed. "joblib's count" calls
the same code with the rule replaced by ``n_jobs`` as given (what ran before the rule);
"the rule" is the library as it is. Then ``indefsvm compare --dataset heart --cv 3
--n-jobs 50`` as a whole command, the rule against joblib's count. Prints a markdown table
and writes ``benchmarks/results/workers.json``.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import time

CHILD = r"""
import sys, time, warnings
warnings.simplefilter("ignore")
import numpy as np
from sklearn.datasets import make_classification
import indefsvm as isvm
from indefsvm.remedies import _compare, _search
what, n, n_jobs, raw = sys.argv[1], int(sys.argv[2]), int(sys.argv[3]), sys.argv[4] == "raw"
if raw:  # joblib's own count: the rule replaced by n_jobs as given
    for mod in (_compare, _search):
        mod.joblib_workers = lambda n_jobs, n_tasks, rows=None, small=None: n_jobs
X, y = make_classification(n, 10, random_state=0)
t = time.perf_counter()
if what == "compare":
    K = isvm.kernel_matrix(X, kernel="sigmoid", gamma=0.05, coef0=-0.5)
    t = time.perf_counter()
    isvm.compare_remedies(K, y, cv=5, n_jobs=n_jobs, random_state=0)
else:
    isvm.RemedySearchCV(kernel=isvm.FeatureKernel("sigmoid", coef0=-0.5), n_jobs=n_jobs,
                        random_state=0).fit(X, y)
print(time.perf_counter() - t)
"""

CLI = r"""
import sys, time
from indefsvm.remedies import _compare
if sys.argv[1] == "raw":
    _compare.joblib_workers = lambda n_jobs, n_tasks, rows=None, small=None: n_jobs
from indefsvm.cli import main
t = time.perf_counter()
code = main(["compare", "--dataset", "heart", "--cv", "3", "--n-jobs", "50", "--quiet"])
print(time.perf_counter() - t if code == 0 else -1)
"""


def run(code: str, *args) -> float:
    out = subprocess.run([sys.executable, "-c", code, *map(str, args)], capture_output=True,
                         text=True, check=True, env={**os.environ, "PYTHONWARNINGS": "ignore"})
    return float(out.stdout.strip().splitlines()[-1])


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--sizes", default="270,600,1000,1600")
    ap.add_argument("--repeats", type=int, default=1)
    args = ap.parse_args()
    sizes = [int(s) for s in args.sizes.split(",")]
    rows = []
    for what in ("compare", "search"):
        for n in sizes:
            fig = {}
            for label, n_jobs, raw in (("one", 1, "raw"), ("two", 2, "raw"),
                                       ("rule", 2, "rule")):
                fig[label] = statistics.median(run(CHILD, what, n, n_jobs, raw)
                                               for _ in range(args.repeats))
            rows.append({"what": what, "n": n, "repeats": args.repeats, **fig})
            print(f"{what} n={n}: one worker {fig['one']:.2f} s, two {fig['two']:.2f} s, "
                  f"n_jobs=2 with the rule {fig['rule']:.2f} s", flush=True)
    t_raw = run(CLI, "raw")
    t_rule = run(CLI, "rule")
    print()
    print("| call | n | one worker | two workers (joblib's count) | n_jobs=2, the rule | "
          "rule / best of the two |")
    print("|---|---|---|---|---|---|")
    for r in rows:
        best = min(r["one"], r["two"])
        print(f"| {r['what']} | {r['n']} | {r['one']:.2f} s | {r['two']:.2f} s | "
              f"{r['rule']:.2f} s | {r['rule'] / best:.2f} |")
    print(f"\n`indefsvm compare --dataset heart --cv 3 --n-jobs 50`: joblib's count "
          f"{t_raw:.1f} s, the rule {t_rule:.1f} s ({t_raw / t_rule:.1f}x)")
    # the rows of other sizes stay from earlier runs (e.g. small sizes with more repeats)
    out = os.path.join(os.path.dirname(__file__), "results", "workers.json")
    os.makedirs(os.path.dirname(out), exist_ok=True)
    kept = []
    if os.path.exists(out):
        with open(out) as f:
            done = {(r["what"], r["n"]) for r in rows}
            kept = [r for r in json.load(f)["rows"] if (r["what"], r["n"]) not in done]
    with open(out, "w") as f:
        json.dump({"rows": sorted(kept + rows, key=lambda r: (r["what"], r["n"])),
                   "cli_n_jobs_50": {"raw": t_raw, "rule": t_rule},
                   "cpu_count": os.cpu_count(), "when": time.strftime("%Y-%m-%d")}, f,
                  indent=1)


if __name__ == "__main__":
    main()
