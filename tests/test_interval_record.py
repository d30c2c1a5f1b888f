"""The record of refined bootstrap intervals: what it returns is what the code computes, and nothing else."""
import json
import os

import numpy as np
import pytest

from common import bootstrap_tail, interval_record, paths, provenance, stats

COMMITTED = sorted((paths.repo_root() / "figures").glob(f"*/{paths.INTERVAL_RECORD_NAME}"))
#: A paper key without a committed record, so that a test's record holds only what the test computed.
KEY = "toy"


@pytest.fixture
def figures_root(tmp_path, monkeypatch):
    monkeypatch.setenv(paths.FIGURES_ROOT_VARIABLE, str(tmp_path))
    yield tmp_path
    interval_record.stop()


def refined(a, b):
    a, b = np.asarray(a, dtype=float), np.asarray(b, dtype=float)
    return stats._refined_effect(a.tobytes(), b.tobytes(), "ratio", float(a.mean() / b.mean()), stats.N_REFINED,
                                 stats.BOOTSTRAP_SEED)


def values(seed):
    rng = np.random.default_rng(seed)
    return rng.uniform(0.5, 1.5, 12), rng.uniform(0.6, 1.6, 12)


def flat(outputs):
    """An entry's outputs (an interval's ends and errors, a curve's list of them, or an exact tail's two
    probabilities) as one array of floats."""
    if len(outputs) == 2:
        return np.array(outputs, dtype=float)
    if isinstance(outputs[0], list):
        return np.concatenate([flat(interval) for interval in outputs])
    low, high, errors = outputs
    return np.array([low, high, *errors], dtype=float)


def recompute(entry):
    """An entry's outputs computed again from its inputs."""
    inputs = entry["inputs"]
    if entry["kind"] == "exact_tail":
        d = interval_record.decoded(inputs["d"])
        values, counts = np.unique(d, return_counts=True)
        return list(bootstrap_tail._enumerated_tail(values, counts, d.size))
    a, b = interval_record.decoded(inputs["a"]), interval_record.decoded(inputs["b"])
    if entry["kind"] == "paired":
        effect = stats._resampled_effect(a, b, inputs["scale"], inputs["estimate"], inputs["n_resamples"],
                                         inputs["seed"])
        return [effect.low, effect.high, list(effect.errors)]
    shape = tuple(inputs["shape"])
    ends = stats._drawn_shared_ends(a.reshape(shape), b.reshape(shape), inputs["scale"], inputs["n_resamples"],
                                    inputs["seed"], inputs["summed_at_once"])
    return [[low, high, list(errors)] for low, high, errors in ends]


def test_a_saved_interval_is_read_back_in_the_next_execution(figures_root):
    interval_record.use(KEY)
    computed = refined(*values(1))
    path = interval_record.save()
    assert path == figures_root / KEY / paths.INTERVAL_RECORD_NAME
    (key, entry), = interval_record.read(path).items()
    entry["outputs"][0] = -1.0   # a value only the record can give, to see that it was read
    interval_record.write(path, {key: entry})
    stats._refined_effect.cache_clear()   # the next execution: a new process
    interval_record.use(KEY)
    assert refined(*values(1)).low == -1.0
    assert refined(*values(1)).high == computed.high


def test_a_curves_intervals_are_read_back_as_computed(figures_root):
    rng = np.random.default_rng(5)
    a, b = rng.uniform(0.5, 1.5, (10, 3)), rng.uniform(0.6, 1.6, (10, 3))
    interval_record.use(KEY)
    arguments = (a.tobytes(), b.tobytes(), a.shape, "ratio", stats.N_REFINED, stats.BOOTSTRAP_SEED, 4096)
    computed = stats._shared_draw_ends(*arguments)
    interval_record.save()
    stats._shared_draw_ends.cache_clear()
    interval_record.use(KEY)
    assert stats._shared_draw_ends(*arguments) == computed


def test_an_exact_tail_is_read_back_in_the_next_execution(figures_root):
    d = np.repeat([-2.0, -1.0, 0.0, 1.0, 3.0], [3, 2, 4, 2, 1])
    interval_record.use(KEY)
    computed = bootstrap_tail.sum_tail(d)
    path = interval_record.save()
    (key, entry), = interval_record.read(path).items()
    assert entry["kind"] == "exact_tail" and tuple(entry["outputs"]) == computed
    entry["outputs"][0] = -1.0   # a value only the record can give, to see that it was read
    interval_record.write(path, {key: entry})
    bootstrap_tail._sum_tail.cache_clear()   # the next execution: a new process
    interval_record.use(KEY)
    assert bootstrap_tail.sum_tail(d) == (-1.0, computed[1])
    bootstrap_tail._sum_tail.cache_clear()


def test_an_input_one_bit_away_is_not_read_from_the_record(figures_root):
    interval_record.use(KEY)
    a, b = values(2)
    refined(a, b)
    interval_record.save()
    (_, entry), = interval_record.read(paths.interval_record_path(KEY)).items()
    nudged = a.copy()
    nudged[0] = np.nextafter(nudged[0], 2.0)
    interval_record.use(KEY)
    assert interval_record.recorded("paired", entry["inputs"]) == entry["outputs"]
    assert interval_record.recorded("paired", {**entry["inputs"], "a": interval_record.encoded(nudged)}) is None
    assert interval_record.recorded("curves", entry["inputs"]) is None


def test_a_record_made_by_other_code_or_numpy_is_ignored(figures_root):
    interval_record.use(KEY)
    refined(*values(3))
    path = interval_record.save()
    record = json.loads(path.read_text())
    record["fingerprint"]["code"] = "0" * 16
    path.write_text(json.dumps(record))
    assert interval_record.read(path) == {}


def test_a_damaged_record_is_ignored_with_a_warning(figures_root):
    path = paths.interval_record_path(KEY)
    path.parent.mkdir(parents=True)
    path.write_text('{"fingerprint": {')
    with pytest.warns(UserWarning, match="cannot be read"):
        assert interval_record.read(path) == {}


def test_nothing_is_written_without_a_record_in_use(figures_root):
    interval_record.stop()
    refined(*values(4))
    assert interval_record.save() is None
    assert not any(figures_root.iterdir())


def test_the_record_is_not_an_input_of_the_outputs(tmp_path):
    # With or without the record the outputs are the same bytes: reading it must not make a notebook stale.
    path = str(paths.interval_record_path("egp_ts", paths.repo_root() / "figures"))
    roots = (str(paths.repo_root()) + os.sep,)
    assert not provenance._is_input(path, roots, ignored=(str(tmp_path),))
    assert provenance._is_input(path.replace(paths.INTERVAL_RECORD_NAME, "verdicts.csv"), roots, ignored=())


def input_size(entry):
    """The length of an entry's first encoded input: its cost grows with it."""
    return len(entry["inputs"].get("a", entry["inputs"].get("d")))


def committed_record(path):
    record = json.loads(path.read_text())
    current = interval_record.fingerprint()
    assert {name: record["fingerprint"][name] for name in ("code", "numpy")} == {
        name: current[name] for name in ("code", "numpy")}, (
        f"{path} was made by other code: run 'python reproduce.py' and commit what it writes")
    return record


def assert_recomputes(entry, fingerprint):
    recorded, found = flat(entry["outputs"]), flat(recompute(entry))
    if fingerprint == interval_record.fingerprint():
        np.testing.assert_array_equal(found, recorded)
    else:   # numpy's loops of another SIMD target may round the resampled means their own way
        np.testing.assert_allclose(found, recorded, rtol=1e-9)


@pytest.mark.parametrize("path", COMMITTED, ids=lambda path: path.parent.name)
def test_a_committed_record_is_current_and_its_intervals_recompute_bit_for_bit(path):
    record = committed_record(path)
    # The cheapest entry of each kind on N_REFINED resamples (those on N_PRECISE take seconds: the next test).
    cheapest = {}
    for entry in sorted(record["entries"], key=input_size):
        if entry["kind"] == "exact_tail" or entry["inputs"]["n_resamples"] == stats.N_REFINED:
            cheapest.setdefault(entry["kind"], entry)
    assert cheapest, f"{path} holds no interval on {stats.N_REFINED} resamples"
    for entry in cheapest.values():
        assert_recomputes(entry, record["fingerprint"])


def test_the_cheapest_precise_interval_on_record_recomputes_bit_for_bit():
    found = [(len(entry["inputs"]["a"]), str(path), entry, record["fingerprint"])
             for path in COMMITTED for record in [committed_record(path)] for entry in record["entries"]
             if entry["inputs"].get("n_resamples") == stats.N_PRECISE]
    assert found, f"no record holds an interval on {stats.N_PRECISE} resamples"
    _, _, entry, fingerprint = min(found, key=lambda item: item[:2])
    assert_recomputes(entry, fingerprint)
