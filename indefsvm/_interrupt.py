"""What a Ctrl-C in the middle of ``fit`` leaves behind (private).

The compiled solvers stop on Ctrl-C by raising ``KeyboardInterrupt``; the Python between
them (storing the solution, building support vectors, calibrating) can be interrupted
between any two lines too. Either way an estimator must not be left half fitted -- some
``*_`` attributes of the new model beside others of an older one -- because
``check_is_fitted`` would then call it fitted and ``predict`` would mix the two.
"""

from __future__ import annotations

import functools
import threading

#: the estimators being fitted now: id -> (thread, depth); one object holds one model, so a
#: second thread's fit of the same object is refused (a fit may call another of its own)
_FITTING: dict = {}
_FITTING_LOCK = threading.Lock()


def _enter(est) -> None:
    me = threading.get_ident()
    with _FITTING_LOCK:
        owner, depth = _FITTING.get(id(est), (me, 0))
        if owner != me:
            raise RuntimeError(
                f"This {type(est).__name__} is being fitted in another thread right now: one "
                "estimator object holds one model, and two fits at once would leave parts of "
                "each (landmarks of one, weights of the other). Fit a copy in each thread: "
                "sklearn.base.clone(estimator).")
        _FITTING[id(est)] = (me, depth + 1)


def _leave(est) -> None:
    with _FITTING_LOCK:
        owner, depth = _FITTING[id(est)]
        if depth <= 1:
            del _FITTING[id(est)]
        else:
            _FITTING[id(est)] = (owner, depth - 1)


def unfitted_on_interrupt(fit):
    """Decorate a ``fit`` method: when it ends by ``KeyboardInterrupt`` the estimator is
    left unfitted -- every attribute ending in ``_`` (of this fit or of an earlier one) and
    every private attribute this fit added are removed -- and the interrupt goes on. A fit
    of the same object already running in another thread is refused (RuntimeError)."""

    @functools.wraps(fit)
    def wrapper(self, *args, **kwargs):
        _enter(self)
        try:
            before = set(vars(self))
            try:
                return fit(self, *args, **kwargs)
            except KeyboardInterrupt:
                for name in list(vars(self)):
                    fitted = name.endswith("_") and not name.startswith("__")
                    if fitted or name not in before:
                        delattr(self, name)
                raise
        finally:
            _leave(self)

    return wrapper


def interruptible(func, *args):
    """``func(*args)`` with Ctrl-C seen at once in the main thread: a LAPACK call (eigh)
    holds the interpreter until it returns -- seconds at n = 5 000, more under load -- so
    there it runs in a worker thread while the main thread waits in short steps and raises
    the KeyboardInterrupt as soon as it comes (the worker's result is then dropped). Off the
    main thread (joblib workers) ``func`` is simply called.

    A worker left running by the interrupt is waited for when the interpreter exits
    (:func:`_wait_for_abandoned`): OpenBLAS shuts its threads down after the interpreter,
    and a shutdown under a running call loses a thread's wake-up, so the process hung at
    exit -- 8 times in 8 for a script that interrupted an eigh of 3 000 rows and exited."""
    import contextvars
    import threading

    if threading.current_thread() is not threading.main_thread():
        return func(*args)
    box = {}
    # the worker says itself when its call has ended: after a KeyboardInterrupt inside
    # Thread.join, Python 3.11 marks the thread stopped while it still runs (bpo-45274's fix
    # releases the lock the running thread holds), so is_alive() cannot be trusted then
    done = threading.Event()

    def run():
        try:
            box["value"] = func(*args)
        except BaseException as exc:  # handed to the caller below
            box["error"] = exc
        finally:
            done.set()

    # the caller's context goes with the call: the warnings its blocks hold (indefsvm._warn)
    worker = threading.Thread(target=contextvars.copy_context().run, args=(run,), daemon=True,
                              name=f"indefsvm {_name(func)}")
    worker.start()
    try:
        while not done.wait(0.05):
            pass
    except KeyboardInterrupt:
        _abandon(done, _name(func))
        raise
    if "error" in box:
        raise box["error"]
    return box["value"]


#: whether this run has said "indefsvm: interrupted" (the entry point's second Ctrl-C says it
#: where the answer to the first had not reached it yet)
_SAID_INTERRUPTED = [False]


def new_run() -> None:
    """A command starts: it has said nothing of an interrupt yet."""
    _SAID_INTERRUPTED[0] = False


def say_interrupted(*, in_handler: bool = False) -> None:
    """``indefsvm: interrupted`` on stderr, once a run. ``in_handler``: from a signal
    handler, which may have stopped the main thread inside a write to stderr -- a raw write
    to its file descriptor then, not the buffered stream (a reentrant write raises)."""
    import os
    import sys

    if _SAID_INTERRUPTED[0]:
        return
    if in_handler:
        try:
            sys.stderr.flush()  # what the command said before, in its order
        except Exception:  # noqa: BLE001 - reentrant or closed: the line still goes out
            pass
        try:
            os.write(sys.stderr.fileno(), b"indefsvm: interrupted\n")
        except (OSError, ValueError):  # no file descriptor (captured) or closed
            pass
    else:
        print("indefsvm: interrupted", file=sys.stderr, flush=True)
    _SAID_INTERRUPTED[0] = True


def _name(func) -> str:
    return getattr(func, "__name__", "call")


#: calls a Ctrl-C left running (they cannot be stopped): (ended event, name, when), waited
#: for at exit
_ABANDONED: list = []


def _abandon(done, name: str) -> None:
    import atexit
    import time

    if not _ABANDONED:
        # registered now, so it runs before the handlers registered earlier (last in, first
        # out) and before any library's own shutdown, which comes after the interpreter's
        atexit.register(_wait_for_abandoned)
    _ABANDONED.append((done, name, time.monotonic()))


def _wait_for_abandoned() -> None:
    """Wait for the calls an interrupt left running before the interpreter ends. Says so on
    stderr (the exit waits for the rest of the call); a second Ctrl-C ends the process at
    once (exit status 130) -- the one way out that cannot hang in the BLAS shutdown."""
    import os
    import sys
    import time

    running = [(done, name, t0) for done, name, t0 in _ABANDONED if not done.is_set()]
    _ABANDONED.clear()
    if not running:
        return
    names = ", ".join(sorted({name for _, name, _ in running}))
    since = time.monotonic() - min(t0 for _, _, t0 in running)
    print(f"indefsvm: waiting for the interrupted {names} (left {since:.0f} s ago; it cannot "
          "be stopped) to end before exiting; Ctrl-C again exits at once", file=sys.stderr,
          flush=True)
    try:
        for done, _, _ in running:
            while not done.wait(0.1):
                pass
    except KeyboardInterrupt:
        for stream in (sys.stdout, sys.stderr):
            try:
                stream.flush()
            except Exception:  # a closed pipe: nothing more to say
                pass
        os._exit(130)
