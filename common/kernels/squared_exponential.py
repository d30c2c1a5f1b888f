"""Squared-exponential (RBF, Gaussian) kernel."""
import numpy as np

from common.kernels.stationary import StationaryKernel


class SquaredExponential(StationaryKernel):
    r"""Squared-exponential kernel, isotropic or ARD.

    .. math::
        k(x, x') = \sigma_f^2 \exp\left(-\tfrac12 \sum_j (x_j - x'_j)^2 / \ell_j^2\right)

    This is scikit-learn's ``ConstantKernel(variance) * RBF(lengthscale)``. Its
    spectral density is Gaussian: w ~ N(0, diag(1 / l^2)).

    Parameters
    ----------
    lengthscale : float or array of shape (d,)
        Scalar for the isotropic kernel, one per dimension for ARD.
    variance : float
        sigma_f^2.
    lengthscale_bounds, variance_bounds : (low, high) or "fixed"
    """

    def profile(self, r2):
        return np.exp(-0.5 * r2)

    def profile_log_derivative(self, r2):
        return np.exp(-0.5 * r2)

    def profile_with_log_derivative(self, r2):
        g = np.exp(-0.5 * r2)
        return g, g

    def sample_spectral(self, n_samples, dim, rng):
        return rng.standard_normal((n_samples, dim)) / self.lengthscale
