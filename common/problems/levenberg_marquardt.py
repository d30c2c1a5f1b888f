"""Levenberg-Marquardt least squares with an explicit damping schedule (mu, mu_dec, mu_inc).

The BO-PP paper tunes the damping factor ``mu``, its decrease factor ``mu_dec``
and its increase factor ``mu_inc`` of a Levenberg-Marquardt network trainer
(Sec. 5). These are the parameters of MATLAB's ``trainlm``; neither SciPy nor
scikit-learn exposes them, so this module implements the method directly.

For residuals ``e(w)`` with Jacobian ``J = de/dw`` and ``SSE(w) = e^T e``, each
epoch proposes

.. math::

    \\Delta = -(J^\\top J + \\mu I)^{-1} J^\\top e = -J^\\top (J J^\\top + \\mu I)^{-1} e,

accepts it if ``SSE(w + Delta) < SSE(w)`` and then sets ``mu <- mu * mu_dec``;
otherwise it sets ``mu <- mu * mu_inc`` and retries with the same Jacobian.
Training stops after ``max_epochs`` epochs, when ``mu`` exceeds ``mu_max`` or
when the gradient ``2 J^T e`` is shorter than ``min_grad`` (``trainlm``'s
defaults 1e10 and 1e-7).
"""
from dataclasses import dataclass

import numpy as np
from scipy.linalg import LinAlgError, cho_factor, cho_solve

MU_MAX = 1e10
MIN_GRAD = 1e-7
# A floor on mu keeps (J^T J + mu I) safely positive definite when mu_dec
# shrinks mu over many epochs.
MU_MIN = 1e-20
# Most epochs accept their first or second trial, for which a Cholesky solve is
# cheapest; when a small mu_inc makes an epoch retry many times, one
# eigendecomposition makes every further trial cost O(m^2) instead of O(m^3).
CHOLESKY_TRIALS = 2


@dataclass(frozen=True)
class LevenbergMarquardtResult:
    """Outcome of :func:`levenberg_marquardt`.

    Attributes
    ----------
    weights : ndarray
        Final parameter vector.
    sse : ndarray
        Training SSE before the first epoch and after every accepted step.
    trial_mu : ndarray
        The damping value used by every trial step, in order.
    trial_accepted : ndarray of bool
        Whether each trial step was accepted.
    stop_reason : str
        ``"max_epochs"``, ``"mu_max"`` or ``"min_grad"``.
    """

    weights: np.ndarray
    sse: np.ndarray
    trial_mu: np.ndarray
    trial_accepted: np.ndarray
    stop_reason: str


class _DampedStep:
    """The step Delta(mu) of one epoch, for as many trial values of mu as needed.

    Works with the smaller Gram matrix: ``J^T J`` (primal) when there are fewer
    parameters than residuals, ``J J^T`` (dual) otherwise.
    """

    def __init__(self, jacobian, residuals):
        self._jacobian = jacobian
        self._dual = jacobian.shape[0] < jacobian.shape[1]
        if self._dual:
            self._gram, self._rhs = jacobian @ jacobian.T, residuals
        else:
            self._gram, self._rhs = jacobian.T @ jacobian, jacobian.T @ residuals
        self._eigen = None
        self._n_trials = 0

    def __call__(self, mu):
        self._n_trials += 1
        solution = None
        if self._eigen is None and self._n_trials <= CHOLESKY_TRIALS:
            damped = self._gram.copy()
            damped[np.diag_indices_from(damped)] += mu
            try:
                solution = cho_solve(cho_factor(damped, lower=True), self._rhs)
            except LinAlgError:
                solution = None
        if solution is None:
            if self._eigen is None:
                eigenvalues, eigenvectors = np.linalg.eigh(self._gram)
                # Rounding can leave tiny negative eigenvalues of a PSD Gram matrix.
                self._eigen = (np.maximum(eigenvalues, 0.0), eigenvectors, eigenvectors.T @ self._rhs)
            eigenvalues, eigenvectors, projected_rhs = self._eigen
            solution = eigenvectors @ (projected_rhs / (eigenvalues + mu))
        return -(self._jacobian.T @ solution) if self._dual else -solution


def levenberg_marquardt(residuals, residuals_and_jacobian, w0, mu, mu_dec, mu_inc,
                        max_epochs, mu_max=MU_MAX, min_grad=MIN_GRAD):
    """Minimise ``SSE(w) = ||e(w)||^2`` by Levenberg-Marquardt with a mu schedule.

    Parameters
    ----------
    residuals : callable
        ``residuals(w) -> e`` of shape (N,).
    residuals_and_jacobian : callable
        ``residuals_and_jacobian(w) -> (e, J)`` with ``J = de/dw`` of shape (N, P).
    w0 : ndarray of shape (P,)
        Starting parameters.
    mu : float
        Initial damping factor (> 0).
    mu_dec : float
        Factor applied to mu after an accepted step (0 < mu_dec <= 1).
    mu_inc : float
        Factor applied to mu after a rejected step (> 1).
    max_epochs : int
        Number of Jacobian evaluations (epochs) at most.
    mu_max, min_grad : float
        Stop when mu exceeds ``mu_max`` or ``||2 J^T e|| < min_grad``.

    Returns
    -------
    LevenbergMarquardtResult
    """
    if not mu > 0:
        raise ValueError(f"mu must be positive; got {mu!r}")
    if not 0 < mu_dec <= 1:
        raise ValueError(f"mu_dec must lie in (0, 1]; got {mu_dec!r}")
    if not mu_inc > 1:
        raise ValueError(f"mu_inc must be greater than 1; got {mu_inc!r}")
    w = np.array(w0, dtype=float)
    e, jacobian = residuals_and_jacobian(w)
    sse_history = [e @ e]
    trial_mu, trial_accepted = [], []
    stop_reason = "max_epochs"
    for epoch in range(max_epochs):
        if epoch > 0:
            e, jacobian = residuals_and_jacobian(w)
        if np.linalg.norm(2.0 * (jacobian.T @ e)) < min_grad:
            stop_reason = "min_grad"
            break
        step = _DampedStep(jacobian, e)
        accepted = False
        while mu <= mu_max:
            candidate = w + step(mu)
            candidate_residuals = residuals(candidate)
            candidate_sse = candidate_residuals @ candidate_residuals
            trial_mu.append(mu)
            accepted = bool(candidate_sse < sse_history[-1])
            trial_accepted.append(accepted)
            if accepted:
                w = candidate
                sse_history.append(candidate_sse)
                mu = max(mu * mu_dec, MU_MIN)
                break
            mu = mu * mu_inc
        if not accepted:
            stop_reason = "mu_max"
            break
    return LevenbergMarquardtResult(
        weights=w,
        sse=np.asarray(sse_history),
        trial_mu=np.asarray(trial_mu),
        trial_accepted=np.asarray(trial_accepted, dtype=bool),
        stop_reason=stop_reason,
    )
