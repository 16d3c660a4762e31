"""Two parts of ``NystroemSVC`` at 10^7 rows that a CPU can measure (issue 44): the host's
work before the features, and the start of the device's linear SVM.

    python benchmarks/bench_scale_parts.py host            # KreinNystroem.fit, 1e7 x 20
    python benchmarks/bench_scale_parts.py warm            # 1e5 rows x 10 noisy copies
    python benchmarks/bench_scale_parts.py warm --base 50000 --copies 10
    python benchmarks/bench_scale_parts.py start           # the subsample start, 4 problems

``host``: ``KreinNystroem(n_components=500).fit`` on ``--rows`` Gaussian rows (d = 20), in
the same process with the earlier code of its two O(n) parts put back -- the stability
rule's held-out rows drawn from ``setdiff1d(arange(n), landmarks)`` and gamma="scale"'s
``X.var()`` -- and with today's, alternating (old, new, old, new).

``warm``: the device decomposition (``linear_svc_device``) run on NumPy from its warm start,
on rbf Nystroem features (m = 500, C = 1) of ``make_classification`` (20 features, 10
informative, 5 % labels flipped) repeated ``--copies`` times with noise 0.1 -- as
``bench_gpu.py`` builds its 10^7 rows from 10^6 -- once with the warm start's gradient
``Z'd`` as one float32 product (the earlier code) and once summed in float64 over blocks
(today's). Reports the gap at step 0 and the steps to tol = 1e-3. About 8 minutes at
10^6 rows on two cores (the L-BFGS start is the slow part on a CPU).

``start``: the warm start from ``SUBSAMPLE_FROM`` rows (off by default: its widths on a
tenth of the rows, rescaled, then the last on all) against the earlier one (every width
on all rows, plain L-BFGS), on ten noisy copies of 5·10^4 rows (C = 1) and on 5·10^5
distinct rows (C = 0.1, 1, 10): the evaluations over all rows and over the subsample
(each one product ``Z' d``), the gap at step 0 and the decomposition's steps to tol =
1e-3. About 20 minutes on two cores.
Nothing here reads ../shared.
"""

from __future__ import annotations

import argparse
import json
import time

import numpy as np


def task_host(rows: int) -> dict:
    from indefsvm import KreinNystroem, kernels
    from indefsvm.nystroem import _features

    X = np.random.default_rng(0).standard_normal((rows, 20))
    new_heldout, new_variance = _features.KreinNystroem._heldout, kernels._variance

    def old_heldout(self, n, idx, rng):
        rest = np.setdiff1d(np.arange(n), idx)
        k = min(rest.size, max(500, idx.size))
        return rest if k == rest.size else np.sort(rng.choice(rest, size=k, replace=False))

    out = {"old": [], "new": []}
    try:
        for which in ("old", "new", "old", "new"):
            old = which == "old"
            _features.KreinNystroem._heldout = old_heldout if old else new_heldout
            kernels._variance = (lambda A: float(A.var())) if old else new_variance
            t = time.perf_counter()
            KreinNystroem("rbf", n_components=500, random_state=0).fit(X)
            out[which].append(time.perf_counter() - t)
            print(f"KreinNystroem.fit, {rows} x 20, {which} code: {out[which][-1]:.2f} s",
                  flush=True)
    finally:
        _features.KreinNystroem._heldout, kernels._variance = new_heldout, new_variance
    return out


def task_warm(base: int, copies: int) -> dict:
    from sklearn.datasets import make_classification

    from indefsvm import KreinNystroem
    from indefsvm._device import Device
    from indefsvm.solvers import _linear_device as dev

    X, y = make_classification(base, 20, n_informative=10, flip_y=0.05, random_state=0)
    rng = np.random.default_rng(0)
    X = np.concatenate([X + 0.1 * rng.standard_normal(X.shape) for _ in range(copies)])
    y = np.tile(np.where(y == 1, 1.0, -1.0), copies)
    Z = KreinNystroem("rbf", n_components=500, random_state=0).fit(X).transform(X)
    Z = Z.astype(np.float32)
    emulated = Device("cuda", np, True)
    blocked = dev._transposed_product

    def one_product(xp, Z, v):
        return (Z.T @ v.astype(xp.float32)).astype(xp.float64)

    out = {}
    try:
        for name, product in (("one float32 product", one_product),
                              ("float32 blocks summed in float64", blocked)):
            dev._transposed_product = product
            t = time.perf_counter()
            a0 = dev.warm_start(np, Z, y, np.ones(len(y)))
            warm = time.perf_counter() - t
            start = dev.linear_svc_device(Z, y, 1.0, device=emulated, alpha0=a0, max_iter=0)
            res = dev.linear_svc_device(Z, y, 1.0, device=emulated, alpha0=a0, max_iter=400)
            out[name] = {"warm_start_s": warm, "gap_at_step_0": float(start.kkt_gap),
                         "steps": int(res.n_iter), "converged": bool(res.converged)}
            print(f"{len(y)} rows ({base} x {copies}), gradient as {name}: gap at step 0 "
                  f"{start.kkt_gap:.3g}, {res.n_iter} steps, {res.status}", flush=True)
    finally:
        dev._transposed_product = blocked
    return out


def _features(base: int, copies: int):
    from sklearn.datasets import make_classification

    from indefsvm import KreinNystroem

    X, y = make_classification(base, 20, n_informative=10, flip_y=0.05, random_state=0)
    rng = np.random.default_rng(0)
    X = np.concatenate([X + 0.1 * rng.standard_normal(X.shape) for _ in range(copies)])
    y = np.tile(np.where(y == 1, 1.0, -1.0), copies)
    Z = KreinNystroem("rbf", n_components=500, random_state=0).fit(X).transform(X)
    return Z.astype(np.float32), y


def task_start() -> dict:
    from indefsvm._device import Device
    from indefsvm.solvers import _linear_device as dev

    emulated = Device("cuda", np, True)
    product, rows_from = dev._transposed_product, dev.SUBSAMPLE_ROWS
    out = {}
    for base, copies, Cs in ((50_000, 10, (1.0,)), (500_000, 1, (0.1, 1.0, 10.0))):
        Z, y = _features(base, copies)
        n = len(y)
        for C in Cs:
            for start in ("earlier", "subsample"):
                counts = {}

                def counted(xp, Zs, v, counts=counts, **kw):
                    counts[Zs.shape[0]] = counts.get(Zs.shape[0], 0) + 1
                    return product(xp, Zs, v, **kw)

                dev._transposed_product = counted
                dev.SUBSAMPLE_ROWS = dev.SUBSAMPLE_FROM if start == "subsample" else None
                try:
                    t = time.perf_counter()
                    a0 = dev.warm_start(np, Z, y, np.full(n, C))
                    seconds = time.perf_counter() - t
                finally:
                    dev._transposed_product, dev.SUBSAMPLE_ROWS = product, rows_from
                first = dev.linear_svc_device(Z, y, C, device=emulated, alpha0=a0,
                                              max_iter=0)
                res = dev.linear_svc_device(Z, y, C, device=emulated, alpha0=a0,
                                            max_iter=400)
                key = f"{base}x{copies} C={C:g} {start}"
                out[key] = {"evaluations_all_rows": counts.get(n, 0),
                            "evaluations_subsample": sum(v for k, v in counts.items()
                                                         if k != n),
                            "start_s": seconds, "gap_at_step_0": float(first.kkt_gap),
                            "steps": int(res.n_iter), "converged": bool(res.converged),
                            "objective": float(res.objective)}
                print(f"{key}: {out[key]}", flush=True)
    return out


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("task", choices=["host", "warm", "start"])
    ap.add_argument("--rows", type=int, default=10_000_000, help="host: rows")
    ap.add_argument("--base", type=int, default=100_000, help="warm: rows of the base set")
    ap.add_argument("--copies", type=int, default=10, help="warm: noisy copies")
    ap.add_argument("--out", default=None, help="write the figures to this JSON file")
    args = ap.parse_args()
    res = (task_host(args.rows) if args.task == "host" else task_start()
           if args.task == "start" else task_warm(args.base, args.copies))
    if args.out:
        with open(args.out, "w", encoding="utf-8") as fh:
            json.dump(res, fh, indent=2)


if __name__ == "__main__":
    main()
