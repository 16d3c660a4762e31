"""DTW's warping window learned from the labels: the band of least leave-one-out 1-NN error,
the UCR archive's "learned window" (Dau et al. 2019)."""

from __future__ import annotations

import html
import numbers
import time
from dataclasses import dataclass

import numpy as np

from .._validation import (
    N_JOBS,
    check_label_vector,
    options_checked,
)
from ..exceptions import ParameterError

__all__ = ["DEFAULT_WINDOWS", "WindowChoice", "learn_window"]

#: the windows tried by default: 0 to 20 % of the length in steps of 1 % (the learned
#: windows of the UCR archive's data sets lie there, but for a few at 100 %)
DEFAULT_WINDOWS = tuple(k / 100 for k in range(21))


@dataclass
class WindowChoice:
    """DTW's window chosen by leave-one-out 1-NN, and the evidence.

    Attributes
    ----------
    window : float
        The chosen window (a share of the length, as ``pairwise_distances(window=...)``
        takes it): the least leave-one-out 1-NN error, ties to the narrower band.
    windows : list of float
        The windows tried, in increasing order.
    errors : list of float
        The leave-one-out 1-NN error at each (each series classified by its nearest other
        series; a tie of distances goes to the first of them).
    n : int
        The series.
    seconds : float
        The time of all the distances.

    Examples
    --------
    >>> import indefsvm as isvm
    >>> S, y = isvm.datasets.make_cbf(30, random_state=0)
    >>> choice = isvm.distances.learn_window(S, y, windows=[0.0, 1.0])
    >>> len(choice.errors), choice.error == min(choice.errors)
    (2, True)
    """

    window: float
    windows: list
    errors: list
    n: int
    seconds: float

    @property
    def error(self) -> float:
        """The leave-one-out 1-NN error at the chosen window."""
        return self.errors[self.windows.index(self.window)]

    def __str__(self) -> str:
        full = self.errors[-1] if self.windows[-1] >= 1.0 else None
        return (f"DTW window {self.window:g} ({100 * self.window:g} % of the length): "
                f"leave-one-out 1-NN error {100 * self.error:.2f} % on {self.n} series, the "
                f"least of {len(self.windows)} windows from {self.windows[0]:g} to "
                f"{self.windows[-1]:g} (ties to the narrower band)"
                + ("" if full is None else f"; no band: {100 * full:.2f} %")
                + f"; {self.seconds:.1f} s.")

    def _repr_html_(self) -> str:
        rows = "".join(
            f"<tr><td>{w:g}</td><td>{100 * e:.2f} %</td>"
            f"<td>{'chosen' if w == self.window else ''}</td></tr>"
            for w, e in zip(self.windows, self.errors, strict=True))
        return (f"<div><p>{html.escape(str(self))}</p><table><tr><th>window</th>"
                f"<th>LOO 1-NN error</th><th></th></tr>{rows}</table></div>")

    def to_dict(self) -> dict:
        """JSON-serialisable dictionary."""
        return {"window": self.window, "windows": list(self.windows),
                "errors": list(self.errors), "error": self.error, "n": self.n,
                "seconds": self.seconds}


def _check_windows(windows) -> list:
    if windows is None:
        return list(DEFAULT_WINDOWS)
    if isinstance(windows, (str, bytes)) or not hasattr(windows, "__iter__"):
        raise ParameterError(f"must be a list of numbers in [0, 1] (shares of the "
                             f"length); got {windows!r}.", "windows")
    out = []
    for w in windows:
        if (isinstance(w, bool) or not isinstance(w, numbers.Real)
                or not 0 <= float(w) <= 1):
            raise ValueError(f"windows holds {w!r}; each window is a number in [0, 1], a "
                             "share of the length (0: no warping, 1: no band).")
        out.append(float(w))
    if not out:
        raise ValueError("windows is empty; give at least one window.")
    return sorted(set(out))


@options_checked({"n_jobs": N_JOBS, "verbose": ["verbose"]})
def learn_window(X, y, windows=None, *, n_jobs: int | None = None,
                 verbose: bool = False) -> WindowChoice:
    """DTW's window (Sakoe-Chiba band) of least leave-one-out 1-NN error on ``(X, y)``.

    The UCR archive learns each data set's window so (Dau et al. 2019, "DTW learned_w";
    Ratanamahatana & Keogh 2004): every series is classified by its nearest other series at
    each window, and the window of fewest errors is kept -- ties to the narrower band,
    which is cheaper and warps less. The window then goes to ``pairwise_distances(...,
    window=w)``, ``NystroemSVC(metric="dtw", metric_params={"window": w})`` or the command
    line's ``--window``. Costs one DTW distance matrix of ``X`` per window, each of them
    cheaper the narrower the band.

    Parameters
    ----------
    X : array-like or list of series
        As :func:`~indefsvm.pairwise_distances` takes them for ``metric="dtw"`` (2-D, 3-D,
        or a list of series of any lengths).
    y : array-like of shape (n,)
        Their labels.
    windows : list of float, optional
        The windows to try, shares of the length in ``[0, 1]`` (``1``: no band). Default
        :data:`DEFAULT_WINDOWS`, 0 to 0.2 in steps of 0.01.
    n_jobs : int, optional
        Threads of the DTW (``-1``: all cores).
    verbose : bool, default=False
        Log each window's error (``logging.getLogger("indefsvm")``, INFO).

    Returns
    -------
    WindowChoice

    References
    ----------
    H. A. Dau, A. Bagnall, K. Kamgar et al. (2019), The UCR time series archive, IEEE/CAA J.
    Autom. Sinica 6(6). C. A. Ratanamahatana & E. Keogh (2004), Making time-series
    classification more accurate using learned constraints, SIAM SDM.

    Examples
    --------
    >>> import indefsvm as isvm
    >>> S, y = isvm.datasets.make_cbf(60, random_state=0)
    >>> choice = isvm.distances.learn_window(S, y, windows=[0.0, 0.1, 1.0])
    >>> choice.window in (0.0, 0.1, 1.0)
    True
    """
    from .._logging import enable, logger
    from ._pairwise import pairwise_distances

    talk = enable(verbose)
    grid = _check_windows(windows)
    try:
        if isinstance(X, (str, bytes)):
            raise TypeError
        len(X)
    except TypeError:
        raise ParameterError(f"must hold the series: a list of 1-D arrays or a 2-D array of "
                             f"equal-length rows; got {type(X).__name__}.", "X") from None
    y = np.asarray(y)
    n = len(X)
    if y.ndim != 1 or y.shape[0] != n:
        raise ParameterError(f"must have one label per series of X: X holds {n} series, y has "
                             f"shape {y.shape}.", "y")
    check_label_vector(y)
    if n < 2:
        raise ValueError(f"leave-one-out 1-NN needs at least 2 series; got {n}.")
    t0 = time.perf_counter()
    errors = []
    for k, w in enumerate(grid, 1):
        D = pairwise_distances(X, metric="dtw", window=w, n_jobs=n_jobs)
        np.fill_diagonal(D, np.inf)  # leave one out: a series is not its own neighbour
        errors.append(float(np.mean(y[np.argmin(D, axis=1)] != y)))
        if talk:
            logger.info("learn_window: window %d of %d (%g): leave-one-out 1-NN error "
                        "%.2f %% (%.1f s)", k, len(grid), w, 100 * errors[-1],
                        time.perf_counter() - t0)
    best = min(range(len(grid)), key=lambda k: (errors[k], grid[k]))
    return WindowChoice(window=grid[best], windows=grid, errors=errors, n=n,
                        seconds=time.perf_counter() - t0)
