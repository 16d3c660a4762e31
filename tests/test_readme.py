"""The README's first lines are the two set-up commands, and its Python example runs."""

import pathlib

README = pathlib.Path(__file__).parent.parent / "README.md"


def test_first_lines_are_the_two_commands():
    text = README.read_text()
    block = text.split("```bash\n", 1)[1].split("```", 1)[0].strip().splitlines()
    assert block[0].startswith("pip install . && indefsvm fit --dataset heart")
    assert block[1] == 'pip install ".[test]" && pytest'
    ci = (README.parent / ".ci" / "run").read_text()
    assert block[1] in ci.splitlines()


def test_python_example_runs(capsys):
    code = README.read_text().split("```python\n", 1)[1].split("```", 1)[0]
    exec(compile(code, "README.md", "exec"), {})
    out = capsys.readouterr().out
    assert "Kernel check" in out and "Sanity report" in out and "converged" in out
    assert "Distance check" in out
