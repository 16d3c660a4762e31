# cython: language_level=3
"""Householder reduction of a symmetric matrix to tridiagonal form that Ctrl-C can stop
(private).

The blocked algorithm of LAPACK's ``dsytrd`` for the lower triangle, driven from here: a
panel of ``nb`` columns is reduced by ``dlatrd`` and the trailing matrix updated by one
``dsyr2k``; the last columns go through the unblocked ``dsytd2``. Same routines, same
arithmetic and the same cost as one ``dsytrd`` call, but the GIL is released during every
panel and the interpreter looks for a pending signal between panels, so a Ctrl-C during the
dense spectrum of a large kernel stops it within one panel (about a tenth of a second at
n = 6 000) instead of when the whole reduction returns.
"""

from cpython.exc cimport PyErr_CheckSignals
from libc.stdlib cimport free, malloc
from scipy.linalg.cython_blas cimport dsyr2k
from scipy.linalg.cython_lapack cimport dlatrd, dsytd2

import numpy as np

# columns per panel (LAPACK's ilaenv default for dsytrd is 32) and below which size the
# unblocked routine does everything
DEF_NB = 32
DEF_NX = 32


def tridiagonalize(double[::1, :] A, int nb=DEF_NB):
    """Reduce the symmetric ``A`` (lower triangle used, Fortran order, overwritten) to
    tridiagonal ``T = Q' A Q``; returns its diagonal ``d`` and subdiagonal ``e``.

    Raises ``KeyboardInterrupt`` (the signal's exception) between panels when one arrived.
    """
    cdef int n = A.shape[0]
    if A.shape[1] != n:
        raise ValueError("A must be square")
    d_arr = np.empty(n)
    e_arr = np.empty(max(n - 1, 0))
    if n == 0:
        return d_arr, e_arr
    cdef double[::1] d = d_arr
    cdef double[::1] e_full = np.zeros(n)  # LAPACK writes up to e[n-2]; one spare slot
    cdef double[::1] tau = np.zeros(n)
    cdef int lda = <int>(A.strides[1] // sizeof(double))
    if lda < n or A.strides[0] != sizeof(double):
        raise ValueError("A must be Fortran-contiguous")
    if nb < 1:
        nb = 1
    cdef int ldwork = n, i = 0, j, m, info = 0, rest
    cdef char uplo = b'L', trans = b'N'
    cdef double minus_one = -1.0, one = 1.0
    cdef double *work = <double *> malloc(<size_t>n * nb * sizeof(double))
    cdef double *a = &A[0, 0]
    if work == NULL:
        raise MemoryError("no memory for the tridiagonal reduction's work array")
    try:
        if n > DEF_NX and n > nb:
            while i < n - DEF_NX and i + nb < n:
                m = n - i
                with nogil:
                    # reduce columns i .. i+nb-1; W (m x nb) in work
                    dlatrd(&uplo, &m, &nb, a + i + <size_t>i * lda, &lda, &e_full[i],
                           &tau[i], work, &ldwork)
                    # A22 -= V W' + W V' on the trailing (m - nb) x (m - nb) block
                    rest = m - nb
                    dsyr2k(&uplo, &trans, &rest, &nb, &minus_one,
                           a + (i + nb) + <size_t>i * lda, &lda, work + nb, &ldwork, &one,
                           a + (i + nb) + <size_t>(i + nb) * lda, &lda)
                    for j in range(i, i + nb):
                        a[j + 1 + <size_t>j * lda] = e_full[j]
                        d[j] = a[j + <size_t>j * lda]
                i += nb
                PyErr_CheckSignals()
        m = n - i
        with nogil:
            dsytd2(&uplo, &m, a + i + <size_t>i * lda, &lda, &d[i], &e_full[i], &tau[i],
                   &info)
    finally:
        free(work)
    if info != 0:  # pragma: no cover - an argument error of ours
        raise RuntimeError(f"LAPACK dsytd2 failed (info={info})")
    e_arr[:] = e_full[:n - 1]
    return d_arr, e_arr
