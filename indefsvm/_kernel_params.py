"""The rules of the named kernels' own parameters (private): pseudo_euclidean's ``p``, tl1's
``rho`` -- checked by the kernel functions on their data and, where no data are needed, by
the estimators' settings (``kernels.check_kernel_settings``) before any."""

from __future__ import annotations

import numbers

import numpy as np

from .exceptions import ParameterError, Setting


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
