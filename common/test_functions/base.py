"""The contract every test function keeps: its domain ``bounds``, its ``optimal_value`` and its ``optimizers``,
in the maximize convention (:class:`TestFunction`), with the small checks the functions share."""
import numpy as np


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
