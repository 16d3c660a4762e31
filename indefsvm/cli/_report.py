"""``indefsvm report``: check, fit and sanity report, printed and as one HTML page."""

from __future__ import annotations

import os
import warnings

import numpy as np

from .._files import atomic_write, page_path
from . import _family
from ._args import (
    DISTANCE_KINDS,
    REMEDIES,
    _add_data_args,
    _add_model_args,
    _common,
    _kernel_params,
    path_name,
)
from ._errors import EXIT_USAGE, CLIError
from ._io import _load, check_targets, scaled
from ._models import _cross_validate, _estimator, _fitted_params, _svc
from ._options import given as given_options
from ._options import option, smo_options
from ._size import refuse_too_big


def run(args) -> int:
    from .._pages import write_html
    from ..diagnostics import check_kernel, sanity_report
    from ..exceptions import ConvergenceWarning

    if args.data is not None:
        return _run_model(args)
    from ._io import is_model_file

    if args.file and is_model_file(args.file):
        # report MODEL without its DATA: said as report's own form, not as "give it to
        # report MODEL DATA", which is what the user began
        raise CLIError(f"{args.file} is a model file: its report reads it on its labelled "
                       f"training data: 'indefsvm report {args.file} DATA' (the file it was "
                       "fitted on).", EXIT_USAGE)
    args.C_given = args.C is not None
    args.C = 1.0 if args.C is None else args.C
    _family.check(args)  # --svm-type and what goes with it (the default --cv too)
    X, y, desc, precomputed = _load(args, need_labels=args.svm_type != "one-class")
    classes = _family.classifies(args)
    check_targets(args, y, X.shape[0])
    # the kernel check (dense up to 5 000 samples), then the sanity report: the training
    # kernel and its blocks of each pair
    refuse_too_big(args, X.shape[0], command="indefsvm report", matrices=3,
                   what=f"the {X.shape[0]} x {X.shape[0]} kernel of the sanity report and its "
                   "copies")
    data = X
    model = _estimator(args, precomputed)
    # check_kernel reads every pair of classes of multi-class labels (a regression's targets
    # and a one-class SVM's data have none)
    y2 = y if classes else None
    distance_report = None
    if args.distances:
        from sklearn.base import clone

        from ..diagnostics import check_distances

        distance_report = check_distances(X, y2, n_jobs=args.n_jobs,
                                          verbose=args.verbose)
        # the kernel the SVM (or the remedy) is given: the distance kernel of the pipeline
        X = clone(model[0]).fit_transform(X)
        kernel_report = check_kernel(X, y2, n_jobs=args.n_jobs, verbose=args.verbose)
    elif precomputed:
        kernel_report = check_kernel(X, y2, n_jobs=args.n_jobs, verbose=args.verbose)
    else:
        Xs = scaled(args, X)  # --scale: the features the model's kernel sees
        kernel_report = check_kernel(X=Xs, y=y2, kernel=args.kernel, n_jobs=args.n_jobs,
                                     verbose=args.verbose, **_kernel_params(args, Xs))
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always", ConvergenceWarning)
        model.fit(data, y)
    # the whole model: a remedy's pipeline (or the Krein SVM) is reported on the kernel it
    # trained its SVM on
    sanity = sanity_report(model, data, y)
    # a classifier's accuracy, a regression's error and R^2, a one-class SVM's outliers
    scores = [" ".join(line.split())
              for line in _family.score_lines(_family.training_scores(model, data, y))]
    cv_acc = _cross_validate(args, data, y, precomputed) if args.cv > 1 else None
    if cv_acc is not None:
        scores.append(f"{args.cv}-fold CV " + (
            f"R^2 {np.mean(cv_acc):.4f} (+/- {np.std(cv_acc):.4f})"
            if _family.regression(args) else
            f"accuracy {100 * np.mean(cv_acc):.2f} % (+/- {100 * np.std(cv_acc):.2f})"))
    accuracy = ", ".join(scores)
    kernel = (f"distances-{DISTANCE_KINDS[args.kernel]}" if args.distances
              else "precomputed" if precomputed else args.kernel)
    if args.remedy is None:
        described = (("MinMaxScaler(-1, 1) + " if args.scale else "")
                     + f"{type(_svc(model)).__name__}(kernel={kernel}, "
                     + _family.described(args)
                     + "".join(f", {k}={v}" for k, v in _fitted_params(model).items()) + ")")
    else:
        described = f"{_steps(model)} (--remedy {args.remedy}, {kernel} kernel, C={args.C:g})"
        print(f"model: {described}\n")
    if distance_report is not None:
        print(distance_report)
        print()
    print(kernel_report)
    print()
    print(sanity)
    print()
    print(accuracy)
    for w in caught:
        print(f"warning: {w.message}")
    name = os.path.basename(desc)
    path = page_path(args.out, f"indefsvm-report-{name}-{kernel}"
                     + ("" if args.remedy is None else f"-{args.remedy}") + ".html")
    shape = (f"{X.shape[0]} x {X.shape[0]} kernel matrix" if precomputed
             else f"{X.shape[0]} samples, {X.shape[1]} features")
    text = f"data {desc}: {shape}; {described}; {accuracy}"
    atomic_write(path, lambda tmp: write_html(
        tmp, title=f"indefsvm report: {name}, {kernel} kernel", kernel_report=kernel_report,
        model=_solver(model), sanity=sanity, data_desc=text, distance_report=distance_report))
    print(f"\nHTML report written to {path}")
    return 0


def _steps(model) -> str:
    """The model's classes, a pipeline's joined by +."""
    if hasattr(model, "steps"):
        return " + ".join(type(step).__name__ for _, step in model.steps)
    return type(model).__name__


def _solver(model):
    """The SVM whose SMO runs the HTML page draws: a pipeline's last step, the Krein SVM's
    inner SVM."""
    svm = _svc(model)
    return getattr(svm, "svc_", svm)


def _fit_options() -> tuple[str, ...]:
    """report MODEL DATA: the options of a fit, which a saved model already holds (given:
    not at their rows' defaults; --seed's default is this command's, 0, not a row's)."""
    return ("C", "class-weight", "svm-type", "nu", "epsilon", "scale", "tol", "max-iter",
            *smo_options(), "remedy", "cv", "dataset", "n-features")


def _run_model(args) -> int:
    """report MODEL DATA: the sanity report of a saved model on its labelled training data
    (the dual it holds is checked against the kernel recomputed from DATA); nothing is
    refitted."""
    from .._pages import write_html
    from ..diagnostics import sanity_report
    from ._modelfile import _load_model, placed
    from ._predict import read_data_for

    given = given_options(args, *_fit_options()) + (["--seed"] if args.seed != 0 else [])
    given += args.explicit
    if given:
        raise CLIError(f"{given[0]} does not apply to report MODEL DATA: the model file holds "
                       "its kernel and parameters, and nothing is refitted; drop "
                       f"{given[0]} (or give FILE alone to fit and report anew).", EXIT_USAGE)
    # the report's figures are computed on the CPU (a model fitted on a GPU included)
    model = placed(_load_model(args.file), "cpu", args.file)
    X, y = read_data_for(args, model, args.data)
    if y is None:
        raise CLIError(f"{args.data}: report MODEL DATA needs the labels of the training data "
                       "(a LIBSVM file, a CSV label column, --labels FILE, or series and "
                       "strings with their label).", EXIT_USAGE)
    try:
        sanity = sanity_report(model, X, y)
    except ValueError as exc:
        raise CLIError(f"{args.data}: {exc} The sanity report checks the model's dual "
                       "variables, one per training sample: give the data it was fitted on, "
                       "with their labels.") from None
    # a classifier's accuracy, a regression's error and R^2, a one-class SVM's outliers
    scores = "; ".join(" ".join(line.split())
                       for line in _family.score_lines(_family.training_scores(model, X, y)))
    kernel_report = _saved_kernel_report(args, model, X, y)
    steps = _steps(model)
    print(f"model       {args.file}: {steps}")
    print(f"data        {args.data}: {len(y)} samples, the model's training data")
    print()
    if kernel_report is not None:
        print(kernel_report)
        print()
    print(sanity)
    print()
    print(scores)
    stem = os.path.splitext(os.path.basename(args.file))[0]
    path = page_path(args.out, f"indefsvm-report-{stem}.html")
    text = (f"model {args.file} ({steps}) on its training data {args.data}: {len(y)} "
            f"samples; {scores}")
    atomic_write(path, lambda tmp: write_html(
        tmp, title=f"indefsvm report: {os.path.basename(args.file)}",
        kernel_report=kernel_report,
        model=_solver(model), sanity=sanity, data_desc=text))
    print(f"\nHTML report written to {path}")
    return 0


def _saved_kernel_report(args, model, X, y):
    """The kernel check of a saved model's kernel on its training data -- the kernel before
    any fix (a report page of report MODEL DATA left it out, where report FILE has it):
    --scale's scaler applied, then a distance or feature kernel, a precomputed kernel as
    given, or the SVM's own kernel recomputed. None for a landmark model (NystroemSVC: its
    kernel is never formed)."""
    from sklearn.preprocessing import MinMaxScaler

    from .._feature_kernel import FeatureKernel
    from ..diagnostics import check_kernel
    from ..distances import DistanceKernel
    from ..svm._dual import training_kernel

    steps = [step for _, step in model.steps] if hasattr(model, "steps") else [model]
    rows = X
    if type(steps[0]) is MinMaxScaler:
        rows, steps = steps[0].transform(rows), steps[1:]
    if type(steps[0]) in (DistanceKernel, FeatureKernel):
        K = steps[0].transform(rows)
    elif len(steps) == 1 and hasattr(steps[0], "shape_fit_") and hasattr(steps[0], "support_"):
        K = training_kernel(steps[0], rows)
    else:
        return None
    classes = hasattr(_svc(model), "classes_")
    return check_kernel(np.asarray(K, dtype=np.float64), y if classes else None,
                        n_jobs=args.n_jobs, verbose=args.verbose)


def add_arguments(report) -> None:
    """The ``report`` command's options."""
    _add_data_args(report, labels_help="labels of a precomputed kernel FILE (.npy or text)")
    option(report, "data", nargs="?",
           help="with a model file as FILE (report MODEL DATA): the model's labelled training "
                "data, in the form predict reads; the report checks the saved model's dual on "
                "them, without refitting")
    _add_model_args(report)
    report.set_defaults(C=None)  # 1 unless given: nu-SVC and one-class refuse -C
    _family.add_args(report)
    option(report, "remedy", choices=list(REMEDIES),
           help="fit on a fixed kernel and report that model (clip, flip, ... "
                "as fit --remedy: a kernel FILE, --distances or features)")
    option(report, "out", default=".", type=path_name,
           help="folder for the HTML file (default: .), or the file itself when "
                "it ends in .html")
    option(report, "cv", default=None,
           help="cross-validation folds of the accuracy (default 5; 0: none)")
    _common(report)
