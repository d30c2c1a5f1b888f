"""Experiments of the teaching notebook ``bo_basics``: BO against random search on two test functions.

The benchmark runs GP-based BO with several acquisition functions (GP-UCB, EI,
PI, optionally Thompson sampling) and a random-search baseline on test
functions seen on the unit cube [0, 1]^d, for several seeds. Every method of one
(function, seed) starts from the same random initial design (common random
numbers), so that differences between methods are not differences of luck at
the start.

The GP model is the same for every acquisition: a Matérn-5/2 ARD kernel on
standardized observations, a fixed tiny noise variance (the functions are
noise-free), hyperparameters refitted by maximum likelihood every iteration, and
the acquisition maximized by DIRECT.

The notebook's 1-D illustrations use :func:`common.teaching.forrester`.
"""
import time

import numpy as np

from common import paths, store
from common.bo import BayesianOptimization, GPAcquisitionMethod, RandomSearch, run_bo
from common.gp import GaussianProcess
from common.metrics import simple_regret
from common.seeding import make_rng
from common.teaching import FORRESTER_BOUNDS, TEACHING_X0, ThompsonSampling, forrester, make_kernel
from common.test_functions import get_test_function, on_unit_cube

PAPER = "bo_basics"
# Raise whenever a change alters the numbers of a run; cached runs of another version are recomputed.
CODE_VERSION = 2  # 2: the faster GP likelihood and DIRECT bookkeeping (same method, other rounding)
NOTEBOOK = "bo_basics.ipynb"
TITLE = "Bayesian optimization basics: GP posterior, acquisitions, BO vs random search (teaching notebook)"
OUTPUTS = ["gp_posterior", "acquisitions", "bo_loop", "regret", "final_regret (table)"]

FUNCTIONS = ("branin", "hartmann6", "dropwave", "eggholder")
FUNCTION_LABELS = {"branin": "Branin (d = 2)", "hartmann6": "Hartmann-6 (d = 6)", "dropwave": "Drop-wave (d = 2)",
                   "eggholder": "Eggholder (d = 2)"}
ACQUISITIONS = ("UCB", "EI", "PI", "TS")
BASELINE = "random"

SCALES = {
    "smoke": {"functions": ["branin", "hartmann6"], "acquisitions": ["UCB", "EI", "PI"], "n_seeds": 2,
              "n_init": 3, "n_iterations": 3, "direct_evals_per_dim": 30},
    "quick": {"functions": ["branin", "hartmann6"], "acquisitions": ["UCB", "EI", "PI"], "n_seeds": 8,
              "n_init": 5, "n_iterations": 40, "direct_evals_per_dim": 150},
    "paper": {"functions": ["branin", "hartmann6"], "acquisitions": ["UCB", "EI", "PI"], "n_seeds": 20,
              "n_init": 5, "n_iterations": 80, "direct_evals_per_dim": 250},
}
ALLOWED = {
    "functions": FUNCTIONS, "acquisitions": ACQUISITIONS, "n_seeds": range(1, 101), "n_init": range(1, 101),
    "n_iterations": range(1, 1001), "direct_evals_per_dim": range(1, 100_001),
}
# What `python reproduce.py` regenerates and the repository publishes.
PUBLISHED = {"scale": "quick"}

# beta_t = 0.2 d log(2t) (Kandasamy et al. 2015): the Srinivas et al. schedule is
# valid for the theory but explores far more than these small budgets allow.
UCB_BETA = "kandasamy"


def make_config(function, method, seed, params):
    """The configuration of one run: everything that determines its result."""
    config = {"paper": PAPER, "experiment": "benchmark", "problem": function, "method": method,
              "n_init": params["n_init"], "n_iterations": params["n_iterations"], "seed": seed}
    if method != BASELINE:
        dim = make_problem(function).dim
        config.update(kernel="matern52_ard", direct_evals=params["direct_evals_per_dim"] * dim)
    if method == "UCB":
        config["beta"] = UCB_BETA
    return config


def make_grid(params):
    """Functions x (acquisitions + random search) x seeds, for resolved parameters."""
    return [make_config(function, method, seed, params)
            for function in params["functions"]
            for method in [*params["acquisitions"], BASELINE]
            for seed in range(params["n_seeds"])]


def make_problem(function):
    """The test function ``function`` (a name of :data:`FUNCTIONS`) seen on [0, 1]^d."""
    if function not in FUNCTIONS:
        raise ValueError(f"function must be one of {FUNCTIONS}; got {function!r}")
    return on_unit_cube(get_test_function(function))


def make_method(config, bounds):
    """The method of a configuration: random search, or GP + acquisition + DIRECT."""
    method = config["method"]
    if method == BASELINE:
        return RandomSearch(bounds, name=BASELINE)
    if method not in ACQUISITIONS:
        raise ValueError(f"config['method'] must be one of {[*ACQUISITIONS, BASELINE]}; got {method!r}")
    options = dict(noise_variance=1e-6, y_transform="standardize", mle_restarts=1, optimizer="direct",
                   optimizer_options={"max_evals": config["direct_evals"]}, name=method)
    kernel = make_kernel(len(bounds))
    if method == "TS":
        # The acquisition named here is never used: propose maximizes a posterior draw instead.
        return ThompsonSampling(kernel, bounds, acquisition="mean", **options)
    return GPAcquisitionMethod(kernel, bounds, acquisition=method, beta=config.get("beta", UCB_BETA), **options)


def run(config, iterations=None):
    """One BO (or random-search) run; per-evaluation traces for the result store.

    ``iterations``, if given, computes only the first ``iterations`` BO
    iterations: nothing in a run depends on its budget, so every per-evaluation
    result is then a prefix of the full run's (what the spot-check test uses).

    Returns
    -------
    dict
        ``X`` (n, d) queries on the unit cube, and per evaluation ``y`` (the
        value), ``best_so_far``, ``regret`` (simple regret f* - best so far),
        ``iteration`` (0 for the initial design) and ``wall_time`` (seconds of
        the proposal); ``likelihood_failures``, a count over the run (0 for random search).
    """
    objective = make_problem(config["problem"])
    repetition = (PAPER, config["experiment"], config["problem"], config["seed"])
    record = run_bo(objective, objective.bounds, make_method(config, objective.bounds),
                    config["n_init"], config["n_iterations"] if iterations is None
                    else min(iterations, config["n_iterations"]),
                    init_rng=make_rng(*repetition, "initial design"),  # shared by every method of a repetition
                    method_rng=make_rng(*repetition, config["method"], "method"))
    return {"X": record["X"], "y": record["y"], "best_so_far": record["best_so_far"],
            "regret": simple_regret(record["f"], objective.optimal_value),
            "iteration": record["iteration"], "wall_time": record["wall_time"],
            "likelihood_failures": record.get("likelihood_failures", 0)}


# --------------------------------------------------------------------------- the 1-D teaching figures
#: The teaching figures' computations as one cached run (:func:`teaching_arrays`): drawn from stored arrays, the
#: figures come out the same on every CPU, whose BLAS kernels change a fitted GP's last bits (and a figure's pixels).
TEACHING_CONFIG = {"paper": PAPER, "experiment": "teaching", "problem": "forrester", "n_grid": 501,
                   "n_iterations": 9, "seed": 0}
#: Where that run is kept: a committed cache of its own, since it holds arrays to draw, not a benchmark's runs.
TEACHING_ROOT = paths.repo_root() / "data" / "teaching"


def teaching_gp(X, y):
    """The GP of the teaching figures: Matérn-5/2 on standardized observations, noise variance 1e-6,
    hyperparameters by maximum marginal likelihood (5 restarts)."""
    gp = GaussianProcess(make_kernel(1), noise_variance=1e-6, y_transform="standardize").fit(X, y)
    return gp.fit_hyperparameters(make_rng(PAPER, "teaching", "hyperparameters"), n_restarts=5)


def teaching_loop_method():
    """EI maximized by DIRECT (200 evaluations), on the teaching GP's kernel, hyperparameters refitted each step."""
    return GPAcquisitionMethod(make_kernel(1), FORRESTER_BOUNDS, acquisition="EI", y_transform="standardize",
                               optimizer="direct", optimizer_options={"max_evals": 200})


def teaching_run(config, iterations=None):
    """The computations of the teaching figures on the Forrester function, as a run of the result store.

    The posterior of :func:`teaching_gp` after :data:`TEACHING_X0` on a grid of ``n_grid`` points, three posterior
    samples and one Thompson draw; then ``n_iterations`` (or ``iterations``) steps of the EI loop of
    :func:`teaching_loop_method`, each with the posterior and EI it saw and the query it chose.

    Returns
    -------
    dict
        ``grid``, ``mean``, ``std``, ``thompson`` (n_grid,), ``samples`` (3, n_grid), the fitted ``lengthscale``,
        ``variance`` and ``log_marginal_likelihood``; per loop step ``loop_mean``, ``loop_std``, ``loop_ei``
        (steps, n_grid) and ``loop_next`` (steps,); the loop's ``loop_X``, ``loop_y`` and ``loop_iterations``.
    """
    grid = np.linspace(0.0, 1.0, config["n_grid"])[:, None]
    X0, y0 = TEACHING_X0, forrester(TEACHING_X0)
    gp = teaching_gp(X0, y0)
    mean, std = gp.predict(grid, return_std=True)
    samples = gp.sample(grid, 3, make_rng(PAPER, "teaching", "posterior samples"))
    thompson = gp.sample(grid, 1, make_rng(PAPER, "teaching", "thompson"))[0]

    method = teaching_loop_method()
    loop = BayesianOptimization(FORRESTER_BOUNDS, method, make_rng(PAPER, "teaching", "loop"))
    loop.tell(X0, y0)
    steps = {"loop_mean": [], "loop_std": [], "loop_ei": [], "loop_next": []}
    n_steps = config["n_iterations"] if iterations is None else min(iterations, config["n_iterations"])
    for _ in range(n_steps):
        best = loop.y.max()
        x_next = loop.ask()
        step_mean, step_std = method.last_gp.predict(grid, return_std=True)
        steps["loop_mean"].append(step_mean)
        steps["loop_std"].append(step_std)
        steps["loop_ei"].append(method.make_acquisition(loop.iteration, best=best)(method.last_gp, grid))
        steps["loop_next"].append(x_next[0, 0])
        loop.tell(x_next, forrester(x_next))
    return {"grid": grid[:, 0], "mean": mean, "std": std, "samples": samples, "thompson": thompson,
            "lengthscale": float(gp.kernel.lengthscale[0]), "variance": float(gp.kernel.variance),
            "log_marginal_likelihood": float(gp.log_marginal_likelihood()),
            **{name: np.array(values) for name, values in steps.items()},
            "loop_X": loop.X[:, 0], "loop_y": loop.y, "loop_iterations": loop.iterations}


def teaching_arrays():
    """The result of :func:`teaching_run` at :data:`TEACHING_CONFIG`: read from :data:`TEACHING_ROOT`, computed
    and stored there where it is missing (or computed by another ``CODE_VERSION``).

    Returns
    -------
    dict
        See :func:`teaching_run`.
    """
    run = store.cached_run(TEACHING_CONFIG, CODE_VERSION, root=TEACHING_ROOT)
    if run is None:
        start, cpu_start = time.perf_counter(), time.process_time()
        result = teaching_run(TEACHING_CONFIG)
        run = store.save_run(TEACHING_CONFIG, result, time.perf_counter() - start,
                             cpu_seconds=time.process_time() - cpu_start, code_version=CODE_VERSION,
                             root=TEACHING_ROOT)
    return run.result


# --------------------------------------------------------------------------- drawing helpers of the notebook
def plot_posterior(ax, x, mean, std, X, y, objective=None, n_std=2.0):
    """Draw a 1-D GP posterior: mean, a band of ± ``n_std`` standard deviations, the data.

    Parameters
    ----------
    ax : matplotlib.axes.Axes
    x : ndarray of shape (m,)
        The points of the grid.
    mean, std : ndarray of shape (m,)
        The posterior mean and standard deviation there.
    X, y : the observations, shapes (n,) or (n, 1), and (n,)
    objective : callable, optional
        Drawn dashed, for comparison.
    n_std : float
    """
    X = np.asarray(X).reshape(-1)
    if objective is not None:
        ax.plot(x, objective(x[:, None]), "k--", lw=1, label="objective f")
    ax.plot(x, mean, color="C0", label=r"posterior mean $\mu$")
    ax.fill_between(x, mean - n_std * std, mean + n_std * std, color="C0", alpha=0.2, lw=0,
                    label=rf"$\mu \pm {n_std:g}\sigma$")
    ax.plot(X, y, "o", color="k", ms=4, label="observations")


def plot_acquisition(ax, x, values, label, color="C1"):
    """Draw an acquisition function at the points ``x`` (shape (m,)) and mark its maximizer with a triangle."""
    best = int(np.argmax(values))
    ax.plot(x, values, color=color, label=label)
    ax.plot(x[best], values[best], "v", color=color, ms=7)
    return x[best]
