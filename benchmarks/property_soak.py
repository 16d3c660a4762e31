"""The property suites and the fuzzers with many more examples than CI runs (a nightly soak).

    python benchmarks/property_soak.py               # 2 000 examples per property / fuzzer
    python benchmarks/property_soak.py --examples 20000

Runs ``tests/test_properties_solvers.py``, ``tests/test_properties.py`` (SMO, the CPD
certificate, the eta scan on any symmetric matrix), ``tests/test_fuzz.py`` and
``tests/test_properties_distances.py`` (DTW, its lanes against one pair at a time and the
textbook programme, Levenshtein, the distance kernel, fuzzed CSV and distance files) with
``INDEFSVM_PROPERTY_EXAMPLES`` and ``INDEFSVM_FUZZ_EXAMPLES`` set; the suites are
derandomized, so a larger count explores further from the same start. Prints pytest's summary
and the wall time. Needs the test extras (``pip install ".[test]"``).
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--examples", type=int, default=2000)
    args = ap.parse_args(argv)
    env = dict(os.environ, INDEFSVM_PROPERTY_EXAMPLES=str(args.examples),
               INDEFSVM_FUZZ_EXAMPLES=str(args.examples))
    t0 = time.perf_counter()
    rc = subprocess.call([sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider",
                          os.path.join(HERE, "..", "tests", "test_properties_solvers.py"),
                          os.path.join(HERE, "..", "tests", "test_properties.py"),
                          os.path.join(HERE, "..", "tests", "test_fuzz.py"),
                          os.path.join(HERE, "..", "tests", "test_properties_distances.py")],
                         env=env, cwd=os.path.join(HERE, ".."))
    print(f"{args.examples} examples per property and fuzzer, {time.perf_counter() - t0:.0f} s, "
          f"exit {rc}")
    return rc


if __name__ == "__main__":
    sys.exit(main())
