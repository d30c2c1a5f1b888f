"""The runner and result store: caching, resuming, corruption, staleness, claims, backends, costs."""
import json
import os
import re
import socket
import subprocess
import sys
import threading
import time
import warnings
from pathlib import Path

import numpy as np
import pandas as pd
import psutil
import pytest
import toy_runs
from toy_runs import toy_config, toy_run

from common import paths, run_claims, runner, store

TESTS_DIR = Path(__file__).resolve().parent


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
    assert runner.run_counts() == {"loaded": 4, "computed": 0, "corrupt": [], "stale": []}


def test_missing_runs_are_computed_seed_by_seed_and_the_table_keeps_the_grid_order():
    configs = grid(3, method="a") + grid(3, method="b")
    toy_runs.COMPUTED.clear()
    table = runner.run_grid(configs, toy_runs.recording_run, n_jobs=1, progress=False)
    assert toy_runs.COMPUTED == [("a", 0), ("b", 0), ("a", 1), ("b", 1), ("a", 2), ("b", 2)]
    assert list(dict.fromkeys(zip(table["method"], table["seed"]))) == [(c["method"], c["seed"]) for c in configs]


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
    assert runner.run_counts() == {"loaded": 3, "computed": 3, "corrupt": [], "stale": []}


def _truncate(path, other_path):
    path.write_bytes(path.read_bytes()[: path.stat().st_size // 2])


def _garble(path, other_path):
    """Flip a byte in the middle of the first array's compressed data (zip headers hold fields no reader checks)."""
    import zipfile
    data = bytearray(path.read_bytes())
    first = zipfile.ZipFile(path).infolist()[0]
    offset = first.header_offset
    name_length, extra_length = (int.from_bytes(data[offset + at:offset + at + 2], "little") for at in (26, 28))
    start = offset + 30 + name_length + extra_length  # a 30-byte local header, then the name and the extra field
    data[start + first.compress_size // 2] ^= 0xFF
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
    counts = runner.run_counts()
    assert (counts["loaded"], counts["computed"], counts["stale"]) == (1, 1, [])
    assert [entry.split(":")[0] for entry in counts["corrupt"]] == [store.run_key(configs[0])]
    pd.testing.assert_frame_equal(deterministic(original), deterministic(repaired), check_exact=True)


def test_a_run_of_another_code_version_is_stale_named_and_recomputed(monkeypatch):
    configs = grid(n_seeds=2)
    runner.run_grid(configs, toy_run, n_jobs=1, progress=False)
    monkeypatch.setattr(toy_runs, "CODE_VERSION", 2)
    runner.reset_run_counts()
    with pytest.warns(store.StaleResultWarning, match="code version 1"):
        runner.run_grid(configs, toy_run, n_jobs=1, progress=False)
    counts = runner.run_counts()
    assert (counts["loaded"], counts["computed"], len(counts["stale"])) == (0, 2, 2)
    assert {run.code_version for run in store.scan("toy")} == {2}


def test_a_run_function_without_a_code_version_is_refused(monkeypatch):
    monkeypatch.delattr(toy_runs, "CODE_VERSION")
    with pytest.raises(ValueError, match="CODE_VERSION"):
        runner.run_grid(grid(), toy_run, n_jobs=1, progress=False)


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


def test_final_rows_keeps_the_last_evaluation_of_every_run():
    table = runner.run_grid(grid(n_seeds=3), toy_run, n_jobs=1, progress=False)
    finals = store.final_rows(table)
    assert list(finals["run_key"]) == sorted(table["run_key"].unique())
    assert list(finals["eval"]) == list(table.groupby("run_key")["eval"].max())
    assert np.array_equal(finals["best_so_far"], table.groupby("run_key")["y"].max())


@pytest.mark.parametrize("arrange", ["as loaded", "shuffled", "reversed", "a run's rows apart", "labels twice"])
def test_final_rows_are_the_same_however_the_rows_are_arranged(arrange):
    table = runner.run_grid(grid(n_seeds=3), toy_run, n_jobs=1, progress=False)
    arranged = {"as loaded": table, "shuffled": table.sample(frac=1, random_state=0), "reversed": table.iloc[::-1],
                "a run's rows apart": pd.concat([table.iloc[1:], table.iloc[:1]]),
                "labels twice": pd.concat([table.iloc[:4], table.iloc[4:].set_axis(range(len(table) - 4))])}[arrange]
    by_grouping = arranged.loc[arranged.groupby("run_key")["eval"].idxmax()]
    pd.testing.assert_frame_equal(store.final_rows(arranged), by_grouping, check_exact=True)


def test_final_rows_applied_twice_changes_nothing():
    finals = store.final_rows(runner.run_grid(grid(n_seeds=3), toy_run, n_jobs=1, progress=False))
    assert store.final_rows(finals).equals(finals)


def test_cpu_hours_count_every_run_once_at_its_recorded_cpu_seconds():
    for seed, seconds in ((0, 1800.0), (1, 5400.0)):
        store.save_run(toy_config(seed), toy_run(toy_config(seed)), wall_time=1.0, cpu_seconds=seconds,
                       code_version=1)
    table = store.load_table(grid(n_seeds=2))
    assert len(table) > 2 and store.cpu_hours(table, by="seed").to_dict() == {0: 0.5, 1: 1.5}


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


def test_estimate_cost_scales_runs_of_another_budget_linearly():
    store.save_run(toy_config(0, budget=6), toy_run(toy_config(0, budget=6)), wall_time=5.0, code_version=1)
    estimate = runner.estimate_cost(grid(n_seeds=2, budget=9))
    assert estimate.cpu_seconds == 15.0 and estimate.basis == {"runs differing in budget": 2}


def test_a_price_scaled_up_from_a_smaller_budget_is_called_a_lower_bound():
    store.save_run(toy_config(0, budget=6), toy_run(toy_config(0, budget=6)), wall_time=5.0, code_version=1)
    estimate = runner.estimate_cost(grid(n_seeds=2, budget=9))
    assert estimate.n_scaled_up == 2 and "at least 15 s CPU" in str(estimate)


def test_a_price_scaled_down_from_a_larger_budget_is_no_lower_bound():
    store.save_run(toy_config(0, budget=9), toy_run(toy_config(0, budget=9)), wall_time=9.0, code_version=1)
    estimate = runner.estimate_cost(grid(n_seeds=2, budget=6))
    assert estimate.n_scaled_up == 0 and "about 12 s CPU" in str(estimate)


def test_an_estimate_names_the_runs_it_prices_low():
    store.save_run(toy_config(0, budget=6), toy_run(toy_config(0, budget=6)), wall_time=5.0, code_version=1)
    store.save_run(toy_config(0, method="b"), toy_run(toy_config(0, method="b")), wall_time=2.0, code_version=1)
    estimate = runner.estimate_cost(grid(n_seeds=1, budget=9) + grid(n_seeds=2, method="b"))
    assert estimate.n_scaled_up == 1
    assert str(estimate).endswith("a lower bound for the 1 priced from runs with a smaller budget")


def test_estimate_cost_prefers_one_differing_setting_to_two():
    # A paper-scale run of another method is a better guide than a quick run of the same method.
    near, far = toy_config(0, method="b", budget=9), {**toy_config(0, budget=6), "experiment": "quick"}
    store.save_run(near, toy_run(near), wall_time=7.0, code_version=1)
    store.save_run(far, toy_run(far), wall_time=1.0, code_version=1)
    estimate = runner.estimate_cost(grid(n_seeds=3, budget=9))
    assert estimate.cpu_seconds == 21.0 and estimate.basis == {"runs differing in method": 3}


def test_estimate_cost_averages_equally_near_runs():
    for config, seconds in ((toy_config(0, method="b"), 2.0), (toy_config(0, budget=9), 6.0)):
        store.save_run(config, toy_run(config), wall_time=seconds, code_version=1)
    estimate = runner.estimate_cost(grid(n_seeds=1))
    assert estimate.cpu_seconds == 3.0 and estimate.basis == {"runs differing in 1 setting": 1}


def test_a_method_on_a_problem_it_has_not_run_is_priced_by_the_two_way_product():
    # A dear method (a) on a new problem: its cost elsewhere times how much dearer the problem is for the others.
    for (method, experiment), seconds in {("a", "noise"): 10.0, ("b", "noise"): 1.0, ("b", "quick"): 2.0}.items():
        config = {**toy_config(0, method=method), "experiment": experiment}
        store.save_run(config, toy_run(config), wall_time=seconds, code_version=1)
    estimate = runner.estimate_cost([{**toy_config(seed), "experiment": "quick"} for seed in range(2)])
    assert estimate.cpu_seconds == 40.0  # the mean of the nearest runs would say 2 x 6
    assert estimate.basis == {"the product of runs differing in experiment and in method": 2}


def test_estimate_cost_never_prices_from_another_paper():
    other = {**toy_config(0), "paper": "other"}
    store.save_run(other, toy_run(other), wall_time=5.0, code_version=1)
    assert runner.estimate_cost(grid(n_seeds=1), paper_key="other").n_unestimated == 1


def test_estimate_cost_counts_a_run_of_another_code_version_as_missing():
    # The runner recomputes a stale run, and the old code's speed says little about the new one's.
    current = runner.code_version(toy_run)
    for seed, (version, seconds) in enumerate(((current + 1, 50.0), (current, 3.0))):
        store.save_run(toy_config(seed), toy_run(toy_config(seed)), wall_time=seconds, code_version=version)
    estimate = runner.estimate_cost(grid(n_seeds=3), toy_run)
    assert (estimate.n_cached, estimate.n_missing, estimate.cpu_seconds) == (1, 2, 6.0)


def test_estimate_cost_says_when_there_is_no_estimate():
    estimate = runner.estimate_cost(grid(n_seeds=2))
    assert estimate.n_unestimated == 2 and "no estimate for 2" in str(estimate)


def test_a_run_claimed_by_a_live_process_is_waited_for_not_computed(monkeypatch):
    configs = grid(n_seeds=2)
    monkeypatch.setattr(runner, "WAIT_FOR_OTHERS_SECONDS", 0.05)
    with run_claims.RunClaims() as other_process:
        assert other_process.try_claim(configs[0])
        finisher = threading.Timer(0.5, lambda: store.save_run(configs[0], toy_run(configs[0]), 1.0,
                                                               code_version=1))
        finisher.start()
        runner.run_grid(configs, toy_run, n_jobs=1, progress=False)
        finisher.join()
    assert runner.run_counts()["computed"] == 1 and runner.run_counts()["loaded"] == 1


def test_a_claim_of_a_dead_process_expires_and_the_run_is_computed():
    configs = grid(n_seeds=1)
    lock = run_claims.lock_path(configs[0])
    lock.parent.mkdir(parents=True)
    dead = subprocess.run([sys.executable, "-c", "import os; print(os.getpid())"], capture_output=True, text=True)
    lock.write_text(json.dumps({"host": socket.gethostname(), "pid": int(dead.stdout)}))
    runner.run_grid(configs, toy_run, n_jobs=1, progress=False)
    assert runner.run_counts()["computed"] == 1 and not lock.exists()


def test_a_claim_not_refreshed_for_too_long_expires(monkeypatch):
    config = toy_config(0)
    lock = run_claims.lock_path(config)
    lock.parent.mkdir(parents=True)
    lock.write_text(json.dumps({"host": "another-host", "pid": 1}))
    assert not run_claims.is_expired(lock)
    assert run_claims.is_expired(lock, now=lock.stat().st_mtime + run_claims.EXPIRES_AFTER_SECONDS + 1)


def test_two_processes_filling_one_grid_compute_each_run_once(tmp_path):
    script = (f"import sys; sys.path.insert(0, {str(TESTS_DIR)!r}); import toy_runs; from common import runner;"
              "runner.run_grid([toy_runs.toy_config(s, method='slow') for s in range(6)], toy_runs.slow_run,"
              " n_jobs=1, progress=False); print(runner.run_counts()['computed'])")
    environment = {**os.environ, "BO_RESULTS_ROOT": str(tmp_path / "shared")}
    processes = [subprocess.Popen([sys.executable, "-c", script], env=environment, stdout=subprocess.PIPE, text=True)
                 for _ in range(2)]
    computed = [int(process.communicate(timeout=60)[0]) for process in processes]
    assert sum(computed) == 6 and min(computed) > 0


def test_worker_processes_end_when_their_parent_is_killed(tmp_path):
    script = (f"import sys; sys.path.insert(0, {str(TESTS_DIR)!r}); import toy_runs; from common import runner;"
              "runner.run_grid([toy_runs.toy_config(s, method='hang') for s in range(4)], toy_runs.hanging_run,"
              " n_jobs=2, progress=False)")
    started = tmp_path / "started"
    started.mkdir()
    environment = {**os.environ, "BO_RESULTS_ROOT": str(tmp_path / "results"), "TOY_STARTED_DIR": str(started)}
    parent = subprocess.Popen([sys.executable, "-c", script], env=environment)
    # Wait until two workers run a task (on a loaded machine they may still be importing numpy when they appear).
    deadline = time.monotonic() + 120
    while len(list(started.iterdir())) < 2 and time.monotonic() < deadline:
        time.sleep(0.2)
    workers = [psutil.Process(int(path.name)) for path in started.iterdir()]
    assert len(workers) >= 2, "the grid did not start its runs"
    parent.kill()
    parent.wait()
    deadline = time.monotonic() + 30
    while (alive := [worker for worker in workers if _running(worker)]) and time.monotonic() < deadline:
        time.sleep(0.2)
    for process in alive:
        process.kill()
    assert not alive, f"{len(alive)} worker(s) outlived their killed parent"


def _running(process):
    try:
        return process.status() != psutil.STATUS_ZOMBIE  # a zombie has exited; only its parent entry remains
    except psutil.NoSuchProcess:
        return False


def _record_cache_kernels(root, kernels):
    root.mkdir(parents=True, exist_ok=True)
    (root / store.NUMERIC_RECORD).write_text(json.dumps({"kernels": kernels}))


def test_runs_under_other_kernels_than_the_caches_are_kept_apart_and_read_back(tmp_path, monkeypatch):
    cache = tmp_path / "cache"
    _record_cache_kernels(cache, "KernelsOfAnotherCPU")
    monkeypatch.setenv("BO_RESULTS_ROOT", str(cache))
    monkeypatch.setenv("BO_OUTPUT_ROOT", str(tmp_path / "output"))
    ours = store.process_versions()["kernels"]
    runner.run_grid(grid(n_seeds=2), toy_run, n_jobs=1, progress=False)
    assert not (cache / "toy").exists()  # nothing entered the cache
    apart = sorted((tmp_path / "output" / "results-by-kernels" / ours / "toy").glob("*.npz"))
    assert len(apart) == 2 and {store.read_run(path).kernels for path in apart} == {ours}
    runner.reset_run_counts()
    runner.run_grid(grid(n_seeds=2), toy_run, n_jobs=1, progress=False)
    assert runner.run_counts() == {"loaded": 2, "computed": 0, "corrupt": [], "stale": []}


def test_published_runs_under_other_kernels_enter_the_cache_recording_their_own(tmp_path, monkeypatch):
    cache = tmp_path / "cache"
    _record_cache_kernels(cache, "KernelsOfAnotherCPU")
    monkeypatch.setenv("BO_RESULTS_ROOT", str(cache))
    monkeypatch.setenv("BO_OUTPUT_ROOT", str(tmp_path / "output"))
    monkeypatch.setenv(paths.PUBLISH_VARIABLE, "1")
    ours = store.process_versions()["kernels"]
    runner.run_grid(grid(n_seeds=2), toy_run, n_jobs=1, progress=False)
    published = sorted((cache / "toy").glob("*.npz"))
    assert len(published) == 2 and {store.read_run(path).kernels for path in published} == {ours}
    assert not (tmp_path / "output" / "results-by-kernels").exists()
    # Read back by a process that does not publish: the cache's runs are the published ones, whatever their kernels.
    monkeypatch.delenv(paths.PUBLISH_VARIABLE)
    runner.reset_run_counts()
    runner.run_grid(grid(n_seeds=2), toy_run, n_jobs=1, progress=False)
    assert runner.run_counts() == {"loaded": 2, "computed": 0, "corrupt": [], "stale": []}


def test_runs_under_the_caches_kernels_enter_it_and_record_them(tmp_path, monkeypatch):
    cache = tmp_path / "cache"
    _record_cache_kernels(cache, store.process_versions()["kernels"])
    monkeypatch.setenv("BO_RESULTS_ROOT", str(cache))
    runner.run_grid(grid(n_seeds=1), toy_run, n_jobs=1, progress=False)
    (run,) = store.scan("toy")
    assert run.kernels == store.process_versions()["kernels"] and run.versions["scipy"]


def test_a_file_without_its_own_kernels_takes_them_from_its_caches_record(tmp_path, monkeypatch):
    cache = tmp_path / "cache"
    _record_cache_kernels(cache, "SkylakeX")
    monkeypatch.setenv("BO_RESULTS_ROOT", str(cache))
    versions = {"library": "0", "numpy": "1", "python": "3", "kernels": "SkylakeX"}
    run = store.save_run(toy_config(0), toy_run(toy_config(0)), 0.1, code_version=1, versions=versions)
    old = dict(run.versions)
    del old["kernels"]
    assert store._completed_versions(old, cache)["kernels"] == "SkylakeX"
    assert store._completed_versions(old, cache)["recorded_by"] == store.NUMERIC_RECORD


def _other_kernels():
    """OpenBLAS kernels this CPU can run that differ from this process's, or None."""
    from common import _threads
    ours = store.process_versions()["kernels"]
    for kernels, flags in (("Sandybridge", {"avx"}), ("Haswell", {"avx2", "fma"})):
        if kernels != ours and flags <= _threads.cpu_flags():
            return kernels
    return None


def test_a_dask_worker_with_other_kernels_sends_its_runs_apart_recording_its_own_kernels_and_says_where(
        tmp_path, monkeypatch, capsys):
    from common import _threads
    distributed = pytest.importorskip("distributed")
    other = _other_kernels()
    if other is None:
        pytest.skip("this CPU runs no other OpenBLAS kernels to start a worker with")
    cache = tmp_path / "cache"
    _record_cache_kernels(cache, store.process_versions()["kernels"])
    monkeypatch.setenv("BO_RESULTS_ROOT", str(cache))
    monkeypatch.setenv("BO_OUTPUT_ROOT", str(tmp_path / "output"))
    # Inherited by the worker process before it loads numpy, past the pin of common/_threads.py.
    monkeypatch.setenv("OPENBLAS_CORETYPE", other)
    monkeypatch.setenv(_threads.FORCE_VARIABLE, other)
    with distributed.LocalCluster(processes=True, n_workers=1, threads_per_worker=1, dashboard_address=None) as cluster:
        destination = runner.destination_of_new_runs(cluster.scheduler_address)
        runner.run_grid(grid(n_seeds=2), toy_run, dask_address=cluster.scheduler_address, progress=True)
    assert not (cache / "toy").exists()
    folder = tmp_path / "output" / "results-by-kernels" / other
    apart = sorted((folder / "toy").glob("*.npz"))
    assert len(apart) == 2 and {store.read_run(path).kernels for path in apart} == {other}
    # Issue 64 item 6: the folder named is the workers', not this process's (the cache's kernels here).
    assert destination == folder and runner.destination_of_new_runs() == cache
    assert f"toy: computing into {folder}/" in capsys.readouterr().err


def test_a_corrupt_file_of_the_cache_is_named_by_every_job_until_it_is_restored(tmp_path, monkeypatch):
    cache = tmp_path / "cache"
    _record_cache_kernels(cache, "KernelsOfAnotherCPU")  # so runs computed here go apart, not over the corrupt file
    monkeypatch.setenv("BO_RESULTS_ROOT", str(cache))
    monkeypatch.setenv("BO_OUTPUT_ROOT", str(tmp_path / "output"))
    configs = grid(n_seeds=2)
    monkeypatch.setenv(paths.PUBLISH_VARIABLE, "1")
    runner.run_grid(configs, toy_run, n_jobs=1, progress=False)
    monkeypatch.delenv(paths.PUBLISH_VARIABLE)
    path = store.run_path(configs[0])
    original = path.read_bytes()
    _garble(path, None)
    repair = f"restore it with `git checkout -- {re.escape(str(path))}` or delete it"
    with pytest.warns(store.CorruptResultWarning, match=repair):
        runner.run_grid(configs, toy_run, n_jobs=1, progress=False)
    assert path.read_bytes() != original  # the recomputed run went apart
    for _ in range(2):  # every later job names it again, though it loads the sound run apart
        runner.reset_run_counts()
        with pytest.warns(store.CorruptResultWarning, match=repair):
            runner.run_grid(configs, toy_run, n_jobs=1, progress=False)
        counts = runner.run_counts()
        assert (counts["loaded"], counts["computed"]) == (2, 0)
        assert [entry.split(":")[0] for entry in counts["corrupt"]] == [store.run_key(configs[0])]
    with pytest.warns(store.CorruptResultWarning, match=repair):
        assert store.cached_run(configs[0]) is not None
    path.write_bytes(original)  # restored, as by git checkout
    runner.reset_run_counts()
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        runner.run_grid(configs, toy_run, n_jobs=1, progress=False)
    assert runner.run_counts()["corrupt"] == []


def test_new_runs_of_an_unpublished_configuration_go_to_the_scratch_cache_and_cached_ones_are_reused(
        tmp_path, monkeypatch):
    cache, scratch = tmp_path / "cache", tmp_path / "output" / "results"
    _record_cache_kernels(cache, store.process_versions()["kernels"])
    monkeypatch.setenv("BO_RESULTS_ROOT", str(cache))
    monkeypatch.setenv("BO_OUTPUT_ROOT", str(tmp_path / "output"))
    runner.run_grid(grid(n_seeds=2), toy_run, n_jobs=1, progress=False)  # the published grid
    monkeypatch.setenv("BO_SCRATCH_RUNS", "1")  # an override: one more seed
    runner.reset_run_counts()
    runner.run_grid(grid(n_seeds=3), toy_run, n_jobs=1, progress=False)
    assert (runner.run_counts()["loaded"], runner.run_counts()["computed"]) == (2, 1)
    assert len(list((cache / "toy").glob("*.npz"))) == 2
    assert [path.stem for path in (scratch / "toy").glob("*.npz")] == [store.run_key(toy_config(2))]
    runner.reset_run_counts()
    runner.run_grid(grid(n_seeds=3), toy_run, n_jobs=1, progress=False)
    assert (runner.run_counts()["loaded"], runner.run_counts()["computed"]) == (3, 0)
    # A published grid never reads the scratch cache; publishing fills the cache whatever the configuration.
    monkeypatch.delenv("BO_SCRATCH_RUNS")
    assert store.cached_run(toy_config(2)) is None
    monkeypatch.setenv("BO_SCRATCH_RUNS", "1")
    monkeypatch.setenv(paths.PUBLISH_VARIABLE, "1")
    runner.run_grid(grid(n_seeds=3), toy_run, n_jobs=1, progress=False)
    assert len(list((cache / "toy").glob("*.npz"))) == 3


def test_dask_workers_with_different_kernels_are_refused_naming_each():
    class Client:
        def run(self, function):
            return {"tcp://10.0.0.5:4000": "SkylakeX", "tcp://10.0.0.6:4000": "Haswell"}

    with pytest.raises(runner.MixedKernelsError, match="tcp://10.0.0.6:4000: Haswell"):
        runner.worker_kernels(Client())


def test_every_single_byte_corruption_of_a_run_file_reads_as_corrupt_never_as_an_exception(tmp_path):
    config = toy_config(0)
    path = store.save_run(config, toy_run(config), 0.1, code_version=1).path
    original, expected = path.read_bytes(), store.read_run(path).result
    for index in range(len(original)):
        damaged = bytearray(original)
        damaged[index] ^= 0xFF
        path.write_bytes(bytes(damaged))
        run, state, reason = store.lookup(config, 1)  # raises nothing, whatever the byte
        # A byte of the zip's bookkeeping that numpy never reads (a time stamp, say) leaves the checksummed data whole.
        assert state == "corrupt" and str(path) in reason or state == "ok" and all(
            np.array_equal(run.result[name], value) for name, value in expected.items()), index
