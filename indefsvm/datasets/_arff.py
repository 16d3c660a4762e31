"""Weka's ARFF files (private): a header of ``@attribute`` lines, then ``@data`` rows, dense
(comma-separated, ``?`` for a missing value) or sparse (``{index value, ...}``).

Read by a parser of our own rather than :func:`scipy.io.arff.loadarff`: SciPy's reads neither
the sparse rows Weka writes for text collections nor string attributes, and its errors name
no line or attribute ("could not convert string to float: 'x'"). Every error here names the
file, the line and, where there is one, the attribute. The UCR archive (Dau et al. 2019)
ships each univariate set as ARFF too: numeric attributes, the class last, shorter series
padded with ``?``.
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np

from ..exceptions import DataFileError
from ._table import LABEL_NAMES, number, plain_name, text_lines, unpadded, warn_note

_NUMERIC = ("numeric", "real", "integer")

#: what a missing feature value ('?') is told
_MISSING = "SVMs take no missing values: impute them first (Weka's ReplaceMissingValues)."


def is_arff(path) -> bool:
    """Whether ``path`` is named as an ARFF file (``.arff``, also compressed: ``.arff.gz``)."""
    return plain_name(path).lower().endswith(".arff")


class Attribute(NamedTuple):
    """One ``@attribute``: its name, its kind (numeric, nominal, string, date, relational),
    a nominal attribute's declared values, and the header line that declares it."""

    name: str
    kind: str
    values: tuple = ()
    line: int = 0


#: the escapes of a quoted ARFF value (Weka's): a relational value's instances are separated
#: by an escaped newline; any other escaped character stands for itself
_ESCAPES = {"n": "\n", "t": "\t", "r": "\r"}


def _split(text: str, path: str, lineno: int, sep: str = ",") -> list:
    """The fields of ``text`` at ``sep``, outside '...' and "..." (with backslash escapes);
    each as (value, quoted)."""
    if "'" not in text and '"' not in text:
        return [(t.strip(), False) for t in text.split(sep)]
    out, i, n = [], 0, len(text)
    while True:
        while i < n and text[i] in " \t":
            i += 1
        if i < n and text[i] in "'\"":
            quote, i, buf = text[i], i + 1, []
            while i < n and text[i] != quote:
                if text[i] == "\\" and i + 1 < n:
                    i += 1
                    buf.append(_ESCAPES.get(text[i], text[i]))
                else:
                    buf.append(text[i])
                i += 1
            if i >= n:
                raise DataFileError(path, lineno, f"a value opened with {quote} is not closed.")
            i += 1
            out.append(("".join(buf), True))
            while i < n and text[i] in " \t":
                i += 1
            if i < n and text[i] != sep:
                raise DataFileError(path, lineno, f"text after the quoted value "
                                    f"{out[-1][0]!r}: values are separated by {sep!r}.")
        else:
            j = text.find(sep, i)
            j = n if j < 0 else j
            out.append((text[i:j].strip(), False))
            i = j
        if i >= n:
            return out
        i += 1


def _attribute(rest: str, path: str, lineno: int) -> Attribute:
    """An ``@attribute`` line after its keyword: a name (quoted where it holds spaces), then
    its type."""
    rest = rest.strip()
    parts = rest.split()
    if (len(parts) == 2 and parts[1].lower() in _NUMERIC and "{" not in rest
            and rest[:1] not in ("'", '"')):
        # the common line, `@attribute a17 numeric`: a wide header declares 10^6 of them
        return Attribute(parts[0], "numeric", (), lineno)
    if rest[:1] in ("'", '"'):
        end = rest.find(rest[0], 1)
        while end > 0 and rest[end - 1] == "\\":
            end = rest.find(rest[0], end + 1)
        if end < 0:
            raise DataFileError(path, lineno, "the attribute's quoted name is not closed.")
        name, kind = rest[1:end].replace("\\" + rest[0], rest[0]), rest[end + 1:].strip()
    else:
        cut = min((k for k in (rest.find(" "), rest.find("\t"), rest.find("{")) if k > 0),
                  default=-1)
        if cut < 0:
            raise DataFileError(path, lineno, f"@attribute {rest} has no type (numeric, "
                                "{value, ...}, string or date).")
        name, kind = rest[:cut], rest[cut:].strip()
    low = kind.lower()
    if low.startswith("{"):
        if not kind.endswith("}"):
            raise DataFileError(path, lineno, f"attribute {name!r}: its values {kind} have "
                                "no closing '}'.")
        values = tuple(v for v, _ in _split(kind[1:-1], path, lineno))
        return Attribute(name, "nominal", values, lineno)
    first = low.split()[0] if low else ""
    for words, what in ((_NUMERIC, "numeric"), (("string",), "string"), (("date",), "date"),
                        (("relational",), "relational")):
        if first in words:
            return Attribute(name, what, (), lineno)
    raise DataFileError(path, lineno, f"attribute {name!r} has the type {kind!r}; ARFF's are "
                        "numeric (real, integer), {value, ...}, string, date and relational.")


def read_header(lines: list, path: str) -> tuple[list, int]:
    """(attributes, index of the first line after ``@data``)."""
    attrs: list[Attribute] = []
    inner: list[Attribute] | None = None  # the attributes of a relational one being read
    for k, line in enumerate(lines):
        text = line.strip()
        if not text or text.startswith("%"):
            continue
        word, rest = (text.split(None, 1) + [""])[:2]
        low = word.lower()
        if low == "@relation" and inner is None:
            continue
        if low == "@attribute":
            attr = _attribute(rest, path, k + 1)
            if inner is not None:
                if attr.kind != "numeric":
                    raise DataFileError(path, k + 1, f"attribute {attr.name!r} of the "
                                        f"relational {attrs[-1].name!r} is {attr.kind}; a "
                                        "multivariate series' points are numeric.")
                inner.append(attr)
            elif attr.kind == "relational":
                attrs.append(attr)
                inner = []
            else:
                attrs.append(attr)
            continue
        if low == "@end" and inner is not None:
            # a relational attribute is its points: the number of its inner attributes
            outer = attrs[-1]
            attrs[-1] = Attribute(outer.name, "relational", (len(inner),), outer.line)
            inner = None
            continue
        if low == "@data":
            if inner is not None:
                raise DataFileError(path, k + 1, f"@data inside the relational attribute "
                                    f"{attrs[-1].name!r}: its '@end {attrs[-1].name}' is "
                                    "missing.")
            if not attrs:
                raise DataFileError(path, k + 1, "@data comes before any @attribute.")
            return attrs, k + 1
        raise DataFileError(path, k + 1, f"{word!r} where the ARFF header has @relation, "
                            "@attribute or @data lines (comments start with %).")
    raise DataFileError(path, None, "has no @data line: is it an ARFF file?")


def _sparse_entries(text: str, n: int, path: str, lineno: int) -> dict:
    """``{index: value as text, or None for '?'}`` of a sparse row ``{index value, ...}`` of
    ``n`` attributes (a later entry of an index replaces an earlier one)."""
    if not text.endswith("}"):
        raise DataFileError(path, lineno, "a sparse row {index value, ...} has no closing "
                            "'}' (instance weights are not read).")
    entries = {}
    inner = text[1:-1].strip()
    for item, _ in (_split(inner, path, lineno) if inner else []):
        index, _, value = item.strip().partition(" ")
        if not index.isdigit() or int(index) >= n:
            raise DataFileError(path, lineno, f"{item!r}: a sparse row's entries are 'index "
                                f"value', the index from 0 to {n - 1}.")
        value = value.strip()
        if value[:1] in ("'", '"') and value.endswith(value[0]) and len(value) > 1:
            value = value[1:-1]
        entries[int(index)] = None if value == "?" else value
    return entries


def _rows(lines: list, start: int, attrs: list, path: str):
    """(line number, fields as strings or None for '?', sparse) of each data row; a sparse
    row's omitted values are '0' (for a nominal attribute: its first value)."""
    n = len(attrs)
    for k in range(start, len(lines)):
        text = lines[k].strip()
        if not text or text.startswith("%"):
            continue
        lineno = k + 1
        if text.startswith("{"):
            row = ["0" if a.kind != "nominal" else a.values[0] for a in attrs]
            for index, value in _sparse_entries(text, n, path, lineno).items():
                row[index] = value
            yield lineno, row, True
            continue
        if "'" not in text and '"' not in text:
            # no quotes (most files): the fields as they are, each step only where needed
            cells = text.split(",")
            if " " in text or "\t" in text:
                cells = [c.strip() for c in cells]
            if "?" in text:
                cells = [None if c == "?" else c for c in cells]
            if len(cells) == n:
                yield lineno, cells, False
                continue
        fields = _split(text, path, lineno)
        if len(fields) != n:
            extra = (" (a last {weight} is an instance weight, which is not read)"
                     if fields[-1][0].startswith("{") else "")
            raise DataFileError(path, lineno, f"has {len(fields)} values where the header "
                                f"declares {n} attributes{extra}.")
        yield lineno, [None if (v == "?" and not q) else v for v, q in fields], False


def _label_index(attrs: list, label_column, path: str, last: bool) -> int | None:
    """The class attribute: ``label_column`` (a name, an index, first / last, or none), else
    one named as a label (class, target, ...), else the last one -- Weka's class by default."""
    names = [a.name for a in attrs]
    if label_column is None:
        for k, name in enumerate(names):
            if name.lower() in LABEL_NAMES:
                return k
        if last or attrs[-1].kind == "nominal":
            return len(attrs) - 1
        return None
    text = str(label_column)
    if text == "none":
        return None
    if text in names:
        return names.index(text)
    if text in ("first", "last"):
        return 0 if text == "first" else len(attrs) - 1
    if text.lstrip("-").isdigit():
        k = int(text)
        if not -len(attrs) <= k < len(attrs):
            raise DataFileError(path, None, f"has {len(attrs)} attributes; --label-column {k} "
                                "is not one of them.")
        return k % len(attrs)
    raise DataFileError(path, None, f"has no attribute {text!r} (attributes: "
                        f"{', '.join(names[:8])}{', ...' if len(names) > 8 else ''}); give the "
                        "class attribute's name or index.")


def _labels(values: list, attr: Attribute, path: str, lines: list):
    """The class attribute's values: a nominal's as declared (whole numbers as integers, as
    the UCR archive's {1, 2}), a numeric's as numbers (a regression's targets)."""
    missing = [ln for ln, v in zip(lines, values, strict=True) if v is None]
    if missing:
        if len(missing) == len(values):
            return None  # a test file of unknown classes, as Weka writes one
        raise DataFileError(path, missing[0], f"the class ({attr.name}) is missing ('?'); "
                            "every row needs its class, or none has one (a file to predict).")
    if attr.kind == "nominal":
        declared = set(attr.values)
        for ln, v in zip(lines, values, strict=True):
            if v not in declared:
                raise DataFileError(path, ln, f"class {v!r} is not one of the values declared "
                                    f"for {attr.name} on line {attr.line}.")
        return class_values(values, attr.values, path, attr.line,
                            f"declared for {attr.name}")
    if attr.kind != "numeric":
        raise DataFileError(path, attr.line, f"the class attribute {attr.name!r} is "
                            f"{attr.kind}; a class is nominal {{...}} or, for a regression, "
                            "numeric.")
    out = np.empty(len(values))
    for i, (ln, v) in enumerate(zip(lines, values, strict=True)):
        try:
            out[i] = number(v)
        except ValueError:
            raise DataFileError(path, ln, f"the class ({attr.name}) {v!r} is not a "
                                "number.") from None
        if not np.isfinite(out[i]):
            raise DataFileError(path, ln, f"the class ({attr.name}) {v!r} is not finite; a "
                                "regression's target is a finite number: remove the row or "
                                "fill in its target.")
    if np.all(out == np.round(out)) and np.all(np.abs(out) < 2**53):
        return out.astype(np.int64)
    return out


def class_values(values: list, declared: tuple, path: str, line, where: str):
    """The classes of the rows, ``values``, out of the ``declared`` ones: as whole numbers
    (the UCR archive's {1, 2}) or real numbers where every declared value is a finite number
    and no two are equal as numbers ({1, 1.0, 2} are three classes to Weka, which compares
    them as text: kept as text then), else as text. A declared value that is NaN or an
    infinity is refused: no estimator takes it as a class."""
    for v in declared:
        if _is_number(v) and not np.isfinite(number(v)):
            raise DataFileError(path, line, f"class {v!r} ({where}) is not finite; a class "
                                "is a whole number or a word: rename it.")
    try:
        numbers = [number(v) for v in declared]
    except ValueError:
        return np.array(values, dtype=object)
    if len(set(numbers)) < len(declared):
        return np.array(values, dtype=object)
    nums = np.array([number(v) for v in values])
    if np.all(nums == np.round(nums)) and np.all(np.abs(nums) < 2**53):
        return nums.astype(np.int64)
    return nums


def _number_of(value, attr: Attribute, path: str, lineno: int, *, missing: str) -> float:
    if value is None:
        raise DataFileError(path, lineno, f"attribute {attr.name}: a missing value ('?'); "
                            f"{missing}")
    try:
        return number(value)
    except ValueError:
        raise DataFileError(path, lineno, f"attribute {attr.name}: {value!r} is not a number "
                            f"(declared numeric on line {attr.line}).") from None


def read_arff(path: str, label_column=None, *, need_labels: bool = True,
              objects: str | None = None, class_last: bool | None = None, note=warn_note):
    """(X, y or None, feature names) of an ARFF file.

    ``objects`` None: features -- numeric attributes as they are, a nominal one as one 0 / 1
    column per declared value (``name=value``, said by ``note``; Weka's SMO converts them
    so too), a sparse file as CSR; a string or date attribute, or a missing value, is
    refused. ``"series"``: each row's numeric values as one series (UCR's ARFF), a ``?`` at
    the end the padding of a shorter series. ``"strings"``: the one string (or nominal)
    attribute besides the class. The class is ``label_column`` (name, index, first, last,
    none), else an attribute named as a label, else the last (Weka's default) -- where
    ``class_last`` (default: ``need_labels``), or where it is nominal. ``need_labels``: a
    file whose classes are all ``?`` is refused.
    """
    lines = text_lines(path)
    attrs, start = read_header(lines, path)
    label = _label_index(attrs, label_column, path,
                         need_labels if class_last is None else class_last)
    keep = [k for k in range(len(attrs)) if k != label]
    if not keep:
        raise DataFileError(path, None, "has the class attribute and no other: nothing to "
                            "learn from.")
    if objects is None and _is_sparse(lines, start) and all(
            attrs[k].kind == "numeric" for k in keep):
        # entries straight into CSR: a dense row a line made 5 000 rows x 20 000 attributes
        # of 20 values each take 39 s and 2.5 GB
        X, values, linenos = _sparse_features(path, lines, start, attrs, keep, label)
        y = None if label is None else _labels(values, attrs[label], path, linenos)
        if label is not None and y is None and need_labels:
            raise DataFileError(path, None, f"every class ({attrs[label].name}) is '?': "
                                "training needs the classes.")
        return X, y, [attrs[k].name for k in keep]
    if objects is None:
        _check_dense_size(path, lines, start, attrs, keep)
        fast = _features_at_once(path, lines, start, attrs, keep, label)
        if fast is not None:
            X, values, names, linenos = fast
            y = None if label is None else _labels(values, attrs[label], path, linenos)
            if label is not None and y is None and need_labels:
                raise DataFileError(path, None, f"every class ({attrs[label].name}) is '?': "
                                    "training needs the classes.")
            _say_nominal(path, attrs, keep, note)
            return X, y, names
    rows = list(_rows(lines, start, attrs, path))
    if not rows:
        raise DataFileError(path, None, "has a header and no data rows.")
    linenos = [ln for ln, _, _ in rows]
    y = None if label is None else _labels([r[label] for _, r, _ in rows], attrs[label],
                                           path, linenos)
    if label is not None and y is None and need_labels:
        raise DataFileError(path, None, f"every class ({attrs[label].name}) is '?': training "
                            "needs the classes.")
    if objects is not None:
        return _objects(path, rows, attrs, keep, objects, note), y, None
    for k in keep:
        a = attrs[k]
        if a.kind == "relational":
            raise DataFileError(path, a.line, f"attribute {a.name!r} is relational: a "
                                "multivariate series a row (the UEA archive's ARFF), not "
                                "features; add --metric dtw (in Python: objects='series').")
        if a.kind in ("string", "date"):
            raise DataFileError(path, a.line, f"attribute {a.name!r} is a {a.kind}: features "
                                "are numbers" + (" (strings are compared by --metric "
                                                 "levenshtein, one string attribute and the "
                                                 "class)" if a.kind == "string" else
                                                 " (convert the date to a number, or drop "
                                                 "it)") + ".")
    nominal = [attrs[k].name for k in keep if attrs[k].kind == "nominal"]
    sparse = any(s for _, _, s in rows)
    if sparse and nominal:
        raise DataFileError(path, attrs[keep[0]].line, f"a sparse file with nominal attributes "
                            f"({', '.join(nominal[:4])}): encode them as numeric first "
                            "(Weka's NominalToBinary).")
    names, columns = [], []
    for k in keep:
        a = attrs[k]
        if a.kind == "nominal":
            for v in a.values:
                names.append(f"{a.name}={v}")
                columns.append((k, v))
        else:
            names.append(a.name)
            columns.append((k, None))
    _say_nominal(path, attrs, keep, note)
    missing = _MISSING
    if not nominal:
        missing += (" If each row is a series, the UCR archive pads the shorter ones with '?' "
                    "at the end: add --metric dtw.")
    X = None
    if (not any("_" in lines[k] for k in range(start, len(lines)))
            and not any(None in row for _, row, _ in rows)):
        # NumPy parses the numbers at once and a nominal's values index its columns
        # (Python's 1_000 is no number of a data file, and NumPy reads a '?''s None as
        # NaN, hence the tests above); a word or an undeclared value falls to the loop,
        # which names it
        try:
            X = _at_once(rows, attrs, keep)
        except (TypeError, ValueError, KeyError):
            X = None
    if X is None:
        X = _features(path, rows, attrs, columns, missing)
    if not np.all(np.isfinite(X)):
        i, c = (int(t[0]) for t in np.nonzero(~np.isfinite(X)))
        raise DataFileError(path, rows[i][0], f"attribute {names[c]}: NaN or infinity among "
                            "the features; remove or impute it.")
    if sparse:
        from scipy import sparse as sp

        X = sp.csr_matrix(X)
    return X, y, names


def _data_lines(lines: list, start: int):
    """(line number, text) of the data rows: blank and % lines skipped."""
    for k in range(start, len(lines)):
        text = lines[k].strip()
        if text and not text.startswith("%"):
            yield k + 1, text


def _is_sparse(lines: list, start: int) -> bool:
    """The data section is written sparse: its first row is ``{index value, ...}``."""
    return next((text.startswith("{") for _, text in _data_lines(lines, start)), False)


def _check_dense_size(path, lines, start, attrs, keep) -> None:
    """A dense matrix of the rows and the declared attributes must fit in memory, said
    before it is made (a header may declare millions of attributes)."""
    from .._validation import available_memory

    width = sum(len(attrs[k].values) if attrs[k].kind == "nominal" else 1 for k in keep)
    rows = sum(1 for _ in _data_lines(lines, start))
    # the matrix of float64, and the rows' fields as Python strings while they are read
    need = rows * width * (8.0 + 8.0)
    avail = available_memory()
    if avail is not None and need > avail:
        raise DataFileError(path, None, f"declares {width} feature columns for {rows} rows: "
                            f"{need / 2**30:.1f} GiB to read them dense, more than the "
                            f"{avail / 2**30:.1f} GiB available; refused before reading. "
                            "Write its rows sparse ({index value, ...}), which are read as "
                            "CSR, or keep fewer attributes.")


def _sparse_features(path, lines, start, attrs, keep, label):
    """(CSR features, the class's values as text or None for '?', data line numbers) of a
    sparse file of numeric attributes: each row's entries straight into the CSR arrays,
    never a dense row. An omitted value is 0 (an omitted nominal class its first declared
    value, as Weka reads it); a later entry of an index replaces an earlier one."""
    from scipy import sparse as sp

    n = len(attrs)
    column = np.full(n, -1, dtype=np.int64)
    column[keep] = np.arange(len(keep))
    default = None
    if label is not None:
        default = attrs[label].values[0] if attrs[label].kind == "nominal" else "0"
    indptr, indices, data, values, linenos = [0], [], [], [], []
    missing = _MISSING
    for lineno, text in _data_lines(lines, start):
        if text.startswith("{"):
            entries = _sparse_entries(text, n, path, lineno)
        else:
            # a dense row among sparse ones: its values, read the same way
            _, row, _ = next(_rows(lines, lineno - 1, attrs, path))
            entries = dict(enumerate(row))
        label_value = default
        for k, value in entries.items():
            if k == label:
                label_value = value
                continue
            if value is None:
                raise DataFileError(path, lineno, f"attribute {attrs[k].name}: a missing value "
                                    f"('?'); {missing}")
            x = _number_of(value, attrs[k], path, lineno, missing=missing)
            if not np.isfinite(x):
                raise DataFileError(path, lineno, f"attribute {attrs[k].name}: NaN or infinity "
                                    "among the features; remove or impute it.")
            if x != 0.0:
                indices.append(column[k])
                data.append(x)
        indptr.append(len(indices))
        values.append(label_value)
        linenos.append(lineno)
    if not linenos:
        raise DataFileError(path, None, "has a header and no data rows.")
    X = sp.csr_matrix((np.asarray(data, dtype=np.float64), np.asarray(indices, np.int64),
                       np.asarray(indptr, np.int64)), shape=(len(linenos), len(keep)))
    X.sort_indices()
    return X, (values if label is not None else None), linenos


def _say_nominal(path, attrs, keep, note) -> None:
    nominal = [attrs[k].name for k in keep if attrs[k].kind == "nominal"]
    if nominal:
        note(f"{path}: nominal attribute{'s' if len(nominal) > 1 else ''} "
             f"{', '.join(nominal[:4])}{', ...' if len(nominal) > 4 else ''} read as one 0 / 1 "
             "column per declared value, as Weka's NominalToBinary does.")


def _feature_names(attrs, keep) -> list:
    return [f"{attrs[k].name}={v}" if attrs[k].kind == "nominal" else attrs[k].name
            for k in keep for v in (attrs[k].values if attrs[k].kind == "nominal" else (0,))]


def _features_at_once(path, lines, start, attrs, keep, label):
    """(X, the class's values as text, names, data line numbers) by NumPy's compiled text
    parser, for the common file: dense rows of numbers and declared nominal values, without
    quotes, '?' or '_'; None for any other file, or at the first doubt (a row of another
    width, a word among numbers, an undeclared value), which the loop after reads and names."""
    import io

    kinds = [attrs[k].kind for k in keep]
    if any(kind not in ("numeric", "nominal") for kind in kinds) or (
            label is not None and attrs[label].kind not in ("numeric", "nominal")):
        return None
    linenos = [k + 1 for k in range(start, len(lines))
               if lines[k].strip() and not lines[k].lstrip().startswith("%")]
    if not linenos:
        return None
    text = "\n".join(lines[k - 1] for k in linenos)
    if any(mark in text for mark in ("'", '"', "{", "?", "_")):
        return None
    numeric = [k for k in keep if attrs[k].kind == "numeric"]
    words = [k for k in range(len(attrs)) if k == label or (k in keep and
                                                          attrs[k].kind == "nominal")]
    try:
        with np.errstate(all="ignore"):
            num = (np.loadtxt(io.StringIO(text), delimiter=",", usecols=numeric, ndmin=2,
                              dtype=np.float64, comments=None) if numeric else None)
            cells = (np.char.strip(np.loadtxt(io.StringIO(text), delimiter=",", usecols=words,
                                              ndmin=2, dtype=str, comments=None))
                     if words else None)
        # a row of another width fails above; one of too few columns for the largest
        # index too, but a wider one would not: counted here
        if any(line.count(",") != len(attrs) - 1 for line in text.split("\n")):
            return None
    except ValueError:
        return None
    blocks, ci = [], 0
    for k in keep:
        if attrs[k].kind == "nominal":
            col = cells[:, words.index(k)]
            hot = col[:, None] == np.asarray(attrs[k].values)[None, :]
            if not hot.any(axis=1).all():
                return None  # an undeclared value: the loop names it
            blocks.append(hot.astype(np.float64))
        else:
            blocks.append(num[:, ci:ci + 1])
            ci += 1
    X = np.hstack(blocks)
    if not np.all(np.isfinite(X)):
        return None  # the loop names the cell
    values = None if label is None else cells[:, words.index(label)].tolist()
    return X, values, _feature_names(attrs, keep), linenos


def _at_once(rows, attrs, keep) -> np.ndarray:
    """The feature matrix of rows without a missing value, column block by column block."""
    numeric = [k for k in keep if attrs[k].kind != "nominal"]
    values = np.array([[row[k] for k in numeric] for _, row, _ in rows], dtype=np.float64)
    values = values.reshape(len(rows), len(numeric))
    blocks, c = [], 0
    for k in keep:
        if attrs[k].kind == "nominal":
            code = {v: i for i, v in enumerate(attrs[k].values)}
            hot = np.zeros((len(rows), len(code)))
            hot[np.arange(len(rows)), [code[row[k]] for _, row, _ in rows]] = 1.0
            blocks.append(hot)
        else:
            blocks.append(values[:, c:c + 1])
            c += 1
    return np.hstack(blocks)


def _features(path, rows, attrs, columns, missing: str) -> np.ndarray:
    """The feature matrix, value by value: each column (attribute index, None or the nominal
    value it marks) of each row; the first value that does not fit named with its line."""
    X = np.zeros((len(rows), len(columns)))
    for i, (ln, row, _) in enumerate(rows):
        for c, (k, v) in enumerate(columns):
            value = row[k]
            if v is None:
                X[i, c] = _number_of(value, attrs[k], path, ln, missing=missing)
            elif value is None:
                raise DataFileError(path, ln, f"attribute {attrs[k].name}: a missing value "
                                    f"('?'); {missing}")
            elif value not in attrs[k].values:
                raise DataFileError(path, ln, f"attribute {attrs[k].name}: {value!r} is not "
                                    f"one of the values declared on line {attrs[k].line}.")
            else:
                X[i, c] = float(value == v)
    return X


def _objects(path, rows, attrs, keep, objects: str, note):
    """Series (numeric attributes, one series a row) or strings (one attribute) of the rows."""
    if objects == "strings":
        if len(keep) != 1 or attrs[keep[0]].kind not in ("string", "nominal"):
            raise DataFileError(path, None, f"has {len(keep)} attributes besides the class "
                                f"({', '.join(attrs[k].name for k in keep[:6])}); strings need "
                                "one string attribute and the class.")
        out = []
        for ln, row, _ in rows:
            if row[keep[0]] is None:
                raise DataFileError(path, ln, "a missing string ('?'); remove the row.")
            out.append(row[keep[0]])
        return out
    if [attrs[k].kind for k in keep] == ["relational"]:
        return _multivariate(path, rows, attrs[keep[0]], keep[0], note)
    bad = [attrs[k] for k in keep if attrs[k].kind != "numeric"]
    if bad:
        raise DataFileError(path, bad[0].line, f"attribute {bad[0].name!r} is {bad[0].kind}; "
                            "a series is numeric attributes (one point each) and the class.")
    series, padded = [], 0
    for ln, row, _ in rows:
        values = np.empty(len(keep))
        for c, k in enumerate(keep):
            value = row[k]
            values[c] = np.nan if value is None else _number_of(
                value, attrs[k], path, ln, missing="")
        series.append(unpadded(path, ln, values))
        padded += series[-1].size < values.size
    if padded:
        note(f"{padded} of the {len(series)} series end in '?': the UCR archive's padding of "
             "shorter series (read as series of their own lengths; DTW compares unequal "
             "lengths).")
    if len({len(s) for s in series}) == 1:
        return np.asarray(series)
    return series


def _multivariate(path, rows, attr: Attribute, k: int, note):
    """Series of several channels, one a row: a relational value holds one line of points a
    channel (the UEA archive's ARFF); a series shorter than the attribute's points ends in
    '?' on every channel, the padding, which is not read."""
    series, padded, channels = [], 0, None
    for ln, row, _ in rows:
        value = row[k]
        if value is None:
            raise DataFileError(path, ln, f"{attr.name}: a missing series ('?').")
        cells = [c.split(",") for c in value.split("\n") if c.strip()]
        if not cells or len({len(c) for c in cells}) != 1:
            raise DataFileError(path, ln, f"{attr.name}: its channels hold different numbers "
                                "of points (or none); every channel of a series has as many "
                                f"(here {attr.values[0]}, '?' for the padding).")
        try:
            A = np.array([[np.nan if v.strip() == "?" else number(v) for v in c]
                          for c in cells], dtype=np.float64)
        except ValueError:
            bad = next(v for c in cells for v in c if v.strip() != "?" and not _is_number(v))
            raise DataFileError(path, ln, f"{attr.name}: {bad.strip()!r} is not a number."
                                ) from None
        if channels is None:
            channels = A.shape[0]
        elif A.shape[0] != channels:
            raise DataFileError(path, ln, f"{attr.name}: {A.shape[0]} channels where the first "
                                f"row has {channels}.")
        # the padding: the last points, '?' on every channel
        seen = np.flatnonzero(~np.isnan(A).all(axis=0))
        end = int(seen[-1]) + 1 if seen.size else 0
        if end == 0:
            raise DataFileError(path, ln, f"{attr.name}: every point is '?': an empty series.")
        if not np.isfinite(A[:, :end]).all():
            c, j = (int(v) for v in np.argwhere(~np.isfinite(A[:, :end]))[0])
            raise DataFileError(path, ln, f"{attr.name}: a missing or infinite point at point "
                                f"{j + 1} of channel {c + 1}; only the padding at the end of "
                                "every channel may be '?'.")
        padded += end < A.shape[1]
        series.append(A[:, :end])
    if padded:
        note(f"{padded} of the {len(series)} series end in '?': the padding of shorter series "
             "(read as series of their own lengths; DTW compares unequal lengths).")
    if len({s.shape[1] for s in series}) == 1:
        return np.stack(series)
    return series


def _is_number(text: str) -> bool:
    try:
        number(text)
    except ValueError:
        return False
    return True
