"""The one table of remedy methods: what ``compare_remedies``, ``RemedySearchCV``, the command
line and the docs read.

Each row says what a method is (its name in reports and grids), what it trains (the fix in
front of the SVM on a precomputed kernel; the Krein SVM; the k-NN rule), which grid keys it
takes, and its place in the cost order that breaks ties between methods of equal error
(cheaper and simpler first: an SVM on the kernel as it is, the k-NN rule, then the fixes by
the work they add).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from sklearn.pipeline import Pipeline

from .._remedies import FEATURES, INDEF, KNN, KREIN
from .._remedies import NAMES as _NAMES
from ..svm import IndefiniteSVC
from ._features import SimilarityKernel
from ._krein import KreinSVC
from ._spectrum_fix import (
    AdvancedShiftEigenvalues,
    ClipEigenvalues,
    FlipEigenvalues,
    ShiftEigenvalues,
    SquareKernel,
)


@dataclass(frozen=True)
class RemedyMethod:
    """One row of the table.

    Attributes
    ----------
    name : str
        The method's name in reports, grids and ``methods=`` lists.
    fix : callable or None
        ``fix(params)`` -> the kernel fix the method's SVM trains on (None: the kernel as it
        is, or no SVM). For the Krein SVM it is the flip: the SVM it trains is the flipped
        one (its decisions, back-projected, are the same), so the search scores it there.
    estimator : str
        ``"svm"`` (the fix, then ``IndefiniteSVC``), ``"krein"`` (``KreinSVC``) or ``"knn"``.
    cost : int
        Place in the cost order (lower: cheaper and simpler; ties go to it).
    keys : frozenset
        The grid keys it takes besides the kernel's ``gamma`` (every method but k-NN
        takes gamma when a kernel is tuned).
    warm : bool
        The search warm-starts its C path (False: each C from zero, so that its fold scores
        are GridSearchCV's of the same pipeline).
    """

    name: str
    fix: Callable[[dict], object] | None
    estimator: str
    cost: int
    keys: frozenset
    warm: bool = True


_SVM_KEYS = frozenset({"C"})

#: every method, in the order of the reports
TABLE = (
    RemedyMethod(INDEF, None, "svm", 0, _SVM_KEYS, warm=False),
    RemedyMethod("clip", lambda p: ClipEigenvalues(), "svm", 3, _SVM_KEYS),
    RemedyMethod("flip", lambda p: FlipEigenvalues(), "svm", 4, _SVM_KEYS),
    RemedyMethod("shift", lambda p: ShiftEigenvalues(), "svm", 2, _SVM_KEYS),
    RemedyMethod("advanced shift",
                 lambda p: AdvancedShiftEigenvalues(rank=p.get("rank", "auto")), "svm", 5,
                 frozenset({"C", "rank"})),
    RemedyMethod("square", lambda p: SquareKernel(), "svm", 9, _SVM_KEYS),
    RemedyMethod("CNE", lambda p: ClipEigenvalues(centered=True), "svm", 7, _SVM_KEYS),
    RemedyMethod("RNE", lambda p: FlipEigenvalues(centered=True), "svm", 8, _SVM_KEYS),
    RemedyMethod(KREIN, lambda p: FlipEigenvalues(), "krein", 6, _SVM_KEYS),
    # the kernel rows as standardised features, a linear SVM on them: cold-started (its
    # scores are GridSearchCV's); last in the cost order (an n x n product, a whole
    # kernel more)
    RemedyMethod(FEATURES, lambda p: SimilarityKernel(), "svm", 10, _SVM_KEYS, warm=False),
    RemedyMethod(KNN, None, "knn", 1, frozenset({"n_neighbors"})),
)

BY_NAME = {m.name: m for m in TABLE}

# one list of names: the table holds every method of it, in its order
assert tuple(m.name for m in TABLE) == tuple(r.name for r in _NAMES)

#: every method's name, in the order of the reports
METHODS = tuple(m.name for m in TABLE)

#: the methods by cost, cheapest first: ties between methods of equal error go to the first
COST_ORDER = tuple(m.name for m in sorted(TABLE, key=lambda m: m.cost))

#: the methods that train an SVM (on a precomputed kernel)
SVM_METHODS = tuple(m.name for m in TABLE if m.estimator != "knn")


def fit_matrices(name: str) -> float:
    """float64 ``n x n`` matrices the fit of an SVM method holds beside the caller's kernel
    at its peak (the fix's, measured; the SMO's cache for the kernel as it is)."""
    row = BY_NAME[name]
    if row.estimator == "krein":
        return FlipEigenvalues._transform_matrices
    return 0.25 if row.fix is None else row.fix({})._transform_matrices


def svm_estimator(name: str, params: dict, class_weight=None):
    """The precomputed-kernel estimator of an SVM method with ``params`` (``C``, and
    ``rank`` for the advanced shift): ``IndefiniteSVC``, a ``Pipeline`` of the fix and
    ``IndefiniteSVC`` (steps ``"fix"``, ``"svm"``), or ``KreinSVC``."""
    row = BY_NAME[name]
    C = params.get("C", 1.0)
    if row.estimator == "krein":
        return KreinSVC(kernel="precomputed", C=C, class_weight=class_weight)
    if row.estimator != "svm":
        raise ValueError(f"{name} is not an SVM method.")
    svc = IndefiniteSVC(kernel="precomputed", C=C, class_weight=class_weight)
    if row.fix is None:
        return svc
    return Pipeline([("fix", row.fix(params)), ("svm", svc)])
