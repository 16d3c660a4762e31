"""The ``indefsvm`` command's entry point (private): imports the command line inside the
handler of Ctrl-C, so that an interrupt during start-up is one line and exit status 130, not
a traceback from the middle of an import; and ends an interrupted run at once."""

import sys

#: the exit status of an interrupted run (128 + SIGINT)
INTERRUPTED = 130


def main() -> int:
    """Import and run :func:`indefsvm.cli.main`; 130 when interrupted, also while importing.

    After a Ctrl-C the process ends here and now (``os._exit``, the output flushed): the
    interpreter's shutdown would join what the interrupt abandoned -- a BLAS worker left in
    the middle of an eigendecomposition hung it in ~3 of 41 interrupted searches -- and a
    second Ctrl-C during that shutdown ended the process with -2 instead of 130. From the
    second Ctrl-C on the process ends at once (:func:`_second_ctrl_c_exits`); a caller in
    the same process (a test) gets its own handler back when this returns."""
    import signal

    previous = _second_ctrl_c_exits()
    try:
        try:
            from .cli import main as cli_main

            code = cli_main()
        except KeyboardInterrupt:
            from ._interrupt import say_interrupted

            say_interrupted()
            code = INTERRUPTED
        if code == INTERRUPTED:
            _exit_now(code)
        return code
    finally:
        if previous is not None:
            signal.signal(signal.SIGINT, previous)


def _second_ctrl_c_exits():
    """Ctrl-C raises KeyboardInterrupt, as Python's own handler does; from the second on the
    process ends here and now with 130. A second Ctrl-C that came while the first was being
    answered -- after the command had said "interrupted" and before Ctrl-C was ignored --
    raised KeyboardInterrupt outside every handler: a traceback and exit status -2 (seen
    once in a fresh-clone run of the test suite). Returns the handler it replaced (None
    where it could not replace it)."""
    import signal

    hits = []

    def on_ctrl_c(signum, frame):
        hits.append(signum)
        if len(hits) > 1:
            # the first one's answer may not have said it yet (a second Ctrl-C 50 ms after
            # the first, on a busy machine, came while the interrupt unwound)
            from ._interrupt import say_interrupted

            say_interrupted(in_handler=True)
            _exit_now(INTERRUPTED)
        raise KeyboardInterrupt

    try:
        return signal.signal(signal.SIGINT, on_ctrl_c)
    except ValueError:  # not the main thread of the main interpreter: Python's handler stays
        return None


def _exit_now(code: int) -> None:
    import os
    import signal

    signal.signal(signal.SIGINT, signal.SIG_IGN)  # a second Ctrl-C changes nothing now
    for stream in (sys.stdout, sys.stderr):
        try:
            stream.flush()
        except Exception:  # a closed pipe: nothing more to say
            pass
    os._exit(code)
