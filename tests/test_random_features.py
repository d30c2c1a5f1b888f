"""Random Fourier features and Bayesian linear regression in feature space."""
import numpy as np
import pytest

from common.gp import GaussianProcess
from common.kernels import Matern, SquaredExponential
from common.random_features import BayesianLinearRegression, RandomFourierFeatures

RNG = np.random.default_rng(3)
X = RNG.uniform(-1, 1, (30, 2))


@pytest.mark.parametrize("kernel", [SquaredExponential([0.5, 0.8], 1.5), Matern(1.5, 0.6), Matern(2.5, 0.6)],
                         ids=repr)
def test_feature_kernel_estimate_converges_to_the_kernel(kernel):
    exact = kernel(X)
    errors = []
    for n_features in (50, 500, 5000):
        features = RandomFourierFeatures(kernel, n_features, 2, np.random.default_rng(0))
        errors.append(np.abs(features.kernel_estimate(X) - exact).max())
    assert errors[2] < errors[0]
    assert errors[2] < 0.1 * kernel.variance


def test_feature_gradient_matches_finite_differences():
    features = RandomFourierFeatures(SquaredExponential(0.5), 20, 2, np.random.default_rng(0))
    x = np.array([0.2, -0.4])
    step = 1e-7
    numeric = np.column_stack([(features((x + step * e)[None])[0] - features(x[None])[0]) / step
                               for e in np.eye(2)])
    np.testing.assert_allclose(features.gradient(x), numeric, atol=1e-5)


def test_blr_posterior_matches_gp_with_feature_kernel():
    """BLR on features is the exact GP whose kernel is s^2 phi(x)^T phi(x')."""
    kernel = SquaredExponential(0.5, 2.0)
    features = RandomFourierFeatures(kernel, 40, 2, np.random.default_rng(1))
    y = np.sin(3 * X[:, 0])
    model = BayesianLinearRegression(features, noise_variance=0.01).fit(X, y)
    X_test = RNG.uniform(-1, 1, (10, 2))
    Phi = features(X_test)
    K_feature = kernel.variance * features(X) @ features(X).T
    K_cross = kernel.variance * Phi @ features(X).T
    expected = K_cross @ np.linalg.solve(K_feature + 0.01 * np.eye(len(X)), y)
    np.testing.assert_allclose(Phi @ model.mean, expected, atol=1e-8)


def test_rank_one_updates_equal_batch_fit_and_evidence_chain_rule():
    features = RandomFourierFeatures(Matern(2.5, 0.5), 30, 2, np.random.default_rng(2))
    y = np.cos(2 * X[:, 1])
    batch = BayesianLinearRegression(features, 0.05).fit(X, y)
    sequential = BayesianLinearRegression(features, 0.05)
    log_evidence = sum(sequential.update(x, value) for x, value in zip(X, y))
    np.testing.assert_allclose(sequential.mean, batch.mean, atol=1e-8)
    np.testing.assert_allclose(sequential.cov, batch.cov, atol=1e-8)
    assert log_evidence == pytest.approx(BayesianLinearRegression(features, 0.05).log_evidence(X, y), abs=1e-8)


def test_sampled_functions_scatter_around_the_posterior_mean():
    features = RandomFourierFeatures(SquaredExponential(0.5), 50, 2, np.random.default_rng(4))
    model = BayesianLinearRegression(features, 1e-3).fit(X[:5], np.ones(5))
    rng = np.random.default_rng(5)
    draws = np.array([model.sample_function(rng)(X[5:8]) for _ in range(3000)])
    np.testing.assert_allclose(draws.mean(0), features(X[5:8]) @ model.mean, atol=0.06)
    at_data = np.array([model.sample_function(rng)(X[:5]) for _ in range(200)])
    assert np.abs(at_data - 1).max() < 0.2  # tight near the (nearly noise-free) data


def test_rff_thompson_sample_tracks_gp_posterior():
    from common.acquisitions import thompson_sample
    gp = GaussianProcess(SquaredExponential(0.4), 1e-4, y_transform="standardize").fit(X[:10], X[:10, 0])
    rng = np.random.default_rng(6)
    draws = np.array([thompson_sample(gp, rng, n_features=200)(X[10:13]) for _ in range(150)])
    mean, std = gp.predict(X[10:13], return_std=True)
    np.testing.assert_allclose(draws.mean(0), mean, atol=0.3 * std.max() + 0.05)


def test_blr_with_counts_equals_blr_on_repeated_rows():
    features = RandomFourierFeatures(SquaredExponential(0.5), 20, 2, np.random.default_rng(7))
    counts = np.array([1, 3, 2])
    y_rows = np.array([0.1, 0.5, 0.7, 0.6, -0.2, 0.0])
    X_rows = np.repeat(X[:3], counts, axis=0)
    means = np.array([0.1, np.mean([0.5, 0.7, 0.6]), np.mean([-0.2, 0.0])])
    grouped = BayesianLinearRegression(features, 0.05).fit(X[:3], means, counts=counts)
    naive = BayesianLinearRegression(features, 0.05).fit(X_rows, y_rows)
    np.testing.assert_allclose(grouped.mean, naive.mean, atol=1e-10)
    np.testing.assert_allclose(grouped.cov, naive.cov, atol=1e-10)


def test_rank_one_updates_keep_a_cholesky_factor_of_the_batch_precision():
    features = RandomFourierFeatures(SquaredExponential(0.4), 20, 2, np.random.default_rng(6))
    sequential = BayesianLinearRegression(features, 0.1)
    for x, value in zip(X, np.sin(X[:, 0])):
        sequential.update(x, value)
    L = sequential._precision_factor
    Phi = features(X)
    precision = Phi.T @ Phi / 0.1 + np.eye(40) / features.kernel.variance
    np.testing.assert_allclose(L @ L.T, precision, rtol=1e-10, atol=1e-9)
    assert np.allclose(L, np.tril(L)) and np.all(np.diag(L) > 0)


def test_draws_after_updates_have_the_posterior_covariance():
    features = RandomFourierFeatures(Matern(2.5, 0.5), 10, 2, np.random.default_rng(7))
    model = BayesianLinearRegression(features, 0.05)
    for x, value in zip(X[:12], np.cos(X[:12, 0])):
        model.update(x, value)
    rng = np.random.default_rng(8)
    thetas = np.array([model.sample_function(rng).theta for _ in range(20_000)])
    np.testing.assert_allclose(np.cov(thetas.T), model.cov, atol=0.03 * np.abs(model.cov).max())


def test_a_fit_on_duplicated_rows_with_tiny_noise_adds_jitter_instead_of_failing():
    features = RandomFourierFeatures(SquaredExponential(0.5), 200, 2, np.random.default_rng(9))
    X_dup = np.repeat(X[:5], 40, axis=0)
    model = BayesianLinearRegression(features, 1e-12, prior_variance=1e6).fit(X_dup, np.ones(len(X_dup)))
    assert np.all(np.isfinite(model.mean)) and np.all(np.isfinite(model.sample_function(np.random.default_rng(0))(X)))
