"""Offline SUBSTITUTE for the SDSS luminous-red-galaxy likelihood of Kandasamy et al. (2015), Sec. 5.2.

The paper maximises the log-likelihood of the SDSS LRG power spectrum of
Tegmark et al. (2006, Phys. Rev. D 74, 123507) over 9 parameters of that
group's likelihood software, padded with 11 ignored coordinates to D = 20
(Fig. 5a). Neither the data (band powers, window functions, covariance) nor
the software can be obtained offline, and the paper does not name the 9
parameters. This module is a self-contained stand-in built on the proposal of
the reproduction spec (``add_gp_ucb.md`` Sec. 4.2); it is *not* the paper's
objective. The model, from the linear matter spectrum to the likelihood:

1. **Linear spectrum.** ``P_lin(k) = A k^{n_s} T^2(k)`` with the Eisenstein &
   Hu (1998, ApJ 496, 605; "EH98") fitting formula for the transfer function
   ``T``, baryon acoustic wiggles included (:func:`eh98_transfer`). ``A`` makes
   the r.m.s. of the linear field in top-hat spheres of radius 8 h^-1 Mpc equal
   to ``sigma_8`` (:func:`linear_power`).
2. **Galaxy spectrum.** The "Q-model" of Cole et al. (2005, MNRAS 362, 505),
   the family used by Tegmark et al. (2006)::

       P_g(k) = b^2 (1 + Q k^2) / (1 + A_Q k) P_lin(k),    A_Q = 1.4 h^-1 Mpc.

3. **Geometry.** The data are distances derived with a fiducial cosmology; a
   model computed in another cosmology is dilated isotropically with the
   volume-averaged distance of Eisenstein et al. (2005, ApJ 633, 560) at
   ``z_eff = 0.35``, for a constant-``w`` dark energy and curvature
   (:func:`observed_galaxy_power`, which explains the direction)::

       P_obs(k) = P_g(k / alpha) / alpha^3,    alpha = D_V(z_eff) / D_V^fid(z_eff)   (both in h^-1 Mpc).

4. **Likelihood.** Synthetic band powers at 20 log-spaced ``k`` in
   [0.012, 0.2] h Mpc^-1 with diagonal Gaussian errors of 8 % of the fiducial
   model (:func:`synthetic_band_powers`)::

       log L = -1/2 sum_i ((P_data,i - P_obs,i) / sigma_i)^2.

The 9 parameters (``omega_b, omega_c, h, n_s, sigma_8, b, Q, w, Omega_k``)
are mapped linearly from the unit cube; see :class:`LRGPowerSpectrumLikelihood`.

How this differs from the paper's objective (what a result on it can and
cannot say):

* **Synthetic data.** The band powers are the fiducial model plus one fixed
  Gaussian draw (seed :data:`DATA_SEED`), not the SDSS measurement, so the
  maximiser sits near the fiducial parameters by construction.
* **Diagonal covariance** of 8 % per band, instead of the survey's correlated
  covariance matrix.
* **No window functions**: the model is compared with the data at the band
  centres, not convolved with the survey window.
* **Fitting-formula transfer function** (EH98, accurate to a few per cent)
  instead of a Boltzmann code (CAMB/CMBFAST); no massive neutrinos, no
  radiation in the expansion rate, no non-linear corrections beyond the Q-model.
* **The parameterisation is our choice.** The paper does not say which 9
  parameters its software took; ours are a plausible set from Tegmark et al.'s
  analysis, with the spec's ranges.
* **Degeneracies.** The amplitude depends only on ``b sigma_8`` (a ridge of
  exactly equal likelihood in the (``sigma_8``, ``b``) plane) and no growth
  factor is applied between z = 0 and ``z_eff`` (the bias absorbs it). The
  geometry depends on ``h`` only through ``Omega_m = (omega_b + omega_c) / h^2``
  (distances in h^-1 Mpc), and ``w`` and ``Omega_k`` enter only through the
  single number ``alpha``, so both are weakly constrained.
* **Cost.** One evaluation takes microseconds to a millisecond (a batch of
  rows is vectorised), against the 2-5 s per query quoted in the paper.
* **Absolute values** of log L are not comparable with the paper's Fig. 5a
  (different data, errors and normalisation); only the comparison of methods
  on the same objective carries over.
"""
import functools
import math
import operator
from collections import namedtuple

import numpy as np

from common.problems.tuning import inputs_in_box

__all__ = [
    "DATA_SEED",
    "FIDUCIAL_PARAMETERS",
    "PARAMETER_NAMES",
    "PHYSICAL_BOUNDS",
    "UNPHYSICAL_LOG_LIKELIHOOD",
    "LRGPowerSpectrumLikelihood",
    "comoving_distance",
    "dilation_factor",
    "eh98_no_wiggle_transfer",
    "eh98_sound_horizon",
    "eh98_sound_horizon_fit",
    "eh98_transfer",
    "eh98_zero_baryon_transfer",
    "galaxy_power",
    "linear_power",
    "observed_galaxy_power",
    "synthetic_band_powers",
    "tophat_variance",
    "transverse_comoving_distance",
    "volume_averaged_distance",
]

SPEED_OF_LIGHT_KM_S = 299792.458
T_CMB_KELVIN = 2.728  # the COBE value EH98 used for their fits
Z_EFF = 0.35
Q_MODEL_A = 1.4  # h^-1 Mpc, Cole et al. (2005); fixed, as in Tegmark et al. (2006)
SIGMA8_RADIUS = 8.0  # h^-1 Mpc

# Fixed log-spaced grid (h Mpc^-1) of the top-hat variance integral. Below 1e-4 the integrand falls
# like k^(3 + n_s) and above 1e2 like k^-5 (times logarithms): neither end contributes at 1e-10.
SIGMA8_LOG_K_GRID = np.geomspace(1e-4, 1e2, 512)

PARAMETER_NAMES = ("omega_b", "omega_c", "h", "n_s", "sigma_8", "b", "Q", "w", "Omega_k")
PHYSICAL_BOUNDS = np.array([
    [0.018, 0.028],  # omega_b = Omega_b h^2
    [0.07, 0.16],  # omega_c = Omega_c h^2
    [0.55, 0.90],  # h = H_0 / (100 km/s/Mpc)
    [0.85, 1.10],  # n_s, primordial spectral index
    [0.60, 1.00],  # sigma_8, linear r.m.s. in 8 h^-1 Mpc top-hat spheres at z = 0
    [1.5, 2.5],  # b, galaxy bias (relative to the z = 0 linear field)
    [0.0, 60.0],  # Q, non-linear Q-model coefficient (h^-1 Mpc)^2
    [-1.5, -0.5],  # w, constant dark-energy equation of state
    [-0.1, 0.1],  # Omega_k, curvature density
])
FIDUCIAL_PARAMETERS = np.array([0.0223, 0.105, 0.73, 0.95, 0.76, 1.9, 30.0, -1.0, 0.0])

DATA_SEED = 20061207  # noise draw: numpy.random.default_rng(DATA_SEED).standard_normal(N_BANDS)
N_BANDS = 20
BAND_K_RANGE = (0.012, 0.2)  # h Mpc^-1, the range Tegmark et al. (2006) fitted
FRACTIONAL_ERROR = 0.08

# Returned for inputs where the model is not defined (H(z)^2 <= 0, a closed universe wrapping past
# its antipode) or not finite, and the floor of every returned value. No point of the box comes near
# it: the lowest log L at the 512 corners of the physical box is about -7.5e4.
UNPHYSICAL_LOG_LIKELIHOOD = -1.0e7

_N_GAUSS_NODES = 48
_GAUSS_NODES, _GAUSS_WEIGHTS = np.polynomial.legendre.leggauss(_N_GAUSS_NODES)
_UNIT_NODES = 0.5 * (_GAUSS_NODES + 1.0)  # Gauss-Legendre on [0, 1]
_UNIT_WEIGHTS = 0.5 * _GAUSS_WEIGHTS


# ---------------------------------------------------------------------------------------------------
# Eisenstein & Hu (1998) transfer function. Wavenumbers in Mpc^-1 (no h), densities omega = Omega h^2.
# ---------------------------------------------------------------------------------------------------

EH98Scales = namedtuple(
    "EH98Scales",
    "z_eq k_eq z_drag R_drag R_eq sound_horizon k_silk alpha_c beta_c alpha_b beta_b beta_node",
)


def _eh98_scales(omega_m, omega_b):
    """The k-independent quantities of the EH98 fit (arrays broadcast like the inputs)."""
    omega_m = np.asarray(omega_m, dtype=float)
    omega_b = np.asarray(omega_b, dtype=float)
    theta = T_CMB_KELVIN / 2.7
    f_b = omega_b / omega_m
    f_c = 1.0 - f_b
    # EH98 eq. (2): redshift of matter-radiation equality.
    z_eq = 2.50e4 * omega_m * theta**-4
    # EH98 eq. (3): particle horizon scale at equality, Mpc^-1.
    k_eq = 7.46e-2 * omega_m * theta**-2
    # EH98 eq. (4): drag epoch.
    b1 = 0.313 * omega_m**-0.419 * (1.0 + 0.607 * omega_m**0.674)
    b2 = 0.238 * omega_m**0.223
    z_drag = 1291.0 * omega_m**0.251 / (1.0 + 0.659 * omega_m**0.828) * (1.0 + b1 * omega_b**b2)
    # EH98 eq. (5): baryon-to-photon momentum density ratio R(z) = 31.5 omega_b theta^-4 (z / 1e3)^-1.
    r_drag = 31.5 * omega_b * theta**-4 * (z_drag / 1e3) ** -1
    r_eq = 31.5 * omega_b * theta**-4 * (z_eq / 1e3) ** -1
    # EH98 eq. (6): sound horizon at the drag epoch, Mpc.
    s = (2.0 / (3.0 * k_eq) * np.sqrt(6.0 / r_eq)
         * np.log((np.sqrt(1.0 + r_drag) + np.sqrt(r_drag + r_eq)) / (1.0 + np.sqrt(r_eq))))
    # EH98 eq. (7): Silk damping scale, Mpc^-1.
    k_silk = 1.6 * omega_b**0.52 * omega_m**0.73 * (1.0 + (10.4 * omega_m) ** -0.95)
    # EH98 eq. (11): CDM suppression.
    a1 = (46.9 * omega_m) ** 0.670 * (1.0 + (32.1 * omega_m) ** -0.532)
    a2 = (12.0 * omega_m) ** 0.424 * (1.0 + (45.0 * omega_m) ** -0.582)
    alpha_c = a1**-f_b * a2 ** -(f_b**3)
    # EH98 eq. (12): CDM log shift.
    bc1 = 0.944 / (1.0 + (458.0 * omega_m) ** -0.708)
    bc2 = (0.395 * omega_m) ** -0.0266
    beta_c = 1.0 / (1.0 + bc1 * (f_c**bc2 - 1.0))
    # EH98 eqs. (14)-(15): baryon suppression, G(y) with y = (1 + z_eq) / (1 + z_d).
    y = (1.0 + z_eq) / (1.0 + z_drag)
    root = np.sqrt(1.0 + y)
    g_y = y * (-6.0 * root + (2.0 + 3.0 * y) * np.log((root + 1.0) / (root - 1.0)))
    alpha_b = 2.07 * k_eq * s * (1.0 + r_drag) ** -0.75 * g_y
    # EH98 eq. (24): baryon envelope shift.
    beta_b = 0.5 + f_b + (3.0 - 2.0 * f_b) * np.sqrt((17.2 * omega_m) ** 2 + 1.0)
    # EH98 eq. (23): node shift.
    beta_node = 8.41 * omega_m**0.435
    return EH98Scales(z_eq, k_eq, z_drag, r_drag, r_eq, s, k_silk, alpha_c, beta_c, alpha_b, beta_b, beta_node)


def _eh98_pressureless(q, alpha_c, beta_c):
    """EH98 eqs. (19)-(20): ``T0(q; a, b) = L / (L + C q^2)``.

    ``L = ln(e + 1.8 b q)`` and ``C = 14.2 / a + 386 / (1 + 69.9 q^1.08)``.
    """
    log_term = np.log(math.e + 1.8 * beta_c * q)
    c = 14.2 / alpha_c + 386.0 / (1.0 + 69.9 * q**1.08)
    return log_term / (log_term + c * q**2)


def eh98_sound_horizon(omega_m, omega_b):
    """Sound horizon at the drag epoch from EH98 eqs. (2)-(6), in Mpc.

    .. math::

        s = \\frac{2}{3 k_{eq}} \\sqrt{\\frac{6}{R_{eq}}}
            \\ln\\frac{\\sqrt{1 + R_d} + \\sqrt{R_d + R_{eq}}}{1 + \\sqrt{R_{eq}}}

    Parameters
    ----------
    omega_m, omega_b : float or array-like
        Physical matter and baryon densities ``Omega h^2``.

    Returns
    -------
    float or ndarray
        ``s`` in Mpc (multiply by ``h`` for h^-1 Mpc).
    """
    return _eh98_scales(omega_m, omega_b).sound_horizon


def eh98_sound_horizon_fit(omega_m, omega_b):
    """EH98's approximate sound horizon, eq. (26), in Mpc.

    .. math::

        s \\approx \\frac{44.5 \\ln(9.83 / \\omega_m)}{\\sqrt{1 + 10\\, \\omega_b^{3/4}}}

    EH98 quote it as accurate to 2 % for ``0.0125 <= omega_b`` and
    ``omega_m`` of conventional cosmologies.
    """
    omega_m = np.asarray(omega_m, dtype=float)
    omega_b = np.asarray(omega_b, dtype=float)
    # EH98 eq. (26)
    return 44.5 * np.log(9.83 / omega_m) / np.sqrt(1.0 + 10.0 * omega_b**0.75)


def eh98_transfer(k, omega_m, omega_b):
    """Matter transfer function of EH98 with baryon acoustic oscillations.

    .. math::

        T(k) = \\frac{\\omega_b}{\\omega_m} T_b(k) + \\frac{\\omega_c}{\\omega_m} T_c(k)      \\quad (16)

        T_c = f\\, \\tilde T_0(k, 1, \\beta_c) + (1 - f)\\, \\tilde T_0(k, \\alpha_c, \\beta_c),
        \\quad f = \\frac{1}{1 + (ks/5.4)^4}                                            \\quad (17, 18)

        T_b = \\left[\\frac{\\tilde T_0(k, 1, 1)}{1 + (ks/5.2)^2}
              + \\frac{\\alpha_b}{1 + (\\beta_b / ks)^3} e^{-(k/k_{silk})^{1.4}}\\right]
              j_0(k \\tilde s), \\quad \\tilde s = \\frac{s}{[1 + (\\beta_{node}/ks)^3]^{1/3}}  \\quad (21, 22)

    with ``q = k / (13.41 k_eq)`` (eq. 10) and the scales of eqs. (2)-(7),
    (11)-(12), (14)-(15), (23)-(24).

    Parameters
    ----------
    k : float or array-like
        Wavenumber in Mpc^-1 (not h Mpc^-1), > 0.
    omega_m, omega_b : float or array-like
        ``Omega_m h^2`` (baryons + CDM) and ``Omega_b h^2``, with
        ``0 < omega_b < omega_m``. All three arguments broadcast.

    Returns
    -------
    ndarray
        ``T(k)``, tending to 1 as ``k -> 0``.
    """
    k = np.asarray(k, dtype=float)
    omega_m = np.asarray(omega_m, dtype=float)
    omega_b = np.asarray(omega_b, dtype=float)
    sc = _eh98_scales(omega_m, omega_b)
    f_b = omega_b / omega_m
    # EH98 eq. (10)
    q = k / (13.41 * sc.k_eq)
    ks = k * sc.sound_horizon
    # EH98 eqs. (17)-(18): CDM part, interpolating between unsuppressed and suppressed forms at ks ~ 5.4.
    f = 1.0 / (1.0 + (ks / 5.4) ** 4)
    t_cdm = f * _eh98_pressureless(q, 1.0, sc.beta_c) + (1.0 - f) * _eh98_pressureless(q, sc.alpha_c, sc.beta_c)
    # EH98 eq. (22): shifted node positions; eq. (21): baryon part.
    s_tilde = sc.sound_horizon / np.cbrt(1.0 + (sc.beta_node / ks) ** 3)
    envelope = (_eh98_pressureless(q, 1.0, 1.0) / (1.0 + (ks / 5.2) ** 2)
                + sc.alpha_b / (1.0 + (sc.beta_b / ks) ** 3) * np.exp(-((k / sc.k_silk) ** 1.4)))
    t_baryon = envelope * np.sinc(k * s_tilde / np.pi)  # np.sinc(x) = sin(pi x) / (pi x), so this is j_0(k s~)
    # EH98 eq. (16)
    return f_b * t_baryon + (1.0 - f_b) * t_cdm


def eh98_zero_baryon_transfer(k, omega_m):
    """EH98's zero-baryon transfer function, eqs. (28)-(29): all matter treated as CDM.

    .. math::

        T_0(q) = \\frac{L_0}{L_0 + C_0 q^2}, \\quad L_0 = \\ln(2e + 1.8 q), \\quad
        C_0 = 14.2 + \\frac{731}{1 + 62.5 q}, \\quad q = \\frac{k}{\\omega_m} \\Theta_{2.7}^2

    Parameters
    ----------
    k : float or array-like
        Wavenumber in Mpc^-1.
    omega_m : float or array-like
        ``Omega_m h^2``.
    """
    k = np.asarray(k, dtype=float)
    theta = T_CMB_KELVIN / 2.7
    # EH98 eq. (28) with Gamma h = omega_m (k in Mpc^-1)
    q = k * theta**2 / np.asarray(omega_m, dtype=float)
    # EH98 eq. (29)
    l0 = np.log(2.0 * math.e + 1.8 * q)
    c0 = 14.2 + 731.0 / (1.0 + 62.5 * q)
    return l0 / (l0 + c0 * q**2)


def eh98_no_wiggle_transfer(k, omega_m, omega_b):
    """EH98's smooth ("no-wiggle") transfer function, eqs. (30)-(31).

    The zero-baryon form (29) evaluated with an effective shape

    .. math::

        \\Gamma_{eff} h = \\omega_m \\left[\\alpha_\\Gamma + \\frac{1 - \\alpha_\\Gamma}{1 + (0.43 k s)^4}\\right],
        \\quad \\alpha_\\Gamma = 1 - 0.328 \\ln(431 \\omega_m) f_b + 0.38 \\ln(22.3 \\omega_m) f_b^2,

    with ``s`` from eq. (26) and ``f_b = omega_b / omega_m``. Useful to show
    the wiggles as ``eh98_transfer / eh98_no_wiggle_transfer``.
    """
    k = np.asarray(k, dtype=float)
    omega_m = np.asarray(omega_m, dtype=float)
    f_b = np.asarray(omega_b, dtype=float) / omega_m
    # EH98 eq. (31)
    alpha_gamma = 1.0 - 0.328 * np.log(431.0 * omega_m) * f_b + 0.38 * np.log(22.3 * omega_m) * f_b**2
    # EH98 eq. (30)
    s = eh98_sound_horizon_fit(omega_m, omega_b)
    effective_omega_m = omega_m * (alpha_gamma + (1.0 - alpha_gamma) / (1.0 + (0.43 * k * s) ** 4))
    return eh98_zero_baryon_transfer(k, effective_omega_m)


# ---------------------------------------------------------------------------------------------------
# Linear and galaxy power spectra. Wavenumbers in h Mpc^-1, powers in (h^-1 Mpc)^3.
# ---------------------------------------------------------------------------------------------------


def _tophat_window(x):
    """Fourier transform of the unit top-hat sphere, ``W(x) = 3 (sin x - x cos x) / x^3``."""
    x = np.asarray(x, dtype=float)
    small = x < 1e-3
    xs = np.where(small, 1.0, x)
    return np.where(small, 1.0 - x**2 / 10.0, 3.0 * (np.sin(xs) - xs * np.cos(xs)) / xs**3)


def tophat_variance(k, power, radius=SIGMA8_RADIUS):
    """Variance of a field in top-hat spheres, by the trapezoidal rule in ``ln k``.

    .. math::

        \\sigma^2(R) = \\int \\frac{k^3 P(k)}{2 \\pi^2} W^2(kR)\\, d\\ln k,
        \\qquad W(x) = \\frac{3 (\\sin x - x \\cos x)}{x^3}

    Parameters
    ----------
    k : ndarray of shape (m,)
        Log-spaced wavenumbers (h Mpc^-1) covering the support of the integrand.
    power : ndarray of shape (..., m)
        ``P(k)`` in (h^-1 Mpc)^3 on that grid.
    radius : float
        ``R`` in h^-1 Mpc.

    Returns
    -------
    ndarray of shape (...)
    """
    k = np.asarray(k, dtype=float)
    integrand = k**3 * np.asarray(power, dtype=float) * _tophat_window(k * radius) ** 2 / (2.0 * np.pi**2)
    return np.trapezoid(integrand, np.log(k), axis=-1)


def _unnormalised_linear_power(k, omega_m, omega_b, h, n_s):
    """``k^{n_s} T^2(k h)`` for ``k`` in h Mpc^-1 (EH98 takes Mpc^-1)."""
    return k**n_s * eh98_transfer(k * h, omega_m, omega_b) ** 2


def _linear_power_rows(k, omega_b, omega_c, h, n_s, sigma_8):
    """``P_lin`` with parameters as columns of shape (n, 1) and ``k`` of shape (m,) or (n, m)."""
    omega_m = omega_b + omega_c
    grid_shape = _unnormalised_linear_power(SIGMA8_LOG_K_GRID, omega_m, omega_b, h, n_s)
    amplitude = sigma_8**2 / tophat_variance(SIGMA8_LOG_K_GRID, grid_shape)[:, None]
    return amplitude * _unnormalised_linear_power(k, omega_m, omega_b, h, n_s)


def _galaxy_power_rows(k, omega_b, omega_c, h, n_s, sigma_8, b, Q):
    """``P_g`` with parameters as columns of shape (n, 1) and ``k`` of shape (m,) or (n, m)."""
    q_model = (1.0 + Q * k**2) / (1.0 + Q_MODEL_A * k)
    return b**2 * q_model * _linear_power_rows(k, omega_b, omega_c, h, n_s, sigma_8)


def _as_rows(k, parameters):
    """``k`` as a 1-d array and each parameter as a column (n, 1); also whether all were scalars."""
    parameters = [np.asarray(p, dtype=float) for p in parameters]
    scalar = all(p.ndim == 0 for p in parameters)
    n = np.broadcast_shapes(*(np.atleast_1d(p).shape for p in parameters))
    columns = [np.broadcast_to(np.atleast_1d(p), n)[:, None] for p in parameters]
    return np.atleast_1d(np.asarray(k, dtype=float)), columns, scalar


def linear_power(k, omega_b, omega_c, h, n_s, sigma_8):
    """Linear matter power spectrum at z = 0, normalised to ``sigma_8``.

    .. math::

        P_{lin}(k) = A\\, k^{n_s} T^2(k), \\qquad
        A = \\frac{\\sigma_8^2}{\\sigma^2(8\\, h^{-1}\\mathrm{Mpc}) \\text{ of } k^{n_s} T^2}

    with ``T`` from :func:`eh98_transfer` (at ``k h`` Mpc^-1) and the
    variance integral of :func:`tophat_variance` on the fixed grid
    :data:`SIGMA8_LOG_K_GRID` (512 points, 1e-4 to 1e2 h Mpc^-1).

    Parameters
    ----------
    k : array-like of shape (m,)
        Wavenumbers in h Mpc^-1.
    omega_b, omega_c, h, n_s, sigma_8 : float or array-like of shape (n,)
        Cosmological parameters; arrays give one spectrum per row.

    Returns
    -------
    ndarray of shape (m,) for scalar parameters, (n, m) otherwise
        ``P_lin(k)`` in (h^-1 Mpc)^3.
    """
    k, columns, scalar = _as_rows(k, (omega_b, omega_c, h, n_s, sigma_8))
    power = _linear_power_rows(k, *columns)
    return power[0] if scalar else power


def galaxy_power(k, omega_b, omega_c, h, n_s, sigma_8, b, Q):
    """Galaxy power spectrum of the Q-model (Cole et al. 2005), in the model's own cosmology.

    .. math::

        P_g(k) = b^2 \\frac{1 + Q k^2}{1 + A_Q k} P_{lin}(k), \\qquad A_Q = 1.4\\ h^{-1}\\mathrm{Mpc}

    Parameters are as in :func:`linear_power`, plus the bias ``b`` and
    ``Q`` in (h^-1 Mpc)^2. Returns (h^-1 Mpc)^3, shape as :func:`linear_power`.
    """
    k, columns, scalar = _as_rows(k, (omega_b, omega_c, h, n_s, sigma_8, b, Q))
    power = _galaxy_power_rows(k, *columns)
    return power[0] if scalar else power


# ---------------------------------------------------------------------------------------------------
# Distances, constant-w dark energy and curvature (radiation neglected).
# ---------------------------------------------------------------------------------------------------


def _hubble_rate_squared(z, Omega_m, w, Omega_k):
    """``E^2(z) = H^2(z) / H_0^2 = Omega_m (1+z)^3 + Omega_k (1+z)^2 + Omega_de (1+z)^{3(1+w)}``.

    ``Omega_de = 1 - Omega_m - Omega_k`` (the densities sum to 1; radiation neglected).
    """
    a_inv = 1.0 + z
    Omega_de = 1.0 - Omega_m - Omega_k
    return Omega_m * a_inv**3 + Omega_k * a_inv**2 + Omega_de * a_inv ** (3.0 * (1.0 + w))


def _comoving_distance_hubble_units(z, Omega_m, w, Omega_k):
    """``chi(z) H_0 / c = int_0^z dz' / E(z')`` by 48-point Gauss-Legendre; NaN where E^2 <= 0 on [0, z]."""
    z = np.asarray(z, dtype=float)[..., None]
    Omega_m, w, Omega_k = (np.asarray(v, dtype=float)[..., None] for v in (Omega_m, w, Omega_k))
    e_squared = _hubble_rate_squared(z * _UNIT_NODES, Omega_m, w, Omega_k)
    with np.errstate(invalid="ignore", divide="ignore"):
        inverse_e = np.where(e_squared > 0.0, 1.0 / np.sqrt(np.abs(e_squared)), np.nan)
    return z[..., 0] * np.sum(_UNIT_WEIGHTS * inverse_e, axis=-1)


def _transverse_hubble_units(chi, Omega_k):
    """``D_M H_0 / c`` from ``chi H_0 / c``; NaN past the antipode of a closed universe."""
    chi = np.asarray(chi, dtype=float)
    Omega_k = np.asarray(Omega_k, dtype=float)
    root = np.sqrt(np.abs(Omega_k))
    x = root * chi
    safe_root = np.where(root > 0.0, root, 1.0)
    # For |Omega_k| chi^2 < 1e-8 the Taylor form chi (1 + Omega_k chi^2 / 6) is exact to double precision.
    flat = Omega_k * chi**2 < 1e-8
    flat &= Omega_k * chi**2 > -1e-8
    open_ = np.sinh(x) / safe_root
    closed = np.where(x < np.pi, np.sin(x) / safe_root, np.nan)
    curved = np.where(Omega_k > 0.0, open_, closed)
    return np.where(flat, chi * (1.0 + Omega_k * chi**2 / 6.0), curved)


def comoving_distance(z, Omega_m, h, w=-1.0, Omega_k=0.0):
    """Line-of-sight comoving distance in Mpc.

    .. math::

        \\chi(z) = \\frac{c}{H_0} \\int_0^z \\frac{dz'}{E(z')}, \\qquad
        E^2 = \\Omega_m (1+z)^3 + \\Omega_k (1+z)^2 + (1 - \\Omega_m - \\Omega_k) (1+z)^{3(1+w)}

    (radiation neglected), by 48-point Gauss-Legendre quadrature on
    ``[0, z]``, exact to rounding for the smooth integrands here.

    Parameters
    ----------
    z : float or array-like
        Redshift, >= 0.
    Omega_m, h, w, Omega_k : float or array-like
        Matter density, ``H_0 / (100 km/s/Mpc)``, dark-energy equation of
        state and curvature density; all arguments broadcast.

    Returns
    -------
    ndarray
        ``chi`` in Mpc; NaN where ``E^2 <= 0`` somewhere on ``[0, z]``.
    """
    hubble_distance = SPEED_OF_LIGHT_KM_S / (100.0 * np.asarray(h, dtype=float))
    return hubble_distance * _comoving_distance_hubble_units(z, Omega_m, w, Omega_k)


def transverse_comoving_distance(z, Omega_m, h, w=-1.0, Omega_k=0.0):
    """Transverse comoving distance ``D_M = (1 + z) D_A`` in Mpc.

    .. math::

        D_M = \\frac{c}{H_0} \\frac{1}{\\sqrt{\\Omega_k}}
              \\sinh\\left(\\sqrt{\\Omega_k} \\frac{H_0 \\chi}{c}\\right) \\ (\\Omega_k > 0), \\quad
        \\chi \\ (\\Omega_k = 0), \\quad
        \\frac{c}{H_0} \\frac{1}{\\sqrt{|\\Omega_k|}}
              \\sin\\left(\\sqrt{|\\Omega_k|} \\frac{H_0 \\chi}{c}\\right) \\ (\\Omega_k < 0)

    Arguments as in :func:`comoving_distance`. NaN past the antipode of a
    closed universe (``sqrt|Omega_k| H_0 chi / c >= pi``).
    """
    hubble_distance = SPEED_OF_LIGHT_KM_S / (100.0 * np.asarray(h, dtype=float))
    chi = _comoving_distance_hubble_units(z, Omega_m, w, Omega_k)
    return hubble_distance * _transverse_hubble_units(chi, Omega_k)


def volume_averaged_distance(z, Omega_m, h, w=-1.0, Omega_k=0.0):
    """Volume-averaged distance of Eisenstein et al. (2005) in Mpc.

    .. math::

        D_V(z) = \\left[D_M^2(z) \\frac{c z}{H(z)}\\right]^{1/3}

    Arguments as in :func:`comoving_distance`.
    """
    z = np.asarray(z, dtype=float)
    hubble_distance = SPEED_OF_LIGHT_KM_S / (100.0 * np.asarray(h, dtype=float))
    chi = _comoving_distance_hubble_units(z, Omega_m, w, Omega_k)
    d_m = _transverse_hubble_units(chi, Omega_k)
    with np.errstate(invalid="ignore"):
        e_z = np.sqrt(_hubble_rate_squared(z, np.asarray(Omega_m, dtype=float), w, Omega_k))
    return hubble_distance * np.cbrt(d_m**2 * z / e_z)


def dilation_factor(omega_b, omega_c, h, w, Omega_k, z=Z_EFF):
    """Isotropic dilation ``alpha = D_V(z) / D_V^fid(z)``, both distances in h^-1 Mpc.

    Measured in h^-1 Mpc, ``h D_V`` depends on ``h`` only through
    ``Omega_m = (omega_b + omega_c) / h^2``. The fiducial cosmology is
    :data:`FIDUCIAL_PARAMETERS`, so ``alpha = 1`` there.

    Returns
    -------
    ndarray
        ``alpha``; NaN for unphysical expansion histories.
    """
    omega_m = np.asarray(omega_b, dtype=float) + np.asarray(omega_c, dtype=float)
    Omega_m = omega_m / np.asarray(h, dtype=float) ** 2
    fid_omega_b, fid_omega_c, fid_h, *_, fid_w, fid_omega_k = FIDUCIAL_PARAMETERS
    fid_Omega_m = (fid_omega_b + fid_omega_c) / fid_h**2
    # h = 1 makes c / H_0 = 2997.9 h^-1 Mpc: both distances come out in h^-1 Mpc.
    fiducial = volume_averaged_distance(z, fid_Omega_m, 1.0, fid_w, fid_omega_k)
    return volume_averaged_distance(z, Omega_m, 1.0, w, Omega_k) / fiducial


def observed_galaxy_power(k, parameters):
    """Q-model galaxy spectrum seen through the fiducial cosmology's distances.

    .. math::

        P_{obs}(k) = \\alpha^{-3} P_g(k / \\alpha), \\qquad \\alpha = D_V(z_{eff}) / D_V^{fid}(z_{eff})

    *Direction of the dilation.* The model is computed in the trial
    cosmology; the data were turned into comoving positions with the fiducial
    one. A separation ``r`` (h^-1 Mpc, trial cosmology) at ``z_eff`` is
    catalogued as ``r / alpha`` in fiducial units, so the observed density
    field is ``delta_obs(x) = delta(alpha x)``. Its Fourier transform is
    ``alpha^-3 delta~(k / alpha)`` and the catalogued volume is ``V / alpha^3``,
    hence ``P_obs(k) = alpha^-3 P_g(k / alpha)``: a feature at ``k_0`` in the
    trial cosmology (for instance the acoustic scale) appears at ``alpha k_0``.
    If the trial cosmology's distances are larger (``alpha > 1``), the feature
    is seen at smaller separations, i.e. at larger ``k``, as it should.

    Parameters
    ----------
    k : array-like of shape (m,)
        Wavenumbers in fiducial h Mpc^-1.
    parameters : array-like of shape (9,) or (n, 9)
        ``(omega_b, omega_c, h, n_s, sigma_8, b, Q, w, Omega_k)`` per row.

    Returns
    -------
    ndarray of shape (m,) or (n, m)
        In (fiducial h^-1 Mpc)^3; rows are NaN where the expansion history is unphysical.
    """
    parameters = np.asarray(parameters, dtype=float)
    single = parameters.ndim == 1
    parameters = np.atleast_2d(parameters)
    omega_b, omega_c, h, n_s, sigma_8, b, Q, w, Omega_k = (parameters[:, [i]] for i in range(9))
    alpha = dilation_factor(omega_b, omega_c, h, w, Omega_k)
    k = np.asarray(k, dtype=float)[None, :]
    with np.errstate(invalid="ignore"):
        k_model = k / alpha
    p_obs = _galaxy_power_rows(k_model, omega_b, omega_c, h, n_s, sigma_8, b, Q) / alpha**3
    return p_obs[0] if single else p_obs


BandPowers = namedtuple("BandPowers", "k fiducial data sigma noise")


@functools.lru_cache(maxsize=1)
def synthetic_band_powers():
    """The synthetic data set, generated once from :data:`DATA_SEED`.

    ``k``: 20 log-spaced band centres in [0.012, 0.2] h Mpc^-1;
    ``fiducial``: :func:`observed_galaxy_power` at :data:`FIDUCIAL_PARAMETERS`
    (``alpha = 1``); ``noise``: ``eps = default_rng(DATA_SEED).standard_normal(20)``;
    ``sigma = 0.08 fiducial``; ``data = fiducial (1 + 0.08 eps)``.

    Returns
    -------
    BandPowers
        Named tuple of read-only arrays ``(k, fiducial, data, sigma, noise)``.
    """
    k = np.geomspace(*BAND_K_RANGE, N_BANDS)
    fiducial = observed_galaxy_power(k, FIDUCIAL_PARAMETERS)
    noise = np.random.default_rng(DATA_SEED).standard_normal(N_BANDS)
    sigma = FRACTIONAL_ERROR * fiducial
    data = fiducial * (1.0 + FRACTIONAL_ERROR * noise)
    arrays = (k, fiducial, data, sigma, noise)
    for array in arrays:
        array.flags.writeable = False
    return BandPowers(*arrays)


class LRGPowerSpectrumLikelihood:
    """Log-likelihood of synthetic LRG band powers, to be maximised (substitute for paper Sec. 5.2).

    ``f(x) = -1/2 sum_i ((P_data,i - P_obs,i(theta(x))) / sigma_i)^2`` with
    ``theta_j = lo_j + x_j (hi_j - lo_j)`` for the 9 physical parameters
    (module docstring); coordinates 10 to ``dim`` are ignored.

    ==========  ===================================  ================
    coordinate  parameter                            range
    ==========  ===================================  ================
    x1          omega_b = Omega_b h^2                [0.018, 0.028]
    x2          omega_c = Omega_c h^2                [0.07, 0.16]
    x3          h                                    [0.55, 0.90]
    x4          n_s                                  [0.85, 1.10]
    x5          sigma_8                              [0.60, 1.00]
    x6          b (bias)                             [1.5, 2.5]
    x7          Q ((h^-1 Mpc)^2)                     [0, 60]
    x8          w                                    [-1.5, -0.5]
    x9          Omega_k                              [-0.1, 0.1]
    x10..xD     dummies                              ignored
    ==========  ===================================  ================

    The likelihood is flat along the curve ``b sigma_8 = const``. Inside the
    box ``H(z)^2 > 0`` everywhere (``Omega_de >= 0.28`` and
    ``Omega_m (1+z) > 0.1 >= -Omega_k``), so :data:`UNPHYSICAL_LOG_LIKELIHOOD`
    is only a guard.

    Observed values (numpy 2.4): ``f(fiducial_x) = -9.033``; over 10,000
    uniform points of the cube (``default_rng(0)``) min -21,803, median -278,
    max -8.86; the 512 corners of the physical box lie in [-74,770, -29.1].
    Along each axis through ``fiducial_x`` the lowest value is, from most to
    least sensitive: ``sigma_8`` and ``b`` -861 each (their curves coincide:
    both ranges span a factor 5/3 with the fiducial value at 0.4 of the way),
    ``omega_c`` -417, ``w`` -109, ``Q`` -92, ``h`` -60, ``n_s`` -55,
    ``omega_b`` -17, ``Omega_k`` -13.

    Parameters
    ----------
    dim : int, default 20
        Input dimension, >= 9 (the paper used 20).

    Attributes
    ----------
    name : str
    dim : int
    bounds : ndarray of shape (dim, 2)
        The unit cube.
    parameter_names : tuple of str
        The 9 physical names, then ``dummy_1`` ... ``dummy_{dim-9}``.
    physical_bounds : ndarray of shape (9, 2)
    fiducial_x : ndarray of shape (dim,)
        Unit-cube point of :data:`FIDUCIAL_PARAMETERS`, dummies at 0.5. Its
        value is ``-1/2 sum eps_i^2`` for the module's noise draw.
    fiducial_value : float
    optimal_value : None
        Unknown: the noise moves the maximum away from the fiducial point by
        an amount that has no closed form, and the ``b sigma_8`` ridge makes the
        maximiser a curve; it is at least ``fiducial_value``.
    substitute : bool
        True: not the paper's data or software.
    data_note : str
    """

    optimal_value = None
    substitute = True
    data_note = (
        "Substitute for the SDSS LRG likelihood of Tegmark et al. (2006) used by Kandasamy et al. (2015): "
        "synthetic band powers (20 bands, 0.012-0.2 h/Mpc, 8 % diagonal errors, one fixed noise draw) from an "
        "Eisenstein & Hu (1998) linear spectrum with the Q-model and an isotropic D_V dilation at z = 0.35; "
        "no window functions, no survey covariance; 9 parameters of our choice padded with ignored dummies. "
        "Absolute log-likelihood values are not comparable with the paper's."
    )

    def __init__(self, dim=20):
        try:
            dim = operator.index(dim)
        except TypeError:
            raise ValueError(f"dim must be an integer >= 9 for the SDSS LRG likelihood; got {dim!r}") from None
        if dim < len(PARAMETER_NAMES):
            raise ValueError(f"dim must be an integer >= 9 for the SDSS LRG likelihood (9 physical parameters); "
                             f"got {dim}")
        self.dim = dim
        self.name = "sdss_lrg" if dim == 20 else f"sdss_lrg_{dim}d"
        self.bounds = np.column_stack([np.zeros(dim), np.ones(dim)])
        self.parameter_names = PARAMETER_NAMES + tuple(f"dummy_{i}" for i in range(1, dim - 8))
        self.physical_bounds = PHYSICAL_BOUNDS.copy()
        self.fiducial_x = np.full(dim, 0.5)
        low, high = PHYSICAL_BOUNDS[:, 0], PHYSICAL_BOUNDS[:, 1]
        self.fiducial_x[:9] = (FIDUCIAL_PARAMETERS - low) / (high - low)
        self.fiducial_value = -0.5 * float(np.sum(synthetic_band_powers().noise ** 2))

    def to_physical(self, X):
        """Physical parameters ``(n, 9)`` of unit-cube inputs ``X`` of shape (n, dim) (checked)."""
        X = inputs_in_box(self, X)
        low, high = self.physical_bounds[:, 0], self.physical_bounds[:, 1]
        return low + X[:, :9] * (high - low)

    def __call__(self, X):
        """Log-likelihood at each row of ``X``.

        Parameters
        ----------
        X : array-like of shape (n, dim)
            Inputs in [0, 1]^dim; values outside by at most 1e-9 are clipped.

        Returns
        -------
        ndarray of shape (n,)
            Finite values, at least :data:`UNPHYSICAL_LOG_LIKELIHOOD`.
        """
        theta = self.to_physical(X)
        bands = synthetic_band_powers()
        model = observed_galaxy_power(bands.k, theta)
        log_like = -0.5 * np.sum(((bands.data - model) / bands.sigma) ** 2, axis=1)
        log_like = np.where(np.isfinite(log_like), log_like, UNPHYSICAL_LOG_LIKELIHOOD)
        return np.maximum(log_like, UNPHYSICAL_LOG_LIKELIHOOD)

    def __repr__(self):
        return f"{type(self).__name__}(dim={self.dim})"
