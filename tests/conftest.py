import pytest

import indefsvm as isvm


@pytest.fixture(scope="session")
def heart():
    return isvm.datasets.load_heart(return_X_y=True)


@pytest.fixture(scope="session")
def sonar():
    return isvm.datasets.load_sonar(return_X_y=True)


@pytest.fixture(scope="session")
def breast():
    return isvm.datasets.load_breast_cancer_683(return_X_y=True)


@pytest.fixture
def global_random_seed():
    """scikit-learn's fixture of the same name (its default seed), for its own SVM tests run
    against ours in test_sklearn_svm_suite.py."""
    return 42


@pytest.fixture
def heart_model(tmp_path):
    """A model file of 'indefsvm fit --dataset heart --save' (the command line's defaults)."""
    from indefsvm.cli import main

    model = tmp_path / "m.skops"
    assert main(["fit", "--dataset", "heart", "--cv", "0", "--quiet", "--save",
                 str(model)]) == 0
    return model
