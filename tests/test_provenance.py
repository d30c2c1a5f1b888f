"""common.provenance: what an execution read is logged, and a record notices every change of an input or output."""
import importlib.util
import json
import os
import subprocess
import sys

import nbformat
import pytest

from common import paths, provenance
from common.experiments import NOTEBOOKS

READER = """
import os, sys
import common  # installs the logging hook
from common import paths
results = paths.results_root()
open(results / "run.npz", "rb").read()
(results / "written.npz").write_bytes(b"new")
os.listdir(results)
open(paths.repo_root() / "common" / "paths.py").read()
"""


def test_a_logged_execution_lists_what_it_read_and_not_what_it_wrote(tmp_path):
    results, log = tmp_path / "results", tmp_path / "log" / "reads.log"
    results.mkdir()
    log.parent.mkdir()
    (results / "run.npz").write_bytes(b"run")
    environment = {**os.environ, provenance.READ_LOG_VARIABLE: str(log), paths.RESULTS_ROOT_VARIABLE: str(results)}
    subprocess.run([sys.executable, "-c", READER], env=environment, check=True, cwd=tmp_path)
    assert provenance.read_log(log) == sorted([f"{results}/", f"{results / 'run.npz'}"])


@pytest.fixture
def executed(tmp_path):
    """A finished execution's files and its record: source notebook, outputs and two input files."""
    source = tmp_path / "toy.ipynb"
    cell = nbformat.v4.new_code_cell("x = 1")
    nbformat.write(nbformat.v4.new_notebook(cells=[cell]), source)
    figures = tmp_path / "figures"
    figures.mkdir()
    (figures / "fig1.png").write_bytes(b"png")
    inputs = tmp_path / "inputs"
    inputs.mkdir()
    (inputs / "a.npz").write_bytes(b"a")
    (inputs / "b.csv").write_bytes(b"b")
    files = [str(inputs / "a.npz"), str(inputs / "b.csv"), f"{inputs}/"]
    record = provenance.make_record(source, source, figures, {"n_seeds": 3}, files)
    provenance.write_record(figures, record)
    return {"source": source, "figures": figures, "inputs": inputs, "parameters": {"n_seeds": 3}}


def _changes(executed, **overrides):
    arguments = {**executed, **overrides}
    return provenance.changes(arguments["source"], arguments["source"], arguments["figures"], arguments["parameters"])


def test_an_unchanged_execution_has_no_reason_to_run_again(executed):
    assert _changes(executed) == []


def test_a_changed_input_file_is_named(executed):
    (executed["inputs"] / "b.csv").write_bytes(b"other")
    assert len(_changes(executed)) == 1 and "b.csv" in _changes(executed)[0]


def test_a_new_file_in_a_listed_folder_is_a_change(executed):
    (executed["inputs"] / "c.npz").write_bytes(b"c")
    assert "inputs/" in _changes(executed)[0]


def test_a_hidden_file_in_a_listed_folder_is_not(executed):
    (executed["inputs"] / ".c.npz.lock").write_bytes(b"")
    assert _changes(executed) == []


def test_a_missing_input_is_a_change(executed):
    (executed["inputs"] / "a.npz").unlink()
    assert "a.npz" in _changes(executed)[0]


def test_an_edited_output_is_named(executed):
    (executed["figures"] / "fig1.png").write_bytes(b"edited")
    assert "fig1.png" in _changes(executed)[0]


def test_other_parameters_are_a_change(executed):
    assert "n_seeds" in _changes(executed, parameters={"n_seeds": 4})[0]


def test_an_edited_cell_is_a_change_but_its_outputs_are_not_the_cells(executed):
    notebook = nbformat.read(executed["source"], as_version=4)
    notebook.cells[0].source = "x = 2"
    nbformat.write(notebook, executed["source"])
    reasons = _changes(executed)
    assert any("cells changed" in reason for reason in reasons)


def test_no_record_is_a_reason(executed):
    (executed["figures"] / provenance.RECORD_NAME).unlink()
    assert "no record" in _changes(executed)[0]


def test_other_package_versions_are_named(executed, monkeypatch):
    versions = provenance.package_versions()
    monkeypatch.setattr(provenance, "package_versions", lambda: {**versions, "numpy": "0.0"})
    assert "numpy" in _changes(executed)[0]


@pytest.fixture(scope="module")
def reproduce():
    spec = importlib.util.spec_from_file_location("reproduce", paths.repo_root() / "reproduce.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


@pytest.mark.parametrize("key", list(NOTEBOOKS))
def test_every_published_notebook_is_up_to_date_with_its_inputs(reproduce, key, monkeypatch):
    # What `python reproduce.py` checks before executing: a commit that changes code or data a notebook read
    # without regenerating it fails here, naming what changed.
    for variable in (paths.RESULTS_ROOT_VARIABLE, paths.FIGURES_ROOT_VARIABLE, paths.OUTPUT_ROOT_VARIABLE):
        monkeypatch.delenv(variable, raising=False)
    assert reproduce.reasons_to_execute(reproduce.published_plan(key)) == []


def test_every_record_names_only_files_a_clean_clone_has(monkeypatch):
    monkeypatch.delenv(paths.FIGURES_ROOT_VARIABLE, raising=False)
    tracked = set(subprocess.run(["git", "ls-files"], cwd=paths.repo_root(), capture_output=True, text=True,
                                 check=True).stdout.splitlines())
    folders = {name.rsplit("/", 1)[0] + "/" for name in tracked}
    for key in NOTEBOOKS:
        record = json.loads((paths.figures_dir(key) / provenance.RECORD_NAME).read_text())
        # A file looked for and absent is recorded as absent (None): its appearing would change the outputs.
        untracked = [name for name, digest in record["inputs"].items()
                     if digest is not None and name not in tracked and name not in folders]
        assert untracked == [], f"{key} read files a clean clone does not have: {untracked[:3]}"
