"""What the Nystroem features and the SVM on them share: the block size of a pass over the
rows and rows made dense a block at a time."""

from __future__ import annotations

import numpy as np

#: rows of X per block of transform: the block's kernel values stay near 64 MB
_BLOCK_BYTES = 64 * 2**20


def dense_rows(A) -> np.ndarray:
    """Rows as a C-ordered float64 array (sparse rows made dense)."""
    return np.ascontiguousarray(A.toarray() if hasattr(A, "toarray") else A, dtype=np.float64)


def rows_per_block(m: int) -> int:
    return max(256, _BLOCK_BYTES // (8 * max(m, 1)))


def dense_rows_per_block(d: int) -> int:
    """Rows of ``d`` features that a block made dense from CSR may hold (near 64 MB)."""
    return max(1, _BLOCK_BYTES // (8 * max(d, 1)))


def fit_memory(n: int, m: int, *, d2ke: bool = False, sparse: bool = False) -> float:
    """Bytes a NystroemSVC fit holds at its peak, said before the work: the ``n x m``
    float32 features; for Nystroem the ``m x m`` landmark distances or kernel ``W``, its
    eigenvectors and LAPACK's workspace (about ``4 m^2`` floats together) and the held-out
    rows of the stability rule (``max(500, m) x m``); for D2KE the distances of up to 1 000
    sampled objects to the ``m`` random ones and their kernel; the linear solver's Gram
    matrix for its step size (``min(m, 2000)^2``: larger ones are never formed); and the
    buffers of a block of rows (each near 64 MB): two, and five for ``sparse`` rows (their
    products with the landmarks, the kernel of them and its features) -- a CSR fit of
    2e5 x 5 000 rows and 1 000 landmarks held 0.24 GiB above the rest, which the estimate
    left out (0.79 GiB said, 1.02 GiB measured)."""
    features = 4.0 * n * m
    gram = 8.0 * min(m, 2000) ** 2
    blocks = (5 if sparse else 2) * _BLOCK_BYTES
    if d2ke:
        return features + 2 * 8.0 * min(n, 1000) * m + gram + blocks
    return features + 4 * 8.0 * m * m + 8.0 * max(500, m) * m + gram + blocks

