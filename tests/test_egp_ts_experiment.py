"""The egp_ts experiment: its grid, its runs and its claims judged on tables whose outcome is known."""
import json

import numpy as np
import pandas as pd
import pytest

from common import confirmatory, judging
from common.experiments import egp_ts as experiment
from common.experiments import egp_ts_claims as egp_claims
from common.experiments import egp_ts_findings, egp_ts_measures

PAPER_PARAMS = {**experiment.SCALES["paper"], "scale": "paper"}


def _config(**changes):
    config = {"paper": "egp_ts", "experiment": "synthetic", "problem": "Drop-wave", "method": "EGP-TS (A)", "seed": 0,
              "T": 4, "n_features": 20, "refit_every": 50, "n_candidates": 50, "n_restarts": 1}
    return {**config, **changes}


def test_the_paper_grid_has_one_run_per_cell_and_seed():
    grid = experiment.make_grid(PAPER_PARAMS)
    keys = {tuple(sorted((k, str(v)) for k, v in config.items())) for config in grid}
    assert len(keys) == len(grid)
    per_cell = pd.DataFrame(grid).groupby(["experiment", "problem", "method", "batch_size", "training_runs"],
                                          dropna=False).size()
    assert set(per_cell) == {10}


@pytest.mark.parametrize("method", experiment.METHODS + [experiment.RANDOM_SEARCH])
def test_every_method_builds_on_the_unit_cube(method):
    built = experiment.make_method(_config(method=method), dim=2)
    assert built.name == method and np.array_equal(built.bounds, [[0, 1], [0, 1]])


def test_an_unknown_method_is_refused_with_the_allowed_ones():
    with pytest.raises(ValueError, match="allowed"):
        experiment.make_method(_config(method="GP-UCB"), dim=2)


def test_a_run_recomputes_to_the_same_numbers_and_shares_the_initial_design():
    first, again = experiment.run(_config()), experiment.run(_config())
    np.testing.assert_array_equal(first["f"], again["f"])
    other = experiment.run(_config(method="GP-TS (RBF)"))
    np.testing.assert_array_equal(first["f"][:experiment.N_INIT], other["f"][:experiment.N_INIT])
    assert np.all(np.diff(first["simple_regret"]) <= 0) and first["weights"].shape == (4, 4)


def test_a_parallel_run_makes_exactly_T_evaluations_after_the_initial_points():
    result = experiment.run(_config(experiment="parallel", problem="Ackley-5d", method="EGP-TS (B)", batch_size=3,
                                    T=7))
    assert len(result["f"]) == experiment.N_INIT + 7


def _table(levels, block="synthetic", problems=("Ackley-5d",), seeds=10, column="simple_regret", noise=0.01):
    """Runs whose final value is ``levels[method]`` plus seed noise (``noise`` times a standard normal); two
    evaluations each."""
    rng = np.random.default_rng(0)
    rows = []
    for problem in problems:
        for method, level in levels.items():
            for seed in range(seeds):
                final = level + noise * rng.standard_normal()
                for step, value in enumerate((final + 1.0, final)):
                    rows.append({"run_key": f"{problem}-{method}-{seed}", "eval": step, "experiment": block,
                                 "problem": problem, "method": method, "seed": seed, column: value,
                                 "simple_regret": value if block == "synthetic" else np.nan})
    return pd.DataFrame(rows)


def _verdicts(table):
    return egp_claims.judge(table, PAPER_PARAMS).set_index("id")["verdict"]


FIG1 = {"EGP-TS (A)": 0.1, "GP-TS (RBF)": 1.0, "GP-TS (RBF-ARD)": 2.0, "GP-TS (Matérn-1.5)": 3.0,
        "GP-TS (Matérn-2.5)": 4.0, "GP-EI": 0.5, "BanditBO (A)": 5.0, "EXP3BO (A)": 6.0}


def test_a_clearly_best_egp_ts_reproduces_the_figure_1_claims_and_a_worst_one_does_not():
    verdicts = _verdicts(_table(FIG1))
    assert verdicts["fig1-egp-beats-gp-ts-Ackley-5d"] == verdicts["fig1-egp-beats-bandits-Ackley-5d"] == "reproduced"
    assert verdicts["fig1-kernel-matters"] == "not run at this scale"  # only one function ran
    verdicts = _verdicts(_table({**FIG1, "EGP-TS (A)": 9.0}))
    assert verdicts["fig1-egp-beats-gp-ts-Ackley-5d"] == "not reproduced"


def test_a_small_noisy_sample_leaves_a_figure_1_claim_inconclusive_with_the_seeds_that_would_decide_it():
    # 6 seeds, EGP-TS ahead by a factor 0.8 and the noise as large as the gaps: one cell supported, none
    # contradicted, so the undecided cells could still carry the claim: inconclusive (not refuted), with the seeds
    # that would decide it.
    table = _table({**FIG1, "EGP-TS (A)": 2.0, **{name: 2.5 for name in egp_claims.GP_TS}}, seeds=6, noise=0.5)
    verdicts = egp_claims.judge(table, PAPER_PARAMS).set_index("id")
    claim = verdicts.loc["fig1-egp-beats-gp-ts-Ackley-5d"]
    assert claim["verdict"] == "inconclusive" and claim["effect"] == "1 of 4 cells supported, 3 undecided"
    assert claim["seeds_to_decide"] != ""
    assert claim["verdict_by_p_value"] == "not reproduced"  # what the p-value rule made of the same runs


def test_a_figure_1_claim_with_one_cell_contradicted_is_not_reproduced_as_stated():
    # One GP-TS kernel ahead of EGP-TS: that one of the four "beats every GP-TS" cells is contradicted (against the
    # paper's direction), so the claim can no longer reach "reproduced"; the rules before 2026-11-27 called it
    # inconclusive.
    first, *rest = egp_claims.GP_TS
    table = _table({**FIG1, "EGP-TS (A)": 2.0, first: 1.4, **{name: 2.5 for name in rest}}, seeds=6, noise=0.5)
    claim = egp_claims.judge(table, PAPER_PARAMS).set_index("id").loc["fig1-egp-beats-gp-ts-Ackley-5d"]
    assert claim["verdict"] == "not reproduced" and claim["reason"].startswith("not reproduced as stated")
    assert "1 contradicted" in claim["effect"] and "the rules before give: inconclusive" in claim["disclosure"]


def test_a_figure_1_claim_whose_gps_are_only_a_little_behind_is_undecided_not_refuted():
    # EGP-TS a little ahead everywhere: an interval that excludes a gain of our margin but holds no difference
    # refutes nothing the paper printed (issue 63); the rule before 2026-12-03 called it not reproduced.
    table = _table({**FIG1, "EGP-TS (A)": 2.0, **{name: 2.2 for name in egp_claims.GP_TS}}, seeds=6, noise=0.5)
    claim = egp_claims.judge(table, PAPER_PARAMS).set_index("id").loc["fig1-egp-beats-gp-ts-Ackley-5d"]
    assert claim["verdict"] == "inconclusive" and "contradicted" not in claim["effect"]


def test_the_kernel_matters_where_the_friedman_test_finds_the_kernels_different():
    problems = ("Ackley-5d", "Zakharov", "Drop-wave", "Eggholder")
    equal = {**FIG1, **{name: 1.0 for name in egp_claims.GP_TS}}
    table = pd.concat([_table(FIG1, problems=problems[:2]), _table(equal, problems=problems[2:])], ignore_index=True)
    assert _verdicts(table)["fig1-kernel-matters"] == "reproduced"  # 2 of 4 functions
    assert _verdicts(_table(equal, problems=problems))["fig1-kernel-matters"] == "not reproduced"


def test_three_of_four_counts_the_functions_where_egp_ei_beats_the_best_gp_ei_kernel():
    levels = {"EGP-EI (A)": 0.5, "GP-EI (RBF)": 1.0, "GP-EI (RBF-ARD)": 0.4, "GP-EI (Matérn-1.5)": 2.0,
              "GP-EI (Matérn-2.5)": 3.0}
    table = pd.concat([_table(levels, problems=("Ackley-5d", "Zakharov", "Drop-wave")),
                       _table({**levels, "GP-EI (RBF-ARD)": 2.0}, problems=("Eggholder",))], ignore_index=True)
    # RBF-ARD is better than EGP-EI on three functions: only Eggholder counts.
    assert _verdicts(table)["fig6-egp-ei-three-of-four"] == "not reproduced"


def test_the_table_identities_and_the_paper_ackley_error():
    verdicts = _verdicts(_table(FIG1))
    assert verdicts["table1-optima"] == "verified" and verdicts["simple-regret-monotone"] == "verified"
    assert verdicts["table1-ackley-maximizer"] == "not verified"  # the printed x* is a local maximum (spec §2.9)


def test_claims_below_the_paper_scale_are_not_run():
    quick = {**experiment.SCALES["quick"], "scale": "quick"}
    verdicts = egp_claims.judge(_table(FIG1), quick).set_index("id")["verdict"]
    assert verdicts["fig1-egp-beats-gp-ts-Ackley-5d"] == "not run at this scale"


def test_the_hyperparameter_ablation_repeats_synthetic_runs_changing_only_the_fitting_settings():
    grid = experiment.make_grid(PAPER_PARAMS)
    synthetic = [{**c, "experiment": None} for c in grid if c["experiment"] == "synthetic"]
    ablation = [c for c in grid if c["experiment"] == "hyperparameter_ablation"]
    assert len(ablation) == 4 * len(experiment.ABLATION_METHODS) * PAPER_PARAMS["hyperparameter_ablation_seeds"]
    for config in ablation:
        assert config["hyperparameters"] == "sklearn defaults"
        assert {key: value for key, value in config.items() if key != "hyperparameters"} | {"experiment": None} \
            in synthetic


def test_sklearn_defaults_start_every_fit_from_one_in_wide_bounds():
    built = experiment.make_method(_config(method="GP-TS (Matérn-2.5)", hyperparameters="sklearn defaults"), dim=2)
    assert not built.warm_start and built.mle_restarts == 0
    assert (built.initial_noise, built.noise_bounds) == (1.0, (1e-5, 1e5))
    assert built.kernel.lengthscale[0] == 1.0 and built.kernel.lengthscale_bounds == (1e-5, 1e5)
    spec = experiment.make_method(_config(method="GP-TS (Matérn-2.5)"), dim=2)
    assert spec.warm_start and spec.kernel.lengthscale[0] == 0.3 and spec.noise_bounds == (1e-6, 1e-1)


def test_runs_much_faster_is_judged_on_the_quiet_record_seed_by_seed(tmp_path, monkeypatch):
    record = tmp_path / "egp_ts_timing.csv"
    monkeypatch.setattr(egp_ts_measures, "TIMING_RECORD", record)
    measure = egp_claims.faster_measure("Robot pushing 3D", "EGP-TS (B)", "FB-GP-TS")
    assert measure(None, PAPER_PARAMS, {}).score is None  # no record: not judged
    seeds = np.arange(10)
    pd.DataFrame({"problem": "Robot pushing 3D", "method": ["EGP-TS (B)"] * 10 + ["FB-GP-TS"] * 10,
                  "seed": np.concatenate([seeds, seeds]),
                  "cpu_seconds": np.concatenate([1.0 + 0.01 * seeds, 3.0 + 0.01 * seeds])}).to_csv(record, index=False)
    margin = {"margin": judging.DEFAULT_MARGIN}
    faster = measure(None, PAPER_PARAMS, margin)
    assert (faster.score, faster.cells[0].judgement.judgement) == (1, "supported")
    slower = egp_claims.faster_measure("Robot pushing 3D", "FB-GP-TS", "EGP-TS (B)")(None, PAPER_PARAMS, margin)
    assert (slower.score, slower.reachable) == (0, 0)   # 3x slower: contradicted


def test_findings_count_the_cells_where_egp_ts_is_better():
    table = _table(FIG1)
    params = {**PAPER_PARAMS, "synthetic_problems": ["Ackley-5d"]}
    text = egp_ts_findings.findings(table, params, egp_claims.judge(table, params))
    assert ("EGP-TS (A) against the four single-kernel GP-TS: better (the effect's 95 % interval beyond no "
            "difference) in 4 (GP-TS (RBF) on Ackley-5d ") in text
    assert "against the bandit ensembles: better (the effect's 95 % interval beyond no difference) in 2 (" in text
    assert "of 2 cells and worse in 0." in text
    assert "The four kernels differ significantly (Friedman) on 1 of 1 functions (Ackley-5d)" in text


def test_the_confirmatory_block_adds_only_fresh_seeds_of_planned_claims():
    plain = experiment.make_grid(PAPER_PARAMS)
    with_fresh = experiment.make_grid({**PAPER_PARAMS, "confirmatory": True})
    added = with_fresh[len(plain):]
    assert with_fresh[:len(plain)] == plain and added
    assert min(config["seed"] for config in added) >= confirmatory.SEED_OFFSET
    planned = confirmatory.load_plan("egp_ts")
    most = int(planned["planned_seeds"].max())
    assert max(config["seed"] for config in added) == confirmatory.SEED_OFFSET + most - 1


def test_fresh_seeds_never_reach_the_paper_scale_verdicts(monkeypatch):
    seen = []
    monkeypatch.setattr(egp_claims.claims, "judge", lambda specs, table, params, ran: seen.append(
        sorted(set(table["seed"]))) or pd.DataFrame({"id": [], "verdict": [], "confirmatory": []}))
    table = pd.DataFrame({"seed": [0, 1, confirmatory.SEED_OFFSET]})
    egp_claims.judge(table, PAPER_PARAMS)
    assert seen == [[0, 1], [confirmatory.SEED_OFFSET]]


def test_the_evidence_ablation_repeats_egp_ts_runs_changing_only_the_evidence():
    grid = experiment.make_grid(PAPER_PARAMS)
    synthetic = [{**c, "experiment": None} for c in grid if c["experiment"] == "synthetic"]
    robot = [{**c, "experiment": None} for c in grid if c["experiment"] == "robot"]
    ablation = [c for c in grid if c["experiment"] == "evidence_ablation"]
    assert len(ablation) == (4 + len(experiment.ROBOT)) * len(experiment.EVIDENCE_ABLATION_METHODS) * PAPER_PARAMS[
        "evidence_ablation_seeds"]
    for config in ablation:
        assert config["weight_evidence"] == "exact"
        assert {key: value for key, value in config.items() if key != "weight_evidence"} | {"experiment": None} \
            in synthetic + robot
    # Every other run keeps its configuration, hence its cache key: the default evidence is not in it.
    assert not any("weight_evidence" in c for c in grid if c["experiment"] != "evidence_ablation")
    assert experiment.make_method(_config(), dim=2).weight_evidence == "rf"
    assert experiment.make_method(_config(weight_evidence="exact"), dim=2).weight_evidence == "exact"


def test_random_search_is_its_own_block_with_each_blocks_seeds_and_initial_design():
    grid = experiment.make_grid(PAPER_PARAMS)
    searches = [c for c in grid if c["method"] == experiment.RANDOM_SEARCH]
    assert {c["experiment"] for c in searches} == {"random_search"}
    on_robots = [c for c in searches if c["problem"] in experiment.ROBOT]
    on_networks = [c for c in searches if c["problem"] in experiment.FNN]
    assert len(searches) - len(on_robots) - len(on_networks) == 4 * PAPER_PARAMS["synthetic_seeds"]
    assert len(on_robots) == len(experiment.ROBOT) * PAPER_PARAMS["robot_seeds"]
    at_paper_setting = [c for c in on_networks if c["training_runs"] == PAPER_PARAMS["fnn_training_runs"]]
    assert len(at_paper_setting) == len(experiment.FNN) * PAPER_PARAMS["fnn_seeds"]
    assert all(c["T"] == PAPER_PARAMS["fnn_T"] for c in at_paper_setting)
    result = experiment.run(_config(experiment="random_search", method=experiment.RANDOM_SEARCH))
    egp = experiment.run(_config())
    np.testing.assert_array_equal(result["f"][:experiment.N_INIT], egp["f"][:experiment.N_INIT])
    assert len(result["f"]) == experiment.N_INIT + 4 and np.all(np.diff(result["simple_regret"]) <= 0)
    robot = list(experiment.ROBOT)[0]
    on_robot = experiment.run(_config(experiment="random_search", problem=robot, method=experiment.RANDOM_SEARCH))
    pushed = experiment.run(_config(experiment="robot", problem=robot, method="GP-TS (RBF)"))
    np.testing.assert_array_equal(on_robot["f"][:experiment.N_INIT], pushed["f"][:experiment.N_INIT])
    assert "best_distance" in on_robot and np.all(np.diff(on_robot["best_distance"]) <= 0)


def _with_regret(table):
    return table.assign(simple_regret=table["best_so_far"])


def test_random_search_enters_no_claim():
    base = _table(FIG1, problems=("Ackley-5d", "Zakharov"))
    best = _with_regret(_table({experiment.RANDOM_SEARCH: 1e-3}, block="random_search",
                               problems=("Ackley-5d", "Zakharov"), column="best_so_far"))
    with_search = pd.concat([base, best], ignore_index=True)
    plain, searched = egp_claims.judge(base, PAPER_PARAMS), egp_claims.judge(with_search, PAPER_PARAMS)
    pd.testing.assert_frame_equal(plain, searched)


def test_the_random_search_sentence_says_which_methods_it_beats_matches_or_trails():
    levels = {"EGP-TS (A)": 0.1, "GP-TS (RBF)": 1.0, "GP-EI": 0.5}
    table = pd.concat([_table(levels), _with_regret(_table({experiment.RANDOM_SEARCH: 0.5}, block="random_search",
                                                           column="best_so_far"))], ignore_index=True)
    text = experiment.random_search_sentence(table, ["Ackley-5d"], list(levels))
    assert "Ackley-5d (mean 0.5" in text
    assert "beats GP-TS (RBF) 0.5" in text and "matches GP-EI 1" in text and "trails EGP-TS (A) 4.9" in text
    more = pd.concat([table, _table({"GP-TS (RBF-ARD)": 2.0, "GP-TS (Matérn-1.5)": 3.0})], ignore_index=True)
    text = experiment.random_search_sentence(more, ["Ackley-5d"], list(levels) + ["GP-TS (RBF-ARD)",
                                                                                 "GP-TS (Matérn-1.5)"])
    assert "matches GP-EI 1" in text and "trails EGP-TS (A) 4.9" in text and "beats the other 3." in text
    text = experiment.random_search_sentence(table, ["Ackley-5d"], ["GP-TS (RBF)"])
    assert text.endswith("Ackley-5d (mean 0.501): beats GP-TS (RBF) 0.503x [0.495, 0.51].")
    assert experiment.random_search_sentence(_table(levels), ["Ackley-5d"], list(levels)) == ""


def test_the_evidence_ablation_table_gives_the_ratio_its_interval_and_the_margin():
    ours = _table({"EGP-TS (A)": 1.0, "EGP-TS (B)": 1.0})
    exact = _with_regret(_table({"EGP-TS (A)": 0.5, "EGP-TS (B)": 1.0}, block="evidence_ablation",
                                column="best_so_far", noise=0.001))
    exact["run_key"] += "-exact"
    assert experiment.evidence_ablation_table(ours) is None
    found = experiment.evidence_ablation_table(pd.concat([ours, exact], ignore_index=True)).set_index("method")
    halved, same = found.loc["EGP-TS (A)"], found.loc["EGP-TS (B)"]
    assert (halved["seeds"], halved["W/T/L"], halved["outcome"], halved["within 1.1x"]) == (10, "10/0/0", "lower",
                                                                                             "no")
    assert halved["ratio"].startswith("0.5") and halved["exact"] == pytest.approx(0.5, abs=0.01)
    assert (same["outcome"], same["within 1.1x"]) == ("undecided", "yes")
    summary = experiment.evidence_ablation_summary(pd.concat([ours, exact], ignore_index=True))
    assert "EGP-TS (A): lower on 1 of 1 problems (Ackley-5d 0.5" in summary
    assert summary.endswith("rule out an effect of a factor 1.1 in 1 of 2 cells.")


def test_fig_4_runs_at_the_papers_setting_and_a_reduced_block_is_named_and_tagged_as_reduced():
    ran = egp_claims.what_ran(PAPER_PARAMS)
    assert all("reduced" not in found.description and found.scale == "paper" for found in ran.values())
    reduced = {**PAPER_PARAMS, "fnn_training_runs": experiment.REDUCED_FNN_TRAINING_RUNS,
               "fnn_T": experiment.REDUCED_FNN_EVALUATIONS}
    reduced_ran = egp_claims.what_ran(reduced)["fnn"]
    assert "reduced from the paper's" in reduced_ran.description and reduced_ran.scale != "paper"


def _fnn_configs(grid):
    return {json.dumps(c, sort_keys=True) for c in grid
            if c["problem"] in experiment.FNN and c["experiment"] in experiment.REDUCED_FNN_BLOCKS}


def test_the_reduced_fig_4_ablation_is_the_reduced_settings_grid_so_that_its_cached_runs_answer():
    reduced = {**PAPER_PARAMS, "fnn_training_runs": experiment.REDUCED_FNN_TRAINING_RUNS,
               "fnn_T": experiment.REDUCED_FNN_EVALUATIONS, "fnn_reduced_ablation_seeds": 0}
    with_ablation, without = _fnn_configs(experiment.make_grid(PAPER_PARAMS)), _fnn_configs(
        experiment.make_grid({**PAPER_PARAMS, "fnn_reduced_ablation_seeds": 0}))
    assert with_ablation - without == _fnn_configs(experiment.make_grid(reduced))
    # At the reduced setting itself there is nothing to add.
    assert _fnn_configs(experiment.make_grid({**reduced, "fnn_reduced_ablation_seeds": 10})) == _fnn_configs(
        experiment.make_grid(reduced))


def _fnn_table(levels, training_runs, T, block="fnn"):
    table = _table(levels, block=block, problems=tuple(experiment.FNN), column="best_so_far", noise=0.001)
    table["run_key"] += f"-{training_runs}"
    return table.assign(training_runs=training_runs, T=T)


def test_the_reduced_runs_get_blocks_of_their_own_and_enter_no_claim():
    levels = {name: 0.9 for name in experiment.FNN_METHODS}
    paper = _fnn_table(levels, experiment.PAPER_FNN_TRAINING_RUNS, experiment.PAPER_FNN_EVALUATIONS)
    reduced = pd.concat([_fnn_table({**levels, "EGP-TS (B)": 0.99}, experiment.REDUCED_FNN_TRAINING_RUNS,
                                    experiment.REDUCED_FNN_EVALUATIONS),
                         _fnn_table({experiment.RANDOM_SEARCH: 0.8}, experiment.REDUCED_FNN_TRAINING_RUNS,
                                    experiment.REDUCED_FNN_EVALUATIONS, block="random_search")], ignore_index=True)
    both = pd.concat([paper, reduced], ignore_index=True)
    named = experiment.name_reduced_fnn(both, PAPER_PARAMS)
    assert set(named.loc[len(paper):, "experiment"]) == set(experiment.REDUCED_FNN_BLOCKS.values())
    assert (named.iloc[:len(paper)]["experiment"] == "fnn").all()
    pd.testing.assert_frame_equal(experiment.name_reduced_fnn(named, PAPER_PARAMS), named)
    pd.testing.assert_frame_equal(egp_claims.judge(both, PAPER_PARAMS), egp_claims.judge(paper, PAPER_PARAMS))
    by_setting = egp_claims.fig4_at_both_settings(both, PAPER_PARAMS).set_index("setting")["effect"]
    assert by_setting.str.startswith("25 of 25 cells supported").tolist() == [False, True]


def test_the_reduced_fig_4_table_compares_the_settings_at_30_evaluations_seed_by_seed():
    rows = []
    for training_runs, T, final in ((3, 30, 0.95), (10, 50, 0.93)):
        for seed in range(10):
            for step in range(experiment.N_INIT + T):
                value = final if step == experiment.N_INIT + T - 1 or training_runs == 3 else 0.92
                rows.append({"experiment": "fnn", "problem": "Iris", "method": "EGP-TS (B)", "seed": seed,
                             "run_key": f"{training_runs}-{seed}", "eval": step, "training_runs": training_runs,
                             "T": T, "best_so_far": value + 0.001 * seed})
    table = experiment.name_reduced_fnn(pd.DataFrame(rows), PAPER_PARAMS)
    row = experiment.reduced_fnn_table(table).iloc[0]
    assert row["seeds"] == 10 and row["W/T/L"] == "10/0/0" and row["reduced ends"] == "higher"
    assert row["3 trainings, 30 evaluations"] == pytest.approx(0.9545)
    assert row["10 trainings, 30 evaluations"] == pytest.approx(0.9245)
    assert row["10 trainings, 50 evaluations"] == pytest.approx(0.9345)
    assert experiment.reduced_fnn_table(table[table["experiment"] == "fnn"]) is None


def test_the_random_search_sentence_on_the_robot_tasks_compares_the_best_distances():
    robot = list(experiment.ROBOT)[0]
    levels = {"EGP-TS (A)": 0.5, "GP-TS (RBF)": 2.0}
    runs = _table(levels, block="robot", problems=(robot,), column="best_distance")
    searches = _table({experiment.RANDOM_SEARCH: 1.0}, block="random_search", problems=(robot,),
                      column="best_distance")
    text = experiment.random_search_sentence(pd.concat([runs, searches], ignore_index=True), [robot], list(levels),
                                             block="robot")
    assert "final best distance to the goal" in text and f"{robot} (mean 1" in text
    assert "beats GP-TS (RBF) 0.5" in text and "trails EGP-TS (A) 2" in text


def test_the_evidence_ablation_on_a_robot_task_compares_the_best_distances():
    robot = list(experiment.ROBOT)[0]
    ours = _table({"EGP-TS (A)": 1.0}, block="robot", problems=(robot,), column="best_distance")
    exact = _table({"EGP-TS (A)": 0.5}, block="evidence_ablation", problems=(robot,), column="best_distance",
                   noise=0.001)
    exact["run_key"] += "-exact"
    found = experiment.evidence_ablation_table(pd.concat([ours, exact], ignore_index=True)).iloc[0]
    assert (found["problem"], found["seeds"], found["outcome"]) == (robot, 10, "lower")
    assert found["rf (ours)"] == pytest.approx(1.0, abs=0.01) and found["ratio"].startswith("0.5")


def test_the_random_search_sentence_on_the_fnn_accuracies_compares_differences_higher_is_better():
    levels = {"EGP-TS (B)": 0.95, "GP-TS (RBF)": 0.80}
    runs = _table(levels, block="fnn", problems=("Iris",), column="best_so_far")
    searches = _table({experiment.RANDOM_SEARCH: 0.90}, block="random_search", problems=("Iris",),
                      column="best_so_far")
    text = experiment.random_search_sentence(pd.concat([runs, searches], ignore_index=True), ["Iris"], list(levels),
                                             block="fnn")
    assert "difference of means (random search minus the method)" in text and "Iris (mean 0.9" in text
    assert "beats GP-TS (RBF) +0.1" in text and "trails EGP-TS (B) -0.05" in text


def test_the_evidence_ablation_reruns_egp_ts_at_every_fresh_seed_of_the_drop_wave_confirmations():
    from common import confirmatory

    params = dict(experiment.SCALES["paper"], confirmatory="powered")
    grid = experiment.make_grid(params)
    fresh_ablation = [c for c in grid if c["experiment"] == "evidence_ablation" and c["seed"] >= confirmatory.SEED_OFFSET]
    assert fresh_ablation and {c["problem"] for c in fresh_ablation} == {experiment.EVIDENCE_FRESH_PROBLEM}
    assert {c["weight_evidence"] for c in fresh_ablation} == {"exact"}
    for method in experiment.EVIDENCE_ABLATION_METHODS:
        published = {c["seed"] for c in grid if c["experiment"] == "synthetic" and c["method"] == method
                     and c["problem"] == experiment.EVIDENCE_FRESH_PROBLEM and c["seed"] >= confirmatory.SEED_OFFSET}
        assert {c["seed"] for c in fresh_ablation if c["method"] == method} == published
    assert not [c for c in experiment.make_grid(dict(params, confirmatory=False))
                if c["experiment"] == "evidence_ablation" and c["seed"] >= confirmatory.SEED_OFFSET]


def test_the_maximizer_ablation_repeats_synthetic_runs_changing_only_the_search_of_a_draw():
    grid = experiment.make_grid(PAPER_PARAMS)
    synthetic = {json.dumps({**c, "experiment": None}, sort_keys=True) for c in grid if c["experiment"] == "synthetic"}
    ablation = [c for c in grid if c["experiment"] == "maximizer_ablation"]
    assert len(ablation) == 4 * len(experiment.ABLATION_METHODS) * PAPER_PARAMS["maximizer_ablation_seeds"]
    for config in ablation:
        twin = {**config, "experiment": None, "n_restarts": PAPER_PARAMS["n_restarts"]}
        twin.pop("search_starts")
        assert config["search_starts"] == "random" and json.dumps(twin, sort_keys=True) in synthetic


def test_a_draw_searched_from_uniform_starts_is_a_run_like_any_other():
    params = dict(experiment.SCALES["smoke"])
    config = next(c for c in experiment.make_grid(params) if c["experiment"] == "maximizer_ablation")
    result = experiment.run(config)
    assert len(result["f"]) == 10 + params["synthetic_T"] and np.all(np.diff(result["best_so_far"]) >= 0)
