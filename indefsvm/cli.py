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

from __future__ import annotations

import argparse
import json
import logging
import os
import sys
import tempfile
import time
import warnings

import numpy as np

from . import __version__
from ._logging import logger
from .exceptions import DataFileError, DistanceMatrixWarning, UnboundedObjectiveError

# The heavy modules (scikit-learn, scipy, the compiled kernels) are imported where they are
# used, not here: --version and --help answer at once, and a Ctrl-C during start-up lands in
# main(), which turns it into one line and exit status 130.

#: the bundled feature sets (indefsvm.datasets.DATASETS; a test checks they agree)
DATASET_NAMES = ("breast_cancer_683", "heart", "sonar")
#: the kernel names of indefsvm.kernels.KERNELS (a test checks they agree)
KERNEL_NAMES = ("l1_gaussian", "linear", "polynomial", "pseudo_euclidean", "rbf", "sigmoid",
                "sqrt_l1_exponential", "symmetric_kl", "tl1")

EXIT_DATA = 1
EXIT_USAGE = 2
EXIT_INTERRUPTED = 130
EXIT_PIPE = 141  # 128 + SIGPIPE: the output pipe was closed by its reader

#: model files are skops files: they load without running arbitrary code, and only the
#: types listed here are accepted from them
TRUSTED_TYPES = (
    "indefsvm.svm._classes.IndefiniteSVC",
    "indefsvm.svm._classes.IndefiniteNuSVC",
    "indefsvm.svm._classes.IndefiniteSVR",
    "indefsvm.svm._classes.IndefiniteOneClassSVM",
    "indefsvm.solvers._result.SolverResult",
    # a model trained on distances: DistanceKernel, then IndefiniteSVC
    "indefsvm.distances._kernel.DistanceKernel",
    "sklearn.pipeline.Pipeline",
    # fit --nystroem M: NystroemSVC and its features
    "indefsvm.remedies._nystroem_svc.NystroemSVC",
    "indefsvm.remedies._nystroem.KreinNystroem",
)

#: bundled sets that are distance matrices (--dataset NAME --distances)
DISTANCE_DATASETS = ("protein213",)

#: the kernels made of distances (--distances) and their DistanceKernel kind
DISTANCE_KINDS = {"rbf": "rbf", "laplacian": "laplacian", "linear": "linear",
                  "polynomial": "polynomial", "poly": "polynomial", "tl1": "tl1"}


def _datasets():
    from .datasets import DATASETS

    return DATASETS


class CLIError(Exception):
    """A user's mistake: the message (what, where, what to do) and the exit status."""

    def __init__(self, message: str, code: int = EXIT_DATA):
        super().__init__(message)
        self.code = code


class _Parser(argparse.ArgumentParser):
    """argparse, but a usage error is one line and exit status 2 (through CLIError)."""

    def error(self, message):  # noqa: D401 - argparse's API
        raise CLIError(f"{message} (see '{self.prog} --help')", EXIT_USAGE)


# -- progress ---------------------------------------------------------------------------------


def _bar(args, total: int, desc: str, unit: str = "fold"):
    """A tqdm progress bar on stderr when it is a terminal (and not --quiet), else None."""
    if args.quiet or not sys.stderr.isatty():
        return None
    from tqdm import tqdm

    # every fold is shown (there are few, and each may take long)
    return tqdm(total=total, desc=desc, file=sys.stderr, leave=False, unit=unit,
                mininterval=0, miniters=1)


class _TimedBar:
    """A bar over an estimated duration for work that cannot count itself (a LAPACK
    decomposition): elapsed seconds against the estimate, so the user sees the time left."""

    def __init__(self, args, seconds: float, desc: str):
        import threading

        self._bar = _bar(args, max(1, round(seconds)), desc, unit="s") if seconds else None
        self._stop = threading.Event()
        self._thread = None
        if self._bar is not None:
            self._thread = threading.Thread(target=self._tick, daemon=True)

    def _tick(self):
        t0 = time.perf_counter()
        while not self._stop.wait(0.5):
            # never at 100 % before the work is done
            done = min(time.perf_counter() - t0, self._bar.total - 0.5)
            self._bar.n = round(done, 1)
            self._bar.refresh()

    def __enter__(self):
        if self._thread is not None:
            self._thread.start()
        return self

    def __exit__(self, *exc):
        if self._thread is not None:
            self._stop.set()
            self._thread.join()
            self._bar.close()
        return False


class _LogBar:
    """A bar driven by the library's log records whose message starts with ``prefix`` (the
    count done is the record's first argument): the Lanczos steps of the matrix-free check,
    the folds of compare_remedies. Other records go to stderr with --verbose, as usual."""

    def __init__(self, args, total, desc: str, prefix: str, unit: str):
        import logging

        self._bar = None if total is None else _bar(args, total, desc, unit=unit)
        if self._bar is None:
            return
        bar, verbose = self._bar, args.verbose

        class Handler(logging.Handler):
            def emit(self, record):
                if record.getMessage().startswith(prefix):
                    if len(record.args) > 1 and isinstance(record.args[1], int):
                        bar.total = record.args[1]  # the work's own count of its steps
                    bar.n = int(record.args[0])
                    bar.refresh()
                elif verbose:
                    print(f"indefsvm: {record.getMessage()}", file=sys.stderr)

        self._handler = Handler()
        self._logger = logging.getLogger("indefsvm")
        self._level = self._logger.level

    @property
    def active(self) -> bool:
        return self._bar is not None

    def __enter__(self):
        if self._bar is not None:
            import logging

            self._logger.addHandler(self._handler)
            if self._logger.getEffectiveLevel() > logging.INFO:
                self._logger.setLevel(logging.INFO)
        return self

    def __exit__(self, *exc):
        if self._bar is not None:
            self._logger.removeHandler(self._handler)
            self._logger.setLevel(self._level)
            self._bar.close()
        return False


def _PassBar(args, n):
    """The bar over the kernel passes of the matrix-free check (n samples; None: no bar)."""
    from .diagnostics.spectrum import default_steps

    total = None if n is None else (args.steps or default_steps(n))
    return _LogBar(args, total, "kernel passes", "matrix-free spectrum: Lanczos step", "pass")


def _say(args, message: str) -> None:
    """An announcement on stderr (what is about to happen), unless --quiet."""
    if not args.quiet:
        print(f"indefsvm: {message}", file=sys.stderr)


# -- arguments ----------------------------------------------------------------------------------


def _number_or_keyword(text: str):
    if text in ("scale", "auto", "median"):
        return text
    try:
        return float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(
            f"expected a number, 'scale', 'auto' or (with --distances) 'median'; got "
            f"{text!r}") from None


def _positive_int(text: str) -> int:
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected a whole number; got {text!r}") from None
    if value < 0:
        raise argparse.ArgumentTypeError(f"expected a number >= 0; got {value}")
    return value


def _common(p: argparse.ArgumentParser) -> None:
    g = p.add_argument_group("output")
    g.add_argument("--quiet", action="store_true",
                   help="print results only: no announcements, no progress bar")
    g.add_argument("--verbose", action="store_true",
                   help="log the solver's progress (iteration, objective, gap) every few seconds")
    g.add_argument("--debug", action="store_true",
                   help="show the Python traceback of an error instead of one line")


def _add_data_args(p: argparse.ArgumentParser, *, labels_help: str,
                   legacy_distances: bool = False) -> None:
    # FILE or --dataset, one of them (checked in _load: compare's old --distances FILE form
    # may name the data file itself)
    src = p.add_mutually_exclusive_group()
    src.add_argument("file", nargs="?", metavar="FILE",
                     help="LIBSVM data file, or a precomputed kernel matrix (.npy, .npz or text "
                          "with --labels), or with --distances a distance matrix")
    src.add_argument("--dataset", choices=list(DATASET_NAMES) + list(DISTANCE_DATASETS),
                     help="a bundled data set (protein213 is a distance matrix: with "
                          "--distances)")
    dist_help = ("FILE holds distances (DTW, edit, ...), not a kernel: the kernel is "
                 "exp(-gamma d^2) (--kernel rbf|laplacian|linear|polynomial), gamma by the "
                 "median rule unless --gamma is given")
    if legacy_distances:
        # 'compare --distances FILE' named the k-NN distances before --distances became the
        # flag of every command: that form still works, with a deprecation notice
        p.add_argument("--distances", nargs="?", const=True, default=False, metavar="",
                       help=dist_help)
    else:
        p.add_argument("--distances", action="store_true", help=dist_help)
    p.add_argument("--labels", metavar="FILE", help=labels_help)
    p.add_argument("--label-column", metavar="COL", default=None,
                   help="CSV / TSV features: the label column, by name or index (0 first, -1 "
                        "last; default a column named label, y, class or target)")
    p.add_argument("--n-features", type=int, default=None,
                   help="number of features of a LIBSVM file (if its last ones are unused)")
    p.add_argument("--zero-based", action="store_true",
                   help="the LIBSVM file's indices start at 0 (scikit-learn's "
                        "dump_svmlight_file default)")


def _add_kernel_args(p: argparse.ArgumentParser) -> None:
    p.add_argument("--kernel", default=None, choices=list(KERNEL_NAMES) + ["poly", "laplacian"],
                   help="kernel name (default: rbf); ignored for a kernel matrix FILE; with "
                        "--distances one of rbf, laplacian, linear, polynomial, tl1")
    p.add_argument("--gamma", type=_number_or_keyword, default=None,
                   help="kernel coefficient, the sigmoid's a (number, 'scale' or 'auto'; "
                        "default 'scale'); with --distances a number or 'median' (default)")
    p.add_argument("--coef0", type=float, default=None,
                   help="the sigmoid's r, poly's coef0 (default 0; 1 with --distances)")
    p.add_argument("--degree", type=int, default=None, help="polynomial degree (default 3)")
    p.add_argument("--p", type=int, default=None, dest="pe_p",
                   help="positive dimensions of the pseudo_euclidean kernel")
    p.add_argument("--rho", type=float, default=None,
                   help="truncation radius of the tl1 kernel max(rho - |x - z|_1, 0) "
                        "(default 0.7 x the number of features)")


def _add_model_args(p: argparse.ArgumentParser) -> None:
    _add_kernel_args(p)
    p.add_argument("-C", "--C", type=float, default=1.0, dest="C", help="box bound C")
    p.add_argument("--tol", type=float, default=1e-3, help="KKT gap tolerance")
    p.add_argument("--max-iter", type=int, default=None, help="iteration cap")
    p.add_argument("--cache-size", type=float, default=200.0, help="kernel cache in MB")
    p.add_argument("--wss", default="second_order", choices=["second_order", "first_order"])
    p.add_argument("--init", default="zero", choices=["zero", "class_balanced"])
    p.add_argument("--no-shrinking", action="store_true", help="disable shrinking")
    p.add_argument("--restarts", type=_positive_int, default=0,
                   help="random restarts (Lin & Lin 2003, Fig. 5)")
    p.add_argument("--seed", type=int, default=0, help="random seed")


# -- data ---------------------------------------------------------------------------------------


def _check_path(path: str, what: str = "data file") -> None:
    if not os.path.exists(path):
        raise CLIError(f"{path}: no such {what}; check the path.")
    if os.path.isdir(path):
        raise CLIError(f"{path}: is a directory; give a {what}.")
    if not os.access(path, os.R_OK):
        raise CLIError(f"{path}: cannot be read (permission denied).")


def _read_matrix(path: str, name: str) -> np.ndarray:
    """A numeric matrix from .npy, .npz (array 'K', or its only array) or text."""
    _check_path(path, f"{name} file")
    try:
        if path.endswith(".npy"):
            M = np.load(path, allow_pickle=False)
        elif path.endswith(".npz"):
            with np.load(path, allow_pickle=False) as z:
                keys = list(z.keys())
                key = next((k for k in ("K", "D") if k in keys),
                           keys[0] if len(keys) == 1 else None)
                if key is None:
                    raise DataFileError(path, None, f"holds arrays {keys}; name the kernel "
                                        "matrix 'K' (np.savez(path, K=K, y=y)) or the "
                                        "distances 'D'.")
                M = z[key]
        else:
            from .datasets._table import delimiter_of, read_matrix_text

            M = read_matrix_text(path, delimiter_of(path))
    except DataFileError:
        raise
    except (ValueError, OSError, EOFError) as exc:
        from .datasets._table import _first_line

        if ":" in _first_line(path):
            raise DataFileError(path, None, f"looks like a LIBSVM feature file (index:value), "
                                f"not a {name}: a {name} is .npy, .npz, CSV / TSV or "
                                "whitespace-separated numbers.") from None
        raise DataFileError(path, None, f"cannot be read as a numeric matrix: {exc}") from None
    if M.dtype.kind not in "biuf":
        raise DataFileError(path, None, f"holds {M.dtype} values, not numbers.")
    if M.ndim != 2:
        raise DataFileError(path, None, f"is a {M.ndim}-D array of shape {M.shape}; a {name} is "
                            "2-D, one row per sample.")
    return np.asarray(M, dtype=np.float64)


#: formats people try that indefsvm does not read (the rest is LIBSVM or delimited text)
_UNSUPPORTED = {".xlsx": "Excel", ".xls": "Excel", ".ods": "OpenDocument", ".json": "JSON",
                ".parquet": "Parquet", ".feather": "Feather", ".pkl": "pickle",
                ".pickle": "pickle", ".h5": "HDF5", ".hdf5": "HDF5", ".mat": "MATLAB",
                ".arff": "ARFF", ".ts": "sktime / aeon .ts"}


def _check_format(path: str) -> None:
    ext = os.path.splitext(path)[1].lower()
    if ext in _UNSUPPORTED:
        raise CLIError(f"{path}: {_UNSUPPORTED[ext]} files are not read; indefsvm reads LIBSVM "
                       "text, CSV / TSV (.csv, .tsv: features with a label column, or with "
                       "--labels a kernel or distance matrix) and .npy / .npz matrices. "
                       "Export your data to one of them.")


def _read_labels(path: str, n: int) -> np.ndarray:
    _check_path(path, "labels file")
    try:
        if path.endswith(".npy"):
            y = np.load(path, allow_pickle=False)
        else:
            with open(path, encoding="utf-8") as fh:
                lines = [line.strip() for line in fh if line.strip()]
            if lines and ":" in lines[0] and len(lines[0].split()) > 1:
                raise DataFileError(path, 1, "looks like a LIBSVM data file (label "
                                    "index:value ...), not labels: a labels file has one "
                                    "label per line.")
            y = np.array(lines)
            try:
                y = y.astype(np.float64)
            except ValueError:
                pass  # string labels are fine for a classifier
            else:
                if y.size and np.all(y == np.round(y)) and np.all(np.abs(y) < 2**53):
                    y = y.astype(np.int64)  # 0 and 1 stay 0 and 1 in what is printed
    except DataFileError:
        raise
    except (ValueError, OSError) as exc:
        raise DataFileError(path, None, f"cannot be read as labels: {exc}") from None
    y = np.ravel(y)
    if y.shape[0] != n:
        raise DataFileError(path, None, f"has {y.shape[0]} labels for {n} samples; give one "
                            "label per row of the kernel matrix.")
    return y


def _npz_labels(path: str):
    if path.endswith(".npz"):
        with np.load(path, allow_pickle=False) as z:
            if "y" in z:
                return np.asarray(z["y"])
    return None


def _load(args, *, need_labels: bool = True):
    """(data, y, description, precomputed): a bundled set, a LIBSVM file, a kernel matrix or
    (--distances) a distance matrix, which counts as precomputed (square, sliced on both
    axes)."""
    from ._validation import looks_like_distances
    from .datasets import load_libsvm

    distances = bool(getattr(args, "distances", False))
    if args.dataset:
        if distances != (args.dataset in DISTANCE_DATASETS):
            raise CLIError(f"--dataset {args.dataset} is " + (
                "a distance matrix: add --distances." if not distances else
                "a feature set, not distances: drop --distances."), EXIT_USAGE)
        _warn_unused_kernel_options(args)
        if distances:
            from .datasets import load_protein213

            D, y = load_protein213(return_D_y=True)
            return D, y, args.dataset, True
        X, y = _datasets()[args.dataset](return_X_y=True)
        return X, y, args.dataset, False
    path = args.file
    if path is None:
        raise CLIError("give a data FILE or --dataset NAME (see --help)", EXIT_USAGE)
    _check_path(path)
    _check_format(path)
    if distances:
        _warn_unused_kernel_options(args)
        D = _read_matrix(path, "distance matrix")
        if D.ndim != 2 or D.shape[0] != D.shape[1]:
            raise DataFileError(path, None, f"is a {D.shape} array; a distance matrix is "
                                "square (n_samples, n_samples).")
        y = _read_labels(args.labels, D.shape[0]) if args.labels else _npz_labels(path)
        if y is None and need_labels:
            raise CLIError(f"{path}: distances need their labels: give --labels FILE (.npy or "
                           "text, one per line), or save y beside D in the .npz.", EXIT_USAGE)
        return D, y, path, True
    if args.labels or path.endswith((".npy", ".npz")):
        K = _read_matrix(path, "kernel matrix")
        _refuse_feature_options(args, path)
        if K.ndim != 2 or K.shape[0] != K.shape[1]:
            raise DataFileError(path, None, f"is a {K.shape} array; a kernel matrix is square "
                                "(n_samples, n_samples).")
        if looks_like_distances(K):
            # said once, in the command line's words (the library's warning names Python)
            print(f"indefsvm: warning: {path} looks like a distance matrix, not a kernel (zero "
                  "diagonal, no negative entry); training on distances gives a meaningless "
                  "model. Add --distances to make the kernel exp(-gamma d^2) of them.",
                  file=sys.stderr)
            warnings.filterwarnings("ignore", category=DistanceMatrixWarning)
        y = _read_labels(args.labels, K.shape[0]) if args.labels else _npz_labels(path)
        if y is None and need_labels:
            raise CLIError(f"{path}: a precomputed kernel needs its labels: give --labels FILE "
                           "(.npy or text, one per line), or save y beside K in the .npz.",
                           EXIT_USAGE)
        return K, y, path, True
    from .datasets._table import delimiter_of, read_features

    _warn_unused_kernel_options(args)
    delimiter = delimiter_of(path)
    if delimiter is not None:
        # CSV / TSV features with a label column
        X, y, _ = read_features(path, delimiter, args.label_column)
        return X, y, path, False
    X, y = load_libsvm(path, n_features=args.n_features, zero_based=args.zero_based)
    return X, y, path, False


def _check_classes(y, cv: int = 0) -> None:
    labels, counts = np.unique(y, return_counts=True)
    if labels.shape[0] < 2:
        raise CLIError(f"the labels hold one class only ({labels[0]}); a classifier needs two "
                       "or more.")
    if cv > counts.min():
        small = labels[np.argmin(counts)]
        raise CLIError(f"--cv {cv} needs at least {cv} samples of every class, but class "
                       f"{small} has {counts.min()}; use --cv {counts.min()} or fewer, or --cv 0.",
                       EXIT_USAGE)


def _distance_kernel(args):
    """The DistanceKernel of --distances, its parameters checked (usage errors)."""
    from .distances import DistanceKernel

    dk = DistanceKernel(kind=DISTANCE_KINDS[args.kernel], gamma=args.gamma, coef0=args.coef0,
                        degree=args.degree)
    try:
        dk._check_params()
    except ValueError as exc:
        raise CLIError(str(exc).replace("gamma ", "--gamma ", 1).replace("degree ", "--degree ",
                                                                           1), EXIT_USAGE) from None
    return dk


def _estimator(args, precomputed: bool):
    """IndefiniteSVC; with --distances a Pipeline of DistanceKernel and IndefiniteSVC; with
    --nystroem M a NystroemSVC."""
    from .svm import IndefiniteSVC

    if getattr(args, "nystroem", None) is not None:
        return _nystroem_estimator(args, precomputed)

    if getattr(args, "distances", False):
        from sklearn.pipeline import Pipeline

        svc = IndefiniteSVC(
            kernel="precomputed", C=args.C, tol=args.tol, max_iter=args.max_iter,
            cache_size=args.cache_size, wss=args.wss, init=args.init,
            shrinking=not args.no_shrinking, n_restarts=args.restarts, random_state=args.seed,
            verbose=args.verbose)
        _check_estimator_params(svc)
        return Pipeline([("distancekernel", _distance_kernel(args)), ("indefinitesvc", svc)])

    if args.kernel == "pseudo_euclidean" and args.pe_p is None and not precomputed:
        raise CLIError("--kernel pseudo_euclidean needs --p (its positive dimensions).",
                       EXIT_USAGE)
    kernel_params = None if precomputed else _extra_params(args)
    clf = IndefiniteSVC(
        kernel="precomputed" if precomputed else args.kernel, C=args.C, gamma=args.gamma,
        coef0=args.coef0, degree=args.degree, tol=args.tol, max_iter=args.max_iter,
        cache_size=args.cache_size, wss=args.wss, init=args.init,
        shrinking=not args.no_shrinking, n_restarts=args.restarts, random_state=args.seed,
        kernel_params=kernel_params, verbose=args.verbose)
    _check_estimator_params(clf)
    return clf


def _nystroem_estimator(args, precomputed: bool):
    """fit --nystroem M: NystroemSVC on the data's features."""
    from .remedies import NystroemSVC

    if args.distances or precomputed:
        raise CLIError("--nystroem computes kernel values against landmarks from features; "
                       "it cannot use a precomputed kernel or distance matrix. Give a "
                       "feature file (LIBSVM, CSV or .npy without --labels), or drop "
                       "--nystroem.", EXIT_USAGE)
    if args.nystroem < 1:
        raise CLIError(f"--nystroem takes the number of landmarks, at least 1; got "
                       f"{args.nystroem}.", EXIT_USAGE)
    for option, value, default in (("--restarts", args.restarts, 0),
                                   ("--no-shrinking", args.no_shrinking, False),
                                   ("--init", args.init, "zero"),
                                   ("--wss", args.wss, "second_order")):
        if value != default:
            raise CLIError(f"{option} is an option of the SMO solver; --nystroem trains a "
                           "linear SVM on the features by coordinate descent: drop "
                           f"{option}.", EXIT_USAGE)
    if args.kernel in ("pseudo_euclidean",):
        raise CLIError("--nystroem takes the kernels computed from features by name; "
                       "pseudo_euclidean is not one of them.", EXIT_USAGE)
    clf = NystroemSVC(
        kernel=args.kernel, n_components=args.nystroem, remedy=args.remedy, C=args.C,
        gamma=args.gamma, coef0=args.coef0, degree=args.degree, tol=args.tol,
        max_iter=args.max_iter, random_state=args.seed, verbose=args.verbose)
    try:
        clf._check_settings()
    except ValueError as exc:
        raise CLIError(_cli_wording(str(exc)), EXIT_USAGE) from None
    return clf


def _check_estimator_params(clf) -> None:
    """The estimator's own parameter checks, before any data are read: exit status 2."""
    from sklearn.utils._param_validation import InvalidParameterError

    try:
        clf._validate_params()
        clf._check_kernel_settings()
    except (InvalidParameterError, ValueError) as exc:
        raise CLIError(_cli_wording(str(exc)), EXIT_USAGE) from None


def _cli_wording(message: str) -> str:
    """scikit-learn names parameters as the estimator spells them: say the option."""
    for param, option in (("'C'", "-C"), ("'gamma'", "--gamma"), ("'tol'", "--tol"),
                          ("'degree'", "--degree"), ("'max_iter'", "--max-iter"),
                          ("'cache_size'", "--cache-size"), ("'coef0'", "--coef0"),
                          ("gamma=", "--gamma "), ("'n_restarts'", "--restarts")):
        message = message.replace(f"The {param} parameter of IndefiniteSVC", f"{option}")
    return message


# -- commands -----------------------------------------------------------------------------------


def _atomic_write(path: str, write) -> None:
    """Write through a temporary file in the same folder, renamed at the end: an interrupted
    run leaves no truncated file. A symbolic link is followed (its target is replaced, the
    link stays); a FIFO, a device or a socket is written to directly -- a rename would
    replace the node itself by a regular file."""
    target = os.path.realpath(path)
    if os.path.exists(target) and not os.path.isfile(target):
        write(target)
        return
    path = target
    folder = os.path.dirname(path) or "."
    fd, tmp = tempfile.mkstemp(dir=folder, prefix=".indefsvm-", suffix=".tmp")
    os.close(fd)
    try:
        write(tmp)
        # mkstemp makes the file 0600; a file the user asked for gets the usual mode, 0666
        # less the umask (as open() would give it)
        umask = os.umask(0)
        os.umask(umask)
        os.chmod(tmp, 0o666 & ~umask)
        os.replace(tmp, path)
    finally:
        if os.path.exists(tmp):
            os.remove(tmp)


def _check_output_file(path: str, option: str) -> None:
    if os.path.isdir(path):
        raise CLIError(f"{option} {path}: is a directory; give a file name.", EXIT_USAGE)
    folder = os.path.dirname(os.path.abspath(path))
    if not os.path.isdir(folder):
        raise CLIError(f"{option} {path}: folder {folder} does not exist.", EXIT_USAGE)


def _cross_validate(args, X, y, precomputed):
    from sklearn.base import clone
    from sklearn.model_selection import StratifiedKFold

    from .exceptions import ConvergenceWarning

    folds = list(StratifiedKFold(n_splits=args.cv, shuffle=True,
                                 random_state=args.seed).split(X, y))
    _say(args, f"{args.cv}-fold cross-validation (--cv 0 skips it)")
    bar = _bar(args, len(folds), "cross-validation")
    scores = []
    template = _estimator(args, precomputed)
    template.set_params(**{"indefinitesvc__verbose" if _svc(template) is not template
                           else "verbose": False})
    if hasattr(template, "n_components") and args.nystroem > min(
            len(train) for train, _ in folds):
        raise CLIError(f"--nystroem {args.nystroem} is more than the "
                       f"{min(len(t) for t, _ in folds)} training samples of a CV fold; "
                       "give fewer landmarks or --cv 0.", EXIT_USAGE)
    try:
        for train, test in folds:
            est = clone(template)
            with warnings.catch_warnings():
                warnings.simplefilter("ignore", ConvergenceWarning)
                if precomputed:
                    est.fit(X[np.ix_(train, train)], y[train])
                    scores.append(est.score(X[np.ix_(test, train)], y[test]))
                else:
                    est.fit(X[train], y[train])
                    scores.append(est.score(X[test], y[test]))
            if bar is not None:
                bar.update(1)
    finally:
        if bar is not None:
            bar.close()
    return np.array(scores)


def _svc(model):
    """The SVM of a model (the last step of a distance pipeline)."""
    return model[-1] if hasattr(model, "steps") else model


def _fitted_params(model) -> dict:
    """Kernel parameters as fitted: the SVM's, or the distance kernel's (gamma resolved)."""
    if hasattr(model, "steps"):
        dk = model[0]
        out = {"distances": True, "kind": dk.kind}
        if dk.gamma_ is not None:
            out["gamma"] = dk.gamma_
        if dk.kind == "polynomial":
            out.update(coef0=dk.coef0, degree=dk.degree)
        return out
    return dict(model._kernel_params_fitted)


def _cmd_fit(args) -> int:
    from ._validation import plain_label
    from .exceptions import ConvergenceWarning

    if args.save:
        _check_output_file(args.save, "--save")
    if args.cv == 1:
        raise CLIError("--cv 1 is not cross-validation: give 2 or more folds, or 0 for none.",
                       EXIT_USAGE)
    # the parameters are checked before the data are read (a usage error costs no time)
    _estimator(args, bool(args.file and (args.labels or args.file.endswith((".npy", ".npz")))))
    X, y, desc, precomputed = _load(args)
    _check_classes(y, args.cv)
    model = _estimator(args, precomputed)
    if getattr(args, "nystroem", None) is not None:
        return _fit_nystroem(args, model, X, y, desc)
    clf = _svc(model)
    n_classes = np.unique(y).shape[0]
    bar = (_bar(args, (args.restarts + 1) * n_classes * (n_classes - 1) // 2, "starts",
                unit="start") if args.restarts else None)
    if bar is not None:
        clf._start_hook = lambda: bar.update(1)
    t0 = time.perf_counter()
    try:
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always", ConvergenceWarning)
            model.fit(X, y)
    finally:
        if bar is not None:
            bar.close()
            del clf._start_hook
    seconds = time.perf_counter() - t0
    train_acc = model.score(X, y)
    cv_acc = _cross_validate(args, X, y, precomputed) if args.cv > 1 else None
    if args.save:
        import skops.io as sio

        _atomic_write(args.save, lambda tmp: sio.dump(model, tmp))
    rows = []
    for k, res in enumerate(clf.solver_results_):
        rows.append({
            "pair": [str(plain_label(clf.classes_[p])) for p in clf._pairs[k][:2]],
            "status": res.status,
            "iterations": res.n_iter,
            "objective": res.objective,
            "kkt_gap": res.kkt_gap,
            "n_sv": res.n_sv,
            "n_bounded_sv": res.n_bounded,
            "concave_steps": res.n_concave_steps,
            "b": res.b,
        })
    distances = bool(args.distances)
    summary = {
        "data": desc,
        "n_samples": int(X.shape[0]),
        "n_features": None if precomputed else int(X.shape[1]),
        "kernel": (f"distances ({DISTANCE_KINDS[args.kernel]})" if distances
                   else "precomputed" if precomputed else args.kernel),
        "kernel_params": {k: (float(v) if isinstance(v, (int, float, np.floating))
                              and not isinstance(v, bool) else v)
                          for k, v in _fitted_params(model).items() if k != "distances"},
        "C": args.C,
        "tol": args.tol,
        "fit_seconds": seconds,
        "problems": rows,
        "training_accuracy": float(train_acc),
        "cv_folds": args.cv,
        "cv_accuracy_mean": None if cv_acc is None else float(np.mean(cv_acc)),
        "cv_accuracy_std": None if cv_acc is None else float(np.std(cv_acc)),
        "model_file": args.save,
        "warnings": [str(w.message) for w in caught],
    }
    if args.json:
        print(json.dumps(summary, indent=2))
        return 0
    params = ", ".join(f"{k}={v:.6g}" if isinstance(v, float) else f"{k}={v}"
                       for k, v in summary["kernel_params"].items())
    shape = (f"{X.shape[0]} x {X.shape[0]} " + ("distance" if distances else "kernel")
             + " matrix" if precomputed else f"{X.shape[0]} samples, {X.shape[1]} features")
    print(f"data        {desc}: {shape}, {len(clf.classes_)} classes")
    if distances:
        print(f"model       DistanceKernel({params}) + IndefiniteSVC(kernel=precomputed, "
              f"C={args.C:g}, tol={args.tol:g})")
    else:
        print(f"model       IndefiniteSVC(kernel={summary['kernel']}"
              f"{', ' + params if params else ''}, C={args.C:g}, tol={args.tol:g})")
    for row in rows:
        print(f"pair        {row['pair'][0]} vs {row['pair'][1]}: {row['status']}")
        print(f"  iterations        {row['iterations']}")
        print(f"  objective F(a)    {row['objective']:.10g}")
        print(f"  KKT gap m - M     {row['kkt_gap']:.3g}")
        print(f"  #SV / #bounded SV {row['n_sv']} / {row['n_bounded_sv']}")
        print(f"  concave steps     {row['concave_steps']} (sub-problems with a_ij <= 0)")
        print(f"  bias b            {row['b']:.6g}")
    return _print_fit_tail(args, seconds, train_acc, cv_acc, summary)


def _print_fit_tail(args, seconds, train_acc, cv_acc, summary) -> int:
    """The last lines of 'fit': time, accuracies, the model file, the warnings."""
    print(f"fit time    {seconds:.3f} s")
    print(f"training accuracy  {100 * train_acc:.2f} %")
    if cv_acc is not None:
        print(f"{args.cv}-fold CV accuracy {100 * np.mean(cv_acc):.2f} % "
              f"(+/- {100 * np.std(cv_acc):.2f})")
    if args.save:
        print(f"model saved to {args.save}")
    for msg in summary["warnings"]:
        print(f"warning: {msg}")
    return 0


def _fit_nystroem(args, model, X, y, desc) -> int:
    """fit --nystroem M: fit, report per problem, cross-validate, save."""
    from .exceptions import ConvergenceWarning

    if args.nystroem > X.shape[0]:
        raise CLIError(f"--nystroem {args.nystroem} is more than the {X.shape[0]} samples; "
                       f"give at most {X.shape[0]} landmarks (all of them: the exact "
                       "kernel).", EXIT_USAGE)
    n = X.shape[0]
    smallest_fold = n - -(-n // args.cv) if args.cv > 1 else n
    if args.nystroem > smallest_fold:
        # said before the fit, not after it
        raise CLIError(f"--nystroem {args.nystroem} is more than the {smallest_fold} training "
                       f"samples of a CV fold; give fewer landmarks or --cv 0.", EXIT_USAGE)
    t0 = time.perf_counter()
    bar = _LogBar(args, 1, "fit", "NystroemSVC: step", "step")
    if bar.active:
        model.set_params(verbose=True)  # the steps drive the bar; shown only with --verbose
    with bar, warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always", ConvergenceWarning)
        model.fit(X, y)
    model.set_params(verbose=args.verbose)
    seconds = time.perf_counter() - t0
    train_acc = model.score(X, y)
    cv_acc = _cross_validate(args, X, y, False) if args.cv > 1 else None
    if args.save:
        import skops.io as sio

        _atomic_write(args.save, lambda tmp: sio.dump(model, tmp))
    from ._validation import plain_label

    ny = model.nystroem_
    rows = [{"pair": [str(plain_label(model.classes_[p])) for p in model._pairs[k][:2]],
             "status": "converged" if model._pair_converged[k] else "max_iter reached",
             "passes": int(model.n_iter_[k]), "kkt_gap": float(model.kkt_gap_[k]),
             "n_sv": int(np.count_nonzero(model._alphas[k] > 0)),
             "n_bounded_sv": int(np.count_nonzero(model._alphas[k] >= model._bounds[k])),
             "b": float(model.intercept_[k])} for k in range(len(model._pairs))]
    summary = {
        "data": desc, "n_samples": int(X.shape[0]), "n_features": int(X.shape[1]),
        "kernel": args.kernel,
        "kernel_params": {k: (float(v) if isinstance(v, (int, float, np.floating))
                              and not isinstance(v, bool) else v)
                          for k, v in ny._params.items()},
        "model": "NystroemSVC", "remedy": args.remedy, "landmarks": int(args.nystroem),
        "features": {"used": int(model.n_features_used_), "positive": ny.n_positive_,
                     "negative": ny.n_negative_, "dropped_small": ny.n_dropped_,
                     "dropped_unstable": ny.n_unstable_},
        "C": args.C, "tol": args.tol, "fit_seconds": seconds, "converged": model.converged_,
        "problems": rows, "training_accuracy": float(train_acc), "cv_folds": args.cv,
        "cv_accuracy_mean": None if cv_acc is None else float(np.mean(cv_acc)),
        "cv_accuracy_std": None if cv_acc is None else float(np.std(cv_acc)),
        "model_file": args.save, "warnings": [str(w.message) for w in caught],
    }
    if args.json:
        print(json.dumps(summary, indent=2))
        return 0
    params = ", ".join(f"{k}={v:.6g}" if isinstance(v, float) else f"{k}={v}"
                       for k, v in summary["kernel_params"].items())
    f = summary["features"]
    print(f"data        {desc}: {X.shape[0]} samples, {X.shape[1]} features, "
          f"{len(model.classes_)} classes")
    print(f"model       NystroemSVC(kernel={args.kernel}{', ' + params if params else ''}, "
          f"n_components={args.nystroem}, remedy={args.remedy}, C={args.C:g}, "
          f"tol={args.tol:g})")
    print(f"features    {f['used']} used ({f['positive']} positive, {f['negative']} negative; "
          f"dropped: {f['dropped_small']} below the zero threshold, {f['dropped_unstable']} "
          "that do not extend beyond the landmarks)")
    for row in rows:
        print(f"pair        {row['pair'][0]} vs {row['pair'][1]}: {row['status']}")
        print(f"  passes            {row['passes']}")
        print(f"  KKT gap m - M     {row['kkt_gap']:.3g}")
        print(f"  #SV / #bounded SV {row['n_sv']} / {row['n_bounded_sv']}")
        print(f"  bias b            {row['b']:.6g}")
    return _print_fit_tail(args, seconds, train_acc, cv_acc, summary)


def _load_model(path: str):
    import skops.io as sio

    _check_path(path, "model file")
    try:
        untrusted = sio.get_untrusted_types(file=path)
    except Exception as exc:  # skops raises several kinds for a file that is not its own
        raise DataFileError(path, None, f"is not a model saved by 'indefsvm fit --save' "
                            f"({type(exc).__name__}: {exc}).") from None
    foreign = sorted(set(untrusted) - set(TRUSTED_TYPES))
    if foreign:
        raise DataFileError(path, None, f"holds types indefsvm does not load: {foreign}; only "
                            "models saved by 'indefsvm fit --save' are read.")
    try:
        model = sio.load(path, trusted=list(untrusted))
    except Exception as exc:  # a file skops lists but cannot build
        raise DataFileError(path, None, f"is not a model saved by 'indefsvm fit --save' "
                            f"({type(exc).__name__}: {exc}).") from None
    _check_model(model, path)
    return model


def _check_model(model, path: str) -> None:
    """A loaded model is one 'fit --save' writes, with sound contents: skops trusts
    scikit-learn's own types (an SVC would load and predict), and a crafted file can hold
    NaN coefficients or support indices out of range, which would predict in silence."""
    from .distances import DistanceKernel
    from .kernels import KERNELS, canonical_name
    from .svm import IndefiniteSVC

    def bad(what):
        raise DataFileError(path, None, f"{what}; it was not written by 'indefsvm fit --save' "
                            "(or was changed since): fit the model again.")

    from .remedies import KreinNystroem, NystroemSVC

    if type(model) is NystroemSVC:
        _check_nystroem_model(model, bad, KreinNystroem)
        return
    svc = model
    if hasattr(model, "steps"):
        if (len(model.steps) != 2 or not isinstance(model.steps[0][1], DistanceKernel)
                or not isinstance(model.steps[1][1], IndefiniteSVC)):
            bad("holds a pipeline other than DistanceKernel + IndefiniteSVC")
        dk = model.steps[0][1]
        if not (isinstance(getattr(dk, "n_fit_", None), int) and dk.n_fit_ > 0):
            bad("holds a distance kernel without its training size")
        svc = model.steps[1][1]
    if type(svc) is not IndefiniteSVC:
        bad(f"holds a {type(svc).__module__}.{type(svc).__name__}, not an IndefiniteSVC")
    if not hasattr(svc, "support_"):
        bad("holds a model that was never fitted")
    kernel = svc.kernel
    if not isinstance(kernel, str) or (kernel != "precomputed"
                                       and canonical_name(kernel) not in KERNELS):
        bad(f"has a kernel {kernel!r} that is not a kernel name of indefsvm")
    degree = getattr(svc, "degree", 3)
    if isinstance(degree, bool) or not isinstance(degree, int) or not 0 <= degree <= 64:
        bad(f"has a polynomial degree {degree!r} outside 0 ... 64")
    n_train = int(svc.shape_fit_[0])
    support = np.asarray(svc.support_)
    if support.dtype.kind not in "iu" or (support.size and (
            support.min() < 0 or support.max() >= n_train)):
        bad(f"has support indices outside 0 ... {n_train - 1}")
    for name in ("_dual_coef_", "_intercept_", "dual_coef_", "intercept_"):
        values = getattr(svc, name, None)
        if values is not None and not np.all(np.isfinite(np.asarray(values, dtype=float))):
            bad(f"has {name.strip('_')} values that are NaN or infinite")
    sv = getattr(svc, "support_vectors_", None)
    if sv is not None and hasattr(sv, "shape") and not hasattr(sv, "tocsr") and not np.all(
            np.isfinite(np.asarray(sv, dtype=float))):
        bad("has support vectors that are NaN or infinite")


def _check_nystroem_model(model, bad, KreinNystroem) -> None:
    """A loaded NystroemSVC: fitted, a kernel name, finite arrays of consistent shapes."""
    from .kernels import KERNELS, canonical_name

    ny = getattr(model, "nystroem_", None)
    if type(ny) is not KreinNystroem or not hasattr(model, "coef_"):
        bad("holds a NystroemSVC that was never fitted")
    kernel = model.kernel
    if not isinstance(kernel, str) or kernel == "precomputed" or canonical_name(
            kernel) not in KERNELS:
        bad(f"has a kernel {kernel!r} that is not a kernel name of indefsvm")
    arrays = {name: np.asarray(getattr(owner, name, np.nan), dtype=float)
              for owner, names in ((model, ("coef_", "intercept_", "metric_")),
                                   (ny, ("components_", "normalization_", "signature_")))
              for name in names}
    for name, values in arrays.items():
        if not np.all(np.isfinite(values)):
            bad(f"has {name.strip('_')} values that are NaN or infinite")
    m, r = arrays["normalization_"].shape if arrays["normalization_"].ndim == 2 else (-1, -1)
    n_pairs = len(model.classes_) * (len(model.classes_) - 1) // 2
    if (arrays["components_"].shape != (m, model.n_features_in_)
            or arrays["signature_"].shape != (r,)
            or arrays["coef_"].shape != (n_pairs, model.n_features_used_)
            or not 0 < model.n_features_used_ <= r
            or arrays["intercept_"].shape != (n_pairs,)
            or arrays["metric_"].shape != (model.n_features_used_,)
            or not np.all(np.abs(arrays["metric_"]) == 1)):
        bad("has landmarks, features and weights of inconsistent shapes")


def _cmd_predict(args) -> int:
    from .datasets import load_libsvm

    if args.out:
        _check_output_file(args.out, "--out")
    model = _load_model(args.model)
    distances = hasattr(model, "steps")
    if args.distances and not distances:
        raise CLIError(f"{args.model} was not trained on distances (fit --distances); drop "
                       "--distances and give what it was trained on.", EXIT_USAGE)
    precomputed = distances or model.kernel == "precomputed"
    path = args.data
    _check_path(path)
    y = None
    if precomputed or args.labels or path.endswith((".npy", ".npz")):
        n_train = model[0].n_fit_ if distances else model.shape_fit_[0]
        what = ("the distances d(x, x_train) to the training objects" if distances
                else "the kernel rows k(x, x_train)" if precomputed else "features")
        try:
            X = _read_matrix(path, "matrix" if precomputed else "data")
        except DataFileError as exc:
            if not precomputed:
                raise
            raise DataFileError(path, None, f"{str(exc).split(': ', 1)[1]} The model was "
                                f"trained on a precomputed {'distance' if distances else ''}"
                                f"{'' if distances else 'kernel'} matrix of {n_train} "
                                f"samples: DATA must hold {what}, {n_train} columns.") from None
        if precomputed and (X.ndim != 2 or X.shape[1] != n_train):
            rows = ("distances d(x, x_train) to the training objects" if distances
                    else "kernel rows k(x, x_train)")
            raise DataFileError(path, None, f"has shape {X.shape}; the model was trained on "
                                f"{n_train} samples, so its {rows} need {n_train} columns.")
        if args.labels:
            y = _read_labels(args.labels, X.shape[0])
    else:
        from .datasets._table import delimiter_of, read_features

        delimiter = delimiter_of(path)
        if delimiter is not None:
            X, y, _ = read_features(path, delimiter, args.label_column, need_labels=False)
        else:
            X, y = load_libsvm(path, zero_based=args.zero_based,
                               n_features=getattr(model, "n_features_in_", None))
    n_feat = getattr(model, "n_features_in_", None)
    if not precomputed and n_feat is not None and X.shape[1] != n_feat:
        hint = (" (kernel rows? this model computes its kernel from the features itself: "
                "give features, as a LIBSVM, CSV or .npy file)"
                if path.endswith((".npy", ".npz")) or X.shape[1] == model.shape_fit_[0]
                else "")
        raise DataFileError(path, None, f"has {X.shape[1]} features; the model was trained on "
                            f"{n_feat}{hint}.")
    pred = model.predict(X)
    text = "".join(f"{p:g}\n" if isinstance(p, (float, np.floating)) else f"{p}\n"
                   for p in pred.tolist())
    if args.out:
        def write(tmp):
            with open(tmp, "w", encoding="utf-8") as fh:
                fh.write(text)
        _atomic_write(args.out, write)
    else:
        sys.stdout.write(text)
    if y is not None and hasattr(model, "classes_"):
        right = int(np.sum(pred == y))
        _say(args, f"accuracy {100 * right / len(y):.2f} % ({right}/{len(y)})")
    if args.out:
        _say(args, f"{len(pred)} predictions written to {args.out}")
    return 0


def _extra_params(args) -> dict | None:
    """kernel_params of the kernels with parameters of their own (--p, --rho)."""
    if args.kernel == "pseudo_euclidean":
        return {"p": args.pe_p}
    if args.kernel == "tl1" and getattr(args, "rho", None) is not None:
        if not args.rho > 0:
            raise CLIError(f"--rho must be > 0 (the truncation radius); got {args.rho:g}.",
                           EXIT_USAGE)
        return {"rho": args.rho}
    return None


def _kernel_params(args, X) -> dict:
    from .kernels import _DISTANCE_GAMMA, canonical_name, resolve_kernel_params

    if args.kernel == "pseudo_euclidean" and args.pe_p is None:
        raise CLIError("--kernel pseudo_euclidean needs --p (its positive dimensions).",
                       EXIT_USAGE)
    if (args.gamma not in ("scale", "auto") and args.gamma < 0
            and canonical_name(args.kernel) in _DISTANCE_GAMMA):
        raise CLIError(f"--gamma must be >= 0 for --kernel {args.kernel} (exp(-gamma d) with "
                       f"gamma < 0 grows with the distance d); got {args.gamma:g}.", EXIT_USAGE)
    extra = _extra_params(args)
    return resolve_kernel_params(args.kernel, X, gamma=args.gamma, coef0=args.coef0,
                                 degree=args.degree, kernel_params=extra)


def _cmd_check(args) -> int:
    from .diagnostics import check_kernel

    data, y, _, precomputed = _load(args, need_labels=False)
    if args.distances:
        from .diagnostics import check_distances

        rep = check_distances(data, y, rtol=args.rtol, verbose=args.verbose)
        print(json.dumps(rep.to_dict(), indent=2) if args.json else rep)
        return 0
    n = data.shape[0]
    from .diagnostics.spectrum import DENSE_MAX

    dense = args.method in ("dense", "ldl") or (args.method == "auto" and n <= DENSE_MAX)
    # a dense tridiagonalisation costs about 4/3 n^3 flops at ~10 GFlop/s on one core
    estimate = 1.3e-10 * n**3 if dense else 0.0
    if not dense:
        _say(args, f"{n} samples: matrix-free estimates ({args.method}), the kernel is never "
                   "formed; --verbose logs each pass")
    mf = {} if dense else {"n_probes": args.probes, "n_steps": args.steps,
                           "random_state": args.seed}
    if estimate > 2.0:
        _say(args, f"eigendecomposition of a {n} x {n} matrix: about {estimate:.0f} s")
    with _TimedBar(args, estimate if estimate > 2.0 else 0, "eigendecomposition") as _, \
            _PassBar(args, None if dense else n):
        if precomputed:
            rep = check_kernel(data, y, rtol=args.rtol, method=args.method,
                               verbose=args.verbose, **mf)
        else:
            rep = check_kernel(X=data, y=y, kernel=args.kernel, rtol=args.rtol,
                               method=args.method, verbose=args.verbose, **mf,
                               **_kernel_params(args, data))
    print(json.dumps(rep.to_dict(), indent=2) if args.json else rep)
    return 0


def _cmd_report(args) -> int:
    from ._htmlreport import write_html
    from .diagnostics import check_kernel, sanity_report
    from .exceptions import ConvergenceWarning

    if os.path.exists(args.out) and not os.path.isdir(args.out):
        raise CLIError(f"--out {args.out}: is a file; give a folder for the HTML report.",
                       EXIT_USAGE)
    if args.cv == 1:
        raise CLIError("--cv 1 is not cross-validation: give 2 or more folds, or 0 for none.",
                       EXIT_USAGE)
    X, y, desc, precomputed = _load(args)
    _check_classes(y, args.cv)
    data = X
    model = _estimator(args, precomputed)
    clf = _svc(model)
    y2 = y  # check_kernel reads every pair of classes of multi-class labels
    distance_report = None
    if args.distances:
        from .diagnostics import check_distances

        distance_report = check_distances(X, y)
        # the kernel the SVM is trained on, and the SVM on it
        X = model[0].fit_transform(X)
        kernel_report = check_kernel(X, y2)
    elif precomputed:
        kernel_report = check_kernel(X, y2)
    else:
        kernel_report = check_kernel(X=X, y=y2, kernel=args.kernel, **_kernel_params(args, X))
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always", ConvergenceWarning)
        clf.fit(X, y)
    sanity = sanity_report(clf, X, y)
    train_acc = clf.score(X, y)
    cv_acc = _cross_validate(args, data, y, precomputed) if args.cv > 1 else None
    accuracy = f"training accuracy {100 * train_acc:.2f} %" + (
        "" if cv_acc is None else f", {args.cv}-fold CV accuracy {100 * np.mean(cv_acc):.2f} "
        f"% (+/- {100 * np.std(cv_acc):.2f})")
    if distance_report is not None:
        print(distance_report)
        print()
    print(kernel_report)
    print()
    print(sanity)
    print()
    print(accuracy)
    for w in caught:
        print(f"warning: {w.message}")
    os.makedirs(args.out, exist_ok=True)
    name = os.path.basename(desc)
    kernel = (f"distances-{DISTANCE_KINDS[args.kernel]}" if args.distances
              else "precomputed" if precomputed else args.kernel)
    path = os.path.join(args.out, f"indefsvm-report-{name}-{kernel}.html")
    shape = (f"{X.shape[0]} x {X.shape[0]} kernel matrix" if precomputed
             else f"{X.shape[0]} samples, {X.shape[1]} features")
    text = (f"data {desc}: {shape}; IndefiniteSVC(kernel={kernel}, C={args.C:g}"
            + "".join(f", {k}={v}" for k, v in _fitted_params(model).items()) + "); "
            + accuracy)
    _atomic_write(path, lambda tmp: write_html(
        tmp, title=f"indefsvm report: {name}, {kernel} kernel", kernel_report=kernel_report,
        model=clf, sanity=sanity, data_desc=text, distance_report=distance_report))
    print(f"\nHTML report written to {path}")
    return 0


def _float_list(text: str) -> list:
    try:
        values = [float(v) for v in text.split(",") if v.strip()]
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected numbers separated by commas; got "
                                         f"{text!r}") from None
    if not values or any(not v > 0 for v in values):
        raise argparse.ArgumentTypeError(f"expected positive numbers; got {text!r}")
    return values


def _cmd_compare(args) -> int:
    from .remedies import compare_remedies

    if args.out and os.path.exists(args.out) and not os.path.isdir(args.out):
        raise CLIError(f"--out {args.out}: is a file; give a folder for the HTML page.",
                       EXIT_USAGE)
    data, y, desc, precomputed = _load(args)
    labels, counts = np.unique(y, return_counts=True)
    _check_classes(y, args.cv)
    if args.cv < 2:
        raise CLIError("--cv must be 2 or more for a comparison.", EXIT_USAGE)
    D = None
    if args.distances:
        # the distance kernel of all the data (gamma by the median rule of all of it): the
        # comparison's own folds then treat it as a precomputed kernel; k-NN reads D itself
        D = data
        K = _distance_kernel(args).fit_transform(D)
    elif precomputed:
        K = data
    else:
        from .kernels import kernel_matrix

        K = kernel_matrix(np.asarray(data.toarray() if hasattr(data, "toarray") else data),
                          kernel=args.kernel, **_kernel_params(args, data))
    if args.knn_distances:
        if D is not None:
            raise CLIError("--knn-distances with --distances: the k-NN rule already reads the "
                           "distances of FILE; drop --knn-distances.", EXIT_USAGE)
        D = _read_matrix(args.knn_distances, "distance matrix")
        if D.shape != K.shape:
            raise DataFileError(args.knn_distances, None, f"is {D.shape}; the kernel is "
                                f"{K.shape}.")
    if args.search:
        return _compare_search(args, K, D, y, desc, precomputed)
    if args.gamma_grid or args.rule:
        raise CLIError(f"{'--gamma-grid' if args.gamma_grid else '--rule'} belongs to "
                       "--search (RemedySearchCV); add --search.", EXIT_USAGE)
    _say(args, f"{args.cv}-fold comparison of the remedies on {K.shape[0]} samples"
               + (f", C from {args.C_grid} by inner CV" if args.C_grid else ", C = 1"))
    with _LogBar(args, args.cv, "folds", "compare_remedies: fold", "fold") as bar:
        # the library logs each fold; on a terminal they drive the bar, else --verbose
        # prints them
        cmp = compare_remedies(K, y, D=D, cv=args.cv,
                               param_grid={"C": args.C_grid} if args.C_grid else None,
                               random_state=args.seed, n_jobs=args.n_jobs,
                               class_weight="balanced" if args.balanced else None,
                               verbose=bar.active or args.verbose)
    if args.json:
        print(json.dumps(cmp.to_dict(), indent=2))
    else:
        print(cmp)
    if args.out:
        _write_compare_page(args, cmp, K, desc, precomputed, "compare", "compared")
    return 0


def _write_compare_page(args, cmp, K, desc, precomputed, stem: str, verb: str) -> None:
    """The HTML page of ``compare`` (and ``compare --search``) in ``--out``."""
    from ._htmlreport import write_compare_html

    os.makedirs(args.out, exist_ok=True)
    kernel = (f"distances-{DISTANCE_KINDS[args.kernel]}" if args.distances
              else "precomputed" if precomputed else args.kernel)
    path = os.path.join(args.out, f"indefsvm-{stem}-{os.path.basename(desc)}-{kernel}.html")
    _atomic_write(path, lambda tmp: write_compare_html(
        tmp, title=f"indefsvm: remedies {verb} on {os.path.basename(desc)}",
        comparison=cmp, K=K, data_desc=f"data {desc}: {K.shape[0]} samples, kernel {kernel}"))
    if not args.json:
        print(f"\nHTML page written to {path}")


def _compare_search(args, K, D, y, desc, precomputed) -> int:
    """``compare --search``: RemedySearchCV over the methods, gamma (with --distances) and C;
    the comparison of each method at its best point, and the choice."""
    from .remedies import RemedySearchCV

    if args.knn_distances:
        raise CLIError("--knn-distances with --search: the search's k-NN ranks neighbours by "
                       "the kernel's own distance (or reads the distances of --distances); "
                       "drop --knn-distances.", EXIT_USAGE)
    if args.gamma_grid and not args.distances:
        raise CLIError("--gamma-grid tunes the gamma of a distance kernel: use it with "
                       "--distances (a kernel FILE or --kernel is fixed; give its gamma with "
                       "--gamma).", EXIT_USAGE)
    grid = {}
    if args.C_grid:
        grid["C"] = args.C_grid
    if args.gamma_grid:
        grid["gamma"] = args.gamma_grid
    kernel = _distance_kernel(args) if args.distances else None
    X = D if args.distances else K
    search = RemedySearchCV(kernel=kernel, param_grid=grid or None, cv=args.cv,
                            rule=args.rule or "one-se", random_state=args.seed,
                            class_weight="balanced" if args.balanced else None,
                            n_jobs=args.n_jobs)
    n_gamma = (len(args.gamma_grid) if args.gamma_grid else
               7 if args.distances and kernel.kind != "linear" else 1)
    _say(args, f"{args.cv}-fold search of the remedies on {K.shape[0]} samples"
               + (f", {n_gamma} gamma" if args.distances else "")
               + f", C from {args.C_grid or 'the default grid'}")
    with _LogBar(args, args.cv * n_gamma, "tasks", "RemedySearchCV: task", "task") as bar:
        search.set_params(verbose=bar.active or args.verbose)
        try:
            search.fit(X, y)
        except ValueError as exc:
            raise CLIError(str(exc), EXIT_USAGE) from None
    cmp = search.comparison_
    params = {k: v for k, v in search.best_params_.items() if k != "method"}
    if args.json:
        print(json.dumps({**cmp.to_dict(), "best_method": search.best_method_,
                          "best_params": params, "best_score": search.best_score_,
                          "rule": search.rule}, indent=2, default=str))
    else:
        print(cmp)
        shown = ", ".join(f"{k} = {v:.4g}" if isinstance(v, float) else f"{k} = {v}"
                          for k, v in params.items())
        print(f"\nChosen ({search.rule} rule): {search.best_method_}, {shown}; "
              f"cross-validated accuracy {100 * search.best_score_:.2f} %.")
    if args.out:
        _write_compare_page(args, cmp, K, desc, precomputed, "search", "searched")
    return 0


def build_parser() -> argparse.ArgumentParser:
    """The argument parser of the ``indefsvm`` command.

    Returns
    -------
    argparse.ArgumentParser

    Examples
    --------
    >>> from indefsvm.cli import build_parser
    >>> build_parser().parse_args(["fit", "--dataset", "heart", "-C", "10"]).C
    10.0
    """
    parser = _Parser(prog="indefsvm",
                     description="SVMs with indefinite kernels: train, diagnose, predict.",
                     epilog="exit status: 0 ok, 1 data or numerical error, 2 usage error, "
                            "130 interrupted, 141 output pipe closed")
    parser.add_argument("--version", action="version", version=f"indefsvm {__version__}")
    sub = parser.add_subparsers(dest="command", required=True, parser_class=_Parser)

    fit = sub.add_parser("fit", help="train an SVM and report the solution and accuracy")
    _add_data_args(fit, labels_help="labels of a precomputed kernel FILE (.npy or text)")
    _add_model_args(fit)
    fit.add_argument("--cv", type=_positive_int, default=5,
                     help="cross-validation folds (default 5; 0: none)")
    fit.add_argument("--save", metavar="MODEL", help="save the model (a .skops file)")
    fit.add_argument("--json", action="store_true", help="print JSON instead of text")
    fit.add_argument("--nystroem", type=_positive_int, default=None, metavar="M",
                     help="train NystroemSVC on Krein-space Nystroem features with M "
                          "landmarks (for 10^4 - 10^6 samples) instead of the SMO on the "
                          "whole kernel")
    fit.add_argument("--remedy", default="krein", choices=["krein", "flip", "clip"],
                     help="with --nystroem: the SVM's kernel (default krein)")
    _common(fit)
    fit.set_defaults(func=_cmd_fit)

    predict = sub.add_parser("predict", help="predict with a model saved by 'fit --save'")
    predict.add_argument("model", metavar="MODEL", help="a model file written by fit --save")
    predict.add_argument("data", metavar="DATA",
                         help="LIBSVM file, or kernel rows k(x, x_train) (.npy, .npz, text) "
                              "for a precomputed-kernel model")
    predict.add_argument("--labels", metavar="FILE",
                         help="true labels of DATA (kernel rows), to print the accuracy")
    predict.add_argument("--distances", action="store_true",
                         help="DATA holds distances to the training objects (a model of "
                              "'fit --distances'; such a model reads them without the flag)")
    predict.add_argument("--zero-based", action="store_true",
                         help="the LIBSVM file's indices start at 0")
    predict.add_argument("--label-column", metavar="COL", default=None,
                         help="CSV / TSV data: the column of true labels (name or index), to "
                              "print the accuracy")
    predict.add_argument("--out", metavar="FILE",
                         help="write the predictions there (one per line) instead of stdout")
    _common(predict)
    predict.set_defaults(func=_cmd_predict)

    check = sub.add_parser(
        "check", help="is this kernel usable in an SVM? (PSD/CPD tests, signature, eta scan)")
    _add_data_args(check, labels_help="labels of a precomputed kernel FILE (optional)")
    _add_kernel_args(check)
    check.add_argument("--rtol", type=float, default=None,
                       help="relative zero threshold of eigenvalues (default n * eps)")
    check.add_argument("--method", default="auto",
                       choices=["auto", "dense", "ldl", "lanczos", "slq"],
                       help="auto: dense up to 5000 samples, matrix-free estimates (slq) above")
    check.add_argument("--probes", type=_positive_int, default=None, metavar="M",
                       help="matrix-free methods: random probes (default 24 for slq)")
    check.add_argument("--steps", type=_positive_int, default=None, metavar="K",
                       help="matrix-free methods: Lanczos steps, one pass over K each")
    check.add_argument("--seed", type=int, default=0,
                       help="matrix-free methods: seed of the probes (default 0)")
    check.add_argument("--json", action="store_true", help="print JSON instead of text")
    _common(check)
    check.set_defaults(func=_cmd_check)

    compare = sub.add_parser(
        "compare", help="try every remedy for an indefinite kernel on the same folds")
    _add_data_args(compare, labels_help="labels of a precomputed kernel FILE (.npy or text)",
                   legacy_distances=True)
    _add_kernel_args(compare)
    compare.add_argument("--knn-distances", metavar="FILE", default=None,
                         help="distance matrix for the k-NN rule (default: from the kernel, or "
                              "FILE itself with --distances)")
    compare.add_argument("--cv", type=_positive_int, default=5, help="outer folds (default 5)")
    compare.add_argument("--C-grid", type=_float_list, default=None, dest="C_grid",
                         metavar="C1,C2,...", help="choose C by inner CV from these values")
    compare.add_argument("--search", action="store_true",
                         help="search every remedy with C (and gamma, with --distances) by "
                              "cross-validation and say which to use (RemedySearchCV)")
    compare.add_argument("--gamma-grid", type=_float_list, default=None, dest="gamma_grid",
                         metavar="G1,G2,...", help="with --search --distances: these gamma "
                         "(default: the median rule times 4^-4 ... 4^2)")
    compare.add_argument("--rule", choices=["one-se", "best"], default=None,
                         help="with --search: the one-standard-error rule on paired folds "
                              "(default) or the best mean score")
    compare.add_argument("--seed", type=int, default=0, help="fold shuffling seed")
    compare.add_argument("--balanced", action="store_true",
                         help="class weights n / (n_classes * n_c) in every SVM")
    compare.add_argument("--n-jobs", type=int, default=None,
                         help="folds in parallel (joblib; default one at a time)")
    compare.add_argument("--out", help="also write an HTML page with a figure to this folder")
    compare.add_argument("--json", action="store_true", help="print JSON instead of text")
    _common(compare)
    compare.set_defaults(func=_cmd_compare)

    report = sub.add_parser(
        "report", help="check the kernel, fit, and write a sanity report (text and HTML)")
    _add_data_args(report, labels_help="labels of a precomputed kernel FILE (.npy or text)")
    _add_model_args(report)
    report.add_argument("--out", default=".", help="folder for the HTML file (default: .)")
    report.add_argument("--cv", type=_positive_int, default=5,
                        help="cross-validation folds of the accuracy (default 5; 0: none)")
    _common(report)
    report.set_defaults(func=_cmd_report)
    return parser


def _resolve_defaults(args) -> None:
    """Kernel defaults that depend on --distances, and the options that do not go with it."""
    if isinstance(getattr(args, "distances", False), str):
        if args.file or args.dataset:
            # compare's old form: --distances FILE were the k-NN distances
            print("indefsvm: warning: 'compare --distances FILE' for the k-NN distances is "
                  "deprecated; use --knn-distances FILE (--distances now says that the data "
                  "file holds distances).", file=sys.stderr)
            if args.knn_distances:
                raise CLIError("give the k-NN distances once: --knn-distances FILE.",
                               EXIT_USAGE)
            args.knn_distances, args.distances = args.distances, False
        else:
            args.file, args.distances = args.distances, True
    if not hasattr(args, "kernel"):
        return
    if getattr(args, "nystroem", None) is None and getattr(args, "remedy", "krein") != "krein":
        raise CLIError("--remedy chooses the kernel of NystroemSVC: it applies with "
                       "--nystroem M only (for the remedies on a whole kernel, see "
                       "'indefsvm compare').", EXIT_USAGE)
    # what the user gave, before the defaults fill in: options that do not apply are refused
    args.explicit = [opt for opt, attr in (("--kernel", "kernel"), ("--gamma", "gamma"),
                                           ("--coef0", "coef0"), ("--degree", "degree"),
                                           ("--p", "pe_p"), ("--rho", "rho"))
                     if getattr(args, attr) is not None]
    args.kernel = "rbf" if args.kernel is None else args.kernel
    args.degree = 3 if args.degree is None else args.degree
    distances = bool(getattr(args, "distances", False))
    if distances:
        if args.kernel not in DISTANCE_KINDS:
            raise CLIError(f"--kernel {args.kernel} is not a kernel of distances; with "
                           "--distances use rbf (exp(-gamma d^2)), laplacian, linear, "
                           "polynomial or tl1.", EXIT_USAGE)
        if args.gamma in ("scale", "auto"):
            raise CLIError(f"--gamma {args.gamma} is for features; with --distances give a "
                           "number or 'median'.", EXIT_USAGE)
        if args.pe_p is not None:
            raise CLIError("--p is a parameter of the pseudo_euclidean kernel of features, "
                           "not of distances.", EXIT_USAGE)
        if getattr(args, "rho", None) is not None:
            raise CLIError("--rho is the radius of the tl1 kernel of features; with "
                           "--distances the tl1 kernel is max(1 - gamma d, 0): give --gamma "
                           "(1 / radius) or leave the median rule.", EXIT_USAGE)
        args.gamma = "median" if args.gamma is None else args.gamma
        args.coef0 = 1.0 if args.coef0 is None else args.coef0
        return
    if args.kernel == "laplacian":
        raise CLIError("--kernel laplacian is the distance kernel exp(-gamma d): use it with "
                       "--distances and a distance matrix.", EXIT_USAGE)
    if args.gamma == "median":
        raise CLIError("--gamma median is the median rule of distances: use it with "
                       "--distances.", EXIT_USAGE)
    args.gamma = "scale" if args.gamma is None else args.gamma
    args.coef0 = 0.0 if args.coef0 is None else args.coef0


def _refuse_feature_options(args, path: str) -> None:
    """Kernel options given with a precomputed kernel FILE: they would be ignored."""
    given = [o for o in getattr(args, "explicit", []) if o != "--p" or args.pe_p is not None]
    if given:
        raise CLIError(f"{' '.join(given)} {'does' if len(given) == 1 else 'do'} not apply to "
                       f"{path}, a precomputed kernel (the kernel is given, not computed): "
                       "drop the option, or give the features (a LIBSVM or CSV file), or "
                       "--distances if the file holds distances.", EXIT_USAGE)


def _warn_unused_kernel_options(args) -> None:
    """Options the chosen kernel does not take (--coef0 with rbf, ...): said, not silent."""
    from .kernels import KERNELS, canonical_name

    explicit = getattr(args, "explicit", [])
    if getattr(args, "distances", False):
        kind = DISTANCE_KINDS[args.kernel]
        takes = {"rbf": {"--gamma"}, "laplacian": {"--gamma"}, "linear": set(),
                 "polynomial": {"--gamma", "--coef0", "--degree"}, "tl1": {"--gamma"}}[kind]
    else:
        _, allowed = KERNELS[canonical_name(args.kernel)]
        takes = {"--" + a for a in allowed if a in ("gamma", "coef0", "degree")}
        takes |= {"--p"} if "p" in allowed else set()
        takes |= {"--rho"} if "rho" in allowed else set()
    unused = [o for o in explicit if o not in takes and o != "--kernel"]
    if unused:
        print(f"indefsvm: warning: {' '.join(unused)} {'does' if len(unused) == 1 else 'do'} "
              f"not apply to --kernel {args.kernel}; ignored.", file=sys.stderr)


def _error_line(exc: BaseException) -> tuple[str, int]:
    """The one line and exit status for an error of the user's data or numbers."""
    if isinstance(exc, CLIError):
        return str(exc), exc.code
    if isinstance(exc, (DataFileError, UnboundedObjectiveError)):
        return str(exc), EXIT_DATA
    if isinstance(exc, FileNotFoundError):
        return f"{exc.filename or exc}: no such file; check the path.", EXIT_DATA
    if isinstance(exc, IsADirectoryError):
        return f"{exc.filename}: is a directory; give a file.", EXIT_DATA
    if isinstance(exc, PermissionError):
        return f"{exc.filename}: permission denied.", EXIT_DATA
    if isinstance(exc, MemoryError):
        # our own checks say what needs how much; numpy's bare MemoryError says nothing
        return (str(exc).splitlines()[0] if str(exc) and " GB" in str(exc) else
                "out of memory: the problem does not fit; use fewer samples, a smaller "
                "--cache-size, or a machine with more memory."), EXIT_DATA
    if isinstance(exc, (ValueError, TypeError, OSError)):
        return str(exc).splitlines()[0] if str(exc) else type(exc).__name__, EXIT_DATA
    return (f"internal error ({type(exc).__name__}: {exc}); run again with --debug for the "
            "traceback and report it."), EXIT_DATA


def main(argv: list[str] | None = None) -> int:
    """Run the command line.

    Parameters
    ----------
    argv : list of str, optional
        Arguments (default: ``sys.argv[1:]``).

    Returns
    -------
    int
        Exit status: 0 ok, 1 data or numerical error, 2 usage error, 130 interrupted, 141
        output pipe closed.

    Examples
    --------
    >>> from indefsvm.cli import main
    >>> main(["fit", "--dataset", "heart", "-C", "-1", "--quiet"])
    2
    """
    argv = sys.argv[1:] if argv is None else list(argv)
    debug = "--debug" in argv
    try:
        args = build_parser().parse_args(argv)
        _resolve_defaults(args)
        if args.verbose:
            logging.getLogger("indefsvm").setLevel(logging.INFO)
        return args.func(args)
    except SystemExit as exc:  # --help and --version
        return int(exc.code or 0)
    except KeyboardInterrupt:
        print("indefsvm: interrupted", file=sys.stderr)
        return EXIT_INTERRUPTED
    except BrokenPipeError:
        # the reader went away (indefsvm ... | head): stop quietly, as cat and grep do;
        # stdout goes to devnull so that the interpreter's final flush does not complain
        try:
            os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        except (OSError, ValueError):  # a stdout with no file descriptor (captured)
            pass
        return EXIT_PIPE
    except Exception as exc:
        if debug:
            raise
        message, code = _error_line(exc)
        logger.debug("error", exc_info=True)
        print(f"indefsvm: error: {message}", file=sys.stderr)
        return code


if __name__ == "__main__":  # pragma: no cover
    raise SystemExit(main())
