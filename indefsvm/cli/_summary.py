"""What a fit of the command line found, one object for its four paths (the SMO on a kernel,
``--remedy``, ``--nystroem``, ``--metric``): the JSON document's fields and the rows that say
them to people, rendered by one printer -- as :class:`indefsvm.diagnostics.KernelReport` is
-- as text (``__str__``), a document (``to_dict()``) and a notebook's table
(``_repr_html_``)."""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np

from ._family import score_lines

__all__ = ["FitSummary", "numbers", "shown"]


def numbers(params: dict) -> dict:
    """Kernel parameters for JSON: numbers as floats (a bool stays a bool)."""
    return {k: (float(v) if isinstance(v, (int, float, np.floating))
                and not isinstance(v, bool) else v) for k, v in params.items()}


def shown(label) -> str:
    """A class label for the terminal: a control character (an escape sequence in a crafted
    file's label) written as Python writes it in a string, not sent to the terminal."""
    text = str(label)
    return text if text.isprintable() else "".join(
        c if c.isprintable() else repr(c)[1:-1] for c in text)


#: a problem's lines for people, from the keys of its JSON row (the SMO's and the landmark
#: model's rows: a key a row lacks is no line): label, keys, format
_PROBLEM_LINES = (
    ("iterations", ("iterations",), "{}"),
    ("passes", ("passes",), "{}"),  # the landmark model's; its "solver" names what they count
    ("objective F(a)", ("objective",), "{:.10g}"),
    ("KKT gap m - M", ("kkt_gap",), "{:.3g}"),
    ("#SV / #bounded SV", ("n_sv", "n_bounded_sv"), "{} / {}"),
    ("concave steps", ("concave_steps",), "{} (sub-problems with a_ij <= 0)"),
    ("bias b", ("b",), "{:.6g}"),
)


def _problem_lines(row: dict) -> list[str]:
    """One one-vs-one problem's solution (or the one dual's) for people."""
    lines = [f"pair        {shown(row['pair'][0])} vs {shown(row['pair'][1])}: {row['status']}"
             if row["pair"] is not None else f"solution    {row['status']}"]
    for label, keys, form in _PROBLEM_LINES:
        if all(k in row for k in keys):
            if label == "passes" and row.get("solver") == "decomposition":
                label = "working-set steps"
            lines.append(f"  {label:<18}" + form.format(*(row[k] for k in keys)))
    return lines


@dataclass
class FitSummary:
    """The result of ``indefsvm fit``.

    Parameters
    ----------
    fields : dict
        The JSON document (``--json``), in its order: the path's own keys, then those every
        path has (``class_weight``, ``fit_seconds``, the training scores, ``cv_folds``, the
        cross-validation's mean and spread, ``model_file``, ``warnings``).
    rows : list of (str or None, str)
        The head of the text result, each a label and its text (``("data", "heart: ...")``,
        ``("model", "IndefiniteSVC(...)")``; a label None: the text alone), then the
        problems of ``fields["problems"]``.
    notes : list of str
        What the user should know of the result (a model below chance); also in
        ``fields["notes"]``.
    """

    fields: dict
    rows: list = field(default_factory=list)
    notes: list = field(default_factory=list)

    @property
    def cv_key(self) -> str:
        """``cv_r2`` for a regression, else ``cv_accuracy``: the prefix of the CV's keys."""
        return "cv_r2" if "training_r2" in self.fields else "cv_accuracy"

    def add_note(self, note: str) -> None:
        """Say ``note`` after the scores (and in the document's ``notes``)."""
        self.notes.append(note)
        self.fields["notes"] = list(self.notes)

    def set_cv(self, scores, n_samples: int) -> None:
        """The cross-validation's fold scores, on ``n_samples`` of the samples."""
        self.fields[f"{self.cv_key}_mean"] = float(np.mean(scores))
        self.fields[f"{self.cv_key}_std"] = float(np.std(scores))
        self.fields["cv_samples"] = n_samples

    # -- text ---------------------------------------------------------------------------

    def head_lines(self) -> list[str]:
        """Everything the fit itself said: its rows, problems, class weights, time, training
        scores, notes and the model file -- printed before the cross-validation runs."""
        f = self.fields
        lines = [text if label is None else f"{label:<11} {text}" for label, text in self.rows]
        for row in f.get("problems") or ():
            lines += _problem_lines(row)
        weights = f.get("class_weight")
        if weights is not None:
            # given, so said: C of each class (LIBSVM's -wi); the bound of each sample is
            # C x weight (nu-SVC, without C: 1/n x weight)
            bound = "C" if "C" in f else "the bound"
            lines.append("class weight " + (
                f"balanced ({bound} x n / (n_classes n_c))" if weights == "balanced" else
                ", ".join(f"{k}: {v:g}" for k, v in weights.items())
                + f" (x {bound}; others 1)"))
        lines.append(f"fit time    {f['fit_seconds']:.3f} s")
        lines += score_lines(f)
        lines += [f"note: {note}" for note in self.notes]
        if f.get("model_file"):
            lines.append(f"model saved to {f['model_file']}")
        return lines

    def tail_lines(self) -> list[str]:
        """The cross-validation's line (when it ran) and the fit's warnings."""
        f = self.fields
        lines = []
        mean = f.get(f"{self.cv_key}_mean")
        if mean is not None:
            r2 = self.cv_key == "cv_r2"
            std, n_cv = f[f"{self.cv_key}_std"], f["cv_samples"]
            lines.append(
                f"{f['cv_folds']}-fold CV "
                + (f"R^2 {mean:.4f} (+/- {std:.4f})" if r2 else
                   f"accuracy {100 * mean:.2f} % (+/- {100 * std:.2f})")
                + ("" if n_cv == f["n_samples"] else
                   f" on a {'' if r2 else 'stratified '}subsample of {n_cv}")
                + (" -- of the parameters the search chose on these data: optimistic"
                   if f.get("search") else ""))
        lines += [f"warning: {msg}" for msg in f["warnings"]]
        return lines

    def __str__(self) -> str:
        return "\n".join(self.head_lines() + self.tail_lines())

    def to_dict(self) -> dict:
        """The JSON document (``indefsvm fit --json``)."""
        return dict(self.fields)

    def _repr_html_(self) -> str:
        # (imported here: the diagnostics package imports scipy, which --help does without)
        from ..diagnostics._render import render_html

        rows = [(label or "", text) for label, text in self.rows]
        rows += [(k, str(v)) for k, v in self.fields.items()
                 if k not in ("problems", "warnings", "notes") and v is not None
                 and not isinstance(v, (dict, list))]
        return render_html("indefsvm fit", rows, self.notes + list(self.fields["warnings"]))
