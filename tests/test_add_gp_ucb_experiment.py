"""The Add-GP-UCB synthetic experiment: its grid, and the regrets a run stores."""
import json
from pathlib import Path

import numpy as np
import pandas as pd
import pytest

from common.experiments import add_gp_ucb as experiment
from common.experiments import add_gp_ucb_blas


def _config(method, problem="(10,3,3)", T_bo=8, seed=0):
    return {"paper": "add_gp_ucb", "experiment": "synthetic", "problem": problem, "method": method, "seed": seed,
            "T_bo": T_bo, "budget_scale": 0.1, "n_dec_factor": 1}


@pytest.mark.parametrize("method", ["RAND", "DiRect", "GP-UCB", "Add-*", "Add-3/4"])
def test_simple_regret_is_nonnegative_nonincreasing_and_below_the_average_regret(method):
    result = experiment.run(_config(method))
    simple, average = result["simple_regret"], result["average_regret"]
    assert len(simple) == experiment.N_INIT + 8
    assert np.all(simple >= 0) and np.all(np.diff(simple) <= 0) and np.all(simple <= average + 1e-12)


def test_every_method_of_a_repetition_starts_from_the_same_design_and_direct_from_the_centre():
    runs = {method: experiment.run(_config(method)) for method in ("RAND", "GP-UCB", "DiRect")}
    np.testing.assert_array_equal(runs["RAND"]["f"][:experiment.N_INIT], runs["GP-UCB"]["f"][:experiment.N_INIT])
    problem = experiment.make_problem("(10,3,3)")
    assert runs["DiRect"]["f"][0] == problem(np.zeros((1, 10)))[0]


def test_a_run_cut_short_is_a_prefix_of_the_full_run():
    full, prefix = experiment.run(_config("Add-*")), experiment.run(_config("Add-*"), iterations=3)
    np.testing.assert_array_equal(prefix["f"], full["f"][:experiment.N_INIT + 3])


def test_the_paper_grid_has_every_configuration_and_one_direct_run_each():
    grid = [c for c in experiment.make_grid(experiment.SCALES["paper"]) if c["experiment"] == "synthetic"]
    assert {c["problem"] for c in grid} == {experiment.configuration_name(*c) for c in experiment.CONFIGURATIONS}
    assert sum(c["method"] == "DiRect" and c.get("settings") == experiment.SCALES["paper"]["settings"]
               for c in grid) == 9
    assert {c["method"] for c in grid if c["problem"] == "(10,3,3)"} == {
        "RAND", "DiRect", "GP-UCB", "Add-*", "Add-1/10", "Add-2/5", "Add-3/4", "Add-5/2"}


def _real_config(method, problem=experiment.SDSS, T_bo=4, seed=0):
    return {**_config(method, problem=problem, T_bo=T_bo, seed=seed), "experiment": "real_world"}


@pytest.mark.parametrize("method", ["RAND", "GP-EI", "REMBO", "Add-5/4"])
def test_a_real_world_run_stores_a_nondecreasing_best_value(method):
    result = experiment.run(_real_config(method))
    assert len(result["f"]) == experiment.N_INIT + 4
    assert np.all(np.diff(result["best_so_far"]) >= 0) and result["best_so_far"][-1] == result["f"].max()


def test_direct_starts_the_viola_jones_search_at_opencvs_thresholds():
    problem = experiment.make_problem(experiment.VIOLA_JONES)
    first = experiment.run(_real_config("DiRect", problem=experiment.VIOLA_JONES, T_bo=1))["f"][0]
    assert first == problem.problem.default_accuracy


def test_the_symmetric_box_maps_its_corners_onto_the_unit_cube():
    problem = experiment.make_problem(experiment.VIOLA_JONES)
    assert np.array_equal(problem.bounds, np.tile([-1.0, 1.0], (22, 1)))
    X = np.random.default_rng(0).uniform(-1, 1, (3, 22))
    np.testing.assert_array_equal(problem(X), problem.problem((X + 1) / 2))


def test_the_sdss_search_box_is_a_sub_box_holding_the_fiducial_point_off_centre():
    problem = experiment.make_problem(experiment.SDSS)
    corners = problem.to_unit(np.array([-np.ones(20), np.ones(20)]))
    np.testing.assert_allclose(corners[1] - corners[0], experiment.SDSS_SUB_BOX_WIDTH)
    fiducial = problem.problem.fiducial_x
    assert np.all((corners[0] <= fiducial) & (fiducial <= corners[1]))
    assert problem(np.zeros((1, 20)))[0] < problem.problem.fiducial_value - 10  # the centre is far from the optimum


def test_the_paper_grid_runs_every_figure_5_method_ten_times():
    grid = [c for c in experiment.make_grid({**experiment.SCALES["paper"], "scale": "paper"})
            if c["experiment"] == "real_world" and c.get("settings") == experiment.SCALES["paper"]["settings"]]
    for problem in experiment.REAL_WORLD:
        methods = experiment.real_world_methods(problem, experiment.SCALES["paper"])
        assert {c["method"] for c in grid if c["problem"] == problem} == set(methods)
        assert sum(c["problem"] == problem for c in grid) == 10 * (len(methods) - 1) + 1


def test_the_configurations_and_set_up_are_the_papers():
    from common import paper_data
    numbers = paper_data.load_paper_numbers("add_gp_ucb")
    shape = numbers[numbers["table"].isin(["fig3", "fig4"])].pivot(index="configuration", columns="parameter",
                                                                    values="value")
    transcribed = {(int(row["D"]), int(row["d'"]), int(row["M'"])) for _, row in shape.iterrows()}
    assert transcribed == set(experiment.CONFIGURATIONS)
    figure_3 = numbers.loc[numbers["table"] == "fig3", "configuration"].unique().tolist()
    assert figure_3 == experiment.FIGURE_3
    setup = numbers[numbers["table"] == "setup"].set_index("parameter")["value"]
    assert (setup["N_init"], setup["N_cyc"]) == (experiment.N_INIT, experiment.RELEARN_EVERY)


def test_the_ablation_must_run_on_seeds_the_synthetic_block_ran():
    params = {**experiment.SCALES["quick"], "scale": "quick", "ablation_configuration": "(40,5,8)"}
    with pytest.raises(ValueError, match="ablation_configuration"):
        experiment.make_grid(params)


def test_the_ablation_table_pairs_each_ablated_run_with_the_default_run_of_its_seed():
    import pandas as pd
    params = {**experiment.SCALES["quick"], "scale": "quick", "ablation_runs": 2}
    rows = [{"run_key": f"{kind}{name}{method}{seed}", "eval": 0, "experiment": kind, "problem": "(24,6,4)",
             "method": method, "seed": seed, "ablation": name, "simple_regret": regret}
            for method in experiment.ablation_methods(params)
            for kind, name, seed, regret in [("synthetic", None, 0, 5.0), ("synthetic", None, 1, 1.0),
                                             ("synthetic", None, 2, 0.0)]
            + [("ablation", name, seed, 2.0) for name in experiment.ABLATIONS[params["settings"]] for seed in (0, 1)]]
    rows = [{**row, **experiment.settings_key(params["settings"])} for row in rows]
    ablation = experiment.ablation_table(pd.DataFrame(rows), params)
    assert (ablation["S_T default"] == 3.0).all() and (ablation["S_T ablated"] == 2.0).all()
    assert (ablation["seeds lower when ablated"] == "1 of 2").all()


def _ablation_rows(params, factor):
    """Synthetic runs of seeds 0..9 at S_T 1..10 and every ablation's runs at ``factor`` times them."""
    rows = []
    for method in experiment.ablation_methods(params):
        for seed in range(params["ablation_runs"]):
            rows.append({"run_key": f"s{method}{seed}", "eval": 0, "experiment": "synthetic",
                         "problem": params["ablation_configuration"], "method": method, "seed": seed,
                         "ablation": None, "simple_regret": 1.0 + seed})
            rows += [{"run_key": f"a{name}{method}{seed}", "eval": 0, "experiment": "ablation",
                      "problem": params["ablation_configuration"], "method": method, "seed": seed, "ablation": name,
                      "simple_regret": factor * (1.0 + seed)} for name in experiment.ABLATIONS[params["settings"]]]
    return [{**row, **experiment.settings_key(params["settings"])} for row in rows]


def test_the_ablation_rules_out_an_effect_only_when_its_interval_lies_within_the_margin():
    import pandas as pd
    params = {**experiment.SCALES["paper"], "scale": "paper"}
    level = experiment.ablation_table(pd.DataFrame(_ablation_rows(params, 1.01)), params)
    assert (level["within 1.1x"] == "yes").all() and (level["outcome"] == "lower").sum() == 0
    doubled = experiment.ablation_table(pd.DataFrame(_ablation_rows(params, 2.0)), params)
    assert (doubled["outcome"] == "higher").all() and (doubled["within 1.1x"] == "no").all()
    assert doubled["ratio"].str.startswith("2x").all()


def test_the_confirmatory_block_is_off_in_every_scale_and_adds_only_fresh_seeds_of_planned_claims():
    from common import confirmatory
    assert all(scale["confirmatory"] is False for scale in experiment.SCALES.values())
    assert experiment.PUBLISHED.get("confirmatory") == "powered"  # published with the fresh seeds of the plan
    params = {**experiment.SCALES["paper"], "scale": "paper"}
    plain = experiment.make_grid(params)
    with_fresh = experiment.make_grid({**params, "confirmatory": "powered"})
    added = with_fresh[len(plain):]
    assert with_fresh[:len(plain)] == plain and added
    assert min(config["seed"] for config in added) >= confirmatory.SEED_OFFSET
    plan = confirmatory.load_plan(experiment.PAPER, "powered")
    assert max(config["seed"] for config in added) == confirmatory.SEED_OFFSET + int(plan["planned_seeds"].max()) - 1
    # DiRect is deterministic: one fresh run; every added run has the keys of its block's paper-scale runs.
    assert sum(config["method"] == "DiRect" for config in added) <= 1
    keys = {config["experiment"]: set(config) for config in plain
            if config.get("settings", "earlier") == params["settings"]}
    assert all(set(config) == keys[config["experiment"]] for config in added)


def test_a_direct_run_does_not_depend_on_its_seed():
    config = {**_real_config("DiRect", T_bo=3), "seed": 10_000}
    np.testing.assert_array_equal(experiment.run(config)["f"], experiment.run(_real_config("DiRect", T_bo=3))["f"])


@pytest.mark.parametrize("problem", ["(40,35,1)", "(40,18,2)"])
def test_direct_under_the_authors_settings_makes_every_query_of_its_budget(problem):
    """The earlier settings' volume tolerance ended DiRect after a few hundred queries in D = 40; the authors'
    diRect.m stops only at its budget."""
    config = {**_config("DiRect", problem=problem, T_bo=400), "budget_scale": 1.0}
    earlier = experiment.run(config)["f"]
    authors = experiment.run({**config, **experiment.settings_key("authors")})["f"]
    assert len(earlier) < experiment.N_INIT + 400 == len(authors)
    np.testing.assert_array_equal(authors[:len(earlier)], earlier)


def test_direct_stops_lists_a_direct_run_shorter_than_the_budget_and_nothing_else():
    def rows(problem, method, n_queries):
        return pd.DataFrame({"experiment": "synthetic", "problem": problem, "method": method,
                             "eval": np.arange(n_queries)})
    table = pd.concat([rows("(40,35,1)", "GP-UCB", 410), rows("(40,35,1)", "DiRect", 159),
                       rows("(10,3,3)", "GP-UCB", 410), rows("(10,3,3)", "DiRect", 410)])
    stops = experiment.direct_stops(table)
    assert stops[["problem", "direct_queries", "budget"]].values.tolist() == [["(40,35,1)", 159, 410]]


def test_early_dips_find_the_minimum_of_a_dipping_curve_and_no_climb_on_a_falling_one():
    queries = np.arange(1, 101)
    dipping = np.where(queries <= 20, 100.0 - 2 * queries, 60.0 + 0.5 * (queries - 20))  # lowest at T = 20
    falling = 100.0 / queries

    def rows(curve, settings):
        return pd.DataFrame([{"experiment": "synthetic", "problem": "(96,5,19)", "method": "Add-*", "seed": seed,
                              "eval": T - 1, "average_regret": value + seed, **settings}
                             for seed in (0, 1) for T, value in zip(queries, curve)])
    runs = rows(falling, experiment.settings_key("authors"))
    earlier = rows(dipping, {})
    dips = experiment.early_dips(runs, earlier, ["(96,5,19)"]).iloc[0]
    assert dips["minimum at T, earlier"] == 20 and dips["minimum at T, authors"] == 60
    assert dips["climb after it, earlier"] == pytest.approx(100.5 / 60.5)
    assert dips["climb after it, authors"] == 1.0
    assert experiment.early_dips(runs, earlier.iloc[:0], ["(96,5,19)"]).empty


def test_the_grid_names_its_settings_and_runs_the_earlier_ones_beside_on_the_same_seeds():
    params = {**experiment.SCALES["paper"], "scale": "paper", "settings": "authors"}
    grid = experiment.make_grid(params)
    synthetic = [c for c in grid if c["experiment"] == "synthetic"]
    ours = [c for c in synthetic if c.get("settings") == "authors"]
    earlier = [c for c in synthetic if "settings" not in c]
    assert len(ours) + len(earlier) == len(synthetic) and ours
    same_seeds = [{k: v for k, v in c.items() if k != "settings"} for c in ours
                  if c["seed"] < params["earlier_settings_runs"]]
    assert same_seeds == earlier
    assert all(c.get("settings") == "authors" for c in grid if c["experiment"] == "ablation")
    real_world = [c for c in grid if c["experiment"] == "real_world"]
    ours = [c for c in real_world if c.get("settings") == "authors"]
    earlier = [c for c in real_world if "settings" not in c]
    assert len(ours) + len(earlier) == len(real_world) and earlier
    assert [{k: v for k, v in c.items() if k != "settings"} for c in ours] == earlier  # Fig. 5: the same 10 seeds
    only_earlier = experiment.make_grid({**params, "settings": "earlier"})
    assert all("settings" not in c for c in only_earlier)


def test_under_the_authors_code_settings_the_grid_runs_both_superseded_settings_on_the_same_seeds():
    params = {**experiment.SCALES["paper"], "settings": "authors-code"}
    grid = experiment.make_grid(params)
    assert experiment.superseded("authors-code") == ("earlier", "authors")
    assert not [config for config in grid if config["experiment"] == "authors_details"]
    assert {config.get("settings") for config in grid if config["experiment"] == "ablation"} == {"authors-code"}
    for block, seeds in (("synthetic", params["earlier_settings_runs"]),
                         ("real_world", min(params["real_world_runs"], params["earlier_settings_runs"]))):
        runs = [config for config in grid if config["experiment"] == block]

        def without_settings(name):
            return [{key: value for key, value in config.items() if key != "settings"} for config in runs
                    if config.get("settings", "earlier") == name and config["seed"] < seeds]
        assert without_settings("authors-code")
        assert without_settings("authors") == without_settings("earlier") == without_settings("authors-code")


def test_an_authors_details_run_is_the_authors_code_run_of_the_same_seed():
    """The authors_details block sets the same choices as the "authors-code" settings and draws the same random
    streams, so under the "authors" settings it stands for the "authors-code" runs of its seeds."""
    details = next(config for config in experiment.make_grid({**experiment.SCALES["smoke"], "settings": "authors"})
                   if config["experiment"] == "authors_details" and config["method"] == "Add-*")
    twin = {**{key: value for key, value in details.items() if key not in experiment.AUTHORS_DETAILS},
            "experiment": "synthetic", "settings": "authors-code"}
    np.testing.assert_array_equal(experiment.run(details)["f"], experiment.run(twin)["f"])


def test_details_runs_are_the_runs_without_and_with_the_two_details_under_either_settings():
    def rows(block, settings, level):
        return [{"experiment": block, "problem": experiment.AUTHORS_DETAILS_CONFIGURATION, "method": "GP-UCB",
                 "seed": seed, "eval": step, "simple_regret": level * (1 + 0.1 * seed), **settings}
                for seed in range(5) for step in range(60)]
    table = pd.DataFrame(rows("synthetic", {}, 5.0) + rows("synthetic", {"settings": "authors"}, 2.0)
                         + rows("authors_details", {"settings": "authors", **experiment.AUTHORS_DETAILS}, 1.0)
                         + rows("synthetic", {"settings": "authors-code"}, 1.0))
    for published in ("authors", "authors-code"):
        params = {**experiment.SCALES["paper"], "settings": published}
        runs = experiment.details_runs(table, params)
        assert (runs["authors"]["experiment"] == "synthetic").all() and len(runs["authors"]) == 300
        assert set(runs["authors-code"]["experiment"]) == {"authors_details" if published == "authors" else "synthetic"}
        row = experiment.authors_details_table(table, params).iloc[0]
        assert (row["published"], row["seeds"]) == (published, 5)
        assert row["S_50 authors"] == pytest.approx(2.4) and row["S_50 authors-code"] == pytest.approx(1.2)
        assert row["ratio at T=50"].startswith("0.5x") and row["outcome at T=50"] == "lower"
    earlier = experiment.details_runs(table, {**experiment.SCALES["paper"], "settings": "earlier"})
    assert all(frame.empty for frame in earlier.values())


def test_an_ablation_changes_one_choice_of_its_settings_and_nothing_else():
    for settings, ablations in experiment.ABLATIONS.items():
        for choices in ablations.values():
            changed = {name: value for name, value in choices.items()
                       if experiment.SETTINGS[settings].get(name, value if name != "initial_bandwidth" else None)
                       != value}
            assert len(changed) == 1, (settings, choices)


def test_early_climb_is_the_largest_ratio_to_rand_inside_the_window():
    rows = [{"experiment": "synthetic", "problem": "(10,3,3)", "method": method, "seed": 0, "eval": eval_index,
             "average_regret": value}
            for method, values in {"RAND": [1.0, 1.0, 1.0], "Add-*": [0.5, 1.8, 0.9], "DiRect": [9.0, 9.0, 9.0],
                                   "GP-UCB": [0.8, 0.9, 0.7]}.items()
            for eval_index, value in zip((9, 10, 11), values)]
    climb = experiment.early_climb(pd.DataFrame(rows), window=(11, 12)).set_index("method")
    assert sorted(climb.index) == ["Add-*", "GP-UCB"]  # RAND and DiRect left out
    assert climb.loc["Add-*", "largest ratio to RAND"] == pytest.approx(1.8)
    assert climb.loc["Add-*", "at T"] == 11  # T = eval + 1; T = 10 lies outside the window
    sentence = experiment.early_climb_sentence(climb.reset_index())
    assert sentence.startswith("1 of 2 (configuration, method) cells climb above RAND's")
    assert "by up to 1.80x (Add-* on (10,3,3) at T = 11)" in sentence


def test_the_authors_details_block_runs_the_synthetic_seeds_with_the_two_details_and_nothing_else():
    params = {**experiment.SCALES["paper"], "settings": "authors"}
    grid = experiment.make_grid(params)
    details = [config for config in grid if config["experiment"] == "authors_details"]
    synthetic = {(config["method"], config["seed"]): config for config in grid if config["experiment"] == "synthetic"
                 and config["problem"] == experiment.AUTHORS_DETAILS_CONFIGURATION
                 and config.get("settings") == "authors"}
    assert len(details) == len(experiment.AUTHORS_DETAILS_METHODS) * params["authors_details_runs"]
    for config in details:
        twin = synthetic[(config["method"], config["seed"])]
        differing = {key for key in config.keys() | twin.keys() if config.get(key) != twin.get(key)}
        assert differing == {"experiment", *experiment.AUTHORS_DETAILS}


def test_the_authors_details_block_needs_the_seeds_the_synthetic_block_ran():
    params = {**experiment.SCALES["paper"], "n_runs": 5, "ablation_runs": 0, "settings": "authors"}
    with pytest.raises(ValueError, match="authors_details_runs"):
        experiment.make_grid(params)


AUTHORS_RUNS = Path(__file__).resolve().parents[1] / "data" / "authors_code" / "add_gp_ucb" / "library"


@pytest.mark.parametrize("method", ["add-star", "gp-ucb"])
def test_with_the_authors_details_our_method_proposes_the_authors_points_on_their_data(method):
    """Replayed on a run of the authors' code under Octave (benchmarks/authors_add_gp_ucb.py), with the same
    queries and values so far, our Add-* and GP-UCB propose the authors' next point at each of the first 30
    iterations (two hyperparameter fits, DIRECT on the acquisition at each), except where a repeated point is moved
    by random noise; without the two details they do not."""
    record = json.loads((AUTHORS_RUNS / f"{method}-seed1.json").read_text())
    exact, moved = experiment.replay_authors_run(record, 30, **experiment.AUTHORS_DETAILS)
    published, _ = experiment.replay_authors_run(record, 30)
    assert exact[~moved].max() < 1e-9 and moved.sum() <= 1
    assert published.max() > 1e-3


def test_from_the_authors_initial_points_our_method_repeats_their_run():
    record = json.loads((AUTHORS_RUNS / "gp-ucb-seed1.json").read_text())
    theirs = np.minimum.accumulate(record["optimum"] - np.asarray(record["values"]))
    ours = experiment.from_authors_design(record, 25, **experiment.AUTHORS_DETAILS)
    np.testing.assert_allclose(ours, theirs[:len(ours)], rtol=0, atol=1e-9)


def test_the_authors_code_sentence_counts_runs_and_cells_apart():
    designs = pd.DataFrame({"method": ["Add-*"], "runs": [10], "same S_25": [10], "same S_50": [9]})
    comparison = pd.DataFrame({"method": ["Add-*", "Add-*"], "T": [25, 50],
                               experiment.RATIO_TO_AUTHORS: ["1.55x [1.07, 2.33]", "1.3x [0.7, 2.8]"]})
    sentence = experiment.authors_code_sentence(comparison, designs)
    assert "10 of 10 runs at T = 25, 9 of 10 runs at T = 50" in sentence
    assert "in 1 of 2 (method, T) cells (Add-* at T = 25: 1.55x [1.07, 2.33])" in sentence


@pytest.mark.parametrize("replays", [0, 1, 3, 20])
def test_section_4_replays_each_methods_lowest_seeds_of_the_authors_runs(replays):
    records = experiment.authors_code_runs()[1]
    chosen = experiment.replayed_records(records, {"authors_code_replays": replays})
    for method in experiment.AUTHORS_DETAILS_METHODS:
        seeds = sorted(record["seed"] for record in records if record["method"] == method)
        assert sorted(record["seed"] for record in chosen if record["method"] == method) == seeds[:replays]


@pytest.mark.parametrize("experiment_name", ["authors_replay", "authors_design", "reference BLAS replay"])
def test_a_cached_run_on_an_authors_run_recomputes_to_the_same_numbers(experiment_name, monkeypatch):
    """§4's replays and runs from the authors' designs, and its replays of their runs made again under the
    reference BLAS, are read from the committed cache: the first of each recomputes to the stored arrays, bit for
    bit where this process computes as the run did (the same BLAS kernels and numpy loops), else to 1e-6."""
    from common import paths, store
    from common.notebook import configuration

    monkeypatch.delenv(paths.RESULTS_ROOT_VARIABLE, raising=False)  # the committed cache
    if experiment_name == "reference BLAS replay":
        grid = add_gp_ucb_blas.reference_blas_grid(experiment.authors_code_runs(experiment.REFERENCE_BLAS_RUNS)[1],
                                              configuration(experiment))
        experiment_name = "authors_replay"
    else:
        grid = experiment.authors_run_grid(experiment.authors_code_runs()[1], configuration(experiment))
    config = next(config for config in grid if config["experiment"] == experiment_name)
    stored = store.load_run(config)
    versions = store.process_versions()
    same_numerics = stored.kernels == versions["kernels"] and stored.versions.get("numpy_simd") == versions["numpy_simd"]
    for name, value in experiment.run_on_authors_run(config).items():
        if same_numerics:
            np.testing.assert_array_equal(value, stored.result[name], err_msg=name)
        else:
            np.testing.assert_allclose(value, stored.result[name], rtol=1e-6, atol=1e-9, err_msg=name)


def test_a_run_on_an_authors_run_whose_record_changed_names_it():
    config = {**experiment.authors_run_grid(experiment.authors_code_runs()[1], {"authors_code_replays": 1})[0],
              "authors_run": "0" * 16}
    with pytest.raises(LookupError, match="benchmarks/authors_add_gp_ucb.py"):
        experiment.run_on_authors_run(config)


def _replay(method, seed, parts_at=None, moved_at=None, settings="authors-code", iterations=5):
    distance = np.zeros(iterations)
    if parts_at:
        distance[parts_at - 1:] = 0.5
    moved = np.zeros(iterations, dtype=bool)
    if moved_at:
        moved[moved_at - 1] = True
        distance[moved_at - 1] = 0.1
    return pd.DataFrame({"experiment": "authors_replay", "method": method, "seed": seed, "settings": settings,
                         "eval": np.arange(iterations),
                         "distance": distance, "moved": moved})


def test_the_blas_parting_table_gives_each_first_parting_and_what_ours_matches_on_the_rerun():
    N = experiment.N_INIT
    queries = np.zeros((N + 5, 2))
    saved = [{"method": "Add-*", "seed": 1, "queries": queries.tolist()},
             {"method": "Add-*", "seed": 2, "queries": queries.tolist()}]
    rerun_queries = queries.copy()
    rerun_queries[N + 2:] = 1.0  # their code under the reference BLAS parts at BO iteration 3
    reruns = [{"method": "Add-*", "seed": 1, "queries": queries.tolist()},
              {"method": "Add-*", "seed": 2, "queries": rerun_queries.tolist()}]
    replays = pd.concat([_replay("Add-*", 1, moved_at=2), _replay("Add-*", 2, parts_at=3),
                         _replay("Add-*", 2, parts_at=1, settings="authors"),
                         _replay("Add-*", 2, parts_at=1).assign(experiment="authors_design")], ignore_index=True)
    on_reruns = pd.concat([_replay("Add-*", 1), _replay("Add-*", 2, parts_at=5)], ignore_index=True)
    table = add_gp_ucb_blas.blas_parting_table(saved, reruns, replays, on_reruns, "authors-code").set_index("seed")
    assert pd.isna(table.loc[1, "ours parts from the saved run at"])
    assert pd.isna(table.loc[1, "their code, reference BLAS, parts from it at"])
    assert table.loc[2, "ours parts from the saved run at"] == 3
    assert table.loc[2, "their code, reference BLAS, parts from it at"] == 3
    assert table["ours on their reference-BLAS run"].tolist() == [5, 4]
    sentence = add_gp_ucb_blas.blas_parting_sentence(table.reset_index())
    assert "Ours parts from 1 of the 2 saved runs" in sentence and "from 1; the two part at the same iteration" \
        " (or neither parts) in 2 of 2" in sentence
    assert sentence.endswith(f"at all {experiment.REPLAYED_ITERATIONS} iterations in 0 of 2.")
