"""Confirmatory runs on fresh seeds for the claims the paper-scale runs could not decide.

A claim judged "inconclusive" at the paper's sample (:mod:`common.claims`) gets a
second, independent sample: fresh seeds, disjoint from every scale's seeds, as
many as a power computation on the first sample asks for (the seeds at which an
interval of the observed spread around the observed effect would decide every
undecided cell, :attr:`judging.CellJudgement.seeds_to_decide`), capped by
what the paper's compute budget allows. The plan is written by
:func:`make_plan` from the paper-scale verdicts, saved to
``data/confirmatory/<key>.csv`` and committed *before* any fresh run; the
confirmatory verdict is judged on the fresh seeds alone, with the same claim
specs, and shown beside the paper-scale verdict (:func:`beside`), e.g.
"paper scale: inconclusive at 10 seeds; confirmatory, 40 fresh seeds: reproduced".

Two kinds of plan (:data:`PLANS`):

* ``"plug-in"`` (2026-11-25, ``data/confirmatory/<key>.csv``): the seeds at which an interval of the observed
  spread around the observed effect would decide every undecided cell, at most 100 a claim and 1.5 CPU-hours a
  paper. It plugs in the observed effect, which the fresh seeds then shrink (winner's curse): in simulation about
  one plan in five decided, and 3 of 16 confirmatory claims did.
* ``"powered"`` (issue 40, declared 2026-11-28 before any plan was drawn with it,
  ``data/confirmatory/powered/<key>.csv``): the fewest seeds of :data:`SEED_STEPS` at which the claim reaches a
  verdict in at least :data:`POWER` of :data:`SIMULATIONS` simulated fresh samples (:func:`decision_rate`): the
  pilot's seeds resampled in pairs, each cell's effect shrunk to :data:`SHRINK` of its size (:func:`shrunk`),
  and the claim judged by its own measure; priced, not capped in seeds, within :data:`POWERED_CPU_HOURS` a paper.

A notebook's ``confirmatory`` parameter picks the plan: True the plug-in plans, ``"powered"`` the powered ones
(:func:`plan_of`).
"""
import json

import numpy as np
import pandas as pd
from scipy import stats as scipy_stats
from tqdm import tqdm

from common import judging, paths, provenance, stats

#: Fresh seeds are SEED_OFFSET, SEED_OFFSET + 1, ...: no scale of any paper uses seeds this large.
SEED_OFFSET = 10_000
PLAN_COLUMNS = ("id", "paper_seeds", "seeds_to_decide", "planned_seeds", "note")


#: The kinds of plan and the folder each is committed in, under ``data/confirmatory/``.
PLANS = {"plug-in": "", "powered": "powered"}


def plan_of(params):
    """The plan a configuration's fresh seeds follow: ``"powered"`` if its ``confirmatory`` parameter says so,
    else ``"plug-in"`` (True, or False for a configuration without fresh seeds)."""
    return "powered" if params.get("confirmatory") == "powered" else "plug-in"


def plan_path(paper_key, plan="plug-in"):
    """``data/confirmatory/[powered/]<key>.csv``: the committed plan of a paper's confirmatory runs."""
    if plan not in PLANS:
        raise ValueError(f"plan must be one of {list(PLANS)}; got {plan!r}")
    return paths.repo_root() / "data" / "confirmatory" / PLANS[plan] / f"{paths.check_paper_key(paper_key)}.csv"


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
            note = f"left out: needs {judging.format_seeds(needed)} seeds, above the budget of {most_seeds}"
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


#: The plug-in plans' budget, the project's one rule (declared 2026-11-25 with egp_ts's plan before any fresh run,
#: and taken unchanged by each other paper before its own fresh runs): at most MOST_SEEDS fresh seeds for one claim
#: and CPU_HOURS CPU-hours for a paper's confirmatory block, each claim priced on its own from the paper-scale runs'
#: mean CPU seconds; claims are admitted cheapest first (:func:`admitted_plan`).
MOST_SEEDS = 100
CPU_HOURS = 1.5


def admitted_plan(verdicts, paper_seeds, cost_of, *, budget):
    """The plug-in plan of the inconclusive claims of ``verdicts`` (:func:`make_plan`, at most :data:`MOST_SEEDS` a
    claim), admitted cheapest first within :data:`CPU_HOURS` (:func:`admit_cheapest_first`, ``budget`` naming it),
    each claim priced by ``cost_of(claim_id, seeds)``, the CPU seconds of that many fresh seeds of its runs."""
    plan = make_plan(verdicts, paper_seeds, most_seeds=MOST_SEEDS)
    costs = {row.id: cost_of(row.id, row.planned_seeds) for row in plan.itertuples(index=False) if row.planned_seeds}
    return admit_cheapest_first(plan, costs, CPU_HOURS, budget=budget)


def runs_one_by_one(grouped):
    """Runs grouped as ``(block, problem, methods, *rest)`` listed one by one, ``(block, problem, method, *rest)``, as
    a plan's runs file keeps them (:func:`save_runs`)."""
    return [(block, problem, method, *rest) for block, problem, methods, *rest in grouped for method in methods]


def save_plan(paper_key, plan, runs_of, kind="plug-in"):
    """Write a plan to :func:`plan_path` and its claims' runs to :func:`runs_path` (both to be committed before the
    fresh runs); return the plan's path. ``runs_of`` maps a claim id to the run keys it is judged on
    (:func:`save_runs`)."""
    path = plan_path(paper_key, kind)
    path.parent.mkdir(parents=True, exist_ok=True)
    plan.loc[:, [*PLAN_COLUMNS, *(["decision_rate"] if "decision_rate" in plan else [])]].to_csv(path, index=False)
    save_runs(paper_key, plan, runs_of, kind)
    return path


def runs_path(paper_key, kind="plug-in"):
    """``data/confirmatory/[powered/]<key>.runs.json``: the runs each planned claim is judged on, beside its plan."""
    return plan_path(paper_key, kind).with_suffix(".runs.json")


def _hashable(value):
    """A run key read from JSON as a tuple: lists become tuples, a dict its sorted (name, value) pairs."""
    if isinstance(value, dict):
        return tuple(sorted((name, _hashable(item)) for name, item in value.items()))
    if isinstance(value, list):
        return tuple(_hashable(item) for item in value)
    return value


def save_runs(paper_key, plan, runs_of, kind="plug-in"):
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
    runs_path(paper_key, kind).write_text(json.dumps(runs, indent=1) + "\n")


def load_runs(paper_key, kind="plug-in"):
    """The committed runs of each planned claim (:func:`save_runs`): claim id -> list of run-key tuples; empty for
    a paper without a runs file."""
    path = runs_path(paper_key, kind)
    if not provenance.looked_for(path):
        return {}
    return {claim_id: [_hashable(key) for key in keys] for claim_id, keys in json.loads(path.read_text()).items()}


def fresh_seeds_of_runs(paper_key, kind="plug-in"):
    """Run key -> how many fresh seeds it runs under the plans in force for that kind (:func:`plan_in_force`): each
    planned claim's runs at its planned seeds, a run two claims share at the larger count."""
    seeds_of = {}
    for row in plan_in_force(paper_key, kind).itertuples(index=False):
        if not int(row.planned_seeds):
            continue
        runs = load_runs(paper_key, row.plan)
        if row.id not in runs:
            raise ValueError(f"the plan {plan_path(paper_key, row.plan)} gives {row.id!r} fresh seeds but "
                             f"{runs_path(paper_key, row.plan)} lists no runs for it: write both with save_plan")
        for key in runs[row.id]:
            seeds_of[key] = max(seeds_of.get(key, 0), int(row.planned_seeds))
    return seeds_of


def load_plan(paper_key, kind="plug-in"):
    """The committed plan of a paper (empty if it has none)."""
    path = plan_path(paper_key, kind)
    if not provenance.looked_for(path):
        return pd.DataFrame(columns=list(PLAN_COLUMNS))
    return pd.read_csv(path, keep_default_na=False)


def plan_in_force(paper_key, kind="plug-in"):
    """The committed plan a configuration of that kind judges its fresh seeds by, one row per claim, with a
    ``plan`` column naming the plan each row comes from.

    A powered configuration follows the powered plan, and keeps the plug-in plan's confirmation of a claim that the
    powered plan gives no fresh seeds (left out by its budget, or not inconclusive when it was drawn): those fresh
    seeds were planned and committed before they ran, and a later plan that does not cover the claim does not undo
    them. The rule looks only at which plan gives a claim seeds, never at what the seeds show (declared 2026-11-28,
    after egp_ts's powered regeneration had dropped seven completed plug-in confirmations from its table).
    """
    own = load_plan(paper_key, kind).assign(plan=kind)
    if kind == "plug-in":
        return own
    earlier = load_plan(paper_key, "plug-in").assign(plan="plug-in")
    covered = set(own.loc[own["planned_seeds"].astype(int) > 0, "id"])
    kept = earlier[(earlier["planned_seeds"].astype(int) > 0) & ~earlier["id"].isin(covered)]
    own = own[~own["id"].isin(kept["id"])]
    return pd.concat([own, kept], ignore_index=True)


def fresh_seeds(count):
    """The first ``count`` fresh seeds."""
    return range(SEED_OFFSET, SEED_OFFSET + int(count))


def split(table):
    """``(paper, fresh)``: the tidy table's runs on the paper's seeds and on fresh seeds."""
    fresh = table["seed"] >= SEED_OFFSET
    return table[~fresh], table[fresh]


def beside(verdicts, fresh_verdicts, plan):
    """The verdict table with its ``confirmatory`` column filled from the plan and the fresh-seed verdicts, and
    each complete confirmation in the headline.

    Parameters
    ----------
    verdicts : pandas.DataFrame
        The paper-scale verdict table.
    fresh_verdicts : pandas.DataFrame or None
        The same claims judged on the fresh seeds alone (None: no fresh runs loaded); where its ``attrs["effects"]``
        holds the judged cells, the column gives the most seeds a claim's cells were judged on.
    plan : pandas.DataFrame
        :func:`plan_in_force`'s plan (or :func:`load_plan`'s); a row that a powered configuration keeps from the
        plug-in plan says so.

    Returns
    -------
    pandas.DataFrame
        Where every planned fresh seed of a claim ran and was judged, the fresh verdict is the claim's ``verdict``
        (with its effect, seeds to decide and reason first), and the paper-scale verdict moves to ``exploratory``
        (issue 40: a confirmation on fresh seeds outranks the sample it was planned from). A confirmation not yet
        complete leaves the paper-scale verdict in the headline. ``attrs["confirmatory_effects"]`` holds the fresh
        seeds' cells of the claims whose headline they decide (:func:`common.verdict_tables.save_verdicts` writes them to
        ``figures/<key>/effects_confirmatory.csv``).
    """
    fresh = pd.DataFrame(columns=["id", "verdict"]).set_index("id") if fresh_verdicts is None else \
        fresh_verdicts.set_index("id")
    # The fresh seeds a verdict rests on: more than planned where another claim's plan ran the same runs further.
    cells = None if fresh_verdicts is None else fresh_verdicts.attrs.get("effects")
    judged_seeds = {} if cells is None or not len(cells) else cells.groupby("id")["seeds"].max().to_dict()
    found = verdicts.copy()
    found.attrs = dict(verdicts.attrs)
    if "exploratory" not in found:
        found["exploratory"] = ""
    headline = []
    for row in plan.itertuples(index=False):
        at = found["id"] == row.id
        if not at.any():
            continue
        ran = row.id in fresh.index and fresh.loc[row.id, "verdict"] != "not run at this scale"
        seeds = int(judged_seeds.get(row.id, row.planned_seeds)) if ran else 0
        if not row.planned_seeds:
            text = row.note
        elif ran:
            effect = fresh.loc[row.id, "effect"] if "effect" in fresh else ""
            outcome = fresh.loc[row.id, "verdict"] + (f" ({effect})" if isinstance(effect, str) and effect else "")
            if seeds == row.planned_seeds:
                text = f"{seeds} fresh seeds: {outcome}"
            elif seeds > row.planned_seeds:
                text = (f"{seeds} fresh seeds ({row.planned_seeds} planned; more ran for another claim's plan): "
                        f"{outcome}")
            else:
                text = f"{seeds} fresh seeds (of {row.planned_seeds} planned, the rest not yet run): {outcome}"
        else:
            text = f"planned: {row.planned_seeds} fresh seeds, not yet run"
        if getattr(row, "plan", "plug-in") == "plug-in" and "powered" in set(getattr(plan, "plan", ())):
            text = f"by the plug-in plan (the powered plan gives it no fresh seeds): {text}"
        found.loc[at, "confirmatory"] = f"paper scale {row.paper_seeds} seeds; {text}"
        if row.planned_seeds and ran and seeds >= row.planned_seeds:
            _headline(found, at, fresh.loc[row.id], seeds, row.paper_seeds)
            headline.append(row.id)
    # The cells that decide a headline verdict: the fresh seeds' where a confirmation is in the headline.
    if cells is not None and len(cells):
        found.attrs["confirmatory_effects"] = cells[cells["id"].isin(headline)].reset_index(drop=True)
    return found


def _headline(found, at, fresh, seeds, paper_seeds):
    """Put a complete confirmation in the headline of the rows ``at``, the paper-scale verdict in ``exploratory``."""
    before = found.loc[at].iloc[0]
    found.loc[at, "exploratory"] = before["verdict"]
    found.loc[at, "verdict"] = fresh["verdict"]
    for column in ("effect", "seeds_to_decide"):
        if column in found and column in fresh:
            found.loc[at, column] = fresh[column]
    found.loc[at, "reason"] = (f"confirmatory, {seeds} fresh seeds: {fresh['reason']} Exploratory, {paper_seeds} "
                               f"paper seeds ({before['verdict']}): {before['reason']}")
    # A rule or threshold that moved the fresh verdict is disclosed beside the headline it moved.
    if "disclosure" in found and isinstance(fresh.get("disclosure"), str) and fresh["disclosure"]:
        found.loc[at, "disclosure"] = "; ".join(filter(None, (f"on the fresh seeds: {fresh['disclosure']}",
                                                               before["disclosure"] and
                                                               f"on the paper's seeds: {before['disclosure']}")))


# --------------------------------------------------------------------------- plans for power (issue 40)
#: The powered plans' rule, declared 2026-11-28 before any plan was drawn with it. A claim is planned at the fewest
#: seeds of SEED_STEPS at which at least POWER of SIMULATIONS simulated fresh samples reach a verdict (anything but
#: "inconclusive"); each simulated seed is a pilot seed drawn with replacement (all cells of a claim share the draw)
#: with the claim's effect shrunk to SHRINK of its size (on the log scale for a ratio), the spread kept, so that a pilot's lucky effect does not make the
#: plan too small; the seeds found are multiplied by the pilot's variance inflation (SPREAD_CONFIDENCE, its
#: spread's upper confidence limit) and rounded up to a step; claims are priced from the pilot's CPU seconds and admitted cheapest first within
#: POWERED_CPU_HOURS a paper, with no cap on seeds.
POWER = 0.8
SHRINK = 0.5
SIMULATIONS = 100
SEED_STEPS = (10, 15, 20, 30, 40, 60, 80, 120, 160, 240, 320, 480, 640, 960, 1280, 1920, 2560)
POWERED_CPU_HOURS = 3.0
SIMULATION_SEED = 20261128
#: The confidence of the pilot spread's upper limit a plan is made for (:func:`variance_inflation`).
SPREAD_CONFIDENCE = 0.8
UNDECIDED = ("inconclusive", "not run at this scale")


def shrunk(a, b, scale, shrink=SHRINK, tie_tolerance=stats.TIE_TOLERANCE):
    """a's per-seed values moved so that the effect of a against b keeps the share ``shrink`` of its size, with
    the spread of the per-seed effects kept and tied seeds left tied.

    On the ratio scale the untied values of a are multiplied by one factor, so that ``mean(a) / mean(b)`` becomes
    its ``shrink``-th power; on the difference scale they are shifted by one amount, so that ``mean(a) - mean(b)``
    becomes ``shrink`` times itself. (Scaling each seed's own effect instead would shrink the spread with it, and
    the simulated samples would decide far more often than real ones.)
    """
    a, b = np.asarray(a, dtype=float), np.asarray(b, dtype=float)
    untied = np.abs(a - b) > tie_tolerance * (1.0 + np.maximum(np.abs(a), np.abs(b)))
    if not untied.any():
        return a
    if scale == "ratio":
        if a.sum() == 0 or b.sum() == 0 or a[untied].sum() == 0:
            return a
        target = (a.sum() / b.sum()) ** shrink * b.sum()
        factor = max(target - a[~untied].sum(), 0.0) / a[untied].sum()
        return np.where(untied, a * factor, a)
    shift = (1 - shrink) * (a.sum() - b.sum()) / untied.sum()
    return np.where(untied, a - shift, a)


def paired_sizes(spec, table, params):
    """The number of seeds of each paired comparison a claim's measure makes on ``table`` (empty: the measure
    compares no paired seeds, and no simulation can plan it)."""
    sizes = []

    def record(a, b, scale):
        sizes.append(a.size)
        return a, b

    with stats.simulated_samples(record):
        spec.evaluate(table, params)
    return sizes


def decision_rate(spec, table, params, n_seeds, *, n_simulations=SIMULATIONS, shrink=SHRINK, seed=SIMULATION_SEED):
    """The share of simulated fresh samples of ``n_seeds`` seeds on which the claim reaches a verdict.

    Parameters
    ----------
    spec : common.claims.ClaimSpec
        The claim, judged by its own measure (``spec.evaluate``).
    table : pandas.DataFrame
        The pilot: the paper-scale runs the claim was judged inconclusive on.
    params : dict
        The resolved parameters.
    n_seeds : int
        Fresh seeds of one simulated sample.
    n_simulations : int
        Samples simulated.
    shrink : float in [0, 1]
        The share of each pilot seed's effect kept (:func:`shrunk`).
    seed : int
        Seeds the draws, with ``n_seeds``: equal arguments give equal rates.

    Returns
    -------
    float
        Decided samples / ``n_simulations``. Every paired comparison of the measure compares the same resampled
        seeds (one draw per simulated sample and pilot size), so that the cells of a claim stay as dependent as
        the pilot's.
    """
    if int(n_seeds) != n_seeds or n_seeds < 2:
        raise ValueError(f"n_seeds must be an integer >= 2; got {n_seeds!r}")
    if not 0 <= shrink <= 1:
        raise ValueError(f"shrink must be in [0, 1] (the share of the pilot's effect kept); got {shrink!r}")
    rng = np.random.default_rng([seed, int(n_seeds)])
    decided = 0
    for _ in range(n_simulations):
        picks = {}

        def resample(a, b, scale):
            if a.size not in picks:
                picks[a.size] = rng.integers(0, a.size, int(n_seeds))
            return shrunk(a, b, scale, shrink)[picks[a.size]], b[picks[a.size]]

        with stats.simulated_samples(resample), stats.unrefined_intervals():
            decided += spec.evaluate(table, params).verdict not in UNDECIDED
    return decided / n_simulations


def variance_inflation(pilot_seeds, confidence=SPREAD_CONFIDENCE):
    """How many times more seeds a plan takes than the simulation asks for: the pilot's variance's upper confidence
    limit over the variance, ``(m - 1) / chi2_{1 - confidence}(m - 1)`` for ``m`` pilot seeds (Browne 1995, "On the
    use of a pilot sample for sample size determination"): 1.67 at 10 seeds, 1.38 at 20, 1.24 at 40.

    A resample of a small pilot rarely holds the heavy tail that a real sample of regrets has, so a simulation from
    it alone plans too few seeds (in a lognormal toy world, 40 % of such plans decided).
    """
    if pilot_seeds < 2:
        raise ValueError(f"pilot_seeds must be >= 2 (a spread needs two seeds); got {pilot_seeds!r}")
    return float((pilot_seeds - 1) / scipy_stats.chi2.ppf(1 - confidence, pilot_seeds - 1))


def powered_seeds(spec, table, params, affordable, **options):
    """``(seeds, rate)``: the planned seeds and the simulated share decided.

    The fewest seeds ``n`` of :data:`SEED_STEPS` whose :func:`decision_rate` reaches :data:`POWER`, times the
    pilot's :func:`variance_inflation`, rounded up to a step; only counts ``affordable(seeds)`` allows are tried.
    ``(None, rate at the last count tried)`` if none reaches the power within them.
    """
    inflation = variance_inflation(min(paired_sizes(spec, table, params)))
    rate = float("nan")
    for seeds in SEED_STEPS:
        planned = next((step for step in SEED_STEPS if step >= seeds * inflation), None)
        if planned is None or not affordable(planned):
            break
        rate = decision_rate(spec, table, params, seeds, **options)
        if rate >= POWER:
            return planned, rate
    return None, rate


def make_powered_plan(specs, table, params, paper_seeds, cost_of, *, cpu_hours=POWERED_CPU_HOURS, **options):
    """A powered plan (:data:`PLANS`) for the claims ``specs``, admitted cheapest first within ``cpu_hours``.

    Parameters
    ----------
    specs : list of common.claims.ClaimSpec
        The claims to plan: those inconclusive at the paper's scale.
    table : pandas.DataFrame
        The paper-scale runs (the pilot), without fresh seeds.
    params : dict
        The resolved parameters.
    paper_seeds : mapping of str to int
        Claim id -> the seeds its paper-scale verdict rests on.
    cost_of : callable
        ``cost_of(claim_id, seeds)`` -> CPU seconds of that many fresh seeds of the claim's runs.
    cpu_hours : float
        The paper's budget; a claim whose seeds would cost more alone is not simulated further.
    **options
        Passed to :func:`decision_rate` (``n_simulations``, ``shrink``, ``seed``).

    Returns
    -------
    pandas.DataFrame
        :data:`PLAN_COLUMNS` and ``decision_rate`` (the simulated share decided at the planned seeds; at the last
        count tried for a claim left out).
    """
    rows, costs = [], {}
    for spec in tqdm(specs, desc="simulating plans", unit="claim"):
        row = {"id": spec.id, "paper_seeds": int(paper_seeds[spec.id])}
        if not paired_sizes(spec, table, params):
            rows.append({**row, "seeds_to_decide": "", "planned_seeds": 0, "decision_rate": "",
                         "note": "left out: its measure compares no paired seeds, so no simulation can plan it"})
            continue
        seeds, rate = powered_seeds(spec, table, params, lambda n: cost_of(spec.id, n) <= cpu_hours * 3600,
                                    **options)
        if seeds is None:
            tried = max((n for n in SEED_STEPS if cost_of(spec.id, n) <= cpu_hours * 3600), default=0)
            rows.append({**row, "seeds_to_decide": f"more than {tried}", "planned_seeds": 0,
                         "decision_rate": round(rate, 2) if tried else "",
                         "note": f"left out: {tried} seeds decide {rate:.0%} of simulated samples and more would "
                                 f"cost over {cpu_hours:g} CPU-hours" if tried else
                                 f"left out: {SEED_STEPS[0]} seeds cost over {cpu_hours:g} CPU-hours"})
            continue
        costs[spec.id] = cost_of(spec.id, seeds)
        rows.append({**row, "seeds_to_decide": seeds, "planned_seeds": seeds, "decision_rate": round(rate, 2),
                     "note": ""})
    plan = pd.DataFrame(rows, columns=[*PLAN_COLUMNS, "decision_rate"])
    return admit_cheapest_first(plan, costs, cpu_hours)


def write_powered_plan(paper_key, specs, table, params, paper_seeds, cost_of, runs_of, **options):
    """Draw and save a paper's powered plan (``data/confirmatory/powered/<key>.csv`` and its runs file) for the
    claims of ``specs`` that its published verdicts (``figures/<key>/verdicts.csv``) call inconclusive at the
    paper's scale (the exploratory verdict where a confirmation is in the headline); return it.

    ``table`` holds the paper-scale runs (fresh seeds are dropped here); ``paper_seeds``, ``cost_of`` and
    ``options`` as :func:`make_powered_plan` takes them, ``runs_of`` as :func:`save_runs` (a claim for which it
    raises ValueError has no runs a grid could repeat, and is not planned).
    """
    verdicts = pd.read_csv(paths.figures_dir(paper_key) / "verdicts.csv", keep_default_na=False)
    exploratory = verdicts["exploratory"] if "exploratory" in verdicts else pd.Series("", index=verdicts.index)
    paper_scale = exploratory.where(exploratory != "", verdicts["verdict"])
    inconclusive = set(verdicts.loc[paper_scale == "inconclusive", "id"])
    pilot, _ = split(table)
    plan = make_powered_plan([spec for spec in specs if spec.id in inconclusive and _has_runs(runs_of, spec.id)],
                             pilot, params, paper_seeds, cost_of, **options)
    save_plan(paper_key, plan, runs_of, "powered")
    return plan


def _has_runs(runs_of, claim_id):
    try:
        runs_of(claim_id)
    except ValueError:
        return False
    return True
