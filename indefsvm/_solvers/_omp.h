/* The OpenMP thread limit, or 1 when the extension was built without OpenMP (private). */
#ifndef INDEFSVM_OMP_H
#define INDEFSVM_OMP_H

#ifdef _OPENMP
#include <omp.h>
static int ix_omp_max_threads(void) { return omp_get_max_threads(); }
#else
static int ix_omp_max_threads(void) { return 1; }
#endif

#endif
