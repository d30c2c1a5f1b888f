"""Add-GP-UCB (Kandasamy, Schneider & Póczos 2015): GP-UCB on an additive GP, maximized one group at a time.

With disjoint groups of coordinates G_1..G_M and f = sum_j f^(j)(x^(j)),
x^(j) = x_{G_j}, independent GP priors f^(j) ~ GP(0, k^(j)) make f a GP with
the additive kernel k = sum_j k^(j). Each group's posterior, given all data
(eq. 5), is

    mu^(j)(z)      = k^(j)(z, X^(j)) Delta^{-1} (y - m)
    sigma^(j)(z)^2 = k^(j)(z, z) - k^(j)(z, X^(j)) Delta^{-1} k^(j)(X^(j), z),    Delta = K + eta^2 I,

and Add-GP-UCB (eq. 6, Algorithm 1) maximizes, group by group,

    phi~^(j)(z) = mu^(j)(z) + beta_t^{1/2} sigma^(j)(z),

then queries the point made of the groups' maximizers. The sum of the
phi~^(j) is not GP-UCB on the additive GP: sum_j sigma^(j) >= sigma.
"""
import numba
import numpy as np
from scipy.linalg import LinAlgError

from common.acquisitions import ExpectedImprovement, beta_kandasamy
from common.bo import GPAcquisitionMethod
from common.gp import GaussianProcess, cholesky_solve, jittered_cholesky, solve_lower
from common.kernels import AdditiveKernel, SquaredExponential
from common.optimizers import direct_maximize, direct_maximize_groups


# A query closer than this many bandwidths to an earlier one is moved (the authors' code, spec §2.3).
NEAR_DUPLICATE = 1e-10
# The practical algorithm's bandwidth range, and its std-threshold rule (the authors' code, spec §2.5).
BANDWIDTH_RANGE = (1e-5, 5.0)
SMALL_STD, SMALL_STD_STREAK = 0.002, 5

class GroupPosteriors:
    """The posteriors mu^(j), sigma^(j) of every group of a fitted GP with an :class:`AdditiveKernel`.

    All groups share the GP's Cholesky factor of Delta; :meth:`predict` solves
    with it once for the candidates of every group together.

    Parameters
    ----------
    gp : GaussianProcess, fitted, whose kernel is an AdditiveKernel.
    """

    def __init__(self, gp):
        if not isinstance(gp.kernel, AdditiveKernel):
            raise ValueError(f"GroupPosteriors needs a GP with an AdditiveKernel; got {gp.kernel!r}.")
        self.gp = gp
        self.groups = gp.kernel.groups
        self.base = gp.kernel.base
        self.group_inputs = [gp.X[:, group] for group in self.groups]  # per posterior, not per DIRECT round

    def predict(self, points):
        """Means and standard deviations of every group at its own points.

        Parameters
        ----------
        points : list of M arrays, the j-th of shape (n_j, |G_j|), in group j's coordinates.

        Returns
        -------
        list of M pairs (mu^(j), sigma^(j)) in the units of y; the constant prior mean
        (the GP's ``y_mean``) is in none of them, so mu = y_mean + sum_j mu^(j).
        """
        gp = self.gp
        columns = [self.base(Z, inputs) for Z, inputs in zip(points, self.group_inputs)]
        V = solve_lower(gp.L, np.vstack(columns).T)  # one solve for every group's candidates
        results, start = [], 0
        for Z, Ks in zip(points, columns):
            block = V[:, start:start + len(Z)]
            start += len(Z)
            mean = gp.y_scale * (Ks @ gp.alpha)
            variance = np.maximum(self.base.diag(Z) - np.einsum("ij,ij->j", block, block), 0.0)
            results.append((mean, np.sqrt(variance) * gp.y_scale))
        return results


class AddGPUCB(GPAcquisitionMethod):
    """Add-GP-UCB with a given decomposition: each group's UCB maximized by DIRECT, all groups in lockstep.

    The decomposition is the kernel's: an :class:`AdditiveKernel` (Add-* when it
    is the function's own; one group of all coordinates is GP-UCB). beta_t is
    0.2 d_j log(2t) for group j, with ``t`` given by ``step`` (the authors' code:
    the number of observations + 1). Coordinates in no group are set to the
    box centre. The DIRECT budget ``max_evals`` is split equally over the groups.

    Parameters
    ----------
    kernel : AdditiveKernel
    bounds : (D, 2) box.
    max_evals : int, the total DIRECT budget of one acquisition maximization.
    step : callable ``step(n_observations, iteration) -> t`` (default: observations + 1).
    direct_to_budget : bool, default False
        True: each DIRECT search stops only at its budget (no volume or side-length tolerance), as the
        authors' ``diRect.m`` (whose only other rule, 100 trisections of a side, is never reached here);
        False: also at :func:`~common.optimizers.direct_maximize`'s default tolerances.
    direct_last_round : {"best_first", "finish", "pairs_in_order"}, default "best_first"
        How each DIRECT search ends the round that reaches its budget (``last_round`` of
        :func:`~common.optimizers.direct_maximize`; the authors' ``diRect.m`` is "pairs_in_order").
    **gp_options : noise_variance, noise_bounds, y_transform, mle_restarts, fit_hyperparameters
        of :class:`~common.bo.GPAcquisitionMethod`.
    """

    def __init__(self, kernel, bounds, max_evals, step=None, name="Add-GP-UCB", direct_to_budget=False,
                 direct_last_round="best_first", **gp_options):
        if not isinstance(kernel, AdditiveKernel):
            raise ValueError(f"kernel must be an AdditiveKernel (one group of all coordinates for GP-UCB); "
                             f"got {kernel!r}.")
        super().__init__(kernel, bounds, acquisition="UCB", name=name, **gp_options)
        self.max_evals = int(max_evals)
        self.step = step or (lambda n_observations, iteration: n_observations + 1)
        self.direct_options = {"vol_tol": 0.0, "len_tol": 0.0} if direct_to_budget else {}
        self.direct_options["last_round"] = direct_last_round

    def propose(self, X, y, iteration, rng):
        gp = self.fit_model(X, y, rng)
        self.last_gp = gp
        posteriors = GroupPosteriors(gp)
        t = self.step(len(y), iteration)
        roots = [np.sqrt(beta_kandasamy(t, len(group))) for group in posteriors.groups]

        def group_ucbs(points):
            values = []
            for j, ((mean, std), root) in enumerate(zip(posteriors.predict(points), roots)):
                if j == 0:  # the prior mean moves no argmax; with it one group of all coordinates is GP-UCB
                    mean = gp.y_mean + mean
                values.append(mean + root * std)
            return values

        budget = -(-self.max_evals // len(posteriors.groups))  # ceil: equal shares of the total
        results = direct_maximize_groups(group_ucbs, [self.bounds[group] for group in posteriors.groups], budget,
                                         **self.direct_options)
        x = self.bounds.mean(axis=1)
        for group, result in zip(posteriors.groups, results):
            x[group] = result.x
        moved = away_from_queries(x, X, self.bounds, float(gp.kernel.base.lengthscale[0]), rng)
        self.moved_off_a_query = not np.array_equal(moved, x)  # by random noise: no other code can repeat it
        return moved[None, :]


def away_from_queries(x, X, bounds, bandwidth, rng):
    """``x``, moved off any earlier query (the authors' near-duplicate guard, spec §2.3).

    With fixed hyperparameters the group maxima of the UCB need not move once
    their point is queried (only the sum of the groups is observed), so the
    same point can come back; while min_i |x - X_i| / h < 1e-10, x gets
    N(0, (0.1 h)^2) noise on every coordinate and is clipped to the box.
    """
    while np.min(np.linalg.norm(X - x, axis=1)) / bandwidth < NEAR_DUPLICATE:
        x = np.clip(x + rng.normal(0.0, 0.1 * bandwidth, size=x.shape), bounds[:, 0], bounds[:, 1])
    return x


# --------------------------------------------------------------------------- the practical algorithm (Algorithm 2)
def random_decomposition(dim, group_dim, rng):
    """Groups of a random permutation of the D coordinates: consecutive blocks of ``group_dim``, the last
    one holding the D - d (M - 1) that remain (M = ceil(D / d), the authors' ``preprocessDecomposition``)."""
    if not 1 <= group_dim <= dim:
        raise ValueError(f"group_dim must be between 1 and the dimension {dim}; got {group_dim}.")
    order = rng.permutation(dim)
    return [np.sort(order[start:start + group_dim]) for start in range(0, dim, group_dim)]


class DecompositionLikelihood:
    """log p(y | X) of the practical algorithm's GP at any decomposition and (h, sigma).

    The GP has a constant prior mean m (zero, or mean(y) with ``center``), a
    fixed noise variance and the additive kernel
    sigma sum_j exp(-|x_{G_j} - x'_{G_j}|^2 / (2 h^2)), so that

        log p(y | X) = -1/2 (y - m)^T Delta^{-1} (y - m) - 1/2 log |Delta| - n/2 log(2 pi).

    Each evaluation builds K and factors it once (a GaussianProcess would also
    set up its posterior and factor again for the likelihood): the
    decomposition search scores 5 D decompositions per relearning.

    Parameters
    ----------
    X : (n, D) inputs; y : (n,) observations; noise_variance : float
    center : bool, default True
        The prior mean: mean(y) when True, zero when False; the same as the GP
        the likelihood selects hyperparameters for.
    """

    def __init__(self, X, y, noise_variance, center=True):
        self.X = np.asarray(X, dtype=float)
        y = np.asarray(y, dtype=float)
        self.y = y - y.mean() if center else y
        self.noise_variance = float(noise_variance)
        self.dim = self.X.shape[1]
        self._coordinate_distances = None  # (n, n, D), computed on first use

    def pairwise(self, groups):
        """Each group's squared distances between the inputs: what every (h, sigma) of one decomposition shares,
        summed from the per-coordinate squared differences, which every decomposition shares."""
        return [self._coordinates()[:, :, group].sum(axis=2) for group in groups]

    def _coordinates(self):
        """(x_k - x'_k)^2 for every pair of inputs and coordinate k, shape (n, n, D), computed once."""
        if self._coordinate_distances is None:
            self._coordinate_distances = (self.X[:, None, :] - self.X[None, :, :]) ** 2
        return self._coordinate_distances

    def __call__(self, groups, bandwidth, scale, pairwise=None):
        kernel = AdditiveKernel(SquaredExponential(bandwidth, scale), groups)
        return self._from_gram(kernel.gram(self.pairwise(groups) if pairwise is None else pairwise))

    def scores(self, decompositions, bandwidth, scale):
        """The likelihood of many decompositions at one (h, sigma), from the per-coordinate factors
        E_k = exp(-(x_k - x'_k)^2 / (2 h^2)) computed once: each group's kernel is sigma prod_{k in G} E_k."""
        factors = np.exp(self._coordinates() * (-0.5 / bandwidth**2))
        scores = []
        for groups in decompositions:
            order = np.concatenate(groups).astype(np.int64)
            starts = np.cumsum([0] + [len(group) for group in groups]).astype(np.int64)
            scores.append(self._from_gram(scale * _sum_of_group_products(factors, order, starts)))
        return np.array(scores)

    def _from_gram(self, K):
        K.flat[:: len(K) + 1] += self.noise_variance
        try:
            L, _ = jittered_cholesky(K, max_tries=4)
        except LinAlgError:
            return -np.inf
        alpha = cholesky_solve(L, self.y)
        return -0.5 * self.y @ alpha - np.log(L.diagonal()).sum() - 0.5 * len(self.y) * np.log(2 * np.pi)


@numba.njit(cache=True)
def _sum_of_group_products(factors, order, starts):
    """K[i, j] = sum_g prod_{k in G_g} factors[i, j, k], the groups being ``order[starts[g]:starts[g + 1]]``;
    one pass over the symmetric pairs."""
    n = factors.shape[0]
    K = np.empty((n, n))
    for i in range(n):
        for j in range(i, n):
            total = 0.0
            for g in range(len(starts) - 1):
                product = 1.0
                for position in range(starts[g], starts[g + 1]):
                    product *= factors[i, j, order[position]]
                total += product
            K[i, j] = total
            K[j, i] = total
    return K


def fit_scale_and_bandwidth(likelihood, groups, log_bounds, max_evals=50, **direct_options):
    """The shared scale sigma and bandwidth h of every group's kernel sigma exp(-|z - z'|^2 / (2 h^2)),
    maximizing ``likelihood`` (a :class:`DecompositionLikelihood`) by DIRECT over (log h, log sigma) in
    ``log_bounds`` (the authors' code: diRect.m's default budget max(2^3, 50) = 50 evaluations), with
    ``direct_options`` of :func:`~common.optimizers.direct_maximize`. Returns the AdditiveKernel."""
    pairwise = likelihood.pairwise(groups)

    def likelihoods(log_values):
        return np.array([likelihood(groups, np.exp(log_h), np.exp(log_s), pairwise) for log_h, log_s in log_values])

    log_h, log_s = direct_maximize(likelihoods, log_bounds, max_evals, **direct_options).x
    return AdditiveKernel(SquaredExponential(np.exp(log_h), np.exp(log_s)), groups)


def learn_decomposition(likelihood, group_dim, n_decompositions, log_bounds, rng, **direct_options):
    """Algorithm 2's partial maximization of the marginal likelihood over decompositions (authors' code):
    fit (h, sigma) on a random decomposition, score ``n_decompositions`` random ones at those values, keep
    the best, and fit (h, sigma) again on it (``direct_options``: of :func:`fit_scale_and_bandwidth`). Returns
    the AdditiveKernel."""
    dim = likelihood.dim
    if group_dim == 1 or group_dim >= dim:  # every decomposition is the same set of groups
        return fit_scale_and_bandwidth(likelihood, random_decomposition(dim, group_dim, rng), log_bounds,
                                       **direct_options)
    kernel = fit_scale_and_bandwidth(likelihood, random_decomposition(dim, group_dim, rng), log_bounds,
                                     **direct_options)
    bandwidth, scale = float(kernel.base.lengthscale[0]), kernel.base.variance
    candidates = [random_decomposition(dim, group_dim, rng) for _ in range(n_decompositions)]
    scores = likelihood.scores(candidates, bandwidth, scale)
    return fit_scale_and_bandwidth(likelihood, candidates[int(np.argmax(scores))], log_bounds, **direct_options)


# The prior means of the practical algorithm and the GP's y_transform that gives each.
PRIOR_MEANS = {"zero": "none", "mean": "center"}
# The units of the scale sigma's range [0.03, 30] s, s being std(y_init) or its square.
SCALE_UNITS = ("std", "variance")
# std(y_init) of the noise and of sigma's range, and its ddof: numpy's default, or MATLAB's (n_init - 1).
INIT_STDS = {"population": 0, "sample": 1}
# How the DIRECT searches of the acquisition and of the likelihood end (PracticalAddGPUCB's direct_rounds). The
# authors' likelihood search allows 20 rounds, not 8 (see PracticalAddGPUCB's direct_rounds): kept at 8, the value
# the published runs used; the replays of the authors' runs find no proposal it changes.
DIRECT_ROUNDS = {"project": {"acquisition": "best_first", "likelihood": {"last_round": "best_first"}},
                 "authors": {"acquisition": "pairs_in_order",
                             "likelihood": {"last_round": "finish", "max_iters": 8}}}


class PracticalAddGPUCB(AddGPUCB):
    """Add-GP-UCB as the paper runs it (Algorithm 2): hyperparameters and decomposition relearned every
    ``relearn_every`` BO iterations (before iterations 1, 26, 51, ...), and at once, with a smaller upper bound
    on the bandwidth, after 5 queries in a row whose posterior std is below 0.002 (the authors' code).

    Add-d/M (``group_dim=d``) learns groups of size d by :func:`learn_decomposition`;
    Add-* (``groups`` given: the function's own) and GP-UCB (``groups=[all]``) learn only (h, sigma).
    The GP has a constant prior mean (``prior_mean``) and a fixed noise variance 0.01 std(y_init); h ranges over
    [1e-5, 5] (in the units of the box; the authors' [-1, 1]), sigma over [0.03, 30] std(y_init) (``scale_units``),
    y_init being the first ``n_init`` observations. The defaults are the settings of the authors' figure scripts
    (``demo/demoCustomise.m``).

    Parameters
    ----------
    bounds : (D, 2) box.
    max_evals : int, the total DIRECT budget of one acquisition maximization.
    group_dim : int, optional, d of Add-d/M (learned groups); exclusive with ``groups``.
    groups : list of index lists, optional, a fixed decomposition.
    n_decompositions : int, random decompositions scored at each relearning (the authors': 5 D).
    relearn_every : int, N_cyc.
    n_init : int, size of the initial design (it sets the noise and the sigma range).
    initial_bandwidth : float, optional
        The paper's literal first iterations (§5: "for the first 25 iterations we set the bandwidth to a small
        value (10^-5)"): before BO iteration ``relearn_every + 1`` nothing is learned; h is this value, sigma
        the reference scale of ``scale_units`` and the groups the starting ones. None (default): learned from
        iteration 1, as the authors' code does.
    prior_mean : {"zero", "mean"}, default "zero"
        The constant prior mean, in the GP and in the marginal likelihood alike: zero (the authors' figure
        scripts) or mean(y) (their library's default when a script sets none).
    scale_units : {"std", "variance"}, default "std"
        sigma's range is [0.03, 30] std(y_init) (the authors' scripts and library) or [0.03, 30] var(y_init).
    direct_to_budget : bool, default True
        Whether the acquisition's DIRECT runs to its budget, as the authors' ``diRect.m`` (see :class:`AddGPUCB`).
    direct_rounds : {"project", "authors"}, default "project"
        How the DIRECT searches end. "project": the acquisition's and the likelihood's (50 evaluations) divide
        whole rectangles, best first, within their budgets. "authors": as the authors' ``diRect.m`` is called,
        the acquisition's evaluates pairs of points in the order of its rectangles up to one past its budget
        and the likelihood's (no ``maxevals`` given) finishes the round that reaches 50 evaluations, or stops
        after 8 rounds (``last_round`` "pairs_in_order" and "finish" of
        :func:`~common.optimizers.direct_maximize`). Their likelihood search may run 20 rounds, not 8:
        ``addGPDecompMargLikelihood.m`` sets ``maxits`` to 8, then to ``numBwSigmaDiRectIters`` (20 unless a
        script sets it) before it searches; a departure found after the published runs, which changes no
        proposal of the replays of their 40 runs (30 iterations, two fits each: the 50-evaluation budget ends
        those searches before their 8th round; ``benchmarks/authors_round_cap.py``).
    init_std : {"population", "sample"}, default "population"
        The std(y_init) of the noise and of sigma's range: divided by n_init, or by n_init - 1 as MATLAB's and
        Octave's ``std``, which the authors' ``boProcessParams.m`` calls, computes it.
    """

    def __init__(self, bounds, max_evals, *, group_dim=None, groups=None, n_decompositions=None,
                 relearn_every=25, n_init=10, name=None, initial_bandwidth=None, prior_mean="zero",
                 scale_units="std", direct_to_budget=True, direct_rounds="project", init_std="population"):
        if prior_mean not in PRIOR_MEANS:
            raise ValueError(f"prior_mean must be one of {list(PRIOR_MEANS)}; got {prior_mean!r}.")
        if scale_units not in SCALE_UNITS:
            raise ValueError(f"scale_units must be one of {list(SCALE_UNITS)}; got {scale_units!r}.")
        if direct_rounds not in DIRECT_ROUNDS:
            raise ValueError(f"direct_rounds must be one of {list(DIRECT_ROUNDS)}; got {direct_rounds!r}.")
        if init_std not in INIT_STDS:
            raise ValueError(f"init_std must be one of {list(INIT_STDS)}; got {init_std!r}.")
        if initial_bandwidth is not None and not initial_bandwidth > 0:
            raise ValueError(f"initial_bandwidth must be None or a positive number; got {initial_bandwidth!r}.")
        bounds = np.asarray(bounds, dtype=float)
        if (group_dim is None) == (groups is None):
            raise ValueError("give exactly one of group_dim (Add-d/M: learned groups) and groups (a fixed "
                             "decomposition).")
        dim = len(bounds)
        self.group_dim = group_dim
        self.n_decompositions = 5 * dim if n_decompositions is None else int(n_decompositions)
        self.relearn_every, self.n_init = int(relearn_every), int(n_init)
        self.centered, self.scale_power = prior_mean == "mean", 1 if scale_units == "std" else 2
        start = groups if groups is not None else random_decomposition(dim, group_dim, np.random.default_rng(0))
        label = name or (f"Add-{group_dim}/{-(-dim // group_dim)}" if group_dim else "Add-GP-UCB")
        super().__init__(AdditiveKernel(SquaredExponential(1.0), start), bounds, max_evals, name=label,
                         direct_to_budget=direct_to_budget,
                         direct_last_round=DIRECT_ROUNDS[direct_rounds]["acquisition"],
                         y_transform=PRIOR_MEANS[prior_mean],
                         fit_hyperparameters=False)
        self.bandwidth_upper, self._small_std_streak, self._relearn_now = BANDWIDTH_RANGE[1], 0, False
        self.initial_bandwidth, self._fixed_start = initial_bandwidth, False
        self.init_ddof = INIT_STDS[init_std]
        self.likelihood_direct = DIRECT_ROUNDS[direct_rounds]["likelihood"]

    def fit_model(self, X, y, rng):
        n_observed = len(y) - self.n_init  # BO iterations so far
        # The authors' scale is std(y_init); where the initial values are all equal (a flat region), the
        # spread of every observation so far, else 1, keeps the noise and sigma range positive.
        spread = np.std(y[:self.n_init], ddof=self.init_ddof) or np.std(y) or 1.0
        reference_scale = spread**self.scale_power
        self._fixed_start = self.initial_bandwidth is not None and n_observed < self.relearn_every
        if self._fixed_start:
            self.gp_options["noise_variance"] = 0.01 * spread
            self.kernel = AdditiveKernel(SquaredExponential(self.initial_bandwidth, reference_scale),
                                         self.kernel.groups)
        elif n_observed % self.relearn_every == 0 or self._relearn_now:
            self._relearn_now = False
            self.gp_options["noise_variance"] = 0.01 * spread
            log_bounds = np.log([[BANDWIDTH_RANGE[0], self.bandwidth_upper],
                                 [0.03 * reference_scale, 30.0 * reference_scale]])
            likelihood = DecompositionLikelihood(X, y, self.gp_options["noise_variance"], center=self.centered)
            if self.group_dim is None:
                self.kernel = fit_scale_and_bandwidth(likelihood, self.kernel.groups, log_bounds,
                                                      **self.likelihood_direct)
            else:
                self.kernel = learn_decomposition(likelihood, self.group_dim, self.n_decompositions, log_bounds,
                                                  rng, **self.likelihood_direct)
        return GaussianProcess(self.kernel, **self.gp_options).fit(X, y)

    def propose(self, X, y, iteration, rng):
        x = super().propose(X, y, iteration, rng)
        self._watch_posterior_std(x[0])
        return x

    def _watch_posterior_std(self, x):
        """The authors' std-threshold rule (after Wang et al. 2013; spec §2.5): after 5 queries in a row where
        the posterior std of f is below 0.002, the bandwidth's upper bound becomes 0.9 h and the
        hyperparameters are relearned at once."""
        if self._fixed_start:  # nothing is learned yet, so there is no bandwidth to bound
            return
        std = self.last_gp.predict(x[None, :], return_std=True)[1][0]
        self._small_std_streak = self._small_std_streak + 1 if std < SMALL_STD else 0
        if self._small_std_streak >= SMALL_STD_STREAK:
            bandwidth = float(self.kernel.base.lengthscale[0])
            # The spec's max(1e-5, 0.9 h), kept above the range's lower end so that it stays a range.
            self.bandwidth_upper = max(2 * BANDWIDTH_RANGE[0], 0.9 * bandwidth)
            self._relearn_now, self._small_std_streak = True, 0


class PracticalGPEI(PracticalAddGPUCB):
    """GP-EI of the paper's real-data experiments (§5): the full-D GP of the practical algorithm (one group,
    the same hyperparameter schedule), expected improvement over the best observation maximized by DIRECT.

    EI(x) = (mu - y+) Phi(u) + sigma phi(u), u = (mu - y+) / sigma, and max(mu - y+, 0) where sigma = 0
    (the authors' ``getEIUtility.m``; :class:`~common.acquisitions.ExpectedImprovement`). ``settings``:
    ``prior_mean``, ``scale_units`` and ``direct_to_budget`` of :class:`PracticalAddGPUCB`.
    """

    def __init__(self, bounds, max_evals, *, relearn_every=25, n_init=10, name="GP-EI", **settings):
        super().__init__(bounds, max_evals, groups=[np.arange(len(bounds))], relearn_every=relearn_every,
                         n_init=n_init, name=name, **settings)

    def propose(self, X, y, iteration, rng):
        gp = self.fit_model(X, y, rng)
        self.last_gp = gp
        acquisition = ExpectedImprovement(float(np.max(y)))
        x = direct_maximize(lambda Z: acquisition(gp, Z), self.bounds, self.max_evals, **self.direct_options).x
        x = away_from_queries(x, X, self.bounds, float(gp.kernel.base.lengthscale[0]), rng)
        self._watch_posterior_std(x)
        return x[None, :]


class RemboObjective:
    """REMBO's view of an objective (Wang et al. 2013, as §5 of the paper runs it): a random embedding.

    With A in R^{D x d_e} (entries N(0, 1), drawn once), the objective is
    searched over u in [-sqrt(d_e), sqrt(d_e)]^{d_e} as g(u) = f(p(A u)), where
    p clips A u to [-1, 1]^D and maps it onto the box. Any BO method then runs
    on ``bounds`` (the u-box); ``to_box`` gives the points of the original box.

    Parameters
    ----------
    objective : callable (n, D) -> (n,)
    bounds : (D, 2) box of the objective.
    embedding_dim : int, d_e.
    rng : numpy.random.Generator, for A.
    """

    def __init__(self, objective, bounds, embedding_dim, rng):
        self.objective = objective
        self.box = np.asarray(bounds, dtype=float)
        dim = len(self.box)
        if not 1 <= embedding_dim <= dim:
            raise ValueError(f"embedding_dim must be between 1 and the dimension {dim}; got {embedding_dim}.")
        self.matrix = rng.standard_normal((dim, embedding_dim))
        self.bounds = np.tile([-np.sqrt(embedding_dim), np.sqrt(embedding_dim)], (embedding_dim, 1))

    def to_box(self, U):
        """p(A u): A u clipped to [-1, 1]^D, mapped onto the objective's box; shape (n, D)."""
        Z = np.clip(np.atleast_2d(U) @ self.matrix.T, -1.0, 1.0)
        low, high = self.box[:, 0], self.box[:, 1]
        return low + (Z + 1.0) / 2.0 * (high - low)

    def __call__(self, U):
        return self.objective(self.to_box(U))


# --------------------------------------------------------------------------- Table 1: the regret bounds
def log10_regret_bounds(dim, group_dim, horizon, nu=2.5):
    """log10 of the four cumulative-regret bounds of Table 1 at T = ``horizon``, constants dropped.

    For GP-UCB on a D-th order kernel and Add-GP-UCB on an additive kernel of
    groups of at most d coordinates (log is natural):

        SE, GP-UCB:      sqrt(D^(D+2) T (log T)^(D+2))
        SE, Add:         sqrt(d^d D^2 T (log T)^(d+2))
        Matern, GP-UCB:  2^D sqrt(D) T^((nu + D(D+1)) / (2 nu + D(D+1))) log T
        Matern, Add:     2^d D T^((nu + d(d+1)) / (2 nu + d(d+1))) log T

    The paper's footnote retracts the analysis behind the Add-GP-UCB rows (a bug
    in its eq. 14): they are what the paper states, not established results.
    Computed in logs, so that D = 120 does not overflow.
    """
    T, D, d = float(horizon), float(dim), float(group_dim)
    log_T = np.log10(T)
    loglog_T = np.log10(np.log(T))

    def matern_exponent(k):
        return (nu + k * (k + 1)) / (2 * nu + k * (k + 1))

    return {
        "SE, GP-UCB": 0.5 * ((D + 2) * np.log10(D) + log_T + (D + 2) * loglog_T),
        "SE, Add-GP-UCB": 0.5 * (d * np.log10(d) + 2 * np.log10(D) + log_T + (d + 2) * loglog_T),
        "Matern, GP-UCB": D * np.log10(2) + 0.5 * np.log10(D) + matern_exponent(D) * log_T + loglog_T,
        "Matern, Add-GP-UCB": d * np.log10(2) + np.log10(D) + matern_exponent(d) * log_T + loglog_T,
    }
