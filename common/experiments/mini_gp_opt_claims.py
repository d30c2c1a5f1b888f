"""The claims of the MINI-META paper (Calandriello et al. 2022), declared before the runs.

Each claim of the paper's text (§5, App. A, App. B) is one
:class:`common.claims.ClaimSpec`. A claim about "both MINI-variants" is judged
for MINI-GP-UCB and MINI-GP-EI apart, and the BBOB claims per function. The
runs of a repetition share their first arm, so methods are compared seed by
seed (:func:`common.stats.paired_comparison`) on the final normalized R_T/T
(lower is better) or the number of unique candidates q_T (lower), each cell
judged by estimation (:mod:`common.claims`): the ratio of the two methods'
means with its interval, against the claim's margin.

Margins (declared 2026-11-25, before re-judging): the no-harm claim on regret
("does not greatly impact regret", §4) takes the constant of Thm. 4.1, whose
bound loses a factor C, run at C = 1.1 (:data:`THEOREM_MARGIN`); every other
comparison takes the project default, the same factor 1.1
(:data:`judging.DEFAULT_MARGIN`), "comparable ... regret" to GP-UCB and
BBKB (App. B.2) too since 2026-11-28 (:data:`COMPARABLE_MARGIN`: the theorem
does not cover other algorithms; it cited Thm. 4.1 before, at the same size). "Roughly as well as a
tuned epsilon-greedy" is judged as equivalence (the interval within the margin
both ways). The speed claims keep their tests on the quiet benchmark.

Confirmatory runs: :func:`write_confirmatory_plan` plans fresh seeds for every
claim the paper-scale verdicts leave "inconclusive" (a power computation on the
paper's sample, at most :data:`common.confirmatory.MOST_SEEDS` seeds a claim and
:data:`common.confirmatory.CPU_HOURS` in all), committed before any fresh run;
:func:`judge` judges the main verdicts on the paper's seeds only and the planned
claims again on the fresh seeds alone (the experiment's ``confirmatory`` block).
Ablations report each cell's ratio with its interval, and conclude that a
choice moves R_T/T by less than a factor 1.1 only on at least
:data:`ABLATION_FEWEST_SEEDS` seeds.

Claims about speed ("faster", "comparable runtime") are judged on a quiet,
dedicated benchmark at the notebook's T (``benchmarks/bench_mini_gp_opt.py
--record`` writes :data:`~common.experiments.mini_gp_opt_measures.TIMING_RECORD`), never on the CPU times of the grid,
which ran beside other work; until it has been recorded at that T they are
"not run at this scale". The paper's three results of
App. A (the unique-candidate posterior, Corollary A.2, Lemma 4.3) are checked
on fresh small runs as identities.
"""

import pandas as pd

from common import claims, confirmatory, judging, paths
from common.claims import ClaimSpec, Ran
from common.experiments import mini_gp_opt as experiment
from common.experiments.mini_gp_opt_measures import (comparisons_measure, FEW_UNIQUE_SHARE, few_of_the_arms,
                                                     runtime_gap, switch_gap_growth, faster_than, comparable_runtime,
                                                     unique_posterior_error, variance_ratio_bound, switch_count_bound)
from common.store import final_rows

MINI_VARIANTS = ("MINI-GP-UCB", "MINI-GP-EI")
GP_METHODS = ("MINI-GP-UCB", "MINI-GP-EI", "GP-UCB", "GP-BUCB", "BBKB", "BKB")
NO_HARM_PARTLY_AT = 0.75
# "a significant gap" between switches h and unique candidates q "especially in the later stages": read as the
# gap at T at least twice the gap at T/4, in at least this share of the seeds.
GAP_GROWTH = 2.0
SUBSTITUTE = ("NAS-Bench-101 cannot be had offline: the NAS block runs on nascell19-digits (2,441 random-feature "
              "CNN cells on scikit-learn's digits), so Table 1's bandwidths, tuned on the authors' encoding, "
              "do not transfer")
BLOCKS = ("nas", "bbob")
# "comparable runtime": at most this factor slower (median over the benchmark's repeats).
COMPARABLE_RUNTIME = 1.25
# "does not seem to match the large theoretical runtime gap": the measured speed-up below a tenth of the theory's.
RUNTIME_GAP_FRACTION = 0.1


def what_ran(params):
    """The scale of each block: "paper" only at the paper's seeds, horizon, problems and methods."""
    paper = experiment.SCALES["paper"]
    ran = {}
    for block, lists in (("nas", ("nas_methods",)), ("bbob", ("bbob_problems", "bbob_methods"))):
        partial = [name for name in lists if not set(paper[name]) <= set(params[name])]
        description = f"{params['n_seeds']} seeds, T = {params['T']}" + "".join(
            f", {name} {', '.join(params[name])} only" for name in partial)
        complete = (params["scale"] == "paper" and not partial and params["n_seeds"] >= paper["n_seeds"]
                    and params["T"] >= paper["T"])
        ran[block] = Ran("paper" if complete else ("quick" if params["scale"] == "paper" else params["scale"]),
                         description)
    return ran


# --------------------------------------------------------------------------- identities of App. A


#: The margin of the no-harm claims on regret: Thm. 4.1 bounds MINI-META's regret by the base algorithm's times a
#: constant C, which the paper runs at C = 1.1 (App. B.1, Table 1), "does not greatly impact regret" (§4).
THEOREM_MARGIN = judging.Margin("ratio", 0.10, "Thm. 4.1: regret within a factor C, run at C = 1.1 (App. B.1); "
                                            "'does not greatly impact regret' (§4)")
#: "Comparable" to GP-UCB and BBKB (App. B.2): Thm. 4.1's C bounds MINI-GP-Opt's regret against its own
#: switching-every-step variant, not against other algorithms, so the project default applies (re-read on
#: 2026-11-28, issue 40; the same factor 1.1 as before, so no verdict moves).
COMPARABLE_MARGIN = judging.Margin("ratio", 0.10, "project default: a factor 1.1 (the paper gives no size for "
                                                "'comparable'; Thm. 4.1's C covers a MINI variant against its own "
                                                "acquisition switching at every step, GP-UCB for MINI-GP-UCB, but "
                                                "not BBKB nor GP-UCB for MINI-GP-EI)")


# --------------------------------------------------------------------------- the claims
def claim_specs():
    """Every claim, in the paper's order."""
    nas = experiment.NAS_PROBLEM
    specs = []
    for variant in MINI_VARIANTS:
        specs += [
            ClaimSpec(
                f"nas-regret-vs-bbkb-{variant}", "Fig. (a)",
                "Both MINI-variants are comparable to the current state of the art BBKB", "§5",
                f"final normalized R_T/T on the NAS substitute, {variant} against BBKB",
                "1 if no worse (the interval of the ratio of mean R_T/T below the margin), else 0",
                comparisons_measure("nas", "normalized_regret", lambda params, v=variant: [(nas, v, "BBKB")],
                                    "no worse"), min_scale="paper", block="nas", margin=judging.DEFAULT_MARGIN),
            ClaimSpec(
                f"nas-regret-vs-egreedy-{variant}", "Fig. (a)",
                "[Both MINI-variants are] better than a tuned epsilon greedy", "§5",
                f"final normalized R_T/T on the NAS substitute, {variant} against epsilon-greedy tuned as the paper "
                "tunes it (the (a, b) of its grid with the lowest mean R_T/T over the same seeds); the GP methods "
                "are not tuned (fixed bandwidth and C)",
                "1 if better (the interval of the ratio of mean R_T/T below 1), else 0",
                comparisons_measure("nas", "normalized_regret", lambda params, v=variant: [(nas, v, "epsilon-greedy")],
                                    "better"), min_scale="paper", block="nas", margin=judging.DEFAULT_MARGIN),
            ClaimSpec(
                f"nas-unique-{variant}", "Fig. (b)",
                "MINI-GP-UCB and MINI-GP-EI still select an even smaller number of unique candidates [than BBKB]",
                "§5", f"unique candidates q_T on the NAS substitute, {variant} against BBKB",
                "1 if fewer (the interval of the ratio of mean q_T below 1), else 0",
                comparisons_measure("nas", "unique", lambda params, v=variant: [(nas, v, "BBKB")], "better"),
                min_scale="paper", block="nas", margin=judging.DEFAULT_MARGIN),
            ClaimSpec(
                f"nas-faster-{variant}", "Fig. (c)",
                "both MINI-GP-UCB and MINI-GP-EI are faster than BBKB, terminating earlier", "§5",
                f"CPU seconds of a whole run at the notebook's T, {variant} against BBKB, in the quiet benchmark",
                "1 if every repeat is faster than every repeat of BBKB, 0.5 if only the median is",
                faster_than(variant, "BBKB", lambda params: nas), reproduced_at=1.0, partly_at=0.5,
                min_scale="paper", block="nas"),
            ClaimSpec(
                f"nas-switch-gap-{variant}", "Fig. (d), (e)",
                "especially in the later stages of the optimization these two quantities [switches and unique "
                "candidates] have a significant gap", "§5",
                f"per seed, h_T - q_T of {variant} on the NAS substitute and its growth since T/4",
                "share of seeds with h_T > q_T and h_T - q_T >= `growth` x (h - q at T/4)",
                switch_gap_growth(variant), reproduced_at=0.75, partly_at=0.5, limits={"growth": GAP_GROWTH},
                min_scale="paper", block="nas"),
        ]
    specs += [
        ClaimSpec(
            "nas-switching-no-harm", "Thm. 4.1",
            "restricting the number of candidate switches does not greatly impact regret", "§4",
            "final normalized R_T/T on the NAS substitute, MINI-GP-UCB against GP-UCB (the same acquisition, "
            "switching every step)", "1 if no worse (the interval of the ratio of mean R_T/T below the margin, "
            "a factor C), else 0",
            comparisons_measure("nas", "normalized_regret", lambda params: [(nas, "MINI-GP-UCB", "GP-UCB")],
                                "no worse"), min_scale="paper", block="nas", margin=THEOREM_MARGIN),
        ClaimSpec(
            "nas-bbkb-few-unique", "Fig. (b)",
            "despite not explicitly being designed for this, BBKB does not select a very large number of unique "
            "arms", "§5", "unique candidates q_T of BBKB on the NAS substitute against the spec's yardstick for "
            f"few, written before any run (§7.1 F2: q_T < {FEW_UNIQUE_SHARE:g} |A|)",
            "1 if fewer (the interval of mean q_T over the yardstick below 1), else 0",
            few_of_the_arms("BBKB"), reproduced_at=1.0, min_scale="paper", block="nas", margin=judging.DEFAULT_MARGIN,
            changed_after_results=claims.ThresholdChange(
                {"partly_at": 0.5}, "2026-11-26",
                "the paper's sentence says how many unique arms BBKB selects, not that it selects fewer than other "
                "methods: judged as written, against the spec's yardstick (issue 28)",
                old_measure=comparisons_measure(
                    "nas", "unique", lambda params: [(nas, "BBKB", "GP-UCB"), (nas, "BBKB", "GP-BUCB")], "better"),
                old_test="fewer than GP-UCB and GP-BUCB: the share of the two comparisons where the interval of the "
                         "ratio of mean q_T lies below 1")),
        ClaimSpec(
            "nas-runtime-gap", "Fig. (c)",
            "the empirical runtime gap does not seem to match the large theoretical runtime gap (i.e., O(T + A) vs "
            "O(TA))", "§5", "BBKB's median CPU seconds over each MINI variant's at the notebook's T in the quiet "
            "benchmark, against T |A| / (T + |A|)",
            "share of the MINI variants whose ratio is below `fraction` of the theoretical one",
            runtime_gap(MINI_VARIANTS, "BBKB", lambda params: nas), reproduced_at=1.0, partly_at=0.5,
            limits={"fraction": RUNTIME_GAP_FRACTION}, min_scale="paper", block="nas"),
    ]
    specs.append(ClaimSpec(
        "table1-values", "Table 1", "Optimal hyper-parameters found for the NAS-bench experiment", "App. B.1",
        "the grid-searched kernel bandwidth and C per method", "compared with the paper's values", None,
        not_comparable=SUBSTITUTE))
    for variant in MINI_VARIANTS:
        specs += [
            ClaimSpec(
                f"bbob-regret-{variant}", "Fig. 3",
                "our approach achieve[s] comparable runtime and regret to other state of the art GP-Opt methods",
                "App. B.2",
                f"final normalized R_T/T on each BBOB function, {variant} against GP-UCB and BBKB (8 cells)",
                "share of cells no worse (the interval of the ratio of mean R_T/T below the margin, a factor 1.1)",
                comparisons_measure("bbob", "normalized_regret", lambda params, v=variant: [
                    (problem, v, other) for problem in params["bbob_problems"] for other in ("GP-UCB", "BBKB")],
                    "no worse"), reproduced_at=1.0, partly_at=NO_HARM_PARTLY_AT, min_scale="paper",
                block="bbob", margin=COMPARABLE_MARGIN),
            ClaimSpec(
                f"bbob-runtime-{variant}", "Fig. 4",
                "our approach achieve[s] comparable runtime and regret to other state of the art GP-Opt methods",
                "App. B.2", f"CPU seconds of a whole run at equal T on each BBOB function, {variant} against GP-UCB "
                "and BBKB, in the quiet benchmark",
                "share of the 8 cells where its median is at most `factor` x the other's",
                comparable_runtime(variant), reproduced_at=1.0, partly_at=NO_HARM_PARTLY_AT,
                limits={"factor": COMPARABLE_RUNTIME}, min_scale="paper", block="bbob"),
        ]
    specs += [
        ClaimSpec(
            "bbob-rosenbrock-egreedy", "Fig. 3",
            "on more complex problem like the Rosenbrock function ... all GP-Opt methods, including ours, only "
            "perform roughly as well as a tuned epsilon-GREEDY exploration", "App. B.2",
            "final normalized R_T/T on Rosenbrock f104, each GP method against the tuned epsilon-greedy",
            "share of GP methods equivalent to epsilon-greedy (the interval of the ratio of mean R_T/T within the "
            "margin both ways)",
            comparisons_measure("bbob", "normalized_regret", lambda params: [
                ("Rosenbrock f104", name, "epsilon-greedy") for name in params["bbob_methods"] if name in GP_METHODS],
                "equivalent"), reproduced_at=1.0, partly_at=0.5, min_scale="paper", block="bbob",
            margin=judging.DEFAULT_MARGIN),
        ClaimSpec(
            "eq4-unique-posterior", "Eq. 4, App. A.1",
            "the posterior on the unique candidates, with counts, equals the GP posterior on all evaluations",
            "§3.2, App. A.1", "largest |difference| of mean and variance against the naive GP on the expanded rows",
            "1 if within `tolerance`", unique_posterior_error, kind="identity", limits={"tolerance": 1e-9}),
        ClaimSpec(
            "corollary-a2", "Cor. A.2",
            "selecting B_h = floor((C^2 - 1)/sigma_t^2(x_{t_h+1})) ... the variance ratio is bounded", "App. A",
            "largest sigma^2_before / sigma^2_after over the arms and the epochs sized by the rule, 6 runs of 600 "
            "steps", "1 if at most C^2 (the paper prints C; with C^2 - 1 in B_h the bound is C^2)",
            variance_ratio_bound, kind="identity", limits={"tolerance": 1e-9}),
        ClaimSpec(
            "lemma-4-3", "Lemma 4.3", "After T steps, MINI-META performs at most O(C^2/(C^2-1) gamma_T) switches",
            "§4.2, App. A.2", "the proof's steps on 6 runs of 600 steps: C^2 - 1 <= 2 sigma~^2_j B_j per epoch, "
            "h <= 2 C^2/(C^2 - 1) sum_s sigma~^2_{s-1}(x_s) (the bound before its last relaxation, whose "
            "(1 + kappa^2/lambda) factor makes it exceed T here), and sum_s log(1 + sigma~^2_{s-1}(x_s)) = logdet_T",
            "1 if both inequalities hold and the chain rule is within `tolerance` on every run", switch_count_bound,
            kind="identity", limits={"tolerance": 1e-9}),
    ]
    return specs


def judge(table, params, fresh=None):
    """The verdict table of every claim on the runs of an execution, judged on the paper's seeds only
    (:func:`common.confirmatory.split`), with the confirmatory plan's state in the ``confirmatory`` column
    (:func:`common.confirmatory.beside`) and, where fresh-seed runs are given (``fresh``, else the fresh seeds of
    ``table``), the planned claims judged again on the fresh seeds alone, epsilon-greedy tuned on those seeds."""
    paper, fresh_in_table = confirmatory.split(table)
    fresh = fresh_in_table if fresh is None else fresh
    plan = confirmatory.plan_in_force(experiment.PAPER, confirmatory.plan_of(params))
    verdicts = claims.judge(claim_specs(), paper, params, ran=what_ran(params))
    planned = set(plan.loc[plan["planned_seeds"].astype(int) > 0, "id"])
    fresh_verdicts = None
    if len(fresh) and planned:
        fresh_verdicts = claims.judge([spec for spec in claim_specs() if spec.id in planned],
                                      experiment.with_tuned_epsilon_greedy(fresh), params, ran=what_ran(params))
    return confirmatory.beside(verdicts, fresh_verdicts, plan)


def ablation_verdicts(table, params, verdicts, ablation, before, after):
    """Every empirical claim judged again with the runs of the ablation block ``ablation`` in place of the figures'
    runs of the same methods, on each problem where the ablation ran every seed of them
    (:func:`~common.experiments.mini_gp_opt.with_ablation_runs`), on the paper's seeds, beside its published
    verdict; only the claims whose verdict or effect moves.

    Parameters
    ----------
    table : pandas.DataFrame
        Tidy table of runs; fresh seeds of the confirmatory block are left out (:func:`common.confirmatory.split`).
    params : dict
        Resolved parameters.
    verdicts : pandas.DataFrame
        The published verdicts of the same runs (:func:`judge`), so that only the ablated runs are judged here.
    ablation : str
        The ablation block (``"oversampling_ablation"``, ``"bandwidth_ablation"``).
    before, after : str
        How the columns name the figures' value and the ablation's (``"qbar 1"``, ``"qbar 4"``).

    Returns
    -------
    (pandas.DataFrame, list of str) or None
        The table (``id``, the verdict and effect at each value) and the problems whose runs were replaced; None
        until the ablation covers a problem. The speed claims read the quiet benchmark at the published values and
        cannot move.
    """
    paper, _ = confirmatory.split(table)
    found = experiment.with_ablation_runs(paper, ablation)
    if found is None:
        return None
    swapped, problems = found
    published = verdicts.set_index("id")[["verdict", "effect"]].fillna("")
    ablated = claims.judge(claim_specs(), swapped, params, ran=what_ran(params)).set_index("id")[["verdict", "effect"]]
    ablated = ablated.fillna("")
    moved = [claim for claim in published.index if (published.loc[claim] != ablated.loc[claim]).any()]
    return pd.DataFrame({"id": moved,
                         f"verdict ({before})": published.loc[moved, "verdict"].to_numpy(),
                         f"verdict ({after})": ablated.loc[moved, "verdict"].to_numpy(),
                         f"effect ({before})": published.loc[moved, "effect"].to_numpy(),
                         f"effect ({after})": ablated.loc[moved, "effect"].to_numpy()}), problems


def oversampling_verdicts(table, params, verdicts):
    """:func:`ablation_verdicts` with BBKB at the oversampling ablation's qbar."""
    return ablation_verdicts(table, params, verdicts, "oversampling_ablation", f"qbar {params['bbkb_oversampling']:g}",
                             f"qbar {params['oversampling_ablation_qbar']:g}")


def bandwidth_verdicts(table, params, verdicts):
    """:func:`ablation_verdicts` with the GP methods of the NAS figure at Table 1's pick of the bandwidth."""
    return ablation_verdicts(table, params, verdicts, "bandwidth_ablation", f"l^2 {params['bandwidth_factor']:g} m",
                             f"l^2 {params['bandwidth_ablation_factor']:g} m")


# --------------------------------------------------------------------------- the confirmatory block


def claim_runs(claim_id):
    """The runs a claim's cells are judged on, for the confirmatory grid: {(block, problem): [methods]} at the
    paper's problems. Only the claims judged seed by seed (:func:`comparisons_measure`) have such runs."""
    spec = {found.id: found for found in claim_specs()}.get(claim_id)
    pairs_of = getattr(getattr(spec, "measure", None), "pairs_of", None)
    if pairs_of is None:
        judged = [found.id for found in claim_specs() if hasattr(found.measure, "pairs_of")]
        raise ValueError(f"claim {claim_id!r} is not judged seed by seed on runs of the grid; claims that are: "
                         f"{', '.join(judged)}")
    runs = {}
    for problem, *names in pairs_of({**experiment.SCALES["paper"], "scale": "paper"}):
        methods = runs.setdefault((spec.measure.block, problem), [])
        methods += [name for name in names if name not in methods]
    return runs


def confirmatory_runs(claim_id):
    """A claim's runs one by one, as the plan's runs file keeps them (:func:`common.confirmatory.save_runs`): a list
    of (block, problem, method)."""
    return [(block, problem, method) for (block, problem), methods in claim_runs(claim_id).items()
            for method in methods]


def confirmatory_cost(table, claim_id, n_seeds):
    """CPU seconds of ``n_seeds`` fresh seeds of a claim's runs, priced from the mean ``run_cpu_seconds`` of the
    paper-scale ``table``'s runs of each (block, problem, method), every epsilon-greedy setting counted."""
    seconds = final_rows(table).groupby(["experiment", "problem", "method"])["run_cpu_seconds"].mean()
    return n_seeds * sum(seconds[(block, problem, name)] * len(experiment.epsilon_settings(name))
                         for (block, problem), names in claim_runs(claim_id).items() for name in names)


def write_confirmatory_plan(table):
    """Plan fresh seeds for the inconclusive claims of the published verdicts (``figures/mini_gp_opt/verdicts.csv``)
    admitted within the project's budget (:func:`common.confirmatory.admitted_plan`, priced by
    :func:`confirmatory_cost` from the paper-scale ``table`` of runs, every epsilon-greedy setting included), save it
    to ``data/confirmatory/mini_gp_opt.csv``; return it."""
    verdicts = pd.read_csv(paths.figures_dir(experiment.PAPER) / "verdicts.csv", keep_default_na=False)
    judged = [spec.id for spec in claim_specs() if hasattr(spec.measure, "pairs_of")]
    seeds = {claim_id: experiment.SCALES["paper"]["n_seeds"] for claim_id in judged}
    plan = confirmatory.admitted_plan(verdicts[verdicts["id"].isin(judged)], seeds,
                                      lambda claim_id, n: confirmatory_cost(table, claim_id, n),
                                      budget="the block's budget")
    confirmatory.save_plan(experiment.PAPER, plan, confirmatory_runs)
    return plan


def write_powered_plan(table, params):
    """The powered plan (:func:`common.confirmatory.write_powered_plan`) for the inconclusive claims judged seed by
    seed, priced by :func:`confirmatory_cost` from the paper-scale ``table``."""
    planned = [spec for spec in claim_specs() if hasattr(spec.measure, "pairs_of")]
    seeds = {spec.id: experiment.SCALES["paper"]["n_seeds"] for spec in planned}
    return confirmatory.write_powered_plan(experiment.PAPER, planned, table, params, seeds,
                                           lambda claim_id, n: confirmatory_cost(table, claim_id, n),
                                           confirmatory_runs)


def confirmatory_state(fresh):
    """One line for the notebook: the committed plan (claims planned, fresh seeds) and the fresh-seed runs loaded."""
    plan = confirmatory.load_plan(experiment.PAPER)
    planned = plan[plan["planned_seeds"].astype(int) > 0]
    text = (f"{len(planned)} of {len(plan)} inconclusive claims planned"
            + (f" ({', '.join(f'{row.id}: {row.planned_seeds} fresh seeds' for row in planned.itertuples())})"
               if len(planned) else "")
            if len(plan) else "no claim inconclusive at the paper's scale when it was drawn, nothing planned")
    return (f"Confirmatory plan (data/confirmatory/{experiment.PAPER}.csv, committed before any fresh run): {text}; "
            f"fresh-seed runs loaded: {len(fresh.groupby('run_key')) if len(fresh) else 0}.")
