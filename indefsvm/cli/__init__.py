"""The ``indefsvm`` command line (also ``python -m indefsvm``).

``indefsvm fit`` trains :class:`indefsvm.IndefiniteSVC` on a bundled data set, a LIBSVM file
or a precomputed kernel and prints what a LIBSVM user wants to see: iterations, objective, KKT
gap, support vectors, training (and, when asked, cross-validation) accuracy; ``--save MODEL``
keeps the model. ``indefsvm predict MODEL DATA`` applies a saved model. ``indefsvm check``
says whether a kernel is usable in an SVM before training (:func:`indefsvm.check_kernel`), and
``indefsvm compare`` tries every remedy for an indefinite kernel on the same folds
(:func:`indefsvm.compare_remedies`); ``compare --search`` also tunes C (and, with
``--distances``, the kernel's gamma) and says which method to use
(:class:`indefsvm.RemedySearchCV`).
``--distances`` says that the data file holds distances (DTW, edit, ...) rather than a kernel:
``fit`` then trains ``DistanceKernel`` + ``IndefiniteSVC`` (gamma by the median rule unless
given), ``check`` runs :func:`indefsvm.diagnostics.check_distances`, ``compare`` makes the
kernel from them and gives them to the k-NN rule, and ``predict`` reads rows of distances to
the training objects.
``indefsvm report`` does both and adds the sanity report of the trained model
(:func:`indefsvm.sanity_report`), printed and written as one self-contained HTML page.

A mistake of the user never ends in a traceback: one line ``indefsvm: error: <what, where,
what to do>`` on stderr and an exit status (``--debug`` shows the traceback instead).

Exit status: 0 success; 1 data or numerical error (unreadable file, bad line, a kernel that
overflows, an unbounded objective, out of memory); 2 usage error (unknown option, a parameter
out of range); 130 interrupted (Ctrl-C); 141 the output pipe was closed by its reader
(``indefsvm ... | head``), quietly.
"""

from ._args import DATASET_NAMES, DISTANCE_DATASETS, DISTANCE_KINDS, KERNEL_NAMES
from ._errors import EXIT_DATA, EXIT_INTERRUPTED, EXIT_PIPE, EXIT_USAGE, CLIError
from ._main import main
from ._parser import COMMANDS, build_parser

# The heavy modules (numpy, scikit-learn, scipy, the compiled kernels) come with the command
# that needs them (the registry of _parser imports the module of the command being run): --version
# and --help answer at once, and a Ctrl-C during start-up lands in main(), which turns it
# into one line and exit status 130.


def __getattr__(name: str):
    # the model loader's trusted types, imported when asked for (the loader imports numpy)
    if name == "TRUSTED_TYPES":
        from ._modelfile import TRUSTED_TYPES

        return TRUSTED_TYPES
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")

__all__ = [
    "COMMANDS",
    "DATASET_NAMES",
    "DISTANCE_DATASETS",
    "DISTANCE_KINDS",
    "EXIT_DATA",
    "EXIT_INTERRUPTED",
    "EXIT_PIPE",
    "EXIT_USAGE",
    "KERNEL_NAMES",
    "TRUSTED_TYPES",
    "CLIError",
    "build_parser",
    "main",
]
