"""``indefsvm fit`` without ``-C`` / ``--gamma``: a small cross-validated grid picks them, as
LIBSVM's ``grid.py`` does, before the model is fitted.

Why not the library's search (``RemedySearchCV``, ``compare_remedies``): those compare
*remedies* of one precomputed kernel matrix (its gamma through a kernel transformer of
distances), every method on the same folds. ``fit`` tunes the very estimator its options
build -- an ``IndefiniteSVC`` computing a named kernel column by column from features (never
the n x n matrix), a ``--nystroem`` landmark model, a ``--distances`` pipeline, a remedy's
pipeline -- with no remedy added or compared; and it breaks ties towards the smaller C and the
gamma nearest the default rule, which a user can read off LIBSVM's grid. For series and
strings (``search_objects``) the exact kernel of a subsample is searched with the remedy the
landmark model approximates: there the models differ, and the subsample's matrix is what makes
the search affordable. ``compare --search`` is the place of ``RemedySearchCV``.
"""

from __future__ import annotations

import time
import warnings

import numpy as np

from ._progress import _bar, _say

#: the C of the grid (LIBSVM's grid.py spans 2^-5 ... 2^15; five decades are enough to land
#: near the best and keep the search to seconds)
C_GRID = (0.01, 0.1, 1.0, 10.0, 100.0)

#: gamma of the grid: the default rule's value (scale, or the median rule of distances) times
GAMMA_FACTORS = (1 / 16, 1 / 4, 1.0, 4.0, 16.0)

#: above this many samples the grid is searched on a stratified subsample (the chosen C and
#: gamma are then fitted on all of them)
SEARCH_MAX = 3000

#: folds of the search
SEARCH_FOLDS = 3


def _takes_gamma(args, precomputed: bool) -> bool:
    from ..kernels import KERNELS, canonical_name

    if args.distances:
        from ..distances._kernel import KINDS
        from ._args import DISTANCE_KINDS

        return bool(KINDS[DISTANCE_KINDS[args.kernel]])
    if precomputed:
        return False
    return "gamma" in KERNELS[canonical_name(args.kernel)][1]


def wanted(args, precomputed: bool) -> tuple[bool, bool]:
    """(search C, search gamma): what the user left to the search."""
    if getattr(args, "no_search", False):
        return False, False
    return args.C_given is False, ("--gamma" not in getattr(args, "explicit", [])
                                   and _takes_gamma(args, precomputed))


def _gamma0(args, X, precomputed: bool) -> float:
    """The default rule's gamma on these data: scale (features) or the median rule."""
    if args.distances:
        from ._models import _distance_kernel

        return float(_distance_kernel(args).fit(X).gamma_)
    from ._args import _kernel_params

    return float(_kernel_params(args, X)["gamma"])


def _param_names(model) -> tuple[str, str]:
    """The names of C and gamma in ``model`` (a pipeline's steps prefix them)."""
    if hasattr(model, "steps"):
        return f"{model.steps[-1][0]}__C", f"{model.steps[0][0]}__gamma"
    return "C", "gamma"


def _subsample(y, seed):
    from sklearn.model_selection import train_test_split

    idx = np.arange(y.shape[0])
    if y.shape[0] <= SEARCH_MAX:
        return idx
    keep, _ = train_test_split(idx, train_size=SEARCH_MAX, stratify=y, random_state=seed)
    return np.sort(keep)


def tune(args, X, y, precomputed: bool) -> dict | None:
    """Search C and/or gamma by cross-validation; set them on ``args``; return what was done
    (None when the user gave every value or --no-search)."""
    from sklearn.base import clone
    from sklearn.model_selection import StratifiedKFold

    from ..exceptions import ConvergenceWarning
    from ._models import _estimator, fold_score

    want_C, want_gamma = wanted(args, precomputed)
    if not (want_C or want_gamma):
        return None
    t0 = time.perf_counter()
    g0 = _gamma0(args, X, precomputed) if want_gamma else None
    Cs = list(C_GRID) if want_C else [args.C]
    gammas = [g0 * f for f in GAMMA_FACTORS] if want_gamma else [None]
    idx = _subsample(y, args.seed)
    Xs = (X[np.ix_(idx, idx)] if precomputed else X[idx]) if idx.shape[0] < y.shape[0] else X
    ys = y[idx]
    counts = np.unique(ys, return_counts=True)[1]
    k = int(min(SEARCH_FOLDS, counts.min()))
    if k < 2:
        _say(args, "search: a class has one sample, so no cross-validation can choose C or "
                   "gamma; fitting the defaults (C = 1, the default gamma rule)")
        return None
    folds = list(StratifiedKFold(k, shuffle=True, random_state=args.seed).split(Xs, ys))
    template = _estimator(args, precomputed)
    template.set_params(**{key: False for key, v in template.get_params().items()
                           if key.split("__")[-1] == "verbose" and v is not False})
    c_name, g_name = _param_names(template)
    what = " x ".join(p for p, on in ((f"{len(Cs)} C", want_C),
                                       (f"{len(gammas)} gamma", want_gamma)) if on)
    if idx.shape[0] >= 1000 or args.verbose:
        # said before a search of seconds or more (the result line says it in any case)
        _say(args, f"search: {what} by {k}-fold CV on {idx.shape[0]} samples"
                   + (f" (a stratified subsample of {y.shape[0]})" if idx.shape[0] < y.shape[0]
                      else "") + "; -C and --gamma (or --no-search) fit exactly what you give")
    bar = _bar(args, len(Cs) * len(gammas) * k, "search", unit="fit")
    scores = np.full((len(gammas), len(Cs)), np.nan)
    stopped = 0
    try:
        for gi, g in enumerate(gammas):
            for ci, C in enumerate(Cs):
                acc = []
                for tr, te in folds:
                    est = clone(template).set_params(**{c_name: C})
                    if g is not None:
                        est.set_params(**{g_name: g})
                    with warnings.catch_warnings(record=True) as caught:
                        warnings.simplefilter("always", ConvergenceWarning)
                        acc.append(fold_score(est, Xs, ys, tr, te, precomputed))
                    stopped += any(issubclass(w.category, ConvergenceWarning) for w in caught)
                    if bar is not None:
                        bar.update(1)
                scores[gi, ci] = float(np.mean(acc))
    finally:
        if bar is not None:
            bar.close()
    # the best mean accuracy; ties to the smaller C (the simpler model), then to the gamma
    # nearest the default rule
    order = sorted((-scores[gi, ci], ci, abs(gi - len(gammas) // 2), gi)
                    for gi in range(len(gammas)) for ci in range(len(Cs)))
    _, ci, _, gi = order[0]
    out = {"C": Cs[ci], "gamma": gammas[gi], "gamma_rule": g0, "cv_accuracy":
           float(scores[gi, ci]), "folds": k, "samples": int(idx.shape[0]),
           "points": len(Cs) * len(gammas), "seconds": time.perf_counter() - t0,
           "searched": [p for p, on in (("C", want_C), ("gamma", want_gamma)) if on],
           "stopped_fits": stopped, "edge": []}
    if want_C and ci in (0, len(Cs) - 1):
        out["edge"].append(f"C = {Cs[ci]:g}")
    if want_gamma and gi in (0, len(gammas) - 1):
        out["edge"].append(f"gamma = {gammas[gi]:.4g}")
    args.C = Cs[ci]
    if want_gamma:
        args.gamma = gammas[gi]
        args.explicit = list(getattr(args, "explicit", [])) + ["--gamma"]
    return out


def describe(result: dict) -> str:
    """One line for people: what the search chose, from what, and how long it took."""
    chosen = [f"C = {result['C']:g}"] if "C" in result["searched"] else []
    if "gamma" in result["searched"]:
        ratio = result["gamma"] / result["gamma_rule"]
        factor = f"{ratio:g}" if ratio >= 1 else f"1/{1 / ratio:g}"
        chosen.append(f"gamma = {result['gamma']:.6g} (the default rule x {factor})")
    text = (f"search      {', '.join(chosen)}: {result['folds']}-fold CV accuracy "
            f"{100 * result['cv_accuracy']:.2f} % over {result['points']} grid points on "
            f"{result.get('on') or str(result['samples']) + ' samples'}, "
            f"{result['seconds']:.1f} s")
    if result["edge"]:
        text += (f"; {' and '.join(result['edge'])} is at the edge of the grid: give -C / "
                 "--gamma to look further")
    return text


#: fit --metric without -C / --gamma: C and gamma are searched on the exact distance kernel
#: of a stratified subsample of at most this many objects (all their distances, one block)
SEARCH_OBJECTS = 1000


def search_objects(args, X, y) -> dict | None:
    """fit --metric without -C (or --gamma): the grid of ``fit``'s search (C, and gamma
    around the median rule) on the whole distance matrix of a stratified subsample of at
    most SEARCH_OBJECTS objects, with the model's remedy on that kernel (Krein SVM, flip or
    clip, which the landmark model approximates); the choice is then fitted on all objects.
    None when -C and --gamma are given or --no-search."""
    import copy

    from sklearn.model_selection import train_test_split

    from ..distances import pairwise_distances

    shim = copy.copy(args)
    shim.metric, shim.nystroem, shim.distances = None, None, True
    # the search's exact-kernel SVMs are the SMO's, on the CPU; --device is the landmark
    # model's, fitted after it with the choice
    shim.device = "cpu"
    shim.remedy = args.remedy or "krein"
    shim.explicit = list(getattr(args, "explicit", []))
    if args.features == "d2ke":
        # D2KE's gamma is the scale of its own features, not the distance kernel's
        shim.explicit.append("--gamma")
    want_C, want_gamma = wanted(shim, True)
    if not (want_C or want_gamma):
        return None
    n = len(y)
    idx = np.arange(n)
    if n > SEARCH_OBJECTS:
        idx, _ = train_test_split(idx, train_size=SEARCH_OBJECTS, stratify=y,
                                  random_state=args.seed)
        idx = np.sort(idx)
    sub = X[idx] if isinstance(X, np.ndarray) else [X[i] for i in idx]
    what = "series" if args.metric == "dtw" else "strings"
    t0 = time.perf_counter()
    searched = " and ".join(p for p, on in (("C", want_C), ("gamma", want_gamma)) if on)
    _say(args, f"search: {searched} on the exact {args.metric} kernel of "
               + (f"all {n} {what}" if idx.size == n else
                  f"a stratified subsample of {idx.size} of the {n} {what}")
               + " (all their distances), then the landmark model on all of them with the "
               "choice")
    params = {"window": args.window} if args.window is not None else {}
    D = pairwise_distances(sub, metric=args.metric, n_jobs=-1 if args.n_jobs is None
                           else args.n_jobs, **params)
    seconds = time.perf_counter() - t0
    result = tune(shim, D, y[idx], True)
    if result is None:
        return None
    result["seconds"] += seconds
    args.C = shim.C
    if want_gamma:
        args.gamma = shim.gamma
        args.explicit = list(getattr(args, "explicit", [])) + ["--gamma"]
    result["on"] = f"the exact {args.metric} kernel of {idx.size} {what}"
    return result
