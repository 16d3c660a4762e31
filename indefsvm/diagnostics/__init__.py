"""Diagnostics of kernels (before training) and of fitted models (after training).

Before training, from ``K`` (and ``y`` where named):

* :func:`spectrum` - eigenvalues of ``K`` and of ``K`` on the complement of ``e``, once;
* :func:`cpd_test` - conditional positive definiteness with a certificate ``Delta``;
* :func:`signature` - pseudo-Euclidean signature ``(p, q, z)`` and negative mass;
* :func:`eta_scan` - pairs where SMO's sub-problem is concave, and Thm 5 pairs;
* :func:`sigmoid_region` - Lin & Lin's table for ``tanh(a x'x' + r)``;
* :func:`class_mean_sqdist` - ``c'Kc``, an upper bound on ``w'Mw``;
* :func:`check_kernel` - all of it in one :class:`KernelReport`;
* :func:`check_distances` - a distance matrix: metric? Euclidean? the gamma profile of
  ``exp(-gamma d^2)``, in a :class:`DistanceReport`.

After training: :func:`sanity_report` (a fitted model) and :func:`sanity_report_from_alpha`
(any dual solution) give a :class:`SanityReport`: stationarity, ``w'Mw``, bounded SVs, the
second-order test and the convex-hull equivalent (Haasdonk 2005, Prop. 7).
"""

from ._dual_report import DualSanityReport
from ._feature_report import NystroemSanityReport
from .distances import check_distances, triangle_violations
from .eta import EtaScan, eta_scan
from .posttrain import (
    PairwiseSanityReport,
    SanityReport,
    sanity_report,
    sanity_report_from_alpha,
    second_order_check,
)
from .report import DistanceReport, KernelReport
from .spectrum import CPDResult, Signature, Spectrum, cpd_test, signature, spectrum
from .suitability import SigmoidRegion, check_kernel, class_mean_sqdist, sigmoid_region

__all__ = [
    "CPDResult",
    "DistanceReport",
    "EtaScan",
    "KernelReport",
    "DualSanityReport",
    "NystroemSanityReport",
    "PairwiseSanityReport",
    "SanityReport",
    "SigmoidRegion",
    "Signature",
    "Spectrum",
    "check_distances",
    "check_kernel",
    "class_mean_sqdist",
    "cpd_test",
    "eta_scan",
    "sanity_report",
    "sanity_report_from_alpha",
    "second_order_check",
    "sigmoid_region",
    "signature",
    "spectrum",
    "triangle_violations",
]
