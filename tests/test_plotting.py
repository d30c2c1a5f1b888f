"""The shared plotting helpers: bands a reader can trust on a log axis."""
import matplotlib.pyplot as plt
from matplotlib.collections import LineCollection, PathCollection
from matplotlib.colors import to_rgb
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


def _saved_tick_labels(tmp_path, monkeypatch, low, high):
    monkeypatch.setenv("BO_FIGURES_ROOT", str(tmp_path))
    fig, ax = plt.subplots()
    ax.plot([1, 2], [low, high])
    ax.set_yscale("log")
    plotting.save_figure(fig, "toy", "ticks", pdf=False)
    labels = [tick.get_text() for tick in ax.get_yticklabels(minor=True) + ax.get_yticklabels()
              if tick.get_text() and low <= tick.get_position()[1] <= high]
    plt.close(fig)
    return labels


@pytest.mark.parametrize("low, high", [(40, 90), (3, 90), (0.002, 9), (1, 1000)])
def test_a_saved_log_axis_within_the_plain_range_is_labelled_in_plain_numbers(tmp_path, monkeypatch, low, high):
    labels = _saved_tick_labels(tmp_path, monkeypatch, low, high)
    assert len(labels) >= 2 and all(float(label) > 0 for label in labels), labels


@pytest.mark.parametrize("low, high", [(75, 165), (12, 30), (110, 600), (40, 90)])
def test_a_saved_log_axis_within_a_decade_leaves_no_stretch_wider_than_a_factor_1_5_unlabelled(tmp_path, monkeypatch,
                                                                                               low, high):
    values = sorted(float(label) for label in _saved_tick_labels(tmp_path, monkeypatch, low, high))
    stops = [low, *values, high]
    assert max(b / a for a, b in zip(stops, stops[1:])) <= 1.5 + 1e-9, values


def test_a_saved_narrow_log_axis_keeps_matplotlibs_finer_labels(tmp_path, monkeypatch):
    assert len(_saved_tick_labels(tmp_path, monkeypatch, 11, 22)) >= 4


def test_a_saved_log_axis_beyond_the_plain_range_keeps_its_powers_of_ten(tmp_path, monkeypatch):
    labels = _saved_tick_labels(tmp_path, monkeypatch, 1e-6, 50)
    assert labels and all("10^" in label for label in labels), labels


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


FINALS = {"BO": [0.0, 0.1, 0.3], "BO-PP": [0.2, 0.2]}


def test_plot_finals_draws_one_dot_per_run_and_a_bar_at_each_mean():
    fig, panels, strips = plotting.panels_with_finals(1, 1)
    plotting.plot_finals(strips[0, 0], FINALS)
    dots = [collection for collection in strips[0, 0].collections if isinstance(collection, PathCollection)]
    assert sorted(len(dot.get_offsets()) for dot in dots) == [2, 3]
    bars = [segment[0][1] for collection in strips[0, 0].collections if isinstance(collection, LineCollection)
            for segment in collection.get_segments()]
    np.testing.assert_allclose(sorted(bars), [np.mean(FINALS["BO"]), 0.2])
    plt.close(fig)


def test_plot_finals_marks_only_the_paper_values_it_is_given():
    fig, panels, strips = plotting.panels_with_finals(1, 1)
    words = plotting.plot_finals(strips[0, 0], FINALS, paper={"BO": 0.25, "BO-PP": float("nan")},
                                 paper_label="the paper's Table 1")
    markers = [line for line in strips[0, 0].get_lines() if line.get_label() == "the paper's Table 1"]
    assert [(line.get_xdata()[0], line.get_ydata()[0]) for line in markers] == [(0, 0.25)]
    assert "the paper's Table 1 as an open black diamond" in words
    plt.close(fig)


def test_plot_finals_takes_each_method_colour_from_its_curve():
    fig, panels, strips = plotting.panels_with_finals(1, 1)
    panels[0, 0].plot([1, 2], [1, 0], color="tab:red", label="BO-PP")
    plotting.plot_finals(strips[0, 0], {"BO-PP": [0.2, 0.2]}, like=panels[0, 0])
    bar = next(collection for collection in strips[0, 0].collections if isinstance(collection, LineCollection))
    np.testing.assert_allclose(bar.get_color()[0][:3], to_rgb("tab:red"))
    plt.close(fig)


@pytest.mark.parametrize("values, scale", [([0.0, 1e-3, 1.0], "symlog"), ([1e-3, 1.0], "log")])
def test_plot_finals_on_a_log_axis_keeps_exact_zeros_visible(values, scale):
    fig, panels, strips = plotting.panels_with_finals(1, 1)
    plotting.plot_finals(strips[0, 0], {"BO": values}, log=True)
    assert strips[0, 0].get_yscale() == scale
    plt.close(fig)


@pytest.mark.parametrize("finals, message", [({}, "finals is empty"), ({"BO": []}, "'BO'"),
                                             ({"BO": [1.0, np.nan]}, "finite")])
def test_plot_finals_refuses_what_it_cannot_draw_naming_it(finals, message):
    fig, panels, strips = plotting.panels_with_finals(1, 1)
    with pytest.raises(ValueError, match=message):
        plotting.plot_finals(strips[0, 0], finals)
    plt.close(fig)


def test_panels_with_finals_gives_a_strip_right_of_each_panel():
    fig, panels, strips = plotting.panels_with_finals(2, 3)
    assert panels.shape == strips.shape == (2, 3)
    fig.canvas.draw()
    for panel, strip in zip(panels.flat, strips.flat):
        assert strip.get_position().x0 > panel.get_position().x1
        assert strip.get_position().width < panel.get_position().width
    plt.close(fig)


def test_the_figure_legend_lists_each_label_once():
    fig, panels, strips = plotting.panels_with_finals(1, 2)
    for panel in panels.flat:
        panel.plot([0, 1], [0, 1], label="BO")
    legend = plotting.figure_legend(fig)
    assert [text.get_text() for text in legend.get_texts()] == ["BO"]
    plt.close(fig)


def test_every_regenerated_figure_says_where_the_paper_has_it_and_what_to_compare():
    """Issue 45, item 4: a caption "The paper's Fig. N ... regenerated" names the paper's section or appendix (the
    papers' texts carry no page numbers) and says what to compare with the paper's figure."""
    import json
    import re

    from common import paths

    for notebook in sorted((paths.repo_root() / "notebooks").glob("*.ipynb")):
        for index, cell in enumerate(json.loads(notebook.read_text(encoding="utf-8"))["cells"]):
            for output in cell.get("outputs", []):
                caption = "".join(output.get("data", {}).get("text/html", ""))
                if not caption.startswith('<p class="figure-caption">The paper&#x27;s Fig.'):
                    continue
                assert re.search(r"\((§|App\. |the parallel setting)", caption) and "compare" in caption, (
                    f"{notebook.name}, cell {index}: the caption of a regenerated figure names neither the paper's "
                    f"section nor what to compare: {caption[:160]}")


# Issue 64, item 2: a reader's matplotlibrc must not reach the published bytes. Each line would change a saved figure.
HOSTILE_RC = """\
lines.linewidth: 5
font.size: 20
font.family: serif
axes.prop_cycle: cycler('color', ['r', 'k'])
axes.facecolor: yellow
image.cmap: gray
figure.autolayout: True
figure.dpi: 40
savefig.dpi: 50
savefig.bbox: tight
savefig.transparent: True
pdf.fonttype: 42
pdf.compression: 0
"""
# A fresh process saves a toy figure with save_figure: after use_style(), after only STYLE (what use_style did before
# issue 64), or after use_style() in an IPython shell whose inline backend is active, as in a notebook's kernel.
SAVE_TOY_FIGURE = """\
import sys

import matplotlib
import matplotlib.pyplot as plt
import numpy as np

from common import plotting

if sys.argv[1] == "inline":   # MPLBACKEND names the inline backend, which activates at the first figure
    from IPython.core.interactiveshell import InteractiveShell

    InteractiveShell.instance()
if sys.argv[1] == "style_only":
    matplotlib.rcParams.update(plotting.STYLE)
else:
    plotting.use_style()
fig, (lines, image) = plt.subplots(1, 2)
for shift in range(3):
    lines.plot([0, 1, 2], [shift, shift + 1, 2 * shift])
lines.set(title="three lines", xlabel="x")
image.imshow(np.arange(12.0).reshape(3, 4))
plotting.save_figure(fig, "toy", "fig1")
"""
RUNS = {"plain": ("", "use_style"), "hostile": (HOSTILE_RC, "use_style"), "inline": ("", "inline"),
        "style_only": (HOSTILE_RC, "style_only")}


@pytest.fixture(scope="module")
def saved_bytes(tmp_path_factory):
    """The bytes of the toy figure's PNG and PDF from each of :data:`RUNS`, each in a fresh process with its own
    matplotlibrc (empty or hostile) named by MATPLOTLIBRC and run in a folder of its own (matplotlib reads a
    matplotlibrc in the working directory first), all at once."""
    import os
    import subprocess
    import sys

    from common import paths

    processes = {}
    for run, (rc, mode) in RUNS.items():
        folder = tmp_path_factory.mktemp(run)
        (folder / "matplotlibrc").write_text(rc)
        backend = "module://matplotlib_inline.backend_inline" if mode == "inline" else "Agg"   # as ipykernel sets it
        env = {**os.environ, "MATPLOTLIBRC": str(folder / "matplotlibrc"), "MPLBACKEND": backend,
               "BO_FIGURES_ROOT": str(folder), "PYTHONPATH": str(paths.repo_root())}
        env.pop(plotting.AUDIT_VARIABLE, None)
        processes[run] = folder, subprocess.Popen([sys.executable, "-c", SAVE_TOY_FIGURE, mode], cwd=folder, env=env,
                                                  stderr=subprocess.PIPE, text=True)
    saved = {}
    for run, (folder, process) in processes.items():
        assert process.wait(timeout=120) == 0, f"{run}: {process.stderr.read()}"
        saved[run] = {suffix: (folder / "toy" / f"fig1.{suffix}").read_bytes() for suffix in ("png", "pdf")}
    return saved


@pytest.mark.parametrize("suffix", ["png", "pdf"])
def test_a_readers_matplotlibrc_leaves_the_saved_bytes_unchanged(saved_bytes, suffix):
    assert saved_bytes["hostile"][suffix] == saved_bytes["plain"][suffix], f"a matplotlibrc changed the {suffix}"


@pytest.mark.parametrize("suffix", ["png", "pdf"])
def test_the_hostile_matplotlibrc_changes_a_figure_styled_by_style_alone(saved_bytes, suffix):
    """The check above would pass vacuously if matplotlib ignored the hostile file or STYLE pinned its keys."""
    assert saved_bytes["style_only"][suffix] != saved_bytes["plain"][suffix]


@pytest.mark.parametrize("suffix", ["png", "pdf"])
def test_a_figure_saved_under_the_inline_backend_has_the_bytes_of_one_saved_outside_it(saved_bytes, suffix):
    assert saved_bytes["inline"][suffix] == saved_bytes["plain"][suffix], f"the inline backend changed the {suffix}"


def test_use_style_resets_an_rcparam_set_before_it_to_matplotlibs_default(tmp_path):
    import matplotlib

    (tmp_path / "matplotlibrc").write_text(HOSTILE_RC)
    hostile = matplotlib.rc_params_from_file(tmp_path / "matplotlibrc", use_default_template=False)
    with matplotlib.rc_context(hostile):
        plotting.use_style()
        changed = {key: matplotlib.rcParams[key] for key in hostile
                   if matplotlib.rcParams[key] != plotting.STYLE.get(key, matplotlib.rcParamsDefault[key])}
    assert changed == {}


def test_use_style_keeps_the_sessions_backend(monkeypatch):
    """In a notebook's kernel the backend is the inline one, which shows the figures: the style must not reset it."""
    import matplotlib

    monkeypatch.setitem(matplotlib.rcParams, "backend", "pdf")
    with matplotlib.rc_context():
        plotting.use_style()
        assert matplotlib.rcParams["backend"] == "pdf"
