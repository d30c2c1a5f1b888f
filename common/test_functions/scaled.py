"""A test function seen on another box (:class:`ScaledFunction`), e.g. every bo_pp domain on [-1, 1]^d or any
function on the unit cube (:func:`on_unit_cube`)."""

from common.test_functions.base import _cube, TestFunction


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
