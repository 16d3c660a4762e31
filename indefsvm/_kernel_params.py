"""The named kernels of features and their parameters (private, the ground floor): each name
and the parameters it takes, which ``kernels.KERNELS`` pairs with its function and the
estimators' constraints read without importing a kernel; the rules of their own parameters:
pseudo_euclidean's ``p``, tl1's ``rho`` -- checked by the kernel functions on their data
and, where no data are needed, by the estimators' settings
(``kernels.check_kernel_settings``) before any."""

from __future__ import annotations

import numbers

import numpy as np

from .exceptions import ParameterError, Setting

#: every named kernel of features and the parameters it takes (kernels.KERNELS: with its
#: function), in the order of the docs
KERNEL_TAKES: dict[str, tuple[str, ...]] = {
    "linear": (),
    "polynomial": ("degree", "gamma", "coef0"),
    "rbf": ("gamma",),
    "sigmoid": ("gamma", "coef0"),
    "l1_gaussian": ("gamma",),
    "sqrt_l1_exponential": ("gamma", "sigma"),
    "symmetric_kl": ("gamma", "sigma"),
    "pseudo_euclidean": ("p",),
    "tl1": ("rho",),
}
#: the other names of two of them
ALIASES = {"poly": "polynomial", "gaussian": "rbf"}

#: the way in for a distance given where a kernel's name goes: ``kernel="dtw"`` (or a
#: ``DistanceKernel``) is the first thing a DTW or edit-distance user types
DISTANCE_HINT = ("a distance such as DTW or edit is no kernel name: D = "
                 "indefsvm.pairwise_distances(X, metric='dtw'), then "
                 "DistanceKernel().fit_transform(D) with kernel='precomputed', or "
                 "NystroemSVC(metric='dtw')")


def _check_p(p, n_features: int | None = None) -> None:
    """pseudo_euclidean's p: given, a whole number, at least 0 (at most ``n_features`` where
    the features are known)."""
    if p is None:
        raise ParameterError(
            "{kernel} needs {p}, the number of positive coordinates.", "p", "",
            {"kernel": Setting("kernel", "pseudo_euclidean", "kernel 'pseudo_euclidean'"),
             "p": Setting("p", words="p (kernel_matrix, check_kernel: p=...; the "
                                     "estimators: kernel_params={'p': ...})")})
    most = "" if n_features is None else f", at most n_features={n_features}"
    if isinstance(p, bool) or not isinstance(p, numbers.Real) or not float(p).is_integer() \
            or p < 0:
        raise ParameterError(f"must be a whole number >= 0, the count of positive coordinates"
                             f"{most}; got {p!r}.", "p")


def _check_rho(rho) -> None:
    """tl1's truncation radius: a finite number > 0 (None: its default, 0.7 n_features)."""
    if rho is not None and (isinstance(rho, bool)
                            or not isinstance(rho, (int, float, np.number))
                            or not np.isfinite(rho) or rho <= 0):
        raise ParameterError(f"must be a finite number > 0 (the truncation radius); got "
                             f"{rho!r}.", "rho")
