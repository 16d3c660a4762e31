"""Lin & Lin Table 1 and 2: nested 5 x 5 cross-validation of SVM (RBF, sigmoid) and KLR.

    python benchmarks/linlin/table1.py --datasets heart --grid paper
    python benchmarks/linlin/table1.py --datasets heart german diabetes a1a --grid small

Outer 5 folds: each is predicted by a model trained on the other four, with parameters chosen
by an inner 5-fold CV on those four. Grids (seed 000, §7): log2 C, log2 a, r (RBF uses C and a
only). Table 2 figures (#SV, training and testing time of the sigmoid models) are averaged
over the outer folds. Results go to ``results/table1_<dataset>.json``. heart is bundled; the
other data sets are read from ../shared/data (the script says so when they are missing).
"""

from __future__ import annotations

import argparse
import itertools
import json
import os
import time
import warnings

import numpy as np
from common import GRIDS, HERE, PAPER_TABLE1, load
from sklearn.model_selection import StratifiedKFold

import indefsvm as isvm
from indefsvm.exceptions import ConvergenceWarning
from indefsvm.solvers import smo


def kernel(X, Y, kind, a, r):
    if kind == "rbf":
        return isvm.kernel_matrix(X, Y, kernel="rbf", gamma=a)
    return isvm.kernel_matrix(X, Y, kernel="sigmoid", gamma=a, coef0=r)


def fit_predict(model, K_tr, y_tr, K_te, C):
    """Train on a precomputed kernel and return (decision values on test, #SV, seconds)."""
    t0 = time.perf_counter()
    if model == "svm":
        res = smo(K_tr, y_tr, C=C, check_input=False, warn=False)
        coef, b, nsv = res.alpha * y_tr, res.b, int(np.count_nonzero(res.alpha))
    else:
        klr = isvm.KernelLogisticRegression(kernel="precomputed", C=C,
                                            solver="newton" if model == "klr-nt" else "cg")
        klr.fit(K_tr, y_tr)
        coef, b, nsv = klr.alpha_, klr.intercept_, int(np.count_nonzero(klr.alpha_))
    t_train = time.perf_counter() - t0
    t0 = time.perf_counter()
    dec = K_te @ coef + b
    return dec, nsv, t_train, time.perf_counter() - t0


def nested_cv(X, y, model, kind, grid, seed=0):
    outer = StratifiedKFold(5, shuffle=True, random_state=seed)
    params = (list(itertools.product(grid["log2a"], [0.0]))
              if kind == "rbf" else list(itertools.product(grid["log2a"], grid["r"])))
    accs, nsvs, t_tr, t_te, chosen = [], [], [], [], []
    for tr, te in outer.split(X, y):
        inner = list(StratifiedKFold(5, shuffle=True, random_state=seed).split(X[tr], y[tr]))
        best = (-1.0, None)
        for log2a, r in params:
            Ktr = kernel(X[tr], X[tr], kind, 2.0**log2a, r)
            for log2C in grid["log2C"]:
                correct = 0
                for itr, ite in inner:
                    dec, _, _, _ = fit_predict(model, np.ascontiguousarray(Ktr[np.ix_(itr, itr)]),
                                               y[tr][itr], Ktr[np.ix_(ite, itr)], 2.0**log2C)
                    correct += int(np.sum(np.where(dec > 0, 1.0, -1.0) == y[tr][ite]))
                acc = correct / len(tr)
                if acc > best[0]:
                    best = (acc, (log2C, log2a, r))
        log2C, log2a, r = best[1]
        Ktr = kernel(X[tr], X[tr], kind, 2.0**log2a, r)
        Kte = kernel(X[te], X[tr], kind, 2.0**log2a, r)
        dec, nsv, a_, b_ = fit_predict(model, Ktr, y[tr], Kte, 2.0**log2C)
        accs.append(float(np.mean(np.where(dec > 0, 1.0, -1.0) == y[te])))
        nsvs.append(nsv)
        t_tr.append(a_)
        t_te.append(b_)
        chosen.append({"log2C": log2C, "log2a": log2a, "r": r, "inner_cv": best[0]})
    return {"accuracy": 100 * float(np.mean(accs)), "fold_accuracy": accs,
            "n_sv": float(np.mean(nsvs)), "train_s": float(np.mean(t_tr)),
            "test_s": float(np.mean(t_te)), "chosen": chosen}


MODELS = [("svm-rbf", "svm", "rbf"), ("svm-sigmoid", "svm", "sigmoid"),
          ("klr-nt", "klr-nt", "sigmoid"), ("klr-cg", "klr-cg", "sigmoid")]


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--datasets", nargs="+", default=["heart"])
    ap.add_argument("--grid", choices=sorted(GRIDS), default="paper")
    ap.add_argument("--klr-grid", choices=sorted(GRIDS), default=None,
                    help="grid for the KLR models (default: --grid)")
    ap.add_argument("--models", nargs="+", default=[m[0] for m in MODELS])
    ap.add_argument("--seeds", type=int, default=1,
                    help="repeat the nested CV with this many fold seeds (0, 1, ...)")
    ap.add_argument("--tag", default="", help="suffix of the result file name")
    args = ap.parse_args()
    os.makedirs(os.path.join(HERE, "results"), exist_ok=True)
    warnings.simplefilter("ignore", ConvergenceWarning)
    for name in args.datasets:
        X, y = load(name)
        out = {"dataset": name, "n": int(X.shape[0]), "d": int(X.shape[1]), "grid": args.grid,
               "klr_grid": args.klr_grid or args.grid, "paper": PAPER_TABLE1[name],
               "models": {}}
        for label, model, kind in MODELS:
            if label not in args.models:
                continue
            grid = GRIDS[(args.klr_grid or args.grid) if model.startswith("klr") else args.grid]
            t0 = time.perf_counter()
            runs = [nested_cv(X, y, model, kind, grid, seed=s) for s in range(args.seeds)]
            res = dict(runs[0])
            res["accuracy_by_seed"] = [r["accuracy"] for r in runs]
            res["accuracy"] = float(np.mean(res["accuracy_by_seed"]))
            res["accuracy_std"] = float(np.std(res["accuracy_by_seed"]))
            res["wall_s"] = time.perf_counter() - t0
            out["models"][label] = res
            spread = (f" +/- {res['accuracy_std']:.1f} over {args.seeds} fold seeds"
                      if args.seeds > 1 else "")
            print(f"{name:>9} {label:>12}: accuracy {res['accuracy']:.1f}%{spread} "
                  f"(paper {PAPER_TABLE1[name][[m[0] for m in MODELS].index(label)]}%), "
                  f"#SV {res['n_sv']:.1f}, train/test {res['train_s']:.3f}/{res['test_s']:.3f} s,"
                  f" wall {res['wall_s']:.0f} s", flush=True)
        with open(os.path.join(HERE, "results", f"table1_{name}{args.tag}.json"), "w") as fh:
            json.dump(out, fh, indent=2)


if __name__ == "__main__":
    main()
