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
import itertools

import numpy as np
from scipy.special import logsumexp
from scipy.stats import ortho_group

__all__ = [
    "TestFunction",
    "Ackley",
    "EgpTsAckley",
    "Zakharov",
    "DropWave",
    "Eggholder",
    "Griewank",
    "Hartmann6",
    "Rastrigin",
    "Levy",
    "Branin",
    "Trimodal",
    "AdditiveTrimodal",
    "BBOBRosenbrock",
    "BBOBEllipsoid",
    "BBOBSchafferF7",
    "BBOBSeparableRastrigin",
    "bbob_gaussian_noise",
    "bbob_gaussian_noise_std",
    "ScaledFunction",
    "on_unit_cube",
    "TEST_FUNCTIONS",
    "get_test_function",
]


def _cube(low, high, dim):
    """Bounds of the box [low, high]^dim, shape (dim, 2)."""
    return np.tile(np.array([low, high], dtype=float), (dim, 1))


def _check_int(value, name, minimum=1):
    if isinstance(value, bool) or not isinstance(value, (int, np.integer)) or value < minimum:
        raise ValueError(f"{name} must be an integer >= {minimum}; got {value!r}.")
    return int(value)


def _as_generator(rng):
    """A Generator from a Generator or an integer seed (the instance's identity)."""
    if isinstance(rng, np.random.Generator):
        return rng
    if isinstance(rng, (int, np.integer)) and not isinstance(rng, bool):
        return np.random.default_rng(int(rng))
    raise TypeError(
        f"rng must be a numpy.random.Generator or an integer seed; got {type(rng).__name__}."
    )


class TestFunction:
    """Base class of the synthetic test functions (maximize convention).

    Subclasses implement ``_evaluate(X)``, the function in its literature form,
    and set ``optimal_value`` and ``optimizers`` through ``_set_optimum``.
    ``__call__`` validates ``X`` and negates the literature form when the
    function is a minimization problem (``negated = True``).

    Parameters
    ----------
    dim : int
        Input dimension d.
    bounds : array-like of shape (d, 2)
        Lower and upper bound of every coordinate.

    Attributes
    ----------
    name : str
        Registry name of the function.
    dim : int
        Input dimension d.
    bounds : ndarray of shape (d, 2)
        The function's own domain.
    negated : bool
        True if the literature form is minimized and ``__call__`` returns its
        negative.
    optimal_value : float
        Maximum of ``__call__`` over ``bounds``.
    optimizers : ndarray of shape (k, d)
        Every known global maximizer in ``bounds`` (k >= 1).
    """

    # Tell pytest that this class, despite its name, is not a test suite.
    __test__ = False

    name = ""
    negated = True

    def __init__(self, dim, bounds):
        self.dim = _check_int(dim, "dim")
        bounds = np.asarray(bounds, dtype=float)
        if bounds.shape != (self.dim, 2) or np.any(bounds[:, 0] >= bounds[:, 1]):
            raise ValueError(
                f"bounds must have shape ({self.dim}, 2) with lower < upper in every row; "
                f"got shape {bounds.shape}."
            )
        self.bounds = bounds

    def _set_optimum(self, optimizers, optimal_value):
        optimizers = np.atleast_2d(np.asarray(optimizers, dtype=float))
        outside = np.any(
            (optimizers < self.bounds[:, 0]) | (optimizers > self.bounds[:, 1]), axis=1
        )
        if np.any(outside):
            raise ValueError(
                f"bounds must contain the global optimizer(s) of {self.name}, "
                f"{optimizers[outside].tolist()}; got bounds {self.bounds.tolist()}."
            )
        self.optimizers = optimizers
        self.optimal_value = float(optimal_value)

    def _check_X(self, X):
        X = np.asarray(X, dtype=float)
        if X.ndim == 1 and X.shape[0] == self.dim:
            return X[np.newaxis, :]
        if X.ndim != 2 or X.shape[1] != self.dim:
            raise ValueError(
                f"X must have shape (n, {self.dim}) (or ({self.dim},) for one point) "
                f"for {self.name}; got shape {X.shape}."
            )
        return X

    def __call__(self, X):
        """Noise-free values in the maximize convention.

        Parameters
        ----------
        X : array-like of shape (n, d) or (d,)
            Query points. Points outside ``bounds`` are evaluated by the same
            formula.

        Returns
        -------
        values : ndarray of shape (n,)
            ``n = 1`` for a single point of shape (d,).
        """
        values = self._evaluate(self._check_X(X))
        return -values if self.negated else values

    def _evaluate(self, X):
        raise NotImplementedError

    def __repr__(self):
        return f"<{type(self).__name__} {self.name!r}, dim={self.dim}, bounds={self.bounds.tolist()}>"


def _ackley(X):
    """Standard Ackley function (a, b, c) = (20, 0.2, 2 pi), minimum 0 at 0.

    The terms are grouped as 20 (1 - exp(.)) + (e - exp(.)) so that the value at
    the origin is exactly 0 rather than a rounding residue of 20 + e - 20 - e.
    """
    root_mean_square = np.sqrt(np.mean(X**2, axis=1))
    mean_cosine = np.mean(np.cos(2.0 * np.pi * X), axis=1)
    return -20.0 * np.expm1(-0.2 * root_mean_square) + (np.e - np.exp(mean_cosine))


class Ackley(TestFunction):
    r"""Ackley function, negated (maximum 0 at the origin).

    .. math::
        g(x) = -20 \exp\Big(-0.2 \sqrt{\tfrac1d \textstyle\sum_i x_i^2}\Big)
               - \exp\Big(\tfrac1d \textstyle\sum_i \cos(2\pi x_i)\Big) + 20 + e,
        \qquad f = -g.

    Domain [-32.768, 32.768]^d by default; maximum f(0) = 0.

    Source: ``random_exploration`` (App. B; d = 10 on [-32.768, 32.768]^10,
    maximized as -g). For the non-negated Ackley on [0, 1]^5 of ``egp_ts`` see
    :class:`EgpTsAckley`.

    Parameters
    ----------
    dim : int
        Input dimension d.
    bounds : array-like of shape (d, 2), default=None
        Domain; it must contain the origin. None gives [-32.768, 32.768]^d.
    """

    name = "ackley"

    def __init__(self, dim, bounds=None):
        dim = _check_int(dim, "dim")
        super().__init__(dim, _cube(-32.768, 32.768, dim) if bounds is None else bounds)
        self._set_optimum(np.zeros(dim), 0.0)

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


class Zakharov(TestFunction):
    r"""Zakharov function, negated (maximum 0 at the origin).

    .. math::
        g(x) = \sum_i x_i^2 + \Big(\sum_i 0.5\, i\, x_i\Big)^2
               + \Big(\sum_i 0.5\, i\, x_i\Big)^4, \qquad f = -g.

    Domain [-5, 10]^d by default; maximum f(0) = 0. On [-5, 10]^4 the values
    reach about -6.25e6.

    Source: ``egp_ts`` (Table 1 and App. E; d = 4 on [-5, 10]^4, maximized
    as -g).

    Parameters
    ----------
    dim : int
        Input dimension d.
    bounds : array-like of shape (d, 2), default=None
        Domain; it must contain the origin. None gives [-5, 10]^d.
    """

    name = "zakharov"

    def __init__(self, dim, bounds=None):
        dim = _check_int(dim, "dim")
        super().__init__(dim, _cube(-5.0, 10.0, dim) if bounds is None else bounds)
        self._set_optimum(np.zeros(dim), 0.0)

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


class Griewank(TestFunction):
    r"""Griewank function, negated (maximum 0 at the origin).

    .. math::
        g(x) = \sum_i \frac{x_i^2}{4000} - \prod_i \cos\frac{x_i}{\sqrt{i}} + 1,
        \qquad f = -g.

    Domain [-600, 600]^d by default; maximum f(0) = 0.

    Source: ``bo_pp`` (§5, d = 2, scaled to [-1, 1]^2). The paper does not give
    the unscaled domain; [-600, 600]^2 is the standard one and some BO papers
    use [-5, 5]^2 (spec ``bo_pp`` §3.1), hence the ``bounds`` parameter.

    Parameters
    ----------
    dim : int
        Input dimension d.
    bounds : array-like of shape (d, 2), default=None
        Domain; it must contain the origin. None gives [-600, 600]^d.
    """

    name = "griewank"

    def __init__(self, dim, bounds=None):
        dim = _check_int(dim, "dim")
        super().__init__(dim, _cube(-600.0, 600.0, dim) if bounds is None else bounds)
        self._set_optimum(np.zeros(dim), 0.0)

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


class Rastrigin(TestFunction):
    r"""Rastrigin function, negated (maximum 0 at the origin).

    .. math::
        g(x) = 10 d + \sum_i \big(x_i^2 - 10 \cos(2\pi x_i)\big), \qquad f = -g.

    Domain [-5.12, 5.12]^d by default; maximum f(0) = 0.

    Source: ``bo_pp`` (§5, d = 2, scaled to [-1, 1]^2) and
    ``random_exploration`` (App. B, d = 10 on [-5.12, 5.12]^10). For BBOB's
    transformed separable Rastrigin of ``mini_gp_opt`` see
    :class:`BBOBSeparableRastrigin`.

    Parameters
    ----------
    dim : int
        Input dimension d.
    bounds : array-like of shape (d, 2), default=None
        Domain; it must contain the origin. None gives [-5.12, 5.12]^d.
    """

    name = "rastrigin"

    def __init__(self, dim, bounds=None):
        dim = _check_int(dim, "dim")
        super().__init__(dim, _cube(-5.12, 5.12, dim) if bounds is None else bounds)
        self._set_optimum(np.zeros(dim), 0.0)

    def _evaluate(self, X):
        return 10.0 * self.dim + np.sum(X**2 - 10.0 * np.cos(2.0 * np.pi * X), axis=1)


class Levy(TestFunction):
    r"""Levy function, negated (maximum 0 at (1, ..., 1)).

    With :math:`w_i = 1 + (x_i - 1)/4`,

    .. math::
        g(x) = \sin^2(\pi w_1)
               + \sum_{i=1}^{d-1} (w_i - 1)^2 \big[1 + 10 \sin^2(\pi w_i + 1)\big]
               + (w_d - 1)^2 \big[1 + \sin^2(2\pi w_d)\big], \qquad f = -g.

    Domain [-10, 10]^d by default; maximum f(1, ..., 1) = 0.

    Source: ``random_exploration`` (App. B, d = 10 on [-10, 10]^10).

    Parameters
    ----------
    dim : int
        Input dimension d.
    bounds : array-like of shape (d, 2), default=None
        Domain; it must contain (1, ..., 1). None gives [-10, 10]^d.
    """

    name = "levy"

    def __init__(self, dim, bounds=None):
        dim = _check_int(dim, "dim")
        super().__init__(dim, _cube(-10.0, 10.0, dim) if bounds is None else bounds)
        self._set_optimum(np.ones(dim), 0.0)

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
_TRIMODAL_WEIGHTS = np.array([0.1, 0.8, 0.1])
_TRIMODAL_FIRST_TWO = np.array([[0.62, -0.38], [0.18, 0.58], [-0.58, -0.56]])
_TRIMODAL_FURTHER = np.array([-0.66, -0.19, 0.62])
_TRIMODAL_VARIANTS = ("code", "paper")
# MATLAB's mvnpdf underflows to 0 far from all modes; the code then clamps log 0.
_TRIMODAL_CODE_FLOOR = -700.0


def _trimodal_centres(dim, variant):
    centres = np.hstack(
        [_TRIMODAL_FIRST_TWO, np.repeat(_TRIMODAL_FURTHER[:, np.newaxis], dim - 2, axis=1)]
    )
    return centres if variant == "code" else (centres + 1.0) / 2.0


def _trimodal_scale(dim):
    """The paper's h_{d'} = 0.01 d'^0.1 (a variance in the code, a std in the paper)."""
    return 0.01 * dim**0.1


def _trimodal(Z, variant):
    """Trimodal log-mixture on the last axis of Z (shape (..., d'))."""
    dim = Z.shape[-1]
    centres = _trimodal_centres(dim, variant)
    squared_distances = np.sum((Z[..., np.newaxis, :] - centres) ** 2, axis=-1)
    scale = _trimodal_scale(dim)
    if variant == "code":
        variance = scale
        log_normaliser = -0.5 * dim * np.log(2.0 * np.pi * variance)
    else:
        variance = scale**2
        log_normaliser = -dim * np.log(scale)
    log_terms = np.log(_TRIMODAL_WEIGHTS) + log_normaliser - squared_distances / (2.0 * variance)
    values = logsumexp(log_terms, axis=-1)
    return np.maximum(values, _TRIMODAL_CODE_FLOOR) if variant == "code" else values


def _trimodal_maximum(dim, variant):
    """log(0.8 N(c_2; c_2, .)): the other modes' tails add less than 1e-17 here."""
    scale = _trimodal_scale(dim)
    if variant == "code":
        return np.log(0.8) - 0.5 * dim * np.log(2.0 * np.pi * scale)
    return np.log(0.8) - dim * np.log(scale)


def _check_variant(variant):
    if variant not in _TRIMODAL_VARIANTS:
        raise ValueError(f"variant must be one of {_TRIMODAL_VARIANTS}; got {variant!r}.")
    return variant


class Trimodal(TestFunction):
    r"""Kandasamy et al.'s trimodal function f_{d'} (one group; not negated).

    ``variant="code"`` (default; what produced the paper's figures, from the
    authors' ``get3ModalFunction.m``), on [-1, 1]^{d'}:

    .. math::
        f(x) = \max\Big(-700,\ \log \sum_{i=1}^{3} w_i\,
               \mathcal{N}(x;\, c_i,\, s^2 I)\Big), \qquad s^2 = 0.01\, d'^{0.1},

    with the normalised Gaussian density N, weights w = (0.1, 0.8, 0.1) and
    centres c_1 = (0.62, -0.38, -0.66, ...), c_2 = (0.18, 0.58, -0.19, ...),
    c_3 = (-0.58, -0.56, 0.62, ...) (from the third coordinate on, every
    coordinate of c_1, c_2, c_3 is -0.66, -0.19, 0.62 respectively). The clamp at -700 reproduces MATLAB, where
    the density underflows to 0.

    ``variant="paper"`` is ``add_gp_ucb`` eq. (7) read literally (with its sign
    typo in the exponent fixed), on [0, 1]^{d'}:

    .. math::
        f(x) = \log \sum_{i=1}^{3} w_i\, h^{-d'}
               \exp\big(-\lVert x - v_i \rVert^2 / (2 h^2)\big),
        \qquad h = 0.01\, d'^{0.1},\ v_i = (c_i + 1)/2.

    Maximum at c_2 (code) or v_2 (paper): log(0.8 (2 pi s^2)^{-d'/2}), e.g.
    2.474835 for d' = 2 (code), or log(0.8 h^{-d'}) (paper). The other two
    modes are local maxima.

    Source: ``add_gp_ucb`` §4.1 (eq. 7) and Figure 2 (d' = 2); spec
    ``add_gp_ucb`` §4.1.

    Parameters
    ----------
    dim : int
        Group dimension d' >= 2 (the code defines d' = 1 differently and no
        experiment uses it).
    variant : {"code", "paper"}, default="code"
        Which definition to use (see above).
    """

    name = "trimodal"
    negated = False

    def __init__(self, dim, variant="code"):
        dim = _check_int(dim, "dim", minimum=2)
        self.variant = _check_variant(variant)
        low = -1.0 if variant == "code" else 0.0
        super().__init__(dim, _cube(low, 1.0, dim))
        self._set_optimum(
            _trimodal_centres(dim, variant)[1], _trimodal_maximum(dim, variant)
        )

    def _evaluate(self, X):
        return _trimodal(X, self.variant)


class AdditiveTrimodal(TestFunction):
    r"""Additive sum of trimodal functions on random coordinate groups (not negated).

    .. math::
        f(x) = \sum_{k=1}^{M'} f_{d'}\big(x_{G_k}\big),

    where :math:`f_{d'}` is :class:`Trimodal` and the groups are consecutive
    blocks of a random permutation of the D coordinates: G_k holds permuted
    coordinates (k-1) d' + 1 ... k d' (authors' ``getAdditiveFunction.m``).
    The remaining D - d' M' coordinates do not affect f.

    Domain [-1, 1]^D (``variant="code"``) or [0, 1]^D (``"paper"``).
    Maximum M' f_{d'}(c_2), reached with c_2 in every group and any value of
    the ignored coordinates; ``optimizers`` holds the one with the ignored
    coordinates at the centre of their range. E.g. f* = 11.289013 for
    (D, d', M') = (10, 3, 3).

    Source: ``add_gp_ucb`` §5.1 (Figures 3-4, configurations (D, d', M') from
    (10, 3, 3) to (120, 55, 2)); spec ``add_gp_ucb`` §4.1.

    Parameters
    ----------
    dim : int
        Total dimension D.
    group_dim : int
        Dimension d' >= 2 of every group.
    rng : numpy.random.Generator or int
        Source of the coordinate permutation (an int is a seed); the function
        instance is fixed once drawn.
    n_groups : int, default=None
        Number of groups M' with d' M' <= D. None gives floor(D / d'), as the
        authors' code does.
    variant : {"code", "paper"}, default="code"
        Definition of the group function, see :class:`Trimodal`.

    Attributes
    ----------
    groups : ndarray of shape (n_groups, group_dim)
        Coordinate indices of every group.
    group_function : Trimodal
        The function applied to every group.
    """

    name = "additive_trimodal"
    negated = False

    def __init__(self, dim, group_dim, rng, n_groups=None, variant="code"):
        dim = _check_int(dim, "dim")
        group_dim = _check_int(group_dim, "group_dim", minimum=2)
        if group_dim > dim:
            raise ValueError(f"group_dim must be <= dim = {dim}; got {group_dim}.")
        if n_groups is None:
            n_groups = dim // group_dim
        n_groups = _check_int(n_groups, "n_groups")
        if n_groups * group_dim > dim:
            raise ValueError(
                f"n_groups * group_dim must be <= dim = {dim}; got n_groups = {n_groups} "
                f"and group_dim = {group_dim}."
            )
        self.group_function = Trimodal(group_dim, variant=variant)
        self.variant = variant
        super().__init__(dim, np.tile(self.group_function.bounds[0], (dim, 1)))
        permutation = _as_generator(rng).permutation(dim)
        self.groups = permutation[: n_groups * group_dim].reshape(n_groups, group_dim)
        optimizer = np.full(dim, self.bounds[0].mean())
        optimizer[self.groups] = self.group_function.optimizers[0]
        self._set_optimum(optimizer, n_groups * self.group_function.optimal_value)

    def _evaluate(self, X):
        return _trimodal(X[:, self.groups], self.variant).sum(axis=1)


def _oscillate(Z):
    """BBOB's T_osz: a smooth, coordinate-wise oscillation with T_osz(0) = 0."""
    nonzero = Z != 0
    log_abs = np.log(np.abs(Z), where=nonzero, out=np.zeros_like(Z))
    positive = Z > 0
    c1 = np.where(positive, 10.0, 5.5)
    c2 = np.where(positive, 7.9, 3.1)
    return np.sign(Z) * np.exp(log_abs + 0.049 * (np.sin(c1 * log_abs) + np.sin(c2 * log_abs)))


def _asymmetrize(Z, beta):
    """BBOB's T_asy^beta: z_i -> z_i^(1 + beta (i-1)/(d-1) sqrt(z_i)) for z_i > 0."""
    dim = Z.shape[1]
    positive_part = np.maximum(Z, 0.0)
    exponent = 1.0 + beta * np.arange(dim) / (dim - 1) * np.sqrt(positive_part)
    return np.where(Z > 0, positive_part**exponent, Z)


def _conditioning(dim, alpha):
    """Diagonal of BBOB's Lambda^alpha: alpha^((i-1) / (2 (d-1)))."""
    return alpha ** (np.arange(dim) / (2.0 * (dim - 1)))


class _BBOBFunction(TestFunction):
    """Shared set-up of the BBOB-style functions: domain, optimum, random instance.

    An instance draws, in this order, the optimum x_opt ~ U[-4, 4]^d (scaled by
    ``_optimum_scale``) and the Haar-random rotations R and Q that a subclass
    uses. BBOB's own instances come from its private random generator, so these
    functions have BBOB's definitions but not the numbers of BBOB instance 1.
    The values are f - f_opt (BBOB's additive f_opt only shifts the values), so
    the maximum of the negated function is 0 at x_opt. BBOB's boundary penalty
    f_pen is zero on [-5, 5]^d and omitted.
    """

    _optimum_scale = 1.0

    def __init__(self, dim, rng):
        dim = _check_int(dim, "dim", minimum=2)
        super().__init__(dim, _cube(-5.0, 5.0, dim))
        rng = _as_generator(rng)
        self.x_opt = self._optimum_scale * rng.uniform(-4.0, 4.0, size=dim)
        self.rotation_R = ortho_group.rvs(dim, random_state=rng)
        self.rotation_Q = ortho_group.rvs(dim, random_state=rng)
        self._set_optimum(self.x_opt, 0.0)


class BBOBRosenbrock(_BBOBFunction):
    r"""BBOB Rosenbrock (base of f104), negated (maximum 0 at ``x_opt``).

    .. math::
        z = \max\big(1, \sqrt{d}/8\big) (x - x_{opt}) + 1, \qquad
        g(x) = \sum_{i=1}^{d-1} 100 (z_i^2 - z_{i+1})^2 + (z_i - 1)^2,
        \qquad f = -g.

    Domain [-5, 5]^d; maximum f(x_opt) = 0 with x_opt ~ U[-3, 3]^d (BBOB
    draws Rosenbrock's optimum in 0.75 times the usual range).

    Source: ``mini_gp_opt`` App. B.2 (f104 = this function with moderate
    Gaussian noise, d = 3, on the grid linspace(-5, 5, 22)^3); add the noise
    with :func:`bbob_gaussian_noise`. Definitions: Hansen et al. (2009),
    BBOB noisy functions.

    Parameters
    ----------
    dim : int
        Input dimension d >= 2.
    rng : numpy.random.Generator or int
        Source of the instance (x_opt); an int is a seed.
    """

    name = "bbob_rosenbrock"
    _optimum_scale = 0.75

    def _evaluate(self, X):
        Z = max(1.0, np.sqrt(self.dim) / 8.0) * (X - self.x_opt) + 1.0
        return np.sum(
            100.0 * (Z[:, :-1] ** 2 - Z[:, 1:]) ** 2 + (Z[:, :-1] - 1.0) ** 2, axis=1
        )


class BBOBEllipsoid(_BBOBFunction):
    r"""BBOB rotated ellipsoid (base of f116), negated (maximum 0 at ``x_opt``).

    .. math::
        z = T_{osz}\big(R (x - x_{opt})\big), \qquad
        g(x) = \sum_{i=1}^{d} 10^{4 (i-1)/(d-1)} z_i^2, \qquad f = -g,

    with BBOB's oscillation T_osz and a random rotation R. The noisy suite
    uses condition number 1e4 (the noiseless f10 uses 1e6).

    Domain [-5, 5]^d; maximum f(x_opt) = 0 with x_opt ~ U[-4, 4]^d.

    Source: ``mini_gp_opt`` App. B.2 (f116 = this function with Gaussian noise,
    d = 3); add the noise with :func:`bbob_gaussian_noise`.

    Parameters
    ----------
    dim : int
        Input dimension d >= 2.
    rng : numpy.random.Generator or int
        Source of the instance (x_opt, R); an int is a seed.
    condition : float, default=1e4
        Condition number of the ellipsoid.
    """

    name = "bbob_ellipsoid"

    def __init__(self, dim, rng, condition=1e4):
        super().__init__(dim, rng)
        if not condition >= 1.0:
            raise ValueError(f"condition must be >= 1; got {condition!r}.")
        self.condition = float(condition)

    def _evaluate(self, X):
        Z = _oscillate((X - self.x_opt) @ self.rotation_R.T)
        axis_weights = self.condition ** (np.arange(self.dim) / (self.dim - 1))
        return Z**2 @ axis_weights


class BBOBSchafferF7(_BBOBFunction):
    r"""BBOB Schaffer F7 (base of f122), negated (maximum 0 at ``x_opt``).

    .. math::
        z = \Lambda^{10} Q\, T_{asy}^{0.5}\big(R (x - x_{opt})\big), \quad
        s_i = \sqrt{z_i^2 + z_{i+1}^2}, \quad
        g(x) = \Big(\frac{1}{d-1} \sum_{i=1}^{d-1}
               \sqrt{s_i} + \sqrt{s_i} \sin^2\big(50 s_i^{1/5}\big)\Big)^2,
        \qquad f = -g,

    with BBOB's asymmetry T_asy, conditioning Lambda and random rotations R, Q.

    Domain [-5, 5]^d; maximum f(x_opt) = 0 with x_opt ~ U[-4, 4]^d.

    Source: ``mini_gp_opt`` App. B.2 (f122 = this function with Gaussian noise,
    d = 3); add the noise with :func:`bbob_gaussian_noise`.

    Parameters
    ----------
    dim : int
        Input dimension d >= 2.
    rng : numpy.random.Generator or int
        Source of the instance (x_opt, R, Q); an int is a seed.
    """

    name = "bbob_schaffer_f7"

    def _evaluate(self, X):
        Y = _asymmetrize((X - self.x_opt) @ self.rotation_R.T, 0.5)
        Z = _conditioning(self.dim, 10.0) * (Y @ self.rotation_Q.T)
        s = np.sqrt(Z[:, :-1] ** 2 + Z[:, 1:] ** 2)
        return np.mean(np.sqrt(s) * (1.0 + np.sin(50.0 * s**0.2) ** 2), axis=1) ** 2


class BBOBSeparableRastrigin(_BBOBFunction):
    r"""BBOB separable Rastrigin (f3), negated (maximum 0 at ``x_opt``).

    .. math::
        z = \Lambda^{10} T_{asy}^{0.2}\big(T_{osz}(x - x_{opt})\big), \qquad
        g(x) = 10 \Big(d - \sum_i \cos(2\pi z_i)\Big) + \lVert z \rVert^2,
        \qquad f = -g.

    Domain [-5, 5]^d; maximum f(x_opt) = 0 with x_opt ~ U[-4, 4]^d.

    Source: ``mini_gp_opt`` App. B.2 ("separable Rastrigin", d = 3; the paper
    does not state its noise).

    Parameters
    ----------
    dim : int
        Input dimension d >= 2.
    rng : numpy.random.Generator or int
        Source of the instance (x_opt); an int is a seed.
    """

    name = "bbob_rastrigin_separable"

    def _evaluate(self, X):
        Z = _conditioning(self.dim, 10.0) * _asymmetrize(_oscillate(X - self.x_opt), 0.2)
        return 10.0 * (self.dim - np.sum(np.cos(2.0 * np.pi * Z), axis=1)) + np.sum(Z**2, axis=1)


# BBOB leaves values within this distance of the optimum noise-free.
_BBOB_NOISE_THRESHOLD = 1e-8


def bbob_gaussian_noise(values, beta, rng):
    r"""BBOB's multiplicative Gaussian noise, for values in the maximize convention.

    BBOB perturbs the distance to the optimum of its minimization problem,
    :math:`f \ge 0`, as

    .. math::
        f_{GN}(f, \beta) = f \exp(\beta\, \mathcal{N}(0, 1)) + 1.01 \cdot 10^{-8}
        \quad \text{if } f \ge 10^{-8}, \text{ else } f.

    Here f = -values (the values of a negated BBOB function, <= 0), and the
    result is returned in the same maximize convention. BBOB uses beta = 0.01
    for "moderate" noise (f104) and beta = 1 for "severe" noise (f116, f122).

    Source: ``mini_gp_opt`` App. B.2 and spec ``mini_gp_opt`` §4.2.

    Parameters
    ----------
    values : array-like of shape (n,)
        Noise-free values of a negated BBOB function.
    beta : float
        Noise level, >= 0.
    rng : numpy.random.Generator
        Source of the noise.

    Returns
    -------
    noisy_values : ndarray of shape (n,)
    """
    if not beta >= 0:
        raise ValueError(f"beta must be >= 0; got {beta!r}.")
    distance = -np.asarray(values, dtype=float)
    perturbed = distance * np.exp(beta * rng.standard_normal(distance.shape)) + 1.01e-8
    return -np.where(distance >= _BBOB_NOISE_THRESHOLD, perturbed, distance)


def bbob_gaussian_noise_std(values, beta):
    r"""Standard deviation of :func:`bbob_gaussian_noise` at every value.

    .. math::
        \operatorname{std} = |f| \sqrt{e^{\beta^2} (e^{\beta^2} - 1)}

    (the std of a log-normal factor), and 0 where BBOB adds no noise.

    Parameters
    ----------
    values : array-like of shape (n,)
        Noise-free values of a negated BBOB function.
    beta : float
        Noise level, >= 0.

    Returns
    -------
    std : ndarray of shape (n,)
    """
    distance = -np.asarray(values, dtype=float)
    factor_std = np.sqrt(np.exp(beta**2) * np.expm1(beta**2))
    return np.where(distance >= _BBOB_NOISE_THRESHOLD, np.abs(distance) * factor_std, 0.0)


class ScaledFunction(TestFunction):
    r"""A test function seen through a linear map from a new box onto its domain.

    A point u of the new box maps to

    .. math::
        x = c + (u - c') \odot h / h',

    where c, h (c', h') are the centre and half-width of the function's
    (the new) box, so the new box's centre maps exactly to the function's
    centre. Values, ``optimal_value`` and ``negated`` are the wrapped
    function's; ``optimizers`` are mapped into the new box.

    Source: ``bo_pp`` §5 ("search domains are scaled to [-1, 1]^d").

    Parameters
    ----------
    function : TestFunction
        The function to wrap.
    bounds : array-like of shape (d, 2), default=None
        The new box. None gives [-1, 1]^d.

    Attributes
    ----------
    base_function : TestFunction
        The wrapped function.
    """

    def __init__(self, function, bounds=None):
        if not isinstance(function, TestFunction):
            raise TypeError(
                f"function must be a TestFunction; got {type(function).__name__}."
            )
        self.base_function = function
        self.name = function.name
        self.negated = function.negated
        super().__init__(function.dim, _cube(-1.0, 1.0, function.dim) if bounds is None else bounds)
        self._set_optimum(self.from_original(function.optimizers), function.optimal_value)

    @staticmethod
    def _centre_and_half_width(bounds):
        return bounds.mean(axis=1), (bounds[:, 1] - bounds[:, 0]) / 2.0

    def to_original(self, U):
        """Map points of the new box to the wrapped function's domain.

        Parameters
        ----------
        U : array-like of shape (n, d)

        Returns
        -------
        X : ndarray of shape (n, d)
        """
        U = self._check_X(U)
        centre, half_width = self._centre_and_half_width(self.bounds)
        base_centre, base_half_width = self._centre_and_half_width(self.base_function.bounds)
        return base_centre + (U - centre) * (base_half_width / half_width)

    def from_original(self, X):
        """Map points of the wrapped function's domain to the new box.

        Parameters
        ----------
        X : array-like of shape (n, d)

        Returns
        -------
        U : ndarray of shape (n, d)
        """
        X = self.base_function._check_X(X)
        centre, half_width = self._centre_and_half_width(self.bounds)
        base_centre, base_half_width = self._centre_and_half_width(self.base_function.bounds)
        return centre + (X - base_centre) * (half_width / base_half_width)

    def __call__(self, U):
        return self.base_function(self.to_original(U))

    def __repr__(self):
        return f"<ScaledFunction of {self.base_function!r} to bounds={self.bounds.tolist()}>"


def on_unit_cube(function):
    """The function seen on [0, 1]^d (see :class:`ScaledFunction`).

    Parameters
    ----------
    function : TestFunction

    Returns
    -------
    ScaledFunction
    """
    return ScaledFunction(function, _cube(0.0, 1.0, function.dim))


# Registry name -> class. A class without a ``dim`` argument has a fixed dimension.
TEST_FUNCTIONS = {
    cls.name: cls
    for cls in (
        Ackley,
        EgpTsAckley,
        Zakharov,
        DropWave,
        Eggholder,
        Griewank,
        Hartmann6,
        Rastrigin,
        Levy,
        Branin,
        Trimodal,
        AdditiveTrimodal,
        BBOBRosenbrock,
        BBOBEllipsoid,
        BBOBSchafferF7,
        BBOBSeparableRastrigin,
    )
}



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
