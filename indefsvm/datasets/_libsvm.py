"""A strict reader of the LIBSVM / svmlight text format (private).

Every line is ``label index:value index:value ...`` with indices from 1, increasing, and
finite numbers (``#`` starts a comment; svmlight's ``qid:`` pairs are skipped). Whatever
breaks that is a :class:`~indefsvm.exceptions.DataFileError` naming the file, the line and
what to do -- nothing is guessed: scikit-learn's reader, for one, makes the whole file
zero-based when a single ``0:`` index appears, shifting every feature by one column.
"""

from __future__ import annotations

import math
import os
import re
from array import array

import numpy as np
import scipy.sparse as sp

from ..exceptions import DataFileError
from ._table import check_text, is_number, number, open_text

# a dense copy larger than this is refused with the line of the largest index
_DENSE_LIMIT_BYTES = 4 * 1024**3
# dense="auto": a sparse file whose dense copy is past this stays CSR (the SVMs compute a
# CSR input under this size as dense rows)
_SMALL_DENSE_BYTES = 8 * 1024**2


def _open(path):
    return open_text(path, errors="replace")


#: a line whose pairs are plain 'index:value' (decimal digits, one colon): read in batches
#: at C speed; any other line (qid:, a stray token, an underscore) token by token
_PLAIN_PAIRS = re.compile(r"(?:\s+[0-9]+:[^\s:]+)*")

#: lines read together by the batched path
_BATCH = 4096


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
    # typed arrays, 8 bytes an entry: Python lists of floats and ints took about 70 (a
    # 200 000 x 54 file peaked at 0.88 GB to give a 86 MB matrix)
    labels, indptr, indices, values = [], array("q", [0]), array("q"), array("d")
    widest = [0, None]  # the widest line's width and number
    batch = []  # (lineno, line, its pairs' text, their number): plain lines to read together

    def keep(lineno, idx, vals):
        """A line's pairs, checked: stored."""
        if len(idx):
            width = int(idx[-1]) - first + 1
            if width > widest[0]:
                widest[0], widest[1] = width, lineno
            indices.frombytes((np.asarray(idx, dtype=np.int64) - first).tobytes())
            values.frombytes(np.asarray(vals, dtype=np.float64).tobytes())
        indptr.append(len(indices))

    def flush():
        """The waiting lines at C speed; where the batch holds anything the strict reader
        would refuse, the strict reader reads it line by line and names the first defect."""
        if not batch:
            return
        counts = np.fromiter((c for *_, c in batch), dtype=np.int64, count=len(batch))
        try:
            flat = np.array(" ".join(text for _, _, text, _ in batch).split(),
                            dtype=np.float64).reshape(-1, 2)
        except ValueError:
            flat = None
        if flat is not None and flat.shape[0] == counts.sum():
            idx, vals = flat[:, 0], flat[:, 1]
            ends = np.cumsum(counts)
            starts = ends - counts
            step = np.diff(idx)
            inside = np.ones(step.shape[0], dtype=bool)  # a line's own steps, not the next's
            cross = starts[(counts > 0) & (starts > 0)] - 1
            inside[cross] = False
            good = (np.all(np.isfinite(vals)) and (idx.size == 0 or (
                idx.min() >= first and idx.max() < 2.0**53
                and not np.any(step[inside] <= 0)
                and (n_features is None or idx.max() - first < n_features))))
            if good:
                if idx.size:
                    # each line's last index is its width; the widest first in the file
                    last = np.where(counts > 0, idx[np.maximum(ends - 1, 0)], first - 1)
                    k = int(np.argmax(last))
                    if int(last[k]) - first + 1 > widest[0]:
                        widest[0], widest[1] = int(last[k]) - first + 1, batch[k][0]
                    indices.frombytes((idx.astype(np.int64) - first).tobytes())
                    values.frombytes(vals.tobytes())
                indptr.extend((indptr[-1] + ends).tolist())
                batch.clear()
                return
        for lineno, line, _, _ in batch:
            keep(lineno, *_strict_pairs(path, lineno, line.split(), first, n_features,
                                        zero_based))
        batch.clear()

    with _open(path) as fh:
        for lineno, raw in enumerate(fh, 1):
            line = raw.split("#", 1)[0].strip()
            if not line:
                continue
            head = line.split(None, 1)[0]
            if ":" in head:
                flush()  # an earlier line's defect comes first
                raise DataFileError(path, lineno, f"the line starts with {head!r}, not a label; "
                                    "each line is 'label index:value ...'.")
            try:
                label = number(head)
            except ValueError:
                flush()
                several = "," in head and all(is_number(p) for p in head.split(","))
                raise DataFileError(path, lineno, f"label {head!r} is not a number" + (
                    ": a line of several labels is LIBSVM's multi-label format; the "
                    "classifiers here take one class a sample (train one two-class model "
                    "a label, e.g. with scikit-learn's MultiOutputClassifier)."
                    if several else ".")) from None
            if not math.isfinite(label):
                flush()
                raise DataFileError(path, lineno, f"label {head!r} is not finite.")
            labels.append(label)
            rest = line[len(head):]
            if "_" not in rest and "qid:" not in rest and _PLAIN_PAIRS.fullmatch(rest):
                batch.append((lineno, line, rest.replace(":", " "), rest.count(":")))
                if len(batch) >= _BATCH:
                    flush()
            else:
                flush()
                keep(lineno, *_strict_pairs(path, lineno, line.split(), first, n_features,
                                            zero_based))
        flush()
    widest, widest_line = widest
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
    X = sp.csr_matrix((np.frombuffer(values, dtype=np.float64),
                       np.frombuffer(indices, dtype=np.int64).astype(index, copy=False),
                       np.frombuffer(indptr, dtype=np.int64).astype(index, copy=False)),
                      shape=(n, d))
    y = np.asarray(labels, dtype=np.float64)
    return (X.toarray() if dense else X), y


def _strict_pairs(path, lineno: int, tokens: list, first: int, n_features, zero_based: bool):
    """(indices, values) of one line read token by token, or the DataFileError that names
    its first defect."""
    idx_out, val_out = [], []
    prev = first - 1
    for tok in tokens[1:]:
        if tok.startswith("qid:"):
            continue
        idx, sep, val = tok.partition(":")
        if not sep:
            series = len(tokens) > 2 and all(is_number(t) for t in tokens)
            raise DataFileError(path, lineno, f"{tok!r} is not of the form index:value" + (
                f"; the line is {len(tokens)} numbers separated by spaces, the UCR archive's "
                "layout of one series a line (its label first): add --metric dtw (and "
                "--nystroem M) to train on their DTW distances; a matrix of numbers is a "
                "kernel with --labels FILE." if series else "."))
        try:
            i = int(idx)
        except ValueError:
            raise DataFileError(path, lineno, f"feature index {idx!r} is not an "
                                "integer.") from None
        if i < first:
            # a 0: pair first on the line is also LIBSVM's own precomputed-kernel format
            # (svm-train -t 4): 'label 0:ID 1:k(x, x_1) ...'
            kernel = ("; a line 'label 0:ID 1:k(x, x_1) ...' is LIBSVM's "
                      "precomputed-kernel format (svm-train -t 4), read by "
                      "load_libsvm_kernel" if i == 0 and prev == first - 1
                      and val.isdigit() and int(val) >= 1 else "")
            raise DataFileError(path, lineno, f"feature index {i} < {first}: LIBSVM "
                                "indices start at 1; a 0-based file (scikit-learn's "
                                "dump_svmlight_file writes one by default) is read "
                                f"with zero_based=True (--zero-based){kernel}.")
        if i <= prev:
            raise DataFileError(path, lineno, f"feature index {i} after {prev}: indices must "
                                "increase along a line.")
        if n_features is not None and i - first >= n_features:
            # the range in the file's own numbering (a 0-based file's last index is
            # n_features - 1)
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
            raise DataFileError(path, lineno, f"feature {i} is {val}: not finite; remove or "
                                "impute it.")
        prev = i
        idx_out.append(i)
        val_out.append(v)
    return idx_out, val_out


def starts_with_serial(path, *, rows: str = "training") -> bool:
    """Whether the first sample line of a LIBSVM text file is one of LIBSVM's
    precomputed-kernel format (``svm-train -t 4``): ``label 0:ID 1:k(x, x_1) ... L:k(x,
    x_L)``, with every value written, so that the indices after the ID run 1 ... L without a
    gap -- which a file of 0-based features (scikit-learn's ``dump_svmlight_file``: zeros
    left out, a real value at 0) does not show. ``rows``: ``"training"``, the ID a whole
    number >= 1; ``"new"``, rows of new samples, whose ID LIBSVM does not read (``0:?``),
    any whole number; ``"any"``, a ``0:`` pair first and nothing more asked (where the
    model was trained on a kernel). False for anything unreadable (the readers name what is
    wrong)."""
    try:
        with _open(path) as fh:
            tokens = next((t for t in (raw.split("#", 1)[0].split() for raw in fh) if t), [])
    except (OSError, UnicodeDecodeError, DataFileError):
        return False
    if len(tokens) < 2 or not tokens[1].startswith("0:"):
        return False
    if rows == "any":
        return True
    ident = tokens[1][2:]
    if not ident.isdigit() or (rows == "training" and int(ident) < 1):
        return False
    return [t.partition(":")[0] for t in tokens[2:]] == [str(j) for j in
                                                         range(1, len(tokens) - 1)]


def read_libsvm_kernel(path, n_train: int | None = None):
    """Read LIBSVM's precomputed-kernel format strictly: (K, y).

    Each line is ``label 0:ID 1:k(x, x_1) ... L:k(x, x_L)`` with every kernel value written
    (LIBSVM's README: "All kernel values including ZEROs must be explicitly provided").
    ``n_train`` None: a training file, whose IDs are 1 ... n, each once, in any order (the
    rows come back in the order of their IDs, so ``K[i, j] = k(x_i, x_j)``), and L = n.
    ``n_train`` an int: rows k(x, x_train) of new samples, L = n_train each; the ID is any
    number (LIBSVM's ``0:?``) and not read."""
    # 0-based, so that the ID is column 0; CSR keeps the explicit zeros to count them
    R, y = read_libsvm(path, dense=False, zero_based=True)
    counts = np.diff(R.indptr)
    width = R.shape[1] - 1
    features = ("; a file of 0-based features (scikit-learn's dump_svmlight_file) is read "
                "with load_libsvm(path, zero_based=True) (--zero-based)")
    for row in range(R.shape[0]):
        first = R.indices[R.indptr[row]] if counts[row] else -1
        if first != 0:
            raise DataFileError(path, _line_of(path, row), "has no 0:ID pair first: in "
                                "LIBSVM's precomputed-kernel format every line is 'label 0:ID "
                                f"1:k(x, x_1) ... L:k(x, x_L)'{features}.")
        if counts[row] != width + 1:
            # increasing indices from 0, so the count says whether one is missing
            raise DataFileError(
                path, _line_of(path, row), f"has {counts[row] - 1} kernel value"
                f"{'' if counts[row] == 2 else 's'} where the widest line has {width}: "
                "LIBSVM's precomputed-kernel format writes every value k(x, x_1) ... "
                f"k(x, x_L), zeros too{features}.")
    K = R[:, 1:].toarray()
    if n_train is not None:
        if width != n_train:
            raise DataFileError(path, None, f"has {width} kernel values a line; the model was "
                                f"trained on {n_train} samples, so each line holds k(x, x_1) "
                                f"... k(x, x_{n_train}) after its 0:ID.")
        return K, y
    ids = R[:, [0]].toarray().ravel()
    n = len(y)
    whole = (ids == np.round(ids)) & (ids >= 1) & (ids <= n)
    if not whole.all():
        row = int(np.argmin(whole))
        raise DataFileError(path, _line_of(path, row), f"has ID 0:{ids[row]:g}: the IDs of a "
                            f"training file of {n} line{'' if n == 1 else 's'} are the "
                            f"integers 1 ... {n}, one a line (the row's place among the "
                            f"kernel's columns){features}.")
    order = np.argsort(ids, kind="stable")
    twice = np.flatnonzero(np.diff(ids[order]) == 0)
    if twice.size:
        raise DataFileError(path, _line_of(path, int(order[twice[0] + 1])), f"repeats ID "
                            f"0:{ids[order][twice[0]]:g}: each training instance has its own "
                            f"ID, 1 ... n{features}.")
    if width != n:
        raise DataFileError(path, None, f"has {n} lines of {width} kernel values: the training "
                            f"kernel among its lines is square, {n} values a line (a subset "
                            "of a larger kernel's rows: keep the columns of its IDs)"
                            f"{features}.")
    # the columns are in ID order already; the rows come in the file's
    return K[order], y[order]


def _line_of(path, row: int) -> int:
    """The line number of sample ``row`` (comments and blank lines skipped, as read)."""
    with _open(path) as fh:
        seen = -1
        for lineno, raw in enumerate(fh, 1):
            if raw.split("#", 1)[0].strip():
                seen += 1
                if seen == row:
                    return lineno
    return row + 1
