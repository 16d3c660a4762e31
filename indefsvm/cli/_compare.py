"""``indefsvm compare``: every remedy on the same folds; ``--search`` tunes and chooses."""

from __future__ import annotations

import json
import os

import numpy as np

from .._files import atomic_write, page_path
from .._metrics import object_metrics
from ..exceptions import DataFileError
from ._args import (
    DISTANCE_KINDS,
    REMEDIES,
    _add_data_args,
    _add_kernel_args,
    _common,
    _float_list,
    _kernel_params,
    add_metric_options,
    path_name,
)
from ._compare_objects import (
    COMPARE_OBJECTS,
    fit_command,
    landmark_remedies,
    landmarks_of,
    objects_block,
    objects_model,
)
from ._errors import CLIError, in_options_words
from ._io import _check_classes, _load, _read_matrix, scaled
from ._models import _distance_kernel, _validated
from ._options import metric_options, n_jobs, option, seed
from ._progress import _LogBar, _say
from ._rules import Refusal, refuse, refuse_without
from ._size import refuse_too_big


def _knn_alone(methods) -> bool:
    """``--methods knn`` alone: no SVM among the methods."""
    from ..remedies._methods import KNN

    return methods is not None and set(methods) == {KNN}


#: refused before the data are read
_BEFORE_THE_DATA = (
    Refusal(lambda s: s.save and not s.search,
            "--save keeps the model the search chose and refitted: add --search (a plain "
            "comparison refits nothing; it prints the fit command of its recommendation)."),
    # said before the search, not after it
    Refusal(lambda s: s.save and _knn_alone(s.methods),
            "--save with --methods knn alone: 'indefsvm predict' applies SVMs, not the k-NN "
            "rule, so no model could be saved. Add SVM methods to --methods, or use "
            "scikit-learn's KNeighborsClassifier(metric='precomputed')."),
    Refusal(lambda s: s.save and s.metric is not None and s.methods is not None
            and not any(m in landmark_remedies() for m in s.methods),
            "--save with --metric saves a landmark model of the Krein SVM, flip or clip (what "
            "'indefsvm fit --metric' trains): add krein, flip or clip to --methods."),
    Refusal(lambda s: s.cv < 2, "--cv must be 2 or more for a comparison: give --cv 5, say."),
    Refusal(lambda s: s.knn_distances and s.search,
            "--knn-distances with --search: the search's k-NN ranks neighbours by the "
            "kernel's own distance (or reads the distances of --distances); drop "
            "--knn-distances."),
    Refusal(lambda s: not s.search and (s.gamma_grid or s.rule),
            lambda s: f"{'--gamma-grid' if s.gamma_grid else '--rule'} belongs to --search "
                      "(RemedySearchCV); add --search."),
)
#: refused once the data say whether they are distances (``distances_read``: k-NN reads
#: the data's own; ``knn``: k-NN is among the methods)
_WITH_THE_DATA = (
    Refusal(lambda s: s.knn_distances and s.distances_read and s.knn,
            "--knn-distances with --distances: the k-NN rule already reads the distances of "
            "FILE; drop --knn-distances."),
    Refusal(lambda s: s.knn_distances and not s.knn,
            "--knn-distances gives k-NN's distances, and --methods has no knn: drop "
            "--knn-distances."),
)
#: the search's grids (``tuned``: features with a gamma; ``given``: --gamma given;
#: ``grids``: the grid options given, in words)
_SEARCH = (
    Refusal(lambda s: s.gamma_grid and not (s.distances or s.tuned),
            lambda s: "--gamma-grid tunes the gamma of a kernel of features or distances; "
                      + ("a kernel FILE is fixed" if s.precomputed else
                         f"--kernel {s.kernel} has no gamma") + ": drop --gamma-grid."),
    Refusal(lambda s: s.tuned and s.given and s.gamma_grid,
            "--gamma fixes the gamma that --gamma-grid searches: give one of them."),
    Refusal(lambda s: s.grids and _knn_alone(s.methods),
            "--methods knn has no SVM, which {grids} tune: drop {grids}."),
)


def run(args) -> int:
    from ..remedies import compare_remedies

    refuse(args, _BEFORE_THE_DATA)
    if args.metric is not None:
        data, y, desc, precomputed = objects_block(args)
    else:
        refuse_without(args, "metric", *metric_options(), "nystroem")
        data, y, desc, precomputed = _load(args)
    labels, counts = np.unique(y, return_counts=True)
    _check_classes(y, args.cv)
    # the kernel, then what the library's comparison or search holds beside it (its own
    # figures: the folds running at once, their decompositions and fixes)
    from .._threads import SMALL_ROWS, joblib_workers
    from ..remedies._compare import COMPARE_FOLD, SEARCH_FOLD, SEARCH_REFIT
    from ..remedies._fix_base import folds_matrices
    from ..remedies._search import SEARCH_SMALL

    n = data.shape[0]
    # (the workers the library will run them in: folds_matrices counts those at once)
    workers = joblib_workers(args.n_jobs, args.cv, rows=n,
                             small=SEARCH_SMALL if args.search else SMALL_ROWS)
    per_fold = folds_matrices(n, n - n // args.cv, args.cv, workers,
                              SEARCH_FOLD if args.search else COMPARE_FOLD)
    refuse_too_big(args, n, command="indefsvm compare",
                   matrices=1 + (max(per_fold, SEARCH_REFIT) if args.search else per_fold),
                   what=f"the {data.shape[0]} x {data.shape[0]} kernel and distances, and per "
                   "fold its eigendecompositions")
    D = None
    if args.distances:
        # the distance kernel of all the data (gamma by the median rule of all of it): the
        # comparison's own folds then treat it as a precomputed kernel; k-NN reads D itself
        D = data
        K = _distance_kernel(args).fit_transform(D)
    elif precomputed:
        K = data
    else:
        from ..kernels import kernel_matrix

        raw, data = data, scaled(args, data)  # --scale: each feature to [-1, 1] first
        # CSR features as they are: the kernels read them (the others make them dense)
        K = kernel_matrix(data, kernel=args.kernel, **_kernel_params(args, data))
    knn = args.methods is None or "k-NN" in args.methods  # D is k-NN's alone
    refuse(args, _WITH_THE_DATA, distances_read=D is not None, knn=knn)
    if args.knn_distances:
        D = _read_matrix(args.knn_distances, "distance matrix")
        if D.shape != K.shape:
            raise DataFileError(args.knn_distances, None, f"is {D.shape}; the kernel is "
                                f"{K.shape}.")
    if args.search:
        return _compare_search(args, K, D, y, desc, precomputed,
                               features=None if precomputed or args.distances else raw)
    _say(args, f"{args.cv}-fold comparison of the remedies on {K.shape[0]} samples"
               + (f", C from {args.C_grid} by inner CV" if args.C_grid else ", C = 1"))
    with _LogBar(args, args.cv, "folds", "compare_remedies: fold", "fold") as bar:
        # the library logs each fold; on a terminal they drive the bar, else --verbose
        # prints them
        # --C-grid on folds too small for an inner search: the library's rule, our options
        with in_options_words(only=("param_grid",), param_grid="--C-grid"):
            cmp = compare_remedies(K, y, D=D if knn else None, cv=args.cv,
                                   param_grid={"C": args.C_grid} if args.C_grid else None,
                                   random_state=args.seed, n_jobs=args.n_jobs,
                                   class_weight="balanced" if args.balanced else None,
                                   methods=args.methods,  # (+ the reference)
                                   verbose=bar.active or args.verbose)
    command = stand_in = None
    recommended = cmp.recommended
    if args.metric is not None and recommended is not None \
            and recommended not in landmark_remedies():
        # a landmark model holds the Krein SVM, flip or clip: the best of those is the
        # model to train, said as a stand-in
        errors = {m: float(np.mean(cmp.fold_errors[m])) for m in landmark_remedies()
                  if m in cmp.fold_errors}
        if errors:
            stand_in = min(errors, key=lambda m: (errors[m], m != "Krein SVM"))
            recommended = stand_in
    if recommended is not None:
        C = 1.0
        if args.C_grid:
            # the C the inner cross-validation chose most often for that method
            values, counts = np.unique(np.asarray(cmp.chosen[recommended], dtype=float),
                                       return_counts=True)
            C = float(values[np.argmax(counts)])
        params = {"C": C}
        if args.metric is not None:
            # the gamma the comparison's kernel had: the landmark model gets that very one
            params["gamma"] = float(_distance_kernel(args).fit(data).gamma_)
        command = fit_command(args, recommended, params, precomputed)
    if args.json:
        print(json.dumps({**cmp.to_dict(), "fit_command": command, "stand_in": stand_in},
                         indent=2))
    else:
        print(cmp)
        if stand_in is not None:
            print(f"\n{cmp.recommended} has no landmark model: the best method 'fit --metric' "
                  f"trains is {stand_in} (error {100 * np.mean(cmp.fold_errors[stand_in]):.2f} "
                  "%).")
        if command is not None:
            print(f"\nTo train it: {command}")
    if args.out:
        _write_compare_page(args, cmp, K, desc, precomputed, "compare", "compared")
    return 0


#: compare --methods: the command line's names of the methods of the remedy table
def _methods(text: str) -> list:
    import argparse

    from .._remedies import NAMES

    names = {r.option: r.name for r in NAMES}
    out = []
    for word in (w.strip().lower() for w in text.split(",")):
        if word not in names:
            raise argparse.ArgumentTypeError(
                f"unknown method {word!r}; choose from {', '.join(names)}")
        if names[word] not in out:
            out.append(names[word])
    if not out:
        raise argparse.ArgumentTypeError("give at least one method")
    return out


def _write_compare_page(args, cmp, K, desc, precomputed, stem: str, verb: str,
                        gamma=None) -> None:
    """The HTML page of ``compare`` (and ``compare --search``) in ``--out``; ``gamma``: the
    search's chosen gamma, at which ``K`` was computed."""
    from .._pages import write_compare_html

    kernel = (f"distances-{DISTANCE_KINDS[args.kernel]}" if args.distances
              else "precomputed" if precomputed else args.kernel)
    path = page_path(args.out, f"indefsvm-{stem}-{os.path.basename(desc)}-{kernel}.html")
    atomic_write(path, lambda tmp: write_compare_html(
        tmp, title=f"indefsvm: remedies {verb} on {os.path.basename(desc)}",
        comparison=cmp, K=K, data_desc=f"data {desc}: {K.shape[0]} samples, kernel {kernel}"
        + ("" if gamma is None else f" at the chosen gamma = {gamma:.6g} (the spectra drawn); "
           "each method's errors at its own best gamma and C")))
    if not args.json:
        print(f"\nHTML page written to {path}")


def _compare_search(args, K, D, y, desc, precomputed, features=None) -> int:
    """``compare --search``: RemedySearchCV over the methods, gamma (with --distances) and C;
    the comparison of each method at its best point, and the choice (on ``features``, the
    model file predicts from features: the kernel of the options in front of it)."""
    from ..remedies import RemedySearchCV
    from ._tune import _takes_gamma

    # features whose kernel has a gamma: searched with it (the folds compute their kernels,
    # FeatureKernel), unless --gamma fixes it
    tuned = features is not None and _takes_gamma(args, False)
    given = "--gamma" in args.explicit
    grids = " and ".join(o for o, v in (("--C-grid", args.C_grid),
                                        ("--gamma-grid", args.gamma_grid)) if v)
    refuse(args, _SEARCH, tuned=tuned, given=given, grids=grids, precomputed=precomputed)
    tuned = tuned and not given
    grid = {}
    if args.C_grid:
        grid["C"] = args.C_grid
    if args.gamma_grid:
        grid["gamma"] = args.gamma_grid
    if tuned:
        from ._models import feature_kernel

        kernel, X = feature_kernel(args), scaled(args, features)  # CSR kept (FeatureKernel)
    else:
        kernel = _distance_kernel(args) if args.distances else None
        X = D if args.distances else K
    search = RemedySearchCV(kernel=kernel, param_grid=grid or None, cv=args.cv,
                            methods=args.methods, rule=args.rule or "best",
                            random_state=args.seed,
                            class_weight="balanced" if args.balanced else None,
                            n_jobs=args.n_jobs)
    n_gamma = (len(args.gamma_grid) if args.gamma_grid else
               7 if tuned or (args.distances and kernel.kind != "linear") else 1)
    _say(args, f"{args.cv}-fold search of the remedies on {K.shape[0]} samples"
               + (f", {n_gamma} gamma" if args.distances or tuned else "")
               + f", C from {args.C_grid or 'the default grid'}")
    _validated(search)  # the settings the options made, in their words, before the work
    with _LogBar(args, args.cv * n_gamma, "tasks", "RemedySearchCV: task", "task") as bar:
        search.set_params(verbose=bar.active or args.verbose)
        search.fit(X, y)  # an error here is one of the data's: exit 1, as everywhere
    cmp = search.comparison_
    params = {k: v for k, v in search.best_params_.items() if k != "method"}
    command = fit_command(args, search.best_method_, {"C": 1.0, **params}, precomputed)
    from ..remedies._methods import KNN

    saved = stand_in = None
    model = search.best_estimator_
    if args.metric is not None:
        # the choice as a landmark model on all the objects (the comparison ran on a block)
        landmark = landmark_remedies()
        if search.best_method_ not in landmark:
            stand_in = _best_savable(search, allowed=tuple(landmark))
        if args.save:
            method, best = ((search.best_method_, params) if stand_in is None
                            else stand_in[:2])
            if method in landmark:
                model = objects_model(args, method, {"C": 1.0, **best})
            else:
                model = None
        if stand_in is not None:
            command = fit_command(args, stand_in[0], {"C": 1.0, **stand_in[1]}, precomputed)
    elif args.save and search.best_method_ == KNN:
        # a file holds an SVM, not the k-NN rule: every search ends in a model, the best
        # method a file can hold, said as such with its own fit line
        stand_in = _best_savable(search)
        if stand_in is not None:
            model = search.fit_method(stand_in[0], X, y)
            command = fit_command(args, stand_in[0], {"C": 1.0, **stand_in[1]}, precomputed)
    if args.save and model is not None and (search.best_method_ != KNN
                                            or stand_in is not None):
        import skops.io as sio

        if tuned and args.scale:
            # the search's pipeline starts at the kernel of the scaled features
            from sklearn.pipeline import Pipeline
            from sklearn.preprocessing import MinMaxScaler

            scaler = MinMaxScaler(feature_range=(-1, 1)).fit(_dense(features))
            rest = (model.steps if hasattr(model, "steps")
                    else [(type(model).__name__.lower(), model)])
            model = Pipeline([("minmaxscaler", scaler)] + rest)
        elif features is not None and not tuned:
            model = _of_features(args, model, features)

        atomic_write(args.save, lambda tmp: sio.dump(model, tmp))
        saved = args.save
    if args.json:
        print(json.dumps({**cmp.to_dict(), "best_method": search.best_method_,
                          "best_params": params, "best_score": search.best_score_,
                          "rule": search.rule, "fit_command": command, "model_file": saved},
                         indent=2, default=str))
    else:
        print(cmp)
        print(f"\nChosen ({search.rule} rule): {search.best_method_}, {_shown(params)}; "
              f"cross-validated accuracy {100 * search.best_score_:.2f} %.")
        if stand_in is not None:
            what = ("k-NN has no model file" if search.best_method_ == KNN
                    else f"{search.best_method_} has no landmark model")
            print(f"{what}: {'saved' if args.save else 'the model to train is'} instead the "
                  f"best method a file can hold, {stand_in[0]} ({_shown(stand_in[1])}; "
                  f"cross-validated accuracy {100 * stand_in[2]:.2f} %).")
        print(f"To train it again: {command}")
        if saved and args.metric is not None:
            print(f"model saved to {saved} (refitted on all {args.n_objects} objects with "
                  f"{landmarks_of(args)} landmarks; 'indefsvm predict {saved} DATA' applies it)")
        elif saved:
            print(f"model saved to {saved} (refitted on all {K.shape[0]} samples; "
                  f"'indefsvm predict {saved} DATA' applies it)")
    if args.out:
        g = search.best_params_.get("gamma")
        if kernel is not None and g is not None:
            # the spectra drawn are the kernel's at the chosen gamma, not at the default
            # rule's: the kernel the chosen model was trained on
            from sklearn.base import clone

            K = np.asarray(clone(kernel).set_params(gamma=g).fit_transform(X))
        _write_compare_page(args, cmp, K, desc, precomputed, "search", "searched",
                            gamma=g if kernel is not None else None)
    if args.save and saved is None:
        raise CLIError(f"the search compared k-NN only, which 'indefsvm predict' cannot "
                       f"apply: no model was saved to {args.save}. Add SVM methods to "
                       "--methods, or use scikit-learn's "
                       "KNeighborsClassifier(metric='precomputed').")
    return 0


def _dense(X):
    return X.toarray() if hasattr(X, "toarray") else X


def _of_features(args, model, X):
    """``model`` (fitted on the kernel of ``X``) behind the FeatureKernel of the options,
    fitted on ``X`` (and the scaler, --scale): a pipeline that predicts from features as fit
    --remedy's does. The kernel it computes is the comparison's, on the same data."""
    from sklearn.pipeline import Pipeline
    from sklearn.preprocessing import MinMaxScaler

    from ._models import feature_kernel

    steps = []
    if args.scale:
        scaler = MinMaxScaler(feature_range=(-1, 1)).fit(_dense(X))
        steps.append(("minmaxscaler", scaler))
        X = scaler.transform(_dense(X))
    steps.append(("featurekernel", feature_kernel(args).fit(X)))  # CSR kept
    rest = model.steps if hasattr(model, "steps") else [(type(model).__name__.lower(), model)]
    return Pipeline(steps + rest)


def _shown(params: dict) -> str:
    return ", ".join(f"{k} = {v:.4g}" if isinstance(v, float) else f"{k} = {v}"
                     for k, v in params.items())


def _best_savable(search, allowed: tuple | None = None):
    """(method, params, score) of the best-scored method other than k-NN (among ``allowed``
    when given), or None."""
    from ..remedies._methods import KNN

    res = search.cv_results_
    best = None
    for i, m in enumerate(res["method"]):
        s = res["mean_test_score"][i]
        if m == KNN or s != s or (allowed is not None and m not in allowed):
            continue  # k-NN, a method the file cannot hold, or a point that failed (NaN)
        if best is None or s > best[2]:
            best = (m, {k: v for k, v in res["params"][i].items() if k != "method"}, float(s))
    return best


def add_arguments(compare) -> None:
    """The ``compare`` command's options."""
    _add_data_args(compare, labels_help="labels of a precomputed kernel FILE (.npy or text)",
                   legacy_distances=True)
    _add_kernel_args(compare)
    option(compare, "knn-distances", type=path_name)
    option(compare, "cv", default=5, help="outer folds (default 5)")
    option(compare, "methods", type=_methods,
           help="the candidates, comma-separated: svm (the kernel as it is), "
                + ", ".join(REMEDIES) + ", knn (default: all; the indefinite "
                "SVM is always compared, as the reference)")
    option(compare, "C-grid", type=_float_list)
    option(compare, "search")
    option(compare, "gamma-grid", type=_float_list)
    option(compare, "rule")
    option(compare, "seed", type=seed, default=None,
           help="shuffle the samples into folds with this seed (default: no "
                "shuffling, stratified folds in file order, as "
                "RemedySearchCV() and compare_remedies() make them)")
    option(compare, "balanced")
    option(compare, "n-jobs", type=n_jobs,
           help="folds in parallel (joblib; default one at a time)")
    option(compare, "save", type=path_name,
           help="with --search: save the chosen model, refitted on all the data "
                "(a .skops file for 'indefsvm predict')")
    option(compare, "out", type=path_name,
           help="also write an HTML page with a figure to this folder, or to "
                "this file when it ends in .html")
    obj = compare.add_argument_group(
        "series and strings",
        "FILE holds one series or string per line with its label (the layout of fit "
        "--metric): the remedies are compared on the exact distance kernel of a stratified "
        f"subsample of at most {COMPARE_OBJECTS} objects, and --search --save refits the "
        "choice as a landmark model (krein, flip or clip) on all of them")
    option(obj, "metric", choices=object_metrics(),
           help="the objects' distances: DTW (series) or Levenshtein (strings)")
    add_metric_options(obj)
    option(obj, "nystroem",
           help="landmarks of the model saved or printed (default min(n, 300))")
    option(compare, "json")
    _common(compare)
