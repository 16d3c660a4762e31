"""Haasdonk (2005), Table 1, proteins rows: SVM, CNE, RNE and k-NN leave-one-out errors.

    python benchmarks/haasdonk_table1.py            # writes benchmarks/results/haasdonk_table1.json

Data: the bundled 213 x 213 globin dissimilarities (indefsvm.datasets.load_protein213; the paper
used a 226-sample version that is not available), K = exp(-gamma D^2), one-vs-rest labels HA,
HB, M, G (the paper's H-alpha, H-beta, M, GH). For each labelling and method, the best LOO error
over a logarithmic grid gamma x C (the paper's procedure): the indefinite SVM (SMO on K), CNE and
RNE (clip / flip of the centred kernel with the consistent transform of the left-out row:
a fresh decomposition for every left-out sample), k-NN on D (best k of 1, 3, 5, 7, 9). At the
SVM's best (gamma, C) -- ties broken towards fewer bounded SVs --: the signature (p, q) of the
centred kernel, the class-mean squared distance DCM, w'Mw, #SV and #bounded SV. Generated from
bundled data only.
"""

from __future__ import annotations

import json
import os
import time

import numpy as np

import indefsvm as isvm
from indefsvm.remedies import ClipEigenvalues, FlipEigenvalues
from indefsvm.solvers import smo

GAMMAS = [0.003, 0.01, 0.03, 0.1]
CS = [1.0, 10.0, 100.0, 1000.0]
PAPER = {  # LOO % SVM, CNE, RNE, kNN (k), (p, q), DCM, w'Mw, #SV, #bSV
    "HA": (0.89, 0.89, 0.89, "1.33 (1)", "(218,4)", 0.0074, 0.0021, 49, 0),
    "HB": (2.65, 2.65, 2.65, "3.54 (1)", "(219,4)", 0.2178, 0.0113, 70, 0),
    "M": (0.00, 0.00, 0.00, "0.00 (1)", "(218,4)", 0.0149, 0.0076, 44, 0),
    "G": (0.00, 0.00, 0.00, "1.77 (1)", "(218,4)", 0.0080, 0.0040, 44, 0),
}


def loo_svm(K, y, C):
    """Exact LOO: a sample with alpha_i = 0 removed leaves a stationary point, so only the
    support vectors are refitted."""
    n = y.shape[0]
    full = smo(K, y, C=C, check_input=False, warn=False)
    dec_full = K @ (full.alpha * y) + full.b
    wrong = 0
    for i in range(n):
        if full.alpha[i] == 0:
            wrong += np.sign(dec_full[i]) != y[i]
            continue
        keep = np.r_[0:i, i + 1:n]
        res = smo(K[np.ix_(keep, keep)], y[keep], C=C, check_input=False, warn=False)
        wrong += np.sign(K[i, keep] @ (res.alpha * y[keep]) + res.b) != y[i]
    return wrong / n, full


def loo_fixed(K, y, C, fix):
    """LOO of fix + SVM: the fix is fitted on the 212 training samples of each fold and
    applied consistently to the left-out row."""
    n = y.shape[0]
    wrong = 0
    for i in range(n):
        keep = np.r_[0:i, i + 1:n]
        t = fix.fit(K[np.ix_(keep, keep)])
        Kf = t._fixed_kernel()
        res = smo(Kf, y[keep], C=C, check_input=False, warn=False)
        row = t.transform(K[i:i + 1, keep])[0]
        wrong += np.sign(row @ (res.alpha * y[keep]) + res.b) != y[i]
    return wrong / n


def loo_knn(D, y, ks=(1, 3, 5, 7, 9)):
    n = y.shape[0]
    order = np.argsort(D + np.diag(np.full(n, np.inf)), axis=1)
    errs = {k: float(np.mean(np.sign(y[order[:, :k]].sum(axis=1)) != y)) for k in ks}
    k = min(errs, key=errs.get)
    return errs[k], k


def main():
    D, labels = isvm.datasets.load_protein213(return_D_y=True)
    names = {1: "HA", 2: "HB", 3: "M", 4: "G"}
    rows = {}
    t0 = time.perf_counter()
    for c, name in names.items():
        y = np.where(labels == c, 1.0, -1.0)
        best = {"SVM": (np.inf,), "CNE": (np.inf,), "RNE": (np.inf,)}
        for gamma in GAMMAS:
            K = np.exp(-gamma * D**2)
            for C in CS:
                err, full = loo_svm(K, y, C)
                n_bsv = int(np.count_nonzero(full.alpha >= C))
                # ties in LOO error (frequent: a few samples) go to the model with fewer
                # bounded SVs, i.e. the one that separates the training data (the paper's
                # models have #bSV = 0)
                if (err, n_bsv) < (best["SVM"][0], best["SVM"][4] if len(best["SVM"]) > 4
                                   else np.inf):
                    best["SVM"] = (err, gamma, C, full, n_bsv)
                for meth, fix in (("CNE", ClipEigenvalues(centered=True)),
                                  ("RNE", FlipEigenvalues(centered=True))):
                    e = loo_fixed(K, y, C, fix)
                    if e < best[meth][0]:
                        best[meth] = (e, gamma, C)
        knn_err, k = loo_knn(D, y)
        err, gamma, C, full, _ = best["SVM"]
        K = np.exp(-gamma * D**2)
        rep = isvm.check_kernel(K, y, wmw_C=None)
        san = isvm.diagnostics.sanity_report_from_alpha(K, y, full.alpha, C, b=full.b)
        rows[name] = {
            "loo_svm": 100 * err, "loo_cne": 100 * best["CNE"][0],
            "loo_rne": 100 * best["RNE"][0], "loo_knn": 100 * knn_err, "knn_k": k,
            "gamma": gamma, "C": C, "cne_gamma_C": best["CNE"][1:],
            "rne_gamma_C": best["RNE"][1:],
            "p": rep.signature.p, "q": rep.signature.q,
            "negative_mass": rep.signature.negative_mass, "dcm": rep.class_mean_sqdist,
            "wMw": san.wMw, "n_sv": san.n_sv, "n_bsv": san.n_bounded, "paper": PAPER[name],
        }
        r = rows[name]
        print(f"{name:3s} LOO % SVM {r['loo_svm']:.2f} CNE {r['loo_cne']:.2f} RNE "
              f"{r['loo_rne']:.2f} kNN {r['loo_knn']:.2f} ({k}) | (p,q)=({r['p']},{r['q']}) "
              f"DCM {r['dcm']:.4f} w'Mw {r['wMw']:.4f} #SV {r['n_sv']} #bSV {r['n_bsv']} "
              f"[gamma {gamma:g}, C {C:g}] | paper {PAPER[name]}", flush=True)
    out = os.path.join(os.path.dirname(__file__), "results")
    os.makedirs(out, exist_ok=True)
    with open(os.path.join(out, "haasdonk_table1.json"), "w") as fh:
        json.dump({"rows": rows, "grid": {"gamma": GAMMAS, "C": CS},
                   "seconds": time.perf_counter() - t0}, fh, indent=2, default=float)
    print(f"total {time.perf_counter() - t0:.0f} s")


if __name__ == "__main__":
    main()
