"""EGP-TS (Lu, Polyzos, Ding & Giannakis 2023): Thompson sampling from an ensemble of random-feature GPs.

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
"""
import numpy as np
from scipy.special import logsumexp

from common.gp import GaussianProcess
from common.optimizers import maximize_with_restarts
from common.random_features import BayesianLinearRegression, RandomFourierFeatures

WEIGHT_FLOOR = 1e-4


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

    def fit(self, X, y):
        """Every member's batch posterior (eq. 17) and the batch weights w_0 p(D | m) (eq. 7)."""
        log_weights = [np.log(w0) + member.log_evidence(X, y) for w0, member in zip(self.prior_weights, self.members)]
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


class EGPTS:
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
    n_features : int, D random features per member (2D parameters).
    refit_every : int, observations between re-initializations (the paper: 50).
    batch_size : int, K draws per round (1: sequential EGP-TS).
    noise_bounds : (low, high), the range of each member's fitted noise variance on standardized y.
    n_candidates, n_restarts : of the maximization of each draw.
    """

    def __init__(self, kernels, bounds, *, n_features=50, refit_every=50, batch_size=1, noise_bounds=(1e-6, 1.0),
                 n_candidates=1000, n_restarts=5, floor=WEIGHT_FLOOR, name="EGP-TS"):
        self.kernels = list(kernels)
        self.bounds = np.asarray(bounds, dtype=float)
        self.n_features, self.refit_every, self.batch_size = int(n_features), int(refit_every), int(batch_size)
        self.noise_bounds, self.floor = noise_bounds, floor
        self.n_candidates, self.n_restarts = int(n_candidates), int(n_restarts)
        self.name = name
        self.ensemble, self.n_modelled, self.n_at_refit, self.history = None, 0, 0, []

    def _unit(self, X):
        low, high = self.bounds[:, 0], self.bounds[:, 1]
        return (np.asarray(X, dtype=float) - low) / (high - low)

    def _reinitialize(self, U, y, rng):
        self.y_mean, self.y_scale = float(np.mean(y)), float(np.std(y)) or 1.0
        z = (y - self.y_mean) / self.y_scale
        members = []
        for kernel in self.kernels:
            gp = GaussianProcess(kernel, 1e-2, noise_bounds=self.noise_bounds).fit(U, z)
            gp.fit_hyperparameters(rng, n_restarts=1)
            features = RandomFourierFeatures(gp.kernel, self.n_features, U.shape[1], rng)
            members.append(BayesianLinearRegression(features, gp.noise_variance))
        self.ensemble = EnsembleRFGP(members, floor=self.floor).fit(U, z)
        self.n_modelled = self.n_at_refit = len(y)

    def propose(self, X, y, iteration, rng):
        U, y = self._unit(X), np.asarray(y, dtype=float)
        if self.ensemble is None or len(y) - self.n_at_refit >= self.refit_every:
            self._reinitialize(U, y, rng)
        for u, value in zip(U[self.n_modelled:], y[self.n_modelled:]):
            self.ensemble.update(u, (value - self.y_mean) / self.y_scale)
        self.n_modelled = len(y)
        unit_box = np.tile([0.0, 1.0], (U.shape[1], 1))
        points = []
        for _ in range(self.batch_size):
            member, draw = self.ensemble.sample_function(rng)
            self.history.append(member)
            u = maximize_with_restarts(draw, unit_box, rng, n_candidates=self.n_candidates,
                                       n_restarts=self.n_restarts, fun_and_grad=draw.value_and_gradient).x
            points.append(self.bounds[:, 0] + u * (self.bounds[:, 1] - self.bounds[:, 0]))
        return np.array(points)
