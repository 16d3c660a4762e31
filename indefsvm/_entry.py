"""The ``indefsvm`` command's entry point (private): imports the command line inside the
handler of Ctrl-C, so that an interrupt during start-up is one line and exit status 130, not
a traceback from the middle of an import."""

import sys


def main() -> int:
    """Import and run :func:`indefsvm.cli.main`; 130 when interrupted while importing."""
    try:
        from .cli import main as cli_main
    except KeyboardInterrupt:
        print("indefsvm: interrupted", file=sys.stderr)
        return 130
    return cli_main()
