"""Lesson 2 of the course, acquisition functions: its notebook's scales and the computations it caches.

The lesson (``notebooks/lesson2_acquisition.ipynb``) draws every figure from arrays computed once by :func:`run`
and kept in the result store like any run (``data/results/lesson2_acquisition/``): the acquisitions on the
lesson's posterior at the slider positions of its players, BO loops on the Forrester function with UCB, EI, PI
and Thompson sampling at several exploration parameters over several seeds, and the acquisition maximizers'
evaluations against the gap to the maximum. Drawn from stored arrays, the figures do not depend on the last bits
of the machine's BLAS; what each computation does is in :mod:`common.lessons.acquisition`.

Every configuration carries a budget (:data:`common.runner.BUDGET_FIELDS`), which the runner's cost estimates
scale with: a loop's ``n_iterations``, else ``budget``, the points a computation evaluates.
"""
import numpy as np

from common.lessons import acquisition, stored_arrays, without_settings

PAPER = "lesson2_acquisition"
# Raise whenever a change alters the numbers of a run; cached runs of another version are recomputed.
CODE_VERSION = 1
NOTEBOOK = "lesson2_acquisition.ipynb"
TITLE = "Lesson 2 of the course: acquisition functions (UCB, EI, PI, Thompson sampling; exploration; maximizing)"
OUTPUTS = ["acquisitions", "ucb", "improvement", "thompson", "reach", "query_traces", "maximizer_view",
           "maximizer_cost"]
#: A lesson of the course, not a paper: no claims, no scorecard section.
KIND = "lesson"
#: Every cached run is spot-checked (tests/test_notebooks.py), not one per experiment: they take seconds, and a few
#: cells would let one run that a near-tie of the last bits sends elsewhere fail the whole check.
CELL_FIELDS = None


def _betas(values):
    """a list of UCB betas in [0, 100]"""
    return all(0 <= value <= 100 for value in values)


def _xis(values):
    """a list of EI/PI xis in [0, 20] (units of f)"""
    return all(0 <= value <= 20 for value in values)


SCALES = {
    "smoke": {"n_grid": 101, "betas": [0.1, 4.0, 25.0], "xis": [0.0, 2.0], "draw_counts": [1, 3],
              "view_budgets": [5, 17], "loop_betas": [0.1, 4.0, 25.0], "loop_xis": [0.0], "loop_thompson": True,
              "n_seeds": 5, "n_init": 2, "n_iterations": 20, "direct_evals": 200,
              "sizes_1d": [3, 9, 27], "grid_sides_6d": [2, 3], "budgets_6d": [64, 256], "n_maximizer_seeds": 2},
    "quick": {"n_grid": 201, "betas": [0.0, 0.1, 1.0, 4.0, 9.0, 25.0], "xis": [0.0, 0.5, 1.0, 2.0, 5.0, 10.0],
              "draw_counts": [1, 2, 3, 5, 10, 20], "view_budgets": [3, 5, 9, 17, 33],
              "loop_betas": [0.1, 1.0, 4.0, 9.0, 25.0], "loop_xis": [0.0, 1.0, 5.0], "loop_thompson": True,
              "n_seeds": 50, "n_init": 2, "n_iterations": 20, "direct_evals": 200,
              "sizes_1d": [2, 3, 5, 9, 17, 33, 65, 129, 257], "grid_sides_6d": [2, 3, 4, 5, 6, 8, 10],
              "budgets_6d": [64, 256, 1024, 4096, 16384, 65536], "n_maximizer_seeds": 10},
    "paper": {"n_grid": 401, "betas": [0.0, 0.1, 1.0, 4.0, 9.0, 25.0], "xis": [0.0, 0.5, 1.0, 2.0, 5.0, 10.0],
              "draw_counts": [1, 2, 3, 5, 10, 20], "view_budgets": [3, 5, 9, 17, 33],
              "loop_betas": [0.1, 1.0, 4.0, 9.0, 25.0], "loop_xis": [0.0, 1.0, 5.0], "loop_thompson": True,
              "n_seeds": 100, "n_init": 2, "n_iterations": 30, "direct_evals": 200,
              "sizes_1d": [2, 3, 5, 9, 17, 33, 65, 129, 257, 513], "grid_sides_6d": [2, 3, 4, 5, 6, 8, 10],
              "budgets_6d": [64, 256, 1024, 4096, 16384, 65536], "n_maximizer_seeds": 30},
}
ALLOWED = {
    "n_grid": range(11, 2002), "betas": _betas, "xis": _xis, "draw_counts": range(1, acquisition.N_DRAWS + 1),
    "view_budgets": range(1, 1001), "loop_betas": _betas, "loop_xis": _xis, "loop_thompson": [True, False],
    "n_seeds": range(1, 201), "n_init": range(1, 21), "n_iterations": range(1, 201),
    "direct_evals": range(10, 10_001), "sizes_1d": range(1, 10_001), "grid_sides_6d": range(1, 13),
    "budgets_6d": range(1, 1_000_001), "n_maximizer_seeds": range(1, 101),
}
# What `python reproduce.py` regenerates and the repository publishes.
PUBLISHED = {"scale": "quick"}
#: The betas whose loops the lesson shows side by side (those of the grid's ``loop_betas``).
TRACE_BETAS = (0.1, 4.0, 25.0)


# --------------------------------------------------------------------------- the computations' configurations
def _config(experiment, seed=0, **settings):
    return {"paper": PAPER, "experiment": experiment, "problem": "forrester", **settings, "seed": int(seed)}


def overview_config(params):
    """The four rules side by side on the lesson's posterior."""
    return _config("overview", n_points=acquisition.N_POINTS, n_grid=params["n_grid"], beta=4.0,
                   budget=params["n_grid"])


def ucb_config(params, beta):
    """UCB at ``beta`` on the lesson's posterior (a frame of the UCB player)."""
    return _config("ucb", beta=float(beta), n_points=acquisition.N_POINTS, n_grid=params["n_grid"],
                   budget=params["n_grid"])


def improvement_config(params, xi):
    """EI and PI at ``xi`` (a frame of the xi player)."""
    return _config("improvement", xi=float(xi), n_points=acquisition.N_POINTS, n_grid=params["n_grid"],
                   budget=params["n_grid"])


def thompson_config(params, n_draws):
    """The first ``n_draws`` posterior draws and the maximizers' histogram (a frame of the Thompson player)."""
    return _config("thompson", n_draws=int(n_draws), n_points=acquisition.N_POINTS, n_grid=params["n_grid"],
                   budget=params["n_grid"] * acquisition.N_HISTOGRAM_DRAWS)


def maximizer_view_config(params, budget):
    """Where the three maximizers evaluate the 1-D EI at ``budget`` (a frame of the maximizer player)."""
    return _config("maximizer_view", view_budget=int(budget), n_grid=params["n_grid"], budget=int(budget))


def loop_settings(params):
    """The loops' (acquisition, parameter) pairs, in the order the lesson shows them."""
    settings = [("UCB", float(beta)) for beta in params["loop_betas"]]
    settings += [(rule, float(xi)) for rule in ("EI", "PI") for xi in params["loop_xis"]]
    return settings + ([("TS", 0.0)] if params["loop_thompson"] else [])


def setting_label(rule, parameter):
    """How the figures name a loop setting, e.g. "UCB β = 4", "TS"."""
    return rule if rule == "TS" else f"{rule} {acquisition.PARAMETER_OF[rule]} = {parameter:g}"


def loop_config(params, rule, parameter, seed):
    """One BO loop on the Forrester function (seed ``seed``: its initial design)."""
    return _config("loop", method=setting_label(rule, parameter), acquisition=rule, parameter=float(parameter),
                   n_init=params["n_init"], n_iterations=params["n_iterations"],
                   direct_evals=params["direct_evals"], seed=seed)


def loop_configs(params):
    """Every loop: settings x seeds."""
    return [loop_config(params, rule, parameter, seed) for rule, parameter in loop_settings(params)
            for seed in range(params["n_seeds"])]


def maximizer_sizes(params, problem, maximizer):
    """The sizes a maximizer runs at: points per side (grid), budget (DIRECT) or candidates (multi-start)."""
    if problem == "forrester":
        return [int(size) for size in params["sizes_1d"]]
    return [int(size) for size in (params["grid_sides_6d"] if maximizer == "grid" else params["budgets_6d"])]


def maximizer_config(params, problem, maximizer, seed=0):
    """One maximizer on one problem at every size of the study (``seed``: the random candidates)."""
    sizes = maximizer_sizes(params, problem, maximizer)
    dimension = 1 if problem == "forrester" else 6
    largest = max(sizes) ** dimension if maximizer == "grid" else max(sizes)
    return {"paper": PAPER, "experiment": "maximizer", "problem": problem, "method": maximizer, "sizes": sizes,
            "budget": int(largest), "seed": int(seed)}


def reference_config(problem):
    """The reference maximum of a problem's acquisition."""
    return {"paper": PAPER, "experiment": "reference", "problem": problem, "budget": 2**14, "seed": 0}


def maximizer_configs(params):
    """Every run of the maximization study: problems x maximizers (x seeds for the random candidates)."""
    configs = []
    for problem in acquisition.MAXIMIZATION_PROBLEMS:
        configs.append(reference_config(problem))
        for maximizer in acquisition.MAXIMIZER_NAMES:
            seeds = range(params["n_maximizer_seeds"]) if maximizer == "restarts" else [0]
            configs += [maximizer_config(params, problem, maximizer, seed) for seed in seeds]
    return configs


def make_grid(params):
    """Every computation the notebook draws, for resolved parameters."""
    return [overview_config(params), *[ucb_config(params, beta) for beta in params["betas"]],
            *[improvement_config(params, xi) for xi in params["xis"]],
            *[thompson_config(params, n_draws) for n_draws in params["draw_counts"]],
            *[maximizer_view_config(params, budget) for budget in params["view_budgets"]],
            *loop_configs(params), *maximizer_configs(params)]


# --------------------------------------------------------------------------- what the notebook draws, from the store
def stored_loops(params):
    """Every stored loop of the grid: ``{setting label: [loop arrays of seed 0, 1, ...]}``, in the grid's order."""
    return {setting_label(rule, parameter): [stored_arrays(loop_config(params, rule, parameter, seed))
                                             for seed in range(params["n_seeds"])]
            for rule, parameter in loop_settings(params)}


def reach_steps(loops):
    """``{setting label: [steps to reach x* of each seed (None: never)]}`` of :func:`stored_loops`' runs."""
    return {label: [acquisition.steps_to_reach(run["X"], run["iteration"]) for run in runs]
            for label, runs in loops.items()}


def maximizer_study(params):
    """The maximization study from the store, per problem: ``reference``, the larger of the reference maximum
    and every value found (so that every gap is >= 0), and per maximizer ``(evaluations, found)``, arrays over the
    sizes (the multi-start's of shape (seeds, sizes))."""
    study = {}
    for problem in acquisition.MAXIMIZATION_PROBLEMS:
        found = {}
        for maximizer in acquisition.MAXIMIZER_NAMES:
            seeds = range(params["n_maximizer_seeds"]) if maximizer == "restarts" else [0]
            runs = [stored_arrays(maximizer_config(params, problem, maximizer, seed)) for seed in seeds]
            evaluations = np.array([run["evaluations"] for run in runs])
            values = np.array([run["found"] for run in runs])
            found[maximizer] = (evaluations, values) if maximizer == "restarts" else (evaluations[0], values[0])
        reference = max(stored_arrays(reference_config(problem))["found"],
                        *[float(np.max(values)) for _, values in found.values()])
        study[problem] = {"reference": reference, **found}
    return study


def evaluations_to_reach(study, problem, maximizer, gap):
    """The fewest evaluations at which ``maximizer`` came within relative ``gap`` of the maximum on ``problem``
    (the median over seeds for the multi-start), or None if no size of the study did."""
    evaluations, found = study[problem][maximizer]
    gaps = acquisition.relative_gap(found, study[problem]["reference"])
    if maximizer == "restarts":
        evaluations, gaps = np.median(evaluations, axis=0), np.median(gaps, axis=0)
    within = np.flatnonzero(gaps <= gap)
    return int(evaluations[within[0]]) if within.size else None


def run(config, iterations=None):
    """One of the lesson's computations (``config["experiment"]``), as a dict of arrays for the result store (its
    settings are in ``config``).

    ``iterations``, given, computes only the first ``iterations`` BO iterations of a loop (its per-evaluation
    arrays are then a prefix of the full run's, as the spot-check test compares them); the other computations do
    not iterate and ignore it.
    """
    return without_settings(_compute(config, iterations), config)


def _compute(config, iterations):
    experiment = config["experiment"]
    if experiment == "overview":
        return acquisition.overview_arrays(config["n_points"], config["n_grid"], config["beta"])
    if experiment == "ucb":
        return acquisition.ucb_arrays(config["beta"], config["n_points"], config["n_grid"])
    if experiment == "improvement":
        return acquisition.improvement_arrays(config["xi"], config["n_points"], config["n_grid"])
    if experiment == "thompson":
        return acquisition.thompson_arrays(config["n_draws"], config["n_points"], config["n_grid"])
    if experiment == "maximizer_view":
        return acquisition.maximizer_view_arrays(config["view_budget"], config["seed"], config["n_grid"])
    if experiment == "loop":
        n_iterations = config["n_iterations"] if iterations is None else min(iterations, config["n_iterations"])
        return acquisition.loop_arrays(config["acquisition"], config["parameter"], config["seed"], config["n_init"],
                                       n_iterations, config["direct_evals"])
    if experiment == "maximizer":
        found = [acquisition.maximize(config["problem"], config["method"], size, config["seed"])
                 for size in config["sizes"]]
        return {"evaluations": np.array([result["evaluations"] for result in found]),
                "found": np.array([result["found"] for result in found])}
    if experiment == "reference":
        return acquisition.reference_maximum(config["problem"], n_candidates=config["budget"])
    raise ValueError(f"unknown experiment {experiment!r} of {PAPER}")
