"""Packs of runs: what a pack holds reads back as its run files held it, and the store finds runs in packs."""
import numpy as np
import pandas as pd
import pytest
from toy_runs import toy_config, toy_run

from common import pack_runs, run_packs, run_records, runner, store


@pytest.fixture(autouse=True)
def empty_store(tmp_path, monkeypatch):
    monkeypatch.setenv("BO_RESULTS_ROOT", str(tmp_path / "results"))
    runner.reset_run_counts()


def grid(n_seeds=3, experiment="noise"):
    return [{**toy_config(seed, method=method), "experiment": experiment}
            for method in ("a", "b") for seed in range(n_seeds)]


def computed(configs):
    return runner.run_grid(configs, toy_run, n_jobs=1, progress=False)


def deterministic(table):
    return table.drop(columns=["run_seconds", "run_cpu_seconds"])


def test_a_pack_gives_back_every_array_with_its_dtype_shape_and_bytes(tmp_path):
    arrays = {"X": np.arange(6.0).reshape(2, 3), "flag": np.array([True, False]), "label": np.asarray("method a"),
              "count": np.asarray(7), "empty": np.zeros((0, 4)), "names": np.array(["ab", "c"])}
    run_packs.write_pack(tmp_path / "p.npz", [("k", "{}", "{}", "sum", arrays)])
    ((key, config_json, meta_json, checksum, back),) = run_packs.read_pack(tmp_path / "p.npz")
    assert (key, config_json, meta_json, checksum) == ("k", "{}", "{}", "sum")
    for name, array in arrays.items():
        assert (back[name].dtype, back[name].shape, back[name].tobytes()) == (array.dtype, array.shape,
                                                                             array.tobytes()), name


def test_a_pack_is_never_rewritten(tmp_path):
    run_packs.write_pack(tmp_path / "p.npz", [])
    with pytest.raises(FileExistsError, match="never rewritten"):
        run_packs.write_pack(tmp_path / "p.npz", [])


def test_packing_moves_every_run_file_into_one_pack_per_block_and_the_grid_loads_the_same():
    configs = grid(experiment="first") + grid(experiment="second")
    before = computed(configs)
    folder = store.run_path(configs[0]).parent
    summary = pack_runs.pack_paper("toy", out=None)
    assert summary["packed"] == len(configs) and not list(folder.glob("*.npz"))
    assert [path.name for path in store.pack_paths(folder)] == ["first-001.npz", "second-001.npz"]
    runner.reset_run_counts()
    after = computed(configs)
    assert runner.run_counts()["loaded"] == len(configs) and runner.run_counts()["computed"] == 0
    pd.testing.assert_frame_equal(deterministic(before), deterministic(after), check_exact=True)
    assert before["run_seconds"].equals(after["run_seconds"])  # the metadata too, not only the arrays


def test_new_runs_are_written_as_run_files_and_packed_into_a_new_pack_beside_the_old():
    computed(grid(n_seeds=2))
    pack_runs.pack_paper("toy", out=None)
    folder = store.run_path(grid()[0]).parent
    first = (folder / "packs" / "noise-001.npz").read_bytes()
    computed(grid(n_seeds=3))
    assert len(list(folder.glob("*.npz"))) == 2  # the two runs of the third seed
    pack_runs.pack_paper("toy", out=None)
    assert [path.name for path in store.pack_paths(folder)] == ["noise-001.npz", "noise-002.npz"]
    assert (folder / "packs" / "noise-001.npz").read_bytes() == first
    assert len(store.scan("toy")) == 6 and not list(folder.glob("*.npz"))


def test_scan_and_records_count_a_packed_run_once_with_its_cost():
    configs = grid()
    computed(configs)
    costs = {run.key: run.cost_seconds for run in store.scan("toy")}
    pack_runs.pack_paper("toy", out=None)
    assert {run.key: run.cost_seconds for run in store.scan("toy")} == costs
    assert {record.key: record.cost_seconds for record in run_records.scan_records("toy")} == costs
    assert run_records.record_of(configs[0], code_version=1).key == store.run_key(configs[0])
    assert run_records.record_of(configs[0], code_version=2) is None


def test_a_damaged_pack_is_named_with_its_repair_and_its_runs_recomputed():
    configs = grid(n_seeds=2)
    original = computed(configs)
    pack_runs.pack_paper("toy", out=None)
    (pack,) = store.pack_paths(store.run_path(configs[0]).parent)
    pack.write_bytes(pack.read_bytes()[: pack.stat().st_size // 2])
    runner.reset_run_counts()
    with pytest.warns(store.CorruptResultWarning, match="git checkout"):
        repaired = computed(configs)
    assert runner.run_counts()["computed"] == len(configs)
    pd.testing.assert_frame_equal(deterministic(original), deterministic(repaired), check_exact=True)


def test_an_interrupt_while_a_pack_is_read_stops_the_job_instead_of_counting_the_pack_as_damaged(monkeypatch):
    import reproduce  # its Interrupted is what SIGTERM raises in a job

    configs = grid(n_seeds=1)
    computed(configs)
    pack_runs.pack_paper("toy", out=None)

    def interrupted(*args, **kwargs):
        raise reproduce.Interrupted("SIGTERM")

    monkeypatch.setattr(run_packs, "read_header", interrupted)
    with pytest.raises(reproduce.Interrupted):
        store.lookup(configs[0])


def test_a_tampered_run_in_a_pack_fails_its_checksum_and_only_it_is_recomputed(tmp_path):
    configs = grid(n_seeds=2)
    computed(configs)
    pack_runs.pack_paper("toy", out=None)
    (pack,) = store.pack_paths(store.run_path(configs[0]).parent)
    runs = run_packs.read_pack(pack)
    key, config_json, meta_json, checksum, arrays = runs[0]
    arrays = {**arrays, "y": arrays["y"] + 1.0}
    pack.unlink()
    run_packs.write_pack(pack, [(key, config_json, meta_json, checksum, arrays), *runs[1:]])
    runner.reset_run_counts()
    with pytest.warns(store.CorruptResultWarning, match="checksum"):
        computed(configs)
    counts = runner.run_counts()
    assert (counts["loaded"], counts["computed"]) == (len(configs) - 1, 1)
    assert [entry.split(":")[0] for entry in counts["corrupt"]] == [key]


def test_a_packed_run_of_another_code_version_is_stale_and_recomputed_as_a_run_file(monkeypatch):
    import toy_runs
    configs = grid(n_seeds=1)
    computed(configs)
    pack_runs.pack_paper("toy", out=None)
    monkeypatch.setattr(toy_runs, "CODE_VERSION", 2)
    runner.reset_run_counts()
    with pytest.warns(store.StaleResultWarning, match="code version 1"):
        computed(configs)
    assert runner.run_counts()["computed"] == len(configs)
    assert len(list(store.run_path(configs[0]).parent.glob("*.npz"))) == len(configs)


def test_a_damaged_run_file_is_left_unpacked_and_named(capsys):
    configs = grid(n_seeds=1)
    computed(configs)
    damaged = store.run_path(configs[0])
    damaged.write_bytes(b"not a run")
    summary = pack_runs.pack_paper("toy")
    assert summary["packed"] == len(configs) - 1 and damaged.exists()
    assert str(damaged) in capsys.readouterr().out


def test_the_command_names_an_unknown_paper(capsys):
    with pytest.raises(SystemExit) as exit_info:
        pack_runs.main(["no_such_paper"])
    assert exit_info.value.code == 2 and "PAPER" in capsys.readouterr().err


LOOKUP = """
import sys
import common  # installs the logging hook
from common import store
from toy_runs import toy_config
store.lookup(toy_config(int(sys.argv[1])), 1)
"""


@pytest.mark.parametrize("packed", [False, True])
def test_a_look_up_logs_the_folder_of_packs_even_absent_and_the_pack_it_reads(packed, tmp_path):
    import os
    import subprocess
    import sys
    from pathlib import Path

    from common import paths, provenance
    computed([toy_config(0)])
    if packed:
        pack_runs.pack_paper("toy", out=None)
    log = tmp_path / "log" / "reads.log"  # apart from the cache: the log's own folder is never an input
    log.parent.mkdir()
    environment = {**os.environ, provenance.READ_LOG_VARIABLE: str(log),
                   "PYTHONPATH": os.pathsep.join([str(Path(__file__).parent), os.environ.get("PYTHONPATH", "")])}
    subprocess.run([sys.executable, "-c", LOOKUP, "0"], env=environment, check=True, cwd=tmp_path)
    logged = provenance.read_log(log)
    folder = paths.results_dir("toy")
    assert provenance._shown(f"{folder / 'packs'}/") in logged  # packs appearing there later are a change
    if packed:
        assert provenance._shown(folder / "packs" / "noise-001.npz") in logged
    else:
        assert provenance._shown(store.run_path(toy_config(0))) in logged
