"""BO-PP: Bayesian optimization with pseudo-points (Qian, Xiong & Xue).

Before each acquisition step, every observed point x_j gets one pseudo-point
x'_j near it that copies its value, y'_j = y_j (Algorithm 2, lines 3-6). The GP
posterior is recomputed with the pseudo-points added, keeping the
hyperparameters fitted on the real points only (line 7), so the posterior
variance shrinks (Lemma 2) and the mean shifts (Lemma 4) at no evaluation cost.
The pseudo-points are discarded after the step and drawn afresh the next time.

The pseudo-point distance at iteration t is (§5)

    tau_t = r tau_0 / (d l_t),                                             (§5)

with r the width of each dimension of the search box (2 on [-1, 1]^d), d the
dimension and l_t = |D_t| the number of pseudo-points (one per observation).
Lemmas 2 and 4, with K~ = k(X, X'), K' = k(X', X'), A = (K + sigma^2 I)^{-1},
p(x) = K~^T A k(X, x) - k(X', x) and M = (K' - K~^T A K~ + sigma^2 I)^{-1}:

    sigma_t^2(x) - sigma^_t^2(x) = p(x)^T M p(x) >= 0                      (eq. 8)
    mu^_t(x) = mu_t(x) + p(x)^T M (mu_t(X') - y^')                         (eqs. 13-14)
"""
import numpy as np
from scipy.linalg import cho_solve

from common.bo import GPAcquisitionMethod
from common.gp import GaussianProcess

PSEUDO_POINT_MODES = ("box", "corner")


def pseudo_point_distance(tau0, n_observed, dim, width=2.0):
    """tau = r tau0 / (d l) (§5): r = box width, l = number of observed points."""
    if n_observed < 1:
        raise ValueError(f"n_observed must be >= 1; got {n_observed}.")
    return width * tau0 / (dim * n_observed)


def sample_pseudo_points(X, y, tau, bounds, rng, mode="box"):
    """One pseudo-point per observation, at L-infinity distance at most (box) or exactly (corner) tau.

    The paper's footnote defines "x and x' have distance tau" as |x_i - x'_i| = tau
    for every coordinate (a corner of the L-inf box); §5 says the pseudo-point is
    sampled *within* that distance. "box" draws x' uniformly in [x - tau, x + tau]^d,
    "corner" draws x' = x + tau s with s uniform in {-1, +1}^d. Points are clipped
    to the search box (the paper does not say what happens at the boundary).

    Returns
    -------
    X_pseudo : (n, d), y_pseudo : (n,) equal to y (Algorithm 2: y'_j = y_j).
    """
    if mode not in PSEUDO_POINT_MODES:
        raise ValueError(f"mode must be one of {PSEUDO_POINT_MODES}; got {mode!r}.")
    X = np.asarray(X, dtype=float)
    if mode == "box":
        offsets = rng.uniform(-tau, tau, size=X.shape)
    else:
        offsets = tau * rng.choice([-1.0, 1.0], size=X.shape)
    bounds = np.asarray(bounds, dtype=float)
    return np.clip(X + offsets, bounds[:, 0], bounds[:, 1]), np.asarray(y, dtype=float).copy()


def posterior_with_pseudo_points(gp, X_pseudo, y_pseudo):
    """The GP conditioned on its data plus pseudo-points, with the same hyperparameters.

    With ``y_transform="standardize"`` the transform is unchanged by the
    pseudo-points because each copies one real value: the mean and (population)
    standard deviation of the augmented values equal those of the real ones.
    """
    augmented = GaussianProcess(gp.kernel, noise_variance=gp.noise_variance, y_transform=gp.y_transform)
    return augmented.fit(np.vstack([gp.X, X_pseudo]), np.append(gp._y_raw, y_pseudo))


def lemma_terms(gp, X_pseudo, X_test):
    """p(x) for every test point and M of Lemmas 2 and 4, from the real-data GP.

    Returns
    -------
    P : (n_test, l) rows p(x)^T;  M : (l, l).
    """
    noise = gp.noise_variance
    K_cross = gp.kernel(gp.X, X_pseudo)                                    # K~, t x l
    A_K_cross = cho_solve((gp.L, True), K_cross)                           # A K~
    A_k_test = cho_solve((gp.L, True), gp.kernel(gp.X, X_test))           # A k_t(x)
    P = (K_cross.T @ A_k_test - gp.kernel(X_pseudo, X_test)).T             # p(x)^T
    M = np.linalg.inv(gp.kernel(X_pseudo) - K_cross.T @ A_K_cross + noise * np.eye(len(X_pseudo)))
    return P, M


class PseudoPointBO(GPAcquisitionMethod):
    """GP-UCB/EI/PI whose acquisition uses the pseudo-point posterior (Algorithm 2).

    Parameters
    ----------
    tau0 : float
        Base distance tau_0 (the paper's BO-PP01, -PP001, -PP0001 use 0.01,
        0.001, 0.0001). 0 gives plain BO (Algorithm 1), with no pseudo-points.
    pseudo_point_mode : {"box", "corner"}
    pseudo_point_rng : numpy.random.Generator, optional
        Stream for the pseudo-points, kept apart from the method's own stream
        (hyperparameter restarts) so that BO and BO-PP stay paired; defaults to
        the method's stream.
    **kwargs : passed to :class:`~common.bo.GPAcquisitionMethod`.

    Attributes
    ----------
    log : list of dict
        Per iteration: ``n_pseudo`` (= |D|) and ``tau`` (for checking the schedule).
    """

    def __init__(self, kernel, bounds, tau0=0.01, pseudo_point_mode="box", pseudo_point_rng=None, **kwargs):
        super().__init__(kernel, bounds, **kwargs)
        if tau0 < 0:
            raise ValueError(f"tau0 must be >= 0; got {tau0!r}.")
        if pseudo_point_mode not in PSEUDO_POINT_MODES:
            raise ValueError(f"pseudo_point_mode must be one of {PSEUDO_POINT_MODES}; got {pseudo_point_mode!r}.")
        self.tau0 = float(tau0)
        self.pseudo_point_mode = pseudo_point_mode
        self.pseudo_point_rng = pseudo_point_rng
        self.log = []

    def posterior(self, gp, X, y, iteration, rng):
        if self.tau0 == 0:
            self.log.append({"n_pseudo": 0, "tau": 0.0})
            return gp
        width = float(np.mean(self.bounds[:, 1] - self.bounds[:, 0]))
        tau = pseudo_point_distance(self.tau0, len(X), len(self.bounds), width)
        X_pseudo, y_pseudo = sample_pseudo_points(X, y, tau, self.bounds, self.pseudo_point_rng or rng,
                                                  self.pseudo_point_mode)
        self.log.append({"n_pseudo": len(X_pseudo), "tau": tau})
        return posterior_with_pseudo_points(gp, X_pseudo, y_pseudo)
