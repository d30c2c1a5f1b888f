"""Tests of the robot-pushing tasks (common.problems.robot_push), spec egp_ts.md Sec. 4 and U18."""
import math

import numpy as np
import pytest

from common.problems.robot_push import RobotPush, push_object
from common.seeding import make_rng

# The spec's numbers, written out so that a changed constant in the module shows up.
TIME_STEP = 0.01
SETTLING_STEPS = 100
HAND_MASS = 0.1 * (2 * 0.3) * (2 * 1.0)  # density times area: 0.12
HAND_MAX_FORCE = 2.0  # the hand's friction joint
# Farthest point of the hand from its centre plus the object's radius: no contact while the
# centres are farther apart than this.
CONTACT_REACH = 1.0 + math.hypot(0.3, 1.0)


def uniform_points(bounds, n, seed):
    return bounds[:, 0] + np.random.default_rng(seed).random((n, len(bounds))) * (bounds[:, 1] - bounds[:, 0])


def straight_push(dim, r_x, r_y, t_push):
    """A push along the line to the origin; in 4-D with the angle the 3-D task would use."""
    if dim == 3:
        return (r_x, r_y, t_push)
    return (r_x, r_y, t_push, math.pi / 2 if r_x == 0 else math.atan(r_y / r_x))


@pytest.mark.parametrize("x", [(5.0, 5.0, 1.0), (-5.0, 4.5, 1.0), (4.0, -5.0, 1.05), (5.0, 5.0, 1.0, 0.0),
                               (-5.0, -5.0, 1.0, 2.0)])
def test_push_that_cannot_reach_the_object_leaves_it_at_the_origin(x):
    position, states = push_object(x, 0, trajectory=True)
    # Speed while pushing <= |v_des| (each step moves the velocity a fraction of the way towards
    # v_des, and the friction joint only slows it); afterwards the joint decelerates the hand at
    # HAND_MAX_FORCE / mass. So the hand's centre travels at most:
    speed = np.linalg.norm(states["v_des"])
    travel = speed * states["steps"] * TIME_STEP + speed**2 / (2.0 * HAND_MAX_FORCE / HAND_MASS)
    assert travel < math.hypot(x[0], x[1]) - CONTACT_REACH  # the premise: it cannot reach
    assert not states["touching"].any()
    np.testing.assert_array_equal(position, [0.0, 0.0])


@pytest.mark.parametrize("dim, start, direction, min_travel", [
    (3, (-3.0, 0.0), (1.0, 0.0), 7.0),
    (3, (0.0, -3.0), (0.0, 1.0), 7.0),
    (4, (-3.0, 0.0), (1.0, 0.0), 20.0),
    (4, (0.0, -3.0), (0.0, 1.0), 20.0),
])
def test_straight_long_push_moves_the_object_along_the_push(dim, start, direction, min_travel):
    # Velocity noise 0.1 on speed 5 (10) deviates the push by ~0.02 (0.01) rad; over 100 seeds the
    # sideways/forward ratio stays below 0.032, so 0.1 leaves room and still catches a skewed push.
    direction = np.array(direction)
    for seed in range(5):
        position = push_object(straight_push(dim, *start, 30.0), seed)
        along = position @ direction
        sideways = abs(position[0] * direction[1] - position[1] * direction[0])
        assert along > min_travel
        assert sideways < 0.1 * along


@pytest.mark.parametrize("dim", [3, 4])
def test_noise_free_push_along_the_x_axis_stays_on_it(dim):
    # Without velocity noise the setup is mirror-symmetric about the x-axis.
    position, states = push_object(straight_push(dim, -3.0, 0.0, 30.0), 0, trajectory=True, velocity_noise=0.0)
    assert position[0] > 7.0
    assert np.all(states["object"][:, 1] == 0.0) and np.all(states["hand"][:, 1] == 0.0)


@pytest.mark.parametrize("dim", [3, 4])
@pytest.mark.parametrize("start", [(-3.0, 0.0), (-2.0, 1.5), (3.0, 4.0)])
def test_longer_push_moves_the_object_at_least_as_far(dim, start):
    # Same seed, so the same v_des: a longer push repeats the shorter one and goes on.
    direction = -np.array(start) / np.hypot(*start)
    t_push = np.arange(1.0, 30.01, 0.5)
    along = np.array([push_object(straight_push(dim, *start, t), 7) @ direction for t in t_push])
    assert np.all(np.diff(along) >= -1e-9)
    assert along[-1] > along[0] + 5.0


@pytest.mark.parametrize("dim", [3, 4])
def test_object_does_not_move_before_the_hand_touches_it(dim):
    problem = RobotPush(dim)
    X = uniform_points(problem.bounds, 40, seed=3)
    X[:5, 2] = 1.0  # short pushes from afar: some never touch, also in 4-D
    n_touched = 0
    for i, x in enumerate(X):
        _, states = push_object(x, i, trajectory=True)
        touching = states["touching"]
        before = len(touching) if not touching.any() else int(np.argmax(touching))
        np.testing.assert_array_equal(states["object"][:before], 0.0)
        n_touched += touching.any()
    assert 10 <= n_touched < len(X)  # both kinds of push are exercised


@pytest.mark.parametrize("dim, speed", [(3, 5.0), (4, 10.0)])
def test_hand_cruises_at_the_speed_where_control_balances_joint_friction(dim, speed):
    # Force m (v_des - v) 30 = friction HAND_MAX_FORCE  =>  v = |v_des| - HAND_MAX_FORCE / (30 m).
    _, states = push_object(straight_push(dim, -5.0, -5.0, 30.0), 0, trajectory=True, velocity_noise=0.0)
    first_contact = int(np.argmax(states["touching"]))
    cruise = np.linalg.norm(states["hand_velocity"][first_contact - 5:first_contact], axis=1)
    np.testing.assert_allclose(cruise, speed - HAND_MAX_FORCE / (30.0 * HAND_MASS), rtol=1e-6)


@pytest.mark.parametrize("t_push", [1.0, 1.29])
def test_push_lasts_int_10_t_push_steps_then_the_hand_slows_at_joint_friction_over_mass(t_push):
    _, states = push_object((5.0, 5.0, t_push), 0, trajectory=True, velocity_noise=0.0)
    assert states["steps"] == int(10 * t_push)
    speed = np.linalg.norm(states["hand_velocity"], axis=1)
    accelerating = np.diff(speed[:states["steps"] + 1])
    coasting = np.diff(speed[states["steps"]:states["steps"] + 20]) / TIME_STEP
    assert np.all(accelerating > 0)
    np.testing.assert_allclose(coasting, -HAND_MAX_FORCE / HAND_MASS, rtol=1e-5)


def test_contact_begins_when_the_hand_face_meets_the_object_surface():
    # Noise-free 3-D push along +x: the face is 0.3 ahead of the hand's centre, the object's
    # surface 1 from the origin, so contact starts with the centre near x = -1.3 (Box2D adds a
    # 0.01 skin and flags the contact one step late; one step moves the hand by 0.044).
    _, states = push_object((-3.0, 0.0, 30.0), 0, trajectory=True, velocity_noise=0.0)
    first_contact = int(np.argmax(states["touching"]))
    assert states["hand"][first_contact, 0] == pytest.approx(-1.3, abs=0.05)


def test_pushed_pair_cruises_where_control_balances_both_joints():
    # Hand and object move together: m (v_des - v) 30 = 2 (hand joint) + 5 (object joint).
    _, states = push_object((-3.0, 0.0, 30.0), 0, trajectory=True, velocity_noise=0.0)
    steps = states["steps"]
    expected = 5.0 - (2.0 + 5.0) / (30.0 * HAND_MASS)
    np.testing.assert_allclose(states["hand_velocity"][steps - 20:steps + 1, 0], expected, rtol=1e-6)
    np.testing.assert_allclose(states["object_velocity"][steps - 20:steps + 1, 0], expected, rtol=1e-6)


def test_pushed_pair_glides_to_rest_at_joint_friction_over_total_mass():
    # After the push the hand (alone it would slow at 16.7) keeps pressing on the object (alone
    # 31.8), so both slow at (2 + 5) / (0.12 + 0.05 pi).
    _, states = push_object((-3.0, 0.0, 30.0), 0, trajectory=True, velocity_noise=0.0)
    steps = states["steps"]
    object_mass = 0.05 * math.pi * 1.0**2
    for key in ("hand_velocity", "object_velocity"):
        glide = np.diff(states[key][steps:steps + 10, 0]) / TIME_STEP
        np.testing.assert_allclose(glide, -(2.0 + 5.0) / (HAND_MASS + object_mass), rtol=1e-5)


def test_controller_holds_the_hand_heading():
    # A 4-D push that strikes the object with a corner: the contact turns the hand, the torque
    # m (0 - omega) 30 damps the turn (without it the hand turns by about 1 rad here).
    _, states = push_object((-3.0, 0.0, 30.0, math.pi / 4), 0, trajectory=True, velocity_noise=0.0)
    assert states["touching"].any()
    turn = states["hand_angle"][:states["steps"] + 1] - states["hand_angle"][0]
    assert np.abs(turn).max() < 0.4


@pytest.mark.parametrize("x", [(-5.0, -5.0, 30.0), (5.0, 0.3, 30.0, 4.0), (0.5, -0.2, 30.0, 1.0)])
def test_bodies_are_at_rest_at_the_end(x):
    # The 100 settling steps suffice, so the final position does not depend on their number.
    _, states = push_object(x, 0, trajectory=True)
    assert len(states["object"]) == states["steps"] + SETTLING_STEPS + 1
    np.testing.assert_array_equal(states["hand_velocity"][-10:], 0.0)
    np.testing.assert_array_equal(states["object_velocity"][-10:], 0.0)
    np.testing.assert_array_equal(states["object"][-10:], np.repeat(states["object"][-1:], 10, axis=0))


@pytest.mark.parametrize("dim", [3, 4])
def test_same_seed_gives_bit_identical_values(dim):
    problem = RobotPush(dim, goal=(1.0, -2.0))
    X = uniform_points(problem.bounds, 20, seed=4)
    np.testing.assert_array_equal(problem(X, 11), problem(X, 11))
    np.testing.assert_array_equal(problem(X, np.random.default_rng(5)), problem(X, np.random.default_rng(5)))


@pytest.mark.parametrize("dim", [3, 4])
def test_different_seeds_differ_slightly(dim):
    x = straight_push(dim, -3.0, 0.0, 30.0)
    first, second = push_object(x, 0), push_object(x, 1)
    assert not np.array_equal(first, second)
    assert np.linalg.norm(first - second) < 2.0


def test_integer_seed_means_make_rng_and_rows_draw_in_order():
    problem = RobotPush(3, goal=(0.0, 0.0))
    X = uniform_points(problem.bounds, 5, seed=6)
    rng = make_rng(9)
    np.testing.assert_array_equal(problem.final_positions(X, 9), [push_object(x, rng) for x in X])


def test_velocity_noise_is_drawn_once_and_added_to_the_start_direction():
    # 3-D: direction from the hand's start (r_x, r_y) to the object's start (origin), speed 5.
    _, states = push_object((3.0, -4.0, 5.0), 12, trajectory=True)
    noise = make_rng(12).normal(0.0, 1.0, size=2) * 0.1
    np.testing.assert_allclose(states["v_des"], 5.0 * np.array([-0.6, 0.8]) + noise, rtol=0, atol=1e-15)
    _, states = push_object((3.0, -4.0, 5.0, 1.0), 12, trajectory=True)
    np.testing.assert_allclose(states["v_des"], 10.0 * np.array([-0.6, 0.8]) + noise, rtol=0, atol=1e-15)


@pytest.mark.parametrize("x, theta0", [
    ((-3.0, 3.0, 5.0), -math.pi / 4),  # plain arctan of the ratio, not arctan2's 3 pi / 4
    ((2.0, 1.0, 5.0), math.atan(0.5)),
    ((0.0, -3.0, 5.0), math.pi / 2),  # r_x = 0: the chosen pi / 2
    ((0.0, 0.0, 5.0), math.pi / 2),
    ((-3.0, 3.0, 5.0, 2.5), 2.5),  # 4-D: theta0 = r_theta
])
def test_initial_hand_angle(x, theta0):
    _, states = push_object(x, 0, trajectory=True)
    assert states["theta0"] == pytest.approx(theta0, abs=1e-15)
    assert states["hand_angle"][0] == pytest.approx(theta0, abs=1e-6)  # Box2D stores float32


@pytest.mark.parametrize("x", [(0.0, 0.0, 5.0), (0.0, 0.0, 30.0, 1.0)])
def test_hand_at_the_object_centre_is_driven_by_the_noise_alone(x):
    first, states = push_object(x, 3, trajectory=True)
    np.testing.assert_allclose(states["v_des"], make_rng(3).normal(0.0, 1.0, size=2) * 0.1, rtol=0, atol=1e-15)
    assert np.all(np.isfinite(first)) and np.linalg.norm(first) < 5.0
    np.testing.assert_array_equal(push_object(x, 3), first)


@pytest.mark.parametrize("dim", [3, 4])
def test_objective_is_five_minus_distance_to_goal(dim):
    problem = RobotPush(dim, goal=(-2.5, 4.0))
    X = uniform_points(problem.bounds, 15, seed=8)
    positions = problem.final_positions(X, 21)
    values = problem(X, 21)
    np.testing.assert_array_equal(values, 5.0 - np.linalg.norm(positions - problem.goal, axis=1))
    assert np.all(values <= problem.optimal_value)


def test_unmoved_object_scores_five_minus_goal_norm():
    problem = RobotPush(3, goal=(3.0, 4.0))
    assert problem(np.array([[5.0, 5.0, 1.0]]), 0)[0] == 0.0


def test_random_goal_is_uniform_in_the_box_and_reproducible():
    rng = np.random.default_rng(0)
    goals = np.array([RobotPush.random_goal(rng) for _ in range(2000)])
    assert goals.min() >= -5.0 and goals.max() <= 5.0
    assert np.all(goals.min(axis=0) < -4.5) and np.all(goals.max(axis=0) > 4.5)
    assert np.all(np.abs(goals.mean(axis=0)) < 0.3)  # standard error 0.065
    problem = RobotPush.with_random_goal(4, 17)
    assert problem.dim == 4
    np.testing.assert_array_equal(problem.goal, RobotPush.random_goal(17))


@pytest.mark.parametrize("dim", [3, 4])
def test_bounds_and_names(dim):
    problem = RobotPush(dim)
    expected = [[-5, 5], [-5, 5], [1, 30], [0, 2 * math.pi]][:dim]
    np.testing.assert_array_equal(problem.bounds, expected)
    assert problem.parameter_names == ("r_x", "r_y", "t_push", "r_theta")[:dim]
    assert problem.name == f"robot_push_{dim}d" and problem.optimal_value == 5.0


@pytest.mark.parametrize("kwargs, match", [
    (dict(dim=2), "dim must be 3"),
    (dict(dim=True), "dim must be 3"),
    (dict(dim=3, goal=(6.0, 0.0)), "goal must lie in"),
    (dict(dim=3, goal=(np.nan, 0.0)), "goal must lie in"),
    (dict(dim=4, goal=(0.0, 0.0, 0.0)), "goal must be a pair"),
])
def test_bad_problem_arguments_raise(kwargs, match):
    with pytest.raises(ValueError, match=match):
        RobotPush(**kwargs)


@pytest.mark.parametrize("X, match", [
    (np.zeros((2, 4)), r"shape \(n, 3\) for robot_push_3d"),
    (np.zeros(3), r"shape \(n, 3\) for robot_push_3d"),
    (np.array([[0.0, 0.0, 0.5]]), r"inside the box of robot_push_3d .*r_x, r_y, t_push.*row 0"),
    (np.array([[0.0, 0.0, 5.0], [0.0, 5.5, 5.0]]), r"inside the box of robot_push_3d.*row 1"),
])
def test_bad_inputs_raise_naming_the_problem_and_parameters(X, match):
    with pytest.raises(ValueError, match=match):
        RobotPush(3)(X, 0)


def test_rounding_outside_the_box_is_clipped():
    problem = RobotPush(4)
    x = np.array([[5.0, -5.0, 30.0, 0.0]])
    nudged = x + np.array([[1e-12, -1e-12, 1e-11, -1e-12]])
    np.testing.assert_array_equal(problem(nudged, 0), problem(x, 0))


@pytest.mark.parametrize("rng", ["seed", 1.5, None, True])
def test_bad_rng_raises(rng):
    with pytest.raises(ValueError, match="rng must be a numpy.random.Generator or an integer seed"):
        RobotPush(3)(np.array([[1.0, 1.0, 2.0]]), rng)


@pytest.mark.parametrize("x, kwargs, match", [
    ((1.0, 1.0), {}, "x must have 3 entries"),
    ((1.0, 1.0, -0.5), {}, "t_push must be >= 0"),
    ((1.0, np.inf, 2.0), {}, "r_y must be finite"),
    ((1.0, 1.0, 2.0, np.nan), {}, "r_theta must be finite"),
    ((1.0, 1.0, 2.0), dict(velocity_noise=-0.1), "velocity_noise must be"),
])
def test_bad_push_arguments_raise_naming_the_parameter(x, kwargs, match):
    with pytest.raises(ValueError, match=match):
        push_object(x, 0, **kwargs)
