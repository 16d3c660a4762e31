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


def _check_path(path: str, what: str = "data file") -> None:
    if not os.path.exists(path):
        raise CLIError(f"{path}: no such {what}; check the path.")
    if os.path.isdir(path):
        raise CLIError(f"{path}: is a directory; give a {what}.")
    if not os.access(path, os.R_OK):
        raise CLIError(f"{path}: cannot be read (permission denied).")
    if what != "model file" and not path.endswith(".npz"):
        refuse_model_file(path)


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


def _read_matrix(path: str, name: str) -> np.ndarray:
    """A numeric matrix from ..npy, .npz (array 'K', or its only array) or text."""
    _check_path(path, f"{name} file")
    try:
        if path.endswith(".npy"):
            _check_npy_size(path)
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
            from ..datasets._table import delimiter_of, read_matrix_text

            M = read_matrix_text(path, delimiter_of(path))
    except DataFileError as exc:
        from ..datasets._table import _first_line

        if "is not a number" in str(exc) and ":" in _first_line(path):
            raise DataFileError(path, None, f"looks like a LIBSVM feature file (index:value), "
                                f"not a {name}: a {name} is .npy, .npz, CSV / TSV or "
                                "whitespace-separated numbers.") from None
        raise
    except (ValueError, OSError, EOFError) as exc:
        from ..datasets._table import _first_line

        if path.endswith((".npy", ".npz")):
            what = ("holds Python objects (dtype object), not numbers: save a numeric array, "
                    "np.save(path, K.astype(float))" if "allow_pickle" in str(exc)
                    else f"cannot be read as a numeric matrix: {exc}")
            raise DataFileError(path, None, what + ".") from None
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
    M = np.asarray(M, dtype=np.float64)
    if not np.all(np.isfinite(M)):
        r, c = (int(v) for v in np.argwhere(~np.isfinite(M))[0])
        line = None if path.endswith((".npy", ".npz")) else _line_of_row(path, r)
        raise DataFileError(path, line, f"holds {M[r, c]} at row {r}, column {c} (0 first); a "
                            f"{name} is finite numbers: fix it or the data that produced it.")
    return M


def _check_npy_size(path: str) -> None:
    """A .npy file's header says its shape and type: an array that (as float64) would not
    fit in memory is refused from the header, before anything is read."""
    from .._validation import available_memory

    try:
        with open(path, "rb") as fh:
            version = np.lib.format.read_magic(fh)
            read = (np.lib.format.read_array_header_1_0 if version == (1, 0)
                    else np.lib.format.read_array_header_2_0)
            shape, _, dtype = read(fh)
    except (ValueError, OSError):
        return  # np.load says what is wrong with it
    need = float(np.prod(shape, dtype=np.float64)) * max(8, dtype.itemsize)
    avail = available_memory()
    if avail is not None and need > avail:
        raise DataFileError(path, None, f"declares an array of shape {shape} ({dtype}): "
                            f"{need / 2**30:.1f} GiB as float64, more than the "
                            f"{avail / 2**30:.1f} GiB available; refused from its header. "
                            "Use a subsample, or the matrix-free / Nystroem commands.")


def _line_of_row(path: str, row: int) -> int | None:
    """The line number of data row ``row`` of a text matrix (blank and # lines skipped)."""
    with open(path, encoding="utf-8-sig") as fh:
        k = -1
        for lineno, line in enumerate(fh, 1):
            if line.strip() and not line.lstrip().startswith("#"):
                k += 1
                if k == row:
                    return lineno
    return None


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
            with open(path, encoding="utf-8-sig") as fh:
                lines = [line.strip() for line in fh if line.strip()]
            if lines and ":" in lines[0] and len(lines[0].split()) > 1:
                raise DataFileError(path, 1, "looks like a LIBSVM data file (label "
                                    "index:value ...), not labels: a labels file has one "
                                    "label per line.")
            y = np.array(_label_column(lines, n, path))
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
    k = np.unique(y).shape[0]
    if n > 10 and k > n / 2:
        print(f"indefsvm: warning: {path} holds {k} different labels for {n} samples: is it "
              "a file of class labels, one per line? (a row index or a regression target "
              "would be read as that many classes)", file=sys.stderr)
    return y


def _label_column(lines: list, n: int, path: str) -> list:
    """The labels of a text file's lines, recognising what pandas writes: a header row
    (``Series.to_csv(index=False)``: ``label`` then the labels) and an index column
    (``Series.to_csv(header=False)``: ``0,1``, ``1,1``, ...; both with ``to_csv()``)."""
    from ..datasets._table import is_number

    if not lines:
        return lines  # the count check says what is wrong
    sep = "," if "," in lines[0] else "\t" if "\t" in lines[0] else None
    rows = [line.split(sep) if sep else [line] for line in lines]
    width = len(rows[0])
    if width > 2 or any(len(r) != width for r in rows):
        if width > 1:
            raise DataFileError(path, 1, f"has {width} columns; a labels file has one label "
                                "a line (or an index column and the labels, as pandas writes "
                                "them).")
        return lines
    rows = [[c.strip().strip('"') for c in r] for r in rows]
    body = rows
    # a header: one line more than the samples, its last field not like the others
    if len(rows) == n + 1 and (not is_number(rows[0][-1]) or rows[0][0] == "") and (
            all(is_number(r[-1]) for r in rows[1:]) or rows[0][-1].lower() in (
                "label", "labels", "y", "class", "target", "0")):
        body = rows[1:]
    if width == 2:
        first = [r[0] for r in body]
        index = all(c.isdigit() for c in first) and (
            [int(c) for c in first] in (list(range(len(first))),
                                        list(range(1, len(first) + 1))))
        if not index:
            raise DataFileError(path, 1, "has two columns, and the first is not a row index "
                                "(0, 1, 2, ...): a labels file has one label a line.")
        return [r[1] for r in body]
    return [r[0] for r in body]


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
        y = _read_labels(args.labels, K.shape[0]) if args.labels else _npz_labels(path)
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


def _check_output_folder(folder: str, option: str) -> None:
    """An output folder: made later if missing (its parent must exist), writable."""
    if os.path.exists(folder) and not os.path.isdir(folder):
        raise CLIError(f"{option} {folder}: is a file; give a folder.", EXIT_USAGE)
    parent = os.path.dirname(os.path.abspath(folder))
    if not os.path.isdir(parent):
        raise CLIError(f"{option} {folder}: the folder {parent} does not exist; create it "
                       "first, or give an existing folder.", EXIT_USAGE)
    _check_writable(folder if os.path.isdir(folder) else parent, option, folder)
