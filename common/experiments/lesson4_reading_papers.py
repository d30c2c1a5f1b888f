"""Lesson 4 of the course, reading BO papers: its notebook's scales, the computations it caches, and the arena's
runs it reads.

The lesson (``notebooks/lesson4_reading_papers.ipynb``) draws its pictures of the five papers' ideas from arrays
computed once by :func:`run` and kept in the result store like any run (``data/results/lesson4_reading_papers/``):
the pseudo-point posteriors at the positions of their player, EXPLOIT and EXPLOIT+ on the 1-D Rastrigin function
over seeds, the additive and the full GP's errors over random designs, the ensemble's weights as points arrive, and
MINI-GP-UCB's epochs at several C. What each computation does is in :mod:`common.lessons.reading_papers`.

Its last section reads the arena's runs (:mod:`common.experiments.arena`, each paper's idea switched on and off
inside its own method, and the whole methods): at the quick and paper scales only what the arena's cache holds
(``arena_source = "cached"``: never computed here; the notebook prints how many of the planned runs it found), at
the smoke scale a tiny arena grid computed on the spot (``"computed"``), so that the lesson runs on an empty cache.

Its configurations carry a ``budget`` (the runner's cost estimates scale with it): the points a computation
evaluates or draws.
"""
from common import store
from common.experiments import arena, arena_methods, arena_suite
from common.lessons import reading_papers, without_settings

PAPER = "lesson4_reading_papers"
# Raise whenever a change alters the numbers of a run; cached runs of another version are recomputed.
CODE_VERSION = 1
NOTEBOOK = "lesson4_reading_papers.ipynb"
TITLE = "Lesson 4 of the course: reading BO papers (claims and verdicts, five ideas in pictures, the arena)"
OUTPUTS = ["claim_example", "pseudo_points", "exploration", "additive_view", "additive_errors", "ensemble",
           "epochs", "ideas_on_off"]
#: A lesson of the course, not a paper: no claims, no scorecard section.
KIND = "lesson"
#: Every cached run is spot-checked (tests/test_notebooks.py), not one per experiment: they take seconds, and a few
#: cells would let one run that a near-tie of the last bits sends elsewhere fail the whole check.
CELL_FIELDS = None
#: The share of its runs that may leave the spot-check's rtol under other kernels than the cache's: measured under
#: Haswell's, 18 of 71 (16 of 40 EXPLOIT and EXPLOIT+ runs on the 1-D Rastrigin, which near-ties of the greedy
#: acquisition send to other points, and 2 of 8 additive-error fits).
SPOT_CHECK_DIVERGED_SHARE = 0.35
#: Where the arena's runs come from: its cache only, or a tiny grid computed here (smoke).
ARENA_SOURCES = ("cached", "computed")
#: The methods of a computed arena grid: every method but the library peers (optional packages).
COMPUTED_ARENA_METHODS = [name for name in arena_methods.METHODS if name not in arena_methods.LIBRARIES]


def _taus(values):
    """a list of pseudo-point distances in [0, 0.5]"""
    return all(0 <= value <= 0.5 for value in values)


def _thresholds(values):
    """a list of thresholds C in (1, 5]"""
    return all(1 < value <= 5 for value in values)


def _sizes(values):
    """a list of design sizes in 2..500"""
    return all(2 <= value <= 500 for value in values)


def _ensemble_frames(values):
    """a list of numbers of points in 0..16"""
    return all(0 <= value <= reading_papers.ENSEMBLE_MAX_POINTS for value in values)


SCALES = {
    "smoke": {"n_grid": 101, "taus": [0.0, 0.0001, 0.01], "exploration_seeds": 2, "exploration_budget": 12,
              "additive_sizes": [5, 20], "additive_seeds": 2, "additive_points": 10, "ensemble_frames": [0, 4, 16],
              "thresholds": [1.1, 2.0], "epoch_steps": 100, "arena_source": "computed",
              "arena_problems": ["Branin", "Hartmann-6"], "arena_seeds": 2},
    "quick": {"n_grid": 201, "taus": [0.0, 1e-05, 0.0001, 0.0003, 0.001, 0.01, 0.1], "exploration_seeds": 20,
              "exploration_budget": 30, "additive_sizes": [5, 10, 15, 20, 30, 40, 60, 80], "additive_seeds": 20,
              "additive_points": 20, "ensemble_frames": [0, 1, 2, 3, 4, 6, 8, 10, 12, 16],
              "thresholds": [1.05, 1.1, 1.2, 1.5, 2.0], "epoch_steps": 400, "arena_source": "cached",
              "arena_problems": list(arena_suite.FIRST_SUITE), "arena_seeds": 2},
    "paper": {"n_grid": 401, "taus": [0.0, 1e-05, 0.0001, 0.0003, 0.001, 0.01, 0.1], "exploration_seeds": 50,
              "exploration_budget": 30, "additive_sizes": [5, 10, 15, 20, 30, 40, 60, 80], "additive_seeds": 50,
              "additive_points": 20, "ensemble_frames": [0, 1, 2, 3, 4, 6, 8, 10, 12, 16],
              "thresholds": [1.05, 1.1, 1.2, 1.5, 2.0], "epoch_steps": 1000, "arena_source": "cached",
              "arena_problems": list(arena_suite.FIRST_SUITE), "arena_seeds": 2},
}
ALLOWED = {
    "n_grid": range(11, 2002), "taus": _taus, "exploration_seeds": range(1, 201), "exploration_budget": range(4, 201),
    "additive_sizes": _sizes, "additive_seeds": range(1, 201), "additive_points": range(2, 501),
    "ensemble_frames": _ensemble_frames, "thresholds": _thresholds, "epoch_steps": range(10, 10_001),
    "arena_source": list(ARENA_SOURCES), "arena_problems": list(arena_suite.PROBLEMS), "arena_seeds": range(2, 21),
}
# What `python reproduce.py` regenerates and the repository publishes.
PUBLISHED = {"scale": "quick"}
#: The seed whose queries the exploration figure shows.
SHOWN_SEED = 0


# --------------------------------------------------------------------------- the computations' configurations
def _config(experiment, problem, budget, seed=0, **settings):
    return {"paper": PAPER, "experiment": experiment, "problem": problem, **settings, "budget": int(budget),
            "seed": int(seed)}


def pseudo_point_config(params, tau):
    """The posterior with pseudo-points at distance up to ``tau`` (a frame of the pseudo-point player)."""
    return _config("pseudo_points", "forrester", params["n_grid"], tau=float(tau),
                   n_points=reading_papers.PSEUDO_POINTS_DATA, n_grid=params["n_grid"])


def exploration_config(params, method, seed):
    """One run of EXPLOIT or EXPLOIT+ on the 1-D Rastrigin function."""
    return _config("exploration", "rastrigin-1d", params["exploration_budget"], seed, method=method)


def exploration_configs(params):
    """Every exploration run: both methods x seeds."""
    return [exploration_config(params, method, seed) for method in reading_papers.EXPLORATION_METHODS
            for seed in range(params["exploration_seeds"])]


def additive_error_config(params, n_points):
    """Both GPs' errors after ``n_points`` random points, over ``additive_seeds`` designs."""
    return _config("additive_errors", "forrester-2d-additive", n_points * params["additive_seeds"],
                   n_points=int(n_points), n_designs=params["additive_seeds"])


def additive_view_config(params):
    """f and both GPs' posterior means after ``additive_points`` random points (design 0)."""
    return _config("additive_view", "forrester-2d-additive", params["additive_points"],
                   n_points=params["additive_points"])


def ensemble_config(params, n_points):
    """The ensemble after ``n_points`` points (a frame of the ensemble player)."""
    return _config("ensemble", "forrester", params["n_grid"], n_points=int(n_points), n_grid=params["n_grid"])


def epoch_config(params, threshold):
    """MINI-GP-UCB's epochs and GP-UCB at threshold ``threshold`` (a frame of the epoch player)."""
    return _config("epochs", "forrester-arms", params["epoch_steps"], threshold=float(threshold),
                   n_steps=params["epoch_steps"])


def make_grid(params):
    """Every computation the notebook draws, for resolved parameters (the arena's runs are the arena's)."""
    return [*[pseudo_point_config(params, tau) for tau in params["taus"]], *exploration_configs(params),
            *[additive_error_config(params, n_points) for n_points in params["additive_sizes"]],
            additive_view_config(params), *[ensemble_config(params, n) for n in params["ensemble_frames"]],
            *[epoch_config(params, threshold) for threshold in params["thresholds"]]]


def run(config, iterations=None):
    """One of the lesson's computations (``config["experiment"]``), as a dict of arrays for the result store (its
    settings are in ``config``).

    ``iterations`` is accepted for the runner's protocol and ignored: the computations are cheap and recomputed
    whole.
    """
    return without_settings(_compute(config), config)


def _compute(config):
    experiment = config["experiment"]
    if experiment == "pseudo_points":
        return reading_papers.pseudo_point_arrays(config["tau"], config["n_points"], config["n_grid"])
    if experiment == "exploration":
        return reading_papers.exploration_run(config["method"], config["seed"], config["budget"])
    if experiment == "additive_errors":
        return reading_papers.additive_error_arrays(config["n_points"], config["n_designs"])
    if experiment == "additive_view":
        return reading_papers.additive_view_arrays(config["n_points"], config["seed"])
    if experiment == "ensemble":
        return reading_papers.ensemble_arrays(config["n_points"], config["n_grid"])
    if experiment == "epochs":
        return reading_papers.epoch_arrays(config["threshold"], config["n_steps"])
    raise ValueError(f"unknown experiment {experiment!r} of {PAPER}")


# --------------------------------------------------------------------------- the arena's runs
def arena_configuration(params):
    """The arena's parameters the lesson reads: its published configuration where ``arena_source`` is "cached"; a
    tiny grid at the arena's smoke scale where it is "computed" (``arena_problems``, ``arena_seeds`` seeds of every
    method and of every idea's twins, the library peers left out)."""
    from common.notebook import configuration

    if params["arena_source"] == "cached":
        return configuration(arena)
    return configuration(arena, "smoke", problems=list(params["arena_problems"]), methods=COMPUTED_ARENA_METHODS,
                         n_seeds=params["arena_seeds"], idea_seeds=params["arena_seeds"])


def arena_runs(params, n_jobs=None, dask_address=None):
    """The arena's runs the lesson shows, as a tidy table, and how many of the planned runs it holds.

    "cached": the runs of the arena's published grid (:func:`common.experiments.arena.notebook_grid`, the twins
    included) that its cache holds, read and never computed (each run's file is looked for, so that ``reproduce.py``
    records a missing one as absent and executes the lesson again once it appears, and ignores the arena's other
    runs); "computed": the tiny grid, loaded or computed by :func:`common.runner.run_grid`.

    Returns
    -------
    table : pandas.DataFrame or None
        None where no run was found.
    found, planned : int
    arena_params : dict
        :func:`arena_configuration`.
    """
    arena_params = arena_configuration(params)
    if params["arena_source"] == "computed":
        from common.runner import run_grid

        grid = arena.make_grid(arena_params, include_libraries=False)
        return run_grid(grid, arena.run, n_jobs=n_jobs, dask_address=dask_address), len(grid), len(grid), arena_params
    grid, _ = arena.notebook_grid(arena_params)
    runs = [run for run in (store.cached_run(config, arena.CODE_VERSION) for config in grid) if run is not None]
    return (store.tidy_table(runs) if runs else None), len(runs), len(grid), arena_params
