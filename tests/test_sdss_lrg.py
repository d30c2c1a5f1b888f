"""Tests of the SDSS LRG likelihood substitute (common.problems.sdss_lrg), spec add_gp_ucb.md Sec. 4.2."""
import itertools
import math
import time

import numpy as np
import pytest
from scipy import integrate

from common.problems import sdss_lrg
from common.problems.sdss_lrg import (
    DATA_SEED,
    FIDUCIAL_PARAMETERS,
    N_BANDS,
    PHYSICAL_BOUNDS,
    UNPHYSICAL_LOG_LIKELIHOOD,
    LRGPowerSpectrumLikelihood,
    comoving_distance,
    dilation_factor,
    eh98_no_wiggle_transfer,
    eh98_sound_horizon,
    eh98_sound_horizon_fit,
    eh98_transfer,
    eh98_zero_baryon_transfer,
    galaxy_power,
    linear_power,
    observed_galaxy_power,
    synthetic_band_powers,
    transverse_comoving_distance,
)

C_KM_S = 299792.458
FID_OMEGA_B, FID_OMEGA_C, FID_H = FIDUCIAL_PARAMETERS[:3]
FID_OMEGA_M = FID_OMEGA_B + FID_OMEGA_C  # physical omega_m = Omega_m h^2
K_MPC = np.geomspace(1e-4, 10.0, 400)


@pytest.fixture(scope="module")
def likelihood():
    return LRGPowerSpectrumLikelihood()


def uniform_unit_points(n, dim, seed):
    return np.random.default_rng(seed).random((n, dim))


# --- EH98 transfer function ------------------------------------------------------------------------


def test_transfer_tends_to_one_on_large_scales():
    T = eh98_transfer(np.array([1e-7, 1e-6]), FID_OMEGA_M, FID_OMEGA_B)
    np.testing.assert_allclose(T, 1.0, rtol=0, atol=1e-6)


def test_transfer_decays_on_small_scales():
    # Beyond the equality scale T ~ ln(k) / k^2: a decade in k costs about a factor 50.
    T1, T10, T100 = eh98_transfer(np.array([1.0, 10.0, 100.0]), FID_OMEGA_M, FID_OMEGA_B)
    assert T10 < 1e-3
    assert T10 / T1 < 0.05
    assert T100 / T10 < 0.05


def test_tiny_baryon_density_gives_the_zero_baryon_form():
    # EH98 eqs. (16)-(24) with omega_b -> 0 against their separate zero-baryon fit, eq. (29):
    # two fits of the same CDM-only spectrum, which EH98 quote as agreeing to about 1 %.
    for omega_m in (0.09, FID_OMEGA_M, 0.19):
        ratio = eh98_transfer(K_MPC, omega_m, 1e-7) / eh98_zero_baryon_transfer(K_MPC, omega_m)
        np.testing.assert_allclose(ratio, 1.0, rtol=0.02)


def test_fiducial_baryons_suppress_and_oscillate():
    # With f_b = 0.18 the full form is well below the zero-baryon one at k ~ 0.5 Mpc^-1, and it
    # oscillates around the smooth no-wiggle form (eqs. 30-31) by several per cent near the BAO scale.
    k = np.geomspace(0.02, 0.4, 300)
    full = eh98_transfer(k, FID_OMEGA_M, FID_OMEGA_B)
    assert eh98_transfer(0.5, FID_OMEGA_M, FID_OMEGA_B) < 0.85 * eh98_zero_baryon_transfer(0.5, FID_OMEGA_M)
    wiggles = full / eh98_no_wiggle_transfer(k, FID_OMEGA_M, FID_OMEGA_B) - 1.0
    assert wiggles.max() > 0.02 and wiggles.min() < -0.02
    assert np.count_nonzero(np.diff(np.sign(wiggles))) >= 4


@pytest.mark.parametrize("omega_b, omega_m", [(FID_OMEGA_B, FID_OMEGA_M), (0.018, 0.088), (0.028, 0.188)])
def test_sound_horizon_matches_the_eq26_approximation(omega_b, omega_m):
    s = eh98_sound_horizon(omega_m, omega_b)
    assert 100.0 < s < 200.0  # Mpc
    assert s == pytest.approx(eh98_sound_horizon_fit(omega_m, omega_b), rel=0.03)


# --- sigma_8 normalisation -------------------------------------------------------------------------


def tophat(x):
    return 3.0 * (np.sin(x) - x * np.cos(x)) / x**3


@pytest.mark.parametrize("corner", ["fiducial", "low", "high"])
def test_sigma8_normalisation_is_self_consistent(corner):
    # Independent integral of the normalised P_lin in 8 h^-1 Mpc spheres: Simpson's rule on a grid 400 times
    # finer and wider than the module's, with the window written out here.
    params = {"fiducial": FIDUCIAL_PARAMETERS, "low": PHYSICAL_BOUNDS[:, 0], "high": PHYSICAL_BOUNDS[:, 1]}[corner]
    omega_b, omega_c, h, n_s, sigma_8 = params[:5]
    ln_k = np.linspace(math.log(1e-6), math.log(1e3), 200_001)
    k = np.exp(ln_k)
    integrand = k**3 * linear_power(k, omega_b, omega_c, h, n_s, sigma_8) * tophat(8.0 * k) ** 2 / (2 * math.pi**2)
    variance = integrate.simpson(integrand, x=ln_k)
    assert variance == pytest.approx(sigma_8**2, rel=1e-6)


def test_linear_power_scales_as_sigma8_squared():
    k = np.geomspace(0.01, 0.3, 7)
    low = linear_power(k, FID_OMEGA_B, FID_OMEGA_C, FID_H, 0.95, 0.6)
    high = linear_power(k, FID_OMEGA_B, FID_OMEGA_C, FID_H, 0.95, 0.9)
    np.testing.assert_allclose(high / low, 1.5**2, rtol=1e-12)


# --- distances -------------------------------------------------------------------------------------


@pytest.mark.parametrize("z", [0.35, 1.0, 3.0])
def test_einstein_de_sitter_comoving_distance_has_closed_form(z):
    h = 0.7
    expected = 2.0 * C_KM_S / (100.0 * h) * (1.0 - 1.0 / math.sqrt(1.0 + z))
    assert comoving_distance(z, 1.0, h, -1.0, 0.0) == pytest.approx(expected, rel=1e-12)


def test_open_curvature_stretches_and_closed_curvature_shrinks_transverse_distance():
    z, Omega_m, h = 1.0, 0.3, 0.7
    ratios = {}
    for Omega_k in (-0.1, 0.0, 0.1):
        chi = comoving_distance(z, Omega_m, h, -1.0, Omega_k)
        ratios[Omega_k] = transverse_comoving_distance(z, Omega_m, h, -1.0, Omega_k) / chi
        # Series of sinh / sin: D_M = chi (1 + Omega_k (chi H0 / c)^2 / 6 + ...)
        x2 = (chi * 100.0 * h / C_KM_S) ** 2
        assert ratios[Omega_k] == pytest.approx(1.0 + Omega_k * x2 / 6.0 + Omega_k**2 * x2**2 / 120.0, rel=1e-6)
    assert ratios[-0.1] < 1.0 == ratios[0.0] < ratios[0.1]


def test_dilation_is_one_at_the_fiducial_cosmology():
    omega_b, omega_c, h, *_, w, Omega_k = FIDUCIAL_PARAMETERS
    assert dilation_factor(omega_b, omega_c, h, w, Omega_k) == pytest.approx(1.0, abs=1e-14)


def test_dilation_shrinks_with_matter_density():
    # In h^-1 Mpc, more matter decelerates more: shorter distances, alpha < 1.
    omega_b, omega_c, h, *_, w, Omega_k = FIDUCIAL_PARAMETERS
    assert dilation_factor(omega_b, omega_c + 0.03, h, w, Omega_k) < 1.0 < dilation_factor(
        omega_b, omega_c - 0.03, h, w, Omega_k)


def test_observed_spectrum_is_the_model_dilated_by_alpha():
    # P_obs(k) = P_g(k / alpha) / alpha^3 for a cosmology with alpha far from 1 (docstring of
    # observed_galaxy_power): a feature of P_g at k0 is seen at alpha k0.
    params = np.array([0.022, 0.09, 0.6, 1.0, 0.8, 2.0, 20.0, -0.6, 0.08])
    omega_b, omega_c, h, n_s, sigma_8, b, Q, w, Omega_k = params
    alpha = dilation_factor(omega_b, omega_c, h, w, Omega_k)
    assert abs(alpha - 1.0) > 0.05
    k = np.geomspace(0.012, 0.2, 9)
    expected = galaxy_power(k / alpha, omega_b, omega_c, h, n_s, sigma_8, b, Q) / alpha**3
    np.testing.assert_allclose(observed_galaxy_power(k, params), expected, rtol=1e-12)


def test_expansion_history_with_negative_hubble_rate_squared_is_nan():
    # Omega_k = -3, Omega_de = 3.7: E^2(0.35) = 0.3 * 1.35^3 - 3 * 1.35^2 + 3.7 < 0.
    assert np.isnan(dilation_factor(0.0223, 0.12, math.sqrt(0.1423 / 0.3), -1.0, -3.0))


# --- the objective ---------------------------------------------------------------------------------


def test_dummy_coordinates_are_ignored(likelihood):
    X = uniform_unit_points(50, 20, seed=0)
    Y = X.copy()
    Y[:, 9:] = uniform_unit_points(50, 11, seed=1)
    np.testing.assert_array_equal(likelihood(X), likelihood(Y))


def test_fiducial_point_scores_minus_half_the_noise_sum_of_squares(likelihood):
    eps = np.random.default_rng(DATA_SEED).standard_normal(N_BANDS)
    value = likelihood(likelihood.fiducial_x[None, :])[0]
    assert value == pytest.approx(-0.5 * np.sum(eps**2), rel=1e-12)


def test_synthetic_data_follow_the_spec():
    bands = synthetic_band_powers()
    eps = np.random.default_rng(DATA_SEED).standard_normal(N_BANDS)
    np.testing.assert_allclose(bands.k, np.geomspace(0.012, 0.2, 20), rtol=1e-14)
    np.testing.assert_allclose(bands.sigma, 0.08 * bands.fiducial, rtol=1e-14)
    np.testing.assert_allclose(bands.data, bands.fiducial * (1.0 + 0.08 * eps), rtol=1e-14)


def test_fiducial_x_maps_to_fiducial_parameters(likelihood):
    np.testing.assert_allclose(likelihood.to_physical(likelihood.fiducial_x[None, :])[0], FIDUCIAL_PARAMETERS,
                               rtol=1e-14, atol=1e-15)
    np.testing.assert_array_equal(likelihood.fiducial_x[9:], 0.5)


def test_every_corner_of_the_box_gives_a_finite_value_above_the_guard(likelihood):
    corners = np.array(list(itertools.product([0.0, 1.0], repeat=9)))
    X = np.hstack([corners, np.full((len(corners), 11), 0.5)])
    values = likelihood(X)
    assert np.all(np.isfinite(values))
    assert np.all(values > UNPHYSICAL_LOG_LIKELIHOOD)
    assert np.all(values < likelihood.fiducial_value)


def test_unphysical_parameters_return_the_guard_value(monkeypatch):
    # Stretch the Omega_k range of one instance beyond the box so that H(z)^2 < 0 at z_eff.
    problem = LRGPowerSpectrumLikelihood(dim=9)
    bounds = problem.physical_bounds.copy()
    bounds[8] = [-3.0, 0.1]
    monkeypatch.setattr(problem, "physical_bounds", bounds)
    x = problem.fiducial_x.copy()
    x[8] = 0.0
    values = problem(np.vstack([x, problem.fiducial_x]))
    assert values[0] == UNPHYSICAL_LOG_LIKELIHOOD
    assert np.isfinite(values[1]) and values[1] > UNPHYSICAL_LOG_LIKELIHOOD


def test_interface_attributes():
    problem = LRGPowerSpectrumLikelihood(dim=12)
    assert problem.dim == 12
    np.testing.assert_array_equal(problem.bounds, np.column_stack([np.zeros(12), np.ones(12)]))
    assert problem.parameter_names[:9] == sdss_lrg.PARAMETER_NAMES
    assert problem.parameter_names[9:] == ("dummy_1", "dummy_2", "dummy_3")
    assert problem.physical_bounds.shape == (9, 2)
    assert problem.optimal_value is None
    assert problem(uniform_unit_points(3, 12, seed=2)).shape == (3,)


@pytest.mark.parametrize("dim", [8, 0, 9.5, "20", None])
def test_bad_dim_raises(dim):
    with pytest.raises(ValueError, match="dim must be an integer >= 9"):
        LRGPowerSpectrumLikelihood(dim=dim)


@pytest.mark.parametrize("shape", [(20,), (3, 19), (2, 21), (1, 20, 1)])
def test_wrong_shape_raises_naming_the_problem(likelihood, shape):
    with pytest.raises(ValueError, match=r"shape \(n, 20\) for sdss_lrg"):
        likelihood(np.full(shape, 0.5))


@pytest.mark.parametrize("bad", [-0.01, 1.01, np.nan])
def test_values_outside_the_unit_cube_raise_naming_the_problem(likelihood, bad):
    X = np.full((2, 20), 0.5)
    X[1, 4] = bad
    with pytest.raises(ValueError, match=r"inside the box of sdss_lrg .*row 1"):
        likelihood(X)


def test_measure_evaluation_cost(likelihood):
    # Not an assertion on speed: prints the cost (run pytest with -s to see it).
    x = likelihood.fiducial_x[None, :]
    likelihood(x)
    repeats = 50
    start = time.perf_counter()
    for _ in range(repeats):
        likelihood(x)
    single = (time.perf_counter() - start) / repeats
    X = uniform_unit_points(1000, 20, seed=3)
    start = time.perf_counter()
    values = likelihood(X)
    batch = time.perf_counter() - start
    print(f"\nsdss_lrg: one evaluation {single * 1e3:.3f} ms; batch of 1000 {batch * 1e3:.1f} ms "
          f"({batch / 1000 * 1e6:.0f} us per row)")
    assert values.shape == (1000,)
