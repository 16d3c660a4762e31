"""``indefsvm explore``: the interactive teaching page of the SVM's geometry, as one file."""

from __future__ import annotations

import argparse
import os

import numpy as np

from .._files import check_output_file
from .._metrics import object_metrics, objects_of
from .._remedies import drawn_options
from ._args import (
    KERNEL_NAMES,
    _add_data_args,
    _common,
    _float_list,
    add_metric_options,
    metric_params,
    path_name,
    refuse_metric_params,
)
from ._errors import in_options_words
from ._io import _load, scaled
from ._options import count, numbers, option, seed
from ._progress import _LogBar, _say
from ._rules import Refusal, refuse, refuse_beside

#: the data when none is given: two interleaved half moons in the plane (every panel of the
#: page, the input plane included, has something to show)
DEMO = "two moons, sklearn.datasets.make_moons(noise=0.25, random_state=0)"


def _grid_item(text: str):
    """``NAME=V1,V2,...`` of --grid."""
    name, sep, values = text.partition("=")
    if not sep or not name.strip():
        raise argparse.ArgumentTypeError(f"expected NAME=V1,V2,... (e.g. gamma=0.1,1,10); got "
                                         f"{text!r}")
    vals = list(numbers(values, f"expected numbers after {name.strip()}=, separated by "
                        "commas; got {text!r}"))
    return name.strip(), vals


#: what the page's data line adds with --scale
_SCALED = " (each feature scaled to [-1, 1], svm-scale)"


def _data(args):
    """(X, y, description, precomputed, kernel name)."""
    if args.file is None and args.dataset is None:
        from sklearn.datasets import make_moons

        X, y = make_moons(120, noise=0.25, random_state=0)
        return scaled(args, X), y, "two moons" + _SCALED * bool(args.scale), False
    X, y, desc, precomputed = _load(args)  # (--scale with a matrix: refused there)
    if args.scale:
        # the page explores the kernel of the scaled features, as fit --scale trains on them
        X, desc = scaled(args, X), desc + _SCALED
    if args.distances:
        from ..distances import DistanceKernel

        # the kernel the SVM would use on these distances by default
        X = DistanceKernel().fit_transform(X)
        desc += " (kernel: DistanceKernel(kind='rbf', gamma='median') of the distances)"
    return X, y, desc, precomputed


def _label(v) -> str:
    return f"{v:g}" if isinstance(v, (float, np.floating)) else str(v)


#: the page's SVM is binary, drawn on every point (``wanted``: --classes' names, None when
#: not given; ``bad``: those not among the labels; ``listed``: the labels, ``shown``: sorted
#: as text; ``n``, ``most``: the points)
_THE_PAGE = (
    Refusal(lambda v: v.wanted is not None and (len(v.wanted) != 2 or v.bad),
            "--classes takes two of the labels {shown} separated by a comma (give "
            "--classes A,B); got {classes!r}."),
    Refusal(lambda v: v.wanted is None and len(v.listed) != 2,
            lambda v: f"the labels hold {len(v.listed)} classes ({', '.join(v.listed)}); the "
                      "page shows one binary SVM: choose two with --classes A,B."),
    Refusal(lambda v: v.n > v.most,
            "the page draws every point: {n} > {most}; add --subsample 300 (a stratified "
            "subsample)."),
)


def _two_classes(args, X, y, precomputed):
    labels = np.unique(y)
    names = {str(v): v for v in labels}
    # 1 names the label 1.0 (labels of LIBSVM files and matrices are read as floats)
    names.update({f"{v:g}": v for v in labels if isinstance(v, (float, np.floating))})
    wanted = (None if args.classes is None else
              [c.strip() for c in args.classes.split(",") if c.strip()])
    listed = [_label(v) for v in labels]
    refuse(args, _THE_PAGE[:2], wanted=wanted, listed=listed, shown=sorted(listed),
           bad=[c for c in wanted or () if c not in names])
    if wanted is None:
        return X, y
    from .._tuning import take

    keep = np.isin(y, [names[c] for c in wanted])
    return take(X, np.flatnonzero(keep), precomputed), y[keep]


def _subsample(args, X, y, precomputed):
    from ..explorer._grid import MAX_POINTS

    n = y.shape[0]
    m = args.subsample
    if m is None:
        refuse(args, _THE_PAGE[2:], n=n, most=MAX_POINTS)
        return X, y
    if m >= n:
        # "at most N", as the advice above gives it: fewer points are all drawn, said
        _say(args, f"note: --subsample {m}: the data have {n} points; the page draws all "
                   "of them")
        return X, y
    from .._tuning import subsample, take

    idx = subsample(y, m, args.seed)
    return take(X, idx, precomputed), y[idx]


def _objects(args):
    """--metric: (the distance kernel of the two classes' subsample, y, description). The
    classes and the subsample are taken from the objects, so only the page's points have
    their distances computed (a file of 10^5 series needs --subsample, said first)."""
    from ..distances import DistanceKernel, pairwise_distances
    from ._objects import check_metric_file, choose_window, read_objects

    refuse_beside({"--distances": args.distances, "--dataset": args.dataset,
                   "--labels": args.labels, "--scale": args.scale,
                   "--kernel": args.explore_kernel}, "--metric",
                  "FILE holds the objects and their labels, and the page explores the kernel "
                  "DistanceKernel(kind='rbf', gamma='median') of their distances")
    check_metric_file(args)
    X, y = read_objects(args.file, args.metric, args.label_column)
    X, y = _two_classes(args, X, y, False)
    X, y = _subsample(args, X, y, False)
    choose_window(args, X, y)  # --window auto: learned on the page's objects
    kind = objects_of(args.metric)
    band = "" if args.window is None else f", window {args.window:g}"
    _say(args, f"{len(y)} {kind}: the {len(y)} x {len(y)} {args.metric} distances{band}")
    D = pairwise_distances(X, metric=args.metric,
                           **(metric_params(args) or {}))
    K = DistanceKernel().fit_transform(D)
    desc = (f"{args.file}, {len(y)} {kind} ({args.metric} distances{band}; kernel: "
            "DistanceKernel(kind='rbf', gamma='median'))")
    return K, y, desc


def _twice(grid) -> str | None:
    """The first name --grid gives twice (None: each once)."""
    names = [name for name, _ in grid or ()]
    return next((n for i, n in enumerate(names) if n in names[:i]), None)


def _no_data(s) -> bool:
    return s.file is None and s.dataset is None


#: refused before the data are read
_BEFORE_THE_DATA = (
    Refusal(lambda s: os.path.isdir(s.out),
            lambda s: f"--out {s.out}: is a folder; give the page's file name, e.g. "
                      f"{os.path.join(s.out, 'explore.html')}."),
    Refusal(lambda s: s.explore_kernel is not None and s.distances,
            "--kernel {explore_kernel} is a kernel of features; the kernel of --distances is "
            "DistanceKernel(kind='rbf', gamma='median'), explored as a matrix: drop --kernel."),
    Refusal(lambda s: s.metric is None and _no_data(s) and s.distances,
            "--distances needs a distance FILE or --dataset protein213: give one, or drop "
            "--distances."),
    Refusal(lambda s: s.metric is None and _no_data(s) and s.labels is not None,
            "--labels gives the labels of a data FILE (a kernel, distance or feature matrix); "
            "with no FILE the page shows two moons, which carry their own: drop --labels, or "
            "give the FILE."),
    Refusal(lambda s: s.subsample is not None and s.subsample < 4,
            "--subsample {subsample}: give 4 points or more (two of each class at least)."),
    Refusal(lambda s: _twice(s.grid), lambda s: f"--grid {_twice(s.grid)}=... is given twice."),
)
#: a kernel matrix (``precomputed``) is explored as given
_OF_A_MATRIX = (
    Refusal(lambda s: s.precomputed and s.explore_kernel is not None,
            "--kernel {explore_kernel} does not apply to {desc}, a kernel matrix: drop it (the "
            "page explores C and the remedies of the matrix as given)."),
)


def run(args) -> int:
    from ..explorer import explore
    from ..explorer._grid import check_C, check_param_grid, check_remedies, frame_keys

    refuse(args, _BEFORE_THE_DATA)
    out = args.out
    check_output_file(out, "--out", (args.file, args.labels))
    given = args.explore_kernel
    # the loaders read args.kernel (to warn about options a kernel does not take)
    args.kernel = "rbf" if args.distances else (given or "sigmoid")
    if args.metric is not None:
        X, y, desc = _objects(args)
        precomputed = True
    else:
        refuse_metric_params(args)
        X, y, desc, precomputed = _data(args)
    kernel = "precomputed" if precomputed else args.kernel
    refuse(args, _OF_A_MATRIX, precomputed=precomputed, desc=desc)
    grid = dict(args.grid) if args.grid else None
    if args.metric is None:  # (the objects' classes and subsample are taken already)
        X, y = _two_classes(args, X, y, precomputed)
        X, y = _subsample(args, X, y, precomputed)
    if hasattr(X, "toarray"):
        # a sparse LIBSVM file: the page's points (a thousand at most) as dense features,
        # their size said before the copy
        from .._validation import check_memory

        check_memory(8.0 * X.shape[0] * X.shape[1], f"explore on {desc} ({X.shape[0]} x "
                     f"{X.shape[1]} features made dense for the page)",
                     "Give fewer points (--subsample) or fewer features.")
        X = X.toarray()
    remedies = [r for r in args.remedies.split(",") if r.strip()]
    with in_options_words(param_grid="--grid"):  # the grid's mistakes: before any work
        checked = check_param_grid(kernel, grid, np.asarray(X, dtype=float))
        Cs = check_C(args.C_grid)
        names = check_remedies(remedies)
    total = len(list(frame_keys(checked, Cs, names)))
    _say(args, f"{total} frames ({kernel} kernel, {y.shape[0]} points of "
               f"{DEMO if desc == 'two moons' else desc}): one SVM, its check and its sanity "
               "report each")
    with _LogBar(args, total, "frames", "explore: frame", "frame") as bar:
        ex = explore(X, y, kernel=kernel, param_grid=checked, C=Cs, remedies=names,
                     title=args.title or f"{kernel} kernel on {os.path.basename(desc)}: the "
                                         "geometry of the SVM",
                     verbose=bar.active or args.verbose)
    ex.save(out)  # whole or not at all
    counts = {}
    for f in ex.to_dict()["frames"]:
        counts[f["sanity_verdict"]] = counts.get(f["sanity_verdict"], 0) + 1
    dims = [f"{k} {len(v)}" for k, v in ex.grid["params"].items()]
    dims += [f"C {len(ex.grid['C'])}", f"remedy {len(ex.grid['remedies'])}"]
    print(f"{len(ex)} frames built in {ex.build_seconds:.1f} s ({' x '.join(dims)}); models: "
          + ", ".join(f"{v} {k}" for k, v in sorted(counts.items())))
    size = f" ({os.path.getsize(out) / 1e6:.2f} MB)" if os.path.isfile(out) else ""  # a FIFO
    print(f"page written to {out}{size}: open it in a browser")
    if args.link:
        if ex.live:
            from pathlib import Path

            print(f"live link: {ex.url(page=Path(out))}")  # a file: its file:// address
        else:
            print("no live link: the page computes live for 2-D inputs of at most "
                  "200 points and the kernels of the playground; this page has frames only")
    return 0


def add_arguments(p) -> None:
    """The ``explore`` command's options."""
    p.description = ("Train the SVM for every kernel parameter, C and remedy of a grid, read "
                     "each model with the library's diagnostics, and write one HTML page whose "
                     "sliders show the spectrum, the pseudo-Euclidean plane with the hulls, w "
                     "and Mw, the decision function (2-D data) and the readouts. Without data: "
                     + DEMO + ".")
    _add_data_args(p, labels_help="labels of a precomputed kernel or distance FILE")
    for action in p._actions:  # the shared help names --kernel, which explore's distances fix
        if action.dest == "distances":
            action.help = ("FILE (or --dataset protein213) holds distances: the page explores "
                           "their kernel DistanceKernel(kind='rbf', gamma='median') as a "
                           "matrix (no --kernel)")
    option(p, "kernel", dest="explore_kernel", choices=list(KERNEL_NAMES) + ["poly"],
           help="kernel of the features (default sigmoid)")
    option(p, "grid", type=_grid_item)
    option(p, "C", dest="C_grid", type=_float_list, default=None, metavar="C1,C2,...",
           help="values of C (default 0.1,1,10)")
    option(p, "remedies",
           help=f"comma-separated: {', '.join(('none',) + drawn_options())} (default "
                "none,clip,flip)")
    option(p, "classes")
    option(p, "subsample", type=count)
    option(p, "seed", type=seed, default=0, help="seed of --subsample")
    option(p, "title")
    option(p, "out", default="explore.html", metavar="PAGE.html", type=path_name,
           help="the page to write (default explore.html)")
    obj = p.add_argument_group("series and strings")
    option(obj, "metric", choices=object_metrics(),
           help="FILE holds one series or string per line with its label (the "
                "layout of fit --metric): the page explores the kernel "
                "DistanceKernel(kind='rbf', gamma='median') of their distances, "
                "computed for the page's points only")
    add_metric_options(obj)
    option(p, "link")
    _common(p)
    p.set_defaults(n_jobs=None)  # (--window auto's search: the thread rule's cores)
