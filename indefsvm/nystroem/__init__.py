"""The scale wing: an indefinite kernel at 10^5 - 10^6 points without its n x n matrix.

:class:`KreinNystroem` maps each point to Krein-space Nystroem features ``Phi`` with their
signature ``S`` (``K ~ Phi S Phi'``, Gisbrecht & Schleif 2015; Oglic & Gaertner 2019);
:class:`NystroemSVC` trains a linear SVM on them (the Krein SVM, flip or clip, by dual
coordinate descent). Both compute kernel values against the landmarks only, a block of rows
at a time, in compiled code.
"""

from ._features import KreinNystroem
from ._svc import NystroemSVC

__all__ = ["KreinNystroem", "NystroemSVC"]
