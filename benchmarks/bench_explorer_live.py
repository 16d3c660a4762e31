"""How long the explorer's live mode takes to recompute a frame in headless Chromium.

    python benchmarks/bench_explorer_live.py [--out results/explorer_live.json]

For 50, 100 and 200 points (two moons, the sigmoid kernel) and the remedies none (the kernel
as it is: two eigenvalue computations, five SMO runs) and clip (one with eigenvectors
besides), the median of 7 recomputes (``window.indefsvm.time``), with the cores idle and with
two busy loops beside the browser. The peer is the library itself: the same frame computed
by ``indefsvm.explorer._frames.numbers`` in this process (median of 7), so the ratio says
how much slower the page is than the compiled library. Needs Chromium, chromedriver and
selenium (``.ci/run`` installs them).
"""

import argparse
import json
import platform
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import numpy as np
from sklearn.datasets import make_moons

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tests"))

import indefsvm as isvm  # noqa: E402
from indefsvm.explorer._frames import numbers  # noqa: E402


def _busy(k):
    return [subprocess.Popen([sys.executable, "-c", "while True: pass"]) for _ in range(k)]


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--out", default=None)
    args = ap.parse_args()
    from test_explorer_browser import _driver

    rows = []
    d = _driver()
    try:
        for n in (50, 100, 200):
            X, y = make_moons(n, noise=0.25, random_state=0)
            ex = isvm.explore(X, y, kernel="sigmoid", param_grid={"gamma": [1.0],
                                                                  "coef0": [1.0]},
                              C=[1.0], remedies=["none"], live=True)
            with tempfile.TemporaryDirectory() as tmp:
                page = ex.save(Path(tmp) / "p.html")
                for remedy in ("none", "clip"):
                    d.get("about:blank")
                    d.get(ex.url(page, remedy=remedy))
                    st = d.execute_script("return window.indefsvm.state()")
                    row = {"n": n, "remedy": remedy}
                    for load in ("idle", "busy"):
                        procs = _busy(2) if load == "busy" else []
                        try:
                            time.sleep(0.3)
                            row[f"page_ms_{load}"] = round(
                                d.execute_script("return window.indefsvm.time(7)"), 1)
                            ts = []
                            for _ in range(7):
                                t0 = time.perf_counter()
                                numbers(np.array(st["X"]), np.array(st["y"], dtype=float),
                                        "sigmoid", st["params"], st["C"], remedy)
                                ts.append(1e3 * (time.perf_counter() - t0))
                            row[f"library_ms_{load}"] = round(statistics.median(ts), 1)
                        finally:
                            for p in procs:
                                p.kill()
                    row["ratio_idle"] = round(row["page_ms_idle"] / row["library_ms_idle"], 2)
                    rows.append(row)
                    print(row, flush=True)
    finally:
        d.quit()
    out = {"machine": platform.processor() or platform.machine(),
           "browser": "headless Chromium", "rows": rows}
    if args.out:
        Path(args.out).write_text(json.dumps(out, indent=1))


if __name__ == "__main__":
    main()
