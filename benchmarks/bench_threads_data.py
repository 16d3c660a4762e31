"""Two threads against one on other data than bench_cores.py's: NystroemSVC (2e5 x 20 rbf
vectors, 500 landmarks) and the binary SMO (n = 2e4, rbf), each on scikit-learn's
make_classification as bench_cores.py draws it ("bench": 10 informative features, 5 %
flipped labels) and as a newcomer drew it ("newcomer": also 4 redundant features and
class_sep=0.8), two seeds each.

    python benchmarks/bench_threads_data.py      # about 5 minutes on 2 cores

Each fit runs in a child process of its own with n_jobs=T; for NystroemSVC the features
alone (KreinNystroem fit + transform, the same landmarks) are timed after it in the same
child, so that the linear stage is the difference. Run it on a quiet machine.
"""

from __future__ import annotations

import json
import subprocess
import sys

CHILD = r'''
import json, sys, time
import numpy as np
import indefsvm as isvm
from sklearn.datasets import make_classification
task, data, seed, T = sys.argv[1], sys.argv[2], int(sys.argv[3]), int(sys.argv[4])
n = 200_000 if task == "ny" else 20_000
extra = {} if data == "bench" else {"n_redundant": 4, "class_sep": 0.8}
X, y = make_classification(n, 20, n_informative=10, flip_y=0.05, random_state=seed, **extra)
if task == "ny":
    clf = isvm.NystroemSVC(kernel="rbf", n_components=500, random_state=0, n_jobs=T)
    t = time.perf_counter(); clf.fit(X, y); total = time.perf_counter() - t
    ny = isvm.KreinNystroem("rbf", n_components=500, random_state=0, n_jobs=T)
    t = time.perf_counter(); ny.fit(X); ny.transform(X); features = time.perf_counter() - t
    out = {"total": total, "features": features, "n_iter": int(np.max(clf.n_iter_))}
else:
    clf = isvm.IndefiniteSVC(kernel="rbf", C=1.0, n_jobs=T)
    t = time.perf_counter(); clf.fit(X, y)
    out = {"total": time.perf_counter() - t, "n_iter": int(clf.n_iter_[0])}
print(json.dumps(out))
'''


def main() -> None:
    print("| task | data | seed | 1 thread s | 2 threads s | gain | features 1 / 2 s | "
          "linear stage 1 / 2 s | iterations |")
    print("|---|---|---|---|---|---|---|---|---|")
    for task in ("ny", "smo"):
        for data in ("bench", "newcomer"):
            for seed in (0, 1):
                r = {}
                for T in (1, 2):
                    run = subprocess.run([sys.executable, "-c", CHILD, task, data, str(seed),
                                          str(T)], capture_output=True, text=True, check=True)
                    r[T] = json.loads(run.stdout.strip().splitlines()[-1])
                one, two = r[1]["total"], r[2]["total"]
                feat = lin = "--"
                if task == "ny":
                    f1, f2 = r[1]["features"], r[2]["features"]
                    feat = f"{f1:.2f} / {f2:.2f}"
                    lin = f"{one - f1:.2f} / {two - f2:.2f}"
                name = "NystroemSVC 2e5" if task == "ny" else "binary SMO 2e4"
                print(f"| {name} | {data} | {seed} | {one:.2f} | {two:.2f} | {one / two:.2f} | "
                      f"{feat} | {lin} | {r[1]['n_iter']} |", flush=True)


if __name__ == "__main__":
    main()
