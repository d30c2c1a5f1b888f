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
    assert any("'regret'" in problem and "band='iqr'" in problem for problem in plotting.figure_problems(fig))
    plt.close(fig)


def test_the_interquartile_band_stays_above_zero_on_a_log_axis():
    fig = _figure("iqr")
    assert plotting.figure_problems(fig) == []
    plt.close(fig)


def test_a_linear_axis_may_show_a_band_below_zero():
    fig = _figure("std")
    fig.axes[0].set_yscale("linear")
    assert plotting.figure_problems(fig) == []
    plt.close(fig)


ACCURACIES = np.vstack([np.full(20, 0.99), np.full(20, 1.0), np.full(20, 0.6)])


@pytest.mark.parametrize("band, refused", [("std", True), ("iqr", False)])
def test_a_band_outside_the_declared_range_is_refused(band, refused):
    fig, ax = plt.subplots()
    plotting.plot_mean_band(ax, STEPS, ACCURACIES, "runs", band=band)
    plotting.declare_range(ax, 0, 1)
    assert any("outside the quantity's range" in problem for problem in plotting.figure_problems(fig)) == refused
    plt.close(fig)


@pytest.mark.parametrize("n_bands, refused", [(plotting.MAX_BANDS, False), (plotting.MAX_BANDS + 1, True)])
def test_a_panel_shades_at_most_three_bands(n_bands, refused):
    fig, ax = plt.subplots()
    for shift in range(n_bands):
        plotting.plot_mean_band(ax, STEPS, CURVES + shift, f"runs {shift}")
    assert any("shades" in problem for problem in plotting.figure_problems(fig)) == refused
    plt.close(fig)


@pytest.mark.parametrize("location, refused", [("center", True), ("outside right upper", False)])
def test_a_legend_on_a_curve_is_refused(location, refused):
    fig, ax = plt.subplots(layout="constrained")
    ax.plot(STEPS, np.full(20, 0.5), label="flat")
    ax.set_ylim(0, 1)
    if location.startswith("outside"):
        fig.legend(loc=location)
    else:
        ax.legend(loc=location)
    fig.canvas.draw()
    assert bool(plotting.legends_on_curves(fig)) == refused
    plt.close(fig)


def test_save_figure_refuses_a_figure_that_breaks_a_rule_and_leaves_no_file(tmp_path, monkeypatch):
    monkeypatch.setenv("BO_FIGURES_ROOT", str(tmp_path))
    monkeypatch.delenv(plotting.AUDIT_VARIABLE, raising=False)
    with pytest.raises(ValueError, match="figure toy/fig1: .*'regret'"):
        plotting.save_figure(_figure("std"), "toy", "fig1")
    assert not list(tmp_path.rglob("*.png"))


def test_show_figure_outside_a_notebook_prints_its_caption_and_closes_the_figure(capsys):
    fig, ax = plt.subplots()
    ax.plot([0, 1], [0, 1])
    plotting.show_figure(fig, "A line from (0, 0) to (1, 1); drawn for the test")
    assert capsys.readouterr().out == "A line from (0, 0) to (1, 1); drawn for the test\n"
    assert not plt.fignum_exists(fig.number)


def test_every_committed_figure_output_of_a_notebook_has_its_caption_under_it():
    import json

    from common import paths

    for notebook in sorted((paths.repo_root() / "notebooks").glob("*.ipynb")):
        for index, cell in enumerate(json.loads(notebook.read_text(encoding="utf-8"))["cells"]):
            outputs = cell.get("outputs", [])
            for position, output in enumerate(outputs):
                if "image/png" not in output.get("data", {}):
                    continue
                following = outputs[position + 1] if position + 1 < len(outputs) else {}
                caption = "".join(following.get("data", {}).get("text/html", ""))
                assert caption.startswith('<p class="figure-caption">'), (
                    f"{notebook.name}, cell {index}: a figure without its caption; show it with "
                    "plotting.show_figure(fig, caption)")
