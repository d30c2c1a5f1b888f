"""How the claims of :mod:`common.experiments.egp_ts_claims` are measured on the runs: one number per run, cells
of paired seeds, counts of problems, the quiet timings and Table 1's identities.
"""
from pathlib import Path

import numpy as np
import pandas as pd
from scipy.stats import friedmanchisquare

from common import judging, paper_data, provenance, stats
from common.claims import Evidence
from common.experiments import egp_ts as experiment
from common.store import final_rows


# The quiet benchmark's CPU seconds per run (benchmarks/bench_egp_ts.py --record), for "runs much faster".
TIMING_RECORD = Path(__file__).resolve().parents[2] / "benchmarks" / "results" / "egp_ts_timing.csv"



GP_TS = [f"GP-TS ({kernel})" for kernel in experiment.SINGLE_KERNELS]



def table1_rows():
    """Table 1 as printed (``data/paper/egp_ts.csv``): ``{function: (x*, f(x*))}``."""
    numbers = paper_data.load_paper_numbers(experiment.PAPER)
    rows = {}
    for name, group in numbers[numbers["table"] == "table1"].groupby("problem", sort=False):
        values = group.set_index("quantity")["value"]
        x_star = [float(values[f"x_star_{i}"]) for i in range(1, 1 + sum(values.index.str.startswith("x_star_")))]
        rows[name] = (x_star, float(values["f_star"]))
    return rows



def final_values(table, block, column=None, batch_size=None):
    """One row per run of a block: problem, method, seed and its final scored value (or ``column``)."""
    last = final_rows(table)  # before the filters, which would copy every row of the table
    last = last[last["experiment"] == block]
    if batch_size is not None:
        last = last[last["batch_size"] == batch_size] if "batch_size" in last else last.iloc[:0]
    column = column or experiment.SCORED[block][0]
    return last.reindex(columns=["problem", "method", "seed", column]).rename(columns={column: "value"})



def seed_values(values, problem, method):
    return values[(values["problem"] == problem) & (values["method"] == method)].set_index("seed")["value"]



def paired_cell(values, problem, ours, other, higher_is_better):
    return stats.paired_by_seed(seed_values(values, problem, ours), seed_values(values, problem, other),
                                higher_is_better=higher_is_better, scale=experiment.effect_scale(higher_is_better))



def cells_measure(block, problem, ours, rivals, column=None, batch_size=None, claim="better"):
    """``measure``: ``ours`` against each of ``rivals`` on ``problem``, each cell judged by its effect against
    the spec's margin (``claim``: "better" or "substantially better"); the share of cells supported."""
    higher_is_better = experiment.SCORED[block][1] if column is None else False

    def measure(table, params, limits):
        values = final_values(table, block, column, batch_size)
        cells = [judging.cell(f"vs {other}", paired_cell(values, problem, ours, other, higher_is_better), claim,
                            limits["margin"]) for other in rivals]
        if all(found.comparison is None for found in cells):
            return Evidence(None, f"{ours} and its rivals did not run on {problem} at these parameters")
        means = values[values["problem"] == problem].groupby("method")["value"].mean()
        return Evidence.of_tally(judging.tally(cells), "; ".join(map(str, cells)),
                                 ours={name: means[name] for name in [ours, *rivals] if name in means})
    return measure



def quiet_cpu_seconds(task, methods):
    """CPU seconds of whole runs on ``task`` per seed, from the quiet benchmark's record: method -> Series by seed
    (empty where the record has none)."""
    rows = pd.read_csv(TIMING_RECORD) if provenance.looked_for(TIMING_RECORD) else pd.DataFrame(
        columns=["problem", "method", "seed", "cpu_seconds"])
    rows = rows[rows["problem"] == task]
    return {name: rows[rows["method"] == name].set_index("seed")["cpu_seconds"] for name in methods}



def faster_measure(task, ours, other):
    """``measure`` of "runs much faster": CPU seconds of whole runs of ``ours`` against ``other`` on ``task``, seed
    by seed, from the quiet benchmark's record (:data:`TIMING_RECORD`), never from the grid's CPU seconds, which
    are measured beside other work; "much" faster: the ratio of mean seconds beyond the margin."""
    def measure(table, params, limits):
        per_seed = quiet_cpu_seconds(task, (ours, other))
        comparison = stats.paired_by_seed(per_seed[ours], per_seed[other], higher_is_better=False, scale="ratio")
        if comparison is None:
            return Evidence(None, f"no quiet timing of {ours} and {other} on {task} in {TIMING_RECORD.name} "
                            "(python benchmarks/bench_egp_ts.py --record)")
        medians = {name: float(values.median()) for name, values in per_seed.items()}
        cells = [judging.cell(f"CPU seconds vs {other}", comparison, "substantially better", limits["margin"])]
        return Evidence.of_tally(judging.tally(cells), f"quiet benchmark: {ours} {medians[ours]:.3g} s, {other} "
                                 f"{medians[other]:.3g} s (medians); {cells[0]}", ours=medians)
    return measure



def kernel_matters_measure(problems):
    """Share of ``problems`` on which a Friedman test finds the four GP-TS kernels' final simple regrets
    different (p < ALPHA), seed by seed."""
    def measure(table, params, limits):
        values = final_values(table, "synthetic")
        found, reasons, means = 0, [], {}
        for problem in problems:
            p_value, samples = kernels_differ(values, problem)
            if p_value is None:
                return Evidence(None, samples)
            found += p_value < stats.ALPHA
            reasons.append(f"{problem}: Friedman p = {p_value:.2g} over {len(samples[0])} seeds")
            means.update({f"{problem} {name}": float(sample.mean()) for name, sample in zip(GP_TS, samples)})
        return Evidence(found / len(problems), f"{found} of {len(problems)}; " + "; ".join(reasons), ours=means)
    return measure



def kernels_differ(values, problem):
    """Friedman test of the four GP-TS kernels' final values on ``problem``, seed by seed.

    Returns ``(p, samples)`` (one array per kernel over the shared seeds; p = 1
    when all are identical), or ``(None, why)`` when the test cannot run.
    """
    per_kernel = [seed_values(values, problem, name) for name in GP_TS]
    if any(series.empty for series in per_kernel):
        return None, f"not every GP-TS kernel ran on {problem}"
    seeds = sorted(set.intersection(*(set(series.index) for series in per_kernel)))
    if len(seeds) < 3:
        return None, f"{len(seeds)} shared seeds on {problem}; the Friedman test needs 3"
    samples = [series[seeds].to_numpy() for series in per_kernel]
    identical = all(np.array_equal(samples[0], sample) for sample in samples[1:])
    return (1.0 if identical else float(friedmanchisquare(*samples).pvalue)), samples



def count_measure(block, problems, ours, rivals_of):
    """Share of ``problems`` on which ``ours`` is better than every method ``rivals_of(values, problem)`` names
    (the best single-kernel method, or every competitor): a problem is supported when all its cells are, and
    contradicted when any is (:func:`judging.judge_cell` against the spec's margin)."""
    higher_is_better = experiment.SCORED[block][1]

    def measure(table, params, limits):
        values = final_values(table, block)
        ran = [problem for problem in problems if not seed_values(values, problem, ours).empty]
        if len(ran) < len(problems):
            return Evidence(None, f"{ours} ran on {len(ran)} of the {len(problems)} problems at these parameters")
        supported = contradicted = old_wins = 0
        all_cells, reasons, tied = [], [], []
        for problem in problems:
            rivals = rivals_of(values, problem)
            found = [paired_cell(values, problem, ours, other, higher_is_better) for other in rivals]
            cells = [judging.cell(f"{problem} vs {other}", c, "better", limits["margin"])
                     for other, c in zip(rivals, found)]
            judgements = [c.judgement.judgement if c.judgement else "not run" for c in cells]
            all_cells += cells
            reasons.append("; ".join(map(str, cells)))
            if all(name == "not comparable" for name in judgements):
                tied.append(problem)  # no cell can separate the methods: the problem counts neither way
                continue
            supported += all(name in ("supported", "not comparable") for name in judgements)
            contradicted += "contradicted" in judgements
            old_wins += all(c is not None and stats.is_better(c) for c in found)
        n = len(problems) - len(tied)
        left_out = f" ({', '.join(tied)} left out: every seed ties)" if tied else ""
        return Evidence(supported / max(n, 1), f"{supported} of {n} problems supported{left_out}, {contradicted} "
                        f"contradicted; " + "; ".join(reasons), ours=supported, reachable=(n - contradicted) / max(n, 1),
                        score_by_p_value=old_wins / max(n, 1), cells=tuple(all_cells))
    return measure



def best_single_kernel(candidates, higher_is_better):
    """``rivals_of`` for :func:`count_measure`: the candidate with the best mean final value on the problem."""
    def rivals_of(values, problem):
        means = values[values["problem"] == problem].groupby("method")["value"].mean()
        means = means[means.index.isin(candidates)]
        return [means.idxmax() if higher_is_better else means.idxmin()] if len(means) else list(candidates)
    return rivals_of



def table1_identity(table, params, limits):
    """Every Table 1 row: our function at the printed x* equals the printed f(x*) within the tolerance."""
    errors = {name: abs(float(experiment.SYNTHETIC[name]()(np.array([x]))[0]) - value)
              for name, (x, value) in table1_rows().items()}
    worst = max(errors.values())
    return Evidence(float(worst <= limits["tolerance"]), "|f(x*) - Table 1| " + ", ".join(
        f"{name} {error:.2g}" for name, error in errors.items()), ours=worst)



def ackley_maximum_identity(table, params, limits):
    """Table 1's Ackley-5d x* is the maximizer: its value is the true maximum within the tolerance."""
    x, value = table1_rows()["Ackley-5d"]
    function = experiment.SYNTHETIC["Ackley-5d"]()
    at_paper_point = float(function(np.array([x]))[0])
    gap = function.optimal_value - at_paper_point
    return Evidence(float(gap <= limits["tolerance"]), f"f at the paper's x* = {at_paper_point:.6f}, the maximum "
                    f"{function.optimal_value:.6f} at {np.round(function.optimizers[0], 4).tolist()} (Table 1: "
                    f"{value})", ours=at_paper_point, paper=value)



def regret_identity(table, params, limits):
    """The simple regret of every synthetic run is non-increasing and non-negative (f* is the true maximum)."""
    runs = table[table["experiment"].isin(["synthetic", "parallel"])].sort_values(["run_key", "eval"])
    if runs.empty:
        return Evidence(1.0, "no synthetic run at these parameters: nothing to check", ours=0.0)
    steps = runs.groupby("run_key")["simple_regret"].diff().max()
    lowest = runs["simple_regret"].min()
    worst = max(0.0 if np.isnan(steps) else steps, -lowest)
    return Evidence(float(worst <= limits["tolerance"]), f"largest increase {steps:.3g}, smallest S_t {lowest:.3g} "
                    f"over {runs['run_key'].nunique()} runs", ours=worst)
