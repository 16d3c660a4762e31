"""A strict reader of the LIBSVM / svmlight text format (private).

Every line is ``label index:value index:value ...`` with indices from 1, increasing, and
finite numbers (``#`` starts a comment; svmlight's ``qid:`` pairs are skipped). Whatever
breaks that is a :class:`~indefsvm.exceptions.DataFileError` naming the file, the line and
what to do -- nothing is guessed: scikit-learn's reader, for one, makes the whole file
zero-based when a single ``0:`` index appears, shifting every feature by one column.
"""

from __future__ import annotations

import bz2
import gzip
import math
import os

import numpy as np
import scipy.sparse as sp

from ..exceptions import DataFileError
from ._table import check_text, number

# a dense copy larger than this is refused with the line of the largest index
_DENSE_LIMIT_BYTES = 4 * 1024**3
# dense="auto": a sparse file whose dense copy is past this stays CSR (the SVMs compute a
# CSR input under this size as dense rows)
_SMALL_DENSE_BYTES = 8 * 1024**2


def _open(path):
    path = os.fspath(path)
    if path.endswith(".gz"):
        return gzip.open(path, "rt", encoding="utf-8-sig", errors="replace")
    if path.endswith(".bz2"):
        return bz2.open(path, "rt", encoding="utf-8-sig", errors="replace")
    return open(path, encoding="utf-8-sig", errors="replace")


def read_libsvm(path, *, n_features: int | None = None, dense: bool = True,
                zero_based: bool = False):
    """Read a LIBSVM file strictly: (X, y), X dense or CSR; DataFileError on any defect.
    ``zero_based`` reads indices from 0 (scikit-learn's ``dump_svmlight_file`` default)."""
    first = 0 if zero_based else 1
    if not isinstance(path, (str, os.PathLike)):
        raise TypeError(f"path must be a file name (str or path-like); got "
                        f"{type(path).__name__}.")
    if os.path.isdir(path):
        raise DataFileError(path, None, "is a directory, not a data file.")
    if not os.path.exists(path):
        raise FileNotFoundError(f"No such LIBSVM file: {os.fspath(path)!r}.")
    check_text(path)
    labels, indptr, indices, values = [], [0], [], []
    widest, widest_line = 0, None
    with _open(path) as fh:
        for lineno, raw in enumerate(fh, 1):
            line = raw.split("#", 1)[0].strip()
            if not line:
                continue
            tokens = line.split()
            head = tokens[0]
            if ":" in head:
                raise DataFileError(path, lineno, f"the line starts with {head!r}, not a label; "
                                    "each line is 'label index:value ...'.")
            try:
                label = number(head)
            except ValueError:
                raise DataFileError(path, lineno, f"label {head!r} is not a number.") from None
            if not math.isfinite(label):
                raise DataFileError(path, lineno, f"label {head!r} is not finite.")
            prev = first - 1
            for tok in tokens[1:]:
                if tok.startswith("qid:"):
                    continue
                idx, sep, val = tok.partition(":")
                if not sep:
                    raise DataFileError(path, lineno,
                                        f"{tok!r} is not of the form index:value.")
                try:
                    i = int(idx)
                except ValueError:
                    raise DataFileError(path, lineno, f"feature index {idx!r} is not an "
                                        "integer.") from None
                if i < first:
                    raise DataFileError(path, lineno, f"feature index {i} < {first}: LIBSVM "
                                        "indices start at 1; a 0-based file (scikit-learn's "
                                        "dump_svmlight_file writes one by default) is read "
                                        "with zero_based=True (--zero-based).")
                if i <= prev:
                    raise DataFileError(path, lineno, f"feature index {i} after {prev}: "
                                        "indices must increase along a line.")
                if n_features is not None and i - first >= n_features:
                    # the range in the file's own numbering (a 0-based file's last index
                    # is n_features - 1)
                    raise DataFileError(
                        path, lineno, f"feature index {i} is past n_features={n_features} "
                        f"(indices {first} to {first + n_features - 1})"
                        + ("; if the file is 1-based, as LIBSVM writes it, drop zero_based=True "
                           "(--zero-based)." if zero_based else "."))
                try:
                    v = number(val)
                except ValueError:
                    raise DataFileError(path, lineno, f"value {val!r} of feature {i} is not a "
                                        "number.") from None
                if not math.isfinite(v):
                    raise DataFileError(path, lineno, f"feature {i} is {val}: not finite; "
                                        "remove or impute it.")
                if i - first + 1 > widest:
                    widest, widest_line = i - first + 1, lineno
                prev = i
                indices.append(i - first)
                values.append(v)
            labels.append(label)
            indptr.append(len(indices))
    if not labels:
        raise DataFileError(path, None, "no samples: the file is empty or holds only comments.")
    d = n_features if n_features is not None else widest
    if d == 0:
        raise DataFileError(path, None, "no features on any line: only labels were found.")
    n = len(labels)
    if dense == "auto":
        # CSR for a sparse file past the SVMs' small size (see load_libsvm)
        dense = not (len(indices) < 0.25 * n * d and 8.0 * n * d > _SMALL_DENSE_BYTES)
    if dense and 8.0 * n * d > _DENSE_LIMIT_BYTES:
        need = f"a dense {n} x {d} matrix would need {8.0 * n * d / 1024**3:.1f} GiB"
        if n_features is not None and n_features > widest:
            # the width asked for, not the file, is what is too wide
            raise ValueError(f"n_features={n_features}: {need} (the file's widest index "
                             f"makes {widest} columns); give a smaller n_features, or "
                             "dense=False.")
        raise DataFileError(path, widest_line, f"feature index {widest}: {need}; check the "
                            "index, or read the file as sparse.")
    # 32-bit indices where they hold the file (scipy's own choice, and what the compiled
    # kernels read), 64-bit past 2^31 values or columns
    index = np.int32 if max(len(indices), d) <= np.iinfo(np.int32).max else np.int64
    X = sp.csr_matrix((np.asarray(values, dtype=np.float64),
                       np.asarray(indices, dtype=index), np.asarray(indptr, dtype=index)),
                      shape=(n, d))
    y = np.asarray(labels, dtype=np.float64)
    return (X.toarray() if dense else X), y
