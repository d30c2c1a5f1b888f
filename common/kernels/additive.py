"""Additive kernel over disjoint groups of coordinates (Kandasamy et al. 2015, eq. 4)."""
import numpy as np

from common.kernels.base import Kernel, as_2d


class AdditiveKernel(Kernel):
    r"""Sum of one base kernel applied to groups of coordinates.

    .. math::
        k(x, x') = \sum_{j=1}^M k^{(j)}\big(x^{(j)}, x'^{(j)}\big), \qquad x^{(j)} = x_{G_j}

    All groups share the hyperparameters of ``base`` (the Add-GP-UCB paper uses
    the same scale and bandwidth in every group, §5), so ``theta`` is the base
    kernel's ``theta`` and dK/dtheta is the sum of the groups' gradients.
    Coordinates in no group do not affect the kernel.

    Parameters
    ----------
    base : StationaryKernel
        Isotropic kernel used for every group.
    groups : sequence of sequences of int
        Disjoint coordinate index sets G_1..G_M.
    """

    def __init__(self, base, groups):
        if getattr(base, "ard", False):
            raise ValueError("base must be isotropic: groups of different sizes share its lengthscale.")
        groups = [np.asarray(g, dtype=int) for g in groups]
        flat = np.concatenate(groups) if groups else np.empty(0, int)
        if not groups or any(g.ndim != 1 or g.size == 0 for g in groups):
            raise ValueError(f"groups must be a non-empty list of non-empty index lists; got {groups!r}.")
        if np.unique(flat).size != flat.size or flat.min() < 0:
            raise ValueError(f"groups must be disjoint sets of non-negative indices; got {groups!r}.")
        self.base = base
        self.groups = groups
        self._n_columns = int(flat.max()) + 1  # the inputs must have at least this many columns

    def hyperparameters(self):
        return self.base.hyperparameters()

    def _with_values(self, values):
        return AdditiveKernel(self.base._with_values(values), self.groups)

    def _check_columns(self, X):
        if X.shape[1] < self._n_columns:
            raise ValueError(f"X has {X.shape[1]} columns but the groups index column {self._n_columns - 1}.")

    def component(self, j, X, Y=None):
        """Kernel matrix k^(j)(X_{G_j}, Y_{G_j}) of group j alone."""
        X = as_2d("X", X)
        self._check_columns(X)
        group = self.groups[j]
        return self.base(X[:, group], None if Y is None else as_2d("Y", Y)[:, group])

    def __call__(self, X, Y=None, eval_gradient=False):
        X = as_2d("X", X)
        self._check_columns(X)
        if not eval_gradient:
            return sum(self.component(j, X, Y) for j in range(len(self.groups)))
        if Y is not None:
            raise ValueError("eval_gradient=True is only supported when Y is None.")
        parts = [self.base(X[:, g], eval_gradient=True) for g in self.groups]
        return sum(K for K, _ in parts), sum(dK for _, dK in parts)

    def pairwise(self, X):
        X = as_2d("X", X)
        self._check_columns(X)
        return [self.base.pairwise(X[:, g]) for g in self.groups]

    def gram(self, pairwise, with_gradient=False):
        """Sum of the groups' Gram matrices (and of their gradient contractions)."""
        if not with_gradient:
            return sum(self.base.gram(part) for part in pairwise)
        parts = [self.base.gram(part, with_gradient=True) for part in pairwise]
        contractions = [contract for _, contract in parts]
        return sum(K for K, _ in parts), lambda W: sum(contract(W) for contract in contractions)

    def diag(self, X):
        X = as_2d("X", X)
        return sum(self.base.diag(X[:, g]) for g in self.groups)

    def gradient_x(self, x, Y):
        """d k(x, Y[i]) / dx, shape (n, d); zero for coordinates in no group."""
        x = np.asarray(x, dtype=float)
        Y = as_2d("Y", Y)
        gradient = np.zeros_like(Y)
        for g in self.groups:
            gradient[:, g] = self.base.gradient_x(x[g], Y[:, g])
        return gradient

    def __repr__(self):
        return f"AdditiveKernel({self.base!r}, groups={[g.tolist() for g in self.groups]})"
