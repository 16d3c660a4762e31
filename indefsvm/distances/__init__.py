"""Distances as first-class input: objects -> distances -> an (indefinite) kernel.

* :func:`pairwise_distances` / :class:`PairwiseDistances` -- DTW (compiled, OpenMP),
  Levenshtein (rapidfuzz), Euclidean, city block or any callable, between time series of any
  lengths, strings or vectors;
* :class:`DistanceKernel` -- distance-substitution kernels ``exp(-gamma d^2)``,
  ``exp(-gamma d)``, the linear and polynomial forms, with gamma by the median rule;
* :func:`learn_window` -- DTW's window of least leave-one-out 1-NN error (the UCR archive's
  learned window);
* the global alignment kernel of series (Cuturi 2011; compiled, in log domain):
  ``kernel_matrix(series, kernel="gak")``, and ``metric="gak"``, the distance it induces;
  :func:`gak_sigma`, its bandwidth by Cuturi's rule;
* :func:`register_metric` -- a new distance in the metric table, from any file: everything
  that takes ``metric=`` (and the command line's ``--metric``, for series and strings) takes
  it;
* :class:`RandomDistanceFeatures` -- D2KE: ``exp(-gamma d(x, omega_j))`` to random objects,
  a positive-definite kernel from any distance at a cost linear in ``n``.

``make_pipeline(PairwiseDistances("dtw"), DistanceKernel(), IndefiniteSVC(kernel=
"precomputed"))`` trains on raw series; :func:`indefsvm.diagnostics.check_distances` says
whether the distance is Euclidean (then the kernel is PSD) and for which gamma it is nearly so.
"""

from .._metrics import register_metric
from ._alignment import gak_sigma
from ._kernel import KINDS, DistanceKernel, median_gamma
from ._pairwise import METRICS, PairwiseDistances, pairwise_distances
from ._random import RandomDistanceFeatures
from ._window import WindowChoice, learn_window

__all__ = ["KINDS", "METRICS", "DistanceKernel", "PairwiseDistances",
           "RandomDistanceFeatures", "WindowChoice", "gak_sigma", "learn_window",
           "median_gamma", "pairwise_distances", "register_metric"]
