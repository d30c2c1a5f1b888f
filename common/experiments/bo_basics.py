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

The notebook's 1-D illustrations use :func:`forrester`.
"""
import numpy as np

from common.acquisitions import thompson_sample
from common.bo import GPAcquisitionMethod, RandomSearch, run_bo
from common.kernels import Matern
from common.metrics import simple_regret
from common.optimizers import direct_maximize
from common.seeding import make_rng
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
THOMPSON_FEATURES = 500


def forrester(X):
    r"""The 1-D function of Forrester et al. (2008), negated so that it is maximized.

    .. math:: f(x) = -(6x - 2)^2 \sin(12x - 4), \qquad x \in [0, 1],

    with its global maximum f = 6.0207... at x = 0.7572..., a local maximum near
    x = 0.14 and a plateau near x = 0.4: small enough to plot, multimodal
    enough to fool a greedy search.

    Parameters
    ----------
    X : array-like of shape (n, 1)

    Returns
    -------
    ndarray of shape (n,)
    """
    x = np.asarray(X, dtype=float).reshape(-1)
    return -((6.0 * x - 2.0) ** 2) * np.sin(12.0 * x - 4.0)


FORRESTER_BOUNDS = np.array([[0.0, 1.0]])


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


def make_kernel(dim):
    """Matérn-5/2 ARD prior for standardized observations on the unit cube."""
    return Matern(2.5, lengthscale=np.full(dim, 0.2), lengthscale_bounds=(1e-2, 1e1),
                  variance_bounds=(1e-2, 1e2))


class ThompsonSampling(GPAcquisitionMethod):
    """GP-TS: maximize one function drawn from the posterior (random-feature approximation).

    The draw f~ ~ GP posterior replaces the acquisition: x_{t+1} = argmax f~(x),
    found by DIRECT like the other acquisitions' maxima.
    """

    def propose(self, X, y, iteration, rng):
        gp = self.fit_model(X, y, rng)
        self.last_gp = gp
        draw = thompson_sample(gp, rng, n_features=THOMPSON_FEATURES)
        return direct_maximize(draw, self.bounds, **self.optimizer_options).x[None, :]


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


# --------------------------------------------------------------------------- drawing helpers of the notebook
def plot_posterior(ax, grid, gp, X, y, objective=None, n_std=2.0):
    """Draw a 1-D GP posterior: mean, a band of ± ``n_std`` standard deviations, the data.

    Parameters
    ----------
    ax : matplotlib.axes.Axes
    grid : ndarray of shape (m, 1)
    gp : fitted :class:`~common.gp.GaussianProcess`
    X, y : the observations, shapes (n, 1) and (n,)
    objective : callable, optional
        Drawn dashed, for comparison.
    n_std : float
    """
    mean, std = gp.predict(grid, return_std=True)
    x = grid[:, 0]
    if objective is not None:
        ax.plot(x, objective(grid), "k--", lw=1, label="objective f")
    ax.plot(x, mean, color="C0", label=r"posterior mean $\mu$")
    ax.fill_between(x, mean - n_std * std, mean + n_std * std, color="C0", alpha=0.2, lw=0,
                    label=rf"$\mu \pm {n_std:g}\sigma$")
    ax.plot(X[:, 0], y, "o", color="k", ms=4, label="observations")


def plot_acquisition(ax, grid, values, label, color="C1"):
    """Draw an acquisition function on ``grid`` and mark its maximizer with a triangle."""
    x = grid[:, 0]
    best = int(np.argmax(values))
    ax.plot(x, values, color=color, label=label)
    ax.plot(x[best], values[best], "v", color=color, ms=7)
    return x[best]
