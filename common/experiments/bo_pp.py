"""Experiments of "Bayesian Optimization using Pseudo-Points" (Qian, Xiong & Xue).

Three blocks of runs, all with 5 random initial points shared within a
repetition, sigma^2 = 1e-4, hyperparameters by maximum likelihood on the real
points every iteration, and the acquisition maximized by DIRECT on [-1, 1]^d:

* ``synthetic``: Dropwave, Griewank, Hart6, Rastrigin (Table 1 top, Figs. 2, 4, 6),
  ARD squared-exponential kernel; metric: simple regret S_T.
* ``real_world``: SVM and NN hyperparameter tuning (Table 1 bottom, Figs. 1, 3, 5),
  ARD kernel; metric: best validation score f.
* ``isotropic``: UCB variants with the isotropic kernel on the real-world
  problems (Fig. 7).
* ``y_ablation``: the plain-BO baselines of the synthetic block with the other
  output scaling (``y_transform``), the choice the paper leaves open.
* ``pseudo_point_ablation``: the synthetic block's BO-PP runs on its first seeds with
  each pseudo-point at a corner of the L-infinity box (``pseudo_point_mode =
  "corner"``: |x_i - x'_i| = tau for every i, the paper's footnote's "distance tau"),
  instead of uniform inside it ("box": "sampling within its distance", §5).
* ``restarts_ablation``: the synthetic block (BO and BO-PP) on its first seeds with 5
  random restarts of the likelihood's L-BFGS-B instead of 1 (``mle_restarts``).
  A run of either names its synthetic twin's value of the changed choice
  (``twin_<choice>``) and draws the twin's method and pseudo-point streams, so the
  two differ in that choice only.
* ``random_search``: uniform queries after the same initial points on the
  synthetic functions, seeds and budget: a floor drawn in Figs. 2, 4 and 6, in
  no claim (not in the paper).
* the confirmatory block (parameter ``confirmatory``, False in every scale and the
  published configuration): for each claim of the committed plan
  (``data/confirmatory/bo_pp.csv``), the runs it is judged on at fresh seeds
  (:func:`common.confirmatory.fresh_seeds`), in the same blocks as the paper's seeds.

Each (problem, acquisition, tau0, seed) is one run; tau0 = 0 is plain BO.
"""
import numpy as np
import pandas as pd

from common import confirmatory, judging, paper_data, stats
from common.bo import RandomSearch, run_bo
from common.kernels import SquaredExponential
from common.methods.bo_pp import PseudoPointBO
from common.metrics import simple_regret
from common.problems import get_tuning_problem
from common.seeding import make_rng
from common.store import final_rows
from common.test_functions import DropWave, Griewank, Hartmann6, Rastrigin, ScaledFunction

PAPER = "bo_pp"
# Raise whenever a change alters the numbers of a run; cached runs of another version are recomputed.
CODE_VERSION = 2  # 2: the faster GP likelihood and DIRECT bookkeeping (same method, other rounding)
NOTEBOOK = "bo_pp.ipynb"
TITLE = "Qian, Xiong & Xue: Bayesian Optimization using Pseudo-Points (BO-PP)"
OUTPUTS = ["Table 1", "Fig. 1", "Fig. 2", "Fig. 3", "Fig. 4", "Fig. 5", "Fig. 6", "Fig. 7"]

SYNTHETIC = {
    "Dropwave": lambda: DropWave(),
    "Griewank": lambda: Griewank(2),
    "Hart6": lambda: Hartmann6(),
    "Rastrigin": lambda: Rastrigin(2),
}
REAL_WORLD = ("SVM_digits", "NN_digits", "NN_cancer", "NN_housing")
#: Our problem -> the paper's, where a data set was substituted (the others keep their names).
PAPER_PROBLEM = {"SVM_digits": "SVM_wine", "NN_digits": "NN_wine"}
# The functions whose optimum sits at the exact centre of their usual box, which is DIRECT's first sample and,
# with raw y, where the zero prior mean equals the optimum value of Griewank and Rastrigin. The shifted-box
# ablation moves their box by BOX_SHIFT (per dimension, as a fraction of its width) so that the optimum is
# off-centre but inside. Drawn once, before any run: numpy.random.default_rng(20261122), a random sign times
# a magnitude uniform in [0.1, 0.3], rounded to 3 digits.
CENTRED_OPTIMUM = {
    "Dropwave": lambda bounds: DropWave(bounds),
    "Griewank": lambda bounds: Griewank(2, bounds),
    "Rastrigin": lambda bounds: Rastrigin(2, bounds),
}
BOX_SHIFT = (-0.223, -0.297)
ACQUISITIONS = ("UCB", "PI", "EI")
RANDOM_SEARCH = "Random search"  # the random_search block's "acquisition": no model
TAU0S = (0.0, 0.01, 0.001, 0.0001)

_FULL = dict(
    synthetic_functions=list(SYNTHETIC), real_world_problems=list(REAL_WORLD),
    acquisitions=list(ACQUISITIONS), tau0s=list(TAU0S),
    n_seeds=20, T=100, real_world_seeds=20, real_world_T=100, isotropic_seeds=20, ablation_seeds=20,
    n_init=5, direct_evals_per_dim=500, y_transform="none", mle_restarts=1,
    pseudo_point_mode="box", direct_ablation_seeds=20, direct_ablation_budgets=[10, 30, 100, 2000],
    shift_ablation_seeds=20, pseudo_point_ablation_seeds=10, restarts_ablation_seeds=10,
    confirmatory=False,
)
# The two ablations of choices the paper leaves open (issue 43): the other pseudo-point mode, and more restarts.
PSEUDO_POINT_ABLATION_MODE = {"box": "corner", "corner": "box"}
RESTARTS_ABLATION = 5

SCALES = {
    "smoke": {**_FULL, "synthetic_functions": ["Dropwave"], "real_world_problems": ["SVM_digits"],
              "acquisitions": ["UCB", "PI"], "tau0s": [0.0, 0.01], "n_seeds": 1, "T": 3,
              "real_world_seeds": 1, "real_world_T": 2, "isotropic_seeds": 1, "ablation_seeds": 1,
              "direct_evals_per_dim": 50, "direct_ablation_seeds": 1, "direct_ablation_budgets": [25],
              "shift_ablation_seeds": 1, "pseudo_point_ablation_seeds": 1, "restarts_ablation_seeds": 1},
    "quick": {**_FULL, "synthetic_functions": ["Dropwave", "Griewank"], "real_world_problems": ["SVM_digits"],
              "tau0s": [0.0, 0.01], "n_seeds": 3, "T": 15, "real_world_seeds": 2, "real_world_T": 8,
              "isotropic_seeds": 2, "ablation_seeds": 3, "direct_evals_per_dim": 75, "mle_restarts": 0,
              "direct_ablation_seeds": 3, "direct_ablation_budgets": [25, 300], "shift_ablation_seeds": 3,
              "pseudo_point_ablation_seeds": 0, "restarts_ablation_seeds": 0},
    "paper": _FULL,
}
# What `python reproduce.py` regenerates and the repository publishes (figures/bo_pp, the notebook's
# outputs, the verdicts): the paper scale, every block at 20 seeds and T = 100, with the powered confirmatory plan's
# fresh seeds (data/confirmatory/powered/bo_pp.csv, issue 40).
PUBLISHED = {"scale": "paper", "confirmatory": "powered"}
# The fields that make a run a different cell of the experiments (the spot-check recomputes one run of each).
CELL_FIELDS = ("experiment", "problem", "acquisition", "tau0", "kernel")
# The spot-check's cells where an evaluation trains a network or an SVM (2-3 CPU-s a recomputed prefix): one run per
# problem. The synthetic block recomputes every (acquisition, tau0) of the ARD kernel at a fraction of the cost,
# and each of these blocks still recomputes every problem's objective and its own kernel.
SPOT_CHECK_CELL_FIELDS = {"real_world": ("experiment", "problem"), "isotropic": ("experiment", "problem")}


def baseline_and_pseudo_points(tau0s):
    """a list of values from 0.0, 0.01, 0.001, 0.0001 holding 0.0 (plain BO) and at least one other"""
    return set(tau0s) <= set(TAU0S) and 0.0 in tau0s and len(set(tau0s)) > 1


ALLOWED = {
    "synthetic_functions": list(SYNTHETIC), "real_world_problems": list(REAL_WORLD),
    "acquisitions": list(ACQUISITIONS), "tau0s": baseline_and_pseudo_points,
    "n_seeds": range(1, 101), "T": range(1, 1001), "real_world_seeds": range(1, 101), "real_world_T": range(1, 1001),
    "isotropic_seeds": range(1, 101), "ablation_seeds": range(0, 101), "n_init": range(1, 101),
    "direct_evals_per_dim": range(1, 100_001),
    "y_transform": ["none", "standardize"], "mle_restarts": range(0, 11),
    "pseudo_point_mode": ["box", "corner"], "direct_ablation_seeds": range(0, 101),
    "direct_ablation_budgets": range(1, 100_001), "shift_ablation_seeds": range(0, 101),
    "pseudo_point_ablation_seeds": range(0, 101), "restarts_ablation_seeds": range(0, 101),
    "confirmatory": [False, True, "powered"],
}


def method_label(acquisition, tau0):
    """The paper's names: "UCB" for plain BO, "UCB-PP01" for tau0 = 0.01, etc."""
    if tau0 == 0:
        return acquisition
    return f"{acquisition}-PP{format(tau0, 'f').rstrip('0')[2:]}"


def _config(params, experiment, problem, acquisition, tau0, seed, T, kernel):
    return {
        "paper": PAPER, "experiment": experiment, "problem": problem, "acquisition": acquisition,
        "tau0": tau0, "seed": seed, "T": T, "n_init": params["n_init"], "kernel": kernel,
        "direct_evals_per_dim": params["direct_evals_per_dim"], "y_transform": params["y_transform"],
        "mle_restarts": params["mle_restarts"], "pseudo_point_mode": params["pseudo_point_mode"],
        "noise_variance": 1e-4,
    }


def twin_config(config):
    """The synthetic block's configuration an ablation run varies (its ``twin_<choice>`` keys hold the twin's
    values of the changed choices), or ``config`` itself for a run of any other block."""
    changed = {key.removeprefix("twin_"): value for key, value in config.items() if key.startswith("twin_")}
    if not changed:
        return config
    twin = {key: value for key, value in config.items() if not key.startswith("twin_")}
    return {**twin, "experiment": "synthetic", **changed}


def make_grid(params):
    """All run configurations of the notebook for resolved parameters."""
    grid = []
    for problem in params["synthetic_functions"]:
        for acquisition in params["acquisitions"]:
            for tau0 in params["tau0s"]:
                grid += [_config(params, "synthetic", problem, acquisition, tau0, seed, params["T"], "ard")
                         for seed in range(params["n_seeds"])]
        grid += [_config(params, "random_search", problem, RANDOM_SEARCH, 0.0, seed, params["T"], "ard")
                 for seed in range(params["n_seeds"])]
    other_scaling = {"none": "standardize", "standardize": "none"}[params["y_transform"]]
    for problem in params["synthetic_functions"]:
        for acquisition in params["acquisitions"]:
            grid += [{**_config(params, "y_ablation", problem, acquisition, 0.0, seed, params["T"], "ard"),
                      "y_transform": other_scaling} for seed in range(params["ablation_seeds"])]
    for problem in params["synthetic_functions"]:
        for acquisition in params["acquisitions"]:
            grid += [{**_config(params, "direct_ablation", problem, acquisition, 0.0, seed, params["T"], "ard"),
                      "direct_evals_per_dim": budget}
                     for budget in params["direct_ablation_budgets"] for seed in range(params["direct_ablation_seeds"])]
    for problem in params["synthetic_functions"]:
        for acquisition in params["acquisitions"]:
            for tau0 in params["tau0s"]:
                if tau0:
                    grid += [{**_config(params, "pseudo_point_ablation", problem, acquisition, tau0, seed,
                                        params["T"], "ard"),
                              "pseudo_point_mode": PSEUDO_POINT_ABLATION_MODE[params["pseudo_point_mode"]],
                              "twin_pseudo_point_mode": params["pseudo_point_mode"]}
                             for seed in range(params["pseudo_point_ablation_seeds"])]
                grid += [{**_config(params, "restarts_ablation", problem, acquisition, tau0, seed, params["T"],
                                    "ard"), "mle_restarts": RESTARTS_ABLATION,
                          "twin_mle_restarts": params["mle_restarts"]}
                         for seed in range(params["restarts_ablation_seeds"])]
    for problem in [name for name in params["synthetic_functions"] if name in CENTRED_OPTIMUM]:
        for acquisition in params["acquisitions"]:
            for tau0 in params["tau0s"]:
                grid += [{**_config(params, "shifted_box", problem, acquisition, tau0, seed, params["T"], "ard"),
                          "box_shift": list(BOX_SHIFT)} for seed in range(params["shift_ablation_seeds"])]
    for problem in params["real_world_problems"]:
        for acquisition in params["acquisitions"]:
            for tau0 in params["tau0s"]:
                grid += [_config(params, "real_world", problem, acquisition, tau0, seed,
                                 params["real_world_T"], "ard") for seed in range(params["real_world_seeds"])]
        for tau0 in params["tau0s"]:
            grid += [_config(params, "isotropic", problem, "UCB", tau0, seed, params["real_world_T"], "iso")
                     for seed in range(params["isotropic_seeds"])]
    return grid + (confirmatory_grid(params) if params["confirmatory"] else [])


def confirmatory_grid(params):
    """The fresh-seed runs of the committed confirmatory plan (``data/confirmatory/bo_pp.csv``): for each planned
    claim, the runs it is judged on (``data/confirmatory/bo_pp.runs.json``: (block, problem, acquisition, tau0),
    each BO-PP cell with its BO baseline) at its fresh seeds; a run two claims share gets the larger number of
    seeds (:func:`common.confirmatory.fresh_seeds_of_runs`)."""
    seeds_of = confirmatory.fresh_seeds_of_runs(PAPER, confirmatory.plan_of(params))
    horizon = {"synthetic": params["T"], "real_world": params["real_world_T"], "isotropic": params["real_world_T"]}
    kernel = {"synthetic": "ard", "real_world": "ard", "isotropic": "iso"}
    return [_config(params, block, problem, acquisition, tau0, seed, horizon[block], kernel[block])
            for (block, problem, acquisition, tau0), count in sorted(seeds_of.items())
            for seed in confirmatory.fresh_seeds(count)]


class _OnSymmetricBox:
    """A problem seen on [-1, 1]^d through the linear map onto its own box (§5: r = 2)."""

    def __init__(self, problem):
        self.problem = problem
        self.dim = problem.dim
        self.bounds = np.tile([-1.0, 1.0], (problem.dim, 1))
        self.optimal_value = problem.optimal_value

    def __call__(self, U):
        low, high = self.problem.bounds[:, 0], self.problem.bounds[:, 1]
        return self.problem(low + (np.asarray(U) + 1.0) / 2.0 * (high - low))


def make_problem(config):
    """The objective on [-1, 1]^d for a run configuration (on a shifted box if it has ``box_shift``)."""
    name = config["problem"]
    if name in SYNTHETIC and config.get("box_shift"):
        usual = SYNTHETIC[name]().bounds
        shifted = usual + np.multiply(config["box_shift"], np.ptp(usual, axis=1))[:, None]
        return ScaledFunction(CENTRED_OPTIMUM[name](shifted))
    if name in SYNTHETIC:
        return ScaledFunction(SYNTHETIC[name]())
    return _OnSymmetricBox(get_tuning_problem(name, split_seed=config["seed"], model_seed=config["seed"]))


def make_method(config, objective, rng_pseudo):
    """The BO / BO-PP method of a configuration (ARD or isotropic SE kernel, MLE, DIRECT), or random search.

    Hyperparameter boxes on [-1, 1]^d: lengthscales in [1e-3, 1e2]; signal variance
    in [1e-2, 1e2] on standardized y, or [1e-6, 1e6] on raw y (whose scale differs
    by orders of magnitude between problems).
    """
    if config["acquisition"] == RANDOM_SEARCH:
        return RandomSearch(objective.bounds, name=RANDOM_SEARCH)
    dim = objective.dim
    variance_bounds = (1e-2, 1e2) if config["y_transform"] == "standardize" else (1e-6, 1e6)
    variance = 1.0
    lengthscale = np.full(dim, 0.5) if config["kernel"] == "ard" else 0.5
    kernel = SquaredExponential(lengthscale, variance, lengthscale_bounds=(1e-3, 1e2),
                                variance_bounds=variance_bounds)
    return PseudoPointBO(
        kernel, objective.bounds, tau0=config["tau0"], pseudo_point_mode=config["pseudo_point_mode"],
        pseudo_point_rng=rng_pseudo, acquisition=config["acquisition"], beta="srinivas",
        beta_options={"delta": 0.1}, noise_variance=config["noise_variance"], y_transform=config["y_transform"],
        mle_restarts=config["mle_restarts"], optimizer="direct",
        optimizer_options={"max_evals": config["direct_evals_per_dim"] * dim, "vol_tol": 0.0},
        name=method_label(config["acquisition"], config["tau0"]),
    )


def run(config, iterations=None):
    """One BO or BO-PP run; returns per-evaluation traces for the result store.

    Parameters
    ----------
    config : dict
        One (problem, acquisition, tau0, seed) of :func:`make_grid`.
    iterations : int, optional
        Compute only the first ``iterations`` BO iterations, a prefix of the
        full run's traces: nothing in a run depends on its budget ``T``.
    """
    objective = make_problem(config)
    seed_key = (PAPER, config["problem"], config["seed"])
    twin = twin_config(config)
    method = make_method(config, objective, make_rng(twin, "pseudo-points"))
    n_iterations = config["T"] if iterations is None else min(iterations, config["T"])
    stream = twin["experiment"]
    record = run_bo(objective, objective.bounds, method, config["n_init"], n_iterations,
                    init_rng=make_rng(*seed_key, "initial design"),  # shared by every method of a repetition
                    method_rng=make_rng(*seed_key, stream, "method"))
    n_init = config["n_init"]
    tau = np.zeros(len(record["y"]))
    n_pseudo = np.zeros(len(record["y"]), dtype=int)
    if isinstance(method, PseudoPointBO):  # random search has no pseudo-points
        tau[n_init:] = [entry["tau"] for entry in method.log]
        n_pseudo[n_init:] = [entry["n_pseudo"] for entry in method.log]
    result = {**record, "tau": tau, "n_pseudo": n_pseudo}
    if objective.optimal_value is not None:
        result["regret"] = simple_regret(record["f"], objective.optimal_value)
    return result


# --------------------------------------------------------------------------- Table 1 and the ablations' tables
#: A final regret at or below this counts as exactly zero: the run queried the optimum itself.
EXACT_ZERO = 1e-12


def final_runs(table):
    """One row per run: its configuration and final values, with ``method`` and ``value`` (S_T, or best f)."""
    finals = final_rows(table).copy()
    finals["method"] = [method_label(a, t) for a, t in zip(finals["acquisition"], finals["tau0"])]
    value = finals["regret"] if "regret" in finals else finals["best_so_far"]
    finals["value"] = value.where(value.notna(), finals["best_so_far"])
    return finals


def table1(finals, paper_numbers):
    """Table 1, ours beside the paper's, one row per (problem, method), in the paper's order of rows.

    Parameters
    ----------
    finals : pandas.DataFrame
        :func:`final_runs` of the tidy table; its ``synthetic`` and ``real_world`` runs are used.
    paper_numbers : pandas.DataFrame
        The paper's numbers, :func:`common.paper_data.load_paper_numbers`.

    Returns
    -------
    pandas.DataFrame
        Columns ``problem``, ``method``, ``ours`` and ``paper`` (mean ± std, ddof = 0, of the final S_T or best
        f), ``runs``, ``T`` and ``no worse than BO`` (✓ where the BO-PP mean is no worse than its BO baseline's,
        as the paper's bold type; blank for BO). Rows as in the paper's Table 1: the acquisitions UCB, PI, EI; in
        each the synthetic functions, then the real-world problems, in the paper's order; for each, BO, then
        tau0 = 0.01, 0.001, 0.0001. Only (problem, method) pairs with runs.
    """
    main = finals[finals["experiment"].isin(["synthetic", "real_world"])]
    ours = main.groupby(["problem", "method"]).agg(mean=("value", "mean"), std=("value", lambda v: np.std(v, ddof=0)),
                                                   runs=("value", "size"), T=("iteration", "max"))
    rows = []
    for acquisition in ACQUISITIONS:
        for problem in (*SYNTHETIC, *REAL_WORLD):
            for tau0 in TAU0S:
                name = method_label(acquisition, tau0)
                if (problem, name) not in ours.index:
                    continue
                mine, paper = ours.loc[(problem, name)], paper_data.paper_number(
                    paper_numbers, "table1", problem=PAPER_PROBLEM.get(problem, problem), method=name)
                base = ours["mean"].get((problem, acquisition), np.nan)
                no_worse = mine["mean"] <= base if problem in SYNTHETIC else mine["mean"] >= base
                rows.append({"problem": problem, "method": name, "ours": f"{mine['mean']:.4f} ± {mine['std']:.4f}",
                             "paper": f"{paper.value:.4f} ± {paper.std:.4f}", "runs": int(mine["runs"]),
                             "T": int(mine["T"]),
                             "no worse than BO": "" if tau0 == 0 else ("✓" if no_worse else "✗")})
    return pd.DataFrame(rows)


def _in_paper_order(table):
    """Rows sorted as Table 1: functions, then acquisitions UCB, PI, EI, then tau0 0, 0.01, 0.001, 0.0001."""
    rank = {**{name: i for i, name in enumerate(SYNTHETIC)}, **{name: i for i, name in enumerate(ACQUISITIONS)},
            **{tau0: i for i, tau0 in enumerate(TAU0S)}}
    return table.sort_values(["problem", "acquisition", "tau0"], key=lambda column: column.map(rank), kind="stable")


def _paired_cell(ours, baseline, claim="equivalent"):
    """``ours`` against ``baseline`` seed by seed on the ratio of mean final S_T (lower is better), with its 95 %
    interval, judged against the project's margin, a factor 1.1 (:data:`judging.DEFAULT_MARGIN`).

    Columns: ``W/T/L``; ``ratio`` (ours / baseline, :class:`common.stats.Effect`); ``side``: "better" or
    "worse" (for ours) when the interval lies wholly on one side of 1, else "undecided"; then for
    ``claim="equivalent"`` ``within 1.1x``: "yes" when the interval lies inside a factor 1.1 either way (the runs
    rule out an effect that large), "no" when wholly outside it, else "undecided"; for ``claim="better"``
    ``better``: the cell judgement of "ours is better" (:func:`judging.judge_cell`: supported, contradicted
    when the interval lies on the other side of no difference, else undecided); and the ``seeds to decide`` an undecided
    one at the observed effect and spread.
    """
    comparison = stats.paired_by_seed(ours, baseline, higher_is_better=False, scale="ratio")
    judged = judging.judge_cell(comparison, claim, judging.DEFAULT_MARGIN)
    if claim == "equivalent":
        judgement = {"within 1.1x": {"supported": "yes", "contradicted": "no"}.get(judged.judgement, "undecided")}
    else:
        judgement = {claim: judged.judgement}
    return {"W/T/L": f"{comparison.wins}/{comparison.ties}/{comparison.losses}", "ratio": str(comparison.effect),
            "side": stats.interval_side(comparison) or "undecided", **judgement,
            "seeds to decide": "" if judged.seeds_to_decide is None else judging.format_seeds(judged.seeds_to_decide)}


def output_scaling_table(finals, paper_numbers):
    """Plain BO's final S_T with raw and with standardized y, per (function, acquisition), beside the paper's mean.

    The raw-y column is the main synthetic block on the ablation's seeds. Columns:
    ``mean (<transform>)``, ``exact_zero (<transform>)`` (runs at S_T <= 1e-12),
    ``runs (<transform>)`` and ``paper_mean``; None without ablation runs.
    """
    ablation = finals[finals["experiment"] == "y_ablation"]
    if ablation.empty:
        return None
    same = finals[(finals["experiment"] == "synthetic") & (finals["tau0"] == 0)
                  & finals["seed"].isin(ablation["seed"]) & finals["problem"].isin(ablation["problem"])]
    scaling = pd.concat([same, ablation]).groupby(["problem", "acquisition", "y_transform"])["value"].agg(
        mean="mean", exact_zero=lambda v: int(np.sum(v <= 1e-12)), runs="size").unstack("y_transform")
    scaling.columns = [f"{statistic} ({transform})" for statistic, transform in scaling.columns]
    scaling["paper_mean"] = [paper_data.paper_number(paper_numbers, "table1", problem=problem, method=acquisition).value
                             for problem, acquisition in scaling.index]
    return scaling.reset_index()


#: Below this many paired seeds an ablation rules nothing out, whatever its interval (DESIGN.md, Honesty).
FEWEST_SEEDS_TO_RULE_OUT = 10


def ablation_against_gap(finals, paper_numbers, main_budget):
    """Each ablated choice against ours on the same seeds, per (function, acquisition), beside the paper's mean.

    Parameters
    ----------
    finals : pandas.DataFrame
        :func:`final_runs` of the tidy table.
    paper_numbers : pandas.DataFrame
        The paper's numbers, :func:`common.paper_data.load_paper_numbers`.
    main_budget : int
        The main block's DIRECT evaluations per dimension (the budget the others are ablations of).

    Returns
    -------
    pandas.DataFrame or None
        One row per (ablation, setting, function, acquisition), None without ablation runs. The ablations, all
        on plain BO: the output scaling (``y_ablation``), each DIRECT budget of ``direct_ablation`` (in
        increasing order), and the centre of the box (the plain-BO runs of ``shifted_box``, on the functions
        with a centred optimum only); ours is the main synthetic block (raw y, ``main_budget`` evaluations per
        dimension, the usual box) on the ablation's seeds. Columns: ``ratio``, the ratio of mean final S_T,
        ablated over ours, with its 95 % interval (:func:`common.stats.paired_by_seed`); ``paper / ours``, the
        ratio that would bring our mean to the paper's (taken as a fixed target); ``closes the gap``: "ruled out"
        when the interval excludes that ratio (the choice alone does not explain the gap), "cannot rule out" when
        it holds it or the ablation has fewer than :data:`FEWEST_SEEDS_TO_RULE_OUT` seeds; ``moves as far as the
        gap``: "yes" when the ablated mean itself reaches the paper's mean or beyond it, seen from ours (a point
        estimate, without its interval), else "no".
    """
    main = finals[(finals["experiment"] == "synthetic") & (finals["tau0"] == 0)]
    ablated = {("output scaling", "standardize"): finals[finals["experiment"] == "y_ablation"]}
    budgets = finals[finals["experiment"] == "direct_ablation"]
    if not budgets.empty:
        ablated.update({("DIRECT budget", f"{budget}·d"): runs
                        for budget, runs in budgets.groupby("direct_evals_per_dim")})
    shifted = finals[(finals["experiment"] == "shifted_box") & (finals["tau0"] == 0)]
    if not shifted.empty:
        ablated[("centre of the box", "shifted box")] = shifted
    rows = []
    for (ablation, setting), runs in ablated.items():
        for (problem, acquisition), cell in _in_paper_order(runs).groupby(["problem", "acquisition"], sort=False):
            ours = main[(main["problem"] == problem) & (main["acquisition"] == acquisition)].set_index("seed")["value"]
            comparison = stats.paired_by_seed(cell.set_index("seed")["value"], ours, higher_is_better=False,
                                              scale="ratio")
            if comparison is None:
                continue
            seeds = ours.index.intersection(cell["seed"])
            paper = paper_data.paper_number(paper_numbers, "table1", problem=problem, method=acquisition).value
            target = paper / ours[seeds].mean() if ours[seeds].mean() > 0 else np.inf
            effect = comparison.effect
            mean_ours, mean_ablated = ours[seeds].mean(), cell.set_index("seed")["value"][seeds].mean()
            rows.append({"ablation": ablation, "setting": setting, "function": problem, "acquisition": acquisition,
                         "seeds": comparison.n, "S_T ours": mean_ours, "S_T ablated": mean_ablated,
                         "paper": paper, "ratio": str(effect), "paper / ours": target,
                         "closes the gap": ("cannot rule out" if effect.low <= target <= effect.high
                                            or comparison.n < FEWEST_SEEDS_TO_RULE_OUT else "ruled out"),
                         "moves as far as the gap": "yes" if moves_as_far(mean_ours, mean_ablated, paper) else "no"})
    return pd.DataFrame(rows) if rows else None


def moves_as_far(ours, ablated, paper):
    """True when ``ablated`` lies at ``paper`` or beyond it, seen from ``ours``: the ablation moves the mean at
    least as far as the gap, in the gap's direction (with no gap, any value does)."""
    gap = paper - ours
    return bool(gap == 0 or np.sign(ablated - ours) == np.sign(gap) and abs(ablated - ours) >= abs(gap))


def gap_summary(gap):
    """How far the ablations of :func:`ablation_against_gap` explain the gap to the paper's baselines, per cell.

    Parameters
    ----------
    gap : pandas.DataFrame
        :func:`ablation_against_gap`'s table.

    Returns
    -------
    dict
        ``cells`` (the (function, acquisition) cells, in the table's order); ``ablations``, the number of
        ablations (ablation, setting) per cell; ``all_rule_out``, the cells where every ablation's interval
        excludes the ratio that reaches the paper's mean; ``none_moves_as_far``, the cells where no ablated mean
        moves as far as the gap; ``open_by_setting``, setting -> (cells whose interval holds the target, cells
        the setting ran on); and the same two lists without the shifted box, ``all_rule_out_but_shift`` and
        ``none_moves_as_far_but_shift``.
    """
    gap = gap.assign(cell=gap["function"] + " " + gap["acquisition"])
    but_shift = gap[gap["ablation"] != "centre of the box"]

    def every(rows, column, value):
        found = rows.groupby("cell", sort=False)[column].agg(lambda values: bool((values == value).all()))
        return found.index[found].tolist()

    return {"cells": gap["cell"].unique().tolist(), "ablations": gap.groupby("cell", sort=False).size().to_dict(),
            "all_rule_out": every(gap, "closes the gap", "ruled out"),
            "none_moves_as_far": every(gap, "moves as far as the gap", "no"),
            "all_rule_out_but_shift": every(but_shift, "closes the gap", "ruled out"),
            "none_moves_as_far_but_shift": every(but_shift, "moves as far as the gap", "no"),
            "open_by_setting": {f"{setting} ({ablation})": (int((rows["closes the gap"] == "cannot rule out").sum()),
                                                            len(rows))
                                for (ablation, setting), rows in gap.groupby(["ablation", "setting"], sort=False)}}


def direct_budget_table(finals, paper_numbers, main_budget):
    """Plain BO's final S_T at each DIRECT budget, per (function, acquisition), beside the paper's mean; the
    arguments are :func:`ablation_against_gap`'s.

    Returns
    -------
    pandas.DataFrame or None
        One row per (function, acquisition), None without ablation runs: ``seeds``, the ablation's seeds; per
        budget ``b`` (evaluations per dimension, increasing), ``S_T at b·d``, the mean final S_T, and ``zeros at b·d``, the runs ending at
        exactly zero regret (<= :data:`EXACT_ZERO`); the ``main_budget`` columns are the main synthetic block on
        the ablation's seeds. Then ``paper``, the paper's mean, and the largest budget against ``main_budget``
        seed by seed (:func:`_paired_cell`: its ratio, and whether the runs rule out a factor 1.1).
    """
    ablation = finals[finals["experiment"] == "direct_ablation"]
    if ablation.empty:
        return None
    seeds = sorted(set(ablation["seed"]))
    main = finals[(finals["experiment"] == "synthetic") & (finals["tau0"] == 0) & finals["seed"].isin(seeds)]
    both = _in_paper_order(pd.concat([main, ablation]))
    largest = max(ablation["direct_evals_per_dim"])
    rows = []
    for (problem, acquisition), cell in both.groupby(["problem", "acquisition"], sort=False):
        by_budget = {budget: runs.set_index("seed")["value"] for budget, runs in cell.groupby("direct_evals_per_dim")}
        row = {"function": problem, "acquisition": acquisition, "seeds": len(seeds)}
        for budget, values in sorted(by_budget.items()):
            row.update({f"S_T at {budget}·d": values.mean(),
                        f"zeros at {budget}·d": int((values <= EXACT_ZERO).sum())})
        row["paper"] = paper_data.paper_number(paper_numbers, "table1", problem=problem, method=acquisition).value
        if largest in by_budget and main_budget in by_budget:
            row.update({f"{largest}·d vs {main_budget}·d {name}": value
                        for name, value in _paired_cell(by_budget[largest], by_budget[main_budget]).items()})
        rows.append(row)
    return pd.DataFrame(rows)


def zeros_by_budget(budget_table, functions):
    """Runs at exactly zero regret per acquisition and DIRECT budget, over ``functions``, beside the paper's means.

    Parameters
    ----------
    budget_table : pandas.DataFrame
        :func:`direct_budget_table`'s table.
    functions : sequence of str
        The functions to count over (those with a centred optimum, where a zero is a query of the centre).

    Returns
    -------
    pandas.DataFrame or None
        One row per acquisition, in the table's order: ``runs`` (per budget), ``zeros at b·d`` for each budget of
        the table (the sums of its columns over ``functions``), and ``paper``, the paper's mean final S_T on each
        function (e.g. "Griewank 0, Rastrigin 0.0524"); None when the table has none of ``functions``.
    """
    rows = budget_table[budget_table["function"].isin(functions)]
    if rows.empty:
        return None
    found = []
    for acquisition, cells in rows.groupby("acquisition", sort=False):
        paper = ", ".join(f"{name} {value:g}" for name, value in zip(cells["function"], cells["paper"]))
        found.append({"acquisition": acquisition, "runs": int(cells["seeds"].sum()),
                      **cells.filter(like="zeros at").sum().astype(int).to_dict(), "paper": paper})
    return pd.DataFrame(found)


def smallest_budget_reading(budget_table):
    """What the smallest DIRECT budget of :func:`direct_budget_table` shows about the paper's exact zeros, in one
    sentence: the cells where every run ends at zero regret at that budget, split by whether the paper's mean there
    is 0 as well. A cell at 0 where the paper's mean is not means that budget would have given the paper a zero it
    does not print, so it alone does not make the paper's pattern. None when there is no table."""
    if budget_table is None or budget_table.empty:
        return None
    column = next(name for name in budget_table.columns if name.startswith("S_T at "))
    budget = column.removeprefix("S_T at ")
    at_zero = budget_table[budget_table[column] == 0]
    if at_zero.empty:
        return f"At {budget}, the smallest budget, no cell has every run at zero regret."

    def cells(rows):
        return ", ".join(f"{row.acquisition} on {row.function} (paper {row.paper:g})" for row in rows.itertuples())

    matched, unmatched = at_zero[at_zero["paper"] == 0], at_zero[at_zero["paper"] > 0]
    words = f"At {budget}, the smallest budget, every run ends at zero regret in {len(at_zero)} cells"
    if len(matched):
        words += f"; the paper's mean is 0 too for {cells(matched)}"
    if len(unmatched):
        words += (f"; it is not for {cells(unmatched)}: here a budget that small brings those to zero too, which "
                  "the paper's means rule out, so a tiny budget alone does not explain the paper's zeros")
    return words + "."


def choice_ablation_table(finals, ablation, label):
    """The synthetic block's runs beside their twins of ``ablation`` ("pseudo_point_ablation" or
    "restarts_ablation"), per (function, method) on the seeds both ran: mean final S_T and the paired ratio
    (ablated over ours) with its interval, W/T/L, its side and whether it rules out a factor 1.1
    (:func:`common.judging.paired_ablation_table`). None without runs of the ablation."""
    varied = finals[finals["experiment"] == ablation]
    if varied.empty:
        return None
    main = finals[finals["experiment"] == "synthetic"]
    cells = ("problem", "acquisition", "tau0")
    table = judging.paired_ablation_table(main, varied, cells, "value", higher_is_better=False, label=label)
    if table is None:
        return None
    table.insert(1, "method", [method_label(row.acquisition, row.tau0) for row in table.itertuples()])
    return table.drop(columns=["acquisition", "tau0"]).rename(columns={"problem": "function"})


def choice_ablation_sentence(table, what):
    """One sentence in numbers for :func:`choice_ablation_table`."""
    counts = table["outcome"].value_counts().to_dict()
    return (f"{what}, on {table['seeds'].max()} seeds a cell: lower S_T in {counts.get('better', 0)} of "
            f"{len(table)} cells, higher in {counts.get('worse', 0)}, undecided in {counts.get('undecided', 0)}; an "
            f"effect of a factor 1.1 either way is ruled out in {(table['within 1.1x'] == 'yes').sum()}.")


def shifted_box_table(finals):
    """BO and BO-PP on the usual and on the shifted box, per (function, method), same seeds.

    Columns: mean final S_T and the number of runs at exactly zero regret
    (<= :data:`EXACT_ZERO`) on each box, and on the shifted box each BO-PP variant against its BO
    baseline seed by seed (:func:`_paired_cell`: its ratio, and the paper's
    "better" judged against a factor 1.1).
    """
    shifted = _in_paper_order(finals[finals["experiment"] == "shifted_box"])
    if shifted.empty:
        return None
    seeds = sorted(set(shifted["seed"]))
    usual = finals[(finals["experiment"] == "synthetic") & finals["seed"].isin(seeds)
                   & finals["problem"].isin(set(shifted["problem"]))]
    rows = []
    for (problem, acquisition, tau0), cell in shifted.groupby(["problem", "acquisition", "tau0"], sort=False):
        on_usual = usual[(usual["problem"] == problem) & (usual["acquisition"] == acquisition)
                         & (usual["tau0"] == tau0)]["value"]
        row = {"function": problem, "method": method_label(acquisition, tau0),
               "S_T usual box": on_usual.mean(), "zeros usual": int((on_usual <= EXACT_ZERO).sum()),
               "S_T shifted box": cell["value"].mean(), "zeros shifted": int((cell["value"] <= EXACT_ZERO).sum())}
        if tau0 != 0:
            baseline = shifted[(shifted["problem"] == problem) & (shifted["acquisition"] == acquisition)
                               & (shifted["tau0"] == 0)].set_index("seed")["value"]
            row.update({f"PP vs BO (shifted) {name}": value
                        for name, value in _paired_cell(cell.set_index("seed")["value"], baseline,
                                                        "better").items()})
        rows.append(row)
    return pd.DataFrame(rows)


def zeros_on_each_box(finals, problems, acquisition):
    """Runs of ``acquisition`` and its BO-PP variants on ``problems`` that end at exactly zero regret, on the usual
    box and on the shifted one, on the shifted-box block's seeds.

    Parameters
    ----------
    finals : pandas.DataFrame
        :func:`final_runs` of the tidy table.
    problems : sequence of str
        Functions with a centred optimum (keys of :data:`CENTRED_OPTIMUM`).
    acquisition : str
        "UCB", "PI" or "EI"; every tau0 of it counts.

    Returns
    -------
    dict or None
        ``{"usual": (runs at zero, runs), "shifted": (runs at zero, runs)}`` (at zero: final S_T <=
        :data:`EXACT_ZERO`); None without shifted-box runs of these cells.
    """
    cells = finals[finals["problem"].isin(problems) & (finals["acquisition"] == acquisition)]
    shifted = cells[cells["experiment"] == "shifted_box"]
    if shifted.empty:
        return None
    usual = cells[(cells["experiment"] == "synthetic") & cells["seed"].isin(set(shifted["seed"]))]
    return {box: (int((runs["value"] <= EXACT_ZERO).sum()), len(runs)) for box, runs in (("usual", usual),
                                                                                          ("shifted", shifted))}
