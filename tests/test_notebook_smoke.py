"""Every registered notebook runs end to end at scale ``"smoke"``, as a fresh clone would.

Each notebook of ``common.experiments.NOTEBOOKS`` is executed with papermill against an empty result cache and an
empty figures folder (``BO_RESULTS_ROOT`` and ``BO_FIGURES_ROOT`` point at temporary folders); its summary must
record runs computed and none loaded, and every figure it lists must be written.
"""
import json

import papermill
import pytest

from common import paths
from common.experiments import NOTEBOOKS, load_experiment

# In the kernel: the suite's two xdist workers already take both cores (a pool of two each only adds start-up; the
# process pool itself is tested in tests/test_runner.py).
SMOKE_JOBS = 1


@pytest.mark.parametrize("key", list(NOTEBOOKS))
def test_notebook_runs_at_smoke_scale_on_an_empty_cache(key, tmp_path, monkeypatch):
    monkeypatch.setenv(paths.RESULTS_ROOT_VARIABLE, str(tmp_path / "results"))
    monkeypatch.setenv(paths.FIGURES_ROOT_VARIABLE, str(tmp_path / "figures"))
    notebook = paths.notebooks_dir() / load_experiment(key).NOTEBOOK
    declared = papermill.inspect_notebook(str(notebook))
    parameters = {"scale": "smoke", **({"n_jobs": SMOKE_JOBS} if "n_jobs" in declared else {})}

    papermill.execute_notebook(str(notebook), str(tmp_path / notebook.name), parameters=parameters,
                               kernel_name="python3", cwd=str(paths.repo_root()), progress_bar=False)

    summary = json.loads((tmp_path / "figures" / key / "summary.json").read_text())
    execution = json.loads((tmp_path / "figures" / key / "execution.json").read_text())
    assert (summary["scale"], execution["loaded"]) == ("smoke", 0) and execution["computed"] > 0
    missing = [name for name in summary["figures"] if not (tmp_path / "figures" / key / name).exists()]
    assert not missing, f"{key}: the summary lists figures that were not written: {missing}"
