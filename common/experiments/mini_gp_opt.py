"""Experiments of "Scaling GP Optimization by Evaluating a Few Unique Candidates Multiple Times" (Calandriello et al.).

Every problem is a finite set of arms with noisy pulls; every GP method uses
the Gaussian kernel k = exp(-||x - x'||^2 / (2 l^2)), the paper's oracle
lambda (the 90th percentile over the arms of the noise std, §5), F = 1 and
delta = 0.5, and every method of a repetition starts from the same uniformly
random arm. Two blocks:

* ``nas``: the NAS-Bench-101 substitute (``nascell19-digits``: random-feature
  CNN cells on scikit-learn's digits; NAS-Bench-101 cannot be had offline),
  the main-text figure, panels (a)-(e).
* ``bbob``: the noisy BBOB functions f104, f116, f122 and the separable
  Rastrigin f3 on the 22^3 grid of [-5, 5]^3 (Figs. 3 and 4).

and two ablations: ``beta_ablation``, the GP methods on the NAS substitute with
their theory beta multiplied by ``beta_ablation_scale``, on the first
``beta_ablation_seeds`` seeds of the ``nas`` block, to measure what the beta
rules (the paper's, not tuned) do to batch sizes, cost and regret; and
``noise_ablation``, the BBOB functions whose own noise level differs from the
paper's "moderate" (f116 and f122: BBOB's severe noise, beta = 1) run at
BBOB's level, on the first ``noise_ablation_seeds`` seeds of the ``bbob`` block;
and ``lambda_ablation``, the ``beta_ablation_methods`` on the NAS substitute
with lambda the square of the 90th percentile of the noise std (the theory's
lambda = xi^2) instead of the percentile itself (the paper's words), on the
first ``lambda_ablation_seeds`` seeds of the ``nas`` block; and ``bandwidth_ablation``, the GP methods of the
``nas`` block with l^2 = ``bandwidth_ablation_factor`` times the median squared distance (Table 1's pick on the
substitute, which the paper's protocol would run) instead of the figures' fixed ``bandwidth_factor``, on its first
``bandwidth_ablation_seeds`` seeds; and ``oversampling_ablation``, BBKB of the ``bbob`` and ``nas`` blocks with
its dictionary oversampling qbar = ``oversampling_ablation_qbar`` instead of ``bbkb_oversampling``, on their first
``oversampling_ablation_seeds`` and ``oversampling_ablation_nas_seeds`` seeds (the same random streams as the
blocks' own runs; BBKB's NAS run costs about 8x more at qbar = 4 than at 1); and ``combined_ablation``, BBKB on
the NAS substitute with both, qbar = ``oversampling_ablation_qbar`` and l^2 = ``bandwidth_ablation_factor`` times
the median squared distance, on its first ``combined_ablation_seeds`` seeds. With ``confirmatory``
(False in every scale and the published configuration), the grid also holds the
fresh-seed runs of the committed confirmatory plan (:func:`confirmatory_grid`),
judged apart from the paper's seeds.

The GP methods' hyperparameters are fixed, not grid-searched per method
(the budget): l^2 is ``bandwidth_factor`` times the median squared distance
between arms, C = 1.1 (Table 1's value). epsilon-greedy, which costs next to
nothing, is tuned as the paper tunes it (§5): every block runs it at each
(a, b) of the paper's grid (:data:`EPSILON_GRID`) and
:func:`with_tuned_epsilon_greedy` keeps, per problem, the setting with the
lowest mean final R_T/T over the seeds. BKB and BBKB resample their
dictionary with the oversampling qbar = ``bbkb_oversampling``, 1 as in the
authors' code (:data:`AUTHORS_OVERSAMPLING`). A run stores its curves at about
150 log-spaced steps, not per step (T = 10,000 at paper scale).
"""
import numpy as np
import pandas as pd

from common import confirmatory, stats
from common.kernels import SquaredExponential
from common.methods.mini_gp_opt import batch_bkb, epsilon_greedy, gp_bts, gp_bucb, mini_meta
from common.problems.bbob_grid import BBOBGrid
from common.problems.nas_cells import NASCellsDigits
from common.seeding import make_rng
from common.store import final_rows

PAPER = "mini_gp_opt"
# Raise whenever a change alters the numbers of a run; cached runs of another version are recomputed.
CODE_VERSION = 4  # 2: runs store their feedback rounds (batches) too; 3: BBKB's kernel rows computed once per arm;
# 4: epsilon-greedy starts from the repetition's first arm, like the GP methods
NOTEBOOK = "mini_gp_opt.ipynb"
TITLE = "Calandriello et al.: Scaling GP optimization by evaluating a few unique candidates (MINI-GP-UCB/EI)"
OUTPUTS = ["Fig. 1-2 (a)-(e)", "Table 1", "Fig. 3", "Fig. 4"]

BBOB_PROBLEMS = {"Rosenbrock f104": 104, "Ellipsoid f116": 116, "Schaffer f122": 122, "Separable Rastrigin f3": 3}
NAS_PROBLEM = "NAS (digits substitute)"
METHODS = ("MINI-GP-UCB", "MINI-GP-EI", "GP-UCB", "GP-BUCB", "BBKB", "BKB", "GP-BTS", "epsilon-greedy")
N_CHECKPOINTS = 150

_PAPER = dict(
    nas_methods=["MINI-GP-UCB", "MINI-GP-EI", "GP-UCB", "GP-BUCB", "BBKB", "GP-BTS", "epsilon-greedy"],
    bbob_problems=list(BBOB_PROBLEMS), bbob_methods=["MINI-GP-UCB", "MINI-GP-EI", "GP-UCB", "GP-BUCB", "BBKB",
                                                     "epsilon-greedy"],
    T=10_000, n_seeds=40, threshold=1.1, bandwidth_factor=1.0, noise_beta=0.01,
    beta_ablation_methods=["MINI-GP-UCB", "GP-UCB", "GP-BUCB", "BBKB"], beta_ablation_scale=0.1,
    beta_ablation_seeds=5, table1_methods=list(METHODS), table1_seeds=5, table1_T=1000, noise_ablation_seeds=5,
    lambda_ablation_seeds=5, confirmatory=False, bbkb_oversampling=1.0, bandwidth_ablation_factor=16.0,
    bandwidth_ablation_seeds=40, oversampling_ablation_qbar=4.0, oversampling_ablation_seeds=40,
    oversampling_ablation_nas_seeds=10,   # not 40: about 700 CPU-s a run at qbar = 4 (85 at qbar = 1)
    combined_ablation_seeds=10,  # about 2 CPU-s a run: with l^2 = 16x the median, BBKB meets about 440 arms, not 1,900
)
SCALES = {
    "smoke": {**_PAPER, "nas_methods": ["MINI-GP-UCB", "MINI-GP-EI", "BBKB", "epsilon-greedy"],
              "bbob_problems": ["Ellipsoid f116"],
              "bbob_methods": ["MINI-GP-UCB", "epsilon-greedy"], "T": 60, "n_seeds": 1,
              "beta_ablation_methods": ["MINI-GP-UCB", "BBKB"], "beta_ablation_seeds": 1, "noise_ablation_seeds": 0,
              "lambda_ablation_seeds": 0, "bandwidth_ablation_seeds": 1, "oversampling_ablation_seeds": 1,
              "oversampling_ablation_nas_seeds": 1, "table1_methods": ["MINI-GP-UCB", "epsilon-greedy"],
              "table1_seeds": 1, "table1_T": 40, "combined_ablation_seeds": 1},
    "quick": {**_PAPER, "bbob_problems": ["Ellipsoid f116"], "bbob_methods": ["MINI-GP-UCB", "MINI-GP-EI", "GP-UCB",
                                                                             "epsilon-greedy"],
              "T": 1000, "n_seeds": 3, "beta_ablation_seeds": 3, "noise_ablation_seeds": 3,
              "lambda_ablation_seeds": 3, "bandwidth_ablation_seeds": 3, "oversampling_ablation_seeds": 0,
              "oversampling_ablation_nas_seeds": 3,
              "table1_methods": [name for name in METHODS if name not in ("BBKB", "BKB")], "table1_seeds": 2,
              "table1_T": 200, "combined_ablation_seeds": 0},
    "paper": _PAPER,
}
PUBLISHED = {"scale": "paper"}


def _check_threshold(value):
    """a number C with 1 < C <= 4"""
    return isinstance(value, (int, float)) and 1 < value <= 4


def _check_beta_scale(value):
    """a number with 0 < beta_ablation_scale <= 10"""
    return isinstance(value, (int, float)) and 0 < value <= 10


def _check_bandwidth_factor(value):
    """a number with 0 < factor <= 256 (l^2 in units of the median squared distance)"""
    return isinstance(value, (int, float)) and 0 < value <= 256


def _check_noise_beta(value):
    """a number with 0 < noise_beta <= 1 (the noise level; 1 is BBOB's severe level for f116 and f122)"""
    return isinstance(value, (int, float)) and 0 < value <= 1


def _check_oversampling(value):
    """a number qbar with 0 < qbar <= 100"""
    return isinstance(value, (int, float)) and 0 < value <= 100


ALLOWED = {
    "nas_methods": list(METHODS), "bbob_problems": list(BBOB_PROBLEMS), "bbob_methods": list(METHODS),
    "T": range(2, 100_001), "n_seeds": range(1, 201), "threshold": _check_threshold,
    "beta_ablation_methods": [name for name in METHODS if name not in ("epsilon-greedy", "GP-BTS")],
    "beta_ablation_scale": _check_beta_scale, "beta_ablation_seeds": range(0, 201),
    "table1_methods": list(METHODS), "table1_seeds": range(0, 201), "table1_T": range(2, 100_001),
    "noise_ablation_seeds": range(0, 201), "lambda_ablation_seeds": range(0, 201), "confirmatory": [False, True, "powered"],
    "bbkb_oversampling": _check_oversampling, "bandwidth_ablation_factor": _check_bandwidth_factor,
    "bandwidth_factor": _check_bandwidth_factor, "noise_beta": _check_noise_beta,
    "bandwidth_ablation_seeds": range(0, 201), "oversampling_ablation_qbar": _check_oversampling,
    "oversampling_ablation_seeds": range(0, 201), "oversampling_ablation_nas_seeds": range(0, 201),
    "combined_ablation_seeds": range(0, 201),
}
# BKB and BBKB resample their Nystrom dictionary after every feedback, keeping pulled arm j with probability
# min(1, qbar w_j sigma~^2_j). The paper never states qbar; the authors' code defaults to qbar = 1 and its two example
# scripts pass qbar = 1, while its docstring says "Empirically, a small factor qbar in [2,10] seems to work"
# (luigicarratino/batch-bkb, bkb_lib.py lines 77 and 114-121, example_batch_bkb.py line 54). The published runs use 1;
# the parameter ``bbkb_oversampling`` reruns BKB and BBKB in every block at another value.
OVERSAMPLING_METHODS = ("BBKB", "BKB")
AUTHORS_OVERSAMPLING = 1.0
# The methods of the noise ablation (the cheap GP methods of the BBOB block: MINI and its sequential baseline).
NOISE_ABLATION_METHODS = ("MINI-GP-UCB", "MINI-GP-EI", "GP-UCB")
# Table 1's grid search (App. B.1) on the NAS substitute: the kernel bandwidth as a multiple of the median squared
# distance between arms (the paper's sigma values belong to its own encoding; the spec's 0.25-4, §4.1, widened to 16
# because quick runs picked its upper end, then to 128 because 6 of 7 methods picked 16 at the paper scale, issue
# 43), C where the method has one, and epsilon-greedy's (a, b) from the paper's grid. The best setting has the
# lowest mean final R_T/T.
TABLE1_BANDWIDTH_FACTORS = (0.25, 0.5, 1.0, 2.0, 4.0, 8.0, 16.0, 32.0, 64.0, 128.0)
TABLE1_THRESHOLDS = (1.1, 1.2)
# epsilon-greedy's grid, epsilon_t = a / t^b (§5: "a in {0.1, 1, 10} and b in {1/3, 1/2, 1, 2} is tuned via grid
# search"), in every block and in Table 1's search.
EPSILON_GRID = {"epsilon_a": (0.1, 1.0, 10.0), "epsilon_b": (1 / 3, 0.5, 1.0, 2.0)}
METHODS_WITH_C = ("MINI-GP-UCB", "MINI-GP-EI", "GP-BUCB", "BBKB")


def make_grid(params):
    """All run configurations for resolved parameters."""
    shared = {"paper": PAPER, "T": params["T"], "threshold": params["threshold"],
              "bandwidth_factor": params["bandwidth_factor"], "noise_beta": params["noise_beta"]}
    blocks = [("nas", NAS_PROBLEM, params["nas_methods"])]
    blocks += [("bbob", problem, params["bbob_methods"]) for problem in params["bbob_problems"]]
    grid = [{**shared, "experiment": experiment, "problem": problem, "method": method, "seed": seed, **setting}
            for experiment, problem, methods in blocks for method in methods for setting in epsilon_settings(method)
            for seed in range(params["n_seeds"])]
    # The ablation's runs with beta_scale = 1 are the nas block's own (same seeds, same streams).
    grid += [{**shared, "experiment": "beta_ablation", "problem": NAS_PROBLEM, "method": method, "seed": seed,
              "beta_scale": params["beta_ablation_scale"]}
             for method in params["beta_ablation_methods"] for seed in range(params["beta_ablation_seeds"])]
    grid += [{**shared, "experiment": "noise_ablation", "problem": problem, "method": method, "seed": seed,
              "noise_beta": level}
             for problem, level in bbob_noise_levels(params).items() for method in params["bbob_methods"]
             if method in NOISE_ABLATION_METHODS for seed in range(min(params["noise_ablation_seeds"],
                                                                     params["n_seeds"]))]
    grid += [{**shared, "experiment": "lambda_ablation", "problem": NAS_PROBLEM, "method": method, "seed": seed,
              "lambda_rule": "p90 std squared"}
             for method in params["beta_ablation_methods"] for seed in range(params["lambda_ablation_seeds"])]
    # The NAS figure's GP methods at Table 1's pick (epsilon-greedy, kernel-free, is the nas block's own).
    grid += [{**shared, "experiment": "bandwidth_ablation", "problem": NAS_PROBLEM, "method": method, "seed": seed,
              "bandwidth_factor": params["bandwidth_ablation_factor"]}
             for method in params["nas_methods"] if method != "epsilon-greedy"
             for seed in range(min(params["bandwidth_ablation_seeds"], params["n_seeds"]))]
    grid += [{**shared, "experiment": "table1", "problem": NAS_PROBLEM, "method": method, "seed": seed,
              "T": params["table1_T"], **setting}
             for method in params["table1_methods"] for setting in table1_settings(method)
             for seed in range(params["table1_seeds"])]
    grid = with_oversampling(kernel_free_greedy(grid), params["bbkb_oversampling"])
    # BBKB of the figures at another qbar: the same problems, seeds and random streams as the blocks' own runs.
    ablation_seeds = {"nas": params["oversampling_ablation_nas_seeds"], "bbob": params["oversampling_ablation_seeds"]}
    grid += [{**shared, "experiment": "oversampling_ablation", "problem": problem, "method": method, "seed": seed,
              "oversampling": float(params["oversampling_ablation_qbar"])}
             for block, problem, methods in blocks for method in methods if method in OVERSAMPLING_METHODS
             for seed in range(min(ablation_seeds[block], params["n_seeds"]))]
    # BBKB on the NAS substitute with both: the ablation's qbar and Table 1's pick of the bandwidth.
    grid += [{**shared, "experiment": "combined_ablation", "problem": NAS_PROBLEM, "method": "BBKB", "seed": seed,
              "oversampling": float(params["oversampling_ablation_qbar"]),
              "bandwidth_factor": params["bandwidth_ablation_factor"]}
             for seed in range(min(params["combined_ablation_seeds"], params["n_seeds"]))]
    if params["confirmatory"]:
        grid += with_oversampling(kernel_free_greedy(confirmatory_grid(shared, confirmatory.plan_of(params))),
                                  params["bbkb_oversampling"])
    return grid


def kernel_free_greedy(grid):
    """``grid`` with epsilon-greedy's configurations at the published kernel settings.

    epsilon-greedy uses no kernel and no C: its configurations keep
    ``bandwidth_factor`` and ``threshold`` at the paper scale's values, so that
    a configuration that changes the GP methods' settings (e.g.
    ``-p bandwidth_factor 16.0``) reuses its cached runs instead of recomputing
    identical ones under new keys. The published grid is unchanged by it.
    """
    pinned = {name: _PAPER[name] for name in ("bandwidth_factor", "threshold")}
    return [{**config, **pinned} if config["method"] == "epsilon-greedy" else config for config in grid]


def with_oversampling(grid, oversampling):
    """``grid`` with BKB's and BBKB's configurations set to the dictionary oversampling ``oversampling`` (qbar).

    Parameters
    ----------
    grid : list of dict
        Run configurations (:func:`make_grid`).
    oversampling : float > 0
        qbar of :meth:`~common.methods.mini_gp_opt.NystromPosterior.resample`.

    Returns
    -------
    list of dict
        The same configurations; those of :data:`OVERSAMPLING_METHODS` carry
        ``"oversampling"`` unless it is the authors' value
        (:data:`AUTHORS_OVERSAMPLING`), so that the published runs keep their
        keys (a run's key hashes its whole configuration).
    """
    if oversampling == AUTHORS_OVERSAMPLING:
        return grid
    return [{**config, "oversampling": float(oversampling)} if config["method"] in OVERSAMPLING_METHODS else config
            for config in grid]


def confirmatory_grid(shared, plan="plug-in"):
    """The fresh-seed runs of the committed confirmatory plan (``data/confirmatory/mini_gp_opt.csv``): for each
    planned claim, the runs its cells are judged on (``data/confirmatory/mini_gp_opt.runs.json``: (block, problem,
    method); epsilon-greedy at every setting of its grid, re-tuned on the fresh seeds) at its fresh seeds
    (:func:`common.confirmatory.fresh_seeds_of_runs`)."""
    seeds_of = confirmatory.fresh_seeds_of_runs(PAPER, plan)
    return [{**shared, "experiment": block, "problem": problem, "method": method, "seed": seed, **setting}
            for (block, problem, method), count in seeds_of.items() for setting in epsilon_settings(method)
            for seed in confirmatory.fresh_seeds(count)]


def epsilon_settings(method):
    """epsilon-greedy's (a, b) grid for its runs; one empty setting for any other method."""
    if method != "epsilon-greedy":
        return [{}]
    return [{"epsilon_a": a, "epsilon_b": b} for a in EPSILON_GRID["epsilon_a"] for b in EPSILON_GRID["epsilon_b"]]


def bbob_noise_levels(params):
    """BBOB's own Gaussian noise level of each BBOB problem of ``params`` where it differs from ``noise_beta``."""
    levels = {problem: BBOBGrid(BBOB_PROBLEMS[problem]).bbob_noise_beta for problem in params["bbob_problems"]}
    return {problem: level for problem, level in levels.items()
            if level is not None and level != params["noise_beta"]}


def noise_ablation_table(table, params):
    """Per BBOB problem and method: the mean final normalized R_T/T and q_T at the paper's noise level (the
    bbob block, same seeds) and at BBOB's own, and on how many seeds BBOB's level ends with a lower R_T/T."""
    finals = final_rows(table)
    ablated = finals[finals["experiment"] == "noise_ablation"]
    rows = []
    for (problem, name), runs in ablated.groupby(["problem", "method"], sort=False):
        paper = finals[(finals["experiment"] == "bbob") & (finals["problem"] == problem) & (finals["method"] == name)
                       & finals["seed"].isin(runs["seed"])].set_index("seed")
        at_bbob = runs.set_index("seed")
        lower = int((at_bbob["normalized_regret"] < paper["normalized_regret"].reindex(at_bbob.index)).sum())
        rows.append({"problem": problem, "method": name, "seeds": len(runs),
                     "noise beta": f"{params['noise_beta']:g} -> {runs['noise_beta'].iloc[0]:g}",
                     "R_T/T (paper noise)": paper["normalized_regret"].mean(),
                     "R_T/T (BBOB noise)": at_bbob["normalized_regret"].mean(),
                     "q_T (paper noise)": paper["unique"].mean(), "q_T (BBOB noise)": at_bbob["unique"].mean(),
                     "seeds lower (BBOB noise)": f"{lower} of {len(runs)}"})
    return pd.DataFrame(rows)


def table1_settings(method):
    """The grid of Table 1's search for one method: the settings that override the block's fixed ones."""
    if method == "epsilon-greedy":
        return epsilon_settings(method)
    thresholds = TABLE1_THRESHOLDS if method in METHODS_WITH_C else (None,)
    return [{"bandwidth_factor": factor, **({} if threshold is None else {"threshold": threshold})}
            for factor in TABLE1_BANDWIDTH_FACTORS for threshold in thresholds]


def table1_search(table):
    """Per method, every grid setting's mean final normalized R_T/T over the seeds, the best one marked.

    Returns a DataFrame with the method, the setting (sigma^2 / m, C, a, b), the seeds, the mean
    final R_T/T, ``best`` (True for one lowest mean of each method: the first of tied settings) and
    ``at grid edge`` (a setting at the end of one of its grids, where the optimum may lie beyond).
    """
    finals = final_rows(table)
    finals = finals[finals["experiment"] == "table1"].copy()
    # Settings a method does not use are blank.
    finals.loc[~finals["method"].isin(METHODS_WITH_C), "threshold"] = np.nan
    finals.loc[finals["method"] != "epsilon-greedy", ["epsilon_a", "epsilon_b"]] = np.nan
    finals.loc[finals["method"] == "epsilon-greedy", "bandwidth_factor"] = np.nan
    keys = ["method", "bandwidth_factor", "threshold", "epsilon_a", "epsilon_b"]
    search = (finals.groupby(keys, dropna=False)["normalized_regret"].agg(["mean", "count"]).reset_index()
              .rename(columns={"mean": "R_T/T (normalized)", "count": "seeds"}))
    search["best"] = False
    search.loc[search.groupby("method")["R_T/T (normalized)"].idxmin(), "best"] = True  # ties: the first in the grid
    edges = {"bandwidth_factor": TABLE1_BANDWIDTH_FACTORS, **EPSILON_GRID}
    search["at grid edge"] = np.logical_or.reduce(
        [search[name].isin([min(values), max(values)]) for name, values in edges.items()])
    return search


def bandwidth_plateau_sentence(search, factor):
    """How far each GP method's best mean final R_T/T at bandwidth ``factor`` (its better C) lies from its pick in
    :func:`table1_search`, in one sentence: whether running the ablation at one bandwidth for every method is
    close to running each at its own pick."""
    kernel_methods = search[search["bandwidth_factor"].notna()]
    if kernel_methods.empty or factor not in set(kernel_methods["bandwidth_factor"]):
        return f"No search runs at l^2 = {factor:g} x the median squared distance."
    at_factor = kernel_methods[kernel_methods["bandwidth_factor"] == factor].groupby("method")["R_T/T (normalized)"].min()
    best = kernel_methods[kernel_methods["best"]].set_index("method")
    ratio = at_factor / best["R_T/T (normalized)"].reindex(at_factor.index)
    picks = best["bandwidth_factor"].reindex(at_factor.index)
    return (f"The picks lie at l^2 = {picks.min():g}x to {picks.max():g}x the median squared distance "
            f"({int((picks == factor).sum())} of {len(picks)} GP methods at {factor:g}x); at {factor:g}x each method's "
            f"best mean final R_T/T is {ratio.min():.3f}x to {ratio.max():.3f}x its pick's "
            f"(largest: {ratio.idxmax()}), over {int(kernel_methods['seeds'].min())} seeds a setting.")


def epsilon_greedy_search(table):
    """Per block and problem, every (a, b) of epsilon-greedy's grid with its mean final normalized R_T/T.

    Returns a DataFrame with the experiment, problem, a, b, seeds, the mean
    final R_T/T, and ``tuned`` (True for one lowest mean per problem: the
    first of tied settings), the setting :func:`with_tuned_epsilon_greedy` keeps.
    """
    finals = final_rows(table)
    finals = finals[finals["experiment"].isin(["nas", "bbob"]) & (finals["method"] == "epsilon-greedy")]
    keys = ["experiment", "problem", "epsilon_a", "epsilon_b"]
    if finals.empty:
        return pd.DataFrame(columns=[*keys, "seeds", "R_T/T (normalized)", "tuned"])
    search = (finals.groupby(keys)["normalized_regret"].agg(["count", "mean"]).reset_index()
              .rename(columns={"count": "seeds", "mean": "R_T/T (normalized)"}))
    search["tuned"] = False
    search.loc[search.groupby(["experiment", "problem"], sort=False)["R_T/T (normalized)"].idxmin(), "tuned"] = True
    return search


def with_tuned_epsilon_greedy(table):
    """``table`` with epsilon-greedy's block runs cut to its tuned setting per problem (Table 1's search kept whole).

    The paper reports epsilon-greedy at the (a, b) of its grid with the lowest
    average regret (§5); this picks it the same way, on the same seeds.
    Applying it twice changes nothing.
    """
    tuned = epsilon_greedy_search(table)
    tuned = tuned.loc[tuned["tuned"], ["experiment", "problem", "epsilon_a", "epsilon_b"]]
    greedy = table["experiment"].isin(["nas", "bbob"]) & (table["method"] == "epsilon-greedy")
    if not greedy.any():
        return table
    kept = table[greedy].merge(tuned, on=list(tuned.columns))
    return pd.concat([table[~greedy], kept[table.columns]], ignore_index=True)


class Standardized:
    """A finite-arm problem with rewards affinely mapped to mean 0 and std 1 over the arms (noise-free values).

    The GP prior has unit variance (kappa^2 = 1) and F = 1, so the rewards must
    live on that scale (spec §2.7: an oracle normalization, like the oracle
    lambda); the normalized regret R_t/t / (f* - mean f) does not change.
    The BBOB problems come standardized already.
    """

    def __init__(self, problem):
        self.problem, self.arms = problem, problem.arms
        self.shift, self.scale = float(np.mean(problem.values)), float(np.std(problem.values))
        self.values = (problem.values - self.shift) / self.scale
        self.optimal_value, self.mean_value = float(self.values.max()), float(self.values.mean())
        self.lam_p90 = problem.lam_p90 / self.scale

    def pull(self, indices, rng):
        return (self.problem.pull(indices, rng) - self.shift) / self.scale


def make_problem(config):
    """The problem of a configuration, its rewards standardized over the arms."""
    if config["problem"] == NAS_PROBLEM:
        return Standardized(NASCellsDigits())
    return BBOBGrid(BBOB_PROBLEMS[config["problem"]], noise_beta=config["noise_beta"])


_MEDIAN_SQUARED_DISTANCES = {}   # problem name -> median_squared_distance of its arms, per process


def median_squared_distance(arms, sample=2000):
    """The median of ||a - a'||^2 over pairs of arms (over a fixed sample of them when there are more)."""
    chosen = arms if len(arms) <= sample else arms[np.random.default_rng(0).choice(len(arms), sample, replace=False)]
    squared = np.sum((chosen[:, None, :] - chosen[None, :, :]) ** 2, axis=-1)
    return float(np.median(squared[np.triu_indices(len(chosen), 1)]))


def checkpoints(horizon):
    """About :data:`N_CHECKPOINTS` log-spaced steps from 1 to ``horizon``, where the curves are stored."""
    return np.unique(np.round(np.geomspace(1, horizon, N_CHECKPOINTS)).astype(int))


def run(config, iterations=None):
    """One run; returns its curves at :func:`checkpoints` for the result store.

    Parameters
    ----------
    config : dict
        One (problem, method, seed) of :func:`make_grid`.
    iterations : int, optional
        Run only up to the ``iterations``-th checkpoint step, a prefix of the
        full run's curves: the arms chosen so far ignore the horizon.

    Returns
    -------
    dict with, at each checkpoint step t: ``step``; ``normalized_regret``
    (R_t / t divided by f* - mean f, the regret of uniformly random arms);
    ``unique`` (q_t, distinct arms evaluated); ``switches`` (h_t, candidate
    selections: epochs for MINI-META, steps for the others); ``feedbacks``
    (posterior updates: epochs for MINI-META, batches for GP-BUCB and BBKB,
    steps for the others);
    ``algorithm_seconds`` (CPU seconds of the algorithm, pulls excluded); and
    the scalars ``lam`` and ``lengthscale``.
    """
    problem = make_problem(config)
    steps = checkpoints(config["T"])
    if iterations is not None:
        steps = steps[:iterations]
    horizon = int(steps[-1])
    # lambda: the 90th percentile of the arms' noise std (§5), or its square in the lambda ablation.
    lam = problem.lam_p90 ** 2 if config.get("lambda_rule") == "p90 std squared" else problem.lam_p90
    if config["problem"] not in _MEDIAN_SQUARED_DISTANCES:   # 1-2 CPU-s, the same for every run of a problem
        _MEDIAN_SQUARED_DISTANCES[config["problem"]] = median_squared_distance(problem.arms)
    lengthscale = np.sqrt(config["bandwidth_factor"] * _MEDIAN_SQUARED_DISTANCES[config["problem"]])
    kernel = SquaredExponential(lengthscale, 1.0)
    rng = make_rng(PAPER, config["problem"], config["seed"], config["method"])
    first_arm = int(make_rng(PAPER, config["problem"], config["seed"], "first arm").integers(len(problem.arms)))

    def pull(arm, n_evaluations, generator):
        return problem.pull(np.full(n_evaluations, arm), generator)

    method, options = config["method"], dict(threshold=config["threshold"], first_arm=first_arm,
                                             beta_scale=config.get("beta_scale", 1.0))
    if method in ("MINI-GP-UCB", "MINI-GP-EI", "GP-UCB"):
        record = mini_meta(kernel, problem.arms, pull, lam, horizon, rng, **options,
                           acquisition="EI" if method == "MINI-GP-EI" else "UCB", sequential=method == "GP-UCB")
    elif method == "GP-BUCB":
        record = gp_bucb(kernel, problem.arms, pull, lam, horizon, rng, **options)
    elif method == "GP-BTS":
        record = gp_bts(kernel, problem.arms, pull, lam, horizon, rng, first_arm=first_arm)
    elif method in ("BBKB", "BKB"):
        record = batch_bkb(kernel, problem.arms, pull, lam, horizon, rng, **options, batched=method == "BBKB",
                           oversampling=config.get("oversampling", AUTHORS_OVERSAMPLING))
    else:
        record = epsilon_greedy(pull, len(problem.arms), horizon, rng, a=config["epsilon_a"], b=config["epsilon_b"],
                                first_arm=first_arm)
    return {**curves_at(record, problem, steps), "lam": lam, "lengthscale": float(lengthscale)}


def curves_at(record, problem, steps):
    """Normalized R_t/t, q_t, h_t and CPU seconds at ``steps`` from a run's epochs."""
    lengths = np.asarray(record.lengths)
    arm_of_step = np.repeat(record.arms, lengths)
    epoch_of_step = np.repeat(np.arange(len(lengths)), lengths)
    regret = problem.optimal_value - problem.values[arm_of_step]
    average = np.cumsum(regret) / np.arange(1, len(regret) + 1)
    first_seen = np.zeros(len(arm_of_step), dtype=bool)
    first_seen[np.unique(arm_of_step, return_index=True)[1]] = True
    # Batch methods record one entry per batch element; their feedback rounds are the batches.
    sizes = np.asarray(record.batch_sizes) if len(record.batch_sizes) else lengths
    round_of_step = np.repeat(np.arange(len(sizes)), sizes)
    index = steps - 1
    return {
        "step": steps,
        "normalized_regret": average[index] / (problem.optimal_value - problem.mean_value),
        "unique": np.cumsum(first_seen)[index],
        "switches": epoch_of_step[index] + 1,
        "feedbacks": round_of_step[index] + 1,
        "algorithm_seconds": np.asarray(record.seconds)[epoch_of_step[index]],
    }


def lambda_ablation_table(table):
    """Per method on the NAS substitute: the mean final normalized R_T/T, mean batch (T over the feedback rounds)
    and q_T with lambda = p90 of the noise std (the nas block, same seeds) and with its square, and on how many
    seeds the square ends with a lower R_T/T."""
    finals = final_rows(table)
    ablated = finals[finals["experiment"] == "lambda_ablation"]
    rows = []
    for name, runs in ablated.groupby("method", sort=False):
        paper = finals[(finals["experiment"] == "nas") & (finals["method"] == name)
                       & finals["seed"].isin(runs["seed"])].set_index("seed")
        squared = runs.set_index("seed")
        lower = int((squared["normalized_regret"] < paper["normalized_regret"].reindex(squared.index)).sum())
        rows.append({"method": name, "seeds": len(runs), "lambda": f"{paper['lam'].mean():.3g} -> "
                     f"{squared['lam'].mean():.3g}",
                     "R_T/T (p90 std)": paper["normalized_regret"].mean(),
                     "R_T/T (squared)": squared["normalized_regret"].mean(),
                     "mean batch (p90 std)": (paper["step"] / paper["feedbacks"]).mean(),
                     "mean batch (squared)": (squared["step"] / squared["feedbacks"]).mean(),
                     "q_T (p90 std)": paper["unique"].mean(), "q_T (squared)": squared["unique"].mean(),
                     "seeds lower (squared)": f"{lower} of {len(runs)}"})
    return pd.DataFrame(rows)


def beta_ablation_table(table, params):
    """The GP methods on the NAS substitute with their theory beta and with it scaled, seed by seed.

    One row per method and beta scale, over the ablation's seeds: the mean final
    normalized R_T/T, the mean number of feedback rounds (MINI epochs, batches,
    or steps; T over it is the mean batch size), unique arms q_T and CPU seconds
    of the algorithm (beside other work: indicative), and, for the scaled beta,
    on how many seeds R_T/T is lower than with the theory's (paired by seed).
    """
    finals = final_rows(table)
    seeds = range(params["beta_ablation_seeds"])
    rows = []
    for name in params["beta_ablation_methods"]:
        theory = finals[(finals["experiment"] == "nas") & (finals["method"] == name) & finals["seed"].isin(seeds)]
        scaled = finals[(finals["experiment"] == "beta_ablation") & (finals["method"] == name)]
        theory_by_seed = theory.set_index("seed")["normalized_regret"]
        for scale, runs in ((1.0, theory), (params["beta_ablation_scale"], scaled)):
            lower = (runs.set_index("seed")["normalized_regret"] < theory_by_seed).sum() if scale != 1.0 else None
            rows.append({"method": name, "beta scale": scale, "seeds": len(runs),
                         "R_T/T (normalized)": runs["normalized_regret"].mean(),
                         "feedback rounds": runs["feedbacks"].mean(),
                         "mean batch": (runs["step"] / runs["feedbacks"]).mean(), "q_T": runs["unique"].mean(),
                         "CPU s": runs["algorithm_seconds"].mean(),
                         "seeds with lower R_T/T": "" if lower is None else f"{lower} of {len(runs)}"})
    return pd.DataFrame(rows)


def _seed_ratio(ablated, baseline):
    """The seeds two blocks' final rows (indexed by seed) share, and the ablated block's normalized R_T/T over the
    baseline's on them, seed by seed (:func:`common.stats.paired_by_seed` on the ratio scale; None without a pair)."""
    seeds = ablated.index.intersection(baseline.index)
    return seeds, stats.paired_by_seed(ablated["normalized_regret"], baseline["normalized_regret"],
                                       higher_is_better=False, scale="ratio")


def bandwidth_effect_table(table, params):
    """What Table 1's search measured of the figures' fixed bandwidth against the search's pick, per GP method.

    Parameters
    ----------
    table : pandas.DataFrame
        Tidy table of runs holding Table 1's search (experiment ``table1``).
    params : dict
        Resolved parameters: the figures' ``bandwidth_factor`` and ``threshold``.

    Returns
    -------
    pandas.DataFrame
        One row per method of the search except epsilon-greedy: the figures'
        setting and the search's best (:func:`table1_search`), the paired seeds,
        the mean final normalized R_T/T and q_T at each, and the ratio of the
        best's mean R_T/T over the fixed one's with its 95 % interval and the
        seeds it ends lower (:func:`common.stats.paired_by_seed`). Table 1's
        runs are short (``table1_T``) and few (``table1_seeds``): the table is
        the effect measured so far, not at the figures' T.
    """
    finals = final_rows(table)
    finals = finals[finals["experiment"] == "table1"]
    search = table1_search(table)
    rows = []
    for name, best in search[search["best"]].set_index("method").iterrows():
        if name == "epsilon-greedy":
            continue
        runs = finals[finals["method"] == name]
        has_c = name in METHODS_WITH_C

        def at(factor, threshold):
            kept = runs["bandwidth_factor"] == factor
            return runs[kept & (runs["threshold"] == threshold) if has_c else kept].set_index("seed")
        fixed, tuned = at(params["bandwidth_factor"], params["threshold"]), at(best["bandwidth_factor"], best["threshold"])
        seeds, found = _seed_ratio(tuned, fixed)
        setting = "l^2/m = {:g}" + (", C = {:g}" if has_c else "")
        rows.append({"method": name, "fixed": setting.format(params["bandwidth_factor"], params["threshold"]),
                     "search's pick": setting.format(best["bandwidth_factor"], best["threshold"]),
                     "T": int(runs["step"].max()), "seeds": len(seeds),
                     "R_T/T (fixed)": fixed.loc[seeds, "normalized_regret"].mean(),
                     "R_T/T (pick)": tuned.loc[seeds, "normalized_regret"].mean(),
                     "q_T (fixed)": fixed.loc[seeds, "unique"].mean(), "q_T (pick)": tuned.loc[seeds, "unique"].mean(),
                     "ratio (pick / fixed)": "" if found is None else str(found.effect),
                     "seeds lower (pick)": "" if found is None else f"{found.wins} of {len(seeds)}"})
    return pd.DataFrame(rows)


#: The methods whose first step is one update of the unique-arm posterior, and so shows its one-off start-up.
STARTUP_METHODS = ("MINI-GP-UCB", "MINI-GP-EI", "GP-UCB", "GP-BUCB")


def startup_seconds(table):
    """Per run, the one-off start-up its first step recorded: the excess of its first checkpoint's
    ``algorithm_seconds`` over the median first checkpoint of its block, problem and method.

    The first process-wide call of the numba-compiled kernel of
    :class:`~common.methods.mini_gp_opt.UniqueArmPosterior` loads it from numba's
    cache, inside the clock of whichever run of a worker process updates that
    posterior first (its first step). For the methods of
    :data:`STARTUP_METHODS` every other first step is one rank-one update, so
    the excess is that start-up, to within the spread of the first steps (about
    1e-4 s). Other methods get 0: BBKB and epsilon-greedy do not use the
    kernel, and GP-BTS's first step also draws its random features, whose
    spread the excess could not tell from the start-up.

    Parameters
    ----------
    table : pandas.DataFrame
        Tidy table of runs with ``run_key``, ``step`` and ``algorithm_seconds``.

    Returns
    -------
    pandas.Series
        Seconds >= 0, indexed by ``run_key``.
    """
    first = table.loc[table.groupby("run_key")["step"].idxmin()]
    median = first.groupby(["experiment", "problem", "method"])["algorithm_seconds"].transform("median")
    excess = (first["algorithm_seconds"] - median).clip(lower=0.0).where(first["method"].isin(STARTUP_METHODS), 0.0)
    return pd.Series(excess.to_numpy(), index=first["run_key"].to_numpy(), name="startup_seconds")


def without_startup(table):
    """``table`` with each run's :func:`startup_seconds` taken off all its ``algorithm_seconds`` (idempotent)."""
    cleaned = table.copy()
    cleaned["algorithm_seconds"] = table["algorithm_seconds"] - table["run_key"].map(startup_seconds(table))
    return cleaned


#: Line styles of the methods whose curves would hide another's (GP-BUCB's lie on GP-UCB's): dashed, so that both
#: show.
#: Dashed or dotted, and drawn on top, where a line may lie on another: GP-BUCB on GP-UCB's early steps, MINI-GP-UCB
#: on GP-UCB in most BBOB panels, so that both show.
LINESTYLES = {"GP-BUCB": (0, (4, 2)), "MINI-GP-UCB": (0, (1, 1.5))}
#: The methods whose quartiles the figures shade (at most three a panel stay readable): the paper's two and BBKB.
SHADED = ("MINI-GP-UCB", "MINI-GP-EI", "BBKB")


def plot_median_quartiles(ax, runs, x, y, label, linestyle=None, shaded=True):
    """Draw one method's runs: the median over the runs of ``y`` against the median ``x`` at each checkpoint, the
    quartiles of ``y`` shaded (a band that stays above zero on a log axis), and a marker at the last checkpoint at
    the mean of ``y``, the value the claims compare.

    Parameters
    ----------
    ax : matplotlib.axes.Axes
    runs : pandas.DataFrame
        Tidy rows of one method's runs (``run_key``, ``eval``, ``x``, ``y``).
    x, y : str
        Columns for the abscissa and the ordinate.
    label : str
        Legend label, the method's name (its line style: :data:`LINESTYLES`).
    linestyle : str or tuple, optional
        The line's style instead of the method's, e.g. dashed for a line that may lie on another.
    shaded : bool, default=True
        Shade the quartiles; False draws the median and the diamond only.

    Returns
    -------
    str
        What the line, band and marker are, for the caption.
    """
    wide_y = runs.pivot(index="run_key", columns="eval", values=y)
    xs = runs.pivot(index="run_key", columns="eval", values=x).median().to_numpy()
    low, median, high = np.percentile(wide_y.to_numpy(), [25, 50, 75], axis=0)
    broken = linestyle is not None or label in LINESTYLES  # drawn on top, the line under it showing through its gaps
    (line,) = ax.plot(xs, median, label=label, linestyle=linestyle or LINESTYLES.get(label, "-"),
                      zorder=3 if broken else 2)
    if shaded:
        ax.fill_between(xs, low, high, color=line.get_color(), alpha=0.2, linewidth=0)
    ax.plot(xs[-1], wide_y.iloc[:, -1].mean(), "D", color=line.get_color(), markersize=4)
    return (f"median over {len(wide_y)} runs, quartiles shaded; diamond: the mean at the last step, "
            f"which the claims compare")


#: A run whose first step recorded more than this many seconds above its cell's median paid the start-up.
STARTUP_NOTICEABLE_SECONDS = 0.01


def startup_caption(table):
    """One sentence for a time figure's caption: how many runs of ``table`` paid the one-off start-up
    (:func:`startup_seconds` above :data:`STARTUP_NOTICEABLE_SECONDS`), how large it was, and that the curves
    leave it out (:func:`without_startup`)."""
    startup = startup_seconds(table)
    n_runs = table.loc[table["method"].isin(STARTUP_METHODS), "run_key"].nunique()
    paid = startup[startup > STARTUP_NOTICEABLE_SECONDS]
    if paid.empty:
        return f"no run recorded a start-up above {STARTUP_NOTICEABLE_SECONDS:g} s"
    return (f"the one-off start-up (numba loading its compiled kernel in the first step of a worker process's first "
            f"run: {len(paid)} of the {n_runs} runs of {', '.join(STARTUP_METHODS)}, {paid.min():.2g}-"
            f"{paid.max():.2g} CPU s, measured in the grid beside other work) is taken off those runs' curves")


#: Open choices that move a figure and are measured at the paper's scale only by overriding the published
#: configuration: what each override sets, in words.
OPEN_CHOICE_OVERRIDES = {
    "bandwidth_factor": (16.0, "every GP method at Table 1's pick on the substitute, l^2 = 16 x the median squared "
                               "distance (the figures: 1x)"),
}


def open_choice_costs():
    """Per override of :data:`OPEN_CHOICE_OVERRIDES`: the command that computes its runs and what they cost.

    Returns
    -------
    list of str
        One line each: the override in words, the ``reproduce.py`` command (compute-only, in the background), and
        :func:`common.runner.estimate_cost` of the configuration's grid and of its NAS and BBOB blocks alone,
        priced from the cache (from runs at the published value where none at the new one is cached yet: see the
        basis the estimate names).
    """
    import sys

    from common.notebook import configuration
    from common.runner import estimate_cost

    module = sys.modules[__name__]
    lines = []
    for name, (value, words) in OPEN_CHOICE_OVERRIDES.items():
        grid = make_grid(configuration(module, None, **{name: value}))
        figures = [config for config in grid if config["experiment"] in ("nas", "bbob")]
        lines.append(f"{words}: `nice -n 19 python reproduce.py {PAPER} --runs-only -p {name} {value:g} --jobs 1`; "
                     f"whole configuration {estimate_cost(grid, run)}; its NAS and BBOB blocks "
                     f"{estimate_cost(figures, run)}")
    return lines


def bandwidth_ablation_table(table, params):
    """The NAS figure's GP methods at the figures' fixed bandwidth (the nas block) and at Table 1's pick (the
    bandwidth ablation), seed by seed.

    Parameters
    ----------
    table : pandas.DataFrame
        Tidy table of runs with the ``nas`` and ``bandwidth_ablation`` blocks.
    params : dict
        Resolved parameters (``bandwidth_factor``, ``bandwidth_ablation_factor``).

    Returns
    -------
    pandas.DataFrame
        One row per method of the ablation: its seeds, l^2 / m at each, the mean final normalized R_T/T and
        q_T at each, and the ratio of the pick's mean R_T/T over the fixed one's with its 95 % interval and the
        seeds it ends lower (:func:`common.stats.paired_by_seed`); empty without ablation runs.
    """
    finals = final_rows(table)
    ablated = finals[finals["experiment"] == "bandwidth_ablation"]
    rows = []
    for name, runs in ablated.groupby("method", sort=False):
        pick = runs.set_index("seed")
        fixed = finals[(finals["experiment"] == "nas") & (finals["method"] == name)].set_index("seed")
        seeds, found = _seed_ratio(pick, fixed)
        rows.append({"method": name, "seeds": len(seeds),
                     "l^2/m": f"{params['bandwidth_factor']:g} -> {params['bandwidth_ablation_factor']:g}",
                     "R_T/T (fixed)": fixed.loc[seeds, "normalized_regret"].mean(),
                     "R_T/T (pick)": pick.loc[seeds, "normalized_regret"].mean(),
                     "q_T (fixed)": fixed.loc[seeds, "unique"].mean(), "q_T (pick)": pick.loc[seeds, "unique"].mean(),
                     "ratio (pick / fixed)": "" if found is None else str(found.effect),
                     "seeds lower (pick)": "" if found is None else f"{found.wins} of {len(seeds)}"})
    if not rows:
        return pd.DataFrame(rows)
    order = {name: position for position, name in enumerate(params.get("nas_methods", []))}   # the figure's order
    return pd.DataFrame(rows).sort_values("method", key=lambda names: names.map(order), ignore_index=True)


def combined_ablation_table(table, params):
    """BBKB on the NAS substitute at each pair of (qbar, bandwidth) the grid ran, on the combined ablation's seeds:
    the figures' (the nas block), the ablation's qbar alone, Table 1's bandwidth alone and both (the combined
    block), each with its mean final normalized R_T/T and, against the figures' runs, the ratio with its 95 %
    interval (:func:`common.stats.paired_by_seed`); and MINI-GP-UCB at Table 1's bandwidth on the same seeds, with
    BBKB's runs with both against it. Empty without combined runs."""
    finals = final_rows(table)
    combined = finals[finals["experiment"] == "combined_ablation"].set_index("seed")
    if combined.empty:
        return pd.DataFrame()
    nas = finals[finals["problem"] == NAS_PROBLEM]

    def runs(experiment, method="BBKB"):
        return nas[(nas["experiment"] == experiment) & (nas["method"] == method)].set_index("seed")

    figures = runs("nas")
    qbar, factor = f"{params['oversampling_ablation_qbar']:g}", f"{params['bandwidth_ablation_factor']:g}"
    settings = {f"qbar {params['bbkb_oversampling']:g}, l^2/m {params['bandwidth_factor']:g} (the figures)": figures,
                f"qbar {qbar} alone": runs("oversampling_ablation"), f"l^2/m {factor} alone": runs("bandwidth_ablation"),
                f"qbar {qbar} and l^2/m {factor}": combined}
    rows = []
    for label, found in settings.items():
        seeds, against = _seed_ratio(found.reindex(combined.index).dropna(subset=["normalized_regret"]), figures)
        rows.append({"BBKB": label, "seeds": len(seeds), "R_T/T": found.loc[seeds, "normalized_regret"].mean(),
                     "ratio to the figures' BBKB": "" if against is None or label.endswith("(the figures)")
                     else str(against.effect)})
    mini = runs("bandwidth_ablation", "MINI-GP-UCB")
    seeds, against = _seed_ratio(combined, mini)
    rows.append({"BBKB": f"MINI-GP-UCB at l^2/m {factor}, for comparison", "seeds": len(seeds),
                 "R_T/T": mini.loc[seeds, "normalized_regret"].mean(),
                 "ratio to the figures' BBKB": "" if against is None else
                 f"BBKB with both / MINI-GP-UCB: {against.effect}"})
    return pd.DataFrame(rows)


def oversampling_ablation_table(table, params):
    """BBKB of the NAS and BBOB figures at the published qbar (their blocks) and at the ablation's, seed by seed.

    Parameters
    ----------
    table : pandas.DataFrame
        Tidy table of runs with the ``nas``, ``bbob`` and ``oversampling_ablation`` blocks.
    params : dict
        Resolved parameters (``bbkb_oversampling``, ``oversampling_ablation_qbar``).

    Returns
    -------
    pandas.DataFrame
        One row per problem of the ablation: its seeds; BBKB's mean final normalized R_T/T and q_T at each qbar;
        the ratio of the ablation's mean R_T/T over the published one's with its 95 % interval and the seeds it
        ends lower (:func:`common.stats.paired_by_seed`); MINI-GP-UCB's mean R_T/T on the same seeds and the ratio
        of BBKB's at the ablation's qbar over it; and BBKB's mean CPU seconds per run of the grid at each qbar
        (beside other work: a cost, not a timing). Empty without ablation runs.
    """
    finals = final_rows(table)
    ablated = finals[finals["experiment"] == "oversampling_ablation"]
    published = finals[finals["experiment"].isin(["nas", "bbob"])]
    before, after = f"{params['bbkb_oversampling']:g}", f"{params['oversampling_ablation_qbar']:g}"
    rows = []
    for problem, runs in ablated.groupby("problem", sort=False):
        at_ablation = runs.set_index("seed")
        at_published = published[(published["problem"] == problem) & (published["method"] == "BBKB")].set_index("seed")
        mini = published[(published["problem"] == problem) & (published["method"] == "MINI-GP-UCB")].set_index("seed")
        seeds, change = _seed_ratio(at_ablation, at_published)
        _, against_mini = _seed_ratio(at_ablation, mini)
        rows.append({"problem": problem, "seeds": len(seeds), "qbar": f"{before} -> {after}",
                     f"R_T/T (qbar {before})": at_published.loc[seeds, "normalized_regret"].mean(),
                     f"R_T/T (qbar {after})": at_ablation.loc[seeds, "normalized_regret"].mean(),
                     f"ratio ({after} / {before})": "" if change is None else str(change.effect),
                     f"seeds lower ({after})": "" if change is None else f"{change.wins} of {len(seeds)}",
                     f"q_T (qbar {before})": at_published.loc[seeds, "unique"].mean(),
                     f"q_T (qbar {after})": at_ablation.loc[seeds, "unique"].mean(),
                     "MINI-GP-UCB R_T/T": mini.reindex(seeds)["normalized_regret"].mean(),
                     f"BBKB ({after}) / MINI-GP-UCB": "" if against_mini is None else str(against_mini.effect),
                     f"CPU-s (qbar {before})": at_published.loc[seeds, "run_cpu_seconds"].mean(),
                     f"CPU-s (qbar {after})": at_ablation.loc[seeds, "run_cpu_seconds"].mean()})
    if not rows:
        return pd.DataFrame(rows)
    order = {name: position for position, name in enumerate([NAS_PROBLEM, *params.get("bbob_problems", [])])}
    return pd.DataFrame(rows).sort_values("problem", key=lambda names: names.map(order), ignore_index=True)


def with_ablation_runs(table, ablation):
    """``table`` with the figure runs (the ``nas`` and ``bbob`` blocks) of the methods the ablation block
    ``ablation`` reran replaced by its runs, on each problem where it ran every seed of every one of those methods'
    figure runs; all other runs as they are.

    Returns
    -------
    (pandas.DataFrame, list of str) or None
        The table and the problems whose runs were replaced, in the table's order; None when no problem was
        covered (the claims could not be judged on the ablation anywhere).
    """
    ablated = table[table["experiment"] == ablation]
    figure_runs = table["experiment"].isin(["nas", "bbob"]) & table["method"].isin(ablated["method"].unique())
    ran = ablated.groupby(["problem", "method"])["seed"].agg(set)
    covered = [problem for problem, runs in table[figure_runs].groupby("problem", sort=False)
               if all(set(seeds) <= ran.get((problem, method), set())
                      for method, seeds in runs.groupby("method")["seed"])]
    if not covered:
        return None
    block_of = table.loc[figure_runs].groupby("problem")["experiment"].first()
    replaced = figure_runs & table["problem"].isin(covered)
    swapped = ablated[ablated["problem"].isin(covered)]
    swapped = swapped.assign(experiment=swapped["problem"].map(block_of))
    rest = table[~replaced & (table["experiment"] != ablation)]
    return pd.concat([rest, swapped], ignore_index=True), covered
