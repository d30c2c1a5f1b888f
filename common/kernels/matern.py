"""Matérn kernels with nu = 1/2, 3/2, 5/2."""
import numpy as np

from common.kernels.stationary import StationaryKernel

ALLOWED_NU = (0.5, 1.5, 2.5)


class Matern(StationaryKernel):
    r"""Matérn kernel for half-integer smoothness, isotropic or ARD.

    With r = ||(x - x') / l||:

    .. math::
        \nu = 1/2:\; k = \sigma_f^2 e^{-r}, \qquad
        \nu = 3/2:\; k = \sigma_f^2 (1 + \sqrt3 r) e^{-\sqrt3 r}, \qquad
        \nu = 5/2:\; k = \sigma_f^2 (1 + \sqrt5 r + \tfrac53 r^2) e^{-\sqrt5 r}

    (scikit-learn's ``Matern(length_scale, nu)`` times ``ConstantKernel``). The
    spectral density is a multivariate Student-t with 2 nu degrees of freedom:
    w = z / l * sqrt(2 nu / u), z ~ N(0, I), u ~ chi^2(2 nu).

    Parameters
    ----------
    nu : {0.5, 1.5, 2.5}
    lengthscale, variance, lengthscale_bounds, variance_bounds
        As in :class:`~common.kernels.SquaredExponential`.
    """

    def __init__(self, nu=2.5, lengthscale=1.0, variance=1.0, lengthscale_bounds=(1e-3, 1e3),
                 variance_bounds=(1e-3, 1e3)):
        if nu not in ALLOWED_NU:
            raise ValueError(f"nu must be one of {ALLOWED_NU}; got {nu!r}.")
        self.nu = float(nu)
        super().__init__(lengthscale, variance, lengthscale_bounds, variance_bounds)

    def profile(self, r2):
        r = np.sqrt(r2)
        if self.nu == 0.5:
            return np.exp(-r)
        if self.nu == 1.5:
            s = np.sqrt(3.0) * r
            return (1.0 + s) * np.exp(-s)
        s = np.sqrt(5.0) * r
        return (1.0 + s + s**2 / 3.0) * np.exp(-s)

    def profile_log_derivative(self, r2):
        r = np.sqrt(r2)
        if self.nu == 0.5:
            # e^{-r} / r is the one-sided derivative; at r = 0 every Delta_j is 0 too.
            with np.errstate(divide="ignore", invalid="ignore"):
                return np.where(r > 0, np.exp(-r) / np.where(r > 0, r, 1.0), 0.0)
        if self.nu == 1.5:
            return 3.0 * np.exp(-np.sqrt(3.0) * r)
        s = np.sqrt(5.0) * r
        return (5.0 / 3.0) * (1.0 + s) * np.exp(-s)

    def profile_with_log_derivative(self, r2):
        if self.nu == 0.5:
            return super().profile_with_log_derivative(r2)
        root = np.sqrt(3.0 if self.nu == 1.5 else 5.0)
        s = root * np.sqrt(r2)
        decay = np.exp(-s)
        if self.nu == 1.5:
            return (1.0 + s) * decay, 3.0 * decay
        return (1.0 + s + s**2 / 3.0) * decay, (5.0 / 3.0) * (1.0 + s) * decay

    def sample_spectral(self, n_samples, dim, rng):
        z = rng.standard_normal((n_samples, dim))
        u = rng.chisquare(2.0 * self.nu, size=(n_samples, 1))
        return z / self.lengthscale * np.sqrt(2.0 * self.nu / u)

    def __repr__(self):
        return super().__repr__().replace("Matern(", f"Matern(nu={self.nu}, ")
