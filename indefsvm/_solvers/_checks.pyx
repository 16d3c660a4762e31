# cython: language_level=3
"""Compiled checks of the ground floor (private): one tiled pass over a square matrix for its
largest entry, its asymmetry and its finiteness (``_validation.check_kernel_matrix``), and
OpenMP's thread limit (``_threads``). Nothing here depends on a solver.
"""

from libc.stdlib cimport free, malloc
from cython.parallel cimport parallel, prange

import numpy as np


cdef extern from "_omp.h" nogil:
    int ix_omp_max_threads()


def omp_max_threads():
    """OpenMP's thread limit for the next parallel region (1 without OpenMP)."""
    return ix_omp_max_threads()


# The BLAS holds of ``indefsvm._threads._held_blas``, counted across Python threads. Kept in
# compiled code so that a hold and a release are each one step for the interpreter (a
# KeyboardInterrupt is delivered between lines of Python, not inside these statements; the
# getters and setters are threadpoolctl's), and a hold whose release was never reached (an
# interrupt at the line that releases it) is released when it is freed: the frame that held
# it unwinds. One lock makes each step whole: the setters release the GIL (ctypes), and a
# hold that began while another's last release was setting the counts back recorded the
# lowered count as the one to restore.
import threading as _threading

_BLAS_LOCK = _threading.Lock()
_BLAS_HOLDS = {}    # id of a hold -> the limit it holds
_BLAS_FOUND = {}    # library path -> the count found before the first hold


cdef class BlasHold:
    """A hold of ``limit`` threads on the BLAS libraries (their paths, count getters and
    setters): each is set to the lowest count any hold asks for (never more than it had
    before the first hold) until :meth:`release`, or until the hold is freed; the last
    release puts back the count found before the first hold."""
    cdef list paths, getters, setters
    cdef Py_ssize_t key
    cdef bint held

    def __init__(self, int limit, list paths, list getters, list setters):
        self.paths, self.getters, self.setters = paths, getters, setters
        self.key = <Py_ssize_t><void*>self
        with _BLAS_LOCK:
            _BLAS_HOLDS[self.key] = limit
            self.held = True
            _blas_apply(paths, getters, setters)

    def release(self):
        self._release()

    cdef _release(self):
        with _BLAS_LOCK:
            if self.held:
                self.held = False
                _BLAS_HOLDS.pop(self.key, None)
                _blas_apply(self.paths, self.getters, self.setters)

    def __dealloc__(self):
        # (a cdef method and a key kept from __init__: nothing here hands self to Python)
        if self.held:
            try:
                self._release()
            except BaseException:
                pass


cdef _blas_apply(list paths, list getters, list setters):
    cdef Py_ssize_t k
    low = min(_BLAS_HOLDS.values()) if _BLAS_HOLDS else None
    for k in range(len(paths)):
        if low is None:
            found = _BLAS_FOUND.pop(paths[k], None)
            if found is not None:
                setters[k](found)
        else:
            if paths[k] not in _BLAS_FOUND:
                _BLAS_FOUND[paths[k]] = getters[k]()
            setters[k](max(1, min(_BLAS_FOUND[paths[k]], low)))


cdef extern from "_check.h" nogil:
    int IX_TILE
    void ix_defects_tile(const double* K, Py_ssize_t n, Py_ssize_t i0, Py_ssize_t i1,
                         Py_ssize_t j0, Py_ssize_t j1, double* buf, double* vmax,
                         double* amax, double* poison)


def matrix_defects(const double[:, ::1] K, int n_threads=1):
    """One tiled pass over a square matrix: (max |K_ij|, max |K_ij - K_ji| with its (i, j),
    whether every entry is finite).

    Tiles of 64 x 64 (and their transposed counterparts) keep the transposed reads in cache,
    so this costs about one read of K; rows of tiles are shared among ``n_threads`` OpenMP
    threads. Every figure is exact (maxima; the finiteness test sums 0 * K_ij) and the
    reported (i, j) is the first in row-major order among the tiles, so the answer does not
    depend on the number of threads.
    """
    cdef Py_ssize_t n = K.shape[0], B = IX_TILE, nb, r, c, i, j, i0, i1, j0, j1
    cdef Py_ssize_t best = -1, ai = 0, aj = 0
    cdef double amax = 0.0, vmax = 0.0, diff
    cdef bint finite = True
    if n == 0:
        return 0.0, 0.0, (0, 0), True
    nb = (n + B - 1) // B
    tv = np.zeros(nb)
    ta = np.zeros(nb)
    tp = np.zeros(nb)
    targ = np.full(nb, -1, dtype=np.intp)
    cdef double[::1] tvm = tv, tam = ta, tpo = tp
    cdef Py_ssize_t[::1] tag = targ
    oom = np.zeros(1, dtype=np.intc)
    cdef int[::1] oomv = oom
    cdef const double* Kp = &K[0, 0]
    cdef double* buf
    cdef double a_before, lv, la, lp
    cdef Py_ssize_t lc
    with nogil, parallel(num_threads=n_threads if n_threads > 1 else 1):
        buf = <double*>malloc(B * B * sizeof(double))
        if buf != NULL:
            # row tiles of the upper triangle: the first ones hold the most tiles
            for r in prange(nb, schedule="dynamic"):
                i0 = r * B
                i1 = i0 + B if i0 + B < n else n
                # thread-local accumulators: the shared arrays are written once per row of
                # tiles (writing them per tile would bounce their cache line between cores)
                lv = 0.0
                la = 0.0
                lp = 0.0
                lc = -1
                for c in range(r, nb):
                    j0 = c * B
                    j1 = j0 + B if j0 + B < n else n
                    a_before = la
                    ix_defects_tile(Kp, n, i0, i1, j0, j1, buf, &lv, &la, &lp)
                    if la > a_before:
                        lc = c
                tvm[r] = lv
                tam[r] = la
                tpo[r] = lp
                tag[r] = lc
            free(buf)
        else:
            oomv[0] = 1
    if oomv[0]:
        raise MemoryError("no memory for the symmetry check's tile buffer")
    for r in range(nb):
        vmax = tvm[r] if tvm[r] > vmax else vmax
        if tam[r] > amax:
            amax = tam[r]
            best = r
        if tpo[r] != 0.0:
            finite = False
    if best >= 0:
        # the entry behind the maximum, in its tile, first in row-major order
        i0 = best * B
        j0 = tag[best] * B
        for i in range(i0, min(i0 + B, n)):
            for j in range(j0, min(j0 + B, n)):
                diff = abs(Kp[i * n + j] - Kp[j * n + i])
                if diff == amax:
                    ai, aj = (i, j) if i <= j else (j, i)
                    return vmax, amax, (ai, aj), finite
    return vmax, amax, (ai, aj), finite

