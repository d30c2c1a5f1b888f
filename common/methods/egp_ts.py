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

from common.random_features import BayesianLinearRegression

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
        self.weights = self.prior_weights.copy()

    def fit(self, X, y):
        """Every member's batch posterior (eq. 17) and the batch weights w_0 p(D | m) (eq. 7)."""
        log_weights = [np.log(w0) + member.log_evidence(X, y) for w0, member in zip(self.prior_weights, self.members)]
        for member in self.members:
            member.fit(X, y)
        self.weights = floored(log_weights, self.floor)
        return self

    def update(self, x, y):
        """One observation: the weights by each member's one-step evidence (eq. 10), then the members
        by rank-one updates (eqs. 11-12), both from the posterior before the observation."""
        log_likelihoods = [member.update(x, y) for member in self.members]  # each returns its evidence first
        self.weights = floored(np.log(self.weights) + np.array(log_likelihoods), self.floor)
        return self

    def sample_function(self, rng):
        """A Thompson draw (eqs. 8-9): m ~ Cat(w), then a function from member m. Returns (m, function)."""
        member = int(rng.choice(len(self.members), p=self.weights))
        return member, self.members[member].sample_function(rng)
