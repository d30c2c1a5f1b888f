"""GP-UCB+ and EXPLOIT+: BO with a random exploration step (Kim & Sanz-Alonso 2024).

Each iteration t of GP-UCB+ (Algorithm 2) and EXPLOIT+ (Algorithm 3) queries two points:

    x_t  = argmax_x  mu_{t-1}(x) + beta_t^{1/2} sigma_{t-1}(x)     (GP-UCB+; Algorithm 2, line 3)
    x_t  = argmax_x  mu_{t-1}(x)                                   (EXPLOIT+; Algorithm 3, line 3)
    x~_t ~ P = Uniform(X)                                          (the random exploration step)

and the GP is then conditioned on both. The uniform points make the fill
distance h(X, X_n) = sup_x min_i ||x - x_i|| of the query set decay at the rate
of i.i.d. uniform points, n^{-1/d} up to logarithms (§4.1), which is what the
regret bounds of Theorems 4.4 and 4.8 need. Because a "+" method evaluates f
twice per iteration, it runs half as many iterations for the same budget (§5).

The baselines are the same GP with one query per iteration: GP-UCB
(Algorithm 1), EXPLOIT (beta = 0), EXPLORE (argmax sigma, §4.1), EI and PI; and
UNIFORM, i.i.d. uniform queries without a model (:class:`common.bo.RandomSearch`).

The surrogate follows the paper's implementation as far as it is stated
("Matérn, initial smoothness 2.5, initial lengthscale 1, hyperparameters by
maximum likelihood at every iteration", §5) and otherwise bayes_opt 1.4.3's
defaults, which these statements match: an isotropic Matérn-5/2 kernel with
unit signal variance on standardized y, a nugget of 1e-6, raw inputs.
"""
import warnings

import numpy as np

from scipy.linalg import LinAlgError, cho_solve
from scipy.optimize import minimize_scalar

from common.bo import GPAcquisitionMethod, initial_design
from common.gp import GaussianProcess, jittered_cholesky
from common.kernels import Matern, SquaredExponential

# The "+" methods evaluate this many points per iteration: the acquisition's argmax, then one uniform draw.
QUERIES_PER_ITERATION = 2
# bayes_opt's GaussianProcessRegressor(alpha=1e-6, normalize_y=True): the nugget on standardized y.
NUGGET = 1e-6
LENGTHSCALE_BOUNDS = (1e-5, 1e5)  # scikit-learn's default box for a Matérn lengthscale


def sup_beta_root(objective, bounds, n_points, rng):
    """beta^{1/2} = max_{x in X_D} |f(x)| over a Latin hypercube X_D (§5, following Chowdhury & Gopalan 2019).

    The |X_D| evaluations set the weight only: they are not BO queries, and the
    GP never sees them.

    Parameters
    ----------
    objective : callable, X (n, d) -> (n,)
    bounds : (d, 2) box
    n_points : int, size of X_D (100 for the benchmarks, 40 for the random forest)
    rng : numpy.random.Generator

    Returns
    -------
    float
    """
    X_D = initial_design(bounds, n_points, rng, kind="lhs")
    return float(np.max(np.abs(objective(X_D))))


def surrogate_kernel(kind, dim):
    """The paper's prior: Matérn-5/2 with l = 1 (§5.1, §5.2), or SE with l^2 = 50 (§5.3, the sprinkler).

    Isotropic, signal variance fixed at 1 on standardized y (scikit-learn's
    Matern/RBF without a ConstantKernel factor, as bayes_opt builds it); only
    the lengthscale is fitted.
    """
    if kind == "matern":
        return Matern(nu=2.5, lengthscale=1.0, variance=1.0, lengthscale_bounds=LENGTHSCALE_BOUNDS,
                      variance_bounds="fixed")
    if kind == "se":
        return SquaredExponential(lengthscale=np.sqrt(50.0), variance=1.0, lengthscale_bounds=LENGTHSCALE_BOUNDS,
                                  variance_bounds="fixed")
    raise ValueError(f"kernel must be 'matern' or 'se'; got {kind!r}.")


class RandomExploration:
    """Wrap a one-point BO method so that each iteration adds a uniform draw (Algorithms 2 and 3).

    Parameters
    ----------
    base : BO method whose ``propose`` returns one point (GP-UCB for GP-UCB+,
        the posterior-mean maximizer for EXPLOIT+).
    bounds : (d, 2) box; P is uniform on it.
    exploration_rng : numpy.random.Generator of the uniform draws. GP-UCB+ and
        EXPLOIT+ of one repetition get the same stream, so their random points
        are paired.
    name : str, default ``base.name + "+"``.
    """

    def __init__(self, base, bounds, exploration_rng, name=None):
        self.base = base
        self.bounds = np.asarray(bounds, dtype=float)
        self.exploration_rng = exploration_rng
        self.name = name or f"{base.name}+"

    def propose(self, X, y, iteration, rng):
        """The acquisition's argmax first, then x~_t ~ Uniform(X): shape (2, d).

        The order matters only when the budget ends mid-iteration: the loop then
        keeps the first point, so an odd budget ends with an acquisition step.
        """
        exploit = self.base.propose(X, y, iteration, rng)
        explore = initial_design(self.bounds, 1, self.exploration_rng)
        return np.vstack([exploit, explore])

    @property
    def last_gp(self):
        return self.base.last_gp


class LengthscaleLikelihood:
    """log p(y | X, l) (RW 2.30) of a GP whose only free hyperparameter is an isotropic lengthscale l.

    With r^2 = ||x - x'||^2 / l^2 the kernel is k = sigma_f^2 g(r^2), so the
    distances are computed once and every l costs one kernel profile and one
    Cholesky factorization; equal to ``gp.log_marginal_likelihood([log l])``
    up to rounding (tested).

    Parameters
    ----------
    gp : GaussianProcess with data and an isotropic stationary kernel.
    """

    def __init__(self, gp):
        if gp.bounds.shape != (1, 2) or gp.kernel.ard:
            raise ValueError("LengthscaleLikelihood needs an isotropic kernel whose lengthscale is the only "
                             f"free hyperparameter; got {gp.kernel!r} with {len(gp.bounds)} free hyperparameters.")
        self.kernel = gp.kernel
        unit = gp.kernel.with_theta(np.zeros(1))
        self.unit_r2 = unit.squared_distances(gp.X, gp.X)
        np.fill_diagonal(self.unit_r2, 0.0)
        self.noise = gp._noise_diagonal()
        self.y = gp._y
        off_diagonal = self.unit_r2[~np.eye(len(self.y), dtype=bool)]
        self.smallest_r2 = off_diagonal.min() if off_diagonal.size else np.inf

    def is_white(self, log_lengthscale):
        """True when every off-diagonal k(x_i, x_j) underflows to 0, so that K = sigma_f^2 I exactly."""
        return float(self.kernel.profile(np.array(self.smallest_r2 * np.exp(-2.0 * log_lengthscale)))) == 0.0

    def __call__(self, log_lengthscale):
        K = self.kernel.variance * self.kernel.profile(self.unit_r2 * np.exp(-2.0 * log_lengthscale))
        K[np.diag_indices_from(K)] += self.noise
        try:
            L, _ = jittered_cholesky(K, max_tries=4)
        except LinAlgError:
            return -np.inf
        alpha = cho_solve((L, True), self.y, check_finite=False)
        return -0.5 * self.y @ alpha - np.log(np.diag(L)).sum() - 0.5 * len(self.y) * np.log(2 * np.pi)


def fit_lengthscale(gp, points_per_decade=2, tolerance=1e-4):
    """Maximum-likelihood isotropic lengthscale: a log-grid over its bounds, then Brent's method.

    The log marginal likelihood of these noise-free, raw-input fits is exactly
    flat for lengthscales below the spacing of the data (K = I), and its maximum
    can lie far above l = 1 (above 5 on Ackley-10 with 100 points; tested).
    A gradient method started at l = 1 therefore does not move, and random
    restarts in (1e-5, 1e5) reach the basin only by chance (scikit-learn's fit
    with bayes_opt's 5 restarts against this one on the benchmark runs' data:
    ``common.experiments.random_exploration.compare_lengthscale_fits``, the
    notebook's §1). The grid finds the
    basin (grid points where K = I exactly share one value, computed once);
    bounded Brent between the best grid point's neighbours polishes it. The fit
    depends on the data only, not on earlier fits.

    Parameters
    ----------
    gp : GaussianProcess with data; its only free hyperparameter is log l.
    points_per_decade : int, density of the grid in log l.
    tolerance : float, absolute tolerance of Brent's method in log l.

    Returns
    -------
    gp, refactorized at the optimum.
    """
    likelihood = LengthscaleLikelihood(gp)
    (low, high), = gp.bounds
    grid = np.linspace(low, high, int(round((high - low) / np.log(10) * points_per_decade)) + 1)
    white = [likelihood.is_white(theta) for theta in grid]
    white_value = likelihood(grid[0]) if any(white) else None
    on_grid = np.array([white_value if is_white else likelihood(theta) for theta, is_white in zip(grid, white)])
    best = int(np.argmax(on_grid))
    bracket = (grid[max(best - 1, 0)], grid[min(best + 1, len(grid) - 1)])
    polished = minimize_scalar(lambda theta: -likelihood(theta), bounds=bracket, method="bounded",
                               options={"xatol": tolerance})
    theta = polished.x if -polished.fun > on_grid[best] else grid[best]
    gp.kernel = gp.kernel.with_theta(np.array([theta]))
    gp.fit(gp.X, gp._y_raw)
    return gp


class PaperSurrogateMethod(GPAcquisitionMethod):
    """:class:`~common.bo.GPAcquisitionMethod` with the lengthscale fitted by :func:`fit_lengthscale`."""

    def fit_model(self, X, y, rng):
        gp = fit_lengthscale(GaussianProcess(self.kernel, **self.gp_options).fit(X, y))
        self.kernel = gp.kernel
        return gp


def sklearn_lengthscale_fit(X, y, random_state, restarts=5):
    """scikit-learn's maximum-likelihood fit of the isotropic Matérn-5/2 lengthscale, as bayes_opt 1.4.3 calls it.

    ``GaussianProcessRegressor(Matern(length_scale=1, nu=2.5), alpha=1e-6, normalize_y=True,
    n_restarts_optimizer=restarts)``: L-BFGS-B from l = 1 and ``restarts`` more runs from log-uniform starts in
    the bounds (1e-5, 1e5), keeping the most likely; the fit the paper's code probably made (spec §5).

    Parameters
    ----------
    X : ndarray (n, d), inputs in the problem's raw coordinates.
    y : ndarray (n,), noise-free values.
    random_state : int, scikit-learn's seed of the restart points.
    restarts : int, default 5 (bayes_opt's ``n_restarts_optimizer``).

    Returns
    -------
    regressor : the fitted ``GaussianProcessRegressor``
    lengthscale, log_marginal_likelihood : float
    """
    from sklearn.gaussian_process import GaussianProcessRegressor
    from sklearn.gaussian_process.kernels import Matern as SklearnMatern

    regressor = GaussianProcessRegressor(
        SklearnMatern(length_scale=1.0, length_scale_bounds=LENGTHSCALE_BOUNDS, nu=2.5), alpha=NUGGET,
        normalize_y=True, n_restarts_optimizer=restarts, random_state=random_state)
    with warnings.catch_warnings():  # convergence and bound warnings: the fitted values say what happened
        warnings.simplefilter("ignore")
        regressor.fit(X, y)
    return regressor, float(regressor.kernel_.length_scale), float(regressor.log_marginal_likelihood_value_)


class SklearnFitSurrogateMethod(GPAcquisitionMethod):
    """:class:`~common.bo.GPAcquisitionMethod` with the lengthscale fitted by scikit-learn at every iteration
    (:func:`sklearn_lengthscale_fit`), the closed loop of the paper's probable tool: the fit drives the queries.

    Parameters
    ----------
    *args, **kwargs : as :class:`~common.bo.GPAcquisitionMethod`.
    fit_rng : numpy.random.Generator, draws scikit-learn's ``random_state`` of each fit (a stream of its own, so
        that the acquisition's candidates follow the same stream as with :func:`fit_lengthscale`).
    restarts : int, default 5.

    Attributes
    ----------
    lengthscales : list of float, the lengthscale fitted at each iteration, in order.
    """

    def __init__(self, *args, fit_rng, restarts=5, **kwargs):
        super().__init__(*args, **kwargs)
        self.fit_rng = fit_rng
        self.restarts = int(restarts)
        self.lengthscales = []

    def fit_model(self, X, y, rng):
        _, lengthscale, _ = sklearn_lengthscale_fit(X, y, int(self.fit_rng.integers(2**31 - 1)), self.restarts)
        self.lengthscales.append(lengthscale)
        self.kernel = self.kernel.with_theta(np.log([lengthscale]))
        return GaussianProcess(self.kernel, **self.gp_options).fit(X, y)


def make_gp_method(acquisition, bounds, kernel, beta_root=None, *, n_candidates=2000,
                   n_restarts=3, maxiter=50, sampler="sobol", starts="best", name=None, lengthscale_fit="grid",
                   fit_rng=None):
    """A one-point GP method with the paper's surrogate: GP-UCB, EXPLOIT, EXPLORE, EI or PI.

    Parameters
    ----------
    acquisition : {"UCB", "mean", "variance", "EI", "PI"}
        "mean" is EXPLOIT, "variance" is EXPLORE; EI and PI have xi = 0.
    bounds : (d, 2) box, in the problem's own (raw) coordinates.
    kernel : Kernel, the prior (see :func:`surrogate_kernel`).
    beta_root : float, beta_t^{1/2} (UCB only; constant over t in every experiment of the paper).
    n_candidates, n_restarts, maxiter, sampler, starts : the acquisition maximizer: the best of
        ``n_candidates`` points (``sampler``: scrambled Sobol' points by default, ``scipy.stats.qmc``; they
        cover the box more evenly than i.i.d. points), polished by L-BFGS-B (at most ``maxiter`` iterations)
        with analytic gradients from the best ``n_restarts`` of them (``starts="best"``) or from as many
        uniform points (``"random"``, bayes_opt 1.4.3's ``acq_max``); see
        :func:`~common.optimizers.maximize_with_restarts`.
    lengthscale_fit : {"grid", "sklearn"}, default "grid"
        Ours (:func:`fit_lengthscale`, :class:`PaperSurrogateMethod`) or scikit-learn's at every iteration
        (:class:`SklearnFitSurrogateMethod`, which then needs ``fit_rng``).
    fit_rng : numpy.random.Generator, the seeds of scikit-learn's restarts (``lengthscale_fit="sklearn"`` only).
    """
    if acquisition == "UCB":
        if beta_root is None or not beta_root >= 0:
            raise ValueError(f"UCB needs beta_root >= 0 (the multiplier of sigma); got {beta_root!r}.")
        beta_options = {"value": float(beta_root) ** 2}
    else:
        beta_options = None
    options = dict(acquisition=acquisition, beta="constant", beta_options=beta_options, noise_variance=NUGGET,
                   y_transform="standardize", optimizer="restarts",
                   optimizer_options={"n_candidates": n_candidates, "n_restarts": n_restarts, "maxiter": maxiter,
                                      "sampler": sampler, "starts": starts},
                   name=name or acquisition)
    if lengthscale_fit == "sklearn":
        if fit_rng is None:
            raise ValueError("lengthscale_fit='sklearn' needs fit_rng, the generator of scikit-learn's restart seeds")
        return SklearnFitSurrogateMethod(kernel, bounds, fit_rng=fit_rng, **options)
    if lengthscale_fit != "grid":
        raise ValueError(f"lengthscale_fit must be 'grid' (ours) or 'sklearn'; got {lengthscale_fit!r}")
    return PaperSurrogateMethod(kernel, bounds, **options)
