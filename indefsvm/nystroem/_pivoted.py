"""Landmarks by greedy pivoted Cholesky (``landmarks="pivoted"``): each next landmark is the
object the landmarks chosen so far represent worst.

The Nystroem approximation of a kernel by landmarks ``L`` is ``C W^{-1} C'``; its error on
the diagonal, ``r_i = k(x_i, x_i) - k(x_i, L) W^{-1} k(L, x_i)``, is what one more landmark
at ``x_i`` removes from the approximation. Greedy pivoted Cholesky (Harbrecht, Peters &
Schneider 2012; LAPACK's ``?pstrf`` with complete pivoting) picks the largest ``r_i`` each
step and updates the residual by one rank-one term; for an indefinite kernel the factor is
an ``L D L'`` with signs ``D`` and the pivot the largest ``|r_i|``, which keeps each step
exact for the pivots chosen (the residual at a chosen landmark is 0). The cost is one kernel
column per landmark over a random pool of objects -- ``m`` columns, never ``n x n`` -- and
``pool x m`` numbers of memory. The loop is Python over NumPy calls (a Ctrl-C is seen between
them); its columns are the compiled kernel and distance blocks.
"""

from __future__ import annotations

import numpy as np

#: the pool the pivots are chosen from: this many objects, or 4 m (all of them when fewer)
PIVOT_POOL = 2000


def pool_of(n: int, m: int, rng) -> np.ndarray:
    """A random pool of ``min(n, max(PIVOT_POOL, 4 m))`` object indices in random order (the
    order breaks the ties of the first pivots, e.g. a constant diagonal, at random)."""
    size = min(n, max(PIVOT_POOL, 4 * m))
    return rng.permutation(n)[:size]


def pivot_indices(column, diag: np.ndarray, m: int, rng) -> np.ndarray:
    """Positions (into the pool) of ``m`` pivots of greedy pivoted ``L D L'``.

    Parameters
    ----------
    column : callable
        ``column(j)``: the kernel values of every pool object with pool object ``j``,
        shape ``(size,)``.
    diag : ndarray of shape (size,)
        ``k(x, x)`` of the pool objects.
    m : int
        Number of pivots, at most ``size``.
    rng : numpy.random.Generator
        Draws the rest at random when the residual vanishes before ``m`` pivots (the pool's
        kernel has rank below ``m``: any further landmark is represented exactly already).

    Returns
    -------
    ndarray of int
        The pivots' positions in the pool, in the order they were chosen.

    Notes
    -----
    A residual counts as zero at ``|r| <= size * eps * max|diag|`` (relative to the kernel's
    scale), as LAPACK's ``?pstrf`` stops at its default tolerance.
    """
    size = diag.shape[0]
    G = np.empty((size, m))
    sign = np.empty(m)
    d = np.array(diag, dtype=np.float64)
    tol = size * np.finfo(np.float64).eps * max(float(np.max(np.abs(d))), np.finfo(float).tiny)
    taken = np.zeros(size, dtype=bool)
    chosen = []
    for k in range(m):
        score = np.where(taken, -1.0, np.abs(d))
        p = int(np.argmax(score))
        if score[p] <= tol:
            # the rest is represented exactly: any untaken objects, at random
            rest = rng.permutation(np.flatnonzero(~taken))[:m - k]
            chosen.extend(int(j) for j in rest)
            break
        r = np.asarray(column(p), dtype=np.float64) - G[:, :k] @ (sign[:k] * G[p, :k])
        rp = float(r[p])
        if abs(rp) <= tol:  # the column says what the running diagonal lost to rounding
            d[p] = 0.0
            taken[p] = True
            chosen.append(p)
            G[:, k] = 0.0
            sign[k] = 0.0
            continue
        G[:, k] = r / np.sqrt(abs(rp))
        sign[k] = np.sign(rp)
        d -= sign[k] * G[:, k] ** 2
        d[p] = 0.0
        taken[p] = True
        chosen.append(p)
    return np.asarray(chosen, dtype=np.intp)
