"""Shared pieces of the Lin & Lin reproduction: data, grids, kernels (benchmarks only)."""

from __future__ import annotations

import os
import sys

import numpy as np

import indefsvm as isvm

HERE = os.path.dirname(os.path.abspath(__file__))
SHARED = os.path.normpath(os.path.join(HERE, "..", "..", "..", "shared", "data"))

# Table 1 of seed 000: accuracy % of SVM-RBF, SVM-sigmoid, KLR-NT, KLR-CG
PAPER_TABLE1 = {
    "heart": (83.0, 83.0, 83.7, 83.7),
    "german": (76.6, 76.1, 75.6, 75.6),
    "diabetes": (77.6, 77.3, 77.1, 76.7),
    "a1a": (83.6, 83.1, 83.7, 83.8),
}

GRIDS = {
    # the paper's grid: log2 C in {-3, 0, ..., 12}, log2 a in {-12, -9, ..., 3},
    # r in {-2.4, -1.8, ..., 2.4}
    "paper": {
        "log2C": list(range(-3, 13, 3)),
        "log2a": list(range(-12, 4, 3)),
        "r": [round(-2.4 + 0.6 * k, 1) for k in range(9)],
    },
    # a coarser grid (every other value) when time is short; said so in the results
    "small": {
        "log2C": [-3, 3, 9],
        "log2a": [-12, -6, 0],
        "r": [-2.4, -1.2, 0.0, 1.2, 2.4],
    },
}


def load(name: str):
    """(X, y) with labels +1 / -1. heart is bundled; the others come from ../shared/data."""
    if name == "heart":
        return isvm.datasets.load_heart(return_X_y=True)
    files = {"german": ("german.numer_scale", None), "diabetes": ("diabetes_scale", None),
             "a1a": ("a1a", 123)}
    fname, nfeat = files[name]
    path = os.path.join(SHARED, fname)
    if not os.path.exists(path):
        sys.exit(f"benchmarks/linlin: {path} is missing; it reads the project's shared data "
                 "folder (only the heart data is bundled with the package).")
    X, y = isvm.datasets.load_libsvm(path, n_features=nfeat)
    return X, np.where(y > 0, 1.0, -1.0)
