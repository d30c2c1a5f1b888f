"""How the claims of :mod:`common.experiments.bo_pp_claims` are measured on the runs: final values per block,
cells of paired seeds against the margins and the paper's own effects, curves judged iteration by iteration, and
the identities.
"""
from dataclasses import dataclass

import numpy as np

from common import judging, paper_data, stats
from common.claims import Evidence
from common.experiments import bo_pp as experiment
from common.gp import GaussianProcess
from common.kernels import SquaredExponential
from common.methods import bo_pp as method
from common.store import final_rows


@dataclass(frozen=True)
class Block:
    """One block of runs: where its runs are in the tidy table and which parameters size it.

    ``acquisitions_parameter`` is None for a block whose acquisitions do not
    follow the notebook's ``acquisitions`` (the isotropic block always runs UCB).
    """

    experiment: str
    problems: tuple
    acquisitions: tuple
    column: str
    higher_is_better: bool
    seeds_parameter: str
    horizon_parameter: str
    problems_parameter: str
    acquisitions_parameter: str | None



BLOCKS = {
    "synthetic": Block("synthetic", tuple(experiment.SYNTHETIC), experiment.ACQUISITIONS, "regret", False,
                       "n_seeds", "T", "synthetic_functions", "acquisitions"),
    "real_world": Block("real_world", experiment.REAL_WORLD, experiment.ACQUISITIONS, "best_so_far", True,
                        "real_world_seeds", "real_world_T", "real_world_problems", "acquisitions"),
    "isotropic": Block("isotropic", experiment.REAL_WORLD, ("UCB",), "best_so_far", True,
                       "isotropic_seeds", "real_world_T", "real_world_problems", None),
}



def final_values(table, block_name):
    """One row per run of a block: problem, acquisition, tau0, seed and the final value of its metric."""
    block = BLOCKS[block_name]
    last = final_rows(table)  # before the filter, which would copy every row of the table
    last = last[last["experiment"] == block.experiment]
    # reindex: a table without this block may lack its metric's column altogether.
    return last.reindex(columns=["problem", "acquisition", "tau0", "seed", block.column]).rename(
        columns={block.column: "value"})



def _values_by_seed(finals, problem, acquisition, tau0):
    match = finals[(finals["problem"] == problem) & (finals["acquisition"] == acquisition)
                   & np.isclose(finals["tau0"].astype(float), tau0)]
    return match.set_index("seed")["value"]



def _paired(pseudo_points, plain, higher_is_better, scale="ratio", **options):
    return stats.paired_by_seed(pseudo_points, plain, higher_is_better=higher_is_better, scale=scale, **options)



def margin_of(margins, problem):
    """The margin of ``problem`` from a claim's margin (one for all, or one per problem)."""
    return margins[problem] if isinstance(margins, dict) else margins



def compare_cells(table, block_name, cells, margins=judging.DEFAULT_MARGIN):
    """BO-PP against BO, seed by seed, in each cell.

    Parameters
    ----------
    table : pandas.DataFrame
        Tidy table of runs.
    block_name : str
        A key of :data:`BLOCKS`.
    cells : sequence of (problem, acquisition, tau0)
    margins : judging.Margin or dict of str to Margin
        The claim's margin, whose scale (per problem) the effects take.

    Returns
    -------
    dict
        Cell label (e.g. ``"Dropwave UCB-PP01"``) -> PairedComparison, or None
        where the cell or its baseline has no runs.
    """
    block, finals = BLOCKS[block_name], final_values(table, block_name)
    return {cell_label(problem, acquisition, tau0): _paired(_values_by_seed(finals, problem, acquisition, tau0),
                                                        _values_by_seed(finals, problem, acquisition, 0.0),
                                                        block.higher_is_better,
                                                        scale=margin_of(margins, problem).scale)
            for problem, acquisition, tau0 in cells}



def judged_cells(table, block_name, cells, claim, margins, numbers=None):
    """:func:`compare_cells` judged against the margins (:func:`judging.cell`): one Cell per cell; with the
    paper's ``numbers``, a "better" cell also against the paper's own Table 1 effect (:func:`paper_effect`)."""
    comparisons = compare_cells(table, block_name, cells, margins)
    return [judging.cell(label, found, claim, margin_of(margins, cell[0]),
                       None if numbers is None else paper_effect(numbers, block_name, cell, margins))
            for cell, (label, found) in zip(cells, comparisons.items())]



def paper_effect(numbers, block_name, cell, margins):
    """The paper's own effect of BO-PP against BO in a cell, from its Table 1 means, on the advantage scale of the
    cell's margin (:func:`judging.paper_advantage`)."""
    pseudo, plain = _paper_means(numbers, *cell)
    return judging.paper_advantage(pseudo, plain, margin_of(margins, cell[0]).scale, BLOCKS[block_name].higher_is_better)



def cell_label(problem, acquisition, tau0):
    return f"{problem} {experiment.method_label(acquisition, tau0)}"



def _cell_details(comparisons):
    return "; ".join(f"{label} {stats.brief(found) if found else 'not run'}" for label, found in comparisons.items())



def _paper_means(numbers, problem, acquisition, tau0):
    """The paper's Table 1 means of BO-PP and BO in a cell (our problem names)."""
    paper_problem = experiment.PAPER_PROBLEM.get(problem, problem)
    pseudo = paper_data.paper_number(numbers, "table1", problem=paper_problem,
                                 method=experiment.method_label(acquisition, tau0))
    plain = paper_data.paper_number(numbers, "table1", problem=paper_problem, method=acquisition)
    return pseudo.value, plain.value



def paper_cells_better(numbers, block_name, cells):
    """Cells where the paper's Table 1 mean of BO-PP is strictly better than BO's."""
    sign = 1 if BLOCKS[block_name].higher_is_better else -1
    return [cell for cell in cells if sign * np.subtract(*_paper_means(numbers, *cell)) > 0]



def paper_bold_cells(numbers, block_name, cells):
    """The bold cells of Table 1: the paper's BO-PP mean no worse than BO's (equal counts as no worse)."""
    sign = 1 if BLOCKS[block_name].higher_is_better else -1
    return [cell for cell in cells if sign * np.subtract(*_paper_means(numbers, *cell)) >= 0]



def cells_measure(block_name, cells, claim, paper=None, numbers=None):
    """``measure`` of a claim that BO-PP is better than BO (``claim`` "better") or no worse (``"no worse"``) in
    the cells.

    Score: the share of cells supported, each judged by its effect against the
    spec's margin (:func:`judging.judge_cell`) and, for "better" given the
    paper's ``numbers``, its own Table 1 effect; a cell without runs counts as
    undecided.
    """
    def measure(table, params, limits):
        found = judged_cells(table, block_name, cells, claim, limits["margin"], numbers)
        if all(c.comparison is None for c in found):
            return Evidence(None, f"no {block_name} runs of these cells in the table", paper=paper)
        counted = judging.tally(found)
        return Evidence.of_tally(counted, "; ".join(map(str, found)),
                                 ours={**{name: counted.counts[name] for name in stats.JUDGEMENTS},
                                       "cells": len(cells)}, paper=paper)

    return measure



#: How one iteration of a curve is judged (:func:`_iteration_judgement`).
ITERATION_JUDGEMENTS = ("supported", "against", "undecided", "not comparable")



def curves_better(block_name, acquisition, problems, margins):
    """``measure`` of "at least one BO-PP curve almost always better than BO's" (per problem: a panel), by estimation.

    At every iteration from ``limits["from_iteration"]`` on, each BO-PP variant is
    compared with BO seed by seed: the effect with its 95 % interval, on the scale of the block's cells (no margin:
    the paper's words "almost always above" give the side of no difference, not a size)
    (:func:`_iteration_judgement`) is *supported* where the interval lies in the
    paper's direction and *against* where it lies wholly against it. A panel is
    supported when some variant is supported at a share ``>= limits["almost_always"]``
    of its comparable iterations, contradicted when every variant is against at more
    than ``1 - almost_always`` of them (none can be almost always better any more),
    else undecided. Score: the share of comparable panels supported; reachable: the
    share not contradicted. ``margins``: the block's margins, whose scale the cells take.
    """
    block = BLOCKS[block_name]

    def measure(table, params, limits):
        runs = table[(table["experiment"] == block.experiment) & (table["acquisition"] == acquisition)
                     & (table["iteration"] >= limits["from_iteration"])]
        if runs.empty:
            return Evidence(None, f"no {block_name} runs of {acquisition} in the table")
        almost_always = limits["almost_always"]
        panels, details, by_p_value = {}, [], []
        for problem in problems:
            shares = _iteration_shares(runs[runs["problem"] == problem], block,
                                       margin_of(margins, problem).scale, almost_always)
            if not shares:
                panels[problem] = "not run"
                details.append(f"{problem} not run")
                continue
            panels[problem] = _panel_judgement(shares, almost_always)
            best = max(shares, key=lambda tau0: shares[tau0]["supported"])
            details.append(f"{problem} {panels[problem]} (best variant "
                           f"{experiment.method_label(acquisition, best)}: "
                           + ", ".join(f"{shares[best][name]:.0%} {name}" for name in ITERATION_JUDGEMENTS
                                       if name != "not comparable") + ")")
            by_p_value.append(max(share["better by p-value"] for share in shares.values()) >= almost_always)
        comparable = [judged for judged in panels.values() if judged not in ("not comparable", "not run")]
        counts = {name: sum(judged == name for judged in panels.values())
                  for name in ("supported", "contradicted", "undecided", "not comparable", "not run")}
        summary = (f"{counts['supported']} of {len(problems)} panels supported"
                   + "".join(f", {counts[name]} {name}" for name in ("contradicted", "undecided", "not comparable",
                                                                      "not run") if counts[name]))
        reason = (f"{summary} (a panel: some variant's interval in the paper's direction at >= {almost_always:.0%} "
                  f"of iterations); share of iterations per judgement: {'; '.join(details)}")
        if not comparable:
            return Evidence(0.0, reason, ours=counts, reachable=0.0)
        score = counts["supported"] / len(comparable)
        reachable = (len(comparable) - counts["contradicted"]) / len(comparable)
        return Evidence(score, reason, ours=counts, reachable=reachable,
                        score_by_p_value=sum(by_p_value) / len(problems))

    return measure



def _iteration_shares(rows, block, scale, almost_always):
    """Per BO-PP variant (tau0), the share of comparable iterations of each :data:`ITERATION_JUDGEMENTS`, the
    share of not-comparable iterations, and the share the p-value rule calls better; {} without BO's runs.

    The intervals are recomputed with :data:`common.stats.N_REFINED` resamples where one ends near no effect
    (:func:`common.stats.paired_curves`), but only in a panel whose judgement those iterations could change: a
    panel judged the same whichever way its near iterations fall keeps the cheaper intervals.
    """
    if rows.empty:
        return {}
    # q = 1: from iteration 1 on, every iteration of a run is one evaluation, so (tau0, seed, iteration) is unique.
    curves = rows.assign(tau0=rows["tau0"].astype(float)).pivot_table(
        index="seed", columns=["tau0", "iteration"], values=block.column, aggfunc="last")
    variants = set(curves.columns.get_level_values("tau0"))
    if 0.0 not in variants:
        return {}
    plain = curves[0.0]
    paired = {}
    for tau0 in sorted(variants - {0.0}):
        iterations = curves[tau0].columns.intersection(plain.columns)
        # Seeds that ran both methods to the end of the curves.
        pseudo, baseline = curves[tau0][iterations].dropna(), plain[iterations].dropna()
        seeds = pseudo.index.intersection(baseline.index)
        if not (seeds.empty or iterations.empty):
            paired[tau0] = (pseudo.loc[seeds].to_numpy(), baseline.loc[seeds].to_numpy())

    def shares_of(boundaries):
        found = {tau0: stats.paired_curves(*arrays, higher_is_better=block.higher_is_better, scale=scale,
                                           boundaries=boundaries) for tau0, arrays in paired.items()}
        return {tau0: _shares(comparisons) for tau0, comparisons in found.items()}

    shares = shares_of(())
    if _near_iterations_could_change(shares, almost_always):
        shares = shares_of([0.0])
    return shares



def _shares(comparisons):
    judged = [_iteration_judgement(comparison) for comparison in comparisons]
    comparable = max(sum(name != "not comparable" for name in judged), 1)
    near = sum(name != "not comparable" and stats.near_boundary(comparison, [0.0])
               for name, comparison in zip(judged, comparisons))
    return {**{name: judged.count(name) / comparable for name in ITERATION_JUDGEMENTS if name != "not comparable"},
            "not comparable": judged.count("not comparable") / len(judged), "near no effect": near / comparable,
            "better by p-value": float(np.mean([stats.is_better(c) for c in comparisons]))}



def _near_iterations_could_change(shares, almost_always):
    """Whether the panel's judgement (:func:`_panel_judgement`) could change if every iteration whose interval ends
    near no effect fell another way: each could become supported, undecided or against."""
    def judged(shift_supported, shift_against):
        return _panel_judgement({tau0: {**share, "supported": share["supported"] + shift_supported * share[
            "near no effect"], "against": share["against"] + shift_against * share["near no effect"]}
            for tau0, share in shares.items()}, almost_always)

    return len({judged(+1, -1), judged(-1, +1), judged(-1, -1)}) > 1



def _iteration_judgement(comparison):
    """One iteration of a curve: "supported" where the effect's interval lies in the paper's direction, "against"
    where it lies wholly against it, "not comparable" where at least :data:`common.stats.TIED_SHARE` of the seeds
    tie (every run at the optimum), else "undecided"."""
    if comparison.ties >= stats.TIED_SHARE * comparison.n:
        return "not comparable"
    side = stats.interval_side(comparison)
    return {"better": "supported", "worse": "against"}.get(side, "undecided")



def _panel_judgement(shares, almost_always):
    """A panel from its variants' iteration shares (:func:`_iteration_shares`): "supported" when some variant is
    supported at ``almost_always`` of its comparable iterations, "contradicted" when every variant is against at
    more than ``1 - almost_always``, "not comparable" when no iteration of any variant is comparable."""
    if all(share["not comparable"] == 1.0 for share in shares.values()):
        return "not comparable"
    if any(share["supported"] >= almost_always for share in shares.values()):
        return "supported"
    if all(share["against"] > 1 - almost_always for share in shares.values()):
        return "contradicted"
    return "undecided"



def baselines_close_to_paper(numbers):
    """``measure`` of the Table 1 baseline means (plain BO on the synthetic functions, spec check A6).

    A cell holds if ``|our mean - paper mean| <= max(paper std, limits["floor"])``;
    score: the share of the 12 cells that hold (a cell without runs does not).
    """
    cells = [(problem, acquisition) for problem in BLOCKS["synthetic"].problems
             for acquisition in experiment.ACQUISITIONS]

    def measure(table, params, limits):
        finals = final_values(table, "synthetic")
        ours, paper, failing = {}, {}, []
        for problem, acquisition in cells:
            label = f"{problem} {acquisition}"
            number = paper_data.paper_number(numbers, "table1", problem=problem, method=acquisition)
            paper[label] = number.value
            values = _values_by_seed(finals, problem, acquisition, 0.0)
            if values.empty:
                failing.append(f"{label} (not run)")
                continue
            ours[label] = float(values.mean())
            if abs(ours[label] - number.value) > max(number.std, limits["floor"]):
                failing.append(label)
        if not ours:
            return Evidence(None, "no synthetic baseline runs in the table", paper=paper)
        reason = f"{len(cells) - len(failing)} of {len(cells)} cells within tolerance" + (
            f"; outside: {', '.join(failing)}" if failing else "")
        return Evidence((len(cells) - len(failing)) / len(cells), reason, ours=ours, paper=paper)

    return measure



def pi_exact_zeros(numbers):
    """``measure`` of PI's exact zeros on Griewank and Rastrigin (Table 1, spec check A7).

    A cell (function, PI variant) holds if at least ``limits["runs_at_zero"]`` of
    its runs end with S_T <= ``limits["zero"]``; score: the share of cells that hold.
    """
    cells = [(problem, tau0) for problem in ("Griewank", "Rastrigin") for tau0 in experiment.TAU0S]

    def measure(table, params, limits):
        finals = final_values(table, "synthetic")
        ours, paper, failing = {}, {}, []
        for problem, tau0 in cells:
            label = cell_label(problem, "PI", tau0)
            paper[label] = paper_data.paper_number(numbers, "table1", problem=problem,
                                               method=experiment.method_label("PI", tau0)).value
            values = _values_by_seed(finals, problem, "PI", tau0)
            if values.empty:
                failing.append(f"{label} (not run)")
                continue
            ours[label] = float(np.mean(values <= limits["zero"]))
            if ours[label] < limits["runs_at_zero"]:
                failing.append(label)
        if not ours:
            return Evidence(None, "no synthetic PI runs on Griewank or Rastrigin in the table", paper=paper)
        reason = (f"share of runs at exactly zero regret >= {limits['runs_at_zero']:.0%} in "
                  f"{len(cells) - len(failing)} of {len(cells)} cells" + (f"; not in: {', '.join(failing)}"
                                                                         if failing else ""))
        return Evidence((len(cells) - len(failing)) / len(cells), reason, ours=ours, paper=paper)

    return measure



def lemma_errors(seed=0):
    """Largest errors of the Lemma 2 and Lemma 4 identities on a GP fitted to Dropwave.

    A GP with fixed hyperparameters on 20 random points, pseudo-points at the
    distance of tau0 = 0.01, 600 random test points.

    Returns
    -------
    dict of str to float
        ``"Lemma 2 (eq. 8)"``: max |(sigma^2 - sigma^2_pp) - p^T M p|;
        ``"variance never increases"``: max(0, -min(sigma^2 - sigma^2_pp));
        ``"Lemma 4"``: max |(mu_pp - mu_true) + p^T M (y_pp - y_true)|, with
        mu_true the posterior given the pseudo-points' true values;
        ``"mean shift (eqs. 13-14)"``: max |mu_pp - mu - p^T M (mu(X') - y_pp)|.
    """
    rng = np.random.default_rng(seed)
    dropwave = experiment.make_problem({"problem": "Dropwave", "seed": seed})
    X, X_test = rng.uniform(-1, 1, (20, 2)), rng.uniform(-1, 1, (600, 2))
    y = dropwave(X)
    gp = GaussianProcess(SquaredExponential([0.3, 0.4]), 1e-4).fit(X, y)
    X_pseudo, y_pseudo = method.sample_pseudo_points(X, y, method.pseudo_point_distance(0.01, len(X), 2),
                                                     dropwave.bounds, rng)
    y_true = dropwave(X_pseudo)
    gp_pseudo = method.posterior_with_pseudo_points(gp, X_pseudo, y_pseudo)
    gp_true = method.posterior_with_pseudo_points(gp, X_pseudo, y_true)
    P, M = method.lemma_terms(gp, X_pseudo, X_test)
    (mu, sd), (mu_pseudo, sd_pseudo) = gp.predict(X_test, return_std=True), gp_pseudo.predict(X_test, return_std=True)
    reduction = sd**2 - sd_pseudo**2
    return {
        "Lemma 2 (eq. 8)": float(np.max(np.abs(reduction - np.einsum("ij,jk,ik->i", P, M, P)))),
        "variance never increases": float(max(0.0, -np.min(reduction))),
        "Lemma 4": float(np.max(np.abs(mu_pseudo - gp_true.predict(X_test) + P @ M @ (y_pseudo - y_true)))),
        "mean shift (eqs. 13-14)": float(np.max(np.abs(mu_pseudo - mu - P @ M @ (gp.predict(X_pseudo) - y_pseudo)))),
    }



def identity_holds(names):
    """``measure`` of an identity: the share of its forms in :func:`lemma_errors` within ``limits["tolerance"]``."""
    def measure(table, params, limits):
        errors = {name: error for name, error in lemma_errors().items() if name in names}
        failing = [name for name, error in errors.items() if not error <= limits["tolerance"]]
        reason = "largest errors " + ", ".join(f"{name} {paper_data.format_round_off(error)}"
                                               for name, error in errors.items()) + (
            f"; above tolerance: {', '.join(failing)}" if failing else "")
        return Evidence((len(errors) - len(failing)) / len(errors), reason,
                        ours={name: paper_data.round_off(error) for name, error in errors.items()})

    return measure



def real_world_absolute_values(numbers):
    """``measure`` showing the real-world UCB means beside the paper's (the claim is not comparable)."""
    def measure(table, params, limits):
        finals = final_values(table, "real_world")
        ours = {problem: float(values.mean()) for problem in experiment.REAL_WORLD
                if not (values := _values_by_seed(finals, problem, "UCB", 0.0)).empty}
        paper = {experiment.PAPER_PROBLEM.get(problem, problem): paper_data.paper_number(
            numbers, "table1", problem=experiment.PAPER_PROBLEM.get(problem, problem), method="UCB").value
            for problem in experiment.REAL_WORLD}
        return Evidence(None, "absolute values", ours=ours or None, paper=paper)

    return measure



def cells_of(block_name, acquisitions, tau0s):
    block = BLOCKS[block_name]
    return [(problem, acquisition, tau0) for acquisition in acquisitions for problem in block.problems
            for tau0 in tau0s]



def most_share(n_cells):
    """The share of ``n_cells`` cells that "in most cases" needs, read from the word: more than half of them,
    ``(n_cells // 2 + 1) / n_cells`` (5 of 8, 7 of 12), whatever share the paper's own table shows."""
    return (n_cells // 2 + 1) / n_cells
