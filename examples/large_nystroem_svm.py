"""
An indefinite-kernel SVM on 100 000 points
==========================================

An SVM with the sigmoid kernel ``tanh(a x'x' + r)`` on 100 000 points needs the 100 000 x
100 000 kernel (80 GB in float64) or, with SMO, tens of billions of kernel evaluations. With
``m`` landmarks the Krein-space Nystroem features ``Phi`` (``K ~ Phi S Phi'``, ``S`` the signs
of the landmark kernel's eigenvalues; Oglic & Gaertner 2019) hold the kernel in ``n x m``
numbers, and :class:`~indefsvm.NystroemSVC` trains a linear SVM on them: the Krein SVM of
Loosli, Canu & Ong (2016) -- trained on the associated Hilbert space, predicting with the
indefinite inner product -- in a minute, in a few hundred megabytes.

First, :func:`~indefsvm.check_kernel` (matrix-free above 5 000 points) says how indefinite
the kernel is and how many landmarks see its negative part. Then NystroemSVC with 500
landmarks; its sanity report is computed in feature space (``w'Mw``, bounded support vectors,
KKT gap), without any ``n x n`` matrix. Last, the landmarks against test accuracy: a few
hundred are enough here.

This script is shown, not run, by the documentation build (about two minutes on two cores);
``benchmarks/bench_nystroem.py`` measures the same at 10^6 points, against scikit-learn's
``Nystroem`` + ``LinearSVC``, and against the exact remedies at 2 * 10^4 points.
"""

import os
import time

import numpy as np

import indefsvm as isvm


def task(n, rng, d=20):
    """A nonlinear two-class problem in 20 dimensions."""
    X = rng.standard_normal((n, d))
    y = np.where(np.sin(1.5 * X[:, 0]) + 0.5 * X[:, 1] ** 2 - 0.5
                 + 0.3 * rng.standard_normal(n) > 0, 1, -1)
    return X, y


def main():
    rng = np.random.default_rng(0)
    # the test suite runs every example: it sets a small size through this variable
    n = int(os.environ.get("INDEFSVM_EXAMPLE_N", 100_000))
    X, y = task(n, rng)
    Xt, yt = task(max(n // 5, 1000), rng)
    kernel = dict(kernel="sigmoid", gamma=0.5 / 20, coef0=-0.5)

    t0 = time.perf_counter()
    report = isvm.check_kernel(X=X[:20_000], kernel="sigmoid", gamma=0.5 / 20, coef0=-0.5,
                               random_state=0, n_jobs=-1)
    print(f"kernel check on 20 000 points ({time.perf_counter() - t0:.0f} s): "
          f"{report.verdict}; landmarks for the negative part >= "
          f"{report.nystroem_landmarks}")

    t0 = time.perf_counter()
    clf = isvm.NystroemSVC(n_components=min(500, n // 2), C=1.0, random_state=0, n_jobs=-1,
                           **kernel).fit(X, y)
    ny = clf.nystroem_
    print(f"NystroemSVC(krein) on {n} points: {time.perf_counter() - t0:.1f} s, "
          f"converged {clf.converged_}, {ny.n_positive_} positive and {ny.n_negative_} "
          f"negative features, test accuracy {clf.score(Xt, yt):.3f}")
    print(isvm.sanity_report(clf, X, y))

    for m in (50, 100, 200, 500):
        if m > n // 2:
            break
        for remedy in ("krein", "clip"):
            t0 = time.perf_counter()
            c = isvm.NystroemSVC(n_components=m, remedy=remedy, random_state=0, n_jobs=-1,
                                 **kernel).fit(X, y)
            print(f"m = {m:>4}, {remedy:<5}: test accuracy {c.score(Xt, yt):.3f} "
                  f"({time.perf_counter() - t0:.1f} s)")


if __name__ == "__main__":
    main()
