"""Series and strings on the command line: their files, ``fit FILE --metric dtw|levenshtein
--nystroem M``, and the checks of a saved model of them."""

from __future__ import annotations

import re

import numpy as np

from ..datasets._table import number
from ..exceptions import DataFileError
from ._args import NYSTROEM_REMEDIES
from ._errors import EXIT_USAGE, CLIError

#: the metrics the command line trains on
METRICS = ("dtw", "levenshtein")

_SPLIT = re.compile(r"[,\s]+")

#: the training accuracy of fit --metric is measured on at most this many objects
TRAIN_SCORE_MAX = 10_000


def _label(text: str):
    return text.strip()


def _labels(raw: list):
    """Labels as numbers when every one is a number (1 and 1.0 alike), else as text."""
    from ..datasets._table import number

    try:
        vals = [number(v) for v in raw]
    except ValueError:
        return np.asarray(raw, dtype=object)
    arr = np.asarray(vals)
    if np.all(np.isfinite(arr)) and np.all(arr == np.round(arr)):
        return arr.astype(np.int64)
    return arr


def read_objects(path: str, metric: str, label_column: str | None, *,
                 need_labels: bool = True, classes_checked: bool = False):
    """(objects, labels or None) of a file of series (one per line, numbers separated by
    commas, spaces or tabs) or of strings (one per line), the label first (UCR's layout),
    last, or none; a CSV / TSV with a header row, as pandas' ``to_csv`` writes one (an index
    column, then named columns: the label by name, ``label_column`` or one of
    :data:`~indefsvm.datasets._table.LABEL_NAMES`); an aeon / sktime ``.ts`` file of series.
    ``label_column`` None: the header's label column, else the first value. First values
    that are not whole numbers are refused as labels, unless ``classes_checked`` (predict
    checks the labels against the model's classes itself)."""
    from ._io import refuse_model_file

    refuse_model_file(path)
    if path.endswith(".ts"):
        return _read_ts(path, metric)
    if label_column is not None:
        label_column = {"0": "first", "-1": "last"}.get(label_column, label_column)
    from ..datasets._table import text_lines

    try:
        # lines end at \n (or \r\n) only: U+2028, U+0085 or a form feed inside a string
        # or a record does not split it
        lines = text_lines(path)
    except UnicodeDecodeError as exc:
        raise DataFileError(path, None, f"is not UTF-8 text ({exc.reason}).") from None
    while lines and not lines[-1].strip():
        lines.pop()
    if not lines:
        raise DataFileError(path, None, "is empty: one series or string per line.")
    table = _header(lines, metric)
    if table is not None:
        objects, labels = _read_table(path, lines, metric, label_column, *table,
                                      need_labels=need_labels)
        label_column = "none" if labels is None else "table"
    else:
        if label_column is None:
            label_column = "first"
        if label_column not in ("first", "last", "none"):
            raise DataFileError(path, 1, f"has no header row, so --label-column "
                                f"{label_column} cannot name a column: give first (the "
                                "default), last or none.")
        objects, labels = [], []
        for k, line in enumerate(lines, start=1):
            if not line.strip():
                raise DataFileError(path, k, "is empty: every line holds one object (and "
                                    "its label).")
            if metric == "levenshtein":
                text, label = _split_string(path, k, line, label_column)
                objects.append(text)
            else:
                values, label = _split_series(path, k, line, label_column)
                objects.append(values)
            labels.append(label)
    y = None if label_column == "none" else _labels(labels)
    if y is None and need_labels:
        raise CLIError(f"{path}: training needs labels; --label-column none is for predict.",
                       EXIT_USAGE)
    if y is not None and metric == "dtw" and label_column == "first" and not classes_checked:
        _refuse_continuous_labels(path, y, lines)
    if metric == "dtw":
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
    last_whole = all(_is_number(t) and float(t) == round(float(t)) for t in lasts)
    hint = ("the last values are whole numbers: --label-column last reads them as the "
            "labels" if last_whole else "a file without labels is read with --label-column "
            "none (predict)")
    raise DataFileError(path, 1, f"the first value {first[0]!r} is not a class label (labels "
                        f"are whole numbers or words; these first values are not); {hint}.")


#: header names of an index column (pandas writes an empty one, or its index's name)
_INDEX_NAMES = ("", "index", "unnamed: 0", "id")


def _header(lines, metric):
    """(header fields, delimiter) when the first line is a header row -- an empty first field
    (pandas' index column), a field named as a label column, or (series) two fields that are
    not numbers -- else None."""
    import csv

    from ..datasets._table import LABEL_NAMES, is_number

    first = lines[0]
    delim = "\t" if "\t" in first else "," if "," in first else (
        ";" if ";" in first else None)
    if delim is None:
        return None
    fields = next(csv.reader([first], delimiter=delim))
    names = [f.strip().lower() for f in fields]
    if len(fields) < 2:
        return None
    pandas_index = names[0] == "" and len(lines) > 1 and next(
        csv.reader([lines[1]], delimiter=delim))[0].strip().isdigit()
    labelled = any(f in LABEL_NAMES for f in names)
    words = sum(not is_number(f) for f in fields)
    if pandas_index or labelled or (metric == "dtw" and words >= 2):
        return fields, delim
    return None


def _read_table(path, lines, metric, label_column, header, delim, *, need_labels=True):
    """The rows of a file with a header row: (objects, labels or None; None also when no
    column is named as labels and none are needed)."""
    import csv
    import sys

    from ..datasets._table import LABEL_NAMES

    names = [h.strip() for h in header]
    low = [h.lower() for h in names]
    index = 0 if low[0] in _INDEX_NAMES and len(names) > 2 else None
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
        print(f"indefsvm: {path}: column 1 ({names[0] or 'unnamed'}) is an index, as pandas "
              "writes one: not read as data.", file=sys.stderr)
    keep = [k for k in range(len(names)) if k not in (index, label)]
    if metric == "levenshtein" and len(keep) != 1:
        raise DataFileError(path, 1, f"has {len(keep)} columns besides the label and the "
                            f"index ({', '.join(names[k] for k in keep[:6])}); strings need "
                            "one: keep the text column and the label.")
    objects, labels = [], []
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
            labels.append(_label(row[label]))
        if metric == "levenshtein":
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
            bad = next(v for v in values if not _is_number(v))
            what = "an empty value inside the series" if bad == "" else repr(bad)
            raise DataFileError(path, k, f"{what} is not a number.") from None
        if points.size == 0:
            raise DataFileError(path, k, "holds no value besides the label: an empty series.")
        if not np.all(np.isfinite(points)):
            raise DataFileError(path, k, "holds NaN or infinity; DTW has no rule for a missing "
                                "point: remove or impute it.")
        objects.append(points)
    if not objects:
        raise DataFileError(path, None, "has a header row and no data rows.")
    return objects, (labels if label is not None else None)


def _split_string(path, k, line, label_column):
    if label_column == "none":
        if not line:
            raise DataFileError(path, k, "holds an empty string.")
        return line, None
    sep = "\t" if "\t" in line else ","
    if sep not in line:
        raise DataFileError(path, k, "has no label: write LABEL<TAB>STRING (or LABEL,STRING; "
                            "--label-column last for STRING<TAB>LABEL, none for no label).")
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
        bad = next(t for t in tokens if not _is_number(t))
        raise DataFileError(path, k, f"value {bad!r} is not a number.") from None
    if not np.all(np.isfinite(values)):
        raise DataFileError(path, k, "holds NaN or infinity; DTW has no rule for a missing "
                            "point: remove or impute it.")
    return values, label


def _is_number(t: str) -> bool:
    from ..datasets._table import is_number

    return is_number(t)


def _read_ts(path, metric):
    if metric != "dtw":
        raise CLIError(f"{path}: a .ts file holds series; use --metric dtw.", EXIT_USAGE)
    try:
        from aeon.datasets import load_from_ts_file
    except ImportError:
        raise CLIError(f"{path}: reading .ts files needs aeon (pip install aeon); or write "
                       "one series per line, the label first.", EXIT_USAGE) from None
    try:
        X, y = load_from_ts_file(path)
    except Exception as exc:  # aeon's own reader: its message, our one line
        raise DataFileError(path, None, f"cannot be read as a .ts file ({exc}).") from None
    return X, (None if y is None else _labels(list(map(str, y))))


# -- fit ------------------------------------------------------------------------------------------


def check_options(args) -> None:
    """What goes with --metric, before any file is read."""
    if args.nystroem is None:
        raise CLIError(f"--metric {args.metric} trains on distances to landmarks: give "
                       "--nystroem M (e.g. 300), the number of landmarks.", EXIT_USAGE)
    if args.distances or args.labels or args.dataset:
        opt = "--distances" if args.distances else "--labels" if args.labels else "--dataset"
        raise CLIError(f"{opt} does not go with --metric: FILE holds the series or strings "
                       "with their labels.", EXIT_USAGE)
    if args.features == "d2ke" and args.landmarks != "uniform":
        raise CLIError(f"--landmarks {args.landmarks} does not apply to --features d2ke: its "
                       "objects are random series or strings, not chosen among the data; drop "
                       "--landmarks.", EXIT_USAGE)
    if args.window is not None and args.metric != "dtw":
        raise CLIError("--window is DTW's band; drop it with --metric levenshtein.",
                       EXIT_USAGE)
    if args.remedy is not None and args.remedy not in NYSTROEM_REMEDIES:
        raise CLIError(f"--remedy {args.remedy} is not one of NystroemSVC's: krein, flip or "
                       "clip.", EXIT_USAGE)
    for opt, attr in (("--p", "pe_p"), ("--rho", "rho"), ("--degree", "degree")):
        if opt in getattr(args, "explicit", []) and not (attr == "degree"
                                                        and args.kernel == "polynomial"):
            raise CLIError(f"{opt} does not apply to --metric; the kernel of the distances "
                           "takes --gamma (and --coef0, --degree for polynomial).", EXIT_USAGE)
    if args.gamma in ("scale", "auto") and "--gamma" in getattr(args, "explicit", []):
        raise CLIError(f"--gamma {args.gamma} is for features; with --metric give a number "
                       "or 'median' (the default).", EXIT_USAGE)


def fit(args, search) -> int:
    """fit FILE --metric ... --nystroem M (``search``: the search of C and gamma, from the
    room that tunes, handed in so that this one does not reach back to it)."""
    from ._finish import finish, fit_saved, summary_of
    from ._progress import _LogBar, _say

    # (the kernel is one of distances: the option defaults refused any other)
    check_options(args)
    kind = {"poly": "polynomial"}.get(args.kernel, args.kernel)
    X, y = read_objects(args.file, args.metric, args.label_column)
    from ._io import _check_class_weight

    _check_class_weight(args, y)
    n = len(y)
    # said before the fit: the folds need every class
    if args.cv > 1 and np.unique(y, return_counts=True)[1].min() < args.cv:
        raise CLIError(f"--cv {args.cv} needs at least {args.cv} objects of every class; use "
                       "fewer folds or --cv 0.", EXIT_USAGE)
    if args.nystroem > n:
        raise CLIError(f"--nystroem {args.nystroem} is more than the {n} objects of "
                       f"{args.file}; give at most {n}.", EXIT_USAGE)
    args.search_result = search(args, X, y)  # said there, as fit's search is
    from ._models import model_of

    model = model_of(args)
    _say(args, f"{n} {'series' if args.metric == 'dtw' else 'strings'}: distances to "
               f"{args.nystroem} "
               f"{'random objects' if args.features == 'd2ke' else 'landmarks'} ({args.metric}"
               + (f", window {args.window:g}" if args.window is not None else "") + ")")
    bar = _LogBar(args, 1, "fit", "NystroemSVC: step", "step", detail=": pass ")
    seconds, messages = fit_saved(args, model, X, y, bar=bar, loud=model)
    # every prediction costs m distances: the training accuracy is measured on at most
    # TRAIN_SCORE_MAX objects, or it would take as long as the fit
    idx = (np.arange(n) if n <= TRAIN_SCORE_MAX else np.sort(
        np.random.default_rng(args.seed).choice(n, TRAIN_SCORE_MAX, replace=False)))
    sub = X[idx] if isinstance(X, np.ndarray) else [X[i] for i in idx]
    train_acc = float(np.mean(model.predict(sub) == y[idx]))
    ny = model.nystroem_
    gamma = getattr(ny, "gamma_", None)  # D2KE's, else the distance kernel's (None: linear)
    if gamma is None:
        gamma = ny.distance_kernel_.gamma_
    summary = summary_of(args, {
        "data": args.file, "n_samples": n, "metric": args.metric, "window": args.window,
        "kernel": kind, "model": "NystroemSVC", "features": args.features,
        "remedy": model.remedy, "landmarks": int(args.nystroem),
        "gamma": None if gamma is None else float(gamma),
        "training_accuracy_objects": int(idx.size),
        "features_used": int(model.n_features_used_), "positive": int(ny.n_positive_),
        "negative": int(ny.n_negative_), "C": args.C, "converged": bool(model.converged_),
    }, seconds=seconds, train_acc=train_acc, messages=messages)

    def head():
        print(f"data        {args.file}: {n} {'series' if args.metric == 'dtw' else 'strings'}"
              f", {len(model.classes_)} classes")
        print(f"model       NystroemSVC(metric={args.metric}"
              + (f", window={args.window:g}" if args.window is not None else "")
              + f", kernel={kind}"
              + ("" if gamma is None else f", gamma={gamma:.6g}")
              + f", n_components={args.nystroem}"
              f", features={args.features}, remedy={model.remedy}, C={args.C:g})")
        print(f"features    {summary['features_used']} used ({summary['positive']} positive, "
              f"{summary['negative']} negative)")
        print(f"converged   {model.converged_}")
        if idx.size < n:
            print(f"(training accuracy on {idx.size} of the {n} objects, drawn at random)")

    return finish(args, X, y, False, seconds, train_acc, summary, head)


def predict_objects(args, model):
    """predict MODEL FILE for a model of series or strings: (objects, labels or None)."""
    return read_objects(args.data, model.metric, args.label_column, need_labels=False,
                        classes_checked=True)


def label_column_for(model, path: str, given) -> str | None:
    """The label column of a file of objects to predict: what the user gave, else the first
    value -- unless every line of a series file holds exactly as many values as the model's
    series have points (all of one length), which is a file without labels: read so, and
    said."""
    if given is not None:
        return given
    from ..datasets._table import text_lines

    try:
        head = text_lines(path)[:2]
    except (OSError, UnicodeDecodeError):
        return "first"  # read_objects says what is wrong
    if head and _header(head, getattr(model, "metric", "dtw")) is not None:
        return None  # a header row names the columns
    ny = getattr(model, "nystroem_", None)
    objs = getattr(ny, "components_", None)
    if getattr(model, "metric", None) != "dtw" or not isinstance(objs, np.ndarray) \
            or objs.ndim != 2:
        return "first"
    length = objs.shape[1]
    from ..datasets._table import text_lines

    try:
        lines = [ln for ln in text_lines(path) if ln.strip()]
    except (OSError, UnicodeDecodeError):
        return "first"  # read_objects says what is wrong
    if lines and all(len([t for t in _SPLIT.split(ln.strip()) if t]) == length
                     for ln in lines):
        import sys

        print(f"indefsvm: {path}: every line holds {length} values, the length of the "
              "model's series: read without labels (--label-column first if the first "
              "value is a label).", file=sys.stderr)
        return "none"
    return "first"

