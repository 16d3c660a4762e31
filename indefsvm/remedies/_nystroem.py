"""Old home of :class:`KreinNystroem` (before the package got its Nystroem wing), kept so that
model files saved by indefsvm 0.1.0, which name this module, keep loading."""

from ..nystroem import KreinNystroem

__all__ = ["KreinNystroem"]
