"""What a fitted model vouches for (private; a low floor). Each class that a model file can
hold has ``_check_fitted_state()``: the fitted attributes are the ones its ``fit`` leaves --
present, finite, of consistent shapes, its kernel one of the library's. A model file's loader
(``indefsvm._modelfile``) asks each part and keeps only what belongs to files (trusted types,
archive limits, the pipelines ``fit --save`` writes); a crafted file must not predict in
silence."""

from __future__ import annotations

import numpy as np

__all__ = ["UnsoundState", "check_degree", "check_kernel_name", "check_pairs", "check_scaler",
           "forget", "require", "require_finite"]


class UnsoundState(ValueError):
    """A fitted model's state that no ``fit`` leaves. The message is a phrase that follows
    the model's (or the file's) name: "has ...", "holds ..."."""


def forget(model, *names: str) -> None:
    """Drop the attributes ``names`` a previous fit left, where this fit sets none of them
    (a model refitted on a precomputed kernel kept the training data of its last fit on
    vectors: in memory, in its file, and where a check reads them)."""
    for name in names:
        model.__dict__.pop(name, None)


def require(condition, what: str) -> None:
    """Raise :class:`UnsoundState` saying ``what`` unless ``condition``."""
    if not condition:
        raise UnsoundState(what)


def require_finite(values, what: str) -> np.ndarray:
    """``values`` as floats, all finite (else :class:`UnsoundState` saying ``what``)."""
    try:
        arr = np.asarray(values, dtype=float)
    except (TypeError, ValueError):
        raise UnsoundState(what) from None
    require(np.all(np.isfinite(arr)), what)
    return arr


def require_finite_rows(values, what: str) -> tuple[int, int]:
    """The shape of ``values``, a 2-D matrix of finite numbers, dense or CSR (a model fitted
    on sparse features keeps them sparse): for CSR its structure (index ranges, pointers) is
    checked as well, else :class:`UnsoundState` saying ``what``."""
    import scipy.sparse as sp

    if sp.issparse(values):
        require(values.format == "csr" and values.ndim == 2, what)
        try:
            values.check_format(full_check=True)
        except (ValueError, TypeError, AttributeError):
            raise UnsoundState(what) from None
        require_finite(values.data, what)
        return values.shape
    arr = require_finite(values, what)
    require(arr.ndim == 2, what)
    return arr.shape


def check_kernel_name(kernel, canonical_name, *, precomputed: bool = True) -> None:
    """A kernel a model file may name: one of the library's (or ``"precomputed"``), as
    ``canonical_name`` (the caller's ``kernels.canonical_name``: this floor imports no
    kernel) tells them."""
    ok = isinstance(kernel, str) and (precomputed or kernel != "precomputed")
    if ok:
        try:
            canonical_name(kernel)
        except ValueError:
            ok = False
    require(ok, f"has a kernel {kernel!r} that is not a kernel name of indefsvm")


def check_degree(degree) -> None:
    require(not isinstance(degree, bool) and isinstance(degree, (int, np.integer))
            and 0 <= degree <= 64, f"has a polynomial degree {degree!r} outside 0 ... 64")


def check_pairs(model) -> None:
    """The one-vs-one problems name classes of the model, each pair once."""
    n = len(model.classes_)
    # classes named twice: every row was predicted as one of them, with exit status 0
    require(len(np.unique(np.asarray(model.classes_))) == n, "has classes that are not "
            "distinct")
    try:
        pairs = [tuple(int(v) for v in p[:3]) for p in getattr(model, "_pairs", [])]
    except (TypeError, ValueError):
        raise UnsoundState("has one-vs-one problems that are not class indices") from None
    want = {(a, b) for a in range(n) for b in range(a + 1, n)}
    require({(a, b) for a, b, _ in pairs} == want and len(pairs) == len(want)
            and all(pos in (a, b) for a, b, pos in pairs),
            f"has one-vs-one problems that do not match its {n} classes")


def check_scaler(scaler, n_features) -> None:
    """The fitted state of scikit-learn's ``MinMaxScaler`` in front of a model (``fit
    --scale``): fitted, finite scale and offset of its number of features, a range lo < hi,
    and the model behind it (``n_features``, None when it does not say) of as many
    features. Checked here because the class is scikit-learn's, not ours."""
    n = getattr(scaler, "n_features_in_", None)
    require(isinstance(n, (int, np.integer)) and n >= 1, "holds a scaler that was never fitted")
    for name in ("scale_", "min_"):
        values = np.asarray(getattr(scaler, name, np.empty(0)))
        require(values.shape == (n,) and values.dtype.kind == "f"
                and bool(np.all(np.isfinite(values))),
                f"holds a scaler whose {name.rstrip('_')} is not {n} finite numbers")
    lo_hi = getattr(scaler, "feature_range", None)
    require(isinstance(lo_hi, tuple) and len(lo_hi) == 2
            and all(isinstance(v, (int, float)) and np.isfinite(v) for v in lo_hi)
            and lo_hi[0] < lo_hi[1], f"holds a scaler to the range {lo_hi!r}")
    require(n_features is None or n_features == n,
            f"holds a scaler of {n} features in front of a model of {n_features}")
