"""Shared GP and Bayesian-optimization library of the BO paper companion.

Importing ``common`` pins BLAS to one thread (see :mod:`common._threads`) before
anything else loads numpy.
"""
from common import _threads  # noqa: F401  (must run before numpy is imported)
