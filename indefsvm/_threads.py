"""How many threads a call uses (private).

``n_jobs`` as scikit-learn spells it: ``None`` is 1 unless inside a
``joblib.parallel_config(n_jobs=...)`` (or ``parallel_backend``) context that says otherwise,
``-1`` all cores, ``-2`` all but one, and so on; ``0`` is an error. The threads are OpenMP's
(Cython ``prange``), so the count is also capped by the OpenMP limit -- ``OMP_NUM_THREADS``
or a ``threadpoolctl.threadpool_limits(..., user_api="openmp")`` context.

**Threads help or stay out of the way.** Fork-join loops (OpenMP's, and the BLAS's) wait
at their end for the slowest thread; on a core that another process holds, that thread runs
a fraction of the time, and a BLAS's idle workers spin on the cores the others need.
Measured on 2 cores with two busy processes beside us: two BLAS threads made a 200 x 200
eigendecomposition 13x slower than one, a 2 000 x 2 000 one 1.5x slower; ``explore`` on 120
points took 7.0 s against 0.8 s. So, as OpenMP's dynamic adjustment (``OMP_DYNAMIC``) does
with the load average, a call uses at most the cores that are idle when it starts: the
cores this process may run on less the threads of *other* processes that are running now
(Linux's ``/proc/loadavg``, less this process's own running threads). Small work runs on
one thread whatever the machine (``SMALL_ROWS``). ``INDEFSVM_DYNAMIC_THREADS=0`` turns the
load rule off (the count is then what ``n_jobs`` asks for, as before).
"""

from __future__ import annotations

import contextlib
import functools
import numbers
import os
import time

import joblib

from ._solvers._checks import BlasHold, omp_max_threads
from .exceptions import ParameterError

#: below this many rows (samples, or the side of a kernel matrix) the BLAS runs on one
#: thread: measured on 2 idle cores, two threads made eigh + two products of 200 rows 1.08x
#: slower, 500 rows 0.82x, 1 000 rows 0.62x; explore (120 points, many small calls) 2x slower
SMALL_ROWS = 1000


def _dynamic() -> bool:
    return os.environ.get("INDEFSVM_DYNAMIC_THREADS", "1").strip().lower() not in (
        "0", "false", "no", "off")


def usable_cores() -> int:
    """The cores this process may run on (its affinity mask where the system has one)."""
    try:
        return max(1, len(os.sched_getaffinity(0)))
    except (AttributeError, OSError):  # not Linux
        return max(1, os.cpu_count() or 1)


def _own_running() -> int:
    """This process's threads in state R now (its BLAS workers spin for a while after each
    call); -1 where the system does not say."""
    own = 0
    try:
        for tid in os.listdir("/proc/self/task"):
            try:
                with open(f"/proc/self/task/{tid}/stat") as f:
                    # the state follows the command name, which is in parentheses
                    if f.read().rpartition(")")[2].split()[0] == "R":
                        own += 1
            except (OSError, IndexError):
                continue
    except OSError:
        return -1
    return own


def _busy_reading() -> int:
    try:
        before = _own_running()
        with open("/proc/loadavg") as f:
            running = int(f.read().split()[3].split("/")[0])
        after = _own_running()
    except (OSError, ValueError, IndexError):
        return 0
    # a worker of ours that stops (or starts) spinning between the two reads is counted by
    # one of them: the larger is ours at the moment of the system's count
    return max(0, running - max(before, after, 1))


#: readings taken again, 1 ms apart, while they say another process runs (a phantom of our
#: own threads passes within that; a real load is paid 3 ms a call)
RECHECKS = 3


def busy_elsewhere() -> int:
    """Threads of other processes running or runnable now: ``/proc/loadavg``'s running count
    less this process's own running threads (its BLAS workers spin for a while after each
    call and would count), counted just before and just after it. A reading above 0 is
    taken again up to ``RECHECKS`` times, 1 ms apart, and the smallest kept: right after a
    BLAS call of ours a reading says 1 busy thread 2-4 % of the time on two idle cores, and
    1 ms later none does (measured: 0 of 300; before, 1 NystroemSVC fit in 3-5 ran its
    linear stage on one thread, 7.0-7.4 s against 4.6-5.2 s). 0 where the system does not
    say (not Linux)."""
    busy = _busy_reading()
    for _ in range(RECHECKS):
        if busy == 0:
            break
        time.sleep(0.001)
        busy = min(busy, _busy_reading())
    return busy


def idle_cores() -> int:
    """The usable cores that no other process is running on now (at least 1); all usable
    cores when the load rule is off."""
    cores = usable_cores()
    if not _dynamic():
        return cores
    return max(1, cores - busy_elsewhere())


def effective_threads(n_jobs, name: str = "n_jobs", rows: int | None = None) -> int:
    """The number of threads ``n_jobs`` asks for (at least 1), capped by the idle cores
    (module docstring); 1 when ``rows`` is given and below ``SMALL_ROWS``."""
    if n_jobs is not None and (isinstance(n_jobs, bool)
                               or not isinstance(n_jobs, numbers.Integral) or n_jobs == 0):
        raise ParameterError(
            f"must be None, a positive integer or a negative one (-1: all cores); "
            f"got {n_jobs!r}.", name)
    n = max(1, min(int(joblib.effective_n_jobs(n_jobs)), omp_max_threads()))
    if n == 1 or (rows is not None and rows < SMALL_ROWS):
        return 1
    return min(n, idle_cores())


#: joblib's backends that run on this machine (their workers take this machine's cores)
_LOCAL_BACKENDS = frozenset({"LokyBackend", "MultiprocessingBackend", "ThreadingBackend",
                             "SequentialBackend"})


def joblib_workers(n_jobs, n_tasks: int, rows: int | None = None, small: int = SMALL_ROWS):
    """The ``n_jobs`` to give a joblib loop of ``n_tasks`` independent tasks on data of
    ``rows`` samples: what ``n_jobs`` asks for (joblib's convention, a ``parallel_config``
    context included), never more than the tasks and, on a backend of this machine, never
    more than its idle cores (``idle_cores``, the rule of ``effective_threads``), and one
    worker when ``rows`` is below ``small`` (the caller's measured break-even: a worker
    costs a process start and a copy of the data). joblib starts every worker it is given
    whether or not a task awaits it: measured on 2 cores, 50 loky workers for 3 tasks took
    5.7 s against 0.55 s for 2, and ``indefsvm compare --n-jobs 1000`` on 270 samples 4 min
    40 s against 3.9 s on one. Another backend (Dask's) places the tasks on its own
    workers: ``n_jobs`` goes to it as given."""
    from joblib.parallel import get_active_backend

    backend, _ = get_active_backend()
    if type(backend).__name__ not in _LOCAL_BACKENDS:
        return n_jobs
    asked = int(joblib.effective_n_jobs(n_jobs))
    if asked <= 1 or n_tasks <= 1 or (rows is not None and rows < small):
        return 1
    return max(1, min(asked, int(n_tasks), idle_cores()))


_CONTROLLER = None


def _controller():
    # no lock: two threads may each make one at first (harmless), while a lock held when
    # Ctrl-C arrives inside threadpoolctl's scan could be left taken
    global _CONTROLLER
    if _CONTROLLER is None:
        from threadpoolctl import ThreadpoolController

        _CONTROLLER = ThreadpoolController()
    return _CONTROLLER


# threadpoolctl (3.6 on) lets one thread at a time control an OpenBLAS built on pthreads:
# its pool is the process's, and a limit asked from any other thread is ignored. Our
# compiled loops call the BLAS from their own threads and need it on one thread whatever
# Python thread runs them: else its workers compete with ours, and a dgemm's sums are split
# differently (measured: a fit in a worker thread, the main thread holding a limit, gave
# kernel tiles 1 ulp from the main thread's). So the library holds the BLAS's count itself,
# with the setter threadpoolctl uses, counted across threads (``_checks.BlasHold``): the
# lowest count any hold asks for while one lasts, and the count found before the first once
# the last ends. threadpoolctl's own limits are not used for the BLAS: each saves the count
# it finds and puts it back at its end, and a limit ignored in one thread put back, after
# taking control, the count another thread's limit had set: fits in several Python threads
# left the BLAS on one thread for good (measured: 36 fits in 6 threads, then every BLAS call
# of the process on 1 thread of 2).


def _setter(lib):
    # threadpoolctl's OpenBLAS controller keeps the unguarded setter under this name
    return getattr(lib, "_real_set_num_threads", lib.set_num_threads)


@contextlib.contextmanager
def _held_blas(limit: int, blas=None):
    """The BLAS libraries of ``blas`` (default: all) on at most ``limit`` threads inside
    the block, whatever thread asks, and back to their count when the last hold ends."""
    blas = _controller().select(user_api="blas") if blas is None else blas
    libs = blas.lib_controllers
    args = ([lib.filepath for lib in libs], [lib.get_num_threads for lib in libs],
            [_setter(lib) for lib in libs])
    hold = BlasHold(limit, *args)
    try:
        yield
    finally:
        hold.release()  # (an interrupt before it: the hold is released as it is freed)


@contextlib.contextmanager
def single_threaded_blas():
    """BLAS on one thread inside the block: our compiled loops call BLAS from their own
    threads (or, with ``n_jobs=1``, stand for one core), and OpenBLAS's own threads would
    then compete with them for the cores. It also makes each BLAS call's result independent
    of how many threads OpenBLAS would have used, in whatever thread the block runs (the
    library holds the count itself: see ``_held_blas``). The controller (a scan of the
    loaded libraries, ~15 ms) is made once per process; each hold costs ~30 us."""
    with _held_blas(1):
        yield


@contextlib.contextmanager
def single_threaded():
    """BLAS and OpenMP on one thread inside the block (the controller made once per
    process, as for ``single_threaded_blas``): for work that runs as many small tasks.
    OpenMP's count is the calling thread's own (threadpoolctl's limit); the BLAS's is held
    as in ``single_threaded_blas``."""
    with _controller().limit(limits=1, user_api="openmp"), _held_blas(1):
        yield


def blas_threads(rows: int, n_jobs=None) -> int:
    """The BLAS threads for work on ``rows`` rows: 1 below ``SMALL_ROWS``; else what
    ``n_jobs`` asks for (``None``: the BLAS's own count), capped by the idle cores. Never
    more than the BLAS has now (a user's ``threadpool_limits`` or ``OMP_NUM_THREADS``
    stands)."""
    if rows < SMALL_ROWS:
        return 1
    now = _blas_now()[1]
    asked = now if n_jobs is None else effective_threads(n_jobs)
    return max(1, min(now, asked, idle_cores()))


def _blas_now():
    blas = _controller().select(user_api="blas")
    return blas, max((lib.num_threads for lib in blas.lib_controllers), default=1)


@contextlib.contextmanager
def blas_at_most(threads: int):
    """The BLAS on at most ``threads`` threads inside the block (never more than it has).
    The limit is set even when it changes nothing: the same lines run either way, and a
    Ctrl-C that lands between them leaves the same state whatever the machine."""
    blas, now = _blas_now()
    limit = max(1, min(int(threads), now))
    with _held_blas(limit, blas):
        yield


@contextlib.contextmanager
def sized_blas(rows: int, n_jobs=None):
    """The BLAS on ``blas_threads(rows, n_jobs)`` threads inside the block (only ever
    fewer than it has: never more than a caller's limit)."""
    with blas_at_most(blas_threads(rows, n_jobs)):
        yield


def _rows_of(obj) -> int:
    """The row count of an array, a sparse matrix, a list of objects or a dask array
    (unknown sizes count as large)."""
    shape = getattr(obj, "shape", None)
    if shape is not None and len(shape) >= 1:
        try:
            return int(shape[0])
        except (TypeError, ValueError):  # a dask array with unknown chunk sizes
            return SMALL_ROWS
    try:
        return len(obj)
    except TypeError:
        return SMALL_ROWS


def sized_by(*names: int | str, method: bool = False):
    """Decorate a public function (``method=True``: a method) so that its BLAS threads are
    sized to the rows of its data (``sized_blas``): small work on one thread, large work on
    the idle cores. ``names``: the data argument's position (after ``self`` for a method)
    or keyword, the first one given decides (default: the first argument). ``n_jobs`` is
    the call's keyword, else the estimator's own."""
    names = names or (0,)

    def decorate(func):
        @functools.wraps(func)
        def wrapper(*args, **kwargs):
            params = args[1:] if method else args
            data = None
            for a in names:
                data = (params[a] if a < len(params) else None) if isinstance(a, int) \
                    else kwargs.get(a)
                if data is not None:
                    break
            n_jobs = kwargs.get("n_jobs", getattr(args[0], "n_jobs", None) if method else None)
            if not isinstance(n_jobs, numbers.Integral) or isinstance(n_jobs, bool) \
                    or n_jobs == 0:
                n_jobs = None  # a bad value is the function's own to refuse
            with sized_blas(SMALL_ROWS if data is None else _rows_of(data), n_jobs):
                return func(*args, **kwargs)

        # what a test reads to see that an entry point is sized (and stays so through the
        # decorators above it, which copy __dict__): the decorator has been moved off its
        # function twice by an edit that put a helper between them
        wrapper._sized_by = names
        return wrapper

    return decorate
