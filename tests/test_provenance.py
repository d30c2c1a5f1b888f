"""common.provenance: what an execution read is logged, and a record notices every change of an input or output."""
import importlib.util
import json
import os
import shutil
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
def executed(tmp_path, monkeypatch):
    """A finished execution's files and its record: source notebook, outputs and two input files (in a results
    cache of its own, which the record names by its variable)."""
    monkeypatch.setenv(paths.RESULTS_ROOT_VARIABLE, str(tmp_path))
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
    files = [provenance._shown(path) for path in (inputs / "a.npz", inputs / "b.csv", f"{inputs}/")]
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
    assert "no trustworthy record" in _changes(executed)[0]


def test_other_package_versions_are_named(executed, monkeypatch):
    versions = provenance.package_versions()
    monkeypatch.setattr(provenance, "package_versions", lambda: {**versions, "numpy": "0.0"})
    assert "numpy" in _changes(executed)[0]


def test_a_record_names_a_file_of_an_outside_cache_by_its_root_never_by_an_absolute_path(executed):
    record = provenance.load_record(executed["figures"])
    assert sorted(record["inputs"]) == ["$BO_RESULTS_ROOT/inputs/", "$BO_RESULTS_ROOT/inputs/a.npz",
                                        "$BO_RESULTS_ROOT/inputs/b.csv", provenance.JOB_SCRIPT]


def test_the_same_record_read_with_the_cache_variable_unset_is_a_change(executed, monkeypatch):
    # Issue 64 item 1: a record made from another cache kept vouching for its files by their absolute paths.
    monkeypatch.delenv(paths.RESULTS_ROOT_VARIABLE)
    reasons = _changes(executed)
    assert any("results cache" in reason for reason in reasons)
    assert any("input files changed or are missing" in reason for reason in reasons)


def test_an_outside_cache_is_judged_by_the_bytes_of_its_files(executed, tmp_path, monkeypatch):
    # A copy of the cache vouches for the same outputs; one changed run in it does not.
    copy = tmp_path / "copy"
    shutil.copytree(executed["inputs"], copy / "inputs")
    monkeypatch.setenv(paths.RESULTS_ROOT_VARIABLE, str(copy))
    assert _changes(executed) == []
    (copy / "inputs" / "a.npz").write_bytes(b"changed")
    assert "a.npz" in _changes(executed)[0]


def test_a_record_with_an_absolute_path_is_refused(executed, tmp_path):
    with pytest.raises(ValueError, match="outside the repository"):
        provenance.make_record(executed["source"], executed["source"], executed["figures"], {},
                               ["/somewhere/else/run.npz"])


def test_a_hand_edited_record_is_not_trusted(executed):
    # Issue 64 item 4: an input changed, and the record edited to vouch for it.
    (executed["inputs"] / "b.csv").write_bytes(b"other")
    path = executed["figures"] / provenance.RECORD_NAME
    record = json.loads(path.read_text())
    record["inputs"]["$BO_RESULTS_ROOT/inputs/b.csv"] = provenance.digest(executed["inputs"] / "b.csv")
    path.write_text(json.dumps(record, indent=1))
    assert "does not match its own digest" in _changes(executed)[0]


LOOKER = """
import common  # installs the logging hook
from common import paths, provenance
print(provenance.looked_for(paths.results_root() / "optional.csv"))
"""


@pytest.mark.parametrize("present", [False, True])
def test_a_file_looked_for_is_an_input_whether_it_exists_or_not(tmp_path, present):
    # Issue 64 item 3: creating or deleting an optional file the code looked for executes the notebook again.
    results, log = tmp_path / "results", tmp_path / "log" / "reads.log"
    results.mkdir()
    log.parent.mkdir()
    optional = results / "optional.csv"
    if present:
        optional.write_text("a,b\n")
    environment = {**os.environ, provenance.READ_LOG_VARIABLE: str(log), paths.RESULTS_ROOT_VARIABLE: str(results)}
    printed = subprocess.run([sys.executable, "-c", LOOKER], env=environment, check=True, cwd=tmp_path,
                             capture_output=True, text=True).stdout
    assert printed.strip() == str(present)
    assert provenance.read_log(log) == [str(optional)]
    source = tmp_path / "toy.ipynb"
    nbformat.write(nbformat.v4.new_notebook(cells=[nbformat.v4.new_code_cell("x = 1")]), source)
    figures = tmp_path / "figures"
    figures.mkdir()
    with pytest.MonkeyPatch.context() as patch:
        patch.setenv(paths.RESULTS_ROOT_VARIABLE, str(results))
        provenance.write_record(figures, provenance.make_record(source, source, figures, {}, ["$BO_RESULTS_ROOT/"
                                                                                              "optional.csv"]))
        assert provenance.changes(source, source, figures, {}) == []
        optional.unlink() if present else optional.write_text("a,b\n")
        assert "optional.csv" in provenance.changes(source, source, figures, {})[0]


def test_the_library_checks_for_a_file_only_through_looked_for():
    # An existence check the read log does not see would let a file appear without re-executing the notebook.
    checks = ("os.path.exists(", "os.path.isfile(", ".exists()", ".is_file()")
    found = [f"{path.relative_to(paths.repo_root())}:{number}"
             for path in sorted((paths.repo_root() / "common").rglob("*.py")) if path.name != "provenance.py"
             for number, line in enumerate(path.read_text().splitlines(), start=1)
             if any(check in line for check in checks) and "entry.is_file()" not in line]
    assert found == []


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
    # Every folder above a tracked file is in a clean clone (a paper's folder of runs may hold only its packs/).
    folders = {"/".join(parts[:depth]) + "/" for parts in (name.split("/") for name in tracked)
               for depth in range(1, len(parts))}
    for key in NOTEBOOKS:
        record = json.loads((paths.figures_dir(key) / provenance.RECORD_NAME).read_text())
        # A file looked for and absent is recorded as absent (None): its appearing would change the outputs.
        untracked = [name for name, digest in record["inputs"].items()
                     if digest is not None and name not in tracked and name not in folders]
        assert untracked == [], f"{key} read files a clean clone does not have: {untracked[:3]}"


def test_an_input_edited_while_the_notebook_ran_leaves_it_stale_even_when_the_record_is_written_after(tmp_path):
    # The record is written when the execution ends: an edit made while it ran must not pass for what it computed
    # from (2026-12-04: lesson 4 was recorded up to date with a module edited during its execution).
    source = tmp_path / "toy.ipynb"
    nbformat.write(nbformat.v4.new_notebook(cells=[nbformat.v4.new_code_cell("x = 1")]), source)
    figures = tmp_path / "figures"
    figures.mkdir()
    module = paths.repo_root() / "common" / "paths.py"   # a file of the code snapshot, never written by this test
    before = provenance.code_snapshot(source)
    name = provenance._shown(module)
    edited_before = {**before, name: "a digest of another version"}
    record = provenance.make_record(source, source, figures, {}, [name], edited_before)
    provenance.write_record(figures, record)
    assert record["inputs"][name] == provenance.CHANGED_DURING_EXECUTION
    assert any(name in reason for reason in provenance.changes(source, source, figures, {}))
    unchanged = provenance.make_record(source, source, figures, {}, [name], before)
    assert unchanged["inputs"][name] == provenance.digest(module)
