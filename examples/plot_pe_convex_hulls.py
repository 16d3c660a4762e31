"""
Convex hulls in a pseudo-Euclidean plane (Haasdonk, Figs. 1 and 2)
==================================================================

Points of ``R^(1,1)``: the first coordinate is real (horizontal), the second imaginary
(vertical), and squared distances are ``dx^2 - dy^2``. The kernel is the pseudo-Euclidean
inner product ``x1 x1' - x2 x2'`` (``kernel="pseudo_euclidean", p=1``).

Figure 1: the convex-hull classifier (CH-DU) finds the closest points ``z+`` and ``z-`` of the
(reduced) convex hulls of the two classes and classifies by pseudo-Euclidean distance to them.
On separable data it works with ordinary hulls (``mu = 1``) and reduced ones (``mu = 0.1``).
On overlapping data the ordinary hulls give ``w'Mw <= 0`` (``w = z+ - z-``): ``w`` and its
reflection ``Mw`` point to different sides of the line, a counter-intuitive classifier; reducing
the hulls (``mu = 0.12``) restores ``w'Mw > 0``.

Figure 2: the SVM with the same kernel is the CH classifier with ``mu = 2C / sum(alpha)``
(Prop. 7). A large ``C`` on the overlapping data gives ``w'Mw < 0``; a small ``C`` gives a
sensible solution. The sanity report says so in words.
"""

# %%
import warnings

import matplotlib.pyplot as plt
import numpy as np

import indefsvm as isvm
from indefsvm.plotting import plot_pe_geometry

rng = np.random.default_rng(3)


def two_clouds(n, sep, spread):
    neg = np.c_[rng.normal(-sep, 0.35, n), rng.normal(0.0, spread, n)]
    pos = np.c_[rng.normal(sep, 0.35, n), rng.normal(0.0, spread, n)]
    return np.r_[neg, pos], np.r_[-np.ones(n), np.ones(n)]


Zs, ys = two_clouds(12, 1.2, 0.15)  # separable along the real axis
Zn, yn = two_clouds(12, 0.5, 0.5)   # overlapping
pe = dict(kernel="pseudo_euclidean", kernel_params={"p": 1})

fig, axes = plt.subplots(2, 2, figsize=(10, 10))
for ax, (Z, y, mu, name) in zip(
    axes.ravel(),
    [(Zs, ys, 1.0, "(a) separable, mu = 1"), (Zs, ys, 0.1, "(b) separable, mu = 0.1"),
     (Zn, yn, 1.0, "(c) overlapping, mu = 1"), (Zn, yn, 0.12, "(d) overlapping, mu = 0.12")],
    strict=True,
):
    with warnings.catch_warnings():
        # panel (d) is the counter-intuitive case (w'Mw < 0) the classifier warns about
        warnings.simplefilter("ignore", UserWarning)
        ch = isvm.ConvexHullClassifier(mu=mu, n_restarts=5, random_state=0, **pe).fit(Z, y)
    plot_pe_geometry(ch, Z, y, ax=ax, grid=120)
    ax.set_title(f"{name}: w'Mw = {ch.wMw_:.3g}")
    print(f"CH {name}: w'Mw = {ch.wMw_:.4g}, #SV = {ch.support_.size}, "
          f"SVM equivalent: {ch.svm_equivalent_['reason']}")
fig.suptitle("Fig. 1: pseudo-Euclidean CH classification")
fig.tight_layout()

# %%
fig2, axes2 = plt.subplots(1, 3, figsize=(14, 5))
for ax, (Z, y, C, name) in zip(
    axes2,
    [(Zs, ys, 10.0, "(a) separable, C = 10"), (Zn, yn, 1e3, "(b) overlapping, C = 1000"),
     (Zn, yn, 0.05, "(c) overlapping, C = 0.05")],
    strict=True,
):
    svm = isvm.IndefiniteSVC(C=C, **pe).fit(Z, y)
    rep = isvm.sanity_report(svm, Z, y)
    plot_pe_geometry(svm, Z, y, ax=ax, grid=120)
    ax.set_title(f"{name}: w'Mw = {rep.wMw:.3g}")
    print(f"SVM {name}: w'Mw = {rep.wMw:.4g}, #SV = {rep.n_sv}, #bSV = {rep.n_bounded}, "
          f"train error {rep.train_error:.2%} <= bounded ratio {rep.bounded_ratio:.2%}")
fig2.suptitle("Fig. 2: the SVM with an indefinite kernel is a CH classifier")
fig2.tight_layout()

plt.show()  # the gallery captures the figures; nothing is written to disk
