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
