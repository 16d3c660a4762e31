/* The two scans of SMO's working-set selection, written with GCC vector types (private).
 *
 * Why: they run over the whole active set at every iteration, and gcc does not vectorise a
 * min/max reduction on doubles unless told that there are no infinities -- but +-inf is how
 * these loops leave out the indices outside I_up / I_low. So the reductions are written on
 * 4-lane vectors with compare-and-blend (exactly the scalar `v > m ? v : m`), compiled for the
 * baseline ISA and, where gcc can, for AVX2 + FMA, chosen at run time. Lane order does not
 * change the result: the maximum and minimum are exact, and the caller finds the index by a
 * backward scan for the last position holding it (the scalar loops' `>=` / `<=` ties).
 */
#ifndef INDEFSVM_WSS_H
#define INDEFSVM_WSS_H

#include <math.h>
#include <stddef.h>
#include <string.h>

#include "_cpu.h"
#include "_vec.h"

/* Scalar forms: the whole scan without GCC vector types, and the tails of the vector
 * scans. */
static double ix_max_plus_scalar(const double *g, const double *off, ptrdiff_t n)
{
    double r = -INFINITY;
    for (ptrdiff_t t = 0; t < n; t++) {
        double v = g[t] + off[t];
        r = v > r ? v : r;
    }
    return r;
}

#define IX_WSS_SCALAR(CT, CS)                                                                \
    static double ix_second_order_##CS##_scalar(                                             \
        const CT *K, const double *g, const double *low_off, const double *diag, double di,  \
        double gmax, double tau, ptrdiff_t n, double *obj, double *gmin_out)                 \
    {                                                                                        \
        double rg = INFINITY, rb = INFINITY;                                                 \
        for (ptrdiff_t t = 0; t < n; t++) {                                                  \
            double w = g[t] + low_off[t], b, a, o;                                           \
            rg = w < rg ? w : rg;                                                            \
            b = gmax - w;                                                                    \
            a = di + diag[t] - 2.0 * (double)K[t];                                           \
            a = a > 0.0 ? a : tau;                                                           \
            o = b > 0.0 ? -(b * b) / a : INFINITY;                                           \
            obj[t] = o;                                                                      \
            rb = o < rb ? o : rb;                                                            \
        }                                                                                    \
        *gmin_out = rg;                                                                      \
        return rb;                                                                           \
    }

IX_WSS_SCALAR(double, d)
IX_WSS_SCALAR(float, f)

#if defined(__GNUC__) || defined(__clang__)

#define IX_WSS_DEFINE(SUFFIX, ATTR)                                                          \
    /* max over t of g[t] + off[t] */                                                        \
    ATTR static double ix_max_plus##SUFFIX(const double *g, const double *off, ptrdiff_t n) \
    {                                                                                        \
        const ix_v4d ninf = {-INFINITY, -INFINITY, -INFINITY, -INFINITY};                    \
        ix_v4d m = ninf;                                                                     \
        ptrdiff_t t = 0;                                                                     \
        double r;                                                                            \
        for (; t + 4 <= n; t += 4) {                                                         \
            ix_v4d v = ix_load_d(g + t) + ix_load_d(off + t);                                \
            m = ix_blend(v > m, v, m);                                                       \
        }                                                                                    \
        r = ix_max_plus_scalar(g + t, off + t, n - t);                                       \
        for (int k = 0; k < 4; k++)                                                          \
            r = m[k] > r ? m[k] : r;                                                         \
        return r;                                                                            \
    }                                                                                        \
    IX_WSS_SECOND(double, d, SUFFIX, ATTR)                                                   \
    IX_WSS_SECOND(float, f, SUFFIX, ATTR)

/* Second-order scan: obj[t] = -b^2 / a for t in I_low with b = gmax - g[t] > 0 (+inf
 * otherwise), a = di + diag[t] - 2 K[t] (tau when a <= 0); returns min obj, sets min g. */
#define IX_WSS_SECOND(CT, CS, SUFFIX, ATTR)                                                  \
    ATTR static double ix_second_order_##CS##SUFFIX(                                         \
        const CT *K, const double *g, const double *low_off, const double *diag, double di,  \
        double gmax, double tau, ptrdiff_t n, double *obj, double *gmin_out)                 \
    {                                                                                        \
        const ix_v4d inf = {INFINITY, INFINITY, INFINITY, INFINITY};                         \
        const ix_v4d zero = {0.0, 0.0, 0.0, 0.0};                                            \
        const ix_v4d vtau = {tau, tau, tau, tau};                                            \
        const ix_v4d vdi = {di, di, di, di};                                                 \
        const ix_v4d vgmax = {gmax, gmax, gmax, gmax};                                       \
        ix_v4d gmin = inf, best = inf;                                                       \
        ptrdiff_t t = 0;                                                                     \
        double rg, rb;                                                                       \
        for (; t + 4 <= n; t += 4) {                                                         \
            ix_v4d w = ix_load_d(g + t) + ix_load_d(low_off + t);                            \
            ix_v4d b, a, o;                                                                  \
            gmin = ix_blend(w < gmin, w, gmin);                                              \
            b = vgmax - w;                                                                   \
            a = vdi + ix_load_d(diag + t) - 2.0 * ix_load_##CS(K + t);                       \
            a = ix_blend(a > zero, a, vtau);                                                 \
            o = ix_blend(b > zero, -(b * b) / a, inf);                                       \
            memcpy(obj + t, &o, sizeof o);                                                   \
            best = ix_blend(o < best, o, best);                                              \
        }                                                                                    \
        rb = ix_second_order_##CS##_scalar(K + t, g + t, low_off + t, diag + t, di, gmax,    \
                                           tau, n - t, obj + t, &rg);                        \
        for (int k = 0; k < 4; k++) {                                                        \
            rg = gmin[k] < rg ? gmin[k] : rg;                                                \
            rb = best[k] < rb ? best[k] : rb;                                                \
        }                                                                                    \
        *gmin_out = rg;                                                                      \
        return rb;                                                                           \
    }

IX_WSS_DEFINE(_base, )
#if IX_HAVE_AVX2_VARIANT
IX_WSS_DEFINE(_avx2, IX_TARGET_AVX2)
#endif

static double ix_max_plus(const double *g, const double *off, ptrdiff_t n)
{
#if IX_HAVE_AVX2_VARIANT
    if (ix_cpu_avx2())
        return ix_max_plus_avx2(g, off, n);
#endif
    return ix_max_plus_base(g, off, n);
}

#if IX_HAVE_AVX2_VARIANT
#define IX_WSS_PICK(CS)                                                                      \
    if (ix_cpu_avx2())                                                                       \
        return ix_second_order_##CS##_avx2(K, g, low_off, diag, di, gmax, tau, n, obj,      \
                                            gmin_out);
#else
#define IX_WSS_PICK(CS)
#endif

#define IX_WSS_DISPATCH(CT, CS)                                                              \
    static double ix_second_order_##CS(const CT *K, const double *g, const double *low_off,  \
                                       const double *diag, double di, double gmax,          \
                                       double tau, ptrdiff_t n, double *obj,                 \
                                       double *gmin_out)                                     \
    {                                                                                        \
        IX_WSS_PICK(CS)                                                                      \
        return ix_second_order_##CS##_base(K, g, low_off, diag, di, gmax, tau, n, obj,       \
                                           gmin_out);                                        \
    }

IX_WSS_DISPATCH(double, d)
IX_WSS_DISPATCH(float, f)

#else /* no GCC vector types: the scalar scans */

#define ix_max_plus ix_max_plus_scalar
#define ix_second_order_d ix_second_order_d_scalar
#define ix_second_order_f ix_second_order_f_scalar

#endif

#endif
