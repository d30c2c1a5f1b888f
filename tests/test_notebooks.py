"""Every registered notebook runs end to end, and the committed cached runs still reproduce.

* A smoke run executes each notebook of ``common.experiments.NOTEBOOKS`` with
  papermill at scale ``"smoke"`` against an empty result cache and an empty
  figures folder (``BO_RESULTS_ROOT`` and ``BO_FIGURES_ROOT`` point at temporary
  folders), as a fresh clone would.
* A spot-check recomputes a few of the committed runs in ``data/results/<key>/``
  with the experiment module's ``run(config)`` and compares every stored number
  exactly, except the wall times. A notebook without cached runs is skipped.

The committed notebooks' own outputs are checked by nbval (``--nbval-lax`` in
pyproject.toml), which re-executes them against the committed cache.
"""
import json

import numpy as np
import papermill
import pytest

from common import paths, store
from common.experiments import NOTEBOOKS, load_experiment

SMOKE_JOBS = 2
# Spot-checked runs: one per experiment block of each notebook (synthetic, real-world, ...),
# drawn with a fixed seed among the block's runs that took at most SPOT_CHECK_MAX_SECONDS
# to compute (the block's cheapest run if none did), so every kind of run is rechecked and
# the test stays within seconds whatever scale the cache was filled at.
SPOT_CHECK_MAX_SECONDS = 20.0
SPOT_CHECK_SEED = 0
# Results that measure time rather than compute a number.
TIMING_RESULTS = ("wall_time",)


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
    assert (summary["scale"], summary["runs_loaded"]) == ("smoke", 0)
    assert summary["runs_computed"] > 0
    missing = [name for name in summary["figures"] if not (tmp_path / "figures" / key / name).exists()]
    assert not missing, f"{key}: the summary lists figures that were not written: {missing}"


def _spot_check_sample(runs):
    rng = np.random.default_rng(SPOT_CHECK_SEED)
    blocks = {}
    for run in sorted(runs, key=lambda run: run.key):
        blocks.setdefault(run.config["experiment"], []).append(run)
    chosen = []
    for block in sorted(blocks):
        cheap = [run for run in blocks[block] if run.wall_time <= SPOT_CHECK_MAX_SECONDS]
        chosen.append(cheap[rng.integers(len(cheap))] if cheap
                      else min(blocks[block], key=lambda run: run.wall_time))
    return chosen


@pytest.mark.parametrize("key", list(NOTEBOOKS))
def test_cached_runs_recompute_to_the_stored_numbers(key, monkeypatch):
    monkeypatch.delenv(paths.RESULTS_ROOT_VARIABLE, raising=False)  # the committed cache
    runs = store.scan(key)
    if not runs:
        pytest.skip(f"no cached runs in data/results/{key}/")
    module = load_experiment(key)
    assert callable(getattr(module, "run", None)), \
        f"experiment module of {key!r} must define run(config) -> dict to be spot-checked"

    for stored in _spot_check_sample(runs):
        recomputed = module.run(stored.config)
        compared = sorted(set(stored.result) - set(TIMING_RESULTS))
        assert sorted(set(recomputed) - set(TIMING_RESULTS)) == compared, stored.key
        for name in compared:
            np.testing.assert_array_equal(np.asarray(recomputed[name]), np.asarray(stored.result[name]),
                                          err_msg=f"run {stored.key}, result {name!r}", strict=True)
