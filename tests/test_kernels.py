"""Kernels: agreement with scikit-learn, gradients, positive definiteness, spectral samplers."""
import numpy as np
import pytest
from scipy.optimize import approx_fprime
from sklearn.gaussian_process.kernels import RBF, ConstantKernel, Matern as SklearnMatern

from common.kernels import AdditiveKernel, Matern, SquaredExponential

RNG = np.random.default_rng(0)
X = RNG.random((12, 3))
Y = RNG.random((7, 3))

KERNEL_PAIRS = [
    (SquaredExponential(0.4, 1.7), ConstantKernel(1.7) * RBF(0.4)),
    (SquaredExponential([0.3, 0.6, 1.1], 0.8), ConstantKernel(0.8) * RBF([0.3, 0.6, 1.1])),
    *[(Matern(nu, 0.5, 1.3), ConstantKernel(1.3) * SklearnMatern(0.5, nu=nu)) for nu in (0.5, 1.5, 2.5)],
    *[(Matern(nu, [0.2, 0.5, 0.9], 2.0), ConstantKernel(2.0) * SklearnMatern([0.2, 0.5, 0.9], nu=nu))
      for nu in (0.5, 1.5, 2.5)],
]
IDS = [repr(k) for k, _ in KERNEL_PAIRS]


@pytest.mark.parametrize("kernel, reference", KERNEL_PAIRS, ids=IDS)
def test_matches_sklearn(kernel, reference):
    np.testing.assert_allclose(kernel(X, Y), reference(X, Y), rtol=1e-12, atol=1e-14)


@pytest.mark.parametrize("kernel, reference", KERNEL_PAIRS, ids=IDS)
def test_log_hyperparameter_gradient_matches_sklearn(kernel, reference):
    _, gradient = kernel(X, eval_gradient=True)
    _, expected = reference(X, eval_gradient=True)
    np.testing.assert_allclose(gradient, expected, rtol=1e-10, atol=1e-12)


@pytest.mark.parametrize("kernel", [k for k, _ in KERNEL_PAIRS], ids=IDS)
def test_gradient_in_x_matches_finite_differences(kernel):
    x = RNG.random(3)
    analytic = kernel.gradient_x(x, Y)
    for j in range(len(Y)):
        numeric = approx_fprime(x, lambda z: kernel(z[None, :], Y[j:j + 1])[0, 0], 1e-7)
        np.testing.assert_allclose(analytic[j], numeric, rtol=1e-4, atol=1e-6)


@pytest.mark.parametrize("kernel", [k for k, _ in KERNEL_PAIRS], ids=IDS)
def test_kernel_matrix_is_positive_semidefinite(kernel):
    assert np.linalg.eigvalsh(kernel(X)).min() > -1e-10


@pytest.mark.parametrize("kernel", [k for k, _ in KERNEL_PAIRS], ids=IDS)
def test_spectral_samples_reproduce_the_kernel(kernel):
    frequencies = kernel.sample_spectral(200_000, 3, np.random.default_rng(1))
    difference = X[0] - X[1:4]
    estimate = kernel.variance * np.cos(difference @ frequencies.T).mean(axis=1)
    np.testing.assert_allclose(estimate, kernel(X[:1], X[1:4])[0], atol=0.01 * kernel.variance)


ALL_KERNELS = [k for k, _ in KERNEL_PAIRS] + [AdditiveKernel(Matern(2.5, 0.4, 1.2), [[0, 2], [1]])]


@pytest.mark.parametrize("kernel", ALL_KERNELS, ids=[repr(k) for k in ALL_KERNELS])
def test_gram_from_pairwise_equals_the_kernel_matrix_and_contracts_its_gradient(kernel):
    K, dK = kernel(X, eval_gradient=True)
    gram, contract = kernel.gram(kernel.pairwise(X), with_gradient=True)
    np.testing.assert_allclose(gram, K, rtol=1e-12, atol=1e-14)
    W = RNG.standard_normal((len(X), len(X)))
    W = W + W.T
    np.testing.assert_allclose(contract(W), np.einsum("ij,ijk->k", W, dK), rtol=1e-10, atol=1e-12)


@pytest.mark.parametrize("kernel", ALL_KERNELS, ids=[repr(k) for k in ALL_KERNELS])
def test_column_of_growing_inputs_equals_the_kernel_bit_for_bit(kernel):
    # Past the first reallocation of the buffers (12 rows, room for 26), with points near the origin and far.
    inputs = kernel.growing_inputs(X)
    grown = X
    for x in np.vstack([Y, Y + 1e3, RNG.random((12, 3))]):
        np.testing.assert_array_equal(kernel.column(inputs, x), kernel(grown, x[None, :])[:, 0], strict=True)
        grown = np.vstack([grown, x])


@pytest.mark.parametrize("kernel", ALL_KERNELS[:2], ids=[repr(k) for k in ALL_KERNELS[:2]])
def test_fixed_hyperparameters_leave_the_gradient_contraction(kernel):
    fixed = type(kernel)(kernel.lengthscale, kernel.variance, variance_bounds="fixed")
    _, contract = fixed.gram(fixed.pairwise(X), with_gradient=True)
    _, dK = fixed(X, eval_gradient=True)
    assert contract(np.eye(len(X))).shape == (fixed.n_dims,) == (dK.shape[2],)


@pytest.mark.parametrize("kernel", [k for k, _ in KERNEL_PAIRS], ids=IDS)
def test_profile_with_log_derivative_equals_the_two_computed_apart(kernel):
    r2 = np.linspace(0.0, 6.0, 50)
    profile, log_derivative = kernel.profile_with_log_derivative(r2)
    np.testing.assert_array_equal(profile, kernel.profile(r2))
    np.testing.assert_array_equal(log_derivative, kernel.profile_log_derivative(r2))


def test_close_points_far_from_the_origin_keep_their_squared_distance():
    # Expanded as |x|^2 + |y|^2 - 2 x.y, a distance of 1e-6 at |x| ~ 500 drowns in rounding (eps * 5e5).
    x = np.full((1, 3), 500.0)
    y = x + np.array([[1e-6, -2e-6, 0.0]])
    kernel = SquaredExponential([1.0, 2.0, 1.0])
    expected = (1e-6 / 1.0) ** 2 + (2e-6 / 2.0) ** 2
    np.testing.assert_allclose(kernel.squared_distances(x, y)[0, 0], expected, rtol=1e-6)
    np.testing.assert_allclose(kernel.squared_distances(y, x)[0, 0], expected, rtol=1e-6)


def test_with_theta_roundtrip_and_fixed_parameters_are_excluded():
    kernel = SquaredExponential([0.3, 0.6], 2.0, variance_bounds="fixed")
    assert kernel.n_dims == 2
    clone = kernel.with_theta(np.log([0.5, 0.7]))
    np.testing.assert_allclose(clone.lengthscale, [0.5, 0.7])
    assert clone.variance == 2.0 and kernel.lengthscale[0] == 0.3


def test_additive_kernel_is_sum_of_group_kernels():
    base = SquaredExponential(0.5, 1.5)
    additive = AdditiveKernel(base, [[0, 2], [1]])
    expected = base(X[:, [0, 2]], Y[:, [0, 2]]) + base(X[:, [1]], Y[:, [1]])
    np.testing.assert_allclose(additive(X, Y), expected)
    K, gradient = additive(X, eval_gradient=True)
    _, g0 = base(X[:, [0, 2]], eval_gradient=True)
    _, g1 = base(X[:, [1]], eval_gradient=True)
    np.testing.assert_allclose(gradient, g0 + g1)


def test_invalid_arguments_name_the_parameter():
    with pytest.raises(ValueError, match="nu"):
        Matern(nu=2.0)
    with pytest.raises(ValueError, match="lengthscale"):
        SquaredExponential(lengthscale=-1.0)
    with pytest.raises(ValueError, match="lengthscales"):
        SquaredExponential([0.1, 0.2])(X)
    with pytest.raises(ValueError, match="disjoint"):
        AdditiveKernel(SquaredExponential(1.0), [[0, 1], [1]])
