"""What machine a benchmark ran on (shared by the benchmark scripts)."""

from __future__ import annotations

import platform


def cpu_name() -> str:
    """The CPU model from /proc/cpuinfo (Linux), else what platform says."""
    try:
        with open("/proc/cpuinfo") as fh:
            for line in fh:
                if line.startswith("model name"):
                    return line.split(":", 1)[1].strip()
    except OSError:
        pass
    return platform.processor() or ""
