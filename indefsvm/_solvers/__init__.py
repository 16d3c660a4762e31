"""Compiled solver loops (private). Use :mod:`indefsvm.solvers`, which validates inputs."""
