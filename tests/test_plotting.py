"""The shared plotting helpers: bands a reader can trust on a log axis."""
import matplotlib.pyplot as plt
import numpy as np
import pytest

from common import plotting

STEPS = np.arange(1, 21)
# Regrets spread over two decades: the mean minus one standard deviation is negative at every step.
CURVES = np.vstack([np.full(20, 1e-3), np.full(20, 1e-3), np.full(20, 1.0)])


def _figure(band):
    fig, ax = plt.subplots()
    plotting.plot_mean_band(ax, STEPS, CURVES, "runs", band=band)
    ax.set(yscale="log", title="regret")
    return fig


def test_a_band_reaching_below_zero_on_a_log_axis_is_refused_naming_the_axes():
    fig = _figure("std")
    with pytest.raises(ValueError, match="'regret'.*band='iqr'"):
        plotting.check_bands_on_log_axes(fig)
    plt.close(fig)


def test_the_interquartile_band_stays_above_zero_on_a_log_axis():
    fig = _figure("iqr")
    plotting.check_bands_on_log_axes(fig)
    plt.close(fig)


def test_a_linear_axis_may_show_a_band_below_zero():
    fig = _figure("std")
    fig.axes[0].set_yscale("linear")
    plotting.check_bands_on_log_axes(fig)
    plt.close(fig)
