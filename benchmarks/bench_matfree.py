"""Matrix-free ``check_kernel``: accuracy against dense eigenvalues, and scaling to 10^5+.

    python benchmarks/bench_matfree.py accuracy            # n = 20 000 (dense refs: ~20 min)
    python benchmarks/bench_matfree.py scaling --sizes 5000 10000 20000 50000 100000
    python benchmarks/bench_matfree.py scaling --sizes 20000 50000 --dask   # 2-worker cluster

``accuracy``: the rbf and sigmoid kernels of the first 20 000 rows of the a1a test set
(``../shared/data/a1a.t.gz``, LIBSVM format; the rows are said missing and skipped when the
file is not there) and a constructed kernel with known eigenvalues (three Householder
reflections around a diagonal, applied as an operator; ``e`` is an eigenvector, so the
centred spectrum is known too): the estimates (``method="slq"``, 20 seeds for the constructed
kernel) against dense ``eigvalsh`` / the known values.

``scaling``: ``check_kernel(X, y, kernel="sigmoid", gamma=1/d, coef0=-1, method="slq")`` on
generated data (d = 20), each size in its own process (peak RSS of that process; with
``--dask`` also the largest worker's), on one process with ``n_jobs=2`` or on a
``distributed.LocalCluster`` of 2 single-threaded workers. Sizes up to 10 000 also get the
dense figures.
"""

from __future__ import annotations

import argparse
import gzip
import json
import math
import os
import resource
import subprocess
import sys
import time

import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))
SHARED = os.path.normpath(os.path.join(HERE, "..", "..", "shared", "data"))


def _rss_mb():
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024.0


def _data(n, d=20, seed=0):
    rng = np.random.default_rng(seed)
    X = rng.standard_normal((n, d))
    y = np.where(X[:, 0] + 0.5 * rng.standard_normal(n) > 0, 1, -1)
    return X, y


def one(args):
    """One size, one engine; prints one JSON line."""
    import indefsvm as isvm

    X, y = _data(args.n)
    kw = dict(kernel="sigmoid", gamma=1.0 / X.shape[1], coef0=-1.0, method="slq",
              random_state=0)
    worker_mb = None
    t0 = time.perf_counter()
    if args.engine == "dask":
        import dask.array as da
        import distributed

        with distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=True,
                                      dashboard_address=None,
                                      memory_limit="8GiB") as cluster, \
                distributed.Client(cluster) as client:
            t0 = time.perf_counter()
            chunk = max(2000, math.ceil(args.n / 8))
            rep = isvm.check_kernel(X=da.from_array(X, chunks=(chunk, X.shape[1])), y=y, **kw)
            seconds = time.perf_counter() - t0
            worker_mb = max(client.run(_rss_mb).values())
    else:
        rep = isvm.check_kernel(X=X, y=y, n_jobs=2, **kw)
        seconds = time.perf_counter() - t0
    sp, sig = rep.spectrum, rep.signature
    out = {"n": args.n, "engine": args.engine, "seconds": round(seconds, 1),
           "rss_mb": round(_rss_mb()), "worker_rss_mb": None if worker_mb is None
           else round(worker_mb), "passes": sp.details["passes"], "lam_min": sp.lam_min,
           "lam_min_interval": sp.intervals["lam_min"], "lam_max": sp.lam_max,
           "lam_max_interval": sp.intervals["lam_max"], "q": sig.q,
           "q_interval": sig.intervals["q"], "mass": sig.negative_mass,
           "mass_interval": sig.intervals["negative_mass"], "eta_neg": rep.eta.n_negative,
           "verdict": rep.verdict}
    if args.n <= 10000:
        dense = isvm.check_kernel(X=X, y=y, wmw_C=None, **{**kw, "method": "dense"})
        out.update(dense_lam_min=dense.lam_min, dense_lam_max=dense.lam_max,
                   dense_q=dense.signature.q, dense_mass=dense.signature.negative_mass)
    print(json.dumps(out), flush=True)


def scaling(args):
    print(f"# machine: {_machine()}")
    print(f"{'n':>7} {'engine':>6} {'time s':>7} {'RSS MB':>7} {'worker':>7} {'passes':>6} "
          f"{'lambda_min [interval]':>30} {'q [interval]':>26} {'neg. mass [interval]':>26}"
          f" {'dense lmin / q / mass':>28}")
    engines = ["dask"] if args.dask else ["local"]
    for n in args.sizes:
        for engine in engines:
            proc = subprocess.run([sys.executable, __file__, "one", "--n", str(n), "--engine",
                                   engine], capture_output=True, text=True)
            lines = [ln for ln in proc.stdout.splitlines() if ln.startswith("{")]
            if proc.returncode != 0 or not lines:
                print(f"{n:>7} {engine:>6} failed: {proc.stderr.strip().splitlines()[-1:]}")
                continue
            r = json.loads(lines[-1])
            lm = f"{r['lam_min']:.5g} [{r['lam_min_interval'][0]:.5g}, " \
                 f"{r['lam_min_interval'][1]:.5g}]"
            q = f"{r['q']} {r['q_interval']}"
            mass = f"{r['mass']:.4f} [{r['mass_interval'][0]:.4f}, " \
                   f"{r['mass_interval'][1]:.4f}]"
            dense = (f"{r['dense_lam_min']:.5g} / {r['dense_q']} / {r['dense_mass']:.4f}"
                     if "dense_q" in r else "-")
            worker = "-" if r["worker_rss_mb"] is None else str(r["worker_rss_mb"])
            print(f"{n:>7} {engine:>6} {r['seconds']:>7} {r['rss_mb']:>7} {worker:>7} "
                  f"{r['passes']:>6} {lm:>30} {q:>26} {mass:>26} {dense:>28}", flush=True)


class ConstructedOperator:
    """K = H diag(lam) H' with H = H1 H2 H3 (Householder reflections): H2 and H3 fix e_1,
    H1 maps e_1 to e/sqrt(n), so K e = lam[0] e and the centred kernel's spectrum is lam
    without lam[0] (and a zero)."""

    def __init__(self, lam, seed=0):
        n = lam.shape[0]
        rng = np.random.default_rng(seed)
        self.n, self.lam, self.passes = n, lam, 0
        u = np.full(n, 1.0 / math.sqrt(n))
        v1 = u.copy()
        v1[0] -= 1.0
        self.vs = [v1 / np.linalg.norm(v1)]
        for _ in range(2):
            w = rng.standard_normal(n)
            w[0] = 0.0
            self.vs.append(w / np.linalg.norm(w))
        # only the trace of K is read from the diagonal (K's trace is sum(lam))
        self.diag = np.full(n, lam.sum() / n)

    def _h(self, V, order):
        for v in order:
            V = V - 2.0 * np.outer(v, v @ V)
        return V

    def matmat(self, V, want_eta=False):
        self.passes += 1
        # K V = H1 H2 H3 diag(lam) H3 H2 H1 V
        W = self._h(V, [self.vs[0], self.vs[1], self.vs[2]])
        W = self.lam[:, None] * W
        W = self._h(W, [self.vs[2], self.vs[1], self.vs[0]])
        return W, ({"n_negative": 0, "cross": np.zeros((1, 1), int), "worst": 0.0, "wi": -1,
                    "wj": -1} if want_eta else None)


def _load_a1a(n):
    path = os.path.join(SHARED, "a1a.t.gz")
    if not os.path.exists(path):
        return None
    rows = []
    with gzip.open(path, "rt") as fh:
        for line in fh:
            rows.append(line)
            if len(rows) == n:
                break
    X = np.zeros((len(rows), 123))
    y = np.empty(len(rows))
    for i, line in enumerate(rows):
        parts = line.split()
        y[i] = float(parts[0])
        for tok in parts[1:]:
            j, v = tok.split(":")
            X[i, int(j) - 1] = float(v)
    return X, y


def accuracy(args):
    import indefsvm as isvm
    from indefsvm.diagnostics import signature, spectrum
    from indefsvm.diagnostics.spectrum import matrix_free_spectrum

    print(f"# {os.cpu_count()} cores; slq defaults (24 probes; steps by size)")
    from indefsvm.kernels import kernel_matrix

    print(f"# machine: {_machine()}")
    n = args.n
    print(f"constructed K, n = {n}: known eigenvalues, 20 seeds (slq)")
    rng = np.random.default_rng(0)
    npos, nneg = int(0.3 * n), int(0.1 * n)
    lam = np.concatenate([[50.0], 40.0 * np.exp(-np.arange(npos) / 300.0),
                          -8.0 * np.exp(-np.arange(nneg) / 200.0),
                          np.zeros(n - 1 - npos - nneg)])
    rng.shuffle(lam[1:])
    mu = np.delete(lam, 0)
    rtol = n * np.finfo(float).eps
    scale = np.abs(lam).max()
    tol = rtol * scale
    true = {"lam_min": lam.min(), "lam_max": lam.max(), "q": int(np.sum(mu < -tol)),
            "mass": float(np.abs(mu[mu < -tol]).sum() / np.abs(mu).sum())}
    print(f"  true: lambda_min {true['lam_min']:.6g}, lambda_max {true['lam_max']:.6g}, q "
          f"{true['q']}, negative mass {true['mass']:.5f}")
    worst = {"lam_min": 0.0, "lam_max": 0.0, "mass": 0.0}
    inside = {"lam_min": 0, "lam_max": 0, "q": 0, "mass": 0}
    t_all = 0.0
    for seed in range(20):
        op = ConstructedOperator(lam, seed=1)
        t0 = time.perf_counter()
        sp = matrix_free_spectrum(op, rtol=rtol, method="slq", random_state=seed)
        t_all += time.perf_counter() - t0
        iv = sp.intervals
        worst["lam_min"] = max(worst["lam_min"], abs(sp.lam_min / true["lam_min"] - 1))
        worst["lam_max"] = max(worst["lam_max"], abs(sp.lam_max / true["lam_max"] - 1))
        worst["mass"] = max(worst["mass"], abs(sp.negative_mass - true["mass"]))
        inside["lam_min"] += iv["lam_min"][0] <= true["lam_min"] <= iv["lam_min"][1] + 1e-9
        inside["lam_max"] += iv["lam_max"][0] - 1e-9 <= true["lam_max"] <= iv["lam_max"][1]
        inside["q"] += iv["n_neg"][0] <= true["q"] <= iv["n_neg"][1]
        inside["mass"] += iv["negative_mass"][0] <= true["mass"] <= iv["negative_mass"][1]
    print(f"  worst of 20 seeds: |rel. error| lambda_min {worst['lam_min']:.2e}, lambda_max "
          f"{worst['lam_max']:.2e}; |error| negative mass {worst['mass']:.4f}; inside the "
          f"interval: lambda_min {inside['lam_min']}/20, lambda_max {inside['lam_max']}/20, q "
          f"{inside['q']}/20, mass {inside['mass']}/20; {t_all / 20:.1f} s a run")
    data = _load_a1a(n)
    if data is None:
        print(f"  a1a rows: {os.path.join(SHARED, 'a1a.t.gz')} is missing; skipped")
        return
    X, y = data
    cache_path = os.path.join(HERE, "results", "matfree_dense_refs.json")
    cache = json.load(open(cache_path)) if os.path.exists(cache_path) else {}
    for name, params in (("rbf", {"gamma": 0.05}), ("sigmoid", {"gamma": 0.01,
                                                               "coef0": -0.5})):
        t0 = time.perf_counter()
        rep = isvm.check_kernel(X=X, y=y, kernel=name, method="slq", random_state=0,
                                n_jobs=2, **params)
        t_mf = time.perf_counter() - t0
        key = f"a1a[:{X.shape[0]}] {name} {json.dumps(params, sort_keys=True)}"
        if key not in cache:
            # the dense figures (10 minutes each at n = 20 000) are kept for later runs
            t0 = time.perf_counter()
            K = kernel_matrix(X, kernel=name, **params)
            ref = spectrum(K, method="dense")
            ref_sig = signature(ref)
            del K
            cache[key] = {"lam_min": ref.lam_min, "lam_max": ref.lam_max, "q": ref_sig.q,
                          "p": ref_sig.p, "mass": ref_sig.negative_mass, "scale": ref.scale,
                          "seconds": time.perf_counter() - t0}
            os.makedirs(os.path.dirname(cache_path), exist_ok=True)
            with open(cache_path, "w") as fh:
                json.dump(cache, fh, indent=1)
        c = cache[key]
        t_dense = c["seconds"]
        sp, sig = rep.spectrum, rep.signature
        print(f"a1a[:{X.shape[0]}] {name} {params}: matrix-free {t_mf:.0f} s, dense "
              f"{t_dense:.0f} s")
        for label, est, iv, exact in (
                ("lambda_min", sp.lam_min, sp.intervals["lam_min"], c["lam_min"]),
                ("lambda_max", sp.lam_max, sp.intervals["lam_max"], c["lam_max"]),
                ("q", sig.q, sig.intervals["q"], c["q"]),
                ("p", sig.p, sig.intervals["p"], c["p"]),
                ("negative mass", sig.negative_mass, sig.intervals["negative_mass"],
                 c["mass"])):
            # an eigenvalue's error relative to itself, or to max |lambda| when it is ~0
            rel = "" if label in ("q", "p", "negative mass") else \
                f", error / max(|dense|, 1e-3 max|lambda|) " \
                f"{abs(est - exact) / max(abs(exact), 1e-3 * c['scale']):.2e}"
            absd = f", abs. error {abs(est - exact):.4f}" if label == "negative mass" else ""
            ok = iv[0] - 1e-9 * abs(c["scale"]) <= exact <= iv[1] + 1e-9 * abs(c["scale"])
            print(f"  {label:>13}: estimate {est:.6g} in [{iv[0]:.6g}, {iv[1]:.6g}], dense "
                  f"{exact:.6g}{rel}{absd}, {'inside' if ok else 'OUTSIDE'}")


def _machine():
    sys.path.insert(0, HERE)
    from _machine import cpu_name

    return f"{cpu_name()}, {os.cpu_count()} cores"


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    sub = ap.add_subparsers(dest="cmd", required=True)
    a = sub.add_parser("accuracy")
    a.add_argument("--n", type=int, default=20000)
    s = sub.add_parser("scaling")
    s.add_argument("--sizes", type=int, nargs="+", default=[5000, 10000, 20000, 50000, 100000])
    s.add_argument("--dask", action="store_true")
    o = sub.add_parser("one")
    o.add_argument("--n", type=int, required=True)
    o.add_argument("--engine", choices=["local", "dask"], default="local")
    args = ap.parse_args()
    {"accuracy": accuracy, "scaling": scaling, "one": one}[args.cmd](args)


if __name__ == "__main__":
    main()
