"""Building the estimators from the options, and cross-validation (model files: see
``_modelfile``)."""

from __future__ import annotations

from . import _family
from ._args import DISTANCE_KINDS, _extra_params, metric_params
from ._errors import in_options_words
from ._options import smo_options, smo_params
from ._progress import _bar, _say
from ._rules import Refusal, refuse, refuse_untaken


def _distance_kernel(args):
    """The DistanceKernel of --distances, its parameters checked (usage errors)."""
    from ..distances import DistanceKernel

    dk = DistanceKernel(kind=DISTANCE_KINDS[args.kernel], gamma=args.gamma, coef0=args.coef0,
                        degree=args.degree)
    return _validated(dk)


def _estimator(args, precomputed: bool):
    """IndefiniteSVC (or another SVM of --svm-type); with --distances a Pipeline of
    DistanceKernel and IndefiniteSVC; with --nystroem M a NystroemSVC; with --scale (on
    features) behind a MinMaxScaler to [-1, 1], which the model file keeps."""
    est = _unscaled_estimator(args, precomputed)
    if args.scale and not precomputed and not args.distances and args.metric is None:
        from sklearn.pipeline import Pipeline
        from sklearn.preprocessing import MinMaxScaler

        # svm-scale's default range; fitted on the training part of every fold and search
        # (a remedy's pipeline of features gets it as its first step: one flat pipeline)
        steps = est.steps if hasattr(est, "steps") else [(type(est).__name__.lower(), est)]
        return Pipeline([("minmaxscaler", MinMaxScaler(feature_range=(-1, 1)))] + steps)
    return est


def _unscaled_estimator(args, precomputed: bool):
    refuse(args, _SMO_ON_THE_CPU)
    if args.metric is not None:  # series or strings: NystroemSVC(metric=)
        return model_of(args)
    if args.nystroem is not None:
        return _nystroem_estimator(args, precomputed)
    if args.remedy is not None:
        return _remedy_estimator(args, precomputed)

    smo = {"C": args.C, "tol": args.tol, "max_iter": args.max_iter,
           "random_state": args.seed, "verbose": args.verbose, "n_jobs": args.n_jobs,
           "class_weight": args.class_weight, **smo_params(args)}
    # --svm-type: IndefiniteSVC (c-svc) or another SVM of LIBSVM's family, with the options
    # it takes
    svm = _family.svm_class(args)
    smo = _family.params(args, smo)
    if args.distances:
        from sklearn.pipeline import Pipeline

        svc = _validated(svm(kernel="precomputed", **smo))
        return Pipeline([("distancekernel", _distance_kernel(args)),
                         (svm.__name__.lower(), svc)])
    if precomputed:
        return _validated(svm(kernel="precomputed", **smo))
    return _validated(svm(kernel=args.kernel, gamma=args.gamma, coef0=args.coef0,
                          degree=args.degree, kernel_params=_extra_params(args), **smo))


def _remedy_estimator(args, precomputed: bool):
    """fit --remedy R on a whole kernel, on distances or on features: the method of the
    remedy table (the fix, then IndefiniteSVC; or KreinSVC), behind a DistanceKernel with
    --distances, a FeatureKernel on features (the Krein SVM computes its kernel itself)."""
    from sklearn.pipeline import Pipeline

    from ..remedies import KreinSVC
    from ._args import REMEDIES

    method = REMEDIES[args.remedy]
    distances = bool(args.distances)
    if method == "Krein SVM":
        # (the fixed kernels' IndefiniteSVC takes every SMO option: _fixed_svm)
        refuse_untaken(args, KreinSVC().get_params(), smo_options(), lambda row: (
            f"{row.name} does not apply to --remedy {args.remedy}: the Krein SVM's own solver "
            f"does not take it; drop {row.name}."))
    if not precomputed and not distances:
        if method != "Krein SVM":
            # the fix of the training kernel, computed from the features by FeatureKernel,
            # which also turns new features into kernel rows for predict
            return Pipeline([("featurekernel", feature_kernel(args))]
                            + _fixed_svm(args, method).steps)
        clf = KreinSVC(kernel=args.kernel, C=args.C, gamma=args.gamma, coef0=args.coef0,
                       degree=args.degree, kernel_params=_extra_params(args), tol=args.tol,
                       max_iter=args.max_iter, cache_size=args.cache_size,
                       class_weight=args.class_weight)
        _validated(clf)
        return clf
    est = _fixed_svm(args, method)
    if not distances:
        return est if len(est.steps) > 1 else est.steps[0][1]
    return Pipeline([("distancekernel", _distance_kernel(args))] + est.steps)


def feature_kernel(args):
    """The FeatureKernel of the kernel options (fit --remedy on features; compare --search
    --save on features puts it in front of the chosen model)."""
    from .._feature_kernel import FeatureKernel

    return _validated(FeatureKernel(args.kernel, gamma=args.gamma, coef0=args.coef0,
                                    degree=args.degree,
                                    kernel_params=_extra_params(args) or None))


def _fixed_svm(args, method: str):
    """The remedy table's estimator of ``method`` on a precomputed kernel (the fix, then
    the SVM; or KreinSVC), with the SMO's options, as a Pipeline of its steps."""
    from sklearn.pipeline import Pipeline

    from ..remedies._methods import svm_estimator
    from ..svm import IndefiniteSVC

    est = svm_estimator(method, {"C": args.C}, args.class_weight)
    svc = est.steps[-1][1] if isinstance(est, Pipeline) else est
    svc.set_params(tol=args.tol, max_iter=args.max_iter, cache_size=args.cache_size)
    if isinstance(svc, IndefiniteSVC):
        svc.set_params(random_state=args.seed, verbose=args.verbose, n_jobs=args.n_jobs,
                       **smo_params(args))
    _validated(svc)
    return est if isinstance(est, Pipeline) else Pipeline([("svm", est)])


#: --nystroem M against what its landmarks are drawn from (``n`` ``things`` of ``where``,
#: the training part ``fold`` of a CV fold, ``search_fold`` of a fold of the search)
_LANDMARKS = (
    Refusal(lambda v: v.nystroem > v.n,
            "--nystroem {nystroem} is more than the {n} {things}{where}; give at most {n} "
            "landmarks (all of them: the exact kernel)."),
    Refusal(lambda v: v.nystroem > v.fold,
            "--nystroem {nystroem} is more than the {fold} training {things} of a CV fold; "
            "give fewer landmarks or --cv 0."),
    Refusal(lambda v: v.search_fold is not None and v.nystroem > v.search_fold,
            "--nystroem {nystroem} is more than the {search_fold} training {things} of a fold "
            "of the search of C and gamma; give fewer landmarks, or -C and --gamma (or "
            "--no-search) to fit without the search."),
)


def check_landmark_count(args, n: int, things: str = "samples", *, where: str = "",
                         folds: int | None = None, search_fold: int | None = None) -> None:
    """--nystroem M against what its landmarks are drawn from, said before the search and
    the fit: the ``n`` ``things`` (``where``: of FILE), the training part of one of
    ``folds`` (default --cv), and ``search_fold``, the training part of a fold of the
    search of C and gamma."""
    folds = args.cv if folds is None else folds
    refuse(args, _LANDMARKS, n=n, things=things, where=where, search_fold=search_fold,
           fold=n - -(-n // folds) if folds > 1 else n)


def _validated(est):
    """``est``, its parameters checked as fit checks them -- scikit-learn's constraints, then
    its own cross-parameter rules (``_constraints.check_settings``) -- before any data are
    read: a usage error (exit 2) in the options' spelling."""
    from .._constraints import check_settings
    with in_options_words(rules=True):  # scikit-learn's constraints' too
        check_settings(est)
    return est


def model_of(args):
    """fit FILE --metric: NystroemSVC on the distances of series or strings."""
    from ..nystroem import NystroemSVC

    kind = {"poly": "polynomial"}.get(args.kernel, args.kernel)
    params = metric_params(args)
    gamma = args.gamma if args.gamma not in ("scale", "auto", "median") else None
    return NystroemSVC(
        kind, metric=args.metric, metric_params=params, n_components=args.nystroem,
        features=args.features, remedy=args.remedy or "krein", C=args.C, gamma=gamma,
        coef0=args.coef0, degree=args.degree, landmarks=args.landmarks, tol=args.tol,
        max_iter=args.max_iter, random_state=args.seed,
        n_jobs=-1 if args.n_jobs is None else args.n_jobs,
        class_weight=args.class_weight, **_device(args))


#: the SMO's estimators are trained on the CPU
_SMO_ON_THE_CPU = (
    Refusal(lambda s: s.device == "cuda" and s.metric is None and s.nystroem is None,
            "--device cuda trains the landmark models on the GPU (--nystroem M, or --metric "
            "for series and strings); the SMO runs on the CPU: add --nystroem M or drop "
            "--device."),
)


def _nystroem_remedy(remedy: str) -> bool:
    from ._args import NYSTROEM_REMEDIES

    return remedy in NYSTROEM_REMEDIES


#: fit --nystroem M: features, a kernel they compute by name, a remedy of Krein features
_NYSTROEM = (
    Refusal(lambda s: s.distances or s.precomputed,
            "--nystroem computes kernel values against landmarks from features; it cannot use "
            "a precomputed kernel or distance matrix. Give a feature file (LIBSVM, CSV or .npy "
            "without --labels), or drop --nystroem."),
    Refusal(lambda s: s.kernel == "pseudo_euclidean",
            "--nystroem takes the kernels computed from features by name; pseudo_euclidean is "
            "not one of them: give another --kernel, or drop --nystroem."),
    Refusal(lambda s: not _nystroem_remedy(s.remedy),
            "--nystroem trains on Krein-space features with --remedy krein, flip or clip; "
            "--remedy {remedy} fixes a whole kernel: drop --nystroem and give the kernel (or "
            "--distances), or choose one of those three."),
)


def _nystroem_estimator(args, precomputed: bool):
    """fit --nystroem M: NystroemSVC on the data's features."""
    from ..remedies import NystroemSVC

    refuse(args, _NYSTROEM[:1], precomputed=precomputed)
    refuse_smo_options(args, "--nystroem")
    if args.remedy is None:
        args.remedy = "krein"
    refuse(args, _NYSTROEM[1:])
    clf = NystroemSVC(
        kernel=args.kernel, n_components=args.nystroem, remedy=args.remedy, C=args.C,
        gamma=args.gamma, coef0=args.coef0, degree=args.degree,
        kernel_params=_extra_params(args), landmarks=args.landmarks, tol=args.tol,
        max_iter=args.max_iter, random_state=args.seed, verbose=args.verbose,
        n_jobs=args.n_jobs, class_weight=args.class_weight,
        **_device(args))
    return _validated(clf)


def _device(args) -> dict:
    """device="cuda" for a landmark model when --device cuda (the CPU's models keep the
    default, so their files are what they were)."""
    if args.device != "cuda":
        return {}
    from .._device import resolve_device

    resolve_device("cuda")  # no CuPy, no GPU: said now, before any work
    return {"device": "cuda"}


#: above this many samples the cross-validation after a fit runs on a stratified subsample of
#: this size (said, with its estimated time, before it starts): five fits of 10^5 series
#: would cost five times the fit itself
CV_MAX = 10_000


def _cross_validate(args, X, y, precomputed, fit_seconds: float | None = None, said=()):
    """Accuracy of ``args.cv`` stratified folds (a regression's R^2 of plain folds): on all
    samples up to CV_MAX, above on a stratified subsample of CV_MAX (said); the time it
    should take is said first when the fit's time gives it. A fold's warning whose text is
    among ``said`` (the fit's, printed after) is not said again."""
    from .._tuning import cv_scores, folds_of, quiet, subsample, take

    n = len(y)
    # a regression's targets are numbers, not classes: its folds are plain
    classes = not _family.regression(args)
    idx = subsample(y, CV_MAX, args.seed, stratify=classes)
    if idx.shape[0] < n:
        X, y = take(X, idx, precomputed), y[idx]
    m = len(y)
    folds = folds_of(y, args.cv, args.seed, classes=classes)
    # the fits scale about linearly with their samples (the landmark models exactly; the
    # SMO at least), and a landmark model's predictions cost its distances too: each of the
    # k folds costs about the fit's time per sample times m
    cost = ("" if fit_seconds is None else
            f", about {fit_seconds * args.cv * m / n:.0f} s")
    _say(args, f"{args.cv}-fold cross-validation"
               + ("" if m == n else f" on a {'stratified ' if classes else ''}subsample of "
                  f"{m} of the {n} samples")
               + f"{cost} (--cv 0 skips it)")
    template = quiet(_estimator(args, precomputed))
    smallest = min(len(train) for train, _ in folds)
    if hasattr(_svc(template), "n_components") and args.nystroem > smallest:
        if not args.landmarks_default:
            refuse(args, _LANDMARKS[1:2], fold=smallest, things="samples")
        # the default rule, min(n, LANDMARKS), applied to each fold's training part: all
        # of its objects (the exact kernel), as the model on all n has all of them
        _svc(template).set_params(n_components=smallest)
        _say(args, f"cross-validation: {smallest} landmarks a fold, the training objects of "
                   f"the smallest fold (the model on all {n} has all of its objects; "
                   "--nystroem M sets a number)")
    bar = _bar(args, len(folds), "cross-validation")

    def on_fold(k, score, seconds):
        if bar is not None:
            bar.update(1)
        else:
            # no terminal for a bar (a log file, a pipe): one line a fold, as it ends
            _say(args, f"fold {k} of {len(folds)}: "
                       + (f"accuracy {100 * score:.2f} %" if classes else f"R^2 {score:.4f}")
                       + f" ({seconds:.1f} s)")
    try:
        scores, stopped = cv_scores(template, X, y, folds, precomputed, on_fold=on_fold,
                                    said=said)
    finally:
        if bar is not None:
            bar.close()
    if stopped:
        _say(args, f"{stopped} of the {len(folds)} cross-validation fits stopped at --max-iter "
                   "before tol: the CV accuracy is of unfinished models")
    return scores


def _svc(model):
    """The SVM of a model (the last step of a distance pipeline)."""
    return model[-1] if hasattr(model, "steps") else model


def _fitted_params(model) -> dict:
    """Kernel parameters as fitted: the SVM's, or the distance or feature kernel's (gamma
    resolved)."""
    from ..distances import DistanceKernel

    if hasattr(model, "steps") and isinstance(model[0], DistanceKernel):
        dk = model[0]
        out = {"distances": True, "kind": dk.kind}
        if dk.gamma_ is not None:
            out["gamma"] = dk.gamma_
        if dk.kind == "polynomial":
            out.update(coef0=dk.coef0, degree=dk.degree)
        return out
    from .._feature_kernel import FeatureKernel

    for _, step in getattr(model, "steps", []):
        if isinstance(step, FeatureKernel):  # --remedy on features: the fix's kernel
            return dict(step.kernel_params_)
    return dict(_svc(model).kernel_params_)


def refuse_smo_options(args, flag: str) -> None:
    """The SMO's options, given with landmark features (``--nystroem``, ``--metric``), are
    refused: the linear SVM on the features has none of them."""
    refuse_untaken(args, (), smo_options(), lambda row: (
        f"{row.name} is an option of the SMO solver; {flag} trains a linear SVM on the "
        f"features by coordinate descent: drop {row.name}."))

