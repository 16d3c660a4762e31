"""``indefsvm fit`` without ``-C`` / ``--gamma``: a small cross-validated grid picks them, as
LIBSVM's ``grid.py`` does, before the model is fitted.

The search itself is ``indefsvm._tuning`` (why not ``RemedySearchCV``: see there); this room
picks the grid from the options. For series and strings (``search_objects``) the exact kernel
of a subsample is searched with the remedy the landmark model approximates: there the models
differ, and the subsample's matrix is what makes the search affordable.
"""

from __future__ import annotations

import time

from .._metrics import objects_of
from . import _family
from ._options import option_of
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

#: a search whose first fit projects to this many seconds or more is said, with the
#: projection, before the rest of it runs (one of a thousand samples is said from the start)
ANNOUNCE_S = 5.0


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
    if args.no_search or args.svm_type == "one-class":
        # an outlier detector has no labels for a search to score
        return False, False
    return (args.C_given is False and _family.has_C(args),
            "--gamma" not in args.explicit and _takes_gamma(args, precomputed))


def _gamma0(args, X, precomputed: bool) -> float:
    """The default rule's gamma on these data: scale (features) or the median rule."""
    if args.distances:
        from ._models import _distance_kernel

        return float(_distance_kernel(args).fit(X).gamma_)
    from ._args import _kernel_params
    from ._io import scaled

    # the rule of the features the kernel sees (--scale: the scaled ones)
    return float(_kernel_params(args, scaled(args, X))["gamma"])


def _param_names(model) -> tuple[str, str]:
    """The names of C and gamma in ``model`` (a pipeline's steps prefix them: C is the
    SVM's; gamma the first step's that has one -- the distance or feature kernel in front
    of a fix, or the SVM itself behind a scaler)."""
    if hasattr(model, "steps"):
        owner = next(name for name, step in model.steps
                     if "gamma" in step.get_params(deep=False))
        return f"{model.steps[-1][0]}__C", f"{owner}__gamma"
    return "C", "gamma"


def tune(args, X, y, precomputed: bool) -> dict | None:
    """Search C and/or gamma by cross-validation (:func:`indefsvm._tuning.search_C_gamma`);
    set them on ``args``; return what was done (None when the user gave every value or
    --no-search)."""
    from .._tuning import search_C_gamma
    from ._models import _estimator

    want_C, want_gamma = wanted(args, precomputed)
    if not (want_C or want_gamma):
        return None
    t0 = time.perf_counter()
    g0 = _gamma0(args, X, precomputed) if want_gamma else None
    Cs = list(C_GRID) if want_C else [args.C if _family.has_C(args) else None]
    gammas = [g0 * f for f in GAMMA_FACTORS] if want_gamma else [None]
    what = " x ".join(p for p, on in ((f"{len(Cs)} C", want_C),
                                       (f"{len(gammas)} gamma", want_gamma)) if on)
    bars, state = [], {}

    def line(m, k, about=""):
        return (f"search: {what} by {k}-fold CV on {m} samples"
                + (f" (a {'' if _family.regression(args) else 'stratified '}"
                   f"subsample of {len(y)})" if m < len(y) else "")
                + about + "; -C and --gamma (or --no-search) fit exactly what you give")

    def start(m, k):
        total = len(Cs) * len(gammas) * k
        state.update(m=m, k=k, total=total, done=0, t=time.perf_counter(),
                     said=m >= 1000 or args.verbose)
        if state["said"]:
            # said before a search of seconds or more (the result line says it in any case)
            _say(args, line(m, k))
        bars.append(_bar(args, total, "search", unit="fit"))

    def fitted():
        state["done"] += 1
        if state["done"] == 1 and not state["said"]:
            # the first fit's time times the fits: a search of minutes (many restarts, a
            # slow kernel) is said while it runs, not only when it ends
            about = (time.perf_counter() - state["t"]) * state["total"]
            if about >= ANNOUNCE_S:
                state["said"] = True
                _say(args, line(state["m"], state["k"], f", {state['total']} fits, about "
                                                        f"{about:.0f} s"))
        if bars and bars[0] is not None:
            bars[0].update(1)

    template = _estimator(args, precomputed)
    try:
        choice = search_C_gamma(
            template, X, y, Cs=Cs, gammas=gammas, gamma_rule=g0,
            names=_param_names(template), precomputed=precomputed, folds=SEARCH_FOLDS,
            max_samples=SEARCH_MAX, random_state=args.seed, on_start=start,
            on_fit=fitted)
    finally:
        if bars and bars[0] is not None:
            bars[0].close()
    if choice is None:
        _say(args, "search: a class has one sample, so no cross-validation can choose C or "
                   "gamma; fitting the defaults (C = 1, the default gamma rule)")
        return None
    choice.seconds = time.perf_counter() - t0
    if want_C:
        args.C = choice.C
    if want_gamma:
        args.gamma = choice.gamma
        args.explicit = list(args.explicit) + ["--gamma"]
    return choice.to_dict()


def describe(result: dict) -> str:
    """One line for people: what the search chose, from what, and how long it took."""
    from .._tuning import GridChoice

    fields = dict(result)
    if "cv_r2" in fields:  # a regression's search: its score is R^2 (GridChoice.to_dict)
        fields["cv_accuracy"], fields["score"] = fields.pop("cv_r2"), "r2"
    fields.setdefault("C", None)
    return "search      " + GridChoice(**fields).said_as(lambda name: option_of(name) or name)


#: fit --metric without -C / --gamma: C and gamma are searched on the exact distance kernel
#: of a stratified subsample of at most this many objects (all their distances, one block)
SEARCH_OBJECTS = 1000


def search_objects(args, X, y) -> dict | None:
    """fit --metric without -C (or --gamma): the grid of ``fit``'s search (C, and gamma
    around the median rule) on the whole distance matrix of a stratified subsample of at
    most SEARCH_OBJECTS objects, with the model's remedy on that kernel (Krein SVM, flip or
    clip, which the landmark model approximates); the choice is then fitted on all objects.
    None when -C and --gamma are given or --no-search."""
    # the search's exact-kernel SVMs are the SMO's on the distances, on the CPU (--device is
    # the landmark model's, fitted after it with the choice); D2KE's gamma is the scale of
    # its own features, not the distance kernel's: not searched
    exact = args.replace(metric=None, nystroem=None, distances=True, device="cpu",
                         remedy=args.remedy or "krein",
                         explicit=[*args.explicit, *(["--gamma"] if args.features == "d2ke"
                                                     else [])])
    want_C, want_gamma = wanted(exact, True)
    if not (want_C or want_gamma):
        return None
    n, m = len(y), min(len(y), SEARCH_OBJECTS)
    what = objects_of(args.metric)
    searched = " and ".join(p for p, on in (("C", want_C), ("gamma", want_gamma)) if on)
    _say(args, f"search: {searched} on the exact {args.metric} kernel of "
               + (f"all {n} {what}" if m == n else
                  f"a stratified subsample of {m} of the {n} {what}")
               + " (all their distances), then the landmark model on all of them with the "
               "choice")
    from ._objects import exact_block

    D, idx, seconds = exact_block(args, X, y, SEARCH_OBJECTS)
    result = tune(exact, D, y[idx], True)
    if result is None:
        return None
    result["seconds"] += seconds
    args.C = exact.C
    if want_gamma:
        args.gamma = exact.gamma
        args.explicit = list(args.explicit) + ["--gamma"]
    result["on"] = f"the exact {args.metric} kernel of {idx.size} {what}"
    return result
