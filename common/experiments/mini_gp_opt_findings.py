"""What the numbers show in mini_gp_opt: the notebook's findings, each bullet computed from the runs and the
verdict table of :mod:`common.experiments.mini_gp_opt_claims` (nothing typed in)."""
from common import judging, stats, verdict_tables
from common.experiments import mini_gp_opt as experiment
from common.experiments.mini_gp_opt_claims import (COMPARABLE_MARGIN, GAP_GROWTH, GP_METHODS, MINI_VARIANTS,
                                                  bandwidth_verdicts, oversampling_verdicts, what_ran)
from common.experiments.mini_gp_opt_measures import (FEW_UNIQUE_SHARE, by_seed, final_values, median_seconds, n_arms,
                                                    paired, switch_gap_growth, timing_record)
from common.store import final_rows


def _brief(values, problem, ours, other):
    found = paired(by_seed(values, problem, ours), by_seed(values, problem, other))
    return f"vs {other} {'not run' if found is None else stats.brief(found)}"


def _means(values, problem, methods, digits=3):
    means = values[values["problem"] == problem].groupby("method")["value"].mean()
    return ", ".join(f"{name} {means[name]:.{digits}g}" for name in methods if name in means)


def _nas_bullets(table, params, verdicts):
    nas, methods = experiment.NAS_PROBLEM, params["nas_methods"]
    regret, unique = final_values(table, "nas", "normalized_regret"), final_values(table, "nas", "unique")
    if regret.empty:
        return []
    switches = final_values(table, "nas", "switches")
    variants = [name for name in MINI_VARIANTS if name in methods]
    by_variant = [f"{name} {_brief(regret, nas, name, 'BBKB')}, {_brief(regret, nas, name, 'epsilon-greedy')}"
                  for name in variants]
    fewer = [f"{name} {_brief(unique, nas, name, 'BBKB')}" for name in variants]
    gaps = [f"{name}: {switch_gap_growth(name)(table, params, {'growth': GAP_GROWTH}).reason}" for name in variants]
    ids = [f"nas-{kind}-{name}" for kind in ("regret-vs-bbkb", "regret-vs-egreedy", "unique", "switch-gap")
           for name in variants]
    bullets = [
        f"* **NAS substitute, regret (a).** Mean final normalized R_T/T: {_means(regret, nas, methods)} "
        f"(epsilon-greedy at its tuned setting). Seed by seed: {'; '.join(by_variant)}; MINI-GP-UCB "
        f"{_brief(regret, nas, 'MINI-GP-UCB', 'GP-UCB')}. Verdict of switching's harm: "
        f"{verdict_tables.verdicts_of(verdicts, ['nas-switching-no-harm'])}.",
        f"* **Unique candidates and switches (b), (d), (e).** Mean q_T: {_means(unique, nas, methods, 4)}; mean "
        f"switches h_T: {_means(switches, nas, variants, 4)}. Seed by seed: {'; '.join(fewer)}; BBKB "
        f"{_brief(unique, nas, 'BBKB', 'GP-UCB')}, {_brief(unique, nas, 'BBKB', 'GP-BUCB')}. The gap h_T - q_T "
        f"growing at least {GAP_GROWTH:g}x since T/4: {'; '.join(gaps)}. Verdicts: "
        f"{verdict_tables.verdicts_of(verdicts, [*ids, 'nas-bbkb-few-unique'])}."
        + (f" *{reading['note']}*" if (reading := bbkb_unique_reading(table, params)) else ""),
    ]
    rows = timing_record(params["T"])
    medians = {name: median_seconds(rows, nas, name).median() for name in methods
               if not median_seconds(rows, nas, name).empty}
    if medians and "BBKB" in medians:
        bullets.append(
            f"* **Speed at equal T (c).** Quiet benchmark, T = {params['T']}, median CPU seconds of the algorithm: "
            + ", ".join(f"{name} {seconds:.3g}" for name, seconds in medians.items()) + "; BBKB over "
            + ", ".join(f"{name} {medians['BBKB'] / medians[name]:.1f}x" for name in variants if name in medians)
            + f". Verdicts: "
            f"{verdict_tables.verdicts_of(verdicts, [*(f'nas-faster-{name}' for name in variants), 'nas-runtime-gap'])}.")
    else:
        bullets.append(f"* **Speed at equal T (c).** No quiet benchmark recorded at T = {params['T']} "
                       f"(`python benchmarks/bench_mini_gp_opt.py --record`); the grid's CPU seconds ran beside other "
                       f"work and are not compared.")
    return bullets


def bbkb_unique_reading(table, params):
    """What BBKB's unique candidates are beside the arms and the steps, for the note under nas-bbkb-few-unique.

    The paper's sentence, "despite not explicitly being designed for this, BBKB does not select a very large number
    of unique arms" (§5), says how many unique arms BBKB selects, not that it selects fewer than GP-UCB and GP-BUCB,
    which is what the claim's first criterion tested. Since 2026-11-26 it is judged as written, against the spec's
    yardstick set before any run, q_T below :data:`FEW_UNIQUE_SHARE` of the arms (the verdict table's disclosure
    gives what the first criterion gives).

    Parameters
    ----------
    table : pandas.DataFrame
        Tidy table of runs with the ``nas`` block.
    params : dict
        Resolved parameters (``T``, ``noise_beta``).

    Returns
    -------
    dict or None
        ``q_T`` (BBKB's mean final unique arms), ``arms`` (|A|), ``share_of_arms``, ``share_of_steps``
        (q_T / T), ``seeds`` and ``seeds_few`` (seeds with q_T < FEW_UNIQUE_SHARE |A|), and ``note``, the
        labelled sentence; None without BBKB runs in the nas block.
    """
    unique = final_values(table, "nas", "unique")
    bbkb = unique.loc[unique["method"] == "BBKB", "value"]
    if bbkb.empty:
        return None
    arms = n_arms(params)
    found = {"q_T": float(bbkb.mean()), "arms": arms, "share_of_arms": float(bbkb.mean()) / arms,
             "share_of_steps": float(bbkb.mean()) / params["T"], "seeds": len(bbkb),
             "seeds_few": int((bbkb < FEW_UNIQUE_SHARE * arms).sum())}
    found["note"] = (
        "On nas-bbkb-few-unique (criterion changed 2026-11-26, disclosed in the verdict table): the paper's sentence "
        "\"despite not explicitly being designed for this, BBKB does not select a very large number of unique arms\" "
        "(§5) is absolute, so it is judged against the spec's yardstick for few, written before any run (§7.1 F2: "
        f"q_T < {FEW_UNIQUE_SHARE:g} |A|), no longer against GP-UCB and GP-BUCB. BBKB's mean q_T = "
        f"{found['q_T']:.0f} is {found['share_of_arms']:.0%} of the |A| = {arms} arms and "
        f"{found['share_of_steps']:.1%} of the T = {params['T']} steps; q_T < {FEW_UNIQUE_SHARE:g} |A| on "
        f"{found['seeds_few']} of {found['seeds']} seeds. The substitute has fewer arms than the paper's "
        "NAS-Bench space (12,416), so the same count is a larger share of them.")
    return found


#: An ablation may conclude that a choice moves R_T/T by less than a factor 1.1 only with its interval within that
#: factor on at least this many paired seeds (issue 27: "not at 5 seeds").
ABLATION_FEWEST_SEEDS = 10


def _ablation_effect(finals, ablated, baseline, method_name, problem):
    """The ablated runs' final R_T/T over the baseline block's, seed by seed: the effect with its interval and what
    the interval rules out against the project's margin (a factor 1.1), e.g. "0.952x [0.947, 0.955], 5W/0T/0L
    p=0.062 better; within a factor 1.1, but 5 seeds cannot rule out a larger effect"."""
    def by_seed(block):
        runs = finals[(finals["experiment"] == block) & (finals["method"] == method_name)
                      & (finals["problem"] == problem)]
        return runs.set_index("seed")["normalized_regret"]
    found = paired(by_seed(ablated), by_seed(baseline))
    if found is None:
        return "no paired seeds"
    _, low, high = stats.advantage_interval(found)
    margin = judging.DEFAULT_MARGIN.advantage
    if low > margin or high < -margin:
        reading = "beyond a factor 1.1"
    elif -margin <= low and high <= margin:
        reading = ("within a factor 1.1, which rules out a larger effect" if found.n >= ABLATION_FEWEST_SEEDS else
                   f"within a factor 1.1, but {found.n} seeds cannot rule out a larger effect")
    else:
        reading = "cannot rule out a factor 1.1 either way"
    return f"{stats.brief(found)}; {reading}"


def _beta_bullet(table, params):
    if not (table["experiment"] == "beta_ablation").any():
        return None
    ablation, finals = experiment.beta_ablation_table(table, params), final_rows(table)
    parts = []
    for name, rows in ablation.groupby("method", sort=False):
        theory, scaled = rows.iloc[0], rows.iloc[1]
        parts.append(f"{name} mean batch {theory['mean batch']:.2f} -> {scaled['mean batch']:.2f}, R_T/T "
                     f"{theory['R_T/T (normalized)']:.3f} -> {scaled['R_T/T (normalized)']:.3f} (ratio "
                     f"{_ablation_effect(finals, 'beta_ablation', 'nas', name, experiment.NAS_PROBLEM)})")
    return (f"* **The theory's β (§3 ablation).** With β scaled by {params['beta_ablation_scale']:g} (ratio: the "
            f"scaled β's mean R_T/T over the theory's on the same seeds; W: seeds it ends lower): {'; '.join(parts)}.")


def _bbob_bullets(table, params, verdicts):
    regret, problems = final_values(table, "bbob", "normalized_regret"), params["bbob_problems"]
    if regret.empty:
        return []
    bullets = []
    others = [other for other in ("GP-UCB", "BBKB") if other in params["bbob_methods"]]
    for name in [variant for variant in MINI_VARIANTS if variant in params["bbob_methods"]]:
        found = {f"{problem} vs {other}": c for problem in problems for other in others
                 if (c := paired(by_seed(regret, problem, name), by_seed(regret, problem, other))) is not None}
        worse = [f"{label} {c.effect}" for label, c in found.items()
                 if judging.judge_cell(c, "no worse", COMPARABLE_MARGIN).judgement != "supported"]
        rows = timing_record(params["T"])
        ratios = [median_seconds(rows, problem, name).median() / median_seconds(rows, problem, other).median()
                  for problem in problems for other in ("GP-UCB", "BBKB")
                  if not (median_seconds(rows, problem, name).empty or median_seconds(rows, problem, other).empty)]
        runtime = (f"its median CPU seconds are {min(ratios):.3g}-{max(ratios):.3g}x those of GP-UCB and BBKB "
                   f"(quiet benchmark, {len(ratios)} cells)" if ratios else
                   f"no quiet benchmark at T = {params['T']}")
        bullets.append(f"* **{name} on BBOB (Figs. 3, 4).** No worse than {' and '.join(others)} (the interval of the "
                       f"ratio of mean R_T/T below a factor C = 1.1) in {len(found) - len(worse)} of {len(found)} "
                       f"cells" + (f" (not shown: {', '.join(worse)})" if worse else "")
                       + f"; {runtime}. Verdicts: "
                       f"{verdict_tables.verdicts_of(verdicts, [f'bbob-regret-{name}', f'bbob-runtime-{name}'])}.")
    gp_methods = [name for name in params["bbob_methods"] if name in GP_METHODS]
    if "Rosenbrock f104" in problems:
        found = {name: c for name in gp_methods if (c := paired(by_seed(regret, "Rosenbrock f104", name),
                                                                 by_seed(regret, "Rosenbrock f104",
                                                                          "epsilon-greedy"))) is not None}
        better = [f"{name} {c.effect}" for name, c in found.items() if stats.interval_side(c) == "better"]
        worse = [f"{name} {c.effect}" for name, c in found.items() if stats.interval_side(c) == "worse"]
        bullets.append(f"* **Rosenbrock f104 against the tuned ε-greedy.** Of {len(found)} GP methods, "
                       f"{len(better)} are better (the interval of the ratio of mean R_T/T below 1)"
                       + (f" ({', '.join(better)})" if better else "")
                       + f" and {len(worse)} worse" + (f" ({', '.join(worse)})" if worse else "")
                       + f". Verdict: {verdict_tables.verdicts_of(verdicts, ['bbob-rosenbrock-egreedy'])}.")
    return bullets


def _epsilon_bullet(table):
    search = experiment.epsilon_greedy_search(table)
    if search.empty:
        return None
    settings = "; ".join(f"{row['problem']}: a = {row['epsilon_a']:g}, b = {row['epsilon_b']:.3g} "
                         f"(R_T/T {row['R_T/T (normalized)']:.3g})" for _, row in search[search["tuned"]].iterrows())
    n_settings = len(experiment.epsilon_settings("epsilon-greedy"))
    return (f"* **ε-greedy, tuned as the paper tunes it.** The (a, b) of its {n_settings}-setting grid with the "
            f"lowest mean final R_T/T over the seeds, per problem: {settings}.")


def _lambda_bullet(table):
    if not (table["experiment"] == "lambda_ablation").any():
        return None
    rows, finals = experiment.lambda_ablation_table(table), final_rows(table)
    parts = [f"{row['method']}: R_T/T {row['R_T/T (p90 std)']:.3g} -> {row['R_T/T (squared)']:.3g} (ratio "
             f"{_ablation_effect(finals, 'lambda_ablation', 'nas', row['method'], experiment.NAS_PROBLEM)}), "
             f"mean batch {row['mean batch (p90 std)']:.3g} -> {row['mean batch (squared)']:.3g}"
             for _, row in rows.iterrows()]
    return (f"* **λ as the noise std or its square (ablation, NAS substitute, λ {rows['lambda'].iloc[0]}; ratio: "
            f"the squared λ's mean R_T/T over the std's on the same seeds; W: seeds it ends lower).** "
            f"{'; '.join(parts)}.")


def _bandwidth_bullet(table, params, verdicts):
    if not (table["experiment"] == "bandwidth_ablation").any():
        return None
    rows, finals = experiment.bandwidth_ablation_table(table, params), final_rows(table)
    parts = [f"{row['method']}: R_T/T {row['R_T/T (fixed)']:.3g} -> {row['R_T/T (pick)']:.3g} (ratio "
             f"{_ablation_effect(finals, 'bandwidth_ablation', 'nas', row['method'], experiment.NAS_PROBLEM)}), q_T "
             f"{row['q_T (fixed)']:.0f} -> {row['q_T (pick)']:.0f}" for _, row in rows.iterrows()]
    judged = _moved_text(bandwidth_verdicts(table, params, verdicts), "the GP methods'",
                         f"l^2 {params['bandwidth_factor']:g} m", f"l^2 {params['bandwidth_ablation_factor']:g} m")
    return (f"* **The bandwidth: the figures' fixed l^2 = {params['bandwidth_factor']:g} m or Table 1's pick "
            f"{params['bandwidth_ablation_factor']:g} m (ablation, NAS substitute, m the median squared distance; "
            f"ratio: the pick's mean R_T/T over the fixed one's on the same seeds; W: seeds it ends lower).** "
            f"{'; '.join(parts)}.{judged}")


def _moved_text(moved, whose, before, after):
    """The sentence saying which claims an ablation's runs move (:func:`ablation_verdicts`'s result)."""
    if moved is None:
        return ""
    table, problems = moved
    changes = "; ".join(f"{row['id']} {row[f'verdict ({before})']} -> {row[f'verdict ({after})']} "
                        f"({row[f'effect ({before})']} -> {row[f'effect ({after})']})" for _, row in table.iterrows())
    return f" Judged again with these runs in {whose} place on {', '.join(problems)}: {changes or 'no claim moves'}."


def _oversampling_bullet(table, params, verdicts):
    if not (table["experiment"] == "oversampling_ablation").any():
        return None
    rows = experiment.oversampling_ablation_table(table, params)
    before, after = f"{params['bbkb_oversampling']:g}", f"{params['oversampling_ablation_qbar']:g}"
    parts = [f"{row['problem']} ({row['seeds']} seeds): {row[f'R_T/T (qbar {before})']:.3g} -> "
             f"{row[f'R_T/T (qbar {after})']:.3g} ({row[f'ratio ({after} / {before})']}), "
             f"{row[f'BBKB ({after}) / MINI-GP-UCB']} MINI-GP-UCB's" for _, row in rows.iterrows()]
    judged = _moved_text(oversampling_verdicts(table, params, verdicts), "BBKB's", f"qbar {before}", f"qbar {after}")
    return (f"* **BBKB's dictionary oversampling, qbar = {before} (the figures, the authors' code) or {after} "
            f"(ablation).** BBKB's mean final normalized R_T/T at qbar {before} -> {after} (their ratio on the same "
            f"seeds), and at {after} against MINI-GP-UCB's: {'; '.join(parts)}.{judged}")


def _noise_bullet(table, params):
    if not (table["experiment"] == "noise_ablation").any():
        return None
    rows, finals = experiment.noise_ablation_table(table, params), final_rows(table)
    parts = [f"{row['problem']}, {row['method']}: {row['R_T/T (paper noise)']:.3g} -> {row['R_T/T (BBOB noise)']:.3g} "
             f"(ratio {_ablation_effect(finals, 'noise_ablation', 'bbob', row['method'], row['problem'])})"
             for _, row in rows.iterrows()]
    return (f"* **BBOB's own noise level (ablation).** Mean final normalized R_T/T at the paper's \"moderate\" "
            f"β = {params['noise_beta']:g} -> at BBOB's β for the function (ratio: BBOB's noise over the paper's on "
            f"the same seeds; W: seeds it ends lower): {'; '.join(parts)}.")


def findings(table, params, verdicts):
    """What the numbers show (:func:`common.verdict_tables.findings_markdown`), from the tidy ``table`` of runs, the
    resolved ``params`` and the ``verdicts`` of :func:`judge` on the same runs; each block with the scale it ran at.
    Speed is read from the quiet benchmark's record only."""
    return verdict_tables.findings_markdown(verdict_tables.scales_ran(what_ran(params)), [
        *_nas_bullets(table, params, verdicts), _epsilon_bullet(table), _beta_bullet(table, params),
        _lambda_bullet(table), _bandwidth_bullet(table, params, verdicts), *_bbob_bullets(table, params, verdicts),
        _noise_bullet(table, params), _oversampling_bullet(table, params, verdicts)])
