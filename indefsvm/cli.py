"""The ``indefsvm`` command line (also ``python -m indefsvm``).

``indefsvm fit`` trains :class:`indefsvm.IndefiniteSVC` on a bundled data set or a LIBSVM file
and prints what a LIBSVM user wants to see: iterations, objective, KKT gap, support vectors,
training and cross-validation accuracy. ``indefsvm check`` says whether a kernel is usable in
an SVM before training (:func:`indefsvm.check_kernel`). ``indefsvm report`` does both and adds
the sanity report of the trained model (:func:`indefsvm.sanity_report`), printed and written as
one self-contained HTML page.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
import warnings

import numpy as np

from .datasets import DATASETS, load_libsvm
from .estimator import IndefiniteSVC
from .exceptions import ConvergenceWarning
from .kernels import KERNELS, resolve_kernel_params


def _number_or_keyword(text: str):
    if text in ("scale", "auto"):
        return text
    try:
        return float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(
            f"expected a number, 'scale' or 'auto'; got {text!r}"
        ) from None


def _add_data_args(p: argparse.ArgumentParser) -> None:
    src = p.add_mutually_exclusive_group(required=True)
    src.add_argument("file", nargs="?", help="LIBSVM-format data file")
    src.add_argument("--dataset", choices=sorted(DATASETS), help="a bundled data set")
    p.add_argument("--n-features", type=int, default=None,
                   help="number of features of a LIBSVM file (if its last ones are unused)")


def _add_model_args(p: argparse.ArgumentParser) -> None:
    p.add_argument("--kernel", default="rbf", choices=sorted(KERNELS) + ["poly"],
                   help="kernel name (default: rbf)")
    p.add_argument("--gamma", type=_number_or_keyword, default="scale",
                   help="kernel coefficient, the sigmoid's a (number, 'scale' or 'auto')")
    p.add_argument("--coef0", type=float, default=0.0, help="the sigmoid's r, poly's coef0")
    p.add_argument("--degree", type=int, default=3, help="polynomial degree")
    p.add_argument("--p", type=int, default=None, dest="pe_p",
                   help="positive dimensions of the pseudo_euclidean kernel")
    p.add_argument("-C", "--C", type=float, default=1.0, dest="C", help="box bound C")
    p.add_argument("--tol", type=float, default=1e-3, help="KKT gap tolerance")
    p.add_argument("--max-iter", type=int, default=None, help="iteration cap")
    p.add_argument("--cache-size", type=float, default=200.0, help="kernel cache in MB")
    p.add_argument("--wss", default="second_order", choices=["second_order", "first_order"])
    p.add_argument("--init", default="zero", choices=["zero", "class_balanced"])
    p.add_argument("--no-shrinking", action="store_true", help="disable shrinking")
    p.add_argument("--restarts", type=int, default=0, help="random restarts (seed 000, Fig. 5)")
    p.add_argument("--seed", type=int, default=0, help="random seed")


def _load(args):
    if args.dataset:
        return DATASETS[args.dataset](return_X_y=True)
    return load_libsvm(args.file, n_features=args.n_features)


def _estimator(args) -> IndefiniteSVC:
    kernel_params = {"p": args.pe_p} if args.kernel == "pseudo_euclidean" else None
    if args.kernel == "pseudo_euclidean" and args.pe_p is None:
        raise SystemExit("indefsvm: --p is required with --kernel pseudo_euclidean")
    return IndefiniteSVC(
        kernel=args.kernel, C=args.C, gamma=args.gamma, coef0=args.coef0, degree=args.degree,
        tol=args.tol, max_iter=args.max_iter, cache_size=args.cache_size, wss=args.wss,
        init=args.init, shrinking=not args.no_shrinking, n_restarts=args.restarts,
        random_state=args.seed, kernel_params=kernel_params,
    )


def _cmd_fit(args) -> int:
    from sklearn.model_selection import StratifiedKFold, cross_val_score

    X, y = _load(args)
    clf = _estimator(args)
    t0 = time.perf_counter()
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always", ConvergenceWarning)
        clf.fit(X, y)
    seconds = time.perf_counter() - t0
    train_acc = clf.score(X, y)
    cv_acc = None
    if args.cv > 1:
        folds = StratifiedKFold(n_splits=args.cv, shuffle=True, random_state=args.seed)
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", ConvergenceWarning)
            cv_acc = cross_val_score(_estimator(args), X, y, cv=folds)
    rows = []
    for k, res in enumerate(clf.solver_results_):
        rows.append({
            "pair": [str(clf.classes_[p]) for p in clf._pairs[k][:2]],
            "status": res.status,
            "iterations": res.n_iter,
            "objective": res.objective,
            "kkt_gap": res.kkt_gap,
            "n_sv": res.n_sv,
            "n_bounded_sv": res.n_bounded,
            "concave_steps": res.n_concave_steps,
            "b": res.b,
        })
    summary = {
        "data": args.dataset or args.file,
        "n_samples": int(X.shape[0]),
        "n_features": int(X.shape[1]),
        "kernel": args.kernel,
        "kernel_params": {k: (float(v) if isinstance(v, (int, float, np.floating)) else v)
                          for k, v in clf._kernel_params_fitted.items()},
        "C": args.C,
        "tol": args.tol,
        "fit_seconds": seconds,
        "problems": rows,
        "training_accuracy": float(train_acc),
        "cv_folds": args.cv,
        "cv_accuracy_mean": None if cv_acc is None else float(np.mean(cv_acc)),
        "cv_accuracy_std": None if cv_acc is None else float(np.std(cv_acc)),
        "warnings": [str(w.message) for w in caught],
    }
    if args.json:
        print(json.dumps(summary, indent=2))
        return 0
    params = ", ".join(f"{k}={v:.6g}" if isinstance(v, float) else f"{k}={v}"
                       for k, v in summary["kernel_params"].items())
    print(f"data        {summary['data']}: {X.shape[0]} samples, {X.shape[1]} features, "
          f"{len(clf.classes_)} classes")
    print(f"model       IndefiniteSVC(kernel={args.kernel}{', ' + params if params else ''}, "
          f"C={args.C:g}, tol={args.tol:g})")
    for row in rows:
        print(f"pair        {row['pair'][0]} vs {row['pair'][1]}: {row['status']}")
        print(f"  iterations        {row['iterations']}")
        print(f"  objective F(a)    {row['objective']:.10g}")
        print(f"  KKT gap m - M     {row['kkt_gap']:.3g}")
        print(f"  #SV / #bounded SV {row['n_sv']} / {row['n_bounded_sv']}")
        print(f"  concave steps     {row['concave_steps']} (sub-problems with a_ij <= 0)")
        print(f"  bias b            {row['b']:.6g}")
    print(f"fit time    {seconds:.3f} s")
    print(f"training accuracy  {100 * train_acc:.2f} %")
    if cv_acc is not None:
        print(f"{args.cv}-fold CV accuracy {100 * np.mean(cv_acc):.2f} % "
              f"(+/- {100 * np.std(cv_acc):.2f})")
    for msg in summary["warnings"]:
        print(f"warning: {msg}")
    return 0


def _kernel_params(args, X) -> dict:
    if args.kernel == "pseudo_euclidean" and args.pe_p is None:
        raise SystemExit("indefsvm: --p is required with --kernel pseudo_euclidean")
    extra = {"p": args.pe_p} if args.kernel == "pseudo_euclidean" else None
    return resolve_kernel_params(args.kernel, X, gamma=args.gamma, coef0=args.coef0,
                                 degree=args.degree, kernel_params=extra)


def _cmd_check(args) -> int:
    from .diagnostics import check_kernel

    if args.file and args.file.endswith(".npy"):
        K = np.load(args.file, allow_pickle=False)
        y = None
        if args.labels:
            y = (np.load(args.labels, allow_pickle=False) if args.labels.endswith(".npy")
                 else np.loadtxt(args.labels, ndmin=1))
        rep = check_kernel(K, y, rtol=args.rtol, method=args.method)
    else:
        if args.labels:
            raise SystemExit("indefsvm: --labels goes with a precomputed kernel FILE.npy")
        X, y = _load(args)
        params = _kernel_params(args, X)
        n_classes = np.unique(y).shape[0]
        if n_classes != 2:
            # the label-dependent checks (class means, Thm 5 pairs) are defined for two classes
            print(f"indefsvm: {n_classes} classes in the labels: the class-mean distance and "
                  "the opposite-label eta count are left out (check pairs of classes "
                  "separately).", file=sys.stderr)
            y = None
        rep = check_kernel(X=X, y=y, kernel=args.kernel, rtol=args.rtol, method=args.method,
                           **params)
    print(json.dumps(rep.to_dict(), indent=2) if args.json else rep)
    return 0


def _cmd_report(args) -> int:
    import os

    from ._htmlreport import write_html
    from .diagnostics import check_kernel, sanity_report

    X, y = _load(args)
    clf = _estimator(args)
    classes = np.unique(y)
    if classes.shape[0] == 2:
        kernel_report = check_kernel(X=X, y=y, kernel=args.kernel, **_kernel_params(args, X))
    else:
        kernel_report = check_kernel(X=X, kernel=args.kernel, **_kernel_params(args, X))
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always", ConvergenceWarning)
        clf.fit(X, y)
    sanity = sanity_report(clf, X, y)
    print(kernel_report)
    print()
    print(sanity)
    for w in caught:
        print(f"warning: {w.message}")
    os.makedirs(args.out, exist_ok=True)
    name = os.path.basename(args.dataset or args.file)
    path = os.path.join(args.out, f"indefsvm-report-{name}-{args.kernel}.html")
    desc = (f"data {args.dataset or args.file}: {X.shape[0]} samples, {X.shape[1]} features; "
            f"IndefiniteSVC(kernel={args.kernel}, C={args.C:g}, "
            + ", ".join(f"{k}={v}" for k, v in clf._kernel_params_fitted.items()) + ")")
    write_html(path, title=f"indefsvm report: {name}, {args.kernel} kernel",
               kernel_report=kernel_report, model=clf, sanity=sanity, data_desc=desc)
    print(f"\nHTML report written to {path}")
    return 0


def build_parser() -> argparse.ArgumentParser:
    """The argument parser of the ``indefsvm`` command."""
    parser = argparse.ArgumentParser(
        prog="indefsvm",
        description="SVMs with indefinite kernels: train and diagnose.",
    )
    sub = parser.add_subparsers(dest="command", required=True)
    fit = sub.add_parser("fit", help="train an SVM and report the solution and accuracy")
    _add_data_args(fit)
    _add_model_args(fit)
    fit.add_argument("--cv", type=int, default=5, help="cross-validation folds (0: none)")
    fit.add_argument("--json", action="store_true", help="print JSON instead of text")
    fit.set_defaults(func=_cmd_fit)

    check = sub.add_parser(
        "check", help="is this kernel usable in an SVM? (PSD/CPD tests, signature, eta scan)")
    _add_data_args(check)
    check.add_argument("--kernel", default="rbf", choices=sorted(KERNELS) + ["poly"],
                       help="kernel name (default: rbf); ignored for a FILE.npy kernel")
    check.add_argument("--gamma", type=_number_or_keyword, default="scale",
                       help="kernel coefficient, the sigmoid's a (number, 'scale' or 'auto')")
    check.add_argument("--coef0", type=float, default=0.0, help="the sigmoid's r")
    check.add_argument("--degree", type=int, default=3, help="polynomial degree")
    check.add_argument("--p", type=int, default=None, dest="pe_p",
                       help="positive dimensions of the pseudo_euclidean kernel")
    check.add_argument("--labels", help="labels of a precomputed kernel FILE.npy "
                       "(.npy or text, one per line)")
    check.add_argument("--rtol", type=float, default=None,
                       help="relative zero threshold of eigenvalues (default n * eps)")
    check.add_argument("--method", default="auto", choices=["auto", "dense", "ldl"])
    check.add_argument("--json", action="store_true", help="print JSON instead of text")
    check.set_defaults(func=_cmd_check)

    report = sub.add_parser(
        "report", help="check the kernel, fit, and write a sanity report (text and HTML)")
    _add_data_args(report)
    _add_model_args(report)
    report.add_argument("--out", default=".", help="folder for the HTML file (default: .)")
    report.set_defaults(func=_cmd_report)
    return parser


def main(argv: list[str] | None = None) -> int:
    """Run the command line.

    Parameters
    ----------
    argv : list of str, optional
        Arguments (default: ``sys.argv[1:]``).

    Returns
    -------
    int
        Exit status.
    """
    parser = build_parser()
    args = parser.parse_args(argv)
    try:
        return args.func(args)
    except (ValueError, FileNotFoundError) as exc:
        print(f"indefsvm: error: {exc}", file=sys.stderr)
        return 2


if __name__ == "__main__":  # pragma: no cover
    raise SystemExit(main())
