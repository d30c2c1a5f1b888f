"""An objective seen on the unit cube, for methods that model [0, 1]^d."""
import numpy as np


class OnUnitCube:
    """``objective`` on [0, 1]^d through the linear map u -> low + u (high - low) onto its box.

    Parameters
    ----------
    objective : callable (n, d) -> (n,), with ``bounds`` unless ``box`` is given.
    box : (d, 2) array, optional, the objective's box (default: ``objective.bounds``).
    """

    def __init__(self, objective, box=None):
        self.objective = objective
        self.box = np.asarray(objective.bounds if box is None else box, dtype=float)
        self.dim = len(self.box)
        self.bounds = np.tile([0.0, 1.0], (self.dim, 1))
        self.optimal_value = getattr(objective, "optimal_value", None)

    def __call__(self, U):
        low, high = self.box[:, 0], self.box[:, 1]
        return self.objective(low + np.asarray(U) * (high - low))
