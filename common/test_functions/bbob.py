"""The BBOB functions of mini_gp_opt (Rosenbrock f104, ellipsoid f116, Schaffer F7 f122, separable Rastrigin f3)
and BBOB's Gaussian noise model (:func:`bbob_gaussian_noise`)."""

import numpy as np
from scipy.stats import ortho_group

from common.test_functions.base import _cube, _check_int, _as_generator, TestFunction


def _oscillate(Z):
    """BBOB's T_osz: a smooth, coordinate-wise oscillation with T_osz(0) = 0."""
    nonzero = Z != 0
    log_abs = np.log(np.abs(Z), where=nonzero, out=np.zeros_like(Z))
    positive = Z > 0
    c1 = np.where(positive, 10.0, 5.5)
    c2 = np.where(positive, 7.9, 3.1)
    return np.sign(Z) * np.exp(log_abs + 0.049 * (np.sin(c1 * log_abs) + np.sin(c2 * log_abs)))


def _asymmetrize(Z, beta):
    """BBOB's T_asy^beta: z_i -> z_i^(1 + beta (i-1)/(d-1) sqrt(z_i)) for z_i > 0."""
    dim = Z.shape[1]
    positive_part = np.maximum(Z, 0.0)
    exponent = 1.0 + beta * np.arange(dim) / (dim - 1) * np.sqrt(positive_part)
    return np.where(Z > 0, positive_part**exponent, Z)


def _conditioning(dim, alpha):
    """Diagonal of BBOB's Lambda^alpha: alpha^((i-1) / (2 (d-1)))."""
    return alpha ** (np.arange(dim) / (2.0 * (dim - 1)))


class _BBOBFunction(TestFunction):
    """Shared set-up of the BBOB-style functions: domain, optimum, random instance.

    An instance draws, in this order, the optimum x_opt ~ U[-4, 4]^d (scaled by
    ``_optimum_scale``) and the Haar-random rotations R and Q that a subclass
    uses. BBOB's own instances come from its private random generator, so these
    functions have BBOB's definitions but not the numbers of BBOB instance 1.
    The values are f - f_opt (BBOB's additive f_opt only shifts the values), so
    the maximum of the negated function is 0 at x_opt. BBOB's boundary penalty
    f_pen is zero on [-5, 5]^d and omitted.

    Parameters
    ----------
    dim : int
        Input dimension d >= 2.
    rng : numpy.random.Generator or int
        Source of the instance (x_opt, then what the subclass uses of R and Q); an int is a seed.
    """

    _optimum_scale = 1.0

    def __init__(self, dim, rng):
        dim = _check_int(dim, "dim", minimum=2)
        super().__init__(dim, _cube(-5.0, 5.0, dim))
        rng = _as_generator(rng)
        self.x_opt = self._optimum_scale * rng.uniform(-4.0, 4.0, size=dim)
        self.rotation_R = ortho_group.rvs(dim, random_state=rng)
        self.rotation_Q = ortho_group.rvs(dim, random_state=rng)
        self._set_optimum(self.x_opt, 0.0)


class BBOBRosenbrock(_BBOBFunction):
    r"""BBOB Rosenbrock (base of f104), negated (maximum 0 at ``x_opt``).

    .. math::
        z = \max\big(1, \sqrt{d}/8\big) (x - x_{opt}) + 1, \qquad
        g(x) = \sum_{i=1}^{d-1} 100 (z_i^2 - z_{i+1})^2 + (z_i - 1)^2,
        \qquad f = -g.

    Domain [-5, 5]^d; maximum f(x_opt) = 0 with x_opt ~ U[-3, 3]^d (BBOB
    draws Rosenbrock's optimum in 0.75 times the usual range).

    Source: ``mini_gp_opt`` App. B.2 (f104 = this function with moderate
    Gaussian noise, d = 3, on the grid linspace(-5, 5, 22)^3); add the noise
    with :func:`bbob_gaussian_noise`. Definitions: Hansen et al. (2009),
    BBOB noisy functions.

    ``dim`` and ``rng`` (the instance: x_opt) as :class:`_BBOBFunction`.
    """

    name = "bbob_rosenbrock"
    _optimum_scale = 0.75

    def _evaluate(self, X):
        Z = max(1.0, np.sqrt(self.dim) / 8.0) * (X - self.x_opt) + 1.0
        return np.sum(
            100.0 * (Z[:, :-1] ** 2 - Z[:, 1:]) ** 2 + (Z[:, :-1] - 1.0) ** 2, axis=1
        )


class BBOBEllipsoid(_BBOBFunction):
    r"""BBOB rotated ellipsoid (base of f116), negated (maximum 0 at ``x_opt``).

    .. math::
        z = T_{osz}\big(R (x - x_{opt})\big), \qquad
        g(x) = \sum_{i=1}^{d} 10^{4 (i-1)/(d-1)} z_i^2, \qquad f = -g,

    with BBOB's oscillation T_osz and a random rotation R. The noisy suite
    uses condition number 1e4 (the noiseless f10 uses 1e6).

    Domain [-5, 5]^d; maximum f(x_opt) = 0 with x_opt ~ U[-4, 4]^d.

    Source: ``mini_gp_opt`` App. B.2 (f116 = this function with Gaussian noise,
    d = 3); add the noise with :func:`bbob_gaussian_noise`.

    ``dim`` and ``rng`` (the instance: x_opt, R) as :class:`_BBOBFunction`, and:

    Parameters
    ----------
    condition : float, default=1e4
        Condition number of the ellipsoid.
    """

    name = "bbob_ellipsoid"

    def __init__(self, dim, rng, condition=1e4):
        super().__init__(dim, rng)
        if not condition >= 1.0:
            raise ValueError(f"condition must be >= 1; got {condition!r}.")
        self.condition = float(condition)

    def _evaluate(self, X):
        Z = _oscillate((X - self.x_opt) @ self.rotation_R.T)
        axis_weights = self.condition ** (np.arange(self.dim) / (self.dim - 1))
        return Z**2 @ axis_weights


class BBOBSchafferF7(_BBOBFunction):
    r"""BBOB Schaffer F7 (base of f122), negated (maximum 0 at ``x_opt``).

    .. math::
        z = \Lambda^{10} Q\, T_{asy}^{0.5}\big(R (x - x_{opt})\big), \quad
        s_i = \sqrt{z_i^2 + z_{i+1}^2}, \quad
        g(x) = \Big(\frac{1}{d-1} \sum_{i=1}^{d-1}
               \sqrt{s_i} + \sqrt{s_i} \sin^2\big(50 s_i^{1/5}\big)\Big)^2,
        \qquad f = -g,

    with BBOB's asymmetry T_asy, conditioning Lambda and random rotations R, Q.

    Domain [-5, 5]^d; maximum f(x_opt) = 0 with x_opt ~ U[-4, 4]^d.

    Source: ``mini_gp_opt`` App. B.2 (f122 = this function with Gaussian noise,
    d = 3); add the noise with :func:`bbob_gaussian_noise`.

    ``dim`` and ``rng`` (the instance: x_opt, R, Q) as :class:`_BBOBFunction`.
    """

    name = "bbob_schaffer_f7"

    def _evaluate(self, X):
        Y = _asymmetrize((X - self.x_opt) @ self.rotation_R.T, 0.5)
        Z = _conditioning(self.dim, 10.0) * (Y @ self.rotation_Q.T)
        s = np.sqrt(Z[:, :-1] ** 2 + Z[:, 1:] ** 2)
        return np.mean(np.sqrt(s) * (1.0 + np.sin(50.0 * s**0.2) ** 2), axis=1) ** 2


class BBOBSeparableRastrigin(_BBOBFunction):
    r"""BBOB separable Rastrigin (f3), negated (maximum 0 at ``x_opt``).

    .. math::
        z = \Lambda^{10} T_{asy}^{0.2}\big(T_{osz}(x - x_{opt})\big), \qquad
        g(x) = 10 \Big(d - \sum_i \cos(2\pi z_i)\Big) + \lVert z \rVert^2,
        \qquad f = -g.

    Domain [-5, 5]^d; maximum f(x_opt) = 0 with x_opt ~ U[-4, 4]^d.

    Source: ``mini_gp_opt`` App. B.2 ("separable Rastrigin", d = 3; the paper
    does not state its noise).

    ``dim`` and ``rng`` (the instance: x_opt) as :class:`_BBOBFunction`.
    """

    name = "bbob_rastrigin_separable"

    def _evaluate(self, X):
        Z = _conditioning(self.dim, 10.0) * _asymmetrize(_oscillate(X - self.x_opt), 0.2)
        return 10.0 * (self.dim - np.sum(np.cos(2.0 * np.pi * Z), axis=1)) + np.sum(Z**2, axis=1)


# BBOB leaves values within this distance of the optimum noise-free.
_BBOB_NOISE_THRESHOLD = 1e-8


def bbob_gaussian_noise(values, beta, rng):
    r"""BBOB's multiplicative Gaussian noise, for values in the maximize convention.

    BBOB perturbs the distance to the optimum of its minimization problem,
    :math:`f \ge 0`, as

    .. math::
        f_{GN}(f, \beta) = f \exp(\beta\, \mathcal{N}(0, 1)) + 1.01 \cdot 10^{-8}
        \quad \text{if } f \ge 10^{-8}, \text{ else } f.

    Here f = -values (the values of a negated BBOB function, <= 0), and the
    result is returned in the same maximize convention. BBOB uses beta = 0.01
    for "moderate" noise (f104) and beta = 1 for "severe" noise (f116, f122).

    Source: ``mini_gp_opt`` App. B.2 and spec ``mini_gp_opt`` §4.2.

    Parameters
    ----------
    values : array-like of shape (n,)
        Noise-free values of a negated BBOB function.
    beta : float
        Noise level, >= 0.
    rng : numpy.random.Generator
        Source of the noise.

    Returns
    -------
    noisy_values : ndarray of shape (n,)
    """
    if not beta >= 0:
        raise ValueError(f"beta must be >= 0; got {beta!r}.")
    distance = -np.asarray(values, dtype=float)
    perturbed = distance * np.exp(beta * rng.standard_normal(distance.shape)) + 1.01e-8
    return -np.where(distance >= _BBOB_NOISE_THRESHOLD, perturbed, distance)


def bbob_gaussian_noise_std(values, beta):
    r"""Standard deviation of :func:`bbob_gaussian_noise` at every value.

    .. math::
        \operatorname{std} = |f| \sqrt{e^{\beta^2} (e^{\beta^2} - 1)}

    (the std of a log-normal factor), and 0 where BBOB adds no noise; ``values``
    and ``beta`` as :func:`bbob_gaussian_noise`.

    Returns
    -------
    std : ndarray of shape (n,)
    """
    distance = -np.asarray(values, dtype=float)
    factor_std = np.sqrt(np.exp(beta**2) * np.expm1(beta**2))
    return np.where(distance >= _BBOB_NOISE_THRESHOLD, np.abs(distance) * factor_std, 0.0)
