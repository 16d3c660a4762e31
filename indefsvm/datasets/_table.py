"""Reading CSV and TSV files: features with a label column, or a numeric matrix (private).

The command line reads what people have: LIBSVM files, ``.npy`` / ``.npz``, and delimited
text. Every error names the file, the line and the column, and says what would be accepted.
"""

from __future__ import annotations

import csv
import io
import math
import os
import re

import numpy as np

from ..exceptions import DataFileError

__all__ = ["LABEL_NAMES", "delimiter_of", "is_number", "number", "read_features",
           "read_matrix_text", "text_lines"]

#: header names taken as the label column when none is named (case-insensitive)
LABEL_NAMES = ("label", "labels", "y", "class", "target")

#: compressed text read as it is: LIBSVM's data sets come as .bz2 and .xz, others as .gz
COMPRESSED = (".gz", ".bz2", ".xz")


def plain_name(path) -> str:
    """The name without its compression suffix (``train.csv.gz`` -> ``train.csv``), lower
    case: what says the file's format."""
    import os

    low = os.fspath(path).lower()
    return low[: len(low) - len(plain_suffix(low))]


def check_rereadable(path: str, what: str = "data file") -> None:
    """A file that can be read again: a pipe (standard input, a shell's ``<(...)``) or a
    device cannot, and the readers open a file more than once -- to tell its format and
    text, then to read its rows -- so the first reads would use up its first rows (2 847
    of 3 000 series were read so). Refused by name, with what works."""
    import stat

    try:
        mode = os.stat(path).st_mode
    except OSError:
        return  # the reader names what is wrong
    if stat.S_ISREG(mode):
        return
    kind = ("a pipe (standard input or a shell's <(...))" if stat.S_ISFIFO(mode)
            else "a socket" if stat.S_ISSOCK(mode) else "a device")
    raise DataFileError(path, None, f"is {kind}, not a regular file: it can be read only "
                        f"once, and a {what} is read more than once (its format, then its "
                        "rows). Save it to a file first (... > data.txt) and give that "
                        "file.")


def open_bytes(path):
    """The file opened for reading bytes, decompressed when its name ends in .gz, .bz2 or
    .xz (gzip, bzip2, xz: Python's own modules). A compressed file that is not what its
    name says, or that ends early, raises DataFileError naming it wherever it is read."""
    check_rereadable(os.fspath(path), "data file")
    suffix = plain_suffix(path)
    if not suffix:
        return open(path, "rb")
    if suffix == ".gz":
        import gzip

        fh = gzip.open(path, "rb")
    elif suffix == ".bz2":
        import bz2

        fh = bz2.open(path, "rb")
    else:
        import lzma

        fh = lzma.open(path, "rb")
    return io.BufferedReader(_Decompressed(fh, path, _text_room()), buffer_size=1 << 16)


#: a text file read whole takes about this many times its bytes while it is read: the
#: bytes, their decoded text and the list of its lines (the readers' cells come on top)
TEXT_FACTOR = 4

def _text_room(factor: float = TEXT_FACTOR) -> float | None:
    """The most bytes of text a reader that takes ``factor`` times them may take in, by the
    memory available now."""
    from .._validation import available_memory

    avail = available_memory()
    return None if avail is None else avail / factor


def _too_big(path, size: float, room: float, unpacked: bool,
             factor: float = TEXT_FACTOR) -> DataFileError:
    what = (f"unpacks to more than {size / 2**30:.2f} GiB of text" if unpacked
            else f"is {size / 2**30:.2f} GiB of text")
    return DataFileError(path, None, f"{what}; read, it would take about {factor:g}x that, "
                         f"more than the {room * factor / 2**30:.1f} GiB of memory "
                         "available. Refused before it is read whole: give a smaller file "
                         "(a subsample of its rows), or a machine with more memory.")


def check_text_size(path, factor: float = TEXT_FACTOR) -> None:
    """A file read whole by a reader that takes ``factor`` times its bytes fits in memory
    (its size on disk against the memory available); a compressed one is bounded as it
    unpacks (:func:`open_bytes`)."""
    if plain_suffix(path):
        return
    room = _text_room(factor)
    try:
        size = os.path.getsize(path)
    except OSError:
        return  # the reader names what is wrong
    if room is not None and size > room:
        raise _too_big(path, size, room, unpacked=False, factor=factor)


def read_text(path) -> str:
    """The whole file as UTF-8 text (a byte-order mark dropped), decompressed, bounded by
    the memory available; a MemoryError while it is read names the file."""
    check_text_size(path)
    try:
        with open_bytes(path) as fh:
            data = fh.read()
        nul = data.find(b"\x00")
        if nul >= 0:
            # check_text looks at the first 64 KiB only: a NUL further on became part of a
            # label, a class of its own
            raise DataFileError(path, data.count(b"\n", 0, nul) + 1, "holds a NUL byte: it is "
                                "not a text file throughout (a binary part, or files joined "
                                "or cut): remove it, or write the file again.")
        return data.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        # Weka and the UCR archive's older files are often Latin-1: the file and its line,
        # not Python's codec message alone
        line = data.count(b"\n", 0, exc.start) + 1
        byte = data[exc.start:exc.start + 1].hex()
        raise DataFileError(path, line, f"is not UTF-8 text (byte 0x{byte}: {exc.reason}); "
                            "save it as UTF-8 first (a Latin-1 file: iconv -f latin1 -t "
                            "utf-8 FILE > FILE.utf8).") from None
    except MemoryError:
        raise DataFileError(path, None, "does not fit in memory as text; give a smaller file "
                            "(a subsample of its rows), or a machine with more "
                            "memory.") from None


class _Decompressed(io.RawIOBase):
    """A decompressing reader whose failures name the file (the decompressors say "Not a
    gzipped file (b'+1')", "Invalid data stream", "Compressed file ended before the
    end-of-stream marker was reached", or raise LZMAError, none of them with a name), and
    that stops with the file's name once it has unpacked more than ``room`` bytes: a few MB
    of gzip can unpack to GBs (a 2.7 MB .csv.gz held 1.9 GB of rows)."""

    def __init__(self, fh, path, room=None):
        super().__init__()
        self._fh, self._path, self._room, self._total = fh, path, room, 0

    def readable(self) -> bool:
        return True

    def readinto(self, buffer) -> int:
        import lzma

        try:
            data = self._fh.read(len(buffer))
        except EOFError:
            raise DataFileError(self._path, None, "ends before its compressed data do (a "
                                "download cut short?): fetch it again, or decompress what "
                                "is there.") from None
        except (OSError, lzma.LZMAError) as exc:
            kind = _COMPRESSION[plain_suffix(self._path)]
            raise DataFileError(self._path, None, f"is not {kind} compressed data, as its "
                                f"name says ({exc}): rename it, or decompress it "
                                "first.") from None
        self._total += len(data)
        if self._room is not None and self._total > self._room:
            raise _too_big(self._path, self._total, self._room, unpacked=True)
        buffer[:len(data)] = data
        return len(data)

    def close(self) -> None:
        self._fh.close()
        super().close()


def open_text(path, *, errors: str = "strict", newline: str | None = None):
    """The file opened as UTF-8 text (a byte-order mark dropped), decompressed as
    :func:`open_bytes` does."""
    return io.TextIOWrapper(open_bytes(path), encoding="utf-8-sig", errors=errors,
                            newline=newline)


_COMPRESSION = {".gz": "gzip", ".bz2": "bzip2", ".xz": "xz"}


def plain_suffix(path) -> str:
    """The compression suffix of ``path`` (``.gz``, ``.bz2``, ``.xz``), or ``""``."""
    import os

    low = os.fspath(path).lower()
    return next((s for s in COMPRESSED if low.endswith(s)), "")


def check_text(path) -> None:
    """A file read as text holds no NUL byte in its first 64 KiB: else it is binary (an
    executable, an image, a spreadsheet) or UTF-16 text, and is refused by name instead of
    being read as labels and values of garbled characters. A compressed file (.gz, .bz2,
    .xz) is checked on its decompressed bytes."""
    import os

    path = os.fspath(path)
    try:
        # decompressed: a file whose bytes are not what its name says is named here
        with open_bytes(path) as fh:
            head = fh.read(1 << 16)
    except (FileNotFoundError, PermissionError, IsADirectoryError):
        return  # the reader names what is wrong
    if b"\x00" in head:
        utf16 = head[:2] in (b"\xff\xfe", b"\xfe\xff") or _reads_as_utf16(head)
        raise DataFileError(path, None, (
            "is UTF-16 text (Excel's 'Unicode text'): save it as UTF-8 (CSV UTF-8) first."
            if utf16 else "is not a text file (it holds NUL bytes): indefsvm reads LIBSVM "
            "text, CSV / TSV, ARFF, series and strings one per line, and .npy / .npz "
            "matrices."))


def _reads_as_utf16(head: bytes) -> bool:
    """UTF-16 without a byte-order mark: text of one byte order, nearly all of it printable
    ASCII (a binary file decodes to scattered code points)."""
    for order in ("utf-16-le", "utf-16-be"):
        text = head[: len(head) // 2 * 2].decode(order, errors="replace")
        if text and sum(c.isascii() and (c.isprintable() or c in "\t\r\n")
                        for c in text) >= 0.95 * len(text):
            return True
    return False


def text_lines(path: str) -> list:
    """The lines of a UTF-8 text file as files end them: at ``\n`` (a ``\r`` before it
    dropped), a leading byte-order mark removed. ``str.splitlines`` would also split at
    U+2028, U+0085, form feeds and other separators that can sit inside a string or a
    record; a trailing empty line is not a line."""
    text = read_text(path)
    # a file of the classic Mac OS ends its lines at '\r' alone (the csv module then
    # stopped with "new-line character seen in unquoted field")
    lines = text.split("\n" if "\n" in text or "\r" not in text else "\r")
    if lines and lines[-1] == "":
        lines.pop()
    return [line[:-1] if line.endswith("\r") else line for line in lines]


def number(text: str) -> float:
    """``float(text)`` for the numbers of a data file: Python's own literal forms (``1_000``)
    are not numbers there (no other reader of the file would take them)."""
    if "_" in text:
        raise ValueError(f"could not convert string to float: {text!r}")
    return float(text)


def _first_line(path: str) -> str:
    with open_text(path, errors="replace") as fh:
        for line in fh:
            if line.strip() and not line.lstrip().startswith("#"):
                return line
    return ""


def delimiter_of(path: str) -> str | None:
    """``","`` for ``.csv`` (``";"`` when its first line has semicolons and no comma),
    ``"\\t"`` for ``.tsv``; otherwise ``"\\t"``, ``","`` or ``";"`` when the first line has one
    and no ``:`` (a LIBSVM line has ``index:value``); ``None`` for LIBSVM or
    whitespace-separated text."""
    low = plain_name(path)
    line = _first_line(path)
    # the semicolon of a CSV written where the comma is the decimal mark: no comma, or
    # commas only inside numbers (1,5;2,0;x -- a file without a header row)
    semicolon = ";" in line and all("," not in cell or _DECIMAL_COMMA.match(cell.strip())
                                    for cell in line.strip().split(";"))
    if low.endswith(".csv"):
        return ";" if semicolon else ","
    if low.endswith((".tsv", ".tab")):
        return "\t"
    if ":" in line:
        return None
    if semicolon and "\t" not in line:
        return ";"
    for delim in ("\t", ",", ";"):
        if delim in line:
            return delim
    return None


def is_number(text: str) -> bool:
    try:
        number(text)
    except ValueError:
        return False
    return True


def check_label(value: str, path: str, lineno, column=None) -> None:
    """A label cell must hold a class (or a regression's target): not empty, not NaN or
    infinity -- pandas writes a missing label as an empty cell or ``nan``."""
    where = "" if column is None else f"column {column}: "
    if value == "":
        raise DataFileError(path, lineno, f"{where}an empty label (missing?); every row needs "
                            "its label: remove the row or fill in its label.")
    if is_number(value) and not math.isfinite(number(value)):
        raise DataFileError(path, lineno, f"{where}label {value!r} is not finite (a missing "
                            "label?); a label is a class -- a whole number or a word -- or a "
                            "regression's real target: remove the row or fill in its label.")
    if value.lower() in MISSING or value == "None":
        # R's write.csv writes a missing label NA, a database NULL, Python's str() None: a
        # class of its own would be trained on rows whose class nobody knows
        raise DataFileError(path, lineno, f"{where}label {value!r} is a missing value (R's NA, "
                            "SQL's NULL, Python's None, ...); every row needs its label: "
                            "remove the row or fill in its label (a class really named so: "
                            "rename it).")


#: bytes a row read by the csv loop keeps (its list, its tuple with the line number) and
#: bytes a cell keeps (a short Python string and its slot): 120 M cells of '1' took 25 GB
ROW_BYTES, CELL_BYTES = 120, 64


def _size(n_bytes: float) -> str:
    return (f"{n_bytes / 2**30:.1f} GiB" if n_bytes >= 2**30
            else f"{n_bytes / 2**20:.0f} MiB")


def _rows(path: str, delimiter: str):
    """(line number, stripped cells) of the rows of a delimited file. Its callers keep
    every row: what they hold is counted as it grows, and the file refused by name once
    it would pass the memory that was available when reading began."""
    from .._validation import available_memory

    avail = available_memory()
    rows = cells = 0
    with open_text(path, newline="") as fh:
        for lineno, row in enumerate(csv.reader(fh, delimiter=delimiter), 1):
            if row and any(cell.strip() for cell in row) and not row[0].startswith("#"):
                rows += 1
                cells += len(row)
                if avail is not None and not rows & 0xFFFF and (
                        rows * ROW_BYTES + cells * CELL_BYTES > avail / 2):
                    held = _size(rows * ROW_BYTES + cells * CELL_BYTES)
                    raise DataFileError(path, lineno, f"its rows, read so far as "
                                        f"{cells:,} cells, take about {held}, more than half "
                                        f"the {_size(avail)} of memory available; refused "
                                        "before it runs out. Give a "
                                        "smaller file (a subsample of its rows), one NumPy's "
                                        "parser reads (numbers, no quotes or empty cells), or "
                                        "a machine with more memory.")
                yield lineno, [cell.strip() for cell in row]


#: a number written with a decimal comma (1,5 -1,25e-3 ,5)
_DECIMAL_COMMA = re.compile(r"^[+-]?(\d+,\d*|,\d+)([eE][+-]?\d+)?$")

#: how people write a missing value: R's NA, Weka's ?, SQL's NULL, N/A
MISSING = frozenset({"na", "n/a", "nan", "null", "?", "missing"})


def decimal_commas(path: str, rows: list, delimiter: str | None, note=None) -> list:
    """``rows`` (line, cells) of a ';'-separated file with its decimal commas read as points,
    said once: a spreadsheet writes so where the comma is the decimal mark (Germany, France,
    ...), as ``pandas.read_csv(sep=";", decimal=",")`` reads it. A file that also holds
    numbers with a point is left as it is (which mark means what is then unclear)."""
    if delimiter != ";":
        return rows
    comma = False
    for _, cells in rows:
        for cell in cells:
            if _DECIMAL_COMMA.match(cell):
                comma = True
            elif "." in cell and is_number(cell):
                return rows
    if not comma:
        return rows
    (note or warn_note)(f"{path}: read with ',' as the decimal mark (a ';'-separated file, as "
                        "a spreadsheet writes one where the comma is the decimal mark).")
    return [(k, [c.replace(",", ".") if _DECIMAL_COMMA.match(c) else c for c in cells])
            for k, cells in rows]


def read_matrix_text(path: str, delimiter: str | None) -> np.ndarray:
    """A numeric matrix from delimited (or whitespace-separated) text, without a header."""
    rows, width = [], None
    if delimiter is None:
        table = ((k, line.split()) for k, line in enumerate(text_lines(path), 1)
                 if line.strip() and not line.lstrip().startswith("#"))
    else:
        table = decimal_commas(path, list(_rows(path, delimiter)), delimiter)
    for lineno, row in table:
        if width is None:
            width = len(row)
        elif len(row) != width:
            raise DataFileError(path, lineno, f"has {len(row)} values where line 1 has "
                                f"{width}; every row of a matrix has the same number.")
        try:
            rows.append([number(v) for v in row])
        except ValueError:
            bad = next(v for v in row if not is_number(v))
            raise DataFileError(path, lineno, f"{bad!r} is not a number (a kernel or "
                                "distance matrix is numbers only, with no header).") from None
    if not rows:
        raise DataFileError(path, None, "is empty.")
    return np.array(rows, dtype=np.float64)


def _column_index(spec, header, ncol: int, path: str) -> int:
    if spec is None:
        if header is None:
            # the UCR layout (a label, then the series' values) reads as such a table: the
            # user who forgot --metric is told it too
            raise DataFileError(path, None, "has no header row, so its label column cannot "
                                "be found by name: give --label-column INDEX (0 is the first "
                                "column, -1 the last). If its rows are series to compare by "
                                "DTW, label first: add --metric dtw --nystroem M.")
        for k, name in enumerate(header):
            if name.lower() in LABEL_NAMES:
                return k
        # a first row with numbers in it is data, not a header: strings with their labels
        data_like = any(is_number(h) for h in header)
        if len(header) == 1 and len(header[0].split()) > 2 and all(
                is_number(t) for t in header[0].split()):
            # no delimiter in the first line: numbers separated by spaces (the UCR
            # archive's series, a file named .tsv or .csv)
            raise DataFileError(path, None, f"has {len(header[0].split())} numbers separated "
                                "by spaces on its first line, not by its name's delimiter: "
                                "one series a line, the label first, is the UCR archive's "
                                "layout: add --metric dtw (and --nystroem M) to train on "
                                "their DTW distances.")
        shown = [h if len(h) <= 24 else h[:21] + "..." for h in header[:8]]
        raise DataFileError(path, None, f"has no column named {' / '.join(LABEL_NAMES)}: "
                            f"name the label column with --label-column (columns: "
                            f"{', '.join(shown)}{', ...' if len(header) > 8 else ''})."
                            + (" Its first row holds numbers, so it may be data, not a "
                               "header; if its rows are strings to compare by edit distance, "
                               "with their labels: add --metric levenshtein --nystroem M."
                               if data_like else ""))
    text = str(spec)
    if text == "none" and (header is None or text not in header):
        return None  # a file of features only, said so (as the series files read it)
    if text in ("first", "last") and (header is None or text not in header):
        text = "0" if text == "first" else "-1"  # as the series files read them
    if text.lstrip("-").isdigit():
        k = int(text)
        if not -ncol <= k < ncol:
            raise DataFileError(path, None, f"has {ncol} columns; --label-column {k} is not "
                                "one of them.")
        return k % ncol
    if header is None or text not in header:
        have = "no header row" if header is None else f"columns {', '.join(header[:8])}"
        raise DataFileError(path, None, f"has no column {text!r} ({have}); give the label "
                            "column's name or index.")
    return header.index(text)


def warn_note(text: str) -> None:
    """A remark on a file's layout, as a warning at the caller's line -- the first frame
    outside the package (the command line says it as a line)."""
    import sys

    from .._warn import warn

    package = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    frame, level = sys._getframe(1), 2
    while frame is not None and frame.f_code.co_filename.startswith(package):
        frame, level = frame.f_back, level + 1
    warn(text, UserWarning, stacklevel=level)


#: header names of an index column (pandas writes an empty one, or its index's name)
INDEX_NAMES = ("", "index", "unnamed: 0", "id")


def _features_at_once(path, delimiter, label_column, need_labels, note):
    """:func:`read_features` of the common table -- numbers, a header row or none, a label
    column, no quotes, no empty cell -- by NumPy's compiled text parser (ten times the csv
    module's loop on 2e5 rows); None for any other table, or at the first doubt, which the
    loop reads and names with its line -- where the loop's rows fit in memory: their cost
    is told from the text in hand, before the loop starts (a 1.9 GB file declined here
    took the loop 146 s and 6.4 GB to be refused)."""
    text = read_text(path).replace("\r\n", "\n").strip("\n")
    fast = _features_of_text(text, path, delimiter, label_column, need_labels, note)
    if fast is None:
        from .._validation import available_memory

        avail = available_memory()
        rows = text.count("\n") + 1
        held = rows * ROW_BYTES + (text.count(delimiter) + rows) * CELL_BYTES
        if avail is not None and held > avail / 2:
            raise DataFileError(path, None, f"is a table NumPy's parser does not read (quotes, "
                                "empty or non-numeric cells, rows of another width, ...); "
                                f"the csv loop would hold its {rows:,} rows in about "
                                f"{_size(held)}, more than half the {_size(avail)} of memory "
                                "available. Refused before reading them: give a smaller file "
                                "(a subsample of its rows), one of numbers only, or a machine "
                                "with more memory.")
    return fast


def _features_of_text(text, path, delimiter, label_column, need_labels, note):
    if ('"' in text or "_" in text or "\r" in text or (delimiter == ";" and "," in text)
            or not text or text.startswith("#") or "\n#" in text or "\n\n" in text):
        # quoted cells, Python's 1_000, decimal commas, comments, blank lines: the loop's
        return None
    head, _, rest = text.partition("\n")
    first = [c.strip() for c in head.split(delimiter)]
    header = None if all(is_number(v) for v in first) else first
    data = rest if header is not None else text
    if not data:
        return None
    n = data.count("\n") + 1
    ncol = len(first)
    if data.count(delimiter) != (ncol - 1) * n:
        return None  # a row of another width (a shorter one NumPy's parser refuses too)
    if header is None and (label_column is None and need_labels and n == ncol):
        return None  # a square matrix of numbers: the loop says what it looks like
    label = None
    if need_labels or label_column is not None or (
            header is not None and any(h.lower() in LABEL_NAMES for h in header)):
        label = _column_index(label_column, header, ncol, path)
    index = None
    if (header is not None and header[0].lower() in INDEX_NAMES and label != 0
            and ncol - (label is not None) > 1
            and all(line.split(delimiter, 1)[0].strip().lstrip("-").isdigit()
                    for line in data.split("\n"))):
        index = 0
    cols = [k for k in range(ncol) if k not in (label, index)]
    if not cols:
        return None
    try:
        # numbers in the label column too (most files): one pass; words there: a second one
        A = np.loadtxt(io.StringIO(data), delimiter=delimiter, ndmin=2, dtype=np.float64,
                       usecols=cols + ([] if label is None else [label]), comments=None)
        X, raw = (A, None) if label is None else (A[:, :-1], A[:, -1])
    except ValueError:
        if label is None:
            return None
        try:
            X = np.loadtxt(io.StringIO(data), delimiter=delimiter, usecols=cols, ndmin=2,
                           dtype=np.float64, comments=None)
            raw = np.char.strip(np.loadtxt(io.StringIO(data), delimiter=delimiter,
                                           usecols=[label], ndmin=1, dtype=str,
                                           comments=None))
        except ValueError:
            return None
    if X.shape != (n, len(cols)) or not np.all(np.isfinite(X)):
        return None
    y = None
    if raw is not None:
        if raw.shape != (n,) or (raw.dtype.kind == "U" and np.any(raw == "")):
            return None
        try:
            y = raw.astype(np.float64)
        except ValueError:
            y = raw  # words: classes -- unless one is NaN or infinity (pandas' missing label)
            if any((is_number(v) and not math.isfinite(number(v))) or v.lower() in MISSING
                   or v == "None" for v in set(y.tolist())):
                return None  # the loop names the line of the missing label
        else:
            if not np.all(np.isfinite(y)):
                return None
            if np.all(y == np.round(y)) and np.all(np.abs(y) < 2**53):
                y = y.astype(np.int64)
    if index is not None:
        note(f"{path}: column 1 ({header[0] or 'unnamed'}) is an index, as pandas "
             "writes one: not read as a feature.")
    names = None if header is None else [h for k, h in enumerate(header) if k in cols]
    return X, y, names


def read_features(path: str, delimiter: str, label_column=None, *, need_labels: bool = True,
                  note=warn_note):
    """Features and labels of a delimited file.

    The first row is a header when any of its fields is not a number. The label column is
    ``label_column`` (a name, or an index: 0 first, -1 last), else a header column named one
    of :data:`LABEL_NAMES`; with ``need_labels=False`` and neither, every column is a feature
    and the labels are None. Labels may be words; numbers that are whole become integers.
    A first column of whole numbers headed as an index (:data:`INDEX_NAMES`: pandas'
    ``to_csv`` writes its index so, R's ``write.csv`` its row names) is not a feature: it is
    skipped, and ``note`` says so.

    Returns
    -------
    X : ndarray of shape (n, d), y : ndarray or None, names : list of str or None
    """
    if need_labels and str(label_column) == "none":
        raise DataFileError(path, None, "--label-column none reads no labels, and training "
                            "needs them: name the label column (--label-column NAME or "
                            "INDEX).")
    fast = _features_at_once(path, delimiter, label_column, need_labels, note)
    if fast is not None:
        return fast
    rows = decimal_commas(path, list(_rows(path, delimiter)), delimiter, note)
    if not rows:
        raise DataFileError(path, None, "is empty.")
    header = None
    if not all(is_number(v) for v in rows[0][1]):
        header = rows[0][1]
        rows = rows[1:]
        if not rows:
            raise DataFileError(path, None, "has a header and no data rows.")
    ncol = len(header) if header is not None else len(rows[0][1])
    if (header is None and label_column is None and need_labels and len(rows) == ncol
            and ncol > 1 and all(len(r) == ncol and all(map(is_number, r)) for _, r in rows)):
        raise DataFileError(path, None, f"is a square matrix of numbers ({ncol} x {ncol}) "
                            "with no header: it looks like a kernel matrix, which needs its "
                            "labels: give --labels FILE (add --distances if it holds "
                            "distances). Features with a label column: name the column with "
                            "--label-column.")
    label = None
    if need_labels or label_column is not None or (
            header is not None and any(h.lower() in LABEL_NAMES for h in header)):
        label = _column_index(label_column, header, ncol, path)
    index = None
    if (header is not None and header[0].strip().lower() in INDEX_NAMES and label != 0
            and ncol - (label is not None) > 1
            and all(r[0].strip().lstrip("-").isdigit() for _, r in rows if r)):
        index = 0
        note(f"{path}: column 1 ({header[0].strip() or 'unnamed'}) is an index, as pandas "
             "writes one: not read as a feature.")
    if ncol - (label is not None) - (index is not None) == 0:
        what = "the label column" if label is not None else "an index"
        raise DataFileError(path, None, f"has {what} and no feature column: a features file "
                            "holds the label and at least one feature in each row. Labels "
                            "alone go to --labels FILE, beside a kernel or distance matrix.")
    X = np.empty((len(rows), ncol - (label is not None) - (index is not None)))
    labels = []
    for r, (lineno, row) in enumerate(rows):
        if len(row) != ncol:
            raise DataFileError(path, lineno, f"has {len(row)} values where the "
                                f"{'header' if header is not None else 'first line'} has "
                                f"{ncol}.")
        c = 0
        for k, value in enumerate(row):
            if k == label:
                labels.append(value)
                continue
            if k == index:
                continue
            try:
                X[r, c] = number(value)
            except ValueError:
                name = header[k] if header is not None else f"{k}"
                missing = value == "" or value.lower() in MISSING
                fix = ("impute the missing values first" if missing else
                       "is the comma the decimal mark? Write the file with '.' (pandas: "
                       "to_csv(decimal='.')), or separate its values by ';'" if
                       _DECIMAL_COMMA.match(value) else
                       "encode a column of categories as numbers first, one column per "
                       "category (pandas.get_dummies), or drop it")
                what = ("an empty value (missing?)" if value == "" else
                        f"{value!r} (a missing value)" if missing else f"{value!r}")
                raise DataFileError(path, lineno, f"column {name}: {what} is not a number; "
                                    f"features must be numbers: {fix}.") from None
            c += 1
    if not np.all(np.isfinite(X)):
        r, c = (int(v[0]) for v in np.nonzero(~np.isfinite(X)))
        cols = [k for k in range(ncol) if k not in (label, index)]
        name = header[cols[c]] if header is not None else f"{cols[c]}"
        raise DataFileError(path, rows[r][0], f"column {name}: {rows[r][1][cols[c]]!r} is "
                            "NaN or infinity, among the features; remove or impute it.")
    names = None if header is None else [h for k, h in enumerate(header)
                                         if k not in (label, index)]
    if label is None:
        return X, None, names
    for (lineno, _), value in zip(rows, labels, strict=True):
        check_label(value, path, lineno, header[label] if header is not None else f"{label}")
    y = np.array(labels)
    if all(is_number(v) for v in labels):
        y = y.astype(np.float64)
        if np.all(y == np.round(y)) and np.all(np.abs(y) < 2**53):
            y = y.astype(np.int64)
    return X, y, names


def unpadded(path, k, values: np.ndarray) -> np.ndarray:
    """The series without the NaN at its end: the UCR archive (Dau et al. 2019) pads shorter
    series of a data set with NaN to the longest one's length. A NaN inside a series, or an
    infinity anywhere, is a missing or broken point, and refused with its position."""
    finite = np.isfinite(values)
    if finite.all():
        return values
    last = int(np.flatnonzero(finite)[-1]) + 1 if finite.any() else 0
    tail = values[last:]
    if last and np.isnan(tail).all():
        values = values[:last]
        finite = finite[:last]
        if finite.all():
            return values
    if last == 0:
        raise DataFileError(path, k, "holds no number besides the label, only NaN or "
                            "infinity: an empty series.")
    j = int(np.flatnonzero(~finite)[0])
    what = "NaN" if np.isnan(values[j]) else "an infinity"
    raise DataFileError(path, k, f"holds {what} at point {j + 1} of the series; DTW has no "
                        "rule for a missing or infinite point (NaN only at the end is read "
                        "as the padding of a shorter series): remove or impute it.")
