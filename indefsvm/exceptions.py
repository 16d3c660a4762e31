"""Exceptions and warnings raised by indefsvm."""

# ConvergenceWarning is scikit-learn's, given by __getattr__ below
__all__ = ["ConvergenceWarning", "DataFileError", "DegenerateKernelWarning",  # noqa: F822
           "DistanceMatrixWarning", "UnboundedObjectiveError"]


def __getattr__(name):
    # scikit-learn's ConvergenceWarning, imported on first use: the command line imports this
    # module at start-up, where scikit-learn is not needed yet
    if name == "ConvergenceWarning":
        from sklearn.exceptions import ConvergenceWarning

        return ConvergenceWarning
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


def __dir__():
    # the lazy ConvergenceWarning listed with the others (completion, dir())
    return sorted({*__all__, *(k for k in globals() if k[:2] == "__")})


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


class DataFileError(ValueError):
    """A data file cannot be read as what it claims to be; the message names the file and,
    where there is one, the line.

    Examples
    --------
    >>> from indefsvm.exceptions import DataFileError
    >>> str(DataFileError("train.txt", 3, "feature index 0 < 1"))
    'train.txt, line 3: feature index 0 < 1'
    """

    def __init__(self, path, line: int | None, message: str):
        self.path, self.line, self.message = str(path), line, message
        where = f"{path}, line {line}" if line else f"{path}"
        super().__init__(f"{where}: {message}")


class DistanceMatrixWarning(UserWarning):
    """A matrix given as a kernel looks like a distance matrix (zero diagonal, no negative
    entry).

    Training an SVM on distances as if they were similarities gives a meaningless model (far
    objects count as similar); the warning shows the line that turns distances into a kernel,
    :class:`indefsvm.DistanceKernel`.

    Examples
    --------
    >>> import warnings
    >>> import numpy as np
    >>> import indefsvm as isvm
    >>> D = np.array([[0.0, 1.0, 2.0], [1.0, 0.0, 1.0], [2.0, 1.0, 0.0]])
    >>> with warnings.catch_warnings(record=True) as w:
    ...     warnings.simplefilter("always")
    ...     _ = isvm.check_kernel(D)
    >>> w[0].category.__name__
    'DistanceMatrixWarning'
    """


class DegenerateKernelWarning(UserWarning):
    """A kernel carries no information: it is zero or constant (every sample as similar
    to every other), so an SVM on it predicts one class.

    Said of a remedy's fixed kernel (the message names the remedy and what to change, e.g.
    a larger ``rank`` of the advanced shift, or another remedy), and by an estimator's
    ``fit`` when its kernel parameters make a named kernel constant: ``gamma=0`` in
    ``exp(-gamma d)``, the polynomial's or the sigmoid's ``gamma=0``, the polynomial's
    ``degree=0`` (the message names the parameter).

    Examples
    --------
    >>> import warnings
    >>> import numpy as np
    >>> from indefsvm.exceptions import DegenerateKernelWarning
    >>> from indefsvm.remedies import AdvancedShiftEigenvalues
    >>> with warnings.catch_warnings(record=True) as w:
    ...     warnings.simplefilter("always")
    ...     _ = AdvancedShiftEigenvalues(rank=1).fit(np.diag([-3.0, 1.0]))
    >>> w[0].category is DegenerateKernelWarning
    True
    """
