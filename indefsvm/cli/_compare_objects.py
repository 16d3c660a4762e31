"""``compare FILE --metric dtw|levenshtein``: the remedies compared on the exact distance
kernel of a stratified subsample of the objects, and the landmark model (``NystroemSVC``)
that a choice becomes on all of them."""

from __future__ import annotations

import shlex

from .._metrics import objects_of
from ._args import metric_words
from ._progress import _say
from ._rules import refuse_beside


#: compare --metric: the methods of the remedy table a landmark model has (NystroemSVC's
#: remedies), by their command-line names
def landmark_remedies() -> dict:
    from .._remedies import NAMES

    return {r.name: r.option for r in NAMES if r.landmark}


#: compare --metric compares the remedies on the whole distance matrix of a stratified
#: subsample of at most this many objects (each fold decomposes its training block)
COMPARE_OBJECTS = 2000


def objects_block(args):
    """compare FILE --metric: (D, y, description, True) -- the distances among a stratified
    subsample of at most COMPARE_OBJECTS objects, which the comparison then reads as
    --distances does."""
    from ._objects import check_metric_file, exact_block, read_objects

    check_metric_file(args)
    refuse_beside({"--distances": args.distances, "--labels": args.labels,
                   "--knn-distances": args.knn_distances}, "--metric",
                  "FILE holds the objects with their labels, and their distances are computed")
    X, y = read_objects(args.file, args.metric, args.label_column)
    n = len(y)
    from ._io import _check_classes
    from ._objects import choose_window

    _check_classes(y, args.cv)  # (its two classes before the window is learned from them)
    choose_window(args, X, y)
    if args.nystroem is not None:
        # (the landmark model saved or printed is fitted on all n: no fold of its own)
        from ._models import check_landmark_count

        check_landmark_count(args, n, "objects", where=f" of {args.file}", folds=0)
    args.objects, args.objects_y, args.n_objects = X, y, n
    m = min(n, COMPARE_OBJECTS)
    _say(args, f"{n} {objects_of(args.metric)}: the remedies are "
               f"compared on the exact {args.metric} kernel of "
               + ("all of them" if m == n else f"a stratified subsample of {m}")
               + " (all their distances)")
    D, idx, seconds = exact_block(args, X, y, COMPARE_OBJECTS)
    _say(args, f"{m} x {m} distances in {seconds:.1f} s")
    args.distances = True  # from here the block is read as compare --distances reads one
    return D, y[idx], args.file, True


def landmarks_of(args) -> int:
    """The landmarks of the model compare --metric saves or prints: --nystroem, else
    min(n, 300)."""
    from ._objects import LANDMARKS

    return args.nystroem if args.nystroem is not None else min(args.n_objects, LANDMARKS)


def objects_command(args, method: str, params: dict) -> str:
    """The fit line of a landmark model of ``method`` (a remedy NystroemSVC has), or the
    sentence that says what the landmark models can be."""
    import shlex

    remedy = landmark_remedies().get(method)
    if remedy is None:
        return (f"({method} has no landmark model: 'indefsvm fit --metric' trains the Krein "
                "SVM, flip or clip on distances to landmarks; --methods krein,flip,clip "
                "compares those only)")
    words = ["indefsvm", "fit", args.file]
    if args.label_column is not None:
        words += ["--label-column", str(args.label_column)]
    words += ["--metric", args.metric]
    words += metric_words(args)
    if args.nystroem is not None:
        # (not given: fit's own default, min(n, 300), is the same number, and its CV folds
        # then take the rule of their size)
        words += ["--nystroem", str(args.nystroem)]
        n = args.n_objects
        if args.nystroem > n - -(-n // 5):
            # more landmarks than a fold of fit's 5-fold CV holds: fit would refuse them
            words += ["--cv", "0"]
    if args.kernel != "rbf":
        words += ["--kernel", args.kernel]
    gamma = params.get("gamma")
    if gamma is not None and gamma != "median":
        words += ["--gamma", repr(float(gamma))]
    words += ["--remedy", remedy, "-C", f"{params['C']:g}"]
    if args.balanced:  # the weights the comparison's SVMs had
        words += ["--class-weight", "balanced"]
    # the user's own --save where given
    words += ["--save", args.save or "model.skops"]
    return " ".join(shlex.quote(w) for w in words)


def objects_model(args, method: str, params: dict):
    """The landmark model of ``method`` at ``params``, fitted on all the objects."""
    from ._models import model_of

    chosen = args.replace(nystroem=landmarks_of(args), remedy=landmark_remedies()[method],
                          C=float(params.get("C", 1.0)), gamma=params.get("gamma", "median"),
                          features="nystroem", landmarks="uniform", tol=1e-3, max_iter=None,
                          class_weight="balanced" if args.balanced else None,
                          seed=args.seed or 0)
    model = model_of(chosen)
    _say(args, f"refitting {method} on all {args.n_objects} objects: distances to "
               f"{chosen.nystroem} landmarks")
    return model.fit(args.objects, args.objects_y)


def fit_command(args, method: str, params: dict, precomputed: bool) -> str:
    """The ``indefsvm fit`` command that trains ``method`` with ``params`` on the data of
    this ``compare`` (or a sentence that says why no command does)."""
    from .._remedies import BY_NAME
    from ..remedies._methods import INDEF, KNN
    from ._args import data_args, remedy_option
    from ._options import number
    from ._tune import _takes_gamma

    if args.metric is not None:
        return objects_command(args, method, params)
    if method == KNN:
        return ("(k-NN has no 'indefsvm fit' model: scikit-learn's "
                "KNeighborsClassifier(n_neighbors=k, metric='precomputed') on the distances "
                "is that model)")
    gamma = params.get("gamma", args.gamma) if args.distances else None
    if not precomputed and not args.distances and _takes_gamma(args, False) and (
            "gamma" in params or "--gamma" not in args.explicit):
        # the gamma the search chose; or the kernel compared was the default rule's, which
        # fit, without --gamma, would search
        gamma = params.get("gamma", args.gamma)
    # the user's own --save where given (compare --search --save best.skops printed
    # '--save model.skops')
    save = shlex.quote(args.save) if args.save else "model.skops"
    if method != INDEF and not BY_NAME[method].remedy:
        # the linear SVM on the kernel rows as features: no fix for fit --remedy; the
        # search of that method trains and saves it
        return (f"indefsvm compare {data_args(args, gamma=gamma)} --search --methods "
                f"{BY_NAME[method].option} --save {save}")
    line = f"indefsvm fit {data_args(args, gamma=gamma)}"
    if method != INDEF:
        line += f" --remedy {remedy_option(method)}"
    if args.balanced:  # the weights the comparison's SVMs had
        line += " --class-weight balanced"
    return line + f" -C {number(params['C'])} --save {save}"
