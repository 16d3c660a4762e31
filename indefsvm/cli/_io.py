"""Reading data, kernel, distance and label files (output files: ``indefsvm._files``)."""

from __future__ import annotations

import sys
import warnings

import numpy as np

from ..exceptions import DistanceMatrixWarning, ParameterError
from ._args import (
    DISTANCE_DATASETS,
    OPTION_WORDS,
    _datasets,
    _refuse_feature_options,
    _warn_unused_kernel_options,
    refuse_format_options,
)
from ._errors import EXIT_USAGE, CLIError, in_options_words
from ._rules import Refusal, refuse

# -- data ---------------------------------------------------------------------------------------


def _files():
    """datasets' readers, imported on first use (``indefsvm --help`` imports neither
    scikit-learn nor SciPy)."""
    from ..datasets import _matrix_file

    return _matrix_file


def _check_path(path: str, what: str = "data file") -> None:
    _files().check_path(path, what)
    if what != "model file" and not path.endswith(".npz"):
        refuse_model_file(path)


def _say_warning(text: str) -> None:
    print(f"indefsvm: warning: {text}", file=sys.stderr)


def _say_note(text: str) -> None:
    """A remark of a reader on a file's layout (an index column skipped, ...)."""
    print(f"indefsvm: {text}", file=sys.stderr)


def _read_matrix(path: str, name: str) -> np.ndarray:
    """A numeric matrix (:func:`indefsvm.datasets._matrix_file.read_matrix`), a model file
    given in its place named as one."""
    _check_path(path, f"{name} file")
    return _files().read_matrix(path, name)


def _read_labels(path: str, n: int) -> np.ndarray:
    _check_path(path, "labels file")
    doubts = []
    y = _files().read_labels(path, n, note=doubts.append)
    from sklearn.utils.multiclass import type_of_target

    # "more labels than a class file holds" is a doubt about classes; real numbers are a
    # regression's targets, which each command names itself (fit -s 3, check, ...)
    if doubts and type_of_target(y) != "continuous":
        _say_warning(doubts[0])
    return y


def _holds_schema(path: str) -> bool:
    """A zip archive with skops' schema.json: a model file (an Excel file is a zip too)."""
    import zipfile

    try:
        with zipfile.ZipFile(path) as zf:
            return "schema.json" in zf.namelist()
    except (OSError, zipfile.BadZipFile):
        return False


#: the first bytes of a zip archive: a model file of fit --save (a .npz is one too)
_ZIP_MAGIC = b"PK\x03\x04"


def is_model_file(path: str) -> bool:
    """Whether ``path`` is a model file of fit --save (a zip archive with skops' schema)."""
    try:
        with open(path, "rb") as fh:
            head = fh.read(4)
    except OSError:
        return False  # the reader names what is wrong
    return head == _ZIP_MAGIC and _holds_schema(path)


def refuse_model_file(path: str) -> None:
    """A model file given where data are expected is named as one (not read as text)."""
    if is_model_file(path):
        raise CLIError(f"{path}: is a model file (a zip archive, as fit --save writes), not "
                       "data: give it as MODEL to 'indefsvm predict MODEL DATA' or "
                       "'indefsvm report MODEL DATA'.", EXIT_USAGE)


def _load(args, *, need_labels: bool = True, axioms: bool = True):
    """(data, y, description, precomputed): a bundled set, a LIBSVM file, a kernel matrix or
    (--distances) a distance matrix, which counts as precomputed (square, sliced on both
    axes; ``axioms``: non-negative and symmetric, else refused naming the file). --scale
    goes with features only (the features are scaled by the model, ``_models``, or by
    :func:`scaled` where a command computes a kernel of them itself)."""
    data, y, desc, precomputed = _read_data(args, need_labels=need_labels, axioms=axioms)
    if args.scale and precomputed:
        what = "distances" if args.distances else "a kernel matrix"
        raise CLIError(f"--scale scales features; {desc} holds {what} (given, not computed "
                       "from features): drop --scale.", EXIT_USAGE)
    if args.scale and hasattr(data, "toarray"):
        # svm-scale's [-1, 1] maps a feature's zeros to -1 (or another value): a sparse
        # file's features become dense, said with their size, refused past the memory
        from .._validation import check_memory

        n, d = data.shape
        check_memory(2 * 8.0 * n * d, f"--scale on {desc} (its {n} x {d} features made "
                     "dense: [-1, 1] moves every zero)",
                     "Drop --scale: the kernels then read the stored values only (tf-idf and "
                     "other sparse features are usually on one scale already).")
        from ._progress import _say

        _say(args, f"note: --scale maps each feature to [-1, 1], which moves its zeros: the "
                   f"{n} x {d} features of {desc} are made dense "
                   f"({8.0 * n * d / 2**20:.0f} MB; without --scale they stay sparse)")
        data = data.toarray()
    return data, y, desc, precomputed


def scaled(args, X):
    """``X`` with each feature mapped to [-1, 1] by its range (svm-scale), with --scale;
    else ``X`` itself. A constant feature becomes -1 (scikit-learn's MinMaxScaler)."""
    if not args.scale:
        return X
    from sklearn.preprocessing import MinMaxScaler

    return MinMaxScaler(feature_range=(-1, 1)).fit_transform(
        X.toarray() if hasattr(X, "toarray") else X)


#: features whose ranges differ by more than this factor are worth scaling (--scale)
SCALE_RATIO = 100.0


def scale_advice(X) -> str | None:
    """A sentence when the features' ranges differ by more than SCALE_RATIO: a kernel of
    distances or inner products then weighs the wide features, which LIBSVM's guide (Hsu,
    Chang & Lin) avoids by scaling each to [-1, 1] first; None otherwise."""
    if hasattr(X, "toarray"):
        # a file kept sparse (a text collection's words): --scale would make it dense, and
        # such features are usually on one scale already (tf-idf, counts)
        return None
    X = np.asarray(X)
    span = X.max(axis=0) - X.min(axis=0)
    varying = np.flatnonzero(span > 0)
    if varying.size < 2:
        return None
    wide, narrow = varying[np.argmax(span[varying])], varying[np.argmin(span[varying])]
    ratio = span[wide] / span[narrow]
    if ratio <= SCALE_RATIO:
        return None
    return (f"the features' ranges differ by a factor of {ratio:.3g} (feature {wide + 1}: "
            f"{span[wide]:.4g}, feature {narrow + 1}: {span[narrow]:.4g}); a kernel of them "
            "is dominated by the wide ones. LIBSVM's guide scales each feature to [-1, 1] "
            "first: add --scale (fit, check, compare, report and explore take it; a saved "
            "model keeps the scaling).")


#: where the data come from: a bundled set (of its kind, with its labels) or a FILE
_SOURCE = (
    Refusal(lambda v: v.dataset and v.dataset in DISTANCE_DATASETS and not v.distances,
            "--dataset {dataset} is a distance matrix: add --distances."),
    Refusal(lambda v: v.dataset and v.distances and v.dataset not in DISTANCE_DATASETS,
            "--dataset {dataset} is a feature set, not distances: drop --distances."),
    Refusal(lambda v: v.dataset and v.labels is not None,
            "--labels does not apply to --dataset {dataset}: a bundled data set carries its "
            "own labels. Drop --labels, or give the data as a FILE."),
    Refusal(lambda v: not v.dataset and v.file is None,
            "give a data FILE or --dataset NAME (see --help)"),
)


def _read_data(args, *, need_labels: bool, axioms: bool):
    distances = bool(args.distances)
    refuse(args, _SOURCE)
    if args.dataset:
        _warn_unused_kernel_options(args)
        refuse_format_options(args, f"--dataset {args.dataset}", "a bundled data set")
        if distances:
            from ..datasets import load_protein213

            D, y = load_protein213(return_D_y=True)
            return D, y, args.dataset, True
        X, y = _datasets()[args.dataset](return_X_y=True)
        return X, y, args.dataset, False
    path = args.file
    _check_path(path)
    from ..datasets._data_file import read_file

    def known(kind):
        # the kernel options: said of features, refused where the kernel is given
        if kind == "kernel":
            _refuse_feature_options(args, path)
        else:
            _warn_unused_kernel_options(args)

    data = read_file(path, labels=args.labels, distances=distances,
                     label_column=args.label_column, zero_based=args.zero_based,
                     n_features=args.n_features, need_labels=need_labels, words=OPTION_WORDS,
                     note=_say_note, read_labels=_read_labels, known=known,
                     check_distances=checked_distances if axioms else None)
    if data.kind == "kernel":
        _doubt_distances(data.X, path)
    if not need_labels and args.label_column is None:
        _refuse_a_label_among_features(data, path)
    # the header's names of the features: a saved model keeps them, and predict reads its
    # file by them (_finish.save, datasets._data_file.by_names)
    args.feature_names = data.feature_names
    return data.X, data.y, path, data.kind != "features"


def _refuse_a_label_among_features(data, path: str) -> None:
    """A CSV / TSV without a header read with no label column (check, where labels are
    optional): a first or last column of a few whole numbers is the labels in all
    likelihood, and would enter the kernel in silence -- refused as fit refuses the file,
    naming --label-column (and --label-column none for a file of features only)."""
    X = data.X
    if (data.kind != "features" or data.format not in ("CSV", "TSV") or data.y is not None
            or data.feature_names is not None or hasattr(X, "toarray") or X.shape[1] < 2):
        return
    n = X.shape[0]
    for k, where in ((0, "first"), (X.shape[1] - 1, "last")):
        col = X[:, k]
        values = np.unique(col)
        if (np.all(col == np.round(col)) and 2 <= values.size <= max(2, min(20, n // 5))):
            shown = ", ".join(f"{v:g}" for v in values[:6]) + (", ..." if values.size > 6
                                                               else "")
            raise CLIError(f"{path}: has no header row, and its {where} column holds only the "
                           f"whole numbers {shown} -- its labels? Give --label-column "
                           f"{k if k == 0 else -1} to read them as labels, or --label-column "
                           "none if every column is a feature.", EXIT_USAGE)


def _doubt_distances(K, path: str) -> None:
    """A kernel FILE that looks like distances is said once, in the command line's words
    (the library's warning names Python)."""
    from .._validation import looks_like_distances

    if looks_like_distances(K):
        print(f"indefsvm: warning: {path} looks like a distance matrix, not a kernel (zero "
              "diagonal, no negative entry); training on distances gives a meaningless "
              "model. Add --distances to make the kernel exp(-gamma d^2) of them.",
              file=sys.stderr)
        warnings.filterwarnings("ignore", category=DistanceMatrixWarning)


def checked_distances(D, path: str, square: bool = True, instead: str | None = None):
    """Distances (>= 0; symmetric when ``square``) or one error naming the file, in the
    command line's words (``instead``: what to do in place of the library's advice about a
    similarity)."""
    from .._validation import check_distance_matrix

    try:
        return check_distance_matrix(D, path, square=square, instead=instead or (
            "Is it a similarity or a kernel? Then drop --distances (a kernel is read as it "
            "is)."))
    except ParameterError as exc:
        # about the file's matrix, which the check names by its path: the data's error
        # (exit 1), never said as an option whose parameter the path happens to spell
        raise CLIError(str(exc).splitlines()[0]) from None


def _check_class_weight(args, y) -> None:
    """--class-weight LABEL:W names classes of the labels: the library's rule, said before
    any fit in the option's words."""
    weights = args.class_weight
    if isinstance(weights, dict):
        from ..svm._weights import class_weight_vector

        with in_options_words():
            class_weight_vector(weights, np.unique(y), y)


#: a fit's folds against its samples and classes (``cv``, ``n``, ``least``: the smallest
#: class's count, ``small``: that class, ``fewer``: the advice while it has two or more)
_FOLDS = (
    Refusal(lambda v: not v.classifies and v.cv > v.n,
            "--cv {cv} is more folds than the {n} samples; use --cv {n} or fewer, or --cv 0."),
    Refusal(lambda v: v.classifies and v.cv > v.least,
            "--cv {cv} needs at least {cv} samples of every class, but class {small} has "
            "{least}; use {fewer}--cv 0."),
)


def check_targets(args, y, n: int) -> None:
    """What a fit's labels must hold for its --svm-type and --cv, said before the work: a
    classifier's classes (each with --cv samples) and --class-weight's labels; the folds of
    a regression or a one-class SVM no more than the ``n`` samples."""
    from ._family import classifies

    if classifies(args):
        _check_classes(y, args.cv, fit=True)
        _check_class_weight(args, y)
    else:
        refuse(args, _FOLDS, classifies=False, n=n)


def _check_classes(y, cv: int = 0, *, fit: bool = False) -> None:
    """Two classes or more, each with ``cv`` samples or more; real-valued targets (a
    regression's) named as such (``fit``: with the option that trains a regression)."""
    from sklearn.utils.multiclass import type_of_target

    if type_of_target(y) == "continuous":
        raise CLIError(f"the labels are real numbers ({np.unique(y).shape[0]} distinct values "
                       f"among {len(y)} samples), not classes: "
                       + ("for a regression give --svm-type epsilon-svr or nu-svr (-s 3 or "
                          "-s 4); " if fit else "this command compares classifiers; ")
                       + "class labels are such as 1 / -1 or names.", EXIT_USAGE)
    labels, counts = np.unique(y, return_counts=True)
    if labels.shape[0] < 2:
        raise CLIError(f"the labels hold one class only ({labels[0]}); a classifier needs two "
                       "or more.")
    least = int(counts.min())
    refuse(None, _FOLDS, classifies=True, cv=cv, least=least,
           small=labels[np.argmin(counts)],
           fewer=f"--cv {least} or fewer, or " if least >= 2 else "")
