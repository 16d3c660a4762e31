"""Did the layout redesign (issue 33) change any speed? The paths it touched, timed in-process.

Run it with two installs of the package, the release before the change and this one, in
turn, and compare the figures line by line::

    python -m venv /tmp/before && /tmp/before/bin/pip install "indefsvm @ git+file://$PWD@3111b6a"
    /tmp/before/bin/python benchmarks/bench_house.py      # the layout before
    python benchmarks/bench_house.py                      # this checkout, installed

Each figure is the best of a few runs of one call, in seconds: SMO fits with the column
cache (dot-product and distance kernels, one and four classes), compiled decision values,
NystroemSVC (kernel blocks and the linear solver), RemedySearchCV (fold engine, table of
methods), check_kernel (matrix checks, eta scan). Generated data only.
"""

import time

import numpy as np

import indefsvm as isvm


def best(f, k=3):
    ts = []
    for _ in range(k):
        t0 = time.perf_counter()
        f()
        ts.append(time.perf_counter() - t0)
    return min(ts)


def main():
    rng = np.random.default_rng(0)
    X = rng.normal(size=(4000, 20))
    y = (X[:, 0] + 0.5 * rng.normal(size=4000) > 0).astype(int)
    y4 = rng.integers(0, 4, size=4000)
    Xn = rng.normal(size=(50000, 20))
    yn = (Xn[:, 0] > 0).astype(int)
    K = isvm.kernel_matrix(X[:600], kernel="sigmoid", gamma=0.01, coef0=-0.5)
    sig = dict(kernel="sigmoid", gamma=0.01, coef0=-0.5)
    clf = isvm.IndefiniteSVC(kernel="rbf", C=10).fit(X, y)
    runs = {
        "SMO rbf, n=4000": lambda: isvm.IndefiniteSVC(kernel="rbf", C=10).fit(X, y),
        "SMO sigmoid, n=4000": lambda: isvm.IndefiniteSVC(C=1, **sig).fit(X, y),
        "SMO l1_gaussian, n=4000": lambda: isvm.IndefiniteSVC(
            kernel="l1_gaussian", gamma=0.01, C=1).fit(X, y),
        "SMO rbf, 4 classes": lambda: isvm.IndefiniteSVC(kernel="rbf", C=1).fit(X, y4),
        "decision_function rbf, 4000": lambda: clf.decision_function(X),
        "NystroemSVC n=50000, m=300": lambda: isvm.NystroemSVC(
            n_components=300, random_state=0, **sig).fit(Xn, yn),
        "RemedySearchCV n=600": lambda: isvm.RemedySearchCV(
            cv=3, param_grid={"C": [0.1, 1, 10]}, random_state=0).fit(K, y[:600]),
        "check_kernel n=2000": lambda: isvm.check_kernel(X=X[:2000], y=y[:2000], **sig),
    }
    for name, f in runs.items():
        print(f"{name:30s} {best(f):.4f}")


if __name__ == "__main__":
    main()
