"""The Bayesian-optimization loop: an initial design, then ask/tell with any method.

A *method* is any object with ``name`` and
``propose(X, y, iteration, rng) -> (q, d) array`` of the next points to
evaluate, given all observations so far (q > 1 for batch methods). The loop
records, per evaluation, the query, the observed value, the best-so-far, the
BO iteration that proposed it (0 for the initial design) and the wall time of
that proposal, so that regret curves against iterations or seconds can be drawn
from one record.

:class:`GPAcquisitionMethod` is the textbook method (Brochu et al. 2010,
Algorithm 1): fit a GP, maximize an acquisition function, query its argmax.
Paper-specific methods subclass it or implement ``propose`` themselves.
"""
import time

import numpy as np
from scipy.stats import qmc

from common.acquisitions import (
    ExpectedImprovement,
    PosteriorMean,
    PosteriorVariance,
    ProbabilityOfImprovement,
    UpperConfidenceBound,
    beta_schedule,
)
from common.gp import GaussianProcess
from common.optimizers import direct_maximize, maximize_with_restarts

ACQUISITIONS = ("UCB", "EI", "PI", "mean", "variance")
OPTIMIZERS = ("direct", "restarts")


def check_bounds(bounds):
    """Validate a box: array of shape (d, 2) with lower < upper."""
    bounds = np.asarray(bounds, dtype=float)
    if bounds.ndim != 2 or bounds.shape[1] != 2 or not np.all(bounds[:, 0] < bounds[:, 1]):
        raise ValueError(f"bounds must have shape (d, 2) with lower < upper; got {bounds.tolist()!r}.")
    return bounds


def initial_design(bounds, n_points, rng, kind="uniform"):
    """``n_points`` points in the box: i.i.d. uniform, or a Latin hypercube (scipy.stats.qmc).

    Returns an array of shape (n_points, d).
    """
    bounds = check_bounds(bounds)
    if n_points < 0:
        raise ValueError(f"n_points must be >= 0; got {n_points}.")
    low, high = bounds[:, 0], bounds[:, 1]
    if kind == "uniform":
        unit = rng.random((n_points, len(bounds)))
    elif kind == "lhs":
        unit = qmc.LatinHypercube(d=len(bounds), seed=rng).random(n_points)
    else:
        raise ValueError(f"kind must be 'uniform' or 'lhs'; got {kind!r}.")
    return low + (high - low) * unit


class RandomSearch:
    """Random search: every query uniform on the box, independent of the observations (a baseline, no model).

    The same draws as :func:`initial_design` (``kind="uniform"``) from the same generator.

    Parameters
    ----------
    bounds : (d, 2) box.
    batch_size : int, default 1
        Points per round.
    name : str, default "Random search"
    """

    def __init__(self, bounds, *, batch_size=1, name="Random search"):
        self.bounds = check_bounds(bounds)
        if int(batch_size) != batch_size or batch_size < 1:
            raise ValueError(f"batch_size must be an integer >= 1; got {batch_size!r}.")
        self.batch_size, self.name = int(batch_size), name

    def propose(self, X, y, iteration, rng):
        """``batch_size`` points drawn uniformly on the box, shape (batch_size, d)."""
        return initial_design(self.bounds, self.batch_size, rng)

    def __repr__(self):
        return f"RandomSearch(name={self.name!r})"


class BayesianOptimization:
    """Ask/tell state of one BO run.

    Parameters
    ----------
    bounds : (d, 2) box.
    method : object with ``propose(X, y, iteration, rng)``.
    rng : numpy.random.Generator used by the method.
    """

    def __init__(self, bounds, method, rng):
        self.bounds = check_bounds(bounds)
        self.method = method
        self.rng = rng
        self.X = np.empty((0, len(self.bounds)))
        self.y = np.empty(0)
        self.iterations = np.empty(0, dtype=int)
        self.wall_times = np.empty(0)
        self.iteration = 0
        self._asked_at = None

    def ask(self):
        """Next points to evaluate, shape (q, d); starts the wall-time clock of this iteration."""
        if len(self.y) == 0:
            raise RuntimeError("tell the initial design before asking for BO proposals.")
        self.iteration += 1
        self._asked_at = time.perf_counter()
        X_next = np.atleast_2d(np.asarray(self.method.propose(self.X, self.y, self.iteration, self.rng),
                                          dtype=float))
        self._proposal_seconds = time.perf_counter() - self._asked_at
        if X_next.shape[1] != len(self.bounds):
            raise ValueError(f"method {self.method!r} proposed points of shape {X_next.shape}; "
                             f"expected (q, {len(self.bounds)}).")
        return np.clip(X_next, self.bounds[:, 0], self.bounds[:, 1])

    def tell(self, X, y):
        """Record evaluations. Points told before the first ``ask`` form the initial design."""
        X = np.atleast_2d(np.asarray(X, dtype=float))
        y = np.asarray(y, dtype=float).reshape(-1)
        if len(X) != len(y):
            raise ValueError(f"X and y must have the same length; got {len(X)} and {len(y)}.")
        seconds = 0.0 if self._asked_at is None else self._proposal_seconds
        self.X = np.vstack([self.X, X])
        self.y = np.append(self.y, y)
        self.iterations = np.append(self.iterations, np.full(len(y), self.iteration))
        self.wall_times = np.append(self.wall_times, np.full(len(y), seconds))
        self._asked_at = None

    def record(self):
        """Per-evaluation record: X, y, best_so_far, iteration, wall_time."""
        return {
            "X": self.X.copy(),
            "y": self.y.copy(),
            "best_so_far": np.maximum.accumulate(self.y),
            "iteration": self.iterations.copy(),
            "wall_time": self.wall_times.copy(),
        }


def run_bo(objective, bounds, method, n_init, n_iterations, init_rng, method_rng,
           noise_std=0.0, noise_rng=None, design="uniform", max_evaluations=None):
    """Run a whole BO loop and return its per-evaluation record.

    Parameters
    ----------
    objective : callable, X (n, d) -> (n,), noise-free values (maximized).
    bounds : (d, 2) box.
    method : BO method (see module docstring).
    n_init : int, size of the initial design (drawn with ``init_rng`` so that all
        methods of one repetition share it when they share the key of ``init_rng``).
    n_iterations : int, number of ``ask``/``tell`` rounds after the initial design.
    init_rng, method_rng : numpy Generators for the design and the method.
    noise_std : float, std of Gaussian noise added to observations (drawn from
        ``noise_rng``); the noise-free values are recorded as ``f``.
    design : {"uniform", "lhs"}
    max_evaluations : int, optional, stop once this many evaluations are made
        (batch methods may otherwise overshoot the budget).

    Returns
    -------
    dict with X (n, d), y observed (n,), f noise-free (n,), best_so_far (n,) of f,
    iteration (n,), wall_time (n,): seconds of the proposal that produced each point;
    and, for methods that fit GP hyperparameters (``method.likelihood_failures``),
    the number of likelihood evaluations whose factorization failed in the run.
    """
    if noise_std > 0 and noise_rng is None:
        raise ValueError("noise_rng is required when noise_std > 0.")
    loop = BayesianOptimization(bounds, method, method_rng)
    noise_free = []

    def evaluate(X):
        f = np.asarray(objective(X), dtype=float).reshape(-1)
        noise_free.append(f)
        return f + noise_std * noise_rng.standard_normal(len(f)) if noise_std > 0 else f

    X0 = initial_design(bounds, n_init, init_rng, design)
    loop.tell(X0, evaluate(X0))
    for _ in range(n_iterations):
        if max_evaluations is not None and len(loop.y) >= max_evaluations:
            break
        X_next = loop.ask()
        if max_evaluations is not None:
            X_next = X_next[: max_evaluations - len(loop.y)]
        loop.tell(X_next, evaluate(X_next))
    record = loop.record()
    record["f"] = np.concatenate(noise_free)
    record["best_so_far"] = np.maximum.accumulate(record["f"])
    if hasattr(method, "likelihood_failures"):
        record["likelihood_failures"] = method.likelihood_failures
    return record


class GPAcquisitionMethod:
    """GP + acquisition function + acquisition maximizer (one point per iteration).

    Each iteration: refit the GP hyperparameters by maximum likelihood (warm
    started from the previous fit), build the posterior (:meth:`posterior`, a hook
    for methods that alter it), and maximize the acquisition over the box.

    Parameters
    ----------
    kernel : Kernel, the prior covariance and its starting hyperparameters.
    bounds : (d, 2) box searched by the acquisition maximizer.
    acquisition : {"UCB", "EI", "PI", "mean", "variance"}
    beta : str or callable, UCB only. A name from ``BETA_SCHEDULES`` or a function
        beta(t, d). ``beta_options`` are passed to it.
    noise_variance, noise_bounds, y_transform : see :class:`~common.gp.GaussianProcess`.
    mle_restarts : int, random restarts of the hyperparameter fit besides the warm start.
    fit_hyperparameters : bool, False keeps the kernel's hyperparameters fixed.
    optimizer : {"direct", "restarts"}
        "direct" uses :func:`common.optimizers.direct_maximize` (batched DIRECT);
        "restarts" random/LHS candidates + L-BFGS-B with analytic gradients.
    optimizer_options : dict passed to the maximizer (e.g. ``max_evals`` for DIRECT).
    """

    def __init__(self, kernel, bounds, acquisition="UCB", beta="srinivas", beta_options=None,
                 noise_variance=1e-6, noise_bounds="fixed", y_transform="none", mle_restarts=1,
                 fit_hyperparameters=True, optimizer="direct", optimizer_options=None, name=None):
        if acquisition not in ACQUISITIONS:
            raise ValueError(f"acquisition must be one of {ACQUISITIONS}; got {acquisition!r}.")
        if optimizer not in OPTIMIZERS:
            raise ValueError(f"optimizer must be one of {OPTIMIZERS}; got {optimizer!r}.")
        self.kernel = kernel
        self.bounds = check_bounds(bounds)
        self.acquisition = acquisition
        self.beta = beta_schedule(beta) if isinstance(beta, str) else beta
        self.beta_options = dict(beta_options or {})
        self.gp_options = dict(noise_variance=noise_variance, noise_bounds=noise_bounds,
                               y_transform=y_transform)
        self.mle_restarts = int(mle_restarts)
        self.fit_hyperparameters = fit_hyperparameters
        self.optimizer = optimizer
        self.optimizer_options = dict(optimizer_options or {})
        self.name = name or acquisition
        self.last_gp = None
        self.likelihood_failures = 0

    def fit_model(self, X, y, rng):
        """GP on the real observations, hyperparameters by warm-started MLE."""
        gp = GaussianProcess(self.kernel, **self.gp_options).fit(X, y)
        if self.fit_hyperparameters:
            gp.fit_hyperparameters(rng, n_restarts=self.mle_restarts, warm_start=True)
            self.likelihood_failures += gp.likelihood_failures
            self.kernel = gp.kernel
            self.gp_options["noise_variance"] = gp.noise_variance
        return gp

    def posterior(self, gp, X, y, iteration, rng):
        """The posterior the acquisition is computed from; the fitted GP by default."""
        return gp

    def make_acquisition(self, iteration, best):
        """The acquisition object of this iteration (beta_t for UCB uses t = iteration)."""
        if self.acquisition == "UCB":
            return UpperConfidenceBound(self.beta(iteration, len(self.bounds), **self.beta_options))
        if self.acquisition == "EI":
            return ExpectedImprovement(best)
        if self.acquisition == "PI":
            return ProbabilityOfImprovement(best)
        if self.acquisition == "mean":
            return PosteriorMean()
        return PosteriorVariance()

    def maximize(self, acquisition, gp, rng):
        """Argmax of the acquisition over the box with the configured optimizer."""
        def batch(Z):
            return acquisition(gp, Z)

        if self.optimizer == "direct":
            return direct_maximize(batch, self.bounds, **self.optimizer_options).x

        def value_and_gradient(x):
            return acquisition.value_and_gradient(gp, x)

        return maximize_with_restarts(batch, self.bounds, rng, fun_and_grad=value_and_gradient,
                                      **self.optimizer_options).x

    def propose(self, X, y, iteration, rng):
        gp = self.fit_model(X, y, rng)
        gp = self.posterior(gp, X, y, iteration, rng)
        self.last_gp = gp
        acquisition = self.make_acquisition(iteration, best=np.max(y))
        return self.maximize(acquisition, gp, rng)[None, :]

    def __repr__(self):
        return f"{type(self).__name__}(name={self.name!r}, kernel={self.kernel!r})"
