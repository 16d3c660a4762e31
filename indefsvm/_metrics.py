"""The metrics' one table: every distance by name, the objects it compares, its parameters,
its compiled function, its device form and whether random objects of its kind can be drawn.
Private; a low floor -- nothing computed here, the functions named as ``"module:attr"`` and
imported when first used -- so that ``pairwise_distances``, the landmark features, the
readers of series and strings, the saved-model checks and the command line's ``--metric``
all ask this table instead of comparing a metric's name (as ``_remedies`` is for the
remedies). :func:`register_metric` adds a row: a new distance is one call, from any file.
"""

from __future__ import annotations

import importlib
import re
from collections.abc import Callable
from dataclasses import dataclass

from .exceptions import ParameterError

__all__ = ["OBJECTS", "Metric", "REGISTRY", "default_metric", "device_metrics", "get",
           "object_kernels", "object_metrics", "objects_of", "register_metric", "resolve",
           "takes"]

#: the kinds of objects a metric compares, and how they are said
OBJECTS = ("series", "strings", "vectors")


@dataclass(frozen=True)
class Metric:
    """One row of the metric table.

    Attributes
    ----------
    name : str
        ``metric=`` in the library, ``--metric`` on the command line.
    objects : {"series", "strings", "vectors"}
        What it compares: numeric series of any lengths (one or several channels), strings,
        or vectors of one length.
    params : tuple of str
        The parameters it takes (``metric_params`` keys; ``window`` has its own argument).
    compute : callable or str
        ``compute(name, X, Y, params, threads, progress) -> ndarray``: the distances of
        ``X`` to ``Y`` (``Y`` None: ``X`` to itself, each pair once, the diagonal 0),
        ``params`` checked by ``check``; or the ``"module:attr"`` of such a function.
    check : callable or str or None
        ``check(params) -> params``: the parameters validated (and put in their canonical
        form) before any work; None: taken as given.
    device : str or None
        The ``"module:attr"`` of its CUDA form, ``f(device, metric, params, X, Y)``; None:
        no device form.
    random_objects : bool
        ``RandomDistanceFeatures(random_objects="auto")`` draws random objects of its kind
        (random series, random strings) rather than sampling the training objects.
    summary : str
        One line for help texts.
    function : callable or None
        A registered metric's own function, ``function(X, Y, **params)`` (then ``compute``
        is empty): the objects are checked for its kind before it runs and its result
        after.
    kernel : str or None
        The ``"module:attr"`` of the positive-definite kernel the distance is induced by,
        ``f(name, X, Y, params, threads, progress) -> K``: ``kernel_matrix(X,
        kernel=name)`` computes it, and an SVM takes ``kernel=name`` on the objects.
    kernel_fit : str or None
        The ``"module:attr"`` of ``f(X, params) -> params``: the kernel's parameters that a
        rule sets from the data (a bandwidth) fixed on the training objects, so that a
        fitted model's kernel rows of new objects are those of the same kernel.
    values : {"squares", "absolute"} or None
        How a compiled programme of series combines the points, which bounds the values
        the series' checks take: ``"squares"`` (squared differences: values of magnitude
        beyond 1e150 overflow float64, all below 1e-150 underflow), ``"absolute"`` (sums
        of absolute differences: beyond 1e300 overflow, nothing underflows); None: no bound
        (a registered metric's own function, whose result is checked).
    """

    name: str
    objects: str
    params: tuple[str, ...] = ()
    compute: Callable | str = ""
    check: Callable | str | None = None
    device: str | None = None
    random_objects: bool = False
    summary: str = ""
    function: Callable | None = None
    kernel: str | None = None
    kernel_fit: str | None = None
    values: str | None = None


_P = "indefsvm.distances._pairwise"
_A = "indefsvm.distances._alignment"

#: every metric, in the order of the help texts
REGISTRY: dict[str, Metric] = {m.name: m for m in (
    Metric("dtw", "series", ("window",), f"{_P}:_dtw", f"{_P}:_dtw_params",
           "indefsvm.distances._device:dtw_distances", random_objects=True, values="squares",
           summary="dynamic time warping between series (a Sakoe-Chiba band: window)"),
    Metric("levenshtein", "strings", ("weights",), f"{_P}:_levenshtein",
           f"{_P}:_levenshtein_params", random_objects=True,
           summary="the edit distance between strings (costs: weights)"),
    Metric("gak", "series", ("sigma", "window"), f"{_A}:gak_distance", f"{_A}:gak_params",
           random_objects=True, kernel=f"{_A}:gak_kernel", kernel_fit=f"{_A}:gak_fitted",
           values="squares",
           summary="the distance of the global alignment kernel, sqrt(2 - 2 k), between "
                   "series (bandwidth: sigma; a triangular band: window)"),
    Metric("msm", "series", ("c", "window"), "indefsvm.distances._msm:msm_distance",
           "indefsvm.distances._msm:msm_params", random_objects=True, values="absolute",
           summary="move-split-merge between series, a metric (the cost of a split or "
                   "merge: c; a Sakoe-Chiba band: window)"),
    Metric("euclidean", "vectors", (), f"{_P}:_euclidean", None,
           "indefsvm.distances._device:euclidean_distances",
           summary="the Euclidean distance between vectors"),
    Metric("cityblock", "vectors", (), f"{_P}:_cityblock", None,
           "indefsvm.distances._device:cityblock_distances",
           summary="the L1 (city-block) distance between vectors"),
)}

_NAME = re.compile(r"[a-z][a-z0-9_-]*\Z")


def get(metric) -> Metric | None:
    """The row of a metric name; None for a callable or a name not in the table."""
    return REGISTRY.get(metric) if isinstance(metric, str) else None


def objects_of(metric) -> str | None:
    """``"series"``, ``"strings"`` or ``"vectors"`` for a metric of the table, ``"objects"``
    for a callable (anything it takes), None for an unknown name."""
    if callable(metric):
        return "objects"
    row = get(metric)
    return None if row is None else row.objects


def takes(metric, param: str) -> bool:
    """Whether the metric of the table takes ``param``."""
    row = get(metric)
    return row is not None and param in row.params


def object_metrics() -> tuple[str, ...]:
    """The metrics of series and strings (the command line's ``--metric``: vectors are read
    as features)."""
    return tuple(n for n, m in REGISTRY.items() if m.objects in ("series", "strings"))


def object_kernels() -> tuple[str, ...]:
    """The kernels of the table (``kernel_matrix(X, kernel=name)``, ``IndefiniteSVC(kernel=
    name)`` on the objects themselves): the global alignment kernel of series."""
    return tuple(n for n, m in REGISTRY.items() if m.kernel is not None)


def device_metrics() -> tuple[str, ...]:
    """The metrics with a CUDA form."""
    return tuple(n for n, m in REGISTRY.items() if m.device is not None)


def default_metric(objects: str) -> str:
    """The first metric of the table for a kind of objects (``"series"``: ``"dtw"``)."""
    for name, m in REGISTRY.items():
        if m.objects == objects:
            return name
    raise ValueError(f"no metric compares {objects}")


def resolve(ref):
    """A function given as ``"module:attr"`` imported (a callable returned as it is)."""
    if callable(ref) or ref is None:
        return ref
    module, attr = ref.split(":")
    return getattr(importlib.import_module(module), attr)


def register_metric(name: str, function: Callable, *, objects: str,
                    params: tuple[str, ...] = (), check: Callable | None = None,
                    random_objects: bool = False, summary: str = "",
                    replace: bool = False) -> Metric:
    """Add a distance to the metric table: every part of the library that takes
    ``metric=`` (and the command line's ``--metric``, for series and strings) takes it.

    Parameters
    ----------
    name : str
        Its name: lower case letters, digits, ``_`` and ``-``, starting with a letter.
    function : callable
        ``function(X, Y, **params) -> array of shape (len(X), len(Y))``: the distances
        between two collections of the objects (``Y`` is ``X`` itself for the training
        matrix). It receives the objects as checked for their kind: series as a list of
        float arrays (1-D, or ``(n_channels, length)``), strings as a list of ``str``,
        vectors as a 2-D float array. Every value must be finite and ``>= 0``; the training
        matrix is taken as symmetric with a zero diagonal.
    objects : {"series", "strings", "vectors"}
        What it compares (how files are read for it, and how its inputs are checked).
    params : tuple of str, default=()
        The parameters it takes (``metric_params`` keys); any other is refused by name.
    check : callable, optional
        ``check(params) -> params``, raising ``ValueError`` on a bad value, run before any
        work.
    random_objects : bool, default=False
        Whether ``RandomDistanceFeatures`` draws random objects of this kind (random series
        or strings) instead of sampling the training objects.
    summary : str, default=""
        One line for help texts.
    replace : bool, default=False
        Replace a metric of the same name (the built-in ones cannot be replaced).

    Returns
    -------
    Metric
        Its row of the table.

    Raises
    ------
    ValueError
        A name that is taken or malformed, unknown objects, a function that is not
        callable.

    Examples
    --------
    >>> import numpy as np
    >>> import indefsvm as isvm
    >>> def chebyshev(X, Y):
    ...     return np.abs(X[:, None, :] - Y[None, :, :]).max(axis=2)
    >>> _ = isvm.register_metric("chebyshev-doc", chebyshev, objects="vectors")
    >>> isvm.pairwise_distances(np.array([[0.0, 0], [3, 1]]), metric="chebyshev-doc")
    array([[0., 3.],
           [3., 0.]])
    """
    if not isinstance(name, str) or not _NAME.match(name):
        raise ParameterError(f"must be lower case letters, digits, '_' or '-', starting "
                             f"with a letter; got {name!r}.", "name")
    if name in _BUILT_IN or (name in REGISTRY and not replace):
        raise ValueError(f"metric {name!r} is in the table already"
                         + ("" if name in _BUILT_IN else "; give replace=True to replace it")
                         + ".")
    if objects not in OBJECTS:
        raise ParameterError(f"must be one of {list(OBJECTS)}; got {objects!r}.", "objects")
    if not callable(function):
        raise ParameterError(f"must be callable: function(X, Y, **params) -> "
                             f"distances; got {function!r}.", "function")
    if random_objects and objects == "vectors":
        raise ValueError("random_objects=True draws random series or strings; vectors are "
                         "sampled from the training data.")
    params = tuple(params)
    if not all(isinstance(p, str) and p.isidentifier() for p in params):
        raise ParameterError(f"must be parameter names; got {params!r}.", "params")
    row = Metric(name, objects, params, "", check, None, bool(random_objects), summary,
                 function=function)
    REGISTRY[name] = row
    return row


_BUILT_IN = frozenset(REGISTRY)
