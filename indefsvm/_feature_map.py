"""The feature-map protocol (private; a low floor): what ``NystroemSVC`` asks of the map that
turns its inputs into features -- :class:`~indefsvm.KreinNystroem` (landmarks of a kernel or
of a distance) and :class:`~indefsvm.distances.RandomDistanceFeatures` (D2KE's random
objects). Declared here once, so that the landmark model calls these methods of a class in
another package through a protocol and not through another class's private members; each map
implements every method (the defaults say which one is missing)."""

from __future__ import annotations

import numpy as np

__all__ = ["FeatureMap"]


class FeatureMap:
    """Mixin of the feature maps a landmark model trains on (declares the protocol; holds no
    state and no parameter)."""

    def _check_settings(self) -> None:
        """The rules of the map's parameters that scikit-learn's constraints cannot say
        (also the one name of such rules for every estimator, ``indefsvm._constraints``)."""
        raise NotImplementedError(f"{type(self).__name__} declares no _check_settings")

    def _fit_rows(self, X):
        """Fit on an array of vectors (or kernel rows against landmarks); return ``self``."""
        raise NotImplementedError(f"{type(self).__name__} takes no vectors")

    def _fit_objects(self, objs):
        """Fit on objects compared by a metric (an ``Objects`` collection); return ``self``."""
        raise NotImplementedError(f"{type(self).__name__} takes no objects")

    def _check_rows(self, X):
        """``X`` checked as the rows the fitted map computes features of."""
        raise NotImplementedError(f"{type(self).__name__} declares no _check_rows")

    def _feature_blocks(self, X, dtype=np.float64, columns=None, out=None):
        """Yield ``(lo, hi, F)``: the features of rows ``lo:hi`` of ``X`` in ``dtype``, only
        the first ``columns`` when given, block by block (memory bounded); with ``out`` (an
        array of all the rows' features, of ``dtype``) ``F`` is ``out[lo:hi]``, written."""
        raise NotImplementedError(f"{type(self).__name__} declares no _feature_blocks")

    def _features(self, X, dtype=np.float64, columns=None) -> np.ndarray:
        """All the features of ``X`` at once (the blocks stacked)."""
        raise NotImplementedError(f"{type(self).__name__} declares no _features")


#: the protocol's methods, which another package may call (tests/test_layout.py)
PROTOCOL = tuple(name for name in vars(FeatureMap) if name.startswith("_")
                 and not name.startswith("__"))
