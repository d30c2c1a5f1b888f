"""Scoring the arena's runs: final values, ranks and the critical difference, the field's scores, the ideas' effects.

Everything here reads the tidy table of the arena's runs (:func:`common.store.tidy_table`): each method's rank on
each problem and the Friedman test over the problems with the Nemenyi critical difference (Demšar 2006); the ranks at
smaller budgets, Bayesmark's normalized score, COCO's anytime view and the cost against the rank (issue 42); each
paper's idea switched on against off, and every method against the strong reference, seed by seed.
"""
import numpy as np

from common import judging, stats
from common.experiments.arena_methods import IDEAS, METHODS, REFERENCE, STRONG_REFERENCE
from common.experiments.arena_suite import SPEC_OF, ordered_problems


# --------------------------------------------------------------------------- tables of the runs
def final_values(table):
    """One row per run: ``problem``, ``method``, ``seed``, its final ``regret``, ``run_cpu_seconds`` and
    ``unique_points``.

    Parameters
    ----------
    table : pandas.DataFrame
        The tidy table of arena runs (:func:`common.store.tidy_table`).

    Returns
    -------
    pandas.DataFrame
    """
    from common.store import final_rows

    finals = final_rows(table)
    return finals[["problem", "method", "seed", "regret", "run_cpu_seconds", "unique_points"]].reset_index(drop=True)


def per_seed(finals, problem, method, column="regret"):
    """One problem's and method's values by seed, a Series indexed by seed."""
    chosen = finals[(finals["problem"] == problem) & (finals["method"] == method)]
    return chosen.set_index("seed")[column].astype(float)


def versus(finals, problem, method, other, column="regret"):
    """``method`` against ``other`` on one problem, seed by seed: the ratio of their mean final ``column`` (lower is
    better) with its interval (:func:`common.stats.paired_by_seed`), or None where either did not run."""
    return stats.paired_by_seed(per_seed(finals, problem, method, column), per_seed(finals, problem, other, column),
                                higher_is_better=False, scale="ratio")


def whole_methods(table, params):
    """The runs of the comparison of whole methods: the methods of :data:`~common.experiments.arena_methods.METHODS`
    on seeds 0 .. ``n_seeds`` - 1 (the twins' runs, and their methods' seeds beyond ``n_seeds``, left out)."""
    return table[table["method"].isin(METHODS) & (table["seed"] < params["n_seeds"])]


# --------------------------------------------------------------------------- ranks and the critical difference
#: Significance level of the Friedman test and of the Nemenyi critical difference.
RANK_ALPHA = 0.05


def methods_in_order(names):
    """``names`` in the order of :data:`~common.experiments.arena_methods.METHODS` (unknown names last, as given)."""
    order = {name: i for i, name in enumerate(METHODS)}
    return sorted(dict.fromkeys(names), key=lambda name: order.get(name, len(order)))


def seed_ranks(finals):
    """Each method's rank on each (problem, seed) by final regret: 1 the lowest, ties sharing their mean rank.

    Only the seeds on which every method of the problem ran are ranked (complete blocks).

    Parameters
    ----------
    finals : pandas.DataFrame
        :func:`final_values` of the runs.

    Returns
    -------
    pandas.DataFrame
        Columns ``problem``, ``seed``, ``method``, ``rank``.
    """
    import pandas as pd

    frames = []
    for problem, runs in finals.groupby("problem", sort=False):
        wide = runs.pivot(index="seed", columns="method", values="regret").dropna(axis=0, how="any")
        ranked = wide.rank(axis=1, method="average").reset_index().melt(id_vars="seed", value_name="rank")
        frames.append(ranked.assign(problem=problem))
    columns = ["problem", "seed", "method", "rank"]
    return pd.concat(frames, ignore_index=True)[columns] if frames else pd.DataFrame(columns=columns)


def rank_summary(ranks, n_resamples=None):
    """The mean rank of each method on each problem with a 95 % interval over the seeds.

    The interval is the expanded percentile bootstrap of the project (:func:`common.stats.expanded_tail`):
    the seeds (blocks) resampled with replacement, the mean rank recomputed.

    Parameters
    ----------
    ranks : pandas.DataFrame
        :func:`seed_ranks`.
    n_resamples : int, optional
        Default :data:`common.stats.N_RESAMPLES`.

    Returns
    -------
    pandas.DataFrame
        Columns ``problem``, ``method``, ``seeds``, ``mean_rank``, ``low``, ``high`` (NaN with one seed).
    """
    import pandas as pd
    from common import stats

    n_resamples = stats.N_RESAMPLES if n_resamples is None else n_resamples
    rows = []
    for problem, chosen in ranks.groupby("problem", sort=False):
        wide = chosen.pivot(index="seed", columns="method", values="rank")
        values, n_seeds = wide.to_numpy(), len(wide)
        low = high = np.full(values.shape[1], np.nan)
        if n_seeds > 1:
            rng = np.random.default_rng(stats.BOOTSTRAP_SEED)
            resampled = values[rng.integers(0, n_seeds, size=(n_resamples, n_seeds))].mean(axis=1)
            tail = stats.expanded_tail(n_seeds)
            low, high = np.quantile(resampled, [tail, 1 - tail], axis=0)
        for column, method in enumerate(wide.columns):
            rows.append({"problem": problem, "method": method, "seeds": n_seeds,
                         "mean_rank": values[:, column].mean(), "low": low[column], "high": high[column]})
    return pd.DataFrame(rows, columns=["problem", "method", "seeds", "mean_rank", "low", "high"])


def problem_ranks(summary):
    """Each problem's ranking of the methods by their mean rank over its seeds (1 the best; ties share their mean
    rank): a DataFrame of problems x methods, over the methods that ran on every problem. The blocks of the
    Friedman test (:func:`critical_difference`)."""
    wide = summary.pivot(index="problem", columns="method", values="mean_rank").dropna(axis=1, how="any")
    return wide.rank(axis=1, method="average")


def rank_table(summary, problems):
    """The rank table for the notebook: a row per method, its average rank over the problems (each problem's
    ranking by mean rank, :func:`problem_ranks`, averaged: the statistic of §5's Friedman test), then a column per
    problem with the mean rank over the seeds and its interval ("3.2 [2.6, 3.9]"); best first."""
    import pandas as pd

    text = summary.assign(cell=[f"{m:.2f}" + ("" if np.isnan(lo) else f" [{lo:.1f}, {hi:.1f}]")
                                for m, lo, hi in zip(summary["mean_rank"], summary["low"], summary["high"])])
    table = text.pivot(index="method", columns="problem", values="cell").reindex(columns=problems)
    average = problem_ranks(summary).mean(axis=0).sort_values()
    table = table.loc[[*average.index, *[name for name in table.index if name not in average.index]]]
    table.insert(0, "average rank over the problems", average.reindex(table.index).map("{:.2f}".format))
    return pd.DataFrame(table).reset_index()


def critical_difference(summary, alpha=RANK_ALPHA):
    """The Friedman test over the problems and the Nemenyi critical difference (Demšar 2006).

    Each problem is one block: its methods ranked by their mean rank over the seeds (:func:`rank_summary`); the
    methods' average ranks over the problems are compared. Two methods whose average ranks differ by less than

        CD = q_alpha sqrt(k (k + 1) / (6 N)),   q_alpha = the studentized range's 1 - alpha quantile / sqrt(2),

    (k methods, N problems; scipy.stats.studentized_range) are not told apart at level ``alpha``.

    Returns
    -------
    dict
        ``average_ranks`` (Series, best first), ``cd``, ``statistic`` and ``p_value`` of the Friedman test (NaN
        with fewer than 2 problems or 3 methods), ``n_problems``, ``n_methods``.
    """
    from scipy import stats as scipy_stats

    reranked = problem_ranks(summary)
    n_problems, n_methods = reranked.shape
    average = reranked.mean(axis=0).sort_values()
    statistic = p_value = np.nan
    if n_problems >= 2 and n_methods >= 3:
        statistic, p_value = scipy_stats.friedmanchisquare(*[reranked[name].to_numpy() for name in reranked.columns])
    q_alpha = scipy_stats.studentized_range.ppf(1 - alpha, n_methods, np.inf) / np.sqrt(2) if n_methods >= 2 \
        else np.nan
    cd = q_alpha * np.sqrt(n_methods * (n_methods + 1) / (6.0 * max(n_problems, 1)))
    return {"average_ranks": average, "cd": float(cd), "statistic": float(statistic), "p_value": float(p_value),
            "n_problems": int(n_problems), "n_methods": int(n_methods)}


def untold_groups(average_ranks, cd):
    """The maximal runs of methods (in rank order) whose average ranks lie within ``cd`` of each other: the
    critical-difference figure's bars. Returns a list of lists of method names (runs of one method left out)."""
    names, values = list(average_ranks.index), average_ranks.to_numpy()
    groups, reach = [], -1
    for start in range(len(names)):
        end = start
        while end + 1 < len(names) and values[end + 1] - values[start] < cd:
            end += 1
        if end > start and end > reach:
            groups.append(names[start:end + 1])
            reach = end
    return groups


# --------------------------------------------------------------------------- the field's scoring (issue 42)
#: The budgets at which the methods are also ranked (evaluations, the initial design included).
INTERMEDIATE_BUDGETS = (25, 50, 100)
#: The anytime view's targets per problem: this many regrets, log-uniform over :data:`TARGET_DECADES` decades below
#: the median regret of the shared initial design, so that no method's runs move them.
N_TARGETS = 31
TARGET_DECADES = 6


def values_at(table, evaluations):
    """One row per run that made ``evaluations`` evaluations (the initial design included): ``problem``,
    ``method``, ``seed`` and its simple ``regret`` then, as :func:`final_values` gives them at the budget."""
    rows = table[table["eval"] == evaluations - 1]
    return rows[["problem", "method", "seed", "regret"]].reset_index(drop=True)


def ranks_at_budgets(table, budgets=INTERMEDIATE_BUDGETS):
    """Each method's average rank over the problems (:func:`problem_ranks`, the statistic of the Friedman test)
    when every run is stopped after each of ``budgets`` evaluations: a DataFrame, methods x budgets, best at the
    largest budget first; a budget no run reaches is left out."""
    import pandas as pd

    columns = {}
    for budget in budgets:
        at = values_at(table, budget)
        if not at.empty:
            mean_ranks = seed_ranks(at).groupby(["problem", "method"])["rank"].mean().rename("mean_rank").reset_index()
            columns[f"average rank at {budget}"] = problem_ranks(mean_ranks).mean()
    ranks = pd.DataFrame(columns)
    return ranks.sort_values(list(ranks.columns)[-1]).rename_axis("method").reset_index() if columns else ranks


def normalized_scores(table, evaluations, reference="Random search", n_resamples=None):
    """Bayesmark's normalized score at ``evaluations`` evaluations: per problem and run, 1 - regret / the mean
    regret of ``reference``'s runs there (1 at the optimum, 0 at random search's mean, below 0 worse than it).

    Returns ``(per_problem, overall)``: the mean score per (problem, method) over its seeds, and per method the
    mean over the problems with two 95 % intervals: ``low``/``high`` for these problems (the seeds of every
    problem resampled, each problem apart: the expanded percentile bootstrap of :func:`common.stats.expanded_tail`
    at the fewest seeds), and ``low``/``high (problems resampled too)`` for a suite like this one (the problems
    drawn with replacement, then each one's seeds; expanded at the number of problems), best first. A problem where
    the reference's mean regret is 0 has no score and is left out (``overall`` says how many problems count).
    """
    import pandas as pd
    from common import stats

    n_resamples = stats.N_RESAMPLES if n_resamples is None else n_resamples
    at = values_at(table, evaluations)
    baseline = at[at["method"] == reference].groupby("problem")["regret"].mean()
    baseline = baseline[baseline > 0]
    at = at[at["problem"].isin(baseline.index)].assign(
        score=lambda frame: 1.0 - frame["regret"] / frame["problem"].map(baseline))
    per_problem = at.groupby(["problem", "method"], sort=False)["score"].mean().rename("mean score").reset_index()
    rng = np.random.default_rng(stats.BOOTSTRAP_SEED)
    # Its own stream, so that the seeds-only intervals stay the numbers they were before problems were resampled.
    problem_rng = np.random.default_rng([stats.BOOTSTRAP_SEED, 1])
    rows = []
    for method, runs in at.groupby("method", sort=False):
        by_problem = [group["score"].to_numpy() for _, group in runs.groupby("problem", sort=False)]
        means = np.mean([scores.mean() for scores in by_problem])
        per_problem_draws = np.array([scores[rng.integers(0, len(scores), size=(n_resamples, len(scores)))]
                                      .mean(axis=1) for scores in by_problem])
        resampled = np.mean(per_problem_draws, axis=0)
        fewest = min(len(scores) for scores in by_problem)
        tail = stats.expanded_tail(fewest) if fewest > 1 else None  # one seed says nothing about the spread
        low, high = np.quantile(resampled, [tail, 1 - tail]) if tail else (np.nan, np.nan)
        # Two stages: the problems drawn with replacement, then each drawn problem's seeds (its draw above).
        n_problems = len(by_problem)
        chosen = problem_rng.integers(0, n_problems, size=(n_resamples, n_problems))
        both = per_problem_draws[chosen, np.arange(n_resamples)[:, None]].mean(axis=1)
        problem_tail = stats.expanded_tail(n_problems) if n_problems > 1 else None
        low_both, high_both = (np.quantile(both, [problem_tail, 1 - problem_tail]) if problem_tail
                               else (np.nan, np.nan))
        rows.append({"method": method, "problems": n_problems, "mean normalized score": means,
                     "low": low, "high": high, "low (problems resampled too)": low_both,
                     "high (problems resampled too)": high_both})
    overall = pd.DataFrame(rows).sort_values("mean normalized score", ascending=False, ignore_index=True)
    return per_problem, overall


def scores_table(scores):
    """:func:`normalized_scores`' ``overall`` for reading, rounded to 3 digits, each interval in one column as
    "[low, high]"."""
    shown = scores.round(3)
    interval = {"95 % interval (these problems)": ("low", "high"),
                "95 % interval (problems resampled too)": ("low (problems resampled too)",
                                                           "high (problems resampled too)")}
    for name, (low, high) in interval.items():
        shown[name] = [f"[{a:g}, {b:g}]" for a, b in zip(shown[low], shown[high])]
    return shown[["method", "problems", "mean normalized score", *interval]]


#: The per-dimension breakdown's groups: (label, smallest d, largest d).
DIMENSION_GROUPS = (("d <= 4", 1, 4), ("5 <= d <= 9", 5, 9), ("d >= 10", 10, np.inf))


def by_dimension(per_problem, summary):
    """Each method's mean normalized score (``per_problem`` of :func:`normalized_scores`) and average rank
    (:func:`problem_ranks` of ``summary``, each problem's ranking among every method) over the problems of each
    group of :data:`DIMENSION_GROUPS`: a row per method, best overall average rank first, two columns per group
    (the group's label says how many problems it holds); a group without problems is left out."""
    import pandas as pd

    ranks = problem_ranks(summary)
    order = ranks.mean(axis=0).sort_values().index
    columns = {}
    for label, lowest, highest in DIMENSION_GROUPS:
        problems = [name for name in ranks.index if lowest <= SPEC_OF[name].dim <= highest]
        if not problems:
            continue
        scores = per_problem[per_problem["problem"].isin(problems)].groupby("method")["mean score"].mean()
        name = f"{label} ({len(problems)} problems)"
        columns[f"score, {name}"] = scores.reindex(order)
        columns[f"rank, {name}"] = ranks.loc[problems].mean(axis=0).reindex(order)
    return pd.DataFrame(columns).rename_axis("method").reset_index()


def standing(table, evaluations):
    """Each whole method's standing on a suite: its average rank over the problems (:func:`critical_difference`,
    the Friedman test's statistic), its mean normalized score at ``evaluations`` (:func:`normalized_scores`) and the
    median CPU seconds of its runs, best rank first; returns ``(standing, found)`` with the critical difference's
    dict."""
    finals = final_values(table)
    found = critical_difference(rank_summary(seed_ranks(finals)))
    _, scores = normalized_scores(table, evaluations)
    scores = scores.drop(columns=["low (problems resampled too)", "high (problems resampled too)"])
    ranks = found["average_ranks"].rename("average rank").rename_axis("method").reset_index()
    ranks = ranks.merge(scores, on="method", how="left")
    ranks["CPU s per run (median)"] = ranks["method"].map(finals.groupby("method")["run_cpu_seconds"].median())
    return ranks, found


def targets(table):
    """Per problem, :data:`N_TARGETS` regrets, log-uniform from the median regret of the initial design (shared by
    every method, so the targets do not move when a method is added or its runs change) down to
    10^-:data:`TARGET_DECADES` of it, COCO's fixed targets on the problem's own scale."""
    initial = table[table["iteration"] == 0].groupby(["problem", "seed"])["regret"].min().groupby("problem").median()
    return {problem: np.geomspace(high, high * 10.0 ** -TARGET_DECADES, N_TARGETS)
            for problem, high in initial.items() if high > 0}


def _targets_reached(table, goals):
    """Per run of a problem with targets: its method, problem, the number of the problem's targets its run has
    reached after each evaluation, and its CPU seconds so far at each evaluation (None where the run does not record
    them)."""
    for (method, problem, _), run in table[table["problem"].isin(goals)].groupby(["method", "problem", "seed"],
                                                                                sort=False):
        run = run.sort_values("eval")
        reached = (run["regret"].to_numpy()[:, None] <= goals[problem][None, :]).sum(axis=1)
        cpu = run["cpu_seconds_so_far"].to_numpy() if "cpu_seconds_so_far" in run else None
        yield method, problem, reached, None if cpu is None or np.isnan(cpu).any() else cpu


def anytime_curves(table):
    """COCO's anytime view: per method, the share of (problem, target, seed) triples whose target (:func:`targets`)
    its run has reached after each number of evaluations, over the problems and seeds it ran. A DataFrame, one
    column per method, indexed by the evaluations (the initial design included)."""
    import pandas as pd

    reached, totals = {}, {}
    for method, _, hits, _ in _targets_reached(table, targets(table)):
        before = reached.get(method)
        reached[method] = hits if before is None else before[:len(hits)] + hits[:len(before)]
        totals[method] = totals.get(method, 0) + N_TARGETS
    return pd.DataFrame({method: pd.Series(hits / totals[method], index=np.arange(1, len(hits) + 1))
                         for method, hits in reached.items()})


#: Points of the CPU-time axis of :func:`anytime_curves_by_cpu`, log-uniform over the runs' CPU seconds.
N_CPU_POINTS = 80


def anytime_curves_by_cpu(table):
    """COCO's anytime view against CPU time: per method, the share of (problem, target, seed) triples whose target
    its run has reached within each number of process CPU seconds since the run began (a run that ended keeps what
    it reached). Only the problems on which every run records its CPU seconds at each evaluation enter.

    Returns
    -------
    curves : DataFrame
        One column per method, indexed by CPU seconds (:data:`N_CPU_POINTS`, log-uniform from the first evaluation's
        to the dearest run's total); empty where no problem enters.
    left_out : list of str
        The problems left out (some run of theirs records no CPU seconds per evaluation).
    """
    import pandas as pd

    runs = list(_targets_reached(table, targets(table)))
    untimed = {problem for _, problem, _, cpu in runs if cpu is None}
    timed = [(method, hits, cpu) for method, problem, hits, cpu in runs if problem not in untimed]
    left_out = sorted(untimed | (set(table["problem"]) - {problem for _, problem, _, _ in runs}))
    if not timed:
        return pd.DataFrame(), left_out
    seconds = np.geomspace(max(min(cpu[0] for _, _, cpu in timed), 1e-3), max(cpu[-1] for _, _, cpu in timed),
                           N_CPU_POINTS)
    reached, totals = {}, {}
    for method, hits, cpu in timed:
        done = np.searchsorted(cpu, seconds, side="right")  # evaluations observed within each CPU time
        reached[method] = reached.get(method, 0) + np.where(done > 0, hits[np.maximum(done - 1, 0)], 0)
        totals[method] = totals.get(method, 0) + N_TARGETS
    return pd.DataFrame({method: hits / totals[method] for method, hits in reached.items()}, index=seconds), left_out


def cost_and_rank(finals, found):
    """Per method: the median and quartiles of its CPU seconds per run (all problems and seeds), its average rank
    over the problems (:func:`critical_difference`), best rank first, and the median number of distinct points a
    run queries (MINI-GP-UCB evaluates few candidates many times; a GP method may query a point again)."""
    import pandas as pd

    cpu = finals.groupby("method")["run_cpu_seconds"].quantile([0.25, 0.5, 0.75]).unstack()
    table = pd.DataFrame({"average rank": found["average_ranks"]})
    table["CPU s per run (median)"] = cpu[0.5].reindex(table.index)
    table["CPU s (25 %)"] = cpu[0.25].reindex(table.index)
    table["CPU s (75 %)"] = cpu[0.75].reindex(table.index)
    reference = table["CPU s per run (median)"].get(REFERENCE, np.nan)
    table["CPU vs GP-UCB"] = table["CPU s per run (median)"] / reference
    table["distinct points per run (median)"] = finals.groupby("method")["unique_points"].median().reindex(table.index)
    return table.rename_axis("method").reset_index()


# --------------------------------------------------------------------------- each idea on and off
def idea_comparisons(finals, idea, problem):
    """``{twin: PairedComparison}`` of ``idea``'s method against each of its twins on ``problem``, seed by seed, on
    final regret (a ratio of means below 1: the idea lowers the regret); twins that did not run left out."""
    found = {}
    for off in idea.off:
        comparison = stats.paired_by_seed(per_seed(finals, problem, idea.method), per_seed(finals, problem, off),
                                          higher_is_better=False, scale="ratio")
        if comparison is not None:
            found[off] = comparison
    return found


def strongest_twin(finals, idea, problem):
    """The twin of ``idea`` with the lowest mean final regret on ``problem`` (EGP-TS's best single kernel; the only
    twin of every other idea), or None where none ran."""
    means = {off: per_seed(finals, problem, off).mean() for off in idea.off}
    means = {off: value for off, value in means.items() if not np.isnan(value)}
    return min(means, key=means.get) if means else None


def _refined_near_no_effect(comparison):
    """The comparison with its interval refined where an end lies near no effect or the default margin
    (:func:`judging.refined`), as a hypothesis's cell at the default margin is, so that a table prints the
    interval its verdict was judged on."""
    return judging.refined(comparison, "better", judging.DEFAULT_MARGIN)


#: The outcome of an idea whose runs on and off made the same observations on every seed (MINI-GP-UCB's epochs where
#: its switching rule never lets an epoch last beyond one evaluation): not undecided, since there is nothing to decide.
NEVER_ACTS = "never acts"


def runs_alike(table, problem, on, off):
    """Whether ``on`` and ``off`` made the same observations ``y``, evaluation by evaluation, at every seed both ran
    on ``problem`` (the idea never acted), rather than only ending alike."""
    rows = table[(table["problem"] == problem) & table["method"].isin([on, off])]
    traces = {key: group.sort_values("eval")["y"].to_numpy() for key, group in rows.groupby(["method", "seed"])}
    seeds = {seed for method, seed in traces if method == on} & {seed for method, seed in traces if method == off}
    return bool(seeds) and all(np.array_equal(traces[(on, seed)], traces[(off, seed)]) for seed in seeds)


def idea_effects(table):
    """Each idea on against off, per problem and twin: a row with the seeds, both mean final regrets, the ratio of
    means (on / off) with its 95 % interval, the median seed's ratio, W/T/L (wins: the idea's run ends lower) and
    the outcome ("lower" or "higher" where the interval lies wholly on one side of 1, "never acts" where on and off
    made the same observations on every seed (:func:`runs_alike`), else "undecided"); the comparison itself in the
    ``comparison`` column.

    Parameters
    ----------
    table : pandas.DataFrame
        The tidy table of the arena's runs, the twins' included.

    Returns
    -------
    pandas.DataFrame (empty where no twin ran)
    """
    import pandas as pd

    finals = final_values(table)
    problems = ordered_problems(finals["problem"])
    rows = []
    for idea in IDEAS:
        for problem in problems:
            strongest = strongest_twin(finals, idea, problem)
            for off, comparison in idea_comparisons(finals, idea, problem).items():
                comparison = _refined_near_no_effect(comparison)
                on_values, off_values = comparison.values
                rows.append({"idea": idea.method, "twin": off, "problem": problem, "seeds": comparison.n,
                             "on (mean)": float(np.mean(on_values)), "off (mean)": float(np.mean(off_values)),
                             "on / off": str(comparison.effect), "median seed": str(comparison.typical),
                             "W/T/L": f"{comparison.wins}/{comparison.ties}/{comparison.losses}",
                             "outcome": (NEVER_ACTS if np.array_equal(on_values, off_values)
                                         and runs_alike(table, problem, idea.method, off)
                                         else stats.lower_or_higher(comparison)),
                             "strongest twin": off == strongest,
                             "comparison": comparison})
    return pd.DataFrame(rows)


def versus_reference_table(table, params, reference=STRONG_REFERENCE):
    """Every whole method against ``reference`` per problem, seed by seed on final regret: the ratio of means
    (method / reference) with its 95 % interval, the median seed's ratio, W/T/L (wins: the method ends lower) and
    the outcome ("lower", "higher" or "undecided"); empty where the reference did not run."""
    import pandas as pd

    finals = final_values(table[table["seed"] < params["n_seeds"]])
    problems = [name for name in ordered_problems(finals["problem"]) if name in SPEC_OF]
    rows = []
    for method in methods_in_order([name for name in finals["method"].unique() if name in METHODS]):
        for problem in problems:
            comparison = stats.paired_by_seed(per_seed(finals, problem, method), per_seed(finals, problem, reference),
                                              higher_is_better=False, scale="ratio")
            if comparison is None:
                continue
            comparison = _refined_near_no_effect(comparison)
            rows.append({"method": method, "problem": problem, "seeds": comparison.n,
                         "method / reference": str(comparison.effect), "median seed": str(comparison.typical),
                         "W/T/L": f"{comparison.wins}/{comparison.ties}/{comparison.losses}",
                         "outcome": stats.lower_or_higher(comparison)})
    return pd.DataFrame(rows)


def outcome_grid(versus):
    """:func:`versus_reference_table`'s outcomes as a grid: a row per method, a column per problem (suite order)."""
    grid = versus.pivot(index="method", columns="problem", values="outcome")
    grid = grid.reindex(index=methods_in_order(list(grid.index)),
                        columns=[name for name in ordered_problems(grid.columns) if name in SPEC_OF])
    return grid.reset_index()
