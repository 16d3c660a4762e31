"""Text and HTML rendering shared by the reports (private): a two-column table, then
numbered notes."""

from __future__ import annotations

import html

#: what each verdict of a sanity report means, in its first row
VERDICT_WORDS = {
    "sensible": "a stationary point with w'Mw > 0",
    "not stationary": "the KKT gap is above tol: the solver stopped early",
    "counter-intuitive": "a stationary point with w'Mw <= 0 (Haasdonk 2005, §7.4)",
    "undecided": "the sign of w'Mw is not told at the features' precision",
}


def verdict_row(verdict: str) -> tuple[str, str]:
    """The first row of a sanity report: its verdict and what it means (the report opened
    with the objective, and the reading came last or not at all)."""
    return ("verdict", f"{verdict.upper()}: {VERDICT_WORDS[verdict]}")


def render_text(title: str, rows, notes) -> str:
    """``title``, an underline, the aligned ``(name, value)`` rows, a blank line, the notes."""
    width = max(len(k) for k, _ in rows)
    lines = [title, "-" * len(title)]
    lines += [f"{k:<{width}}  {v}" for k, v in rows]
    lines.append("")
    lines += [f"{i}. {note}" for i, note in enumerate(notes, 1)]
    return "\n".join(lines)


def render_html(title: str, rows, notes) -> str:
    """The same as a ``<table>`` and an ordered list, escaped."""
    body = "".join(f"<tr><th style='text-align:left'>{html.escape(k)}</th>"
                   f"<td>{html.escape(v)}</td></tr>" for k, v in rows)
    items = "".join(f"<li>{html.escape(n)}</li>" for n in notes)
    return f"<div><h4>{html.escape(title)}</h4><table>{body}</table><ol>{items}</ol></div>"


class TextHTML:
    """A notebook's view of a small result (its ``_repr_html_``): its ``__str__``, escaped,
    its lines kept -- the reports' tables are for the reports; these results are a line or
    two."""

    def _repr_html_(self) -> str:
        return f"<pre>{html.escape(str(self))}</pre>"
