"""Output files: checked before the work, written whole or not at all.

One writer for everything indefsvm writes -- model files, prediction files, HTML pages (the
command line's and :meth:`indefsvm.explorer.Explorer.save`) -- so that an interrupted run
leaves no truncated file and a mistake in the output's name is said before minutes of work,
not after them (private module).
"""

from __future__ import annotations

import os
import stat
import tempfile
import time

__all__ = ["OutputFileError", "atomic_write", "check_output_file", "check_page_out",
           "page_path"]


class OutputFileError(ValueError):
    """An output file or folder that cannot be written; ``usage`` is True where the name
    given is the mistake (a folder, an input file, a missing folder) and False where the
    system refused the write."""

    def __init__(self, message: str, usage: bool = True):
        super().__init__(message)
        self.usage = usage


def atomic_write(path, write) -> None:
    """Call ``write(name)`` on a temporary file in the folder of ``path``, renamed to it at
    the end: an interrupted run leaves no truncated file. A symbolic link is followed (its
    target is replaced, the link stays); a FIFO, a device or a socket is written to directly
    -- a rename would replace the node itself by a regular file.

    Raises
    ------
    OutputFileError
        The system refused the write (``usage`` False); nothing was replaced.
    """
    given = str(path)
    target = resolved(given)
    if target is None:
        raise OutputFileError(f"{given}: cannot be written (its folder does not exist); "
                              "nothing was replaced.", usage=False)
    held = _HELD_FIFOS.pop(target, None)
    try:
        if os.path.exists(target) and not os.path.isfile(target):
            write(target)
            return
    except OSError as exc:
        # /dev/full, a closed pipe's other end...: the file the user named, not errno alone
        raise OutputFileError(f"{given}: cannot be written ({exc.strerror or exc}).",
                              usage=False) from None
    finally:
        if held is not None:
            os.close(held)  # the reader sees the end of the file after what was written
    fd, tmp = tempfile.mkstemp(dir=os.path.dirname(target) or ".", prefix=".indefsvm-",
                               suffix=".tmp")
    os.close(fd)
    try:
        try:
            write(tmp)
        except OSError as exc:
            raise OutputFileError(f"{given}: cannot be written ({exc.strerror or exc}); "
                                  "nothing was replaced.", usage=False) from None
        # mkstemp makes the file 0600; a file the user asked for gets the usual mode, 0666
        # less the umask (as open() would give it)
        umask = os.umask(0)
        os.umask(umask)
        os.chmod(tmp, 0o666 & ~umask)
        os.replace(tmp, target)
    finally:
        if os.path.exists(tmp):
            os.remove(tmp)


def check_output_file(path: str, option: str, inputs=()) -> None:
    """An output file, checked before the work: not a directory, in a folder that exists
    and can be written, not one of the ``inputs`` (also through a link or another name:
    the write would destroy what is being read), and, if it is a FIFO, one that a process
    reads now (else the write would block forever after all the work; it is then held open
    until :func:`atomic_write` writes it). ``option`` names it in the messages."""
    if path == "-":
        # the shell's name of standard output: a file named "-" would surprise everyone
        raise OutputFileError(f"{option} -: standard output cannot hold this file; give a "
                              "file name.")
    if os.path.isdir(path):
        raise OutputFileError(f"{option} {path}: is a directory; give a file name.")
    # the folder as the system walks it, not as the text reads: 'typo/../data.csv' with no
    # folder typo/ is no file the system can make, while a lexical reading of it (abspath,
    # a non-strict realpath) is data.csv itself -- an input replaced in silence
    target = resolved(path)
    if target is None:
        folder = os.path.dirname(path)
        raise OutputFileError(f"{option} {path}: folder {folder} does not exist (each folder "
                              "of the path must exist, also one followed by '..').")
    for given in inputs:
        if given and isinstance(given, (str, os.PathLike)) and _same_file(target, given):
            raise OutputFileError(f"{option} {path}: is the input file {given}; writing "
                                  "there would destroy it. Give another file name.")
    if os.path.exists(target) and stat.S_ISFIFO(os.stat(target).st_mode):
        _hold_fifo(target, option)
    _check_writable(os.path.dirname(target), option, path)


def resolved(path) -> str | None:
    """The absolute, link-free name of the file ``path`` names as the system resolves it --
    every folder on the way must exist, also one that a '..' leaves again -- or None where
    one does not. A link at the end is followed to its target (written through)."""
    path = os.fspath(path)
    folder = os.path.dirname(path) or "."
    try:
        real = os.path.realpath(folder, strict=True)
    except OSError:
        return None
    if not os.path.isdir(real):
        return None
    name = os.path.basename(path)
    target = os.path.join(real, name)
    return os.path.realpath(target) if os.path.islink(target) else target


def _same_file(target: str, given) -> bool:
    """``target`` (resolved) is the input ``given``: the same file by device and inode where
    both exist, else the same resolved name."""
    try:
        return os.path.samefile(target, given)
    except OSError:
        other = resolved(given)
        return other is not None and other == target


#: seconds a FIFO output is given to find its reader (a shell's ``cat fifo &`` may open it
#: a moment after the command starts)
FIFO_WAIT = 5.0

#: FIFO outputs (real paths) held open for writing from the check to the write: a probe
#: that opened and closed the FIFO would hand its reader an end of file
_HELD_FIFOS: dict = {}


def _hold_fifo(path: str, option: str) -> None:
    """Open a FIFO output for writing before the work -- possible without blocking only
    when a process reads it -- and keep it open until the output is written."""
    deadline = time.monotonic() + FIFO_WAIT
    while True:
        try:
            fd = os.open(path, os.O_WRONLY | os.O_NONBLOCK)
        except OSError:
            if time.monotonic() >= deadline:
                raise OutputFileError(f"{option} {path}: is a FIFO that no process reads; "
                                      "start its reader first (the write would wait for one "
                                      "forever).") from None
            time.sleep(0.05)
            continue
        os.set_blocking(fd, True)
        _HELD_FIFOS[os.path.realpath(path)] = fd
        return


def _check_writable(folder: str, option: str, given: str) -> None:
    """A file can be made in ``folder`` (tried, then removed): said before the work, naming
    what the user gave, not a temporary file after it."""
    try:
        fd, tmp = tempfile.mkstemp(dir=folder, prefix=".indefsvm-", suffix=".tmp")
    except OSError as exc:
        raise OutputFileError(f"{option} {given}: cannot write in {folder} "
                              f"({exc.strerror or exc}); give a folder you can write to.",
                              usage=False) from None
    os.close(fd)
    os.remove(tmp)


#: an output of an HTML page that ends so is the page itself (not a folder to make)
HTML_SUFFIXES = (".html", ".htm")


def _is_page(out: str) -> bool:
    return out.lower().endswith(HTML_SUFFIXES) and not os.path.isdir(out)


def check_page_out(out: str, option: str, inputs=()) -> None:
    """The output of an HTML page, checked before the work: a name ending in .html or .htm
    (and not an existing folder) is the page's file; anything else a folder, made if
    missing (its parent must exist), that the page goes into under its own name."""
    if _is_page(out) or out == "-":
        check_output_file(out, option, inputs)
        return
    if os.path.exists(out) and not os.path.isdir(out):
        raise OutputFileError(f"{option} {out}: is a file; give a folder, or a file name "
                              "ending in .html for the page itself.")
    if resolved(out) is None:
        parent = os.path.dirname(out)
        raise OutputFileError(f"{option} {out}: the folder {parent} does not exist; create "
                              "it first, or give an existing folder.")
    parent = os.path.dirname(resolved(out))
    _check_writable(out if os.path.isdir(out) else parent, option, out)


def page_path(out: str, name: str) -> str:
    """Where the page ``name`` is written for the output ``out`` (see
    :func:`check_page_out`)."""
    if _is_page(out):
        return out
    os.makedirs(out, exist_ok=True)  # the folder only: its parent exists
    return os.path.join(out, name)
