"""What a Ctrl-C in the middle of ``fit`` leaves behind (private).

The compiled solvers stop on Ctrl-C by raising ``KeyboardInterrupt``; the Python between
them (storing the solution, building support vectors, calibrating) can be interrupted
between any two lines too. Either way an estimator must not be left half fitted -- some
``*_`` attributes of the new model beside others of an older one -- because
``check_is_fitted`` would then call it fitted and ``predict`` would mix the two.
"""

from __future__ import annotations

import functools


def unfitted_on_interrupt(fit):
    """Decorate a ``fit`` method: when it ends by ``KeyboardInterrupt`` the estimator is
    left unfitted -- every attribute ending in ``_`` (of this fit or of an earlier one) and
    every private attribute this fit added are removed -- and the interrupt goes on."""

    @functools.wraps(fit)
    def wrapper(self, *args, **kwargs):
        before = set(vars(self))
        try:
            return fit(self, *args, **kwargs)
        except KeyboardInterrupt:
            for name in list(vars(self)):
                fitted = name.endswith("_") and not name.startswith("__")
                if fitted or name not in before:
                    delattr(self, name)
            raise

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
