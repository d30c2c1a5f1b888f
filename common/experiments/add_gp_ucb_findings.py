"""What the numbers show in add_gp_ucb: the notebook's findings, each bullet computed from the runs and the
verdict table of :mod:`common.experiments.add_gp_ucb_claims` (nothing typed in)."""
import numpy as np
import pandas as pd

from common import claims, confirmatory, stats, verdict_tables
from common.experiments import add_gp_ucb as experiment
from common.experiments.add_gp_ucb_claims import claim_specs, what_ran
from common.experiments.add_gp_ucb_measures import additive_variants, final_regrets, paired_cell


def _tally(values, cells, higher_is_better=False):
    """"better in b of n cells (...) and worse in w (...)" over (problem, ours, other) cells that ran: cells whose
    effect's interval lies wholly on one side of no difference."""
    found = {f"{problem} {ours} vs {other}": c for problem, ours, other in cells
             if (c := paired_cell(values, problem, ours, other, higher_is_better)) is not None}
    better = [f"{label} {c.effect}" for label, c in found.items() if stats.interval_side(c) == "better"]
    worse = [f"{label} {c.effect}" for label, c in found.items() if stats.interval_side(c) == "worse"]
    return (f"better (the effect's 95 % interval beyond no difference) in {len(better)} of {len(found)} cells"
            + (f" ({', '.join(better)})" if better else "")
            + f" and worse in {len(worse)}" + (f" ({', '.join(worse)})" if worse else ""))


def _block_verdicts(verdicts, block):
    ids = {spec.id for spec in claim_specs() if spec.block == block}
    return verdict_tables.format_counts(verdict_tables.verdict_counts(verdicts[verdicts["id"].isin(ids)]))


def _synthetic_bullets(table, params, verdicts):
    values = final_regrets(table[table["experiment"] == "synthetic"])
    problems = [problem for problem in params["configurations"] if (values["problem"] == problem).any()]
    if not problems:
        return []
    means = values.groupby(["problem", "method"])["value"].mean()
    lowest = "; ".join(f"{problem} {means[problem].idxmin()} {means[problem].min():.3g} (Add-* "
                       f"{means[problem].get('Add-*', np.nan):.3g}, GP-UCB {means[problem].get('GP-UCB', np.nan):.3g})"
                       for problem in problems)
    variants = [(problem, variant, "GP-UCB") for problem in problems for variant in additive_variants(params, problem)]
    return [
        f"* **Figs. 3, 4, the lowest mean final S_T per configuration.** {lowest}.",
        f"* **Against GP-UCB, seed by seed.** Add-*: {_tally(values, [(p, 'Add-*', 'GP-UCB') for p in problems])}. "
        f"The Add-d/M: {_tally(values, variants)}. DiRect (one deterministic run against each seed): "
        f"{_tally(values, [(p, 'DiRect', 'GP-UCB') for p in problems])}. Synthetic claims: "
        f"{_block_verdicts(verdicts, 'synthetic')}.",
    ]


def _real_world_bullet(table, params, verdicts):
    values = final_regrets(table[table["experiment"] == "real_world"], "best_so_far")
    problems = [problem for problem in params["real_world"] if (values["problem"] == problem).any()]
    if not problems:
        return None
    parts = []
    for problem in problems:
        means = values[values["problem"] == problem].groupby("method")["value"].mean().sort_values(ascending=False)
        parts.append(f"{problem}: " + ", ".join(f"{name} {value:.4g}" for name, value in means.items()))
    return (f"* **Fig. 5, the substitutes: mean final best value, highest first.** {'; '.join(parts)}. Real-world "
            f"claims: {_block_verdicts(verdicts, 'real_world')}.")


def _ablation_bullet(table, params):
    if not (table["experiment"] == "ablation").any():
        return None
    rows = experiment.ablation_table(table, params)
    parts = [f"{row['ablation']}, {row['method']}: {row['S_T default']:.3g} -> {row['S_T ablated']:.3g}, "
             f"{row['ratio']} ({row['outcome']})" for _, row in rows.iterrows()]
    ruled_out = rows[rows["within 1.1x"] == "yes"]
    undecided = rows[rows["outcome"] == "undecided"]
    seeds = sorted(set(rows["seeds"]))
    seeds = (f"{seeds[0]} paired seed{'s' if seeds[0] != 1 else ''}" if len(seeds) == 1
             else f"{seeds[0]} to {seeds[-1]} paired seeds")
    return (f"* **Single choices changed from the {params['settings']} settings (ablation, "
            f"{params['ablation_configuration']}, {seeds}).** Mean final S_T with the settings' choice -> the other, "
            f"and the ratio ablated / "
            f"default with its 95 % interval (lower or higher: the interval wholly below or above 1): "
            f"{'; '.join(parts)}. An effect of a factor 1.1 either way is ruled out (the interval within "
            f"[1/1.1, 1.1]) in {len(ruled_out)} of {len(rows)} cells; in the {len(undecided)} cells whose interval "
            f"holds 1, these seeds cannot rule out an effect of that size.")


def _settings_bullet(table, params, earlier, history):
    at = 50   # queries: within the first 25 BO iterations after the 10 initial points, the phase the settings move
    comparison = experiment.settings_comparison(table, earlier, at=at)
    if comparison.empty:
        return None
    outcomes = comparison["outcome"].value_counts()
    seeds = sorted(set(comparison.loc[comparison["method"] != "DiRect", "seeds"]))
    seeds = f"{seeds[0]}" if len(seeds) == 1 else f"{seeds[0]} to {seeds[-1]}"
    gp_ucb = comparison[comparison["method"] == "GP-UCB"]
    old, new = experiment.settings_name(earlier), params["settings"]
    before, after = f"R_T/T at T={at}, {old}", f"R_T/T at T={at}, {new}"
    regrets = "; ".join(f"{row['configuration']} {row[before]:.3g} -> {row[after]:.3g}" for _, row in gp_ucb.iterrows())
    judged = (None if history is None or f"verdict ({old})" not in history
              else history[history[f"verdict ({old})"] != ""])   # the claims judged under "old" (settings_history)
    if judged is None:
        verdict_text = ""
    else:
        moved = judged[judged[f"verdict ({old})"] != judged[f"verdict ({new})"]]
        changes = [f"{claim} {verdict_before} -> {verdict_after} ({effect_before} -> {effect_after})"
                   for claim, verdict_before, verdict_after, effect_before, effect_after in moved[
                       ["id", f"verdict ({old})", f"verdict ({new})", f"effect ({old})", f"effect ({new})"]
                   ].to_numpy()]
        real_world = {spec.id for spec in claim_specs() if spec.block == "real_world"}
        judged_blocks = "claims of Figs. 3 to 5" if set(judged["id"]) & real_world else "synthetic claims"
        verdict_text = (f" Judged on the runs under \"{old}\" instead, {len(moved)} of the {len(judged)} "
                        f"{judged_blocks} have another verdict"
                        + (f" ({old} -> {new}, on the same seeds): {'; '.join(changes)}." if changes else "."))
    dips = _dips_text(table, params, earlier) if old == "earlier" else ""
    return (f"* **The \"{new}\" settings against the \"{old}\" ones (synthetic block, {seeds} seeds both ran per "
            f"cell; DiRect one run).** Final S_T under \"{new}\" is lower in "
            f"{outcomes.get('lower', 0)} of {len(comparison)} (configuration, method) cells, higher in "
            f"{outcomes.get('higher', 0)}, undecided in {outcomes.get('undecided', 0)} (the 95 % interval of the "
            f"ratio of mean final S_T, {new} / {old}, below 1, above 1, or holding 1). GP-UCB's mean R_T/T at "
            f"T = {at}, {old} -> {new}: {regrets}.{dips}{verdict_text}")


def _dips_text(table, params, earlier, climb=1.1):
    dips = experiment.early_dips(table, earlier, params["configurations"])
    if dips.empty:  # runs shorter than the window
        return ""
    relearned = experiment.N_INIT + experiment.RELEARN_EVERY  # T = 35: the queries before the first relearning
    counts = []
    for name in (experiment.settings_name(earlier), params["settings"]):
        climbing = dips[dips[f"climb after it, {name}"] > climb]
        at_relearning = (climbing[f"minimum at T, {name}"] == relearned).sum()
        counts.append(f"{len(climbing)} under \"{name}\" ({at_relearning} of them lowest at T = {relearned}, "
                      f"the last query before the first relearning)")
    return (f" The mean R_T/T dips early (lowest at some T from 11 to 60, then climbing more than {climb:g}x above "
            f"that minimum) in {counts[0]} and {counts[1]}, of {len(dips)} (configuration, BO method) cells.")


def findings(table, params, verdicts, all_runs=None, history=None):
    """What the numbers show (:func:`common.verdict_tables.findings_markdown`), from the tidy ``table`` of runs, the
    resolved ``params`` and the ``verdicts`` of :func:`judge` on the same runs; each block with the scale it ran at.
    ``all_runs``: every run of the grid, under every settings, where given: ``table``'s compared with each
    superseded settings' (:func:`~common.experiments.add_gp_ucb.split_settings`). ``history``: the
    :func:`settings_history` of ``all_runs``, where the caller has it already (else judged here)."""
    if all_runs is not None and history is None:
        history = settings_history(all_runs, params, verdicts)
    settings_bullets = [] if all_runs is None else [
        _settings_bullet(table, params, experiment.split_settings(all_runs, params, against=name)[1], history)
        for name in experiment.superseded(params["settings"])]
    return verdict_tables.findings_markdown(verdict_tables.scales_ran(what_ran(params)), [
        *_synthetic_bullets(table, params, verdicts), _ablation_bullet(table, params), *settings_bullets,
        _real_world_bullet(table, params, verdicts)])


def settings_verdicts(earlier, params, verdicts, earlier_real_world=None):
    """Every claim of the synthetic block, and of the real-world block where its earlier runs are given, judged
    on its runs under superseded settings, beside its published verdict under the grid's settings (only then are
    a superseded settings' runs run beside it). Every effect differs, the runs being others; the verdicts say which
    claims the settings decide.

    Parameters
    ----------
    earlier : pandas.DataFrame
        The synthetic block's runs under one superseded settings
        (:func:`~common.experiments.add_gp_ucb.split_settings` with ``against``).
    params : dict
        Resolved parameters (``n_runs``, ``real_world_runs``, ``earlier_settings_runs``, ``settings``).
    verdicts : pandas.DataFrame
        The claims judged under the grid's settings (:func:`judge`; :func:`settings_history` passes them judged on
        the paper's seeds, the seeds the superseded settings ran).
    earlier_real_world : pandas.DataFrame or None
        The real-world block's runs under the same superseded settings (``split_settings(..., block="real_world")``);
        its claims are judged only where they hold every seed the published verdicts were judged on.

    Returns
    -------
    pandas.DataFrame or None
        ``id``, then ``verdict (<settings>)`` and ``effect (<settings>)`` under each settings (the superseded one
        first), one row per claim; None unless the superseded runs have every seed the published verdicts were
        judged on, so that the two are judged on the same seeds.
    """
    paper, _ = confirmatory.split(earlier)
    if paper.empty or params["earlier_settings_runs"] < params["n_runs"]:
        return None
    old, new = experiment.settings_name(paper), params["settings"]
    blocks = ["synthetic"]
    if earlier_real_world is not None and len(earlier_real_world) \
            and params["earlier_settings_runs"] >= params["real_world_runs"]:
        paper = pd.concat([paper, confirmatory.split(earlier_real_world)[0]])
        blocks.append("real_world")
    specs = [spec for spec in claim_specs() if spec.block in blocks]
    before = claims.judge(specs, paper, params, ran=what_ran(params)).set_index("id")[["verdict", "effect"]]
    before = before.fillna("")
    after = verdicts.set_index("id").loc[before.index, ["verdict", "effect"]].fillna("")
    return pd.DataFrame({"id": before.index, f"verdict ({old})": before["verdict"].to_numpy(),
                         f"verdict ({new})": after["verdict"].to_numpy(),
                         f"effect ({old})": before["effect"].to_numpy(), f"effect ({new})": after["effect"].to_numpy()})



def settings_history(all_runs, params, verdicts):
    """:func:`settings_verdicts` against every superseded settings
    (:func:`~common.experiments.add_gp_ucb.superseded`) in one table: ``id``, the verdicts under each settings in
    the order they were adopted, the published (the grid's) last, then the effects in the same order. None when no
    superseded settings has every seed the published verdicts were judged on. ``all_runs``: every run of the grid,
    under every settings."""
    tables = {}
    runs = experiment.split_settings(all_runs, params)[0]
    # The published settings' runs judged once on the paper's seeds, beside every superseded settings' (the verdicts
    # themselves may lead with fresh confirmatory seeds, which no superseded settings ran).
    on_paper_seeds = claims.judge(claim_specs(), confirmatory.split(runs)[0], params, ran=what_ran(params))
    for name in experiment.superseded(params["settings"]):
        before = experiment.split_settings(all_runs, params, against=name)[1]
        judged = settings_verdicts(before, params, on_paper_seeds,
                                   experiment.split_settings(all_runs, params, "real_world", name)[1])
        if judged is not None:
            tables[name] = judged.set_index("id")
    if not tables:
        return None
    ids = max((table.index for table in tables.values()), key=len)   # the real-world claims too, where judged
    published = max(tables.values(), key=len)
    history = pd.concat([table[[f"verdict ({name})", f"effect ({name})"]] for name, table in tables.items()]
                        + [published[[f"verdict ({params['settings']})", f"effect ({params['settings']})"]]],
                        axis=1).reindex(ids).fillna("")
    names = [*tables, params["settings"]]
    return history[[f"verdict ({name})" for name in names] + [f"effect ({name})" for name in names]].reset_index()
