"""The arena: the five papers' methods side by side, on one suite, with one budget and the same initial designs.

Every paper of the companion chose its own ground. The arena asks the question none of them answers: on the same
problems, with the same budget and the same initial points, which of these ideas helps, where, and at what cost?

This is its experiment module (the notebook's scales, its grid of runs and one run); the rest lives beside it, one
topic a module: the problems and the two suites (:mod:`common.experiments.arena_suite`), the methods at their papers'
settings and their twins with the paper's idea switched off (:mod:`common.experiments.arena_methods`), what the runs
score (:mod:`common.experiments.arena_scoring`), the notebook's figures (:mod:`common.experiments.arena_figures`) and
the hypotheses (:mod:`common.experiments.arena_claims`).

Every run of a (problem, seed) starts from the same :data:`~common.experiments.arena_suite.N_INIT` uniform points,
evaluated once: the methods see them in their own coordinates (the unit cube, [-1, 1]^d or the problem's box, each a
linear image of the others) and the same observed values. The budget counts every evaluation, the initial ones
included. A run stores the noise-free value f of each query, the observed value y and the simple regret f* - max f so
far (for the noisy problems, of the noise-free values at the queried points), and the process CPU seconds spent since
the run began when each evaluation was observed.
"""
import time
import warnings

import numpy as np

from common.bo import BayesianOptimization, initial_design
from common.experiments.arena_methods import BOTORCH, IDEAS, LIBRARIES, METHOD_VIEWS, METHODS, SKOPT, SKOPT_SEARCH, \
    TWINS, View, idea_active, library_available, make_method
from common.experiments.arena_suite import FIRST_SUITE, N_INIT, PAPER, PROBLEMS, SPEC_OF, SUITE, box_revision, \
    make_problem
from common.seeding import make_rng

# PAPER (imported above) is the arena's key, defined with the problems whose random streams it keys.

# Raise whenever a change alters the numbers of a run (here, in arena_suite or in arena_methods); cached runs of
# another version are recomputed.
CODE_VERSION = 1
NOTEBOOK = "arena.ipynb"
TITLE = "The arena: the five papers' methods side by side on one suite, one budget, the same initial designs"
OUTPUTS = ["rank table", "critical-difference figure", "regret curves", "cost against rank", "hypotheses"]
#: Not a paper: the scorecard gives the arena a section of its own, apart from the papers' counts.
KIND = "arena"


# --------------------------------------------------------------------------- scales and the grid
# The paper scale runs the second suite (issue 42 item 5) without BoTorch: at about 80 CPU-s a run, its 340 runs
# there would cost 7.6 CPU-hours, beyond the 12 the issue allows for the whole suite (declared with the suite).
_PAPER_SCALE = dict(problems=list(SUITE), methods=[name for name in METHODS if name != BOTORCH], n_seeds=20,
                    budget=100, search_scale=1.0, idea_seeds=20)
SCALES = {
    # One problem of each kind of the second suite and every method, so that the smoke runs reach every branch of
    # the notebook's code (tests/test_arena.py runs every problem of both suites at this scale). The SVM is left
    # out: its 17 smoke runs took 32 of the 35 CPU-s of the smoke grid's runs, and no code of the notebook is its own.
    "smoke": {**_PAPER_SCALE, "problems": ["Branin (off-centre)", "Hartmann-6 (off-centre)", "Additive-10 (off-centre)",
                                           "Rosenbrock f104 (noisy, off-centre)", "Robot pushing 3D", "Sprinkler"],
              "methods": list(METHODS), "n_seeds": 1, "budget": N_INIT + 2, "search_scale": 0.02, "idea_seeds": 1},
    "quick": {**_PAPER_SCALE, "n_seeds": 3, "budget": 40, "search_scale": 0.25, "idea_seeds": 3},
    "paper": _PAPER_SCALE,
}
# What `python reproduce.py` regenerates and the repository publishes; the library peers' runs are read from the
# cache where their packages are not installed (:func:`notebook_grid`). The second suite at the paper scale; the
# first suite's runs, BoTorch's included, are read beside it (:func:`other_suite_params`, the notebook's §7c).
PUBLISHED = {"scale": "paper"}
CELL_FIELDS = ("experiment", "problem", "method")
# The spot-check recomputes one run per method (its cheapest problem), so that it stays within seconds.
SPOT_CHECK_CELL_FIELDS = {"arena": ("experiment", "method")}


def _check_search_scale(value):
    """a number with 0 < search_scale <= 1 (a factor on every method's acquisition search and candidate set)"""
    return isinstance(value, (int, float)) and not isinstance(value, bool) and 0 < value <= 1


ALLOWED = {"problems": list(PROBLEMS), "methods": list(METHODS), "n_seeds": range(1, 101),
           "budget": range(N_INIT + 1, 1001), "search_scale": _check_search_scale,
           "idea_seeds": range(0, 101)}


def config_of(params, problem, method, seed):
    """The configuration of one run; a box revised after runs were computed adds its revision
    (:func:`~common.experiments.arena_suite.box_revision`), so that the runs of the earlier box are not read for it."""
    revision = box_revision(problem)
    return {"paper": PAPER, "experiment": "arena", "problem": problem, "method": method, "seed": seed,
            "budget": params["budget"], "search_scale": params["search_scale"],
            **({"box_revision": revision} if revision > 1 else {})}


def make_grid(params, *, include_libraries=None):
    """Every run of the arena for resolved parameters: problem x method x seed.

    Parameters
    ----------
    params : dict
    include_libraries : bool, optional
        Whether the library peers' runs (:data:`~common.experiments.arena_methods.LIBRARIES`) are part of the
        grid; default: each where it is installed (:func:`~common.experiments.arena_methods.library_available`).
        The notebook adds the cached ones where it is not (:func:`notebook_grid`).
    """
    methods = [name for name in params["methods"]
               if name not in LIBRARIES or (library_available(name) if include_libraries is None else include_libraries)]
    grid = [config_of(params, problem, method, seed) for problem in params["problems"] for method in methods
            for seed in range(params["n_seeds"])]
    return grid + [config for config in twin_grid(params) if config not in grid]


def twin_grid(params):
    """The runs of the ideas on and off (:data:`~common.experiments.arena_methods.IDEAS`): each method and its twins
    on every problem where its idea is active (:func:`~common.experiments.arena_methods.idea_active`), seeds 0 ..
    ``params["idea_seeds"]`` - 1 (0: none)."""
    return [config_of(params, problem, method, seed) for idea in IDEAS for problem in params["problems"]
            if idea_active(idea.method, SPEC_OF[problem].dim) for method in (idea.method, *idea.off)
            for seed in range(params["idea_seeds"])]


def other_suite_params(params):
    """The parameters of the first suite (:data:`~common.experiments.arena_suite.FIRST_SUITE`) with every method,
    BoTorch's runs included, at the paper scale's seeds, budget and search, for a run of the paper scale on other
    problems; None otherwise (below the paper scale, or when the run covers the first suite itself).

    The second suite runs without BoTorch (about 80 CPU-s a run); the first suite's runs hold its comparison with
    the other methods, read from the cache."""
    paper = SCALES["paper"]
    same_runs = all(params[name] == paper[name] for name in ("n_seeds", "budget", "search_scale"))
    if params["scale"] != "paper" or not same_runs or set(FIRST_SUITE) <= set(params["problems"]):
        return None
    return {**params, "problems": list(FIRST_SUITE), "methods": list(METHODS), "idea_seeds": 0}


#: The seeds of BoTorch's runs on the second suite (issue 63 item 6): at about 160 CPU-s a run, the 77 runs of five
#: seeds were priced at 3.5 CPU-hours by ``reproduce.py arena --list``, within the issue's 4.
BOTORCH_SEEDS = 5


def botorch_params(params):
    """The parameters of every whole method, BoTorch's included, on ``params``' problems at their first
    :data:`BOTORCH_SEEDS` seeds, for a run of the paper scale on the second suite; None otherwise."""
    paper = SCALES["paper"]
    same_runs = all(params[name] == paper[name] for name in ("n_seeds", "budget", "search_scale"))
    if params["scale"] != "paper" or not same_runs or set(params["problems"]) != set(SUITE):
        return None
    return {**params, "methods": list(METHODS), "n_seeds": BOTORCH_SEEDS, "idea_seeds": 0}


def notebook_grid(params):
    """The runs the notebook shows: :func:`make_grid`, and for each library peer that is not installed its runs that
    are cached (read, never recomputed), so that the committed cache regenerates the same notebook either way.

    Returns
    -------
    grid : list of dict
    note : str
        What was left out, for the notebook ("" when nothing was).
    """
    from common import store

    grid, notes = make_grid(params), []
    missing = [name for name in LIBRARIES if name in params["methods"] and not library_available(name)]
    for name in missing:
        library = [config for config in make_grid(params, include_libraries=True) if config["method"] == name]
        cached = [config for config in library if store.cached_run(config, CODE_VERSION) is not None]
        grid += cached
        if len(cached) < len(library):
            notes.append(f"{name} is not installed here (pip install -r {LIBRARIES[name]}): "
                         f"{len(library) - len(cached)} of its {len(library)} runs are not cached and are left out")
    return grid, "; ".join(notes)


# --------------------------------------------------------------------------- one run
class CpuClock:
    """The process CPU seconds since the clock was made, marked once per evaluation as each is observed."""

    def __init__(self):
        self.start, self.marks = time.process_time(), []

    def evaluated(self, n_points=1):
        """Mark ``n_points`` evaluations observed now."""
        self.marks += [time.process_time() - self.start] * n_points


def _run_loop(problem, view, method, X0, y0, budget, n_rounds, noise_rng, method_rng, clock):
    """The BO loop in the method's coordinates, evaluated in the problem's: queries, observations, iterations."""
    loop = BayesianOptimization(view.bounds, method, method_rng)
    loop.tell(view.from_native(X0), y0)
    queries = [np.asarray(X0, dtype=float)]
    for _ in range(n_rounds):
        if len(loop.y) >= budget:
            break
        U = loop.ask()[: budget - len(loop.y)]
        X = np.clip(view.to_native(U), problem.bounds[:, 0], problem.bounds[:, 1])
        loop.tell(U, problem.observe(X, noise_rng))
        clock.evaluated(len(X))
        queries.append(X)
    return np.vstack(queries), loop.y, loop.iterations


def _run_skopt(problem, X0, y0, budget, n_rounds, noise_rng, random_state, clock, search_scale=1.0):
    """scikit-optimize's gp_minimize with its defaults, from the shared initial design (given as x0, y0, with no
    random initial points of its own), minimizing -y; ``n_rounds`` calls at most. Below ``search_scale`` = 1 (the
    smoke and quick scales) its acquisition search shrinks like every method's
    (:data:`~common.experiments.arena_methods.SKOPT_SEARCH`)."""
    from skopt import gp_minimize

    queries, values = [], []

    def objective(x):
        X = np.asarray(x, dtype=float)[None, :]
        value = float(problem.observe(X, noise_rng)[0])
        clock.evaluated()
        queries.append(X[0])
        values.append(value)
        return -value

    n_calls = min(n_rounds, budget - len(X0))
    if n_calls > 0:
        with warnings.catch_warnings():  # e.g. "The objective has been evaluated at this point before"
            warnings.simplefilter("ignore")
            gp_minimize(objective, [(float(low), float(high)) for low, high in problem.bounds], n_calls=n_calls,
                        x0=np.asarray(X0).tolist(), y0=(-np.asarray(y0)).tolist(), n_initial_points=0,
                        random_state=random_state, **({} if search_scale >= 1 else {
                            "n_points": max(100, round(SKOPT_SEARCH["n_points"] * search_scale)),
                            "n_restarts_optimizer": max(1, round(SKOPT_SEARCH["n_restarts_optimizer"] * search_scale))}))
    X = np.vstack([X0, *queries]) if queries else np.asarray(X0, dtype=float)
    return X, np.concatenate([y0, values]), np.concatenate([np.zeros(len(X0), int), np.arange(1, len(values) + 1)])


def run(config, iterations=None):
    """One run of a method on a problem from the shared initial design.

    Parameters
    ----------
    config : dict
        A configuration of :func:`make_grid`: one method, problem and seed of the suite.
    iterations : int, optional
        Stop after this many rounds after the initial design (the spot-check's prefix of the full run).

    Returns
    -------
    dict
        Per evaluation (the initial design first): ``f`` the noise-free value, ``y`` the observed value,
        ``regret`` f* - the best noise-free value so far, ``iteration`` (0 for the initial design),
        ``cpu_seconds_so_far`` the process CPU seconds since the run began when the evaluation was observed (a
        timing: it varies from run to run of the same configuration); and ``unique_points``, the number of distinct
        query points of the run.
    """
    clock = CpuClock()
    problem = make_problem(config["problem"], config["seed"])
    repetition = (PAPER, config["problem"], config["seed"])
    X0 = initial_design(problem.bounds, N_INIT, make_rng(*repetition, "initial design"))
    y0 = problem.observe(X0, make_rng(*repetition, "initial design noise"))
    clock.evaluated(len(X0))
    budget, name = config["budget"], config["method"]
    n_rounds = budget - N_INIT if iterations is None else min(iterations, budget - N_INIT)
    streams = TWINS.get(name, name)  # a twin draws its method's random numbers: the pair differs by the idea alone
    noise_rng = make_rng(*repetition, streams, "noise")
    method_rng = make_rng(*repetition, streams, "method")
    if name == SKOPT:
        X, y, rounds = _run_skopt(problem, X0, y0, budget, n_rounds, noise_rng,
                                  int(method_rng.integers(2**31 - 1)), clock, config["search_scale"])
    elif name == BOTORCH:
        from common.experiments.arena_botorch import run_botorch
        X, y, rounds = run_botorch(problem, X0, y0, budget, n_rounds, noise_rng, int(method_rng.integers(2**31 - 1)),
                                   config["search_scale"], clock.evaluated)
    else:
        view = View(problem.bounds, METHOD_VIEWS[name])
        method = make_method(config, problem, view, X0, y0)
        X, y, rounds = _run_loop(problem, view, method, X0, y0, budget, n_rounds, noise_rng, method_rng, clock)
    f = problem.noise_free(X) if problem.noisy else np.asarray(y, dtype=float)
    return {"f": f, "y": np.asarray(y, dtype=float), "regret": problem.optimal_value - np.maximum.accumulate(f),
            "iteration": np.asarray(rounds, dtype=np.int64), "cpu_seconds_so_far": np.asarray(clock.marks, dtype=float),
            "unique_points": int(len(np.unique(X, axis=0)))}
