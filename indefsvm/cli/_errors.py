"""Exit statuses, the user-error exception, the one-line parser and the error line."""

from __future__ import annotations

import argparse
import contextlib

from .._files import OutputFileError
from ..exceptions import DataFileError, ParameterError, Said, UnboundedObjectiveError
from ._options import number, option_of
from ._settings import Settings

EXIT_DATA = 1
EXIT_USAGE = 2
EXIT_INTERRUPTED = 130
EXIT_PIPE = 141  # 128 + SIGPIPE: the output pipe was closed by its reader


class CLIError(Exception):
    """A user's mistake: the message (what, where, what to do) and the exit status.

    Parameters
    ----------
    message : str
        The one line after ``indefsvm: error:``.
    code : int, default=EXIT_DATA
        The exit status: ``EXIT_DATA`` (1) for the data, ``EXIT_USAGE`` (2) for the options.
    """

    def __init__(self, message: str, code: int = EXIT_DATA):
        super().__init__(message)
        self.code = code


class _Parser(argparse.ArgumentParser):
    """argparse, but a usage error is one line and exit status 2 (through CLIError), and
    what it parses comes as :class:`~indefsvm.cli._settings.Settings`."""

    def parse_known_args(self, args=None, namespace=None):
        parsed, extras = super().parse_known_args(args, namespace)
        # after parsing, not as argparse's namespace: argparse sets an option's default only
        # where the namespace lacks the attribute, which the class's values would hide
        return (parsed if isinstance(parsed, Settings) else Settings(**vars(parsed))), extras

    def error(self, message):  # noqa: D401 - argparse's API
        raise CLIError(f"{message}{_choice_hint(message)} (see '{self.prog} --help')",
                       EXIT_USAGE)


#: kernel names of other tools and papers, and what they are here
_KERNEL_NAMES = {"gaussian": "rbf", "radial": "rbf", "rbf_kernel": "rbf",
                 "tanh": "sigmoid", "mlp": "sigmoid", "neural": "sigmoid",
                 "exponential": "laplacian", "l1": "laplacian"}


def _choice_hint(message: str) -> str:
    """For argparse's "invalid choice: 'X'": the choice meant, where it is another case of
    one ('RBF'), another name of a kernel ('gaussian'), or 'precomputed' (a kernel FILE)."""
    import re

    match = re.match(r"argument ([-\w/]+): invalid choice: '?([^']*?)'? \(choose from (.*)\)$",
                     message)
    if match is None:
        return ""
    option, given, choices = match.groups()
    # (quoted by Python 3.11 and 3.12, bare from 3.12.8 and 3.13.1 on)
    names = [c.strip().strip("'\"") for c in choices.split(",")]
    if given.lower() in names:
        return f"; did you mean {option.split('/')[-1]} {given.lower()}? (names are lower case)"
    if "--kernel" in option and given.lower() == "precomputed":
        return ("; a precomputed kernel is given as FILE, not named: a kernel matrix (.npy, "
                ".npz or text with --labels, or LIBSVM's 'label 0:ID 1:k(x, x_1) ...' file) is "
                "read as one without --kernel")
    meant = _KERNEL_NAMES.get(given.lower())
    if "--kernel" in option and meant in names:
        return f"; {given} is --kernel {meant} here"
    return ""


def _value_words(value) -> str:
    """A parameter's value as its option is given: ``2``, ``0.1,1`` for a list, the values of
    a one-entry grid (``{'C': [0.1]}``: ``0.1``)."""
    if isinstance(value, dict) and len(value) == 1:
        value = next(iter(value.values()))
    if isinstance(value, (list, tuple)):
        return ",".join(number(v) for v in value)
    return number(value)


def said(exc: Said, **options: str) -> str:
    """The one line of a library :class:`~indefsvm.exceptions.ParameterError` in the command
    line's words: the parameter it is about, and those its rule names, said as the options
    that feed them -- the table's (``cache_size``: ``--cache-size``), or ``options`` where a
    command feeds a parameter by another option (compare's ``param_grid`` is ``--C-grid``).
    A parameter no option feeds keeps the library's name. Read from the error's parts
    (``param``, ``values``), never from its message."""
    def option(name):
        return options.get(name) or option_of(name)

    def say(name, value):
        flag = option(name)
        if flag is None:
            return None  # the library's words
        return flag if value is ... else f"{flag} {_value_words(value)}"

    return exc.said_as(option(exc.param) if exc.param else None, say)


@contextlib.contextmanager
def in_options_words(*, only: tuple[str, ...] | None = None, rules: bool = False,
                     **options: str):
    """A library check run inside: its :class:`~indefsvm.exceptions.ParameterError` said as
    a usage error (exit 2) in the options' words (:func:`said`; ``options``: the parameters a
    command feeds by another option), where the command asks before the work. ``only``: the
    parameters said so (the others propagate as they are); ``rules``: a plain ``ValueError``
    too (a rule of two parameters, in the library's words)."""
    try:
        yield
    except ParameterError as exc:
        if only is not None and exc.param not in only:
            raise
        raise CLIError(said(exc, **options), EXIT_USAGE) from None
    except ValueError as exc:
        if not rules:
            raise
        raise CLIError(str(exc).splitlines()[0], EXIT_USAGE) from None


def _parameter_error(exc: ParameterError) -> tuple[str, int]:
    """A ParameterError's line and exit status: 2 where an option gave the parameter (or the
    options do not fit the file: a reader's refusal, which names no parameter), 1 where it
    is about what the command made of the data (no option feeds it)."""
    usage = exc.param is None or option_of(exc.param) is not None
    return said(exc), EXIT_USAGE if usage else EXIT_DATA


def _error_line(exc: BaseException) -> tuple[str, int]:
    """The one line and exit status for an error of the user's data or numbers."""
    if isinstance(exc, CLIError):
        return str(exc), exc.code
    if isinstance(exc, (DataFileError, UnboundedObjectiveError)):
        return str(exc), EXIT_DATA
    if isinstance(exc, OutputFileError):
        # a name that cannot be an output is a usage error; a write the system refused not
        return str(exc), EXIT_USAGE if exc.usage else EXIT_DATA
    if isinstance(exc, ParameterError):
        return _parameter_error(exc)
    if isinstance(exc, Said):
        # no CuPy or no GPU (the device's error), too little memory for what was asked: its
        # settings said as the options (--device cuda, --restarts 9000)
        return said(exc), EXIT_DATA
    if isinstance(exc, ImportError) and getattr(exc, "not_built", False):
        # the source folder of a clone, imported instead of the installed package
        return str(exc), EXIT_DATA
    if isinstance(exc, FileNotFoundError):
        return f"{exc.filename or exc}: no such file; check the path.", EXIT_DATA
    if isinstance(exc, IsADirectoryError):
        return f"{exc.filename}: is a directory; give a file.", EXIT_DATA
    if isinstance(exc, PermissionError):
        return f"{exc.filename}: permission denied.", EXIT_DATA
    if isinstance(exc, MemoryError):
        # our own checks say what needs how much; numpy's bare MemoryError says nothing
        return (str(exc).splitlines()[0] if str(exc) and " GiB" in str(exc) else
                "out of memory: the problem does not fit; use fewer samples, a smaller "
                "--cache-size, or a machine with more memory."), EXIT_DATA
    if isinstance(exc, (ValueError, TypeError, OSError)):
        return (str(exc).splitlines()[0] if str(exc) else type(exc).__name__), EXIT_DATA
    return (f"internal error ({type(exc).__name__}: {exc}); run again with --debug for the "
            "traceback and report it."), EXIT_DATA
