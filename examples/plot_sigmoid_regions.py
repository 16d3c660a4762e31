"""
Sigmoid kernel regions and the entropic kernel, seen by ``check_kernel``
========================================================================

Lin & Lin (2003, §3) sort the sigmoid kernel ``tanh(a x'x' + r)`` into four cases by the
signs of ``a`` and ``r``. For ``a > 0`` the kernel matrix becomes conditionally positive
definite (CPD) once ``r`` is small enough (Thm 4), which is why they advise ``a > 0, r < 0``.

The first figure fixes ``a = 1 / n_features`` on the bundled heart data and sweeps ``r``: the
smallest eigenvalue of ``K`` and of ``K`` on the complement of ``e`` (the CPD test), and the
pseudo-Euclidean signature ``(p, q)`` of the centred kernel. The CPD region is shaded.

The second figure checks the entropic kernel ``exp(-gamma [D(x||x') + D(x'||x)])`` of the SVM
lecture notes on random probability vectors. The notes call it PSD after "exhaustive numerical
testing"; the check finds clearly negative eigenvalues (far above rounding) for small ``gamma``
and few dimensions, and PSD matrices for large ``gamma`` or many dimensions.
"""

# %%
import matplotlib.pyplot as plt
import numpy as np

import indefsvm as isvm

X, y = isvm.datasets.load_heart(return_X_y=True)
a = 1.0 / X.shape[1]
rs = np.linspace(-4.0, 2.0, 31)
rows = []
for r in rs:
    rep = isvm.check_kernel(X=X, y=y, kernel="sigmoid", gamma=a, coef0=r)
    rows.append((rep.lam_min, rep.cpd.min_eig_restricted, rep.signature.p, rep.signature.q,
                 rep.is_cpd, rep.sigmoid.case, rep.sigmoid.lemma2))
rows = np.array(rows, dtype=float)

fig, (ax1, ax2) = plt.subplots(1, 2, figsize=(11, 4))
ax1.plot(rs, rows[:, 0], "o-", ms=3, label=r"$\lambda_{\min}(K)$")
ax1.plot(rs, rows[:, 1], "s-", ms=3, label=r"$\lambda_{\min}$ of $K$ on $e^\perp$")
ax1.axhline(0, color="k", lw=0.8)
ax1.set_yscale("symlog", linthresh=1e-3)
ax1.set_xlabel("r")
ax1.set_title(f"sigmoid on heart, a = 1/{X.shape[1]}")
ax1.legend()
ax2.plot(rs, rows[:, 2], "o-", ms=3, label="p (positive)")
ax2.plot(rs, rows[:, 3], "s-", ms=3, label="q (negative)")
ax2.set_xlabel("r")
ax2.set_title("signature of the centred kernel")
ax2.legend()
for ax in (ax1, ax2):
    cpd = rows[:, 4] > 0
    if cpd.any():
        ax.axvspan(rs[cpd].min(), rs[cpd].max(), color="g", alpha=0.1, label="CPD")
fig.tight_layout()

for r, row in zip(rs[::5], rows[::5], strict=True):
    print(f"r = {r:5.2f}: case {int(row[5])}, lambda_min = {row[0]:9.3g}, "
          f"on e-perp {row[1]:9.3g}, (p, q) = ({int(row[2])}, {int(row[3])}), "
          f"CPD = {bool(row[4])}, Lemma 2 = {bool(row[6])}")

# %%
# The entropic kernel on random probability vectors
rng = np.random.default_rng(0)
gammas = [0.1, 1.0, 10.0, 100.0]
dims = [2, 3, 5, 10, 50]
ratio = np.zeros((len(dims), len(gammas)))
for i, d in enumerate(dims):
    P = rng.dirichlet(np.ones(d), size=200)
    for j, g in enumerate(gammas):
        rep = isvm.check_kernel(X=P, kernel="symmetric_kl", gamma=g)
        ratio[i, j] = rep.lam_min / rep.lam_max
        print(f"d = {d:2d}, gamma = {g:6.1f}: {rep.verdict:30s} "
              f"lambda_min / lambda_max = {ratio[i, j]:10.3g}, (p, q, z) = "
              f"{tuple(rep.signature)}")

fig2, ax = plt.subplots(figsize=(6, 4))
for i, d in enumerate(dims):
    ax.plot(gammas, ratio[i], "o-", label=f"d = {d}")
ax.axhline(0, color="k", lw=0.8)
ax.set_xscale("log")
ax.set_yscale("symlog", linthresh=1e-4)
ax.set_xlabel("gamma")
ax.set_ylabel(r"$\lambda_{\min} / \lambda_{\max}$")
ax.set_title("entropic kernel, 200 random probability vectors")
ax.legend()
fig2.tight_layout()
