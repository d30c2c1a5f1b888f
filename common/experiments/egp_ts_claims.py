"""The claims of "Surrogate modeling for Bayesian optimization beyond a single Gaussian process", declared before
the runs.

The paper states no number for any figure; its claims are orderings of methods,
made per figure and, where it says so, per function, task or data set. Each is
judged the way it is stated, on one number per run: the final simple regret
(synthetic functions and the parallel block, lower is better), the final best
distance to the goal (robot pushing, lower), the final best validation accuracy
(FNN tuning, higher) or, for "runs much faster", the CPU seconds of a run timed
quietly by ``benchmarks/bench_egp_ts.py``; how each is measured is in
:mod:`common.experiments.egp_ts_measures`. The methods of a repetition share their initial points (and, on the robot tasks,
their goal), so they are compared seed by seed (:func:`common.stats.paired_by_seed`).
A *cell* is one (ours, other) comparison on one problem, judged by estimation
(:mod:`common.claims`): the ratio of the two methods' mean final values (regret,
distance, seconds) or the difference of mean accuracies, with its interval,
against the claim's margin.

Margins (declared 2026-11-25, before re-judging): the paper gives no number, so
every comparison of regrets, distances and seconds takes the project default
(:data:`judging.DEFAULT_MARGIN`, a factor 1.1); "substantially improved
performance relative to GP-TS counterparts" (§6.1) and "runs much more faster"
(App. E) are judged as "substantially better" (the interval beyond the margin);
Fig. 4's accuracies take one point of accuracy (its claim is not comparable
anyway: substituted data).

Threshold rules (unchanged; see :mod:`common.claims`):

* "outperforms X, Y and Z": every cell supported to be reproduced,
  :func:`common.claims.partly_threshold` of the cells for partly;
* "the form of kernel function plays an important role": a Friedman test of the
  four GP-TS kernels over the seeds, significant at ALPHA, on at least two of
  the four functions (the sentence is about Fig. 1 as a whole; not a paired
  comparison, so judged by its p-value as before);
* "in three out of the four" / "four out of the five": a problem counts when
  the ensemble method's cells against its rivals there are all supported: EGP-EI
  against the GP-EI kernel of the lowest mean (what an ensemble of those kernels
  has to beat), EGP-TS against every competitor; reproduced at the paper's count,
  partly at half of it.

Identities: Table 1's optima evaluated, the paper's Ackley-5d maximizer checked
against the true maximum (spec §2.9), and S_t non-increasing and non-negative
on every synthetic run.
"""

import pandas as pd

from common import claims, confirmatory, judging, paths
from common.claims import ClaimSpec, Ran
from common.experiments import egp_ts as experiment
from common.experiments.egp_ts_measures import (GP_TS, cells_measure, faster_measure, kernel_matters_measure,
                                                count_measure, best_single_kernel, table1_identity,
                                                ackley_maximum_identity, regret_identity)
from common.store import final_rows

BLOCK_SIZES = {  # block -> (seeds parameter, budget parameter, lists that must be complete)
    "synthetic": ("synthetic_seeds", "synthetic_T", ("synthetic_problems", "synthetic_methods")),
    "robot": ("robot_seeds", "robot_T", ("robot_problems", "robot_methods")),
    "fnn": ("fnn_seeds", "fnn_T", ("fnn_datasets", "fnn_methods")),
    "parallel": ("parallel_seeds", "parallel_T", ("parallel_batch_sizes", "parallel_methods")),
}
GP_EI_KERNELS = [f"GP-EI ({kernel})" for kernel in experiment.SINGLE_KERNELS]
FIG1_RIVALS = GP_TS + ["GP-EI", "BanditBO (A)", "EXP3BO (A)"]
FIG2_RIVALS = ["GP-TS (RBF)", "GP-EI", "BanditBO (B)", "EXP3BO (B)", "FB-GP-TS"]
TABLE1_TOLERANCE = 1e-3


def what_ran(params):
    """The scale each block actually has: "paper" only with the paper's seeds, budget, problems and methods."""
    paper = experiment.SCALES["paper"]
    ran = {}
    for block, (seeds, budget, lists) in BLOCK_SIZES.items():
        partial, description = claims.block_ran(params, paper, seeds, budget, lists, budget_label="T = ")
        if block == "fnn":
            description += f", {params['fnn_training_runs']} training runs per evaluation"
            if (params["fnn_training_runs"] < experiment.PAPER_FNN_TRAINING_RUNS
                    or params["fnn_T"] < experiment.PAPER_FNN_EVALUATIONS):
                description += (f" (reduced from the paper's {experiment.PAPER_FNN_TRAINING_RUNS} training runs and "
                                f"the spec's {experiment.PAPER_FNN_EVALUATIONS} evaluations)")
        # Fig. 4's block counts as the paper's only at its 10 training runs and the spec's 50 evaluations.
        complete = (params["scale"] == "paper" and not partial and params[seeds] >= paper[seeds]
                    and params[budget] >= paper[budget] and params["n_candidates"] >= paper["n_candidates"]
                    and params["n_restarts"] >= paper["n_restarts"] and params["n_features"] == paper["n_features"]
                    and params["refit_every"] == paper["refit_every"]
                    and (block != "fnn" or (params["fnn_training_runs"] >= experiment.PAPER_FNN_TRAINING_RUNS
                                            and params["fnn_T"] >= experiment.PAPER_FNN_EVALUATIONS)))
        ran[block] = Ran("paper" if complete else ("quick" if params["scale"] == "paper" else params["scale"]),
                         description)
    return ran


def claim_specs():
    """Every claim of §6 and App. E, per function, task, data set or K, in the paper's order."""
    fig1_quote_kernel = "It is evident from Fig. 1 that the form of kernel function plays an important role in the " \
                        "performance of GP-TS"
    fig1_quote_egp = "EGP-TS not only yields substantially improved performance relative to GP-TS counterparts"
    synthetic = dict(min_scale="paper", block="synthetic", margin=judging.DEFAULT_MARGIN)
    specs = []
    for problem in experiment.SYNTHETIC:
        specs += [
            ClaimSpec(f"fig1-egp-beats-gp-ts-{problem}", "Fig. 1", fig1_quote_egp, "§6.1",
                      f"final S_T on {problem}, EGP-TS (A) against each GP-TS kernel (4 cells)",
                      "share of cells substantially better (the interval of the ratio of mean S_T below 1/1.1)",
                      cells_measure("synthetic", problem, "EGP-TS (A)", GP_TS, claim="substantially better"),
                      partly_at=claims.partly_threshold(4), **synthetic),
            ClaimSpec(f"fig1-egp-beats-bandits-{problem}", "Fig. 1",
                      "In addition, EGP-TS achieves lower simple regret than BanditBO and EXP3BO", "§6.1",
                      f"final S_T on {problem}, EGP-TS (A) against BanditBO (A) and EXP3BO (A)",
                      "share of cells better (the interval of the effect beyond no difference)",
                      cells_measure("synthetic", problem, "EGP-TS (A)", ["BanditBO (A)", "EXP3BO (A)"]),
                      partly_at=0.5, **synthetic),
        ]
    specs += [
        ClaimSpec("fig1-kernel-matters", "Fig. 1", fig1_quote_kernel, "§6.1",
                  "functions on which the four GP-TS kernels' final S_T differ (Friedman test, seed by seed)",
                  "share of the 4 functions; 2 to reproduce (the figure, read as a whole), 1 for partly",
                  kernel_matters_measure(list(experiment.SYNTHETIC)), reproduced_at=0.5, partly_at=0.25,
                  **{**synthetic, "margin": None}),   # a Friedman test: no margin to print
        ClaimSpec("fig1-gp-ei-beats-gp-ts-Zakharov", "Fig. 1",
                  "GP-EI is superior to GP-TS baselines on Zakharov function", "§6.1",
                  "final S_T on Zakharov, GP-EI against each GP-TS kernel (4 cells)",
                  "share of cells better (the interval of the effect beyond no difference)",
                  cells_measure("synthetic", "Zakharov", "GP-EI", GP_TS), partly_at=claims.partly_threshold(4),
                  **synthetic),
        ClaimSpec("fig1-egp-beats-gp-ei-Zakharov", "Fig. 1",
                  "EGP-TS yields better performance relative to the former [GP-EI]", "§6.1",
                  "final S_T on Zakharov, EGP-TS (A) against GP-EI", "1 if better (the interval of the ratio of mean S_T below 1), else 0",
                  cells_measure("synthetic", "Zakharov", "EGP-TS (A)", ["GP-EI"]), **synthetic),
    ]
    specs += [ClaimSpec(f"fig2-egp-beats-all-{problem}", "Fig. 2",
                        "Still, EGP-TS outperforms all competitors as shown in Fig. 2", "§6.1",
                        f"final S_T on {problem}, EGP-TS (B) against {', '.join(FIG2_RIVALS)}",
                        "share of cells better (the interval of the effect beyond no difference)",
                        cells_measure("synthetic", problem, "EGP-TS (B)", FIG2_RIVALS),
                        partly_at=claims.partly_threshold(len(FIG2_RIVALS)), **synthetic)
              for problem in experiment.SYNTHETIC]
    robot = dict(min_scale="paper", block="robot", margin=judging.DEFAULT_MARGIN)
    for task in experiment.ROBOT:
        specs += [
            ClaimSpec(f"fig3a-egp-beats-all-{task}", "Fig. 3(a)",
                      "the proposed EGP-TS outperforms all the competitors, including GP-EI, GP-TS with a preslected "
                      "kernel, and the other two ensemble methods", "§6.2",
                      f"final best distance on {task}, EGP-TS (A) against {len(FIG1_RIVALS)} methods",
                      "share of cells better (the interval of the effect beyond no difference)",
                      cells_measure("robot", task, "EGP-TS (A)", FIG1_RIVALS),
                      partly_at=claims.partly_threshold(len(FIG1_RIVALS)), **robot),
            ClaimSpec(f"fig3b-egp-beats-all-{task}", "Fig. 3(b)",
                      "Again, our proposed EGP-TS stands out in both 3-D and 4-D tasks", "App. E",
                      f"final best distance on {task}, EGP-TS (B) against {', '.join(FIG2_RIVALS)}",
                      "share of cells better (the interval of the effect beyond no difference)",
                      cells_measure("robot", task, "EGP-TS (B)", FIG2_RIVALS),
                      partly_at=claims.partly_threshold(len(FIG2_RIVALS)), **robot),
            ClaimSpec(f"fig3b-faster-than-fb-{task}", "Fig. 3(b)",
                      "EGP-TS not only outperforms fully Bayesian GP-TS in simple regret, but also runs much more "
                      "faster", "App. E",
                      f"CPU seconds of a whole run on {task}, EGP-TS (B) against FB-GP-TS, seed by seed, "
                      "timed quietly (benchmarks/bench_egp_ts.py)",
                      "1 if substantially fewer (the interval of the ratio of mean seconds below 1/1.1), else 0",
                      faster_measure(task, "EGP-TS (B)", "FB-GP-TS"), **robot),
        ]
    specs.append(ClaimSpec(
        "fig4-four-of-five", "Fig. 4", "the proposed EGP-TS is shown to outperform the competitors on four out of "
        "the five datasets tested", "§6.3",
        "data sets on which EGP-TS (B) has a higher final best accuracy than every competitor (every cell supported)",
        "share of the 5 data sets; 4 to reproduce, 2 for partly",
        count_measure("fnn", list(experiment.FNN), "EGP-TS (B)",
                      lambda values, problem: [m for m in experiment.FNN_METHODS if m != "EGP-TS (B)"]),
        reproduced_at=0.8, partly_at=0.4, min_scale="paper", block="fnn",
        margin=judging.Margin("difference", 0.01, "one point of validation accuracy (the project's margin for "
                            "accuracies; the paper gives none)"),
        not_comparable="three of the five data sets are substitutes (digits for MNIST, Wisconsin for the Ljubljana "
                       "breast-cancer data, a synthetic Transportation stand-in): the count is measured, not judged"))
    rivals = [m for m in experiment.PARALLEL_METHODS if m != "EGP-TS (B)"]
    specs += [ClaimSpec(f"fig5-egp-stands-out-K{K}", "Fig. 5",
                        "Clearly, EGP-TS also stands out from the rest of the baselines in this batch setting",
                        "App. E", f"final S_T on Ackley-5d with K = {K}, EGP-TS (B) against {', '.join(rivals)}",
                        "share of cells better (the interval of the effect beyond no difference)",
                        cells_measure("parallel", "Ackley-5d", "EGP-TS (B)", rivals, batch_size=K),
                        partly_at=claims.partly_threshold(len(rivals)), min_scale="paper", block="parallel",
                        margin=judging.DEFAULT_MARGIN)
              for K in experiment.SCALES["paper"]["parallel_batch_sizes"]]
    ei_quote = "EGP-EI outperforms GP-EI in three out of the four synthetic functions and both of the robotic tasks"
    specs += [
        ClaimSpec("fig6-egp-ei-three-of-four", "Fig. 6", ei_quote, "App. E",
                  "functions on which EGP-EI (A) has a lower final S_T than the best GP-EI kernel (the cell supported)",
                  "share of the 4 functions; 3 to reproduce, 2 for partly",
                  count_measure("synthetic", list(experiment.SYNTHETIC), "EGP-EI (A)",
                                best_single_kernel(GP_EI_KERNELS, higher_is_better=False)),
                  reproduced_at=0.75, partly_at=0.5, **synthetic),
        ClaimSpec("fig7-egp-ei-both-tasks", "Fig. 7", ei_quote, "App. E",
                  "robot tasks on which EGP-EI (A) has a lower final best distance (the cell supported) than the best GP-EI "
                  "kernel", "share of the 2 tasks; both to reproduce, one for partly",
                  count_measure("robot", list(experiment.ROBOT), "EGP-EI (A)",
                                best_single_kernel(GP_EI_KERNELS, higher_is_better=False)),
                  partly_at=0.5, **robot),
        ClaimSpec("table1-optima", "Table 1", "x* and f(x*) of Ackley-5d, Zakharov, Drop-wave and Eggholder",
                  "App. E, Table 1", "our functions at the printed x*", "1 if every value within the tolerance",
                  table1_identity, kind="identity", limits={"tolerance": TABLE1_TOLERANCE}),
        ClaimSpec("table1-ackley-maximizer", "Table 1",
                  "Ackley-5d on [0,1]^5: x* = [0.6231, 0.6231, 1, 0.6231, 0.6231], f(x*) = 4.6930", "App. E, Table 1",
                  "the true maximum of Ackley-5d on [0,1]^5 against f at the printed x*",
                  "1 if the printed x* attains the maximum within the tolerance", ackley_maximum_identity,
                  kind="identity", limits={"tolerance": TABLE1_TOLERANCE}),
        ClaimSpec("simple-regret-monotone", "§6.1", "SR(t) := f(x*) - max_{tau <= t} f(x_tau)", "§6.1",
                  "the largest increase and the smallest value of S_t over every synthetic run",
                  "1 if S_t never increases and never goes below 0", regret_identity, kind="identity",
                  limits={"tolerance": 1e-12}),
    ]
    return specs


def judge(table, params):
    """The verdict table of every claim on the runs of an execution: judged on the paper's seeds, with the
    confirmatory plan's state, and its verdicts on the fresh seeds alone where they ran, in the ``confirmatory``
    column (:func:`common.confirmatory.beside`)."""
    paper, fresh = confirmatory.split(experiment.name_reduced_fnn(table, params))
    verdicts = claims.judge(claim_specs(), paper, params, ran=what_ran(params))
    fresh_verdicts = claims.judge(claim_specs(), fresh, params, ran=what_ran(params)) if len(fresh) else None
    return confirmatory.beside(verdicts, fresh_verdicts,
                               confirmatory.plan_in_force(experiment.PAPER, confirmatory.plan_of(params)))


def fig4_at_both_settings(table, params):
    """Fig. 4's claim judged at the paper's setting (10 trainings per evaluation, 50 evaluations) and on the
    reduced-setting ablation's runs (3 and 30) as if they were the block, with the same specs, rules and margin: one
    row per setting with the claim's verdict, effect and reason. None without the ablation's runs."""
    named = confirmatory.split(experiment.name_reduced_fnn(table, params))[0]
    ablation = named[named["experiment"].isin(list(experiment.REDUCED_FNN_BLOCKS.values()))]
    if ablation.empty:
        return None
    as_block = {name: block for block, name in experiment.REDUCED_FNN_BLOCKS.items()}
    reduced = ablation.assign(experiment=ablation["experiment"].map(as_block))
    reduced_params = {**params, "fnn_training_runs": experiment.REDUCED_FNN_TRAINING_RUNS,
                      "fnn_T": experiment.REDUCED_FNN_EVALUATIONS,
                      "fnn_seeds": min(params["fnn_seeds"], params["fnn_reduced_ablation_seeds"])}
    specs = [spec for spec in claim_specs() if spec.block == "fnn"]
    rows = []
    for setting, runs, setting_params in (("paper's", named[named["experiment"] == "fnn"], params),
                                          ("reduced", reduced, reduced_params)):
        verdicts = claims.judge(specs, runs, setting_params, ran=what_ran(setting_params))
        for _, row in verdicts.iterrows():
            rows.append({"claim": row["id"], "setting": f"{setting}: {what_ran(setting_params)['fnn'].description}",
                         "verdict": row["verdict"], "effect": row["effect"], "reason": row["reason"]})
    return pd.DataFrame(rows)


def evidence_on_fresh_seeds(table, params):
    """The claims confirmed on fresh seeds of :data:`~common.experiments.egp_ts.EVIDENCE_FRESH_PROBLEM`, judged on
    those seeds twice: as published (EGP-TS weighing its experts by the random-feature model's evidence) and with
    the exact GP's evidence in EGP-TS's place (``evidence_ablation`` runs at the same seeds), everything else equal.

    Returns
    -------
    pandas.DataFrame or None
        One row per claim: ``claim``, ``fresh seeds``, ``verdict (rf evidence, ours)``, ``verdict (exact
        evidence)`` and each one's ``effect``; None without those runs.
    """
    fresh = confirmatory.split(table)[1]
    exact = fresh[fresh["experiment"] == "evidence_ablation"]
    if exact.empty:
        return None
    problem = experiment.EVIDENCE_FRESH_PROBLEM
    published = fresh[fresh["experiment"] != "evidence_ablation"]
    replaced = ((published["experiment"] == "synthetic") & (published["problem"] == problem)
                & published["method"].isin(set(exact["method"])))
    swapped = pd.concat([published[~replaced], exact.assign(experiment="synthetic")], ignore_index=True)
    plan = confirmatory.plan_in_force(experiment.PAPER, confirmatory.plan_of(params))
    ids = [row.id for row in plan.itertuples(index=False) if int(row.planned_seeds) and problem in row.id]
    specs = [spec for spec in claim_specs() if spec.id in ids]
    if not specs:
        return None
    ours = claims.judge(specs, published, params, ran=what_ran(params)).set_index("id")
    theirs = claims.judge(specs, swapped, params, ran=what_ran(params)).set_index("id")
    planned = plan.set_index("id")["planned_seeds"]
    return pd.DataFrame([{"claim": spec.id, "fresh seeds": int(planned[spec.id]),
                          "verdict (rf evidence, ours)": ours.loc[spec.id, "verdict"],
                          "effect (ours)": ours.loc[spec.id, "effect"],
                          "verdict (exact evidence)": theirs.loc[spec.id, "verdict"],
                          "effect (exact)": theirs.loc[spec.id, "effect"]} for spec in specs])


def claim_runs(claim_id):
    """The runs a claim is judged on: a list of (block, problem, methods, extra) for the confirmatory grid."""
    synthetic, robot = list(experiment.SYNTHETIC), list(experiment.ROBOT)
    runs = {}
    for problem in synthetic:
        runs[f"fig1-egp-beats-gp-ts-{problem}"] = [("synthetic", problem, ["EGP-TS (A)", *GP_TS], {})]
        runs[f"fig1-egp-beats-bandits-{problem}"] = [("synthetic", problem, ["EGP-TS (A)", "BanditBO (A)",
                                                                             "EXP3BO (A)"], {})]
        runs[f"fig2-egp-beats-all-{problem}"] = [("synthetic", problem, ["EGP-TS (B)", *FIG2_RIVALS], {})]
    runs["fig1-gp-ei-beats-gp-ts-Zakharov"] = [("synthetic", "Zakharov", ["GP-EI", *GP_TS], {})]
    runs["fig1-egp-beats-gp-ei-Zakharov"] = [("synthetic", "Zakharov", ["EGP-TS (A)", "GP-EI"], {})]
    for task in robot:
        runs[f"fig3a-egp-beats-all-{task}"] = [("robot", task, ["EGP-TS (A)", *FIG1_RIVALS], {})]
        runs[f"fig3b-egp-beats-all-{task}"] = [("robot", task, ["EGP-TS (B)", *FIG2_RIVALS], {})]
    for K in experiment.SCALES["paper"]["parallel_batch_sizes"]:
        runs[f"fig5-egp-stands-out-K{K}"] = [("parallel", "Ackley-5d", experiment.PARALLEL_METHODS,
                                              {"batch_size": K})]
    runs["fig6-egp-ei-three-of-four"] = [("synthetic", problem, ["EGP-EI (A)", *GP_EI_KERNELS], {})
                                         for problem in synthetic]
    runs["fig7-egp-ei-both-tasks"] = [("robot", task, ["EGP-EI (A)", *GP_EI_KERNELS], {}) for task in robot]
    if claim_id not in runs:
        raise ValueError(f"claim {claim_id!r} has no confirmatory runs; claims with runs: {sorted(runs)}")
    return runs[claim_id]


def confirmatory_runs(claim_id):
    """A claim's runs one by one (:func:`common.confirmatory.runs_one_by_one`)."""
    return confirmatory.runs_one_by_one(claim_runs(claim_id))


def write_confirmatory_plan(table):
    """Plan fresh seeds for the inconclusive claims of the published verdicts (``figures/egp_ts/verdicts.csv``),
    priced from the paper-scale ``table`` of runs, and save it to ``data/confirmatory/egp_ts.csv``; return it."""
    verdicts = pd.read_csv(paths.figures_dir(experiment.PAPER) / "verdicts.csv", keep_default_na=False)
    paper = experiment.SCALES["paper"]
    seeds = {spec.id: paper[BLOCK_SIZES[spec.block][0]] for spec in claim_specs() if spec.block in BLOCK_SIZES}
    seconds = final_rows(table).groupby(["experiment", "method"])["run_cpu_seconds"].mean()
    plan = confirmatory.admitted_plan(verdicts, seeds, lambda claim_id, n: n * sum(
        seconds[(block, method)] for block, _, methods, _ in claim_runs(claim_id) for method in methods),
        budget="the block's budget")
    confirmatory.save_plan(experiment.PAPER, plan, confirmatory_runs)
    return plan


def write_powered_plan(table, params):
    """The powered plan (:func:`common.confirmatory.write_powered_plan`) for the inconclusive claims with runs,
    priced from the paper-scale ``table``'s mean CPU seconds per (block, method)."""
    paper = experiment.SCALES["paper"]
    planned = [spec for spec in claim_specs() if spec.block in BLOCK_SIZES]
    seeds = {spec.id: paper[BLOCK_SIZES[spec.block][0]] for spec in planned}
    seconds = final_rows(confirmatory.split(table)[0]).groupby(["experiment", "method"])["run_cpu_seconds"].mean()
    return confirmatory.write_powered_plan(
        experiment.PAPER, planned, table, params, seeds,
        lambda claim_id, n: n * sum(seconds[(block, method)] for block, _, method, _ in confirmatory_runs(claim_id)),
        confirmatory_runs)
