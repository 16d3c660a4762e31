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
