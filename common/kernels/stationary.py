"""Stationary kernels k(x, x') = variance * g(r), r = ||(x - x') / lengthscale||.

One class covers the isotropic (a single lengthscale) and ARD (one lengthscale
per input dimension) forms. Subclasses give the profile g and its derivative,
and a sampler of the spectral density (Bochner's theorem,
g(r) = E_w[cos(w^T (x - x'))], used by random Fourier features).
"""
import numpy as np

from common.kernels.base import Hyperparameter, Kernel, as_2d, check_bounds, check_positive


class StationaryKernel(Kernel):
    """Base of the squared-exponential and Matérn kernels.

    Parameters
    ----------
    lengthscale : float or array of shape (d,)
        A scalar gives the isotropic kernel; an array gives ARD.
    variance : float
        Signal variance sigma_f^2 = k(x, x).
    lengthscale_bounds, variance_bounds : (low, high) or "fixed"
        Box for maximum-likelihood fitting, in natural units.
    """

    def __init__(self, lengthscale=1.0, variance=1.0, lengthscale_bounds=(1e-3, 1e3),
                 variance_bounds=(1e-3, 1e3)):
        self.lengthscale = check_positive("lengthscale", lengthscale)
        self.variance = float(check_positive("variance", variance, size=1)[0])
        self.lengthscale_bounds = check_bounds("lengthscale", lengthscale_bounds)
        self.variance_bounds = check_bounds("variance", variance_bounds)

    @property
    def ard(self):
        """True when every input dimension has its own lengthscale."""
        return self.lengthscale.size > 1

    def hyperparameters(self):
        return [
            Hyperparameter("variance", np.array([self.variance]), self.variance_bounds),
            Hyperparameter("lengthscale", self.lengthscale, self.lengthscale_bounds),
        ]

    def _with_values(self, values):
        clone = type(self).__new__(type(self))
        clone.__dict__.update(self.__dict__)
        if "variance" in values:
            clone.variance = float(values["variance"][0])
        if "lengthscale" in values:
            clone.lengthscale = np.asarray(values["lengthscale"], dtype=float)
        return clone

    # -- the profile g(r) and its derivative, defined by subclasses -----------------
    def profile(self, r2):
        """g as a function of the squared scaled distance r^2."""
        raise NotImplementedError

    def profile_log_derivative(self, r2):
        """h(r^2) = -2 dg/d(r^2), so that d g / d(log l_j) = h(r^2) Delta_j^2 / l_j^2."""
        raise NotImplementedError

    def sample_spectral(self, n_samples, dim, rng):
        """Draw ``n_samples`` frequencies w ~ p(w) with g(r) = E[cos(w^T (x - x'))].

        Returns an array of shape (n_samples, dim) in the units of x (already
        divided by the lengthscales).
        """
        raise NotImplementedError

    # -----------------------------------------------------------------------------
    def _scaled_differences(self, X, Y):
        self._check_dim(X)
        return (X[:, None, :] - Y[None, :, :]) / self.lengthscale

    def _check_dim(self, X):
        if self.ard and X.shape[1] != self.lengthscale.size:
            raise ValueError(
                f"this ARD kernel has {self.lengthscale.size} lengthscales but X has "
                f"{X.shape[1]} columns; pass one lengthscale per input dimension."
            )

    def squared_distances(self, X, Y):
        """Squared scaled distances r^2[i, j] = sum_k (X[i,k] - Y[j,k])^2 / l_k^2."""
        X = as_2d("X", X)
        Y = as_2d("Y", Y, X.shape[1])
        self._check_dim(X)
        Xs, Ys = X / self.lengthscale, Y / self.lengthscale
        r2 = (Xs**2).sum(1)[:, None] + (Ys**2).sum(1)[None, :] - 2.0 * Xs @ Ys.T
        return np.maximum(r2, 0.0)

    def __call__(self, X, Y=None, eval_gradient=False):
        X = as_2d("X", X)
        if Y is None:
            r2 = self.squared_distances(X, X)
            np.fill_diagonal(r2, 0.0)
        elif eval_gradient:
            raise ValueError("eval_gradient=True is only supported when Y is None.")
        else:
            r2 = self.squared_distances(X, Y)
        K = self.variance * self.profile(r2)
        if not eval_gradient:
            return K
        gradients = []
        if self.variance_bounds != "fixed":
            gradients.append(K[:, :, None])  # dK/dlog(variance) = K
        if self.lengthscale_bounds != "fixed":
            h = self.variance * self.profile_log_derivative(r2)
            if self.ard:
                delta2 = self._scaled_differences(X, X) ** 2
                gradients.append(h[:, :, None] * delta2)
            else:
                gradients.append((h * r2)[:, :, None])
        if not gradients:
            return K, np.empty(K.shape + (0,))
        return K, np.concatenate(gradients, axis=2)

    def diag(self, X):
        return np.full(as_2d("X", X).shape[0], self.variance)

    def gradient_x(self, x, Y):
        """Gradient of k(x, Y[j]) with respect to the point x.

        Parameters
        ----------
        x : array of shape (d,)
        Y : array of shape (n, d)

        Returns
        -------
        ndarray of shape (n, d)
            Row j is d k(x, Y[j]) / dx = 2 variance g'(r^2) (x - Y[j]) / l^2
            = -variance h(r^2) (x - Y[j]) / l^2, with h = -2 g' from
            :meth:`profile_log_derivative`.
        """
        x = np.asarray(x, dtype=float).reshape(1, -1)
        r2 = self.squared_distances(x, Y)[0]
        h = self.profile_log_derivative(r2)
        return -self.variance * h[:, None] * (x - Y) / self.lengthscale**2
