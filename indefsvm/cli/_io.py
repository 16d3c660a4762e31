"""Reading data, kernel, distance and label files; writing output files atomically."""

from __future__ import annotations

import os
import stat
import sys
import tempfile
import time
import warnings

import numpy as np

from ..exceptions import DataFileError, DistanceMatrixWarning
from ._args import (
    DISTANCE_DATASETS,
    _datasets,
    _refuse_feature_options,
    _warn_unused_kernel_options,
)
from ._errors import EXIT_USAGE, CLIError

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


def _read_matrix(path: str, name: str) -> np.ndarray:
    """A numeric matrix (:func:`indefsvm.datasets._matrix_file.read_matrix`), a model file
    given in its place named as one."""
    _check_path(path, f"{name} file")
    return _files().read_matrix(path, name)


def _read_labels(path: str, n: int) -> np.ndarray:
    _check_path(path, "labels file")
    return _files().read_labels(path, n, note=_say_warning)


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


def refuse_model_file(path: str) -> None:
    """A model file given where data are expected is named as one (not read as text)."""
    try:
        with open(path, "rb") as fh:
            head = fh.read(4)
    except OSError:
        return  # the reader names what is wrong
    if head == _ZIP_MAGIC and _holds_schema(path):
        raise CLIError(f"{path}: is a model file (a zip archive, as fit --save writes), not "
                       "data: give it as MODEL to 'indefsvm predict MODEL DATA' or "
                       "'indefsvm report MODEL DATA'.", EXIT_USAGE)


def _load(args, *, need_labels: bool = True):
    """(data, y, description, precomputed): a bundled set, a LIBSVM file, a kernel matrix or
    (--distances) a distance matrix, which counts as precomputed (square, sliced on both
    axes)."""
    from .._validation import looks_like_distances
    from ..datasets import load_libsvm

    distances = bool(getattr(args, "distances", False))
    if args.dataset:
        if distances != (args.dataset in DISTANCE_DATASETS):
            raise CLIError(f"--dataset {args.dataset} is " + (
                "a distance matrix: add --distances." if not distances else
                "a feature set, not distances: drop --distances."), EXIT_USAGE)
        _warn_unused_kernel_options(args)
        if distances:
            from ..datasets import load_protein213

            D, y = load_protein213(return_D_y=True)
            return D, y, args.dataset, True
        X, y = _datasets()[args.dataset](return_X_y=True)
        return X, y, args.dataset, False
    path = args.file
    if path is None:
        raise CLIError("give a data FILE or --dataset NAME (see --help)", EXIT_USAGE)
    _check_path(path)
    _files().check_format(path)
    if distances:
        _warn_unused_kernel_options(args)
        D = _read_matrix(path, "distance matrix")
        if D.ndim != 2 or D.shape[0] != D.shape[1]:
            raise DataFileError(path, None, f"is a {D.shape} array; a distance matrix is "
                                "square (n_samples, n_samples).")
        y = _read_labels(args.labels, D.shape[0]) if args.labels else _files().npz_labels(path)
        if y is None and need_labels:
            raise CLIError(f"{path}: distances need their labels: give --labels FILE (.npy or "
                           "text, one per line), or save y beside D in the .npz.", EXIT_USAGE)
        return D, y, path, True
    if args.labels or path.endswith((".npy", ".npz")):
        K = _read_matrix(path, "kernel matrix")
        if K.ndim == 2 and K.shape[0] != K.shape[1] and args.labels:
            # not square: features (one row a sample), with their labels in a file of their own
            _warn_unused_kernel_options(args)
            return K, _read_labels(args.labels, K.shape[0]), path, False
        _refuse_feature_options(args, path)
        if K.ndim != 2 or K.shape[0] != K.shape[1]:
            raise DataFileError(path, None, f"is a {K.shape} array; a kernel matrix is square "
                                "(n_samples, n_samples). Features in a .npy / .npz file need "
                                "their labels: give --labels FILE.")
        if looks_like_distances(K):
            # said once, in the command line's words (the library's warning names Python)
            print(f"indefsvm: warning: {path} looks like a distance matrix, not a kernel (zero "
                  "diagonal, no negative entry); training on distances gives a meaningless "
                  "model. Add --distances to make the kernel exp(-gamma d^2) of them.",
                  file=sys.stderr)
            warnings.filterwarnings("ignore", category=DistanceMatrixWarning)
        y = _read_labels(args.labels, K.shape[0]) if args.labels else _files().npz_labels(path)
        if y is None and need_labels:
            raise CLIError(f"{path}: a precomputed kernel needs its labels: give --labels FILE "
                           "(.npy or text, one per line), or save y beside K in the .npz.",
                           EXIT_USAGE)
        return K, y, path, True
    from ..datasets._table import delimiter_of, read_features

    _warn_unused_kernel_options(args)
    try:
        delimiter = delimiter_of(path)
        if delimiter is not None:
            # CSV / TSV features with a label column
            X, y, _ = read_features(path, delimiter, args.label_column)
            return X, y, path, False
        X, y = load_libsvm(path, n_features=args.n_features, zero_based=args.zero_based)
    except UnicodeDecodeError as exc:
        raise DataFileError(path, None, f"is not UTF-8 text ({exc.reason}): indefsvm reads "
                            "LIBSVM text, CSV / TSV and .npy / .npz files.") from None
    return X, y, path, False


def _check_class_weight(args, y) -> None:
    """--class-weight LABEL:W names classes of the labels (said with the labels there are,
    before any fit; scikit-learn's own message names neither the option nor the labels)."""
    weights = getattr(args, "class_weight", None)
    if not isinstance(weights, dict):
        return
    labels = list(np.unique(y))
    unknown = [k for k in weights if not any(k == c for c in labels)]
    if unknown:
        shown = ", ".join(str(c) for c in labels[:10]) + (" ..." if len(labels) > 10 else "")
        raise CLIError(f"--class-weight names class {unknown[0]}, which the labels do not "
                       f"hold; their classes are {shown}.", EXIT_USAGE)


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


def _atomic_write(path: str, write) -> None:
    """Write through a temporary file in the same folder, renamed at the end: an interrupted
    run leaves no truncated file. A symbolic link is followed (its target is replaced, the
    link stays); a FIFO, a device or a socket is written to directly -- a rename would
    replace the node itself by a regular file."""
    target = os.path.realpath(path)
    held = _HELD_FIFOS.pop(target, None)
    try:
        if os.path.exists(target) and not os.path.isfile(target):
            write(target)
            return
    except OSError as exc:
        # /dev/full, a closed pipe's other end...: the file the user named, not errno alone
        raise CLIError(f"{path}: cannot be written ({exc.strerror or exc}).") from None
    finally:
        if held is not None:
            os.close(held)  # the reader sees the end of the file after what was written
    given, path = path, target
    folder = os.path.dirname(path) or "."
    fd, tmp = tempfile.mkstemp(dir=folder, prefix=".indefsvm-", suffix=".tmp")
    os.close(fd)
    try:
        try:
            write(tmp)
        except OSError as exc:
            raise CLIError(f"{given}: cannot be written ({exc.strerror or exc}); nothing "
                           "was replaced.") from None
        # mkstemp makes the file 0600; a file the user asked for gets the usual mode, 0666
        # less the umask (as open() would give it)
        umask = os.umask(0)
        os.umask(umask)
        os.chmod(tmp, 0o666 & ~umask)
        os.replace(tmp, path)
    finally:
        if os.path.exists(tmp):
            os.remove(tmp)


def _check_output_file(path: str, option: str, inputs=()) -> None:
    """An output file, checked before the work: not a directory, in a folder that exists
    and can be written, not one of the ``inputs`` (also through a link or another name:
    the write would destroy what is being read), and, if it is a FIFO, one that a process
    reads now (else the write would block forever after all the work). A symbolic link is
    written through (its target is replaced, the link stays); a FIFO, a device or a socket
    is written to directly."""
    if os.path.isdir(path):
        raise CLIError(f"{option} {path}: is a directory; give a file name.", EXIT_USAGE)
    if os.path.exists(path):
        for given in inputs:
            if given and os.path.exists(given) and os.path.samefile(path, given):
                raise CLIError(f"{option} {path}: is the input file {given}; writing there "
                               "would destroy it. Give another file name.", EXIT_USAGE)
        if stat.S_ISFIFO(os.stat(path).st_mode):
            _hold_fifo(path, option)
    folder = os.path.dirname(os.path.abspath(path))
    if not os.path.isdir(folder):
        raise CLIError(f"{option} {path}: folder {folder} does not exist.", EXIT_USAGE)
    _check_writable(folder, option, path)


#: seconds a FIFO output is given to find its reader (a shell's ``cat fifo &`` may open it
#: a moment after the command starts)
FIFO_WAIT = 5.0

#: FIFO outputs (real paths) held open for writing from the check to the write: a probe
#: that opened and closed the FIFO would hand its reader an end of file
_HELD_FIFOS: dict = {}


def _hold_fifo(path: str, option: str) -> None:
    """Open a FIFO output for writing before the work -- possible without blocking only
    when a process reads it -- and keep it open until the output is written."""
    deadline = time.monotonic() + FIFO_WAIT
    while True:
        try:
            fd = os.open(path, os.O_WRONLY | os.O_NONBLOCK)
        except OSError:
            if time.monotonic() >= deadline:
                raise CLIError(f"{option} {path}: is a FIFO that no process reads; start its "
                               "reader first (the write would wait for one forever).",
                               EXIT_USAGE) from None
            time.sleep(0.05)
            continue
        os.set_blocking(fd, True)
        _HELD_FIFOS[os.path.realpath(path)] = fd
        return


def _check_writable(folder: str, option: str, given: str) -> None:
    """A file can be made in ``folder`` (tried, then removed): said before the work, naming
    what the user gave, not a temporary file after it."""
    try:
        fd, tmp = tempfile.mkstemp(dir=folder, prefix=".indefsvm-", suffix=".tmp")
    except OSError as exc:
        raise CLIError(f"{option} {given}: cannot write in {folder} "
                       f"({exc.strerror or exc}); give a folder you can write to.") from None
    os.close(fd)
    os.remove(tmp)


#: an --out of an HTML page that ends so is the page itself (not a folder to make)
HTML_SUFFIXES = (".html", ".htm")


def _is_page(out: str) -> bool:
    return out.lower().endswith(HTML_SUFFIXES) and not os.path.isdir(out)


def check_page_out(out: str, option: str, inputs=()) -> None:
    """``--out`` of an HTML page, checked before the work: a name ending in .html or .htm
    (and not an existing folder) is the page's file; anything else a folder, made if
    missing, that the page goes into under its own name."""
    if _is_page(out):
        _check_output_file(out, option, inputs)
    else:
        _check_output_folder(out, option)


def page_path(out: str, name: str) -> str:
    """Where the page ``name`` is written for ``--out out`` (see :func:`check_page_out`)."""
    if _is_page(out):
        return out
    os.makedirs(out, exist_ok=True)  # the folder only: its parent exists
    return os.path.join(out, name)


def _check_output_folder(folder: str, option: str) -> None:
    """An output folder: made later if missing (its parent must exist), writable."""
    if os.path.exists(folder) and not os.path.isdir(folder):
        raise CLIError(f"{option} {folder}: is a file; give a folder, or a file name ending "
                       "in .html for the page itself.", EXIT_USAGE)
    parent = os.path.dirname(os.path.abspath(folder))
    if not os.path.isdir(parent):
        raise CLIError(f"{option} {folder}: the folder {parent} does not exist; create it "
                       "first, or give an existing folder.", EXIT_USAGE)
    _check_writable(folder if os.path.isdir(folder) else parent, option, folder)
