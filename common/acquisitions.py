"""Acquisition functions (maximize convention) and beta_t schedules for UCB.

Each acquisition maps the posterior mean mu(x) and standard deviation sigma(x)
to a score; ``value_and_gradient`` adds d/dx through the chain rule for
gradient-based maximization. With Phi and phi the standard normal cdf and pdf:

    UCB(x) = mu(x) + sqrt(beta_t) sigma(x)                    (Srinivas et al. 2010)
    PI(x)  = Phi(z),  z = (mu(x) - y_best - xi) / sigma(x)    (Kushner 1964)
    EI(x)  = (mu(x) - y_best - xi) Phi(z) + sigma(x) phi(z)   (Jones et al. 1998)
    mean   = mu(x)           (pure exploitation)
    variance = sigma(x)^2    (pure exploration)

Thompson sampling draws a whole function from the posterior instead; see
:func:`thompson_sample`.
"""
import numpy as np
from scipy.special import ndtr

from common.gp import GaussianProcess
from common.random_features import BayesianLinearRegression, RandomFourierFeatures

_INV_SQRT_2PI = 1.0 / np.sqrt(2.0 * np.pi)


def _normal_pdf(z):
    return _INV_SQRT_2PI * np.exp(-0.5 * z * z)


class Acquisition:
    """Base class: a score of the posterior moments."""

    name = "acquisition"

    def from_moments(self, mean, std):
        """Scores from arrays of posterior means and standard deviations."""
        return self.with_partials(np.asarray(mean, float), np.asarray(std, float))[0]

    def with_partials(self, mean, std):
        """(score, d score / d mean, d score / d std), elementwise."""
        raise NotImplementedError

    def __call__(self, gp, X):
        """Scores at the rows of X under the posterior ``gp``."""
        mean, std = gp.predict(X, return_std=True)
        return self.from_moments(mean, std)

    def value_and_gradient(self, gp, x):
        """Score and its gradient at one point x of shape (d,)."""
        mean, std, d_mean, d_std = gp.predict_with_gradient(x)
        value, by_mean, by_std = self.with_partials(np.array(mean), np.array(std))
        return float(value), float(by_mean) * d_mean + float(by_std) * d_std

    def __repr__(self):
        fields = ", ".join(f"{k}={v:.4g}" for k, v in vars(self).items())
        return f"{type(self).__name__}({fields})"


class UpperConfidenceBound(Acquisition):
    """UCB(x) = mu(x) + sqrt(beta) sigma(x), with beta = beta_t of the current step."""

    name = "UCB"

    def __init__(self, beta):
        if not beta >= 0:
            raise ValueError(f"beta must be >= 0; got {beta!r}.")
        self.beta = float(beta)

    def with_partials(self, mean, std):
        root = np.sqrt(self.beta)
        return mean + root * std, np.ones_like(mean), np.full_like(std, root)


class ExpectedImprovement(Acquisition):
    """EI(x) = (mu - y_best - xi) Phi(z) + sigma phi(z).

    Where sigma = 0 this is the limit max(mu - y_best - xi, 0). The bo_pp paper
    (eq. 5) writes 0 there; the two agree at observed points, the only places
    where a noise-free posterior has sigma = 0, because there mu <= y_best.
    """

    name = "EI"

    def __init__(self, best, xi=0.0):
        self.best = float(best)
        self.xi = float(xi)

    def with_partials(self, mean, std):
        improvement = mean - self.best - self.xi
        positive = std > 0
        safe_std = np.where(positive, std, 1.0)
        z = improvement / safe_std
        cdf, pdf = ndtr(z), _normal_pdf(z)
        value = np.where(positive, improvement * cdf + std * pdf, np.maximum(improvement, 0.0))
        # dEI/dmu = Phi(z), dEI/dsigma = phi(z)
        by_mean = np.where(positive, cdf, (improvement > 0).astype(float))
        return value, by_mean, np.where(positive, pdf, 0.0)


class ProbabilityOfImprovement(Acquisition):
    """PI(x) = Phi((mu - y_best - xi) / sigma) (bo_pp eq. 4); where sigma = 0 it is 1 if mu > y_best + xi else 0."""

    name = "PI"

    def __init__(self, best, xi=0.0):
        self.best = float(best)
        self.xi = float(xi)

    def with_partials(self, mean, std):
        improvement = mean - self.best - self.xi
        positive = std > 0
        safe_std = np.where(positive, std, 1.0)
        z = improvement / safe_std
        pdf = _normal_pdf(z)
        value = np.where(positive, ndtr(z), (improvement > 0).astype(float))
        by_mean = np.where(positive, pdf / safe_std, 0.0)
        by_std = np.where(positive, -pdf * z / safe_std, 0.0)
        return value, by_mean, by_std


class PosteriorMean(Acquisition):
    """Pure exploitation: mu(x) (UCB with beta = 0)."""

    name = "mean"

    def with_partials(self, mean, std):
        return mean, np.ones_like(mean), np.zeros_like(std)


class PosteriorVariance(Acquisition):
    """Pure exploration: sigma(x)^2."""

    name = "variance"

    def with_partials(self, mean, std):
        return std**2, np.zeros_like(mean), 2.0 * std


# --------------------------------------------------------------------------- beta_t schedules
def beta_srinivas(t, dim, delta=0.1):
    """beta_t = 2 log(t^{d/2 + 2} pi^2 / (3 delta)) (Brochu et al. 2010; the bo_pp paper, §5).

    E.g. d = 2, t = 100, delta = 0.1 gives 34.6179.
    """
    _check_step(t)
    return 2.0 * ((dim / 2.0 + 2.0) * np.log(t) + np.log(np.pi**2 / (3.0 * delta)))


def beta_kandasamy(t, dim):
    """beta_t = 0.2 d log(2 t), the practical choice of Add-GP-UCB (Kandasamy et al. 2015, §4.4)."""
    _check_step(t)
    return 0.2 * dim * np.log(2.0 * t)


def beta_finite(t, n_arms, delta=0.5):
    """beta_t = 2 log(|A| t^2 pi^2 / (6 delta)) for a finite decision set (Srinivas et al. 2010, Thm 1)."""
    _check_step(t)
    return 2.0 * np.log(n_arms * t**2 * np.pi**2 / (6.0 * delta))


def beta_constant(t, dim, value):
    """A constant beta_t = value (e.g. sqrt(beta) = 2 gives value = 4), whatever t and d."""
    _check_step(t)
    return float(value)


BETA_SCHEDULES = {
    "srinivas": beta_srinivas,
    "kandasamy": beta_kandasamy,
    "finite": beta_finite,
    "constant": beta_constant,
}


def _check_step(t):
    if not t >= 1:
        raise ValueError(f"the step t of a beta_t schedule must be >= 1; got {t!r}.")


def beta_schedule(name):
    """Look up a beta_t schedule by name; see ``BETA_SCHEDULES``."""
    if name not in BETA_SCHEDULES:
        raise ValueError(f"unknown beta schedule {name!r}; allowed: {sorted(BETA_SCHEDULES)}.")
    return BETA_SCHEDULES[name]


# --------------------------------------------------------------------------- Thompson sampling
def thompson_sample(gp: GaussianProcess, rng, n_features=500):
    """A function drawn from the random-feature approximation of ``gp``'s posterior.

    Fits Bayesian linear regression on random Fourier features of the GP's
    (stationary) kernel to the GP's data, in the GP's transformed y units, and
    returns a callable f~(X) in the units of y with ``value_and_gradient``.
    """
    if gp.X is None:
        raise RuntimeError("the GP has no data; call fit before thompson_sample.")
    features = RandomFourierFeatures(gp.kernel, n_features, gp.X.shape[1], rng)
    model = BayesianLinearRegression(features, noise_variance=max(gp.noise_variance, 1e-10))
    model.fit(gp.X, gp._y, counts=gp.counts)
    draw = model.sample_function(rng)
    return _Rescaled(draw, gp.y_mean, gp.y_scale)


class _Rescaled:
    """Map a function of the GP's transformed y back to the units of y."""

    def __init__(self, function, offset, scale):
        self.function, self.offset, self.scale = function, offset, scale

    def __call__(self, X):
        return self.offset + self.scale * self.function(X)

    def value_and_gradient(self, x):
        value, gradient = self.function.value_and_gradient(x)
        return self.offset + self.scale * value, self.scale * gradient
