/* Move-split-merge of one series against four or eight others at once, one per lane of
 * 4-double vectors (private; _msm.pyx).
 *
 * The recursion of _msm.pyx's _msm is a chain as DTW's: a cell waits for the cell left of
 * it. Pairs that share their first series and whose other series have one length have one
 * band, so their programmes run in lock step, a pair a lane (eight: two vectors, two chains
 * in flight), as _dtw_lanes.h does for DTW. Here the rows run over the lanes' series y and
 * the columns over x, whichever is longer; _msm runs its rows over the longer series. A
 * cell's value does not depend on that: its three candidates are the same sums (|a - b| =
 * |b - a| exactly; a split or merge costs c or c plus a minimum of absolute differences,
 * both exact in either order) and the smallest of three is the same number, so every
 * distance has _msm's bits. Only adds, compares and selects: no contraction into FMA.
 *
 * Compiled where gcc can for AVX2, and run where the CPU has it (_cpu.h); elsewhere every
 * pair runs alone (ix_msm_lanes_ok).
 */
#ifndef INDEFSVM_MSM_LANES_H
#define INDEFSVM_MSM_LANES_H

#include <math.h>
#include <stddef.h>
#include <string.h>
#include "../_solvers/_vec.h"
#include "../_solvers/_cpu.h"

#if defined(__GNUC__) || defined(__clang__)

static inline void ix_msm_store(double *p, ix_v4d v) { memcpy(p, &v, sizeof v); }

/* Stefan et al.'s C(new, prev, other), lane by lane: c when new lies between prev and
 * other, else c plus its distance to the nearer of the two (_msm.pyx's _split_merge). */
#define IX_MSM_ABS(v) ((ix_v4d)((ix_v4l)(v) & absmask))
#define IX_MSM_COST(NEW, PREV, OTHER, OUT)                                                  \
    do {                                                                                    \
        ix_v4d d1_ = IX_MSM_ABS((NEW) - (PREV)), d2_ = IX_MSM_ABS((NEW) - (OTHER));          \
        ix_v4l in_ = (((PREV) <= (NEW)) & ((NEW) <= (OTHER)))                               \
                     | (((PREV) >= (NEW)) & ((NEW) >= (OTHER)));                            \
        ix_v4d m_ = ix_blend((ix_v4l)(d2_ < d1_), d2_, d1_);                                \
        (OUT) = cv + ix_blend(in_, zero, m_);                                               \
    } while (0)

/* x: lx points of d channels; y[k] = B + offs[k] d (k < 4 nv): ly points each; r: the
 * band's radius (as _msm's, from max(lx, ly)); c: the cost of a split or merge. prev, cur:
 * 4 nv lx doubles each. out[k] = MSM(x, y[k]), the channels' sum. Every ~1.6e7 cells the
 * group looks at *stop, and, with watch, at interrupted() (Ctrl-C); either stops it
 * (returns 1, out untouched). */
#define IX_MSM_LANES(LANES, NV, SUFFIX, ATTR)                                              \
    ATTR static int ix_msm##LANES##SUFFIX(const double *x, ptrdiff_t lx, const double *B,  \
                                         const ptrdiff_t *offs, ptrdiff_t ly, ptrdiff_t d,  \
                                         ptrdiff_t r, double c, double *prev, double *cur,  \
                                         int watch, int (*interrupted)(void), int *stop,    \
                                         double *out)                                       \
    {                                                                                       \
        const double *y[4 * NV];                                                            \
        const ix_v4d inf = {INFINITY, INFINITY, INFINITY, INFINITY};                        \
        const ix_v4d zero = {0.0, 0.0, 0.0, 0.0};                                           \
        const ix_v4d cv = {c, c, c, c};                                                     \
        const ix_v4l absmask = {0x7fffffffffffffffLL, 0x7fffffffffffffffLL,                 \
                                0x7fffffffffffffffLL, 0x7fffffffffffffffLL};                \
        const ptrdiff_t W = 4 * NV; /* doubles a cell */                                    \
        ptrdiff_t i, q, ch, k, v, lo, hi;                                                   \
        ptrdiff_t extra = lx > ly ? lx - ly : ly - lx;                                      \
        /* cells (q of y, i of x) of the band: those of _msm's rows over the longer */      \
        /* series, whichever of x and y that is */                                          \
        ptrdiff_t below = ly > lx ? extra + r : r, above = lx > ly ? extra + r : r;         \
        long long cells = 0;                                                                \
        double *tmp;                                                                        \
        ix_v4d total[NV], yq[NV], yp[NV], left[NV], xi, xp, diag, up, step, best, cost;     \
        for (k = 0; k < W; k++)                                                             \
            y[k] = B + offs[k] * d;                                                         \
        for (v = 0; v < NV; v++)                                                            \
            total[v] = zero;                                                                \
        for (ch = 0; ch < d; ch++) {                                                        \
            for (q = 0; q < ly; q++) {                                                      \
                if (cells > 16777216) {                                                     \
                    cells = 0;                                                              \
                    if (*stop || (watch && interrupted())) {                                \
                        *stop = 1;                                                          \
                        return 1;                                                           \
                    }                                                                       \
                }                                                                           \
                lo = q - below;                                                             \
                if (lo < 0)                                                                 \
                    lo = 0;                                                                 \
                hi = q + above;                                                             \
                if (hi > lx - 1)                                                            \
                    hi = lx - 1;                                                            \
                cells += (long long)(hi - lo + 1) * W;                                      \
                for (v = 0; v < NV; v++)                                                    \
                    yq[v] = (ix_v4d){y[4 * v][q * d + ch], y[4 * v + 1][q * d + ch],        \
                                     y[4 * v + 2][q * d + ch], y[4 * v + 3][q * d + ch]};   \
                i = lo;                                                                     \
                xi = (ix_v4d){x[ch], x[ch], x[ch], x[ch]};                                  \
                if (q == 0) {                                                               \
                    /* D(0, 0), then the splits and merges of x's points alone */           \
                    for (v = 0; v < NV; v++) {                                              \
                        left[v] = IX_MSM_ABS(xi - yq[v]);                                   \
                        ix_msm_store(cur + 4 * v, left[v]);                                 \
                    }                                                                       \
                    for (i = 1; i <= hi; i++) {                                             \
                        xp = xi;                                                            \
                        xi = (ix_v4d){x[i * d + ch], x[i * d + ch], x[i * d + ch],          \
                                      x[i * d + ch]};                                       \
                        for (v = 0; v < NV; v++) {                                          \
                            IX_MSM_COST(xi, xp, yq[v], cost);                               \
                            left[v] = left[v] + cost;                                       \
                            ix_msm_store(cur + W * i + 4 * v, left[v]);                     \
                        }                                                                   \
                    }                                                                       \
                } else {                                                                    \
                    if (lo == 0) {                                                          \
                        /* D(q, 0): a split or merge of y's point from D(q - 1, 0) */       \
                        for (v = 0; v < NV; v++) {                                          \
                            IX_MSM_COST(yq[v], yp[v], xi, cost);                            \
                            left[v] = ix_load_d(prev + 4 * v) + cost;                       \
                            ix_msm_store(cur + 4 * v, left[v]);                             \
                        }                                                                   \
                        i = 1;                                                              \
                    } else {                                                                \
                        for (v = 0; v < NV; v++)                                            \
                            left[v] = inf; /* the cell left of the band holds no path */    \
                    }                                                                       \
                    for (; i <= hi; i++) {                                                  \
                        xi = (ix_v4d){x[i * d + ch], x[i * d + ch], x[i * d + ch],          \
                                      x[i * d + ch]};                                       \
                        xp = (ix_v4d){x[(i - 1) * d + ch], x[(i - 1) * d + ch],             \
                                      x[(i - 1) * d + ch], x[(i - 1) * d + ch]};            \
                        for (v = 0; v < NV; v++) {                                          \
                            diag = ix_load_d(prev + W * (i - 1) + 4 * v)                    \
                                   + IX_MSM_ABS(xi - yq[v]);                                \
                            IX_MSM_COST(yq[v], yp[v], xi, cost);                            \
                            up = ix_load_d(prev + W * i + 4 * v) + cost;                    \
                            IX_MSM_COST(xi, xp, yq[v], cost);                               \
                            step = left[v] + cost;                                          \
                            best = ix_blend((ix_v4l)(up < diag), up, diag);                 \
                            best = ix_blend((ix_v4l)(step < best), step, best);             \
                            left[v] = best;                                                 \
                            ix_msm_store(cur + W * i + 4 * v, best);                        \
                        }                                                                   \
                    }                                                                       \
                }                                                                           \
                /* the next row may read the cell right of this row's band */               \
                if (hi + 1 <= lx - 1)                                                       \
                    for (v = 0; v < NV; v++)                                                \
                        ix_msm_store(cur + W * (hi + 1) + 4 * v, inf);                      \
                for (v = 0; v < NV; v++)                                                    \
                    yp[v] = yq[v];                                                          \
                tmp = prev;                                                                 \
                prev = cur;                                                                 \
                cur = tmp;                                                                  \
            }                                                                               \
            for (v = 0; v < NV; v++)                                                        \
                total[v] = total[v] + ix_load_d(prev + W * (lx - 1) + 4 * v);               \
        }                                                                                   \
        for (v = 0; v < NV; v++)                                                            \
            ix_msm_store(out + 4 * v, total[v]);                                            \
        return 0;                                                                           \
    }

#if IX_HAVE_AVX2_VARIANT
IX_MSM_LANES(4, 1, _avx2, IX_TARGET_AVX2)
IX_MSM_LANES(8, 2, _avx2, IX_TARGET_AVX2)
#endif

/* Whether the lanes run here: AVX2 only (as DTW's, _dtw_lanes.h). */
static inline int ix_msm_lanes_ok(void)
{
#if IX_HAVE_AVX2_VARIANT
    return ix_cpu_avx2();
#else
    return 0;
#endif
}

/* MSM(x, y[k]) for the nv * 4 series y[k] = B + offs[k] d of one length (nv = 1 or 2), into
 * out; 1 when stopped (Ctrl-C or *stop); -1 where the lanes do not run. */
static inline int ix_msm_lanes(int nv, const double *x, ptrdiff_t lx, const double *B,
                               const ptrdiff_t *offs, ptrdiff_t ly, ptrdiff_t d, ptrdiff_t r,
                               double c, double *prev, double *cur, int watch,
                               int (*interrupted)(void), int *stop, double *out)
{
#if IX_HAVE_AVX2_VARIANT
    if (ix_cpu_avx2())
        return nv == 2 ? ix_msm8_avx2(x, lx, B, offs, ly, d, r, c, prev, cur, watch,
                                      interrupted, stop, out)
                       : ix_msm4_avx2(x, lx, B, offs, ly, d, r, c, prev, cur, watch,
                                      interrupted, stop, out);
#endif
    (void)nv; (void)x; (void)lx; (void)B; (void)offs; (void)ly; (void)d; (void)r; (void)c;
    (void)prev; (void)cur; (void)watch; (void)interrupted; (void)stop; (void)out;
    return -1;
}

#else
static inline int ix_msm_lanes_ok(void) { return 0; }
static inline int ix_msm_lanes(int nv, const double *x, ptrdiff_t lx, const double *B,
                               const ptrdiff_t *offs, ptrdiff_t ly, ptrdiff_t d, ptrdiff_t r,
                               double c, double *prev, double *cur, int watch,
                               int (*interrupted)(void), int *stop, double *out)
{
    (void)nv; (void)x; (void)lx; (void)B; (void)offs; (void)ly; (void)d; (void)r; (void)c;
    (void)prev; (void)cur; (void)watch; (void)interrupted; (void)stop; (void)out;
    return -1;
}
#endif

#endif
