"""``indefsvm fit``: train, print the solution, save the model, cross-validate."""

from __future__ import annotations

import sys

import numpy as np

from .._metrics import object_metrics
from . import _family
from ._args import (
    DISTANCE_KINDS,
    REMEDIES,
    _add_data_args,
    _add_device,
    _add_model_args,
    _common,
    add_metric_options,
    path_name,
)
from ._finish import finish, fit_saved, summary_of
from ._io import _load, check_targets, scale_advice
from ._models import _estimator, _fitted_params, _svc
from ._options import metric_options, option
from ._progress import _LogBar, _say
from ._rules import refuse_without
from ._size import refuse_too_big
from ._summary import numbers
from ._tune import describe, search_objects, tune


def run(args) -> int:
    # -C left out: chosen by the search below (the placeholder only checks the options)
    args.C_given = args.C is not None
    if args.C is None:
        args.C = 1.0
    _family.check(args)  # --svm-type and what goes with it (the default --cv too)
    if args.metric is not None:
        # --nystroem alone is checked with its estimator (_models)
        from ._models import refuse_smo_options

        refuse_smo_options(args, f"--metric {args.metric}")
    if args.metric is not None:
        from . import _objects

        return _objects.fit(args, _search_objects)
    refuse_without(args, "metric", *metric_options(), "features")
    # (the landmarks of features: checked with their estimator, _models)
    refuse_without(args, ("metric", "nystroem"), "landmarks")
    # the parameters are checked before the data are read (a usage error costs no time)
    _estimator(args, bool(args.file and (args.labels or args.file.endswith((".npy", ".npz")))))
    # a one-class SVM reads no labels (a file's, if any, are not used for training)
    X, y, desc, precomputed = _load(args, need_labels=args.svm_type != "one-class")
    if not precomputed and not args.scale and args.dataset is None:
        advice = scale_advice(X)
        if advice:
            _say(args, f"note: {advice}")
    check_targets(args, y, X.shape[0])
    if args.nystroem is not None:
        _check_landmarks(args, X.shape[0])  # said before the search and the fit
    elif args.remedy is not None:
        # said before the search and the fit: the kernel, and what the remedy's fit holds
        # beside it (its eigenvectors, the projector, the fixed kernel: the library's figure)
        from ..remedies._methods import fit_matrices
        from ._args import REMEDIES

        refuse_too_big(args, X.shape[0], command=f"indefsvm fit --remedy {args.remedy}",
                       matrices=1 + fit_matrices(REMEDIES[args.remedy]),
                       what="the kernel, its eigendecomposition, the fix's projector and the "
                       "fixed kernel")
    args.search_result = tune(args, X, y, precomputed)
    if args.search_result is not None and not args.json:
        print(describe(args.search_result))
        sys.stdout.flush()
    model = _estimator(args, precomputed)
    if args.nystroem is not None:
        return _fit_nystroem(args, model, X, y, desc)
    return _fit_smo(args, model, X, y, desc, precomputed)


def _fit_smo(args, model, X, y, desc, precomputed) -> int:
    """fit on a kernel, features or distances (the SMO), or --remedy R (the fix of the whole
    kernel, or the Krein SVM, then the SVM): the solution of each one-vs-one problem."""
    from ..exceptions import ConvergenceWarning

    clf = _svc(model)
    if args.remedy is None:
        n_classes = np.unique(y).shape[0]
        # the restarts drive a bar through the SVM's log records, as the landmark model's
        bar = (_LogBar(args, (args.restarts + 1) * n_classes * (n_classes - 1) // 2,
                       "starts", "IndefiniteSVC: start", "start") if args.restarts else None)
        seconds, messages = fit_saved(args, model, X, y, bar=bar, loud=clf)
    else:
        seconds, messages = fit_saved(args, model, X, y, always=Warning,
                                      keep=(ConvergenceWarning, UserWarning))
    scores = _family.training_scores(model, X, y)
    if args.remedy is None and model is clf:  # (a pipeline's SVM reads other rows than X)
        _say_counter_intuitive(args, clf, X)
    rows = _pair_rows(getattr(clf, "svc_", clf))  # the Krein SVM's SVM on the flipped kernel
    params = ({} if args.remedy is not None and precomputed and not args.distances
              else _fitted_params(model))
    summary = summary_of(args, {
        "data": desc, "n_samples": int(X.shape[0]),
        "n_features": None if precomputed else int(X.shape[1]),
        "kernel": (f"distances ({DISTANCE_KINDS[args.kernel]})" if args.distances
                   else "precomputed" if precomputed else args.kernel),
        "kernel_params": numbers({k: v for k, v in params.items() if k != "distances"}),
        **({} if args.remedy is None else {"remedy": args.remedy,
                                           "method": REMEDIES[args.remedy]}),
        "svm_type": args.svm_type, "model": type(clf).__name__,
        "scale": [-1, 1] if args.scale else None,
        **({"C": args.C} if _family.has_C(args) else {}),
        **({"nu": args.nu} if "nu" in clf.get_params() else {}),
        **({"epsilon": args.epsilon} if args.svm_type == "epsilon-svr" else {}),
        "tol": args.tol, "problems": rows,
    }, _svc_rows(args, X, y, desc, precomputed, model, params), seconds=seconds,
        scores=scores, messages=messages)
    return finish(args, X, y, precomputed, seconds, summary)


def _say_counter_intuitive(args, clf, X) -> None:
    """A two-class SVM whose w'Mw is <= 0 is said after the fit (it was trained without a
    word where check had said to keep C lower): with v = y * alpha on the support vectors,
    w'Mw has the sign of v'Kv = sum_j v_j (f(x_j) - b), the decision values of the support
    vectors -- no kernel matrix recomputed (Haasdonk 2005, §7.4)."""
    classes = getattr(clf, "classes_", None)
    if (classes is None or len(classes) != 2 or not hasattr(clf, "dual_coef_")
            or not hasattr(clf, "support_") or clf.support_.size == 0):
        return
    v = np.asarray(clf.dual_coef_.toarray() if hasattr(clf.dual_coef_, "toarray")
                   else clf.dual_coef_, dtype=np.float64)[0]
    rows = X[clf.support_]
    f = np.asarray(clf.decision_function(rows), dtype=np.float64) - float(clf.intercept_[0])
    vKv = float(v @ f)
    if vKv <= 0:
        print(f"indefsvm: warning: w'Mw <= 0 (v'Kv = {vKv:.4g} for v = y * alpha): a "
              "counter-intuitive solution, w and Mw on opposite sides of the decision line "
              "(Haasdonk 2005, §7.4). Lower -C ('indefsvm check' lists the C that keep w'Mw "
              "> 0) or give --remedy flip.", file=sys.stderr)


def _svc_rows(args, X, y, desc, precomputed, model, params) -> list:
    """The head of an SMO fit's result (plain or --remedy, any --svm-type): the data and the
    model."""
    params = _params_text(numbers({k: v for k, v in params.items() if k != "distances"}))
    shape = (f"{X.shape[0]} x {X.shape[0]} " + ("distance" if args.distances else "kernel")
             + " matrix" if precomputed else f"{X.shape[0]} samples, {X.shape[1]} features")
    svm = _svc(model)
    targets = (f", {len(svm.classes_)} classes" if hasattr(svm, "classes_") else
               f", targets {np.min(y):.4g} ... {np.max(y):.4g}" if _family.regression(args)
               else "")
    name = type(svm).__name__
    if args.remedy is not None:
        names = [type(step).__name__ for _, step in model.steps] if hasattr(model, "steps") \
            else [type(model).__name__]
        if args.distances:
            names[0] = f"DistanceKernel({params})"
        if "FeatureKernel" in names:  # the kernel of the features that the fix fixes
            names[names.index("FeatureKernel")] = (f"FeatureKernel(kernel={args.kernel}"
                                                   f"{', ' + params if params else ''})")
        if args.scale:
            names[0] = _SCALER.rstrip(" +")
        text = (f"{' + '.join(names)} (--remedy {args.remedy}, C={args.C:g}, "
                f"tol={args.tol:g})")
    elif args.distances:
        text = (f"DistanceKernel({params}) + {name}(kernel=precomputed, "
                f"{_family.described(args)}, tol={args.tol:g})")
    else:
        kernel = "precomputed" if precomputed else args.kernel
        text = (f"{_SCALER if args.scale else ''}{name}(kernel={kernel}"
                f"{', ' + params if params else ''}, {_family.described(args)}, "
                f"tol={args.tol:g})")
    return [("data", f"{desc}: {shape}{targets}"), ("model", text)]


def _params_text(params: dict) -> str:
    """Kernel parameters for the model line: ``gamma=0.01, coef0=-1``."""
    return ", ".join(f"{k}={v:.6g}" if isinstance(v, float) else f"{k}={v}"
                     for k, v in params.items())


#: the model line's name of --scale's first step
_SCALER = "MinMaxScaler(-1, 1) + "


def _pair_rows(clf) -> list[dict]:
    """The solution of each one-vs-one problem of a fitted IndefiniteSVC (of the one dual of
    a regression or one-class SVM: its "pair" None), for people and JSON."""
    from .._validation import plain_label

    pairs = getattr(clf, "pair_classes_", None)
    return [{"pair": None if pairs is None else [str(plain_label(c)) for c in pairs[k]],
             "status": res.status, "iterations": res.n_iter, "objective": res.objective,
             "kkt_gap": res.kkt_gap, "n_sv": res.n_sv, "n_bounded_sv": res.n_bounded,
             "concave_steps": res.n_concave_steps, "b": res.b}
            for k, res in enumerate(clf.solver_results_)]


def _search_objects(args, X, y):
    """fit --metric's search of C and gamma, its line printed as fit's search prints it."""
    result = search_objects(args, X, y)
    if result is not None and not args.json:
        print(describe(result))
        sys.stdout.flush()
    return result


def _check_landmarks(args, n: int) -> None:
    """--nystroem M against the samples, a CV fold's training part and a search fold's."""
    from ._models import check_landmark_count
    from ._tune import SEARCH_FOLDS, SEARCH_MAX, wanted

    m = min(n, SEARCH_MAX)
    check_landmark_count(args, n, search_fold=m - -(-m // SEARCH_FOLDS)
                         if any(wanted(args, False)) else None)


def _fit_nystroem(args, model, X, y, desc) -> int:
    """fit --nystroem M: fit, report per problem, cross-validate, save."""

    _check_landmarks(args, X.shape[0])
    bar = _LogBar(args, 1, "fit", "NystroemSVC: step", "step", detail=": pass ")
    seconds, messages = fit_saved(args, model, X, y, bar=bar, loud=_svc(model))
    scores = {"training_accuracy": float(model.score(X, y))}
    from .._validation import plain_label

    model = _svc(model)  # behind --scale's scaler, the landmark model (saved with it)
    ny = model.nystroem_
    rows = [{"pair": [str(plain_label(c)) for c in r["classes"]],
             "status": "converged" if r["converged"] else "max_iter reached",
             "passes": r["n_iter"], "solver": r.get("solver", "dcd"),
             "kkt_gap": r["kkt_gap"], "n_sv": r["n_sv"],
             "n_bounded_sv": r["n_bounded"], "b": r["intercept"]}
            for r in model.pair_results_]
    summary = summary_of(args, {
        "data": desc, "n_samples": int(X.shape[0]), "n_features": int(X.shape[1]),
        "kernel": args.kernel, "kernel_params": numbers(ny.kernel_params_),
        "model": "NystroemSVC", "scale": [-1, 1] if args.scale else None,
        "remedy": args.remedy, "landmarks": int(args.nystroem), "landmark_rule": args.landmarks,
        "features": {"used": int(model.n_features_used_), "positive": ny.n_positive_,
                     "negative": ny.n_negative_, "dropped_small": ny.n_dropped_,
                     "dropped_unstable": ny.n_unstable_},
        "C": args.C, "tol": args.tol, "converged": model.converged_, "problems": rows,
    }, _nystroem_rows(args, X, desc, model), seconds=seconds, scores=scores,
        messages=messages)
    return finish(args, X, y, False, seconds, summary)


def _nystroem_rows(args, X, desc, model) -> list:
    """The head of fit --nystroem's result: the data, the model, its features."""
    ny = model.nystroem_
    params = _params_text(numbers(ny.kernel_params_))
    return [
        ("data", f"{desc}: {X.shape[0]} samples, {X.shape[1]} features, "
                 f"{len(model.classes_)} classes"),
        ("model", f"{_SCALER if args.scale else ''}NystroemSVC(kernel={args.kernel}"
                  f"{', ' + params if params else ''}, n_components={args.nystroem}, "
                  + (f"landmarks={args.landmarks}, " if args.landmarks != "uniform" else "")
                  + f"remedy={args.remedy}, C={args.C:g}, tol={args.tol:g})"),
        ("features", f"{model.n_features_used_} used ({ny.n_positive_} positive, "
                     f"{ny.n_negative_} negative; dropped: {ny.n_dropped_} below the zero "
                     f"threshold, {ny.n_unstable_} that do not extend beyond the "
                     "landmarks)")]


def add_arguments(fit) -> None:
    """The ``fit`` command's options."""
    _add_data_args(fit, labels_help="labels of a precomputed kernel FILE (.npy or text)")
    _add_model_args(fit, C_default=None)
    option(fit, "no-search")
    option(fit, "cv", default=None,
           help="cross-validation folds (default 5; 0: none; one-class: none)")
    option(fit, "save", type=path_name, help="save the model (a .skops file)")
    option(fit, "json")
    option(fit, "nystroem",
           help="train NystroemSVC on Krein-space Nystroem features with M "
                "landmarks (for 10^4 - 10^6 samples) instead of the SMO on the "
                "whole kernel")
    obj = fit.add_argument_group(
        "series and strings", "FILE holds one series (numbers separated by commas, spaces or "
        "tabs) or one string per line, the label first (--label-column last, or a .ts "
        "file, or the UCR archive's ARFF: one numeric attribute a point), or a CSV / TSV "
        "with a header row as pandas' to_csv writes it (its index column skipped; the label "
        "column by --label-column NAME or named label, y, class or target); only the "
        "distances to the --nystroem M landmarks are computed")
    option(obj, "metric", choices=object_metrics(),
           help="train NystroemSVC on the distances of series (dtw) or strings "
                "(levenshtein) with --nystroem M landmarks (default min(n, 300)); "
                "--kernel then one of rbf "
                "(default), laplacian, linear, polynomial, tl1 and --gamma a number "
                "or median (default)")
    add_metric_options(obj)
    option(obj, "landmarks")
    option(obj, "features")
    option(fit, "remedy", choices=list(REMEDIES),
           help="train on a fixed kernel: a kernel FILE, --distances, or the "
                "--kernel of features (the model file keeps the training features "
                "and turns new ones into kernel rows); advanced-shift: Muench et "
                "al. 2020; cne / rne: clip / flip of the centred kernel; krein: "
                "the Krein SVM; with --nystroem M: krein (default), flip or clip")
    _family.add_args(fit)
    _add_device(fit, "a landmark model (--nystroem M, --metric) computes its features "
                     "and trains")
    _common(fit)

