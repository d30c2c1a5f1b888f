"""Exact Gaussian-process regression (Rasmussen & Williams 2006, Algorithm 2.1).

The posterior of a GP with prior f ~ GP(m, k) and Gaussian noise, given data
(X, y), is

    mu(x)      = m + k(x, X) (K + Sigma)^{-1} (y - m)                    (RW 2.25)
    sigma^2(x) = k(x, x) - k(x, X) (K + Sigma)^{-1} k(X, x)              (RW 2.26)
    log p(y)   = -1/2 (y-m)^T (K+Sigma)^{-1} (y-m) - 1/2 log|K+Sigma| - n/2 log 2 pi   (RW 2.30)

with K = k(X, X) and Sigma = diag(noise_i). Everything is computed from one
Cholesky factor L L^T = K + Sigma and alpha = (K + Sigma)^{-1} (y - m).
Per-point noise makes two things exact that BO needs:

* repeated inputs: a unique input observed w times with mean ybar has noise
  sigma_n^2 / w, and its posterior equals the naive one on the w repeated rows;
* cheap growth: adding one observation borders L in O(n^2) (no refit).
"""
import numpy as np
from scipy.linalg import LinAlgError, cho_solve, cholesky, solve_triangular
from scipy.optimize import minimize

from common.kernels.base import as_2d

Y_TRANSFORMS = ("none", "center", "standardize")


def jittered_cholesky(A, max_tries=8):
    """Lower Cholesky factor of the symmetric matrix A, adding jitter when needed.

    Noise-free or duplicated inputs make K singular to machine precision. The
    jitter starts at 1e-10 * mean(diag A) and grows tenfold per failure.

    Returns
    -------
    L : ndarray, lower triangular with L L^T = A + jitter I
    jitter : float, the jitter that was added (0.0 if none was needed)
    """
    try:
        return cholesky(A, lower=True, check_finite=False), 0.0
    except LinAlgError:
        pass
    scale = max(float(np.mean(np.diag(A))), np.finfo(float).tiny)
    for k in range(max_tries):
        jitter = scale * 10.0 ** (k - 10)
        try:
            return cholesky(A + jitter * np.eye(len(A)), lower=True, check_finite=False), jitter
        except LinAlgError:
            continue
    raise LinAlgError(
        f"K + noise is not positive definite even with jitter {jitter:.1e}; "
        "check the inputs for NaNs or increase noise_variance."
    )


def unique_rows(X, y):
    """Group repeated inputs: unique rows, the mean of their y, and their counts.

    Returns
    -------
    X_unique : (q, d), y_mean : (q,), counts : (q,) int
        In the order of first appearance.
    """
    X = as_2d("X", X)
    y = np.asarray(y, dtype=float)
    _, first, inverse, counts = np.unique(X, axis=0, return_index=True, return_inverse=True,
                                          return_counts=True)
    inverse = inverse.reshape(-1)
    sums = np.bincount(inverse, weights=y, minlength=len(counts))
    order = np.argsort(first)
    return X[first[order]], (sums / counts)[order], counts[order]


class GaussianProcess:
    """Exact GP regression with fixed or maximum-likelihood hyperparameters.

    Parameters
    ----------
    kernel : Kernel
        Prior covariance; its free hyperparameters are fitted by
        :meth:`fit_hyperparameters`.
    noise_variance : float
        Observation-noise variance sigma_n^2 (in the units of the transformed y).
    noise_bounds : (low, high) or "fixed"
        If not "fixed", log(noise_variance) is appended to theta and fitted.
    y_transform : {"none", "center", "standardize"}
        "none": zero prior mean on raw y; "center": constant prior mean equal to
        mean(y); "standardize": zero mean and unit variance for the GP, with
        predictions mapped back to the units of y. The transform is computed from
        the data passed to :meth:`fit` (and updated by :meth:`add_observation`).
    """

    def __init__(self, kernel, noise_variance=1e-6, noise_bounds="fixed", y_transform="none"):
        if y_transform not in Y_TRANSFORMS:
            raise ValueError(f"y_transform must be one of {Y_TRANSFORMS}; got {y_transform!r}.")
        if not noise_variance >= 0:
            raise ValueError(f"noise_variance must be >= 0; got {noise_variance!r}.")
        if not (isinstance(noise_bounds, str) and noise_bounds == "fixed"):
            low, high = noise_bounds
            if not 0 < low <= high:
                raise ValueError(f"noise_bounds must be 'fixed' or 0 < low <= high; got {noise_bounds!r}.")
        self.kernel = kernel
        self.noise_variance = float(noise_variance)
        self.noise_bounds = noise_bounds
        self.y_transform = y_transform
        self.X = None

    # ------------------------------------------------------------------ data and fit
    def fit(self, X, y, counts=None, y_squared_means=None):
        """Condition on data (hyperparameters unchanged).

        Parameters
        ----------
        X : (n, d) inputs.
        y : (n,) observations, or per-unique-input means when ``counts`` is given.
        counts : (n,) positive ints, optional
            Number of repetitions behind each row: row i then has noise
            noise_variance / counts[i], which gives exactly the posterior of the
            expanded data set with counts[i] copies of X[i].
        y_squared_means : (n,), optional
            Mean of y^2 over the repetitions behind each row, so that the
            "standardize" transform uses the spread of the individual
            observations (as on the expanded data); see :meth:`fit_repeated`.
        """
        X = as_2d("X", X)
        y = np.asarray(y, dtype=float).reshape(-1)
        if len(y) != len(X):
            raise ValueError(f"X and y must have the same number of rows; got {len(X)} and {len(y)}.")
        if not np.all(np.isfinite(y)):
            raise ValueError("y contains NaN or inf; drop or impute those observations first.")
        self.X, self._y_raw = X, y
        self.counts = np.ones(len(y)) if counts is None else np.asarray(counts, dtype=float)
        if self.counts.shape != y.shape or np.any(self.counts <= 0):
            raise ValueError("counts must be positive with one entry per row of X.")
        squares = y**2 if y_squared_means is None else np.asarray(y_squared_means, dtype=float)
        self._moments = np.array([self.counts.sum(), self.counts @ y, self.counts @ squares])
        # S_i = sum_j (y_ij - ybar_i)^2 of the repetitions behind each row, in the units of y.
        self._scatter = np.maximum(self.counts * (squares - y**2), 0.0)
        self._update_transform()
        self._factorize()
        return self

    def fit_repeated(self, X, y):
        """Condition on rows with repeated inputs through their unique inputs.

        Groups the rows by input (:func:`unique_rows`) and fits on the q unique
        points with their counts and mean values: O(q^3) instead of O(n^3), and
        the same posterior as :meth:`fit` on the rows.
        """
        X_unique, y_mean, counts = unique_rows(X, y)
        _, squares, _ = unique_rows(X, np.asarray(y, dtype=float) ** 2)
        return self.fit(X_unique, y_mean, counts=counts, y_squared_means=squares)

    def _update_transform(self):
        """Transform of y from the moments of all individual observations."""
        total, first, second = self._moments
        mean = first / total if self.y_transform != "none" else 0.0
        scale = 1.0
        if self.y_transform == "standardize" and total > 1:
            variance = max(second / total - (first / total) ** 2, 0.0)
            scale = np.sqrt(variance) if variance > 1e-300 else 1.0
        self.y_mean, self.y_scale = mean, scale
        self._y = (self._y_raw - mean) / scale

    def _noise_diagonal(self):
        return self.noise_variance / self.counts

    def _factorize(self):
        K = self.kernel(self.X)
        K[np.diag_indices_from(K)] += self._noise_diagonal()
        self.L, self.jitter = jittered_cholesky(K)
        self.alpha = cho_solve((self.L, True), self._y, check_finite=False)

    def add_observation(self, x, y):
        """Add one observation in O(n^2) by bordering the Cholesky factor.

        With L L^T = K + Sigma, the new factor is [[L, 0], [l^T, delta]] with
        l = L^{-1} k(X, x) and delta^2 = k(x, x) + sigma_n^2 - l^T l. The result
        equals :meth:`fit` on the enlarged data (tested), without refitting the
        hyperparameters.
        """
        if self.X is None:
            raise RuntimeError("call fit before add_observation.")
        x = np.asarray(x, dtype=float).reshape(1, -1)
        k_new = self.kernel(self.X, x)[:, 0]
        l = solve_triangular(self.L, k_new, lower=True, check_finite=False)
        delta2 = self.kernel.diag(x)[0] + self.noise_variance + self.jitter - l @ l
        self.X = np.vstack([self.X, x])
        self._y_raw = np.append(self._y_raw, float(y))
        self.counts = np.append(self.counts, 1.0)
        self._scatter = np.append(self._scatter, 0.0)
        self._moments += [1.0, float(y), float(y) ** 2]
        self._update_transform()
        if delta2 <= 0:  # x duplicates an input and there is no noise: refactorize with jitter
            self._factorize()
            return self
        n = len(self.L)
        # Fortran order, like LAPACK's factors: the copy is contiguous and cho_solve needs no conversion.
        L = np.empty((n + 1, n + 1), order="F")
        L[:n, :n] = self.L
        L[:n, n] = 0.0
        L[n, :n] = l
        L[n, n] = np.sqrt(delta2)
        self.L = L
        self.alpha = cho_solve((self.L, True), self._y, check_finite=False)
        return self

    # ------------------------------------------------------------------ posterior
    def _check_fitted(self):
        if self.X is None:
            raise RuntimeError("this GaussianProcess has no data; call fit(X, y) first.")

    def predict(self, X, return_std=False, return_cov=False):
        """Posterior mean (RW 2.25) and optionally std or covariance (RW 2.26) of f.

        Returns values in the units of y. The std/cov is that of the latent
        function f, without observation noise.
        """
        self._check_fitted()
        X = as_2d("X", X, self.X.shape[1])
        Ks = self.kernel(X, self.X)
        mean = self.y_mean + self.y_scale * (Ks @ self.alpha)
        if not (return_std or return_cov):
            return mean
        V = solve_triangular(self.L, Ks.T, lower=True, check_finite=False)
        if return_cov:
            cov = self.kernel(X) - V.T @ V
            return mean, cov * self.y_scale**2
        var = np.maximum(self.kernel.diag(X) - np.einsum("ij,ij->j", V, V), 0.0)
        return mean, np.sqrt(var) * self.y_scale

    def predict_with_gradient(self, x):
        """Mean, std and their gradients at one point x of shape (d,).

        d mu / dx = dk(x, X)/dx^T alpha and d sigma / dx = -(dk/dx)^T v / sigma with
        v = (K + Sigma)^{-1} k(X, x), for stationary kernels (k(x, x) constant).
        """
        self._check_fitted()
        x = np.asarray(x, dtype=float).reshape(-1)
        k = self.kernel(x[None, :], self.X)[0]
        dk = self.kernel.gradient_x(x, self.X)  # (n, d)
        v = cho_solve((self.L, True), k, check_finite=False)
        var = max(self.kernel.diag(x[None, :])[0] - k @ v, 0.0)
        std = np.sqrt(var)
        mean = self.y_mean + self.y_scale * (k @ self.alpha)
        d_mean = self.y_scale * (dk.T @ self.alpha)
        d_std = -self.y_scale * (dk.T @ v) / std if std > 1e-12 else np.zeros_like(x)
        return mean, std * self.y_scale, d_mean, d_std

    def sample(self, X, n_samples, rng):
        """Joint posterior samples of f at X, shape (n_samples, len(X))."""
        mean, cov = self.predict(X, return_cov=True)
        L, _ = jittered_cholesky(0.5 * (cov + cov.T))
        return mean + rng.standard_normal((n_samples, len(mean))) @ L.T

    # ------------------------------------------------------------------ likelihood
    @property
    def theta(self):
        """Free log-hyperparameters: the kernel's, then log noise if it is fitted."""
        if self.noise_bounds == "fixed":
            return self.kernel.theta
        return np.append(self.kernel.theta, np.log(self.noise_variance))

    @property
    def bounds(self):
        if self.noise_bounds == "fixed":
            return self.kernel.bounds
        return np.vstack([self.kernel.bounds, np.log(self.noise_bounds)])

    def _set_theta(self, theta):
        n_kernel = self.kernel.n_dims
        self.kernel = self.kernel.with_theta(theta[:n_kernel])
        if self.noise_bounds != "fixed":
            self.noise_variance = float(np.exp(theta[n_kernel]))

    def log_marginal_likelihood(self, theta=None, eval_gradient=False):
        """log p(y | X, theta) (RW 2.30) of the transformed y, and its gradient.

        The gradient uses RW 5.9: d/dtheta_j = 1/2 tr((alpha alpha^T - (K+Sigma)^{-1}) dK/dtheta_j).

        With ``counts`` (rows that stand for w_i repetitions with mean ybar_i),
        the value is the likelihood of the expanded data set: the unique-row
        likelihood above, with noise sigma_n^2 / w_i, plus what the repetitions
        say about the noise on their own,

            sum_i  -S_i / (2 sigma_n^2) - (w_i - 1)/2 log(2 pi sigma_n^2) - 1/2 log w_i,

        with S_i = sum_j (y_ij - ybar_i)^2 (transformed units). Without it a
        fitted noise variance would ignore the scatter within groups.
        """
        self._check_fitted()
        theta = self.theta if theta is None else np.asarray(theta, dtype=float)
        n_kernel = self.kernel.n_dims
        kernel = self.kernel.with_theta(theta[:n_kernel])
        noise = self.noise_variance if self.noise_bounds == "fixed" else float(np.exp(theta[n_kernel]))
        noise_diagonal = noise / self.counts
        if eval_gradient:
            K, dK = kernel(self.X, eval_gradient=True)
            if self.noise_bounds != "fixed":
                dK = np.concatenate([dK, np.diag(noise_diagonal)[:, :, None]], axis=2)
        else:
            K = kernel(self.X)
        K[np.diag_indices_from(K)] += noise_diagonal
        try:
            L, _ = jittered_cholesky(K, max_tries=4)
        except LinAlgError:
            return (-np.inf, np.zeros_like(theta)) if eval_gradient else -np.inf
        alpha = cho_solve((L, True), self._y, check_finite=False)
        n = len(self._y)
        value = -0.5 * self._y @ alpha - np.log(np.diag(L)).sum() - 0.5 * n * np.log(2 * np.pi)
        scatter = self._scatter.sum() / self.y_scale**2
        # Skipped when every row is a single observation (that value stays bit for bit what it was) and for
        # noise-free repetitions, whose expanded data set has no density.
        repeats = (self.counts - 1.0).sum() if noise > 0 else 0.0
        if repeats:
            value += (-0.5 * scatter / noise - 0.5 * repeats * np.log(2 * np.pi * noise)
                      - 0.5 * np.log(self.counts).sum())
        if not eval_gradient:
            return value
        inner = np.outer(alpha, alpha) - cho_solve((L, True), np.eye(n), check_finite=False)
        gradient = 0.5 * np.einsum("ij,jik->k", inner, dK)
        if repeats and self.noise_bounds != "fixed":
            gradient[-1] += 0.5 * scatter / noise - 0.5 * repeats  # d/d(log sigma_n^2) of the terms above
        return value, gradient

    def fit_hyperparameters(self, rng=None, n_restarts=0, warm_start=True, maxiter=200):
        """Maximize the log marginal likelihood over the free hyperparameters.

        L-BFGS-B on theta (log scale) within ``bounds`` with the analytic gradient,
        started from the current theta (``warm_start``) and from ``n_restarts``
        points drawn uniformly in the log bounds. The best optimum is kept and the
        posterior refactorized.

        Parameters
        ----------
        rng : numpy.random.Generator, required when n_restarts > 0 or not warm_start
        n_restarts : int >= 0
        warm_start : bool
            Start one optimization from the current hyperparameters.
        """
        self._check_fitted()
        bounds = self.bounds
        if len(bounds) == 0:
            return self
        if n_restarts < 0:
            raise ValueError(f"n_restarts must be >= 0; got {n_restarts}.")
        starts = [np.clip(self.theta, bounds[:, 0], bounds[:, 1])] if warm_start else []
        if n_restarts or not starts:
            if rng is None:
                raise ValueError("rng is required for random restarts (n_restarts > 0 or warm_start=False).")
            count = n_restarts if starts else max(n_restarts, 1)
            starts += list(rng.uniform(bounds[:, 0], bounds[:, 1], size=(count, len(bounds))))

        def negative(theta):
            value, gradient = self.log_marginal_likelihood(theta, eval_gradient=True)
            if not np.isfinite(value):
                return 1e25, np.zeros_like(theta)
            return -value, -gradient

        best_theta, best_value = None, np.inf
        for start in starts:
            result = minimize(negative, start, jac=True, method="L-BFGS-B", bounds=bounds,
                              options={"maxiter": maxiter})
            if result.fun < best_value:
                best_theta, best_value = result.x, result.fun
        self._set_theta(best_theta)
        self._factorize()
        return self
