"""Where our Add-GP-UCB parts from the saved runs of the authors' code, beside where their own code, run again
under Debian's reference BLAS, parts from them (the add_gp_ucb notebook's §4; benchmarks/authors_add_gp_ucb.py
--blas reference makes those runs)."""
import numpy as np
import pandas as pd

from common.experiments.add_gp_ucb import (N_INIT, PAPER, REPLAYED_ITERATIONS, _record_digest,
                                           replayed_records)


def reference_blas_grid(reference_records, params):
    """§4's replays of the authors' runs made again under the reference BLAS (:data:`REFERENCE_BLAS_RUNS`), under
    the published settings, as configurations of :func:`~common.experiments.add_gp_ucb.run_on_authors_run` (their own ``authors_run``)."""
    return [{"paper": PAPER, "method": record["method"], "seed": record["seed"],
             "authors_run": _record_digest(record), "experiment": "authors_replay", "settings": params["settings"],
             "iterations": REPLAYED_ITERATIONS} for record in replayed_records(reference_records, params)]


def _first_parting(replay):
    """The first BO iteration (1-based) at which a replay's proposal is not the authors' point (one moved off a
    repeated query by random noise counts as theirs), or None."""
    parted = ~((replay["distance"].to_numpy() < 1e-9) | replay["moved"].to_numpy().astype(bool))
    return int(np.flatnonzero(parted)[0]) + 1 if parted.any() else None


def blas_parting_table(records, reference_records, replays, reference_replays, settings):
    """Where ours parts from the saved runs of the authors' code, beside where their own code, run again under the
    reference BLAS, parts from them: per run replayed under ``settings`` (``replays``: the "authors_replay" runs
    of :func:`authors_run_grid`, ``reference_replays`` those of :func:`reference_blas_grid`), the first BO
    iteration at which ours proposes another point than the saved run, the first at which their code under the
    reference BLAS queries another point than its saved run (within the replayed iterations; "" where neither
    parts), and the iterations at which ours proposes the reference-BLAS run's point."""
    again = {(record["method"], record["seed"]): record for record in reference_records}
    replays = replays[(replays["experiment"] == "authors_replay") & (replays["settings"] == settings)]
    rows = []
    for record in records:
        key = (record["method"], record["seed"])
        ours = replays[(replays["method"] == key[0]) & (replays["seed"] == key[1])]
        if ours.empty or key not in again:
            continue
        length = len(ours)
        saved = np.asarray(record["queries"])[N_INIT:N_INIT + length]
        rerun = np.asarray(again[key]["queries"])[N_INIT:N_INIT + length]
        differs = np.flatnonzero(np.abs(saved - rerun).max(axis=1) > 1e-9)
        on_rerun = reference_replays[(reference_replays["method"] == key[0])
                                     & (reference_replays["seed"] == key[1])]
        moved = on_rerun["moved"].to_numpy().astype(bool)
        rows.append({"method": key[0], "seed": key[1], "ours parts from the saved run at": _first_parting(ours),
                     "their code, reference BLAS, parts from it at": int(differs[0]) + 1 if differs.size else None,
                     "ours on their reference-BLAS run": int((on_rerun["distance"].to_numpy()[~moved] < 1e-9).sum()
                                                             + moved.sum())})
    partings = ["ours parts from the saved run at", "their code, reference BLAS, parts from it at"]
    return pd.DataFrame(rows).astype({name: "Int64" for name in partings}) if rows else pd.DataFrame(rows)


def blas_parting_sentence(table):
    """What :func:`blas_parting_table` shows, in numbers."""
    ours, theirs = table["ours parts from the saved run at"], table["their code, reference BLAS, parts from it at"]
    same = (ours.fillna(0) == theirs.fillna(0)).sum()
    full = (table["ours on their reference-BLAS run"] == REPLAYED_ITERATIONS).sum()
    return (f"Ours parts from {ours.notna().sum()} of the {len(table)} saved runs and the authors' own code, run "
            f"again under the reference BLAS, from {theirs.notna().sum()}; the two part at the same iteration (or "
            f"neither parts) in {same} of {len(table)}. Replayed on their reference-BLAS runs, ours proposes their "
            f"point at all {REPLAYED_ITERATIONS} iterations in {full} of {len(table)}.")
