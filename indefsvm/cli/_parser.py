"""The argument parser, built from the registry of the commands: each command's options come
from its own module, imported only when that command is parsed (as pip's ``commands_dict``):
``indefsvm --help`` imports none of them, ``indefsvm fit ...`` only ``fit``'s."""

from __future__ import annotations

import argparse
import importlib
from typing import NamedTuple

from .. import __version__
from ._errors import _Parser
from ._options import option


class Command(NamedTuple):
    """One command of the registry."""

    #: the module of ``indefsvm.cli`` that has ``add_arguments(parser)`` and ``run(args)``
    module: str
    #: its line of help
    help: str
    #: the files it writes, ``{option's dest: kind}``: ``"file"`` (a file; ``-`` refused),
    #: ``"stdout"`` (a file, or ``-``: standard output), ``"page"`` (an HTML page or the
    #: folder it goes into) -- checked before the work by :func:`check_outputs`
    outputs: dict = {}


#: the commands, in the order of --help
COMMANDS = {
    "fit": Command("_fit", "train an SVM and report the solution and accuracy",
                   {"save": "file"}),
    "predict": Command("_predict", "predict with a model saved by 'fit --save'",
                       {"out": "stdout"}),
    "check": Command("_check", "is this kernel usable in an SVM? (PSD/CPD tests, signature, "
                               "eta scan)"),
    "compare": Command("_compare", "try every remedy for an indefinite kernel on the same "
                                   "folds", {"out": "page", "save": "file"}),
    "report": Command("_report", "check the kernel, fit, and write a sanity report (text "
                                 "and HTML)", {"out": "page"}),
    # (its --out names the page's file: explore says a folder given there itself)
    "explore": Command("_explore", "write an interactive page of the SVM's geometry over "
                                   "kernel parameters, C and remedies (one self-contained HTML "
                                   "file)"),
}

#: the settings that name the files a command reads: no output may be one of them
INPUTS = ("file", "data", "model", "labels", "knn_distances")


def build_parser(command: str | None = None) -> argparse.ArgumentParser:
    """The argument parser of the ``indefsvm`` command.

    Parameters
    ----------
    command : str, optional
        The command about to be parsed: only its module is imported and its options added
        (the others are their names and lines of help; a name of no command: none of
        them). Default: every command's.

    Returns
    -------
    argparse.ArgumentParser

    Examples
    --------
    >>> from indefsvm.cli import build_parser
    >>> build_parser().parse_args(["fit", "--dataset", "heart", "-C", "10"]).C
    10.0
    """
    parser = _Parser(prog="indefsvm",
                     description="SVMs with indefinite kernels: train, diagnose, predict.",
                     epilog="exit status: 0 ok, 1 data or numerical error, 2 usage error, "
                            "130 interrupted, 141 output pipe closed")
    option(parser, "version", version=f"indefsvm {__version__}")
    sub = parser.add_subparsers(dest="command", required=True, parser_class=_Parser)
    for name, entry in COMMANDS.items():
        own = sub.add_parser(name, help=entry.help)
        if command is None or command == name:
            room = importlib.import_module(f"{__package__}.{entry.module}")
            room.add_arguments(own)
            own.set_defaults(func=room.run)
    return parser


def command_of(argv: list) -> str | None:
    """The command ``argv`` names (its first word that is no option), or None."""
    return next((a for a in argv if not a.startswith("-")), None)


def check_outputs(args) -> None:
    """Every file the command will write (its registry entry's ``outputs``), checked before
    the work -- a folder that exists and can be written, not one of the files it reads --
    the step of every command between its settings and its run."""
    from .._files import check_output_file, check_page_out

    inputs = tuple(p for p in (getattr(args, k, None) for k in INPUTS) if isinstance(p, str))
    for dest, kind in COMMANDS[args.command].outputs.items():
        path = getattr(args, dest, None)
        if not path or (kind == "stdout" and path == "-"):
            continue
        (check_page_out if kind == "page" else check_output_file)(path, f"--{dest}", inputs)
