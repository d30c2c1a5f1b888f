"""Packs: many stored runs in one file, so that a paper's grid loads in one read instead of thousands.

A run file (:mod:`common.store`) holds a run's arrays, its configuration and metadata as JSON text, and a
checksum over all of them. A *pack* holds the same four things for many runs, unchanged, in one compressed
``.npz`` file:

``header``
    UTF-8 JSON: one entry per run, ``{"key", "config", "meta", "checksum", "layout"}``, where ``config`` and
    ``meta`` are the run file's JSON texts character for character (its checksum covers them) and ``layout``
    lists each array as ``[name, column, offset, shape]``.
``c0``, ``c1``, ...
    One flat array per dtype (``float64``, ``bool``, ``<U12``, ...): every array of that dtype, of every run,
    one after another in C order. Slicing ``[offset, offset + size)`` and reshaping gives back the array with
    the same bytes, so each run's checksum verifies exactly as it did in its own file.

A pack is written once and never rewritten (:func:`write_pack` refuses an existing file): appending runs to a
block writes a new pack beside the old ones, so git stores each run's bytes once.

This module knows the format only; :mod:`common.store` reads packs beside the run files and
``python -m common.pack_runs`` makes them.
"""
import json
import math
import os
from pathlib import Path

import numpy as np

from common import npz_files

#: The folder, inside a paper's folder of runs, that holds its packs.
PACK_FOLDER = "packs"
PACK_FORMAT = 1


def write_pack(path, runs):
    """Write ``runs`` into a new pack file at ``path``, atomically.

    Parameters
    ----------
    path : path
        The pack to create; it must not exist (a pack is never rewritten).
    runs : iterable of tuple
        ``(key, config_json, meta_json, checksum, arrays)`` per run, ``arrays`` a dict ``{name: ndarray}``
        as the run file stores them.

    Raises
    ------
    FileExistsError
        If ``path`` exists: write the new runs into a pack of another name instead.
    """
    path = Path(path)
    columns, sizes, by_dtype, header = [], [], {}, []
    for key, config_json, meta_json, checksum, arrays in runs:
        layout = []
        for name, array in arrays.items():
            array = np.asarray(array, order="C")  # not ascontiguousarray, which makes a 0-d array 1-d
            column = by_dtype.setdefault(array.dtype.str, len(by_dtype))
            if column == len(columns):
                columns.append([])
                sizes.append(0)
            offset = sizes[column]
            columns[column].append(array.ravel())
            sizes[column] += array.size
            layout.append([name, column, offset, list(array.shape)])
        header.append({"key": key, "config": config_json, "meta": meta_json, "checksum": checksum,
                       "layout": layout})
    dtypes = list(by_dtype)
    text = json.dumps({"format": PACK_FORMAT, "dtypes": dtypes, "runs": header}, separators=(",", ":"))
    payload = {"header": np.frombuffer(text.encode(), dtype=np.uint8)}
    for column, parts in enumerate(columns):
        payload[f"c{column}"] = np.concatenate(parts) if parts else np.empty(0, dtype=dtypes[column])
    temporary = npz_files.temporary_npz(path, payload)
    try:
        os.link(temporary, path)  # unlike a rename, fails where the pack exists, in one step
    except FileExistsError:
        raise FileExistsError(f"pack {path} exists and packs are never rewritten; give the new runs another pack")
    finally:
        temporary.unlink()


def read_header(path):
    """The header of a pack: ``{"format", "dtypes", "runs"}`` (see the module docstring); arrays are not read."""
    with np.load(path, allow_pickle=False) as npz:
        return _parsed_header(npz)


def _parsed_header(npz):
    header = json.loads(npz["header"].tobytes().decode())
    if header.get("format") != PACK_FORMAT:
        raise ValueError(f"pack format {header.get('format')!r}, expected {PACK_FORMAT}")
    return header


def read_pack(path, header=None):
    """Every run of a pack, in the order written.

    Parameters
    ----------
    path : path
    header : dict, optional
        The pack's header as :func:`read_header` returned it, so that it is not parsed twice; None reads it.

    Returns
    -------
    list of tuple
        ``(key, config_json, meta_json, checksum, arrays)`` per run, as given to :func:`write_pack`; the arrays
        are read-only views into the pack's columns.
    """
    with np.load(path, allow_pickle=False) as npz:
        header = _parsed_header(npz) if header is None else header
        columns = [npz[f"c{column}"] for column in range(len(header["dtypes"]))]
    for column, dtype in zip(columns, header["dtypes"]):
        if column.dtype.str != dtype or column.ndim != 1:
            raise ValueError(f"column of dtype {column.dtype.str}, shape {column.shape}; expected 1-d {dtype}")
        column.flags.writeable = False
    runs = []
    for entry in header["runs"]:
        arrays = {}
        for name, column, offset, shape in entry["layout"]:
            size = math.prod(shape)
            if offset < 0 or offset + size > len(columns[column]):
                raise ValueError(f"run {entry['key']}: array {name!r} lies outside its column")
            arrays[name] = columns[column][offset:offset + size].reshape(tuple(shape))
        runs.append((entry["key"], entry["config"], entry["meta"], entry["checksum"], arrays))
    return runs
