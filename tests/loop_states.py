"""What one BO iteration decides at states of recorded runs: the fitted hyperparameters and the next query.

A faster loop must stay the same method: at the same data it must find the
same maximum-likelihood optimum (up to the optimizer's tolerance) and, given
the same hyperparameters, the same argmax of the acquisition. This module
computes both for states (the data after n evaluations) taken from runs of
bo_basics' quick grid, whose GP-UCB/EI/PI methods (Matérn-5/2 ARD, MLE with a
warm start and one restart, DIRECT) are the loop every paper builds on.

    python tests/loop_states.py   # records tests/data/loop_states.npz with the code checked out

The committed file was recorded before the loop was made faster (commit
b3b1f60); ``tests/test_loop_states.py`` compares today's code with it.
"""
from pathlib import Path

import common  # noqa: F401  (one BLAS thread before numpy loads)
import numpy as np

from common.experiments import bo_basics
from common.gp import GaussianProcess

RECORDED = Path(__file__).parent / "data" / "loop_states.npz"
# (problem, method, seed) of the quick grid, and the numbers of evaluations n at which the state is taken.
RUNS = [("branin", "UCB", 0), ("branin", "EI", 1), ("hartmann6", "UCB", 0), ("hartmann6", "EI", 1),
        ("hartmann6", "PI", 2)]
SIZES = (8, 16, 24, 32, 40)


def quick_config(problem, method, seed):
    """The configuration of bo_basics' quick grid for one run."""
    configs = bo_basics.make_grid(bo_basics.SCALES["quick"])
    return next(c for c in configs if (c["problem"], c["method"], c["seed"]) == (problem, method, seed))


def decide(config, X, y, theta=None):
    """One iteration of the run's method at data (X, y): fitted theta, its log-likelihood, and the query.

    With ``theta`` the hyperparameters are set rather than fitted, so that the
    query is compared at equal hyperparameters.
    """
    objective = bo_basics.make_problem(config["problem"])
    method = bo_basics.make_method(config, objective.bounds)
    rng = np.random.default_rng(0)
    if theta is None:
        gp = method.fit_model(X, y, rng)
    else:
        gp = GaussianProcess(method.kernel.with_theta(theta), **method.gp_options).fit(X, y)
    acquisition = method.make_acquisition(len(y) - config["n_init"] + 1, best=np.max(y))
    return gp.theta, gp.log_marginal_likelihood(), method.maximize(acquisition, gp, rng)


def record(path=RECORDED):
    """Run every state through :func:`decide` and save the data with the decisions."""
    arrays = {}
    for problem, method, seed in RUNS:
        config = quick_config(problem, method, seed)
        run = bo_basics.run(config)
        for n in SIZES:
            name = f"{problem}_{method}_{seed}_{n}"
            X, y = run["X"][:n], run["y"][:n]
            theta, likelihood, query = decide(config, X, y)
            arrays.update({f"{name}/X": X, f"{name}/y": y, f"{name}/theta": theta,
                           f"{name}/likelihood": likelihood, f"{name}/query": query})
    path.parent.mkdir(parents=True, exist_ok=True)
    np.savez_compressed(path, **arrays)
    print(f"recorded {len(RUNS) * len(SIZES)} states in {path}")


if __name__ == "__main__":
    record()
