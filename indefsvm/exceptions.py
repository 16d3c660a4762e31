"""Exceptions and warnings raised by indefsvm."""

from sklearn.exceptions import ConvergenceWarning

__all__ = ["ConvergenceWarning", "UnboundedObjectiveError"]


class UnboundedObjectiveError(ValueError):
    """The dual objective is unbounded below (it goes to minus infinity).

    Raised instead of looping when a solver detects that no minimiser exists, e.g. a negative
    diagonal entry of K with no upper bound on alpha (Lin & Lin, Thm 10) or an opposite-label
    pair with ``K_ii + K_jj - 2 K_ij <= 0`` and ``C = inf`` (Thm 5). A finite ``C`` cures both.

    Examples
    --------
    >>> import numpy as np
    >>> from indefsvm import UnboundedObjectiveError
    >>> from indefsvm.solvers import smo
    >>> try:
    ...     smo(np.array([[0.0, 1.0], [1.0, 0.0]]), [1, -1], C=np.inf)
    ... except UnboundedObjectiveError as err:
    ...     print("Thm 5" in str(err))
    True
    """
