"""Lesson 1 (GP regression) and the course's shared tools: widgets, player, stored arrays, the student's copy.

The notebook itself, its exercises' solutions included (each asserts its answer), runs at smoke scale in
``tests/test_notebook_smoke.py`` like every registered notebook; here its drawing functions, its computations and the
tools every lesson uses are checked one by one.
"""
import ast
import itertools
import subprocess
import sys

import nbformat
import numpy as np
import pytest

from common import paths, plotting
from common.experiments import lesson1_gp_regression as lesson
from common.lessons import gp_regression as gpr
from common.lessons import player, students
from common.notebook import configuration
import common.lessons as lessons

NOTEBOOK = paths.notebooks_dir() / lesson.NOTEBOOK
#: The lesson's interactive figures: the function each widget calls and its sliders.
WIDGETS = [(gpr.prior_figure, gpr.PRIOR_SLIDERS), (gpr.posterior_figure, gpr.POSTERIOR_SLIDERS),
           (gpr.overconfidence_figure, gpr.OVERCONFIDENCE_SLIDERS)]


def slider_ends(sliders):
    """``{argument: [values]}``: a range slider's two ends, every choice of a list."""
    return {name: ([value for _, value in form] if isinstance(form, list) else [form[0], form[1]])
            for name, form in sliders.items()}


def slider_positions(sliders):
    """Each slider at each of its ends (the others at the function's defaults), then all at their lows and all at
    their highs together."""
    ends = slider_ends(sliders)
    single = [{name: value} for name, values in ends.items() for value in values]
    return single + [{name: values[0] for name, values in ends.items()},
                     {name: values[-1] for name, values in ends.items()}]


def rule_problems(fig):
    fig.draw_without_rendering()
    return plotting.figure_problems(fig) + plotting.legends_on_curves(fig)


# --------------------------------------------------------------------------- widgets and figures
@pytest.mark.parametrize("draw, sliders", WIDGETS, ids=[draw.__name__ for draw, _ in WIDGETS])
def test_every_widget_draws_a_figure_within_the_rules_at_its_sliders_ends(draw, sliders):
    for position in slider_positions(sliders):
        fig = draw(**position)
        assert fig.axes, f"{draw.__name__}({position}) drew nothing"
        assert rule_problems(fig) == [], f"{draw.__name__}({position})"


def test_the_notebook_figures_follow_the_rules_at_the_smoke_scale_frames():
    """The saved figures' drawing functions on the frames the players show (computed here, not from the cache)."""
    params = configuration(lesson, "smoke")
    profiles = gpr.kernel_profiles((0.1, 0.3))
    drawn = [(gpr.draw_kernels, profiles), (gpr.draw_landscape, gpr.landscape_arrays(6, 9, 51))]
    drawn += [(gpr.draw_posterior, lesson._compute(config)) for config in lesson.noise_frames(params)]
    drawn += [(gpr.draw_overconfidence, gpr.overconfidence_arrays(3, 0, 51))]
    for draw, arrays in drawn:
        fig = gpr.new_figure()
        draw(arrays, fig)
        assert rule_problems(fig) == [], draw.__name__
    fig = gpr.new_figure()
    gpr.draw_coverage_by_size([3, 4, 6], np.array([[0.0, 0.5, 1.0], [0.0, 0.1, 0.2], [0.0, 0.0, 0.05]]), fig)
    assert rule_problems(fig) == []


def test_a_band_outside_its_declared_range_is_caught():
    """The coverage figure declares its quantity a share in [0, 1]; a band beyond it breaks the rules."""
    fig = gpr.new_figure()
    gpr.draw_coverage_by_size([3, 4], np.array([[0.0, 1.0], [0.2, 0.4]]), fig)
    ax = fig.axes[0]
    ax.fill_between([3, 4], [-0.2, -0.2], [1.2, 1.2])
    assert any("outside the quantity's range" in problem for problem in rule_problems(fig))


# --------------------------------------------------------------------------- what the lesson computes
def _smallest_eigenvalue(kernel, lengthscale, n_points):
    return np.linalg.eigvalsh(gpr.make_kernel(kernel, lengthscale)(gpr.design(n_points))).min()


#: (kernel, lengthscale, points) of the posterior widget whose K(X, X) has every eigenvalue at least 1,000 times the
#: noise floor: 22 of the 30 combinations; the others are ill-conditioned (the next test).
WELL_CONDITIONED = [(kernel, lengthscale, n_points) for kernel in gpr.KERNEL_NAMES
                    for lengthscale, n_points in itertools.product((0.02, 0.1, 0.2, 0.5, 1.0), (2, 6, 16))
                    if _smallest_eigenvalue(kernel, lengthscale, n_points) >= 1e3 * gpr.NOISE_FLOOR]


@pytest.mark.parametrize("kernel, lengthscale, n_points", WELL_CONDITIONED)
def test_the_noise_free_posterior_interpolates_the_data_where_k_is_well_conditioned(kernel, lengthscale, n_points):
    """Where every eigenvalue of K(X, X) is at least 1,000 times the noise floor sigma_n^2 = 1e-6, the mean passes
    through the data to 1e-3 (f spans 22) and the band closes to the floor's sigma_n = 1e-3 there."""
    arrays = gpr.posterior_arrays(lengthscale, 0.0, n_points, kernel, n_grid=51)
    np.testing.assert_allclose(arrays["mean_at_data"], arrays["y"], atol=1e-3, rtol=0)
    assert np.all(arrays["std_at_data"] < 2e-3)
    assert np.all(arrays["std"] <= gpr.SIGNAL_STD * (1 + 1e-9))  # data never make the posterior wider than the prior


def test_where_k_is_numerically_singular_the_noise_floor_smooths_the_mean():
    """The lesson's note under the posterior widget: the squared exponential at lengthscale 1 on six points has
    eigenvalues below the 1e-6 on K's diagonal, which then acts as noise; the mean misses the data."""
    assert _smallest_eigenvalue("se", 1.0, 6) < gpr.NOISE_FLOOR
    arrays = gpr.posterior_arrays(1.0, 0.0, 6, "se", n_grid=51)
    assert np.abs(arrays["mean_at_data"] - arrays["y"]).max() > 0.1


def test_the_noisy_posterior_smooths_and_its_band_stays_open():
    arrays = gpr.posterior_arrays(0.1, 2.0, 12)
    assert np.abs(arrays["mean_at_data"] - arrays["y"]).max() > 0.1
    assert np.all((0.5 < arrays["std_at_data"]) & (arrays["std_at_data"] < 2.0))


@pytest.mark.parametrize("kernel", list(gpr.KERNEL_NAMES))
@pytest.mark.parametrize("lengthscale", (0.05, 0.3))
def test_prior_samples_have_the_kernels_covariance(kernel, lengthscale):
    x = gpr.grid(11)
    n_samples = 20_000
    samples = gpr.prior_samples(gpr.make_kernel(kernel, lengthscale), x,
                                np.random.default_rng(7).standard_normal((n_samples, len(x))))
    expected = gpr.make_kernel(kernel, lengthscale)(x[:, None])
    # Monte-Carlo error of a sample covariance: sd sqrt((K_ij^2 + K_ii K_jj) / n) <= sigma_f^2 sqrt(2 / n); 5 sd
    np.testing.assert_allclose(np.cov(samples, rowvar=False), expected, atol=5 * gpr.SIGNAL_STD**2 * np.sqrt(2 / n_samples))


def test_the_likelihood_terms_add_up_to_the_log_marginal_likelihood():
    X = gpr.design(6)
    y = gpr.observe(X, 0.0)
    for lengthscale in (0.05, 0.2, 0.8):
        gp = gpr.fit_gp(X, y, gpr.make_kernel("matern52", lengthscale))
        assert sum(gpr.likelihood_terms(gp, y).values()) == pytest.approx(gp.log_marginal_likelihood(), abs=1e-9)


def test_the_landscape_s_maximum_beats_its_grid_and_more_data_sharpen_it():
    few, more = gpr.landscape_arrays(6, 15, 51), gpr.landscape_arrays(12, 15, 51)
    for found in (few, more):
        assert found["best_log_likelihood"] >= found["log_likelihood"].max()
    within = [np.mean(found["best_log_likelihood"] - found["log_likelihood"] <= 2) for found in (few, more)]
    assert within[1] < within[0]


def test_fraction_outside_counts_the_points_beyond_the_band():
    f = np.array([0.0, 1.0, 3.0, -3.0])
    assert gpr.fraction_outside(f, np.zeros(4), np.ones(4)) == 0.5  # 3 and -3 leave +-1.96


@pytest.mark.parametrize("bad", [dict(kernel="rbf"), dict(n_points=0), dict(n_points=len(gpr.DESIGN) + 1)])
def test_bad_settings_name_the_parameter_and_what_is_allowed(bad):
    with pytest.raises(ValueError, match="kernel must be one of|n_points must be in"):
        gpr.posterior_arrays(**bad)


# --------------------------------------------------------------------------- the stored arrays
def test_the_stored_arrays_round_trip_exactly(tmp_path, monkeypatch):
    from common.runner import run_grid

    monkeypatch.setenv(paths.RESULTS_ROOT_VARIABLE, str(tmp_path))
    params = configuration(lesson, "smoke")
    configs = [lesson.prior_config(params, 0.05), lesson.posterior_config(params, noise_std=2.0),
               lesson.landscape_config(params, 6), lesson.overconfidence_config(params, 4, 1)]
    run_grid(configs, lesson.run, n_jobs=1, progress=False)
    for config in configs:
        stored, computed = lessons.stored_arrays(config), lesson._compute(config)
        assert sorted(stored) == sorted(set(computed) | set(config)), config["experiment"]
        for name, value in computed.items():
            np.testing.assert_array_equal(np.asarray(stored[name]), np.asarray(value), strict=False,
                                          err_msg=f"{config['experiment']}: {name}")
    with pytest.raises(LookupError):
        lessons.stored_arrays(lesson.prior_config(params, 0.5))  # not in the grid that ran


def test_a_run_stores_only_what_its_configuration_does_not_hold():
    config = lesson.posterior_config(configuration(lesson, "smoke"))
    stored = lesson.run(config)
    assert not set(stored) & set(config)
    assert {"mean", "std", "X", "y"} <= set(stored)


# --------------------------------------------------------------------------- live sliders and players
def test_live_prints_a_note_where_nobody_can_move_a_slider(monkeypatch, capsys):
    monkeypatch.delenv(lessons.JUPYTER_SESSION_VARIABLE, raising=False)
    monkeypatch.delenv(lessons.LIVE_VARIABLE, raising=False)
    assert not lessons.widgets_are_live()
    lessons.live(gpr.prior_figure, gpr.PRIOR_SLIDERS)
    assert "player below" in capsys.readouterr().out
    monkeypatch.setenv(lessons.JUPYTER_SESSION_VARIABLE, "lesson1_gp_regression.ipynb")
    assert lessons.widgets_are_live()
    monkeypatch.setenv(lessons.LIVE_VARIABLE, "0")  # reproduce.py's kernels, even when started from Jupyter
    assert not lessons.widgets_are_live()
    monkeypatch.setenv(lessons.LIVE_VARIABLE, "yes")
    with pytest.raises(ValueError, match="BO_LIVE_WIDGETS must be"):
        lessons.widgets_are_live()


def test_the_slider_widget_has_the_lesson_s_sliders_and_redraws():
    widget = lessons.slider_widget(gpr.posterior_figure, gpr.POSTERIOR_SLIDERS)
    controls = {control.description: control for control in widget.children[:-1]}
    assert set(controls) == set(gpr.POSTERIOR_SLIDERS)
    low, high, step = gpr.POSTERIOR_SLIDERS["lengthscale"]
    assert (controls["lengthscale"].min, controls["lengthscale"].max, controls["lengthscale"].step) == (low, high, step)
    controls["n_points"].value = 3
    assert widget.kwargs["n_points"] == 3 and widget.result.axes  # moving a slider redrew the figure
    assert widget.auto_display  # and shows it under the sliders (a bare interactive() would not)
    with pytest.raises(ValueError, match="slider 'lengthscale' must be"):
        lessons.slider_widget(gpr.prior_figure, {"lengthscale": (0.1, 1.0)})


def test_a_player_works_offline_and_is_the_same_at_every_execution():
    frames = [gpr.prior_arrays(lengthscale, n_grid=31) for lengthscale in (0.05, 0.5)]

    def make():
        return player.player_html(gpr.draw_prior, frames, name="test-prior", figsize=(7.5, 3.4),
                                  alt="Prior samples at two lengthscales")

    html = make()
    assert html == make()  # no random ids, no timestamps: a regenerated notebook does not change
    assert "http://" not in html and "https://" not in html  # nothing fetched: no CDN stylesheet
    assert 'alt="Prior samples at two lengthscales" src="data:image/png;base64,' in html
    assert html.count("data:image/png;base64,") == len(frames) + 1  # every frame, and the first as the image
    assert 'class="fa ' not in html


def test_a_player_refuses_a_frame_that_breaks_a_figure_rule():
    def draw(bands, fig):
        ax = fig.subplots()
        for band in range(bands):
            ax.fill_between([0, 1], [band, band], [band + 1, band + 1])

    with pytest.raises(ValueError, match="player 'bands', frame 1"):
        player.player_html(draw, [1, 4], name="bands", alt="bands")


# --------------------------------------------------------------------------- exercises and the student's copy
def _notebook():
    return nbformat.read(NOTEBOOK, as_version=4)


def _assigned(tree):
    """The names a cell binds (assignments, loop variables, imports)."""
    names = {node.id for node in ast.walk(tree) if isinstance(node, ast.Name) and isinstance(node.ctx, ast.Store)}
    return names | {(alias.asname or alias.name).split(".")[0] for node in ast.walk(tree)
                    if isinstance(node, (ast.Import, ast.ImportFrom)) for alias in node.names}


def _code(cell):
    return "\n".join(line for line in cell.source.splitlines() if not line.lstrip().startswith(("%", "!")))


def test_the_lesson_has_at_least_five_exercises_each_solved_asserted_and_answered():
    solutions = [cell for cell in _notebook().cells if students.is_solution(cell)]
    assert len(solutions) >= 5
    for cell in solutions:
        assert cell.cell_type == "code"
        tree = ast.parse(_code(cell))
        assert any(isinstance(node, ast.Assert) for node in ast.walk(tree)), cell.source[:80]
        assert "answer(" in cell.source, cell.source[:80]


def test_the_student_copy_drops_the_solutions_and_keeps_everything_else():
    notebook = _notebook()
    copy = students.strip_solutions(notebook)
    assert len(copy.cells) == len(notebook.cells)  # the lesson's solutions are code cells: emptied, not removed
    for original, stripped in zip(notebook.cells, copy.cells):
        if students.is_solution(original):
            assert stripped.source == students.PLACEHOLDER and stripped.outputs == []
            assert not students.is_solution(stripped) and stripped.execution_count is None
        else:
            assert stripped == original
    assert any(students.is_solution(cell) for cell in notebook.cells)  # the lesson itself is unchanged


def test_a_markdown_solution_is_left_out_of_the_student_copy():
    notebook = nbformat.v4.new_notebook(cells=[
        nbformat.v4.new_markdown_cell("**Exercise.** Why?"),
        nbformat.v4.new_markdown_cell("Because.", metadata={"tags": ["solution"]}),
        nbformat.v4.new_code_cell("x = 1", metadata={"tags": ["solution", "keep-me"]})])
    copy = students.strip_solutions(notebook)
    assert [cell.source for cell in copy.cells] == ["**Exercise.** Why?", students.PLACEHOLDER]
    assert copy.cells[1].metadata["tags"] == ["keep-me"]


def test_no_cell_of_the_student_copy_needs_a_name_only_a_solution_defines():
    """The student's copy runs: what the solutions define, no other cell uses."""
    cells = [cell for cell in _notebook().cells if cell.cell_type == "code"]
    defined_elsewhere = set().union(*(_assigned(ast.parse(_code(cell))) for cell in cells
                                      if not students.is_solution(cell)))
    only_in_solutions = set().union(*(_assigned(ast.parse(_code(cell))) for cell in cells
                                      if students.is_solution(cell))) - defined_elsewhere
    for cell in cells:
        if students.is_solution(cell):
            continue
        used = {node.id for node in ast.walk(ast.parse(_code(cell))) if isinstance(node, ast.Name)}
        assert not used & only_in_solutions, cell.source[:80]


def test_the_strip_command_writes_the_student_copy(tmp_path):
    out = tmp_path / "student.ipynb"
    result = subprocess.run([sys.executable, "-m", "common.lessons", "strip", str(NOTEBOOK), str(out)],
                            capture_output=True, text=True, cwd=paths.repo_root())
    assert result.returncode == 0, result.stderr
    assert nbformat.read(out, as_version=4) == students.strip_solutions(_notebook())
    solutions = sum(students.is_solution(cell) for cell in _notebook().cells)
    assert f"without its {solutions} solutions" in result.stdout


@pytest.mark.parametrize("arguments, message", [
    (lambda tmp: [str(NOTEBOOK), str(NOTEBOOK)], "OUT must differ from IN"),
    (lambda tmp: [str(paths.notebooks_dir() / "bo_basics.ipynb"), str(tmp / "x.ipynb")], "no cell tagged 'solution'"),
    (lambda tmp: [str(tmp / "missing.ipynb"), str(tmp / "x.ipynb")], "No such file"),
])
def test_the_strip_command_refuses_what_would_lose_or_invent_a_lesson(tmp_path, capsys, arguments, message):
    before = NOTEBOOK.read_bytes()
    assert students.main(["strip", *arguments(tmp_path)]) == 2
    assert message in capsys.readouterr().err
    assert NOTEBOOK.read_bytes() == before
