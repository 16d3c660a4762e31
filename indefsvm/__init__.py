"""indefsvm: support vector machines with indefinite (non-PSD) kernels, and diagnostics.

Public names
------------
kernel_matrix, kernels
    Kernel functions, PSD or not.
IndefiniteSVC
    scikit-learn compatible classifier trained by SMO with the Lin & Lin rule for concave
    sub-problems.
check_kernel, diagnostics
    Is this kernel usable in an SVM? PSD / CPD tests, signature, eta scan, class means.
solvers
    The solvers themselves (``solvers.smo``), returning :class:`solvers.SolverResult`.
datasets
    Small bundled data sets (heart, sonar, breast cancer).
UnboundedObjectiveError, ConvergenceWarning
    What a solver raises or warns.
"""

from . import datasets, diagnostics, kernels, solvers
from .diagnostics import KernelReport, check_kernel
from .estimator import IndefiniteSVC
from .exceptions import ConvergenceWarning, UnboundedObjectiveError
from .kernels import kernel_matrix

__version__ = "0.1.0"

__all__ = [
    "ConvergenceWarning",
    "IndefiniteSVC",
    "KernelReport",
    "UnboundedObjectiveError",
    "check_kernel",
    "datasets",
    "diagnostics",
    "kernel_matrix",
    "kernels",
    "solvers",
]
