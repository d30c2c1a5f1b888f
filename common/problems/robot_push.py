"""Robot pushing in 3 and 4 dimensions (Box2D), as used by Lu, Polyzos, Li & Giannakis (EGP-TS).

The task is Wang & Jegelka (2017), "Max-value entropy search for efficient
Bayesian optimization" (ICML), as used in Sec. 6.2, Fig. 3 and Fig. 7 of Lu,
Polyzos, Li & Giannakis, "Surrogate modeling for Bayesian optimization beyond a
single Gaussian process" (EGP-TS): a rectangular hand is placed on a table and
pushes a round object for a while; the inputs are where the hand starts, how
long it pushes and (4-D) its angle, and the objective rewards an object that
ends near a goal. This module is an independent implementation on the
``Box2D`` package (pip ``box2d``), written from the physical setup listed in
the reproduction spec (``egp_ts.md`` Sec. 4); the EGP-TS paper itself gives no
simulator detail beyond "following [51]".

================  =======================================================================
item              setup
================  =======================================================================
world             gravity (0, 0), sleeping allowed; time step 1/100 s; 10 velocity and
                  10 position iterations per step
table (base)      static box of half-size (500, 500) at the origin
object            dynamic circle, radius 1, at (0, 0); density 0.05, friction 0.01;
                  friction joint to the table with max force 5, max torque 2
hand              dynamic rectangle, half-size (0.3, 1), at (r_x, r_y) with angle theta0;
                  density 0.1, friction 0.1; friction joint to the table with max force 2,
                  max torque 2
control           while pushing, every step: torque ``m (0 - omega) 30`` and force
                  ``m (v_des - v) 30`` at the hand's position (m: hand mass), then a step
3-D input         ``(r_x, r_y, t_push)`` in [-5, 5] x [-5, 5] x [1, 30];
                  ``theta0 = arctan(r_y / r_x)``; ``v_des = 5 u + eps``
4-D input         ``(r_x, r_y, t_push, r_theta)``, ``r_theta`` in [0, 2 pi];
                  ``theta0 = r_theta``; ``v_des = 10 u + eps``
noise             ``eps ~ N(0, 0.1^2 I_2)``, drawn once per push from the caller's generator
duration          ``steps = int(10 t_push)`` pushing steps, then 100 steps without control
objective         ``f(x) = 5 - ||g - p(x)||`` (maximised), ``p``: the object's final
                  position, goal ``g`` uniform in [-5, 5]^2 (one per repetition)
================  =======================================================================

Here ``u = -(r_x, r_y) / ||(r_x, r_y)||`` is the unit vector from the hand's
start towards the object's start, the origin. Choices where the spec leaves
room (each is tested in ``tests/test_robot_push.py``):

* The 3-D direction ``(object - hand) / ||object - hand||`` is evaluated once,
  at the start positions (hand at ``(r_x, r_y)``, object at the origin), like
  the noise; it is not re-aimed during the push. So 3-D and 4-D push along the
  same line, at speeds 5 and 10.
* ``r_x = 0`` in 3-D gives ``theta0 = pi / 2``. The rectangle is symmetric under
  a half turn, so ``+pi/2`` and ``-pi/2`` (and ``arctan`` against ``arctan2``)
  give the same body: in 3-D the hand always faces the object with its long
  side (2 units) across the push direction.
* ``(r_x, r_y) = (0, 0)`` (the centre of the box, reachable by an optimiser on
  the unit cube) has no direction: ``u = 0`` is used, so the commanded velocity
  is the noise alone. The hand then starts inside the object and Box2D pushes
  the two apart; the outcome is finite and reproducible. (The hand overlaps the
  object at the start whenever ``||(r_x, r_y)||`` is below about 2; Box2D
  separates them in the first steps.)
* In 4-D, ``r_theta`` is independent of the push direction, so the hand may
  strike the object with its narrow side or a corner; in 3-D it always pushes
  with the middle of its long side.
* The table's box takes no part in collisions: Box2D does not collide two
  bodies joined by a joint (``collideConnected`` is False), and both the hand
  and the object are joined to it by their friction joints. It acts only
  through those joints, as the top-down friction of the table.
* The inputs are used as given (no rounding); ``t_push`` enters only through
  ``int(10 t_push)``, so ``f`` is piecewise constant in it, on steps of 0.1.
  With time steps of 0.01 s, ``t_push`` counts tenths of a second: the
  hand is driven for ``t_push / 10`` s (0.1 to 3 s), then 1 s follows without
  control, enough for both bodies to come to rest (the friction joints stop the
  hand within 0.6 s even from speed 10).
* The controller's torque is scaled by the hand's mass, not its moment of
  inertia, as the spec states; it only holds the hand's angle.

Consequences of the setup, checked by the tests: a free hand cruises at
``|v_des| - 2 / (30 m) = |v_des| - 0.556`` (hand mass ``m = 0.12``), hand and
object pushed together at ``|v_des| - 7 / (30 m)`` (3.06 in 3-D), and after the
push they glide to rest at ``7 / (0.12 + 0.05 pi) = 25.3`` units/s^2. A long
straight push moves the object about 7-9 units in 3-D and 23-24 in 4-D, so in
4-D many pushes end far outside the goal box and ``f`` is strongly negative.

The evaluation is stochastic only through ``eps``; with the same generator
state it is bit-identical (Box2D is deterministic within one build).
"""
import math

import numpy as np
from Box2D import b2

from common.problems.tuning import inputs_in_box
from common.seeding import make_rng

__all__ = ["push_object", "RobotPush"]

TIME_STEP = 1.0 / 100.0
VELOCITY_ITERATIONS = 10
POSITION_ITERATIONS = 10
TABLE_HALF_SIZE = (500.0, 500.0)
OBJECT_RADIUS = 1.0
OBJECT_DENSITY = 0.05
OBJECT_FRICTION = 0.01
OBJECT_MAX_FORCE = 5.0
OBJECT_MAX_TORQUE = 2.0
HAND_HALF_SIZE = (0.3, 1.0)
HAND_DENSITY = 0.1
HAND_FRICTION = 0.1
HAND_MAX_FORCE = 2.0
HAND_MAX_TORQUE = 2.0
FORCE_UNIT = 30.0
STEPS_PER_UNIT_TIME = 10
SETTLING_STEPS = 100
PUSH_SPEED = {3: 5.0, 4: 10.0}
VELOCITY_NOISE = 0.1
GOAL_BOUNDS = np.array([[-5.0, 5.0], [-5.0, 5.0]])


def _as_generator(rng):
    """A Generator from a Generator or an integer seed (``common.seeding.make_rng(seed)``)."""
    if isinstance(rng, np.random.Generator):
        return rng
    if isinstance(rng, (int, np.integer)) and not isinstance(rng, bool):
        return make_rng(int(rng))
    raise ValueError(f"rng must be a numpy.random.Generator or an integer seed; got {type(rng).__name__}: {rng!r}")


def _push_setup(x, rng, velocity_noise):
    """Validated ``(r_x, r_y, steps, theta0, v_des)`` of one push; draws the velocity noise."""
    x = np.asarray(x, dtype=float)
    if x.shape not in ((3,), (4,)):
        raise ValueError(f"x must have 3 entries (r_x, r_y, t_push) or 4 (r_x, r_y, t_push, r_theta); "
                         f"got shape {x.shape}")
    for name, value in zip(("r_x", "r_y", "t_push", "r_theta"), x):
        if not np.isfinite(value):
            raise ValueError(f"{name} must be finite; got {value}")
    if x[2] < 0.0:
        raise ValueError(f"t_push must be >= 0 (the push lasts int(10 t_push) steps); got {x[2]}")
    if not (np.isfinite(velocity_noise) and velocity_noise >= 0.0):
        raise ValueError(f"velocity_noise must be a finite standard deviation >= 0; got {velocity_noise!r}")
    rng = _as_generator(rng)
    r_x, r_y, t_push = float(x[0]), float(x[1]), float(x[2])
    steps = int(STEPS_PER_UNIT_TIME * t_push)
    if len(x) == 3:
        theta0 = math.pi / 2.0 if r_x == 0.0 else math.atan(r_y / r_x)
    else:
        theta0 = float(x[3])
    norm = math.hypot(r_x, r_y)
    direction = (-r_x / norm, -r_y / norm) if norm > 0.0 else (0.0, 0.0)
    noise = rng.normal(0.0, 1.0, size=2) * velocity_noise
    speed = PUSH_SPEED[len(x)]
    v_des = (speed * direction[0] + float(noise[0]), speed * direction[1] + float(noise[1]))
    return r_x, r_y, steps, theta0, v_des


def push_object(x, rng, trajectory=False, velocity_noise=VELOCITY_NOISE):
    """Simulate one push and return the object's final position.

    The world of the module table is built afresh: object at the origin, hand
    at ``(r_x, r_y)`` with angle ``theta0``. The velocity noise is drawn first
    (two standard normals from ``rng``, times ``velocity_noise``). Then, for
    ``steps + 100`` steps of 0.01 s, the controller acts during the first
    ``steps = int(10 t_push)`` (torque ``m (0 - omega) 30``, force
    ``m (v_des - v) 30`` at the hand's position, ``m`` the hand's mass) and the
    world steps. After the push the two bodies slide to a stop on the friction
    joints (the hand within about 0.3 s at speed 5, 0.6 s at speed 10).

    Parameters
    ----------
    x : sequence of 3 or 4 floats
        ``(r_x, r_y, t_push)`` (3-D task) or ``(r_x, r_y, t_push, r_theta)``
        (4-D task); see the module table and docstring for ``theta0`` and
        ``v_des``. Not checked against the task's box; ``t_push`` must be >= 0
        (in tenths of a simulated second: ``int(10 t_push)`` steps of 0.01 s).
    rng : numpy.random.Generator or int
        Source of the velocity noise (two normal draws); an integer is a seed
        for :func:`common.seeding.make_rng`.
    trajectory : bool
        Also return the recorded states.
    velocity_noise : float
        Standard deviation of each component of the noise added to ``v_des``;
        0.1 in the task, 0 for a noise-free push (two draws are still made).

    Returns
    -------
    position : ndarray of shape (2,)
        The object's final position.
    states : dict, only if ``trajectory``
        ``"v_des"`` (2,), ``"steps"`` (int), ``"theta0"`` (float) and, at the
        start and after each of the ``steps + 100`` world steps (``k + 1`` rows,
        row 0 the start): ``"hand"`` and ``"object"`` (k + 1, 2) positions,
        ``"hand_angle"`` (k + 1,), ``"hand_velocity"`` and
        ``"object_velocity"`` (k + 1, 2), and ``"touching"`` (k + 1,) bool,
        whether the hand and the object are in contact.
    """
    r_x, r_y, steps, theta0, v_des = _push_setup(x, rng, velocity_noise)

    world = b2.world(gravity=(0.0, 0.0), doSleep=True)
    table = world.CreateStaticBody(position=(0.0, 0.0), shapes=b2.polygonShape(box=TABLE_HALF_SIZE))
    thing = world.CreateDynamicBody(position=(0.0, 0.0))
    thing.CreateCircleFixture(radius=OBJECT_RADIUS, density=OBJECT_DENSITY, friction=OBJECT_FRICTION)
    world.CreateFrictionJoint(bodyA=table, bodyB=thing, maxForce=OBJECT_MAX_FORCE, maxTorque=OBJECT_MAX_TORQUE)
    hand = world.CreateDynamicBody(position=(r_x, r_y), angle=theta0)
    hand.CreatePolygonFixture(box=HAND_HALF_SIZE, density=HAND_DENSITY, friction=HAND_FRICTION)
    world.CreateFrictionJoint(bodyA=table, bodyB=hand, maxForce=HAND_MAX_FORCE, maxTorque=HAND_MAX_TORQUE)

    gain = hand.mass * FORCE_UNIT
    total = steps + SETTLING_STEPS
    if trajectory:
        record = {key: [] for key in ("hand", "object", "hand_angle", "hand_velocity", "object_velocity", "touching")}

        def snapshot():
            record["hand"].append(tuple(hand.position))
            record["object"].append(tuple(thing.position))
            record["hand_angle"].append(hand.angle)
            record["hand_velocity"].append(tuple(hand.linearVelocity))
            record["object_velocity"].append(tuple(thing.linearVelocity))
            record["touching"].append(any(edge.other == hand and edge.contact.touching for edge in thing.contacts))

        snapshot()
    for step in range(total):
        if step < steps:
            velocity = hand.linearVelocity
            hand.ApplyTorque(gain * (0.0 - hand.angularVelocity), True)
            hand.ApplyForce((gain * (v_des[0] - velocity[0]), gain * (v_des[1] - velocity[1])), hand.position, True)
        world.Step(TIME_STEP, VELOCITY_ITERATIONS, POSITION_ITERATIONS)
        if trajectory:
            snapshot()
    position = np.array([thing.position[0], thing.position[1]])
    if not trajectory:
        return position
    states = {key: np.array(value) for key, value in record.items()}
    states.update(v_des=np.array(v_des), steps=steps, theta0=theta0)
    return position, states


class RobotPush:
    """Push the object towards a goal: ``f(x) = 5 - ||g - p(x)||``, to be maximised (EGP-TS Sec. 6.2).

    ``p(x)`` is the object's final position after :func:`push_object` with the
    velocity noise drawn from the caller's generator, so ``f`` is a noisy
    objective. ``f <= 5``, and ``f`` is far below 0 for pushes that send the
    object away from the goal (a 4-D push moves it up to about 25 units).

    Parameters
    ----------
    dim : {3, 4}
        3: inputs ``(r_x, r_y, t_push)``; 4: ``(r_x, r_y, t_push, r_theta)``.
    goal : sequence of 2 floats
        Goal position ``g`` in [-5, 5]^2. Draw one per repetition with
        :meth:`random_goal` or :meth:`with_random_goal`.

    Attributes
    ----------
    name : str
        ``robot_push_3d`` or ``robot_push_4d``.
    dim : int
    bounds : ndarray of shape (dim, 2)
        ``[-5, 5] x [-5, 5] x [1, 30] (x [0, 2 pi])``, the physical box.
    parameter_names : tuple of str
    goal : ndarray of shape (2,)
    optimal_value : float
        5.0, an upper bound: it assumes that some push ends exactly on the
        goal (spec U18), so the simple regret ``5 - max f`` is the best
        distance reached. Not shown to be attained.
    substitute : bool
        False: the paper's simulator, reimplemented.
    data_note : str
    """

    optimal_value = 5.0
    substitute = False
    data_note = (
        "Robot pushing of Wang & Jegelka (2017) reimplemented on Box2D (pip box2d) from the physical setup in the "
        "spec; the evaluation is noisy through the commanded velocity, seeded by the caller's generator."
    )

    def __init__(self, dim=3, goal=(0.0, 0.0)):
        if isinstance(dim, bool) or dim not in (3, 4):
            raise ValueError(f"dim must be 3 (r_x, r_y, t_push) or 4 (adds r_theta); got {dim!r}")
        goal = np.array(goal, dtype=float)
        if goal.shape != (2,):
            raise ValueError(f"goal must be a pair (g_x, g_y); got shape {goal.shape}")
        if not np.all((goal >= GOAL_BOUNDS[:, 0]) & (goal <= GOAL_BOUNDS[:, 1])):
            raise ValueError(f"goal must lie in [-5, 5] x [-5, 5]; got {goal.tolist()}")
        self.dim = int(dim)
        self.goal = goal
        self.name = f"robot_push_{self.dim}d"
        self.parameter_names = ("r_x", "r_y", "t_push", "r_theta")[: self.dim]
        self.bounds = np.array([[-5.0, 5.0], [-5.0, 5.0], [1.0, 30.0], [0.0, 2.0 * math.pi]])[: self.dim]

    @staticmethod
    def random_goal(rng):
        """A goal uniform in [-5, 5]^2 (two uniform draws from ``rng``, a Generator or an int seed)."""
        rng = _as_generator(rng)
        low, high = GOAL_BOUNDS[:, 0], GOAL_BOUNDS[:, 1]
        return low + (high - low) * rng.random(2)

    @classmethod
    def with_random_goal(cls, dim, rng):
        """The task of dimension ``dim`` with the goal :meth:`random_goal` draws from ``rng``."""
        return cls(dim, cls.random_goal(rng))

    def final_positions(self, X, rng):
        """The object's final position after pushing with each row of ``X``.

        Parameters
        ----------
        X : array-like of shape (n, dim)
            Inputs inside ``bounds``; values outside by at most 1e-9 of the box
            width are clipped.
        rng : numpy.random.Generator or int
            The rows are pushed in order, each drawing its velocity noise from
            ``rng``; an integer is a seed for :func:`common.seeding.make_rng`.

        Returns
        -------
        ndarray of shape (n, 2)
        """
        X = inputs_in_box(self, X)
        rng = _as_generator(rng)
        return np.array([push_object(x, rng) for x in X]).reshape(len(X), 2)

    def __call__(self, X, rng):
        """``5 - ||goal - final position||`` at each row of ``X`` (see :meth:`final_positions`).

        Returns
        -------
        ndarray of shape (n,)
        """
        return self.optimal_value - np.linalg.norm(self.final_positions(X, rng) - self.goal, axis=1)

    def __repr__(self):
        return f"{type(self).__name__}(dim={self.dim}, goal={self.goal.tolist()})"
