"""The summary of ``indefsvm fit`` (``cli/_summary.py``): one object for the four fit paths,
its text, its document and its notebook table from the same fields, one printer."""

from __future__ import annotations

import json

from indefsvm.cli import main
from indefsvm.cli._summary import FitSummary


def test_every_path_prints_its_problems_through_one_printer():
    """The SMO's rows and the landmark model's are printed by one printer from their JSON
    keys: a key a row lacks is no line; the decomposition's passes are working-set steps."""
    smo = {"pair": ["a", "b"], "status": "converged", "iterations": 12, "objective": -1.5,
           "kkt_gap": 0.0004, "n_sv": 7, "n_bounded_sv": 3, "concave_steps": 2, "b": 0.25}
    landmark = {"pair": ["a", "b"], "status": "converged", "passes": 9,
                "solver": "decomposition", "kkt_gap": 0.001, "n_sv": 5, "n_bounded_sv": 1,
                "b": -0.5}
    summary = FitSummary({"problems": [smo, {**smo, "pair": None}, landmark],
                          "fit_seconds": 0.5, "training_accuracy": 1.0, "warnings": []})
    assert summary.head_lines()[:-2] == [
        "pair        a vs b: converged", "  iterations        12",
        "  objective F(a)    -1.5", "  KKT gap m - M     0.0004",
        "  #SV / #bounded SV 7 / 3", "  concave steps     2 (sub-problems with a_ij <= 0)",
        "  bias b            0.25",
        "solution    converged", "  iterations        12", "  objective F(a)    -1.5",
        "  KKT gap m - M     0.0004", "  #SV / #bounded SV 7 / 3",
        "  concave steps     2 (sub-problems with a_ij <= 0)", "  bias b            0.25",
        "pair        a vs b: converged", "  working-set steps 9", "  KKT gap m - M     0.001",
        "  #SV / #bounded SV 5 / 1", "  bias b            -0.5"]


def test_each_fit_path_prints_its_summary_and_its_document_holds_the_same(
        tmp_path, capsys, monkeypatch):
    """The text of every fit path is the summary's ``str`` (printed in two parts, around
    the cross-validation), ``--json`` its ``to_dict()``, and its notebook table says the
    same rows."""
    import html

    from test_cli_one_finish import fit_paths

    paths = fit_paths(tmp_path)
    seen = []
    real = FitSummary.set_cv

    def spy(self, *a):
        seen.append(self)
        return real(self, *a)

    monkeypatch.setattr(FitSummary, "set_cv", spy)  # every path cross-validates with --cv 2
    for name, argv in paths.items():
        assert main(["fit", *argv, "--cv", "2", "--seed", "0"]) == 0, name
        out = capsys.readouterr().out
        summary = seen[-1]
        assert out.rstrip("\n") == str(summary), name
        assert [label for label, _ in summary.rows][:2] == ["data", "model"]
        assert summary.fields["cv_accuracy_mean"] is not None
        assert "2-fold CV accuracy" in out
        table = summary._repr_html_()
        assert all(html.escape(text) in table for _, text in summary.rows), name
        assert main(["fit", *argv, "--cv", "2", "--seed", "0", "--json"]) == 0
        document = json.loads(capsys.readouterr().out)
        assert document == json.loads(json.dumps(seen[-1].to_dict())), name
        assert set(document) == set(summary.to_dict()), name
