"""Reading Weka's ARFF: ``indefsvm.datasets.load_arff`` (every defect named with its line and
attribute; sparse rows; string attributes) against SciPy's ``scipy.io.arff.loadarff`` (dense
numeric and nominal attributes only, no line in its errors), in the same process, on
generated files: numeric features with a nominal class (both read it), and a nominal feature
beside them (ours makes its 0 / 1 columns; SciPy's record array is turned into the same
matrix by hand, as a user would). Time: the best of three reads.

    python benchmarks/bench_arff_reader.py             # 20 000 x 100
    python benchmarks/bench_arff_reader.py --rows 5000
"""

from __future__ import annotations

import argparse
import os
import tempfile
import time
import warnings

import numpy as np
from scipy.io import arff as scipy_arff

import indefsvm as isvm


def _write(path: str, n: int, d: int, nominal: bool) -> None:
    rng = np.random.default_rng(0)
    X = np.round(rng.normal(size=(n, d)), 4)
    with open(path, "w") as fh:
        fh.write("@relation bench\n" + "".join(f"@attribute f{j} numeric\n" for j in range(d)))
        if nominal:
            fh.write("@attribute colour {red, green, blue}\n")
        fh.write("@attribute class {neg, pos}\n@data\n")
        colours = ("red", "green", "blue")
        for i, row in enumerate(X):
            cells = [f"{v:g}" for v in row] + ([colours[i % 3]] if nominal else [])
            fh.write(",".join(cells) + (",pos\n" if row[0] > 0 else ",neg\n"))


def _best(read, repeats: int = 3) -> tuple[float, object]:
    best, out = np.inf, None
    for _ in range(repeats):
        t0 = time.perf_counter()
        out = read()
        best = min(best, time.perf_counter() - t0)
    return best, out


def _scipy_matrix(path: str, d: int, nominal: bool):
    data, _ = scipy_arff.loadarff(path)
    X = np.column_stack([data[f"f{j}"] for j in range(d)])
    if nominal:
        colour = data["colour"].astype(str)
        X = np.column_stack([X] + [(colour == c).astype(float)
                                   for c in ("red", "green", "blue")])
    return X, data["class"].astype(str)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--rows", type=int, default=20_000)
    ap.add_argument("--cols", type=int, default=100)
    args = ap.parse_args()
    rows = []
    with tempfile.TemporaryDirectory() as tmp:
        for nominal in (False, True):
            path = os.path.join(tmp, f"bench{int(nominal)}.arff")
            _write(path, args.rows, args.cols, nominal)
            with warnings.catch_warnings():
                warnings.simplefilter("ignore")  # the note on the nominal's columns
                ours, (X, y) = _best(lambda p=path: isvm.datasets.load_arff(p))
            theirs, (Xs, ys) = _best(lambda p=path, m=nominal: _scipy_matrix(p, args.cols, m))
            assert np.array_equal(X, Xs) and list(y) == list(ys)
            rows.append((f"{args.rows} x {args.cols} numeric" + (" + a nominal"
                                                                if nominal else ""),
                         os.path.getsize(path) / 2**20, ours, theirs))
    print("| file | MB | load_arff (s) | scipy loadarff (s) | ours / SciPy's |")
    print("|---|---|---|---|---|")
    for what, mb, ours, theirs in rows:
        print(f"| {what} | {mb:.1f} | {ours:.2f} | {theirs:.2f} | {ours / theirs:.2f} |")


if __name__ == "__main__":
    main()
