"""The library's warnings: said through one function, held or muted per thread.

``warnings.catch_warnings`` is not safe in threads: it swaps the process's filter list and
its ``showwarning`` hook on entry and puts back what it found on exit, so two blocks that
overlap in two threads put back each other's. After fits of ``RemedySearchCV`` and
``compare_remedies`` in six Python threads (their folds caught each fix's
``DegenerateKernelWarning`` that way) the process kept two stray filters, and its hook was
the ``append`` of a list no one read: every warning said afterwards, by any library, was
lost without a word.

So below the command line the library never touches the process's warning state. Every
warning goes through :func:`warn`; a caller that counts or mutes the library's own warnings
calls the work through a :class:`Held` or :class:`Muted` holder, which lives in a context
variable -- each thread has its own -- and joblib tasks take their caller's muting with them
(:func:`carried`). A warning no holder takes is ``warnings.warn``'s, exactly as before:
the user's filters, ``pytest.warns`` and the command line's own ``catch_warnings`` (one
thread, at the top) see it unchanged.

A holder is set inside a copy of the caller's context (``Context.run``), never set and then
put back: a Ctrl-C between two lines -- the setting and the putting back included -- cannot
leave it in force after the call. (A ``with`` block that put it back in ``finally`` did: the
test that interrupts ``RemedySearchCV.fit`` at every line left the search's muting of
``DistanceMatrixWarning`` on for the rest of the test session.) The call's own changes to
context variables stay inside it too; the library's code makes none that should outlive it.
"""

from __future__ import annotations

import contextvars
import re
import sys
import warnings
from collections.abc import Callable
from typing import Any

__all__ = ["Held", "Muted", "carried", "say_again", "warn"]

#: the holders in force in this context, outermost first
_HOLDERS: contextvars.ContextVar[tuple] = contextvars.ContextVar("indefsvm_warning_holders",
                                                                 default=())


class _Holder:
    said: list | None = None

    def __init__(self, *categories: type[Warning], match: str | None = None) -> None:
        self.categories = categories or (Warning,)
        # the message's start, as warnings.filterwarnings' message
        self.match = None if match is None else re.compile(match)

    def _takes(self, message: str, category: type) -> bool:
        return issubclass(category, self.categories) and (self.match is None
                                                          or bool(self.match.match(message)))

    def call(self, func: Callable, /, *args, **kwargs) -> Any:
        """``func(*args, **kwargs)`` with this holder in force (in a copy of this context:
        nothing to put back afterwards, so nothing a Ctrl-C could leave behind)."""
        return contextvars.copy_context().run(_run, (self,), func, args, kwargs)


class Held(_Holder):
    """Keeps the library's warnings of ``categories`` (default: all) said during
    :meth:`call`, in this thread, in :attr:`said` (``warnings.WarningMessage`` items, with
    the file and line ``warnings`` would give them), instead of saying them. The others are
    said as usual."""

    def __init__(self, *categories: type[Warning]) -> None:
        super().__init__(*categories)
        self.said = []


class Muted(_Holder):
    """Mutes the library's warnings of ``categories`` (whose message starts with the regular
    expression ``match``, when given) said during :meth:`call` -- in this thread, and in the
    joblib tasks the call starts through :func:`carried`."""


def _run(holders: tuple, func: Callable, args: tuple, kwargs: dict):
    _HOLDERS.set(_HOLDERS.get() + holders)
    return func(*args, **kwargs)


def _taker(message: str, category: type) -> _Holder | None:
    for h in reversed(_HOLDERS.get()):  # the innermost first
        if h._takes(message, category):
            return h
    return None


def warn(message: str, category: type[Warning] = UserWarning, stacklevel: int = 1) -> None:
    """``warnings.warn(message, category, stacklevel)`` -- unless a holder in force in this
    thread takes it: then it is kept in the holder's list (as ``catch_warnings(record=True)``
    keeps it, with the file and line that ``stacklevel`` points at) or muted."""
    h = _taker(message, category)
    if h is None:
        warnings.warn(message, category, stacklevel=stacklevel + 1)
        return
    if h.said is not None:
        try:
            frame = sys._getframe(stacklevel)
            filename, lineno = frame.f_code.co_filename, frame.f_lineno
        except ValueError:  # a stack shorter than stacklevel: warnings' own stand-in
            filename, lineno = "sys", 1
        h.said.append(warnings.WarningMessage(category(message), category, filename, lineno))


def say_again(said: warnings.WarningMessage) -> None:
    """Say a warning a holder kept: to an outer holder that takes it, else to ``warnings``
    with its own file and line."""
    h = _taker(str(said.message), said.category)
    if h is None:
        warnings.warn_explicit(said.message, said.category, said.filename, said.lineno)
    elif h.said is not None:
        h.said.append(said)


class _Carried:
    """A task that runs under the muting in force where it was made (picklable: process
    workers get it too). Kept lists do not travel -- a process could not fill them."""

    def __init__(self, func: Callable, holders: tuple) -> None:
        self.func, self.holders = func, holders

    def __call__(self, *args, **kwargs):
        return contextvars.copy_context().run(_run, self.holders, self.func, args, kwargs)


def carried(func: Callable) -> Callable:
    """``func`` to run in a joblib worker (a thread or a process) under the :class:`Muted`
    holders in force here."""
    mutes = tuple(h for h in _HOLDERS.get() if h.said is None)
    return _Carried(func, mutes) if mutes else func
