"""Regret and fill-distance metrics."""
import numpy as np
import pytest

from common.metrics import average_cumulative_regret, best_so_far, fill_distance, simple_regret

VALUES = np.random.default_rng(0).normal(size=50)


def test_simple_regret_is_nonnegative_and_nonincreasing():
    regret = simple_regret(VALUES, VALUES.max() + 0.1)
    assert regret.min() >= 0 and np.all(np.diff(regret) <= 0)
    assert regret[-1] == pytest.approx(0.1)


def test_simple_regret_is_below_average_cumulative_regret():
    optimum = VALUES.max() + 0.1
    assert np.all(simple_regret(VALUES, optimum) <= average_cumulative_regret(VALUES, optimum) + 1e-12)


def test_best_so_far_is_running_max():
    np.testing.assert_array_equal(best_so_far([1, 3, 2, 5]), [1, 3, 3, 5])


def test_fill_distance_is_nonincreasing_and_exact_on_a_grid():
    grid = np.stack(np.meshgrid(np.linspace(0, 1, 11), np.linspace(0, 1, 11)), -1).reshape(-1, 2)
    h = fill_distance(np.array([[0.0, 0.0], [1.0, 1.0], [0.5, 0.5]]), grid)
    assert np.all(np.diff(h) <= 0)
    assert h[0] == pytest.approx(np.sqrt(2))
    assert h[-1] == pytest.approx(np.sqrt(0.5))  # the corners (1, 0) and (0, 1)


def test_bad_shapes_raise():
    with pytest.raises(ValueError, match="values"):
        best_so_far(np.zeros((2, 2)))
    with pytest.raises(ValueError, match="columns"):
        fill_distance(np.zeros((3, 2)), np.zeros((3, 3)))
