"""Solvers for the SVM dual with indefinite kernels.

Each solver validates its inputs in Python and runs a compiled loop without the GIL.
"""

from ._result import SolverResult
from ._smo import random_feasible_alpha, smo

__all__ = ["SolverResult", "random_feasible_alpha", "smo"]
