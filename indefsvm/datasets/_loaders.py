"""Loaders of the small data sets bundled with indefsvm (LIBSVM format, scaled to [-1, 1])."""

from __future__ import annotations

import numbers
from importlib import resources

import numpy as np
from sklearn.utils import Bunch
from sklearn.utils._param_validation import StrOptions

from .._validation import POS_INT, options_checked
from ..exceptions import ParameterError
from ._libsvm import read_libsvm, read_libsvm_kernel

_DESCR = {
    "heart": (
        "Statlog (Heart), 270 x 13, scaled to [-1, 1] by LIBSVM (heart_scale, verbatim from "
        "the LIBSVM distribution). Labels: +1 presence (120), -1 absence (150) of heart disease."
    ),
    "sonar": (
        "Connectionist Bench (Sonar, Mines vs. Rocks), 208 x 60, UCI sonar.all-data scaled to "
        "[-1, 1] with the svm-scale method. Labels: +1 rock (97), -1 mine (111)."
    ),
    "breast_cancer_683": (
        "Breast Cancer Wisconsin (Original), 683 x 10 (the 699 UCI rows without missing "
        "values), LIBSVM's breast-cancer_scale. Feature 1 is the scaled sample code number and "
        "carries no clinical meaning. Labels: +1 malignant (239, LIBSVM label 4), -1 benign "
        "(444, LIBSVM label 2)."
    ),
    "protein213": (
        "Globin protein dissimilarities (Hofmann & Buhmann 1997; Graepel et al. 1999), "
        "213 x 213, from CRAN evclust 2.0.3 (data/protein.RData). Classes 1 = HA (72), "
        "2 = HB (72), 3 = M (39), 4 = G (30). Symmetric, zero diagonal, not exactly Euclidean."
    ),
}


@options_checked({"n_features": [POS_INT, None], "zero_based": ["boolean"]})
def load_libsvm(path, *, n_features: int | None = None, dense: bool | str = True,
                zero_based: bool = False):
    """Read a LIBSVM / svmlight file, strictly.

    Indices start at 1 and increase along each line, labels and values are finite numbers;
    anything else raises :class:`~indefsvm.exceptions.DataFileError` naming the file and the
    line (nothing is guessed: no silent switch to 0-based indices).

    Parameters
    ----------
    path : str or path-like
        File name (``.gz``, ``.bz2`` and ``.xz`` are decompressed).
    n_features : int, optional
        Number of features when the file does not use the last one.
    dense : bool or "auto", default=True
        Return a dense array instead of a CSR matrix (indexed by 32-bit integers where they
        hold it, as the SVMs read it). ``"auto"``: CSR when the file stores under a quarter
        of the entries and its dense copy would pass 8 MB (a text collection's words, where
        the kernels then read only the stored values, as LIBSVM does), else dense -- what
        the command line reads. A dense copy past 4 GiB is refused, naming the line of the
        largest index.
    zero_based : bool, default=False
        Indices start at 0 (what scikit-learn's ``dump_svmlight_file`` writes by default);
        LIBSVM's own format starts at 1.

    Returns
    -------
    X : ndarray or scipy.sparse.csr_matrix of shape (n_samples, n_features)
    y : ndarray of shape (n_samples,)
        The labels as written in the file.

    Examples
    --------
    >>> import indefsvm.datasets as ds
    >>> X, y = ds.load_libsvm(ds.data_path("heart_scale"))
    >>> X.shape
    (270, 13)
    """
    if not (isinstance(dense, (bool, np.bool_)) or (isinstance(dense, str) and dense == "auto")):
        raise ParameterError(f"must be True, False or 'auto'; got {dense!r}.", "dense")
    return read_libsvm(path, n_features=n_features, dense=dense, zero_based=zero_based)


@options_checked({"n_train": [POS_INT, None]})
def load_libsvm_kernel(path, *, n_train: int | None = None):
    """Read a kernel matrix in LIBSVM's precomputed-kernel format (``svm-train -t 4``).

    Each line is ``label 0:ID 1:k(x, x_1) ... L:k(x, x_L)``: the sample's ID, then its
    kernel value with every training sample, zeros written too, as LIBSVM's README asks.
    Read strictly, as :func:`load_libsvm` reads features: a missing value, an ID out of
    place or a line of another width raises :class:`~indefsvm.exceptions.DataFileError`
    naming the file and the line.

    Parameters
    ----------
    path : str or path-like
        File name (``.gz``, ``.bz2`` and ``.xz`` are decompressed).
    n_train : int, optional
        None (default): a training file. Its IDs are 1 ... n, each once and in any order
        (LIBSVM allows a permutation), every line holds n values, and the rows are returned
        in the order of their IDs, so that ``K[i, j] = k(x_i, x_j)`` is the square training
        kernel (a subset of a larger kernel's rows, L > n, is refused: keep the columns of
        its IDs). An int: rows ``k(x, x_train)`` of new samples, ``n_train`` values each
        after an ID that is not read (LIBSVM's ``0:?``), in the file's order -- what
        ``predict`` of a model fitted on the training kernel takes.

    Returns
    -------
    K : ndarray of shape (n_samples, n_samples) or (n_samples, n_train)
        The kernel values, float64.
    y : ndarray of shape (n_samples,)
        The labels as written in the file (in ID order for a training file).

    See Also
    --------
    load_libsvm : features in LIBSVM's format.

    Examples
    --------
    >>> import os, tempfile
    >>> import indefsvm as isvm
    >>> path = os.path.join(tempfile.mkdtemp(), "train.kernel")
    >>> with open(path, "w") as fh:
    ...     _ = fh.write("1 0:1 1:2 2:-1\\n-1 0:2 1:-1 2:2\\n")
    >>> K, y = isvm.datasets.load_libsvm_kernel(path)
    >>> K
    array([[ 2., -1.],
           [-1.,  2.]])
    >>> isvm.IndefiniteSVC(kernel="precomputed").fit(K, y).predict(K)
    array([ 1., -1.])
    """
    return read_libsvm_kernel(path, n_train=n_train)


@options_checked({"label_column": [str, numbers.Integral, None], "objects": [
    StrOptions({"series", "strings"}), None], "return_names": ["boolean"]})
def load_arff(path, *, label_column: str | int | None = None, objects: str | None = None,
              return_names: bool = False):
    """Read Weka's ARFF file: features, or (``objects``) series or strings.

    The header's ``@attribute`` lines say each column's type; the rows after ``@data`` are
    dense (comma-separated, ``?`` for a missing value, '...' or "..." quoting) or sparse
    (``{index value, ...}``, the indices from 0, an omitted value 0). A value that does not
    fit its attribute raises :class:`~indefsvm.exceptions.DataFileError` naming the file,
    the line and the attribute.

    Parameters
    ----------
    path : str or path-like
        File name (``.gz``, ``.bz2`` and ``.xz`` are decompressed).
    label_column : str or int, optional
        The class attribute: its name or index (0 the first, -1 the last), ``"none"`` for a
        file without one. By default an attribute named ``class``, ``target``, ``label`` or
        ``y``, else the last (Weka's default class).
    objects : {"series", "strings"}, optional
        ``"series"``: each row's numeric values are one series (the UCR archive's ARFF
        files; a ``?`` at the end pads a shorter series and is not read). ``"strings"``: the
        one string attribute besides the class. By default the rows are features: numeric
        attributes as they are, a nominal one as one 0 / 1 column per declared value (as
        Weka's ``NominalToBinary``), a sparse file as CSR; a missing value, a string or a
        date attribute is refused.
    return_names : bool, default=False
        Return the features' names too (``name=value`` for a nominal attribute's columns).

    Returns
    -------
    X : ndarray or scipy.sparse.csr_matrix of shape (n_samples, n_features), or a list
        The features; with ``objects``, the series (one array when all have one length)
        or the strings.
    y : ndarray of shape (n_samples,) or None
        The classes as declared (whole numbers as integers), a numeric class's values; None
        where the file has no class or every class is ``?`` (a file to predict).
    names : list of str
        Only with ``return_names`` (None with ``objects``).

    See Also
    --------
    load_libsvm : features in LIBSVM's format.

    Examples
    --------
    >>> import os, tempfile
    >>> import indefsvm as isvm
    >>> path = os.path.join(tempfile.mkdtemp(), "weather.arff")
    >>> with open(path, "w") as fh:
    ...     _ = fh.write("@relation weather\\n@attribute temperature numeric\\n"
    ...                  "@attribute 'wind speed' numeric\\n@attribute play {yes, no}\\n"
    ...                  "@data\\n85, 3.5, no\\n% a comment\\n64, 1.25, yes\\n")
    >>> X, y, names = isvm.datasets.load_arff(path, return_names=True)
    >>> X
    array([[85.  ,  3.5 ],
           [64.  ,  1.25]])
    >>> names, y.tolist()
    (['temperature', 'wind speed'], ['no', 'yes'])
    """
    from ._arff import read_arff
    from ._table import warn_note as note  # said at the caller's line

    X, y, names = read_arff(
        path, None if label_column is None else str(label_column), need_labels=False,
        objects=objects, class_last=True, note=note)
    return (X, y, names) if return_names else (X, y)


def data_path(name: str) -> str:
    """Path of a bundled data file (``heart_scale``, ``sonar_scale``, ``breast-cancer_scale``).

    Parameters
    ----------
    name : str
        File name inside ``indefsvm/datasets/data``.

    Returns
    -------
    str

    Examples
    --------
    >>> import os, indefsvm.datasets as ds
    >>> os.path.basename(ds.data_path("sonar_scale"))
    'sonar_scale'
    """
    if not isinstance(name, str):
        raise TypeError(f"name must be the name of a bundled data file (a str, e.g. "
                        f"'heart_scale'); got {type(name).__name__}.")
    path = resources.files("indefsvm.datasets") / "data" / name
    if not path.is_file():
        names = sorted(p.name for p in (resources.files("indefsvm.datasets") / "data")
                       .iterdir() if p.is_file() and not p.name.endswith(".md"))
        raise FileNotFoundError(f"No bundled data file {name!r}; the files are {names}.")
    return str(path)


def _load(key, filename, return_X_y, label_map=None, as_frame=False):
    X, y = load_libsvm(data_path(filename))
    if label_map is not None:
        y = np.vectorize(label_map.__getitem__, otypes=[float])(y)
    y = y.astype(np.float64)
    # LIBSVM's files number their features from 1 and name none
    names = [f"x{j + 1}" for j in range(X.shape[1])]
    frame = None
    if as_frame:
        try:
            import pandas as pd
        except ImportError:
            raise ImportError("as_frame=True returns pandas objects: pip install pandas, or "
                              "leave as_frame=False for numpy arrays.") from None
        X = pd.DataFrame(X, columns=names)
        y = pd.Series(y, name="target")
        frame = pd.concat([X, y], axis=1)
    if return_X_y:
        return X, y
    return Bunch(data=X, target=y, frame=frame, feature_names=names, DESCR=_DESCR[key],
                 filename=data_path(filename), target_names=np.array([-1.0, 1.0]))


@options_checked({"return_X_y": ["boolean"], "as_frame": ["boolean"]})
def load_heart(*, return_X_y: bool = False, as_frame: bool = False):
    """Statlog heart data, 270 x 13 in [-1, 1], labels +1 / -1 (LIBSVM ``heart_scale``).

    Parameters
    ----------
    return_X_y : bool, default=False
        Return ``(X, y)`` instead of a :class:`~sklearn.utils.Bunch`.
    as_frame : bool, default=False
        ``data`` a pandas DataFrame (columns ``x1``, ``x2``, ... as LIBSVM numbers the
        features), ``target`` a Series and ``frame`` both (needs pandas), as scikit-learn's
        loaders.

    Returns
    -------
    Bunch with ``data``, ``target``, ``frame`` (None unless ``as_frame``),
    ``feature_names``, ``DESCR``, ``filename``; or ``(X, y)``.

    Examples
    --------
    >>> from indefsvm.datasets import load_heart
    >>> X, y = load_heart(return_X_y=True)
    >>> X.shape, int((y == 1).sum())
    ((270, 13), 120)
    """
    return _load("heart", "heart_scale", return_X_y, as_frame=as_frame)


@options_checked({"return_X_y": ["boolean"], "as_frame": ["boolean"]})
def load_sonar(*, return_X_y: bool = False, as_frame: bool = False):
    """Sonar (mines vs. rocks), 208 x 60 in [-1, 1], labels +1 rock / -1 mine.

    Parameters
    ----------
    return_X_y : bool, default=False
        Return ``(X, y)`` instead of a :class:`~sklearn.utils.Bunch`.
    as_frame : bool, default=False
        ``data`` a pandas DataFrame (columns ``x1``, ``x2``, ... as LIBSVM numbers the
        features), ``target`` a Series and ``frame`` both (needs pandas), as scikit-learn's
        loaders.

    Returns
    -------
    Bunch with ``data``, ``target``, ``frame`` (None unless ``as_frame``),
    ``feature_names``, ``DESCR``, ``filename``; or ``(X, y)``.

    Examples
    --------
    >>> from indefsvm.datasets import load_sonar
    >>> X, y = load_sonar(return_X_y=True)
    >>> X.shape, int((y == 1).sum())
    ((208, 60), 97)
    """
    return _load("sonar", "sonar_scale", return_X_y, as_frame=as_frame)


@options_checked({"return_X_y": ["boolean"], "as_frame": ["boolean"]})
def load_breast_cancer_683(*, return_X_y: bool = False, as_frame: bool = False):
    """Wisconsin breast cancer (original), 683 x 10 in [-1, 1], +1 malignant / -1 benign.

    This is LIBSVM's ``breast-cancer_scale`` (not scikit-learn's 569 x 30 WDBC set).

    Parameters
    ----------
    return_X_y : bool, default=False
        Return ``(X, y)`` instead of a :class:`~sklearn.utils.Bunch`.
    as_frame : bool, default=False
        ``data`` a pandas DataFrame (columns ``x1``, ``x2``, ... as LIBSVM numbers the
        features), ``target`` a Series and ``frame`` both (needs pandas), as scikit-learn's
        loaders.

    Returns
    -------
    Bunch with ``data``, ``target``, ``frame`` (None unless ``as_frame``),
    ``feature_names``, ``DESCR``, ``filename``; or ``(X, y)``.

    Examples
    --------
    >>> from indefsvm.datasets import load_breast_cancer_683
    >>> X, y = load_breast_cancer_683(return_X_y=True)
    >>> X.shape, int((y == 1).sum())
    ((683, 10), 239)
    """
    return _load("breast_cancer_683", "breast-cancer_scale", return_X_y,
                 label_map={2.0: -1.0, 4.0: 1.0}, as_frame=as_frame)


@options_checked({"return_D_y": ["boolean"]})
def load_protein213(*, return_D_y: bool = False):
    """Globin protein dissimilarities, 213 x 213, four classes (Hofmann & Buhmann).

    Evolutionary distances between globin sequences: 1 = hemoglobin-alpha (72),
    2 = hemoglobin-beta (72), 3 = myoglobin (39), 4 = heterogeneous globins (30). ``D`` is
    symmetric with a zero diagonal; it is a dissimilarity matrix, not features and not a
    kernel (``-1/2 J D^2 J`` has 4 negative eigenvalues). Haasdonk (2005) used a 226-sample
    version of this set, which is not available; this is the 213-sample one of Chen et al.

    Parameters
    ----------
    return_D_y : bool, default=False
        Return ``(D, y)`` instead of a :class:`~sklearn.utils.Bunch`.

    Returns
    -------
    Bunch with ``D``, ``target`` (1-4), ``target_names``, ``DESCR``; or ``(D, y)``.

    Examples
    --------
    >>> from indefsvm.datasets import load_protein213
    >>> D, y = load_protein213(return_D_y=True)
    >>> D.shape, sorted(set(y.astype(int).tolist()))
    ((213, 213), [1, 2, 3, 4])
    """
    D, y = load_libsvm(data_path("protein213_dissim"), n_features=213)
    D = np.ascontiguousarray(D)
    if return_D_y:
        return D, y
    return Bunch(D=D, target=y, target_names=np.array(["HA", "HB", "M", "G"]),
                 DESCR=_DESCR["protein213"], filename=data_path("protein213_dissim"))


#: name used by the command line -> loader
DATASETS = {
    "heart": load_heart,
    "sonar": load_sonar,
    "breast_cancer_683": load_breast_cancer_683,
}
