"""The LIBSVM model family on indefinite kernels: ``IndefiniteSVC``, ``IndefiniteNuSVC``,
``IndefiniteSVR`` and ``IndefiniteOneClassSVM``, all trained by the same compiled SMO."""

from ._classes import IndefiniteNuSVC, IndefiniteOneClassSVM, IndefiniteSVC, IndefiniteSVR

__all__ = ["IndefiniteNuSVC", "IndefiniteOneClassSVM", "IndefiniteSVC", "IndefiniteSVR"]
