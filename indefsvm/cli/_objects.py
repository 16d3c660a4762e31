"""Series and strings on the command line: their files, ``fit FILE --metric dtw|levenshtein
[--nystroem M]``, and the checks of a saved model of them."""

from __future__ import annotations

import numpy as np

from .._metrics import objects_of
from ._args import NYSTROEM_REMEDIES
from ._errors import EXIT_USAGE, CLIError
from ._io import _say_note
from ._rules import Refusal, refuse, refuse_beside

#: the training accuracy of fit --metric is measured on at most this many objects
TRAIN_SCORE_MAX = 10_000

#: fit --metric without --nystroem: min(n, this many) landmarks (compare --metric's default)
LANDMARKS = 300


def read_objects(path: str, metric: str, label_column: str | None, *,
                 need_labels: bool = True):
    """(objects, labels or None) of a file of series or strings, read by
    :func:`indefsvm.datasets.load_file`'s reader; a model file given as data, and labels a
    fit needs, are said here, as usage errors."""
    from ..datasets._data_file import read_file
    from ._args import OPTION_WORDS
    from ._io import refuse_model_file

    refuse_model_file(path)
    data = read_file(path, objects=objects_of(metric),
                     label_column=label_column, need_labels=need_labels, words=OPTION_WORDS,
                     note=_say_note)
    if data.y is None and need_labels:
        raise CLIError(f"{path}: training needs labels; --label-column none is for predict.",
                       EXIT_USAGE)
    return data.X, data.y


def check_metric_file(args, labelled: bool = True) -> None:
    """--metric needs a FILE of objects; --window goes with DTW only."""
    if args.file is None:
        raise CLIError(f"--metric {args.metric} needs a FILE of "
                       f"{objects_of(args.metric)}, one per line"
                       + (" with its label." if labelled else "."), EXIT_USAGE)
    from ._args import refuse_format_options, refuse_metric_params

    refuse_format_options(args, args.file, "a file of "
                          f"{objects_of(args.metric)}",
                          ("--label-column",))
    refuse_metric_params(args)
    if isinstance(args.window, (str, tuple)):
        # --window auto or a list: learned once the series are read (choose_window); until
        # then the model has no band
        args.window_grid = None if args.window == "auto" else list(args.window)
        args.window_learned = True
        args.window = None


#: --window auto learns the window on a stratified subsample of at most this many series
WINDOW_OBJECTS = 1000


def choose_window(args, X, y) -> None:
    """--window auto (or a list of windows): DTW's band of least leave-one-out 1-NN error
    (:func:`indefsvm.distances.learn_window`, the UCR archive's learned window) on a
    stratified subsample of at most WINDOW_OBJECTS series, said; ``args.window`` is then
    that number, which every later step and printed command uses."""
    if not args.window_learned or args.window is not None:
        return
    if y is None:
        raise CLIError(f"{args.file}: --window auto learns the band from the labels (1-NN, "
                       "leave one out), and this file has none: give --window W.", EXIT_USAGE)
    from .._tuning import subsample
    from ..distances import learn_window
    from ..distances._window import DEFAULT_WINDOWS
    from ._progress import _LogBar, _say

    idx = subsample(y, WINDOW_OBJECTS, args.seed or 0)
    sub = X[idx] if isinstance(X, np.ndarray) else [X[i] for i in idx]
    grid = args.window_grid or list(DEFAULT_WINDOWS)
    _say(args, "--window: learning DTW's band by leave-one-out 1-NN on "
               + (f"all {len(idx)} series" if len(idx) == len(y) else
                  f"a stratified subsample of {len(idx)} series")
               + f", {len(grid)} windows from {min(grid):g} to {max(grid):g}")
    with _LogBar(args, len(grid), "windows", "learn_window: window", "window") as bar:
        choice = learn_window(sub, y[idx], windows=grid, verbose=bar.active or args.verbose,
                              n_jobs=-1 if args.n_jobs is None else args.n_jobs)
    args.window = choice.window
    args.window_choice = choice
    _say(args, str(choice))


def exact_block(args, X, y, most: int):
    """(D, idx, seconds): the --metric distances among a stratified subsample of at most
    ``most`` objects (all of them when there are no more)."""
    import time

    from .._tuning import subsample
    from ..distances import pairwise_distances
    from ._args import metric_params

    idx = subsample(y, most, args.seed or 0)
    sub = X[idx] if isinstance(X, np.ndarray) else [X[i] for i in idx]
    t0 = time.perf_counter()
    # every metric_params option (--sigma, --split-cost, not --window alone)
    D = pairwise_distances(sub, metric=args.metric, n_jobs=-1 if args.n_jobs is None
                           else args.n_jobs, **(metric_params(args) or {}))
    return D, idx, time.perf_counter() - t0


# -- fit ------------------------------------------------------------------------------------------


def _kernel_option(view) -> str | None:
    """The first of --p, --rho, --degree given that the kernel of the distances does not
    take (--degree goes with its polynomial form)."""
    for opt in ("--p", "--rho", "--degree"):
        if opt in view.explicit and not (opt == "--degree" and view.kernel == "polynomial"):
            return opt
    return None


#: what goes with --metric's landmark model
_WITH_THE_METRIC = (
    Refusal(lambda v: v.remedy is not None and v.remedy not in NYSTROEM_REMEDIES,
            "--remedy {remedy} is not one of NystroemSVC's: give krein, flip or clip."),
    Refusal(_kernel_option,
            lambda v: f"{_kernel_option(v)} does not apply to --metric; the kernel of the "
                      "distances takes --gamma (and --coef0, --degree for polynomial)."),
)


def check_options(args) -> None:
    """What goes with --metric, before any file is read."""
    refuse_beside({"--distances": args.distances, "--labels": args.labels,
                   "--dataset": args.dataset}, "--metric",
                  "FILE holds the series or strings with their labels")
    refuse(args, _WITH_THE_METRIC)


def fit(args, search) -> int:
    """fit FILE --metric ... --nystroem M (``search``: the search of C and gamma, from the
    room that tunes, handed in so that this one does not reach back to it)."""
    from ._args import metric_params
    from ._finish import finish, fit_saved, summary_of
    from ._progress import _LogBar, _say

    # (the kernel is one of distances: the option defaults refused any other)
    check_metric_file(args)
    check_options(args)
    from ._models import _validated, check_landmark_count, model_of

    # the model's options (the metric's parameters, the device) checked before the file is
    # read and before the search, which fits other models; built again after it with the
    # C and gamma it chose
    given = args.nystroem is not None
    if not given:
        args.nystroem = LANDMARKS  # checked with the model's options; set by n below
    _validated(model_of(args))
    kind = {"poly": "polynomial"}.get(args.kernel, args.kernel)
    X, y = read_objects(args.file, args.metric, args.label_column)
    from ._io import _check_class_weight, _check_classes

    _check_class_weight(args, y)
    n = len(y)
    # said before the fit: two classes or more, and the folds need every class
    _check_classes(y, args.cv if args.cv > 1 else 0, fit=True)
    choose_window(args, X, y)  # --window auto: before the search and the fit
    if not given:
        # compare --metric's default too; all n objects: the exact kernel's landmark model
        args.nystroem = min(n, LANDMARKS)
        d2ke = args.features == "d2ke"
        _say(args, f"--nystroem not given: {args.nystroem} "
                   + ("random objects" if d2ke else "landmarks")
                   + ("" if d2ke else " (all the objects: the exact kernel)"
                      if args.nystroem == n else f" of the {n} objects")
                   + "; --nystroem M sets how many (more: closer to the exact kernel, "
                     "slower)")
    if given:  # (the default is min(n, LANDMARKS), and each CV fold takes its own)
        check_landmark_count(args, n, "objects", where=f" of {args.file}")
    # the CV's folds take the default rule of their own size (_models._cross_validate)
    args.landmarks_default = not given
    args.search_result = search(args, X, y)  # said there, as fit's search is
    model = model_of(args)
    _say(args, f"{n} {objects_of(args.metric)}: distances to "
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
        "metric_params": metric_params(args),
        "window_learned": (None if args.window_choice is None
                           else args.window_choice.to_dict()),
        "kernel": kind, "model": "NystroemSVC", "features": args.features,
        "remedy": model.remedy, "landmarks": int(args.nystroem),
        "landmark_rule": None if args.features == "d2ke" else args.landmarks,
        "gamma": None if gamma is None else float(gamma),
        "training_accuracy_objects": int(idx.size),
        "features_used": int(model.n_features_used_), "positive": int(ny.n_positive_),
        "negative": int(ny.n_negative_), "C": args.C, "converged": bool(model.converged_),
    }, [("data", f"{args.file}: {n} {objects_of(args.metric)}, {len(model.classes_)} classes"),
        ("model", f"NystroemSVC(metric={args.metric}"
                  + "".join(f", {k}={v:g}" for k, v in (metric_params(args) or {}).items())
                  + f", kernel={kind}" + ("" if gamma is None else f", gamma={gamma:.6g}")
                  + f", n_components={args.nystroem}"
                  + (f", landmarks={args.landmarks}" if args.landmarks != "uniform" else "")
                  + f", features={args.features}, remedy={model.remedy}, C={args.C:g})"),
        ("features", f"{int(model.n_features_used_)} used ({int(ny.n_positive_)} positive, "
                     f"{int(ny.n_negative_)} negative)"),
        ("converged", str(model.converged_)),
        *([(None, f"(training accuracy on {idx.size} of the {n} objects, drawn at random)")]
          if idx.size < n else [])],
        seconds=seconds, scores={"training_accuracy": train_acc}, messages=messages)
    return finish(args, X, y, False, seconds, summary)
