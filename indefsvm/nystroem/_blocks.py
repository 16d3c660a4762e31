"""What the Nystroem features and the SVM on them share: the block size of a pass over the
rows, rows made dense a block at a time, and the input tags of both estimators."""

from __future__ import annotations

import numpy as np

#: rows of X per block of transform: the block's kernel values stay near 64 MB
_BLOCK_BYTES = 64 * 2**20

def input_tags(tags, kernel):
    """scikit-learn's input tags of the Nystroem estimators: a precomputed block is pairwise;
    features may be sparse (read a block at a time as dense rows)."""
    tags.input_tags.pairwise = kernel == "precomputed"
    tags.input_tags.sparse = kernel != "precomputed"
    return tags


def dense_rows(A) -> np.ndarray:
    """Rows as a C-ordered float64 array (sparse rows made dense)."""
    return np.ascontiguousarray(A.toarray() if hasattr(A, "toarray") else A, dtype=np.float64)


def rows_per_block(m: int) -> int:
    return max(256, _BLOCK_BYTES // (8 * max(m, 1)))
