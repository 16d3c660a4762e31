/* Element-wise exp and tanh over arrays, for kernel columns (private).
 *
 * Why: libm's scalar exp and tanh cost 10 and 30 ns per call on the 2-core machines we run
 * on, and a kernel column is thousands of them -- for the rbf and sigmoid kernels they were
 * most of the training time. These loops have no branches and no calls, so gcc vectorises
 * them (SSE2 everywhere; an AVX2 + FMA variant is chosen at run time where the CPU has them).
 *
 * Accuracy (measured against long-double libm on 3 million points; tests/test_kernels.py
 * checks against numpy):
 *   exp:  within 3 ulp for x in [-708, 709]; exp(x) for x < -708 is returned as 0
 *         (the true value is below 3.3e-308, under the smallest normal double);
 *   tanh: within 8 ulp, the worst just above |z| = 1/4 where e - 1 cancels a little
 *         (absolute error below 2e-16); |tanh(z)| = 1 exactly for |z| > 20 (as in double
 *         arithmetic).
 *
 * Method: exp(x) = 2^k exp(r), k = round(x / ln 2), r = x - k ln 2 by a two-part ln 2
 * (Cody & Waite), |r| <= ln(2)/2, and exp(r) by its Taylor polynomial of degree 13 (the
 * remainder is below 5e-18 relative). 2^k is built from its bits. tanh(z) = (e - 1)/(e + 1)
 * with e = exp(2z) for |z| >= 1/4, and its odd Taylor polynomial to z^23 below (no
 * cancellation there; the remainder is below 1e-19 relative).
 */
#ifndef INDEFSVM_VMATH_H
#define INDEFSVM_VMATH_H

#include <stdint.h>
#include <string.h>
#include <stddef.h>
#include <math.h>

#include "_cpu.h"
#include "_vec.h"

static inline double ix_exp_core(double x)
{
    const double log2e = 1.4426950408889634074;
    const double ln2hi = 6.93147180369123816490e-01; /* 32 significant bits: k*ln2hi exact */
    const double ln2lo = 1.90821492927058770002e-10;
    const double shift = 6755399441055744.0;          /* 1.5 * 2^52: rounds to an integer */
    double xc = x < -708.0 ? -708.0 : (x > 709.0 ? 709.0 : x);
    double t = xc * log2e + shift;
    double kd = t - shift;
    int64_t tb, sb, k, eb;
    double r, r2, r4, r8, p01, p23, p45, p67, p89, pab, pcd, p, scale;
    memcpy(&tb, &t, 8);
    memcpy(&sb, &shift, 8);
    k = tb - sb;
    r = (xc - kd * ln2hi) - kd * ln2lo;
    /* Estrin's scheme: independent products, so the vector units stay busy */
    r2 = r * r;
    r4 = r2 * r2;
    r8 = r4 * r4;
    p01 = 1.0 + r;
    p23 = 0.5 + r * (1.0 / 6.0);
    p45 = 1.0 / 24.0 + r * (1.0 / 120.0);
    p67 = 1.0 / 720.0 + r * (1.0 / 5040.0);
    p89 = 1.0 / 40320.0 + r * (1.0 / 362880.0);
    pab = 1.0 / 3628800.0 + r * (1.0 / 39916800.0);
    pcd = 1.0 / 479001600.0 + r * (1.0 / 6227020800.0);
    p = (p01 + r2 * p23) + r4 * (p45 + r2 * p67)
        + r8 * ((p89 + r2 * pab) + r4 * pcd);
    eb = (k + 1023) << 52;
    memcpy(&scale, &eb, 8);
    p = p * scale;
    return x < -708.0 ? 0.0 : p;
}

static inline double ix_tanh_core(double z)
{
    double zc = z < -20.0 ? -20.0 : (z > 20.0 ? 20.0 : z);
    double e = ix_exp_core(2.0 * zc);
    double big = (e - 1.0) / (e + 1.0);
    double z2 = zc * zc, s;
    s = -113927491862.0 / 2900518163668125.0;
    s = s * z2 + 18888466084.0 / 194896477400625.0;
    s = s * z2 - 443861162.0 / 1856156927625.0;
    s = s * z2 + 6404582.0 / 10854718875.0;
    s = s * z2 - 929569.0 / 638512875.0;
    s = s * z2 + 21844.0 / 6081075.0;
    s = s * z2 - 1382.0 / 155925.0;
    s = s * z2 + 62.0 / 2835.0;
    s = s * z2 - 17.0 / 315.0;
    s = s * z2 + 2.0 / 15.0;
    s = s * z2 - 1.0 / 3.0;
    s = zc + zc * (z2 * s);
    return fabs(zc) < 0.25 ? s : big;
}

/* The array loops, written once and compiled twice: for the baseline ISA and, where gcc can,
 * for AVX2 + FMA, chosen at run time (gcc 12's target_clones would not vectorise them). */
#define IX_DEFINE_LOOPS(SUFFIX, ATTR)                                                       \
    /* out[t] = exp(scale * v[t]) */                                                        \
    ATTR static void ix_exp_scaled##SUFFIX(const double *v, double scale, double *out,      \
                                           ptrdiff_t m)                                     \
    {                                                                                       \
        for (ptrdiff_t t = 0; t < m; t++)                                                   \
            out[t] = ix_exp_core(scale * v[t]);                                             \
    }                                                                                       \
    /* out[t] = tanh(a * v[t] + b) */                                                       \
    ATTR static void ix_tanh_affine##SUFFIX(const double *v, double a, double b,            \
                                            double *out, ptrdiff_t m)                       \
    {                                                                                       \
        for (ptrdiff_t t = 0; t < m; t++)                                                   \
            out[t] = ix_tanh_core(a * v[t] + b);                                            \
    }                                                                                       \
    /* out[t] = exp(-gamma * max(sq[t] + sqi - 2 dot[t], 0)): rbf from dot products */      \
    ATTR static void ix_rbf_from_dot##SUFFIX(const double *dot, const double *sq,           \
                                             double sqi, double gamma, double *out,         \
                                             ptrdiff_t m)                                   \
    {                                                                                       \
        for (ptrdiff_t t = 0; t < m; t++) {                                                 \
            double d2 = sq[t] + sqi - 2.0 * dot[t];                                         \
            d2 = d2 < 0.0 ? 0.0 : d2;                                                       \
            out[t] = ix_exp_core(-gamma * d2);                                              \
        }                                                                                   \
    }

IX_DEFINE_LOOPS(_base, )
#if IX_HAVE_AVX2_VARIANT
IX_DEFINE_LOOPS(_avx2, IX_TARGET_AVX2)
#endif

/* out[t] = x_t . xi for the m rows x_t of the row-major X (d columns). Every row is summed
 * the same way -- four partial sums over k in steps of 4, added as (s0 + s1) + (s2 + s3),
 * then the remaining k in order -- so a row's value does not depend on the rows computed
 * with it (threads may split a column anywhere) nor on the variant (no contraction into FMA
 * under -std=c11). BLAS dgemv does not promise that: OpenBLAS splits its own work among its
 * threads, and the rows at the split are summed another way. */
/* one row: four partial sums over k in steps of 4, then the remaining k in order */
static inline double ix_dot_one(const double *x, const double *xi, ptrdiff_t d)
{
    double s0 = 0.0, s1 = 0.0, s2 = 0.0, s3 = 0.0, s;
    ptrdiff_t k = 0;
    for (; k + 4 <= d; k += 4) {
        s0 += x[k] * xi[k];
        s1 += x[k + 1] * xi[k + 1];
        s2 += x[k + 2] * xi[k + 2];
        s3 += x[k + 3] * xi[k + 3];
    }
    s = (s0 + s1) + (s2 + s3);
    for (; k < d; k++)
        s += x[k] * xi[k];
    return s;
}

#if defined(__GNUC__) || defined(__clang__)
/* four rows at once, each loaded block of xi serving all four; lane j of a row's
 * accumulator sums the k = j (mod 4) terms, as s0..s3 of ix_dot_one, so every row gets
 * exactly the sum it would get alone */
#define IX_DOT_DEFINE(SUFFIX, ATTR)                                                         \
    ATTR static void ix_dot_rows##SUFFIX(const double *X, ptrdiff_t d, const double *xi,   \
                                         double *out, ptrdiff_t m)                          \
    {                                                                                       \
        ptrdiff_t t = 0, d4 = d - d % 4;                                                    \
        for (; t + 4 <= m; t += 4) {                                                        \
            const double *x0 = X + t * d, *x1 = x0 + d, *x2 = x1 + d, *x3 = x2 + d;         \
            ix_v4d a0 = {0, 0, 0, 0}, a1 = a0, a2 = a0, a3 = a0;                            \
            for (ptrdiff_t k = 0; k < d4; k += 4) {                                         \
                ix_v4d v = ix_load_d(xi + k);                                               \
                a0 += ix_load_d(x0 + k) * v;                                                \
                a1 += ix_load_d(x1 + k) * v;                                                \
                a2 += ix_load_d(x2 + k) * v;                                                \
                a3 += ix_load_d(x3 + k) * v;                                                \
            }                                                                               \
            double r0 = (a0[0] + a0[1]) + (a0[2] + a0[3]);                                  \
            double r1 = (a1[0] + a1[1]) + (a1[2] + a1[3]);                                  \
            double r2 = (a2[0] + a2[1]) + (a2[2] + a2[3]);                                  \
            double r3 = (a3[0] + a3[1]) + (a3[2] + a3[3]);                                  \
            for (ptrdiff_t k = d4; k < d; k++) {                                            \
                r0 += x0[k] * xi[k];                                                        \
                r1 += x1[k] * xi[k];                                                        \
                r2 += x2[k] * xi[k];                                                        \
                r3 += x3[k] * xi[k];                                                        \
            }                                                                               \
            out[t] = r0;                                                                    \
            out[t + 1] = r1;                                                                \
            out[t + 2] = r2;                                                                \
            out[t + 3] = r3;                                                                \
        }                                                                                   \
        for (; t < m; t++)                                                                  \
            out[t] = ix_dot_one(X + t * d, xi, d);                                          \
    }
#else
#define IX_DOT_DEFINE(SUFFIX, ATTR)                                                         \
    ATTR static void ix_dot_rows##SUFFIX(const double *X, ptrdiff_t d, const double *xi,   \
                                         double *out, ptrdiff_t m)                          \
    {                                                                                       \
        for (ptrdiff_t t = 0; t < m; t++)                                                   \
            out[t] = ix_dot_one(X + t * d, xi, d);                                          \
    }
#endif

IX_DOT_DEFINE(_base, )
#if IX_HAVE_AVX2_VARIANT
IX_DOT_DEFINE(_avx2, IX_TARGET_AVX2)
#endif

static void ix_dot_rows(const double *X, ptrdiff_t d, const double *xi, double *out,
                        ptrdiff_t m)
{
#if IX_HAVE_AVX2_VARIANT
    if (ix_cpu_avx2()) { ix_dot_rows_avx2(X, d, xi, out, m); return; }
#endif
    ix_dot_rows_base(X, d, xi, out, m);
}

static void ix_exp_scaled(const double *v, double scale, double *out, ptrdiff_t m)
{
#if IX_HAVE_AVX2_VARIANT
    if (ix_cpu_avx2()) { ix_exp_scaled_avx2(v, scale, out, m); return; }
#endif
    ix_exp_scaled_base(v, scale, out, m);
}

static void ix_tanh_affine(const double *v, double a, double b, double *out, ptrdiff_t m)
{
#if IX_HAVE_AVX2_VARIANT
    if (ix_cpu_avx2()) { ix_tanh_affine_avx2(v, a, b, out, m); return; }
#endif
    ix_tanh_affine_base(v, a, b, out, m);
}

static void ix_rbf_from_dot(const double *dot, const double *sq, double sqi, double gamma,
                            double *out, ptrdiff_t m)
{
#if IX_HAVE_AVX2_VARIANT
    if (ix_cpu_avx2()) { ix_rbf_from_dot_avx2(dot, sq, sqi, gamma, out, m); return; }
#endif
    ix_rbf_from_dot_base(dot, sq, sqi, gamma, out, m);
}

#endif
