"""Ctrl-C stops a running fit: the compiled loop looks at pending signals while it runs."""

import signal
import subprocess
import sys
import textwrap
import time

SCRIPT = textwrap.dedent(
    """
    import numpy as np
    from indefsvm.solvers import smo
    rng = np.random.default_rng(0)
    X = rng.uniform(-1, 1, (20000, 50))
    y = np.where(rng.random(20000) < 0.5, 1.0, -1.0)   # random labels: a long, hard problem
    print("fitting", flush=True)
    # two-column cache: every iteration computes kernel columns, minutes of work
    smo(X, y, C=1000.0, tol=1e-9, kernel="rbf", kernel_params={"gamma": 5.0},
        cache_size=0.001, shrinking=False)
    print("finished", flush=True)
    """
)


def test_ctrl_c_raises_keyboard_interrupt(tmp_path):
    # cwd away from the repository, so that the child imports the installed package
    proc = subprocess.Popen([sys.executable, "-c", SCRIPT], stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True, cwd=tmp_path)
    try:
        assert proc.stdout.readline().strip() == "fitting"
        time.sleep(1.0)  # well inside the compiled loop
        assert proc.poll() is None, "the fit ended before it could be interrupted"
        proc.send_signal(signal.SIGINT)
        _, err = proc.communicate(timeout=10)
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.communicate()
    assert "KeyboardInterrupt" in err
    assert proc.returncode != 0
