"""Soak of the matrix-free spectrum over spectrum classes: do the intervals hold the truth?

    python benchmarks/matfree_soak.py                  # the run of the docs (~10 minutes)
    python benchmarks/matfree_soak.py --seeds 2 --max-n 200

For each class of spectrum (below), size n and seed, a kernel ``K = Q diag(lam) Q'`` (Q a
random orthogonal matrix, or the identity for "localized": eigenvectors are coordinate
vectors), a real kernel (RBF and sigmoid on Gaussian data), a kernel constant on the
complement of e (``c ee'``, ``u e' + e u'``) or a +-1 spectrum scaled by 2^-900 and 2^900 is
checked by
``diagnostics.spectrum(K, method=...)`` with ``method`` "lanczos" and "slq", and every
interval the estimate reports is compared with the dense truth (``eigvalsh`` of K and of K on
the complement of e): ``lam_min``, ``lam_max``, ``restricted_min``, ``restricted_max``,
``n_neg``, ``n_pos``, ``negative_mass``. A miss is a true value outside its interval. The
verdict of ``check_kernel`` is checked too: a decided verdict (PSD, CPD, indefinite) must
agree with the truth; "undecided at this accuracy" is counted, not a miss. Writes
``benchmarks/results/matfree_soak.json``.
"""

from __future__ import annotations

import argparse
import json
import os
import time

import numpy as np

import indefsvm as isvm
from indefsvm.diagnostics import spectrum

HERE = os.path.dirname(os.path.abspath(__file__))
CLASSES = ("all_negative", "all_positive", "uniform_pm1", "clustered", "rank_deficient",
           "one_tiny_negative", "localized", "identity", "low_rank_noise", "rbf", "sigmoid",
           "constant", "constant_on_e_perp", "scaled_2^-900", "scaled_2^900")


def make(cls, n, rng):
    if cls in ("rbf", "sigmoid"):
        X = rng.normal(size=(n, 8))
        kw = dict(gamma=0.1) if cls == "rbf" else dict(gamma=0.2, coef0=-1.0)
        return isvm.kernel_matrix(X, kernel=cls, **kw)
    if cls == "identity":
        return np.eye(n)
    if cls == "constant":  # J K J = 0 exactly: every SVM on it predicts one class
        return np.full((n, n), -0.76)
    if cls == "constant_on_e_perp":  # K = u e' + e u', zero on the complement of e too
        u = rng.normal(size=(n, 1))
        return u + u.T
    if cls.startswith("scaled_2^"):  # a +-1 spectrum far from 1: the recurrences' squares
        return make("uniform_pm1", n, rng) * 2.0 ** int(cls.split("^")[1])
    lam = {
        "all_negative": lambda: -rng.uniform(0.1, 1, n),
        "all_positive": lambda: rng.uniform(0.1, 1, n),
        "uniform_pm1": lambda: rng.uniform(-1, 1, n),
        "clustered": lambda: np.r_[np.full(n // 2, 1.0), np.full(n - n // 2 - 1, 1.0 + 1e-6),
                                   -0.5][:n],
        "rank_deficient": lambda: np.r_[rng.uniform(0.5, 1, max(1, n // 3)),
                                        np.zeros(n - max(1, n // 3))],
        "one_tiny_negative": lambda: np.r_[-1e-9, rng.uniform(0.1, 1, n - 1)],
        "localized": lambda: rng.uniform(-1, 1, n),
        "low_rank_noise": lambda: np.r_[rng.uniform(5, 10, max(1, n // 10)),
                                        1e-3 * rng.normal(size=n - max(1, n // 10))],
    }[cls]()
    if cls == "localized":
        return np.diag(lam)
    Q, _ = np.linalg.qr(rng.normal(size=(n, n)))
    K = (Q * lam) @ Q.T
    return (K + K.T) / 2


def truth(K, tol):
    n = K.shape[0]
    lam = np.linalg.eigvalsh(K)
    # an orthonormal basis of the complement of e: the restricted spectrum
    e = np.ones((n, 1)) / np.sqrt(n)
    Q, _ = np.linalg.qr(np.c_[e, np.eye(n)[:, : n - 1]])
    B = Q[:, 1:]
    mu = np.linalg.eigvalsh(B.T @ K @ B) if n > 1 else np.empty(0)
    neg = np.abs(mu[mu < -tol]).sum()
    tot = np.abs(mu).sum()
    return {"lam_min": lam[0], "lam_max": lam[-1],
            "restricted_min": mu[0] if n > 1 else np.nan,
            "restricted_max": mu[-1] if n > 1 else np.nan,
            "n_neg": int(np.sum(mu < -tol)), "n_pos": int(np.sum(mu > tol)),
            "negative_mass": neg / tot if tot > 0 else 0.0}


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--seeds", type=int, default=3)
    ap.add_argument("--max-n", type=int, default=2000)
    args = ap.parse_args()
    sizes = [n for n in (3, 5, 10, 50, 200, 1000, 2000) if n <= args.max_n]
    rows, misses, verdict_misses, undecided, checks = [], [], 0, 0, 0
    t0 = time.perf_counter()
    for cls in CLASSES:
        for n in sizes:
            seeds = args.seeds if n <= 200 else 1
            for seed in range(seeds):
                rng = np.random.default_rng([seed, n, CLASSES.index(cls)])
                K = make(cls, n, rng)
                for method in ("lanczos", "slq"):
                    sp = spectrum(K, method=method, random_state=seed)
                    tr = truth(K, sp.tol)
                    row = {"class": cls, "n": n, "seed": seed, "method": method, "miss": []}
                    for key, (lo, hi) in sp.intervals.items():
                        if key not in tr or not np.isfinite(tr[key]):
                            continue
                        checks += 1
                        # a relative slack of rounding on the eigenvalue ends
                        slack = 1e-9 * sp.scale if key.endswith(("min", "max")) else 0.0
                        if not lo - slack <= tr[key] <= hi + slack:
                            row["miss"].append([key, float(lo), float(hi), float(tr[key])])
                    rep = isvm.check_kernel(K, method=method, random_state=seed, wmw_C=None)
                    exact = isvm.check_kernel(K, method="dense", wmw_C=None)
                    row["verdict"], row["truth"] = rep.verdict, exact.verdict
                    if rep.verdict == "undecided at this accuracy":
                        undecided += 1
                    elif (rep.verdict == "PSD") != exact.is_psd or (
                            rep.verdict == "CPD" and not exact.is_cpd):
                        verdict_misses += 1
                        row["miss"].append(["verdict", rep.verdict, exact.verdict])
                    misses += row["miss"]
                    rows.append(row)
        print(f"{cls:<18} done ({time.perf_counter() - t0:.0f} s), misses so far "
              f"{len(misses)}", flush=True)
    out = {"checks": checks, "interval_misses": len(misses) - verdict_misses,
           "verdict_misses": verdict_misses, "undecided": undecided, "runs": len(rows),
           "seconds": time.perf_counter() - t0, "misses": misses, "rows": rows}
    os.makedirs(os.path.join(HERE, "results"), exist_ok=True)
    with open(os.path.join(HERE, "results", "matfree_soak.json"), "w") as fh:
        json.dump(out, fh, indent=1, default=str)
    print(f"{len(rows)} runs, {checks} interval checks: {out['interval_misses']} interval "
          f"misses, {verdict_misses} verdict misses, {undecided} undecided, "
          f"{out['seconds']:.0f} s")
    for m in misses[:20]:
        print("  miss", m)


if __name__ == "__main__":
    main()
