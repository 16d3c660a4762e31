"""The argument parser: the shared options and one sub-command per command module."""

from __future__ import annotations

import argparse

from .. import __version__
from . import _check, _compare, _explore, _fit, _predict, _report
from ._errors import _Parser
from ._options import option

#: the commands, in the order of --help: each module has add_parser(sub) and run(args)
COMMANDS = (_fit, _predict, _check, _compare, _report, _explore)


def build_parser() -> argparse.ArgumentParser:
    """The argument parser of the ``indefsvm`` command.

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

    for command in COMMANDS:
        command.add_parser(sub)
    return parser
