"""Experiments of "BO with Noise-Free Observations: Improved Regret Bounds via Random Exploration" (Kim & Sanz-Alonso).

Five blocks of runs, every one noise-free, with the paper's surrogate
(:mod:`common.methods.random_exploration`) and n_init = d uniform initial points
shared by every method of a repetition; the budget counts every evaluation,
initial ones included, and the "+" methods spend two per iteration:

* ``benchmark``: Ackley, Rastrigin and Levy in d = 10, the six methods of Fig. 2,
  beta^{1/2} = 2 (TWO); Fig. 2, Tables 1 and 4.
* ``beta``: GP-UCB+ and GP-UCB with beta^{1/2} = max over 100 LHS points of |f|
  (SUP) on the same seeds; with the benchmark block's TWO runs, Fig. 5.
* ``fill``: GP-UCB (SUP), EXPLOIT, EXPLORE and UNIFORM on Rastrigin-10; the fill
  distance of the query set on two reference sets; Fig. 1.
* ``random_forest``: the six methods tuning a random forest (SUP, 40 LHS points)
  on scikit-learn's diabetes data, a substitute for California housing;
  Figs. 3 and 6, Table 2.
* ``sprinkler``: the six methods on the garden sprinkler model (TWO, SE kernel);
  Fig. 4, Table 3.

Two ablations measure choices the paper leaves open that the spec (§8) expects
to move the results:

* ``maximizer_ablation``: the benchmark block on its first seeds with
  bayes_opt's acquisition search budget (10,000 candidates, 10 L-BFGS-B runs)
  instead of ours (2,000 and 3).
* ``scaling_ablation``: the random-forest and sprinkler blocks with every input
  mapped to [0, 1] before the GP sees it (``inputs = "unit"``), instead of raw
  inputs, whose ranges differ by up to six orders of magnitude; the initial
  designs and random points are the same points of the box.

``confirmatory=True`` (False in every scale and the published configuration)
adds the fresh-seed runs of the committed confirmatory plan
(:func:`confirmatory_grid`).
"""
import numpy as np
import pandas as pd

from common import confirmatory, stats
from common.bo import initial_design, run_bo
from common.methods.random_exploration import (
    RandomExploration,
    UniformSearch,
    make_gp_method,
    sup_beta_root,
    surrogate_kernel,
)
from common.metrics import fill_distance, simple_regret
from common.problems.random_forest import RandomForestDiabetes
from common.problems.sprinkler import GardenSprinkler
from common.problems.unit_cube import OnUnitCube
from common.seeding import make_rng
from common.store import final_rows
from common.test_functions import Ackley, Levy, Rastrigin

PAPER = "random_exploration"
# Raise whenever a change alters the numbers of a run; cached runs of another version are recomputed.
CODE_VERSION = 3  # 3: squared distances of near-coincident points recomputed from differences (core fix)
NOTEBOOK = "random_exploration.ipynb"
TITLE = "Kim & Sanz-Alonso: BO with noise-free observations, random exploration (GP-UCB+, EXPLOIT+)"
OUTPUTS = ["Fig. 1", "Fig. 2", "Table 1", "Table 4", "Fig. 5", "Fig. 3", "Fig. 6", "Table 2", "Fig. 4", "Table 3"]

BENCHMARKS = {"Ackley": lambda: Ackley(10), "Rastrigin": lambda: Rastrigin(10), "Levy": lambda: Levy(10)}
# The six methods of Figs. 2-4 and Tables 1-4, in the paper's table order.
METHODS = ("GP-UCB+", "GP-UCB", "EXPLOIT+", "EXPLOIT", "EI", "PI")
FILL_METHODS = ("GP-UCB", "EXPLOIT", "EXPLORE", "UNIFORM")
# method -> (acquisition of the one-point step, with a random exploration step)
ACQUISITION = {"GP-UCB+": ("UCB", True), "GP-UCB": ("UCB", False), "EXPLOIT+": ("mean", True),
               "EXPLOIT": ("mean", False), "EI": ("EI", False), "PI": ("PI", False), "EXPLORE": ("variance", False)}
BETA_TWO = 2.0  # beta^{1/2} = 2, the paper's "well-tuned constant" (§5)
FILL_PROBLEM = "Rastrigin"

_PAPER = dict(
    bench_functions=list(BENCHMARKS), bench_methods=list(METHODS), bench_budget=400, bench_seeds=20,
    beta_seeds=20, fill_budget=400, fill_seeds=100, fill_reference_size=10_000,
    rf_budget=80, rf_seeds=20, rf_n_estimators_max=200, sprinkler_budget=100, sprinkler_seeds=30,
    xd_size=100, rf_xd_size=40, acq_candidates=2000, acq_polish=3,
    maximizer_ablation_seeds=5, maximizer_ablation_search=[10_000, 10], scaling_ablation_seeds=20,
    confirmatory=False,
)
SCALES = {
    "smoke": {**_PAPER, "bench_functions": ["Ackley"], "bench_budget": 16, "bench_seeds": 1, "beta_seeds": 1,
              "fill_budget": 16, "fill_seeds": 1, "fill_reference_size": 500, "rf_budget": 8, "rf_seeds": 1,
              "rf_n_estimators_max": 20, "sprinkler_budget": 12, "sprinkler_seeds": 1, "rf_xd_size": 5,
              "acq_candidates": 200, "acq_polish": 1, "maximizer_ablation_seeds": 1,
              "maximizer_ablation_search": [400, 2], "scaling_ablation_seeds": 1},
    "quick": {**_PAPER, "bench_budget": 60, "bench_seeds": 3, "beta_seeds": 3, "fill_budget": 60, "fill_seeds": 3,
              "fill_reference_size": 2000, "rf_budget": 20, "rf_seeds": 2, "rf_n_estimators_max": 50,
              "sprinkler_budget": 30, "sprinkler_seeds": 3, "rf_xd_size": 10, "acq_candidates": 500,
              "acq_polish": 1, "maximizer_ablation_seeds": 2, "maximizer_ablation_search": [2500, 5],
              "scaling_ablation_seeds": 2},
    "paper": _PAPER,
}
# What `python reproduce.py` regenerates and the repository publishes, until the paper-scale grid is cached.
PUBLISHED = {"scale": "paper"}
CELL_FIELDS = ("experiment", "problem", "method", "beta", "inputs")

def candidates_and_polish(value):
    """a pair [candidates, polish runs] with 1 <= candidates <= 100000 and 0 <= polish runs <= 50"""
    return (isinstance(value, (list, tuple)) and len(value) == 2 and all(isinstance(v, int) for v in value)
            and 1 <= value[0] <= 100_000 and 0 <= value[1] <= 50)


ALLOWED = {
    "bench_functions": list(BENCHMARKS), "bench_methods": list(METHODS),
    "bench_budget": range(11, 1001), "bench_seeds": range(1, 101), "beta_seeds": range(0, 101),
    "fill_budget": range(11, 1001), "fill_seeds": range(0, 501), "fill_reference_size": range(1, 100_001),
    "rf_budget": range(5, 501), "rf_seeds": range(0, 101), "rf_n_estimators_max": range(11, 201),
    "sprinkler_budget": range(9, 1001), "sprinkler_seeds": range(0, 101),
    "xd_size": range(1, 10_001), "rf_xd_size": range(1, 1001),
    "acq_candidates": range(1, 100_001), "acq_polish": range(0, 51),
    "maximizer_ablation_seeds": range(0, 101), "maximizer_ablation_search": candidates_and_polish,
    "scaling_ablation_seeds": range(0, 101), "confirmatory": [False, True],
}


def _config(params, experiment, problem, method, beta, seed, budget, **extra):
    return {"paper": PAPER, "experiment": experiment, "problem": problem, "method": method, "beta": beta,
            "seed": seed, "budget": budget, "acq_candidates": params["acq_candidates"],
            "acq_polish": params["acq_polish"], **extra}


def _beta_of(method, beta):
    return beta if ACQUISITION.get(method, ("",))[0] == "UCB" else None


def block_config(params, block, problem, method, seed):
    """The configuration of one run of a main block ("benchmark", "beta", "fill", "random_forest", "sprinkler")."""
    if block == "benchmark":
        return _config(params, block, problem, method, _beta_of(method, "TWO"), seed, params["bench_budget"])
    if block == "beta":
        return _config(params, block, problem, method, "SUP", seed, params["bench_budget"], xd_size=params["xd_size"])
    if block == "fill":
        return _config(params, block, problem, method, _beta_of(method, "SUP"), seed, params["fill_budget"],
                       xd_size=params["xd_size"], fill_reference_size=params["fill_reference_size"])
    if block == "random_forest":
        return _config(params, block, problem, method, _beta_of(method, "SUP"), seed, params["rf_budget"],
                       xd_size=params["rf_xd_size"], n_estimators_max=params["rf_n_estimators_max"])
    if block == "sprinkler":
        return _config(params, block, problem, method, _beta_of(method, "TWO"), seed, params["sprinkler_budget"])
    raise ValueError(f"unknown block {block!r}; blocks: benchmark, beta, fill, random_forest, sprinkler")


def make_grid(params):
    """All run configurations of the notebook for resolved parameters."""
    grid = []
    for problem in params["bench_functions"]:
        for method in params["bench_methods"]:
            grid += [block_config(params, "benchmark", problem, method, seed) for seed in range(params["bench_seeds"])]
    for problem in params["bench_functions"]:
        for method in ("GP-UCB+", "GP-UCB"):
            grid += [block_config(params, "beta", problem, method, seed) for seed in range(params["beta_seeds"])]
    for method in FILL_METHODS:
        grid += [block_config(params, "fill", FILL_PROBLEM, method, seed) for seed in range(params["fill_seeds"])]
    for method in METHODS:
        grid += [block_config(params, "random_forest", "RF_diabetes", method, seed)
                 for seed in range(params["rf_seeds"])]
        grid += [block_config(params, "sprinkler", "sprinkler", method, seed)
                 for seed in range(params["sprinkler_seeds"])]
    candidates, polish = params["maximizer_ablation_search"]
    for problem in params["bench_functions"]:
        for method in params["bench_methods"]:
            grid += [{**_config(params, "maximizer_ablation", problem, method, _beta_of(method, "TWO"), seed,
                                params["bench_budget"]), "acq_candidates": candidates, "acq_polish": polish}
                     for seed in range(params["maximizer_ablation_seeds"])]
    for method in METHODS:
        grid += [_config(params, "scaling_ablation", "RF_diabetes", method, _beta_of(method, "SUP"), seed,
                         params["rf_budget"], xd_size=params["rf_xd_size"],
                         n_estimators_max=params["rf_n_estimators_max"], inputs="unit")
                 for seed in range(params["scaling_ablation_seeds"])]
        grid += [_config(params, "scaling_ablation", "sprinkler", method, _beta_of(method, "TWO"), seed,
                         params["sprinkler_budget"], inputs="unit") for seed in range(params["scaling_ablation_seeds"])]
    return grid + (confirmatory_grid(params) if params["confirmatory"] else [])


def confirmatory_grid(params):
    """The fresh-seed runs of the committed confirmatory plan (``data/confirmatory/random_exploration.csv``).

    For each planned claim, the runs it is judged on
    (:func:`~common.experiments.random_exploration_claims.claim_runs`) at its fresh seeds
    (:func:`common.confirmatory.fresh_seeds`); a run two claims share is listed once, at the larger count.
    """
    from common.experiments import random_exploration_claims  # the claims module imports this one

    seeds_of = {}
    for row in confirmatory.load_plan(PAPER).itertuples(index=False):
        if not row.planned_seeds:
            continue
        for block, problem, methods in random_exploration_claims.claim_runs(row.id):
            for method in methods:
                seeds_of[(block, problem, method)] = max(seeds_of.get((block, problem, method), 0),
                                                         int(row.planned_seeds))
    return [block_config(params, block, problem, method, seed)
            for (block, problem, method), count in seeds_of.items() for seed in confirmatory.fresh_seeds(count)]


def make_problem(config):
    """The objective of a configuration (maximized), on [0, 1]^d if its ``inputs`` is "unit"."""
    if config["problem"] in BENCHMARKS:
        problem = BENCHMARKS[config["problem"]]()
    elif config["problem"] == "RF_diabetes":
        problem = RandomForestDiabetes(n_estimators_max=config["n_estimators_max"])
    elif config["problem"] == "sprinkler":
        problem = GardenSprinkler()
    else:
        raise ValueError(f"unknown problem {config['problem']!r}")
    return OnUnitCube(problem) if config.get("inputs") == "unit" else problem


def beta_root(config, objective):
    """beta^{1/2} of a configuration: 2 (TWO), or max |f| over the repetition's Latin hypercube X_D (SUP)."""
    if config["beta"] is None:
        return None
    if config["beta"] == "TWO":
        return BETA_TWO
    return sup_beta_root(objective, objective.bounds, config["xd_size"],
                         make_rng(PAPER, config["problem"], config["seed"], "X_D"))


def make_method(config, objective, root):
    """The BO method of a configuration (see :data:`ACQUISITION`), or UNIFORM."""
    if config["method"] == "UNIFORM":
        return UniformSearch(objective.bounds)
    acquisition, plus = ACQUISITION[config["method"]]
    kernel = surrogate_kernel("se" if config["problem"] == "sprinkler" else "matern", objective.dim)
    base = make_gp_method(acquisition, objective.bounds, kernel, beta_root=root,
                          n_candidates=config["acq_candidates"], n_restarts=config["acq_polish"],
                          name=config["method"].rstrip("+"))
    if not plus:
        return base
    # One exploration stream per (problem, seed): GP-UCB+ and EXPLOIT+ draw the same uniform points.
    return RandomExploration(base, objective.bounds, make_rng(PAPER, config["problem"], config["seed"], "exploration"),
                             name=config["method"])


def run(config, iterations=None):
    """One run: the per-evaluation traces for the result store.

    Parameters
    ----------
    config : dict
        A configuration of :func:`make_grid`.
    iterations : int, optional
        Stop after this many BO iterations. A run's evaluations do not depend
        on its budget until the budget is reached, so the traces are a prefix
        of the full run's (what the spot-check test recomputes).

    Returns
    -------
    dict with the traces ``f`` (value of each evaluation, initial design
    first), ``best_so_far``, ``iteration`` (0 for the initial design),
    ``wall_time``; ``regret`` on the benchmarks (f* = 0); the cumulative test
    error ``cumulative_error`` on the random forest; ``fill_xd`` and
    ``fill_uniform`` in the fill block; the scalar ``beta_root`` where UCB ran.
    """
    objective = make_problem(config)
    root = beta_root(config, objective)
    method = make_method(config, objective, root)
    n_init = objective.dim
    per_iteration = 2 if config["method"].endswith("+") else 1
    n_iterations = -(-(config["budget"] - n_init) // per_iteration)
    if iterations is not None:
        n_iterations = min(iterations, n_iterations)
    seed_key = (PAPER, config["problem"], config["seed"])
    record = run_bo(objective, objective.bounds, method, n_init, n_iterations,
                    init_rng=make_rng(*seed_key, "initial design"),  # shared by every method of a repetition
                    method_rng=make_rng(*seed_key, config["experiment"], config["method"]),
                    max_evaluations=config["budget"])
    result = {name: record[name] for name in ("f", "best_so_far", "iteration", "wall_time")}
    if config["problem"] in BENCHMARKS:
        result["regret"] = simple_regret(record["f"], objective.optimal_value)
    if config["problem"] == "RF_diabetes":  # f = -MSE_test: C_n = sum_{i <= n} MSE_test(x_i) (Table 2)
        result["cumulative_error"] = np.cumsum(-record["f"])
    if config["experiment"] == "fill":
        X_D = initial_design(objective.bounds, config["xd_size"], make_rng(*seed_key, "X_D"), kind="lhs")
        reference = initial_design(objective.bounds, config["fill_reference_size"], make_rng(*seed_key, "reference"))
        result["fill_xd"] = fill_distance(record["X"], X_D)
        result["fill_uniform"] = fill_distance(record["X"], reference)
    if root is not None:
        result["beta_root"] = root
    return result


# --------------------------------------------------------------------------- tables from the runs
def final_runs(table, experiment):
    """One row per run of a block: its configuration and its last evaluation's values."""
    runs = table[table["experiment"] == experiment]
    return final_rows(runs).reset_index(drop=True)


def normalized_table(finals, column, statistic):
    """Table 1 or Table 4: a per-problem statistic of the final values, divided by the largest over methods.

    Parameters
    ----------
    finals : DataFrame of :func:`final_runs` of the benchmark block.
    column : str, e.g. "regret".
    statistic : {"mean", "std"}; the std has ddof = 1 (ddof cancels in the ratio).

    Returns
    -------
    DataFrame, methods x problems, the worst method at 1.
    """
    values = finals.groupby(["method", "problem"])[column].agg(statistic).unstack("problem")
    return (values / values.max()).reindex([m for m in METHODS if m in values.index])


def cumulative_test_error(table):
    """The random-forest block's evaluations with their test MSE (-f) beside the cumulative error C_n."""
    runs = table[table["experiment"] == "random_forest"]
    return runs.assign(test_mse=-runs["f"])


def mean_and_sd(finals, column):
    """Mean and SD (ddof = 1) of a final value per method, in the paper's order."""
    summary = finals.groupby("method")[column].agg(mean="mean", sd="std", runs="size")
    return summary.reindex([m for m in METHODS if m in summary.index])


def ablation_table(table, ablation, block, column, higher_is_better, ablation_label):
    """An ablation beside the block it varies, on the ablation's seeds: mean final values and a paired comparison.

    Each row has the ratio of means (ablation over main) with its 95 % interval, "better" or "worse" where the
    interval lies wholly on one side of 1 (else "undecided"), and whether it rules out an effect of the project's
    margin, a factor 1.1 either way ("yes" when the interval lies inside it, "no" when wholly outside).

    Parameters
    ----------
    table : the tidy table of runs.
    ablation, block : experiment names, e.g. "scaling_ablation" and "sprinkler".
    column : the final value compared, e.g. "regret" or "best_so_far".
    higher_is_better : bool
    ablation_label : str, the ablation's column heading, e.g. "unit inputs".

    Returns
    -------
    DataFrame, one row per (problem, method), or None without ablation runs.
    """
    varied = final_runs(table, ablation)
    if varied.empty:
        return None
    seeds = set(varied["seed"])
    main = final_runs(table, block)
    main = main[main["seed"].isin(seeds) & main["problem"].isin(set(varied["problem"]))]
    rows = []
    for (problem, method), runs in varied.groupby(["problem", "method"], sort=False):
        ours = main[(main["problem"] == problem) & (main["method"] == method)].set_index("seed")[column]
        other = runs.set_index("seed")[column]
        common_seeds = sorted(set(ours.index) & set(other.index))
        if not common_seeds:
            continue
        comparison = stats.paired_comparison(other[common_seeds].to_numpy(), ours[common_seeds].to_numpy(),
                                             higher_is_better=higher_is_better, scale="ratio")
        equivalent = stats.judge_cell(comparison, "equivalent", stats.DEFAULT_MARGIN).judgement
        rows.append({"problem": problem, "method": method, "seeds": len(common_seeds),
                     "main": ours[common_seeds].mean(), ablation_label: other[common_seeds].mean(),
                     "ratio": str(comparison.effect),
                     "W/T/L": f"{comparison.wins}/{comparison.ties}/{comparison.losses}", "p": comparison.p_value,
                     "outcome": stats.interval_side(comparison) or "undecided",
                     "within 1.1x": {"supported": "yes", "contradicted": "no"}.get(equivalent, "undecided")})
    return pd.DataFrame(rows) if rows else None
