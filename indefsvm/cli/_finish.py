"""How every fit of the command line ends, one routine for its four paths (the SMO on a
kernel, ``--remedy``, ``--nystroem``, ``--metric``): the fit timed with its warnings caught,
the model saved as soon as it exists, the summary's shared keys, the result printed, then the
cross-validation -- a Ctrl-C there keeps both -- and its line, then the warnings (JSON: one
document at the end)."""

from __future__ import annotations

import contextlib
import json
import sys
import time
import warnings

import numpy as np

from .._files import atomic_write
from . import _models
from ._summary import FitSummary

__all__ = ["finish", "fit_saved", "save", "summary_of"]


def save(args, model) -> None:
    """--save: the model file, written as soon as the model exists (before any CV)."""
    if args.save:
        import skops.io as sio

        names = args.feature_names
        if names is not None:
            # the CSV header's column names, which predict reads its file by (a DataFrame's
            # feature_names_in_ would make the library warn of every array without names)
            model.feature_columns_ = tuple(names)
        atomic_write(args.save, lambda tmp: sio.dump(model, tmp))


def fit_saved(args, model, X, y, *, bar=None, loud=None, always=None, keep=None):
    """Fit ``model`` on ``X, y`` the way every fit path does: timed, its warnings caught for
    the summary (``always``: the categories shown every time, default ConvergenceWarning;
    ``keep``: the categories the summary keeps, default all it caught), ``bar`` (a progress
    bar of log records, ``_LogBar``) around it -- ``loud``, the estimator whose records drive
    it, logs while the bar shows (its ``verbose`` is given back before the model is saved)
    -- and the model saved at once. Returns ``(seconds, warning messages)``."""
    from ..exceptions import ConvergenceWarning

    was = None
    if loud is not None and bar is not None and bar.active:
        was = loud.verbose
        loud.set_params(verbose=True)  # its records drive the bar; shown only with --verbose
    t0 = time.perf_counter()
    try:
        with bar if bar is not None else contextlib.nullcontext(), \
                warnings.catch_warnings(record=True) as caught:
            if always is None:
                warnings.simplefilter("always", ConvergenceWarning)
            else:
                warnings.simplefilter("always", always)
            model.fit(X, y)
    finally:
        if was is not None:
            loud.set_params(verbose=was)
    seconds = time.perf_counter() - t0
    save(args, model)
    return seconds, [str(w.message) for w in caught
                     if keep is None or issubclass(w.category, keep)]


def _label(value) -> str:
    """A class label as the user wrote it (2, not 2.0)."""
    if isinstance(value, (float, np.floating)) and float(value).is_integer():
        return str(int(value))
    return str(value)


def class_weight_of(args):
    """--class-weight as the summary says it: None, "balanced", or {label: weight}."""
    weights = args.class_weight
    if isinstance(weights, dict):
        return {_label(k): float(v) for k, v in weights.items()}
    return weights


def summary_of(args, fields: dict, rows: list, *, seconds: float, scores: dict,
               messages: list) -> FitSummary:
    """The summary of a fit: its path's own ``fields`` and text ``rows``, then the keys
    every path has -- ``scores``, the training scores of ``_family.training_scores`` (a
    classifier's ``training_accuracy``, a regression's ``training_mse`` and ``training_r2``,
    ...), and the cross-validation's mean and spread of the same score (``cv_accuracy_*`` or
    ``cv_r2_*``), filled in by :func:`finish`."""
    cv = "cv_r2" if "training_r2" in scores else "cv_accuracy"
    return FitSummary({**fields, "class_weight": class_weight_of(args),
                       "fit_seconds": seconds, **scores,
                       "cv_folds": args.cv, f"{cv}_mean": None, f"{cv}_std": None,
                       "model_file": args.save, "warnings": list(messages)}, rows)


def _below_chance(args, y, summary: dict) -> str | None:
    """The note of a classifier less accurate on its training data than always predicting
    the largest class: it learned the classes backwards -- what an SVM on an indefinite
    kernel unsuitable for them does (Haasdonk 2005, §7.3: c'Kc <= 0) -- with the command
    that says whether the kernel is, and what to do."""
    acc = summary.get("training_accuracy")
    if acc is None or y is None or summary.get("class_weight") is not None:
        # (weighted classes may well trade the largest class's accuracy for the others')
        return None
    _, counts = np.unique(y, return_counts=True)
    largest = float(counts.max() / counts.sum())
    if not acc < largest - 1e-12:
        return None
    if args.metric is not None:
        from ._args import metric_words

        command = " ".join(["indefsvm check", args.file, "--metric", args.metric,
                            *metric_words(args)])
    else:
        from ._args import data_args

        gamma = (summary.get("kernel_params") or {}).get("gamma")
        command = f"indefsvm check {data_args(args, gamma=gamma)}"
    return (f"the training accuracy, {100 * acc:.2f} %, is below the {100 * largest:.2f} % of "
            "always predicting the largest class: the model learned the classes backwards, "
            "as an SVM does on an indefinite kernel unsuitable for them (Haasdonk 2005, "
            f"§7.3). '{command}' says whether it is, and what to do.")


def finish(args, X, y, precomputed, seconds, summary: FitSummary) -> int:
    """After a fit (its model saved already): the result printed as soon as it exists, then
    the cross-validation and its line, then the warnings."""
    below = _below_chance(args, y, summary.fields)
    if below is not None:
        summary.add_note(below)
    if not args.json:
        print("\n".join(summary.head_lines()))
        sys.stdout.flush()
    summary.fields["search"] = args.search_result
    if args.cv > 1:
        scores = _models._cross_validate(args, X, y, precomputed, seconds,
                                         said=summary.fields["warnings"])
        summary.set_cv(scores, min(len(y), _models.CV_MAX))
    if args.json:
        print(json.dumps(summary.to_dict(), indent=2))
    else:
        for line in summary.tail_lines():
            print(line)
    return 0
