"""What the numbers show in bo_pp: the notebook's findings, each bullet computed from the runs and the
verdict table of :mod:`common.experiments.bo_pp_claims` (nothing typed in)."""
import numpy as np

from common import judging, paper_data, stats, verdict_tables
from common.experiments import bo_pp as experiment
from common.experiments.bo_pp_claims import MARGINS, PP_TAU0S, specs, what_ran
from common.experiments.bo_pp_measures import cell_label, cells_of, compare_cells, margin_of

CENTRED_OPTIMUM = ("Dropwave", "Griewank", "Rastrigin")   # optimum at the exact centre of the usual box
ZERO_REGRET = 1e-12


def _better_and_worse(comparisons):
    """The labels of the significantly better and worse cells, and "in 2 (A (15 wins of 20), ...) ... worse in 0"."""
    better = [label for label, found in comparisons.items() if stats.interval_side(found) == "better"]
    worse = [label for label, found in comparisons.items() if stats.interval_side(found) == "worse"]

    def listed(labels):
        return " (" + ", ".join(f"{label} ({comparisons[label].wins} wins of {comparisons[label].n})"
                                for label in labels) + ")" if labels else ""

    return better, f"in {len(better)}{listed(better)} and worse in {len(worse)}{listed(worse)}"


def _pp_against_bo(table, block_name, problems, verdicts, suffix):
    """One bullet: BO-PP against BO over a block's cells, per acquisition, with the verdicts it bears on."""
    cells = [cell for cell in cells_of(block_name, experiment.ACQUISITIONS, PP_TAU0S) if cell[0] in problems]
    # Each interval refined near no difference as the claims' cells are, so that a count agrees with the verdicts.
    comparisons = {label: judging.refined(found, "better", margin_of(MARGINS[block_name], cell[0]), boundaries=[0.0])
                   for (label, found), cell in zip(compare_cells(table, block_name, cells,
                                                                 MARGINS[block_name]).items(), cells) if found}
    better, counted = _better_and_worse(comparisons)

    def better_count(acquisition, tau0s):
        labels = [cell_label(problem, acquisition, tau0) for problem in problems for tau0 in tau0s]
        return f"{sum(label in better for label in labels)} of {len(labels)}"

    name = "synthetic" if block_name == "synthetic" else "real-world"
    ids = [f"C{number}-{suffix}" for number in (4, 5, 6, 7)] + [f"C8-{acquisition}-{suffix}"
                                                                for acquisition in experiment.ACQUISITIONS]
    return (f"* **BO-PP against BO, {name} block.** Over the {len(comparisons)} (problem, acquisition, τ0) cells, "
            f"BO-PP is better than its BO baseline (the effect's 95 % interval beyond no difference) {counted}. Better: UCB-PP0001 on "
            f"{better_count('UCB', [0.0001])} problems, UCB-PP01 and UCB-PP001 in "
            f"{better_count('UCB', [0.01, 0.001])} cells, PI-PP in {better_count('PI', PP_TAU0S)}, EI-PP in "
            f"{better_count('EI', PP_TAU0S)}. Verdicts: {verdict_tables.verdicts_of(verdicts, ids)}.")


def _centre_of_the_box(table, verdicts):
    """One bullet: the runs at zero regret on the functions with a centred optimum, and the shifted boxes."""
    finals = experiment.final_runs(table)
    usual = finals[(finals["experiment"] == "synthetic") & finals["problem"].isin(CENTRED_OPTIMUM)]
    if usual.empty:
        return None
    at_zero = usual["value"] <= ZERO_REGRET
    griewank = usual[usual["problem"] == "Griewank"].groupby("method")["value"].agg(
        lambda values: int(np.sum(values <= ZERO_REGRET)))
    seeds = usual.groupby("method")["seed"].nunique().max()
    text = (f"* **The centre of the box.** {int(at_zero.sum())} of {len(usual)} runs on "
            f"{', '.join(CENTRED_OPTIMUM)} end at exactly zero regret; their optimum is the centre of the box, "
            f"which DIRECT samples first.")
    if not griewank.empty:
        text += (f" On Griewank {griewank.min()}-{griewank.max()} of {seeds} seeds end at zero for every method, so "
                 f"those seeds tie and cannot separate BO-PP from BO.")
    shifted = experiment.shifted_box_table(finals)
    if shifted is not None:
        pp = shifted[shifted["method"].str.contains("-PP")]
        labels = pp["function"] + " " + pp["method"]
        side, judged = pp["PP vs BO (shifted) side"], pp["PP vs BO (shifted) better"]

        def listed(mask):
            return (f" ({', '.join(labels[mask] + ' ' + pp.loc[mask, 'PP vs BO (shifted) ratio'])})"
                    if mask.any() else "")

        text += (f" On the boxes shifted by `BOX_SHIFT` (§4d), {int(shifted['zeros shifted'].sum())} runs end at "
                 f"zero. There, BO-PP's mean final regret against BO's (the ratio's 95 % interval wholly below 1) "
                 f"is lower in {int((side == 'better').sum())} of {len(pp)} cells{listed(side == 'better')} and "
                 f"higher in {int((side == 'worse').sum())}{listed(side == 'worse')}; judged as the paper's "
                 f"\"better\" against a factor 1.1, {int((judged == 'supported').sum())} supported, "
                 f"{int((judged == 'contradicted').sum())} contradicted (the interval excludes a 10 % gain)"
                 f"{listed(judged == 'contradicted')}, "
                 f"{int((judged == 'undecided').sum())} undecided at {shifted_seeds(finals)} seeds.")
    text += _c3_is_the_centre(finals, verdicts)
    return text


def _c3_is_the_centre(finals, verdicts):
    """The sentence saying that C3 (the paper's "0 ± 0" PI cells) counts the same centre hits, with the PI runs at
    zero on each box; empty without shifted-box runs of those cells."""
    problems = ("Griewank", "Rastrigin")
    zeros = experiment.zeros_on_each_box(finals, problems, "PI")
    if zeros is None:
        return ""
    (usual, usual_runs), (shifted, shifted_runs) = zeros["usual"], zeros["shifted"]
    return (f" C3 ({verdicts.set_index('id').loc['C3', 'verdict']}), which asks for the paper's \"0 ± 0\" PI "
            f"cells (PI and its BO-PP variants on {' and '.join(problems)} at exactly zero regret), tests this same "
            f"artifact: a run ends at exactly zero only by querying the centre; {usual} of {usual_runs} such runs "
            f"do on the usual boxes, {shifted} of {shifted_runs} on the shifted ones.")


def shifted_seeds(finals):
    """The seeds of the shifted-box block (per cell)."""
    shifted = finals[finals["experiment"] == "shifted_box"]
    return int(shifted.groupby(["problem", "acquisition", "tau0"])["seed"].nunique().max())


def _table1_values(table, params, verdicts):
    """One bullet: the baselines against the paper's Table 1, how far the ablations (§4b-4d) move them, and the
    exact zeros at the smallest DIRECT budget."""
    finals = experiment.final_runs(table)
    numbers = paper_data.load_paper_numbers("bo_pp")
    c2 = next(spec for spec in specs() if spec.id == "C2")
    within = c2.measure(table, params, c2.limits).reason.split(";")[0]
    text = (f"* **Table 1's values.** C2 ({verdicts.set_index('id').loc['C2', 'verdict']}): {within} of the "
            f"paper's.")
    effects = experiment.ablation_against_gap(finals, numbers, params["direct_evals_per_dim"])
    if effects is not None:
        found = experiment.gap_summary(effects)
        cells = len(found["cells"])

        def listed(labels):
            return f" ({', '.join(labels)})" if labels else ""

        per_setting = "; ".join(f"{setting} in {holds} of {ran}" for setting, (holds, ran)
                                in found["open_by_setting"].items())
        text += (f" The ablations of §4b-4d, each against our choice seed by seed ({effects['seeds'].min()} seeds; "
                 f"the shifted box only on the functions with a centred optimum): the 95 % interval of the ratio of "
                 f"mean S_T (ablated / ours) holds the ratio that would bring our baseline to the paper's mean for "
                 f"{per_setting} cells. In {len(found['all_rule_out'])} of {cells} cells every ablation's interval "
                 f"excludes it{listed(found['all_rule_out'])}: none of these choices alone explains the gap there; "
                 f"in {cells - len(found['all_rule_out'])} one cannot rule out that one does (without the shifted "
                 f"box: {len(found['all_rule_out_but_shift'])} and {cells - len(found['all_rule_out_but_shift'])}). "
                 f"As point estimates, no ablation moves the mean as far as the gap (to the paper's mean or beyond) "
                 f"in {len(found['none_moves_as_far'])} of {cells} cells ("
                 + "".join(f"{', '.join(found['none_moves_as_far'])}; " if found["none_moves_as_far"] else "")
                 + f"{len(found['none_moves_as_far_but_shift'])} without the shifted box).")
    text += _zeros_at_the_smallest_budget(finals, numbers, params["direct_evals_per_dim"])
    return text


def _zeros_at_the_smallest_budget(finals, numbers, main_budget):
    """The sentence on the spec's guess that a tiny DIRECT budget made the paper's exact zeros: the runs at zero
    on Griewank and Rastrigin per acquisition at the smallest budget and at ours; empty without those runs."""
    budgets = experiment.direct_budget_table(finals, numbers, main_budget)
    zeros = None if budgets is None else experiment.zeros_by_budget(budgets, ("Griewank", "Rastrigin"))
    if zeros is None:
        return ""
    smallest = min(int(name.removeprefix("zeros at ").removesuffix("·d")) for name in zeros.filter(like="zeros at"))
    if smallest >= main_budget or f"zeros at {main_budget}·d" not in zeros:
        return ""
    ours = zeros.set_index("acquisition")

    def per_acquisition(budget):
        column = f"zeros at {budget}·d"
        return ", ".join(f"{acquisition} {ours.loc[acquisition, column]}" for acquisition in ours.index)

    return (f" The spec's guess that a tiny DIRECT budget made the paper's exact zeros (§4c): on Griewank and "
            f"Rastrigin, runs at exactly zero regret of {ours['runs'].iloc[0]} per acquisition at "
            f"{smallest}·d: {per_acquisition(smallest)} (at our {main_budget}·d: {per_acquisition(main_budget)}); "
            f"the paper's means there: " + "; ".join(f"{acquisition} {row['paper']}" for acquisition, row
                                                     in ours.iterrows()) + ".")


def _curves(verdicts, figures, ids):
    rows = verdicts.set_index("id").reindex(ids).dropna(subset=["verdict"])
    first = next(spec for spec in specs() if spec.id == ids[0]).limits["from_iteration"]
    return (f"* **{figures} (the curves).** Per panel, whether some BO-PP variant's effect against BO lies in the "
            f"paper's direction at most iterations (from iteration {first} on), by its interval: "
            + ", ".join(f"{claim_id} {row['verdict']} [{row['ours']}]" for claim_id, row in rows.iterrows()) + ".")


def _isotropic(table, problems, verdicts):
    cells = [cell for cell in cells_of("isotropic", ["UCB"], PP_TAU0S) if cell[0] in problems]
    comparisons = {label: found for label, found in compare_cells(table, "isotropic", cells,
                                                                  MARGINS["real_world"]).items() if found}
    _, counted = _better_and_worse(comparisons)
    return (f"* **Fig. 7, the isotropic kernel.** Over the {len(comparisons)} (problem, τ0) cells, UCB-PP is "
            f"better than UCB (the effect's 95 % interval beyond no difference) {counted}. Verdict: {verdict_tables.verdicts_of(verdicts, ['C10'])} (C10 "
            f"leaves out the paper's stated exception, UCB-PP01 and UCB-PP001 on SVM).")


def findings(table, params, verdicts):
    """What the numbers show (:func:`common.verdict_tables.findings_markdown`), from the tidy ``table`` of runs, the
    resolved ``params`` and the ``verdicts`` of :func:`judge` on the same runs. A block is summarized only where it
    ran at the paper's scale (:func:`what_ran`); a block below it is named with the scale that ran."""
    ran = what_ran(params)
    judged = [name for name, found in ran.items() if found.scale == "paper"]
    below = [f"{name.replace('_', '-')} ({found.description})" for name, found in ran.items()
             if found.scale != "paper"]
    scope = f"blocks at the paper's scale: {', '.join(judged) or 'none'}" + (
        f"; not judged until their paper-scale runs are cached: {', '.join(below)}" if below else "")
    bullets = []
    if "synthetic" in judged:
        bullets += [_pp_against_bo(table, "synthetic", params["synthetic_functions"], verdicts, "syn"),
                    _curves(verdicts, "Figures 2, 4 and 6, synthetic", ["C9-fig2", "C9-fig4", "C9-fig6"]),
                    _centre_of_the_box(table, verdicts), _table1_values(table, params, verdicts)]
    if "real_world" in judged:
        bullets += [_pp_against_bo(table, "real_world", params["real_world_problems"], verdicts, "real"),
                    _curves(verdicts, "Figures 1, 3 and 5, real-world", ["C9-fig1", "C9-fig3", "C9-fig5"])]
    if "isotropic" in judged:
        bullets.append(_isotropic(table, params["real_world_problems"], verdicts))
    return verdict_tables.findings_markdown(scope, bullets)
