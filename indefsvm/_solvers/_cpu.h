/* Which compiled variant of the vectorised loops to run (private): AVX2 + FMA where the CPU
 * has them and gcc could build that variant, the baseline ISA otherwise. Asked once.
 * INDEFSVM_DISABLE_AVX2=1 in the environment forces the baseline variant (the tests use it to
 * check that variant on machines that have AVX2). */
#ifndef INDEFSVM_CPU_H
#define INDEFSVM_CPU_H

#include <stdlib.h>

#if defined(__GNUC__) && !defined(__clang__) && defined(__x86_64__)
#define IX_HAVE_AVX2_VARIANT 1
#define IX_TARGET_AVX2 __attribute__((target("avx2,fma")))
#else
#define IX_HAVE_AVX2_VARIANT 0
#define IX_TARGET_AVX2
#endif

static int ix_cpu_avx2_cached = -1;

static inline int ix_cpu_avx2(void)
{
#if IX_HAVE_AVX2_VARIANT
    if (ix_cpu_avx2_cached < 0) {
        const char *off = getenv("INDEFSVM_DISABLE_AVX2");
        __builtin_cpu_init();
        ix_cpu_avx2_cached = __builtin_cpu_supports("avx2") && __builtin_cpu_supports("fma")
                             && !(off != NULL && off[0] == '1');
    }
    return ix_cpu_avx2_cached;
#else
    return 0;
#endif
}

#endif
