"""Model files on the command line: the loader and its checks live in
:mod:`indefsvm._modelfile` (``indefsvm.load_model`` for Python); the command line reads
them from here."""

from __future__ import annotations

from .._modelfile import TRUSTED_TYPES, _load_model, model_input

__all__ = ["TRUSTED_TYPES", "_load_model", "model_input"]
