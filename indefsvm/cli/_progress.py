"""Progress on stderr: tqdm bars over folds, estimated durations and log records."""

from __future__ import annotations

import sys
import time

# -- progress ---------------------------------------------------------------------------------


def _bar(args, total: int, desc: str, unit: str = "fold"):
    """A tqdm progress bar on stderr when it is a terminal (and not --quiet), else None."""
    if args.quiet or not sys.stderr.isatty():
        return None
    from tqdm import tqdm

    # every fold is shown (there are few, and each may take long)
    return tqdm(total=total, desc=desc, file=sys.stderr, leave=False, unit=unit,
                mininterval=0, miniters=1)


class _TimedBar:
    """A bar over an estimated duration for work that cannot count itself (a LAPACK
    decomposition): elapsed seconds against the estimate, so the user sees the time left."""

    def __init__(self, args, seconds: float, desc: str):
        import threading

        self._bar = _bar(args, max(1, round(seconds)), desc, unit="s") if seconds else None
        self._stop = threading.Event()
        self._thread = None
        if self._bar is not None:
            self._thread = threading.Thread(target=self._tick, daemon=True)

    def _tick(self):
        t0 = time.perf_counter()
        while not self._stop.wait(0.5):
            # never at 100 % before the work is done
            done = min(time.perf_counter() - t0, self._bar.total - 0.5)
            self._bar.n = round(done, 1)
            self._bar.refresh()

    def __enter__(self):
        if self._thread is not None:
            self._thread.start()
        return self

    def __exit__(self, *exc):
        if self._thread is not None:
            self._stop.set()
            self._thread.join()
            self._bar.close()
        return False


class _LogBar:
    """A bar driven by the library's log records whose message starts with ``prefix`` (the
    count done is the record's first argument): the Lanczos steps of the matrix-free check,
    the folds of compare_remedies. Other records go to stderr with --verbose, as usual."""

    def __init__(self, args, total, desc: str, prefix: str, unit: str,
                 detail: str | None = None):
        import logging

        self._bar = None if total is None else _bar(args, total, desc, unit=unit)
        if self._bar is None:
            return
        bar, verbose = self._bar, args.verbose

        class Handler(logging.Handler):
            def emit(self, record):
                message = record.getMessage()
                if message.startswith(prefix):
                    if len(record.args) > 1 and isinstance(record.args[1], int):
                        bar.total = record.args[1]  # the work's own count of its steps
                    bar.n = int(record.args[0])
                    bar.refresh()
                elif detail is not None and detail in message:
                    # a long step's own progress (the linear solver's passes) beside the bar
                    bar.set_postfix_str(message.split(": ", 1)[-1], refresh=True)
                    if verbose:
                        print(f"indefsvm: {message}", file=sys.stderr)
                elif verbose:
                    print(f"indefsvm: {record.getMessage()}", file=sys.stderr)

        self._handler = Handler()
        self._logger = logging.getLogger("indefsvm")
        self._level = self._logger.level

    @property
    def active(self) -> bool:
        return self._bar is not None

    def __enter__(self):
        if self._bar is not None:
            import logging

            self._logger.addHandler(self._handler)
            if self._logger.getEffectiveLevel() > logging.INFO:
                self._logger.setLevel(logging.INFO)
        return self

    def __exit__(self, *exc):
        if self._bar is not None:
            self._logger.removeHandler(self._handler)
            self._logger.setLevel(self._level)
            self._bar.close()
        return False


def _PassBar(args, n):
    """The bar over the kernel passes of the matrix-free check (n samples; None: no bar)."""
    from ..diagnostics.spectrum import default_steps

    total = None if n is None else (args.steps or default_steps(n))
    return _LogBar(args, total, "kernel passes", "matrix-free spectrum: Lanczos step", "pass")


def _say(args, message: str) -> None:
    """An announcement on stderr (what is about to happen), unless --quiet."""
    if not args.quiet:
        print(f"indefsvm: {message}", file=sys.stderr)
