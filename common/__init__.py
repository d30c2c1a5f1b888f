"""Shared GP and Bayesian-optimization library of the BO paper companion.

Importing ``common`` pins BLAS to one thread (see :mod:`common._threads`) before
anything else loads numpy, and, in a notebook ``reproduce.py`` executes, logs the
files the process reads (see :mod:`common.provenance`).
"""
from common import _threads  # noqa: F401  (must run before numpy is imported)
from common import provenance

provenance.log_reads_if_asked()
