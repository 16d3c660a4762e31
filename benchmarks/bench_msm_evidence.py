"""Move-split-merge against DTW on the same real series: 1-NN and the default remedy search
on each distance, official train / test splits -- is the second elastic distance worth a
user's time on these sets?

    python benchmarks/bench_msm_evidence.py --aeon-data DIR     # ~5 min on 2 cores

The series sets of ``bench_evidence.py`` (aeon's UCR / UEA sets, its bands: the full window,
10 % on series over 300 points; read from aeon's data folder or ``--aeon-data``, nothing from
../shared). For each distance, on the training set only: ``RemedySearchCV(kernel=
DistanceKernel())`` with its defaults (every method of the table with gamma, C and k, five
stratified folds, or fewer where a class is smaller); on the test set the error of its
choice and of 1-NN. MSM's cost c is its default 1 (Stefan et al. 2013 tune it; the series
of these sets are z-normalised, the scale c = 1 is meant for). Written to
``benchmarks/results/msm_evidence.json``.
"""

from __future__ import annotations

import argparse
import os
import sys
import time

import numpy as np
from _machine import cpu_name

import indefsvm as isvm

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from bench_distances import _save  # noqa: E402
from bench_evidence import _aeon_folder, _tasks  # noqa: E402


def _one(name, Str, ytr, Ste, yte, window, metric):
    t = time.perf_counter()
    pdist = isvm.PairwiseDistances(metric, window=window, n_jobs=-1)
    Dtr, Dte = pdist.fit_transform(Str), pdist.transform(Ste)
    t_dist = time.perf_counter() - t
    folds = int(min(5, np.unique(ytr, return_counts=True)[1].min()))
    search = isvm.RemedySearchCV(kernel=isvm.DistanceKernel(), cv=folds,
                                 random_state=0).fit(Dtr, ytr)
    return {"one_nn": float(np.mean(ytr[np.argmin(Dte, axis=1)] != yte)),
            "search": float(np.mean(search.predict(Dte) != yte)),
            "chosen": search.best_method_, "cv_error": 1 - float(search.best_score_),
            "seconds_distances": t_dist, "seconds": time.perf_counter() - t}


def main():
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--aeon-data", default=None)
    p.add_argument("--only", nargs="*", default=None)
    args = p.parse_args()
    rows = []
    for task in _tasks(_aeon_folder(args.aeon_data)):
        name, kind, (Str, ytr), (Ste, yte), window = task
        if kind != "series" or (args.only and name not in args.only):
            continue
        row = {"task": name, "window": window}
        for metric in ("dtw", "msm"):
            row[metric] = _one(name, Str, ytr, Ste, yte, window, metric)
        rows.append(row)
        d, m = row["dtw"], row["msm"]
        print(f"{name:24s} 1-NN DTW {100 * d['one_nn']:5.1f}  1-NN MSM {100 * m['one_nn']:5.1f}"
              f"  search DTW {100 * d['search']:5.1f} ({d['chosen']})  search MSM "
              f"{100 * m['search']:5.1f} ({m['chosen']})  MSM {m['seconds_distances']:.1f} s, "
              f"DTW {d['seconds_distances']:.1f} s", flush=True)
    if rows:
        mean = {f"{k} {mt}": 100 * float(np.mean([r[mt][k] for r in rows]))
                for mt in ("dtw", "msm") for k in ("one_nn", "search")}
        print("mean test error %: " + ", ".join(f"{k} {v:.1f}" for k, v in mean.items()))
        _save("msm_evidence.json", {"cpu": cpu_name(), "rows": rows, "mean": mean})


if __name__ == "__main__":
    main()
