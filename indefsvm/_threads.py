"""How many threads a call uses (private).

``n_jobs`` as scikit-learn spells it: ``None`` is 1 unless inside a
``joblib.parallel_config(n_jobs=...)`` (or ``parallel_backend``) context that says otherwise,
``-1`` all cores, ``-2`` all but one, and so on; ``0`` is an error. The threads are OpenMP's
(Cython ``prange``), so the count is also capped by the OpenMP limit -- ``OMP_NUM_THREADS``
or a ``threadpoolctl.threadpool_limits(..., user_api="openmp")`` context.
"""

from __future__ import annotations

import contextlib
import numbers

import joblib

from ._solvers._checks import omp_max_threads


def effective_threads(n_jobs, name: str = "n_jobs") -> int:
    """The number of threads ``n_jobs`` asks for (at least 1)."""
    if n_jobs is not None and (isinstance(n_jobs, bool)
                               or not isinstance(n_jobs, numbers.Integral) or n_jobs == 0):
        raise ValueError(
            f"{name} must be None, a positive integer or a negative one (-1: all cores); "
            f"got {n_jobs!r}.")
    n = joblib.effective_n_jobs(n_jobs)
    return max(1, min(int(n), omp_max_threads()))


_CONTROLLER = None


@contextlib.contextmanager
def single_threaded_blas():
    """BLAS on one thread inside the block: our compiled loops call BLAS from their own
    threads (or, with ``n_jobs=1``, stand for one core), and OpenBLAS's own threads would
    then compete with them for the cores. It also makes each BLAS call's result independent
    of how many threads OpenBLAS would have used. The controller (a scan of the loaded
    libraries, ~15 ms) is made once per process; each limit costs ~30 us."""
    with _controller().limit(limits=1, user_api="blas"):
        yield


def _controller():
    global _CONTROLLER
    if _CONTROLLER is None:
        from threadpoolctl import ThreadpoolController

        _CONTROLLER = ThreadpoolController()
    return _CONTROLLER


@contextlib.contextmanager
def single_threaded():
    """BLAS and OpenMP on one thread inside the block (the controller made once per
    process, as for ``single_threaded_blas``): for work that runs as many small tasks."""
    with _controller().limit(limits=1):
        yield
