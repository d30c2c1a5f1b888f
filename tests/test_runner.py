"""The runner and result store: caching, resuming, corruption, backends, cost estimates."""
import numpy as np
import pandas as pd
import pytest
import toy_runs
from toy_runs import toy_config, toy_run

from common import runner, store


@pytest.fixture(autouse=True)
def empty_store(tmp_path, monkeypatch):
    monkeypatch.setenv("BO_RESULTS_ROOT", str(tmp_path / "results"))
    runner.reset_run_counts()


def deterministic(table):
    return table.drop(columns=["run_seconds", "run_cpu_seconds"])


def grid(n_seeds=4, **settings):
    return [toy_config(seed, **settings) for seed in range(n_seeds)]


def test_cached_runs_are_loaded_not_computed():
    runner.run_grid(grid(), toy_run, n_jobs=1, progress=False)
    runner.reset_run_counts()
    runner.run_grid(grid(), toy_run, n_jobs=1, progress=False)
    assert runner.run_counts() == {"loaded": 4, "computed": 0}


def test_recomputing_a_cached_run_gives_the_stored_numbers():
    stored = runner.run_grid(grid(), toy_run, n_jobs=1, progress=False)
    recomputed = runner.run_grid(grid(), toy_run, n_jobs=1, progress=False, recompute=True)
    pd.testing.assert_frame_equal(deterministic(stored), deterministic(recomputed), check_exact=True)


def test_restart_after_a_kill_computes_only_the_missing_runs():
    configs = grid(n_seeds=6)
    with pytest.raises(KeyboardInterrupt):
        runner.run_grid(configs, toy_runs.interrupted_run, n_jobs=1, progress=False)
    runner.reset_run_counts()
    runner.run_grid(configs, toy_run, n_jobs=1, progress=False)
    assert runner.run_counts() == {"loaded": 3, "computed": 3}


def _truncate(path, other_path):
    path.write_bytes(path.read_bytes()[: path.stat().st_size // 2])


def _garble(path, other_path):
    data = bytearray(path.read_bytes())
    data[len(data) // 2] ^= 0xFF
    path.write_bytes(bytes(data))


def _tamper(path, other_path):
    with np.load(path) as npz:
        entries = {name: npz[name] for name in npz.files}
    entries["r.y"] = entries["r.y"] + 1.0  # valid file, stale checksum
    with open(path, "wb") as file:
        np.savez(file, **entries)


def _swap(path, other_path):
    path.write_bytes(other_path.read_bytes())  # a valid file of another configuration


@pytest.mark.parametrize("damage", [_truncate, _garble, _tamper, _swap])
def test_damaged_file_is_detected_and_recomputed(damage):
    configs = grid(n_seeds=2)
    original = runner.run_grid(configs, toy_run, n_jobs=1, progress=False)
    damage(store.run_path(configs[0]), store.run_path(configs[1]))
    runner.reset_run_counts()
    with pytest.warns(store.CorruptResultWarning):
        repaired = runner.run_grid(configs, toy_run, n_jobs=1, progress=False)
    assert runner.run_counts() == {"loaded": 1, "computed": 1}
    pd.testing.assert_frame_equal(deterministic(original), deterministic(repaired), check_exact=True)


def test_joblib_processes_and_sequential_runs_give_identical_tables(tmp_path, monkeypatch):
    sequential = runner.run_grid(grid(), toy_run, n_jobs=1, progress=False)
    monkeypatch.setenv("BO_RESULTS_ROOT", str(tmp_path / "parallel"))
    parallel = runner.run_grid(grid(), toy_run, n_jobs=2, progress=False)
    assert runner.run_counts()["computed"] == 8
    pd.testing.assert_frame_equal(deterministic(sequential), deterministic(parallel), check_exact=True)


def test_dask_cluster_gives_identical_tables(tmp_path, monkeypatch):
    distributed = pytest.importorskip("distributed")
    local = runner.run_grid(grid(), toy_run, n_jobs=1, progress=False)
    monkeypatch.setenv("BO_RESULTS_ROOT", str(tmp_path / "dask"))
    with distributed.LocalCluster(processes=False, n_workers=1, threads_per_worker=2,
                                  dashboard_address=None) as cluster:
        remote = runner.run_grid(grid(), toy_run, dask_address=cluster.scheduler_address, progress=False)
    assert runner.run_counts()["computed"] == 8
    pd.testing.assert_frame_equal(deterministic(local), deterministic(remote), check_exact=True)


def test_duplicate_configs_are_run_and_listed_once():
    table = runner.run_grid(grid(n_seeds=2) + grid(n_seeds=1), toy_run, n_jobs=1, progress=False)
    assert runner.run_counts()["computed"] == 2
    assert table["run_key"].nunique() == 2 and len(table) == 2 * 6


def test_failing_run_names_its_config_and_finished_runs_are_saved():
    configs = grid(n_seeds=4)
    with pytest.raises(runner.RunFailedError, match='"seed":2'):
        runner.run_grid(configs, toy_runs.failing_run, n_jobs=1, progress=False)
    assert [store.cached_run(config) is not None for config in configs] == [True, True, False, False]


def test_result_that_is_not_plain_arrays_is_rejected_with_its_config():
    with pytest.raises(runner.RunFailedError, match="invalid result.*numpy array"):
        runner.run_grid(grid(n_seeds=1), toy_runs.list_result_run, n_jobs=1, progress=False)


@pytest.mark.parametrize("n_jobs", [0, -1, 1.5, True, "2"])
def test_invalid_n_jobs_is_rejected(n_jobs):
    with pytest.raises(ValueError, match="n_jobs"):
        runner.run_grid(grid(), toy_run, n_jobs=n_jobs)


def test_n_jobs_and_dask_address_together_are_rejected():
    with pytest.raises(ValueError, match="not both"):
        runner.run_grid(grid(), toy_run, n_jobs=2, dask_address="tcp://127.0.0.1:8786")


def test_run_fn_must_be_importable_at_module_level():
    with pytest.raises(ValueError, match="module-level"):
        runner.run_grid(grid(), lambda config: toy_run(config), n_jobs=1)


@pytest.mark.parametrize("config", [
    {"paper": "toy", "experiment": "noise"},
    {"paper": "toy", "experiment": "noise", "seed": -1},
    {"paper": "Toy!", "experiment": "noise", "seed": 0},
    {"paper": "toy", "experiment": "noise", "seed": 0, "eval": 3},
])
def test_malformed_config_is_rejected(config):
    with pytest.raises(ValueError):
        runner.run_grid([config], toy_run, n_jobs=1)


def test_config_with_non_plain_values_is_rejected():
    with pytest.raises(TypeError, match="plain data"):
        store.run_key({**toy_config(0), "bounds": np.zeros((2, 2))})


def test_non_trace_arrays_are_kept_out_of_the_table_but_loadable():
    table = runner.run_grid(grid(n_seeds=1), toy_run, n_jobs=1, progress=False)
    assert "X" not in table.columns
    assert store.load_run(toy_config(0)).result["X"].shape == (6, 3)


def test_scalar_results_become_columns_of_every_row():
    table = runner.run_grid(grid(n_seeds=1), toy_run, n_jobs=1, progress=False)
    assert np.all(table["final"] == table["y"].max())


def test_run_summary_has_one_row_per_run_with_final_values():
    table = runner.run_grid(grid(n_seeds=3), toy_run, n_jobs=1, progress=False)
    summary = store.run_summary(table)
    assert list(summary["n_evals"]) == [6, 6, 6]
    assert np.array_equal(summary["best_so_far"], table.groupby("run_key", sort=False)["y"].max())


def test_estimate_cost_uses_the_recorded_cpu_seconds_not_the_wall_time():
    # A run at low priority on a busy machine: wall time inflated, CPU time true.
    for seed, seconds in ((0, 2.0), (1, 4.0)):
        store.save_run(toy_config(seed), toy_run(toy_config(seed)), wall_time=10 * seconds, cpu_seconds=seconds,
                       code_version=1)
    estimate = runner.estimate_cost(grid(n_seeds=5))
    assert (estimate.n_cached, estimate.n_missing, estimate.cpu_seconds) == (2, 3, 9.0)


def test_estimate_cost_falls_back_to_wall_seconds_where_no_cpu_time_was_recorded():
    for seed, seconds in ((0, 2.0), (1, 4.0)):
        store.save_run(toy_config(seed), toy_run(toy_config(seed)), wall_time=seconds, code_version=1)
    assert runner.estimate_cost(grid(n_seeds=5)).cpu_seconds == 9.0


def test_the_runner_records_cpu_seconds_of_each_run():
    table = runner.run_grid(grid(n_seeds=2), toy_run, n_jobs=1, progress=False)
    cpu = table.groupby("run_key")["run_cpu_seconds"].first()
    assert (cpu > 0).all() and all(run.cpu_seconds is not None for run in store.scan("toy"))


def test_estimate_cost_falls_back_to_runs_of_the_same_method():
    store.save_run(toy_config(0, budget=6), toy_run(toy_config(0, budget=6)), wall_time=5.0, code_version=1)
    estimate = runner.estimate_cost(grid(n_seeds=2, budget=9))
    assert estimate.cpu_seconds == 10.0 and estimate.basis == {"runs of the same experiment/method": 2}


def test_estimate_cost_says_when_there_is_no_estimate():
    estimate = runner.estimate_cost(grid(n_seeds=2))
    assert estimate.n_unestimated == 2 and "no estimate for 2" in str(estimate)
