"""The argument parser, built from the registry of the commands: each command's options come
from its own module, imported only when that command is parsed (as pip's ``commands_dict``):
``indefsvm --help`` imports none of them, ``indefsvm fit ...`` only ``fit``'s."""

from __future__ import annotations

import argparse
import importlib

from .. import __version__
from ._errors import _Parser
from ._options import option

#: the commands, in the order of --help: the module (of ``indefsvm.cli``) that has
#: ``add_arguments(parser)`` and ``run(args)``, and the command's line of help
COMMANDS = {
    "fit": ("_fit", "train an SVM and report the solution and accuracy"),
    "predict": ("_predict", "predict with a model saved by 'fit --save'"),
    "check": ("_check", "is this kernel usable in an SVM? (PSD/CPD tests, signature, eta "
                        "scan)"),
    "compare": ("_compare", "try every remedy for an indefinite kernel on the same folds"),
    "report": ("_report", "check the kernel, fit, and write a sanity report (text and HTML)"),
    "explore": ("_explore", "write an interactive page of the SVM's geometry over kernel "
                            "parameters, C and remedies (one self-contained HTML file)"),
}


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
    for name, (module, words) in COMMANDS.items():
        own = sub.add_parser(name, help=words)
        if command is None or command == name:
            room = importlib.import_module(f"{__package__}.{module}")
            room.add_arguments(own)
            own.set_defaults(func=room.run)
    return parser


def command_of(argv: list) -> str | None:
    """The command ``argv`` names (its first word that is no option), or None."""
    return next((a for a in argv if not a.startswith("-")), None)
