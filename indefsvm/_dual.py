"""What a fitted model hands to the sanity report (private): its dual problems.

Every SVM of the package answers ``model._dual_problems(X, y, tol)`` with one
:class:`DualProblems`, built from its own fitted state and the training data; the sanity
report (``diagnostics.posttrain``) recomputes everything else from these, independently of
the solver, and never reads a model's private attributes.
"""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np

from .exceptions import ParameterError


@dataclass(frozen=True)
class DualProblems:
    """The dual problems of a fitted model on its training data.

    Attributes
    ----------
    kind : str
        ``"svc"`` (C-SVC duals (2), one per pair of classes), ``"svr"`` / ``"one-class"`` (the
        general dual ``min 1/2 a'Qa + p'a``, ``y'a`` fixed, ``0 <= a_i <= C_i``) or
        ``"features"`` (linear SVMs on explicit features, as ``NystroemSVC`` trains).
    tol : float
        The tolerance the report judges stationarity by.
    K : ndarray or None
        The training kernel (``"svc"``; the kept samples' kernel for ``"svr"`` and
        ``"one-class"``).
    problems : tuple of dict
        ``"svc"``: per pair ``classes`` (+1 class, -1 class), ``idx`` (its samples), ``y``
        (+-1), ``alpha``, ``C`` (a float or per-sample bounds), ``b``, ``tol``.
        ``"svr"`` / ``"one-class"``: one dict with ``y`` (the dual's +-1 signs), ``p``,
        ``C``, ``alpha``, ``coef`` (the weights of ``K``), ``b``, ``outside_ratio``.
        ``"features"``: per pair ``classes``, ``rows``, ``y`` (+-1), ``alpha``, ``C``,
        ``coef`` (the model's weight vector in feature space).
    bias : bool
        Whether the problems have the equality constraint ``y'alpha = 0`` (a bias).
    info : dict
        ``"svr"`` of a nu-SVR: ``nu``, the width it found (its problem is the epsilon-SVR
        dual at that width).
        ``"features"``: ``Z`` (the training features), ``S`` (their signature), ``remedy``,
        ``n_landmarks``, ``n_features``, ``n_positive``, ``n_negative`` and ``converged``
        (the model's claim, or None where it was fitted at another tolerance).
    """

    kind: str
    tol: float
    K: np.ndarray | None = None
    problems: tuple = ()
    bias: bool = True
    info: dict = field(default_factory=dict)


def check_training_labels(y, n: int, model: str) -> np.ndarray:
    """The training labels a report needs, or the error that says what is missing."""
    if y is None:
        article = "an" if model[:1].lower() in "aeiou" else "a"
        raise ValueError(f"sanity_report of {article} {model} needs the training y.")
    y = np.asarray(y)
    if y.shape[0] != n:
        raise ValueError(f"y has {y.shape[0]} entries for {n} training samples.")
    return y


def check_support_labels(model, y) -> None:
    """The support vectors' labels in ``y`` are the model's: scikit-learn's layout stores
    them by class (``n_support_`` of each ``classes_``), so labels that are not the training
    ones -- shuffled, reversed, another split's -- are told here, not reported as a solution
    that is no stationary point."""
    from ._validation import plain_label

    sv_labels = np.repeat(model.classes_, model.n_support_)
    if model.support_.shape != sv_labels.shape:
        return
    differ = np.flatnonzero(y[model.support_] != sv_labels)
    if differ.size:
        i = int(model.support_[differ[0]])
        raise ParameterError(
            f"must be the training labels of the model: sample {i} is a support vector "
            f"of class {plain_label(sv_labels[differ[0]])!r} in the model, and y gives it "
            f"{plain_label(y[i])!r} "
            f"({differ.size} of the {sv_labels.size} support vectors differ).", "y")


def label_digest(codes) -> str:
    """A digest of the training labels (their class codes 0 .. k-1, in sample order), kept
    at fit so that the report can tell labels that are not the training ones."""
    import hashlib

    codes = np.ascontiguousarray(codes, dtype=np.int64)
    return hashlib.blake2b(codes.tobytes(), digest_size=16).hexdigest()


def check_label_digest(model, y) -> None:
    """``y`` is the model's training labels, by the digest fit kept (``_label_digest``; a
    model saved before it was kept is not checked)."""
    digest = getattr(model, "_label_digest", None)
    if digest is None:
        return
    from ._validation import plain_label

    classes = model.classes_
    y = np.asarray(y)
    try:
        codes = np.searchsorted(classes, y)
        inside = (codes < classes.shape[0]) & (
            classes[np.minimum(codes, classes.shape[0] - 1)] == y)
    except TypeError:  # labels of another kind (words against numbers)
        codes, inside = None, np.zeros(y.shape[0], dtype=bool)
    if not np.all(inside):
        bad = int(np.flatnonzero(~inside)[0])
        raise ParameterError(f"must be the training labels of the model: y[{bad}] = "
                             f"{plain_label(y[bad])!r} is not one of its classes.", "y")
    if label_digest(codes) != digest:
        raise ParameterError("must be the training labels of the model: these differ from the "
                             "labels it was fitted on (same length and classes, another order "
                             "or other values).", "y")
