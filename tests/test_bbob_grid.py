"""Tests of the BBOB grid bandits of MINI-META (common.problems.bbob_grid) against pycma's reference code."""
import numpy as np
import pytest
from cma import bbobbenchmarks

from common import test_functions
from common.problems.bbob_grid import BBOB_GRID_FUNCTIONS, BBOBGrid, bbob_grid_arms

N_ARMS = 22**3
# BBOB's Gaussian noise adds this constant to every perturbed value.
NOISE_OFFSET = 1.01e-8


@pytest.fixture(scope="module")
def problems():
    return {function_id: BBOBGrid(function_id) for function_id in BBOB_GRID_FUNCTIONS}


def reference_function(function_id, **options):
    return getattr(bbobbenchmarks, f"F{function_id}")(1, **options)


def without_touching_global_rng(call):
    """``call()`` with numpy's global RNG state restored afterwards (pycma draws its noise from it)."""
    state = np.random.get_state()
    try:
        return call()
    finally:
        np.random.set_state(state)


def test_grid_has_10648_distinct_arms_in_the_box(problems):
    arms = bbob_grid_arms()
    assert arms.shape == (N_ARMS, 3) and len(np.unique(arms, axis=0)) == N_ARMS
    np.testing.assert_array_equal(np.unique(arms), np.linspace(-5.0, 5.0, 22))
    for problem in problems.values():
        np.testing.assert_array_equal(problem.arms, arms)


@pytest.mark.parametrize("function_id", BBOB_GRID_FUNCTIONS)
def test_noise_free_values_are_pycma_ftrue_minus_fopt(problems, function_id):
    problem, reference = problems[function_id], reference_function(function_id)
    ftrue = without_touching_global_rng(lambda: reference._evalfull(problem.arms)[1])
    f_raw = ftrue - reference.fopt
    np.testing.assert_allclose(problem.f_raw, f_raw, rtol=1e-12, atol=1e-9)
    np.testing.assert_allclose(problem.values, (f_raw.mean() - f_raw) / f_raw.std(), rtol=1e-10, atol=1e-12)
    np.testing.assert_array_equal(problem.x_opt, reference.xopt)


def test_building_a_problem_leaves_numpy_global_rng_untouched():
    before = np.random.get_state()[1].copy()
    BBOBGrid(116)
    np.testing.assert_array_equal(np.random.get_state()[1], before)


@pytest.mark.parametrize("function_id", BBOB_GRID_FUNCTIONS)
def test_optimal_value_is_the_max_over_arms(problems, function_id):
    problem = problems[function_id]
    assert problem.optimal_value == problem.values.max() == problem.values[problem.optimal_arm]
    assert problem.f_raw[problem.optimal_arm] == problem.f_raw.min()
    assert problem.mean_value == pytest.approx(problem.values.mean()) and abs(problem.mean_value) < 1e-12


@pytest.mark.parametrize("function_id", [104, 116, 122])
def test_pulls_equal_pycma_noisy_values_given_the_same_normal_draws(function_id):
    reference = reference_function(function_id, zerof=True)
    problem = BBOBGrid(function_id, noise_beta=reference.gaussbeta)
    indices = np.random.default_rng(0).integers(N_ARMS, size=200)
    indices[:5] = indices[0]

    def pycma_noisy():
        np.random.seed(7)
        return reference._evalfull(problem.arms[indices])[0]

    expected = (-without_touching_global_rng(pycma_noisy) - problem.reward_shift) / problem.reward_scale
    # A RandomState seeded alike gives pycma's standard_normal draws, in the same order.
    np.testing.assert_allclose(problem.pull(indices, np.random.RandomState(7)), expected, rtol=1e-12)


@pytest.mark.parametrize("noise_beta", [0.01, 1.0])
def test_pulls_of_one_arm_follow_the_noise_model(noise_beta):
    problem = BBOBGrid(116, noise_beta=noise_beta)
    n, arm = 40_000, 1234
    rewards = problem.pull(np.full(n, arm), np.random.default_rng(1))
    noisy_f = -(rewards * problem.reward_scale + problem.reward_shift)
    log_factor = np.log((noisy_f - NOISE_OFFSET) / problem.f_raw[arm])
    # log_factor ~ N(0, beta^2): 5 standard errors of its mean and std.
    assert abs(log_factor.mean()) < 5 * noise_beta / np.sqrt(n)
    assert abs(log_factor.std() / noise_beta - 1) < 5 / np.sqrt(2 * n)
    # The reward std is the analytic log-normal std; its sample std has relative SE
    # sqrt((kurtosis - 1) / (4 n)), kurtosis = e^{4b^2} + 2 e^{3b^2} + 3 e^{2b^2} - 3.
    b2 = noise_beta**2
    kurtosis = np.exp(4 * b2) + 2 * np.exp(3 * b2) + 3 * np.exp(2 * b2) - 3
    assert rewards.std() == pytest.approx(problem.noise_std[arm], rel=5 * np.sqrt((kurtosis - 1) / (4 * n)))
    assert problem.lam_p90 == pytest.approx(np.percentile(problem.noise_std, 90))


def test_seeded_pulls_are_reproducible_and_shaped_like_indices(problems):
    problem = problems[104]
    indices = np.arange(12).reshape(3, 4)
    first = problem.pull(indices, np.random.default_rng(5))
    assert first.shape == (3, 4)
    np.testing.assert_array_equal(first, problem.pull(indices, np.random.default_rng(5)))
    assert not np.array_equal(first, problem.pull(indices, np.random.default_rng(6)))


@pytest.mark.parametrize(
    "options, parameter",
    [
        ({"function_id": 5}, "function_id"),
        ({"function_id": "f104"}, "function_id"),
        ({"function_id": 104, "noise_beta": -0.1}, "noise_beta"),
        ({"function_id": 104, "noise_beta": float("nan")}, "noise_beta"),
        ({"function_id": 104, "instance": -1}, "instance"),
    ],
)
def test_bad_arguments_raise_value_error_naming_the_parameter(options, parameter):
    with pytest.raises(ValueError, match=parameter):
        BBOBGrid(**options)


@pytest.mark.parametrize("indices", [N_ARMS, -1, [0.5]])
def test_bad_indices_raise_value_error_naming_the_parameter(problems, indices):
    with pytest.raises(ValueError, match="indices"):
        problems[104].pull(indices, np.random.default_rng(0))


@pytest.mark.parametrize(
    "function_id, ours",
    [
        (104, test_functions.BBOBRosenbrock),
        (116, test_functions.BBOBEllipsoid),
        (122, test_functions.BBOBSchafferF7),
        (3, test_functions.BBOBSeparableRastrigin),
    ],
)
def test_project_bbob_functions_equal_pycma_given_its_instance(problems, function_id, ours):
    """common.test_functions draws its own instances; with pycma's x_opt and rotations it is the same function."""
    problem, reference = problems[function_id], reference_function(function_id)
    without_touching_global_rng(lambda: reference._evalfull(problem.arms))  # sets x_opt and the rotations
    function = ours(3, rng=0)
    function.x_opt = reference.xopt
    if hasattr(reference, "rotation"):
        # pycma multiplies row vectors on the right: z = x @ rotation, i.e. R = rotation^T.
        function.rotation_R = reference.rotation.T
    if hasattr(reference, "linearTF"):
        function.rotation_Q = bbobbenchmarks.compute_rotation(reference.rseed, 3).T
    np.testing.assert_allclose(-function(problem.arms), problem.f_raw, rtol=1e-12, atol=1e-10)
