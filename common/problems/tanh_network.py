"""One-hidden-layer network with tanh units and one linear output, on a flat weight vector.

The Levenberg-Marquardt trainer needs the network's output and its Jacobian with
respect to every weight, so the network is written out by hand:

.. math::

    F(x; w) = v^\\top \\tanh(W x + b) + c,

with ``W`` of shape (n_hidden, n_inputs), ``b`` and ``v`` of shape (n_hidden,)
and the scalar ``c``. The flat vector is ``w = [vec(W), b, v, c]`` (row-major
``W``), of length ``n_hidden * (n_inputs + 2) + 1``.
"""
import numpy as np


class TanhNetwork:
    """Shapes, initialisation, output and Jacobian of the network above.

    Parameters
    ----------
    n_inputs : int
    n_hidden : int
        Number of tanh units (the paper's hyperparameter ``n``).
    """

    def __init__(self, n_inputs, n_hidden):
        if int(n_hidden) < 1:
            raise ValueError(f"n_hidden must be a positive integer; got {n_hidden!r}")
        self.n_inputs = int(n_inputs)
        self.n_hidden = int(n_hidden)
        self.n_weights = self.n_hidden * (self.n_inputs + 2) + 1

    def unpack(self, w):
        """Views ``(W, b, v, c)`` of the flat weight vector ``w``."""
        n, p = self.n_hidden, self.n_inputs
        W = w[:n * p].reshape(n, p)
        b = w[n * p:n * p + n]
        v = w[n * p + n:n * p + 2 * n]
        return W, b, v, w[-1]

    def init_weights(self, rng):
        """Glorot-uniform weights and zero biases, drawn from ``rng``.

        Uniform on ``[-a, a]`` with ``a = sqrt(6 / (fan_in + fan_out))`` keeps
        the tanh units out of saturation at the start for any ``n_hidden``.
        """
        W_limit = np.sqrt(6.0 / (self.n_inputs + self.n_hidden))
        v_limit = np.sqrt(6.0 / (self.n_hidden + 1))
        W = rng.uniform(-W_limit, W_limit, size=(self.n_hidden, self.n_inputs))
        v = rng.uniform(-v_limit, v_limit, size=self.n_hidden)
        return np.concatenate([W.ravel(), np.zeros(self.n_hidden), v, [0.0]])

    def predict(self, w, X):
        """Network output ``F(X; w)`` of shape (n_samples,)."""
        W, b, v, c = self.unpack(w)
        return np.tanh(X @ W.T + b) @ v + c

    def predict_and_jacobian(self, w, X):
        """Output ``F`` of shape (N,) and Jacobian ``dF/dw`` of shape (N, n_weights).

        With ``h = tanh(W x + b)`` and ``g = v * (1 - h**2)``:
        ``dF/dW_jk = g_j x_k``, ``dF/db_j = g_j``, ``dF/dv_j = h_j``, ``dF/dc = 1``.
        """
        W, b, v, c = self.unpack(w)
        hidden = np.tanh(X @ W.T + b)
        g = v * (1.0 - hidden**2)
        n_samples = X.shape[0]
        jacobian = np.empty((n_samples, self.n_weights))
        n, p = self.n_hidden, self.n_inputs
        jacobian[:, :n * p] = (g[:, :, None] * X[:, None, :]).reshape(n_samples, n * p)
        jacobian[:, n * p:n * p + n] = g
        jacobian[:, n * p + n:n * p + 2 * n] = hidden
        jacobian[:, -1] = 1.0
        return hidden @ v + c, jacobian
