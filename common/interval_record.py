"""A record of the bootstrap intervals that cost seconds, so that a notebook executed again reads them back.

Near a decision boundary a cell's interval is recomputed on :data:`common.stats.N_REFINED` or
:data:`common.stats.N_PRECISE` resamples (:func:`common.judging.refined`; a curve's iterations on one draw shared by
them, :func:`common.stats.paired_curves`): up to 20 million resamples of the seeds, seconds each, and a paper's
claims ask for dozens of them; an end that even those cannot place gets the exact bootstrap tail
(:func:`common.bootstrap_tail.sum_tail`, up to seconds too). Such an interval or tail is a function of its inputs
(the seeds' values, the scale, the estimate, the number of resamples and the bootstrap's seed) and of the code and
numpy that compute it, not of the BLAS kernels (its sums are numpy's, without BLAS). A notebook keeps each one it computed, with its inputs,
in ``figures/<key>/bootstrap_intervals.json`` beside the verdicts it serves, under the fingerprint of that code and
numpy (:func:`fingerprint`), and reads them back at its next execution where the inputs are equal to the last bit.

A record made under another fingerprint is ignored as a whole, and the next one written replaces it, so a
look-up never returns what this code would not compute; ``tests/test_interval_record.py`` recomputes recorded
intervals from their inputs and requires the same numbers bit for bit. The record is not an input of the
notebook's outputs (``reproduce.py`` does not log it, :mod:`common.provenance`): with or without it they are the
same bytes, only slower to compute.

A notebook reads its paper's committed record and the one in its own figures folder (they differ when its outputs
go elsewhere, :mod:`common.paths`) at :func:`use`, and writes the record back to its own figures folder at
:func:`save`, its last step (:func:`common.notebook.write_notebook_summary`). Outside a notebook nothing is read or
written.
"""
import base64
import hashlib
import json
import os
import warnings
from pathlib import Path

import numpy as np

from common import _threads, paths

#: The modules whose code computes the recorded intervals: a change to either makes every record stale.
COMPUTED_BY = ("common/stats.py", "common/bootstrap_tail.py", "common/interval_record.py")

_ACTIVE = {"entries": {}, "path": None}


def fingerprint():
    """What the recorded numbers depend on besides their inputs: a digest of the code that computes them
    (:data:`COMPUTED_BY`), numpy's version and the SIMD target of its loops (:func:`common._threads.numpy_simd`)."""
    code = hashlib.sha256()
    for name in COMPUTED_BY:
        code.update((paths.repo_root() / name).read_bytes())
    return {"code": code.hexdigest()[:16], "numpy": np.__version__, "numpy_simd": _threads.numpy_simd()}


def encoded(values):
    """An array's float64 values as the record stores them among an entry's inputs (base64 of their bytes)."""
    return base64.b64encode(np.ascontiguousarray(values, dtype=float).tobytes()).decode()


def decoded(text):
    """The float64 values (1-D) of :func:`encoded`'s text."""
    return np.frombuffer(base64.b64decode(text), dtype=float)


def use(paper_key):
    """Read ``paper_key``'s committed record and the one in its current figures folder
    (:func:`common.paths.interval_record_path`), and keep what this process computes from now on for :func:`save`."""
    own = paths.interval_record_path(paper_key)
    committed = paths.interval_record_path(paper_key, paths.repo_root() / "figures")
    current = fingerprint()
    _ACTIVE["entries"] = {}
    for path in dict.fromkeys([committed, own]):
        _ACTIVE["entries"].update(read(path, current))
    _ACTIVE["path"] = own


def stop():
    """Neither read nor keep intervals from now on."""
    _ACTIVE.update(entries={}, path=None)


def recorded(kind, inputs):
    """What the record holds for a computation of ``kind`` (e.g. "paired") from exactly ``inputs`` (a dict of JSON
    values, arrays :func:`encoded`), as JSON gives it back (lists for tuples), or None."""
    found = _ACTIVE["entries"].get(_key(kind, inputs))
    if found is None or found["kind"] != kind or found["inputs"] != inputs:
        return None
    return found["outputs"]


def add(kind, inputs, outputs):
    """Keep ``outputs`` (JSON values, floats exact) of a computation of ``kind`` from ``inputs``, if a record is in
    use."""
    if _ACTIVE["path"] is not None:
        _ACTIVE["entries"][_key(kind, inputs)] = {"kind": kind, "inputs": inputs, "outputs": outputs}


def save():
    """Write the record in use (the intervals read and those computed since) to the figures folder of :func:`use`;
    nothing if it holds none. Returns the path written, or None."""
    if _ACTIVE["path"] is None or not _ACTIVE["entries"]:
        return None
    write(_ACTIVE["path"], _ACTIVE["entries"])
    return _ACTIVE["path"]


def read(path, current=None):
    """The entries of the record at ``path`` by key, or {} where it is absent, unreadable, or made under another
    fingerprint than ``current`` (default :func:`fingerprint`)."""
    try:
        record = json.loads(Path(path).read_text())
    except FileNotFoundError:
        return {}
    except (OSError, ValueError) as error:
        warnings.warn(f"the record of bootstrap intervals {path} cannot be read ({error}); its intervals are "
                      f"recomputed", stacklevel=2)
        return {}
    if not isinstance(record, dict) or record.get("fingerprint") != (current or fingerprint()):
        return {}
    entries = record.get("entries", [])
    return {_key(entry["kind"], entry["inputs"]): entry for entry in entries
            if isinstance(entry, dict) and {"kind", "inputs", "outputs"} <= set(entry)}


def write(path, entries):
    """The record as JSON, one interval a line in the order of their keys (the same bytes for the same intervals),
    put in place whole so that a reader never meets half of it."""
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    lines = ",\n".join(json.dumps(entries[key], sort_keys=True) for key in sorted(entries))
    text = f'{{"fingerprint": {json.dumps(fingerprint(), sort_keys=True)},\n"entries": [\n{lines}\n]}}\n'
    staged = path.with_name(f".{path.name}.{os.getpid()}")
    staged.write_text(text)
    os.replace(staged, path)


def _key(kind, inputs):
    return hashlib.sha256(json.dumps([kind, inputs], sort_keys=True).encode()).hexdigest()
