// indefsvm explorer: draws the frames indefsvm computed; computes nothing of its own.
(function () {
  "use strict";
  var D = JSON.parse(document.getElementById("explorer-data").textContent);
  var NS = "http://www.w3.org/2000/svg";
  var COL = { pos: "#1f77b4", neg: "#d62728", negeig: "#e6850e", zero: "#999999" };
  var paramNames = Object.keys(D.grid.params);
  var axes = paramNames.map(function (k) { return { name: k, values: D.grid.params[k] }; });
  axes.push({ name: "C", values: D.grid.C });
  var state = { idx: axes.map(function (a) { return Math.floor((a.values.length - 1) / 2); }),
                remedy: 0 };
  var previous = null;

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
    ["w_M_w", "w'Mw (sanity_report)"],
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
    [-big, -Math.sqrt(big * lin), 0, Math.sqrt(big * lin), big].forEach(function (v) {
      el("line", { x1: L - 4, x2: L, y1: sy(t(v)), y2: sy(t(v)), stroke: "#777" }, svg);
      text(svg, L - 6, sy(t(v)) + 3, fmt(Number(v.toPrecision(2))), { "class": "tick", "text-anchor": "end" });
    });
    el("line", { x1: L, x2: L, y1: T, y2: H - B, stroke: "#777" }, svg);
    text(svg, 14, (T + H - B) / 2, "eigenvalue (symlog)", { "class": "axis-label", "text-anchor": "middle",
         transform: "rotate(-90 14 " + (T + H - B) / 2 + ")" });
    text(svg, (L + W - R) / 2, H - B + 16, "index, largest first", { "class": "axis-label", "text-anchor": "middle" });
    lam.forEach(function (v, i) {
      var c = v > f.zero_tol ? COL.pos : (v < -f.zero_tol ? COL.negeig : COL.zero);
      el("circle", { cx: sx(i), cy: sy(t(v)), r: n > 300 ? 1.6 : 2.6, fill: c }, svg);
    });
    var ly = H - B + 34;
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
    var P = f.plane, lab = D.labels;
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
    text(svg, L, 16, "pseudo-Euclidean plane: in this plane w'Mw = " + fmt(f.plane_w_M_w), { "class": "panel-title" });
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
    if (!D.input) { panel.style.display = "none"; return; }
    var svg = document.getElementById("input");
    clear(svg);
    var S = 360, L = 44, T = 34, W = L + S + 24, H = T + S + 64;
    svg.setAttribute("viewBox", "0 0 " + W + " " + H);
    svg.setAttribute("aria-label", "decision function over the input plane");
    var box = D.input.box, G = Math.round(Math.sqrt(f.decision.length));
    var sx = scale(box[0][0], box[0][1], L, L + S), sy = scale(box[1][0], box[1][1], T + S, T);
    var vmax = Math.max.apply(null, f.decision.map(Math.abs)) || 1;
    var cw = S / (G - 1), dv = f.decision;
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
    var pts = D.input.points, lab = D.labels, sv = {};
    f.support.forEach(function (i) { sv[i] = true; });
    pts.forEach(function (p, i) {
      marker(svg, lab[i] > 0 ? "circle" : "square", sx(p[0]), sy(p[1]), lab[i] > 0 ? COL.pos : COL.neg, 3.2);
      if (sv[i]) el("circle", { cx: sx(p[0]), cy: sy(p[1]), r: 6.4, fill: "none", stroke: "#000", "stroke-width": 0.9 }, svg);
    });
    text(svg, L, 16, "input plane: training accuracy " + (100 * f.train_accuracy).toFixed(1) + " %", { "class": "panel-title" });
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

  buildControls();
  render();
})();
