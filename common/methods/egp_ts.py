"""EGP-TS (Lu, Polyzos, Li & Giannakis 2023): Thompson sampling from an ensemble of random-feature GPs.

A dictionary of kernels k^1..k^M gives the ensemble prior f ~ sum_m w_0^m GP(0, k^m)
(eq. 5), w_0^m = 1/M. Its posterior is the mixture sum_m w_t^m p(f | m, D_t) with

    w_t^m  proportional to  w_0^m p(D_t | m)                                    (eq. 7)

and, one observation (x, y) at a time, each member's one-step evidence updates
the weights (eq. 10) before its posterior takes the observation (eqs. 11-12):

    w_{t+1}^m  proportional to  w_t^m N(y; y_hat^m, (s^m)^2),
    y_hat^m = phi^m(x)^T theta_hat^m,  (s^m)^2 = phi^m(x)^T Sigma^m phi^m(x) + sigma_n^2.

Each member is a random-feature GP (:class:`~common.random_features.BayesianLinearRegression`).
A Thompson draw picks m ~ Cat(w_t), theta~ ~ N(theta_hat^m, Sigma^m) (eqs. 8-9).
The weights are floored (App. E: "assign a low weight, say 1e-4") so that no
member is lost for good.

Which evidence p(D_t | m) enters the batch weights of eq. 7 at a (re)initialization
the paper does not say ("the marginal likelihood of the acquired data D_t for GP m",
§4): EGP-TS uses its random-feature model's by default (``weight_evidence="rf"``,
what the one-step updates of eq. 10 chain into), or the exact GP's at the fitted
hyperparameters (``"exact"``, scikit-learn's ``log_marginal_likelihood_value_``).
Between re-initializations eq. 10 updates the weights with the RF predictive either way.
"""
import numpy as np
from scipy.special import logsumexp

from common.acquisitions import ExpectedImprovement
from common.gp import GaussianProcess
from common.kernels import SquaredExponential
from common.optimizers import maximize_with_restarts
from common.random_features import BayesianLinearRegression, RandomFourierFeatures

WEIGHT_FLOOR = 1e-4
# The evidence p(D | m) of eq. 7 at a (re)initialization: the RF model's (the default) or the exact GP's.
WEIGHT_EVIDENCES = ("rf", "exact")
# The first fit's noise variance on standardized y (spec U3: sklearn's WhiteKernel(1e-3)).
INITIAL_NOISE = 1e-3
# L-BFGS-B iterations of each polish of a sampled function or of EI (spec U10).
POLISH_ITERATIONS = 50


def floored(log_weights, floor=WEIGHT_FLOOR):
    """Normalized weights from log weights, every weight raised to at least ``floor`` before normalizing."""
    weights = np.exp(np.asarray(log_weights, dtype=float) - logsumexp(log_weights))
    weights = np.maximum(weights, floor)
    return weights / weights.sum()


class EnsembleRFGP:
    """The EGP surrogate: M random-feature GPs and their weights.

    Parameters
    ----------
    members : list of BayesianLinearRegression
        One per kernel of the dictionary (its features drawn from that kernel).
    prior_weights : (M,) array, optional
        w_0 (default uniform).
    floor : float
        Weight floor; 0 keeps the exact posterior weights of eq. 7.
    """

    def __init__(self, members, prior_weights=None, floor=WEIGHT_FLOOR):
        if not members or not all(isinstance(m, BayesianLinearRegression) for m in members):
            raise ValueError("members must be a non-empty list of BayesianLinearRegression models.")
        if not 0 <= floor < 1 / len(members):
            raise ValueError(f"floor must be in [0, 1/M) = [0, {1 / len(members):.3g}); got {floor!r}.")
        self.members = list(members)
        self.prior_weights = (np.full(len(members), 1 / len(members)) if prior_weights is None
                              else np.asarray(prior_weights, dtype=float))
        self.floor = float(floor)
        self._set_weights(np.log(self.prior_weights))

    def _set_weights(self, log_weights):
        self.weights = floored(log_weights, self.floor)
        # The floored weights are what the next update starts from (App. E); without a floor, the exact log
        # weights, which stay finite where a weight underflows to 0.
        self._log_weights = np.log(self.weights) if self.floor > 0 else log_weights - logsumexp(log_weights)

    def fit(self, X, y, log_evidences=None):
        """Every member's batch posterior (eq. 17) and the batch weights w_0 p(D | m) (eq. 7).

        Parameters
        ----------
        X : (n, d) array
        y : (n,) array
        log_evidences : (M,) array, optional
            log p(D | m) of each member; by default each member's random-feature
            evidence on ``(X, y)`` (:meth:`~common.random_features.BayesianLinearRegression.log_evidence`).
            EGP-TS passes the exact GPs' log marginal likelihoods here with ``weight_evidence="exact"``.

        Returns
        -------
        self
        """
        if log_evidences is None:
            log_evidences = [member.log_evidence(X, y) for member in self.members]
        elif len(log_evidences) != len(self.members):
            raise ValueError(f"log_evidences must have one entry per member ({len(self.members)}); got "
                             f"{len(log_evidences)}.")
        log_weights = [np.log(w0) + evidence for w0, evidence in zip(self.prior_weights, log_evidences)]
        for member in self.members:
            member.fit(X, y)
        self._set_weights(np.array(log_weights))
        return self

    def update(self, x, y):
        """One observation: the weights by each member's one-step evidence (eq. 10), then the members
        by rank-one updates (eqs. 11-12), both from the posterior before the observation."""
        log_likelihoods = [member.update(x, y) for member in self.members]  # each returns its evidence first
        self._set_weights(self._log_weights + np.array(log_likelihoods))
        return self

    def sample_function(self, rng):
        """A Thompson draw (eqs. 8-9): m ~ Cat(w), then a function from member m. Returns (m, function)."""
        member = int(rng.choice(len(self.members), p=self.weights))
        return member, self.members[member].sample_function(rng)


class _RandomFeatureThompson:
    """What the Thompson-sampling methods share: unit-cube modelling, standardized y, RF members, maximization.

    Every model of these methods works on the unit cube of the box (spec U9) and on
    y standardized with the mean and std of the observations it is fitted to.
    Every GP fits its noise variance by ML in ``noise_bounds``, starting from
    ``initial_noise`` (spec U3). A draw (EGP-EI: the acquisition) is maximized by
    :func:`~common.optimizers.maximize_with_restarts`: ``n_candidates`` uniform points, then
    L-BFGS-B from ``n_restarts`` starts, the best candidates (``search_starts="best"``) or
    uniform points ("random").
    """

    def __init__(self, bounds, *, n_features=50, batch_size=1, noise_bounds=(1e-6, 1.0), initial_noise=INITIAL_NOISE,
                 n_candidates=1000, n_restarts=5, mle_restarts=0, search_starts="best", name=""):
        self.bounds = np.asarray(bounds, dtype=float)
        if self.bounds.ndim != 2 or self.bounds.shape[1] != 2 or np.any(self.bounds[:, 0] >= self.bounds[:, 1]):
            raise ValueError(f"bounds must have shape (d, 2) with lower < upper; got {self.bounds.tolist()}.")
        for label, value, low in (("n_features", n_features, 1), ("batch_size", batch_size, 1),
                                  ("n_candidates", n_candidates, 1), ("n_restarts", n_restarts, 0),
                                  ("mle_restarts", mle_restarts, 0)):
            if int(value) != value or value < low:
                raise ValueError(f"{label} must be an integer >= {low}; got {value!r}.")
        self.n_features, self.batch_size = int(n_features), int(batch_size)
        self.noise_bounds, self.initial_noise = noise_bounds, float(initial_noise)
        self.n_candidates, self.n_restarts, self.mle_restarts = int(n_candidates), int(n_restarts), int(mle_restarts)
        self.search_starts = search_starts
        self.name = name
        self.likelihood_failures = 0

    def _unit(self, X):
        low, high = self.bounds[:, 0], self.bounds[:, 1]
        return (np.asarray(X, dtype=float) - low) / (high - low)

    def _to_box(self, U):
        return self.bounds[:, 0] + np.asarray(U) * (self.bounds[:, 1] - self.bounds[:, 0])

    def _fit_gp(self, kernel, noise_variance, U, z, rng, n_restarts):
        """An exact GP with hyperparameters and noise fitted by ML, warm-started from ``kernel``."""
        gp = GaussianProcess(kernel, noise_variance, noise_bounds=self.noise_bounds).fit(U, z)
        gp.fit_hyperparameters(rng, n_restarts=n_restarts)
        self.likelihood_failures += gp.likelihood_failures
        return gp

    def _member(self, gp, U, z, rng):
        """The random-feature model of a fitted GP: features drawn from its kernel, posterior by eq. 17."""
        features = RandomFourierFeatures(gp.kernel, self.n_features, U.shape[1], rng)
        return BayesianLinearRegression(features, gp.noise_variance).fit(U, z)

    def _argmax(self, draw, rng):
        """The maximizer of a sampled function over the unit cube, and its value."""
        unit_box = np.tile([0.0, 1.0], (len(self.bounds), 1))
        result = maximize_with_restarts(draw, unit_box, rng, n_candidates=self.n_candidates,
                                        n_restarts=self.n_restarts, fun_and_grad=draw.value_and_gradient,
                                        maxiter=POLISH_ITERATIONS, starts=self.search_starts)
        return result.x, result.fun

    def __repr__(self):
        return f"{type(self).__name__}(name={self.name!r})"


def _standardized(y):
    y = np.asarray(y, dtype=float)
    return (y - y.mean()) / (y.std() or 1.0)


class EGPTS(_RandomFeatureThompson):
    """EGP-TS (Algorithm 1) as a BO method: Thompson sampling from the ensemble, K draws per round.

    Every ``refit_every`` observations (and at the first proposal) the ensemble
    is re-initialized (Alg. 1 lines 2-16): y is standardized with the current
    mean and std (kept until the next re-initialization, so that all members'
    evidences share one scale), each kernel's hyperparameters and noise are
    fitted by the marginal likelihood, its random features redrawn, and the
    members and weights computed in batch (eqs. 17, 7). In between, each new
    observation updates the members by rank one and the weights by eq. 10. A
    proposal draws m ~ Cat(w) and a function of member m (eqs. 8-9) and
    maximizes it by candidate search and L-BFGS-B with its gradient. The model
    works on the unit cube of the box.

    Parameters
    ----------
    kernels : list of StationaryKernel, the dictionary (their hyperparameters are starting points).
    bounds : (d, 2) box.
    refit_every : int, observations between re-initializations (the paper: 50).
    floor : float, the weight floor (App. E: 1e-4).
    mle_restarts : int, random restarts of each kernel's fit at a re-initialization (spec U4: 2).
    weight_evidence : {"rf", "exact"}, the evidence p(D | m) of the batch weights (eq. 7) at each
        re-initialization: the random-feature model's (default) or the exact GP's log marginal likelihood at the
        fitted hyperparameters (scikit-learn's ``log_marginal_likelihood_value_``). The paper does not say which
        (spec §2.3); between re-initializations eq. 10 updates the weights by the RF predictive either way.
    n_features, batch_size, noise_bounds, n_candidates, n_restarts : see the shared base.

    Attributes
    ----------
    log_evidences : list of (M,) arrays, the log evidences of eq. 7 at every re-initialization.
    """

    def __init__(self, kernels, bounds, *, refit_every=50, floor=WEIGHT_FLOOR, mle_restarts=2, weight_evidence="rf",
                 name="EGP-TS", **options):
        super().__init__(bounds, mle_restarts=mle_restarts, name=name, **options)
        if not kernels:
            raise ValueError("kernels must be a non-empty list (the dictionary).")
        if int(refit_every) != refit_every or refit_every < 1:
            raise ValueError(f"refit_every must be an integer >= 1; got {refit_every!r}.")
        if weight_evidence not in WEIGHT_EVIDENCES:
            raise ValueError(f"weight_evidence must be one of {WEIGHT_EVIDENCES} (the random-feature or the exact "
                             f"GP's marginal likelihood); got {weight_evidence!r}.")
        self.kernels = list(kernels)
        self.refit_every, self.floor, self.weight_evidence = int(refit_every), floor, weight_evidence
        self.ensemble, self.n_modelled, self.n_at_refit, self.history = None, 0, 0, []
        self.weight_history = []  # the weights w_t of every proposal round, (M,) each
        self.log_evidences = []

    def _reinitialize(self, U, y, rng):
        self.y_mean, self.y_scale = float(np.mean(y)), float(np.std(y)) or 1.0
        z = (y - self.y_mean) / self.y_scale
        members, exact = [], []
        for kernel in self.kernels:
            gp = self._fit_gp(kernel, self.initial_noise, U, z, rng, self.mle_restarts)
            members.append(BayesianLinearRegression(RandomFourierFeatures(gp.kernel, self.n_features, U.shape[1],
                                                                          rng), gp.noise_variance))
            if self.weight_evidence == "exact":
                exact.append(gp.log_marginal_likelihood())
        log_evidences = (np.array(exact) if self.weight_evidence == "exact"
                         else np.array([member.log_evidence(U, z) for member in members]))
        self.log_evidences.append(log_evidences)
        self.ensemble = EnsembleRFGP(members, floor=self.floor).fit(U, z, log_evidences=log_evidences)
        self.n_modelled = self.n_at_refit = len(y)

    def propose(self, X, y, iteration, rng):
        U, y = self._unit(X), np.asarray(y, dtype=float)
        if self.ensemble is None or len(y) - self.n_at_refit >= self.refit_every:
            self._reinitialize(U, y, rng)
        for u, value in zip(U[self.n_modelled:], y[self.n_modelled:]):
            self.ensemble.update(u, (value - self.y_mean) / self.y_scale)
        self.n_modelled = len(y)
        self.weight_history.append(self.ensemble.weights.copy())
        points = []
        for _ in range(self.batch_size):
            member, draw = self.ensemble.sample_function(rng)
            self.history.append(member)
            points.append(self._to_box(self._argmax(draw, rng)[0]))
        return np.array(points)


class GPTS(_RandomFeatureThompson):
    """GP-TS with one preselected kernel (spec 2.6 item 1): EGP-TS with M = 1, refitted every iteration.

    Each proposal refits the kernel's hyperparameters and noise by ML (warm
    started from the last fit, spec U4, or from ``kernel`` every time with
    ``warm_start=False``, as a new scikit-learn regressor would), redraws the
    random features, computes the posterior by eq. 17 and maximizes
    ``batch_size`` independent draws.
    """

    def __init__(self, kernel, bounds, *, warm_start=True, name="GP-TS", **options):
        super().__init__(bounds, name=name, **options)
        self.kernel, self.noise_variance, self.warm_start = kernel, self.initial_noise, warm_start

    def propose(self, X, y, iteration, rng):
        U, z = self._unit(X), _standardized(y)
        gp = self._fit_gp(self.kernel, self.noise_variance, U, z, rng, self.mle_restarts)
        if self.warm_start:
            self.kernel, self.noise_variance = gp.kernel, gp.noise_variance
        member = self._member(gp, U, z, rng)
        return np.array([self._to_box(self._argmax(member.sample_function(rng), rng)[0])
                         for _ in range(self.batch_size)])


class _KernelArms(_RandomFeatureThompson):
    """The dictionary's kernels as bandit arms, each a GP on all the data (spec 2.6 items 4-5)."""

    def __init__(self, kernels, bounds, **options):
        super().__init__(bounds, **options)
        if not kernels:
            raise ValueError("kernels must be a non-empty list (the dictionary).")
        self.kernels, self.noise_variances = list(kernels), [self.initial_noise] * len(kernels)
        self.history = []

    def _fit_arm(self, arm, U, z, rng):
        gp = self._fit_gp(self.kernels[arm], self.noise_variances[arm], U, z, rng, self.mle_restarts)
        self.kernels[arm], self.noise_variances[arm] = gp.kernel, gp.noise_variance
        return self._member(gp, U, z, rng)


class BanditBO(_KernelArms):
    """BanditBO (Nguyen et al. 2020) with the dictionary's kernels as arms (spec 2.6 item 4).

    Every round all M GPs are refitted on all data; each arm draws a function
    and maximizes it; the arm with the largest sampled maximum is played and
    its own draw's maximizer is the query (repeated ``batch_size`` times).
    """

    def __init__(self, kernels, bounds, *, name="BanditBO", **options):
        super().__init__(kernels, bounds, name=name, **options)

    def propose(self, X, y, iteration, rng):
        U, z = self._unit(X), _standardized(y)
        members = [self._fit_arm(arm, U, z, rng) for arm in range(len(self.kernels))]
        points = []
        for _ in range(self.batch_size):
            maxima = [self._argmax(member.sample_function(rng), rng) for member in members]
            arm = int(np.argmax([value for _, value in maxima]))
            self.history.append(arm)
            points.append(self._to_box(maxima[arm][0]))
        return np.array(points)


class EXP3BO(_KernelArms):
    """EXP3 over the dictionary's kernels (Auer et al. 2002), each play a GP-TS query (spec 2.6 item 5).

    With gamma = min(1, sqrt(M ln M / ((e - 1) T))), arm probabilities
    p_m = (1 - gamma) e_m / sum_j e_j + gamma / M. The played arm's GP is refitted
    on all data and proposes by Thompson sampling. When its observation y
    arrives, its reward r = (y - min y) / (max y - min y) over all observations
    so far, importance-weighted r / p_m, multiplies e_m by exp(gamma r / (p_m M)).

    Parameters
    ----------
    horizon : int, the BO budget T in gamma.
    """

    def __init__(self, kernels, bounds, *, horizon, name="EXP3BO", **options):
        super().__init__(kernels, bounds, name=name, **options)
        if int(horizon) != horizon or horizon < 1:
            raise ValueError(f"horizon must be an integer >= 1; got {horizon!r}.")
        n_arms = len(self.kernels)
        self.gamma = 1.0 if n_arms == 1 else min(1.0, np.sqrt(n_arms * np.log(n_arms) / ((np.e - 1) * horizon)))
        self.log_gains = np.zeros(n_arms)
        self._pending, self.n_seen = [], None

    @property
    def probabilities(self):
        gains = np.exp(self.log_gains - self.log_gains.max())
        return (1 - self.gamma) * gains / gains.sum() + self.gamma / len(gains)

    def _reward_pending(self, y):
        """Credit the arms that proposed the observations that arrived since the last round."""
        low, high = np.min(y), np.max(y)
        for (arm, probability), value in zip(self._pending, y[self.n_seen:]):
            reward = (value - low) / (high - low) if high > low else 0.0
            self.log_gains[arm] += self.gamma * reward / (probability * len(self.kernels))
        self._pending = []

    def propose(self, X, y, iteration, rng):
        y = np.asarray(y, dtype=float)
        if self.n_seen is not None:
            self._reward_pending(y)
        U, z = self._unit(X), _standardized(y)
        points, members = [], {}
        for _ in range(self.batch_size):
            probabilities = self.probabilities
            arm = int(rng.choice(len(self.kernels), p=probabilities))
            self.history.append(arm)
            self._pending.append((arm, probabilities[arm]))
            if arm not in members:
                members[arm] = self._fit_arm(arm, U, z, rng)
            points.append(self._to_box(self._argmax(members[arm].sample_function(rng), rng)[0]))
        self.n_seen = len(y)
        return np.array(points)


def slice_sample(log_density, x, lower, upper, rng, n_sweeps=1, widths=None):
    """Coordinate-wise slice sampling (Neal 2003, stepping out and shrinkage) inside a box.

    Each sweep updates every coordinate in turn: draw a level
    log u = log p(x) - Exp(1), step an interval of width w out (never past the
    box) until both ends lie below the level, then sample uniformly from it,
    shrinking towards x on every rejection. The chain leaves p invariant.

    Parameters
    ----------
    log_density : callable, (k,) -> float (-inf outside the support).
    x : (k,) starting point with finite log density.
    lower, upper : (k,) box.
    rng : numpy.random.Generator
    n_sweeps : int
    widths : (k,) initial interval widths; a tenth of the box by default.

    Returns
    -------
    (x, log_density(x)) after the last sweep.
    """
    x = np.array(x, dtype=float)
    lower, upper = np.asarray(lower, dtype=float), np.asarray(upper, dtype=float)
    widths = (upper - lower) / 10 if widths is None else np.asarray(widths, dtype=float)
    current = log_density(x)
    if not np.isfinite(current):
        raise ValueError(f"x must have a finite log density to start slice sampling; got {x.tolist()}.")
    for _ in range(n_sweeps):
        for i in range(len(x)):
            level = current - rng.exponential()
            # The interval is placed at random around x before it meets the box (placing it inside the box would
            # make its position depend on x and break the detailed balance of stepping out); it stops growing at
            # the box, outside of which the density is 0, and is cut to the box before shrinking.
            left = x[i] - widths[i] * rng.uniform()
            right = left + widths[i]
            probe = x.copy()
            while left > lower[i] and log_density(_at(probe, i, left)) > level:
                left -= widths[i]
            while right < upper[i] and log_density(_at(probe, i, right)) > level:
                right += widths[i]
            left, right = max(left, lower[i]), min(right, upper[i])
            while True:
                candidate = rng.uniform(left, right)
                value = log_density(_at(probe, i, candidate))
                if value > level:
                    x[i], current = candidate, value
                    break
                if candidate < x[i]:
                    left = candidate
                else:
                    right = candidate
    return x, current


def _at(x, i, value):
    x[i] = value
    return x


class FullyBayesianGPTS(_RandomFeatureThompson):
    """Fully Bayesian GP-TS (App. E; spec 2.6 item 3): the RBF kernel's hyperparameters sampled, not fitted.

    psi = (sigma_theta^2, l, sigma_n^2) has independent uniform priors on
    ``prior_box`` (App. E: U[1, 100], U[1e-3, 1e3], U[0.1, 0.3]). Each
    proposal advances a slice-sampling chain on p(psi | D) proportional to the
    exact-GP evidence p(y | X, psi) inside the box (``warmup_sweeps`` at the
    first proposal, ``sweeps`` after, the chain kept between proposals), then
    Thompson-samples the random-feature GP of the chain's current psi. The
    paper used NUTS in pyro; the sampler is ours (spec U13).
    """

    PRIOR_BOX = ((1.0, 100.0), (1e-3, 1e3), (0.1, 0.3))

    def __init__(self, bounds, *, prior_box=PRIOR_BOX, warmup_sweeps=200, sweeps=20, name="FB-GP-TS", **options):
        super().__init__(bounds, name=name, **options)
        self.prior_box = np.asarray(prior_box, dtype=float)
        if self.prior_box.shape != (3, 2) or np.any(self.prior_box[:, 0] <= 0) or np.any(
                self.prior_box[:, 0] >= self.prior_box[:, 1]):
            raise ValueError("prior_box must be three (low, high) ranges with 0 < low < high for "
                             f"(variance, lengthscale, noise variance); got {np.asarray(prior_box).tolist()}.")
        self.warmup_sweeps, self.sweeps = int(warmup_sweeps), int(sweeps)
        self.psi, self.samples = None, []

    def propose(self, X, y, iteration, rng):
        U, z = self._unit(X), _standardized(y)
        (var_low, var_high), (len_low, len_high), noise_bounds = self.prior_box
        kernel = SquaredExponential(1.0, 1.0, lengthscale_bounds=(len_low, len_high),
                                    variance_bounds=(var_low, var_high))
        gp = GaussianProcess(kernel, noise_bounds[0], noise_bounds=tuple(noise_bounds)).fit(U, z)

        def log_evidence(psi):  # theta order: log variance, log lengthscale, log noise
            if np.any(psi < self.prior_box[:, 0]) or np.any(psi > self.prior_box[:, 1]):
                return -np.inf
            return gp.log_marginal_likelihood(np.log(psi))

        points = []
        for draw in range(self.batch_size):
            # Each of the K draws gets its own state of the chain: one more sweep between draws.
            start = self.prior_box.mean(axis=1) if self.psi is None else self.psi
            sweeps = self.warmup_sweeps if self.psi is None else (self.sweeps if draw == 0 else 1)
            self.psi, _ = slice_sample(log_evidence, start, self.prior_box[:, 0], self.prior_box[:, 1], rng, sweeps)
            self.samples.append(self.psi.copy())
            sampled = GaussianProcess(SquaredExponential(self.psi[1], self.psi[0]), self.psi[2]).fit(U, z)
            member = self._member(sampled, U, z, rng)
            points.append(self._to_box(self._argmax(member.sample_function(rng), rng)[0]))
        self.likelihood_failures += gp.likelihood_failures
        return np.array(points)


class EGPEI(_RandomFeatureThompson):
    """EGP-EI (Remark 1, App. E; spec 2.5): EI of one exact GP drawn from the ensemble's weights.

    Every proposal refits all M exact GPs by ML (warm started), sets the weights
    w^m proportional to w_0^m p(D | m, alpha_hat^m) (eq. 7 at the fitted
    hyperparameters, floored), draws m ~ Cat(w) and maximizes the analytic EI of
    GP m (best = the largest standardized observation). With one kernel it is
    GP-EI.
    """

    def __init__(self, kernels, bounds, *, floor=WEIGHT_FLOOR, name="EGP-EI", **options):
        super().__init__(bounds, name=name, **options)
        if not kernels:
            raise ValueError("kernels must be a non-empty list (the dictionary).")
        if self.batch_size != 1:
            raise ValueError(f"batch_size must be 1 for {name}: EI proposes one point per round; got "
                             f"{self.batch_size}.")
        self.kernels, self.noise_variances = list(kernels), [self.initial_noise] * len(kernels)
        self.floor = floor if len(kernels) > 1 else 0.0
        self.history, self.weights, self.weight_history = [], None, []

    def propose(self, X, y, iteration, rng):
        U, z = self._unit(X), _standardized(y)
        gps = []
        for m, kernel in enumerate(self.kernels):
            gp = self._fit_gp(kernel, self.noise_variances[m], U, z, rng, self.mle_restarts)
            self.kernels[m], self.noise_variances[m] = gp.kernel, gp.noise_variance
            gps.append(gp)
        log_weights = np.log(1 / len(gps)) + np.array([gp.log_marginal_likelihood() for gp in gps])
        self.weights = floored(log_weights, self.floor)
        self.weight_history.append(self.weights.copy())
        member = int(rng.choice(len(gps), p=self.weights))
        self.history.append(member)
        acquisition, gp = ExpectedImprovement(z.max()), gps[member]
        unit_box = np.tile([0.0, 1.0], (len(self.bounds), 1))
        result = maximize_with_restarts(lambda Z: acquisition(gp, Z), unit_box, rng, n_candidates=self.n_candidates,
                                        n_restarts=self.n_restarts,
                                        fun_and_grad=lambda x: acquisition.value_and_gradient(gp, x),
                                        maxiter=POLISH_ITERATIONS, starts=self.search_starts)
        return self._to_box(result.x)[None, :]
