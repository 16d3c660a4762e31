"""
A tour: one indefinite kernel's whole story
===========================================

A sigmoid kernel on the bundled heart data, from the question "can I use it?" to "is the model
sensible?" and a picture of why.

1. ``check_kernel``: the spectrum, the CPD test, the pseudo-Euclidean signature, the eta scan.
2. ``IndefiniteSVC``: SMO with the Lin & Lin rule stops at a stationary point.
3. ``sanity_report``: stationarity, ``w'Mw``, bounded support vectors, local minimality.
4. The geometry: the data embedded in ``R^(p, q)``; the first real and the first imaginary
   coordinates show how much of the picture is "imaginary".
"""

# %%
import matplotlib.pyplot as plt
import numpy as np

import indefsvm as isvm
from indefsvm.geometry import pe_plane_coordinates, pseudo_euclidean_embedding
from indefsvm.plotting import plot_convergence, plot_spectrum

X, y = isvm.datasets.load_heart(return_X_y=True)
params = dict(gamma=0.05, coef0=-0.3)

# %%
# 1. Before training
report = isvm.check_kernel(X=X, y=y, kernel="sigmoid", **params)
print(report)

# %%
# 2. Training
clf = isvm.IndefiniteSVC(kernel="sigmoid", C=5.0, **params).fit(X, y)
print(f"converged {bool(clf.converged_)} after {clf.n_iter_} iterations; KKT gap "
      f"{clf.kkt_gap_:.2g}; training accuracy {clf.score(X, y):.3f}")

# %%
# 3. After training
sanity = isvm.sanity_report(clf, X, y)
print(sanity)

# %%
# 4. Pictures: the spectrum, the convergence, and the embedded data
K = isvm.kernel_matrix(X, kernel="sigmoid", **params)
Z, M, sig = pseudo_euclidean_embedding(K)
P = pe_plane_coordinates(Z, M)
fig, axes = plt.subplots(1, 3, figsize=(15, 4.2))
plot_spectrum(report, ax=axes[0])
plot_convergence(clf, ax=axes[1])
axes[1].set_title("SMO objective (non-increasing)")
sv = clf.alpha_ > 0
for cls, col, mk in ((1.0, "C0", "o"), (-1.0, "C3", "s")):
    m = y == cls
    axes[2].scatter(P[m, 0], P[m, 1], c=col, marker=mk, s=14, label=f"y = {cls:+g}")
axes[2].scatter(P[sv, 0], P[sv, 1], s=60, facecolors="none", edgecolors="k", lw=0.6,
                label="support vectors")
axes[2].set_xlabel("first real coordinate")
axes[2].set_ylabel("first imaginary coordinate")
axes[2].set_title(f"heart in R^({sig.p},{sig.q}): w'Mw = {sanity.wMw:.3g}")
axes[2].legend(fontsize=8)
fig.tight_layout()
print(f"embedding: {Z.shape[1]} coordinates, signature ({sig.p}, {sig.q}, {sig.z}); "
      f"spread real {np.std(P[:, 0]):.3g} vs imaginary {np.std(P[:, 1]):.3g}")

plt.show()  # the gallery captures the figures; nothing is written to disk
