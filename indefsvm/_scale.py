"""Exact rescaling by powers of two, for computations whose intermediate figures (squares,
sums of a row) leave float64's range when the kernel's entries are far from 1."""

from __future__ import annotations

import math


def power_of_two_exponent(size: float) -> int:
    """``k`` with ``2^k`` nearest ``size`` when ``size`` lies outside ``[2^-64, 2^64]``, else 0.

    Scaling by a power of two (``np.ldexp``) is exact: a kernel near 1e307 (whose row sums
    and eigenvalues overflow), near 1e200 (whose squared gradients do) or near 1e-310
    (subnormal: digits lost) is worked on as ``K / 2^k`` and its figures scaled back;
    within ``2^+-64`` nothing changes, bit for bit.

    Examples
    --------
    >>> from indefsvm._scale import power_of_two_exponent
    >>> power_of_two_exponent(1.0), power_of_two_exponent(2.0 ** 100)
    (0, 100)
    """
    if 0.0 < size < math.inf and not 2.0**-64 <= size <= 2.0**64:
        return round(math.log2(size))
    return 0
