"""Tests of common.test_functions: declared optima, shapes, wrappers, registry."""
import numpy as np
import pytest
from scipy.optimize import minimize

from common.test_functions import (
    TEST_FUNCTIONS,
    AdditiveTrimodal,
    BBOBEllipsoid,
    BBOBRosenbrock,
    Branin,
    DropWave,
    EgpTsAckley,
    Eggholder,
    Griewank,
    Hartmann6,
    Rastrigin,
    ScaledFunction,
    Trimodal,
    bbob_gaussian_noise,
    bbob_gaussian_noise_std,
    get_test_function,
    on_unit_cube,
)

# One instance per registered function (the papers' settings where they have
# one), plus variants whose optimum is declared differently.
CASES = {
    "ackley-d2": lambda: get_test_function("ackley", dim=2),
    "ackley-d10": lambda: get_test_function("ackley", dim=10),
    "ackley_egp_ts": lambda: get_test_function("ackley_egp_ts"),
    "zakharov-d4": lambda: get_test_function("zakharov", dim=4),
    "dropwave": lambda: get_test_function("dropwave"),
    "eggholder": lambda: get_test_function("eggholder"),
    "griewank-d2": lambda: get_test_function("griewank", dim=2),
    "griewank-d2-small-box": lambda: get_test_function("griewank", dim=2, bounds=[[-5, 5]] * 2),
    "hartmann6": lambda: get_test_function("hartmann6"),
    "rastrigin-d2": lambda: get_test_function("rastrigin", dim=2),
    "rastrigin-d10": lambda: get_test_function("rastrigin", dim=10),
    "levy-d10": lambda: get_test_function("levy", dim=10),
    "branin": lambda: get_test_function("branin"),
    "trimodal-d2": lambda: get_test_function("trimodal", dim=2),
    "trimodal-d5-paper": lambda: get_test_function("trimodal", dim=5, variant="paper"),
    "additive_trimodal-10-3-3": lambda: get_test_function(
        "additive_trimodal", dim=10, group_dim=3, rng=0
    ),
    "additive_trimodal-24-6-4-paper": lambda: get_test_function(
        "additive_trimodal", dim=24, group_dim=6, rng=1, variant="paper"
    ),
    "bbob_rosenbrock-d3": lambda: get_test_function("bbob_rosenbrock", dim=3, rng=1),
    "bbob_ellipsoid-d3": lambda: get_test_function("bbob_ellipsoid", dim=3, rng=1),
    "bbob_schaffer_f7-d3": lambda: get_test_function("bbob_schaffer_f7", dim=3, rng=1),
    "bbob_rastrigin_separable-d3": lambda: get_test_function(
        "bbob_rastrigin_separable", dim=3, rng=1
    ),
    "scaled-hartmann6": lambda: ScaledFunction(Hartmann6()),
    "scaled-branin": lambda: ScaledFunction(Branin()),
    "unit-cube-eggholder": lambda: on_unit_cube(Eggholder()),
}
FUNCTIONS = {case: make() for case, make in CASES.items()}
parametrize_functions = pytest.mark.parametrize(
    "function", list(FUNCTIONS.values()), ids=list(FUNCTIONS)
)


def _tolerance(function):
    return 1e-9 * max(1.0, abs(function.optimal_value))


def _uniform(function, n, seed):
    low, high = function.bounds[:, 0], function.bounds[:, 1]
    return np.random.default_rng(seed).uniform(low, high, size=(n, function.dim))


def test_every_registered_function_has_a_case():
    covered = {function.name for function in FUNCTIONS.values()}
    assert set(TEST_FUNCTIONS) <= covered


@parametrize_functions
def test_optimizers_attain_the_optimal_value(function):
    np.testing.assert_allclose(
        function(function.optimizers), function.optimal_value, rtol=1e-9, atol=1e-9
    )


@parametrize_functions
def test_no_sampled_point_exceeds_the_optimal_value(function):
    values = function(_uniform(function, 20_000, seed=0))
    assert values.max() <= function.optimal_value + _tolerance(function)


@parametrize_functions
def test_local_optimization_does_not_exceed_the_optimal_value(function):
    best = -np.inf
    for start in _uniform(function, 20, seed=1):
        result = minimize(
            lambda x: -function(x)[0], start, method="L-BFGS-B", bounds=function.bounds
        )
        best = max(best, -result.fun)
    assert best <= function.optimal_value + _tolerance(function)


@parametrize_functions
def test_declared_domain_and_optimizers_are_consistent(function):
    assert function.bounds.shape == (function.dim, 2)
    assert function.optimizers.ndim == 2 and function.optimizers.shape[1] == function.dim
    assert np.all(function.optimizers >= function.bounds[:, 0])
    assert np.all(function.optimizers <= function.bounds[:, 1])
    assert isinstance(function.negated, bool)


@parametrize_functions
def test_output_has_one_value_per_row(function):
    assert function(_uniform(function, 7, seed=2)).shape == (7,)


@parametrize_functions
def test_single_point_gives_shape_one(function):
    assert function(function.optimizers[0]).shape == (1,)


@parametrize_functions
def test_wrong_input_shape_names_X_and_the_shapes(function):
    wrong = np.zeros((3, function.dim + 1))
    with pytest.raises(ValueError, match=rf"X must have shape \(n, {function.dim}\).*\(3, "):
        function(wrong)


def test_minimization_problems_are_negated():
    assert Rastrigin(2).negated
    assert Rastrigin(2)(np.ones((1, 2)))[0] < 0


def test_egp_ts_ackley_maximum_is_the_corrected_one():
    function = EgpTsAckley()
    assert not function.negated
    assert len(function.optimizers) == 10
    assert abs(function.optimal_value - 4.710965) < 1e-6


def test_egp_ts_ackley_paper_optimizer_is_below_the_true_maximum():
    function = EgpTsAckley()
    paper_value = function(function.paper_optimizer)[0]
    assert abs(paper_value - 4.6926) < 1e-4
    assert function.paper_optimal_value == 4.6930
    assert function.optimal_value > function.paper_optimal_value > paper_value


def test_eggholder_matches_egp_ts_table_1():
    assert abs(Eggholder()([512.0, 404.2319])[0] - 959.6407) < 1e-3


def test_hartmann6_matches_the_published_maximum():
    assert abs(Hartmann6().optimal_value - 3.32237) < 1e-5


def test_branin_matches_the_published_minimum():
    assert abs(Branin().optimal_value + 0.397887) < 1e-6


# (d', f_{d'}(c_2), f_{d'}(0)) from the add_gp_ucb spec §4.1 (code variant).
TRIMODAL_TABLE = [
    (2, 2.474835, -14.730),
    (3, 3.763004, -14.376),
    (5, 6.292730, -14.016),
    (11, 13.678126, -13.612),
    (55, 64.857251, -11.574),
]


@pytest.mark.parametrize("group_dim, maximum, centre_value", TRIMODAL_TABLE)
def test_trimodal_maximum_matches_the_spec_table(group_dim, maximum, centre_value):
    assert abs(Trimodal(group_dim).optimal_value - maximum) < 1e-6


@pytest.mark.parametrize("group_dim, maximum, centre_value", TRIMODAL_TABLE)
def test_trimodal_centre_value_matches_the_spec_table(group_dim, maximum, centre_value):
    assert abs(Trimodal(group_dim)(np.zeros(group_dim))[0] - centre_value) < 1e-3


def test_trimodal_grid_argmax_is_the_global_mode():
    # add_gp_ucb Figure 2: 200 x 200 grid on [-1, 1]^2, argmax within a cell of c_2.
    axis = np.linspace(-1.0, 1.0, 200)
    grid = np.stack(np.meshgrid(axis, axis, indexing="ij"), axis=-1).reshape(-1, 2)
    argmax = grid[np.argmax(Trimodal(2)(grid))]
    assert np.all(np.abs(argmax - [0.18, 0.58]) <= axis[1] - axis[0])


@pytest.mark.parametrize(
    "dim, group_dim, optimal_value",
    [(10, 3, 11.289013), (24, 6, 30.164832), (40, 35, 41.982627), (120, 55, 129.714502)],
)
def test_additive_trimodal_optimum_matches_the_spec_table(dim, group_dim, optimal_value):
    function = AdditiveTrimodal(dim, group_dim, rng=3)
    assert abs(function.optimal_value - optimal_value) < 1e-6
    assert abs(function(function.optimizers)[0] - optimal_value) < 1e-6


@pytest.mark.parametrize("variant", ["code", "paper"])
def test_additive_trimodal_is_the_sum_of_its_group_functions(variant):
    function = AdditiveTrimodal(24, 6, rng=0, variant=variant)
    X = _uniform(function, 50, seed=4)
    group_sum = sum(function.group_function(X[:, group]) for group in function.groups)
    np.testing.assert_allclose(function(X), group_sum, rtol=1e-12)


def test_additive_trimodal_groups_are_disjoint_blocks():
    function = AdditiveTrimodal(10, 3, rng=0)
    assert function.groups.shape == (3, 3)
    assert len(np.unique(function.groups)) == 9


def test_additive_trimodal_ignores_the_ungrouped_coordinates():
    function = AdditiveTrimodal(10, 3, rng=0)
    (ignored,) = np.setdiff1d(np.arange(10), function.groups.ravel())
    X = _uniform(function, 20, seed=5)
    moved = X.copy()
    moved[:, ignored] = -X[:, ignored]
    np.testing.assert_array_equal(function(X), function(moved))


def test_additive_trimodal_instance_is_determined_by_the_seed():
    first, again = AdditiveTrimodal(40, 5, rng=7), AdditiveTrimodal(40, 5, rng=7)
    np.testing.assert_array_equal(first.groups, again.groups)
    assert not np.array_equal(first.groups, AdditiveTrimodal(40, 5, rng=8).groups)


def test_additive_trimodal_rejects_too_many_groups():
    with pytest.raises(ValueError, match="n_groups"):
        AdditiveTrimodal(10, 3, rng=0, n_groups=4)


@pytest.mark.parametrize("base", [Hartmann6(), Branin(), Eggholder()], ids=lambda f: f.name)
def test_scaled_optimizers_map_back_to_the_base_optimizers(base):
    scaled = ScaledFunction(base)
    np.testing.assert_allclose(
        scaled.to_original(scaled.optimizers), base.optimizers, rtol=1e-12, atol=1e-12
    )


def test_scaled_function_evaluates_the_base_at_the_mapped_point():
    base = Hartmann6()
    scaled = ScaledFunction(base, bounds=[[-3.0, 5.0]] * 6)
    U = _uniform(scaled, 30, seed=6)
    np.testing.assert_array_equal(scaled(U), base(scaled.to_original(U)))
    np.testing.assert_allclose(scaled.from_original(scaled.to_original(U)), U, atol=1e-12)


@pytest.mark.parametrize(
    "base", [DropWave(), Griewank(2), Rastrigin(2)], ids=lambda f: f.name
)
def test_scaled_centre_hits_the_centred_optimum_exactly(base):
    # bo_pp: DIRECT samples the exact box centre, where regret must be exactly 0.
    assert ScaledFunction(base)(np.zeros(2))[0] == base.optimal_value


def test_on_unit_cube_spans_zero_to_one():
    function = on_unit_cube(Branin())
    np.testing.assert_array_equal(function.bounds, [[0.0, 1.0], [0.0, 1.0]])
    np.testing.assert_allclose(function.to_original([[0.0, 1.0]]), [[-5.0, 15.0]])


def test_registry_lists_the_allowed_names_for_an_unknown_name():
    with pytest.raises(ValueError, match="name must be one of .*'rastrigin'"):
        get_test_function("rosenbrok", dim=2)


def test_registry_requires_dim_for_any_dimension_functions():
    with pytest.raises(ValueError, match="dim is required"):
        get_test_function("ackley")


def test_registry_rejects_a_wrong_fixed_dimension():
    with pytest.raises(ValueError, match="dim of hartmann6 must be 6"):
        get_test_function("Hartmann6", dim=5)


def test_bounds_must_contain_the_optimizer():
    with pytest.raises(ValueError, match="bounds must contain"):
        Griewank(2, bounds=[[1.0, 2.0], [1.0, 2.0]])


def test_bbob_instance_is_determined_by_the_seed():
    np.testing.assert_array_equal(BBOBEllipsoid(3, rng=5).x_opt, BBOBEllipsoid(3, rng=5).x_opt)
    assert not np.array_equal(BBOBEllipsoid(3, rng=5).x_opt, BBOBEllipsoid(3, rng=6).x_opt)


def test_bbob_noise_std_matches_its_analytic_value():
    values = np.full(200_000, -2.0)
    noisy = bbob_gaussian_noise(values, beta=0.1, rng=np.random.default_rng(0))
    np.testing.assert_allclose(noisy.std(), bbob_gaussian_noise_std(values, 0.1)[0], rtol=0.02)


def test_bbob_noise_leaves_the_optimum_noise_free():
    function = BBOBRosenbrock(3, rng=0)
    value = function(function.optimizers)
    assert bbob_gaussian_noise(value, beta=1.0, rng=np.random.default_rng(0))[0] == value[0]
