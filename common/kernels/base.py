"""Kernel base class: hyperparameters on a log scale, as in scikit-learn.

A kernel holds positive hyperparameters (a variance, one or d lengthscales).
Optimizers see them as ``theta``, the vector of logs of the *free* ones, with
log-space ``bounds``; a hyperparameter whose bounds are ``"fixed"`` is left out
of ``theta`` and never changes during maximum-likelihood fitting.
"""
from dataclasses import dataclass

import numpy as np

from common.growing import GrowingArray


@dataclass(frozen=True)
class Hyperparameter:
    """A positive kernel hyperparameter.

    Parameters
    ----------
    name : str
    value : ndarray
        Current value(s), shape (n_elements,), all > 0.
    bounds : tuple of float or "fixed"
        Box ``(low, high)`` applied to every element (in natural units), or
        ``"fixed"`` to exclude it from ``theta``.
    """

    name: str
    value: np.ndarray
    bounds: object

    @property
    def fixed(self):
        return isinstance(self.bounds, str) and self.bounds == "fixed"


def check_bounds(name, bounds):
    """Return ``bounds`` as a valid (low, high) tuple or ``"fixed"``; raise otherwise."""
    if isinstance(bounds, str):
        if bounds != "fixed":
            raise ValueError(f"{name}_bounds must be a (low, high) pair or 'fixed'; got {bounds!r}.")
        return bounds
    low, high = (float(b) for b in bounds)
    if not 0 < low <= high:
        raise ValueError(f"{name}_bounds must satisfy 0 < low <= high; got ({low}, {high}).")
    return (low, high)


def check_positive(name, value, size=None):
    """Return ``value`` as a 1-D float array of positive entries (of length ``size`` if given)."""
    array = np.atleast_1d(np.asarray(value, dtype=float))
    if array.ndim != 1 or not np.all(np.isfinite(array)) or np.any(array <= 0):
        raise ValueError(f"{name} must be positive and finite; got {value!r}.")
    if size is not None and array.size != size:
        raise ValueError(f"{name} must have {size} element(s); got {array.size}.")
    return array


def as_2d(name, X, dim=None):
    """Validate an input matrix of shape (n, d)."""
    X = np.asarray(X, dtype=float)
    if X.ndim != 2 or (dim is not None and X.shape[1] != dim):
        expected = f"(n, {dim})" if dim is not None else "(n, d)"
        raise ValueError(f"{name} must have shape {expected}; got shape {X.shape}.")
    return X


class Kernel:
    """Abstract positive-definite kernel k(x, x') with log-scale hyperparameters.

    Subclasses implement :meth:`hyperparameters`, :meth:`_with_values`,
    :meth:`__call__` and :meth:`diag`.
    """

    def hyperparameters(self):
        """List of :class:`Hyperparameter`, in the order used by ``theta``."""
        raise NotImplementedError

    def _with_values(self, values):
        """Copy of this kernel with hyperparameter values ``{name: array}``."""
        raise NotImplementedError

    def __call__(self, X, Y=None, eval_gradient=False):
        """Kernel matrix K[i, j] = k(X[i], Y[j]).

        With ``eval_gradient=True`` (only for ``Y is None``) also return
        dK/dtheta of shape (n, n, n_theta), the derivative with respect to the
        log of each free hyperparameter.
        """
        raise NotImplementedError

    def diag(self, X):
        """k(X[i], X[i]) for every row, shape (n,)."""
        raise NotImplementedError

    # -- one input set at many hyperparameters (maximum-likelihood fitting) ---------
    def pairwise(self, X):
        """The part of K(X, X) that does not depend on the hyperparameters.

        A likelihood fit evaluates K(X, X) at many theta for one X. Kernels that
        can precompute something theta-free (stationary kernels: the squared
        coordinate differences) override this; by default it is X itself.
        """
        return as_2d("X", X)

    def gram(self, pairwise, with_gradient=False):
        """K(X, X) from ``pairwise(X)``, and optionally its contraction with dK/dtheta.

        With ``with_gradient=True`` also return ``contract``, a function with
        ``contract(W)[k] = sum_ij W_ij dK_ij / dtheta_k``: what the likelihood
        gradient (RW 5.9) needs, without storing the (n, n, n_dims) tensor dK
        where a kernel can avoid it.
        """
        if not with_gradient:
            return self(pairwise)
        K, dK = self(pairwise, eval_gradient=True)
        return K, lambda W: np.einsum("ij,ijk->k", W, dK)

    # -- a growing input set at fixed hyperparameters (one observation at a time) --------
    def growing_inputs(self, X):
        """What :meth:`column` needs of X, kept as X grows by one row at a time.

        Kernels that can reuse something of X across new points (stationary
        kernels: the scaled inputs and their squared norms) override this; by
        default it is X itself, in a :class:`~common.growing.GrowingArray`.
        """
        return GrowingArray(as_2d("X", X))

    def column(self, inputs, x):
        """k(X, x) of shape (n,) for the X held by ``inputs`` (from :meth:`growing_inputs`);
        then x is appended to ``inputs``. The same numbers as ``self(X, x[None])[:, 0]``."""
        x = np.asarray(x, dtype=float).reshape(1, -1)
        k = self(inputs.filled, x)[:, 0]
        inputs.append(x[0])
        return k

    @property
    def n_dims(self):
        """Number of free log-hyperparameters."""
        return sum(h.value.size for h in self.hyperparameters() if not h.fixed)

    @property
    def theta(self):
        """Logs of the free hyperparameters, shape (n_dims,)."""
        free = [np.log(h.value) for h in self.hyperparameters() if not h.fixed]
        return np.concatenate(free) if free else np.empty(0)

    @property
    def bounds(self):
        """Log-space bounds of ``theta``, shape (n_dims, 2)."""
        rows = [
            np.tile(np.log(h.bounds), (h.value.size, 1))
            for h in self.hyperparameters()
            if not h.fixed
        ]
        return np.vstack(rows) if rows else np.empty((0, 2))

    def with_theta(self, theta):
        """Copy of this kernel with free hyperparameters ``exp(theta)``."""
        theta = np.asarray(theta, dtype=float)
        if theta.shape != (self.n_dims,):
            raise ValueError(f"theta must have shape ({self.n_dims},); got {theta.shape}.")
        values, start = {}, 0
        for h in self.hyperparameters():
            if h.fixed:
                continue
            values[h.name] = np.exp(theta[start : start + h.value.size])
            start += h.value.size
        return self._with_values(values)

    def __repr__(self):
        parts = []
        for h in self.hyperparameters():
            shown = np.array2string(h.value, precision=4) if h.value.size > 1 else f"{h.value[0]:.4g}"
            parts.append(f"{h.name}={shown}")
        return f"{type(self).__name__}({', '.join(parts)})"
