"""Python code run in a child process under a bounded address space (``ulimit -v``,
RLIMIT_AS): the tests of memory bounds hold their own machine up -- a regression that reads
a bomb whole fails with a MemoryError in the child instead of taking the machine down."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import tempfile
import textwrap


def run_bounded(code: str, limit_mib: int = 1536, timeout: float = 240.0) -> dict:
    """Run ``code`` (which sets ``result``, a JSON-able value) in a child process limited to
    ``limit_mib`` MiB of address space; return ``{"result": ..., "peak_mib": ...}``, or
    ``{"error": "Type: message", ...}`` for an exception, with the child's peak RSS."""
    script = textwrap.dedent('''
        import json, resource, sys
        resource.setrlimit(resource.RLIMIT_AS, (_BOUND_, _BOUND_))
        out = {}
        try:
        CODE
            out["result"] = result
        except BaseException as exc:
            out["error"] = f"{type(exc).__name__}: {exc}"
        # VmHWM, this program's own peak: getrusage's ru_maxrss keeps the parent's, which
        # the fork copied before exec
        with open("/proc/self/status") as fh:
            out["peak_mib"] = next(int(line.split()[1]) for line in fh
                                   if line.startswith("VmHWM:")) / 1024
        sys.stdout.write("\\n" + json.dumps(out))
    ''').replace("_BOUND_", str(limit_mib * 2**20)).replace(
        "CODE", textwrap.indent(textwrap.dedent(code), "    "))
    env = dict(os.environ, OMP_NUM_THREADS="1", OPENBLAS_NUM_THREADS="1",
               MKL_NUM_THREADS="1")
    run = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True,
                         timeout=timeout, env=env,
                         # not the clone's root: Python would import the uncompiled source
                         cwd=tempfile.gettempdir())
    lines = run.stdout.strip().splitlines()
    if run.returncode != 0 or not lines:
        raise AssertionError(f"the child ended with {run.returncode}: {run.stderr[-2000:]}")
    return json.loads(lines[-1])
