"""``main``: parse, run the command, and turn every user error into one line."""

from __future__ import annotations

import logging
import os
import sys

from .._logging import logger
from ._args import _resolve_defaults
from ._errors import EXIT_INTERRUPTED, EXIT_PIPE, _error_line
from ._parser import build_parser


def main(argv: list[str] | None = None) -> int:
    """Run the command line.

    Parameters
    ----------
    argv : list of str, optional
        Arguments (default: ``sys.argv[1:]``).

    Returns
    -------
    int
        Exit status: 0 ok, 1 data or numerical error, 2 usage error, 130 interrupted, 141
        output pipe closed.

    Examples
    --------
    >>> from indefsvm.cli import main
    >>> main(["fit", "--dataset", "heart", "-C", "-1", "--quiet"])
    2
    """
    argv = sys.argv[1:] if argv is None else list(argv)
    debug = "--debug" in argv
    try:
        args = build_parser().parse_args(argv)
        _resolve_defaults(args)
        if args.verbose:
            logging.getLogger("indefsvm").setLevel(logging.INFO)
        return args.func(args)
    except SystemExit as exc:  # --help and --version
        return int(exc.code or 0)
    except KeyboardInterrupt:
        print("indefsvm: interrupted", file=sys.stderr)
        return EXIT_INTERRUPTED
    except BrokenPipeError:
        # the reader went away (indefsvm ... | head): stop quietly, as cat and grep do;
        # stdout goes to devnull so that the interpreter's final flush does not complain
        try:
            os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        except (OSError, ValueError):  # a stdout with no file descriptor (captured)
            pass
        return EXIT_PIPE
    except Exception as exc:
        if debug:
            raise
        message, code = _error_line(exc)
        logger.debug("error", exc_info=True)
        print(f"indefsvm: error: {message}", file=sys.stderr)
        return code

