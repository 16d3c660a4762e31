"""Compiled solver loops (private). Use :mod:`indefsvm.solvers`, which validates inputs.

Every compiled module of the package is reached through this package first (the ground
floor's checks live here), so this is where a package whose loops were never built -- the
source folder of a clone, imported because Python looks in the current folder first -- says
what happened and what to do, instead of a ModuleNotFoundError deep inside an import.
"""

import importlib.util
import os


class NotBuiltError(ImportError):
    """indefsvm was imported from a folder where its compiled loops are not built."""

    not_built = True


if importlib.util.find_spec(f"{__name__}._checks") is None:
    _where = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
    raise NotBuiltError(
        f"indefsvm was imported from the source folder {_where}, where its compiled loops "
        "are not built (Python looks in the current folder before the installed package). Run "
        "Python from another folder to use the installed indefsvm, or build this folder in "
        "place: pip install --no-build-isolation -e . (needs meson-python, Cython and "
        "ninja).")
