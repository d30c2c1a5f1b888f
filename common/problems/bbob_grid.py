r"""The synthetic problems of MINI-META (Calandriello et al. 2022, App. B.2, Figures 3 and 4) as finite-arm bandits.

Four BBOB functions (Hansen et al. 2009) in d = 3, restricted to the grid
``A = linspace(-5, 5, 22)^3`` of ``|A| = 22^3 = 10,648`` arms:

===========  ======================  ===========================================  ========================
function_id  name                    BBOB function                                BBOB's own noise
===========  ======================  ===========================================  ========================
104          Rosenbrock f104         Rosenbrock, not rotated                      Gaussian, beta = 0.01
116          Ellipsoid f116          rotated ellipsoid with T_osz, condition 1e4  Gaussian, beta = 1
122          Schaffer f122           Schaffer F7 with T_asy, condition 10         Gaussian, beta = 1
3            Separable Rastrigin f3  Rastrigin with T_osz, T_asy, condition 10    none (noise-free)
===========  ======================  ===========================================  ========================

``BBOB_GRID_FUNCTIONS`` lists them in the panel order (a)-(d) of Figures 3/4,
which the paper does not state (spec ``mini_gp_opt.md`` §3.3).

The noise-free values come from the reference BBOB-2009 Python code in pycma
(``cma.bbobbenchmarks``), evaluated once on the grid: ``f_raw = f - f_opt >= 0``.
The noise is BBOB's Gaussian model (Hansen et al. 2009, noisy functions; pycma
``fGauss``), drawn from the caller's generator instead of numpy's global one:

.. math::
    \tilde f = f_{raw} \exp(\beta\, \mathcal N(0, 1)) + 1.01 \cdot 10^{-8}
    \quad \text{if } f_{raw} \ge 10^{-8}, \text{ else } f_{raw}.

The paper says "all with moderate Gaussian noise", so every function, the
noise-free f3 included, gets BBOB's moderate level beta = 0.01 by default;
BBOB itself uses beta = 1 for f116 and f122 (spec §2.8 item 9, §4.2).
``noise_beta`` sets the level.

Rewards are maximised and affine-normalised by the noise-free values over the
grid (spec §2.7), so that they are O(1):

.. math::
    r = \frac{-\tilde f - m}{s}, \qquad m = \operatorname{mean}_A(-f_{raw}), \quad
    s = \operatorname{std}_A(f_{raw}).

Regret in reward units is BBOB's regret divided by s; the normalised regret
of the figures (spec §2.7) does not depend on m and s.
"""
import numbers

import numpy as np
from cma import bbobbenchmarks

from common.test_functions import bbob_gaussian_noise, bbob_gaussian_noise_std

__all__ = ["BBOB_GRID_FUNCTIONS", "BBOBGrid", "bbob_grid_arms"]

GRID_POINTS = 22
GRID_BOUND = 5.0
DIM = 3

# Panel order (a)-(d) of Figures 3/4 [UNSPEC in the paper].
BBOB_GRID_FUNCTIONS = (104, 116, 122, 3)
_NAMES = {
    104: "Rosenbrock f104",
    116: "Ellipsoid f116",
    122: "Schaffer f122",
    3: "Separable Rastrigin f3",
}


def bbob_grid_arms():
    """The arms ``A = linspace(-5, 5, 22)^3`` in row-major order.

    Arm ``22^2 i + 22 j + k`` is ``(g_i, g_j, g_k)`` with ``g = linspace(-5, 5, 22)``:
    the last coordinate varies fastest (the order of ``itertools.product(g, repeat=3)``).

    Returns
    -------
    arms : ndarray of shape (10648, 3)
    """
    grid = np.linspace(-GRID_BOUND, GRID_BOUND, GRID_POINTS)
    return np.stack(np.meshgrid(grid, grid, grid, indexing="ij"), axis=-1).reshape(-1, DIM)


class BBOBGrid:
    r"""A BBOB function on the grid ``linspace(-5, 5, 22)^3`` as a finite-arm bandit with BBOB's Gaussian noise.

    Pulling arm ``a`` returns the normalised reward (see the module docstring)

    .. math::
        r(a) = \frac{-\tilde f(a) - m}{s}, \qquad
        \tilde f(a) = f_{raw}(a)\, e^{\beta Z} + 1.01 \cdot 10^{-8}, \quad Z \sim \mathcal N(0, 1),

    independently at every pull (no noise where ``f_raw < 1e-8``; no arm of
    the four grids is that close to the optimum). ``values`` is the noise-free
    reward :math:`(-f_{raw} - m) / s`, against which regret is measured. The
    mean of the pulls is not ``values``: :math:`E[e^{\beta Z}] = e^{\beta^2/2}`
    (1.00005 for beta = 0.01, 1.65 for beta = 1) and the 1.01e-8 offset shift
    it, without changing the order of the arms. The per-arm noise std is the
    std of a log-normal factor:

    .. math::
        \sigma(a) = \frac{f_{raw}(a)}{s} \sqrt{e^{\beta^2} (e^{\beta^2} - 1)}.

    Parameters
    ----------
    function_id : {104, 116, 122, 3}
        BBOB function number (see ``BBOB_GRID_FUNCTIONS``).
    instance : int, default=1
        BBOB instance number (pycma's ``iinstance``); it fixes x_opt, the
        rotations and f_opt.
    noise_beta : float, default=0.01
        BBOB's Gaussian noise level beta >= 0: 0.01 is BBOB's "moderate" noise
        (the paper's), 1.0 its "severe" noise (BBOB's own level for f116 and
        f122), 0 gives noise-free pulls.

    Attributes
    ----------
    name : str
        Name as in the paper, e.g. ``"Rosenbrock f104"``.
    function_id, instance : int
    noise_beta : float
    bbob_noise_beta : float or None
        BBOB's own Gaussian noise level of the function (None for the noise-free f3).
    dim : int
        3.
    n_arms : int
        10,648.
    arms : ndarray of shape (n_arms, 3)
        The grid, in the order of :func:`bbob_grid_arms`.
    x_opt : ndarray of shape (3,)
        BBOB's optimum of the instance (in general not on the grid).
    f_raw : ndarray of shape (n_arms,)
        Noise-free BBOB value minus f_opt, >= 0 (minimised).
    reward_shift, reward_scale : float
        m and s of the normalisation.
    values : ndarray of shape (n_arms,)
        Noise-free normalised rewards (maximised); mean 0 and std 1 over the arms.
    optimal_arm : int
        Index of the best arm (the first one if tied).
    optimal_value : float
        ``values.max()``.
    mean_value : float
        ``values.mean()``, the expected noise-free reward of a uniformly random
        arm (0 up to rounding, by the normalisation).
    noise_std : ndarray of shape (n_arms,)
        Per-arm std of the pulls, in normalised units.
    lam_p90 : float
        90th percentile over the arms of ``noise_std``: the paper's oracle
        lambda (spec §2.2; square it for the variance reading).

    Notes
    -----
    Source: ``mini_gp_opt`` App. B.2; noise-free values from pycma's
    ``cma.bbobbenchmarks.F<function_id>``, the BBOB-2009 reference code.
    """

    dim = DIM

    def __init__(self, function_id, instance=1, noise_beta=0.01):
        if isinstance(function_id, bool) or function_id not in BBOB_GRID_FUNCTIONS:
            allowed = ", ".join(f"{fid} ({_NAMES[fid]})" for fid in BBOB_GRID_FUNCTIONS)
            raise ValueError(f"function_id must be one of {allowed}; got {function_id!r}.")
        if isinstance(instance, bool) or not isinstance(instance, numbers.Integral) or instance < 0:
            raise ValueError(f"instance must be an integer >= 0 (a BBOB instance number); got {instance!r}.")
        if isinstance(noise_beta, bool) or not isinstance(noise_beta, numbers.Real) or not 0 <= noise_beta < np.inf:
            raise ValueError(
                f"noise_beta must be a finite number >= 0 (BBOB: 0.01 moderate, 1.0 severe); got {noise_beta!r}."
            )
        self.function_id, self.instance, self.noise_beta = int(function_id), int(instance), float(noise_beta)
        self.name = _NAMES[self.function_id]
        function_class = getattr(bbobbenchmarks, f"F{self.function_id}")
        self.bbob_noise_beta = getattr(function_class, "gaussbeta", None)

        # zerof=True sets f_opt = 0 and changes nothing else (x_opt and the rotations
        # depend on the instance seed only), so ftrue is f - f_opt without cancellation.
        reference = function_class(self.instance, zerof=True)
        # _evalfull returns (noisy, noise-free) and draws the noisy value from numpy's
        # global RNG; the identity noise of pycma's noise-free functions skips that draw.
        reference.noise = np.copy
        self.arms = bbob_grid_arms()
        self.n_arms = len(self.arms)
        self.f_raw = reference._evalfull(self.arms.copy())[1]
        self.x_opt = np.asarray(reference.xopt, dtype=float)

        self.reward_shift = float(np.mean(-self.f_raw))
        self.reward_scale = float(np.std(self.f_raw))
        self.values = self._normalise(-self.f_raw)
        self.optimal_arm = int(np.argmax(self.values))
        self.optimal_value = float(self.values[self.optimal_arm])
        self.mean_value = float(np.mean(self.values))
        self.noise_std = bbob_gaussian_noise_std(-self.f_raw, self.noise_beta) / self.reward_scale
        self.lam_p90 = float(np.percentile(self.noise_std, 90))

    def _normalise(self, rewards):
        return (rewards - self.reward_shift) / self.reward_scale

    def pull(self, indices, rng):
        """Noisy normalised rewards of the arms ``indices``, one independent evaluation per entry.

        Parameters
        ----------
        indices : int or array-like of int
            Arm indices in [0, n_arms); a repeated index is evaluated again.
        rng : numpy.random.Generator
            Source of the noise: one ``rng.standard_normal(indices.shape)`` call.

        Returns
        -------
        rewards : ndarray of the shape of ``indices``
        """
        indices = np.asarray(indices)
        if not np.issubdtype(indices.dtype, np.integer):
            raise ValueError(f"indices must be integers in [0, {self.n_arms}); got dtype {indices.dtype}.")
        outside = (indices < 0) | (indices >= self.n_arms)
        if outside.any():
            raise ValueError(f"indices must lie in [0, {self.n_arms}); got {indices[outside].flat[0]}.")
        # bbob_gaussian_noise is pycma's fGauss (cma/bbobbenchmarks.py) for the negated
        # values: f exp(beta N(0, 1)) + 1.01e-8 where f >= 1e-8, else f unchanged.
        return self._normalise(bbob_gaussian_noise(-self.f_raw[indices], self.noise_beta, rng))

    def __repr__(self):
        return f"{type(self).__name__}({self.function_id}, instance={self.instance}, noise_beta={self.noise_beta})"
