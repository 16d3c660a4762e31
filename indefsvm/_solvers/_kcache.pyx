# cython: language_level=3
"""Kernel columns computed in C with an LRU column cache (private).

The decomposition solvers ask for column ``i`` of the kernel matrix restricted to the first
``L`` samples of the current (permuted) order. Dot-product kernels use the vectorised dot
products of ``_vmath.h`` over the contiguous block of permuted rows (or a scattered row
against CSR rows for sparse inputs), each row summed in a fixed order so that a column split
among threads has the same entries; distance kernels use plain loops; a precomputed kernel is gathered from its row. exp
and tanh are evaluated by the vectorised loops of ``_vmath.h``. The cache is a fixed number of
slots (``cache_size`` megabytes of float32 or float64 columns, at least two), least recently
used first out. Only the valid prefix of a column is kept, and only that prefix is allocated
(as LIBSVM does: with shrinking most columns are short, so the memory in use stays well under
the budget): when two samples are swapped, columns that hold both are swapped in place and
columns that hold only one are cut back to the shorter, still valid, prefix.
"""


from libc.math cimport fabs, sqrt
from libc.stdlib cimport calloc, free, malloc, realloc
from posix.time cimport CLOCK_MONOTONIC, clock_gettime, timespec
from scipy.linalg.cython_blas cimport dgemm
from cpython.exc cimport PyErr_CheckSignals
from cython.parallel cimport parallel, prange, threadid


cdef extern from "_omp.h" nogil:
    int ix_omp_level()

from indefsvm._solvers._kernels cimport (
    KIND_L1_GAUSSIAN,
    KIND_LINEAR,
    KIND_POLYNOMIAL,
    KIND_PRECOMPUTED,
    KIND_RBF,
    KIND_SIGMOID,
    KIND_SQRT_L1_EXPONENTIAL,
    KIND_SYMMETRIC_KL,
    ix_dot_rows,
    ix_exp_core,
    ix_exp_scaled,
    distance_arg,
    kernel_from_dot,
    kernel_from_dots,
)

import numpy as np


def csr_row_sqnorms(data, indptr):
    """Squared norms of CSR rows (empty rows included, wherever they are)."""
    indptr = np.asarray(indptr)
    rows = np.repeat(np.arange(indptr.shape[0] - 1), np.diff(indptr))
    return np.bincount(rows, weights=np.asarray(data) ** 2,
                       minlength=indptr.shape[0] - 1).astype(np.float64)


# swaps x cached columns above which swap_entries shares the columns among the threads (a
# swap in a column in cache costs a few nanoseconds: 2^16 of them some 100 microseconds)
cdef Py_ssize_t SWAP_SPLIT_WORK = 65536

# a column is split among threads only when it is long and costly enough (some 25
# microseconds of work) for the threads' start and join to pay off: at least this many rows
# and rows * (d + 8). On a busy machine a thread that has lost its core makes every join
# wait for a time slice (measured: splitting 30-microsecond columns made a fit 60 times
# slower with the other core taken), so the split is also *measured* (compute's guard):
# every SPLIT_PROBE-th eligible column runs on one thread as the reference; a try of
# splitting is judged after SPLIT_TRIAL split columns (one time is noisy, and the first
# split after a pause pays for waking the threads; measured on 2 idle cores, split columns of
# 10^4-10^5 rows are 2.1-2.8 times faster per entry), at once when one split column takes
# SPLIT_STALL times the one-thread time (a thread that lost its core); when split columns are
# not at least 1 / SPLIT_GAIN times faster per entry the next ones run on one thread --
# HOLD_MIN of them, eight times more after each further failure up to HOLD_MAX -- before
# splitting is tried again (a failed try on a loaded machine can cost a time slice, some
# 10 ms). The entries are the same either way (the same code per entry).
cdef Py_ssize_t PAR_MIN_ROWS = 2048
cdef Py_ssize_t PAR_MIN_WORK = 1 << 17
cdef Py_ssize_t SPLIT_PROBE = 32
cdef Py_ssize_t SPLIT_TRIAL = 8
cdef double SPLIT_STALL = 4.0
cdef double SPLIT_GAIN = 0.85
cdef Py_ssize_t HOLD_MIN = 64
cdef Py_ssize_t HOLD_MAX = 32768


cdef inline void _to_f32(const double* src, float* dst, Py_ssize_t m) noexcept nogil:
    cdef Py_ssize_t t
    for t in range(m):
        dst[t] = <float>src[t]


cdef inline double _now_ns() noexcept nogil:
    cdef timespec ts
    clock_gettime(CLOCK_MONOTONIC, &ts)
    return <double>ts.tv_sec * 1e9 + <double>ts.tv_nsec


def _set_split_threshold(Py_ssize_t rows, Py_ssize_t work):
    """Change the split thresholds (for benchmarks); return the old ones."""
    global PAR_MIN_ROWS, PAR_MIN_WORK
    old = (PAR_MIN_ROWS, PAR_MIN_WORK)
    PAR_MIN_ROWS, PAR_MIN_WORK = rows, work
    return old



cdef class KernelCache:

    def __init__(self, int kind, X, K, double gamma, double coef0, int degree,
                 double cache_mb, Py_ssize_t n, bint float32=False, sparse=None,
                 sample_of=None):
        # sample_of[v]: the sample (row of K, X or the CSR rows) behind variable v; the
        # identity unless one sample carries several variables (the 2n variables of
        # epsilon-SVR read the n x n kernel twice, as LIBSVM's SVR_Q does). n is also the
        # capacity: reset() can later point the cache at any other m <= n rows (the
        # one-vs-one problems of a multi-class fit reuse one cache, its arrays and its
        # column memory, problem after problem)
        cdef Py_ssize_t s
        self.kind = kind
        self.n = n
        self.cap_n = n
        self.gamma = gamma
        self.coef0 = coef0
        self.degree = degree
        self.f32 = float32
        self.sparse = sparse is not None
        self.n_threads = 1
        self.ser_ns = 0.0
        self.par_ns = 0.0
        self.n_eligible = 0
        self.hold = 0
        self.backoff = HOLD_MIN
        self.trial = SPLIT_TRIAL
        self.n_split = 0
        self.split_team = 0
        self.split_level = 0
        if sample_of is None:
            src = np.arange(n, dtype=np.intp)
        else:
            src = np.ascontiguousarray(sample_of, dtype=np.intp)
            if src.shape[0] != n:
                raise ValueError("sample_of must have one entry per variable")
        self.perm = np.empty(n, dtype=np.intp)
        self.smap = np.empty(n, dtype=np.intp)
        self.n_evals = 0
        self.n_hits = 0
        self.n_misses = 0
        self.X = np.zeros((1, 1))
        self.X0 = np.zeros((1, 1))
        self.logX = np.zeros((1, 1))
        self.logX0 = np.zeros((1, 1))
        self.K = np.zeros((1, 1))
        self.sp_data = np.zeros(1)
        self.sp_ind = np.zeros(1, dtype=np.intp)
        self.sp_ptr = np.zeros(1, dtype=np.intp)
        self.sqnorm0 = np.zeros(1)
        self.dense_row = np.zeros(1)
        self.work = np.empty(n)
        self.diag = np.empty(n)
        self.sqnorm = np.zeros(n)
        if kind == KIND_PRECOMPUTED:
            self.K = K
            self.d = 0
        elif self.sparse:
            # CSR rows stay in the original order (smap maps to them); they are never copied
            if kind not in (KIND_LINEAR, KIND_POLYNOMIAL, KIND_RBF, KIND_SIGMOID):
                raise ValueError("sparse inputs are for the dot-product kernels and rbf")
            data, indices, indptr, d = sparse
            self.sp_data = np.ascontiguousarray(data, dtype=np.float64)
            self.sp_ind = np.ascontiguousarray(indices, dtype=np.intp)
            self.sp_ptr = np.ascontiguousarray(indptr, dtype=np.intp)
            self.d = d
            self.dense_row = np.zeros(max(d, 1))
            self.sqnorm0 = csr_row_sqnorms(self.sp_data, self.sp_ptr)
        else:
            # the caller's rows are read, never written; the cache works on its own copy of
            # the rows of the current problem, which shrinking permutes in place
            self.X0 = np.ascontiguousarray(X, dtype=np.float64)
            self.d = self.X0.shape[1]
            self.X = np.empty((n, max(self.d, 1)))
            if kind == KIND_SYMMETRIC_KL:
                self.logX0 = np.log(self.X0)
                self.logX = np.empty((n, max(self.d, 1)))
        cdef double per_col = (4.0 if float32 else 8.0) * n
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
        self.esize = 4 if float32 else 8
        self.cap = np.zeros(nslots, dtype=np.intp)
        self.cols = <void**>calloc(nslots, sizeof(void*))
        if self.cols == NULL:
            raise MemoryError()
        self.slot_of = np.full(n, -1, dtype=np.intp)
        self.owner = np.full(nslots, -1, dtype=np.intp)
        self.length = np.zeros(nslots, dtype=np.intp)
        self.prev = np.empty(nslots + 1, dtype=np.intp)
        self.nxt = np.empty(nslots + 1, dtype=np.intp)
        # circular list through the sentinel: sentinel -> 0 -> 1 ... -> nslots-1 -> sentinel
        for s in range(nslots + 1):
            self.nxt[s] = (s + 1) % (nslots + 1)
            self.prev[s] = (s + nslots) % (nslots + 1)
        cdef Py_ssize_t[::1] rows = src
        if n > 0:
            self.reset(&rows[0], n)

    cdef int reset(self, const Py_ssize_t* rows, Py_ssize_t m) except -1 nogil:
        """Point the cache at a new problem: variable t reads sample ``rows[t]`` (m <= the
        capacity). Columns held so far are dropped (their memory is kept for reuse)."""
        cdef Py_ssize_t t, k, s, r, d = self.d
        cdef double acc
        if m > self.cap_n:
            with gil:
                raise ValueError("a problem larger than the cache's capacity")
        self.n = m
        self.n_evals = 0
        self.n_hits = 0
        self.n_misses = 0
        for t in range(m):
            self.perm[t] = t
            self.smap[t] = rows[t]
            self.slot_of[t] = -1
        for s in range(self.nslots):
            # every slot unused: the unused ones then sit together at the LRU end, as the
            # swap loop expects (a slot taken is moved to the most recently used end)
            self.owner[s] = -1
            self.length[s] = 0
        if self.kind == KIND_PRECOMPUTED:
            for t in range(m):
                self.diag[t] = self.K[rows[t], rows[t]]
            return 0
        if self.sparse:
            for t in range(m):
                self.sqnorm[t] = self.sqnorm0[rows[t]]
        else:
            for t in range(m):
                r = rows[t]
                for k in range(d):
                    self.X[t, k] = self.X0[r, k]
                # the same sum as the columns' dot products: an rbf diagonal is exactly 1
                acc = 0.0
                if d > 0:
                    ix_dot_rows(&self.X[t, 0], d, &self.X[t, 0], &acc, 1)
                self.sqnorm[t] = acc
                if self.kind == KIND_SYMMETRIC_KL:
                    for k in range(d):
                        self.logX[t, k] = self.logX0[r, k]
        for t in range(m):
            self.diag[t] = self.kernel_value(t, t)
        return 0

    def __dealloc__(self):
        cdef Py_ssize_t s
        if self.cols != NULL:
            for s in range(self.nslots):
                free(self.cols[s])
            free(self.cols)

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

    cdef bint _fill(self, Py_ssize_t s, Py_ssize_t i, Py_ssize_t start,
                    Py_ssize_t end) noexcept nogil:
        """Compute entries [start, end) of column i into slot s (grown to ``end`` entries);
        False if the memory could not be had."""
        cdef void* p
        if self.cap[s] < end:
            p = realloc(self.cols[s], end * self.esize)
            if p == NULL:
                return False
            self.cols[s] = p
            self.cap[s] = end
        if not self.f32:
            self.compute(i, start, end, &(<double*>self.cols[s])[start])
            return True
        # computed in float64 into the scratch column, stored rounded (in the same split)
        self._compute(i, start, end, &self.work[0], &(<float*>self.cols[s])[start])
        return True

    cdef void* column(self, Py_ssize_t i, Py_ssize_t L) noexcept nogil:
        """Column i over permuted positions [0, L): a float* or a double* (see f32), or NULL
        when out of memory."""
        cdef Py_ssize_t s = self.slot_of[i]
        cdef Py_ssize_t old
        if s >= 0:
            if self.length[s] < L:
                self.n_misses += 1
                if not self._fill(s, i, self.length[s], L):
                    return NULL
                self.length[s] = L
            else:
                self.n_hits += 1
            self._touch(s)
        else:
            self.n_misses += 1
            s = self.prev[self.nslots]          # least recently used
            old = self.owner[s]
            if old >= 0:
                self.slot_of[old] = -1
            self.owner[s] = i
            self.slot_of[i] = s
            self.length[s] = 0
            if not self._fill(s, i, 0, L):
                self.owner[s] = -1
                self.slot_of[i] = -1
                return NULL
            self.length[s] = L
            self._touch(s)
        return self.cols[s]

    cdef void exact_column(self, Py_ssize_t i, Py_ssize_t L, double* out) noexcept nogil:
        """Column i over [0, L) in float64, computed afresh (the cache is not touched)."""
        self.compute(i, 0, L, out)

    cdef int exact_product(self, const double* c1, const double* c2, double* out1,
                           double* out2) except -1 nogil:
        """out1 += K c1 and out2 += K c2 over all n permuted positions, in float64 and without
        the cache; only the columns with a non-zero coefficient are evaluated.

        Dense dot-product kernels and rbf work on blocks of (up to) 64 columns: the dot
        products by one BLAS dgemm, the kernel function by the vectorised loops -- a few
        times faster than column by column; blocks are shared among ``n_threads`` threads.
        The other kernels go column by column (each column split among the threads)."""
        cdef Py_ssize_t n = self.n, d = self.d, s, t, k
        # 64 columns a block, fewer for large n so that the block stays under 8 MB
        cdef Py_ssize_t NB = 64 if n <= 16384 else max(8, 1048576 // n)
        cdef double* D
        cdef double* Xb
        cdef double* w1
        cdef double* w2
        cdef Py_ssize_t* cols
        cdef bint blocked = (not self.sparse and self.kind in
                             (KIND_LINEAR, KIND_POLYNOMIAL, KIND_RBF, KIND_SIGMOID))
        if not blocked:
            D = <double*>malloc(n * sizeof(double))
            if D == NULL:
                with gil:
                    raise MemoryError()
            try:
                for s in range(n):
                    if c1[s] == 0.0 and c2[s] == 0.0:
                        continue
                    self.compute(s, 0, n, D)
                    if c1[s] != 0.0:
                        for t in range(n):
                            out1[t] += c1[s] * D[t]
                    if c2[s] != 0.0:
                        for t in range(n):
                            out2[t] += c2[s] * D[t]
                    if s % 64 == 63:
                        with gil:
                            PyErr_CheckSignals()
            finally:
                free(D)
            return 0
        # blocks of (up to) NB columns with a non-zero coefficient, formed in order; nt of
        # them at a time, one per thread (each with its own buffers), each block's products
        # D c1 and D c2 summed by the same loop, then added to out1 / out2 in block order:
        # the result does not depend on the number of threads
        cdef Py_ssize_t nt = self.n_threads if self.n_threads > 1 else 1
        cdef Py_ssize_t nnz = 0, nblocks, w, wave, first
        for s in range(n):
            if c1[s] != 0.0 or c2[s] != 0.0:
                nnz += 1
        if nnz == 0:
            return 0
        nblocks = (nnz + NB - 1) // NB
        if nt > nblocks:
            nt = nblocks
        cols = <Py_ssize_t*>malloc(nnz * sizeof(Py_ssize_t))
        D = <double*>malloc(nt * n * NB * sizeof(double))
        Xb = <double*>malloc(nt * NB * (d if d > 0 else 1) * sizeof(double))
        w1 = <double*>malloc(nt * n * sizeof(double))
        w2 = <double*>malloc(nt * n * sizeof(double))
        try:
            if D == NULL or Xb == NULL or w1 == NULL or w2 == NULL or cols == NULL:
                with gil:
                    raise MemoryError()
            k = 0
            for s in range(n):
                if c1[s] != 0.0 or c2[s] != 0.0:
                    cols[k] = s
                    k += 1
            self.n_evals += n * nnz
            first = 0
            while first < nblocks:
                wave = nblocks - first if nblocks - first < nt else nt
                if wave > 1:
                    for w in prange(wave, num_threads=wave, schedule="static"):
                        self._product_block(c1, c2, cols, nnz, first + w, NB,
                                            &D[w * n * NB], &Xb[w * NB * (d if d > 0 else 1)],
                                            &w1[w * n], &w2[w * n])
                else:
                    self._product_block(c1, c2, cols, nnz, first, NB, D, Xb, w1, w2)
                for w in range(wave):
                    for t in range(n):
                        out1[t] += w1[w * n + t]
                        out2[t] += w2[w * n + t]
                first += wave
                with gil:
                    PyErr_CheckSignals()
        finally:
            free(D)
            free(Xb)
            free(w1)
            free(w2)
            free(cols)
        return 0

    cdef void _product_block(self, const double* c1, const double* c2,
                             const Py_ssize_t* cols, Py_ssize_t nnz, Py_ssize_t blk,
                             Py_ssize_t NB, double* D, double* Xb, double* p1,
                             double* p2) noexcept nogil:
        """p1 = K[:, block] c1[block], p2 = K[:, block] c2[block] for block ``blk`` of the
        columns ``cols`` (dense dot-product kernels and rbf): the dot products by one dgemm,
        the kernel by the vectorised loops, the sums column after column."""
        cdef Py_ssize_t n = self.n, d = self.d, lo = blk * NB, b, t, k, cb
        cdef Py_ssize_t nb = nnz - lo if nnz - lo < NB else NB
        cdef int bn = <int>n, bd = <int>d, bnb = <int>nb
        cdef double one = 1.0, zero = 0.0, a1, a2
        cdef double* col
        for b in range(nb):
            for k in range(d):
                Xb[b * d + k] = self.X[cols[lo + b], k]
        # D (n x nb, column-major) = X (n x d) Xb' ; X row-major = d x n column-major
        if d > 0:
            dgemm(b"T", b"N", &bn, &bnb, &bd, &one, &self.X[0, 0], &bd, Xb, &bd, &zero,
                  D, &bn)
        else:
            for t in range(n * nb):
                D[t] = 0.0
        for t in range(n):
            p1[t] = 0.0
            p2[t] = 0.0
        for b in range(nb):
            col = &D[b * n]
            self._transform(col, 0, n, cols[lo + b])
            a1 = c1[cols[lo + b]]
            a2 = c2[cols[lo + b]]
            if a1 != 0.0:
                for t in range(n):
                    p1[t] += a1 * col[t]
            if a2 != 0.0:
                for t in range(n):
                    p2[t] += a2 * col[t]

    cdef void swap(self, Py_ssize_t i, Py_ssize_t j) noexcept nogil:
        cdef Py_ssize_t pair[2]
        if i == j:
            return
        self.swap_index(i, j)
        pair[0] = i
        pair[1] = j
        self.swap_entries(pair, 1, False)

    cdef void swap_index(self, Py_ssize_t i, Py_ssize_t j) noexcept nogil:
        """Swap positions i and j everywhere but inside the cached columns: the rows, their
        norms, the diagonal and which slot holds which column. ``swap_entries`` then does
        the columns' entries, for a whole batch of swaps at once."""
        cdef Py_ssize_t k, si, sj
        cdef double tmp
        cdef Py_ssize_t ti
        if i == j:
            return
        ti = self.perm[i]; self.perm[i] = self.perm[j]; self.perm[j] = ti
        ti = self.smap[i]; self.smap[i] = self.smap[j]; self.smap[j] = ti
        tmp = self.diag[i]; self.diag[i] = self.diag[j]; self.diag[j] = tmp
        if self.kind != KIND_PRECOMPUTED:
            if not self.sparse:
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

    cdef void swap_entries(self, const Py_ssize_t* pairs, Py_ssize_t k,
                           bint split=False) noexcept nogil:
        """Apply the ``k`` swaps ``(pairs[2q], pairs[2q + 1])``, in order, to the entries of
        every cached column: a column holding both positions has them swapped, one holding
        only the lower is cut back to the prefix before it (still valid).

        Column by column, all swaps at once: a swap at a time walked every cached column
        for each (LIBSVM's way), two cache misses a column, and took 16 % of a binary fit
        at 2e4 rows (rbf, 200 MB of columns); a column's swaps run over it from both ends
        while it is in cache. The columns are independent, so they are shared among the
        threads when there is enough of them (each column's entries are the same either
        way) when ``split`` says so (``splitting_pays``: the column guard's latest verdict,
        so that a busy machine keeps the swaps on one thread as it keeps the columns)."""
        cdef Py_ssize_t s, live = 0, c
        cdef Py_ssize_t* slots
        cdef int nt = self.n_threads if self.n_threads > 1 else 1
        if k <= 0:
            return
        # slots never used sit together at the least-recently-used end: stop there
        s = self.nxt[self.nslots]
        while s != self.nslots and self.owner[s] >= 0:
            live += 1
            s = self.nxt[s]
        if live == 0:
            return
        if not split or nt == 1 or live < 2 * nt or live * k < SWAP_SPLIT_WORK:
            s = self.nxt[self.nslots]
            while s != self.nslots and self.owner[s] >= 0:
                self._swap_in(s, pairs, k)
                s = self.nxt[s]
            return
        slots = <Py_ssize_t*>malloc(live * sizeof(Py_ssize_t))
        if slots == NULL:
            s = self.nxt[self.nslots]
            while s != self.nslots and self.owner[s] >= 0:
                self._swap_in(s, pairs, k)
                s = self.nxt[s]
            return
        s = self.nxt[self.nslots]
        for c in range(live):
            slots[c] = s
            s = self.nxt[s]
        for c in prange(live, num_threads=nt, schedule="static"):
            self._swap_in(slots[c], pairs, k)
        free(slots)

    cdef void _swap_in(self, Py_ssize_t s, const Py_ssize_t* pairs,
                       Py_ssize_t k) noexcept nogil:
        """The swaps of ``swap_entries`` on the column in slot ``s``."""
        cdef Py_ssize_t q, i, j, lo, hi, L = self.length[s]
        cdef float* c32 = <float*>self.cols[s]
        cdef double* c64 = <double*>self.cols[s]
        cdef float t32
        cdef double t64
        for q in range(k):
            i = pairs[2 * q]
            j = pairs[2 * q + 1]
            lo = i if i < j else j
            hi = j if i < j else i
            if L > hi:
                if self.f32:
                    t32 = c32[i]; c32[i] = c32[j]; c32[j] = t32
                else:
                    t64 = c64[i]; c64[i] = c64[j]; c64[j] = t64
            elif L > lo:
                # entry lo would now be stale; keep the valid prefix only
                L = lo
        self.length[s] = L

    cdef double kernel_value(self, Py_ssize_t i, Py_ssize_t j) noexcept nogil:
        cdef Py_ssize_t k, ri, rj, a, b, ea, eb, w
        cdef double acc = 0.0
        if self.kind == KIND_PRECOMPUTED:
            return self.K[self.smap[i], self.smap[j]]
        if self.kind >= KIND_L1_GAUSSIAN:
            # the distance kernels: exp(-gamma arg), arg by the formula of the kernel blocks
            w = self.logX.shape[1]
            return ix_exp_core(-self.gamma * distance_arg(
                self.kind, &self.X[i, 0], &self.X[j, 0], &self.logX[0, 0], i * w,
                &self.logX[0, 0], j * w, self.d))
        if self.sparse:
            # merge of two sorted index lists
            ri = self.smap[i]
            rj = self.smap[j]
            a = self.sp_ptr[ri]; ea = self.sp_ptr[ri + 1]
            b = self.sp_ptr[rj]; eb = self.sp_ptr[rj + 1]
            while a < ea and b < eb:
                if self.sp_ind[a] == self.sp_ind[b]:
                    acc += self.sp_data[a] * self.sp_data[b]
                    a += 1
                    b += 1
                elif self.sp_ind[a] < self.sp_ind[b]:
                    a += 1
                else:
                    b += 1
        elif self.d > 0:
            ix_dot_rows(&self.X[i, 0], self.d, &self.X[j, 0], &acc, 1)
        return kernel_from_dot(self.kind, acc,
                               self.sqnorm[i] if self.kind == KIND_RBF else 0.0,
                               self.sqnorm[j] if self.kind == KIND_RBF else 0.0,
                               self.gamma, self.coef0, self.degree)

    cdef void compute(self, Py_ssize_t i, Py_ssize_t start, Py_ssize_t end,
                      double* out) noexcept nogil:
        """Entries [start, end) of column i into out. A long column of a kernel computed on
        the fly is split among ``n_threads`` OpenMP threads, in chunks that begin at
        multiples of 64 rows: every entry is computed by the same code as on one thread."""
        self._compute(i, start, end, out, NULL)

    cdef void _compute(self, Py_ssize_t i, Py_ssize_t start, Py_ssize_t end, double* out,
                       float* f32out) noexcept nogil:
        """compute(), and with ``f32out`` the entries also rounded to float32 there (by
        the thread that computed them)."""
        cdef Py_ssize_t t, k, m = end - start, r, q, chunk, nt = self.n_threads, c, s0, e0
        cdef bint split
        cdef double t0
        cdef const double* row
        cdef const Py_ssize_t* pp
        cdef double* xi
        if m <= 0:
            return
        self.n_evals += m
        if self.kind == KIND_PRECOMPUTED:
            row = &self.K[self.smap[i], 0]
            pp = &self.smap[start]
            for t in range(m):
                out[t] = row[pp[t]]
            if f32out != NULL:
                _to_f32(out, f32out, m)
            return
        if self.sparse:
            # row i scattered to dense once (the threads only read it), cleared afterwards
            xi = &self.dense_row[0]
            r = self.smap[i]
            for k in range(self.sp_ptr[r], self.sp_ptr[r + 1]):
                xi[self.sp_ind[k]] = self.sp_data[k]
        if nt > 1 and m >= PAR_MIN_ROWS and m * (self.d + 8) >= PAR_MIN_WORK:
            split = self._split_now()
            t0 = _now_ns()
            if split:
                chunk = ((m + nt - 1) // nt + 63) // 64 * 64
                for c in prange(nt, num_threads=nt, schedule="static"):
                    if c < 64:
                        self.tid_of[c] = threadid()
                    if c == 0:
                        self.split_level = ix_omp_level()
                    s0 = start + c * chunk
                    e0 = s0 + chunk if s0 + chunk < end else end
                    if s0 < e0:
                        self._compute_rows(i, s0, e0, out + (s0 - start))
                        if f32out != NULL:
                            _to_f32(out + (s0 - start), f32out + (s0 - start), e0 - s0)
                self._count_team(nt)
            else:
                self._compute_rows(i, start, end, out)
                if f32out != NULL:
                    _to_f32(out, f32out, m)
            self._account(split, (_now_ns() - t0) / m)
        else:
            self._compute_rows(i, start, end, out)
            if f32out != NULL:
                _to_f32(out, f32out, m)
        if self.sparse:
            for k in range(self.sp_ptr[r], self.sp_ptr[r + 1]):
                xi[self.sp_ind[k]] = 0.0

    def _guard_decisions(self, double one_thread_ns, double split_ns, Py_ssize_t count):
        """The split guard's choices for ``count`` eligible columns when a column costs
        ``one_thread_ns`` per entry on one thread and ``split_ns`` split (a test of the rule,
        without timing anything): a bool array, True where the column would be split."""
        out = np.zeros(count, dtype=bool)
        cdef Py_ssize_t k
        cdef bint split
        for k in range(count):
            split = self._split_now()
            out[k] = split
            self._account(split, split_ns if split else one_thread_ns)
        return out

    cdef void _count_team(self, Py_ssize_t nt) noexcept nogil:
        """split_team: the distinct threads of the last split (a region nested in another
        runs on one thread, which this makes visible)."""
        cdef Py_ssize_t a, b, distinct = 0
        cdef Py_ssize_t top = nt if nt < 64 else 64
        for a in range(top):
            for b in range(a):
                if self.tid_of[b] == self.tid_of[a]:
                    break
            else:
                distinct += 1
        if distinct > self.split_team:
            self.split_team = <int>distinct

    cdef bint splitting_pays(self) noexcept nogil:
        """Whether the last split columns were measured faster than one thread (and columns
        are not held on one thread now): the guard's verdict, read by work shared the same
        way and too short to be measured on its own."""
        return (self.n_threads > 1 and self.hold == 0 and self.par_ns > 0.0
                and self.par_ns <= SPLIT_GAIN * self.ser_ns)

    cdef bint _split_now(self) noexcept nogil:
        """Whether the next eligible column is split: not while held on one thread after
        splits that did not pay, not for the one-thread references (the first, and every
        SPLIT_PROBE-th)."""
        self.n_eligible += 1
        if self.hold > 0:
            self.hold -= 1
            return False
        return self.ser_ns > 0.0 and self.n_eligible % SPLIT_PROBE != 0

    cdef void _account(self, bint split, double ns_per_entry) noexcept nogil:
        """Running times per entry (a quarter weight for the newest); split columns that
        are not 1 / SPLIT_GAIN times faster than one thread (judged after a trial of
        SPLIT_TRIAL, or at once on a stall) hold the next columns on one thread."""
        if not split:
            self.ser_ns = (ns_per_entry if self.ser_ns == 0.0
                           else 0.75 * self.ser_ns + 0.25 * ns_per_entry)
            return
        self.n_split += 1
        self.par_ns = (ns_per_entry if self.par_ns == 0.0
                       else 0.75 * self.par_ns + 0.25 * ns_per_entry)
        if ns_per_entry <= SPLIT_STALL * self.ser_ns:
            if self.trial > 0:
                self.trial -= 1
                return
            if self.par_ns <= SPLIT_GAIN * self.ser_ns:
                self.backoff = HOLD_MIN
                return
        self.hold = self.backoff
        self.backoff = self.backoff * 8 if self.backoff < HOLD_MAX else HOLD_MAX
        self.par_ns = 0.0  # the next try is judged on its own times
        self.trial = SPLIT_TRIAL

    cdef void _compute_rows(self, Py_ssize_t i, Py_ssize_t start, Py_ssize_t end,
                            double* out) noexcept nogil:
        """compute() for a kernel computed on the fly, one thread (sparse: row i already
        scattered to dense_row)."""
        cdef Py_ssize_t t, k, m = end - start, q, w
        cdef const double* xi
        cdef double acc
        if self.kind >= KIND_L1_GAUSSIAN:
            # the distance kernels: the formula of the kernel blocks, then one vectorised exp
            w = self.logX.shape[1]
            for t in range(m):
                out[t] = distance_arg(self.kind, &self.X[start + t, 0], &self.X[i, 0],
                                      &self.logX[0, 0], (start + t) * w, &self.logX[0, 0],
                                      i * w, self.d)
            ix_exp_scaled(out, -self.gamma, out, m)
            return
        if self.sparse:
            xi = &self.dense_row[0]
            for t in range(m):
                q = self.smap[start + t]
                acc = 0.0
                for k in range(self.sp_ptr[q], self.sp_ptr[q + 1]):
                    acc += self.sp_data[k] * xi[self.sp_ind[k]]
                out[t] = acc
        elif self.d > 0:
            # dot-product kernels: out = X[start:end] @ X[i], each row summed the same way
            # whatever the split among threads (see _vmath.h)
            ix_dot_rows(&self.X[start, 0], self.d, &self.X[i, 0], out, m)
        else:
            for t in range(m):
                out[t] = 0.0
        self._transform(out, start, end, i)

    cdef void _transform(self, double* out, Py_ssize_t start, Py_ssize_t end,
                         Py_ssize_t i) noexcept nogil:
        """Dot products x_t . x_i (t in [start, end)) -> kernel values, in place."""
        kernel_from_dots(self.kind, out, end - start,
                          &self.sqnorm[start] if self.kind == KIND_RBF else NULL,
                          self.sqnorm[i] if self.kind == KIND_RBF else 0.0,
                          self.gamma, self.coef0, self.degree)

    def get_column(self, Py_ssize_t i, Py_ssize_t L):
        """Return a float64 copy of the cached column i (permuted order), for tests."""
        cdef void* c = self.column(i, L)
        if c == NULL:
            raise MemoryError()
        if self.f32:
            return np.asarray(<float[:L]> (<float*>c)).astype(np.float64)
        return np.asarray(<double[:L]> (<double*>c)).copy()

    def get_exact_column(self, Py_ssize_t i, Py_ssize_t L):
        """Return column i computed in float64 (permuted order), for tests."""
        out = np.empty(L)
        cdef double[::1] o = out
        if L > 0:
            self.exact_column(i, L, &o[0])
        return out

    def swap_samples(self, Py_ssize_t i, Py_ssize_t j):
        """Swap permuted positions i and j (for tests)."""
        self.swap(i, j)

    def swap_batch(self, pairs, bint split=False):
        """Swap the permuted positions of each row of ``pairs`` (k x 2), in order, the cached
        columns' entries all at once, as the shrinking does, the columns shared among the
        threads when ``split`` (for tests)."""
        cdef Py_ssize_t[:, ::1] p = np.ascontiguousarray(
            np.asarray(pairs, dtype=np.intp).reshape(-1, 2))
        cdef Py_ssize_t q
        if p.shape[0] == 0:
            return
        if np.min(p) < 0 or np.max(p) >= self.n:
            raise ValueError(f"positions must lie in [0, {self.n}).")
        for q in range(p.shape[0]):
            self.swap_index(p[q, 0], p[q, 1])
        self.swap_entries(&p[0, 0], p.shape[0], split)

    def permutation(self):
        return np.asarray(self.perm).copy()

