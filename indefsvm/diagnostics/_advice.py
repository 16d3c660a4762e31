"""What to do next, from a report's own figures (private): the recommendation and the
numbered notes of a kernel report and of a distance report, and the sizing they rest on --
which search fits in memory at this n, how many landmarks a model needs, the call (or the
command line) that acts on it. The reports themselves (``report``) only hold and show."""

from __future__ import annotations

from .._metrics import object_metrics
from .report import DistanceReport, KernelReport, _negligible_text, _profile_at, pct
from .spectrum import indefiniteness


def recommendation(r: KernelReport) -> str:
    """What to do, from the report's own figures (named in the sentence)."""
    if flat_on_samples(r):
        return (f"Recommendation: do not train on K as it is: its centred form J K J is zero "
                f"(signature (0, 0, {r.n}) within the zero threshold), so K adds the same to "
                "every decision value and every SVM on it predicts one class; no remedy of the "
                "spectrum changes that. Choose another kernel parameter (gamma), or scale the "
                "features: a kernel of features near 1e-300 or 1e300 underflows or saturates "
                "to a constant.")
    if getattr(r, "verdict", None) == "undecided at this accuracy":
        return ("Recommendation: decide first (method='dense', or more n_steps / n_probes): "
                "until then train on K as it is, which SMO handles either way, and check the "
                "model with sanity_report.")
    if r.is_psd or r.is_cpd:
        return ("Recommendation: train on K as it is; the SVM dual is convex"
                + (" on y'alpha = 0 (CPD)." if not r.is_psd else "."))
    sig = r.signature
    mass = "n/a" if sig.negative_mass is None else pct(sig.negative_mass)
    kind = indefiniteness(sig, r.mass_thresholds)
    compare = next_step(r)
    if r.negated_cpd:
        return ("Recommendation: do not train on K as it is (-K is CPSD: w'Mw <= 0 for every "
                "solution). A fix of the spectrum changes the geometry: try flip (RNE) and "
                "clip (CNE). " + compare)
    if r.class_mean_sqdist is not None and r.class_mean_sqdist <= 0:
        return (f"Recommendation: the labels' class means are at c'Kc = "
                f"{r.class_mean_sqdist:.3g} <= 0, so no SVM on K has w'Mw > 0; try flip "
                "(RNE) or clip (CNE), which make c'Kc positive. " + compare)
    if r.wmw_by_C:
        pos = sorted(c for c, v in r.wmw_by_C.items() if v > 0)
        if not pos:
            return ("Recommendation: every C tried gives w'Mw <= 0 on K as it is; train on "
                    "the flipped or clipped kernel (or the Krein SVM). " + compare)
        if any(v <= 0 for v in r.wmw_by_C.values()):
            return (f"Recommendation: keep C <= {max(pos):g} (w'Mw > 0 there) and check the "
                    "model with sanity_report; a smaller C trades training error for a "
                    "sensible geometry, so also " + compare[0].lower() + compare[1:])
    if kind == "slightly indefinite":
        return (f"Recommendation: train on K as it is (negative mass {mass}: slightly "
                "indefinite; clip and flip change little, Haasdonk 2005 found equal errors on "
                "such data) and check the model with sanity_report.")
    if kind == "strongly indefinite":
        return (f"Recommendation: negative mass {mass}, |most negative| / largest eigenvalue "
                f"{sig.negative_ratio:.3g}: strongly indefinite, the choice of method "
                "matters. " + compare)
    return (f"Recommendation: train on K as it is with a sanity_report (negative mass {mass}), "
            "and " + compare[0].lower() + compare[1:])


def flat_on_samples(r: KernelReport) -> bool:
    """Whether the spectrum says K is constant on the complement of e (J K J = 0 within the
    zero threshold; estimates: both counts' intervals [0, 0]): K = u e' + e u' there, so
    ``K v`` is constant for every ``e'v = 0`` -- every SVM with a bias predicts one class."""
    sp, sig = r.spectrum, r.signature
    if sp.estimated:  # both counts' intervals [0, 0]: the estimates see no direction either
        iv = sp.intervals
        return bool(r.n > 1 and list(iv["n_pos"]) == [0, 0] and list(iv["n_neg"]) == [0, 0])
    return bool(r.n > 1 and sig.p == 0 and sig.q == 0)


#: from this many samples the advice trains on Nystroem features, not the whole kernel: a
#: remedy's eigendecomposition of 10^4 rows takes minutes, of 2 x 10^4 half an hour
SCALE_N = 10_000

#: the memory of the dense search, in n x n float64 matrices (the kernel, and per fold its
#: training kernel, eigenvectors, fixed and centred kernels; as 'indefsvm compare' counts)
SEARCH_MATRICES = 4.6


def dense_search_fits(n: int) -> bool:
    """Whether the remedy search on the whole kernel is reasonable for ``n`` samples: fewer
    than ``SCALE_N`` and its matrices fit in the memory available now."""
    from .._validation import available_memory

    if n >= SCALE_N:
        return False
    avail = available_memory()
    return avail is None or SEARCH_MATRICES * 8.0 * n * n <= avail


#: the most landmarks the advice proposes: n x m float32 features (and m x m landmarks)
#: stay a few GB up to 10^6 samples, and the fit minutes
MAX_LANDMARKS = 2000


def _landmarks(r) -> int:
    """n_components for NystroemSVC: what the negative part needs (rounded up to a hundred),
    at least NystroemSVC's default of 500, at most ``MAX_LANDMARKS`` and n."""
    need = r.nystroem_landmarks or 0
    return int(min(r.n, MAX_LANDMARKS, max(500, -(-need // 100) * 100)))


def _kernel_args(kernel: dict, keyword: bool) -> list[str] | None:
    """The kernel description of a report as constructor arguments: ``kernel='sigmoid'``
    (``'sigmoid'`` when not ``keyword``), ``gamma``, ``coef0``, ``degree`` by name and the
    other parameters in ``kernel_params``; a callable by its own name with all its parameters
    in ``kernel_params``. ``None`` for a callable without a name that code can use (a
    lambda)."""
    from ..kernels import canonical_name

    name = str(kernel.get("kernel"))
    try:
        name = repr(canonical_name(name))
        named = ("gamma", "coef0", "degree")
    except ValueError:
        if not name.isidentifier():
            return None
        named = ()
    own = {k: v for k, v in kernel.items() if k in named}
    rest = {k: v for k, v in kernel.items() if k not in ("kernel", *own)}
    args = [f"kernel={name}" if keyword else name]
    args += [f"{k}={float(v)!r}" if k != "degree" else f"{k}={int(v)!r}"
             for k, v in own.items()]
    if rest:
        args.append("kernel_params={" + ", ".join(
            f"{k!r}: {float(v)!r}" if isinstance(v, float) else f"{k!r}: {v!r}"
            for k, v in rest.items()) + "}")
    return args


def _kernel_call(kernel: dict, head: str) -> str | None:
    """``head(kernel='sigmoid', gamma=0.01, ...`` (left open), or ``None`` where the kernel
    cannot be written as code (see ``_kernel_args``)."""
    args = _kernel_args(kernel, keyword=True)
    return None if args is None else f"{head}({', '.join(args)}"


def _feature_kernel_call(kernel: dict) -> str | None:
    """``indefsvm.FeatureKernel('sigmoid', gamma=0.01, coef0=0.5)`` for the report's
    kernel, ``indefsvm.FeatureKernel(my_kernel, kernel_params=...)`` for a callable by its
    own name; ``None`` for a lambda."""
    args = _kernel_args(kernel, keyword=False)
    return None if args is None else f"indefsvm.FeatureKernel({', '.join(args)})"


def _cli_data(r, default: str = "FILE") -> str:
    """The data part of a command the notes print: what ``indefsvm check`` was given
    (``data_args``), or ``default`` for a report made in Python."""
    return getattr(r, "data_args", None) or default


def next_step(r) -> str:
    """The call that acts on a kernel report, sized for its ``n``: the remedy search on the
    whole kernel where that is reasonable, Nystroem features past it (code that runs as
    printed, with the report's own kernel and parameters)."""
    n = r.n
    kernel = r.kernel if isinstance(getattr(r, "kernel", None), dict) else None
    if dense_search_fits(n):
        feature_kernel = _feature_kernel_call(kernel) if kernel is not None else None
        data = _cli_data(r)
        cli = f"'indefsvm compare {data} --search --save model.skops'"
        if feature_kernel is not None:
            # features: the search computes each fold's kernel from its training rows and
            # its refitted model predicts from features, not from kernel rows
            g = kernel.get("gamma") if feature_kernel.startswith("indefsvm.FeatureKernel('") \
                else None
            span = (f"gamma ({float(g):.6g} x 4^-4 ... 4^2), " if g is not None else "")
            code = (f"search = indefsvm.RemedySearchCV(kernel={feature_kernel}).fit(X, y) -- "
                    f"every remedy, {span}C on the same folds, the choice refitted on X, "
                    "search.predict(X_new) on new features")
            if g is not None and "--gamma " in data:
                cli += ", which keeps your --gamma fixed"
        else:
            code = "search = indefsvm.RemedySearchCV().fit(K, y)"
        return (f"Search the remedies on your folds, choose and refit: {code} (or {cli}); "
                "no method wins on every data set (Chen et al. 2009), search.comparison_ "
                "shows the evidence.")
    m = _landmarks(r)
    need = (f" (the negative part needs at least {r.nystroem_landmarks} landmarks, note "
            "above)" if r.nystroem_landmarks and r.nystroem_landmarks <= m else "")
    if r.nystroem_landmarks and r.nystroem_landmarks > m:
        need = (f" -- the negative part is spread over about {r.nystroem_landmarks} "
                f"directions, more than {m} landmarks can hold: the features will see little "
                "of it, so compare remedy='krein' with 'clip' (which drops it) and expect "
                "them to agree")
    why = (f"at n = {n} the whole kernel takes {8.0 * n * n / 2**30:.1f} GiB and each "
           "remedy an eigendecomposition of minutes to hours")
    call = None if kernel is None else _kernel_call(kernel, "indefsvm.NystroemSVC")
    if call is not None:
        call += f", n_components={m}, remedy='krein').fit(X, y)"
        return (f"Train on Krein-space Nystroem features, {why}: clf = {call}{need}; compare "
                "remedy='krein', 'flip' and 'clip' on a held-out part (or 'indefsvm fit "
                f"{_cli_data(r)} --nystroem {m}').")
    return (f"The kernel is given as a matrix, {why}: train the SVM on it as it is, "
            "indefsvm.IndefiniteSVC(kernel='precomputed').fit(K, y) (SMO needs no "
            "decomposition), and search the remedies on a stratified subsample of a few "
            "thousand rows (idx = sklearn.model_selection.train_test_split(numpy.arange(len(y)),"
            f" train_size={min(4000, n // 2)}, stratify=y)[0]; search = "
            "indefsvm.RemedySearchCV().fit(K[numpy.ix_(idx, idx)], y[idx])); with the "
            "features, NystroemSVC trains on all of them.")


def build_notes(r: KernelReport) -> list[str]:
    """The numbered notes of a report, in plain words with the numbers."""
    sp, sig, eta = r.spectrum, r.signature, r.eta
    notes = []
    if sp.estimated:
        iv = sp.intervals
        notes.append(
            f"Estimates (matrix-free, {sp.method}): lambda_min in [{iv['lam_min'][0]:.4g}, "
            f"{iv['lam_min'][1]:.4g}], lambda_max in [{iv['lam_max'][0]:.4g}, "
            f"{iv['lam_max'][1]:.4g}], q in {iv['n_neg']}, negative mass in "
            f"[{pct(iv['negative_mass'][0])}, {pct(iv['negative_mass'][1])}]; the verdict "
            "reads the point estimates where the intervals of the smallest eigenvalues lie on "
            "one side of the zero threshold (else: undecided at this accuracy). The eta scan, "
            "c'Kc and the diagonal are exact.")
    if r.verdict == "undecided at this accuracy":
        key = "lam_min" if sp.intervals["lam_min"][0] < -sp.tol <= sp.intervals["lam_min"][1] \
            or not (sp.intervals["lam_min"][1] < -sp.tol) else "restricted_min"
        what = ("whether K is PSD" if key == "lam_min"
                else "whether K is CPD (PSD on the complement of e)")
        lo, hi = sp.intervals[key]
        notes.append(
            f"Undecided at this accuracy: the smallest eigenvalue "
            f"{'of K' if key == 'lam_min' else 'on the complement of e'} lies in "
            f"[{lo:.4g}, {hi:.4g}], on both sides of the zero threshold {0.0 - sp.tol:.3g} (or "
            f"within rounding of it), so the estimates cannot say {what}, nor whether the "
            "SVM dual is convex. Decide it with method='dense' (exact; memory 8 n^2 bytes) or "
            "narrow the interval with more Lanczos steps (n_steps) and probes (n_probes).")
    elif r.is_psd:
        notes.append(f"K is positive semi-definite: lambda_min = {r.lam_min:.4g} >= "
                     f"{0.0 - sp.tol:.3g} (zero threshold). The SVM dual is convex.")
    else:
        notes.append(f"K is not PSD: lambda_min = {r.lam_min:.4g}, "
                     f"{pct(abs(r.lam_min) / sp.scale)} of max |lambda| = {sp.scale:.4g}. "
                     "The SVM dual is not convex; SMO returns a stationary point.")
    notes.append(r.cpd.note)
    mass = sig.negative_mass
    kind = indefiniteness(sig, r.mass_thresholds)
    mass_txt = ("" if mass is None else
                f", negative mass {pct(mass)} (sum |negative| / sum |all| eigenvalues of the "
                "centred kernel JKJ)")
    lo, hi = r.mass_thresholds
    notes.append(f"Pseudo-Euclidean signature (p, q, z) = ({sig.p}, {sig.q}, {sig.z}): the data "
                 f"embed in R^({sig.p},{sig.q}){mass_txt}, |most negative| / largest "
                 f"eigenvalue {sig.negative_ratio:.3g}: {kind} (thresholds: mass {pct(lo)} / "
                 f"{pct(hi)}, eigenvalue ratio {pct(hi)} / 50 %).")
    if r.negated_cpd:
        notes.append("-K is conditionally positive semi-definite (no eigenvalue on the "
                     "complement of e is positive): "
                     "w'Mw <= 0 for every solution, whatever the data. Unsuitable (Haasdonk 2005, "
                     "§7.3).")
    if eta.n_negative:
        notes.append(f"{eta.n_negative} of {eta.n_pairs} pairs ({pct(eta.fraction)}) have "
                     f"eta = K_ii + K_jj - 2K_ij < 0 (smallest {eta.worst_eta:.4g} at pair "
                     f"{eta.worst_pair}): SMO meets concave sub-problems there and takes the "
                     "step to the bound (rule (27)).")
    else:
        notes.append("No pair has eta = K_ii + K_jj - 2K_ij < 0, so every SMO sub-problem is "
                     "convex. This does NOT mean K is PSD: the spectrum decides that.")
    if eta.n_cross_nonpositive:
        notes.append(f"{eta.n_cross_nonpositive} opposite-label pairs have eta <= 0: without "
                     "an upper bound problem (6) is unbounded below (Thm 5); keep C finite.")
    if r.class_mean_sqdist is not None:
        d = r.class_mean_sqdist
        if d > 0:
            notes.append(f"Squared distance of the class means c'Kc = {d:.4g} > 0: an upper "
                         "bound on w'Mw, so a solution with w'Mw > 0 can exist (a smaller C "
                         "may be needed).")
        else:
            notes.append(f"Squared distance of the class means c'Kc = {d:.4g} <= 0: every "
                         "CH/SVM solution has w'Mw <= 0. Unsuitable for these labels "
                         "(Haasdonk 2005, §7.3).")
    for p in r.pairs or []:
        a, b = p["classes"]
        if p["class_mean_sqdist"] <= 0:
            notes.append(f"Classes {a} vs {b}: c'Kc = {p['class_mean_sqdist']:.4g} <= 0, every "
                         "solution of this pair has w'Mw <= 0: unsuitable for it (Haasdonk "
                         "2005, §7.3).")
        if p["n_cross_nonpositive"]:
            notes.append(f"Classes {a} vs {b}: {p['n_cross_nonpositive']} opposite-label pairs "
                         "have eta <= 0; keep C finite (Thm 5).")
    if r.n_negative_diagonal:
        notes.append(f"{r.n_negative_diagonal} diagonal entries K_ii are negative: without "
                     "y'alpha = 0 and a finite C the no-bias problem (19) is unbounded "
                     "(Thm 10).")
    if r.sigmoid is not None:
        notes.append(str(r.sigmoid))
    if r.wmw_by_C:
        pos = [c for c, v in r.wmw_by_C.items() if v > 0]
        neg = [c for c, v in r.wmw_by_C.items() if v <= 0]
        if neg and pos:
            notes.append(f"w'Mw of the trained SVM is > 0 for C in {pos} and <= 0 for C in "
                         f"{neg}: only the former are sensible convex-hull classifiers "
                         "(Haasdonk 2005, §7.4).")
        elif neg:
            notes.append(f"w'Mw of the trained SVM is <= 0 for every C tried ({neg}): no "
                         "sensible solution was found on the kernel as it is.")
    if r.nystroem_landmarks is not None:
        est = "about " if r.spectrum.intervals else ""
        notes.append(
            f"At scale: 90% of the negative mass lies in the top {est}"
            f"{r.nystroem_landmarks} eigen-directions by |lambda|; Nystroem features "
            f"(KreinNystroem, NystroemSVC) need n_components >= {r.nystroem_landmarks} to see "
            "the negative part, a few times more to approximate it (user guide: how many "
            "landmarks).")
    notes.append(recommendation(r))
    method = ("eigenvalues from one dense tridiagonalisation" if sp.method == "dense"
              else "; ".join(sp.approximate))
    notes.append(f"Method: {method}. Zero threshold {sp.tol:.3g} = rtol {sp.rtol:.3g} x "
                 f"max |lambda|.")
    return [n for n in notes if n]


#: series whose means spread by more than this many of their median standard deviation, or
#: whose standard deviations span more than this ratio (90th / 10th percentile), are said
#: not to be z-normalised
LEVEL_SPREAD, SCALE_RATIO = 1.0, 3.0


def _levels_note(levels: dict | None) -> str | None:
    """The note of series whose levels or scales differ: DTW counts them, and z-normalised
    series (the UCR archive's convention) compare shapes only."""
    if levels is None:
        return None
    scale = levels["scale_median"]
    spread = levels["level_spread"] > LEVEL_SPREAD * scale
    ratio = levels["scale_high"] > SCALE_RATIO * max(levels["scale_low"], 1e-300)
    if not (spread or ratio):
        return None
    return (f"The series are not z-normalised ({levels['n']} of them read): their means "
            f"spread by "
            f"{levels['level_spread']:.3g} (standard deviation across series) against a "
            f"median standard deviation of {scale:.3g} within a series, and those range from "
            f"{levels['scale_low']:.3g} to {levels['scale_high']:.3g} (10th to 90th "
            "percentile). DTW compares raw values: level and scale count in every distance, "
            "besides the shape. If only the shape should (the UCR archive's convention), "
            "z-normalise each series first, (x - x.mean()) / x.std(); if levels tell the "
            "classes apart, keep them.")


def distance_notes(r: DistanceReport) -> list[str]:
    """The numbered notes of a distance report, with its own figures."""
    notes = []
    levels = _levels_note(r.series_levels)
    if levels is not None:
        notes.append(levels)
    if not r.symmetric:
        notes.append(f"D is not symmetric (max |D - D'| = {r.max_asymmetry:.4g}): a "
                     "distance-substitution kernel needs d(x, z) = d(z, x). The figures below "
                     "are of (D + D') / 2; symmetrise D yourself before making a kernel.")
    if not r.zero_diagonal:
        notes.append(f"The diagonal is not zero (max |d(x, x)| = {r.max_diagonal:.4g}): a "
                     "distance has d(x, x) = 0. exp(-gamma d^2) then has a diagonal below 1.")
    if not r.nonnegative:
        notes.append(f"{r.n_negative} entries are negative: distances are >= 0. Is this a "
                     "similarity? Then use it as a kernel (check_kernel), not as distances.")
    if r.triangle_violations > 0:
        how = ("estimated from a random sample" if r.triangle_interval is not None
               else "counted over every triple")
        notes.append(f"{pct(r.triangle_violations)} of the triangle inequalities d_ij <= d_ik "
                     f"+ d_kj fail ({how}; the worst by {r.worst_triangle:.3g} of max D): D is "
                     "not a metric (DTW and many alignment scores are not); "
                     "nearest-neighbour search trees that assume it may miss neighbours.")
    elif r.triangle_interval is None:
        notes.append("Every triangle inequality holds (all triples counted): D is a "
                     "(pseudo)metric on these objects.")
    else:
        notes.append(f"No triangle inequality failed in {r.n_triangles} sampled triples "
                     f"(95 % interval of the share [0, {pct(r.triangle_interval[1])}]).")
    sig = r.signature
    if r.n_sample is not None:
        halves = r.negative_mass_halves or []
        notes.append(
            f"Estimated from {r.n_sample} of the {r.n} objects drawn at random: only their "
            f"{r.n_sample} x {r.n_sample} distances were computed, never all {r.n} x {r.n}. "
            "The triangle share comes from triples of the sample; its interval holds both "
            "draws, of the triples and of the objects"
            + ("" if not halves else
               f"; the negative mass, {pct(sig.negative_mass)}, ranged from "
               f"{pct(min(halves))} to {pct(max(halves))} on four random halves of the "
               "sample (the spread says how far the estimate may be from all the objects' "
               "figure; it grows with the number of objects when the distance has many "
               "small negative directions)") + ".")
    if r.euclidean is None:
        notes.append(f"The sample is Euclidean (Schoenberg 1938): so far no negative "
                     f"direction. That does not prove all {r.n} objects Euclidean (a larger "
                     "set can have one); it is undecided. A non-Euclidean sample would "
                     "have proved D non-Euclidean.")
    elif r.euclidean:
        notes.append("D is Euclidean (Schoenberg 1938): -1/2 J D^2 J is PSD, so the objects "
                     "embed in a Euclidean space with these distances, and exp(-gamma d^2) and "
                     "the linear form are PSD for every gamma (Haasdonk & Bahlmann 2004).")
    else:
        notes.append(f"D is not Euclidean: -1/2 J D^2 J has {sig.q} negative eigenvalues "
                     f"(signature ({sig.p}, {sig.q}, {sig.z}), negative mass "
                     f"{pct(sig.negative_mass)}, |most negative| / largest "
                     f"{sig.negative_ratio:.3g}): the objects embed only in a "
                     "pseudo-Euclidean space, and the distance kernels are indefinite for some "
                     "gamma (Schoenberg 1938; Haasdonk & Bahlmann 2004).")
    if r.gamma_profile and r.euclidean is False:
        at = _profile_at(r.gamma_profile, r.gamma_median)
        notes.append(
            f"Gamma profile: the negative mass of the centred exp(-gamma D^2) is at most "
            f"{pct(max(m for _, m in r.gamma_profile))} over gamma in "
            f"[{r.gamma_profile[0][0]:.3g}, {r.gamma_profile[-1][0]:.3g}]"
            + ("" if at is None else f", {pct(at)} at the median rule {r.gamma_median:.3g}")
            + f"; it is <= {pct(r.negligible)} for {_negligible_text(r)}. Small gamma: the "
            "kernel is nearly 1 - gamma d^2 (nearly linear); large gamma: it tends to the "
            "identity (each object similar only to itself), PSD but memorising.")
    if r.class_mean_sqdist is not None:
        d = r.class_mean_sqdist
        notes.append(
            f"Squared distance of the class means in the embedding: {d:.4g}"
            + (" > 0." if d > 0 else " <= 0: the classes' means coincide or are at negative "
               "squared distance; the linear distance kernel cannot separate them "
               "(Haasdonk 2005, §7.3)."))
    for p in r.pairs or []:
        if p["class_mean_sqdist"] <= 0:
            a, b = p["classes"]
            notes.append(f"Classes {a} vs {b}: class-mean squared distance "
                         f"{p['class_mean_sqdist']:.4g} <= 0 (Haasdonk 2005, §7.3).")
    notes.append(distance_recommendation(r))
    notes.append(f"Zero threshold of the eigenvalues {sig.tol:.3g} = rtol {sig.rtol:.3g} x max "
                 "|lambda| of -1/2 J D^2 J; the gamma profile uses check_kernel's threshold "
                 "on each kernel.")
    return notes


#: fit --metric's landmarks when --nystroem is not given: min(n, this) (the command line's
#: LANDMARKS; a test holds the two equal)
_FIT_LANDMARKS = 300


def _cli_landmarks(n: int, comps: int) -> str:
    """The --nystroem of the fit line for ``comps`` landmarks of ``n`` objects: none where
    fit's default gives that number (its CV folds then take the rule of their own size);
    with --cv 0 where a fold of fit's 5-fold CV holds fewer objects, which fit refuses."""
    if comps == min(n, _FIT_LANDMARKS):
        return ""
    return f" --nystroem {comps}" + (" --cv 0" if comps > n - -(-n // 5) else "")


def distance_recommendation(r: DistanceReport) -> str:
    """What to do with this distance, from the report's figures."""
    if not (r.symmetric and r.zero_diagonal and r.nonnegative):
        return ("Recommendation: make D a distance first (symmetric, zero diagonal, >= 0), "
                "then check it again.")
    line = ("make_pipeline(DistanceKernel(), IndefiniteSVC(kernel='precomputed')) with "
            "GridSearchCV over distancekernel__gamma")
    if dense_search_fits(r.n):
        search = ("search = indefsvm.RemedySearchCV(kernel=indefsvm.DistanceKernel())"
                  ".fit(D, y) -- every remedy, gamma around the median rule and C on the same "
                  "folds, the choice refitted (or 'indefsvm compare "
                  f"{_cli_data(r, 'FILE --distances')} --search --save model.skops')")
    else:
        search = (f"at n = {r.n} the remedies' eigendecompositions take minutes to hours: "
                  "train indefsvm.IndefiniteSVC on indefsvm.DistanceKernel() as it is, and "
                  "search the remedies on a stratified subsample of a few thousand objects "
                  "with indefsvm.RemedySearchCV(kernel=indefsvm.DistanceKernel())")
    if r.gamma_median is None:
        # no two objects at a positive distance: one object, or the same object repeated
        return ("Recommendation: every distance between two objects is 0 (one object, or "
                "identical ones): the distances cannot tell the objects apart, and no gamma "
                "can be chosen from them. Check the objects and the metric.")
    if r.metric is not None:
        # objects: the model that computes only the distances to landmarks, with the metric's
        # own parameters (the window the check used), on the command line with its data
        m = r.nystroem_landmarks or 0
        comps = min(r.n, max(300, min(2000, m)))
        params = dict(r.metric_params or {})
        py_params = f", metric_params={params!r}" if params else ""
        cli_opts = "".join(f" --{k} {v:g}" if isinstance(v, float) else f" --{k} {v}"
                           for k, v in params.items())
        cli = r.metric in object_metrics()
        data = _cli_data(r, f"FILE --metric {r.metric}{cli_opts}")
        return (f"Recommendation: train on distances to landmarks: "
                f"indefsvm.NystroemSVC(metric={r.metric!r}{py_params}, n_components={comps}, "
                f"remedy='krein').fit(X, y) ("
                + (f"the negative part of exp(-gamma d^2) at the median gamma needs at least "
                   f"{m} landmarks on the sample; " if m else "")
                + (f"at n_components = n = {r.n} the model is exact; " if comps == r.n else "")
                + "search C and gamma with GridSearchCV on a stratified subsample of a few "
                "thousand objects)"
                + (f"; on the command line 'indefsvm fit {data}{_cli_landmarks(r.n, comps)}' "
                   "searches "
                   "C and gamma on a stratified subsample itself, and 'indefsvm compare "
                   f"{data} --search --save model.skops' compares the remedies"
                   if cli else "") + ".")
    if r.euclidean:
        return (f"Recommendation: the kernel exp(-gamma d^2) is PSD for every gamma: train an "
                f"SVM as usual, {line} around the median rule {r.gamma_median:.3g}.")
    where = _negligible_text(r)
    below = ("" if where == "no gamma of the grid" else
             f"; its negative mass is negligible for {where} (the larger gamma are close to "
             "the identity kernel): prefer such a gamma if it is accurate")
    return (f"Recommendation: exp(-gamma d^2) is indefinite for some gamma{below}. "
            f"IndefiniteSVC trains on it as it is; search gamma, C and the remedies together: "
            f"{search}.")
