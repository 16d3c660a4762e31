"""Solvers for the SVM dual with indefinite kernels.

Each solver validates its inputs in Python and runs a compiled loop without the GIL.
"""

from ._ch import convex_hull_dual, random_feasible_hull_weights
from ._linear import linear_svc
from ._nqp import kernel_adatron, lsvm, m3, munk
from ._result import SolverResult
from ._smo import random_feasible_alpha, smo

__all__ = [
    "SolverResult",
    "convex_hull_dual",
    "kernel_adatron",
    "linear_svc",
    "lsvm",
    "m3",
    "munk",
    "random_feasible_alpha",
    "random_feasible_hull_weights",
    "smo",
]
