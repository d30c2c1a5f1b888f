"""EGP-TS's ensemble: weights by evidence (batch and incremental), the floor, Thompson draws."""
import numpy as np
import pytest

from common.kernels import Matern, SquaredExponential
from common.methods.egp_ts import EnsembleRFGP, floored
from common.random_features import BayesianLinearRegression, RandomFourierFeatures

RNG = np.random.default_rng(11)
X = RNG.uniform(0, 1, (25, 2))
Y = np.sin(4 * X[:, 0]) + 0.5 * X[:, 1]
KERNELS = [SquaredExponential(0.05), SquaredExponential(0.3), Matern(2.5, 0.3), Matern(0.5, 1.0)]


def _ensemble(floor=0.0):
    members = [BayesianLinearRegression(RandomFourierFeatures(k, 40, 2, np.random.default_rng(j)), 0.05)
               for j, k in enumerate(KERNELS)]
    return EnsembleRFGP(members, floor=floor)


def test_incremental_weights_and_posteriors_equal_the_batch_ones():
    batch = _ensemble().fit(X, Y)
    incremental = _ensemble()
    for x, y in zip(X, Y):
        incremental.update(x, y)
    np.testing.assert_allclose(incremental.weights, batch.weights, rtol=1e-8, atol=1e-12)
    for a, b in zip(incremental.members, batch.members):
        np.testing.assert_allclose(a.mean, b.mean, atol=1e-8)


def test_the_weights_stay_a_floored_probability_vector():
    ensemble = _ensemble(floor=1e-4)
    for x, y in zip(X, Y):
        ensemble.update(x, y)
        assert ensemble.weights.sum() == pytest.approx(1.0)
        assert ensemble.weights.min() >= 1e-4 / (1 + len(KERNELS) * 1e-4)
    assert ensemble.weights.min() < 2e-4  # the data rule a kernel out; the floor keeps it alive


def test_floored_raises_small_weights_and_keeps_the_order():
    weights = floored(np.log([0.999998, 1e-6, 1e-6]), 1e-4)
    assert weights.sum() == pytest.approx(1.0) and weights[1] == weights[2] > 9e-5 and weights[0] > 0.99


def test_thompson_draws_pick_members_in_proportion_to_their_weights():
    ensemble = _ensemble().fit(X[:6], Y[:6])
    rng = np.random.default_rng(0)
    picks = np.bincount([ensemble.sample_function(rng)[0] for _ in range(4000)], minlength=len(KERNELS))
    np.testing.assert_allclose(picks / 4000, ensemble.weights, atol=0.03)


def test_bad_ensembles_are_refused_with_a_clear_error():
    with pytest.raises(ValueError, match="members"):
        EnsembleRFGP([])
    with pytest.raises(ValueError, match="floor"):
        EnsembleRFGP(_ensemble().members, floor=0.5)
