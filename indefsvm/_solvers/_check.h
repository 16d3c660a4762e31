/* One tile of the symmetry and finiteness check of a precomputed kernel (private).
 *
 * For rows [i0, i1) and columns [j0, j1) of a row-major n x n matrix K: max |K_ij|,
 * max |K_ij - K_ji| and whether every entry read is finite. The transposed entries K_ji are
 * first copied into a small buffer (the tile is at most IX_TILE x IX_TILE, which stays in the
 * L1 cache), so that both operands of the inner loop are contiguous and the reductions run on
 * 4-lane vectors with compare-and-blend, as in _wss.h (gcc does not vectorise a max reduction
 * on doubles by itself). The maxima are exact whatever the lane order, so a tile's figures do
 * not depend on the variant (AVX2 or baseline) or on the thread that computes it.
 */
#ifndef INDEFSVM_CHECK_H
#define INDEFSVM_CHECK_H

#include <math.h>
#include <stddef.h>
#include <string.h>

#include "_cpu.h"
#include "_vec.h"

#define IX_TILE 32

/* scalar tail: entries [0, m) of a row and of its transposed counterpart */
static inline void ix_defects_row_scalar(const double *a, const double *b, ptrdiff_t m,
                                         double *vmax, double *amax, double *poison)
{
    double vm = *vmax, am = *amax, p = *poison;
    for (ptrdiff_t t = 0; t < m; t++) {
        double v = fabs(a[t]), d = fabs(a[t] - b[t]);
        /* 0 * x is 0 for finite x and NaN for inf or NaN (both triangles: b is the other) */
        p += 0.0 * a[t] + 0.0 * b[t];
        vm = v > vm ? v : vm;
        am = d > am ? d : am;
    }
    *vmax = vm;
    *amax = am;
    *poison = p;
}

#if defined(__GNUC__) || defined(__clang__)

static inline ix_v4d ix_cabs(ix_v4d v)
{
    const ix_v4l sign = {0x7fffffffffffffffLL, 0x7fffffffffffffffLL, 0x7fffffffffffffffLL,
                         0x7fffffffffffffffLL};
    return (ix_v4d)((ix_v4l)v & sign);
}

#define IX_CHECK_DEFINE(SUFFIX, ATTR)                                                        \
    ATTR static void ix_defects_row##SUFFIX(const double *a, const double *b, ptrdiff_t m,  \
                                            double *vmax, double *amax, double *poison)    \
    {                                                                                        \
        const ix_v4d zero = {0.0, 0.0, 0.0, 0.0};                                            \
        ix_v4d vm = zero, am = zero, p = zero;                                               \
        ptrdiff_t t = 0;                                                                     \
        for (; t + 4 <= m; t += 4) {                                                         \
            ix_v4d x = ix_load_d(a + t), y = ix_load_d(b + t);                                 \
            ix_v4d v = ix_cabs(x), d = ix_cabs(x - y);                                       \
            p += zero * x + zero * y;                                                        \
            vm = ix_blend(v > vm, v, vm);                                                   \
            am = ix_blend(d > am, d, am);                                                   \
        }                                                                                    \
        ix_defects_row_scalar(a + t, b + t, m - t, vmax, amax, poison);                      \
        for (int k = 0; k < 4; k++) {                                                        \
            *vmax = vm[k] > *vmax ? vm[k] : *vmax;                                           \
            *amax = am[k] > *amax ? am[k] : *amax;                                           \
            *poison += p[k];                                                                 \
        }                                                                                    \
    }

IX_CHECK_DEFINE(_base, )
#if IX_HAVE_AVX2_VARIANT
IX_CHECK_DEFINE(_avx2, IX_TARGET_AVX2)
#endif

static inline void ix_defects_row(const double *a, const double *b, ptrdiff_t m,
                                  double *vmax, double *amax, double *poison)
{
#if IX_HAVE_AVX2_VARIANT
    if (ix_cpu_avx2()) {
        ix_defects_row_avx2(a, b, m, vmax, amax, poison);
        return;
    }
#endif
    ix_defects_row_base(a, b, m, vmax, amax, poison);
}

#else
#define ix_defects_row ix_defects_row_scalar
#endif

/* The tile [i0, i1) x [j0, j1); buf holds IX_TILE * IX_TILE doubles. Results are merged into
 * *vmax, *amax, *poison (max, max, sum). */
static void ix_defects_tile(const double *K, ptrdiff_t n, ptrdiff_t i0, ptrdiff_t i1,
                            ptrdiff_t j0, ptrdiff_t j1, double *buf, double *vmax,
                            double *amax, double *poison)
{
    ptrdiff_t mi = i1 - i0, mj = j1 - j0;
    /* buf[ii * IX_TILE + jj] = K[j0 + jj, i0 + ii]: rows of K read contiguously */
    for (ptrdiff_t jj = 0; jj < mj; jj++) {
        const double *row = K + (j0 + jj) * n + i0;
        for (ptrdiff_t ii = 0; ii < mi; ii++)
            buf[ii * IX_TILE + jj] = row[ii];
    }
    for (ptrdiff_t ii = 0; ii < mi; ii++)
        ix_defects_row(K + (i0 + ii) * n + j0, buf + ii * IX_TILE, mj, vmax, amax, poison);
}

#endif
