# Kernel columns computed in C and kept in an LRU cache, for the decomposition solvers.
#
# Samples live in a *permuted* order so that the active (unshrunk) variables form a prefix
# [0, active_size); a cached column holds K(x_t, x_i) for t in [0, length) of that order.
# Columns are stored as float32 (half the memory and bandwidth, LIBSVM's choice) or float64;
# ``exact_column`` always computes in float64 without touching the cache.

cdef class KernelCache:
    cdef int kind
    cdef Py_ssize_t n
    cdef Py_ssize_t cap_n            # capacity: the largest problem reset() accepts
    cdef public int n_threads        # OpenMP threads for the columns of on-the-fly kernels
    cdef Py_ssize_t d
    cdef double gamma
    cdef double coef0
    cdef int degree
    cdef readonly bint f32           # columns stored as float32
    cdef bint sparse                 # inputs held as CSR rows (dot-product kernels and rbf)
    cdef double[:, ::1] X          # permuted copy of the problem's rows (dense on-the-fly)
    cdef double[:, ::1] logX       # permuted log of those rows (symmetric KL only)
    cdef const double[:, ::1] X0   # the caller's rows, original order (never written)
    cdef double[:, ::1] logX0      # their log (symmetric KL only)
    cdef double[::1] sqnorm0       # squared norms of the CSR rows, original order
    cdef const double[:, ::1] K    # precomputed kernel, original order (never permuted)
    cdef const double[::1] sp_data     # CSR rows in the original order (sparse inputs)
    cdef const Py_ssize_t[::1] sp_ind
    cdef const Py_ssize_t[::1] sp_ptr
    cdef double[::1] dense_row     # one row scattered to dense (sparse inputs), else zeros
    cdef double[::1] sqnorm        # squared norms of the permuted rows (rbf)
    cdef double[::1] diag          # K(x_t, x_t) in permuted order
    cdef Py_ssize_t[::1] perm      # perm[t] = original index of permuted position t
    cdef Py_ssize_t[::1] smap      # smap[t] = row of K / of the CSR rows behind position t
    cdef double[::1] work          # float64 scratch column (float32 storage)
    cdef Py_ssize_t nslots
    cdef void** cols               # per slot: a malloc'ed prefix of a column (float or double)
    cdef Py_ssize_t[::1] cap       # entries allocated per slot
    cdef Py_ssize_t esize          # 4 (float32) or 8 (float64)
    cdef Py_ssize_t[::1] slot_of   # slot holding column t, or -1
    cdef Py_ssize_t[::1] owner     # column held by a slot, or -1
    cdef Py_ssize_t[::1] length    # valid prefix length of a slot
    cdef Py_ssize_t[::1] prev      # LRU list; index nslots is the sentinel
    cdef Py_ssize_t[::1] nxt
    cdef public long long n_evals  # kernel entries computed
    cdef public long long n_hits
    cdef public long long n_misses
    # the split guard: a column is split among the threads only while that is measured to
    # be faster than one thread (see compute)
    cdef readonly double ser_ns    # running time per entry of a column on one thread (ns)
    cdef readonly double par_ns    # running time per entry of a split column (ns)
    cdef Py_ssize_t n_eligible     # columns long enough to split, so far
    cdef Py_ssize_t hold           # such columns left on one thread before the next try
    cdef Py_ssize_t backoff        # the next hold (grows while splitting does not pay)
    cdef Py_ssize_t trial          # split columns left before a try of splitting is judged
    cdef public long long n_split  # columns computed split among the threads
    cdef int tid_of[64]            # the thread that computed each chunk of the last split
    cdef public int split_team     # the most threads seen working on one split column
    cdef public int split_level    # the OpenMP nesting level of the last split (1: top)

    cdef int reset(self, const Py_ssize_t* rows, Py_ssize_t m) except -1 nogil
    cdef void* column(self, Py_ssize_t i, Py_ssize_t L) noexcept nogil
    cdef void exact_column(self, Py_ssize_t i, Py_ssize_t L, double* out) noexcept nogil
    cdef int exact_product(self, const double* c1, const double* c2, double* out1,
                           double* out2) except -1 nogil
    cdef void _product_block(self, const double* c1, const double* c2,
                             const Py_ssize_t* cols, Py_ssize_t nnz, Py_ssize_t blk,
                             Py_ssize_t NB, double* D, double* Xb, double* p1,
                             double* p2) noexcept nogil
    cdef void swap(self, Py_ssize_t i, Py_ssize_t j) noexcept nogil
    cdef void swap_index(self, Py_ssize_t i, Py_ssize_t j) noexcept nogil
    cdef void swap_entries(self, const Py_ssize_t* pairs, Py_ssize_t k,
                           bint split=*) noexcept nogil
    cdef bint splitting_pays(self) noexcept nogil
    cdef void _swap_in(self, Py_ssize_t s, const Py_ssize_t* pairs,
                       Py_ssize_t k) noexcept nogil
    cdef void compute(self, Py_ssize_t i, Py_ssize_t start, Py_ssize_t end,
                      double* out) noexcept nogil
    cdef void _compute(self, Py_ssize_t i, Py_ssize_t start, Py_ssize_t end, double* out,
                       float* f32out) noexcept nogil
    cdef void _count_team(self, Py_ssize_t nt) noexcept nogil
    cdef bint _split_now(self) noexcept nogil
    cdef void _account(self, bint split, double ns_per_entry) noexcept nogil
    cdef void _compute_rows(self, Py_ssize_t i, Py_ssize_t start, Py_ssize_t end,
                            double* out) noexcept nogil
    cdef bint _fill(self, Py_ssize_t s, Py_ssize_t i, Py_ssize_t start,
                    Py_ssize_t end) noexcept nogil
    cdef void _transform(self, double* out, Py_ssize_t start, Py_ssize_t end,
                         Py_ssize_t i) noexcept nogil
    cdef void _touch(self, Py_ssize_t s) noexcept nogil
    cdef double kernel_value(self, Py_ssize_t i, Py_ssize_t j) noexcept nogil
