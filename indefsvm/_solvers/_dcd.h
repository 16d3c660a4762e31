/* Dot product and update of a float32 feature row with a float64 weight vector, for the
 * dual coordinate descent of the linear SVM (_linsvm.pyx) (private).
 *
 * The features are float32 (half the memory and bandwidth of a 10^6-row feature matrix);
 * w and every sum stay float64, so the million updates of w lose nothing to rounding. */
#ifndef INDEFSVM_DCD_H
#define INDEFSVM_DCD_H

#include <stddef.h>
#include "_vec.h"

static inline double ix_dot_fd(const float *z, const double *w, ptrdiff_t r)
{
    ptrdiff_t k = 0;
    double s;
#if defined(__GNUC__) || defined(__clang__)
    ix_v4d a0 = {0, 0, 0, 0}, a1 = a0;
    for (; k + 8 <= r; k += 8) {
        a0 += ix_load_f(z + k) * ix_load_d(w + k);
        a1 += ix_load_f(z + k + 4) * ix_load_d(w + k + 4);
    }
    a0 += a1;
    s = (a0[0] + a0[1]) + (a0[2] + a0[3]);
#else
    s = 0.0;
#endif
    for (; k < r; k++)
        s += (double)z[k] * w[k];
    return s;
}

static inline void ix_axpy_fd(double a, const float *z, double *w, ptrdiff_t r)
{
    for (ptrdiff_t k = 0; k < r; k++)
        w[k] += a * (double)z[k];
}

#endif
