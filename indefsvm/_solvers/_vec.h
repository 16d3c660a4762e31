/* GCC vector types shared by the vectorised loops (_wss.h, _check.h, _vmath.h) (private).
 *
 * 4-lane double vectors (and their float and mask forms), an unaligned load, and the
 * compare-and-blend select that stands for the scalar `c ? a : b` lane by lane. Only with
 * GCC or clang; the including headers fall back to scalar loops otherwise.
 */
#ifndef INDEFSVM_VEC_H
#define INDEFSVM_VEC_H

#include <string.h>

#if defined(__GNUC__) || defined(__clang__)

typedef double ix_v4d __attribute__((vector_size(32)));
typedef float ix_v4f __attribute__((vector_size(16)));
typedef long long ix_v4l __attribute__((vector_size(32)));

static inline ix_v4d ix_blend(ix_v4l mask, ix_v4d a, ix_v4d b)
{
    return (ix_v4d)(((ix_v4l)a & mask) | ((ix_v4l)b & ~mask));
}

static inline ix_v4d ix_load_d(const double *p)
{
    ix_v4d v;
    memcpy(&v, p, sizeof v);
    return v;
}

static inline ix_v4d ix_load_f(const float *p)
{
    ix_v4f v;
    memcpy(&v, p, sizeof v);
    return __builtin_convertvector(v, ix_v4d);
}

#endif

#endif
