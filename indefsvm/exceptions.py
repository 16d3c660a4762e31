"""Exceptions and warnings raised by indefsvm."""

from typing import NamedTuple

# ConvergenceWarning is scikit-learn's, given by __getattr__ below
__all__ = ["ConvergenceWarning", "DataFileError", "DegenerateKernelWarning",  # noqa: F822
           "DistanceMatrixWarning", "ParameterError", "Setting", "UnboundedObjectiveError"]


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


class Setting(NamedTuple):
    """A parameter and its value as an error's rule names them (a ``values`` entry whose
    slot is not the parameter's own name: ``{"cpu": Setting("device", "cpu")}``); ``value``
    ``...`` names the parameter alone; ``words``, where given, is how the library says it
    (``Setting("scale", words="StandardScaler, MinMaxScaler")``: no parameter of the
    library's, an option of a command line's)."""

    param: str
    value: object = ...
    words: str | None = None

    def __str__(self) -> str:
        if self.words is not None:
            return self.words
        return self.param if self.value is ... else f"{self.param}={self.value!r}"


class Said:
    """The parts of an error about parameters (private base of :class:`ParameterError`
    and the device's error): ``rule``, ``param``, ``subject``, ``values``; its message is
    made from them, and :meth:`said_as` makes it again in a caller's words."""

    def __init__(self, rule: str, param: str | None = None, subject: str | None = None,
                 values: dict | None = None):
        self.rule, self.param, self.values = rule, param, dict(values or {})
        self.subject = param if subject is None else subject
        super().__init__(self._text(self.subject, None))

    def __reduce__(self):
        # the parts, not the message, so that a worker's error keeps its parameter
        return type(self), (self.rule, self.param, self.subject, self.values)

    def _text(self, subject, say) -> str:
        rule = self.rule
        for slot, value in self.values.items():
            setting = value if isinstance(value, Setting) else Setting(slot, value)
            words = None if say is None else say(setting.param, setting.value)
            # the slots alone are replaced: any other brace (a label's, a dict's) stays
            rule = rule.replace("{" + slot + "}", str(setting) if words is None else words)
        if not subject:
            return rule
        # "param_grid: the inner search ...": a rule may go on from its subject by a colon
        return f"{subject}{'' if rule[:1] == ':' else ' '}{rule}"

    def said_as(self, name: str | None, say=None) -> str:
        """The message's first line with the parameter called ``name`` (the library's name
        where None) and each parameter of ``values`` said by ``say(name, value)`` (``value``
        ``...`` where the rule names the parameter without a value; the library's words
        where ``say`` returns None). A subject that begins
        with the parameter (``param_grid['gamma']``) keeps its tail (``--grid['gamma']``);
        an empty one (a rule that names its parameter in place) stays empty."""
        subject = self.subject
        if name is not None and subject:
            tail = subject[len(self.param):] if subject.startswith(self.param or " ") else ""
            subject = name + tail
        return self._text(subject, say).splitlines()[0]


class ParameterError(Said, ValueError):
    """A parameter's value the library refuses, or parameters that do not fit the data: the
    caller's mistake.

    The error carries the parameter it is about (``param``) apart from what is said of it
    (``rule``), and the other parameters the rule mentions (``values``: each written
    ``name=value`` in the message), so that a caller which names parameters otherwise -- the
    command line's ``--cache-size`` for ``cache_size`` -- says the same rule in its own words
    by :meth:`said_as`, without reading the message. scikit-learn's constraint errors, where
    the library checks an estimator's settings before its data, are of this class too (and
    remain its ``InvalidParameterError``).

    Parameters
    ----------
    rule : str
        What is said of the parameter ("must be > 0; got -1.0."), or the whole message when
        ``param`` is None; ``{name}`` marks where another parameter of ``values`` is named.
    param : str or None, default=None
        The parameter, as the library spells it; None when the message is about no single
        parameter (a reader's "--labels does not apply to a LIBSVM file").
    subject : str or None, default=None
        How the message names the parameter ("The 'C' parameter of IndefiniteSVC");
        ``param`` itself by default.
    values : dict or None, default=None
        The other parameters the rule names, and their values (``{"cv": 2}``: "cv=2";
        ``...``: the name alone).

    Examples
    --------
    >>> from indefsvm.exceptions import ParameterError
    >>> err = ParameterError("must be > 0; got -1.0.", param="cache_size")
    >>> str(err), err.param
    ('cache_size must be > 0; got -1.0.', 'cache_size')
    >>> err.said_as("--cache-size")
    '--cache-size must be > 0; got -1.0.'
    >>> err = ParameterError("needs {cv} of 3 or more.", "inner_cv", values={"cv": 2})
    >>> str(err)
    'inner_cv needs cv=2 of 3 or more.'
    >>> err.said_as("--inner-cv", lambda name, value: f"--{name} {value}")
    '--inner-cv needs --cv 2 of 3 or more.'
    """


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
