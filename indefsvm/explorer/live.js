// indefsvm explorer, live mode: the library's computations, redone in the page.
//
// Each function mirrors one of indefsvm's (named in its comment) on the same float64
// arithmetic, so that the page's numbers are the library's within rounding: the kernels of
// indefsvm.kernels, check_kernel's dense spectrum (Householder rotation of e onto e_1, the
// centred kernel on the complement of e), the pseudo-Euclidean embedding (Haasdonk 2005,
// Prop. 1), the spectrum fixes of indefsvm.remedies, SMO with the rule of Lin & Lin (2003,
// (27)) for concave steps, LIBSVM's second-order working set and shrinking, as the compiled
// solver does it, sanity_report and the reduced hulls (Haasdonk 2005, Prop. 7). Where the
// page's eigenvalues could fall on the other side of the zero threshold from LAPACK's, the
// figures that depend on it are "undecided at this accuracy".
var IndefsvmLive = (function () {
  "use strict";
  var EPS = 2.220446049250313e-16;
  var TAU = 1e-12;
  // the page's SMO runs in the tab's one thread: past its time budget it stops and says so
  // (a link of C = 1e10 on a linear kernel froze the tab for 10-34 s at each recompute)
  var BUDGET_MS = 1500, CHECK_BUDGET_MS = 300;
  function now() { return typeof performance !== "undefined" ? performance.now() : Date.now(); }
  var UNDECIDED = "undecided at this accuracy";
  var UNSUITABLE = "unsuitable as it stands: use a remedy";  // report.UNSUITABLE
  // the band around the zero threshold tol in which the page's eigenvalues and LAPACK's
  // (of the library's kernel, whose entries may differ from the page's in the last bit) may
  // fall on different sides of tol: tol +- AMBIGUOUS sqrt(n) eps max|lambda|. Measured on
  // 90 kernels of 40 to 200 points (sigmoid, rbf, tl1, sqrt_l1_exponential): the two differ
  // by at most 1.8 sqrt(n) eps max|lambda|
  var AMBIGUOUS = 4;
  var HULL_DIRECTIONS = 96;
  var INPUT_GRID = 32;
  var WMW_C = [0.1, 1, 10, 100];

  // -- kernels (indefsvm.kernels) ----------------------------------------------------------
  var KERNELS = {
    linear: { params: [], f: function (a, b) { return a[0] * b[0] + a[1] * b[1]; } },
    polynomial: { params: ["gamma", "coef0", "degree"], f: function (a, b, p) {
      return Math.pow(p.gamma * (a[0] * b[0] + a[1] * b[1]) + p.coef0, p.degree); } },
    rbf: { params: ["gamma"], f: function (a, b, p) {
      var u = a[0] - b[0], v = a[1] - b[1];
      return Math.exp(-p.gamma * (u * u + v * v)); } },
    sigmoid: { params: ["gamma", "coef0"], f: function (a, b, p) {
      return Math.tanh(p.gamma * (a[0] * b[0] + a[1] * b[1]) + p.coef0); } },
    l1_gaussian: { params: ["gamma"], f: function (a, b, p) {
      var d = Math.abs(a[0] - b[0]) + Math.abs(a[1] - b[1]);
      return Math.exp(-p.gamma * d * d); } },
    sqrt_l1_exponential: { params: ["gamma"], f: function (a, b, p) {
      return Math.exp(-p.gamma * Math.sqrt(Math.abs(a[0] - b[0]) + Math.abs(a[1] - b[1]))); } },
    tl1: { params: ["rho"], f: function (a, b, p) {
      return Math.max(p.rho - (Math.abs(a[0] - b[0]) + Math.abs(a[1] - b[1])), 0); } },
    pseudo_euclidean: { params: ["p"], f: function (a, b, p) {
      return (p.p >= 1 ? a[0] * b[0] : -a[0] * b[0]) + (p.p >= 2 ? a[1] * b[1] : -a[1] * b[1]); } }
  };

  function kernelRows(A, B, kernel, params) {
    var f = KERNELS[kernel].f, m = A.length, n = B.length, K = new Float64Array(m * n);
    for (var i = 0; i < m; i++) for (var j = 0; j < n; j++) K[i * n + j] = f(A[i], B[j], params);
    return K;
  }
  function kernelMatrix(X, kernel, params) {
    var f = KERNELS[kernel].f, n = X.length, K = new Float64Array(n * n);
    for (var i = 0; i < n; i++) for (var j = 0; j <= i; j++) {
      var v = f(X[i], X[j], params);
      K[i * n + j] = v; K[j * n + i] = v;
    }
    for (var t = 0; t < K.length; t++) if (!isFinite(K[t]))
      throw new Error("The " + kernel + " kernel has values that are not finite on these points " +
                      "(an overflow): change its parameters.");
    return K;
  }

  // -- symmetric eigenproblems: Householder tridiagonalisation, implicit QL ----------------
  // T = Q'AQ, Q = H_0 ... H_{n-3}, H_k = I - beta_k v_k v_k' on the indices k+1..n-1
  function tridiag(A, n) {
    var d = new Float64Array(n), e = new Float64Array(Math.max(n - 1, 1));
    var V = new Float64Array(n * n), beta = new Float64Array(n), p = new Float64Array(n);
    var i, j, k;
    for (k = 0; k < n - 2; k++) {
      var vk = k * n, scale = 0, s2 = 0;
      d[k] = A[k * n + k];
      for (i = k + 1; i < n; i++) scale += Math.abs(A[i * n + k]);
      if (scale === 0) { e[k] = 0; beta[k] = 0; continue; }
      for (i = k + 1; i < n; i++) { var xi = A[i * n + k] / scale; V[vk + i] = xi; s2 += xi * xi; }
      var norm = Math.sqrt(s2), x0 = V[vk + k + 1];
      var alpha = x0 > 0 ? -norm : norm;
      V[vk + k + 1] = x0 - alpha;
      var b = 1 / (norm * (norm + Math.abs(x0)));  // 2 / v'v
      beta[k] = b;
      e[k] = alpha * scale;
      for (i = k + 1; i < n; i++) {
        var acc = 0, row = i * n;
        for (j = k + 1; j < n; j++) acc += A[row + j] * V[vk + j];
        p[i] = b * acc;
      }
      var vp = 0;
      for (i = k + 1; i < n; i++) vp += V[vk + i] * p[i];
      var half = 0.5 * b * vp;
      for (i = k + 1; i < n; i++) p[i] -= half * V[vk + i];
      for (i = k + 1; i < n; i++) {
        var vi = V[vk + i], qi = p[i], r = i * n;
        for (j = k + 1; j < n; j++) A[r + j] -= vi * p[j] + qi * V[vk + j];
      }
    }
    if (n >= 2) {
      d[n - 2] = A[(n - 2) * n + n - 2]; e[n - 2] = A[(n - 1) * n + n - 2];
      d[n - 1] = A[(n - 1) * n + n - 1];
    } else if (n === 1) d[0] = A[0];
    return { n: n, d: d, e: e, V: V, beta: beta };
  }

  // eigenvalues of the tridiagonal (d, e) by implicit QL with Wilkinson's shift; with W (n
  // columns, each a Float64Array) the rotations are applied to its columns
  function tql(d0, e0, n, W) {
    var d = Float64Array.from(d0), e = new Float64Array(n), i, k, l, m;
    for (i = 0; i < n - 1; i++) e[i] = e0[i];
    // an off-diagonal entry below eps ||T|| is zero: the absolute accuracy of a backward
    // stable method (a test relative to its own diagonal can stall in a cluster near 0)
    var norm = 0;
    for (i = 0; i < n; i++) norm = Math.max(norm, Math.abs(d[i]) + Math.abs(e[i]) + (i ? Math.abs(e[i - 1]) : 0));
    var small = EPS * norm;
    for (l = 0; l < n; l++) {
      var iter = 0;
      for (;;) {
        for (m = l; m < n - 1; m++) {
          if (Math.abs(e[m]) <= small) break;
        }
        if (m === l) break;
        if (++iter > 80) throw new Error("the eigenvalues did not converge");
        var g = (d[l + 1] - d[l]) / (2 * e[l]);
        var r = Math.sqrt(g * g + 1);
        g = d[m] - d[l] + e[l] / (g + (g >= 0 ? r : -r));
        var s = 1, c = 1, p = 0, early = false;
        for (i = m - 1; i >= l; i--) {
          var f = s * e[i], b = c * e[i];
          r = Math.sqrt(f * f + g * g);
          e[i + 1] = r;
          if (r === 0) { d[i + 1] -= p; e[m] = 0; early = true; break; }
          s = f / r; c = g / r;
          g = d[i + 1] - p;
          r = (d[i] - g) * s + 2 * c * b;
          p = s * r;
          d[i + 1] = g + p;
          g = c * r - b;
          if (W) {
            var wi = W[i], wj = W[i + 1];
            for (k = 0; k < n; k++) { f = wj[k]; wj[k] = s * wi[k] + c * f; wi[k] = c * wi[k] - s * f; }
          }
        }
        if (early) continue;
        d[l] -= p; e[l] = g; e[m] = 0;
      }
    }
    return d;
  }

  // Q w for the Householder vectors of tridiag (w of length n, changed in place)
  function applyQ(T, w) {
    var n = T.n, V = T.V;
    for (var k = n - 3; k >= 0; k--) {
      if (T.beta[k] === 0) continue;
      var vk = k * n, dot = 0, i;
      for (i = k + 1; i < n; i++) dot += V[vk + i] * w[i];
      dot *= T.beta[k];
      for (i = k + 1; i < n; i++) w[i] -= dot * V[vk + i];
    }
    return w;
  }

  function ascending(values) {
    var idx = [];
    for (var i = 0; i < values.length; i++) idx.push(i);
    idx.sort(function (a, b) { return values[a] - values[b]; });
    return idx;
  }

  // numpy.linalg.eigvalsh: ascending eigenvalues (A is overwritten)
  function eigvalsh(A, n) {
    if (n === 0) return new Float64Array(0);
    var T = tridiag(A, n), d = tql(T.d, T.e, n, null);
    return Float64Array.from(d).sort();
  }

  // numpy.linalg.eigh: ascending eigenvalues and their eigenvectors (vectors[j]: the j-th)
  function eigh(A, n) {
    var T = tridiag(A, n), W = [], j;
    for (j = 0; j < n; j++) { W.push(new Float64Array(n)); W[j][j] = 1; }
    var d = tql(T.d, T.e, n, W), order = ascending(d);
    var values = new Float64Array(n), vectors = [];
    for (j = 0; j < n; j++) { values[j] = d[order[j]]; vectors.push(applyQ(T, W[order[j]])); }
    return { values: values, vectors: vectors };
  }

  // the eigenvector of the tridiagonal of T for its eigenvalue lam, by inverse iteration
  // (tridiagonal LU with partial pivoting), then Q: LAPACK's dstein for an isolated value
  function eigvector(T, lam) {
    var n = T.n, d = T.d, e = T.e, i;
    if (n === 1) return Float64Array.of(1);
    var big = 0;
    for (i = 0; i < n; i++) big = Math.max(big, Math.abs(d[i]) + (i < n - 1 ? Math.abs(e[i]) : 0));
    var tiny = Math.max(big, 1e-300) * EPS;
    var u0 = new Float64Array(n), u1 = new Float64Array(n), u2 = new Float64Array(n);
    var mult = new Float64Array(n), swap = new Uint8Array(n);
    var r0 = d[0] - lam, r1 = e[0];
    for (i = 0; i < n - 1; i++) {
      var a = e[i], dn = d[i + 1] - lam, en = i < n - 2 ? e[i + 1] : 0;
      if (Math.abs(a) > Math.abs(r0)) {
        swap[i] = 1; u0[i] = a; u1[i] = dn; u2[i] = en;
        mult[i] = r0 / a;
        var nr0 = r1 - mult[i] * dn; r1 = -mult[i] * en; r0 = nr0;
      } else {
        if (r0 === 0) r0 = tiny;
        swap[i] = 0; u0[i] = r0; u1[i] = r1; u2[i] = 0;
        mult[i] = a / r0;
        r0 = dn - mult[i] * r1; r1 = en;
      }
    }
    u0[n - 1] = r0 === 0 ? tiny : r0;
    var x = new Float64Array(n);
    for (i = 0; i < n; i++) x[i] = 1 + 0.0001 * i;  // not orthogonal to the eigenvector
    for (var it = 0; it < 3; it++) {
      for (i = 0; i < n - 1; i++) {  // L^-1 with the same row exchanges
        if (swap[i]) { var t = x[i]; x[i] = x[i + 1]; x[i + 1] = t - mult[i] * x[i]; }
        else x[i + 1] -= mult[i] * x[i];
      }
      for (i = n - 1; i >= 0; i--) {
        var s = x[i];
        if (i + 1 < n) s -= u1[i] * x[i + 1];
        if (i + 2 < n) s -= u2[i] * x[i + 2];
        x[i] = s / (u0[i] === 0 ? tiny : u0[i]);
      }
      var nrm = 0;
      for (i = 0; i < n; i++) nrm += x[i] * x[i];
      nrm = Math.sqrt(nrm);
      for (i = 0; i < n; i++) x[i] /= nrm;
    }
    return applyQ(T, x);
  }

  // -- check_kernel's dense spectrum (indefsvm.diagnostics.spectrum._dense) ---------------
  function rowMeans(K, n) {
    var r = new Float64Array(n);
    for (var i = 0; i < n; i++) { var s = 0; for (var j = 0; j < n; j++) s += K[i * n + j]; r[i] = s / n; }
    return r;
  }
  function mean(a) { var s = 0; for (var i = 0; i < a.length; i++) s += a[i]; return s / a.length; }
  function centred(K, n) {
    var r = rowMeans(K, n), m = mean(r), C = new Float64Array(n * n);
    for (var i = 0; i < n; i++) for (var j = 0; j < n; j++) C[i * n + j] = K[i * n + j] - r[i] - r[j] + m;
    return C;
  }
  // the centred kernel in a basis whose first vector is e / sqrt(n): H C H with H the
  // Householder reflection taking e / sqrt(n) to e_1; B = its trailing block (K on the
  // complement of e)
  function restricted(K, n) {
    var C = centred(K, n), v = new Float64Array(n), i, j;
    for (i = 0; i < n; i++) v[i] = 1 / Math.sqrt(n);
    v[0] -= 1;
    var c = 0; for (i = 0; i < n; i++) c += v[i] * v[i];
    var p = new Float64Array(n), s = 0;
    for (i = 0; i < n; i++) { var a = 0; for (j = 0; j < n; j++) a += C[i * n + j] * v[j]; p[i] = a; }
    for (i = 0; i < n; i++) s += v[i] * p[i];
    var w = new Float64Array(n);
    for (i = 0; i < n; i++) w[i] = (2 / c) * p[i] - (2 * s / (c * c)) * v[i];
    var m = n - 1, B = new Float64Array(m * m);
    for (i = 1; i < n; i++) for (j = 1; j < n; j++)
      B[(i - 1) * m + j - 1] = C[i * n + j] - v[i] * w[j] - w[i] * v[j];
    return { B: B, m: m, v: v, c: c };
  }

  function counts(mu, tol) {
    var p = 0, q = 0;
    for (var i = 0; i < mu.length; i++) { if (mu[i] > tol) p++; else if (mu[i] < -tol) q++; }
    return { pos: p, neg: q, zero: mu.length - p - q };
  }

  // indefsvm.diagnostics.spectrum.indefiniteness
  function indefiniteness(q, mass, ratio) {
    var lo = 0.01, hi = 0.10;
    if (q === 0) return "Euclidean (no negative direction)";
    var level = mass < lo ? 0 : (mass > hi ? 2 : 1);
    if (ratio >= 0.5) level = 2; else if (ratio >= hi) level = Math.max(level, 1);
    return ["slightly indefinite", "moderately indefinite", "strongly indefinite"][level];
  }

  function classMeanSqdist(K, n, y) {
    var np = 0, nn = 0, i, j;
    for (i = 0; i < n; i++) if (y[i] > 0) np++; else nn++;
    var c = new Float64Array(n);
    for (i = 0; i < n; i++) c[i] = y[i] > 0 ? 1 / np : -1 / nn;
    var s = 0;
    for (i = 0; i < n; i++) { var a = 0; for (j = 0; j < n; j++) a += K[i * n + j] * c[j]; s += c[i] * a; }
    return s;
  }

  function quadForm(K, n, v) {
    var s = 0;
    for (var i = 0; i < n; i++) {
      if (v[i] === 0) continue;
      var a = 0; for (var j = 0; j < n; j++) a += K[i * n + j] * v[j];
      s += v[i] * a;
    }
    return s;
  }

  // check_kernel(K, y): the verdict and the figures the page shows; the verdict of _assemble
  // taken at both ends of the band of ambiguity, "undecided" when they differ
  function checkKernel(K, n, y, wmwOf) {
    var lam = eigvalsh(Float64Array.from(K), n);
    var R = restricted(K, n);
    var Tb = n > 1 ? tridiag(Float64Array.from(R.B), R.m) : null;
    var mu = n > 1 ? Float64Array.from(tql(Tb.d, Tb.e, R.m, null)).sort() : new Float64Array(0);
    var scale = 0;
    for (var i = 0; i < n; i++) scale = Math.max(scale, Math.abs(lam[i]));
    var tol = n * EPS * scale;
    var dcm = classMeanSqdist(K, n, y);
    var wmw = null, wmwCs = WMW_C.slice();
    // suitability._smaller_C: where every C of the grid gives w'Mw <= 0 while c'Kc > 0, the
    // powers of ten below it, from the largest with C max|K_ij| <= 100, until one gives
    // w'Mw > 0 or C n max|K_ij| < 0.1
    function wmwGrid() {
      var v = wmwOf(WMW_C);
      if (!(dcm > 0) || !v.every(function (x) { return x <= 0; })) return v;
      var kmax = 0;
      for (var q = 0; q < n * n; q++) kmax = Math.max(kmax, Math.abs(K[q]));
      var logK = Math.log10(kmax), cMin = Math.min.apply(null, WMW_C);
      var first = Math.min(Math.round(Math.log10(cMin)) - 1, Math.floor(2 - logK));
      var last = Math.ceil(Math.log10(0.1) - Math.log10(n) - logK);
      for (var e = first; e >= last; e--) {
        var C = Number("1e" + e);
        if (C === 0) break;
        var w = wmwOf([C])[0];
        wmwCs.push(C); v.push(w);
        if (w > 0) break;
      }
      return v;
    }
    function verdictAt(t) {
      var ct = counts(mu, t), psd = lam[0] >= -t;
      var muMin = n > 1 ? mu[0] : 0, muMax = n > 1 ? mu[mu.length - 1] : 0;
      var cpd = n > 1 ? (muMin > t && ct.neg === 0 && ct.zero === 0) : true;
      var negated = n > 1 && muMax <= t && muMin < -t;
      var total = 0, neg = 0;
      for (var k = 0; k < mu.length; k++) { total += Math.abs(mu[k]); if (mu[k] < -t) neg += Math.abs(mu[k]); }
      var mass = total > 0 ? neg / total : 0;
      var ratio = ct.neg > 0 && muMax > 0 ? Math.abs(muMin) / muMax : 0;
      var kind = indefiniteness(ct.neg, mass, ratio);
      var verdict;
      if (psd) verdict = "PSD";
      else if (cpd) verdict = "CPD";
      else {
        if (wmw === null) wmw = wmwGrid();
        // as suitability._assemble: no sensible C >= 1, and none at all (unsuitable) or
        // only below 1 (usable with that small C)
        var noSensible = wmwCs.every(function (C, j) { return C < 1 || wmw[j] <= 0; }) &&
          wmwCs.some(function (C) { return C >= 1; });
        var smallC = noSensible ? wmwCs.filter(function (C, j) { return wmw[j] > 0; }) : [];
        if (negated || dcm <= 0 || (noSensible && smallC.length === 0)) verdict = UNSUITABLE;
        else if (smallC.length > 0) verdict = "usable with a small C only (C <= " + fmtG(Math.max.apply(null, smallC), 6) + "), or after a remedy";
        else if (kind === "strongly indefinite") verdict = "strongly indefinite: train with care and compare a remedy";
        else verdict = kind + ", usable with care";
      }
      return { verdict: verdict, signature: [ct.pos, ct.neg, ct.zero + 1], mass: mass };
    }
    var band = AMBIGUOUS * Math.sqrt(n) * EPS * scale;
    var at = verdictAt(tol), lo = verdictAt(Math.max(tol - band, 0)), hi = verdictAt(tol + band);
    var sigDecided = lo.signature.join() === hi.signature.join();
    return {
      lam: lam, mu: mu, tol: tol, scale: scale, dcm: dcm, wmw: wmw,
      verdict: lo.verdict === hi.verdict ? at.verdict : UNDECIDED,
      signature: at.signature, signatureDecided: sigDecided, negativeMass: at.mass,
      restricted: R, Tb: Tb
    };
  }

  // -- the spectrum fixes (indefsvm.remedies) ---------------------------------------------
  function centreWith(R, m, n, colMean, allMean) {  // rows R (m x n) centred with training means
    var out = new Float64Array(m * n);
    for (var i = 0; i < m; i++) {
      var s = 0, j;
      for (j = 0; j < n; j++) s += R[i * n + j];
      s /= n;
      for (j = 0; j < n; j++) out[i * n + j] = R[i * n + j] - s - colMean[j] + allMean;
    }
    return out;
  }
  function fixKernel(K0, n, remedy) {
    if (remedy === "none") return { K: K0, apply: function (u) { return u; }, centre: false };
    var colMean = rowMeans(K0, n), allMean = mean(colMean);  // K0 symmetric: rows = columns
    var centered = remedy === "cne" || remedy === "rne";
    var K = K0, i, j, k;
    if (centered) {
      var Kc = centreWith(K0, n, n, colMean, allMean);
      K = new Float64Array(n * n);
      for (i = 0; i < n; i++) for (j = 0; j < n; j++) K[i * n + j] = (Kc[i * n + j] + Kc[j * n + i]) / 2;
    }
    var fix = { centre: centered, colMean: colMean, allMean: allMean };
    if (remedy === "shift") {
      var lam = eigvalsh(Float64Array.from(K), n), shift = Math.max(0, -lam[0]);
      var Ks = Float64Array.from(K);
      for (i = 0; i < n; i++) Ks[i * n + i] += shift;
      fix.K = Ks;
      fix.apply = function (u) { return u; };  // test rows unchanged
      return fix;
    }
    if (remedy === "square") {
      var Kq = new Float64Array(n * n);
      for (i = 0; i < n; i++) for (k = 0; k < n; k++) {
        var a = K[i * n + k]; if (a === 0) continue;
        for (j = 0; j < n; j++) Kq[i * n + j] += a * K[k * n + j];
      }
      for (i = 0; i < n; i++) for (j = 0; j < i; j++) {
        var sym = (Kq[i * n + j] + Kq[j * n + i]) / 2; Kq[i * n + j] = sym; Kq[j * n + i] = sym;
      }
      fix.K = Kq;
      fix.apply = function (u) {  // rows k K: the decision's weights K u
        var out = new Float64Array(n);
        for (var s = 0; s < n; s++) { var acc = 0; for (var t = 0; t < n; t++) acc += K[s * n + t] * u[t]; out[s] = acc; }
        return out;
      };
      return fix;
    }
    // clip, flip, cne (clip of the centred kernel), rne (flip of the centred kernel)
    var E = eigh(Float64Array.from(K), n), lam2 = E.values, U = E.vectors;
    var big = 0;
    for (i = 0; i < n; i++) big = Math.max(big, Math.abs(lam2[i]));
    var tol = n * EPS * Math.max(big, 1e-300);
    var clip = remedy === "clip" || remedy === "cne";
    var dg = new Float64Array(n);
    for (i = 0; i < n; i++) dg[i] = clip ? (lam2[i] > tol ? 1 : 0) : (lam2[i] < -tol ? -1 : 1);
    var Kf = new Float64Array(n * n);
    for (k = 0; k < n; k++) {
      var w = lam2[k] * dg[k]; if (w === 0) continue;
      var uk = U[k];
      for (i = 0; i < n; i++) { var wi = w * uk[i]; if (wi === 0) continue; for (j = 0; j < n; j++) Kf[i * n + j] += wi * uk[j]; }
    }
    for (i = 0; i < n; i++) for (j = 0; j < i; j++) {
      var sm = (Kf[i * n + j] + Kf[j * n + i]) / 2; Kf[i * n + j] = sm; Kf[j * n + i] = sm;
    }
    fix.K = Kf;
    fix.apply = function (u) {  // rows k P, P = U diag(d) U': the decision's weights P u
      var out = new Float64Array(n);
      for (var k2 = 0; k2 < n; k2++) {
        if (dg[k2] === 0) continue;
        var uk2 = U[k2], dot = 0, t;
        for (t = 0; t < n; t++) dot += uk2[t] * u[t];
        dot *= dg[k2];
        for (t = 0; t < n; t++) out[t] += dot * uk2[t];
      }
      return out;
    };
    return fix;
  }

  // -- SMO (indefsvm._solvers._smo: SMOSolver, precomputed float64 kernel) ----------------
  function smo(K, n, yIn, C, tol, maxIter, budgetMs) {
    var deadline = now() + (budgetMs || BUDGET_MS);
    var AT_LOWER = 0, AT_UPPER = 1, FREE = 2;
    var perm = new Int32Array(n), y = new Float64Array(n), alpha = new Float64Array(n);
    var g = new Float64Array(n), gbar = new Float64Array(n), diag = new Float64Array(n);
    var status = new Int8Array(n), up = new Float64Array(n), low = new Float64Array(n);
    var obj = new Float64Array(n), coef = new Float64Array(n);
    var t, s;
    for (t = 0; t < n; t++) { perm[t] = t; y[t] = yIn[t]; g[t] = yIn[t]; diag[t] = K[t * n + t]; setStatus(t); }
    // tau on the kernel's scale, as the compiled SMO: TAU times the power of two of max|K_ii|
    var top = 0, tau = TAU;
    for (t = 0; t < n; t++) top = Math.max(top, Math.abs(diag[t]));
    if (top > 0 && top < Infinity) {
      var p2 = 1;
      while (p2 * 2 <= top) p2 *= 2;
      while (p2 > top) p2 /= 2;
      tau = TAU * p2;
    }
    var active = n, unshrunk = false, nIter = 0, nConcave = 0, F = 0;
    var gap = Infinity, mUp = -Infinity, MLow = Infinity, selI = -1, selJ = -1;
    maxIter = maxIter || Math.max(10000000, 100 * n);
    function kk(a, b) { return K[perm[a] * n + perm[b]]; }
    function setStatus(q) {
      var st = alpha[q] >= C ? AT_UPPER : (alpha[q] <= 0 ? AT_LOWER : FREE);
      status[q] = st;
      var inUp, inLow;
      if (y[q] > 0) { inUp = st !== AT_UPPER; inLow = st !== AT_LOWER; }
      else { inUp = st !== AT_LOWER; inLow = st !== AT_UPPER; }
      up[q] = inUp ? 0 : -Infinity; low[q] = inLow ? 0 : Infinity;
    }
    function swap(a, b) {
      var arrs = [y, alpha, g, gbar, diag, up, low], x;
      for (var k = 0; k < arrs.length; k++) { x = arrs[k][a]; arrs[k][a] = arrs[k][b]; arrs[k][b] = x; }
      x = perm[a]; perm[a] = perm[b]; perm[b] = x;
      x = status[a]; status[a] = status[b]; status[b] = x;
    }
    function select() {
      var gmax = -Infinity, gmin = Infinity, i = -1, j = -1, q;
      for (q = 0; q < active; q++) { var v = g[q] + up[q]; gmax = v > gmax ? v : gmax; }
      if (gmax !== -Infinity) { i = active - 1; while (i > 0 && g[i] + up[i] !== gmax) i--; }
      if (i >= 0) {
        var best = Infinity, di = diag[i], rowI = perm[i] * n;
        for (q = 0; q < active; q++) {
          var w = g[q] + low[q];
          gmin = w < gmin ? w : gmin;
          var b = gmax - w, a = di + diag[q] - 2 * K[rowI + perm[q]];
          a = a > 0 ? a : tau;
          var o = b > 0 ? -(b * b) / a : Infinity;
          obj[q] = o;
          best = o < best ? o : best;
        }
        if (best !== Infinity) { j = active - 1; while (j > 0 && obj[j] !== best) j--; }
      } else {
        for (q = 0; q < active; q++) { var w2 = g[q] + low[q]; gmin = w2 < gmin ? w2 : gmin; }
      }
      mUp = gmax; MLow = gmin; gap = gmax - gmin; selI = i; selJ = j;
      return i < 0 || j < 0 || gap <= tol;
    }
    function gbarAdd(q, c) {
      var row = perm[q] * n;
      for (var u = 0; u < n; u++) gbar[u] += c * K[row + perm[u]];
    }
    function update(i, j) {
      var Ki = perm[i] * n, Kj = perm[j] * n;
      var b = g[i] - g[j], kij = K[Ki + perm[j]], a = diag[i] + diag[j] - 2 * kij;
      var oldI = status[i], oldJ = status[j];
      var roomI = y[i] > 0 ? C - alpha[i] : alpha[i];
      var roomJ = y[j] > 0 ? alpha[j] : C - alpha[j];
      var dmax = roomI < roomJ ? roomI : roomJ, delta;
      if (a > 0) { delta = b / a; if (delta > dmax) delta = dmax; }
      else { delta = dmax; nConcave++; }
      var ai = alpha[i], aj = alpha[j];
      if (y[i] > 0) alpha[i] = delta >= roomI ? C : ai + delta;
      else alpha[i] = delta >= roomI ? 0 : ai - delta;
      if (y[j] > 0) alpha[j] = delta >= roomJ ? 0 : aj - delta;
      else alpha[j] = delta >= roomJ ? C : aj + delta;
      var di = y[i] * (alpha[i] - ai), dj = y[j] * (alpha[j] - aj);
      F += -di * g[i] - dj * g[j] + 0.5 * (di * di * diag[i] + 2 * di * dj * kij + dj * dj * diag[j]);
      for (var q = 0; q < active; q++) g[q] -= di * K[Ki + perm[q]] + dj * K[Kj + perm[q]];
      setStatus(i); setStatus(j);
      if ((oldI === AT_UPPER) !== (status[i] === AT_UPPER)) gbarAdd(i, oldI === AT_UPPER ? C * y[i] : -C * y[i]);
      if ((oldJ === AT_UPPER) !== (status[j] === AT_UPPER)) gbarAdd(j, oldJ === AT_UPPER ? C * y[j] : -C * y[j]);
    }
    function reconstruct() {
      if (active === n) return;
      var nFree = 0, q, u;
      for (q = active; q < n; q++) g[q] = gbar[q] + y[q];
      for (q = 0; q < active; q++) {
        if (status[q] === FREE) { nFree++; coef[q] = y[q] * alpha[q]; } else coef[q] = 0;
      }
      if (nFree * n <= 2 * active * (n - active)) {
        for (q = 0; q < active; q++) {
          if (status[q] !== FREE) continue;
          var row = perm[q] * n;
          for (u = active; u < n; u++) g[u] += -coef[q] * K[row + perm[u]];
        }
      } else {
        for (u = active; u < n; u++) {
          var acc = 0, r2 = perm[u] * n;
          for (q = 0; q < active; q++) acc += coef[q] * K[r2 + perm[q]];
          g[u] -= acc;
        }
      }
    }
    function shrinkable(q, m, M) {
      var inUp = up[q] === 0, inLow = low[q] === 0;
      if (inUp && !inLow) return g[q] < M;
      if (inLow && !inUp) return g[q] > m;
      return false;
    }
    function shrink() {
      var m = -Infinity, M = Infinity, q;
      for (q = 0; q < active; q++) {
        if (up[q] === 0 && g[q] > m) m = g[q];
        if (low[q] === 0 && g[q] < M) M = g[q];
      }
      if (!unshrunk && m - M <= 10 * tol) { unshrunk = true; reconstruct(); active = n; }
      q = 0;
      while (q < active) {
        if (shrinkable(q, m, M)) {
          active--;
          while (active > q) {
            if (!shrinkable(active, m, M)) { swap(q, active); break; }
            active--;
          }
        }
        q++;
      }
    }
    function iterate() {
      var every = n < 1000 ? n : 1000, counter = every, mayShrink = true;
      var patience = Math.max(10 * n, 10000), since = 0, Fbest = F, gapBest = Infinity;
      while (nIter < maxIter) {
        if (mayShrink && --counter === 0) { counter = every; shrink(); }
        if (select()) {
          if (active === n) return 0;
          reconstruct(); active = n;
          if (select()) return 0;
          counter = 1;
        }
        update(selI, selJ);
        nIter++;
        if ((nIter & 1023) === 0 && now() > deadline) return 4;
        if (F < Fbest || gap < gapBest) {
          Fbest = F < Fbest ? F : Fbest; gapBest = gap < gapBest ? gap : gapBest; since = 0;
        } else if (++since >= patience) {
          if (active < n) { reconstruct(); active = n; mayShrink = false; since = 0; gapBest = Infinity; }
          else return 3;
        }
      }
      return 0;
    }
    var rc = iterate();
    reconstruct(); active = n;
    var optimal = select();
    var out = new Float64Array(n), nFree = 0, acc = 0, gOrig = new Float64Array(n), isFree = new Uint8Array(n);
    for (t = 0; t < n; t++) {
      out[perm[t]] = alpha[t];
      if (alpha[t] > 0 && alpha[t] < C) { nFree++; gOrig[perm[t]] = g[t]; isFree[perm[t]] = 1; }
    }
    for (s = 0; s < n; s++) if (isFree[s]) acc += gOrig[s];
    var b = nFree > 0 ? acc / nFree : 0.5 * (mUp + MLow);
    return { alpha: out, b: b, nIter: nIter, converged: optimal, gap: gap, stalled: rc === 3,
             timedOut: rc === 4, nConcave: nConcave };
  }

  // -- sanity_report (indefsvm.diagnostics.posttrain.sanity_report_from_alpha) -------------
  function sanity(K, n, y, alpha, C, b, tol) {
    var v = new Float64Array(n), i, j, s = 0;
    for (i = 0; i < n; i++) { v[i] = y[i] * alpha[i]; s += alpha[i]; }
    var Kv = new Float64Array(n);
    for (i = 0; i < n; i++) { var a = 0; for (j = 0; j < n; j++) a += K[i * n + j] * v[j]; Kv[i] = a; }
    var m = -Infinity, M = Infinity, yAlpha = 0, aQa = 0, wrong = 0, nb = 0, nsv = 0;
    for (i = 0; i < n; i++) {
      var grad = y[i] * Kv[i] - 1, gi = -y[i] * grad;
      var inUp = (alpha[i] < C && y[i] > 0) || (alpha[i] > 0 && y[i] < 0);
      var inLow = (alpha[i] < C && y[i] < 0) || (alpha[i] > 0 && y[i] > 0);
      if (inUp && gi > m) m = gi;
      if (inLow && gi < M) M = gi;
      yAlpha += y[i] * alpha[i];
      aQa += v[i] * Kv[i];
      if ((Kv[i] + b > 0 ? 1 : -1) !== y[i]) wrong++;
      if (alpha[i] >= C) nb++;
      if (alpha[i] > 0) nsv++;
    }
    var gap = m - M, feasible = Math.abs(yAlpha) <= 1e-8 * Math.max(1, C * n);
    var stationary = feasible && gap <= tol, wMw = (2 / s) * (2 / s) * aQa;
    return {
      kkt_gap: gap, objective: 0.5 * aQa - s, wMw: wMw, n_sv: nsv, n_bounded: nb,
      train_error: wrong / n, ch_mu: 2 * C / s, ch_alpha: Array.from(alpha, function (a) { return 2 * a / s; }),
      verdict: !stationary ? "not stationary" : (wMw > 0 ? "sensible" : "counter-intuitive"),
      Kv: Kv
    };
  }

  // -- drawing figures (indefsvm.explorer._frames) -----------------------------------------
  function r4(v, digits) { return Number(v.toPrecision(digits || 4)); }
  function rounded(a, digits) {
    return Array.prototype.map.call(a, function (v) {
      return Array.isArray(v) ? rounded(v, digits) : r4(v, digits);
    });
  }

  // indefsvm.geometry.reduced_hull, then _polygon's dropping of repeated vertices
  function reducedHull(P, mu) {
    var m = P.length;
    if (m === 0) return [];
    mu = Math.min(Math.max(mu, 1 / m), 1);
    var k = Math.floor(1 / mu + 1e-12), rest = 1 - k * mu, out = [];
    var proj = new Float64Array(m), idx = [];
    for (var i = 0; i < m; i++) idx.push(i);
    for (var dnum = 0; dnum < HULL_DIRECTIONS; dnum++) {
      var th = 2 * Math.PI * dnum / HULL_DIRECTIONS, c = Math.cos(th), s = Math.sin(th);
      for (i = 0; i < m; i++) proj[i] = -(P[i][0] * c + P[i][1] * s);
      idx.sort(function (a, b) { return proj[a] - proj[b]; });
      var x = 0, y = 0;
      for (i = 0; i < k && i < m; i++) { x += P[idx[i]][0]; y += P[idx[i]][1]; }
      x *= mu; y *= mu;
      if (rest > 1e-12 && k < m) { x += rest * P[idx[k]][0]; y += rest * P[idx[k]][1]; }
      out.push([x, y]);
    }
    var keep = [out[0]];
    for (i = 1; i < out.length; i++) {
      if (Math.abs(out[i][0] - out[i - 1][0]) > 1e-12 || Math.abs(out[i][1] - out[i - 1][1]) > 1e-12) keep.push(out[i]);
    }
    return rounded(keep);
  }

  function aligned(v, signal) {
    var s = 0, absSum = 0, i, big = 0, at = 0;
    for (i = 0; i < v.length; i++) { s += v[i] * signal[i]; absSum += Math.abs(v[i]); }
    if (Math.abs(s) <= 1e-9 * (absSum + 1e-300)) {
      for (i = 0; i < v.length; i++) if (Math.abs(v[i]) > big) { big = Math.abs(v[i]); at = i; }
      s = v[at];
    }
    return s >= 0 ? v : v.map(function (x) { return -x; });
  }

  // the embedding (PseudoEuclideanEmbedding.fit on K) and the two axes of the page (_plane);
  // eigenvalues of the centred kernel: those of K on the complement of e, and the zero along e
  function plane(ck, n, y) {
    var mu = ck.mu, lamC = Array.from(mu);
    lamC.push(0);
    var big = 0, i;
    for (i = 0; i < lamC.length; i++) big = Math.max(big, Math.abs(lamC[i]));
    var tol = n * EPS * big;
    var pos = [], neg = [];
    for (i = mu.length - 1; i >= 0; i--) if (mu[i] > tol) pos.push(i);
    for (i = 0; i < mu.length; i++) if (mu[i] < -tol) neg.push(i);
    var R = ck.restricted;
    function axis(j) {  // the eigenvector of JKJ for mu[j], scaled by sqrt|mu[j]|
      var xb = eigvector(ck.Tb, mu[j]), x = new Float64Array(n), dot = 0;
      for (i = 1; i < n; i++) x[i] = xb[i - 1];
      for (i = 0; i < n; i++) dot += R.v[i] * x[i];
      for (i = 0; i < n; i++) x[i] -= (2 / R.c) * dot * R.v[i];
      var sc = Math.sqrt(Math.abs(mu[j]));
      return Array.from(x, function (a) { return a * sc; });
    }
    var signal = [], np = 0;
    for (i = 0; i < n; i++) np += y[i] > 0 ? 1 : 0;
    for (i = 0; i < n; i++) signal.push((y[i] > 0 ? 1 : 0) - np / n);
    var zero = new Array(n).fill(0);
    var xs = pos.length ? aligned(axis(pos[0]), signal) : zero, ys, m, label, lamAxes;
    if (neg.length) {
      ys = aligned(axis(neg[0]), signal); m = -1; label = "leading negative axis";
      lamAxes = [pos.length ? mu[pos[0]] : 0, mu[neg[0]]];
    } else if (pos.length >= 2) {
      ys = aligned(axis(pos[1]), signal); m = 1; label = "second positive axis (no negative axis: q = 0)";
      lamAxes = [mu[pos[0]], mu[pos[1]]];
    } else {
      ys = zero; m = 1; label = "none (rank 1)"; lamAxes = [pos.length ? mu[pos[0]] : 0, 0];
    }
    var P = [];
    for (i = 0; i < n; i++) P.push([xs[i], ys[i]]);
    lamC.sort(function (a, b) { return b - a; });
    return { P: P, M: m, label: label, lamAxes: lamAxes, spectrum: lamC, hasPos: pos.length > 0 };
  }

  // one frame, in the form of indefsvm.explorer._frames (kernel_part + svm_part + input_part)
  function frame(state) {
    var X = state.X, yl = state.y, n = X.length, i;
    if (n < 2) throw new Error("Add points: the SVM needs at least one point of each class.");
    var y = Float64Array.from(yl);
    var npos = 0;
    for (i = 0; i < n; i++) npos += y[i] > 0 ? 1 : 0;
    if (npos === 0 || npos === n) throw new Error("Add a point of the other class: the SVM needs both.");
    var C = state.C, tol = 1e-3;
    var K0 = kernelMatrix(X, state.kernel, state.params);
    var fix = fixKernel(K0, n, state.remedy), K = fix.K;
    var ck = checkKernel(K, n, y, function (Cs) {
      return Cs.map(function (c) {
        var res = smo(K, n, y, c, tol, 0, CHECK_BUDGET_MS), s = 0, v = new Float64Array(n);
        for (var t = 0; t < n; t++) { s += res.alpha[t]; v[t] = y[t] * res.alpha[t]; }
        return s > 0 ? (2 / s) * (2 / s) * quadForm(K, n, v) : 0;
      });
    });
    var pl = plane(ck, n, y);
    var pos = y.map(function (v) { return v > 0 ? 1 : 0; });
    var Ppos = [], Pneg = [];
    for (i = 0; i < n; i++) (pos[i] ? Ppos : Pneg).push(pl.P[i]);
    var res = smo(K, n, y, C, tol);
    var san = sanity(K, n, y, res.alpha, C, res.b, tol);
    var zp = [0, 0], zm = [0, 0];
    for (i = 0; i < n; i++) {
      var a = san.ch_alpha[i], tgt = pos[i] ? zp : zm;
      tgt[0] += a * pl.P[i][0]; tgt[1] += a * pl.P[i][1];
    }
    var w = [zp[0] - zm[0], zp[1] - zm[1]], Mw = [w[0], w[1] * pl.M];
    var support = [];
    for (i = 0; i < n; i++) if (san.ch_alpha[i] > 0) support.push(i);
    var f = {
      params: state.params, remedy: state.remedy,
      signature: ck.signature, signature_decided: ck.signatureDecided,
      negative_mass: ck.negativeMass, lam_min: ck.lam[0], lam_max: ck.lam[n - 1],
      class_mean_sqdist: ck.dcm, kernel_verdict: ck.verdict, zero_tol: ck.tol,
      spectrum: rounded(pl.spectrum), eigenvalues: pl.spectrum,
      plane: rounded(pl.P), plane_axes: [pl.hasPos ? "leading positive axis" : "none", pl.label],
      plane_eigenvalues: pl.lamAxes, plane_M: [1, pl.M],
      hulls_full: [reducedHull(Ppos, 1), reducedHull(Pneg, 1)],
      C: C, w_M_w: san.wMw, sanity_verdict: san.verdict, converged: res.converged,
      n_iter: res.nIter, kkt_gap: san.kkt_gap, objective: san.objective, n_sv: san.n_sv,
      n_bounded: san.n_bounded, train_accuracy: 1 - san.train_error, ch_mu: san.ch_mu,
      convergence_warning: res.converged ? null : "SMO did not reach tol", support: support,
      stop: res.converged ? "converged" : res.timedOut ? "time" : res.stalled ? "stalled"
        : "iterations",
      alpha: Array.from(res.alpha), b: res.b,
      z_plus: rounded(zp), z_minus: rounded(zm), w: rounded(w), Mw: rounded(Mw),
      plane_w_M_w: w[0] * w[0] + w[1] * w[1] * pl.M,
      hulls: [reducedHull(Ppos, san.ch_mu), reducedHull(Pneg, san.ch_mu)]
    };
    if (state.box) f.decision = decisionImage(state, fix, res, y);
    Object.defineProperty(f, "K0", { value: K0 });  // for window.indefsvm.kernel(), not drawn
    Object.defineProperty(f, "K", { value: K });
    f.caption = caption(f);
    return f;
  }

  // input_part: the decision function over an INPUT_GRID^2 image of the box
  function decisionImage(state, fix, res, y) {
    var X = state.X, n = X.length, box = state.box, G = [], i, j;
    for (i = 0; i < INPUT_GRID; i++) for (j = 0; j < INPUT_GRID; j++) {
      G.push([box[0][0] + (box[0][1] - box[0][0]) * j / (INPUT_GRID - 1),
              box[1][0] + (box[1][1] - box[1][0]) * i / (INPUT_GRID - 1)]);
    }
    var R = kernelRows(G, X, state.kernel, state.params);
    if (fix.centre) R = centreWith(R, G.length, n, fix.colMean, fix.allMean);
    var v = new Float64Array(n);
    for (i = 0; i < n; i++) v[i] = y[i] * res.alpha[i];
    var u = fix.apply(v), out = [];
    for (i = 0; i < G.length; i++) {
      var s = 0;
      for (j = 0; j < n; j++) s += R[i * n + j] * u[j];
      out.push(r4(s + res.b, 3));
    }
    return out;
  }

  // indefsvm.explorer._frames.caption
  function fmtG(v, digits) {  // Python's format(v, ".3g")
    if (v === 0) return "0";
    var a = Math.abs(v), e = Math.floor(Math.log10(a));
    var p = Number(v.toPrecision(digits));
    e = Math.floor(Math.log10(Math.abs(p)));
    if (e < -4 || e >= digits) {
      var s = p.toExponential(digits - 1).replace(/\.?0+e/, "e");
      return s.replace(/e([+-])(\d)$/, "e$10$2");
    }
    return String(p);
  }
  function pct1(v) { return (100 * v).toFixed(1) + "%"; }
  function caption(f) {
    var p = f.signature[0], q = f.signature[1], words = [], remedy = f.remedy;
    if (remedy === "clip") words.push("clip set the negative eigenvalues of K to 0: the kernel is PSD and the negative directions are gone.");
    else if (remedy === "flip") words.push("flip replaced each eigenvalue of K by its absolute value: the negative directions now count as positive.");
    else if (["shift", "square", "cne", "rne"].indexOf(remedy) >= 0) words.push(remedy + " made the kernel PSD.");
    if (q === 0) words.push("Signature (p, q) = (" + p + ", 0): the data embed in a Euclidean space, M = I and Mw = w.");
    else words.push("Signature (p, q) = (" + p + ", " + q + "): " + q + " directions of negative squared length hold " + pct1(f.negative_mass) + " of the eigenvalue mass.");
    var cmd = f.class_mean_sqdist;
    if (cmd <= 0) words.push("c'Kc = " + fmtG(cmd, 3) + " <= 0: the class means are at a non-positive squared distance, which bounds w'Mw from above: no C gives a sensible SVM on this kernel.");
    var wmw = f.w_M_w;
    if (!f.converged) words.push({
      time: "SMO stopped at the page's time budget (" + BUDGET_MS / 1000 + " s) before the KKT gap reached tol (" + f.n_iter + " iterations): read the geometry with care, or lower C.",
      stalled: "SMO stalled (no decrease of the objective or the KKT gap for many steps) before the gap reached tol: read the geometry with care.",
      iterations: "SMO stopped at its iteration limit before the KKT gap reached tol: read the geometry with care."
    }[f.stop || "iterations"]);
    var agree = (f.plane_w_M_w > 0) === (wmw > 0);
    var side = wmw > 0 ? "the same side" : "opposite sides";
    var where = agree ? "in the plane shown, w and Mw point to " + side + " of the decision line"
                      : "the plane shows 2 of the p + q axes only, and there w'Mw has the other sign";
    if (wmw > 0) words.push("w'Mw = " + fmtG(wmw, 3) + " > 0: a sensible convex-hull classifier (" + where + "; hulls reduced by mu = 2C / sum(alpha) = " + fmtG(f.ch_mu, 3) + ").");
    else words.push("w'Mw = " + fmtG(wmw, 3) + " <= 0: the SVM is a counter-intuitive convex-hull classifier (" + where + "). " +
                    (cmd > 0 ? "A smaller C reduces the hulls (mu = 2C / sum(alpha)) and may restore w'Mw > 0." : ""));
    if (!f.signature_decided) words.push("(Eigenvalues lie within rounding of the zero threshold: the counts p, q, z are " + UNDECIDED + ".)");
    return words.map(function (w) { return w.trim(); }).filter(Boolean).join(" ");
  }

  return {
    KERNELS: KERNELS, UNDECIDED: UNDECIDED, kernelMatrix: kernelMatrix, eigh: eigh,
    eigvalsh: eigvalsh, smo: smo, checkKernel: checkKernel, frame: frame, fmtG: fmtG,
    tridiag: tridiag, eigvector: eigvector
  };
})();
if (typeof module !== "undefined") module.exports = IndefsvmLive;
