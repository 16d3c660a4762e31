"""One reader for every data file the command line reads: the format told from the file
(LIBSVM features, LIBSVM's precomputed-kernel lines, CSV / TSV, Weka's ARFF, .npy / .npz or
text matrices), its labels, and what the matrix holds (features, a kernel, distances).

:func:`load_file` is the library's answer (``indefsvm.datasets.load_file``); the command line
asks :func:`read_file` with its own words for the parameters (``--labels`` for ``labels``)
and its own sayings of notes and checks, so that both read a file alike and each names what
to change in the user's terms.
"""

from __future__ import annotations

import html
import os
from dataclasses import dataclass, field

import numpy as np
from sklearn.utils._param_validation import StrOptions

from .._metrics import objects_of
from .._validation import POS_INT, options_checked
from ..exceptions import DataFileError, ParameterError
from ._table import warn_note

__all__ = ["DataFile", "ParameterError", "PYTHON_WORDS", "load_file", "read_file"]


#: the reader's parameters as Python names them (the command line passes its options)
PYTHON_WORDS = {"labels": "labels", "distances": "distances=True",
                "label_column": "label_column", "zero_based": "zero_based=True",
                "n_features": "n_features"}

#: the parameters that say how a data file is read, and the files that read each
FORMAT_PARAMS = (
    ("label_column", "CSV / TSV tables and files of series or strings"),
    ("zero_based", "LIBSVM files"),
    ("n_features", "LIBSVM files"),
)


def refuse_format_params(given: dict, source: str, what: str, reads: tuple = (),
                         words: dict | None = None) -> None:
    """Parameters of another file format than ``source``'s (``given``: name -> value;
    ``what``: the file's kind; ``reads``: the names its format does read): refused with
    :class:`ParameterError`, as they would be ignored."""
    words = PYTHON_WORDS if words is None else words
    bad = [(name, files) for name, files in FORMAT_PARAMS
           if name not in reads and given.get(name) not in (None, False)]
    if not bad:
        return
    groups: dict[str, list[str]] = {}
    for name, files in bad:
        groups.setdefault(files, []).append(words[name])
    why = "; ".join(f"{' and '.join(o)} {'reads' if len(o) == 1 else 'read'} {files}"
                    for files, o in groups.items())
    one = len(bad) == 1
    raise ParameterError(f"{' '.join(words[n] for n, _ in bad)} {'does' if one else 'do'} not "
                        f"apply to {source}, {what} ({why}): drop {'it' if one else 'them'}.")


@dataclass
class DataFile:
    """A data file as :func:`load_file` read it.

    Attributes
    ----------
    X : ndarray or scipy.sparse.csr_matrix
        Features ``(n_samples, n_features)`` (a sparse LIBSVM or ARFF file stays CSR), or a
        square kernel or distance matrix ``(n_samples, n_samples)``.
    y : ndarray of shape (n_samples,) or None
        The labels (None where the file has none and none were asked for).
    kind : {"features", "kernel", "distances", "series", "strings"}
        What ``X`` holds: ``"kernel"`` is a precomputed kernel (``kernel="precomputed"``) or
        its rows, ``"distances"`` a distance matrix or rows (``distances.DistanceKernel``
        makes a kernel), ``"series"`` / ``"strings"`` the objects of a model of ``metric=``
        (a list, or one array where the series have one length).
    format : str
        The format read: ``"LIBSVM"``, ``"LIBSVM kernel"`` (svm-train ``-t 4``),
        ``"CSV"`` / ``"TSV"``, ``"ARFF"``, ``"NumPy"`` (.npy / .npz) or ``"text"`` (a
        matrix of numbers).
    path : str
        The file.
    feature_names : list of str or None
        The header's names of the features (CSV / TSV with a header row, ARFF).

    Examples
    --------
    >>> import os, tempfile
    >>> import indefsvm as isvm
    >>> path = os.path.join(tempfile.mkdtemp(), "train.csv")
    >>> with open(path, "w") as fh:
    ...     _ = fh.write("height,weight,label\\n1.5,50,a\\n1.8,80,b\\n1.6,60,a\\n")
    >>> data = isvm.datasets.load_file(path)
    >>> data.kind, data.format, data.X.shape, data.y.tolist(), data.feature_names
    ('features', 'CSV', (3, 2), ['a', 'b', 'a'], ['height', 'weight'])
    """

    X: object
    y: np.ndarray | None
    kind: str
    format: str
    path: str
    feature_names: list | None = field(default=None)

    def __str__(self) -> str:
        n = len(self.X) if self.kind in ("series", "strings") else self.X.shape[0]
        if self.kind in ("series", "strings"):
            lengths = sorted({len(x) if self.kind == "strings" else np.shape(x)[-1]
                              for x in self.X})
            what = (f"{n} {self.kind} of length {lengths[0]}" if len(lengths) == 1 else
                    f"{n} {self.kind} of lengths {lengths[0]} to {lengths[-1]}")
        elif self.kind == "features":
            what = f"{n} samples, {self.X.shape[1]} features"
        else:
            what = (f"{n} x {self.X.shape[1]} "
                    f"{'kernel' if self.kind == 'kernel' else 'distance'} "
                    + ("matrix" if n == self.X.shape[1] else "rows"))
        if hasattr(self.X, "toarray"):
            what += " (sparse)"
        if self.y is None:
            labels = "no labels"
        else:
            k = np.unique(self.y).shape[0]
            labels = (f"real targets {np.min(self.y):.4g} ... {np.max(self.y):.4g}"
                      if self.y.dtype.kind == "f" and k > n / 2 else f"{k} classes")
        names = "" if self.feature_names is None else (
            ", features named " + ", ".join(self.feature_names[:4])
            + (", ..." if len(self.feature_names) > 4 else ""))
        return f"{self.path}: {self.format}, {what}, {labels}{names}"

    def _repr_html_(self) -> str:
        return f"<div><p>{html.escape(str(self))}</p></div>"

    def to_dict(self) -> dict:
        """JSON-serialisable dictionary (the shapes and names, not the arrays)."""
        shape = ([len(self.X)] if self.kind in ("series", "strings")
                 and not isinstance(self.X, np.ndarray) else list(self.X.shape))
        return {"path": self.path, "format": self.format, "kind": self.kind,
                "shape": shape, "sparse": hasattr(self.X, "toarray"),
                "n_labels": None if self.y is None else int(self.y.shape[0]),
                "feature_names": None if self.feature_names is None
                else list(self.feature_names)}


def read_file(path: str, **kwargs) -> DataFile:
    """:func:`_read_file`, a MemoryError while the file is read said with its name (not as
    a solver's: the command line's hint for those is a smaller --cache-size)."""
    with _memory_named(path):
        return _read_file(path, **kwargs)


def read_rows(path: str, model, **kwargs) -> DataFile:
    """:func:`_read_rows`, a MemoryError while the file is read said with its name."""
    with _memory_named(path):
        return _read_rows(path, model, **kwargs)


class _memory_named:
    """Turn a bare MemoryError (NumPy's or Python's, with no word of what was being done)
    raised while ``path`` is read into a DataFileError naming it; the library's own memory
    checks, which say what needs how much, pass as they are."""

    def __init__(self, path):
        self._path = path

    def __enter__(self):
        return self

    def __exit__(self, kind, exc, tb):
        if kind is not None and issubclass(kind, MemoryError) and not str(exc):
            from .._validation import available_memory

            avail = available_memory()
            room = "" if avail is None else f" ({avail / 2**30:.1f} GiB available now)"
            raise DataFileError(self._path, None, "does not fit in memory while it is read"
                                f"{room}: give a smaller file (a subsample of its rows), or "
                                "a machine with more memory.") from None
        return False


def _read_file(path: str, *, labels=None, distances: bool = False, label_column=None,
               zero_based: bool = False, n_features=None, objects: str | None = None,
               need_labels: bool = True, words: dict | None = None, note=None,
               read_labels=None, check_distances=None, known=None) -> DataFile:
    """The reader of :func:`load_file`, with its sayings as arguments: ``words``, the
    parameters' names in messages; ``note(text)``, a remark on the layout; ``read_labels(
    path, n)``, the labels file's reader; ``check_distances(D, path)``, the axioms of
    distances (None: not checked); ``known(kind)``, called once the file's kind is
    told and before its matrix is read (the command line refuses the kernel options there).
    """
    from ._arff import is_arff, read_arff
    from ._libsvm import read_libsvm_kernel, starts_with_serial
    from ._loaders import load_libsvm
    from ._matrix_file import check_format, check_path, npz_labels, read_matrix
    from ._table import delimiter_of, read_features

    words = PYTHON_WORDS if words is None else words
    note = note if note is not None else warn_note
    known = known if known is not None else (lambda kind: None)
    read_labels = _labels_reader(read_labels)
    given = {"label_column": label_column, "zero_based": zero_based, "n_features": n_features}
    path = str(path)
    check_path(path)
    if objects is not None:
        return _objects_file(path, objects, labels, distances, label_column, given,
                             need_labels, words, note)
    check_format(path)
    lab = words["labels"]

    def labelled(M, what):
        y = read_labels(labels, M.shape[0]) if labels is not None else npz_labels(path)
        if y is None and need_labels:
            raise ParameterError(f"{path}: {what}: give {_with(lab, 'FILE')} (.npy or text, "
                                 "one per line), or save y beside "
                                 f"{'D' if distances else 'K'} in the .npz.")
        return y

    if is_arff(path):
        for name, value in (("distances", distances), ("labels", labels is not None)):
            if value:
                w = words[name].split("=")[0]
                raise ParameterError(f"{w} does not apply to {path}, an ARFF file: its rows "
                                    "are features and its class attribute the labels. Drop "
                                    f"{w}.")
        known("features")
        refuse_format_params(given, path, "an ARFF file", ("label_column",), words)
        X, y, names = read_arff(path, label_column, need_labels=need_labels, note=note)
        return DataFile(X, y, "features", "ARFF", path, names)
    if distances:
        known("distances")
        refuse_format_params(given, path, "a distance matrix", (), words)
        D = read_matrix(path, "distance matrix")
        if D.ndim != 2 or D.shape[0] != D.shape[1]:
            raise DataFileError(path, None, f"is a {D.shape} array; a distance matrix is "
                                "square (n_samples, n_samples).")
        if check_distances is not None:
            # what a distance kernel needs (>= 0, symmetric), said of the file before any work
            D = check_distances(D, path)
        return DataFile(D, labelled(D, "distances need their labels"), "distances",
                        _matrix_format(path), path)
    if labels is not None or path.endswith((".npy", ".npz")):
        refuse_format_params(given, path, "a matrix with its labels in a file of their own"
                             if labels is not None else "a NumPy array", (), words)
        try:
            K = read_matrix(path, "kernel matrix")
        except DataFileError as exc:
            if labels is not None and "LIBSVM" in str(exc):
                raise ParameterError(f"{lab} does not apply to {path}, a LIBSVM file: it "
                                    "carries its own labels (the first field of each line). "
                                    f"Drop {lab}.") from None
            raise
        if K.ndim == 2 and K.shape[0] != K.shape[1] and labels is not None:
            # not square: features (one row a sample), with their labels in a file of their own
            known("features")
            return DataFile(K, read_labels(labels, K.shape[0]), "features",
                            _matrix_format(path), path)
        known("kernel")
        if K.ndim != 2 or K.shape[0] != K.shape[1]:
            raise DataFileError(path, None, f"is a {K.shape} array; a kernel matrix is square "
                                "(n_samples, n_samples). Features in a .npy / .npz file need "
                                f"their labels: give {_with(lab, 'FILE')}.")
        return DataFile(K, labelled(K, "a precomputed kernel needs its labels"), "kernel",
                        _matrix_format(path), path)
    if (not zero_based and starts_with_serial(path) and delimiter_of(path) is None):
        # LIBSVM's own precomputed-kernel format (svm-train -t 4), 'label 0:ID 1:k(x, x_1)
        # ...': a kernel with its labels, not features (read as 0-based features, its IDs
        # would be a feature and its kernel rows the others)
        refuse_format_params(given, path, "a kernel in LIBSVM's precomputed format", (), words)
        known("kernel")
        K, y = read_libsvm_kernel(path)
        note(f"{path}: LIBSVM's precomputed-kernel format (svm-train -t 4: 0:ID, then "
             f"k(x, x_1) ... k(x, x_{K.shape[0]})): read as a {K.shape[0]} x {K.shape[0]} "
             f"kernel matrix with its labels; {words['zero_based']} reads it as "
             "0-based features instead.")
        return DataFile(K, y, "kernel", "LIBSVM kernel", path)
    known("features")
    try:
        delimiter = delimiter_of(path)
        if delimiter is not None:
            # CSV / TSV features with a label column
            refuse_format_params(given, path, "a CSV / TSV table", ("label_column",), words)
            X, y, names = read_features(path, delimiter, label_column,
                                        need_labels=need_labels, note=note)
            return DataFile(X, y, "features", "TSV" if delimiter == "\t" else "CSV", path,
                            names)
        # a sparse file (a text collection's words) stays CSR: the kernels read the stored
        # values only, as LIBSVM does
        refuse_format_params(given, path, "a LIBSVM file, its label the first token of a line",
                             ("zero_based", "n_features"), words)
        X, y = load_libsvm(path, n_features=n_features, zero_based=zero_based, dense="auto")
    except UnicodeDecodeError as exc:
        raise DataFileError(path, None, f"is not UTF-8 text ({exc.reason}): indefsvm reads "
                            "LIBSVM text, CSV / TSV, ARFF and .npy / .npz files.") from None
    return DataFile(X, y, "features", "LIBSVM", path)


def _objects_file(path, objects, labels, distances, label_column, given, need_labels, words,
                  note) -> DataFile:
    """A file of series or strings, one a line (the UCR archive's text layout: the label
    first), a CSV / TSV with a header row, an aeon / sktime ``.ts`` or an ARFF file."""
    from ._arff import is_arff
    from ._objects_file import read_objects
    from ._ts import is_ts

    for name, value in (("distances", distances), ("labels", labels is not None)):
        if value:
            w = words[name].split("=")[0]
            raise ParameterError(f"{w} does not apply to {path}, a file of {objects}: it "
                                 f"holds the {objects} with their labels. Drop {w}.")
    if is_ts(path) and objects != "series":
        raise ParameterError(f"{path}: a .ts file holds series; use --metric dtw.")
    refuse_format_params(given, path, f"a file of {objects}", ("label_column",), words)
    X, y = read_objects(path, objects, label_column, need_labels=need_labels, note=note)
    form = ("TS" if is_ts(path) else "ARFF" if is_arff(path) else "text")
    return DataFile(X, y, objects, form, path)


#: the kernel fixes a model file may hold in front of its SVM
FIX_TYPES = ("ClipEigenvalues", "FlipEigenvalues", "ShiftEigenvalues",
             "AdvancedShiftEigenvalues", "SquareKernel", "SimilarityKernel")


def model_input(model) -> tuple[bool, bool, int | None]:
    """What a fitted model predicts from: ``(distances, precomputed, n_train)`` -- distances
    to the training objects, kernel rows ``k(x, x_train)``, or features (``n_train`` None).
    The first step is told by its class's name, as the model files' checks tell it: the
    readers stand below the estimators and import none of them."""
    first = model.steps[0][1] if hasattr(model, "steps") else model
    if type(first).__name__ == "DistanceKernel":
        return True, True, int(first.n_fit_)
    if type(first).__name__ in FIX_TYPES:
        return False, True, int(first.n_train_)
    if getattr(first, "kernel", None) == "precomputed":
        n = getattr(first, "n_train_", None)
        return False, True, int(n if n is not None else first.shape_fit_[0])
    return False, False, None


def _read_rows(path: str, model, *, labels=None, label_column=None,
               zero_based: bool = False, name: str = "the model", words: dict | None = None,
               note=None, read_labels=None, check_rows=None) -> DataFile:
    """New rows for ``model`` (fitted, as :func:`indefsvm.load_model` gives it) in the form
    it was trained on: features (LIBSVM, CSV, TSV, ARFF, .npy; a header's columns by the
    names the model keeps), kernel rows ``k(x, x_train)`` (.npy, .npz, text, or
    svm-predict's ``label 0:? 1:k(x, x_1) ...`` lines) or distances to its training objects,
    or series and strings; their labels where the file (or ``labels``) has them. ``name``:
    the model in messages; ``check_rows(D, path)``: the axioms of distance rows (None: not
    checked); the other sayings as :func:`read_file`'s."""
    from ._arff import is_arff, read_arff
    from ._libsvm import read_libsvm_kernel, starts_with_serial
    from ._loaders import load_libsvm
    from ._matrix_file import check_path, read_matrix
    from ._table import delimiter_of, read_features

    words = PYTHON_WORDS if words is None else words
    note = note if note is not None else warn_note
    read_labels = _labels_reader(read_labels)
    lab, col, zb = words["labels"], words["label_column"], words["zero_based"].split("=")[0]
    given = {"label_column": label_column, "zero_based": zero_based}
    distances, precomputed, n_train = model_input(model)
    path = str(path)
    check_path(path)
    y = None
    if getattr(model, "metric", None) is not None:
        return _objects_rows(path, model, labels, label_column, given, name, words, note)
    if (precomputed and not distances and not zero_based
            and not path.endswith((".npy", ".npz")) and starts_with_serial(path, rows="any")):
        # LIBSVM's precomputed-kernel format (svm-predict's input for svm-train -t 4):
        # 'label 0:? 1:k(x, x_1) ...', the labels with the kernel rows
        if labels is not None:
            raise ParameterError(f"{lab} does not apply to {path}, kernel rows in LIBSVM's "
                                 f"format: each line carries its label first. Drop {lab}.")
        refuse_format_params(given, path, "kernel rows in LIBSVM's precomputed format", (),
                             words)
        X, y = read_libsvm_kernel(path, n_train=n_train)
        return _checked_rows(DataFile(X, y, "kernel", "LIBSVM kernel", path), model, path,
                             label_column, col)
    if precomputed or labels is not None or path.endswith((".npy", ".npz")):
        what = ("the distances d(x, x_train) to the training objects" if distances
                else "the kernel rows k(x, x_train)" if precomputed else "features")
        refuse_format_params(given, path, "a matrix", (), words)
        try:
            X = read_matrix(path, "matrix" if precomputed else "feature matrix")
        except DataFileError as exc:
            if not precomputed and labels is not None and "LIBSVM" in str(exc):
                raise ParameterError(f"{lab} does not apply to {path}, a LIBSVM file: it "
                                     "carries its own labels (the first field of each "
                                     f"line). Drop {lab}.") from None
            if not precomputed:
                raise
            raise DataFileError(path, None, f"{str(exc).split(': ', 1)[1]} The model was "
                                f"trained on a precomputed {'distance' if distances else ''}"
                                f"{'' if distances else 'kernel'} matrix of {n_train} "
                                f"samples: DATA must hold {what}, {n_train} columns.") from None
        if precomputed and (X.ndim != 2 or X.shape[1] != n_train):
            rows = ("distances d(x, x_train) to the training objects" if distances
                    else "kernel rows k(x, x_train)")
            raise DataFileError(path, None, f"has shape {X.shape}; the model was trained on "
                                f"{n_train} samples, so its {rows} need {n_train} columns.")
        if distances and check_rows is not None:
            X = check_rows(X, path)
        if labels is not None:
            y = read_labels(labels, X.shape[0])
        kind = "distances" if distances else "kernel" if precomputed else "features"
        return _checked_rows(DataFile(X, y, kind, _matrix_format(path), path), model, path,
                             label_column, col)
    delimiter = None if is_arff(path) else delimiter_of(path)
    trained = getattr(model, "feature_columns_", None)
    if is_arff(path) or delimiter is not None:
        arff = is_arff(path)
        refuse_format_params(given, path, "an ARFF file" if arff else "a CSV / TSV table",
                             ("label_column",), words)
        X, y, names = (read_arff(path, label_column, need_labels=False, note=note) if arff
                       else read_features(path, delimiter, label_column, need_labels=False,
                                          note=note))
        X = by_names(X, names, trained, path, note)
        if hasattr(X, "toarray") and not reads_csr(model):
            X = X.toarray()  # a sparse ARFF's rows, as dense as the model's
        form = "ARFF" if arff else "TSV" if delimiter == "\t" else "CSV"
        return _checked_rows(DataFile(X, y, "features", form, path, names), model, path,
                             label_column, col)
    # sparse files (a text collection's words) stay CSR where the model reads CSR
    refuse_format_params(given, path, "a LIBSVM file, its label the first token of a line",
                         ("zero_based",), words)
    if not zero_based and starts_with_serial(path, rows="new"):
        # kernel rows (0:? first, every value written), not 0-based features
        raise ParameterError(f"{path} begins 'label 0:...', as LIBSVM's precomputed-kernel "
                             f"format (svm-train -t 4) does, but {name} was trained on "
                             "features, not a kernel matrix: give the features of the new "
                             f"samples (or {zb} if the file holds 0-based features).")
    X, y = load_libsvm(path, zero_based=zero_based,
                       n_features=getattr(model, "n_features_in_", None), dense="auto")
    if hasattr(X, "toarray") and not reads_csr(model):
        from .._validation import check_memory

        check_memory(8.0 * X.shape[0] * X.shape[1], f"{path} ({X.shape[0]} x "
                     f"{X.shape[1]} features made dense: the model was trained on "
                     "dense ones)", "Predict a part of the rows at a time.")
        X = X.toarray()
    return _checked_rows(DataFile(X, y, "features", "LIBSVM", path), model, path,
                         label_column, col)


def _objects_rows(path, model, labels, label_column, given, name, words, note) -> DataFile:
    """Series or strings for a model of ``metric=``: the file's layout as its fit read it,
    its labels (where it has them) classes of the model."""
    from ._objects_file import label_column_for, read_objects

    if labels is not None:
        raise ParameterError(f"{name} was trained on {model.metric} distances of series or "
                             "strings: give their file (one per line), without "
                             f"{words['labels']}.")
    from ._ts import is_ts

    kind = objects_of(model.metric)
    if is_ts(path) and kind != "series":
        raise ParameterError(f"{path}: a .ts file holds series; use --metric dtw.")
    refuse_format_params(given, path, f"a file of {kind}", ("label_column",), words)
    objs = getattr(getattr(model, "nystroem_", None), "components_", None)
    length = objs.shape[1] if isinstance(objs, np.ndarray) and objs.ndim == 2 else None
    X, y = read_objects(path, kind,
                        label_column_for(path, kind, length, label_column, note=note),
                        need_labels=False, classes_checked=True, note=note)
    if y is not None:
        # a first value that is a series' first point is no class (and would shift every
        # series by one point)
        classes = set(np.asarray(model.classes_).tolist())
        unknown = [v for v in dict.fromkeys(np.asarray(y).tolist()) if v not in classes]
        if unknown:
            shown = ", ".join(repr(v) for v in unknown[:3]) + (", ..." if len(unknown) > 3
                                                               else "")
            col = words["label_column"]
            raise ParameterError(f"{path}: the labels read from it ({shown}) are not "
                                 f"classes of the model ({sorted(map(str, classes))}): for a "
                                 f"file without labels give {_with(col, 'none')} (label "
                                 f"last: {_with(col, 'last')}).")
    return DataFile(X, y, kind, "objects", path)


def _checked_rows(data: DataFile, model, path, label_column, col) -> DataFile:
    """Features of as many columns as the model's, or one error with a hint at the likely
    mistake."""
    X, precomputed = data.X, data.kind != "features"
    n_feat = getattr(model, "n_features_in_", None)
    if not precomputed and n_feat is not None and X.shape[1] != n_feat:
        hint = (" (kernel rows? this model computes its kernel from the features itself: "
                "give features, as a LIBSVM, CSV or .npy file)"
                if path.endswith((".npy", ".npz"))
                or X.shape[1] == getattr(model, "shape_fit_", (None,))[0]
                else f" (a label column among them? {_with(col, '0')} reads the first column "
                f"as the labels, -1 the last)" if X.shape[1] == n_feat + 1
                and label_column is None else "")
        raise DataFileError(path, None, f"has {X.shape[1]} features; the model was trained on "
                            f"{n_feat}{hint}.")
    return data


def by_names(X, names, trained, path: str, note):
    """The columns of ``X`` in the order of the model's features, by the names of the file's
    header (``names``) and of the training file's (``trained``, the model's
    ``feature_columns_``): as scikit-learn checks a DataFrame's names. The same names in
    another order are read by name, and said; other names are refused (a column read by
    position under another name would predict in silence). A file without a header, or a
    model saved without names, is read by position."""
    if names is None or trained is None or list(names) == list(trained):
        return X
    trained = list(trained)
    if sorted(names) == sorted(trained) and len(set(trained)) == len(trained):
        order = [list(names).index(t) for t in trained]
        note(f"{path}: its columns ({', '.join(names[:8])}"
             f"{', ...' if len(names) > 8 else ''}) are read by name, in the model's order.")
        return X[:, order]
    unseen = [n for n in names if n not in trained]
    missing = [t for t in trained if t not in names]
    raise DataFileError(path, 1, f"has the columns {', '.join(names[:8])}"
                        f"{', ...' if len(names) > 8 else ''}, where the model was trained on "
                        f"{', '.join(trained[:8])}{', ...' if len(trained) > 8 else ''}"
                        + (f" (not in training: {', '.join(unseen[:5])})" if unseen else "")
                        + (f" (missing: {', '.join(missing[:5])})" if missing else "")
                        + ". Name the columns as in training, or drop the header row to read "
                        "them by position.")


def reads_csr(model) -> bool:
    """Whether a model predicts from CSR features: not behind --scale's scaler, and an SVM
    of the family only when it was trained on CSR (its support vectors are CSR then, as
    scikit-learn's SVC refuses sparse rows for a model of dense ones)."""
    first = model.steps[0][1] if hasattr(model, "steps") else model
    if type(first).__name__ == "MinMaxScaler":
        return False
    sv = getattr(first, "support_vectors_", None)
    return sv is None or hasattr(sv, "toarray")


def _labels_reader(read_labels):
    """The reader of ``labels``: the caller's for a file name (the command line's), the
    library's otherwise; labels given as an array (Python) are taken as they are, one per
    row."""
    from ._matrix_file import finite_labels
    from ._matrix_file import read_labels as read_file_labels

    def read(labels, n):
        if isinstance(labels, (str, os.PathLike)):
            return (read_labels or read_file_labels)(str(labels), n)
        y = np.ravel(np.asarray(labels))
        finite_labels(y, "labels")
        if y.shape[0] != n:
            raise ValueError(f"labels has {y.shape[0]} entries for the {n} rows of the file; "
                             "give one label per row.")
        return y

    return read


def _with(word: str, value: str) -> str:
    """An option with its value as the caller writes it: ``--labels FILE``, ``labels=FILE``."""
    return f"{word} {value}" if word.startswith("-") else f"{word}={value}"


def _matrix_format(path: str) -> str:
    return "NumPy" if path.endswith((".npy", ".npz")) else "text"


@options_checked({"distances": ["boolean"], "zero_based": ["boolean"],
                  "n_features": [POS_INT, None],
                  "objects": [StrOptions({"series", "strings"}), None]})
def load_file(path, *, labels=None, distances: bool = False, label_column=None,
              zero_based: bool = False, n_features: int | None = None,
              objects: str | None = None, like=None) -> DataFile:
    """Read a data file of any format the command line reads, as ``indefsvm fit FILE``
    reads it (with ``like``, as ``indefsvm predict MODEL FILE`` does).

    The format is told from the file: Weka's ARFF (by its name, ``.arff``), a ``.npy``
    / ``.npz`` matrix, CSV or TSV (a comma, semicolon or tab between fields: features with a
    label column, a header row or none), LIBSVM's precomputed-kernel lines (``label 0:ID
    1:k(x, x_1) ...``, svm-train ``-t 4``), else LIBSVM's features (a sparse file stays
    CSR). A square matrix of numbers with ``labels`` is a precomputed kernel; with
    ``distances`` a distance matrix. Compressed text (``.gz``, ``.bz2``, ``.xz``) is read as
    it is. Every defect raises :class:`~indefsvm.exceptions.DataFileError` naming the file
    and, where there is one, the line; a parameter that does not apply to the format found
    raises a ``ValueError`` naming it (it would be ignored).

    Parameters
    ----------
    path : str or path-like
        The data file.
    labels : str, path-like or array-like, optional
        The labels of a matrix file (a kernel, distances, or features in a ``.npy``): a file
        of them, one a line, or a ``.npy``; or the labels themselves, one per row. A
        ``.npz`` may hold them as its array ``y`` instead.
    distances : bool, default=False
        The matrix holds distances (DTW, edit, ...), not a kernel: checked as such (>= 0,
        symmetric).
    label_column : str or int, optional
        CSV / TSV and ARFF: the label column by name or index (0 the first, -1 the last),
        ``"none"`` for a file without labels; by default a column named label, y, class or
        target (ARFF: the class attribute, else the last).
    zero_based : bool, default=False
        LIBSVM files whose indices start at 0 (scikit-learn's ``dump_svmlight_file``).
    n_features : int, optional
        LIBSVM files: the number of features, where the last ones are unused.
    objects : {"series", "strings"}, optional
        The file holds series or strings, one a line: the UCR archive's text layout (the
        label first, numbers separated by commas, spaces or tabs; a ``NaN`` padding of a
        shorter series is not read), ``LABEL<TAB>STRING`` lines, a CSV / TSV with a header
        row as pandas' ``to_csv`` writes one (the label column by ``label_column`` or
        named label, y, class or target), an aeon / sktime ``.ts`` file or the UCR
        archive's ARFF. ``X`` is then one array where the series have one length, else a
        list (what :func:`indefsvm.distances.pairwise_distances` and ``NystroemSVC(
        metric=...)`` take).
    like : estimator, optional
        A fitted model (such as :func:`indefsvm.load_model` gives): the file holds new rows
        in the form it was trained on -- features of as many columns (a header's columns
        put in the order of the names a model saved by ``fit --save`` keeps; a sparse file
        made dense for a model of dense features), kernel rows ``k(x, x_train)`` or
        distances to its training objects (also svm-predict's ``label 0:? 1:k(x, x_1) ...``
        lines), or series and strings for a model of ``metric=``. The labels are read where
        the file (or ``labels``) has them; ``distances`` and ``n_features`` are the
        model's, not given.

    Returns
    -------
    DataFile
        ``X``, ``y``, ``kind`` (features, kernel or distances), ``format`` and
        ``feature_names``.

    See Also
    --------
    load_libsvm, load_libsvm_kernel, load_arff : the readers of one format each.

    Examples
    --------
    >>> import os, tempfile
    >>> import numpy as np
    >>> import indefsvm as isvm
    >>> folder = tempfile.mkdtemp()
    >>> K = np.array([[1.0, 0.5], [0.5, 1.0]])
    >>> np.savez(os.path.join(folder, "kernel.npz"), K=K, y=[1, -1])
    >>> data = isvm.datasets.load_file(os.path.join(folder, "kernel.npz"))
    >>> data.kind, data.y.tolist()
    ('kernel', [1, -1])
    """
    try:
        return _load_file(path, labels, distances, label_column, zero_based, n_features,
                          objects, like)
    except DataFileError as exc:
        # the readers name the command line's options (their first callers): said here
        # as this function's parameters
        # what the reader said, without the file's name (which may itself hold ': ')
        raise DataFileError(exc.path, exc.line, _python_words(exc.message)) from None
    except ParameterError as exc:
        if exc.param is not None:
            raise  # a check of the data's values (check_distance_matrix): its own error
        raise ParameterError(_python_words(str(exc))) from None


#: the command line's options in the readers' messages, and the parameters of load_file
_OPTIONS_AS_PARAMETERS = (
    (r"add --metric dtw \(and --nystroem M\) to train on their DTW distances",
     'read them with objects="series"'),
    (r"--metric dtw( --nystroem M)?", 'objects="series"'),
    (r"--metric levenshtein( --nystroem M)?", 'objects="strings"'),
    (r"--metric\b", "objects="),
    (r"--label-column (first|last|none|NAME|INDEX)\b", r'label_column="\1"'),
    (r"--label-column\b", "label_column"),
    (r"--labels FILE\b", "labels=FILE"),
    (r"--labels\b", "labels"),
    (r"--zero-based\b", "zero_based=True"),
    (r"--n-features\b", "n_features"),
    (r"--distances\b", "distances=True"),
)


def _python_words(text: str) -> str:
    import re

    if " (in Python: " in text:
        text = re.sub(r"--metric dtw \(in Python: objects='series'\)", 'objects="series"', text)
    for option, parameter in _OPTIONS_AS_PARAMETERS:
        text = re.sub(option, parameter, text)
    return text


def _load_file(path, labels, distances, label_column, zero_based, n_features, objects,
               like) -> DataFile:
    from .._validation import check_distance_matrix

    if like is not None:
        if objects is not None:
            raise ParameterError("objects is the model's own with like= (a model of "
                                 "metric= reads series or strings): drop it.")
        if distances or n_features is not None:
            raise ParameterError("distances and n_features are the model's own with like=: "
                                 "drop them.")
        from sklearn.utils.validation import check_is_fitted

        check_is_fitted(like)
        return read_rows(path, like, labels=labels,
                         label_column=None if label_column is None else str(label_column),
                         zero_based=zero_based,
                         check_rows=lambda D, p: check_distance_matrix(D, p, square=False))
    return read_file(path, labels=labels,
                     distances=distances,
                     label_column=None if label_column is None else str(label_column),
                     zero_based=zero_based, n_features=n_features, objects=objects,
                     need_labels=False,
                     check_distances=lambda D, p: check_distance_matrix(D, p))

