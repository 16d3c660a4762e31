"""``IndefiniteSVC`` (kept here for imports of ``indefsvm.estimator``; the SVM family lives in
:mod:`indefsvm.svm`)."""

from .svm import IndefiniteSVC

__all__ = ["IndefiniteSVC"]
