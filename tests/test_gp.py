"""Exact GP: interpolation, agreement with scikit-learn, updates, repeated inputs, MLE, numerics."""
import warnings

import numpy as np
import pytest
from scipy.linalg import LinAlgError, cho_solve, cholesky, solve_triangular
from sklearn.gaussian_process import GaussianProcessRegressor
from sklearn.gaussian_process.kernels import RBF, ConstantKernel, Matern as SklearnMatern

from common import gp as gp_module
from common.gp import (GaussianProcess, GrowingCholesky, LikelihoodFailureWarning, cholesky_inverse, cholesky_solve,
                       jittered_cholesky, solve_lower)
from common.kernels import Matern, SquaredExponential

RNG = np.random.default_rng(42)
X = RNG.uniform(-1, 1, (25, 2))
Y = np.sin(3 * X[:, 0]) * np.cos(2 * X[:, 1])
X_TEST = RNG.uniform(-1, 1, (40, 2))


@pytest.mark.parametrize("y_transform", ["none", "standardize"])
@pytest.mark.parametrize("kernel, reference", [
    (SquaredExponential([0.4, 0.7], 1.3), ConstantKernel(1.3) * RBF([0.4, 0.7])),
    (Matern(2.5, 0.5, 0.9), ConstantKernel(0.9) * SklearnMatern(0.5, nu=2.5)),
])
def test_posterior_equals_sklearn_with_fixed_hyperparameters(kernel, reference, y_transform):
    gp = GaussianProcess(kernel, noise_variance=1e-4, y_transform=y_transform).fit(X, Y)
    sk = GaussianProcessRegressor(reference, alpha=1e-4, optimizer=None,
                                  normalize_y=y_transform == "standardize").fit(X, Y)
    mean, std = gp.predict(X_TEST, return_std=True)
    sk_mean, sk_std = sk.predict(X_TEST, return_std=True)
    np.testing.assert_allclose(mean, sk_mean, atol=1e-8)
    np.testing.assert_allclose(std, sk_std, atol=1e-8)
    _, cov = gp.predict(X_TEST[:5], return_cov=True)
    np.testing.assert_allclose(cov, sk.predict(X_TEST[:5], return_cov=True)[1], atol=1e-8)
    assert gp.log_marginal_likelihood() == pytest.approx(sk.log_marginal_likelihood_value_, abs=1e-8)


def test_noise_free_gp_interpolates():
    gp = GaussianProcess(SquaredExponential(0.5), noise_variance=0.0).fit(X, Y)
    mean, std = gp.predict(X, return_std=True)
    np.testing.assert_allclose(mean, Y, atol=1e-5)
    assert std.max() < 1e-3


def test_repeated_noise_free_inputs_do_not_crash():
    X_rep = np.vstack([X, X[:5]])
    gp = GaussianProcess(SquaredExponential(0.5), noise_variance=0.0).fit(X_rep, np.append(Y, Y[:5]))
    assert gp.jitter > 0
    assert np.all(np.isfinite(gp.predict(X_TEST)))


def test_jittered_cholesky_leaves_well_conditioned_matrices_alone():
    A = np.array([[2.0, 0.5], [0.5, 1.0]])
    L, jitter = jittered_cholesky(A)
    assert jitter == 0.0
    np.testing.assert_allclose(L @ L.T, A)


@pytest.mark.parametrize("y_transform", ["none", "center", "standardize"])
def test_one_point_update_equals_refit(y_transform):
    kernel = SquaredExponential([0.4, 0.7], 1.3)
    incremental = GaussianProcess(kernel, 1e-4, y_transform=y_transform).fit(X[:-3], Y[:-3])
    for x, y in zip(X[-3:], Y[-3:]):
        incremental.add_observation(x, y)
    refit = GaussianProcess(kernel, 1e-4, y_transform=y_transform).fit(X, Y)
    for a, b in zip(incremental.predict(X_TEST, return_std=True), refit.predict(X_TEST, return_std=True)):
        np.testing.assert_allclose(a, b, atol=1e-10)


@pytest.mark.parametrize("y_transform", ["none", "standardize"])
def test_unique_point_posterior_equals_naive_posterior_on_repeats(y_transform):
    counts = RNG.integers(1, 6, size=8)
    X_unique = X[:8]
    X_rows = np.repeat(X_unique, counts, axis=0)
    y_rows = np.repeat(Y[:8], counts) + 0.1 * RNG.standard_normal(counts.sum())
    kernel = Matern(2.5, 0.5, 1.0)
    naive = GaussianProcess(kernel, 0.05, y_transform=y_transform).fit(X_rows, y_rows)
    grouped = GaussianProcess(kernel, 0.05, y_transform=y_transform).fit_repeated(X_rows, y_rows)
    np.testing.assert_array_equal(grouped.counts, counts)
    assert len(grouped.X) == 8
    for a, b in zip(naive.predict(X_TEST, return_std=True), grouped.predict(X_TEST, return_std=True)):
        np.testing.assert_allclose(a, b, atol=1e-10)


def test_log_marginal_likelihood_gradient_matches_finite_differences():
    gp = GaussianProcess(SquaredExponential([0.4, 0.7], 1.3), 1e-2, noise_bounds=(1e-6, 1.0)).fit(X, Y)
    theta = gp.theta
    value, gradient = gp.log_marginal_likelihood(theta, eval_gradient=True)
    step = 1e-6
    numeric = [(gp.log_marginal_likelihood(theta + step * e) - value) / step for e in np.eye(len(theta))]
    np.testing.assert_allclose(gradient, numeric, rtol=1e-4, atol=1e-5)


def test_mle_does_not_decrease_likelihood_and_respects_bounds():
    gp = GaussianProcess(SquaredExponential([1.0, 1.0], 1.0, lengthscale_bounds=(0.05, 5.0)),
                         1e-4, y_transform="standardize").fit(X, Y)
    before = gp.log_marginal_likelihood()
    gp.fit_hyperparameters(np.random.default_rng(0), n_restarts=2)
    assert gp.log_marginal_likelihood() >= before - 1e-9
    assert np.all(gp.kernel.lengthscale >= 0.05 - 1e-12) and np.all(gp.kernel.lengthscale <= 5.0 + 1e-12)


def test_mle_matches_sklearn_optimum():
    gp = GaussianProcess(SquaredExponential(1.0, 1.0, (1e-2, 1e2), (1e-2, 1e2)), 1e-4).fit(X, Y)
    gp.fit_hyperparameters(np.random.default_rng(0), n_restarts=3)
    sk = GaussianProcessRegressor(ConstantKernel(1.0, (1e-2, 1e2)) * RBF(1.0, (1e-2, 1e2)), alpha=1e-4,
                                  n_restarts_optimizer=3, random_state=0).fit(X, Y)
    assert gp.log_marginal_likelihood() == pytest.approx(sk.log_marginal_likelihood_value_, abs=1e-3)


def test_joint_samples_have_posterior_moments():
    gp = GaussianProcess(SquaredExponential(0.5), 1e-4).fit(X[:6], Y[:6])
    samples = gp.sample(X_TEST[:3], 20_000, np.random.default_rng(0))
    mean, cov = gp.predict(X_TEST[:3], return_cov=True)
    np.testing.assert_allclose(samples.mean(0), mean, atol=0.03)
    np.testing.assert_allclose(np.cov(samples.T), cov, atol=0.03)


def test_predict_gradient_matches_finite_differences():
    gp = GaussianProcess(Matern(2.5, [0.4, 0.6], 1.1), 1e-4, y_transform="standardize").fit(X, Y)
    x = np.array([0.1, -0.3])
    mean, std, d_mean, d_std = gp.predict_with_gradient(x)
    step = 1e-6
    for j in range(2):
        shifted = x.copy()
        shifted[j] += step
        m2, s2 = gp.predict(shifted[None, :], return_std=True)
        assert d_mean[j] == pytest.approx((m2[0] - mean) / step, rel=1e-3, abs=1e-5)
        assert d_std[j] == pytest.approx((s2[0] - std) / step, rel=1e-3, abs=1e-5)


def test_bad_input_errors_name_the_parameter():
    with pytest.raises(ValueError, match="y_transform"):
        GaussianProcess(SquaredExponential(1.0), y_transform="log")
    with pytest.raises(ValueError, match="same number of rows"):
        GaussianProcess(SquaredExponential(1.0)).fit(X, Y[:-1])
    with pytest.raises(RuntimeError, match="fit"):
        GaussianProcess(SquaredExponential(1.0)).predict(X)


def test_adding_observations_leaves_the_callers_arrays_alone():
    X_fit, Y_fit = X[:5].copy(), Y[:5].copy()
    gp = GaussianProcess(SquaredExponential(0.5), 1e-4).fit(X_fit, Y_fit)
    for x, y in zip(X[5:], Y[5:]):  # past the first reallocation of the row buffers (room for 12)
        gp.add_observation(x, y)
    np.testing.assert_array_equal(X_fit, X[:5])
    np.testing.assert_array_equal(Y_fit, Y[:5])
    np.testing.assert_array_equal(gp.X, X)
    np.testing.assert_array_equal(gp._y_raw, Y)


def test_add_observation_after_replacing_the_kernel_asks_for_a_fit():
    gp = GaussianProcess(SquaredExponential(0.5), 1e-4).fit(X[:10], Y[:10])
    gp.kernel = SquaredExponential(0.3)
    with pytest.raises(RuntimeError, match="call fit"):
        gp.add_observation(X[10], Y[10])


def test_adding_a_duplicate_noise_free_point_refactorizes_instead_of_crashing():
    gp = GaussianProcess(SquaredExponential(0.5), noise_variance=0.0).fit(X[:10], Y[:10])
    gp.add_observation(X[3], Y[3])
    assert len(gp.X) == 11 and np.all(np.isfinite(gp.predict(X_TEST)))


def _repeated_rows(noise_std=0.1, seed=1):
    rng = np.random.default_rng(seed)
    counts = rng.integers(1, 6, size=12)
    X_rows = np.repeat(X[:12], counts, axis=0)
    return X_rows, np.repeat(Y[:12], counts) + noise_std * rng.standard_normal(counts.sum())


@pytest.mark.parametrize("y_transform", ["none", "standardize"])
def test_repeated_input_likelihood_equals_the_expanded_data_likelihood_with_fitted_noise(y_transform):
    X_rows, y_rows = _repeated_rows()
    kernel = Matern(2.5, 0.5, 1.0)
    options = dict(noise_bounds=(1e-6, 1.0), y_transform=y_transform)
    naive = GaussianProcess(kernel, 1e-2, **options).fit(X_rows, y_rows)
    grouped = GaussianProcess(kernel, 1e-2, **options).fit_repeated(X_rows, y_rows)
    for theta in ([0.0, np.log(0.5), np.log(1e-2)], [0.5, np.log(0.2), np.log(1e-4)], [-0.3, 0.0, np.log(0.3)]):
        assert grouped.log_marginal_likelihood(np.array(theta)) == pytest.approx(
            naive.log_marginal_likelihood(np.array(theta)), rel=1e-10)


def test_repeated_input_likelihood_gradient_matches_finite_differences():
    X_rows, y_rows = _repeated_rows()
    gp = GaussianProcess(Matern(2.5, 0.5, 1.0), 1e-2, noise_bounds=(1e-6, 1.0)).fit_repeated(X_rows, y_rows)
    theta = np.array([0.2, np.log(0.4), np.log(3e-3)])
    value, gradient = gp.log_marginal_likelihood(theta, eval_gradient=True)
    step = 1e-6
    numeric = [(gp.log_marginal_likelihood(theta + step * e) - value) / step for e in np.eye(3)]
    np.testing.assert_allclose(gradient, numeric, rtol=1e-4, atol=1e-4)


def test_noise_fitted_on_unique_inputs_equals_the_noise_fitted_on_the_rows():
    X_rows, y_rows = _repeated_rows(noise_std=0.1)
    fits = []
    for fit in ("fit", "fit_repeated"):
        gp = GaussianProcess(Matern(2.5, 0.5, 1.0), 1e-2, noise_bounds=(1e-6, 1.0))
        fits.append(getattr(gp, fit)(X_rows, y_rows).fit_hyperparameters(np.random.default_rng(0), n_restarts=2))
    assert fits[1].noise_variance == pytest.approx(fits[0].noise_variance, rel=1e-4)
    assert 1e-3 < fits[1].noise_variance < 1e-1  # the data's noise variance is 1e-2


def test_lapack_shortcuts_return_scipys_numbers_bit_for_bit():
    A = np.cov(RNG.standard_normal((30, 60))) + 0.1 * np.eye(30)
    L = cholesky(A, lower=True)
    B = RNG.standard_normal((30, 4))
    for factor in (L, np.asfortranarray(L), np.ascontiguousarray(L)):
        np.testing.assert_array_equal(solve_lower(factor, B), solve_triangular(factor, B, lower=True))
        np.testing.assert_array_equal(cholesky_solve(factor, B[:, 0]), cho_solve((factor, True), B[:, 0]))
    np.testing.assert_array_equal(jittered_cholesky(A)[0], L)
    np.testing.assert_allclose(cholesky_inverse(L), np.linalg.inv(A), rtol=1e-10, atol=1e-12)


def test_growing_cholesky_equals_the_factor_of_the_bordered_matrix():
    A = np.cov(RNG.standard_normal((12, 40))) + 0.1 * np.eye(12)
    growing = GrowingCholesky(cholesky(A[:3, :3], lower=True))
    for n in range(3, 12):  # grows past its first capacity (2 n + 2 rows)
        row = growing.solve_lower(A[:n, n])
        growing.append_row(row, np.sqrt(A[n, n] - row @ row))
    np.testing.assert_allclose(growing.full(), cholesky(A, lower=True), rtol=1e-10, atol=1e-12)
    b = RNG.standard_normal(12)
    np.testing.assert_allclose(growing.solve(b), np.linalg.solve(A, b), rtol=1e-9)


def test_standardize_keeps_its_digits_when_the_mean_dwarfs_the_spread():
    # Raw moments E[y^2] - E[y]^2 cancel at mean / std = 1e8 (the variance came out 47% off).
    y = 1e8 + np.sin(np.arange(25.0))
    gp = GaussianProcess(SquaredExponential(0.5), 1e-4, y_transform="standardize").fit(X, y)
    assert gp.y_scale == pytest.approx(np.std(y), rel=1e-6)
    gp.add_observation(X_TEST[0], 1e8 + 0.5)
    assert gp.y_scale == pytest.approx(np.std(np.append(y, 1e8 + 0.5)), rel=1e-6)
    X_rows, y_rows = _repeated_rows()
    grouped = GaussianProcess(SquaredExponential(0.5), 1e-4, y_transform="standardize")
    grouped.fit_repeated(X_rows, 1e8 + y_rows)
    assert grouped.y_scale == pytest.approx(np.std(y_rows), rel=1e-6)


def test_likelihood_gradient_includes_the_jitter_it_adds():
    # Three exact duplicates and no noise: K is singular and the likelihood adds a jitter proportional
    # to mean(diag K), which moves with the signal variance.
    X_dup, Y_dup = np.vstack([X[:10], X[:3]]), np.concatenate([Y[:10], Y[:3]])
    gp = GaussianProcess(SquaredExponential([0.4, 0.7], 1.3), 0.0).fit(X_dup, Y_dup)
    value, gradient = gp.log_marginal_likelihood(gp.theta, eval_gradient=True)
    step = 1e-4
    numeric = [(gp.log_marginal_likelihood(gp.theta + step * e) - gp.log_marginal_likelihood(gp.theta - step * e))
               / (2 * step) for e in np.eye(3)]
    np.testing.assert_allclose(gradient, numeric, atol=0.05)


def test_a_likelihood_that_cannot_be_factorized_is_counted_and_warned_about(monkeypatch):
    gp = GaussianProcess(SquaredExponential([0.4, 0.7], 1.3), 1e-4).fit(X, Y)
    start = gp.theta

    def failing_cholesky(A, max_tries=8):
        if max_tries == 4:  # the likelihood's factorizations fail; the posterior's succeed
            raise LinAlgError("not positive definite")
        return jittered_cholesky(A, max_tries)

    monkeypatch.setattr(gp_module, "jittered_cholesky", failing_cholesky)
    assert gp.log_marginal_likelihood() == -np.inf and gp.likelihood_failures == 1
    with pytest.warns(LikelihoodFailureWarning, match="likelihood_failures"):
        gp.fit_hyperparameters(np.random.default_rng(0), n_restarts=1)
    assert gp.likelihood_failures >= 3
    np.testing.assert_array_equal(gp.theta, start)


def test_a_clean_fit_raises_no_likelihood_warning():
    gp = GaussianProcess(SquaredExponential([0.4, 0.7], 1.3), 1e-4).fit(X, Y)
    with warnings.catch_warnings():
        warnings.simplefilter("error", LikelihoodFailureWarning)
        gp.fit_hyperparameters(np.random.default_rng(0), n_restarts=2)
    assert gp.likelihood_failures == 0
