"""The explorer's HTML page: one file with its data, script and style inline."""

from __future__ import annotations

import html
import json
from importlib import resources

from .. import __version__


def _asset(name: str) -> str:
    return resources.files(__package__).joinpath(name).read_text(encoding="utf-8")


def _json(obj) -> str:
    """JSON inside a <script> element: no ``<``, ``>`` or ``&`` at all (written as the JSON
    escapes ``\\u003c``, ``\\u003e``, ``\\u0026``), so neither ``</script>`` nor
    ``<!--<script`` in a label or title can end or swallow the element; NaN is refused
    (the browser's JSON.parse would reject it)."""
    text = json.dumps(obj, separators=(",", ":"), allow_nan=False)
    return text.replace("<", "\\u003c").replace(">", "\\u003e").replace("&", "\\u0026")


def _live_switch(payload: dict) -> str:
    if not payload.get("live"):
        return ""
    return ('<p class="live-switch"><label><input type="checkbox" id="live-toggle" disabled> '
            "<strong>Live</strong>: compute in this page -- click to add a point "
            "(shift-click: the other class), drag to move, right-click to delete; with the "
            "plane focused, arrow keys move a cursor, Enter adds, Delete removes</label></p>\n")


def render_page(payload: dict) -> str:
    """The page for the explorer's ``payload`` (kernels, frames, grid, inputs)."""
    title = html.escape(payload["title"])
    return f"""<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="generator" content="indefsvm {__version__}">
<title>{title}</title>
<style>
{_asset("page.css")}
</style>
</head>
<body>
<header>
<h1>{title}</h1>
<p class="sub">Every frame was computed by indefsvm: move a slider (or focus it and use the
arrow keys) to change a kernel parameter or C, and switch the remedy.</p>
</header>
<main id="explorer">
{_live_switch(payload)}<section id="controls" aria-label="controls"></section>
<section id="live-controls" aria-label="live controls"></section>
<p id="caption" role="status" aria-live="polite"></p>
<p id="change" aria-live="polite"></p>
<section id="panels">
<figure id="panel-spectrum"><svg id="spectrum" role="img"></svg>
<figcaption>Eigenvalues of the centred kernel JKJ, largest first (they give the signature
and the embedding); symmetric log scale.</figcaption></figure>
<figure id="panel-plane"><svg id="plane" role="img"></svg>
<figcaption>The data on two axes of the pseudo-Euclidean embedding (Haasdonk 2005,
Prop. 1), the convex hulls of the classes and the hulls reduced by mu = 2C / sum(alpha),
their closest points z+ and z-, w = z+ - z- and Mw (Prop. 7). The decision line is the
section of the convex-hull classifier's boundary with this plane.</figcaption></figure>
<figure id="panel-input"><svg id="input" role="img"></svg>
<figcaption>The SVM's decision function over the input plane; the black line is f = 0,
support vectors are ringed.</figcaption></figure>
<section id="readouts-section" aria-label="readouts">
<h2>Readouts</h2>
<table id="readouts"><tbody></tbody></table>
</section>
</section>
</main>
<footer>indefsvm {__version__}: <code>isvm.explore(...)</code>. References: Haasdonk (2005),
Feature space interpretation of SVMs with indefinite kernels; Lin and Lin (2003), A study on
sigmoid kernels for SVM and the training of non-PSD kernels by SMO-type methods.</footer>
<script type="application/json" id="explorer-data">{_json(payload)}</script>
<script>
{_asset("live.js") if payload.get("live") else ""}
{_asset("page.js")}
</script>
</body>
</html>
"""
