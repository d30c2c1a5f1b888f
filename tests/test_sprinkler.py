"""Tests of the garden sprinkler model (common.problems.sprinkler), spec random_exploration.md Sec. 4.3."""
import numpy as np
import pytest

from common.problems import GardenSprinkler, sprinkler_outputs

# Spec Sec. 4.3: inputs and (consumption, throw distance, rotation rate); the first row is
# the CompModels help-page example.
TEST_VECTORS = [
    ((33, 18, 2e-6, 0.18, 0.015, 0.0199, 1.54, 7.5), (4.218397, 5.321142, 3.124046)),
    ((45, 45, 3e-6, 0.15, 0.015, 0.015, 1.5, 7.5), (6.199856, 6.074413, 2.759676)),
    ((30, 10, 3e-6, 0.15, 0.012, 0.012, 1.8, 8), (6.926288, 6.269642, 8.059477)),
    ((0, 0, 4e-6, 0.2, 0.01, 0.01, 2, 10), (11.221762, 0.216981, 19.684746)),
    ((0.0085, 0.0023, 4e-6, 0.2, 0.01, 0.01, 2.0, 9.6868), (11.275116, 0.217359, 19.830715)),
    ((0, 0, 2e-6, 0.1, 0.01, 0.01, 1, 5), (3.313559, 0.253444, 2.572413)),
]


@pytest.fixture(scope="module")
def sprinkler():
    return GardenSprinkler()


def uniform_points(bounds, n, seed):
    bounds = np.asarray(bounds)
    return bounds[:, 0] + np.random.default_rng(seed).random((n, len(bounds))) * (bounds[:, 1] - bounds[:, 0])


@pytest.mark.parametrize("x, expected", TEST_VECTORS)
def test_outputs_reproduce_spec_test_vectors(x, expected):
    # The spec prints 6 decimals, so agreement is up to half a unit in the last place.
    np.testing.assert_allclose(sprinkler_outputs(x), expected, rtol=0, atol=1e-6)


def test_objective_is_the_rotation_rate(sprinkler):
    X = np.array([x for x, _ in TEST_VECTORS])
    np.testing.assert_array_equal(sprinkler(X), [sprinkler_outputs(x)[2] for x in X])


def test_best_known_value_is_attained_at_best_known_x(sprinkler):
    assert sprinkler(sprinkler.best_known_x[None, :])[0] == pytest.approx(sprinkler.best_known_value, abs=1e-9)


def test_no_random_point_exceeds_best_known_value(sprinkler):
    values = sprinkler(uniform_points(sprinkler.bounds, 20_000, seed=0))
    assert values.max() <= sprinkler.best_known_value + 1e-4


def test_head_does_not_turn_when_both_angles_exceed_80_degrees(sprinkler):
    # There the Stage-1 torque is below 0.32 cos(80 deg)^2 < 0.0097 < M_t.
    bounds = sprinkler.bounds.copy()
    bounds[:2] = [80.0, 90.0]
    values = sprinkler(uniform_points(bounds, 2_000, seed=1))
    assert np.all(values == 0.0)


@pytest.mark.parametrize("shape", [(8,), (3, 7), (2, 9), (1, 8, 1)])
def test_wrong_shape_raises_naming_the_problem(sprinkler, shape):
    with pytest.raises(ValueError, match=r"shape \(n, 8\) for sprinkler"):
        sprinkler(np.full(shape, 1.0))


@pytest.mark.parametrize("column, value", [(0, 90.1), (2, 1e-6), (6, np.nan)])
def test_outside_the_box_raises_naming_the_problem(sprinkler, column, value):
    X = np.array([TEST_VECTORS[0][0], TEST_VECTORS[1][0]], dtype=float)
    X[1, column] = value
    with pytest.raises(ValueError, match="inside the box of sprinkler.*row 1"):
        sprinkler(X)


def test_rounding_outside_the_box_is_clipped(sprinkler):
    x = np.array([TEST_VECTORS[3][0]], dtype=float)
    nudged = x.copy()
    nudged[0, 0] -= 1e-12 * 90.0
    assert sprinkler(nudged)[0] == sprinkler(x)[0]


def test_bounds_match_the_paper_domain(sprinkler):
    expected = [[0, 90], [0, 90], [2e-6, 4e-6], [0.1, 0.2], [0.01, 0.02], [0.01, 0.02], [1, 2], [5, 10]]
    np.testing.assert_array_equal(sprinkler.bounds, expected)


def test_interface_attributes(sprinkler):
    assert (sprinkler.name, sprinkler.dim, sprinkler.optimal_value, sprinkler.substitute) == (
        "sprinkler", 8, None, False
    )
