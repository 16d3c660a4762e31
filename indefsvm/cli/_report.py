"""``indefsvm report``: check, fit and sanity report, printed and as one HTML page."""

from __future__ import annotations

import os
import warnings

import numpy as np

from ._args import (
    DISTANCE_KINDS,
    _add_data_args,
    _add_model_args,
    _common,
    _kernel_params,
    _positive_int,
)
from ._errors import EXIT_USAGE, CLIError
from ._io import _atomic_write, _check_class_weight, _check_classes, _check_output_folder, _load
from ._models import _cross_validate, _estimator, _fitted_params, _svc
from ._size import refuse_too_big


def run(args) -> int:
    from ..diagnostics import check_kernel, sanity_report
    from ..exceptions import ConvergenceWarning
    from ._html import write_html

    # as --save: the folder itself may be new, its parent must exist (no tree is made)
    _check_output_folder(args.out, "--out")
    if args.cv == 1:
        raise CLIError("--cv 1 is not cross-validation: give 2 or more folds, or 0 for none.",
                       EXIT_USAGE)
    X, y, desc, precomputed = _load(args)
    _check_classes(y, args.cv)
    _check_class_weight(args, y)
    # the kernel check (dense up to 5 000 samples), then the sanity report: the training
    # kernel and its blocks of each pair
    refuse_too_big(args, X.shape[0], command="indefsvm report", matrices=3,
                   what=f"the {X.shape[0]} x {X.shape[0]} kernel of the sanity report and its "
                   "copies")
    data = X
    model = _estimator(args, precomputed)
    clf = _svc(model)
    y2 = y  # check_kernel reads every pair of classes of multi-class labels
    distance_report = None
    if args.distances:
        from ..diagnostics import check_distances

        distance_report = check_distances(X, y, n_jobs=args.n_jobs)
        # the kernel the SVM is trained on, and the SVM on it
        X = model[0].fit_transform(X)
        kernel_report = check_kernel(X, y2, n_jobs=args.n_jobs)
    elif precomputed:
        kernel_report = check_kernel(X, y2, n_jobs=args.n_jobs)
    else:
        kernel_report = check_kernel(X=X, y=y2, kernel=args.kernel, n_jobs=args.n_jobs,
                                     **_kernel_params(args, X))
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always", ConvergenceWarning)
        clf.fit(X, y)
    sanity = sanity_report(clf, X, y)
    train_acc = clf.score(X, y)
    cv_acc = _cross_validate(args, data, y, precomputed) if args.cv > 1 else None
    accuracy = f"training accuracy {100 * train_acc:.2f} %" + (
        "" if cv_acc is None else f", {args.cv}-fold CV accuracy {100 * np.mean(cv_acc):.2f} "
        f"% (+/- {100 * np.std(cv_acc):.2f})")
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
    os.makedirs(args.out, exist_ok=True)  # the folder only: its parent exists
    name = os.path.basename(desc)
    kernel = (f"distances-{DISTANCE_KINDS[args.kernel]}" if args.distances
              else "precomputed" if precomputed else args.kernel)
    path = os.path.join(args.out, f"indefsvm-report-{name}-{kernel}.html")
    shape = (f"{X.shape[0]} x {X.shape[0]} kernel matrix" if precomputed
             else f"{X.shape[0]} samples, {X.shape[1]} features")
    text = (f"data {desc}: {shape}; IndefiniteSVC(kernel={kernel}, C={args.C:g}"
            + "".join(f", {k}={v}" for k, v in _fitted_params(model).items()) + "); "
            + accuracy)
    _atomic_write(path, lambda tmp: write_html(
        tmp, title=f"indefsvm report: {name}, {kernel} kernel", kernel_report=kernel_report,
        model=clf, sanity=sanity, data_desc=text, distance_report=distance_report))
    print(f"\nHTML report written to {path}")
    return 0


def add_parser(sub) -> None:
    """The ``report`` sub-command and its options."""
    report = sub.add_parser(
        "report", help="check the kernel, fit, and write a sanity report (text and HTML)")
    _add_data_args(report, labels_help="labels of a precomputed kernel FILE (.npy or text)")
    _add_model_args(report)
    report.add_argument("--out", default=".", help="folder for the HTML file (default: .)")
    report.add_argument("--cv", type=_positive_int, default=5,
                        help="cross-validation folds of the accuracy (default 5; 0: none)")
    _common(report)
    report.set_defaults(func=run)
