"""Reading a CSV of features with its label column, as ``indefsvm fit FILE.csv`` reads it
(``indefsvm.datasets._table.read_features``: the common table by NumPy's compiled parser,
any other through the csv module's loop that names each defect with its line), against
pandas' ``read_csv`` and NumPy's ``loadtxt`` in the same process, on a generated file as
pandas' ``to_csv(index=False)`` writes it. Also the loop alone (the same file with one
quoted cell), what every table took before. Time: the best of three reads.

    python benchmarks/bench_csv_reader.py              # 200 000 x 20
    python benchmarks/bench_csv_reader.py --rows 1000000
"""

from __future__ import annotations

import argparse
import os
import tempfile
import time

import numpy as np


def _best(read, repeats: int = 3) -> float:
    best = np.inf
    for _ in range(repeats):
        t0 = time.perf_counter()
        read()
        best = min(best, time.perf_counter() - t0)
    return best


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--rows", type=int, default=200_000)
    ap.add_argument("--cols", type=int, default=20)
    args = ap.parse_args()
    import pandas as pd

    from indefsvm.datasets._table import read_features

    rng = np.random.default_rng(0)
    X = np.round(rng.normal(size=(args.rows, args.cols)), 5)
    y = (X[:, 0] > 0).astype(int)
    with tempfile.TemporaryDirectory() as tmp:
        path = os.path.join(tmp, "train.csv")
        df = pd.DataFrame(X, columns=[f"f{j}" for j in range(args.cols)])
        df["label"] = y
        df.to_csv(path, index=False)
        quoted = os.path.join(tmp, "quoted.csv")
        with open(path) as src, open(quoted, "w") as dst:
            head, first = src.readline(), src.readline()
            dst.write(head + first.replace(",", ',"', 1).replace(",", '",', 2).replace(
                '",', ",", 1) + src.read())
        Xr, yr, _ = read_features(path, ",")
        Xq, yq, _ = read_features(quoted, ",")
        assert np.array_equal(Xr, X) and np.array_equal(yr, y)
        assert np.array_equal(Xq, X) and np.array_equal(yq, y)
        mb = os.path.getsize(path) / 2**20
        times = {
            "read_features (fit FILE.csv)": _best(lambda: read_features(path, ",")),
            "the csv loop alone (one quoted cell)": _best(lambda: read_features(quoted, ",")),
            "pandas read_csv": _best(lambda: pd.read_csv(path)),
            "numpy loadtxt": _best(lambda: np.loadtxt(path, delimiter=",", skiprows=1)),
        }
    ours = times["read_features (fit FILE.csv)"]
    print(f"{args.rows} x {args.cols} + a label column, {mb:.1f} MB")
    print("| reader | s | / ours |")
    print("|---|---|---|")
    for name, s in times.items():
        print(f"| {name} | {s:.2f} | {s / ours:.2f} |")


if __name__ == "__main__":
    main()
