"""What does not go together, as data: a command's refusals are a table of
:class:`Refusal` rows read by one function, :func:`refuse`, instead of a guarded ``raise``
for each pair of options.

A row is a condition on the settings (and on what the command has learnt before it asks:
the data's kind, a kernel's name) and the words it says: the options at fault and the fix,
as every error line of the command line does. A format string reads the settings and that
context by name (``"--kernel {kernel} is not a kernel of distances"``).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import Any

from ._errors import EXIT_USAGE, CLIError
from ._options import OPTIONS, Option, given, untaken

__all__ = ["Refusal", "refuse", "refuse_beside", "refuse_untaken", "refuse_without"]


@dataclass(frozen=True)
class Refusal:
    """One combination of settings a command refuses.

    Parameters
    ----------
    when : callable
        ``when(view) -> bool``: the settings (and the context given to :func:`refuse`, by
        attribute) make the combination.
    says : str or callable
        The error line: a format string over the same names, or ``says(view) -> str`` where
        the words depend on more than a value (``does`` / ``do``).
    code : int, default=EXIT_USAGE
        The exit status (2: the options; 1: the data).
    """

    when: Callable[[Any], bool]
    says: str | Callable[[Any], str]
    code: int = EXIT_USAGE


class _View:
    """The settings with the context over them, by attribute (for ``when``) and by key (for
    ``str.format_map``)."""

    __slots__ = ("_args", "_context")

    def __init__(self, args, context: dict):
        self._args, self._context = args, context

    def __getattr__(self, name: str):
        if name in self._context:
            return self._context[name]
        return getattr(self._args, name)

    __getitem__ = __getattr__


def refuse(args, rules: Iterable[Refusal], **context) -> None:
    """Raise the first of ``rules`` that the settings ``args`` (and ``context``) make.

    Raises
    ------
    CLIError
        With the row's words and exit status.
    """
    view = _View(args, context)
    for rule in rules:
        if rule.when(view):
            says = rule.says(view) if callable(rule.says) else rule.says.format_map(view)
            raise CLIError(says, rule.code)


def refuse_beside(options: dict[str, object], beside: str, why: str) -> None:
    """The first of ``options`` (flag -> its value) that was given, refused beside the
    option ``beside`` that leaves it nothing to do (``why``: what that option reads in its
    place): "--labels does not go with --metric: FILE holds ...; drop --labels."."""
    for flag, value in options.items():
        if value:
            raise CLIError(f"{flag} does not go with {beside}: {why}; drop {flag}.", EXIT_USAGE)


def refuse_without(args, needed, *keys: str) -> None:
    """The options among ``keys`` given without the option ``needed`` (a key, or a tuple of
    keys one of which will do) that they go with: refused by one rule, in the words of the
    table's rows ("--landmarks goes with --metric (series or strings) or --nystroem M
    (features); drop it or give --metric or --nystroem.")."""
    needed = (needed,) if isinstance(needed, str) else needed
    if given(args, *needed):
        return
    rows = [OPTIONS[key] for key in needed]
    with_ = " or ".join(row.name + (f" {row.kwargs['metavar']}" if "metavar" in row.kwargs
                                    else "") + f" ({row.hint})" for row in rows)
    for flag in given(args, *keys):
        raise CLIError(f"{flag} goes with {with_}; drop it or give "
                       f"{' or '.join(row.name for row in rows)}.", EXIT_USAGE)


def refuse_untaken(args, takes, keys: Iterable[str], says: Callable[[Option], str]) -> None:
    """The first option among ``keys`` given whose parameter the chosen estimator does not
    take (``takes``: its ``get_params()``; empty: none of them applies), refused in the words
    ``says(row)``: the one rule of "this option does not apply here"."""
    for row in untaken(args, takes, *keys):
        raise CLIError(says(row), EXIT_USAGE)
