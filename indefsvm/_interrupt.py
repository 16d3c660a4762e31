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
    main thread (joblib workers) ``func`` is simply called."""
    import threading

    if threading.current_thread() is not threading.main_thread():
        return func(*args)
    box = {}

    def run():
        try:
            box["value"] = func(*args)
        except BaseException as exc:  # handed to the caller below
            box["error"] = exc

    worker = threading.Thread(target=run, daemon=True)
    worker.start()
    while worker.is_alive():
        worker.join(0.05)
    if "error" in box:
        raise box["error"]
    return box["value"]
