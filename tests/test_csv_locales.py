"""CSV files as spreadsheets and R write them. Where the comma is the decimal mark
(Germany, France, ...), a spreadsheet writes ';' between values and '1,5' for 1.5; the
reader took the ';' (said in its code) but refused every number, advising to encode
"a column of categories". R's write.csv writes a missing value as NA, which got the same
advice. Now a ';' file of decimal commas is read, said once; a file mixing both marks and
a missing value are refused with what is wrong."""

import json

import numpy as np
import pytest

import indefsvm as isvm
from indefsvm.cli import main
from indefsvm.datasets._table import read_features, read_matrix_text
from indefsvm.exceptions import DataFileError


def _heart_table(path, decimal=".", sep=","):
    X, y = isvm.datasets.load_heart(return_X_y=True)
    with open(path, "w") as fh:
        fh.write(sep.join([f"f{j}" for j in range(13)] + ["class"]) + "\n")
        for row, label in zip(X, y, strict=True):
            cells = [repr(float(v)).replace(".", decimal) for v in row]
            fh.write(sep.join(cells + [f"{label:g}"]) + "\n")
    return X, y, str(path)


def test_decimal_commas_read_as_the_same_numbers_and_said(tmp_path):
    X, y, path = _heart_table(tmp_path / "heart_de.csv", decimal=",", sep=";")
    said = []
    Xr, yr, names = read_features(path, ";", None, note=said.append)
    np.testing.assert_array_equal(Xr, X)
    np.testing.assert_array_equal(yr, y)
    assert names == [f"f{j}" for j in range(13)]
    assert len(said) == 1 and "read with ',' as the decimal mark" in said[0]


def test_the_command_line_fits_the_same_model_from_either_mark(tmp_path, capsys):
    _, _, plain = _heart_table(tmp_path / "heart.csv")
    _, _, comma = _heart_table(tmp_path / "heart_fr.csv", decimal=",", sep=";")
    objectives = []
    for path in (plain, comma):
        assert main(["fit", path, "-C", "1", "--gamma", "0.1", "--cv", "0", "--json"]) == 0
        captured = capsys.readouterr()
        objectives.append(json.loads(captured.out)["problems"][0]["objective"])
        assert ("decimal mark" in captured.err) == (path == comma)
    assert objectives[0] == objectives[1]


def test_a_kernel_matrix_with_decimal_commas(tmp_path):
    K = np.array([[1.5, -0.25], [-0.25, 2.0]])
    path = tmp_path / "K.csv"
    path.write_text("1,5;-0,25\n-0,25;2\n")
    with pytest.warns(UserWarning, match="decimal mark"):
        np.testing.assert_array_equal(read_matrix_text(str(path), ";"), K)


def test_both_marks_in_one_file_are_refused_with_the_question(tmp_path):
    path = tmp_path / "mixed.csv"
    path.write_text("a;b;class\n1,5;2.5;x\n2;3;y\n")
    with pytest.raises(DataFileError, match=r"line 2: column a: '1,5' is not a number; .*is "
                       r"the comma the decimal mark\?"):
        read_features(str(path), ";", None)


@pytest.mark.parametrize("marker", ["NA", "N/A", "?", "NULL"])
def test_a_missing_value_is_named_so(tmp_path, marker):
    path = tmp_path / "r.csv"
    path.write_text(f'"","a","b","class"\n"1",1.5,{marker},"x"\n"2",2.5,3,"y"\n')
    with pytest.raises(DataFileError) as err:
        read_features(str(path), ",", None, note=lambda text: None)
    text = str(err.value)
    assert f"line 2: column b: {marker!r} (a missing value) is not a number" in text
    assert "impute the missing values first" in text and "categories" not in text


def test_a_word_is_still_a_category(tmp_path):
    path = tmp_path / "w.csv"
    path.write_text("a,b,class\n1.5,red,x\n2.5,blue,y\n")
    with pytest.raises(DataFileError, match="'red' is not a number; .*pandas.get_dummies"):
        read_features(str(path), ",", None)


_TABLES = {
    # (text, read_features' arguments): the common table in its layouts
    "header, label last": ("a,b,c,label\n{rows}", {}),
    "pandas index, label first": (",label,a,b,c\n{rows_indexed}", {}),
    "no header, label by index": ("{rows}", {"label_column": "-1"}),
    "words as classes, tab": ("a\tb\tc\tclass\n{rows_words_tab}", {}),
    "no labels needed": ("a;b;c;d\n{rows_semicolon}", {"need_labels": False}),
}


@pytest.mark.parametrize("layout", list(_TABLES))
def test_numpys_parser_and_the_csv_loop_read_the_same(tmp_path, layout):
    """The common table goes to NumPy's compiled parser; one quoted cell sends the same
    table through the csv module's loop, which names defects: both read the same."""
    from indefsvm.datasets._table import _features_at_once

    rng = np.random.default_rng(len(layout))
    X = np.round(rng.normal(size=(25, 3)) * 100, 4)
    y = rng.integers(0, 3, size=25)
    words = np.array(["cat", "dog", "emu"])[y]
    pairs = list(zip(X, y, strict=True))
    cells = {
        "rows": "\n".join(",".join([repr(float(v)) for v in r] + [str(c)]) for r, c in pairs),
        "rows_indexed": "\n".join(f"{i},{c}," + ",".join(repr(float(v)) for v in r)
                                  for i, (r, c) in enumerate(pairs)),
        "rows_words_tab": "\n".join("\t".join([repr(float(v)) for v in r] + [w])
                                    for r, w in zip(X, words, strict=True)),
        "rows_semicolon": "\n".join(";".join([repr(float(v)) for v in r] + [str(c)])
                                    for r, c in pairs),
    }
    template, kwargs = _TABLES[layout]
    text = template.format(**cells) + "\n"
    delimiter = "\t" if "tab" in layout else ";" if "semicolon" in template else ","
    plain = tmp_path / "plain.csv"
    plain.write_text(text)
    lines = text.split("\n")
    k = 1 if not template.startswith("{") else 0
    first = lines[k].split(delimiter)
    first[1] = f'"{first[1]}"'  # one quoted cell: the loop's table
    lines[k] = delimiter.join(first)
    quoted = tmp_path / "quoted.csv"
    quoted.write_text("\n".join(lines))
    said_a, said_b = [], []
    a = read_features(str(plain), delimiter, note=said_a.append, **kwargs)
    b = read_features(str(quoted), delimiter, note=said_b.append, **kwargs)
    assert _features_at_once(str(plain), delimiter, kwargs.get("label_column"),
                             kwargs.get("need_labels", True), said_a.append) is not None
    assert _features_at_once(str(quoted), delimiter, kwargs.get("label_column"),
                             kwargs.get("need_labels", True), said_b.append) is None
    np.testing.assert_array_equal(a[0], b[0])
    assert (a[1] is None and b[1] is None) or (a[1].tolist() == b[1].tolist()
                                               and a[1].dtype == b[1].dtype)
    assert a[2] == b[2] and said_a[:1] == [s.replace("quoted", "plain") for s in said_b[:1]]


_CELLS = ["1", "-2", "0.5", "1e3", "7", "cat", "dog", "", "nan", "inf", "NA", " 3 ", "1_0",
          "label", "class", "-"]


def _differential(rows, delimiter, label_column, need_labels):
    """read_features' outcome (its arrays, or its error's words) with NumPy's route allowed,
    and with the csv loop alone."""
    import tempfile
    from unittest import mock

    from indefsvm.datasets import _table

    def outcome():
        try:
            X, y, names = read_features(path, delimiter, label_column,
                                        need_labels=need_labels, note=lambda text: None)
        except DataFileError as exc:
            return "error", str(exc)
        return "read", X.tolist(), None if y is None else (y.tolist(), y.dtype.kind), names

    with tempfile.TemporaryDirectory() as d:
        path = f"{d}/t.csv"
        with open(path, "w") as fh:
            fh.write("\n".join(delimiter.join(r) for r in rows) + "\n")
        either = outcome()
        with mock.patch.object(_table, "_features_at_once", lambda *a: None):
            loop = outcome()
    return either, loop


def test_numpys_route_never_reads_otherwise_than_the_loop():
    """Random small tables: with NumPy's route the reader gives what the csv loop alone
    gives -- the same arrays, or the same error (the route gives way at any doubt)."""
    from hypothesis import given, settings
    from hypothesis import strategies as st

    # numbers most of the time, so that NumPy's route is taken often (and gives way often)
    cell = st.one_of(st.sampled_from(["1", "-2", "0.5", "1e3", "7", " 3 "]),
                     st.sampled_from(["1", "2", "0.25", "-4"]), st.sampled_from(_CELLS))
    name = st.sampled_from(["a", "b", "label", "class", "", "index", "7"])

    @settings(max_examples=300, deadline=None, derandomize=True)
    @given(st.integers(1, 4).flatmap(lambda w: st.tuples(
        st.one_of(st.none(), st.lists(name, min_size=w, max_size=w)),
        st.lists(st.lists(cell, min_size=w, max_size=w), min_size=1, max_size=6))),
        st.sampled_from([",", "\t"]), st.sampled_from([None, "0", "-1", "label"]),
        st.booleans())
    def check(table, delimiter, label_column, need_labels):
        header, body = table
        rows = body if header is None else [header] + body
        either, loop = _differential(rows, delimiter, label_column, need_labels)
        assert either == loop

    check()


def test_the_csv_loop_counts_what_it_keeps_and_stops_by_name(tmp_path, monkeypatch):
    # the loop keeps every row as Python strings, ~30-50 times the text of short cells: a
    # 1.9 GB .csv.gz of such rows grew past 6 GB before "out of memory". A table NumPy's
    # parser declines is now refused from its text's counts before the loop starts (33 s,
    # 4.3 GB for that file: its text read whole); the loop itself, which reads matrices
    # too, refuses once what it holds passes half the memory available at its start
    from indefsvm import _validation

    path = tmp_path / "quoted.csv"
    path.write_text("a,b,label\n" + '1,2,"x"\n' * 70_000)
    monkeypatch.setattr(_validation, "available_memory", lambda: 20e6)
    with pytest.raises(DataFileError, match=r"quoted\.csv: is a table NumPy's parser does not "
                                            r"read .* would hold its 70,001 rows in about 21 "
                                            r"MiB, more than half the 19 MiB"):
        read_features(str(path), ",")
    matrix = tmp_path / "quoted_matrix.csv"
    matrix.write_text('1,2,"3"\n' * 70_000)
    with pytest.raises(DataFileError, match=r"quoted_matrix\.csv, line 65536: its rows, read "
                                            r"so far as 196,608 cells, take about 20 MiB, more "
                                            r"than half the 19 MiB of memory available"):
        read_matrix_text(str(matrix), ",")
    monkeypatch.setattr(_validation, "available_memory", lambda: 200e6)
    assert read_features(str(path), ",")[0].shape == (70_000, 2)
    assert read_matrix_text(str(matrix), ",").shape == (70_000, 3)


def test_files_without_a_header_have_their_semicolons_found(tmp_path, capsys):
    # the sniffing picked ',' for '1,5;-0,25' (a first line with both marks), so a kernel
    # matrix or features without a header row written where the comma is the decimal mark
    # were not read; the test above handed ';' to the reader itself
    from indefsvm.datasets._table import delimiter_of

    kernel = tmp_path / "K.csv"
    kernel.write_text("1,5;-0,25\n-0,25;2\n")
    plain = tmp_path / "K.txt"
    plain.write_text("1,5;-0,25\n-0,25;2\n")
    features = tmp_path / "f.csv"
    features.write_text("1;0,5;2,25\n-1;1,5;0,75\n1;0,25;1\n")
    for path in (kernel, plain, features):
        assert delimiter_of(str(path)) == ";"
    (tmp_path / "y.txt").write_text("1\n-1\n")
    data = isvm.datasets.load_file(kernel, labels=str(tmp_path / "y.txt"))
    np.testing.assert_array_equal(data.X, [[1.5, -0.25], [-0.25, 2.0]])
    data = isvm.datasets.load_file(features, label_column=0)
    np.testing.assert_array_equal(data.X, [[0.5, 2.25], [1.5, 0.75], [0.25, 1.0]])
    # a first line of ',' fields with a ';' inside one of them stays ','
    words = tmp_path / "w.csv"
    words.write_text("a,b;c,label\n1,2,x\n")
    assert delimiter_of(str(words)) == ","


@pytest.mark.parametrize("suffix", [".csv", ".txt"])
def test_semicolon_separated_files_are_read(tmp_path, suffix, capsys):
    X, y = isvm.datasets.load_heart(return_X_y=True)
    f = tmp_path / f"heart{suffix}"
    f.write_text("a;b;c;label\n" + "".join(f"{r[0]};{r[1]};{r[2]};{int(c)}\n"
                                           for r, c in zip(X, y, strict=True)))
    assert main(["fit", str(f), "--cv", "0", "--quiet", "--json"]) == 0
    import json

    out = json.loads(capsys.readouterr().out)
    assert out["n_samples"] == 270 and out["n_features"] == 3
