"""
Which remedy, which gamma, which C? ``RemedySearchCV``
======================================================

A DTW kernel ``exp(-gamma DTW^2)`` is indefinite, and there are many answers to that: train
on it as it is, clip or flip its spectrum, shift it, square it, the Krein SVM, or a
nearest-neighbour rule on the distances. Each has its own best ``gamma`` and ``C``.
``RemedySearchCV`` scores all of them on the same folds, chooses the method of lowest
cross-validated error (exact ties go to the cheaper and simpler method), and
refits the choice -- one estimator from distances to predictions, which also fits in a
``Pipeline`` after ``PairwiseDistances``.

The series are the cylinder-bell-funnel task (Saito 1994), with noise.
"""

import matplotlib.pyplot as plt
import numpy as np
from sklearn.pipeline import make_pipeline

import indefsvm as isvm

X, y = isvm.datasets.make_cbf(200, length=(100, 140), noise=3.0, random_state=2)
X_train, y_train, X_test, y_test = X[:80], y[:80], X[80:], y[80:]

# %%
# The search on the training distances
# ------------------------------------
pdist = isvm.PairwiseDistances("dtw", window=0.1, n_jobs=-1)
D_train = pdist.fit_transform(X_train)
D_test = pdist.transform(X_test)
search = isvm.RemedySearchCV(kernel=isvm.DistanceKernel(), cv=5, random_state=0)
search.fit(D_train, y_train)
print(search.comparison_)
print(f"chosen: {search.best_method_} with {search.best_params_}")
print(f"test error of the choice: {100 * (1 - search.score(D_test, y_test)):.1f} %")

# %%
# The same from raw series: the search is the last step of a pipeline
# -------------------------------------------------------------------
pipe = make_pipeline(isvm.PairwiseDistances("dtw", window=0.1, n_jobs=-1),
                     isvm.RemedySearchCV(kernel=isvm.DistanceKernel(), cv=5, random_state=0))
pipe.fit(X_train, y_train)
print(f"pipeline on raw series, test error {100 * (1 - pipe.score(X_test, y_test)):.1f} %")

# %%
# The cross-validated error of each method over gamma (at its best C)
# --------------------------------------------------------------------
res = search.cv_results_
g0 = isvm.DistanceKernel().fit(D_train).gamma_
fig, ax = plt.subplots(figsize=(7, 4))
for method in ("indefinite SVM", "clip", "flip", "shift", "square"):
    rows = [i for i, p in enumerate(res["params"]) if p["method"] == method]
    gammas = sorted({res["params"][i]["gamma"] for i in rows})
    best = [max(res["mean_test_score"][i] for i in rows if res["params"][i]["gamma"] == g)
            for g in gammas]
    ax.semilogx(np.array(gammas) / g0, 100 * (1 - np.array(best)), "o-", label=method)
ax.set_xlabel("gamma / median rule")
ax.set_ylabel("cross-validated error (%)")
ax.set_title("gamma matters more than the remedy")
ax.legend()
plt.show()
