"""Records of stored runs: what a run file or a pack says of each run without its arrays (configuration, code
version, cost), enough to count and price a grid's runs quickly (``reproduce.py --list``, the runner's estimates).

:func:`common.store.scan` reads the runs themselves; these functions read only their configurations and metadata.
"""
import hashlib
import json
import os
import tempfile
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from common import paths, store


@dataclass(frozen=True)
class RunRecord:
    """What a run file says of itself without its arrays: enough to price and count runs (:func:`scan_records`).

    Attributes
    ----------
    key : str
    config : dict
    code_version : int
    cost_seconds : float
        CPU seconds, or wall seconds where CPU time was not recorded.
    path : pathlib.Path
    """

    key: str
    config: dict
    code_version: int
    cost_seconds: float
    path: Path


def read_record(path):
    """The :class:`RunRecord` of one run file (its configuration and metadata, not its arrays).

    Raises
    ------
    FileNotFoundError
        If there is no such file.
    store._Corrupt
        If its configuration or metadata cannot be read.
    """
    path = Path(path)
    try:
        with np.load(path, allow_pickle=False) as npz:
            config, meta = json.loads(str(npz[store._CONFIG_ENTRY])), json.loads(str(npz[store._META_ENTRY]))
        cpu_seconds = meta["cpu_seconds"]
        return RunRecord(key=meta["key"], config=config, code_version=meta["code_version"],
                         cost_seconds=float(meta["wall_time"] if cpu_seconds is None else cpu_seconds), path=path)
    except FileNotFoundError:
        raise
    except Exception as exc:  # whatever a damaged file raises, as in read_run
        raise store._Corrupt(f"unreadable ({type(exc).__name__}: {exc})") from exc


def record_of(config, code_version=None, kernels=None):
    """The :class:`RunRecord` of the stored run of ``config`` (looked for where :func:`lookup` looks), or None if
    there is none, it is unreadable or (with ``code_version``) another version computed it. Reads that run's file
    only."""
    kernels = store.process_versions()["kernels"] if kernels is None else kernels
    key = store.run_key(config)
    for record in _pack_records(paths.results_dir(config["paper"]), key):
        if code_version is None or record.code_version == code_version:
            return record
    for path in dict.fromkeys([store.run_path(config), store.run_path(config, kernels)]):
        try:
            record = read_record(path)
        except (FileNotFoundError, store._Corrupt):
            continue
        if code_version is None or record.code_version == code_version:
            return record
    return None


def _pack_records(paper_folder, key=None):
    """The :class:`RunRecord` of every run (or of run ``key`` only) in the packs of a paper's folder, from their
    headers; an unreadable pack is warned of and skipped."""
    records = []
    for path in store.pack_paths(paper_folder):
        try:
            header = store._pack_header(path, store._stamp(path))
        except Exception as exc:  # whatever a damaged pack raises, as in _read_packed
            store._warn_corrupt(store._pack_problem(path, exc))
            continue
        for entry in header.values() if key is None else [header[key]] if key in header else []:
            meta = json.loads(entry["meta"])
            cpu_seconds = meta["cpu_seconds"]
            records.append(RunRecord(key=entry["key"], config=json.loads(entry["config"]),
                                     code_version=meta["code_version"], path=path,
                                     cost_seconds=float(meta["wall_time"] if cpu_seconds is None else cpu_seconds)))
    return records


def _records_cache_path(folder):
    name = hashlib.sha256(str(folder).encode()).hexdigest()[:16]
    return paths.output_root() / "cache" / "run-records" / f"{folder.name}-{name}.json"


def _cached_records(folder):
    """The records of a folder's run files by file name, reusing those of ``output/cache/run-records/`` (not
    tracked) whose file has not changed size or modification time since, and saving them back."""
    cache_path = _records_cache_path(folder)
    try:
        cached = json.loads(cache_path.read_text())
    except (OSError, ValueError):
        cached = {}
    records, entries = [], {}
    for entry in sorted(os.scandir(folder) if folder.is_dir() else [], key=lambda entry: entry.name):
        if not entry.name.endswith(".npz") or not entry.is_file():
            continue
        stat = entry.stat()
        stamp = [stat.st_size, stat.st_mtime_ns]
        known = cached.get(entry.name)
        if known is not None and known["stamp"] == stamp:
            record = RunRecord(path=Path(entry.path), **known["record"])
        else:
            try:
                record = read_record(entry.path)
            except store._Corrupt as exc:
                store._warn_corrupt(f"{entry.path}: {exc}")
                continue
        records.append(record)
        entries[entry.name] = {"stamp": stamp, "record": {"key": record.key, "config": record.config,
                                                          "code_version": record.code_version,
                                                          "cost_seconds": record.cost_seconds}}
    if entries != cached:
        try:
            cache_path.parent.mkdir(parents=True, exist_ok=True)
            with tempfile.NamedTemporaryFile("w", dir=cache_path.parent, suffix=".tmp", delete=False) as file:
                json.dump(entries, file)
            os.replace(file.name, cache_path)
        except OSError:
            pass  # a read-only output folder only costs the next scan its speed
    return records


def scan_records(paper_key, kernels=None, *, reuse=False):
    """:class:`RunRecord` of every stored run of a paper, its packed runs first (sorted by key), then its run files
    (sorted by path; a run in a pack and a file counts once, as packed): configuration and metadata only.

    With ``kernels``, the runs computed apart under those kernels (:func:`store.results_root_for`) count too.

    Much faster than :func:`scan`, which decompresses and checksums every array; so a file whose arrays are
    damaged still counts here, and is found (and recomputed) when it is loaded. A file whose configuration or
    metadata cannot be read is skipped with a :class:`CorruptResultWarning`. With ``reuse``, the records of
    unchanged files come from a cache in ``output/`` (about 0.75 ms a file otherwise; ``reproduce.py``'s tables).
    """
    folders = dict.fromkeys([paths.results_dir(paper_key)] + (
        [] if kernels is None else [store.results_root_for(kernels) / paper_key]))
    packed = sorted(_pack_records(paths.results_dir(paper_key)), key=lambda record: record.key)
    if reuse:
        loose = sorted((record for folder in folders for record in _cached_records(folder)),
                       key=lambda record: record.path)
    else:
        loose = []
        for path in sorted(path for folder in folders for path in folder.glob("*.npz")):
            try:
                loose.append(read_record(path))
            except store._Corrupt as exc:
                store._warn_corrupt(f"{path}: {exc}")
    in_packs = {record.key for record in packed}
    return packed + [record for record in loose if record.key not in in_packs]
