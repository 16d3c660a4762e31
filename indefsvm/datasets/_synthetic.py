"""Generated objects for distances: time series of several lengths and strings with motifs."""

from __future__ import annotations

import numbers

import numpy as np

from .._validation import (
    check_memory,
    check_seed,
)
from ..exceptions import ParameterError

__all__ = ["make_cbf", "make_motif_strings"]


def _range(value, name, low):
    """(low, high) of whole numbers with ``low <= lo <= hi``, or ValueError."""
    try:
        lo, hi = value
        for v in (lo, hi):
            _count(v, name, low)
    except (TypeError, ValueError):
        raise ParameterError(f"must be a whole number >= {low} or a range (low, high) of "
                             f"them; got {value!r}.", name) from None
    if not lo <= hi:
        raise ParameterError(f"must be a range low <= high; got {value!r}.", name)
    return int(lo), int(hi)


def _count(value, name, low=1):
    if isinstance(value, bool) or not isinstance(value, numbers.Integral) or value < low:
        raise ParameterError(f"must be a whole number >= {low}; got {value!r}.", name)
    return int(value)


def make_cbf(n_samples: int = 90, *, length: int | tuple = 128, noise: float = 1.0,
             random_state=None):
    """Cylinder-bell-funnel time series (Saito 1994): three shapes at random onsets.

    Class 0 (cylinder) is a plateau, class 1 (bell) a ramp up, class 2 (funnel) a ramp down,
    each of random start, duration and height over Gaussian noise. Classes differ by shape,
    not by position: the task where warping (DTW) beats the Euclidean distance.

    Parameters
    ----------
    n_samples : int, default=90
        Number of series (the classes take turns).
    length : int or (int, int), default=128
        Series length, or a range ``(low, high)`` of lengths drawn per series (a list of
        series of different lengths is returned then).
    noise : float, default=1.0
        Standard deviation of the noise.
    random_state : int, Generator or None
        Seed.

    Returns
    -------
    X : ndarray of shape (n_samples, length) or list of 1-D arrays
    y : ndarray of shape (n_samples,) with values 0, 1, 2

    References
    ----------
    N. Saito (1994), Local feature extraction and its application using a library of bases,
    PhD thesis, Yale University (the cylinder-bell-funnel task).

    Examples
    --------
    >>> from indefsvm.datasets import make_cbf
    >>> X, y = make_cbf(6, length=(60, 80), random_state=0)
    >>> len(X), sorted(set(y.tolist())), 60 <= len(X[0]) <= 80
    (6, [0, 1, 2], True)
    """
    n = _count(n_samples, "n_samples")
    rng = check_seed(random_state)
    varying = not isinstance(length, numbers.Integral)
    if varying:
        lo, hi = _range(length, "length", 16)
    else:
        lo = hi = _count(length, "length", 16)
    if isinstance(noise, bool) or not isinstance(noise, numbers.Real) \
            or not 0.0 <= float(noise) < np.inf:
        # a negative standard deviation, or NaN: every series would be NaN
        raise ParameterError(f"must be a finite standard deviation >= 0; got {noise!r}.",
                             "noise")
    check_memory(8.0 * n * hi, f"{n} series of up to {hi} points",
                 "Generate fewer series (n_samples) or shorter ones (length).")
    X, y = [], np.arange(n) % 3
    for c in y:
        L = int(rng.integers(lo, hi + 1))
        t = np.arange(L)
        a = int(rng.integers(L // 8, L // 4 + 1))
        b = a + int(rng.integers(L // 4, 3 * L // 4 - a + 1))
        on = (t >= a) & (t <= b)
        height = 6.0 + rng.normal()
        if c == 0:
            shape = on * 1.0
        elif c == 1:
            shape = on * (t - a) / max(b - a, 1)
        else:
            shape = on * (b - t) / max(b - a, 1)
        X.append(height * shape + noise * rng.normal(size=L))
    return (X if varying else np.array(X)), y


_ALPHABET = "ACGT"


def make_motif_strings(n_samples: int = 120, *, n_classes: int = 3, length: tuple = (15, 30),
                       motif_length: int = 12, n_mutations: int = 3, random_state=None):
    """Random DNA-like strings, each class marked by a motif at a random place, mutated.

    Each class has its own motif; a string is random letters of ``ACGT`` of a random length
    with its class's motif inserted at a random position after ``n_mutations`` random edits
    (substitution, insertion or deletion). Edit distance sees the motif wherever it is; a
    fixed-position encoding does not.

    Parameters
    ----------
    n_samples : int, default=120
        Number of strings.
    n_classes : int, default=3
        Number of classes (one motif each; at most ``n_samples``).
    length : (int, int), default=(15, 30)
        Range of the background length.
    motif_length : int, default=12
        Length of each class's motif.
    n_mutations : int, default=3
        Edits applied to each copy of the motif.
    random_state : int, Generator or None
        Seed.

    Returns
    -------
    X : list of str
    y : ndarray of shape (n_samples,)

    Examples
    --------
    >>> from indefsvm.datasets import make_motif_strings
    >>> X, y = make_motif_strings(4, n_classes=2, random_state=0)
    >>> len(X), set("".join(X)) <= set("ACGT")
    (4, True)
    """
    n = _count(n_samples, "n_samples")
    k = _count(n_classes, "n_classes", 2)
    if k > n:
        # a class needs a string (and a motif each: 10^12 classes ran for hours)
        raise ValueError(f"n_classes={k} is more than the n_samples={n} strings: each class "
                         f"needs one at least. Give n_classes <= {n}, or more samples.")
    m = _count(motif_length, "motif_length")
    rng = check_seed(random_state)
    # one length, or a range (low, high): as make_cbf takes them
    lo, hi = ((_count(length, "length", 0),) * 2 if isinstance(length, numbers.Integral)
              else _range(length, "length", 0))
    n_mut = _count(n_mutations, "n_mutations", 0)
    # a Python str of ASCII letters: about 49 bytes and one a letter
    check_memory(float(n) * (hi + m + n_mut + 49), f"{n} strings of up to {hi + m + n_mut} "
                 "letters", "Generate fewer strings (n_samples) or shorter ones (length).")
    letters = np.array(list(_ALPHABET))
    motifs = ["".join(rng.choice(letters, size=m)) for _ in range(k)]
    X, y = [], np.arange(n) % k
    for c in y:
        motif = list(motifs[c])
        for _ in range(n_mut):
            pos = int(rng.integers(len(motif)))
            kind = rng.integers(3)
            if kind == 0:
                motif[pos] = str(rng.choice(letters))
            elif kind == 1:
                motif.insert(pos, str(rng.choice(letters)))
            elif len(motif) > 1:
                del motif[pos]
        back = "".join(rng.choice(letters, size=int(rng.integers(lo, hi + 1))))
        at = int(rng.integers(len(back) + 1))
        X.append(back[:at] + "".join(motif) + back[at:])
    return X, y
