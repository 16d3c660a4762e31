"""Reading files of series and strings (private): one object a line with its label first
(UCR's layout), last or none; CSV / TSV with a header row, as pandas writes them; aeon's
``.ts``. The command line reads through these, so the errors name its options; every error
names the file and the line."""

from __future__ import annotations

import re

import numpy as np

from ..exceptions import DataFileError
from ._arff import is_arff, read_arff
from ._table import (
    INDEX_NAMES,
    LABEL_NAMES,
    check_label,
    check_text,
    is_number,
    number,
    text_lines,
    unpadded,
    warn_note,
)
from ._ts import is_ts, read_ts

_SPLIT = re.compile(r"[,\s]+")


def _label(text: str):
    return text.strip()


def _labels(raw: list):
    """Labels as numbers when every one is a number (1 and 1.0 alike), else as text."""
    try:
        vals = [number(v) for v in raw]
    except ValueError:
        return np.asarray(raw, dtype=object)
    arr = np.asarray(vals)
    if np.all(np.isfinite(arr)) and np.all(arr == np.round(arr)):
        return arr.astype(np.int64)
    return arr


def read_objects(path: str, kind: str, label_column: str | None, *,
                 need_labels: bool = True, classes_checked: bool = False, note=warn_note):
    """(objects, labels or None) of a file of series (``kind="series"``: one per line, numbers
    separated by
    commas, spaces or tabs) or of strings (``"strings"``: one per line), the label first
    (UCR's layout),
    last, or none; a CSV / TSV with a header row, as pandas' ``to_csv`` writes one (an index
    column, then named columns: the label by name, ``label_column`` or one of
    :data:`~indefsvm.datasets._table.LABEL_NAMES`); an aeon / sktime ``.ts`` file of series.
    ``label_column`` None: the header's label column, else the first value. First values
    that are not whole numbers are refused as labels, unless ``classes_checked`` (predict
    checks the labels against the model's classes itself). ``note``: says a remark on the
    file's layout (an index column) to the user."""
    check_text(path)
    if is_ts(path):
        if label_column is not None:
            raise DataFileError(path, None, "a .ts file declares its labels (@classLabel "
                                "true: the last field of each line): drop --label-column.")
        return read_ts(path, note=note)
    if is_arff(path):
        # Weka's format, the UCR archive's other one: the class attribute, not a first value
        X, y, _ = read_arff(path, label_column, need_labels=need_labels,
                            objects=kind, note=note)
        return X, y
    if label_column is not None:
        label_column = {"0": "first", "-1": "last"}.get(label_column, label_column)
    # lines end at \n (or \r\n) only: U+2028, U+0085 or a form feed inside a string or a
    # record does not split it (a file that is not UTF-8 is named with its line there)
    lines = text_lines(path)
    while lines and not lines[-1].strip():
        lines.pop()
    if not lines:
        raise DataFileError(path, None, "is empty: one series or string per line.")
    first = next((line for line in lines if line.strip()), "")
    if first.startswith(">") and any(not ln.startswith(">") for ln in lines[1:3] if ln):
        # FASTA: '>name description' then the sequence (over one or more lines); it
        # carries no label field, so nothing here could say each sequence's class
        raise DataFileError(path, 1, "is a FASTA file ('>' header lines, then the "
                            "sequences): its format has no label field. Write one "
                            "LABEL<TAB>SEQUENCE per line (the class you read from each "
                            "header), e.g. with Biopython: for r in SeqIO.parse(path, "
                            "'fasta'): print(label_of(r.description), str(r.seq), "
                            "sep='\\t'); to predict, one SEQUENCE per line with "
                            "--label-column none.")
    table = _header(lines, kind)
    if table is not None:
        objects, labels = _read_table(path, lines, kind, label_column, *table,
                                      need_labels=need_labels, note=note)
        label_column = "none" if labels is None else "table"
    else:
        if label_column is None:
            label_column = "first"
        if label_column not in ("first", "last", "none"):
            raise DataFileError(path, 1, f"has no header row, so --label-column "
                                f"{label_column} cannot name a column: give first (the "
                                "default), last or none.")
        objects, labels, padded = [], [], 0
        for k, line in enumerate(lines, start=1):
            if not line.strip():
                raise DataFileError(path, k, "is empty: every line holds one object (and "
                                    "its label).")
            if kind == "strings":
                text, label = _split_string(path, k, line, label_column)
                objects.append(text)
            else:
                values, label = _split_series(path, k, line, label_column)
                padded += values.size < _count_points(line, label_column)
                objects.append(values)
            if label is not None:
                check_label(label, path, k)
            labels.append(label)
        if padded:
            note(f"{padded} of the {len(objects)} series end in NaN: UCR's padding of "
                 "shorter series (read as series of their own lengths; DTW compares "
                 "unequal lengths).")
    y = None if label_column == "none" else _labels(labels)
    if y is not None and kind == "series" and label_column == "first" and not classes_checked:
        _refuse_continuous_labels(path, y, lines)
    if kind == "series":
        lengths = {len(v) for v in objects}
        if len(lengths) == 1:
            objects = np.asarray(objects)  # equal lengths: one array
    return objects, y


def _refuse_continuous_labels(path, y, lines) -> None:
    """First values that are not whole numbers are points of the series, not labels (a
    label-last file, or one without labels): refused at line 1, with the option that reads
    the file, before any distance is computed."""
    if y.dtype.kind != "f":
        return
    first = [t for t in _SPLIT.split(lines[0].strip()) if t]
    lasts = [([t for t in _SPLIT.split(ln.strip()) if t] or ["x"])[-1] for ln in lines[:50]]
    last_whole = all(is_number(t) and float(t) == round(float(t)) for t in lasts)
    hint = ("the last values are whole numbers: --label-column last reads them as the "
            "labels" if last_whole else "a file without labels is read with --label-column "
            "none (predict)")
    raise DataFileError(path, 1, f"the first value {first[0]!r} is not a class label (labels "
                        f"are whole numbers or words; these first values are not); {hint}.")


def _header(lines, kind):
    """(header fields, delimiter) when the first line is a header row -- an empty first field
    (pandas' index column), a field named as a label column, or (series) two fields that are
    not numbers -- else None."""
    import csv

    first = lines[0]
    delim = "\t" if "\t" in first else "," if "," in first else (
        ";" if ";" in first else None)
    if delim is None:
        return None
    fields = next(csv.reader([first], delimiter=delim))
    names = [f.strip().lower() for f in fields]
    if len(fields) < 2:
        return None
    second = next(csv.reader([lines[1]], delimiter=delim), []) if len(lines) > 1 else []
    # an empty second line has no fields: the data rows' reader says what is wrong with it
    pandas_index = names[0] == "" and bool(second) and second[0].strip().isdigit()
    labelled = any(f in LABEL_NAMES for f in names)
    words = sum(not is_number(f) for f in fields)
    if pandas_index or labelled or (kind == "series" and words >= 2):
        return fields, delim
    return None


def _read_table(path, lines, kind, label_column, header, delim, *, need_labels=True,
                note=warn_note):
    """The rows of a file with a header row: (objects, labels or None; None also when no
    column is named as labels and none are needed)."""
    import csv

    names = [h.strip() for h in header]
    low = [h.lower() for h in names]
    index = 0 if low[0] in INDEX_NAMES and len(names) > 2 else None
    if label_column is None:
        label = next((k for k, h in enumerate(low) if h in LABEL_NAMES), None)
        if label is None and need_labels:
            raise DataFileError(path, 1, f"has a header row ({', '.join(names[:6])}"
                                f"{', ...' if len(names) > 6 else ''}) and no column named "
                                f"{' / '.join(LABEL_NAMES)}: name the label column with "
                                "--label-column NAME (or first, last, none).")
    elif label_column == "none":
        label = None
    elif label_column in ("first", "last"):
        cols = [k for k in range(len(names)) if k != index]
        label = cols[0] if label_column == "first" else cols[-1]
    elif label_column.lstrip("-").isdigit():
        k = int(label_column)
        if not -len(names) <= k < len(names):
            raise DataFileError(path, 1, f"has {len(names)} columns; --label-column {k} is "
                                "not one of them.")
        label = k % len(names)
    elif label_column in names:
        label = names.index(label_column)
    else:
        raise DataFileError(path, 1, f"has no column {label_column!r} (columns: "
                            f"{', '.join(names[:8])}{', ...' if len(names) > 8 else ''}); "
                            "give the label column's name, index, first, last or none.")
    if index is not None:
        note(f"{path}: column 1 ({names[0] or 'unnamed'}) is an index, as pandas writes one: "
             "not read as data.")
    keep = [k for k in range(len(names)) if k not in (index, label)]
    if kind == "strings" and len(keep) != 1:
        raise DataFileError(path, 1, f"has {len(keep)} columns besides the label and the "
                            f"index ({', '.join(names[k] for k in keep[:6])}); strings need "
                            "one: keep the text column and the label.")
    objects, labels, padded = [], [], 0
    for k, row in enumerate(csv.reader(lines[1:], delimiter=delim), start=2):
        if not any(f.strip() for f in row):
            raise DataFileError(path, k, "is empty: every line holds one object (and its "
                                "label).")
        if len(row) > len(names):
            raise DataFileError(path, k, f"has {len(row)} fields where the header has "
                                f"{len(names)}.")
        row = row + [""] * (len(names) - len(row))
        if label is not None:
            if not row[label].strip():
                raise DataFileError(path, k, f"has an empty label (column {names[label]}).")
            check_label(_label(row[label]), path, k, names[label])
            labels.append(_label(row[label]))
        if kind == "strings":
            text = row[keep[0]]
            if not text:
                raise DataFileError(path, k, "holds an empty string.")
            objects.append(text)
            continue
        values = [row[c].strip() for c in keep]
        while values and values[-1] == "":
            values.pop()  # a shorter series: pandas pads it with empty fields
        try:
            points = np.asarray([number(v) for v in values])
        except ValueError:
            bad = next(v for v in values if not is_number(v))
            what = "an empty value inside the series" if bad == "" else repr(bad)
            raise DataFileError(path, k, f"{what} is not a number.") from None
        if points.size == 0:
            raise DataFileError(path, k, "holds no value besides the label: an empty series.")
        series = unpadded(path, k, points)
        padded += series.size < points.size
        objects.append(series)
    if not objects:
        raise DataFileError(path, None, "has a header row and no data rows.")
    if padded:
        note(f"{padded} of the {len(objects)} series end in NaN: the padding of shorter "
             "series (read as series of their own lengths; DTW compares unequal lengths).")
    return objects, (labels if label is not None else None)


def _split_string(path, k, line, label_column):
    if label_column == "none":
        if not line:
            raise DataFileError(path, k, "holds an empty string.")
        return line, None
    sep = "\t" if "\t" in line else ","
    if sep not in line:
        head, space, rest = line.partition(" ")
        seen = (f" ({head!r} then a space: a string may hold spaces, so only a tab or a "
                "comma ends the label)" if space and rest and head.lstrip("-").isdigit()
                else "")
        raise DataFileError(path, k, f"has no label{seen}: write LABEL<TAB>STRING (or "
                            "LABEL,STRING; --label-column last for STRING<TAB>LABEL, none for "
                            "no label).")
    if label_column == "first":
        label, text = line.split(sep, 1)
    else:
        text, label = line.rsplit(sep, 1)
    if not text:
        raise DataFileError(path, k, "holds an empty string.")
    if not label.strip():
        raise DataFileError(path, k, "has an empty label.")
    return text, _label(label)


def _split_series(path, k, line, label_column):
    tokens = [t for t in _SPLIT.split(line.strip()) if t]
    label = None
    if label_column == "first":
        label, tokens = tokens[0], tokens[1:]
    elif label_column == "last":
        label, tokens = tokens[-1], tokens[:-1]
    if not tokens:
        raise DataFileError(path, k, "holds no value after the label: an empty series.")
    try:
        values = np.asarray([number(t) for t in tokens])
    except ValueError:
        bad = next(t for t in tokens if not is_number(t))
        index, colon, value = bad.partition(":")
        if colon and index.isdigit() and is_number(value):
            # a LIBSVM file given to --metric: say what it is, not only which token failed
            raise DataFileError(path, k, f"value {bad!r} is not a number: this looks like a "
                                "LIBSVM feature file (index:value), not series; a file of "
                                "series holds one series per line, its label and then its "
                                "values. Drop --metric to train on the features.") from None
        if line.lstrip().startswith(("#", "@", "%")):
            # a header or comment (NumPy's '#', aeon's .ts '@' headers, ARFF's '%'): no series
            raise DataFileError(path, k, f"starts with {line.lstrip()[0]!r}, a comment or "
                                "header line, which a file of series does not have (one series "
                                "a line, its label and then its values): remove the line"
                                + (", or name the file .ts (sktime / aeon's format)"
                                   if line.lstrip()[0] == "@" else "") + ".") from None
        raise DataFileError(path, k, f"value {bad!r} is not a number.") from None
    return unpadded(path, k, values), label


def _count_points(line: str, label_column: str) -> int:
    """How many values of a series line are points (with the NaN of the padding)."""
    return len([t for t in _SPLIT.split(line.strip()) if t]) - (label_column != "none")


def label_column_for(path: str, kind: str, length: int | None, given, *,
                     note=warn_note) -> str | None:
    """The label column of a file of objects to predict: what the user gave, else the first
    value -- unless every line of a series file holds exactly as many values as the model's
    series have points (``length``: all of one length, else None), which is a file without
    labels: read so, and said."""
    if given is not None or is_arff(path) or is_ts(path):
        return given  # an ARFF or .ts file declares its labels
    try:
        head = text_lines(path)[:2]
    except (OSError, UnicodeDecodeError):
        return "first"  # read_objects says what is wrong
    if head and _header(head, kind) is not None:
        return None  # a header row names the columns
    if kind != "series" or length is None:
        return "first"
    try:
        lines = [ln for ln in text_lines(path) if ln.strip()]
    except (OSError, UnicodeDecodeError):
        return "first"  # read_objects says what is wrong
    if lines and all(len([t for t in _SPLIT.split(ln.strip()) if t]) == length
                     for ln in lines):
        note(f"{path}: every line holds {length} values, the length of the model's series: "
             "read without labels (--label-column first if the first value is a label).")
        return "none"
    return "first"
