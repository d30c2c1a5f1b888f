"""The classic synthetic functions of the papers (Ackley, Zakharov, Drop-wave, Eggholder, Griewank, Hartmann-6,
Rastrigin, Levy, Branin), negated where the literature minimizes them."""

import itertools

import numpy as np

from common.test_functions.base import _cube, _check_int, TestFunction


def _ackley(X):
    """Standard Ackley function (a, b, c) = (20, 0.2, 2 pi), minimum 0 at 0.

    The terms are grouped as 20 (1 - exp(.)) + (e - exp(.)) so that the value at
    the origin is exactly 0 rather than a rounding residue of 20 + e - 20 - e.
    """
    root_mean_square = np.sqrt(np.mean(X**2, axis=1))
    mean_cosine = np.mean(np.cos(2.0 * np.pi * X), axis=1)
    return -20.0 * np.expm1(-0.2 * root_mean_square) + (np.e - np.exp(mean_cosine))


class _AnyDimension(TestFunction):
    """A function of any dimension d with its maximum 0 at (c, ..., c), on the cube [low, high]^d by default.

    Parameters
    ----------
    dim : int
        Input dimension d.
    bounds : array-like of shape (d, 2), default=None
        Domain; it must contain (c, ..., c). None gives ``default_cube``'s [low, high]^d.
    """

    default_cube: tuple  # (low, high), each subclass's own
    optimizer_coordinate = 0.0  # c

    def __init__(self, dim, bounds=None):
        dim = _check_int(dim, "dim")
        super().__init__(dim, _cube(*self.default_cube, dim) if bounds is None else bounds)
        self._set_optimum(np.full(dim, self.optimizer_coordinate), 0.0)


class Ackley(_AnyDimension):
    r"""Ackley function, negated (maximum 0 at the origin).

    .. math::
        g(x) = -20 \exp\Big(-0.2 \sqrt{\tfrac1d \textstyle\sum_i x_i^2}\Big)
               - \exp\Big(\tfrac1d \textstyle\sum_i \cos(2\pi x_i)\Big) + 20 + e,
        \qquad f = -g.

    Domain [-32.768, 32.768]^d by default; maximum f(0) = 0.

    Source: ``random_exploration`` (App. B; d = 10 on [-32.768, 32.768]^10,
    maximized as -g). For the non-negated Ackley on [0, 1]^5 of ``egp_ts`` see
    :class:`EgpTsAckley`.

    ``dim`` and ``bounds`` as :class:`_AnyDimension` (``bounds`` None gives [-32.768, 32.768]^d).
    """

    name = "ackley"
    default_cube = (-32.768, 32.768)

    def _evaluate(self, X):
        return _ackley(X)


# Global maximizers of the non-negated 5-d Ackley on [0, 1]^5: two coordinates at
# the upper bound 1 and three at the root of the partial derivative below
# (found with brentq on the analytic derivative, residual at machine precision).
_EGP_TS_ACKLEY_INTERIOR = 0.5766656274118777
_EGP_TS_ACKLEY_MAXIMUM = 4.71096504291836


class EgpTsAckley(TestFunction):
    r"""Ackley-5d of ``egp_ts``: the standard Ackley, *maximized*, on [0, 1]^5.

    .. math::
        f(x) = -20 \exp\Big(-0.2 \sqrt{\tfrac15 \textstyle\sum_i x_i^2}\Big)
               - \exp\Big(\tfrac15 \textstyle\sum_i \cos(2\pi x_i)\Big) + 20 + e

    (``egp_ts`` App. E, Table 1), so ``negated`` is False and the maximum lies on
    the boundary of the domain.

    The paper's Table 1 is wrong: it gives x* = (0.6231, 0.6231, 1, 0.6231,
    0.6231) and f(x*) = 4.6930, but that point is a local maximum with value
    4.69261, and the global maximum is 4.710965 (spec ``egp_ts`` §2.9), reached
    at the 10 points with two coordinates equal to 1 and three equal to
    0.576666. ``optimal_value`` and ``optimizers`` are the true ones; the
    paper's values are kept as ``paper_optimal_value`` and ``paper_optimizer``
    (a regret computed with the paper's value can be negative).

    Attributes
    ----------
    paper_optimal_value : float
        4.6930, the maximum stated in ``egp_ts`` Table 1.
    paper_optimizer : ndarray of shape (5,)
        The maximizer stated in ``egp_ts`` Table 1.
    """

    name = "ackley_egp_ts"
    negated = False
    paper_optimal_value = 4.6930
    paper_optimizer = np.array([0.6231, 0.6231, 1.0, 0.6231, 0.6231])

    def __init__(self):
        super().__init__(5, _cube(0.0, 1.0, 5))
        optimizers = []
        for ones in itertools.combinations(range(5), 2):
            optimizer = np.full(5, _EGP_TS_ACKLEY_INTERIOR)
            optimizer[list(ones)] = 1.0
            optimizers.append(optimizer)
        self._set_optimum(optimizers, _EGP_TS_ACKLEY_MAXIMUM)

    def _evaluate(self, X):
        return _ackley(X)


class Zakharov(_AnyDimension):
    r"""Zakharov function, negated (maximum 0 at the origin).

    .. math::
        g(x) = \sum_i x_i^2 + \Big(\sum_i 0.5\, i\, x_i\Big)^2
               + \Big(\sum_i 0.5\, i\, x_i\Big)^4, \qquad f = -g.

    Domain [-5, 10]^d by default; maximum f(0) = 0. On [-5, 10]^4 the values
    reach about -6.25e6.

    Source: ``egp_ts`` (Table 1 and App. E; d = 4 on [-5, 10]^4, maximized
    as -g).

    ``dim`` and ``bounds`` as :class:`_AnyDimension` (``bounds`` None gives [-5, 10]^d).
    """

    name = "zakharov"
    default_cube = (-5.0, 10.0)

    def _evaluate(self, X):
        weighted_sum = X @ (0.5 * np.arange(1, self.dim + 1))
        return np.sum(X**2, axis=1) + weighted_sum**2 + weighted_sum**4


class DropWave(TestFunction):
    r"""Drop-wave function, negated (maximum 1 at the origin).

    .. math::
        g(x) = -\frac{1 + \cos(12 \lVert x \rVert)}{0.5 \lVert x \rVert^2 + 2},
        \qquad f = -g, \quad x \in \mathbb{R}^2.

    Domain [-5.12, 5.12]^2 by default; maximum f(0) = 1.

    Source: ``egp_ts`` (Table 1 and App. E, [-5.12, 5.12]^2) and ``bo_pp``
    (§5, "Dropwave", standard domain scaled to [-1, 1]^2).

    Parameters
    ----------
    bounds : array-like of shape (2, 2), default=None
        Domain; it must contain the origin. None gives [-5.12, 5.12]^2.
    """

    name = "dropwave"

    def __init__(self, bounds=None):
        super().__init__(2, _cube(-5.12, 5.12, 2) if bounds is None else bounds)
        self._set_optimum(np.zeros(2), 1.0)

    def _evaluate(self, X):
        squared_norm = np.sum(X**2, axis=1)
        return -(1.0 + np.cos(12.0 * np.sqrt(squared_norm))) / (0.5 * squared_norm + 2.0)


class Eggholder(TestFunction):
    r"""Eggholder function, negated (maximum 959.6407 at (512, 404.2319)).

    .. math::
        g(x) = -(x_2 + 47) \sin\sqrt{|x_2 + x_1/2 + 47|}
               - x_1 \sin\sqrt{|x_1 - x_2 - 47|}, \qquad f = -g.

    Domain [-512, 512]^2; maximum f(512, 404.2318051) = 959.6406627 on the
    boundary x_1 = 512 (``egp_ts`` Table 1 rounds it to 959.6407 at
    (512, 404.2319)). The optimizer's second coordinate is the root of
    :math:`\partial g / \partial x_2` at x_1 = 512.

    Source: ``egp_ts`` (Table 1 and App. E, which writes f = -g directly).
    """

    name = "eggholder"

    def __init__(self):
        super().__init__(2, _cube(-512.0, 512.0, 2))
        self._set_optimum([512.0, 404.2318051137578], 959.6406627208507)

    def _evaluate(self, X):
        x1, x2 = X[:, 0], X[:, 1]
        return -(x2 + 47.0) * np.sin(np.sqrt(np.abs(x2 + x1 / 2.0 + 47.0))) - x1 * np.sin(
            np.sqrt(np.abs(x1 - x2 - 47.0))
        )


class Griewank(_AnyDimension):
    r"""Griewank function, negated (maximum 0 at the origin).

    .. math::
        g(x) = \sum_i \frac{x_i^2}{4000} - \prod_i \cos\frac{x_i}{\sqrt{i}} + 1,
        \qquad f = -g.

    Domain [-600, 600]^d by default; maximum f(0) = 0.

    Source: ``bo_pp`` (§5, d = 2, scaled to [-1, 1]^2). The paper does not give
    the unscaled domain; [-600, 600]^2 is the standard one and some BO papers
    use [-5, 5]^2 (spec ``bo_pp`` §3.1), hence the ``bounds`` parameter.

    ``dim`` and ``bounds`` as :class:`_AnyDimension` (``bounds`` None gives [-600, 600]^d).
    """

    name = "griewank"
    default_cube = (-600.0, 600.0)

    def _evaluate(self, X):
        cosine_product = np.prod(np.cos(X / np.sqrt(np.arange(1, self.dim + 1))), axis=1)
        return np.sum(X**2, axis=1) / 4000.0 - cosine_product + 1.0


class Hartmann6(TestFunction):
    r"""Hartmann-6 function, negated (maximum 3.32237 on [0, 1]^6).

    .. math::
        g(x) = -\sum_{i=1}^{4} \alpha_i
               \exp\Big(-\sum_{j=1}^{6} A_{ij} (x_j - P_{ij})^2\Big),
        \qquad f = -g,

    with the standard constants ``alpha``, ``A``, ``P`` (spec ``bo_pp`` §3.1).

    Domain [0, 1]^6; maximum f = 3.3223680114155 at (0.20169, 0.150011,
    0.476874, 0.275332, 0.311652, 0.6573), polished here with BFGS to a
    gradient norm below 1e-9.

    Source: ``bo_pp`` (§5, "Hart6", scaled to [-1, 1]^6); ``add_gp_ucb`` spec
    check E7 uses it to test the DIRECT optimizer.
    """

    name = "hartmann6"
    alpha = np.array([1.0, 1.2, 3.0, 3.2])
    A = np.array(
        [
            [10.0, 3.0, 17.0, 3.5, 1.7, 8.0],
            [0.05, 10.0, 17.0, 0.1, 8.0, 14.0],
            [3.0, 3.5, 1.7, 10.0, 17.0, 8.0],
            [17.0, 8.0, 0.05, 10.0, 0.1, 14.0],
        ]
    )
    P = 1e-4 * np.array(
        [
            [1312, 1696, 5569, 124, 8283, 5886],
            [2329, 4135, 8307, 3736, 1004, 9991],
            [2348, 1451, 3522, 2883, 3047, 6650],
            [4047, 8828, 8732, 5743, 1091, 381],
        ]
    )

    def __init__(self):
        super().__init__(6, _cube(0.0, 1.0, 6))
        optimizer = [
            0.20168951100965768,
            0.15001069181688867,
            0.47687397422528266,
            0.2753324304910242,
            0.3116516166020012,
            0.6573005340634703,
        ]
        self._set_optimum(optimizer, 3.3223680114155143)

    def _evaluate(self, X):
        exponents = np.sum(self.A * (X[:, np.newaxis, :] - self.P) ** 2, axis=2)
        return -np.exp(-exponents) @ self.alpha


class Rastrigin(_AnyDimension):
    r"""Rastrigin function, negated (maximum 0 at the origin).

    .. math::
        g(x) = 10 d + \sum_i \big(x_i^2 - 10 \cos(2\pi x_i)\big), \qquad f = -g.

    Domain [-5.12, 5.12]^d by default; maximum f(0) = 0.

    Source: ``bo_pp`` (§5, d = 2, scaled to [-1, 1]^2) and
    ``random_exploration`` (App. B, d = 10 on [-5.12, 5.12]^10). For BBOB's
    transformed separable Rastrigin of ``mini_gp_opt`` see
    :class:`BBOBSeparableRastrigin`.

    ``dim`` and ``bounds`` as :class:`_AnyDimension` (``bounds`` None gives [-5.12, 5.12]^d).
    """

    name = "rastrigin"
    default_cube = (-5.12, 5.12)

    def _evaluate(self, X):
        return 10.0 * self.dim + np.sum(X**2 - 10.0 * np.cos(2.0 * np.pi * X), axis=1)


class Levy(_AnyDimension):
    r"""Levy function, negated (maximum 0 at (1, ..., 1)).

    With :math:`w_i = 1 + (x_i - 1)/4`,

    .. math::
        g(x) = \sin^2(\pi w_1)
               + \sum_{i=1}^{d-1} (w_i - 1)^2 \big[1 + 10 \sin^2(\pi w_i + 1)\big]
               + (w_d - 1)^2 \big[1 + \sin^2(2\pi w_d)\big], \qquad f = -g.

    Domain [-10, 10]^d by default; maximum f(1, ..., 1) = 0.

    Source: ``random_exploration`` (App. B, d = 10 on [-10, 10]^10).

    ``dim`` and ``bounds`` as :class:`_AnyDimension` (``bounds`` None gives [-10, 10]^d).
    """

    name = "levy"
    default_cube = (-10.0, 10.0)
    optimizer_coordinate = 1.0

    def _evaluate(self, X):
        w = 1.0 + (X - 1.0) / 4.0
        head = np.sin(np.pi * w[:, 0]) ** 2
        middle = np.sum(
            (w[:, :-1] - 1.0) ** 2 * (1.0 + 10.0 * np.sin(np.pi * w[:, :-1] + 1.0) ** 2), axis=1
        )
        tail = (w[:, -1] - 1.0) ** 2 * (1.0 + np.sin(2.0 * np.pi * w[:, -1]) ** 2)
        return head + middle + tail


class Branin(TestFunction):
    r"""Branin function, negated (maximum -5/(4 pi) at three points).

    .. math::
        g(x) = \Big(x_2 - \frac{5.1}{4\pi^2} x_1^2 + \frac{5}{\pi} x_1 - 6\Big)^2
               + 10 \Big(1 - \frac{1}{8\pi}\Big) \cos x_1 + 10, \qquad f = -g.

    Domain [-5, 10] x [0, 15]; maximum f = -5/(4 pi) = -0.397887 at
    (-pi, 12.275), (pi, 2.275) and (3 pi, 2.475).

    Source: ``add_gp_ucb`` spec check E7 (testing the DIRECT optimizer).
    """

    name = "branin"

    def __init__(self):
        super().__init__(2, [[-5.0, 10.0], [0.0, 15.0]])
        optimizers = [[-np.pi, 12.275], [np.pi, 2.275], [3.0 * np.pi, 2.475]]
        self._set_optimum(optimizers, -5.0 / (4.0 * np.pi))

    def _evaluate(self, X):
        x1, x2 = X[:, 0], X[:, 1]
        quadratic = x2 - 5.1 / (4.0 * np.pi**2) * x1**2 + 5.0 / np.pi * x1 - 6.0
        return quadratic**2 + 10.0 * (1.0 - 1.0 / (8.0 * np.pi)) * np.cos(x1) + 10.0


# Mixture weights and centres of the trimodal function (add_gp_ucb spec §4.1,
# from the authors' get3ModalFunction.m). Coordinates 1-2 are given; every
# further coordinate repeats the last entry of its row. The 0.8 mode is global.
