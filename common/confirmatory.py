"""Confirmatory runs on fresh seeds for the claims the paper-scale runs could not decide.

A claim judged "inconclusive" at the paper's sample (:mod:`common.claims`) gets a
second, independent sample: fresh seeds, disjoint from every scale's seeds, as
many as a power computation on the first sample asks for (the seeds at which an
interval of the observed spread around the observed effect would decide every
undecided cell, :attr:`common.stats.CellJudgement.seeds_to_decide`), capped by
what the paper's compute budget allows. The plan is written by
:func:`make_plan` from the paper-scale verdicts, saved to
``data/confirmatory/<key>.csv`` and committed *before* any fresh run; the
confirmatory verdict is judged on the fresh seeds alone, with the same claim
specs, and shown beside the paper-scale verdict (:func:`beside`), e.g.
"paper scale: inconclusive at 10 seeds; confirmatory, 40 fresh seeds: reproduced".
"""
import json

import pandas as pd

from common import paths, stats

#: Fresh seeds are SEED_OFFSET, SEED_OFFSET + 1, ...: no scale of any paper uses seeds this large.
SEED_OFFSET = 10_000
PLAN_COLUMNS = ("id", "paper_seeds", "seeds_to_decide", "planned_seeds", "note")


def plan_path(paper_key):
    """``data/confirmatory/<key>.csv``: the committed plan of a paper's confirmatory runs."""
    return paths.repo_root() / "data" / "confirmatory" / f"{paths.check_paper_key(paper_key)}.csv"


def _seeds(text):
    """``"40"`` -> 40; ``"more than 10000"`` -> MOST_SEEDS_REPORTED + 1."""
    return stats.MOST_SEEDS_REPORTED + 1 if str(text).startswith("more than") else int(text)


def make_plan(verdicts, paper_seeds, *, most_seeds, least_seeds=10):
    """Fresh seeds for every inconclusive claim of a verdict table.

    Parameters
    ----------
    verdicts : pandas.DataFrame
        The paper-scale verdict table (:func:`common.claims.judge`).
    paper_seeds : mapping of str to int
        Claim id -> the seeds its paper-scale verdict rests on.
    most_seeds : int
        The most fresh seeds the paper's compute budget allows for one claim; a
        claim that needs more is left out, with a note.
    least_seeds : int, default 10
        The fewest fresh seeds planned (an interval on fewer says little).

    Returns
    -------
    pandas.DataFrame
        One row per inconclusive claim (:data:`PLAN_COLUMNS`); ``planned_seeds``
        0 for a claim left out.
    """
    if int(most_seeds) != most_seeds or most_seeds < least_seeds:
        raise ValueError(f"most_seeds must be an integer >= least_seeds={least_seeds}; got {most_seeds!r}")
    rows = []
    for row in verdicts[verdicts["verdict"] == "inconclusive"].itertuples(index=False):
        needed = _seeds(row.seeds_to_decide)
        planned = max(needed, least_seeds)
        note = ""
        if planned > most_seeds:
            note = f"left out: needs {stats.format_seeds(needed)} seeds, above the budget of {most_seeds}"
            planned = 0
        rows.append({"id": row.id, "paper_seeds": int(paper_seeds[row.id]), "seeds_to_decide": needed,
                     "planned_seeds": planned, "note": note})
    return pd.DataFrame(rows, columns=list(PLAN_COLUMNS))


def plan_from_published(paper_key, *, most_seeds, note=""):
    """:func:`make_plan` from a paper's committed ``figures/<key>/verdicts.csv``, each claim's paper seeds read from
    ``effects.csv`` (the most seeds among its cells); ``note`` is added to every planned row."""
    folder = paths.figures_dir(paper_key)
    verdicts = pd.read_csv(folder / "verdicts.csv", keep_default_na=False)
    seeds = pd.read_csv(folder / "effects.csv").groupby("id")["seeds"].max().to_dict()
    plan = make_plan(verdicts[verdicts["id"].isin(seeds)], seeds, most_seeds=most_seeds)
    plan.loc[plan["planned_seeds"] > 0, "note"] = note
    return plan


def admit_cheapest_first(plan, costs, cpu_hours, *, budget="the paper's budget"):
    """Keep a plan within a CPU budget: admit its claims cheapest first while the total fits.

    Parameters
    ----------
    plan : pandas.DataFrame
        :func:`make_plan`'s plan; changed in place and returned.
    costs : mapping of str to float
        Claim id -> CPU seconds of its planned fresh runs (the claims with planned seeds).
    cpu_hours : float
        The budget.
    budget : str
        What the budget is called in the note of a claim left out.

    Returns
    -------
    pandas.DataFrame
        The plan, each priced claim's note giving its CPU-hours, and the claims beyond the budget left out
        (``planned_seeds`` 0) with a note that says so.
    """
    spent = 0.0
    for claim_id in sorted(costs, key=costs.get):
        at = plan["id"] == claim_id
        if spent + costs[claim_id] <= cpu_hours * 3600:
            spent += costs[claim_id]
            plan.loc[at, "note"] = f"about {costs[claim_id] / 3600:.2f} CPU-hours"
        else:
            plan.loc[at, "note"] = (f"left out: {costs[claim_id] / 3600:.2f} CPU-hours, beyond {budget} of "
                                    f"{cpu_hours:g}")
            plan.loc[at, "planned_seeds"] = 0
    return plan


def save_plan(paper_key, plan, runs_of):
    """Write a plan to :func:`plan_path` and its claims' runs to :func:`runs_path` (both to be committed before the
    fresh runs); return the plan's path. ``runs_of`` maps a claim id to the run keys it is judged on
    (:func:`save_runs`)."""
    path = plan_path(paper_key)
    path.parent.mkdir(parents=True, exist_ok=True)
    plan.loc[:, list(PLAN_COLUMNS)].to_csv(path, index=False)
    save_runs(paper_key, plan, runs_of)
    return path


def runs_path(paper_key):
    """``data/confirmatory/<key>.runs.json``: the runs each planned claim is judged on, beside its plan."""
    return plan_path(paper_key).with_suffix(".runs.json")


def _hashable(value):
    """A run key read from JSON as a tuple: lists become tuples, a dict its sorted (name, value) pairs."""
    if isinstance(value, dict):
        return tuple(sorted((name, _hashable(item)) for name, item in value.items()))
    if isinstance(value, list):
        return tuple(_hashable(item) for item in value)
    return value


def save_runs(paper_key, plan, runs_of):
    """Write the run keys of each claim the plan gives fresh seeds to :func:`runs_path`.

    The experiment module builds its confirmatory grid from this file and the plan alone
    (:func:`fresh_seeds_of_runs`), so that it need not import the claims module that knows which runs a claim is
    judged on (the claims module imports the experiment module, never the other way).

    Parameters
    ----------
    plan : pandas.DataFrame
        The plan (:func:`make_plan`).
    runs_of : callable
        Claim id -> list of run keys, each a list of JSON values that names one run of the grid up to its seed
        (e.g. ``["synthetic", "Branin", "GP-UCB"]``); a paper's experiment module reads its own keys.
    """
    planned = [row.id for row in plan.itertuples(index=False) if int(row.planned_seeds)]
    runs = {claim_id: [list(key) for key in runs_of(claim_id)] for claim_id in planned}
    runs_path(paper_key).write_text(json.dumps(runs, indent=1) + "\n")


def load_runs(paper_key):
    """The committed runs of each planned claim (:func:`save_runs`): claim id -> list of run-key tuples; empty for
    a paper without a runs file."""
    path = runs_path(paper_key)
    if not path.exists():
        return {}
    return {claim_id: [_hashable(key) for key in keys] for claim_id, keys in json.loads(path.read_text()).items()}


def fresh_seeds_of_runs(paper_key):
    """Run key -> how many fresh seeds it runs under the committed plan: each planned claim's runs at its planned
    seeds, a run two claims share at the larger count."""
    runs = load_runs(paper_key)
    seeds_of = {}
    for row in load_plan(paper_key).itertuples(index=False):
        if not int(row.planned_seeds):
            continue
        if row.id not in runs:
            raise ValueError(f"the plan {plan_path(paper_key)} gives {row.id!r} fresh seeds but {runs_path(paper_key)} "
                             f"lists no runs for it: write both with save_plan")
        for key in runs[row.id]:
            seeds_of[key] = max(seeds_of.get(key, 0), int(row.planned_seeds))
    return seeds_of


def load_plan(paper_key):
    """The committed plan of a paper (empty if it has none)."""
    path = plan_path(paper_key)
    if not path.exists():
        return pd.DataFrame(columns=list(PLAN_COLUMNS))
    return pd.read_csv(path, keep_default_na=False)


def fresh_seeds(count):
    """The first ``count`` fresh seeds."""
    return range(SEED_OFFSET, SEED_OFFSET + int(count))


def split(table):
    """``(paper, fresh)``: the tidy table's runs on the paper's seeds and on fresh seeds."""
    fresh = table["seed"] >= SEED_OFFSET
    return table[~fresh], table[fresh]


def beside(verdicts, fresh_verdicts, plan):
    """The verdict table with its ``confirmatory`` column filled from the plan and the fresh-seed verdicts.

    Parameters
    ----------
    verdicts : pandas.DataFrame
        The paper-scale verdict table.
    fresh_verdicts : pandas.DataFrame or None
        The same claims judged on the fresh seeds alone (None: no fresh runs loaded); where its ``attrs["effects"]``
        holds the judged cells, the column gives the most seeds a claim's cells were judged on.
    plan : pandas.DataFrame
        :func:`load_plan`'s plan.
    """
    fresh = {} if fresh_verdicts is None else dict(zip(fresh_verdicts["id"], fresh_verdicts["verdict"]))
    # What the fresh seeds showed, beside the word: the effect, or the count of cells each way.
    effects = ({} if fresh_verdicts is None or "effect" not in fresh_verdicts
               else {claim: effect for claim, effect in zip(fresh_verdicts["id"], fresh_verdicts["effect"])
                     if isinstance(effect, str) and effect})
    # The fresh seeds a verdict rests on: more than planned where another claim's plan ran the same runs further.
    cells = None if fresh_verdicts is None else fresh_verdicts.attrs.get("effects")
    judged_seeds = {} if cells is None or not len(cells) else cells.groupby("id")["seeds"].max().to_dict()
    found = verdicts.copy()
    found.attrs = verdicts.attrs
    for row in plan.itertuples(index=False):
        at = found["id"] == row.id
        if not at.any():
            continue
        if not row.planned_seeds:
            text = row.note
        elif row.id in fresh and fresh[row.id] != "not run at this scale":
            seeds = int(judged_seeds.get(row.id, row.planned_seeds))
            outcome = fresh[row.id] + (f" ({effects[row.id]})" if row.id in effects else "")
            if seeds == row.planned_seeds:
                text = f"{seeds} fresh seeds: {outcome}"
            elif seeds > row.planned_seeds:
                text = (f"{seeds} fresh seeds ({row.planned_seeds} planned; more ran for another claim's plan): "
                        f"{outcome}")
            else:
                text = f"{seeds} fresh seeds (of {row.planned_seeds} planned, the rest not yet run): {outcome}"
        else:
            text = f"planned: {row.planned_seeds} fresh seeds, not yet run"
        found.loc[at, "confirmatory"] = f"paper scale {row.paper_seeds} seeds; {text}"
    return found
