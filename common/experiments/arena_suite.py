"""The arena's problems: its two suites, each problem's box, and each problem as a seed builds it.

**Problems**: the first suite (:data:`FIRST_SUITE`), eight from the papers' own problem sets and the project's test
functions, spanning the regimes the papers argue about; those whose optimum sits at the centre of the box are
searched on a shifted box (:func:`box_shift`), since DIRECT samples the centre first (bo_pp's shifted-box ablation).
The second suite (:data:`SUITE`, issue 42 item 5), 17 problems with 5 noisy ones and 4 simulators or real-world
tasks, every box's centre meeting a declared rule (:data:`BOX_RULES`) with its Monte-Carlo error, as the declaration
:data:`BOXES_FILE` records (:func:`declared_box`).

Each problem (:func:`make_problem`) observes a value at a point (:class:`NoiseFreeProblem`, :class:`NoisyBBOB`,
:class:`RobotPushing`) and states its noise-free value there, its box and its optimum, for the regret.
"""
import functools
import json
from dataclasses import dataclass

import numpy as np

from common import paths, provenance
from common.seeding import make_rng
from common.test_functions import Ackley, Branin, DropWave, Griewank, Hartmann6, Levy, Rastrigin, Zakharov, \
    bbob_gaussian_noise, bbob_gaussian_noise_std

#: The arena's key: the ``paper`` of its runs (its experiment module's PAPER) and the first key of every random stream
#: of its problems, designs and methods.
PAPER = "arena"

#: Initial design size, shared by every method of a (problem, seed): egp_ts's and add_gp_ucb's N_INIT (Add-GP-UCB's
#: practical algorithm sets its noise and scale range from the first 10 observations).
N_INIT = 10


# --------------------------------------------------------------------------- the problems
@dataclass(frozen=True)
class ProblemSpec:
    """One problem of the suite: what it is, where it comes from and why it is in the arena.

    Attributes
    ----------
    name : str
    dim : int
    regime : str
        The regime it stands for (low-dimensional multimodal, higher-dimensional, ...).
    noisy : bool
        Whether its observations are noisy.
    source : str
        The paper (or the project's test functions) it comes from.
    why : str
        Why it is in the suite.
    """

    name: str
    dim: int
    regime: str
    noisy: bool
    source: str
    why: str


PROBLEM_SPECS = (
    ProblemSpec("Branin", 2, "low-dimensional multimodal", False, "bo_basics; add_gp_ucb's DIRECT check",
                "three global optima in 2-D: the textbook problem, where any GP method should do well"),
    ProblemSpec("Drop-wave (shifted)", 2, "low-dimensional multimodal", False, "egp_ts, bo_pp",
                "rings of local optima around one narrow peak; its optimum at the centre, so the box is shifted"),
    ProblemSpec("Hartmann-6", 6, "low-dimensional multimodal", False, "bo_pp (Hart6), bo_basics",
                "six dimensions, four local optima, a smooth surface: moderate dimension"),
    ProblemSpec("Ackley-10 (shifted)", 10, "higher-dimensional, noise-free", False, "random_exploration",
                "random_exploration's noise-free benchmark in d = 10, a needle in a rugged plateau; its optimum "
                "at the centre, so the box is shifted"),
    ProblemSpec("Levy-10 (shifted)", 10, "higher-dimensional, noise-free", False, "random_exploration",
                "random_exploration's noise-free benchmark in d = 10, a broad valley with ripples; the centre of its "
                "usual box, near (1, ..., 1), beats every uniform point, so the box is shifted"),
    ProblemSpec("Additive-24 (shifted)", 24, "additive high-dimensional", False, "add_gp_ucb (Fig. 3)",
                "add_gp_ucb's (D, d', M') = (24, 6, 4): four trimodal groups of 6 coordinates, the structure "
                "Add-GP-UCB assumes; the centre of [-1, 1]^24 lies among the modes and beats every uniform point, "
                "so the box is shifted"),
    ProblemSpec("Ellipsoid f116 (noisy)", 3, "noisy", True, "mini_gp_opt (Figs. 3-4, BBOB f116)",
                "BBOB's rotated ellipsoid with its own severe multiplicative Gaussian noise (beta = 1), on the "
                "continuous box [-5, 5]^3 rather than mini_gp_opt's grid"),
    ProblemSpec("Robot pushing 4D", 4, "simulator (noisy)", True, "egp_ts (Figs. 3, 7)",
                "a Box2D simulator with a noisy push; one random goal per seed"),
)
#: The first suite, the eight problems above: published with 20 seeds of every method, BoTorch's included.
FIRST_SUITE = tuple(spec.name for spec in PROBLEM_SPECS)
_SHARED = {spec.name: spec for spec in PROBLEM_SPECS}

#: The second suite (issue 42 item 5, declared on 2026-11-29 before any of its runs): 17 problems from the papers'
#: problem sets and the project's test functions, 5 of them noisy and 4 simulators or real-world tasks, every box's
#: centre meeting the rule :data:`BOXES_FILE` declares for it. Its boxes were declared again on 2026-12-08 (issue 63
#: item 5): each function with a known maximizer on the best box found (:func:`declared_box`); so Hartmann-6 and the
#: noisy ellipsoid are no longer the first suite's problems. The 4-D robot is, its runs shared.
SUITE_SPECS = (
    ProblemSpec("Branin (off-centre)", 2, "low-dimensional multimodal", False, "bo_basics; add_gp_ucb's DIRECT check",
                "the textbook problem with three global optima, its box moved so that its centre is an ordinary "
                "point"),
    ProblemSpec("Drop-wave (off-centre)", 2, "low-dimensional multimodal", False, "egp_ts, bo_pp",
                "rings of local optima around one narrow peak that sits at the usual box's centre"),
    ProblemSpec("Hartmann-6 (off-centre)", 6, "low-dimensional multimodal", False, "bo_pp (Hart6), bo_basics",
                "six dimensions, four local optima, a smooth surface: moderate dimension"),
    ProblemSpec("Ackley-10 (off-centre)", 10, "higher-dimensional, noise-free", False, "random_exploration",
                "random_exploration's benchmark in d = 10, a needle in a rugged plateau, its optimum at the usual "
                "box's centre"),
    ProblemSpec("Levy-10 (off-centre)", 10, "higher-dimensional, noise-free", False, "random_exploration",
                "random_exploration's benchmark in d = 10, a broad valley with ripples"),
    ProblemSpec("Rastrigin-10 (off-centre)", 10, "higher-dimensional, noise-free", False, "random_exploration",
                "random_exploration's third benchmark in d = 10: a regular grid of 10^10 local optima"),
    ProblemSpec("Griewank-10 (off-centre)", 10, "higher-dimensional, noise-free", False, "bo_pp (Griewank, 2-D)",
                "a wide bowl with many shallow local optima: smooth at large scale, rugged close up"),
    ProblemSpec("Zakharov-10", 10, "higher-dimensional, noise-free", False, "egp_ts (Zakharov, 4-D)",
                "a plate-shaped unimodal function: the case where exploration has least to gain; no shift found "
                "makes its usual box's centre more ordinary"),
    ProblemSpec("Additive-10 (off-centre)", 10, "additive high-dimensional", False, "add_gp_ucb (Fig. 3)",
                "add_gp_ucb's (D, d', M') = (10, 3, 3): three trimodal groups of 3 coordinates and one idle one"),
    ProblemSpec("Additive-24 (off-centre)", 24, "additive high-dimensional", False, "add_gp_ucb (Fig. 3)",
                "add_gp_ucb's (D, d', M') = (24, 6, 4): four trimodal groups of 6 coordinates, the structure "
                "Add-GP-UCB assumes"),
    ProblemSpec("Rosenbrock f104 (noisy, off-centre)", 3, "noisy", True, "mini_gp_opt (Figs. 3-4, BBOB f104)",
                "BBOB's Rosenbrock with its own moderate multiplicative Gaussian noise (beta = 0.01), on a continuous "
                "box"),
    ProblemSpec("Ellipsoid f116 (noisy, off-centre)", 3, "noisy", True, "mini_gp_opt (Figs. 3-4, BBOB f116)",
                "BBOB's rotated ellipsoid with its own severe multiplicative Gaussian noise (beta = 1), on a "
                "continuous box rather than mini_gp_opt's grid"),
    ProblemSpec("Schaffer f122 (noisy, off-centre)", 3, "noisy", True, "mini_gp_opt (Figs. 3-4, BBOB f122)",
                "BBOB's Schaffer F7 with its own severe multiplicative Gaussian noise (beta = 1): a rugged surface "
                "under heavy noise"),
    ProblemSpec("Robot pushing 3D", 3, "simulator (noisy)", True, "egp_ts (Fig. 3)",
                "the Box2D pushing task with a fixed push duration: three inputs, a noisy push, a goal per seed"),
    _SHARED["Robot pushing 4D"],
    ProblemSpec("Sprinkler", 8, "simulator (noise-free)", False, "random_exploration (§5.3)",
                "a deterministic computer model whose rotation rate is 0 on 23 % of the box and jumps elsewhere; f* "
                "is its best known value"),
    ProblemSpec("SVM tuning (digits)", 2, "real-world tuning", False, "bo_pp (SVM_digits, its stand-in for SVM_wine)",
                "a real tuning task: an RBF SVM's C and kernel scale on scikit-learn's digits, validation accuracy "
                "maximized; f* = 1, an upper bound"),
)
SUITE = tuple(spec.name for spec in SUITE_SPECS)
ALL_SPECS = PROBLEM_SPECS + tuple(spec for spec in SUITE_SPECS if spec.name not in FIRST_SUITE)
#: Every problem the arena knows, the first suite's first.
PROBLEMS = tuple(spec.name for spec in ALL_SPECS)
SPEC_OF = {spec.name: spec for spec in ALL_SPECS}
NOISE_FREE_PROBLEMS = tuple(spec.name for spec in ALL_SPECS if not spec.noisy)
ADDITIVE_PROBLEMS = tuple(spec.name for spec in ALL_SPECS if spec.regime.startswith("additive"))
#: The share of uniform points of the box that must beat its centre, per rule: the median, and the share at which the
#: best of the shared N_INIT = 10 uniform initial points beats the centre in at least half of the seeds.
BOX_RULES = {"median": 0.5, "initial design": 1 - 0.5 ** (1 / 10)}


def ordered_problems(names):
    """``names`` in the order of the suite that holds them all (the first suite, else the second), else of
    :data:`PROBLEMS`; names the arena does not know last, sorted."""
    names = set(names)
    for suite in (FIRST_SUITE, SUITE, PROBLEMS):
        if names <= set(suite) or suite is PROBLEMS:
            return [name for name in suite if name in names] + sorted(names - set(suite))


def _additive_function():
    from common.experiments import add_gp_ucb
    return add_gp_ucb.make_problem("(24,6,4)")  # add_gp_ucb's own instance (its coordinate permutation)


def _additive_10():
    from common.experiments import add_gp_ucb
    return add_gp_ucb.make_problem("(10,3,3)")


#: The first suite's problems searched on a shifted box (:func:`box_shift`), with their functions on the usual box:
#: those whose usual box has its centre, DIRECT's first sample, better than every one of 20,000 uniform points of the
#: box (the optimum itself for Drop-wave and Ackley; near-optimal points for Levy-10 and the additive function;
#: measured by :func:`centre_beaten_by`).
SHIFTED = {"Drop-wave (shifted)": DropWave, "Ackley-10 (shifted)": lambda: Ackley(10),
           "Levy-10 (shifted)": lambda: Levy(10), "Additive-24 (shifted)": _additive_function}
#: The second suite's test functions, each on its usual box, which :func:`declared_box` moves.
SUITE_FUNCTIONS = {"Branin (off-centre)": Branin, "Drop-wave (off-centre)": DropWave,
                   "Ackley-10 (off-centre)": lambda: Ackley(10), "Levy-10 (off-centre)": lambda: Levy(10),
                   "Rastrigin-10 (off-centre)": lambda: Rastrigin(10), "Griewank-10 (off-centre)": lambda: Griewank(10),
                   "Zakharov-10": lambda: Zakharov(10), "Additive-10 (off-centre)": _additive_10,
                   "Additive-24 (off-centre)": _additive_function, "Hartmann-6 (off-centre)": Hartmann6}
#: The second suite's noisy BBOB functions: BBOB's number and its own noise level (f104 "moderate", the others
#: "severe").
SUITE_BBOB = {"Rosenbrock f104 (noisy, off-centre)": (104, 0.01), "Ellipsoid f116 (noisy, off-centre)": (116, 1.0),
              "Schaffer f122 (noisy, off-centre)": (122, 1.0)}
#: BBOB's own noise level of f116 ("severe": beta = 1), which mini_gp_opt's noise ablation runs.
F116_NOISE_BETA = 1.0


def box_shift(name, bounds, optimizers):
    """The shift of a problem's box, per dimension, as a fraction of its width.

    A random sign times a magnitude uniform in [0.1, 0.3], rounded to 3 digits, drawn from a stream keyed by the
    problem's name (the recipe of bo_pp's shifted-box ablation), the sign flipped in a coordinate where an optimizer
    would otherwise leave the box: the box's centre, which DIRECT samples first, moves by 10 % to 30 % of the width
    in every coordinate, and the optimum stays inside.

    Parameters
    ----------
    name : str
        The problem's name.
    bounds : (d, 2) array
        The usual box.
    optimizers : (k, d) array
        The function's maximizers.

    Returns
    -------
    ndarray of shape (d,)
    """
    bounds, optimizers = np.asarray(bounds, dtype=float), np.atleast_2d(optimizers)
    rng = make_rng(PAPER, name, "box shift")
    fractions = np.round(rng.choice([-1.0, 1.0], size=len(bounds)) * rng.uniform(0.1, 0.3, size=len(bounds)), 3)
    width = np.ptp(bounds, axis=1)
    low, high = bounds[:, 0] + fractions * width, bounds[:, 1] + fractions * width
    leaves = np.any((optimizers < low) | (optimizers > high), axis=0)
    return np.where(leaves, -fractions, fractions)


def centre_beaten_by(problem, n_points=20_000, seed=0):
    """The fraction of ``n_points`` uniform points of a problem's box whose noise-free value beats the box's centre
    (0: the centre, DIRECT's first sample, is better than every one of them)."""
    low, high = problem.bounds[:, 0], problem.bounds[:, 1]
    points = low + (high - low) * np.random.default_rng(seed).random((n_points, problem.dim))
    return float(np.mean(problem.noise_free(points) > problem.noise_free(((low + high) / 2)[None, :])[0]))


#: The robots' goal is drawn per seed, so their centre is measured over the goals of the suite's 20 seeds.
GOAL_SEEDS = range(20)
#: The confidence of the one-sided lower bound on a box's share (:func:`share_lower_bound`) that its rule must meet.
RULE_CONFIDENCE = 0.999


def centre_beaten_count(name, n_points, seed):
    """How many of ``n_points`` uniform points of a second-suite problem's box beat its centre, and of how many
    (for the robots, ``n_points`` on the goal of each seed of :data:`GOAL_SEEDS`, pooled)."""
    problems = [make_problem(name, 0)]
    if isinstance(problems[0], RobotPushing):
        problems = [make_problem(name, goal) for goal in GOAL_SEEDS]
    beaten = sum(round(centre_beaten_by(problem, n_points, seed) * n_points) for problem in problems)
    return beaten, n_points * len(problems)


def share_lower_bound(beaten, points, confidence=RULE_CONFIDENCE):
    """The one-sided ``confidence`` lower bound on the share of the box's points that beat its centre, from
    ``beaten`` of ``points`` uniform points (Clopper-Pearson, scipy's exact binomial interval)."""
    from scipy.stats import binomtest

    return float(binomtest(int(beaten), int(points)).proportion_ci(confidence_level=2 * confidence - 1).low)


def rule_met(beaten, points):
    """The strictest rule of :data:`BOX_RULES` whose share the lower bound of :func:`share_lower_bound` reaches, or
    "none"."""
    bound = share_lower_bound(beaten, points)
    return next((rule for rule, share in BOX_RULES.items() if bound >= share), "none")


#: The declaration of the second suite's boxes, written by ``python benchmarks/arena_box_centres.py --declare``:
#: per problem its shift (a fraction of the usual box's width per coordinate; null for the usual box), the revision
#: of its box (a run of a box revised after runs were computed records the revision, :func:`box_revision`), the
#: uniform points measured and how many beat the centre, and the rule it meets (:func:`rule_met`).
BOXES_FILE = ("data", "arena", "boxes.json")


@functools.lru_cache(maxsize=None)
def declared_boxes():
    """{problem: declaration} as :data:`BOXES_FILE` records it."""
    path = paths.repo_root().joinpath(*BOXES_FILE)
    if not provenance.looked_for(path):
        raise FileNotFoundError(f"{path} declares the second suite's boxes; restore it with git checkout -- "
                                f"{'/'.join(BOXES_FILE)} or write it with python benchmarks/arena_box_centres.py "
                                f"--declare")
    return json.loads(path.read_text())


def declared_box(name, bounds):
    """A second-suite problem's box: the usual one, ``bounds``, moved by its declared shift (:data:`BOXES_FILE`)."""
    bounds = np.asarray(bounds, dtype=float)
    shift = declared_boxes()[name]["shift"]
    return bounds if shift is None else bounds + (np.asarray(shift, dtype=float) * np.ptp(bounds, axis=1))[:, None]


def box_revision(name):
    """The revision of a problem's box: 1 for the first suite's and the boxes declared before any of their runs."""
    return declared_boxes().get(name, {}).get("revision", 1)


def box_rule(name):
    """The rule of :data:`BOX_RULES` a second-suite problem's box is declared to meet."""
    return declared_boxes()[name]["rule"]


class NoiseFreeProblem:
    """A test function as an arena problem: observations are its noise-free values.

    Parameters
    ----------
    function : :class:`~common.test_functions.TestFunction`, or a simulator or tuning task with ``bounds`` and ``dim``
    bounds : (d, 2) array, optional
        The box searched (default: the function's own); it must hold at least one of the function's optimizers.
    optimal_value, optimizers : optional
        For a function that does not state them (a simulator, a tuning task): its best known value and where it is,
        or an upper bound and None.

    Attributes
    ----------
    bounds, dim, optimal_value, optimizers : the box searched; the function's dimension, maximum and the maximizers
        inside the box (None where not known).
    noisy : bool
        False.
    """

    noisy = False

    def __init__(self, function, bounds=None, optimal_value=None, optimizers=None):
        self.function = function
        self.bounds = function.bounds if bounds is None else np.asarray(bounds, dtype=float)
        self.dim = function.dim
        self.optimal_value = function.optimal_value if optimal_value is None else float(optimal_value)
        self.optimizers = getattr(function, "optimizers", None) if optimizers is None else np.atleast_2d(optimizers)
        if self.optimizers is not None:
            inside = np.all((self.optimizers >= self.bounds[:, 0]) & (self.optimizers <= self.bounds[:, 1]), axis=1)
            if not inside.any():
                raise ValueError(f"bounds must hold an optimizer of {function.name}; got {self.bounds.tolist()}")
            self.optimizers = self.optimizers[inside]

    def noise_free(self, X):
        """The values f(X), shape (n,)."""
        return self.function(X)

    def observe(self, X, rng):
        """What a method observes at X: f(X) itself (``rng`` is not used)."""
        return self.function(X)

    def noise_std(self, X):
        """The standard deviation of an observation at each row of X: zeros."""
        return np.zeros(len(X))


class NoisyBBOB:
    """A BBOB function of pycma (the reference code mini_gp_opt's grid uses) on the continuous box [-5, 5]^d, with
    BBOB's multiplicative Gaussian noise (:func:`common.test_functions.bbob_gaussian_noise`), maximized.

    Parameters
    ----------
    function_id : int
        BBOB's number, e.g. 116.
    dim : int
    noise_beta : float
        BBOB's noise level (1: its "severe" noise).
    instance : int, default 1
        BBOB's instance (mini_gp_opt's).
    bounds : (dim, 2) array, optional
        The box searched (default [-5, 5]^dim, BBOB's); it must hold x_opt.

    Attributes
    ----------
    optimal_value : float
        0 (pycma's ``zerof``: f - f_opt).
    optimizers : ndarray of shape (1, dim)
        BBOB's x_opt of the instance.
    """

    noisy = True

    def __init__(self, function_id, dim, noise_beta, instance=1, bounds=None):
        from cma import bbobbenchmarks

        self.reference = getattr(bbobbenchmarks, f"F{function_id}")(instance, zerof=True)
        self.reference.noise = np.copy  # the noise-free values; the noise is drawn from the caller's generator
        self.dim, self.noise_beta = dim, float(noise_beta)
        self.bounds = np.tile([-5.0, 5.0], (dim, 1)) if bounds is None else np.asarray(bounds, dtype=float)
        self.noise_free(np.zeros((1, dim)))  # pycma sets x_opt when it first evaluates in this dimension
        self.optimizers = np.asarray(self.reference.xopt, dtype=float)[None, :dim]
        self.optimal_value = 0.0
        if np.any((self.optimizers < self.bounds[:, 0]) | (self.optimizers > self.bounds[:, 1])):
            raise ValueError(f"bounds must hold x_opt of BBOB f{function_id}; got {self.bounds.tolist()}")

    def noise_free(self, X):
        """-(f(X) - f_opt), shape (n,)."""
        X = np.atleast_2d(np.asarray(X, dtype=float))
        return -np.asarray(self.reference._evalfull(X.copy())[1], dtype=float).reshape(len(X))

    def observe(self, X, rng):
        """The noisy values at X, one independent draw from ``rng`` per row."""
        return bbob_gaussian_noise(self.noise_free(X), self.noise_beta, rng)

    def noise_std(self, X):
        """The standard deviation of an observation at each row of X (BBOB's log-normal factor)."""
        return bbob_gaussian_noise_std(self.noise_free(X), self.noise_beta)


class RobotPushing:
    """Robot pushing (egp_ts's Box2D re-implementation) towards a goal: noisy pushes observed, noise-free values
    (the same push without the velocity noise) for the regret.

    Parameters
    ----------
    dim : {3, 4}
    goal : sequence of 2 floats

    Attributes
    ----------
    optimal_value : float
        5, an upper bound (a push that ends on the goal); the regret is then the best noise-free distance.
    optimizers : None
        Not known.
    """

    noisy = True
    optimizers = None

    def __init__(self, dim, goal):
        from common.problems.robot_push import RobotPush

        self.task = RobotPush(dim, goal=goal)
        self.bounds, self.dim, self.optimal_value = self.task.bounds, dim, self.task.optimal_value

    def noise_free(self, X):
        """5 - distance to the goal of each push without the velocity noise."""
        from common.problems.robot_push import inputs_in_box, push_object

        X = inputs_in_box(self.task, X)
        # push_object draws its two noise normals even at noise 0: a throwaway stream keeps them apart.
        ends = np.array([push_object(x, np.random.default_rng(0), velocity_noise=0.0) for x in X]).reshape(len(X), 2)
        return self.optimal_value - np.linalg.norm(ends - self.task.goal, axis=1)

    def observe(self, X, rng):
        """5 - distance to the goal of each noisy push, the noise drawn from ``rng`` row by row."""
        return self.task(X, rng)

    def noise_std(self, X):
        """None: the velocity noise enters f through the physics, with no closed form for its spread."""
        return None


def make_problem(name, seed):
    """The arena problem ``name`` of repetition ``seed`` (the robot's goal is drawn per seed; the others do not
    depend on it).

    Parameters
    ----------
    name : str
        One of :data:`PROBLEMS`.
    seed : int

    Returns
    -------
    NoiseFreeProblem, NoisyBBOB or RobotPushing
    """
    if name == "Branin":
        return NoiseFreeProblem(Branin())
    if name == "Hartmann-6":
        return NoiseFreeProblem(Hartmann6())
    if name in SHIFTED:
        function = SHIFTED[name]()
        shift = box_shift(name, function.bounds, function.optimizers) * np.ptp(function.bounds, axis=1)
        return NoiseFreeProblem(function, function.bounds + shift[:, None])
    if name in SUITE_FUNCTIONS:
        function = SUITE_FUNCTIONS[name]()
        return NoiseFreeProblem(function, declared_box(name, function.bounds))
    if name == "Ellipsoid f116 (noisy)":
        return NoisyBBOB(116, 3, F116_NOISE_BETA)
    if name in SUITE_BBOB:
        number, noise_beta = SUITE_BBOB[name]
        return NoisyBBOB(number, 3, noise_beta, bounds=declared_box(name, np.tile([-5.0, 5.0], (3, 1))))
    if name in ("Robot pushing 3D", "Robot pushing 4D"):
        from common.problems.robot_push import RobotPush
        return RobotPushing(SPEC_OF[name].dim, RobotPush.random_goal(make_rng(PAPER, name, seed, "goal")))
    if name == "Sprinkler":
        from common.problems.sprinkler import GardenSprinkler
        sprinkler = GardenSprinkler()
        return NoiseFreeProblem(sprinkler, optimal_value=sprinkler.best_known_value,
                                optimizers=sprinkler.best_known_x)
    if name == "SVM tuning (digits)":
        from common.problems.tuning import SVMDigits
        return NoiseFreeProblem(SVMDigits(), optimal_value=1.0)
    raise ValueError(f"problem must be one of {list(PROBLEMS)}; got {name!r}")


# --------------------------------------------------------------------------- the notebook's table of the suite
def problems_table(problems=FIRST_SUITE):
    """The suite: each problem's dimension, regime, noise, box, optimum, the shift of its box and the share of
    uniform points that beat the box's centre (:func:`centre_beaten_by`; on the second suite, as its declaration
    :data:`BOXES_FILE` measured it, with its lower bound and the rule it meets), its source and why it is in the
    arena."""
    import pandas as pd

    ruled = set(problems) <= set(SUITE)
    rows = []
    for name in problems:
        spec, problem = SPEC_OF[name], make_problem(name, 0)
        box = ", ".join(f"[{low:.4g}, {high:.4g}]" for low, high in problem.bounds[:2]) + (
            ", ..." if problem.dim > 2 else "")
        best_known = getattr(getattr(problem, "function", None), "best_known_value", None) is not None
        optimum = (f"f* = {problem.optimal_value:.4g}" + (" (the best known)" if best_known else "")
                   if problem.optimizers is not None else
                   "f* = 5 (an upper bound), goal per seed" if isinstance(problem, RobotPushing) else
                   f"f* = {problem.optimal_value:.4g} (an upper bound)")
        shift, usual = declared_boxes()[name]["shift"] if ruled else None, problem
        if name in SHIFTED:
            function = SHIFTED[name]()
            shift, usual = box_shift(name, function.bounds, function.optimizers), NoiseFreeProblem(function)
        if ruled:
            declared = declared_boxes()[name]
            beaten, points = declared["beaten"], declared["points"]
            centre = {"centre beaten by (share of uniform points)": f"{beaten / points:.1%} of {points:,}" + (
                          f" (over {len(GOAL_SEEDS)} goals)" if isinstance(problem, RobotPushing) else "") +
                      f", at least {share_lower_bound(beaten, points):.1%}",
                      "rule it meets": f"{declared['rule']} (at least {BOX_RULES[declared['rule']]:.1%})",
                      "box revision": declared["revision"]}
        elif isinstance(problem, RobotPushing):
            centre = {"uniform points beating the centre: usual box / searched box": "not measured (a simulator)"}
        else:
            searched = centre_beaten_by(problem)
            centre = {"uniform points beating the centre: usual box / searched box":
                      f"{centre_beaten_by(usual) if usual is not problem else searched:.1%} / {searched:.1%}"}
        rows.append({"problem": name, "d": spec.dim, "regime": spec.regime,
                     "noise": "noisy" if spec.noisy else "noise-free", "box": box, "optimum": optimum,
                     "box shift (fraction of width)": "" if shift is None else
                     ", ".join(f"{value:+.3f}" for value in shift[:3]) + (", ..." if len(shift) > 3 else ""),
                     **centre, "source": spec.source, "why": spec.why})
    return pd.DataFrame(rows)
