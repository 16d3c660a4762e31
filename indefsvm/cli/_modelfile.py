"""Model files on the command line: the loader and its checks live in
:mod:`indefsvm._modelfile` (``indefsvm.load_model`` for Python); the command line reads
them from here."""

from __future__ import annotations

from .._modelfile import TRUSTED_TYPES, _load_model, model_input
from ._errors import EXIT_USAGE, CLIError

__all__ = ["TRUSTED_TYPES", "_load_model", "model_input", "placed"]


def placed(model, device: str, path: str):
    """``model`` set to compute on ``device`` (the command's ``--device``, cpu by default):
    a landmark model fitted on a GPU predicts on a machine without one. A model with no
    device (the SMO's) takes ``--device cuda`` as a usage error."""
    est = model[-1] if hasattr(model, "steps") else model
    if "device" in est.get_params(deep=False):
        est.set_params(device=device)
    elif device == "cuda":
        raise CLIError(f"--device cuda: {path} holds a {type(est).__name__}, which computes "
                       "on the CPU (the GPU computes the landmark models, fit --nystroem M "
                       "or --metric); drop --device.", EXIT_USAGE)
    return model
