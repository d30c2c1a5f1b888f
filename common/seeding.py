"""Deterministic random streams keyed by configuration.

Every random draw of a run comes from a ``numpy.random.Generator`` whose
``SeedSequence`` entropy is a hash of a plain-data key, so the same
configuration gives the same bits in any process, on any machine, in any order.
Keys are chosen per stream so that methods compared within a repetition share
what they should share (e.g. the initial design depends on the problem and the
repetition, not on the method: common random numbers).
"""
import hashlib
import json

import numpy as np


def canonical_json(value):
    """Serialize plain data (dict, list, str, int, float, bool, None) deterministically.

    Dictionaries are written with sorted keys and without whitespace, so two equal
    configurations always give the same string, whatever their insertion order.
    """
    return json.dumps(value, sort_keys=True, separators=(",", ":"), default=_reject)


def _reject(value):
    raise TypeError(
        f"configuration values must be plain data (dict, list, str, int, float, bool, None); "
        f"got {type(value).__name__}: {value!r}. Convert arrays with .tolist()."
    )


def stable_hash(value, n_hex=16):
    """Hexadecimal SHA-256 digest (first ``n_hex`` characters) of ``canonical_json(value)``."""
    return hashlib.sha256(canonical_json(value).encode()).hexdigest()[:n_hex]


def make_rng(*key):
    """Generator seeded from the SHA-256 of the plain-data ``key``.

    Parameters
    ----------
    *key : plain data
        Anything :func:`canonical_json` accepts, e.g. ``make_rng("bo_pp", "Dropwave", 3, "init")``.

    Returns
    -------
    numpy.random.Generator
        A PCG64 generator; equal keys give bit-identical streams.
    """
    digest = hashlib.sha256(canonical_json(list(key)).encode()).digest()
    entropy = int.from_bytes(digest, "little")
    return np.random.default_rng(np.random.SeedSequence(entropy))
