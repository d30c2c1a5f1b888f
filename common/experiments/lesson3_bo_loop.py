"""Lesson 3 of the course, the BO loop in practice: its notebook's scales and the computations it caches.

The lesson (``notebooks/lesson3_bo_loop.ipynb``) draws every figure from arrays computed once by :func:`run` and
kept in the result store like any run (``data/results/lesson3_bo_loop/``): initial designs and their space-filling
measures, a step-through of one EI loop (hyperparameters refitted or fixed, with and without noise), noisy loops
and what they report, a batch chosen by fantasies, and a small benchmark on Branin whose methods are compared seed
by seed. Drawn from stored arrays, the figures do not depend on the last bits of the machine's BLAS; what each
computation does is in :mod:`common.lessons.bo_loop`.

Every configuration carries a budget (:data:`common.runner.BUDGET_FIELDS`), which the runner's cost estimates
scale with: a loop's ``n_iterations``, else ``budget``, the evaluations or points a computation makes.
"""
import numpy as np

from common.lessons import bo_loop, stored_arrays, without_settings

PAPER = "lesson3_bo_loop"
# Raise whenever a change alters the numbers of a run; cached runs of another version are recomputed.
CODE_VERSION = 1
NOTEBOOK = "lesson3_bo_loop.ipynb"
TITLE = "Lesson 3 of the course: the BO loop in practice (designs, refitting, noise, batches, honest comparisons)"
OUTPUTS = ["designs", "design_quality", "loop_step", "hyperparameters", "loop_noisy", "batch", "regret",
           "paired", "final_regret (table)", "comparisons (table)"]
#: A lesson of the course, not a paper: no claims, no scorecard section.
KIND = "lesson"
#: Every cached run is spot-checked (tests/test_notebooks.py), not one per experiment: they take seconds, and a few
#: cells would let one run that a near-tie of the last bits sends elsewhere fail the whole check.
CELL_FIELDS = None


def _noise_std(value):
    """a noise standard deviation in (0, 10]"""
    return 0 < value <= 10


def _noise_stds(values):
    """a list of noise standard deviations in (0, 10]"""
    return all(_noise_std(value) for value in values)


SCALES = {
    "smoke": {"n_grid": 101, "design_sizes": [4, 16], "n_design_seeds": 3, "n_steps": 4, "step_noise": 1.0,
              "noise_stds": [1.0], "n_noise_seeds": 3, "noise_iterations": 5, "batch_q": 3,
              "methods": list(bo_loop.METHODS), "n_seeds": 3, "n_init": 5, "n_evaluations": 13, "q": 4,
              "direct_evals": 100},
    "quick": {"n_grid": 201, "design_sizes": [4, 8, 16, 32, 64], "n_design_seeds": 50, "n_steps": 10,
              "step_noise": 1.0, "noise_stds": [0.5, 2.0], "n_noise_seeds": 20, "noise_iterations": 15,
              "batch_q": 4, "methods": list(bo_loop.METHODS), "n_seeds": 10, "n_init": 5, "n_evaluations": 45,
              "q": 4, "direct_evals": 300},
    "paper": {"n_grid": 401, "design_sizes": [4, 8, 16, 32, 64, 128], "n_design_seeds": 200, "n_steps": 10,
              "step_noise": 1.0, "noise_stds": [0.5, 2.0], "n_noise_seeds": 50, "noise_iterations": 15,
              "batch_q": 4, "methods": list(bo_loop.METHODS), "n_seeds": 30, "n_init": 5, "n_evaluations": 65,
              "q": 4, "direct_evals": 300},
}
ALLOWED = {
    "n_grid": range(11, 2002), "design_sizes": range(2, 1025), "n_design_seeds": range(1, 1001),
    "n_steps": range(1, 31), "step_noise": _noise_std, "noise_stds": _noise_stds,
    "n_noise_seeds": range(1, 201), "noise_iterations": range(1, 101), "batch_q": range(1, 9),
    "methods": list(bo_loop.METHODS), "n_seeds": range(2, 201), "n_init": range(1, 51),
    "n_evaluations": range(2, 501), "q": range(1, 17), "direct_evals": range(10, 10_001),
}
# What `python reproduce.py` regenerates and the repository publishes.
PUBLISHED = {"scale": "quick"}
#: The benchmark's panels: the methods each draws (at most three: three bands stay readable).
REGRET_PANELS = {"acquisitions and a baseline": ["EI", "UCB", "random"],
                 "design and hyperparameters": ["EI", "EI-LHS", "EI-fixed"],
                 "batches, by evaluations": ["EI", "KB-EI"]}


# --------------------------------------------------------------------------- the computations' configurations
def designs_config(params, n_points):
    """The three designs of ``n_points`` points (seed 0): a frame of the designs player."""
    return {"paper": PAPER, "experiment": "designs", "problem": "unit square", "n_points": int(n_points),
            "budget": int(n_points), "seed": 0}


def design_study_config(params, kind, n_points):
    """The space-filling measures of ``n_design_seeds`` designs of one kind and size."""
    return {"paper": PAPER, "experiment": "design_study", "problem": "unit square", "method": kind,
            "n_points": int(n_points), "n_designs": params["n_design_seeds"],
            "budget": int(n_points) * params["n_design_seeds"], "seed": 0}


def steps_config(params, refit=True, noise_std=0.0):
    """The step-through of the EI loop on the Forrester function."""
    return {"paper": PAPER, "experiment": "steps", "problem": "forrester", "refit": bool(refit),
            "noise_std": float(noise_std), "n_steps": params["n_steps"], "n_grid": params["n_grid"],
            "n_iterations": params["n_steps"], "seed": 0}


def step_runs(params):
    """The step-through's three runs: refitted, fixed, and refitted with noise."""
    return {"refitted, noise-free": steps_config(params, True, 0.0),
            "fixed, noise-free": steps_config(params, False, 0.0),
            f"refitted, noise σ_n = {params['step_noise']:g}": steps_config(params, True, params["step_noise"])}


def noise_config(params, noise_std, seed):
    """One noisy EI loop on the Forrester function."""
    return {"paper": PAPER, "experiment": "noise", "problem": "forrester", "method": f"EI, noise {noise_std:g}",
            "noise_std": float(noise_std), "n_init": 4, "n_iterations": params["noise_iterations"],
            "seed": int(seed)}


def batch_config(params):
    """A batch of ``batch_q`` points chosen by the kriging believer on lesson 2's posterior."""
    return {"paper": PAPER, "experiment": "batch", "problem": "forrester", "q": params["batch_q"],
            "lie": "believer", "n_grid": params["n_grid"], "budget": params["batch_q"], "seed": 0}


def benchmark_config(params, method, seed):
    """One run of the benchmark on Branin."""
    return {"paper": PAPER, "experiment": "benchmark", "problem": "branin", "method": method,
            "n_init": params["n_init"], "budget": params["n_evaluations"], "q": params["q"],
            "direct_evals": params["direct_evals"], "seed": int(seed)}


def make_grid(params):
    """Every computation the notebook draws, for resolved parameters."""
    return [*[designs_config(params, n_points) for n_points in params["design_sizes"]],
            *[design_study_config(params, kind, n_points) for kind in bo_loop.DESIGN_NAMES
              for n_points in params["design_sizes"]],
            *step_runs(params).values(),
            *[noise_config(params, noise_std, seed) for noise_std in params["noise_stds"]
              for seed in range(params["n_noise_seeds"])],
            batch_config(params),
            *[benchmark_config(params, method, seed) for method in params["methods"]
              for seed in range(params["n_seeds"])]]


# --------------------------------------------------------------------------- what the notebook draws, from the store
def design_study(params):
    """``{kind: {measure: array (sizes, seeds)}}`` from the store."""
    study = {}
    for kind in bo_loop.DESIGN_NAMES:
        runs = [stored_arrays(design_study_config(params, kind, n_points)) for n_points in params["design_sizes"]]
        study[kind] = {measure: np.array([run[measure] for run in runs])
                       for measure in ("discrepancy", "fill_distance", "min_distance")}
    return study


def noise_study(params):
    """``{noise std: {"observed": final regrets (seeds,), "mean": final regrets (seeds,)}}`` from the store."""
    study = {}
    for noise_std in params["noise_stds"]:
        runs = [stored_arrays(noise_config(params, noise_std, seed)) for seed in range(params["n_noise_seeds"])]
        study[noise_std] = {rule: np.array([run[f"regret_{rule}"] for run in runs]) for rule in ("observed", "mean")}
    return study


def benchmark(params):
    """``{method: {"regret": (seeds, evaluations), "round": (evaluations,)}}`` from the store, every run cut to the
    evaluation budget."""
    found = {}
    for method in params["methods"]:
        runs = [stored_arrays(benchmark_config(params, method, seed)) for seed in range(params["n_seeds"])]
        found[method] = {"regret": np.array([run["regret"][:params["n_evaluations"]] for run in runs]),
                         "round": runs[0]["round"][:params["n_evaluations"]]}
    return found


def method_label(params, method):
    """How the figures and tables name a benchmark method, e.g. "EI, batches of 4 (kriging believer)"."""
    return f"EI, batches of {params['q']} (kriging believer)" if method == "KB-EI" else bo_loop.METHODS[method]


def by_rounds(entry):
    """A method's regrets at the end of each round (the initial design is round 0): ``(rounds, regrets of shape
    (seeds, rounds))`` from an entry of :func:`benchmark`."""
    rounds = entry["round"]
    last = np.flatnonzero(np.r_[rounds[1:] != rounds[:-1], True])  # the last evaluation of every round
    return rounds[last], entry["regret"][:, last]


def regret_panels(params, found):
    """The regret figure's panels (:func:`common.lessons.bo_loop.draw_regret`) from :func:`benchmark`'s runs: those
    of :data:`REGRET_PANELS` against evaluations, and the batch against BO rounds."""
    evaluations = np.arange(1, params["n_evaluations"] + 1)
    panels = {title: ("evaluations", {method_label(params, method): (evaluations, found[method]["regret"])
                                      for method in methods if method in found})
              for title, methods in REGRET_PANELS.items()}
    batch = {method_label(params, method): by_rounds(found[method]) for method in ("EI", "KB-EI") if method in found}
    panels["batches, by rounds (wall-clock time)"] = ("BO rounds (0: the initial design)", batch)
    return {title: panel for title, panel in panels.items() if panel[1]}


# --------------------------------------------------------------------------- computing
def run(config, iterations=None):
    """One of the lesson's computations (``config["experiment"]``), as a dict of arrays for the result store (its
    settings are in ``config``).

    ``iterations``, given, computes only the first ``iterations`` BO rounds of a benchmark or noisy loop (their
    per-evaluation arrays are then a prefix of the full run's, as the spot-check test compares them); the other
    computations ignore it.
    """
    return without_settings(_compute(config, iterations), config)


def _compute(config, iterations):
    experiment = config["experiment"]
    if experiment == "designs":
        arrays = bo_loop.designs_arrays(config["n_points"], config["seed"])
        return {name: value for name, value in arrays.items() if name not in ("n_points", "seed")}
    if experiment == "design_study":
        return bo_loop.design_study_arrays(config["method"], config["n_points"], config["n_designs"])
    if experiment == "steps":
        return bo_loop.steps_arrays(config["n_steps"], config["refit"], config["noise_std"], config["n_grid"])
    if experiment == "noise":
        n_iterations = config["n_iterations"] if iterations is None else min(iterations, config["n_iterations"])
        return bo_loop.noisy_loop_arrays(config["noise_std"], config["seed"], config["n_init"], n_iterations)
    if experiment == "batch":
        return bo_loop.batch_arrays(config["q"], config["lie"], n_grid=config["n_grid"])
    if experiment == "benchmark":
        return bo_loop.benchmark_arrays(config["method"], config["seed"], config["n_init"], config["budget"],
                                        config["q"], config["direct_evals"], rounds=iterations)
    raise ValueError(f"unknown experiment {experiment!r} of {PAPER}")
