/* DTW of one series against four or eight others at once, one per lane of 4-double vectors
 * (private; _dtw.pyx).
 *
 * The dynamic programme of _dtw.pyx's _dtw_pair is a chain: each cell waits for the cell
 * left of it (an add after two compare-and-selects), so one pair keeps a core's adders mostly
 * idle. Four pairs that share their first series and whose other series have one length
 * have the same band, so their programmes run in lock step, one pair a lane, the chains side
 * by side (eight: two vectors, two chains in flight). Each lane does the scalar code's
 * operations in the same order (the squared differences summed channel by channel, the
 * smallest of the three neighbours, one add; no contraction into FMA under -std=c11), so
 * every distance has the scalar code's bits: the
 * values of a cell do not depend on the direction in which the band is swept, since min is
 * symmetric and (a - b)^2 = (b - a)^2 exactly.
 *
 * Compiled where gcc can for AVX2, and run where the CPU has it (_cpu.h); elsewhere every
 * pair runs alone (ix_dtw_lanes_ok).
 */
#ifndef INDEFSVM_DTW_LANES_H
#define INDEFSVM_DTW_LANES_H

#include <math.h>
#include <stddef.h>
#include <string.h>
#include "../_solvers/_vec.h"
#include "../_solvers/_cpu.h"

#if defined(__GNUC__) || defined(__clang__)

static inline void ix_store_d(double *p, ix_v4d v) { memcpy(p, &v, sizeof v); }

/* x: lx points of d channels; y[k] = B + offs[k] d (k < 4 nv): ly points each; r: the
 * band's radius (as _dtw_pair's, from max(lx, ly)). prev, cur: 4 nv (lx + 1) doubles each;
 * yrow: 4 nv d doubles. out[k] = DTW(x, y[k]). Every ~1.6e7 cells the group looks at
 * *stop, and, with watch, at interrupted() (Ctrl-C); either stops it (returns 1, out
 * untouched). nv = 2 runs two chains of four lanes side by side: a cell's chain (compare,
 * select, add) is the group's latency, and two independent chains fill the time one leaves
 * idle. */
#define IX_DTW_LANES(LANES, NV, SUFFIX, ATTR)                                                      \
    ATTR static int ix_dtw##LANES##SUFFIX(const double *x, ptrdiff_t lx, const double *B,   \
                                       const ptrdiff_t *offs, ptrdiff_t ly, ptrdiff_t d,     \
                                       ptrdiff_t r, double *prev, double *cur,               \
                                       double *yrow, int watch, int (*interrupted)(void),    \
                                       int *stop, double *out)                               \
    {                                                                                       \
        const double *y[4 * NV];                                                            \
        const ix_v4d inf = {INFINITY, INFINITY, INFINITY, INFINITY};                        \
        const ix_v4d zero = {0.0, 0.0, 0.0, 0.0};                                           \
        const ptrdiff_t W = 4 * NV; /* doubles a cell */                                    \
        ptrdiff_t i, q, c, k, v, lo, hi;                                                    \
        ptrdiff_t extra = lx > ly ? lx - ly : ly - lx;                                      \
        /* cells (i of x, q of y) of the band: those of _dtw_pair's rows over the shorter */ \
        /* series, whichever of x and y that is */                                          \
        ptrdiff_t below = ly > lx ? extra + r : r, above = lx > ly ? extra + r : r;         \
        long long cells = 0;                                                                \
        double *tmp;                                                                        \
        ix_v4d cost[NV], diff, best, left[NV], up[NV], xv;                                  \
        for (k = 0; k < W; k++)                                                             \
            y[k] = B + offs[k] * d;                                                         \
        for (i = 0; i < W * (lx + 1); i += 4) {                                             \
            ix_store_d(prev + i, inf);                                                      \
            ix_store_d(cur + i, inf);                                                       \
        }                                                                                   \
        for (v = 0; v < NV; v++)                                                            \
            ix_store_d(prev + 4 * v, zero);                                                 \
        for (q = 0; q < ly; q++) {                                                          \
            if (cells > 16777216) {                                                         \
                cells = 0;                                                                  \
                if (*stop || (watch && interrupted())) {                                    \
                    *stop = 1;                                                              \
                    return 1;                                                               \
                }                                                                           \
            }                                                                               \
            lo = q - below;                                                                 \
            if (lo < 0)                                                                     \
                lo = 0;                                                                     \
            hi = q + above;                                                                 \
            if (hi > lx - 1)                                                                \
                hi = lx - 1;                                                                \
            for (c = 0; c < d; c++)                                                         \
                for (k = 0; k < W; k++)                                                     \
                    yrow[W * c + k] = y[k][q * d + c];                                      \
            cells += (long long)(hi - lo + 1) * d * W;                                      \
            for (v = 0; v < NV; v++) {                                                      \
                ix_store_d(cur + W * lo + 4 * v, inf);                                      \
                left[v] = inf;                                                              \
                up[v] = ix_load_d(prev + W * lo + 4 * v);                                   \
            }                                                                               \
            for (i = lo; i <= hi; i++) {                                                    \
                if (d == 1) {                                                               \
                    xv = (ix_v4d){x[i], x[i], x[i], x[i]};                                  \
                    for (v = 0; v < NV; v++) {                                              \
                        diff = xv - ix_load_d(yrow + 4 * v);                                \
                        cost[v] = diff * diff;                                              \
                    }                                                                       \
                } else {                                                                    \
                    for (v = 0; v < NV; v++)                                                \
                        cost[v] = zero;                                                     \
                    for (c = 0; c < d; c++) {                                               \
                        xv = (ix_v4d){x[i * d + c], x[i * d + c], x[i * d + c],             \
                                      x[i * d + c]};                                        \
                        for (v = 0; v < NV; v++) {                                          \
                            diff = xv - ix_load_d(yrow + W * c + 4 * v);                    \
                            cost[v] = cost[v] + diff * diff;                                \
                        }                                                                   \
                    }                                                                       \
                }                                                                           \
                for (v = 0; v < NV; v++) {                                                  \
                    best = up[v];                              /* the diagonal */           \
                    up[v] = ix_load_d(prev + W * (i + 1) + 4 * v); /* the cell above */     \
                    best = ix_blend((ix_v4l)(up[v] < best), up[v], best);                   \
                    best = ix_blend((ix_v4l)(left[v] < best), left[v], best);               \
                    left[v] = cost[v] + best;                                               \
                    ix_store_d(cur + W * (i + 1) + 4 * v, left[v]);                         \
                }                                                                           \
            }                                                                               \
            /* the band's right end moves by at most one cell a row: the next row may */    \
            /* read the cell right of this row's band, which must not hold an older row's */ \
            for (v = 0; v < NV; v++) {                                                      \
                if (hi + 2 <= lx)                                                           \
                    ix_store_d(cur + W * (hi + 2) + 4 * v, inf);                            \
                ix_store_d(cur + 4 * v, inf);                                               \
            }                                                                               \
            tmp = prev;                                                                     \
            prev = cur;                                                                     \
            cur = tmp;                                                                      \
        }                                                                                   \
        for (k = 0; k < W; k++)                                                             \
            out[k] = sqrt(prev[W * lx + k]);                                                \
        return 0;                                                                           \
    }

#if IX_HAVE_AVX2_VARIANT
IX_DTW_LANES(4, 1, _avx2, IX_TARGET_AVX2)
IX_DTW_LANES(8, 2, _avx2, IX_TARGET_AVX2)
#endif

/* Whether the lanes run here: AVX2 only. The baseline build of the same code (SSE2: each
 * 4-double vector two halves, and the selects as masks) measured 1.7e8 cells/s on one
 * thread, a third of the one-pair loop's speed, so without AVX2 every pair runs alone. */
static inline int ix_dtw_lanes_ok(void)
{
#if IX_HAVE_AVX2_VARIANT
    return ix_cpu_avx2();
#else
    return 0;
#endif
}

/* DTW(x, y[k]) for the nv * 4 series y[k] = B + offs[k] d of one length (nv = 1 or 2), into
 * out; 1 when stopped (Ctrl-C or *stop); -1 where the lanes do not run (ix_dtw_lanes_ok). */
static inline int ix_dtw_lanes(int nv, const double *x, ptrdiff_t lx, const double *B,
                               const ptrdiff_t *offs, ptrdiff_t ly, ptrdiff_t d, ptrdiff_t r,
                               double *prev, double *cur, double *yrow, int watch,
                               int (*interrupted)(void), int *stop, double *out)
{
#if IX_HAVE_AVX2_VARIANT
    if (ix_cpu_avx2())
        return nv == 2 ? ix_dtw8_avx2(x, lx, B, offs, ly, d, r, prev, cur, yrow, watch,
                                      interrupted, stop, out)
                       : ix_dtw4_avx2(x, lx, B, offs, ly, d, r, prev, cur, yrow, watch,
                                      interrupted, stop, out);
#endif
    (void)nv; (void)x; (void)lx; (void)B; (void)offs; (void)ly; (void)d; (void)r; (void)prev;
    (void)cur; (void)yrow; (void)watch; (void)interrupted; (void)stop; (void)out;
    return -1;
}

#else
static inline int ix_dtw_lanes_ok(void) { return 0; }
static inline int ix_dtw_lanes(int nv, const double *x, ptrdiff_t lx, const double *B,
                               const ptrdiff_t *offs, ptrdiff_t ly, ptrdiff_t d, ptrdiff_t r,
                               double *prev, double *cur, double *yrow, int watch,
                               int (*interrupted)(void), int *stop, double *out)
{
    (void)nv; (void)x; (void)lx; (void)B; (void)offs; (void)ly; (void)d; (void)r; (void)prev;
    (void)cur; (void)yrow; (void)watch; (void)interrupted; (void)stop; (void)out;
    return -1;
}
#endif

#endif
