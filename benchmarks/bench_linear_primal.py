"""Why the linear stage stays a dual coordinate descent: a primal Newton method for the
squared hinge (the route issue 42, item 1 suggests: its products are BLAS calls, so they use
every core, and the same code would run on a GPU) against our compiled DCD for the hinge
loss, on the same Nystroem features, in the same process.

    python benchmarks/bench_linear_primal.py            # 2e5 x 500 rbf features
    python benchmarks/bench_linear_primal.py --n 50000 --threads 1,2

The Newton method is written here for the comparison only (it is not the library's): the
generalised Hessian of Keerthi & DeCoste (2005) with a free bias, conjugate gradients to a
forcing tolerance, an exact line search on the piecewise quadratic, and liblinear's primal
stopping rule ``|grad f| <= tol * min(#pos, #neg) / n * |grad f(0)|`` with ``tol = 1e-3``.
Its products run float32 through the BLAS on ``--threads`` threads (threadpoolctl).
Nothing here reads ../shared.
"""

from __future__ import annotations

import argparse
import time

import numpy as np
from sklearn.datasets import make_classification
from threadpoolctl import threadpool_limits

import indefsvm as isvm
from indefsvm.solvers._linear import linear_svc


def newton_l2(Z, y, C=1.0, tol=1e-3, max_newton=200, max_cg=500):
    """(w, b, Newton steps, Hessian products) of min 1/2 |w|^2 + C sum max(0, 1 - y f)^2."""
    n, d = Z.shape
    w, b, o = np.zeros(d), 0.0, np.zeros(n)

    def gradient(w, o):
        xi = 1.0 - y * o
        act = xi > 0
        a = np.where(act, 2.0 * C * xi, 0.0)  # the dual multipliers of the L2 loss
        gw = w - (Z.T @ (a * y).astype(np.float32)).astype(np.float64)
        return gw, -float(np.sum(a * y)), act

    gw, gb, act = gradient(w, o)
    pos = int(np.sum(y > 0))
    stop = tol * max(min(pos, n - pos), 1) / n * np.hypot(np.linalg.norm(gw), gb)
    steps = products = 0
    while np.hypot(np.linalg.norm(gw), gb) > stop and steps < max_newton:
        steps += 1
        D = np.where(act, 2.0 * C, 0.0)
        gn = np.hypot(np.linalg.norm(gw), gb)
        dw, db = np.zeros(d), 0.0
        rw, rb = -gw, -gb
        pw, pb = rw.copy(), rb
        rr = rw @ rw + rb * rb
        for _ in range(max_cg):
            t = ((Z @ pw.astype(np.float32)).astype(np.float64) + pb) * D
            hw, hb = pw + (Z.T @ t.astype(np.float32)).astype(np.float64), float(t.sum())
            products += 1
            step = rr / (pw @ hw + pb * hb)
            dw, db = dw + step * pw, db + step * pb
            rw, rb = rw - step * hw, rb - step * hb
            rr_new = rw @ rw + rb * rb
            if np.sqrt(rr_new) <= 0.1 * gn:  # forcing term: a tenth of the gradient
                break
            pw, pb, rr = rw + rr_new / rr * pw, rb + rr_new / rr * pb, rr_new
        zd = (Z @ dw.astype(np.float32)).astype(np.float64) + db
        wd, dd, t = w @ dw, dw @ dw, 1.0
        for _ in range(50):  # Newton on the derivative of the convex piecewise quadratic
            xi = 1.0 - y * (o + t * zd)
            m = xi > 0
            g1 = t * dd + wd - 2.0 * C * np.sum(xi[m] * y[m] * zd[m])
            h1 = dd + 2.0 * C * np.sum(zd[m] ** 2)
            if abs(g1) <= 1e-10 * max(abs(wd), 1.0):
                break
            t -= g1 / h1
        w, b, o = w + t * dw, b + t * db, o + t * zd
        gw, gb, act = gradient(w, o)
    return w, b, steps, products


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--n", type=int, default=200_000)
    ap.add_argument("--threads", default="1,2")
    args = ap.parse_args()
    X, y = make_classification(args.n, 20, n_informative=10, flip_y=0.05, random_state=0)
    ny = isvm.KreinNystroem("rbf", n_components=500, gamma="scale", random_state=0).fit(X)
    Z = np.ascontiguousarray(ny.transform(X), dtype=np.float32)
    ypm = np.where(y == 1, 1.0, -1.0)
    print(f"{args.n} x {Z.shape[1]} float32 rbf Nystroem features, C = 1")
    for th in (int(t) for t in args.threads.split(",")):
        with threadpool_limits(th):
            t0 = time.perf_counter()
            w, b, steps, products = newton_l2(Z, ypm)
            t_newton = time.perf_counter() - t0
        acc_n = np.mean(np.sign(Z @ w.astype(np.float32) + b) == ypm)
        t0 = time.perf_counter()
        res = linear_svc(Z, ypm, 1.0, n_jobs=th, random_state=0)
        t_dcd = time.perf_counter() - t0
        acc_d = np.mean(np.sign(Z @ res.extra["w"].astype(np.float32) + res.b) == ypm)
        print(f"{th} thread(s): Newton (squared hinge) {t_newton:.2f} s, {steps} steps, "
              f"{products} Hessian products, training accuracy {acc_n:.4f} | DCD (hinge) "
              f"{t_dcd:.2f} s, {res.n_iter} passes, {acc_d:.4f} | ratio Newton / DCD "
              f"{t_newton / t_dcd:.1f}", flush=True)


if __name__ == "__main__":
    main()
