"""reproduce.py's command line, notebook parameters, summaries, figures and the scorecard.

No notebook is executed here; the command line is checked up to the point where
papermill would start.
"""
import importlib.util
import json
import os
import signal
import subprocess
import sys
import threading
import time
from pathlib import Path

import matplotlib
import nbformat
import numpy as np
import psutil
import pytest
import toy_runs

from common import claims, judging, notebook, paths, plotting, provenance, runner, stats, store, verdict_tables

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402

REPRODUCE = paths.repo_root() / "reproduce.py"
TESTS_DIR = Path(__file__).resolve().parent
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
                          capture_output=True, text=True, timeout=180)


def test_a_signal_ends_a_blocked_execution_at_once_and_kills_the_kernel(reproduce, monkeypatch):
    # The execution runs in a worker thread, so the signal reaches reproduce's own handler even while the
    # execution would never return by itself (nbclient's handlers are not in play there).
    killed, never = [], threading.Event()
    monkeypatch.setattr(reproduce, "_kill_child_processes", lambda: (killed.append(True), never.set()))
    previous = signal.signal(signal.SIGTERM, reproduce._raise_interrupted)
    timer = threading.Timer(0.5, os.kill, (os.getpid(), signal.SIGTERM))
    try:
        timer.start()
        start = time.monotonic()
        with pytest.raises(reproduce.Interrupted):
            reproduce._execute_interruptibly(never.wait)
    finally:
        timer.cancel()
        signal.signal(signal.SIGTERM, previous)
    assert killed == [True] and time.monotonic() - start < 5


def test_an_error_of_the_execution_reaches_the_caller(reproduce):
    def failing():
        raise ValueError("cell 3 failed")

    with pytest.raises(ValueError, match="cell 3 failed"):
        reproduce._execute_interruptibly(failing)


def test_notebooks_side_by_side_run_at_once_and_each_result_comes_back(reproduce):
    both_running = threading.Barrier(2, timeout=20)  # broken (an error) unless the two tasks run at the same time

    def task(name):
        return lambda: (both_running.wait(), name)[1]

    found = dict(reproduce._side_by_side([task("a"), task("b"), lambda: "c"], 2))
    assert found == {0: "a", 1: "b", 2: "c"}


def test_a_kernel_gets_its_own_environment_and_the_repository_as_its_folder(reproduce, tmp_path, monkeypatch):
    import papermill

    monkeypatch.chdir(tmp_path)
    written = tmp_path / "seen.json"
    cell = nbformat.v4.new_code_cell(f"import json, os\nopen({str(written)!r}, 'w').write(json.dumps("
                                     f"[os.environ.get('BO_SIDE_BY_SIDE'), os.getcwd()]))")
    kernel = {"name": "python3", "language": "python", "display_name": "Python 3"}
    nbformat.write(nbformat.v4.new_notebook(cells=[cell], metadata={"kernelspec": kernel}), tmp_path / "k.ipynb")
    papermill.execute_notebook(str(tmp_path / "k.ipynb"), str(tmp_path / "out.ipynb"), kernel_name="python3",
                               progress_bar=False,
                               kernel_manager_class=reproduce._kernel_manager({"BO_SIDE_BY_SIDE": "mine"}))
    assert json.loads(written.read_text()) == ["mine", str(paths.repo_root())]
    assert "BO_SIDE_BY_SIDE" not in os.environ and Path.cwd() == tmp_path


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
    table = verdict_tables.verdict_table([claims.claim("C1", "Fig. 1", "Noise is noise", verdict="not comparable",
                                               reason="toy")])
    verdict_tables.save_verdicts("toy", table, "smoke")
    text = reproduce.write_scorecard(TOY_REGISTRY).read_text()
    assert "## toy: Toy experiment" in text and "Scale: smoke. 1 claim: 1 not comparable." in text


def test_scorecard_shows_estimated_verdicts_beside_the_p_value_rule_and_draws_their_cells(reproduce):
    baseline = np.random.default_rng(0).lognormal(0.0, 0.5, 20)
    ours = baseline * 1.009   # a tiny, certain difference: harm by the p-value rule, none by the margin
    cell = judging.cell("A vs B", stats.paired_comparison(ours, baseline, higher_is_better=False, scale="ratio"),
                      "no worse", judging.DEFAULT_MARGIN)
    spec = claims.ClaimSpec("C1", "Fig. 1", "A is no worse than B", "§1", "final regret", "paired",
                            lambda table, params, limits: claims.Evidence.of_tally(judging.tally([cell]), "toy",
                                                                                  ours=1.0),
                            margin=judging.DEFAULT_MARGIN)
    verdict_tables.save_verdicts("toy", claims.judge([spec], None, {}), "smoke")
    text = reproduce.write_scorecard(TOY_REGISTRY).read_text()
    assert "p-value rule -> estimation: reproduced 0 -> 1; not reproduced 1 -> 0" in text
    assert (paths.figures_root() / "scorecard_claims.png").stat().st_size > 0


def test_readme_counts_replace_only_the_text_between_the_markers(reproduce, tmp_path, monkeypatch):
    table = verdict_tables.verdict_table([claims.claim("C1", "Fig. 1", "Noise is noise", verdict="not comparable",
                                               reason="toy")])
    verdict_tables.save_verdicts("toy", table, "smoke")
    readme = tmp_path / "README.md"
    opening, closing = reproduce.readme_markers("verdict counts")
    readme.write_text(f"intro\n{opening}\nstale table\n{closing}\nrest\n")
    monkeypatch.setattr(paths, "repo_root", lambda: tmp_path)
    monkeypatch.setattr(paths, "scorecard_path", lambda: tmp_path / "REPRODUCTION.md")
    assert reproduce.write_readme_blocks(TOY_REGISTRY)
    text = readme.read_text()
    assert text.startswith("intro\n") and text.endswith(f"{closing}\nrest\n")
    assert "stale table" not in text and "| `toy` | smoke | 0 | 0 | 0 | 0 | 1 |" in text
    assert not reproduce.write_readme_blocks(TOY_REGISTRY)  # unchanged the second time


def test_readme_blocks_are_rewritten_in_the_docs_page_that_holds_their_markers(reproduce, tmp_path, monkeypatch):
    table = verdict_tables.verdict_table([claims.claim("C1", "Fig. 1", "Noise is noise", verdict="not comparable",
                                               reason="toy")])
    verdict_tables.save_verdicts("toy", table, "smoke")
    monkeypatch.setattr(paths, "repo_root", lambda: tmp_path)
    monkeypatch.setattr(paths, "scorecard_path", lambda: tmp_path / "REPRODUCTION.md")
    calls = []
    monkeypatch.setitem(reproduce.README_BLOCKS, "multiplicity", lambda registry: calls.append(1) or "| new |")
    readme = tmp_path / "README.md"
    readme.write_text("# intro, no block\n")
    (tmp_path / "docs").mkdir()
    page, other = tmp_path / "docs" / "judging.md", tmp_path / "docs" / "other.md"
    opening, closing = reproduce.readme_markers("multiplicity")
    page.write_text(f"# Judging\n{opening}\nstale\n{closing}\nrest\n")
    other.write_text(f"{opening}\nstale too\n{closing}\n")
    assert [path.name for path in reproduce.readme_block_files()] == ["README.md", "judging.md", "other.md"]
    assert reproduce.write_readme_blocks(TOY_REGISTRY)
    assert page.read_text() == f"# Judging\n{opening}\n| new |\n{closing}\nrest\n"
    assert other.read_text() == f"{opening}\n| new |\n{closing}\n"
    assert readme.read_text() == "# intro, no block\n" and calls == [1]  # each table computed once
    assert not list(tmp_path.rglob(".*.tmp"))  # replaced atomically, nothing left over
    assert not reproduce.write_readme_blocks(TOY_REGISTRY)  # unchanged the second time


def test_every_readme_block_has_its_markers_once_in_the_readme_or_a_docs_page(reproduce):
    """Each generated block of ``README_BLOCKS`` is in exactly one of README.md and docs/*.md, so that
    ``python reproduce.py`` rewrites it there; the verdict counts stay in the README."""
    texts = {path.relative_to(paths.repo_root()).as_posix(): path.read_text(encoding="utf-8")
             for path in reproduce.readme_block_files()}
    for block in reproduce.README_BLOCKS:
        opening, closing = reproduce.readme_markers(block)
        holders = [name for name, text in texts.items() if opening in text]
        assert len(holders) == 1, f"the block {block!r} is in {holders or 'no file'}"
        assert texts[holders[0]].index(opening) < texts[holders[0]].find(closing), block
    assert reproduce.readme_markers("verdict counts")[0] in texts["README.md"]


def test_readme_counts_leave_the_readme_alone_when_the_scorecard_is_redirected(reproduce, tmp_path, monkeypatch):
    readme = tmp_path / "README.md"
    readme.write_text("\n".join(reproduce.readme_markers("verdict counts")) + "\n")
    monkeypatch.setattr(paths, "repo_root", lambda: tmp_path)
    assert not reproduce.write_readme_blocks(TOY_REGISTRY)  # BO_FIGURES_ROOT is set: a smoke run's scorecard


def test_the_grids_block_counts_the_published_grid_and_no_leftover_run(reproduce):
    published = toy_runs.make_grid(notebook.configuration(toy_runs))
    runner.run_grid(published[:3], toy_runs.run, n_jobs=1, progress=False)
    runner.run_grid([toy_runs.toy_config(0, budget=7)], toy_runs.run, n_jobs=1, progress=False)  # not published
    hours = sum(store.cached_run(config).cost_seconds for config in published[:3]) / 3600
    table = reproduce.grids_table(TOY_REGISTRY)
    assert f"| `toy` | scale smoke, budget 4 | {len(published)} | 3 | {hours:.2f} |" in table
    assert f"| all |  | {len(published)} | 3 | {hours:.2f} |" in table


STABILITY_HEADER = ("paper,published,kernel,fraction,runs_recomputed,runs_sampled,runs_in_grid,verdicts_changed,"
                    "verdicts,changed,cells_changed,cells,largest_effect_change_in_margins,"
                    "largest_effect_change_cell,median_effect_change_in_margins\n")


def test_the_stability_block_reads_the_benchmark_record(reproduce, tmp_path, monkeypatch):
    record = tmp_path / "stability.csv"
    record.write_text(STABILITY_HEADER + "toy,\"scale smoke, budget 4\",Haswell,0.1,9,10,100,1,4,"
                      "C1: reproduced -> inconclusive,2,8,1.5,C1: A vs B,0.25\n")
    monkeypatch.setattr(reproduce, "STABILITY_RECORD", record)
    table = reproduce.stability_table(TOY_REGISTRY)
    assert ("| `toy` | scale smoke, budget 4 | Haswell | 9 of 10 sampled (9% of 100) "
            "| 1 of 4: C1: reproduced -> inconclusive | 2 of 8 |") in table
    assert "0.25 margins | 1.5 margins (C1: A vs B) |" in table


def test_the_stability_block_marks_a_measurement_of_an_earlier_published_configuration(reproduce, tmp_path,
                                                                                        monkeypatch):
    record = tmp_path / "stability.csv"
    record.write_text(STABILITY_HEADER + "toy,\"scale smoke, budget 2\",Haswell,0.1,9,10,100,0,4,,0,8,0.5,C1: A vs B,0.1\n")
    monkeypatch.setattr(reproduce, "STABILITY_RECORD", record)
    assert "| scale smoke, budget 2 (stale: now scale smoke, budget 4; rerun the script) |" in \
        reproduce.stability_table(TOY_REGISTRY)


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


def test_notebook_summary_holds_only_what_the_configuration_determines():
    runner.run_grid(toy_runs.make_grid({"n_seeds": 1, "budget": 3}), toy_runs.toy_run, n_jobs=1, progress=False)
    figure, ax = plt.subplots()
    plotting.save_figure(figure, "toy", "fig1")
    plt.close(figure)
    table = verdict_tables.verdict_table([claims.claim("C1", "Fig. 1", "s", verdict="not comparable", reason="r")])
    params = notebook.configuration(toy_runs)
    summary = json.loads(notebook.write_notebook_summary("toy", params, verdicts=table).read_text())
    execution = json.loads((paths.figures_dir("toy") / "execution.json").read_text())
    assert (summary["parameters"], summary["figures"], summary["verdicts"]) == (
        params, ["fig1.png", "fig1.pdf"], {"not comparable": 1})
    assert execution["computed"] == 2 and "computed" not in summary


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


def test_an_interquartile_band_of_positive_runs_stays_above_zero_where_mean_minus_std_does_not():
    figure, ax = plt.subplots()
    curves = np.array([[1e-3, 1e-4], [2e-3, 1e-4], [3e-3, 2e-4], [1.0, 5e-1]])  # one run far above the rest
    words = plotting.plot_mean_band(ax, None, curves, "GP-TS", band="iqr")
    band = ax.collections[0].get_paths()[0].vertices
    plt.close(figure)
    assert (curves.mean(axis=0) - curves.std(axis=0) < 0).all() and band[:, 1].min() > 0
    assert words == "mean over 4 runs; shaded: the runs' interquartile range (25th to 75th percentile)"


def _notebook(path, *sources):
    cells = [nbformat.v4.new_code_cell(source) for source in sources]
    cells[0].metadata["tags"] = ["parameters"]
    kernel = {"name": "python3", "language": "python", "display_name": "Python 3"}
    nbformat.write(nbformat.v4.new_notebook(cells=cells, metadata={"kernelspec": kernel}), path)
    return path


TOY_PARAMETERS = "scale = None\nn_seeds = None\nbudget = None\nn_jobs = None\ndask_address = None"
TOY_CELLS = (
    "import toy_runs\n"
    "import matplotlib.pyplot as plt\n"
    "from common import plotting\n"
    "from common.notebook import notebook_parameters, write_notebook_summary\n"
    "from common.runner import run_grid\n"
    "params = notebook_parameters(toy_runs, globals())\n"
    "table = run_grid(toy_runs.make_grid(params), toy_runs.toy_run, n_jobs=n_jobs, dask_address=dask_address,"
    " progress=False)\n"
    "print(round(float(table['y'].sum()), 6), params)",
    "figure, ax = plt.subplots(); ax.plot(table['y'].to_numpy());\n"
    "plotting.save_figure(figure, 'toy', 'fig1');",
    "write_notebook_summary('toy', params);",
)


@pytest.fixture
def toy_project(tmp_path, monkeypatch):
    """The toy experiment with a real notebook; outputs, cache and untracked output in tmp_path."""
    monkeypatch.setenv("BO_OUTPUT_ROOT", str(tmp_path / "output"))
    monkeypatch.setenv("PYTHONPATH", os.pathsep.join([str(TESTS_DIR), str(paths.repo_root())]))

    (tmp_path / "notebooks").mkdir()

    def make(*extra_cells):
        path = _notebook(tmp_path / "notebooks" / "toy.ipynb", TOY_PARAMETERS, *TOY_CELLS, *extra_cells)
        monkeypatch.setattr(toy_runs, "NOTEBOOK", str(path))
        return path

    return make


def _outputs(notebook_path):
    """Every byte of the published outputs: the notebook and the figure folder."""
    files = {notebook_path.name: notebook_path.read_bytes()}
    folder = paths.figures_dir("toy")
    files.update({path.name: path.read_bytes() for path in sorted(folder.glob("*"))} if folder.exists() else {})
    return files


def test_regenerating_the_published_configuration_is_byte_for_byte_idempotent(reproduce, toy_project):
    notebook_path = toy_project()
    assert reproduce.main(["toy"], registry=TOY_REGISTRY) == 0
    first = _outputs(notebook_path)
    assert reproduce.main(["toy", "--force"], registry=TOY_REGISTRY) == 0
    assert _outputs(notebook_path) == first and {"summary.json", "fig1.png", "toy.ipynb", "inputs.json"} <= set(first)


def test_a_notebook_whose_inputs_are_unchanged_is_not_executed_again(reproduce, toy_project, capsys):
    notebook_path = toy_project()
    assert reproduce.main(["toy"], registry=TOY_REGISTRY) == 0
    first = _outputs(notebook_path)
    capsys.readouterr()
    assert reproduce.main(["toy"], registry=TOY_REGISTRY) == 0
    assert "up to date with its inputs: not executed" in capsys.readouterr().out and _outputs(notebook_path) == first


def test_a_missing_cached_run_makes_the_notebook_execute_again_naming_it(reproduce, toy_project, capsys):
    notebook_path = toy_project()
    reproduce.main(["toy"], registry=TOY_REGISTRY)
    record = json.loads((paths.figures_dir("toy") / "inputs.json").read_text())
    runs = [name for name in record["inputs"] if name.endswith(".npz")]
    assert len(runs) == 4  # the published grid: two methods x two seeds
    assert all(run.startswith("$BO_RESULTS_ROOT/toy/") for run in runs)  # named by the cache's root, not absolute
    provenance.path_of(runs[0]).unlink()
    capsys.readouterr()
    assert reproduce.main(["toy"], registry=TOY_REGISTRY) == 0
    output = capsys.readouterr().out
    assert f"executing (1 of its" in output and Path(runs[0]).name in output and "1 computed" in output


def test_backend_flags_do_not_change_what_is_published(reproduce, toy_project):
    notebook_path = toy_project()
    reproduce.main(["toy"], registry=TOY_REGISTRY)
    published = _outputs(notebook_path)
    assert reproduce.main(["toy", "--jobs", "2", "--force"], registry=TOY_REGISTRY) == 0
    assert _outputs(notebook_path) == published
    summary = json.loads(published["summary.json"])
    assert summary["parameters"] == notebook.configuration(toy_runs) and summary["scale"] == "smoke"


def test_another_scale_writes_to_its_own_folder_and_leaves_the_published_outputs(reproduce, toy_project, tmp_path):
    notebook_path = toy_project()
    reproduce.main(["toy"], registry=TOY_REGISTRY)
    published = _outputs(notebook_path)
    assert reproduce.main(["toy", "--scale", "quick"], registry=TOY_REGISTRY) == 0
    assert reproduce.main(["toy", "-p", "n_seeds", "1"], registry=TOY_REGISTRY) == 0
    assert _outputs(notebook_path) == published
    quick = tmp_path / "output" / "toy" / "quick"
    assert (quick / "toy.ipynb").exists() and (quick / "figures" / "toy" / "fig1.png").exists()
    assert len(list((tmp_path / "output" / "toy").glob("smoke-*"))) == 1  # the override, named by its hash


@pytest.mark.parametrize("failure", ["raise RuntimeError('broken on purpose')", "import os; os._exit(9)"])
def test_a_failing_or_dead_kernel_leaves_every_output_as_it_was(reproduce, toy_project, failure, capsys):
    notebook_path = toy_project()
    reproduce.main(["toy"], registry=TOY_REGISTRY)
    published = _outputs(notebook_path)
    broken = toy_project("plotting.save_figure(figure, 'toy', 'fig1')", failure)  # overwrites a figure first
    notebook_bytes = broken.read_bytes()

    assert reproduce.main(["toy"], registry=TOY_REGISTRY) == 1

    assert _outputs(notebook_path) == {**published, "toy.ipynb": notebook_bytes}
    assert "FAILED" in capsys.readouterr().out
    assert not list(reproduce.staging_root().glob("*")) and sorted(p.name for p in broken.parent.iterdir()) == [
        "toy.ipynb"]


@pytest.mark.parametrize("signal_number", [signal.SIGINT, signal.SIGTERM])
def test_an_interrupted_regeneration_changes_nothing(toy_project, tmp_path, signal_number):
    notebook_path = toy_project("import time\nopen(%r, 'w').close()\ntime.sleep(600)" % str(tmp_path / "started"))
    script = (f"import sys; sys.path[:0] = [{str(TESTS_DIR)!r}]; import toy_runs; "
              f"toy_runs.NOTEBOOK = {str(notebook_path)!r}; sys.argv = ['reproduce.py', 'toy']; "
              f"import runpy; reproduce = runpy.run_path({str(REPRODUCE)!r}); "
              f"sys.exit(reproduce['main'](['toy'], registry={TOY_REGISTRY!r}))")
    before = _outputs(notebook_path)
    # Ctrl-C's default action, as a terminal gives it: a test run started in the background inherits SIGINT
    # ignored, and reproduce.py rightly keeps ignoring it then.
    process = subprocess.Popen([sys.executable, "-c", script], env=os.environ.copy(), stdout=subprocess.PIPE,
                               stderr=subprocess.STDOUT, text=True,
                               preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL))
    deadline = time.monotonic() + 180
    while not (tmp_path / "started").exists() and time.monotonic() < deadline:
        time.sleep(0.2)
    process.send_signal(signal_number)
    output, _ = process.communicate(timeout=180)  # far less than the cell's sleep: the signal ended it
    assert process.returncode == 130, output
    assert _outputs(notebook_path) == before
    assert not list(Path(os.environ["BO_FIGURES_ROOT"]).parent.joinpath(".staging").glob("*"))


@pytest.mark.parametrize("arguments, message", [
    (["-p", "budget", "10000000000"], "1..999"),
    (["-p", "n_seeds", "[]"], "'n_seeds'"),
    (["--dask", "tcp://127.0.0.1:9"], "no Dask scheduler answers"),
    (["--dask", "notanaddress"], "is not a scheduler address"),
    (["-p", "n_seed", "3"], "n_seeds"),
])
def test_bad_input_exits_2_before_anything_is_computed_or_written(reproduce, toy_project, arguments, message,
                                                                   capsys):
    notebook_path = toy_project()
    before = notebook_path.read_bytes()
    start = time.monotonic()
    with pytest.raises(SystemExit) as exited:
        reproduce.main(["toy", *arguments], registry=TOY_REGISTRY)
    assert exited.value.code == 2 and message in capsys.readouterr().err
    assert time.monotonic() - start < 15
    assert notebook_path.read_bytes() == before and not store.scan("toy")
    assert not paths.figures_dir("toy").exists()


def test_an_unknown_name_injected_by_papermill_stops_the_notebook():
    namespace = {"In": ["", TOY_PARAMETERS, "# Parameters\nn_seed = 3\n", "params = ..."], "scale": None}
    with pytest.raises(ValueError, match="unknown parameter 'n_seed'; allowed parameters: scale, n_seeds"):
        notebook.notebook_parameters(toy_runs, namespace)


def test_scale_none_is_the_published_configuration_and_overrides_apply_on_top():
    assert notebook.configuration(toy_runs) == {"scale": "smoke", "n_seeds": 2, "budget": 4}
    assert notebook.configuration(toy_runs, budget=7)["budget"] == 7
    assert notebook.configuration(toy_runs, "quick") == {"scale": "quick", "n_seeds": 3, "budget": 8}


def test_runs_only_fills_the_cache_without_executing_the_notebook(reproduce, toy_project, capsys):
    notebook_path = toy_project()
    before = notebook_path.read_bytes()
    assert reproduce.main(["toy", "--scale", "quick", "--runs-only", "--jobs", "1"], registry=TOY_REGISTRY) == 0
    assert len(store.scan("toy")) == 6 and notebook_path.read_bytes() == before
    assert "6 runs computed, 0 loaded" in capsys.readouterr().out
    assert not paths.figures_dir("toy").exists()


def test_smoke_runs_get_a_cache_of_their_own_and_other_scales_the_usual_one(reproduce, toy_project, tmp_path,
                                                                            monkeypatch):
    toy_project()
    monkeypatch.delenv("BO_RESULTS_ROOT")   # as on the command line: the default data/results
    usual = paths.results_dir("toy")
    assert reproduce.main(["toy", "--scale", "smoke", "--runs-only", "--jobs", "1"], registry=TOY_REGISTRY) == 0
    smoke = tmp_path / "output" / "smoke" / "results" / "toy"
    assert len(list(smoke.glob("*.npz"))) == 4 and not usual.exists()


def test_no_kernel_or_worker_outlives_a_killed_reproduce(toy_project, tmp_path):
    notebook_path = toy_project("run_grid([toy_runs.toy_config(s, method='hang') for s in range(4)], "
                                "toy_runs.hanging_run, n_jobs=2, progress=False)")
    script = (f"import sys; sys.path[:0] = [{str(TESTS_DIR)!r}]; import toy_runs; "
              f"toy_runs.NOTEBOOK = {str(notebook_path)!r}; import runpy; "
              f"sys.exit(runpy.run_path({str(REPRODUCE)!r})['main'](['toy'], registry={TOY_REGISTRY!r}))")
    started = tmp_path / "started"
    started.mkdir()
    parent = subprocess.Popen([sys.executable, "-c", script], env={**os.environ, "TOY_STARTED_DIR": str(started)},
                              stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    # Wait until two workers run a task (on a loaded machine they may still be importing numpy when they appear).
    deadline = time.monotonic() + 120
    while len(list(started.iterdir())) < 2 and time.monotonic() < deadline:
        time.sleep(0.3)
    descendants = psutil.Process(parent.pid).children(recursive=True)
    assert len(list(started.iterdir())) >= 2, "the workers never started their runs"
    parent.kill()
    parent.wait()
    deadline = time.monotonic() + 30
    while (alive := [p for p in descendants if _running(p)]) and time.monotonic() < deadline:
        time.sleep(0.3)
    for process in alive:
        process.kill()
    assert not alive, f"still running after the parent was killed: {[p.cmdline()[-2:] for p in alive]}"


def _running(process):
    try:
        return process.status() != psutil.STATUS_ZOMBIE
    except psutil.NoSuchProcess:
        return False


def test_corrupt_and_stale_cached_runs_are_named_in_the_console_report(reproduce, toy_project, monkeypatch,
                                                                        capsys):
    toy_project()
    reproduce.main(["toy"], registry=TOY_REGISTRY)
    runs = store.scan("toy")
    runs[0].path.write_bytes(runs[0].path.read_bytes()[:100])
    capsys.readouterr()
    assert reproduce.main(["toy"], registry=TOY_REGISTRY) == 0
    report = capsys.readouterr().out
    assert "1 corrupt cached file(s) not loaded" in report and runs[0].key in report


def test_many_replaced_cached_files_are_counted_and_only_the_first_named(reproduce):
    stale = [f"run{index}: computed by code version 1, the code is at version 2" for index in range(64)]
    report = reproduce._replaced({"corrupt": [], "stale": stale})
    assert report.startswith("; 64 stale cached file(s) not loaded: run0: computed")
    assert "run2:" in report and "run3:" not in report and report.endswith("; and 61 more")


def test_a_print_split_into_several_stream_messages_is_stored_as_one(reproduce, tmp_path):
    path = _notebook(tmp_path / "split.ipynb", "x = 1")
    notebook = nbformat.read(path, as_version=4)
    notebook.cells[0].outputs = [nbformat.v4.new_output("stream", name="stdout", text="a line"),
                                 nbformat.v4.new_output("stream", name="stdout", text="\n")]
    nbformat.write(notebook, path)
    reproduce._scrub(path)
    outputs = nbformat.read(path, as_version=4).cells[0].outputs
    assert [(output.name, output.text) for output in outputs] == [("stdout", "a line\n")]


@pytest.mark.parametrize("runs_only, read_only", [(True, "results"), (False, "results"), (False, "figures")])
def test_a_folder_it_cannot_write_exits_2_before_anything_is_computed(reproduce, toy_project, tmp_path, monkeypatch,
                                                                     capsys, runs_only, read_only):
    """A superuser may write to a chmod-ed folder, so the folder is made unwritable where the job tries it."""
    notebook_path = toy_project()
    before = notebook_path.read_bytes()
    refused = Path(os.environ[{"results": "BO_RESULTS_ROOT", "figures": "BO_FIGURES_ROOT"}[read_only]])
    refused.mkdir(parents=True)
    monkeypatch.setattr(reproduce, "_can_create_files_in", lambda folder: folder != refused)
    with pytest.raises(SystemExit) as exited:
        reproduce.main(["toy", "--jobs", "1", *(["--runs-only"] if runs_only else [])], registry=TOY_REGISTRY)
    assert exited.value.code == 2 and f"cannot write to {refused}" in capsys.readouterr().err
    assert notebook_path.read_bytes() == before and not store.scan("toy") and not paths.figures_dir("toy").exists()


def test_a_file_can_be_created_only_in_a_folder_that_takes_one(reproduce, tmp_path):
    assert reproduce._can_create_files_in(tmp_path)
    assert not reproduce._can_create_files_in(tmp_path / "missing")


@pytest.mark.parametrize("value", ["GP-TS (Matérn-1.5)", 'a "quoted" \\ back\nslash', "τ0 = 0.01"])
def test_injected_string_parameters_read_as_typed_and_evaluate_to_themselves(reproduce, value):
    import ast

    from papermill.translators import papermill_translators
    reproduce._readable_parameters()
    literal = papermill_translators.find_translator("python3", "python").translate(value)
    assert ast.literal_eval(literal) == value and "\\x" not in literal and "\\u" not in literal


def test_a_parameter_with_listed_choices_of_several_types_takes_each_and_names_them_all_otherwise():
    from common.notebook import resolve_parameters

    scales = {"paper": {"confirmatory": False}}
    allowed = {"confirmatory": [False, True, "powered"]}
    assert resolve_parameters("paper", scales, allowed=allowed, confirmatory="powered")["confirmatory"] == "powered"
    assert resolve_parameters("paper", scales, allowed=allowed, confirmatory=True)["confirmatory"] is True
    for wrong in ("maybe", 1):
        with pytest.raises(ValueError, match=r"allowed values: False, True, 'powered'"):
            resolve_parameters("paper", scales, allowed=allowed, confirmatory=wrong)


def test_a_regenerated_notebook_is_written_as_jupyter_lab_would_save_it(reproduce, tmp_path):
    path = tmp_path / "lab.ipynb"
    metadata = {"kernelspec": {"display_name": "Python 3", "language": "python", "name": "python3"},
                "papermill": {"parameters": {"budget_scale": 1.0, "ratio": 0.5, "sizes": [2.0, 3], "scale": "paper"}}}
    nbformat.write(nbformat.v4.new_notebook(cells=[nbformat.v4.new_code_cell("x = 1")], metadata=metadata), path)
    reproduce._scrub(path)
    written = json.loads(path.read_text())["metadata"]
    assert written["kernelspec"]["display_name"] == reproduce.JUPYTER_KERNEL_DISPLAY_NAME
    assert written["papermill"]["parameters"] == {"budget_scale": 1, "ratio": 0.5, "sizes": [2, 3], "scale": "paper"}
    assert '"budget_scale": 1,' in path.read_text()


def test_a_smoke_run_from_jupyter_caches_its_runs_under_output_not_in_data_results(tmp_path, monkeypatch, capsys):
    monkeypatch.setenv("BO_OUTPUT_ROOT", str(tmp_path / "output"))
    monkeypatch.delenv("BO_RESULTS_ROOT")   # as a notebook opened in Jupyter, without reproduce.py
    namespace = {"In": ["", TOY_PARAMETERS, "params = ..."], "scale": "smoke"}
    notebook.notebook_parameters(toy_runs, namespace)
    assert paths.results_root() == tmp_path / "output" / "smoke" / "results"
    assert "its runs are cached in" in capsys.readouterr().out


def test_jupyter_nbconvert_of_bo_basics_at_smoke_scale_leaves_the_published_cache_alone(tmp_path):
    """Issue 45 item 2, as a reader would do it: bo_basics executed by ``jupyter nbconvert --execute`` with
    ``scale = "smoke"`` in the parameters cell that takes effect (the injected one of the committed notebook; no
    reproduce.py) adds no file under data/ and caches its runs under the output folder."""
    source = paths.notebooks_dir() / "bo_basics.ipynb"
    copy = nbformat.read(source, as_version=4)
    parameters = next(cell for cell in copy.cells if "injected-parameters" in cell.metadata.get("tags", []))
    assert 'scale = None' in parameters.source  # the published configuration, every parameter None
    parameters.source = parameters.source.replace('scale = None', 'scale = "smoke"')  # as the README says
    nbformat.write(copy, tmp_path / "bo_basics.ipynb")
    data = paths.repo_root() / "data"
    before = sorted(path for path in data.rglob("*") if path.is_file())
    environment = {name: value for name, value in os.environ.items() if not name.startswith("BO_")}
    environment["BO_OUTPUT_ROOT"] = str(tmp_path / "output")
    result = subprocess.run([str(Path(sys.executable).parent / "jupyter"), "nbconvert", "--to", "notebook",
                             "--execute", "--output", "executed.ipynb", str(tmp_path / "bo_basics.ipynb")],
                            cwd=paths.notebooks_dir(), env=environment, capture_output=True, text=True, timeout=600)
    assert result.returncode == 0, result.stderr[-2000:]
    assert sorted(path for path in data.rglob("*") if path.is_file()) == before
    assert list((tmp_path / "output" / "smoke" / "results").rglob("*.npz"))
    # Issue 64 item 7b: the smoke scale whole (2 seeds), not the published overrides (8) at the smoke scale.
    executed = nbformat.read(tmp_path / "executed.ipynb", as_version=4)
    shown = next(json.dumps(cell.outputs) for cell in executed.cells if "notebook_parameters(" in cell.source)
    assert "'n_seeds': 2" in shown and "'scale': 'smoke'" in shown


def test_the_published_configuration_read_from_another_cache_never_goes_over_the_tracked_outputs(
        reproduce, tmp_path, monkeypatch, capsys):
    # Issue 64 item 1: a forced run with BO_RESULTS_ROOT at a changed copy of the cache rewrote tracked files.
    monkeypatch.setenv("BO_RESULTS_ROOT", str(tmp_path / "copy"))
    monkeypatch.setenv("BO_OUTPUT_ROOT", str(tmp_path / "output"))
    monkeypatch.delenv("BO_FIGURES_ROOT")
    notebook_path, figures_path = reproduce._destinations(reproduce.published_plan("bo_basics"))
    assert {tmp_path / "output"} <= set(notebook_path.parents) & set(figures_path.parents)
    namespace = {"In": ["", TOY_PARAMETERS, "params = ..."], "scale": None}
    notebook.notebook_parameters(toy_runs, namespace)
    assert tmp_path / "output" in paths.figures_root().parents
    assert "not the committed cache" in capsys.readouterr().out


def test_the_published_configuration_from_the_committed_cache_goes_to_the_tracked_outputs(reproduce, monkeypatch):
    for variable in ("BO_RESULTS_ROOT", "BO_FIGURES_ROOT"):
        monkeypatch.delenv(variable)
    notebook_path, figures_path = reproduce._destinations(reproduce.published_plan("bo_basics"))
    assert (notebook_path, figures_path) == (paths.notebooks_dir() / "bo_basics.ipynb", paths.figures_dir("bo_basics"))


def test_the_first_line_names_the_folder_of_the_kernels_that_compute(reproduce, tmp_path, monkeypatch):
    # Issue 64 item 6: a Dask worker under Sandybridge computed into its own folder while the line named Haswell's.
    (tmp_path / "results").mkdir()
    (tmp_path / "results" / store.NUMERIC_RECORD).write_text(json.dumps({"kernels": "SkylakeX"}))
    monkeypatch.setenv("BO_OUTPUT_ROOT", str(tmp_path / "output"))
    monkeypatch.setattr(runner, "computing_kernels", lambda address: "Sandybridge" if address else "Haswell")
    line = reproduce.numeric_environment_line("tcp://scheduler:8786")
    assert "Dask workers' OpenBLAS kernels: Sandybridge" in line and "results-by-kernels/Sandybridge/" in line
    assert "results-by-kernels/Haswell/" in reproduce.numeric_environment_line(None)
