"""Krein-space Nystroem features and NystroemSVC: approximation error, scale, landmarks.

    python benchmarks/bench_nystroem.py approx      # error against K, ours vs scikit-learn
    python benchmarks/bench_nystroem.py scale       # n = 2e5 against Nystroem + LinearSVC,
                                                    # then n = 1e6 (about 5 minutes)
    python benchmarks/bench_nystroem.py landmarks   # accuracy vs m against the exact
                                                    # remedies at n = 2e4 (about 20 minutes)

``approx``: a sigmoid kernel ``tanh(x'y / (2d) - 1/2)`` on 2 000 Gaussian points in 10
dimensions (negative mass printed). For each m, three landmark draws of scikit-learn's
``Nystroem`` (its ``component_indices_``) given to ours: relative Frobenius error of the
approximation of ``k(E, X)`` (300 evaluation rows E against all rows), ours (default, and with
``stability=None``) and scikit-learn's, which approximates the flipped kernel.

``scale``: generated data in d = 20 (``y = sign(sin(1.5 x_1) + x_2^2 / 2 - 1/2 + noise)``),
sigmoid kernel ``tanh(x'y / 40 - 1/2)`` (m = 500 landmarks: ~270 negative features), C = 1,
tol = 1e-3, test accuracy on 50 000 new points. n = 2e5: NystroemSVC (krein) against
scikit-learn's ``Nystroem`` + ``LinearSVC`` on the same landmarks, in the same process, one
after the other: LinearSVC with the hinge loss (LIBSVM's problem, tol = 1e-3, max_iter =
1000, its default) and with its default squared hinge. Ratio = ours / theirs (< 1: ours
faster). n = 1e6: NystroemSVC alone, time and peak memory (in a child process).

``landmarks``: the Adult data ``a1a.t`` (LIBSVM's binarised version, 30 956 x 123, read from
``../shared/data``; the run says so and stops when it is missing): 20 000 training rows, the
other 10 956 for testing, the sigmoid kernel ``tanh(0.01 x'y - 1)`` (indefinite). Exact: the
SVM on K as it is (IndefiniteSVC), and flip / clip / Krein from one eigendecomposition of the
20 000 x 20 000 training kernel. Then NystroemSVC at m = 50 ... 5 000: test accuracy and
agreement with the exact remedy's predictions.
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import subprocess
import sys
import time
import warnings

import numpy as np
from _machine import cpu_name

import indefsvm as isvm

HERE = os.path.dirname(os.path.abspath(__file__))
RESULTS = os.path.join(HERE, "results")
A1AT = os.path.normpath(os.path.join(HERE, "..", "..", "shared", "data", "a1a.t.gz"))


def _save(name, payload):
    os.makedirs(RESULTS, exist_ok=True)
    payload = {"machine": cpu_name(), "cores": os.cpu_count(), **payload}
    with open(os.path.join(RESULTS, name), "w") as fh:
        json.dump(payload, fh, indent=1, default=float)
    print(f"written {os.path.join(RESULTS, name)}")


# -- approx -------------------------------------------------------------------------------------


def approx(args):
    from sklearn.kernel_approximation import Nystroem

    rng = np.random.default_rng(0)
    d = 10
    X = rng.normal(size=(2000, d))
    ev = rng.choice(2000, 300, replace=False)
    out = []
    for params in (dict(gamma=0.5 / d, coef0=-0.5), dict(gamma=0.5, coef0=-2.0)):
        K = isvm.kernel_matrix(X[ev], X, kernel="sigmoid", **params)
        Kfull = isvm.kernel_matrix(X, kernel="sigmoid", **params)
        mass = isvm.diagnostics.signature(Kfull).negative_mass
        del Kfull
        norm = np.linalg.norm(K)
        rows = []
        print(f"sigmoid kernel {params}, n = 2000, negative mass {mass:.1%}")
        print(f"{'m':>5} {'ours':>9} {'ours, no rule':>14} {'scikit-learn':>13} "
              f"{'dropped':>8}")
        for m in (25, 50, 100, 200, 400, 800, 1600):
            ours, raw, sk, dropped = [], [], [], []
            for seed in range(3):
                ny_sk = Nystroem(kernel="sigmoid", n_components=m, random_state=seed,
                                 **params).fit(X)
                Z = ny_sk.transform(X)
                sk.append(np.linalg.norm(Z[ev] @ Z.T - K) / norm)
                for stab, res in ((1e3, ours), (None, raw)):
                    ny = isvm.KreinNystroem("sigmoid", n_components=m, stability=stab,
                                            landmarks=ny_sk.component_indices_,
                                            random_state=seed, **params).fit(X)
                    res.append(np.linalg.norm(ny.approximate_kernel(X[ev], X) - K) / norm)
                    if stab is not None:
                        dropped.append(ny.n_unstable_)
            rows.append({"m": m, "ours": ours, "ours_no_rule": raw, "sklearn": sk,
                         "dropped": dropped})
            print(f"{m:>5} {np.mean(ours):>9.2%} {np.mean(raw):>14.2%} {np.mean(sk):>13.1%} "
                  f"{np.mean(dropped):>8.1f}")
        out.append({"params": params, "negative_mass": mass, "rows": rows})
    _save("nystroem_approx.json", {"kernels": out})


# -- scale --------------------------------------------------------------------------------------


def _task(n, rng, d=20):
    X = rng.normal(size=(n, d))
    y = np.where(np.sin(1.5 * X[:, 0]) + 0.5 * X[:, 1] ** 2 - 0.5
                 + 0.3 * rng.normal(size=n) > 0, 1, -1)
    return X, y


SIGMOID = dict(kernel="sigmoid", gamma=0.5 / 20, coef0=-0.5)


def _one_million(n):
    """Child process: fit n points, print time, peak RSS and accuracy as JSON."""
    rng = np.random.default_rng(0)
    X, y = _task(n, rng)
    Xt, yt = _task(50_000, rng)
    t = time.perf_counter()
    clf = isvm.NystroemSVC(n_components=500, C=1.0, random_state=0, n_jobs=-1,
                           verbose=True, **SIGMOID).fit(X, y)
    fit = time.perf_counter() - t
    acc = clf.score(Xt, yt)
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 2**20
    print(json.dumps({"n": n, "fit_s": fit, "peak_gb": peak, "accuracy": acc,
                      "passes": int(clf.n_iter_[0]), "converged": bool(clf.converged_),
                      "negative_features": int(clf.nystroem_.n_negative_)}))


def scale(args):
    from sklearn.kernel_approximation import Nystroem
    from sklearn.svm import LinearSVC

    rng = np.random.default_rng(0)
    n = 200_000
    X, y = _task(n, rng)
    Xt, yt = _task(50_000, rng)
    out = {"n": n}
    t = time.perf_counter()
    sk = Nystroem(n_components=500, random_state=0, **SIGMOID).fit(X)
    Z = sk.transform(X)
    t_feat = time.perf_counter() - t
    Zt = sk.transform(Xt)
    for loss, tol in (("hinge", 1e-3), ("squared_hinge", 1e-4)):
        t = time.perf_counter()
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            lin = LinearSVC(C=1.0, loss=loss, tol=tol, dual=True, max_iter=1000).fit(Z, y)
        t_svm = time.perf_counter() - t
        out[f"sklearn_{loss}"] = {"fit_s": t_feat + t_svm, "features_s": t_feat,
                                  "accuracy": lin.score(Zt, yt), "iterations": int(lin.n_iter_),
                                  "converged": not any("converge" in str(w.message)
                                                       for w in caught)}
    del Z, Zt
    for remedy in ("krein", "flip"):
        t = time.perf_counter()
        clf = isvm.NystroemSVC(n_components=500, C=1.0, remedy=remedy, random_state=0,
                               landmarks=sk.component_indices_, **SIGMOID).fit(X, y)
        out[f"ours_{remedy}"] = {"fit_s": time.perf_counter() - t,
                                 "accuracy": clf.score(Xt, yt), "passes": int(clf.n_iter_[0]),
                                 "converged": bool(clf.converged_)}
    for loss in ("hinge", "squared_hinge"):
        out[f"ratio_{loss}"] = out["ours_krein"]["fit_s"] / out[f"sklearn_{loss}"]["fit_s"]
    print(json.dumps(out, indent=1))
    if not args.skip_million:
        res = subprocess.run([sys.executable, __file__, "_million", "1000000"],
                             capture_output=True, text=True, check=True)
        out["million"] = json.loads(res.stdout.strip().splitlines()[-1])
        print(json.dumps(out["million"], indent=1))
    _save("nystroem_scale.json", out)


# -- landmarks ----------------------------------------------------------------------------------


def landmarks(args):
    if not os.path.exists(A1AT):
        print(f"{A1AT} is missing (this benchmark reads ../shared/data): nothing run.")
        return
    from sklearn.datasets import load_svmlight_file

    X, y = load_svmlight_file(A1AT, n_features=123)
    X = X.toarray()
    rng = np.random.default_rng(0)
    p = rng.permutation(X.shape[0])
    n = args.n
    tr, te = p[:n], p[n:]
    params = dict(kernel="sigmoid", gamma=0.01, coef0=-1.0)
    C = 1.0
    out = {"n_train": n, "n_test": int(te.size), "kernel": params, "C": C, "exact": {}}
    t = time.perf_counter()
    exact_svc = isvm.IndefiniteSVC(C=C, **params).fit(X[tr], y[tr])
    pred = {"indefinite": exact_svc.predict(X[te])}
    out["exact"]["indefinite"] = {"accuracy": float(np.mean(pred["indefinite"] == y[te])),
                                  "fit_s": time.perf_counter() - t}
    print("exact indefinite SVM", out["exact"]["indefinite"], flush=True)
    t = time.perf_counter()
    K = isvm.kernel_matrix(X[tr], kernel="sigmoid", gamma=0.01, coef0=-1.0)
    lam, U = np.linalg.eigh(K)
    del K
    t_eig = time.perf_counter() - t
    out["negative_mass"] = float(np.abs(lam[lam < 0]).sum() / np.abs(lam).sum())
    print(f"eigendecomposition {t_eig:.0f} s, negative mass {out['negative_mass']:.1%}",
          flush=True)
    Kt = isvm.kernel_matrix(X[te], X[tr], kernel="sigmoid", gamma=0.01, coef0=-1.0)
    KtU = Kt @ U
    del Kt
    for remedy, diag_train, diag_test in (
            ("flip", np.abs(lam), np.sign(lam)), ("clip", np.maximum(lam, 0), lam > 0)):
        t = time.perf_counter()
        Kf = (U * diag_train) @ U.T
        svc = isvm.IndefiniteSVC(kernel="precomputed", C=C).fit(Kf, y[tr])
        del Kf
        rows = (KtU * diag_test) @ U.T
        pred[remedy] = svc.predict(rows)
        del rows
        out["exact"][remedy] = {"accuracy": float(np.mean(pred[remedy] == y[te])),
                                "fit_s": time.perf_counter() - t + t_eig}
        print("exact", remedy, out["exact"][remedy], flush=True)
    # the Krein SVM's decisions are flip's with the consistent test transform (KreinSVC)
    pred["krein"] = pred["flip"]
    out["exact"]["krein"] = dict(out["exact"]["flip"])
    del U, KtU
    out["rows"] = []
    for m in args.m:
        for remedy in ("krein", "flip", "clip"):
            t = time.perf_counter()
            clf = isvm.NystroemSVC(n_components=m, remedy=remedy, C=C, random_state=0,
                                   **params).fit(X[tr], y[tr])
            fit = time.perf_counter() - t
            pr = clf.predict(X[te])
            row = {"m": m, "remedy": remedy, "fit_s": fit,
                   "accuracy": float(np.mean(pr == y[te])),
                   "agreement": float(np.mean(pr == pred[remedy])),
                   "converged": bool(clf.converged_)}
            out["rows"].append(row)
            print(row, flush=True)
    _save("nystroem_landmarks.json", out)
    _figure(out)


def _figure(out):
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    fig, ax = plt.subplots(figsize=(6, 3.6))
    for remedy, style in (("krein", "o-"), ("clip", "s--")):
        rows = [r for r in out["rows"] if r["remedy"] == remedy]
        ax.plot([r["m"] for r in rows], [100 * (1 - r["accuracy"]) for r in rows], style,
                label=f"NystroemSVC ({remedy})")
        ax.axhline(100 * (1 - out["exact"][remedy]["accuracy"]), ls=":",
                   color=ax.lines[-1].get_color(), label=f"exact {remedy}")
    ax.axhline(100 * (1 - out["exact"]["indefinite"]["accuracy"]), ls="-.", color="grey",
               label="exact SVM on K")
    ax.set_xscale("log")
    ax.set_xlabel("landmarks m")
    ax.set_ylabel("test error (%)")
    ax.set_title(f"Adult (a1a.t), n = {out['n_train']}, sigmoid kernel")
    ax.legend(fontsize=8)
    fig.tight_layout()
    path = os.path.join(HERE, "..", "docs", "_static", "nystroem_landmarks.png")
    os.makedirs(os.path.dirname(path), exist_ok=True)
    fig.savefig(path, dpi=110)
    print(f"written {os.path.normpath(path)}")


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    sub = ap.add_subparsers(dest="what", required=True)
    sub.add_parser("approx")
    sc = sub.add_parser("scale")
    sc.add_argument("--skip-million", action="store_true")
    lm = sub.add_parser("landmarks")
    lm.add_argument("--n", type=int, default=20_000)
    lm.add_argument("--m", type=int, nargs="+", default=[50, 100, 200, 500, 1000, 2000, 5000])
    mi = sub.add_parser("_million")
    mi.add_argument("n", type=int)
    args = ap.parse_args()
    if args.what == "approx":
        approx(args)
    elif args.what == "scale":
        scale(args)
    elif args.what == "landmarks":
        landmarks(args)
    else:
        _one_million(args.n)


if __name__ == "__main__":
    main()
