"""The result store: one plain data file per run, keyed by the run's configuration.

A *configuration* is a plain-data dict (str, int, float, bool, None, lists and
dicts of those) that holds everything that determines a run; it includes at
least ``"paper"`` (the paper key, which names the folder), ``"experiment"`` and
``"seed"``. Its key is a readable prefix followed by :func:`~common.seeding.stable_hash`
of the whole configuration, e.g. ``regret_branin_ucb_s3_1f0c2a9b8d7e6f50``.

A *result* is the dict ``{name: value}`` a run function returns, values being
numpy arrays (numeric, bool or str), Python/numpy scalars or strings. The
one-dimensional arrays of the greatest length are the run's *traces*, one value
per evaluation (``y``, ``best_so_far``, ``regret``, ...) and become the rows of
the tidy table; zero-dimensional values become columns of it; everything else
(e.g. the queries ``X`` of shape ``(n, d)``) is kept in the file and returned by
:func:`load_run`.

Each result is one ``.npz`` file in ``data/results/<paper>/`` holding the
result arrays (prefixed ``r.``), the configuration and metadata as JSON text
(wall and CPU seconds, the code version of the run function's module, creation
time, library and numpy versions, trace names) and a SHA-256 checksum over all
of it. Files are written to a temporary file in
the same folder and moved into place with :func:`os.replace`, so a file is
either complete or absent. A file that cannot be read, lacks a field, fails its
checksum or holds another configuration is reported with a
:class:`CorruptResultWarning` and treated as missing; it is never loaded.

Every run records the numeric environment of the process that computed it (on Dask,
the worker's): its OpenBLAS kernels, numpy's and scipy's versions. A cache may carry a
record, ``numeric_environment.json``, of the kernels its runs were computed with
(``data/results`` has one); a run computed under other kernels rounds differently in
the last bits, so it is saved apart, in ``output/results-by-kernels/<kernels>/``
(:func:`common.paths.kernel_results_root`), and read back from there by processes that
compute with the same kernels. The record also completes the files written before runs
recorded their kernels. Runs of a configuration other than the published one and the paper
scale (:data:`common.paths.SCRATCH_VARIABLE`) never enter a cache with a record either: they go
to the scratch cache ``output/results/``; look-ups still find the runs of the cache first.

A paper's folder may also hold *packs* (:mod:`common.run_packs`, in its ``packs/`` folder): many runs in one
file, each with the same arrays, JSON texts and checksum as its run file had, so that a grid loads in one read.
Look-ups find a run in a pack before its run file; new runs are always written as run files, and
``python -m common.pack_runs`` moves them into a new pack.

A corrupt file that a recomputed run does not replace (one in the cache, while the run goes
apart) is named, with how to repair it, by every look-up until it is restored or deleted.

A run is *stale* when it was computed by another version of its code: the
experiment module that holds a run function declares ``CODE_VERSION`` (an int),
raised whenever a change alters the numbers its runs produce (the spot-check
test, which recomputes stored runs bit for bit, fails until it is). A stale
file is reported with a :class:`StaleResultWarning` and recomputed.
"""
import datetime
import functools
import hashlib
import json
import os
import platform
import re
import tomllib
import warnings
from dataclasses import dataclass
from pathlib import Path

import numpy as np
import pandas as pd
import scipy

from common import _threads, npz_files, paths, run_packs
from common.seeding import canonical_json

FORMAT_VERSION = 2
REQUIRED_FIELDS = ("paper", "experiment", "seed")
# Columns the tidy table adds itself; neither configurations nor results may use them.
RESERVED_NAMES = ("run_key", "eval", "run_seconds", "run_cpu_seconds")
_KEY_PREFIX_FIELDS = ("experiment", "problem", "method")
_ARRAY_PREFIX = "r."
_CONFIG_ENTRY, _META_ENTRY, _CHECKSUM_ENTRY = "__config__", "__meta__", "__checksum__"
#: The record of a cache's numeric environment, in its root folder (see the module docstring).
NUMERIC_RECORD = "numeric_environment.json"
_ALLOWED_KINDS = {"b": "bool", "i": "int", "u": "unsigned int", "f": "float", "U": "str"}


class CorruptResultWarning(UserWarning):
    """A stored result file is unreadable or inconsistent; the run counts as missing."""


class StaleResultWarning(UserWarning):
    """A stored result was computed by another code version of its run function; it counts as missing."""


class _Corrupt(Exception):
    """Internal: why a stored file cannot be trusted."""


class _Stale(Exception):
    """Internal: the stored file is sound but was computed by another code version."""


@dataclass(frozen=True)
class StoredRun:
    """One run as read back from its file.

    Attributes
    ----------
    key : str
        The run key (also the file name without ``.npz``).
    config : dict
        The run's configuration.
    result : dict
        ``{name: ndarray | float | int | bool | str}`` as returned by the run function
        (zero-dimensional arrays come back as Python scalars).
    traces : tuple of str
        Names of the per-evaluation arrays (the rows of the tidy table).
    wall_time : float
        Seconds the run took, measured by the runner.
    cpu_seconds : float or None
        CPU seconds (process time) of the run, which a busy machine does not
        inflate; None for runs stored before it was recorded.
    code_version : int
        ``CODE_VERSION`` of the run function's module when the run was computed.
    created : str
        UTC time stamp (ISO 8601) of the computation.
    versions : dict
        Versions of this library, numpy and Python that computed it.
    path : pathlib.Path
    """

    key: str
    config: dict
    result: dict
    traces: tuple
    wall_time: float
    cpu_seconds: object
    code_version: int
    created: str
    versions: dict
    path: Path

    @property
    def kernels(self):
        """The OpenBLAS kernels that computed the run (e.g. ``"SkylakeX"``)."""
        return self.versions["kernels"]

    @property
    def cost_seconds(self):
        """CPU seconds of the run, or its wall seconds where CPU time was not recorded."""
        return self.wall_time if self.cpu_seconds is None else self.cpu_seconds

    @property
    def n_evals(self):
        """Length of the traces (0 if the run has none)."""
        return len(self.result[self.traces[0]]) if self.traces else 0


def validate_config(config, serialized=False):
    """Check that ``config`` is a valid run configuration and return it (with ``serialized``, its canonical JSON
    text instead, :func:`common.seeding.canonical_json`).

    Raises
    ------
    TypeError
        If it is not a dict with string keys of plain data.
    ValueError
        If a required field is missing or invalid, or a reserved name is used.
    """
    if not isinstance(config, dict):
        raise TypeError(f"a run configuration must be a dict; got {type(config).__name__}: {config!r}")
    bad_names = [name for name in config if not isinstance(name, str)]
    if bad_names:
        raise TypeError(f"configuration keys must be str; got {bad_names!r} in {config!r}")
    missing = [name for name in REQUIRED_FIELDS if name not in config]
    if missing:
        raise ValueError(
            f"run configuration lacks required field(s) {missing}; every configuration needs "
            f"{list(REQUIRED_FIELDS)}; got {config!r}"
        )
    reserved = [name for name in config if name in RESERVED_NAMES]
    if reserved:
        raise ValueError(f"configuration field(s) {reserved} are reserved for the result table; rename them")
    paths.check_paper_key(config["paper"])
    if not isinstance(config["experiment"], str) or not config["experiment"]:
        raise ValueError(f"config['experiment'] must be a non-empty str; got {config['experiment']!r}")
    seed = config["seed"]
    if isinstance(seed, bool) or not isinstance(seed, int) or seed < 0:
        raise ValueError(f"config['seed'] must be an int >= 0; got {seed!r}")
    config_json = canonical_json(config)  # raises TypeError naming any value that is not plain data
    return config_json if serialized else config


def run_key(config):
    """Key of a run: readable prefix (experiment, problem, method, seed) + hash of the whole config."""
    return keyed(config)[0]


def keyed(config):
    """The run key of ``config`` (:func:`run_key`) and its canonical JSON text, serialized once: give them to
    :func:`lookup` as ``serialized`` where a grid already computed them."""
    config_json = validate_config(config, serialized=True)
    parts = [str(config[name]) for name in _KEY_PREFIX_FIELDS if isinstance(config.get(name), (str, int))]
    parts.append(f"s{config['seed']}")
    prefix = "_".join(re.sub(r"[^A-Za-z0-9.-]+", "-", part)[:32] for part in parts)
    return f"{prefix}_{hashlib.sha256(config_json.encode()).hexdigest()[:16]}", config_json


def cache_kernels(root=None):
    """The kernels the runs of a cache were computed with, as its record :data:`NUMERIC_RECORD` states.

    Parameters
    ----------
    root : path, optional
        The cache's root folder (default: :func:`common.paths.results_root`).

    Returns
    -------
    str or None
        None for a cache without a record (a scratch cache, e.g. of smoke runs): runs of any kernels enter it.
    """
    record = numeric_record(root)
    return None if record is None else record["kernels"]


def numeric_record(root=None):
    """The record :data:`NUMERIC_RECORD` of a cache as a dict, or None where it has none (see :func:`cache_kernels`)."""
    path = _record_path(paths.results_root() if root is None else Path(root))
    try:
        record = _parsed_record(path, path.stat().st_mtime_ns)
    except FileNotFoundError:
        return None
    except (OSError, ValueError) as exc:
        raise ValueError(f"the cache's record {path} is unreadable ({exc}); restore it with `git checkout -- {path}`")
    if not isinstance(record, dict) or not isinstance(record.get("kernels"), str):
        raise ValueError(f"the cache's record {path} must be a JSON object with a 'kernels' name; restore it with "
                         f"`git checkout -- {path}`")
    return dict(record)


@functools.lru_cache(maxsize=16)
def _record_path(root):
    return root / NUMERIC_RECORD


@functools.lru_cache(maxsize=16)
def _parsed_record(path, modified):
    # Read once per version of the file: every run written before runs recorded their kernels asks for it.
    return json.loads(path.read_text())


def results_root_for(kernels):
    """Root folder the runs computed under ``kernels`` are written to (and read back from, after the cache).

    The cache (:func:`common.paths.results_root`) where it has no record (a scratch cache itself) or runs are being
    published (:data:`common.paths.PUBLISH_VARIABLE`, each run file recording its own kernels); else
    :func:`common.paths.kernel_results_root` where its record names other kernels; else
    :func:`common.paths.scratch_results_root` for a configuration that is not to be published
    (:data:`common.paths.SCRATCH_VARIABLE`); else the cache.
    """
    root = paths.results_root()
    recorded = cache_kernels(root)
    if recorded is None or os.environ.get(paths.PUBLISH_VARIABLE) == "1":
        return root
    if kernels != recorded:
        return paths.kernel_results_root(kernels)
    return paths.scratch_results_root() if os.environ.get(paths.SCRATCH_VARIABLE) == "1" else root


def run_path(config, kernels=None, root=None):
    """Path of the file that holds (or will hold) the result of ``config``.

    Parameters
    ----------
    config : dict
    kernels : str, optional
        The kernels that compute the run (:func:`common._threads.kernel_name`); None: the cache itself.
    root : path, optional
        A cache of its own for the run, whatever its kernels (e.g. ``data/teaching``); None: as ``kernels`` says.
    """
    if root is None:
        root = paths.results_root() if kernels is None else results_root_for(kernels)
    return root / paths.check_paper_key(config["paper"]) / f"{run_key(config)}.npz"


def _result_arrays(result):
    if not isinstance(result, dict):
        raise TypeError(f"a run function must return a dict of results; got {type(result).__name__}")
    arrays = {}
    for name, value in result.items():
        if not isinstance(name, str) or not name.isidentifier() or name.startswith("__"):
            raise ValueError(f"result names must be identifiers not starting with '__'; got {name!r}")
        if name in RESERVED_NAMES:
            raise ValueError(f"result name {name!r} is reserved for the result table; allowed: any other identifier")
        if isinstance(value, (np.ndarray, np.generic, bool, int, float, str)):
            array = np.asarray(value)
        else:
            raise TypeError(
                f"result {name!r} must be a numpy array, a number or a str; got {type(value).__name__} "
                f"(convert lists with numpy.asarray)"
            )
        if array.dtype.kind not in _ALLOWED_KINDS:
            raise TypeError(
                f"result {name!r} has dtype {array.dtype}; allowed kinds: {', '.join(_ALLOWED_KINDS.values())}"
            )
        arrays[name] = np.asarray(array, order="C")
    return arrays


def _trace_names(arrays):
    lengths = {name: len(array) for name, array in arrays.items() if array.ndim == 1}
    if not lengths:
        return []
    n_evals = max(lengths.values())
    return [name for name, length in lengths.items() if length == n_evals]


def _checksum(config_json, meta_json, arrays):
    parts = [config_json.encode(), meta_json.encode()]
    for name in sorted(arrays):
        array = arrays[name]
        parts += f"|{name}|{array.dtype.str}|{array.shape}|".encode(), array.tobytes()
    return hashlib.sha256(b"".join(parts)).hexdigest()  # one call: a grid checks thousands of small runs


@functools.lru_cache(maxsize=1)
def process_versions():
    """The numeric environment of this process, as a run records it: the versions of this library, numpy, scipy
    and Python, the OpenBLAS libraries' kernels (``blas``) and their one name (``kernels``, what decides where a
    run computed here is cached; see the module docstring), and the SIMD target of numpy's loops (``numpy_simd``,
    :func:`common._threads.numpy_simd`)."""
    try:
        with open(paths.repo_root() / "pyproject.toml", "rb") as file:
            library = tomllib.load(file)["project"]["version"]
    except (OSError, KeyError, tomllib.TOMLDecodeError):
        library = "unknown"
    kernels = _threads.blas_kernels()
    blas = "; ".join(f"{name}: {kernel}" for name, kernel in sorted(kernels.items()))
    return {"library": library, "numpy": np.__version__, "scipy": scipy.__version__,
            "python": platform.python_version(), "blas": blas or "unknown", "kernels": _threads.kernel_name(kernels),
            "numpy_simd": _threads.numpy_simd()}


def _check_versions(versions):
    if not isinstance(versions, dict) or not isinstance(versions.get("kernels"), str) or not all(
            isinstance(name, str) and isinstance(value, str) for name, value in versions.items()):
        raise ValueError(f"versions must be a dict of str with a 'kernels' name, as common.store.process_versions() "
                         f"returns it in the process that computed the run; got {versions!r}")
    return dict(versions)


def _seconds(name, value):
    value = float(value)
    if not np.isfinite(value) or value < 0:
        raise ValueError(f"{name} must be a finite number of seconds >= 0; got {value!r}")
    return value


def check_code_version(code_version):
    """Return ``code_version`` if it is an int >= 1, else raise ValueError."""
    if isinstance(code_version, bool) or not isinstance(code_version, (int, np.integer)) or code_version < 1:
        raise ValueError(f"code_version must be an int >= 1 (the CODE_VERSION of the run function's module); "
                         f"got {code_version!r}")
    return int(code_version)


def save_run(config, result, wall_time, *, cpu_seconds=None, code_version, versions=None, root=None):
    """Write one run's result atomically and return it as read back from disk.

    The run goes to the cache, or apart where it was computed under other kernels than the cache's
    (:func:`results_root_for`).

    Parameters
    ----------
    config : dict
        The run configuration (see :func:`validate_config`).
    result : dict
        ``{name: ndarray | number | str}`` as returned by the run function.
    wall_time : float
        Seconds the run took.
    cpu_seconds : float, optional
        CPU seconds (process time) the run took; None if not measured.
    code_version : int
        ``CODE_VERSION`` of the run function's module.
    versions : dict, optional
        :func:`process_versions` of the process that computed the run (default: this one's).
    root : path, optional
        See :func:`run_path`.

    Returns
    -------
    StoredRun
    """
    validate_config(config)
    versions = process_versions() if versions is None else _check_versions(versions)
    arrays = _result_arrays(result)
    wall_time = _seconds("wall_time", wall_time)
    cpu_seconds = None if cpu_seconds is None else _seconds("cpu_seconds", cpu_seconds)
    code_version = check_code_version(code_version)
    key = run_key(config)
    config_json = canonical_json(config)
    meta_json = canonical_json({
        "format": FORMAT_VERSION,
        "key": key,
        "traces": _trace_names(arrays),
        "wall_time": wall_time,
        "cpu_seconds": cpu_seconds,
        "code_version": code_version,
        "created": datetime.datetime.now(datetime.timezone.utc).isoformat(timespec="seconds"),
        "versions": versions,
    })
    payload = {_ARRAY_PREFIX + name: array for name, array in arrays.items()}
    payload[_CONFIG_ENTRY] = np.asarray(config_json)
    payload[_META_ENTRY] = np.asarray(meta_json)
    payload[_CHECKSUM_ENTRY] = np.asarray(_checksum(config_json, meta_json, arrays))

    path = run_path(config, versions["kernels"], root)
    os.replace(npz_files.temporary_npz(path, payload), path)
    return read_run(path, expected_config=config, code_version=code_version)


def _as_value(array):
    return array.item() if array.ndim == 0 else array


def read_run(path, expected_config=None, code_version=None):
    """Read and verify one result file.

    Raises
    ------
    FileNotFoundError
        If there is no such file.
    _Corrupt
        If the file is unreadable, incomplete, fails its checksum or holds a
        configuration other than ``expected_config`` (whatever its bytes: no other exception escapes).
    _Stale
        If ``code_version`` is given and the run was computed by another one.
    """
    path = Path(path)
    try:
        return _read_verified(path, expected_config, code_version)
    except (FileNotFoundError, _Corrupt, _Stale):
        raise
    except Exception as exc:  # a damaged zip or header can raise almost anything in numpy's or zipfile's readers
        raise _Corrupt(f"unreadable ({type(exc).__name__}: {exc})") from exc


def _read_verified(path, expected_config, code_version):
    with np.load(path, allow_pickle=False) as npz:
        entries = {name: npz[name] for name in npz.files}
    missing = [name for name in (_CONFIG_ENTRY, _META_ENTRY, _CHECKSUM_ENTRY) if name not in entries]
    if missing:
        raise _Corrupt(f"missing field(s) {missing}")
    config_json = str(entries.pop(_CONFIG_ENTRY))
    meta_json = str(entries.pop(_META_ENTRY))
    stored_checksum = str(entries.pop(_CHECKSUM_ENTRY))
    if any(not name.startswith(_ARRAY_PREFIX) for name in entries):
        raise _Corrupt(f"unexpected entries {sorted(entries)}")
    arrays = {name[len(_ARRAY_PREFIX):]: array for name, array in entries.items()}
    return _verified_run(path.stem, config_json, meta_json, stored_checksum, arrays, path, path.parent.parent,
                         expected_config, code_version)


def _verified_run(key, config_json, meta_json, stored_checksum, arrays, path, cache_root, expected_config,
                  code_version):
    """The :class:`StoredRun` of a run's stored parts, read from ``path`` (its run file, or a pack) in the cache
    ``cache_root``, after checking them as :func:`read_run` says."""
    if _checksum(config_json, meta_json, arrays) != stored_checksum:
        raise _Corrupt("checksum mismatch")
    config, meta = json.loads(config_json), json.loads(meta_json)
    if meta.get("format") != FORMAT_VERSION:
        raise _Corrupt(f"format {meta.get('format')!r}, expected {FORMAT_VERSION}")
    if expected_config is not None and (expected_config if isinstance(expected_config, str)
                                        else canonical_json(expected_config)) != config_json:
        raise _Corrupt(f"holds another configuration: {config_json}")
    if meta["key"] != key:
        raise _Corrupt(f"holds run {meta['key']!r}, not {key!r}")
    if code_version is not None and meta["code_version"] != code_version:
        raise _Stale(f"computed by code version {meta['code_version']}, the code is at version {code_version}")
    return StoredRun(
        key=meta["key"],
        config=config,
        result={name: _as_value(array) for name, array in arrays.items()},
        traces=tuple(meta["traces"]),
        wall_time=float(meta["wall_time"]),
        cpu_seconds=meta["cpu_seconds"],
        code_version=meta["code_version"],
        created=meta["created"],
        versions=_completed_versions(meta["versions"], cache_root),
        path=path,
    )


@functools.lru_cache(maxsize=64)
def _pack_contents(path, stamp):
    """``{key: (config_json, meta_json, checksum, arrays)}`` of a pack; ``stamp`` (size, modification time) keys the
    cache, so a pack replaced on disk is read again."""
    return {key: parts for key, *parts in run_packs.read_pack(path, _read_header(path, stamp))}


@functools.lru_cache(maxsize=64)
def _read_header(path, stamp):
    # Parsed once per version of a pack: both the index of keys and the runs' contents are read from it.
    return run_packs.read_header(path)


@functools.lru_cache(maxsize=64)
def _pack_header(path, stamp):
    """``{key: header entry}`` of a pack (its runs' configurations and metadata, not their arrays)."""
    return {entry["key"]: entry for entry in _read_header(path, stamp)["runs"]}


def pack_paths(paper_folder):
    """The packs of a paper's folder of runs (``<folder>/packs/*.npz``), sorted by name."""
    folder = Path(paper_folder) / run_packs.PACK_FOLDER
    listed = _listing_stamp(folder)
    return [] if listed is None else list(_listed_packs(folder, listed))


def _listing_stamp(folder):
    """The modification time of a folder of packs, or None where there is none. An absent folder is listed anyway,
    so that the read log (:mod:`common.provenance`) records it as looked for: packs appearing there later are a
    change of the inputs."""
    try:
        return os.stat(folder).st_mtime_ns
    except (FileNotFoundError, NotADirectoryError):
        try:
            os.scandir(folder).close()
        except OSError:
            pass
        return None


@functools.lru_cache(maxsize=64)
def _listed_packs(folder, listed):
    # Keyed by the folder's modification time, which a pack moved in (os.replace) or deleted changes.
    return tuple(sorted(Path(entry.path) for entry in os.scandir(folder)
                        if entry.name.endswith(".npz") and not entry.name.startswith(".")))


@functools.lru_cache(maxsize=64)
def _pack_index(folder, listed):
    """``({key: pack path}, (unreadable pack, ...))`` of a paper's folder, from its packs' headers; keyed by the
    folder's modification time, as :func:`_listed_packs`."""
    index, unreadable = {}, []
    for path in _listed_packs(folder, listed):
        try:
            keys = _pack_header(path, _stamp(path))
        except Exception as exc:  # a damaged pack can raise almost anything in numpy's, zipfile's or json's readers
            unreadable.append(_pack_problem(path, exc))
            continue
        for key in keys:
            index.setdefault(key, path)
    return index, tuple(unreadable)


@functools.lru_cache(maxsize=256)
def _pack_folder(root, paper_key):
    return root / paths.check_paper_key(paper_key) / run_packs.PACK_FOLDER


def _stamp(path):
    stat = path.stat()
    return stat.st_size, stat.st_mtime_ns


def _pack_problem(path, exc):
    return f"{path}: unreadable pack ({type(exc).__name__}: {exc}); restore it with `git checkout -- {path}`"


def _read_packed(config, root, code_version, serialized):
    """Look ``config`` up in the packs of its paper's folder under ``root`` (``serialized``: its :func:`keyed`).

    Returns
    -------
    run : StoredRun or None
    problem : tuple or None
        ``(state, reason)`` for a run found damaged or stale, or for a pack that cannot be read (whose runs are
        unknown, so every run not found elsewhere is reported with it).
    """
    key, config_json = serialized
    folder = _pack_folder(root, config["paper"])
    listed = _listing_stamp(folder)
    if listed is None:
        return None, None
    index, unreadable = _pack_index(folder, listed)
    path = index.get(key)
    if path is None:
        return None, ("corrupt", unreadable[0]) if unreadable else None
    try:
        contents = _pack_contents(path, _stamp(path))
    except Exception as exc:  # damaged since it was indexed
        return None, ("corrupt", _pack_problem(path, exc))
    try:
        return _verified_run(key, *contents[key], path, root, config_json, code_version), None
    except _Stale as exc:
        return None, ("stale", f"{path} (run {key}): {exc}")
    except Exception as exc:  # _Corrupt, or whatever damaged parts raise
        return None, ("corrupt", f"{path} (run {key}): {exc}; restore it with `git checkout -- {path}`")


def _packed_runs(paper_folder):
    """Every sound run of the packs of a paper's folder; unreadable packs and damaged runs are warned of."""
    runs = []
    for path in pack_paths(paper_folder):
        try:
            contents = _pack_contents(path, _stamp(path))
        except Exception as exc:
            _warn_corrupt(_pack_problem(path, exc))
            continue
        for key, parts in contents.items():
            try:
                runs.append(_verified_run(key, *parts, path, Path(paper_folder).parent, None, None))
            except Exception as exc:  # _Corrupt, or whatever damaged parts raise
                _warn_corrupt(f"{path} (run {key}): {exc}")
    return runs


def _completed_versions(versions, cache_root):
    """A run's recorded versions with its kernels named: from its own ``blas`` record, else (a file written before
    runs recorded their kernels) from the record of the cache it lies in, marked as such."""
    versions = dict(versions)
    if "kernels" not in versions and "blas" in versions:
        versions["kernels"] = "+".join(sorted({entry.rsplit(": ", 1)[-1] for entry in versions["blas"].split("; ")}))
    if "kernels" not in versions:
        record = numeric_record(cache_root)
        if record is None:
            versions["kernels"] = "unknown"
        else:
            for name in ("kernels", "numpy", "scipy"):
                versions.setdefault(name, record.get(name, "unknown"))
            versions["recorded_by"] = NUMERIC_RECORD
    return versions


def _warn_corrupt(reason, found=None):
    then = "the run counts as missing and will be recomputed" if found is None else f"the run is read from {found}"
    warnings.warn(f"ignoring result file {reason}; {then}", CorruptResultWarning, stacklevel=3)


def _warn_stale(reason):
    warnings.warn(f"ignoring result file {reason}; the run counts as missing and will be recomputed",
                  StaleResultWarning, stacklevel=3)


def lookup(config, code_version=None, kernels=None, root=None, *, serialized=None):
    """The stored run of ``config`` and its state, without warnings.

    Looks in the cache's packs, its run files, then where runs computed under ``kernels`` are written (see
    :func:`results_root_for`).

    Parameters
    ----------
    config : dict
    code_version : int, optional
        The current ``CODE_VERSION`` of the run function's module; a run computed
        by another version is stale. None accepts any version.
    kernels : str, optional
        The kernels that would compute the run (default: this process's, ``process_versions()["kernels"]``).
    root : path, optional
        A cache of its own to look in instead (see :func:`run_path`).
    serialized : tuple, optional
        ``(key, config_json)`` of ``config`` as :func:`keyed` gave them, so that a grid's look-ups serialize each
        configuration once; None computes them.

    Returns
    -------
    run : StoredRun or None
        None unless the state is ``"ok"``.
    state : {"ok", "missing", "corrupt", "stale"}
    reason : str
        Why a file was not loaded, naming it; empty when none was passed over. A corrupt file is named even when
        the state is ``"ok"`` (the run was found sound where runs computed under ``kernels`` go), with how to
        repair it: no recomputed run replaces it.
    """
    run, problem = _read_packed(config, paths.results_root() if root is None else Path(root), code_version,
                                keyed(config) if serialized is None else serialized)
    if run is not None:
        return run, "ok", ""
    kernels = process_versions()["kernels"] if kernels is None else kernels
    written = run_path(config, kernels, root)
    for path in dict.fromkeys([run_path(config, root=root), written]):
        try:
            run = read_run(path, expected_config=config, code_version=code_version)
        except FileNotFoundError:
            continue
        except _Corrupt as exc:
            # Runs computed here go elsewhere, so this file stays corrupt (in the tracked cache, say) until repaired.
            repair = "" if path == written else (f"; runs computed here go to {written.parent}, so restore it with "
                                                 f"`git checkout -- {path}` or delete it")
            problem = problem or ("corrupt", f"{path}: {exc}{repair}")
        except _Stale as exc:
            problem = problem or ("stale", f"{path}: {exc}")
        else:
            return run, "ok", problem[1] if problem and problem[0] == "corrupt" else ""
    return (None, "missing", "") if problem is None else (None, *problem)


def cached_run(config, code_version=None, root=None):
    """The stored run of ``config``, or None if it is missing, corrupt or stale (the last two with a warning; a
    corrupt file passed over for a sound run found elsewhere is warned of too, see :func:`lookup`).

    Parameters
    ----------
    config : dict
    code_version : int, optional
    root : path, optional
        See :func:`lookup`.
    """
    run, state, reason = lookup(config, code_version, root=root)
    if state == "stale":
        _warn_stale(reason)
    elif reason:
        _warn_corrupt(reason, None if run is None else run.path)
    return run


def load_run(config):
    """The stored run of ``config`` (:class:`StoredRun`), including non-trace arrays such as ``X``.

    Raises
    ------
    LookupError
        If the run has no valid stored result; compute it with :func:`common.runner.run_grid`.
    """
    run = cached_run(config)
    if run is None:
        raise LookupError(f"no valid stored result for run {run_key(config)} (config {canonical_json(config)}); "
                          f"compute it with common.runner.run_grid")
    return run


def scan(paper_key):
    """All valid stored runs of a paper, in its packs and its run files, sorted by key (a run in both: the
    pack's, as :func:`lookup` finds it); corrupt files are skipped with a warning."""
    folder = paths.results_dir(paper_key)
    runs = {run.key: run for run in _packed_runs(folder)}
    for path in sorted(folder.glob("*.npz")):
        if path.stem in runs:
            continue
        try:
            runs[path.stem] = read_run(path)
        except _Corrupt as exc:
            _warn_corrupt(f"{path}: {exc}")
    return [runs[key] for key in sorted(runs)]


def _table_value(value):
    # Nested configuration values (lists, dicts) become their JSON text, so that
    # every column holds scalars that pandas can compare and group by.
    return canonical_json(value) if isinstance(value, (list, dict)) else value


def _column_order(runs):
    config_names, trace_names, scalar_names = {}, {}, {}
    for run in runs:
        for name in run.config:
            config_names.setdefault(name, None)
        for name in run.traces:
            trace_names.setdefault(name, None)
        for name, value in run.result.items():
            if not isinstance(value, np.ndarray) or value.ndim == 0:
                scalar_names.setdefault(name, None)
    clashes = set(config_names) & (set(trace_names) | set(scalar_names))
    if clashes:
        raise ValueError(f"names {sorted(clashes)} are both configuration fields and results; rename one")
    middle = sorted(name for name in config_names if name not in ("paper", "experiment", "seed"))
    config_order = ["paper", "experiment", *middle, "seed"]
    return config_order, list(trace_names), list(scalar_names)


def tidy_table(runs):
    """Long table of runs: one row per (run, evaluation).

    Columns: the configuration fields (``paper``, ``experiment``, the others
    sorted, ``seed``), ``run_key``, ``eval`` (0-based evaluation index), the
    traces, the scalar results, ``run_seconds`` (the run's wall time) and
    ``run_cpu_seconds`` (its CPU time, or wall time where none was recorded). A run
    without traces contributes one row with ``eval`` 0. Nested configuration
    values appear as their JSON text. Fields a run lacks are missing values.

    Parameters
    ----------
    runs : list of StoredRun

    Returns
    -------
    pandas.DataFrame
    """
    config_order, trace_names, scalar_names = _column_order(runs)
    n_rows = [run.n_evals if run.traces else 1 for run in runs]

    def per_run_constant(values):
        return pd.Series(values, dtype=object if not values else None).repeat(n_rows).reset_index(drop=True)

    columns = {}
    for name in config_order:
        columns[name] = per_run_constant([_table_value(run.config.get(name)) for run in runs])
    columns["run_key"] = per_run_constant([run.key for run in runs])
    columns["eval"] = np.concatenate([np.arange(n) for n in n_rows]) if runs else np.arange(0)
    for name in trace_names:
        columns[name] = np.concatenate([
            run.result[name] if name in run.traces else np.full(n, np.nan) for run, n in zip(runs, n_rows)
        ]) if runs else np.arange(0)
    for name in scalar_names:
        columns[name] = per_run_constant([run.result.get(name) for run in runs])
    columns["run_seconds"] = per_run_constant([run.wall_time for run in runs])
    columns["run_cpu_seconds"] = per_run_constant([run.cost_seconds for run in runs])
    # Every column is a new array made above, so the frame may hold them as they are: copying them into blocks of
    # one dtype took two thirds of the time of loading a paper's grid.
    return pd.DataFrame(columns, copy=False)


def load_table(source):
    """Tidy table of stored runs (see :func:`tidy_table`).

    Parameters
    ----------
    source : str or iterable of dict
        A paper key (all valid runs in its folder, sorted by key) or run
        configurations (in the given order; every one must be stored).

    Raises
    ------
    LookupError
        If a given configuration has no valid stored result.
    """
    if isinstance(source, str):
        return tidy_table(scan(source))
    runs, missing = [], []
    for config in source:
        run = cached_run(config)
        if run is None:
            missing.append(run_key(config))
        else:
            runs.append(run)
    if missing:
        raise LookupError(f"{len(missing)} run(s) have no valid stored result, e.g. {missing[:3]}; "
                          f"compute them with common.runner.run_grid")
    return tidy_table(runs)


def final_rows(table):
    """The last row of every run of a tidy table: the row of its highest ``eval``, in ``run_key`` order.

    Its trace columns hold the run's final values (e.g. the final ``best_so_far``) and ``eval`` the run's
    length, so applying it again changes nothing.
    """
    last = _last_rows_of_contiguous_runs(table)
    return table.loc[table.groupby("run_key")["eval"].idxmax()] if last is None else table.iloc[last]


def _last_rows_of_contiguous_runs(table):
    """Positions of the final rows in ``run_key`` order where every run's rows lie together with ``eval`` rising, as
    :func:`tidy_table` and filters of it leave them, else None. Judging a paper's claims asks for the final rows of
    its table hundreds of times, and grouping a million keys took a third of it."""
    keys, evals = table["run_key"].to_numpy(), table["eval"].to_numpy()
    if len(keys) < 2 or not table.index.is_unique:
        return None
    starts = np.flatnonzero(np.concatenate(([True], keys[1:] != keys[:-1])))
    firsts = keys[starts]
    within_a_run = np.ones(len(keys) - 1, dtype=bool)
    within_a_run[starts[1:] - 1] = False
    if len(set(firsts)) < len(firsts) or not np.all(np.diff(evals)[within_a_run] > 0):
        return None
    ends = np.append(starts[1:], len(keys)) - 1
    return ends[np.argsort(firsts, kind="stable")]


def cpu_hours(table, by="experiment"):
    """CPU-hours of the runs of a tidy table, summed per value of ``by``: each run counted once, at its
    recorded ``run_cpu_seconds``."""
    return final_rows(table).groupby(by)["run_cpu_seconds"].sum() / 3600
