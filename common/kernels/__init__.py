"""Covariance functions: squared exponential, Matérn, additive.

Every kernel exposes log-scale hyperparameters ``theta`` with ``bounds`` and
gradients dK/dtheta for maximum-likelihood fitting (the scikit-learn
convention), ``diag``, ``gradient_x`` for gradient-based acquisition
maximization, and (stationary kernels) ``sample_spectral`` for random Fourier
features.
"""
from common.kernels.additive import AdditiveKernel
from common.kernels.base import Hyperparameter, Kernel
from common.kernels.matern import Matern
from common.kernels.squared_exponential import SquaredExponential
from common.kernels.stationary import StationaryKernel

__all__ = ["AdditiveKernel", "Hyperparameter", "Kernel", "Matern", "SquaredExponential",
           "StationaryKernel"]
