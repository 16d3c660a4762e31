"""What to do once a kernel is called indefinite: spectrum fixes with consistent test
transforms (clip, flip, shift, square; CNE / RNE when centred), the Krein-space SVM, the same
at scale on Krein-space Nystroem features, and :func:`compare_remedies`, which tries them all
on the same folds, and :class:`RemedySearchCV`, which searches them with their kernel parameter
and C and refits the one it chooses; :class:`SimilarityFeatures`, the kernel rows as features
(the search's method "features" is a linear SVM on them)."""

# the Nystroem estimators live in their own wing; re-exported here for code written before
from ..nystroem import KreinNystroem, NystroemSVC
from ._compare import RemedyComparison, compare_remedies, remedy_estimators
from ._features import SimilarityFeatures
from ._folds import KernelRanking
from ._krein import KreinSVC
from ._search import METHODS, RemedySearchCV
from ._series_search import SeriesSearchCV
from ._spectrum_fix import (
    AdvancedShiftEigenvalues,
    ClipEigenvalues,
    FlipEigenvalues,
    ShiftEigenvalues,
    SquareKernel,
)

__all__ = [
    "METHODS",
    "AdvancedShiftEigenvalues",
    "ClipEigenvalues",
    "FlipEigenvalues",
    "KreinNystroem",
    "KernelRanking",
    "KreinSVC",
    "NystroemSVC",
    "RemedyComparison",
    "RemedySearchCV",
    "SeriesSearchCV",
    "ShiftEigenvalues",
    "SimilarityFeatures",
    "SquareKernel",
    "compare_remedies",
    "remedy_estimators",
]
