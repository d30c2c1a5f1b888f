"""Arrays that grow by one row at a time without copying what they hold.

A GP that conditions on one more observation (:meth:`common.gp.GaussianProcess.add_observation`)
appends a row to its inputs, observations and counts. ``np.append`` and ``np.vstack`` copy the
whole array every time; a buffer with spare capacity, doubled when full, copies each row
O(1) times on average and keeps the filled part as a view.
"""
import numpy as np


class GrowingArray:
    """The rows appended so far (``.filled``, a view) in a buffer with spare capacity.

    Parameters
    ----------
    initial : array_like of shape (n, ...)
        The first rows; copied, so later appends never write into the caller's array.
    """

    def __init__(self, initial):
        initial = np.asarray(initial, dtype=float)
        self.size = len(initial)
        self._buffer = np.empty((2 * self.size + 2, *initial.shape[1:]))
        self._buffer[:self.size] = initial

    @property
    def filled(self):
        """The rows appended so far, shape (size, ...): a view of the buffer."""
        return self._buffer[:self.size]

    def append(self, row):
        """Append one row (shape ``filled.shape[1:]``) and return ``filled``."""
        if self.size == len(self._buffer):
            grown = np.empty((2 * self.size + 2, *self._buffer.shape[1:]))
            grown[:self.size] = self._buffer
            self._buffer = grown
        self._buffer[self.size] = row
        self.size += 1
        return self.filled
