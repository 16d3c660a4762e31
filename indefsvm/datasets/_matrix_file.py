"""Reading kernel, distance and feature matrices and label files (private): .npy (its size
refused from the header when it would not fit), .npz, delimited text; labels one a line, as
pandas writes them. The command line reads through these; every error names the file, the
line where there is one, and what would be read."""

from __future__ import annotations

import os

import numpy as np

from .._warn import warn
from ..exceptions import DataFileError
from ._table import (
    _first_line,
    check_label,
    check_rereadable,
    delimiter_of,
    is_number,
    open_text,
    plain_name,
    read_matrix_text,
)


def check_path(path: str, what: str = "data file") -> None:
    """A path that exists, is a file and can be read; else one error naming it."""
    if not os.path.exists(path):
        raise DataFileError(path, None, f"no such {what}; check the path.")
    if os.path.isdir(path):
        raise DataFileError(path, None, f"is a directory; give a {what}.")
    if not os.access(path, os.R_OK):
        raise DataFileError(path, None, "cannot be read (permission denied).")
    check_rereadable(path, what)



def read_matrix(path: str, name: str) -> np.ndarray:
    """A numeric matrix from .npy, .npz (array 'K' or 'D', or its only array) or text."""
    check_path(path, f"{name} file")
    try:
        if path.endswith(".npy"):
            check_npy_size(path)
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
            M = read_matrix_text(path, delimiter_of(path))
    except DataFileError as exc:
        if "is not a number" in str(exc) and ":" in _first_line(path):
            raise DataFileError(path, None, f"looks like a LIBSVM feature file (index:value), "
                                f"not a {name}: a {name} is .npy, .npz, CSV / TSV or "
                                "whitespace-separated numbers.") from None
        raise
    except (ValueError, OSError, EOFError) as exc:
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
        line = None if path.endswith((".npy", ".npz")) else line_of_row(path, r)
        raise DataFileError(path, line, f"holds {M[r, c]} at row {r}, column {c} (0 first); a "
                            f"{name} is finite numbers: fix it or the data that produced it.")
    return M


def check_npy_size(path: str) -> None:
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


def line_of_row(path: str, row: int) -> int | None:
    """The line number of data row ``row`` of a text matrix (blank and # lines skipped)."""
    with open_text(path) as fh:
        k = -1
        for lineno, line in enumerate(fh, 1):
            if line.strip() and not line.lstrip().startswith("#"):
                k += 1
                if k == row:
                    return lineno
    return None


#: formats people try that indefsvm does not read (the rest is LIBSVM or delimited text)
UNSUPPORTED = {".xlsx": "Excel", ".xls": "Excel", ".ods": "OpenDocument", ".json": "JSON",
                ".parquet": "Parquet", ".feather": "Feather", ".pkl": "pickle",
                ".pickle": "pickle", ".h5": "HDF5", ".hdf5": "HDF5", ".mat": "MATLAB"}


def check_format(path: str) -> None:
    ext = os.path.splitext(plain_name(path))[1]
    if ext == ".ts":
        raise DataFileError(path, None, "is a .ts file of series (sktime / aeon's format, the "
                            "UCR and UEA archives'): add --metric dtw (and --nystroem M) to "
                            "train on their DTW distances.")
    if ext in UNSUPPORTED:
        raise DataFileError(path, None, f"{UNSUPPORTED[ext]} files are not read; indefsvm "
                            "reads LIBSVM text, CSV / TSV (.csv, .tsv: features with a label "
                            "column, or with --labels a kernel or distance matrix), Weka's "
                            "ARFF and .npy / .npz matrices. Export your data to one of them.")
    if ext not in (".npy", ".npz"):
        from ._table import check_text

        check_text(path)


def read_labels(path: str, n: int, *, note=None) -> np.ndarray:
    """``n`` class labels from a .npy file or text, one a line (pandas' header row and index
    column recognised); ``note`` says a doubt (more labels than a class file would hold),
    else a warning does."""
    check_path(path, "labels file")
    try:
        if path.endswith(".npy"):
            y = np.load(path, allow_pickle=False)
        else:
            with open_text(path) as fh:
                numbered = [(k, line.strip()) for k, line in enumerate(fh, 1) if line.strip()]
            lines = [line for _, line in numbered]
            if lines and ":" in lines[0] and len(lines[0].split()) > 1:
                raise DataFileError(path, 1, "looks like a LIBSVM data file (label "
                                    "index:value ...), not labels: a labels file has one "
                                    "label per line.")
            labels = label_column(lines, n, path)
            # the labels are the last lines (a header, if any, is the first)
            for (lineno, _), value in zip(numbered[len(lines) - len(labels):], labels, strict=True):
                check_label(value, path, lineno)
            y = np.array(labels)
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
    finite_labels(y, path)
    if y.shape[0] != n:
        raise DataFileError(path, None, f"has {y.shape[0]} labels for {n} samples; give one "
                            "label per row of the kernel matrix.")
    k = np.unique(y).shape[0]
    if n > 10 and k > n / 2:
        text = (f"{path} holds {k} different labels for {n} samples: is it a file of class "
                "labels, one per line? (a row index or a regression target would be read as "
                "that many classes)")
        if note is None:
            warn(text, UserWarning, stacklevel=2)
        else:
            note(text)
    return y


def label_column(lines: list, n: int, path: str) -> list:
    """The labels of a text file's lines, recognising what pandas writes: a header row
    (``Series.to_csv(index=False)``: ``label`` then the labels) and an index column
    (``Series.to_csv(header=False)``: ``0,1``, ``1,1``, ...; both with ``to_csv()``)."""
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


def npz_labels(path: str):
    if path.endswith(".npz"):
        with np.load(path, allow_pickle=False) as z:
            if "y" in z:
                y = np.asarray(z["y"])
                finite_labels(np.ravel(y), path, " of its array y")
                return y
    return None


def finite_labels(y: np.ndarray, path: str, what: str = "") -> None:
    """Labels stored as numbers (.npy, .npz) must be finite: NaN is a missing label."""
    if y.dtype.kind in "fc" and not np.all(np.isfinite(y)):
        i = int(np.flatnonzero(~np.isfinite(y))[0])
        raise DataFileError(path, None, f"label {i + 1}{what} is {y[i]}: a label is a class "
                            "or a regression's real target, never NaN or infinity (a missing "
                            "label?); drop that sample or fill in its label.")
