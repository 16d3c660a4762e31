"""Lin & Lin Fig. 2 (with and without y'alpha = 0) and Fig. 5 (zero start vs restarts).

    python benchmarks/linlin/fig2_fig5.py --datasets heart diabetes

Fig. 2: five-fold CV accuracy of the sigmoid SVM over (log2 C, r) with a = 1/n_features, for
problem (2) (with the bias and y'alpha = 0, SMO) and problem (19) (no bias, box constraints
only). Fig. 5: on heart, five-fold CV accuracy from the zero start against the best objective
of five random feasible starts (seed 000 §6), over the same grid. Figures and JSON go to
``results/``. heart is bundled; the other data sets come from ../shared/data.
"""

from __future__ import annotations

import argparse
import json
import os
import time
import warnings

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402
import numpy as np  # noqa: E402
from common import HERE, load  # noqa: E402
from sklearn.model_selection import StratifiedKFold  # noqa: E402

import indefsvm as isvm  # noqa: E402
from indefsvm.exceptions import ConvergenceWarning  # noqa: E402
from indefsvm.solvers import kernel_adatron, smo  # noqa: E402

LOG2C = list(range(-2, 14))
RS = [round(-2.0 + 0.2 * k, 1) for k in range(21)]


MAX_SWEEPS = None  # cap on the one-variable loop's sweeps (--max-sweeps), None: the default


def cv_accuracy(K, y, C, problem, restarts=0):
    correct = 0
    for tr, te in StratifiedKFold(5, shuffle=True, random_state=0).split(K, y):
        Ktr = np.ascontiguousarray(K[np.ix_(tr, tr)])
        if problem == "bias":
            res = smo(Ktr, y[tr], C=C, check_input=False, warn=False, n_restarts=restarts,
                      random_state=0)
            b = res.b
        else:
            res = kernel_adatron(Ktr, y[tr], C=C, warn=False, max_iter=MAX_SWEEPS)
            b = 0.0
        dec = K[np.ix_(te, tr)] @ (res.alpha * y[tr]) + b
        correct += int(np.sum(np.where(dec > 0, 1.0, -1.0) == y[te]))
    return 100.0 * correct / len(y)


def grid(X, y, problem, restarts=0):
    a = 1.0 / X.shape[1]
    Z = np.zeros((len(RS), len(LOG2C)))
    for i, r in enumerate(RS):
        K = isvm.kernel_matrix(X, kernel="sigmoid", gamma=a, coef0=r)
        for j, lc in enumerate(LOG2C):
            Z[i, j] = cv_accuracy(K, y, 2.0**lc, problem, restarts)
    return Z


def contour(ax, Z, title):
    cs = ax.contourf(LOG2C, RS, Z, levels=np.arange(30, 101, 5), cmap="viridis")
    ax.set_xlabel("log2 C")
    ax.set_ylabel("r")
    ax.set_title(f"{title}: best {Z.max():.1f}%", fontsize=9)
    return cs


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--datasets", nargs="+", default=["heart"])
    ap.add_argument("--no-fig5", action="store_true")
    ap.add_argument("--coarse", action="store_true",
                    help="every other value of log2 C and r (for the largest data sets)")
    ap.add_argument("--max-sweeps", type=int, default=None,
                    help="cap the sweeps of the no-bias loop (reported in the output)")
    args = ap.parse_args()
    global LOG2C, RS, MAX_SWEEPS
    if args.coarse:
        LOG2C, RS = LOG2C[::2], RS[::2]
    MAX_SWEEPS = args.max_sweeps
    warnings.simplefilter("ignore", ConvergenceWarning)
    out_dir = os.path.join(HERE, "results")
    os.makedirs(out_dir, exist_ok=True)
    results = {}
    for name in args.datasets:
        X, y = load(name)
        if hasattr(X, "toarray"):
            X = X.toarray()
        t0 = time.perf_counter()
        with_b = grid(X, y, "bias")
        without = grid(X, y, "nobias")
        results[name] = {"with_bias": with_b.tolist(), "without_bias": without.tolist(),
                         "best_with": float(with_b.max()), "best_without": float(without.max()),
                         "seconds": time.perf_counter() - t0}
        fig, axes = plt.subplots(1, 2, figsize=(11, 4))
        cs = contour(axes[0], with_b, f"{name}, problem (2) (y'alpha = 0)")
        contour(axes[1], without, f"{name}, problem (19) (no bias)")
        fig.colorbar(cs, ax=axes, label="5-fold CV accuracy %")
        stem = f"{name}_coarse" if args.coarse else name
        fig.savefig(os.path.join(out_dir, f"fig2_{stem}.png"), dpi=90)
        grid_txt = ("coarse grid" if args.coarse else "full grid") + (
            f", no-bias loop capped at {args.max_sweeps} sweeps" if args.max_sweeps else "")
        print(f"Fig. 2 {name} ({grid_txt}): best CV accuracy with y'alpha = 0 "
              f"{with_b.max():.1f}%, without "
              f"{without.max():.1f}%; mean over the grid {with_b.mean():.1f}% vs "
              f"{without.mean():.1f}% ({results[name]['seconds']:.0f} s)", flush=True)
        if name == "heart" and not args.no_fig5:
            restarts = grid(X, y, "bias", restarts=4)  # zero start + 4 random = 5 starts
            results[name]["restarts"] = restarts.tolist()
            diff = restarts - with_b
            fig, axes = plt.subplots(1, 2, figsize=(11, 4))
            cs = contour(axes[0], with_b, "heart, zero start")
            contour(axes[1], restarts, "heart, best of 5 starts")
            fig.colorbar(cs, ax=axes, label="5-fold CV accuracy %")
            fig.savefig(os.path.join(out_dir, "fig5_heart.png"), dpi=90)
            print(f"Fig. 5 heart: accuracy(best of 5 starts) - accuracy(zero start): mean "
                  f"{diff.mean():+.2f} points, max {diff.max():+.1f}, min {diff.min():+.1f}; "
                  f"grid points that differ: {int(np.count_nonzero(diff))} of {diff.size}",
                  flush=True)
    for name, res in results.items():
        stem = f"{name}_coarse" if args.coarse else name
        with open(os.path.join(out_dir, f"fig2_{stem}.json"), "w") as fh:
            json.dump(res, fh)


if __name__ == "__main__":
    main()
