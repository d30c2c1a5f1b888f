"""What the numbers show in egp_ts: the notebook's findings, each bullet computed from the runs and the
verdict table of :mod:`common.experiments.egp_ts_claims` (nothing typed in)."""
import numpy as np

from common import judging, stats, verdict_tables
from common.experiments import egp_ts as experiment
from common.experiments.egp_ts_claims import FIG1_RIVALS, FIG2_RIVALS, GP_EI_KERNELS, claim_specs, what_ran
from common.experiments.egp_ts_measures import (GP_TS, best_single_kernel, final_values, kernels_differ, paired_cell,
                                                quiet_cpu_seconds, seed_values)


def _comparisons(values, problems, ours, rivals, higher_is_better):
    """``ours`` against each rival on each problem, seed by seed: "<rival> on <problem>" -> PairedComparison."""
    found = {}
    for problem in problems:
        for other in rivals:
            comparison = paired_cell(values, problem, ours, other, higher_is_better)
            if comparison is not None:
                found[f"{other} on {problem}"] = comparison
    return found


def _tally(comparisons):
    """"better in b of n cells (...) and worse in w (...)": cells whose effect's interval lies wholly on one side of
    no difference, named with the effect."""
    def named(side):
        labels = [f"{label} {found.effect}" for label, found in comparisons.items() if stats.interval_side(found) == side]
        return f"{len(labels)}" + (f" ({'; '.join(labels)})" if labels else "")

    return (f"better (the effect's 95 % interval beyond no difference) in {named('better')} of {len(comparisons)} "
            f"cells and worse in {named('worse')}")


def _synthetic_bullets(table, params, verdicts):
    """Figs. 1 and 2: dictionaries A and B on the synthetic functions."""
    values, problems = final_values(table, "synthetic"), params["synthetic_problems"]
    if values.empty:
        return []
    friedman = {problem: kernels_differ(values, problem)[0] for problem in problems}
    differ = [problem for problem, p_value in friedman.items() if p_value is not None and p_value < stats.ALPHA]
    zakharov = paired_cell(values, "Zakharov", "EGP-TS (A)", "GP-EI", False)
    fig1_ids = [spec.id for spec in claim_specs() if spec.figure == "Fig. 1"]
    fig2_ids = [f"fig2-egp-beats-all-{problem}" for problem in problems]
    return [
        f"* **Fig. 1, dictionary A.** EGP-TS (A) against the four single-kernel GP-TS: "
        f"{_tally(_comparisons(values, problems, 'EGP-TS (A)', GP_TS, False))}; against the bandit ensembles: "
        f"{_tally(_comparisons(values, problems, 'EGP-TS (A)', ['BanditBO (A)', 'EXP3BO (A)'], False))}. "
        f"The four kernels differ significantly (Friedman) on {len(differ)} of {len(friedman)} functions"
        + (f" ({', '.join(differ)})" if differ else "") + ". On Zakharov, GP-EI against the GP-TS: "
        f"{_tally(_comparisons(values, ['Zakharov'], 'GP-EI', GP_TS, False))}; EGP-TS (A) against GP-EI: "
        f"{'not run' if zakharov is None else stats.brief(zakharov)}. Verdicts: "
        f"{verdict_tables.verdicts_of(verdicts, fig1_ids)}.",
        f"* **Fig. 2, dictionary B.** EGP-TS (B) against {', '.join(FIG2_RIVALS)}: "
        f"{_tally(_comparisons(values, problems, 'EGP-TS (B)', FIG2_RIVALS, False))}. Verdicts: "
        f"{verdict_tables.verdicts_of(verdicts, fig2_ids)}.",
    ]


def _figure3_bullet(table, params, verdicts):
    values, tasks = final_values(table, "robot"), params["robot_problems"]
    if values.empty:
        return None
    speed = []
    for task in tasks:
        seconds = quiet_cpu_seconds(task, ("EGP-TS (B)", "FB-GP-TS"))
        comparison = stats.paired_by_seed(seconds["EGP-TS (B)"], seconds["FB-GP-TS"], higher_is_better=False)
        if comparison is not None:
            ratio = seconds["FB-GP-TS"].median() / seconds["EGP-TS (B)"].median()
            speed.append(f"{task} {ratio:.2f}x (faster on {comparison.wins} of {comparison.n} seeds)")
    ids = [spec.id for spec in claim_specs() if spec.figure.startswith("Fig. 3")]
    return (f"* **Fig. 3, robot pushing.** Dictionary A, EGP-TS (A) against {len(FIG1_RIVALS)} methods: "
            f"{_tally(_comparisons(values, tasks, 'EGP-TS (A)', FIG1_RIVALS, False))}. Dictionary B, EGP-TS (B) "
            f"against {len(FIG2_RIVALS)}: {_tally(_comparisons(values, tasks, 'EGP-TS (B)', FIG2_RIVALS, False))}. "
            f"EGP-TS (B) against FB-GP-TS in CPU seconds of a whole run (quiet benchmark, median ratio): "
            f"{'; '.join(speed) or 'no quiet timing recorded'}. Verdicts: {verdict_tables.verdicts_of(verdicts, ids)}.")


def _beats_every_rival(values, params):
    """Data sets on which EGP-TS (B)'s final best accuracy is above every competitor's (each interval above 0)."""
    others = [name for name in params["fnn_methods"] if name != "EGP-TS (B)"]
    beats_all = 0
    for problem in params["fnn_datasets"]:
        found = _comparisons(values, [problem], "EGP-TS (B)", others, True)
        beats_all += len(found) == len(others) and all(stats.interval_side(c) == "better" for c in found.values())
    return beats_all


def _figure4_bullet(table, params, verdicts):
    values = final_values(table, "fnn")
    if values.empty:
        return None
    means = values.groupby(["problem", "method"])["value"].mean()
    parts = []
    for problem in params["fnn_datasets"]:
        if problem not in means.index.get_level_values("problem"):
            continue
        here = means[problem]
        top = here[here == here.max()].index.tolist()
        parts.append(f"{problem}: range {here.max() - here.min():.3f}, highest {here.max():.3f} ({', '.join(top)}), "
                     f"EGP-TS (B) {here.get('EGP-TS (B)', np.nan):.3f}")
    reduced = final_values(table, experiment.REDUCED_FNN_BLOCKS["fnn"], column="best_so_far")
    at_reduced = "" if reduced.empty else (
        f" At the first, reduced setting (3 trainings, 30 evaluations, §5b): on {_beats_every_rival(reduced, params)} "
        f"of {len(params['fnn_datasets'])}.")
    return (f"* **Fig. 4, FNN tuning** ({what_ran(params)['fnn'].description}; measured, not judged). EGP-TS (B) "
            f"has a higher final best accuracy than every competitor (each difference's interval above 0) on "
            f"{_beats_every_rival(values, params)} of {len(params['fnn_datasets'])} data sets (the paper: 4)."
            f"{at_reduced} Mean final best accuracy of the {len(params['fnn_methods'])} methods per data set: "
            f"{'; '.join(parts)}.")


def _figure5_bullet(table, params, verdicts):
    rivals = [name for name in params["parallel_methods"] if name != "EGP-TS (B)"]
    parts = []
    for other in rivals:
        found = [c for K in params["parallel_batch_sizes"]
                 if (c := paired_cell(final_values(table, "parallel", batch_size=K), "Ackley-5d", "EGP-TS (B)", other,
                                False)) is not None]
        if found:
            fewest, most = min(c.wins for c in found), max(c.wins for c in found)
            wins = f"{fewest}" if fewest == most else f"{fewest}-{most}"
            parts.append(f"{other}: better (the interval below 1x) at "
                         f"{sum(stats.interval_side(c) == 'better' for c in found)} of {len(found)} "
                         f"K (wins {wins} of {found[0].n})")
    if not parts:
        return None
    ids = [f"fig5-egp-stands-out-K{K}" for K in params["parallel_batch_sizes"]]
    return (f"* **Fig. 5, batches** (K = {', '.join(map(str, params['parallel_batch_sizes']))}). EGP-TS (B) "
            f"against {'; '.join(parts)}. Verdicts: {verdict_tables.verdicts_of(verdicts, ids)}.")


def _egp_ei_bullet(table, params, verdicts):
    parts = []
    for block, problems in (("synthetic", params["synthetic_problems"]), ("robot", params["robot_problems"])):
        values = final_values(table, block)
        if values.empty:
            continue
        best = best_single_kernel(GP_EI_KERNELS, higher_is_better=False)
        found = {problem: paired_cell(values, problem, "EGP-EI (A)", best(values, problem)[0], False)
                 for problem in problems}
        found = {problem: c for problem, c in found.items() if c is not None}
        worse = [problem for problem, c in found.items() if stats.interval_side(c) == "worse"]
        parts.append(f"{block}: better than the best single GP-EI kernel on "
                     f"{sum(stats.interval_side(c) == 'better' for c in found.values())} of {len(found)}, worse on "
                     f"{len(worse)}"
                     + (f" ({', '.join(worse)})" if worse else ""))
    if not parts:
        return None
    return (f"* **Figs. 6, 7, EGP-EI (A).** {'; '.join(parts)}. Verdicts: "
            f"{verdict_tables.verdicts_of(verdicts, ['fig6-egp-ei-three-of-four', 'fig7-egp-ei-both-tasks'])}.")


def _ablation_changes_ruled_out(table):
    """How many (function, method) cells of the hyperparameter ablation rule out a change of the project margin
    (a factor 1.1) either way: sklearn-defaults runs against the spec's runs of the same seeds, the interval of
    the ratio of mean final regrets within [1/1.1, 1.1]; and the largest number of paired seeds of a cell."""
    defaults = final_values(table, "hyperparameter_ablation", "simple_regret")
    spec = final_values(table, "synthetic")   # paired on the ablation's seeds by paired_by_seed
    bound = np.log1p(judging.DEFAULT_MARGIN.size)
    ruled_out, seeds = 0, 0
    for problem in dict.fromkeys(defaults["problem"]):
        for method in experiment.ABLATION_METHODS:
            comparison = stats.paired_by_seed(seed_values(defaults, problem, method), seed_values(spec, problem, method),
                                              higher_is_better=False, scale="ratio")
            if comparison is None:
                continue
            seeds = max(seeds, comparison.n)
            _, low, high = stats.advantage_interval(comparison)
            ruled_out += int(-bound < low and high < bound)
    return ruled_out, seeds


def _ablation_bullet(table):
    versus, change = experiment.hyperparameter_ablation(table)
    if versus is None:
        return None

    def outcomes(column):   # stats.brief ends with "better" or "worse" when the effect's interval is on one side
        return {outcome: int(column.str.endswith(f" {outcome}").sum()) for outcome in ("better", "worse")}

    moved = outcomes(change["sklearn defaults vs spec"])
    under_defaults = outcomes(versus["EGP-TS (A) vs rival, sklearn defaults"])
    under_spec = outcomes(versus["EGP-TS (A) vs rival, spec"])
    worse_where = sorted(set(versus.loc[versus["EGP-TS (A) vs rival, sklearn defaults"].str.endswith(" worse"),
                                        "problem"]))
    ruled_out, seeds = _ablation_changes_ruled_out(table)
    return (f"* **The hyperparameter fitting (§8).** With scikit-learn's defaults, {moved['better']} of {len(change)} "
            f"(function, method) cells have a lower final regret than with the spec's settings (the interval of the "
            f"ratio of means below 1) and {moved['worse']} a higher one; the interval lies within a factor "
            f"{1 + judging.DEFAULT_MARGIN.size:g} either way, ruling out a change of that size, in {ruled_out} of "
            f"{len(change)} (at {seeds} seeds), so in the other {len(change) - ruled_out} an effect of the fitting that "
            f"large cannot be ruled out. EGP-TS (A) against the single-kernel GP-TS: "
            f"better in "
            f"{under_spec['better']} of {len(versus)} cells and worse in {under_spec['worse']} under the spec's "
            f"settings; better in {under_defaults['better']} and worse in {under_defaults['worse']} under sklearn's "
            f"defaults" + (f" ({', '.join(worse_where)})" if worse_where else "") + ".")


def _evidence_bullet(table):
    """The evidence ablation (§8b) in one bullet: :func:`~common.experiments.egp_ts.evidence_ablation_summary`."""
    summary = experiment.evidence_ablation_summary(table)
    if summary is None:
        return None
    return f"* **The evidence in EGP-TS's weights (§8b).** {summary[0].upper()}{summary[1:]}"


def findings(table, params, verdicts):
    """What the numbers show (:func:`common.verdict_tables.findings_markdown`), from the tidy ``table`` of runs, the
    resolved ``params`` and the ``verdicts`` of :func:`judge` on the same runs; each block with the scale it ran at.
    A cell is one method-against-rival comparison on one problem, final value paired by seed."""
    return verdict_tables.findings_markdown(verdict_tables.scales_ran(what_ran(params)), [
        *_synthetic_bullets(table, params, verdicts), _figure3_bullet(table, params, verdicts),
        _figure4_bullet(table, params, verdicts), _figure5_bullet(table, params, verdicts),
        _egp_ei_bullet(table, params, verdicts), _ablation_bullet(table), _evidence_bullet(table)])
