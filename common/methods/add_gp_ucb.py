"""Add-GP-UCB (Kandasamy, Schneider & Póczos 2015): GP-UCB on an additive GP, maximized one group at a time.

With disjoint groups of coordinates G_1..G_M and f = sum_j f^(j)(x^(j)),
x^(j) = x_{G_j}, independent GP priors f^(j) ~ GP(0, k^(j)) make f a GP with
the additive kernel k = sum_j k^(j). Each group's posterior, given all data
(eq. 5), is

    mu^(j)(z)      = k^(j)(z, X^(j)) Delta^{-1} (y - m)
    sigma^(j)(z)^2 = k^(j)(z, z) - k^(j)(z, X^(j)) Delta^{-1} k^(j)(X^(j), z),    Delta = K + eta^2 I,

and Add-GP-UCB (eq. 6, Algorithm 1) maximizes, group by group,

    phi~^(j)(z) = mu^(j)(z) + beta_t^{1/2} sigma^(j)(z),

then queries the point made of the groups' maximizers. The sum of the
phi~^(j) is not GP-UCB on the additive GP: sum_j sigma^(j) >= sigma.
"""
import numpy as np

from common.acquisitions import beta_kandasamy
from common.bo import GPAcquisitionMethod
from common.gp import solve_lower
from common.kernels import AdditiveKernel
from common.optimizers import direct_maximize_groups


class GroupPosteriors:
    """The posteriors mu^(j), sigma^(j) of every group of a fitted GP with an :class:`AdditiveKernel`.

    All groups share the GP's Cholesky factor of Delta; :meth:`predict` solves
    with it once for the candidates of every group together.

    Parameters
    ----------
    gp : GaussianProcess, fitted, whose kernel is an AdditiveKernel.
    """

    def __init__(self, gp):
        if not isinstance(gp.kernel, AdditiveKernel):
            raise ValueError(f"GroupPosteriors needs a GP with an AdditiveKernel; got {gp.kernel!r}.")
        self.gp = gp
        self.groups = gp.kernel.groups
        self.base = gp.kernel.base

    def predict(self, points):
        """Means and standard deviations of every group at its own points.

        Parameters
        ----------
        points : list of M arrays, the j-th of shape (n_j, |G_j|), in group j's coordinates.

        Returns
        -------
        list of M pairs (mu^(j), sigma^(j)) in the units of y; the constant prior mean
        (the GP's ``y_mean``) is in none of them, so mu = y_mean + sum_j mu^(j).
        """
        gp = self.gp
        columns = [self.base(Z, gp.X[:, group]) for Z, group in zip(points, self.groups)]
        V = solve_lower(gp.L, np.vstack(columns).T)  # one solve for every group's candidates
        results, start = [], 0
        for Z, Ks in zip(points, columns):
            block = V[:, start:start + len(Z)]
            start += len(Z)
            mean = gp.y_scale * (Ks @ gp.alpha)
            variance = np.maximum(self.base.diag(Z) - np.einsum("ij,ij->j", block, block), 0.0)
            results.append((mean, np.sqrt(variance) * gp.y_scale))
        return results


class AddGPUCB(GPAcquisitionMethod):
    """Add-GP-UCB with a given decomposition: each group's UCB maximized by DIRECT, all groups in lockstep.

    The decomposition is the kernel's: an :class:`AdditiveKernel` (Add-* when it
    is the function's own; one group of all coordinates is GP-UCB). beta_t is
    0.2 d_j log(2t) for group j, with ``t`` given by ``step`` (the authors' code:
    the number of observations + 1). Coordinates in no group are set to the
    box centre. The DIRECT budget ``max_evals`` is split equally over the groups.

    Parameters
    ----------
    kernel : AdditiveKernel
    bounds : (D, 2) box.
    max_evals : int, the total DIRECT budget of one acquisition maximization.
    step : callable ``step(n_observations, iteration) -> t`` (default: observations + 1).
    **gp_options : noise_variance, noise_bounds, y_transform, mle_restarts, fit_hyperparameters
        of :class:`~common.bo.GPAcquisitionMethod`.
    """

    def __init__(self, kernel, bounds, max_evals, step=None, name="Add-GP-UCB", **gp_options):
        if not isinstance(kernel, AdditiveKernel):
            raise ValueError(f"kernel must be an AdditiveKernel (one group of all coordinates for GP-UCB); "
                             f"got {kernel!r}.")
        super().__init__(kernel, bounds, acquisition="UCB", name=name, **gp_options)
        self.max_evals = int(max_evals)
        self.step = step or (lambda n_observations, iteration: n_observations + 1)

    def propose(self, X, y, iteration, rng):
        gp = self.fit_model(X, y, rng)
        self.last_gp = gp
        posteriors = GroupPosteriors(gp)
        t = self.step(len(y), iteration)
        roots = [np.sqrt(beta_kandasamy(t, len(group))) for group in posteriors.groups]

        def group_ucbs(points):
            values = []
            for j, ((mean, std), root) in enumerate(zip(posteriors.predict(points), roots)):
                if j == 0:  # the prior mean moves no argmax; with it one group of all coordinates is GP-UCB
                    mean = gp.y_mean + mean
                values.append(mean + root * std)
            return values

        budget = -(-self.max_evals // len(posteriors.groups))  # ceil: equal shares of the total
        results = direct_maximize_groups(group_ucbs, [self.bounds[group] for group in posteriors.groups], budget)
        x = self.bounds.mean(axis=1)
        for group, result in zip(posteriors.groups, results):
            x[group] = result.x
        return x[None, :]
