"""The ``.ts`` files of sktime and aeon (private): the format the UCR and UEA archives
distribute their series in (Bagnall, Dau et al. 2018-2019), univariate or multivariate.

A header of ``@key value`` lines (``@problemName``, ``@univariate``, ``@dimensions``,
``@equalLength``, ``@seriesLength``, ``@classLabel true 1 2 3`` or ``@targetLabel true``,
``@missing``, ``@timeStamps``), then after ``@data`` one series a line: its channels
separated by ``:``, the points of each by ``,``, the label last. Read here rather than by
aeon's ``load_from_ts_file`` so that a file needs neither aeon nor numba, may be compressed
(``.ts.gz``), and each defect is named with its line; a test reads the same series as the
archive's ARFF and one-series-a-line files.
"""

from __future__ import annotations

import numpy as np

from ..exceptions import DataFileError
from ._arff import class_values
from ._table import number, plain_name, text_lines

#: the header's keys (lower case) and whether a value must follow
_KEYS = ("@problemname", "@timestamps", "@missing", "@univariate", "@dimension",
         "@dimensions", "@equallength", "@serieslength", "@classlabel", "@targetlabel")


def is_ts(path) -> bool:
    """Whether ``path`` is named as a ``.ts`` file (also compressed: ``.ts.gz``)."""
    return plain_name(path).lower().endswith(".ts")


def _flag(value: str, key: str, path: str, lineno: int) -> bool:
    word = value.split()[0].lower() if value.split() else ""
    if word not in ("true", "false"):
        raise DataFileError(path, lineno, f"{key} takes true or false; got {value!r}.")
    return word == "true"


def read_header(lines: list, path: str) -> tuple[dict, int]:
    """(the header's settings, index of the first line after ``@data``)."""
    head: dict = {"labels": None, "target": False, "dimensions": None, "length": None,
                  "equal": None}
    for k, line in enumerate(lines):
        text = line.strip()
        # '%' too in the header: ARFF's comments, which aeon's own UnitTest file opens with
        if not text or text.startswith(("#", "%")):
            continue
        key, _, value = text.partition(" ")
        low = key.lower()
        if low == "@data":
            return head, k + 1
        if not low.startswith("@") or low not in _KEYS:
            raise DataFileError(path, k + 1, f"{key!r} before @data, where a .ts header has "
                                "@problemName, @univariate, @classLabel, ... lines (comments "
                                "start with # or %).")
        if low == "@timestamps" and _flag(value, key, path, k + 1):
            raise DataFileError(path, k + 1, "@timeStamps true: series of (time, value) pairs "
                                "are not read; write the values alone, one a point.")
        if low == "@classlabel" and _flag(value, key, path, k + 1):
            labels = value.split()[1:]
            if not labels:
                raise DataFileError(path, k + 1, "@classLabel true names no class.")
            head["labels"] = labels
        if low == "@targetlabel":
            head["target"] = _flag(value, key, path, k + 1)
        if low == "@equallength":
            head["equal"] = _flag(value, key, path, k + 1)
        if low == "@serieslength":
            try:
                head["length"] = (int(value), k + 1)
            except ValueError:
                raise DataFileError(path, k + 1, f"{key} takes a number; got {value!r}."
                                    ) from None
        if low in ("@dimension", "@dimensions"):
            try:
                head["dimensions"] = int(value)
            except ValueError:
                raise DataFileError(path, k + 1, f"{key} takes a number; got {value!r}."
                                    ) from None
    raise DataFileError(path, None, "has no @data line: is it a .ts file?")


def _channel(text: str, path: str, lineno: int, c: int) -> np.ndarray:
    try:
        return np.array([np.nan if v.strip() in ("?", "NaN", "nan") else number(v)
                         for v in text.split(",")], dtype=np.float64)
    except ValueError:
        bad = next(v for v in text.split(",") if v.strip() not in ("?", "NaN", "nan")
                   and not _is_number(v))
        raise DataFileError(path, lineno, f"channel {c + 1}: {bad.strip()!r} is not a "
                            "number.") from None


def _is_number(text: str) -> bool:
    try:
        number(text)
    except ValueError:
        return False
    return True


def read_ts(path: str, *, note=None):
    """(series, labels or None) of a ``.ts`` file: univariate series as 1-D arrays,
    multivariate ones as ``(n_channels, n_timepoints)`` arrays (aeon's layout); one array
    when all have one length. A series' missing points (``?``) at its end on every channel
    are the padding of a shorter series, not read (``note`` says how many); elsewhere they
    are refused with their line. Labels are the declared classes (whole numbers as
    integers), a regression's targets as numbers, or None without ``@classLabel true``."""
    lines = text_lines(path)
    head, start = read_header(lines, path)
    labelled = head["labels"] is not None or head["target"]
    series, labels, channels, padded = [], [], head["dimensions"], 0
    for k in range(start, len(lines)):
        text = lines[k].strip()
        if not text or text.startswith("#"):
            continue
        lineno = k + 1
        parts = text.split(":")
        if labelled:
            if len(parts) < 2:
                raise DataFileError(path, lineno, "has no label after the last ':' (the "
                                    "header says @classLabel true).")
            labels.append(parts[-1].strip())
            parts = parts[:-1]
        if channels is None:
            channels = len(parts)
        elif len(parts) != channels:
            where = "@dimensions says" if head["dimensions"] else "the first series has"
            raise DataFileError(path, lineno, f"has {len(parts)} channels (separated by ':') "
                                f"where {where} {channels}.")
        A = [_channel(p, path, lineno, c) for c, p in enumerate(parts)]
        if len({a.size for a in A}) != 1:
            sizes = ", ".join(str(a.size) for a in A)
            raise DataFileError(path, lineno, f"its channels hold {sizes} points; the "
                                "channels of one series hold as many.")
        A = np.vstack(A)
        if head["length"] is not None and head["equal"] is not False and (
                A.shape[1] != head["length"][0]):
            # read in silence, the header's word and the series disagreed: which is right?
            raise DataFileError(path, lineno, f"holds a series of {A.shape[1]} points where "
                                f"@seriesLength says {head['length'][0]} (line "
                                f"{head['length'][1]}): correct the header, or write "
                                "@equalLength false and leave @seriesLength out.")
        # the padding: NaN at the end of every channel, as one series of the points before
        seen = np.flatnonzero(~np.isnan(A).all(axis=0))
        end = int(seen[-1]) + 1 if seen.size else 0
        if end == 0:
            raise DataFileError(path, lineno, "holds no point besides '?': an empty series.")
        if not np.isfinite(A[:, :end]).all():
            c, j = (int(v) for v in np.argwhere(~np.isfinite(A[:, :end]))[0])
            raise DataFileError(path, lineno, f"channel {c + 1}: a missing or infinite value "
                                f"at point {j + 1}; DTW has no rule for one (only '?' at the "
                                "end of every channel is read as padding): impute it.")
        padded += end < A.shape[1]
        A = A[:, :end]
        series.append(A[0] if channels == 1 else A)
    if not series:
        raise DataFileError(path, None, "has no series after @data.")
    if padded and note is not None:
        note(f"{padded} of the {len(series)} series end in '?': the padding of shorter series "
             "(read as series of their own lengths; DTW compares unequal lengths).")
    if len({s.shape[-1] for s in series}) == 1:
        series = np.stack(series)
    return series, (_labels(labels, head, path, start, lines) if labelled else None)


def _labels(values: list, head: dict, path: str, start: int, lines: list):
    if head["target"]:
        try:
            out = np.array([number(v) for v in values])
        except ValueError:
            bad = next(v for v in values if not _is_number(v))
            raise DataFileError(path, None, f"target {bad!r} is not a number (the header "
                                "says @targetLabel true).") from None
        if not np.all(np.isfinite(out)):
            bad = values[int(np.flatnonzero(~np.isfinite(out))[0])]
            raise DataFileError(path, None, f"target {bad!r} is not finite; a regression's "
                                "target is a finite number: remove the series or fill in "
                                "its target.")
        return out
    declared = set(head["labels"])
    for v in values:
        if v not in declared:
            lineno = next(k + 1 for k in range(start, len(lines))
                          if lines[k].strip().split(":")[-1].strip() == v)
            raise DataFileError(path, lineno, f"class {v!r} is not one of those @classLabel "
                                f"declares ({' '.join(head['labels'][:8])}).")
    line = next((k + 1 for k, text in enumerate(lines)
                 if text.strip().lower().startswith("@classlabel")), None)
    return class_values(values, tuple(head["labels"]), path, line, "declared by @classLabel")
