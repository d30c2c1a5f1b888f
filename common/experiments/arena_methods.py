"""The arena's methods: each paper's method at its paper's settings, the peers beside them, and each idea switched off.

**Methods** (:data:`METHODS`), each at its own paper's recommended settings as the project implements them (the
experiment modules' own ``make_method``), with no per-problem tuning, declared before any run:

* ``EGP-TS``: Thompson sampling from the ensemble of dictionary A (RBF, RBF-ARD, Matérn-1.5, Matérn-2.5) on the unit
  cube (:func:`common.experiments.egp_ts.make_method`, the paper-scale settings of ``egp_ts``);
* ``UCB-PP``: GP-UCB with pseudo-points at tau0 = 0.0001, the paper's best ("UCB-PP0001 is always better than UCB",
  §5), on [-1, 1]^d with ``bo_pp``'s GP and DIRECT (:func:`common.experiments.bo_pp.make_method`);
* ``Add-GP-UCB``: the practical Add-d/M (Algorithm 2: decomposition learned by the marginal likelihood every 25
  iterations) under add_gp_ucb's "authors" settings (:func:`common.experiments.add_gp_ucb.make_method`), which its
  published "authors-code" settings refine by two details of the authors' code; d by :func:`add_group_dim`;
* ``GP-UCB+`` and ``EXPLOIT+``: a uniform point added to every iteration of GP-UCB (beta^{1/2} = 2) and of the
  posterior-mean maximizer, with the paper's surrogate on raw inputs
  (:func:`common.experiments.random_exploration.make_method`);
* ``MINI-GP-UCB``: MINI-META's epochs on a candidate set drawn once per problem and seed
  (:class:`MiniGPUCBOnCandidates`, built from :mod:`common.methods.mini_gp_opt`);
* ``GP-UCB`` and ``GP-EI`` on the project's own GP (``bo_basics``'s Matérn-5/2 ARD prior on the unit cube,
  standardized y, ML-II at every iteration, DIRECT; beta_t = 0.2 d log 2t), its noise variance fitted;
* ``Random search``; and ``skopt`` (scikit-optimize's ``gp_minimize`` with its own defaults, the library a user
  would pick), where scikit-optimize is installed (``requirements-arena.txt``, kept out of the project's pins).

**Ideas** (:data:`IDEAS`, issue 42): each paper's method beside its twins, the same method with the paper's idea
switched off. Each method searches in its own coordinates (:class:`View`: the unit cube, [-1, 1]^d or the problem's
box), and :func:`make_method` builds it there.
"""
from dataclasses import dataclass

import numpy as np

from common.bo import GPAcquisitionMethod, RandomSearch, initial_design
from common.experiments.arena_suite import FIRST_SUITE, PAPER, SPEC_OF
from common.seeding import make_rng


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
BOTORCH = "BoTorch"
METHODS = ("EGP-TS", "UCB-PP", "Add-GP-UCB", "GP-UCB+", "EXPLOIT+", "MINI-GP-UCB", "GP-UCB", "GP-EI",
           "Random search", SKOPT, BOTORCH)
#: The library peers, each run only where its optional requirements file is installed (:func:`library_available`)
#: and otherwise read from the cache; no hypothesis uses them.
LIBRARIES = {SKOPT: "requirements-arena.txt", BOTORCH: "requirements-botorch.txt"}
METHOD_VIEWS = {"EGP-TS": "unit", "UCB-PP": "symmetric", "Add-GP-UCB": "symmetric", "GP-UCB+": "native",
                "EXPLOIT+": "native", "MINI-GP-UCB": "unit", "GP-UCB": "unit", "GP-EI": "unit",
                "Random search": "native", SKOPT: "native", BOTORCH: "native"}
#: The reference every hypothesis compares with: plain GP-UCB on the project's GP.
REFERENCE = "GP-UCB"
#: A strong second reference (issue 42 item 2), declared on 2026-11-28 while its runs (those of GP-UCB+'s twin) were
#: computing and before any was read: random_exploration's GP-UCB, the same GP-UCB as GP-UCB+ without the random
#: point (beta^{1/2} = 2, a Matérn surrogate on raw inputs, 2,000 scored candidates and 3 L-BFGS-B polishes). Chosen
#: because the issue measured it ahead of every arena method on Additive-24 and Levy-10, where GP-UCB is weak; the
#: hypotheses keep GP-UCB as declared, and :func:`~common.experiments.arena_scoring.versus_reference_table` sets
#: every method beside this one.
STRONG_REFERENCE = "GP-UCB+ off"
#: The single-kernel GPs of the suite (EGP-TS's hypothesis: no worse than the better of them).
SINGLE_KERNEL_GPS = ("GP-UCB", "GP-EI")

# --------------------------------------------------------------------------- each idea switched off
@dataclass(frozen=True)
class Idea:
    """One paper's idea inside its own method, and the same method with the idea switched off (issue 42).

    A method of :data:`METHODS` is a whole package, the idea with its paper's GP, acquisition search and settings;
    its twin changes the idea and nothing else, so the paired on/off effect is the idea's.

    Attributes
    ----------
    method : str
        The method with the idea (one of :data:`METHODS`).
    idea : str
        What the idea is.
    off : tuple of str
        The method(s) without it, each run on the same designs, seeds and random streams as ``method``.
    how : str
        What switching it off changes.
    """

    method: str
    idea: str
    off: tuple
    how: str


#: egp_ts's dictionary A, one kernel at a time (``common.experiments.egp_ts.SINGLE_KERNELS``; a test checks it).
EGP_TS_KERNELS = ("RBF", "RBF-ARD", "Matérn-1.5", "Matérn-2.5")
IDEAS = (
    Idea("GP-UCB+", "a uniform random point added to every iteration", ("GP-UCB+ off",),
         "no random point: random_exploration's GP-UCB, the same GP, beta^{1/2} = 2 and acquisition search"),
    Idea("EXPLOIT+", "a uniform random point added to every iteration", ("EXPLOIT+ off",),
         "no random point: random_exploration's EXPLOIT, the posterior-mean maximizer alone"),
    Idea("UCB-PP", "pseudo-points at distance tau around the data", ("UCB-PP off",),
         "tau0 = 0: bo_pp's UCB, the same GP, beta_t and DIRECT"),
    Idea("Add-GP-UCB", "an additive GP over groups of d coordinates, the grouping learned", ("Add-GP-UCB off",),
         "one group of all D coordinates: add_gp_ucb's GP-UCB, the same practical algorithm (hyperparameters "
         "learned every 25 iterations; its acquisition DIRECT gets the whole budget where Add-d/M's gets 0.9 of "
         "it, as in add_gp_ucb); where D <= 3 the arena's d is D, the idea is off in both, and no twin runs"),
    Idea("EGP-TS", "Thompson sampling from an ensemble of kernels weighted by their evidence",
         tuple(f"EGP-TS off ({kernel} only)" for kernel in EGP_TS_KERNELS),
         "an ensemble of one kernel of dictionary A: EGP-TS itself with the same random features, refits (every "
         "50 observations, 2 likelihood restarts) and search (until 2026-12-04 the twin was egp_ts's GP-TS, which "
         "refits at every proposal with no restarts)"),
    Idea("MINI-GP-UCB", "epochs that evaluate one arm B times between updates", ("MINI-GP-UCB off",),
         "B = 1: GP-UCB on the same arms with the same beta and posterior, updated after every evaluation"),
)
IDEA_OF = {idea.method: idea for idea in IDEAS}
#: Each twin's method with the idea on.
TWINS = {off: idea.method for idea in IDEAS for off in idea.off}
METHOD_VIEWS.update({off: METHOD_VIEWS[on] for off, on in TWINS.items()})


def idea_active(method, problem_dim):
    """Whether ``method``'s idea changes anything on a problem of dimension ``problem_dim`` (Add-GP-UCB's only
    where the arena's d is below D)."""
    return method != "Add-GP-UCB" or add_group_dim(problem_dim) < problem_dim


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
#: gp_minimize's own acquisition search (its defaults): random points scored, L-BFGS-B runs from the best of them.
SKOPT_SEARCH = dict(n_points=10_000, n_restarts_optimizer=5)


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
    epochs : bool
        False switches the paper's idea off: every epoch evaluates its arm once (B = 1), which is GP-UCB on the
        same arms with the same beta, refitted after every evaluation (the "traditional counterpart", §1.2).
    """

    name = "MINI-GP-UCB"

    def __init__(self, arms, n_initial, lam, kernel, threshold=MINI_THRESHOLD, norm_bound=MINI_NORM_BOUND,
                 delta=MINI_DELTA, epochs=True):
        from common.methods.mini_gp_opt import UniqueArmPosterior

        self.arms, self.n_initial = np.asarray(arms, dtype=float), int(n_initial)
        self.posterior = UniqueArmPosterior(kernel, self.arms, lam)
        self.lam, self.threshold, self.norm_bound, self.delta = float(lam), threshold, norm_bound, delta
        self.epochs = bool(epochs)
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
        length = max(rule, 1) if self.epochs else 1
        self.last_arm = arm
        self.lengths.append(length)
        return np.repeat(self.arms[arm][None, :], length, axis=0)


def make_method(config, problem, view, X0, y0):
    """The method of a configuration, in its own coordinates (``view.bounds``).

    Parameters
    ----------
    config : dict
        A configuration of :func:`~common.experiments.arena.make_grid`.
    problem : arena problem (:func:`~common.experiments.arena_suite.make_problem`)
    view : View
        The method's coordinates.
    X0, y0 : the shared initial design (the problem's coordinates) and its observed values.

    Returns
    -------
    A BO method (``propose(X, y, iteration, rng)``) for :class:`common.bo.BayesianOptimization`.
    """
    # A twin (:data:`TWINS`) is built like its method, with the idea off.
    name, off = TWINS.get(config["method"], config["method"]), config["method"] in TWINS
    scale, dim = config["search_scale"], problem.dim
    repetition = (PAPER, config["problem"], config["seed"])

    class Box:  # what the papers' make_method read of a problem: its box and dimension
        bounds, optimal_value = view.bounds, problem.optimal_value

    Box.dim = dim
    if name == "EGP-TS":
        from common.experiments import egp_ts
        settings = {**EGP_TS_SETTINGS, "n_candidates": max(10, round(EGP_TS_SETTINGS["n_candidates"] * scale))}
        single = config["method"].removeprefix("EGP-TS off (").removesuffix(" only)")
        return egp_ts.make_method({"method": f"EGP-TS ({single})" if off else "EGP-TS (A)", **settings,
                                   "T": config["budget"]}, dim)
    if name == "UCB-PP":
        from common.experiments import bo_pp
        options = {"acquisition": "UCB", "tau0": 0.0 if off else UCB_PP_TAU0, "kernel": "ard", "y_transform": "none",
                   "pseudo_point_mode": "box", "noise_variance": 1e-4, "mle_restarts": 1,
                   "direct_evals_per_dim": max(10, round(UCB_PP_DIRECT_PER_DIM * scale))}
        method = bo_pp.make_method(options, Box, make_rng(*repetition, name, "pseudo-points"))
        method.name = config["method"]
        return method
    if name == "Add-GP-UCB":
        from common.experiments import add_gp_ucb
        return add_gp_ucb.make_method({"problem": config["problem"], "method": "GP-UCB" if off else add_label(dim),
                                       "budget_scale": scale, "n_dec_factor": 5, "settings": "authors"}, Box)
    if name in ("GP-UCB+", "EXPLOIT+"):
        from common.experiments import random_exploration
        search = {**RANDOM_EXPLORATION_SEARCH,
                  "acq_candidates": max(10, round(RANDOM_EXPLORATION_SEARCH["acq_candidates"] * scale))}
        return random_exploration.make_method({"method": name.removesuffix("+") if off else name,
                                               "problem": config["problem"], "seed": config["seed"], **search}, Box,
                                              BETA_ROOT_TWO if name == "GP-UCB+" else None)
    if name == "MINI-GP-UCB":
        from common.experiments.mini_gp_opt import median_squared_distance
        from common.kernels import SquaredExponential
        n_candidates = max(10, round(MINI_CANDIDATES * scale))
        arms = np.vstack([view.from_native(X0), initial_design(view.bounds, n_candidates,
                                                               make_rng(*repetition, "candidates"))])
        spread = float(np.std(y0)) or 1.0
        kernel = SquaredExponential(np.sqrt(MINI_BANDWIDTH_FACTOR * median_squared_distance(arms)), 1.0)
        return MiniGPUCBOnCandidates(arms, len(X0), mini_lambda(problem, view.to_native(arms), spread), kernel,
                                     epochs=not off)
    if name in ("GP-UCB", "GP-EI"):
        from common.teaching import make_kernel
        return GPAcquisitionMethod(make_kernel(dim), view.bounds, acquisition=name.removeprefix("GP-"),
                                   beta=PROJECT_GP_BETA, noise_variance=1e-6, noise_bounds=PROJECT_GP_NOISE_BOUNDS,
                                   y_transform="standardize", mle_restarts=1, optimizer="direct",
                                   optimizer_options={"max_evals": max(10, round(PROJECT_GP_DIRECT_PER_DIM * dim
                                                                                 * scale))}, name=name)
    if name == "Random search":
        return RandomSearch(view.bounds, name=name)
    raise ValueError(f"method must be one of {list(METHODS)} or a twin of {list(TWINS)}; got {name!r}")


def skopt_available():
    """Whether scikit-optimize (``requirements-arena.txt``) is installed."""
    try:
        import skopt  # noqa: F401
    except ImportError:
        return False
    return True


def library_available(name):
    """Whether the library peer ``name`` (:data:`LIBRARIES`) is installed; True for every other method."""
    if name == SKOPT:
        return skopt_available()
    if name == BOTORCH:
        from common.experiments.arena_botorch import botorch_available
        return botorch_available()
    return True


# --------------------------------------------------------------------------- the notebook's tables of settings
def methods_table(problems=FIRST_SUITE):
    """The methods with their settings and sources, from the constants above (what every run uses).

    Parameters
    ----------
    problems : list of str
        The problems run, for Add-GP-UCB's Add-d/M per dimension.

    Returns
    -------
    pandas.DataFrame
        Columns ``method``, ``paper``, ``coordinates``, ``settings``.
    """
    import pandas as pd

    dims = sorted({SPEC_OF[name].dim for name in problems})
    coordinates = {"unit": "[0, 1]^d", "symmetric": "[-1, 1]^d", "native": "the problem's box"}
    settings = {
        "EGP-TS": ("egp_ts", f"dictionary A (RBF, RBF-ARD, Matérn-1.5, Matérn-2.5), {EGP_TS_SETTINGS['n_features']} "
                             f"random features, ensemble refitted every {EGP_TS_SETTINGS['refit_every']} "
                             f"observations, each draw maximized from {EGP_TS_SETTINGS['n_candidates']} candidates "
                             f"and {EGP_TS_SETTINGS['n_restarts']} L-BFGS-B runs; noise fitted (spec U3)"),
        "UCB-PP": ("bo_pp", f"tau0 = {UCB_PP_TAU0:g} (the paper's best), one pseudo-point per observation within "
                            f"tau = 2 tau0 / (d l_t), SE-ARD GP on raw y, noise 1e-4, beta_t of Srinivas et al. "
                            f"(delta = 0.1), DIRECT with {UCB_PP_DIRECT_PER_DIM} d evaluations"),
        "Add-GP-UCB": ("add_gp_ucb", "the practical Add-d/M (decomposition and (h, sigma) relearned every 25 "
                                     "iterations, 5 D random decompositions scored), add_gp_ucb's "
                                     "\"authors\" settings (zero prior mean, sigma in [0.03, 30] std(y_init), "
                                     "DIRECT to 0.9 min(5000, 100 D) evaluations; its published \"authors-code\" "
                                     "settings add two details of the authors' code, add_gp_ucb §4); "
                                     "d = min(D, max(3, ceil(D/4))): "
                       + ", ".join(f"D = {dim}: {add_label(dim)}" for dim in dims)),
        "GP-UCB+": ("random_exploration", f"GP-UCB with beta^1/2 = {BETA_ROOT_TWO:g} and one uniform point per "
                                          f"iteration; isotropic Matérn-5/2, lengthscale by ML, nugget 1e-6, raw inputs; "
                                          f"{RANDOM_EXPLORATION_SEARCH['acq_candidates']} Sobol' candidates and "
                                          f"{RANDOM_EXPLORATION_SEARCH['acq_polish']} L-BFGS-B runs"),
        "EXPLOIT+": ("random_exploration", "the posterior-mean maximizer and one uniform point per iteration (the "
                                           "same uniform points as GP-UCB+), otherwise as GP-UCB+"),
        "MINI-GP-UCB": ("mini_gp_opt", f"epochs of B = floor((C^2 - 1) / sigma~^2) evaluations of one arm, C = "
                                       f"{MINI_THRESHOLD:g}, F = {MINI_NORM_BOUND:g}, delta = {MINI_DELTA:g}, on "
                                       f"{MINI_CANDIDATES:,} uniform candidates drawn once per problem and seed (plus "
                                       f"the initial design); SE kernel with l^2 = {MINI_BANDWIDTH_FACTOR:g} x the "
                                       f"median squared distance; lambda = the 90th percentile of the noise std over "
                                       f"the candidates (known noise), at least {MINI_LAMBDA_FLOOR:g}"),
        "GP-UCB": ("the project (bo_basics)", f"Matérn-5/2 ARD, standardized y, ML-II every iteration (1 restart), "
                                              f"noise variance fitted in {PROJECT_GP_NOISE_BOUNDS}, beta_t = 0.2 d "
                                              f"log 2t, DIRECT with {PROJECT_GP_DIRECT_PER_DIM} d evaluations"),
        "GP-EI": ("the project (bo_basics)", "expected improvement on the same GP as GP-UCB"),
        "Random search": ("(baseline)", "uniform points on the box"),
        SKOPT: ("scikit-optimize 0.10.2", "gp_minimize with its defaults (Matérn-5/2 GP with fitted noise, gp_hedge "
                                          f"acquisition, {SKOPT_SEARCH['n_points']:,} points and "
                                          f"{SKOPT_SEARCH['n_restarts_optimizer']} L-BFGS-B runs), from the shared "
                                          "design as x0, y0 with no random points of its own; optional "
                                          "(requirements-arena.txt)"),
        BOTORCH: ("BoTorch 0.18.1", "its documented defaults: SingleTaskGP (Matérn-5/2 ARD with its priors, inputs "
                                    "normalized, outputs standardized, fit_gpytorch_mll), qLogNoisyExpectedImprovement, "
                                    "optimize_acqf with q = 1, 10 restarts from 512 raw samples; optional "
                                    "(requirements-botorch.txt)"),
    }
    rows = [{"method": name, "paper": settings[name][0], "coordinates": coordinates[METHOD_VIEWS[name]],
             "settings": settings[name][1]} for name in METHODS]
    return pd.DataFrame(rows)


def ideas_table():
    """The ideas (:data:`IDEAS`): each method, its idea, what switching it off changes and its twins."""
    import pandas as pd

    return pd.DataFrame([{"method": idea.method, "the idea": idea.idea, "switched off": idea.how,
                          "twins": ", ".join(idea.off)} for idea in IDEAS])
