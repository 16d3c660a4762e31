"""``indefsvm predict``: apply a model saved by ``fit --save``."""

from __future__ import annotations

import sys

import numpy as np

from .._files import atomic_write
from ._args import OPTION_WORDS, _add_device, _common, path_name
from ._errors import EXIT_USAGE, CLIError
from ._io import (
    _check_path,
    _read_labels,
    _say_note,
    _say_warning,
    checked_distances,
    is_model_file,
)
from ._modelfile import _load_model, model_input, placed
from ._options import option
from ._progress import _say
from ._rules import Refusal, refuse


def run(args) -> int:
    from sklearn.base import is_regressor

    if args.out == "-":
        args.out = None  # standard output, as without --out (checked: _parser.check_outputs)
    if not is_model_file(args.model) and is_model_file(args.data):
        # svm-predict's order, test file first: said before the data file is read as a model
        raise CLIError(f"{args.data} is the model file and {args.model} is not: the model "
                       f"comes first, 'indefsvm predict MODEL DATA' (svm-predict takes DATA "
                       f"first): indefsvm predict {args.data} {args.model}", EXIT_USAGE)
    model = placed(_load_model(args.model), args.device, args.model)
    _check_columns_apply(args, model)
    X, y = read_data_for(args, model, args.data)
    pred = model.predict(X)
    # a regression's values with the digits they have (LIBSVM's svm-predict prints %.17g)
    number = "{:.10g}" if is_regressor(model) else "{:g}"
    labels = [number.format(p) if isinstance(p, (float, np.floating)) else f"{p}"
              for p in pred.tolist()]
    if args.decision_values:
        text = _with_decision_values(model, X, labels)
    elif args.probability:
        text = _with_columns(model, np.asarray(model.predict_proba(X), dtype=float), labels)
    else:
        text = "".join(f"{p}\n" for p in labels)
    if args.out:
        def write(tmp):
            with open(tmp, "w", encoding="utf-8") as fh:
                fh.write(text)
        atomic_write(args.out, write)
    else:
        sys.stdout.write(text)
    if y is not None and is_regressor(model):
        # svm-predict's two figures of a regression (R^2 here is scikit-learn's score)
        y = np.asarray(y, dtype=float)
        _say(args, f"mean squared error {np.mean((pred - y) ** 2):.6g}, R^2 "
                   f"{1 - np.sum((pred - y) ** 2) / np.sum((y - y.mean()) ** 2):.4f} "
                   f"({len(y)} samples)")
    elif y is not None:
        # a one-class SVM's +1 / -1 against the labels, as svm-predict scores it
        right = int(np.sum(pred == y))
        _say(args, f"accuracy {100 * right / len(y):.2f} % ({right}/{len(y)})")
    if args.out:
        _say(args, f"{len(pred)} predictions written to {args.out}")
    return 0



def read_data_for(args, model, path: str):
    """(X, y or None): DATA in the form ``model`` was trained on -- features (LIBSVM, CSV,
    TSV, ARFF, .npy), kernel rows or distances to the training objects, or series and
    strings -- with its labels when the file (or --labels) has them
    (:func:`indefsvm.datasets._data_file.read_rows`). Shared by predict and
    ``report MODEL DATA``."""
    from ..datasets._data_file import read_rows

    distances = model_input(model)[0]
    name = args.model or args.file  # predict MODEL DATA, report MODEL DATA
    if args.distances and not distances:
        raise CLIError(f"{name} was not trained on distances (fit --distances); drop "
                       "--distances and give what it was trained on.", EXIT_USAGE)
    _check_path(path)
    data = read_rows(path, model, labels=args.labels, label_column=args.label_column,
                     zero_based=args.zero_based, name=name, words=OPTION_WORDS,
                     note=_say_note, read_labels=_read_labels,
                     check_rows=lambda D, p: checked_distances(D, p, square=False, instead=(
                         f"{name} was trained on distances: DATA holds the distances "
                         "d(x, x_train) of each object to its training objects.")))
    if data.y is not None and data.kind not in ("series", "strings"):
        _warn_unknown_labels(model, data.y, args.labels or path)
    return data.X, data.y


def _warn_unknown_labels(model, y, path) -> None:
    """Labels that no prediction can equal (not a class of the model; not +1 / -1 for a
    one-class SVM) are said: they count as errors, and an accuracy of 0 % is more often
    labels coded otherwise (0 / 1 against -1 / 1) than a bad model."""
    from sklearn.base import is_outlier_detector, is_regressor

    if is_regressor(model):
        return
    classes = ([-1, 1] if is_outlier_detector(model) else
               np.asarray(getattr(model, "classes_", [])).tolist())
    if not classes:
        return
    labels, counts = np.unique(np.asarray(y), return_counts=True)
    unknown = [(v, c) for v, c in zip(labels.tolist(), counts.tolist(), strict=True)
               if v not in classes]
    if unknown:
        def show(v):
            return f"{v:g}" if isinstance(v, float) else repr(v)

        shown = ", ".join(f"{show(v)} ({c}x)" for v, c in unknown[:3]) + (
            ", ..." if len(unknown) > 3 else "")
        what = ("a one-class SVM predicts +1 (inlier) and -1 (outlier)"
                if is_outlier_detector(model) else
                f"the model's classes are {', '.join(map(show, classes))}")
        _say_warning(f"{path}: labels {shown} are not what the model predicts ({what}): "
                     "they count as errors in the accuracy; recode them if they name the "
                     "same classes.")

def add_arguments(predict) -> None:
    """The ``predict`` command's options."""
    option(predict, "model", type=path_name)
    option(predict, "data", type=path_name,
           help="the data in the form the model was trained on: a LIBSVM, CSV, "
                "TSV or ARFF features file (a CSV's label column, if any, gives the "
                "accuracy); series or strings, one per line, for a model of "
                "'fit --metric'; kernel rows k(x, x_train) (.npy, .npz, text, "
                "or svm-predict's 'label 0:? 1:k(x, x_1) ...' lines) for a "
                "precomputed-kernel model; distances to the training "
                "objects for a model of 'fit --distances'")
    option(predict, "labels", type=path_name,
           help="true labels of DATA (kernel rows), to print the accuracy")
    option(predict, "distances", action="store_true",
           help="DATA holds distances to the training objects (a model of "
                "'fit --distances'; such a model reads them without the flag)")
    option(predict, "zero-based", help="the LIBSVM file's indices start at 0")
    option(predict, "label-column",
           help="CSV / TSV data: the column of true labels (name or index), to "
                "print the accuracy")
    option(predict, "decision-values")
    option(predict, "probability")
    option(predict, "out", metavar="FILE", type=path_name,
           help="write the predictions there (one per line) instead of stdout "
                "('-': stdout)")
    _add_device(predict, "a landmark model computes its features and decision values")
    _common(predict)


def _check_columns_apply(args, model) -> None:
    """--probability / --decision-values refused before the data are read where the model
    has no such columns: a regression's decision values are its predictions, an SVM has no
    probabilities (and a one-class SVM's decision values are what it has)."""
    from sklearn.base import is_outlier_detector, is_regressor

    refuse(args, _COLUMNS, regression=is_regressor(model), outliers=is_outlier_detector(model),
           proba=hasattr(model, "predict_proba"),
           flag="--probability" if args.probability else "--decision-values")


#: the columns a model has (``regression``, ``outliers``: its kind; ``proba``: it has
#: predict_proba; ``flag``: the column option given)
_COLUMNS = (
    Refusal(lambda s: s.probability and s.decision_values,
            "--probability and --decision-values are two layouts of the same columns: give "
            "one of them."),
    Refusal(lambda s: s.regression and (s.probability or s.decision_values),
            lambda s: f"{s.flag} is for classifiers"
                      + (" and outlier detectors" if s.decision_values else "")
                      + f"; {s.model} is a regression: the numbers it predicts are all it has "
                      f"(its decision values). Drop {s.flag}."),
    Refusal(lambda s: s.probability and not s.proba and s.outliers,
            "{model} is an outlier detector (a one-class SVM): it has no probabilities. Drop "
            "--probability: --decision-values prints its decision values (> 0 inside the "
            "learnt region)."),
    Refusal(lambda s: s.probability and not s.proba,
            "{model} has no probabilities: an SVM's decision values are not probabilities "
            "(scikit-learn deprecated SVC(probability=True) too). Drop --probability: "
            "--decision-values prints them; for calibrated probabilities fit sklearn.calibration."
            "CalibratedClassifierCV(indefsvm.IndefiniteSVC(...)) in Python."),
)


def _with_decision_values(model, X, labels) -> str:
    """Prediction lines followed by the decision values, under a ``labels`` header that
    names their columns (LIBSVM's svm-predict -b 1 layout). A one-class SVM has one column
    under ``labels 1``: > 0 means inside (+1), as for the second of two classes."""
    dec = np.asarray(model.decision_function(X), dtype=float)
    return _with_columns(model, dec.reshape(len(labels), -1), labels)


def _with_columns(model, values, labels) -> str:
    """``labels`` header, then each prediction and its row of ``values``: one column per
    class, or one for two classes (the second class's, scikit-learn's convention)."""
    # an outlier detector's classes are its two answers, -1 outside and +1 inside
    classes = getattr(model, "classes_", np.array([-1, 1]))
    names = [f"{c:g}" if isinstance(c, (float, np.floating)) else f"{c}"
             for c in np.asarray(classes).tolist()]
    header = "labels " + (names[1] if values.shape[1] == 1 else " ".join(names))
    rows = [" ".join([lab] + [f"{v:.10g}" for v in row]) for lab, row in zip(labels, values,
                                                                             strict=True)]
    return header + "\n" + "".join(r + "\n" for r in rows)

