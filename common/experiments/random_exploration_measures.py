"""How the claims of :mod:`common.experiments.random_exploration_claims` are measured on the runs: final values
per block, cells of paired seeds against the baselines and the paper's own effects, spreads, fill distances and
Table 3's agreement.
"""
import numpy as np

from common import judging, paper_data, stats
from common.claims import Evidence
from common.experiments import random_exploration as experiment


NEW_METHODS = ("GP-UCB+", "EXPLOIT+")



BASELINES = ("GP-UCB", "EXPLOIT", "EI", "PI")



BOOTSTRAP_RESAMPLES = 2000



def run_values(table, block, column, problem=None):
    """One value per (method, beta, seed) of a block: the last value of ``column`` in each run."""
    finals = experiment.final_runs(table, block)
    if problem is not None:
        finals = finals[finals["problem"] == problem]
    return finals.reindex(columns=["problem", "method", "beta", "seed", column]).rename(columns={column: "value"})



def late_instantaneous_error(table):
    """Per random-forest run: the mean test MSE of the evaluations in the last third of the budget (Fig. 6)."""
    runs = experiment.cumulative_test_error(table)
    if runs.empty:
        return runs.reindex(columns=["problem", "method", "beta", "seed", "value"])
    late = runs[runs["eval"] >= runs["budget"] * 2 // 3]
    return late.groupby(["problem", "method", "seed"], as_index=False)["test_mse"].mean().rename(
        columns={"test_mse": "value"})



def by_seed(values, method):
    return values[values["method"] == method].set_index("seed")["value"]



def paired(a, b, higher_is_better):
    # Every compared quantity here is > 0 (regrets, fill distances, test errors, the sprinkler's maxima).
    return stats.paired_by_seed(a, b, higher_is_better=higher_is_better, scale="ratio")



def _details(comparisons):
    return "; ".join(f"{label}: {stats.brief(found) if found else 'not run'}" for label, found in comparisons.items())



def _evidence(comparisons, claim, margin, paper_effects=None, **fields):
    """Evidence from a dict of cells judged as ``claim`` ("better" or "no worse") against ``margin``
    (:meth:`common.claims.Evidence.of_tally`), or None if no cell ran; ``paper_effects`` gives a "better" cell the
    paper's own effect by label (:func:`judging.judge_cell`)."""
    if not any(comparisons.values()):
        return None
    paper_effects = paper_effects or {}
    cells = [judging.cell(label, found, claim, margin, paper_effects.get(label))
             for label, found in comparisons.items()]
    return Evidence.of_tally(judging.tally(cells), "; ".join(map(str, cells)), **fields)



def new_method_versus_baselines(values_of, problems_of, higher_is_better, claim, *, others=BASELINES, method,
                                paper_table=None):
    """``measure`` comparing one new method with each of ``others`` on each problem, seed by seed.

    ``values_of(table)`` gives the per-run values, ``problems_of(params)`` the
    problems; each cell is judged as ``claim`` ("better" or "no worse") against
    the spec's margin, the score the share of cells supported. With ``paper_table``
    (a table of the paper's means per problem and method, e.g. ``"table1"``), a
    "better" cell is also judged against the paper's own effect in it
    (:func:`paper_effects`): contradicted only where its interval excludes the
    smaller of the margin and that effect.
    """
    def measure(table, params, limits):
        values = values_of(table)
        comparisons = {}
        for problem in problems_of(params):
            here = values[values["problem"] == problem]
            for other in others:
                comparisons[f"{problem} {method} vs {other}"] = paired(
                    by_seed(here, method), by_seed(here, other), higher_is_better)
        means = values.groupby(["problem", "method"])["value"].mean()
        ours = {f"{problem} {name}": means.get((problem, name)) for problem in problems_of(params)
                for name in (method, *others)}
        effects = ({} if paper_table is None else
                   paper_effects(paper_data.load_paper_numbers("random_exploration"), paper_table, method, others,
                                 problems_of(params), higher_is_better))
        found = _evidence(comparisons, claim, limits["margin"], effects,
                          ours={k: v for k, v in ours.items() if v is not None})
        return found or Evidence(None, "no runs of this block at these parameters")
    return measure



def paper_effects(numbers, table_name, method, others, problems, higher_is_better):
    """The paper's own effect of ``method`` against each of ``others`` per problem, from its table's means, on the
    ratio scale's advantage (:func:`judging.paper_advantage`), by cell label; a cell the table does not hold
    is left out."""
    found = {}
    for problem in problems:
        for other in others:
            try:
                ours = paper_data.paper_number(numbers, table_name, problem=problem, method=method).value
                theirs = paper_data.paper_number(numbers, table_name, problem=problem, method=other).value
            except KeyError:
                continue
            effect = judging.paper_advantage(ours, theirs, "ratio", higher_is_better)
            if effect is not None:
                found[f"{problem} {method} vs {other}"] = effect
    return found



def benchmark_values(table):
    return run_values(table, "benchmark", "regret")



def benchmark_problems(params):
    return params["bench_functions"]



def paper_share(numbers, table_name, method, problems, others=BASELINES, lower_is_better=True):
    """Share of (problem, other) cells where the paper's table has ``method`` strictly better."""
    sign = -1 if lower_is_better else 1
    cells = [(problem, other) for problem in problems for other in others]
    better = [sign * (paper_data.paper_number(numbers, table_name, problem=problem, method=method).value
                      - paper_data.paper_number(numbers, table_name, problem=problem, method=other).value) > 0
              for problem, other in cells]
    return sum(better) / len(cells)



def sd_ratio_interval(a, b):
    """95% paired-bootstrap interval of log(SD(a) / SD(b)) (ddof = 1), resampling seeds."""
    rng = np.random.default_rng(stats.BOOTSTRAP_SEED)
    rows = rng.integers(0, len(a), size=(BOOTSTRAP_RESAMPLES, len(a)))
    with np.errstate(divide="ignore", invalid="ignore"):
        ratios = np.log(np.std(a[rows], axis=1, ddof=1) / np.std(b[rows], axis=1, ddof=1))
    ratios = ratios[np.isfinite(ratios)]
    return tuple(np.percentile(ratios, [2.5, 97.5])) if ratios.size else (np.nan, np.nan)



def spread_cells(values, method, problems):
    """SD of ``method``'s final values against each baseline's, per (problem, baseline) with at least 3 shared seeds.

    Returns
    -------
    dict
        ``"<problem> vs <baseline>"`` -> (SD ratio, low, high), with (low, high) the
        interval of the log ratio (:func:`sd_ratio_interval`).
    """
    cells = {}
    for problem in problems:
        here = values[values["problem"] == problem]
        for other in BASELINES:
            a, b = by_seed(here, method), by_seed(here, other)
            seeds = a.index.intersection(b.index).sort_values()
            if len(seeds) >= 3:
                low, high = sd_ratio_interval(a[seeds].to_numpy(), b[seeds].to_numpy())
                ratio = np.std(a[seeds], ddof=1) / np.std(b[seeds], ddof=1)
                cells[f"{problem} vs {other}"] = (ratio, low, high)
    return cells



def spread_versus_baselines(method):
    """``measure`` of Table 4: is the SD of the final regret of ``method`` smaller than each baseline's?"""
    def measure(table, params, limits):
        cells = spread_cells(benchmark_values(table), method, params["bench_functions"])
        if not cells:
            return Evidence(None, "fewer than 3 seeds: no spread to compare")
        smaller = sum(high < 0 for _, _, high in cells.values())
        larger = sum(low > 0 for _, low, _ in cells.values())
        details = [f"{label}: SD ratio {ratio:.3g} [{np.exp(low):.3g}, {np.exp(high):.3g}]"
                   for label, (ratio, low, high) in cells.items()]
        n_cells = len(params["bench_functions"]) * len(BASELINES)
        # Smaller where the interval lies below 1, against it where above; an interval across 1 is undecided.
        return Evidence(smaller / n_cells, f"{smaller} smaller, {larger} larger, {n_cells - smaller - larger} "
                        f"undecided of {n_cells}; " + "; ".join(details),
                        ours={label: ratio for label, (ratio, _, _) in cells.items()},
                        reachable=(n_cells - larger) / n_cells, score_by_p_value=(smaller - larger) / n_cells)
    return measure



def fill_distance_between(table, params, limits):
    """``measure`` of Fig. 1's first statement: GP-UCB's final fill distance between EXPLORE's and EXPLOIT's."""
    comparisons = {}
    for column in ("fill_xd", "fill_uniform"):
        values = run_values(table, "fill", column)
        # "better" for GP-UCB vs EXPLOIT means smaller; vs EXPLORE the claim is that GP-UCB is larger.
        comparisons[f"{column}: GP-UCB smaller than EXPLOIT"] = paired(
            by_seed(values, "GP-UCB"), by_seed(values, "EXPLOIT"), higher_is_better=False)
        comparisons[f"{column}: GP-UCB larger than EXPLORE"] = paired(
            by_seed(values, "GP-UCB"), by_seed(values, "EXPLORE"), higher_is_better=True)
    means = run_values(table, "fill", "fill_xd").groupby("method")["value"].mean()
    found = _evidence(comparisons, "better", limits["margin"],
                      ours={f"mean h (X_D) {k}": v for k, v in means.items()})
    return found or Evidence(None, "no fill-distance runs at these parameters")



def uniform_fills_best(table, params, limits):
    """``measure`` of Fig. 1's second statement: UNIFORM's final fill distance drastically below EXPLORE's, on
    each reference set: "substantially better" (the interval of the ratio of means below 1 / (1 + margin))."""
    comparisons, ours = {}, {}
    for column in ("fill_xd", "fill_uniform"):
        values = run_values(table, "fill", column)
        comparisons[f"{column}: UNIFORM below EXPLORE"] = paired(by_seed(values, "UNIFORM"),
                                                                 by_seed(values, "EXPLORE"), higher_is_better=False)
        if not values.empty:
            means = values.groupby("method")["value"].mean()
            ours[f"{column} UNIFORM / EXPLORE"] = means["UNIFORM"] / means["EXPLORE"]
    found = _evidence(comparisons, "substantially better", limits["margin"], ours=ours)
    return found or Evidence(None, "no fill-distance runs at these parameters")



def beta_comparison(method, mode):
    """``measure`` of Fig. 5: ``method`` with TWO against SUP on each function, seed by seed.

    ``mode`` "two_better": TWO better (cells judged against the spec's margin); "differ": the interval of the
    ratio of means wholly on one side of 1, either way.
    """
    def measure(table, params, limits):
        two = run_values(table, "benchmark", "regret")
        sup = run_values(table, "beta", "regret")
        comparisons = {}
        for problem in params["bench_functions"]:
            comparisons[f"{problem} {method} TWO vs SUP"] = paired(
                by_seed(two[two["problem"] == problem], method), by_seed(sup[sup["problem"] == problem], method),
                higher_is_better=False)
        found = [c for c in comparisons.values() if c is not None]
        if not found:
            return Evidence(None, "no SUP runs at these parameters")
        ours = {}
        for problem in params["bench_functions"]:
            for beta, values in (("TWO", two), ("SUP", sup)):
                here = by_seed(values[values["problem"] == problem], method)
                if not here.empty:
                    ours[f"{problem} {beta}"] = here.mean()
        if mode == "two_better":
            return _evidence(comparisons, "better", limits["margin"], ours=ours)
        # "Sensitivity" either way: the effect's interval beyond no difference on one side or the other.
        score = sum(stats.interval_side(c) is not None for c in found) / len(comparisons)
        return Evidence(score, _details(comparisons), ours=ours)
    return measure



def random_forest_cumulative(table):
    return run_values(table, "random_forest", "cumulative_error")



def sprinkler_values(table):
    return run_values(table, "sprinkler", "best_so_far")



def exploit_plus_largest(table, params, limits):
    """``measure`` of "EXPLOIT+ attains on average the largest maximum value" (§5.3).

    1 if EXPLOIT+ has the largest mean and is no worse than every method within the spec's margin
    seed by seed; 0.5 if only the latter; 0 otherwise.
    """
    values = sprinkler_values(table)
    if values.empty:
        return Evidence(None, "no sprinkler runs at these parameters")
    comparisons = {f"EXPLOIT+ vs {other}": paired(by_seed(values, "EXPLOIT+"), by_seed(values, other), True)
                   for other in experiment.METHODS if other != "EXPLOIT+"}
    means = values.groupby("method")["value"].mean()
    largest = means.idxmax() == "EXPLOIT+"
    cells = [judging.cell(label, found, "no worse", limits["margin"]) for label, found in comparisons.items()]
    judgements = [c.judgement.judgement for c in cells if c.judgement is not None]

    def score_of(unbeaten):
        return 1.0 if largest and unbeaten else (0.5 if unbeaten else 0.0)

    return Evidence(score_of(all(j == "supported" for j in judgements)),
                    f"largest mean: {means.idxmax()} ({means.max():.3f}); " + "; ".join(map(str, cells)),
                    ours=means.to_dict(), reachable=score_of("contradicted" not in judgements),
                    score_by_p_value=score_of(all(c is None or stats.is_no_worse(c) for c in comparisons.values())),
                    cells=tuple(cells))



def table3_agreement(numbers):
    """``measure``: share of methods whose mean M_100 is within ``standard_errors`` paper SEs of the paper's."""
    def measure(table, params, limits):
        values = sprinkler_values(table)
        if values.empty:
            return Evidence(None, "no sprinkler runs at these parameters")
        means = values.groupby("method")["value"].mean()
        inside, details, paper = 0, [], {}
        for method in experiment.METHODS:
            number = paper_data.paper_number(numbers, "table3", method=method)
            tolerance = limits["standard_errors"] * number.std / np.sqrt(30)
            paper[method] = number.value
            if method in means:
                inside += abs(means[method] - number.value) <= tolerance
                details.append(f"{method} {means[method]:.3f} vs {number.value:.3f} ± {tolerance:.3f}")
        return Evidence(inside / len(experiment.METHODS), "; ".join(details), ours=means.to_dict(), paper=paper)
    return measure



def both_new_methods(values_of):
    """``measure``: both new methods against the four baselines, no-harm score over the 8 cells."""
    def measure(table, params, limits):
        values = values_of(table)
        comparisons = {}
        for method in NEW_METHODS:
            for other in BASELINES:
                comparisons[f"{method} vs {other}"] = paired(by_seed(values, method), by_seed(values, other), True)
        found = _evidence(comparisons, "no worse", limits["margin"],
                          ours=values.groupby("method")["value"].mean().to_dict())
        return found or Evidence(None, "no runs of this block at these parameters")
    return measure
