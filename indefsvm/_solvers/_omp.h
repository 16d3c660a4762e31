/* The OpenMP thread limit and nesting level, or 1 and 0 when the extension was built
   without OpenMP (private). */
#ifndef INDEFSVM_OMP_H
#define INDEFSVM_OMP_H

#ifdef _OPENMP
#include <omp.h>
static int ix_omp_max_threads(void) { return omp_get_max_threads(); }
/* the nesting level of the calling thread's parallel region (0 outside any) */
static int ix_omp_level(void) { return omp_get_level(); }
#else
static int ix_omp_max_threads(void) { return 1; }
static int ix_omp_level(void) { return 0; }
#endif

#endif
