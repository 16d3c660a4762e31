"""indefsvm: support vector machines with indefinite (non-PSD) kernels, and diagnostics.

Public names
------------
kernel_matrix, kernels
    Kernel functions, PSD or not.
IndefiniteSVC, IndefiniteNuSVC, IndefiniteSVR, IndefiniteOneClassSVM
    scikit-learn compatible estimators (LIBSVM's C-SVC, nu-SVC, epsilon-SVR and one-class
    SVM) trained by one SMO with the Lin & Lin rule for concave sub-problems.
check_kernel, diagnostics
    Is this kernel usable in an SVM? PSD / CPD tests, signature, eta scan, class means;
    ``diagnostics.check_distances`` for a distance matrix (Euclidean? metric? which gamma?).
pairwise_distances, PairwiseDistances, DistanceKernel, distances
    Objects to distances (DTW, Levenshtein, ...) to distance-substitution kernels.
remedies, KreinSVC, compare_remedies
    What to do with an indefinite kernel: spectrum fixes, the Krein SVM, a comparison.
solvers
    The solvers themselves (``solvers.smo``), returning :class:`solvers.SolverResult`.
datasets
    Small bundled data sets (heart, sonar, breast cancer).
UnboundedObjectiveError, ConvergenceWarning, DistanceMatrixWarning
    What a solver raises or warns; the warning for distances given as a kernel.
"""

from . import datasets, diagnostics, distances, geometry, kernels, remedies, solvers
from .diagnostics import KernelReport, SanityReport, check_kernel, sanity_report
from .distances import DistanceKernel, PairwiseDistances, pairwise_distances
from .exceptions import ConvergenceWarning, DistanceMatrixWarning, UnboundedObjectiveError
from .geometry import ConvexHullClassifier
from .kernels import kernel_matrix
from .klr import KernelLogisticRegression
from .remedies import KreinSVC, compare_remedies
from .svm import IndefiniteNuSVC, IndefiniteOneClassSVM, IndefiniteSVC, IndefiniteSVR

__version__ = "0.1.0"


def __getattr__(name):
    # plotting sits on top of everything and pulls in matplotlib: import it on first use only
    if name == "plotting":
        import importlib

        return importlib.import_module(".plotting", __name__)
    raise AttributeError(f"module 'indefsvm' has no attribute {name!r}")

__all__ = [
    "ConvergenceWarning",
    "ConvexHullClassifier",
    "DistanceKernel",
    "DistanceMatrixWarning",
    "IndefiniteNuSVC",
    "IndefiniteOneClassSVM",
    "IndefiniteSVC",
    "IndefiniteSVR",
    "KernelLogisticRegression",
    "KreinSVC",
    "PairwiseDistances",
    "KernelReport",
    "SanityReport",
    "UnboundedObjectiveError",
    "check_kernel",
    "compare_remedies",
    "datasets",
    "diagnostics",
    "distances",
    "geometry",
    "kernel_matrix",
    "kernels",
    "pairwise_distances",
    "remedies",
    "sanity_report",
    "solvers",
]
