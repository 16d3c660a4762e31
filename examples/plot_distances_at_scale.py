"""
Distances at scale: a DTW SVM from distances to landmarks
=========================================================

The exact distance-kernel SVM needs all ``n^2`` distances: 10^4 series is about its limit.
``NystroemSVC(metric="dtw", ...)`` needs only the distances of every series to ``m``
landmarks (and among the landmarks): time and memory linear in ``n``. The benchmarks
(``benchmarks/bench_distances_scale.py``) train 10^5 series of length 128 in under two
minutes and 10^6 strings in under one on two cores; here a few thousand, so that the example
runs in seconds (2 400 training series).

First the check, on a random block of the series (never ``n x n``), then the model with
uniform and ``kmedoids++`` landmarks and with D2KE's random series, against the number of
landmarks.
"""

# %%
import time

import matplotlib.pyplot as plt
import numpy as np

import indefsvm as isvm

S, y = isvm.datasets.make_cbf(2800, length=(100, 140), noise=2.0, random_state=0)
train, test = np.arange(2400), np.arange(2400, 2800)
S_train, S_test = [S[i] for i in train], [S[i] for i in test]
dtw = {"window": 0.1}

rep = isvm.diagnostics.check_distances(X=S_train, y=y[train], metric="dtw",
                                       metric_params=dtw, n_landmarks=300, n_jobs=-1)
print(rep)

# %%
# One model, and what it costs
# ----------------------------
t0 = time.perf_counter()
clf = isvm.NystroemSVC(metric="dtw", metric_params=dtw, n_components=100, n_jobs=-1,
                       random_state=0).fit(S_train, y[train])
print(f"NystroemSVC(metric='dtw', n_components=100): fit {time.perf_counter() - t0:.1f} s, "
      f"test accuracy {clf.score(S_test, y[test]):.3f}, features "
      f"{clf.nystroem_.n_positive_} positive / {clf.nystroem_.n_negative_} negative")

# %%
# How many landmarks?
# -------------------
# Test accuracy against m: uniform landmarks, D^2 seeding on the DTW distances
# (``kmedoids++``), and D2KE's random series (a positive-definite kernel by construction).
ms = [5, 10, 20, 50, 100]
curves = {}
for label, kw in (("uniform landmarks", {}), ("kmedoids++ landmarks",
                                              {"landmarks": "kmedoids++"}),
                  ("D2KE random series", {"features": "d2ke"})):
    curves[label] = [isvm.NystroemSVC(metric="dtw", metric_params=dtw, n_components=m,
                                      n_jobs=-1, random_state=0, **kw)
                     .fit(S_train, y[train]).score(S_test, y[test]) for m in ms]
    print(label + ": " + ", ".join(f"m={m}: {a:.3f}" for m, a in zip(ms, curves[label],
                                                                      strict=True)))

fig, ax = plt.subplots(figsize=(6, 4))
for label, acc in curves.items():
    ax.plot(ms, acc, "o-", label=label)
ax.set_xscale("log")
ax.set_xlabel("m (landmarks or random series)")
ax.set_ylabel("test accuracy")
ax.set_title("DTW SVM on 2 400 CBF series: accuracy against m")
ax.legend()
fig.tight_layout()
plt.show()
