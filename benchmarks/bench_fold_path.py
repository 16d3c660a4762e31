"""The remedy search's C path on one fold: one compiled call a C over every one-vs-one
problem (``DualPath``), against the engine it replaced -- ``solve_duals`` a C, its
problems built and checked and its results wrapped in Python every time -- in the same
process, in alternation.

    python benchmarks/bench_fold_path.py                      # generated 3-, 6- and 10-class sets
    python benchmarks/bench_fold_path.py --aeon-data DIR      # and aeon's JapaneseVowels (9)

A full ``RemedySearchCV`` (every method, 7 C, 5 x 5 repeated folds) on a move-split-merge
distance kernel; the peer is the same search with the fold engine's ``_svm_path`` replaced
by the former one (below, the same algorithm: warm starts, the same tasks, the same
compiled loop). Both must give the same fold scores, compared split by split; the ratio
is the peer's seconds over ours, the median of ``--repeats``. Generated sets: random-walk
series with a class shape added (``_shapes``); nothing here reads ../shared.
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import time

import numpy as np
from _machine import cpu_name
from sklearn.model_selection import RepeatedStratifiedKFold, check_cv

import indefsvm as isvm
import indefsvm.remedies._folds as folds_module
from indefsvm.solvers._smo import csvc_problem, solve_duals

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from bench_distances import _save  # noqa: E402  (results/<name>, said on stdout)

CS = [0.01, 0.1, 1.0, 10.0, 100.0, 1e3, 1e4]


def _former_svm_path(Kf, Rf, y_idx, classes, w, Cs, warm, scorer, y_te, w_te=None):
    """The fold engine before DualPath: solve_duals for each C (a dict, a check and a
    SolverResult per problem); the fold model and its scoring are ours."""
    members = folds_module._pairs(y_idx, classes.shape[0], w)
    n = y_idx.shape[0]
    out, last, C_last = {}, None, None
    Kf = np.ascontiguousarray(Kf, dtype=np.float64)
    offsets = np.cumsum([0] + [m[3].shape[0] for m in members])
    rows = np.concatenate([m[3] for m in members])
    pair_of = np.repeat(np.arange(len(members)), np.diff(offsets))
    for C in sorted(Cs):
        t0 = time.perf_counter()
        problems = []
        for p, (_, _, _, idx, s) in enumerate(members):
            C_pair = float(C) * w[idx]
            start = (np.zeros(idx.shape[0]) if last is None or not warm
                     else np.minimum(last[p] * (C / C_last), C_pair))
            problems.append(csvc_problem(s, C_pair, [start], idx=idx, n=n))
        res = solve_duals(Kf, problems, check_input=False)
        t1 = time.perf_counter()
        last, C_last = [r.alpha for r in res], C
        coef = np.concatenate([r.alpha * m[4] for r, m in zip(res, members, strict=True)])
        model = folds_module._FoldModel()._set(classes, [m[:3] for m in members], n, rows,
                                               pair_of, offsets, coef, [r.b for r in res])
        score, one = folds_module._score(scorer, model, Rf, y_te, w_te)
        sv = np.zeros(n, dtype=bool)
        sv[rows[coef != 0]] = True
        out[C] = (score, t1 - t0, time.perf_counter() - t1, int(sv.sum()),
                  all(r.converged for r in res), one)
    return out


def _shapes(n_classes, per_class, length=60, seed=0):
    """Random walks with one of ``n_classes`` bumps added at a class position."""
    rng = np.random.default_rng(seed)
    t = np.linspace(0, 1, length)
    X, y = [], []
    for c in range(n_classes):
        centre = (c + 0.5) / n_classes
        bump = 3.0 * np.exp(-((t - centre) / 0.06) ** 2)
        for _ in range(per_class):
            X.append(np.cumsum(rng.normal(0, 0.3, length)) + bump)
            y.append(c)
    return np.array(X), np.array(y)


def _sets(aeon):
    out = [(f"generated, {k} classes x 20", *_shapes(k, 20)) for k in (3, 6, 10)]
    if aeon is None:
        print("--aeon-data not given: aeon's JapaneseVowels is left out", flush=True)
    else:
        path = os.path.join(aeon, "JapaneseVowels", "JapaneseVowels_TRAIN.ts")
        if not os.path.exists(path):
            print(f"{path} is missing: left out", flush=True)
        else:
            tr = isvm.datasets.load_file(path, objects="series")
            out.append(("JapaneseVowels (aeon), 9 classes", tr.X, np.asarray(tr.y)))
    return out


def _search(D, y):
    cv = check_cv(RepeatedStratifiedKFold(n_splits=5, n_repeats=5, random_state=0), y,
                  classifier=True)
    t = time.perf_counter()
    s = isvm.RemedySearchCV(kernel=isvm.DistanceKernel(), cv=cv, param_grid={"C": CS},
                            n_jobs=1).fit(D, y)
    return time.perf_counter() - t, s.cv_results_


def main():
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--aeon-data", help="aeon's datasets/data folder (JapaneseVowels)")
    p.add_argument("--repeats", type=int, default=3)
    args = p.parse_args()
    ours = folds_module._svm_path
    rows = []
    for name, X, y in _sets(args.aeon_data):
        D = isvm.pairwise_distances(X, metric="msm", n_jobs=1)
        times = {"DualPath": [], "solve_duals a C": []}
        results = {}
        for _ in range(args.repeats):
            for tag, engine in (("DualPath", ours), ("solve_duals a C", _former_svm_path)):
                folds_module._svm_path = engine
                try:
                    sec, res = _search(D, y)
                finally:
                    folds_module._svm_path = ours
                times[tag].append(sec)
                results[tag] = res
        a, b = results["DualPath"], results["solve_duals a C"]
        same = all(np.array_equal(a[k], b[k], equal_nan=True) for k in a
                   if k.startswith("split"))
        med = {k: statistics.median(v) for k, v in times.items()}
        row = {"set": name, "n": int(y.shape[0]), "classes": int(np.unique(y).shape[0]),
               "candidates": len(a["params"]), "seconds": med,
               "ratio": med["solve_duals a C"] / med["DualPath"], "same_scores": same}
        rows.append(row)
        print(f"{name:34s} DualPath {med['DualPath']:6.1f} s  solve_duals a C "
              f"{med['solve_duals a C']:6.1f} s  ratio {row['ratio']:.2f}x  same fold "
              f"scores: {same}", flush=True)
    _save("fold_path.json", {"cpu": cpu_name(), "repeats": args.repeats, "rows": rows})


if __name__ == "__main__":
    main()
