"""Lin & Lin Fig. 1: the sigmoid kernel approaches the RBF kernel as r -> -infinity (Thms 8-9).

    python benchmarks/linlin/fig1.py

Five-fold CV accuracy of the sigmoid SVM on heart over log2 C in [-2, 13] and log2(-r) in
[0, 4.5] (step 0.5), for a = 1 and a = 0.01, next to the RBF SVM with gamma = a over the same C
(Thm 4's limit kernel exp(2a x'x') is the RBF kernel exp(-a ||x - x'||^2) between two
diagonal scalings). Figure and JSON go to ``results/``.
"""

from __future__ import annotations

import json
import os
import warnings

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402
import numpy as np  # noqa: E402
from common import HERE, load  # noqa: E402
from fig2_fig5 import cv_accuracy  # noqa: E402

import indefsvm as isvm  # noqa: E402
from indefsvm.exceptions import ConvergenceWarning  # noqa: E402

LOG2C = list(range(-2, 14))
LOG2MR = [0.5 * k for k in range(10)]


def main():
    warnings.simplefilter("ignore", ConvergenceWarning)
    X, y = load("heart")
    out = {}
    fig, axes = plt.subplots(1, 2, figsize=(11, 4))
    for ax, a in zip(axes, [1.0, 0.01], strict=True):
        Z = np.zeros((len(LOG2MR), len(LOG2C)))
        for i, lmr in enumerate(LOG2MR):
            K = isvm.kernel_matrix(X, kernel="sigmoid", gamma=a, coef0=-(2.0**lmr))
            for j, lc in enumerate(LOG2C):
                Z[i, j] = cv_accuracy(K, y, 2.0**lc, "bias")
        Kr = isvm.kernel_matrix(X, kernel="rbf", gamma=a)
        rbf = [cv_accuracy(Kr, y, 2.0**lc, "bias") for lc in LOG2C]
        out[str(a)] = {"sigmoid": Z.tolist(), "rbf": rbf}
        cs = ax.contourf(LOG2C, LOG2MR, Z, levels=np.arange(50, 91, 2.5), cmap="viridis")
        ax.set_xlabel("log2 C")
        ax.set_ylabel("log2(-r)")
        ax.set_title(f"heart, sigmoid a = {a:g}: best {Z.max():.1f}%\n"
                     f"(RBF, gamma = a: best {max(rbf):.1f}%)", fontsize=9)
        print(f"a = {a:g}: sigmoid best {Z.max():.1f}%; at the most negative r the best over C "
              f"is {Z[-1].max():.1f}%; RBF (gamma = a) best {max(rbf):.1f}%", flush=True)
    fig.colorbar(cs, ax=axes, label="5-fold CV accuracy %")
    os.makedirs(os.path.join(HERE, "results"), exist_ok=True)
    fig.savefig(os.path.join(HERE, "results", "fig1_heart.png"), dpi=90)
    with open(os.path.join(HERE, "results", "fig1.json"), "w") as fh:
        json.dump(out, fh)


if __name__ == "__main__":
    main()
