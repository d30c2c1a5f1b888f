"""Synthetic test functions of the five papers, in the maximize convention.

Every function is a :class:`TestFunction`: calling it on ``X`` of shape ``(n, d)``
returns the noise-free values, shape ``(n,)``, to be **maximized**. A function that
the literature states as a minimization problem is returned negated (its
``negated`` attribute is True), so that e.g. Rastrigin has maximum 0 at the origin.
Each function carries its domain ``bounds`` (shape ``(d, 2)``), its
``optimal_value`` (the maximum over ``bounds``) and ``optimizers`` (every known
global maximizer, shape ``(k, d)``); the tests check these three against dense
sampling and local optimization.

Which paper uses what (spec sections in ``shared/specs``):

========================  =====================================================
paper (notebook key)      functions
========================  =====================================================
``bo_pp``                 Dropwave, Griewank, Hartmann-6, Rastrigin (d = 2, 2, 6,
                          2), every domain scaled to [-1, 1]^d
                          (:class:`ScaledFunction`)
``egp_ts``                Ackley on [0, 1]^5 *not* negated
                          (:class:`EgpTsAckley`), Zakharov (d = 4), Drop-wave,
                          Eggholder
``random_exploration``    Ackley, Rastrigin, Levy (d = 10)
``add_gp_ucb``            additive trimodal family (:class:`AdditiveTrimodal`);
                          Branin and Hartmann-6 check the DIRECT optimizer
``mini_gp_opt``           BBOB Rosenbrock (f104), ellipsoid (f116), Schaffer F7
                          (f122), separable Rastrigin (f3) on [-5, 5]^3, with
                          BBOB's Gaussian noise (:func:`bbob_gaussian_noise`)
========================  =====================================================

:func:`get_test_function` builds any of them by name.
"""

import inspect

from common.test_functions.base import TestFunction
from common.test_functions.classic import (Ackley, EgpTsAckley, Zakharov, DropWave, Eggholder, Griewank, Hartmann6,
                                           Rastrigin, Levy, Branin)
from common.test_functions.trimodal import Trimodal, AdditiveTrimodal
from common.test_functions.bbob import (BBOBRosenbrock, BBOBEllipsoid, BBOBSchafferF7, BBOBSeparableRastrigin,
                                        bbob_gaussian_noise, bbob_gaussian_noise_std)
from common.test_functions.scaled import ScaledFunction, on_unit_cube

# Registry name -> class. A class without a ``dim`` argument has a fixed dimension.
TEST_FUNCTIONS = {cls.name: cls for cls in (Ackley, EgpTsAckley, Zakharov, DropWave, Eggholder, Griewank, Hartmann6,
                                            Rastrigin, Levy, Branin, Trimodal, AdditiveTrimodal, BBOBRosenbrock,
                                            BBOBEllipsoid, BBOBSchafferF7, BBOBSeparableRastrigin)}

__all__ = ["TestFunction", *(cls.__name__ for cls in TEST_FUNCTIONS.values()), "bbob_gaussian_noise",
           "bbob_gaussian_noise_std", "ScaledFunction", "on_unit_cube", "TEST_FUNCTIONS", "get_test_function"]


def get_test_function(name, dim=None, **kwargs):
    """Build a test function by its registry name.

    Parameters
    ----------
    name : str
        A key of ``TEST_FUNCTIONS`` (case-insensitive; "-" and " " count as
        "_").
    dim : int, default=None
        Input dimension. Required for the functions defined in any dimension;
        for a fixed-dimension function it may be omitted or must match.
    **kwargs
        Further arguments of the function's class (e.g. ``bounds``, ``rng``,
        ``group_dim``, ``variant``).

    Returns
    -------
    TestFunction
    """
    key = str(name).lower().replace("-", "_").replace(" ", "_")
    if key not in TEST_FUNCTIONS:
        raise ValueError(
            f"name must be one of {sorted(TEST_FUNCTIONS)}; got {name!r}."
        )
    cls = TEST_FUNCTIONS[key]
    if "dim" in inspect.signature(cls).parameters:
        if dim is None:
            raise ValueError(f"dim is required for {key}, which is defined in any dimension.")
        return cls(dim=dim, **kwargs)
    function = cls(**kwargs)
    if dim is not None and dim != function.dim:
        raise ValueError(f"dim of {key} must be {function.dim} (or None); got {dim!r}.")
    return function
