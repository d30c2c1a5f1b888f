"""reproduce.py's command line, notebook parameters, summaries, figures and the scorecard.

No notebook is executed here; the command line is checked up to the point where
papermill would start.
"""
import importlib.util
import json
import subprocess
import sys
import types

import matplotlib
import nbformat
import numpy as np
import pytest
import toy_runs

from common import claims, notebook, paths, plotting, runner, store

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402

REPRODUCE = paths.repo_root() / "reproduce.py"
TOY_REGISTRY = {"toy": "toy_runs"}


@pytest.fixture(scope="module")
def reproduce():
    spec = importlib.util.spec_from_file_location("reproduce", REPRODUCE)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


@pytest.fixture(autouse=True)
def empty_outputs(tmp_path, monkeypatch):
    monkeypatch.setenv("BO_RESULTS_ROOT", str(tmp_path / "results"))
    monkeypatch.setenv("BO_FIGURES_ROOT", str(tmp_path / "figures"))
    runner.reset_run_counts()


@pytest.fixture
def toy_notebook(tmp_path, monkeypatch):
    """A notebook file for the toy experiment with a papermill parameters cell."""
    path = tmp_path / "toy.ipynb"
    cell = nbformat.v4.new_code_cell('scale = "smoke"\nn_seeds = None\nbudget = None\nn_jobs = None')
    cell.metadata["tags"] = ["parameters"]
    kernel = {"name": "python3", "language": "python", "display_name": "Python 3"}
    nbformat.write(nbformat.v4.new_notebook(cells=[cell], metadata={"kernelspec": kernel}), path)
    monkeypatch.setattr(toy_runs, "NOTEBOOK", str(path))  # an absolute path replaces notebooks/
    return path


def run_cli(*arguments, tmp_path):
    return subprocess.run([sys.executable, str(REPRODUCE), *arguments], cwd=tmp_path,
                          capture_output=True, text=True, timeout=60)


@pytest.mark.parametrize("arguments, message", [
    (["no_such_notebook"], "allowed"),
    (["--scale", "huge"], "smoke"),
    (["--jobs", "0"], "--jobs"),
    (["--jobs", "2", "--dask", "tcp://127.0.0.1:8786"], "not allowed with"),
    (["-p", "n_jobs", "2"], "--jobs"),
])
def test_usage_errors_exit_with_status_2_and_say_what_is_allowed(tmp_path, arguments, message):
    completed = run_cli(*arguments, tmp_path=tmp_path)
    assert completed.returncode == 2 and message in completed.stderr


def test_list_runs_from_any_directory(tmp_path):
    assert run_cli("--list", tmp_path=tmp_path).returncode == 0


def test_list_estimates_cost_from_recorded_run_times(reproduce, capsys):
    for config in toy_runs.make_grid({"n_seeds": 1, "budget": 5}):
        store.save_run(config, toy_runs.toy_run(config), wall_time=3.0, code_version=1)
    assert reproduce.main(["--list", "--scale", "smoke"], registry=TOY_REGISTRY) == 0
    assert "2 cached, 2 to compute; about 6 s CPU" in capsys.readouterr().out


def test_unknown_parameter_name_exits_2_listing_the_parameters(reproduce, toy_notebook, capsys):
    with pytest.raises(SystemExit) as exited:
        reproduce.main(["toy", "-p", "n_seed", "3"], registry=TOY_REGISTRY)
    assert exited.value.code == 2 and "n_seeds" in capsys.readouterr().err


def test_disallowed_parameter_value_exits_2_naming_the_parameter(reproduce, toy_notebook, capsys):
    with pytest.raises(SystemExit) as exited:
        reproduce.main(["toy", "-p", "budget", "0"], registry=TOY_REGISTRY)
    assert exited.value.code == 2 and "'budget'" in capsys.readouterr().err


def test_scorecard_gathers_the_verdict_tables(reproduce):
    table = claims.verdict_table([claims.claim("C1", "Fig. 1", "Noise is noise", verdict="not comparable",
                                               reason="toy")])
    claims.save_verdicts("toy", table, "smoke")
    text = reproduce.write_scorecard(TOY_REGISTRY).read_text()
    assert "## toy: Toy experiment" in text and "Scale: smoke. 1 claim: 1 not comparable." in text


SCALES = {"smoke": {"n_seeds": 2, "noise": 0.1, "methods": ["ucb"]},
          "paper": {"n_seeds": 20, "noise": 0.1, "methods": ["ucb", "ei"]}}
ALLOWED = {"methods": ["ucb", "ei", "pi"], "n_seeds": notebook.positive}


@pytest.mark.parametrize("scale, overrides, named", [
    ("huge", {}, "'scale'"),
    ("quick", {}, "'scale'"),
    ("smoke", {"n_seed": 3}, "'n_seed'"),
    ("smoke", {"n_seeds": 2.5}, "'n_seeds'"),
    ("smoke", {"n_seeds": 0}, "'n_seeds'"),
    ("smoke", {"noise": "low"}, "'noise'"),
    ("smoke", {"methods": ["ucb", "gp-ucb"]}, "'methods'"),
])
def test_invalid_parameters_raise_naming_the_parameter(scale, overrides, named):
    with pytest.raises(ValueError, match=named):
        notebook.resolve_parameters(scale, SCALES, allowed=ALLOWED, **overrides)


def test_disallowed_value_message_lists_the_allowed_values():
    with pytest.raises(ValueError, match="'ucb', 'ei', 'pi'"):
        notebook.resolve_parameters("smoke", SCALES, allowed=ALLOWED, methods=["sobol"])


def test_none_override_keeps_the_scale_default_and_ints_pass_as_floats():
    params = notebook.resolve_parameters("paper", SCALES, allowed=ALLOWED, n_seeds=None, noise=1)
    assert params == {"scale": "paper", "n_seeds": 20, "noise": 1.0, "methods": ["ucb", "ei"]}


def test_notebook_summary_records_runs_figures_and_verdicts():
    runner.run_grid(toy_runs.make_grid({"n_seeds": 1, "budget": 3}), toy_runs.toy_run, n_jobs=1, progress=False)
    figure, ax = plt.subplots()
    plotting.save_figure(figure, "toy", "fig1")
    plt.close(figure)
    table = claims.verdict_table([claims.claim("C1", "Fig. 1", "s", verdict="not comparable", reason="r")])
    summary = json.loads(notebook.write_notebook_summary("toy", scale="smoke", verdicts=table).read_text())
    assert (summary["runs_computed"], summary["figures"], summary["verdicts"]) == (
        2, ["fig1.png", "fig1.pdf"], {"not comparable": 1})


def test_save_figure_writes_png_and_pdf_into_the_paper_folder():
    figure, _ = plt.subplots()
    written = plotting.save_figure(figure, "toy", "fig2b")
    plt.close(figure)
    assert [path.name for path in written] == ["fig2b.png", "fig2b.pdf"]
    assert all(path.parent == paths.figures_dir("toy") and path.stat().st_size > 0 for path in written)


def test_save_figure_refuses_a_name_with_an_extension():
    figure, _ = plt.subplots()
    with pytest.raises(ValueError, match="name"):
        plotting.save_figure(figure, "toy", "fig1.png")
    plt.close(figure)


def test_mean_band_spans_one_standard_error_and_says_so():
    figure, ax = plt.subplots()
    curves = np.array([[0.0, 1.0], [2.0, 3.0], [4.0, 8.0]])
    words = plotting.plot_mean_band(ax, None, curves, "UCB", band="se")
    band = ax.collections[0].get_paths()[0].vertices
    plt.close(figure)
    assert words == "mean over 3 runs ± one standard error of the mean"
    assert np.isclose(band[:, 1].max(), 4.0 + np.std([1.0, 3.0, 8.0], ddof=1) / np.sqrt(3))


def _notebook(path, *sources):
    cells = [nbformat.v4.new_code_cell(source) for source in sources]
    cells[0].metadata["tags"] = ["parameters"]
    kernel = {"name": "python3", "language": "python", "display_name": "Python 3"}
    nbformat.write(nbformat.v4.new_notebook(cells=cells, metadata={"kernelspec": kernel}), path)
    return path


def test_a_failing_notebook_does_not_hide_the_others(reproduce, tmp_path, monkeypatch, capsys):
    good = _notebook(tmp_path / "toy.ipynb", 'scale = "smoke"\nn_seeds = None\nbudget = None\nn_jobs = None',
                     'from common.notebook import write_notebook_summary\n'
                     'write_notebook_summary("toy", scale=scale)')
    broken = _notebook(tmp_path / "broken.ipynb", 'scale = "smoke"\nn_jobs = None',
                       'raise RuntimeError("broken on purpose")')
    monkeypatch.setattr(toy_runs, "NOTEBOOK", str(good))
    broken_module = types.ModuleType("toy_broken")
    broken_module.__dict__.update(NOTEBOOK=str(broken), TITLE="Broken", OUTPUTS=[],
                                  SCALES={"smoke": {}}, make_grid=lambda params: [])
    monkeypatch.setitem(sys.modules, "toy_broken", broken_module)
    before = broken.read_text()

    status = reproduce.main(["broken", "toy"], registry={"broken": "toy_broken", **TOY_REGISTRY})

    output = capsys.readouterr().out
    assert status == 1
    assert "Failed: broken" in output and "broken on purpose" in output
    assert (paths.figures_dir("toy") / "summary.json").exists()  # the notebook after the failure still ran
    assert broken.read_text() == before  # a failed execution does not overwrite the notebook
