"""The explorer's grid: kernel parameters x C x remedy, its defaults and its checks."""

from __future__ import annotations

import itertools
import numbers

import numpy as np

from .._remedies import BY_OPTION, DRAWN_BY_DEFAULT, drawn_options
from .._validation import SCALERS, check_finite_array
from ..exceptions import ParameterError, Setting
from ..kernels import KERNELS, canonical_name, check_gamma_sign, resolve_gamma

#: remedies the explorer can show: the spectrum fixes of the remedy table that act on the
#: training kernel itself (the page draws the geometry of the kernel the SVM is trained on)
REMEDIES = ("none",) + drawn_options()
DEFAULT_REMEDIES = DRAWN_BY_DEFAULT

#: default C: a sensible SVM at the small end, a counter-intuitive one at the large end on
#: most indefinite kernels (Haasdonk 2005, §7.4: reducing C reduces the hulls)
DEFAULT_C = (0.1, 1.0, 10.0)

#: the page must stay small enough to open and to embed in a docs site or a notebook
MAX_POINTS = 1000
MAX_PAGE_MB = 20.0

#: resolution of the decision-function image of 2-D inputs, per side
INPUT_GRID = 32


def remedy_fix(name: str):
    """The spectrum fix of a remedy name (None for ``"none"``), returning arrays."""
    from .._tags import arrays_out
    from ..remedies._methods import BY_NAME

    return None if name == "none" else arrays_out(BY_NAME[BY_OPTION[name].name].fix({}))


def check_remedies(remedies) -> tuple:
    """The remedy names, lower case, checked."""
    if isinstance(remedies, str):
        remedies = (remedies,)
    try:
        names = tuple(str(r).lower().replace(" ", "-") for r in remedies)
    except TypeError:
        raise TypeError(f"remedies must be a list of names from {list(REMEDIES)}; got "
                        f"{remedies!r}.") from None
    if not names:
        raise ParameterError(f"is empty: give at least one of {list(REMEDIES)} (\"none\" "
                             "shows the kernel as it is).", "remedies")
    for r in names:
        if r == "krein":
            raise ParameterError(
                ": 'krein' cannot be drawn as a kernel of its own (the Krein SVM trains on "
                "the flipped kernel and maps its solution back to the original one): explore "
                "'flip', the kernel it trains on.", "remedies")
        if r not in REMEDIES:
            raise ParameterError(f"Unknown remedy {r!r} in {{remedies}}; choose from "
                                 f"{list(REMEDIES)}.", "remedies", "",
                                 values={"remedies": ...})
    if len(set(names)) != len(names):
        twice = sorted({r for r in names if names.count(r) > 1})
        raise ParameterError(f"lists a name twice: {twice[0]!r}; give each once.",
                             "remedies")
    return names


def default_param_grid(kernel: str, X) -> dict:
    """Three values of each kernel parameter around its default on ``X``.

    Parameters
    ----------
    kernel : str
        A kernel name of :mod:`indefsvm.kernels`.
    X : ndarray of shape (n, d)
        The training features (the ``"scale"`` rule of ``gamma`` is read from them).

    Returns
    -------
    dict
        Parameter name -> list of values (empty for ``"linear"``).
    """
    name = canonical_name(kernel)
    if name == "precomputed":
        return {}
    return _default_param_grid(name, check_finite_array(X, "X"))


def _default_param_grid(name: str, X) -> dict:
    """:func:`default_param_grid` of a known kernel name and checked ``X``."""
    if name == "precomputed":
        return {}
    d = X.shape[1]
    if name in ("linear", "pseudo_euclidean", "tl1"):  # no gamma
        scale = 1.0
    else:
        scale = _scale_rule(X)
    gammas = [scale * f for f in (0.25, 1.0, 4.0)]
    if name == "linear":
        return {}
    if name == "rbf":
        return {"gamma": [scale * f for f in (0.1, 1.0, 10.0)]}
    if name in ("sigmoid", "polynomial"):
        # the sign of coef0 moves the sigmoid between its PSD-like and its indefinite regions
        # (Lin & Lin 2003, Table 1)
        return {"gamma": gammas, "coef0": [-1.0, 0.0, 1.0]}
    if name == "pseudo_euclidean":
        return {"p": sorted({max(1, d // 4), max(1, d // 2), max(1, d - 1)})}
    if name == "tl1":
        return {"rho": [d * f for f in (0.3, 0.7, 1.5)]}
    return {"gamma": gammas}  # l1_gaussian, sqrt_l1_exponential, symmetric_kl


def _scale_rule(X) -> float:
    """gamma's ``"scale"`` rule, the centre of the default grid and of the live sliders --
    refused where the variance of ``X`` overflows (the rule would give 0, every gamma of
    the grid 0)."""
    scale = resolve_gamma("scale", X)
    if scale == 0:
        top = float(np.abs(X).max())
        raise ParameterError(f"gamma's 'scale' rule 1 / (n_features X.var()) is 0 here: the "
                         f"variance of X (values up to {top:.3g}) overflows float64. Scale "
                         "the features first ({scale}).", "X", "", SCALERS)
    return scale


def check_param_grid(kernel: str, param_grid, X) -> dict:
    """``param_grid`` checked against the kernel's parameters (default when None)."""
    name = canonical_name(kernel)
    if param_grid is None:
        return _default_param_grid(name, X)
    if not isinstance(param_grid, dict):
        raise TypeError(f"param_grid must be a dict (parameter name -> list of values); got "
                        f"{type(param_grid).__name__}.")
    if name == "precomputed" and param_grid:
        raise ParameterError("kernel='precomputed' has no parameter to vary: {param_grid} "
                             "must be None or empty.", "param_grid", "",
                             values={"param_grid": ...})
    allowed = () if name == "precomputed" else KERNELS[name][1]
    grid = {}
    for key, values in param_grid.items():
        if key == "C":
            raise ParameterError("holds the kernel's parameters; give the values of C as "
                                 "{C}.", "param_grid",
                                 values={"C": Setting("C", words="C=[...]")})
        if key not in allowed:
            raise ParameterError(
                f": kernel={kernel!r} has no parameter {key!r}; its parameters are "
                f"{list(allowed) or 'none'}.", "param_grid")
        values = _values("param_grid", values, f"param_grid[{key!r}]")
        for v in values:
            if key == "degree" and (v != int(v) or v < 1):
                raise ParameterError(f"must hold integers >= 1; got {v!r}.", "param_grid",
                                     "param_grid['degree']")
            if key in ("rho", "sigma", "p") and v <= 0:
                raise ParameterError(f"must hold numbers > 0; got {v!r}.", "param_grid",
                                     f"param_grid[{key!r}]")
            if key == "p" and v != int(v):
                raise ParameterError(f"must hold integers; got {v!r}.", "param_grid",
                                     "param_grid['p']")
            if key == "gamma":
                check_gamma_sign(name, v)
        if key in ("degree", "p"):
            values = [int(v) for v in values]
        grid[key] = values
    return grid


def check_C(C) -> list:
    """The values of C, checked (default :data:`DEFAULT_C`)."""
    if C is None:
        return list(DEFAULT_C)
    values = _values("C", [C] if isinstance(C, numbers.Real) else C)
    if any(v <= 0 for v in values):
        raise ParameterError(f"must hold numbers > 0; got {values}.", "C")
    return values


def _values(name: str, values, subject: str | None = None) -> list:
    """The values of parameter ``name`` (``subject``: how the messages call them, e.g.
    ``param_grid['gamma']``), finite, each once, sorted."""
    if isinstance(values, (str, bytes)) or not np.iterable(values):
        raise TypeError(f"{subject or name} must be a list of numbers; got {values!r}.")
    out = []
    for v in values:
        if isinstance(v, bool) or not isinstance(v, numbers.Real) or not np.isfinite(v):
            raise ParameterError(f"must hold finite numbers; got {v!r}.", name, subject)
        out.append(float(v))
    if not out:
        raise ParameterError("is empty: give at least one value.", name, subject)
    if len(set(out)) != len(out):
        twice = sorted({v for v in out if out.count(v) > 1})
        raise ParameterError(f"lists a value twice: {twice[0]:g}"
                             + (f" (and {len(twice) - 1} more)" if len(twice) > 1 else "")
                             + "; give each value once.", name, subject)
    return sorted(out)


def frame_keys(param_grid: dict, Cs: list, remedies: tuple):
    """Every frame's (kernel parameters, C, remedy), in the page's order: the kernel
    parameters outermost (the last one fastest among them), then the remedy, then C."""
    names = list(param_grid)
    for combo in itertools.product(*(param_grid[k] for k in names)):
        params = dict(zip(names, combo, strict=True))
        for remedy in remedies:
            for C in Cs:
                yield params, C, remedy


def estimate_page_mb(n: int, n_frames: int, n_kernels: int, two_d: bool) -> float:
    """Size of the page in MB before the work: about 9 characters per number written.

    Per kernel (parameters x remedy): the spectrum (n), the embedding (2 n). Per frame: the
    support flags (n), the hulls (2 x 2 x 96 x 2), a few points and readouts (60), and for
    2-D inputs the decision image (:data:`INPUT_GRID` squared).
    """
    per_kernel = 3 * n
    per_frame = n + 4 * 96 * 2 + 60 + (INPUT_GRID ** 2 if two_d else 0)
    return 9.0 * (n_kernels * per_kernel + n_frames * per_frame) / 1e6


#: live mode: the page computes each frame itself (live.js) for 2-D inputs of at most this
#: many points (a recompute is an eigendecomposition or two and a few SMO runs)
LIVE_MAX = 200

#: the kernels live.js computes (those of 2-D points; symmetric_kl needs histograms)
LIVE_KERNELS = ("sigmoid", "rbf", "polynomial", "linear", "l1_gaussian", "sqrt_l1_exponential",
                "tl1", "pseudo_euclidean")

#: the range of C's slider in live mode (log scale)
LIVE_C = (1e-3, 1e3)


def _nice(v: float) -> float:
    """A slider value: 3 significant digits (the page's rounding)."""
    return float(f"{v:.3g}")


def live_specs(X, grid: dict, kernel: str) -> dict:
    """The sliders of live mode: for every live kernel its parameters' ranges on ``X`` (a log
    scale around the ``"scale"`` default of gamma, +-3 for coef0, whole numbers for degree
    and p) and starting values (the middle of ``grid`` for the explorer's own kernel)."""
    scale = _scale_rule(X)
    d = X.shape[1]

    def log(v, lo, hi):
        return {"min": _nice(lo), "max": _nice(hi), "scale": "log", "value": _nice(v)}

    gamma = log(scale, scale / 100, scale * 100)
    specs = {
        "sigmoid": {"gamma": gamma, "coef0": {"min": -3.0, "max": 3.0, "scale": "linear",
                                              "value": 0.0}},
        "rbf": {"gamma": gamma},
        "polynomial": {"gamma": gamma, "coef0": {"min": -3.0, "max": 3.0, "scale": "linear",
                                                 "value": 1.0},
                       "degree": {"min": 1, "max": 6, "scale": "int", "value": 3}},
        "linear": {},
        "l1_gaussian": {"gamma": gamma},
        "sqrt_l1_exponential": {"gamma": gamma},
        "tl1": {"rho": log(0.7 * d, 0.05 * d, 5.0 * d)},
        "pseudo_euclidean": {"p": {"min": 0, "max": d, "scale": "int", "value": 1}},
    }
    for name, values in grid.items():  # the frames' middle values start the live sliders
        if kernel in specs and name in specs[kernel]:
            mid = values[(len(values) - 1) // 2]
            sp = specs[kernel][name]
            sp["value"] = int(mid) if sp["scale"] == "int" else float(mid)
            sp["min"] = min(sp["min"], min(values)) if sp["scale"] != "log" or min(values) > 0 \
                else sp["min"]
            sp["max"] = max(sp["max"], max(values))
    return specs


def grid_digits(box) -> int:
    """Decimal digits of the live page's coordinates: 5 significant digits of the box's
    largest coordinate (a point is ``i / 10**digits``, its link holds ``i``)."""
    big = max(max(abs(a), abs(b)) for a, b in box)
    return int(4 - np.floor(np.log10(max(big, 1e-300))))


def to_ints(values, digits: int) -> np.ndarray:
    """The integers of coordinates on the grid of ``digits`` (see :func:`grid_digits`)."""
    v = np.asarray(values, dtype=float)
    return np.round(v * 10.0 ** digits if digits >= 0 else v / 10.0 ** -digits).astype(np.int64)


def from_ints(ints, digits: int) -> np.ndarray:
    """Coordinates from their integers: the page's own two float operations."""
    i = np.asarray(ints, dtype=float)
    return i / 10.0 ** digits if digits >= 0 else i * 10.0 ** -digits
