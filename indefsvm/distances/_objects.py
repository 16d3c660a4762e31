"""The objects a distance compares, checked and put in the form its loop needs (private).

Every function raises ``ValueError`` naming the argument (``X`` or ``Y``) and saying what
would be accepted; nothing is converted in silence (a list of numbers is not read as strings,
nor strings as numbers).
"""

from __future__ import annotations

import numbers
from dataclasses import dataclass

import numpy as np

from .._warn import warn
from ..exceptions import ParameterError

__all__ = ["Series", "as_series", "as_strings", "as_vectors", "as_objects", "from_pandas"]


def from_pandas(X, name: str = "X", numbers_are: str = "values"):
    """A pandas container as NumPy, as scikit-learn takes one: a DataFrame is its array (a
    row an object: series of equal length, vectors; one column of strings), or, where its
    cells hold arrays (sktime's nested layout), a list of series whose columns are the
    channels; a Series is its entries, an object each (a column of strings, or of arrays of
    any length). A Series of
    numbers is refused where it would be one object (``numbers_are="one series"``: DTW),
    with the line for either reading. Anything else is returned as it is."""
    if not type(X).__module__.startswith("pandas") or not hasattr(X, "to_numpy"):
        return X
    values = X.to_numpy()
    if values.ndim == 2 and values.dtype == object and values.size and all(
            _is_sequence(v) for v in values.flat):
        # cells that hold arrays (sktime's nested layout; a list column read from parquet):
        # a row an object, its columns the channels
        return [_nested_row(row, k, name, list(X.columns)) for k, row in enumerate(values)]
    if values.ndim != 1:
        return values
    if values.dtype.kind in "biufc" and numbers_are == "one series":
        raise ValueError(f"{name} is a pandas Series of numbers: one series? Give "
                         f"[{name}.to_numpy()]. Several series are a 2-D array or DataFrame "
                         "(a row a series) or a list of arrays.")
    return list(values)


def _is_sequence(value) -> bool:
    """An array, list, tuple or pandas Series held in a cell (a string is one value)."""
    return isinstance(value, (np.ndarray, list, tuple)) or (
        type(value).__module__.startswith("pandas") and hasattr(value, "to_numpy"))


def _nested_row(row, k: int, name: str, columns: list):
    """Row ``k`` of a DataFrame whose cells hold arrays: one series, its columns the
    channels, all of one length (a 1-D series for one column)."""
    cells = [np.asarray(c.to_numpy() if hasattr(c, "to_numpy") else c) for c in row]
    if any(c.ndim != 1 for c in cells):
        raise ValueError(f"{name}: row {k} holds a cell of shape "
                         f"{next(c.shape for c in cells if c.ndim != 1)}; in a DataFrame of "
                         "series each cell is one channel, a 1-D array of points.")
    lengths = sorted({c.shape[0] for c in cells})
    if len(lengths) > 1:
        raise ValueError(f"{name}: the channels of row {k} ({', '.join(map(str, columns))}) "
                         f"hold {' and '.join(map(str, lengths))} points; the channels of one "
                         "series have one length (series of different lengths are "
                         "different rows).")
    return cells[0] if len(cells) == 1 else np.vstack(cells)  # (n_channels, n_timepoints)


def _looks_like_strings(X) -> bool:
    if isinstance(X, str):
        return True
    if isinstance(X, np.ndarray):
        return X.dtype.kind in "US" or (X.dtype == object and X.size > 0
                                         and isinstance(X.flat[0], str))
    return isinstance(X, (list, tuple)) and len(X) > 0 and isinstance(X[0], str)


def _describe(X) -> str:
    if isinstance(X, np.ndarray):
        return f"an array of shape {X.shape} and dtype {X.dtype}"
    return _a(type(X).__name__)


def _a(name: str) -> str:
    """``name`` with its indefinite article ("an int", "a dict", "a bytes object")."""
    if name in ("bytes", "bytearray"):
        return f"a {name} object"
    return f"{'an' if name[:1].lower() in 'aeiou' else 'a'} {name}"


@dataclass
class Series:
    """Series packed for the compiled DTW: ``points[offsets[s]:offsets[s + 1]]`` is series
    ``s`` as ``(length, n_channels)``."""

    points: np.ndarray
    offsets: np.ndarray
    n_channels: int

    @property
    def n(self) -> int:
        return self.offsets.shape[0] - 1

    @property
    def lengths(self) -> np.ndarray:
        return np.diff(self.offsets)


#: the bounds of the series' values for each ``values`` of the metric table: (all below:
#: underflow, beyond: overflow, what the programme does with them)
_BOUNDS = {"squares": (1e-150, 1e150, "squared differences"),
           "absolute": (0.0, 1e300, "sums of absolute differences")}


def _bounds(metric: str):
    """(low, high, words, label) of a metric's series, or None (no bound: a registered
    metric's own function, or a name not in the table)."""
    from .._metrics import get

    row = get(metric)
    if row is None or row.values is None:
        return None
    return (*_BOUNDS[row.values], row.name.upper())


def _finite(values: np.ndarray, name: str, rows: int = 0, metric: str = "dtw") -> None:
    """Refuse NaN and infinity, and values beyond what ``metric``'s programme can combine
    (:data:`_BOUNDS`); ``rows``: ``values`` is an array of series (3-D, time last)
    given as a 2-D (``rows`` 2) or 3-D (3) array, whose NaN may be the padding of shorter
    series (the UCR archive's layout), said with the list that DTW reads instead."""
    if not np.all(np.isfinite(values)):
        if rows and not np.isinf(values).any():
            gap = np.isnan(values).any(axis=1)  # (n, L): a missing point in any channel
            # padding: from a series' first missing point on, every point is missing
            tail = np.flip(np.cumsum(np.flip(~gap, axis=1), axis=1), axis=1) == 0
            if np.array_equal(gap, tail) and not gap[:, 0].any():
                fix = ("[x[~np.isnan(x)] for x in X]" if rows == 2 else
                       "[x[:, ~np.isnan(x).any(axis=0)] for x in X]")
                raise ValueError(
                    f"{name} has NaN at the end of {int(gap[:, -1].sum())} series: the "
                    "padding of shorter series (the UCR archive's layout)? An array holds "
                    "series of one length; DTW compares unequal lengths given as a list: "
                    f"{fix}.")
        raise ValueError(f"{name} contains NaN or infinity; remove or impute those values "
                         "(an alignment of series -- DTW's, the alignment kernel's -- has no "
                         "rule for a missing point).")
    bounds = _bounds(metric)
    top = float(np.max(np.abs(values))) if values.size else 0.0
    if bounds is not None and top > bounds[1]:
        raise ValueError(f"{name} has values up to {top:.3g}: {bounds[3]}'s {bounds[2]} "
                         "overflow float64. Scale the series (divide by a constant, or "
                         "z-normalise each one).")


def _numeric(a, name: str) -> np.ndarray:
    if np.iscomplexobj(a):
        raise ValueError(f"{name} is complex; DTW takes real series (put real and imaginary "
                         "parts in two channels if both matter).")
    raw = np.asarray(a) if not isinstance(a, np.ndarray) else a
    if raw.dtype.kind in "US" or (raw.dtype == object and any(
            isinstance(v, str) for v in raw.flat)):
        # "12" is text: DTW compares numbers, and never reads text as numbers
        raise ValueError(f"{name} holds text ({str(raw.flat[0])!r}); DTW compares numeric "
                         "series. Numbers written as text: convert them first "
                         "(np.asarray(x, dtype=float)); strings: metric='levenshtein'.")
    try:
        return np.asarray(a, dtype=np.float64)
    except (TypeError, ValueError) as exc:
        raise ParameterError(f"must hold numbers: {exc}", name) from None


def as_series(X, name: str = "X", metric: str = "dtw") -> Series:
    """Time series in any of the accepted forms, packed, checked for what ``metric``'s
    programme can take (the bounds of the table's ``values``; DTW's by default).

    Accepted: a 2-D array ``(n_series, n_timepoints)`` (univariate); a 3-D array
    ``(n_series, n_channels, n_timepoints)`` (aeon's layout); a list of 1-D arrays
    ``(n_timepoints_i,)`` or of 2-D arrays ``(n_channels, n_timepoints_i)`` whose lengths may
    differ; pandas' DataFrame (a row a series) and Series of arrays (an entry a series)."""
    X = from_pandas(X, name, "one series")
    if _looks_like_strings(X):
        raise ValueError(f"{name} holds strings; metric={metric!r} compares numeric series. For "
                         "strings use metric='levenshtein'.")
    if isinstance(X, np.ndarray) and X.dtype != object:
        A = _numeric(X, name)
        rows = A.ndim
        if A.ndim == 2:
            A = A[:, None, :]
        if A.ndim != 3:
            raise ParameterError(
                f"must be a collection of series: a 2-D array (n_series, n_timepoints), "
                f"a 3-D array (n_series, n_channels, n_timepoints) or a list of 1-D / 2-D "
                f"arrays; got shape {A.shape}" + (" (one series? use X[None, :])"
                                                  if A.ndim == 1 else "") + ".", name)
        n, d, L = A.shape
        if n == 0 or L == 0 or d == 0:
            raise ValueError(f"{name} is empty (shape {A.shape}); give at least one series "
                             "of at least one point.")
        if d > L:
            # more channels than points: most likely (n, length, channels) given for aeon's
            # (n, channels, length); said, not guessed
            warn(
                f"{name} has shape {A.shape}: read as {n} series of {d} channels and {L} "
                f"points each (aeon's layout: n_series, n_channels, n_timepoints). If these "
                f"are {d} points of {L} channels, give {name}.transpose(0, 2, 1).",
                UserWarning, stacklevel=3)
        _finite(A, name, rows, metric)
        points = np.ascontiguousarray(A.transpose(0, 2, 1).reshape(n * L, d))
        return _not_tiny(Series(points, np.arange(n + 1, dtype=np.intp) * L, d), name, metric)
    if not isinstance(X, (list, tuple, np.ndarray)):
        raise ParameterError(f"must be an array or a list of series; got {_describe(X)}.",
                             name)
    if len(X) == 0:
        raise ValueError(f"{name} is empty; give at least one series.")
    parts, d = [], None
    for s, x in enumerate(X):
        if isinstance(x, str):
            raise ValueError(f"{name}[{s}] is a string; metric={metric!r} compares numeric series. "
                             "For strings use metric='levenshtein'.")
        a = _numeric(x, f"{name}[{s}]")
        if a.ndim == 0:
            raise ValueError(
                f"{name}[{s}] is a single number; a list of series holds 1-D arrays "
                "(n_timepoints,) or 2-D arrays (n_channels, n_timepoints). For one series "
                "give [series] or X[None, :].")
        if a.ndim == 1:
            a = a[None, :]
        if a.ndim != 2:
            raise ValueError(f"{name}[{s}] has shape {a.shape}; a series is 1-D "
                             "(n_timepoints,) or 2-D (n_channels, n_timepoints).")
        if d is None:
            d = a.shape[0]
        elif a.shape[0] != d:
            # the same second axis everywhere and the first varying: series given as
            # (n_timepoints, n_channels), tslearn's layout of one series
            turned = a.shape[1] == parts[0].shape[0]
            raise ValueError(f"{name}[{s}] has {a.shape[0]} channels but {name}[0] has {d}; "
                             "every series needs the same channels (lengths may differ)."
                             + (f" Is each series (n_timepoints, n_channels)? A series here "
                                f"is (n_channels, n_timepoints): give [x.T for x in {name}]."
                                if turned else ""))
        if a.shape[1] == 0:
            raise ValueError(f"{name}[{s}] is empty; every series needs at least one point.")
        _finite(a, f"{name}[{s}]", metric=metric)
        parts.append(a.T)
    lengths = np.array([p.shape[0] for p in parts], dtype=np.intp)
    if d > 1 and d > lengths.max():
        # more channels than any series has points: most likely each series given as
        # (n_timepoints, n_channels); said, not guessed, as for a 3-D array
        warn(f"{name}[0] has shape {(d, int(lengths[0]))}: read as {len(parts)} series of {d} "
             f"channels and at most {int(lengths.max())} points each (a series is (n_channels, "
             f"n_timepoints), aeon's layout). If each series is (n_timepoints, n_channels), "
             f"give [x.T for x in {name}].", UserWarning, stacklevel=3)
    offsets = np.concatenate([[0], np.cumsum(lengths)]).astype(np.intp)
    return _not_tiny(Series(np.ascontiguousarray(np.concatenate(parts, axis=0)), offsets,
                            int(d)), name, metric)


def _not_tiny(series: Series, name: str, metric: str = "dtw") -> Series:
    """Refuse series whose every value is below the metric's low bound (and not all 0):
    DTW's squared differences of values below 1e-150 fall under float64's smallest normal
    number, and the distances came out 0 (values near 1e-200) or with a few digits (near
    1e-160) -- without a word. Sums of absolute differences (MSM) have no such bound."""
    bounds = _bounds(metric)
    top = float(np.max(np.abs(series.points))) if series.points.size else 0.0
    if bounds is not None and 0.0 < top < bounds[0]:
        raise ValueError(f"{name} has values of at most {top:.3g}: {bounds[3]}'s "
                         f"{bounds[2]} underflow float64 (the distances would be 0, or lose "
                         "their digits). Scale the series up (multiply by a constant, or "
                         "z-normalise each one).")
    return series


def as_strings(X, name: str = "X") -> list:
    """A list of ``str`` (Unicode code points are the symbols); a pandas Series of them too."""
    X = from_pandas(X, name)
    if isinstance(X, str):
        raise ValueError(f"{name} is one string; give a list of strings.")
    if isinstance(X, np.ndarray) and X.dtype.kind in "biufc":
        raise ValueError(f"{name} holds numbers ({_describe(X)}); metric='levenshtein' "
                         "compares strings. For numeric series use metric='dtw'.")
    if not isinstance(X, (list, tuple, np.ndarray)):
        raise ParameterError(f"must be a list of strings; got {_describe(X)}.", name)
    out = list(np.ravel(X)) if isinstance(X, np.ndarray) else list(X)
    if not out:
        raise ValueError(f"{name} is empty; give at least one string.")
    for s, x in enumerate(out):
        if not isinstance(x, str):
            kind = ("a number" if isinstance(x, (numbers.Number, np.number))
                    else _a(type(x).__name__))
            raise ValueError(f"{name}[{s}] is {kind}, not a string; metric='levenshtein' "
                             "compares strings (decode bytes first; for numeric series use "
                             "metric='dtw').")
    return out


def as_vectors(X, name: str = "X") -> np.ndarray:
    """Equal-length objects as the rows of a float64 matrix (a 3-D array of series is
    flattened channel after channel); a pandas DataFrame is its array."""
    X = from_pandas(X, name)
    if _looks_like_strings(X):
        raise ValueError(f"{name} holds strings; this metric compares numeric vectors. For "
                         "strings use metric='levenshtein'.")
    if isinstance(X, np.ndarray) and X.dtype != object:
        A = _numeric(X, name)
    else:
        if not isinstance(X, (list, tuple, np.ndarray)) or len(X) == 0:
            raise ParameterError(f"must be a non-empty array or list of vectors; got "
                                 f"{_describe(X)}.", name)
        rows = [_numeric(x, f"{name}[{s}]") for s, x in enumerate(X)]
        sizes = sorted({r.size for r in rows})
        if len(sizes) > 1:
            raise ValueError(f"{name} holds objects of different lengths ({sizes[0]} to "
                             f"{sizes[-1]} values); this metric needs one length. For series "
                             "of different lengths use metric='dtw'.")
        A = np.stack([r.ravel() for r in rows])
    if A.ndim == 3:
        A = A.reshape(A.shape[0], -1)
    if A.ndim != 2 or A.shape[0] == 0 or A.shape[1] == 0:
        raise ParameterError(f"must be a non-empty 2-D array (n_objects, n_values) or a "
                             f"3-D array of series; got shape {A.shape}.", name)
    if not np.all(np.isfinite(A)):
        raise ValueError(f"{name} contains NaN or infinity; remove or impute those values.")
    return np.ascontiguousarray(A)


def as_objects(X, name: str = "X") -> list:
    """Anything a callable metric takes: the rows of an array, or the items of a list (or
    of a pandas Series; a DataFrame's rows)."""
    X = from_pandas(X, name)
    if isinstance(X, str):
        raise ValueError(f"{name} is one string; give a list of objects.")
    if isinstance(X, np.ndarray):
        if X.ndim == 0:
            raise ParameterError("must be a collection of objects; got a 0-D array.", name)
        out = list(X)
    elif isinstance(X, (list, tuple)):
        out = list(X)
    else:
        raise ParameterError(f"must be an array or a list of objects; got {_describe(X)}.",
                             name)
    if not out:
        raise ValueError(f"{name} is empty; give at least one object.")
    return out


def same_width(A, B, metric) -> None:
    if A.shape[1] != B.shape[1]:
        raise ValueError(f"X has {A.shape[1]} values per object and Y has {B.shape[1]}; "
                         f"metric={metric!r} needs the same number.")


def check_finite_distances(out, metric, A, B) -> None:
    """scipy's (and the device's) sums overflow to inf without a word on values near 1e154
    (euclidean squares them) or 1e308 (cityblock): refused, with the fix."""
    if not np.all(np.isfinite(out)):
        top = max(float(np.abs(A).max()), float(np.abs(B).max()))
        raise ValueError(f"the {metric} distances overflow float64 on values up to "
                         f"{top:.3g}; scale the vectors first (divide by a constant, or "
                         "standardise each feature).")
