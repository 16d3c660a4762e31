/* Dot product and update of a float32 feature row with a float64 weight vector, for the
 * dual coordinate descent of the linear SVM (_linsvm.pyx) (private).
 *
 * The features are float32 (half the memory and bandwidth of a 10^6-row feature matrix);
 * w and every sum stay float64, so the million updates of w lose nothing to rounding. */
#ifndef INDEFSVM_DCD_H
#define INDEFSVM_DCD_H

#include <stddef.h>
#include <string.h>
#include "_vec.h"
#include "_cpu.h"
#ifdef _OPENMP
#include <omp.h>
#endif

/* The row loops, written once and compiled twice: for the baseline ISA and, where gcc can,
 * for AVX2 + FMA, chosen at run time (_cpu.h). Both do the same float64 operations in the
 * same order (no contraction into FMA under -std=c11), so they give the same bits; AVX2
 * does a row in about half the instructions (measured: a pass of the coordinate descent
 * at 2e5 x 500 float32 rows, see benchmarks/RESULTS.md). */
#define IX_DCD_ROWS(SUFFIX, ATTR)                                                           \
    ATTR static double ix_dot_fd##SUFFIX(const float *z, const double *w, ptrdiff_t r)      \
    {                                                                                       \
        ptrdiff_t k = 0;                                                                    \
        double s;                                                                           \
        IX_DOT_FD_BODY                                                                      \
        for (; k < r; k++)                                                                  \
            s += (double)z[k] * w[k];                                                       \
        return s;                                                                           \
    }                                                                                       \
    ATTR static double ix_sq_f##SUFFIX(const float *z, ptrdiff_t r)                         \
    {                                                                                       \
        ptrdiff_t k = 0;                                                                    \
        double s;                                                                           \
        IX_SQ_F_BODY                                                                        \
        for (; k < r; k++)                                                                  \
            s += (double)z[k] * (double)z[k];                                               \
        return s;                                                                           \
    }                                                                                       \
    ATTR static void ix_axpy_fd##SUFFIX(double a, const float *z, double *w, ptrdiff_t r)   \
    {                                                                                       \
        for (ptrdiff_t k = 0; k < r; k++)                                                   \
            w[k] += a * (double)z[k];                                                       \
    }

#if defined(__GNUC__) || defined(__clang__)
#define IX_DOT_FD_BODY                                                                      \
    ix_v4d a0 = {0, 0, 0, 0}, a1 = a0;                                                      \
    for (; k + 8 <= r; k += 8) {                                                            \
        a0 += ix_load_f(z + k) * ix_load_d(w + k);                                          \
        a1 += ix_load_f(z + k + 4) * ix_load_d(w + k + 4);                                  \
    }                                                                                       \
    a0 += a1;                                                                               \
    s = (a0[0] + a0[1]) + (a0[2] + a0[3]);
#define IX_SQ_F_BODY                                                                        \
    ix_v4d a0 = {0, 0, 0, 0}, a1 = a0, v0, v1;                                              \
    for (; k + 8 <= r; k += 8) {                                                            \
        v0 = ix_load_f(z + k);                                                              \
        v1 = ix_load_f(z + k + 4);                                                          \
        a0 += v0 * v0;                                                                      \
        a1 += v1 * v1;                                                                      \
    }                                                                                       \
    a0 += a1;                                                                               \
    s = (a0[0] + a0[1]) + (a0[2] + a0[3]);
#else
#define IX_DOT_FD_BODY s = 0.0;
#define IX_SQ_F_BODY s = 0.0;
#endif

IX_DCD_ROWS(_base, )
#if IX_HAVE_AVX2_VARIANT
IX_DCD_ROWS(_avx2, IX_TARGET_AVX2)
#endif

static inline double ix_dot_fd(const float *z, const double *w, ptrdiff_t r)
{
#if IX_HAVE_AVX2_VARIANT
    if (ix_cpu_avx2())
        return ix_dot_fd_avx2(z, w, r);
#endif
    return ix_dot_fd_base(z, w, r);
}

static inline double ix_sq_f(const float *z, ptrdiff_t r)
{
#if IX_HAVE_AVX2_VARIANT
    if (ix_cpu_avx2())
        return ix_sq_f_avx2(z, r);
#endif
    return ix_sq_f_base(z, r);
}

static inline void ix_axpy_fd(double a, const float *z, double *w, ptrdiff_t r)
{
#if IX_HAVE_AVX2_VARIANT
    if (ix_cpu_avx2()) {
        ix_axpy_fd_avx2(a, z, w, r);
        return;
    }
#endif
    ix_axpy_fd_base(a, z, w, r);
}

/* One pass of the dual coordinate descent over the positions lo..hi of perm, on nthreads
 * threads (Hsieh et al. 2008, Algorithm 3, shared among threads as in the block-wise
 * asynchronous form of Hsieh, Yu & Dhillon, ICML 2015, "PASSCoDe", but without their
 * unsynchronised writes to w).
 *
 * Each thread takes blocks of `block` positions from a shared counter (a thread that the
 * system holds back takes fewer blocks; nobody waits for it until the end of the call) and
 * updates its own copy of w and of s = y'alpha; after each block it adds what it changed to
 * the shared w and s and reads them back, under a lock. Every coordinate is visited by one
 * thread, so alpha has no race; w and s are touched only under the lock, so at the end of
 * the call w = Z'(alpha o y) and s = y'alpha up to rounding (no update is lost). A thread's
 * gradients see the other threads' changes late by at most the blocks they are doing, which
 * is what makes the result differ from one thread's within the tolerance, not bit for bit.
 *
 * A coordinate that the shrinking rule drops is marked in shrunk[k] (the caller moves
 * them behind the active ones after the pass). work holds 2 r doubles per thread. The
 * extreme projected gradients of the visited coordinates are merged into pg_max, pg_min. */
static void ix_dcd_parallel(const float *Z, ptrdiff_t r, const ptrdiff_t *rows,
                            const double *y, const double *Cb, const double *Qd,
                            double *alpha, double *w, double *s, double lam, double rho,
                            const ptrdiff_t *perm, ptrdiff_t lo, ptrdiff_t hi,
                            unsigned char *shrunk, double pg_max_old, double pg_min_old,
                            double *pg_max, double *pg_min, int nthreads, double *work,
                            ptrdiff_t block)
{
    ptrdiff_t next = lo;
#ifdef _OPENMP
    omp_lock_t lock;
    omp_init_lock(&lock);
#pragma omp parallel num_threads(nthreads)
#endif
    {
        int tid = 0;
#ifdef _OPENMP
        tid = omp_get_thread_num();
#endif
        double *wl = work + (ptrdiff_t)tid * 2 * r, *ws = wl + r;
        double sl, ss, my_max = -__builtin_inf(), my_min = __builtin_inf();
        ptrdiff_t pos, end, k, t, j;
#ifdef _OPENMP
        omp_set_lock(&lock);
#endif
        memcpy(wl, w, (size_t)r * sizeof(double));
        memcpy(ws, w, (size_t)r * sizeof(double));
        sl = ss = *s;
#ifdef _OPENMP
        omp_unset_lock(&lock);
#endif
        for (;;) {
#ifdef _OPENMP
#pragma omp atomic capture
#endif
            { pos = next; next += block; }
            if (pos >= hi)
                break;
            end = pos + block < hi ? pos + block : hi;
            for (k = pos; k < end; k++) {
                const float *z;
                double G, PG = 0.0;
                t = perm[k];
                z = Z + rows[t] * r;
                G = y[t] * (ix_dot_fd(z, wl, r) + lam + rho * sl) - 1.0;
                if (alpha[t] == 0.0) {
                    if (G > pg_max_old) { shrunk[k] = 1; continue; }
                    if (G < 0.0) PG = G;
                } else if (alpha[t] == Cb[t]) {
                    if (G < pg_min_old) { shrunk[k] = 1; continue; }
                    if (G > 0.0) PG = G;
                } else {
                    PG = G;
                }
                if (PG > my_max) my_max = PG;
                if (PG < my_min) my_min = PG;
                if (PG > 1e-12 || PG < -1e-12) {
                    double a_old = alpha[t], a_new = a_old - G / Qd[t], dlt;
                    if (a_new < 0.0) a_new = 0.0;
                    else if (a_new > Cb[t]) a_new = Cb[t];
                    alpha[t] = a_new;
                    dlt = (a_new - a_old) * y[t];
                    if (dlt != 0.0) {
                        ix_axpy_fd(dlt, z, wl, r);
                        sl += dlt;
                    }
                }
            }
            /* hand this block's changes over, and take the others' */
#ifdef _OPENMP
            omp_set_lock(&lock);
#endif
            for (j = 0; j < r; j++) {
                w[j] += wl[j] - ws[j];
                wl[j] = ws[j] = w[j];
            }
            *s += sl - ss;
            sl = ss = *s;
#ifdef _OPENMP
            omp_unset_lock(&lock);
#endif
        }
#ifdef _OPENMP
        omp_set_lock(&lock);
#endif
        if (my_max > *pg_max) *pg_max = my_max;
        if (my_min < *pg_min) *pg_min = my_min;
#ifdef _OPENMP
        omp_unset_lock(&lock);
#endif
    }
#ifdef _OPENMP
    omp_destroy_lock(&lock);
#endif
}

#endif
