"""Random Fourier features and Bayesian linear regression (Rahimi & Recht 2007).

By Bochner's theorem a stationary kernel k(x, x') = s^2 g(x - x') satisfies
g(r) = E_w[cos(w^T r)] for w drawn from its spectral density. With D draws,

    phi(x) = D^{-1/2} [sin(w_1^T x), ..., sin(w_D^T x), cos(w_1^T x), ..., cos(w_D^T x)]

gives phi(x)^T phi(x') = D^{-1} sum_j cos(w_j^T (x - x')) -> g(x - x')   (EGP-TS eq. 14-15;
the sin/cos pairs are grouped rather than interleaved, which only permutes the features).
The GP is then approximated by the Bayesian linear model f(x) = phi(x)^T theta,
theta ~ N(0, s^2 I), y = f(x) + eps, eps ~ N(0, sigma_n^2) (eq. 16, 19), whose
posterior is Gaussian (eq. 17). A draw theta~ from it is a whole function that
can be evaluated and maximized anywhere: Thompson sampling (eq. 18).
"""
import numba
import numpy as np
from scipy.linalg import cholesky, solve_triangular

from common.gp import cholesky_solve, jittered_cholesky, solve_lower
from common.kernels.base import as_2d


class RandomFourierFeatures:
    """Feature map phi with phi(x)^T phi(x') ~ g(x - x') for a stationary kernel.

    Parameters
    ----------
    kernel : StationaryKernel
        Provides ``sample_spectral`` and ``variance``.
    n_features : int
        Number of frequencies D (the map has 2 D outputs).
    dim : int
        Input dimension d.
    rng : numpy.random.Generator
    """

    def __init__(self, kernel, n_features, dim, rng):
        if n_features < 1:
            raise ValueError(f"n_features must be >= 1; got {n_features}.")
        self.kernel = kernel
        self.n_features = int(n_features)
        self.dim = int(dim)
        self.frequencies = kernel.sample_spectral(self.n_features, self.dim, rng)  # (D, d)

    def __call__(self, X):
        """Features of shape (n, 2 D)."""
        X = as_2d("X", X, self.dim)
        projection = X @ self.frequencies.T
        return np.hstack([np.sin(projection), np.cos(projection)]) / np.sqrt(self.n_features)

    def gradient(self, x):
        """Jacobian d phi(x) / dx of shape (2 D, d) at one point x of shape (d,)."""
        projection = self.frequencies @ np.asarray(x, dtype=float)
        scale = 1.0 / np.sqrt(self.n_features)
        return np.vstack([np.cos(projection)[:, None] * self.frequencies,
                          -np.sin(projection)[:, None] * self.frequencies]) * scale

    def kernel_estimate(self, X, Y=None):
        """s^2 phi(X) phi(Y)^T, the Monte-Carlo estimate of the kernel matrix."""
        Phi_X = self(X)
        Phi_Y = Phi_X if Y is None else self(Y)
        return self.kernel.variance * Phi_X @ Phi_Y.T


class BayesianLinearRegression:
    """Posterior over theta in y = phi(x)^T theta + eps (EGP-TS eq. 17 and 11-12).

    The posterior is kept as the Cholesky factor L of its precision
    A = Phi^T Phi / sigma_n^2 + I / s^2 and the vector b = Phi^T y / sigma_n^2,
    never as the covariance A^{-1}: a draw is mean + L^{-T} z (one triangular
    solve), an observation updates L by rank one (O(D^2)), and nothing forms the
    2D x 2D inverse.

    Parameters
    ----------
    features : RandomFourierFeatures
    noise_variance : float
        sigma_n^2 > 0.
    prior_variance : float, optional
        s^2 = Var(theta_j); defaults to the kernel's variance.

    Attributes
    ----------
    mean : (2D,) posterior mean theta_hat = A^{-1} b
    """

    def __init__(self, features, noise_variance, prior_variance=None):
        if not noise_variance > 0:
            raise ValueError(f"noise_variance must be > 0; got {noise_variance!r}.")
        self.features = features
        self.noise_variance = float(noise_variance)
        self.prior_variance = float(features.kernel.variance if prior_variance is None else prior_variance)
        size = 2 * features.n_features
        self.mean = np.zeros(size)
        self._rhs = np.zeros(size)
        self._precision_factor = np.asfortranarray(np.eye(size) / np.sqrt(self.prior_variance))

    @property
    def cov(self):
        """The posterior covariance A^{-1}, (2D, 2D): formed on request only (O(D^3))."""
        return cholesky_solve(self._precision_factor, np.eye(len(self.mean)))

    def fit(self, X, y, counts=None):
        """Batch posterior from data (eq. 17).

        With ``counts``, row i is the mean of counts[i] observations at X[i]
        (noise sigma_n^2 / counts[i]); scaling the row and its value by
        sqrt(counts[i]) gives exactly the posterior of the repeated rows.
        """
        Phi = self.features(X)
        y = np.asarray(y, dtype=float).reshape(-1)
        if counts is not None:
            root = np.sqrt(np.asarray(counts, dtype=float))
            Phi, y = Phi * root[:, None], y * root
        precision = Phi.T @ Phi / self.noise_variance + np.eye(Phi.shape[1]) / self.prior_variance
        self._precision_factor, _ = jittered_cholesky(precision)
        self._rhs = Phi.T @ y / self.noise_variance
        self.mean = cholesky_solve(self._precision_factor, self._rhs)
        return self

    def predictive(self, x):
        """Predictive mean and variance of y at one point (eq. 10): y_hat, s^2 = phi^T A^{-1} phi + sigma_n^2."""
        return self._predictive(self._phi(x))

    def _phi(self, x):
        return self.features(np.asarray(x, dtype=float).reshape(1, -1))[0]

    def _predictive(self, phi):
        v = solve_lower(self._precision_factor, phi)
        return phi @ self.mean, v @ v + self.noise_variance

    def update(self, x, y):
        """Rank-one recursive Bayes update with one observation (eqs. 11-12), in O(D^2).

        A gains phi phi^T / sigma_n^2 (its Cholesky factor is updated by rank one)
        and b gains phi y / sigma_n^2. Returns the log predictive density
        log N(y; y_hat, s^2) computed before the update, which is the one-step
        evidence used for mixture weights (eq. 10).
        """
        phi = self._phi(x)
        predicted, variance = self._predictive(phi)
        _cholesky_rank_one_update(self._precision_factor, phi / np.sqrt(self.noise_variance))
        self._rhs = self._rhs + phi * y / self.noise_variance
        self.mean = cholesky_solve(self._precision_factor, self._rhs)
        return -0.5 * (np.log(2 * np.pi * variance) + (y - predicted) ** 2 / variance)

    def log_evidence(self, X, y):
        """log N(y; 0, s^2 Phi Phi^T + sigma_n^2 I), the marginal likelihood of the RF model."""
        Phi = self.features(X)
        y = np.asarray(y, dtype=float).reshape(-1)
        C = self.prior_variance * Phi @ Phi.T + self.noise_variance * np.eye(len(y))
        L = cholesky(C, lower=True)
        z = solve_triangular(L, y, lower=True)
        return -0.5 * z @ z - np.log(np.diag(L)).sum() - 0.5 * len(y) * np.log(2 * np.pi)

    def sample_function(self, rng):
        """A posterior function draw f~(x) = phi(x)^T theta~, theta~ = mean + L^{-T} z ~ N(mean, A^{-1}) (eq. 18)."""
        z = rng.standard_normal(len(self.mean))
        return SampledFunction(self.features, self.mean + solve_triangular(self._precision_factor.T, z, lower=False))


@numba.njit(cache=True)
def _cholesky_rank_one_update(L, v):
    """In place: the lower factor of L L^T + v v^T (the classic O(n^2) sweep of Givens-like rotations)."""
    v = v.copy()
    for k in range(len(v)):
        radius = np.sqrt(L[k, k] ** 2 + v[k] ** 2)
        cosine, sine = radius / L[k, k], v[k] / L[k, k]
        L[k, k] = radius
        for i in range(k + 1, len(v)):
            L[i, k] = (L[i, k] + sine * v[i]) / cosine
            v[i] = cosine * v[i] - sine * L[i, k]


class SampledFunction:
    """A function x -> phi(x)^T theta with its gradient, from a random-feature draw."""

    def __init__(self, features, theta):
        self.features = features
        self.theta = theta

    def __call__(self, X):
        return self.features(X) @ self.theta

    def value_and_gradient(self, x):
        x = np.asarray(x, dtype=float)
        return float(self.features(x[None, :])[0] @ self.theta), self.features.gradient(x).T @ self.theta
