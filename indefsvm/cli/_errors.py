"""Exit statuses, the user-error exception, the one-line parser and the error line."""

from __future__ import annotations

import argparse

from .._files import OutputFileError
from ..exceptions import DataFileError, UnboundedObjectiveError
from ._options import option_of

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
    """argparse, but a usage error is one line and exit status 2 (through CLIError)."""

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


def _option_rule(text: str) -> str | None:
    """A library rule about one parameter ("rtol must be ...") in the option's words
    ("--rtol must be ..."), or None when the message is about something else."""
    import re

    match = re.match(r"(\w+) must be ", text)
    if match is None:
        return None
    name = match.group(1)
    flag = option_of(name)
    return None if flag is None else flag + text[len(name):]


def _cli_wording(message: str) -> str:
    """scikit-learn names parameters as the estimator spells them: say the option."""
    import re

    def option(match):
        name = match.group(1)
        return option_of(name) or "--" + name.replace("_", "-")

    message = re.sub(r"The '(\w+)' parameter of \w+", option, message)
    # the library's messages that start with a parameter's name (the distances' rules)
    message = re.sub(r"^(window|weights) must be", r"--\1 must be", message)
    # compare_remedies' inner search of C: the grid is --C-grid here
    message = re.sub(r"param_grid=\{'C': \[([^\]]+)\]\}", r"--C-grid \1", message)
    message = re.sub(r"^param_grid: ", "--C-grid: ", message)
    return message.replace("gamma=", "--gamma ")


def _error_line(exc: BaseException) -> tuple[str, int]:
    """The one line and exit status for an error of the user's data or numbers."""
    if isinstance(exc, CLIError):
        return str(exc), exc.code
    if isinstance(exc, (DataFileError, UnboundedObjectiveError)):
        return str(exc), EXIT_DATA
    if isinstance(exc, OutputFileError):
        # a name that cannot be an output is a usage error; a write the system refused not
        return str(exc), EXIT_USAGE if exc.usage else EXIT_DATA
    if getattr(type(exc), "usage", False) is True:
        # a reader's parameter that does not apply to the file, or one it needs (datasets'
        # ParameterError)
        return str(exc), EXIT_USAGE
    if type(exc).__name__ == "DeviceError":
        # no CuPy or no GPU: the library's words, with the command line's option
        text = str(exc).replace("device='cuda'", "--device cuda").replace(
            "device='cpu'", "--device cpu").replace(".set_params(device='cpu')",
                                                    " --device cpu")
        return text, EXIT_DATA
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
        return (str(exc).splitlines()[0].replace("n_restarts=", "--restarts ")
                if str(exc) and " GiB" in str(exc) else
                "out of memory: the problem does not fit; use fewer samples, a smaller "
                "--cache-size, or a machine with more memory."), EXIT_DATA
    if isinstance(exc, ValueError) and _option_rule(str(exc)):
        # an option's value the library refused (check --rtol 2): a usage error
        return _option_rule(str(exc).splitlines()[0]), EXIT_USAGE
    if isinstance(exc, (ValueError, TypeError, OSError)):
        text = str(exc).splitlines()[0] if str(exc) else type(exc).__name__
        # the library names scikit-learn's scalers; here the option scales the features
        return text.replace("(StandardScaler, MinMaxScaler)", "(--scale)"), EXIT_DATA
    return (f"internal error ({type(exc).__name__}: {exc}); run again with --debug for the "
            "traceback and report it."), EXIT_DATA
