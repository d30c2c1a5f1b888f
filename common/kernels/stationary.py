"""Stationary kernels k(x, x') = variance * g(r), r = ||(x - x') / lengthscale||.

One class covers the isotropic (a single lengthscale) and ARD (one lengthscale
per input dimension) forms. Subclasses give the profile g and its derivative,
and a sampler of the spectral density (Bochner's theorem,
g(r) = E_w[cos(w^T (x - x'))], used by random Fourier features).
"""
import numpy as np

from common.growing import GrowingArray
from common.kernels.base import Hyperparameter, Kernel, as_2d, check_bounds, check_positive

# Where a cheap expanded form (r^2 = |x|^2 + |y|^2 - 2 x.y here, E[y^2] - E[y]^2 in the GP's standardize)
# keeps fewer than about 7 significant digits (eps / ratio), the quantity is recomputed from differences;
# elsewhere it keeps its bits, and with them every cached run.
CANCELLATION_RATIO = 1e-8


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

    def with_theta(self, theta):
        """Copy with free hyperparameters exp(theta): the base class's result, without building
        the :class:`Hyperparameter` list (a likelihood fit calls this at every step)."""
        theta = np.asarray(theta, dtype=float)
        free_variance = self.variance_bounds != "fixed"
        free_lengthscale = self.lengthscale_bounds != "fixed"
        if theta.shape != (free_variance + free_lengthscale * self.lengthscale.size,):
            return super().with_theta(theta)  # which raises, naming the expected shape
        clone = type(self).__new__(type(self))
        clone.__dict__.update(self.__dict__)
        if free_variance:
            clone.variance = float(np.exp(theta[:1])[0])
        if free_lengthscale:
            clone.lengthscale = np.exp(theta[int(free_variance):])
        return clone

    # -- the profile g(r) and its derivative, defined by subclasses -----------------
    def profile(self, r2):
        """g as a function of the squared scaled distance r^2."""
        raise NotImplementedError

    def profile_log_derivative(self, r2):
        """h(r^2) = -2 dg/d(r^2), so that d g / d(log l_j) = h(r^2) Delta_j^2 / l_j^2."""
        raise NotImplementedError

    def profile_with_log_derivative(self, r2):
        """g(r^2) and h(r^2) together; subclasses share the work the two have in common."""
        return self.profile(r2), self.profile_log_derivative(r2)

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
        """Squared scaled distances r^2[i, j] = sum_k (X[i,k] - Y[j,k])^2 / l_k^2.

        By the expansion |x|^2 + |y|^2 - 2 x.y (one matrix product), whose
        rounding error is about eps (|x|^2 + |y|^2): negligible unless x and y
        are close compared with their norms. Entries below
        ``CANCELLATION_RATIO`` (|x|^2 + |y|^2) are recomputed from the
        differences, so close points far from the origin keep their distance.
        """
        X = as_2d("X", X)
        Y = as_2d("Y", Y, X.shape[1])
        self._check_dim(X)
        return self._squared_distances(X, Y)

    def _squared_distances(self, X, Y):
        Xs, Ys = X / self.lengthscale, Y / self.lengthscale
        return self._scaled_squared_distances(Xs, (Xs**2).sum(1), Ys, (Ys**2).sum(1))

    @staticmethod
    def _scaled_squared_distances(Xs, X_norms, Ys, Y_norms):
        """r^2 from scaled inputs and their squared norms |x / l|^2 (see :meth:`squared_distances`)."""
        norms = X_norms[:, None] + Y_norms[None, :]
        r2 = norms - 2.0 * Xs @ Ys.T
        rows, columns = np.nonzero(r2 < CANCELLATION_RATIO * norms)
        if rows.size:
            r2[rows, columns] = ((Xs[rows] - Ys[columns]) ** 2).sum(1)
        return np.maximum(r2, 0.0, out=r2)

    def __call__(self, X, Y=None, eval_gradient=False):
        X = as_2d("X", X)
        self._check_dim(X)
        if Y is None:
            r2 = self._squared_distances(X, X)
            np.fill_diagonal(r2, 0.0)
        elif eval_gradient:
            raise ValueError("eval_gradient=True is only supported when Y is None.")
        else:
            r2 = self._squared_distances(X, as_2d("Y", Y, X.shape[1]))
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

    def growing_inputs(self, X):
        """The scaled inputs X / l and their squared norms: the x-free part of r^2(X, x)."""
        X = as_2d("X", X)
        self._check_dim(X)
        scaled = X / self.lengthscale
        return GrowingArray(scaled), GrowingArray((scaled**2).sum(1))

    def column(self, inputs, x):
        scaled_rows, squared_norms = inputs
        scaled = np.asarray(x, dtype=float).reshape(1, -1) / self.lengthscale
        squared_norm = (scaled**2).sum(1)
        r2 = self._scaled_squared_distances(scaled_rows.filled, squared_norms.filled, scaled, squared_norm)
        scaled_rows.append(scaled[0])
        squared_norms.append(squared_norm[0])
        return self.variance * self.profile(r2)[:, 0]

    def pairwise(self, X):
        """Squared coordinate differences (X[i, k] - X[j, k])^2, shape (n, n, d), or their sum over k
        (n, n) for the isotropic kernel: differences, so that close points keep their precision."""
        X = as_2d("X", X)
        self._check_dim(X)
        differences2 = (X[:, None, :] - X[None, :, :]) ** 2
        return differences2 if self.ard else differences2.sum(axis=2)

    def gram(self, pairwise, with_gradient=False):
        """K(X, X) = variance g(r^2), with r^2 = sum_k Delta_k^2 / l_k^2 from :meth:`pairwise`.

        The contraction with dK/dtheta needs no (n, n, d) tensor beyond ``pairwise`` itself:

            sum_ij W_ij dK_ij / d(log variance) = variance sum_ij W_ij g_ij
            sum_ij W_ij dK_ij / d(log l_k)      = sum_ij W_ij h_ij Delta_ijk^2 / l_k^2   (h = variance h(r^2))
        """
        inverse_l2 = self.lengthscale**-2.0
        r2 = pairwise @ inverse_l2 if self.ard else pairwise * inverse_l2[0]
        if not with_gradient:
            return self.variance * self.profile(r2)
        g, h = self.profile_with_log_derivative(r2)

        def contract(W):
            traces = []
            if self.variance_bounds != "fixed":
                traces.append([self.variance * np.vdot(W, g)])
            if self.lengthscale_bounds != "fixed":
                WH = W * (self.variance * h)
                if self.ard:
                    traces.append((WH.reshape(-1) @ pairwise.reshape(WH.size, -1)) * inverse_l2)
                else:
                    traces.append([np.vdot(WH, r2)])
            return np.concatenate(traces) if traces else np.empty(0)

        return self.variance * g, contract

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
