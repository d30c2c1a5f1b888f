"""The arena: the five papers' methods side by side, on one suite, with one budget and the same initial designs.

Every paper of the companion chose its own ground. The arena asks the question none of them answers: on the same
problems, with the same budget and the same initial points, which of these ideas helps, where, and at what cost?

**Methods** (:data:`METHODS`), each at its own paper's recommended settings as the project implements them (the
experiment modules' own ``make_method``), with no per-problem tuning, declared before any run:

* ``EGP-TS``: Thompson sampling from the ensemble of dictionary A (RBF, RBF-ARD, Matérn-1.5, Matérn-2.5) on the unit
  cube (:func:`common.experiments.egp_ts.make_method`, the paper-scale settings of ``egp_ts``);
* ``UCB-PP``: GP-UCB with pseudo-points at tau0 = 0.0001, the paper's best ("UCB-PP0001 is always better than UCB",
  §5), on [-1, 1]^d with ``bo_pp``'s GP and DIRECT (:func:`common.experiments.bo_pp.make_method`);
* ``Add-GP-UCB``: the practical Add-d/M (Algorithm 2: decomposition learned by the marginal likelihood every 25
  iterations) with the authors' figure-script settings (:func:`common.experiments.add_gp_ucb.make_method`); d by
  :func:`add_group_dim`;
* ``GP-UCB+`` and ``EXPLOIT+``: a uniform point added to every iteration of GP-UCB (beta^{1/2} = 2) and of the
  posterior-mean maximizer, with the paper's surrogate on raw inputs
  (:func:`common.experiments.random_exploration.make_method`);
* ``MINI-GP-UCB``: MINI-META's epochs on a candidate set drawn once per problem and seed
  (:class:`MiniGPUCBOnCandidates`, built from :mod:`common.methods.mini_gp_opt`);
* ``GP-UCB`` and ``GP-EI`` on the project's own GP (``bo_basics``'s Matérn-5/2 ARD prior on the unit cube,
  standardized y, ML-II at every iteration, DIRECT; beta_t = 0.2 d log 2t), its noise variance fitted;
* ``Random search``; and ``skopt`` (scikit-optimize's ``gp_minimize`` with its own defaults, the library a user
  would pick), where scikit-optimize is installed (``requirements-arena.txt``, kept out of the project's pins).

**Problems** (:data:`PROBLEMS`): eight, from the papers' own problem sets and the project's test functions, spanning
the regimes the papers argue about; those whose optimum sits at the centre of the box are searched on a shifted box
(:func:`box_shift`), since DIRECT samples the centre first (bo_pp's shifted-box ablation).

Every run of a (problem, seed) starts from the same :data:`N_INIT` uniform points, evaluated once: the methods see
them in their own coordinates (the unit cube, [-1, 1]^d or the problem's box, each a linear image of the others) and
the same observed values. The budget counts every evaluation, the initial ones included. A run stores the noise-free
value f of each query, the observed value y and the simple regret f* - max f so far (for the noisy problems, of the
noise-free values at the queried points).
"""
import warnings
from dataclasses import dataclass

import numpy as np

from common.bo import BayesianOptimization, GPAcquisitionMethod, initial_design
from common.seeding import make_rng
from common.test_functions import Ackley, Branin, DropWave, Hartmann6, Levy, bbob_gaussian_noise, \
    bbob_gaussian_noise_std

PAPER = "arena"
# Raise whenever a change alters the numbers of a run; cached runs of another version are recomputed.
CODE_VERSION = 1
NOTEBOOK = "arena.ipynb"
TITLE = "The arena: the five papers' methods side by side on one suite, one budget, the same initial designs"
OUTPUTS = ["rank table", "critical-difference figure", "regret curves", "cost against rank", "hypotheses"]
#: Not a paper: the scorecard gives the arena a section of its own, apart from the papers' counts.
KIND = "arena"

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
    ProblemSpec("Levy-10", 10, "higher-dimensional, noise-free", False, "random_exploration",
                "random_exploration's noise-free benchmark in d = 10, a broad valley with ripples"),
    ProblemSpec("Additive (24,6,4)", 24, "additive high-dimensional", False, "add_gp_ucb (Fig. 3)",
                "four trimodal groups of 6 coordinates in D = 24: the structure Add-GP-UCB assumes"),
    ProblemSpec("Ellipsoid f116 (noisy)", 3, "noisy", True, "mini_gp_opt (Figs. 3-4, BBOB f116)",
                "BBOB's rotated ellipsoid with its own severe multiplicative Gaussian noise (beta = 1), on the "
                "continuous box [-5, 5]^3 rather than mini_gp_opt's grid"),
    ProblemSpec("Robot pushing 4D", 4, "simulator (noisy)", True, "egp_ts (Figs. 3, 7)",
                "a Box2D simulator with a noisy push; one random goal per seed"),
)
PROBLEMS = tuple(spec.name for spec in PROBLEM_SPECS)
SPEC_OF = {spec.name: spec for spec in PROBLEM_SPECS}
NOISE_FREE_PROBLEMS = tuple(spec.name for spec in PROBLEM_SPECS if not spec.noisy)
ADDITIVE_PROBLEM = "Additive (24,6,4)"
#: The problems whose usual box has the optimum at its centre, searched on a shifted box (:func:`box_shift`).
CENTRED_OPTIMUM = {"Drop-wave (shifted)": DropWave, "Ackley-10 (shifted)": lambda bounds: Ackley(10, bounds)}
#: BBOB's own noise level of f116 ("severe": beta = 1), which mini_gp_opt's noise ablation runs.
F116_NOISE_BETA = 1.0


def box_shift(name, dim):
    """The shift of a centred-optimum problem's box, per dimension, as a fraction of its width.

    A random sign times a magnitude uniform in [0.1, 0.3], rounded to 3 digits, drawn from a stream keyed by the
    problem's name (the recipe of bo_pp's shifted-box ablation): the optimum then lies between 20 % and 40 % of the
    width from one face, inside the box but off its centre, which DIRECT samples first.

    Parameters
    ----------
    name : str
        The problem's name.
    dim : int

    Returns
    -------
    ndarray of shape (dim,)
    """
    rng = make_rng(PAPER, name, "box shift")
    return np.round(rng.choice([-1.0, 1.0], size=dim) * rng.uniform(0.1, 0.3, size=dim), 3)


class NoiseFreeProblem:
    """A test function as an arena problem: observations are its noise-free values.

    Attributes
    ----------
    bounds, dim, optimal_value, optimizers : of the wrapped :class:`~common.test_functions.TestFunction`.
    noisy : bool
        False.
    """

    noisy = False

    def __init__(self, function):
        self.function = function
        self.bounds, self.dim = function.bounds, function.dim
        self.optimal_value, self.optimizers = function.optimal_value, function.optimizers

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

    Attributes
    ----------
    optimal_value : float
        0 (pycma's ``zerof``: f - f_opt).
    optimizers : ndarray of shape (1, dim)
        BBOB's x_opt of the instance.
    """

    noisy = True

    def __init__(self, function_id, dim, noise_beta, instance=1):
        from cma import bbobbenchmarks

        self.reference = getattr(bbobbenchmarks, f"F{function_id}")(instance, zerof=True)
        self.reference.noise = np.copy  # the noise-free values; the noise is drawn from the caller's generator
        self.dim, self.noise_beta = dim, float(noise_beta)
        self.bounds = np.tile([-5.0, 5.0], (dim, 1))
        self.noise_free(np.zeros((1, dim)))  # pycma sets x_opt when it first evaluates in this dimension
        self.optimizers = np.asarray(self.reference.xopt, dtype=float)[None, :dim]
        self.optimal_value = 0.0

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
    if name == "Levy-10":
        return NoiseFreeProblem(Levy(10))
    if name in CENTRED_OPTIMUM:
        usual = (DropWave() if name.startswith("Drop") else Ackley(10)).bounds
        shifted = usual + box_shift(name, len(usual))[:, None] * np.ptp(usual, axis=1)[:, None]
        return NoiseFreeProblem(CENTRED_OPTIMUM[name](shifted))
    if name == ADDITIVE_PROBLEM:
        from common.experiments import add_gp_ucb
        return NoiseFreeProblem(add_gp_ucb.make_problem("(24,6,4)"))  # add_gp_ucb's own instance
    if name == "Ellipsoid f116 (noisy)":
        return NoisyBBOB(116, 3, F116_NOISE_BETA)
    if name == "Robot pushing 4D":
        from common.problems.robot_push import RobotPush
        return RobotPushing(4, RobotPush.random_goal(make_rng(PAPER, name, seed, "goal")))
    raise ValueError(f"problem must be one of {list(PROBLEMS)}; got {name!r}")


# --------------------------------------------------------------------------- coordinates
#: Each method's coordinates: the unit cube, [-1, 1]^d (bo_pp's and the add_gp_ucb authors' normalized box) or the
#: problem's own box (random_exploration's raw inputs; scikit-optimize normalizes by itself).
VIEWS = {"unit": (0.0, 1.0), "symmetric": (-1.0, 1.0)}


class View:
    """The linear map between a method's box (``bounds``) and the problem's box (``native``).

    Parameters
    ----------
    native : (d, 2) array
    kind : {"unit", "symmetric", "native"}
    """

    def __init__(self, native, kind):
        self.native = np.asarray(native, dtype=float)
        self.kind = kind
        self.bounds = self.native if kind == "native" else np.tile(VIEWS[kind], (len(self.native), 1))

    def to_native(self, U):
        """Points of the method's box as points of the problem's box."""
        if self.kind == "native":
            return np.asarray(U, dtype=float)
        low, high = self.bounds[:, 0], self.bounds[:, 1]
        return self.native[:, 0] + (np.asarray(U, dtype=float) - low) / (high - low) * np.ptp(self.native, axis=1)

    def from_native(self, X):
        """Points of the problem's box as points of the method's box."""
        if self.kind == "native":
            return np.asarray(X, dtype=float)
        low, high = self.bounds[:, 0], self.bounds[:, 1]
        return low + (np.asarray(X, dtype=float) - self.native[:, 0]) / np.ptp(self.native, axis=1) * (high - low)


# --------------------------------------------------------------------------- the methods
SKOPT = "skopt"
METHODS = ("EGP-TS", "UCB-PP", "Add-GP-UCB", "GP-UCB+", "EXPLOIT+", "MINI-GP-UCB", "GP-UCB", "GP-EI",
           "Random search", SKOPT)
METHOD_VIEWS = {"EGP-TS": "unit", "UCB-PP": "symmetric", "Add-GP-UCB": "symmetric", "GP-UCB+": "native",
                "EXPLOIT+": "native", "MINI-GP-UCB": "unit", "GP-UCB": "unit", "GP-EI": "unit",
                "Random search": "native", SKOPT: "native"}
#: The reference every hypothesis compares with: plain GP-UCB on the project's GP.
REFERENCE = "GP-UCB"
#: The single-kernel GPs of the suite (EGP-TS's hypothesis: no worse than the better of them).
SINGLE_KERNEL_GPS = ("GP-UCB", "GP-EI")

# The papers' settings, as their experiment modules' paper scales hold them (acquisition searches are multiplied by
# the scale's search_scale, 1 at the paper scale).
EGP_TS_SETTINGS = dict(n_features=50, refit_every=50, n_candidates=1000, n_restarts=3)   # egp_ts's _PAPER
UCB_PP_TAU0 = 0.0001           # "UCB-PP0001 is always better than UCB" (bo_pp §5)
UCB_PP_DIRECT_PER_DIM = 500    # bo_pp's direct_evals_per_dim
RANDOM_EXPLORATION_SEARCH = dict(acq_candidates=2000, acq_polish=3)   # random_exploration's _PAPER
BETA_ROOT_TWO = 2.0            # beta^{1/2} = 2, random_exploration's "well-tuned constant" (§5)
# MINI-GP-UCB: mini_gp_opt's kernel rule (l^2 = bandwidth factor x the median squared distance of the candidates),
# C, F and delta, and a candidate set the size of its BBOB grid (22^3 = 10,648 arms).
MINI_CANDIDATES = 10_000
MINI_BANDWIDTH_FACTOR = 1.0
MINI_THRESHOLD, MINI_NORM_BOUND, MINI_DELTA = 1.1, 1.0, 0.5
#: lambda where the noise has no closed form or is zero: the paper's rule (the 90th percentile of the noise std) at
#: BBOB's moderate level beta = 0.01, which the paper gives every BBOB function (its noise-free f3 too), for values
#: of unit scale.
MINI_LAMBDA_FLOOR = 0.01
# The project's GP (bo_basics's prior and DIRECT per dimension at its paper scale), with its noise fitted.
PROJECT_GP_DIRECT_PER_DIM = 250
PROJECT_GP_NOISE_BOUNDS = (1e-6, 1.0)
PROJECT_GP_BETA = "kandasamy"


def add_group_dim(dim):
    """d of Add-GP-UCB's Add-d/M on a D-dimensional problem: min(D, max(3, ceil(D / 4))).

    The paper recommends "a small value for d ... d between 3 and 12" when the decomposition is unknown (§6), and
    on its two real-world problems, whose structure it did not know, ran M = 4 groups (Add-5/4 for D = 20, Add-6/4
    for D = 22, §5.2-5.3): d = ceil(D / 4), at least 3, and D itself (one group: GP-UCB with the practical
    algorithm's hyperparameter learning) when D <= 3.
    """
    return int(min(dim, max(3, -(-dim // 4))))


def add_label(dim):
    """The Add-d/M name of Add-GP-UCB on a D-dimensional problem (M = ceil(D / d))."""
    from common.experiments import add_gp_ucb
    return add_gp_ucb.add_label(dim, add_group_dim(dim))


def mini_lambda(problem, candidates_native, scale):
    """MINI-GP-UCB's lambda: the 90th percentile over the candidates of the noise std in standardized units (the
    paper's oracle, §5) where the problem's noise has a closed form, at least :data:`MINI_LAMBDA_FLOOR`."""
    spread = problem.noise_std(candidates_native)
    if spread is None:
        return MINI_LAMBDA_FLOOR
    return float(max(MINI_LAMBDA_FLOOR, np.percentile(spread, 90) / scale))


class MiniGPUCBOnCandidates:
    """MINI-GP-UCB (mini_gp_opt, Algorithm 2 with the UCB of Eq. 2) as a BO-loop method on a finite candidate set.

    The arms are the initial design followed by the candidates; the initial design is observed once per arm before
    the first epoch (it replaces mini_meta's single random first arm). Each epoch maximizes
    mu + beta sigma over the arms, beta = F + sqrt(logdet + log(1/delta)) (Theorem 4.4), and evaluates the chosen
    arm B = max(1, floor((C^2 - 1) / sigma~^2)) times (``propose`` returns it B times; the loop cuts the last epoch
    at the budget), with the posterior of unique arms (:class:`~common.methods.mini_gp_opt.UniqueArmPosterior`).
    Rewards are standardized by the initial design's mean and std (the paper standardizes by an oracle over all
    arms, which would cost an evaluation per arm here).

    Parameters
    ----------
    arms : (N, d) array
        The arms in the method's coordinates, the initial design first.
    n_initial : int
        How many of the first arms are the initial design.
    lam : float > 0
        The regularizer lambda (:func:`mini_lambda`).
    kernel : Kernel
        The prior (unit variance).
    threshold, norm_bound, delta : float
        C, F and delta.
    """

    name = "MINI-GP-UCB"

    def __init__(self, arms, n_initial, lam, kernel, threshold=MINI_THRESHOLD, norm_bound=MINI_NORM_BOUND,
                 delta=MINI_DELTA):
        from common.methods.mini_gp_opt import UniqueArmPosterior

        self.arms, self.n_initial = np.asarray(arms, dtype=float), int(n_initial)
        self.posterior = UniqueArmPosterior(kernel, self.arms, lam)
        self.lam, self.threshold, self.norm_bound, self.delta = float(lam), threshold, norm_bound, delta
        self.n_seen, self.last_arm, self.shift, self.scale = 0, None, 0.0, 1.0
        self.lengths = []

    def _standardized(self, y):
        return (np.asarray(y, dtype=float) - self.shift) / self.scale

    def propose(self, X, y, iteration, rng):
        """The next epoch: the chosen arm, repeated B times, shape (B, d)."""
        from common.methods.mini_gp_opt import argmax_random_ties, beta_frequentist, ucb

        y = np.asarray(y, dtype=float)
        if self.last_arm is None:
            initial = y[:self.n_initial]
            self.shift, self.scale = float(initial.mean()), float(initial.std()) or 1.0
            for arm, value in enumerate(self._standardized(initial)):
                self.posterior.add(arm, 1, float(value))
        else:
            new = self._standardized(y[self.n_seen:])
            if len(new):
                self.posterior.add(self.last_arm, len(new), float(new.sum()))
        self.n_seen = len(y)
        beta = beta_frequentist(self.posterior.logdet, self.norm_bound, self.delta)
        arm = argmax_random_ties(ucb(self.posterior, beta), rng)
        variance = self.posterior.variance[arm] / self.lam
        # The switching rule (mini_meta, Algorithm 2 line 4): no variance shrinks by more than C^2 in an epoch.
        rule = int(np.floor((self.threshold**2 - 1.0) / variance)) if variance > 0 else len(y)
        length = max(rule, 1)
        self.last_arm = arm
        self.lengths.append(length)
        return np.repeat(self.arms[arm][None, :], length, axis=0)


def make_method(config, problem, view, X0, y0):
    """The method of a configuration, in its own coordinates (``view.bounds``).

    Parameters
    ----------
    config : dict
        A configuration of :func:`make_grid`.
    problem : arena problem (:func:`make_problem`)
    view : View
        The method's coordinates.
    X0, y0 : the shared initial design (the problem's coordinates) and its observed values.

    Returns
    -------
    A BO method (``propose(X, y, iteration, rng)``) for :class:`common.bo.BayesianOptimization`.
    """
    name, scale, dim = config["method"], config["search_scale"], problem.dim
    repetition = (PAPER, config["problem"], config["seed"])

    class Box:  # what the papers' make_method read of a problem: its box and dimension
        bounds, optimal_value = view.bounds, problem.optimal_value

    Box.dim = dim
    if name == "EGP-TS":
        from common.experiments import egp_ts
        settings = {**EGP_TS_SETTINGS, "n_candidates": max(10, round(EGP_TS_SETTINGS["n_candidates"] * scale))}
        return egp_ts.make_method({"method": "EGP-TS (A)", **settings, "T": config["budget"]}, dim)
    if name == "UCB-PP":
        from common.experiments import bo_pp
        options = {"acquisition": "UCB", "tau0": UCB_PP_TAU0, "kernel": "ard", "y_transform": "none",
                   "pseudo_point_mode": "box", "noise_variance": 1e-4, "mle_restarts": 1,
                   "direct_evals_per_dim": max(10, round(UCB_PP_DIRECT_PER_DIM * scale))}
        method = bo_pp.make_method(options, Box, make_rng(*repetition, name, "pseudo-points"))
        method.name = name
        return method
    if name == "Add-GP-UCB":
        from common.experiments import add_gp_ucb
        return add_gp_ucb.make_method({"problem": config["problem"], "method": add_label(dim), "budget_scale": scale,
                                       "n_dec_factor": 5, "settings": "authors"}, Box)
    if name in ("GP-UCB+", "EXPLOIT+"):
        from common.experiments import random_exploration
        search = {**RANDOM_EXPLORATION_SEARCH,
                  "acq_candidates": max(10, round(RANDOM_EXPLORATION_SEARCH["acq_candidates"] * scale))}
        return random_exploration.make_method({"method": name, "problem": config["problem"], "seed": config["seed"],
                                               **search}, Box, BETA_ROOT_TWO if name == "GP-UCB+" else None)
    if name == "MINI-GP-UCB":
        from common.experiments.mini_gp_opt import median_squared_distance
        from common.kernels import SquaredExponential
        n_candidates = max(10, round(MINI_CANDIDATES * scale))
        arms = np.vstack([view.from_native(X0), initial_design(view.bounds, n_candidates,
                                                               make_rng(*repetition, "candidates"))])
        spread = float(np.std(y0)) or 1.0
        kernel = SquaredExponential(np.sqrt(MINI_BANDWIDTH_FACTOR * median_squared_distance(arms)), 1.0)
        return MiniGPUCBOnCandidates(arms, len(X0), mini_lambda(problem, view.to_native(arms), spread), kernel)
    if name in ("GP-UCB", "GP-EI"):
        from common.experiments.bo_basics import make_kernel
        return GPAcquisitionMethod(make_kernel(dim), view.bounds, acquisition=name.removeprefix("GP-"),
                                   beta=PROJECT_GP_BETA, noise_variance=1e-6, noise_bounds=PROJECT_GP_NOISE_BOUNDS,
                                   y_transform="standardize", mle_restarts=1, optimizer="direct",
                                   optimizer_options={"max_evals": max(10, round(PROJECT_GP_DIRECT_PER_DIM * dim
                                                                                 * scale))}, name=name)
    if name == "Random search":
        from common.methods.egp_ts import RandomSearch
        return RandomSearch(view.bounds, name=name)
    raise ValueError(f"method must be one of {list(METHODS)}; got {name!r}")


def skopt_available():
    """Whether scikit-optimize (``requirements-arena.txt``) is installed."""
    try:
        import skopt  # noqa: F401
    except ImportError:
        return False
    return True


# --------------------------------------------------------------------------- scales and the grid
_PAPER_SCALE = dict(problems=list(PROBLEMS), methods=list(METHODS), n_seeds=20, budget=100, search_scale=1.0)
SCALES = {
    "smoke": {**_PAPER_SCALE, "n_seeds": 1, "budget": N_INIT + 2, "search_scale": 0.02},
    "quick": {**_PAPER_SCALE, "n_seeds": 3, "budget": 40, "search_scale": 0.25},
    "paper": _PAPER_SCALE,
}
# What `python reproduce.py` regenerates and the repository publishes, until the paper-scale grid is cached.
PUBLISHED = {"scale": "quick"}
CELL_FIELDS = ("experiment", "problem", "method")
# The spot-check recomputes one run per method (its cheapest problem), so that it stays within seconds.
SPOT_CHECK_CELL_FIELDS = {"arena": ("experiment", "method")}


def _check_search_scale(value):
    """a number with 0 < search_scale <= 1 (a factor on every method's acquisition search and candidate set)"""
    return isinstance(value, (int, float)) and not isinstance(value, bool) and 0 < value <= 1


ALLOWED = {"problems": list(PROBLEMS), "methods": list(METHODS), "n_seeds": range(1, 101),
           "budget": range(N_INIT + 1, 1001), "search_scale": _check_search_scale}


def config_of(params, problem, method, seed):
    """The configuration of one run."""
    return {"paper": PAPER, "experiment": "arena", "problem": problem, "method": method, "seed": seed,
            "budget": params["budget"], "search_scale": params["search_scale"]}


def make_grid(params, *, include_skopt=None):
    """Every run of the arena for resolved parameters: problem x method x seed.

    Parameters
    ----------
    params : dict
    include_skopt : bool, optional
        Whether scikit-optimize's runs are part of the grid; default: where it is installed
        (:func:`skopt_available`). The notebook adds the cached ones where it is not (:func:`notebook_grid`).
    """
    include_skopt = skopt_available() if include_skopt is None else include_skopt
    methods = [name for name in params["methods"] if name != SKOPT or include_skopt]
    return [config_of(params, problem, method, seed) for problem in params["problems"] for method in methods
            for seed in range(params["n_seeds"])]


def notebook_grid(params):
    """The runs the notebook shows: :func:`make_grid`, and where scikit-optimize is not installed its runs that are
    cached (read, never recomputed), so that the committed cache regenerates the same notebook either way.

    Returns
    -------
    grid : list of dict
    note : str
        What was left out, for the notebook ("" when nothing was).
    """
    from common import store

    grid = make_grid(params)
    if SKOPT not in params["methods"] or skopt_available():
        return grid, ""
    library = [config for config in make_grid(params, include_skopt=True) if config["method"] == SKOPT]
    cached = [config for config in library if store.cached_run(config, CODE_VERSION) is not None]
    note = ("" if len(cached) == len(library) else
            f"scikit-optimize is not installed here (pip install -r requirements-arena.txt): {len(library) - len(cached)} "
            f"of its {len(library)} runs are not cached and are left out")
    return grid + cached, note


# --------------------------------------------------------------------------- one run
def _run_loop(problem, view, method, X0, y0, budget, n_rounds, noise_rng, method_rng):
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
        queries.append(X)
    return np.vstack(queries), loop.y, loop.iterations


#: gp_minimize's own acquisition search (its defaults): random points scored, L-BFGS-B runs from the best of them.
SKOPT_SEARCH = dict(n_points=10_000, n_restarts_optimizer=5)


def _run_skopt(problem, X0, y0, budget, n_rounds, noise_rng, random_state, search_scale=1.0):
    """scikit-optimize's gp_minimize with its defaults, from the shared initial design (given as x0, y0, with no
    random initial points of its own), minimizing -y; ``n_rounds`` calls at most. Below ``search_scale`` = 1 (the
    smoke and quick scales) its acquisition search shrinks like every method's (:data:`SKOPT_SEARCH`)."""
    from skopt import gp_minimize

    queries, values = [], []

    def objective(x):
        X = np.asarray(x, dtype=float)[None, :]
        value = float(problem.observe(X, noise_rng)[0])
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
        A configuration of :func:`make_grid`.
    iterations : int, optional
        Stop after this many BO iterations (rounds after the initial design): a run's queries do not depend on
        its budget before the budget is reached, so the traces are a prefix of the full run's (the spot-check).

    Returns
    -------
    dict
        Per evaluation (the initial design first): ``f`` the noise-free value, ``y`` the observed value,
        ``regret`` f* - the best noise-free value so far, ``iteration`` (0 for the initial design); and
        ``unique_points``, the number of distinct query points of the run.
    """
    problem = make_problem(config["problem"], config["seed"])
    repetition = (PAPER, config["problem"], config["seed"])
    X0 = initial_design(problem.bounds, N_INIT, make_rng(*repetition, "initial design"))
    y0 = problem.observe(X0, make_rng(*repetition, "initial design noise"))
    budget, name = config["budget"], config["method"]
    n_rounds = budget - N_INIT if iterations is None else min(iterations, budget - N_INIT)
    noise_rng = make_rng(*repetition, name, "noise")
    method_rng = make_rng(*repetition, name, "method")
    if name == SKOPT:
        X, y, rounds = _run_skopt(problem, X0, y0, budget, n_rounds, noise_rng,
                                  int(method_rng.integers(2**31 - 1)), config["search_scale"])
    else:
        view = View(problem.bounds, METHOD_VIEWS[name])
        method = make_method(config, problem, view, X0, y0)
        X, y, rounds = _run_loop(problem, view, method, X0, y0, budget, n_rounds, noise_rng, method_rng)
    f = problem.noise_free(X) if problem.noisy else np.asarray(y, dtype=float)
    return {"f": f, "y": np.asarray(y, dtype=float), "regret": problem.optimal_value - np.maximum.accumulate(f),
            "iteration": np.asarray(rounds, dtype=np.int64), "unique_points": int(len(np.unique(X, axis=0)))}


# --------------------------------------------------------------------------- tables of the runs
def final_values(table):
    """One row per run: ``problem``, ``method``, ``seed``, its final ``regret`` and ``run_cpu_seconds``.

    Parameters
    ----------
    table : pandas.DataFrame
        The tidy table of arena runs (:func:`common.store.tidy_table`).

    Returns
    -------
    pandas.DataFrame
    """
    from common.store import final_rows

    finals = final_rows(table)
    return finals[["problem", "method", "seed", "regret", "run_cpu_seconds"]].reset_index(drop=True)


def per_seed(finals, problem, method, column="regret"):
    """One problem's and method's values by seed, a Series indexed by seed."""
    chosen = finals[(finals["problem"] == problem) & (finals["method"] == method)]
    return chosen.set_index("seed")[column].astype(float)
