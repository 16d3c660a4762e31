"""The library's exceptions: ParameterError carries its parameter apart from its words."""

import pickle

import numpy as np
import pytest
from sklearn.utils._param_validation import InvalidParameterError

import indefsvm as isvm
from indefsvm.exceptions import ParameterError


def test_a_parameter_error_is_said_from_its_parts():
    err = ParameterError("must be > 0; got -1.0.", "cache_size")
    assert str(err) == "cache_size must be > 0; got -1.0."
    assert isinstance(err, ValueError) and err.param == "cache_size"
    assert err.said_as("--cache-size") == "--cache-size must be > 0; got -1.0."
    # the other parameters a rule names: "name=value" by the library, a caller's own words
    err = ParameterError(": too few samples with {cv}; give {C}.", "param_grid",
                         values={"cv": 2, "C": [0.5]})
    assert str(err) == "param_grid: too few samples with cv=2; give C=[0.5]."
    assert err.said_as("GRID", lambda name, value: f"<{name} {value}>") == \
        "GRID: too few samples with <cv 2>; give <C [0.5]>."
    # a message about no single parameter (a reader's refusal) is its rule, whole
    assert str(ParameterError("--labels does not apply to a.libsvm.")) == \
        "--labels does not apply to a.libsvm."
    # literal braces in a rule without values are left as they are
    assert str(ParameterError("must be a dict such as {'C': [1]}", "param_grid")) == \
        "param_grid must be a dict such as {'C': [1]}"


def test_a_parameter_error_keeps_its_parts_through_pickle():
    # joblib's workers send their errors back pickled
    err = ParameterError("needs {cv}", "grid", "The grid", values={"cv": 3})
    back = pickle.loads(pickle.dumps(err))
    assert type(back) is ParameterError and str(back) == str(err) == "The grid needs cv=3"
    assert (back.param, back.subject, back.values) == ("grid", "The grid", {"cv": 3})


@pytest.mark.parametrize("call, param", [
    (lambda: isvm.check_kernel(np.eye(3), rtol=2), "rtol"),
    (lambda: isvm.distances.pairwise_distances([[1.0, 2.0]], metric="dtw", window=2),
     "window"),
    (lambda: isvm.solvers.smo(np.eye(2), [1, -1], tol=-1.0), "tol"),
])
def test_the_library_says_which_parameter_it_refuses(call, param):
    with pytest.raises(ParameterError) as info:
        call()
    assert info.value.param == param and str(info.value).startswith(f"{param} must be")


def test_the_readers_refusals_are_the_same_class():
    from indefsvm.datasets._data_file import ParameterError as readers

    assert readers is ParameterError


def test_scikit_learns_constraint_errors_carry_their_parameter():
    """A public function's constraints (options_checked) and an estimator's settings
    (check_settings) raise scikit-learn's InvalidParameterError, its words unchanged, that
    is also a ParameterError naming the parameter."""
    from indefsvm._constraints import check_settings
    from indefsvm.solvers import smo

    with pytest.raises(InvalidParameterError) as info:
        smo(np.eye(2), [1, -1], wss="x")
    assert isinstance(info.value, ParameterError) and info.value.param == "wss"
    assert str(info.value).startswith("The 'wss' parameter of smo must be a str among")
    with pytest.raises(InvalidParameterError) as info:
        check_settings(isvm.IndefiniteSVC(tol=0))
    assert info.value.param == "tol" and info.value.subject == \
        "The 'tol' parameter of IndefiniteSVC"
    assert info.value.said_as("--tol").startswith("--tol must be a float in the range (0")
