"""What the teaching notebook (``bo_basics``) and the lessons share: one function, one prior, one method.

* :func:`forrester` on :data:`FORRESTER_BOUNDS`, the 1-D function every teaching figure draws, and
  :data:`TEACHING_X0`, its four first evaluations;
* :func:`make_kernel`, the GP prior of the teaching BO loops (Matérn-5/2 ARD for standardized observations on
  the unit cube);
* :class:`ThompsonSampling`, GP-TS as those loops run it (a random-feature posterior draw maximized by DIRECT).

They live here, below both, so that a lesson never imports an experiment module.
"""
import numpy as np

from common.acquisitions import thompson_sample
from common.bo import GPAcquisitionMethod
from common.kernels import Matern
from common.optimizers import direct_maximize

#: Random Fourier features of a Thompson draw (:class:`ThompsonSampling`).
THOMPSON_FEATURES = 500


def forrester(X):
    r"""The 1-D function of Forrester et al. (2008), negated so that it is maximized.

    .. math:: f(x) = -(6x - 2)^2 \sin(12x - 4), \qquad x \in [0, 1],

    with its global maximum f = 6.0207... at x = 0.7572..., a local maximum near
    x = 0.14 and a plateau near x = 0.4: small enough to plot, multimodal
    enough to fool a greedy search.

    Parameters
    ----------
    X : array-like of shape (n, 1)

    Returns
    -------
    ndarray of shape (n,)
    """
    x = np.asarray(X, dtype=float).reshape(-1)
    return -((6.0 * x - 2.0) ** 2) * np.sin(12.0 * x - 4.0)


FORRESTER_BOUNDS = np.array([[0.0, 1.0]])
#: The four first evaluations of the teaching figures, none near the maximizer x* = 0.757.
TEACHING_X0 = np.array([[0.1], [0.4], [0.6], [0.9]])


def make_kernel(dim):
    """Matérn-5/2 ARD prior for standardized observations on the unit cube."""
    return Matern(2.5, lengthscale=np.full(dim, 0.2), lengthscale_bounds=(1e-2, 1e1),
                  variance_bounds=(1e-2, 1e2))


class ThompsonSampling(GPAcquisitionMethod):
    """GP-TS: maximize one function drawn from the posterior (random-feature approximation).

    The draw f~ ~ GP posterior replaces the acquisition: x_{t+1} = argmax f~(x),
    found by DIRECT like the other acquisitions' maxima.
    """

    def propose(self, X, y, iteration, rng):
        gp = self.fit_model(X, y, rng)
        self.last_gp = gp
        draw = thompson_sample(gp, rng, n_features=THOMPSON_FEATURES)
        return direct_maximize(draw, self.bounds, **self.optimizer_options).x[None, :]
