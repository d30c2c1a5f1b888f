"""A tiny deterministic experiment for the runner, claims and reproduce tests.

Module-level functions, so loky and Dask workers can import them; it also
follows the experiment-registry protocol of :mod:`common.experiments` (NOTEBOOK,
TITLE, OUTPUTS, SCALES, make_grid) so ``reproduce.py --list`` can be tested.
"""
import os
import time
from pathlib import Path

import numpy as np

from common.seeding import make_rng

CODE_VERSION = 1
PAPER = "toy"
NOTEBOOK = "toy.ipynb"
TITLE = "Toy experiment"
OUTPUTS = ["Fig. 1"]
SCALES = {"smoke": {"n_seeds": 2, "budget": 5}, "quick": {"n_seeds": 3, "budget": 8},
          "paper": {"n_seeds": 4, "budget": 8}}
ALLOWED = {"budget": range(1, 1000), "n_seeds": range(1, 101)}
PUBLISHED = {"scale": "smoke", "budget": 4}


def make_grid(params):
    """Two methods x ``n_seeds`` seeds of the toy run."""
    return [toy_config(seed, method=method, budget=params["budget"])
            for method in ("a", "b") for seed in range(params["n_seeds"])]


def run(config, iterations=None):
    """The toy run (the protocol's name for it)."""
    return toy_run(config)


def toy_config(seed, method="a", budget=6):
    return {"paper": "toy", "experiment": "noise", "method": method, "budget": budget, "seed": seed}


def toy_run(config):
    """Random-search-like trace whose values pass through a BLAS solve (thread-count sensitive)."""
    rng = make_rng(config["paper"], config["experiment"], config["method"], config["seed"])
    budget = config["budget"]
    X = rng.uniform(size=(budget, 3))
    gram = X @ X.T + np.eye(budget)
    y = np.linalg.solve(gram, rng.standard_normal(budget))
    return {"X": X, "y": y, "best_so_far": np.maximum.accumulate(y), "final": float(y.max()),
            "n_unique": budget, "label": f"method {config['method']}"}


COMPUTED = []   # (method, seed) of every recording_run call in this process, in order


def recording_run(config):
    """The toy run, noting which configuration ran (for tests of the order of computation)."""
    COMPUTED.append((config["method"], config["seed"]))
    return toy_run(config)


def slow_run(config):
    """The toy run, taking a quarter of a second (for concurrency tests)."""
    time.sleep(0.25)
    return toy_run(config)


def hanging_run(config):
    """Never returns (for tests that kill the process running it); first leaves a file named after its
    process in the folder ``TOY_STARTED_DIR`` names, if it is set, so that a test knows it is running."""
    if os.environ.get("TOY_STARTED_DIR"):
        Path(os.environ["TOY_STARTED_DIR"], str(os.getpid())).touch()
    while True:
        time.sleep(0.1)


def failing_run(config):
    """The toy run, except that seed 2 raises."""
    if config["seed"] == 2:
        raise ZeroDivisionError("toy failure at seed 2")
    return toy_run(config)


def interrupted_run(config):
    """The toy run, except that seed 3 is 'killed' (KeyboardInterrupt, as from Ctrl-C)."""
    if config["seed"] == 3:
        raise KeyboardInterrupt
    return toy_run(config)


def list_result_run(config):
    """Returns a list where an array is required."""
    return {"y": [1.0, 2.0]}
