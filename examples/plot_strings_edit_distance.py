"""
My data are strings: an edit-distance kernel SVM
================================================

The edit (Levenshtein) distance counts the insertions, deletions and substitutions that turn
one string into another. Strings of different lengths with a class motif at a random place
have no fixed-length encoding, but they have an edit distance -- and
``exp(-gamma d^2)`` of it is an indefinite kernel. The library computes the distances with
rapidfuzz (compiled, bit-parallel), checks them, and trains on them as on any kernel.

The strings are generated: random ``ACGT`` backgrounds with one of three class motifs
inserted after three random edits.
"""

import matplotlib.pyplot as plt
import numpy as np
from sklearn.model_selection import GridSearchCV, StratifiedKFold
from sklearn.pipeline import make_pipeline

import indefsvm as isvm
from indefsvm.plotting import plot_gamma_profile

S, y = isvm.datasets.make_motif_strings(300, random_state=1)
S_train, y_train, S_test, y_test = S[:120], y[:120], S[120:], y[120:]
print("three strings:", *S_train[:3], sep="\n  ")

# %%
# The edit distances and the kernel they make
# -------------------------------------------
D_train = isvm.pairwise_distances(S_train, metric="levenshtein")
report = isvm.diagnostics.check_distances(D_train, y_train)
print(f"{report.verdict}; triangle inequalities violated: {report.triangle_violations}; "
      f"negative mass of -1/2 J D^2 J: {100 * report.negative_mass:.1f} %")

# %%
# Train on raw strings, tune gamma and C by cross-validation
# ----------------------------------------------------------
pipe = make_pipeline(isvm.PairwiseDistances("levenshtein"), isvm.DistanceKernel(),
                     isvm.IndefiniteSVC(kernel="precomputed"))
g0 = report.gamma_median
grid = GridSearchCV(pipe, {"distancekernel__gamma": [g0 / 4, g0, 4 * g0, 16 * g0],
                           "indefinitesvc__C": [1.0, 10.0, 100.0]},
                    cv=StratifiedKFold(3, shuffle=True, random_state=0)).fit(S_train, y_train)
D_test = isvm.pairwise_distances(S_test, S_train, metric="levenshtein")
nn_error = np.mean(y_train[np.argmin(D_test, axis=1)] != y_test)
print(f"test error: edit-distance SVM {100 * (1 - grid.score(S_test, y_test)):.1f} %, "
      f"1-NN {100 * nn_error:.1f} %")

fig, axes = plt.subplots(1, 2, figsize=(11, 4))
order = np.argsort(y_train, kind="stable")
axes[0].imshow(D_train[np.ix_(order, order)], cmap="viridis")
axes[0].set_title("edit distances, sorted by class")
plot_gamma_profile(report, ax=axes[1])
fig.tight_layout()
plt.show()  # the gallery captures the figures; nothing is written to disk
