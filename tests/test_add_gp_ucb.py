"""Add-GP-UCB: the group posteriors against the additive GP's, GP-UCB as its one-group case, the
decomposition search, and Table 1's bounds."""
import numpy as np
import pytest

from common.acquisitions import beta_kandasamy
from common.bo import GPAcquisitionMethod, run_bo
from common.gp import GaussianProcess
from common.kernels import AdditiveKernel, SquaredExponential
from common.methods.add_gp_ucb import (AddGPUCB, DecompositionLikelihood, GroupPosteriors, PracticalAddGPUCB,
                                       fit_scale_and_bandwidth, log10_regret_bounds, random_decomposition)

RNG = np.random.default_rng(3)
GROUPS = [[0, 3], [1], [4, 2, 5]]
X = RNG.random((30, 6))
Y = np.sin(3 * X[:, 0]) + X[:, 1] ** 2 - np.cos(2 * X[:, 4] * X[:, 2])
X_TEST = RNG.random((40, 6))


def _fitted(groups=GROUPS, y_transform="standardize"):
    kernel = AdditiveKernel(SquaredExponential(0.4, 1.3), groups)
    return GaussianProcess(kernel, 1e-4, y_transform=y_transform).fit(X, Y)


@pytest.mark.parametrize("y_transform", ["none", "standardize"])
def test_group_means_add_up_to_the_additive_posterior_mean(y_transform):
    gp = _fitted(y_transform=y_transform)
    groups = GroupPosteriors(gp).predict([X_TEST[:, g] for g in GROUPS])
    np.testing.assert_allclose(gp.y_mean + sum(mean for mean, _ in groups), gp.predict(X_TEST), atol=1e-10)


def test_the_sum_of_group_standard_deviations_bounds_the_additive_one():
    gp = _fitted()
    groups = GroupPosteriors(gp).predict([X_TEST[:, g] for g in GROUPS])
    _, std = gp.predict(X_TEST, return_std=True)
    assert np.all(sum(s for _, s in groups) >= std - 1e-12)
    assert np.any(sum(s for _, s in groups) > std + 1e-3)  # a bound, not an identity


def test_one_group_is_the_independent_gp_of_its_coordinates():
    # A lone group's posterior equals the GP fitted with that group's kernel alone.
    gp = _fitted(groups=[[4, 2, 5]])
    alone = GaussianProcess(SquaredExponential(0.4, 1.3), 1e-4, y_transform="standardize").fit(X[:, [4, 2, 5]], Y)
    (mean, std), = GroupPosteriors(gp).predict([X_TEST[:, [4, 2, 5]]])
    expected_mean, expected_std = alone.predict(X_TEST[:, [4, 2, 5]], return_std=True)
    np.testing.assert_allclose(gp.y_mean + mean, expected_mean, atol=1e-10)
    np.testing.assert_allclose(std, expected_std, atol=1e-10)


def test_one_group_of_all_coordinates_queries_what_gp_ucb_queries():
    def objective(Z):
        return np.sin(3 * Z[:, 0]) - (Z[:, 1] - 0.3) ** 2 + 0.5 * Z[:, 2]

    bounds, n_init = np.tile([0.0, 1.0], (3, 1)), 4
    options = dict(noise_variance=1e-6, y_transform="standardize", mle_restarts=0)
    base = SquaredExponential(0.5, 1.0)
    add = AddGPUCB(AdditiveKernel(base, [[0, 1, 2]]), bounds, max_evals=300, **options)
    ucb = GPAcquisitionMethod(base, bounds, acquisition="UCB",  # the plain kernel: GP-UCB built independently
                              beta=lambda t, d: beta_kandasamy(t + n_init, d),  # t = observations + 1
                              optimizer="direct", optimizer_options={"max_evals": 300}, **options)
    records = [run_bo(objective, bounds, method, n_init, 10, np.random.default_rng(5), np.random.default_rng(6))
               for method in (add, ucb)]
    np.testing.assert_array_equal(records[0]["X"], records[1]["X"])


def test_the_query_joins_the_groups_maximizers_and_centres_unused_coordinates():
    bounds = np.array([[0.0, 1.0], [-2.0, 2.0], [0.0, 1.0], [0.0, 4.0]])
    method = AddGPUCB(AdditiveKernel(SquaredExponential(0.3), [[0], [2]]), bounds, max_evals=100,
                      fit_hyperparameters=False)
    X_data = np.random.default_rng(0).uniform(bounds[:, 0], bounds[:, 1], (8, 4))
    x = method.propose(X_data, np.sin(X_data.sum(1)), 1, np.random.default_rng(1))[0]
    assert x[1] == 0.0 and x[3] == 2.0 and 0 <= x[0] <= 1 and 0 <= x[2] <= 1


def test_a_kernel_that_is_not_additive_is_refused_with_a_clear_error():
    with pytest.raises(ValueError, match="AdditiveKernel"):
        AddGPUCB(SquaredExponential(0.3), np.tile([0.0, 1.0], (2, 1)), max_evals=50)
    with pytest.raises(ValueError, match="AdditiveKernel"):
        GroupPosteriors(GaussianProcess(SquaredExponential(0.3)).fit(X, Y))


def test_a_random_decomposition_covers_every_coordinate_once_in_groups_of_d_and_a_remainder():
    groups = random_decomposition(10, 3, np.random.default_rng(0))
    assert [len(g) for g in groups] == [3, 3, 3, 1]
    assert sorted(np.concatenate(groups).tolist()) == list(range(10))
    with pytest.raises(ValueError, match="group_dim"):
        random_decomposition(4, 5, np.random.default_rng(0))


def _pairings(coordinates):
    """Every partition of the coordinates into unordered pairs."""
    if not coordinates:
        yield []
        return
    first, rest = coordinates[0], coordinates[1:]
    for k, partner in enumerate(rest):
        for tail in _pairings(rest[:k] + rest[k + 1:]):
            yield [[first, partner]] + tail


def test_the_marginal_likelihood_prefers_the_true_decomposition_over_every_other():
    # What Algorithm 2's decomposition search relies on: among all 15 pairings of 6 coordinates, data from
    # f = sum of functions of (0, 1), (2, 3), (4, 5) are most likely under the true one.
    rng = np.random.default_rng(4)
    X_pairs = rng.uniform(-1, 1, (80, 6))
    y_pairs = sum(np.sin(2 * X_pairs[:, i] + 3 * X_pairs[:, j] ** 2) for i, j in ((0, 1), (2, 3), (4, 5)))
    truth = [[0, 1], [2, 3], [4, 5]]
    likelihood = DecompositionLikelihood(X_pairs, y_pairs, 1e-3)
    kernel = fit_scale_and_bandwidth(likelihood, truth, np.log([[1e-2, 5.0], [1e-2, 1e2]]))
    bandwidth, scale = float(kernel.base.lengthscale[0]), kernel.base.variance
    scores = {str(sorted(map(sorted, groups))): likelihood(groups, bandwidth, scale)
              for groups in _pairings(list(range(6)))}
    assert len(scores) == 15 and max(scores, key=scores.get) == str(truth)


def test_the_decomposition_likelihood_is_the_gp_marginal_likelihood_with_a_constant_mean():
    groups = [[0, 3], [1, 4], [2, 5]]
    likelihood = DecompositionLikelihood(X, Y, 1e-3)
    gp = GaussianProcess(AdditiveKernel(SquaredExponential(0.7, 2.5), groups), 1e-3, y_transform="center").fit(X, Y)
    assert likelihood(groups, 0.7, 2.5) == pytest.approx(gp.log_marginal_likelihood(), rel=1e-10)


def test_scoring_many_decompositions_at_once_gives_each_ones_likelihood():
    likelihood = DecompositionLikelihood(X, Y, 1e-3)
    decompositions = [[[0, 3], [1, 4], [2, 5]], [[5, 0, 1], [2], [3, 4]], [[0, 1, 2, 3, 4, 5]]]
    expected = [likelihood(groups, 0.7, 2.5) for groups in decompositions]
    np.testing.assert_allclose(likelihood.scores(decompositions, 0.7, 2.5), expected, rtol=1e-10)


def test_the_practical_algorithm_relearns_on_schedule_with_groups_of_d():
    def objective(Z):
        return np.sin(3 * Z[:, 0]) - Z[:, 3] ** 2 + Z[:, 1] * Z[:, 4]

    bounds = np.tile([-1.0, 1.0], (5, 1))
    method = PracticalAddGPUCB(bounds, max_evals=200, group_dim=2, n_decompositions=6, relearn_every=3, n_init=6)
    kernels = []
    original = method.fit_model

    def watched(X, y, rng):
        gp = original(X, y, rng)
        kernels.append(method.kernel)
        return gp

    method.fit_model = watched
    record = run_bo(objective, bounds, method, 6, 5, np.random.default_rng(7), np.random.default_rng(8))
    assert len(record["y"]) == 11 and method.name == "Add-2/3"
    assert [len(g) for g in kernels[0].groups] == [2, 2, 1]
    assert kernels[0] is kernels[1] is kernels[2] and kernels[3] is not kernels[2]  # relearned before iteration 4


def test_the_papers_literal_start_fixes_the_bandwidth_until_the_first_relearning():
    def objective(Z):
        return np.sin(3 * Z[:, 0]) - Z[:, 3] ** 2

    bounds = np.tile([-1.0, 1.0], (4, 1))
    method = PracticalAddGPUCB(bounds, max_evals=100, group_dim=2, relearn_every=3, n_init=5, initial_bandwidth=1e-5)
    start_groups = [list(g) for g in method.kernel.groups]
    bandwidths, groups = [], []
    original = method.fit_model

    def watched(X, y, rng):
        gp = original(X, y, rng)
        bandwidths.append(float(method.kernel.base.lengthscale[0]))
        groups.append([list(g) for g in method.kernel.groups])
        return gp

    method.fit_model = watched
    run_bo(objective, bounds, method, 5, 5, np.random.default_rng(3), np.random.default_rng(4))
    assert bandwidths[:3] == [1e-5] * 3 and groups[:3] == [start_groups] * 3
    assert bandwidths[3] != 1e-5  # learned before iteration 4


def test_the_prior_mean_is_zero_or_the_mean_of_y_in_the_gp_and_its_likelihood_alike():
    bounds = np.tile([-1.0, 1.0], (2, 1))
    assert PracticalAddGPUCB(bounds, 50, group_dim=1).gp_options["y_transform"] == "none"
    assert PracticalAddGPUCB(bounds, 50, group_dim=1, prior_mean="mean").gp_options["y_transform"] == "center"
    with pytest.raises(ValueError, match="prior_mean"):
        PracticalAddGPUCB(bounds, 50, group_dim=1, prior_mean="median")


def test_the_zero_mean_likelihood_is_the_zero_mean_gps_marginal_likelihood():
    groups = [[0, 3], [1, 4], [2, 5]]
    likelihood = DecompositionLikelihood(X, Y + 4.0, 1e-3, center=False)
    gp = GaussianProcess(AdditiveKernel(SquaredExponential(0.7, 2.5), groups), 1e-3, y_transform="none").fit(X, Y + 4.0)
    assert likelihood(groups, 0.7, 2.5) == pytest.approx(gp.log_marginal_likelihood(), rel=1e-10)


@pytest.mark.parametrize("scale_units, power", [("std", 1), ("variance", 2)])
def test_the_learned_scale_lies_in_its_range_of_std_or_variance_units(scale_units, power):
    bounds = np.tile([-1.0, 1.0], (3, 1))
    method = PracticalAddGPUCB(bounds, 60, groups=[[0, 1, 2]], n_init=8, scale_units=scale_units)
    rng = np.random.default_rng(5)
    X_init = rng.uniform(-1, 1, (8, 3))
    y = 40.0 * np.sin(3 * X_init[:, 0]) + 25.0 * X_init[:, 1]
    method.fit_model(X_init, y, rng)
    reference = np.std(y) ** power
    assert 0.03 * reference * (1 - 1e-9) <= method.kernel.base.variance <= 30.0 * reference * (1 + 1e-9)
    with pytest.raises(ValueError, match="scale_units"):
        PracticalAddGPUCB(bounds, 60, group_dim=1, scale_units="range")


# Table 1 (b) of the add_gp_ucb spec: the same bounds evaluated independently, rounded as printed there.
SPEC_LOG10_BOUNDS = {
    (24, 6): [(27.6, 7.4, 10.57, 5.74), (30.4, 8.6, 11.74, 6.87), (32.5, 9.6, 12.86, 7.94)],
    (40, 5): [(48.6, 6.7, 15.50, 5.63), (52.8, 7.8, 16.68, 6.73), (55.9, 8.7, 17.80, 7.79)],
    (96, 5): [(130.6, 7.1, 32.55, 6.01), (139.8, 8.2, 33.73, 7.11), (146.4, 9.1, 34.85, 8.17)],
}


@pytest.mark.parametrize("dims", list(SPEC_LOG10_BOUNDS))
def test_table_1_bounds_match_an_independent_evaluation(dims):
    for horizon, expected in zip((1e2, 1e3, 1e4), SPEC_LOG10_BOUNDS[dims]):
        bounds = log10_regret_bounds(*dims, horizon)
        np.testing.assert_allclose(list(bounds.values()), expected, atol=0.051)


def test_the_additive_bounds_grow_linearly_in_d_and_the_full_ones_exponentially():
    small, large = log10_regret_bounds(24, 5, 1e3), log10_regret_bounds(96, 5, 1e3)
    # D x 4: log10 grows by log10(4) = 0.6 in the Matern additive bound, by far more in GP-UCB's.
    assert large["Matern, Add-GP-UCB"] - small["Matern, Add-GP-UCB"] == pytest.approx(np.log10(4))
    assert large["Matern, GP-UCB"] - small["Matern, GP-UCB"] > 20


def test_gp_ei_maximizes_the_expected_improvement_of_its_gp():
    from common.acquisitions import ExpectedImprovement
    from common.methods.add_gp_ucb import PracticalGPEI
    bounds = np.tile([-1.0, 1.0], (3, 1))
    method = PracticalGPEI(bounds, max_evals=300, n_init=6)
    X_data = np.random.default_rng(0).uniform(-1, 1, (6, 3))
    y_data = np.sin(2 * X_data[:, 0]) - X_data[:, 1] ** 2
    x = method.propose(X_data, y_data, 1, np.random.default_rng(1))
    ours = ExpectedImprovement(float(y_data.max()))
    grid = np.random.default_rng(2).uniform(-1, 1, (2000, 3))
    assert ours(method.last_gp, x)[0] >= ours(method.last_gp, grid).max() - 1e-9  # DIRECT beats 2000 random points


def test_rembo_maps_its_low_dimensional_box_into_the_objective_box():
    from common.methods.add_gp_ucb import RemboObjective
    box = np.column_stack([np.arange(20.0), np.arange(20.0) + 2])
    rembo = RemboObjective(lambda Z: Z.sum(1), box, 4, np.random.default_rng(0))
    np.testing.assert_array_equal(rembo.bounds, np.tile([-2.0, 2.0], (4, 1)))
    U = np.random.default_rng(1).uniform(-2, 2, (500, 4))
    X = rembo.to_box(U)
    assert X.shape == (500, 20) and np.all(X >= box[:, 0]) and np.all(X <= box[:, 1])
    assert np.any(X == box[:, 1]) and np.any(X == box[:, 0])  # the projection clips
    np.testing.assert_allclose(rembo(U), X.sum(1))
    np.testing.assert_allclose(rembo.to_box(np.zeros(4)), box.mean(axis=1)[None, :])  # u = 0 is the centre


def test_a_query_that_repeats_an_earlier_one_is_moved_and_a_new_one_is_kept():
    from common.methods.add_gp_ucb import away_from_queries
    bounds, X = np.tile([-1.0, 1.0], (3, 1)), np.array([[0.0, 0.5, -0.5], [1.0, 1.0, 1.0]])
    rng = np.random.default_rng(0)
    moved = away_from_queries(X[1].copy(), X, bounds, 0.2, rng)
    assert np.min(np.linalg.norm(X - moved, axis=1)) > 0 and np.all(np.abs(moved) <= 1.0)
    fresh = np.array([0.1, 0.2, 0.3])
    np.testing.assert_array_equal(away_from_queries(fresh.copy(), X, bounds, 0.2, rng), fresh)


def test_five_queries_of_tiny_posterior_std_shrink_the_bandwidth_bound_and_relearn_at_once():
    from types import SimpleNamespace

    method = PracticalAddGPUCB(np.tile([-1.0, 1.0], (4, 1)), max_evals=100, group_dim=2, n_init=4)
    method.kernel = AdditiveKernel(SquaredExponential(0.4), [[0, 1], [2, 3]])
    for std in (0.001, 0.001, 0.001, 0.001):
        method.last_gp = SimpleNamespace(predict=lambda X, return_std, s=std: (np.zeros(1), np.array([s])))
        method._watch_posterior_std(np.zeros(4))
    assert not method._relearn_now  # four in a row are not enough
    method._watch_posterior_std(np.zeros(4))
    assert method._relearn_now and method.bandwidth_upper == pytest.approx(0.36)
    method.last_gp = SimpleNamespace(predict=lambda X, return_std: (np.zeros(1), np.array([0.5])))
    method._relearn_now = False
    for _ in range(6):
        method._watch_posterior_std(np.zeros(4))
    assert not method._relearn_now  # a large std breaks the streak
