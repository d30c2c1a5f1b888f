"""The authors' Add-GP-UCB under their library's defaults and under their figure script's settings (issue 63 item 7).

``benchmarks/authors_add_gp_ucb.py`` runs the authors' code under Octave on (10,3,3) two ways: "library", the noise
and the range of the kernel scale sigma from the standard deviation of the initial values (their library's defaults,
``boProcessParams.m``, which the project's "authors" settings follow), and "figure", both from the standard deviation
of f over 1,000 extra uniform points, as their figure script ``demo/demoCustomise.m`` sets them. A seed draws the same
function and the same initial points under both, so the two runs of a seed pair up.
"""
import pandas as pd

from common import stats
from common.experiments.add_gp_ucb import AUTHORS_DETAILS_METHODS, authors_code_runs

#: The settings of the authors' runs, as their folders under data/authors_code/add_gp_ucb/ name them.
SETTINGS = ("library", "figure")
CHECKPOINTS = (10, 25, 50, 100, 200, 410)
RATIO = "S_T ratio (figure / library), seed by seed"


def settings_table(at=CHECKPOINTS, runs=None):
    """Per method and T in ``at`` (queries, the initial points included, that every run compared reaches): the mean
    simple regret S_T and average regret R_T/T of the authors' code under each of :data:`SETTINGS`, and the ratio of
    mean S_T, figure script's settings over library's, with its 95 % paired interval (:func:`common.stats
    .estimate_effect`) over the seeds run under both.

    Parameters
    ----------
    at : sequence of int
    runs : dict, optional
        {settings: tidy table of :func:`~common.experiments.add_gp_ucb.authors_code_runs`}; default: the saved runs.

    Returns
    -------
    DataFrame
        One row per (method, T); empty where a method has no run under one of the settings.
    """
    runs = {name: authors_code_runs(name)[0] for name in SETTINGS} if runs is None else runs
    rows = []
    for method in AUTHORS_DETAILS_METHODS:
        of = {name: runs[name][runs[name]["method"] == method] for name in SETTINGS}
        seeds = sorted(set.intersection(*(set(frame["seed"]) for frame in of.values())))
        if not seeds:
            continue
        of = {name: frame[frame["seed"].isin(seeds)] for name, frame in of.items()}
        reached = min(int(frame.groupby("seed")["eval"].max().min()) + 1 for frame in of.values())
        for T in [T for T in at if T <= reached]:
            final = {name: frame[frame["eval"] == T - 1].set_index("seed").loc[seeds] for name, frame in of.items()}
            row = {"method": method, "T": T, "seeds": len(seeds)}
            row.update({f"S_T {name}": final[name]["simple_regret"].mean() for name in SETTINGS})
            row.update({f"R_T/T {name}": final[name]["average_regret"].mean() for name in SETTINGS})
            row[RATIO] = str(stats.estimate_effect(*(final[name]["simple_regret"].to_numpy(dtype=float)
                                                     for name in reversed(SETTINGS)), "ratio"))
            rows.append(row)
    return pd.DataFrame(rows)


def runs_saved():
    """{settings: {method: number of saved runs}} of the authors' code."""
    counts = {}
    for name in SETTINGS:
        table = authors_code_runs(name)[0]
        counts[name] = {method: int(table[table["method"] == method]["seed"].nunique())
                        for method in AUTHORS_DETAILS_METHODS}
    return counts
