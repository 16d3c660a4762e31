"""Class and sample weights: scikit-learn's class weights, sample weights checked, and the
per-sample bounds ``C_i = C * weight`` they make (shared by every classifier of the package)."""

from __future__ import annotations

import numpy as np

from ..exceptions import ParameterError

#: the largest sample weight: C * weight must leave room for the dual's sums in float64
_MAX_WEIGHT = 1e150


def class_weight_vector(class_weight, classes, y) -> np.ndarray:
    """scikit-learn's class weights (dict, "balanced" or None) for ``classes``; a class the
    labels do not hold, or a weight below 0 or not finite, is refused by name (the one would
    be ignored, the other would scale C below 0)."""
    from sklearn.utils.class_weight import compute_class_weight

    if isinstance(class_weight, dict):
        # scikit-learn says "The classes, [...], are not in class_weight", naming the classes
        # there are, not the one that is wrong
        held = np.asarray(classes).tolist()
        unknown = [k for k in class_weight if k not in held]
        if unknown:
            shown = ", ".join(repr(c) for c in held[:10]) + (", ..." if len(held) > 10 else "")
            raise ParameterError(f"names class {unknown[0]!r}, which the labels do not "
                                 f"hold; their classes are {shown}.", "class_weight")
    if class_weight is None:
        # ones, as scikit-learn's: ``classes`` is np.unique of the labels at every caller,
        # and its check that they hold every label is a pass over all n (0.2 s at 10^7)
        return np.ones(np.asarray(classes).shape[0])
    cw = compute_class_weight(class_weight, classes=classes, y=y)
    bad = np.flatnonzero(~(np.isfinite(cw) & (cw >= 0)))
    if bad.size:
        raise ParameterError(f"of class {classes[bad[0]]} is {cw[bad[0]]:g}; a class weight "
                             "scales C for its class, so it must be a finite number >= 0 (0 "
                             "leaves the class out: then leave it out of y too).",
                             "class_weight")
    return cw


def check_every_class_weighted(classes, y_idx, w) -> None:
    """Every class has a sample of positive weight (sample_weight times class_weight): a
    class without one would be in ``classes_`` and never predicted."""
    # one pass over the samples (not one a class)
    weighted = np.bincount(y_idx, weights=(w > 0).astype(np.float64),
                           minlength=classes.shape[0])
    empty = np.flatnonzero(weighted == 0)
    if empty.size:
        raise ValueError(
            f"class {classes[empty[0]]} has no sample with a positive weight "
            "(sample_weight times class_weight); every class needs one, or leave the "
            "class out of y.")


def sample_weight_vector(sample_weight, n: int) -> np.ndarray:
    """``sample_weight`` as n finite float64 weights (None: ones; a scalar: n copies), or a
    ValueError that says what is wrong."""
    if sample_weight is None:
        sw = np.ones(n)
    else:
        try:
            raw = np.asarray(sample_weight)
        except (TypeError, ValueError):
            raise ParameterError("must be numbers (one per sample).",
                                 "sample_weight") from None
        if np.iscomplexobj(raw):
            raise ValueError("sample_weight is complex; weights are real numbers >= 0.")
        try:
            sw = np.array(raw, dtype=np.float64)
        except (TypeError, ValueError):
            raise ParameterError("must be numbers (one per sample).",
                                 "sample_weight") from None
        if sw.ndim == 0:
            sw = np.full(n, float(sw))
        if sw.shape != (n,):
            raise ValueError(
                f"sample_weight.shape == {sw.shape}, expected {(n,)}! Give one weight "
                "per sample.")
    if not np.all(np.isfinite(sw)):
        raise ValueError("sample_weight contains NaN or infinity; give finite weights >= 0.")
    return sw


def check_weights(sw, y_idx=None, one_class_prefix="") -> None:
    """The checks of the weights, in the order whose message says most: none positive;
    (classifiers) the positive ones all in one class; then any negative one."""
    if not np.any(sw > 0):
        raise ValueError(
            "Invalid input - all samples have zero or negative weights. Give "
            "sample_weight at least one entry > 0 (and none < 0).")
    weighted = None if y_idx is None else y_idx[sw > 0]
    if weighted is not None and not np.any(weighted != weighted[0]):  # one class (no sort)
        raise ValueError(
            f"{one_class_prefix}Invalid input - all samples with positive weights belong "
            "to the same class: the classifier needs two classes with sample_weight > 0.")
    if np.any(sw < 0):
        i = int(np.flatnonzero(sw < 0)[0])
        raise ParameterError(
            f"must be >= 0; got {sw[i]:g} at index {i}. A weight scales C "
            "for its sample (C_i = C * weight), so it cannot be negative; give 0 to leave "
            "a sample out.", "sample_weight")
    if np.max(sw) > _MAX_WEIGHT:
        raise ValueError(
            f"sample_weight reaches {np.max(sw):.3g}: the bounds C_i = C * weight would "
            "overflow the dual in float64. Only the ratios of the weights matter (with "
            "C): divide them by their mean, e.g. sample_weight / sample_weight.mean().")
