"""What the numbers show in the arena: which idea helps where, each sentence computed from the runs and the
verdict table of :mod:`common.experiments.arena_claims` (nothing typed in).
"""


from common import stats, verdict_tables
from common.experiments import arena_methods, arena_scoring, arena_suite
from common.experiments.arena_claims import what_ran


def _versus_reference(finals, method, problems):
    """``method`` against GP-UCB on each problem, seed by seed: problem -> PairedComparison (problems that ran)."""
    found = {}
    for problem in problems:
        comparison = arena_scoring.versus(finals, problem, method, arena_methods.REFERENCE, "regret")
        if comparison is not None:
            found[problem] = comparison
    return found



def _named(comparisons):
    return ", ".join(f"{problem} ({found.effect})" for problem, found in comparisons.items())



def method_sentence(finals, method, problems, summary, costs):
    """One bullet of "which idea helps where": where ``method`` beats GP-UCB, where it trails, its rank and cost."""
    comparisons = _versus_reference(finals, method, problems)
    if not comparisons:
        return None
    sides = {side: {problem: found for problem, found in comparisons.items() if stats.interval_side(found) == side}
             for side in ("better", "worse")}
    undecided = len(comparisons) - len(sides["better"]) - len(sides["worse"])
    rank = summary[summary["method"] == method].set_index("problem")["mean_rank"]
    cost = costs.set_index("method")
    text = f"* **{method}**"
    if method in cost.index:
        text += (f" (average rank {cost.loc[method, 'average rank']:.2f}; median "
                 f"{cost.loc[method, 'CPU s per run (median)']:.3g} CPU-s per run, "
                 f"{cost.loc[method, 'CPU vs GP-UCB']:.3g}x GP-UCB's)")
    text += (f": lower final regret than GP-UCB (the 95 % interval of the ratio of means below 1) on "
             f"{len(sides['better'])} of {len(comparisons)} problems"
             + (f": {_named(sides['better'])}" if sides["better"] else ""))
    against = [problem for side in ("better", "worse") for problem, found in sides[side].items()
               if _median_against_mean(found)]
    text += (f"; higher on {len(sides['worse'])}" + (f": {_named(sides['worse'])}" if sides["worse"] else "")
             + f"; undecided on {undecided}"
             + (f"; of the decided, the median seed points the other way on {', '.join(against)}" if against else "")
             + ".")
    best = rank.idxmin() if len(rank) else None
    if best is not None:
        text += f" Its best mean rank is on {best} ({rank[best]:.2f})."
    return text



def regime_sentence(summary):
    """Per regime of the suite, the methods with the lowest and the second-lowest average rank over its problems
    (each problem's ranking by mean rank, :func:`~common.experiments.arena_scoring.problem_ranks`); methods tied at a
    rank are named together."""
    ranks = arena_scoring.problem_ranks(summary)
    regimes = {}
    for name in arena_suite.ordered_problems(ranks.index):
        regimes.setdefault(arena_suite.SPEC_OF[name].regime.split(",")[0].split(" (")[0], []).append(name)

    def named(value, methods):
        methods = arena_scoring.methods_in_order(methods)
        return f"{methods[0]} ({value:.2f})" if len(methods) == 1 else f"{', '.join(methods)} tied ({value:.2f})"

    parts = []
    for regime, names in regimes.items():
        here = ranks.loc[[name for name in names if name in ranks.index]]
        if here.empty or here.shape[1] < 2:
            continue
        means = here.mean(axis=0).round(9)  # rounded: ties in exact rank arithmetic stay ties after averaging
        levels = [(value, list(means.index[means == value])) for value in sorted(means.unique())]
        parts.append(f"{regime} ({', '.join(here.index)}): {named(*levels[0])}"
                     + (f", then {named(*levels[1])}" if len(levels) > 1 else ""))
    return ("* **Per regime, the lowest average rank** (each problem's ranking of the methods, averaged over the "
            "regime's problems): " + "; ".join(parts) + ".")



def idea_sentences(effects):
    """"Which idea helps where", one bullet per idea, from its on/off effects
    (:func:`~common.experiments.arena_scoring.idea_effects`, against the strongest twin on each problem): where
    switching the idea on lowers the final regret, where it raises it, where the runs cannot tell, and on how many
    problems the median seed points the other way than the mean."""
    if effects.empty:
        return ["* **Each idea on and off:** no twin ran at these parameters (parameter ``idea_seeds``)."]
    bullets = []
    for idea in arena_methods.IDEAS:
        rows = effects[(effects["idea"] == idea.method) & effects["strongest twin"]]
        if rows.empty:
            continue
        named = {side: ", ".join(f"{row.problem} ({row.comparison.effect})" for row in rows.itertuples()
                                 if row.outcome == side) for side in ("lower", "higher")}
        counts = rows["outcome"].value_counts()
        against = sum(_median_against_mean(row.comparison) for row in rows.itertuples())
        twin = "its strongest single kernel" if len(idea.off) > 1 else "itself without it"
        bullets.append(
            f"* **{idea.method}'s idea** ({idea.idea}), against {twin}: lower final regret on "
            f"{counts.get('lower', 0)} of {len(rows)} problems" + (f" ({named['lower']})" if named["lower"] else "")
            + f", higher on {counts.get('higher', 0)}" + (f" ({named['higher']})" if named["higher"] else "")
            + f", undecided on {counts.get('undecided', 0)}"
            + (f", and it never acts on {counts[arena_scoring.NEVER_ACTS]} (on and off make the same observations "
               "on every seed)"
               if counts.get(arena_scoring.NEVER_ACTS, 0) else "")
            + f"; on {against} the median seed points the other way than the mean.")
    return bullets



def strong_reference_sentence(table, params):
    """Where the whole methods stand against the strong reference
    (:data:`~common.experiments.arena_methods.STRONG_REFERENCE`): per method, the problems where it ends lower or
    higher, and the reference's average rank were it ranked with them."""
    versus = arena_scoring.versus_reference_table(table, params)
    reference = arena_methods.STRONG_REFERENCE
    if versus.empty:
        return (f"* **Against the strong reference** ({reference}, random_exploration's GP-UCB): it did not run at "
                "these parameters (parameter ``idea_seeds``).")
    counts = versus.groupby("method")["outcome"].value_counts().unstack(fill_value=0)
    parts = [f"{method} {counts.loc[method].get('lower', 0)}/{counts.loc[method].get('higher', 0)}"
             for method in arena_scoring.methods_in_order(list(counts.index))]
    runs = table[(table["seed"] < params["n_seeds"])
                 & (table["method"].isin(arena_methods.METHODS) | (table["method"] == reference))]
    finals = arena_scoring.final_values(runs)
    ranked = arena_scoring.critical_difference(
        arena_scoring.rank_summary(arena_scoring.seed_ranks(finals)))["average_ranks"]
    return (f"* **Against the strong reference** ({reference}: random_exploration's GP-UCB, added after GP-UCB's runs "
            "were seen, and declared before its own runs were read): problems where each method ends lower / higher (the interval of the ratio of means wholly "
            "below / above 1): " + ", ".join(parts) + f". Ranked with the {len(ranked) - 1} methods, its average "
            f"rank would be {ranked[reference]:.2f} (the lowest: {ranked.index[0]}, {ranked.iloc[0]:.2f}).")



def _median_against_mean(comparison):
    """Whether the median seed's ratio and the ratio of means lie on opposite sides of 1."""
    if comparison.typical is None:
        return False
    return (comparison.effect.estimate - 1) * (comparison.typical.estimate - 1) < 0



def findings(table, params, verdicts):
    """"Which idea helps where", computed from the runs: each idea on and off inside its own method, the overall
    ranking of whole methods and its critical difference, the best methods per regime, and per method where it
    beats or trails GP-UCB, with its rank and cost.

    Parameters
    ----------
    table : pandas.DataFrame
        The tidy table of the arena's runs, the ideas' twins included.
    params : dict
        The resolved parameters.
    verdicts : pandas.DataFrame
        The verdict table of :func:`judge` on the same runs.

    Returns
    -------
    str (Markdown)
    """
    ideas = idea_sentences(arena_scoring.idea_effects(table))
    finals = arena_scoring.final_values(arena_scoring.whole_methods(table, params))
    summary = arena_scoring.rank_summary(arena_scoring.seed_ranks(finals))
    found = arena_scoring.critical_difference(summary)
    costs = arena_scoring.cost_and_rank(finals, found)
    average = found["average_ranks"]
    untold = [group for group in arena_scoring.untold_groups(average, found["cd"]) if average.index[0] in group]
    leaders = untold[0] if untold else [average.index[0]]
    problems = [name for name in params["problems"] if name in set(finals["problem"])]
    overall = (f"* **Overall.** Lowest average rank over the {found['n_problems']} problems: "
               + ", ".join(f"{name} ({value:.2f})" for name, value in average.iloc[:3].items())
               + f"; highest: {average.index[-1]} ({average.iloc[-1]:.2f}). Friedman test over the problems p = "
               f"{found['p_value']:.2g}; the Nemenyi critical difference is {found['cd']:.2f} ranks, so "
               + (f"{len(leaders) - 1} other methods are not told apart from {average.index[0]}"
                  if len(leaders) > 1 else f"{average.index[0]} is told apart from every other method") + ".")
    bullets = ideas + [overall, regime_sentence(summary), strong_reference_sentence(table, params)]
    bullets += [method_sentence(finals, method, problems, summary, costs)
                for method in arena_scoring.methods_in_order(finals["method"].unique())
                if method != arena_methods.REFERENCE]
    bullets.append(f"* **Hypotheses:** {verdict_tables.verdicts_of(verdicts, list(verdicts['id']))}.")
    return verdict_tables.findings_markdown(verdict_tables.scales_ran(what_ran(params)), bullets)
