"""How the claims of :mod:`common.experiments.mini_gp_opt_claims` are measured on the runs: final values per block,
cells of paired seeds, the quiet timings, and the theorems' bounds checked on small problems.
"""
from pathlib import Path

import numpy as np
import pandas as pd

from common import judging, paper_data, provenance, stats
from common.claims import Evidence
from common.experiments import mini_gp_opt as experiment
from common.gp import GaussianProcess
from common.kernels import SquaredExponential
from common.methods import mini_gp_opt as method
from common.store import final_rows


# Written by `python benchmarks/bench_mini_gp_opt.py --record` on a quiet machine: one row per run, with the
# CPU seconds of the algorithm (the pulls excluded) at equal T.
TIMING_RECORD = Path(__file__).resolve().parents[2] / "benchmarks" / "results" / "mini_gp_opt_timing.csv"



def final_values(table, block, column):
    """One row per run of a block: problem, method, seed and the last checkpoint's ``column``; epsilon-greedy at
    its tuned setting (:func:`~common.experiments.mini_gp_opt.with_tuned_epsilon_greedy`)."""
    last = final_rows(table)  # before the filter, which would copy every row of the table
    last = experiment.with_tuned_epsilon_greedy(last[last["experiment"] == block])
    return last.reindex(columns=["problem", "method", "seed", column]).rename(columns={column: "value"})



def by_seed(values, problem, name):
    return values[(values["problem"] == problem) & (values["method"] == name)].set_index("seed")["value"]



def paired(a, b):
    # Regrets and counts of unique candidates are >= 0: compared as ratios of means.
    return stats.paired_by_seed(a, b, higher_is_better=False, scale="ratio")



def comparisons_measure(block, column, pairs_of, claim):
    """``measure`` comparing (ours, other) pairs seed by seed on the final ``column`` (lower is better).

    ``pairs_of(params)`` gives (problem, ours, other) triples; each is a cell
    judged by its effect against the spec's margin (``claim``: "better", "no
    worse" or "equivalent", :func:`judging.judge_cell`); the score is the
    share of cells supported.
    """
    def measure(table, params, limits):
        values = final_values(table, block, column)
        cells = [judging.cell(f"{problem}: {ours} vs {other}",
                            paired(by_seed(values, problem, ours), by_seed(values, problem, other)),
                            claim, limits["margin"])
                 for problem, ours, other in pairs_of(params)]
        if all(found.comparison is None for found in cells):
            return Evidence(None, "no runs of these methods at these parameters")
        means = values.groupby(["problem", "method"])["value"].mean()
        ours = {f"{problem} {name}": means.get((problem, name)) for problem, *names in pairs_of(params)
                for name in names if (problem, name) in means}
        return Evidence.of_tally(judging.tally(cells), "; ".join(map(str, cells)), ours=ours)
    measure.block, measure.pairs_of = block, pairs_of  # the runs a claim is judged on (claim_runs)
    return measure



#: The spec's yardstick for "few" unique candidates, written before any run (spec §7.1 F2: "All GP methods have
#: q_T < 0.1·|A|"), against which nas-bbkb-few-unique is judged since 2026-11-26.
FEW_UNIQUE_SHARE = 0.1



def n_arms(params):
    """|A|, the number of arms of the NAS substitute."""
    return len(experiment.make_problem({"problem": experiment.NAS_PROBLEM, "noise_beta": params["noise_beta"]}).arms)



def few_of_the_arms(name):
    """``measure``: ``name``'s final unique candidates q_T on the NAS substitute against :data:`FEW_UNIQUE_SHARE`
    of the arms, seed by seed: one cell, the ratio of mean q_T over that yardstick with its interval, judged
    "better" (supported when the interval lies below 1, contradicted when it excludes a ratio as low as the
    margin's)."""
    def measure(table, params, limits):
        unique = by_seed(final_values(table, "nas", "unique"), experiment.NAS_PROBLEM, name)
        if unique.empty:
            return Evidence(None, f"no {name} runs in the nas block")
        yardstick = FEW_UNIQUE_SHARE * n_arms(params)
        found = judging.cell(f"{experiment.NAS_PROBLEM}: {name}'s q_T vs {FEW_UNIQUE_SHARE:g} |A| = {yardstick:g}",
                           paired(unique, pd.Series(yardstick, index=unique.index)), "better", limits["margin"])
        return Evidence.of_tally(judging.tally([found]), str(found),
                                 ours={f"{name} mean q_T": float(unique.mean()), "yardstick": yardstick})
    measure.block = "nas"  # the runs a claim is judged on (claim_runs)
    measure.pairs_of = lambda params: [(experiment.NAS_PROBLEM, name)]
    return measure



def runtime_gap(variants, other, problem_of):
    """``measure`` of "the empirical runtime gap does not seem to match the large theoretical runtime gap":
    per variant, ``other``'s median CPU seconds over the variant's in the quiet benchmark, against the
    theoretical ratio T |A| / (T + |A|) of O(T |A|) to O(T + |A|); the share of variants whose measured
    ratio is below ``fraction`` of it."""
    def measure(table, params, limits):
        rows, problem = timing_record(params["T"]), problem_of(params)
        theirs = median_seconds(rows, problem, other)
        ratios = {name: theirs.median() / median_seconds(rows, problem, name).median() for name in variants
                  if not (theirs.empty or median_seconds(rows, problem, name).empty)}
        if not ratios:
            return Evidence(None, f"no quiet benchmark of {other} and the MINI variants at T = {params['T']} in "
                            f"{TIMING_RECORD.name} (python benchmarks/bench_mini_gp_opt.py --record)")
        n_arms = len(experiment.make_problem({"problem": problem}).arms)
        theory = params["T"] * n_arms / (params["T"] + n_arms)
        below = [ratio < limits["fraction"] * theory for ratio in ratios.values()]
        return Evidence(sum(below) / len(variants), f"{problem}: {other} over " + ", ".join(
            f"{name} {ratio:.3g}x" for name, ratio in ratios.items()) + f"; theory T |A| / (T + |A|) = {theory:.4g} "
            f"(T = {params['T']}, |A| = {n_arms})", ours=ratios)
    return measure



def switch_gap_growth(variant):
    """``measure``: share of seeds where h_T - q_T > 0 and is at least GAP_GROWTH times h - q at T/4 (NAS block)."""
    def measure(table, params, limits):
        runs = table[(table["experiment"] == "nas") & (table["method"] == variant)]
        if runs.empty:
            return Evidence(None, f"no {variant} runs at these parameters")
        grew, gaps = [], []
        for _, run in runs.groupby("run_key"):
            gap = (run["switches"] - run["unique"]).to_numpy()
            quarter = gap[np.searchsorted(run["step"].to_numpy(), run["step"].max() / 4)]
            grew.append(gap[-1] > 0 and gap[-1] >= limits["growth"] * quarter)
            gaps.append(gap[-1])
        return Evidence(float(np.mean(grew)), f"{sum(grew)} of {len(grew)} seeds; mean h_T - q_T = "
                        f"{np.mean(gaps):.1f}", ours={"mean h_T - q_T": float(np.mean(gaps))})
    return measure



def timing_record(horizon):
    """The quiet benchmark's rows at T = ``horizon`` (empty if it was not recorded at that T)."""
    if not provenance.looked_for(TIMING_RECORD):
        return pd.DataFrame(columns=["problem", "method", "seed", "T", "algorithm_seconds"])
    rows = pd.read_csv(TIMING_RECORD)
    return rows[rows["T"] == horizon]



def timing_medians():
    """The quiet benchmark as recorded, one row per T and problem: each method's median CPU seconds of the
    algorithm over the repeats (empty if it was never recorded)."""
    if not provenance.looked_for(TIMING_RECORD):
        return pd.DataFrame(columns=["T", "problem", "repeats"])
    rows = pd.read_csv(TIMING_RECORD)
    medians = rows.pivot_table(index=["T", "problem"], columns="method", values="algorithm_seconds",
                               aggfunc="median", sort=False)
    repeats = rows.groupby(["T", "problem"], sort=False)["seed"].nunique().rename("repeats")
    return medians.join(repeats).reset_index()



def median_seconds(rows, problem, name):
    return rows[(rows["problem"] == problem) & (rows["method"] == name)]["algorithm_seconds"]



def faster_than(variant, other, problem_of):
    """``measure`` of "faster ... terminating earlier": 1 if every repeat of ``variant`` beats every repeat of
    ``other`` in the quiet benchmark at the notebook's T, 0.5 if only its median is lower, else 0."""
    def measure(table, params, limits):
        rows = timing_record(params["T"])
        problem = problem_of(params)
        ours, theirs = median_seconds(rows, problem, variant), median_seconds(rows, problem, other)
        if ours.empty or theirs.empty:
            return Evidence(None, f"no quiet benchmark of {variant} and {other} at T = {params['T']} in "
                            f"{TIMING_RECORD.name} (python benchmarks/bench_mini_gp_opt.py --record)")
        score = 1.0 if ours.max() < theirs.min() else (0.5 if ours.median() < theirs.median() else 0.0)
        return Evidence(score, f"{problem}: {variant} {ours.median():.3g} s [{ours.min():.3g}, {ours.max():.3g}], "
                        f"{other} {theirs.median():.3g} s [{theirs.min():.3g}, {theirs.max():.3g}] over "
                        f"{len(ours)} and {len(theirs)} repeats", ours={variant: ours.median(), other: theirs.median()})
    return measure



def comparable_runtime(variant):
    """``measure`` of "comparable runtime" on BBOB: share of (function, GP-UCB or BBKB) cells where the median
    CPU seconds of ``variant`` are at most ``factor`` times the other's, in the quiet benchmark."""
    def measure(table, params, limits):
        rows = timing_record(params["T"])
        ratios = {}
        for problem in params["bbob_problems"]:
            for other in ("GP-UCB", "BBKB"):
                ours, theirs = median_seconds(rows, problem, variant), median_seconds(rows, problem, other)
                if not (ours.empty or theirs.empty):
                    ratios[f"{problem} vs {other}"] = ours.median() / theirs.median()
        if not ratios:
            return Evidence(None, f"no quiet benchmark on the BBOB functions at T = {params['T']} in "
                            f"{TIMING_RECORD.name} (python benchmarks/bench_mini_gp_opt.py --record)")
        comparable = [ratio <= limits["factor"] for ratio in ratios.values()]
        return Evidence(sum(comparable) / (2 * len(params["bbob_problems"])),
                        "; ".join(f"{cell}: {ratio:.3g}x" for cell, ratio in ratios.items()), ours=ratios)
    return measure



_LAMBDA = 0.05



def _small_problem(seed=0, n_arms=60):
    rng = np.random.default_rng(seed)
    arms = rng.uniform(-1, 1, (n_arms, 3))
    values = np.sin(3 * arms[:, 0]) + arms[:, 1] ** 2 - arms[:, 2]

    def pull(arm, n, generator):
        return values[arm] + 0.2 * generator.standard_normal(n)

    return arms, pull



def unique_posterior_error(table, params, limits):
    """Eq. 4: the unique-candidate posterior against the naive GP on the expanded rows (max abs error)."""
    arms, pull = _small_problem()
    kernel, lam, rng = SquaredExponential(0.6), _LAMBDA, np.random.default_rng(1)
    posterior, rows, y = method.UniqueArmPosterior(kernel, arms, lam), [], []
    for arm, n in ((4, 3), (17, 1), (30, 12), (4, 5), (8, 2), (17, 20)):
        values = pull(arm, n, rng)
        posterior.add(arm, n, values.sum())
        rows += [arm] * n
        y += list(values)
    mean, std = GaussianProcess(kernel, lam).fit(arms[rows], np.array(y)).predict(arms, return_std=True)
    error = max(np.max(np.abs(posterior.mean - mean)), np.max(np.abs(posterior.variance - std**2)))
    return Evidence(float(error <= limits["tolerance"]),
                    f"max error {paper_data.format_round_off(error)} on 60 arms, 6 epochs, 43 rows",
                    ours=paper_data.round_off(error))



def _mini_runs(threshold=1.1):
    arms, pull = _small_problem()
    return [method.mini_meta(SquaredExponential(0.6), arms, pull, _LAMBDA, 600, np.random.default_rng(seed),
                             acquisition=acquisition, threshold=threshold)
            for seed in range(3) for acquisition in ("UCB", "EI")], threshold



def variance_ratio_bound(table, params, limits):
    """Corollary A.2: within an epoch no variance shrinks by more than C^2 (epochs the rule sized)."""
    records, threshold = _mini_runs()
    ratios = [ratio for record in records for ratio, ruled in zip(record.variance_ratio, record.unclamped) if ruled]
    largest = max(ratios)
    return Evidence(float(largest <= threshold**2 * (1 + limits["tolerance"])),
                    f"largest ratio {largest:.6g} over {len(ratios)} epochs, C^2 = {threshold**2:.4g}", ours=largest)



def switch_count_bound(table, params, limits):
    """Lemma 4.3 along its proof (App. A.2) on every run, the last (possibly cut) epoch left out: its first step
    C^2 - 1 <= 2 sigma~^2_j B_j on each epoch sized by the rule (summed over the epochs, h (C^2 - 1) <=
    2 sum_j sigma~^2_j B_j; epochs clamped up to one evaluation satisfy it with room), its bound
    h <= 2 C^2 / (C^2 - 1) sum_s sigma~^2_{s-1}(x_s), and sum_s log(1 + sigma~^2_{s-1}(x_s)) = logdet_T.

    The stated bound, with (1 + kappa^2 / lambda) logdet_T in place of the sum, is
    reported beside T: at lambda = 0.05 it exceeds T, and h <= T holds anyway."""
    records, threshold = _mini_runs()
    first_steps, ratios, errors, stated = [], [], [], []
    for record in records:
        variances, lengths = np.array(record.chosen_variance[:-1]), np.array(record.lengths[:-1])
        ruled = np.array(record.unclamped[:-1], dtype=bool)
        first_steps.append(np.min(2 * variances[ruled] * lengths[ruled]) / (threshold**2 - 1))
        ratios.append(method.switch_bound_of_the_proof(variances, lengths, threshold) / len(lengths))
        along = method.variances_along_steps(record.chosen_variance, record.lengths)
        errors.append(abs(np.log1p(along).sum() - record.logdet) / max(1.0, record.logdet))
        stated.append(method.switch_bound(record.logdet, threshold, _LAMBDA) / sum(record.lengths))
    holds = (min(first_steps) >= 1.0 - limits["tolerance"] and min(ratios) >= 1.0
             and max(errors) <= limits["tolerance"])
    return Evidence(float(holds), f"over {len(records)} runs, smallest 2 sigma~^2_j B_j / (C^2 - 1) of an epoch sized "
                    f"by the rule: "
                    f"{min(first_steps):.5g}; smallest bound / h: {min(ratios):.3g}; the chain rule of logdet_T "
                    f"within {paper_data.format_round_off(max(errors))} (relative); the stated bound with (1 + kappa^2/lambda) is "
                    f"{min(stated):.3g}-{max(stated):.3g} T here, looser than h <= T", ours=min(first_steps))
