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


def _egp(batch_size=1, refit_every=5, floor=1e-4):
    from common.methods.egp_ts import EGPTS
    return EGPTS(KERNELS[1:], np.array([[-2.0, 2.0], [0.0, 1.0]]), n_features=30, refit_every=refit_every,
                 batch_size=batch_size, n_candidates=200, n_restarts=1, floor=floor)


def test_egp_ts_proposes_k_points_in_the_box():
    from common.bo import run_bo
    method = _egp(batch_size=3)
    record = run_bo(lambda Z: np.sin(Z[:, 0]) - Z[:, 1] ** 2, method.bounds, method, 6, 4,
                    np.random.default_rng(1), np.random.default_rng(2))
    assert len(record["y"]) == 6 + 4 * 3 and len(method.history) == 12
    assert np.all(record["X"] >= method.bounds[:, 0]) and np.all(record["X"] <= method.bounds[:, 1])


def test_between_refits_the_ensemble_is_the_batch_posterior_of_its_features():
    # Without a floor the incremental weights are exactly the batch ones (eq. 10 chains into eq. 7).
    from common.bo import run_bo
    method = _egp(refit_every=50, floor=0.0)
    record = run_bo(lambda Z: np.sin(Z[:, 0]) - Z[:, 1] ** 2, method.bounds, method, 6, 5,
                    np.random.default_rng(3), np.random.default_rng(4))
    U, z = method._unit(record["X"][:-1]), (record["y"][:-1] - method.y_mean) / method.y_scale
    batch = EnsembleRFGP([BayesianLinearRegression(m.features, m.noise_variance) for m in method.ensemble.members],
                         floor=method.floor).fit(U, z)
    np.testing.assert_allclose(method.ensemble.weights, batch.weights, rtol=1e-6, atol=1e-10)
