"""The LIBSVM model family on indefinite kernels: ``IndefiniteSVC``, ``IndefiniteNuSVC``,
``IndefiniteSVR``, ``IndefiniteNuSVR`` and ``IndefiniteOneClassSVM``, all trained by the same
compiled SMO."""

from ._classes import (
    IndefiniteNuSVC,
    IndefiniteNuSVR,
    IndefiniteOneClassSVM,
    IndefiniteSVC,
    IndefiniteSVR,
)

__all__ = ["IndefiniteNuSVC", "IndefiniteNuSVR", "IndefiniteOneClassSVM", "IndefiniteSVC",
           "IndefiniteSVR"]
