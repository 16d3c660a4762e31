"""``indefsvm check``: is this kernel (or distance matrix) usable in an SVM?"""

from __future__ import annotations

import json

import numpy as np

from .._metrics import object_metrics, objects_of
from ._args import (
    N_JOBS_HELP,
    _add_data_args,
    _add_device,
    _add_kernel_args,
    _add_n_jobs,
    _common,
    _kernel_params,
    add_metric_options,
    data_args,
    metric_params,
    metric_words,
    refuse_metric_params,
)
from ._errors import EXIT_USAGE, CLIError
from ._io import _load, scale_advice, scaled
from ._options import count, option, seed
from ._progress import _PassBar, _say, _TimedBar
from ._rules import Refusal, refuse

#: check --metric: the distances among at most this many objects (--sample)
SAMPLE = 1000


def _seed(args) -> int:
    """--seed, 0 when not given (None marks "not given": a dense check refuses it)."""
    return 0 if args.seed is None else args.seed


def _ignored_by_distances(args) -> list[str]:
    """The options ``check --distances`` would ignore: check_distances profiles
    exp(-gamma d^2) over a grid of gamma, densely (the kernel and the matrix-free options)."""
    if not args.distances:
        return []
    return [o for o in args.explicit if o != "--kernel" or args.kernel != "rbf"] + [
        o for o, v, d in (("--method", args.method, "auto"), ("--probes", args.probes, None),
                          ("--steps", args.steps, None)) if v != d]


#: the GPU computes the matrix-free check of a kernel of features only
_ONE_DEVICE = (
    Refusal(lambda s: s.device == "cuda" and (s.metric is not None or s.distances),
            "--device cuda computes the matrix-free check of a kernel computed from features "
            "(--method slq or lanczos); distances are checked on the CPU: drop --device."),
)
#: a kernel or distance matrix is checked whole (``ignored``: what check_distances ignores)
_NOT_OF_A_MATRIX = (
    # taken and ignored before: a kernel or a distance matrix is checked whole
    Refusal(lambda s: s.sample is not None,
            lambda s: "--sample goes with --metric (the distances among M of the series or "
                      "strings); " + ("a distance matrix is checked whole" if s.distances else
                                      "a kernel of features is checked whole (above 5000 "
                                      "samples by the matrix-free methods, --method slq or "
                                      "lanczos)") + ": drop --sample."),
    Refusal(lambda s: s.ignored,
            lambda s: f"{' '.join(s.ignored)} {'does' if len(s.ignored) == 1 else 'do'} not "
                      "apply to 'check --distances', which reads the distances themselves "
                      "(metric, Euclidean, the negative mass of exp(-gamma d^2) over a grid of "
                      "gamma around the median rule, densely): drop the option."),
)
#: a dense check (``dense``) of ``n`` samples; ``unused``: the matrix-free options given
_DENSE = (
    Refusal(lambda s: s.device == "cuda" and s.precomputed,
            "--device cuda computes the kernel's tiles from features on the GPU; a kernel "
            "matrix FILE is checked on the CPU: drop --device, or give the features with "
            "--kernel."),
    Refusal(lambda s: s.dense and s.unused,
            lambda s: f"{s.unused} {'belongs' if ' and ' not in s.unused else 'belong'} to "
                      f"the matrix-free methods; {s.n} samples with --method {s.method} are "
                      "checked densely (every eigenvalue, exactly): add --method slq or "
                      f"lanczos, or drop {s.unused}."),
    Refusal(lambda s: s.device == "cuda" and s.dense,
            "--device cuda computes the matrix-free methods; {n} samples with --method "
            "{method} are checked densely on the CPU: add --method slq or lanczos, or drop "
            "--device."),
)


def run(args) -> int:
    from ..diagnostics import check_kernel

    refuse(args, _ONE_DEVICE)
    if args.metric is not None:
        return _run_objects(args)
    refuse_metric_params(args)
    refuse(args, _NOT_OF_A_MATRIX, ignored=_ignored_by_distances(args))
    data, y, _, precomputed = _load(args, need_labels=False, axioms=False)
    real = y is not None and _real_targets(y)
    if real:
        # a regression's targets: the checks by pairs of classes would read each value as a
        # class of its own; the kernel and the distances are checked without them
        _say(args, f"the labels are real numbers ({np.unique(y).shape[0]} distinct values): "
                   "a regression's targets, not classes; the checks by class are left out")
        y = None
    if args.distances:
        from ..diagnostics import check_distances

        rep = check_distances(data, y, rtol=args.rtol, random_state=_seed(args),
                              verbose=args.verbose, n_jobs=args.n_jobs)
        _name_data(rep, args)
        print(json.dumps(rep.to_dict(), indent=2) if args.json else rep)
        return 0
    advice = None if precomputed or args.scale else scale_advice(data)
    data = scaled(args, data)  # --scale: the features the kernel of a fit would see
    n = data.shape[0]
    from ..diagnostics.spectrum import DENSE_MAX

    dense = args.method in ("dense", "ldl") or (args.method == "auto" and n <= DENSE_MAX)
    refuse(args, _DENSE, n=n, dense=dense, precomputed=precomputed,
           unused=" and ".join(o for o, v in (("--probes", args.probes),
                                               ("--steps", args.steps),
                                               ("--seed", args.seed)) if v is not None))
    # a dense tridiagonalisation costs about 4/3 n^3 flops at ~10 GFlop/s on one core
    estimate = 1.3e-10 * n**3 if dense else 0.0
    if not dense:
        _say(args, f"{n} samples: matrix-free estimates ({args.method}), the kernel is never "
                   "formed; --verbose logs each pass")
    mf = {} if dense else {"n_probes": args.probes, "n_steps": args.steps,
                           "random_state": _seed(args)}
    if estimate > 2.0:
        _say(args, f"eigendecomposition of a {n} x {n} matrix: about {estimate:.0f} s")
    with _TimedBar(args, estimate if estimate > 2.0 else 0, "eigendecomposition") as _, \
            _PassBar(args, None if dense else n) as bar:
        # the check logs its passes when asked: on a terminal they drive the bar
        loud = bar.active or args.verbose
        if precomputed:
            rep = check_kernel(data, y, rtol=args.rtol, method=args.method,
                               verbose=loud, n_jobs=args.n_jobs, **mf)
        else:
            rep = check_kernel(X=data, y=y, kernel=args.kernel, rtol=args.rtol,
                               method=args.method, verbose=loud,
                               n_jobs=args.n_jobs, **mf, **_kernel_params(args, data),
                               **({"device": "cuda"} if args.device == "cuda" else {}))
    _name_data(rep, args)
    if args.json:
        print(json.dumps({**rep.to_dict(), **({"scale_advice": advice} if advice else {})},
                         indent=2))
    else:
        print(rep)
        if advice:
            print(f"\nnote: {advice}")
    return 0


def _real_targets(y) -> bool:
    from sklearn.utils.multiclass import type_of_target

    return type_of_target(y) == "continuous"


def _run_objects(args) -> int:
    """check FILE --metric dtw|levenshtein: check_distances of the objects themselves, on the
    distances among a random sample of them (all of them up to --sample)."""
    import shlex

    from ..diagnostics import check_distances
    from ..diagnostics._advice import distance_notes
    from ._objects import check_metric_file, read_objects

    given = list(args.explicit)
    given += [o for o, v, d in (("--method", args.method, "auto"),
                                ("--probes", args.probes, None),
                                ("--steps", args.steps, None),
                                ("--distances", args.distances, False),
                                ("--labels", args.labels, None),
                                ("--dataset", args.dataset, None)) if v != d]
    if given:
        raise CLIError(f"{given[0]} does not apply to 'check --metric', which reads the "
                       "objects' distances themselves (metric, Euclidean, the negative mass "
                       "of exp(-gamma d^2) over a grid of gamma around the median rule): drop "
                       "it.", EXIT_USAGE)
    check_metric_file(args, labelled=False)
    X, y = read_objects(args.file, args.metric, args.label_column,
                        need_labels=False)
    from ._objects import choose_window

    choose_window(args, X, y)
    n = len(X)
    m = min(n, SAMPLE if args.sample is None else args.sample)
    if m < 3:
        raise CLIError(f"{args.file}: {n} objects; the check needs at least 3.", EXIT_USAGE)
    params = metric_params(args)
    _say(args, f"{n} {objects_of(args.metric)}: the {m} x {m} "
               f"{args.metric} distances of "
               + ("all of them" if m == n else f"{m} drawn at random (--sample)"))
    rep = check_distances(X=X, y=y, metric=args.metric, metric_params=params, n_landmarks=m,
                          rtol=args.rtol, random_state=_seed(args), verbose=args.verbose,
                          n_jobs=-1 if args.n_jobs is None else args.n_jobs)
    words = [shlex.quote(args.file)]
    if args.label_column is not None:
        words += ["--label-column", shlex.quote(args.label_column)]
    words += ["--metric", args.metric]
    words += metric_words(args)
    rep.data_args = " ".join(words)
    rep.notes = distance_notes(rep)
    print(json.dumps(rep.to_dict(), indent=2) if args.json else rep)
    return 0


def _name_data(rep, args) -> None:
    """The notes' commands name this data as the user gave it (no FILE placeholder)."""
    from ..diagnostics._advice import build_notes, distance_notes

    rep.data_args = data_args(args)
    rep.notes = (distance_notes(rep) if args.distances else build_notes(rep))


def add_arguments(check) -> None:
    """The ``check`` command's options."""
    _add_data_args(check, labels_help="labels of a precomputed kernel FILE (optional)")
    _add_kernel_args(check)
    option(check, "rtol", type=float)
    option(check, "method")
    option(check, "probes", type=count)
    option(check, "steps", type=count)
    option(check, "seed", type=seed, default=None,
           help="matrix-free methods: seed of the probes; --metric: of the "
                "sample and the sampled triangles (default 0)")
    obj = check.add_argument_group(
        "series and strings",
        "FILE holds one series or string per line (the layout of fit --metric; labels "
        "optional, --label-column none for a file without them)")
    option(obj, "metric", choices=object_metrics(),
           help="check the DTW (series) or Levenshtein (strings) distances of the "
                "objects in FILE: metric, Euclidean, the gamma profile, the "
                "landmarks a model needs, and the fit command with these options")
    add_metric_options(obj)
    option(obj, "sample", type=count)
    option(check, "json")
    _add_n_jobs(check, N_JOBS_HELP + "; the matrix-free passes share the kernel's tiles "
                "among them")
    _add_device(check, "the matrix-free check (--method slq or lanczos) computes the "
                       "kernel's tiles")
    _common(check)
