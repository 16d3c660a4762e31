"""Self-contained HTML pages of results, figures as inline PNG: the kernel check, the fit
and the sanity report of ``indefsvm report``, the comparison of ``indefsvm compare`` (private
module; it sits on top beside ``plotting``, which it imports, and only the command line
imports it).
"""

from __future__ import annotations

import base64
import html
import io
import time


def _head(title: str, data_desc: str) -> str:
    """The start of a page: title, style, the data line."""
    return f"""<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8"><title>{html.escape(title)}</title>
<style>
body {{ font-family: sans-serif; max-width: 60em; margin: 2em auto; line-height: 1.4; }}
table {{ border-collapse: collapse; margin: 0.5em 0; }}
td, th {{ border: 1px solid #ccc; padding: 0.2em 0.6em; text-align: left; }}
figure img {{ max-width: 100%; }}
</style></head><body>
<h1>{html.escape(title)}</h1>
<p>{html.escape(data_desc)}. Generated {time.strftime('%Y-%m-%d %H:%M:%S')} by indefsvm.</p>
"""


def _png(fig) -> str:
    buf = io.BytesIO()
    fig.savefig(buf, format="png", dpi=110, bbox_inches="tight")
    return base64.b64encode(buf.getvalue()).decode("ascii")


def write_html(path, *, title, kernel_report, model, sanity, data_desc,
               distance_report=None) -> str:
    """Write the report to ``path`` and return the path. With ``distance_report`` (the data
    were distances) a section on the distances and their gamma profile comes first."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    from .plotting import plot_convergence, plot_gamma_profile, plot_spectrum

    figures = []
    distance_section = ""
    if distance_report is not None:
        distance_section = ("<h2>0. The distances (before the kernel)</h2>"
                            + distance_report._repr_html_())
        if distance_report.gamma_profile:
            fig = plot_gamma_profile(distance_report)
            figures.append(("Gamma profile: negative mass of exp(-gamma D^2)", _png(fig)))
            plt.close(fig)
    if kernel_report is not None and kernel_report.spectrum.eigenvalues is not None:
        fig = plot_spectrum(kernel_report)
        figures.append(("Spectrum of K and of the centred kernel (signature)", _png(fig)))
        plt.close(fig)
    results = getattr(model, "solver_results_", None) or []
    if results:
        fig, ax = plt.subplots(figsize=(6, 4))
        for k, res in enumerate(results):
            plot_convergence(res.history, ax=ax, label=f"problem {k + 1}")
        ax.set_title("SMO objective F(alpha) by iteration (non-increasing, Lemma 3)")
        figures.append(("Convergence", _png(fig)))
        plt.close(fig)
    fit_rows = "".join(
        f"<tr><td>{k + 1}</td><td>{html.escape(r.status)}</td><td>{r.n_iter}</td>"
        f"<td>{r.objective:.10g}</td><td>{r.kkt_gap:.3g}</td><td>{r.n_sv}</td>"
        f"<td>{r.n_bounded}</td><td>{r.n_concave_steps}</td></tr>"
        for k, r in enumerate(results))
    check = (kernel_report._repr_html_() if kernel_report is not None else
             "<p>Not computed for a landmark model, which never forms its kernel: "
             "<code>indefsvm check</code> on the training data checks it.</p>")
    training = (f"""<table><tr><th>problem</th><th>status</th><th>iterations</th>
<th>objective F(alpha)</th><th>KKT gap m - M</th><th>#SV</th><th>#bounded SV</th>
<th>concave steps</th></tr>
{fit_rows}</table>""" if results else
                f"<p>{html.escape(type(model).__name__)} has no SMO history: its solver's "
                "result is in the sanity report below.</p>")
    figs = "".join(f"<figure><img alt='{html.escape(cap)}' src='data:image/png;base64,{b64}'>"
                   f"<figcaption>{html.escape(cap)}</figcaption></figure>"
                   for cap, b64 in figures)
    page = _head(title, data_desc) + distance_section + f"""
<h2>1. Kernel check (before training)</h2>
{check}
<h2>2. Training</h2>
{training}
<h2>3. Sanity report (after training): w'Mw, bounded SVs, stationarity</h2>
{sanity._repr_html_()}
<h2>4. Figures</h2>
{figs}
</body></html>
"""
    with open(path, "w", encoding="utf-8") as fh:
        fh.write(page)
    return str(path)


def write_compare_html(path, *, title, comparison, K, data_desc) -> str:
    """The remedies comparison as one page: table, recommendation, figure."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    from .plotting import plot_remedies

    fig = plot_remedies(comparison, K)
    b64 = _png(fig)
    plt.close(fig)
    page = _head(title, data_desc) + f"""{comparison._repr_html_()}
<figure><img alt='spectra and errors' src='data:image/png;base64,{b64}'>
<figcaption>Left: the spectrum of K before and after each fix. Right: test error of each
method over the folds (mean and standard deviation).</figcaption></figure>
</body></html>
"""
    with open(path, "w", encoding="utf-8") as fh:
        fh.write(page)
    return str(path)
