/* Dynamic time warping of many (series, landmark) pairs on a CUDA device, one thread a pair
 * (indefsvm, private; launched by _dtw.py through CuPy's RawKernel, and built as C by
 * _shim.py for the tests, which run this very source on a CPU).
 *
 * The definition is the CPU's (_dtw.pyx): the square root of the smallest sum of squared
 * point differences along a warping path, within the Sakoe-Chiba band of radius
 * r = floor(window * max(la, lb)) widened by the length difference (window < 0: no band).
 * Series are packed as (points, channels) with offsets; pair p is (s, t) = (p / nB, p % nB).
 *
 * One row of the cumulative cost matrix a thread, kept in global memory interleaved across
 * the launch's threads (cell i of thread k at buf[i * stride + k]: neighbouring threads
 * read neighbouring words). A single row is enough: going left to right, row[i + 1] still
 * holds D(j - 1, i) when cell i of row j is computed, and D(j - 1, i - 1) is carried in a
 * register. The band only moves right, so a cell right of the band was never written
 * (still infinite), and the boundary cell 0 is made infinite after the first row.
 *
 * ix_dtw_band computes the same cells in the same order with only the band of the row kept,
 * in the block's shared memory: W = min(la, 2r + (la - lb) + 1) cells a thread, cell i of
 * the row at slot i mod W (a row's band spans at most W cells, and it moves right by at
 * most one cell a row, so a slot is rewritten only after its old value was read). The
 * launcher picks it when W is small (the usual 10 % band): the row's reads and writes then
 * stay on the chip instead of going to the device's memory.
 *
 * Products and sums are written __dmul_rn / __dadd_rn: each rounded on its own, as the
 * CPU's compiled DTW rounds them (a compiler may otherwise fuse a product and a sum into
 * one rounding), so that the device's distances are the CPU's bit for bit. */

/* Pair p = s nB + t of a launch: a is the longer of A_s and B_t (as on the CPU), la its
 * length, b and lb the other's; returns the band's radius r for la (window < 0: the whole
 * row). Both kernels begin so; out[p] is the pair's distance. */
__device__ int ix_pair(const double *A, const long long *offA, const double *B,
                       const long long *offB, long long nB, long long d, double window,
                       long long p, const double **a, int *la, const double **b, int *lb)
{
    long long s = p / nB, t = p - s * nB;
    int na = (int)(offA[s + 1] - offA[s]), nb = (int)(offB[t + 1] - offB[t]);
    const double *x = A + offA[s] * d, *y = B + offB[t] * d;
    if (na < nb) {
        const double *tp = x; x = y; y = tp;
        int tl = na; na = nb; nb = tl;
    }
    *a = x; *la = na; *b = y; *lb = nb;
    if (window < 0.0)
        return na;
    return (int)floor(window * (double)na + 1e-9);
}

extern "C" __global__ void ix_dtw_pairs(const double *A, const long long *offA,
                                        const double *B, const long long *offB,
                                        long long nB, long long d, double window,
                                        long long p0, long long p1, double *buf,
                                        long long stride, double inf, double *out)
{
    long long k = (long long)blockIdx.x * blockDim.x + threadIdx.x;
    long long p = p0 + k;
    if (p >= p1)
        return;
    const double *a, *b;
    int la, lb;
    int r = ix_pair(A, offA, B, offB, nB, d, window, p, &a, &la, &b, &lb);
    int extra = la - lb, i, j;
    long long c;
    double *row = buf + k;
    row[0] = 0.0;
    for (i = 1; i <= la; i++)
        row[(long long)i * stride] = inf;
    /* the cells are walked with pointers (no 64-bit multiplication a cell), and one
       channel, the common case, has its own loop */
    for (j = 0; j < lb; j++) {
        int lo = j - r, hi = j + extra + r;
        if (lo < 0) lo = 0;
        if (hi > la - 1) hi = la - 1;
        const double *q = b + (long long)j * d;
        double *cell = row + (long long)lo * stride;
        double diag = *cell, left = inf;
        cell += stride;
        if (d == 1) {
            const double *x = a + lo, qv = q[0];
            for (i = lo; i <= hi; i++) {
                double diff = *x++ - qv, up = *cell, best = diag;
                double cost = __dmul_rn(diff, diff);
                if (up < best) best = up;
                if (left < best) best = left;
                left = __dadd_rn(cost, best);
                diag = up;
                *cell = left;
                cell += stride;
            }
        } else {
            const double *x = a + (long long)lo * d;
            for (i = lo; i <= hi; i++) {
                double cost = 0.0, up = *cell, best = diag;
                for (c = 0; c < d; c++) {
                    double diff = x[c] - q[c];
                    cost = __dadd_rn(cost, __dmul_rn(diff, diff));
                }
                x += d;
                if (up < best) best = up;
                if (left < best) best = left;
                left = __dadd_rn(cost, best);
                diag = up;
                *cell = left;
                cell += stride;
            }
        }
        if (j == 0)
            row[0] = inf;
    }
    out[p] = sqrt(row[(long long)la * stride]);
}
extern "C" __global__ void ix_dtw_band(const double *A, const long long *offA,
                                       const double *B, const long long *offB,
                                       long long nB, long long d, double window,
                                       long long p0, long long p1, int width, double inf,
                                       double *out)
{
    extern __shared__ double ix_band[];
    long long k = (long long)blockIdx.x * blockDim.x + threadIdx.x;
    long long p = p0 + k;
    if (p >= p1)
        return;
    const double *a, *b;
    int la, lb;
    int r = ix_pair(A, offA, B, offB, nB, d, window, p, &a, &la, &b, &lb);
    int extra = la - lb, i, j, phi = -1;
    long long c;
    int W = 2 * r + extra + 1;
    if (W > la)
        W = la;
    if (W > width) {  /* the launcher sized the band for every pair: never here */
        out[p] = -1.0;
        return;
    }
    int stride = (int)blockDim.x;
    double *row = ix_band + threadIdx.x;
    double last = inf;
    for (j = 0; j < lb; j++) {
        int lo = j - r, hi = j + extra + r;
        if (lo < 0) lo = 0;
        if (hi > la - 1) hi = la - 1;
        const double *q = b + (long long)j * d;
        /* D(j - 1, lo - 1): the boundary at lo = 0 (0 before the first row, then
           infinite), else the previous row's first cell */
        double diag = lo == 0 ? (j == 0 ? 0.0 : inf) : row[((lo - 1) % W) * stride];
        double left = inf;
        int slot = lo % W;
        for (i = lo; i <= hi; i++) {
            const double *x = a + (long long)i * d;
            /* D(j - 1, i): written by the previous row if i is within its band, which
               started at or left of lo; right of it the cell was never reached */
            double cost = 0.0, up = i <= phi ? row[slot * stride] : inf, best = diag;
            if (d == 1) {
                double diff = x[0] - q[0];
                cost = __dmul_rn(diff, diff);
            } else {
                for (c = 0; c < d; c++) {
                    double diff = x[c] - q[c];
                    cost = __dadd_rn(cost, __dmul_rn(diff, diff));
                }
            }
            if (up < best) best = up;
            if (left < best) best = left;
            left = __dadd_rn(cost, best);
            diag = up;
            row[slot * stride] = left;
            if (++slot == W) slot = 0;
        }
        phi = hi;
        last = left;
    }
    out[p] = sqrt(last);
}
