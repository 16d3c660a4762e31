"""Where the array work runs: the CPU (NumPy) or a CUDA device (CuPy) (private).

The device code of the library -- kernel blocks, Nystroem features, the linear SVM's
decomposition, the matrix-free kernel products -- is written once against an array
namespace ``xp``: ``cupy`` on a GPU, ``numpy`` where the tests run it without one. The
compiled CUDA source (``dtw.cu``) runs through CuPy's ``RawKernel`` on a GPU and, for the
tests, through a C build of the very same source (``_shim.py``).

CuPy is imported only when a device is asked for (``device="cuda"`` or CuPy input).
"""

from __future__ import annotations

from dataclasses import dataclass
from types import ModuleType

import numpy as np

from ..exceptions import ParameterError, Said, Setting

__all__ = ["DEVICES", "Device", "DeviceError", "is_device_array", "resolve_device",
           "to_numpy"]

#: the values of the estimators' ``device`` parameter (None: where the input is)
DEVICES = ("cpu", "cuda")

#: set by the tests: "cuda" then runs the device code on NumPy, and the CUDA source through
#: its C build, so that CI executes every line of the GPU path without a GPU
_EMULATE = False

INSTALL_HINT = ('pip install "indefsvm[gpu]" (CuPy for CUDA 12; with a CUDA 13 driver '
                "pip install cupy-cuda13x)")


class DeviceError(Said, RuntimeError):
    """A CUDA device was asked for and cannot be used (no CuPy, no device, or a model
    fitted on one asked to work on a machine without one); the message names the fix. Its
    rule names the settings by slots (``{cuda}``, ``{cpu}``: ``device='cuda'``), so a caller
    that spells them otherwise says them its way (``said_as``)."""


#: the settings a device error names
_SETTINGS = {"cuda": Setting("device", "cuda"), "cpu": Setting("device", "cpu")}


def _refused(rule: str) -> DeviceError:
    return DeviceError(rule, "device", "", _SETTINGS)


@dataclass(frozen=True)
class Device:
    """A resolved device: ``name`` ("cpu" or "cuda"), its array namespace ``xp``, and
    ``emulated`` (the CUDA path run on NumPy, for the tests)."""

    name: str
    xp: ModuleType
    emulated: bool = False

    @property
    def is_cuda(self) -> bool:
        return self.name == "cuda"

    def asarray(self, a, dtype=None):
        """``a`` on this device (a copy to the GPU when it is a NumPy array)."""
        return self.xp.asarray(a, dtype=dtype)

    def memory_free(self) -> tuple[int, int] | None:
        """``(free, total)`` bytes of the device's memory, the blocks CuPy's pool holds
        unused counted as free (None on the CPU and on the emulated device)."""
        if not self.is_cuda or self.emulated:
            return None
        free, total = self.xp.cuda.runtime.memGetInfo()
        return int(free) + int(self.xp.get_default_memory_pool().free_bytes()), int(total)

    def synchronize(self) -> None:
        """Wait for the device's queued work (a no-op on the CPU): timings and Ctrl-C."""
        if self.is_cuda and not self.emulated:
            self.xp.cuda.get_current_stream().synchronize()


CPU = Device("cpu", np)


def is_device_array(a) -> bool:
    """Whether ``a`` is a CuPy array (looked up by its type's module: CuPy is not imported)."""
    return type(a).__module__.split(".")[0] == "cupy"


def to_numpy(a) -> np.ndarray:
    """``a`` as a NumPy array (copied back from the device when it is a CuPy array)."""
    if is_device_array(a):
        return a.get()
    return np.asarray(a)


def _cupy() -> ModuleType:
    try:
        import cupy
    except ImportError as exc:
        raise _refused(f"{{cuda}} needs CuPy, which is not installed ({exc}): "
                       f"{INSTALL_HINT}; or use {{cpu}}.") from None
    try:
        count = int(cupy.cuda.runtime.getDeviceCount())
    except Exception as exc:  # CUDA's driver missing or too old: CuPy's own error says which
        raise _refused(f"{{cuda}} but CUDA cannot be used here ({exc}). Run on a machine "
                       "with an NVIDIA GPU and its driver, or use {cpu}.") from None
    if count == 0:
        raise _refused("{cuda} but CUDA sees no GPU on this machine (check "
                       "CUDA_VISIBLE_DEVICES); use {cpu}.")
    return cupy


def resolve_device(device, *inputs, name: str = "device") -> Device:
    """The device that ``device`` (None, "cpu" or "cuda") and the inputs ask for.

    ``None`` follows the inputs: CuPy arrays mean the GPU, anything else the CPU. A CuPy
    input with ``device="cpu"`` is refused (copying it back silently would hide a slow
    path)."""
    on_device = any(is_device_array(a) for a in inputs)
    if device is None:
        device = "cuda" if on_device else "cpu"
    if not isinstance(device, str) or device not in DEVICES:
        raise ParameterError(f"must be one of {list(DEVICES)} or None (where the input "
                             f"is); got {device!r}.", name)
    if device == "cpu":
        if on_device:
            raise ValueError(f"The input is a CuPy array (on the GPU) but {name}='cpu': give "
                             f"{name}='cuda', or copy the input to the CPU first (x.get()).")
        return CPU
    if _EMULATE:
        return Device("cuda", np, emulated=True)
    return Device("cuda", _cupy())


def fitted_on_device_hint(est) -> str:
    """The fix for a model that says device='cuda' on a machine without one."""
    return (f"{type(est).__name__} has device='cuda'; its fitted state is plain NumPy, so on "
            "a machine without a GPU call .set_params(device='cpu') first (the model is "
            "the same).")


def resolve_fitted(est, *inputs) -> Device:
    """:func:`resolve_device` for a fitted model's transform or predictions: a model fitted
    with ``device='cuda'`` and asked to work on a machine without one (a model file moved)
    is told that ``.set_params(device='cpu')`` gives the same model on the CPU."""
    try:
        return resolve_device(getattr(est, "device", None), *inputs)
    except DeviceError as exc:
        # (a code's words: the command line sets a model's device before it predicts)
        raise _refused(f"{exc.rule} {fitted_on_device_hint(est)}") from None
