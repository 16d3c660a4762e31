"""The library's logger and the progress lines of long fits (private).

Everything the library says while it works goes through ``logging.getLogger("indefsvm")`` at
INFO level: applications configure it as they like. An estimator or diagnostic says it only
when called with ``verbose=True``, and then makes sure it is seen -- it adds a stderr handler
to the ``indefsvm`` logger when no handler would show it (that handler stays, so a call
without ``verbose`` must say nothing: tested) -- and asks the compiled loops for a progress
line every few seconds (iteration, objective, KKT gap, elapsed time). With ``verbose=False``
the loops are given no callback and cost nothing extra. The one exception is a device's
fallback to the host (a slower path taken), logged whatever ``verbose`` says.
"""

from __future__ import annotations

import logging
import sys
import threading

logger = logging.getLogger("indefsvm")
# verbose fits starting in two threads at once each found no handler and each added one:
# every line said twice for the rest of the process
_ADDING = threading.Lock()

#: seconds between two progress lines of one solver run
REPORT_EVERY = 5.0


def enable(verbose) -> bool:
    """Make INFO messages of the ``indefsvm`` logger visible when ``verbose``; return it."""
    if not verbose:
        return False
    if logger.getEffectiveLevel() > logging.INFO:
        logger.setLevel(logging.INFO)
    with _ADDING:
        if not logger.hasHandlers():
            handler = logging.StreamHandler(sys.stderr)
            handler.setFormatter(logging.Formatter("indefsvm: %(message)s"))
            logger.addHandler(handler)
    return True


def solver_progress(verbose, label: str):
    """A progress callback for the compiled SMO loop, or None when not verbose."""
    if not enable(verbose):
        return None

    def report(n_iter: int, objective: float, gap: float, seconds: float) -> None:
        logger.info("%s: iteration %d, objective %.10g, KKT gap %.3g, %.1f s", label, n_iter,
                    objective, gap, seconds)

    return report
