"""Model files: the types a file of ``indefsvm fit --save`` may hold, what a loaded model
predicts from, and the checks of a loaded model (a crafted file must not predict in
silence) -- :func:`load_model` for Python, the same checks the command line applies
(private module; ``indefsvm.load_model`` is public)."""

from __future__ import annotations

import os

import numpy as np

from .exceptions import DataFileError

__all__ = ["TRUSTED_TYPES", "load_model", "model_input"]

#: the metrics of series and strings a model file may hold (those of the command line)
OBJECT_METRICS = ("dtw", "levenshtein")

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
    # fit FILE --metric dtw|levenshtein --nystroem M [--features d2ke]: the kernel of the
    # distances, or the random objects' features
    "indefsvm.distances._random.RandomDistanceFeatures",
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


def model_input(model) -> tuple[bool, bool, int | None]:
    """What a saved model predicts from: ``(distances, precomputed, n_train)`` -- distances to
    the training objects, kernel rows ``k(x, x_train)``, or features (``n_train`` None)."""
    from .distances import DistanceKernel

    first = model.steps[0][1] if hasattr(model, "steps") else model
    if isinstance(first, DistanceKernel):
        return True, True, int(first.n_fit_)
    if type(first).__name__ in _FIX_TYPES:
        return False, True, int(first.n_train_)
    if getattr(first, "kernel", None) == "precomputed":
        n = getattr(first, "n_train_", None)
        return False, True, int(n if n is not None else first.shape_fit_[0])
    return False, False, None


def _check_path(path: str) -> None:
    import os

    if not os.path.exists(path):
        raise DataFileError(path, None, "no such model file; check the path.")
    if os.path.isdir(path):
        raise DataFileError(path, None, "is a directory; give a model file.")


def load_model(path):
    """Load a model file written by ``indefsvm fit --save`` (or ``compare --search --save``),
    with the checks the command line applies.

    The file is a skops file: it loads without running code, and only indefsvm's own types
    are accepted from it. Before anything is unpacked its sizes are checked against memory
    (and its schema against an inflated size); after loading, the model must be one that
    ``fit --save`` writes -- fitted, finite coefficients, support indices in range,
    one-vs-one pairs matching its classes, a known kernel or metric, consistent shapes of
    landmarks, normalisation and weights. A crafted or damaged file raises instead of
    predicting in silence.

    Parameters
    ----------
    path : str or path-like

    Returns
    -------
    estimator
        ``IndefiniteSVC`` (or another of the family), a ``Pipeline`` ending in one,
        ``KreinSVC`` or ``NystroemSVC``, as the command line saved it.

    Raises
    ------
    DataFileError
        The file is missing, not a model of indefsvm, or fails a check (the message names
        the file and what is wrong).

    Examples
    --------
    >>> import indefsvm as isvm
    >>> from indefsvm.cli import main
    >>> import tempfile, os
    >>> path = os.path.join(tempfile.mkdtemp(), "heart.skops")
    >>> main(["fit", "--dataset", "heart", "-C", "1", "--gamma", "0.1", "--cv", "0",
    ...       "--quiet", "--save", path])
    0
    >>> model = isvm.load_model(path)
    >>> type(model).__name__
    'IndefiniteSVC'
    """
    return _load_model(os.fspath(path))


def _load_model(path: str):
    import skops.io as sio

    _check_path(path)
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


#: a model's schema.json above this many bytes is looked at twice: refused when it also
#: packs more than SCHEMA_RATIO times (real schemas, ~10-500 KB, pack 3-10 times), or is
#: over 64 times this size
SCHEMA_MAX = 4 * 2**20
SCHEMA_RATIO = 50


def _check_archive(path: str) -> None:
    """Before anything is unpacked: a model file is a zip of arrays; what the file says of
    their sizes must fit in memory and be believable (a few MB of zeros can unpack to GB),
    and every array's header must agree with its size."""
    import zipfile

    from ._validation import available_memory

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
            if info.filename == "schema.json" and info.file_size > SCHEMA_MAX and (
                    info.file_size > 64 * SCHEMA_MAX
                    or info.file_size > SCHEMA_RATIO * max(info.compress_size, 1)):
                # JSON text parses to ~5-20 times its size in Python objects: a small file
                # that unpacks to a large schema would take GBs before any check
                raise DataFileError(path, None, f"holds a schema of {info.file_size / 2**20:.1f} "
                                    f"MB (packed {info.compress_size / 2**10:.0f} KB); a model "
                                    "of 'indefsvm fit --save' describes its arrays in far "
                                    "less. Refused before reading it: fit the model again.")
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
    from .distances import DistanceKernel
    from .kernels import KERNELS, canonical_name
    from .svm import IndefiniteSVC

    def bad(what):
        raise DataFileError(path, None, f"{what}; it was not written by 'indefsvm fit --save' "
                            "(or was changed since): fit the model again.")

    from .remedies import KreinNystroem, NystroemSVC

    if type(model) is NystroemSVC:
        if getattr(model, "metric", None) is not None:
            _check_objects_model(model, bad)
        else:
            _check_nystroem_model(model, bad, KreinNystroem)
        return
    from .remedies import KreinSVC

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
    from .kernels import KERNELS, canonical_name

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
    from .distances._kernel import KINDS

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
    from .kernels import KERNELS, canonical_name

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


def _check_objects_model(model, bad) -> None:
    """A loaded NystroemSVC of objects: fitted, a metric of the command line, finite arrays
    of consistent shapes, a distance kernel of a known kind with a finite positive gamma,
    landmarks the metric compares."""
    from .distances import DistanceKernel, RandomDistanceFeatures
    from .nystroem import KreinNystroem

    if not isinstance(model.metric, str) or model.metric not in OBJECT_METRICS:
        bad(f"compares objects with {model.metric!r}, not a metric of the command line")
    ny = getattr(model, "nystroem_", None)
    if not hasattr(model, "coef_") or type(ny) not in (KreinNystroem, RandomDistanceFeatures):
        bad("holds a NystroemSVC that was never fitted")
    n_classes = len(model.classes_)
    n_pairs = n_classes * (n_classes - 1) // 2
    used = getattr(model, "n_features_used_", None)
    if isinstance(used, bool) or not isinstance(used, (int, np.integer)) or used < 1:
        bad("has no count of the features it uses")
    coef = np.asarray(model.coef_, dtype=float)
    if coef.shape != (n_pairs, used) or not np.all(np.isfinite(coef)):
        bad("has weights of the wrong shape, NaN or infinite")
    intercept = np.asarray(model.intercept_, dtype=float)
    if intercept.shape != (n_pairs,) or not np.all(np.isfinite(intercept)):
        bad("has intercept values of the wrong shape, NaN or infinite")
    metric_ = np.asarray(getattr(model, "metric_", np.ones(used)), dtype=float)
    if metric_.shape != (used,) or not np.all(np.abs(metric_) == 1.0):
        bad("has a feature metric that is not +1 / -1 per feature")
    objs = ny.components_ if type(ny) is KreinNystroem else ny.random_objects_
    n_obj = len(objs)
    if type(ny) is KreinNystroem:
        N = np.asarray(ny.normalization_, dtype=float)
        if (type(ny.distance_kernel_) is not DistanceKernel or N.ndim != 2
                or N.shape[0] != n_obj or N.shape[1] < used or not np.all(np.isfinite(N))):
            bad("has landmarks and features of inconsistent shapes")
        # its kind, a finite gamma > 0 where the kind has one, finite origin terms
        _check_distance_kernel(ny.distance_kernel_, bad)
    else:
        if not (np.isfinite(ny.gamma_) and ny.gamma_ > 0 and np.isfinite(ny.scale_)):
            bad("has a gamma or a scale that is not a finite number (gamma > 0)")
        if used > n_obj:
            bad("uses more features than it has random objects")
    for k, o in enumerate(objs):
        ok = isinstance(o, str) if model.metric == "levenshtein" else (
            isinstance(o, np.ndarray) and o.dtype.kind == "f" and np.all(np.isfinite(o)))
        if not ok:
            bad(f"has a landmark {k} that {model.metric} cannot compare")

