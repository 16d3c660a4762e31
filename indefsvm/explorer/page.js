// indefsvm explorer: draws the frames indefsvm computed; in live mode (live.js) it computes
// the frame of the points on the page itself, with the library's algorithms.
(function () {
  "use strict";
  var D = JSON.parse(document.getElementById("explorer-data").textContent);
  var NS = "http://www.w3.org/2000/svg";
  var COL = { pos: "#1f77b4", neg: "#d62728", negeig: "#e6850e", zero: "#999999" };
  var paramNames = Object.keys(D.grid.params);
  var axes = paramNames.map(function (k) { return { name: k, values: D.grid.params[k] }; });
  axes.push({ name: "C", values: D.grid.C });
  // the opening frame: Explorer.start (a sensible model with the best training accuracy),
  // else the middle of the grid (a page written before the field)
  var state = D.start ? { idx: D.start.idx.slice(), remedy: D.start.remedy } :
    { idx: axes.map(function (a) { return Math.floor((a.values.length - 1) / 2); }), remedy: 0 };
  var previous = null;
  // what the panels draw: the explorer's points, or the live points (live mode)
  var view = { points: D.input ? D.input.points : null, labels: D.labels,
               box: D.input ? D.input.box : null, live: false };

  // -- small helpers ----------------------------------------------------------------------
  function el(tag, attrs, parent) {
    var e = document.createElementNS(NS, tag);
    for (var k in attrs) { if (attrs[k] !== null && attrs[k] !== undefined) e.setAttribute(k, attrs[k]); }
    if (parent) parent.appendChild(e);
    return e;
  }
  function text(parent, x, y, s, attrs) {
    var t = el("text", Object.assign({ x: x, y: y }, attrs || {}), parent);
    t.textContent = s;
    return t;
  }
  function fmt(v) {
    if (v === null || v === undefined) return "n/a";
    if (typeof v === "boolean") return v ? "yes" : "no";
    if (typeof v !== "number") return String(v);
    if (Number.isInteger(v)) return String(v);
    var a = Math.abs(v);
    if (a !== 0 && (a < 1e-3 || a >= 1e5)) return v.toExponential(3);
    return String(Number(v.toPrecision(4)));
  }
  function scale(lo, hi, a, b) {
    var d = (hi - lo) || 1;
    return function (v) { return a + (v - lo) / d * (b - a); };
  }
  function clear(svg) { while (svg.firstChild) svg.removeChild(svg.firstChild); }
  function frameIndex() {
    // the frames' order: kernel parameters outermost, then the remedy, then C
    var i = 0;
    for (var a = 0; a < paramNames.length; a++) i = i * axes[a].values.length + state.idx[a];
    i = i * D.grid.remedies.length + state.remedy;
    var c = axes.length - 1;
    return i * axes[c].values.length + state.idx[c];
  }
  function current() {
    var f = D.frames[frameIndex()];
    return Object.assign({}, D.kernels[f.kernel], f);
  }

  // -- controls -----------------------------------------------------------------------------
  function buildControls() {
    var box = document.getElementById("controls");
    axes.forEach(function (a, i) {
      var div = document.createElement("div");
      div.className = "control";
      var id = "slider-" + a.name;
      var label = document.createElement("label");
      label.htmlFor = id;
      label.textContent = a.name;
      var input = document.createElement("input");
      input.type = "range"; input.id = id; input.min = 0; input.max = a.values.length - 1;
      input.step = 1; input.value = state.idx[i];
      input.setAttribute("aria-label", a.name + " (" + a.values.length + " values)");
      var out = document.createElement("output");
      out.id = "value-" + a.name; out.htmlFor = id;
      input.addEventListener("input", function () {
        state.idx[i] = Number(input.value); render();
      });
      div.appendChild(label); div.appendChild(input); div.appendChild(out);
      box.appendChild(div);
    });
    var fs = document.createElement("fieldset");
    var lg = document.createElement("legend");
    lg.textContent = "remedy";
    fs.appendChild(lg);
    D.grid.remedies.forEach(function (r, i) {
      var lab = document.createElement("label");
      var input = document.createElement("input");
      input.type = "radio"; input.name = "remedy"; input.value = r; input.id = "remedy-" + r;
      input.checked = i === state.remedy;
      input.addEventListener("change", function () { state.remedy = i; render(); });
      lab.appendChild(input);
      lab.appendChild(document.createTextNode(" " + r));
      fs.appendChild(lab);
    });
    box.appendChild(fs);
  }

  // -- readouts -------------------------------------------------------------------------------
  var READOUTS = [
    ["signature", "signature (p, q, z) of JKJ", function (v) { return "(" + v.join(", ") + ")"; }],
    ["negative_mass", "negative mass", function (v) { return (100 * v).toFixed(2) + " %"; }],
    ["lam_min", "lambda_min of K"], ["lam_max", "lambda_max of K"],
    ["class_mean_sqdist", "class-mean sq. distance c'Kc"],
    ["kernel_verdict", "check_kernel verdict"],
    ["w_M_w", "w'Mw, all p + q axes (sanity_report)"],
    ["sanity_verdict", "sanity_report verdict"],
    ["converged", "SMO converged"], ["n_iter", "SMO iterations"],
    ["kkt_gap", "KKT gap"], ["objective", "dual objective F(alpha)"],
    ["n_sv", "support vectors"], ["n_bounded", "bounded support vectors"],
    ["train_accuracy", "training accuracy", function (v) { return (100 * v).toFixed(1) + " %"; }],
    ["ch_mu", "hull reduction mu = 2C / sum(alpha)"]
  ];
  function renderReadouts(f) {
    var body = document.querySelector("#readouts tbody");
    if (!body.firstChild) {
      READOUTS.forEach(function (r) {
        var tr = document.createElement("tr");
        var th = document.createElement("th"); th.textContent = r[1];
        var td = document.createElement("td"); td.id = "readout-" + r[0];
        td.setAttribute("data-key", r[0]);
        tr.appendChild(th); tr.appendChild(td); body.appendChild(tr);
      });
    }
    READOUTS.forEach(function (r) {
      var td = document.getElementById("readout-" + r[0]);
      var v = f[r[0]];
      td.setAttribute("data-value", JSON.stringify(v));
      td.textContent = r[2] ? r[2](v) : fmt(v);
      var bad = (r[0] === "w_M_w" && v <= 0) || (r[0] === "sanity_verdict" && v !== "sensible") ||
                (r[0] === "converged" && !v);
      var good = (r[0] === "w_M_w" && v > 0) || (r[0] === "sanity_verdict" && v === "sensible");
      td.className = bad ? "bad" : (good ? "good" : "");
    });
  }

  function describeChange(a, b) {
    if (!a) return "";
    var what = [];
    paramNames.forEach(function (k) {
      if (a.params[k] !== b.params[k]) what.push(k + " " + fmt(a.params[k]) + " \u2192 " + fmt(b.params[k]));
    });
    if (a.C !== b.C) what.push("C " + fmt(a.C) + " \u2192 " + fmt(b.C));
    if (a.remedy !== b.remedy) what.push("remedy " + a.remedy + " \u2192 " + b.remedy);
    if (!what.length) return "";
    var effects = [];
    if (a.signature.join() !== b.signature.join())
      effects.push("signature (" + a.signature.slice(0, 2).join(", ") + ") \u2192 (" +
                   b.signature.slice(0, 2).join(", ") + ")");
    if ((a.class_mean_sqdist > 0) !== (b.class_mean_sqdist > 0))
      effects.push("c'Kc changed sign (" + fmt(a.class_mean_sqdist) + " \u2192 " + fmt(b.class_mean_sqdist) + ")");
    if ((a.w_M_w > 0) !== (b.w_M_w > 0))
      effects.push("w'Mw changed sign (" + fmt(a.w_M_w) + " \u2192 " + fmt(b.w_M_w) + ")");
    else effects.push("w'Mw " + fmt(a.w_M_w) + " \u2192 " + fmt(b.w_M_w));
    if (a.sanity_verdict !== b.sanity_verdict)
      effects.push("the model went from " + a.sanity_verdict + " to " + b.sanity_verdict);
    if (a.kernel_verdict !== b.kernel_verdict)
      effects.push("check_kernel: " + a.kernel_verdict + " \u2192 " + b.kernel_verdict);
    return "Changed " + what.join(", ") + ": " + effects.join("; ") + ".";
  }

  // -- the spectrum -----------------------------------------------------------------------
  // symlog ticks at readable values: 0 and +-10^k from the linear part up to the largest
  // |lambda| (at most three a side, the largest powers kept)
  function spectrumTicks(big, lin) {
    var out = [0], lo = Math.ceil(Math.log10(lin) - 1e-9), hi = Math.floor(Math.log10(big) + 1e-9);
    var step = Math.max(1, Math.ceil((hi - lo + 1) / 3));
    for (var k = hi; k >= lo; k -= step) {
      var v = Number(Math.pow(10, k).toPrecision(1));
      out.push(v, -v);
    }
    return out;
  }
  // a power of ten as people write it: 0.001 ... 1000, else 1e-5, -1e6
  function tickText(v) {
    if (v === 0) return "0";
    var k = Math.round(Math.log10(Math.abs(v)));
    return k >= -3 && k <= 4 ? String(v) : (v < 0 ? "-" : "") + "1e" + k;
  }
  // index ticks: 1 and multiples of a step of 1, 2 or 5 x 10^k, about five of them
  function indexTicks(n) {
    var raw = Math.max(n / 5, 1), p = Math.pow(10, Math.floor(Math.log10(raw)));
    var step = [1, 2, 5, 10].map(function (m) { return m * p; })
      .filter(function (s) { return s >= raw; })[0];
    var out = [1];
    for (var k = step; k <= n; k += step) if (k > 1) out.push(k);
    return out;
  }
  function renderSpectrum(f) {
    var svg = document.getElementById("spectrum");
    clear(svg);
    var W = 440, H = 330, L = 58, R = 12, T = 30, B = 78;
    svg.setAttribute("viewBox", "0 0 " + W + " " + H);
    svg.setAttribute("aria-label", "eigenvalue spectrum");
    var lam = f.spectrum, n = lam.length;
    var big = Math.max.apply(null, lam.map(Math.abs)) || 1;
    var lin = big * 1e-3;  // symmetric log: linear below 1e-3 max |lambda|
    function t(v) { return (v < 0 ? -1 : 1) * Math.log10(1 + Math.abs(v) / lin); }
    var top = t(big);
    var sy = scale(-top, top, H - B, T), sx = scale(0, Math.max(n - 1, 1), L, W - R);
    text(svg, L, 18, "spectrum of the centred kernel (" + n + " eigenvalues)", { "class": "panel-title" });
    el("line", { x1: L, x2: W - R, y1: sy(0), y2: sy(0), stroke: "#444", "stroke-dasharray": "4 3" }, svg);
    el("rect", { x: L, width: W - R - L, y: sy(t(f.zero_tol)), height: Math.max(sy(-t(f.zero_tol)) - sy(t(f.zero_tol)), 1),
                 fill: "#bbb", opacity: 0.5 }, svg);
    spectrumTicks(big, lin).forEach(function (v) {
      el("line", { x1: L - 4, x2: L, y1: sy(t(v)), y2: sy(t(v)), stroke: "#777" }, svg);
      text(svg, L - 6, sy(t(v)) + 3, tickText(v), { "class": "tick tick-y", "text-anchor": "end" });
    });
    el("line", { x1: L, x2: W - R, y1: H - B, y2: H - B, stroke: "#777" }, svg);
    indexTicks(n).forEach(function (k) {
      el("line", { x1: sx(k - 1), x2: sx(k - 1), y1: H - B, y2: H - B + 4, stroke: "#777" }, svg);
      text(svg, sx(k - 1), H - B + 13, String(k), { "class": "tick tick-x", "text-anchor": "middle" });
    });
    el("line", { x1: L, x2: L, y1: T, y2: H - B, stroke: "#777" }, svg);
    text(svg, 14, (T + H - B) / 2, "eigenvalue (symlog)", { "class": "axis-label", "text-anchor": "middle",
         transform: "rotate(-90 14 " + (T + H - B) / 2 + ")" });
    text(svg, (L + W - R) / 2, H - B + 26, "index, largest first", { "class": "axis-label", "text-anchor": "middle" });
    lam.forEach(function (v, i) {
      var c = v > f.zero_tol ? COL.pos : (v < -f.zero_tol ? COL.negeig : COL.zero);
      el("circle", { cx: sx(i), cy: sy(t(v)), r: n > 300 ? 1.6 : 2.6, fill: c }, svg);
    });
    var ly = H - B + 40;
    [[COL.pos, "positive (p = " + f.signature[0] + ")"], [COL.negeig, "negative (q = " + f.signature[1] + ")"],
     [COL.zero, "zero: |lambda| <= tol (z = " + f.signature[2] + ")"]].forEach(function (e, i) {
      var x = L + 6 + (i % 2) * 150, y = ly + Math.floor(i / 2) * 16;
      el("circle", { cx: x, cy: y, r: 4, fill: e[0] }, svg);
      text(svg, x + 8, y + 4, e[1], { "class": "legend-text" });
    });
    el("rect", { x: L, y: ly + 29, width: 14, height: 6, fill: "#bbb", opacity: 0.6 }, svg);
    text(svg, L + 20, ly + 36, "zero threshold tol = " + fmt(f.zero_tol) + " = n \u00b7 eps \u00b7 max |lambda| (dashed: 0)",
         { "class": "legend-text" });
  }

  // -- the pseudo-Euclidean plane ---------------------------------------------------------------
  function polyline(svg, pts, sx, sy, attrs) {
    if (!pts.length) return;
    var d = pts.map(function (p) { return sx(p[0]).toFixed(1) + "," + sy(p[1]).toFixed(1); }).join(" ");
    el("polygon", Object.assign({ points: d, fill: "none" }, attrs), svg);
  }
  function arrow(svg, x0, y0, x1, y1, colour, dash) {
    el("line", { x1: x0, y1: y0, x2: x1, y2: y1, stroke: colour, "stroke-width": 2.2,
                 "stroke-dasharray": dash || null }, svg);
    var a = Math.atan2(y1 - y0, x1 - x0), s = 9;
    var p = [[x1, y1], [x1 - s * Math.cos(a - 0.4), y1 - s * Math.sin(a - 0.4)],
             [x1 - s * Math.cos(a + 0.4), y1 - s * Math.sin(a + 0.4)]];
    el("polygon", { points: p.map(function (q) { return q.join(","); }).join(" "), fill: colour }, svg);
  }
  function marker(svg, kind, x, y, colour, size) {
    if (kind === "square") el("rect", { x: x - size, y: y - size, width: 2 * size, height: 2 * size, fill: colour, opacity: 0.85 }, svg);
    else if (kind === "plus") {
      el("path", { d: "M" + (x - size) + " " + y + "H" + (x + size) + "M" + x + " " + (y - size) + "V" + (y + size),
                   stroke: "#000", "stroke-width": 5 }, svg);
      el("path", { d: "M" + (x - size) + " " + y + "H" + (x + size) + "M" + x + " " + (y - size) + "V" + (y + size),
                   stroke: colour, "stroke-width": 3 }, svg);
    } else el("circle", { cx: x, cy: y, r: size, fill: colour, opacity: 0.85 }, svg);
  }
  function legend(svg, x, y, entries, cols) {
    var colW = 210;
    entries.forEach(function (e, i) {
      var cx = x + (i % cols) * colW, cy = y + Math.floor(i / cols) * 16;
      e[0](cx + 8, cy);
      text(svg, cx + 22, cy + 4, e[1], { "class": "legend-text" });
    });
  }
  function renderPlane(f) {
    var svg = document.getElementById("plane");
    clear(svg);
    var S = 360, L = 50, T = 34, W = L + S + 24, H = T + S + 130;
    svg.setAttribute("viewBox", "0 0 " + W + " " + H);
    svg.setAttribute("aria-label", "pseudo-Euclidean plane with hulls, w and Mw");
    var P = f.plane, lab = view.labels;
    // a square window that holds the points and the full hulls: equal axes, since
    // pseudo-Euclidean orthogonality is read off them
    var xs = P.map(function (p) { return p[0]; }), ys = P.map(function (p) { return p[1]; });
    f.hulls_full.forEach(function (h) { h.forEach(function (p) { xs.push(p[0]); ys.push(p[1]); }); });
    var x0 = Math.min.apply(null, xs), x1 = Math.max.apply(null, xs);
    var y0 = Math.min.apply(null, ys), y1 = Math.max.apply(null, ys);
    var half = 0.56 * Math.max(x1 - x0, y1 - y0, 1e-9), cx = (x0 + x1) / 2, cy = (y0 + y1) / 2;
    var sx = scale(cx - half, cx + half, L, L + S), sy = scale(cy - half, cy + half, T + S, T);
    el("rect", { x: L, y: T, width: S, height: S, fill: "#fafafa", stroke: "#ccc" }, svg);
    el("clipPath", { id: "plane-clip" }, svg).appendChild(el("rect", { x: L, y: T, width: S, height: S }));
    var g = el("g", { "clip-path": "url(#plane-clip)" }, svg);
    text(svg, L, 16, "pseudo-Euclidean plane: 2 of the p + q axes", { "class": "panel-title" });
    // not the readout's w'Mw (every axis): the part of it these two axes hold
    text(svg, L, 30, "w'Mw of w projected on this plane = " + fmt(f.plane_w_M_w) +
         " (all axes: " + fmt(f.w_M_w) + ")", { "class": "legend-text", id: "plane-wmw" });
    text(svg, L + S / 2, T + S + 18, "x: " + f.plane_axes[0] + " (lambda " + fmt(f.plane_eigenvalues[0]) + ")",
         { "class": "axis-label", "text-anchor": "middle" });
    text(svg, 14, T + S / 2, "y: " + f.plane_axes[1] + (f.plane_M[1] < 0 ? " (imaginary)" : ""),
         { "class": "axis-label", "text-anchor": "middle", transform: "rotate(-90 14 " + (T + S / 2) + ")" });
    // decision line: through the midpoint of z+ and z-, Euclidean normal Mw in this plane
    var mid = [(f.z_plus[0] + f.z_minus[0]) / 2, (f.z_plus[1] + f.z_minus[1]) / 2];
    var nrm = f.Mw;
    if (Math.abs(nrm[0]) + Math.abs(nrm[1]) > 0) {
      var dir = [-nrm[1], nrm[0]], far = 4 * half / Math.hypot(dir[0], dir[1]);
      el("line", { x1: sx(mid[0] - far * dir[0]), y1: sy(mid[1] - far * dir[1]),
                   x2: sx(mid[0] + far * dir[0]), y2: sy(mid[1] + far * dir[1]),
                   stroke: "#111", "stroke-width": 1.3 }, g);
    }
    polyline(g, f.hulls_full[0], sx, sy, { stroke: COL.pos, "stroke-dasharray": "2 3", "stroke-width": 1.2 });
    polyline(g, f.hulls_full[1], sx, sy, { stroke: COL.neg, "stroke-dasharray": "2 3", "stroke-width": 1.2 });
    polyline(g, f.hulls[0], sx, sy, { stroke: COL.pos, "stroke-width": 1.6 });
    polyline(g, f.hulls[1], sx, sy, { stroke: COL.neg, "stroke-width": 1.6 });
    var small = P.length > 300 ? 2 : 3.2;
    P.forEach(function (p, i) {
      marker(g, lab[i] > 0 ? "circle" : "square", sx(p[0]), sy(p[1]), lab[i] > 0 ? COL.pos : COL.neg, small);
    });
    f.support.forEach(function (i) {
      el("circle", { cx: sx(P[i][0]), cy: sy(P[i][1]), r: small + 3.2, fill: "none", stroke: "#000", "stroke-width": 0.9 }, g);
    });
    marker(g, "plus", sx(f.z_plus[0]), sy(f.z_plus[1]), COL.pos, 7);
    marker(g, "plus", sx(f.z_minus[0]), sy(f.z_minus[1]), COL.neg, 7);
    // w and Mw from the midpoint, drawn at a common length so that both are visible
    var mx = sx(mid[0]), my = sy(mid[1]);
    var len = Math.max(Math.hypot(sx(f.w[0]) - sx(0), sy(f.w[1]) - sy(0)), 1e-9);
    var k = 0.3 * S / len;
    var tip = function (v) { return [mx + k * (sx(v[0]) - sx(0)), my + k * (sy(v[1]) - sy(0))]; };
    var tw = tip(f.w), tm = tip(f.Mw);
    arrow(svg, mx, my, tw[0], tw[1], "#000");
    arrow(svg, mx, my, tm[0], tm[1], "#6a3d9a", "6 3");
    // labels beyond the arrow tips, pushed apart when the tips are close (w = Mw)
    function labelAt(t0, word, colour, side) {
      var dx = t0[0] - mx, dy = t0[1] - my, r = Math.hypot(dx, dy) || 1;
      var x = t0[0] + 14 * dx / r + side * 12 * (-dy / r), y = t0[1] + 14 * dy / r + side * 12 * (dx / r);
      text(svg, x, y + 4, word, { "class": "vec-label", fill: colour, "text-anchor": "middle" });
    }
    var close = Math.hypot(tw[0] - tm[0], tw[1] - tm[1]) < 24;
    labelAt(tw, "w", "#000", close ? -1 : 0);
    labelAt(tm, "Mw", "#6a3d9a", close ? 1 : 0);
    var sign = f.plane_w_M_w > 0 ? "in this plane w and Mw lie on the same side of the line"
                                 : "in this plane w and Mw lie on opposite sides of the line";
    text(svg, L + S / 2, T + S + 36, sign, { "class": "panel-title", "text-anchor": "middle",
         fill: f.plane_w_M_w > 0 ? "#1a7f37" : COL.neg });
    var c = D.classes;
    legend(svg, L, T + S + 56, [
      [function (x, y) { marker(svg, "circle", x, y, COL.pos, 3.5); }, "class " + c[1] + " (y = +1)"],
      [function (x, y) { marker(svg, "square", x, y, COL.neg, 3.2); }, "class " + c[0] + " (y = -1)"],
      [function (x, y) { el("circle", { cx: x, cy: y, r: 6, fill: "none", stroke: "#000" }, svg); }, "support vector"],
      [function (x, y) { marker(svg, "plus", x, y, "#888", 6); }, "closest points z+, z-"],
      [function (x, y) { el("line", { x1: x - 8, x2: x + 8, y1: y, y2: y, stroke: "#555", "stroke-dasharray": "2 3", "stroke-width": 1.3 }, svg); }, "convex hull (mu = 1)"],
      [function (x, y) { el("line", { x1: x - 8, x2: x + 8, y1: y, y2: y, stroke: "#555", "stroke-width": 1.6 }, svg); }, "reduced hull, mu = " + fmt(f.ch_mu)],
      [function (x, y) { el("line", { x1: x - 8, x2: x + 8, y1: y, y2: y, stroke: "#111", "stroke-width": 1.3 }, svg); }, "decision line (this plane)"],
      [function (x, y) { arrow(svg, x - 8, y, x + 8, y, "#000"); }, "w = z+ - z-"],
      [function (x, y) { arrow(svg, x - 8, y, x + 8, y, "#6a3d9a", "4 2"); }, "Mw (M = diag(" + f.plane_M.map(function (m) { return m > 0 ? "+1" : "-1"; }).join(", ") + "))"]
    ], 2);
  }

  // -- the input plane ------------------------------------------------------------------------
  function colour(v, vmax) {
    var t = Math.max(-1, Math.min(1, v / vmax));
    var a = Math.abs(t), base = t > 0 ? [31, 119, 180] : [214, 39, 40];
    var c = base.map(function (b) { return Math.round(255 - a * 0.55 * (255 - b)); });
    return "rgb(" + c.join(",") + ")";
  }
  function renderInput(f) {
    var panel = document.getElementById("panel-input");
    if (!view.points) { panel.style.display = "none"; return; }
    var svg = document.getElementById("input");
    clear(svg);
    var S = 360, L = 44, T = 34, W = L + S + 24, H = T + S + 64;
    svg.setAttribute("viewBox", "0 0 " + W + " " + H);
    svg.setAttribute("aria-label", "decision function over the input plane");
    var box = view.box, G = f.decision ? Math.round(Math.sqrt(f.decision.length)) : 0;
    var sx = scale(box[0][0], box[0][1], L, L + S), sy = scale(box[1][0], box[1][1], T + S, T);
    var dv = f.decision || [];
    var vmax = Math.max.apply(null, dv.map(Math.abs).concat([0])) || 1;
    var cw = S / Math.max(G - 1, 1);
    for (var r = 0; r < G; r++) for (var q = 0; q < G; q++) {
      // each value coloured over the cell centred on its grid point
      var x = L + q * cw - cw / 2, y = T + S - r * cw - cw / 2;
      el("rect", { x: Math.max(x, L), y: Math.max(y, T), width: cw + 0.6, height: cw + 0.6,
                   fill: colour(dv[r * G + q], vmax) }, svg);
    }
    el("rect", { x: L, y: T, width: S, height: S, fill: "none", stroke: "#ccc" }, svg);
    // f = 0 by marching squares on the grid
    var segs = [];
    function at(r, q) { return dv[r * G + q]; }
    function px(q) { return L + q * cw; }
    function py(r) { return T + S - r * cw; }
    for (r = 0; r < G - 1; r++) for (q = 0; q < G - 1; q++) {
      var c = [[r, q], [r, q + 1], [r + 1, q + 1], [r + 1, q]];
      var cross = [];
      for (var e = 0; e < 4; e++) {
        var a = c[e], b = c[(e + 1) % 4], va = at(a[0], a[1]), vb = at(b[0], b[1]);
        if ((va > 0) !== (vb > 0)) {
          var s = va / (va - vb);
          cross.push([px(a[1] + s * (b[1] - a[1])), py(a[0] + s * (b[0] - a[0]))]);
        }
      }
      for (e = 0; e + 1 < cross.length; e += 2) segs.push("M" + cross[e].join(" ") + "L" + cross[e + 1].join(" "));
    }
    if (segs.length) el("path", { d: segs.join(""), stroke: "#000", "stroke-width": 1.6, fill: "none" }, svg);
    var pts = view.points, lab = view.labels, sv = {};
    (f.support || []).forEach(function (i) { sv[i] = true; });
    var layer = el("g", { id: "points" }, svg);
    pts.forEach(function (p, i) {
      var g1 = el("g", { "data-i": i, "class": "point" }, layer);
      if (view.live) el("circle", { cx: sx(p[0]), cy: sy(p[1]), r: 8, fill: "transparent" }, g1);  // a target to grab
      marker(g1, lab[i] > 0 ? "circle" : "square", sx(p[0]), sy(p[1]), lab[i] > 0 ? COL.pos : COL.neg, 3.2);
      if (sv[i]) el("circle", { cx: sx(p[0]), cy: sy(p[1]), r: 6.4, fill: "none", stroke: "#000", "stroke-width": 0.9 }, g1);
    });
    if (view.cursor) {
      var cxy = [sx(view.cursor[0]), sy(view.cursor[1])];
      el("path", { id: "cursor", d: "M" + (cxy[0] - 9) + " " + cxy[1] + "H" + (cxy[0] + 9) + "M" + cxy[0] + " " + (cxy[1] - 9) + "V" + (cxy[1] + 9),
                   stroke: "#0a64d6", "stroke-width": 1.5 }, svg);
    }
    text(svg, L, 16, f.train_accuracy === undefined ? "input plane: " + pts.length + " points" :
         "input plane: training accuracy " + (100 * f.train_accuracy).toFixed(1) + " %", { "class": "panel-title" });
    text(svg, L + S / 2, T + S + 16, "x1", { "class": "axis-label", "text-anchor": "middle" });
    text(svg, 16, T + S / 2, "x2", { "class": "axis-label", "text-anchor": "middle" });
    var c2 = D.classes;
    legend(svg, L, T + S + 32, [
      [function (x, y) { marker(svg, "circle", x, y, COL.pos, 3.5); }, "class " + c2[1] + " (f > 0 side blue)"],
      [function (x, y) { marker(svg, "square", x, y, COL.neg, 3.2); }, "class " + c2[0] + " (f < 0 side red)"],
      [function (x, y) { el("circle", { cx: x, cy: y, r: 6, fill: "none", stroke: "#000" }, svg); }, "support vector"],
      [function (x, y) { el("line", { x1: x - 8, x2: x + 8, y1: y, y2: y, stroke: "#000", "stroke-width": 1.6 }, svg); }, "decision line f = 0"]
    ], 2);
  }

  function render() {
    if (view.live) return live.render();
    axes.forEach(function (a, i) {
      document.getElementById("value-" + a.name).textContent = fmt(a.values[state.idx[i]]);
    });
    var f = current();
    document.getElementById("caption").textContent = f.caption;
    document.getElementById("change").textContent = describeChange(previous, f);
    renderReadouts(f);
    renderSpectrum(f);
    renderPlane(f);
    renderInput(f);
    document.getElementById("explorer").setAttribute("data-frame", String(frameIndex()));
    previous = f;
  }


  function buildLive() {
    var LV = D.live, E = (typeof IndefsvmLive !== "undefined") ? IndefsvmLive : null;
    var api = { render: function () {}, startFromHash: function () { return false; } };
    window.indefsvm = {
      state: function () { return null; }, numbers: function () { return null; },
      set: function () { throw new Error("this page has no live mode (2-D inputs, at most " +
                                          "200 points, a kernel of live.js)"); },
      live: false
    };
    if (!LV || !E) return api;
    var S = null, last = null, lastMs = 0, lastError = null, dragging = null, pending = null;
    var PANELS = { spectrum: "panel-spectrum", plane: "panel-plane", input: "panel-input",
                   readouts: "readouts-section", caption: "caption" };

    // -- numbers in the URL: coordinates are integers / 10^digits, values shortest round-trip
    // v = i / 10^digits (digits >= 0) or i * 10^-digits: the same two float operations as
    // indefsvm.explorer's links, so that a coordinate read from a link is the same number
    function toInt(v, digits) { return Math.round(digits >= 0 ? v * Math.pow(10, digits) : v / Math.pow(10, -digits)); }
    function fromInt(i, digits) { return digits >= 0 ? i / Math.pow(10, digits) : i * Math.pow(10, -digits); }
    function snap(v, digits) { return fromInt(toInt(v, digits), digits); }
    function q(v) { return snap(v, S.digits); }
    function digitsFor(box) {
      var big = Math.max(Math.abs(box[0][0]), Math.abs(box[0][1]), Math.abs(box[1][0]), Math.abs(box[1][1]), 1e-300);
      return 4 - Math.floor(Math.log10(big));
    }
    function encode(st) {
      var parts = ["live"];
      parts.push("kernel=" + st.kernel);
      Object.keys(st.params).forEach(function (k) { parts.push(k + "=" + String(st.params[k])); });
      parts.push("C=" + String(st.C), "remedy=" + st.remedy);
      parts.push("box=" + [st.box[0][0], st.box[0][1], st.box[1][0], st.box[1][1]].map(String).join(","));
      parts.push("digits=" + st.digits);
      parts.push("x=" + st.X.map(function (p) {
        return toInt(p[0], st.digits).toString(36) + "," + toInt(p[1], st.digits).toString(36); }).join(","));
      parts.push("y=" + st.y.map(function (v) { return v > 0 ? "1" : "0"; }).join(""));
      if (st.hide && st.hide.length) parts.push("hide=" + st.hide.join(","));
      return "#" + parts.join("&");
    }
    function fail(what) { throw new Error("the link's " + what); }
    function decode(hash) {
      var items = hash.replace(/^#/, "").split("&");
      if (items[0] !== "live") return null;
      var kv = {};
      items.slice(1).forEach(function (it) {
        var at = it.indexOf("=");
        if (at > 0) kv[decodeURIComponent(it.slice(0, at))] = decodeURIComponent(it.slice(at + 1));
      });
      var own = function (o, k) { return Object.prototype.hasOwnProperty.call(o, k); };
      var kernel = kv.kernel || LV.kernel;
      // own names only: "constructor" or "__proto__" are properties of every object
      if (!own(LV.kernels, kernel)) fail("kernel " + JSON.stringify(kernel) + " is not one of " + Object.keys(LV.kernels).join(", "));
      var params = {};
      Object.keys(LV.kernels[kernel]).forEach(function (k) {
        var v = kv[k] === undefined ? LV.kernels[kernel][k].value : Number(kv[k]);
        if (!isFinite(v)) fail(k + " is not a number");
        params[k] = v;
      });
      var st = { kernel: kernel, params: params, C: kv.C === undefined ? 1 : Number(kv.C),
                 remedy: kv.remedy || "none", hide: kv.hide ? kv.hide.split(",") : [] };
      // the slider's range: C = Infinity or 1e308 gave NaN captioned as a reading, 1e10 a
      // frozen tab
      if (!(isFinite(st.C) && st.C >= LV.C.min && st.C <= LV.C.max)) fail("C must be a number from " + LV.C.min + " to " + LV.C.max + " (the slider's range)");
      if (LV.remedies.indexOf(st.remedy) < 0) fail("remedy is not one of " + LV.remedies.join(", "));
      if (kv.set && kv.set !== "data") {
        var gen = own(SETS, kv.set) ? SETS[kv.set] : null;
        if (!gen) fail("set is not one of data, " + Object.keys(SETS).join(", "));
        var made = gen();
        st.X = made.X; st.y = made.y; st.box = made.box; st.digits = digitsFor(made.box);
      } else if (kv.set === "data" || kv.x === undefined) {
        st.X = LV.X.map(function (p) { return p.slice(); }); st.y = LV.y.slice();
        st.box = LV.box; st.digits = LV.digits;
      } else {
        st.digits = Number(kv.digits);
        if (!(Math.abs(st.digits) < 300)) fail("digits is not a number");
        var ints = kv.x ? kv.x.split(",").map(function (a) { return parseInt(a, 36); }) : [];
        if (ints.length % 2 || ints.some(function (v) { return !isFinite(v); })) fail("x is not a list of coordinate pairs");
        st.X = [];
        for (var i = 0; i < ints.length; i += 2) st.X.push([fromInt(ints[i], st.digits), fromInt(ints[i + 1], st.digits)]);
        var ys = kv.y || "";
        if (ys.length !== st.X.length || /[^01]/.test(ys)) fail("y does not give one label 0 or 1 per point");
        st.y = ys.split("").map(function (c) { return c === "1" ? 1 : -1; });
        var b = (kv.box || "").split(",").map(Number);
        if (b.length !== 4 || b.some(function (v) { return !isFinite(v); }) || !(b[1] > b[0]) || !(b[3] > b[2]))
          fail("box is not x0,x1,y0,y1");
        st.box = [[b[0], b[1]], [b[2], b[3]]];
      }
      if (st.X.length > LV.max_points) fail("has " + st.X.length + " points, more than " + LV.max_points);
      return st;
    }

    // -- starting sets, from a seeded generator (the same set on every visit) ---------------
    function rng(seed) {
      return function () {  // mulberry32
        seed = (seed + 0x6D2B79F5) | 0;
        var t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
        t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
        return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
      };
    }
    function gauss(r) { return Math.sqrt(-2 * Math.log(1 - r())) * Math.cos(2 * Math.PI * r()); }
    function finish(X, y) {
      var xs = X.map(function (p) { return p[0]; }), ys = X.map(function (p) { return p[1]; });
      var x0 = Math.min.apply(null, xs), x1 = Math.max.apply(null, xs), y0 = Math.min.apply(null, ys), y1 = Math.max.apply(null, ys);
      var px = 0.15 * (x1 - x0), py = 0.15 * (y1 - y0);
      var box = [[snap(x0 - px, 2), snap(x1 + px, 2)], [snap(y0 - py, 2), snap(y1 + py, 2)]];
      var dg = digitsFor(box);
      return { X: X.map(function (p) { return [snap(p[0], dg), snap(p[1], dg)]; }), y: y, box: box };
    }
    var SETS = {
      moons: function () {
        var r = rng(1), X = [], y = [];
        for (var i = 0; i < 60; i++) {
          var t = Math.PI * r(), up = i % 2 === 0;
          X.push(up ? [Math.cos(t) + 0.2 * gauss(r), Math.sin(t) + 0.2 * gauss(r)]
                    : [1 - Math.cos(t) + 0.2 * gauss(r), 0.5 - Math.sin(t) + 0.2 * gauss(r)]);
          y.push(up ? -1 : 1);
        }
        return finish(X, y);
      },
      circles: function () {
        var r = rng(2), X = [], y = [];
        for (var i = 0; i < 60; i++) {
          var t = 2 * Math.PI * r(), inner = i % 2 === 0, rad = inner ? 0.5 : 1;
          X.push([rad * Math.cos(t) + 0.08 * gauss(r), rad * Math.sin(t) + 0.08 * gauss(r)]);
          y.push(inner ? 1 : -1);
        }
        return finish(X, y);
      },
      xor: function () {
        var r = rng(3), X = [], y = [];
        for (var i = 0; i < 60; i++) {
          var a = 2 * r() - 1, b = 2 * r() - 1;
          X.push([a, b]); y.push(a * b > 0 ? 1 : -1);
        }
        return finish(X, y);
      },
      blobs: function () {
        var r = rng(4), X = [], y = [];
        for (var i = 0; i < 40; i++) {
          var pos = i % 2 === 0;
          X.push([(pos ? 1 : -1) + 0.6 * gauss(r), (pos ? 0.6 : -0.6) + 0.6 * gauss(r)]);
          y.push(pos ? 1 : -1);
        }
        return finish(X, y);
      }
    };

    // -- controls of live mode ----------------------------------------------------------------
    var box = document.getElementById("live-controls");
    function node(tag, attrs, parent, txt) {
      var e = document.createElement(tag);
      for (var k in attrs) e.setAttribute(k, attrs[k]);
      if (txt !== undefined) e.textContent = txt;
      if (parent) parent.appendChild(e);
      return e;
    }
    var toggle = document.getElementById("live-toggle");
    toggle.disabled = false;
    toggle.addEventListener("change", function () {
      if (toggle.checked) start(S || fromFrame()); else stop();
    });
    var kSel = node("select", { id: "live-kernel", "aria-label": "kernel" },
                    node("label", { "class": "control", id: "live-kernel-control" }, box, "kernel "));
    Object.keys(LV.kernels).forEach(function (k) { node("option", { value: k }, kSel, k); });
    kSel.addEventListener("change", function () {
      var specs = LV.kernels[kSel.value], params = {};
      Object.keys(specs).forEach(function (k) { params[k] = specs[k].value; });
      S.kernel = kSel.value; S.params = params; buildSliders(); changed();
    });
    var sliderBox = node("span", { id: "live-sliders" }, box);
    function spec(name) { return name === "C" ? LV.C : LV.kernels[S.kernel][name]; }
    function toSlider(sp, v) {
      if (sp.scale === "int") return v;
      if (sp.scale === "log") return Math.round(1000 * (Math.log10(v) - Math.log10(sp.min)) / (Math.log10(sp.max) - Math.log10(sp.min)));
      return Math.round(1000 * (v - sp.min) / (sp.max - sp.min));
    }
    function fromSlider(sp, s) {
      if (sp.scale === "int") return Number(s);
      if (sp.scale === "log") return Number(Math.pow(10, Math.log10(sp.min) + (Math.log10(sp.max) - Math.log10(sp.min)) * s / 1000).toPrecision(3));
      return Number((sp.min + (sp.max - sp.min) * s / 1000).toPrecision(3));
    }
    function buildSliders() {
      while (sliderBox.firstChild) sliderBox.removeChild(sliderBox.firstChild);
      Object.keys(S.params).concat(["C"]).forEach(function (name) {
        var sp = spec(name), div = node("div", { "class": "control", id: "live-control-" + name }, sliderBox);
        node("label", { "for": "live-" + name }, div, name);
        var inp = node("input", { type: "range", id: "live-" + name,
                                  min: sp.scale === "int" ? sp.min : 0, max: sp.scale === "int" ? sp.max : 1000, step: 1,
                                  "aria-label": name + (sp.scale === "log" ? " (log scale)" : "") }, div);
        var v = name === "C" ? S.C : S.params[name];
        inp.value = toSlider(sp, v);
        var out = node("output", { id: "live-value-" + name, "for": "live-" + name }, div, fmt(v));
        inp.addEventListener("input", function () {
          var nv = fromSlider(sp, Number(inp.value));
          if (name === "C") S.C = nv; else S.params[name] = nv;
          out.textContent = fmt(nv);
          changed();
        });
      });
    }
    var remBox = node("fieldset", { id: "live-remedies" }, box);
    node("legend", {}, remBox, "remedy");
    LV.remedies.forEach(function (r) {
      var lab = node("label", {}, remBox);
      var inp = node("input", { type: "radio", name: "live-remedy", value: r, id: "live-remedy-" + r }, lab);
      lab.appendChild(document.createTextNode(" " + r));
      inp.addEventListener("change", function () { S.remedy = r; changed(); });
    });
    var clsBox = node("fieldset", { id: "live-class" }, box);
    node("legend", {}, clsBox, "a click adds");
    [[1, "pos"], [-1, "neg"]].forEach(function (c) {
      var lab = node("label", {}, clsBox);
      var inp = node("input", { type: "radio", name: "live-class", value: c[0], id: "live-class-" + c[1] }, lab);
      if (c[0] > 0) inp.checked = true;
      lab.appendChild(document.createTextNode(" class " + D.classes[c[0] > 0 ? 1 : 0] + (c[0] > 0 ? " (circle)" : " (square)")));
    });
    var setBox = node("div", { id: "live-sets", "class": "control" }, box);
    node("span", { "class": "set-label" }, setBox, "start from");
    ["data"].concat(Object.keys(SETS)).forEach(function (name) {
      var b = node("button", { type: "button", id: "set-" + name }, setBox, name === "data" ? "the page's data" : name);
      b.addEventListener("click", function () {
        var st = name === "data" ? { X: LV.X.map(function (p) { return p.slice(); }), y: LV.y.slice(), box: LV.box, digits: LV.digits }
                                 : SETS[name]();
        S.X = st.X; S.y = st.y; S.box = st.box; S.digits = st.digits === undefined ? digitsFor(st.box) : st.digits;
        view.cursor = null; changed();
      });
    });
    node("button", { type: "button", id: "live-clear" }, setBox, "clear").addEventListener("click", function () {
      S.X = []; S.y = []; changed();
    });
    var linkBtn = node("button", { type: "button", id: "live-link" }, setBox, "copy link");
    linkBtn.addEventListener("click", function () {
      var url = location.href.split("#")[0] + encode(S);
      if (navigator.clipboard && window.isSecureContext) navigator.clipboard.writeText(url).catch(function () {});
      status("link of this state: " + url.length + " characters, in the address bar" +
             (navigator.clipboard && window.isSecureContext ? " and the clipboard" : ""));
    });
    var statusEl = node("p", { id: "live-status", role: "status" }, box);
    function status(t) { statusEl.textContent = t; }

    // -- the input plane: add, drag, delete -----------------------------------------------
    var svg = document.getElementById("input");
    svg.setAttribute("tabindex", "0");
    function toData(evt) {
      var pt = svg.createSVGPoint();
      pt.x = evt.clientX; pt.y = evt.clientY;
      var p = pt.matrixTransform(svg.getScreenCTM().inverse());
      var L = 44, T = 34, Sz = 360;
      var x = S.box[0][0] + (p.x - L) / Sz * (S.box[0][1] - S.box[0][0]);
      var y = S.box[1][0] + (T + Sz - p.y) / Sz * (S.box[1][1] - S.box[1][0]);
      var inside = p.x >= L && p.x <= L + Sz && p.y >= T && p.y <= T + Sz;
      return { x: q(Math.min(Math.max(x, S.box[0][0]), S.box[0][1])),
               y: q(Math.min(Math.max(y, S.box[1][0]), S.box[1][1])), inside: inside };
    }
    function pointOf(evt) {
      var g = evt.target.closest ? evt.target.closest("g.point") : null;
      return g ? Number(g.getAttribute("data-i")) : -1;
    }
    function chosenClass(evt) {
      var c = document.getElementById("live-class-pos").checked ? 1 : -1;
      return evt.shiftKey ? -c : c;
    }
    var hover = -1;
    svg.addEventListener("mousedown", function (evt) {
      if (!view.live || evt.button !== 0) return;
      var i = pointOf(evt);
      if (i >= 0) { dragging = { i: i, moved: false }; evt.preventDefault(); return; }
      var d = toData(evt);
      if (!d.inside) return;
      if (S.X.length >= LV.max_points) { status("at most " + LV.max_points + " points in live mode"); return; }
      S.X.push([d.x, d.y]); S.y.push(chosenClass(evt)); changed();
    });
    svg.addEventListener("mousemove", function (evt) {
      if (!view.live) return;
      if (!dragging) { hover = pointOf(evt); return; }
      var d = toData(evt);
      S.X[dragging.i] = [d.x, d.y]; dragging.moved = true;
      // recompute while dragging when a recompute is quick; always on release
      if (lastMs < 60) schedule(); else redrawPoints();
    });
    window.addEventListener("mouseup", function () {
      if (!dragging) return;
      var moved = dragging.moved;
      dragging = null;
      if (moved) changed();
    });
    svg.addEventListener("contextmenu", function (evt) {
      if (!view.live) return;
      var i = pointOf(evt);
      if (i < 0) return;
      evt.preventDefault();
      remove(i);
    });
    function remove(i) { S.X.splice(i, 1); S.y.splice(i, 1); hover = -1; changed(); }
    function nearest(p) {
      var best = -1, bd = Infinity;
      S.X.forEach(function (x, i) { var d = Math.hypot(x[0] - p[0], x[1] - p[1]); if (d < bd) { bd = d; best = i; } });
      return best;
    }
    // the keyboard: arrows move a cursor, Enter adds a point (Shift+Enter the other class),
    // Delete removes the point nearest the cursor (or the one under the mouse)
    svg.addEventListener("keydown", function (evt) {
      if (!view.live) return;
      var k = evt.key, stepX = (S.box[0][1] - S.box[0][0]) / 40, stepY = (S.box[1][1] - S.box[1][0]) / 40;
      if (!view.cursor) view.cursor = [q((S.box[0][0] + S.box[0][1]) / 2), q((S.box[1][0] + S.box[1][1]) / 2)];
      var c = view.cursor;
      if (k === "ArrowLeft") c[0] = q(Math.max(c[0] - stepX, S.box[0][0]));
      else if (k === "ArrowRight") c[0] = q(Math.min(c[0] + stepX, S.box[0][1]));
      else if (k === "ArrowUp") c[1] = q(Math.min(c[1] + stepY, S.box[1][1]));
      else if (k === "ArrowDown") c[1] = q(Math.max(c[1] - stepY, S.box[1][0]));
      else if (k === "Enter" || k === "+") {
        if (S.X.length < LV.max_points) { S.X.push([c[0], c[1]]); S.y.push(chosenClass(evt)); changed(); }
        evt.preventDefault(); return;
      } else if (k === "Delete" || k === "Backspace" || k === "-") {
        var i = hover >= 0 ? hover : nearest(c);
        if (i >= 0) remove(i);
        evt.preventDefault(); return;
      } else return;
      evt.preventDefault();
      redrawPoints();
    });

    // -- computing and drawing ----------------------------------------------------------------
    function schedule() {
      if (pending) return;
      pending = requestAnimationFrame(function () { pending = null; compute(); draw(); });
    }
    function changed() { compute(); draw(); history.replaceState(null, "", encode(S)); }
    function compute() {
      var t0 = performance.now();
      try {
        last = E.frame({ X: S.X, y: S.y, kernel: S.kernel, params: S.params, C: S.C, remedy: S.remedy, box: S.box });
        lastError = null;
      } catch (err) {
        last = null; lastError = String(err.message || err);
      }
      lastMs = performance.now() - t0;
    }
    function redrawPoints() {
      view.points = S.X; view.labels = S.y;
      renderInput(last || { decision: null, support: [] });
    }
    function draw() {
      view.points = S.X; view.labels = S.y; view.box = S.box;
      var f = last;
      document.getElementById("explorer").setAttribute("data-live", "1");
      if (!f) {
        document.getElementById("caption").textContent = lastError;
        ["spectrum", "plane"].forEach(function (id) { clear(document.getElementById(id)); });
        renderInput({ decision: null, support: [] });
        status(S.X.length + " points: " + lastError);
        return;
      }
      document.getElementById("caption").textContent = f.caption;
      document.getElementById("change").textContent = describeChange(previous, f);
      var shown = Object.assign({}, f);
      if (!f.signature_decided) shown.signature = f.signature.concat(["undecided"]);
      renderReadouts(shown);
      renderSpectrum(f);
      renderPlane(f);
      renderInput(f);
      status(S.X.length + " points; computed in the page in " + lastMs.toFixed(0) + " ms");
      previous = f;
    }
    function applyHide() {
      var hide = S.hide || [];
      Object.keys(PANELS).forEach(function (k) {
        var e = document.getElementById(PANELS[k]);
        if (e) e.style.display = hide.indexOf(k) >= 0 ? "none" : "";
      });
      var ids = { controls: "live-controls", kernel: "live-kernel-control", remedy: "live-remedies",
                  sets: "live-sets", classes: "live-class" };
      Object.keys(ids).forEach(function (k) {
        document.getElementById(ids[k]).style.display = hide.indexOf(k) >= 0 ? "none" : "";
      });
      Object.keys(S.params).concat(["C"]).forEach(function (name) {
        var e = document.getElementById("live-control-" + name);
        if (e) e.style.display = hide.indexOf(name) >= 0 ? "none" : "";
      });
    }
    function syncControls() {
      kSel.value = S.kernel;
      buildSliders();
      document.getElementById("live-remedy-" + S.remedy).checked = true;
      applyHide();
    }
    function fromFrame() {
      var f = current();
      var params = {};
      var specs = LV.kernels[LV.kernel];
      Object.keys(specs).forEach(function (k) { params[k] = f.params[k] === undefined ? specs[k].value : f.params[k]; });
      return { X: LV.X.map(function (p) { return p.slice(); }), y: LV.y.slice(), box: LV.box, digits: LV.digits,
               kernel: LV.kernel, params: params, C: f.C, remedy: f.remedy, hide: [] };
    }
    var sub = document.querySelector("header .sub"), subFrames = sub ? sub.textContent : "";
    function start(st) {
      S = st; view.live = true; previous = null;
      if (sub) sub.textContent = "Live: this page computes every frame itself, with the library's " +
        "algorithms (its numbers are indefsvm's within rounding); untick Live for the frames indefsvm computed.";
      toggle.checked = true;
      document.getElementById("controls").classList.add("live");
      syncControls();
      changed();
    }
    function stop() {
      view.live = false; view.cursor = null;
      if (sub) sub.textContent = subFrames;
      view.points = D.input ? D.input.points : null; view.labels = D.labels; view.box = D.input ? D.input.box : null;
      document.getElementById("controls").classList.remove("live");
      document.getElementById("explorer").removeAttribute("data-live");
      Object.keys(PANELS).forEach(function (k) { var e = document.getElementById(PANELS[k]); if (e) e.style.display = ""; });
      history.replaceState(null, "", location.href.split("#")[0]);
      previous = null;
      render();
    }
    api.render = draw;
    // an edit of the link's #... part in the address bar: the page follows it (it did only
    // after a reload)
    window.addEventListener("hashchange", function () {
      if (/^#live/.test(location.hash) && location.hash !== (S ? encode(S) : "")) api.startFromHash();
    });
    api.startFromHash = function () {
      if (!/^#live/.test(location.hash)) return false;
      try { start(decode(location.hash)); }
      catch (err) {
        render();
        document.getElementById("caption").textContent = "This link cannot be opened: " + err.message + ".";
        return true;
      }
      return true;
    };
    function stateCopy() {
      return { X: S.X.map(function (p) { return p.slice(); }), y: S.y.slice(), kernel: S.kernel,
               params: Object.assign({}, S.params), C: S.C, remedy: S.remedy,
               box: [S.box[0].slice(), S.box[1].slice()], digits: S.digits, hide: (S.hide || []).slice() };
    }
    window.indefsvm = {
      live: true,
      state: function () { return S ? stateCopy() : null; },
      set: function (st) {
        var base = S || fromFrame(), n = stateCopy.call(null, S = base);
        var next = Object.assign(n, st || {});
        if (st && st.params) next.params = Object.assign({}, st.params);
        if (!Object.prototype.hasOwnProperty.call(LV.kernels, next.kernel)) throw new Error("kernel must be one of " + Object.keys(LV.kernels).join(", "));
        if (LV.remedies.indexOf(next.remedy) < 0) throw new Error("remedy must be one of " + LV.remedies.join(", "));
        if (!Array.isArray(next.X) || !Array.isArray(next.y) || next.X.length !== next.y.length)
          throw new Error("X and y must be lists of the same length");
        if (next.X.length > LV.max_points) throw new Error("at most " + LV.max_points + " points");
        if (st && st.box && st.digits === undefined) next.digits = digitsFor(next.box);
        start(next);
        return window.indefsvm.numbers();
      },
      numbers: function () {
        if (!view.live) return null;
        if (!last) return { error: lastError };
        return { signature: last.signature, signature_decided: last.signature_decided,
                 negative_mass: last.negative_mass, eigenvalues: last.eigenvalues,
                 alpha: last.alpha, b: last.b, w_M_w: last.w_M_w, support: last.support,
                 verdict: last.kernel_verdict, sanity_verdict: last.sanity_verdict,
                 lam_min: last.lam_min, lam_max: last.lam_max, kkt_gap: last.kkt_gap,
                 objective: last.objective, n_iter: last.n_iter, converged: last.converged,
                 stop: last.stop, caption: last.caption, ms: lastMs };
      },
      kernel: function () {  // the kernel of the points, and the one the SVM is trained on
        if (!view.live || !last) return null;
        var n = S.X.length;
        function rows(K) {
          var out = [];
          for (var i = 0; i < n; i++) out.push(Array.prototype.slice.call(K, i * n, (i + 1) * n));
          return out;
        }
        return { K0: rows(last.K0), K: rows(last.K) };
      },
      url: function () { return S ? location.href.split("#")[0] + encode(S) : null; },
      time: function (repeats) {  // ms of a recompute (median of repeats)
        var ts = [];
        for (var r = 0; r < (repeats || 5); r++) { compute(); ts.push(lastMs); }
        ts.sort(function (a, b) { return a - b; });
        draw();
        return ts[Math.floor(ts.length / 2)];
      }
    };
    return api;
  }

  // -- live mode: the page computes (live.js) ----------------------------------------------
  var live = buildLive();

  buildControls();
  if (!live.startFromHash()) render();
})();
