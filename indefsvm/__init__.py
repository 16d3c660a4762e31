"""indefsvm: support vector machines with indefinite (non-PSD) kernels, and diagnostics.

Public names
------------
kernel_matrix, kernels, FeatureKernel
    Kernel functions, PSD or not; ``FeatureKernel``, features to kernel rows in a pipeline
    (in front of a spectrum fix, as ``DistanceKernel`` is for distances).
IndefiniteSVC, IndefiniteNuSVC, IndefiniteSVR, IndefiniteNuSVR, IndefiniteOneClassSVM
    scikit-learn compatible estimators (LIBSVM's C-SVC, nu-SVC, epsilon-SVR, nu-SVR and
    one-class SVM) trained by one SMO with the Lin & Lin rule for concave sub-problems.
KernelLogisticRegression, ConvexHullClassifier, geometry
    Kernel logistic regression (Lin & Lin, problem (33)); the convex-hull classifier and
    the pseudo-Euclidean geometry (Haasdonk 2005).
check_kernel, KernelReport, diagnostics
    Is this kernel usable in an SVM? PSD / CPD tests, signature, eta scan, class means;
    ``diagnostics.check_distances`` for a distance matrix (Euclidean? metric? which gamma?).
sanity_report, SanityReport
    Is a trained model a sensible classifier? w'Mw, bounded SVs, KKT, second order.
pairwise_distances, PairwiseDistances, DistanceKernel, register_metric, distances
    Objects to distances (DTW, Levenshtein, ...) to distance-substitution kernels; a new
    distance is one ``register_metric`` call.
remedies, KreinSVC, RemedySearchCV, SeriesSearchCV, compare_remedies
    What to do with an indefinite kernel: spectrum fixes, the Krein SVM, a search that
    chooses a remedy with its kernel parameter and C and refits it, a comparison; for
    series, a search of DTW's methods and the global alignment kernel on the same folds.
KreinNystroem, NystroemSVC
    The same at 10^5 - 10^6 points: Krein-space Nystroem features (K ~ Phi S Phi') and a
    linear SVM on them (krein, flip or clip).
solvers
    The solvers themselves (``solvers.smo``), returning :class:`solvers.SolverResult`.
datasets
    Small bundled data sets (heart, sonar, breast cancer, proteins) and generated ones.
plotting
    Figures (matplotlib, imported on first use).
load_model
    A model file of the command line (``indefsvm fit --save``), loaded with its checks.
explore, Explorer
    An interactive page of the pseudo-Euclidean geometry over kernel parameters, C and
    remedies: one self-contained HTML file (``explore(X, y).save("page.html")``).
UnboundedObjectiveError, ConvergenceWarning, DistanceMatrixWarning, DegenerateKernelWarning
    What a solver raises or warns; the warning for distances given as a kernel; the warning
    for a remedy whose fixed kernel is zero or constant.
"""

import importlib as _importlib

__version__ = "0.1.0"

# Public names are imported on first use (PEP 562): "import indefsvm" and the command line's
# --version and --help then cost no import of scikit-learn or scipy, and a Ctrl-C at start-up
# lands in code that handles it. Each entry: the name -> the module that defines it.
_SUBMODULES = ("datasets", "diagnostics", "distances", "geometry", "kernels", "nystroem",
               "remedies", "solvers", "plotting", "exceptions", "explorer", "klr", "svm")
_NAMES = {
    "KernelReport": ".diagnostics", "SanityReport": ".diagnostics",
    "check_kernel": ".diagnostics", "sanity_report": ".diagnostics",
    "DistanceKernel": ".distances", "PairwiseDistances": ".distances",
    "pairwise_distances": ".distances", "register_metric": ".distances",
    "ConvergenceWarning": ".exceptions", "DistanceMatrixWarning": ".exceptions",
    "DegenerateKernelWarning": ".exceptions",
    "UnboundedObjectiveError": ".exceptions",
    "ConvexHullClassifier": ".geometry",
    "Explorer": ".explorer", "explore": ".explorer",
    "kernel_matrix": ".kernels", "FeatureKernel": "._feature_kernel",
    "KernelLogisticRegression": ".klr",
    "KreinSVC": ".remedies", "compare_remedies": ".remedies",
    "KreinNystroem": ".nystroem", "NystroemSVC": ".nystroem",
    "RemedySearchCV": ".remedies", "SeriesSearchCV": ".remedies",
    "IndefiniteNuSVC": ".svm", "IndefiniteOneClassSVM": ".svm", "IndefiniteSVC": ".svm",
    "IndefiniteSVR": ".svm", "IndefiniteNuSVR": ".svm",
    "load_model": "._modelfile",
}


def __getattr__(name):
    if name in _SUBMODULES:
        return _importlib.import_module(f".{name}", __name__)
    if name in _NAMES:
        value = getattr(_importlib.import_module(_NAMES[name], __name__), name)
        globals()[name] = value  # once
        return value
    raise AttributeError(f"module 'indefsvm' has no attribute {name!r}")


def __dir__():
    # the public names (and the module's dunders), not the helpers of the lazy import
    return sorted(n for n in set(globals()) | set(__all__)
                  if not n.startswith("_") or n.startswith("__"))


__all__ = [
    "ConvergenceWarning",
    "ConvexHullClassifier",
    "DegenerateKernelWarning",
    "DistanceKernel",
    "DistanceMatrixWarning",
    "Explorer",
    "FeatureKernel",
    "IndefiniteNuSVC",
    "IndefiniteNuSVR",
    "IndefiniteOneClassSVM",
    "IndefiniteSVC",
    "IndefiniteSVR",
    "KernelLogisticRegression",
    "KreinNystroem",
    "KreinSVC",
    "NystroemSVC",
    "PairwiseDistances",
    "RemedySearchCV",
    "SeriesSearchCV",
    "KernelReport",
    "SanityReport",
    "UnboundedObjectiveError",
    "check_kernel",
    "compare_remedies",
    "datasets",
    "diagnostics",
    "distances",
    "explore",
    "geometry",
    "kernel_matrix",
    "load_model",
    "kernels",
    "pairwise_distances",
    "register_metric",
    "remedies",
    "sanity_report",
    "solvers",
]
