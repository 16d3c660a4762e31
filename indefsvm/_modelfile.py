"""Model files: the types a file of ``indefsvm fit --save`` may hold, what a loaded model
predicts from, and the checks of a loaded model (a crafted file must not predict in
silence) -- :func:`load_model` for Python, the same checks the command line applies
(private module; ``indefsvm.load_model`` is public)."""

from __future__ import annotations

import os

import numpy as np

from ._metrics import object_metrics
from .exceptions import DataFileError

__all__ = ["TRUSTED_TYPES", "load_model", "model_input"]

#: model files are skops files: they load without running arbitrary code, and only the
#: types listed here are accepted from them
TRUSTED_TYPES = (
    "indefsvm.svm._classes.IndefiniteSVC",
    "indefsvm.svm._classes.IndefiniteNuSVC",
    "indefsvm.svm._classes.IndefiniteSVR",
    "indefsvm.svm._classes.IndefiniteNuSVR",
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
    # compare --search --save choosing "features": the kernel rows' features, their kernel
    "indefsvm.remedies._features.SimilarityKernel",
    "indefsvm.remedies._features.SimilarityFeatures",
    # fit --scale: each feature to [-1, 1] (svm-scale) in front of the model
    "sklearn.preprocessing._data.MinMaxScaler",
    # fit --remedy R on features: their kernel in front of the fix
    "indefsvm._feature_kernel.FeatureKernel",
    # a model fitted in Python on sparse features (a LIBSVM file read by scikit-learn's
    # load_svmlight_file) keeps its support vectors or training samples CSR; skops builds
    # it from its arrays, running no code
    "scipy.sparse._csr.csr_matrix",
)

def model_input(model) -> tuple[bool, bool, int | None]:
    """What a saved model predicts from: ``(distances, precomputed, n_train)``, as the
    readers of its rows tell it (:func:`indefsvm.datasets._data_file.model_input`; imported
    on first use: ``indefsvm --help`` imports no reader)."""
    from .datasets._data_file import model_input as form

    return form(model)


def _check_path(path: str) -> None:
    import os

    if not os.path.exists(path):
        raise DataFileError(path, None, "no such model file; check the path.")
    if os.path.isdir(path):
        raise DataFileError(path, None, "is a directory; give a model file.")
    from .datasets._table import check_rereadable

    check_rereadable(path, "model file")


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
        A model file written by ``indefsvm fit --save`` or ``skops.io.dump``.

    Returns
    -------
    estimator
        ``IndefiniteSVC`` or another SVM of LIBSVM's family (``IndefiniteNuSVC``,
        ``IndefiniteSVR``, ``IndefiniteNuSVR``, ``IndefiniteOneClassSVM``: ``fit
        --svm-type``, or saved from Python with ``skops.io.dump``), a ``Pipeline`` ending in
        one, ``KreinSVC`` or ``NystroemSVC``; support vectors or training samples stay
        CSR where the model was fitted on CSR features.

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
    if not isinstance(path, (str, bytes, os.PathLike)):
        raise TypeError(f"path must be the model file's path (a str or os.PathLike); got "
                        f"{type(path).__name__}.")
    return _load_model(os.fspath(path))


def _load_model(path: str):
    import skops.io as sio

    _check_path(path)
    _check_archive(path)
    try:
        untrusted = sio.get_untrusted_types(file=path)
    except Exception as exc:  # skops raises several kinds for a file that is not its own
        hint = _libsvm_model(path)
        if hint:
            raise DataFileError(path, None, hint) from None
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


#: LIBSVM's svm_type and kernel_type words in a model file, and this command line's options
_LIBSVM_TYPES = {"c_svc": ("", "-C C", "-c"), "nu_svc": (" --svm-type nu-svc", "--nu NU", "-n"),
                 "one_class": (" --svm-type one-class", "--nu NU", "-n"),
                 "epsilon_svr": (" --svm-type epsilon-svr", "-C C --epsilon P", "-c and -p"),
                 "nu_svr": (" --svm-type nu-svr", "-C C --nu NU", "-c and -n")}
_LIBSVM_KERNELS = {"linear": ("linear", ()), "rbf": ("rbf", ("gamma",)),
                   "polynomial": ("polynomial", ("gamma", "coef0", "degree")),
                   "sigmoid": ("sigmoid", ("gamma", "coef0"))}


def _is_plain_number(text: str) -> bool:
    import re

    return re.fullmatch(r"[+-]?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?", text) is not None


def _libsvm_model(path: str) -> str | None:
    """For a model file of LIBSVM's svm-train (text: 'svm_type c_svc', 'kernel_type rbf',
    'gamma 0.5', ..., then 'SV' and the support vectors), what it is and the command that
    trains indefsvm's model of the same kind and kernel; None for any other file."""
    try:
        with open(path, "rb") as fh:
            head = fh.read(4096).decode("ascii")
    except (OSError, UnicodeDecodeError):
        return None
    header = {}
    for line in head.splitlines():
        word, _, value = line.strip().partition(" ")
        if word == "SV":
            break
        header[word] = value.strip()
    if header.get("svm_type") not in _LIBSVM_TYPES or "kernel_type" not in header:
        return None
    # a header's values are printed in a command to run: only numbers are (a crafted
    # file's '$(touch PWNED)' or terminal escapes would be printed as they are)
    header = {k: v for k, v in header.items()
              if k in ("svm_type", "kernel_type") or _is_plain_number(v)}
    kernel = header["kernel_type"]
    said = ", ".join(f"{k} {header[k]}" for k in ("svm_type", "kernel_type", "degree", "gamma",
                                                  "coef0") if k in header)
    if kernel == "precomputed":
        options = " (a precomputed kernel: TRAIN is its kernel file)"
    elif kernel in _LIBSVM_KERNELS:
        name, params = _LIBSVM_KERNELS[kernel]
        options = f" --kernel {name}" + "".join(f" --{p} {header[p]}" for p in params
                                                if p in header)
    else:
        return None
    svm, numbers, flags = _LIBSVM_TYPES[header["svm_type"]]
    return (f"is a model file of LIBSVM's svm-train ({said}), not one of 'indefsvm fit "
            "--save': indefsvm reads its own model files. Train one on the same data: "
            f"indefsvm fit TRAIN{svm}{options} {numbers} --save MODEL.skops (svm-train's "
            f"{flags} {'is' if ' and ' not in flags else 'are'} not kept in its model file).")


#: a model's schema.json above this many bytes is looked at twice: refused when it also
#: packs more than SCHEMA_RATIO times (real schemas, ~10-500 KB, are stored unpacked by
#: skops; JSON text packs 3-10 times), or is over SCHEMA_CAP whatever it packs: JSON parses
#: to ~5-20 times its size in Python objects (a 265 MB schema packed 43x took 6.6 GB)
SCHEMA_MAX = 4 * 2**20
SCHEMA_RATIO = 20
SCHEMA_CAP = 16 * 2**20

#: an array entry above this many bytes that packs more than ARRAY_RATIO times is a bomb:
#: skops stores a model's arrays unpacked, and numbers compress little (a 0.95 MB file
#: declared a 0.9 GiB array of zeros and took 2.1 GB before an error naming no file)
ARRAY_MAX = 2**20
ARRAY_RATIO = 20


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
                    info.file_size > SCHEMA_CAP
                    or info.file_size > SCHEMA_RATIO * max(info.compress_size, 1)):
                # JSON text parses to ~5-20 times its size in Python objects: a small file
                # that unpacks to a large schema would take GBs before any check
                raise DataFileError(path, None, f"holds a schema of {info.file_size / 2**20:.1f} "
                                    f"MB (packed {info.compress_size / 2**10:.0f} KB); a model "
                                    "of 'indefsvm fit --save' describes its arrays in far "
                                    "less. Refused before reading it: fit the model again.")
            if info.file_size > ARRAY_MAX and (
                    info.file_size > ARRAY_RATIO * max(info.compress_size, 1)):
                raise DataFileError(path, None, f"holds {info.filename} of "
                                    f"{info.file_size / 2**20:.1f} MB packed into "
                                    f"{info.compress_size / 2**10:.0f} KB "
                                    f"({info.file_size / max(info.compress_size, 1):.0f}x); "
                                    "a model of 'indefsvm fit --save' stores its arrays "
                                    "unpacked. Refused before reading it: fit the model again.")
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


def _check_model(model, path: str) -> None:
    """A loaded model is one 'fit --save' writes, with sound contents: skops trusts
    scikit-learn's own types (an SVC would load and predict), and a crafted file can hold
    NaN coefficients or support indices out of range, which would predict in silence. The
    file's part: the pipelines fit writes and how their steps fit together, the metrics of
    the command line; each model vouches for its own fitted state (``_check_fitted_state``,
    ``indefsvm._fitted``)."""
    from sklearn.pipeline import Pipeline
    from sklearn.preprocessing import MinMaxScaler

    from ._feature_kernel import FeatureKernel
    from ._fitted import UnsoundState, check_scaler
    from .datasets._data_file import FIX_TYPES
    from .distances import DistanceKernel
    from .remedies import KreinSVC, NystroemSVC
    from .svm import (
        IndefiniteNuSVC,
        IndefiniteNuSVR,
        IndefiniteOneClassSVM,
        IndefiniteSVC,
        IndefiniteSVR,
    )

    def bad(what):
        raise DataFileError(path, None, f"{what}; it was not written by 'indefsvm fit --save' "
                            "(or was changed since): fit the model again.")

    try:
        if hasattr(model, "steps") and type(model.steps[0][1]) is MinMaxScaler:
            # fit --scale: MinMaxScaler (scikit-learn's; its state checked by _fitted), then
            # a model of features (one, or FeatureKernel, a fix and an SVM: --remedy)
            steps = [step for _, step in model.steps]
            rest = steps[1:]
            if not rest or (len(rest) > 1 and type(rest[0]) is not FeatureKernel):
                bad("holds a pipeline other than MinMaxScaler then a model of features")
            check_scaler(steps[0], getattr(rest[0], "n_features_in_", None))
            model = rest[0] if len(rest) == 1 else Pipeline(model.steps[1:])
            if len(rest) == 1 and (hasattr(model, "steps") or (
                    type(model) is not NystroemSVC
                    and getattr(model, "kernel", None) == "precomputed")):
                bad("holds a scaler in front of a model of kernel or distance rows")
        if type(model) is NystroemSVC:
            metric = getattr(model, "metric", None)
            if metric is not None and (not isinstance(metric, str)
                                       or metric not in object_metrics()):
                bad(f"compares objects with {metric!r}, not a metric of the command line"
                    + (" (a registered metric: register it again, with "
                       "indefsvm.register_metric, before loading)"
                       if isinstance(metric, str) else ""))
            model._check_fitted_state()
            return
        # the SVMs of LIBSVM's family (fit --svm-type), and the Krein SVM
        family = (IndefiniteSVC, IndefiniteNuSVC, IndefiniteSVR, IndefiniteNuSVR,
                  IndefiniteOneClassSVM, KreinSVC)
        svc, fix, dk = model, None, None
        if hasattr(model, "steps"):
            steps = [step for _, step in model.steps]
            # [DistanceKernel or FeatureKernel] [a fix] then an SVM of the family or
            # KreinSVC (what fit --remedy and compare --search --save write)
            dk = (steps.pop(0) if steps and type(steps[0]) in (DistanceKernel, FeatureKernel)
                  else None)
            fix = steps.pop(0) if len(steps) > 1 and type(steps[0]).__name__ in FIX_TYPES \
                else None
            if len(steps) != 1 or type(steps[0]) not in family or (
                    dk is None and fix is None):
                bad("holds a pipeline other than [DistanceKernel or FeatureKernel] [a kernel "
                    "fix] then an SVM of indefsvm")
            svc = steps[0]
        if type(svc) not in family:
            bad(f"holds a {type(svc).__module__}.{type(svc).__name__}, not an SVM of "
                "indefsvm")
        if type(svc) is KreinSVC and fix is not None:
            bad("holds a kernel fix in front of a Krein SVM")
        if type(dk) is FeatureKernel:
            dk._check_fitted_state()
            # the SVM's training size: the family's shape_fit_, the Krein SVM's n_train_
            n_svm = (svc.shape_fit_[0] if hasattr(svc, "shape_fit_")
                     else getattr(svc, "n_train_", None))
            if getattr(svc, "kernel", None) != "precomputed" or n_svm != dk.n_train_:
                bad(f"holds a feature kernel of {dk.n_train_} samples in front of an SVM that "
                    "was not trained on their kernel")
        elif dk is not None:
            # predict reads distances to the training objects: their count is the file's
            if not (isinstance(getattr(dk, "n_fit_", None), int) and dk.n_fit_ > 0):
                bad("holds a distance kernel without its training size")
            dk._check_fitted_state()
        svc._check_fitted_state()
        if fix is not None:
            n_train = int(svc.shape_fit_[0])
            n = getattr(fix, "n_train_", None)
            if not isinstance(n, int) or n != n_train:
                bad(f"holds a kernel fix fitted on {n!r} samples, not the SVM's {n_train}")
            fix._check_fitted_state()
    except UnsoundState as exc:
        bad(str(exc))
    except (ValueError, TypeError, AttributeError, IndexError, KeyError) as exc:
        if isinstance(exc, DataFileError):
            raise
        # scikit-learn's own checks of a fitted state ("The internal representation of SVC
        # was altered", "inconsistent shapes") name no file
        bad(f"holds an unsound model ({type(exc).__name__}: {exc})")
