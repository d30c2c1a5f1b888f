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
* cheap growth: adding one observation borders L in O(n^2) (no refit), in
  packed storage so that nothing of size n^2 is copied (:class:`GrowingCholesky`).

Maximum likelihood evaluates log p(y) and its gradient (RW 5.9) at many
hyperparameters for one X: the theta-free part of K (for stationary kernels,
the squared coordinate differences) is computed once per data set, the
gradient is contracted with (alpha alpha^T - K^{-1}) without forming the
(n, n, n_theta) tensor dK/dtheta, and K^{-1} comes from the factor by LAPACK's
dpotri. The solves call LAPACK directly: the numbers of scipy.linalg's
wrappers, without their input checks, which cost more than a solve at BO sizes.
"""
import warnings

import numpy as np
from scipy.linalg import LinAlgError
from scipy.linalg.blas import dtpsv
from scipy.linalg.lapack import dpotrf, dpotri, dpotrs, dpptrs, dtrtrs
from scipy.optimize import minimize

from common.growing import GrowingArray
from common.kernels.base import as_2d
from common.kernels.stationary import CANCELLATION_RATIO

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
    factor, info = dpotrf(A, lower=1, clean=1)
    if info == 0:
        return factor, 0.0
    scale = max(float(np.mean(np.diag(A))), np.finfo(float).tiny)
    for k in range(max_tries):
        jitter = scale * 10.0 ** (k - 10)
        factor, info = dpotrf(A + jitter * np.eye(len(A)), lower=1, clean=1)
        if info == 0:
            return factor, jitter
    raise LinAlgError(
        f"K + noise is not positive definite even with jitter {jitter:.1e}; "
        "check the inputs for NaNs or increase noise_variance."
    )


# The LAPACK routines behind scipy.linalg's cholesky, solve_triangular and cho_solve, called directly: the same
# numbers, without the input validation that costs more than the solve itself at BO sizes.
def solve_lower(L, B):
    """L^{-1} B for a lower-triangular L (what ``solve_triangular(L, B, lower=True)`` returns)."""
    if L.flags.f_contiguous:
        x, info = dtrtrs(L, B, lower=1)
    else:  # LAPACK reads Fortran order: L as stored in C order is L^T, upper triangular
        x, info = dtrtrs(L.T, B, lower=0, trans=1)
    if info != 0:
        raise LinAlgError(f"dtrtrs failed with info={info}: the factor is singular.")
    return x


def cholesky_solve(L, B):
    """(L L^T)^{-1} B from the lower Cholesky factor L (what ``cho_solve((L, True), B)`` returns)."""
    x, info = dpotrs(L, B, lower=1)
    if info != 0:
        raise LinAlgError(f"dpotrs failed with info={info}.")
    return x


def cholesky_inverse(L):
    """(L L^T)^{-1} from a lower Cholesky factor L with zeros above its diagonal (as
    :func:`jittered_cholesky` returns it), by LAPACK's dpotri: a third of the flops of
    solving against the identity."""
    inverse, info = dpotri(L, lower=1)
    if info != 0:
        raise LinAlgError(f"dpotri failed with info={info}: the factor is singular.")
    # dpotri fills the lower triangle and leaves L's zeros above it.
    symmetric = inverse + inverse.T
    symmetric.flat[:: len(L) + 1] = inverse.diagonal()
    return symmetric


class GrowingCholesky:
    """A lower Cholesky factor L that grows by one row per observation in O(n^2), without copying.

    The rows of L are stored one after another in a flat buffer with spare
    capacity: that is LAPACK's packed storage of U = L^T ("upper packed", column
    j of U is row j of L), so bordering L appends n + 1 numbers, and the packed
    triangular solves (BLAS dtpsv, LAPACK dpptrs) read the buffer in place. A
    full factor costs an O(n^2) copy, which a contiguous (n + 1) x (n + 1) array
    would pay at every observation.
    """

    def __init__(self, L):
        n = len(L)
        self.n = n
        self.packed = np.empty(_packed_size(2 * n + 2))  # room to double before the first reallocation
        self.packed[:_packed_size(n)] = L[np.tri(n, dtype=bool)]  # the rows of the lower triangle

    def solve_lower(self, b):
        """L^{-1} b, shape (n,)."""
        return dtpsv(self.n, self.packed, np.asarray(b, dtype=float), lower=0, trans=1)

    def solve(self, b):
        """(L L^T)^{-1} b, shape (n,)."""
        x, info = dpptrs(self.n, self.packed[:_packed_size(self.n)], np.asarray(b, dtype=float)[:, None], lower=0)
        if info != 0:
            raise LinAlgError(f"dpptrs failed with info={info}.")
        return x[:, 0]

    def append_row(self, row, diagonal):
        """Border L with the row [row, diagonal]."""
        start, end = _packed_size(self.n), _packed_size(self.n + 1)
        if end > self.packed.size:
            grown = np.empty(_packed_size(2 * self.n + 2))
            grown[:start] = self.packed[:start]
            self.packed = grown
        self.packed[start:end - 1] = row
        self.packed[end - 1] = diagonal
        self.n += 1

    def full(self):
        """L as a lower-triangular (n, n) array."""
        L = np.zeros((self.n, self.n))
        L[np.tril_indices(self.n)] = self.packed[:_packed_size(self.n)]
        return L


def _packed_size(n):
    return n * (n + 1) // 2


class LikelihoodFailureWarning(RuntimeWarning):
    """K + noise could not be factorized at some hyperparameters tried by the fit."""


def unique_rows(X, y, return_inverse=False):
    """Group repeated inputs: unique rows, the mean of their y, and their counts.

    Returns
    -------
    X_unique : (q, d), y_mean : (q,), counts : (q,) int
        In the order of first appearance.
    inverse : (n,) int, only with ``return_inverse``
        The row of ``X_unique`` of each input row.
    """
    X = as_2d("X", X)
    y = np.asarray(y, dtype=float)
    _, first, inverse, counts = np.unique(X, axis=0, return_index=True, return_inverse=True,
                                          return_counts=True)
    inverse = inverse.reshape(-1)
    sums = np.bincount(inverse, weights=y, minlength=len(counts))
    order = np.argsort(first)
    grouped = X[first[order]], (sums / counts)[order], counts[order]
    if not return_inverse:
        return grouped
    rank = np.empty_like(order)
    rank[order] = np.arange(len(order))
    return (*grouped, rank[inverse])


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
        self._L = self._growing = None
        self.likelihood_failures = 0

    # ------------------------------------------------------------------ data and fit
    def fit(self, X, y, counts=None, scatter=None):
        """Condition on data (hyperparameters unchanged).

        Parameters
        ----------
        X : (n, d) inputs.
        y : (n,) observations, or per-unique-input means when ``counts`` is given.
        counts : (n,) positive ints, optional
            Number of repetitions behind each row: row i then has noise
            noise_variance / counts[i], which gives exactly the posterior of the
            expanded data set with counts[i] copies of X[i].
        scatter : (n,), optional
            S_i = sum_j (y_ij - y_i)^2 over the repetitions behind each row, in
            the units of y: the spread within groups, which the "standardize"
            transform and a fitted noise variance use (as on the expanded
            data); see :meth:`fit_repeated`. Zero by default.
        """
        X = as_2d("X", X)
        y = np.asarray(y, dtype=float).reshape(-1)
        if len(y) != len(X):
            raise ValueError(f"X and y must have the same number of rows; got {len(X)} and {len(y)}.")
        if not np.all(np.isfinite(y)):
            raise ValueError("y contains NaN or inf; drop or impute those observations first.")
        self.X, self._y_raw = X, y
        self._pairwise = None
        self.counts = np.ones(len(y)) if counts is None else np.asarray(counts, dtype=float)
        if self.counts.shape != y.shape or np.any(self.counts <= 0):
            raise ValueError("counts must be positive with one entry per row of X.")
        self._scatter = np.zeros(len(y)) if scatter is None else np.asarray(scatter, dtype=float)
        if self._scatter.shape != y.shape or np.any(self._scatter < 0):
            raise ValueError("scatter must be non-negative with one entry per row of X.")
        self._moments = np.array([self.counts.sum(), self.counts @ y, self.counts @ y**2 + self._scatter.sum()])
        self._update_transform()
        self._factorize()
        return self

    def fit_repeated(self, X, y):
        """Condition on rows with repeated inputs through their unique inputs.

        Groups the rows by input (:func:`unique_rows`) and fits on the q unique
        points with their counts and mean values: O(q^3) instead of O(n^3), and
        the same posterior as :meth:`fit` on the rows.
        """
        y = np.asarray(y, dtype=float).reshape(-1)
        X_unique, y_mean, counts, group = unique_rows(X, y, return_inverse=True)
        # Deviations from the group means, so that the scatter keeps its digits however large the mean is.
        scatter = np.bincount(group, weights=(y - y_mean[group]) ** 2, minlength=len(counts))
        return self.fit(X_unique, y_mean, counts=counts, scatter=scatter)

    def _update_transform(self):
        """Transform of y from the moments of all individual observations."""
        total, first, second = self._moments
        mean = first / total if self.y_transform != "none" else 0.0
        scale = 1.0
        if self.y_transform == "standardize" and total > 1:
            variance = second / total - mean**2
            if variance < CANCELLATION_RATIO * mean**2:
                # The raw moments cancel (|mean| >> std, the same threshold as for squared distances):
                # recompute about the mean, O(n); the cheap form keeps every cached bit elsewhere.
                variance = (self.counts @ (self._y_raw - mean) ** 2 + self._scatter.sum()) / total
            variance = max(variance, 0.0)
            scale = np.sqrt(variance) if variance > 1e-300 else 1.0
        self.y_mean, self.y_scale = mean, scale
        # Subtracting 0 and dividing by 1 return y exactly: skipped, they are two passes over y per update.
        centred = self._y_raw - mean if mean != 0.0 else self._y_raw
        self._y = centred / scale if scale != 1.0 else centred

    def _noise_diagonal(self):
        return self.noise_variance / self.counts

    def _factorize(self):
        K = self.kernel(self.X)
        K[np.diag_indices_from(K)] += self._noise_diagonal()
        self.L, self.jitter = jittered_cholesky(K)
        # Packed now (O(n^2), a fraction of the O(n^3) factorization) so that add_observation copies nothing.
        self._growing = GrowingCholesky(self._L)
        self._rows = {"X": GrowingArray(self.X), "y": GrowingArray(self._y_raw),
                      "counts": GrowingArray(self.counts), "scatter": GrowingArray(self._scatter)}
        self._kernel_inputs, self._kernel_of_inputs = self.kernel.growing_inputs(self.X), self.kernel
        self.alpha = cholesky_solve(self.L, self._y)

    @property
    def L(self):
        """Lower Cholesky factor of K + Sigma (+ jitter I); unpacked on first use after :meth:`add_observation`."""
        if self._L is None:
            self._L = self._growing.full()
        return self._L

    @L.setter
    def L(self, value):
        self._L, self._growing = value, None

    def add_observation(self, x, y):
        """Add one observation in O(n^2) by bordering the Cholesky factor.

        With L L^T = K + Sigma, the new factor is [[L, 0], [l^T, delta]] with
        l = L^{-1} k(X, x) and delta^2 = k(x, x) + sigma_n^2 - l^T l. The result
        equals :meth:`fit` on the enlarged data (tested), without refitting the
        hyperparameters. The factor grows in packed storage (:class:`GrowingCholesky`),
        so an update copies nothing of size n^2, and the data and what the kernel
        reuses of X (:meth:`Kernel.growing_inputs`) grow in place too.
        """
        if self.X is None:
            raise RuntimeError("call fit before add_observation.")
        if self._kernel_of_inputs is not self.kernel:
            raise RuntimeError("the kernel was replaced after the last fit; call fit(X, y) to refactorize first.")
        x = np.asarray(x, dtype=float).reshape(1, -1)
        y = float(y)
        k_new = self.kernel.column(self._kernel_inputs, x[0])  # k(X, x); X in the kernel's inputs now ends with x
        row = self._growing.solve_lower(k_new)  # l = L^{-1} k(X, x)
        delta2 = self.kernel.diag(x)[0] + self.noise_variance + self.jitter - row @ row
        self.X = self._rows["X"].append(x[0])
        self._y_raw = self._rows["y"].append(y)
        self.counts = self._rows["counts"].append(1.0)
        self._scatter = self._rows["scatter"].append(0.0)
        self._pairwise = None
        self._moments += [1.0, y, y**2]
        self._update_transform()
        if delta2 <= 0:  # x duplicates an input and there is no noise: refactorize with jitter
            self._factorize()
            return self
        self._growing.append_row(row, np.sqrt(delta2))
        self._L = None
        self.alpha = self._growing.solve(self._y)
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
        V = solve_lower(self.L, Ks.T)
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
        v = cholesky_solve(self.L, k)
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
        n_kernel = len(theta) if self.noise_bounds == "fixed" else len(theta) - 1
        kernel = self.kernel.with_theta(theta[:n_kernel])
        noise = self.noise_variance if self.noise_bounds == "fixed" else float(np.exp(theta[n_kernel]))
        noise_diagonal = noise / self.counts
        if self._pairwise is None:  # theta-free, so computed once for all the likelihoods of a fit
            self._pairwise = self.kernel.pairwise(self.X)
        if eval_gradient:
            K, contract = kernel.gram(self._pairwise, with_gradient=True)
        else:
            K = kernel.gram(self._pairwise)
        K.flat[:: len(K) + 1] += noise_diagonal
        try:
            L, jitter = jittered_cholesky(K, max_tries=4)
        except LinAlgError:
            self.likelihood_failures += 1
            return (-np.inf, np.zeros_like(theta)) if eval_gradient else -np.inf
        alpha = cholesky_solve(L, self._y)
        n = len(self._y)
        value = -0.5 * self._y @ alpha - np.log(L.diagonal()).sum() - 0.5 * n * np.log(2 * np.pi)
        scatter = self._scatter.sum() / self.y_scale**2
        # Skipped when every row is a single observation (that value stays bit for bit what it was) and for
        # noise-free repetitions, whose expanded data set has no density.
        repeats = (self.counts - 1.0).sum() if noise > 0 else 0.0
        if repeats:
            value += (-0.5 * scatter / noise - 0.5 * repeats * np.log(2 * np.pi * noise)
                      - 0.5 * np.log(self.counts).sum())
        if not eval_gradient:
            return value
        W = np.outer(alpha, alpha) - cholesky_inverse(L)
        gradient = contract(W)
        if self.noise_bounds != "fixed":
            gradient = np.append(gradient, np.diag(W) @ noise_diagonal)  # dK/d(log sigma_n^2) = diag(noise_i)
        if jitter:
            # The jitter is a fixed multiple of mean(diag(K + Sigma)), so it moves with the hyperparameters:
            # d jitter / d theta_k = jitter / mean(diag) * mean(diag(dK / d theta_k)).
            diagonal_gradient = contract(np.eye(n))
            if self.noise_bounds != "fixed":
                diagonal_gradient = np.append(diagonal_gradient, noise_diagonal.sum())
            gradient = gradient + np.trace(W) * jitter / np.trace(K) * diagonal_gradient
        gradient = 0.5 * gradient
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

        failures_before = self.likelihood_failures
        best_theta, best_value = None, np.inf
        for start in starts:
            result = minimize(negative, start, jac=True, method="L-BFGS-B", bounds=bounds,
                              options={"maxiter": maxiter})
            if result.fun < best_value:
                best_theta, best_value = result.x, result.fun
        failures = self.likelihood_failures - failures_before
        if failures:
            warnings.warn(f"K + noise could not be factorized at {failures} of the hyperparameters tried by the "
                          f"fit (counted in likelihood_failures); the fit avoided them. If it ended at its start, "
                          f"raise noise_variance or tighten the kernel's bounds.", LikelihoodFailureWarning,
                          stacklevel=2)
        self._set_theta(best_theta)
        self._factorize()
        return self
