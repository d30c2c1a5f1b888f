"""Acquisition functions: closed forms, gradients, beta schedules."""
import numpy as np
import pytest
from scipy.stats import norm

from common.acquisitions import (ExpectedImprovement, PosteriorMean, PosteriorVariance,
                                 ProbabilityOfImprovement, UpperConfidenceBound, beta_kandasamy,
                                 beta_schedule, beta_srinivas)
from common.gp import GaussianProcess
from common.kernels import SquaredExponential

MEAN = np.array([0.0, 0.5, 1.0, 2.0])
STD = np.array([1.0, 0.2, 0.0, 0.3])


def test_ei_equals_monte_carlo_expectation_of_improvement():
    rng = np.random.default_rng(0)
    ei = ExpectedImprovement(best=0.8).from_moments(MEAN, STD)
    samples = MEAN + STD * rng.standard_normal((400_000, 4))
    np.testing.assert_allclose(ei, np.maximum(samples - 0.8, 0).mean(0), atol=3e-3)


def test_pi_equals_normal_cdf_and_is_a_step_where_sigma_is_zero():
    pi = ProbabilityOfImprovement(best=0.8).from_moments(MEAN, STD)
    some = [0, 1, 3]
    np.testing.assert_allclose(pi[some], norm.cdf((MEAN[some] - 0.8) / STD[some]))
    assert pi[2] == 1.0
    assert ProbabilityOfImprovement(best=1.5).from_moments(MEAN, STD)[2] == 0.0


def test_ucb_mean_variance_forms():
    np.testing.assert_allclose(UpperConfidenceBound(4.0).from_moments(MEAN, STD), MEAN + 2 * STD)
    np.testing.assert_allclose(PosteriorMean().from_moments(MEAN, STD), MEAN)
    np.testing.assert_allclose(PosteriorVariance().from_moments(MEAN, STD), STD**2)


@pytest.mark.parametrize("acquisition", [UpperConfidenceBound(3.0), ExpectedImprovement(0.2),
                                         ProbabilityOfImprovement(0.2), PosteriorMean(),
                                         PosteriorVariance()], ids=lambda a: a.name)
def test_gradient_matches_finite_differences(acquisition):
    rng = np.random.default_rng(1)
    X = rng.uniform(-1, 1, (12, 2))
    gp = GaussianProcess(SquaredExponential(0.5), 1e-4).fit(X, np.sin(3 * X[:, 0]))
    x = np.array([0.31, -0.17])
    value, gradient = acquisition.value_and_gradient(gp, x)
    assert value == pytest.approx(acquisition(gp, x[None])[0])
    step = 1e-6
    numeric = [(acquisition(gp, (x + step * e)[None])[0] - value) / step for e in np.eye(2)]
    np.testing.assert_allclose(gradient, numeric, rtol=1e-3, atol=1e-6)


def test_beta_srinivas_matches_reference_values_of_the_bo_pp_spec():
    assert beta_srinivas(1, 2) == pytest.approx(6.9869, abs=1e-3)
    assert beta_srinivas(100, 2) == pytest.approx(34.6179, abs=1e-3)
    assert beta_srinivas(100, 6) == pytest.approx(53.0386, abs=1e-3)
    assert beta_srinivas(10, 6) == pytest.approx(30.0127, abs=1e-3)


def test_beta_kandasamy_example():
    assert beta_kandasamy(5, 10) == pytest.approx(2 * np.log(10))


def test_unknown_schedule_and_bad_step_raise():
    with pytest.raises(ValueError, match="allowed"):
        beta_schedule("nope")
    with pytest.raises(ValueError, match="t"):
        beta_srinivas(0, 2)
