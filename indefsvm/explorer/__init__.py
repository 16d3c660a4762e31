"""The explorer: an interactive page of the pseudo-Euclidean geometry of an SVM.

``isvm.explore(X, y, kernel="sigmoid")`` trains the SVM for every combination of kernel
parameters, ``C`` and remedy on a grid, reads each model with the library's diagnostics
(:func:`~indefsvm.check_kernel`, :func:`~indefsvm.sanity_report`, the embedding of
Haasdonk 2005, Prop. 1) and returns an :class:`Explorer`: a self-contained HTML page whose
sliders select a frame (``to_html``, ``save``, inline in Jupyter), and the numbers of every
frame (``to_dict``). For 2-D inputs of at most 200 points the page also has a live mode: it
computes each frame itself, with the library's algorithms ported to the page (``live.js``),
while the student adds, drags and deletes points; its whole state lives in the link
(:meth:`Explorer.url`).

This package sits on top of the library, beside :mod:`indefsvm.plotting`: nothing imports it.
"""

from __future__ import annotations

import html
import os
import time
from pathlib import Path

import numpy as np

from .._files import atomic_write
from .._logging import enable
from .._threads import sized_by
from .._validation import (
    check_finite_array,
    check_kernel_matrix,
    options_checked,
)
from .._warn import Muted
from ..exceptions import DistanceMatrixWarning, ParameterError
from ..kernels import KERNELS, canonical_name, resolve_gamma
from ._frames import compute_frames
from ._grid import (
    DEFAULT_REMEDIES,
    LIVE_C,
    LIVE_KERNELS,
    LIVE_MAX,
    MAX_PAGE_MB,
    MAX_POINTS,
    REMEDIES,
    check_C,
    check_param_grid,
    check_remedies,
    default_param_grid,
    estimate_page_mb,
    frame_keys,
    from_ints,
    grid_digits,
    live_specs,
    to_ints,
)
from ._page import render_page

__all__ = ["LESSONS", "REMEDIES", "Explorer", "default_param_grid", "explore", "lesson_links",
           "live_hash", "playground"]

#: what a link may hide: panels, and controls of live mode (also any parameter name or "C")
HIDEABLE = ("spectrum", "plane", "input", "readouts", "caption", "controls", "kernel",
            "remedy", "sets", "classes")


def _shows_the_idea(frame: dict) -> bool:
    """The plane drawn tells the frame's story: its in-plane w'Mw has the sign of the whole
    w'Mw and is not lost in rounding against it (at least 1 % of it)."""
    whole, plane = frame.get("w_M_w"), frame.get("plane_w_M_w")
    if whole is None or plane is None or not np.isfinite(whole) or not np.isfinite(plane):
        return False
    return (plane > 0) == (whole > 0) and abs(plane) >= 0.01 * abs(whole)


class Explorer:
    """The frames of :func:`explore` and the page that shows them.

    Attributes
    ----------
    kernel : str
    classes : list
        The two classes; the second is the positive one (``y = +1``, as the SVM uses it).
    grid : dict
        ``{"params": {name: values}, "C": values, "remedies": names}``.
    frames : list of dict
        One per grid point, in the page's order (kernel parameters outermost, then the
        remedy, then C). See :meth:`to_dict`.
    build_seconds : float
        Time to compute the frames.

    Examples
    --------
    >>> import numpy as np
    >>> import indefsvm as isvm
    >>> rng = np.random.default_rng(0)
    >>> X = rng.normal(size=(30, 2)); y = (X[:, 0] > 0).astype(int)
    >>> ex = isvm.explore(X, y, kernel="sigmoid", param_grid={"gamma": [0.5], "coef0": [-1.0]},
    ...                   C=[1.0], remedies=("none",))
    >>> sorted(ex.to_dict()["frames"][0])[:4]
    ['C', 'Mw', 'caption', 'class_mean_sqdist']
    >>> ex.to_html().startswith("<!DOCTYPE html>")
    True
    """

    def __init__(self, *, kernel, classes, grid, kernels, frames, data, build_seconds):
        self.kernel = kernel
        self.classes = classes
        self.grid = grid
        self._kernels = kernels
        self._frames = frames
        self._data = data
        self.build_seconds = build_seconds

    @property
    def frames(self) -> list:
        """The numbers of every frame (``to_dict()["frames"]``): one dict a frame."""
        return self.to_dict()["frames"]

    def to_dict(self) -> dict:
        """The numbers of every frame, as the page shows them.

        Returns
        -------
        dict
            ``{"kernel", "classes", "n", "grid", "frames"}``; each frame holds ``params``,
            ``C``, ``remedy``; the kernel's ``signature`` ``[p, q, z]``, ``negative_mass``,
            ``lam_min``, ``lam_max``, ``class_mean_sqdist`` (``c'Kc``), ``kernel_verdict``
            (:func:`~indefsvm.check_kernel` of the kernel the SVM is trained on), the
            centred ``spectrum`` and its ``zero_tol`` (``n * eps * max |lambda|``); the
            SVM's ``w_M_w``, ``sanity_verdict`` (:attr:`SanityReport.verdict`),
            ``converged``, ``n_iter``, ``kkt_gap``, ``objective``, ``n_sv``, ``n_bounded``,
            ``train_accuracy``, ``ch_mu``; the plane of the page (``plane`` points,
            ``plane_axes``, ``plane_M``, ``hulls_full``, ``hulls``, ``z_plus``,
            ``z_minus``, ``w``, ``Mw``, ``plane_w_M_w``, ``support``), the ``decision``
            image over the input plane for 2-D inputs, and the ``caption``. Drawn arrays
            are rounded to 4 significant digits, readouts are exact.
        """
        frames = [{**self._kernels[f["kernel"]], **{k: v for k, v in f.items()
                                                     if k != "kernel"}}
                  for f in self._frames]
        return {"kernel": self.kernel, "classes": self.classes, "n": self._data["n"],
                "grid": self.grid, "frames": frames}

    def to_html(self) -> str:
        """One self-contained HTML page: data, script and style inline, nothing loaded from
        the network (it opens from ``file://`` and inside a docs site).

        Returns
        -------
        str
        """
        payload = {**self._data, "kernel": self.kernel, "classes": self.classes,
                   "grid": self.grid, "kernels": self._kernels, "frames": self._frames,
                   "start": self.start}
        return render_page(payload)

    @property
    def start(self) -> dict:
        """The frame the page opens on: of the first remedy's frames (``"none"`` by
        default), a sensible model (``w'Mw > 0``) whose plane shows it (the in-plane w'Mw
        of the sign of the whole one and at least 1 % of it: a frame of in-plane w'Mw =
        7.5e-7 opened on "w and Mw lie on the same side" over a near-zero w), with the
        highest training accuracy, the one nearest the middle of the grid among equals.

        Returns
        -------
        dict
            ``{"idx": [index of each kernel parameter's value, ..., index of C],
            "remedy": 0}``, the page's slider positions.
        """
        g = self.grid
        sizes = [len(v) for v in g["params"].values()] + [len(g["C"])]
        mid = [(s - 1) / 2 for s in sizes]
        n_rem, n_c = len(g["remedies"]), sizes[-1]
        best, best_key = None, None
        for i, f in enumerate(self._frames):
            # the frames' order: kernel parameters outermost, then the remedy, then C
            c, rest = i % n_c, i // n_c
            if rest % n_rem != 0:
                continue
            rest //= n_rem
            idx = []
            for s in reversed(sizes[:-1]):
                idx.append(rest % s)
                rest //= s
            idx = idx[::-1] + [c]
            key = (f.get("sanity_verdict") == "sensible", _shows_the_idea(f),
                   f.get("train_accuracy", 0.0),
                   -sum(abs(a - m) for a, m in zip(idx, mid, strict=True)))
            if best_key is None or key > best_key:
                best, best_key = idx, key
        return {"idx": best or [int(m) for m in mid], "remedy": 0}

    def save(self, path) -> Path:
        """Write the page to ``path``, whole or not at all (through a temporary file in the
        same folder, renamed at the end: an interrupted save keeps the page that was there).

        Parameters
        ----------
        path : str or Path
            The page's file (written over if it exists, as ``savefig`` writes).

        Returns
        -------
        Path
        """
        if not isinstance(path, (str, os.PathLike)) or isinstance(path, bytes):
            # its name in the error, not pathlib's "expected str, bytes or os.PathLike"
            raise TypeError(f"path must be the page's file path (a str or os.PathLike); got "
                            f"{type(path).__name__}.")
        path = Path(path)
        if not path.parent.is_dir():
            raise FileNotFoundError(f"Cannot save the explorer page to {str(path)!r}: the "
                                    f"folder {str(path.parent)!r} does not exist.")
        page = self.to_html()

        def write(name):
            with open(name, "w", encoding="utf-8") as fh:
                fh.write(page)

        # whole or not at all: an interrupted save leaves the page that was there
        atomic_write(path, write)
        self._saved = path
        return path

    @property
    def live(self) -> bool:
        """Whether the page has live mode (2-D inputs, at most 200 points, a kernel the page
        computes)."""
        return self._data.get("live") is not None

    def live_state(self, **changes) -> dict:
        """The live page's state: the explorer's points (on the page's grid of 5 significant
        digits), its kernel, the middle of the grid's parameters and ``C``, the first remedy;
        ``changes`` override any of ``X`` with ``y`` (the page's labels +1 / -1; labels not
        all +1 / -1 are read as the explorer's two classes, the second +1, as
        :func:`explore` read the data's), ``kernel``, ``params``, ``C``, ``remedy``,
        ``box``, ``hide``.

        Parameters
        ----------
        **changes
            Any of ``X``, ``y``, ``kernel``, ``params``, ``C``, ``remedy``, ``box``, ``hide``,
            in place of the explorer's own.

        Returns
        -------
        dict
            ``{"X", "y", "kernel", "params", "C", "remedy", "box", "digits", "hide"}``, the
            form of ``window.indefsvm.state()`` in the page.
        """
        lv = self._data.get("live")
        if lv is None:
            raise ValueError("This page has no live mode: it needs 2-D inputs, at most "
                             f"{LIVE_MAX} points and one of the kernels {list(LIVE_KERNELS)}.")
        unknown = set(changes) - {"X", "y", "kernel", "params", "C", "remedy", "box", "hide"}
        if unknown:
            raise TypeError(f"Unknown state keys {sorted(unknown)}; give X, y, kernel, params, "
                            "C, remedy, box or hide.")
        kernel = changes.get("kernel", lv["kernel"])
        if kernel not in lv["kernels"]:
            raise ParameterError(f"must be one of {list(lv['kernels'])}; got {kernel!r}.",
                                 "kernel")
        params = {k: sp["value"] for k, sp in lv["kernels"][kernel].items()}
        extra = set(changes.get("params") or {}) - set(params)
        if extra:
            raise ValueError(f"The {kernel} kernel's parameters are {sorted(params)}; got "
                             f"{sorted(extra)}.")
        params.update(changes.get("params") or {})
        remedy = changes.get("remedy", self.grid["remedies"][0])
        if remedy not in REMEDIES:
            raise ParameterError(f"must be one of {list(REMEDIES)}; got {remedy!r}.",
                                 "remedy")
        C = changes.get("C", self.grid["C"][(len(self.grid["C"]) - 1) // 2])
        if not (isinstance(C, (int, float)) and not isinstance(C, bool) and C > 0
                and np.isfinite(C)):
            raise ParameterError(f"must be a number > 0; got {C!r}.", "C")
        hide = list(changes.get("hide") or [])
        bad = [h for h in hide if h not in HIDEABLE and h not in params and h != "C"]
        if bad:
            raise ValueError(f"hide takes {list(HIDEABLE)}, C and the kernel's parameters; "
                             f"got {bad}.")
        if "y" in changes and "X" not in changes:
            raise ValueError("y goes with X: give the points X and their labels y together "
                             "(the page's own points keep their labels).")
        box = changes.get("box", lv["box"])
        box = [[float(box[0][0]), float(box[0][1])], [float(box[1][0]), float(box[1][1])]]
        digits = grid_digits(box)
        if "X" in changes:
            X = check_finite_array(changes["X"], "X")
            if X.ndim != 2 or X.shape[1] != 2:
                raise ParameterError(f"must be points of the plane, shape (n, 2); got {X.shape}.",
                                     "X")
            X = from_ints(to_ints(X, digits), digits)
            y = self._plus_minus(changes.get("y"), X.shape[0])
            if X.shape[0] > LIVE_MAX:
                raise ValueError(f"live mode takes at most {LIVE_MAX} points; got "
                                 f"{X.shape[0]}.")
            X, y = X.tolist(), y.astype(int).tolist()
        else:
            X, y = [list(p) for p in lv["X"]], list(lv["y"])
            if "box" in changes:
                X = from_ints(to_ints(X, digits), digits).tolist()
        return {"X": X, "y": y, "kernel": kernel, "params": params, "C": float(C),
                "remedy": remedy, "box": box, "digits": digits, "hide": hide}

    def _plus_minus(self, y, n: int) -> np.ndarray:
        """The page's labels of ``y``: +1 / -1 as they are (the documented form, first),
        or else the explorer's two classes, the second +1 as :func:`explore` maps them
        (``make_moons``' 0 and 1 read as the page drew the data's)."""
        if y is None:
            raise ValueError("X goes with y: give the labels of the points too.")
        y = np.asarray(y)
        if y.shape != (n,):
            raise ParameterError(f"must hold one label per point of X: {n} labels; got shape "
                                 f"{y.shape}.", "y")
        if y.dtype.kind in "biuf" and np.all(np.isin(y, (-1, 1))):
            return y.astype(float)
        classes = np.asarray(self.classes, dtype=object)
        own = np.array([any(_same_label(v, c) for c in classes) for v in y.tolist()])
        if own.all():
            return np.array([1.0 if _same_label(v, classes[1]) else -1.0 for v in y.tolist()])
        bad = y[~own][0].item() if hasattr(y[~own][0], "item") else y[~own][0]
        raise ParameterError(f"must hold +1 / -1, or this explorer's classes "
                             f"{_printable(self.classes[0])} / {_printable(self.classes[1])} (the "
                             f"second is +1), one per point of X; got {bad!r}.", "y")

    def url(self, page=None, **changes) -> str:
        """A link that opens the saved page in live mode, in one state.

        Parameters
        ----------
        page : str or Path, optional
            The page's address as a string (relative, e.g. ``"explore.html"``, or absolute),
            or its file as a ``Path`` (written as a ``file://`` address); default: the file
            :meth:`save` last wrote.
        **changes
            State to change from :meth:`live_state`'s default: ``X``, ``y``, ``kernel``,
            ``params``, ``C``, ``remedy``, ``box``, ``hide`` (panels -- ``"spectrum"``,
            ``"plane"``, ``"input"``, ``"readouts"``, ``"caption"`` -- or controls --
            ``"controls"``, ``"kernel"``, ``"remedy"``, ``"sets"``, ``"classes"``, ``"C"`` or
            a parameter's name -- to hide for a lesson).

        Returns
        -------
        str
            ``page#live&kernel=...``: opening it restores the state exactly (points,
            kernel, parameters, C, remedy, hidden panels).

        Examples
        --------
        >>> import indefsvm as isvm
        >>> from sklearn.datasets import make_moons
        >>> X, y = make_moons(40, noise=0.2, random_state=0)
        >>> ex = isvm.explore(X, y, kernel="sigmoid", C=[1.0], remedies=["none"])
        >>> ex.url("explore.html", C=10, hide=["spectrum"]).split("&")[:2]
        ['explore.html#live', 'kernel=sigmoid']
        """
        if page is None:
            page = getattr(self, "_saved", None)
            if page is None:
                raise ValueError("Give the page's file or address (url('explore.html', ...)), "
                                 "or save() the page first.")
        if isinstance(page, Path) or page is getattr(self, "_saved", None):
            page = Path(page).resolve().as_uri()  # a file: its file:// address
        elif not isinstance(page, str):
            raise TypeError(f"page must be a path or an address; got {page!r}.")
        # the page's own points are named, not spelled out: a short link for its own page
        own = not any(k in changes for k in ("X", "y", "box"))
        return f"{page}{live_hash(self.live_state(**changes), own_data=own)}"

    def _repr_html_(self) -> str:
        # an iframe keeps the page's ids, style and script apart from the notebook's
        doc = html.escape(self.to_html(), quote=True)
        # sandboxed: the page's script runs, but cannot reach the notebook or its cookies
        return (f'<iframe srcdoc="{doc}" sandbox="allow-scripts" style="width: 100%; '
                f'height: 1040px; border: 0" title="indefsvm explorer"></iframe>')

    def __len__(self) -> int:
        return len(self._frames)

    def __str__(self) -> str:
        g = self.grid
        dims = [f"{k} {len(v)}" for k, v in g["params"].items()]
        dims += [f"C {len(g['C'])}", f"remedy {len(g['remedies'])}"]
        mb = len(self.to_html().encode()) / 1e6
        a, b = (_printable(c) for c in self.classes)
        return (f"Explorer: {self.kernel} kernel on {self._data['n']} points of classes "
                f"{a} / {b}, {len(self)} frames "
                f"({' x '.join(dims)}), built in {self.build_seconds:.1f} s; page "
                f"{mb:.2f} MB. save(path) writes it; a notebook shows it inline.")

    def __repr__(self) -> str:
        return f"<Explorer: {self.kernel}, {len(self)} frames>"


def _scale_rule_holds(X) -> bool:
    """Whether gamma's "scale" rule is a positive number on ``X`` (not where the variance
    overflows, nor where it underflows, which resolve_gamma refuses)."""
    try:
        return resolve_gamma("scale", X) > 0
    except ValueError:
        return False


@options_checked({"verbose": ["verbose"]})
@sized_by(0, "X")
def explore(X, y, *, kernel: str = "sigmoid", param_grid: dict | None = None,
            C=None, remedies=DEFAULT_REMEDIES, title: str | None = None,
            live: bool | None = None, verbose: bool = False) -> Explorer:
    """An interactive page of the SVM's pseudo-Euclidean geometry over a grid.

    For every kernel parameter combination of ``param_grid``, every remedy and every ``C``
    the binary SVM is trained (SMO) and read: the kernel's spectrum, signature, negative
    mass and ``c'Kc`` (:func:`~indefsvm.check_kernel`), the data on the leading positive and
    negative axes of the embedding (Haasdonk 2005, Prop. 1) with the class hulls reduced by
    ``mu = 2C / sum(alpha)``, their closest points, ``w`` and ``Mw`` (Prop. 7), and
    :func:`~indefsvm.sanity_report`'s ``w'Mw`` and verdict. For 2-D inputs the decision
    function over the input plane too.

    Parameters
    ----------
    X : array-like of shape (n, d), or (n, n) with ``kernel="precomputed"``
        At most 1 000 points (every point is drawn).
    y : array-like of shape (n,)
        Two classes.
    kernel : str, default="sigmoid"
        A kernel name of :mod:`indefsvm.kernels`, or ``"precomputed"`` (then ``X`` is the
        kernel matrix and there is no parameter to vary).
    param_grid : dict, optional
        Kernel parameter -> values, e.g. ``{"gamma": [0.1, 1], "coef0": [-1, 0, 1]}``.
        Default: three values of each parameter around its default on ``X``
        (:func:`default_param_grid`).
    C : float or list of float, optional
        Default ``(0.1, 1, 10)``.
    remedies : sequence of str, default=("none", "clip", "flip")
        ``"none"`` (the kernel as it is) and spectrum fixes of
        :mod:`indefsvm.remedies`: ``"clip"``, ``"flip"``, ``"shift"``, ``"square"``,
        ``"cne"``, ``"rne"``.
    title : str, optional
        The page's heading.
    live : bool, optional
        Give the page its live mode: the page computes each frame itself (the kernel,
        :func:`~indefsvm.check_kernel`'s spectrum and verdict, the embedding, the spectrum
        fixes, SMO and :func:`~indefsvm.sanity_report`, ported to the page) while points
        are added (click; shift-click for the other class), dragged and deleted
        (right-click), with continuous sliders for the kernel parameters and ``C``, every
        remedy and kernel, starting sets, and its state in the link (:meth:`Explorer.url`).
        ``None`` (default): when the inputs allow it -- 2-D, at most 200 points, a kernel
        of ``LIVE_KERNELS``; ``True`` refuses inputs that do not.
    verbose : bool, default=False
        Log each frame (``logging.getLogger("indefsvm")``).

    Returns
    -------
    Explorer

    Raises
    ------
    ValueError
        Bad input, more than two classes, or a page too large to embed (its estimated
        size is said, with the way to make it smaller).

    Notes
    -----
    The page's size grows with frames x (n + 1 000) numbers for 2-D inputs (the decision
    image) and frames x (n + 800) otherwise, plus 3 n per kernel: about 1 MB for 120 points
    and 81 frames. Building costs one eigendecomposition and one
    :func:`~indefsvm.check_kernel` per (parameters, remedy) and one SMO run per frame.

    Examples
    --------
    >>> import indefsvm as isvm
    >>> from sklearn.datasets import make_moons
    >>> X, y = make_moons(60, noise=0.25, random_state=0)
    >>> ex = isvm.explore(X, y, kernel="sigmoid", C=[0.1, 10])
    >>> len(ex.to_dict()["frames"])  # 3 gamma x 3 coef0 x 3 remedies x 2 C
    54
    """
    t0 = time.perf_counter()
    if callable(kernel) or not isinstance(kernel, str):
        raise TypeError(
            f"kernel must be a kernel name ({sorted(KERNELS)}) or 'precomputed'; got "
            f"{kernel!r}. For a kernel function of your own, compute the matrix and pass it "
            "with kernel='precomputed'.")
    name = canonical_name(kernel)
    if name == "precomputed":
        X = check_kernel_matrix(X, "X (kernel matrix)", warn_distances=True)
    else:
        X = check_finite_array(X, "X")
        if X.ndim != 2:
            raise ParameterError(f"must be 2-D (samples x features); got shape {X.shape}.", "X")
    n = X.shape[0]
    y = np.asarray(y)
    if y.ndim != 1 or y.shape[0] != n:
        raise ParameterError(f"must be 1-D with one label per row of X ({n}); got shape "
                             f"{y.shape}.", "y")
    if live is not None and not isinstance(live, bool):
        raise TypeError(f"live must be True, False or None (when possible); got {live!r}.")
    if title is not None and not isinstance(title, str):
        raise TypeError(f"title must be a string or None; got {type(title).__name__} "
                        f"{title!r}.")
    if y.dtype.kind in "SO" and any(isinstance(v, bytes) for v in y.tolist()):
        raise TypeError("y holds bytes labels; decode them first (e.g. y.astype(str)): the "
                        "page shows labels as text.")
    classes = np.unique(y)
    if classes.size != 2:
        raise ValueError(
            f"explore shows one binary SVM (its hulls, w and Mw): y must have 2 classes; got "
            f"{classes.size}. Choose two, e.g. keep = np.isin(y, [a, b]); "
            "explore(X[keep], y[keep]).")
    if n > MAX_POINTS:
        raise ValueError(
            f"explore draws every point: n = {n} > {MAX_POINTS}. Take a stratified "
            "subsample, e.g. X_s, _, y_s, _ = sklearn.model_selection.train_test_split(X, y, "
            "train_size=300, stratify=y, random_state=0).")
    grid = check_param_grid(name, param_grid, X)
    Cs = check_C(C)
    names = check_remedies(remedies)
    n_kernels = int(np.prod([len(v) for v in grid.values()])) * len(names)
    n_frames = n_kernels * len(Cs)
    two_d = name != "precomputed" and X.shape[1] == 2
    mb = estimate_page_mb(n, n_frames, n_kernels, two_d)
    if mb > MAX_PAGE_MB:
        raise ValueError(
            f"The page would weigh about {mb:.0f} MB ({n_frames} frames of {n} points), more "
            f"than {MAX_PAGE_MB:.0f} MB can be opened and embedded comfortably: use fewer "
            "values in param_grid, C or remedies, or fewer points.")
    y_pm = np.where(y == classes[1], 1.0, -1.0)
    # the live sliders centre gamma on its "scale" rule: none where X's variance overflows
    live_ok = name in LIVE_KERNELS and X.shape[1] == 2 and n <= LIVE_MAX and (
        name == "precomputed" or _scale_rule_holds(X))
    if live and not live_ok:
        raise ValueError(
            f"live=True: the page computes live for 2-D inputs of at most {LIVE_MAX} points "
            f"whose variance float64 holds, and the kernels {list(LIVE_KERNELS)}; got "
            f"{X.shape[1]}-D inputs, {n} points, kernel {name!r}. Leave live=None (frames "
            "only) or subsample to 2-D.")
    box = None
    if two_d:
        lo, hi = X.min(axis=0), X.max(axis=0)
        pad = 0.08 * np.maximum(hi - lo, 1e-9)
        box = ((float(lo[0] - pad[0]), float(hi[0] + pad[0])),
               (float(lo[1] - pad[1]), float(hi[1] + pad[1])))
    enable(verbose)
    # distances given as the kernel were said once, by the check of X above: not again by
    # each frame's check and SVM
    kernels, frames = Muted(DistanceMatrixWarning).call(
        compute_frames, X, y_pm, name, list(frame_keys(grid, Cs, names)), two_d=two_d,
        box=box, total=n_frames, verbose=verbose)
    data = {"n": n, "title": title or f"{name} kernel: the geometry of the SVM",
            "labels": y_pm.astype(int).tolist(),
            "input": ({"points": [[round(float(a), 5) for a in row] for row in X],
                       "box": box} if two_d else None), "live": None}
    if live_ok and live is not False:
        digits = grid_digits(box)
        data["live"] = {
            "kernel": name, "kernels": live_specs(X, grid, name),
            "C": {"min": LIVE_C[0], "max": LIVE_C[1], "scale": "log",
                  "value": Cs[(len(Cs) - 1) // 2]},
            "remedies": list(REMEDIES), "max_points": LIVE_MAX, "box": [list(b) for b in box],
            "digits": digits, "X": from_ints(to_ints(X, digits), digits).tolist(),
            "y": y_pm.astype(int).tolist()}
    # plain Python labels for JSON; 1.0 read from a file is the label 1
    py_classes = [c.item() if hasattr(c, "item") else c for c in classes]
    py_classes = [int(c) if isinstance(c, float) and c.is_integer() else c
                  for c in py_classes]
    # integers past 2^53 are not JavaScript numbers (two of them could show as one): text
    py_classes = [str(c) if isinstance(c, int) and not isinstance(c, bool)
                  and abs(c) >= 2**53 else c for c in py_classes]
    return Explorer(kernel=name, classes=py_classes,
                    grid={"params": grid, "C": Cs, "remedies": list(names)},
                    kernels=kernels, frames=frames, data=data,
                    build_seconds=time.perf_counter() - t0)


@options_checked({"state": [dict], "own_data": ["boolean"]})
def live_hash(state: dict, own_data: bool = False) -> str:
    """The link's part after ``#`` that restores a live state (the form the page reads):
    coordinates as integers on the grid of ``state["digits"]`` in base 36, labels as 1/0,
    numbers in their shortest exact form; with ``own_data``, ``set=data`` (the points of the
    page the link opens) instead of the points.

    Parameters
    ----------
    state : dict
        What :meth:`Explorer.live_state` returns (possibly changed).
    own_data : bool, default=False
        Link to the points of the page the link opens, not to ``state``'s.

    Returns
    -------
    str
        The fragment, without the ``#``.
    """
    from urllib.parse import quote

    need = ("kernel", "params", "C", "remedy") + (() if own_data else ("X", "y", "box",
                                                                       "digits"))
    if not isinstance(state, dict) or any(k not in state for k in need):
        have = sorted(state) if isinstance(state, dict) else type(state).__name__
        raise ParameterError(f"must be the dict Explorer.live_state() returns, with keys "
                             f"{list(need)}; got {have}.", "state")
    d = state.get("digits", 0)
    ints = (None if own_data else
            to_ints(np.asarray(state["X"], dtype=float).reshape(-1, 2), d).ravel())
    parts = ["live", f"kernel={state['kernel']}"]
    parts += [f"{k}={_number(v)}" for k, v in state["params"].items()]
    parts += [f"C={_number(state['C'])}", f"remedy={state['remedy']}"]
    if own_data:
        parts.append("set=data")
    else:
        parts += ["box=" + ",".join(_number(v) for row in state["box"] for v in row),
                  f"digits={d}",
                  "x=" + ",".join(np.base_repr(int(i), 36).lower() for i in ints),
                  "y=" + "".join("1" if v > 0 else "0" for v in state["y"])]
    if state.get("hide"):
        parts.append("hide=" + ",".join(state["hide"]))
    return "#" + "&".join(quote(p, safe="=,-.+_") for p in parts)


def _number(v) -> str:
    """A number as JavaScript's String() writes it (shortest round trip): 1 not 1.0."""
    v = float(v)
    if v.is_integer() and abs(v) < 1e21:
        return str(int(v))
    text = repr(v)
    if "e" in text:  # 1e-05 -> 1e-5, 1e+22 -> 1e+22
        mant, exp = text.split("e")
        text = f"{mant}e{'-' if exp.startswith('-') else '+'}{int(exp.lstrip('+-'))}"
    return text


#: the lessons of "Teaching with indefsvm": each opens the playground page in the state its
#: step discusses (the page's own data: 60 points of two moons), with its question
LESSONS = (
    {"title": "A PSD kernel", "state": {"kernel": "rbf", "params": {"gamma": 1.0}, "C": 1.0,
                                        "remedy": "none"},
     "question": "Drag a point across the boundary: what changes in the pseudo-Euclidean "
                 "plane, and why does w stay equal to Mw?"},
    {"title": "The sigmoid's regions", "state": {"kernel": "sigmoid",
                                                 "params": {"gamma": 0.3, "coef0": -1.0},
                                                 "C": 1.0, "remedy": "none"},
     "question": "Move coef0 from -1 to 1: when do orange (negative) eigenvalues appear, and "
                 "what does check_kernel then say?"},
    {"title": "Signature and negative mass", "state": {"kernel": "sigmoid",
                                                       "params": {"gamma": 1.0, "coef0": 1.0},
                                                       "C": 1.0, "remedy": "none",
                                                       "hide": ["input"]},
     "question": "Add points where the classes overlap: does the negative mass grow? Why is "
                 "c'Kc an upper bound on w'Mw?"},
    {"title": "Hulls and w'Mw", "state": {"kernel": "sigmoid",
                                          "params": {"gamma": 1.0, "coef0": 1.0}, "C": 10.0,
                                          "remedy": "none", "hide": ["remedy", "kernel"]},
     "question": "Lower C until w'Mw turns positive: what happens to the reduced hulls?"},
    {"title": "Remedies", "state": {"kernel": "sigmoid", "params": {"gamma": 1.0,
                                                                     "coef0": 1.0},
                                    "C": 10.0, "remedy": "flip"},
     "question": "Switch between none, clip and flip: which training points change side, and "
                 "which remedy would you choose without held-out data?"},
)


@options_checked({"title": [str, None]})
def playground(title: str | None = None) -> Explorer:
    """The page the lessons open: 60 points of two moons (``make_moons(60, noise=0.25,
    random_state=0)``), the sigmoid kernel, live mode.

    Parameters
    ----------
    title : str, optional
        The page's heading (default "indefsvm playground: the geometry of an SVM, live").

    Returns
    -------
    Explorer
    """
    from sklearn.datasets import make_moons

    X, y = make_moons(60, noise=0.25, random_state=0)
    return explore(X, y, kernel="sigmoid", param_grid={"gamma": [1.0], "coef0": [0.0]},
                   C=[1.0], remedies=DEFAULT_REMEDIES, live=True,
                   title=title or "indefsvm playground: the geometry of an SVM, live")


@options_checked({"page": [str]})
def lesson_links(page: str = "playground.html") -> list:
    """The links of :data:`LESSONS` to ``page`` (the saved :func:`playground`).

    Parameters
    ----------
    page : str, default="playground.html"
        Where the playground's page is saved, relative to the links' page (or a URL).

    Returns
    -------
    list of (title, url, question)
    """
    ex = playground()
    return [(ls["title"], ex.url(page, **ls["state"]), ls["question"]) for ls in LESSONS]


def _printable(label) -> str:
    """A label for a terminal: control characters (escape sequences) shown escaped."""
    text = str(label)
    return text if text.isprintable() else repr(text)[1:-1]



def _same_label(value, label) -> bool:
    """Whether ``value`` (of a user's y) is the class ``label`` of :attr:`Explorer.classes`
    (2.0 is 2; a class beyond 2^53 is kept there as its digits)."""
    try:
        if value == label:
            return True
    except (TypeError, ValueError):  # pragma: no cover - objects that refuse ==
        return False
    return isinstance(label, str) and str(value) == label


def __dir__():
    # completion lists the public names, not this module's imports (np, BaseEstimator, ...)
    return sorted({*__all__, *(k for k in globals() if k[:2] == "__")})
