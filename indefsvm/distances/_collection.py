"""A collection of objects compared by a metric, for features made of distances to a few
objects (Nystroem landmarks, D2KE's random objects): checked once, sliced by index, its
distances to those objects computed block by block (private)."""

from __future__ import annotations

import re

import numpy as np

from .._metrics import objects_of
from .._warn import Muted
from ..exceptions import ParameterError
from ._objects import as_objects, as_series, as_strings, as_vectors, from_pandas
from ._pairwise import _check_params, pairwise_distances

#: distances per block of rows (rows x landmarks): a block of DTW distances takes about a
#: second on one core, so progress and Ctrl-C are seen between blocks as well as inside them
PAIRS_PER_BLOCK = 200_000

#: the D^2 seeding of "kmedoids++" runs over a random pool of this many objects (or 10 m)
KMEDOIDS_POOL = 2000


class Objects:
    """A collection of objects a metric takes, checked once (and named ``name``)."""

    def __init__(self, X, metric, params: dict, name: str = "X"):
        self.metric = metric
        self.params = _check_params(metric, dict(params))
        self.n_channels = None
        # a DataFrame (a row an object) or a Series (an entry an object) as NumPy first: the
        # collection indexes and takes its objects by position
        objects = objects_of(metric)
        X = from_pandas(X, name, "one series" if objects == "series" else "values")
        if objects == "series":
            # the checks: numbers, finite, not empty, channels agree
            self.n_channels = as_series(X, name, metric).n_channels
            self.data = X if isinstance(X, np.ndarray) and X.dtype != object else list(X)
        elif objects == "strings":
            self.data = as_strings(X, name)
            empty = next((i for i, s in enumerate(self.data) if not s), None)
            if empty is not None:
                raise ValueError(f"{name}[{empty}] is an empty string; remove it (an empty "
                                 "string is at the same distance, its length, from every "
                                 "string of that length: it carries no pattern).")
        elif objects == "objects":
            self.data = as_objects(X, name)
        else:
            self.data = as_vectors(X, name)
        self.name = name

    def __len__(self) -> int:
        return len(self.data)

    def check_channels(self, fitted, what: str) -> None:
        """Series to transform have the channels of the series a model was fitted on
        (``fitted``, its landmarks or random series, named ``what``): said in the model's
        words, before any distance."""
        if self.n_channels is None:
            return
        # the fitted series' layout was said when the model was fitted, not again here
        k = Muted(UserWarning, match=r".* has shape .*: read as .* channels").call(
            as_series, fitted, what, self.metric).n_channels
        if k != self.n_channels:
            raise ValueError(f"{self.name} holds series of {self.n_channels} channel(s); the "
                             f"model was fitted on series of {k} ({what}): give series with "
                             "the same channels.")

    def take(self, idx):
        idx = np.asarray(idx, dtype=np.intp)
        if isinstance(self.data, np.ndarray):
            return self.data[idx]
        return [self.data[i] for i in idx]

    def distances(self, rows, landmarks, landmark_idx=None, *, n_jobs=None, offset: int = 0):
        """``d(rows, landmarks)`` (``landmarks=None``: the rows among themselves, each pair
        once); a callable's bad value is reported with the object's index in the whole
        collection (``offset`` + its row) and the landmark's."""
        try:
            # the layout of a 3-D array was said once, when the collection was made; not
            # again for every block of its rows
            return Muted(UserWarning, match=r".* has shape .*: read as .* channels").call(
                pairwise_distances, rows, landmarks, metric=self.metric, n_jobs=n_jobs,
                **self.params)
        except ValueError as exc:
            m = re.search(r"for X\[(\d+)\] and [XY]\[(\d+)\]", str(exc))
            if m is None:
                raise
            i, j = int(m.group(1)), int(m.group(2))
            where = (f"{self.name}[{offset + i}] and landmark {j}"
                     + ("" if landmark_idx is None else
                        f" (training object {int(landmark_idx[j])})"))
            raise ValueError(str(exc)[:m.start()] + "for " + where + str(exc)[m.end():]) \
                from None

    @staticmethod
    def block_rows(m: int) -> int:
        """Objects per block: about PAIRS_PER_BLOCK distances to ``m`` landmarks."""
        return max(16, PAIRS_PER_BLOCK // max(m, 1))

    def blocks(self, m: int):
        """(lo, hi, rows) over the collection, about PAIRS_PER_BLOCK distances each."""
        n = len(self)
        step = self.block_rows(m)
        for lo in range(0, n, step):
            hi = min(n, lo + step)
            yield lo, hi, self.take(np.arange(lo, hi))


def kmedoids_pp(objs: Objects, m: int, rng, n_jobs=None) -> np.ndarray:
    """D^2 seeding on the distances themselves (k-means++ of Arthur & Vassilvitskii 2007
    with the metric's own distances, no coordinates needed): the first landmark uniformly,
    each next one with probability proportional to its squared distance to the nearest
    landmark chosen, over a random pool of ``max(KMEDOIDS_POOL, 10 m)`` objects."""
    n = len(objs)
    size = min(n, max(KMEDOIDS_POOL, 10 * m))
    pool = np.arange(n) if size == n else np.sort(rng.choice(n, size=size, replace=False))
    P = objs.take(pool)
    first = int(rng.integers(size))
    chosen = [first]
    dmin = objs.distances(P, objs.take(pool[[first]]), n_jobs=n_jobs)[:, 0]
    taken = np.zeros(size, dtype=bool)
    taken[first] = True
    for _ in range(1, m):
        p = np.where(taken, 0.0, dmin * dmin)
        total = float(p.sum())
        if total > 0:
            j = int(rng.choice(size, p=p / total))
        else:  # every candidate is at distance 0 from a landmark: any untaken one
            j = int(rng.choice(np.flatnonzero(~taken)))
        chosen.append(j)
        taken[j] = True
        d = objs.distances(P, objs.take(pool[[j]]), n_jobs=n_jobs)[:, 0]
        np.minimum(dmin, d, out=dmin)
    return np.sort(pool[np.asarray(chosen)])


def check_metric(metric, params) -> None:
    """A metric name or callable and its parameters (pairwise_distances' own checks)."""
    if not (callable(metric) or isinstance(metric, str)):
        raise ParameterError(f"must be a name or a callable d(a, b) -> float; got "
                             f"{metric!r}.", "metric")
    if params is not None and not isinstance(params, dict):
        raise ParameterError(f"must be a dict; got {params!r}.", "metric_params")
    # the band, the edit weights: each metric's own check, at fit
    _check_params(metric, dict(params or {}))
