"""EGP-TS's ensemble: weights by evidence (batch and incremental), the floor, Thompson draws."""
import numpy as np
import pytest
from scipy.stats import truncnorm

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


# ---------------------------------------------------------------- baselines
BOX = np.array([[-2.0, 2.0], [0.0, 1.0]])


def _objective(Z):
    return np.sin(Z[:, 0]) - Z[:, 1] ** 2


def _run(method, n_iterations=4):
    from common.bo import run_bo
    return run_bo(_objective, method.bounds, method, 6, n_iterations, np.random.default_rng(5),
                  np.random.default_rng(6))


def _baselines(batch_size=1):
    from common.methods.egp_ts import EXP3BO, GPTS, BanditBO, FullyBayesianGPTS
    small = dict(n_features=30, n_candidates=100, n_restarts=1, batch_size=batch_size)
    return [GPTS(KERNELS[1], BOX, **small), BanditBO(KERNELS[1:], BOX, **small),
            EXP3BO(KERNELS[1:], BOX, horizon=10, **small),
            FullyBayesianGPTS(BOX, warmup_sweeps=5, sweeps=2, **small)]


@pytest.mark.parametrize("index", range(4))
def test_every_thompson_baseline_proposes_k_points_in_the_box(index):
    method = _baselines(batch_size=2)[index]
    record = _run(method, n_iterations=3)
    assert len(record["y"]) == 6 + 3 * 2, method.name
    assert np.all(record["X"] >= BOX[:, 0]) and np.all(record["X"] <= BOX[:, 1])


def test_banditbo_plays_the_arm_whose_draw_has_the_largest_maximum(monkeypatch):
    from common.methods.egp_ts import BanditBO
    method = BanditBO(KERNELS[1:], BOX, n_features=30, n_candidates=100, n_restarts=1)
    maxima = iter([(np.array([0.1, 0.1]), 1.0), (np.array([0.9, 0.9]), 3.0), (np.array([0.5, 0.5]), 2.0)])
    monkeypatch.setattr(method, "_argmax", lambda draw, rng: next(maxima))
    point = method.propose(BOX[:, 0] + np.random.default_rng(0).uniform(size=(6, 2)) * [4, 1],
                           np.arange(6.0), 0, np.random.default_rng(1))
    assert method.history == [1]
    np.testing.assert_allclose(point[0], method._to_box(np.array([0.9, 0.9])))


def test_exp3_probabilities_mix_the_gains_with_uniform_exploration():
    from common.methods.egp_ts import EXP3BO
    method = EXP3BO(KERNELS[1:], BOX, horizon=100)
    assert 0 < method.gamma < 1
    method.log_gains = np.array([50.0, 0.0, 0.0])
    probabilities = method.probabilities
    assert probabilities.sum() == pytest.approx(1.0)
    assert probabilities[1:] == pytest.approx(method.gamma / 3) and probabilities[0] > 1 - method.gamma


def test_exp3_credits_only_the_arm_that_proposed_the_point():
    method = _baselines()[2]
    _run(method, n_iterations=3)
    played = method.history
    y = np.concatenate([np.zeros(6), [0.0, 0.0], [1.0]])  # the last arm's point is the best so far
    before = method.log_gains.copy()
    method._pending, method.n_seen = [(played[-1], 0.5)], 8
    method._reward_pending(y)
    change = method.log_gains - before
    assert change[played[-1]] == pytest.approx(method.gamma * 1.0 / (0.5 * 3))
    assert np.count_nonzero(change) == 1


def test_slice_sampling_leaves_a_truncated_gaussian_invariant():
    from common.methods.egp_ts import slice_sample
    rng = np.random.default_rng(0)
    x, draws = np.array([0.5, 0.5]), []
    for _ in range(3000):
        x, _ = slice_sample(lambda v: -0.5 * np.sum(((v - [0.3, 0.0]) / [0.2, 1.0]) ** 2), x, [0.0, 0.0],
                            [1.0, 1.0], rng)
        draws.append(x.copy())
    draws = np.array(draws)
    for coordinate, (mean, std) in enumerate([(0.3, 0.2), (0.0, 1.0)]):
        target = truncnorm((0 - mean) / std, (1 - mean) / std, loc=mean, scale=std)
        assert draws[:, coordinate].mean() == pytest.approx(target.mean(), abs=0.015)
        assert draws[:, coordinate].std() == pytest.approx(target.std(), abs=0.015)


def test_fully_bayesian_samples_stay_in_the_prior_box():
    method = _baselines()[3]
    _run(method, n_iterations=3)
    samples = np.array(method.samples)
    assert samples.shape == (3, 3)
    assert np.all(samples >= method.prior_box[:, 0]) and np.all(samples <= method.prior_box[:, 1])


def test_egp_ei_weights_follow_the_fitted_evidence():
    from common.methods.egp_ts import EGPEI
    method = EGPEI(KERNELS[1:], BOX, n_candidates=100, n_restarts=1)
    _run(method, n_iterations=2)
    assert method.weights.sum() == pytest.approx(1.0) and method.weights.min() >= 1e-4 / (1 + 3e-4)
    single = EGPEI([KERNELS[2]], BOX, n_candidates=100, n_restarts=1, name="GP-EI")
    _run(single, n_iterations=2)
    assert single.weights.tolist() == [1.0] and single.history == [0, 0]


@pytest.mark.parametrize("options, name", [({"batch_size": 0}, "batch_size"), ({"n_features": 0}, "n_features"),
                                           ({"horizon": 0}, "horizon")])
def test_bad_baseline_options_are_refused_naming_the_parameter(options, name):
    from common.methods.egp_ts import EXP3BO
    with pytest.raises(ValueError, match=name):
        EXP3BO(KERNELS[1:], BOX, **{"horizon": 10, **options})


def test_slice_sampling_is_exact_near_the_edge_of_the_box_with_a_wide_interval():
    # Two modes, one at the lower edge: an interval clipped to the box before stepping out biased the chain.
    from scipy.integrate import quad

    from common.methods.egp_ts import slice_sample

    def density(v):
        return np.exp(-0.5 * ((v - 0.05) / 0.03) ** 2) + np.exp(-0.5 * ((v - 0.8) / 0.05) ** 2)

    exact = quad(density, 0, 0.1)[0] / quad(density, 0, 1, points=[0.05, 0.8])[0]
    rng, x, below = np.random.default_rng(1), np.array([0.5]), 0
    for _ in range(30_000):
        x, _ = slice_sample(lambda v: np.log(density(v[0])), x, [0.0], [1.0], rng, widths=[0.7])
        below += x[0] < 0.1
    assert below / 30_000 == pytest.approx(exact, abs=0.05)  # the clipped interval gave 0.17 against 0.35


@pytest.mark.parametrize("warm_start", [True, False])
def test_gp_ts_refits_from_its_last_fit_only_with_warm_start(warm_start):
    from common.methods.egp_ts import GPTS
    method = GPTS(KERNELS[1], BOX, n_features=30, n_candidates=100, n_restarts=1, warm_start=warm_start)
    _run(method, n_iterations=2)
    assert (method.kernel is KERNELS[1]) == (not warm_start)


# ---------------------------------------------------------------- the evidence of eq. 7 (issue 28)
def _egp_with_evidence(weight_evidence, floor=1e-4, refit_every=3):
    from common.methods.egp_ts import EGPTS
    return EGPTS(KERNELS[1:], BOX, n_features=30, refit_every=refit_every, n_candidates=100, n_restarts=1,
                 floor=floor, weight_evidence=weight_evidence)


@pytest.mark.parametrize("weight_evidence", ["rf", "exact"])
def test_both_evidences_give_finite_weights_summing_to_one(weight_evidence):
    method = _egp_with_evidence(weight_evidence)
    _run(method, n_iterations=7)  # re-initialized at 6, 9 and 12 observations
    assert len(method.log_evidences) == 3 and np.all(np.isfinite(method.log_evidences))
    weights = np.array(method.weight_history)
    assert weights.shape == (7, 3) and np.all(np.isfinite(weights))
    np.testing.assert_allclose(weights.sum(axis=1), 1.0)
    assert weights.min() >= 1e-4 / (1 + 3e-4)


def _first_fit(method):
    """The unit-cube inputs and standardized y of the first re-initialization (6 initial points)."""
    record = _run(method, n_iterations=1)
    U = method._unit(record["X"][:6])
    return U, (record["y"][:6] - method.y_mean) / method.y_scale


def test_the_exact_evidence_is_each_fitted_gp_log_marginal_likelihood():
    from common.gp import GaussianProcess
    method = _egp_with_evidence("exact", floor=0.0, refit_every=50)
    U, z = _first_fit(method)
    members = method.ensemble.members
    exact = [GaussianProcess(m.features.kernel, m.noise_variance).fit(U, z).log_marginal_likelihood() for m in members]
    np.testing.assert_allclose(method.log_evidences[0], exact, rtol=1e-10)
    # eq. 7 with w_0 = 1/M: the first proposal's weights are the normalized exact evidences
    np.testing.assert_allclose(method.weight_history[0], np.exp(exact - np.logaddexp.reduce(exact)), rtol=1e-8)
    rf = [m.log_evidence(U, z) for m in members]
    assert not np.allclose(exact, rf)  # a different evidence, not the RF one under another name


def test_the_default_evidence_is_the_random_feature_models():
    method = _egp_with_evidence("rf", floor=0.0, refit_every=50)
    from common.methods.egp_ts import EGPTS
    assert EGPTS(KERNELS[1:], BOX).weight_evidence == "rf"  # what every cached run used
    U, z = _first_fit(method)
    np.testing.assert_allclose(method.log_evidences[0], [m.log_evidence(U, z) for m in method.ensemble.members])


@pytest.mark.parametrize("value", ["RF", "sklearn", None, 1])
def test_an_unknown_evidence_is_refused_naming_the_allowed_ones(value):
    with pytest.raises(ValueError, match=r"weight_evidence must be one of \('rf', 'exact'\)"):
        _egp_with_evidence(value)


def test_given_log_evidences_set_the_batch_weights_and_must_match_the_members():
    log_evidences = np.array([0.0, -1.0, -2.0, np.log(3.0)])
    ensemble = _ensemble().fit(X, Y, log_evidences=log_evidences)
    np.testing.assert_allclose(ensemble.weights, np.exp(log_evidences) / np.exp(log_evidences).sum())
    with pytest.raises(ValueError, match="one entry per member"):
        _ensemble().fit(X, Y, log_evidences=log_evidences[:2])


def test_random_search_proposes_uniform_points_in_the_box_whatever_the_data():
    from common.bo import RandomSearch
    method = RandomSearch(BOX, batch_size=2)
    points = method.propose(np.zeros((3, 2)), np.zeros(3), 0, np.random.default_rng(0))
    again = method.propose(np.ones((9, 2)), np.arange(9.0), 5, np.random.default_rng(0))
    assert points.shape == (2, 2) and np.array_equal(points, again)
    many = RandomSearch(BOX, batch_size=4000).propose(None, None, 0, np.random.default_rng(1))
    assert np.all(many >= BOX[:, 0]) and np.all(many <= BOX[:, 1])
    np.testing.assert_allclose(many.mean(axis=0), BOX.mean(axis=1), atol=0.05)
    with pytest.raises(ValueError, match="batch_size"):
        RandomSearch(BOX, batch_size=0)
