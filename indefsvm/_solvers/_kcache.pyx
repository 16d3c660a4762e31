# cython: language_level=3
"""Kernel columns computed in C with an LRU column cache (private).

The decomposition solvers ask for column ``i`` of the kernel matrix restricted to the first
``L`` samples of the current (permuted) order. Dot-product kernels use BLAS ``dgemv`` over
the contiguous block of permuted rows; distance kernels use plain loops; a precomputed kernel
is gathered from its row. The cache is a fixed number of slots (``cache_size`` megabytes of
float64 columns, at least two), least recently used first out. Only the valid prefix of a
column is kept: when two samples are swapped, columns that hold both are swapped in place and
columns that hold only one are cut back to the shorter, still valid, prefix.
"""

from libc.float cimport DBL_MAX
from libc.math cimport exp, tanh, sqrt, fabs, pow
from scipy.linalg.cython_blas cimport dgemv

import numpy as np


cdef class KernelCache:

    def __init__(self, int kind, X, K, double gamma, double coef0, int degree,
                 double cache_mb, Py_ssize_t n):
        cdef Py_ssize_t t, s
        self.kind = kind
        self.n = n
        self.gamma = gamma
        self.coef0 = coef0
        self.degree = degree
        self.perm = np.arange(n, dtype=np.intp)
        self.n_evals = 0
        self.n_hits = 0
        self.n_misses = 0
        if kind == KIND_PRECOMPUTED:
            self.K = K
            self.d = 0
            self.X = np.zeros((1, 1))
            self.diag = np.ascontiguousarray(np.diagonal(np.asarray(K)), dtype=np.float64)
        else:
            # own copy: the rows are permuted in place during shrinking
            Xc = np.array(X, dtype=np.float64, order="C", copy=True)
            self.X = Xc
            self.d = Xc.shape[1]
            self.K = np.zeros((1, 1))
            self.sqnorm = np.einsum("ij,ij->i", Xc, Xc)
            if kind == KIND_SYMMETRIC_KL:
                self.logX = np.log(Xc)
            self.diag = np.empty(n)
            for t in range(n):
                self.diag[t] = self.kernel_value(t, t)
        cdef double per_col = 8.0 * n
        if kind == KIND_PRECOMPUTED and cache_mb > 16.0:
            # a precomputed column is a gather from K's row, about as cheap as reading a
            # cached copy: a small cache (16 MB) is faster (fewer page faults) and lighter
            cache_mb = 16.0
        cdef Py_ssize_t nslots = <Py_ssize_t>(cache_mb * 1048576.0 / per_col)
        if nslots < 2:
            nslots = 2
        if nslots > n:
            nslots = n if n >= 2 else 2
        self.nslots = nslots
        self.data = np.empty((nslots, n))
        self.slot_of = np.full(n, -1, dtype=np.intp)
        self.owner = np.full(nslots, -1, dtype=np.intp)
        self.length = np.zeros(nslots, dtype=np.intp)
        self.prev = np.empty(nslots + 1, dtype=np.intp)
        self.nxt = np.empty(nslots + 1, dtype=np.intp)
        # circular list through the sentinel: sentinel -> 0 -> 1 ... -> nslots-1 -> sentinel
        for s in range(nslots + 1):
            self.nxt[s] = (s + 1) % (nslots + 1)
            self.prev[s] = (s + nslots) % (nslots + 1)

    @property
    def n_slots(self):
        return self.nslots

    cdef void _touch(self, Py_ssize_t s) noexcept nogil:
        # move slot s to the most-recently-used end (right after the sentinel)
        cdef Py_ssize_t h = self.nslots
        self.nxt[self.prev[s]] = self.nxt[s]
        self.prev[self.nxt[s]] = self.prev[s]
        self.nxt[s] = self.nxt[h]
        self.prev[s] = h
        self.prev[self.nxt[h]] = s
        self.nxt[h] = s

    cdef double* column(self, Py_ssize_t i, Py_ssize_t L) noexcept nogil:
        cdef Py_ssize_t s = self.slot_of[i]
        cdef Py_ssize_t old
        if s >= 0:
            if self.length[s] < L:
                self.n_misses += 1
                self.compute(i, self.length[s], L, &self.data[s, self.length[s]])
                self.length[s] = L
            else:
                self.n_hits += 1
            self._touch(s)
            return &self.data[s, 0]
        self.n_misses += 1
        s = self.prev[self.nslots]          # least recently used
        old = self.owner[s]
        if old >= 0:
            self.slot_of[old] = -1
        self.owner[s] = i
        self.slot_of[i] = s
        self.compute(i, 0, L, &self.data[s, 0])
        self.length[s] = L
        self._touch(s)
        return &self.data[s, 0]

    cdef void swap(self, Py_ssize_t i, Py_ssize_t j) noexcept nogil:
        cdef Py_ssize_t s, lo, hi, k, si, sj
        cdef double tmp
        cdef Py_ssize_t ti
        if i == j:
            return
        lo = i if i < j else j
        hi = j if i < j else i
        ti = self.perm[i]; self.perm[i] = self.perm[j]; self.perm[j] = ti
        tmp = self.diag[i]; self.diag[i] = self.diag[j]; self.diag[j] = tmp
        if self.kind != KIND_PRECOMPUTED:
            for k in range(self.d):
                tmp = self.X[i, k]; self.X[i, k] = self.X[j, k]; self.X[j, k] = tmp
            if self.kind == KIND_SYMMETRIC_KL:
                for k in range(self.d):
                    tmp = self.logX[i, k]; self.logX[i, k] = self.logX[j, k]
                    self.logX[j, k] = tmp
            tmp = self.sqnorm[i]; self.sqnorm[i] = self.sqnorm[j]; self.sqnorm[j] = tmp
        # the columns owned by i and j change names
        si = self.slot_of[i]
        sj = self.slot_of[j]
        self.slot_of[i] = sj
        self.slot_of[j] = si
        if si >= 0:
            self.owner[si] = j
        if sj >= 0:
            self.owner[sj] = i
        # entries i and j inside every cached column
        s = self.nxt[self.nslots]
        while s != self.nslots:
            if self.owner[s] >= 0:
                if self.length[s] > hi:
                    tmp = self.data[s, i]; self.data[s, i] = self.data[s, j]
                    self.data[s, j] = tmp
                elif self.length[s] > lo:
                    # entry lo would now be stale; keep the valid prefix only
                    self.length[s] = lo
            s = self.nxt[s]

    cdef double kernel_value(self, Py_ssize_t i, Py_ssize_t j) noexcept nogil:
        cdef Py_ssize_t k
        cdef double acc = 0.0, diff
        if self.kind == KIND_PRECOMPUTED:
            return self.K[self.perm[i], self.perm[j]]
        if self.kind == KIND_L1_GAUSSIAN or self.kind == KIND_SQRT_L1_EXPONENTIAL:
            for k in range(self.d):
                acc += fabs(self.X[i, k] - self.X[j, k])
            if self.kind == KIND_L1_GAUSSIAN:
                return exp(-self.gamma * acc * acc)
            return exp(-self.gamma * sqrt(acc))
        if self.kind == KIND_SYMMETRIC_KL:
            for k in range(self.d):
                acc += (self.X[i, k] - self.X[j, k]) * (self.logX[i, k] - self.logX[j, k])
            return exp(-self.gamma * acc)
        for k in range(self.d):
            acc += self.X[i, k] * self.X[j, k]
        if self.kind == KIND_LINEAR:
            return acc
        if self.kind == KIND_POLYNOMIAL:
            return pow(self.gamma * acc + self.coef0, self.degree)
        if self.kind == KIND_SIGMOID:
            return tanh(self.gamma * acc + self.coef0)
        # rbf
        diff = 0.0
        for k in range(self.d):
            diff += (self.X[i, k] - self.X[j, k]) * (self.X[i, k] - self.X[j, k])
        return exp(-self.gamma * diff)

    cdef void compute(self, Py_ssize_t i, Py_ssize_t start, Py_ssize_t end,
                      double* out) noexcept nogil:
        cdef Py_ssize_t t, k, m = end - start
        cdef const double* row
        cdef const Py_ssize_t* pp
        cdef int bm, bd, inc = 1
        cdef double one = 1.0, zero = 0.0, acc, v, base
        cdef int p
        if m <= 0:
            return
        self.n_evals += m
        if self.kind == KIND_PRECOMPUTED:
            row = &self.K[self.perm[i], 0]
            pp = &self.perm[start]
            for t in range(m):
                out[t] = row[pp[t]]
            return
        if self.kind == KIND_L1_GAUSSIAN or self.kind == KIND_SQRT_L1_EXPONENTIAL:
            for t in range(m):
                acc = 0.0
                for k in range(self.d):
                    acc += fabs(self.X[start + t, k] - self.X[i, k])
                if self.kind == KIND_L1_GAUSSIAN:
                    out[t] = exp(-self.gamma * acc * acc)
                else:
                    out[t] = exp(-self.gamma * sqrt(acc))
            return
        if self.kind == KIND_SYMMETRIC_KL:
            for t in range(m):
                acc = 0.0
                for k in range(self.d):
                    acc += ((self.X[start + t, k] - self.X[i, k])
                            * (self.logX[start + t, k] - self.logX[i, k]))
                out[t] = exp(-self.gamma * acc)
            return
        # dot-product kernels: out = X[start:end] @ X[i] by BLAS (row-major block = column-major
        # d x m matrix, so the transposed product)
        bm = <int>m
        bd = <int>self.d
        dgemv(b"T", &bd, &bm, &one, &self.X[start, 0], &bd, &self.X[i, 0], &inc, &zero, out, &inc)
        if self.kind == KIND_LINEAR:
            return
        if self.kind == KIND_POLYNOMIAL:
            p = self.degree
            for t in range(m):
                base = self.gamma * out[t] + self.coef0
                v = 1.0
                for k in range(p):
                    v *= base
                out[t] = v
            return
        if self.kind == KIND_SIGMOID:
            for t in range(m):
                out[t] = tanh(self.gamma * out[t] + self.coef0)
            return
        # rbf: ||a - b||^2 = |a|^2 + |b|^2 - 2 a.b, clipped at 0 against rounding
        v = self.sqnorm[i]
        for t in range(m):
            acc = self.sqnorm[start + t] + v - 2.0 * out[t]
            if acc < 0.0:
                acc = 0.0
            out[t] = exp(-self.gamma * acc)

    def get_column(self, Py_ssize_t i, Py_ssize_t L):
        """Return a copy of the cached column i (permuted order), for tests."""
        cdef double* c = self.column(i, L)
        return np.asarray(<double[:L]> c).copy()

    def swap_samples(self, Py_ssize_t i, Py_ssize_t j):
        """Swap permuted positions i and j (for tests)."""
        self.swap(i, j)

    def permutation(self):
        return np.asarray(self.perm).copy()


def matrix_defects(const double[:, ::1] K):
    """One tiled pass over a square matrix: (max |K_ij|, max |K_ij - K_ji| with its (i, j),
    whether every entry is finite).

    Tiles keep the transposed reads in cache, so this costs about one read of K.
    """
    cdef Py_ssize_t n = K.shape[0], bi, bj, i, j, iend, jend, B = 64
    cdef Py_ssize_t ai = 0, aj = 0
    cdef double vmax = 0.0, amax = 0.0, v, w, diff, poison = 0.0
    cdef const double* Kp = &K[0, 0]
    with nogil:
        bi = 0
        while bi < n:
            iend = bi + B if bi + B < n else n
            bj = bi
            while bj < n:
                jend = bj + B if bj + B < n else n
                for i in range(bi, iend):
                    for j in range(bj if bj > i else i, jend):
                        v = Kp[i * n + j]
                        w = Kp[j * n + i]
                        # 0 * v is 0 for finite v and NaN for inf or NaN: no branch needed
                        poison += 0.0 * v + 0.0 * w
                        if fabs(v) > vmax:
                            vmax = fabs(v)
                        diff = fabs(v - w)
                        if diff > amax:
                            amax = diff
                            ai = i
                            aj = j
                bj += B
            bi += B
    return vmax, amax, (ai, aj), poison == 0.0
