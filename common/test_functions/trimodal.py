"""Add-GP-UCB's trimodal family (Kandasamy et al. 2015): one trimodal function, and sums of it over groups of
coordinates (:class:`AdditiveTrimodal`), the paper's additive synthetic problems."""

import numpy as np
from scipy.special import logsumexp

from common.test_functions.base import _cube, _check_int, _as_generator, TestFunction


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
