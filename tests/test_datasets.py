"""Bundled data: content checked against the provenance notes."""

import hashlib

import numpy as np
import pytest

import indefsvm as isvm
import indefsvm.datasets as ds

SHA256 = {
    "heart_scale": "5defa0a4c4c5bdaf3f55ae3828310252e8565c13ee37ce279e0b86d82e7f4ce9",
    "sonar_scale": "a4e300cb77cf9f5b2c5df329dc4e7d3f753f5be5c0996fa3002b66d69dbfb456",
    "breast-cancer_scale": "3c90cd8f884810a0ff2eaf2cc7aabf09073f33c2dfcf113d826a13ca60b257ad",
    "protein213_dissim": "e0a4229cd947e858aacfa5e7b8590fea8b1ea55e54854cb5b6c415d8ecd39368",
}


@pytest.mark.parametrize("name", sorted(SHA256))
def test_bundled_file_is_the_documented_one(name):
    with open(ds.data_path(name), "rb") as fh:
        assert hashlib.sha256(fh.read()).hexdigest() == SHA256[name]


@pytest.mark.parametrize(
    "loader,shape,n_pos",
    [(ds.load_heart, (270, 13), 120), (ds.load_sonar, (208, 60), 97),
     (ds.load_breast_cancer_683, (683, 10), 239)],
)
def test_loaders(loader, shape, n_pos):
    bunch = loader()
    X, y = bunch.data, bunch.target
    assert X.shape == shape and y.shape == (shape[0],)
    assert set(np.unique(y)) == {-1.0, 1.0} and int((y == 1).sum()) == n_pos
    assert X.min() >= -1 and X.max() <= 1
    assert bunch.DESCR
    X2, y2 = loader(return_X_y=True)
    np.testing.assert_array_equal(X, X2)


def test_unknown_bundled_file():
    with pytest.raises(FileNotFoundError):
        ds.data_path("no_such_file")


def test_protein213_is_a_dissimilarity_matrix():
    D, y = ds.load_protein213(return_D_y=True)
    assert D.shape == (213, 213)
    np.testing.assert_array_equal(D, D.T)
    assert np.all(np.diagonal(D) == 0) and D.min() >= 0
    assert [int((y == c).sum()) for c in (1, 2, 3, 4)] == [72, 72, 39, 30]
    # -1/2 J D^2 J has 4 negative eigenvalues, the smallest about -6.55 (provenance notes)
    n = D.shape[0]
    J = np.eye(n) - 1.0 / n
    lam = np.linalg.eigvalsh(-0.5 * J @ (D**2) @ J)
    assert int(np.sum(lam < -1e-9 * lam.max())) == 4
    assert lam[0] == pytest.approx(-6.55, abs=0.01)


def test_data_path_of_no_bundled_file_lists_the_files():
    with pytest.raises(FileNotFoundError, match=r"'nope'; the files are \['breast-cancer_scale'"):
        ds.data_path("nope")


def test_loader_flags_are_booleans_and_classes_need_samples():
    # the probe of 2026-11-29: load_heart(return_X_y="no") returned (X, y) -- any truthy
    # value was taken as True, scikit-learn's loaders refuse it; make_motif_strings(9,
    # n_classes=10**12) drew a motif for every one of 10^12 classes (hours) for 9 strings
    for load, flag in ((ds.load_heart, "return_X_y"), (ds.load_sonar, "as_frame"),
                       (ds.load_breast_cancer_683, "return_X_y"),
                       (ds.load_protein213, "return_D_y")):
        with pytest.raises(ValueError, match=rf"The '{flag}' parameter of {load.__name__} "
                                             "must be an instance of 'bool'"):
            load(**{flag: "no"})
    X, y = ds.load_heart(return_X_y=np.True_)  # NumPy's bool is a bool
    assert X.shape == (270, 13)
    with pytest.raises(ValueError, match=r"n_classes=10 is more than the n_samples=9 strings: "
                                         r"each class needs one at least"):
        ds.make_motif_strings(9, n_classes=10)
    X, y = ds.make_motif_strings(9, n_classes=9, random_state=0)
    assert sorted(set(y)) == list(range(9))


def test_the_generators_check_their_arguments_and_say_too_big_before_the_work():
    # make_cbf(noise=-1) and noise=nan were taken (NaN series), n_samples=10**9 ran for
    # minutes towards a terabyte, random_state=-1 said numpy's "expected non-negative
    # integer", and make_motif_strings(length=5) said "'int' object is not iterable"
    from indefsvm.datasets import make_cbf, make_motif_strings

    for noise in (-1.0, float("nan"), float("inf")):
        with pytest.raises(ValueError, match=r"^noise must be a finite standard deviation"):
            make_cbf(6, noise=noise)
    with pytest.raises(MemoryError, match=r"^1000000000 series of up to 128 points needs "
                                          r"about 953\.7 GiB"):
        make_cbf(10**9)
    with pytest.raises(ValueError, match=r"^random_state must be None, a whole number >= 0"):
        make_cbf(6, random_state=-1)
    with pytest.raises(ValueError, match=r"^length must be a whole number >= 16 or a range "
                                         r"\(low, high\) of them; got \(20, 10\)"):
        make_cbf(6, length=(20, 10))
    X, y = make_motif_strings(9, length=5, motif_length=4, n_mutations=0, random_state=0)
    assert all(len(x) == 9 for x in X)  # one background length, 5, and the motif's 4
    with pytest.raises(MemoryError, match=r"strings of up to .* letters needs about"):
        make_motif_strings(10**10)
    with pytest.raises(ValueError, match=r"^n_mutations must be a whole number >= 0"):
        make_motif_strings(9, n_mutations=-1)
    # the defaults and the documented forms are as before
    X, y = make_cbf(6, length=(60, 80), random_state=0)
    assert len(X) == 6 and all(60 <= len(x) <= 80 for x in X)


def test_bundled_feature_sets_load_as_frames():
    pd = pytest.importorskip("pandas")
    b = isvm.datasets.load_heart(as_frame=True)
    X, y = isvm.datasets.load_heart(return_X_y=True)
    assert isinstance(b.data, pd.DataFrame) and isinstance(b.target, pd.Series)
    assert list(b.data.columns) == [f"x{j}" for j in range(1, 14)] == b.feature_names
    np.testing.assert_array_equal(b.data.to_numpy(), X)
    np.testing.assert_array_equal(b.frame["target"].to_numpy(), y)
    Xs, ys = isvm.datasets.load_sonar(return_X_y=True, as_frame=True)
    assert Xs.shape == (208, 60) and ys.name == "target"
    assert isvm.datasets.load_breast_cancer_683(as_frame=True).frame.shape == (683, 11)
