"""
An interactive page of the geometry: the explorer
=================================================

:func:`indefsvm.explore` trains the SVM for every kernel parameter, ``C`` and remedy of a
small grid, reads each model with the library's own diagnostics, and returns an
:class:`~indefsvm.Explorer`: one self-contained HTML page (no network; it opens from a file,
inside this documentation and inline in Jupyter) whose sliders select a frame. Each frame
shows the spectrum of the centred kernel, the data on its leading positive and negative
axis with the class hulls reduced by ``mu = 2C / sum(alpha)``, ``w`` and ``Mw`` (Haasdonk
2005, Prop. 7), the decision function over the input plane, and the readouts: signature,
negative mass, ``c'Kc``, ``w'Mw``, the verdicts of ``check_kernel`` and ``sanity_report``.

The same page from the command line::

    indefsvm explore --kernel sigmoid --out explore.html

Here: the sigmoid kernel on two moons, 3 gamma x 3 coef0 x 3 C x 3 remedies = 81 frames.
"""

# %%
import pathlib
import tempfile

import matplotlib.pyplot as plt
from sklearn.datasets import make_moons

import indefsvm as isvm

X, y = make_moons(120, noise=0.25, random_state=0)
ex = isvm.explore(X, y, kernel="sigmoid")
print(ex)
# a scratch folder: the example writes nothing beside itself
path = ex.save(pathlib.Path(tempfile.mkdtemp()) / "explore.html")
print(f"page written to {path}: open it in a browser")

# %%
# The numbers behind the page
# ---------------------------
# ``to_dict()`` holds what every frame shows. At the middle gamma: how ``w'Mw`` moves with
# ``C`` and ``coef0``, for the kernel as it is and after each remedy. Without a remedy a
# large ``C`` gives ``w'Mw <= 0`` (a counter-intuitive convex-hull classifier); clip and flip
# make the kernel PSD, and ``w'Mw`` is then always positive.
frames = ex.to_dict()["frames"]
gammas = ex.grid["params"]["gamma"]
mid = gammas[1]
coef0s = ex.grid["params"]["coef0"]
fig, axes = plt.subplots(1, 3, figsize=(13, 4), sharey=True)
for ax, remedy in zip(axes, ex.grid["remedies"], strict=True):
    for coef0, marker in zip(coef0s, "os^", strict=True):
        sel = [f for f in frames if f["remedy"] == remedy and f["params"]["gamma"] == mid
               and f["params"]["coef0"] == coef0]
        ax.plot([f["C"] for f in sel], [f["w_M_w"] for f in sel], marker=marker,
                label=f"coef0 = {coef0:g}")
    ax.axhline(0.0, color="k", lw=0.8)
    ax.set_xscale("log")
    ax.set_xlabel("C")
    ax.set_title(f"remedy: {remedy}")
    ax.legend(fontsize=8)
axes[0].set_ylabel("w'Mw (sanity_report)")
fig.suptitle(f"w'Mw of the SVM on two moons, sigmoid kernel, gamma = {mid:.3g}")
fig.tight_layout()

for f in frames:
    if f["params"]["gamma"] == mid and f["params"]["coef0"] == coef0s[-1] and f["C"] == 10.0:
        print(f"{f['remedy']:>5}: signature {tuple(f['signature'])}, w'Mw = {f['w_M_w']:+.3g}, "
              f"{f['sanity_verdict']}")

# %%
# The page itself
# ---------------
# The last expression of a cell shows the page inline (in Jupyter, and here).
ex  # noqa: B018 (the gallery and Jupyter show the last expression)

# %%
plt.show()
