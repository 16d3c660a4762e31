"""Building the estimators from the options, cross-validation, and model files (save and
check on load)."""

from __future__ import annotations

import time
import warnings

import numpy as np

from ..exceptions import DataFileError
from ._args import DISTANCE_KINDS, _extra_params
from ._errors import EXIT_USAGE, CLIError, _cli_wording
from ._io import _check_path
from ._progress import _bar, _say

#: model files are skops files: they load without running arbitrary code, and only the
#: types listed here are accepted from them
TRUSTED_TYPES = (
    "indefsvm.svm._classes.IndefiniteSVC",
    "indefsvm.svm._classes.IndefiniteNuSVC",
    "indefsvm.svm._classes.IndefiniteSVR",
    "indefsvm.svm._classes.IndefiniteOneClassSVM",
    "indefsvm.solvers._result.SolverResult",
    # a model trained on distances: DistanceKernel, then IndefiniteSVC
    "indefsvm.distances._kernel.DistanceKernel",
    "sklearn.pipeline.Pipeline",
    # fit --nystroem M: NystroemSVC and its features, in their wing
    "indefsvm.nystroem._svc.NystroemSVC",
    "indefsvm.nystroem._features.KreinNystroem",
    # the same as model files of 0.1.0 name them (old modules kept as re-exports; tested with
    # the committed files of tests/data/models_0.1.0)
    "indefsvm.remedies._nystroem_svc.NystroemSVC",
    "indefsvm.remedies._nystroem.KreinNystroem",
    # fit --remedy on a whole kernel (and compare --search --save): the fix, then the SVM;
    # the Krein SVM
    "indefsvm.remedies._spectrum_fix.ClipEigenvalues",
    "indefsvm.remedies._spectrum_fix.FlipEigenvalues",
    "indefsvm.remedies._spectrum_fix.ShiftEigenvalues",
    "indefsvm.remedies._spectrum_fix.AdvancedShiftEigenvalues",
    "indefsvm.remedies._spectrum_fix.SquareKernel",
    "indefsvm.remedies._krein.KreinSVC",
)

#: the kernel fixes a model file may hold in front of its SVM
_FIX_TYPES = ("ClipEigenvalues", "FlipEigenvalues", "ShiftEigenvalues",
              "AdvancedShiftEigenvalues", "SquareKernel")


def _distance_kernel(args):
    """The DistanceKernel of --distances, its parameters checked (usage errors)."""
    from ..distances import DistanceKernel

    dk = DistanceKernel(kind=DISTANCE_KINDS[args.kernel], gamma=args.gamma, coef0=args.coef0,
                        degree=args.degree)
    try:
        dk._check_params()
    except ValueError as exc:
        raise CLIError(str(exc).replace("gamma ", "--gamma ", 1).replace("degree ", "--degree ",
                                                                           1), EXIT_USAGE) from None
    return dk


def _estimator(args, precomputed: bool):
    """IndefiniteSVC; with --distances a Pipeline of DistanceKernel and IndefiniteSVC; with
    --nystroem M a NystroemSVC."""
    from ..svm import IndefiniteSVC

    if getattr(args, "nystroem", None) is not None:
        return _nystroem_estimator(args, precomputed)
    if getattr(args, "remedy", None) is not None:
        return _remedy_estimator(args, precomputed)

    if getattr(args, "distances", False):
        from sklearn.pipeline import Pipeline

        svc = IndefiniteSVC(
            kernel="precomputed", C=args.C, tol=args.tol, max_iter=args.max_iter,
            cache_size=args.cache_size, wss=args.wss, init=args.init,
            shrinking=not args.no_shrinking, n_restarts=args.restarts, random_state=args.seed,
            verbose=args.verbose)
        _check_estimator_params(svc)
        return Pipeline([("distancekernel", _distance_kernel(args)), ("indefinitesvc", svc)])

    if args.kernel == "pseudo_euclidean" and args.pe_p is None and not precomputed:
        raise CLIError("--kernel pseudo_euclidean needs --p (its positive dimensions).",
                       EXIT_USAGE)
    kernel_params = None if precomputed else _extra_params(args)
    clf = IndefiniteSVC(
        kernel="precomputed" if precomputed else args.kernel, C=args.C, gamma=args.gamma,
        coef0=args.coef0, degree=args.degree, tol=args.tol, max_iter=args.max_iter,
        cache_size=args.cache_size, wss=args.wss, init=args.init,
        shrinking=not args.no_shrinking, n_restarts=args.restarts, random_state=args.seed,
        kernel_params=kernel_params, verbose=args.verbose)
    _check_estimator_params(clf)
    return clf


def _remedy_estimator(args, precomputed: bool):
    """fit --remedy R on a whole kernel or on distances: the method of the remedy table (the
    fix, then IndefiniteSVC; or KreinSVC), behind a DistanceKernel with --distances."""
    from sklearn.pipeline import Pipeline

    from ..remedies import KreinSVC
    from ..remedies._methods import svm_estimator
    from ..svm import IndefiniteSVC
    from ._args import REMEDIES

    method = REMEDIES[args.remedy]
    distances = bool(getattr(args, "distances", False))
    for option, value, default in (("--restarts", args.restarts, 0),
                                   ("--no-shrinking", args.no_shrinking, False),
                                   ("--init", args.init, "zero"),
                                   ("--wss", args.wss, "second_order")):
        if value != default:
            raise CLIError(f"{option} is not an option of --remedy {args.remedy} (the fixed "
                           f"kernel is trained with the default SMO): drop {option}.",
                           EXIT_USAGE)
    if not precomputed and not distances:
        if method != "Krein SVM":
            raise CLIError(
                f"--remedy {args.remedy} fixes the spectrum of a whole kernel matrix: give the "
                "kernel (a square .npy or CSV FILE with --labels; numpy.save('K.npy', "
                f"indefsvm.kernel_matrix(X, kernel='{args.kernel}', ...)) writes one), or "
                "distances with --distances, or train on these features with --nystroem M "
                "--remedy clip|flip|krein.", EXIT_USAGE)
        if args.kernel == "pseudo_euclidean" and args.pe_p is None:
            raise CLIError("--kernel pseudo_euclidean needs --p (its positive dimensions).",
                           EXIT_USAGE)
        clf = KreinSVC(kernel=args.kernel, C=args.C, gamma=args.gamma, coef0=args.coef0,
                       degree=args.degree, kernel_params=_extra_params(args), tol=args.tol,
                       max_iter=args.max_iter, cache_size=args.cache_size)
        _check_params(clf)
        return clf
    est = svm_estimator(method, {"C": args.C})
    svc = est.steps[-1][1] if isinstance(est, Pipeline) else est
    svc.set_params(tol=args.tol, max_iter=args.max_iter, cache_size=args.cache_size)
    if isinstance(svc, IndefiniteSVC):
        svc.set_params(random_state=args.seed, verbose=args.verbose)
    _check_params(svc)
    if not distances:
        return est
    steps = est.steps if isinstance(est, Pipeline) else [("svm", est)]
    return Pipeline([("distancekernel", _distance_kernel(args))] + steps)


def _check_params(est) -> None:
    from sklearn.utils._param_validation import InvalidParameterError

    try:
        est._validate_params()
    except (InvalidParameterError, ValueError) as exc:
        raise CLIError(_cli_wording(str(exc)), EXIT_USAGE) from None


def model_input(model) -> tuple[bool, bool, int | None]:
    """What a saved model predicts from: ``(distances, precomputed, n_train)`` -- distances to
    the training objects, kernel rows ``k(x, x_train)``, or features (``n_train`` None)."""
    from ..distances import DistanceKernel

    first = model.steps[0][1] if hasattr(model, "steps") else model
    if isinstance(first, DistanceKernel):
        return True, True, int(first.n_fit_)
    if type(first).__name__ in _FIX_TYPES:
        return False, True, int(first.n_train_)
    if getattr(first, "kernel", None) == "precomputed":
        n = getattr(first, "n_train_", None)
        return False, True, int(n if n is not None else first.shape_fit_[0])
    return False, False, None


def _nystroem_estimator(args, precomputed: bool):
    """fit --nystroem M: NystroemSVC on the data's features."""
    from ..remedies import NystroemSVC

    if args.distances or precomputed:
        raise CLIError("--nystroem computes kernel values against landmarks from features; "
                       "it cannot use a precomputed kernel or distance matrix. Give a "
                       "feature file (LIBSVM, CSV or .npy without --labels), or drop "
                       "--nystroem.", EXIT_USAGE)
    if args.nystroem < 1:
        raise CLIError(f"--nystroem takes the number of landmarks, at least 1; got "
                       f"{args.nystroem}.", EXIT_USAGE)
    for option, value, default in (("--restarts", args.restarts, 0),
                                   ("--cache-size", args.cache_size, 200.0),
                                   ("--no-shrinking", args.no_shrinking, False),
                                   ("--init", args.init, "zero"),
                                   ("--wss", args.wss, "second_order")):
        if value != default:
            raise CLIError(f"{option} is an option of the SMO solver; --nystroem trains a "
                           "linear SVM on the features by coordinate descent: drop "
                           f"{option}.", EXIT_USAGE)
    if args.kernel in ("pseudo_euclidean",):
        raise CLIError("--nystroem takes the kernels computed from features by name; "
                       "pseudo_euclidean is not one of them.", EXIT_USAGE)
    if args.remedy is None:
        args.remedy = "krein"
    from ._args import NYSTROEM_REMEDIES

    if args.remedy not in NYSTROEM_REMEDIES:
        raise CLIError(f"--nystroem trains on Krein-space features with --remedy krein, flip "
                       f"or clip; --remedy {args.remedy} fixes a whole kernel: drop --nystroem "
                       "and give the kernel (or --distances), or choose one of those three.",
                       EXIT_USAGE)
    clf = NystroemSVC(
        kernel=args.kernel, n_components=args.nystroem, remedy=args.remedy, C=args.C,
        gamma=args.gamma, coef0=args.coef0, degree=args.degree,
        kernel_params=_extra_params(args), tol=args.tol,
        max_iter=args.max_iter, random_state=args.seed, verbose=args.verbose)
    try:
        clf._check_settings()
    except ValueError as exc:
        raise CLIError(_cli_wording(str(exc)), EXIT_USAGE) from None
    return clf


def _check_estimator_params(clf) -> None:
    """The estimator's own parameter checks, before any data are read: exit status 2."""
    from sklearn.utils._param_validation import InvalidParameterError

    try:
        clf._validate_params()
        clf._check_kernel_settings()
    except (InvalidParameterError, ValueError) as exc:
        raise CLIError(_cli_wording(str(exc)), EXIT_USAGE) from None


def _cross_validate(args, X, y, precomputed):
    from sklearn.base import clone
    from sklearn.model_selection import StratifiedKFold

    from ..exceptions import ConvergenceWarning

    folds = list(StratifiedKFold(n_splits=args.cv, shuffle=True,
                                 random_state=args.seed).split(X, y))
    _say(args, f"{args.cv}-fold cross-validation (--cv 0 skips it)")
    bar = _bar(args, len(folds), "cross-validation")
    scores = []
    template = _estimator(args, precomputed)
    # quiet folds: every verbose of the model (its SVM's, inside a pipeline) off
    template.set_params(**{k: False for k, v in template.get_params().items()
                           if k.split("__")[-1] == "verbose" and v is not False})
    if hasattr(template, "n_components") and args.nystroem > min(
            len(train) for train, _ in folds):
        raise CLIError(f"--nystroem {args.nystroem} is more than the "
                       f"{min(len(t) for t, _ in folds)} training samples of a CV fold; "
                       "give fewer landmarks or --cv 0.", EXIT_USAGE)
    try:
        for k, (train, test) in enumerate(folds, 1):
            est = clone(template)
            t0 = time.perf_counter()
            with warnings.catch_warnings():
                warnings.simplefilter("ignore", ConvergenceWarning)
                if precomputed:
                    est.fit(X[np.ix_(train, train)], y[train])
                    scores.append(est.score(X[np.ix_(test, train)], y[test]))
                else:
                    est.fit(X[train], y[train])
                    scores.append(est.score(X[test], y[test]))
            if bar is not None:
                bar.update(1)
            else:
                # no terminal for a bar (a log file, a pipe): one line a fold, as it ends
                _say(args, f"fold {k} of {len(folds)}: accuracy {100 * scores[-1]:.2f} % "
                     f"({time.perf_counter() - t0:.1f} s)")
    finally:
        if bar is not None:
            bar.close()
    return np.array(scores)


def _svc(model):
    """The SVM of a model (the last step of a distance pipeline)."""
    return model[-1] if hasattr(model, "steps") else model


def _fitted_params(model) -> dict:
    """Kernel parameters as fitted: the SVM's, or the distance kernel's (gamma resolved)."""
    if hasattr(model, "steps"):
        dk = model[0]
        out = {"distances": True, "kind": dk.kind}
        if dk.gamma_ is not None:
            out["gamma"] = dk.gamma_
        if dk.kind == "polynomial":
            out.update(coef0=dk.coef0, degree=dk.degree)
        return out
    return dict(model._kernel_params_fitted)


def _load_model(path: str):
    import skops.io as sio

    _check_path(path, "model file")
    _check_archive(path)
    try:
        untrusted = sio.get_untrusted_types(file=path)
    except Exception as exc:  # skops raises several kinds for a file that is not its own
        raise DataFileError(path, None, f"is not a model saved by 'indefsvm fit --save' "
                            f"({type(exc).__name__}: {exc}).") from None
    foreign = sorted(set(untrusted) - set(TRUSTED_TYPES))
    if foreign:
        raise DataFileError(path, None, f"holds types indefsvm does not load: {foreign}; only "
                            "models saved by 'indefsvm fit --save' are read.")
    try:
        model = sio.load(path, trusted=list(untrusted))
    except Exception as exc:  # a file skops lists but cannot build
        raise DataFileError(path, None, f"is not a model saved by 'indefsvm fit --save' "
                            f"({type(exc).__name__}: {exc}).") from None
    _check_model(model, path)
    return model


def _check_archive(path: str) -> None:
    """Before anything is unpacked: a model file is a zip of arrays; what the file says of
    their sizes must fit in memory and be believable (a few MB of zeros can unpack to GB),
    and every array's header must agree with its size."""
    import zipfile

    from .._validation import available_memory

    try:
        zf = zipfile.ZipFile(path)
    except (zipfile.BadZipFile, OSError):
        return  # skops says that it is not a model
    with zf:
        infos = zf.infolist()
        total = sum(i.file_size for i in infos)
        packed = sum(i.compress_size for i in infos)
        avail = available_memory()
        if (avail is not None and total > avail) or (total > 2**30 and total > 100 * packed):
            raise DataFileError(path, None, f"unpacks to {total / 2**30:.2f} GiB from "
                                f"{packed / 2**20:.1f} MB on disk; refused before loading (a "
                                "model of 'indefsvm fit --save' holds the arrays it needs, "
                                "which compress little). Fit the model again.")
        for info in infos:
            if not info.filename.endswith(".npy"):
                continue
            with zf.open(info) as fh:
                try:
                    version = np.lib.format.read_magic(fh)
                    read = (np.lib.format.read_array_header_1_0 if version == (1, 0)
                            else np.lib.format.read_array_header_2_0)
                    shape, _, dtype = read(fh)
                    head = fh.tell()
                except (ValueError, OSError):
                    raise DataFileError(path, None, f"holds an array {info.filename} whose "
                                        "header cannot be read; fit the model again.") from None
            claimed = head + int(np.prod(shape, dtype=np.float64)) * dtype.itemsize
            if dtype.hasobject or claimed != info.file_size:
                raise DataFileError(path, None, f"holds an array {info.filename} whose header "
                                    f"says {shape} {dtype} and whose size disagrees; it was "
                                    "not written by 'indefsvm fit --save' (or was changed "
                                    "since): fit the model again.")


def _check_pairs(model, bad) -> None:
    """The one-vs-one problems name classes of the model, each pair once."""
    n = len(model.classes_)
    pairs = [tuple(int(v) for v in p[:3]) for p in getattr(model, "_pairs", [])]
    want = {(a, b) for a in range(n) for b in range(a + 1, n)}
    if ({(a, b) for a, b, _ in pairs} != want or len(pairs) != len(want)
            or any(pos not in (a, b) for a, b, pos in pairs)):
        bad(f"has one-vs-one problems that do not match its {n} classes")


def _check_model(model, path: str) -> None:
    """A loaded model is one 'fit --save' writes, with sound contents: skops trusts
    scikit-learn's own types (an SVC would load and predict), and a crafted file can hold
    NaN coefficients or support indices out of range, which would predict in silence."""
    from ..distances import DistanceKernel
    from ..kernels import KERNELS, canonical_name
    from ..svm import IndefiniteSVC

    def bad(what):
        raise DataFileError(path, None, f"{what}; it was not written by 'indefsvm fit --save' "
                            "(or was changed since): fit the model again.")

    from ..remedies import KreinNystroem, NystroemSVC

    if type(model) is NystroemSVC:
        _check_nystroem_model(model, bad, KreinNystroem)
        return
    from ..remedies import KreinSVC

    svc = model
    fix = None
    if hasattr(model, "steps"):
        steps = [step for _, step in model.steps]
        # [DistanceKernel] [a fix] then IndefiniteSVC or KreinSVC (what fit writes)
        dk = steps.pop(0) if steps and isinstance(steps[0], DistanceKernel) else None
        fix = steps.pop(0) if len(steps) > 1 and type(steps[0]).__name__ in _FIX_TYPES \
            else None
        if len(steps) != 1 or not isinstance(steps[0], (IndefiniteSVC, KreinSVC)) or (
                dk is None and fix is None):
            bad("holds a pipeline other than [DistanceKernel] [a kernel fix] then "
                "IndefiniteSVC or KreinSVC")
        if dk is not None:
            if not (isinstance(getattr(dk, "n_fit_", None), int) and dk.n_fit_ > 0):
                bad("holds a distance kernel without its training size")
            _check_distance_kernel(dk, bad)
        svc = steps[0]
    if type(svc) is KreinSVC:
        _check_krein_model(svc, bad)
        if fix is not None:
            bad("holds a kernel fix in front of a Krein SVM")
        return
    if type(svc) is not IndefiniteSVC:
        bad(f"holds a {type(svc).__module__}.{type(svc).__name__}, not an IndefiniteSVC")
    if fix is not None:
        _check_fix(fix, int(svc.shape_fit_[0]), bad)
    if not hasattr(svc, "support_"):
        bad("holds a model that was never fitted")
    _check_pairs(svc, bad)
    kernel = svc.kernel
    if not isinstance(kernel, str) or (kernel != "precomputed"
                                       and canonical_name(kernel) not in KERNELS):
        bad(f"has a kernel {kernel!r} that is not a kernel name of indefsvm")
    degree = getattr(svc, "degree", 3)
    if isinstance(degree, bool) or not isinstance(degree, int) or not 0 <= degree <= 64:
        bad(f"has a polynomial degree {degree!r} outside 0 ... 64")
    n_train = int(svc.shape_fit_[0])
    support = np.asarray(svc.support_)
    if support.dtype.kind not in "iu" or (support.size and (
            support.min() < 0 or support.max() >= n_train)):
        bad(f"has support indices outside 0 ... {n_train - 1}")
    for name in ("_dual_coef_", "_intercept_", "dual_coef_", "intercept_"):
        values = getattr(svc, name, None)
        if values is not None and not np.all(np.isfinite(np.asarray(values, dtype=float))):
            bad(f"has {name.strip('_')} values that are NaN or infinite")
    sv = getattr(svc, "support_vectors_", None)
    if sv is not None and hasattr(sv, "shape") and not hasattr(sv, "tocsr") and not np.all(
            np.isfinite(np.asarray(sv, dtype=float))):
        bad("has support vectors that are NaN or infinite")


def _check_fix(fix, n_train, bad) -> None:
    """A loaded kernel fix: fitted on the SVM's training kernel, finite arrays of its size."""
    n = getattr(fix, "n_train_", None)
    if not isinstance(n, int) or n != n_train:
        bad(f"holds a kernel fix fitted on {n!r} samples, not the SVM's {n_train}")
    shapes = {"col_mean_": (n,), "projector_": (n, n), "K_fit_": (n, n)}
    for name, shape in shapes.items():
        value = getattr(fix, name, None)
        if value is None:
            continue
        arr = np.asarray(value, dtype=float)
        if arr.shape != shape or not np.all(np.isfinite(arr)):
            bad(f"holds a kernel fix whose {name.strip('_')} is not {shape} of finite numbers")
    if not isinstance(getattr(fix, "centered", None), bool):
        bad("holds a kernel fix whose 'centered' is not True or False")


def _check_krein_model(svc, bad) -> None:
    """A loaded KreinSVC: fitted, a kernel of indefsvm, finite coefficients of its size."""
    from ..kernels import KERNELS, canonical_name

    if not hasattr(svc, "beta_") or not isinstance(getattr(svc, "n_train_", None), int):
        bad("holds a Krein SVM that was never fitted")
    kernel = svc.kernel
    if not isinstance(kernel, str) or (kernel != "precomputed"
                                       and canonical_name(kernel) not in KERNELS):
        bad(f"has a kernel {kernel!r} that is not a kernel name of indefsvm")
    n_pairs = len(svc.classes_) * (len(svc.classes_) - 1) // 2
    beta = np.asarray(svc.beta_, dtype=float)
    icpt = np.asarray(svc.intercept_, dtype=float)
    if beta.shape != (n_pairs, svc.n_train_) or icpt.shape != (n_pairs,) or not (
            np.all(np.isfinite(beta)) and np.all(np.isfinite(icpt))):
        bad("has Krein SVM coefficients that are not finite or not of its size")
    if kernel != "precomputed":
        X = np.asarray(getattr(svc, "X_fit_", np.nan), dtype=float)
        if X.ndim != 2 or X.shape[0] != svc.n_train_ or not np.all(np.isfinite(X)):
            bad("has Krein SVM training data that are not finite or not of its size")


def _check_distance_kernel(dk, bad) -> None:
    """A loaded DistanceKernel: a kind of its, a finite gamma > 0 where the kind has one,
    finite origin terms."""
    from ..distances._kernel import KINDS

    if not isinstance(dk.kind, str) or dk.kind not in KINDS:
        bad(f"has a distance kernel of kind {dk.kind!r}, not one of {sorted(KINDS)}")
    g = getattr(dk, "gamma_", None)
    if KINDS[dk.kind] and not (isinstance(g, float) and np.isfinite(g) and g > 0):
        bad(f"has a distance kernel whose gamma {g!r} is not a finite number > 0")
    for name in ("origin_sq_", "sq_mean_"):
        v = getattr(dk, name, None)
        if v is not None and not np.all(np.isfinite(np.asarray(v, dtype=float))):
            bad(f"has a distance kernel whose {name.strip('_')} values are NaN or infinite")


def _check_nystroem_model(model, bad, KreinNystroem) -> None:
    """A loaded NystroemSVC: fitted, a kernel name, finite arrays of consistent shapes."""
    from ..kernels import KERNELS, canonical_name

    ny = getattr(model, "nystroem_", None)
    if type(ny) is not KreinNystroem or not hasattr(model, "coef_"):
        bad("holds a NystroemSVC that was never fitted")
    kernel = model.kernel
    if not isinstance(kernel, str) or kernel == "precomputed" or canonical_name(
            kernel) not in KERNELS:
        bad(f"has a kernel {kernel!r} that is not a kernel name of indefsvm")
    _check_pairs(model, bad)
    # the features are computed with the name and parameters the fit resolved: they must be
    # the model's own kernel, with parameters it takes, finite, and a sane degree
    params = getattr(ny, "_params", None)
    if getattr(ny, "_name", None) != canonical_name(kernel) or ny.kernel != kernel or not (
            isinstance(params, dict) and set(params) <= set(KERNELS[canonical_name(kernel)][1])):
        bad(f"computes its features with a kernel other than its own {kernel!r}")
    for name, value in params.items():
        if name == "degree":
            if isinstance(value, bool) or not isinstance(value, int) or not 0 <= value <= 64:
                bad(f"has a polynomial degree {value!r} outside 0 ... 64")
        elif not (isinstance(value, (int, float)) and np.isfinite(value)):
            bad(f"has a kernel parameter {name}={value!r} that is not a finite number")
    arrays = {name: np.asarray(getattr(owner, name, np.nan), dtype=float)
              for owner, names in ((model, ("coef_", "intercept_", "metric_")),
                                   (ny, ("components_", "normalization_", "signature_")))
              for name in names}
    for name, values in arrays.items():
        if not np.all(np.isfinite(values)):
            bad(f"has {name.strip('_')} values that are NaN or infinite")
    m, r = arrays["normalization_"].shape if arrays["normalization_"].ndim == 2 else (-1, -1)
    n_pairs = len(model.classes_) * (len(model.classes_) - 1) // 2
    if (arrays["components_"].shape != (m, model.n_features_in_)
            or arrays["signature_"].shape != (r,)
            or arrays["coef_"].shape != (n_pairs, model.n_features_used_)
            or not 0 < model.n_features_used_ <= r
            or arrays["intercept_"].shape != (n_pairs,)
            or arrays["metric_"].shape != (model.n_features_used_,)
            or not np.all(np.abs(arrays["metric_"]) == 1)):
        bad("has landmarks, features and weights of inconsistent shapes")
