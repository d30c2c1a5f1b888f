"""What the numbers show in random_exploration: the notebook's findings, each bullet computed from the runs and the
verdict table of :mod:`common.experiments.random_exploration_claims` (nothing typed in)."""
import numpy as np
import pandas as pd

from common import judging, paper_data, stats, verdict_tables
from common.experiments import random_exploration as experiment
from common.experiments.random_exploration_claims import what_ran
from common.experiments.random_exploration_measures import (BASELINES, NEW_METHODS, benchmark_values, by_seed,
                                                           late_instantaneous_error, paired, random_forest_cumulative,
                                                           run_values, spread_cells, sprinkler_values)


def _versus(values, method, problems, others, higher_is_better):
    """``method`` against each of ``others`` per problem, seed by seed: label -> PairedComparison (cells that ran)."""
    found = {}
    for problem in problems:
        here = values[values["problem"] == problem]
        for other in others:
            comparison = paired(by_seed(here, method), by_seed(here, other), higher_is_better)
            if comparison is not None:
                found[f"{problem} vs {other}"] = comparison
    return found


def _tally(comparisons):
    """"better in b of n cells (...), worse in w (...)" of a dict of comparisons, by the effects' intervals."""
    better = [f"{label} {found.effect}" for label, found in comparisons.items()
              if stats.interval_side(found) == "better"]
    worse = [f"{label} {found.effect}" for label, found in comparisons.items() if stats.interval_side(found) == "worse"]
    return (f"better (the effect's 95 % interval beyond no difference) in {len(better)} of {len(comparisons)} cells"
            + (f" ({', '.join(better)})" if better and len(better) < len(comparisons) else "")
            + f" and worse in {len(worse)}" + (f" ({', '.join(worse)})" if worse and len(worse) < len(comparisons)
                                               else ""))


def _ablation_outcomes(table, ablation, block, column, higher_is_better, label):
    found = experiment.ablation_table(table, ablation, block, column, higher_is_better, label)
    if found is None:
        return None, None
    counts, ruled_out = found["outcome"].value_counts(), int((found["within 1.1x"] == "yes").sum())
    seeds = found["seeds"].max()
    side = "above" if higher_is_better else "below"
    return found, (f"on {seeds} seeds, the ablation is better (the interval of the ratio of means {side} 1) in "
                   f"{counts.get('better', 0)} of {len(found)} cells, worse in {counts.get('worse', 0)}, and rules "
                   f"out an effect of a factor 1.1 either way (the interval inside it) in {ruled_out}"
                   + (" (below 10 paired seeds an ablation cannot rule an effect out)" if seeds < 10 else ""))


def _fill_bullet(table, verdicts):
    parts = []
    for column, name in (("fill_xd", "X_D"), ("fill_uniform", "10,000 uniform points")):
        values = run_values(table, "fill", column)
        uniform = paired(by_seed(values, "UNIFORM"), by_seed(values, "EXPLORE"), higher_is_better=False)
        gp_ucb = paired(by_seed(values, "GP-UCB"), by_seed(values, "EXPLORE"), higher_is_better=False)
        if uniform is None or gp_ucb is None:
            return None
        means = values.groupby("method")["value"].mean()
        parts.append(f"on {name} UNIFORM's mean is {1 - means['UNIFORM'] / means['EXPLORE']:.0%} below EXPLORE's "
                     f"(smaller on {uniform.wins} of {uniform.n} seeds) and GP-UCB's is smaller than EXPLORE's on "
                     f"{gp_ucb.wins} of {gp_ucb.n} seeds")
    return (f"* **Fill distance (Fig. 1).** Final fill distance: {'; '.join(parts)}. The paper puts GP-UCB between "
            f"EXPLORE and EXPLOIT. Verdicts: {verdict_tables.verdicts_of(verdicts, ['fill-uniform', 'fill-between'])}.")


def _benchmark_bullets(table, params, verdicts):
    values, problems = benchmark_values(table), params["bench_functions"]
    if values.empty:
        return []
    means = values.groupby(["problem", "method"])["value"].mean()
    bullets = []
    for method in NEW_METHODS:
        against = _versus(values, method, problems, BASELINES, higher_is_better=False)
        best_other = {problem: means[problem].reindex(BASELINES).idxmin() for problem in problems}
        regret = ", ".join(f"{problem} {means[problem, method]:.3g} (best baseline {best_other[problem]} "
                           f"{means[problem, best_other[problem]]:.3g})" for problem in problems)
        bullets.append(f"* **{method} on the benchmarks (Fig. 2, Table 1).** Against the four baselines, "
                       f"{_tally(against)}. Mean final regret: {regret}. Verdict: "
                       f"{verdict_tables.verdicts_of(verdicts, [f'outperform-{method}'])}.")
    _, searched = _ablation_outcomes(table, "maximizer_ablation", "benchmark", "regret", False, "larger search")
    if searched:
        bullets.append(f"* **The acquisition search (§9).** bayes_opt's larger search against ours: {searched}.")
    for method in NEW_METHODS:
        cells = spread_cells(values, method, problems)
        smaller = [label for label, (_, _, high) in cells.items() if high < 0]
        larger = [label for label, (_, low, _) in cells.items() if low > 0]
        bullets.append(f"* **{method}'s precision (Table 4).** Its SD of the final regret is smaller (the bootstrap interval of the SD ratio below 1) "
                       f"than the baseline's in {len(smaller)} of {len(cells)} cells"
                       + (f" ({', '.join(smaller)})" if smaller else "") + f" and larger in {len(larger)}"
                       + (f" ({', '.join(larger)})" if larger else "")
                       + f". Verdict: {verdict_tables.verdicts_of(verdicts, [f'precise-{method}'])}.")
    sup = run_values(table, "beta", "regret")
    if not sup.empty:
        parts = []
        for method in ("GP-UCB+", "GP-UCB"):
            found = {problem: paired(by_seed(values[values["problem"] == problem], method),
                                      by_seed(sup[sup["problem"] == problem], method), higher_is_better=False)
                     for problem in problems}
            found = {problem: comparison for problem, comparison in found.items() if comparison is not None}
            parts.append(f"{method}: TWO better than SUP (the interval of the ratio below 1) on "
                         f"{sum(stats.interval_side(c) == 'better' for c in found.values())} of {len(found)} "
                         f"functions (wins: "
                         + ", ".join(f"{problem} {c.wins} of {c.n}" for problem, c in found.items()) + ")")
        bullets.append(f"* **β (Fig. 5).** {'; '.join(parts)}. Verdicts: "
                       f"{verdict_tables.verdicts_of(verdicts, ['beta-plus', 'beta-ucb'])}.")
    return bullets


def _random_forest_bullet(table, verdicts):
    cumulative, late = random_forest_cumulative(table), late_instantaneous_error(table)
    if cumulative.empty:
        return None
    problems = sorted(set(cumulative["problem"]))
    tallies = [f"{method}: cumulative error {_tally(_versus(cumulative, method, problems, BASELINES, False))}; "
               f"last third {_tally(_versus(late, method, problems, BASELINES, False))}" for method in NEW_METHODS]
    means = cumulative.groupby("method")["value"].mean()
    evaluated = experiment.cumulative_test_error(table)["test_mse"].dropna()
    low, high = np.percentile(evaluated, [5, 95])
    text = (f"* **Random forest (Table 2, Figs. 3, 6; diabetes substitute; measured, not judged).** The test MSE of "
            f"every evaluated point lies between {low:.3f} and {high:.3f} (5th and 95th percentiles over all runs): "
            f"the substitute's landscape is nearly flat. {'. '.join(tallies)}. Mean cumulative "
            f"test MSE: new methods {means.reindex(NEW_METHODS).min():.1f}-{means.reindex(NEW_METHODS).max():.1f}, "
            f"baselines {means.reindex(BASELINES).min():.1f}-{means.reindex(BASELINES).max():.1f}.")
    scaled, outcome = _ablation_outcomes(table, "scaling_ablation", "random_forest", "cumulative_error", False,
                                         "unit inputs")
    if scaled is not None:
        order = scaled.set_index("method")["unit inputs"].sort_values()
        text += (f" With inputs mapped to [0, 1] (§9): {outcome}; the means from smallest to largest: "
                 + ", ".join(f"{method} {value:.1f}" for method, value in order.items()) + ".")
    rf_ids = [f"rf-{kind}-{method}" for kind in ("cumulative", "instantaneous") for method in NEW_METHODS]
    return text + f" Verdicts: {verdict_tables.verdicts_of(verdicts, rf_ids)}."


def _sprinkler_bullet(table, verdicts):
    values = sprinkler_values(table)
    if values.empty:
        return None
    problems = sorted(set(values["problem"]))
    against = {f"{method} vs {label}": found for method in NEW_METHODS
               for label, found in _versus(values, method, problems, BASELINES, True).items()}
    not_worse = sum(judging.judge_cell(found, "no worse", judging.DEFAULT_MARGIN).judgement == "supported"
                    for found in against.values())
    means = values.groupby("method")["value"].mean()
    numbers = paper_data.load_paper_numbers(experiment.PAPER)
    paper = pd.Series({method: paper_data.paper_number(numbers, "table3", method=method).value for method in means.index})
    below = paper - means
    text = (f"* **Sprinkler (Table 3, Fig. 4).** The new methods are no worse than a baseline within a factor 1.1 "
            f"(the interval of the ratio of means) in {not_worse} of {len(against)} cells and better (the interval "
            f"beyond 1) in {sum(stats.interval_side(found) == 'better' for found in against.values())}. The largest mean is {means.idxmax()}'s "
            f"({means.max():.1f}; EXPLOIT+ {means['EXPLOIT+']:.1f}). Our six means lie {below.min():.1f} to "
            f"{below.max():.1f} below the paper's.")
    scaled, outcome = _ablation_outcomes(table, "scaling_ablation", "sprinkler", "best_so_far", True, "unit inputs")
    if scaled is not None:
        unit = scaled.set_index("method")["unit inputs"]
        text += (f" With inputs mapped to [0, 1] (§9): {outcome}; the means are {unit.min():.1f}-{unit.max():.1f} "
                 f"against the paper's {paper.min():.1f}-{paper.max():.1f}.")
    ids = ["sprinkler-competitive", "sprinkler-exploit-plus-largest", "sprinkler-values"]
    return text + f" Verdicts: {verdict_tables.verdicts_of(verdicts, ids)}."


def findings(table, params, verdicts):
    """What the numbers show (:func:`common.verdict_tables.findings_markdown`), from the tidy ``table`` of runs, the
    resolved ``params`` and the ``verdicts`` of :func:`judge` on the same runs; each block with the scale it ran at."""
    return verdict_tables.findings_markdown(verdict_tables.scales_ran(what_ran(params)), [
        _fill_bullet(table, verdicts), *_benchmark_bullets(table, params, verdicts),
        _random_forest_bullet(table, verdicts), _sprinkler_bullet(table, verdicts)])
